"""How close a PhoneWorld state comes to what a task asks, for the solver (``solver``).

The task's state clauses (``expect`` checks on the apps' data and on the answer,
``unchanged`` / ``only ... changed`` guards) are evaluated on a world snapshot with the
verifier's own code, cached per world state: whether they all hold (the verifier cannot
accept a state otherwise) and the share of the verifier's weight they earn. A candidate answer
is first compared, with the verifier's comparators, to the value each answer clause computes
(once per world state). Partial credit measures what the clauses do not: of a clause that asks
for a record with several properties (``C has {...}``), the largest share of them one record
meets; of a clause that counts records two or more away from what it asks (``none C where
P``, ``count(...) == n``), how far the count has come. A state is *lost* where a record that a
``forbid { deleted C where P }`` protects is gone, or one a ``forbid { updated ... }`` protects
differs: the change happened on the way, and no later step undoes a forbidden event.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tasklang import ir
from tasklang.verifiers.check import (
    Checker,
    change_matches,
    change_scope,
    mentions,
    plan_of,
    resolve_params,
)
from tasklang.verifiers.check import Episode as Checked
from tasklang.verifiers.evaluate import (
    Env,
    EvalError,
    collection,
    compare_values,
    evaluate,
    item_type_name,
    type_name,
)
from tasklang.verifiers.snapshot import WorldSnapshot
from tasklang.verifiers.state import diff_states

Key = tuple[str, ...]  # a world state's content (see ``Solver.data_key``)
World = Callable[[], WorldSnapshot]  # the world of the state being judged


def needs_answer(compiled: ir.CompiledTask) -> bool:
    return any(
        getattr(node, "node", None) == "answer"
        for node in ir.walk([compiled.task.clauses, compiled.task.subgoals])
    )


def yes_no_answer(compiled: ir.CompiledTask) -> bool:
    """Whether the task's answer is compared with a truth value (a yes / no question)."""
    for node in ir.walk([compiled.task.clauses]):
        if isinstance(node, ir.Compare):
            sides = (node.left, node.right)
            if any(isinstance(x, ir.AnswerRef) for x in sides) and any(
                x.type is not None and x.type.name == "bool" for x in sides
            ):
                return True
    return False


def answer_comparisons(clauses: list[ir.Clause]) -> list[tuple[ir.Compare, bool]] | None:
    """For clauses that compare the answer with a value (``answer == sum(...)``): each
    comparison, and whether the answer is its left side; None if one reads it otherwise."""
    out = []
    for c in clauses:
        e = c.body.expr if isinstance(c.body, ir.CheckBody) else None
        if not isinstance(e, ir.Compare):
            return None
        sides = [isinstance(x, ir.AnswerRef) for x in (e.left, e.right)]
        other = e.right if sides[0] else e.left
        if sides.count(True) != 1 or mentions(other, (ir.AnswerRef,)):
            return None
        if e.within is not None and mentions(e.within, (ir.AnswerRef,)):
            return None
        out.append((e, sides[0]))
    return out


def count_clauses(
    compiled: ir.CompiledTask,
) -> list[tuple[ir.Clause, ir.Expr, ir.Expr | float]]:
    """The goal clauses that count records: ``none C where P`` (a count of 0 asked for)
    and ``count(...) == n``, with the count and what it should be."""
    out: list[tuple[ir.Clause, ir.Expr, ir.Expr | float]] = []
    for c in compiled.task.clauses:
        e = c.body.expr if c.role == "goal" and isinstance(c.body, ir.CheckBody) else None
        if isinstance(e, ir.Quant) and e.quantifier == "none":
            out.append((c, ir.Count(source=e.source, where=e.where), 0.0))
        elif isinstance(e, ir.Compare) and e.op == "==":
            if isinstance(e.left, ir.Count) and not mentions(e.right, (ir.AnswerRef,)):
                out.append((c, e.left, e.right))
            elif isinstance(e.right, ir.Count) and not mentions(e.left, (ir.AnswerRef,)):
                out.append((c, e.right, e.left))
    return out


def mean(weighted: list[tuple[float, float]]) -> float:
    """The mean of (weight, value) pairs (0 for none)."""
    total = sum(weight for weight, _ in weighted)
    return sum(weight * value for weight, value in weighted) / total if total else 0.0


def conjuncts(e: ir.Expr) -> list[ir.Expr]:
    if isinstance(e, ir.Logic) and e.op == "and":
        return conjuncts(e.left) + conjuncts(e.right)
    return [e]


def record_clauses(compiled: ir.CompiledTask) -> list[tuple[ir.Clause, ir.Quant]]:
    """The goal clauses that ask for a record with several properties (``C has {...}``)."""
    out = []
    for c in compiled.task.clauses:
        e = c.body.expr if c.role == "goal" and isinstance(c.body, ir.CheckBody) else None
        if (
            isinstance(e, ir.Quant)
            and e.quantifier == "exists"
            and e.where is not None
            and len(conjuncts(e.where)) >= 2
        ):
            out.append((c, e))
    return out


