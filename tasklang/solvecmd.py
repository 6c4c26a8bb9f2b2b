"""`tasklang solve`: find an action sequence that the verifier accepts by searching PhoneWorld
(see ``envs/phoneworld/solver.py``), and write it as a trajectory.

TASK is a task id of the bundled library, a .task file, or a folder (the whole library by
default). With one task, ``-o`` names the trajectory file; with several, a folder that gets one
``<task id>.jsonl`` per solved task. Exit 0 when every task that could run was solved, 1
otherwise, 2 for bad usage.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from tasklang.runcmd import EXIT_FAIL, EXIT_OK, EXIT_USAGE, load


def _usage(message: str) -> int:
    print(f"tasklang: error: {message}", file=sys.stderr)
    return EXIT_USAGE


def describe(action: dict[str, Any]) -> str:
    rest = ", ".join(f"{k}={v!r}" for k, v in action.items() if k != "action_type")
    return f"{action['action_type']}({rest})"


def solve_tasks(
    task: str | None,
    seed: int = 0,
    time_limit: float = 60.0,
    max_depth: int | None = None,
    max_states: int | None = None,
    out: Path | None = None,
    as_json: bool = False,
) -> int:
    from tasklang.checkcmd import CheckUsageError
    from tasklang.cli import write_atomic
    from tasklang.envs.phoneworld.episode import missing_apps
    from tasklang.envs.phoneworld.solver import solve

    if time_limit <= 0:
        return _usage("--time-limit must be positive")
    try:
        tasks = load(task)
    except CheckUsageError as exc:
        return _usage(str(exc))
    if not tasks:
        return _usage(f"no task in `{task}`")
    single = len(tasks) == 1
    if out is not None and not single and out.exists() and not out.is_dir():
        return _usage(f"`{out}` is not a folder")
    rows: list[dict[str, Any]] = []
    all_found = True
    for compiled in tasks.values():
        tid = compiled.task.id
        missing = missing_apps(compiled)
        if missing:
            rows.append({"task": tid, "kind": compiled.task.kind, "found": None,
                         "reason": "no app: " + ", ".join(missing)})  # fmt: skip
            continue
        result = solve(compiled, seed, time_limit, max_depth, max_states)
        rows.append({"kind": compiled.task.kind, **result.summary()})
        all_found = all_found and result.found
        if result.found and out is not None and result.trajectory is not None:
            target = out if single and out.suffix == ".jsonl" else out / f"{tid}.jsonl"
            target.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(target, result.trajectory.to_jsonl())
    if as_json:
        print(json.dumps({"seed": seed, "time_limit": time_limit, "tasks": rows}, indent=2))
    else:
        print(report(rows, single))
    return EXIT_OK if all_found else EXIT_FAIL


def report(rows: list[dict[str, Any]], single: bool) -> str:
    from tasklang.cli import text_table

    if single and rows and rows[0].get("found") is not None:
        r = rows[0]
        head = (
            f"{r['task']}: solved in {r['steps']} steps"
            if r["found"]
            else f"{r['task']}: not solved ({r['reason']}; best score {r['best_score']})"
        )
        lines = [
            head,
            f"explored {r['explored']} states, generated {r['generated']} (the full verifier"
            f" judged {r['verifier_runs']}), in {r['seconds']} s",
        ]
        lines += [f"  {i + 1:2}. {describe(a)}" for i, a in enumerate(r["actions"])]
        return "\n".join(lines)
    table = [
        {
            "task": r["task"],
            "kind": r["kind"],
            "result": "skipped" if r["found"] is None else "solved" if r["found"] else "not solved",
            "steps": r.get("steps", "") if r["found"] else "",
            "explored": r.get("explored", ""),
            "seconds": r.get("seconds", ""),
            "detail": r.get("reason", "")[:60],
        }
        for r in rows
    ]
    ran = [r for r in rows if r["found"] is not None]
    solved = sum(1 for r in ran if r["found"])
    cols = ["task", "kind", "result", "steps", "explored", "seconds", "detail"]
    explored = sum(r["explored"] for r in ran)
    seconds = sum(r["seconds"] for r in ran)
    return (
        text_table(cols, table)
        + f"\n\nsolved {solved} of {len(ran)} tasks that ran; explored {explored} states"
        + f" in {seconds:.1f} s"
    )
