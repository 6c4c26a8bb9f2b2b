"""A datetime a screen shows to the minute: read as the minute it lies in, a range that
decides the comparisons every value in it answers alike, and leaves the rest unknown."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tasklang import ir
from tasklang.envs.device.check import shown_as_ranges
from tasklang.envs.device.codec import DecodeError
from tasklang.envs.device.differential import library
from tasklang.envs.device.probes import coverage
from tasklang.envs.device.screens import Within, spot_decoder
from tasklang.envs.phoneworld.episode import run_reference
from tasklang.verifiers.evaluate import Env, Unknown, evaluate, ranged
from tasklang.verifiers.snapshot import AppState, WorldSnapshot

DATETIME = ir.Type(name="datetime")
MINUTE = {"from": "2026-05-11T08:12:00", "to": "2026-05-11T08:12:59.999999"}


# ---------------------------------------------------------------- reading the text
def test_a_datetime_to_the_minute_reads_as_that_minute() -> None:
    read = spot_decoder(ir.ScreenSpot(selector=ir.Selector(attrs=[])), DATETIME)
    assert read("2026-05-11 08:12") == Within("2026-05-11T08:12:00", "2026-05-11T08:12:59.999999")
    assert read("2026-05-11 08:12").as_json() == MINUTE
    assert read("2026-05-11 08:12:30") == "2026-05-11T08:12:30"
    assert read("2026-12-31 23:59") == Within("2026-12-31T23:59:00", "2026-12-31T23:59:59.999999")
    for bad in ("2026-05-11", "08:12", "2026-05-11 8:12", "2026-05-11 25:00", "yesterday",
                "2026-05-11T08:12+08:00"):  # fmt: skip
        with pytest.raises(DecodeError):
            read(bad)


def test_with_a_format_the_range_is_read_inside_it() -> None:
    spot = ir.ScreenSpot(selector=ir.Selector(attrs=[]), format="Placed {}")
    read = spot_decoder(spot, ir.Type(name="datetime", optional=True))
    assert read("Placed 2026-05-11 08:12") == Within(MINUTE["from"], MINUTE["to"])
    assert read("") is None


# ---------------------------------------------------------------- three-valued comparisons
def _on(op: str, value: Any, record: dict[str, Any] | None = None, **kw: Any) -> bool:
    record = {"order_no": "A1", ranged("placed_at"): MINUTE} if record is None else record
    cmp = ir.Compare(op=op, left=ir.FieldRef(name="placed_at", type=DATETIME),
                     right=ir.Lit(value=value, type=DATETIME), **kw)  # type: ignore[arg-type]  # fmt: skip
    env = Env({}, {}, WorldSnapshot(), partial=True).with_record(record)
    return bool(evaluate(cmp, env))


@pytest.mark.parametrize(
    ("op", "value", "expected"),
    [
        (">=", "2026-05-11T08:12:00", True),  # the minute's first instant
        (">=", "2026-05-11T00:00:00", True),
        (">", "2026-05-11T08:11:59", True),
        (">=", "2026-05-11T08:13:00", False),
        ("<", "2026-05-11T08:13:00", True),
        ("<=", "2026-05-11T08:12:59.999999", True),
        ("<", "2026-05-11T08:12:00", False),
        ("<=", "2026-05-11T08:11:59", False),
        (">", "2026-05-11T08:12:59.999999", False),
        ("==", "2026-05-11T09:00:00", False),
        ("!=", "2026-05-11T09:00:00", True),
        ("==", None, False),  # a value read as a range is not null
        ("!=", None, True),
        ("<", None, False),
    ],
)
def test_a_comparison_every_value_in_the_range_answers_alike(
    op: str, value: Any, expected: bool
) -> None:
    assert _on(op, value) is expected


@pytest.mark.parametrize(
    ("op", "value"),
    [
        (">=", "2026-05-11T08:12:30"),  # seconds 30 to 59 are after it, 0 to 29 before
        (">", "2026-05-11T08:12:00"),  # the minute's first instant is not after itself
        ("<", "2026-05-11T08:12:59"),
        ("<=", "2026-05-11T08:12:00"),
        ("==", "2026-05-11T08:12:00"),  # the seconds may be 0, or not
        ("!=", "2026-05-11T08:12:10"),
    ],
)
def test_a_comparison_the_range_answers_both_ways_is_unknown(op: str, value: Any) -> None:
    with pytest.raises(Unknown):
        _on(op, value)


def test_a_tolerance_on_a_range_is_not_decided() -> None:
    within = ir.Lit(value=3600, type=ir.Type(name="duration"))
    with pytest.raises(Unknown):
        _on("==", "2026-05-11T08:12:00", within=within)


def test_two_ranges_are_compared_end_to_end() -> None:
    later = {"from": "2026-05-11T09:00:00", "to": "2026-05-11T09:00:59.999999"}
    record = {ranged("placed_at"): MINUTE, ranged("ready_at"): later}
    field = ir.FieldRef(name="placed_at", type=DATETIME)
    other = ir.FieldRef(name="ready_at", type=DATETIME)
    env = Env({}, {}, WorldSnapshot(), partial=True).with_record(record)
    assert evaluate(ir.Compare(op="<", left=field, right=other), env) is True
    assert evaluate(ir.Compare(op="==", left=field, right=other), env) is False
    same = Env({}, {}, WorldSnapshot(), partial=True).with_record(
        {ranged("placed_at"): MINUTE, ranged("ready_at"): MINUTE}
    )
    with pytest.raises(Unknown):
        evaluate(ir.Compare(op="<", left=field, right=other), same)


def test_a_field_read_exactly_is_compared_as_before() -> None:
    assert _on(">", "2026-05-11T08:12:00", {"placed_at": "2026-05-11T08:12:30"}) is True
    # a range is read only as the reader's own (partial): a snapshot of PhoneWorld holds none
    exact = Env({}, {}, WorldSnapshot(), partial=False).with_record({ranged("placed_at"): MINUTE})
    cmp = ir.Compare(op="==", left=ir.FieldRef(name="placed_at", type=DATETIME),
                     right=ir.Lit(value=None, type=DATETIME))  # fmt: skip
    assert evaluate(cmp, exact) is True


def test_a_sum_decided_by_the_range_and_one_it_leaves_unknown() -> None:
    rows = [
        {"order_no": "A1", "total": 450, ranged("placed_at"): MINUTE},
        {"order_no": "A0", "total": 300,
         ranged("placed_at"): {"from": "2026-05-10T23:59:00", "to": "2026-05-10T23:59:59.999999"}},
    ]  # fmt: skip
    snap = WorldSnapshot(apps={"coffee": AppState(collections={"orders": rows})})
    env = Env({}, {}, snap, partial=True)

    def total(since: str) -> Any:
        where = ir.Compare(op=">=", left=ir.FieldRef(name="placed_at", type=DATETIME),
                           right=ir.Lit(value=since, type=DATETIME))  # fmt: skip
        return evaluate(ir.Aggregate(fn="sum", source=ir.CollectionRef(app="coffee", name="orders"),
                                     field="total", where=where, type=ir.Type(name="money")), env)  # fmt: skip

    assert total("2026-05-11T00:00:00") == 450
    with pytest.raises(Unknown):
        total("2026-05-10T23:59:30")
    latest = ir.Aggregate(fn="max", source=ir.CollectionRef(app="coffee", name="orders"),
                          field="placed_at", type=DATETIME)  # fmt: skip
    with pytest.raises(Unknown):  # the latest of values read as ranges is not one value
        evaluate(latest, env)


def _minute(hhmm: str, day: str = "2026-05-11") -> dict[str, str]:
    return {"from": f"{day}T{hhmm}:00", "to": f"{day}T{hhmm}:59.999999"}


def _is_the(fn: str, record: dict[str, Any], rows: list[dict[str, Any]], op: str = "==") -> Any:
    """``placed_at == fn(orders, placed_at)`` on ``record``, one of ``rows`` (or not), as a
    quantifier over the orders takes it: the snapshot's own record."""
    snap = WorldSnapshot(apps={"coffee": AppState(collections={"orders": rows})})
    held = snap.apps["coffee"].collections["orders"]
    record = next((r for r in held if r == record), record)
    extreme = ir.Aggregate(fn=fn, source=ir.CollectionRef(app="coffee", name="orders"),
                           field="placed_at", type=DATETIME)  # fmt: skip
    cmp = ir.Compare(op=op, left=ir.FieldRef(name="placed_at", type=DATETIME), right=extreme)
    return evaluate(cmp, Env({}, {}, snap, partial=True).with_record(record))


