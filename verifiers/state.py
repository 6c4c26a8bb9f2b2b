"""Task instances' initial states, and the changes between two world states."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from tasklang import ir
from tasklang.noise import NoiseError, NoiseMaker
from tasklang.verifiers.compare import phone_digits
from tasklang.verifiers.evaluate import Env, EvalError, evaluate
from tasklang.verifiers.snapshot import AppState, Foreground, WorldSnapshot


def record_with_defaults(record: dict[str, Any], rdef: ir.RecordDef | None) -> dict[str, Any]:
    """A record with every field its type declares (defaults, or null when optional)."""
    if rdef is None:
        return dict(record)
    out = {f.name: (f.default if f.has_default else None) for f in rdef.fields}
    out.update(record)
    return out


def initial_state(
    compiled: ir.CompiledTask, params: dict[str, Any], rng: random.Random | None = None
) -> tuple[WorldSnapshot, list[str]]:
    """The world a task instance starts from: app defaults, then ``given`` in order.

    With ``rng``, the records of `+= noise N` are generated in place (see ``tasklang.noise``);
    without one they are left out and noted. Returns the snapshot and notes on what could not
    be built (noise that cannot be generated is noted too, with what was generated kept).
    """
    built = build_state(compiled, params, rng, strict=False)
    return built.snapshot, built.notes


@dataclass
class BuiltState:
    """An initial state, its notes, and the noise records each noise operation added."""

    snapshot: WorldSnapshot
    notes: list[str] = field(default_factory=list)
    noise: dict[int, list[dict[str, Any]]] = field(default_factory=dict)  # by index in ops


def build_state(
    compiled: ir.CompiledTask,
    params: dict[str, Any],
    rng: random.Random | None = None,
    reuse: dict[int, list[dict[str, Any]]] | None = None,
    exempt: Sequence[dict[str, Any]] = (),
    strict: bool = True,
) -> BuiltState:
    """:func:`initial_state`, also saying which records are noise.

    The clock is set first (so `now` may be used in records), then the operations run in
    order. With ``reuse`` (noise an earlier build made, by operation index) those records are
    kept where they still pass every check, ``exempt`` ones (chosen as parameter values)
    always. Raises ``NoiseError`` when a noise record cannot be generated (with ``strict``;
    otherwise it is noted).
    """
    notes: list[str] = []
    snap = WorldSnapshot()
    for name, app in compiled.apps.items():
        settings = {s.name: s.default for s in app.settings if s.has_default}
        snap.apps[name] = AppState(
            collections={c.name: [] for c in app.collections}, settings=settings
        )
    env = Env(dict(compiled.apps), params, snap)
    given = compiled.task.given
    if given.clock is not None:
        snap.clock = str(evaluate(given.clock.value, env))
        snap.tz = given.clock.tz
    maker = NoiseMaker(compiled, params, rng, exempt) if rng is not None else None
    built = BuiltState(snap, notes)
    for index, op in enumerate(given.ops):
        try:
            if isinstance(op, ir.NoiseOp) and maker is not None:
                old = reuse.get(index) if reuse is not None else None
                built.noise[index] = maker.fill(op, snap, old)
            else:
                apply_op(op, compiled, env, snap, notes)
        except EvalError as exc:
            notes.append(f"given: {exc}")
        except NoiseError as exc:
            if strict:
                raise
            notes.append(f"given: {exc}")
    if given.foreground is not None:
        fg_app = compiled.apps.get(given.foreground.app)
        snap.foreground = Foreground(
            package=fg_app.package if fg_app else None, activity=given.foreground.activity
        )
    return built


def apply_op(
    op: ir.GivenOp, compiled: ir.CompiledTask, env: Env, snap: WorldSnapshot, notes: list[str]
) -> None:
    target = op.target
    if isinstance(op, ir.NoiseOp):
        where = f" for {target.app}.{target.name}" if isinstance(target, ir.CollectionRef) else ""
        notes.append(f"{op.count} noise record(s){where} were not generated (no random generator)")
        return
    if isinstance(target, ir.SettingRef):
        snap.apps[target.app].settings[target.name] = evaluate(op.value, env)
        return
    if not isinstance(target, ir.CollectionRef):
        return
    app = compiled.apps[target.app]
    coll = app.collection(target.name)
    rdef = app.record(coll.record) if coll else None
    records = snap.apps[target.app].collections.setdefault(target.name, [])
    value = evaluate(op.value, env)
    if isinstance(op, ir.SetOp):
        records.clear()
        for r in value if isinstance(value, list) else []:
            records.append(record_with_defaults(r, rdef))
    elif isinstance(value, dict):
        records.append(record_with_defaults(value, rdef))


@dataclass
class Change:
    """One difference between two states."""

    op: str  # added updated deleted changed
    app: str
    name: str  # collection or setting
    before: Any = None
    after: Any = None

    def describe(self) -> str:
        if self.op == "changed":
            return f"setting {self.app}.{self.name}: {_show(self.before)} -> {_show(self.after)}"
        record = self.after if self.op != "deleted" else self.before
        return f"{self.op} in {self.app}.{self.name}: {_show(record)}"


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= 160 else text[:157] + "..."


def _record_def(apps: dict[str, ir.AppModel], app: str, coll: str) -> ir.RecordDef | None:
    model = apps.get(app)
    cdef = model.collection(coll) if model else None
    return model.record(cdef.record) if model and cdef else None


def key_of(record: dict[str, Any], key: ir.FieldDef) -> str:
    """A record's identity: its key field, canonical for the field's type (phone digits)."""
    value = record.get(key.name)
    if key.type.name == "phone" and value is not None:
        return "phone:" + phone_digits(value).lstrip("0")[-10:]
    return value if isinstance(value, str) else _canon(value)


def record_keys(apps: dict[str, ir.AppModel]) -> dict[tuple[str, str], ir.FieldDef]:
    """(app, collection) -> the key field, for each collection of ``apps`` whose records
    have one."""
    out = {}
    for name, model in apps.items():
        for coll in model.collections:
            rdef = model.record(coll.record)
            key = rdef.key_field() if rdef is not None else None
            if key is not None:
                out[(name, coll.name)] = key
    return out


def itself_fields(apps: dict[str, ir.AppModel]) -> dict[tuple[str, str], frozenset[str]]:
    """(app, collection) -> the fields of its records that change by themselves (`changes
    collection.field by itself`), for each collection with such fields."""
    return {
        (name, c.name): frozenset(loose)
        for name, model in apps.items()
        for c in model.collections
        if (loose := model.loose_fields(c.name))
    }


def by_itself(apps: dict[str, ir.AppModel], change: Change) -> bool:
    """Whether the app model says the change may happen with no action (`changes NAME by
    itself`): to a collection or setting so declared, or an update of a record that differs
    only in fields so declared."""
    model = apps.get(change.app)
    if model is None or not model.by_itself:
        return False
    if change.name in model.by_itself:
        return True
    if change.op != "updated":
        return False
    old, new = change.before, change.after
    if not isinstance(old, dict) or not isinstance(new, dict):
        return False
    # as records are compared: a field one side did not record is unknown, not changed
    moved = [f for f in old.keys() & new.keys() if not _same(old[f], new[f])]
    return bool(moved) and all(f"{change.name}.{f}" in model.by_itself for f in moved)


def field_kept(
    old: list[dict[str, Any]], new: list[dict[str, Any]], key: ir.FieldDef, field: str
) -> bool:
    """Whether every record found under its key in both lists holds the same ``field``
    (records added or deleted, a new key included, do not count)."""
    before = {key_of(r, key): r.get(field) for r in old}
    return all(_same(before[k], r.get(field)) for r in new if (k := key_of(r, key)) in before)


def field_kept_apart(
    old: list[dict[str, Any]], new: list[dict[str, Any]], identity: tuple[str, ...], field: str
) -> bool:
    """Whether no record without a key, told apart by the fields of ``identity`` (those
    that never change), was updated in ``field`` from ``old`` to ``new`` (as
    :func:`diff_records` matches them)."""
    return all(
        c.op != "updated" or _same((c.before or {}).get(field), (c.after or {}).get(field))
        for c in diff_records("", "", old, new, None, identity)
    )


def field_unraised(
    old: list[dict[str, Any]], new: list[dict[str, Any]], field: str, default: Any
) -> bool:
    """Whether, from ``old`` to ``new``, no record came to hold a value of ``field`` other
    than ``default``: records told apart by nothing cannot be followed, so a record added
    may be one updated, and each such value is held by no more records than before (a
    route started only by its Start button: no route more is started)."""

    def raised(records: list[dict[str, Any]]) -> Counter[str]:
        return Counter(_canon(r.get(field)) for r in records if not _same(r.get(field), default))

    return not raised(new) - raised(old)


def collections_unraised(
    old: dict[str, list[dict[str, Any]]] | None,
    new: dict[str, list[dict[str, Any]]] | None,
    name: str,
    default: Any,
) -> bool:
    """:func:`field_unraised` of ``collection.field`` (``name``) between two versions of an
    app's collections (None, or a collection one of them lacks: nothing to compare)."""
    coll, fname = name.split(".", 1)
    a = old.get(coll) if old is not None else None
    b = new.get(coll) if new is not None else None
    return a is b or a is None or b is None or field_unraised(a, b, fname, default)


