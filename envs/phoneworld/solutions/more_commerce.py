"""Reference solutions of more shopping, Yelp and Maps tasks, and of cross-app workflows
between them, the browser, the dialer and WeChat."""

from __future__ import annotations

import re

from tasklang.envs.phoneworld.solutions.base import Driver, SolutionError, reference
from tasklang.envs.phoneworld.solutions.maps import open_place
from tasklang.envs.phoneworld.solutions.shopping import (
    LABEL,
    child,
    groups,
    index_of,
    search,
    sort_by,
    visible,
)
from tasklang.envs.phoneworld.solutions.yelp import yelp_nearby
from tasklang.envs.phoneworld.widgets import View


def click(d: Driver, index: int) -> None:
    d.act({"action_type": "click", "index": index})


def count_text(text: str) -> int:
    """A ratings count as the results show it: "(18,233)".

    >>> count_text("(18,233)")
    18233
    """
    return int(re.sub(r"[^\d]", "", text) or 0)


def filter_results(d: Driver, label: str) -> None:
    """Pick one option of the results' Filters dialog and close it."""
    d.tap(rid="s-all-filters")
    click(d, d.scroll_to(text=label))
    if d.has(text="Close"):
        d.tap(text="Close")


@reference("shopping.most_reviewed_in_band")
def most_reviewed_in_band(d: Driver) -> None:
    d.open(LABEL)
    search(d, str(d.params["kind"]))
    filter_results(d, str(d.params["band"]["label"]))
    sort_by(d, "Most Reviews")
    first = groups(d, "s-result-item")[0]
    price = child(first, "s-price")
    if price is None:
        raise SolutionError("the first result shows no price")
    d.answer(price.text)


@reference("shopping.top_rated_to_list")
def top_rated_to_list(d: Driver) -> None:
    least = int(d.params["min_reviews"])
    d.open(LABEL)
    search(d, str(d.params["kind"]))
    sort_by(d, "Avg. Customer Review")
    for _ in range(15):
        for row in groups(d, "s-result-item"):
            reviews, title = child(row, "s-review-count"), child(row, "s-result-title")
            if reviews is None or title is None:
                continue
            if count_text(reviews.text) >= least:
                click(d, index_of(d, title))
                d.scroll_to(rid="add-to-wishlist-button-submit")
                d.tap(rid="add-to-wishlist-button-submit")
                d.done()
                return
        d.scroll("down")
    raise SolutionError(f"no result with {least} ratings")


def cart_button(d: Driver, title: str, rid: str) -> int:
    """The index of a button (``rid``) of the active cart's line titled ``title``, scrolled
    into view."""
    for _ in range(12):
        for card in groups(d, "sc-list-item"):
            name = child(card, "sc-product-title")
            if name is None or name.text != title:
                continue
            button = child(card, rid)
            if button is not None:
                return index_of(d, button)
        d.scroll("down")
    raise SolutionError(f"no cart line {title!r} with {rid}")


@reference("shopping.save_for_later")
def save_for_later(d: Driver) -> None:
    line, other, qty = d.params["line"], d.params["other"], int(d.params["qty"])
    d.open(LABEL)
    d.tap(desc="Cart")
    click(d, cart_button(d, str(line["title"]), "sc-action-save-for-later"))
    d.scroll_to("up", rid="sc-subtotal-amount-buybox")
    click(d, cart_button(d, str(other["title"]), "a-autoid-quantity"))
    d.tap(text=str(qty), cls="RadioButton")
    d.done()


@reference("shopping.remove_address")
def remove_address(d: Driver) -> None:
    addr = d.params["addr"]
    d.open(LABEL)
    d.tap(desc="You")
    d.tap(text="Your Account")
    d.tap(text="Your Addresses")
    for _ in range(15):
        for card in groups(d, "address-card"):
            name, city = (
                child(card, "address-ui-widgets-name"),
                child(card, "address-ui-widgets-city"),
            )
            remove = child(card, "ya-remove")
            if name is None or city is None or remove is None:
                continue
            if name.text == addr["name"] and city.text.startswith(f"{addr['city']},"):
                click(d, index_of(d, remove))
                d.tap(text="Yes")
                d.done()
                return
        d.scroll("down")
    raise SolutionError("no such address")


