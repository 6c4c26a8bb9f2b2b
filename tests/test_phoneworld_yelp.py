"""PhoneWorld's Yelp: the reference solutions of its tasks, the screens' XML, and the handlers'
behaviour through real actions (first run, search, business pages, bookmarks, settings)."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tasklang import ir
from tasklang.compiler import Compiler
from tasklang.envs.phoneworld.app import AppData
from tasklang.envs.phoneworld.apps.yelp import (
    BOOKMARKS_EMPTY,
    DIRECTORY,
    YelpApp,
    hours_text,
    is_open,
    matches,
    tokens,
)
from tasklang.envs.phoneworld.episode import Episode, run_nothing, run_reference
from tasklang.envs.phoneworld.solutions.base import Driver
from tasklang.envs.phoneworld.solutions.yelp import result_rows, yelp_nearby
from tasklang.verifiers.snapshot import parse_ui_xml

ROOT = Path(__file__).resolve().parents[1]
TASKS = ("yelp.bookmark_salon", "yelp.open_salon_page")
PKG = "com.yelp.android"
A = f"{PKG}.ui.activities"


@cache
def compiled(task_id: str) -> ir.CompiledTask:
    return Compiler().compile_paths([ROOT / "task_library" / "app" / f"{task_id}.task"]).tasks[0]


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
def episode(open_app: bool = True) -> tuple[Episode, Driver]:
    ep = Episode(compiled("yelp.bookmark_salon"), 0)
    assert ep.instance is not None
    d = Driver(ep.tree, ep.step, ep.instance.params)
    if open_app:
        d.open("Yelp")
    return ep, d


def nearby(signed_in: bool = False) -> tuple[Episode, Driver]:
    ep, d = episode(open_app=False)
    if signed_in:
        set_settings(ep, signed_in=True)
    yelp_nearby(d)
    return ep, d


def coll(ep: Episode, name: str) -> list[dict[str, Any]]:
    return ep.phone.state["yelp"].collections.get(name, [])


def setting(ep: Episode, name: str) -> Any:
    return ep.phone.state["yelp"].settings.get(name)


def set_state(ep: Episode, **collections: list[dict[str, Any]]) -> None:
    data = ep.phone.state["yelp"]
    ep.phone.state["yelp"] = AppData({**data.collections, **collections}, data.settings)
    ep.phone.invalidate()


def set_settings(ep: Episode, **settings: Any) -> None:
    data = ep.phone.state["yelp"]
    ep.phone.state["yelp"] = AppData(data.collections, {**data.settings, **settings})
    ep.phone.invalidate()


def screen(ep: Episode) -> str:
    return ep.phone.stacks["yelp"][-1].screen


def activity(ep: Episode) -> str:
    return ep.phone.current_activity()[1]


def xml_ok(ep: Episode) -> None:
    _, elements = parse_ui_xml(ep.xml())
    assert elements and all(e.package for e in elements)
    if ep.phone.foreground == "yelp":
        assert ep.phone.current_activity()[0] == PKG
        assert any(e.package == PKG for e in elements)


def salon(name: str = "Veranda Hair & Wellness") -> dict[str, Any]:
    return next(b for b in DIRECTORY if b["name"] == name)


def typed(ep: Episode, text: str) -> None:
    """Type into the field that has the focus (no element named)."""
    assert ep.step({"action_type": "input_text", "text": text, "clear_text": True}).ok


def open_page(ep: Episode, d: Driver, name: str) -> None:
    d.type(name, rid="search_text")
    d.tap(text=name, rid="term")
    assert screen(ep) == "business"
    assert d.has(text=name, rid="name")


# ------------------------------------------------------------------ pure functions
def test_search_terms_match_categories_groups_and_names() -> None:
    assert tokens("Men's Hair Salons") == ("men", "hair", "salon")
    hair = salon()
    both = salon("Whitfield Salon")
    assert matches(hair, "Hair Salons") and matches(hair, "hair salon near me")
    assert matches(hair, "salons") and matches(hair, "Men's Hair Salons")
    assert matches(hair, "veranda") and not matches(hair, "nail salons")
    assert matches(both, "Nail Salons")
    sushi = salon("Sakura Sushi Bar")
    assert matches(sushi, "Restaurants") and matches(sushi, "sushi bars")
    assert not matches(sushi, "Bars"), "Bars names the bar categories, not sushi bars"
    assert not matches(salon("Strand & Co. Barbers"), "bars")
    assert matches(salon("Ivy Lounge"), "Bars") and matches(salon("Ivy Lounge"), "bar")
    assert matches(salon("Commonplace Roasters"), "Coffee & Tea")
    assert matches(salon("Siam Orchid Kitchen"), "Delivery")
    assert matches({"name": "X", "category": "Bar"}, "Bars")  # a seeded category
    assert matches(hair, "")  # no term: everything


def test_hours_and_open_status() -> None:
    import datetime as dt

    at = dt.datetime(2026, 5, 14, 9, 30)
    assert hours_text(salon("Bloomfield Hair Studio")) == "10:00 AM - 8:00 PM"
    assert is_open(salon(), at) is True
    assert is_open(salon("Bloomfield Hair Studio"), at) is False
    bar = salon("Ivy Lounge")  # 5 PM - 2 AM
    assert is_open(bar, at.replace(hour=1)) and not is_open(bar, at.replace(hour=3))
    assert is_open({"open_now": False}, at) is False
    assert is_open({}, at) is None and hours_text({}) is None


# ------------------------------------------------------------------ screens
def test_every_screen_produces_parseable_xml() -> None:
    ep, d = episode()
    assert activity(ep) == f"{A}.backgroundlocation.ActivityBackgroundLocationOptIn"
    xml_ok(ep)
    d.tap(text="No, not now")
    assert activity(ep) == f"{A}.ActivitySplashLogin"
    xml_ok(ep)
    d.tap(text="Log In", rid="login_button")
    assert activity(ep) == f"{A}.ActivityLogin"
    xml_ok(ep)
    d.back()
    d.tap(text="I'm New")
    assert activity(ep) == f"{A}.ActivityCreateAccount"
    xml_ok(ep)
    d.tap(text="Skip")
    assert activity(ep) == f"{A}.nearby.ActivityNearby"
    xml_ok(ep)
    d.tap(rid="search_holder")  # the search box takes the focus
    assert ep.phone.keyboard and screen(ep) == "nearby"
    typed(ep, "hair")
    assert d.has(text="Hair Salons", rid="term")
    xml_ok(ep)
    d.back()
    d.tap(rid="hot_button_search")
    assert activity(ep) == f"{A}.search.SearchOverlay"
    xml_ok(ep)
    typed(ep, "hair")
    xml_ok(ep)
    d.tap(text="Hair Salons", rid="term")
    assert activity(ep) == f"{A}.search.SearchBusinessesByList"
    xml_ok(ep)
    d.tap(rid="search_title_textview")
    assert activity(ep) == f"{A}.businesspage.ActivityBusinessPage"
    xml_ok(ep)
    d.tap(desc="Share")
    xml_ok(ep)
    d.back()
    d.tap(text="More Info")
    xml_ok(ep)
    d.back()
    d.tap(rid="hot_button_bookmarks")
    assert activity(ep) == f"{A}.bookmarks.ActivityBookmarks"
    xml_ok(ep)
    d.tap(desc="Navigate up")
    assert screen(ep) == "drawer" and activity(ep) == f"{A}.bookmarks.ActivityBookmarks"
    xml_ok(ep)
    d.tap(text="Settings", rid="nav_settings")
    xml_ok(ep)
    d.back()
    d.tap(rid="hot_button_feed")
    assert activity(ep) == f"{A}.feed.ActivityFeed"
    xml_ok(ep)
    set_settings(ep, signed_in=True)
    d.tap(rid="hot_button_profile")
    assert activity(ep) == f"{A}.profile.ActivityUserProfile"
    xml_ok(ep)
    d.tap(desc="Navigate up")
    xml_ok(ep)


def test_nearby_shows_the_category_grid_and_hot_buttons() -> None:
    _, d = nearby()
    for name in ("Restaurants", "Coffee & Tea", "Hair Salons", "Bars", "More"):
        assert d.has(text=name, rid="title")
    for label in ("Nearby", "Search", "Me", "Activity", "Bookmarks"):
        assert d.has(text=label, desc=label)
    assert d.has(text="Search for restaurants, delivery, etc.", rid="search_text")


# ------------------------------------------------------------------ first run
def test_opt_in_yes_turns_background_location_on_and_shows_the_splash() -> None:
    ep, d = episode()
    assert setting(ep, "background_location") is False
    assert d.has(text="Enable Background Location Access")
    d.tap(text="Yes, turn it on")
    assert setting(ep, "background_location") is True
    assert d.has(text="Continue with Facebook") and d.has(text="I'm New")
    # leaving and coming back while signed out shows the splash (the opt-in was answered)
    d.back()
    assert ep.phone.foreground is None
    d.open("Yelp")
    assert screen(ep) == "root" and activity(ep) == f"{A}.ActivitySplashLogin"


def test_skip_goes_on_without_an_account() -> None:
    ep, d = episode()
    d.tap(text="No, not now")
    assert setting(ep, "background_location") is False
    d.tap(text="I'm New")
    d.tap(text="Skip")
    assert [r.screen for r in ep.phone.stacks["yelp"]] == ["nearby"]
    assert setting(ep, "signed_in") is False


def test_continue_with_facebook_signs_in_and_yelp_then_opens_on_nearby() -> None:
    ep, d = episode()
    d.tap(text="No, not now")
    d.tap(text="Continue with Facebook")
    assert setting(ep, "signed_in") is True
    assert activity(ep) == f"{A}.nearby.ActivityNearby"
    d.back()
    d.open("Yelp")
    assert screen(ep) == "root" and activity(ep) == f"{A}.nearby.ActivityNearby"


def test_log_in_needs_an_email_and_a_password() -> None:
    ep, d = episode()
    d.tap(text="No, not now")
    d.tap(text="Log In", rid="login_button")
    d.tap(text="Log In", rid="login_button")
    assert ep.phone.toast == "Please enter your email and password."
    assert screen(ep) == "login" and setting(ep, "signed_in") is False
    d.type("sam", rid="email")
    d.type("secret", rid="password")
    d.enter()
    assert ep.phone.toast == "Please enter a valid email address."
    d.type("sam@example.com", rid="email")
    d.tap(text="Log In", rid="login_button")
    assert setting(ep, "signed_in") is True
    assert [r.screen for r in ep.phone.stacks["yelp"]] == ["nearby"]


def test_email_sign_up_checks_the_address() -> None:
    ep, d = episode()
    d.tap(text="No, not now")
    d.tap(text="I'm New")
    d.type("not an email", rid="email_address")
    d.enter()
    assert (
        ep.phone.toast == "Please enter a valid email address." and screen(ep) == "create_account"
    )
    d.type("sam@example.com", rid="email_address")
    d.enter()
    assert setting(ep, "signed_in") is True and screen(ep) == "nearby"


def test_me_while_signed_out_asks_to_sign_up_and_skip_returns() -> None:
    ep, d = nearby()
    d.tap(rid="hot_button_profile")
    assert activity(ep) == f"{A}.ActivitySplashLogin"
    d.tap(text="I'm New")
    d.tap(text="Skip")
    assert [r.screen for r in ep.phone.stacks["yelp"]] == ["nearby"]


# ------------------------------------------------------------------ search
def test_category_lists_its_businesses_best_first() -> None:
    ep, d = nearby()
    d.tap(text="Hair Salons", rid="title")
    assert screen(ep) == "results"
    assert d.has(text="Hair Salons Current Location", rid="toolbar_search_text")
    rows = result_rows(d)
    assert [t for t, _ in rows] == [
        "1. Veranda Hair & Wellness",
        "2. Bloomfield Hair Studio",
        "3. Whitfield Salon",
        "4. Great Cuts",
    ]
    assert all("Hair Salons" in c for _, c in rows)
    assert d.has(text="44 Reviews", desc="5 star rating", rid="search_rating")
    assert d.has(text="$$", desc="2 $ signs", rid="search_price_textview")
    assert d.has(text="288 Liberty Ave, Bloomfield", rid="search_address_textview")


def test_open_now_filters_by_the_phone_clock_and_toggles_back() -> None:
    ep, d = nearby()
    assert ep.phone.clock.hour == 9  # the default clock: 9:00
    d.tap(text="Hair Salons", rid="title")
    d.tap(text="Open Now", rid="tag_button")
    names = [t for t, _ in result_rows(d)]
    assert names == ["1. Veranda Hair & Wellness", "2. Whitfield Salon", "3. Great Cuts"]
    assert next(v for v in d.observe().walk() if v.text == "Open Now").selected
    d.tap(text="Open Now", rid="tag_button")
    assert len(result_rows(d)) == 4
    d.back()
    assert screen(ep) == "nearby"  # the filter replaced the results, it did not stack


def test_search_overlay_suggests_terms_and_businesses() -> None:
    ep, d = nearby()
    d.tap(rid="hot_button_search")
    assert screen(ep) == "overlay" and ep.phone.keyboard
    assert d.has(text="Restaurants", rid="term")  # nothing typed: popular terms
    typed(ep, "salon")  # the search bar has the focus
    terms = d.texts(rid="term")
    assert "Hair Salons" in terms and "Nail Salons" in terms and "Whitfield Salon" in terms
    assert "Restaurants" not in terms
    d.tap(text="Nail Salons", rid="term")
    assert screen(ep) == "results"
    assert [t for t, _ in result_rows(d)] == ["1. Whitfield Salon", "2. Polished Nail Bar"]
    # editing the search from the results replaces them
    d.tap(rid="toolbar_search_text")
    assert screen(ep) == "overlay" and d.has(text="Nail Salons", rid="searchbar")
    d.type("dentists", rid="searchbar")
    d.tap(desc="Search Yelp")
    assert [r.screen for r in ep.phone.stacks["yelp"]] == ["nearby", "results"]
    assert d.has(text="No results found for dentists", rid="empty_results")
    d.tap(rid="toolbar_search_text")
    typed(ep, "Mexican")
    d.enter()
    assert [t for t, _ in result_rows(d)] == ["1. Taco Luna"]


def test_a_location_narrows_the_search() -> None:
    _, d = nearby()
    d.tap(rid="hot_button_search")
    d.type("Restaurants", rid="searchbar")
    d.type("Shadyside", rid="locationbar")
    d.enter()
    assert d.has(text="Restaurants Shadyside", rid="toolbar_search_text")
    assert [t for t, _ in result_rows(d)] == ["1. Taco Luna"]


def test_typing_in_nearbys_search_box_suggests_and_searches() -> None:
    ep, d = nearby()
    d.type("hair salons", rid="search_text")
    assert screen(ep) == "nearby" and d.has(text="Hair Salons", rid="term")
    assert not d.has(rid="category_container")
    d.enter()
    assert screen(ep) == "results" and len(result_rows(d)) == 4
    d.back()
    assert screen(ep) == "nearby" and d.has(rid="category_container")  # the box was cleared


def test_a_business_suggestion_opens_its_page() -> None:
    ep, d = nearby()
    open_page(ep, d, "Gaucho Grill Argentina")
    assert [r.screen for r in ep.phone.stacks["yelp"]] == ["nearby", "business"]


def test_more_opens_the_search_overlay() -> None:
    ep, d = nearby()
    d.tap(text="More", rid="title")
    assert screen(ep) == "overlay"
    d.back()  # the keyboard
    d.back()
    assert screen(ep) == "nearby"


# ------------------------------------------------------------------ business page
def test_business_page_shows_rating_hours_address_and_actions() -> None:
    ep, d = nearby()
    open_page(ep, d, "Bloomfield Hair Studio")
    assert d.has(text="34 Reviews", desc="4.5 star rating", rid="rating")
    assert d.has(text="$", desc="1 $ sign", rid="price")
    assert d.has(text="Hair Salons", rid="categories")
    assert d.has(text="Hours Today: 10:00 AM - 8:00 PM", rid="hours")
    assert d.has(text="Closed", rid="open_closed")  # 9:00
    assert d.has(text="288 Liberty Ave, Pittsburgh, PA 15224", rid="addressExact")
    assert d.has(text="Bloomfield", rid="addressGeneral")
    assert d.has(text="Get Directions") and d.has(text="Call (412) 621-1926")
    assert d.has(text="Bookmark", rid="label") and d.has(desc="Bookmark", rid="bookmark")
    d.tap(text="More Info")
    assert d.texts(rid="hours") == ["10:00 AM - 8:00 PM"] * 7
    assert d.has(text="(412) 621-1926", rid="phone")


def test_bookmark_toggles_and_fills_the_bookmarks_tab() -> None:
    ep, d = nearby()
    d.tap(rid="hot_button_bookmarks")
    assert d.has(text=BOOKMARKS_EMPTY, rid="error_text")
    d.back()
    open_page(ep, d, "Whitfield Salon")
    d.tap(desc="Bookmark")
    assert coll(ep, "bookmarks") == [
        {"business": "Whitfield Salon", "saved": "2026-01-01T09:00:00"}
    ]
    assert ep.phone.toast == "Added to Bookmarks"
    assert d.has(text="Bookmarked", rid="label") and d.has(desc="Bookmarked", rid="bookmark")
    assert not d.has(desc="Bookmark", rid="bookmark")
    d.tap(rid="hot_button_bookmarks")
    assert d.texts(rid="business_name") == ["Whitfield Salon"]
    assert not d.has(text=BOOKMARKS_EMPTY)
    d.tap(text="Whitfield Salon", rid="business_name")
    assert screen(ep) == "business"
    d.tap(desc="Bookmarked")
    assert coll(ep, "bookmarks") == [] and ep.phone.toast == "Removed from Bookmarks"
    d.back()
    assert d.has(text=BOOKMARKS_EMPTY)


def test_bookmarks_list_most_recent_first_and_unknown_businesses_by_name() -> None:
    ep, d = nearby()
    set_state(
        ep,
        bookmarks=[
            {"business": "Taco Luna", "saved": "2026-01-01T08:00:00"},
            {"business": "Closed Diner", "saved": None},
            {"business": "Ivy Lounge", "saved": "2026-01-01T08:30:00"},
        ],
    )
    d.tap(rid="hot_button_bookmarks")
    assert d.texts(rid="business_name") == ["Ivy Lounge", "Taco Luna", "Closed Diner"]
    d.tap(text="Closed Diner", rid="business_name")
    assert d.has(text="Closed Diner", rid="name") and not d.has(text="Get Directions")


def test_feed_bookmark_buttons_toggle() -> None:
    ep, d = nearby()
    d.tap(rid="hot_button_feed")
    first = d.texts(rid="business_title")[0]
    assert first == "Meat & Greet"  # the most reviewed
    button = d.need(desc="Bookmark", rid="bookmark_button")
    assert not d.observe().flat()[button].checked
    d.tap(desc="Bookmark", rid="bookmark_button")
    assert [r["business"] for r in coll(ep, "bookmarks")] == [first]
    assert d.has(desc="Bookmark", rid="bookmark_button", checked=True)
    d.tap(desc="Bookmark", rid="bookmark_button", checked=True)
    assert coll(ep, "bookmarks") == []


def test_seeded_businesses_replace_the_directory() -> None:
    ep, d = nearby()
    set_state(
        ep,
        businesses=[
            {"name": "Curl Up & Dye", "category": "Hair Salons", "rating": 3.5, "reviews": 1,
             "address": "12 Main St, Springfield", "open_now": False},
            {"name": "Shear Genius", "category": "Hair Salons", "rating": 4.0, "reviews": 20,
             "address": None, "open_now": None},
        ],
    )  # fmt: skip
    d.tap(text="Hair Salons", rid="title")
    assert [t for t, _ in result_rows(d)] == ["1. Shear Genius", "2. Curl Up & Dye"]
    assert d.has(text="1 Review", desc="3.5 star rating")
    d.tap(text="2. Curl Up & Dye")
    assert d.has(text="Closed", rid="open_closed") and not d.has(rid="hours")
    assert d.has(text="12 Main St, Springfield", rid="addressExact")
    assert not any(t.startswith("Call") for t in d.texts(rid="list_button_title"))
    d.back()
    d.tap(text="1. Shear Genius")
    assert not d.has(rid="open_closed") and not d.has(text="Get Directions")


def test_call_opens_the_dialer_and_directions_open_maps() -> None:
    ep, d = nearby()
    open_page(ep, d, "Taco Luna")
    d.tap(text="Call (412) 621-8226")
    assert ep.phone.foreground == "phone"
    assert ep.phone.stacks["phone"][-1].arg("number") == "(412) 621-8226"
    d.open("Yelp")
    assert screen(ep) == "business"
    d.tap(text="Get Directions")
    assert ep.phone.foreground == ("maps" if "maps" in ep.phone.apps else "yelp")


def test_share_sends_the_business_to_messages_or_is_cancelled() -> None:
    ep, d = nearby()
    open_page(ep, d, "Taco Luna")
    d.tap(desc="Share")
    assert ep.phone.dialog is not None and d.has(text="Messages")
    d.back()
    assert ep.phone.dialog is None and screen(ep) == "business"
    d.tap(desc="Share")
    d.tap(text="Messages")
    assert ep.phone.foreground == "messages"
    route = ep.phone.stacks["messages"][-1]
    assert route.screen == "new"
    assert route.arg("body") == "Check out Taco Luna on Yelp: https://www.yelp.com/biz/taco-luna"


def test_check_in_asks_to_sign_in_while_signed_out() -> None:
    ep, d = nearby()
    open_page(ep, d, "Taco Luna")
    d.tap(text="Check In")
    assert screen(ep) == "splash"
    d.back()
    set_settings(ep, signed_in=True)
    d.tap(text="Check In")
    assert screen(ep) == "business" and ep.phone.toast == "You checked in at Taco Luna"


# ------------------------------------------------------------------ navigation and settings
def test_hot_buttons_stack_and_back_returns() -> None:
    ep, d = nearby()
    d.tap(rid="hot_button_bookmarks")
    d.tap(rid="hot_button_bookmarks")  # the current tab: nothing
    d.tap(rid="hot_button_feed")
    assert [r.screen for r in ep.phone.stacks["yelp"]] == ["nearby", "bookmarks", "feed"]
    d.back()
    assert screen(ep) == "bookmarks"
    d.back()
    d.back()
    assert ep.phone.foreground is None


def test_drawer_navigates_and_back_closes_it() -> None:
    ep, d = nearby()
    d.tap(desc="Navigate up")
    assert screen(ep) == "drawer" and activity(ep) == f"{A}.nearby.ActivityNearby"
    assert d.has(text="Log In or Sign Up")
    d.back()
    assert screen(ep) == "nearby"
    d.tap(desc="Navigate up")
    d.tap(text="Bookmarks", rid="nav_bookmarks")
    assert [r.screen for r in ep.phone.stacks["yelp"]] == ["nearby", "bookmarks"]
    d.tap(desc="Navigate up")
    d.tap(text="Search", rid="nav_search")
    assert screen(ep) == "overlay"


def test_settings_background_location_switch_and_log_out() -> None:
    ep, d = nearby(signed_in=True)
    d.tap(desc="Navigate up")
    assert d.has(text="Alex R.", rid="nav_user_name")
    d.tap(text="Settings")
    assert activity(ep) == f"{A}.settings.ActivitySettings"
    switch = d.need(text="Background Location", cls="Switch")
    assert not d.observe().flat()[switch].checked
    d.tap(text="Background Location", cls="Switch")
    assert setting(ep, "background_location") is True
    assert d.has(text="Background Location", cls="Switch", checked=True)
    d.tap(text="Log Out")
    d.tap(text="Cancel")
    assert setting(ep, "signed_in") is True
    d.tap(text="Log Out")
    d.tap(text="Log Out", rid="button1")
    assert setting(ep, "signed_in") is False and not d.has(text="Log Out")


def test_invalid_actions_are_refused_with_a_reason() -> None:
    ep, d = nearby()
    out = ep.step(
        {"action_type": "input_text", "text": "x", "index": d.need(rid="hot_button_profile")}
    )
    assert not out.ok and "not a text field" in out.info
    out = ep.step({"action_type": "click", "index": 10_000})
    assert not out.ok and "out of range" in out.info
    assert screen(ep) == "nearby"


def test_app_identity() -> None:
    assert YelpApp.package == PKG and YelpApp.model == "yelp"
    assert YelpApp.activity == f"{A}.RootActivity"
