"""The screen graph: recorded states grouped into screens, and transitions between them.

Two states are the same screen when they belong to the same activity and show the same
structure: the sets of (class, resource id) pairs of their views overlap by at least
``SAME_SCREEN`` (Jaccard). For sources without resource ids the sets hold element kinds with
their fixed labels, a list row counting as its shape and a text field as its description
(not what was typed into it). Sets ignore how often a row repeats, so a list with other or
more items is still the same screen; texts of data rows do not count.

An action is keyed by the widget it acts on, the way it is found again on another state of
the same screen: a resource id unique on the screen names it; otherwise its class, resource
id and text do. A widget that repeats (a list row) also has a *shape* key, so a row the
recording never touched behaves like the rows it did. ``predict`` looks a transition up by
the exact key first, then by the shape key, then app-wide; an action seen nowhere has no
outcome (the runtime shows it as unexplored).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from tasklang.envs.phoneworld.reconstruct.model import (
    IN_APP,
    Event,
    Node,
    Recording,
    State,
    walk,
)

SAME_SCREEN = 0.5
FORMAT = "tasklang.screens"
VERSION = 1


def tokens(state: State) -> frozenset[tuple[str, str]]:
    """What the screen is made of, ignoring what it shows."""
    out: set[tuple[str, str]] = set()
    nodes = state.nodes
    for n in nodes:
        if state.layout == "inferred":
            if n.children and n.clickable:
                out.add(("row", f"{n.cls}/{len(n.children)}"))
            elif n.parent >= 0 and nodes[n.parent].clickable and nodes[n.parent].children:
                continue  # a text inside a list row: data
            elif n.parent >= 0:  # what a text field holds is data; its description is not
                out.add((n.cls, n.desc if n.editable else n.desc or n.text))
        else:
            out.add((n.cls, n.rid))
    return frozenset(out)


def jaccard(a: frozenset[Any], b: frozenset[Any]) -> float:
    return len(a & b) / len(a | b) if a | b else 1.0


def action_keys(state: State, event: Event) -> tuple[str, str | None]:
    """(exact key, shape key or None) of an event's action on ``state``."""
    if event.kind == "back":
        return "back", None
    if event.kind == "scroll":
        return f"scroll:{event.direction or 'down'}", None
    if event.target is None or not 0 <= event.target < len(state.nodes):
        return f"{event.kind}:?", None
    exact, shape = widget_keys(state, event.target)
    verb = "click" if event.kind in ("click", "input") else event.kind
    return f"{verb}:{exact}", (f"{verb}:{shape}" if shape else None)


def widget_keys(state: State, i: int) -> tuple[str, str | None]:
    """The exact and shape keys of node ``i`` of ``state``."""
    nodes = state.nodes
    n = nodes[i]
    same_rid = sum(1 for m in nodes if m.rid and m.rid == n.rid)
    shape = shape_of(nodes, i)
    repeats = sum(1 for j in range(len(nodes)) if shape_of(nodes, j) == shape) > 1
    if n.rid and same_rid == 1:
        return f"{n.cls}#{n.rid}", None
    label = n.text or n.desc or " ".join(nodes[c].text for c in walk(nodes, i)[1:] if nodes[c].text)
    return f"{n.cls}#{n.rid}|{label}", (shape if repeats else None)


def shape_of(nodes: list[Node], i: int) -> str:
    """A widget's kind and build, without its texts: class, resource id, children's
    classes, and the nearest ancestor resource id."""
    n = nodes[i]
    kids = ",".join(nodes[c].cls.rsplit(".", 1)[-1] for c in n.children if c < len(nodes))
    p, anchor, steps = n.parent, "", 0
    while 0 <= p < len(nodes) and not anchor and steps < len(nodes):  # bounded: trees only
        anchor, p, steps = nodes[p].rid, nodes[p].parent, steps + 1
    return f"{n.cls}#{n.rid}[{kids}]@{anchor}"


@dataclass
class Screen:
    """States that are one screen showing different data."""

    id: str
    activity: str
    states: list[str]
    name: str = ""  # a few words from the screen, for people

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "activity": self.activity, "states": self.states}


@dataclass
class Transition:
    """An action on one screen and where it led: per target state, how often."""

    screen: str
    key: str
    shape: str | None
    targets: Counter[str] = field(default_factory=Counter)  # dst state id -> count
    events: list[int] = field(default_factory=list)
    returns: int = 0  # of its events, those that went back to a screen under this one

    @property
    def count(self) -> int:
        return sum(self.targets.values())

    def to_json(self) -> dict[str, Any]:
        return {
            "screen": self.screen,
            "key": self.key,
            "shape": self.shape,
            "count": self.count,
            "targets": dict(self.targets.most_common()),
            "events": self.events,
            "returns": self.returns,
        }


