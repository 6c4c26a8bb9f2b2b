"""PhoneWorld's Amazon Shopping (com.amazon.mShop.android.shopping): the reference solutions
of its library tasks, the screens' XML, and search, filters, the product page, the cart,
checkout (placed once), orders and their cancellation, lists and the address book through
real actions."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tasklang import ir
from tasklang.compiler import Compiler
from tasklang.envs.phoneworld.app import AppData
from tasklang.envs.phoneworld.apps.shopping import matches, money
from tasklang.envs.phoneworld.episode import Episode, run_nothing, run_reference
from tasklang.envs.phoneworld.solutions.base import Driver
from tasklang.envs.phoneworld.solutions.shopping import child, groups, index_of
from tasklang.verifiers.snapshot import parse_ui_xml

ROOT = Path(__file__).resolve().parents[1]
PKG = "com.amazon.mShop.android.shopping"
TASKS = (
    "shopping.cheapest_rated_to_cart",
    "shopping.buy_variant",
    "shopping.remove_from_cart",
    "shopping.top_rated_price",
    "shopping.cancel_latest_order",
    "shopping.kids_item_to_cart",
)


@cache
def compiled(task_id: str) -> ir.CompiledTask:
    path = ROOT / "task_library" / "app" / f"{task_id}.task"
    return Compiler().compile_paths([path]).tasks[0]


@pytest.mark.parametrize("task_id", TASKS)
def test_reference_solves_every_instance(task_id: str) -> None:
    for seed in range(6):  # `tasklang test` tries 20
        verdict, _ = run_reference(compiled(task_id), seed)
        failed = [(r.id, r.summary) for r in verdict.clauses if not r.passed]
        assert verdict.success, (seed, failed, verdict.notes)


@pytest.mark.parametrize("task_id", TASKS)
def test_doing_nothing_fails(task_id: str) -> None:
    for seed in range(6):  # `tasklang test` tries 20
        assert not run_nothing(compiled(task_id), seed).success


# ------------------------------------------------------------------ helpers
def episode(task_id: str = "shopping.buy_variant", seed: int = 0) -> tuple[Episode, Driver]:
    ep = Episode(compiled(task_id), seed)
    assert ep.instance is not None
    return ep, Driver(ep.tree, ep.step, ep.instance.params)


def records(ep: Episode, collection: str) -> list[dict[str, Any]]:
    return ep.phone.state["shopping"].collections[collection]


def xml_ok(ep: Episode, *ids: str) -> None:
    _, elements = parse_ui_xml(ep.xml())
    assert elements and all(e.package for e in elements)
    assert ep.phone.current_activity()[0] == PKG
    rids = {e.resource_id for e in elements}
    for rid in ids:
        assert rid in rids, (rid, sorted(r for r in rids if r))


def search(d: Driver, query: str) -> None:
    d.tap(rid="chrome_search_hint_view")
    d.type(query, rid="rs_search_src_text")
    d.enter()


def titles(d: Driver) -> list[str]:
    return d.texts(rid="s-result-title")


def click_in(d: Driver, rid: str, nth: int) -> None:
    d.act({"action_type": "click", "index": d.need(rid=rid, nth=nth)})


# ------------------------------------------------------------------ matching
def test_search_words_match_plurals_and_prefixes() -> None:
    bottle = {"title": "Ello Glass Water Bottle", "brand": "Ello", "category": "water bottles"}
    assert matches(bottle, "water bottle") and matches(bottle, "Water Bottles")
    assert matches(bottle, "ello glass") and matches(bottle, "wat")
    assert not matches(bottle, "steel bottle") and not matches(bottle, "")
    assert money(12999) == "$129.99" and money(100000) == "$1,000.00"


# ------------------------------------------------------------------ screens
def test_every_screen_produces_parseable_xml() -> None:
    ep, d = episode()
    assert ep.phone.current_activity()[1] == "com.amazon.mShop.navigation.MainActivity"
    xml_ok(
        ep,
        f"{PKG}:id/chrome_search_hint_view",
        f"{PKG}:id/glow_subnav_label",
        f"{PKG}:id/bottom_tab_button",
        f"{PKG}:id/chrome_action_bar_cart_count",
    )
    d.tap(rid="chrome_search_hint_view")
    assert ep.phone.current_activity()[1] == "com.amazon.mShop.search.SearchActivity"
    xml_ok(ep, f"{PKG}:id/rs_search_src_text")
    d.type("headphones", rid="rs_search_src_text")
    d.enter()
    xml_ok(ep, "s-search-results", "s-result-title", "s-sort", "s-prime-filter")
    d.tap(rid="s-result-title", nth=0)
    xml_ok(ep, "productTitle", "add-to-cart-button", "buy-now-button")
    d.tap(desc="Cart")
    xml_ok(ep, "sc-active-cart", "sc-buy-box-ptc-button")
    d.tap(rid="sc-buy-box-ptc-button")
    xml_ok(ep, "placeYourOrder1", "change-address-link")
    assert not d.has(desc="You")  # checkout hides the tabs
    d.back()
    d.tap(desc="You")
    xml_ok(ep, "gw-greeting")
    d.tap(text="Your Orders")
    xml_ok(ep, "order-card-id")
    d.tap(rid="order-card")
    xml_ok(ep, "od-order-id")
    d.tap(desc="Menu")
    xml_ok(ep, "hmenu-item")


def test_home_lists_searches_categories_and_deals() -> None:
    ep, d = episode("shopping.cheapest_rated_to_cart")
    assert d.has(text="Hello, Alex") and d.has(text="Deliver to Alex - Seattle 98101")
    assert d.texts(rid="keep-shopping-item") == ["running shoes", "t-shirts"]
    assert d.has(text="Sunglasses", rid="category-tile")
    d.tap(text="Water bottles", rid="category-tile")
    assert d.has(text='7 results for "water bottles"')
    assert records(ep, "search_history")[-1]["query"] == "water bottles"


# ------------------------------------------------------------------ search and results
def test_search_sorts_and_filters() -> None:
    ep, d = episode("shopping.cheapest_rated_to_cart")
    search(d, "sunglasses")
    assert d.has(text='8 results for "sunglasses"')
    d.tap(rid="s-sort")
    d.tap(text="Price: Low to High")
    assert d.has(text="Sort by: Price: Low to High")
    assert titles(d)[0] == "Tiger Eyes Kids Sport Sunglasses with Strap"
    d.tap(rid="s-prime-filter")  # the Prime chip drops WearMe Pro
    assert "WearMe Pro Retro Round Sunglasses" not in titles(d)
    d.tap(rid="s-all-filters")
    d.tap(text="4 Stars & Up")
    assert d.has(text="Filters (1)")
    d.tap(rid="s-all-filters")
    d.tap(text="Up to $25")
    assert titles(d) == [
        "Knockaround Premiums Polarized Sunglasses",
        "COASION Kids Polarized Sunglasses, Flexible Frame, Ages 3-10",
        "SOJOS Polarized Sunglasses for Men and Women, UV400 Protection",
    ]
    assert d.has(text="Currently unavailable.")  # Knockaround: no Add to cart
    assert len(d.texts(rid="s-add-to-cart")) == 2
    d.tap(rid="s-sort")
    d.tap(text="Avg. Customer Review")
    assert titles(d)[0] == "COASION Kids Polarized Sunglasses, Flexible Frame, Ages 3-10"
    d.back()  # back from the results: home
    assert d.has(text="Hello, Alex")
    assert [s["query"] for s in records(ep, "search_history")][-1] == "sunglasses"


def test_search_history_suggestions_and_no_results() -> None:
    ep, d = episode("shopping.cheapest_rated_to_cart")
    d.tap(rid="chrome_search_hint_view")
    assert d.texts(rid="iss_search_dropdown_item_text") == ["running shoes", "t-shirts"]
    d.tap(desc="Remove t-shirts from search history")
    assert [s["query"] for s in records(ep, "search_history")] == ["running shoes"]
    d.type("hydro", rid="rs_search_src_text")
    assert d.texts(rid="iss_search_dropdown_item_text")[0] == "hydro flask"
    d.tap(text="hydro flask")
    assert titles(d) == ["Hydro Flask Insulated Water Bottle, 32 oz"]
    assert d.has(text="See options")  # colours to choose: no quick add
    d.tap(rid="chrome_search_hint_view")  # the box opens with the query in it
    assert d.texts(rid="rs_search_src_text") == ["hydro flask"]
    d.type("zebra blanket", rid="rs_search_src_text")
    d.enter()
    assert d.has(text='No results for "zebra blanket".')


def test_departments_and_scrolling_results() -> None:
    _, d = episode("shopping.cheapest_rated_to_cart")
    d.tap(desc="Menu")
    d.tap(text="Clothing, Shoes & Jewelry")
    assert d.has(text='13 results for "Clothing, Shoes & Jewelry"')
    first = [t for t in titles(d) if d.has(text=t)]
    last = "Amazon Essentials Women's Classic-Fit V-Neck T-Shirt"
    assert not d.has(text=last)  # below the fold
    d.scroll("down")
    assert [t for t in titles(d) if d.has(text=t)] != first
    d.scroll_to(text=last)
    assert d.has(text=last)


def test_a_dearer_result_fails_the_cheapest_task() -> None:
    ep, d = episode("shopping.cheapest_rated_to_cart", seed=0)
    kind = ep.instance.params["kind"]  # type: ignore[union-attr]
    target = ep.instance.params["target"]  # type: ignore[union-attr]
    search(d, kind)
    d.tap(rid="s-sort")
    d.tap(text="Price: High to Low")
    d.tap(rid="s-add-to-cart")  # the dearest one that can be added
    assert records(ep, "cart")[-1]["asin"] != target["asin"]
    d.done()
    assert not ep.verdict().success


@pytest.mark.parametrize(
    ("thing", "found"),
    [
        (
            "sunglasses",
            [
                "COASION Kids Polarized Sunglasses, Flexible Frame, Ages 3-10",
                "Tiger Eyes Kids Sport Sunglasses with Strap",
            ],
        ),
        (
            "swim goggles",
            ["Speedo Kids Skoogle Swim Goggles", "Aegend Kids Swim Goggles, 2 Pack"],
        ),
    ],
)
def test_a_result_without_prime_fails_the_kids_task(thing: str, found: list[str]) -> None:
    for seed in range(200):
        ep, d = episode("shopping.kids_item_to_cart", seed=seed)
        if ep.instance.params["want"]["thing"] == thing:  # type: ignore[union-attr]
            break
    else:
        pytest.fail(f"no instance asks for kids {thing}")
    search(d, f"kids {thing}")
    assert titles(d) == found  # the second one ships without Prime
    d.tap(rid="s-add-to-cart", nth=1)
    d.tap(desc="Cart")
    d.done()
    assert not ep.verdict().success


def test_saving_for_later_does_not_remove_the_item() -> None:
    ep, d = episode("shopping.remove_from_cart", seed=0)
    line = ep.instance.params["line"]  # type: ignore[union-attr]
    d.tap(desc="Cart")
    for card in groups(d, "sc-list-item"):
        title, variation = child(card, "sc-product-title"), child(card, "sc-product-variation")
        if title and variation and title.text == line["title"] and line["size"] in variation.text:
            save = child(card, "sc-action-save-for-later")
            if save is not None:
                d.act({"action_type": "click", "index": index_of(d, save)})
                break
    else:
        d.scroll("down")
        d.tap(text="Save for later", nth=0)
    assert len(records(ep, "saved_for_later")) == 2
    d.done()
    assert not ep.verdict().success


# ------------------------------------------------------------------ product page
def test_product_page_needs_a_size_and_merges_lines() -> None:
    ep, d = episode("shopping.top_rated_price")
    search(d, "hanes")
    d.tap(rid="s-result-title", text="Hanes Men's Cotton Crew T-Shirt, Pack of 6")
    d.scroll_to(rid="add-to-cart-button")
    d.tap(rid="add-to-cart-button")
    assert d.has(text="Please select a Size from the choices above.")
    d.tap(text="OK")
    assert records(ep, "cart") == []
    d.scroll_to(text="L", rid="size_name")
    d.tap(text="L", rid="size_name")
    d.scroll_to(text="Navy", rid="color_name")
    d.tap(text="Navy", rid="color_name")
    d.scroll_to(rid="mobileQuantityDropDown")
    d.tap(rid="mobileQuantityDropDown")
    d.tap(text="2", cls="RadioButton")
    assert d.has(text="Quantity: 2")
    d.scroll_to(rid="add-to-cart-button")
    d.tap(rid="add-to-cart-button")
    d.tap(rid="add-to-cart-button")
    assert records(ep, "cart") == [
        {
            "asin": "B07TS00501",
            "title": "Hanes Men's Cotton Crew T-Shirt, Pack of 6",
            "size": "L",
            "color": "Navy",
            "quantity": 4,
            "price": 2400,
        }
    ]
    assert d.texts(rid="chrome_action_bar_cart_count") == ["4"]
    d.scroll_to(rid="add-to-wishlist-button-submit")
    d.tap(rid="add-to-wishlist-button-submit")
    assert [i["asin"] for i in records(ep, "wish_list")] == ["B07TS00501"]
    d.tap(rid="add-to-wishlist-button-submit")  # already listed: nothing added
    assert len(records(ep, "wish_list")) == 1


def test_unavailable_product_cannot_be_bought() -> None:
    _, d = episode("shopping.top_rated_price")
    search(d, "knockaround")
    d.tap(rid="s-result-title")
    assert d.has(text="Currently unavailable.", rid="availability")
    assert not d.has(rid="add-to-cart-button") and not d.has(rid="buy-now-button")


def test_the_best_rated_result_over_the_cap_is_the_wrong_price() -> None:
    for seed in range(200):
        ep, d = episode("shopping.top_rated_price", seed=seed)
        params = ep.instance.params  # type: ignore[union-attr]
        if params["kind"] == "headphones" and params["cap"] == 15000:
            break
    else:
        pytest.fail("no instance asks for headphones under $150")
    assert params["top"]["title"] == "Audio-Technica ATH-M50x Studio Monitor Headphones"
    search(d, "headphones")
    d.tap(rid="s-sort")
    d.tap(text="Avg. Customer Review")
    assert titles(d)[0] == "Apple AirPods Pro (2nd Generation)"  # $189.99: over the cap
    d.answer("$189.99")
    assert not ep.verdict().success


# ------------------------------------------------------------------ cart
def test_cart_quantity_delete_and_save_for_later() -> None:
    ep, d = episode("shopping.remove_from_cart")
    # the size of the first pair of Nike shoes in the cart
    shoe = ep.instance.params["shoe"]  # type: ignore[union-attr]
    d.tap(desc="Cart")
    assert d.has(text="Subtotal $440.12")
    click_in(d, "a-autoid-quantity", 0)  # the earbuds: 1 -> 3
    d.tap(text="3", cls="RadioButton")
    assert records(ep, "cart")[0]["quantity"] == 3
    click_in(d, "a-autoid-quantity", 0)
    d.tap(text="0 (Delete)")
    assert records(ep, "cart")[0]["asin"] == "B0CSH00401"
    click_in(d, "sc-action-save-for-later", 0)  # the first pair of Nike shoes
    assert [(c["asin"], c.get("size")) for c in records(ep, "saved_for_later")] == [
        ("B001SUN103", None),
        ("B0CSH00401", shoe),
    ]
    assert len(records(ep, "cart")) == 5
    d.scroll_to(text="Move to cart")
    click_in(d, "sc-action-move-to-cart", 1)
    assert records(ep, "cart")[-1]["size"] == shoe and len(records(ep, "saved_for_later")) == 1
    d.scroll_to(text="Move to cart")
    (saved,) = groups(d, "sc-saved-cart")
    delete = child(saved, "sc-action-delete")
    assert delete is not None
    d.act({"action_type": "click", "index": index_of(d, delete)})
    assert records(ep, "saved_for_later") == []
    assert not d.has(rid="sc-saved-cart-header")


def test_checkout_from_cart_places_one_order_and_empties_the_cart() -> None:
    ep, d = episode("shopping.cheapest_rated_to_cart")
    d.tap(desc="Cart")
    d.tap(rid="sc-buy-box-ptc-button")
    assert d.has(text="Order total: $139.95")
    d.tap(rid="change-payment-link")
    d.tap(text="Cancel")  # the choice is left as it was
    assert d.has(text="Visa ending in 4242")
    d.tap(rid="change-address-link")
    d.tap(contains="88 Harbor View Rd", cls="RadioButton")
    assert d.has(contains="Jordan Morgan, 88 Harbor View Rd")
    d.tap(text="Place your order")
    assert d.has(text="Order placed, thank you!")
    assert not d.has(text="Place your order")  # a second tap is impossible
    (order,) = records(ep, "orders")
    assert order["total"] == 13995 and order["address"] == "88 Harbor View Rd"
    assert order["payment"] == "Visa ending in 4242" and order["status"] == "placed"
    assert order["placed_at"] == "2026-05-14T19:20:00"
    (line,) = records(ep, "order_lines")
    assert (line["asin"], line["size"], line["color"], line["price"]) == (
        "B0BSH00402",
        "8",
        "Grey",
        13995,
    )
    assert records(ep, "cart") == []
    d.back()
    d.tap(desc="Cart")
    assert d.has(text="Your Amazon Cart is empty")


def test_buy_now_leaves_the_cart_and_through_the_cart_fails_the_task() -> None:
    # Buying the shoe through the cart also orders the earbuds already in it.
    ep, d = episode("shopping.buy_variant", seed=3)
    pick, qty = ep.instance.params["pick"], ep.instance.params["qty"]  # type: ignore[union-attr]
    search(d, pick["title"])
    d.tap(rid="s-result-title")
    d.scroll_to(rid="size_name", text=pick["size"])
    d.tap(rid="size_name", text=pick["size"])
    d.scroll_to(rid="color_name", text=pick["color"])
    d.tap(rid="color_name", text=pick["color"])
    for _ in range(qty):
        d.scroll_to(rid="add-to-cart-button")
        d.tap(rid="add-to-cart-button")
    d.tap(desc="Cart")
    d.tap(rid="sc-buy-box-ptc-button")
    d.tap(text="Place your order")
    assert len(records(ep, "order_lines")) == 4
    d.done()
    verdict = ep.verdict()
    assert not verdict.success


def test_placing_twice_is_impossible_with_buy_now() -> None:
    ep, d = episode("shopping.buy_variant", seed=1)
    search(d, "soundcore")
    d.tap(rid="s-result-title")
    d.scroll_to(rid="buy-now-button")
    d.tap(rid="buy-now-button")
    index = d.need(text="Place your order")
    # the second tap lands on the confirmation page that replaced checkout (here on its
    # bottom bar's Cart tab): one order, not two
    ep.step({"action_type": "double_tap", "index": index})
    assert len(records(ep, "orders")) == 3
    assert ep.phone.route() is not None and ep.phone.route().screen == "cart"
    assert [c["asin"] for c in records(ep, "cart")] == ["B0C1HP0201"]  # Buy Now: cart kept
    d.back()  # tabs start their own stack: back goes home
    assert ep.phone.route() is not None and ep.phone.route().screen == "home"
    assert len(records(ep, "orders")) == 3


# ------------------------------------------------------------------ orders
def test_orders_newest_first_and_cancel_with_confirmation() -> None:
    ep, d = episode("shopping.cancel_latest_order")
    d.tap(desc="You")
    d.tap(text="Your Orders")
    assert d.texts(rid="order-card-id")[:3] == [
        "111-8804213-2019466",
        "114-2291845-9930217",
        "113-6650127-4471038",
    ]
    d.tap(text="114-2291845-9930217")  # shipped: no cancel
    assert d.has(text="Shipped", rid="od-status") and not d.has(text="Cancel items")
    d.back()
    d.tap(text="111-8804213-2019466")
    d.scroll_to(text="Cancel items")
    d.tap(text="Cancel items")
    d.tap(text="Keep order")
    assert records(ep, "orders")[3]["status"] == "placed"
    d.tap(text="Cancel items")
    d.tap(text="Cancel checked items")
    assert records(ep, "orders")[3]["status"] == "cancelled"
    assert d.has(text="Cancelled", rid="od-status") and not d.has(text="Cancel items")


# ------------------------------------------------------------------ lists and account
def test_shopping_list_add_to_cart_and_delete() -> None:
    ep, d = episode("shopping.top_rated_price")
    search(d, "camelbak")
    d.tap(rid="s-result-title")
    d.scroll_to(rid="add-to-wishlist-button-submit")
    d.tap(rid="add-to-wishlist-button-submit")
    d.tap(desc="You")
    d.tap(text="Your Lists")
    assert d.texts(rid="list-name") == ["Shopping List"] and d.texts(rid="list-count") == ["1 item"]
    d.tap(rid="list-card")
    assert d.texts(rid="itemName") == ["CamelBak Chute BPA-Free Sports Water Bottle, 24 oz"]
    d.tap(rid="list-add-to-cart")
    assert [c["asin"] for c in records(ep, "cart")] == ["B07WB00303"]
    d.tap(rid="list-delete")
    assert records(ep, "wish_list") == [] and d.has(text="This list is empty")


def test_each_list_opens_its_own_items() -> None:
    """An item another list holds is on that list's page, not the Shopping List's."""
    ep, d = episode("shopping.top_rated_to_list")
    data = ep.phone.state["shopping"]
    items = [*data.collections["wish_list"]]
    items.append({**items[0], "asin": "B0CSH00401", "title": "Nike Men's Pegasus 40 Road Running "
                  "Shoes", "list": "Birthday"})  # fmt: skip
    ep.phone.state = {**ep.phone.state, "shopping": AppData({**data.collections,
                                                             "wish_list": items}, data.settings)}  # fmt: skip
    d.tap(desc="You")
    d.tap(text="Your Lists")
    assert d.texts(rid="list-name") == ["Shopping List", "Birthday"]
    d.tap(text="Birthday")
    assert d.texts(rid="list-header") == ["Birthday"]
    assert d.texts(rid="itemName") == ["Nike Men's Pegasus 40 Road Running Shoes"]
    d.tap(rid="list-delete")
    assert [i["list"] for i in records(ep, "wish_list")] == ["Shopping List"]


def test_addresses_add_remove_and_default() -> None:
    ep, d = episode("shopping.top_rated_price")
    d.tap(rid="glow_subnav_label")
    d.tap(text="Add address")

    def fill(field: str, text: str) -> None:
        if ep.phone.keyboard:
            d.back()  # the keyboard hides the fields below
        d.scroll_to(rid=field)
        d.type(text, rid=field)

    fill("address-ui-widgets-enterAddressFullName", "Riley Chen")
    fill("address-ui-widgets-enterAddressLine1", "9 Elm Ct")
    d.back()
    d.scroll_to(rid="address-ui-widgets-form-submit-button")
    d.tap(text="Add address", rid="address-ui-widgets-form-submit-button")
    assert d.has(text="Please enter a city.")
    d.tap(text="OK")
    fill("address-ui-widgets-enterAddressCity", "Boise")
    fill("address-ui-widgets-enterAddressStateOrRegion", "ID")
    fill("address-ui-widgets-enterAddressPostalCode", "83702")
    d.back()
    d.scroll_to(rid="address-ui-widgets-use-as-my-default")
    d.tap(rid="address-ui-widgets-use-as-my-default")
    d.scroll_to(rid="address-ui-widgets-form-submit-button")
    d.tap(text="Add address", rid="address-ui-widgets-form-submit-button")
    added = records(ep, "addresses")[-1]
    assert added == {
        "street": "9 Elm Ct",
        "name": "Riley Chen",
        "city": "Boise",
        "state": "ID",
        "zip": "83702",
        "phone": None,
        "is_default": True,
    }
    assert [a["is_default"] for a in records(ep, "addresses")] == [False, False, False, False, True]
    assert d.has(text="Deliver to Riley - Boise 83702")
    d.tap(text="Remove", nth=0)
    d.tap(text="Cancel")
    assert len(records(ep, "addresses")) == 5
    d.tap(text="Remove", nth=0)
    d.tap(text="Yes")
    assert records(ep, "addresses")[0]["street"] == "2207 Oak Ridge Dr"
    d.tap(text="Set as Default", nth=0)
    assert (
        records(ep, "addresses")[0]["is_default"] and not records(ep, "addresses")[-1]["is_default"]
    )


def test_payments_default() -> None:
    ep, d = episode("shopping.top_rated_price")
    d.tap(desc="You")
    d.tap(text="Your Account")
    d.tap(text="Your Payments")
    assert d.texts(rid="pmts-instrument-label")[0] == "Visa ending in 4242"
    d.tap(text="Set as default", nth=1)  # the Amex
    assert [p["is_default"] for p in records(ep, "payments")] == [False, False, True]


# ------------------------------------------------------------------ invalid actions
def test_invalid_actions_are_no_ops_with_a_reason() -> None:
    ep, d = episode("shopping.top_rated_price")
    out = ep.step({"action_type": "input_text", "text": "x"})
    assert not out.ok and out.info
    out = ep.step({"action_type": "click", "index": 10_000})
    assert not out.ok and "range" in out.info
    d.tap(desc="Cart")
    assert d.has(text="Your Amazon Cart is empty") and not d.has(rid="sc-buy-box-ptc-button")
    assert records(ep, "orders") == [] and records(ep, "cart") == []
