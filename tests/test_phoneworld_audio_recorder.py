"""PhoneWorld's Audio Recorder (com.dimowner.audiorecorder): the reference solution of
AndroidWorld's record-audio task, the screens' XML, and recording, naming, the records list,
playback and settings through real actions."""

from __future__ import annotations

import datetime as dt
from functools import cache
from pathlib import Path
from typing import Any

from tasklang import ir
from tasklang.compiler import Compiler
from tasklang.envs.phoneworld.app import AppData
from tasklang.envs.phoneworld.apps.audio_recorder import RECORDS_DIR, date_header, fmt_duration
from tasklang.envs.phoneworld.episode import Episode, run_nothing, run_reference
from tasklang.envs.phoneworld.solutions.base import Driver
from tasklang.verifiers.snapshot import parse_ui_xml

ROOT = Path(__file__).resolve().parents[1]
TASK = "androidworld.audio_recorder_record_audio"
PKG = "com.dimowner.audiorecorder"


@cache
def compiled(task_id: str) -> ir.CompiledTask:
    path = ROOT / "task_library" / "androidworld" / f"{task_id}.task"
    return Compiler().compile_paths([path]).tasks[0]


def test_reference_solves_every_instance() -> None:
    for seed in range(6):  # `tasklang test` tries 20
        verdict, _ = run_reference(compiled(TASK), seed)
        failed = [(r.id, r.summary) for r in verdict.clauses if not r.passed]
        assert not failed, (seed, failed)
        assert verdict.success, (seed, verdict.notes)


def test_doing_nothing_fails() -> None:
    for seed in range(6):  # `tasklang test` tries 20
        assert not run_nothing(compiled(TASK), seed).success


# ------------------------------------------------------------------ helpers
def rec(name: str, duration: int, created: str, bookmarked: bool = False) -> dict[str, Any]:
    return {
        "name": name,
        "path": f"{RECORDS_DIR}/{name}.m4a",
        "duration": duration,
        "created": created,
        "size": duration * 16000,
        "bookmarked": bookmarked,
    }


def episode(records: list[dict[str, Any]] | None = None, **settings: Any) -> tuple[Episode, Driver]:
    ep = Episode(compiled(TASK), 0)
    assert ep.instance is not None
    data = ep.phone.state["audio_recorder"]
    ep.phone.state["audio_recorder"] = AppData(
        {"recordings": list(records or [])}, {**data.settings, **settings}
    )
    ep.phone.invalidate()
    d = Driver(ep.tree, ep.step, ep.instance.params)
    d.open("Audio Recorder")
    return ep, d


def recordings(ep: Episode) -> list[dict[str, Any]]:
    return ep.phone.state["audio_recorder"].collections["recordings"]


def setting(ep: Episode, name: str) -> Any:
    return ep.phone.state["audio_recorder"].settings[name]


def activity(ep: Episode) -> str:
    return ep.phone.current_activity()[1].rsplit(".", 1)[-1]


def xml_ok(ep: Episode) -> None:
    _, elements = parse_ui_xml(ep.xml())
    assert elements and all(e.package for e in elements)


def wait(d: Driver, times: int = 1) -> None:
    for _ in range(times):
        d.act({"action_type": "wait"})


def record(d: Driver, waits: int, save: str | None = None) -> None:
    """Record for ``waits`` waits (5 s each), stop, and answer the name dialog."""
    d.tap(rid="btn_record")
    wait(d, waits)
    d.tap(rid="btn_record_stop")
    if save is None:
        d.tap(text="Cancel")
        return
    d.type(save, rid="input_name")
    d.tap(text="Save")


def three() -> list[dict[str, Any]]:
    return [
        rec("Record-1", 65, "2025-12-30T10:00:00"),
        rec("Interview", 3723, "2025-12-31T18:30:00", bookmarked=True),
        rec("Record-2", 12, "2026-01-01T08:15:00"),
    ]


# ------------------------------------------------------------------ formatting
def test_durations_and_dates_as_the_app_shows_them() -> None:
    assert fmt_duration(0) == "00:00"
    assert fmt_duration(65) == "01:05"
    assert fmt_duration(3723) == "01:02:03"
    now = dt.datetime(2026, 1, 1, 9, 0)
    assert date_header("2026-01-01T08:15:00", now) == "Today"
    assert date_header("2025-12-31T18:30:00", now) == "Yesterday"
    assert date_header("2025-12-30T10:00:00", now) == "Dec 30, 2025"


