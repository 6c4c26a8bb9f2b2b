"""Trajectories -> SFT datasets: tool-calling conversations over the action set.

Sources of demonstrations:

- ``reference``: PhoneWorld reference solutions (``run_reference``) of task instances;
- ``solver``: action sequences found by the PhoneWorld search solver (``tasklang solve``);
- ``trajectories``: recorded trajectories in the project's JSONL format (PhoneWorld, real
  devices, imported data), kept only when they succeeded unless asked otherwise.

PhoneWorld demonstrations are replayed through :class:`PhoneWorldEnvironment`'s tools, so
their conversations hold exactly the text a policy sees during RL and evaluation. A
conversation is: system prompt; the goal and the first screen; then per step one assistant
tool call and one tool message (the next screen); and a closing assistant message.

Splits are by task family (the task id): no family named for evaluation reaches training.
Mixtures weigh groups of examples by environment and task kind.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from tasklang.policy.actions import action_from_call, tool_call
from tasklang.policy.envs import ENDED, PhoneWorldEnvironment, PhoneWorldSession

SYSTEM_PROMPT = (
    "You operate an Android phone to reach the user's goal. Each screen is a list of UI "
    'elements: [index] class "text" id= desc= flags. Call exactly one tool per turn. '
    "When the goal is reached call status with goal_status complete."
)
CLOSING = "Done."


@dataclass
class Example:
    """One demonstration: a task instance and its conversation."""

    task: str
    kind: str  # app | mini_app | cross_app
    environment: str  # phoneworld | device | imported
    seed: int
    source: str  # reference | solver | trajectory
    goal: str
    messages: list[dict[str, Any]] = field(default_factory=list)
    success: bool = True

    @property
    def family(self) -> str:
        return self.task

    def row(self) -> dict[str, Any]:
        """A flat dataset row (messages as JSON text: tool arguments differ in shape)."""
        row = asdict(self)
        row["family"] = self.family
        row["messages"] = json.dumps(self.messages, ensure_ascii=False)
        return row


def user_prompt(goal: str) -> str:
    """The user turn before the first screen (environments append the screen on reset)."""
    return f"Goal: {goal}"


def prompt_messages(goal: str) -> list[dict[str, Any]]:
    """The conversation's opening turns, as GRPO datasets and evaluation use them."""
    return [
        {"role": "system", "content": SYSTEM_PROMPT},
        {"role": "user", "content": user_prompt(goal)},
    ]


# ---------------------------------------------------------------------------- PhoneWorld demos
def replay(task: str, seed: int, actions: Sequence[dict[str, Any]]) -> Example:
    """The conversation of playing ``actions`` on one PhoneWorld instance through the tools."""
    session = PhoneWorldSession()
    env = PhoneWorldEnvironment(session)
    first = env.reset(task=task, seed=seed) or ""
    ep = session.episode
    messages = prompt_messages(ep.goal)
    messages[-1]["content"] += first
    for action in actions:
        call = tool_call(action)
        fn = call["function"]
        result = getattr(env, fn["name"])(**fn["arguments"])
        messages.append({"role": "assistant", "content": "", "tool_calls": [call]})
        messages.append({"role": "tool", "name": fn["name"], "content": result})
        if result == ENDED:
            break
    messages.append({"role": "assistant", "content": CLOSING})
    verdict = session.verdict()
    return Example(
        task=task,
        kind=ep.compiled.task.kind,
        environment="phoneworld",
        seed=seed,
        source="",
        goal=ep.goal,
        messages=messages,
        success=bool(verdict is not None and verdict.success),
    )


def _actions_of(trajectory: Any) -> list[dict[str, Any]]:
    return [
        s.action.model_dump(exclude_none=True) for s in trajectory.steps if s.action is not None
    ]


def reference_example(task: str, seed: int) -> Example:
    """A demonstration by the task's reference solution."""
    from tasklang.envs.phoneworld.episode import run_reference
    from tasklang.policy.tasks import compiled_task

    _, trajectory = run_reference(compiled_task(task), seed)
    ex = replay(task, seed, _actions_of(trajectory))
    ex.source = "reference"
    return ex


def solver_example(task: str, seed: int, time_limit: float = 20.0) -> Example | None:
    """A demonstration found by the search solver (None when it found nothing)."""
    from tasklang.envs.phoneworld.solver import solve
    from tasklang.policy.tasks import compiled_task

    result = solve(compiled_task(task), seed, time_limit=time_limit)
    if not result.found:
        return None
    ex = replay(task, seed, result.actions)
    ex.source = "solver"
    return ex


def demonstrations(
    tasks: Iterable[str], seeds: Iterable[int], source: str = "reference"
) -> list[Example]:
    """Successful demonstrations of every task on every seed (failures are left out)."""
    seeds = list(seeds)
    out: list[Example] = []
    for task in tasks:
        for seed in seeds:
            ex = (
                reference_example(task, seed)
                if source == "reference"
                else solver_example(task, seed)
            )
            if ex is not None and ex.success:
                out.append(ex)
    return out