def diff_states(
    before: WorldSnapshot,
    after: WorldSnapshot,
    apps: dict[str, ir.AppModel],
    scope: set[tuple[str, str]] | None = None,
) -> list[Change]:
    """Every record added, updated or deleted and every setting changed.

    Only what both states recorded is compared: an app, collection or setting missing from
    one of them was not observed there, which is not a change. With ``scope``, only those
    (app, collection or setting) pairs are compared.
    """
    changes: list[Change] = []
    if scope is not None:
        return _diff_scoped(before, after, apps, scope)
    for app in sorted(set(before.apps) & set(after.apps)):
        a, b = before.app(app), after.app(app)
        for name in sorted(set(a.collections) & set(b.collections)):
            rdef = _record_def(apps, app, name)
            key = next((f for f in rdef.fields if f.key), None) if rdef else None
            ids = identity_of(apps, app, name) if key is None else ()
            changes += diff_records(
                app, name, a.collections.get(name, []), b.collections.get(name, []), key, ids
            )
        for name in sorted(set(a.settings) & set(b.settings)):
            if not _same(a.settings.get(name), b.settings.get(name)):
                changes.append(
                    Change("changed", app, name, a.settings.get(name), b.settings.get(name))
                )
    return changes


def _diff_scoped(
    before: WorldSnapshot,
    after: WorldSnapshot,
    apps: dict[str, ir.AppModel],
    scope: set[tuple[str, str]],
) -> list[Change]:
    changes: list[Change] = []
    for app, name in sorted(scope):
        a, b = before.apps.get(app), after.apps.get(app)
        if a is None or b is None:
            continue
        if name in a.collections and name in b.collections:
            old, new = a.collections[name], b.collections[name]
            if old is not new:
                rdef = _record_def(apps, app, name)
                key = next((f for f in rdef.fields if f.key), None) if rdef else None
                ids = identity_of(apps, app, name) if key is None else ()
                changes += diff_records(app, name, old, new, key, ids)
        elif (
            name in a.settings
            and name in b.settings
            and not _same(a.settings[name], b.settings[name])
        ):
            changes.append(Change("changed", app, name, a.settings[name], b.settings[name]))
    return changes


