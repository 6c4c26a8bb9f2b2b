"""Noise records: realistic distractors for `given { app.collection += noise N [where P] }`.

Each noise record is a full record of the collection's record type, drawn from the instance's
random generator (so a task and seed give the same records on every machine), with values that
look real for the field's type and name: a person's `name` is a person name, `phone` a phone
number in the style of the task's time zone, `modified` a datetime shortly before the task's
clock, a `path` of a document a file path that agrees with its `name`, `folder` and `kind`. A
field the app keeps as a reference to records of another collection (a recipe's categories,
a task's list: see :func:`named_records`) names only records that collection holds when the
noise is drawn, as on the phone.

A noise record is kept only when

- its key field (if the record type has one) differs from every record already in the
  collection (phone keys compared by digits, text keys case-insensitively);
- it satisfies the operation's `where` (evaluated with the instance's parameters);
- it provably does not change the correct outcome, checked concretely with the evaluator:
  for every `exists`, `none`, `count`, `sum`, `min`, `max`, `avg` over the collection with a
  `where` anywhere in the task (clauses of every role, constraints, record parameter domains,
  the goal) the `where` is false on the record, and for every `all ... where P`, `P` is true
  on it. Unfiltered quantifiers, counts and aggregates are the author's explicit choice and
  impose nothing;
- it differs from every record parameter drawn from the same collection on that record's key
  field and on every field the goal interpolates (`{place.name}`): no noise contact shares the
  target's name.

Candidates are drawn with rejection, at most ``NOISE_TRIES`` per record; simple conjuncts of
the `where` (`starred`, `not unread`, `remark == null`, `category != "cafe"`, `kind in [...]`)
are applied while drawing, so narrow conditions cost nothing. When no candidate passes,
:class:`NoiseError` names the collection and what excluded the candidates.

What is checked for each collection is worked out once per compiled task (:func:`plan_for`,
cached by task id and object identity).
"""

from __future__ import annotations

import datetime as dt
import json
import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from tasklang import generators as g
from tasklang import ir
from tasklang.verifiers import compare as cmp
from tasklang.verifiers.evaluate import Env, EvalError, compare_values, evaluate
from tasklang.verifiers.snapshot import WorldSnapshot

NOISE_TRIES = 200  # candidates drawn for one noise record before giving up
VARIANT_AFTER = 20  # key collisions after which the key is varied ("Ada Park" -> "Ada K. Park")
NULL_RATE = 0.3  # how often an optional field is left null
DEFAULT_NOW = dt.datetime(2026, 5, 14, 9, 0)  # the clock when the task sets none
_PLAN_CACHE_SIZE = 256


class NoiseError(ValueError):
    """No acceptable noise record could be generated for a collection."""


# ---------------------------------------------------------------- the plan of a task
@dataclass(frozen=True)
class Filter:
    """A condition every noise record of a collection must meet (``where`` must be ``want``)."""

    where: ir.Expr
    want: bool
    origin: str  # where the quantifier is, for messages
    params: frozenset[str]  # parameters it reads
    conjuncts: frozenset[str] = frozenset()  # its `and`-ed parts, canonical


@dataclass(frozen=True)
class Distinct:
    """Fields on which noise must differ from the record chosen for parameter ``param``."""

    param: str
    fields: tuple[tuple[str, str], ...]  # (field name, type name)


Maker = Callable[["_Ctx"], Any]


@dataclass(frozen=True)
class FieldGen:
    name: str
    type: ir.Type
    make: Maker
    optional: bool
    members: tuple[str, ...] | None  # an enum field's members


@dataclass
class CollectionPlan:
    """What generating and checking a noise record of one collection needs."""

    app: str
    name: str
    rdef: ir.RecordDef
    kind: str
    key: ir.FieldDef | None
    gens: tuple[FieldGen, ...]  # in generation order
    order: tuple[str, ...]  # field names in declared order
    filters: tuple[Filter, ...]
    distinct: tuple[Distinct, ...]
    refs: dict[str, tuple[str, str]] = field(default_factory=dict)  # field -> (collection, key)


@dataclass
class NoisePlan:
    task_id: str
    collections: dict[tuple[str, str], CollectionPlan]
    filters: dict[tuple[str, str], tuple[Filter, ...]]
    pins: dict[int, list[_Pin]] = field(default_factory=dict)  # by id() of a NoiseOp
    negated: dict[int, frozenset[str]] = field(default_factory=dict)  # by id() of a NoiseOp


_CACHE: dict[tuple[str, int], tuple[ir.CompiledTask, NoisePlan]] = {}


def plan_for(compiled: ir.CompiledTask) -> NoisePlan:
    """The noise plan of a compiled task (cached by task id and object identity)."""
    key = (compiled.task.id, id(compiled))
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is compiled:
        return hit[1]
    plan = _build_plan(compiled)
    if len(_CACHE) >= _PLAN_CACHE_SIZE:
        _CACHE.pop(next(iter(_CACHE)))
    _CACHE[key] = (compiled, plan)
    return plan


def _build_plan(compiled: ir.CompiledTask) -> NoisePlan:
    task = compiled.task
    filters = collect_filters(task)
    distinct = _distinct(compiled)
    plans: dict[tuple[str, str], CollectionPlan] = {}
    for op in task.given.ops:
        if not isinstance(op, ir.NoiseOp) or not isinstance(op.target, ir.CollectionRef):
            continue
        where = (op.target.app, op.target.name)
        if where in plans:
            continue
        app = compiled.apps.get(where[0])
        cdef = app.collection(where[1]) if app else None
        rdef = app.record(cdef.record) if app and cdef else None
        if app is None or rdef is None:
            continue
        kind = record_kind(rdef)
        refs = named_records(app, where[1])
        made = [
            _reference_gen(f) if f.name in refs else _field_gen(kind, rdef, f) for f in rdef.fields
        ]
        gens = tuple(sorted(made, key=lambda fg: _phase(kind, fg)))
        plans[where] = CollectionPlan(
            app=where[0],
            name=where[1],
            rdef=rdef,
            kind=kind,
            key=next((f for f in rdef.fields if f.key), None),
            gens=gens,
            order=tuple(f.name for f in rdef.fields),
            filters=prune(filters.get(where, ())),
            distinct=distinct.get(where, ()),
            refs=refs,
        )
    return NoisePlan(task.id, plans, filters)


def named_records(app: ir.AppModel, collection: str) -> dict[str, tuple[str, str]]:
    """The fields of a collection's records that name records of another collection, as
    the app keeps them (a recipe's categories are rows pointing at category records): field
    -> (that collection, the field naming its records). The app model says so through its
    probes (see ``tasklang.envs.device.probes.references``)."""
    from tasklang.envs.device.probes import references

    return {r.field: (r.target, r.key) for r in references(app) if r.coll == collection}


