"""PhoneWorld's Life Payments (utility bills inside WeChat): the reference solutions of its
tasks, the pages' XML, and accounts, adding one, paying a bill or a top-up, the payment records
and removing an account through real actions."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tasklang import ir
from tasklang.compiler import Compiler
from tasklang.envs.phoneworld.app import AppData
from tasklang.envs.phoneworld.episode import Episode, run_nothing, run_reference
from tasklang.envs.phoneworld.solutions.base import Driver
from tasklang.envs.phoneworld.solutions.bills import open_account
from tasklang.envs.phoneworld.solutions.wechat import open_mini_program
from tasklang.verifiers.snapshot import parse_ui_xml

ROOT = Path(__file__).resolve().parents[1]
TASKS = (
    "mini.bills_pay_electricity",
    "mini.bills_water_due",
    "mini.bills_add_gas_and_pay",
    "mini.bills_top_up_phone",
)
PKG = "com.tencent.mm"
HOME_POWER = "3100248861"  # $128.75 due
GAS = "2607730915"  # on Shanghai Gas's records, $18.35 due, not in My Accounts


@cache
def compiled(task_id: str) -> ir.CompiledTask:
    path = ROOT / "task_library" / "mini_app" / f"{task_id}.task"
    return Compiler().compile_paths([path]).tasks[0]


@pytest.mark.parametrize("task_id", TASKS)
def test_reference_solves_every_instance(task_id: str) -> None:
    for seed in range(6):  # `tasklang test` tries 20
        verdict, _ = run_reference(compiled(task_id), seed)
        assert verdict.success, (seed, [(r.id, r.summary) for r in verdict.clauses if not r.passed])


@pytest.mark.parametrize("task_id", TASKS)
def test_doing_nothing_fails(task_id: str) -> None:
    for seed in range(6):  # `tasklang test` tries 20
        assert not run_nothing(compiled(task_id), seed).success


# ------------------------------------------------------------------ helpers
def episode(task_id: str = "mini.bills_add_gas_and_pay", seed: int = 0) -> tuple[Episode, Driver]:
    """An episode of ``task_id`` (by default one whose accounts and payments are fixed: the
    tests below read them) on the Life Payments home page."""
    ep = Episode(compiled(task_id), seed)
    assert ep.instance is not None
    d = Driver(ep.tree, ep.step, ep.instance.params)
    open_mini_program(d, "Life Payments")
    assert ep.phone.foreground == "bills"
    return ep, d


def coll(ep: Episode, name: str) -> list[dict[str, Any]]:
    return ep.phone.state["bills"].collections[name]


def account(ep: Episode, number: str) -> dict[str, Any]:
    return next(a for a in coll(ep, "accounts") if a["account_no"] == number)


def wallet(ep: Episode) -> int:
    return int(ep.phone.state["wechat"].settings.get("wallet_balance", 20000))


def set_wallet_method(ep: Episode, method: str) -> None:
    data = ep.phone.state["wechat"]
    ep.phone.state["wechat"] = AppData(
        data.collections, {**data.settings, "payment_method": method}
    )
    ep.phone.invalidate()


def activity(ep: Episode) -> str:
    return ep.phone.current_activity()[1].rsplit(".", 1)[-1]


def xml_ok(ep: Episode) -> None:
    _, elements = parse_ui_xml(ep.xml())
    assert elements and {e.package for e in elements} <= {PKG, "com.android.systemui"}


def add_form(d: Driver, kind: str, number: str, name: str = "") -> None:
    d.tap(text=kind, rid="kind-tile")
    d.tap(text="Add Account")
    d.type(number, rid="account-input")
    if name:
        d.type(name, rid="name-input")


# ------------------------------------------------------------------ screens
def test_every_page_produces_parseable_xml_with_the_real_ids() -> None:
    ep, d = episode()
    assert activity(ep) == "AppBrandUI"
    xml_ok(ep)
    assert f"{PKG}:id/actionbar_capsule_option" in ep.xml() and "android.webkit.WebView" in ep.xml()
    d.tap(text="Records", rid="tab-bar-item")
    xml_ok(ep)
    d.tap(text="Home", rid="tab-bar-item")
    d.tap(text="Electricity", rid="kind-tile")
    xml_ok(ep)
    assert len(d.texts(rid="account-number")) == 2
    d.tap(text="Add Account")
    xml_ok(ep)
    d.back()
    open_account(d, HOME_POWER)
    xml_ok(ep)
    d.tap(text="Pay Bill")
    xml_ok(ep)
    d.tap(text="Pay Now")
    assert activity(ep) == "WalletPayUI"
    xml_ok(ep)


def test_home_lists_accounts_with_what_they_owe() -> None:
    _, d = episode()
    dues = dict(zip(d.texts(rid="account-number"), d.texts(rid="account-due"), strict=True))
    assert dues["3100248861"] == "Due $128.75"
    assert dues["3100517720"] == "Due $86.40"
    assert dues["13817206645"] == "Balance $12.30"
    assert {"Home", "Parents", "Me"} <= set(d.texts(rid="account-name"))


def test_paying_the_due_amount_clears_the_bill_and_is_recorded() -> None:
    ep, d = episode()
    before = wallet(ep)
    open_account(d, HOME_POWER)
    assert d.texts(rid="account-amount-due") == ["Amount Due $128.75"]
    d.tap(text="Pay Bill")
    assert d.texts(rid="amount-input") == ["128.75"]  # the amount due, filled in
    d.tap(text="Pay Now")
    d.tap(text="Pay")
    assert d.has(text="Payment Successful") and d.has(text="$128.75", rid="result-amount")
    assert wallet(ep) == before - 12875
    assert account(ep, HOME_POWER)["due"] == 0
    payment = coll(ep, "payments")[-1]
    assert payment["account_no"] == HOME_POWER and payment["amount"] == 12875
    assert payment["kind"] == "electricity" and payment["payment_no"] == "P50035"
    d.tap(text="Done")
    assert d.texts(rid="account-amount-due") == ["Amount Due $0.00"]
    d.tap(text="Payment Records", rid="field-name")
    assert d.texts(rid="record-amount") == ["$128.75", "$112.20"]  # this account, newest first


def test_a_partial_or_extra_payment_and_invalid_amounts() -> None:
    ep, d = episode()
    open_account(d, HOME_POWER)
    d.tap(text="Pay Bill")
    for bad in ("abc", "0", "1.234", "6000"):
        d.type(bad, rid="amount-input")
        d.tap(text="Pay Now")
        assert activity(ep) == "AppBrandUI" and coll(ep, "payments")[-1]["payment_no"] == "P50034"
    assert ep.phone.toast == "The most you can pay at once is $5,000.00"
    d.type("100", rid="amount-input")
    d.tap(text="Pay Now")
    d.tap(text="Pay")
    assert account(ep, HOME_POWER)["due"] == 2875
    d.tap(text="Done")
    d.tap(text="Pay Bill")
    d.type("50", rid="amount-input")
    d.tap(text="Pay Now")
    d.tap(text="Pay")
    acct = account(ep, HOME_POWER)
    assert acct["due"] == 0 and acct["balance"] == 2125  # the rest becomes credit
    d.tap(text="Done")
    assert d.has(text="$21.25", rid="field-value")


def test_a_card_pays_without_touching_the_wallet_and_a_short_wallet_pays_nothing() -> None:
    ep, d = episode()
    set_wallet_method(ep, "credit_card")
    before = wallet(ep)
    open_account(d, "3100517720")
    d.tap(text="Pay Bill")
    d.tap(text="Pay Now")
    assert d.has(text="Credit Card")
    d.tap(text="Pay")
    assert wallet(ep) == before and account(ep, "3100517720")["due"] == 0
    d.tap(text="Done")
    d.back()
    set_wallet_method(ep, "balance")
    open_account(d, HOME_POWER)
    d.tap(text="Pay Bill")
    d.type("300", rid="amount-input")
    d.tap(text="Pay Now")
    d.tap(text="Pay")
    assert ep.phone.dialog is not None and ep.phone.dialog.title == "Insufficient Balance"
    assert account(ep, HOME_POWER)["due"] == 12875


def test_mobile_top_up_with_a_quick_amount_adds_to_the_balance() -> None:
    ep, d = episode()
    d.tap(text="Mobile Top-Up", rid="kind-tile")
    open_account(d, "18621093372")
    d.tap(text="Top Up", rid="account-pay")
    assert d.texts(rid="amount-input") == ["Enter amount"]  # a phone has no bill to fill in
    d.tap(text="$30.00", rid="amount-chip")
    assert d.texts(rid="amount-input") == ["30.00"]
    d.tap(text="Pay Now")
    d.tap(text="Pay")
    assert account(ep, "18621093372")["balance"] == 485 + 3000
    assert coll(ep, "payments")[-1]["kind"] == "mobile"


def test_adding_an_account_looks_up_the_provider() -> None:
    ep, d = episode()
    add_form(d, "Gas", "2600000000")
    assert d.has(text="Shanghai Gas")  # the city's only gas provider is chosen
    d.tap(text="Save")
    assert ep.phone.dialog is not None and ep.phone.dialog.title == "Account not found"
    d.tap(text="OK")
    d.type("2603118452", rid="account-input")  # already in My Accounts
    d.tap(text="Save")
    assert ep.phone.toast == "This account is already in My Accounts"
    d.type(GAS, rid="account-input")
    d.type("Studio", rid="name-input")
    d.tap(text="Save")
    added = account(ep, GAS)
    assert added["provider"] == "Shanghai Gas" and added["name"] == "Studio"
    assert added["due"] == 1835 and added["holder"] == "Li *hua"
    assert d.texts(rid="account-amount-due") == ["Amount Due $18.35"]
    d.back()
    assert "2607730915" in d.texts(rid="account-number") and "Studio" in d.texts(rid="account-name")


def test_water_needs_a_provider_choice_and_a_new_phone_number_starts_empty() -> None:
    ep, d = episode()
    add_form(d, "Water", "7002938114")
    d.tap(text="Save")
    assert ep.phone.toast == "Select a provider"
    d.tap(text="Select")
    assert ep.phone.dialog is not None and [
        v.text for v in ep.tree().walk() if v.rid == "android:id/text1"
    ] == ["Shanghai Chengtou Water", "Shanghai Pudong Water"]  # Shanghai's, not Beijing's
    d.tap(text="Shanghai Pudong Water")
    d.type("7990001111", rid="account-input")
    d.tap(text="Save")
    assert ep.phone.dialog is not None and "Shanghai Pudong Water" in ep.phone.dialog.message
    d.tap(text="OK")
    d.tap(desc="Navigate up")
    d.tap(desc="Navigate up")
    add_form(d, "Mobile Top-Up", "13900001111", "Dad")
    d.tap(text="Select")
    d.tap(text="China Telecom")
    d.tap(text="Save")
    phone = account(ep, "13900001111")
    assert phone["kind"] == "mobile" and phone["balance"] == 0 and phone["name"] == "Dad"


def test_records_filter_by_kind_and_removing_keeps_them() -> None:
    ep, d = episode()
    d.tap(text="Records", rid="tab-bar-item")
    assert d.texts(rid="record-amount") == ["$79.15", "$20.00", "$31.80", "$112.20"]
    d.tap(text="Water", rid="filter-chip")
    assert d.texts(rid="record-amount") == ["$31.80"]
    d.tap(text="All", rid="filter-chip")
    d.tap(text="Home", rid="tab-bar-item")
    open_account(d, "3100517720")
    d.tap(text="Remove Account")
    d.tap(text="Cancel")
    assert len(coll(ep, "accounts")) == 6
    d.tap(text="Remove Account")
    d.tap(text="Remove", rid="android:id/button1")
    assert len(coll(ep, "accounts")) == 5 and ep.phone.toast == "Account removed"
    assert "3100517720" not in d.texts(rid="account-number")
    assert len(coll(ep, "payments")) == 4
