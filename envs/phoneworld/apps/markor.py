"""Markor (``net.gsantner.markor``), the markdown notes app AndroidWorld installs.

Notes are files of the notebook folder (``/sdcard/Documents/Markor``) and its sub-folders; the
``files`` collection holds them (``path`` is the truth, ``name`` and ``folder`` follow it) and
``folders`` the folders made in the app. A folder that holds notes is shown whether or not it has
a record of its own.

- Main screen (``activity.MainActivity``) with the bottom navigation: Files, To-Do, QuickNote and
  More.
- Files: the notebook browser. A folder lists ``..`` (outside the notebook root), its folders
  (first, as the "Folder first" sort option says) and its files, sorted by name, date or size,
  in reverse if asked (toolbar "Sort by"); "Go to" > Notebook returns to the notebook's top.
  Rows show the name and, for a file, its date and size. The toolbar's Search asks for a text
  (and whether to look inside notes) and lists the notes and folders found anywhere in the
  notebook. The floating button ("Create a new file or folder") opens the new document dialog:
  a name, the type (Markdown ``.md`` or Plain Text ``.txt``) and the extension; OK creates the
  file and opens it in the editor, Folder creates a folder. Existing names are refused.
- A long press selects (a screen of its own: Back ends it): taps toggle rows; the toolbar shows
  "One item selected" / "N items selected", Rename (one item), Delete ("Confirm Delete") and
  More options (Move, Copy, Select all). Move and Copy open the folder chooser ("Select
  folder": ``..``, the folders, OK / Cancel). Moving a folder carries what it holds.
- Editor (``activity.DocumentActivity``): the note's text in one field
  (``document__fragment__edit__highlighting_editor``), the text actions bar (checkbox, bold,
  italic, header, list: they add their markup at the end), Save and View in the toolbar, and the
  toolbar's up arrow, which saves as it leaves. View mode shows the rendered note (headers without
  their ``#``, list bullets, check boxes) and an Edit button. To-Do edits ``todo.txt`` and
  QuickNote ``QuickNote.md`` at the notebook root, in the same editor, creating them on save.
- More: Settings (``activity.SettingsActivity``): the type of new files, opening notes in view
  mode, and folders first.

As in the real app, leaving the editor writes the note: Save, switching to view mode, the
toolbar's up arrow, the system Back, Home and switching to another app all save it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from tasklang.envs.phoneworld import widgets as w
from tasklang.envs.phoneworld.app import App, Ctx, Dialog, Route, Screen
from tasklang.envs.phoneworld.apps.common import check_item, image_button, menu_item, switch
from tasklang.envs.phoneworld.widgets import View

PKG = "net.gsantner.markor"
MAIN_ACTIVITY = f"{PKG}.activity.MainActivity"
DOCUMENT_ACTIVITY = f"{PKG}.activity.DocumentActivity"
SETTINGS_ACTIVITY = f"{PKG}.activity.SettingsActivity"

NOTEBOOK = "/sdcard/Documents/Markor"
TODO_NAME = "todo.txt"
QUICKNOTE_NAME = "QuickNote.md"
TYPES = (("md", "Markdown"), ("txt", "Plain Text"))
TYPE_LABEL = dict(TYPES)
# a name typed with one of these keeps it: the extension field is not added again
KNOWN_EXTENSIONS = frozenset((".md", ".txt", ".markdown", ".text", ".html", ".json"))
SORTS = (("name", "Name"), ("date", "Date"), ("size", "Size"))
TABS = (
    ("main", "Files", "nav_notebook"),
    ("todo", "To-Do", "nav_todo"),
    ("quicknote", "QuickNote", "nav_quicknote"),
    ("more", "More", "nav_more"),
)
TAB_OF = {"main": "main", "select": "main", "todo": "todo", "quicknote": "quicknote"}
ACTIONS_BAR = (
    ("Checkbox", "- [ ] "),
    ("Bold", "****"),
    ("Italic", "__"),
    ("Header", "# "),
    ("Unordered list", "- "),
)

EMPTY = "¯\\_(ツ)_/¯"  # the empty list's hint
EXISTS = "File/folder already exists! Please use a different name"
SELECTED = "_selected"  # form value of the selection screen: the selected paths, one a line
LOADED = "_loaded"  # form value of an editor: its text field holds the note
MODE = "_mode"  # form value of an editor: "view" in view mode
ROW_HEIGHT = 180


# ------------------------------------------------------------------ paths and formatting
def parent_of(path: str) -> str:
    return path.rsplit("/", 1)[0]


def base_name(path: str) -> str:
    return path.rsplit("/", 1)[-1]


def inside(path: str, folder: str) -> bool:
    return path.startswith(folder + "/")


def relative(path: str) -> str:
    """A folder's path inside the notebook ("" for the notebook itself)."""
    return path[len(NOTEBOOK) + 1 :] if inside(path, NOTEBOOK) else ""


def valid_name(name: str) -> bool:
    return bool(name) and name not in (".", "..") and "/" not in name and "\\" not in name


