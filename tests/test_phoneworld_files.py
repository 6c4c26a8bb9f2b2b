"""PhoneWorld's Files app (DocumentsUI): the reference solution of its tasks, the screens' XML,
and the handlers' behaviour through real actions."""

from __future__ import annotations

import datetime as dt
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tasklang import ir
from tasklang.compiler import Compiler
from tasklang.envs.phoneworld.app import App, AppData, Ctx, Route, Screen
from tasklang.envs.phoneworld.apps.files import (
    base_name,
    format_date,
    format_size,
    parent_of,
    top_folder,
)
from tasklang.envs.phoneworld.episode import Episode, run_nothing, run_reference
from tasklang.envs.phoneworld.solutions.base import Driver
from tasklang.envs.phoneworld.solutions.files import parse_size, read_listing
from tasklang.verifiers.snapshot import parse_ui_xml

ROOT = Path(__file__).resolve().parents[1]
TASKS = ["files.large_pdfs"]
PKG = "com.google.android.documentsui"


@cache
def compiled(task_id: str) -> ir.CompiledTask:
    path = ROOT / "task_library" / "app" / f"{task_id}.task"
    return Compiler().compile_paths([path]).tasks[0]


@pytest.mark.parametrize("task_id", TASKS)
def test_reference_solves_every_instance(task_id: str) -> None:
    for seed in range(6):  # `tasklang test` tries 20
        verdict, _ = run_reference(compiled(task_id), seed)
        failed = [(r.id, r.summary) for r in verdict.clauses if not r.passed]
        assert not failed, (seed, failed)  # every clause holds
        assert verdict.success, (seed, verdict.notes)


@pytest.mark.parametrize("task_id", TASKS)
def test_doing_nothing_fails(task_id: str) -> None:
    for seed in range(6):  # `tasklang test` tries 20
        assert not run_nothing(compiled(task_id), seed).success


# ------------------------------------------------------------------ a known storage
NOW = "2026-05-14T11:00:00"


def doc(
    path: str,
    size: int,
    modified: str,
    kind: str = "document",
    content: str | None = None,
    in_trash: bool = False,
) -> dict[str, Any]:
    return {
        "path": path,
        "name": base_name(path),
        "folder": top_folder(path),
        "kind": kind,
        "size": size,
        "modified": modified,
        "content": content,
        "starred": False,
        "in_trash": in_trash,
    }


def storage() -> dict[str, list[dict[str, Any]]]:
    return {
        "documents": [
            doc("/sdcard/Download/lease_agreement.pdf", 2482113, "2026-05-02T18:20:00"),
            doc("/sdcard/Download/boarding_pass.pdf", 184320, "2026-05-12T06:45:00"),
            doc("/sdcard/Download/holiday.jpg", 3801442, "2026-05-10T12:31:00", "image"),
            doc("/sdcard/Download/notes.txt", 20, "2026-05-14T09:30:00", content="Buy milk\nAna"),
            doc("/sdcard/Download/old.zip", 5000, "2026-01-02T10:00:00", "archive", None, True),
            doc("/sdcard/Documents/thesis_draft.pdf", 8120034, "2025-03-21T23:10:00"),
            doc("/sdcard/Documents/Work/plan.docx", 48210, "2026-05-13T21:07:00"),
            doc("/sdcard/Documents/Work/Old/memo.txt", 300, "2026-04-01T08:00:00"),
            doc("/sdcard/.hidden/secret.txt", 10, "2026-05-01T08:00:00"),
        ],
        "folders": [
            {"path": "/sdcard/Documents/Work", "name": "Work", "parent": "/sdcard/Documents"},
            {"path": "/sdcard/Documents/Empty", "name": "Empty", "parent": "/sdcard/Documents"},
        ],
    }


def episode(**settings: Any) -> tuple[Episode, Driver]:
    ep = Episode(compiled("files.large_pdfs"), 0)
    assert ep.instance is not None
    data = ep.phone.state["files"]
    ep.phone.state["files"] = AppData(storage(), {**data.settings, **settings})
    ep.phone.invalidate()
    return ep, Driver(ep.tree, ep.step, ep.instance.params)


