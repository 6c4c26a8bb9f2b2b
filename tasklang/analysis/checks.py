"""The analyses: each asks z3 one question about a task and turns the answer into findings.

- constraints that cannot be met (TL2010), with the clauses of the unsatisfiable core;
- a goal that no final state can meet (TL2011);
- a goal already met by doing nothing, for some instance (TL2012);
- `expect` and `forbid` that cannot both hold (TL2013);
- an answer that the goal text does not determine (TL2014);
- a solver call that ran out of time (TL2019).

Unsatisfiable answers are proofs (the encoding over-approximates). A satisfying model is a
candidate: it is decoded into a task instance and replayed through the verifier, and only
a confirmed candidate becomes a finding, with the instance as its counterexample.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import z3

from tasklang import ir
from tasklang.analysis.encode import DAY, Encoder, Sym, Unsupported, conj, from_seconds, tname
from tasklang.analysis.world import (
    Answer,
    Key,
    ParamVar,
    Slot,
    Space,
    SymEval,
    World,
    build_space,
    decode_generator,
    record_def,
)
from tasklang.generators import GENERATORS
from tasklang.source import Span
from tasklang.verifiers.check import Episode, Moment, check_episode
from tasklang.verifiers.evaluate import Env, EvalError, evaluate
from tasklang.verifiers.snapshot import WorldSnapshot
from tasklang.verifiers.trajectory import Action

DEFAULT_TIMEOUT_MS = 5000
RETRIES = 4


@dataclass
class Options:
    timeout_ms: int = DEFAULT_TIMEOUT_MS
    retries: int = RETRIES


@dataclass
class Finding:
    code: str
    message: str
    span: Span | None
    help: str | None = None
    notes: list[str] = field(default_factory=list)
    counterexample: dict[str, Any] | None = None


@dataclass
class Stats:
    """What the analyses did, for tests and benchmarks."""

    queries: int = 0
    candidates: int = 0
    confirmed: int = 0
    refuted_exact: list[str] = field(default_factory=list)  # exact predictions the verifier refuted
    predictions: list[tuple[str, bool, bool]] = field(
        default_factory=list
    )  # (check, exact, agreed)


class Analysis:
    def __init__(self, compiled: ir.CompiledTask, options: Options | None = None) -> None:
        self.compiled = compiled
        self.task = compiled.task
        self.apps = dict(compiled.apps)
        self.options = options or Options()
        self.findings: list[Finding] = []
        self.stats = Stats()
        self._space: tuple[Encoder, Space, bool, list[str]] | None = None

    # ------------------------------------------------------------ plumbing
    def solver(self, enc: Encoder) -> z3.Solver:
        s = z3.Solver()
        s.set("timeout", self.options.timeout_ms)
        s.set("random_seed", 0)
        s.add(*enc.side)
        return s

    def check(self, s: z3.Solver, what: str) -> Any:
        self.stats.queries += 1
        result = s.check()
        if result == z3.unknown:
            self.findings.append(
                Finding(
                    "TL2019",
                    f"the solver gave up on {what} ({s.reason_unknown()})",
                    self.task.span,
                    help="raise the limit with `--timeout MS`, or simplify the task",
                )
            )
        return result

    def space(self) -> tuple[Encoder, Space]:
        """The task's instance space, encoded once and shared by the single-copy checks.

        Each check starts from the exactness of the space itself, not of earlier checks.
        """
        if self._space is None:
            enc = Encoder(self.apps)
            self._space = (enc, build_space(self.compiled, enc), enc.exact, list(enc.inexact))
        enc, space, exact, inexact = self._space
        enc.exact, enc.inexact = exact, list(inexact)
        return enc, space

    def run(self) -> list[Finding]:
        try:
            if not self.instance_space_ok():
                return self.findings
            self.goal_reachable()
            if not self.task.verify_only and self.task.outcome == "complete":
                self.vacuous()
            self.answer_unique()
        except (Unsupported, z3.Z3Exception) as exc:
            self.findings.append(
                Finding(
                    "TL2019",
                    f"the analysis does not cover this task: {exc}",
                    self.task.span,
                    help="the task still compiles; these checks were skipped",
                )
            )
        return self.findings

    # ------------------------------------------------------------ TL2010
    def instance_space_ok(self) -> bool:
        enc, space = self.space()
        s = self.solver(enc)
        for label, formula, _node, _what in space.tracked:
            s.assert_and_track(formula, label)
        result = self.check(s, "the parameters and constraints")
        if result != z3.unsat:
            return bool(result == z3.sat)
        core = {str(c) for c in s.unsat_core()}
        parts = [t for t in space.tracked if t[0] in core]
        spans = [t[2].span for t in parts if t[2] is not None and t[2].span is not None]
        first = next(
            (t for t in parts if t[0].startswith("constraint:")), parts[0] if parts else None
        )
        notes = [f"{what}{_at(node)}" for _l, _f, node, what in parts]
        self.findings.append(
            Finding(
                "TL2010",
                "no instance of the task meets its constraints",
                first[2].span
                if first and first[2] is not None
                else (spans[0] if spans else self.task.span),
                help="these clauses cannot all hold together; relax one of them",
                notes=["the conflict: " + "; ".join(notes)] if notes else [],
            )
        )
        return False

    # ------------------------------------------------------------ TL2011, TL2013
    def goal_reachable(self) -> None:
        enc, space = self.space()
        final = final_world(space, enc, witnesses(self.task))
        answer = Answer(enc, z3.Bool(enc.name("answer.null")))
        ev = SymEval(enc, space.values, final, answer)
        rel = Relations(enc, space, final)
        goal = [(c, clause_in_final(c, ev, rel)) for c in self.task.clauses if c.role != "safety"]
        safety = [(c, clause_in_final(c, ev, rel)) for c in self.task.clauses if c.role == "safety"]
        s = self.solver(enc)
        s.add(*[f for _l, f, _n, _w in space.tracked])
        for c, term in goal:
            s.assert_and_track(term, f"clause:{c.id}")
        result = self.check(s, "whether the goal can hold")
        if result == z3.unsat:
            clauses = self.core_clauses(s)
            self.findings.append(
                Finding(
                    "TL2011",
                    "no final state meets the goal, for any instance",
                    clauses[0].span if clauses else self.task.span,
                    help="these clauses contradict each other (or the app model's types)",
                    notes=[f"conflicting clause{_at(c)}" for c in clauses],
                )
            )
            return
        if result != z3.sat or not safety:
            return
        for c, term in safety:
            s.assert_and_track(term, f"clause:{c.id}")
        if self.check(s, "whether `expect` and `forbid` agree") == z3.unsat:
            clauses = self.core_clauses(s)
            forbid = [c for c in clauses if c.role == "safety"]
            expect = [c for c in clauses if c.role != "safety"]
            self.findings.append(
                Finding(
                    "TL2013",
                    "`expect` needs what `forbid` rules out",
                    (forbid or clauses)[0].span if (forbid or clauses) else self.task.span,
                    help="no episode can succeed without a safety violation",
                    notes=[f"expected{_at(c)}" for c in expect]
                    + [f"forbidden{_at(c)}" for c in forbid],
                )
            )

    def core_clauses(self, s: z3.Solver) -> list[ir.Clause]:
        core = {str(c) for c in s.unsat_core()}
        return [c for c in self.task.clauses if f"clause:{c.id}" in core]

    # ------------------------------------------------------------ TL2012
    def vacuous(self) -> None:
        enc, space = self.space()
        ev = SymEval(enc, space.values, space.world, None)
        terms = [
            do_nothing(c, ev, space.world, self.compiled)
            for c in self.task.clauses
            if c.role != "safety"
        ]
        s = self.solver(enc)
        s.add(*[f for _l, f, _n, _w in space.tracked], *terms)
        for _ in range(self.options.retries):
            result = self.check(s, "whether doing nothing succeeds")
            if result != z3.sat:
                return
            self.stats.candidates += 1
            model = s.model()
            params = decode(model, space, self.compiled)
            instance = build_instance(self.compiled, params, space, model)
            verdict = None if instance is None else replay_do_nothing(self.compiled, *instance)
            agreed = verdict is not None and verdict.success
            self.stats.predictions.append(("vacuous", enc.exact, agreed))
            if agreed and instance is not None:
                self.stats.confirmed += 1
                values, state = instance
                self.findings.append(
                    Finding(
                        "TL2012",
                        "the goal already holds at the start: doing nothing succeeds",
                        self.task.goal.span or self.task.span,
                        help="change `given` so the goal is not already met, or mark the task `verify_only`",
                        notes=[
                            "counterexample: " + show_params(values),
                            "its initial state: " + show_state(state, self.compiled),
                            "replayed through the verifier: a trajectory with no action passes",
                        ],
                        counterexample=counterexample(values, state, "success", None),
                    )
                )
                return
            if enc.exact:
                self.stats.refuted_exact.append(f"vacuous {params}")
            s.add(block(model, space))

    # ------------------------------------------------------------ TL2014
    def answer_unique(self) -> None:
        target = answer_clause(self.task)
        if target is None:
            return
        clause, expected = target
        enc = Encoder(self.apps)
        a = build_space(self.compiled, enc, "a:")
        b = build_space(self.compiled, enc, "b:")
        s = self.solver(enc)
        side_before = len(enc.side)
        s.add(*[f for _l, f, _n, _w in a.tracked], *[f for _l, f, _n, _w in b.tracked])
        s.add(same_world(enc, a.world, b.world))
        ev_a = SymEval(enc, a.values, a.world)
        ev_b = SymEval(enc, b.values, b.world)
        for part in self.task.goal.parts:
            if part.expr is not None:
                x, y = ev_a.expr(part.expr), ev_b.expr(part.expr)
                s.add(enc.equal(x, y, tname(part.expr.type), None, True, False))
        want_a, want_b = ev_a.expr(expected), ev_b.expr(expected)
        common = tname(expected.type)
        # the answers differ beyond the clause's tolerance (an answer right for A is then
        # wrong for B: with `within W`, that takes more than W between them)
        compare = clause.body.expr if isinstance(clause.body, ir.CheckBody) else None
        within = None
        if isinstance(compare, ir.Compare) and compare.within is not None:
            within = ev_a.expr(compare.within)
        s.add(z3.Not(enc.equal(want_a, want_b, common, within, True, False)))
        s.add(*enc.side[side_before:])  # what evaluating the goal and answer required
        for _ in range(self.options.retries):
            result = self.check(s, "whether the answer is unique")
            if result != z3.sat:
                return
            self.stats.candidates += 1
            model = s.model()
            pa, pb = decode(model, a, self.compiled), decode(model, b, self.compiled)
            confirmed = confirm_ambiguous(self.compiled, clause, expected, pa, pb, a, b, model)
            self.stats.predictions.append(("answer", enc.exact, confirmed is not None))
            if confirmed is not None:
                self.stats.confirmed += 1
                values_a, values_b, state, answer = confirmed
                self.findings.append(
                    Finding(
                        "TL2014",
                        "the answer is not unique: two instances read the same but expect different answers",
                        clause.span or self.task.span,
                        help="make the goal text identify what it asks about (interpolate the parameter that decides it)",
                        notes=[
                            "instance A: " + show_params(values_a),
                            "instance B: " + show_params(values_b),
                            "their initial state: " + show_state(state, self.compiled),
                            f"the answer {answer!r} passes A and fails B (replayed through the verifier)",
                        ],
                        counterexample={
                            **counterexample(values_b, state, "failure", answer),
                            "other_params": jsonable(values_a),
                        },
                    )
                )
                return
            if enc.exact:
                self.stats.refuted_exact.append(f"answer {pa} {pb}")
            s.add(z3.Or(block(model, a), block(model, b)))


# ---------------------------------------------------------------- final worlds
def witnesses(task: ir.Task) -> int:
    """How many new records a final state may need: one per `exists`, k per `count == k`."""
    n = 1
    for node in ir.walk(task.clauses):
        if isinstance(node, ir.Quant) and node.quantifier == "exists":
            n += 1
        if isinstance(node, ir.Compare):
            for side in (node.left, node.right):
                if (
                    isinstance(side, ir.Lit)
                    and isinstance(side.value, int)
                    and not isinstance(side.value, bool)
                ):
                    other = node.right if side is node.left else node.left
                    if isinstance(other, ir.Count):
                        n += abs(side.value) + 1
    return min(n, 12)


def final_world(space: Space, enc: Encoder, extra: int) -> World:
    """A world after any episode: every field unknown, records kept or gone, some added."""
    compiled = space.compiled
    final = World(clock=space.world.clock)
    for key, slots in space.world.collections.items():
        rdef = record_def(compiled, key)
        fields = rdef.fields if rdef else []
        out = []
        for j, s in enumerate(slots):
            kept = z3.Bool(enc.name(f"kept.{key[1]}{j}"))
            rec = {f.name: enc.fresh(f.type, f"final.{key[1]}{j}.{f.name}") for f in fields}
            out.append(Slot(z3.And(s.present, kept), rec, s.origin, s.op))
        for j in range(extra):
            rec = {f.name: enc.fresh(f.type, f"new.{key[1]}{j}.{f.name}") for f in fields}
            out.append(Slot(z3.Bool(enc.name(f"new.{key[1]}{j}")), rec, "new"))
        final.collections[key] = out
    for name, app in compiled.apps.items():
        for st in app.settings:
            final.settings[(name, st.name)] = enc.fresh(
                st.type.model_copy(update={"optional": True}), f"final.{name}.{st.name}"
            )
    return final


class Relations:
    """How a final world relates to the initial one (what `unchanged` and `forbid` need)."""

    def __init__(self, enc: Encoder, space: Space, final: World) -> None:
        self.enc = enc
        self.space = space
        self.initial = space.world
        self.final = final

    def same_rec(self, a: dict[str, Sym], b: dict[str, Sym]) -> Any:
        enc = self.enc
        return conj(enc.equal(a[n], b[n], a[n].type, None, True, False) for n in a if n in b)

    def key_same(self, key: Key, a: dict[str, Sym], b: dict[str, Sym]) -> Any:
        """Whether a record kept its identity (its key field; any record without a key)."""
        rdef = record_def(self.space.compiled, key)
        field = next((f.name for f in rdef.fields if f.key), None) if rdef else None
        if field is None or field not in a or field not in b:
            return z3.BoolVal(True)
        return self.enc.equal(a[field], b[field], a[field].type, None, True, False)

    def pairs(self, key: Key) -> tuple[list[tuple[Slot, Slot]], list[Slot]]:
        before, after = self.initial.collections.get(key, []), self.final.collections.get(key, [])
        return list(zip(before, after[: len(before)], strict=True)), after[len(before) :]

    def where(self, e: ir.Expr | None, rec: dict[str, Sym], world: World) -> Any:
        if e is None:
            return z3.BoolVal(True)
        return SymEval(self.enc, self.space.values, world).truth(e, rec)

    def unchanged(self, key: Key) -> Any:
        pairs, new = self.pairs(key)
        kept = conj(
            z3.Implies(b.present, z3.And(a.present, self.same_rec(b.rec, a.rec))) for b, a in pairs
        )
        return z3.And(kept, conj(z3.Not(n.present) for n in new))

    def setting_unchanged(self, key: Key) -> Any:
        before = self.initial.settings.get(key)
        after = self.final.settings.get(key)
        if after is None:
            return z3.BoolVal(True)
        if before is None:
            before = self.enc.const(None, None)
        return self.enc.equal(before, after, after.type, None, True, False)

    def never(self, e: ir.ChangeEvent) -> Any:
        """What holds at the end of an episode in which the change never happened."""
        keys = self.targets(e.target)
        out = []
        for key in keys:
            if key in self.final.settings and key not in self.final.collections:
                if e.op in ("changed", "updated"):
                    out.append(self.setting_unchanged(key))
                continue
            pairs, new = self.pairs(key)
            if e.op in ("deleted", "changed"):
                out += [
                    z3.Implies(
                        z3.And(b.present, self.where(e.where, b.rec, self.initial)),
                        z3.And(a.present, self.key_same(key, b.rec, a.rec)),
                    )
                    for b, a in pairs
                ]
            if e.op in ("added", "changed"):
                out += [
                    z3.Not(z3.And(n.present, self.where(e.where, n.rec, self.final))) for n in new
                ]
                out += [
                    z3.Implies(
                        z3.And(a.present, self.where(e.where, a.rec, self.final)),
                        self.key_same(key, b.rec, a.rec),
                    )
                    for b, a in pairs
                ]
            if e.op in ("updated", "changed"):
                out += [
                    z3.Implies(
                        z3.And(a.present, self.where(e.where, a.rec, self.final)),
                        self.same_rec(b.rec, a.rec),
                    )
                    for b, a in pairs
                ]
        return conj(out)

    def targets(self, target: ir.Expr | None) -> list[Key]:
        if target is None:
            return [*self.final.collections, *self.final.settings]
        if isinstance(target, (ir.CollectionRef, ir.SettingRef)):
            return [(target.app, target.name)]
        return []

    def everything(self) -> list[Key]:
        return [*self.final.collections, *self.final.settings]

    def keep(self, key: Key) -> Any:
        if key in self.final.collections:
            return self.unchanged(key)
        return self.setting_unchanged(key)


def clause_in_final(c: ir.Clause, ev: SymEval, rel: Relations) -> Any:
    """What a clause says of the final world (free where it speaks of the episode or screen)."""
    body = c.body
    if isinstance(body, ir.CheckBody):
        return ev.truth(body.expr)
    if isinstance(body, (ir.UnchangedBody, ir.OnlyChangedBody)):
        named = {
            (t.app, t.name)
            for t in body.targets
            if isinstance(t, (ir.CollectionRef, ir.SettingRef))
        }
        covered = {k for k in rel.everything() if k in named or k[0] in body.apps}
        keys = covered if isinstance(body, ir.UnchangedBody) else set(rel.everything()) - covered
        return conj(rel.keep(k) for k in sorted(keys))
    if (
        isinstance(body, ir.TraceBody)
        and body.op == "never"
        and isinstance(body.first, ir.ChangeEvent)
    ):
        return rel.never(body.first)
    return z3.BoolVal(True)


# ---------------------------------------------------------------- doing nothing
def do_nothing(c: ir.Clause, ev: SymEval, world: World, compiled: ir.CompiledTask) -> Any:
    """Whether a clause passes on an episode with no action (one screen, no changes).

    The episode has no recorded screen, so UI element clauses do not hold.
    """
    body = c.body
    enc = ev.enc
    if isinstance(body, ir.CheckBody):
        return ev.truth(body.expr)
    if isinstance(body, (ir.UnchangedBody, ir.OnlyChangedBody)):
        return z3.BoolVal(True)
    if isinstance(body, ir.UiElementBody):
        return z3.BoolVal(False)
    if isinstance(body, ir.UiForegroundBody):
        if body.activity is not None:
            return enc.opaque_bool("the activity at the start").term
        return z3.BoolVal(world.foreground == body.app)
    assert isinstance(body, ir.TraceBody)
    first = event_at_start(body.first, ev, world, enc)
    if body.op == "eventually":
        return first
    if body.op == "never":
        return z3.Not(first)
    if body.op == "at_most":
        if (body.times or 0) >= 2:
            return z3.BoolVal(True)
        if (body.times or 0) == 0:
            return z3.Not(first)
        return enc.opaque_bool("how often an event occurs in one step").term
    second = event_at_start(body.second, ev, world, enc) if body.second else z3.BoolVal(False)
    return z3.And(first, second, enc.opaque_bool("the order of events in one step").term)


def event_at_start(e: ir.Event, ev: SymEval, world: World, enc: Encoder) -> Any:
    if isinstance(e, ir.HoldsEvent):
        return ev.truth(e.expr)
    if isinstance(e, ir.ForegroundEvent):
        if e.activity is not None:
            return enc.opaque_bool("the activity at the start").term
        return z3.BoolVal(world.foreground == e.app)
    return z3.BoolVal(False)  # no action, no change, no screen


def replay_do_nothing(
    compiled: ir.CompiledTask, params: dict[str, Any], state: WorldSnapshot
) -> Any:
    """The verdict on an episode that declares the task complete without doing anything."""
    fg = state.foreground
    moment = Moment(
        0, None, fg.package if fg else None, fg.activity if fg else None,
        Action(action_type="status", goal_status="complete"), state, None, [],
    )  # fmt: skip
    return check_episode(compiled, Episode(params, state, [moment], state, "complete", None))


def replay_answer(
    compiled: ir.CompiledTask, params: dict[str, Any], state: WorldSnapshot, answer: str
) -> Any:
    fg = state.foreground
    moment = Moment(
        0, None, fg.package if fg else None, fg.activity if fg else None,
        Action(action_type="answer", text=answer), state, None, [],
    )  # fmt: skip
    return check_episode(compiled, Episode(params, state, [moment], state, "complete", answer))


# ---------------------------------------------------------------- models to instances
def decode(model: z3.ModelRef, space: Space, compiled: ir.CompiledTask) -> dict[str, Any]:
    """Parameter values from a model (record parameters as ``("#slot", position)``)."""
    out: dict[str, Any] = {}
    for name, pv in space.params.items():
        d = pv.decl.domain
        if isinstance(d, ir.RecordDomain):
            out[name] = ("#slot", model.eval(pv.index, model_completion=True).as_long())
        elif isinstance(d, ir.ChoiceDomain):
            i = model.eval(pv.index, model_completion=True).as_long()
            try:
                out[name] = evaluate(d.values[i], Env(dict(compiled.apps), out, WorldSnapshot()))
            except EvalError:
                out[name] = None
        elif isinstance(d, ir.GeneratorDomain):
            value = decode_generator(model, pv, d.generator)
            if value is None:
                value = GENERATORS[d.generator](random.Random(f"{compiled.task.id}#{name}"))
            out[name] = value
        else:
            out[name] = decode_value(model, pv, pv.decl.type_name or tname(pv.decl.type))
    return out


def decode_value(model: z3.ModelRef, pv: ParamVar, type_name: str) -> Any:
    term = model.eval(pv.value.term, model_completion=True)
    if pv.value.sort == "real":
        frac = term.as_fraction()
        return round(float(frac.numerator) / float(frac.denominator), 2)
    if pv.value.sort != "int":
        return None
    n = term.as_long()
    if type_name in ("date", "time", "datetime"):
        return from_seconds(n if type_name != "date" else n - n % DAY, type_name)
    return n


def build_instance(
    compiled: ir.CompiledTask, params: dict[str, Any], space: Space, model: z3.ModelRef
) -> tuple[dict[str, Any], WorldSnapshot] | None:
    """The concrete instance a model describes, built as the sampler builds one: the explicit
    records first, record parameters picked from them by position, then the whole state with
    its noise records. None when it cannot be built or misses a constraint."""
    from tasklang.noise import NoiseError
    from tasklang.verifiers.state import build_state

    plain = {k: v for k, v in params.items() if not (isinstance(v, tuple) and v[:1] == ("#slot",))}
    values = dict(plain)
    chosen: list[tuple[str, dict[str, Any]]] = []
    try:
        explicit = build_state(compiled, plain, None, strict=False).snapshot
        for name, v in params.items():
            if name in plain:
                continue
            key = space.params[name].collection
            slots = space.world.collections.get(key, []) if key else []
            if key is None or not (0 <= v[1] < len(slots)) or slots[v[1]].origin != "given":
                return None
            position = sum(1 for s in slots[: v[1]] if s.origin == "given")
            records = explicit.app(key[0]).collections.get(key[1], [])
            if position >= len(records):
                return None
            values[name] = records[position]
            chosen.append((name, records[position]))
        rng = random.Random(f"lint#{compiled.task.id}")
        state = build_state(compiled, values, rng, exempt=[r for _n, r in chosen]).snapshot
    except (EvalError, NoiseError, ValueError):
        return None
    for name, record in chosen:
        key = space.params[name].collection
        assert key is not None
        if record not in state.app(key[0]).collections.get(key[1], []):
            return None
    env = Env(dict(compiled.apps), values, state)
    try:
        if not all(evaluate(c, env) for c in compiled.task.constraints):
            return None
    except EvalError:
        return None
    return values, state


def block(model: z3.ModelRef, space: Space) -> Any:
    """A formula ruling out this model's parameter choice."""
    same = []
    for pv in space.params.values():
        for x in [pv.index, *pv.parts] if (pv.index is not None or pv.parts) else [pv.value.term]:
            if x is not None and not isinstance(x, tuple):
                same.append(x == model.eval(x, model_completion=True))
    return z3.Not(conj(same))


