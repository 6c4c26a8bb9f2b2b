"""PhoneWorld's Google Maps: the reference solutions of its tasks (and of the cross-app task that
shares a place's address), the screens' XML, and the handlers' behaviour through real actions."""

from __future__ import annotations

import datetime as dt
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tasklang import ir
from tasklang.compiler import Compiler
from tasklang.envs.phoneworld.app import AppData
from tasklang.envs.phoneworld.apps.maps import distance_text, open_status, query_category
from tasklang.envs.phoneworld.episode import Episode, run_nothing, run_reference
from tasklang.envs.phoneworld.solutions.base import Driver
from tasklang.envs.phoneworld.solutions.maps import km, result_rows
from tasklang.verifiers.snapshot import parse_ui_xml

ROOT = Path(__file__).resolve().parents[1]
TASKS = {
    "maps.place_address": "app",
    "maps.save_best_cafe": "app",
    "cross.share_place_address": "cross_app",
}
PKG = "com.google.android.apps.maps"
CAFE = "maps.save_best_cafe"
SHARE = "cross.share_place_address"


@cache
def compiled(task_id: str) -> ir.CompiledTask:
    path = ROOT / "task_library" / TASKS[task_id] / f"{task_id}.task"
    return Compiler().compile_paths([path]).tasks[0]


@pytest.mark.parametrize("task_id", sorted(TASKS))
def test_reference_solves_every_instance(task_id: str) -> None:
    for seed in range(6):  # `tasklang test` tries 20
        verdict, _ = run_reference(compiled(task_id), seed)
        assert verdict.success, (seed, [(r.id, r.summary) for r in verdict.clauses if not r.passed])


@pytest.mark.parametrize("task_id", sorted(TASKS))
def test_doing_nothing_fails(task_id: str) -> None:
    for seed in range(6):  # `tasklang test` tries 20
        assert not run_nothing(compiled(task_id), seed).success


# ------------------------------------------------------------------ helpers
def episode(task_id: str = CAFE, seed: int = 0) -> tuple[Episode, Driver]:
    ep = Episode(compiled(task_id), seed)
    assert ep.instance is not None
    d = Driver(ep.tree, ep.step, ep.instance.params)
    d.open("Maps")
    return ep, d


def coll(ep: Episode, name: str, app: str = "maps") -> list[dict[str, Any]]:
    return ep.phone.state[app].collections.get(name, [])


def setting(ep: Episode, name: str) -> Any:
    return ep.phone.state["maps"].settings.get(name)


def set_state(ep: Episode, **collections: list[dict[str, Any]]) -> None:
    data = ep.phone.state["maps"]
    ep.phone.state["maps"] = AppData({**data.collections, **collections}, data.settings)
    ep.phone.invalidate()


def screen(ep: Episode) -> str:
    return ep.phone.stacks["maps"][-1].screen


def click(ep: Episode, d: Driver, **sel: Any) -> Any:
    return ep.step({"action_type": "click", "index": d.need(**sel)})


def xml_ok(ep: Episode) -> None:
    _, elements = parse_ui_xml(ep.xml())
    assert elements and all(e.package for e in elements)
    assert ep.phone.current_activity() == (PKG, "com.google.android.maps.MapsActivity") or (
        ep.phone.foreground != "maps"
    )


def search(d: Driver, text: str) -> None:
    d.tap(rid="search_omnibox_text_box")
    d.type(text, rid="search_omnibox_edit_text")
    d.enter()


def open_cafe(ep: Episode, d: Driver, name: str = "Mission Roast House") -> None:
    search(d, name)
    assert screen(ep) == "place"
    assert d.has(text=name, rid="title")


# ------------------------------------------------------------------ formatting
def test_open_status_texts() -> None:
    cafe = {"opens": "07:30:00", "closes": "18:00:00"}
    at = dt.datetime(2026, 5, 14, 15, 20)
    assert open_status(cafe, at) == "Open · Closes 6 PM"
    assert open_status(cafe, at.replace(hour=17, minute=10)) == "Closes soon · 6 PM"
    assert open_status(cafe, at.replace(hour=19)) == "Closed · Opens 7:30 AM"
    assert open_status(cafe, at.replace(hour=7, minute=0)) == "Opens soon · 7:30 AM"
    bar = {"opens": "18:30:00", "closes": "02:00:00"}  # open past midnight
    assert open_status(bar, at.replace(hour=23)) == "Open · Closes 2 AM"
    assert open_status(bar, at.replace(hour=1)) == "Closes soon · 2 AM"
    assert open_status(bar, at.replace(hour=12)) == "Closed · Opens 6:30 PM"
    assert open_status({"opens": "00:00:00", "closes": "23:59:00"}, at) == "Open 24 hours"
    assert open_status({"opens": None, "closes": "18:00:00"}, at) is None


