"""A screen spot's other forms (``or { "TEXT" = VALUE, "TEXT" = unknown }``): the language,
the reading, the three-valued evaluation of records read without a field, and the device
checker deciding clauses on the records that were read."""

from __future__ import annotations

from typing import Any

import pytest

from tasklang import ir
from tasklang.compiler import Compiler
from tasklang.envs.device.codec import DecodeError
from tasklang.envs.device.differential import library, start_reading
from tasklang.envs.device.probes import coverage
from tasklang.envs.device.screens import UNSHOWN, Among, spot_decoder
from tasklang.envs.phoneworld.episode import run_reference
from tasklang.fmt import format_source
from tasklang.source import SourceFile
from tasklang.verifiers.bracket import Readings, decide
from tasklang.verifiers.evaluate import Env, Unknown, evaluate, ranged
from tasklang.verifiers.probes import kept_state
from tasklang.verifiers.snapshot import AppState, WorldSnapshot

BILLS = """\
app bills_demo {
  package "com.example.bills"
  record Account {
    number: text key
    kind: enum(power, phone)
    due: money = $0.00
    balance: money = $0.00
  }
  collection accounts: Account
  settings { total: money = $0.00 }
  probe accounts: screen rows id "account" {
    number = id "number",
    kind = id "kind" labels { power = "Electricity", phone = "Mobile" },
    %s
  }
  probe total: screen value id "total"
}
"""
DUE = 'due = id "owed" format "Due {}" or { "No bill due" = $0.00, "Balance {*}" = unknown },'


def _compile(fields: str) -> tuple[ir.AppModel | None, list[tuple[str, str]]]:
    result = Compiler().compile_text(BILLS % fields, path="bills.app")
    return result.apps.get("bills_demo"), [(d.code, d.message) for d in result.diagnostics]


# ---------------------------------------------------------------- the language
def test_the_forms_reach_the_probe() -> None:
    app, diagnostics = _compile(DUE)
    assert diagnostics == [] and app is not None
    [probe_] = [p for p in app.probes if p.target == "accounts"]
    forms = probe_.spots["due"].forms
    assert [(f.text, f.value, f.unknown) for f in forms] == [
        ("No bill due", 0, False),
        ("Balance {*}", None, True),
    ]


def test_the_formatter_keeps_the_forms() -> None:
    text = BILLS % DUE
    once, _ = format_source(SourceFile("bills.app", text))
    assert 'or { "No bill due" = $0.00, "Balance {*}" = unknown }' in once
    assert format_source(SourceFile("bills.app", once))[0] == once


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ('due = id "owed" or { "Due {}" = $1.00 },', "only the format shows the value"),
        ('due = id "owed" or { "Due" = nothing },', "`nothing` is not a value"),
        ('due = id "owed" or { "Due" = "lots" },', "does not fit field `due`"),
        ('due = id "owed" or { "-" = $0.00, "-" = unknown },', "is read two ways"),
        ('number = id "n2" or { "-" = unknown },', "is read twice"),
    ],
)
def test_a_form_that_cannot_be_read_is_an_error(fields: str, message: str) -> None:
    _, diagnostics = _compile(fields)
    assert any(code == "TL1023" and message in text for code, text in diagnostics), diagnostics


def test_the_key_and_a_setting_are_read_on_every_row() -> None:
    keyless = (BILLS % "").replace(
        'number = id "number",', 'number = id "number" or { "-" = unknown },'
    )
    result = Compiler().compile_text(keyless, path="bills.app")
    assert any("is the key" in d.message for d in result.diagnostics)
    setting = (BILLS % "").replace('value id "total"', 'value id "total" or { "-" = unknown }')
    result = Compiler().compile_text(setting, path="bills.app")
    assert any("setting `total` is one value" in d.message for d in result.diagnostics)