def parse_time(value: Any) -> dt.datetime | None:
    try:
        return dt.datetime.fromisoformat(str(value))
    except ValueError:
        return None


def format_date(value: Any) -> str:
    t = parse_time(value)
    return "" if t is None else f"{t:%d.%m.%y %H:%M}"


def format_size(size: int) -> str:
    if size < 1024:
        return f"{size} B"
    if size < 1024 * 1024:
        return f"{size / 1024:.1f} KB"
    return f"{size / (1024 * 1024):.1f} MB"


def size_of(record: dict[str, Any]) -> int:
    return len(str(record.get("content") or "").encode())


def task_state(line: str) -> bool | None:
    """Whether a check list line is ticked (None: not a check list line)."""
    stripped = line.lstrip()
    if stripped.startswith("- [ ] "):
        return False
    if stripped[:6] in ("- [x] ", "- [X] "):
        return True
    return None


def rendered(line: str) -> str:
    """A markdown line as view mode shows it (a check list line: its text, next to a box)."""
    stripped = line.lstrip()
    if task_state(line) is not None:
        return stripped[6:]
    if stripped.startswith("#"):
        return stripped.lstrip("#").strip()
    if stripped[:2] in ("- ", "* ", "+ "):
        return "• " + stripped[2:]
    return line.replace("**", "").replace("__", "")


def web_line(line: str) -> View:
    """One line of the rendered note (the web view's accessibility nodes)."""
    ticked = task_state(line)
    if ticked is None:
        return View(w.VIEW, text=rendered(line), height=90)
    return View(w.CHECKBOX, text=rendered(line), checkable=True, checked=ticked, height=90)


@dataclass(frozen=True)
class Entry:
    path: str
    name: str
    is_dir: bool
    modified: str = ""
    size: int = 0
    items: int = 0


# notebooks read recently, by the identity of the record lists they were read from
_notebooks: dict[tuple[int, int], tuple[list[Any], list[Any], Notebook]] = {}


class Notebook:
    """The notebook folder as the file browser sees it."""

    files: dict[str, dict[str, Any]]
    dirs: frozenset[str]
    items: dict[str, int]

    def __init__(self, ctx: Ctx) -> None:
        records, folders = ctx.records("files"), ctx.records("folders")
        # app state is replaced, never changed in place: the same lists give the same notebook
        known = _notebooks.get((id(records), id(folders)))
        if known is not None and known[0] is records and known[1] is folders:
            self.files, self.dirs, self.items = known[2].files, known[2].dirs, known[2].items
            return
        self.files = {}
        for f in records:
            path = str(f.get("path") or "")
            if inside(path, NOTEBOOK):
                self.files[path] = f
        dirs: set[str] = set()
        for f in folders:
            path = str(f.get("path") or "")
            if inside(path, NOTEBOOK):
                dirs.add(path)
        for path in [*self.files, *dirs]:
            parent = parent_of(path)
            while inside(parent, NOTEBOOK):
                dirs.add(parent)
                parent = parent_of(parent)
        self.dirs = frozenset(dirs)
        self.items = {}  # folder -> the entries directly in it
        for path in [*self.dirs, *self.files]:
            self.items[parent_of(path)] = self.items.get(parent_of(path), 0) + 1
        _notebooks[(id(records), id(folders))] = (records, folders, self)
        if len(_notebooks) > 16:
            del _notebooks[next(iter(_notebooks))]

    def exists(self, path: str) -> bool:
        return path == NOTEBOOK or path in self.dirs or path in self.files

    def entry(self, path: str) -> Entry:
        if path in self.dirs:
            return Entry(path, base_name(path), True, items=self.items.get(path, 0))
        f = self.files[path]
        return Entry(path, base_name(path), False, str(f.get("modified") or ""), size_of(f))

    def children(self, folder: str) -> list[Entry]:
        paths = [p for p in [*self.dirs, *self.files] if parent_of(p) == folder]
        return [self.entry(p) for p in paths]

    def search(self, query: str, content: bool) -> list[Entry]:
        q = query.strip().casefold()
        if not q:
            return []
        found = [self.entry(p) for p in self.dirs if q in base_name(p).casefold()]
        for path, f in self.files.items():
            text = str(f.get("content") or "").casefold() if content else ""
            if q in base_name(path).casefold() or q in text:
                found.append(self.entry(path))
        return found


def sort_entries(entries: list[Entry], by: str, reverse: bool, folders_first: bool) -> list[Entry]:
    def key(e: Entry) -> tuple[Any, ...]:
        if by == "date":
            return (e.modified, e.name.casefold())
        if by == "size":
            return (e.size, e.name.casefold())
        return (e.name.casefold(), e.name)

    ordered = sorted(entries, key=key, reverse=reverse)
    if folders_first:
        ordered = [e for e in ordered if e.is_dir] + [e for e in ordered if not e.is_dir]
    return ordered


def file_record(path: str, content: str, modified: dt.datetime) -> dict[str, Any]:
    return {
        "path": path,
        "name": base_name(path),
        "folder": relative(parent_of(path)),
        "content": content,
        "modified": modified.isoformat(timespec="seconds"),
    }


