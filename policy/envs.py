"""Environments for GRPO: one class per environment kind, whose public methods are the actions.

TRL's ``GRPOTrainer`` builds one instance per rollout through ``environment_factory`` (a dict
``{"phoneworld": ..., "device": ...}`` routes each example by its ``environment`` column),
calls ``reset(**example)`` and then the tool methods the model calls, and scores the rollout
with ``get_reward()``: the compiled verifier's verdict (1.0 success, 0.0 failure), or ``None``
when the episode errored (a lost device, a failed setup): such a rollout carries no reward.

Both classes drive a :class:`Session`, the small interface an episode backend offers:
``reset(task, seed) -> Turn``, ``step(action) -> Turn``, ``verdict() -> Verdict | None``.
PhoneWorld sessions run in process (or in Ray actors, see ``policy/pool.py``); device sessions
come from a factory named in the configuration (a real device backend or a replay of one).
"""

from __future__ import annotations

import importlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from tasklang.policy.actions import ActionTools
from tasklang.verifiers.verdict import Verdict

ENDED = "the episode has ended"


@dataclass
class Turn:
    """What an agent sees after a reset or an action."""

    observation: str  # the compact element list
    goal: str = ""
    done: bool = False  # the episode ended (status / answer / step budget)
    error: str | None = None  # the action was refused (the step still counts)


class Session(Protocol):
    """One episode backend: a PhoneWorld episode, a device connection, a replay."""

    def reset(self, task: str, seed: int) -> Turn: ...

    def step(self, action: dict[str, Any]) -> Turn: ...

    def verdict(self) -> Verdict | None: ...


class EpisodeError(RuntimeError):
    """The episode could not go on (setup failed, device lost): it gets no reward."""


def _instance_key(example: dict[str, Any]) -> tuple[str, int]:
    return str(example.get("task")), int(example.get("seed") or 0)


def reward_of(verdict: Verdict | None) -> float | None:
    """The reward of a finished episode: 1.0 success, 0.0 failure, None without a verdict."""
    if verdict is None:
        return None
    return 1.0 if verdict.success else 0.0


class PhoneWorldSession:
    """A PhoneWorld episode in this process."""

    def __init__(self, randomize: bool = False, latency: float = 0.0) -> None:
        self.randomize = randomize
        self.latency = latency  # simulated per-step delay (benchmarks of concurrent rollouts)
        self.episode: Any = None

    def reset(self, task: str, seed: int) -> Turn:
        from tasklang.envs.phoneworld.episode import Episode
        from tasklang.policy.tasks import compiled_task

        self.episode = Episode(compiled_task(task), seed, randomize=self.randomize)
        return Turn(self._screen(), goal=self.episode.goal)

    def step(self, action: dict[str, Any]) -> Turn:
        ep = self.episode
        if ep is None:
            raise EpisodeError("step before reset")
        if self.latency:
            time.sleep(self.latency)
        if ep.done:
            return Turn(ENDED, ep.goal, done=True)
        outcome = ep.step(action)
        error = None if outcome.ok else str(outcome.info)
        return Turn(self._screen(), ep.goal, done=ep.done, error=error)

    def verdict(self) -> Verdict | None:
        if self.episode is None:
            return None
        verdict: Verdict = self.episode.verdict()
        return verdict

    def trajectory_jsonl(self) -> str:
        """The episode's trajectory in the project's JSONL format."""
        text: str = self.episode.trajectory().to_jsonl()
        return text

    def _screen(self) -> str:
        from tasklang.envs.phoneworld.widgets import elements
        from tasklang.policy.observe import render_dicts

        ep = self.episode
        package, activity = ep.phone.current_activity()
        return render_dicts(elements(ep.tree()), package, activity)


