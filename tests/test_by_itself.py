"""`changes NAME by itself`: state a service, other people or the time change with no action.

What watches a whole app (`unchanged APP`, the rest of the state under `only ... changed`,
`changed any`) does not watch it, in PhoneWorld's verifier and on a phone alike; a clause that
names it still does. A field that changes by itself leaves the collection's own `only on` /
`nowhere` line holding of its records' additions, deletions and other fields.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from tasklang import ir
from tasklang.compiler import Compiler
from tasklang.envs.device.differential import judge, library
from tasklang.envs.phoneworld.app import AppData, UndeclaredChange
from tasklang.envs.phoneworld.episode import Episode, run_reference
from tasklang.fmt import format_source
from tasklang.source import SourceFile
from tasklang.verifiers.check import check_trajectory
from tasklang.verifiers.probes import Coverage, clause_problem, event_problem
from tasklang.verifiers.snapshot import WorldSnapshot
from tasklang.verifiers.state import Change, by_itself, itself_fields, unraised_fields
from tasklang.verifiers.trajectory import Trajectory

RIDES = """\
app rides_demo {
  package "com.example.rides"
  record Trip { trip_no: text key  destination: text  status: text = "requested"  driver: text? }
  record Log { line: text  seen: bool = false }
  record Coupon { code: text key }
  collection trips: Trip
  collection log: Log
  collection coupons: Coupon
  settings { location: text?  volume: int = 5 }
%s}
"""
DECLARED = (
    '  changes trips only on text "Book", text "Cancel this ride?"\n'
    "  changes trips.status, trips.driver by itself\n"
    "  changes location, coupons by itself\n"
)


def _compile(extra: str) -> tuple[dict[str, ir.AppModel], list[tuple[str, str]]]:
    result = Compiler().compile_text(RIDES % extra, path="rides.app")
    return dict(result.apps), [(d.code, d.message) for d in result.diagnostics]


def test_the_declaration_reaches_the_app_model() -> None:
    apps, diagnostics = _compile(DECLARED)
    assert diagnostics == []
    model = apps["rides_demo"]
    assert model.by_itself == ["trips.status", "trips.driver", "location", "coupons"]
    [trips] = model.changes_of("trips")
    assert not trips.by_tap and len(trips.screens) == 2
    # what changes by itself declares no way in: it is no `changes` scope
    assert model.changes_of("location") == [] and model.changes_of("trips.status") == []
    assert itself_fields({"rides_demo": model}) == {
        ("rides_demo", "trips"): frozenset({"status", "driver"})
    }


def test_the_formatter_keeps_the_declaration() -> None:
    formatted, diagnostics = format_source(SourceFile("rides.app", RIDES % DECLARED))
    assert diagnostics == [] and formatted is not None
    assert DECLARED in formatted
    assert Compiler().compile_text(formatted, path="rides.app").diagnostics == []


def test_a_keyless_collection_may_have_a_field_that_changes_by_itself() -> None:
    apps, diagnostics = _compile("  changes log.seen by itself\n")
    assert diagnostics == [] and apps["rides_demo"].by_itself == ["log.seen"]
    # where it changes by an action follows a record by its key, or says where a field with
    # a default is raised from it; that a field never changes is what tells such records apart
    _, diagnostics = _compile('  changes log.line only on text "Log"\n')
    assert [code for code, _ in diagnostics] == ["TL1033"]
    apps, diagnostics = _compile('  changes log.seen only on text "Log"\n')
    assert diagnostics == []
    assert unraised_fields({"rides_demo": apps["rides_demo"]}) == {
        ("rides_demo", "log.seen"): False
    }
    apps, diagnostics = _compile("  changes log.line nowhere\n")
    assert diagnostics == [] and apps["rides_demo"].identity("log") == ["line"]


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (
            "  changes trips by itself\n  changes trips.status by itself\n",
            "changes by itself, whole",
        ),
        ("  changes trips.status by itself\n  changes trips by itself\n", "is said of too"),
        ("  changes trips.status nowhere\n  changes trips by itself\n", "is said of too"),
        ("  changes location nowhere\n  changes location by itself\n", "said twice"),
        ("  changes location by itself\n  changes location nowhere\n", "said twice"),
        ("  changes location, location by itself\n", "said twice"),
        ("  changes trips.fare by itself\n", "has no field `fare`"),
        ("  changes place by itself\n", "has no collection or setting `place`"),
    ],
)
def test_each_name_is_said_of_once(lines: str, message: str) -> None:
    _, diagnostics = _compile(lines)
    assert [code for code, _ in diagnostics] == ["TL1033"]
    assert message in diagnostics[0][1]


def test_which_changes_happen_by_themselves() -> None:
    apps, _ = _compile(DECLARED)
    trip = {"trip_no": "T1", "destination": "Airport", "status": "requested", "driver": None}
    moved = {**trip, "status": "accepted", "driver": "Li"}
    app = "rides_demo"
    assert by_itself(apps, Change("changed", app, "location", "A", "B"))
    assert by_itself(apps, Change("added", app, "coupons", None, {"code": "X"}))
    assert by_itself(apps, Change("updated", app, "trips", trip, moved))
    # another field moved too, a record made or removed: the agent's doing, perhaps
    assert not by_itself(
        apps, Change("updated", app, "trips", trip, {**moved, "destination": "Zoo"})
    )
    assert not by_itself(apps, Change("added", app, "trips", None, trip))
    assert not by_itself(apps, Change("deleted", app, "trips", trip, None))
    assert not by_itself(apps, Change("changed", app, "volume", 5, 6))
    # a phone's reading of a record holds only the fields its probe reads: those it does not
    # are unknown, not changed (seed 2 of the differential found this on a coffee order)
    read = {"trip_no": "T1", "status": "accepted"}
    assert by_itself(apps, Change("updated", app, "trips", trip, read))
    assert not by_itself(
        apps, Change("updated", app, "trips", trip, {**read, "destination": "Zoo"})
    )


# ---------------------------------------------------------------- the verifier, on the library
def _end_state(task: str) -> tuple[ir.CompiledTask, Trajectory, WorldSnapshot]:
    compiled = library()[task]
    _, traj = run_reference(compiled, 0)
    final = traj.final.snapshot
    assert final is not None
    return compiled, traj, final


def _with(final: WorldSnapshot, app: str, name: str, edit: Any) -> WorldSnapshot:
    apps = copy.deepcopy(final.apps)
    edit(apps[app].collections[name])
    return final.model_copy(update={"apps": apps})


def _verdict(compiled: ir.CompiledTask, traj: Trajectory, final: WorldSnapshot) -> dict[str, bool]:
    seen = traj.model_copy(update={"final": traj.final.model_copy(update={"snapshot": final})})
    verdict = check_trajectory(compiled, seen, initial_override=traj.header.instance.initial)
    return {r.id: r.passed for r in verdict.clauses}


def _sold(rows: list[dict[str, Any]]) -> None:
    rows[0]["taken"] = [*rows[0].get("taken", []), "1-1"]


def test_an_app_wide_guard_does_not_watch_what_changes_by_itself() -> None:
    """`unchanged movies`: someone else buying a seat is no change of the agent's."""
    compiled, traj, final = _end_state("mini.movies_sold_out")
    [guard] = [c for c in compiled.task.clauses if isinstance(c.body, ir.UnchangedBody)]
    assert _verdict(compiled, traj, final)[guard.id]
    assert _verdict(compiled, traj, _with(final, "movies", "showtimes", _sold))[guard.id]
    # a change the agent could have made is still one
    ticket = {"order_no": "M20999", "show_id": "S1", "film": "F", "cinema": "C",
              "starts": "2026-05-14T20:00", "row": 1, "seat": 1}  # fmt: skip
    ordered = _with(final, "movies", "tickets", lambda rows: rows.append(ticket))
    assert not _verdict(compiled, traj, ordered)[guard.id]


