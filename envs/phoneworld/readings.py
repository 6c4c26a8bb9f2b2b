"""Reading what screens show, for the solver: the rows of a screen's lists with the values
their cells hold (dates, times, amounts of money, durations, sizes, numbers), the values a
goal names (explicit dates and times, and relative ones such as "today" or "next week" read
against the phone's clock), and answers computed from both.

A table is a group of sibling views that share a resource id (the items of a list), each
item a row whose cells are the texts under it, named by their resource ids. Answers are
aggregates over the rows a filter keeps: every row, the rows that show one of the goal's
texts, the rows whose date, time, amount or size compares with a value the goal names, less
the rows that show a word the goal excludes ("don't count cancelled orders"). Of each such
set: the count, the list of a column's texts, the sum of a column's amounts or durations,
and the row with the smallest or largest value of a column (its texts). These are
candidates only: the solver offers each to the verifier like any other answer.

>>> import datetime as dt
>>> read("8:00 AM - 8:45 AM", dt.date(2026, 5, 14)).time, read("$ 1,450.00").money
(datetime.time(8, 0), 145000)
>>> read("Yesterday, 7:40 PM", dt.date(2026, 5, 14)).date, read("2.48 MB").size
(datetime.date(2026, 5, 13), 2480000.0)
"""

from __future__ import annotations

import datetime as dt
import functools
import itertools
import operator
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from tasklang.envs.phoneworld.widgets import View

MONTHS = {
    name: i + 1
    for i, names in enumerate(
        [
            ("jan", "january"),
            ("feb", "february"),
            ("mar", "march"),
            ("apr", "april"),
            ("may",),
            ("jun", "june"),
            ("jul", "july"),
            ("aug", "august"),
            ("sep", "sept", "september"),
            ("oct", "october"),
            ("nov", "november"),
            ("dec", "december"),
        ]
    )
    for name in names
}
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_MONTH = "(" + "|".join(sorted(MONTHS, key=len, reverse=True)) + ")"  # longest first
_ISO_DATE = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_MONTH_DAY = re.compile(rf"\b{_MONTH}\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?\b(?:,?\s+(\d{{4}}))?", re.I)
_DAY_MONTH = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+{_MONTH}\b\.?(?:,?\s+(\d{{4}}))?", re.I)
_DOTTED = re.compile(r"(?<![\d.])(\d{2})\.(\d{2})(?:\.(\d{2}|\d{4}))?(?![\d.])")
_TIME = re.compile(r"(?<![\d:.])(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*([ap])\.?m\.?\b)?", re.I)
_HOUR = re.compile(r"(?<![\d:.])(\d{1,2})\s*([ap])\.?m\.?\b", re.I)
_MONEY = re.compile(
    r"^(?:([A-Z]{0,3}\s?[$€£¥])\s?(-?[\d,]*\.?\d+)|(-?[\d,]*\.?\d+)\s?(USD|EUR|GBP|CNY|RMB|元))$"
)
_SIZE = re.compile(r"^(\d[\d,]*(?:\.\d+)?)\s?(B|[kKMGT]B|[kKMGT]iB)$")
_SIZE_IN_TEXT = re.compile(r"\b(\d[\d,]*(?:\.\d+)?)\s?(B|[kKMGT]B|[kKMGT]iB)\b")
_CLOCK = re.compile(r"^(\d{1,2}):(\d{2})(?::(\d{2}))?$")
_UNITS = re.compile(
    r"(\d+(?:\.\d+)?)\s*(h|hr|hrs|hours?|m|min|mins|minutes?|s|sec|secs|seconds?)\b", re.I
)
_NUMBER = re.compile(r"^[(]?([-+]?\d[\d,]*(?:\.\d+)?)\s*(%|[A-Za-z]+)?[)]?$")
_SIZE_FACTOR = {"B": 1, "KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12,
                "KIB": 1024, "MIB": 1024**2, "GIB": 1024**3, "TIB": 1024**4}  # fmt: skip
_NEGATION = re.compile(
    r"\b(?:don't|do not|not|except|excluding|without|other than|leave out|ignore)\b([^.;:!?]*)",
    re.I,
)
MAX_SUBSETS = 40  # sets of rows an answer is computed from, per screen
MAX_ANSWERS = 400


@dataclass(frozen=True)
class Reading:
    """The values one text holds (None where it holds none of that kind)."""

    text: str
    date: dt.date | None = None
    time: dt.time | None = None
    end: dt.time | None = None  # the end of a time range ("9:30 AM - 9:45 AM")
    money: int | None = None  # cents
    currency: str = ""
    seconds: float | None = None  # a duration
    size: float | None = None  # bytes
    number: float | None = None


