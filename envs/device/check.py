"""The device checker: probe a phone, then judge the episode with the same verifier as
PhoneWorld's, deciding only what the probes can see."""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise
from typing import Any

from pydantic import ValidationError

from tasklang import ir
from tasklang.envs.device.probes import (
    Listed,
    Reading,
    carry_unread,
    coverage,
    fill_unraised,
    probe_specs,
    read_start,
    read_world,
    start_specs,
)
from tasklang.envs.device.screens import screen_specs
from tasklang.envs.device.setup import foreground_commands
from tasklang.envs.device.shell import Command
from tasklang.envs.device.stamped import stamp
from tasklang.envs.device.transport import Transport, run_argv
from tasklang.verifiers.bracket import Readings
from tasklang.verifiers.check import (
    InstanceError,
    Monitor,
    check_trajectory,
    episode_from_trajectory,
    resolve_params,
)
from tasklang.verifiers.probes import (
    Coverage,
    DeviceVerdict,
    Shown,
    StepProofs,
    could_change,
    device_verdict,
    step_proofs,
)
from tasklang.verifiers.snapshot import WorldSnapshot
from tasklang.verifiers.trajectory import Final, Step, Trajectory

# the trajectory header's entries for the start reading (state only screens show, read before
# the episode, and the folders of the listings whose rows are not the records: see
# `probe_start`)
START = "device_start"
LISTED = "device_listed"


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
        compiled, _runner(transport, timeout), initial=initial, screens=screens, sleep=sleep
    )


# commands that act on the phone (a screen probe's), which a timeout does not repeat: one
# that timed out may still have happened, and a second tap could open another page
ACTS = frozenset({"am", "monkey", "input"})


def _runner(transport: Transport, timeout: float) -> Callable[[tuple[str, ...]], str]:
    """How a probe plan runs a command on the phone (argv -> output): a command that reads
    is tried again once if it times out."""
    return lambda argv: run_argv(transport, argv, timeout, retries=0 if argv[0] in ACTS else 1)


def probe_start(
    compiled: ir.CompiledTask,
    transport: Transport,
    timeout: float = 20.0,
    sleep: Callable[[float], None] | None = None,
) -> Reading:
    """Read, before an episode, the state only the apps' screens show (which a reading after
    each step leaves out): with the reading at the end it proves some changes along the way.
    The folders of the listings whose rows are not the records are read too: the same ones
    at the end prove those records unchanged. The apps whose screens were read are left
    open."""
    return read_start(compiled, _runner(transport, timeout), sleep)


def start_header(start: Reading) -> dict[str, Any]:
    """A start reading as the trajectory header's entries keep it (see :func:`start_of`)."""
    return {
        START: start.snapshot.model_dump(mode="json", exclude_none=True),
        LISTED: listed_json(start.listed),
    }


def back_to_start(compiled: ir.CompiledTask) -> list[Command]:
    """After :func:`probe_start`: the apps whose screens it read stopped, and the phone where
    setup leaves it (the task's foreground app opened again, or the home screen)."""
    packages = dict.fromkeys(s.package for s in start_specs(compiled))
    if not packages:  # only listings were read: the phone is where setup left it
        return []
    out = [Command(("am", "force-stop", p), f"stop {p}") for p in packages if p]
    out.append(Command(("input", "keyevent", "KEYCODE_HOME"), "go home"))
    return out + foreground_commands(compiled)


def start_of(traj: Trajectory) -> WorldSnapshot | None:
    """The start reading a trajectory's header holds (see :func:`probe_start`)."""
    raw = traj.header.extra.get(START)
    if raw is None:
        return None
    try:
        return WorldSnapshot.model_validate(raw)
    except ValidationError as exc:
        where = exc.errors()[0]
        at = ".".join(str(p) for p in where["loc"]) or "(top)"
        raise InstanceError(
            f"the header's `extra.{START}` is not a world snapshot: at `{at}`: {where['msg']}"
        ) from None


def listed_json(listed: Listed) -> dict[str, list[str]]:
    """The folders a reading's listings held, as a trajectory keeps them (see
    :func:`listed_of`)."""
    return {f"{a}.{n}": sorted(paths) for (a, n), paths in sorted(listed.items())}


def listed_of(traj: Trajectory) -> Listed | None:
    """The folders the start reading's listings held, as the trajectory header keeps them
    (None: it holds none)."""
    return _listed(traj.header.extra.get(LISTED), f"the header's `extra.{LISTED}`")


def _listed(raw: Any, where: str) -> Listed | None:
    if raw is None:
        return None
    bad = InstanceError(f"{where} is not a map of `app.collection` to lists of paths")
    if not isinstance(raw, dict):
        raise bad
    out = {}
    for name, paths in raw.items():
        app, _, coll = str(name).partition(".")
        if not coll or not isinstance(paths, list) or not all(isinstance(p, str) for p in paths):
            raise bad
        out[(app, coll)] = frozenset(paths)
    return out


