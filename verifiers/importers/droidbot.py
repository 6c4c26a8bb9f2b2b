"""DroidBot output folders: ``utg.js``, ``states/state_*.json``, ``events/event_*.json``.

Each event file is one step, in time order (its tag). The observation is the event's
``start_state``: its view tree as the element list, its screenshot, and the package and
activity of ``foreground_activity``. The step keeps the raw event record in
``extra.source_event`` and its ``event_str`` in ``extra.event_str``; the state's other fields
(activity stack, services, hashes) are in ``extra.state``. The last event's ``stop_state`` is
the final snapshot.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tasklang.verifiers.importers._common import (
    ImportFailure,
    as_int,
    center,
    make_action,
    media_path,
    parse_json,
    read_json,
    read_text,
    screen_from_elements,
    split_component,
    swipe_direction,
)
from tasklang.verifiers.snapshot import BOOL_ATTRS, Foreground, UIElement, WorldSnapshot
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

FORMAT = "droidbot"

_VIEW_FIELDS = {
    "class": "class_name",
    "resource_id": "resource_id",
    "text": "text",
    "content_description": "content_desc",
    "package": "package",
    "checkable": "checkable",
    "checked": "checked",
    "clickable": "clickable",
    "enabled": "enabled",
    "focusable": "focusable",
    "focused": "focused",
    "scrollable": "scrollable",
    "long_clickable": "long_clickable",
    "is_password": "password",
    "selected": "selected",
    "bounds": "bounds",
}
_BOOL_FIELDS = BOOL_ATTRS
_KEYS = {"BACK": "navigate_back", "HOME": "navigate_home", "ENTER": "keyboard_enter"}
_TAG = re.compile(r"(\d{4}-\d{2}-\d{2})_(\d{2})(\d{2})(\d{2})")
_COMPONENT = re.compile(r"([A-Za-z_][\w.]*)/([\w.$]+)")
_IMPORTED_FILES = {"utg.js", "droidbot_env.json", "events", "states"}


@dataclass
class _State:
    path: Path
    data: dict[str, Any]
    elements: list[UIElement]
    by_view_str: dict[str, int] = field(default_factory=dict)
    screenshot: Path | None = None
    package: str | None = None
    activity: str | None = None
    time: str | None = None

    def info(self) -> dict[str, Any]:
        """The state's fields other than its views."""
        return {k: v for k, v in self.data.items() if k != "views"}


def import_droidbot(src: Path, task_id: str, out_dir: Path | None) -> tuple[Trajectory, list[str]]:
    if not src.is_dir():
        raise ImportFailure("not a DroidBot output folder (expected a directory)", path=src)
    warnings: list[str] = []
    events_dir = src / "events"
    event_files = sorted(events_dir.glob("event_*.json")) if events_dir.is_dir() else []
    if not event_files:
        raise ImportFailure("no events/event_*.json: not a DroidBot output folder", path=src)

    events: list[tuple[str, str, Path, dict[str, Any]]] = []
    for path in event_files:
        data = read_json(path)
        if not isinstance(data, dict) or not isinstance(data.get("event"), dict):
            raise ImportFailure("not a DroidBot event record (no `event` object)", path=path)
        tag = data.get("tag")
        if not isinstance(tag, str):
            tag = path.stem.removeprefix("event_")
        events.append((tag, path.name, path, data))
    events.sort(key=lambda e: (e[0], e[1]))

    states = _load_states(src, warnings)
    utg = _load_utg(src / "utg.js", warnings)
    env_path = src / "droidbot_env.json"
    droidbot_env = read_json(env_path) if env_path.is_file() else None

    _report_missing_states(events, states, warnings)
    edge_ids = _utg_event_ids(utg)

    steps: list[Step] = []
    for tag, name, _path, data in events:
        i = len(steps)
        where = f"step {i} ({name})"
        start = states.get(str(data.get("start_state")))
        extra: dict[str, Any] = {"source_event": data, "event_str": data.get("event_str")}
        action, action_extra = _action(data["event"], start, where, warnings)
        if action_extra:
            extra["action_extra"] = action_extra
        key = (
            _str(data.get("start_state")),
            _str(data.get("stop_state")),
            _str(data.get("event_str")),
        )
        queue = edge_ids.get(key)
        if queue:
            extra["utg_event_id"] = queue.pop(0)
        observation = Observation(time=_iso(tag))
        if start is not None:
            extra["state"] = start.info()
            observation = _observation(start, out_dir)
        steps.append(Step(index=i, observation=observation, action=action, extra=extra))

    final = Final()
    last = states.get(str(events[-1][3].get("stop_state")))
    if last is not None:
        final = Final(
            snapshot=WorldSnapshot(
                foreground=Foreground(package=last.package, activity=last.activity),
                ui_elements=last.elements,
            ),
            extra={
                "stop_state": last.info(),
                "time": last.time,
                "screenshot": media_path(last.screenshot, out_dir) if last.screenshot else None,
            },
        )

    header = _header(src, task_id, utg, droidbot_env, events, states)
    return Trajectory(header=header, steps=steps, final=final), warnings


