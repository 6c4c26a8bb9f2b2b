"""Files: Android's Files app (DocumentsUI, ``com.google.android.documentsui``) over shared
storage (``/sdcard``).

The storage root lists the standard top-level folders (Alarms, DCIM, Documents, Download, ...),
every folder of the ``folders`` collection and every folder a document's path implies; a
folder lists its sub-folders first, then its documents (trashed documents are never shown),
sorted by the ``sort_by`` / ``sort_descending`` settings ("Sort by" in the overflow menu).
Rows show the name, the date ("6:20 PM" today, "May 2" this year, "3/21/25" before), the size
("2.48 MB", Android's ``Formatter.formatFileSize``) and the type ("PDF document").

A long press starts a selection (a screen of its own, so Back ends it): the toolbar shows
"N selected" with Share, Delete (confirmed) and More options (Select all, Copy to…, Move to…,
Rename, Properties). Copy to… / Move to… open the folder picker (``PickActivity``: browse,
then "Copy" / "Move"); Properties opens the inspector (``InspectorActivity``). Moving and
renaming keep a document's ``path``, ``name`` and ``folder`` (its top-level folder) in step,
and carry every document and folder under a moved folder along.

Share lists every installed app that has a ``screen_share``; choosing one opens it at that
screen with the arguments ``name``, ``path``, ``kind`` and ``size`` (the first shared file)
and ``names``, ``paths`` (tuples: every shared file).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from tasklang.envs.phoneworld import widgets as w
from tasklang.envs.phoneworld.app import App, Ctx, Dialog, Route, Screen
from tasklang.envs.phoneworld.apps.common import button, choice_dialog, menu_item
from tasklang.envs.phoneworld.widgets import View

PKG = "com.google.android.documentsui"
FILES_ACTIVITY = "com.android.documentsui.files.FilesActivity"
PICK_ACTIVITY = "com.android.documentsui.picker.PickActivity"
INSPECTOR_ACTIVITY = "com.android.documentsui.inspector.InspectorActivity"

ROOT = "/sdcard"
ROOT_LABEL = "Internal storage"
# The folders every Android device has at the top of its shared storage.
STANDARD = (
    "Alarms",
    "Audiobooks",
    "DCIM",
    "Documents",
    "Download",
    "Movies",
    "Music",
    "Notifications",
    "Pictures",
    "Podcasts",
    "Recordings",
    "Ringtones",
)
STANDARD_PATHS = frozenset(f"{ROOT}/{n}" for n in STANDARD)

KIND_OF_EXT = {
    **dict.fromkeys(
        ("pdf", "doc", "docx", "txt", "odt", "rtf", "xls", "xlsx", "ppt", "pptx", "epub", "md"),
        "document",
    ),
    **dict.fromkeys(("jpg", "jpeg", "png", "gif", "webp", "heic", "heif", "bmp"), "image"),
    **dict.fromkeys(("mp3", "m4a", "wav", "ogg", "flac", "aac", "opus", "amr"), "audio"),
    **dict.fromkeys(("mp4", "webm", "mkv", "3gp", "mov", "avi"), "video"),
    **dict.fromkeys(("zip", "rar", "7z", "tar", "gz", "tgz"), "archive"),
    "apk": "apk",
}
TYPE_WORD = {
    "document": "document",
    "image": "image",
    "audio": "audio",
    "video": "video",
    "archive": "archive",
}

SORTS: tuple[tuple[str, bool, str], ...] = (
    ("name", False, "Name (A to Z)"),
    ("name", True, "Name (Z to A)"),
    ("type", False, "Type (A to Z)"),
    ("type", True, "Type (Z to A)"),
    ("size", False, "Size (smallest first)"),
    ("size", True, "Size (largest first)"),
    ("modified", False, "Modified (oldest first)"),
    ("modified", True, "Modified (newest first)"),
)

# The roots of the navigation drawer: key, label.
ROOTS: tuple[tuple[str, str], ...] = (
    ("recent", "Recent"),
    ("images", "Images"),
    ("videos", "Videos"),
    ("audio", "Audio"),
    ("documents", "Documents"),
    ("downloads", "Downloads"),
    ("storage", ROOT_LABEL),
)
ROOT_KINDS = {"images": "image", "videos": "video", "audio": "audio", "documents": "document"}
ROOT_TITLES = dict(ROOTS)

SELECTED = "_selected"  # the form value of a selection screen: the selected paths, one a line
ROW_HEIGHT = 189
GRID_HEIGHT = 430
NOT_SUPPORTED = "File operation is not supported."


# ------------------------------------------------------------------ paths and formatting
def parent_of(path: str) -> str:
    return path.rsplit("/", 1)[0]


def base_name(path: str) -> str:
    return path.rsplit("/", 1)[-1]


def top_folder(path: str) -> str:
    """The top-level folder under internal storage that holds ``path`` ("" at the root)."""
    rest = path[len(ROOT) + 1 :] if path.startswith(ROOT + "/") else path.lstrip("/")
    parts = rest.split("/")
    return parts[0] if len(parts) > 1 else ""


def ancestors(path: str) -> Iterable[str]:
    """The folders holding ``path`` below the storage root, innermost first."""
    p = parent_of(path)
    while p.startswith(ROOT + "/"):
        yield p
        p = parent_of(p)


def inside(path: str, folder: str) -> bool:
    return path.startswith(folder + "/")


def extension(name: str) -> str:
    stem, dot, ext = name.rpartition(".")
    return ext.lower() if dot and stem else ""


def kind_of(name: str) -> str:
    return KIND_OF_EXT.get(extension(name), "other")


def type_label(name: str, kind: str) -> str:
    ext = extension(name).upper()
    if kind == "apk":
        return "Android package"
    if not ext:
        return "File"
    return f"{ext} {TYPE_WORD.get(kind, 'file')}"


def format_size(size: int) -> str:
    """Android's ``Formatter.formatFileSize`` (SI units): "184 kB", "2.48 MB"."""
    result = float(size)
    units = ("B", "kB", "MB", "GB", "TB", "PB")
    i = 0
    while result > 900 and i < len(units) - 1:
        result /= 1000
        i += 1
    text = f"{result:.0f}" if i == 0 or result >= 100 else f"{result:.2f}"
    return f"{text} {units[i]}"


