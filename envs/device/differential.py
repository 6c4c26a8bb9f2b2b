"""The differential check: the device checker (probing PhoneWorld through the probe
commands) against the PhoneWorld verifier, on each task's reference end state and on near
misses of it (one record dropped, duplicated or with one field changed, one setting
changed), for the state the task's clauses read."""

from __future__ import annotations

import copy
import datetime as dt
import posixpath
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from tasklang import ir
from tasklang.appmodel import PREFS_RECORDS
from tasklang.envs.device import wifi
from tasklang.envs.device.check import device_check
from tasklang.envs.device.codec import DecodeError, FileDigest, NotKept
from tasklang.envs.device.phoneworld import PhoneWorldTransport
from tasklang.envs.device.probes import (
    FieldMap,
    ProbeSpec,
    Reading,
    Reference,
    collection_records,
    encode_values,
    files_root,
    folder_below,
    listing_specs,
    named_paths,
    prefs_hold,
    probe_specs,
    references,
    top_folder_below,
)
from tasklang.envs.device.shell import UnsafeValue
from tasklang.verifiers.check import check_trajectory
from tasklang.verifiers.probes import StepProofs, could_change, step_proofs
from tasklang.verifiers.snapshot import WorldSnapshot
from tasklang.verifiers.state import (
    by_itself,
    collections_unraised,
    diff_states,
    field_kept,
    key_of,
    record_keys,
    same_record,
)
from tasklang.verifiers.trajectory import Trajectory


@cache
def library() -> dict[str, ir.CompiledTask]:
    """The bundled library, compiled once per process."""
    from tasklang.compiler import Compiler, library_root

    return {c.task.id: c for c in Compiler().compile_paths([library_root()]).tasks}


@dataclass
class Case:
    task: str
    name: str
    phoneworld: bool
    device: bool | None  # None: undecided on a phone
    disagreements: list[str] = field(default_factory=list)  # clause ids judged differently
    observable: int = 0
    clauses: int = 0
    unobservable: dict[str, str] = field(default_factory=dict)  # clause id -> why, on a phone

    @property
    def agrees(self) -> bool:
        return not self.disagreements and self.device in (None, self.phoneworld)


def judge(
    compiled: ir.CompiledTask,
    traj: Trajectory,
    final: WorldSnapshot,
    name: str,
    step_states: list[WorldSnapshot] | None = None,
    start: Reading | None = None,
    proofs: StepProofs | None = None,
) -> Case:
    """Both checkers on one end state (the trajectory's steps, ``final`` at the end);
    with ``step_states`` the device checker also had the phone probed after every step,
    with ``start`` its screens read before the episode (``proofs``: what the steps prove,
    worked out once for every end state of the episode)."""
    seen = traj.model_copy(update={"final": traj.final.model_copy(update={"snapshot": final})})
    pw = check_trajectory(compiled, seen, initial_override=traj.header.instance.initial)
    ui = final.ui_xml or ""
    initial = traj.header.instance.initial
    transport = PhoneWorldTransport(compiled, lambda: final, lambda: ui, initial)
    # PhoneWorld's screens are still at once: no waiting for them to settle
    dv = device_check(
        compiled, seen, transport, step_states=step_states, sleep=_no_wait,
        start=start.snapshot if start else None, listed=start.listed if start else None,
        proofs=proofs,
    )  # fmt: skip
    pw_by_id = {r.id: r.passed for r in pw.clauses}
    wrong = [
        r.id for r in dv.clauses if r.id not in dv.unobservable and pw_by_id.get(r.id) != r.passed
    ]
    n = len(compiled.task.clauses)
    return Case(compiled.task.id, name, pw.success, dv.success, wrong,
                n - len(dv.unobservable), n, dict(dv.unobservable))  # fmt: skip


def run_task(
    compiled: ir.CompiledTask, seed: int = 0, misses: int = 6, steps: bool = True
) -> list[Case]:
    """The reference end state and up to ``misses`` near misses of one task instance
    (``steps``: the phone is probed after every step, as ``DeviceEnv(probe_steps=True)``)."""
    from tasklang.envs.phoneworld.episode import run_reference

    _, traj = run_reference(compiled, seed)
    final = traj.final.snapshot
    assert final is not None
    readings = step_readings(compiled, traj) if steps else None
    if readings is not None:  # the folders each step's listings held, as DeviceEnv keeps them
        traj = _with_listed(traj, readings)
    states = [r.snapshot for r in readings] if readings is not None else None
    start = start_reading(compiled, traj)
    proofs = step_proofs(compiled, traj.steps)
    cases = [judge(compiled, traj, final, "reference", states, start, proofs)]
    rng = random.Random(f"{compiled.task.id}:{seed}")
    # the state the episode's screens prove unchanged stays as it is: the app cannot reach
    # an end state that differs there along these steps
    earlier = held_along(compiled, traj, proofs.one_way)
    for name, snap in near_misses(
        compiled, final, rng, misses, proofs.quiet, proofs.kept, proofs.closed,
        proofs.unraised, earlier,
    ):  # fmt: skip
        seen = traj if readings is None else _listed_as_missed(compiled, traj, readings, snap)
        cases.append(judge(compiled, seen, snap, name, states, start, proofs))
    return cases


