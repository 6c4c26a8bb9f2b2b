"""The MMS boxes of Android's telephony provider, read as rows of the SMS provider's form.

A text sent as MMS (a long one, where the messaging app is set to send those as MMS, or one
with an attachment) is not a row of ``content://sms/sent``. It is a message of the MMS
provider's box (``content://mms/sent``: its ``_id``, its ``date`` in seconds, ``read``);
its text is the ``text`` of its ``text/plain`` part, a row of ``content://mms/part`` that
names the message by ``mid`` (the others are the SMIL layout and attachments); and its
numbers are rows of ``content://mms/<_id>/addr``, ``type`` 151 for a recipient and 137 for
the sender. :func:`read_box` puts these together as the SMS provider's columns (``address``,
``body``, ``date`` in milliseconds, ``read``), so the fields a probe maps to those columns
read an MMS as they read an SMS; a column the MMS provider keeps in no such form (an SMS's
delivery ``status``) is not in the row, and a field read from it is read only in the texts
the SMS provider keeps.

A message that is not one text to one number cannot be read as a record: one sent to several
numbers (a group message), or one whose text is in several parts. Such a box is not read
(:class:`parse.Unread`), never guessed.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from tasklang.envs.device import parse
from tasklang.envs.device.shell import Command

TO, FROM = "151", "137"  # an address row's `type`: PduHeaders.TO and PduHeaders.FROM
# the boxes, each with the party its texts' `address` is (the sender of what came in)
BOXES = {
    "content://mms/inbox": FROM,
    "content://mms/sent": TO,
    "content://mms/outbox": TO,
    "content://mms/drafts": TO,
}
PARTS = "content://mms/part"
PLAIN = "text/plain"
BOX_COLUMNS = ["_id", "date", "read"]
PART_COLUMNS = ["mid", "seq", "ct", "text"]  # `text` last: it may hold anything
ADDR_COLUMNS = ["type", "address"]
_NUMBER = re.compile(r"\d{1,19}")


def is_box(uri: str) -> bool:
    return uri in BOXES


def box_command(uri: str, what: str) -> Command:
    return Command(
        ("content", "query", "--uri", uri, "--projection", ":".join(BOX_COLUMNS)),
        f"read {what}: the messages of {uri}",
    )


def parts_command(what: str) -> Command:
    return Command(
        ("content", "query", "--uri", PARTS, "--projection", ":".join(PART_COLUMNS)),
        f"read {what}: the parts of MMS messages",
    )


def addr_command(mid: str, what: str) -> Command:
    """The address rows of the message ``mid`` (an id the box listed: digits only)."""
    return Command(
        ("content", "query", "--uri", f"content://mms/{_id(mid)}/addr",
         "--projection", ":".join(ADDR_COLUMNS)),
        f"read {what}: the numbers of MMS message {mid}",
    )  # fmt: skip


def delete_command(mid: str) -> Command:
    """Delete the message ``mid`` (an id a box listed): its parts and numbers go with it."""
    return Command(
        ("content", "delete", "--uri", f"content://mms/{_id(mid)}"), f"delete MMS message {mid}"
    )


def _id(mid: str) -> str:
    if not _NUMBER.fullmatch(mid):
        raise parse.OutputError(f"an MMS message's `_id` is {mid[:40]!r}, not a number")
    return mid


def read_box(
    uri: str, run: Callable[[tuple[str, ...]], str], what: str
) -> list[dict[str, str | None]]:
    """The messages of the MMS box ``uri`` as rows of the SMS provider's columns (see the
    module's text). Raises ``parse.Unread`` for a message that is not one text to one
    number, ``parse.OutputError`` for output in no known form."""
    messages = parse.parse_content_rows(run(box_command(uri, what).argv), BOX_COLUMNS)
    if not messages:
        return []
    parts = parse.parse_content_rows(run(parts_command(what).argv), PART_COLUMNS)
    party = BOXES[uri]
    rows = []
    for msg in messages:
        mid, date = msg["_id"] or "", msg["date"] or ""
        if not _NUMBER.fullmatch(date):
            raise parse.OutputError(f"MMS message {mid[:40]!r}'s `date` is {date[:40]!r}")
        texts = [p for p in parts if p["mid"] == mid and p["ct"] == PLAIN]
        if len(texts) > 1:
            raise parse.Unread(f"{what}: MMS message {mid} holds its text in {len(texts)} parts")
        addrs = parse.parse_content_rows(run(addr_command(mid, what).argv), ADDR_COLUMNS)
        numbers = [a["address"] for a in addrs if a["type"] == party]
        if len(numbers) != 1 or numbers[0] is None:
            raise parse.Unread(
                f"{what}: MMS message {mid} is addressed to {len(numbers)} numbers, not one"
            )
        rows.append({
            "_id": mid,
            "address": numbers[0],
            "body": (texts[0]["text"] or "") if texts else "",
            "date": str(int(date) * 1000),
            "read": msg["read"],
        })  # fmt: skip
    return rows


BoxRows = tuple[
    list[dict[str, str | None]], list[dict[str, str | None]], dict[str, list[dict[str, str | None]]]
]


def box_rows(records: list[dict[str, str | None]], party: str, first: int = 1) -> BoxRows:
    """What the MMS provider holds for texts given as rows of the SMS provider's columns
    (:func:`read_box`'s inverse, as a phone answers): the box's rows, the parts' rows (the
    SMIL layout and the text), and each message's address rows by its id. The messages are
    numbered from ``first``."""
    box: list[dict[str, str | None]] = []
    parts: list[dict[str, str | None]] = []
    addrs: dict[str, list[dict[str, str | None]]] = {}
    other = FROM if party == TO else TO  # the phone's own number, as the provider keeps it
    for i, rec in enumerate(records):
        mid, date = str(first + i), rec.get("date")
        box.append({"_id": mid, "date": str(int(date) // 1000) if date else None,
                    "read": rec.get("read") or "1"})  # fmt: skip
        parts.append({"mid": mid, "seq": "-1", "ct": "application/smil", "text": None})
        parts.append({"mid": mid, "seq": "0", "ct": PLAIN, "text": rec.get("body") or ""})
        addrs[mid] = [{"type": other, "address": "insert-address-token"},
                      {"type": party, "address": rec.get("address")}]  # fmt: skip
    return box, parts, addrs
