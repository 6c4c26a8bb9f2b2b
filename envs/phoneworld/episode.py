"""One PhoneWorld episode of one task instance: the phone, the actions, the trajectory, the
verdict. The Gymnasium environment, ``tasklang run`` and the reference-solution tests all go
through this class.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tasklang import __version__, ir
from tasklang.envs.phoneworld.app import append_only_keys
from tasklang.envs.phoneworld.apps import install
from tasklang.envs.phoneworld.phone import Outcome, Phone, PhoneState
from tasklang.envs.phoneworld.randomize import Randomization, scale_noise, shuffle_records
from tasklang.envs.phoneworld.widgets import View, elements
from tasklang.sampling import Instance, render_goal, sample_instance
from tasklang.verifiers.check import check_trajectory
from tasklang.verifiers.probes import (
    addition_scopes,
    change_scopes,
    removal_scopes,
    reversal_scopes,
)
from tasklang.verifiers.state import (
    itself_fields,
    minute_fields,
    record_identities,
    record_keys,
    unraised_fields,
)
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

DEFAULT_BUDGET = 30


class MissingApp(ValueError):
    """The task uses an app PhoneWorld does not have yet."""


def missing_apps(compiled: ir.CompiledTask) -> list[str]:
    from tasklang.envs.phoneworld.apps import app_classes

    have = app_classes()
    return [a.name for a in compiled.task.apps if a.name not in have]


@dataclass
class Episode:
    """Run one instance of a compiled task in PhoneWorld."""

    compiled: ir.CompiledTask
    seed: int = 0
    width: int = 1080
    height: int = 2400
    density: int = 420
    record: bool = True
    instance: Instance | None = None
    phone: Phone = field(init=False)
    steps: list[Step] = field(default_factory=list)
    goal: str = ""
    randomize: bool = False  # device, dark mode, font scale, list order, noise: from the seed
    randomization: Randomization | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        missing = missing_apps(self.compiled)
        if missing:
            raise MissingApp(
                f"task `{self.compiled.task.id}` needs app(s) PhoneWorld does not have yet: "
                + ", ".join(missing)
            )
        if self.randomize:
            r = self.randomization = Randomization.from_seed(self.compiled.task.id, self.seed)
            self.width, self.height, self.density = r.width, r.height, r.density
            if self.instance is None:
                inst = sample_instance(scale_noise(self.compiled, r.noise_scale), self.seed)
                inst.initial = shuffle_records(inst.initial, r.shuffle_seed)
                self.instance = inst
        if self.instance is None:
            self.instance = sample_instance(self.compiled, self.seed)
        self.phone = Phone(install(), self.width, self.height, self.density)
        self.phone.append_only = append_only_keys(self.compiled.apps)
        self.phone.change_scopes = change_scopes(self.compiled.apps)
        self.phone.removal_scopes = removal_scopes(self.compiled.apps)
        self.phone.addition_scopes = addition_scopes(self.compiled.apps)
        self.phone.reversal_scopes = reversal_scopes(self.compiled.apps)
        self.phone.record_keys = record_keys(self.compiled.apps)
        self.phone.identities = record_identities(self.compiled.apps)
        self.phone.unraised = unraised_fields(self.compiled.apps)
        self.phone.itself_fields = itself_fields(self.compiled.apps)
        self.phone.minutes = minute_fields(self.compiled.apps)
        if self.randomization is not None:
            self.phone.row_scale = self.randomization.row_scale
        self.reset()

    @property
    def budget(self) -> int:
        return self.compiled.task.budget.steps or DEFAULT_BUDGET

    def reset(self) -> None:
        assert self.instance is not None
        fg = self.compiled.task.given.foreground
        self.phone.load(self.instance.initial, fg.app if fg is not None else None)
        self.steps = []
        self.goal = render_goal(self.compiled.task, self.instance.params)
        self._start = self.phone.snapshot()

    # ------------------------------------------------------------ observing and acting
    def tree(self) -> View:
        return self.phone.observe()

    def xml(self) -> str:
        return self.phone.xml()

    @property
    def dark(self) -> bool:
        """Whether screenshots are dark: the settings' dark theme, or randomization's pick."""
        if self.randomization is not None and self.randomization.dark:
            return True
        settings = self.phone.state.get("settings")
        return bool(settings is not None and settings.settings.get("dark_theme"))

    def screenshot(self) -> bytes:
        """The current screen as a PNG."""
        from tasklang.envs.phoneworld.render import render_png

        data: bytes = render_png(self.phone.observe(), self.width, self.height, dark=self.dark)
        return data

    def observation(self, with_elements: bool = False) -> dict[str, Any]:
        package, activity = self.phone.current_activity()
        obs: dict[str, Any] = {"ui_xml": self.xml(), "package": package, "activity": activity}
        if with_elements:
            obs["ui_elements"] = elements(self.phone.observe())
        return obs

    def step(self, action: dict[str, Any]) -> Outcome:
        """Carry out one action, recording the step (screen before, action, state after)."""
        before = self.observation() if self.record else None
        outcome = self.phone.act(action)
        if self.record:
            assert before is not None
            self.steps.append(
                Step(
                    index=len(self.steps),
                    observation=Observation(
                        ui_xml=before["ui_xml"],
                        package=before["package"],
                        activity=before["activity"],
                        time=self.phone.clock.isoformat(),
                    ),
                    action=_action(action),
                    snapshot=self.phone.world(),
                    extra={} if outcome.ok else {"invalid": outcome.info},
                )
            )
        return outcome

    @property
    def done(self) -> bool:
        return self.phone.ended or len(self.steps) >= self.budget

    # ------------------------------------------------------------ the record and its verdict
    def trajectory(self) -> Trajectory:
        assert self.instance is not None
        final_world = self.phone.world()
        final_world.ui_xml = self.xml()
        params = {k: v for k, v in self.instance.params.items()}
        return Trajectory(
            header=Header(
                task=TaskRef(id=self.compiled.task.id, revision=self.compiled.task.revision),
                goal=self.goal,
                instance=InstanceRef(
                    seed=self.instance.seed, params=params, initial=self.instance.initial
                ),
                environment=Environment(
                    kind="phoneworld",
                    name=f"tasklang {__version__}",
                    model=self.randomization.device if self.randomization else None,
                    screen=Screen(width=self.width, height=self.height, density=self.density),
                ),
            ),
            steps=list(self.steps),
            final=Final(status=self.phone.status, answer=self.phone.answer, snapshot=final_world),
        )

    def verdict(self) -> Verdict:
        assert self.instance is not None
        return check_trajectory(
            self.compiled, self.trajectory(), initial_override=self.instance.initial
        )

    def snapshot(self) -> tuple[PhoneState, tuple[Step, ...]]:
        """The phone and the steps so far (restoring it works from any later branch)."""
        return self.phone.snapshot(), tuple(self.steps)

    def restore(self, saved: tuple[PhoneState, tuple[Step, ...]]) -> None:
        state, steps = saved
        self.phone.restore(state)
        self.steps = list(steps)


def _action(action: dict[str, Any]) -> Action | None:
    try:
        return Action.model_validate(action)
    except Exception:
        return None


def run_reference(compiled: ir.CompiledTask, seed: int = 0) -> tuple[Verdict, Trajectory]:
    """Run a task's reference solution on one instance; the verdict and the trajectory."""
    from tasklang.envs.phoneworld.solutions import Driver, references

    solve = references().get(compiled.task.id)
    if solve is None:
        raise KeyError(f"no reference solution for `{compiled.task.id}`")
    ep = Episode(compiled, seed)
    assert ep.instance is not None
    driver = Driver(ep.tree, ep.step, ep.instance.params, max_steps=max(ep.budget, 60))
    solve(driver)
    return ep.verdict(), ep.trajectory()


def run_nothing(compiled: ir.CompiledTask, seed: int = 0) -> Verdict:
    """The verdict on declaring the task complete at once."""
    ep = Episode(compiled, seed)
    ep.step({"action_type": "status", "goal_status": "complete"})
    return ep.verdict()
