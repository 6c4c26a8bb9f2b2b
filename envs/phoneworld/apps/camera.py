"""Camera (``com.android.camera2``), the AOSP camera app of AndroidWorld's emulator.

- Capture (``com.android.camera.CameraLauncher``, the launcher alias of ``CameraActivity``):
  the preview (``preview_overlay``, with grid lines when they are on), the options toggle
  (``mode_options_toggle``, "Options") that shows the option buttons (``flash_toggle_button``,
  ``countdown_toggle_button``, ``grid_lines_toggle_button``, ``camera_toggle_button``; each
  tap moves to the next value, as the real multi-toggle buttons do), and the bottom bar: the
  last capture's thumbnail (``rounded_thumbnail_view``, opens the filmstrip), the shutter
  (``shutter_button``) and the mode list button.
- Modes: the real app opens its mode list (``mode_list``) with a swipe from the screen's left
  edge; the phone gives horizontal swipes to no app, so the bottom bar carries a "Switch mode"
  button that opens the same list ("Camera", "Video", "Settings", ``selector_text``).
- Photo mode: the shutter writes ``/sdcard/DCIM/Camera/IMG_yyyyMMdd_HHmmss.jpg`` at the phone's
  clock (``_1``, ``_2``... when a file of that second exists). With the countdown on, the
  shutter fires when the countdown ends: the phone's clock moves on by the countdown (the
  person holding the phone waits for it) and the photo is taken then.
- Video mode: the shutter starts recording (``recording_time`` counts the phone's clock, which
  moves on ``wait``); the shutter again stops it and writes ``VID_yyyyMMdd_HHmmss.mp4`` named
  after the start, with its duration and the size the video quality gives. While recording,
  the mode list and the filmstrip are out of reach.
- Filmstrip: the captures, newest first, one frame each (scroll for older ones), each with
  Share (the system chooser: every app with a ``screen_share``), Delete (at once, with an
  "Undo" bar as the real filmstrip has) and Details (name, date taken, size, path).
- Settings (``com.android.camera.settings.CameraSettingsActivity``): "Resolution & quality"
  (back camera photo size and video quality, single-choice dialogs) and the "Save location"
  switch.

The recording start and the undo bar live in the phone's scratch forms (route id 0, outside
the verifier's state), as the app keeps them in memory. Captures are the ``media`` collection;
the Gallery app shows them in its "Camera" album and renames or deletes them there.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from tasklang.envs.phoneworld import widgets as w
from tasklang.envs.phoneworld.app import App, Ctx, Dialog, Route, Screen
from tasklang.envs.phoneworld.apps.common import choice_dialog
from tasklang.envs.phoneworld.widgets import View

PACKAGE = "com.android.camera2"
CAMERA_ACTIVITY = "com.android.camera.CameraLauncher"
SETTINGS_ACTIVITY = "com.android.camera.settings.CameraSettingsActivity"
FOLDER = "/sdcard/DCIM/Camera"

SCRATCH = Route("camera:scratch", (), 0)
PREFIX = "camera."

DEFAULTS: dict[str, Any] = {
    "mode": "photo",
    "timer": "off",
    "flash": "auto",
    "grid": False,
    "lens": "back",
    "save_location": False,
    "photo_resolution": "r4_3",
    "video_quality": "fhd",
}
FLASH = (("auto", "Flash auto"), ("on", "Flash on"), ("off", "Flash off"))
TIMERS = (
    ("off", "Countdown timer is off", 0),
    ("s3", "Countdown timer duration is set to 3 seconds", 3),
    ("s10", "Countdown timer duration is set to 10 seconds", 10),
)
TIMER_SECONDS = {key: secs for key, _, secs in TIMERS}
RESOLUTIONS = (("r4_3", "12.2 megapixels (4:3)"), ("r16_9", "9.2 megapixels (16:9)"))
PHOTO_BYTES = {"r4_3": 3_100_000, "r16_9": 2_400_000}
QUALITIES = (("fhd", "HD 1080p"), ("hd", "HD 720p"), ("sd", "SD 480p"))
VIDEO_BYTES_PER_SECOND = {"fhd": 2_125_000, "hd": 1_250_000, "sd": 437_500}
MODES = (("photo", "Camera"), ("video", "Video"))


# ------------------------------------------------------------------ helpers
def parse_time(value: Any) -> dt.datetime | None:
    try:
        return dt.datetime.fromisoformat(str(value))
    except ValueError:
        return None


def as_int(value: Any, default: int = 0) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def fmt_clock(seconds: int) -> str:
    """The recording timer: "00:07", "01:02:03"."""
    hours, rest = divmod(max(0, seconds), 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours:02d}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"


def fmt_size(size: int) -> str:
    """Android's ``Formatter.formatFileSize``: "3.10 MB", "512 kB"."""
    size = max(0, int(size))
    if size >= 1_000_000:
        return f"{size / 1_000_000:.2f} MB"
    if size >= 1000:
        return f"{size / 1000:.0f} kB"
    return f"{size} B"


