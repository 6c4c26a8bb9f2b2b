"""PhoneWorld's Simple Gallery Pro (com.simplemobiletools.gallery.pro): the reference solutions
of its tasks, the screens' XML, and the albums, the viewer, selection, rename, favourites, the
Recycle Bin, search, dialogs and sharing through real actions, including the Camera app's
captures seen and changed from the gallery."""

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
GAL = "com.simplemobiletools.gallery.pro"
TASKS = {
    "gallery.favorite_screenshot": "app",
    "gallery.rename_image": "app",
    "gallery.restore_from_bin": "app",
    "cross.gallery_delete_day_photos": "cross_app",
    "cross.gallery_share_photo_wechat": "cross_app",
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


def med(path: str, taken: str, **flags: Any) -> dict[str, Any]:
    name = path.rsplit("/", 1)[-1]
    return {
        "path": path,
        "name": name,
        "folder": path.rsplit("/", 2)[-2],
        "kind": "video" if name.endswith(".mp4") else "image",
        "taken": taken,
        "size": 1_000_000,
        "favourite": False,
        "in_recycle_bin": False,
        **flags,
    }


def episode(
    captures: list[dict[str, Any]] | None = None,
    media: list[dict[str, Any]] | None = None,
    app: str = "Gallery",
    **settings: Any,
) -> tuple[Episode, Driver]:
    ep = Episode(compiled("gallery.favorite_screenshot"), 0)
    assert ep.instance is not None
    ep.phone.state["camera"] = AppData({"media": list(captures or [])}, {})
    ep.phone.state["gallery"] = AppData({"media": list(media or []), "albums": []}, settings)
    ep.phone.invalidate()
    d = Driver(ep.tree, ep.step, ep.instance.params)
    d.open(app)
    return ep, d


def captures(ep: Episode) -> list[dict[str, Any]]:
    return ep.phone.state["camera"].collections["media"]


def rows(ep: Episode) -> list[dict[str, Any]]:
    return ep.phone.state["gallery"].collections["media"]


def xml_ok(ep: Episode, package: str) -> None:
    _, elements = parse_ui_xml(ep.xml())
    assert elements and all(e.package for e in elements)
    assert ep.phone.current_activity()[0] == package
    assert f"{package}:id/" in ep.xml()


def activity(ep: Episode) -> str:
    return ep.phone.current_activity()[1].rsplit(".", 1)[-1]


def two_albums() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    caps = [
        cap("IMG_20260510_080000.jpg", "2026-05-10T08:00:00"),
        cap("IMG_20260511_090000.jpg", "2026-05-11T09:00:00"),
        cap("VID_20260511_100000.mp4", "2026-05-11T10:00:00", "video"),
    ]
    media = [
        med("/sdcard/Pictures/Screenshots/shot_a.png", "2026-05-09T10:00:00"),
        med("/sdcard/Pictures/Screenshots/shot_b.png", "2026-05-12T10:00:00"),
        med("/sdcard/Download/old.jpg", "2026-04-01T10:00:00", in_recycle_bin=True),
    ]
    return caps, media


# ------------------------------------------------------------------ gallery
def test_gallery_screens_produce_parseable_xml_with_real_ids() -> None:
    ep, d = episode(*two_albums())
    xml_ok(ep, GAL)
    assert activity(ep) == "MainActivity"
    assert d.texts(rid="dir_name") == ["Screenshots", "Camera", "Recycle Bin"]
    assert d.texts(rid="photo_cnt") == ["2", "3", "1"]
    d.tap(text="Camera")
    xml_ok(ep, GAL)
    assert activity(ep) == "MediaActivity"
    assert d.texts(rid="medium_name")[0] == "VID_20260511_100000.mp4"
    d.tap(text="IMG_20260510_080000.jpg")
    xml_ok(ep, GAL)
    assert activity(ep) == "ViewPagerActivity"
    assert d.has(rid="bottom_favorite") and d.has(rid="bottom_delete")
    d.back()
    d.back()
    d.tap(desc="More options")
    d.tap(text="Settings")
    xml_ok(ep, GAL)
    assert activity(ep) == "SettingsActivity"


def test_favouriting_a_capture_writes_the_gallerys_row() -> None:
    ep, d = episode(*two_albums())
    d.tap(text="Camera")
    d.tap(text="IMG_20260511_090000.jpg")
    d.tap(desc="Add to favorites")
    row = next(r for r in rows(ep) if r["name"] == "IMG_20260511_090000.jpg")
    assert row["favourite"] and row["folder"] == "Camera" and row["taken"] == "2026-05-11T09:00:00"
    assert len(captures(ep)) == 3  # the capture itself is untouched
    assert d.has(desc="Remove from favorites")
    d.back()
    assert d.has(rid="favorite")
    d.tap(text="IMG_20260511_090000.jpg")
    d.tap(desc="Remove from favorites")
    assert not next(r for r in rows(ep) if r["name"] == "IMG_20260511_090000.jpg")["favourite"]


def test_deleting_a_capture_moves_it_into_the_recycle_bin_and_restore_brings_it_back() -> None:
    ep, d = episode(*two_albums())
    d.tap(text="Camera")
    d.tap(text="IMG_20260510_080000.jpg")
    d.tap(desc="Delete")
    assert d.has(text='Move "IMG_20260510_080000.jpg" into the Recycle Bin?')
    d.tap(text="No")
    assert len(captures(ep)) == 3
    d.tap(desc="Delete")
    d.tap(text="Yes")
    assert [c["name"] for c in captures(ep)] == [
        "IMG_20260511_090000.jpg",
        "VID_20260511_100000.mp4",
    ]
    assert next(r for r in rows(ep) if r["name"] == "IMG_20260510_080000.jpg")["in_recycle_bin"]
    assert activity(ep) == "MediaActivity"
    d.back()
    assert d.texts(rid="photo_cnt") == ["2", "2", "2"]
    d.tap(text="Recycle Bin")
    d.tap(text="IMG_20260510_080000.jpg")
    d.tap(desc="Restore")
    assert any(c["name"] == "IMG_20260510_080000.jpg" for c in captures(ep))
    assert not next(r for r in rows(ep) if r["name"] == "IMG_20260510_080000.jpg")["in_recycle_bin"]


def test_empty_recycle_bin_and_permanent_delete_without_bin() -> None:
    caps, media = two_albums()
    ep, d = episode(caps, media)
    d.tap(text="Recycle Bin")
    d.tap(desc="More options")
    d.tap(text="Empty the Recycle Bin")
    d.tap(text="Yes")
    assert all(r["name"] != "old.jpg" for r in rows(ep))
    ep, d = episode(caps, media, use_recycle_bin=False)
    d.tap(text="Screenshots")
    d.tap(text="shot_a.png")
    d.tap(desc="Delete")
    assert d.has(text='Are you sure you want to delete "shot_a.png"?')
    d.tap(text="Yes")
    assert [r["name"] for r in rows(ep)] == ["shot_b.png", "old.jpg"]


def test_selection_mode_select_all_delete_and_back_ends_it() -> None:
    ep, d = episode(*two_albums())
    d.tap(text="Camera")
    d.long_press(text="IMG_20260510_080000.jpg")
    assert d.texts(rid="select_all_title") == ["1 / 3"]
    d.tap(text="IMG_20260511_090000.jpg")
    assert d.texts(rid="select_all_title") == ["2 / 3"]
    d.back()  # ends the selection, deletes nothing
    assert len(captures(ep)) == 3 and not d.has(rid="select_all_title")
    d.long_press(text="IMG_20260510_080000.jpg")
    d.tap(desc="More options")
    d.tap(text="Select all")
    assert d.texts(rid="select_all_title") == ["3 / 3"]
    d.tap(desc="Delete")
    assert d.has(text="Move 3 items into the Recycle Bin?")
    d.tap(text="Yes")
    assert captures(ep) == []
    assert sum(r["in_recycle_bin"] for r in rows(ep)) == 4


def test_search_narrows_the_album_and_the_selection() -> None:
    ep, d = episode(*two_albums())
    d.tap(text="Camera")
    d.type("IMG_20260511", rid="top_toolbar_search")
    assert ep.phone.keyboard
    d.enter()
    assert not ep.phone.keyboard
    assert d.texts(rid="medium_name") == ["IMG_20260511_090000.jpg"]
    d.long_press(text="IMG_20260511_090000.jpg")
    d.tap(desc="More options")
    d.tap(text="Select all")
    assert d.texts(rid="select_all_title") == ["1 / 1"]
    d.back()  # ends the selection
    d.back()  # the albums
    d.type("shot", rid="top_toolbar_search")
    assert d.texts(rid="dir_name") == ["Screenshots"]


def test_rename_a_capture_keeps_camera_and_gallery_in_step() -> None:
    caps, media = two_albums()
    media.append(med(caps[0]["path"], caps[0]["taken"], favourite=True))
    ep, d = episode(caps, media)
    d.tap(text="Camera")
    d.tap(text="IMG_20260510_080000.jpg")
    d.tap(desc="More options")
    d.tap(text="Rename")
    d.type("", rid="rename_item_name")
    d.tap(text="OK")
    assert d.has(text="Rename")  # an empty name is refused
    d.type("IMG_20260511_090000", rid="rename_item_name")
    d.tap(text="OK")
    assert ep.phone.toast == "A file or folder with that name already exists"
    assert d.texts(rid="rename_item_name") == ["IMG_20260511_090000"]
    d.type("breakfast", rid="rename_item_name")
    d.tap(text="OK")
    assert "/sdcard/DCIM/Camera/breakfast.jpg" in {c["path"] for c in captures(ep)}
    row = next(r for r in rows(ep) if r["favourite"])
    assert row["path"] == "/sdcard/DCIM/Camera/breakfast.jpg" and row["name"] == "breakfast.jpg"
    assert d.texts(rid="medium_viewer_title") == ["breakfast.jpg"]


def test_sort_filter_and_view_type_dialogs() -> None:
    ep, d = episode(*two_albums())
    d.tap(desc="More options")
    d.tap(text="Sort by")
    d.tap(text="Name")
    assert ep.phone.state["gallery"].settings["sort_by"] == "name"
    d.tap(desc="More options")
    d.tap(text="Sort by")
    d.tap(text="Ascending")
    assert d.texts(rid="dir_name")[:2] == ["Camera", "Screenshots"]
    d.tap(desc="More options")
    d.tap(text="Filter media")
    d.tap(text="Images")
    assert d.texts(rid="photo_cnt")[0] == "1"  # the camera's video only
    d.tap(desc="More options")
    d.tap(text="Filter media")
    d.tap(text="GIFs")
    d.tap(desc="More options")
    d.tap(text="Filter media")
    d.tap(text="Videos")  # the last kind shown stays on
    assert ep.phone.toast == "You have to select at least one item"
    d.tap(desc="More options")
    d.tap(text="Change view type")
    d.tap(text="List")
    assert ep.phone.state["gallery"].settings["view"] == "list"


def test_create_folder_opens_it_empty_and_duplicates_are_refused() -> None:
    ep, d = episode(*two_albums())
    d.tap(desc="More options")
    d.tap(text="Create new folder")
    d.type("Trips", rid="folder_name")
    d.tap(text="OK")
    assert ep.phone.state["gallery"].collections["albums"] == [
        {"path": "/sdcard/Pictures/Trips", "name": "Trips", "pinned": False}
    ]
    assert d.has(text="No media files have been found")
    d.back()
    d.tap(desc="More options")
    d.tap(text="Create new folder")
    d.type("Trips", rid="folder_name")
    d.tap(text="OK")
    assert ep.phone.toast == "A folder with that name already exists"
    assert d.has(text="Create new folder")  # the dialog stays open
    d.tap(text="Cancel")
    assert len(ep.phone.state["gallery"].collections["albums"]) == 1


def test_open_camera_and_share_through_the_chooser() -> None:
    ep, d = episode(*two_albums())
    d.tap(desc="Open camera")
    assert ep.phone.foreground == "camera"
    d.open("Gallery")
    d.tap(text="Screenshots")
    d.tap(text="shot_b.png")
    d.tap(desc="Share")
    assert d.has(text="Share via") and d.has(text="WeChat")
    d.back()  # the chooser closes, nothing is shared
    assert ep.phone.foreground == "gallery"
    d.tap(desc="Share")
    d.tap(text="WeChat")
    route = ep.phone.stacks["wechat"][-1]
    assert ep.phone.foreground == "wechat" and route.screen == "share"
    assert route.arg("name") == "shot_b.png" and route.arg("kind") == "image"
    d.open("Gallery")
    d.back()
    d.long_press(text="shot_a.png")
    d.tap(text="shot_b.png")
    d.tap(desc="Share")
    d.tap(text="WeChat")
    route = ep.phone.stacks["wechat"][-1]
    assert set(route.arg("names")) == {"shot_a.png", "shot_b.png"}
    assert ep.phone.stacks["gallery"][-1].screen == "media"  # the selection ended


def test_pinning_an_album_moves_it_first_and_unpin_restores_the_order() -> None:
    ep, d = episode(*two_albums())
    assert d.texts(rid="dir_name")[:2] == ["Screenshots", "Camera"]
    d.long_press(text="Camera")
    d.tap(text="Pin to the top")
    assert ep.phone.state["gallery"].collections["albums"] == [
        {"path": "/sdcard/DCIM/Camera", "name": "Camera", "pinned": True}
    ]
    assert d.texts(rid="dir_name")[:2] == ["Camera", "Screenshots"]
    d.long_press(text="Camera")
    d.tap(text="Properties")
    assert "3" in d.texts(rid="property_value")
    d.tap(text="OK")
    d.long_press(text="Camera")
    d.tap(text="Unpin")
    assert d.texts(rid="dir_name")[:2] == ["Screenshots", "Camera"]
