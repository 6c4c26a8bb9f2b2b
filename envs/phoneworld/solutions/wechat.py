"""Reference solutions of the WeChat tasks, of its Coffee mini program, and of sharing a file
from Files into WeChat."""

from __future__ import annotations

import datetime as dt
import re

from tasklang.envs.phoneworld.solutions.base import Driver, SolutionError, reference

_MONEY = re.compile(r"^\$([\d,]+)\.(\d{2})$")


def cents(text: str) -> int:
    """Cents from money as the apps show it ("$18.60").

    >>> cents("$18.60"), cents("$1,204.05")
    (1860, 120405)
    """
    m = _MONEY.match(text.strip())
    if m is None:
        raise SolutionError(f"not an amount: {text!r}")
    return int(m[1].replace(",", "")) * 100 + int(m[2])


def click(d: Driver, index: int, long: bool = False) -> None:
    d.act({"action_type": "long_press" if long else "click", "index": index})


def dollars(amount: int) -> str:
    return f"${amount // 100}.{amount % 100:02d}"


def open_mini_program(d: Driver, name: str) -> None:
    """From WeChat's launcher screen: Discover > Mini Programs > Search, and open ``name``."""
    d.tap(text="Discover", rid="tab_label")
    d.tap(text="Mini Programs")
    d.tap(desc="Search")
    d.type(name, rid="search_input")
    d.tap(text=name, rid="appbrand_name")


@reference("wechat.transfer_money")
def transfer_money(d: Driver) -> None:
    pal, owed, memo = d.params["pal"], int(d.params["owed"]), d.params["memo"]
    d.tap(text="Contacts", rid="tab_label")
    click(d, d.scroll_to(text=pal["remark"], rid="contact_name"))
    d.tap(text="Messages")
    d.tap(desc="More function buttons")
    d.tap(text="Transfer", rid="panel_title")
    d.type(f"{owed / 100:.2f}", rid="remittance_amount")
    d.tap(text="Add Note")
    d.type(memo, rid="remittance_desc_input")
    d.tap(text="OK")
    d.tap(text="Transfer", rid="remittance_btn")
    d.tap(text="Pay")
    d.tap(text="Done")
    d.done()


@reference("mini.coffee_order_latte")
def coffee_order_latte(d: Driver) -> None:
    p = d.params
    open_mini_program(d, "Coffee")
    d.tap(text="Menu", rid="tab-bar-item")
    if not d.has(text=p["shop"]["name"], rid="store-name"):
        d.tap(text="Change", rid="store-change")
        d.tap(text=p["shop"]["name"], desc="store")
    d.tap(text=p["drink"], rid="menu-item-name")
    d.tap(text=p["cup"].capitalize(), rid="option")
    d.tap(text=f"{p['milk_kind'].capitalize()} Milk", rid="option")
    for _ in range(int(p["cups"]) - 1):
        d.tap(desc="Increase quantity")
    d.tap(text="Add to Cart")
    d.tap(text="Checkout", rid="cart-checkout")
    d.tap(text="Pickup", rid="mode-pickup")
    d.tap(text="Place Order")
    d.tap(text="Pay")
    d.done()


@reference("mini.coffee_cancel_duplicate")
def coffee_cancel_duplicate(d: Driver) -> None:
    open_mini_program(d, "Coffee")
    d.tap(text="Orders", rid="tab-bar-item")
    click(d, d.scroll_to(text=f"Order No. {d.params['dup']['order_no']}", rid="order-no"))
    d.tap(text="Cancel order")
    d.tap(text="Confirm")
    d.done()


def today_from_clock(d: Driver, year: int) -> dt.date:
    """Today's date, as the Clock app's Clock tab shows it ("Thu, May 14")."""
    d.open("Clock")
    d.tap(rid="tab_menu_clock")
    shown = d.texts(rid="date")
    if not shown:
        raise SolutionError("the Clock tab shows no date")
    return dt.datetime.strptime(f"{shown[0]} {year}", "%a, %b %d %Y").date()


@reference("mini.coffee_weekly_spend")
def coffee_weekly_spend(d: Driver) -> None:
    d.open("WeChat")
    open_mini_program(d, "Coffee")
    d.tap(text="Orders", rid="tab-bar-item")
    orders: dict[str, tuple[str, str, int]] = {}  # order no -> (time, status, total)
    for _ in range(10):
        before = len(orders)
        for card in [v for v in d.observe().walk() if v.rid == "order-item"]:
            texts = {c.rid: c.text for c in card.walk() if c.text}
            if {"order-no", "order-time", "order-status", "order-total"} <= texts.keys():
                orders[texts["order-no"]] = (
                    texts["order-time"],
                    texts["order-status"],
                    cents(texts["order-total"]),
                )
        pages = [v for v in d.observe().walk() if v.cls == "android.webkit.WebView"]
        if not any(v.scrollable for v in pages) or (before and len(orders) == before):
            break
        d.scroll("down")
    if not orders:
        raise SolutionError("no orders on the Orders page")
    latest = max(dt.datetime.strptime(t, "%Y-%m-%d %H:%M") for t, _, _ in orders.values())
    try:
        today = today_from_clock(d, latest.year)
    except SolutionError:  # no date on the Clock tab: the last order was placed today
        today = latest.date()
    monday = dt.datetime.combine(today - dt.timedelta(days=today.weekday()), dt.time())
    total = sum(
        amount
        for when, status, amount in orders.values()
        if status != "Cancelled" and dt.datetime.strptime(when, "%Y-%m-%d %H:%M") >= monday
    )
    d.answer(dollars(total))


@reference("cross.send_file_wechat")
def send_file_wechat(d: Driver) -> None:
    doc, pal = d.params["doc"], d.params["pal"]
    d.tap(text=doc["folder"], rid="title")
    click(d, d.scroll_to(text=doc["name"], rid="title"), long=True)
    d.tap(desc="Share")
    d.tap(text="WeChat")
    d.type(pal["remark"], rid="search_input")
    d.tap(text=pal["remark"], rid="contact_name")
    d.tap(text="Send")
    d.done()
