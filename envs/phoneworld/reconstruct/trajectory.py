"""Trajectories in the project's JSONL format (anything ``tasklang import`` writes).

Each step's observation holds a ``uiautomator dump`` (``ui_xml``) or an element list
(``ui_elements``, as imported DroidBot and AndroidWorld runs have); its nodes become a
state, and the step's action, resolved against those nodes (by element index in document
order, or by the point tapped), leads to the next step's observation (or the final
snapshot's). Steps without a screen are listed as gaps.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

from tasklang.envs.phoneworld.reconstruct.model import (
    Event,
    Node,
    ReadError,
    Recording,
    State,
    as_tree,
    hit,
)

_BOUNDS = re.compile(r"\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]")
KINDS = {
    "click": "click",
    "double_tap": "click",
    "long_press": "long_press",
    "input_text": "input",
    "scroll": "scroll",
    "swipe": "scroll",
    "navigate_back": "back",
}


def parse_xml(xml: str) -> list[Node]:
    """The nodes of a ``uiautomator dump``, in document order (the element list's order)."""
    root = ElementTree.fromstring(xml)
    nodes: list[Node] = []

    def visit(el: ElementTree.Element, parent: int) -> None:
        a = el.attrib
        m = _BOUNDS.fullmatch(a.get("bounds", ""))
        me = len(nodes)
        nodes.append(
            Node(
                cls=a.get("class", "android.view.View"),
                rid=a.get("resource-id", ""),
                text=a.get("text", ""),
                desc=a.get("content-desc", ""),
                bounds=tuple(int(v) for v in m.groups()) if m else (0, 0, 0, 0),  # type: ignore[arg-type]
                package=a.get("package", ""),
                parent=parent,
                enabled=a.get("enabled", "true") == "true",
                editable=a.get("class", "") == "android.widget.EditText",
                password=a.get("password") == "true",
                long_clickable=a.get("long-clickable") == "true",
                clickable=a.get("clickable") == "true",
                checkable=a.get("checkable") == "true",
                checked=a.get("checked") == "true",
                scrollable=a.get("scrollable") == "true",
                selected=a.get("selected") == "true",
                focusable=a.get("focusable") == "true",
            )
        )
        if parent >= 0:
            nodes[parent].children.append(me)
        for child in el.findall("node"):
            visit(child, me)

    for top in root.findall("node") if root.tag == "hierarchy" else [root]:
        visit(top, -1)
    if len([n for n in nodes if n.parent == -1]) > 1:  # several windows: one synthetic root
        left = min(n.bounds[0] for n in nodes if n.parent == -1)
        top_ = min(n.bounds[1] for n in nodes if n.parent == -1)
        right = max(n.bounds[2] for n in nodes if n.parent == -1)
        bottom = max(n.bounds[3] for n in nodes if n.parent == -1)
        shifted = [Node("android.widget.FrameLayout", bounds=(left, top_, right, bottom))]
        for n in nodes:
            n.parent = n.parent + 1 if n.parent >= 0 else 0
            n.children = [c + 1 for c in n.children]
            shifted.append(n)
        shifted[0].children = [i for i, n in enumerate(shifted) if i and n.parent == 0]
        nodes = shifted
    return nodes


def read_jsonl(path: Path) -> Recording:
    """Read one trajectory file."""
    from tasklang.verifiers.trajectory import TrajectoryError, read_trajectory

    try:
        traj = read_trajectory(path)
    except TrajectoryError as exc:
        raise ReadError(str(exc)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ReadError(f"{path}: cannot read: {exc}") from None
    rec = Recording(app=path.stem, format="trajectory", path=str(path))
    screen = traj.header.environment.screen
    if screen is not None:
        rec.width, rec.height = screen.width, screen.height
    screens: list[tuple[str | None, Any]] = []
    for step in traj.steps:
        obs = step.observation
        where = f"{path}: step {step.index}"
        if obs.ui_xml or not obs.ui_elements:
            sid = add_screen(rec, obs.ui_xml, obs.package, obs.activity, where)
        else:
            sid = add_nodes(rec, element_nodes(obs.ui_elements), obs.package, obs.activity, where)
        screens.append((sid, step))
    final = traj.final.snapshot
    final_id = None
    if final is not None and (final.ui_xml or final.ui_elements):
        fg = final.foreground
        package, activity = (fg.package, fg.activity) if fg else (None, None)
        if final.ui_xml:
            final_id = add_screen(rec, final.ui_xml, package, activity, f"{path}: final")
        else:
            nodes = element_nodes(final.ui_elements or [])
            final_id = add_nodes(rec, nodes, package, activity, f"{path}: final")
    for k, (sid, step) in enumerate(screens):
        dst = screens[k + 1][0] if k + 1 < len(screens) else final_id
        rec.events.append(
            step_event(len(rec.events), sid, dst, step, rec, f"{path}: step {step.index}")
        )
    if not rec.states:
        raise ReadError(f"{path}: no step has a screen (`observation.ui_xml`)")
    packages = [s.package for s in rec.states.values() if s.package]
    rec.package = max(set(packages), key=packages.count) if packages else ""
    rec.app = rec.package or rec.app
    rec.start = next((sid for sid, _ in screens if sid), next(iter(rec.states)))
    return rec


def add_screen(
    rec: Recording, xml: str | None, package: str | None, activity: str | None, where: str
) -> str | None:
    if not xml:
        rec.gaps.append(f"{where}: no screen (`ui_xml`)")
        return None
    try:
        nodes = parse_xml(xml)
    except ElementTree.ParseError as exc:
        rec.gaps.append(f"{where}: unreadable ui_xml ({exc})")
        return None
    return add_nodes(rec, nodes, package, activity, where)


def add_nodes(
    rec: Recording, nodes: list[Node], package: str | None, activity: str | None, where: str
) -> str | None:
    if not nodes:
        rec.gaps.append(f"{where}: an empty screen")
        return None
    pkg = package or max((n.package for n in nodes if n.package), default="", key=len)
    if activity and activity.startswith(".") and pkg:
        activity = pkg + activity
    content = repr([(n.cls, n.rid, n.text, n.desc, n.bounds, n.checked) for n in nodes])
    sid = "ui:" + hashlib.sha256(f"{pkg}/{activity}{content}".encode()).hexdigest()[:32]
    rec.add_state(State(sid, nodes, activity=activity or "", package=pkg, source=where))
    return sid


def element_nodes(elements: list[Any]) -> list[Node]:
    """Nodes from an element list: its own tree where the elements carry ``parent`` and
    ``children`` (DroidBot's view list does), else every element under one root."""
    nodes = []
    for e in elements:
        extra = e.model_extra or {}
        nodes.append(
            Node(
                cls=e.class_name or "android.view.View",
                rid=e.resource_id,
                text=e.text,
                desc=e.content_desc,
                bounds=tuple(e.bounds) if e.bounds else (0, 0, 0, 0),  # type: ignore[arg-type]
                package=e.package,
                enabled=e.enabled,
                editable=bool(extra.get("editable")) or e.class_name.endswith("EditText"),
                **{f: getattr(e, f) for f in ("clickable", "long_clickable", "checkable", "checked",
                                               "scrollable", "selected", "focusable", "password")},
            )
        )  # fmt: skip
        parent, children = extra.get("parent"), extra.get("children")
        if isinstance(parent, int) and isinstance(children, list):
            nodes[-1].parent, nodes[-1].children = (
                parent,
                [c for c in children if isinstance(c, int)],
            )
    if any(n.children for n in nodes):
        return as_tree(nodes)[0]
    if nodes and all(n.parent == -1 for n in nodes[1:]) and len(nodes) > 1:
        right = max(n.bounds[2] for n in nodes)
        bottom = max(n.bounds[3] for n in nodes)
        root = Node("android.widget.FrameLayout", bounds=(0, 0, right, bottom))
        for n in nodes:
            n.parent = 0
            n.children = []
        root.children = list(range(1, len(nodes) + 1))
        return [root, *nodes]
    return nodes


def step_event(
    index: int, src: str | None, dst: str | None, step: Any, rec: Recording, where: str
) -> Event:
    action = step.action
    if action is None:
        return Event(index, "other", src, dst, source=where)
    kind = KINDS.get(action.action_type, "other")
    target = None
    if src is not None and kind in ("click", "long_press", "input"):
        nodes = rec.states[src].nodes
        if action.index is not None and 0 <= action.index < len(nodes):
            n = nodes[action.index].bounds
            target = hit(nodes, (n[0] + n[2]) / 2, (n[1] + n[3]) / 2)
            target = action.index if target is None else target
        elif action.x is not None and action.y is not None:
            target = hit(nodes, action.x, action.y)
    direction = action.direction
    if action.action_type == "swipe" and direction:
        direction = {"up": "down", "down": "up", "left": "right", "right": "left"}[direction]
    return Event(
        index, kind, src, dst, target=target, text=action.text, direction=direction, source=where
    )
