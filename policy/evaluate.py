"""Evaluation: success per task kind (app, mini_app, cross_app) and overall, with 95% Wilson
intervals, on held-out task instances; the trajectories are written for `tasklang check`."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from tasklang.policy.envs import PhoneEnvironment, Session, environment_classes
from tasklang.policy.rollout import Rollout, greedy_rollouts

KINDS = ("app", "mini_app", "cross_app")


def wilson(successes: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval of a success rate (95% by default).

    >>> lo, hi = wilson(8, 10); round(lo, 3), round(hi, 3)
    (0.49, 0.943)
    >>> wilson(0, 0)
    (0.0, 1.0)
    """
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def summarize(rollouts: Sequence[Rollout]) -> dict[str, dict[str, Any]]:
    """Per kind and overall: episodes, successes, errored (left out of the rate), rate, interval."""
    groups: dict[str, list[Rollout]] = {k: [] for k in KINDS}
    for r in rollouts:
        groups.setdefault(r.kind, []).append(r)
    groups["overall"] = list(rollouts)
    out: dict[str, dict[str, Any]] = {}
    for name, rs in groups.items():
        scored = [r for r in rs if r.reward is not None]
        wins = sum(1 for r in scored if r.reward and r.reward > 0)
        lo, hi = wilson(wins, len(scored))
        out[name] = {
            "episodes": len(rs),
            "errored": len(rs) - len(scored),
            "successes": wins,
            "rate": wins / len(scored) if scored else None,
            "ci95": [round(lo, 4), round(hi, 4)],
        }
    return out


def format_rate(row: dict[str, Any]) -> str:
    """``45.0% [23.1, 68.5] (9/20)`` or ``-`` without episodes."""
    if not row["episodes"] or row["rate"] is None:
        return "-"
    lo, hi = row["ci95"]
    n = row["episodes"] - row["errored"]
    return f"{100 * row['rate']:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] ({row['successes']}/{n})"


def evaluate(
    model: Any,
    tokenizer: Any,
    instances: Sequence[tuple[str, int]],
    environment: str = "phoneworld",
    device_factory: Callable[[], Session] | None = None,
    batch_size: int = 8,
    max_steps: int = 12,
    max_new_tokens: int = 64,
    trajectories: Path | None = None,
) -> list[Rollout]:
    """Greedy rollouts of the policy on every (task, seed); trajectories written when asked."""
    from tasklang.policy.tasks import task_kind

    classes = environment_classes(device_factory=device_factory)
    cls = classes[environment]
    model.eval()
    done: list[Rollout] = []
    for start in range(0, len(instances), batch_size):
        chunk = instances[start : start + batch_size]
        envs: list[PhoneEnvironment] = [cls() for _ in chunk]
        rollouts = [Rollout(t, s, environment, kind=_kind(task_kind, t)) for t, s in chunk]
        greedy_rollouts(model, tokenizer, envs, rollouts, max_steps, max_new_tokens, batch_size)
        if trajectories is not None:
            _write_trajectories(envs, rollouts, trajectories)
        done.extend(rollouts)
    return done


def _kind(lookup: Callable[[str], str], task: str) -> str:
    try:
        return lookup(task)
    except Exception:
        return "app"


def _write_trajectories(
    envs: Sequence[PhoneEnvironment], rollouts: Sequence[Rollout], folder: Path
) -> None:
    from tasklang.policy.io import atomic_write

    for env, r in zip(envs, rollouts, strict=True):
        jsonl = getattr(env.session, "trajectory_jsonl", None)
        if jsonl is None or env.errored:
            continue
        atomic_write(folder / r.task / f"seed-{r.seed}.jsonl", jsonl())
