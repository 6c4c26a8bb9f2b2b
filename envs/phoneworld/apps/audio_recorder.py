"""Audio Recorder by Dmytro Ponomarenko (``com.dimowner.audiorecorder``), the recorder
AndroidWorld installs.

- Main screen (``app.main.MainActivity``): the timer (``txt_progress``), the name of the active
  record (``txt_name``, a tap renames it) and its format line (``txt_record_info``), the play
  button and seek bar of the active record, and the bottom panel: Settings, Delete (while
  recording), Record (``btn_record``: start, pause, resume), Stop (``btn_record_stop``, while
  recording) and the records list (``btn_records_list``). The toolbar's "more" button opens the
  active record's menu (Share, Information, Rename, Open with, Delete).
- Recording: a tap on Record creates the record's file at once (``Record-N.m4a`` in the app's
  records folder, or a date / timestamp name, as the ``name_format`` setting says), so the
  ``recordings`` collection holds it from the start, as the app's database does (a row of
  duration 0 is written as recording starts; Stop gives it its duration). The
  timer counts the phone's clock while recording (time only moves on ``wait``); pausing keeps
  what was recorded. Stop writes the duration and size (bytes per second of the format) and
  asks for a name ("New name", Save / Cancel: the record keeps its name on Cancel). Delete
  while recording ("Delete this record?") drops the file.
- Records (``app.records.RecordsActivity``): the records (the one being recorded excepted),
  newest first under date headers ("Today", "Yesterday", "May 12"), each with its name,
  duration, size / format / sample rate, a bookmark toggle and a "more" menu; the toolbar
  sorts (by date, name or duration) and filters to bookmarks. A tap on a record makes it the
  active one and plays it in the bottom panel (play/pause, stop, previous, next, delete).
- Information (``app.info.ActivityInformation``): name, format, duration, sample rate, size,
  creation time and file location of a record.
- Settings (``app.settings.SettingsActivity``): "Keep screen ON while recording", the naming
  spinner, and the recording format, sample rate and channel count choices.

Playback and recording progress, the active record, the sort order and the record counter live
in the phone's scratch forms (route id 0, outside the verifier's state), as the app keeps them
in its services and shared preferences. Recordings live in the app's private folder under
``/sdcard/Android/data``, which the Files app cannot see, so the Files model is left alone.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from tasklang.envs.phoneworld import widgets as w
from tasklang.envs.phoneworld.app import App, Ctx, Dialog, Route, Screen
from tasklang.envs.phoneworld.widgets import View

PACKAGE = "com.dimowner.audiorecorder"
ACTIVITIES = f"{PACKAGE}.app"
MAIN_ACTIVITY = f"{ACTIVITIES}.main.MainActivity"
RECORDS_ACTIVITY = f"{ACTIVITIES}.records.RecordsActivity"
SETTINGS_ACTIVITY = f"{ACTIVITIES}.settings.SettingsActivity"
INFO_ACTIVITY = f"{ACTIVITIES}.info.ActivityInformation"
RECORDS_DIR = f"/sdcard/Android/data/{PACKAGE}/files/Music/records"

# The phone's forms hold what is typed per screen; route id 0 is never a screen, so its forms
# are the app's scratch space (its services' progress and its shared preferences).
SCRATCH = Route("audio_recorder:scratch", (), 0)
PREFIX = "audio_recorder."

FORMATS = (("m4a", "M4a"), ("wav", "Wav"), ("three_gp", "3gp"))
FORMAT_LABEL = dict(FORMATS)
EXTENSION = {"m4a": "m4a", "wav": "wav", "three_gp": "3gp"}
RATES = (
    ("r8000", "8kHz", 8000),
    ("r16000", "16kHz", 16000),
    ("r22050", "22kHz", 22050),
    ("r32000", "32kHz", 32000),
    ("r44100", "44.1kHz", 44100),
    ("r48000", "48kHz", 48000),
)
RATE_LABEL = {key: label for key, label, _ in RATES}
RATE_HZ = {key: hz for key, _, hz in RATES}
NAME_FORMATS = ("record", "date", "date_us", "date_iso", "timestamp")
BITRATE = 128_000  # bits per second of the compressed formats (the app's default)
AMR_BITRATE = 12_200  # 3gp
SORTS = (
    ("date", "By date (newest)"),
    ("date_asc", "By date (oldest)"),
    ("name", "By name (A-Z)"),
    ("name_desc", "By name (Z-A)"),
    ("duration", "By duration (longest)"),
    ("duration_asc", "By duration (shortest)"),
)
MENU = (
    ("Share", "share"),
    ("Information", "info"),
    ("Rename", "rename"),
    ("Open with…", "open_with"),
    ("Delete", "delete"),
)
_COUNTED = re.compile(r"^Record-(\d+)$")


# ------------------------------------------------------------------ formatting
def fmt_duration(seconds: int) -> str:
    """As the app shows a duration: "00:05", "12:34", "01:02:03"."""
    seconds = max(0, int(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours:02d}:{minutes:02d}:{secs:02d}"
    return f"{minutes:02d}:{secs:02d}"


def fmt_size(size: int) -> str:
    """The app's size text ("%s Mb")."""
    return f"{max(0, int(size)) / (1024 * 1024):.2f} Mb"


