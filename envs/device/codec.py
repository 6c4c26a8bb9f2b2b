"""How typed app-model values are written in a phone's own storage, and read back.

A probe reads raw text (a provider column, a settings value, a SQLite cell, a file listing);
the app model says the field's type. A codec turns one into the other. ``exact`` says
whether reading back what was written always gives the same JSON value: only exact fields
count as observable, so a checker never decides on a value it could have read wrongly.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tasklang import ir
from tasklang.appmodel import MEDIA, PREFS_ENTRY, PREFS_UNITS, prefs_entry_map
from tasklang.envs.device import wifi

Raw = str | None


@dataclass(frozen=True)
class Codec:
    encode: Callable[[Any], Raw]
    decode: Callable[[Raw], Any]
    exact: bool = True
    # a column whose stored value depends on other fields of the record (a parent folder's
    # path, where the field holds only its name): what the phone stores, from the record
    from_record: Callable[[dict[str, Any]], Raw] | None = None
    # a list kept as one row of another provider per item (a group's members): the raw value
    # is a JSON array of the rows' values
    many: bool = False
    # some rows do not keep the field (`decode` raises `NotKept`): it is read only in the
    # records that hold it
    partial: bool = False


class DecodeError(ValueError):
    """A raw value that does not fit the field's type (garbage from the device)."""


class NotKept(ValueError):
    """A row that does not keep the field at all (a WeChat image message keeps no file
    name): not garbage, but nothing to read the field from."""


@dataclass(frozen=True)
class FileDigest:
    """A field whose value is a file's name, read as the MD5 of the file's content (WeChat
    keeps an image it sent as the digest of the original file, not its name): the reading
    names it by the files its records name (``probes.name_by_digest``)."""

    md5: str


def name_digest(name: str) -> str:
    """The MD5 PhoneWorld gives a file's content: its files hold no pixels of their own, so a
    photo is told apart by its name, and two files of one name read as copies of one photo.

    >>> name_digest("beach_day.jpg")
    'bacd5f7633fd7bd3e761d07caea9670d'
    """
    return hashlib.md5(name.encode("utf-8", "surrogatepass")).hexdigest()


def _text_encode(v: Any) -> Raw:
    if v is None:
        return None
    return v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)


def _text_decode(raw: Raw) -> Any:
    return raw


def _int_encode(v: Any) -> Raw:
    return None if v is None else str(int(v)) if not isinstance(v, str) else v


def _int_decode(raw: Raw) -> Any:
    if raw is None:
        return None
    try:
        return int(raw.strip())
    except ValueError:
        raise DecodeError(f"expected an integer, read {raw[:40]!r}") from None


def _number_encode(v: Any) -> Raw:
    return None if v is None else repr(v) if isinstance(v, float) else str(v)


def _number_decode(raw: Raw) -> Any:
    if raw is None:
        return None
    text = raw.strip()
    try:
        return int(text) if text.lstrip("-").isdigit() else float(text)
    except ValueError:
        raise DecodeError(f"expected a number, read {raw[:40]!r}") from None


def _bool_encode(v: Any) -> Raw:
    return None if v is None else "1" if v else "0"


def _bool_decode(raw: Raw) -> Any:
    if raw is None:
        return None
    text = raw.strip().lower()
    if text in ("1", "true"):
        return True
    if text in ("0", "false"):
        return False
    raise DecodeError(f"expected a boolean, read {raw[:40]!r}")


def _json_encode(v: Any) -> Raw:
    return None if v is None else json.dumps(v, ensure_ascii=False, sort_keys=True)


def _json_decode(raw: Raw) -> Any:
    if raw is None:
        return None
    try:
        return json.loads(raw)
    except ValueError:
        raise DecodeError(f"expected JSON, read {raw[:40]!r}") from None


TEXT = Codec(_text_encode, _text_decode)
INT = Codec(_int_encode, _int_decode)
NUMBER = Codec(_number_encode, _number_decode)
BOOL = Codec(_bool_encode, _bool_decode)
JSON = Codec(_json_encode, _json_decode)
OPAQUE = Codec(_text_encode, _text_decode, exact=False)  # a column that means something else


def by_type(t: ir.Type) -> Codec:
    """The plain codec of a type: text as is, numbers in decimal, booleans 1/0, lists as JSON."""
    if t.name in ("int", "money", "duration"):
        return INT
    if t.name == "number":
        return NUMBER
    if t.name == "bool":
        return BOOL
    if t.name in ("list", "record", "any"):
        return JSON
    return TEXT


def mapping(pairs: dict[Any, str]) -> Codec:
    """A codec over a fixed set of values (an enum, a boolean a setting writes as 1/2)."""
    back = {v: k for k, v in pairs.items()}

    def encode(v: Any) -> Raw:
        return None if v is None else pairs.get(v, str(v))

    def decode(raw: Raw) -> Any:
        if raw is None:
            return None
        if raw.strip() in back:
            return back[raw.strip()]
        raise DecodeError(f"unexpected value {raw[:40]!r}")

    return Codec(encode, decode)