SPEC = """\
app cups_demo {
  package "com.example.cups"
  record Line { item: text  size: enum(small, large) = "small"  sugar: enum(none, less) = "none" }
  collection lines: Line
  probe lines: screen rows id "line" {
    item = id "item",
    size = id "spec" format "{} · {*}" labels { small = "Small", large = "Large" },
    %s
  }
}
"""


def test_one_text_of_several_options_is_read_by_their_labels() -> None:
    """A line's options in one text ("Large · Less Sugar · 2 shots"): where the value is one
    of the labels, only the splits whose value is a label count, and `{}` may touch `{*}`."""
    sugar = (
        'sugar = id "spec" format "{*} · {}{*}" labels { none = "No Sugar", less = "Less Sugar" },'
    )
    result = Compiler().compile_text(SPEC % sugar, path="cups.app")
    assert result.diagnostics == []
    [probe_] = result.apps["cups_demo"].probes
    size = spot_decoder(probe_.spots["size"], ir.Type(name="enum", members=["small", "large"]))
    sweet = spot_decoder(probe_.spots["sugar"], ir.Type(name="enum", members=["none", "less"]))
    assert size("Large · Less Sugar · 2 shots") == "large"
    assert sweet("Large · Less Sugar · 2 shots") == "less"
    assert sweet("Small · No Sugar") == "none"
    with pytest.raises(DecodeError, match="none of the labels 'Small', 'Large'"):
        size("Huge · No Sugar")
    with pytest.raises(DecodeError, match="which part"):  # two labels fit: which is it?
        sweet("Small · No Sugar · Less Sugar")
    # without labels, a value that touches other text has no end
    bare = SPEC % 'sugar = id "spec" format "{*} · {}{*}",'
    result = Compiler().compile_text(bare.replace("enum(none, less)", "text"), path="cups.app")
    assert [d.code for d in result.diagnostics] == ["TL1023"]
    assert "does not say where the value ends" in result.diagnostics[0].message


# ---------------------------------------------------------------- reading
def _decoder(fields: str, name: str) -> Any:
    app, _ = _compile(fields)
    assert app is not None
    [probe_] = [p for p in app.probes if p.target == "accounts"]
    return spot_decoder(probe_.spots[name], ir.Type(name="money"))


def test_each_form_reads_as_its_value() -> None:
    read = _decoder(DUE, "due")
    assert read("Due $128.75") == 12875
    assert read("No bill due") == 0
    assert read("Balance $12.30") is UNSHOWN
    with pytest.raises(DecodeError, match="is not written as"):
        read("Overdue")


def test_text_the_format_and_a_form_both_read_is_an_error() -> None:
    read = _decoder('due = id "owed" format "Due {}" or { "Due {*}" = unknown },', "due")
    with pytest.raises(DecodeError, match="read both by the format"):
        read("Due $1.00")
    assert read("Due soon") is UNSHOWN


# ---------------------------------------------------------------- three-valued evaluation
def _env(*rows: dict[str, Any], partial: bool = True) -> Env:
    snap = WorldSnapshot(apps={"bills": AppState(collections={"accounts": list(rows)})})
    return Env({}, {}, snap, partial=partial)


def _exists(where: ir.Expr) -> ir.Quant:
    return ir.Quant(quantifier="exists", source=ir.CollectionRef(app="bills", name="accounts"),
                    where=where)  # fmt: skip


def _eq(name: str, value: Any, type_name: str = "money") -> ir.Compare:
    t = ir.Type(name=type_name)  # type: ignore[arg-type]
    return ir.Compare(
        op="==", left=ir.FieldRef(name=name, type=t), right=ir.Lit(value=value, type=t)
    )


POWER = {"number": "A1", "kind": "power", "due": 0}
PHONE = {"number": "M1", "kind": "phone", "balance": 1230}  # its row does not show `due`


def test_a_record_known_to_satisfy_the_condition_decides_exists() -> None:
    cond = ir.Logic(op="and", left=_eq("number", "A1", "text"), right=_eq("due", 0))
    assert evaluate(_exists(cond), _env(PHONE, POWER)) is True


