"""Reference solutions of the AndroidWorld calendar (Simple Calendar Pro) and Tasks.org
families."""

from __future__ import annotations

import datetime as dt
import re

from tasklang.envs.phoneworld.solutions.base import Driver, SolutionError, reference
from tasklang.envs.phoneworld.solutions.calendar import open_day, pick_date, pick_time
from tasklang.envs.phoneworld.solutions.tasks import rows


# ------------------------------------------------------------------ calendar
def new_event(
    d: Driver, title: str, about: str, start: dt.datetime, minutes: int, repeat: str = ""
) -> None:
    """Create an event from the main screen: title, description, start, length, repetition."""
    end = start + dt.timedelta(minutes=minutes)
    d.tap(desc="New Event")
    d.type(title, rid="event_title")
    d.type(about, rid="event_description")
    d.back()  # the keyboard
    pick_date(d, "start", start.date())
    pick_time(d, "start", start.hour, start.minute)
    if end.date() != start.date():
        pick_date(d, "end", end.date())
    pick_time(d, "end", end.hour, end.minute)
    if repeat:
        click(d, d.scroll_to(rid="event_repetition"))
        d.tap(text=repeat)
    d.tap(desc="Save")
    if d.has(desc="Save"):
        raise SolutionError("the event was not saved")


def click(d: Driver, index: int) -> None:
    d.act({"action_type": "click", "index": index})


def today_shown(d: Driver) -> dt.date:
    """Today, as the monthly view marks it (the selected day cell)."""
    for v in d.observe().walk():
        if v.rid.endswith(":id/day_monthly_holder") and v.selected:
            return dt.datetime.strptime(v.desc, "%d %B %Y").date()
    raise SolutionError("the monthly view marks no day as today")


def parse_clock(value: str) -> dt.time | None:
    """ "9:30 AM", "14:05": the time; None for "All-day" or "…"."""
    m = re.match(r"^(\d{1,2}):(\d{2})(?: ([AP]M))?$", value.strip())
    if not m:
        return None
    hour, minute = int(m.group(1)), int(m.group(2))
    if m.group(3):
        hour = hour % 12 + (12 if m.group(3) == "PM" else 0)
    return dt.time(hour, minute)


def day_events(d: Driver) -> list[tuple[int, str, dt.time | None]]:
    """The events of the open day view: (index of the row, title, start time)."""
    found: list[tuple[int, str, dt.time | None]] = []
    for i, v in enumerate(d.observe().walk()):
        if not v.rid.endswith(":id/event_item_holder") or v.bounds[3] <= v.bounds[1]:
            continue
        inner = list(v.walk())
        title = next((x.text for x in inner if x.rid.endswith(":id/event_item_title")), "")
        when = next((x.text for x in inner if x.rid.endswith(":id/event_item_time")), "")
        found.append((i, title, parse_clock(when.split(" - ")[0])))
    return found


def all_day_events(d: Driver) -> list[tuple[int, str, dt.time | None]]:
    """Every event of the open day view, scrolling down through it."""
    seen: dict[str, tuple[int, str, dt.time | None]] = {}
    last: list[str] = []
    for _ in range(10):
        rows = day_events(d)
        for r in rows:
            seen.setdefault(f"{r[1]}|{r[2]}", r)
        keys = [f"{r[1]}|{r[2]}" for r in rows]
        if keys == last:
            break
        last = keys
        d.scroll("down")
    return list(seen.values())


@reference("androidworld.simple_calendar_add_one_event")
def simple_calendar_add_one_event(d: Driver) -> None:
    slot = d.params["slot"]
    start = dt.datetime.fromisoformat(f"{slot['day']}T{int(slot['hour']):02d}:00")
    new_event(d, d.params["name"], d.params["about"], start, int(d.params["length"]["mins"]))
    d.done()


@reference("androidworld.simple_calendar_add_one_event_tomorrow")
def simple_calendar_add_one_event_tomorrow(d: Driver) -> None:
    tomorrow = today_shown(d) + dt.timedelta(days=1)
    start = dt.datetime.combine(tomorrow, dt.time(int(d.params["slot"]["hour"])))
    new_event(d, d.params["name"], d.params["about"], start, int(d.params["length"]["mins"]))
    d.done()


