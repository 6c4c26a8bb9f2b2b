"""Setup and tear-down plans on an emulated phone with writable storage (providers, settings,
SQLite tables, shared storage, clock, foreground app), for every library task: after setup
the probes read the instance's initial world; after the tear-down the phone's storage is what
it was before, its own rows, settings and files included."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tasklang import ir
from tasklang.envs.device.check import not_kept, probe
from tasklang.envs.device.differential import library
from tasklang.envs.device.emulated import EmulatedPhone, Storage, Stored, snapshot_of
from tasklang.envs.device.probes import files_root, probe_specs
from tasklang.envs.device.runner import run_setup, run_teardown
from tasklang.envs.device.services import service_setting
from tasklang.envs.device.setup import build_plan
from tasklang.sampling import sample_instance
from tasklang.verifiers.snapshot import WorldSnapshot


def project(
    world: WorldSnapshot,
    compiled: ir.CompiledTask,
    initial: WorldSnapshot,
    unread: set[tuple[str, str, str]] | None = None,
) -> dict[str, Any]:
    """The part of a world the probes read exactly (records in a stable order), less the
    ``unread`` (app, collection, field) some row read did not keep."""
    out: dict[str, Any] = {}
    for spec in probe_specs(compiled, initial):
        state = world.apps.get(spec.app)
        if state is None or not spec.rows_exact:
            continue
        if spec.prefs_records or spec.probe.source == "service":
            continue  # read, not written by setup (the plan says so)
        if spec.kind == "setting":
            # kept in the app's shared preferences or as rows of its database (a queue):
            # read, not written by setup (the plan says so)
            if spec.prefs_key is not None or spec.probe.source == "sqlite":
                continue
            if spec.codec is not None and spec.codec.exact and spec.target in state.settings:
                out[f"{spec.app}.{spec.target}"] = state.settings[spec.target]
            continue
        # fields kept in another table's or provider's rows or in a set of the app's shared
        # preferences are read, not written by setup (the plan says so)
        exact = [
            f.field
            for f in spec.fields
            if f.codec.exact
            and f.link is None
            and f.prefs_set is None
            and f.data_row is None
            and (spec.app, spec.target, f.field) not in (unread or set())
        ]
        rows = [{f: r.get(f) for f in exact} for r in state.collections.get(spec.target, [])]
        out[f"{spec.app}.{spec.target}"] = sorted(rows, key=repr)
    return out


def phones_own(compiled: ir.CompiledTask, initial: WorldSnapshot) -> Storage:
    """What a phone holds before setup: rows, settings and files of its own."""
    s = Storage()
    for i, spec in enumerate(probe_specs(compiled)):
        p = spec.probe
        if p.source == "content":
            # (the columns the provider gives itself, a row's id, are its own business)
            own = [c for c in spec.columns if c not in spec.provided]
            s.providers[p.uri or ""] = [{c: f"own {c}" for c in own}]
        elif p.source == "setting" and i % 2:  # every other one was never set
            ns, key = p.namespace or "", p.key or ""
            s.settings[(ns, key)] = "1" if service_setting(ns, key) else "7"  # Data Saver on
        elif p.source == "sqlite":
            ids = {link.key: "1" for link in spec.all_links}  # the row's id
            s.tables[(p.path or "", p.table or "")] = [{c: "own" for c in spec.columns} | ids]
        elif spec.prefs_key is not None and spec.codec is not None:  # its own preferences
            own = spec.codec.encode(spec.default) or ""
            _put(
                s,
                p.path or "",
                f'<map><string name="{spec.prefs_key}">{own}</string></map>'.encode(),
            )
        elif p.source == "files" and not (p.path or "").endswith("/"):
            root = files_root(p.path or "")
            state = initial.apps.get(spec.app)
            records = state.collections.get(spec.target, []) if state else []
            for j, r in enumerate(records):
                if j % 2 == 0 and isinstance(r.get("path"), str):  # a file at a pushed path
                    _put(s, r["path"], b"the phone's own")
            _put(s, root + "/kept-by-the-phone.txt", b"mine")
    return s


def _put(s: Storage, path: str, data: bytes) -> None:
    parent = path.rsplit("/", 1)[0]
    while parent and parent not in s.files:
        s.files[parent] = Stored(True)
        parent = parent.rsplit("/", 1)[0]
    s.files[path] = Stored(False, data)


@pytest.mark.parametrize("task_id", sorted(library()))
def test_setup_gives_the_initial_world_and_teardown_puts_the_phone_back(task_id: str) -> None:
    compiled = library()[task_id]
    initial = sample_instance(compiled, 0).initial
    storage = phones_own(compiled, initial)
    phone = EmulatedPhone(compiled, storage)
    before = copy.deepcopy(snapshot_of(storage))
    saved = run_setup(compiled, initial, phone)
    reading = probe(compiled, phone, initial=initial).snapshot
    unread = not_kept(compiled, [reading])  # a WeChat card keeps no body: none is read
    got = project(reading, compiled, initial, unread)
    want = project(initial, compiled, initial, unread)
    shared = [k for k, v in got.items() if v != want.get(k)]
    for key in shared:  # under shared storage the phone's other files stay: only those differ
        spec = next(s for s in probe_specs(compiled) if f"{s.app}.{s.target}" == key)
        assert spec.probe.source == "files", key
        extra = [r for r in got[key] if r not in want[key]]
        assert all("kept-by-the-phone" in str(r) for r in extra), (key, extra[:2])
        assert all(r in got[key] for r in want[key]), key
    given = compiled.task.given
    if given.clock is not None:
        assert reading.clock == initial.clock
    if given.foreground is not None and reading.foreground is not None:
        assert reading.foreground.package == compiled.apps[given.foreground.app].package
    run_teardown(compiled, initial, phone, saved)
    assert snapshot_of(storage) == before


def test_plans_write_every_kind_of_source() -> None:
    kinds = set()
    for compiled in library().values():
        plan = build_plan(compiled, sample_instance(compiled, 0).initial)
        kinds |= {c.argv[0] if c.kind == "shell" else "push" for c in plan.setup}
    assert {"content", "settings", "run-as", "push", "mkdir", "mv", "touch", "su"} <= kinds


def test_a_recorders_rows_and_files_are_written_and_its_own_come_back_whole() -> None:
    """Audio Recorder lists the rows of its database while their files are there: setup
    writes both (the rows with the columns the app requires, `added` the creation), keeps
    the phone's own rows whole in a copy beside the table (a waveform blob and an id the
    model never reads included) and its own recordings folder aside; the tear-down puts
    every byte back."""
    compiled = library()["androidworld.audio_recorder_record_audio_with_file_name"]
    initial = sample_instance(compiled, 0).initial
    db = "/data/data/com.dimowner.audiorecorder/databases/records.db"
    folder = "/sdcard/Android/data/com.dimowner.audiorecorder/files/Music/records"
    storage = Storage()
    own = {"_id": "4", "name": "mine", "path": f"{folder}/mine.m4a", "duration": "5000000",
           "created": "1700000000000", "size": "9", "bookmark": "0", "added": "1700000000001",
           "data": "\x00\x01wave", "data_str": "1,2", "format": "m4a"}  # fmt: skip
    storage.tables[(db, "records")] = [own]
    _put(storage, f"{folder}/mine.m4a", b"the phone's own")
    phone = EmulatedPhone(compiled, storage)
    phone.schemas[db]["records"] += [c for c in own if c not in phone.schemas[db]["records"]]
    before = snapshot_of(storage)
    saved = run_setup(compiled, initial, phone)
    rows = storage.tables[(db, "records")]
    assert [r["name"] for r in rows] == ["Record-1", "Record-2", "band_rehearsal"]
    assert all(r["added"] == r["created"] and r["data"] == "" for r in rows)
    assert rows[2]["duration"] == str(182 * 1_000_000) and rows[2]["bookmark"] == "1"
    assert storage.tables[(db, "tasklang_saved_records")] == [own]
    files = {p: f.size for p, f in storage.files.items() if p.startswith(folder + "/")}
    assert files == {f"{folder}/Record-1.m4a": 672000, f"{folder}/Record-2.m4a": 1200000,
                     f"{folder}/band_rehearsal.m4a": 2912000}  # fmt: skip
    read = probe(compiled, phone, initial=initial).snapshot.apps["audio_recorder"]
    assert (
        read.collections["recordings"] == initial.apps["audio_recorder"].collections["recordings"]
    )
    run_teardown(compiled, initial, phone, saved)
    assert snapshot_of(storage) == before


def test_a_photo_sent_on_wechat_is_named_by_the_digest_of_its_original() -> None:
    """WeChat writes an image message with no file name, and the MD5 of the original in its
    row of `ImgInfo2` (`msglocalid` the message's `msgId`). After setup, a photo sent as
    WeChat keeps it is read as the gallery file whose content has that digest; the photo of
    another content, or one the phone no longer has, leaves the body unread."""
    import hashlib

    compiled = library()["cross.gallery_share_photo_wechat"]
    initial = sample_instance(compiled, 0).initial
    db = "/data/data/com.tencent.mm/MicroMsg/EnMicroMsg.db"
    storage = Storage()
    phone = EmulatedPhone(compiled, storage)
    # the phone's own: an image it sent, whose row of ImgInfo2 could name a row setup writes
    own = {"msglocalid": "1", "origImgMD5": "0" * 32}
    storage.tables[(db, "ImgInfo2")] = [own]
    before = snapshot_of(storage)
    saved = run_setup(compiled, initial, phone)
    assert storage.tables[(db, "ImgInfo2")] == [] and storage.tables[(db, "message")] == []
    media = initial.apps["gallery"].collections["media"]
    for i, m in enumerate(media):  # the phone's photos: setup writes the gallery's rows only
        _put(storage, m["path"], f"pixels {i}".encode())
    pic = media[1]

    def send(content: bytes) -> dict[str, Any]:
        storage.tables[(db, "message")] = [
            {"msgId": "7", "talker": "wxid_g6t1y5", "type": "3", "isSend": "1",
             "content": '<msg><img length="0" /></msg>', "createTime": "1778756700000"}
        ]  # fmt: skip
        md5 = hashlib.md5(content).hexdigest().upper()
        storage.tables[(db, "ImgInfo2")] = [{"msglocalid": "7", "origImgMD5": md5}]
        [read] = (
            probe(compiled, phone, initial=initial).snapshot.apps["wechat"].collections["messages"]
        )
        return read

    sent = send(b"pixels 1")
    assert (sent["kind"], sent["body"], sent["outgoing"]) == ("image", pic["name"], True)
    assert "md5sum" in " ".join(phone.lines)
    assert "body" not in send(b"a photo the gallery does not hold")
    del storage.files[pic["path"]]
    assert "body" not in send(b"pixels 1")
    for m in media:
        storage.files.pop(m["path"], None)
    run_teardown(compiled, initial, phone, saved)
    after = snapshot_of(storage)
    assert storage.tables[(db, "ImgInfo2")] == [own]
    assert {k: v for k, v in after.items() if k != "files"} == {
        k: v for k, v in before.items() if k != "files"
    }
