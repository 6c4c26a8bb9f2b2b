"""How faithful a reconstructed app is to the recording it came from.

- **Counts**: states, screens, widgets (distinct widget keys per screen, summed),
  transitions (distinct actions per screen), events read and events that made transitions.
- **Next-screen accuracy on held-out transitions**. ``repeated_transition``: for every
  transition (an action on a screen leading to a screen) observed at least twice, its last
  occurrence is held out and predicted from everything else; ``repeated``: the same for every
  action observed at least twice on one screen, whatever it led to (an action that led to
  different screens counts against it); ``repeated_app``: the same for actions observed at least twice anywhere in the app (a
  tab bar's buttons); ``split``: one in five of all transitions (by a hash of their position),
  held out together. A prediction is right when it names the screen the recording reached.
- **Element similarity** (F1 of element multisets): ``replay`` renders every recorded state
  through the phone, parses the XML back and compares class, resource id, text, description
  and bounds with the state as read; ``screen`` compares each state with the state its
  screen shows first (what grouping loses); ``predicted`` compares the state a held-out
  prediction shows with the state the recording reached.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from tasklang.envs.phoneworld.app import Route
from tasklang.envs.phoneworld.reconstruct.graph import (
    ScreenGraph,
    action_keys,
    histories,
    transient_screens,
    transitions_of,
)
from tasklang.envs.phoneworld.reconstruct.model import IN_APP, Event, Node
from tasklang.envs.phoneworld.reconstruct.runtime import ReconPhone, ReconstructedApp
from tasklang.envs.phoneworld.reconstruct.trajectory import parse_xml
from tasklang.verifiers.snapshot import WorldSnapshot

TARGET = 0.9


def usable(graph: ScreenGraph) -> list[Event]:
    """The events that make transitions."""
    out = []
    for e in graph.events:
        if e.kind not in IN_APP or e.src is None or e.dst is None:
            continue
        if not action_keys(graph.states[e.src], e)[0].endswith(":?"):
            out.append(e)
    return out


def counts(graph: ScreenGraph) -> dict[str, int]:
    widgets = sum(len(graph.widgets(s)) for s in graph.screens)
    return {
        "states": len(graph.states),
        "screens": len(graph.screens),
        "widgets": widgets,
        "transitions": len(graph.transitions),
        "events": len(graph.events),
        "events_used": len(usable(graph)),
        "gaps": len(graph.gaps),
    }


def predict_held_out(graph: ScreenGraph, held: list[Event]) -> dict[str, Any]:
    """Predict each held-out event's screen from a graph without any of them, knowing the
    back stack the recording had built up to it."""
    below = histories(graph)
    gone = {e.index for e in held}
    train = [e for e in usable(graph) if e.index not in gone]
    model = replace(
        graph,
        transitions=transitions_of(graph.states, graph.screen_of, train, below),
        transient=transient_screens(graph.screen_of, train, below),
    )
    right, how, sims = 0, Counter[str](), []
    for e in held:
        assert e.src is not None and e.dst is not None
        key, shape = action_keys(graph.states[e.src], e)
        dst, found = model.predict(e.src, key, shape, below.get(e.index, []))
        how[found] += 1
        if dst is not None and graph.screen_of[dst] == graph.screen_of[e.dst]:
            right += 1
        sims.append(similarity(graph.states[dst].nodes, graph.states[e.dst].nodes) if dst else 0.0)
    return {
        "n": len(held),
        "correct": right,
        "accuracy": round(right / len(held), 4) if held else None,
        "found_by": dict(how),
        "predicted_similarity": round(sum(sims) / len(sims), 4) if sims else None,
    }


def last_of_groups(events: list[Event], group: Callable[[Event], str | None]) -> list[Event]:
    """The last event of each group with at least two events."""
    groups: dict[str, list[Event]] = {}
    for e in events:
        g = group(e)
        if g is not None:
            groups.setdefault(g, []).append(e)
    return [max(es, key=lambda e: e.index) for es in groups.values() if len(es) >= 2]


def accuracy(graph: ScreenGraph) -> dict[str, Any]:
    events = usable(graph)

    def on_screen(e: Event) -> str:
        assert e.src is not None
        return f"{graph.screen_of[e.src]} {action_keys(graph.states[e.src], e)[0]}"

    def anywhere(e: Event) -> str | None:
        assert e.src is not None
        key = action_keys(graph.states[e.src], e)[0]
        return None if key == "back" else key

    def with_outcome(e: Event) -> str:
        assert e.dst is not None
        return f"{on_screen(e)} -> {graph.screen_of[e.dst]}"

    split = [e for e in events if hashlib.sha1(str(e.index).encode()).digest()[0] % 5 == 0]
    return {
        "repeated_transition": predict_held_out(graph, last_of_groups(events, with_outcome)),
        "repeated": predict_held_out(graph, last_of_groups(events, on_screen)),
        "repeated_app": predict_held_out(graph, last_of_groups(events, anywhere)),
        "split": predict_held_out(graph, split),
    }


def signature(n: Node, bounds: bool) -> tuple[Any, ...]:
    base = (n.cls, n.rid, n.text, n.desc, n.checked)
    return (*base, n.bounds) if bounds else base


def similarity(a: list[Node], b: list[Node], bounds: bool = False) -> float:
    """F1 of the two states' element multisets (views with a resource id, text or
    description; with ``bounds``, every view and its bounds)."""
    ca = Counter(signature(n, bounds) for n in a if bounds or n.rid or n.text or n.desc)
    cb = Counter(signature(n, bounds) for n in b if bounds or n.rid or n.text or n.desc)
    if not ca and not cb:
        return 1.0
    common = sum((ca & cb).values())
    return round(2 * common / (sum(ca.values()) + sum(cb.values())), 4)


def rendered(graph: ScreenGraph, app: ReconstructedApp, sid: str) -> list[Node]:
    """A recorded state as the runtime shows it, read back from its XML."""
    phone = ReconPhone({app.model: app}, graph.width, graph.height)
    phone.load(WorldSnapshot(), foreground=app.model)
    phone.stacks[app.model] = [Route(graph.screen_of[sid], (("state", sid),))]
    phone.invalidate()
    return parse_xml(phone.xml())


def similarities(graph: ScreenGraph) -> dict[str, Any]:
    app = ReconstructedApp(graph)
    replay, screen = [], []
    for sid, state in graph.states.items():
        replay.append(similarity(rendered(graph, app, sid), state.nodes, bounds=True))
        first = graph.states[graph.screens[graph.screen_of[sid]].states[0]]
        screen.append(similarity(first.nodes, state.nodes))
    return {
        "replay_mean": round(sum(replay) / len(replay), 4),
        "replay_min": min(replay),
        "screen_mean": round(sum(screen) / len(screen), 4),
        "screen_min": min(screen),
    }


def report(graph: ScreenGraph) -> dict[str, Any]:
    """The fidelity report of one reconstructed app."""
    layouts = Counter(s.layout for s in graph.states.values())
    return {
        "app": graph.app,
        "package": graph.package,
        "sources": graph.sources,
        "layout": dict(layouts),
        "counts": counts(graph),
        "accuracy": accuracy(graph),
        "similarity": similarities(graph),
        "gaps": graph.gaps,
    }