def _listed_as_missed(
    compiled: ir.CompiledTask, traj: Trajectory, readings: list[Reading], miss: WorldSnapshot
) -> Trajectory:
    """``traj`` with each step's folder listings (``extra.device_listed``) as a phone
    probed after every step would have read them had the episode ended in the near miss
    ``miss``: a folder it adds or removes is there (or gone) from the last step that could
    make that change (``could_change``) on; one no step could is left as the steps read it
    (a phone cannot tell whose change it was)."""
    from tasklang.envs.device.check import LISTED, listed_json, probe

    ref = readings[-1].listed if readings else {}
    if not ref:
        return traj
    initial = traj.header.instance.initial
    transport = PhoneWorldTransport(compiled, _const(miss), lambda: "", initial)
    missed = probe(compiled, transport, initial=initial).listed
    along = [dict(r.listed) for r in readings]
    for key, paths in missed.items():
        for path in ref.get(key, frozenset()) ^ paths:
            there = path in paths
            back = reversed(range(len(traj.steps)))  # the last step that could make it
            last = next(
                (i for i in back if could_change(compiled, key, there, traj.steps[i])), None
            )
            for held in along[last:] if last is not None else []:
                had = held.get(key, frozenset())
                held[key] = had | {path} if there else had - {path}
    steps = [
        s.model_copy(update={"extra": {**s.extra, LISTED: listed_json(held)}}) if held else s
        for s, held in zip(traj.steps, along, strict=True)
    ]  # fmt: skip
    return traj.model_copy(update={"steps": steps})


def start_reading(compiled: ir.CompiledTask, traj: Trajectory) -> Reading | None:
    """What reading the screens of PhoneWorld's world before the episode reads (None: the
    trajectory does not hold that world)."""
    from tasklang.envs.device.check import probe_start

    initial = traj.header.instance.initial
    if initial is None:
        return None
    transport = PhoneWorldTransport(
        compiled, _const(initial), lambda: initial.ui_xml or "", initial
    )
    return probe_start(compiled, transport, sleep=_no_wait)


def _with_listed(traj: Trajectory, readings: list[Reading]) -> Trajectory:
    from tasklang.envs.device.check import LISTED, listed_json

    steps = [
        s.model_copy(update={"extra": {**s.extra, LISTED: listed_json(r.listed)}})
        if r.listed else s
        for s, r in zip(traj.steps, readings, strict=True)
    ]  # fmt: skip
    return traj.model_copy(update={"steps": steps})


def step_readings(compiled: ir.CompiledTask, traj: Trajectory) -> list[Reading] | None:
    """What probing PhoneWorld after each step reads (None: a step has no state)."""
    from tasklang.envs.device.check import probe

    out = []
    for step in traj.steps:
        state = step.snapshot
        if state is None:
            return None
        initial = traj.header.instance.initial
        transport = PhoneWorldTransport(compiled, _const(state), lambda: "", initial)
        out.append(probe(compiled, transport, initial=initial))
    return out


def _const(state: WorldSnapshot) -> Callable[[], WorldSnapshot]:
    return lambda: state


def _no_wait(seconds: float) -> None:
    return None


# ------------------------------------------------------------------ near misses
def read_state(compiled: ir.CompiledTask) -> tuple[list[tuple[str, str]], set[str]]:
    """The collections and settings the clauses read, and the field names they use."""
    keys: list[tuple[str, str]] = []
    fields: set[str] = set()
    for node in ir.walk(compiled.task.clauses):
        if isinstance(node, (ir.CollectionRef, ir.SettingRef)):
            if (node.app, node.name) not in keys:
                keys.append((node.app, node.name))
        elif isinstance(node, ir.FieldRef):
            fields.add(node.name)
        elif isinstance(node, ir.HasItem):
            fields.add(node.field)
    return keys, fields


