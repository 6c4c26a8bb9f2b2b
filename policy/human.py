"""Human evaluation: a sheet of task instances for a person operating a phone, their verdicts,
and the automatic checkers' agreement with them.

``export_sheet`` writes a CSV with one row per instance: the goal, setup instructions (the
instance's initial state as steps a person carries out before starting, and the task's device
hints), the automatic verdict when a trajectory was checked, and empty ``human_success`` and
``notes`` columns. ``agreement`` reads the filled sheet back and compares: accuracy, false
successes (the checker said success, the person did not) and false failures.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tasklang.policy.evaluate import wilson
from tasklang.policy.io import atomic_write

COLUMNS = ["id", "task", "kind", "seed", "goal", "setup", "auto_success", "human_success", "notes"]
YES = {"1", "yes", "y", "true", "success", "pass"}
NO = {"0", "no", "n", "false", "failure", "fail"}
MAX_RECORDS = 8  # records listed per collection in the setup text


def _value(v: Any) -> str:
    if isinstance(v, dict):
        return (
            "{"
            + ", ".join(f"{k}: {_value(x)}" for k, x in v.items() if x not in (None, "", []))
            + "}"
        )
    return str(v)


def setup_text(task: str, seed: int) -> str:
    """What a person does before starting: every app's state, the foreground app, the hints."""
    from tasklang.policy.tasks import compiled_task
    from tasklang.sampling import sample_instance

    compiled = compiled_task(task)
    initial = sample_instance(compiled, seed).initial
    lines: list[str] = []
    for name, app in sorted(initial.apps.items()):
        for key, value in sorted(app.settings.items()):
            lines.append(f"{name}: set {key} to {_value(value)}")
        for coll, records in sorted(app.collections.items()):
            lines.append(f"{name}: {coll} holds exactly {len(records)} record(s)")
            lines.extend(f"  - {_value(r)}" for r in records[:MAX_RECORDS])
            if len(records) > MAX_RECORDS:
                lines.append(f"  - ... {len(records) - MAX_RECORDS} more (see the task instance)")
    if initial.foreground is not None and initial.foreground.package:
        lines.append(
            f"start in {initial.foreground.package} {initial.foreground.activity or ''}".rstrip()
        )
    else:
        lines.append("start on the home screen")
    hints = compiled.task.device.get("hint") if isinstance(compiled.task.device, dict) else None
    if hints:
        lines.append(f"hint: {_value(getattr(hints, 'value', hints))}")
    return "\n".join(lines)


def export_sheet(
    path: Path,
    instances: Sequence[tuple[str, int]],
    auto: dict[tuple[str, int], bool] | None = None,
) -> int:
    """Write the sheet (CSV, atomically); the number of rows."""
    from tasklang.policy.tasks import compiled_task
    from tasklang.sampling import render_goal, sample_instance

    buf = io.StringIO()
    writer = csv.DictWriter(buf, COLUMNS)
    writer.writeheader()
    for n, (task, seed) in enumerate(instances, 1):
        compiled = compiled_task(task)
        goal = render_goal(compiled.task, sample_instance(compiled, seed).params)
        verdict = (auto or {}).get((task, seed))
        writer.writerow({
            "id": n, "task": task, "kind": compiled.task.kind, "seed": seed, "goal": goal,
            "setup": setup_text(task, seed),
            "auto_success": "" if verdict is None else ("yes" if verdict else "no"),
            "human_success": "", "notes": "",
        })  # fmt: skip
    atomic_write(path, buf.getvalue())
    return len(instances)


def auto_verdicts(
    folder: Path, instances: Sequence[tuple[str, int]]
) -> dict[tuple[str, int], bool]:
    """The verifier's verdicts on trajectories written by evaluation (``<task>/seed-N.jsonl``)."""
    from tasklang.policy.tasks import compiled_task
    from tasklang.verifiers.check import check_trajectory
    from tasklang.verifiers.trajectory import read_trajectory

    out: dict[tuple[str, int], bool] = {}
    for task, seed in instances:
        path = folder / task / f"seed-{seed}.jsonl"
        if path.is_file():
            out[(task, seed)] = bool(
                check_trajectory(compiled_task(task), read_trajectory(path)).success
            )
    return out


class SheetError(ValueError):
    """A filled sheet that cannot be read (row and column named)."""


def _yes_no(text: str, where: str) -> bool | None:
    t = text.strip().lower()
    if not t:
        return None
    if t in YES:
        return True
    if t in NO:
        return False
    raise SheetError(f"{where}: `{text}` is not yes or no")


def read_verdicts(path: Path) -> list[tuple[str, int, bool | None, bool | None]]:
    """(task, seed, auto, human) per row of a filled sheet."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise SheetError(f"cannot read `{path}`: {exc.strerror or exc}") from None
    reader = csv.DictReader(io.StringIO(text))
    missing = [
        c
        for c in ("task", "seed", "auto_success", "human_success")
        if c not in (reader.fieldnames or [])
    ]
    if missing:
        raise SheetError(f"{path}: missing column(s) {', '.join(missing)}")
    out = []
    for row in reader:
        where = f"{path}:{reader.line_num}"
        try:
            seed = int(row["seed"])
        except ValueError:
            raise SheetError(f"{where}: seed `{row['seed']}` is not an integer") from None
        out.append((row["task"], seed, _yes_no(row["auto_success"], where + " auto_success"),
                    _yes_no(row["human_success"], where + " human_success")))  # fmt: skip
    return out


@dataclass
class Agreement:
    compared: int
    agree: int
    false_successes: int  # checker: success, person: failure
    false_failures: int  # checker: failure, person: success
    unjudged: int  # rows without both verdicts

    def summary(self) -> dict[str, Any]:
        lo, hi = wilson(self.agree, self.compared)
        return {
            "compared": self.compared,
            "accuracy": self.agree / self.compared if self.compared else None,
            "accuracy_ci95": [round(lo, 4), round(hi, 4)],
            "false_successes": self.false_successes,
            "false_failures": self.false_failures,
            "unjudged": self.unjudged,
        }


def agreement(rows: Sequence[tuple[str, int, bool | None, bool | None]]) -> Agreement:
    """How often the automatic verdict matches the person's.

    >>> agreement([("t", 0, True, True), ("t", 1, True, False), ("t", 2, None, True)]).summary()["false_successes"]
    1
    """
    a = Agreement(0, 0, 0, 0, 0)
    for _, _, auto, human in rows:
        if auto is None or human is None:
            a.unjudged += 1
            continue
        a.compared += 1
        if auto == human:
            a.agree += 1
        elif auto:
            a.false_successes += 1
        else:
            a.false_failures += 1
    return a