def built_in(pairs: dict[str, str]) -> Codec:
    """A reference to a row the app gives the value's id (an event's type), where only the
    built-in rows' ids are known: any other id is a row of the user's own, which this
    column does not name (the field is read only in the records of built-in values). A value
    of no built-in row cannot be written.

    >>> c = built_in({"Regular event": "1"})
    >>> c.encode("Regular event"), c.decode("1")
    ('1', 'Regular event')
    >>> try:
    ...     c.decode("7")
    ... except NotKept as exc:
    ...     print(exc)
    the row names 7, no built-in value: one of the user's own
    """
    known = many_to_one(pairs, {v: k for k, v in pairs.items()})

    def encode(v: Any) -> Raw:
        try:
            return known.encode(v)
        except DecodeError:  # a type of the user's own: the id of its row is not known
            raise DecodeError(
                f"{str(v)[:40]!r} is no built-in value: its row's id is not known"
            ) from None

    def decode(raw: Raw) -> Any:
        try:
            return known.decode(raw)
        except DecodeError:
            if raw is None or not raw.strip().isdigit():
                raise
        what = raw.strip()[:20]
        raise NotKept(f"the row names {what}, no built-in value: one of the user's own")

    return Codec(encode, decode, partial=True)


def scaled(factor: int) -> Codec:
    """An integer the device stores multiplied (seconds written as milliseconds)."""

    def encode(v: Any) -> Raw:
        return None if v is None else str(int(v) * factor)

    def decode(raw: Raw) -> Any:
        value = _int_decode(raw)
        return None if value is None else value // factor

    return Codec(encode, decode)


def percent_of(top: int) -> Codec:
    """A percentage the device stores on a 0..top scale (exact: top >= 100)."""

    def encode(v: Any) -> Raw:
        return None if v is None else str(round(int(v) * top / 100))

    def decode(raw: Raw) -> Any:
        value = _int_decode(raw)
        return None if value is None else round(value * 100 / top)

    return Codec(encode, decode, exact=top >= 100)


def epoch_millis() -> Codec:
    """A datetime a content provider stores as milliseconds since the epoch (phone time UTC)."""

    def encode(v: Any) -> Raw:
        if v is None:
            return None
        when = dt.datetime.fromisoformat(str(v)).replace(tzinfo=dt.UTC)
        return str(int(when.timestamp() * 1000))

    def decode(raw: Raw) -> Any:
        value = _int_decode(raw)
        if value is None:
            return None
        when = dt.datetime.fromtimestamp(value / 1000, dt.UTC).replace(tzinfo=None)
        return when.isoformat(timespec="seconds")

    return Codec(encode, decode)


UNIX = dt.datetime(1970, 1, 1)
WINDOWS = dt.datetime(1601, 1, 1)  # where Chrome's times count from (base::Time)