@dataclass
class ScreenGraph:
    """One reconstructed app: what the runtime loads and the fidelity report measures."""

    app: str
    package: str
    width: int
    height: int
    states: dict[str, State]
    screens: dict[str, Screen]
    screen_of: dict[str, str]
    transitions: dict[tuple[str, str], Transition]
    start: str
    sources: list[str] = field(default_factory=list)
    gaps: list[str] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    bindings: list[dict[str, Any]] = field(default_factory=list)
    transient: set[str] = field(default_factory=set)  # screens that close when left (menus)

    # ------------------------------------------------------------ looking up
    def predict(
        self, state: str, key: str, shape: str | None, below: Sequence[str] = ()
    ) -> tuple[str | None, str]:
        """The state an action leads to, and how it was found: "return" (this action on this
        screen, which the recording always saw close the screen: the screen under it on
        ``below``, the back stack nearest first, passing screens that close when left),
        "exact" (this action on this screen, its most frequent outcome; ``below`` breaks
        ties), "stack" (Back where the recording never pressed it), "shape" (on another row
        like it), "app" (the same widget on other screens, all leading to one screen: a tab
        bar, a toolbar) or "unexplored" (None)."""
        screen = self.screen_of[state]
        t = self.transitions.get((screen, key))
        if t is not None and below and t.returns == t.count:
            # every recorded use closed this screen: back to what it covers now, showing
            # what the recording showed there after this action, if it went there
            under = self.beneath(below)
            seen = [
                s for s, _ in t.targets.most_common() if self.screen_of[s] == self.screen_of[under]
            ]
            return (seen[0] if seen else under), "return"
        if t is not None:
            return self.choose(t.targets, below), "exact"
        if key == "back" and below:
            return self.beneath(below), "stack"
        if shape is not None:
            shaped: Counter[str] = Counter()
            for t in self.transitions.values():
                if t.screen == screen and t.shape == shape:
                    shaped.update(t.targets)
            if shaped:
                return self.choose(shaped, below), "shape"
        if key != "back":
            return self.app_wide(key)
        return None, "unexplored"

    def beneath(self, below: Sequence[str]) -> str:
        """The screen an action that closes this one shows: the nearest under it on the back
        stack that stays open when left (a menu closes once an item is picked)."""
        return next((b for b in below if self.screen_of[b] not in self.transient), below[0])

    def choose(self, targets: Counter[str], below: Sequence[str]) -> str:
        """The screen the action led to most often; between screens it led to equally often,
        the one nearest under this one on the back stack (a dialog's Cancel returns to
        whatever it covered)."""
        per_screen: Counter[str] = Counter()
        for sid, n in targets.items():
            per_screen[self.screen_of[sid]] += n
        top = max(per_screen.values())
        tied = {sc for sc, n in per_screen.items() if n == top}
        if len(tied) > 1:
            for b in below:
                if self.screen_of[b] in tied:
                    return b
        return next(sid for sid, _ in targets.most_common() if self.screen_of[sid] in tied)

    def navigate(self, stack: list[str], dst: str) -> list[str]:
        """The back stack (state ids, top last) after moving to ``dst``, as Android keeps it:
        back to a screen already on the stack, in place of a screen of the same activity, or
        on top of it."""
        screen = self.screen_of[dst]
        for k in range(len(stack) - 1, -1, -1):
            if self.screen_of.get(stack[k]) == screen:
                return [*stack[:k], dst]
        activity = self.states[dst].activity
        if stack and activity and activity == self.states[stack[-1]].activity:
            return [*stack[:-1], dst]
        return [*stack, dst]

    def widgets(self, screen: str) -> list[dict[str, Any]]:
        """The screen's widgets (views with an id, a text, a description, or that act), each
        once by its key, as first seen, with how many of the screen's states show it."""
        found: dict[str, dict[str, Any]] = {}
        for sid in self.screens[screen].states:
            state = self.states[sid]
            for i, n in enumerate(state.nodes):
                if not (n.rid or n.text or n.desc or n.clickable or n.editable):
                    continue
                key = widget_keys(state, i)[0]
                if key in found:
                    found[key]["states"] += 1
                    continue
                found[key] = {
                    "key": key, "cls": n.cls, "rid": n.rid, "text": n.text, "desc": n.desc,
                    "bounds": list(n.bounds), "clickable": n.clickable,
                    "editable": n.editable, "states": 1,
                }  # fmt: skip
        return list(found.values())

    def app_wide(self, key: str) -> tuple[str | None, str]:
        """A widget seen on at least two screens whose every use led to one screen."""
        found = [t for t in self.transitions.values() if t.key == key]
        targets: Counter[str] = Counter()
        for t in found:
            targets.update(t.targets)
        if len(found) >= 2 and len({self.screen_of[s] for s in targets}) == 1:
            return targets.most_common(1)[0][0], "app"
        return None, "unexplored"

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "app": self.app,
            "package": self.package,
            "screen_size": [self.width, self.height],
            "start": self.start,
            "sources": self.sources,
            "gaps": self.gaps,
            "screens": [
                {**s.to_json(), "widgets": self.widgets(s.id)} for s in self.screens.values()
            ],
            "transitions": [t.to_json() for t in self.transitions.values()],
            "events": [e.to_json() for e in self.events],
            "states": [s.to_json() for s in self.states.values()],
            "bindings": self.bindings,
            "transient": sorted(self.transient),
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> ScreenGraph:
        """Load a graph written by ``to_json``; malformed input raises ValueError/KeyError/
        TypeError, which ``load_graph`` turns into one message."""
        if d.get("format") != FORMAT:
            raise ValueError(f"not a screen graph (format is {d.get('format')!r}, not `{FORMAT}`)")
        states = {s["id"]: State.from_json(s) for s in d["states"]}
        screens = {
            s["id"]: Screen(s["id"], s.get("activity", ""), list(s["states"]), s.get("name", ""))
            for s in d["screens"]
        }
        screen_of = {sid: s.id for s in screens.values() for sid in s.states}
        transitions = {}
        for t in d["transitions"]:
            tr = Transition(t["screen"], t["key"], t.get("shape"), Counter(t["targets"]))
            tr.events = list(t.get("events", ()))
            tr.returns = int(t.get("returns", 0))
            transitions[(tr.screen, tr.key)] = tr
        check_refs(states, screens, screen_of, transitions, str(d["start"]))
        width, height = d.get("screen_size", (1080, 2400))
        return cls(
            app=d["app"],
            package=d.get("package", ""),
            width=int(width),
            height=int(height),
            states=states,
            screens=screens,
            screen_of=screen_of,
            transitions=transitions,
            start=d["start"],
            sources=list(d.get("sources", ())),
            gaps=list(d.get("gaps", ())),
            events=[Event.from_json(e) for e in d.get("events", ())],
            bindings=list(d.get("bindings", ())),
            transient={str(sc) for sc in d.get("transient", ()) if sc in screens},
        )