@reference("androidworld.simple_calendar_add_repeating_event")
def simple_calendar_add_repeating_event(d: Driver) -> None:
    slot = d.params["slot"]
    start = dt.datetime.fromisoformat(f"{slot['day']}T{int(slot['hour']):02d}:00")
    rule = str(d.params["rule"]).capitalize()
    minutes = int(d.params["length"]["mins"])
    new_event(d, d.params["name"], d.params["about"], start, minutes, repeat=rule)
    d.done()


WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def relative_day(said: str, today: dt.date) -> dt.date:
    """ "this Friday" (the coming one) or "Friday next week" (weeks start on Sunday); also
    "tomorrow", "the day after tomorrow", "in three days", "a week from today" and "a week from
    tomorrow"."""
    near = {
        "a week from tomorrow": 8,
        "a week from today": 7,
        "the day after tomorrow": 2,
        "tomorrow": 1,
    }
    for words, days in near.items():
        if words in said:
            return today + dt.timedelta(days=days)
    counted = re.search(r"\bin (\w+) days\b", said)
    if counted:
        numbers = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
        word = counted.group(1)
        days = int(word) if word.isdigit() else numbers.index(word) + 2
        return today + dt.timedelta(days=days)
    name = next((n for n in WEEKDAYS if n in said), None)
    if name is None:
        raise SolutionError(f"no weekday in {said!r}")
    wanted = WEEKDAYS.index(name)
    if "next week" in said:
        sunday = today - dt.timedelta(days=(today.weekday() + 1) % 7) + dt.timedelta(days=7)
        return sunday + dt.timedelta(days=(wanted + 1) % 7)
    return today + dt.timedelta(days=(wanted - today.weekday()) % 7)


def delete_open_event(d: Driver) -> None:
    """On the event screen: Delete, and confirm."""
    d.tap(desc="Delete")
    d.tap(text="YES")


@reference("androidworld.simple_calendar_delete_one_event")
def simple_calendar_delete_one_event(d: Driver) -> None:
    ev = d.params["ev"]
    start = dt.datetime.fromisoformat(ev["start"])
    open_day(d, start.date())
    for _ in range(6):
        hits = [i for i, title, at in day_events(d) if title == ev["title"] and at == start.time()]
        if hits:
            click(d, hits[0])
            break
        d.scroll("down")
    else:
        raise SolutionError(f"no {ev['title']} at {start}")
    delete_open_event(d)
    d.done()


@reference("androidworld.simple_calendar_delete_events_on_relative_day")
def simple_calendar_delete_events_on_relative_day(d: Driver) -> None:
    day = relative_day(str(d.params["target"]["said"]), today_shown(d))
    open_day(d, day)
    for _ in range(20):
        if not d.has(rid="event_item_holder"):
            break
        d.tap(rid="event_item_holder")
        delete_open_event(d)
    d.done()


@reference("androidworld.simple_calendar_event_on_date_at_time")
def simple_calendar_event_on_date_at_time(d: Driver) -> None:
    q = d.params["q"]
    at = dt.time.fromisoformat(str(q["at"]))
    open_day(d, dt.date.fromisoformat(str(q["day"])))
    titles = [title for _, title, start in all_day_events(d) if start == at]
    d.answer(", ".join(titles))


@reference("androidworld.simple_calendar_first_event_after_start_time")
def simple_calendar_first_event_after_start_time(d: Driver) -> None:
    q = d.params["q"]
    at = dt.time.fromisoformat(str(q["at"]))
    open_day(d, dt.date.fromisoformat(str(q["day"])))
    later = sorted((start, title) for _, title, start in all_day_events(d) if start and start > at)
    if not later:
        raise SolutionError(f"nothing after {at}")
    d.answer(later[0][1])


# ------------------------------------------------------------------ Tasks.org
def task_rows(d: Driver) -> list[tuple[int, str, str, bool]]:
    """Every task row of the list, scrolling down through it: (index when last seen, title,
    due chip, checked)."""
    found: dict[str, tuple[int, str, str, bool]] = {}
    last: list[str] = []
    for _ in range(15):
        shown = rows(d)
        for r in shown:
            found.setdefault(r[1], r)
        titles = [r[1] for r in shown]
        if titles == last:  # the end of the list
            break
        last = titles
        d.scroll("down")
    return list(found.values())


