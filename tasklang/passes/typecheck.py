"""Type check: give every expression a type, coerce literals, report mismatches.

Literals take the type of what they are compared with or assigned to: `3` against a
money field becomes 300 cents, `"work"` against an enum must be one of its members.

>>> from tasklang import ir
>>> from tasklang.passes.context import Context
>>> task = ir.Task(id="t", constraints=[ir.Lit(value=3, type=ir.Type(name="int"))])
>>> [d.code for d in run(task, Context())[1]]
['TL1008']
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from tasklang import ir
from tasklang.diagnostics import Diagnostic, did_you_mean
from tasklang.passes.context import Context
from tasklang.source import Span
from tasklang.types import (
    GENERATORS,
    RANGE_TYPES,
    coerce_scalar,
    compatible,
    is_numeric,
    is_ordered,
    is_text,
    loose,
    scalar,
    unify,
    whole_minute,
)  # fmt: skip

ANY = scalar("any")
BOOL = scalar("bool")


@dataclass
class Checker:
    task: ir.Task
    ctx: Context
    diagnostics: list[Diagnostic] = field(default_factory=list)
    param_types: dict[str, ir.Type] = field(default_factory=dict)

    def error(self, code: str, message: str, span: Span | None, help: str | None = None) -> None:
        self.diagnostics.append(
            Diagnostic(code, message, span or self.task.span or Span(), help=help)
        )

    # ------------------------------------------------------------ entry points
    def boolean(self, e: ir.Expr, record: ir.RecordDef | None, what: str) -> ir.Expr:
        out = self.expr(e, record)
        t = out.type or ANY
        if t.name not in ("bool", "any"):
            self.error(
                "TL1008",
                f"{what} must be a boolean, found `{t}`",
                e.span,
                "compare it with something, e.g. `x == ...`",
            )
        return out

    def expr(self, e: ir.Expr, record: ir.RecordDef | None) -> ir.Expr:
        method = getattr(self, f"_{e.node}")
        out: ir.Expr = method(e, record)
        return out

    def typed(self, e: ir.Expr, t: ir.Type, **update: Any) -> ir.Expr:
        return e.model_copy(update={**update, "type": t})

    # ------------------------------------------------------------ leaves
    def _lit(self, e: ir.Lit, record: ir.RecordDef | None) -> ir.Expr:
        return e if e.type is not None else self.typed(e, ANY)

    def _path(self, e: ir.Path, record: ir.RecordDef | None) -> ir.Expr:
        return self.typed(e, ANY)

    def _param(self, e: ir.Param, record: ir.RecordDef | None) -> ir.Expr:
        return self.typed(e, self.param_types.get(e.name, ANY))

    def _now(self, e: ir.Now, record: ir.RecordDef | None) -> ir.Expr:
        return self.typed(e, scalar("datetime"))

    def _answer(self, e: ir.AnswerRef, record: ir.RecordDef | None) -> ir.Expr:
        return self.typed(e, scalar("answer"))

    def _collection(self, e: ir.CollectionRef, record: ir.RecordDef | None) -> ir.Expr:
        rec = self.ctx.collection_record(e)
        if rec is None:
            return self.typed(e, ANY)
        item = ir.Type(name="record", record=f"{e.app}.{rec.name}")
        return self.typed(e, ir.Type(name="list", item=item))

    def _setting(self, e: ir.SettingRef, record: ir.RecordDef | None) -> ir.Expr:
        app = self.ctx.apps.get(e.app)
        setting = app.setting(e.name) if app else None
        return self.typed(e, setting.type if setting else ANY)

    def _field(self, e: ir.FieldRef, record: ir.RecordDef | None) -> ir.Expr:
        if e.base is None:
            rec = record
            base = None
        else:
            base = self.expr(e.base, record)
            bt = base.type or ANY
            if bt.name == "any":
                return self.typed(e, ANY, base=base)
            if bt.name != "record":
                self.error(
                    "TL1003", f"`{bt}` has no field `{e.name}`", e.span, "only records have fields"
                )
                return self.typed(e, ANY, base=base)
            if bt.record is None:
                return self.anonymous_field(e, bt, base)
            rec = self.ctx.record_def(bt.record)
        if rec is None:
            return self.typed(e, ANY, base=base)
        fdef = rec.field(e.name)
        if fdef is None:
            self.error(
                "TL1003",
                f"record `{rec.name}` has no field `{e.name}`",
                e.span,
                did_you_mean(e.name, [f.name for f in rec.fields]),
            )
            return self.typed(e, ANY, base=base)
        return self.typed(e, fdef.type, base=base)

    # ------------------------------------------------------------ operators
    def _neg(self, e: ir.Neg, record: ir.RecordDef | None) -> ir.Expr:
        inner = self.expr(e.operand, record)
        t = inner.type or ANY
        if not (is_numeric(t) or t.name == "duration"):
            self.error("TL1007", f"`-` is not defined for `{t}`", e.span)
        return self.typed(e, t, operand=inner)

    def _arith(self, e: ir.Arith, record: ir.RecordDef | None) -> ir.Expr:
        left = self.expr(e.left, record)
        right = self.expr(e.right, record)
        lt, rt = left.type or ANY, right.type or ANY
        result = arith_type(e.op, lt, rt)
        if result is None:
            self.error(
                "TL1007",
                f"`{e.op}` is not defined for `{lt}` and `{rt}`",
                e.span,
                "numbers combine with numbers; dates and times with durations",
            )
            result = ANY
        folded = fold(e.op, left, right, result)
        if folded is not None:
            return folded.model_copy(update={"span": e.span})
        return self.typed(e, result, left=left, right=right)

    def _logic(self, e: ir.Logic, record: ir.RecordDef | None) -> ir.Expr:
        left = self.boolean(e.left, record, f"the left side of `{e.op}`")
        right = self.boolean(e.right, record, f"the right side of `{e.op}`")
        return self.typed(e, BOOL, left=left, right=right)

    def _not(self, e: ir.Not, record: ir.RecordDef | None) -> ir.Expr:
        return self.typed(e, BOOL, operand=self.boolean(e.operand, record, "`not`'s operand"))

    def _compare(self, e: ir.Compare, record: ir.RecordDef | None) -> ir.Expr:
        left = self.expr(e.left, record)
        right = self.expr(e.right, record)
        left, right = self.coerce_pair(left, right, e.op)
        self.check_compare(e, left, right)
        within = self.check_options(e, left, right, record)
        return self.typed(e, BOOL, left=left, right=right, within=within)

    def coerce_pair(self, left: ir.Expr, right: ir.Expr, op: str = "==") -> tuple[ir.Expr, ir.Expr]:
        """Give a literal side the type of the other side.

        Text operators (`~`, `matches`, text `contains`) leave literals as text; `in` and
        list `contains` coerce items to the element type.
        """
        lt, rt = left.type or ANY, right.type or ANY
        if op in ("~", "matches") or (op == "contains" and lt.name != "list"):
            return left, right
        if op == "in":
            return left, self.coerce_items(right, lt) if rt.name == "list" else right
        if op == "contains":
            return left, self.coerce_any(right, lt.item or ANY)
        if isinstance(right, (ir.Lit, ir.ListExpr)):
            right = self.coerce_any(right, lt)
        if isinstance(left, (ir.Lit, ir.ListExpr)):
            left = self.coerce_any(left, right.type or ANY)
        return left, right

    def coerce_any(self, e: ir.Expr, target: ir.Type) -> ir.Expr:
        if isinstance(e, ir.Lit):
            return self.coerce(e, target)
        if isinstance(e, ir.ListExpr) and target.name == "list" and target.item is not None:
            return self.coerce_items(e, target.item)
        return e

    def coerce_items(self, e: ir.Expr, item: ir.Type) -> ir.Expr:
        """A list literal whose literal items take the type ``item`` (reporting misfits)."""
        if not isinstance(e, ir.ListExpr) or loose(item):
            return e
        items = [self.coerce(i, item) if isinstance(i, ir.Lit) else i for i in e.items]
        new_type = ir.Type(name="list", item=item.required())
        if not all(compatible(item, i.type or ANY) for i in items):
            new_type = e.type or new_type
        return e.model_copy(update={"items": items, "type": new_type})

    def coerce(self, lit: ir.Lit, target: ir.Type) -> ir.Lit:
        if target.name == "list" and isinstance(lit.value, list):
            return lit
        kind = lit.type.name if lit.type else "any"
        if loose(target) or target.name in ("list", "record", "bool") or kind in ("null", "any"):
            return lit
        if target.name == "enum" and kind == "text" and lit.value not in (target.members or ()):
            members = target.members or ()
            self.error(
                "TL1013",
                f"`{lit.value}` is not a member of `{target}`",
                lit.span,
                did_you_mean(str(lit.value), members)
                or "members: " + ", ".join(f"`{m}`" for m in members),
            )
            return lit
        try:
            value = coerce_scalar(lit.value, kind, target)
        except ValueError:
            return lit
        return lit.model_copy(update={"value": value, "type": target.required()})

    def check_compare(self, e: ir.Compare, left: ir.Expr, right: ir.Expr) -> None:
        lt, rt = left.type or ANY, right.type or ANY
        op = e.op
        ok = True
        for a, b, other in ((lt, rt, right), (rt, lt, left)):
            if a.name == "money" and b.name in ("int", "number") and not isinstance(other, ir.Lit):
                self.error(
                    "TL1006",
                    f"cannot compare `money` {op} `{b.name}`: the units are ambiguous",
                    e.span,
                    "make the other side money, for example `n * $1.00`",
                )
                return
        if op in ("==", "!="):
            ok = compatible(lt, rt)
        elif op in ("<", "<=", ">", ">="):
            ok = is_ordered(lt) and is_ordered(rt) and compatible(lt, rt)
        elif op == "~":
            ok = is_text(lt) and is_text(rt)
        elif op == "in":
            ok = (
                rt.name in ("list", "any", "answer")
                and (rt.item is None or compatible(lt, rt.item))
            ) or (is_text(lt) and is_text(rt))
        elif op == "contains":
            ok = (
                lt.name in ("list", "any", "answer")
                and (lt.item is None or compatible(lt.item, rt))
            ) or (is_text(lt) and is_text(rt))
        elif op == "matches":
            ok = is_text(lt) and rt.name in ("text", "any")
            if isinstance(right, ir.Lit) and isinstance(right.value, str):
                try:
                    re.compile(right.value)
                except re.error as exc:
                    self.error("TL1026", f"invalid regular expression: {exc}", right.span)
        if not ok:
            self.error("TL1006", f"cannot compare `{lt}` {op} `{rt}`", e.span, _compare_help(op))

    def check_options(
        self, e: ir.Compare | ir.HasItem, left: ir.Expr, right: ir.Expr, record: ir.RecordDef | None
    ) -> ir.Expr | None:
        lt, rt = left.type or ANY, right.type or ANY
        within = None
        if e.within is not None:
            within = self.expr(e.within, record)
            wt = within.type or ANY
            base = rt if loose(lt) else lt  # `answer == $12.50 within 1`: a dollar
            if isinstance(within, ir.Lit) and is_numeric(base) and not loose(base):
                within = self.coerce(within, base)
                wt = within.type or ANY
            temporal = lt.name in ir.TEMPORAL or lt.name == "duration"
            good = (wt.name == "duration") if temporal else (is_numeric(lt) and is_numeric(wt))
            if loose(lt) and (is_numeric(wt) or wt.name == "duration"):
                good = True
            if not good and not loose(wt):
                self.error(
                    "TL1007",
                    f"`within {wt}` does not apply to `{lt}`",
                    e.within.span,
                    "numbers take a number tolerance; times and dates a duration",
                )
            elif (
                isinstance(within, ir.Lit)
                and isinstance(within.value, (int, float))
                and within.value < 0
            ):
                self.error(
                    "TL1007",
                    "a tolerance cannot be negative",
                    e.within.span,
                    "`within` takes the largest allowed difference, such as `within 5m`",
                )
        if e.fuzzy is not None and not (is_text(lt) and is_text(rt)):
            self.error("TL1007", f"`fuzzy` applies to text, not `{lt}`", e.span)
        if e.exact and not (is_text(lt) and is_text(rt)):
            self.error("TL1007", f"`exact` applies to text, not `{lt}`", e.span)
        if e.unordered and not (
            lt.name in ("list", "answer", "any") and rt.name in ("list", "answer", "any")
        ):
            self.error("TL1007", "`unordered` applies to lists", e.span)
        return within

    # ------------------------------------------------------------ collections
    def source_record(self, source: ir.Expr) -> ir.RecordDef | None:
        if isinstance(source, ir.CollectionRef):
            return self.ctx.collection_record(source)
        return None

    def _quant(self, e: ir.Quant, record: ir.RecordDef | None) -> ir.Expr:
        source = self.expr(e.source, record)
        inner = self.source_record(source)
        where = self.boolean(e.where, inner, "`where`") if e.where is not None else None
        return self.typed(e, BOOL, source=source, where=where)

    def _count(self, e: ir.Count, record: ir.RecordDef | None) -> ir.Expr:
        source = self.expr(e.source, record)
        inner = self.source_record(source)
        where = self.boolean(e.where, inner, "`where`") if e.where is not None else None
        return self.typed(e, scalar("int"), source=source, where=where)

    def _aggregate(self, e: ir.Aggregate, record: ir.RecordDef | None) -> ir.Expr:
        source = self.expr(e.source, record)
        inner = self.source_record(source)
        where = self.boolean(e.where, inner, "`where`") if e.where is not None else None
        result: ir.Type | None = ANY
        if inner is not None:
            fdef = inner.field(e.field)
            if fdef is None:
                self.error(
                    "TL1003",
                    f"record `{inner.name}` has no field `{e.field}`",
                    e.span,
                    did_you_mean(e.field, [f.name for f in inner.fields]),
                )
            else:
                result = aggregate_type(e.fn, fdef.type)
                if result is None:
                    self.error(
                        "TL1007",
                        f"`{e.fn}` is not defined for `{fdef.type}`",
                        e.span,
                        "sum and avg need numbers, money or durations",
                    )
                    result = ANY
        return self.typed(e, result or ANY, source=source, where=where)

    def _has(self, e: ir.Has, record: ir.RecordDef | None) -> ir.Expr:
        source = self.expr(e.source, record)
        inner = self.source_record(source)
        items = []
        for item in e.items:
            items.append(self.has_item(item, inner))
        return self.typed(e, BOOL, source=source, items=items)

    def has_item(self, item: ir.HasItem, inner: ir.RecordDef | None) -> ir.HasItem:
        left: ir.Expr = ir.FieldRef(name=item.field, span=item.span)
        left = self.expr(left, inner) if inner is not None else self.typed(left, ANY)
        cmp = ir.Compare(
            op=item.op,
            left=left,
            right=item.value,
            within=item.within,
            fuzzy=item.fuzzy,
            unordered=item.unordered,
            exact=item.exact,
            span=item.span,
        )
        checked = self.expr(cmp, inner)
        assert isinstance(checked, ir.Compare)
        return item.model_copy(update={"value": checked.right, "within": checked.within})

    def _list(self, e: ir.ListExpr, record: ir.RecordDef | None) -> ir.Expr:
        items = [self.expr(i, record) for i in e.items]
        item_type = unify([i.type or ANY for i in items]) if items else ANY
        if item_type is None:
            self.error("TL1006", "list items have different types", e.span)
            item_type = ANY
        items = [self.coerce(i, item_type) if isinstance(i, ir.Lit) else i for i in items]
        return self.typed(e, ir.Type(name="list", item=item_type), items=items)

    def anonymous_field(self, e: ir.FieldRef, bt: ir.Type, base: ir.Expr) -> ir.Expr:
        ft = bt.field_type(e.name)
        if ft is None:
            self.error(
                "TL1003",
                f"`{bt}` has no field `{e.name}`",
                e.span,
                did_you_mean(e.name, [n for n, _ in bt.fields or ()]),
            )
            return self.typed(e, ANY, base=base)
        return self.typed(e, ft, base=base)

    def _record(self, e: ir.RecordExpr, record: ir.RecordDef | None) -> ir.Expr:
        fields = [f.model_copy(update={"value": self.expr(f.value, record)}) for f in e.fields]
        shape = tuple((f.name, (f.value.type or ANY).required()) for f in fields)
        return self.typed(e, ir.Type(name="record", fields=shape), fields=fields)

    # ------------------------------------------------------------ record literals
    def record_literal(self, e: ir.Expr, rec: ir.RecordDef, qualified: str) -> ir.Expr:
        """Check a record literal against a record type (fields exist, required present)."""
        if not isinstance(e, ir.RecordExpr):
            out = self.expr(e, None)
            t = out.type or ANY
            if not (t.name == "any" or (t.name == "record" and t.record == qualified)):
                self.error(
                    "TL1006",
                    f"expected a `{rec.name}` record, found `{t}`",
                    e.span,
                    "write a record literal: `{ field: value, ... }`",
                )
            return out
        fields = []
        given = {f.name for f in e.fields}
        for f in e.fields:
            fdef = rec.field(f.name)
            value = self.expr(f.value, None)
            if fdef is None:
                self.error(
                    "TL1020",
                    f"record `{rec.name}` has no field `{f.name}`",
                    f.span,
                    did_you_mean(f.name, [x.name for x in rec.fields]),
                )
            else:
                value = self.assign(value, fdef.type, f.span, f"field `{f.name}`")
                if fdef.unit and isinstance(value, ir.Lit) and not whole_minute(value.value):
                    self.error("TL1006", f"field `{f.name}` is `datetime(minute)`: "
                               f"`{value.value}` is not a whole minute", f.span,
                               "drop the seconds")  # fmt: skip
            fields.append(f.model_copy(update={"value": value}))
        missing = [
            f.name
            for f in rec.fields
            if f.name not in given and not f.type.optional and not f.has_default
        ]
        if missing:
            self.error(
                "TL1020",
                f"`{rec.name}` record is missing " + ", ".join(f"`{m}`" for m in missing),
                e.span,
                "give every field that is neither optional (`?`) nor defaulted",
            )
        return self.typed(e, ir.Type(name="record", record=qualified), fields=fields)

    def assign(self, value: ir.Expr, target: ir.Type, span: Span | None, what: str) -> ir.Expr:
        if isinstance(value, ir.Lit):
            if value.value is None and value.type and value.type.name == "null":
                if not target.optional:
                    self.error("TL1006", f"{what} is not optional; it cannot be `null`", span)
                return value
            value = self.coerce(value, target)
        if isinstance(value, ir.ListExpr) and target.name == "list" and target.item:
            items = [
                self.coerce(i, target.item) if isinstance(i, ir.Lit) else i for i in value.items
            ]
            value = value.model_copy(update={"items": items, "type": target.required()})
        vt = value.type or ANY
        if not compatible(target, vt) or (
            target.name == "enum" and vt.name not in ("enum", "text", "any", "null")
        ):
            self.error("TL1006", f"{what} has type `{target}`, not `{vt}`", span)
        return value


def arith_type(op: str, lt: ir.Type, rt: ir.Type) -> ir.Type | None:
    """The type of ``lt op rt``, or None when the operator does not apply.

    >>> str(arith_type("-", scalar("datetime"), scalar("duration")))
    'datetime'
    """
    if loose(lt) or loose(rt):
        return ANY
    ln, rn = lt.name, rt.name
    if ln in ir.NUMERIC and rn in ir.NUMERIC:
        if ln == "money" or rn == "money":
            return (
                scalar("money")
                if op in "+-" or "int" in (ln, rn) or "number" in (ln, rn)
                else scalar("number")
            )
        return scalar("int") if ln == rn == "int" and op != "/" else scalar("number")
    if ln in ir.TEMPORAL and rn == "duration" and op in "+-":
        return lt.required()
    if ln == rn == "duration" and op in "+-":
        return scalar("duration")
    if ln == "duration" and rn in ("int", "number") and op in "*/":
        return scalar("duration")
    if ln == rn and ln in ("datetime", "date", "time") and op == "-":
        return scalar("duration")
    return None


def fold(op: str, left: ir.Expr, right: ir.Expr, result: ir.Type) -> ir.Lit | None:
    """Constant-fold arithmetic on number literals, so `10 * 2` is the literal 20.

    Folding keeps literals literal: compared with money, `10 * 2` means $20 like `20` does.

    >>> two, ten = ir.Lit(value=2, type=scalar("int")), ir.Lit(value=10, type=scalar("int"))
    >>> fold("*", ten, two, scalar("int")).value
    20
    """
    if not (isinstance(left, ir.Lit) and isinstance(right, ir.Lit)):
        return None
    lv, rv = left.value, right.value
    plain = ("int", "number")
    names = ((left.type or ANY).name, (right.type or ANY).name)
    if not (isinstance(lv, (int, float)) and isinstance(rv, (int, float))) or any(
        isinstance(v, bool) for v in (lv, rv)
    ):
        return None
    if names[0] in plain and names[1] in plain:
        value: float = {"+": lv + rv, "-": lv - rv, "*": lv * rv}.get(op, 0.0)
        if op == "/":
            if rv == 0:
                return None
            value = lv / rv
        if result.name == "int" and float(value).is_integer():
            return ir.Lit(value=int(value), type=scalar("int"))
        return ir.Lit(value=float(value), type=scalar("number"))
    return None


def aggregate_type(fn: str, t: ir.Type) -> ir.Type | None:
    if fn in ("min", "max"):
        return t.required() if is_ordered(t) else None
    if t.name in ir.NUMERIC or t.name == "duration":
        return scalar("number") if fn == "avg" and t.name == "int" else t.required()
    return None


def _compare_help(op: str) -> str:
    return {
        "~": "`~` compares text fuzzily",
        "in": "`x in [..]` needs a list of the same type, or text in text",
        "contains": "`contains` needs a list or text on the left",
        "matches": "`matches` takes text and a regular expression",
    }.get(op, "the two sides must have compatible types")


def run(task: ir.Task, ctx: Context) -> tuple[ir.Task, list[Diagnostic]]:
    """Type-check ``task``; returns a copy with every expression typed."""
    c = Checker(task, ctx)
    checked = {p.name: check_param(c, p) for p in dependency_order(task.params)}
    params = [checked[p.name] for p in task.params]
    update: dict[str, Any] = {
        "params": params,
        "constraints": [c.boolean(x, None, "a constraint") for x in task.constraints],
        "given": check_given(c, task.given),
        "clauses": [check_clause(c, x) for x in task.clauses],
        "goal": check_goal(c, task.goal),
    }
    return task.model_copy(update=update), c.diagnostics


def dependency_order(params: list[ir.ParamDecl]) -> list[ir.ParamDecl]:
    """Parameters ordered so that each comes after those its domain uses (cycles keep order)."""
    from tasklang.passes.resolve import param_refs

    by_name = {p.name: p for p in params}
    done: dict[str, ir.ParamDecl] = {}
    visiting: set[str] = set()

    def visit(p: ir.ParamDecl) -> None:
        if p.name in done or p.name in visiting:
            return
        visiting.add(p.name)
        for dep in sorted(param_refs(p.domain) - {p.name}):
            if dep in by_name:
                visit(by_name[dep])
        visiting.discard(p.name)
        done[p.name] = p

    for p in params:
        visit(p)
    return list(done.values())


def check_param(c: Checker, p: ir.ParamDecl) -> ir.ParamDecl:
    d = p.domain
    t: ir.Type = ANY
    domain: ir.Domain = d
    if isinstance(d, ir.GeneratorDomain):
        if d.generator in GENERATORS:
            t = scalar(GENERATORS[d.generator])
        else:
            c.error(
                "TL1011",
                f"unknown generator `{d.generator}`",
                d.span,
                did_you_mean(d.generator, GENERATORS)
                or "generators: " + ", ".join(sorted(GENERATORS)),
            )
    elif isinstance(d, ir.ChoiceDomain):
        values = [c.expr(v, None) for v in d.values]
        unified = unify([v.type or ANY for v in values]) if values else None
        if not values:
            c.error("TL1012", "a choice needs at least one value", d.span)
        elif unified is None:
            c.error("TL1006", "choices have different types", d.span)
        else:
            t = unified
            values = [c.coerce(v, t) if isinstance(v, ir.Lit) else v for v in values]
        domain = d.model_copy(update={"values": values})
    elif isinstance(d, ir.RangeDomain):
        t, domain = check_range(c, p, d)
    else:
        assert isinstance(d, ir.RecordDomain)
        source = c.expr(d.source, None)
        rec = c.source_record(source)
        st = source.type or ANY
        if st.name == "list" and st.item is not None:
            c.param_types[p.name] = st.item
        where = c.boolean(d.where, rec, "`where`") if d.where is not None else None
        st = source.type or ANY
        t = st.item if st.name == "list" and st.item else ANY
        domain = d.model_copy(update={"source": source, "where": where})
    c.param_types[p.name] = t
    return p.model_copy(update={"type": t, "domain": domain})


def check_range(c: Checker, p: ir.ParamDecl, d: ir.RangeDomain) -> tuple[ir.Type, ir.Domain]:
    name = p.type_name or "any"
    if name not in RANGE_TYPES:
        c.error(
            "TL1012",
            f"ranges are not defined for `{name}`",
            d.span,
            did_you_mean(name, RANGE_TYPES) or "range types: " + ", ".join(RANGE_TYPES),
        )
        return ANY, d
    t = scalar(name)
    low = c.assign(c.expr(d.low, None), t, d.low.span, "the lower bound")
    high = c.assign(c.expr(d.high, None), t, d.high.span, "the upper bound")
    if isinstance(low, ir.Lit) and isinstance(high, ir.Lit) and low.type == high.type == t:
        try:
            if low.value > high.value:  # type: ignore[operator]
                c.error(
                    "TL1012",
                    "the range is empty: its low bound is above its high bound",
                    d.span,
                    "swap the bounds",
                )
        except TypeError:
            pass
    return t, d.model_copy(update={"low": low, "high": high})


def check_given(c: Checker, given: ir.Given) -> ir.Given:
    ops: list[ir.GivenOp] = []
    for op in given.ops:
        target = c.expr(op.target, None)
        if isinstance(op, ir.NoiseOp):
            rec = c.source_record(target)
            where = c.boolean(op.where, rec, "`where`") if op.where is not None else None
            ops.append(op.model_copy(update={"target": target, "where": where}))
            continue
        value = given_value(c, op, target)
        ops.append(op.model_copy(update={"target": target, "value": value}))
    clock = given.clock
    if clock is not None:
        value = c.expr(clock.value, None)
        if isinstance(value, ir.Now):
            c.error(
                "TL1006",
                "the clock cannot be set to itself",
                clock.span,
                "give a datetime literal, such as `now 2026-05-14T09:30`",
            )
        if (value.type or ANY).name not in ("datetime", "any"):
            c.error(
                "TL1006",
                f"`now` takes a datetime, not `{value.type}`",
                clock.span,
                "for example `now 2026-05-14T09:30`",
            )
        _check_tz(c, clock)
        clock = clock.model_copy(update={"value": value})
    return given.model_copy(update={"ops": ops, "clock": clock})


def _check_tz(c: Checker, clock: ir.Clock) -> None:
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        ZoneInfo(clock.tz)
    except (ZoneInfoNotFoundError, ValueError):
        c.error(
            "TL1025",
            f"unknown time zone `{clock.tz}`",
            clock.span,
            "use an IANA name such as `Europe/Berlin` or `UTC`",
        )


def given_value(c: Checker, op: ir.SetOp | ir.AddOp, target: ir.Expr) -> ir.Expr:
    if isinstance(target, ir.SettingRef):
        if isinstance(op, ir.AddOp):
            c.error("TL1007", "`+=` adds records to a collection; use `=` for a setting", op.span)
        t = target.type or ANY
        return c.assign(c.expr(op.value, None), t, op.value.span, f"setting `{target.name}`")
    if not isinstance(target, ir.CollectionRef):
        return c.expr(op.value, None)
    rec = c.ctx.collection_record(target)
    if rec is None:
        return c.expr(op.value, None)
    qualified = f"{target.app}.{rec.name}"
    if isinstance(op, ir.AddOp):
        return c.record_literal(op.value, rec, qualified)
    if not isinstance(op.value, ir.ListExpr):
        c.error(
            "TL1006",
            f"`{target.app}.{target.name}` is a collection; assign a list of records",
            op.value.span,
            "for example `= []` or `= [{ ... }, { ... }]`",
        )
        return c.expr(op.value, None)
    items = [c.record_literal(i, rec, qualified) for i in op.value.items]
    return op.value.model_copy(
        update={
            "items": items,
            "type": ir.Type(name="list", item=ir.Type(name="record", record=qualified)),
        }
    )


def check_clause(c: Checker, clause: ir.Clause) -> ir.Clause:
    body = clause.body
    new: ir.ClauseBody = body
    if isinstance(body, ir.CheckBody):
        new = body.model_copy(update={"expr": c.boolean(body.expr, None, "an `expect` clause")})
    elif isinstance(body, (ir.UnchangedBody, ir.OnlyChangedBody)):
        new = body.model_copy(update={"targets": [c.expr(t, None) for t in body.targets]})
    elif isinstance(body, ir.TraceBody):
        second = check_event(c, body.second) if body.second is not None else None
        new = body.model_copy(update={"first": check_event(c, body.first), "second": second})
    elif isinstance(body, ir.UiElementBody):
        check_selector(c, body.selector)
    return clause.model_copy(update={"body": new})


def check_event(c: Checker, e: ir.Event) -> ir.Event:
    if isinstance(e, ir.ChangeEvent):
        target = c.expr(e.target, None) if e.target is not None else None
        if isinstance(target, ir.SettingRef) and e.op != "changed":
            c.error(
                "TL1007",
                f"settings are not {e.op}; write `changed {target.app}.{target.name}`",
                e.span,
            )
        rec = c.source_record(target) if target is not None else None
        where = c.boolean(e.where, rec, "`where`") if e.where is not None else None
        return e.model_copy(update={"target": target, "where": where})
    if isinstance(e, ir.HoldsEvent):
        return e.model_copy(update={"expr": c.boolean(e.expr, None, "`holds`")})
    if isinstance(e, (ir.ActionEvent, ir.ShownEvent)):
        sel = e.on if isinstance(e, ir.ActionEvent) else e.selector
        if sel is not None:
            check_selector(c, sel)
    return e


_XPATH = re.compile(r"^(/|\.|\()")


def check_selector(c: Checker, sel: ir.Selector) -> None:
    seen: set[str] = set()
    for a in sel.attrs:
        if a.attr in seen:
            c.error("TL1005", f"selector gives `{a.attr}` twice", a.span)
        seen.add(a.attr)
        if a.attr == "xpath" and not valid_xpath(a.value):
            c.error(
                "TL1026",
                f"`{a.value}` is not a valid XPath",
                a.span,
                "for example `//node[@resource-id='com.app:id/title']`",
            )


def valid_xpath(text: str) -> bool:
    """A syntactic check of an XPath: starts like a path, brackets and quotes balance.

    >>> valid_xpath("//node[@text='OK']"), valid_xpath("//node[@text='OK'")
    (True, False)
    """
    if not _XPATH.match(text):
        return False
    depth = 0
    quote: str | None = None
    for ch in text:
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0 and quote is None


def check_goal(c: Checker, goal: ir.Goal) -> ir.Goal:
    parts = [
        p.model_copy(update={"expr": c.expr(p.expr, None)}) if p.expr is not None else p
        for p in goal.parts
    ]
    return goal.model_copy(update={"parts": parts})
