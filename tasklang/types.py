"""Type rules shared by the app model builder and the type checker."""

from __future__ import annotations

import datetime as dt
from typing import Any

from tasklang import ir

T = ir.Type

GENERATORS: dict[str, str] = {
    "person_name": "text",
    "first_name": "text",
    "last_name": "text",
    "phone_number": "phone",
    "email_address": "email",
    "street_address": "text",
    "city": "text",
    "company_name": "text",
    "word": "text",
    "sentence": "text",
    "free_text": "text",
}
RANGE_TYPES = ("int", "number", "money", "date", "time", "datetime", "duration")


def scalar(name: str, optional: bool = False) -> ir.Type:
    return ir.Type(name=name, optional=optional)  # type: ignore[arg-type]


def is_text(t: ir.Type) -> bool:
    return t.name in ir.TEXT_LIKE or t.name in ("answer", "any")


def is_numeric(t: ir.Type) -> bool:
    return t.name in ir.NUMERIC or t.name in ("answer", "any")


def is_ordered(t: ir.Type) -> bool:
    return t.name in ir.ORDERED or t.name in ("answer", "any")


def loose(t: ir.Type) -> bool:
    """Types that compare with anything: the agent's answer, unknown, and null."""
    return t.name in ("answer", "any", "null")


def compatible(a: ir.Type, b: ir.Type) -> bool:
    """Whether values of the two types can be compared for equality.

    >>> compatible(scalar("int"), scalar("money")), compatible(scalar("date"), scalar("text"))
    (True, False)
    """
    if loose(a) or loose(b):
        return True
    if a.name in ir.NUMERIC and b.name in ir.NUMERIC:
        return True
    if a.name in ir.TEXT_LIKE and b.name in ir.TEXT_LIKE:
        return True
    if {a.name, b.name} <= {"date", "datetime"}:
        return True
    if a.name == "list" and b.name == "list":
        assert a.item is not None and b.item is not None
        return compatible(a.item, b.item)
    if a.name == "record" and b.name == "record":
        if a.record or b.record:
            return a.record == b.record
        return _same_fields(a, b)
    return a.name == b.name


def unify(types: list[ir.Type]) -> ir.Type | None:
    """The common type of list items or choices, or None if they disagree."""
    known = [t for t in types if not loose(t)]
    if not known:
        return types[0] if types else scalar("any")
    first = known[0]
    for t in known[1:]:
        if not compatible(first, t):
            return None
    numeric = [t.name for t in known if t.name in ir.NUMERIC]
    if numeric and len(numeric) == len(known):
        for name in ("money", "number", "int"):
            if name in numeric:
                return scalar(name)
    return first.required()


def coerce_literal(value_kind: tuple[Any, str], typ: ir.Type) -> Any:
    """A literal's value converted to ``typ``; ValueError when it does not fit.

    >>> coerce_literal((3, "int"), scalar("money"))
    300
    >>> coerce_literal(("work", "text"), ir.Type(name="enum", members=("home", "work")))
    'work'
    """
    value, kind = value_kind
    if kind == "null":
        if not typ.optional:
            raise ValueError("`null` needs an optional type (`T?`)")
        return None
    if typ.name == "list":
        if kind != "list":
            raise ValueError(f"expected a list, found {kind}")
        assert typ.item is not None
        return [coerce_literal(v, typ.item) for v in value]
    return coerce_scalar(value, kind, typ)


def coerce_scalar(value: Any, kind: str, typ: ir.Type) -> Any:
    """A scalar literal converted to ``typ`` (see ``coerce_literal``)."""
    name = typ.name
    if name in ("any", "answer"):
        return value
    if name == "enum":
        members = typ.members or ()
        if kind != "text" or value not in members:
            raise ValueError(f"expected one of {', '.join(members)}")
        return value
    if name in ("text", "phone", "email", "file") and kind == "text":
        return value
    if name == "money":
        if kind == "int":
            return value * 100
        if kind == "number" and abs(value * 100 - round(value * 100)) < 1e-9:
            return round(value * 100)
        if kind == "money":
            return value
    if name == "number" and kind in ("int", "number"):
        return float(value)
    if name == kind:
        return value
    raise ValueError(f"expected {name}, found {kind}")


def _same_fields(a: ir.Type, b: ir.Type) -> bool:
    fa, fb = dict(a.fields or ()), dict(b.fields or ())
    return fa.keys() == fb.keys() and all(compatible(fa[k], fb[k]) for k in fa)


def whole_minute(value: Any) -> bool:
    """Whether a datetime value (or a time of day) is a whole minute (what a
    `datetime(minute)` field holds); a value that is no such text (null, a parameter not yet
    known) is not judged here.

    >>> whole_minute("2026-05-16T19:30:00"), whole_minute("2026-05-16T19:30:15")
    (True, False)
    """
    if not isinstance(value, str):
        return True
    try:
        moment: dt.datetime | dt.time = dt.datetime.fromisoformat(value)
    except ValueError:
        try:
            moment = dt.time.fromisoformat(value)  # a time of day
        except ValueError:
            return True
    return moment.second == 0 and moment.microsecond == 0