def _canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _same(a: Any, b: Any) -> bool:
    """JSON values equal as JSON (so `1` and `true` differ); cheap when they are identical."""
    if a is b:
        return True
    if type(a) is type(b) and isinstance(a, (str, int, float)) and not isinstance(a, bool):
        return bool(a == b)
    return _canon(a) == _canon(b)


def same_record(old: dict[str, Any], new: dict[str, Any]) -> bool:
    """Equal on every field both records recorded (a field one side lacks is unknown)."""
    if old is new:
        return True
    return all(_same(old[f], new[f]) for f in old.keys() & new.keys())


def similarity(old: dict[str, Any], new: dict[str, Any]) -> float:
    common = set(old) & set(new)
    if not common:
        return 0.0
    return sum(_same(old[f], new[f]) for f in common) / len(common)


def minute_fields(apps: dict[str, ir.AppModel]) -> dict[tuple[str, str], tuple[str, ...]]:
    """(app, collection) -> the fields of its records declared `datetime(minute)`, for each
    collection with such fields."""
    return {
        (name, coll.name): fields
        for name, model in apps.items()
        for coll in model.collections
        if (rdef := model.record(coll.record)) is not None
        and (fields := tuple(f.name for f in rdef.fields if f.unit == "minute"))
    }


def record_identities(apps: dict[str, ir.AppModel]) -> dict[tuple[str, str], tuple[str, ...]]:
    """(app, collection) -> the fields that tell its records apart, for each collection of
    ``apps`` whose records have no key but fields said never to change (`changes C.F
    nowhere`)."""
    return {
        (name, coll.name): tuple(fields)
        for name, model in apps.items()
        for coll in model.collections
        if (rdef := model.record(coll.record)) is not None
        and rdef.key_field() is None
        and (fields := model.fixed_fields(coll.name))
    }


