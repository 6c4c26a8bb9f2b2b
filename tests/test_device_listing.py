"""Folders under shared storage, whose listing holds the system's folders as well as the
records, and a file's category read from its extension.

A phone lists every folder of `/sdcard`, so the listing's rows are not the Files app's folder
records. Each record is still a folder there under its path, with a name and parent that
follow from it: the same folders listed before and after an episode prove the records the
same at the end (a guard on them is decided), and the same folders after every step prove
they never changed (a `deleted files.folders` is decided too). A listing that differs
proves a change only where the folder's last change came at a step on a screen the Files
app's folders change on (its dialogs' positive button): there a guard fails. Elsewhere (at
another step, or after the last one) another app may have made it, and the clauses stay
undecided.
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
    listing_change,
    listing_series,
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
from tasklang.verifiers.probes import DeviceVerdict, Shown, could_change, decide_changed
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


def _with_folder(task: str, path: str) -> WorldSnapshot:
    """The reference end state of ``task`` with the folder ``path`` made."""
    _, traj = run_reference(library()[task], 0)
    end = traj.final.snapshot
    assert end is not None
    out = end.model_copy(deep=True)
    parent, name = path.rsplit("/", 1)
    out.apps["files"].collections["folders"].append({"path": path, "name": name, "parent": parent})
    return out


def _listed_from(task: str, step: int, path: str) -> dict[int, Any]:
    """``along`` for :func:`_check`: the folders PhoneWorld lists after each step of the
    reference episode of ``task``, with ``path`` made at ``step`` and kept."""
    compiled = library()[task]
    _, traj = run_reference(compiled, 0)
    readings = step_readings(compiled, traj)
    assert readings is not None
    return {i: {FOLDERS: r.listed[FOLDERS] | {path}} for i, r in enumerate(readings) if i >= step}


def test_a_folder_made_in_a_files_dialog_fails_the_guard() -> None:
    task = "androidworld.files_delete_file"
    guard = _clause(task, "unchanged files.folders")
    new = "/sdcard/Download/New"
    # step 3 taps the delete dialog's OK: a folder made then is the app's
    dv = _check(task, final=_with_folder(task, new), along=_listed_from(task, 3, new))
    assert dv.success is False and guard.id not in dv.unobservable
    result = next(r for r in dv.clauses if r.id == guard.id)
    assert not result.passed and [e.detail for e in result.evidence] == [
        f"the folder {new} appeared at step 3"
    ]
    # a folder the phone had before, removed there, is a change too
    compiled = library()[task]
    _, traj = run_reference(compiled, 0)
    start = start_reading(compiled, traj)
    readings = step_readings(compiled, traj)
    assert start is not None and readings is not None
    old = "/sdcard/Download/Old"
    had = {i: {FOLDERS: r.listed[FOLDERS] | {old}} for i, r in enumerate(readings) if i < 3}
    dv = _check(task, along=had, listed={FOLDERS: start.listed[FOLDERS] | {old}})
    assert dv.success is False and guard.id not in dv.unobservable
    result = next(r for r in dv.clauses if r.id == guard.id)
    assert [e.detail for e in result.evidence] == [f"the folder {old} was removed at step 3"]
    # ... and `forbid { deleted files.folders }` sees it happen
    deleted = _clause(task, "deleted files.folders")
    assert deleted.id not in dv.unobservable
    assert not next(r for r in dv.clauses if r.id == deleted.id).passed


def test_a_folder_made_elsewhere_is_no_ones_and_decides_nothing() -> None:
    task = "androidworld.files_delete_file"
    guard = _clause(task, "unchanged files.folders")
    new = "/sdcard/Download/New"
    # step 2 is on the file list, where the app makes no folder: another app may have; but
    # no folder ever left the listing, so no record was removed
    dv = _check(task, final=_with_folder(task, new), along=_listed_from(task, 2, new))
    assert guard.id in dv.unobservable and dv.success is None
    assert _clause(task, "deleted files.folders").id not in dv.unobservable
    # made at step 3 but gone again at step 4, then back after the last step: the change
    # the end shows came after every step
    along = _listed_from(task, 3, new)
    along[4] = {FOLDERS: along[4][FOLDERS] - {new}}
    dv = _check(task, final=_with_folder(task, new), along=along)
    assert guard.id in dv.unobservable and dv.success is None
    # the step's screen not recorded: it may have been any screen
    compiled = library()[task]
    _, traj = run_reference(compiled, 0)
    step = traj.steps[3]
    assert could_change(compiled, FOLDERS, True, step)
    blind = step.model_copy(
        update={"observation": step.observation.model_copy(update={"ui_xml": None})}
    )
    assert not could_change(compiled, FOLDERS, True, blind)


def test_the_change_a_listing_shows_needs_a_reading_after_every_step() -> None:
    task = "androidworld.files_delete_file"
    compiled = library()[task]
    _, traj = run_reference(compiled, 0)
    readings = step_readings(compiled, traj)
    assert readings is not None
    new = "/sdcard/Download/New"
    start, end = readings[0].listed, dict(readings[-1].listed)
    end[FOLDERS] = end[FOLDERS] | {new}
    along: list[Any] = [{FOLDERS: r.listed[FOLDERS] | {new}} if i >= 3 else r.listed
                        for i, r in enumerate(readings)]  # fmt: skip
    series = listing_series(start, along, end)
    assert len(series[FOLDERS]) == len(traj.steps) + 2
    assert listing_change(compiled, traj.steps, series) == {
        FOLDERS: (Shown("added", f"the folder {new} appeared at step 3"),)
    }
    # a step read without its listing: nothing to go on
    assert listing_series(start, [*along[:2], None, *along[3:]], end) == {}
    # a collection that changes by itself is no one's to attribute
    files = compiled.apps["files"]
    loose = compiled.model_copy(update={"apps": {**compiled.apps, "files": files.model_copy(
        update={"by_itself": [*files.by_itself, "folders"]})}})  # fmt: skip
    assert listing_change(loose, traj.steps, series) == {}


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


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_folder_more_is_read_from_the_step_that_could_make_it(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A near miss with a folder more: a phone probed after every step lists it from the
    last step on the picker (where the Files app makes folders) on, so the guard fails."""
    from tasklang.envs.device import differential

    task = library()["androidworld.files_move_file"]
    [case] = [c for c in run_task(task, seed) if c.name == "duplicate files.folders[0]"]
    assert case.agrees and case.device is False and case.phoneworld is False
    # listed after every step as the reference's steps were: it appears after the last one
    monkeypatch.setattr(differential, "_listed_as_missed", lambda c, traj, r, miss: traj)
    [case] = [c for c in run_task(task, seed) if c.name == "duplicate files.folders[0]"]
    assert case.agrees and case.device is None


