"""What a device checker can decide: clauses observable through a probe plan, and verdicts
that say so.

A phone shows only what its probes read: some collections, some of their fields, some
settings, the final UI tree, the foreground app, the clock, and the steps the agent took.
A clause is *observable* when everything it reads is among these; the device verdict is
decided by observable clauses alone (a failing one decides failure; success needs all of
them observable) and is otherwise left undecided instead of guessed. A few clauses on state
read only at the end are decided by a reading before the episode as well, in one direction,
or in both for additions to and deletions from an append-only collection
(``tasklang.verifiers.bracket``).
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple

from pydantic import BaseModel

from tasklang import ir
from tasklang.verifiers.bracket import Readings, decide, decide_order, key_field_of
from tasklang.verifiers.check import Checker, Episode, Monitor, judge_trace
from tasklang.verifiers.evaluate import Env, EvalError, Unknown, evaluate
from tasklang.verifiers.snapshot import UiParseError
from tasklang.verifiers.state import record_identities, unraised_fields
from tasklang.verifiers.trajectory import REPORTS, Action, Step
from tasklang.verifiers.ui import TAPS, Screen, touches
from tasklang.verifiers.verdict import ClauseResult, Evidence, Verdict

Key = tuple[str, str]


class Shown(NamedTuple):
    """A record added or removed, as a reading shows it (``Coverage.changed``): ``op``
    `added` or `deleted`, and ``detail``, what showed it."""

    op: Literal["added", "deleted"]
    detail: str


@dataclass(frozen=True)
class Coverage:
    """The state a probe plan reads exactly."""

    fields: dict[Key, frozenset[str]]  # probed collection -> fields read exactly
    complete: frozenset[Key]  # collections whose every field is read exactly
    settings: frozenset[Key]
    keyed: frozenset[Key]  # collections whose key field is read exactly
    state: frozenset[Key]  # every collection and setting of the task's apps
    at_end: frozenset[Key] = frozenset()  # read only after the episode (from its screens)
    collections: frozenset[Key] = frozenset()  # the collections among ``state``
    # proved unchanged all along by the screens the episode went through (``quiet_state``);
    # ``(app, "collection.field")``: that field, in every record that kept its key
    quiet: frozenset[Key] = frozenset()
    record_fields: dict[Key, frozenset[str]] = field(default_factory=dict)  # every field
    record_keys: dict[Key, str] = field(default_factory=dict)  # the key field, where there is one
    # records without a key: the fields that tell them apart, where some never change
    record_identity: dict[Key, frozenset[str]] = field(default_factory=dict)
    # never lose a record (nor a record its key): `append only`, or proved for the episode
    append_only: frozenset[Key] = frozenset()
    # read the same before the episode and after it (a listing that holds the records among
    # others): the same at the end as at the start, for a guard; not proved along the way
    same: frozenset[Key] = frozenset()
    # proved changed at the end from the start (a listing that holds the records among
    # others, changed at a step the records change on: see ``could_change``): a guard that
    # watches one fails, and so does `never` a change that happened (``decide_changed``);
    # key -> the records added or removed, as the listings show them
    changed: dict[Key, tuple[Shown, ...]] = field(default_factory=dict)
    # change with no action (`changes NAME by itself`; ``(app, "collection.field")``: that
    # field): what watches a whole app, or any change anywhere, does not watch them
    by_itself: frozenset[Key] = frozenset()
    # never gain a record (nor a record a new key): proved for the episode (`closed_state`)
    closed: frozenset[Key] = frozenset()
    # no update brought a record back to what it held earlier: proved for the episode
    # (`one_way_state`)
    one_way: frozenset[Key] = frozenset()
    # read only in the records that hold them (a screen spot's ``unknown`` forms, a row that
    # does not keep the field: ``partly_read``): a clause on one is decided where the records
    # that hold it decide it (``decide_shown``)
    partly: dict[Key, frozenset[str]] = field(default_factory=dict)
    # read in part: the probes list some records only (the saved Wi-Fi networks), and every
    # record they do not list is known to hold these field values (``listed_in_part``): a
    # clause on one is decided where the records listed and those values decide it
    unlisted: dict[Key, dict[str, Any]] = field(default_factory=dict)
    # what a clause decided record by record may read (``shown``): fields some records lack,
    # and collections some of whose records are not listed
    record_by_record: bool = False

    @classmethod
    def of(
        cls,
        compiled: ir.CompiledTask,
        fields: dict[Key, frozenset[str]],
        settings: set[Key],
        at_end: set[Key] | frozenset[Key] = frozenset(),
    ) -> Coverage:
        complete, state, keyed, colls, kept = set(), set(), set(), set(), set()
        every: dict[Key, frozenset[str]] = {}
        keys: dict[Key, str] = {}
        itself = frozenset((name, n) for name, app in compiled.apps.items() for n in app.by_itself)
        for name, app in compiled.apps.items():
            for s in app.settings:
                state.add((name, s.name))
            for c in app.collections:
                state.add((name, c.name))
                colls.add((name, c.name))
                if c.append_only:
                    kept.add((name, c.name))
                rdef = app.record(c.record)
                if rdef is not None:
                    every[(name, c.name)] = frozenset(f.name for f in rdef.fields)
                    if (key := rdef.key_field()) is not None:
                        keys[(name, c.name)] = key.name
                have = fields.get((name, c.name))
                if have is None or rdef is None:
                    continue
                if {f.name for f in rdef.fields} <= have:
                    complete.add((name, c.name))
                if any(f.key and f.name in have for f in rdef.fields):
                    keyed.add((name, c.name))
        identity = {k: frozenset(v) for k, v in record_identities(compiled.apps).items()}
        return cls(
            dict(fields), frozenset(complete), frozenset(settings), frozenset(keyed),
            frozenset(state), frozenset(at_end), frozenset(colls), record_fields=every,
            record_keys=keys, record_identity=identity, append_only=frozenset(kept),
            by_itself=itself,
        )  # fmt: skip

    def reads(self, key: Key) -> bool:
        return key in self.complete or key in self.settings

    def told_apart(self, key: Key) -> bool:
        """Whether the records a reading holds say which were added and which deleted: the
        key is read exactly, or (records without one) every field said never to change,
        which tell them apart (``diff_records``), in a collection listed in full."""
        if key in self.keyed:
            return True
        identity = self.record_identity.get(key, frozenset())
        read = self.fields.get(key, frozenset())
        return bool(identity) and key not in self.unlisted and identity <= read

    def records_seen(self, key: Key, implicit: bool = False) -> bool:
        """Whether every change to a collection's records would be seen: each field is read
        exactly or proved unchanged in every record that kept its key (the key is read, so
        a record added or deleted shows). ``implicit``: for a clause that watches it only as
        part of an app or of everything, which does not watch the fields that change by
        themselves."""
        if key in self.complete:
            return True
        if key in self.unlisted:
            return False  # a record not listed may change unseen
        have, every = self.fields.get(key), self.record_fields.get(key)
        if have is None or every is None:
            return False
        excused = self.by_itself if implicit else frozenset()
        return all(f in have or (key[0], f"{key[1]}.{f}") in self.quiet | excused for f in every)

    def sees_changes(self, key: Key, implicit: bool = False) -> bool:
        """Whether a change to ``key`` would be seen: it is read in full (or its records'
        fields that are not are proved unchanged), or it is proved not to have changed.
        ``implicit``: watched only as part of an app or of everything, which does not watch
        what changes by itself."""
        if implicit and key in self.by_itself:
            return True
        quiet = key in self.quiet and (implicit or not self.loose(key))
        return key in self.settings or quiet or self.records_seen(key, implicit)

    def loose(self, key: Key) -> bool:
        """Whether some field of the collection's records changes by itself (proving the
        collection unchanged then leaves that field out)."""
        return any(a == key[0] and n.startswith(f"{key[1]}.") for a, n in self.by_itself)

    def fields_quiet(self, key: Key) -> bool:
        """Whether every field of the collection's records but its key is proved unchanged
        in every record that kept its key (records without one: the fields that never
        change), so no record of it was updated."""
        every = self.record_fields.get(key)
        if not every:
            return False
        fields = every - {self.record_keys.get(key)}
        return all((key[0], f"{key[1]}.{f}") in self.quiet for f in fields)

    def with_quiet(self, keys: frozenset[Key]) -> Coverage:
        """This coverage, with ``keys`` proved unchanged all along."""
        return dataclasses.replace(self, quiet=self.quiet | keys)

    def with_fields(self, read: set[tuple[str, str, str]]) -> Coverage:
        """This coverage, with these (app, collection, field) read exactly as well."""
        if not read:
            return self
        fields = dict(self.fields)
        for app, coll, name in read:
            fields[(app, coll)] = fields.get((app, coll), frozenset()) | {name}
        complete = self.complete | {
            k for k, have in fields.items()
            if k in self.record_fields and self.record_fields[k] <= have and k not in self.unlisted
        }  # fmt: skip
        return dataclasses.replace(self, fields=fields, complete=frozenset(complete))

    def without_fields(self, unread: set[tuple[str, str, str]]) -> Coverage:
        """This coverage, with these (app, collection, field) not read after all."""
        if not unread:
            return self
        fields = dict(self.fields)
        for app, coll, name in unread:
            if (app, coll) in fields:
                fields[(app, coll)] = fields[(app, coll)] - {name}
        gone = {(app, coll) for app, coll, _ in unread}
        return dataclasses.replace(self, fields=fields, complete=self.complete - gone)

    def partly_read(self, fields: set[tuple[str, str, str]]) -> Coverage:
        """This coverage, with these (app, collection, field) read only in the records that
        hold them (not read exactly, but decided on record by record: ``decide_shown``)."""
        if not fields:
            return self
        partly = dict(self.partly)
        for app, coll, name in fields:
            partly[(app, coll)] = partly.get((app, coll), frozenset()) | {name}
        return dataclasses.replace(self.without_fields(fields), partly=partly)

    def listed_in_part(self, unlisted: dict[Key, dict[str, Any]]) -> Coverage:
        """This coverage, with the collections of ``unlisted`` listed only in part (each
        record not listed known to hold its values): never read in full, and their keys do
        not say which records exist."""
        if not unlisted:
            return self
        keys = frozenset(unlisted)
        return dataclasses.replace(
            self, unlisted={**self.unlisted, **unlisted}, complete=self.complete - keys,
            keyed=self.keyed - keys,
        )  # fmt: skip

    def with_kept(self, keys: frozenset[Key]) -> Coverage:
        """This coverage, with ``keys`` proved to have lost no record all along (see
        :func:`kept_state`): they count as append-only for this episode."""
        return dataclasses.replace(self, append_only=self.append_only | keys)

    def with_closed(self, keys: frozenset[Key]) -> Coverage:
        """This coverage, with ``keys`` proved to have gained no record all along (see
        :func:`closed_state`)."""
        return dataclasses.replace(self, closed=self.closed | keys)

    def with_one_way(self, keys: frozenset[Key]) -> Coverage:
        """This coverage, with ``keys`` proved to have had no update undone all along (see
        :func:`one_way_state`)."""
        return dataclasses.replace(self, one_way=self.one_way | keys)

    def with_same(self, keys: frozenset[Key]) -> Coverage:
        """This coverage, with ``keys`` proved the same at the end as at the start."""
        return dataclasses.replace(self, same=self.same | keys)

    def with_changed(self, shown: dict[Key, tuple[Shown, ...]]) -> Coverage:
        """This coverage, with the keys of ``shown`` proved changed at the end from the
        start (each with what shows it)."""
        if not shown:
            return self
        return dataclasses.replace(self, changed={**self.changed, **shown})

    def without(self, keys: set[Key] | frozenset[Key]) -> Coverage:
        """This coverage less ``keys`` (state a reading could not get)."""
        if not keys:
            return self
        return dataclasses.replace(
            self,
            fields={k: v for k, v in self.fields.items() if k not in keys},
            complete=self.complete - keys, settings=self.settings - keys, keyed=self.keyed - keys,
            at_end=self.at_end - keys, same=self.same - keys,
            changed={k: v for k, v in self.changed.items() if k not in keys},
            partly={k: v for k, v in self.partly.items() if k not in keys},
            unlisted={k: v for k, v in self.unlisted.items() if k not in keys},
        )  # fmt: skip

    def shown(self) -> Coverage:
        """This coverage with the fields read on some rows only counted as read: what a
        clause may read to be decided record by record (:func:`decide_shown`)."""
        fields = dict(self.fields)
        for key, names in self.partly.items():
            fields[key] = fields.get(key, frozenset()) | names
        # not `complete`: a collection used whole (compared as a list) has records that lack
        # a field, which no three-valued rule reads
        return dataclasses.replace(self, fields=fields, record_by_record=True)

    def during(self) -> Coverage:
        """What a reading after each step covers: all but the state read only at the end
        (a screen probe opens the app again, which cannot happen in the middle of an
        episode)."""
        return self.without(self.at_end)


_STATE_SCOPE = "state"


class _Reads:
    """Walks an expression; ``problem`` is the first thing it reads that no probe does."""

    def __init__(self, cov: Coverage) -> None:
        self.cov = cov
        self.first: str | None = None
        self.in_part: str | None = None  # the first field read only in part

    @property
    def problem(self) -> str | None:
        """The first thing read that no probe reads, or else the first field read only in
        part (which record by record may still decide: ``decide_shown``)."""
        return self.first or self.in_part

    def fail(self, why: str) -> None:
        if self.first is None:
            self.first = why

    def visit(self, node: Any, scope: Key | None) -> None:
        if isinstance(node, list):
            for item in node:
                self.visit(item, scope)
            return
        if not isinstance(node, ir.IRNode):
            return
        if isinstance(node, (ir.Quant, ir.Count, ir.Aggregate, ir.Has)):
            self.source(node, scope)
        elif isinstance(node, ir.CollectionRef):
            if (node.app, node.name) not in self.cov.complete:
                self.fail(f"{node.app}.{node.name} is not read in full on a phone")
        elif isinstance(node, ir.SettingRef):
            if (node.app, node.name) not in self.cov.settings:
                self.fail(f"setting {node.app}.{node.name} is not read on a phone")
        elif isinstance(node, ir.FieldRef) and node.base is None:
            self.field(node.name, scope)
        else:
            for name in type(node).model_fields:
                if name != "span":
                    self.visit(getattr(node, name), scope)

    def field(self, name: str, scope: Key | None) -> None:
        if scope is None:
            return
        if name in self.cov.fields.get(scope, frozenset()):
            return
        why = f"field `{name}` of {scope[0]}.{scope[1]} is not read on a phone"
        if name in self.cov.partly.get(scope, frozenset()):
            self.in_part = self.in_part or f"{why} in every record"
        else:
            self.fail(why)

    def source(self, node: ir.Quant | ir.Count | ir.Aggregate | ir.Has, scope: Key | None) -> None:
        src = node.source
        inner: Key | None = None
        if isinstance(src, ir.CollectionRef):
            inner = (src.app, src.name)
            if inner not in self.cov.fields:
                self.fail(f"{src.app}.{src.name} is not read on a phone")
            elif inner in self.cov.unlisted and not self.cov.record_by_record:
                self.fail(f"{src.app}.{src.name} is listed only in part on a phone")
        else:
            self.visit(src, scope)
        if isinstance(node, ir.Has):
            for item in node.items:
                self.field(item.field, inner)
                self.visit([item.value, item.within], inner)
            return
        if isinstance(node, ir.Aggregate):
            self.field(node.field, inner)
        self.visit(node.where, inner)


NO_STEPS = "needs the state after every step, which was not probed"


def clause_problem(
    clause: ir.Clause, compiled: ir.CompiledTask, cov: Coverage, steps: bool = False
) -> str | None:
    """Why a phone cannot decide the clause (None: it can). ``steps``: the phone was
    probed after every step, so changes and conditions along the way can be seen."""
    body = clause.body
    if isinstance(body, ir.CheckBody):
        walker = _Reads(cov)
        walker.visit(body.expr, None)
        return walker.problem
    if isinstance(body, (ir.UnchangedBody, ir.OnlyChangedBody)):
        return _guard_problem(body, cov)
    if isinstance(body, ir.TraceBody):
        for event in (body.first, body.second):
            why = event_problem(event, cov, steps) if event is not None else None
            if why is not None:
                return why
        return None
    return None  # UI clauses read the final dump and the foreground app


def event_problem(event: ir.Event, cov: Coverage, steps: bool) -> str | None:
    """Why a phone cannot see where a trace event happens (None: it can)."""
    if not isinstance(event, (ir.ChangeEvent, ir.HoldsEvent)):
        return None  # actions, screens and the foreground app are in the trajectory
    named = event.target if isinstance(event, ir.ChangeEvent) else None
    if isinstance(event, ir.ChangeEvent) and never_happens(event, cov):
        return None  # the declarations decide it (`decide_declared`)
    if not steps:
        return NO_STEPS
    if isinstance(named, (ir.CollectionRef, ir.SettingRef)) and (
        (named.app, named.name) in cov.at_end
    ):
        return f"{named.app}.{named.name} is read from its screens only after the episode"
    cov = cov.during()
    walker = _Reads(cov)
    if isinstance(event, ir.HoldsEvent):
        walker.visit(event.expr, None)
        return walker.problem
    target = event.target
    if target is None:
        missing = _unseen_anywhere(event.op, cov)
        return f"a change to {missing[0][0]}.{missing[0][1]} would not be seen" if missing else None
    if isinstance(target, ir.SettingRef):
        walker.visit(target, None)
        return walker.problem
    if not isinstance(target, ir.CollectionRef):
        return "the change event's target is not a collection or setting"
    key = (target.app, target.name)
    if not cov.records_seen(key) and not (event.op in ("added", "deleted") and cov.told_apart(key)):
        return f"a change to {target.app}.{target.name} could be missed on a phone"
    walker.visit(event.where, key)
    return walker.problem


def never_happens(event: ir.ChangeEvent, cov: Coverage) -> bool:
    """Whether the app models' declarations prove that the change event never happened in
    the episode: what it names did not change (but by itself: ``Coverage.quiet``), the
    collection never lost (gained) a record (``append_only``, ``closed``), or, for an
    update, no field of its records changed (``Coverage.fields_quiet``)."""
    named, op = event.target, event.op
    if not isinstance(named, (ir.CollectionRef, ir.SettingRef)):
        return False
    key = (named.app, named.name)
    if key in cov.quiet and (op in ("added", "deleted") or not cov.loose(key)):
        return True
    if op == "updated" and isinstance(named, ir.CollectionRef) and cov.fields_quiet(key):
        return True  # no field of any record changed
    return isinstance(named, ir.CollectionRef) and (
        (op == "deleted" and key in cov.append_only) or (op == "added" and key in cov.closed)
    )


def decide_declared(clause: ir.Clause, cov: Coverage) -> ClauseResult | None:
    """A trace clause on one change event that the declarations prove never happened
    (:func:`never_happens`), whatever the readings show: `never E` and `at most N times E`
    hold, `eventually E` does not."""
    body = clause.body
    if not isinstance(body, ir.TraceBody) or body.second is not None:
        return None
    event = body.first
    if body.op not in ("eventually", "never", "at_most") or not isinstance(event, ir.ChangeEvent):
        return None
    if not never_happens(event, cov):
        return None
    return ClauseResult(
        id=clause.id, role=clause.role, kind="trace", passed=body.op != "eventually",
        weight=clause.weight, subgoal=clause.subgoal, span=clause.span,
        summary="the app models' declarations prove it never happened in this episode",
    )  # fmt: skip


def decide_changed(clause: ir.Clause, cov: Coverage) -> ClauseResult | None:
    """What the records the readings show added or removed (``Coverage.changed``) decide. A
    guard that watches them fails: `unchanged` on their collection, or on its app, and `only
    ... changed` that allows neither (a change it watches only as part of an app or of the
    rest does not count where that state changes by itself, as in ``Checker.guard``). And
    `never E` fails, `eventually E` holds, for ``E`` an addition (removal, or either: a
    change) of a record of that collection, with no condition."""
    body = clause.body
    if isinstance(body, ir.TraceBody):
        return _decide_changed_event(clause, body, cov)
    if not isinstance(body, (ir.UnchangedBody, ir.OnlyChangedBody)):
        return None
    named = {
        (t.app, t.name) for t in body.targets if isinstance(t, (ir.CollectionRef, ir.SettingRef))
    }
    unchanged = isinstance(body, ir.UnchangedBody)
    shown = [
        (key, what) for key, what in sorted(cov.changed.items())
        if (key in named or key[0] in body.apps) == unchanged
        and (key in named or key not in cov.by_itself)
    ]  # fmt: skip
    if not shown:
        return None
    evidence = [
        Evidence(kind="change", app=app, collection=name, detail=s.detail)
        for (app, name), what in shown for s in what
    ]  # fmt: skip
    return ClauseResult(
        id=clause.id, role=clause.role, kind=body.node, passed=False, weight=clause.weight,
        subgoal=clause.subgoal, span=clause.span, evidence=evidence[:20],
        summary=f"{len(evidence)} change(s) the task does not allow, seen in the listings",
    )  # fmt: skip


def _decide_changed_event(
    clause: ir.Clause, body: ir.TraceBody, cov: Coverage
) -> ClauseResult | None:
    event = body.first
    if body.second is not None or body.op not in ("never", "eventually"):
        return None
    if not isinstance(event, ir.ChangeEvent) or event.where is not None:
        return None
    target = event.target
    if not isinstance(target, ir.CollectionRef):
        return None
    seen = [
        s for s in cov.changed.get((target.app, target.name), ())
        if event.op in (s.op, "changed")
    ]  # fmt: skip
    if not seen:
        return None
    return ClauseResult(
        id=clause.id, role=clause.role, kind="trace", passed=body.op == "eventually",
        weight=clause.weight, subgoal=clause.subgoal, span=clause.span,
        evidence=[Evidence(kind="change", app=target.app, collection=target.name,
                           detail=s.detail) for s in seen[:20]],
        summary="it happened, seen in the listings",
    )  # fmt: skip


def _unseen_anywhere(op: str, cov: Coverage) -> list[Key]:
    """The state whose change of kind ``op`` a phone would miss, for an event on no named
    target. Only records are added, updated or deleted (a setting only changes), an
    addition or deletion shows in the keys alone where the key field is read, and an
    append-only collection never loses a record."""
    if op == "changed":
        return sorted(k for k in cov.state if not cov.sees_changes(k, implicit=True))
    keys_do = op in ("added", "deleted")
    return sorted(
        k for k in cov.collections
        if not cov.sees_changes(k, implicit=True) and not (keys_do and k in cov.keyed)
        and not (op == "deleted" and k in cov.append_only)
        and not (op == "added" and k in cov.closed)
    )  # fmt: skip


def _guard_problem(body: ir.UnchangedBody | ir.OnlyChangedBody, cov: Coverage) -> str | None:
    named = {
        (t.app, t.name) for t in body.targets if isinstance(t, (ir.CollectionRef, ir.SettingRef))
    }
    if isinstance(body, ir.UnchangedBody):
        watched, implicit = named, {k for k in cov.state if k[0] in body.apps} - named
    else:
        watched, implicit = (
            set(),
            {k for k in cov.state if k not in named and k[0] not in body.apps},
        )
    # a guard compares the end with the start only: state read the same at both passes; what
    # it watches only as part of an app or of the rest, it does not watch where that state
    # changes by itself
    missing = sorted(
        k for k in watched | implicit
        if not cov.sees_changes(k, implicit=k in implicit) and k not in cov.same
    )  # fmt: skip
    if missing:
        shown = ", ".join(f"{a}.{n}" for a, n in missing[:4])
        more = f" and {len(missing) - 4} more" if len(missing) > 4 else ""
        return f"a change to {shown}{more} would not be seen on a phone"
    return None


@dataclass(frozen=True)
class StepProofs:
    """What the steps of an episode prove of the state the app models bound (their
    `changes`, `removes`, `adds` and `undoes` lines): see :func:`quiet_state`,
    :func:`unraised_state`, :func:`kept_state`, :func:`closed_state` and
    :func:`one_way_state`. A check uses all five; :func:`step_proofs` works them out with
    each step's screen parsed once and each scope looked for on it once."""

    quiet: frozenset[Key]
    unraised: dict[Key, Any]
    kept: frozenset[Key]
    closed: frozenset[Key]
    one_way: frozenset[Key]


