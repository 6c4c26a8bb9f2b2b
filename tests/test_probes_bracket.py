"""Trace clauses on state read only at the end, decided by a reading before the episode too:
only in the direction the two readings prove, and never by guessing."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from tasklang import ir
from tasklang.envs.device.check import START, back_to_start, device_check
from tasklang.envs.device.differential import library, start_reading
from tasklang.envs.device.phoneworld import PhoneWorldTransport
from tasklang.envs.device.probes import coverage, needs_start
from tasklang.envs.phoneworld.episode import run_reference
from tasklang.verifiers.bracket import Readings, bracketed_event, decide, fixed_fields
from tasklang.verifiers.check import check_trajectory
from tasklang.verifiers.snapshot import AppState, WorldSnapshot
from tasklang.verifiers.trajectory import Trajectory

Rows = list[dict[str, Any]]


def _clause(task_id: str, text: str) -> tuple[ir.CompiledTask, ir.Clause]:
    """The clause of a library task whose source says ``text``."""
    compiled = library()[task_id]
    for c in compiled.task.clauses:
        span = c.body.span
        assert span is not None and span.file is not None
        source = Path(span.file).read_text(encoding="utf-8").splitlines()[span.line - 1]
        if text in source:
            return compiled, c
    raise AssertionError(f"{task_id} has no clause `{text}`")


def _world(app: str, name: str, rows: Rows) -> WorldSnapshot:
    return WorldSnapshot(apps={app: AppState(collections={name: copy.deepcopy(rows)})})


def _decide(compiled: ir.CompiledTask, clause: ir.Clause, before: Any, after: Any) -> Any:
    at_end = coverage(compiled).at_end
    return decide(clause, compiled, at_end, Readings(before, after, {}))


ORDER = {"order_no": "C-1001", "store": "Main St", "status": "preparing"}


def test_a_key_read_after_and_not_before_was_added() -> None:
    compiled, forbid = _clause("mini.coffee_order_status", "added coffee.orders")
    assert forbid.role == "safety"
    before = _world("coffee", "orders", [ORDER])
    after = _world("coffee", "orders", [ORDER, {**ORDER, "order_no": "C-1002"}])
    result = _decide(compiled, forbid, before, after)
    assert result is not None and not result.passed
    assert result.evidence[0].record is not None
    assert result.evidence[0].record["order_no"] == "C-1002"


def test_readings_alike_prove_nothing() -> None:
    """An order added and cancelled again, or none at all: the readings cannot tell."""
    compiled, forbid = _clause("mini.coffee_order_status", "added coffee.orders")
    same = _world("coffee", "orders", [ORDER])
    assert _decide(compiled, forbid, same, same) is None
    fewer = _world("coffee", "orders", [])
    assert _decide(compiled, forbid, same, fewer) is None  # deleted, not added


def test_a_record_changed_under_its_key_is_not_an_addition() -> None:
    compiled, forbid = _clause("mini.coffee_order_status", "added coffee.orders")
    before = _world("coffee", "orders", [ORDER])
    after = _world("coffee", "orders", [{**ORDER, "status": "done"}])
    assert _decide(compiled, forbid, before, after) is None


def test_updates_and_where_on_other_fields_stay_undecided() -> None:
    """A record deleted and added again under its key reads as updated; a record may have
    changed between the step that added it and the end."""
    at_end = coverage(library()["mini.coffee_cancel_duplicate"]).at_end
    compiled, updated = _clause("mini.coffee_cancel_duplicate", "eventually updated")
    assert bracketed_event(updated, compiled, at_end) is None
    compiled, where = _clause("mini.coffee_coupon_order", "added coffee.orders where")
    assert bracketed_event(where, compiled, coverage(compiled).at_end) is None
    compiled, order = _clause("mini.coffee_order_from_chat", "trace foreground wechat")
    assert bracketed_event(order, compiled, coverage(compiled).at_end) is None


def test_without_a_key_only_more_records_prove_additions() -> None:
    """Transfers have no key: a step with more records than the step before added one (only
    as many as vanished can count as updated), so the end's surplus is a lower bound."""
    compiled, limit = _clause("wechat.transfer_money", "at most 1 times added")
    assert isinstance(limit.body, ir.TraceBody) and limit.body.op == "at_most"
    rdef = compiled.apps["wechat"].record("Transfer")
    assert rdef is not None and not any(f.key for f in rdef.fields)
    t = {"amount": 1000, "note": "lunch"}
    before = _world("wechat", "transfers", [t])
    one = _world("wechat", "transfers", [t, {**t, "amount": 2000}])
    two = _world("wechat", "transfers", [t, {**t, "amount": 2000}, {**t, "amount": 3000}])
    other = _world("wechat", "transfers", [{**t, "amount": 5}])  # replaced, or edited
    assert _decide(compiled, limit, before, one) is None
    assert _decide(compiled, limit, before, other) is None
    result = _decide(compiled, limit, before, two)
    assert result is not None and not result.passed and "2 times" in result.summary
    _, forbid = _clause("wechat.transfer_money", "added wechat.transfers where")
    assert bracketed_event(forbid, compiled, coverage(compiled).at_end) is None


