"""Symbolic worlds and the symbolic evaluation of expressions over them.

An instance space is the task's parameters (one z3 variable each, with its domain), the
initial world that ``given`` builds from them (noise records are slots with unknown fields,
constrained by their ``where`` and by the guarantees the noise generator gives), and, for
questions about what an agent could reach, a final world whose every field is unknown.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import z3

from tasklang import generators as gen
from tasklang import ir
from tasklang.analysis.encode import (
    DAY,
    EMAIL,
    PERSON,
    STREET,
    Encoder,
    Sym,
    Unsupported,
    and_,
    conj,
    disj,
    not_,
    tname,
    truth,
)
from tasklang.passes.typecheck import dependency_order
from tasklang.verifiers import compare as cmp

Key = tuple[str, str]


@dataclass
class Slot:
    """One record position of a collection: whether it is there, and its fields."""

    present: Any
    rec: dict[str, Sym]
    origin: str  # given | noise | new
    op: int | None = None  # the index of the `given` op that made it


@dataclass
class World:
    collections: dict[Key, list[Slot]] = field(default_factory=dict)
    settings: dict[Key, Sym] = field(default_factory=dict)
    clock: Sym | None = None
    foreground: str | None = None


@dataclass
class ParamVar:
    """A parameter's value, and what decodes it from a model."""

    decl: ir.ParamDecl
    value: Sym
    index: Any = None  # choice / record parameters: the chosen position
    parts: list[Any] = field(default_factory=list)  # generator parameters: the chosen pieces
    candidates: list[int] = field(default_factory=list)  # record parameters: slot positions
    collection: Key | None = None


@dataclass
class Answer:
    """The agent's answer, seen as each type it is compared under; ``null`` when not given."""

    enc: Encoder
    null: Any
    views: dict[str, Sym] = field(default_factory=dict)

    def view(self, sort: str, type_name: str) -> Sym:
        if sort not in self.views:
            t = ir.Type(name=type_name if type_name != "any" else "text")
            sym = self.enc.fresh(t, f"answer.{sort}", nullable=False)
            sym.null = self.null
            self.views[sort] = sym
        return self.views[sort]