def near_misses(
    compiled: ir.CompiledTask,
    snap: WorldSnapshot,
    rng: random.Random,
    limit: int,
    quiet: frozenset[tuple[str, str]] = frozenset(),
    kept: frozenset[tuple[str, str]] = frozenset(),
    closed: frozenset[tuple[str, str]] = frozenset(),
    unraised: dict[tuple[str, str], Any] | None = None,
    earlier: Held | None = None,
) -> list[tuple[str, WorldSnapshot]]:
    """Up to ``limit`` end states near ``snap``, none of which changes ``quiet`` state, nor
    removes a record from a ``kept`` collection (or an append-only one), nor adds one to a
    ``closed`` collection, nor has more records holding another value of an ``unraised``
    field (``unraised_state``) than its default, nor brings a record of a collection no
    update of which was undone back to what it held earlier (``earlier``: :func:`held_along`)."""
    keys, fields = read_state(compiled)
    kept_as_prefs = [s for s in probe_specs(compiled) if s.prefs_records]
    out: list[tuple[str, WorldSnapshot]] = []
    for app, name in keys:
        state = snap.apps.get(app)
        model = compiled.apps.get(app)
        if state is None or model is None:
            continue
        if name in state.settings and model.setting(name) is not None:
            fdef = model.setting(name)
            assert fdef is not None
            new = perturb(state.settings[name], fdef.type, rng)
            out.append((f"setting {app}.{name}", _with_setting(snap, app, name, new)))
        records = state.collections.get(name)
        rdef = model.record_of(name)
        if records and rdef is not None:
            i = rng.randrange(len(records))
            coll = model.collection(name)
            # an append-only collection never loses a record, nor a record its key, nor does
            # one whose records are removed only from steps the episode did not take: such an
            # end state is no near miss the app can reach
            keeps = (coll is not None and coll.append_only) or (app, name) in kept
            closes = (app, name) in closed  # ... nor does one that gained no record
            if not keeps:
                rest = records[:i] + records[i + 1 :]
                dropped = _with_records(snap, app, name, rest)
                if _is_file(compiled, app, name):  # a folder goes with what it holds
                    dropped = _moved(compiled, dropped, app, str(records[i].get("path")), None)
                dropped = _followed(compiled, dropped, app, name, records[i], None)
                out.append((f"drop {app}.{name}[{i}]", dropped))
            twin = copy.deepcopy(records[i])
            spec = _file_spec(compiled, app, name)
            if spec is None:
                twin = _fresh_key(compiled, app, name, twin, records, rng)
            twin = _next_kept(kept_as_prefs, app, name, twin, records)
            if spec is not None:  # one path holds one file: the copy gets its own
                stem, ext = posixpath.splitext(str(twin.get("path")))
                twin = _placed(spec, twin, twin, f"{stem}-copy{ext}")
            dup = [*records, twin]
            if not closes:
                out.append((f"duplicate {app}.{name}[{i}]", _with_records(snap, app, name, dup)))
            named = [f for f in rdef.fields if f.name in fields] or list(rdef.fields)
            # a new key (or, without one, new values of the fields that never change) is
            # another record: one removed and one added, as a drop and a copy are. Without a
            # key, those fields never change in a record (as `_keeps_quiet` holds of a keyed
            # record's); a key changes where records are removed and added
            if keeps or closes or rdef.key_field() is None:
                ids = set(model.identity(name))
                named = [f for f in named if f.name not in ids]
                if not named:
                    continue
            fdef = rng.choice(named)
            changed = dict(records[i])
            ref = next(
                (r for r in _references(compiled, app) if (r.coll, r.field) == (name, fdef.name)),
                None,
            )
            if ref is not None:  # a reference names another record that exists
                others = [
                    v for v in _referable(snap, compiled, app, ref) if v != changed.get(fdef.name)
                ]
                if not others:
                    continue
                changed[fdef.name] = rng.choice(others)
            elif _names_file(compiled, app, name, changed, fdef.name):
                # a file's name the phone keeps as its content's digest: another file it has
                others = sorted({posixpath.basename(p) for p in named_paths(snap)}
                                - {changed.get(fdef.name)})  # fmt: skip
                if not others:
                    continue
                changed[fdef.name] = rng.choice(others)
            else:
                changed[fdef.name] = perturb(changed.get(fdef.name), fdef.type, rng)
                changed = _as_stored(compiled, app, name, changed, fdef.name)
                if changed == records[i] or not _holds(compiled, app, name, changed, fdef.name):
                    continue  # a change the app's storage cannot hold
            edited = [*records[:i], changed, *records[i + 1 :]]
            label = f"change {app}.{name}[{i}].{fdef.name}"
            world = _with_records(snap, app, name, edited)
            if _is_file(compiled, app, name):  # a file's name or folder is where it lies
                world = _relocated(compiled, world, app, name, records[i], changed, fdef.name)
            world = _followed(compiled, world, app, name, records[i], changed)
            out.append((label, world))
    # the records a system service keeps as it can keep them (no network connected unsaved)
    networks = [s for s in probe_specs(compiled)
                if s.probe.source == "service" and s.probe.namespace == "wifi"]  # fmt: skip
    out = [(n, world) for n, world in out if _service_holds(networks, world)]
    if quiet:
        out = [(n, world) for n, world in out if _keeps_quiet(compiled, snap, world, quiet)]
    if unraised:
        out = [(n, world) for n, world in out if _keeps_unraised(snap, world, unraised)]
    if earlier:
        out = [(n, world) for n, world in out if not _undoes(compiled, snap, world, earlier)]
    # the collections kept in preferences that the reference end state holds as they are
    held = [s for s in kept_as_prefs if prefs_hold(s, collection_records(snap, s.app, s.target))]
    out = [(n, world) for n, world in out if _held(held, snap, world)]
    rng.shuffle(out)
    return out[:limit]


