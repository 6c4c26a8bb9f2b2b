"""A files probe's field the media store keeps for the file (`FIELD = "media COLUMN"`): a
video's length. The camera writes it for a video it records; a file setup writes (bytes with
no media in them) and a photo have none, and are read without the field."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tasklang.compiler import Compiler
from tasklang.envs.device.check import not_kept, probe
from tasklang.envs.device.differential import judge, library, start_reading, step_readings
from tasklang.envs.device.parse import OutputError
from tasklang.envs.device.phoneworld import PhoneWorldTransport
from tasklang.envs.device.probes import MEDIA_URI, coverage, media_key, probe_specs, records_of
from tasklang.envs.phoneworld.episode import run_reference
from tasklang.verifiers.snapshot import WorldSnapshot

CLIPS = """\
app clips_demo {
  package "com.example.clips"
  record Clip { path: file key  length: duration = 0s  frames: int = 0 }
  collection clips: Clip
  probe clips: files "/sdcard/Movies/Clips/*" { path = "path", %s }
}
"""


def _diagnostics(column: str) -> list[tuple[str, str]]:
    result = Compiler().compile_text(CLIPS % column, path="clips.app")
    return [(d.code, d.message) for d in result.diagnostics]


def test_a_media_column_is_one_the_media_store_keeps_for_a_field_of_its_type() -> None:
    assert _diagnostics('length = "media duration"') == []
    for column, message in [
        ('length = "media bitrate"', "column `bitrate` is not read"),
        ('frames = "media duration"', "reads a duration field, and `frames` is int"),
        ('length = "mediaduration"', '"media COLUMN"'),
    ]:
        found = _diagnostics(column)
        assert [code for code, _ in found] == ["TL1023"], (column, found)
        assert message in found[0][1]


def test_a_file_is_found_in_the_media_store_by_its_folder_and_name() -> None:
    assert media_key("/sdcard/DCIM/Camera/VID_1.mp4") == ("DCIM/Camera/", "VID_1.mp4")
    assert media_key("/storage/emulated/0/Movies/a.mp4") == ("Movies/", "a.mp4")
    assert media_key("/sdcard/a.mp4") == ("", "a.mp4")
    assert media_key("/data/data/com.example/a.mp4") is None


# ---------------------------------------------------------------- reading a phone's output
LISTING = """\
/sdcard/DCIM/Camera:
total 24
drwxrws--- 2 u0_a1 media_rw     3452 2026-05-14 18:05:40.000000000 -0500 .
drwxrws--- 2 u0_a1 media_rw     3452 2026-05-14 18:05:40.000000000 -0500 ..
-rw-rw---- 1 u0_a1 media_rw  2987450 2026-05-14 17:42:33.000000000 -0500 IMG_20260514_174233.jpg
-rw-rw---- 1 u0_a1 media_rw  4298000 2026-05-11 12:15:00.000000000 -0500 VID_20260511_121500.mp4
-rw-rw---- 1 u0_a1 media_rw 21298000 2026-05-14 18:05:00.000000000 -0500 VID_20260514_180500.mp4
"""
# what `content query` prints for the media store: the photo and the video setup wrote have
# no length, the one the app recorded (10.432 s) has
MEDIA = (
    "Row: 0 relative_path=DCIM/Camera/, _display_name=IMG_20260514_174233.jpg, duration=NULL\n"
    "Row: 1 relative_path=DCIM/Camera/, _display_name=VID_20260511_121500.mp4, duration=NULL\n"
    "Row: 2 relative_path=DCIM/Camera/, _display_name=VID_20260514_180500.mp4, duration=10432\n"
    "Row: 3 relative_path=Movies/, _display_name=VID_20260514_180500.mp4, duration=99000\n"
)


def _camera_spec() -> Any:
    spec = next(s for s in probe_specs(library()["camera.record_video"]) if s.target == "media")
    assert spec.media_command() is not None
    return spec


def _records(media: str) -> dict[str, dict[str, Any]]:
    spec = _camera_spec()

    def run(argv: tuple[str, ...]) -> str:
        assert argv[:4] == ("content", "query", "--uri", MEDIA_URI), argv
        assert argv[5] == "relative_path:_display_name:duration"
        return media

    return {r["name"]: r for r in records_of(spec, LISTING, run)}


def test_the_length_is_read_where_the_media_store_keeps_one() -> None:
    got = _records(MEDIA)
    assert got["VID_20260514_180500.mp4"]["duration"] == 10  # whole seconds, below
    assert "duration" not in got["VID_20260511_121500.mp4"]
    assert "duration" not in got["IMG_20260514_174233.jpg"]
    assert {r["size"] for r in got.values()} == {2987450, 4298000, 21298000}


def test_a_file_the_media_store_does_not_know_or_knows_twice_is_read_without_it() -> None:
    assert all("duration" not in r for r in _records("No result found.\n").values())
    twice = MEDIA + MEDIA.splitlines(keepends=True)[2].replace("Row: 2", "Row: 4")
    assert "duration" not in _records(twice)["VID_20260514_180500.mp4"]


def test_garbage_from_the_media_store_is_an_error_not_a_guess() -> None:
    with pytest.raises(OutputError, match="media"):
        _records("Error while accessing provider:media\n")
    with pytest.raises(OutputError, match=r"camera\.media"):
        _records(MEDIA.replace("duration=10432", "duration=ten"))


# ---------------------------------------------------------------- PhoneWorld and the checker
def test_the_duration_is_read_in_part() -> None:
    compiled = library()["camera.record_video"]
    assert "duration" in coverage(compiled).fields[("camera", "media")]
    _, traj = run_reference(compiled, 0)
    end = traj.final.snapshot
    assert end is not None
    transport = PhoneWorldTransport(compiled, lambda: end, lambda: "", traj.header.instance.initial)
    reading = probe(compiled, transport).snapshot
    assert not_kept(compiled, [reading]) == {("camera", "media", "duration")}


def test_phoneworld_keeps_a_length_only_for_a_video_the_app_recorded() -> None:
    compiled = library()["camera.record_video"]
    _, traj = run_reference(compiled, 0)
    end, initial = traj.final.snapshot, traj.header.instance.initial
    assert end is not None and initial is not None
    truth = {r["path"]: r for r in _media(end)}
    recorded = set(truth) - {r["path"] for r in _media(initial)}
    assert len(recorded) == 1
    # without the instance's world, no file is known to be the app's
    for known, lengths in [(initial, recorded), (None, set())]:
        transport = PhoneWorldTransport(compiled, lambda: end, lambda: "", known)
        rows = _media(probe(compiled, transport).snapshot)
        assert {r["path"] for r in rows} == set(truth)
        assert {r["path"]: r["duration"] for r in rows if "duration" in r} == {
            p: truth[p]["duration"] for p in lengths
        }


def _media(world: WorldSnapshot) -> list[dict[str, Any]]:
    return world.apps["camera"].collections["media"]


def _judge(edit: Any) -> Any:
    compiled = library()["camera.record_video"]
    _, traj = run_reference(compiled, 0)
    end = traj.final.snapshot
    assert end is not None
    end = copy.deepcopy(end)
    edit(end, traj)
    along = step_readings(compiled, traj)
    assert along is not None
    return judge(compiled, traj, end, "edited", [r.snapshot for r in along],
                 start_reading(compiled, traj))  # fmt: skip


def _recorded(end: WorldSnapshot, traj: Any) -> dict[str, Any]:
    setup = {r["path"] for r in _media(traj.header.instance.initial)}
    return next(r for r in _media(end) if r["path"] not in setup)


def test_the_checker_decides_the_length_of_the_video_recorded() -> None:
    case = _judge(lambda end, traj: None)
    assert case.phoneworld is True and case.device is True and case.agrees

    def short(end: WorldSnapshot, traj: Any) -> None:
        _recorded(end, traj)["duration"] = 1

    case = _judge(short)
    assert case.phoneworld is False and case.device is False and case.agrees


def test_the_length_of_a_video_setup_wrote_stays_unread() -> None:
    def longer(end: WorldSnapshot, traj: Any) -> None:
        old = next(r for r in _media(end) if r["kind"] == "video" and r["duration"] == 2)
        old["duration"] = 3600

    case = _judge(longer)
    assert case.agrees and case.device == case.phoneworld
