"""Reference solutions of the Clock (Google Clock) tasks."""

from __future__ import annotations

from tasklang.envs.phoneworld.solutions.base import Driver, reference

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")


def timer_digits(seconds: int) -> str:
    """The keys to press on the timer keypad for a length (hours, minutes, seconds)."""
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h:02d}{m:02d}{s:02d}".lstrip("0")


def set_time(d: Driver, value: str) -> None:
    """In the open time picker, enter ``value`` ("HH:MM:SS") with the keyboard and confirm."""
    hour, minute = (int(p) for p in value.split(":")[:2])
    d.tap(desc="Switch to text input mode for the time input.")
    twelve = d.has(rid="material_clock_period_am_button")
    shown = (hour % 12) or 12 if twelve else hour
    d.type(f"{shown:02d}", cls="EditText", nth=0)
    d.type(f"{minute:02d}", cls="EditText", nth=1)
    if twelve:
        d.tap(
            rid="material_clock_period_am_button"
            if hour < 12
            else "material_clock_period_pm_button"
        )
    d.tap(rid="material_timepicker_ok_button")


def click(d: Driver, index: int) -> None:
    d.act({"action_type": "click", "index": index})


@reference("clock.start_timer")
def start_timer(d: Driver) -> None:
    d.tap(desc="Timer")
    for key in timer_digits(int(d.params["countdown"])):
        d.tap(rid=f"timer_setup_digit_{key}")
    d.tap(desc="Start")
    d.need(desc="Pause", cls="ImageButton")
    d.done()


@reference("clock.weekday_alarm")
def weekday_alarm(d: Driver) -> None:
    if not d.has(desc="Add alarm"):
        d.tap(desc="Alarm")
    d.tap(desc="Add alarm")
    set_time(d, str(d.params["wake"]))
    # the new alarm comes back expanded: its repeat days, then its label
    for day in WEEKDAYS:
        click(d, d.scroll_to(desc=day, checked=False))
    click(d, d.scroll_to(rid="edit_label", text="Add label"))
    d.type(str(d.params["title"]), rid="label_input_field")
    d.tap(text="OK")
    d.done()