def parse_time(value: Any) -> dt.datetime | None:
    if isinstance(value, dt.datetime):
        return value
    try:
        return dt.datetime.fromisoformat(str(value))
    except ValueError:
        return None


def short_time(t: dt.datetime) -> str:
    return f"{t.hour % 12 or 12}:{t.minute:02d} {'AM' if t.hour < 12 else 'PM'}"


def format_date(value: Any, now: dt.datetime) -> str:
    """As the list shows a date: the time today, "May 2" this year, "3/21/25" before."""
    t = parse_time(value)
    if t is None:
        return ""
    if t.date() == now.date():
        return short_time(t)
    if t.year == now.year:
        return f"{t:%b} {t.day}"
    return f"{t.month}/{t.day}/{t:%y}"


def format_full_date(value: Any) -> str:
    t = parse_time(value)
    return "" if t is None else f"{t:%b} {t.day}, {t.year}, {short_time(t)}"


def items_text(n: int) -> str:
    return f"{n} item" if n == 1 else f"{n} items"


def plural(n: int, one: str, many: str) -> str:
    return (one if n == 1 else many).format(n=n)


def valid_name(name: str) -> bool:
    return bool(name) and "/" not in name and name not in (".", "..")


# ------------------------------------------------------------------ the storage, read once a screen
@dataclass(frozen=True, slots=True)
class Entry:
    """One row: a folder or a document."""

    path: str
    name: str
    is_dir: bool
    size: int = 0
    modified: str = ""
    kind: str = ""
    items: int = 0


class Storage:
    """The folders and documents of shared storage, as the app lists them."""

    def __init__(self, ctx: Ctx) -> None:
        self.all_docs = ctx.records("documents")
        self.folders = ctx.records("folders")
        self.show_hidden = bool(ctx.setting("show_hidden_files"))
        dirs = {ROOT, *STANDARD_PATHS}
        for f in self.folders:
            path = str(f.get("path", ""))
            if path.startswith(ROOT + "/"):
                dirs.add(path)
                dirs.update(ancestors(path))
        for d in self.all_docs:
            dirs.update(ancestors(str(d.get("path", ""))))
        self.dirs = dirs
        self.docs = [d for d in self.all_docs if not d.get("in_trash")]
        self.paths = {str(d.get("path")) for d in self.all_docs}
        counts: dict[str, int] = {}
        latest: dict[str, str] = {}
        for p in dirs:
            if p != ROOT and self.visible(p):
                counts[parent_of(p)] = counts.get(parent_of(p), 0) + 1
        for d in self.docs:
            path = str(d.get("path", ""))
            if not self.visible(path):
                continue
            folder = parent_of(path)
            counts[folder] = counts.get(folder, 0) + 1
            when = str(d.get("modified") or "")
            if when > latest.get(folder, ""):
                latest[folder] = when
        self.counts = counts
        self.latest = latest

    def visible(self, path: str) -> bool:
        if self.show_hidden:
            return True
        rest = path[len(ROOT) + 1 :] if path.startswith(ROOT + "/") else path
        return not any(part.startswith(".") for part in rest.split("/"))

    def exists(self, path: str) -> bool:
        return path in self.dirs or path in self.paths

    def dir_entry(self, path: str) -> Entry:
        return Entry(
            path,
            base_name(path),
            True,
            modified=self.latest.get(path, ""),
            items=self.counts.get(path, 0),
        )

    @staticmethod
    def doc_entry(d: dict[str, Any]) -> Entry:
        path = str(d.get("path", ""))
        return Entry(
            path,
            str(d.get("name") or base_name(path)),
            False,
            size=int(d.get("size") or 0),
            modified=str(d.get("modified") or ""),
            kind=str(d.get("kind") or "other"),
        )

    def children(self, folder: str) -> list[Entry]:
        subdirs = [
            self.dir_entry(p)
            for p in self.dirs
            if p != ROOT and parent_of(p) == folder and self.visible(p)
        ]
        docs = [
            self.doc_entry(d)
            for d in self.docs
            if parent_of(str(d.get("path", ""))) == folder and self.visible(str(d.get("path")))
        ]
        return subdirs + docs

    def of_root(self, root: str) -> list[Entry]:
        docs = [d for d in self.docs if self.visible(str(d.get("path", "")))]
        if root == "recent":
            return [self.doc_entry(d) for d in docs]
        kind = ROOT_KINDS.get(root)
        return [self.doc_entry(d) for d in docs if d.get("kind") == kind]

    def search(self, query: str) -> list[Entry]:
        q = query.strip().casefold()
        if not q:
            return []
        dirs = [
            self.dir_entry(p)
            for p in self.dirs
            if p != ROOT and q in base_name(p).casefold() and self.visible(p)
        ]
        docs = [
            self.doc_entry(d)
            for d in self.docs
            if q in str(d.get("name", "")).casefold() and self.visible(str(d.get("path", "")))
        ]
        return dirs + docs

    def under(self, folder: str) -> list[dict[str, Any]]:
        """Every document (trashed ones too) inside ``folder``, at any depth."""
        return [d for d in self.all_docs if inside(str(d.get("path", "")), folder)]

    def folder_records(self, folder: str) -> list[dict[str, Any]]:
        """The folder records of ``folder`` and of every folder inside it."""
        return [
            f
            for f in self.folders
            if f.get("path") == folder or inside(str(f.get("path", "")), folder)
        ]