def test_a_setting_read_differently_changed() -> None:
    compiled, forbid = _clause("wechat.transfer_money", "changed wechat.payment_method")
    before = WorldSnapshot(apps={"wechat": AppState(settings={"payment_method": "balance"})})
    after = WorldSnapshot(apps={"wechat": AppState(settings={"payment_method": "card"})})
    result = _decide(compiled, forbid, before, after)
    assert result is not None and not result.passed
    assert _decide(compiled, forbid, before, before) is None


def test_a_reading_that_lacks_the_state_decides_nothing() -> None:
    compiled, forbid = _clause("mini.coffee_order_status", "added coffee.orders")
    after = _world("coffee", "orders", [ORDER, {**ORDER, "order_no": "C-1002"}])
    assert _decide(compiled, forbid, WorldSnapshot(), after) is None


def _duplicated(end: WorldSnapshot, app: str, name: str, key: str) -> WorldSnapshot:
    out = end.model_copy(deep=True)
    rows = out.apps[app].collections[name]
    rows.append({**rows[0], key: str(rows[0][key]) + "9"})
    return out


def test_the_device_checker_catches_an_order_added_on_the_phone() -> None:
    """Read with no record of the steps (``history=False``): the episode's screens, which
    would prove the orders unchanged, are not there to say so; the readings before and after
    the episode still catch the order."""
    compiled = library()["mini.coffee_order_status"]
    _, traj = run_reference(compiled, 0)
    end = traj.final.snapshot
    assert end is not None
    reading = start_reading(compiled, traj)
    assert reading is not None
    start = reading.snapshot
    assert "orders" in start.apps["coffee"].collections
    more = _duplicated(end, "coffee", "orders", "order_no")
    transport = PhoneWorldTransport(compiled, lambda: more, lambda: "")
    seen = traj.model_copy(update={"final": traj.final.model_copy(update={"snapshot": more})})
    dv = device_check(compiled, seen, transport, sleep=lambda s: None, start=start, history=False)
    assert dv.success is False
    (cid,) = [k for k, r in dv.inferred.items() if not r.passed]
    truth = check_trajectory(compiled, _with_step(seen, more))
    assert not next(r for r in truth.clauses if r.id == cid).passed
    # without the reading before, the clause is not decided
    plain = device_check(compiled, seen, transport, sleep=lambda s: None, history=False)
    assert cid in plain.unobservable and not plain.inferred
    # the start reading travels in the trajectory's header
    header = traj.header.model_copy(deep=True)
    header.extra[START] = start.model_dump(mode="json", exclude_none=True)
    kept = seen.model_copy(update={"header": header})
    again = device_check(compiled, kept, transport, sleep=lambda s: None, history=False)
    assert cid in again.inferred and again.to_json()["inferred"][cid]["passed"] is False


