"""Simple Gallery Pro (``com.simplemobiletools.gallery.pro``), Simple Mobile Tools.

Where the media come from: the app model's ``media`` collection is the gallery's own media
table (the files it indexed outside the camera's folder, and a row for every file it marked:
favourite, or moved to the Recycle Bin). The Camera app's captures (``camera.media``, read
with ``ctx.records("media", app="camera")``) are files of ``/sdcard/DCIM/Camera`` the gallery
shows as well. The gallery merges the two by path: a capture is shown with the camera's name,
date and size and the flags of the gallery's row at the same path, if there is one. Writes go
where the file is:

- favourite: the gallery's row (added, with the file's details, the first time a capture is
  marked);
- rename: the capture in ``camera.media`` (path and name) and the gallery's row, if any;
- delete: with the Recycle Bin on (the default), the capture leaves ``camera.media``
  (``ctx.delete(..., app="camera")``) and the gallery's row, added if needed, is marked
  ``in_recycle_bin``; with it off, or from the Recycle Bin, the file is gone from both;
- restore: the row leaves the Recycle Bin, and a file of the camera's folder is a capture of
  ``camera.media`` again.

Screens:

- Folders (``activities.MainActivity``): "Search folders", "Open camera" (opens the Camera
  app), "Show all folders content", "More options" (Sort by, Filter media, Change view type,
  Create new folder, Settings); the albums (``dir_name``, ``photo_cnt``), two a row in the grid
  view, and the "Recycle Bin" album when it holds files and the setting shows it. A long press
  on an album offers "Pin to the top" / "Unpin" (pinned albums come first) and Properties.
- Media (``activities.MediaActivity``): one album, every album ("Show all folders content"),
  or the Recycle Bin; "Search in <album>", "Toggle filename visibility", "Sort by", "More
  options"; thumbnails three a row (``medium_name``, a ``favorite`` star). A long press starts
  the selection ("1 / 6" in the action bar; taps add and remove): Share, Delete and More
  options (Rename, Add to favorites, Remove from favorites, Select all, Properties; in the
  Recycle Bin Restore and Delete). Back ends the selection.
- Viewer (``activities.ViewPagerActivity``): one file, its name in the toolbar, More options
  (Rename, Properties) and the bottom actions (``bottom_favorite``, ``bottom_share``,
  ``bottom_delete``; ``bottom_restore`` in the Recycle Bin). The real viewer pages between
  files with horizontal swipes, which the phone gives to no app; Back returns to the grid.
- Dialogs as the app has them: delete confirmations ("Move "x" into the Recycle Bin?" / "Are
  you sure you want to delete ...?", Yes / No, skipped by the setting), Rename (name and
  extension), Properties, Share (the system chooser: every app with a ``screen_share``),
  "Empty the Recycle Bin" confirmation.
- Settings (``activities.SettingsActivity``): the Recycle Bin options ("Move items into the
  Recycle Bin instead of deleting", "Show the Recycle Bin at the folders screen", "Empty the
  Recycle Bin" with its size), "Always skip delete confirmation dialog" and "Show file names".
- Create new folder: an album of ``albums`` under ``/sdcard/Pictures``, opened empty; a bad
  or taken name keeps the dialog open with a toast, as Rename does.

One sort setting orders both albums and files (the real app keeps one per screen).
"""

from __future__ import annotations

import datetime as dt
from typing import Any, ClassVar

from tasklang.envs.phoneworld import widgets as w
from tasklang.envs.phoneworld.app import Ctx, Dialog, Route, Screen
from tasklang.envs.phoneworld.apps.common import checkbox, menu_item, radio
from tasklang.envs.phoneworld.apps.simple_tools import SimpleToolsApp, section
from tasklang.envs.phoneworld.widgets import View

PACKAGE = "com.simplemobiletools.gallery.pro"
ACTIVITIES = f"{PACKAGE}.activities"
MAIN_ACTIVITY = f"{ACTIVITIES}.MainActivity"
MEDIA_ACTIVITY = f"{ACTIVITIES}.MediaActivity"
VIEWER_ACTIVITY = f"{ACTIVITIES}.ViewPagerActivity"
SETTINGS_ACTIVITY = f"{ACTIVITIES}.SettingsActivity"
CAMERA_FOLDER = "/sdcard/DCIM/Camera"
ALL = "*all*"
BIN = "*recycle_bin*"
SEP = "\n"

SORTS = (
    ("name", "Name"),
    ("path", "Path"),
    ("size", "Size"),
    ("modified", "Last modified"),
    ("taken", "Date taken"),
)
FILTERS = (("show_images", "Images"), ("show_videos", "Videos"), ("show_gifs", "GIFs"))
VIEWS = (("grid", "Grid"), ("list", "List"))
FOLDER_COLUMNS = 2
MEDIA_COLUMNS = 3


# ------------------------------------------------------------------ helpers
def parent_of(path: str) -> str:
    return path.rsplit("/", 1)[0] if "/" in path else ""


def base_name(path: str) -> str:
    return path.rstrip("/").rsplit("/", 1)[-1]


def split_ext(name: str) -> tuple[str, str]:
    if "." in name.strip(".") and not name.startswith("."):
        stem, ext = name.rsplit(".", 1)
        return stem, ext
    return name, ""


def kind_of(name: str) -> str:
    ext = split_ext(name)[1].lower()
    if ext in ("mp4", "3gp", "mkv", "webm", "mov"):
        return "video"
    if ext == "gif":
        return "gif"
    return "image"


