"""Evaluate compiled IR expressions on a world snapshot.

Values are JSON values as snapshots hold them (money in cents, dates as ISO text). A
quantifier records which record decided it, so clauses can cite their evidence.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tasklang import ir
from tasklang.verifiers import compare as cmp
from tasklang.verifiers.snapshot import WorldSnapshot
from tasklang.verifiers.verdict import Evidence


class EvalError(Exception):
    """An expression that cannot be evaluated on this snapshot (reported, not raised)."""


class Unknown(Exception):
    """The value depends on a field a record was read without (only with ``Env.partial``).
    Conditions combine it as three-valued logic does: ``false and unknown`` is false, and a
    quantifier is decided by any record that decides it."""


@dataclass
class Env:
    """What names mean during evaluation."""

    apps: dict[str, ir.AppModel]
    params: dict[str, Any]
    snapshot: WorldSnapshot
    answer: str | None = None
    record: dict[str, Any] | None = None
    evidence: list[Evidence] = field(default_factory=list)
    # a field a record does not hold was not read: its value is unknown (raise Unknown),
    # not null
    partial: bool = False
    # collections read in part: any number of records (none, maybe) the snapshot does not
    # hold, each known to hold these field values (and nothing more: only with ``partial``)
    unlisted: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)

    def with_record(self, record: dict[str, Any]) -> Env:
        return Env(
            self.apps, self.params, self.snapshot, self.answer, record, self.evidence,
            self.partial, self.unlisted,
        )  # fmt: skip

    def unlisted_of(self, ref: ir.Expr) -> dict[str, Any] | None:
        """What every record of ``ref`` the snapshot does not hold is known to hold (None:
        the snapshot holds them all)."""
        if not isinstance(ref, ir.CollectionRef):
            return None
        return self.unlisted.get((ref.app, ref.name))

    def condition_on_unlisted(self, ref: ir.Expr, where: ir.Expr | None) -> bool | None:
        """``where`` on the records of ``ref`` the snapshot does not hold, by the values they
        are known to hold (no condition: true; None: it depends on what is not known)."""
        known = self.unlisted_of(ref)
        if known is None or where is None:
            return True
        partial = Env(
            self.apps, self.params, self.snapshot, self.answer, dict(known), [], True,
            self.unlisted,
        )  # fmt: skip
        return _known(where, partial)


def type_name(e: ir.Expr | None) -> str:
    return e.type.name if e is not None and e.type is not None else "any"


def item_type_name(e: ir.Expr) -> str:
    t = e.type
    if t is not None and t.name == "list" and t.item is not None:
        return t.item.name
    return "any"


def evaluate(e: ir.Expr, env: Env) -> Any:
    """The value of ``e`` in ``env``."""
    method: Callable[[Any, Env], Any] = _DISPATCH[e.node]
    return method(e, env)


def collection(env: Env, ref: ir.Expr) -> list[dict[str, Any]]:
    if not isinstance(ref, ir.CollectionRef):
        value = evaluate(ref, env)
        return value if isinstance(value, list) else []
    return list(env.snapshot.app(ref.app).collections.get(ref.name, []))


def _lit(e: ir.Lit, env: Env) -> Any:
    return e.value


def _param(e: ir.Param, env: Env) -> Any:
    if e.name not in env.params:
        raise EvalError(f"parameter `{e.name}` has no value in this instance")
    return env.params[e.name]


def _field(e: ir.FieldRef, env: Env) -> Any:
    base = env.record if e.base is None else evaluate(e.base, env)
    if not isinstance(base, dict):
        return None
    if env.partial and e.base is None and e.name not in base:
        raise Unknown(e.name)
    return base.get(e.name)


def _collection(e: ir.CollectionRef, env: Env) -> Any:
    if env.unlisted_of(e) is not None:  # used whole: records are missing from it
        raise Unknown(f"{e.app}.{e.name}")
    return collection(env, e)


def _setting(e: ir.SettingRef, env: Env) -> Any:
    # A setting the snapshot did not record is unknown (null), not its default.
    return env.snapshot.app(e.app).settings.get(e.name)


def _now(e: ir.Now, env: Env) -> Any:
    if env.snapshot.clock is None:
        raise EvalError("the snapshot has no clock")
    return env.snapshot.clock


def _answer(e: ir.AnswerRef, env: Env) -> Any:
    return env.answer


def _neg(e: ir.Neg, env: Env) -> Any:
    value = evaluate(e.operand, env)
    return -value if isinstance(value, (int, float)) else None


def _arith(e: ir.Arith, env: Env) -> Any:
    left, right = evaluate(e.left, env), evaluate(e.right, env)
    if left is None or right is None:
        return None
    return arith(e.op, left, type_name(e.left), right, type_name(e.right), type_name(e))


def arith(op: str, a: Any, at: str, b: Any, bt: str, result: str) -> Any:
    """Typed arithmetic on stored values (cents, ISO dates, seconds)."""
    if at in ("date", "datetime", "time") and bt == "duration":
        return shift(a, at, b if op == "+" else -b)
    if at == bt and at in ("date", "datetime", "time") and op == "-":
        return cmp.difference(cmp.coerce(a, at), cmp.coerce(b, bt), at)
    x, y = cmp.to_number(a), cmp.to_number(b)
    if x is None or y is None:
        return None
    if op == "/" and y == 0:
        return None
    value = {"+": x + y, "-": x - y, "*": x * y, "/": x / y if y else 0.0}[op]
    return round(value) if result in ("money", "int", "duration") else value


def shift(value: Any, type_name: str, seconds: float) -> Any:
    """A date, time or datetime moved by a number of seconds (as ISO text)."""
    delta = dt.timedelta(seconds=seconds)
    if type_name == "datetime":
        moment = cmp.to_datetime(value)
        return (moment + delta).isoformat() if moment else None
    if type_name == "date":
        day = cmp.to_date(value)
        return (day + dt.timedelta(days=int(seconds // 86400))).isoformat() if day else None
    t = cmp.to_time(value)
    if t is None:
        return None
    return (dt.datetime.combine(dt.date(2000, 1, 1), t) + delta).time().isoformat()


def ranged(name: str) -> str:
    """The key under which a record read without field ``name``, but with what its value
    may be, holds that: the range it lies in (a time a screen shows to the minute), ``{"from":
    LOW, "to": HIGH}``, both ends included, or the values it is one of (a status text two
    values share), ``{"one_of": [A, B]}``. Only a comparison reads it (see :class:`Env`
    ``partial``); to the rest the field is unknown."""
    return f"{name}~"


def _known_of(e: ir.Expr, env: Env) -> dict[str, Any] | None:
    """What a field of the record may be, where the record was read with that instead of
    the value (:func:`ranged`; None: the field is read, or not known at all)."""
    record = env.record
    if not env.partial or not isinstance(e, ir.FieldRef) or e.base is not None or record is None:
        return None
    known = record.get(ranged(e.name)) if e.name not in record else None
    if not isinstance(known, dict):
        return None
    if ("from" in known and "to" in known) or isinstance(known.get("one_of"), list):
        return known
    return None


def _range_of(known: dict[str, Any] | None) -> tuple[Any, Any] | None:
    """The lowest and highest value of a range :func:`_known_of` found (None: no range)."""
    return (known["from"], known["to"]) if known is not None and "from" in known else None


_ORDERED = ("==", "!=", "<", "<=", ">", ">=")


def _compare_ranged(
    e: ir.Compare, env: Env, left: tuple[Any, Any] | None, right: tuple[Any, Any] | None
) -> bool:
    """A comparison one side of which is a field read only as a range: decided where every
    value in the range gives the same answer (``placed_at < 2026-05-11T09:00`` for a time
    shown as 08:01 that day), else :class:`Unknown`. A tolerance, fuzzy and text matching
    are not decided."""
    if e.op not in _ORDERED or e.within is not None or e.fuzzy is not None:
        raise Unknown(f"`{e.op}` on a value read only as a range")
    kind = cmp.common_type(type_name(e.left), type_name(e.right))
    a = left if left is not None else _point(evaluate(e.left, env))
    b = right if right is not None else _point(evaluate(e.right, env))
    if a[0] is None or b[0] is None:  # a value read as a range is not null
        return e.op == "!="
    signs = [cmp.order(x, y, kind) for x, y in ((a[1], b[0]), (a[0], b[1]))]
    if signs[0] is None or signs[1] is None:
        raise Unknown("a value read as a range, compared with what does not order with it")
    high_below, low_above = signs[0], signs[1]  # a's top against b's bottom, and the reverse
    decided = {
        "<": True if high_below < 0 else False if low_above >= 0 else None,
        "<=": True if high_below <= 0 else False if low_above > 0 else None,
        ">": True if low_above > 0 else False if high_below <= 0 else None,
        ">=": True if low_above >= 0 else False if high_below < 0 else None,
        "==": False if high_below < 0 or low_above > 0 else None,
    }
    result = decided["==" if e.op == "!=" else e.op]
    if result is None:
        raise Unknown("a value read as a range that holds values either way")
    return (not result) if e.op == "!=" else result


def _point(value: Any) -> tuple[Any, Any]:
    return (value, value)


def _compare_among(
    e: ir.Compare, env: Env, left: dict[str, Any] | None, right: dict[str, Any] | None
) -> bool:
    """A comparison one side of which is a field read only as one of several values: decided
    where every one of them gives the same answer, else :class:`Unknown`."""
    if (left is not None and "one_of" not in left) or (right is not None and "one_of" not in right):
        raise Unknown("a value read as a range compared with one read as one of several")
    lefts = left["one_of"] if left is not None else [evaluate(e.left, env)]
    rights = right["one_of"] if right is not None else [evaluate(e.right, env)]
    within = evaluate(e.within, env) if e.within is not None else None
    answers = {
        compare_values(e.op, a, type_name(e.left), b, type_name(e.right), within, e.fuzzy,
                       e.unordered, e.exact, item_type_name(e.left), item_type_name(e.right))
        for a in lefts for b in rights
    }  # fmt: skip
    if len(answers) != 1:
        raise Unknown("a value read as one of several that answer either way")
    return answers.pop()


def _extreme_side(
    e: ir.Compare, env: Env
) -> tuple[ir.FieldRef, ir.Aggregate, tuple[Any, Any]] | None:
    """The record's field, the ``min`` or ``max`` of that field it is compared with for
    equality (``paid_at == max(payments where ..., paid_at)``), and the range the record
    holds the field only as (None: the comparison is no such one)."""
    if not env.partial or env.record is None or e.op not in ("==", "!=") or e.within is not None:
        return None
    for mine, other in ((e.left, e.right), (e.right, e.left)):
        if (
            isinstance(mine, ir.FieldRef)
            and isinstance(other, ir.Aggregate)
            and other.fn in ("min", "max")
            and other.field == mine.name
        ):
            own = _range_of(_known_of(mine, env))
            return (mine, other, own) if own is not None else None
    return None


def _is_extreme(
    mine: ir.FieldRef, agg: ir.Aggregate, own: tuple[Any, Any], env: Env
) -> bool | None:
    """Whether the record's field, read only as a range, is the ``min`` or ``max`` of the
    records ``agg`` takes, the record among them: true where every other one's value lies
    on the near side of the whole range (a payment shown at 09:14 is the latest of those
    shown at 08:30 and 09:02), false where some other one's lies wholly beyond it, else
    :class:`Unknown` (None: the record is not among them, and the values alone decide).
    Compared with the extreme's value, the range overlaps it whenever the record is the
    extreme: which record it is decides what the values alone do not."""
    record = env.record
    records = matching(agg, env)
    if not any(r is record for r in records):
        return None
    kind = type_name(mine)
    settled = True
    for other in records:
        if other is record:
            continue
        theirs = (
            _point(other[mine.name])
            if mine.name in other
            else _range_of(_known_of(mine, env.with_record(other)))
        )
        if theirs is None:
            raise Unknown(mine.name)
        if theirs[0] is None:
            continue  # no value: the aggregate passes it over
        # for `max`: this one's lowest value above the range's highest (it is later than
        # the record whatever the seconds), or its highest above the range's lowest (it
        # may be); for `min` the same, below
        if agg.fn == "max":
            beyond, reaches = cmp.order(theirs[0], own[1], kind), cmp.order(theirs[1], own[0], kind)
        else:
            beyond, reaches = cmp.order(own[0], theirs[1], kind), cmp.order(own[1], theirs[0], kind)
        if beyond is None or reaches is None:
            raise Unknown("a value read as a range, compared with what does not order with it")
        if beyond > 0:
            return False
        if reaches > 0:
            settled = False
    if not settled:
        raise Unknown("a value read as a range that may or may not be the extreme")
    return True


def _compare(e: ir.Compare, env: Env) -> bool:
    extreme = _extreme_side(e, env)
    among = _is_extreme(*extreme, env) if extreme is not None else None
    if among is not None:
        return among == (e.op == "==")
    left_known, right_known = _known_of(e.left, env), _known_of(e.right, env)
    if any(k is not None and "one_of" in k for k in (left_known, right_known)):
        return _compare_among(e, env, left_known, right_known)
    left_range, right_range = _range_of(left_known), _range_of(right_known)
    if left_range is not None or right_range is not None:
        return _compare_ranged(e, env, left_range, right_range)
    left, right = evaluate(e.left, env), evaluate(e.right, env)
    within = evaluate(e.within, env) if e.within is not None else None
    return compare_values(
        e.op,
        left,
        type_name(e.left),
        right,
        type_name(e.right),
        within,
        e.fuzzy,
        e.unordered,
        e.exact,
        item_type_name(e.left),
        item_type_name(e.right),
    )


def compare_values(
    op: str,
    left: Any,
    lt: str,
    right: Any,
    rt: str,
    within: Any = None,
    fuzzy: float | None = None,
    unordered: bool = False,
    exact: bool = False,
    l_item: str = "any",
    r_item: str = "any",
) -> bool:
    """Apply a comparison operator with the typed comparators."""
    if op in ("==", "!=") and fuzzy is not None and left is not None and right is not None:
        same = cmp.fuzzy_ratio(left, right) >= fuzzy
        return same if op == "==" else not same
    if op in ("==", "!="):
        same = values_equal(left, lt, right, rt, within, unordered, exact, l_item, r_item)
        return same if op == "==" else not same
    if left is None or right is None:
        return False
    if op == "~":
        return cmp.fuzzy_match(left, right, fuzzy)
    if op == "matches":
        try:
            return re.search(str(right), str(left)) is not None
        except re.error:
            return False
    if op in ("in", "contains"):
        container, item, ct, it = (right, left, rt, lt) if op == "in" else (left, right, lt, rt)
        return contains(container, ct, item, it, r_item if op == "in" else l_item)
    sign = cmp.order(left, right, cmp.common_type(lt, rt))
    if sign is None:
        return False
    return {"<": sign < 0, "<=": sign <= 0, ">": sign > 0, ">=": sign >= 0}[op]


def values_equal(
    left: Any,
    lt: str,
    right: Any,
    rt: str,
    within: Any,
    unordered: bool,
    exact: bool,
    l_item: str,
    r_item: str,
) -> bool:
    if lt == "list" or rt == "list" or isinstance(left, list) or isinstance(right, list):
        item = cmp.common_type(l_item, r_item)
        a = cmp.split_answer(left) if left is not None else []
        b = cmp.split_answer(right) if right is not None else []
        return cmp.lists_equal(a, b, item, unordered, exact, within)
    return cmp.equal(left, right, cmp.common_type(lt, rt), exact, within)


def contains(container: Any, ct: str, item: Any, it: str, container_item: str) -> bool:
    if isinstance(container, list):
        kind = cmp.common_type(container_item, it)
        return any(cmp.equal(x, item, kind) for x in container)
    return cmp.norm_text(item) in cmp.norm_text(container)


def _logic(e: ir.Logic, env: Env) -> bool:
    left = _known(e.left, env)
    # the value of the left side that decides the whole: false for `and`, true for `or`
    # and for `implies` (whose left side is negated)
    deciding = e.op != "and"
    if left is not None:
        left = left if e.op != "implies" else not left
        if left is deciding:
            return deciding
        return bool(evaluate(e.right, env))
    right = bool(evaluate(e.right, env))  # the left side is unknown
    if right is deciding:
        return deciding
    raise Unknown("a condition")


def _known(e: ir.Expr, env: Env) -> bool | None:
    """The condition's value; None where it is unknown (see :class:`Unknown`)."""
    try:
        return bool(evaluate(e, env))
    except Unknown:
        return None


