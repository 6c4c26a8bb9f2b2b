"""Folders under shared storage, whose listing holds the system's folders as well as the
records, and a file's category read from its extension.

A phone lists every folder of `/sdcard`, so the listing's rows are not the Files app's folder
records. Each record is still a folder there under its path, with a name and parent that
follow from it: the same folders listed before and after an episode prove the records the
same at the end (a guard on them is decided), and the same folders after every step prove
they never changed (a `deleted files.folders` is decided too). A listing that differs proves
nothing, and the clauses stay undecided.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tasklang import ir
from tasklang.envs.device.check import (
    LISTED,
    device_check,
    listed_json,
    listed_of,
    probe,
    start_header,
)
from tasklang.envs.device.codec import FILE_KINDS, file_kind
from tasklang.envs.device.differential import (
    library,
    run_episode,
    run_task,
    start_reading,
    step_readings,
)
from tasklang.envs.device.phoneworld import PhoneWorldTransport
from tasklang.envs.device.probes import coverage, listing_specs, probe_specs
from tasklang.envs.phoneworld.episode import run_reference
from tasklang.verifiers.check import InstanceError
from tasklang.verifiers.probes import DeviceVerdict
from tasklang.verifiers.snapshot import WorldSnapshot
from tasklang.verifiers.trajectory import Trajectory

FOLDERS = ("files", "folders")


def _clause(task: str, text: str) -> ir.Clause:
    """The clause of a library task whose source line says ``text``."""
    for c in library()[task].task.clauses:
        span = c.body.span
        assert span is not None and span.file is not None
        if text in Path(span.file).read_text(encoding="utf-8").splitlines()[span.line - 1]:
            return c
    raise AssertionError(f"{task} has no clause `{text}`")


def _check(
    task: str,
    final: WorldSnapshot | None = None,
    steps: bool = True,
    along: dict[int, dict[tuple[str, str], frozenset[str]]] | None = None,
    **kw: Any,
) -> DeviceVerdict:
    """The device verdict on the reference episode of ``task`` (``final`` at its end; with
    ``steps`` probed after every step, ``along`` the folders listed after a step in place of
    those PhoneWorld's state gives), its start reading taken as a phone would."""
    compiled = library()[task]
    _, traj = run_reference(compiled, 0)
    end = final or traj.final.snapshot
    assert end is not None
    transport = PhoneWorldTransport(compiled, lambda: end, lambda: "")
    start = start_reading(compiled, traj)
    assert start is not None
    readings = step_readings(compiled, traj) if steps else None
    if readings is not None:
        listed = [(along or {}).get(i, r.listed) for i, r in enumerate(readings)]
        traj = traj.model_copy(
            update={"steps": [s.model_copy(update={"extra": {LISTED: listed_json(x)}})
                              for s, x in zip(traj.steps, listed, strict=True)]}
        )  # fmt: skip
    kw.setdefault("listed", start.listed)
    return device_check(
        compiled, traj, transport, sleep=lambda s: None, start=start.snapshot,
        step_states=[r.snapshot for r in readings] if readings else None, **kw,
    )  # fmt: skip


def test_only_a_listing_of_records_fixed_but_for_their_key_proves_anything() -> None:
    compiled = library()["androidworld.files_delete_file"]
    assert [s.key for s in listing_specs(compiled, probe_specs(compiled))] == [FOLDERS]
    # without `changes folders.name, folders.parent nowhere` a folder could be renamed in
    # place, which no listing shows
    files = compiled.apps["files"]
    kept = [c for c in files.changes if c.names != ["folders.name", "folders.parent"]]
    loose = compiled.model_copy(
        update={"apps": {**compiled.apps, "files": files.model_copy(update={"changes": kept})}}
    )
    assert listing_specs(loose, probe_specs(loose)) == []


def test_the_start_reading_lists_the_folders_and_standard_ones_stay() -> None:
    compiled = library()["androidworld.files_move_file"]
    _, traj = run_reference(compiled, 0)
    start = start_reading(compiled, traj)
    assert start is not None
    before = start.listed[FOLDERS]
    assert "/sdcard/Movies" in before and "/sdcard/Android" in before
    end = traj.final.snapshot
    assert end is not None
    after = probe(compiled, PhoneWorldTransport(compiled, lambda: end, lambda: "")).listed
    # the moved file leaves its folder behind, as on a phone
    assert after[FOLDERS] == before


def test_the_same_folders_decide_a_guard_and_a_deletion() -> None:
    guard = _clause("androidworld.files_delete_file", "unchanged files.folders")
    deleted = _clause("androidworld.files_delete_file", "deleted files.folders")
    dv = _check("androidworld.files_delete_file")
    assert dv.success is True and not dv.unobservable
    # the same at the end but not probed along the way: the guard, not the deletion
    dv = _check("androidworld.files_delete_file", steps=False)
    assert guard.id not in dv.unobservable and deleted.id in dv.unobservable
    # no listing before the episode: neither
    dv = _check("androidworld.files_delete_file", steps=False, listed={})
    assert guard.id in dv.unobservable and deleted.id in dv.unobservable


def test_a_folder_gone_along_the_way_proves_no_deletion() -> None:
    compiled = library()["androidworld.files_delete_file"]
    deleted = _clause("androidworld.files_delete_file", "deleted files.folders")
    _, traj = run_reference(compiled, 0)
    start = start_reading(compiled, traj)
    assert start is not None
    gone = start.listed[FOLDERS] - {"/sdcard/Documents"}  # removed at step 1, made again
    dv = _check("androidworld.files_delete_file", along={1: {FOLDERS: gone}})
    assert deleted.id in dv.unobservable
    assert dv.success is None


def test_a_folder_made_at_the_end_leaves_the_guard_undecided_never_wrong() -> None:
    compiled = library()["androidworld.files_delete_file"]
    guard = _clause("androidworld.files_delete_file", "unchanged files.folders")
    _, traj = run_reference(compiled, 0)
    end = traj.final.snapshot
    assert end is not None
    more = end.model_copy(deep=True)
    more.apps["files"].collections["folders"].append(
        {"path": "/sdcard/Download/New", "name": "New", "parent": "/sdcard/Download"}
    )
    dv = _check("androidworld.files_delete_file", final=more)
    assert guard.id in dv.unobservable and dv.success is None


def test_phoneworld_and_a_phone_agree_on_the_files_tasks() -> None:
    for task in ("androidworld.files_delete_file", "androidworld.files_move_file",
                 "files.rename_download"):  # fmt: skip
        cases = run_task(library()[task], seed=0)
        assert all(c.agrees for c in cases), task
        assert cases[0].device is True, (task, cases[0].unobservable)
        case = run_episode(library()[task], 0)
        assert case.agrees and case.device is True, (task, case.unobservable)


def test_the_listing_travels_in_the_trajectory() -> None:
    compiled = library()["androidworld.files_delete_file"]
    _, traj = run_reference(compiled, 0)
    start = start_reading(compiled, traj)
    assert start is not None
    header = start_header(start)
    assert header[LISTED]["files.folders"] == sorted(start.listed[FOLDERS])
    kept = traj.model_copy(deep=True)
    kept.header.extra.update(header)
    again = Trajectory.model_validate_json(kept.model_dump_json())
    assert listed_of(again) == start.listed
    broken = kept.model_copy(deep=True)
    broken.header.extra[LISTED] = {"files.folders": "/sdcard"}
    with pytest.raises(InstanceError, match="lists of paths"):
        listed_of(broken)


@pytest.mark.parametrize(
    ("name", "kind"),
    [("report.PDF", "document"), ("notes.txt", "document"), ("IMG_1.jpg", "image"),
     ("a.m4a", "audio"), ("clip.webm", "video"), ("x.tar.gz", "archive"), ("app.apk", "apk"),
     ("page.html", "other"), ("README", "other"), (".hidden", "other")],
)  # fmt: skip
def test_a_files_category_is_read_from_the_extension(name: str, kind: str) -> None:
    assert file_kind().decode(name) == kind and kind in FILE_KINDS


def test_the_category_is_read_only_where_the_records_agree_with_it() -> None:
    compiled = library()["androidworld.files_move_file"]
    _, traj = run_reference(compiled, 0)
    initial = traj.header.instance.initial
    assert initial is not None
    assert "kind" in coverage(compiled, initial=initial).fields[("files", "documents")]
    odd = initial.model_copy(deep=True)
    odd.apps["files"].collections["documents"][0]["kind"] = "video"  # a PDF said to be a video
    assert "kind" not in coverage(compiled, initial=odd).fields[("files", "documents")]