class SymEval:
    """Evaluates IR expressions to :class:`Sym` values in a symbolic world."""

    def __init__(
        self,
        enc: Encoder,
        params: dict[str, Sym],
        world: World,
        answer: Answer | None = None,
    ) -> None:
        self.enc = enc
        self.params = params
        self.world = world
        self.answer = answer

    def truth(self, e: ir.Expr, record: dict[str, Sym] | None = None) -> Any:
        return truth(self.expr(e, record))

    def expr(self, e: ir.Expr, record: dict[str, Sym] | None = None) -> Sym:
        enc = self.enc
        if isinstance(e, ir.Lit):
            return enc.const(e.value, e.type)
        if isinstance(e, ir.Param):
            if e.name not in self.params:
                raise Unsupported(f"parameter `{e.name}` has no value yet")
            return self.params[e.name]
        if isinstance(e, ir.FieldRef):
            base = record if e.base is None else self.expr(e.base, record).fields
            if base is None:
                return enc.const(None, e.type)
            if isinstance(base, dict) and e.name in base:
                return base[e.name]
            return enc.const(None, e.type)
        if isinstance(e, ir.SettingRef):
            return self.world.settings.get((e.app, e.name)) or enc.const(None, e.type)
        if isinstance(e, ir.Now):
            if self.world.clock is None:
                enc.approximate("`now` without a clock")
                return enc.fresh(ir.Type(name="datetime"), "now")
            return self.world.clock
        if isinstance(e, ir.AnswerRef):
            if self.answer is None:
                return enc.const(None, e.type)
            return self.answer.view("str", "text")
        if isinstance(e, ir.Neg):
            v = self.expr(e.operand, record)
            if v.sort not in ("int", "real"):
                return enc.fresh(e.type, "neg")
            return Sym(v.sort, -v.term, v.null, type=v.type)
        if isinstance(e, ir.Arith):
            a, b = self.expr(e.left, record), self.expr(e.right, record)
            return enc.arith(e.op, a, b, tname(e.left.type), tname(e.right.type), tname(e.type))
        if isinstance(e, ir.Compare):
            return Sym("bool", self.compare(e, record), type="bool")
        if isinstance(e, ir.Logic):
            left, right = self.truth(e.left, record), self.truth(e.right, record)
            if e.op == "and":
                term = and_(left, right)
            elif e.op == "or":
                term = disj([left, right])
            else:
                term = disj([not_(left), right])
            return Sym("bool", term, type="bool")
        if isinstance(e, ir.Not):
            return Sym("bool", not_(self.truth(e.operand, record)), type="bool")
        if isinstance(e, (ir.Quant, ir.Count, ir.Aggregate)):
            return self.over_collection(e, record)
        if isinstance(e, ir.ListExpr):
            items = [self.expr(i, record) for i in e.items]
            if all(i.concrete for i in items):
                return enc.const([i.py for i in items], e.type)
            if e.type is not None and e.type.item is not None and e.type.item.members:
                members = tuple(e.type.item.members)
                bits = tuple(
                    disj(
                        z3.And(z3.Not(i.null), i.term == enc.texts.id(m, "enum"))
                        for i in items
                        if i.sort == "str"
                    )
                    for m in members
                )
                return Sym("set", bits, members=members, type="list")
            enc.approximate("a list of unknown values")
            return Sym("opaque", type="list")
        if isinstance(e, ir.RecordExpr):
            return Sym(
                "rec", fields={f.name: self.expr(f.value, record) for f in e.fields}, type="record"
            )
        if isinstance(e, ir.CollectionRef):
            enc.approximate("a collection used as a value")
            return Sym("opaque", type="list")
        raise Unsupported(f"`{e.node}` nodes")

    def compare(self, e: ir.Compare, record: dict[str, Sym] | None) -> Any:
        lt, rt = tname(e.left.type), tname(e.right.type)
        common = cmp.common_type(lt, rt)
        left = self._side(e.left, common, record)
        right = self._side(e.right, common, record)
        within = self.expr(e.within, record) if e.within is not None else None
        l_item = e.left.type.item.name if e.left.type and e.left.type.item else "any"
        r_item = e.right.type.item.name if e.right.type and e.right.type.item else "any"
        lists = (lt == "list" or rt == "list") and (left.sort != "set" or right.sort != "set")
        if lists and not (left.concrete and right.concrete):
            return self.enc.opaque_bool("a comparison of lists").term
        return self.enc.compare(
            e.op, left, right, common, within, e.fuzzy, e.unordered, e.exact, l_item, r_item
        )

    def _side(self, e: ir.Expr, common: str, record: dict[str, Sym] | None) -> Sym:
        if isinstance(e, ir.AnswerRef):
            if self.answer is None:
                return self.enc.const(None, None)
            sort = {"money": "int", "int": "real", "number": "real", "duration": "real"}.get(common)
            if common in ("date", "time", "datetime", "bool", "phone", "list"):
                self.enc.approximate(f"an answer read as {common}")
                sym = self.enc.fresh(ir.Type(name=common), "answer." + common, nullable=False)
                sym.null = self.answer.null
                return sym
            return self.answer.view(sort or "str", common if sort else "text")
        return self.expr(e, record)

    def slots(self, source: ir.Expr) -> list[Slot]:
        if not isinstance(source, ir.CollectionRef):
            raise Unsupported("a quantifier over something other than a collection")
        return self.world.collections.get((source.app, source.name), [])

    def over_collection(
        self, e: ir.Quant | ir.Count | ir.Aggregate, record: dict[str, Sym] | None
    ) -> Sym:
        # A quantifier's value depends on its world and the parameters it names, never on an
        # outer record in scope: share it between evaluations (record domains evaluate the
        # same nested `max(...)` once per candidate otherwise).
        refs = self.enc.refs(e)
        key = (id(e), id(self.world), tuple(id(self.params.get(n)) for n in refs))
        memo = self.enc.memo.get(key)
        if memo is not None:
            return memo[1]
        value = self._over_collection(e, record)
        self.enc.memo[key] = (e, value, self.world, [self.params.get(n) for n in refs])
        return value

    def _over_collection(
        self, e: ir.Quant | ir.Count | ir.Aggregate, record: dict[str, Sym] | None
    ) -> Sym:
        enc = self.enc
        try:
            slots = self.slots(e.source)
        except Unsupported:
            enc.approximate("a quantifier over a list value")
            return enc.fresh(e.type, "quant")
        hits = [
            and_(s.present, self.truth(e.where, s.rec) if e.where is not None else z3.BoolVal(True))
            for s in slots
        ]
        if isinstance(e, ir.Quant):
            if e.quantifier == "exists":
                return Sym("bool", disj(hits), type="bool")
            if e.quantifier == "none":
                return Sym("bool", z3.Not(disj(hits)), type="bool")
            ok = [
                z3.Implies(
                    s.present,
                    self.truth(e.where, s.rec) if e.where is not None else z3.BoolVal(True),
                )
                for s in slots
            ]
            return Sym("bool", conj(ok), type="bool")
        if isinstance(e, ir.Count):
            return Sym(
                "int", z3.Sum([z3.If(h, 1, 0) for h in hits]) if hits else z3.IntVal(0), type="int"
            )
        values = [s.rec.get(e.field) or enc.const(None, e.type) for s in slots]
        numeric = [v for v in values if v.sort in ("int", "real")]
        if len(numeric) != len(values):
            enc.approximate("an aggregate over values the encoder does not model")
            return enc.fresh(e.type, "aggregate")
        real = any(v.sort == "real" for v in values) or e.fn == "avg"

        def term(v: Sym) -> Any:
            return z3.ToReal(v.term) if real and v.sort == "int" else v.term

        zero = z3.RealVal(0) if real else z3.IntVal(0)
        used = [z3.And(h, z3.Not(v.null)) for h, v in zip(hits, values, strict=True)]
        total = (
            z3.Sum([z3.If(u, term(v), zero) for u, v in zip(used, values, strict=True)])
            if used
            else zero
        )
        if e.fn == "sum":
            return Sym("real" if real else "int", total, type=tname(e.type))
        any_used = disj(used)
        if e.fn == "avg":
            n = z3.Sum([z3.If(u, 1, 0) for u in used]) if used else z3.IntVal(0)
            return Sym("real", total / z3.ToReal(n), z3.Not(any_used), type=tname(e.type))
        best = enc.fresh(ir.Type(name=tname(e.type)), e.fn, nullable=False)
        if best.sort not in ("int", "real"):
            return enc.fresh(e.type, "aggregate")

        def better(x: Any, y: Any) -> Any:
            return x <= y if e.fn == "min" else x >= y

        enc.side.append(
            z3.Implies(
                any_used,
                z3.And(
                    disj(
                        z3.And(u, best.term == term(v)) for u, v in zip(used, values, strict=True)
                    ),
                    conj(
                        z3.Implies(u, better(best.term, term(v)))
                        for u, v in zip(used, values, strict=True)
                    ),
                ),
            )
        )
        best.null = z3.Not(any_used)
        return best