def collect_filters(task: ir.Task) -> dict[tuple[str, str], tuple[Filter, ...]]:
    """Per collection, the conditions noise must meet to leave every outcome unchanged."""
    out: dict[tuple[str, str], list[Filter]] = {}
    seen: set[tuple[str, str, bool, str]] = set()

    def visit(node: Any, origin: str) -> None:
        for q in ir.walk(node):
            if not isinstance(q, (ir.Quant, ir.Count, ir.Aggregate)) or q.where is None:
                continue
            if not isinstance(q.source, ir.CollectionRef):
                continue
            want = isinstance(q, ir.Quant) and q.quantifier == "all"
            ident = (q.source.app, q.source.name, want, _canon_expr(q.where))
            if ident in seen:
                continue
            seen.add(ident)
            params = frozenset(n.name for n in ir.walk(q.where) if isinstance(n, ir.Param))
            text = f"{origin}: `{describe(q)}`"
            parts = frozenset(_canon_expr(c) for c in _conjuncts(q.where))
            out.setdefault(ident[:2], []).append(Filter(q.where, want, text, params, parts))

    for c in task.clauses:
        where = f" ({c.span.label})" if c.span else ""
        visit(c.body, f"{_ROLE.get(c.role, c.role)} clause {c.id}{where}")
    for i, e in enumerate(task.constraints, 1):
        visit(e, f"constraint {i}")
    for p in task.params:
        visit(p.domain, f"the domain of parameter `{p.name}`")
    for part in task.goal.parts:
        visit(part.expr, "the goal")
    return {k: tuple(v) for k, v in out.items()}


_ROLE = {"goal": "expect", "guard": "expect", "safety": "forbid"}


def prune(filters: Sequence[Filter]) -> tuple[Filter, ...]:
    """The filters not implied by another: `name == who` false makes `name == who and x` false.

    A filter that must be false is implied by another that must be false whose conjuncts are
    a subset of its own (and that reads no parameter it does not), so only the smaller one
    needs evaluating.
    """
    kept: list[Filter] = []
    for i, f in enumerate(filters):
        implied = not f.want and any(
            not g.want
            and g.params <= f.params
            and (g.conjuncts < f.conjuncts or (g.conjuncts == f.conjuncts and j < i))
            for j, g in enumerate(filters)
            if g is not f
        )
        if not implied:
            kept.append(f)
    return tuple(kept)


def _negated_conjuncts(where: ir.Expr) -> frozenset[str]:
    """Canonical expressions that are false whenever ``where`` is true."""
    out: set[str] = set()
    for c in _conjuncts(where):
        if isinstance(c, ir.Not):
            out.add(_canon_expr(c.operand))
        elif isinstance(c, ir.Compare) and c.op in ("==", "!="):
            flipped = c.model_copy(update={"op": "!=" if c.op == "==" else "=="})
            out.add(_canon_expr(flipped))
    return frozenset(out)


def _distinct(compiled: ir.CompiledTask) -> dict[tuple[str, str], tuple[Distinct, ...]]:
    task = compiled.task
    shown: dict[str, list[str]] = {}
    for part in task.goal.parts:
        e = part.expr
        if isinstance(e, ir.FieldRef) and isinstance(e.base, ir.Param):
            shown.setdefault(e.base.name, []).append(e.name)
        elif isinstance(e, ir.Param):
            shown.setdefault(e.name, []).append("")  # the whole record: its display field
    out: dict[tuple[str, str], list[Distinct]] = {}
    for p in task.params:
        d = p.domain
        if not isinstance(d, ir.RecordDomain) or not isinstance(d.source, ir.CollectionRef):
            continue
        app = compiled.apps.get(d.source.app)
        cdef = app.collection(d.source.name) if app else None
        rdef = app.record(cdef.record) if app and cdef else None
        if rdef is None:
            continue
        key = next((f.name for f in rdef.fields if f.key), None)
        names: list[str] = [key] if key else []
        for shown_name in shown.get(p.name, []):
            n = shown_name or key or display_field(rdef.fields)
            if n and n not in names:
                names.append(n)
        fields = tuple((n, fd.type.name) for n in names if (fd := rdef.field(n)) is not None)
        if fields:
            out.setdefault((d.source.app, d.source.name), []).append(Distinct(p.name, fields))
    return {k: tuple(v) for k, v in out.items()}


def display_field(fields: Sequence[ir.FieldDef]) -> str | None:
    """The field a person would name a record by."""
    names = [f.name for f in fields]
    for n in ("name", "title", "label", "ssid", "remark", "nickname", "order_no", "code"):
        if n in names:
            return n
    key = next((f.name for f in fields if f.key), None)
    return key or next((f.name for f in fields if f.type.name == "text"), None)


def _canon_expr(e: ir.Expr) -> str:
    return json.dumps(ir.strip_spans(e.model_dump(mode="json")), sort_keys=True)


# ---------------------------------------------------------------- simple conjuncts of `where`
@dataclass(frozen=True)
class _Pin:
    """A conjunct of a noise `where` applied while drawing: ``field`` op ``value``.

    ``op`` is "flag" (a bool field is ``flag``), "==", "!=", "in", "not in" (with ``value``,
    an expression free of the record) or "not null".
    """

    field: str
    op: str
    value: ir.Expr | None = None
    flag: bool = True


def _conjuncts(e: ir.Expr) -> Iterator[ir.Expr]:
    if isinstance(e, ir.Logic) and e.op == "and":
        yield from _conjuncts(e.left)
        yield from _conjuncts(e.right)
    else:
        yield e


def _own_field(e: ir.Expr) -> str | None:
    return e.name if isinstance(e, ir.FieldRef) and e.base is None else None


def _free_of_record(e: ir.Expr) -> bool:
    return not any(
        (isinstance(n, ir.FieldRef) and n.base is None)
        or isinstance(n, (ir.Quant, ir.Count, ir.Aggregate, ir.AnswerRef))
        for n in ir.walk(e)
    )


def _pins(where: ir.Expr | None) -> list[_Pin]:
    """The simple conjuncts of a noise `where`: `f`, `not f`, `f == v`, `f != v`, `f in L`."""
    out: list[_Pin] = []
    for c in _conjuncts(where) if where is not None else ():
        negated = isinstance(c, ir.Not)
        inner = c.operand if isinstance(c, ir.Not) else c
        if (name := _own_field(inner)) is not None:
            out.append(_Pin(name, "flag", flag=not negated))
            continue
        if not isinstance(inner, ir.Compare) or inner.within is not None:
            continue
        if inner.fuzzy is not None or inner.unordered or inner.exact:
            continue
        left, right = inner.left, inner.right
        op: str = inner.op
        if _own_field(left) is None and op in ("==", "!="):
            left, right = right, left
        name = _own_field(left)
        if name is None or op not in ("==", "!=", "in") or not _free_of_record(right):
            continue
        if negated:
            op = {"==": "!=", "!=": "==", "in": "not in"}[op]
        if op == "!=" and isinstance(right, ir.Lit) and right.value is None:
            out.append(_Pin(name, "not null"))
        else:
            out.append(_Pin(name, op, right))
    return out