def step_proofs(compiled: ir.CompiledTask, steps: list[Step] | None) -> StepProofs:
    """What ``steps`` prove (None: the phone is read with no record of what was done on it)."""
    ways = WaysIn(steps)
    return StepProofs(
        quiet_state(compiled, ways), unraised_state(compiled, ways), kept_state(compiled, ways),
        closed_state(compiled, ways), one_way_state(compiled, ways),
    )  # fmt: skip


class WaysIn:
    """An episode's steps, and which of the app models' scopes some step was a way in to
    (:func:`_opened_by`), each step's screen parsed once and each scope looked for once,
    however many questions are asked. ``steps`` None: unknown steps, which may have been a
    way in to anything but what changes `nowhere`."""

    def __init__(self, steps: list[Step] | None) -> None:
        if steps is None:
            steps = [Step(index=0, action=Action(action_type="click"))]  # anything, on no screen
        self.steps = [s for s in steps if s.action is not None]
        self._screens: dict[int, Screen | None] = {}
        self._opened: dict[int, bool] = {}  # id(scope) -> whether some step opened it
        self._scopes: list[ir.ChangeScope] = []  # keeps the ids above for its own life

    def opened(self, scopes: list[ir.ChangeScope]) -> bool:
        """Whether some step was a way in to one of ``scopes``."""
        return any(self._opened_one(scope) for scope in scopes)

    def _opened_one(self, scope: ir.ChangeScope) -> bool:
        found = self._opened.get(id(scope))
        if found is None:
            found = any(
                _opened_by(step, [scope], self._screen(i)) for i, step in enumerate(self.steps)
            )
            self._opened[id(scope)] = found
            self._scopes.append(scope)
        return found

    def _screen(self, i: int) -> Screen | None:
        if i not in self._screens:
            self._screens[i] = _screen_of(self.steps[i])
        return self._screens[i]


