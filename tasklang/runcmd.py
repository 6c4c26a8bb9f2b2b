"""`tasklang run`: run agents on tasks in PhoneWorld, record and check their trajectories.

TASK is a task id of the bundled library, a .task file, or a folder of tasks (the whole
library by default). Agents:

- ``reference``: the task's scripted reference solution;
- ``nothing``: declares the task complete at once (the check that a task is not vacuous);
- ``random``: random actions from the action space, seeded;
- ``replay:FILE``: the actions of a recorded trajectory (JSONL), in order.

With one task, ``-o`` names the trajectory file; with several, a folder that gets one
``<task id>.jsonl`` per task. A table per task kind sums up what ran, passed and was skipped
(tasks whose apps PhoneWorld does not have yet, or that have no reference solution).
Exit 0 when every task that ran passed (for ``random`` and ``nothing``: when everything ran),
1 otherwise, 2 for bad usage.
"""

from __future__ import annotations

import json
import sys
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tasklang import ir

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2


@dataclass
class Ran:
    task: str
    kind: str
    status: str  # passed failed skipped error
    detail: str = ""
    steps: int = 0
    score: float = 0.0


def _usage(message: str) -> int:
    print(f"tasklang: error: {message}", file=sys.stderr)
    return EXIT_USAGE


def load(task: str | None) -> dict[str, ir.CompiledTask]:
    from tasklang.checkcmd import CheckUsageError, find_tasks
    from tasklang.compiler import Compiler, library_root

    if task is None:
        result = Compiler().compile_paths([library_root()])
        return {c.task.id: c for c in result.tasks}
    try:
        return find_tasks(task)
    except CheckUsageError:
        path = Path(task)
        if path.is_dir():
            result = Compiler().compile_paths([path])
            return {c.task.id: c for c in result.tasks}
        raise


def run_one(
    compiled: ir.CompiledTask,
    agent: str,
    seed: int,
    render: Path | None,
    randomize: bool = False,
) -> tuple[Ran, str | None]:
    """Run one task; the summary row and the trajectory (JSONL) when it ran."""
    from tasklang.envs.phoneworld.episode import Episode, MissingApp, missing_apps
    from tasklang.envs.phoneworld.solutions import Driver, SolutionError, references

    task = compiled.task
    missing = missing_apps(compiled)
    if missing:
        return Ran(task.id, task.kind, "skipped", "no app: " + ", ".join(missing)), None
    solve = references().get(task.id)
    if agent == "reference" and solve is None:
        return Ran(task.id, task.kind, "skipped", "no reference solution"), None
    try:
        ep = Episode(compiled, seed, randomize=randomize)
    except MissingApp as exc:  # pragma: no cover - checked above
        return Ran(task.id, task.kind, "skipped", str(exc)), None
    assert ep.instance is not None
    shots: list[bytes] = []

    def step(action: dict[str, Any]) -> Any:
        if render is not None:
            shots.append(_shot(ep))
        return ep.step(action)

    detail = ""
    try:
        if agent == "reference":
            assert solve is not None
            solve(Driver(ep.tree, step, ep.instance.params, max_steps=max(ep.budget, 60)))
        elif agent == "nothing":
            step({"action_type": "status", "goal_status": "complete"})
        elif agent == "random":
            from tasklang.envs.phoneworld.env import ActionSpace

            space = ActionSpace(seed=seed)
            while not ep.done:
                step(space.sample())
        else:
            for action in replay_actions(Path(agent.removeprefix("replay:"))):
                if ep.done:
                    break
                step(action)
    except SolutionError as exc:
        detail = f"the reference solution failed: {exc}"
    if render is not None:
        shots.append(_shot(ep))
        folder = render / task.id
        folder.mkdir(parents=True, exist_ok=True)
        for i, data in enumerate(shots):
            (folder / f"{i:03d}.png").write_bytes(data)
    verdict = ep.verdict()
    status = "passed" if verdict.success and not detail else "failed"
    if not detail and not verdict.success:
        failed = [r.id for r in verdict.clauses if not r.passed and r.role != "safety"]
        detail = "; ".join(
            [*(f"clause {c} failed" for c in failed[:3]), *verdict.notes[:2],
             *(f"safety {v} violated" for v in verdict.safety_violations[:2])]
        )  # fmt: skip
    row = Ran(task.id, task.kind, status, detail, len(ep.steps), verdict.score)
    return row, ep.trajectory().to_jsonl()


