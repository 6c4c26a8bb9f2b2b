"""Importers: other people's recordings as trajectories, with nothing dropped.

``import_source(format, src)`` reads a recording and returns the ``Trajectory`` and a list
of warnings (data that was missing, or that has no field in the format and is kept in
``extra``). A source that cannot be read raises ``ImportFailure``, naming the file and, where
known, the line or step; no other exception escapes.

Formats:

``droidbot``
    A DroidBot output folder (``utg.js``, ``states/``, ``events/``).
``androidworld``
    An AndroidWorld-style agent ``history.json`` (or the folder holding one).
``xmltrace``
    A folder of ``N.xml`` uiautomator dumps, optional ``N.png`` / ``N.activity``, and
    ``actions.txt`` (one ``[Kind] ...`` line per step).

Screenshot paths are written relative to ``out_dir`` (the folder the .jsonl will be
written to) when it is given, else absolute.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tasklang.verifiers.importers._common import ImportFailure
from tasklang.verifiers.importers.androidworld import import_androidworld
from tasklang.verifiers.importers.droidbot import import_droidbot
from tasklang.verifiers.importers.xmltrace import import_xmltrace
from tasklang.verifiers.trajectory import Trajectory

__all__ = ["IMPORTERS", "ImportFailure", "Importer", "import_source"]

Importer = Callable[[Path, str, Path | None], tuple[Trajectory, list[str]]]
"""``importer(src, task_id, out_dir) -> (trajectory, warnings)``."""

IMPORTERS: dict[str, Importer] = {
    "droidbot": import_droidbot,
    "androidworld": import_androidworld,
    "xmltrace": import_xmltrace,
}


def import_source(
    format: str,
    src: Path,
    task_id: str | None = None,
    out_dir: Path | None = None,
) -> tuple[Trajectory, list[str]]:
    """Import ``src`` in ``format``; the task id defaults to ``imported.<format>``."""
    importer = IMPORTERS.get(format)
    if importer is None:
        known = ", ".join(sorted(IMPORTERS))
        raise ImportFailure(f"unknown import format {format!r} (known: {known})")
    src = Path(src)
    if not src.exists():
        raise ImportFailure("does not exist", path=src)
    try:
        return importer(src, task_id or f"imported.{format}", out_dir)
    except ImportFailure:
        raise
    except (
        OSError,
        ValueError,
        TypeError,
        KeyError,
        IndexError,
        AttributeError,
        RecursionError,
    ) as exc:
        # a shape the importer did not foresee: still an unreadable source, not a crash
        raise ImportFailure(
            f"malformed {format} source: {type(exc).__name__}: {exc}", path=src
        ) from exc