Steps = list[Step] | WaysIn | None


def quiet_state(compiled: ir.CompiledTask, steps: Steps) -> frozenset[Key]:
    """The collections and settings the steps prove unchanged all along (see the app
    models' `changes` lines): those that change `nowhere`; those that change only from a
    step on a screen showing some element on (`only on`), or from a tap touching one on
    (`only by`), when no step was such a step. A step whose action was taken on a screen it
    did not record proves nothing but of the `nowhere` ones, nor do unknown steps (None: the
    phone is read with no record of what was done on it). A field of records told apart by
    nothing is not among them (see :func:`unraised_state`)."""
    raised = unraised_fields(compiled.apps)
    scopes = {k: v for k, v in change_scopes(compiled.apps).items() if k not in raised}
    return _unopened(scopes, steps)


def unraised_state(compiled: ir.CompiledTask, steps: Steps) -> dict[Key, Any]:
    """(app, "collection.field") -> its default, for each field of records told apart by
    nothing said to change only somewhere (``unraised_fields``) when no step was such a
    step: no record came to hold another value of it along the episode."""
    raised = unraised_fields(compiled.apps)
    scopes = {k: v for k, v in change_scopes(compiled.apps).items() if k in raised}
    return {k: raised[k] for k in _unopened(scopes, steps)}