# ---------------------------------------------------------------- instance space
FINITE_GENERATORS: dict[str, tuple[str, ...]] = {
    "first_name": gen.FIRST, "last_name": gen.LAST, "city": gen.CITIES,
    "company_name": gen.COMPANIES, "word": gen.WORDS, "sentence": gen.SENTENCES,
}  # fmt: skip


def choose(enc: Encoder, options: tuple[str, ...], hint: str) -> tuple[Any, Any, list[Any]]:
    """An index variable over ``options`` and the identity of the text it picks."""
    index = z3.Int(enc.name(hint))
    term: Any = z3.IntVal(enc.texts.id(options[-1]))
    for i in range(len(options) - 2, -1, -1):
        term = z3.If(index == i, z3.IntVal(enc.texts.id(options[i])), term)
    return index, term, [index >= 0, index < len(options)]


def generator_param(enc: Encoder, p: ir.ParamDecl, g: str) -> tuple[ParamVar, list[Any]]:
    """A generator parameter: its pieces as variables, its value as their combination."""
    if g in FINITE_GENERATORS:
        index, term, dom = choose(enc, FINITE_GENERATORS[g], p.name)
        return ParamVar(p, Sym("str", term, type="text"), parts=[index]), dom
    if g in ("person_name", "email_address"):
        fi, li = z3.Int(enc.name(p.name + ".first")), z3.Int(enc.name(p.name + ".last"))
        fd = [fi >= 0, fi < len(gen.FIRST), li >= 0, li < len(gen.LAST)]
        base = PERSON if g == "person_name" else EMAIL
        term = base + fi * 100 + li
        return ParamVar(p, Sym("str", term, type="text"), parts=[fi, li]), fd
    if g == "phone_number":
        area, line = z3.Int(enc.name(p.name + ".area")), z3.Int(enc.name(p.name + ".line"))
        term = area * 10_000_000 + 5_550_000 + line  # "+1 AAA 555 LLLL": key AAA555LLLL
        dom = [area >= 201, area <= 989, line >= 0, line <= 9999]
        return ParamVar(p, Sym("str", term, type="phone"), parts=[area, line]), dom
    if g == "street_address":
        number = z3.Int(enc.name(p.name + ".number"))
        si, ci = z3.Int(enc.name(p.name + ".street")), z3.Int(enc.name(p.name + ".city"))
        sd = [si >= 0, si < len(gen.STREETS)]
        cd = [ci >= 0, ci < len(gen.CITIES)]
        term = STREET + number * 10000 + si * 100 + ci
        return ParamVar(p, Sym("str", term, type="text"), parts=[number, si, ci]), [
            number >= 1, number <= 250, *sd, *cd,
        ]  # fmt: skip
    enc.approximate(f"the `{g}` generator's values")
    return ParamVar(p, enc.fresh(ir.Type(name="text"), p.name, nullable=False)), []


