"""PhoneWorld's Camera (com.android.camera2): the reference solutions of its tasks, the
screens' XML, and capturing photos and videos, the option buttons, the filmstrip and the
settings through real actions."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tasklang import ir
from tasklang.compiler import Compiler
from tasklang.envs.phoneworld.app import AppData
from tasklang.envs.phoneworld.episode import Episode, run_nothing, run_reference
from tasklang.envs.phoneworld.solutions.base import Driver
from tasklang.verifiers.snapshot import parse_ui_xml

ROOT = Path(__file__).resolve().parents[1]
CAM = "com.android.camera2"
TASKS = {
    "camera.take_photos": "app",
    "camera.record_video": "app",
    "camera.countdown_grid_photo": "app",
    "cross.camera_photo_favorite": "cross_app",
}


@cache
def compiled(task_id: str) -> ir.CompiledTask:
    path = ROOT / "task_library" / TASKS[task_id] / f"{task_id}.task"
    return Compiler().compile_paths([path]).tasks[0]


@pytest.mark.parametrize("task_id", sorted(TASKS))
def test_reference_solves_every_instance_and_nothing_fails(task_id: str) -> None:
    for seed in range(6):  # `tasklang test` tries 20
        verdict, _ = run_reference(compiled(task_id), seed)
        failed = [(r.id, r.summary) for r in verdict.clauses if not r.passed]
        assert not failed, (seed, failed)
        assert verdict.success, (seed, verdict.notes)
        assert not run_nothing(compiled(task_id), seed).success


# ------------------------------------------------------------------ helpers
def cap(name: str, taken: str, kind: str = "photo", size: int = 3_000_000) -> dict[str, Any]:
    return {
        "path": f"/sdcard/DCIM/Camera/{name}",
        "name": name,
        "kind": kind,
        "taken": taken,
        "size": size,
        "duration": 4 if kind == "video" else 0,
        "camera": "back",
    }


def episode(
    captures: list[dict[str, Any]] | None = None,
    media: list[dict[str, Any]] | None = None,
    app: str = "Gallery",
    **settings: Any,
) -> tuple[Episode, Driver]:
    ep = Episode(compiled("cross.camera_photo_favorite"), 0)
    assert ep.instance is not None
    ep.phone.state["camera"] = AppData({"media": list(captures or [])}, {})
    ep.phone.state["gallery"] = AppData({"media": list(media or []), "albums": []}, settings)
    ep.phone.invalidate()
    d = Driver(ep.tree, ep.step, ep.instance.params)
    d.open(app)
    return ep, d


def captures(ep: Episode) -> list[dict[str, Any]]:
    return ep.phone.state["camera"].collections["media"]


def xml_ok(ep: Episode, package: str) -> None:
    _, elements = parse_ui_xml(ep.xml())
    assert elements and all(e.package for e in elements)
    assert ep.phone.current_activity()[0] == package
    assert f"{package}:id/" in ep.xml()


def activity(ep: Episode) -> str:
    return ep.phone.current_activity()[1].rsplit(".", 1)[-1]


# ------------------------------------------------------------------ camera
def test_camera_screens_produce_parseable_xml_with_real_ids() -> None:
    ep, d = episode([cap("IMG_20260510_080000.jpg", "2026-05-10T08:00:00")], app="Camera")
    xml_ok(ep, CAM)
    assert activity(ep) == "CameraLauncher"
    assert d.has(rid=f"{CAM}:id/shutter_button") and d.has(rid="rounded_thumbnail_view")
    d.tap(rid="mode_options_toggle")
    xml_ok(ep, CAM)
    assert d.has(rid="flash_toggle_button") and d.has(rid="grid_lines_toggle_button")
    d.tap(rid="rounded_thumbnail_view")
    xml_ok(ep, CAM)
    assert d.texts(rid="filmstrip_item_name") == ["IMG_20260510_080000.jpg"]
    d.back()
    d.tap(desc="Switch mode")
    d.tap(text="Settings")
    xml_ok(ep, CAM)
    assert activity(ep) == "CameraSettingsActivity"


def test_shutter_names_photos_after_the_clock_and_numbers_same_second() -> None:
    ep, d = episode(app="Camera")
    d.tap(rid="shutter_button")
    d.tap(rid="shutter_button")
    stamp = f"{ep.phone.clock:%Y%m%d_%H%M%S}"
    names = [c["name"] for c in captures(ep)]
    assert names == [f"IMG_{stamp}.jpg", f"IMG_{stamp}_1.jpg"]
    assert all(c["kind"] == "photo" and c["size"] > 2_000_000 for c in captures(ep))
    assert captures(ep)[0]["taken"] == ep.phone.clock.isoformat()


def test_video_mode_records_for_the_clocks_time() -> None:
    ep, d = episode(app="Camera")
    d.tap(desc="Switch mode")
    d.tap(text="Video")
    assert ep.phone.state["camera"].settings["mode"] == "video"
    assert d.texts(rid="mode_name") == ["Video"]
    start = ep.phone.clock
    d.tap(rid="shutter_button")
    assert captures(ep) == []  # saved when stopped
    mode_button = d.observe().flat()[d.need(desc="Switch mode")]
    assert not mode_button.clickable  # no mode switch while recording
    for _ in range(3):
        d.act({"action_type": "wait"})
    assert d.texts(rid="recording_time") == ["00:15"]
    d.tap(rid="shutter_button")
    (video,) = captures(ep)
    assert video["name"] == f"VID_{start:%Y%m%d_%H%M%S}.mp4"
    assert video["duration"] == 15 and video["kind"] == "video"
    assert video["size"] == 15 * 2_125_000 + 48_000


def test_option_buttons_cycle_and_countdown_delays_the_photo() -> None:
    ep, d = episode(app="Camera")
    d.tap(rid="mode_options_toggle")
    d.tap(rid="flash_toggle_button")
    assert ep.phone.state["camera"].settings["flash"] == "on"
    assert d.has(desc="Flash on")
    d.tap(rid="countdown_toggle_button")
    d.tap(rid="countdown_toggle_button")
    assert ep.phone.state["camera"].settings["timer"] == "s10"
    d.tap(rid="grid_lines_toggle_button")
    assert d.has(rid="grid_lines")
    d.tap(rid="camera_toggle_button")
    before = ep.phone.clock
    d.tap(rid="shutter_button")
    (photo,) = captures(ep)
    assert (ep.phone.clock - before).total_seconds() == 10
    assert photo["taken"] == ep.phone.clock.isoformat() and photo["camera"] == "front"


def test_filmstrip_delete_undo_and_details() -> None:
    old = cap("IMG_20260510_080000.jpg", "2026-05-10T08:00:00")
    new = cap("IMG_20260511_090000.jpg", "2026-05-11T09:00:00")
    ep, d = episode([old, new], app="Camera")
    d.tap(rid="rounded_thumbnail_view")
    assert d.texts(rid="filmstrip_item_name")[0] == new["name"]  # newest first
    d.tap(desc="Details")
    assert "/sdcard/DCIM/Camera/IMG_20260511_090000.jpg" in d.texts(rid="details_value")
    d.tap(text="Close")
    d.tap(desc="Delete")
    assert [c["name"] for c in captures(ep)] == [old["name"]]
    d.tap(text="Undo")
    assert {c["name"] for c in captures(ep)} == {old["name"], new["name"]}
    assert not d.has(text="Undo")


def test_camera_settings_resolution_and_save_location() -> None:
    ep, d = episode(app="Camera")
    d.tap(desc="Switch mode")
    d.tap(text="Settings")
    d.tap(text="Save location")
    assert ep.phone.state["camera"].settings["save_location"] is True
    d.tap(text="Resolution & quality")
    d.tap(text="Back camera video")
    d.tap(text="Cancel")
    assert "video_quality" not in ep.phone.state["camera"].settings
    d.tap(text="Back camera video")
    d.tap(text="SD 480p")
    assert ep.phone.state["camera"].settings["video_quality"] == "sd"
    assert d.has(text="SD 480p")


def test_thumbnail_without_captures_does_nothing() -> None:
    ep, d = episode(app="Camera")
    out = d.act({"action_type": "click", "index": d.need(rid="rounded_thumbnail_view")})
    assert out.ok and ep.phone.stacks["camera"][-1].screen == "main"
    bad = ep.step({"action_type": "click", "index": 10_000})
    assert not bad.ok and "out of range" in bad.info