# (app, collection) -> key -> the records that key held along an episode, oldest first
Held = dict[tuple[str, str], dict[str, list[dict[str, Any]]]]


def held_along(
    compiled: ir.CompiledTask, traj: Trajectory, one_way: frozenset[tuple[str, str]]
) -> Held:
    """What each record of the ``one_way`` collections (``one_way_state``) held before the
    episode and after each of its steps, by key."""
    out: Held = {}
    worlds = [traj.header.instance.initial, *(s.snapshot for s in traj.steps)]
    for app, name in one_way:
        model = compiled.apps.get(app)
        rdef = model.record_of(name) if model is not None else None
        key = rdef.key_field() if rdef is not None else None
        if key is None:
            continue
        by_key = out.setdefault((app, name), {})
        for world in worlds:
            for record in collection_records(world, app, name) if world is not None else []:
                states = by_key.setdefault(key_of(record, key), [])
                if not states or not same_record(states[-1], record):
                    states.append(record)
    return out


def _undoes(
    compiled: ir.CompiledTask, snap: WorldSnapshot, world: WorldSnapshot, held: Held
) -> bool:
    """Whether ``world``, an end state near ``snap``, holds a record of a collection in
    ``held`` that differs from the one ``snap`` holds under its key and is what that key held
    earlier: an update undone, which the app model says the episode made none of."""
    for (app, name), by_key in held.items():
        model = compiled.apps[app]
        rdef = model.record_of(name)
        key = rdef.key_field() if rdef is not None else None
        assert key is not None  # see held_along
        ends = {key_of(r, key): r for r in collection_records(snap, app, name)}
        for record in collection_records(world, app, name):
            k = key_of(record, key)
            end = ends.get(k)
            if end is None or same_record(end, record):
                continue
            if any(same_record(old, record) for old in by_key.get(k, [])):
                return True
    return False


def _keeps_quiet(
    compiled: ir.CompiledTask,
    snap: WorldSnapshot,
    world: WorldSnapshot,
    quiet: frozenset[tuple[str, str]],
) -> bool:
    """Whether ``world`` leaves the ``quiet`` state as ``snap`` has it: each collection and
    setting (but for the fields that change by themselves), and each field
    (``collection.field``) in every record that kept its key."""
    whole = {k for k in quiet if "." not in k[1]}
    changes = diff_states(snap, world, compiled.apps, whole) if whole else []
    if any(not by_itself(compiled.apps, c) for c in changes):
        return False
    keys = record_keys(compiled.apps)
    for app, name in quiet - whole:
        coll, fname = name.split(".", 1)
        key = keys.get((app, coll))
        old, new = snap.apps.get(app), world.apps.get(app)
        if key is None or old is None or new is None:
            continue
        a, b = old.collections.get(coll), new.collections.get(coll)
        if a is not None and b is not None and not field_kept(a, b, key, fname):
            return False
    return True


def _next_kept(
    specs: list[ProbeSpec],
    app: str,
    name: str,
    twin: dict[str, Any],
    records: list[dict[str, Any]],
) -> dict[str, Any]:
    """A copy of a record of a collection kept in shared preferences by number (``specs``),
    made the next record as the app would add it (the stopwatch lapped once more): the next
    number, and the entry a field is kept as the difference of (a lap's total, for its lap
    time) the previous record's plus that field."""
    spec = next((s for s in specs if s.key == (app, name)), None)
    start = PREFS_RECORDS.get(spec.probe.form or "") if spec is not None else None
    if spec is None or start is None or not records:
        return twin
    by_entry = {fm.prefs_entry.key: fm for fm in spec.fields
                if fm.prefs_entry is not None and not fm.prefs_entry.since}  # fmt: skip
    out = dict(twin)
    for fm in spec.fields:
        entry = fm.prefs_entry
        if entry is None:
            continue
        whole = by_entry.get(entry.key)
        if entry.own_id:
            out[fm.field] = len(records) + start
        elif entry.since and whole is not None:
            last, step = records[-1].get(whole.field), twin.get(fm.field)
            if isinstance(last, int) and isinstance(step, int):
                out[whole.field] = last + step
    return out


