"""Reference solutions of the Camera tasks."""

from __future__ import annotations

from tasklang.envs.phoneworld.solutions.base import Driver, reference


@reference("camera.take_photos")
def take_photos(d: Driver) -> None:
    d.open("Camera")
    for _ in range(int(d.params["n"])):
        d.tap(rid="shutter_button")
    d.done()


@reference("camera.record_video")
def record_video(d: Driver) -> None:
    d.open("Camera")
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
    d.open("Camera")
    d.tap(rid="mode_options_toggle")
    d.tap(rid="grid_lines_toggle_button")
    want = f"Countdown timer duration is set to {d.params['secs']} seconds"
    for _ in range(3):
        if d.has(desc=want):
            break
        d.tap(rid="countdown_toggle_button")
    d.tap(rid="shutter_button")
    d.done()
