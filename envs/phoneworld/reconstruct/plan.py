"""Reference solutions of library tasks on reconstructed apps, found through the screen graph.

A reference does not know the reconstructed app's screens by heart: ``Player.reach`` plans a
path of recorded actions (breadth first over the graph's transitions) from the screen shown
to a screen the binding names (the list it binds, by the texts its rule needs), then taps the
recorded widgets by their labels on the live screen, planning again after every step, since
where Back or Cancel leads depends on the back stack. What a reference reads (a list's rows)
it reads from the screen it is shown, as an agent would.

``REFERENCES`` maps a task id to its reference; the other library tasks of bound app models
run on hybrid apps (``hybridplan.HYBRID``), and ``NOT_COVERED`` would say why for any task
that neither can do.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tasklang.envs.phoneworld.reconstruct.graph import ScreenGraph


class PlanError(RuntimeError):
    """No recorded path, or a widget the plan needs is not on the screen."""


def plan(graph: ScreenGraph, screen: str, goal: set[str]) -> list[str] | None:
    """Action keys (``click:...``, ``back``) that the recording saw lead from ``screen`` to
    one of the ``goal`` screens, fewest first; ``None`` when no recorded path does."""
    edges: dict[str, list[tuple[str, str]]] = {}
    for (src, key), t in graph.transitions.items():
        if key.startswith("click:") or key == "back":
            for dst in t.targets:
                edges.setdefault(src, []).append((key, graph.screen_of[dst]))
    seen: dict[str, list[str]] = {screen: []}
    todo = deque([screen])
    while todo:
        here = todo.popleft()
        if here in goal:
            return list(seen[here])
        for key, dst in edges.get(here, ()):
            if dst not in seen:
                seen[dst] = [*seen[here], key]
                todo.append(dst)
    return None


def widget_of(key: str) -> tuple[str, str, str]:
    """(class, resource id, label) of a ``click:`` key (see ``graph.widget_keys``)."""
    body = key.split(":", 1)[1]
    cls, _, rest = body.partition("#")
    rid, _, label = rest.partition("|")
    return cls, rid, label


@dataclass
class Player:
    """Plays a reconstructed app through the Gymnasium API (made with ``elements=True``)."""

    env: Any  # the (possibly wrapped) ReconstructedEnv
    obs: dict[str, Any]
    info: dict[str, Any]
    reward: float = 0.0
    done: bool = False

    @property
    def core(self) -> Any:
        return self.env.unwrapped

    @property
    def params(self) -> dict[str, Any]:
        return dict(self.info.get("params", {}))

    def act(self, action: dict[str, Any]) -> None:
        if self.done:
            raise PlanError("the episode has ended")
        params = self.info.get("params")
        self.obs, reward, terminated, truncated, info = self.env.step(action)
        self.info = {**info, "params": params}
        self.reward += float(reward)
        self.done = bool(terminated or truncated)

    def tap(self, text: str | None = None, desc: str | None = None) -> None:
        """Tap the first element showing ``text`` (or with description ``desc``)."""
        for e in self.obs["ui_elements"]:
            if (text is not None and e["text"] == text) or (
                desc is not None and e["content_desc"] == desc
            ):
                self.act({"action_type": "click", "index": e["index"]})
                return
        raise PlanError(f"no element {text or desc!r} on screen {self.info.get('screen')}")

    def tap_key(self, key: str) -> None:
        """Tap the widget a recorded ``click:`` key names: by its text or description, or
        by its resource id when the key has no label (an id unique on its screen)."""
        cls, rid, label = widget_of(key)
        elements = self.obs["ui_elements"]
        found = [
            e for e in elements
            if e["class_name"] == cls
            and (label in (e["text"], e["content_desc"]) if label else e["resource_id"] == rid)
        ] or [  # a row keyed by its texts together: its first text, which the tap reaches
            e for e in elements if label and e["text"] and label.startswith(e["text"] + " ")
        ]  # fmt: skip
        if not found:
            raise PlanError(f"no {cls} {label or rid!r} on screen {self.info.get('screen')}")
        self.act({"action_type": "click", "index": found[0]["index"]})

    def shows(self, label: str) -> bool:
        return any(label in (e["text"], e["content_desc"]) for e in self.obs["ui_elements"])

    def reach(self, has: list[str], limit: int = 12) -> None:
        """Go to a screen showing all of ``has`` by recorded actions, replanning each step."""
        graph: ScreenGraph = self.core.graph

        def showing(sid: str) -> bool:
            nodes = graph.states[sid].nodes
            return set(has) <= {n.text for n in nodes} | {n.desc for n in nodes}

        goal = {sc.id for sc in graph.screens.values() if any(map(showing, sc.states))}
        for _ in range(limit):
            if all(self.shows(t) for t in has):
                return
            keys = plan(graph, str(self.info["screen"]), goal)
            if not keys:
                raise PlanError(
                    f"no recorded path from {self.info['screen']} to a screen with {has}"
                )
            key = keys[0]
            if key == "back":
                self.act({"action_type": "navigate_back"})
                continue
            self.tap_key(key)
        raise PlanError(f"did not reach a screen with {has} in {limit} steps")

    def rows(self, texts: int) -> list[list[str]]:
        """The texts of every clickable row holding ``texts`` texts (or fewer, down to two),
        in screen order: a bound list as the screen shows it."""
        out: list[list[str]] = []
        root = ET.fromstring(self.obs["ui_xml"].split("?>", 1)[-1])
        for node in root.iter("node"):
            kids = list(node)
            shown = [k.get("text", "") for k in kids if k.get("text")]
            whole = node.get("clickable") == "true" and kids and len(shown) == len(kids)
            if whole and 2 <= len(shown) <= texts:
                out.append(shown)
        return out

    def status(self, goal_status: str) -> None:
        self.act({"action_type": "status", "goal_status": goal_status})

    def answer(self, text: str) -> None:
        self.act({"action_type": "answer", "text": text})


Reference = Callable[[Player], None]
REFERENCES: dict[str, Reference] = {}


def reference(task: str) -> Callable[[Reference], Reference]:
    def register(f: Reference) -> Reference:
        REFERENCES[task] = f
        return f

    return register


def bound_list(p: Player) -> list[str]:
    """The texts the binding's list rule needs, to find that list's screen."""
    binding = p.core.binding
    rule = next(r for r in binding.screens if r.items is not None)
    return list(rule.has)


@reference("messages.delete_conversation")
def delete_conversation(p: Player) -> None:
    p.reach(bound_list(p))
    p.tap(text=str(p.params["who"]))  # the conversation's row
    p.tap(desc="Delete")
    p.tap(text="Yes")
    p.status("complete")


@reference("contacts.delete_missing_contact")
def delete_missing_contact(p: Player) -> None:
    p.reach(bound_list(p))
    ghost = str(p.params["ghost"])
    if p.shows(ghost):
        raise PlanError(f"{ghost} is in the contact list: the task's premise does not hold")
    p.status("infeasible")


@reference("phone.talk_time_today")
def talk_time_today(p: Player) -> None:
    p.reach(bound_list(p))
    who = str(p.params["who"])
    today = p.core.phone.clock.strftime("%d.%m")  # the phone's date, as its list shows dates
    total = 0
    for texts in p.rows(3):
        if texts[0] == who and texts[1] == today and len(texts) == 3:
            minutes, _, seconds = texts[2].partition(":")
            total += int(minutes) * 60 + int(seconds or 0)
    p.answer(f"{total // 60}m {total % 60}s")


# Library tasks of a bound app model that neither the recording (``REFERENCES``) nor a
# hybrid app (``hybridplan.HYBRID``, which says what the recording lacks for each task it
# covers) can do, with the reason. None at present: every task of the three bound models runs.
NOT_COVERED: dict[str, str] = {}
