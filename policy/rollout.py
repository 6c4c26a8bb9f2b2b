"""Stepping many environments at once, and greedy multi-turn rollouts of a policy.

A batch of rollouts spends most of its time in the environments when they are real phones (1
to 3 s per action). :func:`run_concurrently` steps every rollout of a batch at the same time
on a thread pool, so a batch of 8 takes about as long as its slowest rollout, not the sum.
Calls to one environment stay in order; different environments never wait for each other.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from tasklang.policy.actions import parse_tool_calls, tool_schemas
from tasklang.policy.data import prompt_messages
from tasklang.policy.envs import ENDED, PhoneEnvironment

T = TypeVar("T")


def run_concurrently(jobs: Sequence[Callable[[], T]], workers: int = 8) -> list[T]:
    """Run ``jobs`` on up to ``workers`` threads; results in job order (exceptions re-raised)."""
    if len(jobs) <= 1 or workers <= 1:
        return [job() for job in jobs]
    with ThreadPoolExecutor(max_workers=min(workers, len(jobs))) as pool:
        futures = [pool.submit(job) for job in jobs]
        return [f.result() for f in futures]


@dataclass
class Rollout:
    """One evaluated episode."""

    task: str
    seed: int
    environment: str
    kind: str = "app"
    messages: list[dict[str, Any]] = field(default_factory=list)
    reward: float | None = None  # None: the episode errored
    steps: int = 0
    finished: bool = False


def _call_tool(env: PhoneEnvironment, name: str, args: dict[str, Any]) -> str:
    fn = getattr(env, name, None)
    if name.startswith("_") or name in ("reset", "get_reward") or not callable(fn):
        return f"error: unknown tool `{name}`"
    try:
        return str(fn(**args))
    except TypeError as exc:
        return f"error: bad arguments for `{name}`: {exc}"


def _caller(env: PhoneEnvironment, name: str, args: dict[str, Any]) -> Callable[[], str]:
    return lambda: _call_tool(env, name, args)


def greedy_rollouts(
    model: Any,
    tokenizer: Any,
    envs: Sequence[PhoneEnvironment],
    rollouts: Sequence[Rollout],
    max_steps: int = 12,
    max_new_tokens: int = 64,
    workers: int = 8,
) -> None:
    """Play every rollout to its end with greedy decoding; environments step concurrently."""
    import torch

    tools = tool_schemas()
    firsts = run_concurrently(
        [
            functools.partial(e.reset, task=r.task, seed=r.seed)
            for e, r in zip(envs, rollouts, strict=True)
        ],
        workers,
    )
    for env, r, first in zip(envs, rollouts, firsts, strict=True):
        r.messages = prompt_messages(env.goal)
        r.messages[-1]["content"] += first or ""
        r.finished = env.errored is not None
    for _ in range(max_steps):
        active = [i for i, r in enumerate(rollouts) if not r.finished]
        if not active:
            break
        texts = [
            tokenizer.apply_chat_template(
                rollouts[i].messages, tools=tools, add_generation_prompt=True, tokenize=False
            )
            for i in active
        ]
        batch = tokenizer(texts, return_tensors="pt", padding=True, add_special_tokens=False)
        with torch.no_grad():
            out = model.generate(
                **batch, max_new_tokens=max_new_tokens, do_sample=False,
                pad_token_id=tokenizer.pad_token_id, eos_token_id=tokenizer.eos_token_id,
            )  # fmt: skip
        replies = tokenizer.batch_decode(
            out[:, batch["input_ids"].shape[1] :], skip_special_tokens=False
        )
        jobs: list[Callable[[], str]] = []
        chosen: list[tuple[int, str, dict[str, Any]]] = []
        for i, reply in zip(active, replies, strict=True):
            reply = reply.split(tokenizer.eos_token)[0].replace(tokenizer.pad_token, "")
            calls = parse_tool_calls(reply)
            r = rollouts[i]
            if not calls:
                r.messages.append({"role": "assistant", "content": reply.strip()})
                r.finished = True
                continue
            name, args = calls[0]
            call = {"type": "function", "function": {"name": name, "arguments": args}}
            r.messages.append({"role": "assistant", "content": "", "tool_calls": [call]})
            chosen.append((i, name, args))
            jobs.append(_caller(envs[i], name, args))
        results = run_concurrently(jobs, workers)
        for (i, name, _), result in zip(chosen, results, strict=True):
            r = rollouts[i]
            r.steps += 1
            r.messages.append({"role": "tool", "name": name, "content": result})
            if result == ENDED or result.startswith("error: the episode"):
                r.finished = True
    for env, r in zip(envs, rollouts, strict=True):
        r.reward = env.get_reward()