def _header(
    src: Path,
    task_id: str,
    utg: dict[str, Any] | None,
    droidbot_env: Any,
    events: list[tuple[str, str, Path, dict[str, Any]]],
    states: dict[str, _State],
) -> Header:
    screen = None
    ordered = [states.get(str(e[3].get("start_state"))) for e in events] + list(states.values())
    for state in ordered:
        if state is not None and (screen := screen_from_elements(state.elements)):
            break
    env = Environment(kind="imported", screen=screen)
    extra: dict[str, Any] = {}
    created = None
    if utg is not None:
        env.model = _str_or_none(utg.get("device_model_number"))
        env.serial = _str_or_none(utg.get("device_serial"))
        env.sdk = as_int(utg.get("device_sdk_version"))
        created = _str_or_none(utg.get("test_date"))
        edges, nodes = utg.get("edges"), utg.get("nodes")
        extra["utg"] = {k: v for k, v in utg.items() if k not in ("edges", "nodes")}
        extra["utg_edges"] = len(edges) if isinstance(edges, list) else None
        extra["utg_nodes"] = len(nodes) if isinstance(nodes, list) else None
    if droidbot_env is not None:
        extra["droidbot_env"] = droidbot_env
    referenced = {str(e[3].get(k)) for e in events for k in ("start_state", "stop_state")}
    unreferenced = {
        s: state.path.relative_to(src).as_posix()
        for s, state in sorted(states.items())
        if s not in referenced
    }
    if unreferenced:  # state files no event refers to: named, so nothing goes unmentioned
        extra["unreferenced_states"] = unreferenced
    others = sorted(p.name for p in src.iterdir() if p.name not in _IMPORTED_FILES)
    if others:
        extra["other_files"] = others
    if created and (m := re.fullmatch(r"(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})", created)):
        created = f"{m[1]}T{m[2]}"
    return Header(
        task=TaskRef(id=task_id),
        environment=env,
        source=SourceRef(format=FORMAT, path=str(src)),
        created=created,
        extra=extra,
    )


def _load_states(src: Path, warnings: list[str]) -> dict[str, _State]:
    states: dict[str, _State] = {}
    states_dir = src / "states"
    if not states_dir.is_dir():
        warnings.append(f"{states_dir}: no states folder; observations are empty")
        return states
    for path in sorted(states_dir.glob("state_*.json")):
        data = read_json(path)
        if not isinstance(data, dict):
            raise ImportFailure("not a DroidBot state record (expected an object)", path=path)
        views = data.get("views", [])
        if not isinstance(views, list):
            raise ImportFailure("`views` is not a list", path=path)
        elements = []
        for position, view in enumerate(views):
            if not isinstance(view, dict):
                raise ImportFailure(f"`views[{position}]` is not an object", path=path)
            elements.append(_element(view, position))
        state_str = str(data.get("state_str") or path.stem.removeprefix("state_"))
        if state_str in states:
            warnings.append(f"{path}: duplicate state {state_str}; kept {states[state_str].path}")
            continue
        tag = data.get("tag") if isinstance(data.get("tag"), str) else None
        tag = tag or path.stem.removeprefix("state_")
        state = _State(path=path, data=data, elements=elements, time=_iso(tag))
        for element in elements:
            view_str = getattr(element, "view_str", None)
            if isinstance(view_str, str) and element.index is not None:
                state.by_view_str.setdefault(view_str, element.index)
        shot = states_dir / f"screen_{tag}.png"
        if shot.is_file():
            state.screenshot = shot
        else:
            warnings.append(f"{path}: no screenshot {shot.name}")
        foreground = data.get("foreground_activity")
        if isinstance(foreground, str):
            state.package, state.activity = split_component(foreground)
        elif elements and elements[0].package:
            state.package = elements[0].package
        states[state_str] = state
    return states


