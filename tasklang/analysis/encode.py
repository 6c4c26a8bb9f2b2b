"""The IR in z3: symbolic values, symbolic worlds, and one encoder method per construct.

A value is a :class:`Sym`: a z3 term, a null flag, and the Python value when it is known.
Values are encoded the way the verifier compares them: text as its normalized form (case
folded, whitespace collapsed), phone numbers as their last ten digits, money as cents,
durations and times as seconds, dates and datetimes as seconds since 1970-01-01, a list of
enum members as one boolean per member.

Text is not encoded as z3 strings but as integer identities (:class:`Texts`): two texts are
equal exactly when their identities are, and values that generators build from pieces (a
person's name from a first and a last name) get identities computed from the pieces, so the
solver works in linear integer arithmetic only. Containment and fuzzy matching of unknown
text are approximated.

Where the verifier's semantics cannot be expressed exactly (fuzzy similarity, regular
expressions on unknown text, ordered lists, unknown clocks), the encoder uses a fresh
unconstrained variable and clears :attr:`Encoder.exact`. Such an encoding over-approximates:
an unsatisfiable query is still a proof, and a satisfying model is only a candidate, which
the analyses confirm by replaying it through the verifier.
"""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import z3
from z3 import z3core

from tasklang import ir
from tasklang.verifiers import compare as cmp
from tasklang.verifiers.evaluate import compare_values

_EPOCH = dt.datetime(1970, 1, 1)
_MISSING: Any = object()
DAY = 86400


class Unsupported(Exception):
    """A construct the encoder does not model (the analysis skips the query)."""


@dataclass
class Sym:
    """A symbolic value: ``sort`` is str, int, real, bool, set, rec or opaque."""

    sort: str
    term: Any = None
    null: Any = field(default_factory=lambda: z3.BoolVal(False))
    py: Any = _MISSING  # the concrete Python value (as the verifier holds it), when known
    members: tuple[str, ...] = ()  # set: the enum members, one boolean each in ``term``
    fields: dict[str, Sym] = field(default_factory=dict)  # rec
    type: str = "any"  # the tasklang type name

    @property
    def concrete(self) -> bool:
        return self.py is not _MISSING


def truth(v: Sym) -> Any:
    """Python truthiness of a value as the evaluator applies it (null is false)."""
    if v.concrete:
        return z3.BoolVal(bool(v.py))
    if v.sort == "bool":
        return and_(not_(v.null), v.term)
    if v.sort == "int":
        return and_(not_(v.null), v.term != 0)
    if v.sort == "str":
        return and_(not_(v.null), v.term != 0)  # identity 0 is the empty text
    return not_(v.null)


def norm(value: Any) -> str:
    return cmp.norm_text(value)


def phone_key(value: Any) -> str:
    return cmp.phone_digits(value).lstrip("0")[-10:]


def to_seconds(value: Any, type_name: str) -> int | None:
    """A temporal value as whole seconds (dates and datetimes since 1970, times of day)."""
    if type_name == "time":
        t = cmp.to_time(value)
        return cmp.seconds_of_day(t) if t is not None else None
    if type_name == "date":
        d = cmp.to_date(value)
        return (d - _EPOCH.date()).days * DAY if d is not None else None
    moment = cmp.to_datetime(value)
    return int((moment - _EPOCH).total_seconds()) if moment is not None else None


