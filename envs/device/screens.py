"""Screen probes: state an app keeps nowhere a phone lets a checker read (a mini program's
orders, a super-app's encrypted wallet, a shopping app's cart), read from the app's own
screens after the episode.

An app model's ``probe TARGET: screen STEPS rows SELECTOR { field = SPOT, ... }`` (or
``value SPOT`` for a setting) becomes a :class:`ScreenSpec`; ``envs/device/screenread.py``
runs it. What a spot's text means is decided here: the text around the value (``format``),
the text of each enum or bool value (``labels``), and the form the field's type is shown in
(money as ``$1,234.50``, a date as ``2026-05-14``, a time as ``08:05``, a datetime with its
seconds as ``2026-05-14 08:05:30``), and other text the spot may show (``or { "No bill due" =
$0.00, "Balance {*}" = unknown }``: :data:`UNSHOWN`, a row that does not show the field). Text
that does not have one of these forms is an error, never a guess. A datetime shown to the
minute (``2026-05-14 08:05``) is read as the minute it lies in (:class:`Within`): its record
is read without the field, and with that range, which decides the comparisons it settles
(``placed_at >= 2026-05-11T00:00``). Text that stands for one of several values (``or {
"Completed" = "used" or "paid" }``) is read as those values (:class:`Among`), in the same way.
A screen that shows less than the value otherwise (a rounded number) cannot be read exactly,
and such a field is simply not mapped by the model. ``details { ... }`` reads more fields on
each record's own page, which a tap on its row opens (``screenread.ScreenReader.details``).
Text that names a record of another collection (``names friends by remark or nickname``) is
read as that record's key once the collection is read (:class:`Named`, :func:`resolve_names`).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any, Literal

from tasklang import ir
from tasklang.envs.device.codec import DecodeError
from tasklang.types import whole_minute
from tasklang.verifiers.evaluate import ranged

# a setting's spot is keyed by the setting's own name
Decode = Callable[[str], Any]


class _Unshown:
    """What a spot reads on a row that does not show its field (a form ``= unknown``)."""

    def __repr__(self) -> str:
        return "UNSHOWN"


UNSHOWN: Any = _Unshown()


@dataclass(frozen=True)
class Within:
    """What a spot reads where the screen shows a value only to a range (a datetime to the
    minute): the lowest and highest values it may be, both included."""

    low: str
    high: str

    def as_json(self) -> dict[str, Any]:
        """The range as a record holds it (``verifiers.evaluate.ranged``)."""
        return {"from": self.low, "to": self.high}


@dataclass(frozen=True)
class Among:
    """What a spot reads where the screen shows text that stands for one of several values
    (``"Completed" = "used" or "paid"``), not which."""

    values: tuple[Any, ...]

    def as_json(self) -> dict[str, Any]:
        """The values as a record holds them (``verifiers.evaluate.ranged``)."""
        return {"one_of": list(self.values)}


@dataclass(frozen=True)
class Named:
    """What a spot reads where its text names a record of another collection (``names
    friends by remark or nickname``): the name, which :func:`resolve_names` turns into that
    record's key once the collection is read."""

    text: str


_INT = re.compile(r"-?\d{1,3}(,\d{3})+|-?\d+")
_NUMBER = re.compile(r"-?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?")
_MONEY = re.compile(r"(-)?([$€£¥])(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{2}))?")
_TIME = re.compile(r"(\d{2}):(\d{2})(?::(\d{2}))?")


@dataclass(frozen=True)
class SpotRead:
    """One value a screen probe reads: a record's field (or the setting), where it is, and
    how its text becomes the value (``many``: every element the spot matches is one item of
    a list, in screen order)."""

    name: str
    spot: ir.ScreenSpot
    decode: Decode
    many: bool = False
    attr: str = "text"  # what of the element is read: its text, or `checked` (a switch's state)
    ranged: bool = False  # may read a range instead of the value (:class:`Within`)
    named_key: str | None = None  # `names`: the key field of the collection the text names
    # a datetime read in two parts (`each`): "day", on a group (a :class:`Day`), or "time",
    # on its rows (a :class:`TimeOfDay`); :func:`join_parts` makes the value of the two
    part: Literal["", "day", "time"] = ""