def coll(ep: Episode, name: str) -> list[dict[str, Any]]:
    return ep.phone.state["files"].collections[name]


def docs(ep: Episode) -> dict[str, dict[str, Any]]:
    return {d["path"]: d for d in coll(ep, "documents")}


def settings(ep: Episode) -> dict[str, Any]:
    return ep.phone.state["files"].settings


def activity(ep: Episode) -> str:
    return ep.phone.current_activity()[1].rsplit(".", 1)[-1]


def titles(d: Driver) -> list[str]:
    return d.texts(rid="android:id/title")


def row(d: Driver, name: str) -> int:
    """The index of the list row (item_root) whose title is ``name``."""
    d.scroll_to(text=name, rid="android:id/title")
    tree = list(d.observe().walk())
    title = d.need(text=name, rid="android:id/title")
    return max(j for j in range(title) if tree[j].rid.endswith(":id/item_root"))


def tap_row(d: Driver, name: str) -> None:
    d.act({"action_type": "click", "index": row(d, name)})


def long_row(d: Driver, name: str) -> None:
    d.act({"action_type": "long_press", "index": row(d, name)})


def row_texts(d: Driver, name: str) -> dict[str, str]:
    tree = list(d.observe().walk())
    view = tree[row(d, name)]
    return {c.rid.rsplit("/", 1)[-1]: c.text for c in view.walk() if c.text}


def xml_ok(ep: Episode) -> None:
    _, elements = parse_ui_xml(ep.xml())
    assert elements and all(e.package for e in elements)


def consistent(ep: Episode) -> None:
    """Every record's path agrees with its name, folder and parent."""
    for d in coll(ep, "documents"):
        assert d["name"] == base_name(d["path"]) and d["folder"] == top_folder(d["path"]), d
    for f in coll(ep, "folders"):
        assert f["name"] == base_name(f["path"]) and f["parent"] == parent_of(f["path"]), f


def type_in_dialog(ep: Episode, d: Driver, text: str, clear: bool = False) -> None:
    field = d.need(rid="android:id/text1")
    ep.step({"action_type": "input_text", "index": field, "text": text, "clear_text": clear})


# ------------------------------------------------------------------ formatting
def test_sizes_and_dates_as_android_shows_them() -> None:
    assert format_size(0) == "0 B"
    assert format_size(850) == "850 B"
    assert format_size(184320) == "184 kB"
    assert format_size(37997) == "38.00 kB"
    assert format_size(2482113) == "2.48 MB"
    assert format_size(455786366) == "456 MB"
    assert format_size(1_500_000_000) == "1.50 GB"
    now = dt.datetime(2026, 5, 14, 11, 0)
    assert format_date("2026-05-14T09:05:00", now) == "9:05 AM"
    assert format_date("2026-05-14T18:20:00", now) == "6:20 PM"
    assert format_date("2026-05-02T18:20:00", now) == "May 2"
    assert format_date("2025-03-21T23:10:00", now) == "3/21/25"
    assert format_date("not a date", now) == ""
    assert parse_size("2.48 MB") == 2480000 and parse_size("184 kB") == 184000
    assert parse_size("nothing") is None


# ------------------------------------------------------------------ screens
def test_every_screen_produces_parseable_xml() -> None:
    ep, d = episode()
    xml_ok(ep)
    assert activity(ep) == "FilesActivity"
    assert ep.phone.current_activity()[0] == PKG
    d.tap(desc="More options")
    xml_ok(ep)
    d.tap(text="Sort by")
    xml_ok(ep)
    d.back()
    tap_row(d, "Download")
    xml_ok(ep)
    d.tap(desc="Grid view")
    xml_ok(ep)
    d.tap(desc="List view")
    long_row(d, "lease_agreement.pdf")
    xml_ok(ep)
    d.tap(desc="Delete")
    xml_ok(ep)
    d.back()
    d.tap(desc="Share")
    xml_ok(ep)
    d.back()
    d.tap(desc="More options")
    xml_ok(ep)
    d.tap(text="Rename")
    xml_ok(ep)
    d.back()
    d.tap(desc="More options")
    d.tap(text="Properties")
    xml_ok(ep)
    assert activity(ep) == "InspectorActivity"
    d.back()
    d.tap(desc="More options")
    d.tap(text="Move to…")
    xml_ok(ep)
    assert activity(ep) == "PickActivity"
    d.tap(text="Cancel")
    d.tap(desc="Done")
    tap_row(d, "notes.txt")
    xml_ok(ep)
    d.back()
    d.tap(desc="Search")
    xml_ok(ep)
    d.type("pdf", rid="search_src_text")
    xml_ok(ep)
    d.back()
    d.back()
    d.tap(desc="Show roots")
    xml_ok(ep)
    d.tap(text="Recent")
    xml_ok(ep)


