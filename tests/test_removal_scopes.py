"""`removes C only on ...`: where an app removes a collection's records, narrower than where
the collection changes at all. PhoneWorld keeps to it; an episode that never takes such a
step proves the collection lost no record, which decides `deleted` events on it and, with
readings of its screens before and after the episode, its additions both ways and some of
its updates (``tasklang.verifiers.bracket``)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from tasklang import ir
from tasklang.compiler import Compiler
from tasklang.envs.device.check import device_check
from tasklang.envs.device.differential import library, near_misses, start_reading, step_readings
from tasklang.envs.device.phoneworld import PhoneWorldTransport
from tasklang.envs.device.probes import coverage, needs_start
from tasklang.envs.phoneworld.app import UndeclaredChange
from tasklang.envs.phoneworld.episode import Episode, run_reference
from tasklang.fmt import format_source
from tasklang.source import SourceFile
from tasklang.verifiers.bracket import Readings, bracketed_event, decide
from tasklang.verifiers.check import check_trajectory
from tasklang.verifiers.probes import _unseen_anywhere, kept_state, removal_scopes
from tasklang.verifiers.snapshot import AppState, WorldSnapshot
from tasklang.verifiers.trajectory import Action, Observation, Step

SHOP = """\
app shop_demo {
  package "com.example.shop"
  record Order { no: text key  status: text = "paid" }
  record Line { item: text }
  collection orders: Order
  collection lines: Line
  settings { tab: int = 0 }
  changes orders only on text "Pay", text "Delete order?"
%s}
"""
REMOVES = '  removes orders only on text "Delete order?"\n'
ADDS = '  adds orders only on text "Pay"\n'


def _compile(extra: str) -> tuple[dict[str, ir.AppModel], list[tuple[str, str]]]:
    result = Compiler().compile_text(SHOP % extra, path="shop.app")
    return dict(result.apps), [(d.code, d.message) for d in result.diagnostics]


# ---------------------------------------------------------------- the declaration
def test_the_declaration_reaches_the_app_model() -> None:
    apps, diagnostics = _compile(REMOVES + '  removes orders only by id "trash"\n')
    assert diagnostics == []
    model = apps["shop_demo"]
    on, by = model.removals_of("orders")
    assert [a.value for s in on.screens for a in s.attrs] == ["Delete order?"] and not on.by_tap
    assert by.by_tap
    # a `removes` line bounds removals only: where the collection changes is unchanged
    [changes] = model.changes_of("orders")
    assert len(changes.screens) == 2
    nowhere, _ = _compile("  removes orders nowhere\n")
    assert nowhere["shop_demo"].removals_of("orders")[0].screens == []
    assert removal_scopes(nowhere)[("shop_demo", "orders")] == nowhere["shop_demo"].removals


def test_the_formatter_keeps_the_declaration() -> None:
    text = SHOP % (REMOVES + '  removes orders only by id "trash"\n')
    formatted, diagnostics = format_source(SourceFile("shop.app", text))
    assert diagnostics == [] and formatted is not None
    assert REMOVES + '  removes orders only by id "trash"\n' in formatted
    assert Compiler().compile_text(formatted, path="shop.app").diagnostics == []


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("  removes order nowhere\n", "has no collection `order`"),
        ("  removes tab nowhere\n", "has no collection `tab`"),
        ("  removes lines nowhere\n", "`shop_demo.lines` have no key field"),
        ("  removes orders by itself\n", "not removed `by itself`"),
        (
            "  removes orders, orders nowhere\n",
            "where records of `orders` are removed is said twice",
        ),
        (REMOVES + "  removes orders nowhere\n", "is said twice"),
        (REMOVES + '  removes orders only on text "x"\n', "is said twice"),
        # where records are added: the same rules
        ("  adds order nowhere\n", "has no collection `order`"),
        ("  adds lines nowhere\n", "nothing says which record was added"),
        ("  adds orders by itself\n", "not added `by itself` in a `adds` line"),
        (ADDS + "  adds orders nowhere\n", "where records of `orders` are added is said twice"),
    ],
)
def test_each_name_is_a_collection_told_apart_said_of_once(line: str, message: str) -> None:
    _, diagnostics = _compile(line)
    assert diagnostics and {code for code, _ in diagnostics} == {"TL1033"}
    assert message in diagnostics[0][1]


def test_removes_and_adds_are_still_names_elsewhere() -> None:
    text = (SHOP % "").replace("status: text", "removes: int = 0  adds: int = 0  status: text")
    assert Compiler().compile_text(text, path="shop.app").diagnostics == []


def test_where_records_are_added_reaches_the_app_model_and_the_formatter() -> None:
    apps, diagnostics = _compile(ADDS + '  adds orders only by id "new"\n')
    assert diagnostics == []
    on, by = apps["shop_demo"].additions_of("orders")
    assert [a.value for s in on.screens for a in s.attrs] == ["Pay"] and by.by_tap
    assert apps["shop_demo"].removals_of("orders") == []
    formatted, problems = format_source(SourceFile("shop.app", SHOP % ADDS))
    assert problems == [] and formatted is not None and ADDS in formatted


# ---------------------------------------------------------------- PhoneWorld keeps to it
def _bills_episode(removal: str) -> Episode:
    ep = Episode(library()["mini.bills_unknown_account"], 0)
    scope = ir.ChangeScope(
        names=["accounts"], screens=[ir.Selector(attrs=[ir.UiAttr(attr="text", value=removal)])]
    )
    ep.phone.removal_scopes[("bills", "accounts")] = [scope]
    return ep


def _remove_first_account(ep: Episode) -> None:
    """Open the first account on the bill app's home page and remove it."""
    from tasklang.verifiers.ui import Screen

    for want in ("Discover", "Mini Programs", "Search", "search_input"):
        ep.step(_tap(Screen.from_parts(ep.xml(), None), want))
    ep.step({"action_type": "input_text", "text": "Life Payments"})
    for want in ("Life Payments", "account", "Remove Account", "Remove"):
        ep.step(_tap(Screen.from_parts(ep.xml(), None), want))


