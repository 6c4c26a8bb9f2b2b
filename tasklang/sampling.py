"""Draw task instances from a seed: parameter values and the initial world state.

An instance is drawn in this order:

1. plain parameters (choices, ranges, generators) in dependency order;
2. the explicit state: `given` without its noise operations;
3. record parameters, from the records `given` adds explicitly when any qualify (otherwise
   they are drawn once the noise is in, from all records, noise included);
4. the noise records (``tasklang.noise``), generated in place, so the order of the operations
   is kept; with a record parameter drawn from noise, the other noise records are checked
   again against it and redrawn where they clash;
5. the constraints, and that every record parameter still meets its domain.

An attempt that fails a step is redrawn, at most ``MAX_TRIES`` times. The random generator is
seeded from text, so the same task and seed give the same instance on every machine.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tasklang import ir
from tasklang.generators import GENERATORS
from tasklang.noise import NoiseError, describe, display_field, money_text
from tasklang.passes.typecheck import dependency_order
from tasklang.verifiers.evaluate import Env, EvalError, evaluate
from tasklang.verifiers.snapshot import WorldSnapshot
from tasklang.verifiers.state import BuiltState, build_state

MAX_TRIES = 500
MAX_NOISE_FAILURES = 10  # attempts whose noise could not be generated before giving up


# A fallback for plain parameters, for when rejection fails MAX_TRIES times: called with the
# task and the instance's generator, it returns values for the plain parameters (record
# parameters it names are used as given) or None. The instance is then completed as usual.
def solver_guided(compiled: ir.CompiledTask, rng: random.Random) -> dict[str, Any] | None:
    """The default fallback: an instance found by z3, by random bisection of each domain."""
    from tasklang.analysis.sample import guided_instance

    return guided_instance(compiled, rng)


GUIDED: Callable[[ir.CompiledTask, random.Random], dict[str, Any] | None] | None = solver_guided


class SamplingError(ValueError):
    """No instance satisfies the task's constraints within the allowed tries."""


@dataclass
class Instance:
    """One instance of a task.

    ``seed`` reproduces it: ``sample_instance(compiled, instance.seed)`` is this instance.
    ``noise`` counts the generated records per collection (``"contacts.people": 12``).
    """

    seed: int
    params: dict[str, Any]
    initial: WorldSnapshot
    notes: list[str] = field(default_factory=list)
    noise: dict[str, int] = field(default_factory=dict)


def sample_instance(compiled: ir.CompiledTask, seed: int) -> Instance:
    """The instance of ``compiled`` for ``seed``."""
    rng = random.Random(f"{compiled.task.id}#{seed}")
    return _Sampler(compiled, rng).sample(seed)


def sample_instances(compiled: ir.CompiledTask, seed: int, n: int) -> list[Instance]:
    """``n`` instances with pairwise distinct parameter values, the same for the same seed.

    Each attempt is an independent draw with its own seed (the first is ``seed`` itself, so
    the first instance is ``sample_instance(compiled, seed)``; the others are derived from
    the task id, ``seed`` and the attempt number by SHA-256), and an instance whose parameter
    values were already drawn is skipped. When the domain holds fewer than ``n`` distinct
    instances, drawing stops after a bounded number of attempts (a plain domain known to be
    used up, ``max(200, 10 * found)`` duplicates in a row, or ``20 * n + 1000`` attempts in
    all) and returns those found; the first instance's ``notes`` then start with
    ``"only K distinct instance(s) ..."`` (:func:`exhausted` tells).

    Raises :class:`SamplingError` when not even one instance can be drawn.
    """
    if n <= 0:
        return []
    task_id = compiled.task.id
    size = plain_domain_size(compiled.task)
    found: list[Instance] = []
    seen: set[str] = set()
    misses = attempts = 0
    while len(found) < n and attempts < 20 * n + 1000:
        s = seed if attempts == 0 else derived_seed(task_id, seed, attempts)
        attempts += 1
        try:
            inst = sample_instance(compiled, s)
        except SamplingError:
            if not found:
                raise
            misses += 1
            continue
        key = _params_key(inst.params)
        if key in seen:
            misses += 1
            if misses >= max(200, 10 * len(found)):
                break
            continue
        seen.add(key)
        found.append(inst)
        misses = 0
        if size is not None and len(found) >= size:
            break
    if len(found) < n:
        found[0].notes.insert(
            0,
            f"only {len(found)} distinct instance(s) of `{task_id}` found in {attempts} "
            f"draws (asked for {n}): the parameters take fewer distinct values",
        )
    return found