def _with_step(traj: Trajectory, state: WorldSnapshot) -> Trajectory:
    """``traj`` whose last step leads to ``state`` (what PhoneWorld would have recorded)."""
    steps = list(traj.steps)
    steps[-1] = steps[-1].model_copy(update={"snapshot": state})
    return traj.model_copy(update={"steps": steps})


@pytest.mark.parametrize("task_id", ["mini.coffee_order_status", "shopping.buy_unavailable"])
def test_the_phone_is_put_back_after_the_start_reading(task_id: str) -> None:
    compiled = library()[task_id]
    assert needs_start(compiled)
    argv = [c.argv for c in back_to_start(compiled)]
    assert any(a[:2] == ("am", "force-stop") for a in argv)
    assert ("input", "keyevent", "KEYCODE_HOME") in argv
    fg = compiled.task.given.foreground
    if fg is not None:
        assert argv[-1][0] in ("am", "monkey")
    assert not needs_start(library()["expense.fix_amount"])


def test_a_where_on_the_key_alone_holds_for_as_long_as_the_record() -> None:
    compiled, forbid = _clause("mini.coffee_order_status", "added coffee.orders")
    assert isinstance(forbid.body, ir.TraceBody)
    event = forbid.body.first
    assert isinstance(event, ir.ChangeEvent)
    key_only = ir.Compare(op="!=", left=ir.FieldRef(name="order_no"), right=ir.Lit(value="C-1001"))
    by_key = forbid.model_copy(
        update={"body": forbid.body.model_copy(
            update={"first": event.model_copy(update={"where": key_only})})}
    )  # fmt: skip
    assert bracketed_event(by_key, compiled, coverage(compiled).at_end) is not None
    empty = _world("coffee", "orders", [])
    assert _decide(compiled, by_key, empty, _world("coffee", "orders", [ORDER])) is None
    other = _world("coffee", "orders", [{**ORDER, "order_no": "C-1002"}])
    result = _decide(compiled, by_key, empty, other)
    assert result is not None and not result.passed


def test_a_start_reading_that_is_no_snapshot_is_a_clear_error() -> None:
    from tasklang.verifiers.check import InstanceError

    compiled = library()["mini.coffee_order_status"]
    _, traj = run_reference(compiled, 0)
    end = traj.final.snapshot
    assert end is not None
    header = traj.header.model_copy(deep=True)
    header.extra[START] = {"apps": {"coffee": {"collections": {"orders": "many"}}}}
    bad = traj.model_copy(update={"header": header})
    transport = PhoneWorldTransport(compiled, lambda: end, lambda: "")
    with pytest.raises(InstanceError, match=r"device_start.*apps\.coffee\.collections\.orders"):
        device_check(compiled, bad, transport, sleep=lambda s: None)


def test_device_env_reads_the_screens_before_the_episode() -> None:
    from tasklang.envs.device.differential import run_episode
    from tasklang.envs.device.env import DeviceEnv
    from tasklang.envs.device.phoneworld import PhoneWorldDriver
    from tasklang.envs.phoneworld.episode import Episode

    compiled = library()["mini.coffee_order_status"]
    ep = Episode(compiled, 0)
    transport = PhoneWorldTransport(compiled, ep.phone.world, ep.xml)
    env = DeviceEnv(compiled, PhoneWorldDriver(ep), transport, setup=False, sleep=lambda s: None)
    obs, _ = env.reset(seed=0)
    assert env.traj is not None and START in env.traj.header.extra
    start = WorldSnapshot.model_validate(env.traj.header.extra[START])
    assert start.apps["coffee"].collections["orders"]
    lines = transport.lines
    assert any(line.startswith("am force-stop") for line in lines)
    assert lines[-1].startswith(("monkey", "input keyevent"))
    assert obs["package"] is not None
    case = run_episode(compiled, 0)
    assert case.agrees and not case.disagreements