def _tap(screen: Any, want: str) -> dict[str, Any]:
    """A click on the last element whose text, description or resource id reads ``want``."""
    hits = [
        e for e in screen.elements
        if e.bounds is not None
        and want in (e.text, e.content_desc, e.resource_id.rpartition("/")[2])
    ]  # fmt: skip
    assert hits, f"nothing reads {want!r}"
    return {"action_type": "click", "index": hits[-1].index}


def test_phoneworld_removes_a_record_only_where_the_model_says() -> None:
    declared = _bills_episode("Remove this account?")
    before = len(declared.phone.world().apps["bills"].collections["accounts"])
    _remove_first_account(declared)
    assert len(declared.phone.world().apps["bills"].collections["accounts"]) == before - 1
    elsewhere = _bills_episode("Nothing like this")
    with pytest.raises(UndeclaredChange, match=r"a record of bills\.accounts was removed where"):
        _remove_first_account(elsewhere)
    # the apps' data is as it was before the refused action
    assert len(elsewhere.phone.world().apps["bills"].collections["accounts"]) == before


def test_the_library_declares_where_records_are_removed() -> None:
    lib = library()
    for task_id, app, name in [
        ("mini.ride_search_destination", "ride", "trips"),
        ("mini.coffee_order_latte", "coffee", "orders"),
        ("mini.movies_refund_order", "movies", "orders"),
        ("mini.bills_pay_electricity", "bills", "payments"),
        ("mini.bills_pay_electricity", "bills", "accounts"),
        ("cross.amazon_pick_to_wechat", "shopping", "search_history"),
        ("cross.share_place_address", "maps", "recent_searches"),
    ]:
        [scope] = lib[task_id].apps[app].removals_of(name)
        assert scope.screens, (app, name)


# ---------------------------------------------------------------- what an episode proves
def test_an_episode_that_never_shows_a_way_to_remove_keeps_every_record() -> None:
    compiled = library()["mini.ride_search_destination"]
    _, traj = run_reference(compiled, 0)
    kept = kept_state(compiled, traj.steps)
    assert ("ride", "trips") in kept
    # the trips are read only after the episode, but `deleted any` needs no reading of them
    cov = coverage(compiled).with_kept(kept)
    assert ("ride", "trips") in cov.at_end
    assert ("ride", "trips") not in _unseen_anywhere("deleted", cov.during())
    assert ("ride", "trips") in _unseen_anywhere("added", cov.during())
    # a step on a screen that shows something labelled Delete may have removed one
    shown = '<hierarchy><node text="Delete trip" bounds="[0,0][100,100]"/></hierarchy>'
    step = Step(
        index=len(traj.steps),
        action=Action(action_type="click", x=50, y=50),
        observation=Observation(ui_xml=shown),
    )
    assert ("ride", "trips") not in kept_state(compiled, [*traj.steps, step])
    # with no record of the steps nothing is proved but what is removed nowhere
    assert ("ride", "trips") not in kept_state(compiled, None)
    assert ("shopping", "orders") in kept_state(library()["shopping.buy_unavailable"], None)


