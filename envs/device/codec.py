"""How typed app-model values are written in a phone's own storage, and read back.

A probe reads raw text (a provider column, a settings value, a SQLite cell, a file listing);
the app model says the field's type. A codec turns one into the other. ``exact`` says
whether reading back what was written always gives the same JSON value: only exact fields
count as observable, so a checker never decides on a value it could have read wrongly.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tasklang import ir

Raw = str | None


@dataclass(frozen=True)
class Codec:
    encode: Callable[[Any], Raw]
    decode: Callable[[Raw], Any]
    exact: bool = True
    # a column whose stored value depends on other fields of the record (a parent folder's
    # path, where the field holds only its name): what the phone stores, from the record
    from_record: Callable[[dict[str, Any]], Raw] | None = None


class DecodeError(ValueError):
    """A raw value that does not fit the field's type (garbage from the device)."""


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
    # Pro Expense keeps the currency as its ISO 4217 number (shared preferences)
    "selected_currency_number": lambda: mapping(
        {"usd": "840", "eur": "978", "gbp": "826", "mmk": "104", "jpy": "392"}
    ),
}

# Provider columns that hold something other than the field (ids for addresses): read, but
# never trusted as the field's value.
OPAQUE_COLUMNS = frozenset({("address", "recipient_ids")})
INVERTED_COLUMNS = frozenset({("unread", "read")})
EPOCH_COLUMNS = frozenset({"date", "date_sent", "timestamp", "last_modified", "date_added"})


def setting_codec(probe: ir.Probe, fdef: ir.FieldDef | None, key: str | None = None) -> Codec:
    """The codec of a setting, by the key the device keeps it under (``key``: a shared
    preferences entry; else the probe's settings key)."""
    key = key or probe.key or ""
    if key in SETTING_CODECS:
        return SETTING_CODECS[key]()
    return by_type(fdef.type) if fdef is not None else TEXT


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
    # a camera's file type is its extension (the file name a listing shows)
    ("kind", "name"): lambda t: (
        _members(t, {"photo": "photo", "video": "video"}) and by_extension()
    ),
}

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


def by_extension() -> Codec:
    """A capture's kind, read from its file name (a listing has nothing else to say it)."""

    def decode(raw: Raw) -> Any:
        return None if raw is None else kind_of_name(raw)

    return Codec(_text_encode, decode)


_LINKED = re.compile(r"\w+\(\w+ = \w+\)\.\w+")  # see probes.Link


def first_of() -> Codec:
    """A single value read through a link (the first of the array; null when none)."""

    def decode(raw: Raw) -> Any:
        values = _json_decode(raw)
        if not isinstance(values, list):
            raise DecodeError(f"expected a JSON array, read {str(raw)[:40]!r}")
        return values[0] if values else None

    return Codec(_json_encode, decode)


def _members(t: ir.Type, pairs: dict[Any, str]) -> Codec | None:
    if t.name != "enum" or not set(t.members or ()) <= set(pairs):
        return None
    return mapping(pairs)


def column_codec(probe: ir.Probe, fdef: ir.FieldDef | None, column: str) -> Codec:
    """The codec of one probed column of a record source (content, sqlite, files)."""
    if fdef is None:
        return OPAQUE
    name = fdef.name
    if (name, column) in OPAQUE_COLUMNS:
        return OPAQUE
    form = FORM_COLUMNS.get((name, column))
    if form is not None:
        return form(fdef.type) or OPAQUE
    if probe.source == "sqlite" and _LINKED.fullmatch(column):  # read as a JSON array
        return JSON if fdef.type.name == "list" else first_of()
    if "," in column:  # several columns hold the field, in a form no codec knows
        return OPAQUE
    if (name, column) in INVERTED_COLUMNS and fdef.type.name == "bool":
        return mapping({True: "0", False: "1"})
    if probe.source == "content" and fdef.type.name == "datetime" and column in EPOCH_COLUMNS:
        return epoch_millis()
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
    "folder": lambda t: TEXT,  # the folder below the probe's root ("" directly in it)
    "size": lambda t: INT if t.name == "int" else OPAQUE,
    # a binary file (content null) and an empty text file read back alike: only a field
    # that cannot be null is read exactly
    "content": lambda t: TEXT if t.name in ("text", "file") and not t.optional else OPAQUE,
    "modified": lambda t: _listing_time(),
}
