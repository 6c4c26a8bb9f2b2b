"""AndroidWorld-style agent histories: ``history.json``, a JSON list of step records.

Each record (``task_goal``, ``result``, ``action_prompt``, ``action_output``,
``action_reason``, ``summary_prompt``, ``summary``, ``ui_description``) becomes one step. The
element list comes from ``ui_description``: ``UI element N: {...}`` texts (Python literals)
with ``ui_bbox`` boxes ordered ``[left, right, top, bottom]``; it is the screen the action
was chosen on. The action is the one the runner executed, ``Action selected: {...}`` at the
start of ``summary``, when present; otherwise it is parsed from ``action_output`` (JSON
``Action: {...}`` or a function call such as ``click(start_box='(x,y)')``). Every other
field of the record is kept in the step's ``extra``; ``action_reason`` is the thought.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

from tasklang.verifiers.importers._common import (
    ImportFailure,
    as_int,
    jsonable,
    make_action,
    read_json,
    screen_from_elements,
    swipe_direction,
)
from tasklang.verifiers.snapshot import BOOL_ATTRS, UIElement
from tasklang.verifiers.trajectory import (
    Action,
    Environment,
    Final,
    Header,
    Observation,
    SourceRef,
    Step,
    TaskRef,
    Trajectory,
)

FORMAT = "androidworld"

_ELEMENT = re.compile(r"\s*UI element (\d+):\s*(.*)", re.S)
_LENIENT_KEY = re.compile(r'(?:^\{|,\s*)"([A-Za-z_][A-Za-z0-9_]*)":\s*')
_SELECTED = re.compile(r"\s*Action selected:\s*")
_REJECTED = "Can not parse the output to a valid action"
_ACTION_LINE = re.compile(r"Action(?:\s*\d+)?\s*:\s*")
_BOX = re.compile(
    r"\(\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)"
    r"(?:\s*,\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?))?\s*\)"
)
_ELEMENT_FIELDS = {
    "text": "text",
    "content_description": "content_desc",
    "is_clickable": "clickable",
    "is_long_clickable": "long_clickable",
    "is_scrollable": "scrollable",
    "is_focusable": "focusable",
    "is_selected": "selected",
    "is_checked": "checked",
    "is_enabled": "enabled",
    "is_focused": "focused",
    "is_checkable": "checkable",
    "class_name": "class_name",
    "resource_name": "resource_id",
    "package_name": "package",
}
# Tested on the UIElement field a key maps to (`is_checked` -> `checked`), the names BOOL_ATTRS
# uses; its one extra, `password`, is no AndroidWorld key.
_BOOL_FIELDS = BOOL_ATTRS
_CONSUMED = {"action_reason", "ui_description"}
# function-call actions (UI-TARS style) -> AndroidWorld action types
_CALLS = {
    "click": "click", "tap": "click", "left_single": "click", "double_tap": "double_tap",
    "left_double": "double_tap", "long_press": "long_press", "type": "input_text",
    "input_text": "input_text", "scroll": "scroll", "drag": "swipe", "swipe": "swipe",
    "open_app": "open_app", "press_home": "navigate_home", "navigate_home": "navigate_home",
    "press_back": "navigate_back", "navigate_back": "navigate_back",
    "press_enter": "keyboard_enter", "keyboard_enter": "keyboard_enter", "wait": "wait",
    "finished": "status", "status": "status", "answer": "answer",
}  # fmt: skip


def import_androidworld(
    src: Path, task_id: str, out_dir: Path | None
) -> tuple[Trajectory, list[str]]:
    path = src / "history.json" if src.is_dir() else src
    if not path.is_file():
        raise ImportFailure("no history.json", path=src)
    records = read_json(path)
    if not isinstance(records, list):
        raise ImportFailure("expected a JSON list of step records", path=path)
    if not records:
        raise ImportFailure("the history has no steps", path=path)
    warnings: list[str] = []
    goal: Any = None
    steps: list[Step] = []
    for i, record in enumerate(records):
        if not isinstance(record, dict):
            raise ImportFailure("a step record is not a JSON object", path=path, step=i)
        if i == 0:
            goal = record.get("task_goal")
        steps.append(_step(i, record, goal, path, warnings))

    last = records[-1]
    result = last.get("result")
    status = None
    if steps[-1].action is not None and steps[-1].action.action_type == "status":
        status = steps[-1].action.goal_status
    elements = next((s.observation.ui_elements for s in steps if s.observation.ui_elements), None)
    header_extra: dict[str, Any] = {"result": result}
    if goal is not None and not isinstance(goal, str):
        header_extra["task_goal"] = goal
    header = Header(
        task=TaskRef(id=task_id),
        goal=goal if isinstance(goal, str) else None,
        environment=Environment(kind="imported", screen=screen_from_elements(elements)),
        source=SourceRef(format=FORMAT, path=str(src)),
        extra=header_extra,
    )
    final = Final(status=status, extra={"result": result})
    return Trajectory(header=header, steps=steps, final=final), warnings


def _step(i: int, record: dict[str, Any], goal: Any, path: Path, warnings: list[str]) -> Step:
    where = f"{path.name} step {i}"
    extra = {k: v for k, v in record.items() if k not in _CONSUMED}
    if record.get("task_goal") == goal:
        extra.pop("task_goal", None)
    elements = _elements(record.get("ui_description"), where, warnings, extra)

    action: Action | None = None
    summary = record.get("summary")
    output = record.get("action_output")
    selected = _selected_action(summary)
    if selected is not None:
        action, rest = make_action(selected, where, warnings)
        extra["action_source"] = "summary"
        if rest:
            extra["action_extra"] = rest
    elif isinstance(summary, str) and summary.startswith(_REJECTED):
        extra["action_source"] = "rejected"
        intended = _parse_output(output) if isinstance(output, str) else None
        if intended is not None:
            extra["intended_action"] = intended
        warnings.append(
            f"{where}: the runner could not parse the agent's output, so no action "
            "was taken; action None, output in extra.action_output"
        )
    else:
        parsed = _parse_output(output) if isinstance(output, str) else None
        if parsed is None:
            warnings.append(
                f"{where}: no action could be parsed from action_output; kept in "
                "extra.action_output"
            )
        else:
            action, rest = make_action(parsed, where, warnings)
            extra["action_source"] = "action_output"
            if rest:
                extra["action_extra"] = rest
    reason = record.get("action_reason")
    if reason is not None and not isinstance(reason, str):
        extra["action_reason"] = reason
    return Step(
        index=i,
        observation=Observation(ui_elements=elements),
        action=action,
        thought=reason if isinstance(reason, str) else None,
        extra=extra,
    )


def _elements(
    raw: Any, where: str, warnings: list[str], extra: dict[str, Any]
) -> list[UIElement] | None:
    if raw is None:
        return None
    if not isinstance(raw, list):
        warnings.append(f"{where}: ui_description is not a list; kept in extra")
        extra["ui_description"] = raw
        return None
    elements: list[UIElement] = []
    lenient = 0
    for position, item in enumerate(raw):
        description = item.get("ui_description") if isinstance(item, dict) else item
        bbox = item.get("ui_bbox") if isinstance(item, dict) else None
        values: dict[str, Any] = {}
        parsed = _parse_description(description) if isinstance(description, str) else None
        if parsed is None:
            warnings.append(
                f"{where}: UI element {position} could not be parsed; kept as source_description"
            )
            values["source_description"] = description
        else:
            number, fields, strict = parsed
            if not strict:
                lenient += 1
                values["source_description"] = description
            if number != position:
                values["description_number"] = number
            for key, value in fields.items():
                name = _ELEMENT_FIELDS.get(key)
                if key == "index":
                    if value != position:
                        values["source_index"] = value
                elif name is None or name in values:
                    values[key if key not in UIElement.model_fields else f"source_{key}"] = value
                elif name in _BOOL_FIELDS:
                    values[name] = value if isinstance(value, bool) else str(value) == "True"
                else:
                    values[name] = "" if value is None else str(value)
        bounds = _bbox(bbox)
        if bounds is not None:
            values["bounds"] = bounds
        elif bbox is not None:
            values["ui_bbox"] = bbox
        if isinstance(item, dict):
            for key, value in item.items():
                if key not in ("ui_description", "ui_bbox"):
                    values[key if key not in UIElement.model_fields else f"source_{key}"] = value
        values["index"] = position
        elements.append(UIElement.model_validate(values))
    if lenient:
        warnings.append(
            f"{where}: {lenient} UI element description(s) are not valid literals "
            "(unescaped quotes or newlines in a text); read leniently, the text "
            "kept as source_description"
        )
    return elements


def _parse_description(text: str) -> tuple[int, dict[str, Any], bool] | None:
    """``UI element N: {...}`` as (N, fields, parsed strictly)."""
    m = _ELEMENT.fullmatch(text)
    if not m:
        return None
    number, body = int(m[1]), m[2].strip()
    try:
        value = ast.literal_eval(body)
        if isinstance(value, dict) and all(isinstance(k, str) for k in value):
            return number, jsonable(value), True
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        pass
    fields = _lenient_dict(body)
    return (number, fields, False) if fields is not None else None


def _lenient_dict(body: str) -> dict[str, Any] | None:
    """M3A's element text, whose strings are not escaped: split at the ``"key": `` marks."""
    if not (body.startswith("{") and body.endswith("}")):
        return None
    marks = list(_LENIENT_KEY.finditer(body))
    if not marks or marks[0].start() != 0:
        return None
    fields: dict[str, Any] = {}
    for n, mark in enumerate(marks):
        end = marks[n + 1].start() if n + 1 < len(marks) else len(body) - 1
        raw = body[mark.end() : end].strip()
        if len(raw) >= 2 and raw[0] == raw[-1] == '"':
            fields[mark[1]] = raw[1:-1]
        elif raw in ("True", "False", "None"):
            fields[mark[1]] = {"True": True, "False": False, "None": None}[raw]
        elif re.fullmatch(r"-?\d+", raw):
            fields[mark[1]] = int(raw)
        else:
            fields[mark[1]] = raw
    return fields


