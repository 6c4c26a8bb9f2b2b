"""A reconstructed app as a Gymnasium environment: ``tasklang/Reconstructed-v0``.

    import gymnasium, tasklang.envs.phoneworld.reconstruct
    env = gymnasium.make("tasklang/Reconstructed-v0", graph="out/sms_messenger.screens.json")
    obs, info = env.reset()
    obs, reward, terminated, truncated, info = env.step({"action_type": "click", "index": 5})

Actions and observations are PhoneWorld's (AndroidWorld JSON actions; ``ui_xml``,
``package``, ``activity``, ``goal``). The phone has the one reconstructed app, started on the
recording's first screen. With a binding (the graph file's own, or ``binding=``) the app is
the app model it names, and its state comes from ``state=`` (``{"collections": ...,
"settings": ...}``) or from a library task's sampled instance (``task=``, ``seed=``).

With a task the episode is judged as PhoneWorld judges it: every step is recorded (screen
before, action, world after) into a trajectory that the task's compiled verifier checks
(``tasklang.verifiers.check.check_trajectory``, what ``Episode.verdict`` uses); the reward
is 1 when the episode ends (or runs out of the task's step budget) with the task done, and
``info`` has ``success`` and ``score`` then. Without a task the reward is 0: the environment
replays, it does not judge. ``info["unexplored"]`` counts the actions that reached a screen
the recording never showed, ``info["bound_actions"]`` the binding's actions carried out.

``hybrid=True`` (a bound app only) hands an action the recording never made over to the app
model's hand-written PhoneWorld app at the matching route, and hands back when that app
returns to a screen the recording has (``reconstruct.hybrid``); ``info["handovers"]`` and
``info["handbacks"]`` count them, ``info["on_recording"]`` says which app draws the screen
and ``info["recorded_steps"]`` how many steps were taken on recorded screens; a step's record
in the trajectory names its hand-over or hand-back (``extra``).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import gymnasium as gym

from tasklang import __version__
from tasklang.envs.phoneworld.env import ActionSpace, ObservationSpace
from tasklang.envs.phoneworld.reconstruct.binding import Binding, load_binding, parse_binding
from tasklang.envs.phoneworld.reconstruct.graph import ScreenGraph
from tasklang.envs.phoneworld.reconstruct.hybrid import HybridPhone, native_app
from tasklang.envs.phoneworld.reconstruct.runtime import ReconPhone, ReconstructedApp
from tasklang.envs.phoneworld.widgets import elements
from tasklang.verifiers.check import check_trajectory
from tasklang.verifiers.snapshot import AppState, WorldSnapshot
from tasklang.verifiers.trajectory import (
    Action,
    Environment,
    Final,
    Header,
    InstanceRef,
    Observation,
    Screen,
    Step,
    TaskRef,
    Trajectory,
)
from tasklang.verifiers.verdict import Verdict

ENV_ID = "tasklang/Reconstructed-v0"


class GraphError(ValueError):
    """A screen graph file that cannot be loaded."""


def load_graph(path: str | Path) -> ScreenGraph:
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return ScreenGraph.from_json(data)
    except (OSError, UnicodeDecodeError) as exc:
        raise GraphError(f"{path}: cannot read: {exc}") from None
    except json.JSONDecodeError as exc:
        raise GraphError(f"{path}: not JSON ({exc.msg} at line {exc.lineno})") from None
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise GraphError(
            f"{path}: not a screen graph written by `tasklang reconstruct` ({exc})"
        ) from None


def resolve_binding(
    graph: ScreenGraph, binding: str | Path | dict[str, Any] | None
) -> Binding | None:
    if isinstance(binding, dict):
        return parse_binding(binding, "binding")
    if binding is not None:
        return load_binding(Path(binding))
    if graph.bindings:
        return parse_binding(graph.bindings[0], f"{graph.app}: bindings[0]")
    return None


class ReconstructedEnv(gym.Env[dict[str, Any], dict[str, Any]]):
    metadata = {"render_modes": []}  # noqa: RUF012

    def __init__(
        self,
        graph: str | Path | ScreenGraph,
        binding: str | Path | dict[str, Any] | None = None,
        state: dict[str, Any] | None = None,
        task: str | None = None,
        seed: int | None = None,
        elements: bool = False,
        max_steps: int = 50,
        hybrid: bool = False,
    ) -> None:
        self.graph = graph if isinstance(graph, ScreenGraph) else load_graph(graph)
        self.binding = resolve_binding(self.graph, binding)
        self.app = ReconstructedApp(self.graph, self.binding)
        self.hybrid = hybrid
        if hybrid:
            self.app.native = native_app(self.binding)
        self.state, self.task, self.first_seed = state, task, seed
        self.with_elements = elements
        self.max_steps = max_steps
        self.action_space = ActionSpace()
        self.observation_space = ObservationSpace(elements, False)
        self.phone: ReconPhone | None = None
        self.goal = ""
        self.steps = 0
        self.recorded_steps = 0  # steps taken on a recorded screen
        self.compiled: Any = None  # the task's compiled form, with ``task=``
        self.instance: Any = None  # its sampled instance
        self.record: list[Step] = []
        if task is not None:
            from tasklang.envs.phoneworld.env import load_task

            self.compiled = load_task(task)
            others = [a.name for a in self.compiled.task.apps if a.name != self.app.model]
            if others:
                raise ValueError(
                    f"task `{self.compiled.task.id}` uses {', '.join(others)} besides "
                    f"`{self.app.model}`, the one app this graph is bound to"
                )
            budget = self.compiled.task.budget.steps
            if budget:
                self.max_steps = budget

    def initial(self, seed: int) -> WorldSnapshot:
        model = self.app.model
        if self.compiled is not None:
            from tasklang.sampling import render_goal, sample_instance

            self.instance = sample_instance(self.compiled, seed)
            self.goal = render_goal(self.compiled.task, self.instance.params)
            return self.instance.initial  # type: ignore[no-any-return]
        s = self.state or {}
        return WorldSnapshot(
            apps={
                model: AppState(
                    collections=dict(s.get("collections", {})), settings=dict(s.get("settings", {}))
                )
            }
        )

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        if seed is None:
            seed = self.first_seed if self.first_seed is not None else 0
        self.action_space.seed(seed)
        kind = HybridPhone if self.hybrid else ReconPhone
        self.phone = kind({self.app.model: self.app}, self.graph.width, self.graph.height)
        self.phone.load(self.initial(seed), foreground=self.app.model)
        self.steps = 0
        self.recorded_steps = 0
        self.record = []
        info = self.info()
        if self.instance is not None:
            info["task"], info["seed"] = self.compiled.task.id, self.instance.seed
            info["params"] = copy.deepcopy(self.instance.params)
        return self.observation(), info

    def step(
        self, action: dict[str, Any]
    ) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        phone = self.phone
        if phone is None:
            raise RuntimeError("call reset() before step()")
        if not isinstance(action, dict):
            action = {"action_type": None}
        before = self.observation() if self.compiled is not None else None
        if self.info()["on_recording"]:
            self.recorded_steps += 1
        handed = (len(phone.handovers), len(phone.handbacks))
        outcome = phone.act(action)
        extra: dict[str, Any] = {} if outcome.ok else {"invalid": outcome.info}
        if len(phone.handovers) > handed[0]:
            extra["handover"] = phone.handovers[-1]
        if len(phone.handbacks) > handed[1]:
            extra["handback"] = phone.handbacks[-1]
        if before is not None:
            self.record.append(
                Step(
                    index=len(self.record),
                    observation=Observation(
                        ui_xml=before["ui_xml"],
                        package=before["package"],
                        activity=before["activity"],
                        time=phone.clock.isoformat(),
                    ),
                    action=_action(action),
                    snapshot=phone.world(),
                    extra=extra,
                )
            )
        self.steps += 1
        info = self.info()
        info["ok"], info["result"] = outcome.ok, outcome.info
        if not outcome.ok:
            info["error"] = outcome.info
        truncated = not phone.ended and self.steps >= self.max_steps
        reward = 0.0
        if self.compiled is not None and (phone.ended or truncated):
            verdict = self.verdict()
            info["success"], info["score"] = verdict.success, verdict.score
            reward = 1.0 if verdict.success else 0.0
        return self.observation(), reward, phone.ended, truncated, info

    def trajectory(self) -> Trajectory:
        """The episode so far in the project's trajectory format (what the verifier reads)."""
        phone = self.phone
        if phone is None or self.compiled is None or self.instance is None:
            raise RuntimeError("a trajectory needs a task and reset()")
        final = phone.world()
        final.ui_xml = phone.xml()
        return Trajectory(
            header=Header(
                task=TaskRef(id=self.compiled.task.id, revision=self.compiled.task.revision),
                goal=self.goal,
                instance=InstanceRef(
                    seed=self.instance.seed,
                    params=dict(self.instance.params),
                    initial=self.instance.initial,
                ),
                environment=Environment(
                    kind="phoneworld",
                    name=f"tasklang {__version__} {self.kind()} {self.graph.app}",
                    screen=Screen(width=self.graph.width, height=self.graph.height, density=420),
                ),
            ),
            steps=list(self.record),
            final=Final(status=phone.status, answer=phone.answer, snapshot=final),
        )

    def kind(self) -> str:
        return "hybrid reconstructed" if self.hybrid else "reconstructed"

    def verdict(self) -> Verdict:
        """The task's verifier on the episode so far (PhoneWorld's own check)."""
        traj = self.trajectory()
        return check_trajectory(self.compiled, traj, initial_override=self.instance.initial)

    def observation(self) -> dict[str, Any]:
        assert self.phone is not None
        package, activity = self.phone.current_activity()
        obs: dict[str, Any] = {
            "ui_xml": self.phone.xml(),
            "package": package,
            "activity": activity,
            "goal": self.goal,
        }
        if self.with_elements:
            obs["ui_elements"] = elements(self.phone.observe())
        return obs

    def info(self) -> dict[str, Any]:
        assert self.phone is not None
        phone = self.phone
        route = phone.route()
        on_app = phone.foreground == self.app.model and route is not None
        recorded = on_app and not self.app.on_native(route)
        return {
            "app": self.graph.app,
            "screen": route.screen if on_app and route is not None else None,
            "state": self.app.state_of(route) if recorded and route is not None else None,
            "on_recording": recorded,
            "unexplored": len(phone.unexplored),
            "unexplored_actions": list(phone.unexplored),
            "bound_actions": list(phone.bound_actions),
            "handovers": len(phone.handovers),
            "handover_actions": list(phone.handovers),
            "handbacks": len(phone.handbacks),
            "recorded_steps": self.recorded_steps,
            "step": self.steps,
        }


def _action(action: dict[str, Any]) -> Action | None:
    try:
        return Action.model_validate(action)
    except ValueError:
        return None
