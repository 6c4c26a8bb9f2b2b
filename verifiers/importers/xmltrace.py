"""Folders of per-step uiautomator dumps with an action list.

``N.xml`` is the screen of step N (``uiautomator dump``), ``N.png`` (or .jpg/.jpeg/.webp)
its screenshot, ``N.activity`` the foreground component (``com.android.settings/.Settings``),
and line N+1 of ``actions.txt`` the action taken on it::

    [Click] Screen Resolution (400, 720), Click Position (53, 261)
    [Long Press] Screen Resolution (400, 720), Click Position (53, 261)
    [Swipe] Screen Resolution (400, 720), From (200, 600) To (200, 100)
    [Type] hello
    [Home] / [Back] / [Enter] / [Wait]
    [Scroll] down
    [Open App] Settings
    [Done] / [Status] complete / [Status] infeasible
    [Answer] some text

Positions recorded in another resolution are scaled to the dump's coordinates (the right
and bottom edges of the dump's top-level nodes). A dump after the last action is the final
screen (the final record's snapshot). Unknown lines give a step without an action, the line
kept in ``extra.source_line``, and a warning.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

from tasklang.verifiers.importers._common import (
    ImportFailure,
    make_action,
    media_path,
    read_text,
    split_component,
    swipe_direction,
)
from tasklang.verifiers.snapshot import (
    Foreground,
    UIElement,
    WorldSnapshot,
    element_from_attrs,
    parse_bounds,
)
from tasklang.verifiers.trajectory import (
    Action,
    Environment,
    Final,
    Header,
    Observation,
    Screen,
    SourceRef,
    Step,
    TaskRef,
    Trajectory,
)

FORMAT = "xmltrace"
ACTIONS_FILE = "actions.txt"
_IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp")
_NUM = r"(-?\d+(?:\.\d+)?)"
_PAIR = rf"\(\s*{_NUM}\s*,\s*{_NUM}\s*\)"
_LINE = re.compile(r"\[\s*([A-Za-z][A-Za-z _-]*?)\s*\]\s?(.*)", re.S)
_RESOLUTION = re.compile(rf"Screen\s+Resolution\s*:?\s*{_PAIR}", re.I)
_POSITION = re.compile(rf"(?:Click\s+|Press\s+|Tap\s+)?Position\s*:?\s*{_PAIR}", re.I)
_FROM_TO = re.compile(rf"From\s*:?\s*{_PAIR}\s*,?\s*To\s*:?\s*{_PAIR}", re.I)
_KINDS = {
    "click": "click", "tap": "click", "double click": "double_tap", "double tap": "double_tap",
    "long press": "long_press", "long click": "long_press", "long tap": "long_press",
    "type": "input_text", "input": "input_text", "input text": "input_text",
    "swipe": "swipe", "drag": "swipe", "scroll": "scroll",
    "home": "navigate_home", "back": "navigate_back", "enter": "keyboard_enter",
    "wait": "wait", "open app": "open_app", "open": "open_app", "launch": "open_app",
    "done": "status", "finish": "status", "finished": "status", "complete": "status",
    "status": "status", "infeasible": "status", "impossible": "status", "answer": "answer",
}  # fmt: skip


class _Dump:
    def __init__(self, number: int, path: Path, xml: str) -> None:
        self.number, self.path, self.xml = number, path, xml
        try:
            root = ElementTree.fromstring(xml)
        except ElementTree.ParseError as exc:
            line, column = exc.position
            reason = re.sub(r": line \d+, column \d+$", "", exc.msg)
            raise ImportFailure(
                f"not well-formed XML (column {column + 1}): {reason}", path=path, line=line
            ) from None
        except ValueError as exc:  # e.g. an encoding the parser cannot switch to
            raise ImportFailure(f"unreadable XML: {exc}", path=path) from None
        self.elements: list[UIElement] = [
            element_from_attrs(dict(node.attrib), i) for i, node in enumerate(root.iter("node"))
        ]
        top = [n for n in root if n.tag == "node"] or ([root] if root.tag == "node" else [])
        edges = [b for n in top if (b := parse_bounds(n.get("bounds", "")))]
        self.resolution: tuple[int, int] | None = None
        if edges:
            right, bottom = max(b[2] for b in edges), max(b[3] for b in edges)
            if right > 0 and bottom > 0:
                self.resolution = (right, bottom)


def import_xmltrace(src: Path, task_id: str, out_dir: Path | None) -> tuple[Trajectory, list[str]]:
    if not src.is_dir():
        raise ImportFailure("not an xmltrace folder (expected a directory)", path=src)
    warnings: list[str] = []
    files: dict[str, dict[int, Path]] = {".xml": {}, ".activity": {}, ".image": {}}
    others: list[str] = []
    for path in sorted(src.iterdir()):
        stem, suffix = path.stem, path.suffix.lower()
        kind = ".image" if suffix in _IMAGE_SUFFIXES else suffix
        if stem.isascii() and stem.isdigit() and kind in files:
            if int(stem) in files[kind]:
                warnings.append(f"{path}: another file is numbered {int(stem)}; ignored")
                continue
            files[kind][int(stem)] = path
        elif path.name != ACTIONS_FILE:
            others.append(path.name)
    dump_paths = files[".xml"]
    actions_path = src / ACTIONS_FILE
    lines: list[str] = []
    if actions_path.is_file():
        lines = read_text(actions_path).splitlines()
        while lines and not lines[-1].strip():
            lines.pop()
    elif dump_paths:
        warnings.append(f"{actions_path}: missing; the steps have no actions")
    if not dump_paths and not lines:
        raise ImportFailure(
            f"no N.xml dumps and no {ACTIONS_FILE}: not an xmltrace folder", path=src
        )
    for name in others:
        warnings.append(f"{src / name}: not an xmltrace file; ignored")

    last_dump = max(dump_paths, default=-1)
    if last_dump > len(dump_paths) + len(lines):
        raise ImportFailure(
            f"{last_dump}.xml but only {len(dump_paths)} dumps and {len(lines)} action lines: "
            "the dumps are not numbered 0, 1, 2, ...",
            path=src,
        )
    dumps = {n: _Dump(n, p, read_text(p)) for n, p in sorted(dump_paths.items())}
    final_dump = dumps.get(last_dump) if last_dump >= len(lines) else None
    n_steps = last_dump if final_dump is not None else len(lines)

    first = next(iter(dumps.values()), None)
    screen_res = first.resolution if first else None
    steps: list[Step] = []
    for i in range(n_steps):
        dump = dumps.get(i)
        where = f"step {i}"
        if dump is None:
            warnings.append(f"{where}: no {i}.xml; the step has no UI observation")
        extra: dict[str, Any] = {}
        action: Action | None = None
        if i < len(lines):
            line = lines[i]
            extra["source_line"] = line
            resolution = dump.resolution if dump and dump.resolution else screen_res
            values = _parse_line(line, resolution, f"{actions_path.name}:{i + 1}", warnings)
            if values is not None:
                action, rest = make_action(values, f"{actions_path.name}:{i + 1}", warnings)
                if rest:
                    extra["action_extra"] = rest
        else:
            warnings.append(f"{where}: no line in {ACTIONS_FILE}; the step has no action")
        observation = _observation(files, i, dump, out_dir)
        steps.append(Step(index=i, observation=observation, action=action, extra=extra))

    final = Final()
    if steps and steps[-1].action and steps[-1].action.action_type == "status":
        final.status = steps[-1].action.goal_status
    if final_dump is not None:
        obs = _observation(files, final_dump.number, final_dump, out_dir)
        final.snapshot = WorldSnapshot(
            foreground=Foreground(package=obs.package, activity=obs.activity),
            ui_xml=obs.ui_xml,
            ui_elements=obs.ui_elements,
        )
        final.extra = {"dump": final_dump.path.name, "screenshot": obs.screenshot}
    screen = Screen(width=screen_res[0], height=screen_res[1]) if screen_res else None
    header = Header(
        task=TaskRef(id=task_id),
        environment=Environment(kind="imported", screen=screen),
        source=SourceRef(format=FORMAT, path=str(src)),
        extra={"ignored_files": others} if others else {},
    )
    return Trajectory(header=header, steps=steps, final=final), warnings


def _observation(
    files: dict[str, dict[int, Path]], number: int, dump: _Dump | None, out_dir: Path | None
) -> Observation:
    obs = Observation()
    if dump is not None:
        obs.ui_xml, obs.ui_elements = dump.xml, dump.elements
    shot = files[".image"].get(number)
    if shot is not None:
        obs.screenshot = media_path(shot, out_dir)
    activity_path = files[".activity"].get(number)
    if activity_path is not None:
        obs.package, obs.activity = split_component(read_text(activity_path).strip())
    elif dump is not None:
        packages = [e.package for e in dump.elements if e.package]
        obs.package = packages[0] if packages else None
    return obs


def _parse_line(
    line: str, resolution: tuple[int, int] | None, where: str, warnings: list[str]
) -> dict[str, Any] | None:
    m = _LINE.fullmatch(line.strip("\r\n").lstrip())
    kind = _KINDS.get(re.sub(r"[\s_-]+", " ", m[1]).lower()) if m else None
    if m is None or kind is None:
        warnings.append(
            f"{where}: unknown action line {line.strip()[:80]!r}; kept in extra.source_line"
        )
        return None
    word, rest = m[1].lower(), m[2]
    recorded = _RESOLUTION.search(rest)
    scale = _scaler(recorded, resolution, where, warnings)
    values: dict[str, Any] = {"action_type": kind}
    if kind in ("click", "double_tap", "long_press"):
        pos = _POSITION.search(rest) or re.search(_PAIR, _RESOLUTION.sub("", rest))
        if pos is None:
            warnings.append(f"{where}: [{m[1]}] without a position; kept in extra.source_line")
            return None
        values["x"], values["y"] = scale(float(pos[1]), float(pos[2]))
    elif kind in ("swipe", "scroll") and (ft := _FROM_TO.search(rest)):
        (x0, y0), (x1, y1) = scale(float(ft[1]), float(ft[2])), scale(float(ft[3]), float(ft[4]))
        direction = swipe_direction(x1 - x0, y1 - y0)
        if direction is None:
            warnings.append(f"{where}: [{m[1]}] that does not move; kept in extra.source_line")
            return None
        if kind == "scroll":  # content moves against the finger
            direction = {"up": "down", "down": "up", "left": "right", "right": "left"}[direction]
        values.update(direction=direction, x=x0, y=y0, end_x=x1, end_y=y1)
    elif kind in ("swipe", "scroll"):
        direction = rest.strip().lower()
        if direction not in ("up", "down", "left", "right"):
            warnings.append(
                f"{where}: [{m[1]}] without a direction or From/To points; kept "
                "in extra.source_line"
            )
            return None
        values["direction"] = direction
    elif kind == "input_text":
        values["text"] = rest
    elif kind == "open_app":
        values["app_name"] = rest.strip()
    elif kind == "answer":
        values["text"] = rest
    elif kind == "status":
        status = rest.strip().lower() or (
            "infeasible" if word in ("infeasible", "impossible") else "complete"
        )
        values["goal_status"] = status
    if recorded is not None:
        values["recorded_resolution"] = [int(float(recorded[1])), int(float(recorded[2]))]
    return values


def _scaler(
    recorded: re.Match[str] | None,
    resolution: tuple[int, int] | None,
    where: str,
    warnings: list[str],
) -> Callable[[float, float], tuple[float, float]]:
    """A function mapping a recorded (x, y) to the dump's coordinates."""
    if recorded is None:
        return lambda x, y: (x, y)
    width, height = float(recorded[1]), float(recorded[2])
    if resolution is None or width <= 0 or height <= 0:
        warnings.append(f"{where}: the dump resolution is unknown; positions kept unscaled")
        return lambda x, y: (x, y)
    dump_w, dump_h = resolution
    return lambda x, y: (round(x * dump_w / width, 3), round(y * dump_h / height, 3))
