"""The CPU demonstration: a tiny model, SFT on reference demonstrations, then GRPO in PhoneWorld.

Success on held-out instances (seeds never used in training) is measured three times, before
SFT, after SFT and after RL, and printed as one table with 95% Wilson intervals.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tasklang.policy.config import Config
from tasklang.policy.evaluate import evaluate, format_rate, summarize


def _eval(
    config: Config, path: Path, instances: list[tuple[str, int]], out: Path | None
) -> dict[str, Any]:
    from tasklang.policy.sft import load_policy

    model, tokenizer = load_policy(path)
    e = config.eval
    rollouts = evaluate(
        model, tokenizer, instances, "phoneworld", batch_size=e.batch_size,
        max_steps=e.max_steps, max_new_tokens=e.max_new_tokens, trajectories=out,
    )  # fmt: skip
    return summarize(rollouts)


def run_demo(config: Config, say: Callable[[str], None] = print) -> dict[str, Any]:
    """Run the whole demonstration; the measured table and timings."""
    from tasklang.policy.data import demonstrations, split_by_family
    from tasklang.policy.io import parse_seeds
    from tasklang.policy.rl import rl_rows, run_rl
    from tasklang.policy.sft import run_sft
    from tasklang.policy.tasks import resolve
    from tasklang.policy.tiny import build_tiny

    started = time.monotonic()
    timings: dict[str, float] = {}
    d = config.data
    tasks = resolve(d.tasks)
    train_tasks = [t for t in tasks if t not in set(d.eval_families)]
    train_seeds, eval_seeds = parse_seeds(d.train_seeds), parse_seeds(d.eval_seeds)
    overlap = set(train_seeds) & set(eval_seeds)
    if overlap:
        raise ValueError(
            f"train and eval seeds overlap ({sorted(overlap)[:5]}): eval must be held out"
        )
    root = config.resolve(config.sft.output_dir).parent

    t = time.monotonic()
    examples = demonstrations(train_tasks, train_seeds, d.source)
    train, _ = split_by_family(examples, d.eval_families)
    timings["demonstrations"] = time.monotonic() - t
    say(f"demonstrations: {len(train)} successful episodes of {len(train_tasks)} task families")

    m = config.model
    base = build_tiny(
        root / "base", [e.messages for e in train], m.tiny_vocab, m.tiny_hidden, m.tiny_layers,
        m.tiny_heads, config.sft.seed,
    )  # fmt: skip
    instances = [(task, s) for task in tasks for s in eval_seeds]
    stages: dict[str, dict[str, Any]] = {}

    def measure(name: str, path: Path) -> None:
        t = time.monotonic()
        stages[name] = _eval(config, path, instances, root / "trajectories" / name)
        timings[f"eval {name}"] = time.monotonic() - t
        say(f"{name}: {format_rate(stages[name]['overall'])}")

    measure("untrained", base)
    t = time.monotonic()
    sft_path = run_sft(config, train, base, resume=False)
    timings["sft"] = time.monotonic() - t
    measure("after SFT", sft_path)
    t = time.monotonic()
    rows = rl_rows(train_tasks, train_seeds, "phoneworld", seed=config.rl.seed)
    rl_path, history = run_rl(config, rows, sft_path, resume=False)
    say(f"GRPO: {max((int(h.get('step', 0)) for h in history), default=0)} steps")
    timings["rl"] = time.monotonic() - t
    measure("after RL", rl_path)
    timings["total"] = time.monotonic() - started
    rewards = [h["reward"] for h in history if "reward" in h]
    steps = max((int(h.get("step", 0)) for h in history), default=0)
    return {"stages": stages, "timings": timings, "rl_rewards": rewards, "rl_steps": steps,
            "instances": len(instances), "train_examples": len(train)}  # fmt: skip


def table(result: dict[str, Any]) -> str:
    """The before / after-SFT / after-RL table (rows: stages; columns: kinds and overall)."""
    stages = result["stages"]
    kinds = [
        k
        for k in ("app", "mini_app", "cross_app")
        if any(s[k]["episodes"] for s in stages.values())
    ]
    cols = [*kinds, "overall"]
    rows = [["stage", *cols]]
    for name, summary in stages.items():
        rows.append([name, *(format_rate(summary[c]) for c in cols)])
    widths = [max(len(r[i]) for r in rows) for i in range(len(cols) + 1)]
    lines = [
        "  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)).rstrip() for r in rows
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)
