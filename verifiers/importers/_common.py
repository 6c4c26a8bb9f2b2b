"""Helpers shared by the importers: reading files safely, paths, actions, components."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from tasklang.verifiers.snapshot import UIElement
from tasklang.verifiers.trajectory import Action, Screen

ACTION_FIELDS = frozenset(Action.model_fields)
DIRECTIONS = frozenset({"up", "down", "left", "right"})


class ImportFailure(ValueError):
    """A source that cannot be imported: names the file and, where known, the line or step."""

    def __init__(
        self,
        message: str,
        *,
        path: str | Path | None = None,
        line: int | None = None,
        step: int | None = None,
    ) -> None:
        where = ""
        if path is not None:
            where = f"{path}:{line}" if line is not None else str(path)
        if step is not None:
            where = f"{where} (step {step})" if where else f"step {step}"
        super().__init__(f"{where}: {message}" if where else message)
        self.message = message
        self.path = str(path) if path is not None else None
        self.line = line
        self.step = step


def read_text(path: Path) -> str:
    """A file's text (UTF-8, BOM tolerated), or ImportFailure naming the file."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ImportFailure(f"cannot read: {exc.strerror or exc}", path=path) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ImportFailure("not UTF-8 text", path=path, line=line) from None


def parse_json(text: str, path: Path, *, offset_line: int = 0) -> Any:
    """JSON from text, or ImportFailure with the file and line of the error."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ImportFailure(
            f"not valid JSON: {exc.msg} (column {exc.colno})",
            path=path,
            line=exc.lineno + offset_line,
        ) from None
    except RecursionError:
        raise ImportFailure("not valid JSON: nested too deeply", path=path) from None


def read_json(path: Path) -> Any:
    return parse_json(read_text(path), path)


def media_path(path: Path, out_dir: Path | None) -> str:
    """A screenshot's path as the trajectory stores it.

    Relative to ``out_dir`` (the folder the .jsonl will be written to) when one is given and
    a relative path exists (not on another drive); otherwise absolute. Always ``/``-separated.
    """
    absolute = path.resolve()
    if out_dir is None:
        return absolute.as_posix()
    try:
        return Path(os.path.relpath(absolute, out_dir.resolve())).as_posix()
    except ValueError:
        return absolute.as_posix()


def split_component(component: str) -> tuple[str | None, str | None]:
    """``pkg/.Activity`` as (package, activity); the activity as written after the slash."""
    component = component.strip()
    if not component:
        return None, None
    package, sep, activity = component.partition("/")
    return package.strip() or None, (activity.strip() or None) if sep else None


def make_action(
    values: dict[str, Any], where: str, warnings: list[str]
) -> tuple[Action | None, dict[str, Any]]:
    """An Action from AndroidWorld-style values, and the values it has no field for.

    Directions and statuses are lower-cased; an invalid action gives None and a warning.
    """
    known = {k: v for k, v in values.items() if k in ACTION_FIELDS}
    rest = {k: v for k, v in values.items() if k not in ACTION_FIELDS}
    for key in ("direction", "goal_status", "action_type"):
        if isinstance(known.get(key), str):
            known[key] = known[key].strip().lower()
    try:
        return Action.model_validate(known), rest
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(p) for p in first["loc"])
        warnings.append(f"{where}: action not recognised (`{loc}`: {first['msg']}); kept in extra")
        return None, rest


def screen_from_elements(elements: list[UIElement] | None) -> Screen | None:
    """The screen size from a root element whose bounds start at (0, 0)."""
    if not elements:
        return None
    bounds = elements[0].bounds
    if bounds is None or bounds[0] != 0 or bounds[1] != 0 or bounds[2] <= 0 or bounds[3] <= 0:
        return None
    return Screen(width=bounds[2], height=bounds[3])


def center(bounds: tuple[int, int, int, int] | None) -> tuple[float, float] | None:
    if bounds is None:
        return None
    left, top, right, bottom = bounds
    return (left + right) / 2, (top + bottom) / 2


def swipe_direction(dx: float, dy: float) -> str | None:
    """The direction a finger moved (dominant axis); None for no movement."""
    if dx == 0 and dy == 0:
        return None
    if abs(dx) > abs(dy):
        return "right" if dx > 0 else "left"
    return "down" if dy > 0 else "up"


def as_int(value: Any) -> int | None:
    """An int from a JSON number (floats rounded), else None; bools are not numbers."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value == value and abs(value) < 1e15:
        return round(value)
    return None


def jsonable(value: Any) -> Any:
    """A Python literal as JSON values: tuples and sets as lists, anything else as its repr."""
    if value is None or isinstance(value, str | bool | int):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    if isinstance(value, set | frozenset):
        return sorted((jsonable(v) for v in value), key=repr)
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    return repr(value)
