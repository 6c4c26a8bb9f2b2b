"""How WeChat keeps a chat message in its database (`EnMicroMsg.db`, table `message`).

A row's `type` says what the message is, and `content` holds it: a text message's words, or
an XML document for anything else (`<msg>...</msg>`). WeChat's own type codes:

| `type` | message | `content` |
|---|---|---|
| 1 | text | the words; in a group chat, a message received starts with `SENDER:` and a line break |
| 3 | image | `<msg><img .../></msg>`: no file name (`ImgInfo2` keeps the original's MD5) |
| 34 | voice | the recording's details: no words |
| 48 | location | `<msg><location ... label="ADDRESS" poiname="PLACE" /></msg>` |
| 49 | an app message | `<msg><appmsg>...<type>N</type>...</appmsg></msg>`, N below |
| 419430449 | a transfer (app message 2000) | `<wcpayinfo>` holds `<feedesc>` (the amount, `￥12.50`) and `<pay_memo>` (the note) |
| 436207665 | a red packet (app message 2001) | no amount until it is opened |
| 1090519089 | a file (app message 6) | `<title>` is the file's name |

An app message's own `<type>`: 5 a link (`<title>` the page's title), 6 a file, 33 and 36 a
mini-program's card (a link), 2000 a transfer, 2001 a red packet.

An image message keeps no file name, but WeChat keeps the MD5 of the original file it sent
(`origImgMD5`, in the image's rows of `ImgInfo2`, whose `msglocalid` is the message's `msgId`),
by which it finds an image it has sent before: its `body` reads as that digest
(:class:`codec.FileDigest`), which the reading names by the files its records name
(``probes.name_by_digest``).

A field a row does not keep (a red packet's amount, the kind of a sticker or a video, which
the app model has no member for, an image whose rows name no one digest) raises
:class:`NotKept`: the row's record is read without it, and the field is read only where a
record holds it, never guessed (see ``probes.records_of``).
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from tasklang import ir
from tasklang.envs.device.codec import (
    WECHAT_IMAGE_MD5,
    WECHAT_MESSAGE,
    Codec,
    FileDigest,
    NotKept,
    Raw,
    name_digest,
)

TEXT, IMAGE, VOICE, LOCATION, APP = "1", "3", "34", "48", "49"
TRANSFER, RED_PACKET, FILE = "419430449", "436207665", "1090519089"
KINDS = {TEXT: "text", IMAGE: "image", VOICE: "voice", LOCATION: "location",
         TRANSFER: "transfer", RED_PACKET: "red_packet", FILE: "file"}  # fmt: skip
APP_KINDS = {"5": "link", "6": "file", "33": "link", "36": "link", "2000": "transfer",
             "2001": "red_packet"}  # fmt: skip
MEMBERS = frozenset(["text", "image", "voice", "file", "location", "link", "transfer",
                     "red_packet"])  # fmt: skip

_FEE = re.compile(r"\D*?(\d[\d,]*)(?:\.(\d{1,2}))?\s*")


def stored(record: dict[str, Any]) -> dict[str, str | None]:
    """The row a message is kept as: `type`, `isSend`, `talker` and `content`."""
    kind, body = record.get("kind") or "text", str(record.get("body") or "")
    title = f"<title>{escape(body)}</title>"
    if kind == "text":
        code, content = TEXT, body
    elif kind == "image":
        code, content = IMAGE, '<msg><img length="0" /></msg>'
    elif kind == "voice":
        code, content = VOICE, '<msg><voicemsg voicelength="0" /></msg>'
    elif kind == "location":
        code, content = LOCATION, f'<msg><location label="" poiname={quoteattr(body)} /></msg>'
    elif kind == "file":
        code, content = FILE, f"<msg><appmsg>{title}<type>6</type></appmsg></msg>"
    elif kind == "link":
        code, content = APP, f"<msg><appmsg>{title}<type>5</type></appmsg></msg>"
    elif kind == "transfer":
        amount = record.get("amount")
        fee = f"￥{amount // 100}.{amount % 100:02d}" if isinstance(amount, int) else ""
        pay = f"<wcpayinfo><feedesc>{fee}</feedesc><pay_memo>{escape(body)}</pay_memo></wcpayinfo>"
        code, content = TRANSFER, f"<msg><appmsg><type>2000</type>{pay}</appmsg></msg>"
    else:
        code, content = RED_PACKET, "<msg><appmsg><type>2001</type></appmsg></msg>"
    outgoing, chat = record.get("outgoing"), str(record.get("chat") or "")
    if kind == "text" and outgoing is False and chat.endswith("@chatroom"):
        content = f"{chat}:\n{content}"  # a member's id (the record does not say whose)
    return {
        "type": code,
        "isSend": None if outgoing is None else "1" if outgoing else "0",
        "talker": None if record.get("chat") is None else str(record.get("chat")),
        "content": content,
    }


def _document(content: str) -> ET.Element:
    """The XML a row's content holds (a received one may start with its sender's id)."""
    start = content.find("<msg")
    try:
        return ET.fromstring(content[start:] if start >= 0 else content)
    except ET.ParseError:
        raise NotKept("its content is no message XML") from None


def _kind(code: str, content: str) -> str:
    if code in KINDS:
        return KINDS[code]
    if code == APP:
        own = _document(content).findtext("appmsg/type")
        if own is not None and own.strip() in APP_KINDS:
            return APP_KINDS[own.strip()]
    raise NotKept(f"a message of type {code[:12]} is of no kind the app model has")


def digests(record: dict[str, Any]) -> str:
    """What the rows of `ImgInfo2` keep of a message, as the probe reads them (a JSON array):
    an image's original, by the digest PhoneWorld gives the file its body names
    (``codec.name_digest``); nothing for any other message."""
    body = record.get("body")
    if record.get("kind") == "image" and isinstance(body, str) and body:
        return json.dumps([name_digest(body)])
    return "[]"


def _image(kept: Any) -> FileDigest:
    """An image's original file, from the digests its rows of `ImgInfo2` keep (read as a
    JSON array: rows may repeat it, or keep none)."""
    found = (
        {d.strip().lower() for d in kept if isinstance(d, str) and d.strip()}
        if isinstance(kept, list)
        else set()
    )
    if len(found) != 1:
        raise NotKept(f"an image's rows of ImgInfo2 keep {len(found)} digests of its original")
    (md5,) = found
    return FileDigest(md5)


def _body(code: str, sent: str, talker: str, content: str, kept: Any = ()) -> str | FileDigest:
    kind = _kind(code, content)
    if kind == "image":
        return _image(kept)
    if kind == "text":
        if sent == "0" and talker.endswith("@chatroom"):  # `SENDER:\n` first
            _, mark, words = content.partition(":\n")
            if not mark:
                raise NotKept("a group's message with no sender")
            return words
        return content
    doc = _document(content)
    if kind == "file":
        title = doc.findtext("appmsg/title")
    elif kind == "location":
        place = doc.find("location")
        title = place.get("poiname") if place is not None else None
    elif kind == "transfer":
        title = doc.findtext("appmsg/wcpayinfo/pay_memo", default="")
    else:
        raise NotKept(f"a {kind} message keeps no body")
    if title is None:
        raise NotKept(f"a {kind} message without its name")
    return title


def _amount(code: str, content: str) -> int | None:
    kind = _kind(code, content)
    if kind == "red_packet":
        raise NotKept("a red packet's amount shows only once it is opened")
    if kind != "transfer":
        return None
    fee = _document(content).findtext("appmsg/wcpayinfo/feedesc")
    m = _FEE.fullmatch(fee or "")
    if m is None:
        raise NotKept(f"a transfer's amount reads {str(fee)[:20]!r}")
    return int(m[1].replace(",", "")) * 100 + int((m[2] or "0").ljust(2, "0"))


def message_codec(part: str, t: ir.Type) -> Codec | None:
    """The codec of a message's ``part`` (`kind`, `body` or `amount`) read from the columns
    ``codec.WECHAT_MESSAGE`` names; None where the field's type does not fit."""
    if part == "kind" and not (t.name == "enum" and set(t.members or ()) <= MEMBERS):
        return None
    if (part, t.name) not in {("kind", "enum"), ("body", "text"), ("amount", "money")}:
        return None
    columns = WECHAT_MESSAGE[part].split(",")

    def from_record(record: dict[str, Any]) -> Raw:
        row = {**stored(record), WECHAT_IMAGE_MD5: digests(record)}
        values = [row[c] for c in columns]
        return None if any(v is None for v in values) else ",".join(str(v) for v in values)

    def decode(raw: Raw) -> Any:
        if raw is None:  # a column of the row is NULL
            raise NotKept(f"a message's {part} needs each of {WECHAT_MESSAGE[part]}")
        if part == "body":  # type, isSend, talker, the digests (a JSON array), content
            head = raw.split(",", 3)
            if len(head) != 4:
                raise NotKept("the row lacks a column")
            try:
                kept, end = json.JSONDecoder().raw_decode(head[3])
            except ValueError:
                raise NotKept("an image's rows of ImgInfo2 read as no list") from None
            if head[3][end : end + 1] != ",":
                raise NotKept("the row lacks a column")
            code, content = head[0].strip(), head[3][end + 1 :]
            return _body(code, head[1].strip(), head[2], content, kept)
        values = raw.split(",", len(columns) - 1)
        if len(values) != len(columns):
            raise NotKept("the row lacks a column")
        code = values[0].strip()
        if part == "kind":
            return _kind(code, values[1])
        return _amount(code, values[1])

    def encode(v: Any) -> Raw:  # the row is written from the whole record (`from_record`)
        return None if v is None else str(v)

    return Codec(encode, decode, from_record=from_record, partial=True)
