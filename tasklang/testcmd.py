"""`tasklang test`: prove a task library sound, task by task.

For every task of PATH (the bundled library by default):

- lint: the compiler's and static analysis's findings on the task's file (any is a failure);
- the reference solution (scripted, ``envs/phoneworld/solutions``) on ``--seeds`` sampled
  instances: each must pass the verifier;
- doing nothing (declaring the task complete at once) on the same instances: each must fail;
- how diverse the instances are: distinct goal texts among them.

It prints a line per task that failed and a table per kind (tasks, instances tried, reference
passes, do-nothing failures, lint findings, mean reference length, and how many tasks have
diverse goals: a parameterized task whose instances mostly read differently; reported, not a
failure), with the number of AndroidWorld families (tasks of ``androidworld/``). ``--docs FILE`` also writes the library's
catalogue (every task with its kind, apps, goal template, difficulty and reference length) as
Markdown. Exit 0 when every task passed, 1 otherwise, 2 for bad usage.
"""

from __future__ import annotations

import json
import statistics
import sys
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from tasklang import ir

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2
KINDS = ("app", "mini_app", "cross_app")
ANDROIDWORLD = "androidworld."


@dataclass
class TaskReport:
    task: str
    kind: str
    apps: list[str]
    goal: str
    difficulty: str | None
    path: str
    instances: int = 0
    reference_passes: int = 0
    nothing_fails: int = 0
    lint: int = 0
    reference_steps: list[int] = field(default_factory=list)
    distinct_goals: int = 0
    parameterized: bool = False
    problems: list[str] = field(default_factory=list)

    @property
    def diverse(self) -> bool:
        """A parameterized task's goal texts are mostly distinct over its instances."""
        return not self.parameterized or self.distinct_goals * 2 > self.instances

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def mean_steps(self) -> float | None:
        return statistics.mean(self.reference_steps) if self.reference_steps else None

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out.pop("reference_steps")
        out["mean_reference_steps"] = (
            round(self.mean_steps, 2) if self.mean_steps is not None else None
        )
        out["ok"] = self.ok
        out["diverse"] = self.diverse
        return out


def _usage(message: str) -> int:
    print(f"tasklang: error: {message}", file=sys.stderr)
    return EXIT_USAGE


def test_task(compiled: ir.CompiledTask, seeds: int, lint: int) -> TaskReport:
    """Run the reference and doing nothing on ``seeds`` instances of one task."""
    from tasklang.envs.phoneworld.episode import Episode, missing_apps
    from tasklang.envs.phoneworld.solutions import Driver, SolutionError, references

    task = compiled.task
    report = TaskReport(
        task.id, task.kind, [a.name for a in task.apps], task.goal.template, task.difficulty,
        compiled.source.path if compiled.source else "", lint=lint,
    )  # fmt: skip
    report.parameterized = bool(task.params)
    if lint:
        report.problems.append(f"{lint} lint finding(s)")
    missing = missing_apps(compiled)
    if missing:
        report.problems.append("PhoneWorld has no " + ", ".join(missing))
        return report
    solve = references().get(task.id)
    if solve is None:
        report.problems.append("no reference solution")
    goals = set()
    for seed in range(seeds):
        report.instances += 1
        nothing = Episode(compiled, seed, record=True)
        goals.add(nothing.goal)
        nothing.step({"action_type": "status", "goal_status": "complete"})
        if nothing.verdict().success:
            report.problems.append(f"seed {seed}: doing nothing passes")
        else:
            report.nothing_fails += 1
        if solve is None:
            continue
        ep = Episode(compiled, seed)
        assert ep.instance is not None
        try:
            solve(Driver(ep.tree, ep.step, ep.instance.params, max_steps=max(ep.budget, 80)))
        except SolutionError as exc:
            report.problems.append(f"seed {seed}: the reference failed: {exc}"[:300])
            continue
        verdict = ep.verdict()
        if verdict.success:
            report.reference_passes += 1
            report.reference_steps.append(len(ep.steps))
        else:
            failed = [r.id for r in verdict.clauses if not r.passed]
            report.problems.append(
                f"seed {seed}: the reference does not pass ({', '.join(failed[:4])})"
            )
    report.distinct_goals = len(goals)
    return report


def lint_counts(result: Any) -> dict[str, int]:
    """Findings per task (by the task's source file)."""
    from tasklang.lintcmd import add_analysis

    add_analysis(result)
    by_file: dict[str, int] = defaultdict(int)
    for d in result.diagnostics:
        by_file[str(Path(d.span.file).resolve()) if d.span.file else ""] += 1
    counts = {}
    for c in result.tasks:
        path = str(Path(c.source.path).resolve()) if c.source else ""
        counts[c.task.id] = by_file.get(path, 0)
    return counts