def decode_generator(model: z3.ModelRef, pv: ParamVar, g: str) -> str | None:
    """The generator value a model picked (None when the generator is not modelled)."""
    parts = [model.eval(x, model_completion=True).as_long() for x in pv.parts]
    if g in FINITE_GENERATORS:
        return str(FINITE_GENERATORS[g][parts[0]])
    if g == "person_name":
        return f"{gen.FIRST[parts[0]]} {gen.LAST[parts[1]]}"
    if g == "email_address":
        return f"{gen.FIRST[parts[0]].lower()}.{gen.LAST[parts[1]].lower()}@example.com"
    if g == "phone_number":
        return f"+1 {parts[0]} 555 {parts[1]:04d}"
    if g == "street_address":
        return f"{parts[0]} {gen.STREETS[parts[1]]}, {gen.CITIES[parts[2]]}"
    return None


@dataclass
class Space:
    """The instance space of a task: parameters, domains, constraints, the initial world."""

    enc: Encoder
    compiled: ir.CompiledTask
    params: dict[str, ParamVar]
    world: World
    tracked: list[tuple[str, Any, ir.IRNode | None, str]]  # (label, formula, node, what)
    plain: dict[str, Sym]

    @property
    def values(self) -> dict[str, Sym]:
        return {n: pv.value for n, pv in self.params.items()}


def build_space(compiled: ir.CompiledTask, enc: Encoder, tag: str = "") -> Space:
    """Encode a task's parameters and initial world (``tag`` keeps two copies apart)."""
    task = compiled.task
    tracked: list[tuple[str, Any, ir.IRNode | None, str]] = []
    params: dict[str, ParamVar] = {}
    values: dict[str, Sym] = {}
    empty = World()
    order = dependency_order(task.params)
    for p in order:
        if isinstance(p.domain, ir.RecordDomain):
            continue
        pv, dom = plain_param(enc, p, SymEval(enc, values, empty))
        params[p.name] = pv
        values[p.name] = pv.value
        tracked.append((f"{tag}domain:{p.name}", conj(dom), p, f"the domain of `{p.name}`"))
    world, deferred = initial_world(compiled, enc, SymEval(enc, values, World()))
    for p in order:
        if not isinstance(p.domain, ir.RecordDomain):
            continue
        pv, dom = record_param(enc, p, world, values)
        params[p.name] = pv
        values[p.name] = pv.value
        tracked.append((f"{tag}records:{p.name}", dom, p, f"the records `{p.name}` is drawn from"))
    ev = SymEval(enc, values, world)
    if apply_ops(compiled, enc, ev, deferred):
        raise Unsupported("a `given` op that uses a parameter with no value")
    for i, c in enumerate(task.constraints):
        tracked.append((f"{tag}constraint:{i}", ev.truth(c), c, "this constraint"))
    noise_constraints(compiled, enc, world, values, tracked, tag)
    return Space(enc, compiled, params, world, tracked, values)


