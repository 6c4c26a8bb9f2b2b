"""What every reader produces: recorded UI states (view trees) and the events between them.

The readers of DroidBot folders, AutoDroid ``utg.yaml`` records and trajectories all bring
their data into this one shape, so grouping, the runtime and the fidelity report never look
at a source format. Nodes keep the attributes a ``uiautomator dump`` has; a state whose
source has no geometry (AutoDroid) carries laid-out bounds and says so in ``layout``.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Any

_NAME = re.compile(r"[^\w.$:/\-]")  # what class names, resource ids and packages are made of

FLAGS = (
    "clickable",
    "long_clickable",
    "checkable",
    "checked",
    "editable",
    "scrollable",
    "selected",
    "focusable",
    "password",
)


class ReadError(ValueError):
    """A source that cannot be read at all: the message names the file and why."""


@dataclass
class Node:
    """One view of a recorded screen."""

    cls: str
    rid: str = ""
    text: str = ""
    desc: str = ""
    bounds: tuple[int, int, int, int] = (0, 0, 0, 0)
    clickable: bool = False
    long_clickable: bool = False
    checkable: bool = False
    checked: bool = False
    editable: bool = False
    scrollable: bool = False
    selected: bool = False
    focusable: bool = False
    password: bool = False
    enabled: bool = True
    package: str = ""
    parent: int = -1
    children: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        # names reach the XML unescaped (as uiautomator writes them): keep them names
        self.cls, self.rid, self.package = (
            _NAME.sub("", self.cls) or "android.view.View",
            _NAME.sub("", self.rid),
            _NAME.sub("", self.package),
        )

    def to_json(self) -> dict[str, Any]:
        """Compact form: attributes at their default are left out."""
        out: dict[str, Any] = {"cls": self.cls, "bounds": list(self.bounds)}
        for name in ("rid", "text", "desc", "package"):
            if getattr(self, name):
                out[name] = getattr(self, name)
        flags = [f for f in FLAGS if getattr(self, f)]
        if flags:
            out["flags"] = flags
        if not self.enabled:
            out["enabled"] = False
        out["parent"] = self.parent
        if self.children:
            out["children"] = list(self.children)
        return out

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Node:
        flags = set(d.get("flags", ()))
        left, top, right, bottom = (int(v) for v in d.get("bounds", (0, 0, 0, 0)))
        return cls(
            cls=str(d["cls"]),
            rid=str(d.get("rid", "")),
            text=str(d.get("text", "")),
            desc=str(d.get("desc", "")),
            bounds=(left, top, right, bottom),
            enabled=bool(d.get("enabled", True)),
            package=str(d.get("package", "")),
            parent=int(d.get("parent", -1)),
            children=[int(c) for c in d.get("children", ())],
            **{f: f in flags for f in FLAGS},
        )


@dataclass
class State:
    """One recorded UI state: its view tree (node 0 is the root) and where it came from."""

    id: str
    nodes: list[Node]
    activity: str = ""
    package: str = ""
    source: str = ""  # file (and record or tag) it was read from
    layout: str = "recorded"  # "recorded" bounds, or "inferred" (the source has none)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "activity": self.activity,
            "package": self.package,
            "source": self.source,
            "layout": self.layout,
            "nodes": [n.to_json() for n in self.nodes],
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> State:
        if not d["nodes"]:
            raise ValueError(f"state {d['id']} has no views")
        return cls(
            id=str(d["id"]),
            nodes=as_tree([Node.from_json(n) for n in d["nodes"]])[0],
            activity=str(d.get("activity", "")),
            package=str(d.get("package", "")),
            source=str(d.get("source", "")),
            layout=str(d.get("layout", "recorded")),
        )


def as_tree(nodes: list[Node]) -> tuple[list[Node], bool]:
    """The nodes reachable from node 0, each once, with consistent parents; and whether the
    input already was such a tree (a recorded view list can be corrupt: cycles, a child
    listed twice, indexes out of range)."""
    order = walk(nodes)
    ok = len(order) == len(nodes) and all(
        0 <= c < len(nodes) and nodes[c].parent == i for i in order for c in nodes[i].children
    )
    if ok:
        return nodes, True
    new_index = {old: new for new, old in enumerate(order)}
    out = []
    for old in order:
        n = nodes[old]
        kids = [c for c in n.children if c in new_index and new_index[c] > new_index[old]]
        out.append(n)
        n.children = [new_index[c] for c in dict.fromkeys(kids)]
    for n in out:
        n.parent = -1
    for i, n in enumerate(out):
        for c in n.children:
            if out[c].parent == -1:
                out[c].parent = i
    for i, n in enumerate(out):  # a node claimed by two parents stays with the first
        n.children = [c for c in n.children if out[c].parent == i]
    return out, False


# Event kinds: actions inside the app (they make transitions) and the rest.
IN_APP = ("click", "long_press", "input", "scroll", "back")


@dataclass
class Event:
    """One recorded action: from a state, on a node of it (when it has a target), to a state.

    ``src``/``dst`` are state ids, None where the source does not say (or names a state it
    has no tree for); such events are counted but make no transition.
    """

    index: int
    kind: str  # click | long_press | input | scroll | back | other
    src: str | None
    dst: str | None
    target: int | None = None  # node index in the src state
    text: str | None = None  # typed text
    direction: str | None = None  # scroll direction
    source: str = ""

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v is not None}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Event:
        return cls(
            index=int(d["index"]),
            kind=str(d["kind"]),
            src=d.get("src"),
            dst=d.get("dst"),
            target=d.get("target"),
            text=d.get("text"),
            direction=d.get("direction"),
            source=str(d.get("source", "")),
        )


@dataclass
class Recording:
    """Everything read from one source: one app's states and events, and what was missing."""

    app: str
    format: str
    path: str
    package: str = ""
    width: int = 1080
    height: int = 2400
    states: dict[str, State] = field(default_factory=dict)
    events: list[Event] = field(default_factory=list)
    start: str | None = None
    gaps: list[str] = field(default_factory=list)

    def add_state(self, state: State) -> None:
        self.states.setdefault(state.id, state)


def walk(nodes: list[Node], start: int = 0) -> list[int]:
    """Indexes of node ``start`` and its descendants, in document order."""
    out: list[int] = []
    seen: set[int] = set()
    todo = [start]
    while todo:
        i = todo.pop()
        if not 0 <= i < len(nodes) or i in seen:
            continue
        seen.add(i)
        out.append(i)
        todo.extend(reversed(nodes[i].children))
    return out


def hit(nodes: list[Node], x: float, y: float) -> int | None:
    """The node a tap at (x, y) reaches: the deepest clickable (or editable, checkable) node
    under the point, later siblings first; None when nothing there acts."""

    def visit(i: int) -> int | None:
        n = nodes[i]
        left, top, right, bottom = n.bounds
        if not (left <= x < right and top <= y < bottom):
            return None
        for c in reversed(n.children):
            if 0 <= c < len(nodes):
                found = visit(c)
                if found is not None:
                    return found
        return i if (n.clickable or n.editable or n.checkable or n.long_clickable) else None

    return visit(0) if nodes else None
