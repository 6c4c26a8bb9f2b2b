"""Reference solutions of more mini program tasks inside WeChat: Coffee, Rides, Movie Tickets
and Life Payments (ordering with options, paying, status questions, refunds, infeasible
requests, and opening a mini program from a chat card or from WeChat's search)."""

from __future__ import annotations

import re
from typing import Any

from tasklang.envs.phoneworld.solutions.base import Driver, SolutionError, reference
from tasklang.envs.phoneworld.solutions.wechat import click, open_mini_program


def card_texts(d: Driver, card_rid: str, key_rid: str, key: str) -> dict[str, str]:
    """The texts (by resource id) of the card ``card_rid`` whose ``key_rid`` text is ``key``,
    scrolling the list until it shows."""
    for _ in range(12):
        for card in [v for v in d.observe().walk() if v.rid == card_rid]:
            texts = {c.rid: c.text for c in card.walk() if c.text}
            if texts.get(key_rid) == key:
                return texts
        d.scroll("down")
    raise SolutionError(f"no {card_rid} with {key_rid} {key!r}")


def find_card(d: Driver, card_rid: str, want: dict[str, Any]) -> int:
    """The element index of the visible card ``card_rid`` whose texts (by resource id) match
    ``want`` (a text, or a test of the text), scrolling the list until it shows."""
    for _ in range(12):
        for i, v in enumerate(d.observe().walk()):
            if v.rid != card_rid or v.bounds[3] <= v.bounds[1]:
                continue
            texts = {c.rid: c.text for c in v.walk() if c.text}
            if all(
                t(texts.get(k, "")) if callable(t) else texts.get(k) == t for k, t in want.items()
            ):
                return i
        d.scroll("down")
    raise SolutionError(f"no {card_rid} with {want}")


@reference("mini.coffee_order_status")
def coffee_order_status(d: Driver) -> None:
    number = d.params["num"]
    open_mini_program(d, "Coffee")
    d.tap(text="Orders", rid="tab-bar-item")
    texts = card_texts(d, "order-item", "order-no", f"Order No. {number}")
    d.answer("yes" if texts.get("order-status") == "Ready for Pickup" else "no")


@reference("mini.coffee_closed_store")
def coffee_closed_store(d: Driver) -> None:
    shop = d.params["shop"]["name"]
    open_mini_program(d, "Coffee")
    d.tap(text="Menu", rid="tab-bar-item")
    d.tap(text="Change", rid="store-change")
    texts = card_texts(d, "store-item", "store-name", shop)
    if texts.get("store-status") != "Closed":
        raise SolutionError(f"{shop} is open")
    d.done("infeasible")


_ASK = re.compile(r"order me an? (small|medium|large) (.+?) with (\w+) milk", re.I)


def open_chat(d: Driver, name: str) -> None:
    """From WeChat's Chats tab: the chat with ``name``."""
    click(d, d.scroll_to(text=name, rid="chat_title"))


def order_drink(d: Driver, store: str, drink: str, size: str, milk: str) -> None:
    """In the Coffee mini program: one cup of ``drink`` in the cart, from ``store``."""
    d.tap(text="Menu", rid="tab-bar-item")
    if not d.has(text=store, rid="store-name"):
        d.tap(text="Change", rid="store-change")
        click(d, d.scroll_to(text=store, rid="store-name"))
    click(d, d.scroll_to(text=drink, rid="menu-item-name"))
    d.tap(text=size.capitalize(), rid="option")
    d.tap(text=f"{milk.capitalize()} Milk", rid="option")
    d.tap(text="Add to Cart")
    d.tap(text="Checkout", rid="cart-checkout")


@reference("mini.coffee_order_from_chat")
def coffee_order_from_chat(d: Driver) -> None:
    p = d.params
    open_chat(d, p["pal"]["name"])
    asks = [m for t in d.texts(rid="chatting_content") if (m := _ASK.search(t))]
    if not asks:
        raise SolutionError("no drink asked for in the chat")
    size, drink, milk = asks[-1][1].lower(), asks[-1][2], asks[-1][3].lower()
    click(d, d.need(rid="chatting_appbrand"))
    order_drink(d, p["shop"]["name"], drink, size, milk)
    d.tap(text="Delivery", rid="mode-delivery")
    d.tap(text="Place Order")
    d.tap(text="Pay")
    d.done()