@reference("shopping.buy_unavailable")
def buy_unavailable(d: Driver) -> None:
    title = str(d.params["item"]["title"])
    d.open(LABEL)
    search(d, title)
    click(d, d.scroll_to(rid="s-result-title", text=title))
    d.scroll_to(rid="availability")
    if d.has(rid="buy-now-button") or not d.has(text="Currently unavailable."):
        raise SolutionError("the product can be bought")
    d.done("infeasible")


def card_action(d: Driver, card_rid: str, key_rid: str, want: str, action_rid: str) -> int | None:
    """Scroll to the card (``card_rid``) whose ``key_rid`` text starts with ``want``; the index
    of its ``action_rid`` button, or None when the card has none (it is the default)."""
    for _ in range(15):
        for card in groups(d, card_rid):
            key = child(card, key_rid)
            if key is None or not key.text.startswith(want):
                continue
            button = child(card, action_rid)
            if button is not None:
                return index_of(d, button)
            if any(v.rid.endswith("default-badge") for v in card.walk()):
                return None
        d.scroll("down")
    raise SolutionError(f"no {card_rid} {want!r}")


@reference("shopping.check_defaults")
def check_defaults(d: Driver) -> None:
    addr, card = d.params["addr"], d.params["card"]
    d.open(LABEL)
    d.tap(desc="You")
    d.tap(text="Your Account")
    d.tap(text="Your Addresses")
    where = f"{addr['city']},"
    button = card_action(d, "address-card", "address-ui-widgets-city", where, "ya-set-default")
    if button is not None:
        click(d, button)
    d.back()
    d.tap(text="Your Payments")
    label = str(card["label"])
    button = card_action(d, "pmts-instrument", "pmts-instrument-label", label, "pmts-set-default")
    if button is not None:
        click(d, button)
    d.done()


@reference("shopping.cheapest_prime_brand")
def cheapest_prime_brand(d: Driver) -> None:
    d.open(LABEL)
    search(d, str(d.params["kind"]))
    stars = float(d.params["stars"])
    d.tap(rid="s-prime-filter")
    # the filter offers whole stars only: take the closest one below, then read the ratings
    whole = max((n for n in (4, 3, 2) if n <= stars), default=0)
    if whole:
        filter_results(d, f"{whole} Stars & Up")
    sort_by(d, "Price: Low to High")
    for _ in range(15):
        for row in groups(d, "s-result-item"):
            title, rating = child(row, "s-result-title"), child(row, "s-rating")
            if title is None or child(row, "s-availability") is not None:
                continue
            if child(row, "s-add-to-cart") is None and child(row, "s-see-options") is None:
                break  # the rest of the row is below the fold: scroll it into view
            if rating is None or float(rating.text) < stars:
                continue
            click(d, index_of(d, title))
            brand = d.texts(rid="bylineInfo")
            if not brand:
                raise SolutionError("the product page shows no brand")
            d.answer(re.sub(r"^(Visit the |Brand: )| Store$", "", brand[0]))
            return
        d.scroll("down")
    raise SolutionError("no result qualifies")


# ---------------------------------------------------------------- Yelp
def yelp_search(d: Driver, term: str) -> None:
    """From Nearby: search Yelp for ``term`` (the results list)."""
    d.type(term, rid="search_text")
    d.enter()
    d.need(rid="search_tag_filters")


def yelp_rows(d: Driver) -> list[tuple[View, dict[str, View]]]:
    """The visible search result rows: (row, {resource id: view}) in screen order."""
    rows = []
    for v in d.observe().walk():
        if not v.rid.endswith("android:id/list"):
            continue
        for row in v.children:
            parts = {c.rid.rsplit("/", 1)[-1]: c for c in row.walk() if c.rid and visible(c)}
            if "search_title_textview" in parts:
                rows.append((row, parts))
    return rows


