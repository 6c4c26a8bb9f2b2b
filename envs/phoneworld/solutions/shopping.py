"""Reference solutions of the Amazon Shopping tasks."""

from __future__ import annotations

from tasklang.envs.phoneworld.solutions.base import Driver, SolutionError, reference
from tasklang.envs.phoneworld.widgets import View

LABEL = "Amazon Shopping"


def visible(v: View) -> bool:
    left, top, right, bottom = v.bounds
    return right > left and bottom > top


def index_of(d: Driver, node: View) -> int:
    for i, v in enumerate(d.observe().walk()):
        if v is node:
            return i
    raise SolutionError("the element left the screen")


def child(node: View, rid: str) -> View | None:
    return next((v for v in node.walk() if v.rid == rid and visible(v)), None)


def groups(d: Driver, rid: str) -> list[View]:
    """The visible elements with the (web) resource id ``rid``, in screen order."""
    return [v for v in d.observe().walk() if v.rid == rid and visible(v)]


def search(d: Driver, query: str) -> None:
    d.tap(rid="chrome_search_hint_view")
    d.type(query, rid="rs_search_src_text")
    d.enter()


def sort_by(d: Driver, label: str) -> None:
    d.tap(rid="s-sort")
    d.tap(text=label)


def find_card(d: Driver, rid: str, limit: int = 12, **texts: str) -> View:
    """Scroll down until a card with id ``rid`` shows every child text asked for (child id:
    text, with dashes in the ids written as underscores)."""
    for _ in range(limit):
        for card in groups(d, rid):
            if all(
                (c := child(card, name.replace("_", "-"))) is not None and c.text == want
                for name, want in texts.items()
            ):
                return card
        d.scroll("down")
    raise SolutionError(f"no {rid} with {texts}")


@reference("shopping.cheapest_rated_to_cart")
def cheapest_rated_to_cart(d: Driver) -> None:
    kind = str(d.params["kind"])
    stars = float(d.params["stars"])
    d.open(LABEL)
    search(d, kind)
    sort_by(d, "Price: Low to High")
    for _ in range(15):
        for row in groups(d, "s-result-item"):
            rating = child(row, "s-rating")
            add = child(row, "s-add-to-cart")
            if rating is None or float(rating.text) < stars:
                continue
            if child(row, "s-availability") is not None:
                continue  # currently unavailable
            if add is None:
                break  # its button is below the fold: scroll it into view
            d.act({"action_type": "click", "index": index_of(d, add)})
            d.done()
            return
        d.scroll("down")
    raise SolutionError("no result qualifies")


def cents(text: str) -> int:
    """A shown price ("$1,249.99") in cents."""
    return round(float(text.replace("$", "").replace(",", "")) * 100)


@reference("shopping.top_rated_price")
def top_rated_price(d: Driver) -> None:
    cap = int(d.params["cap"])  # cents
    d.open(LABEL)
    search(d, str(d.params["kind"]))
    sort_by(d, "Avg. Customer Review")
    for _ in range(15):  # the best rated first: the first one under the cap is the answer
        for row in groups(d, "s-result-item"):
            price = child(row, "s-price")
            if price is None:
                break  # its price is below the fold: scroll it into view
            if cents(price.text) < cap:
                d.answer(price.text)
                return
        d.scroll("down")
    raise SolutionError("no result under the cap")


@reference("shopping.remove_from_cart")
def remove_from_cart(d: Driver) -> None:
    line = d.params["line"]
    d.open(LABEL)
    d.tap(desc="Cart")
    card = find_card(
        d,
        "sc-list-item",
        sc_product_title=str(line["title"]),
        sc_product_variation=f"Size: {line['size']}",
    )
    delete = child(card, "sc-action-delete")
    if delete is None:  # the row's buttons are just below the fold
        d.scroll("down")
        card = find_card(
            d,
            "sc-list-item",
            sc_product_title=str(line["title"]),
            sc_product_variation=f"Size: {line['size']}",
        )
        delete = child(card, "sc-action-delete")
    assert delete is not None
    d.act({"action_type": "click", "index": index_of(d, delete)})
    d.done()


@reference("shopping.buy_variant")
def buy_variant(d: Driver) -> None:
    pick, qty = d.params["pick"], int(d.params["qty"])
    ship, card = d.params["ship"], d.params["card"]
    d.open(LABEL)
    search(d, str(pick["title"]))
    d.tap(rid="s-result-title", text=str(pick["title"]))
    d.scroll_to(rid="size_name", text=str(pick["size"]))
    d.tap(rid="size_name", text=str(pick["size"]))
    d.scroll_to(rid="color_name", text=str(pick["color"]))
    d.tap(rid="color_name", text=str(pick["color"]))
    d.scroll_to(rid="mobileQuantityDropDown")
    d.tap(rid="mobileQuantityDropDown")
    d.tap(text=str(qty), cls="RadioButton")
    d.scroll_to(rid="buy-now-button")
    d.tap(rid="buy-now-button")
    d.tap(rid="change-address-link")
    d.tap(contains=str(ship["street"]), cls="RadioButton")
    d.tap(rid="change-payment-link")
    d.tap(text=str(card["label"]), cls="RadioButton")
    d.tap(text="Place your order")
    assert d.has(text="Order placed, thank you!")
    d.done()


@reference("shopping.cancel_latest_order")
def cancel_latest_order(d: Driver) -> None:
    d.open(LABEL)
    d.tap(desc="You")
    d.tap(text="Your Orders")
    d.tap(rid="order-card")  # the newest order comes first
    d.scroll_to(text="Cancel items")
    d.tap(text="Cancel items")
    d.tap(text="Cancel checked items")
    d.done()


@reference("shopping.kids_item_to_cart")
def kids_item_to_cart(d: Driver) -> None:
    d.open(LABEL)
    search(d, f"kids {d.params['want']['thing']}")
    d.tap(rid="s-prime-filter")
    d.tap(rid="s-add-to-cart")
    d.tap(desc="Cart")
    assert d.has(rid="sc-product-title")
    d.done()
