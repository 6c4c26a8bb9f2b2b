"""Change events proved by a reading before and one after an episode.

Some state is read only from the apps' screens, which cannot be opened in the middle of an
episode (``Coverage.at_end``), so a phone never sees the steps at which it changed. It can
still be read before the episode as well as after it, and the two readings prove some trace
clauses in one direction (in both for an append-only collection, below):

- a key the end reading holds and the start reading does not was added at some step (the
  verifier matches records by key, step by step); a key the start holds and the end does not
  was deleted at some step. Without a key field, records are told apart by the fields the
  app model says never change (``changes C.F nowhere``), as the verifier follows them: more
  records holding some values of those at the end than at the start means that many were
  added (:func:`_classes`; a `where` on those fields decides them where it is known alike of
  each such record at the end), fewer means that many were deleted. Without such fields,
  more records at the end than at the start means some step added one (a step whose records
  outnumber the step before's has more new records than vanished ones, and only as many as
  vanished can count as updated); fewer means some step deleted one;
- readings that differ mean something changed along the way: a setting, a collection's
  records without a key, or, with a key, its keys or the one record a key names in each
  reading (the verifier keeps the last record of a key, which a page's order need not show);
- so `eventually E` is *true* and `never E` (a `forbid`) *false* when ``E`` is proved to have
  happened, and `at most N times E` is false when more than ``N`` occurrences are proved.

The converse is not proved in general (a record added, then deleted again, leaves both
readings alike). It is for an *append-only* collection (``collection C: R append only``: the
app offers no way to remove a record or change its key) whose key both readings read
exactly, and whose start reading's keys are all read at the end (readings that show a
removal contradict the declaration, and prove only what they prove of any collection). A
record added along the way is then still there at the end, under the key it was added with,
so the keys read after the episode and not before are exactly the records added, and no key
is ever deleted: `eventually added C` is false and `never added C` true when no new key is
read, `at most N times added C` holds when at most ``N`` are, and `never deleted C` holds.
For records without a key but with fields that never change, the groups play the keys' part
(:func:`_exact_keyless`). The same holds of a collection that lost no record in *this*
episode: one whose app model says where its records are removed (``removes C only on ...``)
when no step of the episode was taken there (``tasklang.verifiers.probes.kept_state``).

Deletions are decided both ways in the mirror case: a collection that gained no record in this
episode (its app model says where records are added, ``adds C only on ...``, and no step was
taken there: ``tasklang.verifiers.probes.closed_state``), whose key both readings read exactly,
and whose end reading's keys were all read at the start. A record deleted along the way cannot
come back under its key, so the keys read before the episode and not after it are exactly the
records deleted: `never deleted C where P` holds when none of them satisfied ``P``.

An append-only collection proves updates too, in one direction. A key one record holds in
each reading, whose records read differently, was never removed in between, so some step
updated its record, and the last step that did left it as the end reads it: `eventually
updated C where P` is *true* (and `never ...` false) when the end's record satisfies ``P``,
which may read any field both readings read exactly, or one read in part where the end's
record is known to satisfy it (three-valued: a record read without the field proves
nothing). The converse is not proved in general: a record updated and changed back leaves
both readings alike. It is where the app model says no update is undone (``undoes C
nowhere``, or ``only on`` screens no step of the episode was on:
``tasklang.verifiers.probes.one_way_state``): an update made along the way shows in the end
reading, so with the same keys in both readings (a record added along the way may have been
updated since), each read exactly with every field that may change, a record read alike was
never updated, and `never updated C where P` holds when ``P`` reads only fields that never
change and holds of no record read differently (:func:`_exact_updates`).

Nothing else is proved about `updated` (in any other collection a record deleted and added
again under the same key reads like an update), about an event's ``where`` unless it reads
only the record's key, fields the readings read exactly that the app model says never change
in a record that keeps its key (``changes C.F nowhere``) or that no step of the episode could
change (``Coverage.quiet``), and the task's parameters (the record
may have changed between the step that added it and the end; those have not), nor about the
order of events but for one case (:func:`decide_order`: an event the trajectory shows, before
the first step from which the app lets the state change, in `before` or `then`). Those clauses
stay undecided.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tasklang import ir
from tasklang.verifiers.evaluate import Env, EvalError, Unknown, evaluate
from tasklang.verifiers.snapshot import WorldSnapshot
from tasklang.verifiers.state import diff_records, identity_key, key_of, same_record
from tasklang.verifiers.verdict import ClauseResult, Evidence

Key = tuple[str, str]

_OPS = ("eventually", "never", "at_most")
# what a `where` may read and still hold of a record for as long as its key does not change
_PURE = (ir.Lit, ir.Param, ir.FieldRef, ir.Neg, ir.Arith, ir.Compare, ir.Logic, ir.Not,
         ir.ListExpr)  # fmt: skip


@dataclass(frozen=True)
class Readings:
    """The state read only at the end (``Coverage.at_end``), read before the episode as
    well: ``start`` holds what that reading got (a page it could not read is left out)."""

    start: WorldSnapshot
    end: WorldSnapshot
    params: dict[str, Any]


def bracketed_event(
    clause: ir.Clause,
    compiled: ir.CompiledTask,
    at_end: frozenset[Key],
    fields: dict[Key, frozenset[str]] | None = None,
    kept: frozenset[Key] | None = None,
    partly: dict[Key, frozenset[str]] | None = None,
    quiet: frozenset[Key] = frozenset(),
) -> ir.ChangeEvent | None:
    """The change event of a trace clause that readings before and after the episode can
    decide, in one direction at least (None: they cannot). ``fields``: the fields the
    readings read exactly, of each collection (see :func:`fixed_fields`). ``kept``: the
    collections that lost no record all along (None: those the app models declare `append
    only`; see ``tasklang.verifiers.probes.kept_state``). ``partly``: fields read only in the
    records that show them, which an update's ``where`` may read as well (an update is only
    ever proved, never ruled out: one whose end record does not show the field is not
    counted). ``quiet``: state proved unchanged all along (``Coverage.quiet``); a field of
    the collection's records among it holds, like one that never changes, what it held when
    its record was added."""
    body = clause.body
    if not isinstance(body, ir.TraceBody) or body.op not in _OPS or body.second is not None:
        return None
    event = body.first
    if not isinstance(event, ir.ChangeEvent):
        return None
    target = event.target
    if not isinstance(target, (ir.CollectionRef, ir.SettingRef)):
        return None
    if (target.app, target.name) not in at_end:
        return None
    if isinstance(target, ir.SettingRef):  # a setting's change is `changed`, never another op
        return event if event.op == "changed" and event.where is None else None
    key = key_field_of(compiled, target)
    read = (fields or {}).get((target.app, target.name), frozenset())
    if event.op == "updated":  # the last update of a record left it as the end reads it
        if key is None or key.name not in read or not _kept(compiled, target, kept):
            return None
        shown = set(read) | set((partly or {}).get((target.app, target.name), frozenset()))
        return event if event.where is None or _reads_only(event.where, shown) else None
    if event.op == "changed" or event.where is None:
        return event if event.where is None else None
    steady = {n.split(".", 1)[1] for a, n in quiet
              if a == target.app and n.startswith(f"{target.name}.")}  # fmt: skip
    fixed = fixed_fields(compiled, target) | steady
    if key is None:  # told apart by the fields that never change, read exactly or in part
        shown = set(read) | set((partly or {}).get((target.app, target.name), frozenset()))
        allowed = fixed & shown if fixed & set(read) else set()
        return event if allowed and _reads_only(event.where, allowed) else None
    allowed = {key.name} | (fixed & read)
    return event if _reads_only(event.where, allowed) else None


def fixed_fields(compiled: ir.CompiledTask, target: ir.CollectionRef) -> set[str]:
    """The fields of a collection's records that never change in a record that keeps its
    key, or in any record of one without a key (``changes C.F nowhere``): what a record held
    when it was added, or when it was deleted, it holds in the reading after the episode, or
    held in the one before it."""
    app = compiled.apps.get(target.app)
    return set(app.fixed_fields(target.name)) if app is not None else set()


def decide(
    clause: ir.Clause,
    compiled: ir.CompiledTask,
    at_end: frozenset[Key],
    readings: Readings,
    keyed: frozenset[Key] = frozenset(),
    fields: dict[Key, frozenset[str]] | None = None,
    kept: frozenset[Key] | None = None,
    closed: frozenset[Key] = frozenset(),
    partly: dict[Key, frozenset[str]] | None = None,
    quiet: frozenset[Key] = frozenset(),
    one_way: frozenset[Key] = frozenset(),
) -> ClauseResult | None:
    """The clause's result where the readings prove it (None: they do not). ``keyed``: the
    collections whose key field the readings read exactly (``Coverage.keyed``); an
    append-only one among them (``kept``, as in :func:`bracketed_event`) is decided both
    ways, and so are deletions from one that gained no record (``closed``), and updates of
    one no update of which was undone (``one_way``: :func:`_exact_updates`). ``fields``: the
    fields they read exactly (``Coverage.fields``), which a `where` may read where they never
    change (or, ``quiet``, did not change in this episode); ``partly``: those read in part
    (``Coverage.partly``), which an update's may."""
    event = bracketed_event(clause, compiled, at_end, fields, kept, partly, quiet)
    if event is None:
        return None
    assert isinstance(clause.body, ir.TraceBody) and event.target is not None
    found = _proved(event, compiled, readings)
    if found is None:
        return None
    body = clause.body
    n = len(found)
    exact = _exact(event, compiled, keyed, readings, kept, closed)
    if exact is None and event.op == "updated" and not n:
        exact = _exact_updates(event, compiled, keyed, fields, readings, kept, one_way)
    if n and body.op in ("eventually", "never"):
        passed, summary = body.op == "eventually", _HAPPENED
    elif body.op == "at_most" and n > (body.times or 0):
        passed, summary = False, f"{_HAPPENED} {n} times"
    elif exact is None:
        return None
    elif body.op == "at_most":
        passed, summary = True, f"{_HAPPENED} {n} times, no more: {exact}"
        found = found or [_none_evidence(event, exact)]
    else:
        passed, summary = body.op == "never", f"{_NEVER}: {exact}"
        found = [_none_evidence(event, exact)]
    return ClauseResult(
        id=clause.id, role=clause.role, kind="trace", passed=passed, weight=clause.weight,
        subgoal=clause.subgoal, summary=summary, evidence=found[:3], span=clause.span,
    )  # fmt: skip