def test_a_keyed_change_is_proved_only_where_a_key_names_one_record() -> None:
    compiled, forbid = _clause("mini.coffee_order_status", "added coffee.orders")
    assert isinstance(forbid.body, ir.TraceBody)
    event = forbid.body.first
    assert isinstance(event, ir.ChangeEvent)
    changed = forbid.model_copy(
        update={"body": forbid.body.model_copy(
            update={"first": event.model_copy(update={"op": "changed"})})}
    )  # fmt: skip
    done = {**ORDER, "status": "done"}
    one = _world("coffee", "orders", [ORDER])
    result = _decide(compiled, changed, one, _world("coffee", "orders", [done]))
    assert result is not None and not result.passed
    # two records under one key: which one the verifier keeps depends on an order no page shows
    twice = _world("coffee", "orders", [ORDER, done])
    assert _decide(compiled, changed, twice, _world("coffee", "orders", [done, ORDER])) is None
    assert _decide(compiled, changed, one, twice) is None


# ------------------------------------------------------------------ append-only collections
AMAZON = {"order_id": "111-0000001-0000001", "status": "delivered", "total": 2599}


def _orders(*ids: str) -> WorldSnapshot:
    return _world("shopping", "orders", [{**AMAZON, "order_id": i} for i in ids])


def _decide_keyed(compiled: ir.CompiledTask, clause: ir.Clause, before: Any, after: Any) -> Any:
    cov = coverage(compiled)
    return decide(clause, compiled, cov.at_end, Readings(before, after, {}), cov.keyed)


def _with_op(clause: ir.Clause, op: str, times: int | None = None) -> ir.Clause:
    assert isinstance(clause.body, ir.TraceBody)
    return clause.model_copy(
        update={"body": clause.body.model_copy(update={"op": op, "times": times})}
    )


def test_no_new_key_of_an_append_only_collection_proves_nothing_was_added() -> None:
    """Orders are never removed: one placed along the way would be read at the end."""
    compiled, forbid = _clause("shopping.buy_unavailable", "added shopping.orders")
    orders = compiled.apps["shopping"].collection("orders")
    assert orders is not None and orders.append_only
    before, same = _orders("111-1"), _orders("111-1")
    result = _decide_keyed(compiled, forbid, before, same)
    assert result is not None and result.passed and "never happened" in result.summary
    assert result.evidence and result.evidence[0].collection == "orders"
    more = _decide_keyed(compiled, forbid, before, _orders("111-1", "111-2"))
    assert more is not None and not more.passed
    eventually = _with_op(forbid, "eventually")
    assert _decide_keyed(compiled, eventually, before, same).passed is False
    assert _decide_keyed(compiled, eventually, before, _orders("111-2", "111-1")).passed is True
    once = _with_op(forbid, "at_most", 1)
    assert _decide_keyed(compiled, once, before, _orders("111-1", "111-2")).passed is True
    assert _decide_keyed(compiled, once, before, _orders("111-1", "111-2", "111-3")).passed is False


def test_the_converse_needs_the_key_read_and_readings_that_fit_the_declaration() -> None:
    compiled, forbid = _clause("shopping.buy_unavailable", "added shopping.orders")
    before = _orders("111-1", "111-2")
    # without the key read exactly, nothing proves the converse
    assert _decide(compiled, forbid, before, before) is None
    # a key read before and not after: the readings contradict `append only`
    assert _decide_keyed(compiled, forbid, before, _orders("111-1")) is None
    # a reading that lacks the collection decides nothing
    assert _decide_keyed(compiled, forbid, WorldSnapshot(), before) is None


def test_a_collection_not_append_only_keeps_the_one_way_rule() -> None:
    compiled, forbid = _clause("mini.coffee_order_status", "added coffee.orders")
    orders = compiled.apps["coffee"].collection("orders")
    assert orders is not None and not orders.append_only
    same = _world("coffee", "orders", [ORDER])
    assert _decide_keyed(compiled, forbid, same, same) is None