def check_refs(
    states: dict[str, State],
    screens: dict[str, Screen],
    screen_of: dict[str, str],
    transitions: dict[tuple[str, str], Transition],
    start: str,
) -> None:
    """A graph file's references all resolve (else ValueError naming the first that does not)."""
    if start not in states:
        raise ValueError(f"the start state `{start}` is not among the states")
    for s in screens.values():
        for sid in s.states:
            if sid not in states:
                raise ValueError(f"screen `{s.id}` lists the unknown state `{sid}`")
    for sid in states:
        if sid not in screen_of:
            raise ValueError(f"state `{sid}` belongs to no screen")
    for t in transitions.values():
        if t.screen not in screens or any(d not in states for d in t.targets) or not t.targets:
            raise ValueError(
                f"transition `{t.key}` of `{t.screen}` names unknown screens or states"
            )


def group_screens(states: list[State]) -> tuple[dict[str, Screen], dict[str, str]]:
    """States -> screens, in order of first appearance (a state joins the first screen of its
    activity whose first state it resembles)."""
    screens: dict[str, Screen] = {}
    first: dict[str, frozenset[tuple[str, str]]] = {}
    screen_of: dict[str, str] = {}
    for s in states:
        mine = tokens(s)
        home = next(
            (
                sc
                for sc in screens.values()
                if sc.activity == s.activity and jaccard(first[sc.id], mine) >= SAME_SCREEN
            ),
            None,
        )
        if home is None:
            home = Screen(f"s{len(screens)}", s.activity, [], screen_name(s))
            screens[home.id] = home
            first[home.id] = mine
        home.states.append(s.id)
        screen_of[s.id] = home.id
    return screens, screen_of