@dataclass(frozen=True)
class GroupRead:
    """One level of a screen probe's `each`: the groups' elements and what each shows."""

    selector: ir.Selector
    reads: tuple[SpotRead, ...]


@dataclass(frozen=True)
class AppProbe:
    """One probe of one app, resolved against the app model: what every kind of probe
    names (see ``probes.ProbeSpec`` and :class:`ScreenSpec` for what each reads)."""

    app: str
    package: str
    probe: ir.Probe
    kind: Literal["collection", "setting"]

    @property
    def target(self) -> str:
        return self.probe.target

    @property
    def key(self) -> tuple[str, str]:
        """The app and the collection or setting the probe reads."""
        return (self.app, self.probe.target)


@dataclass(frozen=True)
class ScreenSpec(AppProbe):
    """One `screen` probe of one app: the way to its page and what is read there."""

    reads: tuple[SpotRead, ...]
    # `details`: read on each record's own page (a tap on its row, found by ``key_field``,
    # or by all ``reads`` read where the records have no key)
    details: tuple[SpotRead, ...] = ()
    key_field: str | None = None
    # `each`: the levels of groups (a list of lists; a group of groups), each read on the
    # group's element for every row under it
    each: tuple[GroupRead, ...] = ()

    @property
    def group_reads(self) -> tuple[SpotRead, ...]:
        """What the groups read, at every level."""
        return tuple(r for g in self.each for r in g.reads)

    def describe(self) -> str:
        """The way to the page and what is read there, in the model's words."""
        steps = []
        for s in self.probe.steps:
            if s.selector is not None:
                shown = " if shown" if s.if_shown else ""
                steps.append(f"tap {selector_text(s.selector)}{shown}")
            else:
                steps.append(f"type {s.text!r}")
        most = f" (at most {self.probe.most})" if self.probe.most is not None else ""
        what = (
            f"rows {selector_text(self.probe.selector)}{most}"
            if self.probe.selector is not None
            else f"value {selector_text(self.reads[0].spot.selector)}"
        )
        if self.details:
            shown = ", ".join(r.name for r in self.details)
            tap = (f"its {selector_text(self.probe.details_tap)}"
                   if self.probe.details_tap is not None else "the row")  # fmt: skip
            what += f", then each row's own page (a tap on {tap}) for {shown}"
        if self.probe.upcoming is not None:
            what += f" (those whose {self.probe.upcoming} is after the phone's clock)"
        if self.each:
            levels = [f"each {selector_text(g.selector)} (for {', '.join(r.name for r in g.reads)})"
                      ", a tap on it" for g in self.each]  # fmt: skip
            what = (
                f"{', then on the page it opens '.join(levels)}, then {what} of the page it opens"
            )
        return ", ".join([f"start {self.package}", *steps, what])


def selector_text(sel: ir.Selector) -> str:
    return " ".join(f'{a.attr} "{a.value}"' for a in sel.attrs)


def screen_specs(compiled: ir.CompiledTask) -> list[ScreenSpec]:
    """Every `screen` probe of the task's apps."""
    out = []
    for name in sorted(compiled.apps):
        app = compiled.apps[name]
        for p in app.probes:
            if p.source != "screen":
                continue
            if app.collection(p.target) is not None:
                rdef = app.record_of(p.target)
                key = rdef.key_field() if rdef else None
                parts = {f for f in p.group_spots() if f in p.spots}  # a datetime's day
                groups = tuple(GroupRead(g.selector, _reads(g.spots, rdef, app, parts, "day"))
                               for g in p.each)  # fmt: skip
                out.append(ScreenSpec(name, app.package, p, "collection",
                                      _reads(p.spots, rdef, app, parts, "time"),
                                      _reads(p.details, rdef, app), key.name if key else None,
                                      groups))  # fmt: skip
            elif app.setting(p.target) is not None:
                reads = tuple(_read(f, spot, app.setting(p.target)) for f, spot in p.spots.items())
                out.append(ScreenSpec(name, app.package, p, "setting", reads))
    return out


