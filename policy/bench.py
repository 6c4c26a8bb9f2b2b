"""Rollout timing: a batch of episodes whose environment takes ``latency`` seconds per step.

TRL's own tool loop steps the rollouts of a batch one after another; the concurrent loop
(:func:`tasklang.policy.rollout.run_concurrently`, used by ``PhoneGRPOTrainer`` and by
evaluation) steps them all at once. Both are timed here on the same PhoneWorld episodes.
"""

from __future__ import annotations

import time
from typing import Any

from tasklang.policy.envs import PhoneEnvironment, PhoneWorldSession
from tasklang.policy.rollout import run_concurrently

TASK = "androidworld.system_wifi_turn_on"


class _Timed(PhoneEnvironment):
    latency: float = 0.0

    def _make_session(self) -> PhoneWorldSession:
        return PhoneWorldSession(latency=self.latency)


def _batch(n: int, latency: float) -> list[_Timed]:
    envs = []
    for i in range(n):
        env = _Timed(PhoneWorldSession(latency=latency))
        env.reset(task=TASK, seed=i)
        envs.append(env)
    return envs


def bench_rollouts(batch: int = 8, latency: float = 1.0, steps: int = 3) -> dict[str, Any]:
    """Seconds for one rollout, a batch stepped in turn, and a batch stepped concurrently."""
    (one,) = _batch(1, latency)
    t = time.monotonic()
    for _ in range(steps):
        one.wait()
    single = time.monotonic() - t
    envs = _batch(batch, latency)
    t = time.monotonic()
    for _ in range(steps):
        for env in envs:
            env.wait()
    sequential = time.monotonic() - t
    envs = _batch(batch, latency)
    t = time.monotonic()
    for _ in range(steps):
        run_concurrently([env.wait for env in envs], batch)
    concurrent = time.monotonic() - t
    return {
        "batch": batch,
        "latency_s": latency,
        "steps": steps,
        "single_s": single,
        "sequential_s": sequential,
        "concurrent_s": concurrent,
        "speedup": sequential / concurrent if concurrent else float("inf"),
    }
