"""`tasklang device ...`: plan, run and check tasks on a real Android phone (envs/device).

- ``device plan TASK [--seed N]``: the setup, probe and tear-down commands of one task
  instance, without a phone (every shell line exactly as `adb shell` gets it);
- ``device check TASK --serial S``: probe the phone now and print the verdict (with
  ``--trajectory F``, for that recorded episode);
- ``device run TASK --serial S --agent nothing|replay:FILE -o OUT.jsonl``: run an episode;
- ``device differential [TASK]``: the device checker against the PhoneWorld verifier on
  reference end states and near misses (the whole library by default).

``--replay FILE`` (recorded ``{"line", "output"}`` pairs, one JSON object a line) stands in
for ``--serial``. Exit codes: 0 success, 1 a failed or undecided verdict (or a differential
disagreement), 2 bad usage, unreadable input or a phone that cannot be reached.
"""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2


class Format(StrEnum):
    text = "text"
    json = "json"


def _error(message: str) -> int:
    typer.echo(f"tasklang: error: {message}", err=True)
    return EXIT_USAGE


def _task(task: str) -> Any:
    from tasklang.checkcmd import CheckUsageError, find_tasks

    try:
        found = find_tasks(task)
    except CheckUsageError as exc:
        raise typer.Exit(_error(str(exc))) from None
    if len(found) != 1:
        raise typer.Exit(_error(f"`{task}` holds {len(found)} tasks; name one by its id"))
    return next(iter(found.values()))


def _transport(serial: str | None, replay: Path | None) -> Any:
    from tasklang.envs.device.transport import AdbTransport, ReplayTransport

    if (serial is None) == (replay is None):
        raise typer.Exit(_error("give exactly one of --serial and --replay"))
    if replay is not None:
        try:
            return ReplayTransport.load(replay)
        except (OSError, ValueError) as exc:
            raise typer.Exit(_error(f"cannot read `{replay}`: {exc}")) from None
    assert serial is not None
    return AdbTransport(serial)


# ------------------------------------------------------------------ plan
def plan_cmd(
    task: Annotated[str, typer.Argument(help="Task id or .task file.")],
    seed: Annotated[int, typer.Option("--seed", help="Instance seed.")] = 0,
    fmt: Annotated[Format, typer.Option("--format", help="text or json.")] = Format.text,
) -> None:
    """Print a task instance's setup, probe and tear-down commands (no phone needed)."""
    raise typer.Exit(run_plan(task, seed, fmt is Format.json))


def run_plan(task: str, seed: int, as_json: bool) -> int:
    from tasklang.envs.device.setup import build_plan
    from tasklang.envs.device.shell import UnsafeValue
    from tasklang.sampling import SamplingError, sample_instance

    compiled = _task(task)
    try:
        instance = sample_instance(compiled, seed)
        plan = build_plan(compiled, instance.initial)
    except (SamplingError, UnsafeValue) as exc:
        typer.echo(f"tasklang: error: task `{compiled.task.id}`: {exc}", err=True)
        return EXIT_FAIL
    if as_json:
        doc = {"task": compiled.task.id, "seed": seed, "params": instance.params, **plan.to_json()}
        typer.echo(json.dumps(doc, indent=2, ensure_ascii=False))
        return EXIT_OK
    lines = [f"# task {compiled.task.id}, seed {seed}"]
    for title, cmds in (
        ("setup", plan.setup),
        ("probes", plan.probes),
        ("teardown", plan.teardown),
    ):
        lines.append(f"\n## {title}")
        lines += [f"{c.line}    # {c.purpose}" for c in cmds]
    if plan.notes:
        lines.append("\n## notes")
        lines += [f"- {n}" for n in plan.notes]
    typer.echo("\n".join(lines))
    return EXIT_OK


