"""Desugar: rewrite conveniences into core forms the backends know.

``C has { f op v, ... }`` becomes ``exists C where f op v and ...``.

>>> from tasklang import ir
>>> from tasklang.passes.context import Context
>>> has = ir.Has(source=ir.CollectionRef(app="a", name="c"), items=[
...     ir.HasItem(field="x", op="==", value=ir.Lit(value=1))])
>>> out = desugar_expr(has, Context())
>>> out.node, out.quantifier, out.where.left.name
('quant', 'exists', 'x')
"""

from __future__ import annotations

from typing import Any

from tasklang import ir
from tasklang.diagnostics import Diagnostic
from tasklang.passes.context import Context
from tasklang.types import scalar


def desugar_expr(e: Any, ctx: Context) -> Any:
    """Rewrite every ``Has`` in an IR subtree, bottom up."""
    if isinstance(e, list):
        return [desugar_expr(x, ctx) for x in e]
    if not isinstance(e, ir.IRNode):
        return e
    update = {
        name: desugar_expr(getattr(e, name), ctx)
        for name in type(e).model_fields
        if name not in ("span", "type")
    }
    e = e.model_copy(update=update)
    if isinstance(e, ir.Has):
        return _has_to_exists(e, ctx)
    return e


def _has_to_exists(e: ir.Has, ctx: Context) -> ir.Quant:
    where: ir.Expr | None = None
    record = ctx.collection_record(e.source) if isinstance(e.source, ir.CollectionRef) else None
    for item in e.items:
        fdef = record.field(item.field) if record is not None else None
        cmp = ir.Compare(
            op=item.op,
            left=ir.FieldRef(name=item.field, span=item.span, type=fdef.type if fdef else None),
            right=item.value,
            within=item.within,
            fuzzy=item.fuzzy,
            unordered=item.unordered,
            exact=item.exact,
            span=item.span,
            type=scalar("bool"),
        )
        where = (
            cmp
            if where is None
            else ir.Logic(op="and", left=where, right=cmp, span=e.span, type=scalar("bool"))
        )
    return ir.Quant(
        quantifier="exists", source=e.source, where=where, span=e.span, type=scalar("bool")
    )


def run(task: ir.Task, ctx: Context) -> tuple[ir.Task, list[Diagnostic]]:
    """Rewrite sugar in every part of ``task``."""
    update = {
        "constraints": desugar_expr(task.constraints, ctx),
        "given": desugar_expr(task.given, ctx),
        "clauses": desugar_expr(task.clauses, ctx),
        "params": desugar_expr(task.params, ctx),
    }
    return task.model_copy(update=update), []
