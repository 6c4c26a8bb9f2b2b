"""Lint: warnings about tasks that compile but are probably not what the author meant.

>>> from tasklang import ir
>>> from tasklang.passes.context import Context
>>> task = ir.Task(id="t", goal=ir.Goal(template="Hi"), budget=ir.Budget(steps=5))
>>> [d.code for d in run(task, Context())[1]]
[]
"""

from __future__ import annotations

from tasklang import ir
from tasklang.diagnostics import Diagnostic
from tasklang.passes.context import Context
from tasklang.passes.resolve import param_refs
from tasklang.source import Span


def run(task: ir.Task, ctx: Context) -> tuple[ir.Task, list[Diagnostic]]:
    """Report unused parameters, missing budgets and unchecked questions."""
    out: list[Diagnostic] = []
    where = task.span or Span()
    used = param_refs(
        [task.goal, task.constraints, task.given, task.clauses, [p.domain for p in task.params]]
    )
    for p in task.params:
        if p.name not in used:
            out.append(
                Diagnostic(
                    "TL2001",
                    f"parameter `{p.name}` is never used",
                    p.span or where,
                    help="use it in the goal or a clause, or remove it",
                )
            )
    if task.budget.steps is None:
        out.append(
            Diagnostic(
                "TL2003", f"task `{task.id}` has no step budget", where, help="add `budget N steps`"
            )
        )
    goal_params = param_refs(task.goal)
    tried = "{" in task.goal.template.replace("{{", "")
    if task.params and not goal_params and not tried:
        out.append(
            Diagnostic(
                "TL2004",
                "the goal interpolates no parameter",
                task.goal.span or where,
                help="mention a parameter with `{name}` so instances differ",
            )
        )
    asks = task.goal.template.rstrip().endswith("?")
    checks_answer = any(_mentions_answer(c) for c in task.clauses)
    if asks and not checks_answer and task.outcome == "complete" and not task.verify_only:
        out.append(
            Diagnostic(
                "TL2005",
                "the goal asks a question but no clause checks `answer`",
                task.goal.span or where,
                help="add `answer == ...` to `expect`",
            )
        )
    if task.outcome == "infeasible" and checks_answer:
        out.append(
            Diagnostic(
                "TL1024",
                "an infeasible task cannot also check an answer",
                where,
                help="remove the `answer` clauses or the outcome",
            )
        )
    return task, out


def _mentions_answer(node: object) -> bool:
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, ir.AnswerRef):
            return True
        if isinstance(item, ir.IRNode):
            stack.extend(getattr(item, f) for f in type(item).model_fields if f != "span")
        elif isinstance(item, list):
            stack.extend(item)
    return False