def test_a_card_leaves_the_wallet_only_after_a_tap_on_remove() -> None:
    # Your Payments is where the default is set, so a step there proves nothing of removals;
    # a tap on something that says Remove (or Delete) is the only way one starts
    compiled = library()["shopping.check_defaults"]
    _, traj = run_reference(compiled, 0)
    assert any("Your Payments" in (s.observation.ui_xml or "") for s in traj.steps)
    assert ("shopping", "payments") in kept_state(compiled, traj.steps)
    page = (
        '<hierarchy><node text="Your Payments" bounds="[0,0][100,50]"/>'
        '<node text="Remove" clickable="true" bounds="[0,50][100,100]"/></hierarchy>'
    )

    def tap(y: int) -> Step:
        return Step(index=len(traj.steps), action=Action(action_type="click", x=50, y=y),
                    observation=Observation(ui_xml=page))  # fmt: skip

    assert ("shopping", "payments") in kept_state(compiled, [*traj.steps, tap(25)])
    assert ("shopping", "payments") not in kept_state(compiled, [*traj.steps, tap(75)])


def test_no_step_removes_a_network_or_a_device() -> None:
    compiled = library()["androidworld.system_wifi_turn_off"]
    kept = kept_state(compiled, None)  # `nowhere`: with no record of the steps too
    assert {("settings", "wifi_networks"), ("settings", "bluetooth_devices")} <= kept


def test_near_misses_keep_the_records_no_step_could_remove() -> None:
    compiled = library()["mini.ride_cancel_with_reason"]
    _, traj = run_reference(compiled, 0)
    final = traj.final.snapshot
    assert final is not None
    kept = kept_state(compiled, traj.steps)
    every = {n for n, _ in near_misses(compiled, final, random.Random(0), 200)}
    some = {n for n, _ in near_misses(compiled, final, random.Random(0), 200, kept=kept)}
    assert any(n.startswith("drop ride.trips[") for n in every)
    assert not any(n.startswith("drop ride.trips[") for n in some)


# ---------------------------------------------------------------- readings before and after
TRIP = {"trip_no": "T1052", "pickup": "Home", "destination": "Gym", "status": "accepted"}


def _trips(*rows: dict[str, Any]) -> WorldSnapshot:
    return WorldSnapshot(apps={"ride": AppState(collections={"trips": [dict(r) for r in rows]})})


def _clause(task_id: str, text: str) -> tuple[ir.CompiledTask, ir.Clause]:
    compiled = library()[task_id]
    for c in compiled.task.clauses:
        span = c.body.span
        assert span is not None and span.file is not None
        if text in Path(span.file).read_text(encoding="utf-8").splitlines()[span.line - 1]:
            return compiled, c
    raise AssertionError(f"{task_id} has no clause `{text}`")


def _decided(
    compiled: ir.CompiledTask, clause: ir.Clause, before: Any, after: Any, kept: Any
) -> Any:
    cov = coverage(compiled)
    readings = Readings(before, after, {})
    return decide(clause, compiled, cov.at_end, readings, cov.keyed, cov.fields, kept)


KEPT = frozenset({("ride", "trips")})


def test_additions_are_decided_both_ways_where_no_record_was_removed() -> None:
    compiled, forbid = _clause("mini.ride_cancel_with_reason", "added ride.trips")
    same = _trips(TRIP)
    result = _decided(compiled, forbid, same, same, KEPT)
    assert result is not None and result.passed and "loses no record" in result.evidence[0].detail
    more = _decided(compiled, forbid, same, _trips(TRIP, {**TRIP, "trip_no": "T1060"}), KEPT)
    assert more is not None and not more.passed
    # an episode that may have removed a trip proves only what happened
    assert _decided(compiled, forbid, same, same, frozenset()) is None