def _shot(ep: Any) -> bytes:
    data: bytes = ep.screenshot()
    return data


def replay_actions(path: Path) -> list[dict[str, Any]]:
    from tasklang.verifiers.trajectory import read_trajectory

    traj = read_trajectory(path)
    return [s.action.model_dump(exclude_none=True) for s in traj.steps if s.action is not None]


def run(
    task: str | None,
    agent: str = "reference",
    seed: int = 0,
    out: Path | None = None,
    render: Path | None = None,
    as_json: bool = False,
    randomize: bool = False,
) -> int:
    if agent not in ("reference", "nothing", "random") and not agent.startswith("replay:"):
        return _usage(f"unknown agent `{agent}`: reference, nothing, random or replay:FILE")
    if agent.startswith("replay:"):
        replay = Path(agent.removeprefix("replay:"))
        if not replay.is_file():
            return _usage(f"`{replay}` is not a file")
        try:
            replay_actions(replay)
        except Exception as exc:  # any unreadable trajectory is bad usage
            return _usage(f"cannot read `{replay}`: {exc}")
    from tasklang.checkcmd import CheckUsageError

    try:
        tasks = load(task)
    except CheckUsageError as exc:
        return _usage(str(exc))
    if not tasks:
        return _usage(f"no task in `{task}`")
    single = len(tasks) == 1
    if out is not None and not single and out.exists() and not out.is_dir():
        return _usage(f"`{out}` is not a folder")
    started = time.perf_counter()
    rows = []
    for compiled in tasks.values():
        row, jsonl = run_one(compiled, agent, seed, render, randomize)
        rows.append(row)
        if jsonl is not None and out is not None:
            target = out if single and out.suffix == ".jsonl" else out / f"{compiled.task.id}.jsonl"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(jsonl, encoding="utf-8")
    seconds = time.perf_counter() - started
    ran = [r for r in rows if r.status != "skipped"]
    ok = (
        all(r.status == "passed" for r in ran)
        if agent in ("reference",) or agent.startswith("replay:")
        else True
    )
    if as_json:
        print(json.dumps({"agent": agent, "seed": seed, "ok": ok, "seconds": round(seconds, 3),
                          "tasks": [r.__dict__ for r in rows]}, indent=2))  # fmt: skip
    else:
        print(report(rows, agent))
    return EXIT_OK if ok else EXIT_FAIL


def report(rows: list[Ran], agent: str) -> str:
    from tasklang.cli import text_table

    lines = [
        text_table(
            ["task", "kind", "result", "steps", "detail"],
            [
                {
                    "task": r.task,
                    "kind": r.kind,
                    "result": r.status,
                    "steps": r.steps or "",
                    "detail": r.detail[:90],
                }
                for r in rows
            ],
        ),
        "",
    ]
    by_kind: dict[str, list[Ran]] = defaultdict(list)
    for r in rows:
        by_kind[r.kind].append(r)
    summary = []
    for kind in ("app", "mini_app", "cross_app"):
        group = by_kind.get(kind, [])
        if not group:
            continue
        ran = [r for r in group if r.status != "skipped"]
        summary.append(
            {
                "kind": kind,
                "tasks": len(group),
                "ran": len(ran),
                "passed": sum(r.status == "passed" for r in ran),
                "failed": sum(r.status == "failed" for r in ran),
                "skipped": len(group) - len(ran),
                "mean steps": f"{sum(r.steps for r in ran) / len(ran):.1f}" if ran else "-",
            }
        )
    lines.append(f"agent: {agent}")
    lines.append(
        text_table(["kind", "tasks", "ran", "passed", "failed", "skipped", "mean steps"], summary)
    )
    return "\n".join(lines)