def decide_order(
    clause: ir.Clause,
    compiled: ir.CompiledTask,
    at_end: frozenset[Key],
    readings: Readings,
    way_in: int | None,
    first_at: Callable[[ir.Event], int | None],
    fields: dict[Key, frozenset[str]] | None = None,
    kept: frozenset[Key] | None = None,
) -> ClauseResult | None:
    """`A before E` (or `A then E`), where ``E`` changes state read only at the end and the
    readings prove it happened, and ``A`` is an event the trajectory shows (an action, a
    screen, the foreground app). ``E`` happened at step ``way_in`` or later: the first step
    that was a way in to its state (the app model's `changes` lines; None: there is no such
    bound). ``A`` first happened at step ``first_at(A)``; at or before ``way_in``, it came
    before every occurrence of ``E`` (a step's screen and action come before the state its
    action leads to), so the clause holds: ``A`` came first, and ``E`` followed it. Nothing
    else is proved: ``E`` may have happened at any later step (None)."""
    body = clause.body
    if not isinstance(body, ir.TraceBody) or body.op not in ("before", "then") or way_in is None:
        return None
    first, later = body.first, body.second
    if isinstance(first, (ir.ChangeEvent, ir.HoldsEvent)) or not isinstance(later, ir.ChangeEvent):
        return None
    alone = clause.model_copy(
        update={
            "body": body.model_copy(update={"op": "eventually", "first": later, "second": None})
        }
    )
    if bracketed_event(alone, compiled, at_end, fields, kept) is None:
        return None
    found = _proved(later, compiled, readings)
    step = first_at(first)
    if not found or step is None or step > way_in:
        return None
    summary = (
        f"{_HAPPENED}, at step {way_in} or later (the first way in to its state), and the "
        f"event {'before' if body.op == 'before' else 'it follows'} happened at step {step}"
    )
    return ClauseResult(
        id=clause.id, role=clause.role, kind="trace", passed=True, weight=clause.weight,
        subgoal=clause.subgoal, summary=summary, evidence=found[:3], span=clause.span,
    )  # fmt: skip


