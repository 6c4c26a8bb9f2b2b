"""Simple Calendar Pro (``com.simplemobiletools.calendar.pro``), the Simple Mobile Tools calendar
AndroidWorld uses.

- Main screen (``activities.MainActivity``): the toolbar ("Calendar", Search, Change view, More
  options, and "Go to today" while another period is shown), and one of five views, as the
  ``view`` setting says: the monthly grid (``top_value`` names the month; each day cell lists its
  events and a tap opens that day), the daily view (the day's events), the weekly view (seven
  days and their events), the yearly view (twelve months; a tap opens the month) and the simple
  event list (upcoming events under day headings). Arrows beside ``top_value`` move a period
  back or forward. The "New Event" button (``calendar_fab``) opens the event screen.
- Search (the toolbar's search field, live as the user types): events whose title, location
  or description contain the query (two characters at least), under day headings.
- Event (``activities.EventActivity``): title, location, description, the All-day switch, start
  and end date and time (the system date and time pickers: a month grid with previous / next
  month and a year list; a clock face for hours then minutes, or text input), up to three
  reminders (a choice dialog with a "Custom" interval), repetition and event type. Save checks
  that the title is set and that the event does not end before it starts; moving the start
  moves the end with it. An existing event also has Delete (confirmed) and Duplicate.
- Settings (``activities.SettingsActivity``): customize colors, event types (add and rename),
  24-hour time, start of the week, delete all events (confirmed), the default reminder,
  vibration, snooze time, week numbers, the grid, the description / location swap and the
  font size.

Repeating events occur on every later day their rule (daily, weekly, monthly, yearly) names,
and an event lasting several days shows on each of them. The event screen keeps what is being
edited in its form (hidden fields prefixed ``_``) until Save.
"""

from __future__ import annotations

import calendar as cal
import datetime as dt
from typing import Any

from tasklang.envs.phoneworld import widgets as w
from tasklang.envs.phoneworld.app import Ctx, Dialog, Route, Screen
from tasklang.envs.phoneworld.apps.common import choice_dialog, image_button, radio, switch
from tasklang.envs.phoneworld.apps.simple_tools import (
    FONT_SIZES,
    THEMES,
    SimpleToolsApp,
    font_label,
    menu_dialog,
    section,
)
from tasklang.envs.phoneworld.widgets import View

PACKAGE = "com.simplemobiletools.calendar.pro"
ACTIVITIES = f"{PACKAGE}.activities"
REGULAR = "Regular event"
VIEWS = (
    ("day", "Daily view"),
    ("week", "Weekly view"),
    ("month", "Monthly view"),
    ("year", "Yearly view"),
    ("list", "Simple event list"),
)
REPEATS = (
    ("none", "No repetition"),
    ("daily", "Daily"),
    ("weekly", "Weekly"),
    ("monthly", "Monthly"),
    ("yearly", "Yearly"),
)
REMINDER_CHOICES = (0, 1, 5, 10, 30, 60)
SNOOZE_CHOICES = ((1, "1 minute"), (5, "5 minutes"), (10, "10 minutes"), (30, "30 minutes"))
UNITS = (("minutes", 1), ("hours", 60), ("days", 1440))
SETTING_DEFAULTS: dict[str, Any] = {
    "view": "month",
    "use_24h": False,
    "start_week_on_sunday": True,
    "vibrate": False,
    "default_reminder": 10,
    "show_week_numbers": False,
    "show_grid": False,
    "replace_description": False,
    "snooze_minutes": 10,
    "font_size": "medium",
    "theme": "dark",
}
CHECKBOXES = (
    ("use_24h", "Use 24-hour time format", "settings_use_24_hour_format"),
    ("start_week_on_sunday", "Start week on Sunday", "settings_sunday_first"),
)
EMPTY_LIST = (
    "Seems like you don't have any upcoming events.\n"
    "You can add some with the Plus button at the bottom."
)
LIST_DAYS = 180  # how far ahead the simple event list looks


# ------------------------------------------------------------------ dates and times
def to_dt(value: Any) -> dt.datetime:
    try:
        return dt.datetime.fromisoformat(str(value))
    except ValueError:
        return dt.datetime(1970, 1, 1)


def iso(value: dt.datetime) -> str:
    return value.isoformat(timespec="seconds")


def fmt_time(t: dt.datetime | dt.time, h24: bool) -> str:
    """As the app shows a time: "09:05" or "9:05 AM"."""
    if h24:
        return f"{t.hour:02d}:{t.minute:02d}"
    return f"{(t.hour % 12) or 12}:{t.minute:02d} {'AM' if t.hour < 12 else 'PM'}"


def fmt_date(d: dt.date, today: dt.date) -> str:
    """The event screen's and day view's date: "July 1 (Sat)", with the year when it is
    not this year's."""
    year = "" if d.year == today.year else f" {d.year}"
    return f"{d:%B} {d.day}{year} ({d:%a})"


def reminder_label(minutes: int) -> str:
    """ "At start", "10 minutes before", "1 hour before", "2 days before"."""
    if minutes < 0:
        return "No reminder"
    if minutes == 0:
        return "At start"
    parts = []
    for unit, size in (("day", 1440), ("hour", 60), ("minute", 1)):
        n, minutes = divmod(minutes, size)
        if n:
            parts.append(f"{n} {unit}{'' if n == 1 else 's'}")
    return " ".join(parts) + " before"


def as_int(value: Any, default: int = -1) -> int:
    try:
        return int(str(value).strip())
    except ValueError:
        return default


def add_months(d: dt.date, months: int) -> dt.date:
    total = d.year * 12 + d.month - 1 + months
    year, month = divmod(total, 12)
    return dt.date(year, month + 1, min(d.day, cal.monthrange(year, month + 1)[1]))


def occurrence(event: dict[str, Any], day: dt.date) -> dt.date | None:
    """The first day of the occurrence of ``event`` (or of one of its repetitions) that covers
    ``day``; None when none does."""
    first = to_dt(event.get("start")).date()
    span = max(0, (to_dt(event.get("end")).date() - first).days)
    repeat = event.get("repeat") or "none"
    for back in range(span + 1):
        start = day - dt.timedelta(days=back)
        if start < first:
            break
        if (
            start == first
            or repeat == "daily"
            or (repeat == "weekly" and (start - first).days % 7 == 0)
            or (repeat == "monthly" and start.day == first.day)
            or (repeat == "yearly" and (start.month, start.day) == (first.month, first.day))
        ):
            return start
    return None


def occurs_on(event: dict[str, Any], day: dt.date) -> bool:
    return occurrence(event, day) is not None