def _reads(
    spots: dict[str, ir.ScreenSpot],
    rdef: ir.RecordDef | None,
    app: ir.AppModel,
    parts: set[str] | frozenset[str] = frozenset(),
    part: Literal["day", "time"] = "day",
) -> tuple[SpotRead, ...]:
    """What each spot reads of a record's field (of a field in ``parts``, a datetime read in
    two parts: its ``part``)."""
    out = []
    for f, spot in spots.items():
        fdef = rdef.field(f) if rdef else None
        minute = fdef is not None and fdef.unit == "minute"
        if f in parts:
            decode = _in_part(spot_decoder(spot, ir.Type(name="text")), part, minute)
            out.append(SpotRead(f, spot, decode, ranged=part == "time" and not minute, part=part))
            continue
        read = _read(f, spot, fdef)
        named = app.record_of(spot.names.collection) if spot.names is not None else None
        key = named.key_field() if named is not None else None
        if key is not None:
            read = dataclasses.replace(read, named_key=key.name)
        out.append(read)
    return tuple(out)


def _in_part(shown: Decode, part: Literal["day", "time"], minute: bool) -> Decode:
    """A spot that shows one part of a datetime: its text (the format taken off) is the day
    (:class:`Day`) or the time of day (:class:`TimeOfDay`; of a `datetime(minute)` field,
    shown to the minute, the exact time)."""

    def decode(text: str) -> Any:
        if part == "day":
            return _day(shown(text))
        value = _time_of_day(shown(text))
        if minute:
            return TimeOfDay(_whole_minute_of(value.value), True)
        return value

    return decode


def _whole_minute_of(value: str) -> str:
    """A datetime (or time) a `datetime(minute)` field holds: one with seconds is not one."""
    if not whole_minute(value):
        raise DecodeError(f"{value} is not a whole minute, and the model says the field is")
    return value


def _naming(decode: Decode) -> Decode:
    """A spot that shows names: its text (the format taken off) is a :class:`Named`."""

    def named(text: str) -> Any:
        value = decode(text)
        return Named(value) if isinstance(value, str) else value

    return named


def resolve_names(
    spec: ScreenSpec, records: list[dict[str, Any]], collections: dict[str, list[dict[str, Any]]]
) -> None:
    """Each field of ``records`` read as a name (:class:`Named`) becomes the key of the one
    record of the named collection (in ``collections``, the app's as read) so named: the
    first of its `by` fields that is set shows it. Where several records are so named the
    field is one of their keys (:class:`Among`, held as ``FIELD~``); where none is, or the
    collection was not read, it is left out: not read in that record."""
    for read in (*spec.reads, *spec.details):  # a group's fields name nothing
        names = read.spot.names
        if names is None or read.named_key is None:
            continue
        by_name: dict[str, list[Any]] = {}
        for r in collections.get(names.collection, []):
            shown = next((str(r[f]) for f in names.by if r.get(f) not in (None, "")), None)
            if shown is not None and read.named_key in r:
                by_name.setdefault(shown, []).append(r[read.named_key])
        for record in records:
            value = record.get(read.name)
            if not isinstance(value, Named):
                continue
            del record[read.name]
            keys = sorted(set(by_name.get(value.text, [])), key=str)
            if len(keys) == 1:
                record[read.name] = keys[0]
            elif keys:
                record[ranged(read.name)] = Among(tuple(keys)).as_json()


def _read(name: str, spot: ir.ScreenSpot, fdef: ir.FieldDef | None) -> SpotRead:
    t = fdef.type if fdef is not None else ir.Type(name="text")
    if t.name == "list" and t.item is not None:
        return SpotRead(name, spot, spot_decoder(spot, t.item), many=True)
    if t.name == "bool" and not spot.labels:
        return SpotRead(name, spot, _checked, attr="checked")
    if fdef is not None and fdef.unit == "minute":
        return SpotRead(name, spot, _to_the_minute(spot_decoder(spot, t)))
    return SpotRead(name, spot, spot_decoder(spot, t), ranged=t.name == "datetime")


