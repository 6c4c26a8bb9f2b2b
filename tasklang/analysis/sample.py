"""Instances found with the solver, for constraints too tight to meet by drawing again.

Each parameter is fixed in turn by random bisection of its domain: split the remaining
interval in two, try the halves in an order the seeded random generator picks, keep the first
half that still has a solution. The result is an instance that meets every constraint, spread
over the domain like a random draw (not the solver's first model), and the same for the same
seed on every machine, since only satisfiable-or-not answers are used, never a model's values.
"""

from __future__ import annotations

import random
from typing import Any

import z3

from tasklang import generators as gen
from tasklang import ir
from tasklang.analysis.checks import build_instance, decode
from tasklang.analysis.encode import Encoder
from tasklang.analysis.world import FINITE_GENERATORS, ParamVar, Space, build_space

GUIDED_TIMEOUT_MS = 2000


def guided_instance(
    compiled: ir.CompiledTask, rng: random.Random, timeout_ms: int = GUIDED_TIMEOUT_MS
) -> dict[str, Any] | None:
    """Parameter values (record parameters as their records) meeting every constraint, or
    None when there are none or the solver gives up."""
    enc = Encoder(dict(compiled.apps))
    space = build_space(compiled, enc)
    s = z3.Solver()
    s.set("timeout", timeout_ms)
    s.set("random_seed", 0)
    s.add(*enc.side, *[f for _l, f, _n, _w in space.tracked])
    if s.check() != z3.sat:
        return None
    for pv in space.params.values():
        for var, low, high in pieces(pv, space, s):
            if not bisect(s, var, low, high, rng):
                return None
    if s.check() != z3.sat:
        return None
    model = s.model()
    built = build_instance(compiled, decode(model, space, compiled), space, model)
    return built[0] if built is not None else None


def pieces(pv: ParamVar, space: Space, s: z3.Solver) -> list[tuple[Any, int, int]]:
    """The integer variables that decide a parameter, each with its range."""
    d = pv.decl.domain
    if isinstance(d, ir.ChoiceDomain):
        return [(pv.index, 0, len(d.values) - 1)]
    if isinstance(d, ir.RecordDomain):
        return [(pv.index, 0, max(0, len(pv.candidates) - 1))]
    if isinstance(d, ir.GeneratorDomain):
        g = d.generator
        sizes: list[tuple[int, int]]
        if g in FINITE_GENERATORS:
            sizes = [(0, len(FINITE_GENERATORS[g]) - 1)]
        elif g in ("person_name", "email_address"):
            sizes = [(0, len(gen.FIRST) - 1), (0, len(gen.LAST) - 1)]
        elif g == "phone_number":
            sizes = [(201, 989), (0, 9999)]
        elif g == "street_address":
            sizes = [(1, 250), (0, len(gen.STREETS) - 1), (0, len(gen.CITIES) - 1)]
        else:
            return []
        return [(var, lo, hi) for var, (lo, hi) in zip(pv.parts, sizes, strict=True)]
    if pv.value.sort != "int":
        return []  # a number range: the solver's value is kept
    if s.check() != z3.sat:
        return []
    model = s.model()
    assert isinstance(d, ir.RangeDomain)
    ev_low, ev_high = _bound(space, d.low, model), _bound(space, d.high, model)
    if ev_low is None or ev_high is None:
        return []
    return [(pv.value.term, ev_low, ev_high)]


def _bound(space: Space, e: ir.Expr, model: z3.ModelRef) -> int | None:
    from tasklang.analysis.world import SymEval, World

    sym = SymEval(space.enc, space.plain, World()).expr(e)
    if sym.sort != "int":
        return None
    value = model.eval(sym.term, model_completion=True)
    return value.as_long() if z3.is_int_value(value) else None


def bisect(s: z3.Solver, var: Any, low: int, high: int, rng: random.Random) -> bool:
    """Fix ``var`` to a value in [low, high] that keeps ``s`` satisfiable, chosen at random."""
    while low < high:
        mid = (low + high) // 2
        halves = [(low, mid), (mid + 1, high)]
        rng.shuffle(halves)
        for a, b in halves:
            s.push()
            s.add(var >= a, var <= b)
            result = s.check()
            s.pop()
            if result == z3.sat:
                low, high = a, b
                break
        else:
            return False
    s.add(var == low)
    return True
