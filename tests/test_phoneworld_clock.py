"""PhoneWorld's Clock app (Google Clock): the reference solutions of its tasks, the screens' XML,
and the handlers' behaviour through real actions (alarms and the time picker, labels, repeat
days, timers, the stopwatch, world clocks, settings, back navigation, invalid actions)."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tasklang import ir
from tasklang.compiler import Compiler
from tasklang.envs.phoneworld.app import AppData
from tasklang.envs.phoneworld.apps.clock import alarm_set_text, fmt_clock, fmt_timer, next_ring
from tasklang.envs.phoneworld.episode import Episode, run_nothing, run_reference
from tasklang.envs.phoneworld.solutions.base import Driver
from tasklang.envs.phoneworld.solutions.clock import timer_digits
from tasklang.verifiers.snapshot import parse_ui_xml

ROOT = Path(__file__).resolve().parents[1]
TASKS = ["clock.start_timer", "clock.weekday_alarm"]
PKG = "com.google.android.deskclock"
TEXT_MODE = "Switch to text input mode for the time input."


@cache
def compiled(task_id: str) -> ir.CompiledTask:
    path = ROOT / "task_library" / "app" / f"{task_id}.task"
    return Compiler().compile_paths([path]).tasks[0]


@pytest.mark.parametrize("task_id", TASKS)
def test_reference_solves_every_instance(task_id: str) -> None:
    for seed in range(6):  # `tasklang test` tries 20
        verdict, _ = run_reference(compiled(task_id), seed)
        assert verdict.success, (seed, [(r.id, r.summary) for r in verdict.clauses if not r.passed])


@pytest.mark.parametrize("task_id", TASKS)
def test_doing_nothing_fails(task_id: str) -> None:
    for seed in range(6):  # `tasklang test` tries 20
        assert not run_nothing(compiled(task_id), seed).success


# ------------------------------------------------------------------ helpers
def alarm(time: str, **kw: Any) -> dict[str, Any]:
    return {
        "time": time,
        "label": "",
        "enabled": True,
        "repeat": [],
        "vibrate": True,
        "ringtone": "Default (Cesium)",
        "delete_after_use": False,
        **kw,
    }


def episode(
    settings: dict[str, Any] | None = None,
    phone_settings: dict[str, Any] | None = None,
    **collections: list[dict[str, Any]],
) -> tuple[Episode, Driver]:
    """The Clock on its Alarm tab at 2026-05-14 22:10 (a Thursday), Europe/Berlin, with the
    given records (no alarm unless given)."""
    ep = Episode(compiled("clock.weekday_alarm"), 0)
    assert ep.instance is not None
    data = ep.phone.state["clock"]
    ep.phone.state["clock"] = AppData(
        {**data.collections, "alarms": [], **collections}, {**data.settings, **(settings or {})}
    )
    if phone_settings:
        other = ep.phone.state.get("settings", AppData({}, {}))
        ep.phone.state["settings"] = AppData(
            other.collections, {**other.settings, **phone_settings}
        )
    ep.phone.invalidate()
    return ep, Driver(ep.tree, ep.step, ep.instance.params)


def coll(ep: Episode, name: str) -> list[dict[str, Any]]:
    return ep.phone.state["clock"].collections[name]


def setting(ep: Episode, name: str) -> Any:
    return ep.phone.state["clock"].settings.get(name)


def screen(ep: Episode) -> str | None:
    route = ep.phone.route()
    return route.screen if route is not None else None


def xml_ok(ep: Episode) -> list[str]:
    """The screen's XML parses; the texts and descriptions it shows."""
    _, elements = parse_ui_xml(ep.xml())
    assert elements
    assert all(e.package for e in elements)
    return [s for e in elements for s in (e.text, e.content_desc) if s]


def click(d: Driver, index: int) -> None:
    d.act({"action_type": "click", "index": index})