def parse_time(value: Any) -> dt.datetime | None:
    try:
        return dt.datetime.fromisoformat(str(value))
    except ValueError:
        return None


def date_header(value: Any, now: dt.datetime) -> str:
    """The list's date header: "Today", "Yesterday", "May 12", "May 12, 2025"."""
    t = parse_time(value)
    if t is None:
        return ""
    if t.date() == now.date():
        return "Today"
    if t.date() == now.date() - dt.timedelta(days=1):
        return "Yesterday"
    if t.year == now.year:
        return f"{t:%b} {t.day}"
    return f"{t:%b} {t.day}, {t.year}"


def full_date(value: Any) -> str:
    t = parse_time(value)
    return "" if t is None else f"{t:%d.%m.%Y %H:%M:%S}"


def as_int(value: Any, default: int = 0) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def bytes_per_second(fmt: str, rate: str, stereo: bool) -> int:
    if fmt == "wav":
        return RATE_HZ.get(rate, 44100) * 2 * (2 if stereo else 1)
    if fmt == "three_gp":
        return AMR_BITRATE // 8
    return BITRATE // 8


def record_info(fmt: str, rate: str, stereo: bool) -> str:
    """The format line of the main screen: "M4a, 44.1kHz, 128kbps, Mono"."""
    parts = [FORMAT_LABEL.get(fmt, fmt), RATE_LABEL.get(rate, rate)]
    if fmt != "wav":
        parts.append(f"{(AMR_BITRATE if fmt == 'three_gp' else BITRATE) // 1000}kbps")
    parts.append("Stereo" if stereo else "Mono")
    return ", ".join(parts)


def extension_of(path: str) -> str:
    name = path.rsplit("/", 1)[-1]
    return name.rsplit(".", 1)[-1] if "." in name else ""


def format_of(record: dict[str, Any]) -> str:
    ext = extension_of(str(record.get("path") or ""))
    return {"3gp": "three_gp"}.get(ext, ext or "m4a")


# ------------------------------------------------------------------ views
def text(value: str, name: str = "", **kw: Any) -> View:
    return View(w.TEXT, text=value, rid=f"{PACKAGE}:id/{name}" if name else "", **kw)


def image_button(name: str, key: str | None, desc: str = "", arg: Any = None, **kw: Any) -> View:
    return View(
        w.IMAGE_BUTTON,
        rid=f"{PACKAGE}:id/{name}",
        desc=desc,
        clickable=key is not None,
        focusable=key is not None,
        on_click=key,
        arg=arg,
        **kw,
    )


def row(*children: View, height: int = 0, **kw: Any) -> View:
    return View(w.LINEAR, horizontal=True, children=list(children), height=height, **kw)


def menu_item(label: str, key: str, arg: Any = None) -> View:
    """An item of a popup menu."""
    return View(
        w.LINEAR,
        clickable=True,
        focusable=True,
        on_click=key,
        arg=arg,
        height=132,
        children=[View(w.TEXT, text=label, rid="android:id/title")],
    )


def chip(label: str, selected: bool, key: str, arg: Any) -> View:
    return View(
        w.RADIO,
        text=label,
        rid=f"{PACKAGE}:id/chip",
        checkable=True,
        checked=selected,
        clickable=True,
        focusable=True,
        on_click=key,
        arg=arg,
    )