def screen_name(state: State) -> str:
    short = state.activity.rsplit(".", 1)[-1]
    texts = [n.text for n in state.nodes if n.text and len(n.text) < 40][:3]
    return " / ".join([t for t in [short, *texts] if t])[:80]


def transitions_of(
    states: dict[str, State],
    screen_of: dict[str, str],
    events: list[Event],
    below: dict[int, list[str]] | None = None,
) -> dict[tuple[str, str], Transition]:
    """Transitions from ``events``; with ``below`` (each event's back stack, nearest first),
    each one also counts the events that returned to a screen on that stack."""
    out: dict[tuple[str, str], Transition] = {}
    for e in events:
        if e.kind not in IN_APP or e.src is None or e.dst is None:
            continue
        key, shape = action_keys(states[e.src], e)
        if key.endswith(":?"):
            continue
        t = out.setdefault((screen_of[e.src], key), Transition(screen_of[e.src], key, shape))
        t.targets[e.dst] += 1
        t.events.append(e.index)
        stack = (below or {}).get(e.index, [])
        if screen_of[e.dst] in {screen_of[b] for b in stack}:
            t.returns += 1
    return out


def transient_screens(
    screen_of: dict[str, str], events: list[Event], below: dict[int, list[str]]
) -> set[str]:
    """Screens that close when left: ones a return went past (back to a screen further down,
    as a popup menu is gone once its item opened a dialog) and that nothing ever returned to."""
    passed: set[str] = set()
    returned_to: set[str] = set()
    for e in events:
        if e.src is None or e.dst is None or e.kind not in IN_APP:
            continue
        screens = [screen_of[b] for b in below.get(e.index, [])]
        dst = screen_of[e.dst]
        if dst in screens:
            k = screens.index(dst)
            passed.update(screens[:k])
            returned_to.add(dst)
    return passed - returned_to


def histories(graph: ScreenGraph) -> dict[int, list[str]]:
    """For each event, the back stack under its state (nearest first), as the runtime would
    hold it having followed the recording so far."""
    out: dict[int, list[str]] = {}
    stack: list[str] = []
    for e in sorted(graph.events, key=lambda e: e.index):
        if e.src is None:
            stack = []
            continue
        if not stack or graph.screen_of[stack[-1]] != graph.screen_of[e.src]:
            stack = [e.src]  # the recording jumped (a gap, or left the app and came back)
        stack[-1] = e.src
        out[e.index] = list(reversed(stack[:-1]))
        if e.dst is None or e.kind not in IN_APP:
            stack = [e.dst] if e.dst is not None else []
        elif e.kind == "back":
            screens = [graph.screen_of[s] for s in stack[:-1]]
            dst_screen = graph.screen_of[e.dst]
            k = max((i for i, sc in enumerate(screens) if sc == dst_screen), default=-1)
            stack = [*stack[:k], e.dst] if k >= 0 else [e.dst]
        else:
            stack = graph.navigate(stack, e.dst)
    return out


def build_graph(recordings: list[Recording]) -> ScreenGraph:
    """One app's graph from its recordings (all of the same app)."""
    first = recordings[0]
    states: dict[str, State] = {}
    events: list[Event] = []
    for rec in recordings:
        for sid, s in rec.states.items():
            states.setdefault(sid, s)
        for e in rec.events:  # numbered across recordings, in order
            events.append(Event(**{**e.__dict__, "index": len(events)}))
    ordered = ordered_states(states, events, first.start)
    screens, screen_of = group_screens(ordered)
    graph = ScreenGraph(
        app=first.app,
        package=first.package,
        width=first.width,
        height=first.height,
        states={s.id: s for s in ordered},
        screens=screens,
        screen_of=screen_of,
        transitions=transitions_of(states, screen_of, events),
        start=first.start or ordered[0].id,
        sources=[r.path for r in recordings],
        gaps=[g for r in recordings for g in r.gaps],
        events=events,
    )
    below = histories(graph)
    graph.transitions = transitions_of(states, screen_of, events, below)
    graph.transient = transient_screens(screen_of, events, below)
    return graph


def ordered_states(states: dict[str, State], events: list[Event], start: str | None) -> list[State]:
    """States in the order the recording first shows them (the start state first)."""
    order: list[str] = [start] if start in states else []
    for e in events:
        for sid in (e.src, e.dst):
            if sid is not None and sid not in order:
                order.append(sid)
    order += [sid for sid in states if sid not in order]
    return [states[sid] for sid in order]