@reference("mini.coffee_coupon_order")
def coffee_coupon_order(d: Driver) -> None:
    p = d.params
    open_mini_program(d, "Coffee")
    d.tap(text="Menu", rid="tab-bar-item")
    if not d.has(text=p["shop"]["name"], rid="store-name"):
        d.tap(text="Change", rid="store-change")
        click(d, d.scroll_to(text=p["shop"]["name"], rid="store-name"))
    click(d, d.scroll_to(text=p["drink"]["name"], rid="menu-item-name"))
    d.tap(text=p["sweet"]["text"].title(), rid="option")
    for _ in range(int(p["n"]) - 1):
        click(d, d.scroll_to(desc="Increase quantity"))
    d.tap(text="Add to Cart")
    d.tap(text="Checkout", rid="cart-checkout")
    d.tap(text="Pickup", rid="mode-pickup")
    click(d, d.scroll_to(text="Coupon", rid="field-name"))
    click(d, d.scroll_to(text=p["cp"]["title"], rid="coupon-title"))
    d.tap(text="Place Order")
    d.tap(text="Pay")
    d.done()


@reference("mini.ride_driver_plate")
def ride_driver_plate(d: Driver) -> None:
    open_mini_program(d, "Rides")
    if d.has(text=f"To {d.params['dest']['name']}", rid="trip-banner-destination"):
        d.tap(rid="trip-banner")
    else:
        d.tap(text="Trips", rid="tab-bar-item")
        click(d, d.scroll_to(text=d.params["dest"]["name"], rid="trip-destination"))
    plates = d.texts(rid="driver-plate")
    if not plates:
        raise SolutionError("the trip shows no car")
    d.answer(plates[0])


@reference("mini.ride_unknown_place")
def ride_unknown_place(d: Driver) -> None:
    spot = d.params["spot"]
    open_mini_program(d, "Rides")
    d.tap(rid="destination-row")
    d.type(spot)
    if d.has(text=spot, rid="place-name") or not d.has(rid="search-empty"):
        raise SolutionError(f"the map knows {spot}")
    d.done("infeasible")


@reference("mini.ride_from_search")
def ride_from_search(d: Driver) -> None:
    p = d.params
    d.tap(text="Chats", rid="tab_label")
    d.tap(desc="Search")
    d.type("Rides", rid="search_input")
    click(d, d.scroll_to(text="Rides", rid="appbrand_name"))
    click(d, d.need(text=p["dest"]["label"], rid="saved-place-chip"))
    d.tap(text=p["cls"]["name"], rid="ride-option-name")
    d.tap(text=f"Request {p['cls']['name']}", rid="request-ride")
    d.tap(text="Pay")
    d.done()


def open_showtimes(d: Driver, cinema: str, film: str) -> None:
    """In Movie Tickets: the cinema's page with ``film`` chosen (today's showtimes)."""
    d.tap(text="Cinemas", rid="tab-bar-item")
    click(d, d.scroll_to(text=cinema, rid="cinema-name"))
    d.tap(text=film, rid="film-chip")


def show_row(d: Driver, start: str) -> dict[str, str]:
    """The texts of the showtime row that starts at ``start`` ("19:30")."""
    return card_texts(d, "show-item", "show-start", start)


@reference("mini.movies_sold_out")
def movies_sold_out(d: Driver) -> None:
    pick = d.params["pick"]
    open_mini_program(d, "Movie Tickets")
    open_showtimes(d, pick["cinema"], pick["film"])
    if show_row(d, pick["at"]).get("show-left") != "Sold out":
        raise SolutionError("the showing has seats")
    d.done("infeasible")


@reference("mini.movies_my_seats")
def movies_my_seats(d: Driver) -> None:
    film, cinema = d.params["f"]["title"], d.params["c"]["name"]
    open_mini_program(d, "Movie Tickets")
    d.tap(text="Orders", rid="tab-bar-item")
    click(d, find_card(d, "order-item", {"order-film": film, "order-cinema": cinema}))
    seats = d.texts(rid="order-seat")
    if not seats:
        raise SolutionError("the order shows no seats")
    d.answer(", ".join(seats))