def test_a_condition_that_an_unread_field_could_satisfy_is_unknown() -> None:
    with pytest.raises(Unknown):
        evaluate(_exists(_eq("due", 500)), _env(POWER, PHONE))
    # ... unless a side that was read decides it
    cond = ir.Logic(op="and", left=_eq("number", "A1", "text"), right=_eq("due", 500))
    assert evaluate(_exists(cond), _env(POWER, PHONE)) is False
    either = ir.Logic(op="or", left=_eq("due", 500), right=_eq("number", "M1", "text"))
    assert evaluate(_exists(either), _env(PHONE)) is True
    implies = ir.Logic(op="implies", left=_eq("due", 500), right=_eq("number", "M1", "text"))
    assert evaluate(implies, _env().with_record(PHONE)) is True


def test_a_sum_over_an_unread_field_is_unknown() -> None:
    total = ir.Aggregate(fn="sum", source=ir.CollectionRef(app="bills", name="accounts"),
                         field="due", type=ir.Type(name="money"))  # fmt: skip
    with pytest.raises(Unknown):
        evaluate(total, _env(POWER, PHONE))
    only = total.model_copy(update={"where": _eq("kind", "power", "text")})
    assert evaluate(only, _env(POWER, PHONE)) == 0


def test_without_partial_a_missing_field_is_null_as_before() -> None:
    assert evaluate(_exists(_eq("due", 500)), _env(PHONE, partial=False)) is False


def test_a_collection_compared_whole_is_not_read_record_by_record() -> None:
    """Every field mapped, one of them on some rows only: counted as read for a clause that
    reads the records one by one, but the collection is not read in full (a list compared
    whole would hold records that lack a field)."""
    fields = DUE + ' balance = id "owed" format "Balance {}" or { "Due {*}" = $0.00 },'
    app, diagnostics = _compile(fields)
    assert diagnostics == [] and app is not None
    compiled = ir.CompiledTask.model_construct(apps={"bills_demo": app})  # its apps alone
    cov = coverage(compiled)
    key = ("bills_demo", "accounts")
    assert cov.partly[key] == {"due"} and key not in cov.complete
    shown = cov.shown()
    assert shown.fields[key] == {"number", "kind", "due", "balance"}
    assert key not in shown.complete


# ---------------------------------------------------------------- the library and the checker
def test_the_bill_accounts_are_read_row_by_row(screens_read: Any) -> None:
    compiled = library()["mini.bills_pay_electricity"]
    cov = coverage(compiled)
    # the card shows what is due, or a phone's balance; the account's page the rest, and the
    # due date only while a bill is due
    assert cov.partly[("bills", "accounts")] == {"due", "due_date"}
    read = {"account_no", "kind", "provider", "name", "holder", "balance"}
    assert cov.fields[("bills", "accounts")] == read
    _, traj = run_reference(compiled, 0)
    end = traj.final.snapshot
    assert end is not None
    reading = screens_read(compiled, end).snapshot
    rows = reading.apps["bills"].collections["accounts"]
    truth = {r["account_no"]: r for r in end.apps["bills"].collections["accounts"]}
    assert len(rows) == len(truth)
    for row in rows:
        real = truth[row["account_no"]]
        assert row["balance"] == real["balance"] and row["holder"] == real.get("holder")
        if real["kind"] == "mobile":
            assert "due" not in row and "due_date" not in row
        else:
            assert row["due"] == real["due"]
            assert row.get("due_date") == (real.get("due_date") if real["due"] else None)


def _clause_id(compiled: ir.CompiledTask, kind: str, mentions: str) -> str:
    for c in compiled.task.clauses:
        if c.body.node == kind and mentions in c.body.model_dump_json():
            return c.id
    raise AssertionError(f"no {kind} clause mentioning {mentions}")