def sort_entries(entries: list[Entry], by: str, descending: bool) -> list[Entry]:
    """Folders first, then documents, each group in the chosen order (ties by name)."""

    def key(e: Entry) -> tuple[Any, ...]:
        name = e.name.casefold()
        if by == "size":
            return (0 if e.is_dir else e.size, name)
        if by == "modified":
            return (e.modified, name)
        if by == "type":
            return ("" if e.is_dir else extension(e.name), name)
        return (name, e.name)

    dirs = sorted((e for e in entries if e.is_dir), key=key, reverse=descending)
    docs = sorted((e for e in entries if not e.is_dir), key=key, reverse=descending)
    return dirs + docs


def display_name(path: str) -> str:
    return ROOT_LABEL if path == ROOT else base_name(path)


def doc_at(ctx: Ctx, path: str) -> dict[str, Any] | None:
    """The document record at ``path``."""
    return ctx.find("documents", lambda d: d.get("path") == path)


def name_dialog(
    title: str, form: str, key: str, arg: Any = None, text: str = "", hint: str = ""
) -> Dialog:
    """A dialog asking for a name (typed into the form value ``form``); OK (or the keyboard's
    enter) sends ``key``."""
    field = View(
        w.EDIT,
        text=text,
        rid="android:id/text1",
        hint=hint,
        edit=form,
        on_enter=key,
        arg=arg,
        clickable=True,
        focusable=True,
        long_clickable=True,
        height=150,
    )
    return Dialog(title, items=[field], buttons=[("OK", key, arg), ("Cancel", None, None)])


def dismiss(ctx: Ctx) -> None:
    """Close the menu or dialog on the screen (a keyboard enter in a dialog's field does not
    close it by itself)."""
    ctx.close_dialog()