def test_storage_root_lists_standard_and_implied_folders() -> None:
    _, d = episode()
    names = titles(d)
    assert names[:4] == ["Alarms", "Audiobooks", "DCIM", "Documents"]
    assert "Download" in names and ".hidden" not in names
    assert d.texts(rid="breadcrumb_text") == ["Internal storage"]
    assert row_texts(d, "Download")["summary"] == "4 items"  # the trashed zip is not counted
    assert d.has(desc="Grid view", cls="android.widget.Button")


def test_opening_a_folder_shows_its_rows_and_breadcrumb() -> None:
    ep, d = episode()
    tap_row(d, "Download")
    assert d.texts(rid="breadcrumb_text") == ["Internal storage", "Download"]
    assert titles(d) == ["boarding_pass.pdf", "holiday.jpg", "lease_agreement.pdf", "notes.txt"]
    lease = row_texts(d, "lease_agreement.pdf")
    assert lease["size"] == "2.48 MB" and lease["date"] == "May 2"
    assert lease["file_type"] == "PDF document"
    assert row_texts(d, "notes.txt")["date"] == "9:30 AM"  # today: the time
    tap_row(d, "notes.txt")  # a text file opens
    assert d.texts(rid="text") == ["Buy milk", "Ana"]
    d.back()
    tap_row(d, "holiday.jpg")
    assert ep.phone.toast == "Can’t open file"
    d.tap(text="Internal storage", rid="breadcrumb_text")
    assert d.texts(rid="breadcrumb_text") == ["Internal storage"]
    assert len(ep.phone.stacks["files"]) == 1  # back to the root, not a new screen


def test_nested_folders_and_back() -> None:
    ep, d = episode()
    tap_row(d, "Documents")
    assert titles(d) == ["Empty", "Work", "thesis_draft.pdf"]  # folders first
    assert row_texts(d, "thesis_draft.pdf")["date"] == "3/21/25"
    tap_row(d, "Work")
    tap_row(d, "Old")
    assert d.texts(rid="breadcrumb_text") == ["Internal storage", "Documents", "Work", "Old"]
    d.tap(text="Documents", rid="breadcrumb_text")
    assert titles(d)[:2] == ["Empty", "Work"]
    tap_row(d, "Empty")
    assert d.has(text="No items", rid="message")
    d.back()
    d.back()
    assert d.texts(rid="breadcrumb_text") == ["Internal storage"]
    out = ep.step({"action_type": "navigate_back"})
    assert out.ok and ep.phone.foreground is None  # the app closes


def test_sort_by_dialog_orders_rows() -> None:
    ep, d = episode()
    tap_row(d, "Download")
    d.tap(desc="More options")
    d.tap(text="Sort by")
    assert d.has(text="Name (A to Z)", checked=True)
    d.tap(text="Size (largest first)")
    assert ep.phone.dialog is None
    assert settings(ep)["sort_by"] == "size" and settings(ep)["sort_descending"] is True
    assert titles(d) == ["holiday.jpg", "lease_agreement.pdf", "boarding_pass.pdf", "notes.txt"]
    d.tap(desc="More options")
    d.tap(text="Sort by")
    d.tap(text="Modified (oldest first)")
    assert (settings(ep)["sort_by"], settings(ep)["sort_descending"]) == ("modified", False)
    assert titles(d) == ["lease_agreement.pdf", "holiday.jpg", "boarding_pass.pdf", "notes.txt"]
    d.tap(desc="More options")
    d.tap(text="Sort by")
    d.tap(text="Type (Z to A)")
    assert titles(d) == ["notes.txt", "lease_agreement.pdf", "boarding_pass.pdf", "holiday.jpg"]
    # a dismissed dialog changes nothing
    d.tap(desc="More options")
    d.tap(text="Sort by")
    d.back()
    assert settings(ep)["sort_by"] == "type" and ep.phone.dialog is None