def stamp(per_second: int, since: dt.datetime = UNIX, date: bool = False) -> Codec:
    """A datetime an app's database stores as a count of ``per_second`` units since
    ``since`` (phone time is UTC, as in :func:`epoch_millis`), read to the second; with
    ``date``, a date, written as its midnight and read as the day of the stamp.

    >>> stamp(1).encode("2026-05-10T18:22:04"), stamp(1).decode("1778437324")
    ('1778437324', '2026-05-10T18:22:04')
    >>> stamp(1_000_000, WINDOWS).decode("13422910924000000")
    '2026-05-10T18:22:04'
    >>> stamp(1000, date=True).encode("2026-05-10"), stamp(1000, date=True).decode("1778437324000")
    ('1778371200000', '2026-05-10')
    """

    def encode(v: Any) -> Raw:
        if v is None:
            return None
        try:
            delta = dt.datetime.fromisoformat(str(v)).replace(tzinfo=None) - since
        except ValueError:  # no time (the compiler lets none through): stored as it is
            return str(v)
        return str((delta.days * 86400 + delta.seconds) * per_second)

    def decode(raw: Raw) -> Any:
        value = _int_decode(raw)
        if value is None:
            return None
        when = since + dt.timedelta(seconds=value // per_second)
        return when.date().isoformat() if date else when.isoformat(timespec="seconds")

    return Codec(encode, decode)


def locale() -> Codec:
    """`en_US` as Android's `system_locales` writes it (`en-US`)."""
    return Codec(
        lambda v: None if v is None else str(v).replace("_", "-"),
        lambda raw: None if raw is None else raw.strip().replace("-", "_"),
    )


# Settings keys whose stored value is not the model's value written plainly. Each entry is a
# fact about Android (the comments in settings.app say the same).
SETTING_CODECS: dict[str, Callable[[], Codec]] = {
    "ui_night_mode": lambda: mapping({False: "1", True: "2"}),
    "screen_brightness": lambda: percent_of(255),
    "screen_off_timeout": lambda: scaled(1000),
    "font_scale": lambda: mapping(
        {"small": "0.85", "default": "1.0", "large": "1.15", "largest": "1.3"}
    ),
    "location_mode": lambda: mapping({False: "0", True: "3"}),
    "system_locales": locale,
    "time_12_24": lambda: mapping({False: "12", True: "24"}),
}

# Provider columns that hold something other than the field (ids for addresses): read, but
# never trusted as the field's value.
OPAQUE_COLUMNS = frozenset({("address", "recipient_ids")})
INVERTED_COLUMNS = frozenset({("unread", "read")})
# Providers that keep a deleted row, marked, until a sync adapter removes it (a contact group
# deleted in an app, or by setup's `content delete`): the column that marks it (`1`). Such a
# row is no record, and the tear-down does not put it back.
DELETED_FLAGS = {"content://com.android.contacts/groups": "deleted"}
EPOCH_COLUMNS = frozenset({"date", "date_sent", "timestamp", "last_modified", "date_added"})


def setting_codec(probe: ir.Probe, fdef: ir.FieldDef | None) -> Codec:
    """The codec of a setting: an app's shared preference by its probe's form and value
    map, an Android setting by the key the device keeps it under."""
    if probe.source == "prefs":
        return prefs_codec(probe, fdef)
    if probe.source == "sqlite":
        item = fdef.type.item if fdef is not None else None
        return row_list(by_type(item)) if item is not None else OPAQUE
    key = probe.key or ""
    if key in SETTING_CODECS:
        return SETTING_CODECS[key]()
    return by_type(fdef.type) if fdef is not None else TEXT


def row_list(item: Codec) -> Codec:
    """A list kept as rows of a table, one item per row in the order they were inserted: the
    raw value is the JSON array SQLite's `json_group_array` makes of a column (text as
    strings, integers as numbers), each item in the form ``item`` reads and writes."""

    def encode(v: Any) -> Raw:
        if v is None:
            return None
        return json.dumps([item.encode(x) for x in v], ensure_ascii=False)

    def decode(raw: Raw) -> Any:
        if raw is None:
            return []
        try:
            cells = json.loads(raw)
        except ValueError:
            raise DecodeError(f"expected a JSON array of rows, read {raw[:40]!r}") from None
        if not isinstance(cells, list):
            raise DecodeError(f"expected a JSON array of rows, read {raw[:40]!r}")
        return [item.decode(None if c is None else c if isinstance(c, str) else json.dumps(c))
                for c in cells]  # fmt: skip

    return Codec(encode, decode, exact=item.exact)


def hour_minutes() -> Codec:
    """A time of day kept as two columns, hour and minutes (`hour,minutes`, read as `7,30`):
    exact for times on the minute, which is all an alarm holds."""

    def encode(v: Any) -> Raw:
        if v is None:
            return None
        try:
            t = dt.time.fromisoformat(str(v))
        except ValueError:
            raise DecodeError(f"expected a time of day, not {str(v)[:40]!r}") from None
        return f"{t.hour},{t.minute}"

    def decode(raw: Raw) -> Any:
        if raw is None:
            return None
        try:
            hour, minute = (int(x) for x in raw.split(","))
            return dt.time(hour, minute).isoformat(timespec="seconds")
        except ValueError:
            raise DecodeError(f"expected an hour and minutes, read {raw[:40]!r}") from None

    return Codec(encode, decode)


def minutes_slots(slots: int, off: int = -1) -> Codec:
    """A list of up to ``slots`` minute counts kept one per column, ``off`` in a column that
    holds none (Simple Calendar's three reminders, `-1` when unused), read as `10,60,-1`."""

    def encode(v: Any) -> Raw:
        if v is None:
            return None
        counts = isinstance(v, list) and all(
            isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in v
        )
        if not counts or len(v) > slots:
            raise DecodeError(f"expected at most {slots} minute counts, not {str(v)[:40]!r}")
        items = [int(x) for x in v]
        return ",".join(str(x) for x in [*items, *[off] * (slots - len(items))])

    def decode(raw: Raw) -> Any:
        if raw is None:
            return None
        try:
            return [x for x in (int(p) for p in raw.split(",")) if x != off]
        except ValueError:
            raise DecodeError(f"expected minute counts, read {raw[:40]!r}") from None

    return Codec(encode, decode)


def flag_bit(bit: int) -> Codec:
    """A boolean kept as one bit of an integer column of flags (other bits ignored)."""

    def encode(v: Any) -> Raw:
        return None if v is None else str(bit if v else 0)

    def decode(raw: Raw) -> Any:
        value = _int_decode(raw)
        return None if value is None else bool(value & bit)

    return Codec(encode, decode)


def nonzero(stamp: int) -> Codec:
    """A boolean kept as a timestamp that is 0 while false (when it became true): written
    as ``stamp`` (milliseconds), read as whether it is set."""

    def encode(v: Any) -> Raw:
        return None if v is None else str(stamp if v else 0)

    def decode(raw: Raw) -> Any:
        value = _int_decode(raw)
        return bool(value)

    return Codec(encode, decode)


def parent_name(path_field: str) -> Codec:
    """A folder's name, kept as the full path of the folder (the parent of the record's
    ``path_field``): read as the last part of that path."""
    import posixpath

    def decode(raw: Raw) -> Any:
        return None if raw is None else posixpath.basename(raw.rstrip("/"))

    def from_record(record: dict[str, Any]) -> Raw:
        path = record.get(path_field)
        return posixpath.dirname(path) if isinstance(path, str) else None

    return Codec(_text_encode, decode, from_record=from_record)


# the categories the Files app sorts a file into by its extension (anything else: `other`)
FILE_KINDS: tuple[str, ...] = ("document", "image", "audio", "video", "archive", "apk", "other")


# the columns of WeChat's `message` table each field of a chat message is read from, `content`
# last (it may hold commas): `kind` needs an app message's own type, `body` a group's sender
# and an image's original file, whose MD5 (`origImgMD5`) the image's rows of `ImgInfo2` keep
# (`msglocalid` is the message's `msgId`; read as a JSON array of the rows' values)
WECHAT_IMAGE_MD5 = "ImgInfo2(msglocalid = msgId).origImgMD5"
WECHAT_MESSAGE = {"kind": "type,content",
                  "body": f"type,isSend,talker,{WECHAT_IMAGE_MD5},content",
                  "amount": "type,content"}  # fmt: skip


# Columns that keep a field in another form: (field, column) -> codec. Each is the real app's
# storage (the comments in the app models say which).
FORM_COLUMNS: dict[tuple[str, str], Callable[[ir.Type], Codec | None]] = {
    ("time", "hour,minutes"): lambda t: hour_minutes() if t.name == "time" else None,
    ("all_day", "flags"): lambda t: flag_bit(1) if t.name == "bool" else None,
    # Simple Gallery: `type` 1 image, 2 video, 4 GIF; `deleted_ts` when it went to the bin
    ("kind", "type"): lambda t: _members(t, {"image": "1", "video": "2", "gif": "4"}),
    ("in_recycle_bin", "deleted_ts"): lambda t: (
        nonzero(4102444800000) if t.name == "bool" else None
    ),
    ("folder", "parent_path"): lambda t: parent_name("path") if t.name == "text" else None,
    # a camera's file type, or the Files app's category of a file, is its extension (the file
    # name a listing shows)
    ("kind", "name"): lambda t: (
        (_members(t, {"photo": "photo", "video": "video"}) and by_extension())
        or (_members(t, {k: k for k in FILE_KINDS}) and file_kind())
    ),
    # Tasks.org: times in epoch milliseconds; `importance` 0 high .. 3 none; `dueDate` holds the
    # due date and time; `completed` when the task was done (0 while it is not)
    ("created", "created"): lambda t: epoch_millis() if t.name == "datetime" else None,
    ("priority", "importance"): lambda t: _members(
        t, {"high": "0", "medium": "1", "low": "2", "none": "3"}
    ),
    ("due", "dueDate"): lambda t: due_stamp("date") if t.name == "date" else None,
    ("due_time", "dueDate"): lambda t: due_stamp("time") if t.name == "time" else None,
    ("completed", "completed"): lambda t: done_stamp("flag") if t.name == "bool" else None,
    ("completed_at", "completed"): lambda t: done_stamp("time") if t.name == "datetime" else None,
    # the telephony provider's delivery `status` of a text: Telephony.Sms STATUS_NONE -1 (no
    # report asked for: sent), STATUS_COMPLETE 0, STATUS_PENDING 32, STATUS_FAILED 64
    ("status", "status"): lambda t: _members(
        t, {"sent": "-1", "delivered": "0", "pending": "32", "failed": "64"}
    ),
    # a phone number's type in the contacts provider (`data2` of its `phone_v2` row):
    # ContactsContract.CommonDataKinds.Phone TYPE_HOME 1, TYPE_MOBILE 2, TYPE_WORK 3,
    # TYPE_OTHER 7, TYPE_MAIN 12
    ("phone_label", "data2"): lambda t: _members(
        t, {"home": "1", "mobile": "2", "work": "3", "other": "7", "main": "12"}
    ),
    # an e-mail address's type (`data2` of its `email_v2` row): Email TYPE_HOME 1, TYPE_WORK 2,
    # TYPE_OTHER 3
    ("email_label", "data2"): lambda t: _members(t, {"home": "1", "work": "2", "other": "3"}),
    # WeChat's chat messages: the row's `type` and its `content` (see `wechat.py`)
    ("kind", WECHAT_MESSAGE["kind"]): lambda t: _wechat("kind", t),
    ("body", WECHAT_MESSAGE["body"]): lambda t: _wechat("body", t),
    ("amount", WECHAT_MESSAGE["amount"]): lambda t: _wechat("amount", t),
    # a contact's standard group: the title of the group row its membership names (Simple
    # Contacts' groups Family, Friends, Work, Classmates); `other` is no such membership
    ("group", "title"): lambda t: titled(
        t,
        {"family": "Family", "friends": "Friends", "work": "Work", "classmates": "Classmates"},
        none="other",
    ),
}


# Columns in the form of the store that keeps them: (store, column) -> the codec of a field of
# a type (None: not that type). A store is a database file's name or a provider's authority.
STORE_COLUMNS: dict[tuple[str, str], Callable[[ir.Type], Codec | None]] = {
    # Audio Recorder's records.db: what MediaExtractor gives, in microseconds
    ("records.db", "duration"): lambda t: scaled(1_000_000) if t.name == "duration" else None,
    # the media store: milliseconds (a clip of 9.8 s reads as 9 s, not 10)
    ("media", "duration"): lambda t: scaled(1000) if t.name == "duration" else None,
    # Simple Calendar's events.db: Unix seconds (what AndroidWorld's CalendarEvent writes)
    ("events.db", "start_ts"): lambda t: stamp(1) if t.name == "datetime" else None,
    ("events.db", "end_ts"): lambda t: stamp(1) if t.name == "datetime" else None,
    # ... the repetition in seconds (DAY, WEEK, MONTH 2592001, YEAR of its Constants.kt), the
    # built-in event type its id (REGULAR_EVENT_TYPE_ID 1; a type of the user's own is the id
    # of its row, not read here), the three reminders in minutes (-1 unused)
    ("events.db", "repeat_interval"): lambda t: _members(t, {
        "none": "0", "daily": "86400", "weekly": "604800", "monthly": "2592001",
        "yearly": "31536000",
    }),
    ("events.db", "event_type"): lambda t: (
        built_in({"Regular event": "1"}) if t.name == "text" else None
    ),
    ("events.db", "reminder_1_minutes,reminder_2_minutes,reminder_3_minutes"): lambda t: (
        minutes_slots(3) if t.name == "list" else None
    ),
    # Simple Gallery's gallery.db (a Medium's `taken`, a Long): Unix milliseconds
    ("gallery.db", "date_taken"): lambda t: stamp(1000) if t.name == "datetime" else None,
    # Pro Expense's accounting.db: the day, as the Unix milliseconds of when it was entered;
    # the category, its id in the app's list (2 Income, 3 Food ... 11 Donation; 1, Others, is
    # no category of the model: a row of it reads as garbage, never as another)
    ("accounting.db", "created_date"): lambda t: stamp(1000, date=True) if t.name == "date" else None,
    ("accounting.db", "category"): lambda t: _members(t, {
        "income": "2", "food": "3", "housing": "4", "social": "5", "entertainment": "6",
        "transportation": "7", "clothes": "8", "health_care": "9", "education": "10",
        "donation": "11",
    }),
    # Chrome's History: microseconds since 1601 (Chromium's own clock)
    ("History", "last_visit_time"): lambda t: (
        stamp(1_000_000, WINDOWS) if t.name == "datetime" else None
    ),
    # WeChat's EnMicroMsg.db: Unix milliseconds
    ("EnMicroMsg.db", "createTime"): lambda t: stamp(1000) if t.name == "datetime" else None,
    ("EnMicroMsg.db", "conversationTime"): lambda t: (
        stamp(1000) if t.name == "datetime" else None
    ),
}  # fmt: skip


# Columns a table requires (NOT NULL, no default) that no field of the app's model holds:
# (store, table) -> column -> what setup writes there: ``"=COLUMN"`` that column's value of
# the same row, anything else as it is.
TABLE_FILLS: dict[tuple[str, str], dict[str, str]] = {
    # Audio Recorder (SQLiteHelper): when the row was added (the list sorts by it: the
    # recording's creation), and its waveform, empty until the app computes it
    ("records.db", "records"): {"added": "=created", "data": "", "data_str": ""},
    # Simple Gallery (its Medium entity): when the file was last changed (its taking), a
    # video's length (0: read from the file), the media store's id (0: none)
    ("gallery.db", "media"): {"last_modified": "=date_taken", "video_duration": "0",
                              "media_store_id": "0"},
    # ... an album's row (its Directory entity): what the app computes of the folder's media
    ("gallery.db", "directories"): {
        "thumbnail": "", "media_count": "0", "last_modified": "0", "date_taken": "0",
        "size": "0", "location": "1", "media_types": "0", "sort_value": "",
    },
    # Pro Expense: when the expense was last changed
    ("accounting.db", "expense"): {"modified_date": "=created_date"},
    # Tasks.org and Broccoli: the columns AndroidWorld's Task and Recipe rows write for the
    # versions it installs, at their values for a task never snoozed, timed, nested or synced
    # (last changed when made) and a recipe without a photo
    ("database", "tasks"): {
        "hideUntil": "0", "modified": "=created", "deleted": "0", "estimatedSeconds": "0",
        "elapsedSeconds": "0", "timerStart": "0", "notificationFlags": "0", "lastNotified": "0",
        "repeat_from": "0", "remoteId": "", "collapsed": "0", "parent": "0", "read_only": "0",
    },
    ("broccoli", "recipes"): {"imageName": ""},
    # Simple Calendar: the columns AndroidWorld's CalendarEvent writes for the version it
    # installs, at the values it gives an event that does not repeat
    ("events.db", "events"): {
        "repeat_rule": "0", "reminder_1_type": "0", "reminder_2_type": "0", "reminder_3_type": "0",
        "repeat_limit": "0", "repetition_exceptions": "[]", "attendees": "", "import_id": "",
        "time_zone": "UTC", "parent_id": "0", "last_updated": "0", "source": "imported-ics",
        "availability": "0", "color": "0", "type": "0",
    },
}  # fmt: skip


def table_fills(probe: ir.Probe) -> dict[str, str]:
    """The columns :data:`TABLE_FILLS` says a probe's table requires besides those it reads."""
    if probe.source != "sqlite":
        return {}
    return TABLE_FILLS.get((store_of(probe), probe.table or ""), {})


def store_of(probe: ir.Probe) -> str:
    """The store a record probe reads: a database file's name, or a provider's authority."""
    if probe.source == "sqlite":
        return (probe.path or "").rsplit("/", 1)[-1]
    if probe.source == "content":
        return (probe.uri or "").removeprefix("content://").split("/", 1)[0]
    return ""


def _wechat(part: str, t: ir.Type) -> Codec | None:
    from tasklang.envs.device.wechat import message_codec

    return message_codec(part, t)


def _epoch_ms(when: dt.datetime) -> int:
    """Milliseconds since the epoch of a phone-local time (phone time is UTC, as in
    :func:`epoch_millis`)."""
    return int(when.replace(tzinfo=dt.UTC).timestamp() * 1000)


def _from_epoch_ms(raw: Raw) -> dt.datetime | None:
    value = _int_decode(raw)
    if not value:
        return None
    return dt.datetime.fromtimestamp(value / 1000, dt.UTC).replace(tzinfo=None)


def _parsed(kind: type[dt.date] | type[dt.time] | type[dt.datetime], value: Any) -> Any:
    try:
        return kind.fromisoformat(str(value)) if value is not None else None
    except ValueError:
        return None


def due_stamp(part: str) -> Codec:
    """Tasks.org's `dueDate`, which holds a task's due date and time (``part``: `date` or
    `time`): the milliseconds of the due day at noon, or of its due time with the seconds
    set to 1 (the mark of a due time); 0 without a due date."""

    def from_record(record: dict[str, Any]) -> Raw:
        day = _parsed(dt.date, record.get("due"))
        if day is None:
            return "0"
        at = _parsed(dt.time, record.get("due_time"))
        when = dt.time(at.hour, at.minute, 1) if at is not None else dt.time(12)
        return str(_epoch_ms(dt.datetime.combine(day, when)))

    def decode(raw: Raw) -> Any:
        when = _from_epoch_ms(raw)
        if when is None:
            return None
        if part == "date":
            return when.date().isoformat()
        return when.time().replace(second=0, microsecond=0).isoformat() if when.second else None

    return Codec(_text_encode, decode, from_record=from_record)


def done_stamp(part: str) -> Codec:
    """Tasks.org's `completed`: when the task was done, in milliseconds (0 while it is not);
    ``part`` `flag` reads whether it is done, `time` when."""

    def from_record(record: dict[str, Any]) -> Raw:
        if not record.get("completed"):
            return "0"
        at = _parsed(dt.datetime, record.get("completed_at"))
        stamp = _epoch_ms(at) if at is not None else 0
        return str(stamp or 1)  # done at the epoch itself is still done

    def decode(raw: Raw) -> Any:
        when = _from_epoch_ms(raw)
        if part == "flag":
            return when is not None
        return when.isoformat(timespec="seconds") if when is not None else None

    return Codec(_text_encode, decode, from_record=from_record)


PHOTO_EXTENSIONS = (".jpg", ".jpeg", ".png", ".heic", ".webp", ".dng")
VIDEO_EXTENSIONS = (".mp4", ".3gp", ".mkv", ".webm")


def kind_of_name(name: str) -> str | None:
    """`photo` or `video` by a file name's extension (None: neither)."""
    lower = name.lower()
    if lower.endswith(PHOTO_EXTENSIONS):
        return "photo"
    if lower.endswith(VIDEO_EXTENSIONS):
        return "video"
    return None


def file_kind() -> Codec:
    """A file's category in the Files app (Images, Videos, Audio, Documents, ...), read from
    its file name's extension, as the app sorts it (PhoneWorld's Files app the same)."""
    from tasklang.envs.phoneworld.apps.files import kind_of

    def decode(raw: Raw) -> Any:
        return None if raw is None else kind_of(raw)

    return Codec(_text_encode, decode)


def by_extension() -> Codec:
    """A capture's kind, read from its file name (a listing has nothing else to say it)."""

    def decode(raw: Raw) -> Any:
        return None if raw is None else kind_of_name(raw)

    return Codec(_text_encode, decode)


# Columns that say where else a field is kept: in rows of another table (``probes.Link``), in
# a set of the app's shared preferences (``probes.PrefsSet``), or in another provider
# (``probes.Elsewhere``).
LINK = re.compile(
    r"(?P<table>\w+)\((?P<fk>\w+) = (?P<key>\w+)\)\."
    r"(?:(?P<lookup>\w+)\((?P<lookup_key>\w+) = (?P<ref>\w+)\)\.)?(?P<value>\w+)"
)
PREFS_SET = re.compile(r"(?P<file>[\w.-]+\.xml) (?P<key>\S+) has (?P<column>\w+)")
ELSEWHERE = re.compile(r"true in (?P<uri>content://\S+)")
# a value kept in a row of another provider that points back at the record, or that the
# record's row names (``probes.DataRow``)
DATA_ROW = re.compile(
    r"(?P<value>\w+)(?: where (?P<conds>\w+ = [^\s=]+(?: and \w+ = [^\s=]+)*))?"
    r" in (?P<uri>content://\S+) by (?P<key>\w+)(?: = (?P<own>\w+))?"
    r"(?: then (?P<look_value>\w+) in (?P<look_uri>content://\S+) by (?P<look_key>\w+))?"
)


def first_of(default: Any = None) -> Codec:
    """A single value read through a link (the first of the array; ``default``, the field's
    default, when there is none: a task in no list of its own is in the default one)."""

    def decode(raw: Raw) -> Any:
        values = _json_decode(raw)
        if not isinstance(values, list):
            raise DecodeError(f"expected a JSON array, read {str(raw)[:40]!r}")
        return values[0] if values else default

    return Codec(_json_encode, decode)


def _members(t: ir.Type, pairs: dict[Any, str]) -> Codec | None:
    if t.name != "enum" or not set(t.members or ()) <= set(pairs):
        return None
    return mapping(pairs)


def titled(t: ir.Type, titles: dict[str, str], none: str) -> Codec | None:
    """An enum kept as the title of a row that a record's row names (a contact's group, by
    its membership): `none` is no such row, and a title of no member (a group created in
    the app) is not the field's value."""
    if t.name != "enum" or not set(t.members or ()) <= {*titles, none}:
        return None
    back = {title.casefold(): value for value, title in titles.items()}

    def encode(v: Any) -> Raw:
        return None if v is None or v == none else titles.get(v, str(v))

    def decode(raw: Raw) -> Any:
        if raw is None:
            return None
        if raw.strip().casefold() not in back:
            raise DecodeError(f"no value is titled {raw[:40]!r}")
        return back[raw.strip().casefold()]

    return Codec(encode, decode)


def or_default(codec: Codec, default: Any) -> Codec:
    """``codec``, reading nothing (no row holds the value) as the field's default."""

    def decode(raw: Raw) -> Any:
        return default if raw is None else codec.decode(raw)

    return Codec(codec.encode, decode, codec.exact)


def row_items() -> Codec:
    """A list of texts kept as one row of another provider per item (a group's members, as
    its membership rows): read as a JSON array of the rows' values, nothing as the empty
    list. The provider keeps no order among the rows, so a reading of more than one item
    is not the list's value (``probes.Ambiguous``): exact for what it reads."""

    def encode(v: Any) -> Raw:
        return json.dumps(v, ensure_ascii=False) if isinstance(v, list) and v else None

    def decode(raw: Raw) -> Any:
        values = [] if raw is None else _json_decode(raw)
        if not isinstance(values, list) or not all(isinstance(x, str) for x in values):
            raise DecodeError(f"expected a JSON array of texts, read {str(raw)[:40]!r}")
        return values

    return Codec(encode, decode, many=True)


def _single(fdef: ir.FieldDef) -> bool:
    """Whether a field holds one plain value (a row of another provider can give it)."""
    return fdef.type.name not in ("list", "record", "any", "bool")


def _texts(fdef: ir.FieldDef) -> bool:
    """Whether a field is a list of texts (what rows of another provider can give, a row
    per item)."""
    item = fdef.type.item
    return fdef.type.name == "list" and item is not None and item.name == "text"


def column_codec(probe: ir.Probe, fdef: ir.FieldDef | None, column: str) -> Codec:
    """The codec of one probed column of a record source (content, sqlite, files)."""
    if fdef is None:
        return OPAQUE
    if probe.source == "prefs":
        return prefs_entry_codec(fdef, column)
    name = fdef.name
    if (name, column) in OPAQUE_COLUMNS:
        return OPAQUE
    # the store's own form first (the more particular), then the field's
    form = STORE_COLUMNS.get((store_of(probe), column)) or FORM_COLUMNS.get((name, column))
    if form is not None:
        return form(fdef.type) or OPAQUE
    if probe.source == "sqlite" and LINK.fullmatch(column):  # read as a JSON array
        return JSON if fdef.type.name == "list" else first_of(fdef.default)
    data = DATA_ROW.fullmatch(column)
    if data is not None:  # the value of the one such row (none: the field's default)
        if probe.source != "content":
            return OPAQUE
        if _texts(fdef) and data["look_uri"] is None:  # one row per item
            return row_items()
        if not _single(fdef):
            return OPAQUE
        form = FORM_COLUMNS.get((name, data["look_value"] or data["value"]))
        kept = form(fdef.type) if form is not None else by_type(fdef.type)
        return or_default(kept, fdef.default) if kept is not None else OPAQUE
    if PREFS_SET.fullmatch(column):  # read as 1 / 0: whether the set holds the record
        return BOOL if fdef.type.name == "bool" else OPAQUE
    if ELSEWHERE.fullmatch(column):  # false in every row read: the true ones are elsewhere
        return BOOL if probe.source == "content" and fdef.type.name == "bool" else OPAQUE
    if "," in column:  # several columns hold the field, in a form no codec knows
        return OPAQUE
    if (name, column) in INVERTED_COLUMNS and fdef.type.name == "bool":
        return mapping({True: "0", False: "1"})
    if probe.source == "content" and fdef.type.name == "datetime" and column in EPOCH_COLUMNS:
        return epoch_millis()
    if probe.source == "service":
        attr = SERVICE_COLUMNS.get((probe.namespace or "", column))
        given = attr(fdef) if attr is not None else None
        return given if given is not None else OPAQUE
    media = MEDIA.fullmatch(column)
    if probe.source == "files" and media is not None:
        kept = MEDIA_COLUMNS[media[1]](fdef.type) if media[1] in MEDIA_COLUMNS else None
        return media_value(kept) if kept is not None else OPAQUE
    if probe.source == "files":
        make = FILE_COLUMNS.get(column)
        return make(fdef.type) if make is not None else OPAQUE
    return by_type(fdef.type)


def _listing_time() -> Codec:
    """A file's time as `ls -l --full-time` shows it, to the second (the probe asks for
    full times). A listing in minutes only cannot give the field back: an error, not a
    guess."""

    def encode(v: Any) -> Raw:
        return None if v is None else str(v)

    def decode(raw: Raw) -> Any:
        if raw is None:
            return None
        try:
            when = dt.datetime.fromisoformat(raw)
        except ValueError:
            raise DecodeError(f"expected a file time, read {raw[:40]!r}") from None
        if len(raw) < len("2026-01-01T00:00:00"):
            raise DecodeError(f"the listing gave {raw!r} without seconds")
        return when.isoformat(timespec="seconds")

    return Codec(encode, decode)


FILE_COLUMNS: dict[str, Callable[[ir.Type], Codec]] = {
    "path": lambda t: TEXT,
    "name": lambda t: TEXT,
    "stem": lambda t: TEXT,  # the file name without its extension
    "folder": lambda t: TEXT,  # the folder below the probe's root ("" directly in it)
    "top_folder": lambda t: TEXT,  # its first part: the folder in the root that holds it
    "size": lambda t: INT if t.name == "int" else OPAQUE,
    # a binary file (content null) and an empty text file read back alike: only a field
    # that cannot be null is read exactly
    "content": lambda t: TEXT if t.name in ("text", "file") and not t.optional else OPAQUE,
    "modified": lambda t: _listing_time(),
}

# the media store's columns a files probe reads (``"media COLUMN"``): a video's length in
# milliseconds, read to the whole second below (a clip of 9.8 s is not 10 s long)
MEDIA_COLUMNS: dict[str, Callable[[ir.Type], Codec | None]] = {
    "duration": lambda t: scaled(1000) if t.name == "duration" else None,
}


def media_value(kept: Codec) -> Codec:
    """A value the media store keeps for a file, as ``kept``. A file it has no value for
    does not keep the field (:class:`NotKept`): a file with no media in it (what setup
    writes: bytes of the record's size), or one it has not scanned. The field is then read
    only in the records of files that have one."""

    def decode(raw: Raw) -> Any:
        if raw is None:
            raise NotKept("the media store keeps no value for this file")
        return kept.decode(raw)

    return Codec(kept.encode, decode, partial=True)


def wifi_security(fdef: ir.FieldDef) -> Codec | None:
    """A saved network's security, as the Wi-Fi service names its first type (`wpa2-psk`),
    for an enum that has each such value (None: another field). A type the model has no
    value for (an enterprise network) is not kept: the field is read without it."""
    values = set(fdef.type.members or ())
    kinds = {name: value for name, value in wifi.SECURITY.items() if value in values}
    if fdef.type.name != "enum" or not kinds:
        return None
    known = mapping({value: name for name, value in kinds.items()})

    def decode(raw: Raw) -> Any:
        if raw is not None and raw.strip() not in kinds:
            raise NotKept(f"security type {raw[:40]!r} has no value in the model")
        return known.decode(raw)

    return Codec(known.encode, decode, partial=True)


# the attributes of the records a system service keeps (``service "wifi"`` probes)
SERVICE_COLUMNS: dict[tuple[str, str], Callable[[ir.FieldDef], Codec | None]] = {
    ("wifi", "ssid"): lambda f: TEXT,
    ("wifi", "security"): wifi_security,
    ("wifi", "saved"): lambda f: BOOL,
    ("wifi", "connected"): lambda f: BOOL,
    ("bluetooth_manager", "name"): lambda f: TEXT,
    ("bluetooth_manager", "paired"): lambda f: BOOL,
}


# ------------------------------------------------------------------ shared preferences
def _prefs_bool_encode(v: Any) -> Raw:
    return None if v is None else "true" if v else "false"


PREFS_BOOL = Codec(_prefs_bool_encode, _bool_decode)  # a <boolean>: `true` / `false`


def prefs_values(probe: ir.Probe, fdef: ir.FieldDef | None) -> dict[str, Any]:
    """A prefs probe's value map as stored text -> the setting's value (`true` / `false`
    read as booleans); several stored forms may read as one value."""
    boolean = fdef is not None and fdef.type.name == "bool"
    return {stored: (value == "true") if boolean else value for value, stored in probe.values}


def prefs_codec(probe: ir.Probe, fdef: ir.FieldDef | None) -> Codec:
    """How a setting is kept in an app's shared preferences: through the probe's value map
    (the first stored form of a value is the one written), as `bits` of a flags integer
    (the bits of the map's values; others belong to other settings), a duration in a unit,
    or plainly by type (a boolean as `true` / `false`)."""
    t = fdef.type if fdef is not None else None
    if probe.values:
        read = prefs_values(probe, fdef)
        written: dict[Any, str] = {}
        for stored, value in read.items():
            written.setdefault(value, stored)
        if probe.form == "bits":
            return bits_of(written, read)
        return many_to_one(written, read)
    if t is not None and t.name == "duration" and probe.form in PREFS_UNITS:
        return in_unit(PREFS_UNITS[probe.form])
    if t is not None and t.name == "bool":
        return PREFS_BOOL
    return by_type(t) if t is not None else TEXT


def prefs_entry_codec(fdef: ir.FieldDef, column: str) -> Codec:
    """How a record's field is kept in an entry of an app's shared preferences (see
    ``appmodel.PREFS_ENTRY``): through the entry's map of values to stored forms, as a
    duration in a unit, or plainly by type (a boolean as `true` / `false`); with `or
    default`, no entry reads as the field's default. The id itself is an int."""
    m = PREFS_ENTRY.fullmatch(column)
    if m is None:
        return OPAQUE
    t = fdef.type
    codec: Codec
    if m["map"]:
        pairs = prefs_entry_map(m["map"])
        boolean = t.name == "bool"
        read = {stored: (value == "true") if boolean else value for value, stored in pairs}
        written: dict[Any, str] = {}
        for stored, value in read.items():
            written.setdefault(value, stored)
        codec = many_to_one(written, read)
    elif m["unit"]:
        codec = in_unit(PREFS_UNITS[m["unit"]])
    elif t.name == "bool":
        codec = PREFS_BOOL
    else:
        codec = by_type(t)
    return or_default(codec, fdef.default) if m["default"] else codec


def many_to_one(written: dict[Any, str], read: dict[str, Any]) -> Codec:
    """A codec over a fixed set of values that writes ``written[v]`` and reads every form
    in ``read`` (an app that once wrote another form for the same value); a form ``*``
    stands for any other stored text (a theme is `custom` whatever color it keeps)."""

    def encode(v: Any) -> Raw:
        if v is None:
            return None
        if v not in written:
            raise DecodeError(f"{str(v)[:40]!r} has no stored form")
        return written[v]

    def decode(raw: Raw) -> Any:
        if raw is None:
            return None
        if raw.strip() in read:
            return read[raw.strip()]
        if "*" in read:  # any other stored text
            return read["*"]
        raise DecodeError(f"unexpected value {raw[:40]!r}")

    return Codec(encode, decode)


def bits_of(written: dict[Any, str], read: dict[str, Any]) -> Codec:
    """A value kept as some bits of a flags integer that other settings share (`sort_order`
    holds a sort field and a descending flag): written as its bits alone, read through the
    mask of all its values' bits."""
    mask = 0
    for stored in read:
        mask |= int(stored)
    by_bits = {int(stored): value for stored, value in read.items()}

    def decode(raw: Raw) -> Any:
        value = _int_decode(raw)
        if value is None:
            return None
        if value & mask not in by_bits:
            raise DecodeError(f"bits {value & mask} of {value} are no known value")
        return by_bits[value & mask]

    return Codec(many_to_one(written, read).encode, decode)


def in_unit(unit_ms: int) -> Codec:
    """A duration (seconds) kept as a whole number of a unit of ``unit_ms`` milliseconds. A
    duration that is no whole number of the unit cannot be stored: encoding it is an error,
    never a rounded value; a stored value that is no whole number of seconds, the same."""

    def encode(v: Any) -> Raw:
        if v is None:
            return None
        millis = int(v) * 1000
        if millis % unit_ms:
            raise DecodeError(f"{int(v)} s is no whole number of {unit_ms} ms")
        return str(millis // unit_ms)

    def decode(raw: Raw) -> Any:
        value = _int_decode(raw)
        if value is None:
            return None
        if value * unit_ms % 1000:
            raise DecodeError(f"{value} x {unit_ms} ms is no whole number of seconds")
        return value * unit_ms // 1000

    return Codec(encode, decode)