def exhausted(instances: list[Instance]) -> bool:
    """Whether :func:`sample_instances` found fewer instances than asked for."""
    return bool(instances) and any(n.startswith("only ") for n in instances[0].notes[:1])


def derived_seed(task_id: str, seed: int, attempt: int) -> int:
    """The seed of attempt ``attempt`` (>= 1) of :func:`sample_instances`: a 60-bit number."""
    digest = hashlib.sha256(f"{task_id}#{seed}#{attempt}".encode()).hexdigest()
    return int(digest[:15], 16)


def _params_key(params: dict[str, Any]) -> str:
    return json.dumps(params, sort_keys=True, ensure_ascii=False, default=str)


class _Sampler:
    """Draws one instance: attempts, and why they failed (for the error message)."""

    def __init__(self, compiled: ir.CompiledTask, rng: random.Random) -> None:
        self.compiled = compiled
        self.task = compiled.task
        self.rng = rng
        self.apps = dict(compiled.apps)
        order = dependency_order(self.task.params)
        self.plain = [p for p in order if not isinstance(p.domain, ir.RecordDomain)]
        self.records = [p for p in order if isinstance(p.domain, ir.RecordDomain)]
        self.failures: Counter[str] = Counter()
        self.noise_failures = 0

    def sample(self, seed: int) -> Instance:
        for _ in range(MAX_TRIES):
            params = self.draw_plain()
            if params is None:
                continue
            inst = self.complete(seed, params)
            if inst is not None:
                return inst
        if GUIDED is not None:
            guided = GUIDED(self.compiled, self.rng)
            if guided is not None:
                inst = self.complete(seed, dict(guided))
                if inst is not None:
                    return inst
        raise SamplingError(self.message())

    def message(self) -> str:
        head = f"no instance of `{self.task.id}` met its constraints in {MAX_TRIES} draws"
        if not self.failures:
            return head
        top = "; ".join(f"{r} ({n}x)" for r, n in self.failures.most_common(3))
        return f"{head}: {top}"

    def fail(self, reason: str) -> None:
        self.failures[reason] += 1

    def draw_plain(self) -> dict[str, Any] | None:
        """Values of the plain parameters (those that read a record parameter come later)."""
        params: dict[str, Any] = {}
        env = Env(self.apps, params, WorldSnapshot())
        for p in self.plain:
            try:
                params[p.name] = draw(p, self.rng, env)
            except EvalError:
                if not _reads_record_param(p, self.records):
                    self.fail(f"parameter `{p.name}` cannot be drawn")
                    return None
        return params

    def complete(self, seed: int, params: dict[str, Any]) -> Instance | None:
        """Explicit state, record parameters, noise, constraints; None when a step fails."""
        try:
            return self._complete(seed, params)
        except NoiseError as exc:
            self.noise_failures += 1
            self.fail(str(exc))
            if self.noise_failures >= MAX_NOISE_FAILURES:
                raise SamplingError(f"cannot sample `{self.task.id}`: {exc}") from None
            return None
        except EvalError as exc:
            self.fail(f"the initial state cannot be built: {exc}")
            return None

    def _complete(self, seed: int, params: dict[str, Any]) -> Instance | None:
        deferred: list[ir.ParamDecl] = []
        pending = [p for p in self.records if p.name not in params]
        if pending:
            explicit = build_state(self.compiled, params)
            env = Env(self.apps, params, explicit.snapshot)
            for p in pending:
                if not self.draw_record(p, env, quiet=True):
                    deferred.append(p)
            if not self.draw_late_plain(params, env):
                return None
        built = build_state(self.compiled, params, self.rng)
        if deferred:
            env = Env(self.apps, params, built.snapshot)
            for p in deferred:
                if not self.draw_record(p, env, quiet=False):
                    return None
            if not self.draw_late_plain(params, env):
                return None
            chosen = [params[p.name] for p in deferred]
            built = build_state(self.compiled, params, self.rng, built.noise, chosen)
        env = Env(self.apps, params, built.snapshot)
        if not self.still_valid(env) or not self.constraints_hold(env):
            return None
        return Instance(
            seed, params, built.snapshot, built.notes, _noise_counts(self.compiled, built)
        )

    def draw_late_plain(self, params: dict[str, Any], env: Env) -> bool:
        for p in self.plain:
            if p.name not in params:
                try:
                    params[p.name] = draw(p, self.rng, env)
                except EvalError:
                    if any(r.name not in params for r in self.records):
                        continue
                    self.fail(f"parameter `{p.name}` cannot be drawn")
                    return False
        return True

    def draw_record(self, p: ir.ParamDecl, env: Env, quiet: bool) -> bool:
        candidates = record_candidates(p, env)
        if not candidates:
            if not quiet:
                self.fail(f"no record of {_source(p)} fits the domain of `{p.name}`")
            return False
        env.params[p.name] = self.rng.choice(candidates)
        return True

    def still_valid(self, env: Env) -> bool:
        """Every record parameter is still in its collection and still meets its domain."""
        for p in self.records:
            domain = p.domain
            assert isinstance(domain, ir.RecordDomain)
            chosen = env.params.get(p.name)
            try:
                records = evaluate(domain.source, env) or []
                trial = Env(env.apps, env.params, env.snapshot, None, chosen)
                ok = chosen in records and (
                    domain.where is None or bool(evaluate(domain.where, trial))
                )
            except EvalError:
                ok = False
            if not ok:
                self.fail(f"parameter `{p.name}` no longer fits its domain in the initial state")
                return False
        return True

    def constraints_hold(self, env: Env) -> bool:
        for i, c in enumerate(self.task.constraints, 1):
            try:
                ok = bool(evaluate(c, env))
            except EvalError:
                ok = False
            if not ok:
                self.fail(f"constraint {i} `{describe(c)}` was false")
                return False
        return True