def test_folders_stay_first_whatever_the_order() -> None:
    _, d = episode(sort_by="size", sort_descending=True)
    tap_row(d, "Documents")
    assert titles(d) == ["Work", "Empty", "thesis_draft.pdf"]


def test_grid_view_toggle() -> None:
    ep, d = episode()
    d.tap(desc="Grid view")
    assert settings(ep)["view"] == "grid"
    assert d.has(desc="List view") and not d.has(desc="Grid view")
    tap_row(d, "Download")
    assert "holiday.jpg" in titles(d)
    d.tap(desc="List view")
    assert settings(ep)["view"] == "list"


def test_hidden_files_toggle() -> None:
    ep, d = episode()
    d.tap(desc="More options")
    d.tap(text="Show hidden files")
    assert settings(ep)["show_hidden_files"] is True
    assert ".hidden" in titles(d)
    d.tap(desc="More options")
    d.tap(text="Hide hidden files")
    assert ".hidden" not in titles(d)


# ------------------------------------------------------------------ selection
def test_long_press_selects_and_back_ends_the_selection() -> None:
    _, d = episode()
    tap_row(d, "Download")
    long_row(d, "holiday.jpg")
    assert d.has(text="1 selected", rid="action_bar_title")
    assert list(d.observe().walk())[row(d, "holiday.jpg")].selected
    tap_row(d, "notes.txt")
    assert d.has(text="2 selected")
    tap_row(d, "notes.txt")
    assert d.has(text="1 selected")
    d.back()  # ends the selection, stays in the folder
    assert not d.has(rid="action_bar_title")
    assert d.texts(rid="breadcrumb_text")[-1] == "Download"
    long_row(d, "holiday.jpg")
    tap_row(d, "holiday.jpg")  # the last one off ends it too
    assert not d.has(rid="action_bar_title")
    long_row(d, "holiday.jpg")
    d.tap(desc="Done")
    assert not d.has(rid="action_bar_title") and titles(d)[0] == "boarding_pass.pdf"


def test_select_all() -> None:
    _, d = episode()
    tap_row(d, "Download")
    d.tap(desc="More options")
    d.tap(text="Select all")
    assert d.has(text="4 selected")
    tap_row(d, "holiday.jpg")
    d.tap(desc="More options")
    d.tap(text="Select all")
    assert d.has(text="4 selected")


def test_selection_keeps_the_scroll_position() -> None:
    ep, d = episode()
    extra = [doc(f"/sdcard/Music/track_{i:02d}.mp3", 1000 + i, NOW, "audio") for i in range(30)]
    data = ep.phone.state["files"]
    ep.phone.state["files"] = AppData(
        {**data.collections, "documents": [*data.collections["documents"], *extra]},
        data.settings,
    )
    ep.phone.invalidate()
    tap_row(d, "Music")
    rows = read_listing(d)
    assert len(rows) == 30 and rows["track_29.mp3"] == "1.03 kB"
    assert d.has(text="track_29.mp3")
    long_row(d, "track_29.mp3")
    assert d.has(text="1 selected") and d.has(text="track_29.mp3")


def test_delete_asks_first() -> None:
    ep, d = episode()
    tap_row(d, "Download")
    long_row(d, "lease_agreement.pdf")
    d.tap(desc="Delete")
    assert d.has(text='Delete "lease_agreement.pdf"?')
    d.tap(text="Cancel")
    assert "/sdcard/Download/lease_agreement.pdf" in docs(ep)
    assert d.has(text="1 selected")
    tap_row(d, "holiday.jpg")
    d.tap(desc="Delete")
    assert d.has(text="Delete 2 files?")
    d.tap(text="OK")
    assert "/sdcard/Download/lease_agreement.pdf" not in docs(ep)
    assert "/sdcard/Download/holiday.jpg" not in docs(ep)
    assert ep.phone.toast == "Deleting 2 files."
    assert titles(d) == ["boarding_pass.pdf", "notes.txt"] and not d.has(rid="action_bar_title")