def _held(specs: list[ProbeSpec], snap: WorldSnapshot, world: WorldSnapshot) -> bool:
    """Whether the apps' shared preferences can keep each collection of ``world`` that
    ``specs`` keep (those whose records in ``snap`` they can keep: ``prefs_hold``): a near
    miss is a state the app can be in."""
    for spec in specs:
        new = collection_records(world, spec.app, spec.target)
        if new != collection_records(snap, spec.app, spec.target) and not prefs_hold(spec, new):
            return False
    return True


def _keeps_unraised(
    snap: WorldSnapshot, world: WorldSnapshot, unraised: dict[tuple[str, str], Any]
) -> bool:
    """Whether no record of ``world`` holds a value of an ``unraised`` field (app,
    "collection.field") other than its default beyond those of ``snap``."""
    for (app, name), default in unraised.items():
        old, new = snap.apps.get(app), world.apps.get(app)
        was = old.collections if old is not None else None
        now = new.collections if new is not None else None
        if not collections_unraised(was, now, name, default):
            return False
    return True


def _service_holds(networks: list[ProbeSpec], world: WorldSnapshot) -> bool:
    """Whether every record the Wi-Fi service keeps (``networks``: its probes) is one it can
    hold."""
    return all(
        wifi.kept(spec.probe.columns, r)
        for spec in networks
        for r in collection_records(world, spec.app, spec.target)
    )


def _field_map(
    compiled: ir.CompiledTask, app: str, name: str, field: str
) -> tuple[ProbeSpec | None, FieldMap | None]:
    """The probe that reads ``app.name``, and how it keeps ``field`` (None where none does)."""
    spec = next((s for s in probe_specs(compiled) if s.key == (app, name)), None)
    return spec, next((f for f in spec.fields if f.field == field), None) if spec else None


def _as_stored(
    compiled: ir.CompiledTask, app: str, name: str, record: dict[str, Any], field: str
) -> dict[str, Any]:
    """``record`` as the app's storage keeps it, where ``field`` shares one column with other
    fields (a task's due time is part of its due date's timestamp, so there is no time
    without a date; a task marked done gets a completion time) or is stored as what other
    fields say (a gallery item's album is the folder of its path): the near miss a phone can
    hold."""
    spec, fm = _field_map(compiled, app, name, field)
    if spec is None or fm is None or fm.link or fm.data_row or not fm.codec.exact:
        return record
    shared = [f for f in spec.fields if f.parts == fm.parts and f.codec.exact]
    if len(shared) < 2 and fm.codec.from_record is None:
        return record
    try:
        raw = encode_values(spec, record)
        return {**record, **{f.field: f.codec.decode(raw[f.parts[0]]) for f in shared
                             if len(f.parts) == 1}}  # fmt: skip
    except (DecodeError, UnsafeValue):
        return record


def _holds(
    compiled: ir.CompiledTask, app: str, name: str, record: dict[str, Any], field: str
) -> bool:
    """Whether the app's storage can keep the record's ``field`` as it is (an event's type
    that is no built-in one names a row of its own, which no event_types record may hold)."""
    spec, fm = _field_map(compiled, app, name, field)
    if spec is None or fm is None or not fm.codec.exact or fm.codec.from_record is not None:
        return True
    try:
        fm.codec.encode(record.get(field))
    except (DecodeError, UnsafeValue):
        return False
    return True


def _names_file(
    compiled: ir.CompiledTask, app: str, name: str, record: dict[str, Any], field: str
) -> bool:
    """Whether the record's ``field`` is a file's name that the app keeps as the digest of
    the file's content (a WeChat image's original: ``codec.FileDigest``)."""
    spec, fm = _field_map(compiled, app, name, field)
    if spec is None or fm is None or not fm.inner_links or fm.codec.from_record is None:
        return False
    try:
        return isinstance(fm.codec.decode(fm.codec.from_record(record)), FileDigest)
    except (DecodeError, NotKept):
        return False