# ------------------------------------------------------------------ formatting
def test_times_and_durations_as_the_phone_shows_them() -> None:
    assert fmt_clock(7, 5, False) == "7:05 AM"
    assert fmt_clock(0, 30, False) == "12:30 AM"
    assert fmt_clock(12, 0, False) == "12:00 PM"
    assert fmt_clock(7, 5, True) == "07:05"
    assert fmt_timer(840) == "14:00"
    assert fmt_timer(3 * 3600 + 65) == "3:01:05"
    assert timer_digits(840) == "1400" and timer_digits(3 * 3600) == "30000"
    import datetime as dt

    now = dt.datetime(2026, 5, 14, 22, 10)  # a Thursday
    assert next_ring(now, 7, 0, []) == dt.datetime(2026, 5, 15, 7, 0)
    assert next_ring(now, 7, 0, ["mon"]) == dt.datetime(2026, 5, 18, 7, 0)
    assert alarm_set_text(dt.timedelta(hours=8, minutes=55)) == (
        "Alarm set for 8 hours and 55 minutes from now."
    )
    assert alarm_set_text(dt.timedelta(days=1, hours=2, minutes=3)) == (
        "Alarm set for 1 day, 2 hours, and 3 minutes from now."
    )


# ------------------------------------------------------------------ every screen's XML
def test_every_screen_gives_a_uiautomator_dump() -> None:
    ep, d = episode(
        alarms=[alarm("07:00:00", label="Wake up", repeat=["mon", "tue", "wed", "thu", "fri"])],
        timers=[{"length": 300, "label": "Tea", "state": "expired", "remaining": 0}],
        world_clocks=[{"city": "Tokyo", "time_zone": "Asia/Tokyo"}],
        laps=[{"number": 1, "lap_time": 5, "total": 5}],
    )
    shown = xml_ok(ep)
    assert "7:00 AM" in shown and "Mon, Tue, Wed, Thu, Fri" in shown and "Add alarm" in shown
    assert ep.phone.current_activity() == (PKG, "com.android.deskclock.DeskClock")
    d.tap(desc="Expand alarm")
    assert {"Monday", "Sunday", "Vibrate", "Delete", "Wake up"} <= set(xml_ok(ep))
    d.tap(text="Wake up")
    assert "Label" in xml_ok(ep)
    d.back()
    d.tap(rid="choose_ringtone")
    assert "Alarm sound" in xml_ok(ep)
    d.back()
    d.tap(desc="Add alarm")
    assert "Select time" in xml_ok(ep)
    d.tap(desc=TEXT_MODE)
    assert {"Enter time", "Hour", "Minute", "AM", "PM", "OK", "Cancel"} <= set(xml_ok(ep))
    d.back()
    d.tap(desc="Clock")
    assert {"Tokyo", "Cities"} <= set(xml_ok(ep))
    d.tap(desc="Cities")
    assert "Tokyo" in xml_ok(ep)
    d.back()
    d.tap(desc="Timer")
    assert {"Time's up", "Tea", "Stop", "+1:00"} <= set(xml_ok(ep))
    d.tap(desc="Add timer")
    assert "00h 00m 00s" in xml_ok(ep)
    d.tap(desc="Stopwatch")
    assert {"# 1", "0:05.00", "Reset", "Start"} <= set(xml_ok(ep))
    d.tap(desc="Bedtime")
    assert "Get started" in xml_ok(ep)
    d.tap(desc="More options")
    assert "Settings" in xml_ok(ep)
    d.tap(text="Settings")
    assert {"Style", "Digital", "Silence after", "Start week on"} <= set(xml_ok(ep))
    assert ep.phone.current_activity()[1] == "com.android.deskclock.settings.SettingsActivity"
    d.tap(text="Style")
    assert {"Analog", "Digital"} <= set(xml_ok(ep))


# ------------------------------------------------------------------ alarms
def test_add_an_alarm_on_the_dial() -> None:
    ep, d = episode()
    assert "No alarms" in xml_ok(ep)
    d.tap(desc="Add alarm")
    assert screen(ep) == "picker"
    d.tap(desc="6 o'clock")  # then the dial shows minutes
    d.tap(desc="30 minutes")
    d.tap(text="AM")
    d.tap(text="OK")
    assert screen(ep) == "alarms"
    assert coll(ep, "alarms") == [alarm("06:30:00")]
    assert ep.phone.toast == "Alarm set for 8 hours and 20 minutes from now."
    # the new alarm comes back expanded
    assert d.has(desc="Collapse alarm") and d.has(text="Add label")