def _to_the_minute(decode: Decode) -> Decode:
    """A spot of a `datetime(minute)` field: shown to the minute, it shows the value (the
    minute's first instant); shown with seconds, they must be none."""

    def read(text: str) -> Any:
        value = decode(text)
        if isinstance(value, Within):
            return value.low
        if isinstance(value, str):
            return _whole_minute_of(value)
        return value  # a form's value (null, unknown)

    return read


def _checked(raw: str) -> Any:
    """A switch's or check box's state (the element's `checked`, read only where it is
    `checkable`)."""
    if raw not in ("true", "false"):
        raise DecodeError("the element is not a switch or a check box")
    return raw == "true"


# ------------------------------------------------------------------ reading shown text
def spot_decoder(spot: ir.ScreenSpot, t: ir.Type) -> Decode:
    """Text shown on screen -> the field's value (raises DecodeError when it does not fit).

    >>> read = spot_decoder(ir.ScreenSpot(selector=ir.Selector(attrs=[]),
    ...                     format="Total {}"), ir.Type(name="money"))
    >>> read("Total $1,204.50"), read("Total -$0.05")
    (120450, -5)
    """
    base = _by_type(t)
    labels = {text: value for value, text in spot.labels.items()}
    if spot.labels:
        base = _labelled(labels, t)
    formatted = _formatted(spot, t, base, labels)
    if spot.names is not None:  # the text is a name (a form's value is not)
        formatted = _naming(formatted)
    if spot.forms:
        return _with_forms(spot, formatted)
    return formatted


def _formatted(spot: ir.ScreenSpot, t: ir.Type, base: Decode, labels: dict[str, str]) -> Decode:
    def decode(text: str) -> Any:
        """Nothing shown (no element, or no text) is a label's value when a label is ""; else
        no value for an optional field, "" for text, and an error for the rest."""
        if text == "" and "" in labels:
            return base("")
        if text == "" and spot.format is not None:
            if t.optional:
                return None
            if t.name in ("text", "phone", "email"):
                return ""
            raise DecodeError(f"nothing shown where {spot.format!r} was expected")
        inner = unformat(spot.format, text, labels) if spot.format is not None else text
        if inner == "" and t.optional:
            return None
        return base(inner)

    return decode


def _with_forms(spot: ir.ScreenSpot, formatted: Decode) -> Decode:
    """``or { "TEXT" = VALUE, ... }``: text that fits one of the other forms is its value
    (:data:`UNSHOWN` for ``unknown``); other text is read by the format and labels. Text
    that fits a form and is read by the format too says two things, and is an error; but
    nothing shown (no element, or no text), which an optional field reads as null and text
    as "", is what a form for ``""`` says it is."""
    forms = [(_form_pattern(f.text), f) for f in spot.forms]

    def decode(text: str) -> Any:
        fits = [f for pattern, f in forms if pattern.fullmatch(text)]
        if not fits:
            return formatted(text)
        try:
            formatted(text)
        except DecodeError:
            pass
        else:
            if text != "":
                raise DecodeError(
                    f"{text[:60]!r} is read both by the format and as {fits[0].text!r}"
                )
        if len(fits) > 1:
            raise DecodeError(f"{text[:60]!r} fits both {fits[0].text!r} and {fits[1].text!r}")
        if fits[0].among:
            return Among(tuple(fits[0].among))
        return UNSHOWN if fits[0].unknown else fits[0].value

    return decode


def _form_pattern(text: str) -> re.Pattern[str]:
    return re.compile(".*".join(re.escape(part) for part in text.split("{*}")), re.DOTALL)