def _references(compiled: ir.CompiledTask, app: str) -> list[Reference]:
    """The references among an app's collections: fields kept as rows pointing at records
    of another collection (a task's list, a recipe's categories), and records shown inside
    another record's row."""
    return references(compiled.apps[app]) + _nested(compiled, app)


def _nested(compiled: ir.CompiledTask, app: str) -> list[Reference]:
    """Records a screen shows only inside the row of another record (an order's lines in
    its card: a `screen` probe reads the field from the row around, ``ancestor::...``): a
    reference to that record by its key, which a phone cannot hold without the record."""
    from tasklang.envs.device.screens import screen_specs

    model = compiled.apps[app]
    specs = [s for s in screen_specs(compiled) if s.app == app and s.kind == "collection"]
    keys = {}
    for s in specs:
        rdef = model.record_of(s.target)
        key = rdef.key_field() if rdef else None
        if key is not None:
            keys[s.target] = key.name
    out = []
    for s in specs:
        for read in s.reads:
            outside = any(a.attr == "xpath" and a.value.startswith("ancestor::")
                          for a in read.spot.selector.attrs)  # fmt: skip
            parents = [t for t, k in keys.items() if k == read.name and t != s.target]
            if outside and len(parents) == 1 and not read.many:
                out.append(Reference(s.target, read.name, parents[0], read.name, True))
    return out


def _fresh_key(
    compiled: ir.CompiledTask,
    app: str,
    name: str,
    twin: dict[str, Any],
    records: list[dict[str, Any]],
    rng: random.Random,
) -> dict[str, Any]:
    """A copy of a record with a key gets a key of its own: an app holds one record per key
    (one cinema per name, one order per order number, whose lines its card shows)."""
    rdef = compiled.apps[app].record_of(name)
    key = rdef.key_field() if rdef else None
    if key is None:
        return twin
    taken = {r.get(key.name) for r in records}
    while twin.get(key.name) in taken:
        twin[key.name] = perturb(twin.get(key.name), key.type, rng)
    return twin


def _referable(
    snap: WorldSnapshot, compiled: ir.CompiledTask, app: str, ref: Reference
) -> list[Any]:
    """The values a reference can hold: the names of the records it can name (and, for a
    single one, its default: no record at all)."""
    state = snap.apps[app]
    names = [r.get(ref.key) for r in state.collections.get(ref.target, [])]
    if ref.single:
        rdef = compiled.apps[app].record_of(ref.coll)
        fdef = rdef.field(ref.field) if rdef else None
        names.append(fdef.default if fdef else None)
    return list(dict.fromkeys(n for n in names if n is not None))


def _followed(
    compiled: ir.CompiledTask,
    snap: WorldSnapshot,
    app: str,
    name: str,
    old: dict[str, Any],
    new: dict[str, Any] | None,
) -> WorldSnapshot:
    """References follow a renamed record, as on a phone (they point at the record, not at
    its name); a record dropped (``new`` None) takes the records that name it with it (a
    list its tasks), or leaves the lists of names that hold it."""
    for ref in _references(compiled, app):
        if ref.target != name:
            continue
        was = old.get(ref.key)
        now = new.get(ref.key) if new is not None else None
        left = [r.get(ref.key) for r in snap.apps[app].collections.get(name, [])]
        if was == now or was in left:  # another record of that name is left
            continue
        kept = []
        for r in snap.apps[app].collections.get(ref.coll, []):
            value = r.get(ref.field)
            if ref.single and value == was:
                if new is not None:
                    kept.append({**r, ref.field: now})
            elif not ref.single and isinstance(value, list) and was in value:
                renamed = [now if v == was else v for v in value]
                kept.append({**r, ref.field: [v for v in renamed if v is not None]})
            else:
                kept.append(r)
        snap = _with_records(snap, app, ref.coll, kept)
    return snap


def _is_file(compiled: ir.CompiledTask, app: str, name: str) -> bool:
    model = compiled.apps.get(app)
    probes = model.probes if model else []
    return any(p.target == name and p.source == "files" for p in probes)


def _file_spec(compiled: ir.CompiledTask, app: str, name: str) -> ProbeSpec | None:
    return next(
        (s for s in probe_specs(compiled) if s.app == app and s.target == name
         and s.probe.source == "files"),
        None,
    )  # fmt: skip


def _derived(spec: ProbeSpec, path: str) -> dict[str, Any]:
    """The fields a listing gives for a file at ``path`` (its name, folder, kind)."""
    root = files_root(spec.probe.path or "")
    name = posixpath.basename(path)
    raw = {"name": name, "stem": posixpath.splitext(name)[0], "folder": folder_below(root, path),
           "top_folder": top_folder_below(root, path)}  # fmt: skip
    return {f.field: f.codec.decode(raw[f.column]) for f in spec.fields if f.column in raw}