# ------------------------------------------------------------------ the app
class AudioRecorder(App):
    model = "audio_recorder"
    package = PACKAGE
    label = "Audio Recorder"
    activity = MAIN_ACTIVITY
    home = "main"

    # ------------------------------------------------------------ scratch state
    def scratch(self, ctx: Ctx, name: str) -> str:
        return ctx.phone.forms.get(SCRATCH.id, {}).get(PREFIX + name, "")

    def put(self, ctx: Ctx, **values: Any) -> None:
        for name, value in values.items():
            ctx.set_form(PREFIX + name, "" if value is None else str(value), route=SCRATCH)

    def record(self, ctx: Ctx, name: Any) -> dict[str, Any] | None:
        return ctx.find("recordings", lambda r: r.get("name") == name)

    def rec_state(self, ctx: Ctx) -> str:
        """ "recording", "paused" or "" (idle); a recording whose file is gone is over."""
        state = self.scratch(ctx, "rec_state")
        if state and self.record(ctx, self.scratch(ctx, "rec_name")) is None:
            return ""
        return state

    def rec_elapsed(self, ctx: Ctx) -> int:
        total = as_int(self.scratch(ctx, "rec_elapsed"))
        since = parse_time(self.scratch(ctx, "rec_since"))
        if self.rec_state(ctx) == "recording" and since is not None:
            total += max(0, int((ctx.now - since).total_seconds()))
        return total

    def active(self, ctx: Ctx) -> dict[str, Any] | None:
        name = self.scratch(ctx, "active")
        if not name or (self.rec_state(ctx) and name == self.scratch(ctx, "rec_name")):
            return None
        return self.record(ctx, name)

    def play_position(self, ctx: Ctx) -> tuple[str, int]:
        """The player's state ("playing", "paused" or "") and position in seconds; a record
        played to its end is stopped."""
        record = self.active(ctx)
        state = self.scratch(ctx, "play_state")
        if record is None or not state:
            return "", 0
        pos = as_int(self.scratch(ctx, "play_pos"))
        since = parse_time(self.scratch(ctx, "play_since"))
        if state == "playing" and since is not None:
            pos += max(0, int((ctx.now - since).total_seconds()))
        if pos >= as_int(record.get("duration")):
            return "", 0
        return state, pos

    def records(self, ctx: Ctx) -> list[dict[str, Any]]:
        """The saved records (not the one being recorded), in the chosen order."""
        recording = self.scratch(ctx, "rec_name") if self.rec_state(ctx) else None
        found = [r for r in ctx.records("recordings") if r.get("name") != recording]
        sort = self.scratch(ctx, "sort") or "date"
        key = sort.removesuffix("_asc").removesuffix("_desc")

        def by(r: dict[str, Any]) -> tuple[Any, ...]:
            if key == "name":
                return (str(r.get("name", "")).casefold(),)
            if key == "duration":
                return (as_int(r.get("duration")), str(r.get("created", "")))
            return (str(r.get("created", "")), str(r.get("name", "")))

        descending = sort in ("date", "name_desc", "duration")
        return sorted(found, key=by, reverse=descending)

    def new_name(self, ctx: Ctx) -> str:
        fmt = str(ctx.setting("name_format") or "record")
        now = ctx.now
        if fmt == "date":
            return f"{now:%d.%m.%Y %H.%M.%S}"
        if fmt == "date_us":
            return f"{now:%m-%d-%Y %I.%M.%S%p}"
        if fmt == "date_iso":
            return f"{now:%Y-%m-%d %H.%M.%S}"
        if fmt == "timestamp":
            epoch = dt.datetime(1970, 1, 1)
            return str(int((now - epoch).total_seconds() * 1000))
        names = [str(r.get("name", "")) for r in ctx.records("recordings")]
        used = [int(m[1]) for n in names if (m := _COUNTED.match(n))]
        counter = max([as_int(self.scratch(ctx, "counter")), *used]) + 1
        return f"Record-{counter}"

    def size_of(self, ctx: Ctx, record: dict[str, Any], duration: int) -> int:
        fmt = format_of(record)
        rate = str(ctx.setting("sample_rate") or "r44100")
        stereo = bool(ctx.setting("stereo"))
        header = 44 if fmt == "wav" else 0
        return header + duration * bytes_per_second(fmt, rate, stereo)

    # ------------------------------------------------------------ main screen
    def screen_main(self, ctx: Ctx, route: Route) -> Screen:
        state = self.rec_state(ctx)
        record = self.active(ctx)
        play, pos = self.play_position(ctx)
        settings_info = record_info(
            str(ctx.setting("format") or "m4a"),
            str(ctx.setting("sample_rate") or "r44100"),
            bool(ctx.setting("stereo")),
        )
        toolbar = row(
            image_button("btn_import", None, weight=0.15),
            text(self.label, weight=0.7),
            rid=self.rid("toolbar"),
            height=150,
        )
        if record is not None and not state:  # the active record's menu
            toolbar.children.append(
                image_button("btn_share", "more", desc="More options", weight=0.15)
            )
        centre: list[View] = [View(w.VIEW, rid=self.rid("recording_view" if state else "record"))]
        if state:
            progress = fmt_duration(self.rec_elapsed(ctx))
            centre += [
                text(progress, "txt_progress", height=220),
                text("Recording…" if state == "recording" else "Paused", "txt_name"),
                text(settings_info, "txt_record_info"),
            ]
        elif record is not None:
            line = record_info(
                format_of(record),
                str(ctx.setting("sample_rate") or "r44100"),
                bool(ctx.setting("stereo")),
            )
            centre += [
                image_button(
                    "btn_play",
                    "play",
                    desc="",
                    height=160,
                ),
            ]
            if play:
                centre.append(image_button("btn_stop", "play_stop", height=160))
            centre += [
                text(fmt_duration(pos), "txt_progress", height=220),
                text(
                    str(record.get("name", "")),
                    "txt_name",
                    clickable=True,
                    focusable=True,
                    on_click="rename",
                    arg=record.get("name"),
                ),
                text(line, "txt_record_info"),
                row(
                    text("00:00", "txt_zero_time"),
                    View(w.VIEW, weight=2.0),
                    text(fmt_duration(as_int(record.get("duration"))), "txt_duration"),
                    height=90,
                ),
            ]
        else:
            centre += [
                text("00:00", "txt_progress", height=220),
                text(settings_info, "txt_record_info"),
            ]
        seek = View(w.SEEKBAR, rid=self.rid("play_progress"), enabled=not state, height=90)
        controls = [
            image_button("btn_settings", "settings", desc="Settings", weight=0.8),
            View(w.VIEW, weight=0.2),
        ]
        middle: list[View] = []
        if state:
            middle.append(image_button("btn_record_delete", "rec_delete", desc="Delete"))
        record_desc = {"recording": "Pause recording", "paused": "Resume recording"}
        middle.append(
            image_button(
                "btn_record",
                "record",
                desc=record_desc.get(state, "Start recording"),
                enabled=not play,
            )
        )
        if state:
            middle.append(image_button("btn_record_stop", "rec_stop"))
        controls.append(row(*middle, weight=1.6))
        controls += [
            View(w.VIEW, weight=0.2),
            image_button("btn_records_list", "records_list", weight=0.8),
        ]
        bottom = row(*controls, height=220)
        return Screen(
            None,
            header=[toolbar],
            rows=centre,
            footer=[seek, bottom],
            list_cls=w.LINEAR,
        )

    # ------------------------------------------------------------ recording
    def on_record(self, ctx: Ctx, arg: Any) -> None:
        state = self.rec_state(ctx)
        if state == "recording":  # pause
            self.put(ctx, rec_elapsed=self.rec_elapsed(ctx), rec_since="", rec_state="paused")
            return
        if state == "paused":  # resume
            self.put(ctx, rec_since=ctx.now.isoformat(), rec_state="recording")
            return
        self.put(ctx, play_state="", play_pos=0, play_since="")
        name = self.new_name(ctx)
        fmt = str(ctx.setting("format") or "m4a")
        if self.record(ctx, name) is not None:
            ctx.toast("File with this name is already exists!")
            return
        ctx.add(
            "recordings",
            {
                "name": name,
                "path": f"{RECORDS_DIR}/{name}.{EXTENSION.get(fmt, 'm4a')}",
                "duration": 0,
                "created": ctx.now.isoformat(timespec="seconds"),
                "size": 0,
                "bookmarked": False,
            },
        )
        match = _COUNTED.match(name)
        if match:
            self.put(ctx, counter=match[1])
        self.put(
            ctx,
            rec_state="recording",
            rec_name=name,
            rec_since=ctx.now.isoformat(),
            rec_elapsed=0,
        )

    def on_rec_stop(self, ctx: Ctx, arg: Any) -> None:
        if not self.rec_state(ctx):
            return
        name = self.scratch(ctx, "rec_name")
        elapsed = self.rec_elapsed(ctx)
        self.put(ctx, rec_state="", rec_name="", rec_since="", rec_elapsed=0)
        record = self.record(ctx, name)
        if record is None:
            return
        ctx.update("recordings", record, duration=elapsed, size=self.size_of(ctx, record, elapsed))
        self.put(ctx, active=name, play_state="", play_pos=0)
        self.ask_name(ctx, name)

    def on_rec_delete(self, ctx: Ctx, arg: Any) -> None:
        if not self.rec_state(ctx):
            return
        ctx.dialog(
            Dialog(
                "Warning!",
                message="Delete this record?",
                buttons=[("Yes", "rec_delete_ok", None), ("No", None, None)],
            )
        )

    def on_rec_delete_ok(self, ctx: Ctx, arg: Any) -> None:
        name = self.scratch(ctx, "rec_name")
        record = self.record(ctx, name) if self.rec_state(ctx) else None
        self.put(ctx, rec_state="", rec_name="", rec_since="", rec_elapsed=0)
        if record is not None:
            ctx.delete("recordings", record)

    # ------------------------------------------------------------ renaming
    def ask_name(self, ctx: Ctx, name: str) -> None:
        """The "New name" dialog; its field starts with the record's name."""
        ctx.hide_keyboard()
        if ctx.route is not None:
            ctx.set_form("new_name", name)
        field = View(w.EDIT, rid=self.rid("input_name"), edit="new_name", text=name, height=150)
        buttons = row(
            View(w.VIEW, weight=1.0),
            View(
                w.BUTTON,
                text="Cancel",
                rid=self.rid("dialog_negative_btn"),
                clickable=True,
                focusable=True,
                on_click="rename_cancel",
                weight=0.6,
            ),
            View(
                w.BUTTON,
                text="Save",
                rid=self.rid("dialog_positive_btn"),
                clickable=True,
                focusable=True,
                on_click="rename_ok",
                arg=name,
                weight=0.6,
            ),
            height=150,
        )
        title = text("New name", "dialog_title", height=120)
        ctx.dialog(Dialog("", items=[title, field, buttons]))

    def on_rename(self, ctx: Ctx, arg: Any) -> None:
        ctx.close_dialog()
        record = self.record(ctx, arg)
        if record is not None:
            self.ask_name(ctx, str(arg))

    def on_rename_cancel(self, ctx: Ctx, arg: Any) -> None:
        ctx.close_dialog()
        ctx.hide_keyboard()

    def on_rename_ok(self, ctx: Ctx, arg: Any) -> None:
        ctx.close_dialog()
        ctx.hide_keyboard()
        record = self.record(ctx, arg)
        if record is None:
            return
        new = " ".join(ctx.form("new_name", str(arg)).split())
        if not new or new == arg:
            return
        if "/" in new or len(new) > 50:
            ctx.toast("Failed to rename the record!")
            return
        if self.record(ctx, new) is not None:
            ctx.toast("File with this name is already exists!")
            return
        folder = str(record.get("path", "")).rsplit("/", 1)[0] or RECORDS_DIR
        ext = extension_of(str(record.get("path", ""))) or "m4a"
        ctx.update("recordings", record, name=new, path=f"{folder}/{new}.{ext}")
        if self.scratch(ctx, "active") == arg:
            self.put(ctx, active=new)

    # ------------------------------------------------------------ playback
    def on_play(self, ctx: Ctx, arg: Any) -> None:
        """Play, or pause, the active record (``arg``: a record to make active first)."""
        known = arg is not None and self.record(ctx, arg) is not None
        if known and arg != self.scratch(ctx, "active"):
            self.put(ctx, active=arg, play_state="", play_pos=0)
        if self.active(ctx) is None or self.rec_state(ctx):
            return
        state, pos = self.play_position(ctx)
        if state == "playing":
            self.put(ctx, play_state="paused", play_pos=pos, play_since="")
        else:
            self.put(ctx, play_state="playing", play_pos=pos, play_since=ctx.now.isoformat())

    def on_play_stop(self, ctx: Ctx, arg: Any) -> None:
        self.put(ctx, play_state="", play_pos=0, play_since="")

    def on_play_record(self, ctx: Ctx, name: Any) -> None:
        """A tap on a record of the list: it becomes the active one and plays."""
        if self.record(ctx, name) is None:
            return
        self.put(ctx, active=name, play_state="playing", play_pos=0)
        self.put(ctx, play_since=ctx.now.isoformat())

    def on_play_step(self, ctx: Ctx, step: int) -> None:
        """Previous / next record of the list."""
        names = [r.get("name") for r in self.records(ctx)]
        current = self.scratch(ctx, "active")
        if current not in names:
            return
        i = names.index(current) + step
        if 0 <= i < len(names):
            self.on_play_record(ctx, names[i])

    # ------------------------------------------------------------ records list
    def screen_records(self, ctx: Ctx, route: Route) -> Screen:
        bookmarks = ctx.form("bookmarks") == "1"
        found = self.records(ctx)
        if bookmarks:
            found = [r for r in found if r.get("bookmarked")]
        toolbar = row(
            image_button("btn_back", "back", weight=0.15),
            View(
                w.LINEAR,
                rid=self.rid("title"),
                weight=0.55,
                children=[text("Bookmarks" if bookmarks else "Records", "txt_title")],
            ),
            image_button("btn_sort", "sort", weight=0.15),
            image_button("btn_bookmarks", "bookmarks", weight=0.15),
            rid=self.rid("toolbar"),
            height=150,
        )
        rows: list[View] = []
        sort = self.scratch(ctx, "sort") or "date"
        last = None
        active = self.scratch(ctx, "active")
        for r in found:
            if sort.startswith("date"):
                header = date_header(r.get("created"), ctx.now)
                if header != last:
                    rows.append(text(header, height=100))
                    last = header
            rows.append(self.item(ctx, r, r.get("name") == active))
        if not found:
            empty = "Bookmarks is empty" if bookmarks else "Records is empty"
            rows.append(text(empty, "txtEmpty", height=300))
        footer = []
        record = self.active(ctx)
        if record is not None:
            footer.append(self.panel(ctx, record))
        return Screen(
            None,
            activity=RECORDS_ACTIVITY,
            header=[toolbar],
            rows=rows,
            footer=footer,
            list_rid=self.rid("recycler_view"),
        )

    def item(self, ctx: Ctx, r: dict[str, Any], active: bool) -> View:
        name = str(r.get("name", ""))
        info = ", ".join(
            (
                fmt_size(as_int(r.get("size"))),
                FORMAT_LABEL.get(format_of(r), format_of(r)),
                RATE_LABEL.get(str(ctx.setting("sample_rate") or "r44100"), ""),
            )
        )
        bookmark = image_button(
            "list_item_bookmark",
            "bookmark",
            desc="",
            arg=name,
            weight=0.15,
            selected=bool(r.get("bookmarked")),
        )
        body = View(
            w.LINEAR,
            weight=0.7,
            children=[
                row(text(name, "list_item_name", weight=0.85), bookmark, height=100),
                row(
                    text(info, "list_item_info", weight=0.7),
                    text(fmt_duration(as_int(r.get("duration"))), "list_item_description"),
                    height=90,
                ),
            ],
        )
        return View(
            w.FRAME,
            rid=self.rid("container"),
            clickable=True,
            focusable=True,
            selected=active,
            on_click="play_record",
            arg=name,
            horizontal=True,
            height=220,
            children=[
                View(w.IMAGE, desc="Play", weight=0.15),
                body,
                image_button("list_item_more", "item_menu", arg=name, weight=0.1),
            ],
        )

    def panel(self, ctx: Ctx, record: dict[str, Any]) -> View:
        _, pos = self.play_position(ctx)
        name = record.get("name")
        return View(
            w.FRAME,
            rid=self.rid("touch_layout"),
            height=520,
            children=[
                View(
                    w.LINEAR,
                    children=[
                        row(
                            text(fmt_duration(pos), "txt_progress", weight=0.8),
                            image_button(
                                "btn_check_bookmark",
                                "bookmark",
                                arg=name,
                                weight=0.2,
                                selected=bool(record.get("bookmarked")),
                            ),
                            height=110,
                        ),
                        View(w.VIEW, rid=self.rid("record"), height=100),
                        row(
                            text("00:00", weight=0.2),
                            text(
                                str(name),
                                "txt_name",
                                clickable=True,
                                focusable=True,
                                on_click="rename",
                                arg=name,
                                weight=0.6,
                            ),
                            text(fmt_duration(as_int(record.get("duration"))), "txt_duration"),
                            height=90,
                        ),
                        View(w.SEEKBAR, rid=self.rid("play_progress"), height=70),
                        row(
                            image_button("btn_prev", "play_step", arg=-1),
                            View(w.VIEW, weight=0.5),
                            image_button("btn_delete", "delete", arg=name),
                            image_button("btn_play", "play", arg=name),
                            image_button("btn_stop", "play_stop"),
                            View(w.VIEW, weight=0.5),
                            image_button("btn_next", "play_step", arg=1),
                            height=150,
                        ),
                    ],
                )
            ],
        )

    def on_records_list(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("records")

    def on_back(self, ctx: Ctx, arg: Any) -> None:
        ctx.back()

    def on_bookmarks(self, ctx: Ctx, arg: Any) -> None:
        ctx.set_form("bookmarks", "" if ctx.form("bookmarks") == "1" else "1")

    def on_bookmark(self, ctx: Ctx, name: Any) -> None:
        record = self.record(ctx, name)
        if record is not None:
            ctx.update("recordings", record, bookmarked=not record.get("bookmarked"))

    def on_sort(self, ctx: Ctx, arg: Any) -> None:
        ctx.dialog(Dialog("", items=[menu_item(label, "sort_pick", key) for key, label in SORTS]))

    def on_sort_pick(self, ctx: Ctx, key: str) -> None:
        self.put(ctx, sort=key)

    def on_item_menu(self, ctx: Ctx, name: Any) -> None:
        if self.record(ctx, name) is None:
            return
        ctx.dialog(Dialog("", items=[menu_item(label, key, name) for label, key in MENU]))

    def on_more(self, ctx: Ctx, arg: Any) -> None:
        record = self.active(ctx)
        if record is not None:
            self.on_item_menu(ctx, record.get("name"))

    # the record menu --------------------------------------------------------------
    def on_share(self, ctx: Ctx, name: Any) -> None:
        self.chooser(ctx, name, f"Share record: {name}")

    def on_open_with(self, ctx: Ctx, name: Any) -> None:
        self.chooser(ctx, name, f"Open {name} with")

    def chooser(self, ctx: Ctx, name: Any, title: str) -> None:
        """The system's app chooser: every app that takes a shared file."""
        record = self.record(ctx, name)
        if record is None:
            return
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
                arg=(app.model, name),
                height=160,
                children=[View(w.TEXT, text=app.label, rid="android:id/text1")],
            )
            for app in targets
        ]
        message = "" if items else "No apps can perform this action."
        ctx.dialog(Dialog(title, message=message, items=items))

    def on_share_to(self, ctx: Ctx, arg: tuple[str, Any]) -> None:
        model, name = arg
        record = self.record(ctx, name)
        if record is None:
            return
        path = str(record.get("path", ""))
        ctx.open(
            model,
            "share",
            name=path.rsplit("/", 1)[-1],
            path=path,
            kind="audio",
            size=record.get("size"),
            names=(path.rsplit("/", 1)[-1],),
            paths=(path,),
        )

    def on_info(self, ctx: Ctx, name: Any) -> None:
        if self.record(ctx, name) is not None:
            ctx.push("info", name=name)

    def on_delete(self, ctx: Ctx, name: Any) -> None:
        if self.record(ctx, name) is None:
            return
        ctx.dialog(
            Dialog(
                "Warning!",
                message=f"Delete record {name} forever?",
                buttons=[("Yes", "delete_ok", name), ("No", None, None)],
            )
        )

    def on_delete_ok(self, ctx: Ctx, name: Any) -> None:
        record = self.record(ctx, name)
        if record is None:
            return
        ctx.delete("recordings", record)
        if self.scratch(ctx, "active") == name:
            self.put(ctx, active="", play_state="", play_pos=0, play_since="")
        ctx.toast("The record deleted successfully")

    # ------------------------------------------------------------ information
    def screen_info(self, ctx: Ctx, route: Route) -> Screen:
        record = self.record(ctx, route.arg("name"))
        rows: list[View] = []
        if record is not None:
            fmt = format_of(record)
            rate = str(ctx.setting("sample_rate") or "r44100")
            pairs = (
                ("Name:", str(record.get("name", "")), "txt_name"),
                ("Format:", FORMAT_LABEL.get(fmt, fmt), "txt_format"),
                ("Duration:", fmt_duration(as_int(record.get("duration"))), "txt_duration"),
                ("Frequency:", f"{RATE_HZ.get(rate, 44100)} Hz", "txt_frequency"),
                ("Size:", fmt_size(as_int(record.get("size"))), "txt_size"),
                ("Created:", full_date(record.get("created")), "txt_created"),
                ("File location:", str(record.get("path", "")), "txt_location"),
            )
            for label, value, name in pairs:
                rows.append(text(label, height=90))
                rows.append(text(value, name, height=110))
        toolbar = row(
            image_button("btn_back", "back", weight=0.15),
            text("Information", weight=0.85),
            rid=self.rid("toolbar"),
            height=150,
        )
        return Screen(None, activity=INFO_ACTIVITY, header=[toolbar], rows=rows, list_cls=w.SCROLL)

    # ------------------------------------------------------------ settings
    def screen_settings(self, ctx: Ctx, route: Route) -> Screen:
        fmt = str(ctx.setting("format") or "m4a")
        rate = str(ctx.setting("sample_rate") or "r44100")
        stereo = bool(ctx.setting("stereo"))
        keep = bool(ctx.setting("keep_screen_on"))
        naming = str(ctx.setting("name_format") or "record")
        toolbar = row(
            image_button("btnBack", "back", weight=0.15),
            text("Settings", weight=0.85),
            rid=self.rid("toolbar"),
            height=150,
        )
        switch = View(
            w.SWITCH,
            rid=self.rid("swKeepScreenOn"),
            checkable=True,
            checked=keep,
            clickable=True,
            focusable=True,
            on_click="keep_screen",
            weight=0.2,
        )
        recorded = [r for r in ctx.records("recordings")]
        total = sum(as_int(r.get("duration")) for r in recorded)
        rows = [
            text("Trash", "btnTrash", height=140),
            row(text("Keep screen ON while recording", weight=0.8), switch, height=150),
            View(
                w.LINEAR,
                rid=self.rid("name_format"),
                clickable=True,
                focusable=True,
                on_click="naming",
                height=140,
                children=[text(self.naming_label(ctx, naming), "txtItem")],
            ),
            View(
                w.LINEAR,
                rid=self.rid("info_panel"),
                height=150,
                children=[text(record_info(fmt, rate, stereo), "txt_information")],
            ),
            self.setting_view(
                "setting_recording_format",
                "Recording format:",
                [(label, key == fmt, "set_format", key) for key, label in FORMATS],
                summary=text(FORMAT_LABEL.get(fmt, fmt), "txt_format", height=80),
            ),
            self.setting_view(
                "setting_frequency",
                "Sample rate:",
                [(label, key == rate, "set_rate", key) for key, label, _ in RATES],
            ),
            self.setting_view(
                "setting_channels",
                "Channel count:",
                [("Stereo", stereo, "set_stereo", True), ("Mono", not stereo, "set_stereo", False)],
            ),
            text(f"Total records count: {len(recorded)}", "txt_records_count", height=100),
            text(
                f"Total recorded duration: {fmt_duration(total)}", "txt_total_duration", height=100
            ),
        ]
        return Screen(
            None, activity=SETTINGS_ACTIVITY, header=[toolbar], rows=rows, list_cls=w.SCROLL
        )

    def setting_view(
        self,
        name: str,
        title: str,
        chips: list[tuple[str, bool, str, Any]],
        summary: View | None = None,
    ) -> View:
        chip_rows = [
            row(*(chip(*c) for c in chips[i : i + 3]), height=130) for i in range(0, len(chips), 3)
        ]
        children = [text(title, "txt_title", height=90), *chip_rows]
        if summary is not None:
            children.insert(1, summary)
        return View(w.LINEAR, rid=self.rid(name), children=children)

    def naming_label(self, ctx: Ctx, fmt: str) -> str:
        samples = {
            "record": "Record-1",
            "date": f"{ctx.now:%d.%m.%Y %H.%M.%S}",
            "date_us": f"{ctx.now:%m-%d-%Y %I.%M.%S%p}",
            "date_iso": f"{ctx.now:%Y-%m-%d %H.%M.%S}",
            "timestamp": str(int((ctx.now - dt.datetime(1970, 1, 1)).total_seconds() * 1000)),
        }
        return f"Naming: {samples.get(fmt, 'Record-1')}.m4a"

    def on_settings(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("settings")

    def on_keep_screen(self, ctx: Ctx, arg: Any) -> None:
        ctx.set("keep_screen_on", not ctx.setting("keep_screen_on"))

    def on_naming(self, ctx: Ctx, arg: Any) -> None:
        items = [menu_item(self.naming_label(ctx, f), "set_naming", f) for f in NAME_FORMATS]
        ctx.dialog(Dialog("", items=items))

    def on_set_naming(self, ctx: Ctx, fmt: str) -> None:
        if ctx.setting("name_format") != fmt:
            ctx.set("name_format", fmt)

    def on_set_format(self, ctx: Ctx, fmt: str) -> None:
        if ctx.setting("format") != fmt:
            ctx.set("format", fmt)

    def on_set_rate(self, ctx: Ctx, rate: str) -> None:
        if ctx.setting("sample_rate") != rate:
            ctx.set("sample_rate", rate)

    def on_set_stereo(self, ctx: Ctx, stereo: bool) -> None:
        if bool(ctx.setting("stereo")) != stereo:
            ctx.set("stereo", stereo)


APP = AudioRecorder