def _not(e: ir.Not, env: Env) -> bool:
    return not evaluate(e.operand, env)


def matching(e: ir.Quant | ir.Count | ir.Aggregate, env: Env) -> list[dict[str, Any]]:
    records = collection(env, e.source)
    src = e.source
    if (
        isinstance(src, ir.CollectionRef)
        and env.unlisted_of(src) is not None
        and env.condition_on_unlisted(src, e.where) is not False
    ):  # the records not read may match, or not: how many is unknown
        raise Unknown(f"the records of {src.app}.{src.name} not read")
    if e.where is None:
        return records
    return [r for r in records if evaluate(e.where, env.with_record(r))]  # Unknown: unknown


# For each quantifier: the value of the condition on a record that settles the answer, and
# the evidence that record is.
_DECIDING_RECORD = {
    "exists": (True, "a record satisfies the condition"),
    "none": (True, "a record should not exist"),
    "all": (False, "a record fails the condition"),
}


def _quant(e: ir.Quant, env: Env) -> bool:
    source = e.source
    app = source.app if isinstance(source, ir.CollectionRef) else None
    name = source.name if isinstance(source, ir.CollectionRef) else None
    records = collection(env, source)
    deciding, detail = _DECIDING_RECORD[e.quantifier]
    unknown = False
    for record in records:
        hit = True if e.where is None else _known(e.where, env.with_record(record))
        unknown = unknown or hit is None
        if hit is deciding:
            env.evidence.append(
                Evidence(kind="record", detail=detail, app=app, collection=name, record=record)
            )
            return e.quantifier == "exists"
    if env.unlisted_of(source) is not None:  # a record not read may decide it (if any is)
        hit = env.condition_on_unlisted(source, e.where)
        unknown = unknown or hit is None or hit is deciding
    if unknown:  # no record decides it, and one that is not known might
        raise Unknown(f"{app}.{name}")
    if e.quantifier == "exists":
        env.evidence.append(
            Evidence(
                kind="missing",
                app=app,
                collection=name,
                detail=f"no record of {len(records)} satisfies the condition",
            )
        )
        return False
    return True


