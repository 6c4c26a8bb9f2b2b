"""Scripted reference solutions: how a person would solve a library task, step by step.

A solution is a function ``(d: Driver) -> None`` registered with ``@reference("task.id")``.
It reads the screen the way an agent does (elements found by text, resource id or content
description) and acts only through AndroidWorld actions that address elements by their index,
so the trajectory it leaves is an ordinary action sequence any environment can replay.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from tasklang.envs.phoneworld.widgets import View

Solution = Callable[["Driver"], None]
REFERENCES: dict[str, Solution] = {}


def reference(task_id: str) -> Callable[[Solution], Solution]:
    def register(fn: Solution) -> Solution:
        if task_id in REFERENCES:
            raise ValueError(f"two reference solutions for `{task_id}`")
        REFERENCES[task_id] = fn
        return fn

    return register


class SolutionError(RuntimeError):
    """A reference solution could not find what it looked for on the screen."""


class Driver:
    """Finds elements on the current screen and sends actions that address them by index.

    ``observe()`` returns the current widget tree; ``step(action)`` carries out one action.
    ``params`` are the instance's parameter values (records as dicts).
    """

    def __init__(
        self,
        observe: Callable[[], View],
        step: Callable[[dict[str, Any]], Any],
        params: dict[str, Any],
        max_steps: int = 200,
    ) -> None:
        self.observe = observe
        self.send = step
        self.params = params
        self.steps = 0
        self.max_steps = max_steps

    # ------------------------------------------------------------ finding
    def find(
        self,
        text: str | None = None,
        rid: str | None = None,
        desc: str | None = None,
        cls: str | None = None,
        contains: str | None = None,
        checked: bool | None = None,
        nth: int = 0,
    ) -> int | None:
        """The element list index of the ``nth`` element matching every given attribute
        (``rid`` may be the part after ``:id/``; text compares case-insensitively)."""
        hits = []
        for i, v in enumerate(self.observe().walk()):
            if text is not None and v.text.casefold() != text.casefold():
                continue
            if contains is not None and contains.casefold() not in v.text.casefold():
                continue
            if rid is not None and v.rid != rid and not v.rid.endswith(f":id/{rid}"):
                continue
            if desc is not None and v.desc.casefold() != desc.casefold():
                continue
            if cls is not None and not v.cls.endswith(cls):
                continue
            if checked is not None and v.checked != checked:
                continue
            right, bottom = v.bounds[2], v.bounds[3]
            if right <= v.bounds[0] or bottom <= v.bounds[1]:
                continue  # not visible
            hits.append(i)
        return hits[nth] if len(hits) > nth else None

    def has(self, **sel: Any) -> bool:
        return self.find(**sel) is not None

    def need(self, **sel: Any) -> int:
        index = self.find(**sel)
        if index is None:
            shown = [v.text or v.desc for v in self.observe().walk() if v.text or v.desc]
            raise SolutionError(f"no element {sel} on the screen; it shows {shown[:30]}")
        return index

    def texts(self, **sel: Any) -> list[str]:
        return [v.text for v in self.observe().walk() if v.text and _matches(v, sel)]

    # ------------------------------------------------------------ acting
    def act(self, action: dict[str, Any]) -> Any:
        self.steps += 1
        if self.steps > self.max_steps:
            raise SolutionError(f"more than {self.max_steps} steps")
        out = self.send(action)
        if getattr(out, "ok", True) is False:
            raise SolutionError(f"step {self.steps}: {action} was refused: {out.info}")
        return out

    def tap(self, **sel: Any) -> None:
        self.act({"action_type": "click", "index": self.need(**sel)})

    def long_press(self, **sel: Any) -> None:
        self.act({"action_type": "long_press", "index": self.need(**sel)})

    def type(self, text: str, clear: bool = True, **sel: Any) -> None:
        """Type into the field ``sel`` picks (it takes the focus); with no ``sel``, into the
        field that has the focus."""
        action: dict[str, Any] = {"action_type": "input_text", "text": text, "clear_text": clear}
        if sel:
            action["index"] = self.need(**sel)
        self.act(action)

    def enter(self) -> None:
        self.act({"action_type": "keyboard_enter"})

    def back(self) -> None:
        self.act({"action_type": "navigate_back"})

    def home(self) -> None:
        self.act({"action_type": "navigate_home"})

    def open(self, label: str) -> None:
        self.act({"action_type": "open_app", "app_name": label})

    def scroll(self, direction: str = "down") -> None:
        self.act({"action_type": "scroll", "direction": direction})

    def scroll_to(self, direction: str = "down", limit: int = 12, **sel: Any) -> int:
        """Scroll until an element matching ``sel`` is visible; its index."""
        for _ in range(limit):
            index = self.find(**sel)
            if index is not None:
                return index
            self.scroll(direction)
        return self.need(**sel)

    def notifications(self) -> None:
        """Pull the notification shade down (a swipe down from the status bar)."""
        self.act({"action_type": "swipe", "direction": "down", "index": self.need(rid="clock")})

    def paste(self, **sel: Any) -> None:
        """Paste the clipboard into the field ``sel`` picks (long press, then "Paste")."""
        self.long_press(**sel)
        self.tap(text="Paste")

    def answer(self, text: str) -> None:
        self.act({"action_type": "answer", "text": text})

    def done(self, status: str = "complete") -> None:
        self.act({"action_type": "status", "goal_status": status})


def _matches(v: View, sel: dict[str, Any]) -> bool:
    rid = sel.get("rid")
    if rid is not None and v.rid != rid and not v.rid.endswith(f":id/{rid}"):
        return False
    pattern = sel.get("pattern")
    return pattern is None or re.search(pattern, v.text) is not None