def test_the_checker_decides_a_paid_bill_on_the_row_that_shows_it(device_check_of: Any) -> None:
    dv, truth, compiled = device_check_of("mini.bills_pay_electricity")
    cid = _clause_id(compiled, "check", '"accounts"')
    assert truth.success and dv.success is True
    assert dv.inferred[cid].passed and cid not in dv.unobservable

    def owe(end: WorldSnapshot, traj: Any) -> None:
        number = traj.header.instance.params["acct"]["account_no"]
        for row in end.apps["bills"].collections["accounts"]:
            if row["account_no"] == number:
                row["due"] = 4200

    dv, truth, _ = device_check_of("mini.bills_pay_electricity", owe)
    assert not truth.success and dv.success is False and not dv.inferred[cid].passed


def test_a_condition_that_holds_at_the_end_held_once(device_check_of: Any) -> None:
    dv, truth, compiled = device_check_of("mini.bills_add_gas_and_pay")
    cid = _clause_id(compiled, "trace", '"holds"')
    assert truth.success and dv.inferred[cid].passed
    assert dv.inferred[cid].evidence[0].detail == "the condition holds at the end"

    def drop(end: WorldSnapshot, traj: Any) -> None:
        number = traj.header.instance.params["g"]["account_no"]
        rows = end.apps["bills"].collections["accounts"]
        rows[:] = [r for r in rows if r["account_no"] != number]

    dv, truth, _ = device_check_of("mini.bills_add_gas_and_pay", drop)
    assert cid in dv.unobservable  # it may have held along the way: not decided


# ---------------------------------------------------------------- text that stands for one of several values
KIND = 'kind = id "kind" labels { power = "Electricity", phone = "Mobile" } or { "Utility" = "power" or "phone" },'


def test_a_form_may_stand_for_one_of_several_values() -> None:
    text = (BILLS % DUE).replace(
        'kind = id "kind" labels { power = "Electricity", phone = "Mobile" },', KIND
    )
    result = Compiler().compile_text(text, path="bills.app")
    assert result.diagnostics == []
    [probe_] = [p for p in result.apps["bills_demo"].probes if p.target == "accounts"]
    [form] = probe_.spots["kind"].forms
    assert (form.text, form.among, form.value, form.unknown) == (
        "Utility",
        ["power", "phone"],
        None,
        False,
    )
    once, _ = format_source(SourceFile("bills.app", text))
    assert '"Utility" = "power" or "phone"' in once
    assert format_source(SourceFile("bills.app", once))[0] == once
    read = spot_decoder(probe_.spots["kind"], ir.Type(name="enum", members=("power", "phone")))
    assert read("Utility") == Among(("power", "phone")) and read("Mobile") == "phone"
    assert read("Utility").as_json() == {"one_of": ["power", "phone"]}


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ('"Utility" = unknown or "power"', "`unknown` or a value, not both"),
        ('"Utility" = "power" or "gas"', "does not fit"),
        ('"Utility" = "power" or "power"', "names a value twice"),
    ],
)
def test_several_values_that_cannot_be_read_are_errors(form: str, message: str) -> None:
    text = (BILLS % "").replace(
        'kind = id "kind" labels { power = "Electricity", phone = "Mobile" },',
        f'kind = id "kind" labels {{ power = "Electricity", phone = "Mobile" }} or {{ {form} }},',
    )
    result = Compiler().compile_text(text, path="bills.app")
    assert any(message in d.message for d in result.diagnostics), result.diagnostics
    key = (BILLS % "").replace(
        'number = id "number",', 'number = id "number" or { "-" = "A" or "B" },'
    )
    result = Compiler().compile_text(key, path="bills.app")
    assert any("is the key" in d.message for d in result.diagnostics)


