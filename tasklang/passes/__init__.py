"""The compiler's passes, in order. Each is a pure ``(Task, Context) -> (Task, diagnostics)``.

``tasklang compile --dump-after NAME`` prints the IR after the named pass.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tasklang import ir
from tasklang.diagnostics import Diagnostic
from tasklang.passes import desugar, lint, resolve, typecheck
from tasklang.passes.context import Context

PassFn = Callable[[ir.Task, Context], tuple[ir.Task, list[Diagnostic]]]


@dataclass(frozen=True)
class Pass:
    name: str
    run: PassFn
    summary: str


PASSES: tuple[Pass, ...] = (
    Pass("resolve", resolve.run, "names to parameters, fields, collections and settings"),
    Pass("typecheck", typecheck.run, "types for every expression; literals coerced"),
    Pass("desugar", desugar.run, "`has` to `exists ... where`"),
    Pass("lint", lint.run, "warnings: unused parameters, no budget, unchecked questions"),
)
PASS_NAMES = tuple(p.name for p in PASSES)


def run_passes(
    task: ir.Task, ctx: Context, stop_after: str | None = None
) -> tuple[ir.Task, list[Diagnostic]]:
    """Run the pass table over a lowered task, collecting every pass's diagnostics."""
    diagnostics: list[Diagnostic] = []
    for p in PASSES:
        task, found = p.run(task, ctx)
        diagnostics.extend(found)
        if p.name == stop_after:
            break
    return task, diagnostics


__all__ = ["PASSES", "PASS_NAMES", "Context", "Pass", "run_passes"]
