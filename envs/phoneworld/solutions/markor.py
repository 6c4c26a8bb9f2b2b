"""Reference solutions of the Markor tasks."""

from __future__ import annotations

from typing import Any

from tasklang.envs.phoneworld.solutions.base import Driver, reference

TYPE_LABELS = {"md": "Markdown", "txt": "Plain Text"}


def open_folder(d: Driver, folder: str) -> None:
    """From the notebook root, into ``folder`` ("Work" or "Work/2026")."""
    for part in [p for p in folder.split("/") if p]:
        d.tap(text=part, rid="opoc_filesystem_item__title")


def tap_row(d: Driver, name: str, long: bool = False) -> None:
    """Tap (or long-press) the row named ``name``, scrolling the list to it (up first)."""
    sel: dict[str, Any] = {"text": name, "rid": "opoc_filesystem_item__title"}
    for _ in range(8):
        if d.has(**sel) or not d.has(rid="ui__filesystem_dialog__list"):
            break
        before = d.texts(rid="opoc_filesystem_item__title")
        d.scroll("up")
        if d.texts(rid="opoc_filesystem_item__title") == before:
            break
    index = d.scroll_to(**sel)
    d.act({"action_type": "long_press" if long else "click", "index": index})


def tap_in_dialog(d: Driver, **sel: Any) -> None:
    """Tap the last element matching ``sel``: the dialog's, drawn over the screen."""
    count = 0
    while d.find(nth=count, **sel) is not None:
        count += 1
    d.tap(nth=max(0, count - 1), **sel)


def new_note(d: Driver, file_name: str, text: str) -> None:
    """Create ``file_name`` in the folder on the screen, write ``text`` and save."""
    stem, _, ext = file_name.rpartition(".")
    d.tap(rid="fab_add_new_item")
    d.type(stem, rid="new_file_dialog__name")
    if not d.has(text=TYPE_LABELS[ext], rid="new_file_dialog__type"):
        d.tap(rid="new_file_dialog__type")
        d.tap(text=TYPE_LABELS[ext])
    d.tap(text="OK")
    d.type(text, rid="document__fragment__edit__highlighting_editor")
    d.tap(desc="Save")
    d.back()  # the keyboard
    d.back()  # the editor


@reference("markor.create_note")
def create_note(d: Driver) -> None:
    note: dict[str, Any] = d.params["note"]
    d.open("Markor")
    new_note(d, note["file"], note["text"])
    d.done()


@reference("markor.append_line")
def append_line(d: Driver) -> None:
    note: dict[str, Any] = d.params["note"]
    open_folder(d, note["folder"])
    tap_row(d, note["name"])
    d.type(
        "\n" + d.params["line"], clear=False, rid="document__fragment__edit__highlighting_editor"
    )
    d.tap(desc="Save")
    d.done()


def select_rows(d: Driver, names: list[str]) -> None:
    """Long-press the first of ``names`` and tap the others (scrolling to each)."""
    for i, name in enumerate(names):
        tap_row(d, name, long=i == 0)


def names_on_list(d: Driver, limit: int = 8) -> list[str]:
    """The row names of the current folder, scrolling down until nothing new shows."""
    seen: list[str] = []
    for _ in range(limit):
        new = [n for n in d.texts(rid="opoc_filesystem_item__title") if n not in seen]
        seen += new
        lists = [v for v in d.observe().walk() if v.rid.endswith("ui__filesystem_dialog__list")]
        if not new or not any(v.scrollable for v in lists):
            break
        d.scroll("down")
    for _ in range(limit):  # back to the top
        d.scroll("up")
        if d.has(text=seen[0], rid="opoc_filesystem_item__title") if seen else True:
            break
    return seen


def delete_matching(d: Driver, prefix: str) -> None:
    """Delete the rows of the current folder whose names start with ``prefix``."""
    doomed = [n for n in names_on_list(d) if n.startswith(prefix)]
    if not doomed:
        return
    select_rows(d, doomed)
    d.tap(desc="Delete")
    d.tap(text="OK")


@reference("markor.delete_drafts")
def delete_drafts(d: Driver) -> None:
    prefix = d.params["doomed"]["prefix"]
    folders = []
    for name in names_on_list(d):
        if "." not in name:
            folders.append(name)
    delete_matching(d, prefix)
    for folder in folders:
        tap_row(d, folder)
        delete_matching(d, prefix)
        d.tap(text="..", rid="opoc_filesystem_item__title")
    d.done()


@reference("markor.move_note")
def move_note(d: Driver) -> None:
    note: dict[str, Any] = d.params["note"]
    tap_row(d, note["name"], long=True)
    d.tap(desc="More options")
    d.tap(text="Move")
    for part in d.params["dest"].split("/"):
        tap_in_dialog(d, text=part, rid="opoc_filesystem_item__title")
    d.tap(text="OK")
    d.done()


# question -> the folder and note that answer it, and the line's label
# (the more specific questions first: the first key found in the question wins)
WHERE = {
    "my bike": ("Home", "bike.md", "Tyre pressure:"),
    "bike chain": ("Home", "bike.md", "Chain oiled in "),
    "Facilities": ("Work", "contacts.md", "Facilities extension:"),
    "boiler": ("Home", "boiler.md", "Boiler service code:"),
    "plumber": ("Home", "boiler.md", "Plumber phone:"),
    "meter number": ("Home", "boiler.md", "Meter number:"),
    "door code": ("Work", "office.md", "Door code:"),
    "parking level": ("Work", "office.md", "Parking level:"),
    "printer": ("Work", "office.md", "Printer name:"),
    "licence plate": ("Home", "car.md", "Plate:"),
    "key safe": ("Travel", "lake_cabin.md", "Key safe:"),
    "in Lisbon": ("Travel", "lisbon.md", "Wi-Fi:"),
    "day of the week": ("Work", "quarterly_review.md", "Quarterly review, "),
    "Wi-Fi password": ("Travel", "lake_cabin.md", "Wi-Fi password:"),
    "check-out": ("Travel", "lake_cabin.md", "Check-out:"),
    "tyre pressure": ("Home", "car.md", "Tyre pressure:"),
    "IT helpdesk": ("Work", "contacts.md", "IT helpdesk extension:"),
    "quarterly review": ("Work", "quarterly_review.md", "room "),
}


@reference("markor.note_answer")
def note_answer(d: Driver) -> None:
    question = d.params["fact"]["question"]
    folder, name, label = next(v for k, v in WHERE.items() if k in question)
    open_folder(d, folder)
    tap_row(d, name)
    text = "\n".join(d.texts(rid="document__fragment__edit__highlighting_editor"))
    line = next(line for line in text.split("\n") if label in line)
    value = line.split(label, 1)[1].strip().split(" ")[0].split(",")[0]
    d.answer(value)


@reference("markor.folder_with_note")
def folder_with_note(d: Driver) -> None:
    plan: dict[str, Any] = d.params["plan"]
    d.open("Markor")
    d.tap(rid="fab_add_new_item")
    d.type(plan["dir"], rid="new_file_dialog__name")
    d.tap(text="Folder")
    tap_row(d, plan["dir"])
    new_note(d, plan["file"], plan["text"])
    d.done()
