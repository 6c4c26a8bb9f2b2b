"""A field the app sets from a setting when it makes a record (`FIELD = "SETTING when added"`):
the camera's captures take the `lens` in use. A phone probed after every step tells it where
the setting read the same before and after the step that made the record, in the app itself."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tasklang.compiler import Compiler
from tasklang.envs.device.differential import judge, library
from tasklang.envs.device.stamped import stamp, stamps
from tasklang.envs.phoneworld.episode import run_reference
from tasklang.verifiers.snapshot import AppState, WorldSnapshot

CAMERA = "com.android.camera2"
SHOTS = """\
app shots_demo {
  package "com.example.shots"
  record Shot { path: file key  lens: enum(back, front) = "back"  flash: bool = false }
  collection shots: Shot
  settings { lens: enum(back, front) = "back"  zoom: int = 1 }
%s  probe shots: files "/sdcard/DCIM/Shots/*" { path = "path", %s }
}
"""


def _diagnostics(changes: str, column: str) -> list[tuple[str, str]]:
    result = Compiler().compile_text(SHOTS % (changes, column), path="shots.app")
    return [(d.code, d.message) for d in result.diagnostics]


def test_the_field_is_declared_fixed_and_the_setting_alike() -> None:
    fixed = "  changes shots.lens nowhere\n"
    assert _diagnostics(fixed, 'lens = "lens when added"') == []
    for changes, column, message in [
        ("", 'lens = "lens when added"', "must never change after"),
        (fixed, 'lens = "lense when added"', "has no setting `lense`"),
        ("  changes shots.flash nowhere\n", 'flash = "zoom when added"', "other values"),
        (fixed, 'lens = "lens when taken"', 'or "SETTING when added"'),
    ]:
        found = _diagnostics(changes, column)
        assert [code for code, _ in found] == ["TL1023"], (column, found)
        assert message in found[0][1]


def _world(lens: str, *paths: str, camera: str = "back") -> WorldSnapshot:
    media = [{"path": p, "kind": "photo"} for p in paths]
    if camera:
        media = [{**m, "camera": camera} for m in media]
    state = AppState(collections={"media": media}, settings={"lens": lens})
    return WorldSnapshot(apps={"camera": state})


def _read(lens: str, *paths: str) -> WorldSnapshot:
    """A phone's reading: the listing shows no lens."""
    return _world(lens, *paths, camera="")


def _lenses(snap: WorldSnapshot) -> dict[str, Any]:
    return {r["path"]: r.get("camera") for r in snap.apps["camera"].collections["media"]}


A, B, C = (
    "/sdcard/DCIM/Camera/IMG_1.jpg",
    "/sdcard/DCIM/Camera/IMG_2.jpg",
    "/sdcard/DCIM/Camera/IMG_3.jpg",
)


def test_a_capture_takes_the_lens_read_before_and_after_its_step() -> None:
    compiled = library()["camera.take_photos"]
    assert [(s.collection, s.field, s.setting) for s in stamps(compiled)] == [
        ("media", "camera", "lens")
    ]
    initial = _world("back", A)
    # switch to the front lens, take two photos, one of them the last step's
    steps = [_read("front", A), _read("front", A, B), _read("front", A, B, C)]
    states, end, done, untold = stamp(
        compiled, initial, steps, _read("front", A, B, C), [CAMERA] * 3
    )
    assert done == {("camera", "media", "camera")} and untold == set()
    assert _lenses(end) == {A: "back", B: "front", C: "front"}  # A: as the world gave it
    assert [_lenses(s) for s in states][1] == {A: "back", B: "front"}


@pytest.mark.parametrize(
    ("steps", "packages", "why"),
    [
        (
            [_read("back", A), _read("front", A, B)],
            [CAMERA, CAMERA],
            "the lens changed in the step",
        ),
        ([_read("back", A), _read("back", A, B)], [CAMERA, "com.example.files"], "another app"),
    ],
)
def test_a_capture_whose_lens_cannot_be_told_is_read_without_it(
    steps: list[WorldSnapshot], packages: list[str | None], why: str
) -> None:
    """The field is left out of that capture in every reading (read record by record), and
    kept in the others: the world's own, and those a later step made."""
    compiled = library()["camera.take_photos"]
    steps = [*steps, _read(steps[-1].apps["camera"].settings["lens"], A, B, C)]
    end = _read(steps[-1].apps["camera"].settings["lens"], A, B, C)
    states, end, done, untold = stamp(compiled, _world("back", A), steps, end, [*packages, CAMERA])
    assert done == untold == {("camera", "media", "camera")}, why
    lens = steps[-1].apps["camera"].settings["lens"]
    assert _lenses(end) == {A: "back", B: None, C: lens}
    assert all("camera" not in r for r in end.apps["camera"].collections["media"] if r["path"] == B)
    assert _lenses(states[1]) == {A: "back", B: None}


def test_a_reading_without_the_setting_leaves_the_field_unread() -> None:
    compiled = library()["camera.take_photos"]
    steps = [_read("back", A), WorldSnapshot()]
    states, end, done, untold = stamp(
        compiled, _world("back", A), steps, _read("back", A, B), [CAMERA, CAMERA]
    )
    assert done == untold == set()
    assert states == steps and "camera" not in end.apps["camera"].collections["media"][0]


def test_a_path_made_again_takes_the_lens_of_its_new_capture() -> None:
    compiled = library()["camera.take_photos"]
    steps = [_read("front", A), _read("front"), _read("front", A)]
    _, end, done, _ = stamp(compiled, _world("back", A), steps, _read("front", A), [CAMERA] * 3)
    assert done and _lenses(end) == {A: "front"}


def test_the_phone_decides_the_lens_of_the_photos_an_episode_takes(
    decided_on_a_phone: Callable[[str], None],
) -> None:
    for task in (
        "camera.take_photos",
        "camera.countdown_grid_photo",
        "cross.camera_photo_favorite",
    ):
        decided_on_a_phone(task)


def test_without_a_reading_after_every_step_the_lens_stays_unread() -> None:
    compiled = library()["camera.take_photos"]
    _, traj = run_reference(compiled, 0)
    final = traj.final.snapshot
    assert final is not None
    case = judge(compiled, traj, final, "reference")  # no step readings
    assert any("`camera`" in why for why in case.unobservable.values())


def test_a_photo_no_step_of_the_camera_made_leaves_the_others_decided() -> None:
    """A photo copied into the camera's folder at the end (a near miss: the last step was the
    gallery's) has no lens a reading tells; the clauses on the photos the episode took are
    still decided record by record, on every seed."""
    from tasklang.envs.device.differential import run_task

    compiled = library()["cross.camera_photo_favorite"]
    for seed in (0, 1, 2, 3):
        cases = run_task(compiled, seed)
        assert all(c.agrees and c.device is not None for c in cases), (seed, cases)
