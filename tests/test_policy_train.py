"""Policy training on a tiny local model: SFT with checkpoint resume, mixed GRPO with two
environment classes and rewards split per environment, concurrent tool calls, the Ray pool."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("trl")
pytest.importorskip("datasets")

os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")

from tasklang.policy.config import parse_config
from tasklang.policy.data import demonstrations
from tasklang.policy.envs import Turn, phoneworld_device

WIFI = "androidworld.system_wifi_turn_on"


class SlowSession:
    """A session whose every step takes ``latency`` seconds (a phone's pace) and shows one line."""

    def __init__(self, latency: float = 0.2) -> None:
        self.latency = latency

    def reset(self, task: str, seed: int) -> Turn:
        time.sleep(self.latency)
        return Turn("screen start", goal="wait")

    def step(self, action: dict[str, Any]) -> Turn:
        time.sleep(self.latency)
        return Turn("screen next")

    def verdict(self) -> Any:
        return None


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tasklang.policy.tiny import build_tiny

    demos = demonstrations([WIFI], [0, 1])
    return build_tiny(
        tmp_path_factory.mktemp("tiny"),
        [d.messages for d in demos],
        vocab_size=600,
        hidden=32,
        layers=1,
        heads=2,
    )


def _config(tmp: Path, **sections: dict[str, Any]) -> Any:
    body: dict[str, Any] = {"model": {"tiny": True}}
    body.update(sections)
    return parse_config(body, tmp / "cfg.toml")


def test_sft_resumes_from_the_last_checkpoint_after_an_interruption(
    tiny: Path, tmp_path: Path
) -> None:
    from transformers import TrainerCallback

    from tasklang.policy.sft import latest_checkpoint, run_sft

    class Interrupt(TrainerCallback):  # type: ignore[misc]
        def on_step_end(self, args: Any, state: Any, control: Any, **kw: Any) -> None:
            if state.global_step == 3:
                raise KeyboardInterrupt

    cfg = _config(
        tmp_path, sft={"output_dir": "out", "max_steps": 4, "save_steps": 2, "logging_steps": 1}
    )
    train = demonstrations([WIFI], [0, 1])
    with pytest.raises(KeyboardInterrupt):
        run_sft(cfg, train, tiny, callbacks=[Interrupt()])
    ckpt = latest_checkpoint(tmp_path / "out")
    assert ckpt is not None and ckpt.name == "checkpoint-2"
    final = run_sft(cfg, train, tiny)
    import json

    info = json.loads((final / "tasklang_sft.json").read_text())
    assert info["resumed_from"].endswith("checkpoint-2") and info["steps"] == 4
    state = json.loads((tmp_path / "out" / "checkpoint-4" / "trainer_state.json").read_text())
    steps_logged = [h["step"] for h in state["log_history"] if "loss" in h]
    assert steps_logged == [1, 2, 3, 4]  # steps 1-2 from the first run, 3-4 after resuming


def test_mixed_grpo_runs_both_environments_with_rewards_split(tiny: Path, tmp_path: Path) -> None:
    from tasklang.policy.rl import rl_rows, run_rl

    rows = rl_rows([WIFI], [5], "mixed", "1:1")
    assert [r["environment"] for r in rows] == ["phoneworld", "device"]
    cfg = _config(tmp_path, rl={
        "output_dir": "rl", "mode": "mixed", "max_steps": 1, "batch_size": 4, "num_generations": 2,
        "max_completion_length": 24, "max_tool_calls": 1, "save_steps": 1,
    })  # fmt: skip
    # the device class drives DeviceEnv (probe commands, screen points) with PhoneWorld as the phone
    final, history = run_rl(cfg, rows, tiny, device_factory=phoneworld_device)
    logged = history[0]
    assert (
        "rewards/PhoneWorldEnvironment/mean" in logged
        and "rewards/DeviceEnvironment/mean" in logged
    )
    assert (final / "config.json").is_file() and (tmp_path / "rl" / "checkpoint-1").is_dir()


def test_tool_calls_of_a_batch_run_concurrently(tiny: Path, tmp_path: Path) -> None:
    from tasklang.policy.rl import build_trainer, rl_rows

    rows = rl_rows([WIFI], [1, 2, 3, 4], "device")
    cfg = _config(tmp_path, rl={"output_dir": "rl", "mode": "device", "batch_size": 8, "num_generations": 2,
                                "max_completion_length": 48, "max_tool_calls": 1})  # fmt: skip
    trainer = build_trainer(cfg, rows, tiny, device_factory=SlowSession)
    # resets: the batch's episodes start concurrently, on the instances TRL then hands out
    batch = [dict(r, environment="device") for r in rows for _ in range(2)]
    trainer._prefetch_resets(batch)
    envs = trainer._environment_pool["device"][:8]
    starts = [next(c for c in e.calls if c[0] == "reset") for e in envs]
    assert max(s[1] for s in starts) < min(s[2] for s in starts)
    assert all(e.reset(**row) == "\nscreen start" for e, row in zip(envs, batch, strict=True))
    assert all(sum(1 for c in e.calls if c[0] == "reset") == 1 for e in envs)  # not started twice
    trainer._sync_tool_dicts = [{"wait": e.wait} for e in envs]
    trainer._async_tool_dicts = [{} for _ in envs]
    trainer._batch_environments = ["device"] * 8
    call = {"type": "function", "function": {"name": "wait", "arguments": {}}}
    completions = [[{"role": "assistant", "content": "", "tool_calls": [call]}] for _ in envs]
    prompts = [[{"role": "user", "content": "Goal: x"}] for _ in envs]
    ids = trainer.processing_class("Goal: x")["input_ids"]
    out = trainer._tool_call_loop(
        prompts, [list(ids)] * 8, [[1, 2]] * 8, completions, None, None, {}
    )
    tool_mask, completions, _, _, count, failures, _ = out
    assert count == 8 and failures == 0
    assert all(
        c[1] == {"role": "tool", "name": "wait", "content": "screen next"} for c in completions
    )
    assert all(0 in m for m in tool_mask)  # tool tokens are masked out of the loss
    spans = [next(c for c in e.calls if c[0] == "wait") for e in envs]
    # every step started before any finished: the 8 calls overlapped in time
    assert max(s[1] for s in spans) < min(s[2] for s in spans)
    assert len({s[3] for s in spans}) == 8  # one thread per environment


def test_ray_pool_hosts_phoneworld_episodes(tmp_path: Path) -> None:
    ray = pytest.importorskip("ray")
    from tasklang.policy.envs import environment_classes
    from tasklang.policy.pool import RayPool

    pool = RayPool(1, init={"num_cpus": 1, "include_dashboard": False, "log_to_driver": False})
    try:
        env = environment_classes(pool=pool)["phoneworld"]()
        first = env.reset(task=WIFI, seed=0) or ""
        assert "Settings" in first
        assert "Network & internet" in env.open_app("Settings")
        assert env.status("complete") == "the episode has ended"
        assert env.get_reward() == 0.0
        assert pool.counts() == [1]
    finally:
        pool.shutdown()
        ray.shutdown()


def test_evaluation_plays_held_out_instances_and_writes_trajectories(
    tiny: Path, tmp_path: Path
) -> None:
    from tasklang.policy.evaluate import evaluate, summarize
    from tasklang.policy.sft import load_policy
    from tasklang.verifiers.trajectory import read_trajectory

    model, tokenizer = load_policy(tiny)
    rollouts = evaluate(
        model, tokenizer, [(WIFI, 1000), (WIFI, 1001)], batch_size=2, max_steps=2,
        max_new_tokens=8, trajectories=tmp_path / "traj",
    )  # fmt: skip
    assert [r.seed for r in rollouts] == [1000, 1001]
    assert all(
        r.reward in (0.0, 1.0) and r.messages[1]["content"].startswith("Goal: ") for r in rollouts
    )
    summary = summarize(rollouts)
    assert summary["app"]["episodes"] == 2 and summary["app"]["errored"] == 0
    written = read_trajectory(tmp_path / "traj" / WIFI / "seed-1001.jsonl")
    assert written.header.task.id == WIFI and written.header.instance.seed == 1001


def test_a_time_budget_ends_training_after_the_current_step(tiny: Path, tmp_path: Path) -> None:
    import json

    from tasklang.policy.sft import run_sft

    cfg = _config(tmp_path, sft={"output_dir": "out", "max_steps": 50, "time_limit": 1e-6})
    final = run_sft(cfg, demonstrations([WIFI], [0]), tiny)
    assert json.loads((final / "tasklang_sft.json").read_text())["steps"] == 1
    assert (tmp_path / "out" / "checkpoint-1").is_dir()  # the stop saved a checkpoint