def device_check(
    compiled: ir.CompiledTask,
    traj: Trajectory,
    transport: Transport,
    timeout: float = 20.0,
    step_states: list[WorldSnapshot] | None = None,
    sleep: Callable[[float], None] | None = None,
    start: WorldSnapshot | None = None,
    history: bool = True,
    listed: Listed | None = None,
    proofs: StepProofs | None = None,
) -> DeviceVerdict:
    """The verdict on an episode whose end state is read from the phone now.

    The steps keep what a phone records (screens, actions, foreground); ``step_states``
    are probe readings taken after each step, when the episode was probed along the way
    (without them, changes along the way are not observable). The final state is the
    probe reading now, screens included (``sleep``: how to wait while a screen settles).
    ``start`` (or the trajectory header's, :func:`start_of`) is :func:`probe_start`'s
    reading before the episode, and ``listed`` (or the header's, :func:`listed_of`) the
    folders its listings held. ``history``: the trajectory records what was done on the
    phone (False: the phone is read with no such record, so nothing is proved unchanged
    but the state its app never changes); ``proofs``: what the steps prove, where the caller
    has worked it out already (``step_proofs``).
    """
    initial = traj.header.instance.initial
    reading = probe(compiled, transport, timeout, initial, screens=True, sleep=sleep)
    probed = step_states is not None and len(step_states) == len(traj.steps)
    stamped: set[tuple[str, str, str]] = set()
    untold: set[tuple[str, str, str]] = set()
    end = reading.snapshot
    if probed and step_states is not None:  # what the app set from a setting, step by step
        packages = [s.observation.package for s in traj.steps]
        step_states, end, stamped, untold = stamp(compiled, initial, step_states, end, packages)
    start = start if start is not None else start_of(traj)
    if proofs is None:
        proofs = step_proofs(compiled, traj.steps if history else None)
    # a field no step could raise from its default, where none held another before
    end, filled = fill_unraised(start, end, proofs.unraised)
    # a service's records the end could not read, where the steps prove them as they were
    end, carried = carry_unread(
        compiled, start, end, set(reading.unread), proofs.quiet, proofs.kept, proofs.closed
    )
    states = step_states if probed and step_states is not None else [None] * len(traj.steps)
    steps = [
        s.model_copy(update={"snapshot": st}) for s, st in zip(traj.steps, states, strict=True)
    ]
    final = Final(status=traj.final.status, answer=traj.final.answer, snapshot=end)
    seen = Trajectory(header=traj.header, steps=steps, final=final, path=traj.path)
    verdict = check_trajectory(compiled, seen, initial_override=traj.header.instance.initial)
    cov = coverage(compiled, initial=initial).with_quiet(proofs.quiet).with_kept(proofs.kept)
    cov = cov.with_closed(proofs.closed).with_one_way(proofs.one_way)
    # ... each in the records whose value the readings tell
    cov = cov.with_fields(stamped | filled).partly_read(untold)
    # a field some rows do not keep is read only in the records that keep it
    cov = cov.partly_read(not_kept(compiled, [*(s for s in states if s is not None), end]))
    listed = listed if listed is not None else listed_of(traj)
    if listed is not None:  # the same folders before and after: the records are the same
        same = frozenset(k for k, paths in reading.listed.items() if listed.get(k) == paths)
        cov = cov.with_same(same)
        if probed:  # ... and after every step: they never changed, lost or gained one
            along = [_listed(s.extra.get(LISTED), f"step {s.index}'s `extra.{LISTED}`")
                     for s in traj.steps]  # fmt: skip
            series = listing_series(listed, along, reading.listed)
            moves = {k: list(pairwise(seq)) for k, seq in series.items()}
            cov = cov.with_quiet(frozenset(k for k, seq in series.items() if len(set(seq)) == 1))
            cov = cov.with_kept(
                frozenset(k for k, m in moves.items() if not any(a - b for a, b in m))
            )
            cov = cov.with_closed(
                frozenset(k for k, m in moves.items() if not any(b - a for a, b in m))
            )
            cov = cov.with_changed(listing_change(compiled, traj.steps, series))
    unread = set(reading.unread) - carried
    lost: set[tuple[str, str]] = set()
    if probed:  # state a reading along the way could not get is not seen changing either
        during = cov.during()
        lost = {key for st in states if st is not None for key in _missing(st, during)}
        lost -= unread
    # a datetime a screen showed only to the minute, before the episode or after it
    cov = cov.partly_read(shown_as_ranges(compiled, [s for s in (start, end) if s is not None]))
    readings, ep = None, None
    try:
        params = resolve_params(compiled, traj.header.instance.params, initial or WorldSnapshot())
    except InstanceError:  # parameters named by a record the header's state does not hold
        if start is not None:
            raise
    else:
        readings = Readings(start, end, params) if start is not None else None
        ep = episode_from_trajectory(seen, params, initial or WorldSnapshot(), [])
    taken, first_at = None, None
    if history and readings is not None and ep is not None:  # the trajectory's events, to order

        def first_at(event: ir.Event) -> int | None:
            found = Monitor(compiled, ep).occurrences([event], [True])[0]
            return found[0].moment if found else None

        taken = traj.steps
    cov = cov.listed_in_part(reading.unlisted).without(unread)
    # ... but a check of the end state reads the reading at the end alone
    at_end = cov if lost else None
    return device_verdict(
        compiled, verdict, cov.without(lost), probed, readings, taken, first_at, ep, at_end
    )