def test_deleting_a_folder_deletes_what_it_holds() -> None:
    ep, d = episode()
    tap_row(d, "Documents")
    long_row(d, "Work")
    d.tap(desc="Delete")
    assert d.has(text='Delete folder "Work" and its contents?')
    d.tap(text="OK")
    assert not any(p.startswith("/sdcard/Documents/Work") for p in docs(ep))
    assert [f["path"] for f in coll(ep, "folders")] == ["/sdcard/Documents/Empty"]
    assert titles(d) == ["Empty", "thesis_draft.pdf"]


def test_standard_folders_cannot_be_deleted_or_renamed() -> None:
    ep, d = episode()
    long_row(d, "Download")
    assert not d.has(desc="Share")  # a folder cannot be shared
    d.tap(desc="Delete")
    assert ep.phone.dialog is None and ep.phone.toast == "File operation is not supported."
    d.tap(desc="More options")
    d.tap(text="Rename")
    assert ep.phone.toast == "File operation is not supported."
    assert len(coll(ep, "documents")) == 9


# ------------------------------------------------------------------ rename and new folder
def test_rename_a_document() -> None:
    ep, d = episode()
    tap_row(d, "Download")
    long_row(d, "notes.txt")
    d.tap(desc="More options")
    d.tap(text="Rename")
    assert d.has(text="Rename") and d.has(text="notes.txt", rid="android:id/text1")
    type_in_dialog(ep, d, "shopping.md")  # appends to the name, as on a phone
    assert ep.phone.forms[ep.phone.route().id]["rename_name"] == "notes.txtshopping.md"  # type: ignore[union-attr]
    type_in_dialog(ep, d, "shopping.md", clear=True)
    d.tap(text="OK")
    renamed = docs(ep)["/sdcard/Download/shopping.md"]
    assert renamed["name"] == "shopping.md" and renamed["folder"] == "Download"
    assert renamed["kind"] == "document" and renamed["content"] == "Buy milk\nAna"
    assert "/sdcard/Download/notes.txt" not in docs(ep)
    assert "shopping.md" in titles(d) and not d.has(rid="action_bar_title")
    consistent(ep)


def test_rename_changes_the_kind_with_the_extension_and_refuses_clashes() -> None:
    ep, d = episode()
    tap_row(d, "Download")
    long_row(d, "holiday.jpg")
    d.tap(desc="More options")
    d.tap(text="Rename")
    type_in_dialog(ep, d, "notes.txt", clear=True)
    d.tap(text="OK")
    assert ep.phone.toast == "A file with this name already exists."
    assert "/sdcard/Download/holiday.jpg" in docs(ep)
    d.tap(desc="More options")
    d.tap(text="Rename")
    type_in_dialog(ep, d, "", clear=True)
    d.tap(text="OK")
    assert ep.phone.toast == "Failed to rename document"
    d.tap(desc="More options")
    d.tap(text="Rename")
    type_in_dialog(ep, d, "holiday.zip", clear=True)
    d.tap(text="Cancel")  # cancel changes nothing
    assert "/sdcard/Download/holiday.jpg" in docs(ep)
    d.tap(desc="More options")
    d.tap(text="Rename")
    type_in_dialog(ep, d, "holiday.zip", clear=True)
    d.tap(text="OK")
    assert docs(ep)["/sdcard/Download/holiday.zip"]["kind"] == "archive"


