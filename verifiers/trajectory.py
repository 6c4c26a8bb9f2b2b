"""The trajectory format: one JSON object per line (JSONL), versioned, with a JSON Schema.

Line 1 is the header, then one ``step`` line per agent action, then one ``final`` line::

    {"type": "header", "format": "tasklang.trajectory", "version": 1, "task": {...}, ...}
    {"type": "step", "index": 0, "observation": {...}, "action": {"action_type": "click", ...}}
    {"type": "final", "status": "complete", "answer": null, "snapshot": {...}}

Actions are the AndroidWorld JSON action set. Observations carry the UI as uiautomator XML
and/or a UI element list, an optional screenshot file (relative to the trajectory file),
and the foreground package and activity. Steps may carry a full world snapshot taken after
the action. Whatever a source had that this format has no field for is kept in ``extra``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, RootModel, ValidationError

from tasklang.verifiers.snapshot import UIElement, WorldSnapshot

FORMAT = "tasklang.trajectory"
VERSION = 1
ACTION_TYPES = (
    "click", "double_tap", "long_press", "input_text", "scroll", "swipe", "navigate_back",
    "navigate_home", "keyboard_enter", "open_app", "wait", "status", "answer",
)  # fmt: skip
# the actions that end an episode with a report (done, infeasible, an answer): nothing on the
# phone is touched
REPORTS = ("status", "answer")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class TaskRef(_Strict):
    id: str
    revision: int | None = None


class InstanceRef(_Strict):
    """The task instance the episode ran: parameter values and the seed that chose them."""

    seed: int | None = None
    params: dict[str, Any] = Field(default_factory=dict)
    initial: WorldSnapshot | None = None


class Screen(_Strict):
    width: int
    height: int
    density: int | None = None


class Environment(_Strict):
    kind: Literal["phoneworld", "device", "imported"] = "imported"
    name: str | None = None
    serial: str | None = None
    model: str | None = None
    sdk: int | None = None
    screen: Screen | None = None


class SourceRef(_Strict):
    format: str
    path: str | None = None


class Header(_Strict):
    type: Literal["header"] = "header"
    format: Literal["tasklang.trajectory"] = "tasklang.trajectory"
    version: Literal[1] = 1
    task: TaskRef
    goal: str | None = None
    instance: InstanceRef = Field(default_factory=InstanceRef)
    environment: Environment = Field(default_factory=Environment)
    source: SourceRef | None = None
    created: str | None = None
    extra: dict[str, Any] = Field(default_factory=dict)


class Action(_Strict):
    """An AndroidWorld JSON action."""

    action_type: Literal[
        "click", "double_tap", "long_press", "input_text", "scroll", "swipe", "navigate_back",
        "navigate_home", "keyboard_enter", "open_app", "wait", "status", "answer",
    ]  # fmt: skip
    index: int | None = None
    x: float | None = None
    y: float | None = None
    text: str | None = None
    clear_text: bool | None = None
    direction: Literal["up", "down", "left", "right"] | None = None
    app_name: str | None = None
    goal_status: Literal["complete", "infeasible"] | None = None


class Observation(_Strict):
    ui_xml: str | None = None
    ui_elements: list[UIElement] | None = None
    screenshot: str | None = None
    package: str | None = None
    activity: str | None = None
    time: str | None = None


class Step(_Strict):
    type: Literal["step"] = "step"
    index: int
    observation: Observation = Field(default_factory=Observation)
    action: Action | None = None
    snapshot: WorldSnapshot | None = None
    thought: str | None = None
    extra: dict[str, Any] = Field(default_factory=dict)


class Final(_Strict):
    type: Literal["final"] = "final"
    status: Literal["complete", "infeasible"] | None = None
    answer: str | None = None
    snapshot: WorldSnapshot | None = None
    error: str | None = None
    extra: dict[str, Any] = Field(default_factory=dict)


class Trajectory(_Strict):
    """A whole trajectory, as read from (or written to) JSONL."""

    header: Header
    steps: list[Step] = Field(default_factory=list)
    final: Final = Field(default_factory=Final)
    path: str | None = Field(default=None, exclude=True)

    def to_jsonl(self) -> str:
        lines = [self.header.model_dump_json(exclude_none=True)]
        lines += [s.model_dump_json(exclude_none=True) for s in self.steps]
        lines.append(self.final.model_dump_json(exclude_none=True))
        return "\n".join(lines) + "\n"

    @property
    def status(self) -> str | None:
        """The declared status: the final record's, else the last `status` action's."""
        if self.final.status is not None:
            return self.final.status
        for step in reversed(self.steps):
            if step.action and step.action.action_type == "status":
                return step.action.goal_status
        return None

    @property
    def answer(self) -> str | None:
        if self.final.answer is not None:
            return self.final.answer
        for step in reversed(self.steps):
            if step.action and step.action.action_type == "answer":
                return step.action.text
        return None


class TrajectoryLine(RootModel[Annotated[Header | Step | Final, Field(discriminator="type")]]):
    """One line of a trajectory file: a header, a step or the final record."""

    model_config = ConfigDict(title="tasklang trajectory line")


class TrajectoryError(ValueError):
    """A trajectory file that cannot be read; says which file and line."""

    def __init__(self, path: str, line: int | None, message: str) -> None:
        where = f"{path}:{line}" if line is not None else path
        super().__init__(f"{where}: {message}")
        self.path, self.line, self.message = path, line, message


def read_trajectory(path: Path) -> Trajectory:
    """Read and validate a JSONL trajectory (raises TrajectoryError)."""
    display = str(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise TrajectoryError(display, None, f"cannot read: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise TrajectoryError(display, line, "not UTF-8 text") from None
    return parse_trajectory(text, display)


def parse_trajectory(text: str, path: str = "<trajectory>") -> Trajectory:
    """Parse JSONL text into a Trajectory (raises TrajectoryError with the line)."""
    records: list[tuple[int, dict[str, Any]]] = []
    for number, line in enumerate(text.split("\n"), start=1):
        line = line.removesuffix("\r")
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except (ValueError, RecursionError) as exc:  # JSONDecodeError is a ValueError
            if isinstance(exc, json.JSONDecodeError):
                reason = exc.msg
            elif isinstance(exc, RecursionError):
                reason = "nested too deeply"
            else:
                reason = "a number is too long"
            raise TrajectoryError(path, number, f"not valid JSON: {reason}") from None
        if not isinstance(record, dict):
            raise TrajectoryError(path, number, "each line must be a JSON object")
        records.append((number, record))
    if not records:
        raise TrajectoryError(path, None, "empty trajectory: no header line")
    header = _model(Header, records[0], path, "header")
    steps: list[Step] = []
    final: Final | None = None
    for number, record in records[1:]:
        kind = record.get("type")
        if final is not None:
            raise TrajectoryError(path, number, "a line follows the `final` record")
        if kind == "step":
            step = _model(Step, (number, record), path, "step")
            if step.index != len(steps):
                raise TrajectoryError(
                    path, number, f"step index {step.index}, expected {len(steps)}"
                )
            steps.append(step)
        elif kind == "final":
            final = _model(Final, (number, record), path, "final")
        else:
            raise TrajectoryError(
                path,
                number,
                f"unknown record type {json.dumps(kind)[:40]}; expected `step` or `final`",
            )
    if final is None:
        raise TrajectoryError(path, records[-1][0], "truncated: no `final` record")
    return Trajectory(header=header, steps=steps, final=final, path=path)


def _model(model: type[Any], item: tuple[int, dict[str, Any]], path: str, what: str) -> Any:
    number, record = item
    if what == "header" and record.get("type") != "header":
        raise TrajectoryError(path, number, "the first line must be the `header` record")
    try:
        return model.model_validate(record)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(p) for p in first["loc"])
        raise TrajectoryError(path, number, f"bad {what}: `{loc}`: {first['msg']}") from None
    except RecursionError:
        raise TrajectoryError(path, number, f"bad {what}: nested too deeply") from None
