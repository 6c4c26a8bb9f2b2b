"""Which reader a path needs, and folders that hold many sources.

A path is a DroidBot folder (``utg.js`` or ``states/``), an AutoDroid ``utg.yaml`` (or its
folder), a ``.jsonl`` trajectory, or a folder holding any number of those (an AutoDroid
checkout's ``memory/utgs``, a folder of trajectories).
"""

from __future__ import annotations

from pathlib import Path

from tasklang.envs.phoneworld.reconstruct.autodroid import read_autodroid
from tasklang.envs.phoneworld.reconstruct.droidbot import read_droidbot
from tasklang.envs.phoneworld.reconstruct.model import ReadError, Recording
from tasklang.envs.phoneworld.reconstruct.trajectory import read_jsonl


def kind_of(path: Path) -> str | None:
    """``droidbot``, ``autodroid``, ``trajectory``, or None (not a source itself)."""
    if path.is_file():
        if path.suffix in (".yaml", ".yml"):
            return "autodroid"
        if path.suffix == ".jsonl":
            return "trajectory"
        if path.name == "utg.js":
            return "droidbot"
        return None
    if (path / "utg.js").exists() or (path / "states").is_dir() or (path / "events").is_dir():
        return "droidbot"
    if (path / "utg.yaml").is_file():
        return "autodroid"
    return None


def discover(path: Path) -> list[tuple[str, Path]]:
    """The sources at ``path`` (itself, or those found under it), in a stable order."""
    if not path.exists():
        raise ReadError(f"{path}: does not exist")
    kind = kind_of(path)
    if kind == "droidbot" and path.is_file():
        return [(kind, path.parent)]
    if kind is not None:
        return [(kind, path)]
    if path.is_file():
        raise ReadError(
            f"{path}: not a source (expected a DroidBot folder, a utg.yaml or a .jsonl trajectory)"
        )
    found: list[tuple[str, Path]] = []
    for sub in sorted(path.rglob("*")):
        k = kind_of(sub)
        if k is None or (k == "droidbot" and sub.is_file()):
            continue
        if k == "autodroid" and sub.is_file() and not sub.name.startswith("utg"):
            continue  # AutoDroid keeps other YAML (element descriptions) beside utg.yaml
        if any(sub.is_relative_to(p) and sub != p for _, p in found if p.is_dir()):
            continue  # inside a source already found
        if k == "autodroid" and sub.is_dir():
            continue  # its utg.yaml is listed itself
        found.append((k, sub))
    if not found:
        raise ReadError(f"{path}: holds no DroidBot folder, utg.yaml or .jsonl trajectory")
    return found


READERS = {"droidbot": read_droidbot, "autodroid": read_autodroid, "trajectory": read_jsonl}


def read_source(kind: str, path: Path) -> Recording:
    """Read one source; a source that cannot be read at all raises ``ReadError``."""
    try:
        return READERS[kind](path)
    except ReadError:
        raise
    except RecursionError:
        raise ReadError(f"{path}: view tree nested too deeply") from None