def folder_record(path: str) -> dict[str, Any]:
    return {"path": path, "name": base_name(path), "parent": relative(parent_of(path))}


def field(rid: str, form: str, hint: str, key: str | None = None, height: int = 150) -> View:
    """A one-line text field of a dialog (the keyboard's enter sends ``key``)."""
    return View(
        w.EDIT,
        rid=rid,
        hint=hint,
        edit=form,
        on_enter=key,
        clickable=True,
        focusable=True,
        long_clickable=True,
        height=height,
    )


# ------------------------------------------------------------------ the app
class Markor(App):
    model = "markor"
    package = PKG
    label = "Markor"
    activity = MAIN_ACTIVITY
    home = "main"

    # ------------------------------------------------------------ pieces of screens
    def tool(self, desc: str, name: str, key: str, arg: Any = None) -> View:
        # toolbar menu items are ActionMenuItemViews, which uiautomator reports as TextViews
        return View(
            w.TEXT,
            desc=desc,
            rid=self.rid(name),
            clickable=True,
            focusable=True,
            long_clickable=True,
            on_click=key,
            arg=arg,
        )

    def overflow(self, key: str) -> View:
        return View(
            w.IMAGE, desc="More options", clickable=True, focusable=True, on_click=key, weight=0.12
        )

    def title(self, text: str, subtitle: str = "") -> View:
        children = [View(w.TEXT, text=text, height=80)]
        if subtitle:
            children.append(View(w.TEXT, text=subtitle, height=50))
        return View(w.LINEAR, children=children, weight=0.55)

    def tabs(self, current: str) -> list[View]:
        return [
            View(
                w.FRAME,
                rid=self.rid(rid),
                desc=label,
                clickable=True,
                focusable=True,
                selected=screen == current,
                on_click="tab",
                arg=screen,
                children=[
                    View(w.IMAGE, rid=self.rid("navigation_bar_item_icon_view"), height=80),
                    View(w.TEXT, text=label, rid=self.rid("navigation_bar_item_large_label_view")),
                ],
            )
            for screen, label, rid in TABS
        ]

    def listing(self, ctx: Ctx, entries: list[Entry]) -> list[Entry]:
        return sort_entries(
            entries,
            str(ctx.setting("sort_by") or "name"),
            bool(ctx.setting("sort_reverse")),
            ctx.setting("folders_first") is not False,
        )

    def row(
        self,
        e: Entry,
        click: str,
        long: str | None,
        *,
        selected: bool = False,
        where: bool = False,
    ) -> View:
        if e.is_dir:
            description = f"{e.items} item" + ("" if e.items == 1 else "s")
        else:
            description = f"{format_date(e.modified)}   {format_size(e.size)}"
        if where:
            description = f"/{relative(parent_of(e.path))}   {description}".replace("//", "/")
        return View(
            w.LINEAR,
            rid=self.rid("opoc_filesystem_item__root"),
            clickable=True,
            focusable=True,
            long_clickable=long is not None,
            selected=selected,
            on_click=click,
            on_long=long,
            arg=e.path,
            horizontal=True,
            height=ROW_HEIGHT,
            children=[
                View(
                    w.IMAGE,
                    rid=self.rid("opoc_filesystem_item__image"),
                    desc="Folder" if e.is_dir else "File",
                    selected=selected,
                    weight=0.15,
                ),
                View(
                    w.LINEAR,
                    weight=0.85,
                    children=[
                        View(
                            w.TEXT,
                            text=e.name,
                            rid=self.rid("opoc_filesystem_item__title"),
                            height=100,
                        ),
                        View(
                            w.TEXT,
                            text=description,
                            rid=self.rid("opoc_filesystem_item__description"),
                            height=80,
                        ),
                    ],
                ),
            ],
        )

    def up_row(self, click: str | None) -> View:
        return View(
            w.LINEAR,
            rid=self.rid("opoc_filesystem_item__root"),
            clickable=click is not None,
            focusable=click is not None,
            on_click=click,
            horizontal=True,
            height=ROW_HEIGHT,
            children=[
                View(w.IMAGE, rid=self.rid("opoc_filesystem_item__image"), weight=0.15),
                View(
                    w.TEXT,
                    text="..",
                    rid=self.rid("opoc_filesystem_item__title"),
                    weight=0.85,
                ),
            ],
        )

    def empty(self) -> View:
        return View(w.TEXT, text=EMPTY, rid=self.rid("empty_hint"), height=300)

    @staticmethod
    def folder_of(route: Route) -> str:
        return str(route.arg("path", NOTEBOOK))

    # ------------------------------------------------------------ the notebook
    def screen_main(self, ctx: Ctx, route: Route) -> Screen:
        nb = Notebook(ctx)
        folder = self.folder_of(route)
        rows = [self.up_row("up_folder")] if folder != NOTEBOOK else []
        entries = self.listing(ctx, nb.children(folder))
        rows += [self.row(e, "open", "select") for e in entries]
        if not entries:
            rows.append(self.empty())
        name = "Markor" if folder == NOTEBOOK else base_name(folder)
        actions = [
            self.title(name, folder.replace("/sdcard", "/storage/emulated/0")),
            self.tool("Go to", "action_go_to", "go_to"),
            self.tool("Sort by", "action_sort", "sort"),
            self.tool("Search", "action_search", "search"),
            self.overflow("main_menu"),
        ]
        fab = View(
            w.IMAGE_BUTTON,
            rid=self.rid("fab_add_new_item"),
            desc="Create a new file or folder",
            clickable=True,
            focusable=True,
            on_click="new",
        )
        return Screen(
            None,
            rows=rows,
            actions=actions,
            fab=fab,
            tabs=self.tabs("main"),
            list_rid=self.rid("ui__filesystem_dialog__list"),
        )

    def screen_select(self, ctx: Ctx, route: Route) -> Screen:
        nb = Notebook(ctx)
        folder = self.folder_of(route)
        chosen = self.selection(ctx)
        entries = self.listing(ctx, nb.children(folder))
        rows = [self.up_row(None)] if folder != NOTEBOOK else []
        rows += [self.row(e, "toggle", "toggle", selected=e.path in chosen) for e in entries]
        actions = [
            View(
                w.IMAGE_BUTTON,
                desc="Done",
                rid=self.rid("action_mode_close_button"),
                clickable=True,
                focusable=True,
                on_click="end_select",
                weight=0.12,
            ),
            self.title(
                "One item selected" if len(chosen) == 1 else f"{len(chosen)} items selected"
            ),
        ]
        if len(chosen) == 1:
            actions.append(self.tool("Rename", "action_rename_selected_item", "rename"))
        actions.append(self.tool("Delete", "action_delete_selected_items", "delete"))
        actions.append(self.overflow("select_menu"))
        return Screen(
            None,
            rows=rows,
            actions=actions,
            tabs=self.tabs("main"),
            list_rid=self.rid("ui__filesystem_dialog__list"),
        )

    def screen_search(self, ctx: Ctx, route: Route) -> Screen:
        nb = Notebook(ctx)
        query = str(route.arg("query", ""))
        entries = self.listing(ctx, nb.search(query, bool(route.arg("content"))))
        rows = [self.row(e, "open", None, where=True) for e in entries]
        if not entries:
            rows.append(self.empty())
        return Screen(
            f"Search: {query}",
            up=True,
            rows=rows,
            list_rid=self.rid("ui__filesystem_dialog__list"),
        )

    # ------------------------------------------------------------ the editor
    def screen_editor(self, ctx: Ctx, route: Route) -> Screen:
        return self.document(ctx, route, str(route.arg("path")), DOCUMENT_ACTIVITY, None)

    def screen_todo(self, ctx: Ctx, route: Route) -> Screen:
        return self.document(ctx, route, f"{NOTEBOOK}/{TODO_NAME}", MAIN_ACTIVITY, "todo")

    def screen_quicknote(self, ctx: Ctx, route: Route) -> Screen:
        return self.document(ctx, route, f"{NOTEBOOK}/{QUICKNOTE_NAME}", MAIN_ACTIVITY, "quicknote")

    def document(self, ctx: Ctx, route: Route, path: str, activity: str, tab: str | None) -> Screen:
        note = Notebook(ctx).files.get(path)
        saved = str(note.get("content") or "") if note is not None else ""
        loaded = ctx.form(LOADED) == "1"
        viewing = ctx.form(MODE) == "view"
        actions: list[View] = []
        if tab is None:
            actions.append(image_button("Navigate up", "up_save"))
        actions.append(self.title(base_name(path)))
        if viewing:
            actions.append(self.tool("Edit", "action_preview", "mode"))
        else:
            actions.append(self.tool("Save", "action_save", "save"))
            actions.append(self.tool("View", "action_preview", "mode"))
        footer: list[View] = []
        if viewing:
            lines = saved.split("\n") if saved else []
            web = View(
                "android.webkit.WebView",
                rid=self.rid("document__fragment_view_webview"),
                children=[web_line(line) for line in lines if line],
            )
            rows = [web]
        else:
            text = ctx.form("content") if loaded else saved
            editor = View(
                w.EDIT,
                text="" if loaded else saved,
                rid=self.rid("document__fragment__edit__highlighting_editor"),
                hint="",
                edit="content",
                height=max(300, 75 * (text.count("\n") + 2)),
            )
            rows = [editor]
            bar = View(
                w.LINEAR,
                rid=self.rid("document__fragment__edit__text_actions_bar"),
                horizontal=True,
                height=130,
                children=[
                    image_button(desc, "markup", markup, rid=self.rid("document__text_action"))
                    for desc, markup in ACTIONS_BAR
                ],
            )
            footer.append(bar)
        return Screen(
            None,
            activity=activity,
            rows=rows,
            actions=actions,
            footer=footer,
            tabs=self.tabs(tab) if tab is not None else [],
            list_rid=self.rid("document__fragment__edit__content_editor__scrolling_parent"),
            list_cls=w.SCROLL,
        )

    # ------------------------------------------------------------ more and settings
    def screen_more(self, ctx: Ctx, route: Route) -> Screen:
        rows = [
            View(
                w.LINEAR,
                clickable=True,
                focusable=True,
                on_click="settings",
                height=160,
                children=[View(w.TEXT, text="Settings", rid="android:id/title")],
            )
        ]
        return Screen("Markor", rows=rows, tabs=self.tabs("more"))

    def screen_settings(self, ctx: Ctx, route: Route) -> Screen:
        kind = str(ctx.setting("new_file_type") or "md")

        def pref(title: str, summary: str, key: str, widget: View | None = None) -> View:
            text = View(
                w.RELATIVE,
                weight=0.8,
                children=[
                    View(w.TEXT, text=title, rid="android:id/title", height=90),
                    View(w.TEXT, text=summary, rid="android:id/summary", height=70),
                ],
            )
            children = [text] + ([View(w.LINEAR, weight=0.2, children=[widget])] if widget else [])
            return View(
                w.LINEAR,
                clickable=True,
                focusable=True,
                on_click=key,
                horizontal=True,
                height=190,
                children=children,
            )

        rows = [
            pref("New file type", TYPE_LABEL.get(kind, kind), "pick_file_type"),
            pref(
                "Open existing files in view mode",
                "Show notes rendered when opening them",
                "toggle_setting",
                switch(bool(ctx.setting("open_in_view_mode")), "toggle_setting", None),
            ),
            pref(
                "Folder first",
                "List folders before files",
                "toggle_folders_first",
                switch(ctx.setting("folders_first") is not False, "toggle_folders_first", None),
            ),
        ]
        return Screen(
            "Settings", up=True, rows=rows, activity=SETTINGS_ACTIVITY, list_rid="android:id/list"
        )

    # ------------------------------------------------------------ selection state
    def selection(self, ctx: Ctx) -> frozenset[str]:
        return frozenset(p for p in ctx.form(SELECTED).split("\n") if p)

    def set_selection(self, ctx: Ctx, chosen: Iterable[str]) -> None:
        ctx.set_form(SELECTED, "\n".join(sorted(chosen)))

    # ------------------------------------------------------------ handlers: browsing
    def on_tab(self, ctx: Ctx, screen: str) -> None:
        ctx.hide_keyboard()
        route = ctx.route
        if route is not None and TAB_OF.get(route.screen) == screen:
            return
        ctx.back_to("")  # down to the screen the app opened with
        stack = ctx.phone.stacks.get(self.model, [])
        if stack and stack[-1].screen == screen and not stack[-1].args:
            return
        new = ctx.replace(screen)
        if screen in ("todo", "quicknote"):
            self.load(ctx, new, f"{NOTEBOOK}/{TODO_NAME if screen == 'todo' else QUICKNOTE_NAME}")

    def on_open(self, ctx: Ctx, path: str) -> None:
        nb = Notebook(ctx)
        if path in nb.dirs:
            ctx.push("main", path=path)
        elif path in nb.files:
            self.open_note(ctx, path)

    def open_note(self, ctx: Ctx, path: str) -> None:
        new = ctx.push("editor", path=path)
        self.load(ctx, new, path)
        if ctx.setting("open_in_view_mode"):
            ctx.set_form(MODE, "view", route=new)

    def load(self, ctx: Ctx, route: Route, path: str) -> None:
        note = Notebook(ctx).files.get(path)
        ctx.set_form("content", str(note.get("content") or "") if note else "", route=route)
        ctx.set_form(LOADED, "1", route=route)

    def on_up_folder(self, ctx: Ctx, arg: Any) -> None:
        route = ctx.route
        assert route is not None
        parent = parent_of(self.folder_of(route))
        stack = ctx.phone.stacks.get(self.model, [])
        below = stack[-2] if len(stack) > 1 else None
        if below is not None and below.screen == "main" and self.folder_of(below) == parent:
            ctx.back()
        elif parent == NOTEBOOK:
            ctx.replace("main")
        else:
            ctx.replace("main", path=parent)

    def on_main_menu(self, ctx: Ctx, arg: Any) -> None:
        ctx.dialog(Dialog("", items=[menu_item("Settings", "settings")]))

    def on_go_to(self, ctx: Ctx, arg: Any) -> None:
        ctx.dialog(Dialog("", items=[menu_item("Notebook", "go_notebook")]))

    def on_go_notebook(self, ctx: Ctx, arg: Any) -> None:
        ctx.back_to("")
        stack = ctx.phone.stacks.get(self.model, [])
        if not stack or stack[-1].screen != "main" or stack[-1].args:
            ctx.replace("main")

    def on_settings(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("settings")

    # sort ---------------------------------------------------------------------------
    def on_sort(self, ctx: Ctx, arg: Any) -> None:
        by = str(ctx.setting("sort_by") or "name")
        items = [
            check_item(w.RADIO, label, key == by, "sort_pick", key, rid="android:id/title")
            for key, label in SORTS
        ]
        items.append(
            check_item(
                w.CHECKBOX,
                "Folder first",
                ctx.setting("folders_first") is not False,
                "toggle_folders_first",
                None,
                rid="android:id/title",
            )
        )
        items.append(
            check_item(
                w.CHECKBOX,
                "Reverse order",
                bool(ctx.setting("sort_reverse")),
                "toggle_reverse",
                None,
                rid="android:id/title",
            )
        )
        ctx.dialog(Dialog("", items=items))

    def on_sort_pick(self, ctx: Ctx, by: str) -> None:
        if ctx.setting("sort_by") != by:
            ctx.set("sort_by", by)

    def on_toggle_reverse(self, ctx: Ctx, arg: Any) -> None:
        ctx.set("sort_reverse", not ctx.setting("sort_reverse"))

    def on_toggle_folders_first(self, ctx: Ctx, arg: Any) -> None:
        ctx.set("folders_first", ctx.setting("folders_first") is False)

    def on_toggle_setting(self, ctx: Ctx, arg: Any) -> None:
        ctx.set("open_in_view_mode", not ctx.setting("open_in_view_mode"))

    def on_pick_file_type(self, ctx: Ctx, arg: Any) -> None:
        kind = str(ctx.setting("new_file_type") or "md")
        items = [
            check_item(w.RADIO, label, key == kind, "set_file_type", key, rid="android:id/text1")
            for key, label in TYPES
        ]
        ctx.dialog(Dialog("New file type", items=items, buttons=[("Cancel", None, None)]))

    def on_set_file_type(self, ctx: Ctx, kind: str) -> None:
        if ctx.setting("new_file_type") != kind:
            ctx.set("new_file_type", kind)

    # search -------------------------------------------------------------------------
    def search_dialog(self, ctx: Ctx) -> Dialog:
        content = ctx.form("search_content") == "1"
        items = [
            field(self.rid("search_query"), "search_query", "Search", "search_go"),
            check_item(
                w.CHECKBOX, "Search in content", content, "search_content", None, height=130
            ),
        ]
        return Dialog(
            "Search", items=items, buttons=[("OK", "search_go", None), ("Cancel", None, None)]
        )

    def on_search(self, ctx: Ctx, arg: Any) -> None:
        ctx.set_form("search_query", "")
        ctx.dialog(self.search_dialog(ctx))
        ctx.focus("search_query")

    def on_search_content(self, ctx: Ctx, arg: Any) -> None:
        ctx.set_form("search_content", "" if ctx.form("search_content") == "1" else "1")
        ctx.dialog(self.search_dialog(ctx))

    def on_search_go(self, ctx: Ctx, arg: Any) -> None:
        ctx.close_dialog()
        ctx.hide_keyboard()
        query = ctx.form("search_query").strip()
        if not query:
            return
        ctx.push("search", query=query, content=ctx.form("search_content") == "1")

    # new file / folder --------------------------------------------------------------
    def create_dialog(self, ctx: Ctx) -> Dialog:
        kind = ctx.form("new_type") or str(ctx.setting("new_file_type") or "md")
        items = [
            View(w.TEXT, text="Name", height=70),
            field(self.rid("new_file_dialog__name"), "new_name", "Title", "create_file"),
            View(
                w.LINEAR,
                horizontal=True,
                height=150,
                children=[
                    View(
                        w.TEXT,
                        text=TYPE_LABEL.get(kind, kind),
                        rid=self.rid("new_file_dialog__type"),
                        clickable=True,
                        focusable=True,
                        on_click="new_type",
                        weight=0.6,
                    ),
                    View(
                        w.EDIT,
                        rid=self.rid("new_file_dialog__ext"),
                        edit="new_ext",
                        hint=".md",
                        weight=0.4,
                    ),
                ],
            ),
        ]
        return Dialog(
            "Create new document",
            items=items,
            buttons=[
                ("OK", "create_file", None),
                ("Cancel", None, None),
                ("Folder", "create_folder", None),
            ],
        )

    def on_new(self, ctx: Ctx, arg: Any) -> None:
        kind = str(ctx.setting("new_file_type") or "md")
        ctx.set_form("new_name", "")
        ctx.set_form("new_type", kind)
        ctx.set_form("new_ext", f".{kind}")
        ctx.dialog(self.create_dialog(ctx))
        ctx.focus("new_name")

    def on_new_type(self, ctx: Ctx, arg: Any) -> None:
        kind = ctx.form("new_type") or "md"
        items = [
            check_item(w.RADIO, label, key == kind, "new_type_pick", key, rid="android:id/text1")
            for key, label in TYPES
        ]
        ctx.dialog(Dialog("", items=items))

    def on_new_type_pick(self, ctx: Ctx, kind: str) -> None:
        ctx.set_form("new_type", kind)
        ctx.set_form("new_ext", f".{kind}")
        ctx.dialog(self.create_dialog(ctx))

    def new_path(self, ctx: Ctx, with_ext: bool) -> str | None:
        route = ctx.route
        assert route is not None
        name = ctx.form("new_name").strip()
        if with_ext:
            ext = ctx.form("new_ext").strip()
            if ext and not ext.startswith("."):
                ext = "." + ext
            typed_ext = "." + name.rsplit(".", 1)[-1].lower() if "." in name else ""
            if ext and typed_ext not in KNOWN_EXTENSIONS:
                name += ext
        if not valid_name(name) or not ctx.form("new_name").strip():
            ctx.toast("Please enter a name")
            return None
        path = f"{self.folder_of(route)}/{name}"
        if Notebook(ctx).exists(path):
            ctx.toast(EXISTS)
            return None
        return path

    def on_create_file(self, ctx: Ctx, arg: Any) -> None:
        ctx.close_dialog()
        ctx.hide_keyboard()
        path = self.new_path(ctx, True)
        if path is None:
            ctx.dialog(self.create_dialog(ctx))
            return
        ctx.add("files", file_record(path, "", ctx.now))
        self.open_note(ctx, path)

    def on_create_folder(self, ctx: Ctx, arg: Any) -> None:
        ctx.hide_keyboard()
        path = self.new_path(ctx, False)
        if path is None:
            ctx.dialog(self.create_dialog(ctx))
            return
        ctx.add("folders", folder_record(path))

    # ------------------------------------------------------------ handlers: selection
    def on_select(self, ctx: Ctx, path: str) -> None:
        route = ctx.route
        assert route is not None
        folder = self.folder_of(route)
        new = ctx.push("select", path=folder) if folder != NOTEBOOK else ctx.push("select")
        ctx.set_form(SELECTED, path, route=new)
        offset = ctx.phone.scroll.get(route.id, 0)
        if offset:
            ctx.phone.scroll[new.id] = offset

    def on_toggle(self, ctx: Ctx, path: str) -> None:
        chosen = set(self.selection(ctx)) ^ {path}
        if not chosen:
            ctx.back()
            return
        self.set_selection(ctx, chosen)

    def on_end_select(self, ctx: Ctx, arg: Any) -> None:
        ctx.back()

    def on_select_menu(self, ctx: Ctx, arg: Any) -> None:
        items = [
            menu_item("Move", "move"),
            menu_item("Copy", "copy"),
            menu_item("Select all", "select_all"),
        ]
        ctx.dialog(Dialog("", items=items))

    def on_select_all(self, ctx: Ctx, arg: Any) -> None:
        route = ctx.route
        assert route is not None
        entries = Notebook(ctx).children(self.folder_of(route))
        self.set_selection(ctx, [e.path for e in entries])

    def on_delete(self, ctx: Ctx, arg: Any) -> None:
        chosen = tuple(sorted(self.selection(ctx)))
        if not chosen:
            return
        nb = Notebook(ctx)
        if len(chosen) > 1:
            what = f"{len(chosen)} items"
        else:
            what = "folder" if chosen[0] in nb.dirs else "file"
        names = "\n".join(base_name(p) for p in chosen)
        ctx.dialog(
            Dialog(
                "Confirm Delete",
                message=f"Do you really want to delete this {what}?\n{names}",
                buttons=[("OK", "delete_ok", chosen), ("Cancel", None, None)],
            )
        )

    def on_delete_ok(self, ctx: Ctx, paths: tuple[str, ...]) -> None:
        for path in paths:
            for f in list(ctx.records("files")):
                p = str(f.get("path") or "")
                if p == path or inside(p, path):
                    ctx.delete("files", f)
            for f in list(ctx.records("folders")):
                p = str(f.get("path") or "")
                if p == path or inside(p, path):
                    ctx.delete("folders", f)
        ctx.back()

    def on_rename(self, ctx: Ctx, arg: Any) -> None:
        chosen = sorted(self.selection(ctx))
        if len(chosen) != 1:
            return
        path = chosen[0]
        ctx.set_form("rename_name", base_name(path))
        ctx.dialog(
            Dialog(
                "Rename",
                items=[field("android:id/edit", "rename_name", "Name", "rename_ok")],
                buttons=[("OK", "rename_ok", None), ("Cancel", None, None)],
            )
        )
        ctx.focus("rename_name")

    def on_rename_ok(self, ctx: Ctx, arg: Any) -> None:
        ctx.close_dialog()
        ctx.hide_keyboard()
        chosen = sorted(self.selection(ctx))
        if len(chosen) != 1:
            return
        path = chosen[0]
        name = ctx.form("rename_name").strip()
        if name == base_name(path):
            ctx.back()
            return
        target = f"{parent_of(path)}/{name}"
        if not valid_name(name) or Notebook(ctx).exists(target):
            ctx.toast(EXISTS if valid_name(name) else "Please enter a name")
            return
        self.relocate(ctx, path, target)
        ctx.back()

    # move / copy ----------------------------------------------------------------------
    def chooser(self, ctx: Ctx, mode: str, folder: str) -> Dialog:
        nb = Notebook(ctx)
        chosen = self.selection(ctx)
        items: list[View] = []
        if folder != NOTEBOOK:
            items.append(self.up_row("pick_open"))
            items[-1].arg = (mode, parent_of(folder))
        dirs = sorted((p for p in nb.dirs if parent_of(p) == folder), key=str.casefold)
        for p in dirs:
            if p in chosen:
                continue  # a folder cannot go into itself
            row = self.row(nb.entry(p), "pick_open", None)
            row.arg = (mode, p)
            items.append(row)
        shown = "/" + relative(folder) if folder != NOTEBOOK else "Markor"
        return Dialog(
            "Select folder",
            message=shown,
            items=items,
            buttons=[("OK", "pick_ok", (mode, folder)), ("Cancel", None, None)],
        )

    def on_move(self, ctx: Ctx, arg: Any) -> None:
        if self.selection(ctx):
            ctx.dialog(self.chooser(ctx, "move", NOTEBOOK))

    def on_copy(self, ctx: Ctx, arg: Any) -> None:
        if self.selection(ctx):
            ctx.dialog(self.chooser(ctx, "copy", NOTEBOOK))

    def on_pick_open(self, ctx: Ctx, arg: tuple[str, str]) -> None:
        mode, folder = arg
        ctx.dialog(self.chooser(ctx, mode, folder))

    def on_pick_ok(self, ctx: Ctx, arg: tuple[str, str]) -> None:
        mode, folder = arg
        moved = 0
        for path in sorted(self.selection(ctx)):
            target = f"{folder}/{base_name(path)}"
            if target == path or folder == path or inside(folder, path):
                continue  # already there, or a folder into itself
            if Notebook(ctx).exists(target):
                ctx.toast(EXISTS)
                continue
            if mode == "move":
                self.relocate(ctx, path, target)
            else:
                self.duplicate(ctx, path, target)
            moved += 1
        if moved:
            ctx.back()

    def relocate(self, ctx: Ctx, path: str, target: str) -> None:
        """Move or rename a file or folder, carrying what a folder holds."""

        def moved(p: str) -> str:
            return target + p[len(path) :]

        for f in list(ctx.records("files")):
            p = str(f.get("path") or "")
            if p == path or inside(p, path):
                new = moved(p)
                ctx.update(
                    "files",
                    f,
                    path=new,
                    name=base_name(new),
                    folder=relative(parent_of(new)),
                )
        for f in list(ctx.records("folders")):
            p = str(f.get("path") or "")
            if p == path or inside(p, path):
                new = moved(p)
                ctx.update("folders", f, **folder_record(new))

    def duplicate(self, ctx: Ctx, path: str, target: str) -> None:
        nb = Notebook(ctx)
        if path in nb.dirs:
            ctx.add("folders", folder_record(target))
        for p, f in nb.files.items():
            if p == path or inside(p, path):
                new = target + p[len(path) :]
                ctx.add("files", file_record(new, str(f.get("content") or ""), ctx.now))
        for f in list(ctx.records("folders")):
            p = str(f.get("path") or "")
            if inside(p, path):
                ctx.add("folders", folder_record(target + p[len(path) :]))

    # ------------------------------------------------------------ handlers: the editor
    def document_path(self, route: Route) -> str:
        if route.screen == "todo":
            return f"{NOTEBOOK}/{TODO_NAME}"
        if route.screen == "quicknote":
            return f"{NOTEBOOK}/{QUICKNOTE_NAME}"
        return str(route.arg("path"))

    def save(self, ctx: Ctx) -> None:
        route = ctx.route
        if route is None or ctx.form(LOADED) != "1":
            return
        path = self.document_path(route)
        text = ctx.form("content")
        note = Notebook(ctx).files.get(path)
        if note is None:
            if not text:
                return  # nothing written: To-Do and QuickNote are created by writing
            ctx.add("files", file_record(path, text, ctx.now))
        elif str(note.get("content") or "") != text:
            ctx.update("files", note, content=text, modified=ctx.now.isoformat(timespec="seconds"))

    def leaving(self, ctx: Ctx, route: Route, why: str) -> None:
        if route.screen in ("editor", "todo", "quicknote"):
            self.save(ctx)

    def on_save(self, ctx: Ctx, arg: Any) -> None:
        self.save(ctx)
        ctx.toast("Saved")

    def on_up_save(self, ctx: Ctx, arg: Any) -> None:
        self.save(ctx)
        ctx.hide_keyboard()
        ctx.back()

    def on_mode(self, ctx: Ctx, arg: Any) -> None:
        if ctx.form(MODE) == "view":
            ctx.set_form(MODE, "")
            return
        self.save(ctx)
        ctx.hide_keyboard()
        ctx.set_form(MODE, "view")

    def on_markup(self, ctx: Ctx, markup: str) -> None:
        text = ctx.form("content")
        if text and not text.endswith("\n") and markup.endswith(" "):
            text += "\n"
        ctx.set_form("content", text + markup)
        ctx.focus("content")


APP = Markor