def test_no_key_removed_from_an_append_only_collection_proves_nothing_was_deleted() -> None:
    compiled, forbid = _clause("shopping.buy_variant", "deleted shopping.orders")
    before = _orders("111-1")
    result = _decide_keyed(compiled, forbid, before, _orders("111-1", "111-2"))
    assert result is not None and result.passed
    gone = _decide_keyed(compiled, forbid, before, _orders("111-2"))
    assert gone is not None and not gone.passed


def test_a_where_on_fields_that_can_change_stays_undecided_both_ways() -> None:
    """An order's address is read at the end; the step that placed it may have seen another."""
    compiled, forbid = _clause("shopping.buy_variant", "added shopping.orders where address")
    assert bracketed_event(forbid, compiled, coverage(compiled).at_end) is None
    before = _orders("111-1")
    assert _decide_keyed(compiled, forbid, before, before) is None
    assert _decide_keyed(compiled, forbid, before, _orders("111-1", "111-2")) is None
    _, updated = _clause("shopping.buy_variant", "updated shopping.orders")
    assert _decide_keyed(compiled, updated, before, before) is None


def test_a_where_on_the_key_alone_decides_the_converse() -> None:
    compiled, forbid = _clause("shopping.buy_unavailable", "added shopping.orders")
    assert isinstance(forbid.body, ir.TraceBody)
    event = forbid.body.first
    assert isinstance(event, ir.ChangeEvent)
    key_only = ir.Compare(op="==", left=ir.FieldRef(name="order_id"), right=ir.Lit(value="111-9"))
    by_key = forbid.model_copy(
        update={"body": forbid.body.model_copy(
            update={"first": event.model_copy(update={"where": key_only})})}
    )  # fmt: skip
    before = _orders("111-1")
    other = _decide_keyed(compiled, by_key, before, _orders("111-1", "111-2"))
    assert other is not None and other.passed  # an order was placed, not that one
    that = _decide_keyed(compiled, by_key, before, _orders("111-1", "111-9"))
    assert that is not None and not that.passed


def test_the_device_checker_decides_a_forbidden_order_that_was_not_placed() -> None:
    compiled = library()["shopping.buy_unavailable"]
    _, traj = run_reference(compiled, 0)
    end = traj.final.snapshot
    assert end is not None
    reading = start_reading(compiled, traj)
    assert reading is not None
    start = reading.snapshot
    assert "orders" in start.apps["shopping"].collections
    _, forbid = _clause("shopping.buy_unavailable", "added shopping.orders")
    transport = PhoneWorldTransport(compiled, lambda: end, lambda: "")
    # with no record of the steps (which prove no step could place one: `adds orders`), the
    # readings decide it
    dv = device_check(compiled, traj, transport, sleep=lambda s: None, start=start, history=False)
    assert forbid.id in dv.inferred and dv.inferred[forbid.id].passed
    assert forbid.id not in dv.unobservable
    truth = check_trajectory(compiled, traj)
    assert next(r for r in truth.clauses if r.id == forbid.id).passed
    plain = device_check(compiled, traj, transport, sleep=lambda s: None, history=False)
    assert forbid.id in plain.unobservable
    # with them, the model's declarations decide it, whatever the readings show
    steps = device_check(compiled, traj, transport, sleep=lambda s: None)
    assert forbid.id not in steps.unobservable and forbid.id in steps.inferred
    assert "declarations prove it never happened" in steps.inferred[forbid.id].summary
    assert next(r for r in steps.clauses if r.id == forbid.id).passed


# ------------------------------------------------------------------ fields that never change
def _fixed_total(compiled: ir.CompiledTask) -> ir.CompiledTask:
    """``compiled`` with its shopping model saying an order's total never changes."""
    shopping = compiled.apps["shopping"]
    scope = ir.ChangeScope(names=["orders.total"])
    model = shopping.model_copy(update={"changes": [*shopping.changes, scope]})
    return compiled.model_copy(update={"apps": {**compiled.apps, "shopping": model}})


