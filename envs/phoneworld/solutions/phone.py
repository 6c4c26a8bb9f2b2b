"""Reference solutions of the Phone (Simple Dialer) tasks: they read the call history as an
agent would (names, the call type icon's description, the time) and act on its rows."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from tasklang.envs.phoneworld.solutions.base import Driver, SolutionError, reference


def spoken_time(said: str) -> dt.time:
    """The clock time of a spoken cutoff: "noon", "3 pm", "11:30 am"."""
    if said == "noon":
        return dt.time(12, 0)
    clock, _, half = said.partition(" ")
    hour, _, minute = clock.partition(":")
    h = int(hour) % 12 + (12 if half == "pm" else 0)
    return dt.time(h, int(minute or 0))


@dataclass
class Row:
    index: int  # the row's element index
    menu: int  # its "More options" button
    name: str
    kind: str  # the call type icon's description ("Missed call"...)
    when: str


def history(d: Driver) -> list[Row]:
    """The call history's rows on the screen, top (newest) first."""
    nodes = d.observe().flat()
    rows = []
    for i, v in enumerate(nodes):
        if not v.rid.endswith(":id/item_recents_holder"):
            continue
        inside = v.flat()
        name = next(x.text for x in inside if x.rid.endswith(":id/item_recents_name"))
        kind = next(x.desc for x in inside if x.rid.endswith(":id/item_recents_type"))
        when = next(x.text for x in inside if x.rid.endswith(":id/item_recents_date_time"))
        menu = i + next(j for j, x in enumerate(inside) if x.desc == "More options")
        rows.append(Row(i, menu, name, kind, when))
    return rows


def clock_time(text: str) -> dt.time:
    """A time as the call history shows it today ("9:10 AM" or "09:10")."""
    for fmt in ("%I:%M %p", "%H:%M"):
        try:
            return dt.datetime.strptime(text, fmt).time()
        except ValueError:
            continue
    raise SolutionError(f"not a time of today: {text!r}")


@reference("phone.call_back_missed")
def call_back_missed(d: Driver) -> None:
    cutoff = spoken_time(d.params["cutoff"]["said"])
    d.tap(desc="Call History")
    missed = [
        r
        for r in history(d)
        if r.kind == "Missed call" and ":" in r.when and "," not in r.when
        and clock_time(r.when) < cutoff
    ]  # fmt: skip
    if not missed:
        raise SolutionError("no missed call before the cutoff today")
    d.act({"action_type": "click", "index": missed[0].index})  # newest first
    d.tap(desc="End call")
    d.done()


@reference("phone.block_repeat_caller")
def block_repeat_caller(d: Driver) -> None:
    d.tap(desc="Call History")
    missed: dict[str, list[Row]] = {}
    for r in history(d):
        if r.kind == "Missed call":  # a name like "+1 ... (2)" counts its grouped calls
            name, _, count = r.name.partition(" (")
            missed.setdefault(name, []).extend([r] * int(count.rstrip(")") or 1))
    name, rows = max(missed.items(), key=lambda kv: len(kv[1]))
    if len(rows) != 3 or not name.startswith("+"):
        raise SolutionError(f"no unknown number with three missed calls: {sorted(missed)}")
    d.act({"action_type": "click", "index": rows[0].menu})
    d.tap(text="Block number")
    d.done()
