"""PhoneWorld's Simple Calendar Pro (com.simplemobiletools.calendar.pro): the reference
solutions of the calendar tasks, the screens' XML, and the views, the event screen with its
date, time, reminder and repetition pickers, search and settings through real actions."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tasklang import ir
from tasklang.compiler import Compiler
from tasklang.envs.phoneworld.app import AppData
from tasklang.envs.phoneworld.apps.calendar import days_with_events, occurs_on, reminder_label
from tasklang.envs.phoneworld.episode import Episode, run_nothing, run_reference
from tasklang.envs.phoneworld.solutions.base import Driver
from tasklang.envs.phoneworld.solutions.cross_calendar import plan_of
from tasklang.verifiers.snapshot import parse_ui_xml

ROOT = Path(__file__).resolve().parents[1]
PKG = "com.simplemobiletools.calendar.pro"
TASKS = {
    "calendar.add_event_reminder": "app",
    "calendar.clear_day": "app",
    "calendar.event_location": "app",
    "calendar.reschedule_event": "app",
    "cross.calendar_from_message": "cross_app",
}


@cache
def compiled(task_id: str) -> ir.CompiledTask:
    path = ROOT / "task_library" / TASKS[task_id] / f"{task_id}.task"
    return Compiler().compile_paths([path]).tasks[0]


@pytest.mark.parametrize("task_id", sorted(TASKS))
def test_reference_solves_every_instance(task_id: str) -> None:
    for seed in range(6):  # `tasklang test` tries 20
        verdict, _ = run_reference(compiled(task_id), seed)
        failed = [(r.id, r.summary) for r in verdict.clauses if not r.passed]
        assert not failed, (seed, failed)
        assert verdict.success, (seed, verdict.notes)


@pytest.mark.parametrize("task_id", sorted(TASKS))
def test_doing_nothing_fails(task_id: str) -> None:
    for seed in range(6):  # `tasklang test` tries 20
        assert not run_nothing(compiled(task_id), seed).success


# ------------------------------------------------------------------ helpers
def event(title: str, start: str, end: str | None = None, **kw: Any) -> dict[str, Any]:
    return {
        "title": title,
        "start": start,
        "end": end or start,
        "all_day": False,
        "location": "",
        "description": "",
        "reminders": [],
        "repeat": "none",
        "event_type": "Regular event",
        **kw,
    }


def episode(events: list[dict[str, Any]] | None = None, **settings: Any) -> tuple[Episode, Driver]:
    """A phone at 2026-05-14 09:12 with the calendar holding ``events``, opened."""
    ep = Episode(compiled("calendar.add_event_reminder"), 0)
    assert ep.instance is not None
    data = ep.phone.state["calendar"]
    ep.phone.state["calendar"] = AppData(
        {"events": list(events or []), "event_types": []}, {**data.settings, **settings}
    )
    ep.phone.invalidate()
    d = Driver(ep.tree, ep.step, ep.instance.params)
    d.open("Calendar")
    return ep, d


def events_of(ep: Episode) -> list[dict[str, Any]]:
    return ep.phone.state["calendar"].collections["events"]


def setting(ep: Episode, name: str) -> Any:
    return ep.phone.state["calendar"].settings.get(name)


def activity(ep: Episode) -> str:
    return ep.phone.current_activity()[1].rsplit(".", 1)[-1]


def xml_ok(ep: Episode, *ids: str) -> None:
    _, elements = parse_ui_xml(ep.xml())
    assert elements and all(e.package for e in elements)
    present = {e.resource_id for e in elements}
    for name in ids:
        assert f"{PKG}:id/{name}" in present, name


def some() -> list[dict[str, Any]]:
    return [
        event("Gym", "2026-05-18T18:00:00", "2026-05-18T19:00:00", location="Fit Hub"),
        event("Standup", "2026-05-15T09:30:00", "2026-05-15T09:45:00", repeat="weekly"),
        event("Trip", "2026-05-29T00:00:00", "2026-05-31T00:00:00", all_day=True),
    ]


# ------------------------------------------------------------------ pure helpers
def test_occurrences_and_labels() -> None:
    import datetime as dt

    weekly = event("Standup", "2026-05-15T09:30:00", repeat="weekly")
    assert occurs_on(weekly, dt.date(2026, 5, 22)) and not occurs_on(weekly, dt.date(2026, 5, 21))
    assert not occurs_on(weekly, dt.date(2026, 5, 8))  # before its first day
    trip = event("Trip", "2026-05-29T00:00:00", "2026-05-31T00:00:00")
    assert all(occurs_on(trip, dt.date(2026, 5, n)) for n in (29, 30, 31))
    monthly = event("Rent", "2026-01-31T08:00:00", repeat="monthly")
    assert occurs_on(monthly, dt.date(2026, 3, 31)) and not occurs_on(monthly, dt.date(2026, 4, 30))
    samples = [
        weekly,
        trip,
        monthly,
        event("Leap", "2024-02-29T10:00:00", repeat="yearly"),
        event("Camp", "2026-03-30T00:00:00", "2026-04-01T00:00:00", repeat="daily"),
        event("Old", "2025-11-03T18:00:00", "2025-11-04T01:00:00", repeat="weekly"),
    ]
    low, high = dt.date(2026, 2, 1), dt.date(2028, 3, 31)
    for e in samples:  # the window scan and the one-day check agree
        days = set(days_with_events([e], low, high))
        every = (low + dt.timedelta(days=n) for n in range((high - low).days + 1))
        assert days == {day for day in every if occurs_on(e, day)}, e["title"]
    assert [reminder_label(m) for m in (-1, 0, 1, 10, 60, 90, 2880)] == [
        "No reminder",
        "At start",
        "1 minute before",
        "10 minutes before",
        "1 hour before",
        "1 hour 30 minutes before",
        "2 days before",
    ]
    assert plan_of("Moved our dinner to Tuesday May 19 at 6:45pm", 2026) == dt.datetime(
        2026, 5, 19, 18, 45
    )


# ------------------------------------------------------------------ screens
def test_every_screen_produces_parseable_xml() -> None:
    ep, d = episode(some())
    assert ep.phone.current_activity()[0] == PKG and activity(ep) == "MainActivity"
    xml_ok(ep, "top_value", "day_monthly_holder", "calendar_fab")
    assert d.texts(rid="top_value") == ["May"]
    d.tap(desc="18 May 2026", rid="day_monthly_holder")
    xml_ok(ep, "event_item_holder", "event_item_title", "event_item_time")
    d.tap(rid="event_item_holder")
    assert activity(ep) == "EventActivity"
    xml_ok(ep, "event_title", "event_location", "event_start_date", "event_reminder_1", "save")
    d.tap(rid="event_start_date")
    xml_ok(ep)
    d.tap(text="CANCEL")
    d.tap(rid="event_start_time")
    xml_ok(ep)
    d.back()
    d.back()
    d.back()
    d.tap(desc="Search")
    xml_ok(ep, "search_src_text", "search_placeholder")
    d.back()  # the keyboard
    d.tap(desc="Collapse")
    d.tap(desc="More options")
    d.tap(text="Settings")
    assert activity(ep) == "SettingsActivity"
    xml_ok(ep, "settings_use_24_hour_format")
    d.tap(text="Manage event types")
    assert activity(ep) == "ManageEventTypesActivity"
    xml_ok(ep, "event_type_title")
    d.back()
    d.back()
    for view in ("Daily view", "Weekly view", "Yearly view", "Simple event list"):
        d.tap(desc="Change view")
        d.tap(text=view)
        xml_ok(ep, "top_value" if view != "Simple event list" else "event_section_title")


def test_month_view_shows_repeating_and_multi_day_events() -> None:
    _, d = episode(some())
    d.tap(desc="22 May 2026", rid="day_monthly_holder")
    assert d.texts(rid="event_item_title") == ["Standup"]
    assert d.texts(rid="event_item_time") == ["9:30 AM - 9:45 AM"]
    assert d.texts(rid="top_value") == ["May 22 (Fri)"]
    d.tap(desc="Next day")
    d.tap(desc="Next day")
    assert d.texts(rid="top_value") == ["May 24 (Sun)"] and not d.has(rid="event_item_holder")
    d.back()  # back to the month
    d.tap(desc="Next month")
    assert d.texts(rid="top_value") == ["June"] and d.has(desc="Go to today")
    d.tap(desc="Previous month")
    d.tap(desc="30 May 2026", rid="day_monthly_holder")
    assert d.texts(rid="event_item_time") == ["All-day"]


def test_views_and_go_to_today() -> None:
    ep, d = episode(some())
    d.tap(desc="Change view")
    d.tap(text="Weekly view")
    assert setting(ep, "view") == "week"
    assert d.texts(rid="top_value") == ["May 10 - 16"]
    assert d.texts(rid="event_item_title") == ["Standup"]
    d.tap(desc="Next week")
    assert d.texts(rid="event_item_title") == ["Gym", "Standup"]
    d.tap(desc="Go to today")
    assert d.texts(rid="top_value") == ["May 10 - 16"]
    d.tap(desc="Change view")
    d.tap(text="Yearly view")
    assert d.texts(rid="top_value") == ["2026"]
    d.tap(text="June")
    assert d.texts(rid="top_value") == ["June"]
    d.back()
    assert d.texts(rid="top_value") == ["2026"]


def test_event_list_scrolls_and_has_a_placeholder() -> None:
    _, d = episode([], view="list")
    assert d.has(rid="calendar_empty_list_placeholder")
    many = [
        event(f"Class {n:02d}", f"2026-05-{15 + n:02d}T10:00:00", f"2026-05-{15 + n:02d}T11:00:00")
        for n in range(14)
    ]
    _, d = episode(many, view="list")
    assert d.has(text="Class 00") and not d.has(text="Class 13")
    d.scroll_to(text="Class 13")
    assert not d.has(text="Class 00")


# ------------------------------------------------------------------ adding and editing
def test_add_an_event_with_the_clock_face_and_reminders() -> None:
    ep, d = episode()
    d.tap(desc="New Event")
    assert d.texts(rid="event_start_time") == ["10:00 AM"]  # the next full hour
    assert d.texts(rid="event_reminder_1") == ["10 minutes before"]
    d.type("Haircut", rid="event_title")
    d.tap(rid="event_start_date")
    d.tap(desc="Next month")
    d.tap(desc="02 June 2026")
    assert d.texts(rid="android:id/date_picker_header_date") == ["Tue, Jun 2"]
    d.tap(text="OK")
    assert d.texts(rid="event_start_date") == ["June 2 (Tue)"]
    assert d.texts(rid="event_end_date") == ["June 2 (Tue)"]  # the end moves along
    d.tap(rid="event_start_time")
    d.tap(desc="3")  # the hour, then the minutes
    d.tap(desc="45")
    d.tap(text="PM")
    d.tap(text="OK")
    assert d.texts(rid="event_start_time") == ["3:45 PM"]
    d.tap(rid="event_end_time")
    d.tap(desc="4")
    d.tap(desc="30")
    d.tap(text="PM")
    d.tap(text="OK")
    d.tap(rid="event_reminder_2")
    d.tap(text="1 hour before")
    d.tap(rid="event_reminder_3")
    d.tap(text="Custom")
    d.type("2", rid="dialog_custom_interval_value")
    d.tap(text="days")
    d.tap(text="OK")
    assert d.texts(rid="event_reminder_3") == ["2 days before"]
    d.tap(rid="event_repetition")
    d.tap(text="Monthly")
    d.tap(desc="Save")
    assert ep.phone.toast == "Event added successfully" and activity(ep) == "MainActivity"
    assert events_of(ep) == [
        event(
            "Haircut",
            "2026-06-02T15:45:00",
            "2026-06-02T16:30:00",
            reminders=[10, 60, 2880],
            repeat="monthly",
        )
    ]


def test_cancel_paths_keep_everything() -> None:
    ep, d = episode(some())
    d.tap(desc="New Event")
    d.tap(rid="event_start_date")
    d.tap(desc="20 May 2026")
    d.tap(text="CANCEL")
    assert d.texts(rid="event_start_date") == ["May 14 (Thu)"]
    d.tap(rid="event_start_time")
    d.tap(desc="7")
    d.back()  # dismisses the picker
    assert d.texts(rid="event_start_time") == ["10:00 AM"]
    d.type("Never saved", rid="event_title")
    d.back()  # the keyboard
    d.tap(desc="Navigate up")
    assert activity(ep) == "MainActivity" and len(events_of(ep)) == 3


def test_save_checks_title_and_order() -> None:
    ep, d = episode()
    d.tap(desc="New Event")
    d.tap(desc="Save")
    assert ep.phone.toast == "Title cannot be empty" and activity(ep) == "EventActivity"
    d.type("Backwards", rid="event_title")
    d.tap(rid="event_end_time")
    d.tap(desc="Switch to text input mode for the time input.")
    d.type("08", rid="android:id/input_hour")
    d.type("15", rid="android:id/input_minute")
    d.tap(text="AM")
    d.tap(text="OK")
    d.tap(desc="Save")
    assert ep.phone.toast == "The event cannot end earlier than it starts"
    assert events_of(ep) == []
    d.tap(rid="event_end_time")
    d.tap(desc="Switch to text input mode for the time input.")
    d.type("13", rid="android:id/input_hour")  # not a 12-hour value: refused
    d.tap(text="OK")
    assert ep.phone.toast == "Enter a valid time" and d.has(rid="android:id/input_hour")
    d.type("11", rid="android:id/input_hour")
    d.tap(text="OK")
    d.tap(rid="event_all_day_holder")
    assert not d.has(rid="event_start_time")
    d.tap(desc="Save")
    assert events_of(ep)[0]["all_day"] is True
    assert events_of(ep)[0]["start"] == "2026-05-14T00:00:00"


def test_edit_remove_reminder_and_duplicate() -> None:
    ep, d = episode([event("Gym", "2026-05-14T18:00:00", "2026-05-14T19:00:00", reminders=[5, 30])])
    d.tap(desc="14 May 2026", rid="day_monthly_holder")
    d.tap(rid="event_item_holder")
    assert d.texts(rid="event_reminder_1") == ["5 minutes before"]
    assert d.texts(rid="event_reminder_3") == ["Add another reminder"]
    d.tap(rid="event_reminder_1")
    d.tap(text="No reminder")  # the second one moves up
    assert d.texts(rid="event_reminder_1") == ["30 minutes before"]
    d.type("Fit Hub", rid="event_location")
    d.tap(desc="Save")
    assert events_of(ep)[0]["reminders"] == [30] and events_of(ep)[0]["location"] == "Fit Hub"
    assert ep.phone.toast == "Event updated successfully"
    d.tap(rid="event_item_holder")
    d.tap(desc="Duplicate event")
    assert d.texts(pattern="New Event") == ["New Event"]
    d.type("Gym (copy)", rid="event_title")
    d.tap(desc="Save")
    assert [e["title"] for e in events_of(ep)] == ["Gym", "Gym (copy)"]


def test_delete_asks_first() -> None:
    ep, d = episode(some())
    d.tap(desc="18 May 2026", rid="day_monthly_holder")
    d.tap(rid="event_item_holder")
    d.tap(desc="Delete")
    assert d.has(text="Are you sure you want to proceed with the deletion?")
    d.tap(text="NO")
    assert len(events_of(ep)) == 3 and activity(ep) == "EventActivity"
    d.tap(desc="Delete")
    d.tap(text="YES")
    assert [e["title"] for e in events_of(ep)] == ["Standup", "Trip"]
    assert activity(ep) == "MainActivity" and not d.has(rid="event_item_holder")


def test_long_press_selects_and_deletes_several() -> None:
    day = [
        event("Call", "2026-05-20T09:00:00"),
        event("Lunch", "2026-05-20T12:00:00"),
        event("Yoga", "2026-05-20T18:30:00"),
        event("Yoga", "2026-05-21T18:30:00"),
    ]
    ep, d = episode(day)
    d.tap(desc="20 May 2026", rid="day_monthly_holder")
    d.long_press(text="Call", rid="event_item_title")
    assert d.has(text="1 selected") and not d.has(desc="New Event")
    d.back()  # ends the selection
    assert d.texts(rid="top_value") == ["May 20 (Wed)"] and not d.has(text="1 selected")
    d.long_press(text="Call", rid="event_item_title")
    d.tap(text="Yoga", rid="event_item_title")
    d.tap(text="Lunch", rid="event_item_title")
    d.tap(text="Lunch", rid="event_item_title")  # a second tap drops it again
    assert d.has(text="2 selected")
    d.tap(desc="Delete")
    d.tap(text="NO")
    assert len(events_of(ep)) == 4 and d.has(text="2 selected")
    d.tap(desc="Delete")
    d.tap(text="YES")
    assert [(e["title"], e["start"][:10]) for e in events_of(ep)] == [
        ("Lunch", "2026-05-20"),
        ("Yoga", "2026-05-21"),
    ]
    assert ep.phone.toast == "Events deleted successfully"
    assert d.texts(rid="event_item_title") == ["Lunch"] and activity(ep) == "MainActivity"


# ------------------------------------------------------------------ search
def test_search_is_live_and_opens_events() -> None:
    ep, d = episode([*some(), event("Gym class", "2026-04-01T07:00:00")])
    d.tap(desc="Search")
    d.type("g")
    assert d.has(text="Type in at least 2 characters to start the search.")
    d.type("gy")
    assert d.texts(rid="event_item_title") == ["Gym class", "Gym"]
    d.type("xyz")
    assert d.has(text="No items found.") and not d.has(rid="search_placeholder_2")
    d.tap(desc="Clear query")
    d.type("hub")  # the location matches too
    d.tap(text="Gym", rid="event_item_title")
    assert activity(ep) == "EventActivity" and d.texts(rid="event_location") == ["Fit Hub"]


# ------------------------------------------------------------------ settings
def test_settings_24_hours_and_delete_all() -> None:
    ep, d = episode(some())
    d.tap(desc="More options")
    d.tap(text="Settings")
    d.tap(text="Use 24-hour time format")
    assert setting(ep, "use_24h") is True
    d.tap(text="Start week on Sunday")
    assert setting(ep, "start_week_on_sunday") is False
    d.tap(text="Delete all events")
    d.tap(text="NO")
    assert len(events_of(ep)) == 3
    d.tap(text="Default reminder")
    d.tap(text="30 minutes before")
    assert setting(ep, "default_reminder") == 30
    d.back()
    assert d.texts(rid="week_letter")[0] == "M"
    d.tap(desc="18 May 2026", rid="day_monthly_holder")
    assert d.texts(rid="event_item_time") == ["18:00 - 19:00"]
    d.tap(desc="New Event")
    assert d.texts(rid="event_reminder_1") == ["30 minutes before"]
    d.tap(desc="Navigate up")
    d.back()
    d.tap(desc="More options")
    d.tap(text="Settings")
    d.tap(text="Delete all events")
    d.tap(text="YES")
    assert events_of(ep) == []


def test_list_shows_description_or_location_and_week_numbers() -> None:
    gym = event("Gym", "2026-05-18T18:00:00", location="Fit Hub", description="Leg day")
    ep, d = episode([gym], view="list")
    assert d.texts(rid="event_section_title") == ["May 18 (Mon)"]
    assert d.texts(rid="event_item_description") == ["Leg day"]
    d.tap(desc="More options")
    d.tap(text="Settings")
    d.act(
        {
            "action_type": "click",
            "index": d.scroll_to(text="Replace event description with location"),
        }
    )
    d.act({"action_type": "click", "index": d.scroll_to(text="Show week numbers")})
    assert setting(ep, "replace_description") is True and setting(ep, "show_week_numbers")
    d.back()
    assert d.texts(rid="event_item_description") == ["Fit Hub"]
    d.tap(desc="Change view")
    d.tap(text="Monthly view")
    assert d.texts(rid="week_num")[:2] == ["18", "19"]  # ISO weeks of the first two rows


def test_event_types_add_rename_and_choose() -> None:
    ep, d = episode([event("Pay rent", "2026-05-20T09:00:00", event_type="Bills")])
    ep.phone.state["calendar"] = AppData(
        {"events": events_of(ep), "event_types": [{"title": "Bills", "color": "#FF9800"}]},
        ep.phone.state["calendar"].settings,
    )
    ep.phone.invalidate()
    d.tap(desc="More options")
    d.tap(text="Settings")
    d.tap(text="Manage event types")
    assert d.texts(rid="event_type_title") == ["Regular event", "Bills"]
    d.tap(desc="Add a new type")
    d.tap(text="OK")
    assert ep.phone.toast == "Title cannot be empty"
    d.type("bills", rid="type_title")
    d.tap(text="OK")
    assert ep.phone.toast == "Event type with this title already exists"
    d.type("Sports", rid="type_title")
    d.tap(text="OK")
    d.tap(text="Bills")
    d.type("Payments", rid="type_title")
    d.tap(text="OK")
    types = ep.phone.state["calendar"].collections["event_types"]
    assert [t["title"] for t in types] == ["Payments", "Sports"]
    assert events_of(ep)[0]["event_type"] == "Payments"
    d.back()
    d.back()
    d.tap(desc="New Event")
    d.type("Football", rid="event_title")
    d.back()  # the keyboard hides the lower rows
    d.act({"action_type": "click", "index": d.scroll_to(rid="event_type")})
    d.tap(text="Sports")
    d.tap(desc="Save")
    assert events_of(ep)[-1]["event_type"] == "Sports"


def test_invalid_actions_are_reported() -> None:
    ep, d = episode(some())
    out = ep.step({"action_type": "input_text", "text": "x"})
    assert not out.ok
    out = ep.step({"action_type": "click", "index": 10_000})
    assert not out.ok
    out = ep.step({"action_type": "input_text", "text": "x", "index": d.need(desc="New Event")})
    assert not out.ok and "not a text field" in out.info
    assert len(events_of(ep)) == 3