def same_world(enc: Encoder, a: World, b: World) -> Any:
    out = []
    for key, slots in a.collections.items():
        for x, y in zip(slots, b.collections.get(key, []), strict=False):
            out.append(x.present == y.present)
            out += [
                enc.equal(x.rec[n], y.rec[n], x.rec[n].type, None, True, False)
                for n in x.rec
                if n in y.rec
            ]
    for key, value in a.settings.items():
        other = b.settings.get(key)
        if other is not None:
            out.append(enc.equal(value, other, value.type, None, True, False))
    return conj(out)


# ---------------------------------------------------------------- answers
def answer_clause(task: ir.Task) -> tuple[ir.Clause, ir.Expr] | None:
    """The first goal clause `answer OP E` (or `E OP answer`), with E."""
    for c in task.clauses:
        body = c.body
        if c.role != "goal" or not isinstance(body, ir.CheckBody):
            continue
        e = body.expr
        if isinstance(e, ir.Compare) and e.op in ("==", "~"):
            if isinstance(e.left, ir.AnswerRef) and not any(
                isinstance(n, ir.AnswerRef) for n in ir.walk(e.right)
            ):
                return c, e.right
            if isinstance(e.right, ir.AnswerRef) and not any(
                isinstance(n, ir.AnswerRef) for n in ir.walk(e.left)
            ):
                return c, e.left
    return None


