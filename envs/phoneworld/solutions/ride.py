"""Reference solutions of the Rides mini program's tasks (inside WeChat)."""

from __future__ import annotations

from tasklang.envs.phoneworld.solutions.base import Driver, reference
from tasklang.envs.phoneworld.solutions.wechat import click, open_mini_program


def choose_ride(d: Driver, name: str) -> None:
    """On "Choose a Ride": pick the class, request it and pay."""
    d.tap(text=name, rid="ride-option-name")
    d.tap(text=f"Request {name}", rid="request-ride")
    d.tap(text="Pay")


@reference("mini.ride_book_from_home")
def ride_book_from_home(d: Driver) -> None:
    p = d.params
    open_mini_program(d, "Rides")
    d.tap(rid="pickup-row")
    click(d, d.scroll_to(text="Home", rid="place-badge"))
    click(d, d.need(text=p["dest"]["label"], rid="saved-place-chip"))
    choose_ride(d, p["cls"]["name"])
    d.done()


@reference("mini.ride_cancel_with_reason")
def ride_cancel_with_reason(d: Driver) -> None:
    p = d.params
    open_mini_program(d, "Rides")
    d.tap(text="Trips", rid="tab-bar-item")
    click(d, d.scroll_to(text=p["open"]["destination"], rid="trip-destination"))
    d.tap(text="Cancel Ride")
    d.tap(text=p["why"])
    d.tap(text="Confirm")
    d.done()


@reference("mini.ride_search_destination")
def ride_search_destination(d: Driver) -> None:
    spot = d.params["spot"]
    open_mini_program(d, "Rides")
    d.tap(rid="destination-row")
    d.type(spot["name"].split()[0])
    click(d, d.scroll_to(text=spot["name"], rid="place-name"))
    choose_ride(d, d.params["cls"]["name"])
    d.done()