def test_distance_texts_and_parsing() -> None:
    assert distance_text(1.2, "automatic") == "1.2 km"
    assert distance_text(0.4, "kilometers") == "400 m"
    assert distance_text(1.2, "miles") == "0.7 mi"
    assert distance_text(0.05, "miles") == "160 ft"
    assert distance_text(None, "miles") is None
    assert km("1.2 km") == 1.2 and km("400 m") == 0.4 and km("Cafe") is None
    assert query_category("coffee shops near me") == "cafe"
    assert query_category("Groceries") == "supermarket"
    assert query_category("Pharmacies") == "pharmacy"
    assert query_category("The Page") is None


# ------------------------------------------------------------------ screens
def test_every_screen_produces_parseable_xml() -> None:
    ep, d = episode()
    set_state(ep, recent_searches=[{"query": "tacos", "searched_at": "2026-05-13T19:00:00"}])
    xml_ok(ep)
    assert d.has(text="Search here", rid="search_omnibox_text_box")
    d.tap(rid="search_omnibox_text_box")
    xml_ok(ep)
    assert d.has(text="tacos", rid="search_history_item")
    d.type("valencia", rid="search_omnibox_edit_text")
    xml_ok(ep)
    d.back()
    d.back()
    d.tap(desc="Layers")
    xml_ok(ep)
    d.back()
    d.tap(desc="Account and settings")
    xml_ok(ep)
    d.tap(text="Settings")
    xml_ok(ep)
    for row in ("Edit home or work", "Navigation settings", "Maps history"):
        d.tap(text=row)
        xml_ok(ep)
        d.back()
    d.tap(text="Distance units")
    xml_ok(ep)
    d.back()
    d.back()
    d.tap(text="Coffee", rid="chip")
    xml_ok(ep)
    for chip in ("Rating", "Sort by"):
        d.tap(text=chip)
        xml_ok(ep)
        d.back()
    d.tap(text="Mission Roast House", rid="title")
    xml_ok(ep)
    for button in ("Save", "Share"):
        d.tap(text=button)
        xml_ok(ep)
        d.back()
    d.tap(text="Directions")
    xml_ok(ep)
    d.tap(desc="More options")
    xml_ok(ep)
    d.tap(text="Add stop")
    xml_ok(ep)
    d.back()
    d.back()
    d.tap(text="Steps")
    xml_ok(ep)
    d.back()
    d.tap(text="Start")
    xml_ok(ep)
    d.tap(text="Exit")
    for _ in range(3):
        d.back()
    assert screen(ep) == "main"
    d.tap(desc="Go")
    xml_ok(ep)
    d.tap(desc="Saved")
    xml_ok(ep)
    d.tap(text="Want to go", rid="list_title")
    xml_ok(ep)


def test_result_rows_show_rating_reviews_category_distance_and_hours() -> None:
    ep, d = episode()
    d.tap(text="Coffee", rid="chip")
    assert screen(ep) == "results"
    rows = {r.name: r for r in result_rows(d)}
    assert set(rows) == {
        "Harbor Bean",
        "Mission Roast House",
        "Cable Car Espresso",
        "Polk Street Coffee Lab",
    }
    assert rows["Mission Roast House"].rating == 4.8 and rows["Mission Roast House"].km == 1.2
    assert rows["Harbor Bean"].km == 0.4 and rows["Harbor Bean"].category == "Cafe"
    texts = d.texts()
    assert "(1,893)" in texts and "400 m" in texts and "Open · Closes 6 PM" in texts
    assert "Closes soon · 4 PM" in texts  # Cable Car Espresso closes at 16:00; it is 15:20
    # relevance: best rated first
    assert d.texts(rid="title")[0] == "Polk Street Coffee Lab"


