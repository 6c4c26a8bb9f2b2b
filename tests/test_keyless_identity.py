"""Records without a key, told apart by the fields that never change (`changes C.F nowhere`):
the verifier follows such a record through updates of its other fields, PhoneWorld keeps to
where the model says they are removed, and a phone decides their additions exactly from a
reading before the episode and one after it (WeChat's transfers: to whom, how much, with what
note and when stay as they were made; whether the friend accepted one changes by itself)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from tasklang import ir
from tasklang.compiler import Compiler
from tasklang.envs.device.differential import judge, library, start_reading
from tasklang.envs.phoneworld.app import AppData, UndeclaredChange
from tasklang.envs.phoneworld.episode import Episode, run_reference
from tasklang.verifiers.bracket import Readings, decide
from tasklang.verifiers.probes import kept_state
from tasklang.verifiers.snapshot import AppState, WorldSnapshot
from tasklang.verifiers.state import diff_records, identity_of, record_identities

FIXED = ("to", "amount", "note", "sent_at")


def _transfer(to: str, amount: int, sent_at: str, status: str = "pending") -> dict[str, Any]:
    return {"to": to, "amount": amount, "note": "", "sent_at": sent_at, "status": status}


# ---------------------------------------------------------------- the language
LOG = """\
app log_demo {
  package "com.example.log"
  record Entry { line: text  at: datetime  seen: bool = false }
  collection entries: Entry
  changes entries.line, entries.at nowhere
  changes entries.seen by itself
  %s
}
"""


@pytest.mark.parametrize(
    "line", ['removes entries only on text "Clear log?"', "adds entries nowhere", ""]
)
def test_fields_that_never_change_tell_keyless_records_apart(line: str) -> None:
    result = Compiler().compile_text(LOG % line, path="log.app")
    assert result.diagnostics == []
    model = result.apps["log_demo"]
    assert model.identity("entries") == ["line", "at"]
    assert record_identities({"log_demo": model}) == {("log_demo", "entries"): ("line", "at")}


def test_without_them_no_record_is_said_removed() -> None:
    text = (LOG % "removes entries nowhere").replace(
        "changes entries.line, entries.at nowhere\n", ""
    )
    result = Compiler().compile_text(text, path="log.app")
    messages = [d.message for d in result.diagnostics]
    assert any("nor fields that never change" in m for m in messages), messages


# ---------------------------------------------------------------- the verifier
def test_an_update_of_other_fields_is_the_same_record_updated() -> None:
    """A transfer accepted (its status, which changes by itself) in the step that makes a new
    one much like it: without a key, likeness alone would take the new one for the old one
    updated and call the accepted one new; the fields that never change tell them apart."""
    old = [_transfer("wxid_a", 500, "2026-05-14T20:00:00")]
    new = [_transfer("wxid_a", 500, "2026-05-14T20:05:00"), {**old[0], "status": "accepted"}]
    by_likeness = diff_records("wechat", "transfers", old, new, None)
    assert [c.op for c in by_likeness] == ["updated", "added"]
    assert by_likeness[1].after == new[1]  # the accepted one, taken for a new one
    told = diff_records("wechat", "transfers", old, new, None, FIXED)
    assert sorted(c.op for c in told) == ["added", "updated"]
    [added] = [c for c in told if c.op == "added"]
    assert added.after == new[0]
    # a record whose fields that never change differ is another record
    moved = [{**old[0], "to": "wxid_b"}]
    assert [c.op for c in diff_records("wechat", "transfers", old, moved, None, FIXED)] == [
        "deleted",
        "added",
    ]


def test_the_library_tells_transfers_apart() -> None:
    compiled = library()["wechat.transfer_money"]
    assert identity_of(compiled.apps, "wechat", "transfers") == FIXED


# ---------------------------------------------------------------- PhoneWorld keeps to it
def test_phoneworld_refuses_a_transfer_removed_where_none_may_be() -> None:
    ep = Episode(library()["wechat.transfer_money"], 0)
    phone = ep.phone
    data = phone.state["wechat"]
    before = {**phone.state, "wechat": AppData(
        {**data.collections, "transfers": [_transfer("wxid_a", 500, "2026-05-14T20:00:00")]},
        data.settings,
    )}  # fmt: skip
    accepted = [_transfer("wxid_a", 500, "2026-05-14T20:00:00", "accepted")]
    phone.state = {**before, "wechat": AppData({**data.collections, "transfers": accepted},
                                               data.settings)}  # fmt: skip
    phone._changed_where_declared(before)  # accepted by itself: the same transfer
    phone.state = {**before, "wechat": AppData({**data.collections, "transfers": []},
                                               data.settings)}  # fmt: skip
    with pytest.raises(UndeclaredChange, match=r"a record of wechat\.transfers was removed"):
        phone._changed_where_declared(before)
    assert (
        phone.state["wechat"].collections["transfers"] == before["wechat"].collections["transfers"]
    )


# ---------------------------------------------------------------- a phone decides additions
def _readings(start: list[dict[str, Any]], end: list[dict[str, Any]], params: Any) -> Readings:
    def world(rows: list[dict[str, Any]]) -> WorldSnapshot:
        return WorldSnapshot(apps={"wechat": AppState(collections={"transfers": rows})})

    return Readings(world(start), world(end), params)


def _clause(compiled: ir.CompiledTask, text: str) -> ir.Clause:
    return next(
        c
        for c in compiled.task.clauses
        if isinstance(c.body, ir.TraceBody) and text in c.body.model_dump_json()
    )


def test_additions_are_counted_exactly_where_no_transfer_could_be_removed() -> None:
    compiled = library()["wechat.transfer_money"]
    _, traj = run_reference(compiled, 0)
    key = ("wechat", "transfers")
    kept = kept_state(compiled, traj.steps)
    assert key in kept
    params = traj.header.instance.params
    pal = params["pal"]["wxid"]
    at_most = next(c for c in compiled.task.clauses
                   if isinstance(c.body, ir.TraceBody) and c.body.op == "at_most")  # fmt: skip
    elsewhere = _clause(compiled, '"!="')
    one = [_transfer(pal, 900, "2026-05-14T20:16:03")]
    two = [*one, _transfer("wxid_other", 900, "2026-05-14T20:16:40")]
    at_end = frozenset({key})
    fields = {key: frozenset({"amount", "note", "sent_at", "status"})}
    partly = {key: frozenset({"to"})}

    def run(clause: ir.Clause, end: list[dict[str, Any]], kept_now: frozenset[Any] = kept) -> Any:
        return decide(clause, compiled, at_end, _readings([], end, params), frozenset(), fields,
                      kept_now, frozenset(), partly)  # fmt: skip

    result = run(at_most, one)
    assert result is not None and result.passed and "no more" in result.summary
    result = run(at_most, two)
    assert result is not None and not result.passed
    result = run(elsewhere, one)
    assert result is not None and result.passed  # the one added went to the friend asked for
    result = run(elsewhere, two)
    assert result is not None and not result.passed
    # a transfer that could have been removed along the way: a count is no longer exact
    assert run(at_most, one, frozenset()) is None
    # a payee read as one of two friends: whether it went elsewhere is not known
    unsure = [{k: v for k, v in one[0].items() if k != "to"}]
    assert run(elsewhere, unsure) is None


def test_wechat_transfer_money_is_decided_on_a_phone(
    decided_on_a_phone: Callable[..., None],
) -> None:
    decided_on_a_phone("wechat.transfer_money", every_case=True)


def test_a_second_transfer_is_caught() -> None:
    compiled = library()["wechat.transfer_money"]
    _, traj = run_reference(compiled, 0)
    end = copy.deepcopy(traj.final.snapshot)
    assert end is not None
    rows = end.apps["wechat"].collections["transfers"]
    rows.append({**rows[0], "sent_at": "2026-05-14T20:19:02", "amount": rows[0]["amount"] + 100})
    case = judge(compiled, traj, end, "twice", None, start_reading(compiled, traj))
    assert case.phoneworld is False and case.device is False, case.unobservable


# ---------------------------------------------------------------- lines, tickets and messages
@pytest.mark.parametrize(
    ("task", "app", "name", "fields"),
    [
        ("mini.coffee_order_from_chat", "coffee", "cart", ("item", "size", "milk", "sugar", "shots")),
        ("mini.coffee_order_from_chat", "coffee", "order_lines",
         ("order_no", "item", "size", "milk", "sugar", "quantity", "price")),
        ("mini.movies_seats_from_chat", "movies", "tickets",
         ("order_no", "show_id", "film", "cinema", "starts", "row", "seat")),
        ("mini.coffee_order_from_chat", "wechat", "messages", ("chat", "outgoing", "sent_at")),
    ],
)  # fmt: skip
def test_the_library_tells_lines_tickets_and_messages_apart(
    task: str, app: str, name: str, fields: tuple[str, ...]
) -> None:
    """A cart line is the drink as made up (its cups change), an order's line and a ticket
    what was paid for, a message the chat, direction and moment it was sent in."""
    assert identity_of(library()[task].apps, app, name) == fields


def test_phoneworld_refuses_a_message_removed_where_none_may_be() -> None:
    ep = Episode(library()["mini.coffee_order_from_chat"], 0)
    phone = ep.phone
    before = dict(phone.state)
    data = phone.state["wechat"]
    messages = data.collections["messages"]
    assert messages
    phone.state = {**before, "wechat": AppData({**data.collections, "messages": messages[1:]},
                                               data.settings)}  # fmt: skip
    with pytest.raises(UndeclaredChange, match=r"a record of wechat\.messages was removed"):
        phone._changed_where_declared(before)


@pytest.mark.parametrize(
    "task",
    [
        "mini.coffee_order_from_chat",
        "mini.coffee_order_latte",
        "mini.bills_last_payment",
        "cross.order_total_to_expense",
    ],
)
def test_tasks_on_lines_messages_orders_and_minutes_are_decided_on_a_phone(
    task: str, decided_on_a_phone: Callable[..., None]
) -> None:
    """The drink ordered from a chat (no cart line nor message removed: no way to remove one
    was taken), the latte in the cart (its size read from the line's text of options), the
    latest payment's amount (the payments read to the minute, none in the
    same minute as the latest), an order's total logged elsewhere (the orders change only
    where one is placed or cancelled)."""
    decided_on_a_phone(task, every_case=True)