def unraised_fields(apps: dict[str, ir.AppModel]) -> dict[tuple[str, str], Any]:
    """(app, "collection.field") -> the field's default, for each field said to change only
    somewhere (`changes C.F only on` or `only by`) of records told apart by nothing (no key,
    no field that never changes): the line says where a record comes to hold another value
    of it (:func:`field_unraised`)."""
    out = {}
    for name, model in apps.items():
        for scope in model.changes:
            for target in scope.names:
                coll, dot, fname = target.partition(".")
                rdef = model.record_of(coll) if dot else None
                fdef = rdef.field(fname) if rdef is not None else None
                if fdef is not None and not model.identity(coll):
                    out[(name, target)] = fdef.default
    return out


def identity_of(apps: dict[str, ir.AppModel], app: str, coll: str) -> tuple[str, ...]:
    """The fields that tell apart the records of a collection without a key (none: the
    collection has a key, or no field said never to change)."""
    model = apps.get(app)
    rdef = model.record_of(coll) if model is not None else None
    if model is None or rdef is None or rdef.key_field() is not None:
        return ()
    return tuple(model.identity(coll))


def identity_key(record: dict[str, Any], fields: tuple[str, ...]) -> str:
    """The values of ``fields`` in a record, as one comparable text (a field the record
    lacks reads as null)."""
    return _canon([record.get(f) for f in fields])


def same_identity(old: dict[str, Any], new: dict[str, Any], fields: tuple[str, ...]) -> bool:
    """Equal on each of ``fields`` that both records recorded."""
    return all(_same(old[f], new[f]) for f in fields if f in old and f in new)


def diff_records(
    app: str,
    name: str,
    old: list[dict[str, Any]],
    new: list[dict[str, Any]],
    key: ir.FieldDef | None,
    identity: tuple[str, ...] = (),
) -> list[Change]:
    """Records deleted, added and updated between two lists of one collection.

    With a key field, records are matched by key. Without one, equal records are matched
    first; then, where the app model says which fields never change (``identity``), a
    leftover old record and a leftover new one equal on those are the same record, updated,
    and the others were deleted or added; else a leftover old record and a leftover new one
    that agree on at least half of their fields are the same record, updated.
    """
    if key is not None:
        olds = {key_of(r, key): r for r in old}
        news = {key_of(r, key): r for r in new}
        out = [Change("deleted", app, name, olds[k], None) for k in olds if k not in news]
        out += [Change("added", app, name, None, news[k]) for k in news if k not in olds]
        out += [
            Change("updated", app, name, olds[k], news[k])
            for k in olds
            if k in news and not same_record(olds[k], news[k])
        ]
        return out
    gone = list(old)
    fresh = []
    for r in new:
        match = next((i for i, g in enumerate(gone) if same_record(g, r)), None)
        if match is None:
            fresh.append(r)
        else:
            gone.pop(match)
    changes: list[Change] = []
    if identity:
        for r in fresh:
            match = next((i for i, g in enumerate(gone) if same_identity(g, r, identity)), None)
            if match is None:
                changes.append(Change("added", app, name, None, r))
            else:
                changes.append(Change("updated", app, name, gone.pop(match), r))
        return [Change("deleted", app, name, r, None) for r in gone] + changes
    for r in fresh:
        best = max(range(len(gone)), key=lambda i: similarity(gone[i], r), default=None)
        if best is not None and similarity(gone[best], r) >= 0.5:
            changes.append(Change("updated", app, name, gone.pop(best), r))
        else:
            changes.append(Change("added", app, name, None, r))
    return [Change("deleted", app, name, r, None) for r in gone] + changes