def test_rename_a_folder_carries_its_contents() -> None:
    ep, d = episode()
    tap_row(d, "Documents")
    long_row(d, "Work")
    d.tap(desc="More options")
    d.tap(text="Rename")
    type_in_dialog(ep, d, "Job", clear=True)
    d.tap(text="OK")
    assert "/sdcard/Documents/Job/plan.docx" in docs(ep)
    assert "/sdcard/Documents/Job/Old/memo.txt" in docs(ep)
    assert {f["path"] for f in coll(ep, "folders")} == {
        "/sdcard/Documents/Job",
        "/sdcard/Documents/Empty",
    }
    assert titles(d) == ["Empty", "Job", "thesis_draft.pdf"]
    consistent(ep)


def test_new_folder() -> None:
    ep, d = episode()
    tap_row(d, "DCIM")
    d.tap(desc="More options")
    d.tap(text="New folder")
    assert d.has(text="New folder") and d.has(rid="android:id/text1")
    type_in_dialog(ep, d, "Agent_created")
    d.tap(text="OK")
    assert coll(ep, "folders")[-1] == {
        "path": "/sdcard/DCIM/Agent_created",
        "name": "Agent_created",
        "parent": "/sdcard/DCIM",
    }
    assert d.texts(rid="breadcrumb_text") == ["Internal storage", "DCIM", "Agent_created"]
    assert d.has(text="No items")
    d.back()
    assert titles(d) == ["Agent_created"]
    d.tap(desc="More options")
    d.tap(text="New folder")
    type_in_dialog(ep, d, "Agent_created")
    d.tap(text="OK")
    assert ep.phone.toast == "Failed to create folder" and len(coll(ep, "folders")) == 3
    d.tap(desc="More options")
    d.tap(text="New folder")
    d.tap(text="Cancel")
    assert len(coll(ep, "folders")) == 3


# ------------------------------------------------------------------ move, copy, properties
def test_move_a_document_through_the_picker() -> None:
    ep, d = episode()
    tap_row(d, "Download")
    long_row(d, "lease_agreement.pdf")
    d.tap(desc="More options")
    d.tap(text="Move to…")
    assert activity(ep) == "PickActivity"
    move = next(v for v in d.observe().walk() if v.text == "Move")
    assert not move.enabled  # moving into the folder it is in does nothing
    file_row = list(d.observe().walk())[row(d, "holiday.jpg")]
    assert not file_row.enabled  # files cannot be destinations
    d.tap(text="Internal storage", rid="breadcrumb_text")
    tap_row(d, "Documents")
    tap_row(d, "Work")
    d.tap(text="Move")
    moved = docs(ep)["/sdcard/Documents/Work/lease_agreement.pdf"]
    assert moved["folder"] == "Documents" and moved["size"] == 2482113
    assert moved["modified"] == "2026-05-02T18:20:00"
    assert "/sdcard/Download/lease_agreement.pdf" not in docs(ep)
    assert activity(ep) == "FilesActivity" and not d.has(rid="action_bar_title")
    assert "lease_agreement.pdf" not in titles(d)
    assert ep.phone.toast == "Moving 1 file."
    consistent(ep)


def test_move_a_folder_into_another() -> None:
    ep, d = episode()
    tap_row(d, "Documents")
    long_row(d, "Work")
    d.tap(desc="More options")
    d.tap(text="Move to…")
    assert not list(d.observe().walk())[row(d, "Work")].enabled  # not into itself
    tap_row(d, "Empty")
    d.tap(text="Move")
    assert "/sdcard/Documents/Empty/Work/Old/memo.txt" in docs(ep)
    assert {f["path"] for f in coll(ep, "folders")} == {
        "/sdcard/Documents/Empty/Work",
        "/sdcard/Documents/Empty",
    }
    consistent(ep)


def test_move_to_another_top_folder_updates_folder() -> None:
    ep, d = episode()
    tap_row(d, "Documents")
    long_row(d, "Work")
    d.tap(desc="More options")
    d.tap(text="Move to…")
    d.tap(text="Internal storage", rid="breadcrumb_text")
    tap_row(d, "Download")
    d.tap(text="Move")
    assert docs(ep)["/sdcard/Download/Work/plan.docx"]["folder"] == "Download"
    consistent(ep)


