"""A real phone as a Gymnasium environment, with PhoneWorld's actions and observations.

    env = DeviceEnv("clock.start_timer", driver=U2Driver(serial), transport=AdbTransport(serial))
    obs, info = env.reset(seed=3)           # runs the setup plan, then observes
    obs, reward, terminated, truncated, info = env.step({"action_type": "navigate_home"})

Waiting is settle detection: the hierarchy is dumped until two dumps in a row are the
same (bounded in polls and seconds). A phone that times out, disconnects or prints garbage
ends the episode as an error: ``reward`` is None (training drops it), ``info["error"]``
says why, and the trajectory so far is written with the error in its final record.
At a normal end the device checker probes the phone; reward is 1.0 or 0.0 when the
observable clauses decide the verdict and None when they cannot. With ``probe_steps`` the
phone is also probed after every step (recorded as the step's snapshot), which makes changes
along the way (`never deleted ...`) observable.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium as gym

from tasklang import __version__, ir
from tasklang.envs.device.driver import Driver
from tasklang.envs.device.parse import OutputError
from tasklang.envs.device.probes import Listed
from tasklang.envs.device.shell import UnsafeValue
from tasklang.envs.device.transport import Transport, TransportError, run_argv
from tasklang.envs.phoneworld.env import ActionSpace, ObservationSpace, load_task
from tasklang.envs.phoneworld.phone import WAIT_SECONDS
from tasklang.verifiers.snapshot import UiParseError, parse_ui_xml
from tasklang.verifiers.trajectory import (
    Action,
    Environment,
    Final,
    Header,
    InstanceRef,
    Observation,
    Step,
    TaskRef,
    Trajectory,
)

FAULTS = (TransportError, OutputError, UiParseError, UnsafeValue)


class InvalidAction(ValueError):
    """An action that cannot be carried out on this screen (a no-op step, not an error)."""


class DeviceEnv(gym.Env[dict[str, Any], dict[str, Any]]):
    metadata = {"render_modes": []}  # noqa: RUF012

    def __init__(
        self,
        task: str | Path | ir.CompiledTask,
        driver: Driver,
        transport: Transport | None = None,
        seed: int | None = None,
        setup: bool = True,
        record_path: Path | None = None,
        serial: str | None = None,
        settle_polls: int = 6,
        settle_seconds: float = 5.0,
        settle_interval: float = 0.3,
        sleep: Callable[[float], None] = time.sleep,
        timeout: float = 20.0,
        probe_steps: bool = False,
    ) -> None:
        self.compiled = load_task(task)
        self.driver, self.transport = driver, transport
        self.first_seed, self.setup, self.record_path, self.serial = (
            seed,
            setup,
            record_path,
            serial,
        )
        self.settle_polls, self.settle_seconds = settle_polls, settle_seconds
        self.settle_interval, self.sleep, self.timeout = settle_interval, sleep, timeout
        self.action_space = ActionSpace()
        self.observation_space = ObservationSpace()
        self.traj: Trajectory | None = None
        self.obs: dict[str, Any] = {}
        self.ended = False
        self.error: str | None = None
        self.teardown_done = False
        self.probe_steps = probe_steps
        self.verdict: Any = None
        self.elements: list[Any] = []

    # ------------------------------------------------------------ the Gymnasium API
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        from tasklang.sampling import render_goal, sample_instance

        super().reset(seed=seed)
        instance = sample_instance(
            self.compiled, seed if seed is not None else self.first_seed or 0
        )
        self.instance = instance
        goal = render_goal(self.compiled.task, instance.params)
        self.traj = Trajectory(header=self._header(goal))
        self.ended, self.error = False, None
        try:
            if self.setup and self.transport is not None:
                self._run_setup()
            if self.transport is not None and self._needs_start():
                self._read_start()
            self.obs = self._observe()
        except FAULTS as exc:
            return self._fail(exc)[0], self._info()
        return dict(self.obs), self._info()

    def step(  # type: ignore[override]  # reward None: an episode that ended in an error
        self, action: dict[str, Any]
    ) -> tuple[dict[str, Any], float | None, bool, bool, dict[str, Any]]:
        if self.traj is None:
            raise RuntimeError("call reset() before step()")
        if self.ended:
            return dict(self.obs), None, True, False, self._info()
        before = self.obs
        info: dict[str, Any] = {}
        state, listed = None, None
        try:
            try:
                self._act(action)
            except InvalidAction as exc:
                info["error"] = str(exc)
            if self.probe_steps and self.transport is not None:
                reading = self._probe()
                state, listed = reading.snapshot, reading.listed
        except FAULTS as exc:
            self._record(before, action, {})
            obs, _ = self._fail(exc)
            return obs, None, True, False, self._info()
        self._record(before, action, info, state, listed)
        kind = action.get("action_type") if isinstance(action, dict) else None
        terminated = kind in ("status", "answer")
        truncated = not terminated and len(self.traj.steps) >= self.budget
        if terminated or truncated:
            reward = self._finish(action)
            return (
                dict(self.obs),
                reward,
                True,
                truncated and not terminated,
                {**self._info(), **info},
            )
        try:
            self.obs = self._observe()
        except FAULTS as exc:
            obs, _ = self._fail(exc)
            return obs, None, True, False, self._info()
        return dict(self.obs), 0.0, False, False, {**self._info(), **info}

    @property
    def budget(self) -> int:
        return self.compiled.task.budget.steps or 30

    # ------------------------------------------------------------ observing
    def settle(self) -> str:
        """Dump until two dumps in a row agree, at most ``settle_polls`` dumps or
        ``settle_seconds``; the last dump either way."""
        started = time.monotonic()
        last = self.driver.dump()
        for _ in range(self.settle_polls - 1):
            if time.monotonic() - started > self.settle_seconds:
                break
            self.sleep(self.settle_interval)
            now = self.driver.dump()
            if now == last:
                break
            last = now
        return last

    def _observe(self) -> dict[str, Any]:
        xml = self.settle()
        _, elements = parse_ui_xml(xml)
        package, activity = self.driver.current()
        self.elements = elements
        return {
            "ui_xml": xml,
            "package": package,
            "activity": activity,
            "goal": self.traj.header.goal if self.traj else "",
        }

    # ------------------------------------------------------------ acting
    def _point(self, a: dict[str, Any]) -> tuple[float, float]:
        if a.get("x") is not None and a.get("y") is not None:
            return float(a["x"]), float(a["y"])
        index = a.get("index")
        if not isinstance(index, int) or not 0 <= index < len(self.elements):
            raise InvalidAction(f"no element with index {index!r}")
        center = self.elements[index].center
        if center is None:
            raise InvalidAction(f"element {index} has no bounds")
        return float(center[0]), float(center[1])

    def _act(self, a: dict[str, Any]) -> None:
        if not isinstance(a, dict):
            raise InvalidAction("an action is a JSON object")
        kind = a.get("action_type")
        d = self.driver
        if kind in ("click", "double_tap", "long_press"):
            x, y = self._point(a)
            {"click": d.click, "double_tap": d.double_click, "long_press": d.long_click}[kind](x, y)
        elif kind == "input_text":
            if a.get("index") is not None or a.get("x") is not None:
                d.click(*self._point(a))
            d.text(str(a.get("text") or ""), clear=bool(a.get("clear_text")))
        elif kind in ("scroll", "swipe"):
            self._swipe(kind, a.get("direction") or "down")
        elif kind in ("navigate_back", "navigate_home", "keyboard_enter"):
            d.key(
                {"navigate_back": "back", "navigate_home": "home", "keyboard_enter": "enter"}[kind]
            )
        elif kind == "open_app":
            d.app_start(self._package(str(a.get("app_name") or "")))
        elif kind == "wait":
            d.wait(WAIT_SECONDS)
        elif kind not in ("status", "answer"):
            raise InvalidAction(f"unknown action_type {kind!r}")

    def _swipe(self, kind: str, direction: str) -> None:
        w, h = self.driver.window_size()
        cx, cy, dx, dy = w / 2, h / 2, w / 3, h / 3
        moves = {"up": (0, -dy), "down": (0, dy), "left": (-dx, 0), "right": (dx, 0)}
        mx, my = moves.get(direction, (0, dy))
        if kind == "scroll":  # scrolling down moves the content up: the finger goes up
            mx, my = -mx, -my
        self.driver.swipe(cx - mx / 2, cy - my / 2, cx + mx / 2, cy + my / 2)

    def _package(self, name: str) -> str:
        key = name.strip().casefold()
        for app_name, app in self.compiled.apps.items():
            if key in (app_name.casefold(), app.label.casefold(), app.package.casefold()):
                return app.package
        if "." in name:
            return name
        raise InvalidAction(f"no app `{name}` in this task")

    # ------------------------------------------------------------ the record
    def _header(self, goal: str) -> Header:
        return Header(
            task=TaskRef(id=self.compiled.task.id, revision=self.compiled.task.revision),
            goal=goal,
            instance=InstanceRef(
                seed=self.instance.seed, params=self.instance.params, initial=self.instance.initial
            ),
            environment=Environment(
                kind="device", name=f"tasklang {__version__}", serial=self.serial
            ),
        )

    def _probe(self) -> Any:
        from tasklang.envs.device.check import probe

        assert self.transport is not None
        return probe(self.compiled, self.transport, self.timeout, self.instance.initial)

    def _record(
        self,
        obs: dict[str, Any],
        action: dict[str, Any],
        info: dict[str, Any],
        state: Any = None,
        listed: Listed | None = None,
    ) -> None:
        from tasklang.envs.device.check import LISTED, listed_json

        assert self.traj is not None
        try:
            act = Action.model_validate(action)
        except Exception:
            act = None
        extra: dict[str, Any] = {"invalid": info["error"]} if "error" in info else {}
        if listed:  # the folders the probe's listings held after the step
            extra[LISTED] = listed_json(listed)
        self.traj.steps.append(
            Step(
                index=len(self.traj.steps),
                observation=Observation(
                    ui_xml=obs.get("ui_xml"),
                    package=obs.get("package"),
                    activity=obs.get("activity"),
                ),
                action=act,
                snapshot=state,
                extra=extra,
            )
        )

    def _fail(self, exc: Exception) -> tuple[dict[str, Any], None]:
        self.ended = True
        self.error = f"{type(exc).__name__}: {exc}"
        assert self.traj is not None
        self.traj.final = Final(error=self.error)
        self._write()
        return dict(self.obs), None

    def _finish(self, action: dict[str, Any]) -> float | None:
        from tasklang.envs.device.check import device_check

        assert self.traj is not None
        kind = action.get("action_type")
        # answering ends the task as complete (PhoneWorld and AndroidWorld do the same)
        status = action.get("goal_status") if kind == "status" else "complete"
        answer = action.get("text") if kind == "answer" else None
        self.traj.final = Final(status=status, answer=answer)
        self.ended = True
        if self.transport is None:
            self._write()
            return None
        states = [s.snapshot for s in self.traj.steps]
        probed = self.probe_steps and all(st is not None for st in states)
        try:
            dv = device_check(
                self.compiled, self.traj, self.transport, self.timeout,
                step_states=states if probed else None,  # type: ignore[arg-type]
                sleep=self.sleep,
            )  # fmt: skip
        except FAULTS as exc:
            self._fail(exc)
            return None
        self.verdict = dv
        self.traj.final = Final(
            status=status, answer=answer, extra={"device_verdict": dv.to_json()}
        )
        self._write()
        return None if dv.success is None else float(dv.success)

    def _write(self) -> None:
        if self.record_path is None or self.traj is None:
            return
        tmp = self.record_path.with_name(self.record_path.name + ".tmp")
        tmp.write_text(self.traj.to_jsonl(), encoding="utf-8")
        tmp.replace(self.record_path)

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {
            "task": self.compiled.task.id,
            "step": len(self.traj.steps) if self.traj else 0,
        }
        if self.error:
            info["error"] = self.error
        return info

    # ------------------------------------------------------------ setup and tear-down
    def _needs_start(self) -> bool:
        from tasklang.envs.device.probes import needs_start

        return needs_start(self.compiled)

    def _read_start(self) -> None:
        """Read the state only screens show before the episode (kept in the trajectory's
        header: with the reading at the end it proves some changes), then put the phone back
        where setup left it."""
        from tasklang.envs.device.check import back_to_start, probe_start, start_header

        assert self.transport is not None and self.traj is not None
        start = probe_start(self.compiled, self.transport, self.timeout, self.sleep)
        for cmd in back_to_start(self.compiled):
            run_argv(self.transport, cmd.argv, self.timeout)
        self.traj.header.extra.update(start_header(start))

    def _run_setup(self) -> None:
        from tasklang.envs.device.runner import run_setup

        assert self.transport is not None
        self.saved = run_setup(self.compiled, self.instance.initial, self.transport, self.timeout)

    def teardown(self) -> None:
        """Put back what setup changed (from the outputs setup saved)."""
        from tasklang.envs.device.runner import run_teardown

        if self.transport is not None and getattr(self, "saved", None) is not None:
            run_teardown(
                self.compiled, self.instance.initial, self.transport, self.saved, self.timeout
            )
            self.teardown_done = True