def unformat(fmt: str, text: str, labels: Collection[str] = ()) -> str:
    """The value ``{}`` stands for in ``text`` written as ``fmt`` (``{*}``: any other text).
    Text that splits more than one way ("Row 1 Seat 2 Seat 3" as "Row {} Seat {*}") does
    not say which value it shows, and is an error; with ``labels`` (the texts the value may
    be), only the splits whose value is one of them count, so one text may show several
    options ("Large · Oat Milk · Less Sugar" as "{} · {*}" with the sizes' labels).

    >>> unformat("Order No. {}", "Order No. A0193"), unformat("Row {*} Seat {}", "Row 5 Seat 7")
    ('A0193', '7')
    >>> unformat("{*} · {} · {*}", "Large · Oat Milk · Less Sugar", ("Whole Milk", "Oat Milk"))
    'Oat Milk'
    """
    if "{*}" not in fmt:
        prefix, _, suffix = fmt.partition("{}")
        if (
            len(text) < len(prefix) + len(suffix)
            or not text.startswith(prefix)
            or not text.endswith(suffix)
        ):
            raise DecodeError(f"{text[:60]!r} is not written as {fmt!r}")
        return text[len(prefix) : len(text) - len(suffix)]
    parts = [re.escape(p).replace(re.escape("{*}"), "(?:.*{0})") for p in fmt.split("{}")]
    found = set()
    if labels:
        around = [p.replace("{0}", "") for p in parts]
        found = {v for v in labels
                 if re.fullmatch(around[0] + re.escape(v) + around[1], text, re.DOTALL)}  # fmt: skip
    for lazy in ("", "?") if not labels else ():
        pattern = (parts[0] + "(.*{0})" + parts[1]).replace("{0}", lazy)
        m = re.fullmatch(pattern, text, re.DOTALL)
        if m is not None:
            found.add(m[1])
    if not found and labels:
        shown = ", ".join(repr(v) for v in labels)
        raise DecodeError(f"{text[:60]!r} shows none of the labels {shown} as {fmt!r}")
    if not found:
        raise DecodeError(f"{text[:60]!r} is not written as {fmt!r}")
    if len(found) > 1:
        raise DecodeError(f"{text[:60]!r} does not say which part is the value of {fmt!r}")
    return found.pop()


def _labelled(labels: dict[str, str], t: ir.Type) -> Decode:
    def decode(text: str) -> Any:
        if text not in labels:
            shown = ", ".join(repr(k) for k in labels)
            raise DecodeError(f"{text[:60]!r} is none of the labels {shown}")
        value = labels[text]
        return value == "true" if t.name == "bool" else value

    return decode


def _by_type(t: ir.Type) -> Decode:
    readers: dict[str, Decode] = {
        "int": _int,
        "number": _number,
        "money": _money,
        "date": _date,
        "time": _time,
        "datetime": _datetime,
        "bool": _checked,
    }
    if t.name == "enum":
        members = set(t.members or ())
        return lambda text: _member(text, members)
    return readers.get(t.name, _text)


def _text(text: str) -> Any:
    return text


def _member(text: str, members: set[str]) -> Any:
    if text not in members:
        raise DecodeError(f"{text[:60]!r} is not one of {', '.join(sorted(members))}")
    return text


def _int(text: str) -> Any:
    if not _INT.fullmatch(text.strip()):
        raise DecodeError(f"expected a whole number, read {text[:40]!r}")
    return int(text.strip().replace(",", ""))


def _number(text: str) -> Any:
    if not _NUMBER.fullmatch(text.strip()):
        raise DecodeError(f"expected a number, read {text[:40]!r}")
    plain = text.strip().replace(",", "")
    return float(plain) if "." in plain else int(plain)


def _money(text: str) -> Any:
    """Cents from "$1,234.50" or "-$0.05" (a currency sign, then whole units, then cents)."""
    m = _MONEY.fullmatch(text.strip())
    if m is None:
        raise DecodeError(f"expected an amount like $4.50, read {text[:40]!r}")
    cents = int(m[3].replace(",", "")) * 100 + int(m[4] or 0)
    return -cents if m[1] else cents


def _date(text: str) -> Any:
    try:
        return dt.date.fromisoformat(text.strip()).isoformat()
    except ValueError:
        raise DecodeError(f"expected a date like 2026-05-14, read {text[:40]!r}") from None


def _time(text: str) -> Any:
    m = _TIME.fullmatch(text.strip())
    if m is None or int(m[1]) > 23 or int(m[2]) > 59 or int(m[3] or 0) > 59:
        raise DecodeError(f"expected a time like 08:05, read {text[:40]!r}")
    return f"{m[1]}:{m[2]}:{m[3] or '00'}"