def test_keyboard_entry_in_twelve_and_twenty_four_hour_formats() -> None:
    ep, d = episode()
    d.tap(desc="Add alarm")
    d.tap(desc=TEXT_MODE)
    d.type("13", cls="EditText", nth=0)
    d.type("15", cls="EditText", nth=1)
    d.tap(text="OK")
    assert ep.phone.toast == "Enter a valid time" and screen(ep) == "picker"
    assert coll(ep, "alarms") == []
    d.type("1", cls="EditText", nth=0)
    d.tap(text="PM")
    d.enter()  # the keyboard's enter confirms too
    assert [a["time"] for a in coll(ep, "alarms")] == ["13:15:00"]

    ep, d = episode(phone_settings={"time_format_24h": True})
    d.tap(desc="Add alarm")
    assert not d.has(text="AM")
    d.tap(desc=TEXT_MODE)
    d.type("21", cls="EditText", nth=0)
    d.type("05", cls="EditText", nth=1)
    d.tap(text="OK")
    assert [a["time"] for a in coll(ep, "alarms")] == ["21:05:00"]
    assert d.has(text="21:05", rid="digital_clock")


def test_cancel_and_back_leave_the_alarms_alone() -> None:
    ep, d = episode(alarms=[alarm("07:00:00")])
    before = coll(ep, "alarms")
    d.tap(desc="Add alarm")
    d.tap(text="Cancel")
    assert screen(ep) == "alarms"
    d.tap(rid="digital_clock")  # the time opens the picker on that alarm
    d.tap(desc="9 o'clock")
    d.back()
    assert screen(ep) == "alarms" and coll(ep, "alarms") is before
    d.back()  # back from a tab leaves the app
    assert ep.phone.foreground is None


def test_change_an_alarms_time_turns_it_on() -> None:
    ep, d = episode(alarms=[alarm("07:00:00", enabled=False, label="Run")])
    d.tap(rid="digital_clock")
    d.tap(desc="8 o'clock")
    d.tap(desc="45 minutes")
    d.tap(text="OK")
    assert coll(ep, "alarms") == [alarm("08:45:00", label="Run")]


def test_switch_days_vibrate_sound_label_and_delete() -> None:
    ep, d = episode(alarms=[alarm("09:00:00", enabled=False), alarm("06:00:00", label="Early")])
    # the list is sorted by time: the 6:00 alarm comes first
    assert d.texts(rid="digital_clock") == ["6:00 AM", "9:00 AM"]
    d.tap(rid="onoff", checked=False)
    assert coll(ep, "alarms")[0]["enabled"] is True
    assert ep.phone.toast is not None and ep.phone.toast.startswith("Alarm set for")
    d.tap(text="9:00 AM")  # the time opens the picker; the card's arrow expands it
    d.back()
    d.tap(desc="Expand alarm", nth=1)
    for day in ("Friday", "Monday", "Wednesday"):
        d.tap(desc=day)
    assert coll(ep, "alarms")[0]["repeat"] == ["mon", "wed", "fri"]
    d.tap(desc="Wednesday")
    assert coll(ep, "alarms")[0]["repeat"] == ["mon", "fri"]
    assert d.has(text="Mon, Fri")
    d.tap(text="Vibrate")
    assert coll(ep, "alarms")[0]["vibrate"] is False
    d.tap(rid="choose_ringtone")
    d.tap(text="Argon")
    d.back()
    assert coll(ep, "alarms")[0]["ringtone"] == "Argon"
    d.tap(text="Add label")
    d.type("Gym", rid="label_input_field")
    d.tap(text="Cancel")
    assert coll(ep, "alarms")[0]["label"] == ""
    d.tap(text="Add label")
    d.type("Gym", rid="label_input_field")
    d.tap(text="OK")
    assert coll(ep, "alarms")[0]["label"] == "Gym"
    assert coll(ep, "alarms")[1] == alarm("06:00:00", label="Early")
    d.tap(text="Delete")
    assert coll(ep, "alarms") == [alarm("06:00:00", label="Early")]
    assert ep.phone.toast == "Alarm deleted"


