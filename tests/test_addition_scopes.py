"""`adds C only on SELECTOR, ...` (`only by`, `nowhere`): where an app adds records to a
collection (the declaration itself is tested with `removes`, in test_removal_scopes.py).
PhoneWorld keeping to it, what an episode that takes no way in proves (no `added` event;
deletions decided both ways from the readings), and the library's address book."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tasklang import ir
from tasklang.envs.device.check import device_check
from tasklang.envs.device.differential import library, near_misses, start_reading, step_readings
from tasklang.envs.device.phoneworld import PhoneWorldTransport
from tasklang.envs.device.probes import coverage
from tasklang.envs.phoneworld.app import UndeclaredChange
from tasklang.envs.phoneworld.episode import Episode, run_reference
from tasklang.envs.phoneworld.solutions import Driver
from tasklang.verifiers.bracket import Readings, decide
from tasklang.verifiers.check import check_trajectory
from tasklang.verifiers.probes import _unseen_anywhere, closed_state, event_problem
from tasklang.verifiers.snapshot import AppState, WorldSnapshot
from tasklang.verifiers.trajectory import Action, Observation, Step


# ---------------------------------------------------------------- PhoneWorld keeps to it
def _addresses_episode(way_in: str) -> tuple[Episode, Driver]:
    """Your Addresses, with the model saying addresses are added only on ``way_in``."""
    ep = Episode(library()["shopping.remove_address"], 0)
    scope = ir.ChangeScope(
        names=["addresses"], screens=[ir.Selector(attrs=[ir.UiAttr(attr="text", value=way_in)])]
    )
    ep.phone.addition_scopes[("shopping", "addresses")] = [scope]
    d = Driver(ep.tree, ep.step, ep.instance.params)
    d.tap(desc="You", rid="bottom_tab_button")
    d.tap(text="Your Account")
    d.tap(text="Your Addresses")
    return ep, d


def _add_address(d: Driver) -> None:
    d.tap(text="Add address", rid="ya-myab-plus-address-icon")
    for rid, text in [
        ("address-ui-widgets-enterAddressFullName", "Sam Lee"),
        ("address-ui-widgets-enterAddressLine1", "9 Elm St"),
        ("address-ui-widgets-enterAddressCity", "Austin"),
        ("address-ui-widgets-enterAddressStateOrRegion", "TX"),
        ("address-ui-widgets-enterAddressPostalCode", "73301"),
    ]:
        d.scroll_to(rid=rid)
        d.type(text, rid=rid)
    d.scroll_to(rid="address-ui-widgets-form-submit-button")
    d.tap(rid="address-ui-widgets-form-submit-button")


def test_phoneworld_adds_a_record_only_where_the_model_says() -> None:
    declared, d = _addresses_episode("Add a new address")
    before = len(declared.phone.world().apps["shopping"].collections["addresses"])
    _add_address(d)
    assert len(declared.phone.world().apps["shopping"].collections["addresses"]) == before + 1
    elsewhere, d = _addresses_episode("Nothing like this")
    with pytest.raises(UndeclaredChange, match=r"a record of shopping\.addresses was added where"):
        _add_address(d)
    assert len(elsewhere.phone.world().apps["shopping"].collections["addresses"]) == before


# ---------------------------------------------------------------- what an episode proves
def test_an_episode_that_never_shows_a_way_to_add_gains_no_record() -> None:
    compiled = library()["shopping.remove_address"]
    _, traj = run_reference(compiled, 0)
    closed = closed_state(compiled, traj.steps)
    assert {("shopping", "addresses"), ("shopping", "orders")} <= closed
    cov = coverage(compiled).with_closed(closed)
    assert ("shopping", "addresses") in cov.at_end
    assert ("shopping", "addresses") not in _unseen_anywhere("added", cov.during())
    added = ir.ChangeEvent(op="added", target=ir.CollectionRef(app="shopping", name="addresses"))
    assert event_problem(added, cov, steps=False) is None
    # a step on the form that adds one may have added one
    shown = '<hierarchy><node text="Add a new address" bounds="[0,0][100,100]"/></hierarchy>'
    step = Step(index=len(traj.steps), action=Action(action_type="click", x=50, y=50),
                observation=Observation(ui_xml=shown))  # fmt: skip
    assert ("shopping", "addresses") not in closed_state(compiled, [*traj.steps, step])
    # with no record of the steps, nothing is proved
    assert ("shopping", "addresses") not in closed_state(compiled, None)


def test_near_misses_add_no_record_where_no_step_could() -> None:
    compiled = library()["shopping.remove_address"]
    _, traj = run_reference(compiled, 0)
    final = traj.final.snapshot
    assert final is not None
    closed = closed_state(compiled, traj.steps)
    every = {n for n, _ in near_misses(compiled, final, random.Random(0), 200)}
    some = {n for n, _ in near_misses(compiled, final, random.Random(0), 200, closed=closed)}
    assert any(n.startswith("duplicate shopping.addresses[") for n in every)
    assert not any(n.startswith("duplicate shopping.addresses[") for n in some)
    assert not any(n.startswith("change shopping.addresses[") and n.endswith(".street")
                   for n in some)  # fmt: skip


def _addresses(*streets: str) -> WorldSnapshot:
    rows = [{"street": s, "name": "A", "city": "C", "state": "WA", "zip": "1"} for s in streets]
    return WorldSnapshot(apps={"shopping": AppState(collections={"addresses": rows})})


def test_deletions_are_decided_both_ways_where_no_record_was_added() -> None:
    compiled = library()["shopping.remove_address"]
    [clause] = [
        c for c in compiled.task.clauses
        if isinstance(c.body, ir.TraceBody) and isinstance(c.body.first, ir.ChangeEvent)
        and c.body.first.op == "deleted"
    ]  # fmt: skip
    cov = coverage(compiled)
    closed = frozenset({("shopping", "addresses")})
    target = "2207 Oak Ridge Dr"
    params = {"addr": {"street": target}}

    def decided(before: WorldSnapshot, after: WorldSnapshot, shut: frozenset[Any]) -> Any:
        readings = Readings(before, after, params)
        return decide(clause, compiled, cov.at_end, readings, cov.keyed, cov.fields,
                      frozenset(), shut)  # fmt: skip

    start = _addresses("1420 Pine St Apt 5", target, "88 Harbor View Rd")
    only_it = decided(start, _addresses("1420 Pine St Apt 5", "88 Harbor View Rd"), closed)
    assert only_it is not None and only_it.passed
    assert "gains no record" in only_it.summary
    # without the proof, a record deleted and added again would read the same: undecided
    assert (
        decided(start, _addresses("1420 Pine St Apt 5", "88 Harbor View Rd"), frozenset()) is None
    )
    another = decided(start, _addresses("1420 Pine St Apt 5"), closed)
    assert another is not None and not another.passed


def test_the_device_checker_decides_a_removed_address() -> None:
    compiled = library()["shopping.remove_address"]
    _, traj = run_reference(compiled, 0)
    end = traj.final.snapshot
    start = start_reading(compiled, traj)
    along = step_readings(compiled, traj)
    assert end is not None and start is not None and along is not None
    transport = PhoneWorldTransport(compiled, lambda: end, lambda: "")
    dv = device_check(compiled, traj, transport, step_states=[r.snapshot for r in along],
                      sleep=lambda s: None, start=start.snapshot)  # fmt: skip
    assert check_trajectory(compiled, traj).success and dv.success is True
    assert not dv.unobservable
