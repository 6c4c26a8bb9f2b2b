"""Typed comparators: how values of each type are judged equal, close, or ordered.

- phone: digits only; a country prefix or trunk `0` is ignored when the rest matches
- money: exact cents; an answer like "$12.50", "12.5" or "12.50 USD" is read as money
- text: case and whitespace are normalized unless `exact`; `~` is fuzzy (containment or a
  similarity ratio, 0.85 unless `fuzzy R` says otherwise)
- date/time/datetime: ISO values; `within` a duration compares with a tolerance
- numbers: `within` a tolerance
- lists: in order, or as multisets with `unordered`
"""

from __future__ import annotations

import datetime as dt
import difflib
import re
from collections.abc import Callable
from typing import Any

DEFAULT_FUZZY = 0.85
_WS = re.compile(r"\s+")
_MONEY = re.compile(
    r"^\s*(-)?\s*[$€£¥]?\s*(-)?\s*(\d[\d,]*)(?:\.(\d{1,2}))?\s*(?:[A-Za-z]{3})?\s*$"
)
_NUMBER = re.compile(r"^\s*[-+]?(\d[\d,]*\.?\d*|\.\d+)\s*$")
_LIST_SPLIT = re.compile(r"\s*(?:,|;|\n|\band\b)\s*")


def norm_text(value: Any) -> str:
    """Casefolded text with runs of whitespace collapsed.

    >>> norm_text("  Hello   World ")
    'hello world'
    """
    return _WS.sub(" ", str(value)).strip().casefold()


def phone_digits(value: Any) -> str:
    digits = re.sub(r"\D", "", str(value))
    return digits[2:] if str(value).strip().startswith("00") else digits


def phone_equal(a: Any, b: Any) -> bool:
    """Phone numbers equal up to formatting and a country prefix.

    >>> phone_equal("+1 (415) 555-0134", "415.555.0134"), phone_equal("555 0134", "555 0135")
    (True, False)
    """
    da, db = phone_digits(a).lstrip("0"), phone_digits(b).lstrip("0")
    if not da or not db:
        return da == db
    if da == db:
        return True
    if _international(a) and _international(b):
        return False  # two explicit country codes that differ
    short, long_ = sorted((da, db), key=len)
    return len(short) >= 7 and long_.endswith(short) and len(long_) - len(short) <= 3


def _international(value: Any) -> bool:
    text = str(value).strip()
    return text.startswith("+") or text.startswith("00")


def to_cents(value: Any) -> int | None:
    """Money as integer cents: ints are cents already; text is read as an amount.

    >>> to_cents("$12.5"), to_cents("1,250.00 USD"), to_cents(700)
    (1250, 125000, 700)
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float):  # computed cents (an average)
        return round(value)
    m = _MONEY.match(str(value))
    if not m:
        return None
    cents = int(m[3].replace(",", "")) * 100 + int((m[4] or "0").ljust(2, "0"))
    return -cents if (m[1] or m[2]) else cents


def to_number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    try:
        if isinstance(value, (int, float)):
            return float(value)
        text = str(value).strip().replace(",", "")
        return float(text) if _NUMBER.match(text) else None
    except (OverflowError, ValueError):
        return None


_DATE_FORMATS = ("%Y-%m-%d", "%B %d, %Y", "%b %d, %Y", "%d %B %Y", "%d %b %Y", "%m/%d/%Y")
_TIME_FORMATS = ("%H:%M:%S", "%H:%M", "%I:%M %p", "%I:%M%p", "%I %p", "%I%p")


def to_date(value: Any) -> dt.date | None:
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    text = str(value).strip()
    try:
        return dt.datetime.fromisoformat(text).date()
    except ValueError:
        pass
    for fmt in _DATE_FORMATS:
        try:
            return dt.datetime.strptime(text, fmt).date()
        except ValueError:
            continue
    return None


def to_time(value: Any) -> dt.time | None:
    if isinstance(value, dt.time):
        return value
    text = str(value).strip().upper().replace(".", "")
    for fmt in _TIME_FORMATS:
        try:
            return dt.datetime.strptime(text, fmt).time()
        except ValueError:
            continue
    try:
        return dt.time.fromisoformat(str(value).strip())
    except ValueError:
        return None


def to_datetime(value: Any) -> dt.datetime | None:
    if isinstance(value, dt.datetime):
        return value.replace(tzinfo=None)
    if isinstance(value, dt.date):
        return dt.datetime.combine(value, dt.time())
    try:
        return dt.datetime.fromisoformat(str(value).strip()).replace(tzinfo=None)
    except ValueError:
        return None


def seconds_of_day(t: dt.time) -> int:
    return t.hour * 3600 + t.minute * 60 + t.second


def fuzzy_ratio(a: Any, b: Any) -> float:
    return difflib.SequenceMatcher(None, norm_text(a), norm_text(b)).ratio()


def fuzzy_match(a: Any, b: Any, threshold: float | None) -> bool:
    """`~`: the normalized ``a`` contains ``b``, or their similarity reaches the threshold.

    >>> fuzzy_match("Meet at 12 Main St, Springfield", "12 main st", None)
    True
    """
    na, nb = norm_text(a), norm_text(b)
    if not na or not nb:
        return na == nb
    if nb in na:
        return True
    return fuzzy_ratio(na, nb) >= (threshold if threshold is not None else DEFAULT_FUZZY)


_DURATION_TEXT = re.compile(
    r"(\d+(?:\.\d+)?)\s*(d|h|m|s|days?|hours?|hrs?|minutes?|mins?|"
    r"seconds?|secs?)(?![a-z])",
    re.I,
)
_UNIT = {"d": 86400, "h": 3600, "m": 60, "s": 1}


def to_duration(value: Any) -> float | None:
    """Seconds from a stored duration or an answer such as "10m", "1h 30m", "90 seconds"
    or "01:30:00".

    >>> to_duration("1h30m"), to_duration("10 minutes"), to_duration("00:01:30"), to_duration(45)
    (5400.0, 600.0, 90.0, 45.0)
    """
    number = to_number(value)
    if number is not None:
        return number
    text = str(value).strip().lower()
    clock = re.fullmatch(r"(\d+):(\d{2})(?::(\d{2}))?", text)
    if clock:
        h, m, s = int(clock[1]), int(clock[2]), int(clock[3] or 0)
        return float(h * 3600 + m * 60 + s) if clock[3] else float(h * 60 + m) * 60
    parts = _DURATION_TEXT.findall(text)
    if not parts or _DURATION_TEXT.sub("", text).strip(" ,and") != "":
        return None
    return sum(float(n) * _UNIT[unit[0]] for n, unit in parts)


Coercer = Callable[[Any], Any]
_COERCE: dict[str, Coercer] = {
    "money": to_cents,
    "int": to_number,
    "number": to_number,
    "date": to_date,
    "time": to_time,
    "datetime": to_datetime,
    "duration": to_duration,
}


def coerce(value: Any, type_name: str) -> Any:
    """A value of ``type_name`` read from a stored value or an answer's text (None if not)."""
    if value is None:
        return None
    fn = _COERCE.get(type_name)
    return fn(value) if fn else value