def kept_state(compiled: ir.CompiledTask, steps: Steps) -> frozenset[Key]:
    """The collections the steps prove lost no record all along: those declared `append
    only` or `removes C nowhere`, and those whose records are removed only from a step on a
    screen showing some element (`removes C only on`), or from a tap touching one (`only
    by`), when no step was such a step (as :func:`quiet_state` proves of `changes` lines)."""
    append_only = frozenset(
        (name, c.name) for name, app in compiled.apps.items() for c in app.collections
        if c.append_only
    )  # fmt: skip
    return append_only | _unopened(removal_scopes(compiled.apps), steps)


def closed_state(compiled: ir.CompiledTask, steps: Steps) -> frozenset[Key]:
    """The collections the steps prove gained no record all along (nor a record a new
    key): those declared `adds C nowhere`, and those whose records are added only from a
    step on a screen showing some element (`adds C only on`), or from a tap touching one
    (`only by`), when no step was such a step."""
    return _unopened(addition_scopes(compiled.apps), steps)


def one_way_state(compiled: ir.CompiledTask, steps: Steps) -> frozenset[Key]:
    """The collections the steps prove no update brought a record back to what it held
    earlier: those declared `undoes C nowhere`, and those whose records are brought back only
    from a step on a screen showing some element (`undoes C only on`), or from a tap touching
    one (`only by`), when no step was such a step. An update made to a record of one, while it
    kept its key, shows in the record at the end."""
    return _unopened(reversal_scopes(compiled.apps), steps)


