"""PhoneWorld's Tasks.org (org.tasks): the reference solutions of the Tasks library tasks,
the screens' XML, and completing, adding, editing, deleting, clearing, sorting, searching,
filtering and scrolling through real actions."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tasklang import ir
from tasklang.compiler import Compiler
from tasklang.envs.phoneworld.app import AppData
from tasklang.envs.phoneworld.apps.tasks import date_label, due_label, time_label
from tasklang.envs.phoneworld.episode import Episode, run_nothing, run_reference
from tasklang.envs.phoneworld.solutions.base import Driver
from tasklang.verifiers.snapshot import parse_ui_xml

ROOT = Path(__file__).resolve().parents[1]
PKG = "org.tasks"
TASKS = (
    "tasks.complete_due_today",
    "tasks.add_high_priority",
    "tasks.clear_completed_list",
    "tasks.due_on_date",
)


@cache
def compiled(task_id: str) -> ir.CompiledTask:
    path = ROOT / "task_library" / "app" / f"{task_id}.task"
    return Compiler().compile_paths([path]).tasks[0]


@pytest.mark.parametrize("task_id", TASKS)
def test_reference_solves_every_instance(task_id: str) -> None:
    for seed in range(6):  # `tasklang test` tries 20
        verdict, _ = run_reference(compiled(task_id), seed)
        failed = [(r.id, r.summary) for r in verdict.clauses if not r.passed]
        assert not failed, (seed, failed)
        assert verdict.success, (seed, verdict.notes)


@pytest.mark.parametrize("task_id", TASKS)
def test_doing_nothing_fails(task_id: str) -> None:
    for seed in range(6):  # `tasklang test` tries 20
        assert not run_nothing(compiled(task_id), seed).success


# ------------------------------------------------------------------ helpers
def task(title: str, **kw: Any) -> dict[str, Any]:
    record = {
        "title": title,
        "notes": "",
        "due": None,
        "due_time": None,
        "priority": "none",
        "completed": False,
        "completed_at": None,
        "list": "Default list",
        "created": "2026-05-01T09:00:00",
    }
    record.update(kw)
    return record


def episode(
    tasks: list[dict[str, Any]] | None = None, lists: list[str] | None = None, **settings: Any
) -> tuple[Episode, Driver]:
    """Tasks open on a phone whose clock reads 2026-05-14 08:30 (a Thursday)."""
    ep = Episode(compiled("tasks.complete_due_today"), 0)
    assert ep.instance is not None
    data = ep.phone.state["tasks"]
    ep.phone.state["tasks"] = AppData(
        {"tasks": list(tasks or []), "lists": [{"name": n} for n in lists or []]},
        {**data.settings, **settings},
    )
    ep.phone.invalidate()
    d = Driver(ep.tree, ep.step, ep.instance.params)
    d.open("Tasks")
    return ep, d


def records(ep: Episode) -> list[dict[str, Any]]:
    return ep.phone.state["tasks"].collections["tasks"]


def titles(d: Driver) -> list[str]:
    return d.texts(rid="title")


def xml_ok(ep: Episode) -> None:
    _, elements = parse_ui_xml(ep.xml())
    assert elements and all(e.package for e in elements)
    assert any(e.package == PKG and e.resource_id.startswith(f"{PKG}:id/") for e in elements)


def box(d: Driver, title: str) -> int:
    """The element index of the completion box of the row titled ``title``."""
    nodes = list(d.observe().walk())
    for i, v in enumerate(nodes):
        if v.rid.endswith(":id/rowBody") and any(
            x.rid.endswith(":id/title") and x.text == title for x in v.walk()
        ):
            inner = list(v.walk())
            return i + next(j for j, x in enumerate(inner) if x.rid.endswith(":id/completeBox"))
    raise AssertionError(f"no row {title!r}")


def click(d: Driver, index: int) -> None:
    d.act({"action_type": "click", "index": index})


def week() -> list[dict[str, Any]]:
    return [
        task("Buy milk", due="2026-05-14", created="2026-05-10T08:00:00"),
        task("Dentist", due="2026-05-14", due_time="15:00:00", priority="high", list="Home"),
        task("Old report", due="2026-05-12", list="Work", notes="Q1 numbers\nfrom Ana"),
        task("Gym", due="2026-05-15", priority="low"),
        task("Someday", created="2026-05-13T10:00:00"),
        task("Done thing", completed=True, completed_at="2026-05-13T18:00:00", list="Work"),
    ]


# ------------------------------------------------------------------ formatting
def test_dates_and_times_as_the_app_shows_them() -> None:
    import datetime as dt

    today = dt.date(2026, 5, 14)
    assert date_label(today, today) == "Today"
    assert date_label(dt.date(2026, 5, 15), today) == "Tomorrow"
    assert date_label(dt.date(2026, 5, 13), today) == "Yesterday"
    assert date_label(dt.date(2026, 5, 20), today) == "Wed, May 20"
    assert date_label(dt.date(2027, 1, 2), today) == "Jan 2, 2027"
    assert time_label("09:05:00") == "9:05 AM" and time_label("00:30:00") == "12:30 AM"
    assert due_label("2026-05-14", "17:00:00", today) == "Today, 5:00 PM"
    assert due_label(None, "17:00:00", today) == ""


# ------------------------------------------------------------------ screens
def test_every_screen_produces_parseable_xml() -> None:
    ep, d = episode(week(), ["Home", "Work"])
    xml_ok(ep)
    assert ep.phone.current_activity() == (PKG, "com.todoroo.astrid.activity.MainActivity")
    assert d.has(rid="fab", desc="Create new task") and d.has(rid="recycler_view")
    d.tap(desc="Open navigation drawer")
    xml_ok(ep)
    d.back()
    d.tap(desc="Search")
    xml_ok(ep)
    d.back()
    d.back()
    d.tap(text="Gym", rid="title")
    xml_ok(ep)
    assert d.has(rid="notes") and d.has(rid="priority_low", checked=True)
    d.tap(rid="due_date")
    xml_ok(ep)
    assert d.texts(rid="month_title") == ["May 2026"]
    d.tap(text="Cancel")
    d.tap(desc="More options")
    xml_ok(ep)


def test_list_order_chips_and_descriptions() -> None:
    _, d = episode(week(), ["Home", "Work"])
    # open tasks by due date (no date last); completed ones hidden
    assert titles(d) == ["Old report", "Buy milk", "Dentist", "Gym", "Someday"]
    assert d.texts(rid="due_date") == ["Tue, May 12", "Today", "Today, 3:00 PM", "Tomorrow"]
    assert d.texts(rid="description") == ["Q1 numbers"]
    assert "Work" in d.texts(rid="chip_list")


# ------------------------------------------------------------------ completing
def test_checking_a_task_completes_and_hides_it() -> None:
    ep, d = episode(week())
    click(d, box(d, "Buy milk"))
    milk = records(ep)[0]
    assert milk["completed"] is True and milk["completed_at"] == "2026-05-14T08:30:00"
    assert "Buy milk" not in titles(d)
    d.tap(desc="More options")
    d.tap(text="Show completed")
    assert ep.phone.state["tasks"].settings["show_completed"] is True
    assert d.has(text="Completed", rid="header")
    assert titles(d)[-2:] == ["Buy milk", "Done thing"]  # the latest completion first
    click(d, box(d, "Buy milk"))  # unchecking reopens it
    assert records(ep)[0]["completed"] is False and records(ep)[0]["completed_at"] is None


# ------------------------------------------------------------------ adding and editing
def test_adding_a_task_with_date_time_priority_list_and_description() -> None:
    ep, d = episode(week(), ["Home", "Work"])
    d.tap(desc="Create new task")
    assert ep.phone.focus is not None and ep.phone.keyboard  # the title field has the focus
    d.type("Call the bank")
    d.back()
    d.tap(rid="due_date")
    d.tap(text="Tomorrow")
    d.tap(text="5:00 PM")
    d.tap(text="OK")
    assert d.texts(rid="due_date") == ["Tomorrow, 5:00 PM"]
    d.tap(rid="priority_medium")
    d.tap(rid="chip_list")
    d.tap(text="Work", rid="list_name")
    d.type("Ask about the fee", rid="notes")
    d.back()
    d.tap(desc="Save")
    assert records(ep)[-1] == task(
        "Call the bank",
        notes="Ask about the fee",
        due="2026-05-15",
        due_time="17:00:00",
        priority="medium",
        list="Work",
        created="2026-05-14T08:30:00",
    )
    assert "Call the bank" in titles(d)


def test_calendar_pages_months_and_picks_a_day() -> None:
    ep, d = episode()
    d.tap(desc="Create new task")
    d.type("Trip")
    d.back()
    d.tap(rid="due_date")
    d.tap(desc="Next month")
    d.tap(desc="Next month")
    assert d.texts(rid="month_title") == ["July 2026"]
    d.tap(desc="Previous month")
    d.tap(desc="Sat, Jun 20, 2026")
    assert d.find(desc="Sat, Jun 20, 2026") is not None
    d.tap(text="OK")
    assert d.texts(rid="due_date") == ["Sat, Jun 20"]
    d.tap(rid="due_date")
    d.tap(text="No date")
    d.tap(text="OK")
    assert d.texts(rid="due_date") == ["Due date"]
    d.tap(rid="due_date")
    d.tap(desc="Fri, May 22, 2026")
    d.tap(text="Cancel")  # nothing changes
    assert d.texts(rid="due_date") == ["Due date"]
    d.tap(desc="Save")
    assert records(ep)[-1]["due"] is None and records(ep)[-1]["due_time"] is None


def test_empty_new_task_and_back_discard() -> None:
    ep, d = episode(week())
    d.tap(desc="Create new task")
    d.tap(desc="Save")  # no title: nothing is saved
    assert len(records(ep)) == 6
    d.tap(desc="Create new task")
    d.type("Not kept")
    d.back()  # the keyboard
    d.back()  # the editor, without saving
    assert len(records(ep)) == 6 and "Not kept" not in titles(d)


def test_editing_a_task() -> None:
    ep, d = episode(week(), ["Home", "Work"])
    d.tap(text="Gym", rid="title")
    assert d.texts(rid="title") == ["Gym"]
    d.type("Gym: legs day", rid="title")
    d.back()
    d.tap(rid="priority_high")
    d.tap(rid="completeBox")
    d.tap(desc="Save")
    gym = records(ep)[3]
    assert gym["title"] == "Gym: legs day" and gym["priority"] == "high"
    assert gym["completed"] is True and gym["completed_at"] == "2026-05-14T08:30:00"
    assert gym["due"] == "2026-05-15" and gym["created"] == "2026-05-01T09:00:00"
    assert "Gym: legs day" not in titles(d)  # completed: hidden


def test_deleting_a_task_asks_first() -> None:
    ep, d = episode(week())
    d.tap(text="Someday", rid="title")
    d.tap(desc="More options")
    d.tap(text="Delete")
    assert d.has(text="Delete task?")
    d.tap(text="Cancel")
    assert len(records(ep)) == 6
    d.tap(desc="More options")
    d.tap(text="Delete")
    d.tap(text="Delete")
    assert [t["title"] for t in records(ep)] == [
        "Buy milk",
        "Dentist",
        "Old report",
        "Gym",
        "Done thing",
    ]
    assert ep.phone.toast == "Task deleted" and d.has(desc="Create new task")


def test_selecting_and_deleting_several_tasks() -> None:
    ep, d = episode(week())
    d.long_press(text="Gym", rid="title")
    assert d.texts(rid="toolbar_title") == ["1 selected"]
    d.tap(text="Someday", rid="title")  # taps now select
    d.tap(text="Gym", rid="title")  # and unselect
    d.tap(text="Buy milk", rid="title")
    assert d.texts(rid="toolbar_title") == ["2 selected"]
    d.tap(desc="Delete")
    assert d.has(text="Delete 2 tasks?")
    d.tap(text="Cancel")
    assert len(records(ep)) == 6 and d.texts(rid="toolbar_title") == ["2 selected"]
    d.tap(desc="Delete")
    d.tap(text="Delete")
    assert [t["title"] for t in records(ep)] == ["Dentist", "Old report", "Gym", "Done thing"]
    assert ep.phone.toast == "Deleted 2 tasks" and d.texts(rid="toolbar_title") == ["My Tasks"]
    d.long_press(text="Gym", rid="title")
    d.tap(desc="Select all")
    assert d.texts(rid="toolbar_title") == ["3 selected"]  # the completed one is hidden
    d.tap(desc="Done")
    assert d.texts(rid="toolbar_title") == ["My Tasks"] and len(records(ep)) == 4
    d.tap(text="Gym", rid="title")  # a plain tap opens the editor again
    assert d.has(rid="notes")


# ------------------------------------------------------------------ menu
def test_clear_completed_in_the_current_filter_only() -> None:
    data = [*week(), task("Done at home", completed=True, list="Home")]
    ep, d = episode(data, ["Home", "Work"])
    d.tap(desc="Open navigation drawer")
    d.tap(text="Work", rid="title")
    assert d.texts(rid="toolbar_title") == ["Work"]
    d.tap(desc="More options")
    d.tap(text="Clear completed")
    assert d.has(text="Delete 1 completed task?")
    d.tap(text="Cancel")
    assert len(records(ep)) == 7
    d.tap(desc="More options")
    d.tap(text="Clear completed")
    d.tap(text="OK")
    assert [t["title"] for t in records(ep) if t["completed"]] == ["Done at home"]
    d.tap(desc="More options")
    d.tap(text="Clear completed")  # nothing left to clear here
    assert ep.phone.toast == "No completed tasks" and ep.phone.dialog is None


def test_sorting() -> None:
    ep, d = episode(week())
    d.tap(desc="More options")
    d.tap(text="Sort")
    d.tap(text="Alphabetical")
    assert ep.phone.state["tasks"].settings["sort"] == "title"
    assert titles(d) == ["Buy milk", "Dentist", "Gym", "Old report", "Someday"]
    d.tap(desc="More options")
    d.tap(text="Sort")
    d.tap(text="Priority")
    assert titles(d)[:2] == ["Dentist", "Gym"]


# ------------------------------------------------------------------ drawer, search, scrolling
def test_drawer_filters_and_new_list() -> None:
    ep, d = episode(week(), ["Home", "Work"])
    d.tap(desc="Open navigation drawer")
    assert d.texts(rid="title") == ["My Tasks", "Today", "Default list", "Home", "Work", "New list"]
    d.tap(text="Today", rid="title")
    assert titles(d) == ["Old report", "Buy milk", "Dentist"]  # overdue and due today
    d.tap(desc="Create new task")
    d.type("Today's thing")
    d.tap(desc="Save")
    assert records(ep)[-1]["due"] == "2026-05-14"
    d.tap(desc="Open navigation drawer")
    d.tap(text="New list")
    d.type("Home")
    d.tap(text="Save")
    assert ep.phone.toast == "List already exists"
    d.tap(text="New list")
    d.type("Garden")
    d.tap(text="Save")
    assert ep.phone.state["tasks"].collections["lists"][-1] == {"name": "Garden"}
    assert d.texts(rid="toolbar_title") == ["Garden"] and d.has(text="No tasks")
    d.tap(desc="Create new task")
    d.type("Plant tulips")
    d.tap(desc="Save")
    assert records(ep)[-1]["list"] == "Garden"


def test_search_finds_titles_and_descriptions_including_completed() -> None:
    _, d = episode(week())
    d.tap(desc="Search")
    d.type("ana")  # the search field has the focus
    assert titles(d) == ["Old report"]
    d.type("thing")
    assert titles(d) == ["Done thing"]
    d.type("zzz")
    assert d.has(text="No tasks")


def test_long_lists_scroll() -> None:
    many = [task(f"Task {n:02d}", due=f"2026-05-{n:02d}") for n in range(1, 26)]
    _, d = episode(many)
    first = titles(d)
    assert first[0] == "Task 01" and "Task 25" not in first
    d.scroll_to(text="Task 25", rid="title")
    assert "Task 01" not in titles(d)


def test_invalid_actions_are_reported() -> None:
    ep, d = episode(week())
    out = ep.step({"action_type": "input_text", "text": "x", "index": d.need(rid="fab")})
    assert not out.ok and "not a text field" in out.info
    out = ep.step({"action_type": "click", "index": 10_000})
    assert not out.ok
    assert records(ep) == week()