def _year(month: int, day: int, today: dt.date | None) -> dt.date | None:
    """The date of a day and month without a year: the one nearest to today."""
    base = today or dt.date(2000, 1, 1)
    best = None
    for year in (base.year - 1, base.year, base.year + 1):
        try:
            d = dt.date(year, month, day)
        except ValueError:
            continue
        if best is None or abs((d - base).days) < abs((best - base).days):
            best = d
    return best


def _date(text: str, today: dt.date | None) -> dt.date | None:
    low = text.casefold()
    if today is not None:
        for word, shift in (("today", 0), ("yesterday", -1), ("tomorrow", 1)):
            if re.search(rf"\b{word}\b", low):
                return today + dt.timedelta(days=shift)
    m = _ISO_DATE.search(text)
    if m:
        try:
            return dt.date(int(m[1]), int(m[2]), int(m[3]))
        except ValueError:
            return None
    m = _MONTH_DAY.search(text)
    day_first = _DAY_MONTH.search(text)
    if m is None and day_first is not None:
        month, day, year = MONTHS[day_first[2].casefold()], int(day_first[1]), day_first[3]
    elif m is not None:
        month, day, year = MONTHS[m[1].casefold()], int(m[2]), m[3]
    else:
        m = _DOTTED.search(text)
        if m is None:
            return None
        day, month = int(m[1]), int(m[2])
        year = m[3] and (m[3] if len(m[3]) == 4 else "20" + m[3])
    if year:
        try:
            return dt.date(int(year), month, day)
        except ValueError:
            return None
    return _year(month, day, today) if 1 <= month <= 12 else None


def _clock(m: re.Match[str]) -> dt.time | None:
    hour, minute = int(m[1]), int(m[2])
    half = (m[4] or "").casefold()
    if half:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if half == "p" else 0)
    if hour > 23 or minute > 59:
        return None
    return dt.time(hour, minute, int(m[3] or 0))


def _times(text: str) -> list[dt.time]:
    out = [t for t in map(_clock, _TIME.finditer(text)) if t is not None]
    if not out:
        for m in _HOUR.finditer(text):
            hour = int(m[1])
            if 1 <= hour <= 12:
                out.append(dt.time(hour % 12 + (12 if m[2].casefold() == "p" else 0)))
    return out


def _duration(text: str) -> float | None:
    m = _CLOCK.match(text)
    if m:
        a, b, c = int(m[1]), int(m[2]), m[3]
        return float(a * 3600 + b * 60 + int(c)) if c else float(a * 60 + b)
    parts = _UNITS.findall(text)
    if parts and not _UNITS.sub("", text).strip(" ,and"):
        factor = {"h": 3600, "m": 60, "s": 1}
        return sum(float(n) * factor[unit[0].casefold()] for n, unit in parts)
    return None


@functools.lru_cache(maxsize=4096)
def read(text: str, today: dt.date | None = None) -> Reading:
    """The values a text shows (see the module's examples)."""
    text = text.strip()
    m = _MONEY.match(text)
    if m:
        amount = (m[2] or m[3]).replace(",", "")
        return Reading(
            text, money=round(float(amount) * 100), currency=(m[1] or m[4] or "").strip()
        )
    m = _SIZE.match(text)
    if m:
        factor = _SIZE_FACTOR[m[2].upper()]
        return Reading(text, size=float(m[1].replace(",", "")) * factor)
    seconds = _duration(text)
    date = _date(text, today)
    times = _times(text)
    number = None
    m = _NUMBER.match(text)
    if m and date is None:
        number = float(m[1].replace(",", ""))
    return Reading(
        text,
        date=date,
        time=times[0] if times else None,
        end=times[1] if len(times) > 1 else None,
        seconds=seconds,
        number=number,
    )


# ------------------------------------------------------------------ tables
Row = tuple[tuple[str, str], ...]  # (column, text) in document order


def _visible(v: View) -> bool:
    left, top, right, bottom = v.bounds
    return right > left and bottom > top


def _cells(row: View) -> Row:
    """A row's texts (and the descriptions of images that say something, such as a call's
    direction), named by resource id, or by position where a view has none."""
    out = []
    unnamed = 0
    for v in row.flat():
        if not _visible(v):
            continue
        text = v.text.strip() if v.text else ""
        if not text and v.desc and not v.clickable and v.edit is None:
            text = v.desc.strip()
        if not text or v.edit is not None:
            continue
        name = v.rid.rsplit("/", 1)[-1]
        if not name:
            name, unnamed = f"#{unnamed}", unnamed + 1
        out.append((name, text))
    return tuple(out)