def _unopened(scopes: dict[Key, list[ir.ChangeScope]], steps: Steps) -> frozenset[Key]:
    """The keys of ``scopes`` none of whose scopes a step opened (see :func:`quiet_state`)."""
    if not scopes:
        return frozenset()
    ways = steps if isinstance(steps, WaysIn) else WaysIn(steps)
    return frozenset(k for k, found in scopes.items() if not ways.opened(found))


def could_change(compiled: ir.CompiledTask, key: Key, added: bool, step: Step) -> bool:
    """Whether the app models bound where the collection ``key`` gains a record (``added``)
    or loses one, and ``step`` was a way in to every line that bounds it (its `changes` lines
    and its `adds` or `removes` ones): a change a listing shows at that step, in a folder
    the listing holds among others, is the records' (a line that bounds nothing, or state
    that changes by itself, leaves every change there unattributed, and so does a step
    whose screen was not recorded)."""
    app = compiled.apps.get(key[0])
    if app is None or key[1] in app.by_itself:
        return False
    more = addition_scopes if added else removal_scopes
    bounds = [found for lines in (change_scopes, more) if (found := lines(compiled.apps).get(key))]
    if not bounds:
        return False
    screen = _screen_of(step)  # a step without its screen may have been none
    return screen is not None and all(_opened_by(step, scopes, screen) for scopes in bounds)


