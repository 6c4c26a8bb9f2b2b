"""The device checker: probe a phone, then judge the episode with the same verifier as
PhoneWorld's, deciding only what the probes can see."""

from __future__ import annotations

from collections.abc import Callable

from tasklang import ir
from tasklang.envs.device.probes import Reading, coverage, read_world
from tasklang.envs.device.transport import Transport, run_argv
from tasklang.verifiers.check import check_trajectory
from tasklang.verifiers.probes import Coverage, DeviceVerdict, device_verdict
from tasklang.verifiers.snapshot import WorldSnapshot
from tasklang.verifiers.trajectory import Final, Trajectory


def probe(
    compiled: ir.CompiledTask,
    transport: Transport,
    timeout: float = 20.0,
    initial: WorldSnapshot | None = None,
    screens: bool = False,
    sleep: Callable[[float], None] | None = None,
) -> Reading:
    """Read the phone's world through the task's probe plan (``initial``: the instance's
    initial world, which says how its files are named; ``screens``: also open the apps
    whose state only their screens show, which only the final reading does)."""
    return read_world(
        compiled,
        lambda argv: run_argv(transport, argv, timeout, retries=1),
        initial=initial,
        screens=screens,
        sleep=sleep,
    )


def device_check(
    compiled: ir.CompiledTask,
    traj: Trajectory,
    transport: Transport,
    timeout: float = 20.0,
    step_states: list[WorldSnapshot] | None = None,
    sleep: Callable[[float], None] | None = None,
) -> DeviceVerdict:
    """The verdict on an episode whose end state is read from the phone now.

    The steps keep what a phone records (screens, actions, foreground); ``step_states``
    are probe readings taken after each step, when the episode was probed along the way
    (without them, changes along the way are not observable). The final state is the
    probe reading now, screens included (``sleep``: how to wait while a screen settles).
    """
    initial = traj.header.instance.initial
    reading = probe(compiled, transport, timeout, initial, screens=True, sleep=sleep)
    probed = step_states is not None and len(step_states) == len(traj.steps)
    states = step_states if probed and step_states is not None else [None] * len(traj.steps)
    steps = [
        s.model_copy(update={"snapshot": st}) for s, st in zip(traj.steps, states, strict=True)
    ]
    final = Final(status=traj.final.status, answer=traj.final.answer, snapshot=reading.snapshot)
    seen = Trajectory(header=traj.header, steps=steps, final=final, path=traj.path)
    verdict = check_trajectory(compiled, seen, initial_override=traj.header.instance.initial)
    cov = coverage(compiled, initial=initial)
    unread = set(reading.unread)
    if probed:  # state a reading along the way could not get is not seen changing either
        during = cov.during()
        unread |= {key for st in states if st is not None for key in _missing(st, during)}
    return device_verdict(compiled, verdict, cov.without(unread), steps=probed)


def _missing(state: WorldSnapshot, cov: Coverage) -> set[tuple[str, str]]:
    """The collections and settings ``cov`` reads that a reading did not hold."""
    out = set()
    for app, name in [*cov.fields, *cov.settings]:
        held = state.apps.get(app)
        if held is None or (name not in held.collections and name not in held.settings):
            out.add((app, name))
    return out