def _status(op: str, value: Any) -> bool:
    t = ir.Type(name="enum", members=("paid", "refunded", "used"))  # type: ignore[arg-type]
    cmp = ir.Compare(
        op=op, left=ir.FieldRef(name="status", type=t), right=ir.Lit(value=value, type=t)
    )  # type: ignore[arg-type]
    record = {"order_no": "M1", ranged("status"): {"one_of": ["used", "paid"]}}
    return bool(evaluate(cmp, _env().with_record(record)))


def test_a_comparison_every_value_answers_alike_is_decided() -> None:
    assert _status("==", "refunded") is False and _status("!=", "refunded") is True
    with pytest.raises(Unknown):
        _status("==", "paid")  # used, or paid
    t = ir.Type(name="enum", members=("paid", "refunded", "used"))  # type: ignore[arg-type]
    either = ir.Compare(op="in", left=ir.FieldRef(name="status", type=t),
                        right=ir.ListExpr(items=[ir.Lit(value="used", type=t), ir.Lit(value="paid", type=t)],
                                          type=ir.Type(name="list", item=t)))  # fmt: skip
    record = {ranged("status"): {"one_of": ["used", "paid"]}}
    assert evaluate(either, _env().with_record(record)) is True


def test_a_refund_count_is_decided_on_completed_orders(device_check_of: Any) -> None:
    """A cinema order whose show has started reads "Completed": used or paid, never refunded,
    so how many orders were refunded is read, though how many are paid is not."""
    dv, truth, compiled = device_check_of("mini.movies_refund_order")
    refunded = next(
        c.id
        for c in compiled.task.clauses
        if c.body.node == "check"
        and '"count"' in (body := c.body.model_dump_json())
        and '"refunded"' in body
    )
    assert truth.success and dv.inferred[refunded].passed and refunded not in dv.unobservable

    def refund_another(end: WorldSnapshot, traj: Any) -> None:
        chosen = traj.header.instance.params["o"]["order_no"]
        for row in end.apps["movies"].collections["orders"]:
            if row["order_no"] != chosen and row["status"] == "paid":
                row["status"] = "refunded"
                return

    dv, truth, _ = device_check_of("mini.movies_refund_order", refund_another)
    assert not truth.success and dv.success is False and not dv.inferred[refunded].passed


def test_an_update_is_proved_where_the_end_row_shows_the_field(
    device_check_of: Any, screens_read: Any
) -> None:
    """`eventually updated movies.orders where ... status == "refunded"`: the order read
    "Paid" before the episode and "Refunded" after it was updated, and the last update left
    it refunded. Read "Completed" at the end (used or paid), the update is not proved."""
    dv, truth, compiled = device_check_of("mini.movies_refund_order")
    updated = _clause_id(compiled, "trace", '"updated"')
    assert truth.success and dv.inferred[updated].passed and updated not in dv.unobservable
    _, traj = run_reference(compiled, 0)
    end = traj.final.snapshot
    start = start_reading(compiled, traj)
    assert end is not None and start is not None
    reading = screens_read(compiled, end).snapshot
    chosen = traj.header.instance.params["o"]["order_no"]
    for row in reading.apps["movies"].collections["orders"]:
        if row["order_no"] == chosen:
            assert row.pop("status") == "refunded"
            row[ranged("status")] = {"one_of": ["used", "paid"]}
    cov = coverage(compiled).partly_read({("movies", "orders", "status")})
    kept = kept_state(compiled, traj.steps)
    clause = next(c for c in compiled.task.clauses if c.id == updated)
    params = traj.header.instance.params
    args = (clause, compiled, cov.at_end)
    proved = decide(*args, Readings(start.snapshot, end, params), cov.keyed, cov.fields, kept,
                    partly=cov.partly)  # fmt: skip
    assert proved is not None and proved.passed  # the world itself, as the verifier sees it
    assert decide(*args, Readings(start.snapshot, reading, params), cov.keyed, cov.fields, kept,
                  partly=cov.partly) is None  # fmt: skip
