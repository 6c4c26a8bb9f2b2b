"""Compiled tasks by id or path, compiled once per process (the library is large)."""

from __future__ import annotations

import functools
from pathlib import Path

from tasklang import ir


@functools.lru_cache(maxsize=1)
def _library_files() -> dict[str, Path]:
    from tasklang.compiler import library_root

    return {p.stem: p for p in library_root().rglob("*.task")}


@functools.lru_cache(maxsize=512)
def compiled_task(task: str) -> ir.CompiledTask:
    """The compiled task named by a library id (compiling only its file) or a .task path."""
    from tasklang.envs.phoneworld.env import load_task

    path = _library_files().get(task)
    if path is not None:
        from tasklang.checkcmd import find_tasks

        found = find_tasks(str(path))
        if task in found:
            return found[task]
    return load_task(task)


def task_kind(task: str) -> str:
    """A task's kind: app, mini_app or cross_app."""
    kind: str = compiled_task(task).task.kind
    return kind


def library_ids(pattern: str = "*") -> list[str]:
    """Library task ids matching a glob pattern (e.g. ``androidworld.system_*``)."""
    import fnmatch

    return sorted(t for t in _library_files() if fnmatch.fnmatch(t, pattern))


def resolve(names: list[str]) -> list[str]:
    """Task ids from names and glob patterns; unknown names raise ValueError with a hint."""
    out: list[str] = []
    for name in names:
        if any(ch in name for ch in "*?["):
            hits = library_ids(name)
            if not hits:
                raise ValueError(f"no library task matches `{name}`")
            out.extend(hits)
        elif name in _library_files() or Path(name).suffix == ".task":
            out.append(name)
        else:
            from tasklang.diagnostics import did_you_mean

            hint = did_you_mean(name, _library_files())
            raise ValueError(f"no task `{name}` in the library" + (f"; {hint}" if hint else ""))
    return list(dict.fromkeys(out))
