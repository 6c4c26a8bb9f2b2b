"""Running a plan on a phone: setup (keeping the outputs the tear-down needs), tear-down
(rebuilding its steps from them)."""

from __future__ import annotations

from tasklang import ir
from tasklang.envs.device import mms
from tasklang.envs.device.parse import parse_content_rows
from tasklang.envs.device.probes import ProbeSpec, ids_command
from tasklang.envs.device.setup import Plan, build_plan, restore_rows, restore_setting_key
from tasklang.envs.device.shell import Command
from tasklang.envs.device.transport import CommandFailed, Transport, TransportError, run_argv
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


class SetupRefused(TransportError):
    """A phone that setup cannot bring to the task's initial world without losing what it
    keeps (messages in an MMS box, which setup can neither write nor put back). Raised
    before setup changes anything the tear-down could not restore."""


def run_setup(
    compiled: ir.CompiledTask, initial: WorldSnapshot, t: Transport, timeout: float = 20.0
) -> dict[str, str]:
    """Run the setup steps; the outputs saved for the tear-down, by name. Raises
    :class:`SetupRefused` where a check finds the phone holding other rows than the task
    gives where setup cannot replace them (the checks come first: nothing is changed)."""
    saved: dict[str, str] = {}
    for cmd in build_plan(compiled, initial).setup:
        out = run_command(t, cmd, timeout)
        if cmd.save:
            saved[cmd.save] = out
        expect = cmd.meta.get("expect_rows")
        if expect is not None and len(_ids(out)) != expect:
            raise SetupRefused(
                f"{cmd.argv[3]} holds {len(_ids(out))} message(s) where the task gives "
                f"{expect}; setup cannot replace them and put them back: delete them on "
                "the phone (or prepare the task's own) and run again"
            )
    return saved


def _ids(out: str) -> list[str]:
    """The `_id`s of a `content query --projection _id`."""
    return [r["_id"] or "" for r in parse_content_rows(out, ["_id"])]


def teardown_commands(plan: Plan, saved: dict[str, str]) -> list[Command]:
    """The tear-down with each restore step made from what setup saved."""
    out: list[Command] = []
    for cmd in plan.teardown:
        name = cmd.meta.get("restore")
        if name is None or cmd.meta.get("drop_added"):  # made when it runs (`run_teardown`)
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
    """Run the tear-down: each restore step made from what setup saved, and the messages an
    episode added to an MMS box (those it holds now that it did not at setup) deleted."""
    for cmd in teardown_commands(build_plan(compiled, initial), saved):
        box = cmd.meta.get("drop_added")
        if box is None:
            run_command(t, cmd, timeout)
            continue
        # the messages the box holds now that it did not before setup: the episode's
        if cmd.meta["restore"] not in saved:  # not known: the phone's own are kept
            continue
        had = set(_ids(saved[cmd.meta["restore"]]))
        now = run_argv(t, ids_command(box, "").argv, timeout)
        for mid in _ids(now):
            if mid not in had:
                run_command(t, mms.delete_command(mid), timeout)