_HAPPENED = "the readings before and after the episode prove it happened"
_NEVER = "the readings before and after the episode prove it never happened"


def _exact(
    event: ir.ChangeEvent,
    compiled: ir.CompiledTask,
    keyed: frozenset[Key],
    readings: Readings,
    kept: frozenset[Key] | None,
    closed: frozenset[Key] = frozenset(),
) -> str | None:
    """Why the readings' count of the event is exact, worded for the clause's summary (None:
    it is only a lower bound). It is for additions and deletions of an append-only
    collection whose key is read exactly, when every key read before the episode is read
    after it; and for deletions from one that gained no record, when every key read after
    the episode was read before it."""
    target = event.target
    if not isinstance(target, ir.CollectionRef) or event.op not in ("added", "deleted"):
        return None
    key = key_field_of(compiled, target)
    if key is None:
        return _exact_keyless(event, compiled, readings, kept, closed)
    if (target.app, target.name) not in keyed:
        return None
    old, new = _rows(readings.start, target), _rows(readings.end, target)
    if old is None or new is None:
        return None
    name = f"{target.app}.{target.name}"
    if (
        event.op == "deleted"
        and (target.app, target.name) in closed
        and _keys(new, key) <= _keys(old, key)
    ):
        return (
            f"{name} gains no record along these steps, so a record deleted along the way is "
            "not read after the episode"
        )
    if not _kept(compiled, target, kept) or not _keys(old, key) <= _keys(new, key):
        return None
    if event.op == "deleted":
        return (
            f"{name} loses no record along these steps, and every key read before the episode "
            "is read after it"
        )
    return (
        f"{name} loses no record along these steps, so a record added along the way is read "
        f"after the episode under a {key.name} not read before it"
    )