def from_seconds(seconds: int, type_name: str) -> str:
    """The stored (ISO) form of a temporal value given in seconds."""
    if type_name == "time":
        s = seconds % DAY
        return dt.time(s // 3600, s // 60 % 60, s % 60).isoformat()
    moment = _EPOCH + dt.timedelta(seconds=seconds)
    return moment.date().isoformat() if type_name == "date" else moment.isoformat()


SORT_OF = {
    "text": "str", "enum": "str", "email": "str", "file": "str", "phone": "str",
    "int": "int", "money": "int", "duration": "int", "date": "int", "time": "int",
    "datetime": "int", "number": "real", "bool": "bool",
}  # fmt: skip


PERSON, EMAIL, STREET = 10_000_000, 20_000_000, 30_000_000


class Texts:
    """Integer identities for texts, equal exactly when the normalized texts are.

    Phone numbers are their key digits read as a number. Texts a generator can build from
    pieces get identities computed from the pieces (see ``world.generator_param``); every
    other text is numbered in order of first sight, from 1 (0 is the empty text).

    >>> t = Texts()
    >>> t.id("Ada  Park", "text") == t.id("ada park", "text") == PERSON + 0 * 100 + 0
    True
    >>> t.id("+1 415 555 0187", "phone") == t.id("415-555-0187", "phone") == 4155550187
    True
    """

    def __init__(self) -> None:
        from tasklang import generators as gen

        self.first = {norm(x): i for i, x in enumerate(gen.FIRST)}
        self.last = {norm(x): i for i, x in enumerate(gen.LAST)}
        self.streets = {norm(x): i for i, x in enumerate(gen.STREETS)}
        self.cities = {norm(x): i for i, x in enumerate(gen.CITIES)}
        self.seen: dict[str, int] = {"": 0}

    def id(self, value: Any, type_name: str = "text") -> int:
        if type_name == "phone":
            key = phone_key(value)
            return int(key) if key.isdigit() else self._intern("phone:" + key)
        text = norm(value)
        first, _, last = text.partition(" ")
        if first in self.first and last in self.last:
            return PERSON + self.first[first] * 100 + self.last[last]
        local, at, domain = text.partition("@")
        if at and domain == "example.com":
            given, _, family = local.partition(".")
            if given in self.first and family in self.last:
                return EMAIL + self.first[given] * 100 + self.last[family]
        number, _, rest = text.partition(" ")
        street, comma, city = rest.partition(", ")
        if comma and number.isdigit() and street in self.streets and city in self.cities:
            n = int(number)
            if 1 <= n <= 250:
                return STREET + n * 10000 + self.streets[street] * 100 + self.cities[city]
        return self._intern(text)

    def _intern(self, text: str) -> int:
        if text not in self.seen:
            self.seen[text] = len(self.seen)
        return self.seen[text]


def tname(t: ir.Type | None) -> str:
    return t.name if t is not None else "any"


class Encoder:
    """Turns IR into z3 terms. ``side`` collects definitions the terms depend on."""

    def __init__(self, apps: dict[str, ir.AppModel], prefix: str = "") -> None:
        self.apps = apps
        self.prefix = prefix
        self.side: list[Any] = []
        self.exact = True
        self.inexact: list[str] = []
        self.texts = Texts()
        self._n = itertools.count()
        # memoized quantifiers; each entry keeps the objects its key's ids belong to alive
        self.memo: dict[tuple[int, int, tuple[int, ...]], tuple[Any, Sym, Any, list[Any]]] = {}
        self._refs: dict[int, tuple[Any, tuple[str, ...]]] = {}

    def refs(self, e: ir.IRNode) -> tuple[str, ...]:
        """The parameters an IR subtree names, sorted."""
        hit = self._refs.get(id(e))
        if hit is None:
            names = tuple(sorted({n.name for n in ir.walk(e) if isinstance(n, ir.Param)}))
            hit = self._refs[id(e)] = (e, names)
        return hit[1]

    # ------------------------------------------------------------ fresh values
    def name(self, hint: str) -> str:
        return f"{self.prefix}{hint}!{next(self._n)}"

    def approximate(self, why: str) -> None:
        self.exact = False
        if why not in self.inexact:
            self.inexact.append(why)

    def fresh(self, t: ir.Type | None, hint: str, nullable: bool | None = None) -> Sym:
        """An unconstrained value of type ``t`` (null allowed when the type is optional)."""
        type_name = tname(t)
        can_null = (t is not None and t.optional) if nullable is None else nullable
        null = z3.Bool(self.name(hint + ".null")) if can_null else z3.BoolVal(False)
        if type_name == "record" and t is not None and t.record:
            rdef = self.record_def(t.record)
            if rdef is not None:
                return Sym(
                    "rec",
                    fields={f.name: self.fresh(f.type, hint + "." + f.name) for f in rdef.fields},
                )
        if type_name == "list" and t is not None and t.item is not None and t.item.members:
            members = tuple(t.item.members)
            bits = tuple(z3.Bool(self.name(f"{hint}.{m}")) for m in members)
            return Sym("set", bits, null, members=members, type="list")
        sort = SORT_OF.get(type_name)
        if sort == "str":
            term = z3.Int(self.name(hint))
            if type_name == "enum" and t is not None and t.members:
                # an app model's enum field holds one of its members
                ids = [self.texts.id(m, "enum") for m in t.members]
                self.side.append(z3.Or(null, *[term == i for i in ids]))
            return Sym("str", term, null, type=type_name)
        if sort == "int":
            return Sym("int", z3.Int(self.name(hint)), null, type=type_name)
        if sort == "real":
            return Sym("real", z3.Real(self.name(hint)), null, type=type_name)
        if sort == "bool":
            return Sym("bool", z3.Bool(self.name(hint)), null, type=type_name)
        return Sym("opaque", null=null, type=type_name)

    def opaque_bool(self, why: str) -> Sym:
        self.approximate(why)
        return Sym("bool", z3.Bool(self.name("opaque")), type="bool")

    def record_def(self, qualified: str) -> ir.RecordDef | None:
        app, _, rec = qualified.partition(".")
        model = self.apps.get(app)
        return model.record(rec) if model else None

    # ------------------------------------------------------------ concrete values
    def const(self, value: Any, t: ir.Type | None) -> Sym:
        """A concrete value as the verifier stores it, with its tasklang type."""
        type_name = tname(t)
        if value is None:
            base = self.fresh(t, "null", nullable=False) if type_name in SORT_OF else Sym("opaque")
            base.null = z3.BoolVal(True)
            base.py = None
            if base.sort == "opaque":
                base.type = type_name
            return base
        if isinstance(value, dict):
            rdef = self.record_def(t.record) if t is not None and t.record else None
            ftypes = {f.name: f.type for f in rdef.fields} if rdef else {}
            if t is not None and t.fields:
                ftypes.update(dict(t.fields))
            fields = {k: self.const(v, ftypes.get(k) or _guess_type(v)) for k, v in value.items()}
            return Sym("rec", fields=fields, py=value, type="record")
        if isinstance(value, list):
            item = t.item if t is not None else None
            if item is not None and item.members:
                members = tuple(item.members)
                present = {norm(v) for v in value}
                bits = tuple(z3.BoolVal(norm(m) in present) for m in members)
                return Sym("set", bits, members=members, py=value, type="list")
            return Sym("opaque", py=value, type="list")
        if type_name == "any":
            return self.const(value, _guess_type(value))
        sort = SORT_OF.get(type_name)
        if sort == "str":
            return Sym("str", z3.IntVal(self.texts.id(value, type_name)), py=value, type=type_name)
        if sort == "bool":
            return Sym("bool", z3.BoolVal(bool(value)), py=value, type=type_name)
        if type_name in ("date", "time", "datetime"):
            seconds = to_seconds(value, type_name)
            if seconds is None:
                return Sym("opaque", py=value, type=type_name)
            return Sym("int", z3.IntVal(seconds), py=value, type=type_name)
        if type_name == "money":
            cents = cmp.to_cents(value)
            if cents is None:
                return Sym("opaque", py=value, type=type_name)
            return Sym("int", z3.IntVal(cents), py=value, type=type_name)
        if sort == "int":
            number = cmp.to_number(value)
            if number is None or not float(number).is_integer():
                return Sym("real", z3.RealVal(str(number or 0)), py=value, type=type_name)
            return Sym("int", z3.IntVal(int(number)), py=value, type=type_name)
        if sort == "real":
            number = cmp.to_number(value)
            return Sym(
                "real",
                z3.RealVal(str(number if number is not None else 0)),
                py=value,
                type=type_name,
            )
        return Sym("opaque", py=value, type=type_name)

    # ------------------------------------------------------------ combinators
    def ite(self, cond: Any, a: Sym, b: Sym) -> Sym:
        """``a`` if ``cond`` else ``b``, component by component."""
        known = _constant(cond)
        if known:
            return a if known > 0 else b
        null = z3.If(cond, a.null, b.null)
        if a.sort == "rec" and b.sort == "rec":
            names = set(a.fields) | set(b.fields)
            fields = {
                n: self.ite(
                    cond,
                    a.fields.get(n) or self.const(None, None),
                    b.fields.get(n) or self.const(None, None),
                )
                for n in names
            }
            return Sym("rec", fields=fields, type="record")
        a, b = self.unify(a, b)
        if a.sort != b.sort or a.sort == "opaque":
            self.approximate("a choice between values of different kinds")
            return Sym("opaque", null=null, type=a.type)
        if a.sort == "set":
            if a.members != b.members:
                return Sym("opaque", null=null, type="list")
            bits = tuple(z3.If(cond, x, y) for x, y in zip(a.term, b.term, strict=True))
            return Sym("set", bits, null, members=a.members, type="list")
        return Sym(
            a.sort, z3.If(cond, a.term, b.term), null, type=a.type if a.type != "any" else b.type
        )

    def unify(self, a: Sym, b: Sym) -> tuple[Sym, Sym]:
        """Two values in one sort (int to real when one side is real; null takes the other's)."""
        if a.concrete and a.py is None and b.sort != "opaque" and a.sort != b.sort:
            a = self._null_like(b)
        if b.concrete and b.py is None and a.sort != "opaque" and a.sort != b.sort:
            b = self._null_like(a)
        if a.sort == "int" and b.sort == "real":
            a = Sym("real", z3.ToReal(a.term), a.null, a.py, type=a.type)
        elif a.sort == "real" and b.sort == "int":
            b = Sym("real", z3.ToReal(b.term), b.null, b.py, type=b.type)
        return a, b

    def _null_like(self, other: Sym) -> Sym:
        zero: dict[str, Any] = {
            "str": z3.IntVal(0), "int": z3.IntVal(0), "real": z3.RealVal(0), "bool": z3.BoolVal(False),
        }  # fmt: skip
        if other.sort == "set":
            return Sym(
                "set",
                tuple(z3.BoolVal(False) for _ in other.members),
                z3.BoolVal(True),
                None,
                other.members,
                type="list",
            )
        return Sym(other.sort, zero.get(other.sort), z3.BoolVal(True), None, type=other.type)

    # ------------------------------------------------------------ comparisons
    def compare(
        self,
        op: str,
        a: Sym,
        b: Sym,
        common: str,
        within: Sym | None = None,
        fuzzy: float | None = None,
        unordered: bool = False,
        exact: bool = False,
        a_item: str = "any",
        b_item: str = "any",
    ) -> Any:
        """A comparison as a z3 boolean, following ``verifiers.evaluate.compare_values``."""
        if a.concrete and b.concrete and (within is None or within.concrete):
            try:
                return z3.BoolVal(
                    compare_values(op, a.py, a.type, b.py, b.type, within.py if within else None,
                                   fuzzy, unordered, exact, a_item, b_item)
                )  # fmt: skip
            except Exception:
                return self.opaque_bool("a comparison the verifier rejects").term
        if op in ("==", "!=") and fuzzy is not None:
            return self.opaque_bool("fuzzy equality").term
        if op in ("==", "!="):
            same = self.equal(a, b, common, within, unordered, exact)
            return same if op == "==" else z3.Not(same)
        if (a.concrete and a.py is None) or (b.concrete and b.py is None):
            return z3.BoolVal(False)  # the verifier: an ordering or match with null is false
        both = and_(not_(a.null), not_(b.null))
        if op == "~":
            if a.sort == "str" and b.sort == "str" and common != "phone":
                self.approximate("fuzzy text match (~) on unknown text")
                same = z3.And(a.term == b.term, b.term != 0)  # equal texts match
                return z3.And(both, z3.Or(same, z3.Bool(self.name("similar"))))
            return z3.And(both, self.opaque_bool("fuzzy match on a non-text value").term)
        if op == "matches":
            return z3.And(both, self.opaque_bool("a regular expression on unknown text").term)
        if op in ("in", "contains"):
            container, item = (b, a) if op == "in" else (a, b)
            return and_(both, self.contains(container, item))
        a, b = self.unify(a, b)
        if a.sort not in ("int", "real") or b.sort not in ("int", "real"):
            return self.opaque_bool(f"ordering of {common} values").term
        rel: dict[str, Callable[[Any, Any], Any]] = {
            "<": lambda x, y: x < y, "<=": lambda x, y: x <= y,
            ">": lambda x, y: x > y, ">=": lambda x, y: x >= y,
        }  # fmt: skip
        return and_(both, rel[op](a.term, b.term))

    def equal(
        self, a: Sym, b: Sym, common: str, within: Sym | None, unordered: bool, exact: bool
    ) -> Any:
        if common == "phone":
            self.approximate("phone numbers compared by their last ten digits")
        if exact and common in ("text", "enum", "email", "file"):
            self.approximate("exact text compared in normalized form")
        both_null = and_(a.null, b.null)
        neither = and_(not_(a.null), not_(b.null))
        a, b = self.unify(a, b)
        if a.sort == "set" and b.sort == "set" and a.members == b.members:
            if not unordered:
                self.approximate("ordered list equality compared as sets")
            else:
                self.approximate("multiset equality compared as sets")
            same = and_(*[x == y for x, y in zip(a.term, b.term, strict=True)])
            return or_(both_null, and_(neither, same))
        if a.sort != b.sort or a.sort in ("opaque", "rec", "set"):
            return self.opaque_bool(f"equality of {common} values").term
        if within is not None and a.sort in ("int", "real"):
            tol = within
            if tol.sort not in ("int", "real"):
                return self.opaque_bool("a tolerance that is not a number").term
            diff = a.term - b.term
            tol_term = tol.term
            if a.sort == "int" and tol.sort == "real":
                diff = z3.ToReal(diff)
            close = z3.And(diff <= tol_term, -diff <= tol_term)
            return or_(both_null, and_(neither, close))
        return or_(both_null, and_(neither, a.term == b.term))

    def contains(self, container: Sym, item: Sym) -> Any:
        if container.sort == "set":
            if item.concrete and item.py is not None:
                key = norm(item.py)
                return z3.Or(
                    z3.BoolVal(False),
                    *[
                        bit
                        for m, bit in zip(container.members, container.term, strict=True)
                        if norm(m) == key
                    ],
                )
            if item.sort == "str":
                return z3.Or(
                    z3.BoolVal(False),
                    *[
                        z3.And(bit, item.term == self.texts.id(m, "enum"))
                        for m, bit in zip(container.members, container.term, strict=True)
                    ],
                )
        if container.sort == "str" and item.sort == "str":
            self.approximate("text containment on unknown text")
            return z3.Or(
                container.term == item.term, item.term == 0, z3.Bool(self.name("contains"))
            )
        if container.concrete and isinstance(container.py, list):
            options = [self.const(v, _guess_type(v)) for v in container.py]
            return z3.Or(
                z3.BoolVal(False),
                *[
                    self.equal(item, o, _common(item.type, o.type), None, False, False)
                    for o in options
                ],
            )
        return self.opaque_bool("membership in a list").term

    # ------------------------------------------------------------ arithmetic
    def arith(self, op: str, a: Sym, b: Sym, at: str, bt: str, result: str) -> Sym:
        null = z3.Or(a.null, b.null)
        if (
            a.sort == "opaque"
            or b.sort == "opaque"
            or a.sort not in ("int", "real")
            or b.sort not in ("int", "real")
        ):
            self.approximate("arithmetic on values the encoder does not model")
            return self.fresh(ir.Type(name=result if result in SORT_OF else "number"), "arith")
        if at in ("date", "datetime", "time") and bt == "duration":
            delta = b.term if op == "+" else -b.term
            if at == "date":
                if b.sort != "int":
                    return self.fresh(ir.Type(name="date"), "arith")
                term = a.term + (delta / DAY) * DAY if op == "+" else a.term - (b.term / DAY) * DAY
                self.approximate("a date moved by a duration (whole days)")
                return Sym("int", term, null, type="date")
            if at == "time":
                return Sym("int", (a.term + delta) % DAY, null, type="time")
            return Sym("int", a.term + delta, null, type="datetime")
        a, b = self.unify(a, b)
        if op == "/":
            self.approximate("division")
            x = z3.ToReal(a.term) if a.sort == "int" else a.term
            y = z3.ToReal(b.term) if b.sort == "int" else b.term
            return Sym("real", x / y, z3.Or(null, y == 0), type=result)
        term = {"+": a.term + b.term, "-": a.term - b.term, "*": a.term * b.term}[op]
        if a.sort == "real" and result in ("money", "int", "duration"):
            self.approximate("rounding to a whole number")
        return Sym(a.sort, term, null, type=result)


def _common(a: str, b: str) -> str:
    return cmp.common_type(a, b)


def _guess_type(value: Any) -> ir.Type:
    if isinstance(value, bool):
        return ir.Type(name="bool")
    if isinstance(value, int):
        return ir.Type(name="int")
    if isinstance(value, float):
        return ir.Type(name="number")
    return ir.Type(name="text")


def _constant(x: Any) -> int:
    """1 for the constant true, -1 for false, 0 for any other term: one call into z3, where
    ``z3.is_true`` and ``z3.is_false`` take several each (this is the encoder's hottest
    test)."""
    if isinstance(x, z3.ExprRef):
        return int(z3core.Z3_get_bool_value(x.ctx_ref(), x.as_ast()))
    return 1 if z3.is_true(x) else -1 if z3.is_false(x) else 0


def and_(*items: Any) -> Any:
    """Conjunction that folds constants (cheaper terms, and far fewer z3 calls)."""
    kept = []
    for x in items:
        known = _constant(x)
        if known < 0:
            return z3.BoolVal(False)
        if known == 0:
            kept.append(x)
    if not kept:
        return z3.BoolVal(True)
    return kept[0] if len(kept) == 1 else z3.And(*kept)


def or_(*items: Any) -> Any:
    kept = []
    for x in items:
        known = _constant(x)
        if known > 0:
            return z3.BoolVal(True)
        if known == 0:
            kept.append(x)
    if not kept:
        return z3.BoolVal(False)
    return kept[0] if len(kept) == 1 else z3.Or(*kept)


def not_(x: Any) -> Any:
    known = _constant(x)
    if known:
        return z3.BoolVal(known < 0)
    return z3.Not(x)


def distinct_all(values: Sequence[Any]) -> Any:
    return z3.Distinct(*values) if len(values) > 1 else z3.BoolVal(True)


def conj(items: Iterable[Any]) -> Any:
    return and_(*items)


def disj(items: Iterable[Any]) -> Any:
    return or_(*items)
