"""Reference solutions of library tasks, one module per app (or workflow); each registers
its functions with ``@reference(task_id)``."""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from tasklang.envs.phoneworld.solutions.base import REFERENCES, Driver, Solution, SolutionError


@cache
def references() -> dict[str, Solution]:
    """Task id -> reference solution, for every solution module of this package."""
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name != "base":
            importlib.import_module(f"{__name__}.{info.name}")
    return dict(REFERENCES)


__all__ = ["Driver", "Solution", "SolutionError", "references"]