def _bbox(raw: Any) -> tuple[int, int, int, int] | None:
    """``ui_bbox`` is ``[left, right, top, bottom]`` (x range, then y range)."""
    if not isinstance(raw, list) and not isinstance(raw, tuple):
        return None
    if len(raw) != 4:
        return None
    numbers = [as_int(v) for v in raw]
    if any(n is None for n in numbers):
        return None
    left, right, top, bottom = (int(n) for n in numbers if n is not None)
    return left, top, right, bottom


def _selected_action(summary: Any) -> dict[str, Any] | None:
    """The executed action: the JSON after ``Action selected:`` at the start of a summary."""
    if not isinstance(summary, str):
        return None
    m = _SELECTED.match(summary)
    if not m:
        return None
    try:
        value, _ = json.JSONDecoder().raw_decode(summary, m.end())
    except (json.JSONDecodeError, RecursionError):
        return None
    return value if isinstance(value, dict) and "action_type" in value else None


def _parse_output(output: str) -> dict[str, Any] | None:
    """The action in an agent's output: the text after the last ``Action:`` (or ``Action N:``).

    Either a JSON object (``{"action_type": "click", "index": 3}``) or a call such as
    ``click(start_box='(500,891)')``. Call coordinates are kept as written (not rescaled).
    """
    marks = list(_ACTION_LINE.finditer(output))
    tail = output[marks[-1].end() :].strip() if marks else output.strip()
    candidates = [tail, tail.splitlines()[0].strip()] if tail else []
    for text in candidates:
        if text.startswith("{"):
            try:
                value, _ = json.JSONDecoder().raw_decode(text)
            except (json.JSONDecodeError, RecursionError):
                try:
                    value = ast.literal_eval(text)
                except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                    continue
            if isinstance(value, dict) and isinstance(value.get("action_type"), str):
                return dict(jsonable(value))
            continue
        call = _parse_call(text)
        if call is not None:
            return call
    return None