def _count(e: ir.Count, env: Env) -> int:
    return len(matching(e, env))


def _aggregate(e: ir.Aggregate, env: Env) -> Any:
    records = matching(e, env)
    if env.partial and any(e.field not in r for r in records):
        raise Unknown(e.field)
    values = [r.get(e.field) for r in records]
    values = [v for v in values if v is not None]
    ftype = type_name(e)
    if e.fn == "sum":
        total = sum(cmp.to_number(v) or 0.0 for v in values)
        whole = ftype in ("money", "int", "duration") and float(total).is_integer()
        return int(total) if whole else total
    if not values:
        return None
    if e.fn == "avg":
        nums = [cmp.to_number(v) or 0.0 for v in values]
        return sum(nums) / len(nums)
    keyed = [(cmp.coerce(v, ftype), v) for v in values]
    keyed = [(k, v) for k, v in keyed if k is not None]
    if not keyed:
        return None
    chosen = (min if e.fn == "min" else max)(keyed, key=lambda kv: kv[0])
    return chosen[1]


def _list(e: ir.ListExpr, env: Env) -> list[Any]:
    return [evaluate(i, env) for i in e.items]


def _record(e: ir.RecordExpr, env: Env) -> dict[str, Any]:
    return {f.name: evaluate(f.value, env) for f in e.fields}


def _unresolved(e: ir.Expr, env: Env) -> Any:
    raise EvalError(f"`{e.node}` nodes do not appear in compiled tasks")


_DISPATCH: dict[str, Callable[[Any, Env], Any]] = {
    "lit": _lit, "param": _param, "field": _field, "collection": _collection,
    "setting": _setting, "now": _now, "answer": _answer, "neg": _neg, "arith": _arith,
    "compare": _compare, "logic": _logic, "not": _not, "quant": _quant, "count": _count,
    "aggregate": _aggregate, "list": _list, "record": _record, "path": _unresolved,
    "has": _unresolved,
}  # fmt: skip
