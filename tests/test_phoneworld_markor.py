"""PhoneWorld's Markor (net.gsantner.markor): the reference solutions of its tasks, the screens'
XML, and the notebook browser, the new file dialog, the editor, selection (delete, rename,
move, copy), search, sorting and the other tabs through real actions."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tasklang import ir
from tasklang.compiler import Compiler
from tasklang.envs.phoneworld.app import AppData
from tasklang.envs.phoneworld.apps.markor import (
    EMPTY,
    EXISTS,
    NOTEBOOK,
    format_size,
    relative,
    rendered,
    task_state,
)
from tasklang.envs.phoneworld.episode import Episode, run_nothing, run_reference
from tasklang.envs.phoneworld.solutions.base import Driver
from tasklang.envs.phoneworld.solutions.markor import tap_in_dialog
from tasklang.verifiers.snapshot import parse_ui_xml

ROOT = Path(__file__).resolve().parents[1]
TASKS = [
    "markor.create_note",
    "markor.append_line",
    "markor.delete_drafts",
    "markor.move_note",
    "markor.note_answer",
    "markor.folder_with_note",
]
PKG = "net.gsantner.markor"
NOW = "2026-05-14T09:30:00"


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


# ------------------------------------------------------------------ a known notebook
def note(rel: str, content: str = "", modified: str = "2026-05-10T10:00:00") -> dict[str, Any]:
    path = f"{NOTEBOOK}/{rel}"
    return {
        "path": path,
        "name": rel.rsplit("/", 1)[-1],
        "folder": rel.rsplit("/", 1)[0] if "/" in rel else "",
        "content": content,
        "modified": modified,
    }


def folder(rel: str) -> dict[str, Any]:
    parent = rel.rsplit("/", 1)[0] if "/" in rel else ""
    return {"path": f"{NOTEBOOK}/{rel}", "name": rel.rsplit("/", 1)[-1], "parent": parent}


STANDARD = [
    note("alpha.md", "# Alpha\nfirst line", "2026-05-01T08:00:00"),
    note("beta.txt", "a much longer body of text for size", "2026-05-12T08:00:00"),
    note("gamma.md", "g", "2026-05-05T08:00:00"),
    note("Work/plan.md", "- ship it\n- [ ] review", "2026-05-11T08:00:00"),
    note("Work/2026/q2.md", "quarter two", "2026-05-02T08:00:00"),
]


def episode(
    files: list[dict[str, Any]] | None = None,
    folders: list[dict[str, Any]] | None = None,
    **settings: Any,
) -> tuple[Episode, Driver]:
    ep = Episode(compiled("markor.create_note"), 0)
    assert ep.instance is not None
    data = ep.phone.state["markor"]
    ep.phone.state["markor"] = AppData(
        {
            "files": list(STANDARD if files is None else files),
            "folders": list([folder("Work"), folder("Empty")] if folders is None else folders),
        },
        {**data.settings, **settings},
    )
    ep.phone.invalidate()
    d = Driver(ep.tree, ep.step, ep.instance.params)
    d.open("Markor")
    return ep, d


def files(ep: Episode) -> dict[str, dict[str, Any]]:
    return {f["path"]: f for f in ep.phone.state["markor"].collections["files"]}


def folders(ep: Episode) -> set[str]:
    return {f["path"] for f in ep.phone.state["markor"].collections["folders"]}


def titles(d: Driver) -> list[str]:
    return d.texts(rid="opoc_filesystem_item__title")


def activity(ep: Episode) -> str:
    return ep.phone.current_activity()[1].rsplit(".", 1)[-1]


def assert_xml(ep: Episode, *rids: str) -> None:
    _, elements = parse_ui_xml(ep.xml())
    assert elements
    assert any(e.package == PKG for e in elements)
    ids = {e.resource_id for e in elements}
    for rid in rids:
        assert f"{PKG}:id/{rid}" in ids, (rid, sorted(ids))


def select(d: Driver, *names: str) -> None:
    d.long_press(text=names[0], rid="opoc_filesystem_item__title")
    for name in names[1:]:
        d.tap(text=name, rid="opoc_filesystem_item__title")


# ------------------------------------------------------------------ formatting
def test_sizes_paths_and_rendering() -> None:
    assert format_size(12) == "12 B"
    assert format_size(2048) == "2.0 KB"
    assert relative(f"{NOTEBOOK}/Work/2026") == "Work/2026"
    assert relative(NOTEBOOK) == ""
    assert rendered("## Plan") == "Plan"
    assert rendered("- [ ] review") == "review" and task_state("- [ ] review") is False
    assert rendered("- [x] done") == "done" and task_state("- [x] done") is True
    assert task_state("- item") is None
    assert rendered("* item") == "• item"


# ------------------------------------------------------------------ screens
def test_every_screen_produces_parseable_xml() -> None:
    ep, d = episode()
    assert activity(ep) == "MainActivity"
    assert_xml(ep, "ui__filesystem_dialog__list", "fab_add_new_item", "action_search", "nav_todo")
    d.tap(rid="fab_add_new_item")
    assert_xml(ep, "new_file_dialog__name", "new_file_dialog__type", "new_file_dialog__ext")
    assert ep.phone.keyboard  # the name field has the focus
    d.back()  # the keyboard
    d.back()  # the dialog
    d.tap(desc="Sort by")
    assert_xml(ep)
    d.back()
    d.tap(desc="Search")
    assert_xml(ep, "search_query")
    d.back()
    d.back()
    select(d, "alpha.md")
    assert_xml(ep, "action_delete_selected_items", "action_rename_selected_item")
    d.tap(desc="More options")
    d.tap(text="Move")
    assert_xml(ep, "opoc_filesystem_item__title")
    d.back()
    d.back()
    d.tap(text="alpha.md")
    assert activity(ep) == "DocumentActivity"
    assert_xml(ep, "document__fragment__edit__highlighting_editor", "action_save")
    d.tap(desc="View")
    assert_xml(ep, "document__fragment_view_webview")
    d.back()
    for tab in ("To-Do", "QuickNote", "More"):
        d.tap(desc=tab)
        assert activity(ep) == "MainActivity"
        assert_xml(ep, "nav_notebook")
    d.tap(text="Settings")
    assert activity(ep) == "SettingsActivity"
    assert_xml(ep)


def test_notebook_lists_folders_first_then_files() -> None:
    _, d = episode()
    assert titles(d) == ["Empty", "Work", "alpha.md", "beta.txt", "gamma.md"]
    assert "1 item" not in d.texts()  # Work holds a note and a folder
    assert "2 items" in d.texts()
    assert d.has(text="Markor")


def test_folders_open_and_dot_dot_goes_up() -> None:
    ep, d = episode()
    d.tap(text="Work")
    assert titles(d) == ["..", "2026", "plan.md"]
    d.tap(text="2026")
    assert titles(d) == ["..", "q2.md"]
    d.tap(text="..")
    assert titles(d) == ["..", "2026", "plan.md"]
    d.tap(text="..")
    assert titles(d)[0] == "Empty"
    assert len(ep.phone.stacks["markor"]) == 1
    d.tap(text="Empty")
    assert d.has(rid="empty_hint")
    d.tap(desc="Go to")
    d.tap(text="Notebook")
    assert titles(d)[0] == "Empty" and len(ep.phone.stacks["markor"]) == 1


def test_back_from_the_top_leaves_the_app() -> None:
    ep, d = episode()
    d.tap(text="Work")
    d.back()
    assert titles(d)[0] == "Empty"
    d.back()
    assert ep.phone.foreground is None


def test_sort_by_date_size_and_reverse() -> None:
    ep, d = episode()
    d.tap(desc="Sort by")
    d.tap(text="Date")
    assert ep.phone.state["markor"].settings["sort_by"] == "date"
    assert titles(d)[2:] == ["alpha.md", "gamma.md", "beta.txt"]
    d.tap(desc="Sort by")
    assert d.find(text="Date", checked=True) is not None
    d.tap(text="Reverse order")
    assert titles(d)[2:] == ["beta.txt", "gamma.md", "alpha.md"]
    assert titles(d)[:2] == ["Work", "Empty"]
    d.tap(desc="Sort by")
    d.tap(text="Size")
    assert titles(d)[2:] == ["beta.txt", "alpha.md", "gamma.md"]
    d.tap(desc="Sort by")
    d.tap(text="Folder first")
    assert ep.phone.state["markor"].settings["folders_first"] is False
    assert titles(d)[0] == "beta.txt"


def test_long_notebook_scrolls() -> None:
    many = [note(f"note_{i:02d}.md", str(i)) for i in range(20)]
    ep, d = episode(many, [])
    assert "note_19.md" not in titles(d)
    d.scroll("down")
    d.scroll("down")
    assert "note_19.md" in titles(d)
    assert "note_00.md" not in titles(d)
    out = ep.step({"action_type": "scroll", "direction": "down"})
    assert out.ok and "already at the end" in out.info


# ------------------------------------------------------------------ creating
def test_new_markdown_note_opens_in_the_editor_and_saves() -> None:
    ep, d = episode()
    d.tap(rid="fab_add_new_item")
    assert d.has(text="Create new document")
    assert d.has(text=".md", rid="new_file_dialog__ext")
    d.type("ideas", rid="new_file_dialog__name")
    d.tap(text="OK")
    path = f"{NOTEBOOK}/ideas.md"
    assert files(ep)[path]["content"] == ""
    assert files(ep)[path]["modified"] == NOW
    assert activity(ep) == "DocumentActivity"
    assert d.has(text="ideas.md")
    d.type("Plant a lemon tree", rid="document__fragment__edit__highlighting_editor")
    d.tap(desc="Save")
    assert files(ep)[path]["content"] == "Plant a lemon tree"
    assert files(ep)[path]["folder"] == ""


def test_plain_text_type_and_folder_inside_a_folder() -> None:
    ep, d = episode()
    d.tap(text="Work")
    d.tap(rid="fab_add_new_item")
    d.type("calls", rid="new_file_dialog__name")
    d.tap(rid="new_file_dialog__type")
    d.tap(text="Plain Text")
    assert d.has(text="Plain Text", rid="new_file_dialog__type")
    assert d.has(text=".txt", rid="new_file_dialog__ext")
    assert d.has(text="calls", rid="new_file_dialog__name")  # the name stays
    d.tap(text="OK")
    record = files(ep)[f"{NOTEBOOK}/Work/calls.txt"]
    assert (record["name"], record["folder"]) == ("calls.txt", "Work")
    d.back()  # the keyboard is not up: back leaves the editor
    d.tap(rid="fab_add_new_item")
    d.type("Clients", rid="new_file_dialog__name")
    d.tap(text="Folder")
    assert f"{NOTEBOOK}/Work/Clients" in folders(ep)
    assert ep.phone.state["markor"].collections["folders"][-1]["parent"] == "Work"
    assert "Clients" in titles(d)


def test_a_typed_extension_is_kept_and_clashes_are_refused() -> None:
    ep, d = episode()
    d.tap(rid="fab_add_new_item")
    d.type("notes.txt", rid="new_file_dialog__name")
    d.tap(text="OK")
    assert f"{NOTEBOOK}/notes.txt" in files(ep)
    d.back()
    before = dict(files(ep))
    d.tap(rid="fab_add_new_item")
    d.type("alpha", rid="new_file_dialog__name")
    d.tap(text="OK")
    assert files(ep) == before
    assert ep.phone.toast == EXISTS
    assert d.has(text="Create new document")  # the dialog stays for another name
    d.tap(text="Cancel")
    assert files(ep) == before
    d.tap(rid="fab_add_new_item")
    d.tap(text="OK")  # no name
    assert files(ep) == before and ep.phone.toast == "Please enter a name"


def test_new_file_type_setting_changes_the_proposed_type() -> None:
    ep, d = episode()
    d.tap(desc="More")
    d.tap(text="Settings")
    d.tap(text="New file type")
    d.tap(text="Plain Text")
    assert ep.phone.state["markor"].settings["new_file_type"] == "txt"
    d.back()
    d.tap(desc="Files")
    d.tap(rid="fab_add_new_item")
    assert d.has(text=".txt", rid="new_file_dialog__ext")


# ------------------------------------------------------------------ the editor
def test_leaving_the_editor_saves_by_up_back_home_or_another_app() -> None:
    ep, d = episode()
    path = f"{NOTEBOOK}/alpha.md"
    field = "document__fragment__edit__highlighting_editor"
    text = "# Alpha\nfirst line"
    for leave in ("up", "back", "home", "switch"):
        d.tap(text="alpha.md")
        assert d.has(text=text, rid=field)
        d.type(f"\n{leave}", clear=False, rid=field)
        assert files(ep)[path]["content"] == text  # typing alone writes nothing
        if leave == "up":
            d.tap(desc="Navigate up")
        elif leave == "back":
            d.back()  # hides the keyboard
            d.back()  # leaves, saving
        elif leave == "home":
            d.home()
            d.open("Markor")
            d.back()
        else:
            d.open("Clock")
            d.open("Markor")
            d.back()
        text += f"\n{leave}"
        assert files(ep)[path]["content"] == text, leave
        assert files(ep)[path]["modified"] == NOW
        assert activity(ep) == "MainActivity"


def test_saving_unchanged_text_keeps_the_date() -> None:
    ep, d = episode()
    d.tap(text="gamma.md")
    d.tap(desc="Save")
    assert files(ep)[f"{NOTEBOOK}/gamma.md"]["modified"] == "2026-05-05T08:00:00"


def test_view_mode_saves_and_renders() -> None:
    ep, d = episode()
    d.tap(text="Work")
    d.tap(text="plan.md")
    d.type("\n## Risks", clear=False, rid="document__fragment__edit__highlighting_editor")
    d.tap(desc="View")
    assert files(ep)[f"{NOTEBOOK}/Work/plan.md"]["content"].endswith("## Risks")
    shown = d.texts()
    assert "• ship it" in shown and "review" in shown and "Risks" in shown
    assert d.find(text="review", cls="CheckBox", checked=False) is not None
    assert not d.has(rid="document__fragment__edit__highlighting_editor")
    d.tap(desc="Edit")
    assert d.has(rid="document__fragment__edit__highlighting_editor")


def test_open_in_view_mode_setting() -> None:
    _, d = episode(open_in_view_mode=True)
    d.tap(text="alpha.md")
    assert d.has(rid="document__fragment_view_webview")
    assert "Alpha" in d.texts()


def test_text_actions_add_markup() -> None:
    ep, d = episode()
    d.tap(text="gamma.md")
    d.tap(desc="Checkbox")
    d.type("buy milk", clear=False)  # the editor has the focus
    d.tap(desc="Save")
    assert files(ep)[f"{NOTEBOOK}/gamma.md"]["content"] == "g\n- [ ] buy milk"


def test_todo_and_quicknote_tabs_edit_their_files() -> None:
    ep, d = episode()
    d.tap(desc="To-Do")
    assert d.has(text="todo.txt")
    d.type("Call mum", rid="document__fragment__edit__highlighting_editor")
    d.tap(desc="Save")
    assert files(ep)[f"{NOTEBOOK}/todo.txt"]["content"] == "Call mum"
    d.tap(desc="QuickNote")
    assert d.has(text="QuickNote.md")
    d.type("quick thought", rid="document__fragment__edit__highlighting_editor")
    d.tap(desc="Save")
    assert files(ep)[f"{NOTEBOOK}/QuickNote.md"]["content"] == "quick thought"
    d.tap(desc="Files")
    assert "todo.txt" in titles(d) and "QuickNote.md" in titles(d)
    d.tap(desc="To-Do")
    assert d.has(text="Call mum", rid="document__fragment__edit__highlighting_editor")


# ------------------------------------------------------------------ selection
def test_long_press_selects_taps_toggle_and_back_ends() -> None:
    ep, d = episode()
    select(d, "alpha.md", "gamma.md")
    assert d.has(text="2 items selected")
    assert not d.has(desc="Rename")  # only for one item
    d.tap(text="gamma.md")
    assert d.has(text="One item selected") and d.has(desc="Rename")
    d.tap(text="alpha.md")  # nothing selected: the selection ends
    assert ep.phone.route().screen == "main"  # type: ignore[union-attr]
    select(d, "alpha.md")
    d.back()
    assert ep.phone.route().screen == "main"  # type: ignore[union-attr]


def test_delete_asks_first_and_cancel_keeps() -> None:
    ep, d = episode()
    select(d, "alpha.md", "beta.txt")
    d.tap(desc="Delete")
    assert d.has(text="Confirm Delete")
    message = d.texts(rid="android:id/message")[0]
    assert (
        message.startswith("Do you really want to delete this 2 items?") and "alpha.md" in message
    )
    d.tap(text="Cancel")
    assert len(files(ep)) == 5
    d.tap(desc="Delete")
    d.tap(text="OK")
    assert set(files(ep)) == {f"{NOTEBOOK}/gamma.md", *(f["path"] for f in STANDARD[3:])}
    assert titles(d) == ["Empty", "Work", "gamma.md"]


def test_deleting_a_folder_deletes_what_it_holds() -> None:
    ep, d = episode()
    select(d, "Work")
    d.tap(desc="Delete")
    d.tap(text="OK")
    assert not any("/Work" in p for p in files(ep))
    assert f"{NOTEBOOK}/Work" not in folders(ep)


def test_select_all() -> None:
    _, d = episode()
    select(d, "alpha.md")
    d.tap(desc="More options")
    d.tap(text="Select all")
    assert d.has(text="5 items selected")


def test_rename_a_note_and_refuse_a_clash() -> None:
    ep, d = episode()
    select(d, "alpha.md")
    d.tap(desc="Rename")
    assert d.has(text="alpha.md", rid="android:id/edit")
    d.type("gamma.md")
    d.tap(text="OK")
    assert ep.phone.toast == EXISTS
    assert f"{NOTEBOOK}/alpha.md" in files(ep)
    d.tap(desc="Rename")
    d.type("omega.md", rid="android:id/edit")
    d.enter()
    record = files(ep)[f"{NOTEBOOK}/omega.md"]
    assert record["name"] == "omega.md" and record["content"] == "# Alpha\nfirst line"
    assert f"{NOTEBOOK}/alpha.md" not in files(ep)
    assert ep.phone.route().screen == "main"  # type: ignore[union-attr]


def test_rename_a_folder_carries_its_notes() -> None:
    ep, d = episode()
    select(d, "Work")
    d.tap(desc="Rename")
    d.type("Job", rid="android:id/edit")
    d.tap(text="OK")
    assert files(ep)[f"{NOTEBOOK}/Job/2026/q2.md"]["folder"] == "Job/2026"
    assert files(ep)[f"{NOTEBOOK}/Job/plan.md"]["folder"] == "Job"
    assert f"{NOTEBOOK}/Job" in folders(ep)


def test_move_a_note_through_the_folder_chooser() -> None:
    ep, d = episode()
    select(d, "beta.txt")
    d.tap(desc="More options")
    d.tap(text="Move")
    assert d.has(text="Select folder")
    tap_in_dialog(d, text="Work", rid="opoc_filesystem_item__title")
    assert d.has(text="/Work", rid="android:id/message")
    tap_in_dialog(d, text="2026", rid="opoc_filesystem_item__title")
    d.tap(text="OK")
    record = files(ep)[f"{NOTEBOOK}/Work/2026/beta.txt"]
    assert record["folder"] == "Work/2026" and record["modified"] == "2026-05-12T08:00:00"
    assert f"{NOTEBOOK}/beta.txt" not in files(ep)
    assert "beta.txt" not in titles(d)


def test_move_cancel_and_a_folder_not_into_itself() -> None:
    ep, d = episode()
    before = dict(files(ep))
    select(d, "Work")
    d.tap(desc="More options")
    d.tap(text="Move")
    panel = next(v for v in d.observe().walk() if v.rid == "android:id/parentPanel")
    dialog_rows = [v.text for v in panel.walk() if v.rid.endswith("opoc_filesystem_item__title")]
    assert "Work" not in dialog_rows and "Empty" in dialog_rows
    d.tap(text="Cancel")
    assert files(ep) == before
    d.tap(desc="More options")
    d.tap(text="Move")
    tap_in_dialog(d, text="Empty", rid="opoc_filesystem_item__title")
    d.tap(text="OK")
    assert files(ep)[f"{NOTEBOOK}/Empty/Work/2026/q2.md"]["folder"] == "Empty/Work/2026"


def test_copy_keeps_the_original() -> None:
    ep, d = episode()
    select(d, "gamma.md")
    d.tap(desc="More options")
    d.tap(text="Copy")
    tap_in_dialog(d, text="Empty", rid="opoc_filesystem_item__title")
    d.tap(text="OK")
    assert files(ep)[f"{NOTEBOOK}/gamma.md"]["content"] == "g"
    assert files(ep)[f"{NOTEBOOK}/Empty/gamma.md"]["content"] == "g"
    select(d, "gamma.md")
    d.tap(desc="More options")
    d.tap(text="Copy")
    tap_in_dialog(d, text="Empty", rid="opoc_filesystem_item__title")
    d.tap(text="OK")  # already there: refused
    assert ep.phone.toast == EXISTS
    assert len(files(ep)) == 6


# ------------------------------------------------------------------ search
def test_search_by_name_and_in_content() -> None:
    _, d = episode()
    d.tap(desc="Search")
    d.type("plan")
    d.enter()
    assert titles(d) == ["plan.md"]
    assert any(t.startswith("/Work") for t in d.texts(rid="opoc_filesystem_item__description"))
    d.back()
    d.tap(desc="Search")
    d.type("quarter")
    d.tap(text="OK")
    assert d.has(text=EMPTY, rid="empty_hint")
    d.back()
    d.tap(desc="Search")
    d.type("quarter")
    d.tap(text="Search in content")
    assert d.has(text="quarter", rid="search_query")
    d.tap(text="OK")
    assert titles(d) == ["q2.md"]
    d.tap(text="q2.md")
    assert d.has(text="quarter two", rid="document__fragment__edit__highlighting_editor")


# ------------------------------------------------------------------ invalid actions
def test_invalid_actions_are_reported() -> None:
    ep, _ = episode()
    out = ep.step({"action_type": "input_text", "text": "x"})
    assert not out.ok and "no text field" in out.info
    out = ep.step({"action_type": "click", "index": 10_000})
    assert not out.ok and "out of range" in out.info
    title = next(i for i, v in enumerate(ep.tree().walk()) if v.text == "alpha.md")
    out = ep.step({"action_type": "input_text", "text": "x", "index": title})
    assert not out.ok and "not a text field" in out.info
    assert len(files(ep)) == 5


def test_settings_switches() -> None:
    ep, d = episode()
    d.tap(desc="More options")
    d.tap(text="Settings")
    d.tap(text="Open existing files in view mode")
    d.tap(text="Folder first")
    settings = ep.phone.state["markor"].settings
    assert settings["open_in_view_mode"] is True and settings["folders_first"] is False
    assert d.find(cls="Switch", checked=True) is not None
    d.tap(desc="Navigate up")
    assert titles(d)[0] == "alpha.md"


def test_tabs_start_over_and_back_leaves() -> None:
    ep, d = episode()
    d.tap(text="Work")
    d.tap(desc="QuickNote")
    assert [r.screen for r in ep.phone.stacks["markor"]] == ["quicknote"]
    d.tap(desc="Files")
    assert titles(d)[0] == "Empty"  # the notebook's top again
    d.tap(desc="To-Do")
    d.back()
    assert ep.phone.foreground is None
    assert f"{NOTEBOOK}/todo.txt" not in files(ep)  # nothing written, nothing created