@dataclass(frozen=True)
class Day:
    """What a group's spot reads of a datetime read in two parts: the day, a date
    (``2026-05-16``) or, shown without its year (``5/16``), the month and day, which the
    phone's clock dates (:meth:`on`)."""

    month: int
    day: int
    year: int | None = None

    def on(self, today: dt.date | None) -> dt.date:
        """The date: the year shown, else the one that puts the day nearest ``today`` (a
        listing of days around now: "Today 5/16", "Tomorrow 5/17")."""
        if self.year is not None:
            return dt.date(self.year, self.month, self.day)
        if today is None:
            raise DecodeError(f"the day {self.month}/{self.day} is shown without its year, "
                              "and the phone's clock was not read")  # fmt: skip
        near = []
        for year in (today.year - 1, today.year, today.year + 1):
            try:
                near.append(dt.date(year, self.month, self.day))
            except ValueError:  # 2/29 of a year without it
                continue
        return min(near, key=lambda d: abs((d - today).days))


@dataclass(frozen=True)
class TimeOfDay:
    """What a row's spot reads of a datetime read in two parts: the time of day, to the
    second where the screen shows seconds (``seconds``), else to the minute."""

    value: str  # HH:MM:SS
    seconds: bool


_MONTH_DAY = re.compile(r"(\d{1,2})/(\d{1,2})")


def _day(text: str) -> Day:
    """A day a group shows: ``2026-05-16``, or ``5/16`` (month/day, no year).

    >>> _day("5/16"), _day("2026-05-16")
    (Day(month=5, day=16, year=None), Day(month=5, day=16, year=2026))
    """
    plain = text.strip()
    m = _MONTH_DAY.fullmatch(plain)
    if m is not None:
        month, day = int(m[1]), int(m[2])
        try:
            dt.date(2000, month, day)  # a leap year: every month's every day
        except ValueError:
            raise DecodeError(f"{plain[:40]!r} is no day of the year") from None
        return Day(month, day)
    try:
        d = dt.date.fromisoformat(plain)
    except ValueError:
        raise DecodeError(f"expected a day like 2026-05-14 or 5/14, read {text[:40]!r}") from None
    return Day(d.month, d.day, d.year)


def _time_of_day(text: str) -> TimeOfDay:
    value = _time(text)
    return TimeOfDay(value, len(text.strip()) > 5)


def join_parts(day: Day, time: TimeOfDay, today: dt.date | None) -> Any:
    """The datetime a group's day and a row's time of day make: exact where the row shows
    the seconds, else the minute it lies in (:class:`Within`).

    >>> join_parts(Day(5, 16), TimeOfDay("19:30:00", False), dt.date(2026, 5, 16))
    Within(low='2026-05-16T19:30:00', high='2026-05-16T19:30:59.999999')
    """
    moment = dt.datetime.combine(day.on(today), dt.time.fromisoformat(time.value))
    if time.seconds:
        return moment.isoformat()
    last = moment + dt.timedelta(minutes=1) - dt.timedelta(microseconds=1)
    return Within(moment.isoformat(), last.isoformat())


def _datetime(text: str) -> Any:
    """A datetime shown to the second ("2026-05-14 08:05:30"); one shown to the minute
    ("2026-05-14 08:05") does not say its seconds, so it is read as the minute it lies in.

    >>> _datetime("2026-05-14 08:05:30")
    '2026-05-14T08:05:30'
    >>> _datetime("2026-05-14 08:05")
    Within(low='2026-05-14T08:05:00', high='2026-05-14T08:05:59.999999')
    """
    plain = text.strip().replace(" ", "T", 1)
    if len(plain) not in (16, 19) or plain[10:11] != "T":
        raise DecodeError(f"expected a date and time like 2026-05-14 08:05, read {text[:40]!r}")
    try:
        moment = dt.datetime.fromisoformat(plain)
    except ValueError:
        raise DecodeError(f"expected a date and time, read {text[:40]!r}") from None
    if moment.tzinfo is not None:
        raise DecodeError(f"expected a date and time without a zone, read {text[:40]!r}")
    if len(plain) == 19:
        return moment.isoformat()
    last = moment + dt.timedelta(minutes=1) - dt.timedelta(microseconds=1)
    return Within(moment.isoformat(), last.isoformat())