def test_copy_and_cancel() -> None:
    ep, d = episode()
    tap_row(d, "Download")
    long_row(d, "boarding_pass.pdf")
    d.tap(desc="More options")
    d.tap(text="Copy to…")
    d.tap(text="Cancel")
    assert d.has(text="1 selected") and len(coll(ep, "documents")) == 9
    d.tap(desc="More options")
    d.tap(text="Copy to…")
    d.tap(desc="Navigate up")  # leaves the picker too
    assert d.has(text="1 selected")
    d.tap(desc="More options")
    d.tap(text="Copy to…")
    d.tap(text="Copy")  # into the same folder: a second name
    copy = docs(ep)["/sdcard/Download/boarding_pass (1).pdf"]
    assert copy["size"] == 184320 and copy["name"] == "boarding_pass (1).pdf"
    assert copy["modified"] == ep.phone.clock.replace(microsecond=0).isoformat()
    assert "/sdcard/Download/boarding_pass.pdf" in docs(ep)
    assert ep.phone.toast == "Copying 1 file."
    consistent(ep)


def test_copy_a_folder_into_a_new_folder_made_in_the_picker() -> None:
    ep, d = episode()
    tap_row(d, "Documents")
    long_row(d, "Work")
    d.tap(desc="More options")
    d.tap(text="Copy to…")
    d.tap(desc="More options")
    d.tap(text="New folder")
    type_in_dialog(ep, d, "Backup")
    d.tap(text="OK")
    assert d.texts(rid="breadcrumb_text")[-1] == "Backup"
    d.tap(text="Copy")
    paths = docs(ep)
    assert "/sdcard/Documents/Backup/Work/Old/memo.txt" in paths
    assert "/sdcard/Documents/Work/Old/memo.txt" in paths
    assert {f["path"] for f in coll(ep, "folders")} >= {
        "/sdcard/Documents/Backup",
        "/sdcard/Documents/Backup/Work",
    }
    consistent(ep)


def test_properties_show_the_size() -> None:
    _, d = episode()
    tap_row(d, "Download")
    long_row(d, "lease_agreement.pdf")
    d.tap(desc="More options")
    d.tap(text="Properties")
    values = dict(zip(d.texts(rid="table_row_key"), d.texts(rid="table_row_value"), strict=True))
    assert values["Size"] == "2.48 MB (2,482,113 bytes)"
    assert values["Path"] == "/sdcard/Download/lease_agreement.pdf"
    assert values["Modified"] == "May 2, 2026, 6:20 PM"
    d.back()
    assert d.has(text="1 selected")
    tap_row(d, "holiday.jpg")
    d.tap(desc="More options")
    assert not d.has(text="Properties") and not d.has(text="Rename")  # one item only


# ------------------------------------------------------------------ search, roots, share
def test_search() -> None:
    ep, d = episode()
    d.tap(desc="Search")
    assert ep.phone.keyboard  # the field has the focus
    ep.step({"action_type": "input_text", "text": "PASS"})
    assert titles(d) == ["boarding_pass.pdf"]
    assert row_texts(d, "boarding_pass.pdf")["summary"] == "Download"
    d.enter()
    assert not ep.phone.keyboard
    d.type("zzz", rid="search_src_text")
    assert d.has(text="No matches in Internal storage")
    d.type("work", rid="search_src_text")
    tap_row(d, "Work")
    assert d.texts(rid="breadcrumb_text") == ["Internal storage", "Documents", "Work"]
    d.back()
    d.type("old", rid="search_src_text")
    assert titles(d) == ["Old"]  # the trashed old.zip is not found
    long_row(d, "Old")
    assert d.has(text="1 selected")


def test_drawer_roots() -> None:
    _, d = episode()
    d.tap(desc="Show roots")
    assert d.texts(rid="android:id/title") == [
        "Recent",
        "Images",
        "Videos",
        "Audio",
        "Documents",
        "Downloads",
        "Internal storage",
    ]
    d.tap(text="Images")
    assert titles(d) == ["holiday.jpg"]
    d.tap(desc="Show roots")
    d.tap(text="Recent")
    assert titles(d)[:3] == ["notes.txt", "plan.docx", "boarding_pass.pdf"]
    d.tap(desc="Show roots")
    d.tap(text="Downloads")
    assert d.texts(rid="breadcrumb_text") == ["Internal storage", "Download"]
    d.tap(desc="Show roots")
    d.tap(text="Internal storage")
    assert d.texts(rid="breadcrumb_text") == ["Internal storage"]
    d.tap(desc="Show roots")
    d.tap(text="Documents")
    long_row(d, "thesis_draft.pdf")
    d.tap(desc="More options")
    d.tap(text="Move to…")
    assert d.texts(rid="breadcrumb_text") == ["Internal storage", "Documents"]