def fmt_size(size: Any) -> str:
    """The commons' ``formatSize``: "3.1 MB", "512 kB", "0 B"."""
    try:
        value = float(size)
    except (TypeError, ValueError):
        value = 0.0
    units = ("B", "kB", "MB", "GB")
    i = 0
    while value >= 1024 and i < len(units) - 1:
        value /= 1024
        i += 1
    return f"{value:.0f} {units[i]}" if i == 0 else f"{value:.1f} {units[i]}"


def fmt_date(value: Any) -> str:
    """The app's default date format: "14.05.2026, 09:30"."""
    try:
        t = dt.datetime.fromisoformat(str(value))
    except ValueError:
        return ""
    return f"{t:%d.%m.%Y, %H:%M}"


def joined(paths: list[str]) -> str:
    return SEP.join(paths)


# ------------------------------------------------------------------ the app
class Gallery(SimpleToolsApp):
    model = "gallery"
    package = PACKAGE
    label = "Gallery"
    activity = MAIN_ACTIVITY
    home = "main"
    defaults: ClassVar[dict[str, Any]] = {
        "sort_by": "modified",
        "sort_descending": True,
        "show_images": True,
        "show_videos": True,
        "show_gifs": True,
        "view": "grid",
        "show_filenames": True,
        "use_recycle_bin": True,
        "show_recycle_bin": True,
        "skip_delete_confirmation": False,
    }

    # ------------------------------------------------------------ the merged media
    def media(self, ctx: Ctx) -> list[dict[str, Any]]:
        """Every file the gallery knows: the camera's captures (with the flags of the
        gallery's row at the same path) and the gallery's other rows."""
        rows = {str(r.get("path")): r for r in ctx.records("media")}
        out: list[dict[str, Any]] = []
        seen: set[str] = set()
        for c in ctx.records("media", app="camera"):
            path = str(c.get("path", ""))
            row = rows.get(path, {})
            seen.add(path)
            out.append(
                {
                    "path": path,
                    "name": str(c.get("name") or base_name(path)),
                    "kind": "video" if c.get("kind") == "video" else "image",
                    "taken": c.get("taken"),
                    "size": c.get("size", 0),
                    "favourite": bool(row.get("favourite")),
                    "in_recycle_bin": bool(row.get("in_recycle_bin")),
                    "camera": True,
                }
            )
        for path, r in rows.items():
            if path in seen:
                continue
            out.append(
                {
                    "path": path,
                    "name": str(r.get("name") or base_name(path)),
                    "kind": str(r.get("kind") or kind_of(path)),
                    "taken": r.get("taken"),
                    "size": r.get("size", 0),
                    "favourite": bool(r.get("favourite")),
                    "in_recycle_bin": bool(r.get("in_recycle_bin")),
                    "camera": False,
                }
            )
        return out

    def item(self, ctx: Ctx, path: Any) -> dict[str, Any] | None:
        return next((m for m in self.media(ctx) if m["path"] == path), None)

    def shown_kinds(self, ctx: Ctx) -> set[str]:
        kinds = {"image": "show_images", "video": "show_videos", "gif": "show_gifs"}
        return {k for k, s in kinds.items() if self.setting_of(ctx, s)}

    def sorted_media(self, ctx: Ctx, items: list[dict[str, Any]]) -> list[dict[str, Any]]:
        sort = self.setting_of(ctx, "sort_by")

        def key(m: dict[str, Any]) -> tuple[Any, ...]:
            if sort == "name":
                return (m["name"].casefold(),)
            if sort == "path":
                return (m["path"].casefold(),)
            if sort == "size":
                return (int(m.get("size") or 0), m["name"].casefold())
            return (str(m.get("taken") or ""), m["name"].casefold())

        return sorted(items, key=key, reverse=bool(self.setting_of(ctx, "sort_descending")))

    def folder_media(self, ctx: Ctx, folder: str) -> list[dict[str, Any]]:
        """The files an album shows (the filters applied), in the chosen order."""
        kinds = self.shown_kinds(ctx)
        if folder == BIN:
            found = [m for m in self.media(ctx) if m["in_recycle_bin"]]
        else:
            found = [
                m
                for m in self.media(ctx)
                if not m["in_recycle_bin"]
                and m["kind"] in kinds
                and (folder == ALL or parent_of(m["path"]) == folder)
            ]
        return self.sorted_media(ctx, found)

    def row_of(self, ctx: Ctx, path: str) -> dict[str, Any] | None:
        return ctx.find("media", lambda r: r.get("path") == path)

    def capture_of(self, ctx: Ctx, path: str) -> dict[str, Any] | None:
        return ctx.find("media", lambda r: r.get("path") == path, app="camera")

    def mark(self, ctx: Ctx, m: dict[str, Any], **changes: Any) -> None:
        """Write flags into the gallery's row of a file (added with its details if needed)."""
        row = self.row_of(ctx, m["path"])
        if row is not None:
            ctx.update("media", row, **changes)
            return
        ctx.add(
            "media",
            {
                "path": m["path"],
                "name": m["name"],
                "folder": base_name(parent_of(m["path"])),
                "kind": m["kind"],
                "taken": m.get("taken"),
                "size": m.get("size", 0),
                "favourite": m["favourite"],
                "in_recycle_bin": m["in_recycle_bin"],
                **changes,
            },
        )

    def remove(self, ctx: Ctx, m: dict[str, Any]) -> None:
        """The file moves into the Recycle Bin, or is gone for good."""
        capture = self.capture_of(ctx, m["path"])
        if capture is not None:
            ctx.delete("media", capture, app="camera")
        if bool(self.setting_of(ctx, "use_recycle_bin")) and not m["in_recycle_bin"]:
            self.mark(ctx, m, in_recycle_bin=True)
            return
        row = self.row_of(ctx, m["path"])
        if row is not None:
            ctx.delete("media", row)

    def restore(self, ctx: Ctx, m: dict[str, Any]) -> None:
        row = self.row_of(ctx, m["path"])
        if row is not None:
            ctx.update("media", row, in_recycle_bin=False)
        if parent_of(m["path"]) == CAMERA_FOLDER and self.capture_of(ctx, m["path"]) is None:
            ctx.add(
                "media",
                {
                    "path": m["path"],
                    "name": m["name"],
                    "kind": "video" if m["kind"] == "video" else "photo",
                    "taken": m.get("taken"),
                    "size": m.get("size", 0),
                    "duration": 0,
                    "camera": "back",
                },
                app="camera",
            )

    def rename(self, ctx: Ctx, m: dict[str, Any], name: str) -> None:
        target = f"{parent_of(m['path'])}/{name}"
        capture = self.capture_of(ctx, m["path"])
        if capture is not None:
            ctx.update("media", capture, app="camera", path=target, name=name)
        row = self.row_of(ctx, m["path"])
        if row is not None:
            ctx.update("media", row, path=target, name=name, kind=m["kind"])

    def albums(self, ctx: Ctx) -> list[dict[str, Any]]:
        """The albums: every folder that holds shown files, and the gallery's own albums."""
        kinds = self.shown_kinds(ctx)
        groups: dict[str, list[dict[str, Any]]] = {}
        for m in self.media(ctx):
            if not m["in_recycle_bin"] and m["kind"] in kinds:
                groups.setdefault(parent_of(m["path"]), []).append(m)
        pinned = set()
        for a in ctx.records("albums"):
            path = str(a.get("path", ""))
            groups.setdefault(path, [])
            if a.get("pinned"):
                pinned.add(path)
        out = []
        for path, items in groups.items():
            newest = max((str(m.get("taken") or "") for m in items), default="")
            out.append(
                {
                    "path": path,
                    "name": base_name(path),
                    "count": len(items),
                    "size": sum(int(m.get("size") or 0) for m in items),
                    "taken": newest,
                    "pinned": path in pinned,
                }
            )
        sort = self.setting_of(ctx, "sort_by")

        def key(a: dict[str, Any]) -> tuple[Any, ...]:
            if sort == "name":
                return (a["name"].casefold(),)
            if sort == "path":
                return (a["path"].casefold(),)
            if sort == "size":
                return (a["size"], a["name"].casefold())
            return (a["taken"], a["name"].casefold())

        ordered = sorted(out, key=key, reverse=bool(self.setting_of(ctx, "sort_descending")))
        return [a for a in ordered if a["pinned"]] + [a for a in ordered if not a["pinned"]]

    # ------------------------------------------------------------ widgets
    def tool(self, desc: str, key: str | None, rid: str = "", arg: Any = None) -> View:
        return View(
            w.IMAGE_BUTTON if key else w.IMAGE,
            desc=desc,
            rid=self.rid(rid) if rid else "",
            clickable=key is not None,
            focusable=key is not None,
            on_click=key,
            arg=arg,
            weight=0.13,
        )

    def top_bar(self, hint: str, buttons: list[View], route: Route) -> View:
        field = View(
            w.EDIT,
            rid=self.rid("top_toolbar_search"),
            edit="search",
            hint=hint,
            on_enter="search",
            clickable=True,
            focusable=True,
            weight=1.0 - 0.13 * len(buttons),
        )
        return View(
            w.LINEAR,
            rid=self.rid("top_app_bar_layout"),
            horizontal=True,
            height=150,
            children=[field, *buttons],
        )

    def grid_rows(self, tiles: list[View], columns: int, height: int) -> list[View]:
        rows = []
        for i in range(0, len(tiles), columns):
            chunk = tiles[i : i + columns]
            chunk += [View(w.VIEW) for _ in range(columns - len(chunk))]
            rows.append(View(w.LINEAR, horizontal=True, height=height, children=chunk))
        return rows

    # ------------------------------------------------------------ folders
    def screen_main(self, ctx: Ctx, route: Route) -> Screen:
        query = ctx.form("search").strip().casefold()
        albums = [a for a in self.albums(ctx) if query in a["name"].casefold()]
        grid = self.setting_of(ctx, "view") == "grid"
        tiles = [self.album_tile(a, grid) for a in albums]
        bin_items = self.folder_media(ctx, BIN)
        if bin_items and self.setting_of(ctx, "show_recycle_bin") and query in "recycle bin":
            tiles.append(
                self.album_tile(
                    {"path": BIN, "name": "Recycle Bin", "count": len(bin_items), "pinned": False},
                    grid,
                )
            )
        rows = self.grid_rows(tiles, FOLDER_COLUMNS, 520) if grid else tiles
        if not tiles:
            rows = [
                View(
                    w.TEXT,
                    text="No media files have been found" if not query else "No items found.",
                    rid=self.rid("directories_empty_placeholder"),
                    height=200,
                )
            ]
        bar = self.top_bar(
            "Search folders",
            [
                self.tool("Open camera", "open_camera"),
                self.tool("Show all folders content", "show_all"),
                self.tool("More options", "main_menu"),
            ],
            route,
        )
        return Screen(None, rows, header=[bar], list_rid=self.rid("directories_grid"))

    def album_tile(self, a: dict[str, Any], grid: bool) -> View:
        texts = [
            View(w.TEXT, text=a["name"], rid=self.rid("dir_name"), height=80),
            View(w.TEXT, text=str(a["count"]), rid=self.rid("photo_cnt"), height=70),
        ]
        if a.get("pinned"):
            texts.append(View(w.IMAGE, rid=self.rid("dir_pin"), desc="Pin", height=60))
        if grid:
            children = [View(w.IMAGE, rid=self.rid("dir_thumbnail"), height=330), *texts]
        else:
            children = [
                View(w.IMAGE, rid=self.rid("dir_thumbnail"), weight=0.25),
                View(w.LINEAR, weight=0.75, children=texts),
            ]
        return View(
            w.RELATIVE,
            rid=self.rid("dir_holder"),
            clickable=True,
            long_clickable=True,
            focusable=True,
            on_click="open_album",
            on_long="album_menu" if a["path"] != BIN else None,
            arg=a["path"],
            horizontal=not grid,
            height=0 if grid else 220,
            children=children,
        )

    def on_search(self, ctx: Ctx, arg: Any) -> None:
        ctx.hide_keyboard()

    def on_open_camera(self, ctx: Ctx, arg: Any) -> None:
        if "camera" in ctx.phone.apps:
            ctx.open("camera")
        else:
            ctx.toast("No app found")

    def on_show_all(self, ctx: Ctx, arg: Any) -> None:
        ctx.hide_keyboard()
        ctx.push("media", folder=ALL)

    def on_open_album(self, ctx: Ctx, path: str) -> None:
        ctx.hide_keyboard()
        ctx.push("media", folder=path)

    def on_album_menu(self, ctx: Ctx, path: str) -> None:
        """A long-pressed album's actions: pin it to the top (or unpin it), its properties."""
        album = next((a for a in self.albums(ctx) if a["path"] == path), None)
        if album is None:
            return
        pin = ("Unpin", "unpin_album") if album["pinned"] else ("Pin to the top", "pin_album")
        entries = [pin, ("Properties", "album_properties")]
        ctx.dialog(Dialog("", items=[menu_item(label, key, path) for label, key in entries]))

    def on_pin_album(self, ctx: Ctx, path: str) -> None:
        self.set_pinned(ctx, path, True)

    def on_unpin_album(self, ctx: Ctx, path: str) -> None:
        self.set_pinned(ctx, path, False)

    def set_pinned(self, ctx: Ctx, path: str, pinned: bool) -> None:
        record = ctx.find("albums", lambda a: a.get("path") == path)
        if record is not None:
            ctx.update("albums", record, pinned=pinned)
        elif pinned:
            ctx.add("albums", {"path": path, "name": base_name(path), "pinned": True})

    def on_album_properties(self, ctx: Ctx, path: str) -> None:
        album = next((a for a in self.albums(ctx) if a["path"] == path), None)
        if album is None:
            return
        lines = [
            ("Name", album["name"]),
            ("Path", album["path"]),
            ("Size", fmt_size(album["size"])),
            ("Files count", str(album["count"])),
        ]
        ctx.dialog(
            Dialog("Properties", items=self.property_rows(lines), buttons=[("OK", None, None)])
        )

    def on_main_menu(self, ctx: Ctx, arg: Any) -> None:
        entries = [
            ("Sort by", "sort_menu"),
            ("Filter media", "filter_menu"),
            ("Change view type", "view_menu"),
            ("Create new folder", "new_folder"),
            ("Settings", "settings"),
        ]
        ctx.dialog(Dialog("", items=[menu_item(label, key) for label, key in entries]))

    def on_sort_menu(self, ctx: Ctx, arg: Any) -> None:
        sort = self.setting_of(ctx, "sort_by")
        desc = bool(self.setting_of(ctx, "sort_descending"))
        items = [
            radio(label, key == sort, "set_sort", key, self.rid("sorting_dialog_radio"))
            for key, label in SORTS
        ]
        items += [
            radio("Ascending", not desc, "set_order", False, self.rid("sorting_dialog_order")),
            radio("Descending", desc, "set_order", True, self.rid("sorting_dialog_order")),
        ]
        ctx.dialog(Dialog("Sort by", items=items, buttons=[("OK", None, None)]))

    def on_set_sort(self, ctx: Ctx, key: str) -> None:
        if self.setting_of(ctx, "sort_by") != key:
            ctx.set("sort_by", key)

    def on_set_order(self, ctx: Ctx, descending: bool) -> None:
        if bool(self.setting_of(ctx, "sort_descending")) != descending:
            ctx.set("sort_descending", descending)

    def on_filter_menu(self, ctx: Ctx, arg: Any) -> None:
        items = [
            checkbox(
                label,
                bool(self.setting_of(ctx, key)),
                "toggle_filter",
                key,
                self.rid(f"filter_media_{label.lower()}"),
            )
            for key, label in FILTERS
        ]
        ctx.dialog(Dialog("Filter media", items=items, buttons=[("OK", None, None)]))

    def on_toggle_filter(self, ctx: Ctx, key: str) -> None:
        others = [k for k, _ in FILTERS if k != key and self.setting_of(ctx, k)]
        if self.setting_of(ctx, key) and not others:
            ctx.toast("You have to select at least one item")
            return
        ctx.set(key, not self.setting_of(ctx, key))

    def on_view_menu(self, ctx: Ctx, arg: Any) -> None:
        current = self.setting_of(ctx, "view")
        items = [
            radio(
                label,
                key == current,
                "set_view",
                key,
                self.rid(f"change_view_type_dialog_radio_{key}"),
            )
            for key, label in VIEWS
        ]
        ctx.dialog(Dialog("", items=items, buttons=[("OK", None, None)]))

    def on_set_view(self, ctx: Ctx, key: str) -> None:
        if self.setting_of(ctx, "view") != key:
            ctx.set("view", key)

    def on_new_folder(self, ctx: Ctx, arg: Any) -> None:
        ctx.set_form("folder_name", "")
        self.folder_dialog(ctx)

    def folder_dialog(self, ctx: Ctx) -> None:
        field = View(
            w.EDIT,
            rid=self.rid("folder_name"),
            hint="Title",
            edit="folder_name",
            on_enter="new_folder_ok",
            clickable=True,
            focusable=True,
            long_clickable=True,
            height=150,
        )
        path_text = View(w.TEXT, text="Internal/Pictures/", rid=self.rid("folder_path"), height=110)
        ctx.dialog(
            Dialog(
                "Create new folder",
                items=[path_text, field],
                buttons=[("OK", "new_folder_ok", None), ("Cancel", None, None)],
            )
        )

    def on_new_folder_ok(self, ctx: Ctx, arg: Any) -> None:
        name = ctx.form("folder_name").strip()
        path = f"/sdcard/Pictures/{name}"
        problem = ""
        if not name:
            problem = "Please enter a name"
        elif "/" in name or name.startswith("."):
            problem = "The folder name contains invalid characters"
        elif path in {a["path"] for a in self.albums(ctx)}:
            problem = "A folder with that name already exists"
        if problem:  # the dialog stays open
            self.folder_dialog(ctx)
            ctx.toast(problem)
            return
        ctx.close_dialog()
        ctx.hide_keyboard()
        ctx.add("albums", {"path": path, "name": name, "pinned": False})
        ctx.push("media", folder=path)

    # ------------------------------------------------------------ media grid
    def selection(self, ctx: Ctx) -> list[str]:
        return [p for p in ctx.form("selected").split(SEP) if p]

    def folder_title(self, folder: str) -> str:
        if folder == ALL:
            return "All folders"
        if folder == BIN:
            return "Recycle Bin"
        return base_name(folder)

    def screen_media(self, ctx: Ctx, route: Route) -> Screen:
        return self.media_screen(ctx, route, selecting=False)

    def screen_select(self, ctx: Ctx, route: Route) -> Screen:
        return self.media_screen(ctx, route, selecting=True)

    def media_screen(self, ctx: Ctx, route: Route, selecting: bool) -> Screen:
        folder = str(route.arg("folder", ALL))
        query = str(route.arg("query", "")) if selecting else ctx.form("search")
        query = query.strip().casefold()
        items = [m for m in self.folder_media(ctx, folder) if query in m["name"].casefold()]
        chosen = set(self.selection(ctx)) if selecting else set()
        grid = self.setting_of(ctx, "view") == "grid"
        names = bool(self.setting_of(ctx, "show_filenames"))
        tiles = [self.medium_tile(m, grid, names, selecting, m["path"] in chosen) for m in items]
        rows = self.grid_rows(tiles, MEDIA_COLUMNS, 400 if names else 340) if grid else tiles
        if not tiles:
            empty = "No items found." if query else "No media files have been found"
            if folder == BIN:
                empty = "The Recycle Bin is empty"
            rows = [
                View(w.TEXT, text=empty, rid=self.rid("media_empty_text_placeholder"), height=200)
            ]
        if selecting:
            bar = View(
                w.LINEAR,
                rid=self.rid("action_mode_bar"),
                horizontal=True,
                height=150,
                children=[
                    self.tool("Done", "end_select", "action_mode_close_button"),
                    View(
                        w.TEXT,
                        text=f"{len(chosen)} / {len(items)}",
                        rid=self.rid("select_all_title"),
                        weight=0.48,
                    ),
                    *(
                        [self.tool("Restore", "restore_selected", "cab_restore")]
                        if folder == BIN
                        else [self.tool("Share", "share_selected", "cab_share")]
                    ),
                    self.tool("Delete", "delete_selected", "cab_delete"),
                    self.tool("More options", "select_menu"),
                ],
            )
        else:
            hint = "Search files" if folder == ALL else f"Search in {self.folder_title(folder)}"
            buttons = [
                self.tool("Toggle filename visibility", "toggle_names"),
                self.tool("Sort by", "sort_menu"),
                self.tool("More options", "media_menu"),
            ]
            bar = self.top_bar(hint, buttons, route)
            if folder == BIN:
                bar = View(
                    w.LINEAR,
                    rid=self.rid("top_app_bar_layout"),
                    horizontal=True,
                    height=150,
                    children=[
                        self.tool("Navigate up", "up"),
                        View(w.TEXT, text="Recycle Bin", weight=0.74),
                        self.tool("More options", "bin_menu"),
                    ],
                )
        return Screen(
            None, rows, activity=MEDIA_ACTIVITY, header=[bar], list_rid=self.rid("media_grid")
        )

    def medium_tile(
        self, m: dict[str, Any], grid: bool, names: bool, selecting: bool, chosen: bool
    ) -> View:
        overlay: list[View] = []
        if m["favourite"]:
            overlay.append(View(w.IMAGE, rid=self.rid("favorite"), desc="Favorite", height=60))
        if m["kind"] == "video":
            overlay.append(View(w.IMAGE, rid=self.rid("play_portrait_outline"), height=60))
        if selecting:
            overlay.append(
                View(
                    w.CHECKBOX,
                    rid=self.rid("medium_check"),
                    checkable=True,
                    checked=chosen,
                    height=60,
                )
            )
        name = View(w.TEXT, text=m["name"], rid=self.rid("medium_name"), height=70)
        if grid:
            children = [View(w.IMAGE, rid=self.rid("medium_thumbnail"), height=260), *overlay]
            if names:
                children.append(name)
        else:
            details = [name, View(w.TEXT, text=fmt_date(m.get("taken")), height=60)]
            children = [
                View(w.IMAGE, rid=self.rid("medium_thumbnail"), weight=0.25),
                View(w.LINEAR, weight=0.75, children=[*details, *overlay]),
            ]
        return View(
            w.RELATIVE,
            rid=self.rid("media_item_holder"),
            desc=m["name"],
            clickable=True,
            long_clickable=True,
            focusable=True,
            selected=chosen,
            on_click="toggle_pick" if selecting else "open_medium",
            on_long="toggle_pick" if selecting else "start_select",
            arg=m["path"],
            horizontal=not grid,
            height=0 if grid else 200,
            children=children,
        )

    def on_up(self, ctx: Ctx, arg: Any) -> None:
        ctx.back()

    def on_toggle_names(self, ctx: Ctx, arg: Any) -> None:
        ctx.set("show_filenames", not self.setting_of(ctx, "show_filenames"))

    def on_media_menu(self, ctx: Ctx, arg: Any) -> None:
        entries = [
            ("Open camera", "open_camera"),
            ("Filter media", "filter_menu"),
            ("Change view type", "view_menu"),
            ("Settings", "settings"),
        ]
        ctx.dialog(Dialog("", items=[menu_item(label, key) for label, key in entries]))

    def on_open_medium(self, ctx: Ctx, path: str) -> None:
        ctx.hide_keyboard()
        ctx.push("viewer", path=path)

    def on_start_select(self, ctx: Ctx, path: str) -> None:
        assert ctx.route is not None
        ctx.hide_keyboard()
        old = ctx.route
        query = ctx.form("search").strip()
        route = ctx.push("select", folder=old.arg("folder", ALL), query=query)
        ctx.set_form("selected", path, route=route)
        if old.id in ctx.phone.scroll:
            ctx.phone.scroll[route.id] = ctx.phone.scroll[old.id]

    def on_toggle_pick(self, ctx: Ctx, path: str) -> None:
        chosen = self.selection(ctx)
        chosen = [p for p in chosen if p != path] if path in chosen else [*chosen, path]
        if not chosen:
            ctx.back()
            return
        ctx.set_form("selected", joined(chosen))

    def on_end_select(self, ctx: Ctx, arg: Any) -> None:
        ctx.back()

    def chosen_items(self, ctx: Ctx) -> list[dict[str, Any]]:
        chosen = set(self.selection(ctx))
        return [m for m in self.media(ctx) if m["path"] in chosen]

    def on_select_menu(self, ctx: Ctx, arg: Any) -> None:
        assert ctx.route is not None
        items = self.chosen_items(ctx)
        if ctx.route.arg("folder") == BIN:
            entries = [("Select all", "select_all")]
        else:
            entries = []
            if len(items) == 1:
                entries.append(("Rename", "rename_selected"))
            if any(not m["favourite"] for m in items):
                entries.append(("Add to favorites", "favourite_selected"))
            if any(m["favourite"] for m in items):
                entries.append(("Remove from favorites", "unfavourite_selected"))
            entries += [("Select all", "select_all"), ("Properties", "properties_selected")]
        ctx.dialog(Dialog("", items=[menu_item(label, key) for label, key in entries]))

    def on_select_all(self, ctx: Ctx, arg: Any) -> None:
        assert ctx.route is not None
        folder = str(ctx.route.arg("folder", ALL))
        query = str(ctx.route.arg("query", "")).casefold()
        shown = [m for m in self.folder_media(ctx, folder) if query in m["name"].casefold()]
        ctx.set_form("selected", joined([m["path"] for m in shown]))

    def on_favourite_selected(self, ctx: Ctx, arg: Any) -> None:
        for m in self.chosen_items(ctx):
            if not m["favourite"]:
                self.mark(ctx, m, favourite=True)
        ctx.back()

    def on_unfavourite_selected(self, ctx: Ctx, arg: Any) -> None:
        for m in self.chosen_items(ctx):
            if m["favourite"]:
                self.mark(ctx, m, favourite=False)
        ctx.back()

    def on_rename_selected(self, ctx: Ctx, arg: Any) -> None:
        items = self.chosen_items(ctx)
        if len(items) == 1:
            self.rename_dialog(ctx, items[0])

    def on_properties_selected(self, ctx: Ctx, arg: Any) -> None:
        items = self.chosen_items(ctx)
        if len(items) == 1:
            self.properties(ctx, items[0])
        elif items:
            total = sum(int(m.get("size") or 0) for m in items)
            lines = [("Items selected", str(len(items))), ("Size", fmt_size(total))]
            ctx.dialog(
                Dialog("Properties", items=self.property_rows(lines), buttons=[("OK", None, None)])
            )

    def on_share_selected(self, ctx: Ctx, arg: Any) -> None:
        self.chooser(ctx, [m["path"] for m in self.chosen_items(ctx)])

    def on_delete_selected(self, ctx: Ctx, arg: Any) -> None:
        items = self.chosen_items(ctx)
        if not items:
            return
        in_bin = all(m["in_recycle_bin"] for m in items)
        what = f'"{items[0]["name"]}"' if len(items) == 1 else f"{len(items)} items"
        self.confirm_delete(ctx, [m["path"] for m in items], what, in_bin, "selection")

    def on_restore_selected(self, ctx: Ctx, arg: Any) -> None:
        for m in self.chosen_items(ctx):
            self.restore(ctx, m)
        ctx.back()

    def on_bin_menu(self, ctx: Ctx, arg: Any) -> None:
        entries = [("Restore all files", "restore_all"), ("Empty the Recycle Bin", "empty_bin")]
        ctx.dialog(Dialog("", items=[menu_item(label, key) for label, key in entries]))

    def on_restore_all(self, ctx: Ctx, arg: Any) -> None:
        for m in self.folder_media(ctx, BIN):
            self.restore(ctx, m)

    def on_empty_bin(self, ctx: Ctx, arg: Any) -> None:
        if not self.folder_media(ctx, BIN):
            ctx.toast("The Recycle Bin is empty")
            return
        ctx.dialog(
            Dialog(
                "",
                message="Are you sure you want to empty the Recycle Bin? "
                "The files will be permanently lost.",
                buttons=[("Yes", "empty_bin_ok", None), ("No", None, None)],
            )
        )

    def on_empty_bin_ok(self, ctx: Ctx, arg: Any) -> None:
        for m in self.folder_media(ctx, BIN):
            self.remove(ctx, m)
        ctx.toast("The Recycle Bin has been emptied successfully")

    # ------------------------------------------------------------ deleting
    def confirm_delete(
        self, ctx: Ctx, paths: list[str], what: str, in_bin: bool, origin: str
    ) -> None:
        arg = (tuple(paths), origin)
        if self.setting_of(ctx, "skip_delete_confirmation"):
            self.on_delete_ok(ctx, arg)
            return
        if self.setting_of(ctx, "use_recycle_bin") and not in_bin:
            message = f"Move {what} into the Recycle Bin?"
        else:
            message = f"Are you sure you want to delete {what}?"
        ctx.dialog(
            Dialog("", message=message, buttons=[("Yes", "delete_ok", arg), ("No", None, None)])
        )

    def on_delete_ok(self, ctx: Ctx, arg: tuple[tuple[str, ...], str]) -> None:
        paths, origin = arg
        gone = 0
        for path in paths:
            m = self.item(ctx, path)
            if m is not None:
                self.remove(ctx, m)
                gone += 1
        if origin in ("selection", "viewer"):
            ctx.back()
        if gone and not (self.setting_of(ctx, "use_recycle_bin")):
            ctx.toast(f"Deleting {gone} item{'s' if gone != 1 else ''}")

    # ------------------------------------------------------------ viewer
    def screen_viewer(self, ctx: Ctx, route: Route) -> Screen:
        m = self.item(ctx, route.arg("path"))
        if m is None:
            return Screen(None, [View(w.TEXT, text="", height=100)], activity=VIEWER_ACTIVITY)
        toolbar = View(
            w.LINEAR,
            rid=self.rid("medium_viewer_toolbar"),
            horizontal=True,
            height=150,
            children=[
                self.tool("Navigate up", "up"),
                View(w.TEXT, text=m["name"], rid=self.rid("medium_viewer_title"), weight=0.74),
                self.tool("More options", "viewer_menu", arg=m["path"]),
            ],
        )
        body: list[View] = [
            View(
                w.IMAGE,
                rid=self.rid("gestures_view" if m["kind"] != "video" else "video_preview"),
                desc=m["name"],
                height=1400,
            )
        ]
        path = m["path"]
        if m["in_recycle_bin"]:
            actions = [
                self.bottom("bottom_restore", "Restore", "restore_one", path),
                self.bottom("bottom_delete", "Delete", "delete_one", path),
            ]
        else:
            fav = m["favourite"]
            actions = [
                self.bottom(
                    "bottom_favorite",
                    "Remove from favorites" if fav else "Add to favorites",
                    "favourite_one",
                    path,
                    selected=fav,
                ),
                self.bottom("bottom_share", "Share", "share_one", path),
                self.bottom("bottom_delete", "Delete", "delete_one", path),
            ]
        bottom = View(
            w.LINEAR, rid=self.rid("bottom_actions"), horizontal=True, height=170, children=actions
        )
        return Screen(
            None,
            body,
            activity=VIEWER_ACTIVITY,
            header=[toolbar],
            footer=[bottom],
            list_rid=self.rid("view_pager"),
            list_cls=w.FRAME,
        )

    def bottom(self, name: str, desc: str, key: str, path: str, selected: bool = False) -> View:
        return View(
            w.IMAGE_BUTTON,
            rid=self.rid(name),
            desc=desc,
            clickable=True,
            focusable=True,
            selected=selected,
            on_click=key,
            arg=path,
            weight=0.33,
        )

    def on_favourite_one(self, ctx: Ctx, path: str) -> None:
        m = self.item(ctx, path)
        if m is not None:
            self.mark(ctx, m, favourite=not m["favourite"])

    def on_share_one(self, ctx: Ctx, path: str) -> None:
        self.chooser(ctx, [path])

    def on_delete_one(self, ctx: Ctx, path: str) -> None:
        m = self.item(ctx, path)
        if m is not None:
            self.confirm_delete(ctx, [path], f'"{m["name"]}"', m["in_recycle_bin"], "viewer")

    def on_restore_one(self, ctx: Ctx, path: str) -> None:
        m = self.item(ctx, path)
        if m is not None:
            self.restore(ctx, m)
            ctx.back()

    def on_viewer_menu(self, ctx: Ctx, path: str) -> None:
        m = self.item(ctx, path)
        if m is None:
            return
        entries = [("Properties", "properties_one")]
        if not m["in_recycle_bin"]:
            entries.insert(0, ("Rename", "rename_one"))
        ctx.dialog(Dialog("", items=[menu_item(label, key, path) for label, key in entries]))

    def on_rename_one(self, ctx: Ctx, path: str) -> None:
        m = self.item(ctx, path)
        if m is not None:
            self.rename_dialog(ctx, m)

    def on_properties_one(self, ctx: Ctx, path: str) -> None:
        m = self.item(ctx, path)
        if m is not None:
            self.properties(ctx, m)

    # ------------------------------------------------------------ rename, properties, share
    def rename_dialog(self, ctx: Ctx, m: dict[str, Any], typed: bool = False) -> None:
        """The Rename dialog (with what was typed, when a bad name reopens it)."""
        stem, ext = split_ext(m["name"])
        if typed:
            stem, ext = ctx.form("rename_name"), ctx.form("rename_ext")
        ctx.set_form("rename_name", stem)
        ctx.set_form("rename_ext", ext)
        fields = [
            View(
                w.EDIT,
                text=stem,
                rid=self.rid("rename_item_name"),
                hint="Name",
                edit="rename_name",
                on_enter="rename_ok",
                arg=m["path"],
                clickable=True,
                focusable=True,
                long_clickable=True,
                height=150,
            ),
            View(
                w.EDIT,
                text=ext,
                rid=self.rid("rename_item_extension"),
                hint="Extension",
                edit="rename_ext",
                on_enter="rename_ok",
                arg=m["path"],
                clickable=True,
                focusable=True,
                long_clickable=True,
                height=150,
            ),
        ]
        ctx.dialog(
            Dialog(
                "Rename",
                items=fields,
                buttons=[("OK", "rename_ok", m["path"]), ("Cancel", None, None)],
            )
        )

    def on_rename_ok(self, ctx: Ctx, path: str) -> None:
        m = self.item(ctx, path)
        if m is None:
            return
        stem = ctx.form("rename_name").strip()
        ext = ctx.form("rename_ext").strip().lstrip(".")
        problem = ""
        name = f"{stem}.{ext}" if ext else stem
        target = f"{parent_of(path)}/{name}"
        if not stem:
            problem = "Filename cannot be empty"
        elif "/" in stem or "/" in ext:
            problem = "Filename contains invalid characters"
        elif name != m["name"] and any(x["path"] == target for x in self.media(ctx)):
            problem = "A file or folder with that name already exists"
        if problem:  # the dialog stays open
            self.rename_dialog(ctx, m, typed=True)
            ctx.toast(problem)
            return
        ctx.close_dialog()
        ctx.hide_keyboard()
        if name != m["name"]:
            self.rename(ctx, m, name)
            ctx.toast("Renaming successful")
        route = ctx.route
        if route is not None and route.screen == "select":
            ctx.back()
        elif route is not None and route.screen == "viewer":
            ctx.replace("viewer", path=f"{parent_of(path)}/{name}")

    def property_rows(self, lines: list[tuple[str, str]]) -> list[View]:
        return [
            View(
                w.LINEAR,
                horizontal=True,
                height=120,
                children=[
                    View(w.TEXT, text=label, rid=self.rid("property_label"), weight=0.35),
                    View(w.TEXT, text=value, rid=self.rid("property_value"), weight=0.65),
                ],
            )
            for label, value in lines
        ]

    def properties(self, ctx: Ctx, m: dict[str, Any]) -> None:
        lines = [
            ("Name", m["name"]),
            ("Path", m["path"]),
            ("Size", fmt_size(m.get("size"))),
            ("Date taken", fmt_date(m.get("taken"))),
            ("Last modified", fmt_date(m.get("taken"))),
        ]
        ctx.dialog(
            Dialog("Properties", items=self.property_rows(lines), buttons=[("OK", None, None)])
        )

    def chooser(self, ctx: Ctx, paths: list[str]) -> None:
        items_ = [m for m in self.media(ctx) if m["path"] in set(paths)]
        if not items_:
            return
        targets = [
            app
            for app in sorted(ctx.phone.apps.values(), key=lambda a: a.label.casefold())
            if app.model != self.model and callable(getattr(app, "screen_share", None))
        ]
        chosen = tuple(m["path"] for m in items_)
        views = [
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
        message = "" if views else "No apps can perform this action."
        ctx.dialog(Dialog("Share via", message=message, items=views))

    def on_share_to(self, ctx: Ctx, arg: tuple[str, tuple[str, ...]]) -> None:
        model, paths = arg
        found = [m for p in paths if (m := self.item(ctx, p)) is not None]
        if not found:
            return
        route = ctx.route
        if route is not None and route.screen == "select":
            ctx.back()
        first = found[0]
        ctx.open(
            model,
            "share",
            name=first["name"],
            path=first["path"],
            kind="video" if first["kind"] == "video" else "image",
            size=first.get("size"),
            names=tuple(m["name"] for m in found),
            paths=tuple(m["path"] for m in found),
        )

    # ------------------------------------------------------------ settings
    def screen_settings(self, ctx: Ctx, route: Route) -> Screen:
        bin_size = sum(int(m.get("size") or 0) for m in self.folder_media(ctx, BIN))
        rows = [
            section("Recycle Bin", self.rid("settings_recycle_bin_label")),
            self.checkbox_row(
                ctx, "use_recycle_bin", "Move items into the Recycle Bin instead of deleting"
            ),
            self.checkbox_row(
                ctx, "show_recycle_bin", "Show the Recycle Bin at the folders screen"
            ),
            self.pref_row(
                "Empty the Recycle Bin",
                "empty_bin",
                "settings_empty_recycle_bin_size",
                fmt_size(bin_size),
            ),
            section("File operations", self.rid("settings_file_operations_label")),
            self.checkbox_row(
                ctx, "skip_delete_confirmation", "Always skip delete confirmation dialog"
            ),
            section("Thumbnails", self.rid("settings_thumbnails_label")),
            self.checkbox_row(ctx, "show_filenames", "Show file names"),
        ]
        return Screen(
            "Settings",
            rows,
            up=True,
            activity=SETTINGS_ACTIVITY,
            list_rid=self.rid("settings_holder"),
            list_cls=w.SCROLL,
        )


APP = Gallery
