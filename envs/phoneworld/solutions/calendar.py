"""Reference solutions of the Simple Calendar Pro tasks."""

from __future__ import annotations

import datetime as dt

from tasklang.envs.phoneworld.solutions.base import Driver, SolutionError, reference

MONTHS: tuple[str, ...] = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


def click(d: Driver, index: int) -> None:
    d.act({"action_type": "click", "index": index})


def day_desc(day: dt.date) -> str:
    """How the date picker and the month grid describe a day: "03 June 2026"."""
    return f"{day.day:02d} {MONTHS[day.month - 1]} {day.year}"


def pick_date(d: Driver, which: str, day: dt.date) -> None:
    """On the event screen, set the start or end date with the date picker."""
    click(d, d.scroll_to(rid=f"event_{which}_date"))
    for _ in range(24):
        if d.has(desc=day_desc(day)):
            break
        shown = d.texts(pattern=r"^[A-Z][a-z]+ \d{4}$")
        ahead = True
        if shown:
            name, year = shown[0].split()
            ahead = (int(year), MONTHS.index(name) + 1) < (day.year, day.month)
        d.tap(desc="Next month" if ahead else "Previous month")
    d.tap(desc=day_desc(day))
    d.tap(text="OK")


def pick_time(d: Driver, which: str, hour: int, minute: int) -> None:
    """On the event screen, set the start or end time by typing it into the time picker."""
    click(d, d.scroll_to(rid=f"event_{which}_time"))
    d.tap(desc="Switch to text input mode for the time input.")
    twelve = d.has(rid="android:id/am_label")
    shown = (hour % 12) or 12 if twelve else hour
    d.type(f"{shown:02d}", rid="android:id/input_hour")
    d.type(f"{minute:02d}", rid="android:id/input_minute")
    if twelve:
        d.tap(rid="android:id/am_label" if hour < 12 else "android:id/pm_label")
    d.tap(text="OK")


def reminder_text(minutes: int) -> str:
    if minutes == 0:
        return "At start"
    if minutes % 60 == 0:
        hours = minutes // 60
        return f"{hours} hour{'' if hours == 1 else 's'} before"
    return f"{minutes} minute{'' if minutes == 1 else 's'} before"


def pick_reminder(d: Driver, slot: int, minutes: int) -> None:
    """Set reminder ``slot`` (1..3) from the choice list, or as a custom interval."""
    click(d, d.scroll_to(rid=f"event_reminder_{slot}"))
    label = reminder_text(minutes)
    if d.has(text=label):
        d.tap(text=label)
        return
    d.tap(text="Custom")
    if minutes % 60 == 0:
        d.type(str(minutes // 60), rid="dialog_custom_interval_value")
        d.tap(text="hours")
    else:
        d.type(str(minutes), rid="dialog_custom_interval_value")
    d.tap(text="OK")


def moment(value: str) -> dt.datetime:
    return dt.datetime.fromisoformat(value)


@reference("calendar.add_event_reminder")
def add_event_reminder(d: Driver) -> None:
    slot, minutes = d.params["slot"], int(d.params["remind"]["minutes"])
    start, end = moment(slot["start"]), moment(slot["end"])
    d.tap(desc="New Event")
    d.type(d.params["name"], rid="event_title")
    d.type(d.params["place"], rid="event_location")
    pick_date(d, "start", start.date())
    pick_time(d, "start", start.hour, start.minute)
    if end.date() != start.date():
        pick_date(d, "end", end.date())
    pick_time(d, "end", end.hour, end.minute)
    pick_reminder(d, 1, minutes)
    d.tap(desc="Save")
    if d.has(desc="Save"):
        raise SolutionError("the event was not saved")
    d.done()


def open_day(d: Driver, day: dt.date) -> None:
    """From the monthly view, move to the day's month and open the day."""
    for _ in range(24):
        if d.has(desc=day_desc(day), rid="day_monthly_holder"):
            break
        shown = d.texts(rid="top_value")
        name, _, year = (shown[0] if shown else "").partition(" ")
        month = (int(year or day.year), MONTHS.index(name) + 1 if name in MONTHS else 1)
        d.tap(desc="Next month" if month < (day.year, day.month) else "Previous month")
    d.tap(desc=day_desc(day), rid="day_monthly_holder")


@reference("calendar.clear_day")
def clear_day(d: Driver) -> None:
    open_day(d, dt.date.fromisoformat(d.params["target"]["day"]))
    for _ in range(20):
        if not d.has(rid="event_item_holder"):
            break
        d.tap(rid="event_item_holder")
        d.tap(desc="Delete")
        d.tap(text="YES")
    d.done()


@reference("calendar.event_location")
def event_location(d: Driver) -> None:
    title = d.params["ev"]["title"]
    d.tap(desc="Search")
    d.type(title, rid="search_src_text")
    d.tap(text=title, rid="event_item_title")
    places = d.texts(rid="event_location")
    if not places:
        raise SolutionError(f"{title} has no location")
    d.answer(places[0])


@reference("calendar.reschedule_event")
def reschedule_event(d: Driver) -> None:
    ev = d.params["ev"]
    days = int(d.params["shift"]["by"]) // 86400
    click(d, d.scroll_to(text=ev["title"], rid="event_item_title"))
    start = moment(ev["start"]) + dt.timedelta(days=days)
    pick_date(d, "start", start.date())
    d.tap(desc="Save")
    d.done()