def _element(view: dict[str, Any], position: int) -> UIElement:
    values: dict[str, Any] = {}
    for key, raw in view.items():
        name = _VIEW_FIELDS.get(key)
        if name is None:
            values[f"droidbot_{key}" if key in UIElement.model_fields else key] = raw
        elif name in _BOOL_FIELDS:
            if isinstance(raw, bool):
                values[name] = raw
            elif raw is not None:
                values[name] = str(raw).lower() == "true"
        elif name == "bounds":
            bounds = _bounds(raw)
            values["bounds"] = bounds
            if bounds is None and raw is not None:
                values["droidbot_bounds"] = raw
        else:
            values[name] = "" if raw is None else str(raw)
    values["index"] = position
    return UIElement.model_validate(values)


def _bounds(raw: Any) -> tuple[int, int, int, int] | None:
    """DroidBot's ``[[left, top], [right, bottom]]``."""
    if (
        isinstance(raw, list)
        and len(raw) == 2
        and all(isinstance(p, list) and len(p) == 2 for p in raw)
    ):
        numbers = [as_int(raw[0][0]), as_int(raw[0][1]), as_int(raw[1][0]), as_int(raw[1][1])]
        if all(n is not None for n in numbers):
            left, top, right, bottom = (int(n) for n in numbers if n is not None)
            return left, top, right, bottom
    return None


def _load_utg(path: Path, warnings: list[str]) -> dict[str, Any] | None:
    if not path.is_file():
        warnings.append(f"{path}: no utg.js; device details and the event graph are unknown")
        return None
    text = read_text(path)
    start = text.find("{")
    if start < 0:
        raise ImportFailure("no JSON object (expected `var utg = {...}`)", path=path)
    prefix_lines = text[:start].count("\n")
    try:
        data, _ = json.JSONDecoder().raw_decode(text, start)
    except json.JSONDecodeError:
        # re-parse the object alone for an error message with the right line
        parse_json(text[start:], path, offset_line=prefix_lines)
        raise ImportFailure("not valid JSON", path=path) from None
    except RecursionError:
        raise ImportFailure("not valid JSON: nested too deeply", path=path) from None
    if not isinstance(data, dict):
        raise ImportFailure("`utg` is not an object", path=path)
    return data


def _utg_event_ids(
    utg: dict[str, Any] | None,
) -> dict[tuple[str | None, str | None, str | None], list[Any]]:
    """UTG edge event ids by (from state, to state, event_str), in the graph's order."""
    ids: dict[tuple[str | None, str | None, str | None], list[Any]] = {}
    edges = utg.get("edges") if utg else None
    for edge in edges if isinstance(edges, list) else []:
        if not isinstance(edge, dict) or not isinstance(edge.get("events"), list):
            continue
        for event in edge["events"]:
            if isinstance(event, dict):
                key = (_str(edge.get("from")), _str(edge.get("to")), _str(event.get("event_str")))
                ids.setdefault(key, []).append(event.get("event_id"))
    return ids


def _report_missing_states(
    events: list[tuple[str, str, Path, dict[str, Any]]],
    states: dict[str, _State],
    warnings: list[str],
) -> None:
    missing: dict[str, list[str]] = {}
    for i, (_, name, _, data) in enumerate(events):
        for key in ("start_state", "stop_state"):
            ref = data.get(key)
            if ref is not None and str(ref) not in states:
                missing.setdefault(str(ref), []).append(f"step {i} ({name}) {key}")
    for ref, uses in missing.items():
        what = "; the step has no UI observation" if any("start_state" in u for u in uses) else ""
        warnings.append(
            f"state {ref} is referenced but has no states/state_*.json: {', '.join(uses)}{what}"
        )


def _observation(state: _State, out_dir: Path | None) -> Observation:
    return Observation(
        ui_elements=state.elements,
        screenshot=media_path(state.screenshot, out_dir) if state.screenshot else None,
        package=state.package,
        activity=state.activity,
        time=state.time,
    )