def tables(tree: View) -> dict[str, tuple[Row, ...]]:
    """The screen's lists: groups of two or more visible sibling views that share a resource
    id (or the class, for a list's items without one), by the ids of the parent and the
    items."""
    out: dict[str, tuple[Row, ...]] = {}
    for parent in tree.flat():
        if len(parent.children) < 2:
            continue
        listing = parent.cls.endswith(("RecyclerView", "ListView", "GridView"))
        groups: dict[str, list[Row]] = {}
        for child in parent.children:
            # a list's items without an id of their own are grouped by their class
            key = child.rid or (child.cls if listing else "")
            if key and _visible(child):
                cells = _cells(child)
                if cells:
                    groups.setdefault(key, []).append(cells)
        for rid, rows in groups.items():
            if len(rows) >= 2:
                key = f"{parent.rid or parent.cls}/{rid.rsplit('/', 1)[-1]}"
                out[key] = out.get(key, ()) + tuple(rows)
    return out


def merge(
    seen: dict[str, tuple[Row, ...]], now: dict[str, tuple[Row, ...]]
) -> dict[str, tuple[Row, ...]]:
    """The rows of a list seen before (above, before a scroll) and now, each once; a row cut
    by the screen's edge (its cells a part of another row's) is left out."""
    out = dict(now)
    for key, rows in seen.items():
        both = list(dict.fromkeys([*rows, *now.get(key, ())]))
        sets = [set(r) for r in both]
        out[key] = tuple(
            r for i, r in enumerate(both)
            if not any(i != j and sets[i] < sets[j] for j in range(len(both)))
        )  # fmt: skip
    return out


# ------------------------------------------------------------------ what the goal names
@dataclass
class GoalValues:
    """The values a goal names, by kind, and the words it excludes."""

    dates: list[dt.date] = field(default_factory=list)
    times: list[dt.time] = field(default_factory=list)
    money: list[int] = field(default_factory=list)
    sizes: list[float] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    numbers: list[float] = field(default_factory=list)
    excluded: set[str] = field(default_factory=set)


def relative_dates(goal: str, today: dt.date) -> list[dt.date]:
    """The days a goal names relative to today: "today", "tomorrow", "yesterday", "a week
    from tomorrow", "in 3 days", weekdays ("since Monday": this week's; "next Friday"), and
    weeks ("next week": its Monday and Sunday).

    >>> relative_dates("delete the events a week from tomorrow", dt.date(2026, 5, 14))
    [datetime.date(2026, 5, 15), datetime.date(2026, 5, 22)]
    """
    low = goal.casefold()
    out: list[dt.date] = []
    named = {
        "today": today,
        "tomorrow": today + dt.timedelta(1),
        "yesterday": today - dt.timedelta(1),
    }
    for word, day in named.items():
        if re.search(rf"\b{word}\b", low):
            out.append(day)
    counts = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4}
    unit = r"(\d+|a|an|one|two|three|four)\s+(day|week)s?"
    for n, what, base in re.findall(rf"\b{unit}\s+(?:from|after)\s+(today|tomorrow|now)\b", low):
        days = (int(n) if n.isdigit() else counts[n]) * (7 if what == "week" else 1)
        out.append(named.get(base, today) + dt.timedelta(days))
    for n, what in re.findall(rf"\bin\s+{unit}\b", low):
        out.append(
            today
            + dt.timedelta((int(n) if n.isdigit() else counts[n]) * (7 if what == "week" else 1))
        )
    for n, what in re.findall(rf"\b{unit}\s+ago\b", low):
        out.append(
            today
            - dt.timedelta((int(n) if n.isdigit() else counts[n]) * (7 if what == "week" else 1))
        )
    monday = today - dt.timedelta(today.weekday())
    for i, name in enumerate(WEEKDAYS):
        if re.search(rf"\b{name}s?\b", low):
            past = monday + dt.timedelta(i)
            out += (
                [past, past + dt.timedelta(7)] if past <= today else [past - dt.timedelta(7), past]
            )
    for word, shift in (("this", 0), ("next", 7), ("last", -7)):
        if re.search(rf"\b{word} week\b", low):
            start = monday + dt.timedelta(shift)
            out += [start, start + dt.timedelta(6)]
    return list(dict.fromkeys(out))