def _exact_keyless(
    event: ir.ChangeEvent,
    compiled: ir.CompiledTask,
    readings: Readings,
    kept: frozenset[Key] | None,
    closed: frozenset[Key],
) -> str | None:
    """:func:`_exact` for records without a key, told apart by the fields that never change
    (:func:`_classes`): additions to a collection that lost no record, where no values of
    those fields are held by fewer records after the episode than before; deletions from one
    that gained no record, where none are held by more; in both, where the `where` is known
    alike of every record that may be one of them. (A collection that lost no record lost
    none of them either.)"""
    target = event.target
    assert isinstance(target, ir.CollectionRef)
    classes = _classes(event, compiled, readings)
    if classes is None:
        return None
    name, added = f"{target.app}.{target.name}", event.op == "added"
    known = all(truth is not None for _, _, truth in (classes.more if added else classes.fewer))
    if added and known and _kept(compiled, target, kept) and not classes.fewer:
        return (
            f"{name} loses no record along these steps, and its records keep the fields that "
            "never change: a record added along the way is one more holding its values of "
            "them after the episode"
        )
    if not added and known and (target.app, target.name) in closed and not classes.more:
        return (
            f"{name} gains no record along these steps, and its records keep the fields that "
            "never change: a record deleted along the way is one fewer holding its values of "
            "them after the episode"
        )
    if not added and _kept(compiled, target, kept) and not classes.fewer:
        return f"{name} loses no record along these steps"
    return None


def _exact_updates(
    event: ir.ChangeEvent,
    compiled: ir.CompiledTask,
    keyed: frozenset[Key],
    fields: dict[Key, frozenset[str]] | None,
    readings: Readings,
    kept: frozenset[Key] | None,
    one_way: frozenset[Key],
) -> str | None:
    """Why the readings prove that no update matching the event was made, worded for the
    clause's summary (None: they do not). It is for a collection that lost no record and had
    no update undone (``one_way``: an update, once made, shows in its record at the end),
    whose key and every field that may change the readings read exactly, with the same keys
    before the episode as after it (a record added along the way may have been updated
    since): a record read alike in both was never updated, and one read differently was,
    where the `where` reads only fields that never change and holds of it in neither."""
    target = event.target
    assert isinstance(target, ir.CollectionRef)
    name, coll = (target.app, target.name), f"{target.app}.{target.name}"
    app, key = compiled.apps.get(target.app), key_field_of(compiled, target)
    rdef = app.record_of(target.name) if app is not None else None
    if app is None or rdef is None or key is None or app.loose_fields(target.name):
        return None
    if name not in one_way or name not in keyed or not _kept(compiled, target, kept):
        return None
    fixed = fixed_fields(compiled, target) | {key.name}
    if not {f.name for f in rdef.fields} - fixed <= (fields or {}).get(name, frozenset()):
        return None
    old, new = _rows(readings.start, target), _rows(readings.end, target)
    if old is None or new is None:
        return None
    keys = _held_once(old, key)
    if len(keys) != len(old) or keys != _held_once(new, key) or len(new) != len(old):
        return None
    for change in diff_records(target.app, target.name, old, new, key):
        if event.where is None or not _reads_only(event.where, fixed):
            return None
        if change.after is None or _truth(event, compiled, readings, change.after) is not False:
            return None
    return (
        f"{coll} loses no record and has no update undone along these steps, and holds the "
        "same keys after the episode as before it: a record updated along the way reads "
        "differently after it"
    )