def test_a_guard_that_names_it_still_watches_it() -> None:
    compiled, traj, final = _end_state("mini.movies_sold_out")
    [guard] = [c for c in compiled.task.clauses if isinstance(c.body, ir.UnchangedBody)]
    named = ir.UnchangedBody(targets=[ir.CollectionRef(app="movies", name="showtimes")])
    clauses = [c.model_copy(update={"body": named}) if c is guard else c
               for c in compiled.task.clauses]  # fmt: skip
    strict = compiled.model_copy(
        update={"task": compiled.task.model_copy(update={"clauses": clauses})}
    )
    assert not _verdict(strict, traj, _with(final, "movies", "showtimes", _sold))[guard.id]
    # and a phone, which reads no showtimes, cannot decide it
    case = judge(strict, traj, final, "reference")
    assert guard.id in case.unobservable


def test_a_field_that_changes_by_itself_is_excused_alone() -> None:
    """A ride's driver and status come from the service; its destination does not."""
    compiled, traj, final = _end_state("mini.ride_driver_plate")
    [guard] = [c for c in compiled.task.clauses if isinstance(c.body, ir.UnchangedBody)]

    def assign(rows: list[dict[str, Any]]) -> None:
        rows[0].update(status="completed", driver="Someone Else")

    def reroute(rows: list[dict[str, Any]]) -> None:
        rows[0].update(status="completed", destination="Somewhere Else")

    assert _verdict(compiled, traj, _with(final, "ride", "trips", assign))[guard.id]
    assert not _verdict(compiled, traj, _with(final, "ride", "trips", reroute))[guard.id]