def test_place_sheet_shows_details_and_buttons() -> None:
    ep, d = episode()
    set_state(
        ep,
        places=[
            *coll(ep, "places"),
            {
                "name": "Tartine Bakery",
                "address": "600 Guerrero St, San Francisco, CA 94110",
                "category": "cafe",
                "rating": 4.5,
                "reviews": 8000,
                "phone": "+1 415 555 0101",
                "website": "https://www.tartinebakery.com",
                "opens": "08:00:00",
                "closes": "17:00:00",
                "price_level": 2,
                "distance_km": 0.25,
            },
        ],
    )
    open_cafe(ep, d, "Tartine Bakery")
    texts = d.texts()
    for text in (
        "4.5",
        "(8,000)",
        "Cafe",
        "$$",
        "250 m",
        "Open · Closes 5 PM",
        "Directions",
        "Call",
        "Save",
        "Share",
        "600 Guerrero St, San Francisco, CA 94110",
        "Hours: 8 AM–5 PM",
        "tartinebakery.com",
        "+1 415 555 0101",
    ):
        assert text in texts, text
    assert d.has(desc="Directions to Tartine Bakery")
    # Call dials the number
    d.tap(text="Call")
    assert ep.phone.foreground == "phone"
    assert ep.phone.stacks["phone"][-1].arg("number") == "+1 415 555 0101"


# ------------------------------------------------------------------ searching
def test_search_records_history_and_a_single_match_opens_the_place() -> None:
    ep, d = episode()
    search(d, "Harbor Bean")
    assert screen(ep) == "place"
    assert coll(ep, "recent_searches") == [
        {"query": "Harbor Bean", "searched_at": "2026-05-14T15:20:00"}
    ]
    assert not ep.phone.keyboard
    d.back()
    assert screen(ep) == "main"
    # the same query again moves it to the top instead of adding it twice
    ep.phone.clock += dt.timedelta(minutes=5)
    d.tap(rid="search_omnibox_text_box")
    assert ep.phone.keyboard and ep.phone.focus is not None  # the field has the focus
    d.tap(text="Harbor Bean", rid="search_history_item")
    assert screen(ep) == "place"
    assert coll(ep, "recent_searches") == [
        {"query": "Harbor Bean", "searched_at": "2026-05-14T15:25:00"}
    ]


def test_category_query_lists_results_and_no_match_says_so() -> None:
    ep, d = episode()
    search(d, "coffee shops near me")
    assert screen(ep) == "results"
    assert len(result_rows(d)) == 4
    d.tap(desc="Clear search")
    assert screen(ep) == "main"
    search(d, "zzz nowhere")
    assert d.has(text="Google Maps can't find zzz nowhere")
    assert [r["query"] for r in coll(ep, "recent_searches")] == [
        "coffee shops near me",
        "zzz nowhere",
    ]
    # the results' search box reopens the search with the query
    d.tap(rid="search_omnibox_text_box")
    assert screen(ep) == "search"
    assert d.has(text="zzz nowhere", rid="search_omnibox_edit_text")
    d.type("Valencia", rid="search_omnibox_edit_text")
    assert d.has(text="Mission Roast House", rid="suggestion_title")
    d.tap(text="Mission Roast House", rid="suggestion_title")
    assert screen(ep) == "place"
    assert [r.screen for r in ep.phone.stacks["maps"]] == ["main", "place"]


def test_typing_suggests_categories_and_places() -> None:
    ep, d = episode()
    d.tap(rid="search_omnibox_text_box")
    d.type("caf", rid="search_omnibox_edit_text")
    assert d.texts(rid="suggestion_title") == ["cafe"]
    d.tap(desc="Clear search")
    assert d.has(text="Search here", rid="search_omnibox_edit_text") and ep.phone.keyboard
    d.type("coffee", rid="search_omnibox_edit_text")
    titles = d.texts(rid="suggestion_title")
    assert titles[0] == "Coffee near me" and "Polk Street Coffee Lab" in titles
    d.tap(text="Coffee near me")
    assert screen(ep) == "results" and len(result_rows(d)) == 4
    assert [r["query"] for r in coll(ep, "recent_searches")] == ["Coffee near me"]


def test_history_long_press_removes_a_search_or_cancels() -> None:
    ep, d = episode()
    set_state(
        ep,
        recent_searches=[
            {"query": "tacos", "searched_at": "2026-05-13T19:00:00"},
            {"query": "museums", "searched_at": "2026-05-12T09:00:00"},
        ],
    )
    d.tap(rid="search_omnibox_text_box")
    assert d.texts(rid="search_history_item") == ["tacos", "museums"]
    d.long_press(text="tacos", rid="search_history_item")
    assert d.has(text="Remove from history?")
    d.tap(text="Cancel")
    assert len(coll(ep, "recent_searches")) == 2
    d.long_press(text="tacos", rid="search_history_item")
    d.tap(text="Remove")
    assert [r["query"] for r in coll(ep, "recent_searches")] == ["museums"]