@dataclass(frozen=True)
class _Classes:
    """The records of a collection without a key, grouped by their values of the fields
    that never change (those both readings hold in every record): ``more`` holds, for each
    group with more records after the episode than before, how many more, those records, and
    whether the event's `where` holds of them (None: not known alike of all of them);
    ``fewer`` the same of groups with fewer, and their records before the episode."""

    more: list[tuple[int, list[dict[str, Any]], bool | None]]
    fewer: list[tuple[int, list[dict[str, Any]], bool | None]]


def _classes(
    event: ir.ChangeEvent, compiled: ir.CompiledTask, readings: Readings
) -> _Classes | None:
    """The groups of :class:`_Classes` (None: the collection has a key, or no field said
    never to change that the readings hold in every record, or a reading lacks it). A record
    of a group with more after the episode than before was added along the way, or one of
    those there was (no record changes those fields): the event's `where`, which reads only
    such fields, decides them where it is known alike of the whole group."""
    target = event.target
    assert isinstance(target, ir.CollectionRef)
    old, new = _rows(readings.start, target), _rows(readings.end, target)
    if old is None or new is None or key_field_of(compiled, target) is not None:
        return None
    ids = tuple(
        f for f in sorted(fixed_fields(compiled, target)) if all(f in r for r in (*old, *new))
    )
    if not ids:
        return None
    was = Counter(identity_key(r, ids) for r in old)
    now = Counter(identity_key(r, ids) for r in new)

    def groups(diff: Counter[str], rows: list[dict[str, Any]]) -> list[Any]:
        out = []
        for value, n in diff.items():
            group = [r for r in rows if identity_key(r, ids) == value]
            truths = {_truth(event, compiled, readings, r) for r in group}
            out.append((n, group, truths.pop() if len(truths) == 1 else None))
        return out

    return _Classes(groups(now - was, new), groups(was - now, old))


def _kept(compiled: ir.CompiledTask, target: ir.CollectionRef, kept: frozenset[Key] | None) -> bool:
    """Whether the collection lost no record all along (``kept``; None: it is declared
    `append only`)."""
    if kept is not None:
        return (target.app, target.name) in kept
    app = compiled.apps.get(target.app)
    coll = app.collection(target.name) if app is not None else None
    return coll is not None and coll.append_only


def _keys(records: list[dict[str, Any]], key: ir.FieldDef) -> set[str]:
    return {key_of(r, key) for r in records}


def _rows(snap: WorldSnapshot, target: ir.CollectionRef) -> list[dict[str, Any]] | None:
    state = snap.apps.get(target.app)
    return state.collections.get(target.name) if state is not None else None


def _none_evidence(event: ir.ChangeEvent, why: str) -> Evidence:
    target = event.target
    assert isinstance(target, ir.CollectionRef)
    return Evidence(kind="change", app=target.app, collection=target.name, detail=why)


def _proved(
    event: ir.ChangeEvent, compiled: ir.CompiledTask, readings: Readings
) -> list[Evidence] | None:
    """Occurrences of the event the readings prove (None: a reading lacks its state)."""
    target = event.target
    assert isinstance(target, (ir.CollectionRef, ir.SettingRef))
    app, name = target.app, target.name
    before, after = readings.start.apps.get(app), readings.end.apps.get(app)
    if isinstance(target, ir.SettingRef):
        if before is None or after is None:
            return None
        if name not in before.settings or name not in after.settings:
            return None
        old, new = before.settings[name], after.settings[name]
        same = same_record({"v": old}, {"v": new})
        detail = f"{app}.{name} was {old!r} before the episode and is {new!r} after it"
        return [] if same else [Evidence(kind="value", app=app, detail=detail)]
    if before is None or after is None:
        return None
    if name not in before.collections or name not in after.collections:
        return None
    old_rows, new_rows = before.collections[name], after.collections[name]
    key = key_field_of(compiled, target)
    if event.op == "changed":
        return _changed(app, name, old_rows, new_rows, key)
    if key is None and (classes := _classes(event, compiled, readings)) is not None:
        groups = classes.more if event.op == "added" else classes.fewer
        where = "after the episode than before" if event.op == "added" else "before than after"
        return [
            Evidence(kind="change", app=app, collection=name, record=group[0],
                     detail=f"{event.op}: more records hold its values of the fields that "
                     f"never change {where}")
            for n, group, truth in groups if truth for _ in range(n)
        ]  # fmt: skip
    if key is None:  # only the numbers of records prove anything
        if event.where is not None:
            return []
        grown = len(new_rows) - len(old_rows)
        n = grown if event.op == "added" else -grown
        detail = f"{len(old_rows)} record(s) before the episode, {len(new_rows)} after it"
        return [Evidence(kind="change", app=app, collection=name, detail=detail)] * max(n, 0)
    if event.op == "updated":
        assert key is not None  # see bracketed_event
        return _updated(event, compiled, readings, old_rows, new_rows, key)
    out = []
    for change in diff_records(app, name, old_rows, new_rows, key):
        record = change.after if change.op == "added" else change.before
        if change.op != event.op or not _holds(event, compiled, readings, record):
            continue
        where = "after the episode, not before" if change.op == "added" else "before, not after"
        out.append(Evidence(kind="change", app=app, collection=name, record=record,
                            detail=f"{change.op}: its key was read {where}"))  # fmt: skip
    return out


