"""`tasklang sample TASK [--seed N] [-n K] [--format json]`: draw task instances and show them.

TASK is a .task file (every task in it) or the id of a task in the bundled library. Each
instance is shown with its goal text, parameter values, noise counts and initial state (as
JSON). With ``--format json`` the output is one JSON document::

    {"task": ID, "seed": N, "instances": [{"index", "seed", "goal", "params", "initial",
     "notes", "noise"}]}

(for a file declaring several tasks, a JSON array of such documents). An instance's own
``seed`` reproduces it alone (``--seed`` that number, ``-n 1``). Exit codes: 0 success, 1 a
task cannot be sampled (the reason on stderr), 2 bad usage (unknown task, unreadable path).
"""

from __future__ import annotations

import json
from typing import Any

import typer

from tasklang import ir
from tasklang.checkcmd import CheckUsageError, find_tasks


def run_sample(task: str, seed: int = 0, n: int = 1, as_json: bool = False) -> int:
    """Sample ``n`` distinct instances of each task TASK names; returns the exit code."""
    from tasklang.sampling import SamplingError

    if n < 1:
        typer.echo(f"tasklang: error: -n must be at least 1, not {n}", err=True)
        return 2
    try:
        tasks = find_tasks(task)
    except CheckUsageError as exc:
        typer.echo(f"tasklang: error: {exc}", err=True)
        return 2
    documents: list[dict[str, Any]] = []
    code = 0
    for compiled in tasks.values():
        try:
            documents.append(sample_document(compiled, seed, n))
        except SamplingError as exc:
            typer.echo(f"tasklang: error: cannot sample task `{compiled.task.id}`: {exc}", err=True)
            code = 1
        except Exception as exc:  # an unexpected failure is reported, never a traceback
            typer.echo(
                f"tasklang: error: cannot sample task `{compiled.task.id}`: "
                f"{type(exc).__name__}: {exc}",
                err=True,
            )
            code = 1
    if as_json:
        if documents:
            body: Any = documents[0] if len(tasks) == 1 else documents
            typer.echo(json.dumps(body, indent=2, ensure_ascii=False))
    else:
        typer.echo("\n\n".join(render_document(d) for d in documents))
    return code


def sample_document(compiled: ir.CompiledTask, seed: int, n: int) -> dict[str, Any]:
    """The JSON document of ``n`` instances of a task."""
    from tasklang.sampling import render_goal, sample_instances

    instances = sample_instances(compiled, seed, n)
    return {
        "task": compiled.task.id,
        "seed": seed,
        "instances": [
            {
                "index": i,
                "seed": inst.seed,
                "goal": render_goal(compiled.task, inst.params),
                "params": inst.params,
                "initial": inst.initial.model_dump(mode="json", exclude_none=True),
                "notes": inst.notes,
                "noise": inst.noise,
            }
            for i, inst in enumerate(instances)
        ],
    }


def render_document(doc: dict[str, Any]) -> str:
    """A sampled document as text, one block per instance."""
    instances = doc["instances"]
    blocks = []
    for inst in instances:
        lines = [
            f"task {doc['task']}, seed {doc['seed']}: instance {inst['index'] + 1} "
            f"of {len(instances)} (its own seed {inst['seed']})",
            f"  goal: {inst['goal']}",
        ]
        if inst["params"]:
            lines.append("  params:")
            for name, value in inst["params"].items():
                lines.append(f"    {name} = {json.dumps(value, ensure_ascii=False)}")
        else:
            lines.append("  params: (none)")
        noise = ", ".join(f"{k} +{v}" for k, v in inst["noise"].items())
        lines.append(f"  noise: {noise or '(none)'}")
        for note in inst["notes"]:
            lines.append(f"  note: {note}")
        state = json.dumps(inst["initial"], indent=2, ensure_ascii=False)
        lines.append("  initial state:")
        lines.extend("    " + line for line in state.splitlines())
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)