def row_name(title: str) -> str:
    """A result's business name from its numbered title ("3. Tina's")."""
    return re.sub(r"^\d+\.\s*", "", title)


def open_business(d: Driver, name: str) -> None:
    """From Nearby: search the business by name and open its page."""
    yelp_search(d, name)
    for _ in range(8):
        for _row, parts in yelp_rows(d):
            title = parts["search_title_textview"]
            if row_name(title.text) == name:
                click(d, index_of(d, title))
                d.need(rid="name", text=name)
                return
        d.scroll("down")
    raise SolutionError(f"no result {name!r}")


@reference("yelp.business_rating")
def business_rating(d: Driver) -> None:
    name = str(d.params["biz"]["name"])
    yelp_nearby(d)
    open_business(d, name)
    stars = next((v.desc for v in d.observe().walk() if v.rid.endswith(":id/rating")), "")
    m = re.match(r"([\d.]+) star rating", stars)
    if m is None:
        raise SolutionError("the page shows no rating")
    d.answer(m[1])


@reference("yelp.best_open_spot")
def best_open_spot(d: Driver) -> None:
    cat, least = str(d.params["cat"]), int(d.params["min_reviews"])
    yelp_nearby(d)
    yelp_search(d, cat)
    d.tap(text="Open Now", rid="tag_button")
    for _ in range(10):  # the results come best rated first
        for _row, parts in yelp_rows(d):
            reviews, kinds = parts.get("search_rating"), parts.get("search_category_textview")
            if reviews is None or kinds is None:
                continue
            if cat not in kinds.text or count_text(reviews.text) < least:
                continue
            click(d, index_of(d, parts["search_title_textview"]))
            if not d.has(desc="Bookmarked", rid="bookmark"):
                d.tap(desc="Bookmark", rid="bookmark")
            d.done()
            return
        d.scroll("down")
    raise SolutionError("no open business qualifies")


@reference("yelp.ensure_bookmark")
def ensure_bookmark(d: Driver) -> None:
    name = str(d.params["biz"]["name"])
    yelp_nearby(d)
    d.tap(rid="hot_button_bookmarks")
    for _ in range(6):
        if d.has(text=name, rid="business_name"):
            d.done()
            return
        before = d.texts(rid="business_name")
        d.scroll("down")
        if d.texts(rid="business_name") == before:
            break
    d.tap(rid="hot_button_nearby")
    open_business(d, name)
    d.tap(desc="Bookmark", rid="bookmark")
    d.tap(rid="hot_button_bookmarks")
    d.need(text=name, rid="business_name")
    d.done()


# ---------------------------------------------------------------- Maps
@reference("maps.call_unlisted_number")
def call_unlisted_number(d: Driver) -> None:
    name = str(d.params["place"]["name"])
    open_place(d, name)
    d.scroll_to(rid="address_text")
    d.scroll("down")
    if d.has(text="Call", rid="call_button") or d.has(rid="phone_text"):
        raise SolutionError("the place lists a phone number")
    d.done("infeasible")


@reference("maps.travel_mode_directions")
def travel_mode_directions(d: Driver) -> None:
    name, how = str(d.params["place"]["name"]), str(d.params["how"])
    open_place(d, name)
    directions_with_mode(d, how)
    d.done()


# ---------------------------------------------------------------- cross-app
def directions_with_mode(d: Driver, how: str) -> None:
    """On a Maps place sheet: open the route preview and pick the travel mode."""
    d.tap(text="Directions", rid="directions_button")
    mode = next(
        i
        for i, v in enumerate(d.observe().walk())
        if v.desc.startswith(f"{how.capitalize()} mode") and visible(v)
    )
    click(d, mode)


def yelp_address(d: Driver, name: str) -> str:
    """Open a business on Yelp and read the address on its page."""
    yelp_nearby(d)
    open_business(d, name)
    d.scroll_to(rid="addressExact")
    shown = d.texts(rid="addressExact")
    if not shown:
        raise SolutionError("the business page shows no address")
    return shown[0]