def test_repeat_days_follow_the_start_of_the_week() -> None:
    for start, first in (("monday", "Monday"), ("sunday", "Sunday"), ("saturday", "Saturday")):
        _, d = episode(settings={"week_start": start}, alarms=[alarm("07:00:00")])
        d.tap(desc="Expand alarm")
        assert [v.desc for v in d.observe().walk() if v.rid.endswith("day_button_0")] == [first]


# ------------------------------------------------------------------ timers
def test_timer_keypad_start_pause_reset_and_delete() -> None:
    ep, d = episode()
    d.tap(desc="Timer")
    assert not d.has(desc="Start")  # nothing entered yet
    for key in ("0", "1", "3", "9"):
        d.tap(rid=f"timer_setup_digit_{key}")
    assert d.has(text="00h 01m 39s")  # a leading zero is no digit
    d.tap(desc="Delete")
    d.tap(rid="timer_setup_digit_00")
    assert d.has(text="00h 13m 00s", desc="0 hours, 13 minutes, 0 seconds")
    d.tap(desc="Start")
    assert coll(ep, "timers") == [
        {"length": 780, "label": "", "state": "running", "remaining": 780}
    ]
    assert d.has(text="13:00", rid="timer_time_text") and d.has(desc="Pause", cls="ImageButton")
    assert not d.has(text="Time's up")
    d.tap(text="+1:00")
    assert coll(ep, "timers")[0]["remaining"] == 840
    d.tap(desc="Pause")
    assert coll(ep, "timers")[0]["state"] == "paused"
    d.tap(desc="Start")
    assert coll(ep, "timers")[0]["state"] == "running"
    d.tap(desc="Pause")
    d.tap(text="Reset")
    assert coll(ep, "timers")[0] == {
        "length": 780,
        "label": "",
        "state": "reset",
        "remaining": 780,
    }
    d.tap(text="Label")
    d.type("Pasta", rid="label_input_field")
    d.enter()
    assert coll(ep, "timers")[0]["label"] == "Pasta" and d.has(text="Pasta")
    d.tap(text="Delete")
    assert coll(ep, "timers") == [] and d.has(text="00h 00m 00s")


def test_add_a_second_timer_or_cancel() -> None:
    ep, d = episode(timers=[{"length": 60, "label": "", "state": "running", "remaining": 60}])
    d.tap(desc="Timer")
    d.tap(desc="Add timer")
    d.tap(rid="timer_setup_digit_5")
    d.tap(text="Cancel")
    assert len(coll(ep, "timers")) == 1 and d.has(desc="Add timer")
    d.tap(desc="Add timer")
    assert d.has(text="00h 00m 00s")  # the keypad starts empty again
    d.tap(rid="timer_setup_digit_9")
    d.tap(rid="timer_setup_digit_0")
    d.tap(desc="Start")
    assert [t["length"] for t in coll(ep, "timers")] == [60, 90]
    assert d.texts(rid="timer_time_text") == ["1:00", "1:30"]


def test_an_expired_timer_is_stopped_or_extended() -> None:
    expired = {"length": 300, "label": "Tea", "state": "expired", "remaining": 0}
    ep, d = episode(timers=[expired])
    d.tap(desc="Timer")
    assert d.has(text="Time's up")
    d.tap(text="+1:00")
    assert coll(ep, "timers")[0] == {**expired, "state": "running", "remaining": 60}
    ep, d = episode(timers=[expired])
    d.tap(desc="Timer")
    d.tap(desc="Stop")
    assert coll(ep, "timers")[0] == {**expired, "state": "reset", "remaining": 300}
    assert not d.has(text="Time's up")