# ---------------------------------------------------------------------------- recorded data
def trajectory_example(trajectory: Any, kind: str = "app", source: str = "trajectory") -> Example:
    """The conversation of a recorded trajectory (any environment), screens as element lists."""
    from tasklang.policy.observe import render_observation

    steps = [s for s in trajectory.steps if s.action is not None]
    goal = trajectory.header.goal or trajectory.header.task.id
    messages = prompt_messages(goal)
    if steps:
        messages[-1]["content"] += "\n" + render_observation(steps[0].observation)
    for i, step in enumerate(steps):
        call = tool_call(step.action.model_dump(exclude_none=True))
        messages.append({"role": "assistant", "content": "", "tool_calls": [call]})
        if i + 1 < len(steps):
            content = render_observation(steps[i + 1].observation)
        elif step.action.action_type in ("status", "answer"):
            content = ENDED
        else:
            content = "(no screen recorded)"
        messages.append({"role": "tool", "name": call["function"]["name"], "content": content})
    messages.append({"role": "assistant", "content": CLOSING})
    env = trajectory.header.environment.kind if trajectory.header.environment else "imported"
    seed = trajectory.header.instance.seed if trajectory.header.instance else None
    return Example(
        task=trajectory.header.task.id,
        kind=kind,
        environment=env,
        seed=int(seed or 0),
        source=source,
        goal=goal,
        messages=messages,
    )


def load_trajectories(paths: Iterable[Path], only_successful: bool = True) -> list[Example]:
    """Recorded trajectories as demonstrations; with ``only_successful``, the verifier (or the
    recorded status when the task is unknown) must accept them."""
    from tasklang.verifiers.trajectory import read_trajectory

    out = []
    for path in paths:
        trajectory = read_trajectory(path)
        kind, ok = _kind_and_success(trajectory)
        if only_successful and not ok:
            continue
        ex = trajectory_example(trajectory, kind)
        ex.success = ok
        out.append(ex)
    return out


def _kind_and_success(trajectory: Any) -> tuple[str, bool]:
    from tasklang.policy.tasks import compiled_task
    from tasklang.verifiers.check import check_trajectory

    try:
        compiled = compiled_task(trajectory.header.task.id)
    except Exception:
        return "app", trajectory.final.status == "complete"
    verdict = check_trajectory(compiled, trajectory)
    return compiled.task.kind, bool(verdict.success)


# ---------------------------------------------------------------------------- splits, mixtures
def split_by_family(
    examples: Sequence[Example], eval_families: Iterable[str]
) -> tuple[list[Example], list[Example]]:
    """(train, eval): every example of an evaluated family goes to eval, never to train."""
    held = set(eval_families)
    train = [e for e in examples if e.family not in held]
    test = [e for e in examples if e.family in held]
    return train, test


def mix(
    examples: Sequence[Example],
    environments: dict[str, float] | None = None,
    kinds: dict[str, float] | None = None,
    seed: int = 0,
) -> list[Example]:
    """Reweigh groups: each (environment, kind) group is resampled to weight x its size.

    A weight of 2 repeats a group twice, 0.5 keeps half of it (drawn with ``seed``), 0 drops it;
    groups not named keep weight 1.
    """
    rng = random.Random(seed)
    groups: dict[tuple[str, str], list[Example]] = {}
    for e in examples:
        groups.setdefault((e.environment, e.kind), []).append(e)
    out: list[Example] = []
    for (env, kind), group in sorted(groups.items()):
        weight = (environments or {}).get(env, 1.0) * (kinds or {}).get(kind, 1.0)
        whole, part = divmod(weight * len(group), len(group)) if group else (0, 0)
        out.extend(group * int(whole))
        out.extend(rng.sample(group, round(part)))
    rng.shuffle(out)
    return out


def to_dataset(examples: Sequence[Example]) -> Any:
    """A ``datasets.Dataset`` of conversations (``messages`` and ``tools`` as JSON text)."""
    from datasets import Dataset  # type: ignore[import-untyped]

    from tasklang.policy.actions import tool_schemas

    tools = json.dumps(tool_schemas())
    rows = [dict(e.row(), tools=tools) for e in examples]
    return Dataset.from_list(rows)


def tokenize_for_sft(dataset: Any, tokenizer: Any, max_length: int | None = None) -> Any:
    """Token ids and the assistant mask of every conversation (the SFT trainer's input)."""
    from trl.chat_template_utils import get_training_chat_template, has_generation_markers

    template = tokenizer.chat_template
    if not has_generation_markers(template):
        template = get_training_chat_template(tokenizer) or template

    def encode(row: dict[str, Any]) -> dict[str, Any]:
        out = tokenizer.apply_chat_template(
            json.loads(row["messages"]),
            tools=json.loads(row["tools"]),
            chat_template=template,
            tokenize=True,
            return_dict=True,
            return_assistant_tokens_mask=True,
        )
        ids, mask = list(out["input_ids"]), list(out["assistant_masks"])
        if max_length is not None:
            ids, mask = ids[:max_length], mask[:max_length]
        return {"input_ids": ids, "assistant_masks": mask}

    return dataset.map(encode, remove_columns=dataset.column_names)


def write_jsonl(examples: Sequence[Example], path: Path) -> None:
    """The examples as JSONL, written atomically."""
    from tasklang.policy.io import atomic_write

    atomic_write(path, "".join(json.dumps(e.row(), ensure_ascii=False) + "\n" for e in examples))


def read_jsonl(path: Path) -> list[Example]:
    out = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            row.pop("family", None)
            row.pop("tools", None)
            row["messages"] = json.loads(row["messages"])
            out.append(Example(**row))
        except (json.JSONDecodeError, TypeError, KeyError) as exc:
            raise ValueError(f"{path}:{n}: not a demonstration row: {exc}") from None
    return out


def check_calls(example: Example) -> None:
    """Raise when an assistant turn calls something outside the action set."""
    for m in example.messages:
        for call in m.get("tool_calls") or []:
            action_from_call(call["function"]["name"], call["function"]["arguments"])
