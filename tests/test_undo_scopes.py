"""`undoes C only on SELECTOR, ...` (`only by`, `nowhere`): where an update brings a record
back to what it held earlier. Anywhere else an update, once made, shows in its record for as
long as the record is there, so readings before and after an episode that took no such step
rule updates out as well as in: a record read alike in both was never updated. PhoneWorld
keeps to the declaration; near misses do not undo what the episode did; and the library's
shopping orders (a cancellation is final) are decided on a phone."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tasklang import ir
from tasklang.compiler import Compiler
from tasklang.envs.device.differential import held_along, library, near_misses, run_task
from tasklang.envs.device.probes import coverage
from tasklang.envs.phoneworld.app import UndeclaredChange
from tasklang.envs.phoneworld.episode import Episode, run_reference
from tasklang.envs.phoneworld.solutions import Driver
from tasklang.fmt import format_source
from tasklang.source import SourceFile
from tasklang.verifiers.bracket import Readings, decide
from tasklang.verifiers.probes import one_way_state, reversal_scopes
from tasklang.verifiers.snapshot import AppState, WorldSnapshot
from tasklang.verifiers.trajectory import Action, Observation, Step

TICKETS = """\
app tickets_demo {
  package "com.example.tickets"
  record Order { order_no: text key  status: enum(paid, refunded) = "paid" }
  record Seat { row: int  seat: int }
  collection orders: Order append only
  collection seats: Seat
  settings { night: bool = false }
  changes orders only on text "Pay", text "Refund these tickets?"
%s}
"""
NOWHERE = "  undoes orders nowhere\n"


def _compile(extra: str) -> tuple[dict[str, ir.AppModel], list[tuple[str, str]]]:
    result = Compiler().compile_text(TICKETS % extra, path="tickets.app")
    return dict(result.apps), [(d.code, d.message) for d in result.diagnostics]


# ---------------------------------------------------------------- the declaration
def test_the_declaration_reaches_the_app_model_and_the_formatter() -> None:
    apps, diagnostics = _compile(
        '  undoes orders only on text "Undo"\n  undoes orders only by id "r"\n'
    )
    assert diagnostics == []
    on, by = apps["tickets_demo"].reversals
    assert [a.value for s in on.screens for a in s.attrs] == ["Undo"] and not on.by_tap
    assert by.by_tap and by.names == ["orders"]
    nowhere, _ = _compile(NOWHERE)
    assert nowhere["tickets_demo"].reversals[0].screens == []
    scopes = reversal_scopes({"tickets_demo": nowhere["tickets_demo"]})
    assert scopes == {("tickets_demo", "orders"): nowhere["tickets_demo"].reversals}
    formatted, problems = format_source(SourceFile("tickets.app", TICKETS % NOWHERE))
    assert problems == [] and formatted is not None and NOWHERE in formatted


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("  undoes order nowhere\n", "has no collection `order`"),
        ("  undoes night nowhere\n", "has no collection `night`"),
        ("  undoes seats nowhere\n", "have no key field, so nothing follows a record"),
        ("  undoes orders by itself\n", "not brought back `by itself`"),
        (NOWHERE + NOWHERE, "where records of `orders` are brought back is said twice"),
    ],
)
def test_each_name_is_a_keyed_collection_said_of_once(line: str, message: str) -> None:
    _, diagnostics = _compile(line)
    assert diagnostics and {code for code, _ in diagnostics} == {"TL1033"}
    assert message in diagnostics[0][1]


def test_undoes_is_still_a_name_elsewhere() -> None:
    text = (TICKETS % NOWHERE).replace("row: int", "undoes: int = 0  row: int")
    assert Compiler().compile_text(text, path="tickets.app").diagnostics == []


# ---------------------------------------------------------------- PhoneWorld keeps to it
def _contacts(scope: ir.ChangeScope) -> tuple[Episode, Driver]:
    """Alice Moreau's page (a favourite), with the contacts model saying where a person's
    update is undone."""
    compiled = library()["contacts.add_coworker"].model_copy(deep=True)
    compiled.apps["contacts"].reversals.append(scope)
    ep = Episode(compiled, 0)
    d = Driver(ep.tree, ep.step, {}, max_steps=50)
    d.tap(text="Alice Moreau")
    return ep, d


def _starred(ep: Episode) -> bool:
    people = ep.phone.state["contacts"].collections["people"]
    return bool(next(p for p in people if p["name"] == "Alice Moreau")["starred"])


def test_phoneworld_refuses_an_update_undone_where_the_model_says_none_is() -> None:
    ep, d = _contacts(ir.ChangeScope(names=["people"]))
    d.tap(desc="Remove from favorites")  # an update: allowed
    assert not _starred(ep)
    with pytest.raises(UndeclaredChange, match=r"contacts\.people \(name 'Alice Moreau'\) was "
                       "brought back to what it held earlier"):  # fmt: skip
        d.tap(desc="Add to favorites")
    assert not _starred(ep)  # the apps' data is as it was before the refused action
    # what a record held is the branch's: back at the start, removing the star is new again
    ep, d = _contacts(ir.ChangeScope(names=["people"]))
    start = ep.snapshot()
    d.tap(desc="Remove from favorites")
    ep.restore(start)
    assert _starred(ep)
    d.tap(desc="Remove from favorites")
    assert not _starred(ep)
    # where the model names the star as a way to undo, the same taps are fine
    star = ir.Selector(attrs=[ir.UiAttr(attr="desc", value="Add to favorites")])
    ep, d = _contacts(ir.ChangeScope(names=["people"], screens=[star]))
    d.tap(desc="Remove from favorites")
    d.tap(desc="Add to favorites")
    assert _starred(ep)


# ---------------------------------------------------------------- what an episode proves
CANCEL = "shopping.cancel_latest_order"
LATEST, OTHER = "111-8804213-2019466", "113-6650127-4471038"


def test_an_episode_that_never_shows_a_way_to_undo_keeps_every_update() -> None:
    compiled = library()[CANCEL]
    _, traj = run_reference(compiled, 0)
    assert ("shopping", "orders") in one_way_state(compiled, traj.steps)
    assert ("shopping", "orders") in one_way_state(compiled, None)  # `nowhere`: no step is
    app = compiled.model_copy(deep=True)
    undo = ir.Selector(attrs=[ir.UiAttr(attr="text", value="Undo")])
    app.apps["shopping"].reversals = [ir.ChangeScope(names=["orders"], screens=[undo])]
    assert ("shopping", "orders") in one_way_state(app, traj.steps)
    shown = '<hierarchy><node text="Undo" bounds="[0,0][100,100]"/></hierarchy>'
    step = Step(index=len(traj.steps), action=Action(action_type="click", x=50, y=50),
                observation=Observation(ui_xml=shown))  # fmt: skip
    assert ("shopping", "orders") not in one_way_state(app, [*traj.steps, step])
    assert ("shopping", "orders") not in one_way_state(app, None)


def _orders(*rows: tuple[str, str]) -> WorldSnapshot:
    """Orders read from Your Orders: (order id, status)."""
    records = [
        {"order_id": no, "status": status, "items": ["A thing"], "total": "$10.00",
         "address": "1420 Pine St Apt 5", "payment": "Visa ending in 4412"}
        for no, status in rows
    ]  # fmt: skip
    return WorldSnapshot(apps={"shopping": AppState(collections={"orders": records})})


def _forbid(status: str | None = None) -> tuple[ir.CompiledTask, ir.Clause]:
    """The task's `forbid { updated shopping.orders where order_id != LATEST }`, or the same
    event with `where status == STATUS` instead."""
    compiled = library()[CANCEL]
    [clause] = [
        c for c in compiled.task.clauses
        if isinstance(c.body, ir.TraceBody) and isinstance(c.body.first, ir.ChangeEvent)
        and c.body.first.op == "updated"
    ]  # fmt: skip
    if status is None:
        return compiled, clause
    assert isinstance(clause.body, ir.TraceBody) and clause.body.first is not None
    where = ir.Compare(op="==", left=ir.FieldRef(name="status"), right=ir.Lit(value=status))
    event = clause.body.first.model_copy(update={"where": where})
    return compiled, clause.model_copy(
        update={"body": clause.body.model_copy(update={"first": event})}
    )


def _decided(
    clause: ir.Clause, compiled: ir.CompiledTask, after: WorldSnapshot, one_way: bool = True
) -> Any:
    cov = coverage(compiled)
    before = _orders((LATEST, "placed"), (OTHER, "placed"))
    return decide(
        clause, compiled, cov.at_end, Readings(before, after, {}), cov.keyed, cov.fields,
        cov.append_only, cov.closed, cov.partly, cov.quiet,
        frozenset({("shopping", "orders")}) if one_way else frozenset(),
    )  # fmt: skip


def test_updates_are_decided_both_ways_where_none_was_undone() -> None:
    compiled, clause = _forbid()
    only_it = _decided(clause, compiled, _orders((LATEST, "cancelled"), (OTHER, "placed")))
    assert only_it is not None and only_it.passed
    assert "has no update undone" in only_it.summary
    another = _decided(clause, compiled, _orders((LATEST, "cancelled"), (OTHER, "cancelled")))
    assert another is not None and not another.passed
    # without the declaration, the other order may have been cancelled and placed again
    assert _decided(clause, compiled, _orders((LATEST, "cancelled"), (OTHER, "placed")),
                    one_way=False) is None  # fmt: skip
    # a record added along the way may have been updated since
    added = _orders((LATEST, "cancelled"), (OTHER, "placed"), ("999-0000000-0000001", "placed"))
    assert _decided(clause, compiled, added) is None


def test_a_where_on_what_an_update_changes_is_decided_only_where_it_held() -> None:
    compiled, clause = _forbid("shipped")
    # the order read differently may have been shipped on the way to being cancelled
    assert _decided(clause, compiled, _orders((LATEST, "cancelled"), (OTHER, "placed"))) is None
    # no record read differently: no update at all
    none = _decided(clause, compiled, _orders((LATEST, "placed"), (OTHER, "placed")))
    assert none is not None and none.passed


def test_near_misses_do_not_undo_what_the_episode_did() -> None:
    compiled = library()[CANCEL]
    _, traj = run_reference(compiled, 0)
    final = traj.final.snapshot
    assert final is not None
    held = held_along(compiled, traj, one_way_state(compiled, traj.steps))
    assert [r["status"] for r in held[("shopping", "orders")][LATEST]] == ["placed", "cancelled"]

    def undone(misses: list[tuple[str, WorldSnapshot]]) -> list[str]:
        return [
            name for name, world in misses
            for r in world.apps["shopping"].collections["orders"]
            if r["order_id"] == LATEST and r["status"] == "placed"
        ]  # fmt: skip

    every = [m for s in range(40) for m in near_misses(compiled, final, random.Random(s), 400)]
    kept = [
        m
        for s in range(40)
        for m in near_misses(compiled, final, random.Random(s), 400, earlier=held)
    ]
    assert undone(every) and not undone(kept)
    assert any(n.startswith("change shopping.orders[") for n, _ in kept)


def test_the_phone_decides_a_cancelled_order_and_catches_another_changed() -> None:
    caught = []
    for seed in range(3):
        cases = run_task(library()[CANCEL], seed, 6)
        assert all(c.agrees for c in cases), seed
        [reference] = [c for c in cases if c.name == "reference"]
        assert reference.device is True and not reference.unobservable, seed
        caught += [c for c in cases if c.name.startswith("change shopping.orders[") and
                   c.device is False]  # fmt: skip
    assert caught