def _noise_counts(compiled: ir.CompiledTask, built: BuiltState) -> dict[str, int]:
    """Noise records per collection (`"contacts.people": 12`)."""
    counts: dict[str, int] = {}
    ops = compiled.task.given.ops
    for index, records in built.noise.items():
        target = ops[index].target
        if isinstance(target, ir.CollectionRef):
            name = f"{target.app}.{target.name}"
            counts[name] = counts.get(name, 0) + len(records)
    return counts


def _source(p: ir.ParamDecl) -> str:
    d = p.domain
    return describe(d.source) if isinstance(d, ir.RecordDomain) else "?"


def _reads_record_param(p: ir.ParamDecl, records: list[ir.ParamDecl]) -> bool:
    names = {r.name for r in records}
    return any(isinstance(n, ir.Param) and n.name in names for n in ir.walk(p.domain))


def constraints_hold(task: ir.Task, env: Env) -> bool:
    try:
        return all(bool(evaluate(c, env)) for c in task.constraints)
    except EvalError:
        return False


def record_candidates(p: ir.ParamDecl, env: Env) -> list[dict[str, Any]]:
    """The records of a record parameter's collection that satisfy its `where`."""
    domain = p.domain
    assert isinstance(domain, ir.RecordDomain)
    candidates = []
    try:
        records = evaluate(domain.source, env) or []
    except EvalError:
        return []
    for record in records:
        trial = Env(env.apps, {**env.params, p.name: record}, env.snapshot, None, record)
        try:
            if domain.where is None or evaluate(domain.where, trial):
                candidates.append(record)
        except EvalError:
            continue
    return candidates


def draw_record(p: ir.ParamDecl, rng: random.Random, env: Env) -> bool:
    """Draw a record parameter into ``env.params``; False when no record qualifies."""
    candidates = record_candidates(p, env)
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
    if low is None or high is None:
        raise EvalError(f"the range of `{p.name}` has no bound")
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


def plain_domain_size(task: ir.Task) -> int | None:
    """How many distinct parameter values there can be, when that is small and known.

    None when a parameter is a record, a generator, a number, or has bounds that are not
    literals. Constraints may rule some values out, so this is an upper bound.

    >>> plain_domain_size(ir.Task(id="t"))
    1
    """
    size = 1
    for p in task.params:
        d = p.domain
        if isinstance(d, ir.ChoiceDomain):
            n: int | None = len({json.dumps(v.model_dump(mode="json")) for v in d.values})
        elif isinstance(d, ir.RangeDomain):
            n = _range_size(p.type_name or "int", d)
        else:
            n = None
        if n is None:
            return None
        size *= n
    return size


