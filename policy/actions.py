"""The action set as tools: one method per AndroidWorld action, the same for every environment.

A tool call ``click(index=15)`` is the JSON action ``{"action_type": "click", "index": 15}``.
Environment classes for GRPO inherit :class:`ActionTools` and implement ``_act``; SFT data
takes its tool schemas from the same methods, so training and RL prompts list the same tools.
"""

from __future__ import annotations

import json
import re
from typing import Any

ACTION_NAMES = (
    "answer", "click", "double_tap", "input_text", "keyboard_enter", "long_press",
    "navigate_back", "navigate_home", "open_app", "scroll", "status", "swipe", "wait",
)  # fmt: skip


class ActionTools:
    """The AndroidWorld action set as methods (public methods are the tools, in name order)."""

    def _act(self, action: dict[str, Any]) -> str:
        raise NotImplementedError

    def answer(self, text: str) -> str:
        """
        Answer the user's question and end the episode.

        Args:
            text: The answer.
        """
        return self._act({"action_type": "answer", "text": text})

    def click(self, index: int | None = None, x: int | None = None, y: int | None = None) -> str:
        """
        Tap a UI element by its index, or a screen point.

        Args:
            index: The element's index in the screen list.
            x: Screen x coordinate (instead of an index).
            y: Screen y coordinate (instead of an index).
        """
        return self._act(_point("click", index, x, y))

    def double_tap(
        self, index: int | None = None, x: int | None = None, y: int | None = None
    ) -> str:
        """
        Double-tap a UI element by its index, or a screen point.

        Args:
            index: The element's index in the screen list.
            x: Screen x coordinate (instead of an index).
            y: Screen y coordinate (instead of an index).
        """
        return self._act(_point("double_tap", index, x, y))

    def input_text(self, text: str, index: int | None = None, clear_text: bool = False) -> str:
        """
        Type text into a field.

        Args:
            text: The text to type.
            index: The field's index (the focused field when left out).
            clear_text: Clear the field first.
        """
        action: dict[str, Any] = {"action_type": "input_text", "text": text}
        if index is not None:
            action["index"] = index
        if clear_text:
            action["clear_text"] = True
        return self._act(action)

    def keyboard_enter(self) -> str:
        """
        Press the keyboard's enter key.
        """
        return self._act({"action_type": "keyboard_enter"})

    def long_press(
        self, index: int | None = None, x: int | None = None, y: int | None = None
    ) -> str:
        """
        Long-press a UI element by its index, or a screen point.

        Args:
            index: The element's index in the screen list.
            x: Screen x coordinate (instead of an index).
            y: Screen y coordinate (instead of an index).
        """
        return self._act(_point("long_press", index, x, y))

    def navigate_back(self) -> str:
        """
        Press the system back button.
        """
        return self._act({"action_type": "navigate_back"})

    def navigate_home(self) -> str:
        """
        Go to the home screen.
        """
        return self._act({"action_type": "navigate_home"})

    def open_app(self, app_name: str) -> str:
        """
        Open an app by its name.

        Args:
            app_name: The app's name as the launcher shows it.
        """
        return self._act({"action_type": "open_app", "app_name": app_name})

    def scroll(self, direction: str) -> str:
        """
        Scroll the screen's list.

        Args:
            direction: The direction to scroll. (choices: ["up", "down", "left", "right"])
        """
        return self._act({"action_type": "scroll", "direction": direction})

    def status(self, goal_status: str) -> str:
        """
        End the episode, saying whether the goal is complete or infeasible.

        Args:
            goal_status: The outcome. (choices: ["complete", "infeasible"])
        """
        return self._act({"action_type": "status", "goal_status": goal_status})

    def swipe(self, direction: str) -> str:
        """
        Swipe across the screen.

        Args:
            direction: The direction to swipe. (choices: ["up", "down", "left", "right"])
        """
        return self._act({"action_type": "swipe", "direction": direction})

    def wait(self) -> str:
        """
        Wait for the screen to update.
        """
        return self._act({"action_type": "wait"})


def _point(kind: str, index: int | None, x: int | None, y: int | None) -> dict[str, Any]:
    action: dict[str, Any] = {"action_type": kind}
    if index is not None:
        action["index"] = index
    if x is not None:
        action["x"] = x
    if y is not None:
        action["y"] = y
    return action


class _Schemas(ActionTools):
    def _act(self, action: dict[str, Any]) -> str:
        return ""


def tool_schemas() -> list[dict[str, Any]]:
    """The JSON schemas of the action tools, in the order GRPO lists an environment's tools."""
    from transformers.utils import get_json_schema  # type: ignore[attr-defined]

    tools = _Schemas()
    return [get_json_schema(getattr(tools, name)) for name in ACTION_NAMES]


_ARG_KEYS = ("index", "x", "y", "text", "clear_text", "direction", "app_name", "goal_status")


def tool_call(action: dict[str, Any]) -> dict[str, Any]:
    """The tool call that performs a JSON action."""
    kind = action.get("action_type")
    if kind not in ACTION_NAMES:
        raise ValueError(f"unknown action type `{kind}`")
    args: dict[str, Any] = {}
    for key in _ARG_KEYS:
        value = action.get(key)
        if value is None or (key == "clear_text" and not value):
            continue
        args[key] = int(value) if key in ("x", "y") else value
    return {"type": "function", "function": {"name": kind, "arguments": args}}


def action_from_call(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """The JSON action a tool call stands for (unknown names and arguments are refused)."""
    if name not in ACTION_NAMES:
        raise ValueError(f"unknown tool `{name}`")
    extra = sorted(set(arguments) - set(_ARG_KEYS))
    if extra:
        raise ValueError(f"`{name}` takes no argument `{extra[0]}`")
    action = {"action_type": name}
    action.update({k: v for k, v in arguments.items() if v is not None})
    return action


_CALL = re.compile(r"<tool_call>\s*(\{.*?\})\s*</tool_call>", re.S)


def parse_tool_calls(text: str) -> list[tuple[str, dict[str, Any]]]:
    """Tool calls written in the chat format (``<tool_call>{"name": ..., "arguments": ...}``).

    >>> parse_tool_calls('<tool_call>\\n{"name": "click", "arguments": {"index": 3}}\\n</tool_call>')
    [('click', {'index': 3})]
    """
    calls = []
    for body in _CALL.findall(text):
        try:
            data = json.loads(body)
        except json.JSONDecodeError:
            continue
        if isinstance(data, dict) and isinstance(data.get("name"), str):
            args = data.get("arguments")
            calls.append((data["name"], args if isinstance(args, dict) else {}))
    return calls
