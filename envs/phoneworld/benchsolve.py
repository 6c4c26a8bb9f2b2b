"""`tasklang bench solve`: how much of the library the automatic solver proves solvable.

The tasks measured are the library's tasks of one app (a single app, or a mini-app in its
host) that PhoneWorld can run and that have a reference solution of at most ``MAX_REFERENCE``
steps (the final ``status`` or ``answer`` included), or the tasks asked for. Each gets one search (``solver.solve``) on the given seed,
bounded by a time budget and optionally by a number of explored states. Per task: whether it
was solved, the solution's length, the states explored and generated, the seconds taken and
the reference solution's length. Totals: the fraction solved (also per task kind: ``app``,
``mini_app``), and the median and total time.

States explored are the figure to compare runs by: they do not depend on how busy the
machine is; seconds do.
"""

from __future__ import annotations

import statistics
from typing import Any

from tasklang import ir
from tasklang.envs.phoneworld.episode import missing_apps, run_reference
from tasklang.envs.phoneworld.judge import needs_answer
from tasklang.envs.phoneworld.solutions import references
from tasklang.envs.phoneworld.solver import solve

MAX_REFERENCE = 12


def library() -> dict[str, ir.CompiledTask]:
    from tasklang.compiler import Compiler, library_root

    return {c.task.id: c for c in Compiler().compile_paths([library_root()]).tasks}


def reference_length(compiled: ir.CompiledTask, seed: int) -> int | None:
    """The number of actions of the task's reference solution on this seed (its final action
    included); None without a reference solution or when it does not pass."""
    if compiled.task.id not in references():
        return None
    try:
        verdict, trajectory = run_reference(compiled, seed)
    except Exception:  # a reference that breaks on this instance measures nothing
        return None
    return len(trajectory.steps) if verdict.success else None


def select(
    tasks: dict[str, ir.CompiledTask], seed: int, max_reference: int = MAX_REFERENCE
) -> dict[str, tuple[ir.CompiledTask, int]]:
    """Tasks of one app (or one mini-app) PhoneWorld runs whose reference solution is short
    enough, with its length."""
    out = {}
    for tid, compiled in sorted(tasks.items()):
        if len(compiled.task.apps) != 1 or missing_apps(compiled):
            continue
        length = reference_length(compiled, seed)
        if length is not None and length <= max_reference:
            out[tid] = (compiled, length)
    return out


def bench_solve(
    tasks: list[str] | None = None,
    seed: int = 0,
    budget_s: float = 60.0,
    max_states: int | None = None,
) -> dict[str, Any]:
    """Run the solver on each task (see the module's doc); the figures as a JSON-able dict.

    Raises ``KeyError`` for a task id that is not in the library and ``ValueError`` for one
    PhoneWorld cannot run."""
    if budget_s <= 0:
        raise ValueError("the time budget must be positive")
    lib = library()
    chosen: dict[str, tuple[ir.CompiledTask, int | None]] = {}
    if tasks is None:
        chosen.update(select(lib, seed))
    else:
        for tid in tasks:
            if tid not in lib:
                raise KeyError(f"no task `{tid}` in the library")
            missing = missing_apps(lib[tid])
            if missing:
                raise ValueError(f"task `{tid}` needs app(s) PhoneWorld lacks: {missing}")
            chosen[tid] = (lib[tid], reference_length(lib[tid], seed))
    rows: list[dict[str, Any]] = []
    for tid, (compiled, ref_len) in chosen.items():
        result = solve(compiled, seed, budget_s, None, max_states)
        rows.append(
            {
                "task": tid,
                "kind": compiled.task.kind,
                "app": compiled.task.apps[0].name if compiled.task.apps else "",
                "answer": needs_answer(compiled),
                "solved": result.found,
                "steps": len(result.actions) if result.found else None,
                "reference_steps": ref_len,
                "explored": result.explored,
                "generated": result.generated,
                "seconds": round(result.seconds, 2),
                "best_score": round(result.score, 4),
                "reason": result.reason,
            }
        )
    solved = [r for r in rows if r["solved"]]
    kinds: dict[str, dict[str, int]] = {}
    for r in rows:
        k = kinds.setdefault(r["kind"], {"tasks": 0, "solved": 0})
        k["tasks"] += 1
        k["solved"] += int(r["solved"])
    times = [r["seconds"] for r in rows]
    return {
        "seed": seed,
        "budget_s": budget_s,
        "max_states": max_states,
        "max_reference": MAX_REFERENCE if tasks is None else None,
        "tasks": rows,
        "totals": {
            "tasks": len(rows),
            "solved": len(solved),
            "solved_fraction": round(len(solved) / len(rows), 4) if rows else 0.0,
            "by_kind": dict(sorted(kinds.items())),
            "median_seconds": round(statistics.median(times), 2) if times else 0.0,
            "median_seconds_solved": (
                round(statistics.median(r["seconds"] for r in solved), 2) if solved else None
            ),
            "total_seconds": round(sum(times), 1),
            "explored": sum(r["explored"] for r in rows),
            "median_explored_solved": (
                statistics.median(r["explored"] for r in solved) if solved else None
            ),
        },
    }


def text_report(figures: dict[str, Any]) -> str:
    from tasklang.cli import text_table

    cols = ["task", "result", "steps", "ref", "explored", "seconds", "detail"]
    table = [
        {
            "task": r["task"] + (" (answer)" if r["answer"] else ""),
            "result": "solved" if r["solved"] else "not solved",
            "steps": r["steps"] if r["solved"] else "",
            "ref": "" if r["reference_steps"] is None else r["reference_steps"],
            "explored": r["explored"],
            "seconds": r["seconds"],
            "detail": "" if r["solved"] else f"best score {r['best_score']}; {r['reason']}",
        }
        for r in figures["tasks"]
    ]
    t = figures["totals"]
    limits = f"budget {figures['budget_s']:g} s per task"
    if figures.get("max_states"):
        limits += f", at most {figures['max_states']} explored states"
    lines = [
        text_table(cols, table),
        "",
        f"solved {t['solved']} of {t['tasks']} ({100 * t['solved_fraction']:.1f}%), seed "
        f"{figures['seed']}, {limits}",
        "by kind: "
        + ", ".join(f"{k} {v['solved']} of {v['tasks']}" for k, v in t["by_kind"].items()),
        f"median time {t['median_seconds']} s (solved: {t['median_seconds_solved']} s), "
        f"total {t['total_seconds']} s; {t['explored']} states explored "
        f"(median per solved task: {t['median_explored_solved']})",
    ]
    return "\n".join(lines)
