"""Google Maps' routes on a phone: read from the Go tab, and a field raised only by one button.

Routes live on Google's servers; the Go tab lists the directions got lately, each with its
destination, its start and its travel mode, but not whether navigation started. A route has
no key and no field that never changes (the mode, the start, the destination and the stops all
change on the directions page), so `changes routes.started only by id ".../start_button"`
says the one thing that can be said of such records: a route comes to be started only by that
button. An episode that never tapped it started no route, and where the Go tab read before the
episode listed none, every route at the end is one not started.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from tasklang import ir
from tasklang.compiler import Compiler
from tasklang.envs.device.check import probe
from tasklang.envs.device.differential import (
    judge,
    library,
    near_misses,
    run_task,
    start_reading,
)
from tasklang.envs.device.phoneworld import PhoneWorldTransport
from tasklang.envs.device.probes import defaults_read, fill_unraised, needs_start
from tasklang.envs.device.setup import build_plan
from tasklang.envs.phoneworld.app import UndeclaredChange
from tasklang.envs.phoneworld.episode import Episode, run_reference
from tasklang.verifiers.probes import quiet_state, unraised_state
from tasklang.verifiers.snapshot import AppState, WorldSnapshot
from tasklang.verifiers.state import field_unraised, unraised_fields
from tasklang.verifiers.trajectory import Trajectory
from tasklang.verifiers.ui import Screen

TASK = "maps.travel_mode_directions"
START = "com.google.android.apps.maps:id/start_button"

LOG = """\
app log_demo {
  package "com.example.log"
  record Line { text: text  seen: bool = false  note: text }
  collection lines: Line
%s}
"""


def _diagnostics(extra: str) -> list[tuple[str, str, str]]:
    result = Compiler().compile_text(LOG % extra, path="log.app")
    return [(d.code, d.message, d.help or "") for d in result.diagnostics]


# ---------------------------------------------------------------- the language
def test_a_field_with_a_default_may_be_scoped_on_records_told_apart_by_nothing() -> None:
    assert _diagnostics('  changes lines.seen only by id "com.example.log:id/seen"\n') == []
    result = Compiler().compile_text(
        LOG % '  changes lines.seen only by id "com.example.log:id/seen"\n', path="log.app"
    )
    assert unraised_fields({"log_demo": result.apps["log_demo"]}) == {
        ("log_demo", "lines.seen"): False
    }


def test_a_field_without_a_default_is_refused_there() -> None:
    [(code, message, hint)] = _diagnostics('  changes lines.note only on text "Edit"\n')
    assert code == "TL1033"
    assert "no default to be raised from" in message and "give `note` a default" in hint


def test_records_told_apart_keep_their_stronger_reading() -> None:
    """With a field that never changes, a field line follows each record (not counts)."""
    extra = '  changes lines.text nowhere\n  changes lines.seen only by id "x:id/seen"\n'
    result = Compiler().compile_text(LOG % extra, path="log.app")
    assert not result.diagnostics
    assert unraised_fields({"log_demo": result.apps["log_demo"]}) == {}


# ---------------------------------------------------------------- what it means
def test_field_unraised_counts_the_records_holding_each_other_value() -> None:
    old = [{"to": "A", "started": True}, {"to": "B", "started": False}]
    # a started route whose mode changed reads as one removed and one added: no more started
    assert field_unraised(old, [{"to": "A2", "started": True}, old[1]], "started", False)
    assert field_unraised(old, [old[1]], "started", False)  # one removed
    assert field_unraised(old, [*old, {"to": "C", "started": False}], "started", False)
    assert not field_unraised(old, [*old, {"to": "C", "started": True}], "started", False)
    assert not field_unraised(old, [old[0], {"to": "B", "started": True}], "started", False)
    # a field a record lacks reads as null: another value than a default that is not null
    assert not field_unraised([], [{"to": "A"}], "started", False)
    assert field_unraised([], [{"to": "A"}], "note", None)


def _replayed(extra: list[str], ep: Episode | None = None) -> tuple[Episode, Trajectory]:
    """The task's reference steps, then taps on the elements with the ids in ``extra``,
    then the agent's "complete" (on ``ep``, or a new episode)."""
    compiled = library()[TASK]
    _, traj = run_reference(compiled, 0)
    ep = ep if ep is not None else Episode(compiled, 0)
    for step in traj.steps:
        if step.action is not None and step.action.action_type != "status":
            ep.step(step.action.model_dump(exclude_none=True))
    for rid in extra:
        found = next(e for e in Screen.from_parts(ep.xml(), None).elements if e.resource_id == rid)
        ep.step({"action_type": "click", "index": found.index})
    ep.step({"action_type": "status", "goal_status": "complete"})
    return ep, ep.trajectory()