def summary(reports: list[TaskReport]) -> list[dict[str, Any]]:
    rows = []
    for kind in KINDS:
        group = [r for r in reports if r.kind == kind]
        if not group:
            continue
        steps = [s for r in group for s in r.reference_steps]
        rows.append(
            {
                "kind": kind,
                "tasks": len(group),
                "instances": sum(r.instances for r in group),
                "reference passes": sum(r.reference_passes for r in group),
                "do-nothing failures": sum(r.nothing_fails for r in group),
                "lint findings": sum(r.lint for r in group),
                "mean reference steps": round(statistics.mean(steps), 1) if steps else "-",
                "diverse goals": sum(r.diverse for r in group),
                "failed tasks": sum(not r.ok for r in group),
            }
        )
    return rows


def catalogue(reports: list[TaskReport]) -> str:
    """The library as Markdown: a table per kind."""
    lines = [
        "# Task library",
        "",
        "Generated by `tasklang test task_library --docs docs/task_library.md`: every task with",
        "its kind, apps, goal template, difficulty and the mean length of its reference",
        "solution over the instances tried.",
        "",
    ]
    families = sum(1 for r in reports if r.task.startswith(ANDROIDWORLD))
    counts = ", ".join(f"{sum(r.kind == k for r in reports)} {k}" for k in KINDS)
    lines += [f"{len(reports)} tasks ({counts}); {families} AndroidWorld families.", ""]
    for kind in KINDS:
        group = sorted((r for r in reports if r.kind == kind), key=lambda r: r.task)
        if not group:
            continue
        lines += [f"## {kind}", "", "| task | apps | goal | difficulty | steps |",
                  "|---|---|---|---|---|"]  # fmt: skip
        for r in group:
            goal = r.goal.replace("|", "\\|")
            steps = f"{r.mean_steps:.1f}" if r.mean_steps is not None else "-"
            lines.append(
                f"| `{r.task}` | {', '.join(r.apps)} | {goal} | {r.difficulty or '-'} | {steps} |"
            )
        lines.append("")
    return "\n".join(lines)


def run_tests(
    path: str | None, seeds: int = 20, as_json: bool = False, docs: Path | None = None
) -> int:
    from tasklang.cli import text_table
    from tasklang.compiler import Compiler, UnreadableInput, library_root

    if seeds < 1:
        return _usage("--seeds must be at least 1")
    root = Path(path) if path else library_root()
    if not root.exists():
        return _usage(f"`{root}` does not exist")
    try:
        result = Compiler().compile_paths([root])
    except UnreadableInput as exc:
        return _usage(str(exc))
    if not result.tasks and not result.failed:
        return _usage(f"no task in `{root}`")
    lint = lint_counts(result)
    reports = [test_task(c, seeds, lint.get(c.task.id, 0)) for c in result.tasks]
    failed_to_compile = list(result.failed)
    ok = all(r.ok for r in reports) and not failed_to_compile
    families = sum(1 for r in reports if r.task.startswith(ANDROIDWORLD))
    failures = sum(not r.ok for r in reports) + len(failed_to_compile)
    if docs is not None:
        docs.parent.mkdir(parents=True, exist_ok=True)
        docs.write_text(catalogue(reports) + "\n", encoding="utf-8")
    if as_json:
        doc = {
            "ok": ok,
            "seeds": seeds,
            "kinds": summary(reports),
            "androidworld_families": families,
            "not_compiled": failed_to_compile,
            "tasks": [r.to_json() for r in reports],
        }
        print(json.dumps(doc, indent=2, ensure_ascii=False))
    else:
        for r in reports:
            for problem in r.problems[:3]:
                print(f"FAIL {r.task}: {problem}")
            if len(r.problems) > 3:
                print(f"FAIL {r.task}: ... and {len(r.problems) - 3} more")
        for tid in failed_to_compile:
            print(f"FAIL {tid}: does not compile")
        cols = ["kind", "tasks", "instances", "reference passes", "do-nothing failures",
                "lint findings", "mean reference steps", "diverse goals", "failed tasks"]  # fmt: skip
        print(text_table(cols, summary(reports)))
        print(f"\n{len(reports)} tasks, {families} AndroidWorld families, {seeds} seed(s) each: "
              + ("all passed" if ok else f"{failures} failed"))  # fmt: skip
    return EXIT_OK if ok else EXIT_FAIL