def _relocated(
    compiled: ir.CompiledTask,
    snap: WorldSnapshot,
    app: str,
    name: str,
    old: dict[str, Any],
    new: dict[str, Any],
    field_name: str,
) -> WorldSnapshot:
    """A file record changed in a field its place on disk says (path, name, folder, kind) is
    a file moved or renamed, as on a phone: the record's other such fields follow, and so
    does everything a moved folder holds. Fields a record keeps apart from its place (a
    title for a name) stay as they were."""
    spec = _file_spec(compiled, app, name)
    path = old.get("path")
    if spec is None or not isinstance(path, str):
        return snap
    root = files_root(spec.probe.path or "")
    column = spec.probe.columns.get(field_name)
    value = new.get(field_name)
    if field_name == "path" and isinstance(value, str):
        target = value
    elif column == "name" and field_name == "kind":
        stem = posixpath.splitext(path)[0]
        target = stem + {"photo": ".jpg", "video": ".mp4"}.get(str(value), ".bin")
    elif column == "name":
        target = posixpath.join(posixpath.dirname(path), str(value))
    elif column == "stem":  # renamed, keeping its extension
        target = posixpath.join(posixpath.dirname(path), str(value) + posixpath.splitext(path)[1])
    elif column == "folder":
        target = posixpath.normpath(posixpath.join(root, str(value), posixpath.basename(path)))
    elif column == "top_folder":  # moved to another top folder, keeping its place below it
        below = posixpath.relpath(path, root).split("/")[1:] or [posixpath.basename(path)]
        target = posixpath.normpath(posixpath.join(root, str(value), *below))
    else:
        return snap
    state = snap.apps[app]
    records = list(state.collections.get(name, []))
    i = next(k for k, r in enumerate(records) if r is new)
    records[i] = _placed(spec, old, new, target)
    moved = _moved(compiled, _with_records(snap, app, name, records), app, path, target)
    return _with_folders(compiled, moved, app, posixpath.dirname(target), snap)


def _with_folders(
    compiled: ir.CompiledTask, snap: WorldSnapshot, app: str, folder: str, before: WorldSnapshot
) -> WorldSnapshot:
    """``folder`` and those above it recorded where the app keeps a record for every folder
    (a file cannot be moved into a folder that does not exist), and where the app's folder
    records are folders a listing shows among others (the Files app's), those of them that
    were not there in ``before``: the app made them, as it does a folder, with a record."""
    specs = probe_specs(compiled)
    listings = listing_specs(compiled, specs)
    for spec in specs:
        p = spec.probe
        if spec.app != app or p.source != "files" or not (p.path or "").endswith("/"):
            continue
        if not spec.rows_exact and spec not in listings:
            continue
        root = files_root(p.path or "")
        rdef = compiled.apps[app].record_of(spec.target)
        records = list(snap.apps[app].collections.get(spec.target, []))
        have = {r.get("path") for r in records}
        if spec in listings:  # the folders a phone had, records or not
            files = PhoneWorldTransport(compiled, _const(before), lambda: "").files().values()
            have |= {f.path for f in files if f.is_dir}
        path = posixpath.normpath(folder)
        while path.startswith(root.rstrip("/") + "/"):
            if path not in have:
                rec = {f.name: f.default for f in rdef.fields} if rdef else {}
                rec.update(path=path, **_derived(spec, path))
                records.append(rec)
            path = posixpath.dirname(path)
        snap = _with_records(snap, app, spec.target, records)
    return snap


def _placed(
    spec: ProbeSpec, old: dict[str, Any], rec: dict[str, Any], target: str
) -> dict[str, Any]:
    """``rec`` put at ``target``, its listing-given fields re-derived where ``old``'s were."""
    was = _derived(spec, str(old.get("path")))
    now = _derived(spec, target)
    out = dict(rec, path=target)
    for f, value in now.items():
        if old.get(f) == was.get(f):
            out[f] = value
    return out


def _moved(
    compiled: ir.CompiledTask, snap: WorldSnapshot, app: str, old: str, new: str | None
) -> WorldSnapshot:
    """What lies below folder ``old`` moved below ``new`` (None: deleted with it)."""
    prefix = old.rstrip("/") + "/"
    for name in list(snap.apps[app].collections):
        spec = _file_spec(compiled, app, name)
        records = snap.apps[app].collections[name]
        if spec is None or not any(str(r.get("path")).startswith(prefix) for r in records):
            continue
        kept = []
        for r in records:
            path = str(r.get("path"))
            if not path.startswith(prefix):
                kept.append(r)
            elif new is not None:
                kept.append(_placed(spec, r, r, new.rstrip("/") + "/" + path[len(prefix) :]))
        snap = _with_records(snap, app, name, kept)
    return snap