def _screen_of(step: Step) -> Screen | None:
    """The screen the step's action was taken on (None: not recorded, or a tree that does
    not parse)."""
    obs = step.observation
    if not obs.ui_xml and obs.ui_elements is None:
        return None
    try:
        return Screen.from_parts(obs.ui_xml, obs.ui_elements)
    except UiParseError:
        return None


def _opened_by(step: Step, scopes: list[ir.ChangeScope], screen: Screen | None) -> bool:
    """Whether the step, taken on ``screen`` (:func:`_screen_of`), was a way in to one of
    ``scopes``: its action taken on a screen that shows an element one of them names (`only
    on`), or a tap that touches one (`only by`). A step without its screen may have been one
    (but for state that changes `nowhere`); a step with no action was none, and neither was a
    report (`status`, `answer`), which touches nothing on the phone."""
    action = step.action
    if action is None or action.action_type in REPORTS:
        return False
    if screen is None:
        return any(s.screens for s in scopes)
    at = (action.index, action.x, action.y)
    return any(opens(s, screen, action.action_type, *at) for s in scopes)


def _way_in(compiled: ir.CompiledTask, clause: ir.Clause, steps: list[Step]) -> int | None:
    """For `A before E` with ``E`` a change event on a collection or setting: the first step
    that was a way in to it (its `changes` lines), before which ``E`` cannot have happened
    (None: no step was, or nothing bounds it: no such line, or it changes by itself)."""
    body = clause.body
    event = body.second if isinstance(body, ir.TraceBody) else None
    if not isinstance(event, ir.ChangeEvent):
        return None
    target = event.target
    if not isinstance(target, (ir.CollectionRef, ir.SettingRef)):
        return None
    app = compiled.apps.get(target.app)
    scopes = change_scopes(compiled.apps).get((target.app, target.name))
    if app is None or not scopes or target.name in app.by_itself:
        return None
    if event.op in ("updated", "changed") and app.loose_fields(target.name):
        return None  # a field that changes by itself updates a record at any step
    return next((s.index for s in steps if _opened_by(s, scopes, _screen_of(s))), None)


def change_scopes(apps: dict[str, ir.AppModel]) -> dict[Key, list[ir.ChangeScope]]:
    """(app, collection or setting) -> where it may change, for each that ``apps`` declare
    with `changes`."""
    return _by_name(apps, "changes")


def removal_scopes(apps: dict[str, ir.AppModel]) -> dict[Key, list[ir.ChangeScope]]:
    """(app, collection) -> where its records may be removed, for each collection that
    ``apps`` declare with `removes`."""
    return _by_name(apps, "removals")


def addition_scopes(apps: dict[str, ir.AppModel]) -> dict[Key, list[ir.ChangeScope]]:
    """(app, collection) -> where records may be added to it, for each collection that
    ``apps`` declare with `adds`."""
    return _by_name(apps, "additions")


def reversal_scopes(apps: dict[str, ir.AppModel]) -> dict[Key, list[ir.ChangeScope]]:
    """(app, collection) -> where an update may bring a record back to what it held earlier,
    for each collection that ``apps`` declare with `undoes`."""
    return _by_name(apps, "reversals")


def _by_name(apps: dict[str, ir.AppModel], lines: str) -> dict[Key, list[ir.ChangeScope]]:
    """(app, name) -> the app models' scopes of kind ``lines`` (``changes``, ``removals``,
    ``additions`` or ``reversals``) that name it."""
    out: dict[Key, list[ir.ChangeScope]] = {}
    for name, model in apps.items():
        for scope in getattr(model, lines):
            for target in scope.names:
                out.setdefault((name, target), []).append(scope)
    return out


