"""DroidBot output folders: ``utg.js``, ``states/state_*.json``, ``events/event_*.json``.

States carry DroidBot's full view list (class, resource_id, text, content_description,
bounds, flags, parent and children indexes), which become nodes unchanged. Events name the
state before and after and the view acted on; where the ``events/`` folder is missing, the
edges of ``utg.js`` stand in (their events name the view by its ``view_str``). Anything
missing or cut short is listed in the recording's gaps, and the rest is kept.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tasklang.envs.phoneworld.reconstruct.model import (
    Event,
    Node,
    ReadError,
    Recording,
    State,
    as_tree,
    hit,
)

STATE_KEYS = {
    "views", "state_str", "state_str_content_free", "foreground_activity", "activity_stack",
    "background_services", "tag", "width", "height",
}  # fmt: skip
EVENT_KEYS = {"event", "start_state", "stop_state", "event_str", "tag"}
KINDS = {
    "touch": "click",
    "long_touch": "long_press",
    "set_text": "input",
    "scroll": "scroll",
    "key": "other",
    "intent": "other",
    "manual": "other",
    "exit": "other",
    "spawn": "other",
    "kill_app": "other",
}
_VIEW_STR = re.compile(r"view=([0-9a-f]{32})")


def load_json(path: Path, gaps: list[str]) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        gaps.append(f"{path}: unreadable JSON ({_reason(exc)}); skipped")
        return None


def _reason(exc: Exception) -> str:
    if isinstance(exc, json.JSONDecodeError):
        return f"{exc.msg} at line {exc.lineno}"
    return exc.__class__.__name__.lower()


def read_utg(path: Path, gaps: list[str]) -> dict[str, Any] | None:
    """``utg.js`` is ``var utg = {...}``; a cut-short file is reported and left out."""
    if not path.is_file():
        gaps.append(f"{path}: missing")
        return None
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        gaps.append(f"{path}: unreadable ({_reason(exc)})")
        return None
    start = text.find("{")
    try:
        utg = json.loads(text[start:].rstrip().rstrip(";")) if start >= 0 else None
    except json.JSONDecodeError as exc:
        gaps.append(f"{path}: cut short or malformed ({exc.msg} at line {exc.lineno}); not used")
        return None
    if not isinstance(utg, dict):
        gaps.append(f"{path}: holds no `var utg = {{...}}` object; not used")
        return None
    return utg


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def node_of(view: dict[str, Any], package: str) -> Node:
    b = view.get("bounds") or [[0, 0], [0, 0]]
    try:
        (left, top), (right, bottom) = b
        bounds = (int(left), int(top), int(right), int(bottom))
    except (TypeError, ValueError):
        bounds = (0, 0, 0, 0)
    return Node(
        cls=str(view.get("class") or "android.view.View"),
        rid=str(view.get("resource_id") or ""),
        text=str(view.get("text") or ""),
        desc=str(view.get("content_description") or ""),
        bounds=bounds,
        clickable=bool(view.get("clickable")),
        long_clickable=bool(view.get("long_clickable")),
        checkable=bool(view.get("checkable")),
        checked=bool(view.get("checked")),
        editable=bool(view.get("editable")),
        scrollable=bool(view.get("scrollable")),
        selected=bool(view.get("selected")),
        focusable=bool(view.get("focusable")),
        password=bool(view.get("is_password")),
        enabled=view.get("enabled", True) is not False,
        package=str(view.get("package") or package),
        parent=int(view.get("parent", -1) if isinstance(view.get("parent"), int) else -1),
        children=[c for c in _list(view.get("children")) if isinstance(c, int)],
    )


def state_of(data: dict[str, Any], path: Path, gaps: list[str]) -> State | None:
    views, sid = data.get("views"), data.get("state_str")
    if not isinstance(views, list) or not views or not isinstance(sid, str):
        gaps.append(f"{path}: no `views` list or `state_str`; skipped")
        return None
    unknown = set(data) - STATE_KEYS
    if unknown:
        gaps.append(f"{path}: ignored unknown field(s) {', '.join(sorted(unknown))}")
    package, _, activity = str(data.get("foreground_activity") or "").partition("/")
    if activity.startswith("."):
        activity = package + activity
    nodes, ok = as_tree([node_of(v, package) for v in views if isinstance(v, dict)])
    if not nodes:
        gaps.append(f"{path}: no views in `views`; skipped")
        return None
    if not ok:
        gaps.append(f"{path}: the view list is not a tree (kept the views reachable from the root)")
    return State(sid, nodes, activity=activity, package=package, source=str(path))


def target_of(view: Any, state: State | None) -> int | None:
    """The node of ``state`` an event's view is: by DroidBot's temp id when the node there
    has the same class, resource id and bounds, else by those attributes."""
    if not isinstance(view, dict) or state is None:
        return None
    probe = node_of(view, state.package)
    i = view.get("temp_id")
    if isinstance(i, int) and 0 <= i < len(state.nodes):
        n = state.nodes[i]
        if (n.cls, n.rid, n.bounds) == (probe.cls, probe.rid, probe.bounds):
            return i
    for j, n in enumerate(state.nodes):
        if (n.cls, n.rid, n.bounds, n.text) == (probe.cls, probe.rid, probe.bounds, probe.text):
            return j
    return None


def event_of(index: int, data: dict[str, Any], rec: Recording, path: Path) -> Event:
    ev = data.get("event") if isinstance(data.get("event"), dict) else {}
    assert isinstance(ev, dict)
    src, dst = data.get("start_state"), data.get("stop_state")
    src = src if isinstance(src, str) and src in rec.states else None
    dst = dst if isinstance(dst, str) and dst in rec.states else None
    etype = str(ev.get("event_type") or "")
    kind = KINDS.get(etype, "other")
    if etype not in KINDS:
        rec.gaps.append(f"{path}: unknown event type {etype!r} (kept as `other`)")
    if kind == "other" and etype == "key" and str(ev.get("name", "")).upper() == "BACK":
        kind = "back"
    target = target_of(ev.get("view"), rec.states.get(src or ""))
    if kind in ("click", "long_press", "input") and target is None:
        x, y = ev.get("x"), ev.get("y")
        if isinstance(x, (int, float)) and isinstance(y, (int, float)) and src is not None:
            target = hit(rec.states[src].nodes, x, y)
    direction = ev.get("direction")
    return Event(
        index,
        kind,
        src,
        dst,
        target=target,
        text=ev.get("text") if isinstance(ev.get("text"), str) else None,
        direction=str(direction).lower() if direction else None,
        source=str(path),
    )


def read_droidbot(folder: Path) -> Recording:
    """Read a DroidBot output folder."""
    if not folder.is_dir():
        raise ReadError(f"{folder}: not a folder (expected DroidBot output: utg.js, states/)")
    gaps: list[str] = []
    utg = read_utg(folder / "utg.js", gaps)
    rec = Recording(app=folder.name, format="droidbot", path=str(folder), gaps=gaps)
    if utg is not None:
        rec.package = str(utg.get("app_package") or "")
    rec.app = rec.package or folder.name.removeprefix("report_")
    states_dir = folder / "states"
    files = sorted(states_dir.glob("state_*.json")) if states_dir.is_dir() else []
    if not files:
        gaps.append(f"{states_dir}: no state_*.json files")
    view_strs: dict[str, list[Any]] = {}
    for f in files:
        data = load_json(f, gaps)
        state = state_of(data, f, gaps) if isinstance(data, dict) else None
        if state is not None:
            rec.add_state(state)
            view_strs[state.id] = [v.get("view_str") for v in data["views"] if isinstance(v, dict)]
            size = data.get("width"), data.get("height")
            if all(isinstance(v, int) and v > 0 for v in size):
                rec.width, rec.height = size
            elif state.nodes and state.nodes[0].bounds[2] > 0:
                rec.width, rec.height = state.nodes[0].bounds[2], state.nodes[0].bounds[3]
    if not rec.states:
        raise ReadError(f"{folder}: no readable states (states/state_*.json)")
    if not rec.package:
        rec.package = max(
            {s.package for s in rec.states.values()},
            key=lambda p: sum(s.package == p for s in rec.states.values()),
        )
        rec.app = rec.package or rec.app
    read_events(folder, rec, utg, view_strs)
    app_states = [e.src for e in rec.events if e.src and rec.states[e.src].package == rec.package]
    rec.start = app_states[0] if app_states else next(iter(rec.states))
    return rec


def read_events(
    folder: Path, rec: Recording, utg: dict[str, Any] | None, view_strs: dict[str, list[Any]]
) -> None:
    events_dir = folder / "events"
    files = sorted(events_dir.glob("event_*.json")) if events_dir.is_dir() else []
    if files:
        for f in files:
            data = load_json(f, rec.gaps)
            if not isinstance(data, dict):
                continue
            unknown = set(data) - EVENT_KEYS
            if unknown:
                rec.gaps.append(f"{f}: ignored unknown field(s) {', '.join(sorted(unknown))}")
            event = event_of(len(rec.events), data, rec, f)
            rec.events.append(event)
            for name, sid in (("start", data.get("start_state")), ("stop", data.get("stop_state"))):
                if isinstance(sid, str) and sid not in rec.states:
                    rec.gaps.append(f"{f}: {name} state {sid[:12]} has no state file")
        return
    rec.gaps.append(f"{events_dir}: no event_*.json files; transitions come from utg.js edges")
    if utg is None:
        rec.gaps.append(f"{folder}: no events and no usable utg.js: the states have no transitions")
        return
    for edge in _list(utg.get("edges")):
        if not isinstance(edge, dict):
            continue
        for e in _list(edge.get("events")):
            event = edge_event(len(rec.events), edge, e, rec, folder / "utg.js")
            m = _VIEW_STR.search(str(e.get("event_str") or "") if isinstance(e, dict) else "")
            if m and event.src is not None and m[1] in view_strs.get(event.src, ()):
                event.target = view_strs[event.src].index(m[1])
            rec.events.append(event)
    rec.events.sort(key=lambda e: e.index)


def edge_event(index: int, edge: dict[str, Any], e: Any, rec: Recording, path: Path) -> Event:
    src, dst = edge.get("from"), edge.get("to")
    e = e if isinstance(e, dict) else {}
    order = e.get("event_id")
    return Event(
        order if isinstance(order, int) else index,
        KINDS.get(str(e.get("event_type") or ""), "other"),
        src if src in rec.states else None,
        dst if dst in rec.states else None,
        source=f"{path}: edge {edge.get('id', '?')}",
    )
