"""`tasklang check`: verdicts on recorded trajectories, as text, JSON or an HTML report."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import typer

from tasklang import ir
from tasklang.compiler import Compiler, UnreadableInput, library_root


class CheckUsageError(Exception):
    """Bad input for `check` (exit 2): an unknown task, an unreadable trajectory."""


def find_tasks(task: str) -> dict[str, ir.CompiledTask]:
    """Compiled tasks named by TASK: a .task file (all its tasks) or a library task id."""
    path = Path(task)
    looks_like_path = path.suffix in (".task", ".app") or path.exists()
    if not looks_like_path:
        found = _library_file_of(task)
        if found is not None:
            return {task: found}
    try:
        result = Compiler().compile_paths([path] if looks_like_path else [library_root()])
    except UnreadableInput as exc:
        raise CheckUsageError(str(exc)) from None
    compiled = {c.task.id: c for c in result.tasks}
    if looks_like_path:
        if not result.ok or not compiled:
            errors = [d for d in result.diagnostics if d.is_error][:3]
            detail = "; ".join(f"{d.span.label}: {d.message}" for d in errors)
            raise CheckUsageError(f"`{task}` does not compile: {detail or 'no task in it'}")
        return compiled
    if task not in compiled:
        from tasklang.diagnostics import did_you_mean

        hint = did_you_mean(task, compiled)
        raise CheckUsageError(f"no task `{task}` in the library" + (f"; {hint}" if hint else ""))
    return {task: compiled[task]}


def _library_file_of(task_id: str) -> ir.CompiledTask | None:
    """The library task `task_id` compiled from its own file, `<task id>.task` by the library's
    convention (a second or more faster than compiling the whole library); None when no such
    file holds it cleanly, and the caller compiles the library (and suggests near names)."""
    if "/" in task_id or "\\" in task_id or task_id.startswith("."):
        return None
    files = sorted(library_root().glob(f"*/{task_id}.task"))
    if len(files) != 1:
        return None
    try:
        result = Compiler().compile_paths(files)
    except UnreadableInput:
        return None
    compiled = [c for c in result.tasks if c.task.id == task_id]
    return compiled[0] if result.ok and len(compiled) == 1 else None


def run_check(
    task: str,
    trajectories: list[Path],
    params_json: str | None,
    as_json: bool,
    html: Path | None,
    seed: int | None = None,
) -> int:
    """Check every trajectory; returns the exit code."""
    from tasklang.verifiers.check import InstanceError
    from tasklang.verifiers.trajectory import TrajectoryError, read_trajectory

    try:
        params = _params(params_json)
        tasks = find_tasks(task)
        checked = []
        for path in trajectories:
            traj = read_trajectory(path)
            compiled = (
                tasks.get(traj.header.task.id) if len(tasks) > 1 else next(iter(tasks.values()))
            )
            if compiled is None:
                raise CheckUsageError(
                    f"{path}: header names task `{traj.header.task.id}`, "
                    f"which `{task}` does not declare"
                )
            try:
                verdict = check_seeded(compiled, traj, params, seed)
            except InstanceError as exc:
                where = f"{path}:{exc.line}" if exc.line else str(path)
                raise CheckUsageError(f"{where}: {exc}") from None
            checked.append((traj, verdict, path))
    except (CheckUsageError, TrajectoryError) as exc:
        typer.echo(f"tasklang: error: {exc}", err=True)
        return 2
    if html is not None:
        _write_html(html, checked)
    if as_json:
        typer.echo(
            json.dumps(
                [v.model_dump(mode="json") for _, v, _ in checked], indent=2, ensure_ascii=False
            )
        )
    else:
        for _, verdict, path in checked:
            typer.echo(render_verdict(verdict, str(path)))
    return 0 if all(v.success for _, v, _ in checked) else 1


def check_seeded(
    compiled: ir.CompiledTask, traj: Any, params: dict[str, Any], seed: int | None
) -> Any:
    """Check with the header's instance, or with the instance drawn from ``seed``."""
    from tasklang.sampling import SamplingError, sample_instance
    from tasklang.verifiers.check import InstanceError, check_trajectory

    if seed is None:
        return check_trajectory(compiled, traj, params)
    try:
        instance = sample_instance(compiled, seed)
    except SamplingError as exc:
        raise InstanceError(str(exc)) from None
    return check_trajectory(compiled, traj, {**instance.params, **params}, instance.initial)


def _params(text: str | None) -> dict[str, Any]:
    if text is None:
        return {}
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CheckUsageError(f"--params is not valid JSON: {exc.msg}") from None
    if not isinstance(value, dict):
        raise CheckUsageError("--params must be a JSON object of parameter values")
    return value


def _write_html(html: Path, checked: list[Any]) -> None:
    from tasklang.cli import write_atomic
    from tasklang.verifiers.report import render_html

    base = checked[0][2].parent if checked else None
    write_atomic(html, render_html([(t, v) for t, v, _ in checked], base))


def render_verdict(verdict: Any, path: str) -> str:
    """A verdict as text: the outcome line, then one line per clause with its evidence."""
    color = sys.stdout.isatty()
    mark = "PASS" if verdict.success else "FAIL"
    if color:
        mark = f"\x1b[1;{32 if verdict.success else 31}m{mark}\x1b[0m"
    lines = [
        f"{mark} {path}: task {verdict.task}, score {verdict.score:.3f}, "
        f"status {verdict.status or '-'}"
    ]
    for r in verdict.clauses:
        sign = "ok  " if r.passed else "FAIL"
        where = f" ({r.span.label})" if r.span else ""
        role = "" if r.role == "goal" else f" [{r.role}]"
        lines.append(f"  {sign} {r.id}{role} {r.kind}: {r.summary}{where}")
        for e in r.evidence[:3]:
            step = f"step {e.step}: " if e.step is not None else ""
            lines.append(f"         {step}{e.detail}")
    for note in verdict.notes:
        lines.append(f"  note: {note}")
    return "\n".join(lines)