def plain_param(enc: Encoder, p: ir.ParamDecl, ev: SymEval) -> tuple[ParamVar, list[Any]]:
    d = p.domain
    if isinstance(d, ir.ChoiceDomain):
        options = [ev.expr(v) for v in d.values]
        index = z3.Int(enc.name(p.name + ".choice"))
        value = options[-1]
        for i in range(len(options) - 2, -1, -1):
            value = enc.ite(index == i, options[i], value)
        if value.type == "any":
            value.type = tname(p.type)
        return ParamVar(p, value, index=index), [index >= 0, index < len(options)]
    if isinstance(d, ir.GeneratorDomain):
        return generator_param(enc, p, d.generator)
    assert isinstance(d, ir.RangeDomain)
    type_name = p.type_name or tname(p.type)
    low, high = ev.expr(d.low), ev.expr(d.high)
    value = enc.fresh(ir.Type(name=type_name), p.name, nullable=False)
    if (
        value.sort not in ("int", "real")
        or low.sort not in ("int", "real")
        or high.sort not in ("int", "real")
    ):
        enc.approximate(f"the range of `{p.name}`")
        return ParamVar(p, value), []
    dom = [low.term <= value.term, value.term <= high.term]
    if type_name == "date":
        dom.append(value.term % DAY == 0)
    elif type_name in ("time", "datetime"):
        dom.append((value.term - low.term) % 60 == 0)
    elif type_name == "duration" and low.concrete and high.concrete:
        if int(low.py) % 60 == 0 and int(high.py) % 60 == 0:
            dom.append(value.term % 60 == 0)
    elif type_name == "number":
        enc.approximate("a number range (sampled to two decimals)")
    return ParamVar(p, value), dom


def record_param(
    enc: Encoder, p: ir.ParamDecl, world: World, values: dict[str, Sym]
) -> tuple[ParamVar, Any]:
    """A record parameter: a position among the records its domain allows.

    As the sampler does, it is drawn from the records `given` adds explicitly when any
    qualifies, and from all records (noise included) otherwise.
    """
    d = p.domain
    assert isinstance(d, ir.RecordDomain)
    if not isinstance(d.source, ir.CollectionRef):
        raise Unsupported("a record parameter drawn from something other than a collection")
    key = (d.source.app, d.source.name)
    slots = world.collections.get(key, [])
    index = z3.Int(enc.name(p.name + ".record"))
    ok = []
    for s in slots:
        rec = Sym("rec", fields=s.rec, type="record")
        ev = SymEval(enc, {**values, p.name: rec}, world)
        ok.append(
            z3.And(s.present, ev.truth(d.where, s.rec) if d.where is not None else z3.BoolVal(True))
        )
    explicit = disj(q for q, s in zip(ok, slots, strict=True) if s.origin == "given")
    choices = []
    for i, (q, s) in enumerate(zip(ok, slots, strict=True)):
        allowed = q if s.origin == "given" else z3.And(q, z3.Not(explicit))
        choices.append(z3.And(index == i, allowed))
    if not slots:
        value = enc.fresh(p.type, p.name)
    else:
        value = Sym("rec", fields=dict(slots[-1].rec), type="record")
        for i in range(len(slots) - 2, -1, -1):
            value = enc.ite(index == i, Sym("rec", fields=slots[i].rec, type="record"), value)
    pv = ParamVar(p, value, index=index, candidates=list(range(len(slots))), collection=key)
    return pv, disj(choices)


def record_def(compiled: ir.CompiledTask, key: Key) -> ir.RecordDef | None:
    app = compiled.apps.get(key[0])
    coll = app.collection(key[1]) if app else None
    return app.record(coll.record) if app and coll else None