@pytest.mark.parametrize("seed", [1, 7, 9])
def test_a_file_moved_into_a_new_folder_comes_with_the_folders_record(seed: int) -> None:
    """A near miss that moves a file into a folder that was not there: the Files app made
    that folder, with a record, so `only files.documents changed` fails in PhoneWorld as on
    a phone (which sees the folder appear on the picker)."""
    cases = run_task(library()["files.rename_download"], seed)
    moved = [c for c in cases if c.name.endswith("].folder")]
    assert moved and all(c.agrees and c.device is False for c in moved)


def test_a_change_the_listings_prove_fails_the_guards_that_watch_it() -> None:
    compiled = library()["files.rename_download"]
    only = _clause("files.rename_download", "only files.documents changed")
    assert isinstance(only.body, ir.OnlyChangedBody)
    made = Shown("added", "the folder /sdcard/x appeared at step 4")
    cov = coverage(compiled).with_changed({FOLDERS: (made,)})
    result = decide_changed(only, cov)
    assert result is not None and not result.passed and result.id == only.id
    assert [e.detail for e in result.evidence] == ["the folder /sdcard/x appeared at step 4"]
    # a guard that allows the folders to change, or does not watch them, is not decided so
    folders = ir.CollectionRef(app="files", name="folders")
    allowed = only.model_copy(
        update={"body": only.body.model_copy(update={"targets": [*only.body.targets, folders]})}
    )
    assert decide_changed(allowed, cov) is None
    documents = ir.UnchangedBody(targets=list(only.body.targets), apps=[])
    assert decide_changed(only.model_copy(update={"body": documents}), cov) is None
    # ... and `unchanged files` watches them as part of the app
    whole = ir.UnchangedBody(targets=[], apps=["files"])
    assert decide_changed(only.model_copy(update={"body": whole}), cov) is not None
    assert decide_changed(only, coverage(compiled)) is None
    # an addition happened: `never added` fails, `eventually added` (or changed) holds, and
    # a removal or an event with a condition is not decided so
    for op, trace, passed in [
        ("added", "never", False),
        ("added", "eventually", True),
        ("changed", "never", False),
        ("deleted", "never", None),
    ]:
        event = ir.ChangeEvent(op=op, target=folders)
        clause = only.model_copy(update={"body": ir.TraceBody(op=trace, first=event)})
        result = decide_changed(clause, cov)
        assert (result.passed if result is not None else None) is passed, (op, trace)
    where = ir.ChangeEvent(op="added", target=folders, where=ir.Lit(value=True))
    clause = only.model_copy(update={"body": ir.TraceBody(op="never", first=where)})
    assert decide_changed(clause, cov) is None


def test_the_plan_notes_a_folder_only_a_files_path_implies() -> None:
    from tasklang.envs.device.setup import build_plan

    compiled = library()["androidworld.files_move_file"]
    _, traj = run_reference(compiled, 0)
    initial = traj.header.instance.initial
    assert initial is not None
    assert not [n for n in build_plan(compiled, initial).notes if "record names" in n]
    # a file two folders below a standard one: neither folder is named
    odd = initial.model_copy(deep=True)
    doc = odd.apps["files"].collections["documents"][0]
    doc["path"] = "/sdcard/Download/Work/Old/" + doc["name"]
    notes = [n for n in build_plan(compiled, odd).notes if "record names" in n]
    assert [n.split(",")[0] for n in notes] == [
        "files.documents: no files.folders record names /sdcard/Download/Work",
        "files.documents: no files.folders record names /sdcard/Download/Work/Old",
    ]  # a standard folder (/sdcard/Download) needs no record
    assert notes[0].endswith("give the folder a record")
    odd.apps["files"].collections["folders"].append(
        {"path": "/sdcard/Download/Work", "name": "Work", "parent": "/sdcard/Download"}
    )
    notes = [n for n in build_plan(compiled, odd).notes if "record names" in n]
    assert [n.split(",")[0] for n in notes] == [
        "files.documents: no files.folders record names /sdcard/Download/Work/Old"
    ]