def opens(
    scope: ir.ChangeScope,
    screen: Screen,
    kind: str | None,
    index: int | None = None,
    x: float | None = None,
    y: float | None = None,
) -> bool:
    """Whether an action (of ``kind``, at ``index`` or ``x``, ``y``) taken on ``screen`` is a
    way in to the scope's state: on a screen that shows an element one of its selectors
    finds (`only on`), or a tap touching one (`only by`). What cannot be ruled out counts:
    an XPath on a screen recorded without its XML, a tree that does not parse."""
    if scope.by_tap and kind not in TAPS:
        return False
    for selector in scope.screens:
        if screen.xml is None and any(a.attr == "xpath" for a in selector.attrs):
            return True
        try:
            if touches(screen, selector, index, x, y) if scope.by_tap else screen.select(selector):
                return True
        except UiParseError:
            return True
    return False


def unobservable(compiled: ir.CompiledTask, cov: Coverage, steps: bool = False) -> dict[str, str]:
    """Clause id -> why a phone cannot decide it, for each such clause."""
    out = {}
    for c in compiled.task.clauses:
        why = clause_problem(c, compiled, cov, steps)
        if why is not None:
            out[c.id] = why
    return out


def status_ok(task: ir.Task, status: str | None) -> bool:
    if task.outcome == "infeasible":
        return status == "infeasible"
    return status != "infeasible" and (not task.require_status or status == "complete")


@dataclass
class DeviceVerdict:
    """A verdict on a phone: the clause results, and which of them a phone can decide.

    ``verdict`` is the verifier's on the readings; ``inferred`` holds the results of clauses
    the readings before and after the episode decide instead (see
    ``tasklang.verifiers.bracket``), which the verifier, seeing no step change that state,
    cannot."""

    verdict: Verdict
    unobservable: dict[str, str] = field(default_factory=dict)
    status_ok: bool = True
    inferred: dict[str, ClauseResult] = field(default_factory=dict)

    @property
    def clauses(self) -> list[ClauseResult]:
        """The result of every clause: the verifier's, or the one inferred in its place."""
        return [self.inferred.get(r.id, r) for r in self.verdict.clauses]

    @property
    def failed_observable(self) -> list[str]:
        return [r.id for r in self.clauses if not r.passed and r.id not in self.unobservable]

    @property
    def success(self) -> bool | None:
        """True or False when the observable clauses decide it; None when they cannot."""
        if not self.status_ok or self.failed_observable:
            return False
        return True if not self.unobservable else None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "success": self.success,
            "decided": self.success is not None,
            "unobservable": dict(self.unobservable),
            "verdict": _dump(self.verdict),
        }
        if self.inferred:
            data["inferred"] = {k: _dump(r) for k, r in self.inferred.items()}
        return data


def _dump(model: BaseModel) -> dict[str, Any]:
    return model.model_dump(mode="json", exclude_none=True)


def device_verdict(
    compiled: ir.CompiledTask,
    verdict: Verdict,
    cov: Coverage,
    steps: bool = False,
    readings: Readings | None = None,
    taken: list[Step] | None = None,
    first_at: Callable[[ir.Event], int | None] | None = None,
    ep: Episode | None = None,
    final: Coverage | None = None,
) -> DeviceVerdict:
    """The device verdict on a verdict computed from probe readings (``steps``: read after
    every step too; ``readings``: the state read only at the end, read before the episode
    as well; ``taken``: the episode's steps, and ``first_at``: the first step an event the
    trajectory shows happened at, which order some events with the readings; ``ep``: the
    episode as read, whose records some rows showed only in part). ``final``: what the
    reading at the end covers, where a reading along the way got less (``cov``): a check of
    the end state reads that reading alone."""
    hidden = unobservable(compiled, cov, steps)
    if final is not None:  # a check reads the final state alone (``Checker.check_state``)
        for clause in compiled.task.clauses:
            if isinstance(clause.body, ir.CheckBody):
                why = clause_problem(clause, compiled, final, steps)
                if why is None:
                    hidden.pop(clause.id, None)
                else:
                    hidden[clause.id] = why
    inferred = {}
    whole = cov
    for clause in compiled.task.clauses:
        cov = final if final is not None and isinstance(clause.body, ir.CheckBody) else whole
        # what the declarations prove is not left to readings, which may lose records (a
        # listing in part, a reading that failed) as if deleted
        declared = decide_declared(clause, cov)
        if declared is not None:
            inferred[clause.id] = declared
            hidden.pop(clause.id, None)
            continue
        if clause.id not in hidden:
            continue
        result = (
            decide_changed(clause, cov)
            or decide_shown(clause, compiled, cov, ep)
            or decide_held(clause, compiled, cov, ep)
            or decide_seen(clause, compiled, cov, ep, steps)
        )
        if result is None and readings is not None:
            result = decide(
                clause, compiled, cov.at_end, readings, cov.keyed, cov.fields, cov.append_only,
                cov.closed, cov.partly, cov.quiet, cov.one_way,
            )  # fmt: skip
        if result is None and readings is not None and taken is not None and first_at is not None:
            result = decide_order(
                clause, compiled, cov.at_end, readings, _way_in(compiled, clause, taken),
                first_at, cov.fields, cov.append_only,
            )  # fmt: skip
        if result is not None:
            inferred[clause.id] = result
            del hidden[clause.id]
    return DeviceVerdict(verdict, hidden, status_ok(compiled.task, verdict.status), inferred)


# the trace clauses a change the readings show decides, and how: an event seen happened
SEEN_DECIDES = {"eventually": True, "then": True, "never": False, "at_most": False}