def _where(clause: ir.Clause, where: ir.Expr) -> ir.Clause:
    assert isinstance(clause.body, ir.TraceBody) and isinstance(clause.body.first, ir.ChangeEvent)
    event = clause.body.first.model_copy(update={"where": where})
    return clause.model_copy(update={"body": clause.body.model_copy(update={"first": event})})


def _priced(*totals: int) -> WorldSnapshot:
    rows = [{**AMAZON, "order_id": f"111-{i}", "total": t} for i, t in enumerate(totals)]
    return _world("shopping", "orders", rows)


def test_a_where_on_fields_that_never_change_is_decided_both_ways() -> None:
    """Where the model says a field never changes in a record that keeps its key, an order
    read after the episode and not before was placed with the value it shows."""
    compiled, forbid = _clause("shopping.buy_unavailable", "added shopping.orders")
    dear = _where(
        forbid, ir.Compare(op=">", left=ir.FieldRef(name="total"), right=ir.Lit(value=3000))
    )
    fixed = _fixed_total(compiled)
    cov = coverage(fixed)
    assert "total" in cov.fields[("shopping", "orders")]
    assert bracketed_event(dear, fixed, cov.at_end, cov.fields) is not None
    # only where the readings read the field exactly, and only where it never changes
    assert bracketed_event(dear, fixed, cov.at_end) is None
    assert bracketed_event(dear, compiled, cov.at_end, cov.fields) is None

    def decided(before: WorldSnapshot, after: WorldSnapshot) -> Any:
        readings = Readings(before, after, {})
        return decide(dear, fixed, cov.at_end, readings, cov.keyed, cov.fields)

    before = _priced(2599)
    same = decided(before, before)
    assert same is not None and same.passed and "never happened" in same.summary
    cheap = decided(before, _priced(2599, 1200))
    assert cheap is not None and cheap.passed  # an order was placed, not a dear one
    dearer = decided(before, _priced(2599, 4000))
    assert dearer is not None and not dearer.passed
    assert dearer.evidence[0].record is not None and dearer.evidence[0].record["total"] == 4000


def test_only_fields_said_never_to_change_are_fixed() -> None:
    compiled = library()["shopping.buy_unavailable"]
    target = ir.CollectionRef(app="shopping", name="orders")
    assert fixed_fields(compiled, target) == {"placed_at"}
    assert fixed_fields(_fixed_total(compiled), target) == {"placed_at", "total"}
    # one that changes `only on` some screens is not
    shopping = compiled.apps["shopping"]
    scope = ir.ChangeScope(
        names=["orders.total"], screens=[ir.Selector(attrs=[ir.UiAttr(attr="text", value="Edit")])]
    )
    model = shopping.model_copy(update={"changes": [*shopping.changes, scope]})
    some = compiled.model_copy(update={"apps": {**compiled.apps, "shopping": model}})
    assert fixed_fields(some, target) == {"placed_at"}


def test_an_append_only_collection_is_never_seen_losing_a_record() -> None:
    """`deleted any` needs no reading of what never loses a record: orders are read only
    after the episode, but the app offers no way to remove one."""
    from tasklang.verifiers.probes import _unseen_anywhere, event_problem

    compiled = library()["shopping.buy_unavailable"]
    cov = coverage(compiled)
    orders = ("shopping", "orders")
    assert orders in cov.append_only and orders in cov.at_end
    assert orders not in _unseen_anywhere("deleted", cov.during())
    assert orders in _unseen_anywhere("added", cov.during())
    gone = ir.ChangeEvent(op="deleted", target=ir.CollectionRef(app="shopping", name="orders"))
    assert event_problem(gone, cov, steps=False) is None
    added = gone.model_copy(update={"op": "added"})
    assert event_problem(added, cov, steps=False) is not None


# ------------------------------------------------------------------ the order of events
def _trip(no: str) -> dict[str, Any]:
    return {"trip_no": no, "pickup": "Home", "destination": "Gym", "status": "requested"}