def test_phoneworld_lets_start_start_a_route_and_nothing_else() -> None:
    ep, _ = _replayed([START])
    [route] = ep.phone.world().apps["maps"].collections["routes"]
    assert route["started"] is True
    ep = Episode(library()[TASK], 0)
    [scope] = ep.phone.change_scopes[("maps", "routes.started")]
    steps = ir.Selector(attrs=[ir.UiAttr(attr="id", value="x:id/steps_button")])
    ep.phone.change_scopes[("maps", "routes.started")] = [
        scope.model_copy(update={"screens": [steps]})
    ]
    with pytest.raises(UndeclaredChange, match=r"maps\.routes\.started changed"):
        _replayed([START], ep)
    assert not any(r["started"] for r in ep.phone.world().apps["maps"].collections["routes"])


# ---------------------------------------------------------------- on a phone
def _read(compiled: Any, traj: Trajectory) -> tuple[Any, list[dict[str, Any]]]:
    start = start_reading(compiled, traj)
    assert start is not None
    final = traj.final.snapshot
    assert final is not None
    case = judge(compiled, traj, final, "end", None, start)
    return case, start.snapshot.apps["maps"].collections["routes"]


def test_the_go_tab_reads_the_routes_and_no_start_tap_reads_them_not_started() -> None:
    compiled = library()[TASK]
    assert needs_start(compiled)  # the Go tab is read before the episode too
    assert defaults_read(compiled) == {("maps", "routes.started"): False}
    notes = build_plan(compiled, run_reference(compiled, 0)[1].header.instance.initial).notes
    assert any(n.startswith("maps.routes.started: shown on no page; read as false") for n in notes)
    _, traj = run_reference(compiled, 0)
    case, before = _read(compiled, traj)
    assert before == []  # the task's phone has no directions yet
    assert case.phoneworld is True and case.device is True and case.agrees
    assert case.unobservable.keys() <= {"s7"}, case.unobservable  # the final screen's check
    end = traj.final.snapshot
    assert end is not None
    phone = PhoneWorldTransport(compiled, lambda: end, lambda: end.ui_xml or "", None)
    reading = probe(
        compiled, phone, initial=traj.header.instance.initial, screens=True, sleep=lambda s: None
    )
    [shown] = reading.snapshot.apps["maps"].collections["routes"]
    [route] = end.apps["maps"].collections["routes"]
    assert shown == {k: route[k] for k in ("destination", "origin", "mode")}
    assert route["mode"] != "driving"  # the travel mode picked, as the Go tab shows it
    # what the Go tab shows, and what the filling adds
    unraised = unraised_state(compiled, traj.steps)
    assert unraised == {("maps", "routes.started"): False}
    assert ("maps", "routes.started") not in quiet_state(compiled, traj.steps)
    read = WorldSnapshot(apps={"maps": AppState(collections={"routes": [
        {k: v for k, v in r.items() if k in ("destination", "origin", "mode")}
        for r in end.apps["maps"].collections["routes"]
    ]})})  # fmt: skip
    empty = WorldSnapshot(apps={"maps": AppState(collections={"routes": []})})
    filled, which = fill_unraised(empty, read, unraised)
    assert which == {("maps", "routes", "started")}
    assert all(r["started"] is False for r in filled.apps["maps"].collections["routes"])
    assert "started" not in read.apps["maps"].collections["routes"][0]  # a copy is filled
    # no route at the end: nothing to fill, and nothing unread either
    assert fill_unraised(empty, empty, unraised)[1] == {("maps", "routes", "started")}
    # nothing read before the episode, or a route listed then: the field stays unread
    assert fill_unraised(None, read, unraised) == (read, set())
    listed = WorldSnapshot(apps={"maps": AppState(collections={"routes": [{"destination": "X"}]})})
    assert fill_unraised(listed, read, unraised) == (read, set())


def test_a_route_started_in_the_episode_leaves_started_unread() -> None:
    compiled = library()[TASK]
    ep, traj = _replayed([START])
    assert ep.verdict().success is False
    assert unraised_state(compiled, traj.steps) == {}
    case, _ = _read(compiled, traj)
    # the route's fields are not guessed; the Start tap is what fails it on a phone
    assert "c1" in case.unobservable and "c2" in case.unobservable
    assert case.agrees and case.device is False


def test_near_misses_start_no_route_the_episode_did_not_start() -> None:
    compiled = library()[TASK]
    _, traj = run_reference(compiled, 0)
    final = traj.final.snapshot
    assert final is not None
    unraised = unraised_state(compiled, traj.steps)
    started = set()
    for seed in range(30):
        every = near_misses(compiled, final, random.Random(seed), 400)
        kept = near_misses(compiled, final, random.Random(seed), 400, unraised=unraised)
        started |= {n for n, _ in every} - {n for n, _ in kept}
    assert started and all(n.endswith(".started") for n in started)


@pytest.mark.parametrize("task", [TASK, "cross.yelp_branch_directions"])
def test_the_routes_tasks_are_decided_and_agree(task: str) -> None:
    cases = run_task(library()[task], 0)
    assert cases[0].name == "reference" and cases[0].device is True
    assert all(c.agrees for c in cases)
    assert any(c.device is False for c in cases[1:])  # a near miss is caught
