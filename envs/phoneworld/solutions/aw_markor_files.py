"""Reference solutions of the AndroidWorld Markor and Files task families."""

from __future__ import annotations

import datetime as dt
from typing import Any

from tasklang.envs.phoneworld.solutions.base import Driver, reference
from tasklang.envs.phoneworld.solutions.markor import new_note, tap_in_dialog, tap_row

EDITOR = "document__fragment__edit__highlighting_editor"


def open_folder(d: Driver, folder: str) -> None:
    """From the notebook's top, into ``folder`` ("Work" or "Work/2026"), scrolling to each."""
    for part in [p for p in folder.split("/") if p]:
        tap_row(d, part)


@reference("androidworld.markor_create_note")
def markor_create_note(d: Driver) -> None:
    d.open("Markor")
    new_note(d, d.params["file"], d.params["text"])
    d.done()


@reference("androidworld.markor_create_folder")
def markor_create_folder(d: Driver) -> None:
    d.tap(rid="fab_add_new_item")
    d.type(d.params["folder"], rid="new_file_dialog__name")
    d.tap(text="Folder")
    d.done()


def delete_selected(d: Driver) -> None:
    d.tap(desc="Delete")
    d.tap(text="OK")


@reference("androidworld.markor_delete_note")
def markor_delete_note(d: Driver) -> None:
    tap_row(d, d.params["note"]["name"], long=True)
    delete_selected(d)
    d.done()


def visible_notes(d: Driver) -> dict[str, str]:
    """Name -> description ("13.05.26 16:40   17 B") of the note rows on the screen."""
    rows: dict[str, str] = {}
    for v in d.observe().walk():
        if not v.rid.endswith(":id/opoc_filesystem_item__root"):
            continue
        name = about = ""
        for c in v.walk():
            if c.rid.endswith(":id/opoc_filesystem_item__title"):
                name = c.text
            elif c.rid.endswith(":id/opoc_filesystem_item__description"):
                about = c.text
        if name and name != ".." and about and "item" not in about:
            rows[name] = about
    return rows


def read_notes(d: Driver, limit: int = 8) -> dict[str, str]:
    """Every note row of the folder on the screen, scrolling down until nothing new shows."""
    seen = visible_notes(d)
    for _ in range(limit):
        lists = [v for v in d.observe().walk() if v.rid.endswith("ui__filesystem_dialog__list")]
        if not any(v.scrollable for v in lists):
            break
        d.scroll("down")
        new = visible_notes(d)
        if set(new) <= set(seen):
            break
        seen.update(new)
    return seen


def modified_at(about: str) -> dt.datetime:
    """The date of a note row's description ("13.05.26 16:40   17 B")."""
    day, clock = about.split()[:2]
    return dt.datetime.strptime(f"{day} {clock}", "%d.%m.%y %H:%M")


@reference("androidworld.markor_delete_newest_note")
def markor_delete_newest_note(d: Driver) -> None:
    open_folder(d, d.params["shelf"])
    notes = read_notes(d)
    newest = max(notes, key=lambda name: modified_at(notes[name]))
    tap_row(d, newest, long=True)
    delete_selected(d)
    d.done()


def editor_text(d: Driver) -> str:
    """The text of the note open in the editor."""
    return "\n".join(d.texts(rid=EDITOR))


@reference("androidworld.markor_edit_note")
def markor_edit_note(d: Driver) -> None:
    how, text = d.params["op"]["how"], d.params["op"]["text"]
    tap_row(d, d.params["note"]["name"])
    if "top" in how:
        d.type(f"{text}\n{editor_text(d)}", rid=EDITOR)
    elif "bottom" in how:
        d.type(f"\n{text}", clear=False, rid=EDITOR)
    else:
        d.type(text, rid=EDITOR)
    d.tap(desc="Save")
    d.done()


@reference("androidworld.markor_move_note")
def markor_move_note(d: Driver) -> None:
    note: dict[str, Any] = d.params["note"]
    open_folder(d, note["folder"])
    tap_row(d, note["name"], long=True)
    d.tap(desc="More options")
    d.tap(text="Move")
    tap_in_dialog(d, text=d.params["dest"], rid="opoc_filesystem_item__title")
    d.tap(text="OK")
    d.done()