def wechat_send(d: Driver, remark: str, text: str) -> None:
    """Open WeChat and send ``text`` to the friend shown as ``remark``."""
    d.open("WeChat")
    for _ in range(4):
        if d.has(text="Contacts", rid="tab_label"):
            break
        d.back()
    d.tap(text="Contacts", rid="tab_label")
    click(d, d.scroll_to(text=remark, rid="contact_name"))
    d.tap(text="Messages")
    d.type(text, rid="chatting_input")
    d.tap(text="Send")


@reference("cross.yelp_branch_directions")
def yelp_branch_directions(d: Driver) -> None:
    address = yelp_address(d, str(d.params["biz"]["name"]))
    d.open("Maps")
    for _ in range(6):
        if d.has(rid="search_omnibox_text_box", text="Search here"):
            break
        d.back()
    d.tap(rid="search_omnibox_text_box")
    d.type(address, rid="search_omnibox_edit_text")
    d.enter()
    d.need(text="Directions", rid="directions_button")
    directions_with_mode(d, str(d.params["how"]))
    d.done()


@reference("cross.yelp_address_wechat")
def yelp_address_wechat(d: Driver) -> None:
    address = yelp_address(d, str(d.params["biz"]["name"]))
    wechat_send(d, str(d.params["pal"]["remark"]), address)
    d.done()


def page_number(d: Driver, line: str) -> str:
    """The phone number the open page lists for ``line`` ("Billing: +1 412-555-0143")."""
    pattern = re.compile(rf"^{re.escape(line)}\s*:\s*(\+?[\d\s()-]+)$", re.I)
    for _ in range(6):
        for text in d.texts():
            m = pattern.match(text.strip())
            if m:
                return m[1].strip()
        d.scroll("down")
    raise SolutionError(f"the page lists no {line} number")


@reference("cross.chrome_call_listed_number")
def chrome_call_listed_number(d: Driver) -> None:
    pick = d.params["pick"]
    d.open("Chrome")
    click(d, d.need(rid="url_bar"))
    d.type(f"file:///sdcard/Download/{pick['file']}")
    d.enter()
    number = page_number(d, str(pick["line"]))
    d.open("Phone")
    d.tap(rid="main_dialpad_button")
    d.type(re.sub(r"[^\d+]", "", number), rid="dialpad_input")
    d.tap(desc="Call number")
    if d.has(text="Call", rid="button1"):
        d.tap(text="Call", rid="button1")
    d.done()


@reference("cross.amazon_pick_to_wechat")
def amazon_pick_to_wechat(d: Driver) -> None:
    stars = float(d.params["stars"])
    d.open(LABEL)
    search(d, str(d.params["kind"]))
    sort_by(d, "Price: Low to High")
    name = ""
    for _ in range(15):
        for row in groups(d, "s-result-item"):
            title, rating = child(row, "s-result-title"), child(row, "s-rating")
            if title is None or rating is None or float(rating.text) < stars:
                continue
            if child(row, "s-availability") is not None:
                continue
            if child(row, "s-add-to-cart") is None and child(row, "s-see-options") is None:
                break  # the rest of the row is below the fold
            name = title.text
            break
        if name:
            break
        d.scroll("down")
    if not name:
        raise SolutionError("no result qualifies")
    wechat_send(d, str(d.params["pal"]["remark"]), name)
    d.done()


@reference("cross.maps_save_and_text")
def maps_save_and_text(d: Driver) -> None:
    place, friend = d.params["spot"], d.params["friend"]
    open_place(d, str(place["name"]))
    d.tap(text="Save", rid="save_button")
    d.tap(text=str(d.params["lst"]["label"]))
    d.tap(text="Share", rid="share_button")
    d.tap(text="Messages")
    d.type(str(friend["name"]), rid="new_conversation_address")
    click(d, d.scroll_to(text=str(friend["name"]), rid="item_contact_name"))
    d.tap(desc="Send")
    d.done()