# ------------------------------------------------------------------ screens
def test_every_screen_produces_parseable_xml() -> None:
    ep, d = episode(three())
    xml_ok(ep)
    assert activity(ep) == "MainActivity" and ep.phone.current_activity()[0] == PKG
    d.tap(rid="btn_record")
    xml_ok(ep)
    d.tap(rid="btn_record_stop")
    xml_ok(ep)
    d.tap(text="Save")
    d.tap(rid="btn_records_list")
    xml_ok(ep)
    assert activity(ep) == "RecordsActivity"
    d.tap(rid="list_item_more", nth=0)
    xml_ok(ep)
    d.tap(text="Information")
    xml_ok(ep)
    assert activity(ep) == "ActivityInformation"
    d.back()
    d.back()
    d.tap(desc="Settings")
    xml_ok(ep)
    assert activity(ep) == "SettingsActivity"


# ------------------------------------------------------------------ recording
def test_recording_counts_the_clock_and_saves_a_record() -> None:
    ep, d = episode()
    assert d.has(desc="Start recording")
    d.tap(rid="btn_record")
    assert d.texts(rid="txt_name") == ["Recording…"]
    # the file exists from the start, as on the device
    assert [r["name"] for r in recordings(ep)] == ["Record-1"]
    wait(d, 2)
    assert d.texts(rid="txt_progress") == ["00:10"]
    d.tap(desc="Pause recording")
    assert d.texts(rid="txt_name") == ["Paused"]
    wait(d, 3)  # paused: not counted
    assert d.texts(rid="txt_progress") == ["00:10"]
    d.tap(desc="Resume recording")
    wait(d)
    d.tap(rid="btn_record_stop")
    assert d.has(text="New name") and d.texts(rid="input_name") == ["Record-1"]
    d.tap(text="Save")
    assert recordings(ep) == [
        {
            "name": "Record-1",
            "path": f"{RECORDS_DIR}/Record-1.m4a",
            "duration": 15,
            "created": "2026-01-01T09:00:00",
            "size": 15 * 16000,
            "bookmarked": False,
        }
    ]
    assert d.texts(rid="txt_name") == ["Record-1"]
    assert d.texts(rid="txt_duration") == ["00:15"]


def test_names_count_up_and_rename_on_save() -> None:
    ep, d = episode(three())
    record(d, 1)  # Cancel keeps the proposed name
    record(d, 1, save="Kitchen idea")
    names = [r["name"] for r in recordings(ep)]
    assert names == ["Record-1", "Interview", "Record-2", "Record-3", "Kitchen idea"]
    assert recordings(ep)[-1]["path"] == f"{RECORDS_DIR}/Kitchen idea.m4a"


def test_rename_refuses_a_taken_name() -> None:
    ep, d = episode(three())
    record(d, 1, save="Interview")
    assert ep.phone.toast == "File with this name is already exists!"
    assert [r["name"] for r in recordings(ep)][-1] == "Record-3"


def test_delete_while_recording_asks_first() -> None:
    ep, d = episode()
    d.tap(rid="btn_record")
    wait(d)
    d.tap(desc="Delete")
    assert d.has(text="Delete this record?")
    d.tap(text="No")
    assert len(recordings(ep)) == 1 and d.has(rid="btn_record_stop")
    d.tap(desc="Delete")
    d.tap(text="Yes")
    assert recordings(ep) == []
    assert d.has(desc="Start recording") and not d.has(rid="btn_record_stop")


def test_format_sample_rate_and_naming_settings() -> None:
    ep, d = episode()
    d.tap(desc="Settings")
    d.tap(text="Wav")
    d.tap(text="16kHz")
    d.tap(text="Stereo")
    assert (setting(ep, "format"), setting(ep, "sample_rate"), setting(ep, "stereo")) == (
        "wav",
        "r16000",
        True,
    )
    assert d.texts(rid="txt_format") == ["Wav"]
    assert d.texts(rid="txt_information") == ["Wav, 16kHz, Stereo"]
    d.tap(rid="name_format")
    d.tap(text="Naming: 2026-01-01 09.00.00.m4a")
    assert setting(ep, "name_format") == "date_iso"
    d.tap(rid="swKeepScreenOn")
    assert setting(ep, "keep_screen_on") is True
    d.back()
    record(d, 2)
    r = recordings(ep)[0]
    assert r["name"] == "2026-01-01 09.00.00"
    assert r["path"].endswith("/2026-01-01 09.00.00.wav")
    assert r["size"] == 44 + 10 * 16000 * 2 * 2


