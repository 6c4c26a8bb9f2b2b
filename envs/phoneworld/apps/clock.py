"""Google Clock (``com.google.android.deskclock``, activity ``com.android.deskclock.DeskClock``).

Five bottom tabs (Alarm, Clock, Timer, Stopwatch, Bedtime), each its own screen; switching tabs
replaces the screen, so back from any tab leaves the app, as on the phone.

- Alarm: the alarms sorted by time, each a card with its time (a tap opens the time picker),
  an on/off ``Switch`` and the schedule; a tap on the card or its arrow expands it to show the
  label ("Add label"), the repeat days (``CheckBox`` es with content-desc "Monday".."Sunday",
  ordered by the "Start week on" setting), the alarm sound, "Vibrate" and "Delete". The FAB
  "Add alarm" opens the Material time picker: a dial (hour, then minutes in steps of 5) with a
  keyboard button that switches to text entry (hour and minute fields, AM/PM buttons, or 24-hour
  fields when the phone uses the 24-hour format), OK and Cancel.
- Clock: the time and date, the next alarm, and the world clocks; the FAB "Cities" opens the
  city picker (search field, a check box per city).
- Timer: with no timer, the keypad (``timer_setup_digit_N``, "00", "Delete") and the FAB
  "Start"; then a card per timer with its label, remaining time (``timer_time_text``), "+1:00"
  (running) or "Reset" (paused), a play/pause ``ImageButton`` ("Pause", "Start", or "Stop" once
  the time is up) and "Delete"; the FAB "Add timer" brings the keypad back.
- Stopwatch: the elapsed time, the FAB "Start"/"Pause", "Reset", "Lap" and the laps.
- Settings (overflow menu): style, home time zone, silence after, snooze length, volume buttons,
  start of the week, gradually increasing volume, timer vibrate.

Dialogs with a text field (the label dialog, the time picker) are screens of their own (a dump
of a dialog shows its own window), so what is typed shows in their fields.

Time only moves on ``wait``: timers keep the remaining time stored in their record (what the
device shows, and what the probe reads), and the stopwatch counts the phone's clock while it
runs (its start lives in the phone's scratch forms, outside the verifier's state).
"""

from __future__ import annotations

import datetime as dt
from functools import cache
from typing import Any
from zoneinfo import ZoneInfo

from tasklang.envs.phoneworld import widgets as w
from tasklang.envs.phoneworld.app import App, Ctx, Dialog, Route, Screen
from tasklang.envs.phoneworld.apps import common
from tasklang.envs.phoneworld.apps.common import checkbox, choice_dialog, menu_item, switch
from tasklang.envs.phoneworld.widgets import View

PACKAGE = "com.google.android.deskclock"
ACTIVITY = "com.android.deskclock.DeskClock"
SETTINGS_ACTIVITY = "com.android.deskclock.settings.SettingsActivity"
CITIES_ACTIVITY = "com.android.deskclock.worldclock.CitySelectionActivity"
RINGTONE_ACTIVITY = "com.android.deskclock.ringtone.RingtonePickerActivity"

DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
DAY_NAMES = dict(
    zip(
        DAYS,
        ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"),
        strict=True,
    )
)
DAY_SHORT = dict(zip(DAYS, ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"), strict=True))
DAY_LETTER = dict(zip(DAYS, "MTWTFSS", strict=True))
WEEK = {
    "sunday": ("sun", "mon", "tue", "wed", "thu", "fri", "sat"),
    "monday": DAYS,
    "saturday": ("sat", "sun", "mon", "tue", "wed", "thu", "fri"),
}

# (screen, label, resource id)
TABS = (
    ("alarms", "Alarm", "tab_menu_alarm"),
    ("clock", "Clock", "tab_menu_clock"),
    ("timers", "Timer", "tab_menu_timer"),
    ("stopwatch", "Stopwatch", "tab_menu_stopwatch"),
    ("bedtime", "Bedtime", "tab_menu_bedtime"),
)
MENU = ("Screen saver", "Settings", "Send feedback", "Help")

CITIES = (
    ("Amsterdam", "Europe/Amsterdam"),
    ("Anchorage", "America/Anchorage"),
    ("Athens", "Europe/Athens"),
    ("Auckland", "Pacific/Auckland"),
    ("Bangkok", "Asia/Bangkok"),
    ("Barcelona", "Europe/Madrid"),
    ("Beijing", "Asia/Shanghai"),
    ("Berlin", "Europe/Berlin"),
    ("Buenos Aires", "America/Argentina/Buenos_Aires"),
    ("Cairo", "Africa/Cairo"),
    ("Cape Town", "Africa/Johannesburg"),
    ("Chicago", "America/Chicago"),
    ("Denver", "America/Denver"),
    ("Dubai", "Asia/Dubai"),
    ("Dublin", "Europe/Dublin"),
    ("Hong Kong", "Asia/Hong_Kong"),
    ("Honolulu", "Pacific/Honolulu"),
    ("Istanbul", "Europe/Istanbul"),
    ("Jakarta", "Asia/Jakarta"),
    ("Jerusalem", "Asia/Jerusalem"),
    ("Johannesburg", "Africa/Johannesburg"),
    ("Kolkata", "Asia/Kolkata"),
    ("Lagos", "Africa/Lagos"),
    ("Lisbon", "Europe/Lisbon"),
    ("London", "Europe/London"),
    ("Los Angeles", "America/Los_Angeles"),
    ("Madrid", "Europe/Madrid"),
    ("Manila", "Asia/Manila"),
    ("Mexico City", "America/Mexico_City"),
    ("Miami", "America/New_York"),
    ("Moscow", "Europe/Moscow"),
    ("Mumbai", "Asia/Kolkata"),
    ("Nairobi", "Africa/Nairobi"),
    ("New Delhi", "Asia/Kolkata"),
    ("New York", "America/New_York"),
    ("Oslo", "Europe/Oslo"),
    ("Paris", "Europe/Paris"),
    ("Prague", "Europe/Prague"),
    ("Reykjavik", "Atlantic/Reykjavik"),
    ("Rio de Janeiro", "America/Sao_Paulo"),
    ("Rome", "Europe/Rome"),
    ("San Francisco", "America/Los_Angeles"),
    ("Santiago", "America/Santiago"),
    ("Sao Paulo", "America/Sao_Paulo"),
    ("Seattle", "America/Los_Angeles"),
    ("Seoul", "Asia/Seoul"),
    ("Shanghai", "Asia/Shanghai"),
    ("Singapore", "Asia/Singapore"),
    ("Stockholm", "Europe/Stockholm"),
    ("Sydney", "Australia/Sydney"),
    ("Taipei", "Asia/Taipei"),
    ("Tokyo", "Asia/Tokyo"),
    ("Toronto", "America/Toronto"),
    ("Vancouver", "America/Vancouver"),
    ("Vienna", "Europe/Vienna"),
    ("Warsaw", "Europe/Warsaw"),
    ("Zurich", "Europe/Zurich"),
)
CITY_ZONES = dict(CITIES)
HOME_ZONES = (
    "Pacific/Honolulu",
    "America/Los_Angeles",
    "America/Denver",
    "America/Chicago",
    "America/New_York",
    "America/Sao_Paulo",
    "Europe/London",
    "Europe/Berlin",
    "Europe/Athens",
    "Asia/Dubai",
    "Asia/Kolkata",
    "Asia/Shanghai",
    "Asia/Tokyo",
    "Australia/Sydney",
)

DEFAULT_RINGTONE = "Default (Cesium)"
RINGTONES = (
    "Silent",
    DEFAULT_RINGTONE,
    "Argon",
    "Barium",
    "Bright Morning",
    "Carbon",
    "Cesium",
    "Fermium",
    "Gallium",
    "Helium",
    "Krypton",
    "Neon",
    "Neptunium",
    "Nobelium",
    "Osmium",
    "Oxygen",
    "Platinum",
    "Plutonium",
    "Promethium",
    "Scandium",
    "Timer",
)

STYLES = (("analog", "Analog"), ("digital", "Digital"))
MINUTE_CHOICES = (1, 5, 10, 15, 20, 25)
SNOOZE_CHOICES = (1, 2, 3, 4, 5, 10, 15, 20, 25, 30)
VOLUME_BUTTONS = (
    ("snooze", "Snooze"),
    ("dismiss", "Dismiss"),
    ("control_volume", "Control volume"),
)
WEEK_STARTS = (("saturday", "Saturday"), ("sunday", "Sunday"), ("monday", "Monday"))

TO_TEXT_MODE = "Switch to text input mode for the time input."
TO_CLOCK_MODE = "Switch to clock mode for the time input."

# The phone's forms hold text typed per screen; route id 0 is never a screen, so its forms are
# this app's scratch space (the stopwatch's start), copied and restored with the phone.
SCRATCH = Route("clock:scratch", (), 0)


def rid(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


# ---------------------------------------------------------------------------- formatting
def parse_time(value: Any) -> tuple[int, int]:
    """Hour and minute of a stored time ("07:30:00")."""
    try:
        parts = str(value).split(":")
        return int(parts[0]) % 24, int(parts[1]) % 60
    except (ValueError, IndexError):
        return 0, 0


def fmt_clock(hour: int, minute: int, h24: bool) -> str:
    """A time of day as Android shows it: "08:30" (24-hour) or "8:30 AM"."""
    if h24:
        return f"{hour:02d}:{minute:02d}"
    return f"{(hour % 12) or 12}:{minute:02d} {'AM' if hour < 12 else 'PM'}"


def fmt_timer(seconds: int) -> str:
    """A timer's time: "4:05", "14:00", "1:05:00"."""
    sign = "-" if seconds < 0 else ""
    seconds = abs(seconds)
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{sign}{h}:{m:02d}:{s:02d}" if h else f"{sign}{m}:{s:02d}"


def fmt_lap(seconds: int) -> str:
    return f"{fmt_timer(seconds)}.00"


def plural(n: int, unit: str) -> str:
    return f"{n} {unit}" if n == 1 else f"{n} {unit}s"


def duration_words(seconds: int) -> str:
    minutes = seconds // 60
    if minutes and minutes % 60 == 0:
        return plural(minutes // 60, "hour")
    return plural(minutes, "minute")


def next_ring(now: dt.datetime, hour: int, minute: int, repeat: list[str]) -> dt.datetime:
    """When an alarm next rings (the next repeat day, or the next time of day)."""
    today = now.replace(hour=hour, minute=minute, second=0, microsecond=0)
    for days in range(8):
        at = today + dt.timedelta(days=days)
        if at <= now:
            continue
        if not repeat or DAYS[at.weekday()] in repeat:
            return at
    return today + dt.timedelta(days=7)


def alarm_set_text(delta: dt.timedelta) -> str:
    """The snackbar after an alarm is turned on ("Alarm set for 9 hours and 5 minutes from
    now.")."""
    minutes = int(delta.total_seconds()) // 60
    if minutes < 1:
        return "Alarm set for less than 1 minute from now."
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    parts = [plural(n, unit) for n, unit in ((days, "day"), (hours, "hour"), (mins, "minute")) if n]
    text = f"{parts[0]}, {parts[1]}, and {parts[2]}" if len(parts) == 3 else " and ".join(parts)
    return f"Alarm set for {text} from now."


def schedule_text(alarm: dict[str, Any], now: dt.datetime, week: tuple[str, ...]) -> str:
    repeat = [d for d in week if d in (alarm.get("repeat") or [])]
    if len(repeat) == 7:
        return "Every day"
    if repeat:
        return ", ".join(DAY_SHORT[d] for d in repeat)
    if not alarm.get("enabled"):
        return "Not scheduled"
    hour, minute = parse_time(alarm.get("time"))
    return "Today" if next_ring(now, hour, minute, []).date() == now.date() else "Tomorrow"


@cache
def zone(name: str) -> dt.tzinfo:
    try:
        return ZoneInfo(name)
    except (ValueError, KeyError, OSError):
        return dt.UTC


def gmt_label(name: str, at: dt.datetime) -> str:
    offset = at.replace(tzinfo=dt.UTC).astimezone(zone(name)).utcoffset() or dt.timedelta()
    minutes = int(offset.total_seconds()) // 60
    sign = "+" if minutes >= 0 else "-"
    h, m = divmod(abs(minutes), 60)
    city = next((c for c, z in CITIES if z == name), name.rsplit("/", 1)[-1].replace("_", " "))
    return f"(GMT{sign}{h}:{m:02d}) {city}"


def digits_of(text: str) -> str:
    return "".join(c for c in text if c.isdigit())


def as_int(text: Any, default: int = -1) -> int:
    try:
        return int(text)
    except (TypeError, ValueError):
        return default


# ---------------------------------------------------------------------------- views
def button(text: str, name: str, key: str | None, arg: Any = None, **kw: Any) -> View:
    name = rid(name) if ":" not in name else name
    return common.button(text, key, arg, name, height=kw.pop("height", 140), **kw)


def image_button(desc: str, name: str, key: str | None, arg: Any = None, **kw: Any) -> View:
    return View(
        w.IMAGE_BUTTON,
        desc=desc,
        rid=rid(name),
        clickable=True,
        focusable=True,
        on_click=key,
        arg=arg,
        height=kw.pop("height", 140),
        **kw,
    )


def text(value: str, name: str = "", **kw: Any) -> View:
    return View(
        w.TEXT,
        text=value,
        rid=(rid(name) if name and ":" not in name else name),
        height=kw.pop("height", 110),
        **kw,
    )


def row(*children: View, height: int = 0, **kw: Any) -> View:
    return View(w.LINEAR, horizontal=True, children=list(children), height=height, **kw)


def column(*children: View, **kw: Any) -> View:
    return View(w.LINEAR, children=list(children), **kw)


def pref(title: str, summary: str | None, key: str, arg: Any, on: bool | None = None) -> View:
    """A settings row: title, summary, and a switch when it is one."""
    body = [View(w.TEXT, text=title, rid="android:id/title", height=80)]
    if summary is not None:
        body.append(View(w.TEXT, text=summary, rid="android:id/summary", height=70))
    kids = [View(w.RELATIVE, children=body)]
    if on is not None:
        kids.append(switch(on, key, arg, clickable=True, weight=0.25))
    return View(
        w.LINEAR,
        horizontal=True,
        clickable=True,
        focusable=True,
        on_click=key,
        arg=arg,
        children=kids,
        height=190,
    )


def category(title: str) -> View:
    return View(w.TEXT, text=title, rid="android:id/title", height=110)


def uses_24h(ctx: Ctx) -> bool:
    """The phone's time format (the Settings app's "Use 24-hour format")."""
    data = ctx.phone.state.get("settings")
    return bool(data.settings.get("time_format_24h")) if data is not None else False


def week_order(ctx: Ctx) -> tuple[str, ...]:
    return WEEK.get(str(ctx.setting("week_start") or "sunday"), WEEK["sunday"])


def close_dialog(ctx: Ctx) -> None:
    ctx.phone.dialog = None


def top_route(ctx: Ctx) -> Route | None:
    stack = ctx.phone.stacks.get(ctx.app.model, [])
    return stack[-1] if stack else None


class Clock(App):
    model = "clock"
    package = PACKAGE
    label = "Clock"
    activity = ACTIVITY
    home = "alarms"

    # ------------------------------------------------------------------ shared parts
    def tabs(self, current: str) -> list[View]:
        return [
            View(
                w.FRAME,
                desc=label,
                rid=rid(name),
                clickable=True,
                focusable=True,
                selected=screen == current,
                on_click="tab",
                arg=screen,
                children=[
                    View(w.IMAGE, rid=rid("navigation_bar_item_icon_view"), height=90),
                    View(
                        w.TEXT,
                        text=label,
                        rid=rid(
                            "navigation_bar_item_large_label_view"
                            if screen == current
                            else "navigation_bar_item_small_label_view"
                        ),
                        height=60,
                    ),
                ],
            )
            for screen, label, name in TABS
        ]

    def tab_screen(
        self, current: str, rows: list[View], fab: View | None = None, **kw: Any
    ) -> Screen:
        title = next(label for screen, label, _ in TABS if screen == current)
        more = image_button("More options", "more_options", "menu", weight=0.15)
        return Screen(title, rows, actions=[more], fab=fab, tabs=self.tabs(current), **kw)

    def on_tab(self, ctx: Ctx, arg: Any) -> None:
        if ctx.route is not None and ctx.route.screen != arg and arg in {t[0] for t in TABS}:
            ctx.replace(str(arg))

    def on_menu(self, ctx: Ctx, arg: Any) -> None:
        items = [menu_item(label, "menu_pick", label, height=140) for label in MENU]
        ctx.dialog(Dialog("", items=items))

    def on_menu_pick(self, ctx: Ctx, arg: Any) -> None:
        close_dialog(ctx)
        if arg == "Settings":
            ctx.push("settings")

    # ------------------------------------------------------------------ Alarm tab
    def screen_alarms(self, ctx: Ctx, route: Route) -> Screen:
        alarms = ctx.records("alarms")
        h24 = uses_24h(ctx)
        week = week_order(ctx)
        expanded = as_int(ctx.form("expanded"))
        order = sorted(range(len(alarms)), key=lambda i: (str(alarms[i].get("time")), i))
        rows = [self.alarm_card(ctx, i, alarms[i], i == expanded, h24, week) for i in order]
        if not rows:
            rows = [text("No alarms", "alarms_empty_view", height=300)]
        fab = image_button("Add alarm", "fab", "add_alarm")
        return self.tab_screen("alarms", rows, fab, list_rid=rid("alarm_recycler_view"))

    def alarm_card(
        self,
        ctx: Ctx,
        i: int,
        alarm: dict[str, Any],
        expanded: bool,
        h24: bool,
        week: tuple[str, ...],
    ) -> View:
        hour, minute = parse_time(alarm.get("time"))
        shown = fmt_clock(hour, minute, h24)
        label = str(alarm.get("label") or "")
        clock = View(
            w.TEXT,
            text=shown,
            rid=rid("digital_clock"),
            desc=shown,
            clickable=True,
            focusable=True,
            on_click="edit_time",
            arg=i,
            height=170,
        )
        onoff = switch(
            bool(alarm.get("enabled")), "toggle_alarm", i, rid("onoff"), clickable=True, weight=0.3
        )
        arrow = image_button(
            "Collapse alarm" if expanded else "Expand alarm",
            "arrow",
            "expand_alarm",
            i,
            weight=0.2,
            height=110,
        )
        schedule = text(
            schedule_text(alarm, ctx.now, week),
            "upcoming_instance_label" if not alarm.get("repeat") else "days_of_week",
            height=110,
        )
        if not expanded:
            kids = [text(label, "label", height=80)] if label else []
            kids += [row(clock, onoff), row(schedule, arrow)]
            return View(
                w.VIEWGROUP,
                clickable=True,
                focusable=True,
                on_click="expand_alarm",
                arg=i,
                children=kids,
            )
        repeat = alarm.get("repeat") or []
        days = [
            checkbox(
                DAY_LETTER[d],
                d in repeat,
                "toggle_day",
                (i, d),
                rid(f"day_button_{k}"),
                0,
                desc=DAY_NAMES[d],
            )
            for k, d in enumerate(week)
        ]
        kids = [
            row(
                text(
                    label or "Add label",
                    "edit_label",
                    clickable=True,
                    focusable=True,
                    on_click="edit_label",
                    arg=i,
                ),
                arrow,
            ),
            row(clock, onoff),
            schedule,
            row(*days, rid=rid("repeat_days"), height=140),
            text(
                str(alarm.get("ringtone") or DEFAULT_RINGTONE),
                "choose_ringtone",
                clickable=True,
                focusable=True,
                on_click="ringtone",
                arg=i,
            ),
            checkbox(
                "Vibrate",
                bool(alarm.get("vibrate")),
                "toggle_vibrate",
                i,
                rid("vibrate_onoff"),
                120,
            ),
            button("Delete", "delete", "delete_alarm", i, height=120),
        ]
        return View(w.VIEWGROUP, children=kids)

    def alarm(self, ctx: Ctx, arg: Any) -> dict[str, Any] | None:
        alarms = ctx.records("alarms")
        return alarms[arg] if isinstance(arg, int) and 0 <= arg < len(alarms) else None

    def announce(self, ctx: Ctx, alarm: dict[str, Any]) -> None:
        hour, minute = parse_time(alarm.get("time"))
        at = next_ring(ctx.now, hour, minute, list(alarm.get("repeat") or []))
        ctx.toast(alarm_set_text(at - ctx.now))

    def on_add_alarm(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("picker", alarm=-1)

    def on_edit_time(self, ctx: Ctx, arg: Any) -> None:
        if self.alarm(ctx, arg) is not None:
            ctx.push("picker", alarm=arg)

    def on_toggle_alarm(self, ctx: Ctx, arg: Any) -> None:
        alarm = self.alarm(ctx, arg)
        if alarm is None:
            return
        new = ctx.update("alarms", alarm, enabled=not alarm.get("enabled"))
        if new["enabled"]:
            self.announce(ctx, new)

    def on_expand_alarm(self, ctx: Ctx, arg: Any) -> None:
        if self.alarm(ctx, arg) is None:
            return
        ctx.set_form("expanded", "" if as_int(ctx.form("expanded")) == arg else str(arg))

    def on_toggle_day(self, ctx: Ctx, arg: Any) -> None:
        i, day = arg
        alarm = self.alarm(ctx, i)
        if alarm is None:
            return
        repeat = set(alarm.get("repeat") or [])
        repeat ^= {day}
        ctx.update("alarms", alarm, repeat=[d for d in DAYS if d in repeat])

    def on_toggle_vibrate(self, ctx: Ctx, arg: Any) -> None:
        alarm = self.alarm(ctx, arg)
        if alarm is not None:
            ctx.update("alarms", alarm, vibrate=not alarm.get("vibrate"))

    def on_delete_alarm(self, ctx: Ctx, arg: Any) -> None:
        alarm = self.alarm(ctx, arg)
        if alarm is None:
            return
        ctx.delete("alarms", alarm)
        ctx.set_form("expanded", "")
        ctx.toast("Alarm deleted")

    def on_edit_label(self, ctx: Ctx, arg: Any) -> None:
        if self.alarm(ctx, arg) is not None:
            ctx.push("label", kind="alarms", index=arg)

    def on_ringtone(self, ctx: Ctx, arg: Any) -> None:
        if self.alarm(ctx, arg) is not None:
            ctx.push("ringtone", alarm=arg)

    # ------------------------------------------------------------------ the time picker
    def picker_start(self, ctx: Ctx, route: Route) -> tuple[int, int]:
        alarm = self.alarm(ctx, route.arg("alarm"))
        if alarm is not None:
            return parse_time(alarm.get("time"))
        return ctx.now.hour, ctx.now.minute

    def picker_values(self, ctx: Ctx, route: Route) -> tuple[str, str, str]:
        """The hour and minute texts and the period (AM/PM, "" in 24-hour format)."""
        hour, minute = self.picker_start(ctx, route)
        h24 = uses_24h(ctx)
        start_hour = f"{hour:02d}" if h24 else str((hour % 12) or 12)
        period = "" if h24 else ctx.form("period", "AM" if hour < 12 else "PM")
        return ctx.form("hour", start_hour), ctx.form("minute", f"{minute:02d}"), period

    def screen_picker(self, ctx: Ctx, route: Route) -> Screen:
        h24 = uses_24h(ctx)
        hour, minute, period = self.picker_values(ctx, route)
        text_mode = ctx.form("mode") == "text"
        parts: list[View] = [
            text("Enter time" if text_mode else "Select time", "header_title", height=120)
        ]
        toggle: list[View] = []
        if not h24:
            toggle = [
                View(
                    w.LINEAR,
                    rid=rid("material_clock_period_toggle"),
                    weight=0.6,
                    children=[
                        button(
                            p,
                            f"material_clock_period_{p.lower()}_button",
                            "period",
                            p,
                            checkable=True,
                            checked=period == p,
                            height=110,
                        )
                        for p in ("AM", "PM")
                    ],
                )
            ]
        if text_mode:

            def field(name: str, value: str, label: str) -> View:
                return View(
                    w.LINEAR,
                    rid=rid(f"material_{name}_text_input"),
                    children=[
                        View(
                            w.EDIT,
                            text=value,
                            edit=name,
                            on_enter="picker_ok",
                            height=170,
                        ),
                        text(label, "material_label", height=60),
                    ],
                )

            colon = text(":", weight=0.2, height=170)
            parts.append(
                row(
                    field("hour", hour, "Hour"),
                    colon,
                    field("minute", minute, "Minute"),
                    *toggle,
                    rid=rid("material_textinput_timepicker"),
                )
            )
        else:
            dial = ctx.form("dial", "hour")
            chips = [
                button(
                    hour,
                    "material_hour_tv",
                    "dial_select",
                    "hour",
                    checkable=True,
                    checked=dial == "hour",
                    height=220,
                ),
                text(":", weight=0.2, height=220),
                button(
                    minute,
                    "material_minute_tv",
                    "dial_select",
                    "minute",
                    checkable=True,
                    checked=dial == "minute",
                    height=220,
                ),
            ]
            parts.append(row(*chips, *toggle, rid=rid("material_clock_display")))
            parts.append(self.clock_face(dial, hour, minute, h24))
        parts.append(
            row(
                image_button(
                    TO_CLOCK_MODE if text_mode else TO_TEXT_MODE,
                    "material_timepicker_mode_button",
                    "picker_mode",
                    weight=0.4,
                ),
                View(w.VIEW, weight=0.6),
                button("Cancel", "material_timepicker_cancel_button", "picker_cancel"),
                button("OK", "material_timepicker_ok_button", "picker_ok"),
                height=150,
            )
        )
        panel = View(w.FRAME, rid=rid("material_timepicker_container"), children=parts)
        return Screen(None, header=[panel])

    def clock_face(self, dial: str, hour: str, minute: str, h24: bool) -> View:
        if dial == "minute":
            values = [
                (f"{m:02d}" if m == 0 else str(m), f"{m} minutes", m) for m in range(0, 60, 5)
            ]
            current = as_int(minute)
        else:
            hours = list(range(24)) if h24 else [12, *range(1, 12)]
            values = [("00" if h24 and h == 0 else str(h), f"{h} o'clock", h) for h in hours]
            current = as_int(hour)
        numbers = [
            View(
                w.TEXT,
                text=shown,
                desc=desc,
                clickable=True,
                focusable=True,
                selected=value == current,
                on_click="dial_pick",
                arg=value,
                height=130,
            )
            for shown, desc, value in values
        ]
        rows = [row(*numbers[k : k + 4], height=130) for k in range(0, len(numbers), 4)]
        return View(w.VIEWGROUP, rid=rid("material_clock_face"), children=rows)

    def on_picker_mode(self, ctx: Ctx, arg: Any) -> None:
        ctx.set_form("mode", "" if ctx.form("mode") == "text" else "text")
        ctx.hide_keyboard()

    def on_dial_select(self, ctx: Ctx, arg: Any) -> None:
        ctx.set_form("dial", str(arg))

    def on_dial_pick(self, ctx: Ctx, arg: Any) -> None:
        if ctx.form("dial", "hour") == "minute":
            ctx.set_form("minute", f"{int(arg):02d}")
            return
        ctx.set_form("hour", f"{int(arg):02d}" if uses_24h(ctx) else str(arg))
        ctx.set_form("dial", "minute")

    def on_period(self, ctx: Ctx, arg: Any) -> None:
        ctx.set_form("period", str(arg))

    def on_picker_cancel(self, ctx: Ctx, arg: Any) -> None:
        ctx.back()

    def on_picker_ok(self, ctx: Ctx, arg: Any) -> None:
        route = ctx.route
        assert route is not None
        h24 = uses_24h(ctx)
        hour_text, minute_text, period = self.picker_values(ctx, route)
        hour_text, minute_text = hour_text.strip(), minute_text.strip()
        ok = (
            0 < len(hour_text) <= 2
            and 0 < len(minute_text) <= 2
            and hour_text.isdigit()
            and minute_text.isdigit()
        )
        hour, minute = (int(hour_text), int(minute_text)) if ok else (-1, -1)
        ok = ok and 0 <= minute <= 59 and (0 <= hour <= 23 if h24 else 1 <= hour <= 12)
        if not ok:
            ctx.toast("Enter a valid time")
            return
        if not h24:
            hour = hour % 12 + (12 if period == "PM" else 0)
        value = f"{hour:02d}:{minute:02d}:00"
        index = route.arg("alarm")
        alarm = self.alarm(ctx, index)
        ctx.back()
        if alarm is None:
            new = {
                "time": value,
                "label": "",
                "enabled": True,
                "repeat": [],
                "vibrate": True,
                "ringtone": DEFAULT_RINGTONE,
                "delete_after_use": False,
            }
            ctx.add("alarms", new)
            index = len(ctx.records("alarms")) - 1
        else:
            new = ctx.update("alarms", alarm, time=value, enabled=True)
        below = top_route(ctx)
        if below is not None and below.screen == "alarms":
            ctx.set_form("expanded", str(index), route=below)
        self.announce(ctx, new)

    # ------------------------------------------------------------------ the label dialog
    def labelled(self, ctx: Ctx, route: Route) -> dict[str, Any] | None:
        records = ctx.records(str(route.arg("kind")))
        index = route.arg("index")
        return records[index] if isinstance(index, int) and 0 <= index < len(records) else None

    def screen_label(self, ctx: Ctx, route: Route) -> Screen:
        record = self.labelled(ctx, route)
        field = View(
            w.EDIT,
            text=str((record or {}).get("label") or ""),
            rid=rid("label_input_field"),
            edit="label",
            hint="Label",
            on_enter="label_ok",
            height=160,
        )
        buttons = row(
            View(w.VIEW, weight=1.0),
            button("Cancel", "android:id/button2", "label_cancel", weight=0.4),
            button("OK", "android:id/button1", "label_ok", weight=0.4),
            rid="android:id/buttonPanel",
            height=150,
        )
        panel = View(
            w.LINEAR,
            rid="android:id/parentPanel",
            children=[text("Label", "android:id/alertTitle", height=140), field, buttons],
        )
        return Screen(None, header=[panel])

    def on_label_cancel(self, ctx: Ctx, arg: Any) -> None:
        ctx.back()

    def on_label_ok(self, ctx: Ctx, arg: Any) -> None:
        route = ctx.route
        assert route is not None
        record = self.labelled(ctx, route)
        value = ctx.form("label", str((record or {}).get("label") or ""))
        ctx.back()
        if record is not None and value != (record.get("label") or ""):
            ctx.update(str(route.arg("kind")), record, label=value)

    # ------------------------------------------------------------------ the alarm sound
    def screen_ringtone(self, ctx: Ctx, route: Route) -> Screen:
        alarm = self.alarm(ctx, route.arg("alarm"))
        current = str((alarm or {}).get("ringtone") or DEFAULT_RINGTONE)
        names = list(RINGTONES) if current in RINGTONES else [*RINGTONES, current]
        rows = [
            text("Your sounds", "title", height=110),
            View(
                w.LINEAR,
                clickable=True,
                focusable=True,
                children=[text("Add new", "ringtone_name")],
                height=150,
            ),
            text("Device sounds", "title", height=110),
        ]
        rows += [
            View(
                w.LINEAR,
                clickable=True,
                focusable=True,
                selected=name == current,
                on_click="pick_ringtone",
                arg=name,
                children=[
                    View(w.IMAGE, rid=rid("ringtone_image"), weight=0.2),
                    text(name, "ringtone_name"),
                ],
                horizontal=True,
                height=150,
            )
            for name in names
        ]
        return Screen(
            "Alarm sound",
            rows,
            up=True,
            activity=RINGTONE_ACTIVITY,
            list_rid=rid("ringtone_content"),
        )

    def on_pick_ringtone(self, ctx: Ctx, arg: Any) -> None:
        route = ctx.route
        assert route is not None
        alarm = self.alarm(ctx, route.arg("alarm"))
        if alarm is not None and alarm.get("ringtone") != arg:
            ctx.update("alarms", alarm, ringtone=str(arg))

    # ------------------------------------------------------------------ Clock tab
    def screen_clock(self, ctx: Ctx, route: Route) -> Screen:
        now = ctx.now
        h24 = uses_24h(ctx)
        shown = fmt_clock(now.hour, now.minute, h24)
        if ctx.setting("clock_style") == "analog":
            main = View(w.VIEW, rid=rid("analog_clock"), desc=shown, height=500)
        else:
            main = text(shown, "digital_clock", desc=shown, height=260)
        header = [main, text(f"{now:%a}, {now:%b} {now.day}", "date", height=90)]
        upcoming = [
            next_ring(now, *parse_time(a.get("time")), list(a.get("repeat") or []))
            for a in ctx.records("alarms")
            if a.get("enabled")
        ]
        if upcoming:
            at = min(upcoming)
            when = f"{DAY_SHORT[DAYS[at.weekday()]]} {fmt_clock(at.hour, at.minute, h24)}"
            header.append(text(when, "nextAlarm", desc=f"Next alarm: {when}", height=90))
        here = now.replace(tzinfo=zone(ctx.phone.tz))
        rows = []
        for wc in ctx.records("world_clocks"):
            there = here.astimezone(zone(str(wc.get("time_zone") or "UTC")))
            rows.append(
                View(
                    w.LINEAR,
                    horizontal=True,
                    children=[
                        column(
                            text(str(wc.get("city") or ""), "city_name", height=100),
                            text(self.offset_text(here, there), "hours_ahead", height=80),
                        ),
                        text(
                            fmt_clock(there.hour, there.minute, h24),
                            "digital_clock",
                            weight=0.6,
                            height=180,
                        ),
                    ],
                    height=200,
                )
            )
        fab = image_button("Cities", "fab", "cities")
        return self.tab_screen("clock", rows, fab, header=header, list_rid=rid("cities"))

    @staticmethod
    def offset_text(here: dt.datetime, there: dt.datetime) -> str:
        diff = (there.utcoffset() or dt.timedelta()) - (here.utcoffset() or dt.timedelta())
        minutes = int(diff.total_seconds()) // 60
        local_there, local_here = there.replace(tzinfo=None), here.replace(tzinfo=None)
        day = (
            "Today"
            if local_there.date() == local_here.date()
            else ("Tomorrow" if local_there.date() > local_here.date() else "Yesterday")
        )
        if minutes == 0:
            return f"{day}, same time"
        h, m = divmod(abs(minutes), 60)
        amount = f"{h} hr" + (f" {m} min" if m else "") if h else f"{m} min"
        return f"{day}, {amount} {'ahead' if minutes > 0 else 'behind'}"

    def on_cities(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("cities")

    def screen_cities(self, ctx: Ctx, route: Route) -> Screen:
        """The city picker: the selected cities first, then every city (only the matches
        while searching), each with its local time and a check box."""
        world = ctx.records("world_clocks")
        zones = {str(wc.get("city")): str(wc.get("time_zone") or "UTC") for wc in world}
        query = ctx.form("search").strip().casefold()
        here = ctx.now.replace(tzinfo=zone(ctx.phone.tz))
        h24 = uses_24h(ctx)

        def city_row(name: str) -> View:
            there = here.astimezone(zone(CITY_ZONES.get(name) or zones.get(name, "UTC")))
            return View(
                w.LINEAR,
                horizontal=True,
                clickable=True,
                focusable=True,
                on_click="toggle_city",
                arg=name,
                children=[
                    column(
                        text(name, "city_name", height=90),
                        text(fmt_clock(there.hour, there.minute, h24), "city_time", height=70),
                    ),
                    checkbox(
                        "", name in zones, "toggle_city", name, rid("city_onoff"), 0, weight=0.2
                    ),
                ],
                height=170,
            )

        names = sorted({c for c, _ in CITIES} | set(zones), key=str.casefold)
        rows: list[View] = []
        if query:
            rows = [city_row(n) for n in names if query in n.casefold()]
            if not rows:
                rows = [text("No results found", "cities_empty_view", height=200)]
        else:
            if zones:
                rows.append(text("Selected cities", "header_text", height=110))
                rows += [city_row(n) for n in sorted(zones, key=str.casefold)]
                rows.append(text("All cities", "header_text", height=110))
            rows += [city_row(n) for n in names]
        search = View(w.EDIT, rid=rid("search_src_text"), edit="search", hint="Search", height=130)
        return Screen(
            None,
            rows,
            up=True,
            header=[search],
            activity=CITIES_ACTIVITY,
            list_rid=rid("cities_list"),
        )

    def on_toggle_city(self, ctx: Ctx, arg: Any) -> None:
        name = str(arg)
        found = ctx.find("world_clocks", lambda wc: wc.get("city") == name)
        if found is not None:
            ctx.delete("world_clocks", found)
            return
        tz = CITY_ZONES.get(name)
        if tz is not None:
            ctx.add("world_clocks", {"city": name, "time_zone": tz})

    # ------------------------------------------------------------------ Timer tab
    def screen_timers(self, ctx: Ctx, route: Route) -> Screen:
        timers = ctx.records("timers")
        if not timers or ctx.form("adding") == "1":
            return self.timer_setup(ctx, cancel=bool(timers))
        rows = [self.timer_card(i, t) for i, t in enumerate(timers)]
        fab = image_button("Add timer", "fab", "timer_add")
        return self.tab_screen("timers", rows, fab, list_rid=rid("timer_recycler_view"))

    def timer_setup(self, ctx: Ctx, cancel: bool) -> Screen:
        digits = ctx.form("digits")
        padded = digits.rjust(6, "0")
        h, m, s = padded[:2], padded[2:4], padded[4:]
        display = text(
            f"{h}h {m}m {s}s",
            "timer_setup_time",
            desc=", ".join(
                (plural(int(h), "hour"), plural(int(m), "minute"), plural(int(s), "second"))
            ),
            height=260,
        )

        def key(d: str) -> View:
            return button(d, f"timer_setup_digit_{d}", "timer_digit", d, height=170)

        delete = image_button(
            "Delete", "timer_setup_delete", "timer_backspace", enabled=bool(digits), height=170
        )
        pad = [
            row(key("1"), key("2"), key("3"), height=170),
            row(key("4"), key("5"), key("6"), height=170),
            row(key("7"), key("8"), key("9"), height=170),
            row(key("00"), key("0"), delete, height=170),
        ]
        header = [display, View(w.LINEAR, rid=rid("timer_setup_digits"), children=pad)]
        if cancel:
            header.append(button("Cancel", "left_button", "timer_cancel"))
        fab = image_button("Start", "fab", "timer_start") if int(padded) else None
        return self.tab_screen(
            "timers",
            [],
            fab,
            header=[View(w.LINEAR, rid=rid("timer_setup"), children=header)],
        )

    def timer_card(self, i: int, timer: dict[str, Any]) -> View:
        state = timer.get("state") or "reset"
        length = as_int(timer.get("length"), 0)
        remaining = timer.get("remaining")
        left = length if remaining is None else as_int(remaining, 0)
        label = str(timer.get("label") or "")
        kids = [
            row(
                text(
                    label or "Label",
                    "timer_label",
                    clickable=True,
                    focusable=True,
                    on_click="timer_label",
                    arg=i,
                ),
                button("Delete", "delete", "timer_delete", i, weight=0.4, height=110),
                height=110,
            ),
            text(fmt_timer(left), "timer_time_text", height=220),
        ]
        if state == "expired":
            kids.append(text("Time's up", "timer_expired_text", height=90))
        controls: list[View] = []
        if state in ("running", "expired"):
            controls.append(button("+1:00", "reset_add", "timer_reset_add", i, weight=0.5))
        elif state == "paused":
            controls.append(button("Reset", "reset_add", "timer_reset_add", i, weight=0.5))
        else:
            controls.append(View(w.VIEW, weight=0.5))
        desc = {"running": "Pause", "expired": "Stop"}.get(str(state), "Start")
        controls.append(image_button(desc, "play_pause", "timer_toggle", i, weight=0.5))
        kids.append(row(*controls, height=150))
        return View(w.VIEWGROUP, rid=rid("timer_item"), children=kids)

    def timer(self, ctx: Ctx, arg: Any) -> dict[str, Any] | None:
        timers = ctx.records("timers")
        return timers[arg] if isinstance(arg, int) and 0 <= arg < len(timers) else None

    def on_timer_digit(self, ctx: Ctx, arg: Any) -> None:
        digits = ctx.form("digits")
        for d in str(arg):
            if len(digits) < 6 and (digits or d != "0"):
                digits += d
        ctx.set_form("digits", digits)

    def on_timer_backspace(self, ctx: Ctx, arg: Any) -> None:
        ctx.set_form("digits", ctx.form("digits")[:-1])

    def on_timer_cancel(self, ctx: Ctx, arg: Any) -> None:
        ctx.set_form("digits", "")
        ctx.set_form("adding", "")

    def on_timer_add(self, ctx: Ctx, arg: Any) -> None:
        ctx.set_form("digits", "")
        ctx.set_form("adding", "1")

    def on_timer_start(self, ctx: Ctx, arg: Any) -> None:
        padded = ctx.form("digits").rjust(6, "0")
        length = int(padded[:2]) * 3600 + int(padded[2:4]) * 60 + int(padded[4:])
        if length <= 0:
            return
        ctx.add("timers", {"length": length, "label": "", "state": "running", "remaining": length})
        ctx.set_form("digits", "")
        ctx.set_form("adding", "")

    def on_timer_toggle(self, ctx: Ctx, arg: Any) -> None:
        timer = self.timer(ctx, arg)
        if timer is None:
            return
        state = timer.get("state")
        length = as_int(timer.get("length"), 0)
        if state == "running":
            ctx.update("timers", timer, state="paused")
        elif state == "expired":
            ctx.update("timers", timer, state="reset", remaining=length)
        else:
            remaining = timer.get("remaining")
            ctx.update(
                "timers",
                timer,
                state="running",
                remaining=length if remaining is None else remaining,
            )

    def on_timer_reset_add(self, ctx: Ctx, arg: Any) -> None:
        timer = self.timer(ctx, arg)
        if timer is None:
            return
        state = timer.get("state")
        length = as_int(timer.get("length"), 0)
        remaining = timer.get("remaining")
        left = length if remaining is None else as_int(remaining, 0)
        if state == "running":
            ctx.update("timers", timer, remaining=left + 60)
        elif state == "expired":
            ctx.update("timers", timer, state="running", remaining=60)
        elif state == "paused":
            ctx.update("timers", timer, state="reset", remaining=length)

    def on_timer_delete(self, ctx: Ctx, arg: Any) -> None:
        timer = self.timer(ctx, arg)
        if timer is not None:
            ctx.delete("timers", timer)

    def on_timer_label(self, ctx: Ctx, arg: Any) -> None:
        if self.timer(ctx, arg) is not None:
            ctx.push("label", kind="timers", index=arg)

    # ------------------------------------------------------------------ Stopwatch tab
    def scratch(self, ctx: Ctx, name: str) -> str:
        return ctx.phone.forms.get(SCRATCH.id, {}).get(f"clock.{name}", "")

    def elapsed(self, ctx: Ctx) -> int:
        laps = ctx.records("laps")
        base = max((as_int(lap.get("total"), 0) for lap in laps), default=0)
        total = as_int(self.scratch(ctx, "sw_accum"), base)
        since = self.scratch(ctx, "sw_since")
        if ctx.setting("stopwatch_running") and since:
            started = dt.datetime.fromisoformat(since)
            total += max(0, int((ctx.now - started).total_seconds()))
        return total

    def screen_stopwatch(self, ctx: Ctx, route: Route) -> Screen:
        running = bool(ctx.setting("stopwatch_running"))
        elapsed = self.elapsed(ctx)
        shown = fmt_timer(elapsed)
        controls: list[View] = []
        if not running and elapsed:
            controls.append(image_button("Reset", "left_button", "sw_reset", weight=0.5))
        else:
            controls.append(View(w.VIEW, weight=0.5))
        if running:
            controls.append(image_button("Lap", "right_button", "sw_lap", weight=0.5))
        else:
            controls.append(View(w.VIEW, weight=0.5))
        header = [
            View(
                w.LINEAR,
                rid=rid("stopwatch_circle"),
                horizontal=True,
                height=360,
                children=[
                    text(shown, "stopwatch_time_text", desc=shown, height=360),
                    text("00", "stopwatch_hundredths_text", weight=0.3, height=360),
                ],
            ),
            row(*controls, height=150),
        ]
        rows = [
            row(
                text(f"# {as_int(lap.get('number'), 0)}", "lap_number"),
                text(fmt_lap(as_int(lap.get("lap_time"), 0)), "lap_time"),
                text(fmt_lap(as_int(lap.get("total"), 0)), "lap_total"),
                height=120,
            )
            for lap in sorted(ctx.records("laps"), key=lambda lap: -as_int(lap.get("number"), 0))
        ]
        fab = image_button("Pause" if running else "Start", "fab", "sw_toggle")
        return self.tab_screen("stopwatch", rows, fab, header=header, list_rid=rid("laps_list"))

    def on_sw_toggle(self, ctx: Ctx, arg: Any) -> None:
        elapsed = self.elapsed(ctx)
        ctx.set_form("clock.sw_accum", str(elapsed), route=SCRATCH)
        if ctx.setting("stopwatch_running"):
            ctx.set_form("clock.sw_since", "", route=SCRATCH)
            ctx.set("stopwatch_running", False)
        else:
            ctx.set_form("clock.sw_since", ctx.now.isoformat(), route=SCRATCH)
            ctx.set("stopwatch_running", True)

    def on_sw_reset(self, ctx: Ctx, arg: Any) -> None:
        for lap in list(ctx.records("laps")):
            ctx.delete("laps", lap)
        ctx.set_form("clock.sw_accum", "0", route=SCRATCH)
        ctx.set_form("clock.sw_since", "", route=SCRATCH)
        if ctx.setting("stopwatch_running"):
            ctx.set("stopwatch_running", False)

    def on_sw_lap(self, ctx: Ctx, arg: Any) -> None:
        laps = ctx.records("laps")
        total = self.elapsed(ctx)
        last = max((as_int(lap.get("total"), 0) for lap in laps), default=0)
        number = max((as_int(lap.get("number"), 0) for lap in laps), default=0) + 1
        ctx.add("laps", {"number": number, "lap_time": max(0, total - last), "total": total})

    # ------------------------------------------------------------------ Bedtime tab
    def screen_bedtime(self, ctx: Ctx, route: Route) -> Screen:
        rows = [
            text("Set a regular bedtime and wake-up time", "bedtime_title", height=160),
            text(
                "Get reminders to go to bed, listen to calming sounds and wake up gently.",
                "bedtime_description",
                height=200,
            ),
            button("Get started", "bedtime_onboarding_get_started", None),
        ]
        return self.tab_screen("bedtime", rows, list_rid=rid("bedtime_recycler_view"))

    # ------------------------------------------------------------------ Settings
    def screen_settings(self, ctx: Ctx, route: Route) -> Screen:
        s = ctx.setting
        style = dict(STYLES).get(str(s("clock_style") or "digital"), "Digital")
        home = s("home_time_zone")
        rows = [
            category("Clock"),
            pref("Style", style, "pref", "clock_style"),
            pref(
                "Automatic home clock",
                "While traveling in an area where the time is different, add a clock for home",
                "pref",
                "automatic_home_clock",
                on=bool(s("automatic_home_clock")),
            ),
            pref(
                "Home time zone",
                gmt_label(str(home), ctx.now) if home else "Select time zone",
                "pref",
                "home_time_zone",
            ),
            category("Alarms"),
            pref(
                "Silence after",
                f"{duration_words(as_int(s('silence_after'), 600))}",
                "pref",
                "silence_after",
            ),
            pref(
                "Snooze length",
                duration_words(as_int(s("snooze_length"), 600)),
                "pref",
                "snooze_length",
            ),
            View(
                w.LINEAR,
                children=[
                    View(w.TEXT, text="Alarm volume", rid="android:id/title", height=80),
                    View(
                        w.SEEKBAR,
                        text=f"{as_int(s('alarm_volume'), 6)}.0",
                        rid="android:id/seekbar",
                        desc="Alarm volume",
                        focusable=True,
                        height=90,
                    ),
                ],
                height=190,
            ),
            pref(
                "Gradually increase volume",
                None,
                "pref",
                "gradually_increase_volume",
                on=bool(s("gradually_increase_volume")),
            ),
            pref(
                "Volume buttons",
                dict(VOLUME_BUTTONS).get(str(s("volume_buttons")), "Control volume"),
                "pref",
                "volume_buttons",
            ),
            pref(
                "Start week on",
                dict(WEEK_STARTS).get(str(s("week_start")), "Sunday"),
                "pref",
                "week_start",
            ),
            category("Timers"),
            pref("Timer sound", "Default (Timer Expired)", "pref", "timer_sound"),
            pref("Timer vibrate", None, "pref", "timer_vibrate", on=bool(s("timer_vibrate"))),
        ]
        return Screen(
            "Settings",
            rows,
            up=True,
            activity=SETTINGS_ACTIVITY,
            list_rid="android:id/list",
        )

    def choices(self, ctx: Ctx, name: str) -> tuple[str, list[tuple[Any, str]]] | None:
        if name == "clock_style":
            return "Style", list(STYLES)
        if name == "home_time_zone":
            return "Home time zone", [(z, gmt_label(z, ctx.now)) for z in HOME_ZONES]
        if name == "silence_after":
            return "Silence after", [(m * 60, plural(m, "minute")) for m in MINUTE_CHOICES]
        if name == "snooze_length":
            return "Snooze length", [(m * 60, plural(m, "minute")) for m in SNOOZE_CHOICES]
        if name == "volume_buttons":
            return "Volume buttons", list(VOLUME_BUTTONS)
        if name == "week_start":
            return "Start week on", list(WEEK_STARTS)
        return None

    def on_pref(self, ctx: Ctx, arg: Any) -> None:
        name = str(arg)
        if name in ("automatic_home_clock", "gradually_increase_volume", "timer_vibrate"):
            ctx.set(name, not ctx.setting(name))
            return
        found = self.choices(ctx, name)
        if found is None:
            return
        title, options = found
        current = ctx.setting(name)
        ctx.dialog(
            choice_dialog(
                title, options, current, "choose", name, rid="android:id/text1", cancel=True
            )
        )

    def on_choose(self, ctx: Ctx, arg: Any) -> None:
        close_dialog(ctx)
        name, value = arg
        if ctx.setting(name) != value:
            ctx.set(name, value)


APP = Clock