def _parse_call(text: str) -> dict[str, Any] | None:
    try:
        node = ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
        return None
    name = node.func.id
    kind = _CALLS.get(name)
    if kind is None:
        return None
    kwargs: dict[str, Any] = {}
    try:
        for keyword in node.keywords:
            if keyword.arg is None:
                return None
            kwargs[keyword.arg] = jsonable(ast.literal_eval(keyword.value))
        args = [jsonable(ast.literal_eval(a)) for a in node.args]
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    values: dict[str, Any] = {"action_type": kind}
    start = _point(
        kwargs.pop("start_box", None)
        or kwargs.pop("point", None)
        or (args[0] if args and kind not in ("open_app", "input_text") else None)
    )
    if start is not None:
        values["x"], values["y"] = start
    if kind == "input_text":
        values["text"] = kwargs.pop("content", kwargs.pop("text", args[0] if args else ""))
    elif kind == "open_app":
        values["app_name"] = kwargs.pop("app_name", args[0] if args else None)
    elif kind == "scroll":
        values["direction"] = kwargs.pop("direction", None)
    elif kind == "swipe":
        end = _point(kwargs.pop("end_box", None) or kwargs.pop("end_point", None))
        if start is None or end is None:
            return None
        values["direction"] = swipe_direction(end[0] - start[0], end[1] - start[1])
        values["end_x"], values["end_y"] = end
    elif kind == "status":
        values["goal_status"] = kwargs.pop("goal_status", "complete")
        if "content" in kwargs:
            values["content"] = kwargs.pop("content")
    elif kind == "answer":
        values["text"] = kwargs.pop("text", kwargs.pop("content", args[0] if args else None))
    values.update({k: v for k, v in kwargs.items() if k not in values})
    values["call"] = name
    return values


def _point(value: Any) -> tuple[float, float] | None:
    """``'(x,y)'``, ``'<|box_start|>(x,y)<|box_end|>'`` or a box ``(x1,y1,x2,y2)``: its centre."""
    if isinstance(value, list | tuple) and len(value) in (2, 4):
        value = "(" + ",".join(str(v) for v in value) + ")"
    if not isinstance(value, str):
        return None
    m = _BOX.search(value)
    if not m:
        return None
    if m[3] is not None and m[4] is not None:
        return (float(m[1]) + float(m[3])) / 2, (float(m[2]) + float(m[4])) / 2
    return float(m[1]), float(m[2])