def test_which_record_holds_the_latest_time_is_decided_on_minutes_apart() -> None:
    early = {"order_no": "A1", ranged("placed_at"): _minute("08:12")}
    late = {"order_no": "A2", ranged("placed_at"): _minute("09:40")}
    exact = {"order_no": "A0", "placed_at": "2026-05-11T07:00:00"}
    rows = [early, late, exact]
    # the latest is the record none of the others can be later than, though its value, to
    # the minute, overlaps the latest value (which is its own)
    assert _is_the("max", late, rows) is True
    assert _is_the("max", early, rows) is False
    assert _is_the("max", late, rows, "!=") is False
    assert _is_the("min", early, rows) is False
    assert _is_the("min", early, [early, late]) is True
    # a value that ends where the range begins is not beyond it
    touching = {"order_no": "A3", "placed_at": "2026-05-11T09:40:00"}
    assert _is_the("max", late, [late, touching]) is True


def test_two_records_shown_at_the_same_minute_leave_the_latest_unknown() -> None:
    one = {"order_no": "A1", ranged("placed_at"): _minute("09:40")}
    two = {"order_no": "A2", ranged("placed_at"): _minute("09:40")}
    inside = {"order_no": "A3", "placed_at": "2026-05-11T09:40:30"}
    for rows in ([one, two], [one, inside]):
        with pytest.raises(Unknown):
            _is_the("max", one, rows)
    with pytest.raises(Unknown):  # no value for the other: it may be anything
        _is_the("max", one, [one, {"order_no": "A4"}])


