"""Check an episode against a compiled task: one verdict with evidence for every clause.

An episode is a task instance (parameter values, initial state), the steps the agent took
(observation, action, and optionally the world state after the action), the final state,
and the agent's declared status and answer. Trace clauses run as monitors in one pass over
the steps; state clauses read the final state; guards compare it with the initial state.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from tasklang import ir
from tasklang.verifiers.evaluate import Env, EvalError, evaluate
from tasklang.verifiers.snapshot import UIElement, UiParseError, WorldSnapshot
from tasklang.verifiers.state import Change, by_itself, diff_states, initial_state
from tasklang.verifiers.trajectory import Action, Observation, Trajectory
from tasklang.verifiers.ui import Screen, action_target, describe, states_hold
from tasklang.verifiers.verdict import ClauseResult, Evidence, Verdict


class Moment:
    """One step: what was on screen, what the agent did, the state after (if recorded).

    The screen is parsed from the observation the first time a clause looks at it; a UI
    that cannot be parsed is noted and treated as no screen.
    """

    def __init__(
        self,
        index: int,
        screen: Screen | None,
        package: str | None,
        activity: str | None,
        action: Action | None,
        state: WorldSnapshot | None,
        observation: Observation | None = None,
        notes: list[str] | None = None,
    ) -> None:
        self.index, self.package, self.activity = index, package, activity
        self.action, self.state = action, state
        self._screen = screen
        self._observation = observation
        self._notes = notes
        self._folded: str | None = None

    def may_show(self, selector: ir.Selector) -> bool:
        """False only when the raw UI text proves no element can match (no parsing needed).

        Every word of a text or description must occur in the dump (case-folded), and an
        id, class or package value as written; XML escapes make the test inconclusive.
        """
        obs = self._observation
        if obs is None or obs.ui_xml is None:
            return True
        if self._folded is None:
            self._folded = obs.ui_xml.casefold()
        for attr in selector.attrs:
            value = attr.value
            if attr.attr == "xpath" or any(c in value for c in "&<>\"'"):
                continue
            if attr.attr in ("text", "desc"):
                needles = value.casefold().split()
            else:
                needles = [value.rsplit(":id/", 1)[-1].rsplit(".", 1)[-1].casefold()]
            if not all(n in self._folded for n in needles):
                return False
        return True

    @property
    def screen(self) -> Screen | None:
        obs = self._observation
        if obs is not None:
            self._observation = None
            try:
                self._screen = Screen.from_parts(obs.ui_xml, obs.ui_elements)
            except UiParseError as exc:
                if self._notes is not None:
                    self._notes.append(f"step {self.index}: {exc}")
                self._screen = None
        return self._screen


@dataclass
class Episode:
    params: dict[str, Any]
    initial: WorldSnapshot
    moments: list[Moment]
    final: WorldSnapshot | None
    status: str | None
    answer: str | None
    notes: list[str] = field(default_factory=list)
    name: str | None = None


def episode_from_trajectory(
    traj: Trajectory, params: dict[str, Any], initial: WorldSnapshot, notes: list[str]
) -> Episode:
    """The episode a trajectory records (the final state falls back to the last step's)."""
    moments = []
    for step in traj.steps:
        obs = step.observation
        has_ui = obs.ui_xml is not None or obs.ui_elements is not None
        moments.append(
            Moment(
                step.index,
                None,
                obs.package,
                obs.activity,
                step.action,
                step.snapshot,
                obs if has_ui else None,
                notes,
            )
        )
    final = traj.final.snapshot
    if final is None:
        final = next((m.state for m in reversed(moments) if m.state is not None), None)
    return Episode(params, initial, moments, final, traj.status, traj.answer, notes, traj.path)


def final_screen(ep: Episode) -> Screen | None:
    screen = final_screen_of(ep.final)
    if screen is not None:
        return screen
    return next((m.screen for m in reversed(ep.moments) if m.screen is not None), None)


# ---------------------------------------------------------------- events
STATE_EVENTS = (ir.ChangeEvent, ir.HoldsEvent)


@dataclass
class Occurrence:
    """Where an event happened: its step, and its place in time for ordering.

    At step i the screen and the action come first (order 2i); the state the action leads
    to comes after them (order 2i + 1). The end of the episode is step n.
    """

    moment: int
    order: int
    evidence: Evidence


class Monitor:
    """Finds where each event of a task occurs, in one pass over the episode."""

    def __init__(self, compiled: ir.CompiledTask, ep: Episode) -> None:
        self.compiled = compiled
        self.apps = dict(compiled.apps)
        self.ep = ep

    def occurrences(
        self, events: list[ir.Event], first_only: list[bool] | None = None
    ) -> list[list[Occurrence]]:
        """Where each event occurs; with ``first_only[i]``, event i stops at its first."""
        found: list[list[Occurrence]] = [[] for _ in events]
        self.first_only = first_only or [False] * len(events)
        previous = self.ep.initial
        watch = any(isinstance(e, ir.ChangeEvent) for e in events)
        scope = change_scope(events)
        for m in self.ep.moments:
            changes = None
            if watch and m.state is not None:
                changes = diff_states(previous, m.state, self.apps, scope)
            self.record(found, events, m, changes)
            if m.state is not None:
                previous = m.state
        last = self.ep.final
        closing = self.closing_moment()
        changes = None
        if last is not None and last is not previous:
            changes = diff_states(previous, last, self.apps, scope) if watch else None
        else:
            closing.state = None  # nothing new to see in the state at the end
        self.record(found, events, closing, changes)
        return found

    def closing_moment(self) -> Moment:
        final = self.ep.final
        fg = final.foreground if final is not None else None
        return Moment(
            len(self.ep.moments),
            final_screen_of(final),
            fg.package if fg else None,
            fg.activity if fg else None,
            None,
            final,
        )

    def record(
        self,
        found: list[list[Occurrence]],
        events: list[ir.Event],
        m: Moment,
        changes: list[Change] | None,
    ) -> None:
        for slot, event, first in zip(found, events, self.first_only, strict=True):
            if first and slot:
                continue
            late = isinstance(event, STATE_EVENTS)
            order = 2 * m.index + (1 if late else 0)
            for hit in self.match(event, m, changes, m.state):
                slot.append(Occurrence(m.index, order, hit))

    def match(
        self, e: ir.Event, m: Moment, changes: list[Change] | None, state: WorldSnapshot | None
    ) -> list[Evidence]:
        if isinstance(e, ir.ActionEvent):
            return _one(self.match_action(e, m))
        if isinstance(e, ir.ShownEvent):
            hits = safe_select(m.screen, e.selector) if m.may_show(e.selector) else []
            return (
                [
                    Evidence(
                        kind="ui", step=m.index, detail="shown on screen", node=describe(hits[0])
                    )
                ]
                if hits
                else []
            )
        if isinstance(e, ir.ForegroundEvent):
            return _one(self.match_foreground(e, m))
        if isinstance(e, ir.ChangeEvent):
            return self.match_change(e, m, changes)
        if state is None:
            return []
        try:
            held = bool(evaluate(e.expr, Env(self.apps, self.ep.params, state, self.ep.answer)))
        except EvalError:
            return []
        return [Evidence(kind="step", step=m.index, detail="the condition holds")] if held else []

    def match_action(self, e: ir.ActionEvent, m: Moment) -> Evidence | None:
        a = m.action
        if a is None or a.action_type != e.action:
            return None
        if e.on is None:
            return Evidence(kind="step", step=m.index, detail=f"action `{a.action_type}`")
        if not m.may_show(e.on) or m.screen is None:
            return None
        targets = action_target(m.screen, a.index, a.x, a.y)
        wanted = {el.index for el in safe_select(m.screen, e.on)}
        hit = next((t for t in targets if t.index in wanted), None)
        if hit is None:
            return None
        return Evidence(
            kind="ui", step=m.index, node=describe(hit), detail=f"`{a.action_type}` on the element"
        )

    def match_foreground(self, e: ir.ForegroundEvent, m: Moment) -> Evidence | None:
        if not foreground_matches(self.apps.get(e.app), e.activity, m.package, m.activity):
            return None
        return Evidence(
            kind="step", step=m.index, detail=f"{m.package}/{m.activity or '?'} in the foreground"
        )

    def match_change(
        self, e: ir.ChangeEvent, m: Moment, changes: list[Change] | None
    ) -> list[Evidence]:
        out = []
        for c in changes or []:
            if not change_matches(
                e, c, self.apps, self.ep.params, m.state or self.ep.initial, self.ep.answer
            ):
                continue
            record = c.after if c.op != "deleted" else c.before
            out.append(
                Evidence(
                    kind="change",
                    step=m.index,
                    app=c.app,
                    collection=c.name,
                    record=record if isinstance(record, dict) else None,
                    detail=c.describe(),
                )
            )
        return out


def change_scope(events: list[ir.Event]) -> set[tuple[str, str]] | None:
    """The (app, collection or setting) pairs change events watch; None: everything."""
    scope: set[tuple[str, str]] = set()
    for e in events:
        if not isinstance(e, ir.ChangeEvent):
            continue
        if not isinstance(e.target, (ir.CollectionRef, ir.SettingRef)):
            return None
        scope.add((e.target.app, e.target.name))
    return scope


def safe_select(screen: Screen | None, selector: ir.Selector) -> list[UIElement]:
    """Elements matching a selector; a screen an XPath cannot read matches nothing."""
    if screen is None:
        return []
    try:
        return screen.select(selector)
    except UiParseError:
        return []


def _one(evidence: Evidence | None) -> list[Evidence]:
    return [evidence] if evidence is not None else []


def final_screen_of(final: WorldSnapshot | None) -> Screen | None:
    if final is None or not (final.ui_xml or final.ui_elements):
        return None
    try:
        return Screen.from_parts(final.ui_xml, final.ui_elements)
    except UiParseError:
        return None


def foreground_matches(
    app: ir.AppModel | None, activity: str | None, package: str | None, current: str | None
) -> bool:
    """Whether the observed package and activity are the app's (and the named activity).

    Activities compare as full class names: `.Settings` is `<package>.Settings`; a bare
    class name such as `Settings` matches the last part of the name.
    """
    if app is None or package is None or package != app.package:
        return False
    if activity is None:
        return True
    if current is None:
        return False
    observed = _full_activity(current, package)
    wanted = _full_activity(activity, package)
    if "." not in activity and "/" not in activity:
        return observed.rsplit(".", 1)[-1] == activity
    return observed == wanted


def _full_activity(name: str, package: str) -> str:
    owner, _, cls = name.rpartition("/")
    cls = cls or name
    base = owner or package
    return base + cls if cls.startswith(".") else cls


def change_matches(
    e: ir.ChangeEvent,
    c: Change,
    apps: dict[str, ir.AppModel],
    params: dict[str, Any],
    state: WorldSnapshot,
    answer: str | None,
) -> bool:
    if e.target is None:  # a change anywhere: not one that happens by itself
        return (e.op == "changed" or c.op == e.op) and not by_itself(apps, c)
    if c.op != e.op and e.op != "changed":
        return False
    target = e.target
    if isinstance(target, (ir.CollectionRef, ir.SettingRef)) and (target.app, target.name) != (
        c.app,
        c.name,
    ):
        return False
    if e.where is None:
        return True
    record = c.after if c.op != "deleted" else c.before
    if not isinstance(record, dict):
        return False
    try:
        return bool(evaluate(e.where, Env(apps, params, state, answer, record)))
    except EvalError:
        return False


# ---------------------------------------------------------------- clauses
TRACE_TEXT = {
    "eventually": "happened", "never": "never happened", "before": "came first",
    "then": "followed", "at_most": "stayed within its limit",
}  # fmt: skip


def reads_state(expr: Any) -> bool:
    """Whether an expression reads app state or the clock (not only the answer and params)."""
    return mentions(expr, (ir.CollectionRef, ir.SettingRef, ir.Now))


def mentions(expr: Any, kinds: tuple[type, ...]) -> bool:
    """Whether an IR subtree holds a node of one of ``kinds``."""
    return any(isinstance(n, kinds) for n in ir.walk(expr))


def judge_trace(
    body: ir.TraceBody, occ: list[list[Occurrence]]
) -> tuple[bool, str, list[Evidence]]:
    """Decide a trace clause from where its events occurred."""
    first = occ[0]
    if body.op == "eventually":
        return (
            bool(first),
            "the event happened" if first else "the event never happened",
            [first[0].evidence] if first else [],
        )
    if body.op == "never":
        if first:
            return False, f"the event happened at step {first[0].moment}", [first[0].evidence]
        return True, "the event never happened", []
    if body.op == "at_most":
        limit = body.times or 0
        ok = len(first) <= limit
        evidence = [o.evidence for o in first[limit : limit + 3]] if not ok else []
        return ok, f"the event happened {len(first)} time(s), at most {limit} allowed", evidence
    second = occ[1]
    if body.op == "before":
        if not second:
            return False, "the later event never happened", []
        b = second[0]
        a = next((o for o in first if o.order < b.order), None)
        if a is None:
            return False, f"nothing required came before step {b.moment}", [b.evidence]
        return True, f"step {a.moment} came before step {b.moment}", [a.evidence, b.evidence]
    if not first:
        return False, "the first event never happened", []
    start = first[0]
    after = next((o for o in second if o.order > start.order), None)
    if after is None:
        return False, f"nothing followed step {start.moment}", [start.evidence]
    return (
        True,
        f"step {after.moment} followed step {start.moment}",
        [start.evidence, after.evidence],
    )


@dataclass
class Plan:
    """What a task's clauses need, worked out once per compiled task."""

    events: list[ir.Event]
    first_only: list[bool]  # whether only the first occurrence of an event matters
    slots: dict[str, tuple[int, int]]  # trace clause id -> its events in ``events``
    reads_state: dict[str, bool]  # check clause id -> whether it reads app state
    mentions_answer: dict[str, bool]


_PLANS: dict[int, tuple[ir.CompiledTask, Plan]] = {}


def plan_of(compiled: ir.CompiledTask) -> Plan:
    """The (cached) plan of a compiled task."""
    cached = _PLANS.get(id(compiled))
    if cached is not None and cached[0] is compiled:
        return cached[1]
    events: list[ir.Event] = []
    slots: dict[str, tuple[int, int]] = {}
    reads: dict[str, bool] = {}
    answers: dict[str, bool] = {}
    first_only: list[bool] = []
    for c in compiled.task.clauses:
        if isinstance(c.body, ir.TraceBody):
            start = len(events)
            events.append(c.body.first)
            # `at most` counts every occurrence and `then` looks past the first of its
            # second event; every other use needs only an event's first occurrence
            first_only.append(c.body.op != "at_most")
            if c.body.second is not None:
                events.append(c.body.second)
                first_only.append(c.body.op == "before")
            slots[c.id] = (start, len(events))
        elif isinstance(c.body, ir.CheckBody):
            reads[c.id] = reads_state(c.body.expr)
            answers[c.id] = mentions(c.body.expr, (ir.AnswerRef,))
    plan = Plan(events, first_only, slots, reads, answers)
    if len(_PLANS) > 4096:
        _PLANS.clear()
    _PLANS[id(compiled)] = (compiled, plan)
    return plan


class Checker:
    """Checks one episode of one compiled task."""

    def __init__(
        self,
        compiled: ir.CompiledTask,
        ep: Episode,
        partial: bool = False,
        unlisted: dict[tuple[str, str], dict[str, Any]] | None = None,
    ) -> None:
        self.compiled = compiled
        self.task = compiled.task
        self.apps = dict(compiled.apps)
        self.ep = ep
        self.partial = partial  # a field a record lacks was not read (see ``Env.partial``)
        self.unlisted = dict(unlisted or {})  # records not read (see ``Env.unlisted``)

    def run(self) -> Verdict:
        plan = plan_of(self.compiled)
        found = Monitor(self.compiled, self.ep).occurrences(plan.events, plan.first_only)
        per_clause = {cid: found[a:b] for cid, (a, b) in plan.slots.items()}
        results = [self.clause(c, per_clause.get(c.id)) for c in self.task.clauses]
        return self.verdict(results)

    def clause(self, c: ir.Clause, occ: list[list[Occurrence]] | None) -> ClauseResult:
        body = c.body
        evidence: list[Evidence] = []
        try:
            if isinstance(body, ir.TraceBody):
                assert occ is not None
                passed, summary, evidence = judge_trace(body, occ)
            elif isinstance(body, ir.CheckBody):
                passed, summary, evidence = self.check_state(c, body)
            elif isinstance(body, (ir.UnchangedBody, ir.OnlyChangedBody)):
                passed, summary, evidence = self.guard(body)
            else:
                passed, summary, evidence = self.ui(body)
        except (EvalError, UiParseError) as exc:
            passed, summary = False, str(exc)
            evidence = [Evidence(kind="missing", detail=str(exc))]
        return ClauseResult(
            id=c.id,
            role=c.role,
            kind=body.node,
            passed=passed,
            weight=c.weight,
            subgoal=c.subgoal,
            summary=summary,
            evidence=evidence,
            span=c.span,
        )

    def final_state(self) -> WorldSnapshot:
        if self.ep.final is None:
            raise EvalError("the episode recorded no final state")
        return self.ep.final

    def check_state(
        self, clause: ir.Clause, body: ir.CheckBody
    ) -> tuple[bool, str, list[Evidence]]:
        plan = plan_of(self.compiled)
        reads = plan.reads_state.get(clause.id, True)
        state = self.final_state() if reads else (self.ep.final or WorldSnapshot())
        env = Env(self.apps, self.ep.params, state, self.ep.answer, partial=self.partial,
                  unlisted=self.unlisted)  # fmt: skip
        passed = bool(evaluate(body.expr, env))
        expr = body.expr
        if isinstance(expr, ir.Compare) and not isinstance(expr.left, ir.AnswerRef):
            left, right = evaluate(expr.left, env), evaluate(expr.right, env)
            env.evidence.append(
                Evidence(kind="value", detail=f"found {left!r}, compared {expr.op} {right!r}")
            )
        if plan.mentions_answer.get(clause.id, False):
            env.evidence.append(Evidence(kind="value", detail=f"answer: {self.ep.answer!r}"))
        summary = "holds in the final state" if passed else "does not hold in the final state"
        return passed, summary, env.evidence

    def guard(
        self, body: ir.UnchangedBody | ir.OnlyChangedBody
    ) -> tuple[bool, str, list[Evidence]]:
        changes = diff_states(self.ep.initial, self.final_state(), self.apps)
        members = {
            (t.app, t.name)
            for t in body.targets
            if isinstance(t, (ir.CollectionRef, ir.SettingRef))
        }
        apps = set(body.apps)

        def covered(ch: Change) -> bool:
            return ch.app in apps or (ch.app, ch.name) in members

        # what the guard names is watched whole; what it watches as part of an app, or as
        # all the rest, is not watched where it changes by itself
        bad = [
            ch for ch in changes
            if covered(ch) == isinstance(body, ir.UnchangedBody)
            and ((ch.app, ch.name) in members or not by_itself(self.apps, ch))
        ]  # fmt: skip
        evidence = [
            Evidence(
                kind="change",
                app=ch.app,
                collection=ch.name,
                record=(ch.after if ch.op != "deleted" else ch.before)
                if ch.op != "changed"
                else None,
                detail=ch.describe(),
            )
            for ch in bad[:20]
        ]
        if not bad:
            return True, "no change outside what the task allows", []
        return False, f"{len(bad)} change(s) the task does not allow", evidence

    def ui(self, body: ir.ClauseBody) -> tuple[bool, str, list[Evidence]]:
        if isinstance(body, ir.UiForegroundBody):
            final = self.ep.final.foreground if self.ep.final is not None else None
            last = self.ep.moments[-1] if self.ep.moments else None
            package = final.package if final else (last.package if last else None)
            activity = final.activity if final else (last.activity if last else None)
            ok = foreground_matches(self.apps.get(body.app), body.activity, package, activity)
            return (
                ok,
                f"foreground at the end: {package or '?'} {activity or ''}".strip(),
                [Evidence(kind="value", detail=f"package={package} activity={activity}")],
            )
        assert isinstance(body, ir.UiElementBody)
        screen = final_screen(self.ep)
        if screen is None:
            raise EvalError("the episode recorded no final screen")
        hits = [e for e in screen.select(body.selector) if states_hold(e, body.states)]
        evidence = [
            Evidence(kind="ui", detail="matching element", node=describe(e)) for e in hits[:3]
        ]
        if body.present:
            return (
                bool(hits),
                "the element is on the final screen"
                if hits
                else "no such element on the final screen",
                evidence,
            )
        return (
            not hits,
            "the element is absent" if not hits else "the element is on the final screen",
            evidence,
        )

    def verdict(self, results: list[ClauseResult]) -> Verdict:
        task = self.task
        scored = [r for r in results if r.role != "safety"]
        subgoal_weight = {s.name: s.weight for s in task.subgoals}
        total = earned = 0.0
        for r in scored:
            w = r.weight * (subgoal_weight.get(r.subgoal, 1.0) if r.subgoal else 1.0)
            total += w
            earned += w if r.passed else 0.0
        violations = [r.id for r in results if r.role == "safety" and not r.passed]
        status = self.ep.status
        notes = list(self.ep.notes)
        expected: str | None = None
        if task.outcome == "infeasible":
            status_ok = status == "infeasible"
            expected = "infeasible"
        else:
            expected = "complete" if task.require_status else None
            status_ok = status != "infeasible" and (not task.require_status or status == "complete")
        if not status_ok:
            notes.append(f"declared status {status!r}; the task needs {expected or 'complete'!r}")
        success = status_ok and not violations and all(r.passed for r in scored)
        score = earned / total if total else (1.0 if success else 0.0)
        if violations or not status_ok:
            score = 0.0
        return Verdict(
            task=task.id,
            trajectory=self.ep.name,
            success=success,
            score=round(score, 6),
            status=status,
            expected_status=expected,
            clauses=results,
            safety_violations=violations,
            notes=notes,
        )


def check_episode(compiled: ir.CompiledTask, ep: Episode) -> Verdict:
    """The verdict on one episode."""
    return Checker(compiled, ep).run()


class InstanceError(ValueError):
    """A trajectory that does not fit the task (another task's header, bad parameters).

    ``line`` is the trajectory line at fault: the header, unless said otherwise.
    """

    def __init__(self, message: str, line: int | None = 1) -> None:
        super().__init__(message)
        self.line = line


def resolve_params(
    compiled: ir.CompiledTask, given: dict[str, Any], initial: WorldSnapshot
) -> dict[str, Any]:
    """Parameter values; a record parameter may be given by its key (or any field) value."""
    out = dict(given)
    for p in compiled.task.params:
        value = out.get(p.name)
        if not isinstance(p.domain, ir.RecordDomain) or value is None or isinstance(value, dict):
            continue
        source = p.domain.source
        if not isinstance(source, ir.CollectionRef):
            continue
        records = initial.app(source.app).collections.get(source.name, [])
        match = next((r for r in records if value in r.values()), None)
        if match is None:
            raise InstanceError(
                f"parameter `{p.name}`: no record of {source.app}.{source.name} "
                f"has the value {value!r}"
            )
        out[p.name] = match
    return out


_JSON_KINDS: dict[str, tuple[type, ...]] = {
    "text": (str,), "phone": (str,), "email": (str,), "file": (str,), "enum": (str,),
    "date": (str,), "time": (str,), "datetime": (str,), "int": (int,), "duration": (int,),
    "money": (int,), "number": (int, float), "bool": (bool,), "list": (list,),
    "record": (dict, str, int, float),
}  # fmt: skip


def validate_params(compiled: ir.CompiledTask, values: dict[str, Any]) -> None:
    """Each given parameter value has its declared type's JSON form (raises InstanceError)."""
    for p in compiled.task.params:
        if p.name not in values or p.type is None:
            continue
        value = values[p.name]
        kinds = _JSON_KINDS.get(p.type.name)
        wrong = kinds is not None and (
            not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds)
        )
        if wrong:
            raise InstanceError(
                f"parameter `{p.name}` must be {p.type} (as JSON), not {json.dumps(value)[:60]}"
            )
        if p.type.name == "enum" and value not in (p.type.members or ()):
            raise InstanceError(f"parameter `{p.name}` must be one of {p.type.members}")


def check_trajectory(
    compiled: ir.CompiledTask,
    traj: Trajectory,
    params: dict[str, Any] | None = None,
    initial_override: WorldSnapshot | None = None,
) -> Verdict:
    """Check a recorded trajectory.

    ``params`` override the header's instance parameters; ``initial_override`` replaces
    the header's initial state (used with an instance drawn from a seed).
    """
    if traj.header.task.id != compiled.task.id:
        raise InstanceError(
            f"the trajectory is for task `{traj.header.task.id}`, not `{compiled.task.id}`"
        )
    values = {**traj.header.instance.params, **(params or {})}
    validate_params(compiled, values)
    notes: list[str] = []
    initial = initial_override or traj.header.instance.initial
    if initial is None:
        try:
            initial, notes = initial_state(compiled, values)
        except EvalError as exc:
            raise InstanceError(str(exc)) from None
    missing = [p.name for p in compiled.task.params if p.name not in values]
    if missing:
        notes.append("no value for parameter(s) " + ", ".join(f"`{m}`" for m in missing))
    values = resolve_params(compiled, values, initial)
    return check_episode(compiled, episode_from_trajectory(traj, values, initial, notes))
