"""Reference solutions of the Life Payments tasks (utility bills inside WeChat)."""

from __future__ import annotations

from tasklang.envs.phoneworld.solutions.base import Driver, SolutionError, reference
from tasklang.envs.phoneworld.solutions.mini_more import find_card
from tasklang.envs.phoneworld.solutions.wechat import click, open_mini_program


def open_account(d: Driver, number: str) -> None:
    """From the Life Payments home page: the account whose card shows ``number``."""
    for _ in range(8):
        hit = next(
            (
                i
                for i, v in enumerate(d.observe().walk())
                if v.rid == "account-number" and v.text == number and v.bounds[3] > v.bounds[1]
            ),
            None,
        )
        if hit is not None:
            click(d, hit)
            return
        d.scroll("down")
    raise SolutionError(f"no account {number}")


@reference("mini.bills_pay_electricity")
def bills_pay_electricity(d: Driver) -> None:
    open_mini_program(d, "Life Payments")
    open_account(d, d.params["acct"]["account_no"])
    d.tap(text="Pay Bill", rid="account-pay")
    d.tap(text="Pay Now")
    d.tap(text="Pay")
    d.done()


@reference("mini.bills_water_due")
def bills_water_due(d: Driver) -> None:
    open_mini_program(d, "Life Payments")
    d.tap(text="Water", rid="kind-tile")
    place = d.params["place"]
    click(d, find_card(d, "account-item", {"account-name": place}))
    shown = d.texts(rid="account-amount-due")
    if not shown:
        raise SolutionError("the account page shows no amount due")
    d.answer(shown[0].removeprefix("Amount Due ").strip())


@reference("mini.bills_add_gas_and_pay")
def bills_add_gas_and_pay(d: Driver) -> None:
    p = d.params
    open_mini_program(d, "Life Payments")
    d.tap(text="Gas", rid="kind-tile")
    d.tap(text="Add Account")
    if not d.has(text="Shanghai Gas"):
        d.tap(text="Select")
        d.tap(text="Shanghai Gas")
    d.type(p["g"]["account_no"], rid="account-input")
    d.type(p["tag"], rid="name-input")
    d.tap(text="Save")
    d.tap(text="Pay Bill", rid="account-pay")
    d.tap(text="Pay Now")
    d.tap(text="Pay")
    d.done()


@reference("mini.bills_top_up_phone")
def bills_top_up_phone(d: Driver) -> None:
    p = d.params
    open_mini_program(d, "Life Payments")
    d.tap(text="Mobile Top-Up", rid="kind-tile")
    open_account(d, p["who"]["account_no"])
    d.tap(text="Top Up", rid="account-pay")
    amount = int(p["amt"])
    d.tap(text=f"${amount // 100}.{amount % 100:02d}", rid="amount-chip")
    d.tap(text="Pay Now")
    d.tap(text="Pay")
    d.done()