def _action(
    event: dict[str, Any], start: _State | None, where: str, warnings: list[str]
) -> tuple[Action | None, dict[str, Any]]:
    kind = event.get("event_type")
    values: dict[str, Any] | None = None
    if kind in ("touch", "long_touch", "set_text", "scroll"):
        values = _view_action(event, kind, start, where, warnings)
    elif kind == "swipe":
        values = _swipe(event, where, warnings)
    elif kind == "key":
        name = str(event.get("name", "")).upper().removeprefix("KEYCODE_")
        if name in _KEYS:
            values = {"action_type": _KEYS[name]}
        else:
            warnings.append(
                f"{where}: key {name or '?'} has no AndroidWorld action; kept in extra.source_event"
            )
    elif kind == "intent":
        intent = event.get("intent")
        component = _COMPONENT.search(intent) if isinstance(intent, str) else None
        if isinstance(intent, str) and re.search(r"\bam\s+start\b", intent) and component:
            values = {"action_type": "open_app", "app_name": component[1]}
        else:
            warnings.append(
                f"{where}: intent {intent!r} does not start an app; kept in extra.source_event"
            )
    elif kind in ("kill_app", "spawn", "exit", "manual"):
        warnings.append(
            f"{where}: DroidBot `{kind}` event has no AndroidWorld action; "
            "kept in extra.source_event"
        )
    else:
        warnings.append(
            f"{where}: unknown DroidBot event type {kind!r}; kept in extra.source_event"
        )
    if values is None:
        return None, {}
    return make_action(values, where, warnings)


def _view_action(
    event: dict[str, Any], kind: str, start: _State | None, where: str, warnings: list[str]
) -> dict[str, Any] | None:
    view = event.get("view") if isinstance(event.get("view"), dict) else None
    index = None
    if view is not None and start is not None:
        index = start.by_view_str.get(str(view.get("view_str")))
        if index is None:
            warnings.append(
                f"{where}: target view {view.get('view_str')} is not in the start state's view list"
            )
    x, y = _number(event.get("x")), _number(event.get("y"))
    if (x is None or y is None) and view is not None:
        point = center(_bounds(view.get("bounds")))
        if point is not None:
            x, y = point
    values: dict[str, Any] = {"index": index}
    if x is not None and y is not None:
        values.update(x=x, y=y)
    if kind == "scroll":
        direction = event.get("direction")
        values.update(action_type="scroll", direction=direction)
        if not isinstance(direction, str):
            warnings.append(f"{where}: scroll without a direction; kept in extra.source_event")
            return None
        return values
    if index is None and "x" not in values:
        warnings.append(
            f"{where}: `{kind}` has neither a target view nor a position; "
            "kept in extra.source_event"
        )
        return None
    if kind == "set_text":
        text = event.get("text")
        values.update(action_type="input_text", text="" if text is None else str(text))
    else:
        values["action_type"] = "click" if kind == "touch" else "long_press"
    return values


def _swipe(event: dict[str, Any], where: str, warnings: list[str]) -> dict[str, Any] | None:
    points = []
    for end in ("start", "end"):
        x, y = _number(event.get(f"{end}_x")), _number(event.get(f"{end}_y"))
        view = event.get(f"{end}_view")
        if (x is None or y is None) and isinstance(view, dict):
            point = center(_bounds(view.get("bounds")))
            x, y = point if point else (None, None)
        points.append((x, y))
    (x0, y0), (x1, y1) = points
    if x0 is None or y0 is None or x1 is None or y1 is None:
        warnings.append(f"{where}: swipe without start and end points; kept in extra")
        return None
    direction = swipe_direction(x1 - x0, y1 - y0)
    if direction is None:
        warnings.append(f"{where}: swipe that does not move; kept in extra.source_event")
        return None
    return {
        "action_type": "swipe",
        "direction": direction,
        "x": x0,
        "y": y0,
        "end_x": x1,
        "end_y": y1,
    }


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if value == value else None


def _iso(tag: str | None) -> str | None:
    """DroidBot's ``2017-08-11_202329`` tag as ``2017-08-11T20:23:29``."""
    m = _TAG.fullmatch(tag) if tag else None
    return f"{m[1]}T{m[2]}:{m[3]}:{m[4]}" if m else None


def _str_or_none(value: Any) -> str | None:
    return None if value is None else str(value)


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None