# ---------------------------------------------------------------- generating records
@dataclass
class _Ctx:
    rng: random.Random
    now: dt.datetime
    locale: str
    app: ir.AppModel
    kind: str
    serial: int = 0
    record: dict[str, Any] = field(default_factory=dict)
    picks: dict[str, Any] = field(default_factory=dict)
    names: dict[str, list[Any]] = field(default_factory=dict)  # what a reference can name

    def pick(self, group: str, options: Sequence[Any]) -> Any:
        """One choice per record shared by the fields of a group (a url and its title)."""
        if group not in self.picks:
            self.picks[group] = self.rng.choice(options)
        return self.picks[group]


class NoiseMaker:
    """Generates the noise records of one instance, op by op, into its snapshot."""

    def __init__(
        self,
        compiled: ir.CompiledTask,
        params: dict[str, Any],
        rng: random.Random,
        exempt: Sequence[dict[str, Any]] = (),
    ) -> None:
        self.compiled = compiled
        self.plan = plan_for(compiled)
        self.params = params
        self.rng = rng
        self.exempt = {id(r) for r in exempt}

    def fill(
        self,
        op: ir.NoiseOp,
        snap: WorldSnapshot,
        reuse: list[dict[str, Any]] | None = None,
    ) -> list[dict[str, Any]]:
        """Add ``op.count`` noise records to the target collection of ``snap``; return them.

        With ``reuse`` (records an earlier build made for this op), each is kept when it still
        passes every check with the current parameters, or when it is exempt (it was chosen as
        a record parameter's value); the others are drawn again.
        """
        target = op.target
        if not isinstance(target, ir.CollectionRef):
            raise NoiseError("noise can only be added to a collection")
        cplan = self.plan.collections.get((target.app, target.name))
        if cplan is None:
            raise NoiseError(f"`{target.app}.{target.name}` is not a collection of records")
        records = snap.apps[target.app].collections.setdefault(target.name, [])
        run = _Run(self, cplan, op, snap, records)
        made: list[dict[str, Any]] = []
        for i in range(op.count):
            old = reuse[i] if reuse is not None and i < len(reuse) else None
            if old is not None and (id(old) in self.exempt or run.reject(old) is None):
                record = old
            else:
                record = run.draw(i)
            run.keep(record)
            made.append(record)
        return made


class _Run:
    """One noise operation being carried out."""

    def __init__(
        self,
        maker: NoiseMaker,
        cplan: CollectionPlan,
        op: ir.NoiseOp,
        snap: WorldSnapshot,
        records: list[dict[str, Any]],
    ) -> None:
        self.maker, self.cplan, self.op, self.records = maker, cplan, op, records
        params = maker.params
        self.env = Env(maker.compiled.apps, params, snap)
        bound = params.keys()
        self.where = op.where
        if op.where is not None and not _params_of(op.where) <= bound:
            self.where = None  # a parameter not drawn yet: checked when the noise is reused
        self.filters = [f for f in cplan.filters if f.params <= bound]
        if self.where is not None:
            negated = maker.plan.negated.get(id(op))
            if negated is None:
                negated = maker.plan.negated[id(op)] = _negated_conjuncts(self.where)
            # a filter with a conjunct the noise's own `where` makes false is met already
            self.filters = [f for f in self.filters if f.want or not f.conjuncts & negated]
        self.distinct = [
            (d.param, params[d.param], d.fields)
            for d in cplan.distinct
            if isinstance(params.get(d.param), dict)
        ]
        key = cplan.key
        self.keys = {key_canon(r.get(key.name), key.type.name) for r in records} if key else set()
        self.fixed, self.choices, self.nonnull = self._apply_pins()
        now = cmp.to_datetime(snap.clock) if snap.clock else None
        self.ctx = _Ctx(
            maker.rng,
            (now.replace(tzinfo=None) if now else DEFAULT_NOW),
            locale_of(snap.tz),
            maker.compiled.apps[cplan.app],
            cplan.kind,
            names=_nameable(cplan, snap),
        )
        self.reasons: Counter[str] = Counter()

    def _apply_pins(self) -> tuple[dict[str, Any], dict[str, list[Any]], set[str]]:
        """Values fixed, enum members allowed, and fields that must not be null."""
        pins = self.maker.plan.pins.get(id(self.op))
        if pins is None:
            pins = self.maker.plan.pins[id(self.op)] = _pins(self.op.where)
        fixed: dict[str, Any] = {}
        choices: dict[str, list[Any]] = {}
        nonnull: set[str] = set()
        if self.where is None:
            return fixed, choices, nonnull
        gens = {fg.name: fg for fg in self.cplan.gens}
        for pin in pins:
            fg = gens.get(pin.field)
            if fg is None:
                continue
            if pin.op == "not null":
                nonnull.add(pin.field)
                continue
            if pin.op == "flag":
                if fg.type.name == "bool":
                    fixed[pin.field] = pin.flag
                continue
            try:
                value = evaluate(pin.value, self.env) if pin.value is not None else None
            except EvalError:
                continue
            if pin.op == "==":
                fixed[pin.field] = value
            elif fg.type.name == "bool" and pin.op == "!=" and isinstance(value, bool):
                fixed[pin.field] = not value
            elif fg.members is not None:
                allowed = choices.get(pin.field, list(fg.members))
                if pin.op == "!=":
                    allowed = [m for m in allowed if m != value]
                elif pin.op == "in" and isinstance(value, list):
                    allowed = [m for m in allowed if m in value]
                elif pin.op == "not in" and isinstance(value, list):
                    allowed = [m for m in allowed if m not in value]
                choices[pin.field] = allowed
        for name, allowed in choices.items():
            if not allowed and name not in fixed:
                raise NoiseError(
                    f"cannot generate noise for {self.cplan.app}.{self.cplan.name}: "
                    f"`where {describe(self.op.where)}` excludes every value of `{name}`"
                )
        return fixed, choices, nonnull

    def generate(self, serial: int) -> dict[str, Any]:
        ctx = self.ctx
        ctx.serial = serial
        rec: dict[str, Any] = {}
        ctx.record = rec
        ctx.picks = {}
        rng = self.maker.rng
        for fg in self.cplan.gens:
            name = fg.name
            if name in self.fixed:
                rec[name] = self.fixed[name]
            elif name in self.choices:
                rec[name] = rng.choice(self.choices[name])
            elif fg.optional and name not in self.nonnull and rng.random() < NULL_RATE:
                rec[name] = None
            else:
                rec[name] = fg.make(ctx)
        return {n: rec[n] for n in self.cplan.order}

    def draw(self, index: int) -> dict[str, Any]:
        serial = len(self.records)
        collisions = 0
        for _ in range(NOISE_TRIES):
            rec = self.generate(serial)
            key = self.cplan.key
            if key is not None and collisions >= VARIANT_AFTER:
                rec[key.name] = variant(rec[key.name], self.maker.rng)
            reason = self.reject(rec)
            if reason is None:
                return rec
            if reason == _KEY_REASON:
                collisions += 1
            self.reasons[reason] += 1
        raise NoiseError(self.failure(index))

    def failure(self, index: int) -> str:
        cplan = self.cplan
        top = "; ".join(f"{r} ({n}x)" for r, n in self.reasons.most_common(3))
        return (
            f"cannot generate noise record {index + 1} of {self.op.count} for "
            f"{cplan.app}.{cplan.name}: all {NOISE_TRIES} candidates were rejected, by {top}"
        )

    def reject(self, rec: dict[str, Any]) -> str | None:
        """Why a candidate cannot be noise (None: it can)."""
        key = self.cplan.key
        if key is not None and key_canon(rec.get(key.name), key.type.name) in self.keys:
            return _KEY_REASON
        for param, chosen, fields in self.distinct:
            for name, tname in fields:
                value = chosen.get(name)
                if value is not None and compare_values("==", rec.get(name), tname, value, tname):
                    return f"sharing `{name}` with the record chosen for parameter `{param}`"
        env = Env(self.env.apps, self.env.params, self.env.snapshot, None, rec)
        if self.where is not None:
            try:
                ok = bool(evaluate(self.where, env))
            except EvalError:
                ok = False
            if not ok:
                return f"the noise's own `where {describe(self.where)}`"
        for f in self.filters:
            try:
                hit = bool(evaluate(f.where, env))
            except EvalError:
                return f.origin + " (cannot be evaluated on it)"
            if hit is not f.want:
                return f.origin
        return None

    def keep(self, rec: dict[str, Any]) -> None:
        key = self.cplan.key
        if key is not None:
            self.keys.add(key_canon(rec.get(key.name), key.type.name))
        self.records.append(rec)