def fmt_taken(value: Any) -> str:
    t = parse_time(value)
    return "" if t is None else f"{t:%b} {t.day}, {t.year} {t:%I:%M:%S %p}".replace(" 0", " ")


def photo_size(resolution: str, when: dt.datetime) -> int:
    """A JPEG's size: the resolution's typical size, varied by the scene (the second taken)."""
    return PHOTO_BYTES.get(resolution, 3_100_000) + (when.second * 37 + when.minute * 11) * 911


def unique_path(taken: list[str], stem: str, ext: str) -> str:
    path = f"{FOLDER}/{stem}.{ext}"
    n = 1
    while path in taken:
        path = f"{FOLDER}/{stem}_{n}.{ext}"
        n += 1
    return path


# ------------------------------------------------------------------ the app
class Camera(App):
    model = "camera"
    package = PACKAGE
    label = "Camera"
    activity = CAMERA_ACTIVITY
    home = "main"

    # ------------------------------------------------------------ state
    def setting_of(self, ctx: Ctx, name: str) -> Any:
        value = ctx.setting(name)
        return DEFAULTS.get(name) if value is None else value

    def scratch(self, ctx: Ctx, name: str) -> str:
        return ctx.phone.forms.get(SCRATCH.id, {}).get(PREFIX + name, "")

    def put(self, ctx: Ctx, **values: Any) -> None:
        for name, value in values.items():
            ctx.set_form(PREFIX + name, "" if value is None else str(value), route=SCRATCH)

    def captures(self, ctx: Ctx) -> list[dict[str, Any]]:
        """The captures, newest first."""
        return sorted(
            ctx.records("media"),
            key=lambda r: (str(r.get("taken", "")), str(r.get("path", ""))),
            reverse=True,
        )

    def capture(self, ctx: Ctx, path: Any) -> dict[str, Any] | None:
        return ctx.find("media", lambda r: r.get("path") == path)

    def recording_since(self, ctx: Ctx) -> dt.datetime | None:
        return (
            parse_time(self.scratch(ctx, "rec_since")) if self.scratch(ctx, "rec_since") else None
        )

    # ------------------------------------------------------------ capture screen
    def screen_main(self, ctx: Ctx, route: Route) -> Screen:
        mode = self.setting_of(ctx, "mode")
        since = self.recording_since(ctx)
        options_open = self.scratch(ctx, "options") == "1" and since is None
        top: list[View] = [
            View(w.VIEW, weight=0.85),
            self.button(
                "mode_options_toggle", "options", "Options", selected=options_open, weight=0.15
            ),
        ]
        header = [
            View(
                w.LINEAR,
                rid=self.rid("mode_options_overlay"),
                horizontal=True,
                height=150,
                children=top,
            )
        ]
        if options_open:
            flash = dict(FLASH)[self.setting_of(ctx, "flash")]
            timer = next(d for k, d, _ in TIMERS if k == self.setting_of(ctx, "timer"))
            grid = "Grid lines on" if self.setting_of(ctx, "grid") else "Grid lines off"
            lens = "Front camera" if self.setting_of(ctx, "lens") == "front" else "Back camera"
            buttons = [
                self.button("flash_toggle_button", "flash", flash),
                self.button("countdown_toggle_button", "countdown", timer),
                self.button(
                    "grid_lines_toggle_button",
                    "grid",
                    grid,
                    selected=bool(self.setting_of(ctx, "grid")),
                ),
                self.button("camera_toggle_button", "lens", lens),
            ]
            if mode == "video":
                buttons = [buttons[0], buttons[2], buttons[3]]
            header.append(
                View(
                    w.LINEAR,
                    rid=self.rid("mode_options_buttons"),
                    horizontal=True,
                    height=150,
                    children=buttons,
                )
            )
        preview: list[View] = []
        if self.setting_of(ctx, "grid"):
            preview.append(View(w.VIEW, rid=self.rid("grid_lines"), height=60))
        if since is not None:
            elapsed = max(0, int((ctx.now - since).total_seconds()))
            preview.append(
                View(w.TEXT, text=fmt_clock(elapsed), rid=self.rid("recording_time"), height=120)
            )
        rows = [
            View(
                w.FRAME,
                rid=self.rid("preview_overlay"),
                desc="Camera preview",
                height=1350,
                children=preview,
            )
        ]
        latest = self.captures(ctx)
        thumb = View(
            w.IMAGE,
            rid=self.rid("rounded_thumbnail_view"),
            desc="Filmstrip" if latest and since is None else "",
            clickable=bool(latest) and since is None,
            focusable=bool(latest) and since is None,
            on_click="filmstrip" if latest and since is None else None,
            weight=0.3,
        )
        shutter_desc = {"photo": "Shutter", "video": "Record"}[mode]
        if since is not None:
            shutter_desc = "Stop recording"
        bottom = View(
            w.FRAME,
            rid=self.rid("bottom_bar"),
            horizontal=True,
            height=330,
            children=[
                thumb,
                View(
                    w.IMAGE_BUTTON,
                    rid=self.rid("shutter_button"),
                    desc=shutter_desc,
                    clickable=True,
                    focusable=True,
                    selected=since is not None,
                    on_click="shutter",
                    weight=0.4,
                ),
                View(
                    w.IMAGE_BUTTON,
                    rid=self.rid("mode_list_button"),
                    desc="Switch mode",
                    clickable=since is None,
                    focusable=since is None,
                    on_click="modes" if since is None else None,
                    weight=0.3,
                ),
            ],
        )
        label = View(w.TEXT, text=dict(MODES)[mode], rid=self.rid("mode_name"), height=90)
        return Screen(
            None,
            rows,
            header=header,
            footer=[label, bottom],
            list_rid=self.rid("camera_app_root"),
            list_cls=w.FRAME,
        )

    def button(
        self, name: str, key: str, desc: str, selected: bool = False, weight: float = 0.25
    ) -> View:
        return View(
            w.IMAGE_BUTTON,
            rid=self.rid(name),
            desc=desc,
            clickable=True,
            focusable=True,
            selected=selected,
            on_click=key,
            weight=weight,
        )

    def on_options(self, ctx: Ctx, arg: Any) -> None:
        self.put(ctx, options="" if self.scratch(ctx, "options") == "1" else "1")

    def cycle(self, ctx: Ctx, name: str, values: list[str]) -> None:
        current = self.setting_of(ctx, name)
        i = values.index(current) if current in values else -1
        ctx.set(name, values[(i + 1) % len(values)])

    def on_flash(self, ctx: Ctx, arg: Any) -> None:
        self.cycle(ctx, "flash", [k for k, _ in FLASH])

    def on_countdown(self, ctx: Ctx, arg: Any) -> None:
        self.cycle(ctx, "timer", [k for k, _, _ in TIMERS])

    def on_grid(self, ctx: Ctx, arg: Any) -> None:
        ctx.set("grid", not self.setting_of(ctx, "grid"))

    def on_lens(self, ctx: Ctx, arg: Any) -> None:
        self.cycle(ctx, "lens", ["back", "front"])

    def on_modes(self, ctx: Ctx, arg: Any) -> None:
        current = self.setting_of(ctx, "mode")
        items = [
            View(
                w.LINEAR,
                rid=self.rid("mode_list"),
                clickable=True,
                focusable=True,
                selected=key == current,
                on_click="mode",
                arg=key,
                height=150,
                children=[View(w.TEXT, text=label, rid=self.rid("selector_text"))],
            )
            for key, label in (*MODES, ("settings", "Settings"))
        ]
        ctx.dialog(Dialog("", items=items))

    def on_mode(self, ctx: Ctx, mode: str) -> None:
        ctx.close_dialog()
        if mode == "settings":
            ctx.push("settings")
            return
        if self.setting_of(ctx, "mode") != mode:
            ctx.set("mode", mode)

    # ------------------------------------------------------------ capturing
    def on_shutter(self, ctx: Ctx, arg: Any) -> None:
        if self.setting_of(ctx, "mode") == "video":
            if self.recording_since(ctx) is None:
                self.put(ctx, rec_since=ctx.now.isoformat(), options="")
            else:
                self.stop_recording(ctx)
            return
        delay = TIMER_SECONDS.get(self.setting_of(ctx, "timer"), 0)
        if delay:
            ctx.advance(delay)
        when = ctx.now
        paths = [str(r.get("path")) for r in ctx.records("media")]
        path = unique_path(paths, f"IMG_{when:%Y%m%d_%H%M%S}", "jpg")
        ctx.add(
            "media",
            {
                "path": path,
                "name": path.rsplit("/", 1)[-1],
                "kind": "photo",
                "taken": when.isoformat(),
                "size": photo_size(self.setting_of(ctx, "photo_resolution"), when),
                "duration": 0,
                "camera": self.setting_of(ctx, "lens"),
            },
        )

    def stop_recording(self, ctx: Ctx) -> None:
        since = self.recording_since(ctx)
        self.put(ctx, rec_since="")
        if since is None:
            return
        seconds = max(1, int((ctx.now - since).total_seconds()))
        paths = [str(r.get("path")) for r in ctx.records("media")]
        path = unique_path(paths, f"VID_{since:%Y%m%d_%H%M%S}", "mp4")
        rate = VIDEO_BYTES_PER_SECOND.get(self.setting_of(ctx, "video_quality"), 2_125_000)
        ctx.add(
            "media",
            {
                "path": path,
                "name": path.rsplit("/", 1)[-1],
                "kind": "video",
                "taken": since.isoformat(),
                "size": seconds * rate + 48_000,
                "duration": seconds,
                "camera": self.setting_of(ctx, "lens"),
            },
        )

    def on_back(self, ctx: Ctx, arg: Any) -> None:
        ctx.back()

    # ------------------------------------------------------------ filmstrip
    def on_filmstrip(self, ctx: Ctx, arg: Any) -> None:
        self.put(ctx, undo="")
        ctx.push("filmstrip")

    def screen_filmstrip(self, ctx: Ctx, route: Route) -> Screen:
        rows = [self.frame(r) for r in self.captures(ctx)]
        if not rows:
            rows.append(View(w.TEXT, text="No photos or videos", height=200))
        footer: list[View] = []
        if self.scratch(ctx, "undo"):
            footer.append(
                View(
                    w.LINEAR,
                    rid=self.rid("undo_deletion_bar"),
                    horizontal=True,
                    height=150,
                    children=[
                        View(w.TEXT, text="Deleted", weight=0.7),
                        View(
                            w.BUTTON,
                            text="Undo",
                            rid=self.rid("undo_button"),
                            clickable=True,
                            focusable=True,
                            on_click="undo",
                            weight=0.3,
                        ),
                    ],
                )
            )
        toolbar = View(
            w.LINEAR,
            rid=self.rid("filmstrip_top_bar"),
            horizontal=True,
            height=150,
            children=[
                View(
                    w.IMAGE_BUTTON,
                    desc="Navigate up",
                    clickable=True,
                    focusable=True,
                    on_click="back",
                    weight=0.15,
                ),
                View(w.TEXT, text="Filmstrip", weight=0.85),
            ],
        )
        return Screen(
            None, rows, header=[toolbar], footer=footer, list_rid=self.rid("filmstrip_view")
        )

    def frame(self, r: dict[str, Any]) -> View:
        path = r.get("path")
        name = str(r.get("name", ""))
        video = r.get("kind") == "video"
        info = fmt_taken(r.get("taken"))
        if video:
            info += f"  {fmt_clock(as_int(r.get('duration')))}"
        controls = View(
            w.LINEAR,
            rid=self.rid("filmstrip_bottom_panel"),
            horizontal=True,
            height=170,
            children=[
                self.control("filmstrip_bottom_control_share", "Share", "share", path),
                self.control("filmstrip_bottom_control_details", "Details", "details", path),
                self.control("filmstrip_bottom_control_delete", "Delete", "delete", path),
            ],
        )
        return View(
            w.FRAME,
            rid=self.rid("filmstrip_item"),
            height=1200,
            children=[
                View(w.IMAGE, desc=f"{'Video' if video else 'Photo'} {name}", height=840),
                View(w.TEXT, text=name, rid=self.rid("filmstrip_item_name"), height=100),
                View(w.TEXT, text=info, rid=self.rid("filmstrip_item_date"), height=90),
                controls,
            ],
        )

    def control(self, name: str, desc: str, key: str, arg: Any) -> View:
        return View(
            w.IMAGE_BUTTON,
            rid=self.rid(name),
            desc=desc,
            clickable=True,
            focusable=True,
            on_click=key,
            arg=arg,
            weight=0.33,
        )

    def on_delete(self, ctx: Ctx, path: Any) -> None:
        record = self.capture(ctx, path)
        if record is None:
            return
        ctx.delete("media", record)
        self.put(ctx, undo=json.dumps(record, sort_keys=True))

    def on_undo(self, ctx: Ctx, arg: Any) -> None:
        saved = self.scratch(ctx, "undo")
        self.put(ctx, undo="")
        if not saved:
            return
        record = json.loads(saved)
        if self.capture(ctx, record.get("path")) is None:
            ctx.add("media", record)

    def on_details(self, ctx: Ctx, path: Any) -> None:
        record = self.capture(ctx, path)
        if record is None:
            return
        lines = [
            ("Title", str(record.get("name", ""))),
            ("Date taken", fmt_taken(record.get("taken"))),
            ("File size", fmt_size(as_int(record.get("size")))),
            ("Path", str(record.get("path", ""))),
        ]
        if record.get("kind") == "video":
            lines.insert(3, ("Duration", fmt_clock(as_int(record.get("duration")))))
        items = [
            View(
                w.LINEAR,
                height=150,
                children=[
                    View(w.TEXT, text=label, height=60),
                    View(w.TEXT, text=value, rid=self.rid("details_value"), height=80),
                ],
            )
            for label, value in lines
        ]
        ctx.dialog(Dialog("Details", items=items, buttons=[("Close", None, None)]))

    def on_share(self, ctx: Ctx, path: Any) -> None:
        """The system chooser: every installed app that takes a shared file."""
        if self.capture(ctx, path) is None:
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
                arg=(app.model, path),
                height=160,
                children=[View(w.TEXT, text=app.label, rid="android:id/text1")],
            )
            for app in targets
        ]
        message = "" if items else "No apps can perform this action."
        ctx.dialog(Dialog("Share", message=message, items=items))

    def on_share_to(self, ctx: Ctx, arg: tuple[str, Any]) -> None:
        ctx.close_dialog()
        model, path = arg
        record = self.capture(ctx, path)
        if record is None:
            return
        name = str(record.get("name", ""))
        ctx.open(
            model,
            "share",
            name=name,
            path=path,
            kind="video" if record.get("kind") == "video" else "image",
            size=record.get("size"),
            names=(name,),
            paths=(path,),
        )

    # ------------------------------------------------------------ settings
    def screen_settings(self, ctx: Ctx, route: Route) -> Screen:
        save = bool(self.setting_of(ctx, "save_location"))
        rows = [
            self.pref("Resolution & quality", "resolution", None),
            View(
                w.LINEAR,
                horizontal=True,
                clickable=True,
                focusable=True,
                on_click="save_location",
                height=170,
                children=[
                    View(w.TEXT, text="Save location", rid="android:id/title", weight=0.8),
                    View(
                        w.SWITCH,
                        rid="android:id/switch_widget",
                        checkable=True,
                        checked=save,
                        weight=0.2,
                    ),
                ],
            ),
        ]
        return Screen(
            "Camera settings", rows, up=True, activity=SETTINGS_ACTIVITY, list_rid="android:id/list"
        )

    def pref(self, title: str, key: str, summary: str | None) -> View:
        kids = [View(w.TEXT, text=title, rid="android:id/title", height=90)]
        if summary is not None:
            kids.append(View(w.TEXT, text=summary, rid="android:id/summary", height=80))
        return View(
            w.LINEAR,
            clickable=True,
            focusable=True,
            on_click=key,
            height=180 if summary else 150,
            children=kids,
        )

    def on_save_location(self, ctx: Ctx, arg: Any) -> None:
        ctx.set("save_location", not self.setting_of(ctx, "save_location"))

    def on_resolution(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("resolution")

    def screen_resolution(self, ctx: Ctx, route: Route) -> Screen:
        photo = dict(RESOLUTIONS)[self.setting_of(ctx, "photo_resolution")]
        video = dict(QUALITIES)[self.setting_of(ctx, "video_quality")]
        rows = [
            self.pref("Back camera photo", "photo_resolution", photo),
            self.pref("Back camera video", "video_quality", video),
        ]
        return Screen(
            "Resolution & quality",
            rows,
            up=True,
            activity=SETTINGS_ACTIVITY,
            list_rid="android:id/list",
        )

    def on_photo_resolution(self, ctx: Ctx, arg: Any) -> None:
        ctx.dialog(
            choice_dialog(
                "Back camera photo",
                RESOLUTIONS,
                self.setting_of(ctx, "photo_resolution"),
                "pick",
                "photo_resolution",
                cls=w.RADIO,
                cancel=True,
            )
        )

    def on_video_quality(self, ctx: Ctx, arg: Any) -> None:
        ctx.dialog(
            choice_dialog(
                "Back camera video",
                QUALITIES,
                self.setting_of(ctx, "video_quality"),
                "pick",
                "video_quality",
                cls=w.RADIO,
                cancel=True,
            )
        )

    def on_pick(self, ctx: Ctx, arg: tuple[str, str]) -> None:
        ctx.close_dialog()
        name, value = arg
        if self.setting_of(ctx, name) != value:
            ctx.set(name, value)


APP = Camera