def read_note(d: Driver, name: str) -> str:
    """Open the note ``name`` of the folder on the screen, read its text and come back."""
    tap_row(d, name)
    text = editor_text(d)
    d.tap(desc="Navigate up")
    return text


@reference("androidworld.markor_merge_notes")
def markor_merge_notes(d: Driver) -> None:
    merge: dict[str, Any] = d.params["merge"]
    parts = [read_note(d, merge[key]).strip() for key in ("a", "b", "c")]
    new_note(d, d.params["target"], "\n".join(parts))
    d.done()


def rename_row(d: Driver, name: str, new_name: str) -> None:
    """Rename the row ``name`` of the folder on the screen to ``new_name``."""
    tap_row(d, name, long=True)
    d.tap(desc="Rename")
    d.type(new_name, rid="android:id/edit")
    d.tap(text="OK")


@reference("androidworld.markor_add_note_header")
def markor_add_note_header(d: Driver) -> None:
    name = d.params["note"]["name"]
    tap_row(d, name)
    d.type(f"{d.params['header']['text']}\n\n{editor_text(d)}", rid=EDITOR)
    d.tap(desc="Save")
    d.tap(desc="Navigate up")
    rename_row(d, name, d.params["new_name"])
    d.done()


@reference("androidworld.markor_change_note_content")
def markor_change_note_content(d: Driver) -> None:
    name = d.params["note"]["name"]
    tap_row(d, name)
    d.type(d.params["text"], rid=EDITOR)
    d.tap(desc="Navigate up")
    rename_row(d, name, d.params["new_name"])
    d.done()


@reference("androidworld.markor_create_note_and_sms")
def markor_create_note_and_sms(d: Driver) -> None:
    d.open("Markor")
    new_note(d, d.params["file"], d.params["text"])
    d.open("Markor")
    tap_row(d, d.params["file"])
    content = editor_text(d)  # the note's whole text, as saved
    d.open("Messages")
    d.tap(desc="Start a conversation")
    d.type(d.params["number"], rid="new_conversation_address")
    d.tap(desc="Confirm selection")
    d.type(content, rid="thread_type_message")
    d.tap(desc="Send")
    d.done()


def files_open_folder(d: Driver, folder: str) -> None:
    """From the storage root of Files, into the top-level ``folder``."""
    d.act({"action_type": "click", "index": d.scroll_to(text=folder, rid="android:id/title")})


def files_row(d: Driver, name: str, long: bool = False) -> None:
    """Tap (or long-press) the row ``name`` of the folder on the screen, scrolling to it."""
    index = d.scroll_to(text=name, rid="android:id/title")
    d.act({"action_type": "long_press" if long else "click", "index": index})


@reference("androidworld.files_delete_file")
def files_delete_file(d: Driver) -> None:
    doc: dict[str, Any] = d.params["doc"]
    files_open_folder(d, doc["folder"])
    files_row(d, doc["name"], long=True)
    d.tap(desc="Delete")
    d.tap(text="OK")
    d.done()


@reference("androidworld.files_move_file")
def files_move_file(d: Driver) -> None:
    doc: dict[str, Any] = d.params["doc"]
    files_open_folder(d, doc["folder"])
    files_row(d, doc["name"], long=True)
    d.tap(desc="More options")
    d.tap(text="Move to…")
    d.tap(text="Internal storage", rid="breadcrumb_text")  # the picker opens in the file's folder
    files_row(d, d.params["dest"]["name"])
    d.tap(text="Move", rid="android:id/button1")
    d.done()


@reference("androidworld.markor_delete_all_notes")
def markor_delete_all_notes(d: Driver) -> None:
    open_folder(d, d.params["shelf"])
    notes = read_notes(d)
    tap_row(d, next(iter(notes)), long=True)
    d.tap(desc="More options")
    d.tap(text="Select all")
    delete_selected(d)
    d.done()