# ------------------------------------------------------------------ stopwatch
def test_stopwatch_start_lap_pause_reset() -> None:
    ep, d = episode()
    d.tap(desc="Stopwatch")
    assert d.has(text="0:00", rid="stopwatch_time_text") and not d.has(desc="Reset")
    d.tap(desc="Start")
    assert setting(ep, "stopwatch_running") is True
    d.act({"action_type": "wait"})
    assert d.has(text="0:05", rid="stopwatch_time_text")
    d.tap(desc="Lap")
    d.act({"action_type": "wait"})
    d.act({"action_type": "wait"})
    d.tap(desc="Lap")
    assert coll(ep, "laps") == [
        {"number": 1, "lap_time": 5, "total": 5},
        {"number": 2, "lap_time": 10, "total": 15},
    ]
    assert d.texts(rid="lap_number") == ["# 2", "# 1"]
    d.tap(desc="Pause")
    d.act({"action_type": "wait"})
    assert setting(ep, "stopwatch_running") is False and d.has(text="0:15")
    d.tap(desc="Start")
    d.act({"action_type": "wait"})
    assert d.has(text="0:20")
    d.tap(desc="Pause")
    d.tap(desc="Reset")
    assert coll(ep, "laps") == [] and d.has(text="0:00", rid="stopwatch_time_text")


# ------------------------------------------------------------------ world clocks
def test_world_clocks_are_added_searched_and_removed() -> None:
    ep, d = episode(world_clocks=[{"city": "London", "time_zone": "Europe/London"}])
    d.tap(desc="Clock")
    assert d.has(text="22:10", rid="digital_clock") or d.has(text="10:10 PM")
    assert d.has(text="Thu, May 14", rid="date")
    assert d.texts(rid="city_name") == ["London"]
    assert d.has(text="Today, 1 hr behind")
    d.tap(desc="Cities")
    assert ep.phone.current_activity()[1].endswith("CitySelectionActivity")
    d.type("tok", rid="search_src_text")
    assert d.texts(rid="city_name") == ["Tokyo"]
    d.tap(text="Tokyo")
    d.type("zzz", rid="search_src_text")
    assert d.has(text="No results found")
    d.type("lon", rid="search_src_text")
    d.tap(rid="city_onoff", checked=True)
    assert coll(ep, "world_clocks") == [{"city": "Tokyo", "time_zone": "Asia/Tokyo"}]
    d.back()  # hides the keyboard
    d.back()
    assert d.texts(rid="city_name") == ["Tokyo"]
    assert d.has(text="Tomorrow, 7 hr ahead")


# ------------------------------------------------------------------ settings
def test_settings_choices_and_switches() -> None:
    ep, d = episode()
    d.tap(desc="More options")
    d.tap(text="Settings")
    d.tap(text="Style")
    d.tap(text="Analog")
    assert setting(ep, "clock_style") == "analog"
    assert d.has(text="Analog", rid="android:id/summary") and ep.phone.dialog is None
    d.tap(text="Snooze length")
    d.tap(text="Cancel")
    assert setting(ep, "snooze_length") == 600
    d.tap(text="Snooze length")
    d.tap(text="5 minutes")
    assert setting(ep, "snooze_length") == 300
    d.tap(text="Start week on")
    d.tap(text="Monday")
    assert setting(ep, "week_start") == "monday"
    d.tap(text="Gradually increase volume")
    assert setting(ep, "gradually_increase_volume") is True
    click(d, d.scroll_to(text="Timer vibrate"))
    assert setting(ep, "timer_vibrate") is True
    d.tap(desc="Navigate up")
    assert screen(ep) == "alarms"


# ------------------------------------------------------------------ the phone's rules
def test_invalid_actions_change_nothing() -> None:
    ep, d = episode(alarms=[alarm("07:00:00")])
    before = ep.phone.state["clock"]
    out = ep.step({"action_type": "click", "index": 10_000})
    assert not out.ok and "out of range" in out.info
    index = d.need(rid="digital_clock")
    out = ep.step({"action_type": "input_text", "text": "x", "index": index})
    assert not out.ok and "not a text field" in out.info
    assert ep.phone.state["clock"] is before


def test_tabs_replace_each_other() -> None:
    ep, d = episode()
    for tab in ("Clock", "Timer", "Stopwatch", "Bedtime", "Alarm"):
        d.tap(desc=tab)
        assert len(ep.phone.stacks["clock"]) == 1
        selected = [
            v.desc for v in d.observe().walk() if v.selected and v.rid.endswith(tab.lower())
        ]
        assert selected == [tab]
    assert screen(ep) == "alarms"
    d.tap(desc="Alarm")  # the current tab: nothing happens
    assert screen(ep) == "alarms"