def listing_series(
    start: Listed, along: list[Listed | None], end: Listed
) -> dict[tuple[str, str], list[frozenset[str]]]:
    """(app, collection) -> the folders its listing held before the episode, after each step
    (``along``) and at the end, for each listing every one of those readings holds. A
    listing that holds the records among others (each a folder under its path) and never
    changed proves them unchanged all along; one that never lost a folder, that no record
    was removed (nor renamed); one that never gained one, that none was added."""
    out = {}
    for key, now in sorted(end.items()):
        seq = [start.get(key), *(a.get(key) if a is not None else None for a in along), now]
        if all(paths is not None for paths in seq):
            out[key] = [paths for paths in seq if paths is not None]
    return out


def listing_change(
    compiled: ir.CompiledTask,
    steps: list[Step],
    series: dict[tuple[str, str], list[frozenset[str]]],
) -> dict[tuple[str, str], tuple[Shown, ...]]:
    """(app, collection) -> the folders that show its records changed at the end from the
    start, for each listing of :func:`listing_series` (read before the episode, after each
    of ``steps`` and at the end): a folder there at the end and not at the start, or the
    other way round, whose last change came at a step the app models say could add a record
    (or remove one: :func:`~tasklang.verifiers.probes.could_change`), is read as the app's
    (that another app made or removed a folder there in the second that step took is the
    one thing this reading assumes away). A change after the last step's reading, or at a
    step on no such screen, is left unattributed: another app may make a folder of its own
    there at any time."""
    out = {}
    for key, readings in series.items():  # before the episode, after each step, at the end
        before, now = readings[0], readings[-1]
        shown = []
        for path in sorted(before ^ now):
            there = path in now
            last = len(readings) - 1  # the first reading from which it stays as at the end
            while (path in readings[last - 1]) == there:
                last -= 1
            if last == len(readings) - 1:  # changed after the last step's reading
                continue
            step = steps[last - 1]
            if could_change(compiled, key, there, step):
                how = "appeared" if there else "was removed"
                detail = f"the folder {path} {how} at step {step.index}"
                shown.append(Shown("added" if there else "deleted", detail))
        if shown:
            out[key] = tuple(shown)
    return out


def not_kept(compiled: ir.CompiledTask, states: list[WorldSnapshot]) -> set[tuple[str, str, str]]:
    """The (app, collection, field) that some row read in ``states`` did not keep (a field
    whose codec is ``partial``, one kept only while another field holds some values, or one
    the other provider that keeps some records has no column for, left out of that row's
    record): read for the episode only in the records that hold it
    (``Coverage.partly_read``)."""
    out = set()
    for spec in probe_specs(compiled):
        elsewhere = any(f.elsewhere is not None and f.elsewhere.read for f in spec.elsewhere)
        for fm in spec.fields:
            kept_while = fm.prefs_entry is not None and bool(fm.prefs_entry.when)
            partial = (fm.codec.partial or kept_while or elsewhere) and fm.codec.exact
            if partial and _lacking(states, spec.app, spec.target, fm.field):
                out.add((spec.app, spec.target, fm.field))
    return out


def shown_as_ranges(
    compiled: ir.CompiledTask, states: list[WorldSnapshot]
) -> set[tuple[str, str, str]]:
    """The (app, collection, field) a screen showed in some record of ``states`` only as a
    range it lies in (a datetime to the minute: ``screens.Within``), and not the value: read
    for the episode only in the records that hold it (``Coverage.partly_read``). A screen
    that always shows the seconds leaves its field read exactly."""
    out = set()
    for spec in screen_specs(compiled):
        for read in (*spec.reads, *spec.details, *spec.group_reads):
            ranged = read.ranged and spec.kind == "collection"
            if ranged and _lacking(states, spec.app, spec.target, read.name):
                out.add((spec.app, spec.target, read.name))
    return out


def _lacking(states: list[WorldSnapshot], app: str, name: str, field: str) -> bool:
    """Whether some record of the collection ``app.name`` in ``states`` lacks ``field``."""
    for st in states:
        held = st.apps.get(app)
        recs = held.collections.get(name) if held is not None else None
        if recs and any(field not in r for r in recs):
            return True
    return False


def _missing(state: WorldSnapshot, cov: Coverage) -> set[tuple[str, str]]:
    """The collections and settings ``cov`` reads that a reading did not hold."""
    out = set()
    for app, name in [*cov.fields, *cov.settings]:
        held = state.apps.get(app)
        if held is None or (name not in held.collections and name not in held.settings):
            out.add((app, name))
    return out