def next_start(first: dt.date, repeat: str, n: int) -> dt.date:
    """The first day of the ``n``-th repetition of an event that first starts on ``first``."""
    if repeat == "daily":
        return first + dt.timedelta(days=n)
    if repeat == "weekly":
        return first + dt.timedelta(days=7 * n)
    if repeat == "monthly":
        day = add_months(first.replace(day=1), n)
        last = cal.monthrange(day.year, day.month)[1]
        return day.replace(day=first.day) if first.day <= last else dt.date.min
    if first.month == 2 and first.day == 29 and not cal.isleap(first.year + n):
        return dt.date.min
    return first.replace(year=first.year + n)


def days_with_events(
    events: list[dict[str, Any]], low: dt.date, high: dt.date
) -> dict[dt.date, list[tuple[int, dict[str, Any]]]]:
    """The days from ``low`` to ``high`` (included) that events cover, each with its events
    (and their positions) in the order they are stored."""
    found: dict[dt.date, list[tuple[int, dict[str, Any]]]] = {}
    for i, event in enumerate(events):
        first = to_dt(event.get("start")).date()
        span = max(0, (to_dt(event.get("end")).date() - first).days)
        repeat = str(event.get("repeat") or "none")
        n = 0
        if repeat == "daily" and first < low:  # skip ahead to the window
            n = max(0, (low - first).days - span)
        elif repeat == "weekly" and first < low:
            n = max(0, ((low - first).days - span) // 7)
        while True:
            start = next_start(first, repeat, n) if n else first
            if start > high:
                break
            for k in range(span + 1 if start != dt.date.min else 0):
                day = start + dt.timedelta(days=k)
                if low <= day <= high and (not found.get(day) or found[day][-1][0] != i):
                    found.setdefault(day, []).append((i, event))
            if repeat == "none":
                break
            n += 1
    return found


def by_time(found: list[tuple[int, dict[str, Any]]]) -> list[tuple[int, dict[str, Any]]]:
    """All-day events first, then by the time they start."""
    return sorted(
        found, key=lambda p: (not p[1].get("all_day"), to_dt(p[1].get("start")).time(), p[0])
    )


def matches(event: dict[str, Any], query: str) -> bool:
    q = query.strip().casefold()
    fields = (event.get("title"), event.get("location"), event.get("description"))
    return any(q in str(f or "").casefold() for f in fields)


def text(value: str, name: str = "", **kw: Any) -> View:
    return View(w.TEXT, text=value, rid=f"{PACKAGE}:id/{name}" if name else "", **kw)


def row(*children: View, height: int = 0, **kw: Any) -> View:
    return View(w.LINEAR, horizontal=True, children=list(children), height=height, **kw)


# ------------------------------------------------------------------ the app
class Calendar(SimpleToolsApp):
    model = "calendar"
    package = PACKAGE
    label = "Calendar"
    activity = f"{ACTIVITIES}.MainActivity"
    defaults = SETTING_DEFAULTS

    # ------------------------------------------------------------ reading
    def h24(self, ctx: Ctx) -> bool:
        return bool(self.setting_of(ctx, "use_24h"))

    def events_on(self, ctx: Ctx, day: dt.date) -> list[tuple[int, dict[str, Any]]]:
        """The events on ``day`` with their positions, all-day ones first, then by time."""
        return by_time(days_with_events(ctx.records("events"), day, day).get(day, []))

    def event_types(self, ctx: Ctx) -> list[str]:
        titles = [str(t.get("title", "")) for t in ctx.records("event_types")]
        return [REGULAR, *(t for t in titles if t and t != REGULAR)]

    def anchor(self, route: Route, ctx: Ctx) -> dt.date:
        value = route.arg("date")
        return dt.date.fromisoformat(value) if value else ctx.now.date()

    def view_of(self, ctx: Ctx, route: Route) -> str:
        return str(route.arg("view") or self.setting_of(ctx, "view"))

    def week_start(self, ctx: Ctx, day: dt.date) -> dt.date:
        sunday = bool(self.setting_of(ctx, "start_week_on_sunday"))
        back = (day.weekday() + 1) % 7 if sunday else day.weekday()
        return day - dt.timedelta(days=back)

    # ------------------------------------------------------------ rows shared by the views
    def event_row(
        self,
        ctx: Ctx,
        index: int,
        event: dict[str, Any],
        day: dt.date,
        selection: tuple[int, ...] | None = None,
    ) -> View:
        """An event of a list on ``day``; ``selection``: the list takes long presses (an empty
        tuple) or is selecting (the positions of the selected events)."""
        start, end = to_dt(event.get("start")), to_dt(event.get("end"))
        first = occurrence(event, day)
        if first is not None:  # a repetition: the same times, on its own days
            shift = dt.datetime.combine(first, start.time()) - start
            start, end = start + shift, end + shift
        h24 = self.h24(ctx)
        if event.get("all_day"):
            when = "All-day"
        else:
            head = fmt_time(start, h24) if start.date() == day else "…"
            tail = fmt_time(end, h24) if end.date() == day else "…"
            when = head if start == end else f"{head} - {tail}"
        shown = "location" if self.setting_of(ctx, "replace_description") else "description"
        second = " ".join(str(event.get(shown) or "").split())
        kids = [
            View(w.IMAGE, rid=self.rid("event_item_color_bar"), weight=0.05),
            View(
                w.LINEAR,
                weight=0.95,
                children=[
                    text(str(event.get("title", "")), "event_item_title", height=80),
                    text(when, "event_item_time", height=60),
                    *([text(str(second), "event_item_description", height=60)] if second else []),
                ],
            ),
        ]
        item = self.list_item("event_item_holder", "edit_event", index, 0, kids, False)
        if selection is not None:
            item.long_clickable, item.on_long = True, "select"
            if selection:
                item.on_click, item.selected = "toggle_select", index in selection
        return item

    def day_heading(self, ctx: Ctx, day: dt.date) -> View:
        return text(fmt_date(day, ctx.now.date()), "event_section_title", height=110)

    def period_bar(self, label: str, unit: str) -> View:
        return row(
            image_button(f"Previous {unit}", "shift", -1, self.rid("top_left_arrow")),
            View(w.TEXT, text=label, rid=self.rid("top_value"), weight=0.7),
            image_button(f"Next {unit}", "shift", 1, self.rid("top_right_arrow")),
            height=140,
        )

    # ------------------------------------------------------------ main screen
    def screen_main(self, ctx: Ctx, route: Route) -> Screen:
        view = self.view_of(ctx, route)
        day = self.anchor(route, ctx)
        today = ctx.now.date()
        chosen: tuple[int, ...] = tuple(route.arg("selected") or ())
        header: list[View] = []
        list_rid = ""
        if view == "month":
            header, rows, showing_today = self.month_view(ctx, day)
            list_rid = self.rid("month_view_wrapper")
        elif view == "day":
            header = [self.period_bar(fmt_date(day, today), "day")]
            rows = [self.event_row(ctx, i, e, day, chosen) for i, e in self.events_on(ctx, day)]
            showing_today = day == today
            list_rid = self.rid("day_events")
        elif view == "week":
            header, rows, showing_today = self.week_view(ctx, day, chosen)
            list_rid = self.rid("week_events_holder")
        elif view == "year":
            header, rows, showing_today = self.year_view(ctx, day)
            list_rid = self.rid("year_calendar_holder")
        else:
            rows, showing_today = self.list_view(ctx, chosen), True
            list_rid = self.rid("calendar_events_list")
        if chosen:  # the selection's action mode
            return Screen(
                title=f"{len(chosen)} selected",
                up=True,
                actions=[image_button("Delete", "delete_selected", rid=self.rid("cab_delete"))],
                header=header,
                rows=rows,
                list_rid=list_rid,
            )
        actions = [image_button("Search", "search", rid=self.rid("search"))]
        if not showing_today:
            actions.append(image_button("Go to today", "today", rid=self.rid("go_to_today")))
        actions += [
            image_button("Change view", "change_view", rid=self.rid("change_view")),
            image_button("More options", "more"),
        ]
        fab = View(
            w.IMAGE_BUTTON,
            desc="New Event",
            rid=self.rid("calendar_fab"),
            clickable=True,
            focusable=True,
            on_click="new_event",
        )
        return Screen(
            title="Calendar",
            actions=actions,
            header=header,
            rows=rows,
            fab=fab,
            list_rid=list_rid,
        )

    def month_view(self, ctx: Ctx, day: dt.date) -> tuple[list[View], list[View], bool]:
        first = day.replace(day=1)
        today = ctx.now.date()
        label = f"{first:%B}" if first.year == today.year else f"{first:%B} {first.year}"
        start = self.week_start(ctx, first)
        names = [(start + dt.timedelta(days=i)).strftime("%a")[0] for i in range(7)]
        numbers = bool(self.setting_of(ctx, "show_week_numbers"))
        letters = [View(w.TEXT, text=n, rid=self.rid("week_letter")) for n in names]
        if numbers:
            letters.insert(0, View(w.TEXT, text="", weight=0.6))
        header = [self.period_bar(label, "month"), row(*letters, height=90)]
        found = days_with_events(ctx.records("events"), start, start + dt.timedelta(days=41))
        rows = []
        for week in range(6):
            cells: list[View] = []
            if numbers:
                monday = start + dt.timedelta(days=week * 7 + 1)
                cells.append(text(str(monday.isocalendar()[1]), "week_num", weight=0.6, height=230))
            for i in range(7):
                d = start + dt.timedelta(days=week * 7 + i)
                titles = [str(e.get("title", "")) for _, e in by_time(found.get(d, []))]
                shown = [
                    text(t, "day_monthly_event_id", height=45, enabled=d.month == first.month)
                    for t in titles[:3]
                ]
                if len(titles) > 3:
                    shown.append(text(f"+{len(titles) - 3}", "day_monthly_event_id", height=45))
                cells.append(
                    View(
                        w.LINEAR,
                        rid=self.rid("day_monthly_holder"),
                        desc=f"{d:%d %B %Y}",
                        clickable=True,
                        focusable=True,
                        selected=d == today,
                        on_click="open_day",
                        arg=d.isoformat(),
                        height=230,
                        children=[
                            text(
                                str(d.day),
                                "day_monthly_number_id",
                                height=70,
                                enabled=d.month == first.month,
                            ),
                            *shown,
                        ],
                    )
                )
            rows.append(row(*cells, height=230))
        showing = (first.year, first.month) == (today.year, today.month)
        return header, rows, showing

    def week_view(
        self, ctx: Ctx, day: dt.date, chosen: tuple[int, ...]
    ) -> tuple[list[View], list[View], bool]:
        start = self.week_start(ctx, day)
        end = start + dt.timedelta(days=6)
        if start.month == end.month:
            label = f"{start:%B} {start.day} - {end.day}"
        else:
            label = f"{start:%b} {start.day} - {end:%b} {end.day}"
        found = days_with_events(ctx.records("events"), start, end)
        rows: list[View] = []
        for i in range(7):
            d = start + dt.timedelta(days=i)
            rows.append(self.day_heading(ctx, d))
            rows += [self.event_row(ctx, j, e, d, chosen) for j, e in by_time(found.get(d, []))]
        today = ctx.now.date()
        return [self.period_bar(label, "week")], rows, start <= today <= end

    def year_view(self, ctx: Ctx, day: dt.date) -> tuple[list[View], list[View], bool]:
        year = day.year
        found = days_with_events(ctx.records("events"), dt.date(year, 1, 1), dt.date(year, 12, 31))
        rows = []
        for quarter in range(4):
            cells = []
            for m in range(quarter * 3 + 1, quarter * 3 + 4):
                first = dt.date(year, m, 1)
                days = cal.monthrange(year, m)[1]
                count = sum(len(found.get(first + dt.timedelta(days=n), [])) for n in range(days))
                cells.append(
                    View(
                        w.LINEAR,
                        rid=self.rid("year_month_holder"),
                        clickable=True,
                        focusable=True,
                        on_click="open_month",
                        arg=first.isoformat(),
                        children=[
                            text(f"{first:%B}", "month_label", height=90),
                            text(
                                f"{count} event{'' if count == 1 else 's'}" if count else "",
                                "month_events",
                                height=70,
                            ),
                        ],
                    )
                )
            rows.append(row(*cells, height=260))
        return [self.period_bar(str(year), "year")], rows, year == ctx.now.year

    def list_view(self, ctx: Ctx, chosen: tuple[int, ...]) -> list[View]:
        today = ctx.now.date()
        last = today + dt.timedelta(days=LIST_DAYS - 1)
        found = days_with_events(ctx.records("events"), today, last)
        rows: list[View] = []
        for d in sorted(found):
            rows.append(self.day_heading(ctx, d))
            rows += [self.event_row(ctx, i, e, d, chosen) for i, e in by_time(found[d])]
        if not rows:
            rows = [text(EMPTY_LIST, "calendar_empty_list_placeholder", height=260)]
        return rows

    # ------------------------------------------------------------ main screen handlers
    def on_shift(self, ctx: Ctx, arg: Any) -> None:
        route = ctx.route
        assert route is not None
        view = self.view_of(ctx, route)
        day = self.anchor(route, ctx)
        if view == "day":
            day += dt.timedelta(days=arg)
        elif view == "week":
            day += dt.timedelta(days=7 * arg)
        elif view == "year":
            day = dt.date(day.year + arg, 1, 1)
        else:
            day = add_months(day.replace(day=1), arg)
        ctx.replace("main", view=route.arg("view"), date=day.isoformat())

    def on_today(self, ctx: Ctx, arg: Any) -> None:
        assert ctx.route is not None
        ctx.replace("main", view=ctx.route.arg("view"))

    def on_open_day(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("main", view="day", date=arg)

    def on_open_month(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("main", view="month", date=arg)

    def on_select(self, ctx: Ctx, index: Any) -> None:
        """A long press on an event: the list starts selecting (back ends it)."""
        route = ctx.route
        assert route is not None
        if route.screen != "main" or route.arg("selected"):
            self.on_toggle_select(ctx, index)
            return
        view, date = self.view_of(ctx, route), route.arg("date")
        ctx.push("main", keep_scroll=True, view=view, date=date, selected=(index,))

    def on_toggle_select(self, ctx: Ctx, index: Any) -> None:
        route = ctx.route
        assert route is not None
        chosen = set(route.arg("selected") or ()) ^ {index}
        if not chosen:
            ctx.back()
            return
        ctx.replace(
            "main",
            keep_scroll=True,
            view=route.arg("view"),
            date=route.arg("date"),
            selected=tuple(sorted(chosen)),
        )

    def on_delete_selected(self, ctx: Ctx, arg: Any) -> None:
        ctx.dialog(
            Dialog(
                "",
                message="Are you sure you want to proceed with the deletion?",
                buttons=[("YES", "delete_selected_confirmed", None), ("NO", None, None)],
            )
        )

    def on_delete_selected_confirmed(self, ctx: Ctx, arg: Any) -> None:
        route = ctx.route
        assert route is not None
        events = ctx.records("events")
        gone = [events[i] for i in route.arg("selected") or () if 0 <= i < len(events)]
        for event in gone:
            ctx.delete("events", event)
        ctx.back()
        ctx.toast("Events deleted successfully" if len(gone) > 1 else "Event deleted")

    def on_change_view(self, ctx: Ctx, arg: Any) -> None:
        assert ctx.route is not None
        current = self.view_of(ctx, ctx.route)
        ctx.dialog(choice_dialog("", VIEWS, current, "set_view"))

    def on_set_view(self, ctx: Ctx, arg: Any) -> None:
        if self.setting_of(ctx, "view") != arg:
            ctx.set("view", arg)
        route = ctx.route
        if route is not None and route.screen == "main":
            ctx.replace("main", date=route.arg("date"))

    def on_more(self, ctx: Ctx, arg: Any) -> None:
        ctx.dialog(menu_dialog([("Settings", "settings", None), ("About", "about", None)]))

    def on_search(self, ctx: Ctx, arg: Any) -> None:
        route = ctx.push("search")
        Ctx(ctx.phone, self, route).focus("query")

    def on_new_event(self, ctx: Ctx, arg: Any) -> None:
        route = ctx.route
        day = ctx.now.date()
        if route is not None and route.screen == "main" and self.view_of(ctx, route) == "day":
            day = self.anchor(route, ctx)
        hour = (ctx.now + dt.timedelta(hours=1)).replace(minute=0, second=0, microsecond=0)
        start = dt.datetime.combine(day, hour.time())
        default = as_int(self.setting_of(ctx, "default_reminder"))
        self.open_editor(
            ctx,
            -1,
            {
                "title": "",
                "start": iso(start),
                "end": iso(start),
                "reminders": [default] if default >= 0 else [],
            },
        )

    def on_edit_event(self, ctx: Ctx, index: Any) -> None:
        events = ctx.records("events")
        if isinstance(index, int) and 0 <= index < len(events):
            ctx.hide_keyboard()
            self.open_editor(ctx, index, events[index])

    def open_editor(self, ctx: Ctx, index: int, event: dict[str, Any]) -> None:
        route = ctx.push("event", index=index)
        reminders = sorted({int(m) for m in event.get("reminders") or [] if int(m) >= 0})
        values = {
            "title": str(event.get("title") or ""),
            "location": str(event.get("location") or ""),
            "description": str(event.get("description") or ""),
            "_start": iso(to_dt(event.get("start"))),
            "_end": iso(to_dt(event.get("end"))),
            "_all_day": "1" if event.get("all_day") else "",
            "_repeat": str(event.get("repeat") or "none"),
            "_type": str(event.get("event_type") or REGULAR),
        }
        for slot in range(3):
            values[f"_rem{slot + 1}"] = str(reminders[slot]) if slot < len(reminders) else ""
        for name, value in values.items():
            ctx.set_form(name, value, route=route)

    # ------------------------------------------------------------ search
    def screen_search(self, ctx: Ctx, route: Route) -> Screen:
        query = ctx.form("query")
        field = View(
            w.TEXT,
            rid=self.rid("search_src_text"),
            edit="query",
            hint="Search…",
            on_enter="search_enter",
            weight=0.55,
        )
        actions = [image_button("Collapse", "collapse", rid=self.rid("search_collapse")), field]
        if query:
            actions.append(
                image_button("Clear query", "clear_query", rid=self.rid("search_close_btn"))
            )
        actions += [
            image_button("Change view", "change_view", rid=self.rid("change_view")),
            image_button("More options", "more"),
        ]
        rows: list[View] = []
        if len(query.strip()) >= 2:
            found = [(i, e) for i, e in enumerate(ctx.records("events")) if matches(e, query)]
            found.sort(key=lambda p: (to_dt(p[1].get("start")), p[0]))
            last: dt.date | None = None
            for i, e in found:
                d = to_dt(e.get("start")).date()
                if d != last:
                    rows.append(self.day_heading(ctx, d))
                    last = d
                rows.append(self.event_row(ctx, i, e, d))
        if not rows:
            rows.append(text("No items found.", "search_placeholder", height=130))
            if len(query.strip()) < 2:
                rows.append(
                    text(
                        "Type in at least 2 characters to start the search.",
                        "search_placeholder_2",
                        height=130,
                    )
                )
        return Screen(
            title=None,
            actions=actions,
            rows=rows,
            list_rid=self.rid("search_results_list"),
        )

    def on_collapse(self, ctx: Ctx, arg: Any) -> None:
        ctx.hide_keyboard()
        ctx.back()

    def on_clear_query(self, ctx: Ctx, arg: Any) -> None:
        ctx.set_form("query", "")
        ctx.focus("query")

    def on_search_enter(self, ctx: Ctx, arg: Any) -> None:
        ctx.hide_keyboard()

    # ------------------------------------------------------------ the event screen
    def screen_event(self, ctx: Ctx, route: Route) -> Screen:
        index = route.arg("index", -1)
        today = ctx.now.date()
        h24 = self.h24(ctx)
        start, end = to_dt(ctx.form("_start")), to_dt(ctx.form("_end"))
        all_day = bool(ctx.form("_all_day"))

        def field(name: str, hint: str) -> View:
            return View(w.TEXT, rid=self.rid(f"event_{name}"), edit=name, hint=hint, height=150)

        def pick(label: str, name: str, key: str, arg: Any, weight: float = 1.0) -> View:
            return text(
                label,
                name,
                clickable=True,
                focusable=True,
                on_click=key,
                arg=arg,
                height=140,
                weight=weight,
            )

        def when(which: str, moment: dt.datetime) -> View:
            kids = [pick(fmt_date(moment.date(), today), f"event_{which}_date", "pick_date", which)]
            if not all_day:
                kids.append(pick(fmt_time(moment, h24), f"event_{which}_time", "pick_time", which))
            return row(*kids, height=140)

        reminders = [as_int(ctx.form(f"_rem{n}")) for n in (1, 2, 3)]
        reminder_rows = [pick(reminder_label(reminders[0]), "event_reminder_1", "reminder", 1)]
        for n in (2, 3):
            if reminders[n - 2] < 0:
                break
            label = reminder_label(reminders[n - 1]) if reminders[n - 1] >= 0 else ""
            reminder_rows.append(
                pick(label or "Add another reminder", f"event_reminder_{n}", "reminder", n)
            )
        all_day_row = View(
            w.RELATIVE,
            rid=self.rid("event_all_day_holder"),
            clickable=True,
            focusable=True,
            on_click="toggle_all_day",
            height=140,
            horizontal=True,
            children=[
                text("All-day", weight=0.8),
                switch(all_day, "toggle_all_day", None, self.rid("event_all_day"), weight=0.2),
            ],
        )
        repeat = dict(REPEATS).get(ctx.form("_repeat") or "none", "No repetition")
        rows = [
            field("title", "Title"),
            field("location", "Location"),
            field("description", "Description"),
            all_day_row,
            when("start", start),
            when("end", end),
            *reminder_rows,
            pick(repeat, "event_repetition", "repetition", None),
            pick(ctx.form("_type") or REGULAR, "event_type", "event_type", None),
        ]
        actions = []
        if index >= 0:
            actions += [
                image_button("Duplicate event", "duplicate", rid=self.rid("duplicate")),
                image_button("Delete", "delete_event", rid=self.rid("delete")),
            ]
        actions.append(image_button("Save", "save_event", rid=self.rid("save")))
        return Screen(
            title="Edit Event" if index >= 0 else "New Event",
            up=True,
            actions=actions,
            rows=rows,
            activity=f"{ACTIVITIES}.EventActivity",
            list_rid=self.rid("event_scrollview"),
            list_cls=w.SCROLL,
        )

    def on_toggle_all_day(self, ctx: Ctx, arg: Any) -> None:
        ctx.hide_keyboard()
        ctx.set_form("_all_day", "" if ctx.form("_all_day") else "1")

    def on_save_event(self, ctx: Ctx, arg: Any) -> None:
        route = ctx.route
        assert route is not None
        ctx.hide_keyboard()
        title = ctx.form("title").strip()
        if not title:
            ctx.toast("Title cannot be empty")
            return
        start, end = to_dt(ctx.form("_start")), to_dt(ctx.form("_end"))
        all_day = bool(ctx.form("_all_day"))
        if all_day:
            start = dt.datetime.combine(start.date(), dt.time())
            end = dt.datetime.combine(end.date(), dt.time())
        if end < start:
            ctx.toast("The event cannot end earlier than it starts")
            return
        minutes = {as_int(ctx.form(f"_rem{n}")) for n in (1, 2, 3)}
        record: dict[str, Any] = {
            "title": title,
            "start": iso(start),
            "end": iso(end),
            "all_day": all_day,
            "location": ctx.form("location").strip(),
            "description": ctx.form("description").strip(),
            "reminders": sorted(m for m in minutes if m >= 0),
            "repeat": ctx.form("_repeat") or "none",
            "event_type": ctx.form("_type") or REGULAR,
        }
        index = route.arg("index", -1)
        events = ctx.records("events")
        if 0 <= index < len(events):
            old = events[index]
            if {**old, **record} != old:
                ctx.update("events", old, **record)
            ctx.toast("Event updated successfully")
        else:
            ctx.add("events", record)
            ctx.toast("Event added successfully")
        ctx.back()

    def on_delete_event(self, ctx: Ctx, arg: Any) -> None:
        ctx.dialog(
            Dialog(
                "",
                message="Are you sure you want to proceed with the deletion?",
                buttons=[("YES", "delete_confirmed", None), ("NO", None, None)],
            )
        )

    def on_delete_confirmed(self, ctx: Ctx, arg: Any) -> None:
        route = ctx.route
        assert route is not None
        index = route.arg("index", -1)
        events = ctx.records("events")
        if 0 <= index < len(events):
            ctx.delete("events", events[index])
            ctx.toast("Event deleted")
        ctx.back()

    def on_duplicate(self, ctx: Ctx, arg: Any) -> None:
        values = {
            "title": ctx.form("title"),
            "location": ctx.form("location"),
            "description": ctx.form("description"),
            "start": ctx.form("_start"),
            "end": ctx.form("_end"),
            "all_day": bool(ctx.form("_all_day")),
            "reminders": [m for n in (1, 2, 3) if (m := as_int(ctx.form(f"_rem{n}"))) >= 0],
            "repeat": ctx.form("_repeat"),
            "event_type": ctx.form("_type"),
        }
        ctx.hide_keyboard()
        self.open_editor(ctx, -1, values)

    # ------------------------------------------------------------ reminders, repetition, type
    def on_reminder(self, ctx: Ctx, slot: Any) -> None:
        ctx.hide_keyboard()
        current = as_int(ctx.form(f"_rem{slot}"))
        options: list[tuple[Any, str]] = [(-1, "No reminder")]
        options += [(m, reminder_label(m)) for m in REMINDER_CHOICES]
        if current >= 0 and current not in REMINDER_CHOICES:
            options.append((current, reminder_label(current)))
        options.append(("custom", "Custom"))
        ctx.dialog(choice_dialog("", options, current, "set_reminder", slot))

    def on_set_reminder(self, ctx: Ctx, arg: Any) -> None:
        slot, value = arg
        if value == "custom":
            ctx.set_form("_custom_value", "")
            ctx.set_form("_custom_unit", "minutes")
            self.custom_dialog(ctx, slot)
            return
        self.put_reminder(ctx, slot, int(value))

    def put_reminder(self, ctx: Ctx, slot: int, minutes: int) -> None:
        ctx.set_form(f"_rem{slot}", str(minutes) if minutes >= 0 else "")
        if minutes < 0:  # later reminders move up, as the screen hides a row after an unset one
            values = [ctx.form(f"_rem{n}") for n in (1, 2, 3)]
            kept = [v for v in values if v]
            for n in (1, 2, 3):
                ctx.set_form(f"_rem{n}", kept[n - 1] if n <= len(kept) else "")

    def custom_dialog(self, ctx: Ctx, slot: int) -> None:
        unit = ctx.form("_custom_unit") or "minutes"
        items = [
            View(
                w.TEXT,
                rid=self.rid("dialog_custom_interval_value"),
                edit="_custom_value",
                hint="0",
                height=150,
            ),
            *(
                radio(
                    name,
                    name == unit,
                    "custom_unit",
                    (slot, name),
                    self.rid(f"dialog_radio_{name}"),
                )
                for name, _ in UNITS
            ),
        ]
        ctx.dialog(
            Dialog(
                "",
                items=items,
                buttons=[("OK", "custom_ok", slot), ("CANCEL", None, None)],
            )
        )

    def on_custom_unit(self, ctx: Ctx, arg: Any) -> None:
        slot, unit = arg
        ctx.set_form("_custom_unit", unit)
        self.custom_dialog(ctx, slot)

    def on_custom_ok(self, ctx: Ctx, slot: Any) -> None:
        ctx.hide_keyboard()
        value = as_int(ctx.form("_custom_value"))
        if value < 0:
            ctx.toast("Invalid value")
            self.custom_dialog(ctx, slot)
            return
        size = dict(UNITS).get(ctx.form("_custom_unit") or "minutes", 1)
        self.put_reminder(ctx, slot, value * size)

    def on_repetition(self, ctx: Ctx, arg: Any) -> None:
        ctx.hide_keyboard()
        ctx.dialog(choice_dialog("", REPEATS, ctx.form("_repeat") or "none", "set_repeat"))

    def on_set_repeat(self, ctx: Ctx, arg: Any) -> None:
        ctx.set_form("_repeat", str(arg))

    def on_event_type(self, ctx: Ctx, arg: Any) -> None:
        ctx.hide_keyboard()
        types = [(t, t) for t in self.event_types(ctx)]
        ctx.dialog(choice_dialog("", types, ctx.form("_type") or REGULAR, "set_type"))

    def on_set_type(self, ctx: Ctx, arg: Any) -> None:
        ctx.set_form("_type", str(arg))

    # ------------------------------------------------------------ the date picker
    def on_pick_date(self, ctx: Ctx, which: Any) -> None:
        ctx.hide_keyboard()
        day = to_dt(ctx.form(f"_{which}")).date()
        ctx.set_form("_pick", str(which))
        ctx.set_form("_pick_date", day.isoformat())
        ctx.set_form("_pick_month", day.replace(day=1).isoformat())
        ctx.set_form("_pick_years", "")
        self.date_dialog(ctx)

    def date_dialog(self, ctx: Ctx) -> None:
        chosen = dt.date.fromisoformat(ctx.form("_pick_date"))
        month = dt.date.fromisoformat(ctx.form("_pick_month"))
        header = [
            text(
                str(chosen.year),
                clickable=True,
                focusable=True,
                on_click="pick_years",
                height=90,
            ),
            text(f"{chosen:%a}, {chosen:%b} {chosen.day}", height=120),
        ]
        header[0].rid = "android:id/date_picker_header_year"
        header[1].rid = "android:id/date_picker_header_date"
        items = list(header)
        if ctx.form("_pick_years"):
            for year in range(chosen.year - 5, chosen.year + 6):
                items.append(
                    View(
                        w.TEXT,
                        text=str(year),
                        rid="android:id/text1",
                        clickable=True,
                        focusable=True,
                        selected=year == chosen.year,
                        on_click="pick_year",
                        arg=year,
                        height=100,
                    )
                )
        else:
            items.append(
                row(
                    image_button("Previous month", "pick_month", -1, "android:id/prev"),
                    View(w.TEXT, text=f"{month:%B} {month.year}", weight=0.7),
                    image_button("Next month", "pick_month", 1, "android:id/next"),
                    height=120,
                )
            )
            sunday = bool(self.setting_of(ctx, "start_week_on_sunday"))
            lead = (month.weekday() + 1) % 7 if sunday else month.weekday()
            days = cal.monthrange(month.year, month.month)[1]
            cells: list[View] = [View(w.VIEW) for _ in range(lead)]
            for n in range(1, days + 1):
                d = month.replace(day=n)
                cells.append(
                    View(
                        w.VIEW,
                        text=str(n),
                        desc=f"{d:%d %B %Y}",
                        clickable=True,
                        focusable=True,
                        selected=d == chosen,
                        on_click="pick_day",
                        arg=d.isoformat(),
                    )
                )
            while len(cells) % 7:
                cells.append(View(w.VIEW))
            grid = [row(*cells[i : i + 7], height=100) for i in range(0, len(cells), 7)]
            items.append(View(w.VIEW, rid="android:id/month_view", children=grid))
        ctx.dialog(
            Dialog("", items=items, buttons=[("OK", "date_ok", None), ("CANCEL", None, None)])
        )

    def on_pick_years(self, ctx: Ctx, arg: Any) -> None:
        ctx.set_form("_pick_years", "1")
        self.date_dialog(ctx)

    def on_pick_year(self, ctx: Ctx, year: Any) -> None:
        chosen = dt.date.fromisoformat(ctx.form("_pick_date"))
        day = min(chosen.day, cal.monthrange(year, chosen.month)[1])
        chosen = dt.date(year, chosen.month, day)
        ctx.set_form("_pick_date", chosen.isoformat())
        ctx.set_form("_pick_month", chosen.replace(day=1).isoformat())
        ctx.set_form("_pick_years", "")
        self.date_dialog(ctx)

    def on_pick_month(self, ctx: Ctx, step: Any) -> None:
        month = dt.date.fromisoformat(ctx.form("_pick_month"))
        ctx.set_form("_pick_month", add_months(month, step).isoformat())
        self.date_dialog(ctx)

    def on_pick_day(self, ctx: Ctx, day: Any) -> None:
        ctx.set_form("_pick_date", str(day))
        self.date_dialog(ctx)

    def on_date_ok(self, ctx: Ctx, arg: Any) -> None:
        chosen = dt.date.fromisoformat(ctx.form("_pick_date"))
        which = ctx.form("_pick")
        old = to_dt(ctx.form(f"_{which}"))
        self.put_moment(ctx, which, dt.datetime.combine(chosen, old.time()))

    def put_moment(self, ctx: Ctx, which: str, moment: dt.datetime) -> None:
        """Set the start or the end; a new start moves the end with it."""
        start, end = to_dt(ctx.form("_start")), to_dt(ctx.form("_end"))
        if which == "start":
            ctx.set_form("_end", iso(moment + (end - start)))
        ctx.set_form(f"_{which}", iso(moment))

    # ------------------------------------------------------------ the time picker
    def on_pick_time(self, ctx: Ctx, which: Any) -> None:
        ctx.hide_keyboard()
        moment = to_dt(ctx.form(f"_{which}"))
        ctx.set_form("_pick", str(which))
        ctx.set_form("_pick_hour", str(moment.hour))
        ctx.set_form("_pick_minute", str(moment.minute))
        ctx.set_form("_pick_mode", "hour")
        self.time_dialog(ctx)

    def time_dialog(self, ctx: Ctx) -> None:
        hour, minute = as_int(ctx.form("_pick_hour"), 0), as_int(ctx.form("_pick_minute"), 0)
        mode = ctx.form("_pick_mode") or "hour"
        h24 = self.h24(ctx)
        shown = f"{hour:02d}" if h24 else str((hour % 12) or 12)

        def head(value: str, rid: str, part: str) -> View:
            return View(
                w.TEXT,
                text=value,
                rid=rid,
                clickable=mode != "text",
                focusable=mode != "text",
                selected=mode == part,
                on_click="time_mode" if mode != "text" else None,
                arg=part,
                weight=0.25,
            )

        top = [
            head(shown, "android:id/hours", "hour"),
            View(w.TEXT, text=":", rid="android:id/separator", weight=0.1),
            head(f"{minute:02d}", "android:id/minutes", "minute"),
        ]
        if not h24:
            top += [
                radio("AM", hour < 12, "time_ampm", "am", "android:id/am_label", weight=0.2),
                radio("PM", hour >= 12, "time_ampm", "pm", "android:id/pm_label", weight=0.2),
            ]
        items = [row(*top, height=200)]
        if mode == "text":
            items.append(
                row(
                    View(w.TEXT, rid="android:id/input_hour", edit="_in_hour", hint="hh"),
                    View(w.TEXT, text=":", weight=0.2),
                    View(w.TEXT, rid="android:id/input_minute", edit="_in_minute", hint="mm"),
                    height=150,
                )
            )
        else:
            if mode == "minute":
                values = list(range(0, 60, 5))
            elif h24:
                values = list(range(24))
            else:
                values = [12, *range(1, 12)]
            dial = [
                View(
                    w.VIEW,
                    text=f"{v:02d}" if mode == "minute" else str(v),
                    desc=str(v),
                    clickable=True,
                    focusable=True,
                    selected=v == (minute if mode == "minute" else (hour if h24 else int(shown))),
                    on_click="time_clock",
                    arg=v,
                )
                for v in values
            ]
            items.append(
                View(
                    w.VIEW,
                    rid="android:id/radial_picker",
                    children=[row(*dial[i : i + 6], height=110) for i in range(0, len(dial), 6)],
                )
            )
        toggle = (
            "Switch to clock mode for the time input."
            if mode == "text"
            else "Switch to text input mode for the time input."
        )
        items.append(
            row(image_button(toggle, "time_toggle", rid="android:id/toggle_mode"), height=120)
        )
        ctx.dialog(
            Dialog("", items=items, buttons=[("OK", "time_ok", None), ("CANCEL", None, None)])
        )

    def on_time_mode(self, ctx: Ctx, part: Any) -> None:
        ctx.set_form("_pick_mode", str(part))
        self.time_dialog(ctx)

    def on_time_ampm(self, ctx: Ctx, half: Any) -> None:
        hour = as_int(ctx.form("_pick_hour"), 0)
        ctx.set_form("_pick_hour", str(hour % 12 + (12 if half == "pm" else 0)))
        self.time_dialog(ctx)

    def on_time_clock(self, ctx: Ctx, value: Any) -> None:
        if (ctx.form("_pick_mode") or "hour") == "minute":
            ctx.set_form("_pick_minute", str(value))
        else:
            hour = as_int(ctx.form("_pick_hour"), 0)
            if not self.h24(ctx):
                value = value % 12 + (12 if hour >= 12 else 0)
            ctx.set_form("_pick_hour", str(value))
            ctx.set_form("_pick_mode", "minute")
        self.time_dialog(ctx)

    def on_time_toggle(self, ctx: Ctx, arg: Any) -> None:
        if ctx.form("_pick_mode") == "text":
            ctx.hide_keyboard()
            ctx.set_form("_pick_mode", "hour")
        else:
            hour = as_int(ctx.form("_pick_hour"), 0)
            shown = hour if self.h24(ctx) else (hour % 12) or 12
            ctx.set_form("_in_hour", f"{shown:02d}")
            ctx.set_form("_in_minute", f"{as_int(ctx.form('_pick_minute'), 0):02d}")
            ctx.set_form("_pick_mode", "text")
        self.time_dialog(ctx)

    def on_time_ok(self, ctx: Ctx, arg: Any) -> None:
        hour, minute = as_int(ctx.form("_pick_hour"), 0), as_int(ctx.form("_pick_minute"), 0)
        if ctx.form("_pick_mode") == "text":
            ctx.hide_keyboard()
            typed_h, typed_m = as_int(ctx.form("_in_hour")), as_int(ctx.form("_in_minute"))
            h24 = self.h24(ctx)
            valid_h = 0 <= typed_h <= 23 if h24 else 1 <= typed_h <= 12
            if not valid_h or not 0 <= typed_m <= 59:
                ctx.toast("Enter a valid time")
                self.time_dialog(ctx)
                return
            hour = typed_h if h24 else typed_h % 12 + (12 if hour >= 12 else 0)
            minute = typed_m
        which = ctx.form("_pick")
        old = to_dt(ctx.form(f"_{which}"))
        self.put_moment(ctx, which, old.replace(hour=hour, minute=minute, second=0))

    # ------------------------------------------------------------ settings
    def screen_settings(self, ctx: Ctx, route: Route) -> Screen:
        default = as_int(self.setting_of(ctx, "default_reminder"))
        snooze = as_int(self.setting_of(ctx, "snooze_minutes"), 10)
        rows = [
            section("COLOR CUSTOMIZATION", self.rid("settings_color_customization_label")),
            self.pref_row("Customize colors", "customize_colors", "settings_customize_colors"),
            section("GENERAL", self.rid("settings_general_settings_label")),
            self.pref_row("Manage event types", "event_types", "settings_manage_event_types"),
            *(self.checkbox_row(ctx, name, label, rid) for name, label, rid in CHECKBOXES),
            self.pref_row("Delete all events", "delete_all", "settings_delete_all_events"),
            section("EVENT REMINDERS", self.rid("settings_reminders_label")),
            self.pref_row(
                "Default reminder",
                "default_reminder",
                "settings_default_reminder",
                reminder_label(default),
            ),
            self.checkbox_row(
                ctx, "vibrate", "Vibrate on reminder notification", "settings_vibrate"
            ),
            self.pref_row(
                "Snooze time",
                "snooze",
                "settings_snooze_time",
                reminder_label(snooze).removesuffix(" before"),
            ),
            section("MONTHLY VIEW", self.rid("settings_monthly_view_label")),
            self.checkbox_row(
                ctx, "show_week_numbers", "Show week numbers", "settings_week_numbers"
            ),
            self.checkbox_row(ctx, "show_grid", "Show a grid", "settings_show_grid"),
            section("EVENT LISTS", self.rid("settings_event_lists_label")),
            self.checkbox_row(
                ctx,
                "replace_description",
                "Replace event description with location",
                "settings_replace_description",
            ),
            section("WIDGETS", self.rid("settings_widgets_label")),
            self.pref_row(
                "Font size",
                "font_size",
                "settings_font_size",
                font_label(self.setting_of(ctx, "font_size")),
            ),
        ]
        return Screen(
            title="Settings",
            up=True,
            rows=rows,
            activity=f"{ACTIVITIES}.SettingsActivity",
            list_rid=self.rid("settings_nested_scrollview"),
            list_cls=w.SCROLL,
        )

    def choose(self, ctx: Ctx, setting: str, options: Any) -> None:
        ctx.dialog(
            choice_dialog("", options, self.setting_of(ctx, setting), "set_setting", setting)
        )

    def on_set_setting(self, ctx: Ctx, arg: Any) -> None:
        name, value = arg
        if self.setting_of(ctx, name) != value:
            ctx.set(name, value)

    def on_font_size(self, ctx: Ctx, arg: Any) -> None:
        self.choose(ctx, "font_size", FONT_SIZES)

    def on_theme(self, ctx: Ctx, arg: Any) -> None:
        self.choose(ctx, "theme", THEMES)

    def on_default_reminder(self, ctx: Ctx, arg: Any) -> None:
        options = [(-1, "No reminder"), *((m, reminder_label(m)) for m in REMINDER_CHOICES)]
        self.choose(ctx, "default_reminder", options)

    def on_snooze(self, ctx: Ctx, arg: Any) -> None:
        self.choose(ctx, "snooze_minutes", SNOOZE_CHOICES)

    def on_delete_all(self, ctx: Ctx, arg: Any) -> None:
        ctx.dialog(
            Dialog(
                "",
                message=(
                    "Are you sure you want to delete all events? This will leave your event "
                    "types and other settings intact."
                ),
                buttons=[("YES", "delete_all_confirmed", None), ("NO", None, None)],
            )
        )

    def on_delete_all_confirmed(self, ctx: Ctx, arg: Any) -> None:
        for event in list(ctx.records("events")):
            ctx.delete("events", event)
        ctx.toast("Events deleted successfully")

    def screen_colors(self, ctx: Ctx, route: Route) -> Screen:
        return self.colors_screen(self.setting_of(ctx, "theme"), "theme")

    def screen_about(self, ctx: Ctx, route: Route) -> Screen:
        return self.about_screen("Simple Calendar Pro", "Version 6.22.1")

    # ------------------------------------------------------------ event types
    def screen_event_types(self, ctx: Ctx, route: Route) -> Screen:
        rows = []
        for title in self.event_types(ctx):
            editable = title != REGULAR
            rows.append(
                View(
                    w.RELATIVE,
                    rid=self.rid("event_item_frame"),
                    clickable=editable,
                    focusable=editable,
                    on_click="edit_type" if editable else None,
                    arg=title,
                    height=150,
                    horizontal=True,
                    children=[
                        text(title, "event_type_title", weight=0.85),
                        View(w.IMAGE, rid=self.rid("event_type_color"), weight=0.15),
                    ],
                )
            )
        return Screen(
            title="Event types",
            up=True,
            actions=[image_button("Add a new type", "add_type", rid=self.rid("add_event_type"))],
            rows=rows,
            activity=f"{ACTIVITIES}.ManageEventTypesActivity",
            list_rid=self.rid("manage_event_types_list"),
        )

    def on_event_types(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("event_types")

    def type_dialog(self, ctx: Ctx, old: str | None) -> None:
        items = [
            text("Title", height=80),
            View(w.TEXT, rid=self.rid("type_title"), edit="_type_title", hint="", height=150),
            text("Color", height=80),
        ]
        ctx.dialog(
            Dialog(
                "Edit type" if old else "Add a new type",
                items=items,
                buttons=[("OK", "type_ok", old), ("CANCEL", None, None)],
            )
        )

    def on_add_type(self, ctx: Ctx, arg: Any) -> None:
        ctx.set_form("_type_title", "")
        self.type_dialog(ctx, None)

    def on_edit_type(self, ctx: Ctx, title: Any) -> None:
        ctx.set_form("_type_title", str(title))
        self.type_dialog(ctx, str(title))

    def on_type_ok(self, ctx: Ctx, old: Any) -> None:
        ctx.hide_keyboard()
        title = ctx.form("_type_title").strip()
        if not title:
            ctx.toast("Title cannot be empty")
            self.type_dialog(ctx, old)
            return
        if title != old and title.casefold() in (t.casefold() for t in self.event_types(ctx)):
            ctx.toast("Event type with this title already exists")
            self.type_dialog(ctx, old)
            return
        if old is None:
            ctx.add("event_types", {"title": title, "color": "#FF9800"})
            return
        record = ctx.find("event_types", lambda t: t.get("title") == old)
        if record is None or title == old:
            return
        ctx.update("event_types", record, title=title)
        for event in list(ctx.records("events")):
            if event.get("event_type") == old:
                ctx.update("events", event, event_type=title)


APP = Calendar