def test_filters_open_now_rating_and_sort() -> None:
    ep, d = episode()
    d.tap(text="Coffee", rid="chip")
    d.tap(text="Open now")
    names = {r.name for r in result_rows(d)}
    assert names == {"Harbor Bean", "Mission Roast House", "Cable Car Espresso"}
    assert d.find(text="Open now", rid="chip") is not None
    d.tap(text="Open now")  # off again
    d.tap(text="Rating")
    d.tap(text="4.5+")
    assert {r.name for r in result_rows(d)} == {
        "Mission Roast House",
        "Cable Car Espresso",
        "Polk Street Coffee Lab",
    }
    d.tap(text="Sort by")
    d.tap(text="Distance")
    assert [r.name for r in result_rows(d)] == [
        "Mission Roast House",
        "Cable Car Espresso",
        "Polk Street Coffee Lab",
    ]
    assert coll(ep, "recent_searches") == [
        {"query": "Coffee", "searched_at": "2026-05-14T15:20:00"}
    ]  # filtering is not a new search


# ------------------------------------------------------------------ saving
def test_save_to_a_list_move_it_and_remove_it() -> None:
    ep, d = episode()
    open_cafe(ep, d)
    d.tap(text="Save")
    d.tap(text="Done")  # closes without saving
    assert coll(ep, "saved") == []
    d.tap(text="Save")
    d.tap(text="Want to go")
    assert coll(ep, "saved") == [
        {"place": "Mission Roast House", "list_name": "want_to_go", "note": None}
    ]
    assert d.has(text="Saved", rid="save_button") and d.has(text="Saved in Want to go")
    d.tap(text="Saved", rid="save_button")
    assert d.find(text="Want to go", checked=True) is not None
    d.tap(text="Starred places")
    assert coll(ep, "saved") == [
        {"place": "Mission Roast House", "list_name": "starred", "note": None}
    ]
    d.tap(text="Saved", rid="save_button")
    d.tap(text="Starred places")  # the list it is in: removed
    assert coll(ep, "saved") == []
    assert d.has(text="Save", rid="save_button")


def test_saved_lists_notes_and_removal() -> None:
    ep, d = episode()
    set_state(
        ep,
        saved=[
            {"place": "Harbor Bean", "list_name": "favorites", "note": None},
            {"place": "Cable Car Espresso", "list_name": "favorites", "note": "try the cortado"},
            {"place": "Mission Roast House", "list_name": "want_to_go", "note": None},
        ],
    )
    d.tap(desc="Saved")
    assert d.has(text="Private · 2 places") and d.has(text="Private · 1 place")
    d.tap(text="Favorites", rid="list_title")
    # only the place names are TextViews of the list (what the device probe reads)
    listing = next(v for v in ep.tree().walk() if v.rid == f"{PKG}:id/saved_list")
    names = [v.text for v in listing.walk() if v.cls == "android.widget.TextView"]
    assert names == ["Harbor Bean", "Cable Car Espresso"]
    d.long_press(text="Harbor Bean")
    d.tap(text="Add note")
    d.type("best croissants", rid="note_text")
    d.tap(text="Save")
    assert coll(ep, "saved")[0]["note"] == "best croissants"
    # cancel leaves the note as it was
    d.long_press(text="Harbor Bean")
    d.tap(text="Edit note")
    assert d.has(text="best croissants", rid="note_text")
    d.type("changed", rid="note_text")
    d.tap(text="Cancel")
    assert coll(ep, "saved")[0]["note"] == "best croissants"
    # the note is on the place sheet
    d.tap(text="Harbor Bean")
    assert d.has(text="Saved in Favorites") and d.has(text="best croissants")
    d.back()
    d.act({"action_type": "click", "index": d.find(desc="More options", nth=1) or -1})
    d.tap(text="Remove")
    assert [s["place"] for s in coll(ep, "saved")] == ["Harbor Bean", "Mission Roast House"]
    d.back()
    assert screen(ep) == "saved"
    d.back()
    assert screen(ep) == "main"