def date_shift(goal: str) -> int:
    """The days a goal moves something by ("one week later": 7, "2 days earlier": -2), 0 if
    it says no such thing.

    >>> date_shift("move 'Concert' one week later"), date_shift("a day earlier, please")
    (7, -1)
    """
    counts = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4}
    m = re.search(
        r"\b(\d+|a|an|one|two|three|four)\s+(day|week)s?\s+(later|after|ahead|forward|earlier|before|back)\b",
        goal.casefold(),
    )
    if m is None:
        return 0
    days = (int(m[1]) if m[1].isdigit() else counts[m[1]]) * (7 if m[2] == "week" else 1)
    return days if m[3] in ("later", "after", "ahead", "forward") else -days


_DATE_WORDS = frozenset(
    [*MONTHS, *WEEKDAYS, "today", "tomorrow", "yesterday", "day", "days", "week", "weeks",
     "from", "after", "ago", "in", "next", "last", "this", "a", "an", "one", "two", "three",
     "four", "on", "of", "the", "st", "nd", "rd", "th"]
)  # fmt: skip


def names_a_day(text: str, today: dt.date) -> bool:
    """Whether a text says nothing but a day ("May 20", "a week from tomorrow").

    >>> today = dt.date(2026, 5, 14)
    >>> names_a_day("a week from tomorrow", today), names_a_day("Sorry, can't make it today.", today)
    (True, False)
    """
    if not dates_shown(text, today) and not relative_dates(text, today):
        return False
    rest = [w for w in re.findall(r"[a-z]+", text.casefold()) if w not in _DATE_WORDS]
    return not rest


def goal_values(goal: str, today: dt.date) -> GoalValues:
    """The dates, times, amounts, sizes, durations and numbers a goal names."""
    found = GoalValues()
    found.dates = [d for d in (_date(m[0], today) for m in _dates_in(goal)) if d is not None]
    found.dates = list(dict.fromkeys([*found.dates, *relative_dates(goal, today)]))
    found.times = list(dict.fromkeys(_times(goal)))
    found.money = [
        round(float(a.replace(",", "")) * 100) for a in re.findall(r"[$€£¥]\s?(\d[\d,]*(?:\.\d+)?)", goal)
    ]  # fmt: skip
    found.sizes = [
        float(n.replace(",", "")) * _SIZE_FACTOR[u.upper()] for n, u in _SIZE_IN_TEXT.findall(goal)
    ]
    found.seconds = [s for s in (_duration(m[0]) for m in _UNITS.finditer(goal)) if s is not None]
    found.numbers = [
        float(n) for n in re.findall(r"(?<![\d.:,$€£¥-])(\d+(?:\.\d+)?)(?![\d:])", goal)
    ]
    for clause in _NEGATION.findall(goal):
        found.excluded |= {w for w in re.findall(r"[a-z]+", clause.casefold()) if len(w) > 3}
    return found


def _dates_in(text: str) -> Iterable[re.Match[str]]:
    yield from _ISO_DATE.finditer(text)
    yield from _MONTH_DAY.finditer(text)
    yield from _DAY_MONTH.finditer(text)


def dates_shown(text: str, today: dt.date) -> list[dt.date]:
    """The dates a view's text or description names ("13 June 2026", "Wed, May 20")."""
    return [d for d in (_date(m[0], today) for m in _dates_in(text)) if d is not None]


# ------------------------------------------------------------------ answers
ParsedRow = dict[str, Reading]  # column -> what its cell shows
_RELATIONS: tuple[Callable[[Any, Any], bool], ...] = (
    operator.eq, operator.lt, operator.gt, operator.le, operator.ge,
)  # fmt: skip
_ORDERED = ("date", "time", "money", "seconds", "size", "number")


def _named(goal: GoalValues, kind: str) -> list[Any]:
    """The values of one kind the goal names, in order."""
    values: dict[str, list[Any]] = {
        "date": goal.dates, "time": goal.times, "money": goal.money, "size": goal.sizes,
        "seconds": goal.seconds, "number": goal.numbers,
    }  # fmt: skip
    return sorted(set(values[kind]))


def _columns(rows: list[ParsedRow]) -> dict[str, list[str]]:
    """Each column and the kinds of value every one of its cells holds."""
    out = {}
    for name in dict.fromkeys(name for row in rows for name in row):
        cells = [row[name] for row in rows if name in row]
        out[name] = [k for k in _ORDERED if all(getattr(c, k) is not None for c in cells)]
    return out


def _showing(rows: list[ParsedRow], texts: Iterable[str]) -> list[frozenset[int]]:
    """For each text, the rows a cell of which shows it (as whole words)."""
    out = []
    for t in texts:
        pattern = re.compile(rf"(?<!\w){re.escape(t.casefold())}(?!\w)")
        out.append(frozenset(
            i for i, row in enumerate(rows)
            if any(pattern.search(c.text.casefold()) for c in row.values())
        ))  # fmt: skip
    return out