_KEY_REASON = "its key repeating an existing record's"


def _nameable(cplan: CollectionPlan, snap: WorldSnapshot) -> dict[str, list[Any]]:
    """For each field naming records of another collection, the names of the records that
    collection holds now."""
    state = snap.apps.get(cplan.app)
    out = {}
    for name, (target, key) in cplan.refs.items():
        records = state.collections.get(target, []) if state else []
        out[name] = list(dict.fromkeys(r.get(key) for r in records if r.get(key) is not None))
    return out


def _params_of(e: ir.Expr) -> set[str]:
    return {n.name for n in ir.walk(e) if isinstance(n, ir.Param)}


def key_canon(value: Any, type_name: str) -> str:
    """A key value as compared for uniqueness (phones by digits, text case-insensitively)."""
    if value is None:
        return "null"
    if type_name == "phone":
        return "phone:" + cmp.phone_digits(value).lstrip("0")[-10:]
    if isinstance(value, str):
        return cmp.norm_text(value)
    return json.dumps(value, sort_keys=True)


def variant(value: Any, rng: random.Random) -> Any:
    """Another value like ``value``, to get past a key that is taken."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return value + rng.randint(1, 1_000_000)
    if not isinstance(value, str):
        return value
    head, sep, last = value.rpartition("/")
    stem, dot, ext = last.partition(".")
    if sep and dot:
        return f"{head}/{stem} ({rng.randint(2, 999)}).{ext}"
    words = value.split()
    if len(words) == 2 and all(w.isalpha() and w[0].isupper() for w in words):
        return f"{words[0]} {rng.choice('ABCDEFGHJKLMNPRSTVW')}. {words[1]}"
    return f"{value} {rng.randint(2, 999)}"


def locale_of(tz: str | None) -> str:
    """The country whose phone numbers a time zone suggests."""
    if not tz:
        return "US"
    for prefix, country in _ZONES:
        if tz.startswith(prefix):
            return country
    return "US"


_ZONES = (
    ("America/", "US"),
    ("Europe/London", "GB"),
    ("Europe/Paris", "FR"),
    ("Europe/Berlin", "DE"),
    ("Asia/Shanghai", "CN"),
    ("Asia/Chongqing", "CN"),
    ("Asia/Tokyo", "JP"),
)


# ---------------------------------------------------------------- kinds of records
_KINDS = (
    ("recording", ("recording",)),
    ("folder", ("folder", "directory")),
    ("file", ("document", "file", "attachment", "photo", "image", "download")),
    ("person", ("person", "contact", "friend", "user", "member", "employee", "people")),
    ("saved", ("saved", "bookmark")),
    ("place", ("place", "business", "venue", "restaurant", "hotel", "poi")),
    ("store", ("store", "shop", "branch")),
    ("device", ("device",)),
    ("network", ("network", "wifi")),
    ("notify", ("notification",)),
    ("miniapp", ("miniapp", "app")),
    ("alarm", ("alarm",)),
    ("timer", ("timer",)),
    ("lap", ("lap",)),
    ("worldclock", ("clock", "city")),
    ("web", ("tab", "visit", "history", "page")),
    ("line", ("line", "cartitem")),
    ("product", ("item", "menu", "product", "dish")),
    ("order", ("order",)),
    ("coupon", ("coupon", "voucher")),
    ("transfer", ("transfer", "payment")),
    ("group", ("group",)),
    ("search", ("search",)),
    ("route", ("route", "trip")),
    ("chat", ("thread", "chat", "conversation")),
    ("message", ("sent", "received", "draft", "message", "sms", "mail")),
)


def record_kind(rdef: ir.RecordDef) -> str:
    """What sort of thing a record type describes, from its name and fields."""
    name = rdef.name.lower()
    fields = {f.name for f in rdef.fields}
    if "url" in fields:
        return "web"
    if "business" in fields:
        return "saved"
    for kind, words in _KINDS:
        if any(w in name for w in words):
            return kind
    return "thing"


# ---------------------------------------------------------------- choosing a maker per field
_EARLY_NAMES = frozenset(
    {"duration", "length", "items", "category", "kind", "discount", "name", "opens", "company",
     "parent", "folder", "is_group"}
)  # fmt: skip
_LATE_NAMES = frozenset(
    {"path", "email", "website", "remaining", "size", "closes", "total", "amount", "title",
     "body", "content", "time_zone", "package_name"}
)  # fmt: skip


def _phase(kind: str, fg: FieldGen) -> int:
    """Fields drawn first (enums, flags, names) decide what the later ones look like."""
    t = fg.type
    if t.name in ("enum", "bool") or (t.name == "list" and t.item and t.item.name == "enum"):
        return 0
    if fg.name in ("category", "kind"):
        return 0
    if fg.name in _EARLY_NAMES:
        return 1
    if t.name in ("file", "email") or fg.name in _LATE_NAMES:
        return 3
    return 2


def _field_gen(kind: str, rdef: ir.RecordDef, f: ir.FieldDef) -> FieldGen:
    t = f.type
    members = t.members if t.name == "enum" else None
    make = _maker(kind, rdef, f)
    realistic = f.default not in ("", None) or f.name in ("label", "note", "notes", "memo")
    if f.has_default and realistic and t.name not in ("bool", "enum", "list", "int", "number"):
        make = _sometimes_default(make, f.default)
    # these makers decide themselves when to leave the field null
    optional = t.optional and f.name not in _OWN_NULL
    return FieldGen(f.name, t, make, optional, members)


_OWN_NULL = frozenset({"closes", "remaining", "amount", "price_level", "content"})


def _reference_gen(f: ir.FieldDef) -> FieldGen:
    """A field naming records of another collection names records it holds: some of them
    for a list (a recipe's categories), one of them or the default for a single name (a
    task's list; the default is no record), never a record that does not exist."""
    default = f.default if f.has_default else None
    many = f.type.name == "list"

    def gen(ctx: _Ctx) -> Any:
        names = ctx.names.get(f.name, [])
        if many:
            n = ctx.rng.choice((0, 0, 1, 1, 2))
            return ctx.rng.sample(names, min(n, len(names)))
        if not names or ctx.rng.random() < 0.3:
            return default
        return ctx.rng.choice(names)

    return FieldGen(f.name, f.type, gen, f.type.optional, None)


def _sometimes_default(make: Maker, default: Any) -> Maker:
    def gen(ctx: _Ctx) -> Any:
        return default if ctx.rng.random() < 0.3 else make(ctx)

    return gen


def _maker(kind: str, rdef: ir.RecordDef, f: ir.FieldDef) -> Maker:
    t = f.type.name
    name = f.name.lower()
    if t == "enum":
        return _enum_maker(f)
    if t == "bool":
        return _bool_maker(f)
    if t == "list":
        return _list_maker(kind, f)
    by_type = _TYPE_MAKERS.get(t)
    if by_type is not None:
        return by_type(kind, name)
    if t == "text":
        return _text_maker(kind, name, rdef)
    return lambda ctx: None


def _enum_maker(f: ir.FieldDef) -> Maker:
    members = tuple(f.type.members or ())
    default = f.default if f.has_default else None

    def gen(ctx: _Ctx) -> Any:
        if default is not None and ctx.rng.random() < 0.4:
            return default
        return ctx.rng.choice(members) if members else None

    return gen


def _bool_maker(f: ir.FieldDef) -> Maker:
    if f.has_default and isinstance(f.default, bool):
        default = f.default
        return lambda ctx: default if ctx.rng.random() < 0.8 else not default
    return lambda ctx: ctx.rng.random() < 0.5


_REPEATS: tuple[list[str], ...] = (
    [],
    [],
    ["mon", "tue", "wed", "thu", "fri"],
    ["sat", "sun"],
    ["mon", "wed", "fri"],
    ["tue", "thu"],
)


def _list_maker(kind: str, f: ir.FieldDef) -> Maker:
    item = f.type.item
    name = f.name.lower()
    if item is not None and item.name == "enum":
        members = tuple(item.members or ())
        if set(members) >= {"mon", "tue", "wed", "thu", "fri", "sat", "sun"}:

            def days(ctx: _Ctx) -> Any:
                if ctx.rng.random() < 0.7:
                    return list(ctx.rng.choice(_REPEATS))
                return [m for m in members if ctx.rng.random() < 0.3]

            return days
        return lambda ctx: [m for m in members if ctx.rng.random() < 0.3]
    words: Sequence[str]
    if name in ("members", "participants", "attendees"):
        return lambda ctx: [_person(ctx) for _ in range(ctx.rng.randint(1, 4))]
    if name in ("items", "products", "dishes"):
        return lambda ctx: [_menu_item(ctx, None) for _ in range(ctx.rng.randint(1, 3))]
    if name in ("stops", "waypoints"):
        return lambda ctx: [] if ctx.rng.random() < 0.7 else [_place_name(ctx, None)]
    if "channel" in name:
        words = g.CHANNELS
    elif name == "tags":
        words = ("vip", "gym", "school", "neighbour", "book club", "urgent", "travel", "work")
    else:
        words = g.WORDS

    def pick(ctx: _Ctx) -> Any:
        n = ctx.rng.choice((0, 0, 1, 1, 2, 3))
        return ctx.rng.sample(list(words), min(n, len(words)))

    return pick


# ---------------------------------------------------------------- values by type
def _person(ctx: _Ctx) -> str:
    return f"{ctx.rng.choice(g.ALL_FIRST)} {ctx.rng.choice(g.ALL_LAST)}"


def _digits(rng: random.Random, n: int) -> str:
    return "".join(rng.choice("0123456789") for _ in range(n))


def phone_for(locale: str, rng: random.Random) -> str:
    """A phone number formatted the way numbers of that country are written."""
    if locale == "GB":
        return f"+44 7700 900{rng.randint(0, 999):03d}"
    if locale == "CN":
        return f"+86 1{rng.choice('3589')}{rng.randint(0, 9)} {_digits(rng, 4)} {_digits(rng, 4)}"
    if locale == "FR":
        pairs = " ".join(f"{rng.randint(0, 99):02d}" for _ in range(4))
        return f"+33 6 {pairs}"
    if locale == "DE":
        return f"+49 15{rng.randint(1, 9)} {_digits(rng, 7)}"
    if locale == "JP":
        return f"+81 90 {_digits(rng, 4)} {_digits(rng, 4)}"
    return f"+1 {rng.randint(201, 989)} 555 {rng.randint(0, 9999):04d}"


def _phone_maker(kind: str, name: str) -> Maker:
    return lambda ctx: phone_for(ctx.locale, ctx.rng)


_MAIL_DOMAINS = ("gmail.com", "outlook.com", "example.com", "proton.me", "yahoo.com")


def _email_maker(kind: str, name: str) -> Maker:
    def gen(ctx: _Ctx) -> str:
        rec = ctx.record
        who = next(
            (rec[n] for n in ("name", "remark", "contact_name", "display_name") if rec.get(n)),
            None,
        )
        if not isinstance(who, str) or kind not in ("person", "chat", "thing"):
            who = _person(ctx)
        local = ".".join(w.lower() for w in who.split() if w.isalpha()) or "user"
        company = rec.get("company")
        if isinstance(company, str) and company and ctx.rng.random() < 0.6:
            slug = "".join(c for c in company.lower().split()[0] if c.isalnum())
            return f"{local}@{slug}.com"
        if ctx.rng.random() < 0.3:
            local += str(ctx.rng.randint(1, 99))
        return f"{local}@{ctx.rng.choice(_MAIL_DOMAINS)}"

    return gen


def _file_maker(kind: str, name: str) -> Maker:
    def gen(ctx: _Ctx) -> str:
        rec = ctx.record
        if kind == "recording":
            stem = rec.get("name") or f"Record-{ctx.serial + 1}"
            package = ctx.app.package or ctx.app.name
            return f"/sdcard/Android/data/{package}/files/Music/records/{stem}.m4a"
        if kind == "folder":
            parent = rec.get("parent") or "/sdcard"
            return f"{str(parent).rstrip('/')}/{rec.get('name') or ctx.rng.choice(g.WORDS)}"
        file_name = rec.get("name")
        if not isinstance(file_name, str) or "." not in file_name:
            file_name = _file_name(ctx, _file_kind(rec))
        folder = rec.get("folder") or ctx.rng.choice(g.FILE_FOLDERS[_file_kind(rec)])
        return f"/sdcard/{folder}/{file_name}"

    return gen


def _file_kind(rec: dict[str, Any]) -> str:
    kind = rec.get("kind") or rec.get("type")
    return kind if isinstance(kind, str) and kind in g.FILE_STEMS else "document"


def _file_name(ctx: _Ctx, kind: str) -> str:
    stem = ctx.rng.choice(g.FILE_STEMS[kind])
    return stem if "." in stem else stem + ctx.rng.choice(g.FILE_EXTENSIONS[kind])


def _int_maker(kind: str, name: str) -> Maker:
    def size(ctx: _Ctx) -> int:
        rec = ctx.record
        seconds = rec.get("duration")
        if isinstance(seconds, int) and kind == "recording":
            return seconds * 16_000 + ctx.rng.randint(0, 4_000)
        low, high = g.FILE_SIZES[_file_kind(rec)]
        return int(low * (high / low) ** ctx.rng.random())

    ranges = {
        "reviews": (0, 6000),
        "signal": (0, 4),
        "unread": (0, 12),
        "calories": (0, 520),
        "price_level": (1, 4),
        "quantity": (1, 3),
        "shots": (1, 3),
        "points": (0, 5000),
        "member_points": (0, 5000),
        "number": (1, 60),
        "floor": (1, 30),
        "age": (18, 90),
        "year": (1990, 2026),
        "rating": (1, 5),
        "stars": (1, 5),
    }
    if name == "size" or name.endswith("_bytes"):
        return size
    if name == "price_level":
        return _price_level
    low, high = ranges.get(name, (0, 100))
    if "volume" in name:
        low, high = 0, 7
    return lambda ctx: ctx.rng.randint(low, high)


def _price_level(ctx: _Ctx) -> int | None:
    category = ctx.record.get("category")
    if isinstance(category, str) and category not in ("restaurant", "cafe", "bar", "hotel"):
        return None
    return ctx.rng.choice((1, 2, 2, 2, 3, 3, 4))


def _number_maker(kind: str, name: str) -> Maker:
    if "rating" in name or name == "stars":
        return lambda ctx: round(min(5.0, max(1.0, ctx.rng.gauss(4.1, 0.5))), 1)
    if "distance" in name or name.endswith("_km"):
        return lambda ctx: round(0.1 + 14.9 * ctx.rng.random() ** 2, 1)
    if name in ("lat", "latitude"):
        return lambda ctx: round(ctx.rng.uniform(-60, 60), 5)
    if name in ("lng", "lon", "longitude"):
        return lambda ctx: round(ctx.rng.uniform(-180, 180), 5)
    return lambda ctx: round(ctx.rng.uniform(0, 100), 1)


def _money_maker(kind: str, name: str) -> Maker:
    ranges = {
        "price": (250, 1500),
        "discount": (100, 500),
        "min_spend": (0, 3000),
        "total": (300, 6000),
        "amount": (100, 20000),
        "balance": (0, 50000),
        "fee": (50, 1500),
        "tip": (100, 2000),
    }
    low, high = next((r for n, r in ranges.items() if n in name), (100, 5000))

    def gen(ctx: _Ctx) -> int | None:
        rec = ctx.record
        if name == "min_spend":
            return int(ctx.rng.choice((0, 0, 1000, 1500, 2000, 3000)))
        if name == "amount" and "kind" in rec and rec.get("kind") not in _MONEY_KINDS:
            return None  # only transfers and red packets carry an amount
        if name == "total" and isinstance(rec.get("items"), list) and rec["items"]:
            return sum(ctx.rng.randint(30, 60) * 10 for _ in rec["items"])
        return ctx.rng.randint(low // 10, high // 10) * 10

    return gen


_MONEY_KINDS = ("transfer", "red_packet", "payment")
_FUTURE = ("expires", "due", "until", "deadline", "ends", "scheduled", "starts", "valid")
_BIRTH = ("birthday", "born", "birth", "anniversary")


def _date_maker(kind: str, name: str) -> Maker:
    if any(w in name for w in _BIRTH):
        return lambda ctx: dt.date(
            ctx.rng.randint(1950, 2006), ctx.rng.randint(1, 12), ctx.rng.randint(1, 28)
        ).isoformat()
    if any(w in name for w in _FUTURE):
        return lambda ctx: (ctx.now.date() + dt.timedelta(days=ctx.rng.randint(1, 120))).isoformat()
    return lambda ctx: (
        ctx.now.date() - dt.timedelta(days=int(ctx.rng.random() ** 2 * 365))
    ).isoformat()


def _datetime_maker(kind: str, name: str) -> Maker:
    future = any(w in name for w in _FUTURE)

    def gen(ctx: _Ctx) -> str:
        minutes = int(ctx.rng.random() ** 2 * 30 * 24 * 60) + 5
        if future:
            moment = ctx.now + dt.timedelta(minutes=minutes)
        else:
            moment = ctx.now - dt.timedelta(minutes=minutes)
        return moment.replace(second=0, microsecond=0).isoformat()

    return gen


def _time_maker(kind: str, name: str) -> Maker:
    def hours(ctx: _Ctx) -> tuple[tuple[int, int], tuple[int, int]]:
        category = ctx.record.get("category")
        default = ((7, 10), (17, 22))
        return g.OPENING_HOURS.get(category, default) if isinstance(category, str) else default

    def opens(ctx: _Ctx) -> str:
        low, high = hours(ctx)[0]
        return dt.time(ctx.rng.randint(low, high), ctx.rng.choice((0, 30))).isoformat()

    def closes(ctx: _Ctx) -> str | None:
        if "opens" in ctx.record and ctx.record["opens"] is None:
            return None  # no opening hours known
        low, high = hours(ctx)[1]
        minute = 59 if low == high == 23 else ctx.rng.choice((0, 30))
        return dt.time(ctx.rng.randint(low, high), minute).isoformat()

    def any_time(ctx: _Ctx) -> str:
        step = 5 if kind == "alarm" else 15
        minutes = ctx.rng.randrange(5 * 60, 23 * 60 + 45, step)
        return dt.time(minutes // 60, minutes % 60).isoformat()

    if name in ("opens", "open", "opening", "start"):
        return opens
    if name in ("closes", "close", "closing", "end"):
        return closes
    return any_time


def _duration_maker(kind: str, name: str) -> Maker:
    def remaining(ctx: _Ctx) -> int | None:
        length = ctx.record.get("length")
        state = ctx.record.get("state")
        if not isinstance(length, int):
            return None
        if state == "expired":
            return 0
        if state in ("running", "paused"):
            return ctx.rng.randint(1, max(1, length))
        return length

    if name == "remaining":
        return remaining
    if kind == "recording" or name in ("lap_time",):
        low, high = (20, 180) if name == "lap_time" else (5, 1200)
        return lambda ctx: ctx.rng.randint(low, high)
    if name == "total" and kind == "lap":
        return lambda ctx: ctx.rng.randint(60, 1800)
    return lambda ctx: ctx.rng.choice((1, 2, 3, 5, 10, 15, 20, 25, 30, 45, 60, 90)) * 60


_TYPE_MAKERS: dict[str, Callable[[str, str], Maker]] = {
    "phone": _phone_maker,
    "email": _email_maker,
    "file": _file_maker,
    "int": _int_maker,
    "number": _number_maker,
    "money": _money_maker,
    "date": _date_maker,
    "datetime": _datetime_maker,
    "time": _time_maker,
    "duration": _duration_maker,
}


# ---------------------------------------------------------------- text by field name
def _place_name(ctx: _Ctx, category: Any) -> str:
    suffixes = None
    if isinstance(category, str):
        suffixes = g.PLACE_SUFFIXES.get(category) or g.BUSINESS_SUFFIXES.get(category)
    if suffixes is None:
        suffixes = ctx.rng.choice(list(g.PLACE_SUFFIXES.values()))
    return f"{ctx.rng.choice(g.PLACE_WORDS)} {ctx.rng.choice(suffixes)}"


def _menu_item(ctx: _Ctx, category: Any) -> str:
    items = g.MENU_ITEMS.get(category) if isinstance(category, str) else None
    if items is None:
        items = ctx.rng.choice(list(g.MENU_ITEMS.values()))
    return str(ctx.rng.choice(items))


def _wxid(ctx: _Ctx) -> str:
    return "wxid_" + "".join(ctx.rng.choice("abcdefghijkmnpqrstuvwxyz0123456789") for _ in range(6))


def _body(ctx: _Ctx) -> str:
    kind = ctx.record.get("kind")
    if kind == "image":
        return "[Photo]"
    if kind == "voice":
        return f'[Voice {ctx.rng.randint(2, 59)}"]'
    if kind == "file":
        return _file_name(ctx, "document")
    if kind == "location":
        return _place_name(ctx, None)
    if kind == "link":
        return str(ctx.pick("site", g.WEB_SITES)[1])
    if kind == "transfer":
        return ctx.rng.choice(g.TRANSFER_NOTES) or "Transfer"
    if kind == "red_packet":
        return "Best wishes"
    return str(ctx.rng.choice(g.MESSAGE_BODIES))


def _name(kind: str, rdef: ir.RecordDef) -> Maker:
    fields = {f.name for f in rdef.fields}

    def by_kind(ctx: _Ctx) -> str:
        rec = ctx.record
        if kind == "person" or (kind in ("thing", "chat") and "phone" in fields):
            return _person(ctx)
        if kind == "place":
            return _place_name(ctx, rec.get("category"))
        if kind == "store":
            return str(ctx.rng.choice(g.STORE_NAMES))
        if kind == "recording":
            return f"Record-{ctx.serial + ctx.rng.randint(1, 40)}"
        if kind == "file":
            return _file_name(ctx, _file_kind(rec))
        if kind == "folder":
            return str(ctx.rng.choice(g.FOLDERS))
        if kind == "device":
            names = g.DEVICE_NAMES.get(str(rec.get("kind")), g.DEVICE_NAMES["other"])
            return str(ctx.rng.choice(names))
        if kind == "network":
            return str(ctx.rng.choice(g.SSIDS))
        if kind in ("product", "line"):
            return _menu_item(ctx, rec.get("category"))
        if kind == "miniapp":
            return str(ctx.rng.choice(g.MINI_PROGRAMS))
        if kind == "notify":
            return str(ctx.pick("app", g.APPS)[0])
        if kind == "group":
            return str(ctx.rng.choice(g.GROUP_NAMES))
        if kind == "worldclock":
            return str(ctx.pick("city", g.CITY_ZONES)[0])
        return f"{ctx.rng.choice(g.WORDS).capitalize()} {ctx.rng.choice(g.WORDS)}"

    return by_kind


def _title(kind: str) -> Maker:
    def gen(ctx: _Ctx) -> str:
        rec = ctx.record
        if kind == "web":
            return str(ctx.pick("site", g.WEB_SITES)[1])
        if kind == "coupon":
            off = rec.get("discount")
            cents = off if isinstance(off, int) else ctx.rng.randint(1, 5) * 100
            template = ctx.rng.choice(g.COUPON_TITLES)
            return template.format(off=money_text(cents), min=money_text(cents * 5))
        if kind == "group":
            return str(ctx.rng.choice(g.GROUP_NAMES))
        if kind == "chat":
            if rec.get("is_group"):
                return str(ctx.rng.choice(g.GROUP_NAMES))
            return _person(ctx)
        if kind in ("alarm", "timer"):
            return str(ctx.rng.choice(g.ALARM_LABELS if kind == "alarm" else g.TIMER_LABELS))
        return " ".join(ctx.rng.choice(g.WORDS) for _ in range(2)).capitalize()

    return gen


def _choice(options: Sequence[Any]) -> Maker:
    return lambda ctx: ctx.rng.choice(options)


def _street(ctx: _Ctx) -> str:
    return g.GENERATORS["street_address"](ctx.rng)


def _free_text(ctx: _Ctx) -> str:
    return g.GENERATORS["free_text"](ctx.rng)


def _code(ctx: _Ctx) -> str:
    return ctx.rng.choice(("SAVE", "COFFEE", "WELCOME", "VIP", "SPRING")) + str(
        ctx.rng.randint(2, 30)
    )


def _nickname(ctx: _Ctx) -> str:
    if ctx.rng.random() < 0.6:
        return str(ctx.rng.choice(g.ALL_FIRST))
    return f"{ctx.rng.choice(g.WORDS).capitalize()}_{_digits(ctx.rng, 2)}"


def _folder(kind: str) -> Maker:
    if kind == "web":
        return _choice(g.BOOKMARK_FOLDERS)
    if kind == "file":
        return lambda ctx: ctx.rng.choice(g.FILE_FOLDERS[_file_kind(ctx.record)])
    return _choice(g.FOLDERS)


def _content(kind: str) -> Maker:
    def gen(ctx: _Ctx) -> str | None:
        name = ctx.record.get("name")
        if kind == "file" and not (isinstance(name, str) and name.endswith(".txt")):
            return None  # binary files have no text content
        return _free_text(ctx)

    return gen


_PERSON_FIELDS = frozenset(
    {"remark", "contact_name", "display_name", "full_name", "sender", "author", "owner",
     "recipient", "from_name", "organizer", "host_name"}
)  # fmt: skip
_ID_FIELDS = frozenset({"wxid", "peer", "chat", "username", "user_id", "handle", "account"})
_PARENTS = ("/sdcard", "/sdcard/DCIM", "/sdcard/Documents", "/sdcard/Download")
_TEXTS: dict[str, Maker] = {
    "first_name": _choice(g.ALL_FIRST),
    "given_name": _choice(g.ALL_FIRST),
    "last_name": _choice(g.ALL_LAST),
    "surname": _choice(g.ALL_LAST),
    "family_name": _choice(g.ALL_LAST),
    "company": _choice(g.ALL_COMPANIES),
    "employer": _choice(g.ALL_COMPANIES),
    "organization": _choice(g.ALL_COMPANIES),
    "job_title": _choice(g.JOB_TITLES),
    "occupation": _choice(g.JOB_TITLES),
    "position": _choice(g.JOB_TITLES),
    "region": _choice(g.REGIONS),
    "province": _choice(g.REGIONS),
    "city": lambda ctx: str(ctx.pick("city", g.CITY_ZONES)[0]),
    "time_zone": lambda ctx: str(ctx.pick("city", g.CITY_ZONES)[1]),
    "timezone": lambda ctx: str(ctx.pick("city", g.CITY_ZONES)[1]),
    "ringtone": _choice(g.RINGTONES),
    "query": _choice(g.SEARCH_QUERIES),
    "app_name": lambda ctx: str(ctx.pick("app", g.APPS)[0]),
    "package_name": lambda ctx: str(ctx.pick("app", g.APPS)[1]),
    "ssid": _choice(g.SSIDS),
    "store": _choice(g.STORE_NAMES),
    "item": lambda ctx: _menu_item(ctx, None),
    "order_no": lambda ctx: f"A{ctx.rng.randint(100, 1999):04d}",
    "code": _code,
    "coupon": _code,
    "nickname": _nickname,
    "url": lambda ctx: str(ctx.pick("site", g.WEB_SITES)[0]),
    "link": lambda ctx: str(ctx.pick("site", g.WEB_SITES)[0]),
    "website": lambda ctx: _website(ctx),
    "homepage": lambda ctx: _website(ctx),
    "parent": _choice(_PARENTS),
    "address": _street,
    "street": _street,
    "home_address": _street,
    "work_address": _street,
    "location": _street,
    "origin": _street,
    "destination": lambda ctx: _place_name(ctx, None),
    "place": lambda ctx: _place_name(ctx, None),
    "business": lambda ctx: _place_name(ctx, None),
    "note": _choice(g.SENTENCES),
    "notes": _choice(g.SENTENCES),
    "memo": _choice(g.TRANSFER_NOTES),
    "description": _free_text,
    "summary": _free_text,
    "body": lambda ctx: _body(ctx),
    "snippet": _choice(g.MESSAGE_BODIES),
    "message": _choice(g.MESSAGE_BODIES),
    "preview": _choice(g.MESSAGE_BODIES),
    "text": _choice(g.MESSAGE_BODIES),
}


def _text_maker(kind: str, name: str, rdef: ir.RecordDef) -> Maker:
    if name == "name":
        return _name(kind, rdef)
    if name in ("title", "label", "subject"):
        return _title(kind)
    if name in _PERSON_FIELDS:
        return _person_maker
    if name == "category":
        return _choice(g.BUSINESS_CATEGORIES)
    if name in ("folder", "list_name"):
        return _folder(kind)
    if name == "content":
        return _content(kind)
    if name in ("note", "memo") and kind == "transfer":
        return _choice(g.TRANSFER_NOTES)
    if name in ("note", "notes") and kind == "person":
        return _choice(g.CONTACT_NOTES)
    if name in ("note", "notes") and kind in ("saved", "place"):
        return _choice(g.SAVED_NOTES)
    if name in _ID_FIELDS or (name in ("to", "from") and kind in ("transfer", "message")):
        return _wxid
    return _TEXTS.get(name) or (
        lambda ctx: " ".join(ctx.rng.choice(g.WORDS) for _ in range(2)).capitalize()
    )


def _person_maker(ctx: _Ctx) -> str:
    return _person(ctx)


def _website(ctx: _Ctx) -> str:
    name = ctx.record.get("name")
    slug = "".join(c for c in str(name or ctx.rng.choice(g.WORDS)).lower() if c.isalnum())
    return f"https://www.{slug or 'example'}.com"


# ---------------------------------------------------------------- showing values and IR
def money_text(cents: int) -> str:
    """Cents as a person writes them.

    >>> money_text(1250), money_text(-300), money_text(123456)
    ('$12.50', '-$3.00', '$1,234.56')
    """
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(int(cents)), 100)
    return f"{sign}${whole:,}.{part:02d}"


def describe(e: Any) -> str:
    """An IR expression written back in task syntax, for messages.

    >>> describe(ir.Compare(op="!=", left=ir.FieldRef(name="name"), right=ir.Param(name="who")))
    'name != who'
    """
    if e is None:
        return ""
    if isinstance(e, ir.Lit):
        return _lit_text(e)
    if isinstance(e, ir.Param):
        return e.name
    if isinstance(e, ir.FieldRef):
        return e.name if e.base is None else f"{describe(e.base)}.{e.name}"
    if isinstance(e, (ir.CollectionRef, ir.SettingRef)):
        return f"{e.app}.{e.name}"
    if isinstance(e, ir.Now):
        return "now"
    if isinstance(e, ir.AnswerRef):
        return "answer"
    if isinstance(e, ir.Neg):
        return f"-{_inner(e.operand)}"
    if isinstance(e, ir.Arith):
        return f"{_inner(e.left)} {e.op} {_inner(e.right)}"
    if isinstance(e, ir.Compare):
        text = f"{_inner(e.left)} {e.op} {_inner(e.right)}"
        if e.within is not None:
            text += f" within {describe(e.within)}"
        return text
    if isinstance(e, ir.Logic):
        return f"{_inner(e.left, e.op)} {e.op} {_inner(e.right, e.op)}"
    if isinstance(e, ir.Not):
        return f"not {_inner(e.operand)}"
    if isinstance(e, ir.Quant):
        where = f" where {describe(e.where)}" if e.where is not None else ""
        return f"{e.quantifier} {describe(e.source)}{where}"
    if isinstance(e, ir.Count):
        where = f" where {describe(e.where)}" if e.where is not None else ""
        return f"count({describe(e.source)}{where})"
    if isinstance(e, ir.Aggregate):
        where = f" where {describe(e.where)}" if e.where is not None else ""
        return f"{e.fn}({describe(e.source)}{where}, {e.field})"
    if isinstance(e, ir.ListExpr):
        return "[" + ", ".join(describe(i) for i in e.items) + "]"
    if isinstance(e, ir.RecordExpr):
        return "{" + ", ".join(f"{f.name}: {describe(f.value)}" for f in e.fields) + "}"
    return str(getattr(e, "node", "?"))


def _inner(e: Any, op: str | None = None) -> str:
    text = describe(e)
    if (isinstance(e, ir.Logic) and e.op != op) or isinstance(e, ir.Quant):
        return f"({text})"
    return text


def _lit_text(e: ir.Lit) -> str:
    v = e.value
    tname = e.type.name if e.type is not None else None
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if tname == "money" and isinstance(v, int):
        return money_text(v)
    if tname == "duration" and isinstance(v, int):
        return _duration_literal(v)
    if isinstance(v, str) and tname not in ("date", "time", "datetime"):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, str):
        return v[:-3] if tname == "time" and v.endswith(":00") else v
    return json.dumps(v, ensure_ascii=False)


def _duration_literal(seconds: int) -> str:
    """A duration as task syntax writes it.

    >>> _duration_literal(5400), _duration_literal(60), _duration_literal(45)
    ('1h30m', '1m', '45s')
    """
    if seconds == 0:
        return "0s"
    hours, rest = divmod(abs(seconds), 3600)
    minutes, secs = divmod(rest, 60)
    text = "".join(f"{n}{u}" for n, u in ((hours, "h"), (minutes, "m"), (secs, "s")) if n)
    return ("-" if seconds < 0 else "") + text