class DeviceSession:
    """A device episode through ``tasklang.envs.device``'s ``DeviceEnv``.

    ``make_env(task, seed)`` builds the environment: a phone over adb (:func:`adb_device`), a
    replay of recorded commands, or PhoneWorld acting as the phone
    (:func:`phoneworld_device`). An episode the environment ends in an error (a timeout, a
    dropped connection, garbage output) raises :class:`EpisodeError`, so it gets no reward; a
    verdict the phone cannot decide is None for the same reason.
    """

    def __init__(self, make_env: Callable[[str, int], Any]) -> None:
        self.make_env = make_env
        self.env: Any = None

    def reset(self, task: str, seed: int) -> Turn:
        self.env = self.make_env(task, seed)
        obs, _ = self.env.reset(seed=seed)
        if self.env.error:
            raise EpisodeError(self.env.error)
        return Turn(self._screen(obs), goal=str(obs.get("goal") or ""))

    def step(self, action: dict[str, Any]) -> Turn:
        env = self.env
        if env is None:
            raise EpisodeError("step before reset")
        obs, _, terminated, truncated, info = env.step(action)
        if env.error:
            raise EpisodeError(env.error)
        done = bool(terminated or truncated)
        return Turn(
            ENDED if done else self._screen(obs),
            str(obs.get("goal") or ""),
            done=done,
            error=info.get("error"),
        )

    def verdict(self) -> Verdict | None:
        env = self.env
        dv = getattr(env, "verdict", None) if env is not None else None
        if env is None or env.error or dv is None or dv.success is None:
            return None
        verdict: Verdict = dv.verdict.model_copy(update={"success": dv.success})
        return verdict

    def trajectory_jsonl(self) -> str:
        """The episode's trajectory in the project's JSONL format (kind ``device``)."""
        text: str = self.env.traj.to_jsonl()
        return text

    @staticmethod
    def _screen(obs: dict[str, Any]) -> str:
        from tasklang.policy.observe import render_observation
        from tasklang.verifiers.trajectory import Observation

        return render_observation(
            Observation(
                ui_xml=obs.get("ui_xml"), package=obs.get("package"), activity=obs.get("activity")
            )
        )


def phoneworld_device() -> DeviceSession:
    """A device session whose phone is PhoneWorld: every action, observation, probe and
    verdict goes through the device backend's code (screen points, swipes, probe commands and
    their output formats), so a run exercises the real-device path without a phone."""

    def make(task: str, seed: int) -> Any:
        from tasklang.envs.device.env import DeviceEnv
        from tasklang.envs.device.phoneworld import PhoneWorldDriver, PhoneWorldTransport
        from tasklang.envs.phoneworld.episode import Episode
        from tasklang.policy.tasks import compiled_task

        compiled = compiled_task(task)
        ep = Episode(compiled, seed)
        transport = PhoneWorldTransport(compiled, ep.phone.world, ep.xml)
        return DeviceEnv(
            compiled, PhoneWorldDriver(ep), transport,
            setup=False, probe_steps=True, sleep=lambda s: None,
        )  # fmt: skip

    return DeviceSession(make)


def adb_device() -> DeviceSession:
    """A device session on the phone ``TASKLANG_DEVICE_SERIAL`` names (uiautomator2 and adb)."""
    import os

    serial = os.environ.get("TASKLANG_DEVICE_SERIAL")
    if not serial:
        raise EpisodeError("set TASKLANG_DEVICE_SERIAL to the phone's serial")

    def make(task: str, seed: int) -> Any:
        from tasklang.envs.device.driver import U2Driver
        from tasklang.envs.device.env import DeviceEnv
        from tasklang.envs.device.transport import AdbTransport
        from tasklang.policy.tasks import compiled_task

        return DeviceEnv(compiled_task(task), U2Driver(serial), AdbTransport(serial), serial=serial)

    return DeviceSession(make)


def load_factory(spec: str) -> Callable[[], Session]:
    """A session factory named `module:callable` (a device backend, a replay, a test fake)."""
    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise ValueError(f"session factory `{spec}` is not of the form `module:callable`")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ValueError(
            f"cannot import `{module_name}` for session factory `{spec}`: {exc}"
        ) from None
    factory = getattr(module, attr, None)
    if not callable(factory):
        raise ValueError(f"`{spec}` names nothing callable")
    return factory  # type: ignore[no-any-return]