def test_a_where_on_fields_that_never_change_is_decided_both_ways() -> None:
    compiled, forbid = _clause("mini.ride_search_destination", "added ride.trips where")
    cov = coverage(compiled)
    assert bracketed_event(forbid, compiled, cov.at_end, cov.fields, KEPT) is not None
    params = {"spot": {"name": "Gym"}}
    before = _trips()
    right = _trips({**TRIP, "trip_no": "T1", "destination": "Gym"})
    wrong = _trips({**TRIP, "trip_no": "T1", "destination": "Zoo"})

    def decided(after: WorldSnapshot) -> Any:
        readings = Readings(before, after, params)
        return decide(forbid, compiled, cov.at_end, readings, cov.keyed, cov.fields, KEPT)

    assert decided(right).passed is True
    assert decided(wrong).passed is False


def test_an_update_is_proved_by_the_record_it_left() -> None:
    """A trip read in both readings was never removed in between: if it reads differently,
    some step updated it, and the last one left it as the end reads it."""
    compiled, updated = _clause("mini.ride_cancel_with_reason", "eventually updated")
    cancelled = {**TRIP, "status": "cancelled", "cancel_reason": "Plans changed"}
    result = _decided(compiled, updated, _trips(TRIP), _trips(cancelled), KEPT)
    assert result is not None and result.passed
    assert result.evidence[0].record is not None
    assert result.evidence[0].record["status"] == "cancelled"
    # alike readings: updated and changed back, or never: not decided
    assert _decided(compiled, updated, _trips(cancelled), _trips(cancelled), KEPT) is None
    # updated, but not so as the event says
    moved = {**TRIP, "status": "in_progress"}
    assert _decided(compiled, updated, _trips(TRIP), _trips(moved), KEPT) is None
    # a key read twice does not say which record the verifier follows
    twice = _trips(TRIP, {**TRIP, "pickup": "Work"})
    assert _decided(compiled, updated, twice, _trips(cancelled), KEPT) is None
    # a record that may have been removed and made again reads like an update
    assert _decided(compiled, updated, _trips(TRIP), _trips(cancelled), frozenset()) is None
    # `never` is decided in the one direction too
    never = updated.model_copy(update={"body": updated.body.model_copy(update={"op": "never"})})
    result = _decided(compiled, never, _trips(TRIP), _trips(cancelled), KEPT)
    assert result is not None and not result.passed


def test_an_update_where_reads_only_fields_both_readings_read() -> None:
    compiled, updated = _clause("mini.ride_cancel_with_reason", "eventually updated")
    assert isinstance(updated.body, ir.TraceBody)
    event = updated.body.first
    assert isinstance(event, ir.ChangeEvent)
    cov = coverage(compiled)
    assert "driver" not in cov.fields[("ride", "trips")]
    by_driver = ir.Compare(op="==", left=ir.FieldRef(name="driver"), right=ir.Lit(value="Li"))
    other = updated.model_copy(
        update={"body": updated.body.model_copy(
            update={"first": event.model_copy(update={"where": by_driver})})}
    )  # fmt: skip
    assert bracketed_event(updated, compiled, cov.at_end, cov.fields, KEPT) is not None
    assert bracketed_event(other, compiled, cov.at_end, cov.fields, KEPT) is None


def test_the_device_checker_decides_a_cancelled_ride_from_its_readings() -> None:
    compiled = library()["mini.ride_cancel_with_reason"]
    assert needs_start(compiled)
    _, traj = run_reference(compiled, 0)
    end = traj.final.snapshot
    assert end is not None
    reading = start_reading(compiled, traj)
    assert reading is not None
    transport = PhoneWorldTransport(compiled, lambda: end, lambda: "")
    readings = step_readings(compiled, traj)
    assert readings is not None
    states = [r.snapshot for r in readings]
    dv = device_check(
        compiled, traj, transport, step_states=states, sleep=lambda s: None,
        start=reading.snapshot,
    )  # fmt: skip
    truth = check_trajectory(compiled, traj)
    assert truth.success and dv.success is True and not dv.unobservable
    _, updated = _clause("mini.ride_cancel_with_reason", "eventually updated")
    _, forbid = _clause("mini.ride_cancel_with_reason", "added ride.trips")
    assert dv.inferred[updated.id].passed and dv.inferred[forbid.id].passed
    # with no record of the steps, no trip is proved kept: the clauses stay open
    blind = device_check(
        compiled, traj, transport, sleep=lambda s: None, start=reading.snapshot, history=False
    )
    assert updated.id in blind.unobservable and forbid.id in blind.unobservable
