"""PhoneWorld's Pro Expense (com.arduia.expense): the reference solutions of the Pro Expense
library tasks, the screens' XML, and adding, editing, deleting (one, or a selection),
statistics, the currency setting and scrolling through real actions."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tasklang import ir
from tasklang.compiler import Compiler
from tasklang.envs.phoneworld.app import AppData
from tasklang.envs.phoneworld.apps.expense import amount_text, parse_amount
from tasklang.envs.phoneworld.episode import Episode, run_nothing, run_reference
from tasklang.envs.phoneworld.solutions.base import Driver
from tasklang.verifiers.snapshot import parse_ui_xml

ROOT = Path(__file__).resolve().parents[1]
PKG = "com.arduia.expense"
TASKS = (
    "expense.add_expenses",
    "expense.delete_duplicates",
    "expense.category_total",
    "expense.fix_amount",
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
def exp(name: str, cents: int, category: str, date: str, note: str = "") -> dict[str, Any]:
    return {"name": name, "amount": cents, "category": category, "note": note, "date": date}


def episode(expenses: list[dict[str, Any]] | None = None) -> tuple[Episode, Driver]:
    """Pro Expense open on a phone whose clock reads 2026-05-14 12:40 (a Thursday)."""
    ep = Episode(compiled("expense.add_expenses"), 0)
    assert ep.instance is not None
    data = ep.phone.state["expense"]
    ep.phone.state["expense"] = AppData({"expenses": list(expenses or [])}, dict(data.settings))
    ep.phone.invalidate()
    d = Driver(ep.tree, ep.step, ep.instance.params)
    d.open("Pro Expense")
    return ep, d


def records(ep: Episode) -> list[dict[str, Any]]:
    return ep.phone.state["expense"].collections["expenses"]


def xml_ok(ep: Episode) -> None:
    _, elements = parse_ui_xml(ep.xml())
    assert elements and all(e.package for e in elements)
    assert any(e.package == PKG and e.resource_id.startswith(f"{PKG}:id/") for e in elements)


def some() -> list[dict[str, Any]]:
    return [
        exp("Salary", 300000, "income", "2026-05-01"),
        exp("Groceries", 5410, "food", "2026-05-12", "Weekly shop"),
        exp("Taxi", 1600, "transportation", "2026-05-13"),
        exp("Lunch", 1250, "food", "2026-05-14"),
        exp("Cinema", 2400, "entertainment", "2026-04-20"),
        exp("Old rent", 120000, "housing", "2026-04-01"),
    ]


# ------------------------------------------------------------------ formatting
def test_amounts_as_shown_and_as_typed() -> None:
    assert amount_text(125000) == "1,250.00" and amount_text(5) == "0.05"
    assert parse_amount("12.5") == 1250 and parse_amount("$1,200") == 120000
    assert parse_amount("7") == 700 and parse_amount("1.234") is None
    assert parse_amount("ten") is None and parse_amount("") is None


# ------------------------------------------------------------------ screens
def test_every_screen_produces_parseable_xml() -> None:
    ep, d = episode(some())
    xml_ok(ep)
    assert ep.phone.current_activity() == (PKG, "com.arduia.expense.ui.MainActivity")
    assert d.has(rid="fb_add") and d.has(rid="rv_recent") and d.has(rid="btn_recent_more")
    d.tap(desc="Open navigation drawer")
    xml_ok(ep)
    d.tap(text="Expense Logs")
    xml_ok(ep)
    d.tap(text="Taxi", rid="tv_name")
    xml_ok(ep)
    assert d.has(text="Expense Detail") and d.texts(rid="tv_amount_value") == ["$ 16.00"]
    d.tap(text="Edit")
    xml_ok(ep)
    assert d.texts(rid="tv_entry_title") == ["Update Data"]
    d.tap(rid="tv_category")
    xml_ok(ep)
    d.back()
    d.tap(rid="tv_date")
    xml_ok(ep)
    d.tap(text="Cancel")
    d.back()
    d.tap(desc="Navigate up")
    d.tap(desc="Open navigation drawer")
    d.tap(text="Statistics")
    xml_ok(ep)
    d.tap(desc="Navigate up")
    d.tap(desc="Open navigation drawer")
    d.tap(text="Settings")
    xml_ok(ep)


def test_home_shows_the_week_and_the_recent_expenses() -> None:
    _, d = episode(some())
    # Sunday 10 May .. today, income left out
    assert d.texts(rid="tv_value") == ["82.60"]
    assert d.texts(rid="tv_name") == ["Lunch", "Taxi", "Groceries", "Salary", "Cinema", "Old rent"]
    assert d.texts(rid="tv_date")[:2] == ["14/5/2026", "13/5/2026"]
    _, d = episode()
    assert d.has(text="No spending logged yet this month") and d.texts(rid="tv_value") == ["0.00"]


# ------------------------------------------------------------------ adding and editing
def test_adding_an_expense() -> None:
    ep, d = episode(some())
    d.tap(rid="fb_add")
    assert d.texts(rid="tv_entry_title") == ["Expense Entry"]
    d.tap(rid="btn_save")
    assert ep.phone.toast == "Cost is Empty" and len(records(ep)) == 6
    d.type("Bike repair", rid="edt_name")
    d.type("twelve", rid="edt_amount")
    d.back()
    d.tap(rid="btn_save")
    assert ep.phone.toast == "Invalid Amount" and len(records(ep)) == 6
    d.type("35.5", rid="edt_amount")
    d.back()
    d.tap(rid="tv_category")
    d.tap(text="Transportation", rid="tv_category_name")
    assert d.texts(rid="tv_category") == ["Transportation"]
    d.type("New chain", rid="edt_note")
    d.back()
    d.tap(rid="tv_date")
    d.tap(desc="Previous month")
    d.tap(desc="Tue, Apr 28, 2026")
    d.tap(text="OK")
    assert d.texts(rid="tv_date") == ["28/4/2026"]
    d.tap(rid="btn_save")
    assert records(ep)[-1] == exp("Bike repair", 3550, "transportation", "2026-04-28", "New chain")
    assert d.has(rid="fb_add")


def test_close_discards_the_entry() -> None:
    ep, d = episode(some())
    d.tap(rid="fb_add")
    d.type("Nothing", rid="edt_name")
    d.type("3", rid="edt_amount")
    d.back()
    d.tap(desc="Close")
    assert len(records(ep)) == 6 and d.has(rid="fb_add")


def test_editing_from_the_detail_sheet() -> None:
    ep, d = episode(some())
    d.tap(text="Groceries", rid="tv_name")
    assert d.texts(rid="tv_note_value") == ["Weekly shop"]
    assert d.texts(rid="tv_category_value") == ["Food"]
    d.tap(text="Edit")
    assert d.texts(rid="edt_amount") == ["54.10"] and d.texts(rid="edt_name") == ["Groceries"]
    d.type("61.00", rid="edt_amount")
    d.back()
    d.tap(rid="tv_category")
    d.tap(text="Housing", rid="tv_category_name")
    d.tap(text="Update")
    assert records(ep)[1] == exp("Groceries", 6100, "housing", "2026-05-12", "Weekly shop")
    assert ep.phone.toast == "Data Updated!"


# ------------------------------------------------------------------ deleting
def test_deleting_from_the_detail_sheet_asks_first() -> None:
    ep, d = episode(some())
    d.tap(text="Taxi", rid="tv_name")
    d.tap(text="Delete")
    assert d.has(text="Delete Items") and d.has(text="1 item will be deleted!")
    d.tap(text="Cancel")
    assert len(records(ep)) == 6
    d.tap(text="Taxi", rid="tv_name")
    d.tap(text="Delete")
    d.tap(text="Confirm")
    assert "Taxi" not in [e["name"] for e in records(ep)] and len(records(ep)) == 5
    assert ep.phone.toast == "Item Deleted"


def test_selecting_and_deleting_in_the_logs() -> None:
    ep, d = episode(some())
    d.tap(text="More", rid="btn_recent_more")
    assert d.texts(rid="tv_date_header") == ["Today", "Yesterday", "12 May 2026", "1 May 2026",
                                            "20 Apr 2026", "1 Apr 2026"]  # fmt: skip
    d.long_press(text="Lunch", rid="tv_name")
    assert d.texts(rid="tv_title") == ["1 selected"]
    d.tap(text="Cinema", rid="tv_name")  # taps now select
    assert d.texts(rid="tv_title") == ["2 selected"]
    d.tap(text="Lunch", rid="tv_name")  # and unselect
    assert d.texts(rid="tv_title") == ["1 selected"]
    d.tap(desc="Close")
    assert d.texts(rid="tv_title") == ["Expense Logs"]
    d.long_press(text="Taxi", rid="tv_name")
    d.tap(text="Cinema", rid="tv_name")
    d.tap(desc="Delete")
    assert d.has(text="2 items will be deleted!")
    d.tap(text="Cancel")
    assert len(records(ep)) == 6 and d.texts(rid="tv_title") == ["2 selected"]
    d.tap(desc="Delete")
    d.tap(text="Confirm")
    assert [e["name"] for e in records(ep)] == ["Salary", "Groceries", "Lunch", "Old rent"]
    assert ep.phone.toast == "Items Deleted" and d.texts(rid="tv_title") == ["Expense Logs"]
    d.long_press(text="Lunch", rid="tv_name")
    d.tap(desc="Select All")
    assert d.texts(rid="tv_title") == ["4 selected"]
    d.tap(desc="Delete")
    d.tap(text="Confirm")
    assert records(ep) == [] and d.has(text="No Data")


def test_logs_scroll() -> None:
    many = [exp(f"Item {n:02d}", 100 * n, "food", f"2026-04-{n:02d}") for n in range(1, 26)]
    _, d = episode(many)
    d.tap(text="More", rid="btn_recent_more")
    assert d.texts(rid="tv_name")[0] == "Item 25" and "Item 01" not in d.texts(rid="tv_name")
    d.scroll_to(text="Item 01", rid="tv_name")
    assert "Item 25" not in d.texts(rid="tv_name")


# ------------------------------------------------------------------ statistics and settings
def test_statistics_per_category_and_month() -> None:
    _, d = episode(some())
    d.tap(desc="Open navigation drawer")
    d.tap(text="Statistics")
    assert d.texts(rid="tv_month") == ["May 2026"]
    assert d.texts(rid="tv_name") == ["Income", "Food", "Transportation"]
    assert d.texts(rid="tv_amount") == ["$ 3,000.00", "$ 66.60", "$ 16.00"]
    assert d.texts(rid="tv_percentage") == ["80.6%", "19.4%"]
    assert d.texts(rid="tv_total") == ["$ 82.60"]
    d.tap(desc="Previous month")
    assert d.texts(rid="tv_month") == ["April 2026"]
    assert d.texts(rid="tv_name") == ["Housing", "Entertainment"]
    d.tap(desc="Previous month")
    assert d.has(text="No Data") and d.texts(rid="tv_total") == ["$ 0.00"]
    d.tap(desc="Next month")
    d.tap(desc="Next month")
    d.tap(desc="Next month")
    assert d.texts(rid="tv_month") == ["June 2026"]


def test_currency_setting() -> None:
    ep, d = episode(some())
    d.tap(desc="Open navigation drawer")
    d.tap(text="Settings")
    assert d.texts(rid="tv_currency_value") == ["US Dollar ($)"]
    d.tap(rid="fl_currency")
    d.tap(text="Euro (€)")
    assert ep.phone.state["expense"].settings["currency"] == "eur"
    assert d.texts(rid="tv_currency_value") == ["Euro (€)"]
    d.tap(desc="Navigate up")
    assert set(d.texts(rid="tv_currency_symbol")) == {"€"}


def test_invalid_actions_are_reported() -> None:
    ep, d = episode(some())
    out = ep.step({"action_type": "input_text", "text": "x", "index": d.need(rid="fb_add")})
    assert not out.ok and "not a text field" in out.info
    out = ep.step({"action_type": "keyboard_enter"})  # nothing focused: nothing happens
    assert "no text field has the focus" in out.info
    out = ep.step({"action_type": "scroll", "direction": "sideways"})
    assert not out.ok
    # the home screen's recent list has no selection: a long press does nothing
    d.long_press(text="Taxi", rid="tv_name")
    assert ep.phone.dialog is None and d.texts(rid="tv_title") == ["Home"]
    assert records(ep) == some()