class Receiver(App):
    model = "receiver"
    package = "com.example.receiver"
    label = "Receiver"
    activity = "com.example.receiver.MainActivity"

    def screen_main(self, ctx: Ctx, route: Route) -> Screen:
        return Screen("Receiver")

    def screen_share(self, ctx: Ctx, route: Route) -> Screen:
        return Screen(f"Got {', '.join(route.arg('names'))}")


def test_share_lists_apps_that_take_shares() -> None:
    ep, d = episode()
    tap_row(d, "Download")
    long_row(d, "lease_agreement.pdf")
    d.tap(desc="Share")
    takers = sorted(
        a.label for a in ep.phone.apps.values() if callable(getattr(a, "screen_share", None))
    )
    assert takers and all(d.has(text=label) for label in takers)
    d.back()
    for model in [m for m, a in ep.phone.apps.items() if hasattr(a, "screen_share")]:
        del ep.phone.apps[model]
    ep.phone.invalidate()
    d.tap(desc="Share")
    assert d.has(text="No apps can perform this action.")
    d.back()
    ep.phone.apps["receiver"] = Receiver()
    ep.phone.state["receiver"] = AppData({}, {})
    tap_row(d, "holiday.jpg")
    d.tap(desc="Share")
    d.tap(text="Receiver")
    assert ep.phone.foreground == "receiver"
    route = ep.phone.stacks["receiver"][-1]
    assert route.screen == "share" and route.arg("name") == "holiday.jpg"
    assert route.arg("names") == ("holiday.jpg", "lease_agreement.pdf")
    assert route.arg("size") == 3801442 and route.arg("kind") == "image"
    assert d.has(text="Got holiday.jpg, lease_agreement.pdf")
    assert ep.phone.stacks["files"][-1].screen == "main"  # the selection ended


# ------------------------------------------------------------------ invalid actions
def test_invalid_actions_are_reported() -> None:
    ep, d = episode()
    out = ep.step({"action_type": "input_text", "text": "x", "index": row(d, "Download")})
    assert not out.ok and "not a text field" in out.info
    out = ep.step({"action_type": "input_text", "text": "x"})
    assert not out.ok and "no text field" in out.info
    out = ep.step({"action_type": "click", "index": 10_000})
    assert not out.ok and "out of range" in out.info
    out = ep.step({"action_type": "scroll", "direction": "sideways"})
    assert not out.ok
    assert ep.phone.state["files"].collections == storage()  # nothing changed


def test_grid_view_selection_and_picker() -> None:
    ep, d = episode(view="grid")
    tap_row(d, "Download")
    cells = [v for v in d.observe().walk() if v.rid.endswith(":id/item_root")]
    assert len(cells) == 4 and cells[0].bounds[1] == cells[1].bounds[1]  # two a row
    long_row(d, "holiday.jpg")
    d.tap(desc="More options")
    d.tap(text="Select all")
    assert d.has(text="4 selected")
    xml_ok(ep)
    d.tap(desc="More options")
    d.tap(text="Move to…")
    xml_ok(ep)
    d.tap(text="Internal storage", rid="breadcrumb_text")
    tap_row(d, "Pictures")
    d.tap(text="Move")
    assert ep.phone.toast == "Moving 4 files."
    assert {p for p in docs(ep) if p.startswith("/sdcard/Pictures/")} == {
        "/sdcard/Pictures/boarding_pass.pdf",
        "/sdcard/Pictures/holiday.jpg",
        "/sdcard/Pictures/lease_agreement.pdf",
        "/sdcard/Pictures/notes.txt",
    }
    assert d.has(text="No items")
    consistent(ep)