def _updated(
    event: ir.ChangeEvent,
    compiled: ir.CompiledTask,
    readings: Readings,
    old: list[dict[str, Any]],
    new: list[dict[str, Any]],
    key: ir.FieldDef,
) -> list[Evidence]:
    """Updates of an append-only collection the readings prove: a key that one record holds
    in each reading, whose records differ. The record was never removed, so some step
    changed it, and the last such step left it as the end reads it: that step's update
    matches the event's ``where`` when the end's record does."""
    target = event.target
    assert isinstance(target, ir.CollectionRef)
    once = _held_once(old, key) & _held_once(new, key)
    out = []
    for change in diff_records(target.app, target.name, old, new, key):
        if change.op != "updated" or key_of(change.before or {}, key) not in once:
            continue
        if not _holds(event, compiled, readings, change.after):
            continue
        detail = "updated: its record was read differently before the episode and after it"
        out.append(Evidence(kind="change", app=target.app, collection=target.name,
                            record=change.after, detail=detail))  # fmt: skip
    return out


def _changed(
    app: str,
    name: str,
    old: list[dict[str, Any]],
    new: list[dict[str, Any]],
    key: ir.FieldDef | None,
) -> list[Evidence]:
    """Evidence that the records changed along the way: readings that differ. With a key,
    the verifier keeps one record per key (the last), which a page's order need not show:
    only keys added or removed, and a key held by one record in each reading whose record
    differs, prove a change."""
    changes = diff_records(app, name, old, new, key)
    if key is not None:
        once = _held_once(old, key) & _held_once(new, key)
        changes = [c for c in changes if c.op != "updated" or key_of(c.before or {}, key) in once]
    if not changes:
        return []
    first = changes[0]
    record = first.after if first.op != "deleted" else first.before
    detail = f"the readings before and after the episode differ: {first.op}"
    return [Evidence(kind="change", app=app, collection=name, record=record, detail=detail)]


def _held_once(records: list[dict[str, Any]], key: ir.FieldDef) -> set[str]:
    seen = Counter(key_of(r, key) for r in records)
    return {k for k, n in seen.items() if n == 1}


def _holds(
    event: ir.ChangeEvent,
    compiled: ir.CompiledTask,
    readings: Readings,
    record: dict[str, Any] | None,
) -> bool:
    """Whether the event's ``where`` is known to hold of ``record`` as read (a field the record
    was read without leaves it unknown: not known to hold)."""
    if event.where is None:
        return True
    return record is not None and _truth(event, compiled, readings, record) is True


def _truth(
    event: ir.ChangeEvent, compiled: ir.CompiledTask, readings: Readings, record: dict[str, Any]
) -> bool | None:
    """Whether the event's ``where`` holds of ``record`` as read (None: unknown, for a field
    the record was read without)."""
    if event.where is None:
        return True
    env = Env(dict(compiled.apps), readings.params, readings.end, None, record, partial=True)
    try:
        return bool(evaluate(event.where, env))
    except (EvalError, Unknown):
        return None


def key_field_of(
    compiled: ir.CompiledTask, target: ir.CollectionRef | ir.SettingRef
) -> ir.FieldDef | None:
    """The key field of the records of the collection ``target`` names (None: none)."""
    app = compiled.apps.get(target.app)
    rdef = app.record_of(target.name) if app else None
    return rdef.key_field() if rdef else None


def _reads_only(where: ir.Expr, allowed: set[str]) -> bool:
    """Whether ``where`` reads nothing of the record but the ``allowed`` fields (and nothing
    of the world: parameters and constants only)."""
    for node in ir.walk(where):
        if not isinstance(node, _PURE):
            return False
        if isinstance(node, ir.FieldRef) and node.base is None and node.name not in allowed:
            return False
    return True