def chip_day(chip: str, today: dt.date | None = None) -> dt.date | None:
    """The day of a due chip: "Tue, May 19", "Tue, May 19, 9:00 AM", "Today", "Tomorrow"."""
    head = chip.split(", ")
    if today is not None:
        near = {"Today": 0, "Tomorrow": 1, "Yesterday": -1}
        if head[0] in near:
            return today + dt.timedelta(days=near[head[0]])
    if len(head) >= 2 and re.match(r"^[A-Z][a-z]{2}$", head[0]):
        year = today.year if today is not None else 2026
        try:
            return dt.datetime.strptime(f"{head[1]} {year}", "%b %d %Y").date()
        except ValueError:
            return None
    m = re.match(r"^([A-Z][a-z]{2} \d{1,2}), (\d{4})", chip)
    if m:
        return dt.datetime.strptime(f"{m.group(1)} {m.group(2)}", "%b %d %Y").date()
    return None


def to_top(d: Driver) -> None:
    last: list[str] = []
    for _ in range(15):
        titles = [r[1] for r in rows(d)]
        if titles == last:
            return
        last = titles
        d.scroll("up")


def open_task(d: Driver, title: str) -> None:
    """Open the task ``title`` from the task list."""
    if not d.has(text=title, rid="title"):
        to_top(d)
    click(d, d.scroll_to(text=title, rid="title", limit=15))


@reference("androidworld.tasks_high_priority_tasks_due_on_date")
def tasks_high_priority_tasks_due_on_date(d: Driver) -> None:
    day = dt.date.fromisoformat(str(d.params["q"]["on"]))
    d.open("Tasks")
    todo = [r[1] for r in task_rows(d) if not r[3] and chip_day(r[2]) == day]
    found = []
    for title in todo:
        open_task(d, title)
        if d.has(rid="priority_high", checked=True):
            found.append(title)
        d.back()
    d.answer(", ".join(found))


@reference("androidworld.tasks_completed_tasks_for_date")
def tasks_completed_tasks_for_date(d: Driver) -> None:
    day = dt.date.fromisoformat(str(d.params["q"]["on"]))
    d.open("Tasks")
    d.tap(desc="More options")
    if not d.has(text="Show completed", checked=True):
        d.tap(text="Show completed")
    if d.has(text="Show completed"):  # the menu is still open
        d.back()
    found = [r[1] for r in task_rows(d) if r[3] and chip_day(r[2]) == day]
    d.answer(", ".join(found))


@reference("androidworld.tasks_due_next_week")
def tasks_due_next_week(d: Driver) -> None:
    said = str(d.params["q"]["today"])  # "Wednesday, May 13"
    today = dt.datetime.strptime(f"{said.split(', ')[1]} 2026", "%B %d %Y").date()
    monday = today + dt.timedelta(days=7 - today.weekday())
    week = {monday + dt.timedelta(days=i) for i in range(7)}
    d.open("Tasks")
    due = [r for r in task_rows(d) if not r[3] and chip_day(r[2], today) in week]
    d.answer(str(len(due)))


@reference("androidworld.simple_calendar_add_one_event_relative_day")
def simple_calendar_add_one_event_relative_day(d: Driver) -> None:
    slot = d.params["slot"]
    day = relative_day(f"this {slot['weekday']}", today_shown(d))
    start = dt.datetime.combine(day, dt.time(int(slot["hour"])))
    new_event(d, d.params["name"], d.params["about"], start, int(d.params["length"]["mins"]))
    d.done()


@reference("androidworld.simple_calendar_events_in_time_range")
def simple_calendar_events_in_time_range(d: Driver) -> None:
    q = d.params["q"]
    low, high = (dt.time.fromisoformat(str(q[k])) for k in ("low", "high"))
    open_day(d, dt.date.fromisoformat(str(q["day"])))
    found = sorted((at, t) for _, t, at in all_day_events(d) if at and low <= at <= high)
    d.answer(", ".join(t for _, t in found))
