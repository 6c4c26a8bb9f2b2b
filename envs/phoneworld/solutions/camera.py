"""Reference solutions of the Camera tasks."""

from __future__ import annotations

from tasklang.envs.phoneworld.solutions.base import Driver, reference


def _option(d: Driver, rid: str, desc: str) -> None:
    """Tap an option button (it cycles through its values) until it reads ``desc``."""
    for _ in range(4):
        if d.has(rid=rid, desc=desc):
            return
        d.tap(rid=rid)
    d.need(rid=rid, desc=desc)


def _lens(d: Driver, lens: str) -> None:
    """Choose the back or the front camera from the options (opening them if needed)."""
    if not d.has(rid="camera_toggle_button"):
        d.tap(rid="mode_options_toggle")
    _option(d, "camera_toggle_button", "Front camera" if lens == "front" else "Back camera")


@reference("camera.take_photos")
def take_photos(d: Driver) -> None:
    d.open("Camera")
    _lens(d, str(d.params["lens"]))
    for _ in range(int(d.params["shots"]["n"])):
        d.tap(rid="shutter_button")
    d.done()


@reference("camera.record_video")
def record_video(d: Driver) -> None:
    d.open("Camera")
    _lens(d, str(d.params["lens"]))
    d.tap(desc="Switch mode")
    d.tap(text="Video")
    d.tap(rid="shutter_button")  # start recording
    length = int(d.params["length"])
    for _ in range(-(-length // 5)):  # each wait is five seconds on the phone's clock
        d.act({"action_type": "wait"})
    d.tap(rid="shutter_button")  # stop and save
    d.done()


@reference("camera.countdown_grid_photo")
def countdown_grid_photo(d: Driver) -> None:
    p = d.params
    d.open("Camera")
    _lens(d, str(p["lens"]))  # opens the options
    _option(d, "grid_lines_toggle_button", f"Grid lines {p['grid']['say']}")
    _option(d, "flash_toggle_button", f"Flash {p['fl']['key']}")
    _option(d, "countdown_toggle_button", f"Countdown timer duration is set to {p['secs']} seconds")
    d.tap(rid="shutter_button")
    d.done()
