"""Small file helpers: atomic writes, seed ranges."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def atomic_write(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file: nothing half-written on failure."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def parse_seeds(spec: str | list[int]) -> list[int]:
    """Seeds from a list or a text such as ``"0-19,40,50-52"``.

    >>> parse_seeds("0-2,7")
    [0, 1, 2, 7]
    """
    if isinstance(spec, list):
        if not all(isinstance(s, int) and not isinstance(s, bool) for s in spec):
            raise ValueError("seeds must be integers")
        return list(spec)
    out: list[int] = []
    for part in str(spec).split(","):
        part = part.strip()
        if not part:
            continue
        lo, sep, hi = part.partition("-")
        try:
            if sep:
                a, b = int(lo), int(hi)
                if b < a:
                    raise ValueError
                out.extend(range(a, b + 1))
            else:
                out.append(int(part))
        except ValueError:
            raise ValueError(f"`{part}` is not a seed or a range `A-B`") from None
    return out
