"""PhoneWorld's Rides mini program inside WeChat: the reference solutions of its tasks, the
pages' XML, and choosing places, ride options, paying, cancelling with a reason and the saved
places through real actions."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tasklang import ir
from tasklang.compiler import Compiler
from tasklang.envs.phoneworld.app import AppData
from tasklang.envs.phoneworld.apps.ride import distance_km, fare
from tasklang.envs.phoneworld.episode import Episode, run_nothing, run_reference
from tasklang.envs.phoneworld.solutions.base import Driver
from tasklang.envs.phoneworld.solutions.wechat import open_mini_program
from tasklang.verifiers.snapshot import parse_ui_xml

ROOT = Path(__file__).resolve().parents[1]
TASKS = ("mini.ride_book_from_home", "mini.ride_cancel_with_reason", "mini.ride_search_destination")
PKG = "com.tencent.mm"


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
def episode(task_id: str = "mini.ride_search_destination", seed: int = 0) -> tuple[Episode, Driver]:
    ep = Episode(compiled(task_id), seed)
    assert ep.instance is not None
    d = Driver(ep.tree, ep.step, ep.instance.params)
    open_mini_program(d, "Rides")
    assert ep.phone.foreground == "ride"
    return ep, d


def trips(ep: Episode) -> list[dict[str, Any]]:
    return ep.phone.state["ride"].collections["trips"]


def saved(ep: Episode) -> dict[str, str]:
    return {s["label"]: s["place"] for s in ep.phone.state["ride"].collections["saved_places"]}


def place(ep: Episode, name: str) -> dict[str, Any]:
    return next(p for p in ep.phone.state["ride"].collections["places"] if p["name"] == name)


def wallet(ep: Episode) -> int:
    return int(ep.phone.state["wechat"].settings.get("wallet_balance", 20000))


def set_wallet(ep: Episode, cents: int) -> None:
    data = ep.phone.state["wechat"]
    ep.phone.state["wechat"] = AppData(data.collections, {**data.settings, "wallet_balance": cents})
    ep.phone.invalidate()


def activity(ep: Episode) -> str:
    return ep.phone.current_activity()[1].rsplit(".", 1)[-1]


def xml_ok(ep: Episode) -> None:
    _, elements = parse_ui_xml(ep.xml())
    assert elements and {e.package for e in elements} <= {PKG, "com.android.systemui"}


def click(d: Driver, index: int) -> Any:
    return d.act({"action_type": "click", "index": index})


def to_options(d: Driver, destination: str, query: str) -> None:
    """From the Ride page: search the destination and choose it."""
    d.tap(rid="destination-row")
    d.type(query)
    click(d, d.scroll_to(text=destination, rid="place-name"))


# ------------------------------------------------------------------ screens
def test_every_page_produces_parseable_xml_with_the_real_ids() -> None:
    ep, d = episode()
    assert activity(ep) == "AppBrandUI"
    xml_ok(ep)
    assert d.has(desc="More") and d.has(desc="Close")
    assert f"{PKG}:id/actionbar_capsule_option" in ep.xml()
    assert "android.webkit.WebView" in ep.xml()
    for tab in ("Trips", "Me", "Ride"):
        d.tap(text=tab, rid="tab-bar-item")
        xml_ok(ep)
    to_options(d, "Century Park", "century")
    assert d.has(text="Choose a Ride")
    xml_ok(ep)
    assert d.texts(rid="ride-option-name") == ["Economy", "Comfort", "XL"]
    d.tap(text="Request Economy")
    assert activity(ep) == "WalletPayUI"
    xml_ok(ep)
    d.tap(text="Pay")
    assert activity(ep) == "AppBrandUI" and d.has(text="Looking for a driver")
    xml_ok(ep)
    d.back()
    d.tap(text="Me", rid="tab-bar-item")
    d.tap(text="Saved Places", rid="field-name")
    xml_ok(ep)


def test_place_search_suggests_by_name_and_address_or_says_nothing_found() -> None:
    ep, d = episode()
    d.tap(rid="destination-row")
    assert ep.phone.keyboard  # the search box opens focused
    assert d.texts(rid="place-badge") == ["Home", "Work", "Gym", "Mom's"]
    d.type("park")
    assert set(d.texts(rid="place-name")) == {
        "Tower One Office Park",
        "Zhongshan Park",
        "Century Park",
    }
    d.type("Binjiang")  # an address
    assert d.texts(rid="place-name") == ["Riverside Gym"]
    d.type("Atlantis")
    assert d.texts(rid="search-empty") == ["No results for “Atlantis”"]
    d.back()  # hides the keyboard
    d.back()
    assert d.texts(rid="destination-name") == ["Where to?"]


def test_options_show_distance_and_fares_and_the_chosen_class() -> None:
    ep, d = episode()
    to_options(d, "Century Park", "century")
    km = distance_km(place(ep, "Jing'an Temple"), place(ep, "Century Park"))
    assert d.texts(rid="route-summary")[0].startswith(f"{km:.1f} km")
    assert d.texts(rid="ride-option-fare") == [
        f"Est. ${fare(t, km) / 100:.2f}" for t in ("economy", "comfort", "xl")
    ]
    assert fare("economy", km) < fare("comfort", km) < fare("xl", km)
    d.tap(text="XL", rid="ride-option-name")
    assert d.has(text="Request XL")
    # changing the pickup on the options page keeps the destination
    d.tap(rid="pickup-row")
    d.type("people")
    d.tap(text="People's Square", rid="place-name")
    assert d.texts(rid="pickup-name") == ["People's Square"]
    assert d.texts(rid="destination-name") == ["Century Park"]
    km2 = distance_km(place(ep, "People's Square"), place(ep, "Century Park"))
    assert d.texts(rid="route-summary")[0].startswith(f"{km2:.1f} km")


def test_requesting_pays_the_fare_and_writes_one_trip() -> None:
    ep, d = episode()
    before = wallet(ep)
    d.tap(text="Gym", rid="saved-place-chip")  # a saved place goes straight to the options
    d.tap(text="Comfort", rid="ride-option-name")
    d.tap(text="Request Comfort")
    amount = fare("comfort", distance_km(place(ep, "Jing'an Temple"), place(ep, "Riverside Gym")))
    d.tap(text="Pay")
    assert wallet(ep) == before - amount
    [trip] = trips(ep)
    assert trip["pickup"] == "Jing'an Temple" and trip["destination"] == "Riverside Gym"
    assert trip["tier"] == "comfort" and trip["fare"] == amount and trip["status"] == "requested"
    assert trip["paid"] and trip["trip_no"] == "T1001"
    d.back()
    assert d.has(rid="trip-banner")  # the Ride page shows the open ride
    # a second request while one is open is refused
    d.tap(text="Work", rid="saved-place-chip")
    d.tap(text="Request Economy")
    assert ep.phone.dialog is not None and ep.phone.dialog.title == "You have a ride in progress"
    d.tap(text="View Ride")
    assert d.has(text="Trip Details") and len(trips(ep)) == 1


def test_closing_the_pay_sheet_or_a_short_balance_books_nothing() -> None:
    ep, d = episode()
    d.tap(text="Home", rid="saved-place-chip")
    d.tap(text="Request Economy")
    d.tap(desc="Close")
    assert d.has(text="Choose a Ride") and trips(ep) == []
    set_wallet(ep, 100)
    d.tap(text="Request Economy")
    d.tap(text="Pay")
    assert ep.phone.dialog is not None and ep.phone.dialog.title == "Insufficient Balance"
    assert trips(ep) == [] and wallet(ep) == 100


def test_pickup_and_destination_must_differ() -> None:
    ep, d = episode()
    to_options(d, "Jing'an Temple", "jing")
    d.tap(text="Request Economy")
    assert ep.phone.toast == "The pickup and destination are the same place"
    assert activity(ep) == "AppBrandUI" and trips(ep) == []


def test_cancel_asks_a_reason_then_confirmation() -> None:
    ep, d = episode("mini.ride_cancel_with_reason")
    d.tap(text="Trips", rid="tab-bar-item")
    assert d.texts(rid="trip-destination")[0] == "Hongqiao Railway Station"  # newest first
    d.tap(text="Hongqiao Railway Station", rid="trip-destination")
    assert d.texts(rid="driver-name") == ["Zhao Min"]
    d.tap(text="Cancel Ride")
    d.tap(text="Keep Ride")  # closes the reasons: nothing changes
    assert trips(ep)[0]["status"] == "accepted"
    d.tap(text="Cancel Ride")
    d.tap(text="Waited too long")
    assert ep.phone.dialog is not None and "Waited too long" in ep.phone.dialog.message
    d.tap(text="Keep Ride")
    assert trips(ep)[0]["status"] == "accepted"
    d.tap(text="Cancel Ride")
    d.tap(text="Booked by mistake")
    d.tap(text="Confirm")
    trip = trips(ep)[0]
    assert trip["status"] == "cancelled" and trip["cancel_reason"] == "Booked by mistake"
    assert not d.has(text="Cancel Ride") and d.has(text="Booked by mistake")
    # a completed trip cannot be cancelled
    d.back()
    d.tap(text="Tower One Office Park", rid="trip-pickup")
    assert d.has(text="Completed") and not d.has(text="Cancel Ride")


def test_saved_places_change_add_and_remove() -> None:
    ep, d = episode()
    d.tap(text="Me", rid="tab-bar-item")
    d.tap(text="Saved Places", rid="field-name")
    d.tap(text="Work", rid="saved-label")
    d.type("bund")
    d.tap(text="Bund Riverside", rid="place-name")
    assert saved(ep)["Work"] == "Bund Riverside"
    d.tap(text="Add a Place")
    assert ep.phone.keyboard  # the name field has the focus
    d.type("xin", rid="search-input")
    d.tap(text="Xintiandi", rid="place-name")
    assert ep.phone.toast == "Enter a name for this place" and "Xintiandi" not in saved(ep).values()
    d.type("Office", rid="place-label-input")
    d.tap(text="Xintiandi", rid="place-name")
    assert saved(ep)["Office"] == "Xintiandi" and d.has(text="Office", rid="saved-label")
    d.tap(text="Remove", nth=0)
    d.tap(text="Cancel")
    assert "Home" in saved(ep)
    d.tap(text="Remove", nth=0)
    d.tap(text="Remove", rid="android:id/button1")
    assert "Home" not in saved(ep) and len(saved(ep)) == 4


def test_current_location_is_the_default_pickup() -> None:
    ep, d = episode()
    assert d.texts(rid="pickup-name") == ["Jing'an Temple"]
    d.tap(text="Me", rid="tab-bar-item")
    d.tap(text="Current Location", rid="field-name")
    d.type("square")
    d.tap(text="People's Square", rid="place-name")
    assert ep.phone.state["ride"].settings["location"] == "People's Square"
    d.tap(text="Ride", rid="tab-bar-item")
    assert d.texts(rid="pickup-name") == ["People's Square"]


def test_the_capsule_closes_the_mini_program_and_a_tap_on_nothing_is_harmless() -> None:
    ep, d = episode()
    d.tap(text="Gym", rid="saved-place-chip")
    out = ep.step({"action_type": "click", "index": d.need(rid="route-summary")})
    assert out.ok and trips(ep) == [] and d.has(text="Choose a Ride")
    d.tap(desc="Close")
    assert ep.phone.foreground == "wechat" and "ride" not in ep.phone.stacks