def test_the_extreme_of_other_records_is_compared_by_value() -> None:
    mine = {"order_no": "T1", ranged("placed_at"): _minute("09:40")}
    # the record is not among those taken: its range against their earliest value
    assert _is_the("min", mine, [{"order_no": "A1", "placed_at": "2026-05-11T13:20:00"}]) is False
    with pytest.raises(Unknown):
        _is_the("min", mine, [{"order_no": "A1", "placed_at": "2026-05-11T09:40:10"}])


# ---------------------------------------------------------------- the library and the checker
def test_coffee_orders_are_read_to_the_minute(screens_read: Any) -> None:
    compiled = library()["mini.coffee_weekly_spend"]
    assert "placed_at" in coverage(compiled).fields[("coffee", "orders")]  # as the model maps it
    _, traj = run_reference(compiled, 0)
    end = copy.deepcopy(traj.final.snapshot)
    assert end is not None
    truth = end.apps["coffee"].collections["orders"]
    truth[0]["placed_at"] = "2026-05-11T08:12:41"  # seconds the screen does not show
    reading = screens_read(compiled, end).snapshot
    rows = {r["order_no"]: r for r in reading.apps["coffee"].collections["orders"]}
    assert len(rows) == len(truth)
    for real in truth:
        row = rows[real["order_no"]]
        assert "placed_at" not in row
        span = row[ranged("placed_at")]
        moment = real["placed_at"] if len(real["placed_at"]) > 16 else real["placed_at"] + ":00"
        assert span["from"] <= moment <= span["to"]
        assert span["from"].endswith(":00") and span["to"].endswith(":59.999999")
    # ... and a reading that shows only the minute reads the field in part for the episode
    assert shown_as_ranges(compiled, [reading]) == {("coffee", "orders", "placed_at")}


def test_a_screen_that_shows_the_seconds_is_read_exactly(screens_read: Any) -> None:
    """WeChat's transactions show each transfer's time to the second."""
    compiled = library()["wechat.transfer_money"]
    _, traj = run_reference(compiled, 0)
    end = traj.final.snapshot
    assert end is not None
    reading = screens_read(compiled, end).snapshot
    rows = reading.apps["wechat"].collections["transfers"]
    assert rows and all("sent_at" in r and ranged("sent_at") not in r for r in rows)
    assert shown_as_ranges(compiled, [reading]) == set()


def _move(order_no: str, when: str) -> Any:
    def edit(end: WorldSnapshot, traj: Any) -> None:
        for row in end.apps["coffee"].collections["orders"]:
            if row["order_no"] == order_no:
                row["placed_at"] = when

    return edit


def test_the_weeks_spend_is_decided_on_orders_read_to_the_minute(device_check_of: Any) -> None:
    dv, truth, _ = device_check_of("mini.coffee_weekly_spend")
    assert truth.success and dv.success is True
    # the week's first order was placed seconds before Monday: the answer counts it wrongly,
    # and the minute it was placed in (Sunday 23:59) says so
    dv, truth, _ = device_check_of(
        "mini.coffee_weekly_spend", _move("A0951", "2026-05-10T23:59:45"), from_start=True
    )
    assert not truth.success and dv.success is False
    wrong = [r.id for r in truth.clauses if not r.passed]
    assert dv.failed_observable == wrong and len(wrong) == 1  # the answer, and only it
    # seconds after midnight: still this week, and still decided
    dv, truth, _ = device_check_of(
        "mini.coffee_weekly_spend", _move("A0951", "2026-05-11T00:00:45"), from_start=True
    )
    assert truth.success and dv.success is True