# ------------------------------------------------------------------ the app
class Files(App):
    model = "files"
    package = PKG
    label = "Files"
    activity = FILES_ACTIVITY
    home = "main"

    # ------------------------------------------------------------ pieces of screens
    def listing(self, ctx: Ctx, st: Storage, src: dict[str, Any]) -> list[Entry]:
        """The rows of a listing source: a folder (``path``), a drawer root (``root``) or a
        search (``query``)."""
        by = str(ctx.setting("sort_by") or "name")
        descending = bool(ctx.setting("sort_descending"))
        if src.get("query") is not None:
            return sort_entries(st.search(str(src["query"])), by, descending)
        root = src.get("root")
        if root == "recent":
            entries = st.of_root("recent")
            return sorted(entries, key=lambda e: (e.modified, e.name), reverse=True)
        if root is not None:
            return sort_entries(st.of_root(str(root)), by, descending)
        return sort_entries(st.children(str(src.get("path") or ROOT)), by, descending)

    def row(
        self,
        ctx: Ctx,
        e: Entry,
        click: str | None,
        long: str | None,
        *,
        enabled: bool = True,
        selected: bool = False,
        where: bool = False,
        grid: bool = False,
    ) -> View:
        """One list row (or grid cell) of a folder or document."""
        icon = View(w.FRAME, rid="android:id/icon", weight=0.18 if not grid else 1.0)
        icon.children.append(View(w.IMAGE, rid=self.rid("icon_mime"), height=100))
        if selected:
            icon.children.append(View(w.IMAGE, rid=self.rid("icon_check"), height=60))
        details: list[View] = []
        date = format_date(e.modified, ctx.now)
        if date:
            details.append(View(w.TEXT, text=date, rid=self.rid("date")))
        if not e.is_dir:
            details.append(View(w.TEXT, text=format_size(e.size), rid=self.rid("size")))
            if not grid:
                details.append(
                    View(w.TEXT, text=type_label(e.name, e.kind), rid=self.rid("file_type"))
                )
        summary = items_text(e.items) if e.is_dir else ""
        if where:
            summary = display_name(parent_of(e.path))
        if summary and not grid:
            details.append(View(w.TEXT, text=summary, rid="android:id/summary"))
        title = View(w.TEXT, text=e.name, rid="android:id/title", height=100, enabled=enabled)
        line2 = View(w.LINEAR, rid=self.rid("line2"), horizontal=True, height=80)
        line2.children = details
        for d in details:
            d.enabled = enabled
        text = View(w.LINEAR, weight=0.82, children=[title, line2])
        view = View(
            w.LINEAR,
            rid=self.rid("item_root"),
            clickable=enabled and click is not None,
            long_clickable=enabled and long is not None,
            focusable=enabled,
            enabled=enabled,
            selected=selected,
            on_click=click if enabled else None,
            on_long=long if enabled else None,
            arg=e.path,
            horizontal=not grid,
            height=GRID_HEIGHT if grid else ROW_HEIGHT,
        )
        view.children = [icon, text]
        if grid:
            icon.height, text.height = 250, 180
        return view

    def rows(
        self,
        ctx: Ctx,
        entries: list[Entry],
        click: str | None,
        long: str | None,
        *,
        selected: frozenset[str] = frozenset(),
        disabled: Any = None,
        where: bool = False,
        empty: str = "No items",
    ) -> list[View]:
        if not entries:
            return [View(w.TEXT, text=empty, rid=self.rid("message"), height=300)]
        grid = ctx.setting("view") == "grid"
        views = [
            self.row(
                ctx,
                e,
                click,
                long,
                enabled=disabled is None or not disabled(e),
                selected=e.path in selected,
                where=where,
                grid=grid,
            )
            for e in entries
        ]
        if not grid:
            return views
        cells = [views[i : i + 2] for i in range(0, len(views), 2)]
        return [
            View(
                w.LINEAR,
                horizontal=True,
                height=GRID_HEIGHT,
                children=pair if len(pair) == 2 else [*pair, View(w.VIEW)],
            )
            for pair in cells
        ]

    def breadcrumb(self, path: str | None, label: str | None, key: str) -> View:
        bar = View(w.LINEAR, rid=self.rid("horizontal_breadcrumb"), horizontal=True, height=126)
        crumbs: list[tuple[str, str | None]]
        if label is not None:
            crumbs = [(label, None)]
        else:
            assert path is not None
            chain = [ROOT, *reversed(list(ancestors(path))), path]
            crumbs = [(display_name(p), p) for p in dict.fromkeys(chain)]
        for i, (text, target) in enumerate(crumbs):
            last = i == len(crumbs) - 1
            bar.children.append(
                View(
                    w.TEXT,
                    text=text,
                    rid=self.rid("breadcrumb_text"),
                    clickable=target is not None and not last,
                    focusable=True,
                    selected=last,
                    on_click=key if target is not None and not last else None,
                    arg=target,
                )
            )
        return bar

    def toolbar_button(self, desc: str, rid: str, key: str, arg: Any = None) -> View:
        # toolbar menu items are ActionMenuItemViews, which uiautomator reports as Buttons
        return View(
            w.BUTTON,
            desc=desc,
            rid=self.rid(rid),
            clickable=True,
            focusable=True,
            long_clickable=True,
            on_click=key,
            arg=arg,
        )

    def overflow(self, key: str) -> View:
        return View(
            w.IMAGE,
            desc="More options",
            clickable=True,
            focusable=True,
            on_click=key,
        )

    def title_view(self, text: str, rid: str = "") -> View:
        return View(w.TEXT, text=text, rid=rid, weight=0.55)

    @staticmethod
    def src_args(route: Route) -> dict[str, Any]:
        src = {k: route.arg(k) for k in ("path", "root", "query")}
        src = {k: v for k, v in src.items() if v is not None}
        if not src:
            src["path"] = ROOT
        return src

    # ------------------------------------------------------------ screens
    def screen_main(self, ctx: Ctx, route: Route) -> Screen:
        """A folder of shared storage (the storage root at first)."""
        st = Storage(ctx)
        path = str(route.arg("path", ROOT))
        entries = self.listing(ctx, st, {"path": path})
        return Screen(
            None,
            rows=self.rows(ctx, entries, "open", "select"),
            actions=self.main_actions(ctx, display_name(path), "menu"),
            header=[self.breadcrumb(path, None, "crumb")],
            list_rid=self.rid("dir_list"),
        )

    def screen_root(self, ctx: Ctx, route: Route) -> Screen:
        """A root of the drawer that is not a folder: Recent, Images, Videos, Audio,
        Documents."""
        st = Storage(ctx)
        root = str(route.arg("root"))
        title = ROOT_TITLES.get(root, root)
        entries = self.listing(ctx, st, {"root": root})
        return Screen(
            None,
            rows=self.rows(ctx, entries, "open", "select", where=True),
            actions=self.main_actions(ctx, title, "root_menu"),
            header=[self.breadcrumb(None, title, "crumb")],
            list_rid=self.rid("dir_list"),
        )

    def main_actions(self, ctx: Ctx, title: str, menu: str) -> list[View]:
        grid = ctx.setting("view") == "grid"
        return [
            View(
                w.IMAGE_BUTTON,
                desc="Show roots",
                clickable=True,
                focusable=True,
                on_click="roots",
            ),
            self.title_view(title),
            self.toolbar_button("Search", "option_menu_search", "search"),
            self.toolbar_button(
                "List view" if grid else "Grid view",
                "sub_menu_list" if grid else "sub_menu_grid",
                "toggle_view",
            ),
            self.overflow(menu),
        ]

    def screen_select(self, ctx: Ctx, route: Route) -> Screen:
        """The selection (action) mode over a listing: taps toggle rows."""
        st = Storage(ctx)
        src = self.src_args(route)
        entries = self.listing(ctx, st, src)
        chosen = self.selection(ctx)
        docs_only = all(p in st.paths for p in chosen)
        actions = [
            View(
                w.IMAGE_BUTTON,
                desc="Done",
                rid=self.rid("action_mode_close_button"),
                clickable=True,
                focusable=True,
                on_click="end_select",
            ),
            self.title_view(f"{len(chosen)} selected", self.rid("action_bar_title")),
        ]
        if docs_only:
            actions.append(self.toolbar_button("Share", "action_menu_share", "share"))
        actions.append(self.toolbar_button("Delete", "action_menu_delete", "delete"))
        actions.append(self.overflow("select_menu"))
        header = []
        if "path" in src:
            header.append(self.breadcrumb(str(src["path"]), None, "crumb"))
        else:
            label = f"Search: {src['query']}" if "query" in src else None
            header.append(
                self.breadcrumb(None, label or ROOT_TITLES.get(str(src["root"]), ""), "crumb")
            )
        return Screen(
            None,
            rows=self.rows(
                ctx,
                entries,
                "toggle",
                "toggle",
                selected=chosen,
                where="path" not in src,
            ),
            actions=actions,
            header=header,
            list_rid=self.rid("dir_list"),
        )

    def screen_search(self, ctx: Ctx, route: Route) -> Screen:
        st = Storage(ctx)
        query = ctx.form("query")
        field = View(
            w.EDIT,
            rid="android:id/search_src_text",
            edit="query",
            hint="Search",
            on_enter="search_go",
            height=132,
        )
        entries = self.listing(ctx, st, {"query": query}) if query.strip() else []
        rows = (
            self.rows(
                ctx, entries, "open", "select", where=True, empty=f"No matches in {ROOT_LABEL}"
            )
            if query.strip()
            else []
        )
        return Screen(
            None,
            up=True,
            rows=rows,
            header=[field],
            list_rid=self.rid("dir_list"),
        )

    def screen_roots(self, ctx: Ctx, route: Route) -> Screen:
        """The navigation drawer: the roots."""
        rows = [
            View(
                w.LINEAR,
                rid=self.rid("item_root"),
                clickable=True,
                focusable=True,
                on_click="go_root",
                arg=key,
                height=160,
                children=[View(w.TEXT, text=label, rid="android:id/title")],
            )
            for key, label in ROOTS
        ]
        return Screen("Files", up=True, rows=rows, list_rid=self.rid("roots_list"))

    def screen_picker(self, ctx: Ctx, route: Route) -> Screen:
        """Copy to… / Move to…: browse to the destination folder, then Copy / Move."""
        st = Storage(ctx)
        path = str(route.arg("path", ROOT))
        mode = str(route.arg("mode"))
        moving: tuple[str, ...] = tuple(route.arg("paths", ()))
        entries = self.listing(ctx, st, {"path": path})

        def disabled(e: Entry) -> bool:
            return not e.is_dir or e.path in moving

        same = all(parent_of(p) == path for p in moving)
        usable = not (mode == "move" and same) and not any(
            path == p or inside(path, p) for p in moving
        )
        buttons = [
            button("Cancel", "pick_cancel", rid="android:id/button2", height=150),
            View(
                w.BUTTON,
                text="Move" if mode == "move" else "Copy",
                rid="android:id/button1",
                clickable=usable,
                focusable=True,
                enabled=usable,
                on_click="pick_done" if usable else None,
                height=150,
            ),
        ]
        return Screen(
            None,
            activity=PICK_ACTIVITY,
            up=True,
            rows=self.rows(ctx, entries, "pick_open", None, disabled=disabled),
            actions=[self.title_view(display_name(path)), self.overflow("picker_menu")],
            header=[self.breadcrumb(path, None, "pick_crumb")],
            footer=[View(w.LINEAR, horizontal=True, height=168, children=buttons)],
            list_rid=self.rid("dir_list"),
        )

    def screen_inspector(self, ctx: Ctx, route: Route) -> Screen:
        """Properties of one document or folder."""
        st = Storage(ctx)
        path = str(route.arg("path"))
        doc = next((d for d in st.all_docs if d.get("path") == path), None)
        pairs: list[tuple[str, str]]
        if doc is not None:
            e = st.doc_entry(doc)
            pairs = [
                ("Name", e.name),
                ("Type", type_label(e.name, e.kind)),
                ("Size", f"{format_size(e.size)} ({e.size:,} bytes)"),
                ("Modified", format_full_date(e.modified)),
                ("Path", path),
            ]
        elif path in st.dirs:
            e = st.dir_entry(path)
            pairs = [
                ("Name", e.name),
                ("Type", "Folder"),
                ("Number of Children", str(e.items)),
                ("Path", path),
            ]
            if e.modified:
                pairs.insert(3, ("Modified", format_full_date(e.modified)))
        else:
            pairs = []
        rows = [View(w.TEXT, text=base_name(path), rid=self.rid("inspector_file_title"))]
        rows.append(View(w.TEXT, text="Details", rid=self.rid("inspector_details_title")))
        rows += [
            View(
                w.LINEAR,
                rid=self.rid("table_row"),
                horizontal=True,
                height=140,
                children=[
                    View(w.TEXT, text=k, rid=self.rid("table_row_key"), weight=0.4),
                    View(w.TEXT, text=v, rid=self.rid("table_row_value"), weight=0.6),
                ],
            )
            for k, v in pairs
        ]
        return Screen(
            "Properties",
            activity=INSPECTOR_ACTIVITY,
            up=True,
            rows=rows,
            list_rid=self.rid("inspector_root"),
            list_cls=w.SCROLL,
        )

    def screen_viewer(self, ctx: Ctx, route: Route) -> Screen:
        """A text document, opened."""
        path = str(route.arg("path"))
        doc = doc_at(ctx, path)
        content = str(doc.get("content") or "") if doc is not None else ""
        lines = content.split("\n") if content else [""]
        rows = [View(w.TEXT, text=line, rid=self.rid("text"), height=100) for line in lines]
        return Screen(base_name(path), up=True, rows=rows, list_cls=w.SCROLL)

    # ------------------------------------------------------------ selection state
    def selection(self, ctx: Ctx) -> frozenset[str]:
        return frozenset(p for p in ctx.form(SELECTED).split("\n") if p)

    def set_selection(self, ctx: Ctx, chosen: Iterable[str]) -> None:
        ctx.set_form(SELECTED, "\n".join(sorted(chosen)))

    def start_select(self, ctx: Ctx, chosen: Iterable[str]) -> None:
        """Enter selection mode over the current listing, keeping its scroll position."""
        route = ctx.route
        assert route is not None
        src = self.src_args(route)
        if route.screen == "search":
            src = {"query": ctx.form("query")}
        ctx.hide_keyboard()
        new = ctx.push("select", **src)
        ctx.set_form(SELECTED, "\n".join(sorted(chosen)), route=new)
        offset = ctx.phone.scroll.get(route.id, 0)
        if offset:
            ctx.phone.scroll[new.id] = offset

    # ------------------------------------------------------------ handlers: browsing
    def on_open(self, ctx: Ctx, path: str) -> None:
        st = Storage(ctx)
        if path in st.dirs:
            ctx.hide_keyboard()
            ctx.push("main", path=path)
            return
        doc = doc_at(ctx, path)
        if doc is None:
            return
        if doc.get("content") is not None:
            ctx.push("viewer", path=path)
        else:
            ctx.toast("Can’t open file")

    def on_select(self, ctx: Ctx, path: str) -> None:
        self.start_select(ctx, [path])

    def on_crumb(self, ctx: Ctx, path: str) -> None:
        """Go to an enclosing folder: back through the folders above, or there at once
        (ending a selection first)."""
        if ctx.route is not None and ctx.route.screen == "select":
            ctx.back()
        stack = ctx.phone.stacks.get(self.model, [])
        for i in range(len(stack) - 1, -1, -1):
            r = stack[i]
            if r.screen != "main":
                break
            if str(r.arg("path", ROOT)) == path:
                for _ in range(len(stack) - 1 - i):
                    ctx.back()
                return
        ctx.replace("main", path=path)

    def on_roots(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("roots")

    def on_go_root(self, ctx: Ctx, key: str) -> None:
        ctx.back()  # close the drawer
        if key == "storage":
            self.on_crumb(ctx, ROOT)
        elif key == "downloads":
            ctx.push("main", path=f"{ROOT}/Download")
        else:
            ctx.push("root", root=key)

    def on_search(self, ctx: Ctx, arg: Any) -> None:
        route = ctx.push("search")
        ctx.phone.focus = (route.id, "query")
        ctx.phone.keyboard = True

    def on_search_go(self, ctx: Ctx, arg: Any) -> None:
        ctx.hide_keyboard()

    def on_toggle_view(self, ctx: Ctx, arg: Any) -> None:
        ctx.set("view", "list" if ctx.setting("view") == "grid" else "grid")

    def on_menu(self, ctx: Ctx, arg: Any) -> None:
        hidden = "Hide hidden files" if ctx.setting("show_hidden_files") else "Show hidden files"
        ctx.dialog(
            Dialog(
                "",
                items=[
                    menu_item("New folder", "new_folder"),
                    menu_item("Sort by", "sort_menu"),
                    menu_item("Select all", "select_all"),
                    menu_item(hidden, "toggle_hidden"),
                ],
            )
        )

    def on_root_menu(self, ctx: Ctx, arg: Any) -> None:
        ctx.dialog(
            Dialog(
                "",
                items=[
                    menu_item("Sort by", "sort_menu"),
                    menu_item("Select all", "select_all"),
                ],
            )
        )

    def on_sort_menu(self, ctx: Ctx, arg: Any) -> None:
        current = (str(ctx.setting("sort_by") or "name"), bool(ctx.setting("sort_descending")))
        options = [((key, desc), label) for key, desc, label in SORTS]
        ctx.dialog(
            choice_dialog(
                "Sort by", options, current, "sort_pick", rid="android:id/text1", height=132
            )
        )

    def on_sort_pick(self, ctx: Ctx, arg: tuple[str, bool]) -> None:
        dismiss(ctx)
        by, descending = arg
        if ctx.setting("sort_by") != by:
            ctx.set("sort_by", by)
        if bool(ctx.setting("sort_descending")) != descending:
            ctx.set("sort_descending", descending)

    def on_toggle_hidden(self, ctx: Ctx, arg: Any) -> None:
        dismiss(ctx)
        ctx.set("show_hidden_files", not ctx.setting("show_hidden_files"))

    def on_select_all(self, ctx: Ctx, arg: Any) -> None:
        dismiss(ctx)
        route = ctx.route
        assert route is not None
        entries = self.listing(ctx, Storage(ctx), self.src_args(route))
        if not entries:
            return
        paths = [e.path for e in entries]
        if route.screen == "select":
            self.set_selection(ctx, paths)
        else:
            self.start_select(ctx, paths)

    # ------------------------------------------------------------ handlers: new folder
    def on_new_folder(self, ctx: Ctx, arg: Any) -> None:
        dismiss(ctx)
        ctx.set_form("new_folder_name", "")
        ctx.dialog(
            name_dialog("New folder", "new_folder_name", "create_folder", hint="Folder name")
        )

    def on_create_folder(self, ctx: Ctx, arg: Any) -> None:
        dismiss(ctx)
        ctx.hide_keyboard()
        route = ctx.route
        assert route is not None
        folder = str(route.arg("path", ROOT))
        name = ctx.form("new_folder_name").strip()
        path = f"{folder}/{name}"
        if not valid_name(name) or Storage(ctx).exists(path):
            ctx.toast("Failed to create folder")
            return
        ctx.add("folders", {"path": path, "name": name, "parent": folder})
        if route.screen == "picker":
            ctx.push("picker", mode=route.arg("mode"), paths=route.arg("paths"), path=path)
        else:
            ctx.push("main", path=path)

    # ------------------------------------------------------------ handlers: selection mode
    def on_toggle(self, ctx: Ctx, path: str) -> None:
        chosen = set(self.selection(ctx)) ^ {path}
        if not chosen:
            ctx.back()
            return
        self.set_selection(ctx, chosen)

    def on_end_select(self, ctx: Ctx, arg: Any) -> None:
        ctx.back()

    def on_select_menu(self, ctx: Ctx, arg: Any) -> None:
        chosen = self.selection(ctx)
        items = [
            menu_item("Select all", "select_all"),
            menu_item("Copy to…", "copy_to"),
            menu_item("Move to…", "move_to"),
        ]
        if len(chosen) == 1:
            items.append(menu_item("Rename", "rename"))
            items.append(menu_item("Properties", "properties"))
        ctx.dialog(Dialog("", items=items))

    def on_delete(self, ctx: Ctx, arg: Any) -> None:
        st = Storage(ctx)
        chosen = sorted(self.selection(ctx))
        dirs = [p for p in chosen if p in st.dirs]
        if any(p in STANDARD_PATHS for p in dirs):
            ctx.toast(NOT_SUPPORTED)
            return
        n = len(chosen)
        if n == 1:
            name = base_name(chosen[0])
            text = f'Delete folder "{name}" and its contents?' if dirs else f'Delete "{name}"?'
        elif len(dirs) == n:
            text = f"Delete {n} folders and their contents?"
        elif not dirs:
            text = f"Delete {n} files?"
        else:
            text = f"Delete {n} items?"
        ctx.dialog(
            Dialog(
                text, buttons=[("OK", "delete_confirmed", tuple(chosen)), ("Cancel", None, None)]
            )
        )

    def on_delete_confirmed(self, ctx: Ctx, paths: tuple[str, ...]) -> None:
        for path in paths:
            st = Storage(ctx)
            if path in st.dirs:
                for d in st.under(path):
                    ctx.delete("documents", d)
                for f in Storage(ctx).folder_records(path):
                    ctx.delete("folders", f)
            else:
                doc = doc_at(ctx, path)
                if doc is not None:
                    ctx.delete("documents", doc)
        ctx.back()  # out of selection mode
        ctx.toast(plural(len(paths), "Deleting {n} file.", "Deleting {n} files."))

    def on_share(self, ctx: Ctx, arg: Any) -> None:
        chosen = tuple(sorted(self.selection(ctx)))
        targets = [
            app
            for app in sorted(ctx.phone.apps.values(), key=lambda a: a.label.casefold())
            if app.model != self.model and callable(getattr(app, "screen_share", None))
        ]
        items = [
            View(
                w.LINEAR,
                clickable=True,
                focusable=True,
                on_click="share_to",
                arg=(app.model, chosen),
                height=160,
                children=[View(w.TEXT, text=app.label, rid="android:id/text1")],
            )
            for app in targets
        ]
        message = "" if items else "No apps can perform this action."
        ctx.dialog(Dialog("Share", message=message, items=items))

    def on_share_to(self, ctx: Ctx, arg: tuple[str, tuple[str, ...]]) -> None:
        dismiss(ctx)
        model, paths = arg
        docs = [doc_at(ctx, p) for p in paths]
        found = [d for d in docs if d is not None]
        if not found:
            return
        first = found[0]
        ctx.back()  # out of selection mode
        ctx.open(
            model,
            "share",
            name=first.get("name"),
            path=first.get("path"),
            kind=first.get("kind"),
            size=first.get("size"),
            names=tuple(d.get("name") for d in found),
            paths=tuple(d.get("path") for d in found),
        )

    def on_properties(self, ctx: Ctx, arg: Any) -> None:
        dismiss(ctx)
        chosen = sorted(self.selection(ctx))
        if len(chosen) == 1:
            ctx.push("inspector", path=chosen[0])

    # ------------------------------------------------------------ handlers: rename
    def on_rename(self, ctx: Ctx, arg: Any) -> None:
        dismiss(ctx)
        chosen = sorted(self.selection(ctx))
        if len(chosen) != 1:
            return
        path = chosen[0]
        if path in STANDARD_PATHS:
            ctx.toast(NOT_SUPPORTED)
            return
        name = base_name(path)
        ctx.set_form("rename_name", name)
        ctx.dialog(name_dialog("Rename", "rename_name", "rename_ok", path, text=name))

    def on_rename_ok(self, ctx: Ctx, path: str) -> None:
        dismiss(ctx)
        ctx.hide_keyboard()
        name = ctx.form("rename_name").strip()
        if name == base_name(path):
            ctx.back()
            return
        if not valid_name(name):
            ctx.toast("Failed to rename document")
            return
        target = f"{parent_of(path)}/{name}"
        if Storage(ctx).exists(target):
            ctx.toast("A file with this name already exists.")
            return
        self.relocate(ctx, path, target)
        ctx.back()  # out of selection mode

    # ------------------------------------------------------------ handlers: copy / move
    def on_copy_to(self, ctx: Ctx, arg: Any) -> None:
        self.open_picker(ctx, "copy")

    def on_move_to(self, ctx: Ctx, arg: Any) -> None:
        self.open_picker(ctx, "move")

    def open_picker(self, ctx: Ctx, mode: str) -> None:
        dismiss(ctx)
        chosen = tuple(sorted(self.selection(ctx)))
        if not chosen:
            return
        if mode == "move" and any(p in STANDARD_PATHS for p in chosen):
            ctx.toast(NOT_SUPPORTED)
            return
        route = ctx.route
        assert route is not None
        start = str(route.arg("path") or parent_of(chosen[0]))
        ctx.push("picker", mode=mode, paths=chosen, path=start)

    def on_pick_open(self, ctx: Ctx, path: str) -> None:
        route = ctx.route
        assert route is not None
        ctx.push("picker", mode=route.arg("mode"), paths=route.arg("paths"), path=path)

    def on_pick_crumb(self, ctx: Ctx, path: str) -> None:
        route = ctx.route
        assert route is not None
        ctx.replace("picker", mode=route.arg("mode"), paths=route.arg("paths"), path=path)

    def on_picker_menu(self, ctx: Ctx, arg: Any) -> None:
        ctx.dialog(Dialog("", items=[menu_item("New folder", "new_folder")]))

    def on_pick_cancel(self, ctx: Ctx, arg: Any) -> None:
        ctx.back_to("select")

    def on_pick_done(self, ctx: Ctx, arg: Any) -> None:
        route = ctx.route
        assert route is not None
        mode = str(route.arg("mode"))
        dest = str(route.arg("path", ROOT))
        paths: tuple[str, ...] = tuple(route.arg("paths", ()))
        failed = 0
        for path in paths:
            st = Storage(ctx)
            if not st.exists(path) or dest == path or inside(dest, path):
                failed += 1
                continue
            if mode == "move":
                target = f"{dest}/{base_name(path)}"
                if parent_of(path) == dest:
                    continue
                if st.exists(target):
                    failed += 1
                    continue
                self.relocate(ctx, path, target)
            else:
                self.copy(ctx, st, path, self.free_name(st, dest, base_name(path)))
        ctx.back_to("select")
        ctx.back()  # out of selection mode
        done = len(paths) - failed
        if failed:
            verb = "move" if mode == "move" else "copy"
            ctx.toast(plural(failed, f"Couldn’t {verb} {{n}} file", f"Couldn’t {verb} {{n}} files"))
        elif mode == "move":
            ctx.toast(plural(done, "Moving {n} file.", "Moving {n} files."))
        else:
            ctx.toast(plural(done, "Copying {n} file.", "Copying {n} files."))

    @staticmethod
    def free_name(st: Storage, folder: str, name: str) -> str:
        """``folder/name``, or ``folder/name (1).ext`` ... when that is taken."""
        target = f"{folder}/{name}"
        if not st.exists(target):
            return target
        stem, dot, ext = name.rpartition(".")
        if not dot or not stem:
            stem, ext = name, ""
        suffix = f".{ext}" if ext else ""
        n = 1
        while st.exists(f"{folder}/{stem} ({n}){suffix}"):
            n += 1
        return f"{folder}/{stem} ({n}){suffix}"

    # ------------------------------------------------------------ the file operations
    def relocate(self, ctx: Ctx, path: str, target: str) -> None:
        """Move or rename ``path`` (a document or a folder with everything in it) to
        ``target``, keeping each record's path, name, folder and parent in step."""
        st = Storage(ctx)
        if path in st.dirs:
            for d in st.under(path):
                new = target + str(d["path"])[len(path) :]
                ctx.update("documents", d, path=new, folder=top_folder(new))
            for f in Storage(ctx).folder_records(path):
                new = target + str(f["path"])[len(path) :]
                ctx.update("folders", f, path=new, name=base_name(new), parent=parent_of(new))
            return
        doc = doc_at(ctx, path)
        if doc is None:
            return
        name = base_name(target)
        changes: dict[str, Any] = {"path": target, "name": name, "folder": top_folder(target)}
        if extension(name) != extension(str(doc.get("name", ""))):
            changes["kind"] = kind_of(name)
        ctx.update("documents", doc, **changes)

    def copy(self, ctx: Ctx, st: Storage, path: str, target: str) -> None:
        """Copy a document, or a folder with everything in it, to ``target``."""
        now = ctx.now.replace(microsecond=0).isoformat()

        def copy_doc(d: dict[str, Any], new: str) -> None:
            ctx.add(
                "documents",
                {
                    **d,
                    "path": new,
                    "name": base_name(new),
                    "folder": top_folder(new),
                    "modified": now,
                    "starred": False,
                    "in_trash": False,
                },
            )

        if path not in st.dirs:
            doc = next((d for d in st.all_docs if d.get("path") == path), None)
            if doc is not None and not doc.get("in_trash"):
                copy_doc(doc, target)
            return
        ctx.add("folders", {"path": target, "name": base_name(target), "parent": parent_of(target)})
        for f in st.folder_records(path):
            if f.get("path") == path:
                continue
            new = target + str(f["path"])[len(path) :]
            ctx.add("folders", {**f, "path": new, "name": base_name(new), "parent": parent_of(new)})
        for d in st.under(path):
            if not d.get("in_trash"):
                copy_doc(d, target + str(d["path"])[len(path) :])


APP = Files