def decide_seen(
    clause: ir.Clause, compiled: ir.CompiledTask, cov: Coverage, ep: Episode | None, steps: bool
) -> ClauseResult | None:
    """A trace clause whose change event watches a collection some of whose fields are not
    read (a running timer's time left): a change to those fields would be missed, but one the
    readings after each step show, cut down to the fields read exactly, happened. So where
    they show the event, `eventually E` and `A then E` are true, and `never E` and `at most N
    times E` false (where they do not, the clause stays undecided). The event's condition
    reads only fields read exactly, and the clause's other events are seen as they are. A
    collection whose records have a key (read exactly) decides every kind of change; one
    without decides `changed` alone: a record whose fields read exactly are new is one that
    was added or updated, but which of the two cut-down readings cannot tell."""
    body = clause.body
    if ep is None or not steps or not isinstance(body, ir.TraceBody):
        return None
    if body.op not in SEEN_DECIDES:
        return None
    events = [e for e in (body.first, body.second) if e is not None]
    watched: dict[Key, frozenset[str]] = {}
    during = cov.during()
    for event in events:
        if event_problem(event, cov, steps) is None:
            continue
        if not isinstance(event, ir.ChangeEvent) or not isinstance(event.target, ir.CollectionRef):
            return None
        key = (event.target.app, event.target.name)
        if key not in during.fields or key in cov.unlisted or key in cov.at_end:
            return None
        keyless = key_field_of(compiled, event.target) is None
        if key not in during.keyed and (event.op != "changed" or not keyless):
            return None
        walker = _Reads(during)
        walker.visit(event.where, key)
        if walker.problem is not None:
            return None
        watched[key] = during.fields[key]
    if not watched:
        return None
    cut = _cut_episode(ep, watched)
    first_only = [body.op != "at_most", body.op == "before"][: len(events)]
    passed, summary, evidence = judge_trace(
        body, Monitor(compiled, cut).occurrences(events, first_only)
    )
    if passed is not SEEN_DECIDES[body.op]:
        return None  # not seen: it may have happened unseen
    return ClauseResult(
        id=clause.id, role=clause.role, kind="trace", passed=passed, weight=clause.weight,
        subgoal=clause.subgoal, evidence=evidence, span=clause.span,
        summary=f"{summary} (seen in the fields read exactly)",
    )  # fmt: skip


def _cut_episode(ep: Episode, keep: dict[Key, frozenset[str]]) -> Episode:
    """``ep`` with the records of each collection of ``keep`` cut down to those fields, in the
    world before the episode, after every step and at the end."""

    def cut(state: Any) -> Any:
        if state is None:
            return None
        apps = dict(state.apps)
        for (app, name), fields in keep.items():
            held = apps.get(app)
            if held is None or name not in held.collections:
                continue
            records = [{f: v for f, v in r.items() if f in fields} for r in held.collections[name]]
            collections = {**held.collections, name: records}
            apps[app] = held.model_copy(update={"collections": collections})
        return state.model_copy(update={"apps": apps})

    moments = []
    for m in ep.moments:
        moment = copy.copy(m)
        moment.state = cut(m.state)
        moments.append(moment)
    return dataclasses.replace(ep, initial=cut(ep.initial), moments=moments, final=cut(ep.final))


def decide_held(
    clause: ir.Clause, compiled: ir.CompiledTask, cov: Coverage, ep: Episode | None
) -> ClauseResult | None:
    """``eventually holds P`` (true) and ``never holds P`` (false) where ``P`` holds in the
    state read at the end: the end is the last moment the condition is looked at. Where it
    does not hold there it may have held along the way, unseen (None: not decided)."""
    body = clause.body
    if (
        ep is None
        or ep.final is None
        or not isinstance(body, ir.TraceBody)
        or body.op not in ("eventually", "never")
        or not isinstance(body.first, ir.HoldsEvent)
    ):
        return None
    walker = _Reads(cov.shown())
    walker.visit(body.first.expr, None)
    if walker.problem is not None:
        return None
    env = Env(dict(compiled.apps), ep.params, ep.final, ep.answer, partial=True,
              unlisted=cov.unlisted)  # fmt: skip
    try:
        held = bool(evaluate(body.first.expr, env))
    except (Unknown, EvalError):
        return None
    if not held:
        return None
    seen = Evidence(kind="step", step=len(ep.moments), detail="the condition holds at the end")
    return ClauseResult(
        id=clause.id, role=clause.role, kind="trace", passed=body.op == "eventually",
        weight=clause.weight, subgoal=clause.subgoal, evidence=[seen, *env.evidence[:2]],
        summary="the condition holds in the state read at the end", span=clause.span,
    )  # fmt: skip


def decide_shown(
    clause: ir.Clause, compiled: ir.CompiledTask, cov: Coverage, ep: Episode | None
) -> ClauseResult | None:
    """The result of a state clause that reads fields some records were read without (a
    screen row that does not show them, ``Coverage.partly``), or a collection listed only in
    part (``Coverage.unlisted``), where the records read (and what those not listed are known
    to hold) decide it whatever the rest holds: ``exists`` by a record known to satisfy the
    condition, ``false and ...`` by its known side (None: they do not)."""
    if ep is None or not (cov.partly or cov.unlisted) or not isinstance(clause.body, ir.CheckBody):
        return None
    if clause_problem(clause, compiled, cov.shown()) is not None:
        return None  # it reads state no probe reads at all
    try:
        checker = Checker(compiled, ep, partial=True, unlisted=cov.unlisted)
        passed, summary, evidence = checker.check_state(clause, clause.body)
    except (Unknown, EvalError):
        return None
    return ClauseResult(
        id=clause.id, role=clause.role, kind=clause.body.node, passed=passed,
        weight=clause.weight, subgoal=clause.subgoal, summary=summary, evidence=evidence,
        span=clause.span,
    )  # fmt: skip
