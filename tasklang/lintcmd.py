"""`tasklang lint`: the compiler's checks plus the z3 analysis, as diagnostics.

``add_analysis`` is shared with ``tasklang compile --strict``: it runs the analysis on every
task that compiled, appends its findings, and marks a task with an error finding as failed.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

from tasklang.analysis import Options, analyze
from tasklang.compiler import Compiler, CompileResult, UnreadableInput, library_root
from tasklang.diagnostics import Diagnostic, finalize, render_text
from tasklang.source import Span

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2


def findings_as_diagnostics(compiled: Any, options: Options) -> tuple[list[Diagnostic], float]:
    """The analysis findings of one compiled task, and the seconds the analysis took."""
    started = time.perf_counter()
    findings, _stats = analyze(compiled, options)
    elapsed = time.perf_counter() - started
    fallback = compiled.task.span or Span(file=compiled.source.path)
    out = [
        Diagnostic(
            f.code,
            f"task `{compiled.task.id}`: {f.message}",
            f.span or fallback,
            help=f.help,
            notes=list(f.notes),
            counterexample=f.counterexample,
        )
        for f in findings
    ]
    return out, elapsed


def add_analysis(result: CompileResult, options: Options | None = None) -> dict[str, float]:
    """Analyse every compiled task of ``result`` in place; returns seconds per task id."""
    options = options or Options()
    timings: dict[str, float] = {}
    kept = []
    for compiled in result.tasks:
        found, elapsed = findings_as_diagnostics(compiled, options)
        timings[compiled.task.id] = round(elapsed, 4)
        result.diagnostics.extend(found)
        if any(d.is_error for d in found):
            result.failed.append(compiled.task.id)
        else:
            kept.append(compiled)
    result.tasks = kept
    result.diagnostics = finalize(result.diagnostics)
    return timings


def run_lint(
    paths: list[Path] | None,
    as_json: bool = False,
    strict: bool = False,
    timeout_ms: int | None = None,
    color: bool = False,
) -> int:
    """Lint files or folders (the bundled library by default); returns the exit code."""
    options = Options() if timeout_ms is None else Options(timeout_ms=timeout_ms)
    try:
        result = Compiler().compile_paths(paths or [library_root()])
    except UnreadableInput as exc:
        print(f"tasklang: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    compiled = len(result.tasks)
    timings = add_analysis(result, options)
    errors = sum(1 for d in result.diagnostics if d.is_error)
    warnings = len(result.diagnostics) - errors
    ok = errors == 0 and not (strict and warnings)
    if as_json:
        doc = {
            "ok": ok,
            "tasks": [{"id": tid, "seconds": s} for tid, s in timings.items()],
            "failed": result.failed,
            "diagnostics": [d.to_json() for d in result.diagnostics],
        }
        print(json.dumps(doc, indent=2, ensure_ascii=False))
    else:
        if result.diagnostics:
            print(render_text(result.diagnostics, result.sources, color), file=sys.stderr)
        print(
            f"linted {compiled} task(s): {errors} error(s), {warnings} warning(s)",
            file=sys.stderr,
        )
    return EXIT_OK if ok else EXIT_FAIL