def answer_text(value: Any, type_name: str) -> str:
    """How a person would type a value as an answer."""
    if type_name == "money" and isinstance(value, int):
        return f"{value / 100:.2f}"
    if type_name == "duration" and isinstance(value, (int, float)):
        return f"{int(value)} seconds"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def confirm_ambiguous(
    compiled: ir.CompiledTask,
    clause: ir.Clause,
    expected: ir.Expr,
    pa: dict[str, Any],
    pb: dict[str, Any],
    a: Space,
    b: Space,
    model: z3.ModelRef,
) -> tuple[dict[str, Any], dict[str, Any], WorldSnapshot, str] | None:
    from tasklang.sampling import render_goal

    ia = build_instance(compiled, pa, a, model)
    ib = build_instance(compiled, pb, b, model)
    if ia is None or ib is None:
        return None
    (va, sa), (vb, sb) = ia, ib
    if sa.model_dump() != sb.model_dump():
        return None
    if render_goal(compiled.task, va) != render_goal(compiled.task, vb):
        return None
    try:
        value = evaluate(expected, Env(dict(compiled.apps), va, sa))
    except EvalError:
        return None
    answer = answer_text(value, tname(expected.type))
    ok_a = _clause_passed(replay_answer(compiled, va, sa, answer), clause.id)
    ok_b = _clause_passed(replay_answer(compiled, vb, sa, answer), clause.id)
    return (va, vb, sa, answer) if ok_a and not ok_b else None


