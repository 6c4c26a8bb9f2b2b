"""Running a plan on a phone: setup (keeping the outputs the tear-down needs), tear-down
(rebuilding its steps from them)."""

from __future__ import annotations

from tasklang import ir
from tasklang.envs.device.probes import ProbeSpec
from tasklang.envs.device.setup import Plan, build_plan, restore_rows, restore_setting_key
from tasklang.envs.device.shell import Command
from tasklang.envs.device.transport import CommandFailed, Transport, run_argv
from tasklang.verifiers.snapshot import WorldSnapshot


def run_command(t: Transport, cmd: Command, timeout: float) -> str:
    try:
        if cmd.kind == "push":
            t.push(cmd.argv[0], cmd.data or b"", timeout)
            return ""
        return run_argv(t, cmd.argv, timeout)
    except CommandFailed:
        if cmd.tolerate:
            return ""
        raise


def run_setup(
    compiled: ir.CompiledTask, initial: WorldSnapshot, t: Transport, timeout: float = 20.0
) -> dict[str, str]:
    """Run the setup steps; the outputs saved for the tear-down, by name."""
    saved: dict[str, str] = {}
    for cmd in build_plan(compiled, initial).setup:
        out = run_command(t, cmd, timeout)
        if cmd.save:
            saved[cmd.save] = out
    return saved


def teardown_commands(plan: Plan, saved: dict[str, str]) -> list[Command]:
    """The tear-down with each restore step made from what setup saved."""
    out: list[Command] = []
    for cmd in plan.teardown:
        name = cmd.meta.get("restore")
        if name is None:
            out.append(cmd)
        elif cmd.meta.get("rmdir"):
            if not saved.get(name, "").strip():  # `ls -d` found nothing: setup made it
                out.append(Command(cmd.argv, cmd.purpose, tolerate=True))
        elif name in saved:
            spec = cmd.meta.get("spec")
            if isinstance(spec, ProbeSpec) and spec.kind == "collection":
                out.extend(restore_rows(spec, saved[name]))
            else:
                out.append(restore_setting_key(name, saved[name]))
    return out


def run_teardown(
    compiled: ir.CompiledTask,
    initial: WorldSnapshot,
    t: Transport,
    saved: dict[str, str],
    timeout: float = 20.0,
) -> None:
    for cmd in teardown_commands(build_plan(compiled, initial), saved):
        run_command(t, cmd, timeout)
