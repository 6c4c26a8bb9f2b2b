"""PhoneWorld as a Gymnasium environment: ``tasklang/PhoneWorld-v0``.

    import gymnasium, tasklang.envs.phoneworld
    env = gymnasium.make("tasklang/PhoneWorld-v0", task="clock.start_timer", seed=3)
    obs, info = env.reset()
    obs, reward, terminated, truncated, info = env.step({"action_type": "navigate_home"})

Actions are AndroidWorld JSON actions (dicts). Observations are dicts: ``ui_xml`` (a
uiautomator dump), ``package`` and ``activity`` (the foreground app), ``goal`` (the task
instance's instruction), and, when asked for, ``ui_elements`` (the element list) and
``screenshot`` (PNG bytes). The reward comes from the task's compiled verifier: sparse (1.0
for success at the end of the episode, else 0.0), or dense (the change of the verifier's
weighted score at every step). An episode ends (``terminated``) when the agent declares a
status or answers, and is truncated at the task's step budget. An invalid action is a no-op
step with the reason in ``info["error"]``.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from tasklang import ir
from tasklang.envs.phoneworld import ENV_ID
from tasklang.envs.phoneworld.episode import Episode
from tasklang.envs.phoneworld.phone import ACTIONS
from tasklang.envs.phoneworld.widgets import elements

__all__ = ["ENV_ID", "PhoneWorldEnv"]


class ActionSpace(gym.spaces.Space[dict[str, Any]]):
    """AndroidWorld JSON actions. ``sample()`` draws a plausible action (for random agents
    and checks): a click on one of the first ``max_index`` elements, a scroll, back, ..."""

    def __init__(self, max_index: int = 60, seed: int | None = None) -> None:
        super().__init__(None, None, seed)
        self.max_index = max_index

    def contains(self, x: Any) -> bool:
        return isinstance(x, dict) and x.get("action_type") in ACTIONS

    def sample(self, mask: Any = None, probability: Any = None) -> dict[str, Any]:
        r = self.np_random
        kind = str(
            r.choice(
                ["click", "click", "click", "long_press", "input_text", "scroll",
                 "navigate_back", "keyboard_enter", "wait", "navigate_home"]
            )
        )  # fmt: skip
        if kind in ("click", "long_press"):
            return {"action_type": kind, "index": int(r.integers(0, self.max_index))}
        if kind == "input_text":
            return {"action_type": kind, "text": str(r.choice(["hello", "42", "Ada"]))}
        if kind == "scroll":
            return {"action_type": kind, "direction": str(r.choice(["up", "down"]))}
        return {"action_type": kind}

    @property
    def is_np_flattenable(self) -> bool:
        return False


class ObservationSpace(gym.spaces.Space[dict[str, Any]]):
    """Dicts with the keys PhoneWorld observations have (texts, and optional extras)."""

    KEYS = ("ui_xml", "package", "activity", "goal")

    def __init__(self, elements: bool = False, screenshot: bool = False) -> None:
        super().__init__(None, None, None)
        self.with_elements = elements
        self.with_screenshot = screenshot

    def contains(self, x: Any) -> bool:
        if not isinstance(x, dict) or not all(isinstance(x.get(k), str) for k in self.KEYS):
            return False
        if self.with_elements and not isinstance(x.get("ui_elements"), list):
            return False
        return not self.with_screenshot or isinstance(x.get("screenshot"), bytes)

    def sample(self, mask: Any = None, probability: Any = None) -> dict[str, Any]:
        return {k: "" for k in self.KEYS}

    @property
    def is_np_flattenable(self) -> bool:
        return False


def load_task(task: str | Path | ir.CompiledTask) -> ir.CompiledTask:
    """A compiled task from a task id of the bundled library, a .task file, or as given."""
    if isinstance(task, ir.CompiledTask):
        return task
    from tasklang.checkcmd import find_tasks

    found = find_tasks(str(task))
    if len(found) != 1:
        raise ValueError(f"`{task}` holds {len(found)} tasks; name one by its id")
    return next(iter(found.values()))


class PhoneWorldEnv(gym.Env[dict[str, Any], dict[str, Any]]):
    metadata = {"render_modes": ["rgb_array"], "render_fps": 2}  # noqa: RUF012

    def __init__(
        self,
        task: str | Path | ir.CompiledTask,
        seed: int | None = None,
        dense: bool = False,
        elements: bool = False,
        screenshots: bool = False,
        record: bool = True,
        render_mode: str | None = None,
        width: int = 1080,
        height: int = 2400,
        density: int = 420,
        randomize: bool = False,
    ) -> None:
        self.compiled = load_task(task)
        self.first_seed = seed
        self.randomize = randomize
        self.dense = dense
        self.with_elements = elements
        self.with_screenshots = screenshots
        self.record = record
        self.render_mode = render_mode
        self.size = (width, height, density)
        self.action_space = ActionSpace()
        self.observation_space = ObservationSpace(elements, screenshots)
        self.episode: Episode | None = None
        self._score = 0.0
        self._resets = 0

    # ------------------------------------------------------------ the Gymnasium API
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            instance_seed = seed
        elif self._resets == 0 and self.first_seed is not None:
            instance_seed = self.first_seed
            self.action_space.seed(self.first_seed)
        else:
            instance_seed = int(self.np_random.integers(0, 2**31 - 1))
        if seed is not None:
            self.action_space.seed(seed)
        self._resets += 1
        width, height, density = self.size
        self.episode = Episode(
            self.compiled, instance_seed, width, height, density, self.record,
            randomize=self.randomize,
        )  # fmt: skip
        self._score = 0.0
        return self._observation(), self._info(None)

    def step(
        self, action: dict[str, Any]
    ) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        ep = self.episode
        if ep is None:
            raise RuntimeError("call reset() before step()")
        if not isinstance(action, dict):
            action = {"action_type": None, "value": repr(action)[:80]}
        outcome = ep.step(action)
        terminated = ep.phone.ended
        truncated = not terminated and len(ep.steps) >= ep.budget
        reward = 0.0
        verdict = None
        if terminated or truncated or self.dense:
            verdict = ep.verdict()
            score = 1.0 if verdict.success else 0.0
            if self.dense:
                score = verdict.score if not (terminated or truncated) else score
                reward, self._score = score - self._score, score
            elif terminated or truncated:
                reward = score
        info = self._info(verdict)
        info["ok"] = outcome.ok
        info["result"] = outcome.info
        if not outcome.ok:
            info["error"] = outcome.info
        return self._observation(), float(reward), terminated, truncated, info

    def render(self) -> np.ndarray[Any, Any] | None:  # type: ignore[override]
        if self.render_mode != "rgb_array" or self.episode is None:
            return None
        import io

        from PIL import Image

        data = self.screenshot()
        return np.asarray(Image.open(io.BytesIO(data)).convert("RGB"))

    # ------------------------------------------------------------ extras
    def screenshot(self) -> bytes:
        return self._ep().screenshot()

    def trajectory_jsonl(self) -> str:
        return self._ep().trajectory().to_jsonl()

    def snapshot(self) -> Any:
        return self._ep().snapshot(), self._score

    def restore(self, saved: Any) -> None:
        state, self._score = saved
        self._ep().restore(state)

    def _ep(self) -> Episode:
        if self.episode is None:
            raise RuntimeError("call reset() first")
        return self.episode

    def _observation(self) -> dict[str, Any]:
        ep = self._ep()
        obs = ep.observation()
        obs["goal"] = ep.goal
        if self.with_elements:
            obs["ui_elements"] = elements(ep.phone.observe())
        if self.with_screenshots:
            obs["screenshot"] = self.screenshot()
        return obs

    def _info(self, verdict: Any) -> dict[str, Any]:
        ep = self._ep()
        assert ep.instance is not None
        info: dict[str, Any] = {
            "task": self.compiled.task.id,
            "seed": ep.instance.seed,
            "params": copy.deepcopy(ep.instance.params),  # callers keep what they are given
            "step": len(ep.steps),
            "budget": ep.budget,
        }
        if verdict is not None:
            info["success"] = verdict.success
            info["score"] = verdict.score
        return info
