"""`tasklang bench sample`: how many task instances per second the sampler draws, and how
long the z3 analysis of `tasklang lint` takes per library task.

For each library task (or the ones named), ``n`` instances are drawn with seeds 0..n-1 by
``sample_instance``, after one untimed warm-up draw (compiling and the per-task noise plan are
not timed). The result holds the rate per task, the median over the tasks that could be
sampled, and the figure for the typical task, ``contacts.add_coworker``.
"""

from __future__ import annotations

import platform
import statistics
import time
from typing import Any

TYPICAL = "contacts.add_coworker"


def bench_sample(n: int = 1000, tasks: list[str] | None = None) -> dict[str, Any]:
    """Instances per second per task; prints nothing."""
    from tasklang.compiler import Compiler, library_root
    from tasklang.sampling import SamplingError, sample_instance

    result = Compiler().compile_paths([library_root()])
    compiled = {c.task.id: c for c in result.tasks}
    names = list(tasks) if tasks is not None else sorted(compiled)
    per_task: dict[str, dict[str, Any]] = {}
    for name in names:
        c = compiled.get(name)
        if c is None:
            per_task[name] = {"error": "no such task in the library"}
            continue
        try:
            sample_instance(c, -1)
            noise = 0
            start = time.perf_counter()
            for seed in range(n):
                noise += sum(sample_instance(c, seed).noise.values())
            seconds = time.perf_counter() - start
        except SamplingError as exc:
            per_task[name] = {"error": str(exc)}
            continue
        per_task[name] = {
            "instances": n,
            "seconds": round(seconds, 4),
            "instances_per_s": round(n / seconds, 1) if seconds > 0 else float("inf"),
            "noise_records_per_instance": round(noise / n, 2) if n else 0,
        }
    rates = [t["instances_per_s"] for t in per_task.values() if "instances_per_s" in t]
    typical = per_task.get(TYPICAL, {})
    return {
        "n": n,
        "machine": {"python": platform.python_version(), "cpus": _cpus()},
        "tasks": per_task,
        "median_instances_per_s": round(statistics.median(rates), 1) if rates else None,
        "typical": {"task": TYPICAL, "instances_per_s": typical.get("instances_per_s")},
    }


def _cpus() -> int | None:
    import os

    return os.cpu_count()


def bench_lint(repeat: int = 1) -> dict[str, Any]:
    """Seconds of z3 analysis per library task (the best of ``repeat`` runs) and in all.

    Compiling is not counted: `bench compile` measures it.
    """
    from tasklang.analysis import analyze
    from tasklang.compiler import Compiler, library_root

    result = Compiler().compile_paths([library_root()])
    per_task: dict[str, float] = {}
    for compiled in result.tasks:
        best = float("inf")
        for _ in range(max(1, repeat)):
            start = time.perf_counter()
            analyze(compiled)
            best = min(best, time.perf_counter() - start)
        per_task[compiled.task.id] = round(best, 4)
    times = list(per_task.values())
    return {
        "tasks": len(times),
        "total_s": round(sum(times), 3),
        "median_s": round(statistics.median(times), 4) if times else None,
        "max_s": max(times) if times else None,
        "slowest": max(per_task, key=per_task.__getitem__) if per_task else None,
        "per_task_s": per_task,
    }