def _comparing(rows: list[ParsedRow], goal: GoalValues) -> list[frozenset[int]]:
    """The rows whose cell of a column compares (=, <, >, <=, >=) with a value of its kind
    the goal names, or lies between two such values."""
    out = []
    for name, kinds in _columns(rows).items():
        for kind in kinds:
            cells = {i: getattr(row[name], kind) for i, row in enumerate(rows) if name in row}
            values = _named(goal, kind)
            for v in values:
                for rel in _RELATIONS:
                    out.append(frozenset(i for i, x in cells.items() if rel(x, v)))
            for low, high in itertools.pairwise(values):
                out.append(frozenset(i for i, x in cells.items() if low <= x <= high))
    return out


def _subsets(rows: list[ParsedRow], texts: list[str], goal: GoalValues) -> list[frozenset[int]]:
    """The sets of rows an answer may be about: every row, the rows that show one of the
    goal's texts, and of these the rows a value the goal names picks; each also less the
    rows that show a word the goal excludes."""
    base = [frozenset(range(len(rows))), *(s for s in _showing(rows, texts) if s)]
    found = [*base, *(b & t for b in base for t in _comparing(rows, goal))]
    if goal.excluded:
        out = _showing(rows, goal.excluded)
        found += [s.difference(*out) for s in found]
    return [s for s in dict.fromkeys(found) if s][:MAX_SUBSETS]


def _money_text(cents: int, currency: str) -> str:
    sign = "-" if cents < 0 else ""
    return f"{sign}{currency or '$'}{abs(cents) // 100}.{abs(cents) % 100:02d}"


def _duration_text(seconds: float) -> str:
    s = round(seconds)
    h, rest = divmod(s, 3600)
    m, sec = divmod(rest, 60)
    return (f"{h}h " if h else "") + f"{m}m {sec}s"


def _number_text(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:.2f}".rstrip("0")


def _aggregates(rows: list[ParsedRow], chosen: list[int]) -> Iterable[str]:
    """What may be asked of a set of rows: how many, the list of a column's texts, the
    sum of a column's amounts, durations or numbers, the texts of the row with the least
    or most of a column, and for one row, the length of its time range."""
    picked = [rows[i] for i in chosen]
    yield str(len(picked))
    for name, kinds in _columns(picked).items():
        cells = [row[name] for row in picked if name in row]
        if not kinds:
            yield ", ".join(c.text for c in cells)
        if "money" in kinds:
            yield _money_text(sum(c.money or 0 for c in cells), cells[0].currency)
        if "seconds" in kinds:
            yield _duration_text(sum(c.seconds or 0 for c in cells))
        elif "number" in kinds:
            yield _number_text(sum(c.number or 0 for c in cells))
        for kind in kinds:
            ranked = sorted(
                (i for i, row in enumerate(picked) if name in row),
                key=lambda i, k=kind: getattr(picked[i][name], k),  # type: ignore[misc]
            )
            for i in (ranked[0], ranked[-1]):
                yield from (c.text for c in picked[i].values())
    if len(picked) == 1:
        for c in picked[0].values():
            if c.time is not None and c.end is not None:
                span = (c.end.hour * 60 + c.end.minute) - (c.time.hour * 60 + c.time.minute)
                yield _duration_text(span % (24 * 60) * 60)


def computed_answers(
    seen: dict[str, tuple[Row, ...]], texts: list[str], goal: GoalValues, today: dt.date
) -> list[str]:
    """Answers computed from the rows of the lists seen (see the module's doc)."""
    out: dict[str, None] = {}
    for rows in seen.values():
        parsed: list[ParsedRow] = [{name: read(text, today) for name, text in row} for row in rows]
        _today_for_times(parsed, today)
        for subset in _subsets(parsed, texts, goal):
            for answer in _aggregates(parsed, sorted(subset)):
                out.setdefault(answer)
            if len(out) >= MAX_ANSWERS:
                return list(out)
    return list(out)


def _today_for_times(rows: list[ParsedRow], today: dt.date) -> None:
    """In a column where some cells show a day and others only a time of day, the latter
    are today's (a list shows today's items by their time)."""
    for name in {name for row in rows for name in row}:
        cells = [row[name] for row in rows if name in row]
        if any(c.date is not None for c in cells):
            for row in rows:
                c = row.get(name)
                if c is not None and c.date is None and c.time is not None:
                    row[name] = Reading(c.text, today, c.time, c.end, seconds=c.seconds)