@reference("mini.movies_refund_too_late")
def movies_refund_too_late(d: Driver) -> None:
    o = d.params["o"]
    open_mini_program(d, "Movie Tickets")
    d.tap(text="Orders", rid="tab-bar-item")
    click(d, find_card(d, "order-item", {"order-film": o["film"], "order-cinema": o["cinema"]}))
    if d.has(text="Refund", rid="order-refund") or not d.has(rid="order-no-refund"):
        raise SolutionError("the order can still be refunded")
    d.done("infeasible")


_SHOWING = re.compile(
    r"see (.+) at (.+) tonight, the (\d\d:\d\d) show.*Row (\d+) Seat (\d+) and Row (\d+) Seat (\d+)"
)


@reference("mini.movies_seats_from_chat")
def movies_seats_from_chat(d: Driver) -> None:
    open_chat(d, d.params["pal"]["name"])
    asks = [m for t in d.texts(rid="chatting_content") if (m := _SHOWING.search(t))]
    if not asks:
        raise SolutionError("no showing named in the chat")
    film, cinema, start = asks[-1][1], asks[-1][2], asks[-1][3]
    seats = [(asks[-1][4], asks[-1][5]), (asks[-1][6], asks[-1][7])]
    click(d, d.need(rid="chatting_appbrand"))
    open_showtimes(d, cinema, film)
    click(d, d.scroll_to(text=start, rid="show-start"))
    for row, seat in seats:
        click(d, d.scroll_to(desc=f"Row {row} Seat {seat}, available"))
    d.tap(text="Confirm Seats")
    d.tap(text="Submit Order")
    d.tap(text="Pay")
    d.done()


def open_bill_account(d: Driver, name: str, kind: str) -> None:
    """From the Life Payments home page: the ``kind`` account named ``name``."""
    click(
        d,
        find_card(
            d,
            "account-item",
            {
                "account-kind": "Mobile Top-Up" if kind == "mobile" else kind.capitalize(),
                "account-name": name,
            },
        ),
    )


@reference("mini.bills_last_payment")
def bills_last_payment(d: Driver) -> None:
    acct = d.params["acct"]
    open_mini_program(d, "Life Payments")
    open_bill_account(d, acct["name"], acct["kind"])
    click(d, d.scroll_to(text="Payment Records", rid="field-name"))
    find_card(d, "record-item", {"record-status": "Paid"})  # scrolls it into view
    amounts = [
        {c.rid: c.text for c in v.walk() if c.text}
        for v in d.observe().walk()
        if v.rid == "record-item"
    ]
    paid = [a["record-amount"] for a in amounts if a.get("record-status") == "Paid"]
    d.answer(paid[0])


@reference("mini.bills_pay_part_by_card")
def bills_pay_part_by_card(d: Driver) -> None:
    p = d.params
    amount = int(p["amt"])
    open_mini_program(d, "Life Payments")
    open_bill_account(d, p["acct"]["name"], p["acct"]["kind"])
    d.tap(text="Pay Bill", rid="account-pay")
    d.type(f"{amount // 100}.{amount % 100:02d}", rid="amount-input")
    d.tap(text="Pay Now")
    d.tap(text="Payment Method")
    d.tap(text="Bank Card")
    d.tap(text="Pay")
    d.done()


@reference("mini.bills_unknown_account")
def bills_unknown_account(d: Driver) -> None:
    p = d.params
    open_mini_program(d, "Life Payments")
    d.tap(text="Electricity", rid="kind-tile")
    d.tap(text="Add Account")
    if not d.has(text="State Grid Shanghai"):
        d.tap(text="Select")
        d.tap(text="State Grid Shanghai")
    d.type(p["num"], rid="account-input")
    if not d.has(rid="name-input"):
        d.back()  # the keyboard covers the name field
    d.scroll_to(rid="name-input")
    d.type(p["tag"], rid="name-input")
    if not d.has(text="Save"):
        d.back()
    d.tap(text="Save")
    if not d.has(text="Account not found"):
        raise SolutionError("the account was found")
    d.done("infeasible")