def _range_size(type_name: str, d: ir.RangeDomain) -> int | None:
    if not isinstance(d.low, ir.Lit) or not isinstance(d.high, ir.Lit):
        return None
    low, high = d.low.value, d.high.value
    try:
        if type_name in ("int", "money") and isinstance(low, int) and isinstance(high, int):
            return high - low + 1
        if type_name == "duration" and isinstance(low, int) and isinstance(high, int):
            step = 60 if low % 60 == 0 and high % 60 == 0 else 1
            return (high - low) // step + 1
        if type_name == "date" and isinstance(low, str) and isinstance(high, str):
            return (dt.date.fromisoformat(high) - dt.date.fromisoformat(low)).days + 1
        if type_name == "time" and isinstance(low, str) and isinstance(high, str):
            a, b = (_minutes(dt.time.fromisoformat(v)) for v in (low, high))
            return b - a + 1
        if type_name == "datetime" and isinstance(low, str) and isinstance(high, str):
            span = dt.datetime.fromisoformat(high) - dt.datetime.fromisoformat(low)
            return int(span.total_seconds() // 60) + 1
    except ValueError:
        return None
    return None


# ---------------------------------------------------------------- the goal text
def render_goal(task: ir.Task, params: dict[str, Any]) -> str:
    """The goal with its placeholders filled in, values written the way a person reads them.

    Money in cents reads "$12.50", dates ISO ("2026-05-14"), times "07:30", datetimes
    "2026-05-14 08:30", durations "10 minutes" or "1 hour 30 minutes", a whole record by the
    field that names it. A placeholder whose value is missing stays as written.
    """
    env = Env({}, params, WorldSnapshot())
    out: list[str] = []
    for part in task.goal.parts:
        if part.text is not None:
            out.append(part.text)
        elif part.expr is not None:
            try:
                value = evaluate(part.expr, env)
            except EvalError:
                out.append("{" + describe(part.expr) + "}")
                continue
            out.append(format_value(value, part.expr.type))
    return "".join(out)


def format_value(value: Any, t: ir.Type | None) -> str:
    """One value for a person to read.

    >>> format_value(1250, ir.Type(name="money")), format_value(5400, ir.Type(name="duration"))
    ('$12.50', '1 hour 30 minutes')
    >>> format_value("07:30:00", ir.Type(name="time")), format_value(2.5, ir.Type(name="number"))
    ('07:30', '2.5')
    """
    name = t.name if t is not None else "any"
    if value is None:
        return "(none)"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if name == "money" and isinstance(value, (int, float)):
        return money_text(round(value))
    if name == "duration" and isinstance(value, (int, float)):
        return duration_text(int(value))
    if name == "time" and isinstance(value, str):
        return value[:-3] if len(value) == 8 and value.endswith(":00") else value
    if name == "datetime" and isinstance(value, str):
        text = value.replace("T", " ")
        return text[:-3] if len(text) == 19 and text.endswith(":00") else text
    if isinstance(value, float):
        return f"{value:.2f}".rstrip("0").rstrip(".")
    if isinstance(value, list):
        item = t.item if t is not None else None
        return ", ".join(format_value(v, item) for v in value)
    if isinstance(value, dict):
        return _record_text(value, t)
    return str(value)


def _record_text(value: dict[str, Any], t: ir.Type | None) -> str:
    if t is not None and t.fields:
        return ", ".join(format_value(value.get(n), ft) for n, ft in t.fields)
    fields = [ir.FieldDef(name=k, type=ir.Type(name="text")) for k in value]
    name = display_field(fields)
    if name is not None and value.get(name) is not None:
        return str(value[name])
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def duration_text(seconds: int) -> str:
    """A duration in words.

    >>> duration_text(600), duration_text(3600), duration_text(90), duration_text(0)
    ('10 minutes', '1 hour', '1 minute 30 seconds', '0 seconds')
    """
    if seconds == 0:
        return "0 seconds"
    sign = "-" if seconds < 0 else ""
    hours, rest = divmod(abs(seconds), 3600)
    minutes, secs = divmod(rest, 60)
    parts = [
        f"{n} {unit}{'' if n == 1 else 's'}"
        for n, unit in ((hours, "hour"), (minutes, "minute"), (secs, "second"))
        if n
    ]
    return sign + " ".join(parts)