def _with_setting(snap: WorldSnapshot, app: str, name: str, value: Any) -> WorldSnapshot:
    new = snap.model_copy(deep=False, update={"apps": dict(snap.apps)})
    state = new.apps[app]
    new.apps[app] = state.model_copy(update={"settings": {**state.settings, name: value}})
    return new


def _with_records(snap: WorldSnapshot, app: str, name: str, records: list[Any]) -> WorldSnapshot:
    new = snap.model_copy(deep=False, update={"apps": dict(snap.apps)})
    state = new.apps[app]
    new.apps[app] = state.model_copy(update={"collections": {**state.collections, name: records}})
    return new


def perturb(value: Any, t: ir.Type, rng: random.Random) -> Any:
    """A value of type ``t`` near ``value`` but different from it."""
    n = t.name
    if n == "bool":
        return not value
    if n in ("int", "money"):
        return (value if isinstance(value, int) else 0) + rng.choice([1, 100])
    if n == "duration":  # by whole minutes: apps keep some durations in minutes
        return (value if isinstance(value, int) else 0) + rng.choice([60, 6000])
    if n == "number":
        return (value if isinstance(value, (int, float)) else 0) + 1.5
    if n == "enum" and t.members:
        others = [m for m in t.members if m != value]
        return rng.choice(others) if others else value
    if n in ("date", "datetime", "time") and isinstance(value, str):
        return _shift(value, n)
    if n == "list":  # an item fewer, or one of the items' type
        if isinstance(value, list) and value:
            return list(value)[:-1]
        item = perturb(None, t.item, rng) if t.item is not None else None
        return [item if item is not None else "x"]
    return (value if isinstance(value, str) else "") + " x"


def _shift(value: str, kind: str) -> str:
    try:
        if kind == "date":
            return (dt.date.fromisoformat(value) + dt.timedelta(days=1)).isoformat()
        if kind == "time":
            t = dt.time.fromisoformat(value)
            return t.replace(hour=(t.hour + 1) % 24).isoformat(timespec="minutes")
        when = dt.datetime.fromisoformat(value) + dt.timedelta(hours=1)
        return when.isoformat(timespec="seconds")
    except ValueError:
        return value + " x"


# ------------------------------------------------------------------ whole episodes
def run_episode(compiled: ir.CompiledTask, seed: int = 0) -> Case:
    """The task's reference actions through DeviceEnv, whose phone is PhoneWorld (screen
    calls become PhoneWorld actions, probes are answered from its state, the phone probed
    after every step); the device verdict against PhoneWorld's on the same episode."""
    from tasklang.envs.device.env import DeviceEnv
    from tasklang.envs.device.phoneworld import PhoneWorldDriver
    from tasklang.envs.phoneworld.episode import Episode, run_reference

    _, traj = run_reference(compiled, seed)
    actions = [s.action.model_dump(exclude_none=True) for s in traj.steps if s.action]
    ep = Episode(compiled, seed)
    initial = ep.instance.initial if ep.instance is not None else None
    transport = PhoneWorldTransport(compiled, ep.phone.world, ep.xml, initial)
    env = DeviceEnv(compiled, PhoneWorldDriver(ep), transport, setup=False,
                    probe_steps=True, sleep=lambda s: None)  # fmt: skip
    env.reset(seed=seed)
    # the screens read before the episode were a copy's; the episode runs on PhoneWorld's own
    transport.leave_screens()
    last: dict[str, Any] = {"action_type": "status", "goal_status": "complete"}
    for action in actions:
        *_, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            last = action
            break
    if not env.ended:
        env.step(last)
    if last.get("action_type") in ("status", "answer"):
        ep.step(last)  # PhoneWorld hears the agent's status or answer too
    pw = ep.verdict()
    dv = env.verdict
    if dv is None:  # the episode ended in an error: nothing was judged
        return Case(compiled.task.id, f"episode error: {env.error}", pw.success, None, ["*"])
    by_id = {r.id: r.passed for r in pw.clauses}
    wrong = [r.id for r in dv.clauses if r.id not in dv.unobservable and by_id[r.id] != r.passed]
    n = len(compiled.task.clauses)
    return Case(compiled.task.id, "episode", pw.success, dv.success, wrong,
                n - len(dv.unobservable), n, dict(dv.unobservable))  # fmt: skip
