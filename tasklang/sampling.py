"""Draw a task instance from a seed: parameter values and the initial world state.

Values are drawn from each parameter's domain in dependency order, record parameters from
the initial state that `given` builds, and constraints are met by redrawing. The same task
and seed give the same instance on every machine (the generator is seeded from text).
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass, field
from typing import Any

from tasklang import ir
from tasklang.generators import GENERATORS
from tasklang.passes.typecheck import dependency_order
from tasklang.verifiers.evaluate import Env, EvalError, evaluate
from tasklang.verifiers.snapshot import WorldSnapshot
from tasklang.verifiers.state import initial_state

MAX_TRIES = 500


class SamplingError(ValueError):
    """No instance satisfies the task's constraints within the allowed tries."""


@dataclass
class Instance:
    seed: int
    params: dict[str, Any]
    initial: WorldSnapshot
    notes: list[str] = field(default_factory=list)


def sample_instance(compiled: ir.CompiledTask, seed: int) -> Instance:
    """The instance of ``compiled`` for ``seed``."""
    rng = random.Random(f"{compiled.task.id}#{seed}")
    task = compiled.task
    order = dependency_order(task.params)
    plain = [p for p in order if not isinstance(p.domain, ir.RecordDomain)]
    records = [p for p in order if isinstance(p.domain, ir.RecordDomain)]
    for _ in range(MAX_TRIES):
        params: dict[str, Any] = {}
        empty = WorldSnapshot()
        for p in plain:
            params[p.name] = draw(p, rng, Env(dict(compiled.apps), params, empty))
        state, notes = initial_state(compiled, params)
        env = Env(dict(compiled.apps), params, state)
        if not all(draw_record(p, rng, env) for p in records):
            continue
        if constraints_hold(task, env):
            return Instance(seed, params, state, notes)
    raise SamplingError(f"no instance of `{task.id}` met its constraints in {MAX_TRIES} draws")


def constraints_hold(task: ir.Task, env: Env) -> bool:
    try:
        return all(bool(evaluate(c, env)) for c in task.constraints)
    except EvalError:
        return False


def draw_record(p: ir.ParamDecl, rng: random.Random, env: Env) -> bool:
    domain = p.domain
    assert isinstance(domain, ir.RecordDomain)
    candidates = []
    for record in evaluate(domain.source, env) or []:
        trial = Env(env.apps, {**env.params, p.name: record}, env.snapshot, None, record)
        try:
            if domain.where is None or evaluate(domain.where, trial):
                candidates.append(record)
        except EvalError:
            continue
    if not candidates:
        return False
    env.params[p.name] = rng.choice(candidates)
    return True


def draw(p: ir.ParamDecl, rng: random.Random, env: Env) -> Any:
    domain = p.domain
    if isinstance(domain, ir.ChoiceDomain):
        return evaluate(rng.choice(domain.values), env)
    if isinstance(domain, ir.GeneratorDomain):
        return GENERATORS[domain.generator](rng)
    assert isinstance(domain, ir.RangeDomain)
    low, high = evaluate(domain.low, env), evaluate(domain.high, env)
    return draw_range(p.type_name or "int", low, high, rng)


def draw_range(type_name: str, low: Any, high: Any, rng: random.Random) -> Any:
    """A value between two bounds, inclusive, of a range type.

    >>> draw_range("date", "2026-01-30", "2026-02-02", random.Random(1)) in (
    ...     "2026-01-30", "2026-01-31", "2026-02-01", "2026-02-02")
    True
    """
    if type_name in ("int", "money", "duration"):
        step = 60 if type_name == "duration" and low % 60 == 0 and high % 60 == 0 else 1
        return rng.randrange(int(low), int(high) + 1, step)
    if type_name == "number":
        return round(rng.uniform(float(low), float(high)), 2)
    if type_name == "date":
        first, last = dt.date.fromisoformat(low), dt.date.fromisoformat(high)
        return (first + dt.timedelta(days=rng.randint(0, (last - first).days))).isoformat()
    if type_name == "time":
        a, b = (_minutes(dt.time.fromisoformat(v)) for v in (low, high))
        m = rng.randint(a, b)
        return dt.time(m // 60, m % 60).isoformat()
    start, end = dt.datetime.fromisoformat(low), dt.datetime.fromisoformat(high)
    minutes = int((end - start).total_seconds() // 60)
    return (start + dt.timedelta(minutes=rng.randint(0, max(0, minutes)))).isoformat()


def _minutes(t: dt.time) -> int:
    return t.hour * 60 + t.minute