def initial_world(
    compiled: ir.CompiledTask, enc: Encoder, ev: SymEval
) -> tuple[World, list[tuple[int, ir.GivenOp]]]:
    """The world ``given`` builds, as ``verifiers.state.initial_state`` does; ops that use a
    record parameter are returned, to be applied once record parameters are drawn."""
    world = ev.world
    for name, app in compiled.apps.items():
        for s in app.settings:
            if s.has_default:
                world.settings[(name, s.name)] = enc.const(s.default, s.type)
        for c in app.collections:
            world.collections[(name, c.name)] = []
    deferred = apply_ops(compiled, enc, ev, list(enumerate(compiled.task.given.ops)))
    clock = compiled.task.given.clock
    if clock is not None:
        world.clock = ev.expr(clock.value)
    if compiled.task.given.foreground is not None:
        world.foreground = compiled.task.given.foreground.app
    return world, deferred


def apply_ops(
    compiled: ir.CompiledTask, enc: Encoder, ev: SymEval, ops: list[tuple[int, ir.GivenOp]]
) -> list[tuple[int, ir.GivenOp]]:
    """Apply `given` ops in order; those that need a record parameter are returned for later."""
    world = ev.world
    deferred = []
    for i, op in ops:
        if any(isinstance(n, ir.Param) and n.name not in ev.params for n in ir.walk(op)):
            deferred.append((i, op))
            continue
        target = op.target
        if isinstance(target, ir.SettingRef) and isinstance(op, ir.SetOp):
            world.settings[(target.app, target.name)] = ev.expr(op.value)
            continue
        if not isinstance(target, ir.CollectionRef):
            continue
        key = (target.app, target.name)
        rdef = record_def(compiled, key)
        slots = world.collections.setdefault(key, [])
        if isinstance(op, ir.NoiseOp):
            for n in range(op.count):
                rec = {
                    f.name: enc.fresh(f.type, f"noise.{target.name}{n}.{f.name}")
                    for f in (rdef.fields if rdef else [])
                }
                slots.append(Slot(z3.BoolVal(True), rec, "noise", i))
            continue
        value = op.value
        items = (
            value.items if isinstance(op, ir.SetOp) and isinstance(value, ir.ListExpr) else [value]
        )
        if isinstance(op, ir.SetOp):
            slots.clear()
        for item in items:
            fields = ev.expr(item).fields
            rec = {}
            for f in rdef.fields if rdef else []:
                default = f.default if f.has_default else None
                rec[f.name] = fields.get(f.name) or enc.const(default, f.type)
            slots.append(Slot(z3.BoolVal(True), rec, "given", i))
    return deferred


def filters(compiled: ir.CompiledTask) -> list[ir.Quant | ir.Count | ir.Aggregate]:
    """Every filtered quantifier, count and aggregate of the clauses and constraints."""
    found = []
    for node in ir.walk([compiled.task.clauses, compiled.task.constraints]):
        if isinstance(node, (ir.Quant, ir.Count, ir.Aggregate)) and node.where is not None:
            found.append(node)
    return found


def noise_constraints(
    compiled: ir.CompiledTask,
    enc: Encoder,
    world: World,
    values: dict[str, Sym],
    tracked: list[tuple[str, Any, ir.IRNode | None, str]],
    tag: str,
) -> None:
    """What the noise generator guarantees of every noise record."""
    task = compiled.task
    relevant = filters(compiled)
    ev = SymEval(enc, values, world)
    for i, op in enumerate(task.given.ops):
        if not isinstance(op, ir.NoiseOp) or not isinstance(op.target, ir.CollectionRef):
            continue
        key = (op.target.app, op.target.name)
        mine = [s for s in world.collections.get(key, []) if s.origin == "noise" and s.op == i]
        if op.where is not None:
            tracked.append(
                (
                    f"{tag}noise:{i}",
                    conj(ev.truth(op.where, s.rec) for s in mine),
                    op,
                    "this noise `where`",
                )
            )
        inert = []
        for node in relevant:
            src = node.source
            if not isinstance(src, ir.CollectionRef) or (src.app, src.name) != key:
                continue
            assert node.where is not None
            for s in mine:
                hold = ev.truth(node.where, s.rec)
                keep = isinstance(node, ir.Quant) and node.quantifier == "all"
                inert.append(hold if keep else z3.Not(hold))
        if inert:
            tracked.append(
                (f"{tag}inert:{i}", conj(inert), op, "what noise records must not match")
            )