# ------------------------------------------------------------------ sharing
def test_share_sends_the_address_to_messages() -> None:
    ep, d = episode(SHARE, 0)
    search(d, "Zuni Cafe")
    d.tap(text="Share")
    assert d.has(text="Share Zuni Cafe") and d.has(text="1658 Market St, San Francisco, CA 94102")
    d.tap(text="Copy")
    assert ep.phone.foreground == "maps" and ep.phone.toast == "Copied to clipboard"
    d.tap(text="Share")
    d.tap(text="Messages")
    assert ep.phone.foreground == "messages"
    assert ep.phone.stacks["messages"][-1].screen == "new"
    d.tap(text="Ada Park", rid="item_contact_name")
    assert d.has(text="Zuni Cafe\n1658 Market St, San Francisco, CA 94102")
    d.tap(desc="Send")
    (sent,) = coll(ep, "sent", "messages")
    assert sent["to"] == "+1 415 555 0134"
    assert "1658 Market St, San Francisco, CA 94102" in sent["body"]
    assert coll(ep, "routes") == [] and coll(ep, "saved") == []


# ------------------------------------------------------------------ directions
def test_directions_record_a_route_and_its_changes() -> None:
    ep, d = episode()
    open_cafe(ep, d)
    d.tap(text="Directions")
    assert screen(ep) == "directions"
    assert coll(ep, "routes") == [
        {
            "origin": "Your location",
            "destination": "Mission Roast House",
            "stops": [],
            "mode": "driving",
            "started": False,
        }
    ]
    assert d.has(text="Mission Roast House", rid="directions_destination")
    assert d.has(text="3 min (1.2 km)")
    d.tap(desc="Walking mode: 15 min")
    assert coll(ep, "routes")[0]["mode"] == "walking"
    assert d.has(text="15 min (1.2 km)")
    # a stop, chosen by typing and enter
    d.tap(desc="More options")
    d.tap(text="Add stop")
    assert screen(ep) == "choose"
    d.type("Harbor Bean", rid="search_omnibox_edit_text")
    d.enter()
    assert screen(ep) == "directions"
    assert coll(ep, "routes")[0]["stops"] == ["Harbor Bean"]
    assert d.has(text="Harbor Bean", rid="directions_waypoint")
    d.tap(desc="Remove stop")
    assert coll(ep, "routes")[0]["stops"] == []
    # another origin, by tapping a suggestion; then swap
    d.tap(rid="directions_startpoint_textbox")
    d.type("7th St", rid="search_omnibox_edit_text")
    d.tap(text="Harbor Bean", rid="suggestion_title")
    assert coll(ep, "routes")[0]["origin"] == "Harbor Bean"
    d.tap(desc="Swap start and destination")
    route = coll(ep, "routes")[0]
    assert (route["origin"], route["destination"]) == ("Mission Roast House", "Harbor Bean")
    assert len(coll(ep, "routes")) == 1
    # Start: navigation, and the route is started
    d.tap(text="Start")
    assert screen(ep) == "navigation" and coll(ep, "routes")[0]["started"] is True
    assert d.has(text="Head toward Harbor Bean")
    d.tap(text="Exit")
    assert screen(ep) == "directions"


def test_go_tab_reopens_a_route_without_adding_one() -> None:
    ep, d = episode()
    d.tap(desc="Go")
    assert d.has(text="Directions you get will show up here")
    d.back()
    assert screen(ep) == "main"
    open_cafe(ep, d)
    d.tap(text="Directions")
    d.tap(desc="Transit mode: 9 min")
    d.back()
    d.back()
    d.tap(desc="Go")
    assert d.has(text="Mission Roast House", rid="recent_route_destination")
    assert d.has(text="From Your location · Transit")
    d.tap(text="Mission Roast House")
    assert screen(ep) == "directions" and len(coll(ep, "routes")) == 1
    d.back()
    d.tap(desc="Saved")
    assert [r.screen for r in ep.phone.stacks["maps"]] == ["main", "saved"]
    d.tap(desc="Explore")
    assert [r.screen for r in ep.phone.stacks["maps"]] == ["main"]


