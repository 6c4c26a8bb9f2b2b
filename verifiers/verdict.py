"""Verdicts: whether an episode succeeded, its score, and why, clause by clause."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from tasklang.source import Span


class Evidence(BaseModel):
    """What decided a clause: a record, a UI node, a step, a change, or a value."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["record", "ui", "step", "change", "value", "missing"]
    detail: str
    app: str | None = None
    collection: str | None = None
    record: dict[str, Any] | None = None
    step: int | None = None
    node: dict[str, Any] | None = None


class ClauseResult(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    role: Literal["goal", "guard", "safety"]
    kind: str
    passed: bool
    weight: float = 1.0
    subgoal: str | None = None
    summary: str
    evidence: list[Evidence] = Field(default_factory=list)
    span: Span | None = None


class Verdict(BaseModel):
    """The result of checking one episode against one task instance."""

    model_config = ConfigDict(extra="forbid", title="tasklang verdict")

    format: Literal["tasklang.verdict"] = "tasklang.verdict"
    version: Literal[1] = 1
    task: str
    trajectory: str | None = None
    success: bool
    score: float
    status: str | None = None
    expected_status: str | None = None
    clauses: list[ClauseResult] = Field(default_factory=list)
    safety_violations: list[str] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