def _clause_passed(verdict: Any, cid: str) -> bool:
    return any(r.id == cid and r.passed for r in verdict.clauses)


# ---------------------------------------------------------------- presentation
def jsonable(values: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in values.items()}


def show_params(values: dict[str, Any]) -> str:
    if not values:
        return "(no parameters)"
    parts = []
    for k, v in values.items():
        if isinstance(v, dict):
            shown = next(
                (f"{f}={v[f]!r}" for f in ("name", "title", "label", "id") if v.get(f)), None
            )
            parts.append(f"{k} = record({shown or '...'})")
        else:
            parts.append(f"{k} = {v!r}")
    return ", ".join(parts)


def show_state(state: WorldSnapshot, compiled: ir.CompiledTask, limit: int = 240) -> str:
    """A one-line summary: settings that differ from their defaults, collection sizes."""
    parts = []
    for name, app in sorted(state.apps.items()):
        model = compiled.apps.get(name)
        defaults = {s.name: s.default for s in model.settings} if model else {}
        for key, value in sorted(app.settings.items()):
            if key not in defaults or defaults[key] != value:
                parts.append(f"{name}.{key} = {value!r}")
        for key, records in sorted(app.collections.items()):
            if records:
                parts.append(f"{name}.{key}: {len(records)} record(s)")
    text = "; ".join(parts) or "the apps' defaults"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def counterexample(
    values: dict[str, Any], state: WorldSnapshot, predicted: str, answer: str | None
) -> dict[str, Any]:
    return {
        "params": jsonable(values),
        "initial": state.model_dump(mode="json", exclude_none=True),
        "trajectory": {
            "actions": [] if answer is None else [{"action_type": "answer", "text": answer}],
            "status": "complete",
        },
        "predicted": predicted,
    }


def _at(node: Any) -> str:
    span = getattr(node, "span", None)
    return f" (line {span.line})" if span is not None and span.line else ""


def analyze(
    compiled: ir.CompiledTask, options: Options | None = None
) -> tuple[list[Finding], Stats]:
    """Run every analysis on one compiled task."""
    analysis = Analysis(compiled, options)
    return analysis.run(), analysis.stats


def all_clauses(task: ir.Task) -> Iterable[ir.Clause]:
    return iter(task.clauses)