def test_route_options_and_navigation_settings_toggle_avoidances() -> None:
    ep, d = episode()
    open_cafe(ep, d)
    d.tap(text="Directions")
    d.tap(desc="More options")
    d.tap(text="Route options")
    d.tap(text="Avoid tolls")
    assert setting(ep, "avoid_tolls") is True
    assert d.has(text="Avoids tolls")
    d.back()
    d.back()
    assert screen(ep) == "main"
    d.tap(desc="Account and settings")
    d.tap(text="Settings")
    d.tap(text="Navigation settings")
    assert d.find(rid="android:id/switch_widget", checked=True) is not None
    d.tap(text="Avoid highways")
    d.tap(text="Avoid tolls")
    assert setting(ep, "avoid_highways") is True and setting(ep, "avoid_tolls") is False


# ------------------------------------------------------------------ settings
def test_distance_units_change_what_is_shown() -> None:
    ep, d = episode()
    d.tap(desc="Account and settings")
    d.tap(text="Settings")
    assert d.has(text="Automatic", rid="android:id/summary")
    d.tap(text="Distance units")
    d.tap(text="Cancel")
    assert setting(ep, "distance_units") == "automatic"
    d.tap(text="Distance units")
    d.tap(text="Miles")
    assert setting(ep, "distance_units") == "miles"
    assert d.has(text="Miles", rid="android:id/summary")
    d.back()
    d.tap(text="Coffee", rid="chip")
    assert "0.7 mi" in d.texts(rid="distance")
    rows = {r.name: r for r in result_rows(d)}
    assert rows["Mission Roast House"].km == pytest.approx(1.127, abs=0.01)


def test_home_and_work_addresses() -> None:
    ep, d = episode()
    d.tap(desc="Account and settings")
    d.tap(text="Settings")
    d.tap(text="Edit home or work")
    assert d.texts(rid="android:id/summary") == ["Set once and go", "Set once and go"]
    d.tap(text="Home")
    d.tap(text="Save")  # nothing typed
    assert setting(ep, "home_address") is None and ep.phone.toast == "Enter an address"
    d.tap(text="Home")
    d.type("1 Ferry Building, San Francisco", rid="address_edit_text")
    d.tap(text="Cancel")
    assert setting(ep, "home_address") is None
    d.tap(text="Work")
    d.type("500 Howard St, San Francisco", rid="address_edit_text")
    d.tap(text="Save")
    assert setting(ep, "work_address") == "500 Howard St, San Francisco"
    assert d.has(text="500 Howard St, San Francisco", rid="android:id/summary")
    d.tap(text="Work")
    d.tap(text="Remove")
    assert setting(ep, "work_address") is None


def test_layers_set_the_map_type_and_traffic() -> None:
    ep, d = episode()
    d.tap(desc="Layers")
    assert d.find(text="Default", checked=True) is not None
    d.tap(text="Satellite")
    assert setting(ep, "map_type") == "satellite"
    d.tap(desc="Layers")
    d.tap(text="Traffic")
    assert setting(ep, "traffic_layer") is True
    assert d.has(desc="Google Map, satellite view, traffic shown")


def test_maps_history_clear_all() -> None:
    ep, d = episode()
    set_state(ep, recent_searches=[{"query": "tacos", "searched_at": "2026-05-14T08:00:00"}])
    d.tap(desc="Account and settings")
    d.tap(text="Settings")
    d.tap(text="Maps history")
    assert d.has(text="Today · 8 AM")
    d.tap(desc="Delete all")
    d.tap(text="Cancel")
    assert len(coll(ep, "recent_searches")) == 1
    d.tap(desc="Delete all")
    d.tap(text="Delete")
    assert coll(ep, "recent_searches") == [] and d.has(text="No history")


# ------------------------------------------------------------------ invalid actions
def test_invalid_actions_are_refused_with_a_reason() -> None:
    ep, d = episode()
    box = d.need(rid="search_omnibox_text_box")
    out = ep.step({"action_type": "input_text", "text": "cafe", "index": box})
    assert not out.ok and "not a text field" in out.info
    out = ep.step({"action_type": "click", "index": 10_000})
    assert not out.ok and "out of range" in out.info
    out = ep.step({"action_type": "keyboard_enter"})
    assert out.ok and coll(ep, "recent_searches") == []
    # enter on an empty search field searches nothing
    d.tap(rid="search_omnibox_text_box")
    d.enter()
    assert screen(ep) == "search" and coll(ep, "recent_searches") == []
    d.back()  # hides the keyboard
    assert screen(ep) == "search" and not ep.phone.keyboard
    d.back()
    assert screen(ep) == "main"
