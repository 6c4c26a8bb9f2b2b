"""Reference solutions of the Yelp tasks."""

from __future__ import annotations

from tasklang.envs.phoneworld.solutions.base import Driver, reference


def yelp_nearby(d: Driver) -> None:
    """Open Yelp and get past the first-run screens (without an account) to Nearby."""
    d.open("Yelp")
    for _ in range(8):
        if d.has(rid="category_container"):
            return
        if d.has(text="No, not now", rid="deny_button"):
            d.tap(text="No, not now", rid="deny_button")
        elif d.has(text="I'm New", rid="sign_up_button"):
            d.tap(text="I'm New", rid="sign_up_button")
        elif d.has(text="Skip", rid="skip"):
            d.tap(text="Skip", rid="skip")
        else:
            d.tap(rid="hot_button_nearby")
    d.need(rid="category_container")


def result_rows(d: Driver) -> list[tuple[str, str]]:
    """The search results on the screen: (title, categories) of each row, in order."""
    rows: list[tuple[str, str]] = []
    for v in d.observe().walk():
        if v.rid != "android:id/list":
            continue
        for row in v.children:
            texts = {c.rid.rsplit("/", 1)[-1]: c.text for c in row.walk() if c.text}
            if "search_title_textview" in texts:
                rows.append(
                    (texts["search_title_textview"], texts.get("search_category_textview", ""))
                )
    return rows


def open_first_salon(d: Driver) -> None:
    """From Nearby: the "Hair Salons" category, then the first hair salon of the results."""
    d.tap(text="Hair Salons", rid="title")
    d.need(rid="search_title_textview")
    for _ in range(6):
        for title, categories in result_rows(d):
            if "hair salons" in categories.casefold():
                d.tap(text=title, rid="search_title_textview")
                d.need(rid="name")
                return
        d.scroll("down")
    d.need(contains="Hair Salons", rid="search_category_textview")


@reference("yelp.open_salon_page")
def open_salon_page(d: Driver) -> None:
    yelp_nearby(d)
    open_first_salon(d)
    d.done()


@reference("yelp.bookmark_salon")
def bookmark_salon(d: Driver) -> None:
    yelp_nearby(d)
    open_first_salon(d)
    if not d.has(desc="Bookmarked", rid="bookmark"):
        d.tap(desc="Bookmark", rid="bookmark")
    d.tap(rid="hot_button_bookmarks")
    d.need(rid="business_name")
    d.done()