# ------------------------------------------------------------------ check
def check_cmd(
    task: Annotated[str, typer.Argument(help="Task id or .task file.")],
    serial: Annotated[str | None, typer.Option("--serial", help="adb serial of the phone.")] = None,
    replay: Annotated[
        Path | None, typer.Option("--replay", help="Recorded command/response pairs.")
    ] = None,
    trajectory: Annotated[
        Path | None, typer.Option("--trajectory", help="The episode's trajectory (JSONL).")
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Instance seed (without --trajectory).")] = 0,
    fmt: Annotated[Format, typer.Option("--format", help="text or json.")] = Format.text,
) -> None:
    """Probe the phone now and print the verdict."""
    raise typer.Exit(run_check(task, serial, replay, trajectory, seed, fmt is Format.json))


def run_check(
    task: str,
    serial: str | None,
    replay: Path | None,
    trajectory: Path | None,
    seed: int,
    as_json: bool,
) -> int:
    from tasklang.envs.device.check import device_check
    from tasklang.envs.device.env import FAULTS
    from tasklang.verifiers.check import InstanceError

    compiled = _task(task)
    transport = _transport(serial, replay)
    try:
        traj = _trajectory(compiled, trajectory, seed)
    except (OSError, ValueError) as exc:
        return _error(str(exc))
    try:
        # without a recorded trajectory nothing says what was done on the phone
        dv = device_check(compiled, traj, transport, history=trajectory is not None)
    except FAULTS as exc:
        return _error(f"the phone could not be probed: {exc}")
    except InstanceError as exc:
        return _error(f"`{trajectory}`: {exc}")
    if as_json:
        typer.echo(
            json.dumps({"task": compiled.task.id, **dv.to_json()}, indent=2, ensure_ascii=False)
        )
    else:
        typer.echo(render_device_verdict(compiled.task.id, dv))
    return EXIT_OK if dv.success else EXIT_FAIL


def _trajectory(compiled: Any, path: Path | None, seed: int) -> Any:
    from tasklang.sampling import render_goal, sample_instance
    from tasklang.verifiers.trajectory import (
        Environment,
        Header,
        InstanceRef,
        TaskRef,
        Trajectory,
        read_trajectory,
    )

    if path is not None:
        return read_trajectory(path)
    inst = sample_instance(compiled, seed)
    header = Header(
        task=TaskRef(id=compiled.task.id, revision=compiled.task.revision),
        goal=render_goal(compiled.task, inst.params),
        instance=InstanceRef(seed=inst.seed, params=inst.params, initial=inst.initial),
        environment=Environment(kind="device"),
    )
    return Trajectory(header=header)


def render_device_verdict(task_id: str, dv: Any) -> str:
    verdict = {True: "PASS", False: "FAIL", None: "UNDECIDED"}[dv.success]
    lines = [f"{task_id}: {verdict}"]
    for r in dv.verdict.clauses:
        if r.id in dv.unobservable:
            lines.append(f"  {r.id} ?     {dv.unobservable[r.id]}")
        else:
            lines.append(f"  {r.id} {'ok  ' if r.passed else 'FAIL'}  {r.summary}")
    return "\n".join(lines)


# ------------------------------------------------------------------ run
def run_cmd(
    task: Annotated[str, typer.Argument(help="Task id or .task file.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Trajectory file to write (JSONL).")],
    serial: Annotated[str | None, typer.Option("--serial", help="adb serial of the phone.")] = None,
    replay: Annotated[
        Path | None, typer.Option("--replay", help="Recorded command/response pairs.")
    ] = None,
    agent: Annotated[
        str, typer.Option("--agent", help="nothing, or replay:FILE (a trajectory's actions).")
    ] = "nothing",
    seed: Annotated[int, typer.Option("--seed", help="Instance seed.")] = 0,
    setup: Annotated[
        bool, typer.Option("--setup/--no-setup", help="Run the setup plan first.")
    ] = True,
    probe_steps: Annotated[
        bool, typer.Option("--probe-steps", help="Probe after every step (slower, decides more).")
    ] = False,
    fmt: Annotated[Format, typer.Option("--format", help="text or json.")] = Format.text,
) -> None:
    """Run one episode on a phone, write its trajectory and print the verdict."""
    code = run_episode(
        task, out, serial, replay, agent, seed, setup, fmt is Format.json, probe_steps
    )
    raise typer.Exit(code)


def run_episode(
    task: str,
    out: Path,
    serial: str | None,
    replay: Path | None,
    agent: str,
    seed: int,
    setup: bool,
    as_json: bool,
    probe_steps: bool = False,
) -> int:
    from tasklang.envs.device.driver import Driver, ShellDriver
    from tasklang.envs.device.env import DeviceEnv

    compiled = _task(task)
    actions = _agent_actions(agent)
    transport = _transport(serial, replay)
    driver: Driver = _u2_driver(serial) if serial is not None else ShellDriver(transport)
    env = DeviceEnv(
        compiled, driver, transport, seed=seed, setup=setup, record_path=out, serial=serial,
        probe_steps=probe_steps,
    )  # fmt: skip
    env.reset(seed=seed)
    reward: float | None = None
    for action in actions:
        if env.ended:
            break
        _, reward, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            break
    if not env.ended:
        _, reward, *_ = env.step({"action_type": "status", "goal_status": "complete"})
    if setup and not _teardown(env):
        reward = None
    doc = {"task": compiled.task.id, "out": str(out), "reward": reward, "error": env.error,
           "steps": len(env.traj.steps) if env.traj else 0}  # fmt: skip
    if as_json:
        typer.echo(json.dumps(doc, indent=2))
    else:
        shown = "error: " + env.error if env.error else f"reward {reward}"
        typer.echo(f"{compiled.task.id}: {shown} ({doc['steps']} steps), trajectory in {out}")
    return EXIT_OK if reward == 1.0 else EXIT_FAIL


def _teardown(env: Any) -> bool:
    """Put back what setup changed; False (with a message) when the phone would not."""
    from tasklang.envs.device.env import FAULTS

    try:
        env.teardown()
    except FAULTS as exc:
        typer.echo(
            f"tasklang: error: tear-down failed, the phone keeps the task's state: {exc}", err=True
        )
        return False
    return True


def _agent_actions(agent: str) -> list[dict[str, Any]]:
    from tasklang.runcmd import replay_actions

    if agent == "nothing":
        return []
    if agent.startswith("replay:"):
        path = Path(agent.removeprefix("replay:"))
        try:
            return replay_actions(path)
        except Exception as exc:  # any unreadable trajectory is bad usage
            raise typer.Exit(_error(f"cannot read `{path}`: {exc}")) from None
    raise typer.Exit(_error(f"unknown agent `{agent}`: nothing or replay:FILE"))


def _u2_driver(serial: str) -> Any:
    from tasklang.envs.device.driver import U2Driver
    from tasklang.envs.device.env import FAULTS

    try:
        return U2Driver(serial)
    except ImportError:
        raise typer.Exit(
            _error("uiautomator2 is not installed: pip install 'tasklang[device]'")
        ) from None
    except FAULTS as exc:
        raise typer.Exit(_error(f"cannot connect to `{serial}`: {exc}")) from None


# ------------------------------------------------------------------ differential
def differential_cmd(
    task: Annotated[
        str | None, typer.Argument(help="Task id or .task file (default: the library).")
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Instance seed.")] = 0,
    misses: Annotated[int, typer.Option("--misses", help="Near misses per task.")] = 6,
    episodes: Annotated[
        bool, typer.Option("--episodes", help="Also run each reference through DeviceEnv.")
    ] = False,
    why: Annotated[
        bool,
        typer.Option(
            "--why",
            help="List the clauses that leave each reference end state undecided, then "
            "each near miss.",
        ),
    ] = False,
    fmt: Annotated[Format, typer.Option("--format", help="text or json.")] = Format.text,
) -> None:
    """Compare the device checker (probing PhoneWorld) with the PhoneWorld verifier."""
    raise typer.Exit(run_differential(task, seed, misses, fmt is Format.json, episodes, why))


def run_differential(
    task: str | None,
    seed: int,
    misses: int,
    as_json: bool,
    episodes: bool = False,
    why: bool = False,
) -> int:
    import time

    from tasklang.envs.device.differential import run_episode, run_task
    from tasklang.runcmd import load

    try:
        tasks = load(task)
    except Exception as exc:  # an unknown task or unreadable path is bad usage
        return _error(str(exc))
    started = time.perf_counter()
    cases, failed = [], []
    for compiled in tasks.values():
        try:
            cases += run_task(compiled, seed, misses)
            if episodes:
                cases.append(run_episode(compiled, seed))
        except KeyError:
            continue  # no reference solution: nothing to compare
        except Exception as exc:  # reported per task, never a traceback
            failed.append(f"{compiled.task.id}: {type(exc).__name__}: {exc}")
    seconds = time.perf_counter() - started
    agree = sum(c.agrees for c in cases)
    decided = sum(c.device is not None for c in cases)
    observable = sum(c.observable for c in cases)
    clauses = sum(c.clauses for c in cases)
    disagreements = [
        {"task": c.task, "case": c.name, "phoneworld": c.phoneworld, "device": c.device,
         "clauses": c.disagreements} for c in cases if not c.agrees
    ]  # fmt: skip
    # the reference end states a phone leaves undecided, and the clauses it cannot decide
    undecided: list[dict[str, Any]] = [
        {"task": c.task, "clauses": c.unobservable}
        for c in cases if c.name == "reference" and c.device is None
    ]  # fmt: skip
    # ... and the near misses (the episodes through DeviceEnv among them)
    undecided_misses: list[dict[str, Any]] = [
        {"task": c.task, "case": c.name, "clauses": c.unobservable}
        for c in cases if c.name != "reference" and c.device is None
    ]  # fmt: skip
    summary: dict[str, Any] = {
        "tasks": len(tasks), "cases": len(cases), "agree": agree, "decided": decided,
        "observable_clause_results": observable, "clause_results": clauses,
        "seconds": round(seconds, 2), "errors": failed,
        "disagreements": disagreements, "undecided_references": undecided,
        "undecided_near_misses": undecided_misses,
    }  # fmt: skip
    if as_json:
        typer.echo(json.dumps(summary, indent=2))
    else:
        typer.echo(
            f"{len(cases)} end states of {len(tasks)} task(s): {agree} agree, {decided} decided "
            f"on a phone; {observable}/{clauses} clause results observable ({seconds:.1f}s)"
        )
        references = sum(c.name == "reference" for c in cases)
        typer.echo(f"{len(undecided)} of {references} reference end states undecided on a phone")
        for d in disagreements:
            typer.echo(f"  DISAGREE {d['task']} {d['case']}: clauses {d['clauses']}")
        for u in undecided if why else []:
            typer.echo(f"  UNDECIDED {u['task']}")
            for clause, reason in u["clauses"].items():
                typer.echo(f"    {clause}: {reason}")
        if why and undecided_misses:
            n = len(undecided_misses)
            typer.echo(f"{n} near miss{'' if n == 1 else 'es'} undecided on a phone")
        for u in undecided_misses if why else []:
            typer.echo(f"  undecided {u['task']} ({u['case']})")
            for clause, reason in u["clauses"].items():
                typer.echo(f"    {clause}: {reason}")
        for f in failed:
            typer.echo(f"  ERROR {f}", err=True)
    return EXIT_OK if agree == len(cases) and not failed else EXIT_FAIL


def register(app: typer.Typer) -> None:
    """Add this module's commands to the `tasklang` CLI (imports stay lazy: startup stays fast)."""
    device = typer.Typer(
        help="Plan, run and check tasks on a real Android phone.", no_args_is_help=True
    )
    device.command("plan")(plan_cmd)
    device.command("check")(check_cmd)
    device.command("run")(run_cmd)
    device.command("differential")(differential_cmd)
    app.add_typer(device, name="device")