def common_type(a: str, b: str) -> str:
    """The type to compare two values under, from the two sides' static types."""
    loose = ("answer", "any", "null", "")
    if a in loose:
        return b if b not in loose else "text"
    if b in loose or a == b:
        return a
    if "money" in (a, b):
        return "money"
    if {a, b} <= {"int", "number"}:
        return "number"
    if {a, b} <= {"date", "datetime"}:
        return "datetime"  # a date compared with a datetime is that day's midnight
    if "phone" in (a, b):
        return "phone"
    return "text" if {a, b} & {"text", "enum", "email", "file"} else a


def equal(a: Any, b: Any, type_name: str, exact: bool = False, within: Any = None) -> bool:
    """Typed equality (with an optional tolerance)."""
    if a is None or b is None:
        return a is None and b is None
    if type_name == "phone":
        return phone_equal(a, b)
    if type_name in ("text", "enum", "email", "file"):
        return str(a) == str(b) if exact else norm_text(a) == norm_text(b)
    if type_name == "bool":
        return _to_bool(a) == _to_bool(b)
    ca, cb = coerce(a, type_name), coerce(b, type_name)
    if ca is None or cb is None:
        return norm_text(a) == norm_text(b)
    diff = difference(ca, cb, type_name)
    if diff is None:
        return bool(ca == cb)
    tolerance = _tolerance(within, type_name)
    return abs(diff) <= tolerance


def _tolerance(within: Any, type_name: str) -> float:
    if within is None:
        return 1e-9
    if type_name == "money":
        return float(to_cents(within) or 0)
    return float(to_number(within) or 0)


def _to_bool(value: Any) -> bool | None:
    if isinstance(value, bool):
        return value
    text = norm_text(value)
    if text in ("true", "yes", "on", "1", "enabled"):
        return True
    if text in ("false", "no", "off", "0", "disabled"):
        return False
    return None


def difference(a: Any, b: Any, type_name: str) -> float | None:
    """a - b as a number (seconds for times), or None when the type has no distance."""
    if isinstance(a, dt.datetime) and isinstance(b, dt.datetime):
        return (a - b).total_seconds()
    if isinstance(a, dt.date) and isinstance(b, dt.date):
        return float((a - b).days * 86400)
    if isinstance(a, dt.time) and isinstance(b, dt.time):
        return float(seconds_of_day(a) - seconds_of_day(b))
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return float(a) - float(b)
    return None


def order(a: Any, b: Any, type_name: str) -> float | None:
    """Sign-carrying comparison of two ordered values, or None when not comparable."""
    ca, cb = coerce(a, type_name), coerce(b, type_name)
    if ca is None or cb is None:
        return None
    return difference(ca, cb, type_name)


def split_answer(value: Any) -> list[Any]:
    """An answer's text as a list of items (commas, semicolons, newlines, `and`)."""
    if isinstance(value, list):
        return value
    return [p for p in _LIST_SPLIT.split(str(value).strip()) if p]


def lists_equal(
    a: list[Any],
    b: list[Any],
    item_type: str,
    unordered: bool,
    exact: bool = False,
    within: Any = None,
) -> bool:
    """Lists equal item by item, in order, or as multisets."""
    if len(a) != len(b):
        return False
    if not unordered:
        return all(equal(x, y, item_type, exact, within) for x, y in zip(a, b, strict=True))
    remaining = list(b)
    for x in a:
        match = next(
            (i for i, y in enumerate(remaining) if equal(x, y, item_type, exact, within)), None
        )
        if match is None:
            return False
        remaining.pop(match)
    return True