class Judge:
    """Judges world states against one task instance's clauses."""

    def __init__(
        self, compiled: ir.CompiledTask, params: dict[str, Any], initial: WorldSnapshot
    ) -> None:
        self.compiled = compiled
        self.apps = dict(compiled.apps)
        self.initial = initial
        self.params = resolve_params(compiled, params, initial)
        plan = plan_of(compiled)
        # the clauses a world state alone decides (each must hold for the verifier to accept)
        self.state_clauses = [
            c for c in compiled.task.clauses
            if isinstance(c.body, (ir.UnchangedBody, ir.OnlyChangedBody, ir.CheckBody))
        ]  # fmt: skip
        self.answer_clauses = {c.id for c in self.state_clauses if plan.mentions_answer.get(c.id)}
        self.answer_sides = answer_comparisons(
            [c for c in self.state_clauses if c.id in self.answer_clauses]
        )
        self.total_weight = (
            self.weight([c for c in compiled.task.clauses if c.role != "safety"]) or 1.0
        )
        self.record_goals = record_clauses(compiled)
        self._assessed: dict[tuple[Any, ...], tuple[bool, float]] = {}
        self._partial: dict[Key, tuple[float, float]] = {}
        self._answer_values: dict[Key, list[tuple[Any, Any]] | None] = {}
        self._lost: dict[Key, bool] = {}
        self._milestones: dict[Key, int] = {}
        # the clauses of each subgoal a world state alone decides (see ``milestones``)
        named = {s.name for s in compiled.task.subgoals}
        parts: dict[str, list[ir.Clause]] = {}
        for c in compiled.task.clauses:
            if c.subgoal in named:
                parts.setdefault(c.subgoal, []).append(c)
        state = {id(c) for c in self.state_clauses}
        self.milestone_clauses = [cs for cs in parts.values() if all(id(c) in state for c in cs)]
        self._could: dict[tuple[Key, str], bool] = {}
        self.protected = [
            c.body.first for c in compiled.task.clauses
            if c.role == "safety" and isinstance(c.body, ir.TraceBody) and c.body.op == "never"
            and isinstance(c.body.first, ir.ChangeEvent)
            and c.body.first.op in ("deleted", "updated")
        ]  # fmt: skip
        self.protected_scope = change_scope(list(self.protected))
        self.count_goals()

    def weight(self, clauses: list[ir.Clause]) -> float:
        """The verifier's weight of some clauses (a subgoal's weight included)."""
        subgoal = {s.name: s.weight for s in self.compiled.task.subgoals}
        return sum(c.weight * (subgoal.get(c.subgoal, 1.0) if c.subgoal else 1.0)
                   for c in clauses)  # fmt: skip

    def partial(self, key: Key, world: World) -> tuple[float, float]:
        """How close the state is to what the goal asks for: the mean, by the clauses'
        weights, of the shares below, in (0, 1), and that of the clauses that count several
        records down (deletions, one by one) alone.
        For a clause that asks for a record with several properties, the largest share of
        them one record meets; for one that counts records (``none C where P``,
        ``count(...) == n``), how far the count has come from where it started to what is
        asked."""
        if not self.record_goals and not self.counts:
            return 0.0, 0.0
        cached = self._partial.get(key)
        if cached is not None:
            return cached
        env = Env(self.apps, self.params, world())
        shares = [(self.weight([c]), self.met(q, env)) for c, q in self.record_goals]
        # a record the goal asks for that is further from it than at the start (the note
        # to move deleted, the name to fix overwritten) counts as far from it as it moved
        shares = [
            (w, share - (start - share if share < start else 0.0))
            for (w, share), start in zip(shares, self.record_starts, strict=True)
        ]  # fmt: skip
        down = []  # the clauses that count records down (deleted)
        for c, count, wanted, start in self.counts:
            try:
                now = float(evaluate(count, env))
            except (EvalError, TypeError, ValueError):
                continue
            share = (self.weight([c]), max(0.0, 1 - abs(now - wanted) / abs(start - wanted)))
            shares.append(share)
            if wanted < start:  # records to delete one by one: a step the path repeats
                down.append(share)
        value = self._partial[key] = (mean(shares), mean(down))
        return value

    @staticmethod
    def met(q: ir.Quant, env: Env) -> float:
        """The largest share of a ``has {...}`` clause's conditions one record meets."""
        parts = conjuncts(q.where) if q.where is not None else []
        best = 0.0
        for record in collection(env, q.source):
            inner = env.with_record(record)
            met = 0
            for part in parts:
                try:
                    met += bool(evaluate(part, inner))
                except EvalError:
                    continue
            best = max(best, met / len(parts))
        return best

    def count_goals(self) -> None:
        """The goal's clauses that count records, with the count they ask for and the one
        the task starts from (only those that are two or more records away); and how far
        the records the goal asks for are met at the start."""
        env = Env(self.apps, self.params, self.initial)
        self.record_starts = [self.met(q, env) for _, q in self.record_goals]
        self.counts: list[tuple[ir.Clause, ir.Expr, float, float]] = []
        for c, count, wanted in count_clauses(self.compiled):
            try:
                start = float(evaluate(count, env))
                target = wanted if isinstance(wanted, float) else float(evaluate(wanted, env))
            except (EvalError, TypeError, ValueError):
                continue
            # one record to go or come is all or nothing: the clause's own share says it
            if abs(start - target) >= 2:
                self.counts.append((c, count, target, start))

    def lost(self, key: Key, world: World) -> bool:
        """Whether the state has deleted or changed a record that a ``forbid { deleted ...
        }`` or ``forbid { updated ... }`` clause protects: one of the start's records that the
        clause's condition picks is gone, or differs from the start. The verifier rejects
        every episode that goes on from here (but for one whose record changed on the way in
        a way the condition reads differently; the search gives up that rare path)."""
        if not self.protected:
            return False
        cached = self._lost.get(key)
        if cached is None:
            now = world()
            changes = diff_states(self.initial, now, self.apps, self.protected_scope)
            cached = self._lost[key] = any(
                change.op in ("deleted", "updated")
                and change_matches(e, change, self.apps, self.params, self.initial, None)
                for change in changes
                for e in self.protected
            )
        return cached

    def assess(self, key: Key, world: World, answer: str | None = None) -> tuple[bool, float]:
        """The state clauses on the current world (with this answer): whether they all hold
        (the verifier cannot accept the state otherwise), and the share of the verifier's
        weight they earn (less one if a ``forbid`` check fails)."""
        memo = (key, answer if self.answer_clauses else None)
        cached = self._assessed.get(memo)
        if cached is not None:
            return cached
        checked = Checked(self.params, self.initial, [], world(), self.compiled.task.outcome,
                          answer)  # fmt: skip
        checker = Checker(self.compiled, checked)
        ok, earned, violated = True, [], False
        for c in self.state_clauses:
            passed = checker.clause(c, None).passed
            ok = ok and passed
            if passed and c.role != "safety":
                earned.append(c)
            violated = violated or (c.role == "safety" and not passed)
        share = self.weight(earned) / self.total_weight - (1.0 if violated else 0.0)
        self._assessed[memo] = (ok, share)
        return ok, share

    def milestones(self, key: Key, world: World) -> int:
        """How many of the task's subgoals the current world meets: those whose clauses are
        all state clauses and all hold (a subgoal with a trace clause is never counted)."""
        cached = self._milestones.get(key)
        if cached is not None:
            return cached
        checker = None
        met = 0
        for clauses in self.milestone_clauses:
            if checker is None:
                checked = Checked(self.params, self.initial, [], world(),
                                  self.compiled.task.outcome, None)  # fmt: skip
                checker = Checker(self.compiled, checked)
            met += all(checker.clause(c, None).passed for c in clauses)
        self._milestones[key] = met
        return met

    def could_be(self, key: Key, world: World, answer: str) -> bool:
        """Whether an answer could pass the clauses that compare the answer with a value of
        the world (each such value computed once per world state, and compared with the
        verifier's own comparators); True where a clause reads the answer otherwise."""
        if self.answer_sides is None:
            return True
        # the same texts are offered as answers on state after state of the same data
        known = self._could.get((key, answer))
        if known is not None:
            return known
        values = self._answer_values.get(key)
        if values is None:
            values = self._answer_values[key] = self.answer_values(world)
        fits = values is None or all(
            self._compares(e, answer_left, answer, other, within)
            for (e, answer_left), (other, within) in zip(self.answer_sides, values, strict=True)
        )
        self._could[(key, answer)] = fits
        return fits

    @staticmethod
    def _compares(e: ir.Compare, answer_left: bool, answer: str, other: Any, within: Any) -> bool:
        left, right = (answer, other) if answer_left else (other, answer)
        return compare_values(
            e.op, left, type_name(e.left), right, type_name(e.right), within, e.fuzzy,
            e.unordered, e.exact, item_type_name(e.left), item_type_name(e.right),
        )  # fmt: skip

    def answer_values(self, world: World) -> list[tuple[Any, Any]] | None:
        """The other side (and tolerance) of each comparison with the answer, on the current
        world; None if one cannot be evaluated."""
        assert self.answer_sides is not None
        env = Env(self.apps, self.params, world())
        out = []
        try:
            for e, answer_left in self.answer_sides:
                other = evaluate(e.right if answer_left else e.left, env)
                out.append((other, evaluate(e.within, env) if e.within is not None else None))
        except EvalError:
            return None
        return out