# ---------------------------------------------------------------- on a phone
def test_the_phone_decides_an_app_wide_guard_over_a_service_that_keeps_moving(
    decided_on_a_phone: Callable[[str], None],
) -> None:
    for task in ("mini.movies_sold_out", "mini.ride_driver_plate", "mini.coffee_order_status"):
        decided_on_a_phone(task)


def test_proving_a_collection_quiet_leaves_its_loose_fields_out() -> None:
    """A collection no step was a way in to is unchanged but for the fields that change by
    themselves: no record was added or deleted, yet an update may have happened."""
    compiled = library()["mini.ride_driver_plate"]
    cov = Coverage.of(compiled, {}, set()).with_quiet(frozenset({("ride", "trips")}))
    trips = ir.CollectionRef(app="ride", name="trips")
    assert cov.loose(("ride", "trips")) and not cov.loose(("ride", "places"))
    assert event_problem(ir.ChangeEvent(op="added", target=trips), cov, False) is None
    assert event_problem(ir.ChangeEvent(op="deleted", target=trips), cov, False) is None
    assert event_problem(ir.ChangeEvent(op="updated", target=trips), cov, False) is not None
    assert cov.sees_changes(("ride", "trips"), implicit=True)
    assert not cov.sees_changes(("ride", "trips"))
    named = ir.Clause(id="c", body=ir.UnchangedBody(targets=[trips]))
    whole = ir.Clause(id="c", body=ir.UnchangedBody(targets=[], apps=["ride"]))
    assert clause_problem(named, compiled, cov) is not None
    assert "ride.trips" not in (clause_problem(whole, compiled, cov) or "")


# ---------------------------------------------------------------- PhoneWorld's declaration check
def test_phoneworld_lets_a_field_change_by_itself_with_no_way_in() -> None:
    """The ride app's trips change only on the pay sheet and the cancel dialogs, but for the
    fields the service moves: a trip assigned a driver with no step taken is no breach; its
    payment changed so is, and its destination (which never changes) too."""
    ep = Episode(library()["mini.ride_driver_plate"], 0)
    phone = ep.phone
    before = dict(phone.state)
    old = before["ride"]
    trip = old.collections["trips"][0]

    def moved(**fields: Any) -> AppData:
        trips = [{**trip, **fields}, *old.collections["trips"][1:]]
        return AppData({**old.collections, "trips": trips}, dict(old.settings))

    phone.state["ride"] = moved(status="completed", driver="Someone Else")
    phone._changed_where_declared(before)  # no way in needed
    phone.state["ride"] = moved(status="completed", paid=False)
    with pytest.raises(UndeclaredChange, match=r"ride\.trips changed where its model"):
        phone._changed_where_declared(before)
    assert phone.state["ride"] is old  # the apps' data as it was
    phone.state["ride"] = moved(destination="Somewhere Else")
    with pytest.raises(UndeclaredChange, match=r"ride\.trips\.destination changed where"):
        phone._changed_where_declared(before)