def test_an_event_before_the_first_way_in_came_before_the_change() -> None:
    """`A before added C`, with C read only at the end: the readings prove a trip was added,
    and no trip can be added before the first step on the pay sheet (the ride app's `changes`
    line), so a search screen shown at or before that step came first."""
    from tasklang.verifiers.bracket import decide_order

    compiled, clause = _clause("mini.ride_from_search", "plugin.fts.ui.FTSMainUI")
    cov = coverage(compiled)
    before = _world("ride", "trips", [_trip("T1")])
    after = _world("ride", "trips", [_trip("T1"), _trip("T2")])
    readings = Readings(before, after, {})

    def at(step: int | None) -> Any:
        return decide_order(clause, compiled, cov.at_end, readings, 5, lambda e: step)

    result = at(3)
    assert result is not None and result.passed and "at step 5 or later" in result.summary
    assert at(5) is not None  # its screen came before the state its action led to
    assert at(6) is None and at(None) is None  # later, or never: not proved either way
    same = Readings(before, before, {})
    assert decide_order(clause, compiled, cov.at_end, same, 5, lambda e: 3) is None
    assert decide_order(clause, compiled, cov.at_end, readings, None, lambda e: 3) is None


def test_an_event_before_the_first_way_in_is_followed_by_the_change() -> None:
    """`A then added C` holds on the same proof: ``A`` at or before the first way in to C's
    state came before every step that could add the trip, so the trip added followed it."""
    from tasklang.verifiers.bracket import decide_order

    compiled, clause = _clause("mini.ride_from_search", "plugin.fts.ui.FTSMainUI")
    assert isinstance(clause.body, ir.TraceBody) and clause.body.op == "before"
    then = clause.model_copy(update={"body": clause.body.model_copy(update={"op": "then"})})
    cov = coverage(compiled)
    after = _world("ride", "trips", [_trip("T1"), _trip("T2")])
    readings = Readings(_world("ride", "trips", [_trip("T1")]), after, {})
    result = decide_order(then, compiled, cov.at_end, readings, 5, lambda e: 5)
    assert result is not None and result.passed and "the event it follows" in result.summary
    assert decide_order(then, compiled, cov.at_end, readings, 5, lambda e: 6) is None
    never = then.model_copy(update={"body": then.body.model_copy(update={"op": "eventually"})})
    assert decide_order(never, compiled, cov.at_end, readings, 5, lambda e: 3) is None


def test_the_first_way_in_is_the_first_step_on_a_screen_the_model_names() -> None:
    from tasklang.verifiers.probes import _way_in

    compiled, clause = _clause("mini.ride_from_search", "plugin.fts.ui.FTSMainUI")
    _, traj = run_reference(compiled, 0)
    step = _way_in(compiled, clause, traj.steps)
    assert step is not None
    shown = [s.index for s in traj.steps if "WeChat Pay" in (s.observation.ui_xml or "")]
    assert step == shown[0]
    # a step recorded without its screen may have been a way in
    blind = [s.model_copy(update={"observation": s.observation.model_copy(
        update={"ui_xml": None, "ui_elements": None})}) for s in traj.steps]  # fmt: skip
    assert _way_in(compiled, clause, blind) == blind[0].index
    # an update of a record whose fields change by themselves is bounded by nothing
    assert isinstance(clause.body, ir.TraceBody) and isinstance(clause.body.second, ir.ChangeEvent)
    updated = clause.model_copy(update={"body": clause.body.model_copy(
        update={"second": clause.body.second.model_copy(update={"op": "updated"})})})  # fmt: skip
    assert _way_in(compiled, updated, traj.steps) is None


def test_the_device_checker_orders_a_search_before_the_booked_trip() -> None:
    from tasklang.envs.device.differential import run_task

    (reference,) = run_task(library()["mini.ride_from_search"], 0, 0)
    assert reference.device is True and reference.agrees and not reference.unobservable