class PhoneEnvironment(ActionTools):
    """The GRPO environment: tools are the actions, the reward is the verifier's verdict.

    Subclasses make the session (:func:`environment_classes` binds their options); a session
    can also be passed in directly. The current episode's calls are recorded in ``calls``
    (name, start, end, thread), which shows how rollouts overlapped.
    """

    kind: ClassVar[str] = "phone"

    def __init__(self, session: Session | None = None) -> None:
        self._session: Session = session if session is not None else self._make_session()
        self._turn: Turn | None = None
        self._errored: str | None = None
        self.goal = ""
        self._prefetched: tuple[tuple[str, int], str] | None = None
        self._steps = 0
        self.calls: list[tuple[str, float, float, int]] = []

    def _make_session(self) -> Session:
        raise NotImplementedError

    def reset(self, **example: Any) -> str | None:
        """Start the example's task instance; the first screen is appended to the prompt.

        When the trainer already started this instance (``_prefetch``, run for the whole batch
        at once), the screen it got is returned without starting the episode again.
        """
        key = _instance_key(example)
        done, self._prefetched = self._prefetched, None
        if done is not None and done[0] == key:
            return done[1]
        return self._start(key)

    def _prefetch(self, **example: Any) -> None:
        """Start the episode ahead of ``reset`` (the trainer does this for a batch concurrently)."""
        key = _instance_key(example)
        self._prefetched = (key, self._start(key))

    def _start(self, key: tuple[str, int]) -> str:
        task, seed = key
        self._errored, self._steps, self.calls = None, 0, []
        start = time.monotonic()
        try:
            self._turn = self._session.reset(task, seed)
            self.goal = self._turn.goal
        except Exception as exc:
            self._errored = f"reset failed: {exc}"
            self._turn = None
            return "\n" + self._errored
        finally:
            self.calls.append(("reset", start, time.monotonic(), threading.get_ident()))
        return "\n" + self._turn.observation

    def _act(self, action: dict[str, Any]) -> str:
        if self._errored is not None:
            return f"error: {self._errored}"
        if self._turn is None:
            return "error: the episode was not started"
        if self._turn.done:
            return ENDED
        start = time.monotonic()
        try:
            self._turn = self._session.step(action)
        except Exception as exc:
            self._errored = f"the episode failed: {exc}"
            return f"error: {self._errored}"
        finally:
            self.calls.append(
                (action["action_type"], start, time.monotonic(), threading.get_ident())
            )
        self._steps += 1
        if self._turn.done:
            return ENDED
        text = self._turn.observation
        if self._turn.error:
            text = f"error: {self._turn.error}\n{text}"
        return text

    @property
    def errored(self) -> str | None:
        """Why the episode failed (None while it runs or after it ended normally)."""
        return self._errored

    @property
    def session(self) -> Session:
        return self._session

    def get_reward(self) -> float | None:
        """The verifier's verdict on the episode (None when it errored)."""
        if self._errored is not None or self._turn is None:
            return None
        try:
            return reward_of(self._session.verdict())
        except Exception:
            return None


class PhoneWorldEnvironment(PhoneEnvironment):
    """Episodes in PhoneWorld (in process, or in a Ray pool when one is configured)."""

    kind: ClassVar[str] = "phoneworld"
    randomize: ClassVar[bool] = False
    latency: ClassVar[float] = 0.0
    pool: ClassVar[Any] = None  # a policy.pool.RayPool, when configured

    def _make_session(self) -> Session:
        if self.pool is not None:
            session: Session = self.pool.session()
            return session
        return PhoneWorldSession(randomize=self.randomize, latency=self.latency)


class DeviceEnvironment(PhoneEnvironment):
    """Episodes on real phones, through a session factory (`module:callable` in the config)."""

    kind: ClassVar[str] = "device"
    _factory: ClassVar[Callable[[], Session] | None] = None

    def _make_session(self) -> Session:
        factory = getattr(type(self), "_factory", None)
        if factory is None:
            raise EpisodeError("no device session factory is configured")
        session: Session = factory()
        return session


def environment_classes(
    device_factory: Callable[[], Session] | None = None,
    randomize: bool = False,
    latency: float = 0.0,
    pool: Any = None,
) -> dict[str, type[PhoneEnvironment]]:
    """Environment classes bound to their options: ``{"phoneworld": ..., "device": ...}``."""
    pw = type(
        "PhoneWorldEnvironment",
        (PhoneWorldEnvironment,),
        {"randomize": randomize, "latency": latency, "pool": pool},
    )
    dev = type(
        "DeviceEnvironment",
        (DeviceEnvironment,),
        {"_factory": staticmethod(device_factory) if device_factory else None},
    )
    return {"phoneworld": pw, "device": dev}