# ------------------------------------------------------------------ the records list
def test_records_list_under_date_headers_and_sorting() -> None:
    ep, d = episode(three())
    d.tap(rid="btn_records_list")
    assert d.texts(rid="list_item_name") == ["Record-2", "Interview", "Record-1"]
    assert d.has(text="Today") and d.has(text="Yesterday") and d.has(text="Dec 30, 2025")
    assert d.texts(rid="list_item_description") == ["00:12", "01:02:03", "01:05"]
    d.tap(rid="btn_sort")
    d.tap(text="By name (A-Z)")
    assert d.texts(rid="list_item_name") == ["Interview", "Record-1", "Record-2"]
    assert not d.has(text="Today")
    d.tap(rid="btn_sort")
    d.tap(text="By duration (shortest)")
    assert d.texts(rid="list_item_name") == ["Record-2", "Record-1", "Interview"]
    d.tap(rid="btn_bookmarks")
    assert d.texts(rid="list_item_name") == ["Interview"] and d.texts(rid="txt_title") == [
        "Bookmarks"
    ]
    d.tap(rid="list_item_bookmark")
    assert not recordings(ep)[1]["bookmarked"]
    assert d.has(text="Bookmarks is empty")
    d.tap(rid="btn_back")
    assert activity(ep) == "MainActivity"


def test_empty_list() -> None:
    _, d = episode()
    d.tap(rid="btn_records_list")
    assert d.has(text="Records is empty")


def test_playing_a_record_from_the_list() -> None:
    ep, d = episode(three())
    d.tap(rid="btn_records_list")
    d.tap(text="Record-1", rid="list_item_name")
    assert d.texts(rid="txt_name") == ["Record-1"]  # the player panel
    wait(d, 2)
    assert d.texts(rid="txt_progress") == ["00:10"]
    d.tap(rid="btn_play")  # pause
    wait(d, 4)
    assert d.texts(rid="txt_progress") == ["00:10"]
    d.tap(rid="btn_play")
    wait(d, 20)  # played to its end (65 s): stopped
    assert d.texts(rid="txt_progress") == ["00:00"]
    d.tap(rid="btn_next")  # Record-1 is the last of the list
    assert d.texts(rid="txt_name") == ["Record-1"]
    d.tap(rid="btn_prev")
    assert d.texts(rid="txt_name") == ["Interview"]
    wait(d)
    assert d.texts(rid="txt_progress") == ["00:05"]
    d.tap(rid="btn_stop")
    assert d.texts(rid="txt_progress") == ["00:00"]
    d.back()
    assert activity(ep) == "MainActivity" and d.texts(rid="txt_name") == ["Interview"]


def test_rename_and_delete_from_the_menu() -> None:
    ep, d = episode(three())
    d.tap(rid="btn_records_list")
    more = d.need(rid="list_item_more", nth=2)  # Record-1, the oldest
    d.act({"action_type": "click", "index": more})
    d.tap(text="Rename")
    d.type("First take", rid="input_name")
    d.tap(text="Cancel")
    assert recordings(ep)[0]["name"] == "Record-1"
    d.act({"action_type": "click", "index": d.need(rid="list_item_more", nth=2)})
    d.tap(text="Rename")
    d.type("First take", rid="input_name")
    d.tap(text="Save")
    assert recordings(ep)[0]["name"] == "First take"
    assert recordings(ep)[0]["path"] == f"{RECORDS_DIR}/First take.m4a"
    d.act({"action_type": "click", "index": d.need(rid="list_item_more", nth=2)})
    d.tap(text="Delete")
    assert d.has(text="Delete record First take forever?")
    d.tap(text="No")
    assert len(recordings(ep)) == 3
    d.act({"action_type": "click", "index": d.need(rid="list_item_more", nth=2)})
    d.tap(text="Delete")
    d.tap(text="Yes")
    assert [r["name"] for r in recordings(ep)] == ["Interview", "Record-2"]


def test_information_screen() -> None:
    ep, d = episode(three())
    d.tap(rid="btn_records_list")
    d.act({"action_type": "click", "index": d.need(rid="list_item_more", nth=1)})
    d.tap(text="Information")
    assert d.texts(rid="txt_name") == ["Interview"]
    assert d.texts(rid="txt_duration") == ["01:02:03"]
    assert d.texts(rid="txt_location") == [f"{RECORDS_DIR}/Interview.m4a"]
    assert d.texts(rid="txt_created") == ["31.12.2025 18:30:00"]
    d.tap(rid="btn_back")
    assert activity(ep) == "RecordsActivity"


def test_invalid_actions_are_reported() -> None:
    ep, d = episode()
    out = ep.step({"action_type": "input_text", "text": "x", "index": d.need(rid="btn_record")})
    assert not out.ok and "not a text field" in out.info
    out = ep.step({"action_type": "scroll", "direction": "sideways"})
    assert not out.ok
    assert recordings(ep) == []
