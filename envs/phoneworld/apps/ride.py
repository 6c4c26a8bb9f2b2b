"""Rides: a ride-hailing mini program inside WeChat (in the style of the DiDi one). Like every
mini program it runs in WeChat's process (package ``com.tencent.mm``, activity ``AppBrandUI``),
its pages a web view of generic ``android.view.View`` nodes under WeChat's title bar with the
capsule ("More", "Close"); WeChat opens it (Mini Programs, the search, a shared card).

Pages: the tabs "Ride", "Trips" and "Me". "Ride" has the pickup ("From", the current location
unless another is chosen) and the destination ("Where to?"), the saved places (Home, Work, ...)
as shortcuts, and a banner for a ride in progress. Choosing a place opens the place search: a
search box with the saved places and, as you type, the suggestions of the map (``places``, by
name or address). With both ends chosen, the ride options page shows the distance and, for
Economy, Comfort and XL, the seats, how far the nearest car is and the estimated fare; "Request"
pays the estimated fare at once through the WeChat Pay sheet (``wechat.WeChatPay``) and writes a
``trips`` record with the status "requested". A trip's page shows its status, the driver once
one has accepted, the route and the fare; "Cancel Ride" (while no trip is under way) asks for a
reason, then for confirmation, and the prepaid fare goes back to WeChat Pay. "Trips" lists the
trip history; "Me" has the saved places (change, add, remove) and the current location.

Only one ride can be open at a time (requested, accepted or in progress). Money is in cents;
distances are computed from the places' map coordinates.
"""

from __future__ import annotations

import math
from typing import Any

from tasklang.envs.phoneworld import widgets as w
from tasklang.envs.phoneworld.app import Ctx, Dialog, Route, Screen
from tasklang.envs.phoneworld.apps.miniprogram import MiniProgram, next_number, node, when
from tasklang.envs.phoneworld.apps.wechat import label_of, money, stamp
from tasklang.envs.phoneworld.widgets import View

TIERS = (("economy", "Economy"), ("comfort", "Comfort"), ("xl", "XL"))
SEATS = {"economy": 4, "comfort": 4, "xl": 6}
BASE_FARE = {"economy": 250, "comfort": 400, "xl": 550}  # cents
PER_KM = {"economy": 70, "comfort": 110, "xl": 150}  # cents per km
CAR_MINUTES = {"economy": 3, "comfort": 5, "xl": 8}  # the nearest car, minutes away
ROAD_FACTOR = 1.3  # road distance against the straight line
STATUS = {
    "requested": "Looking for a driver",
    "accepted": "Driver on the way",
    "in_progress": "On the trip",
    "completed": "Completed",
    "cancelled": "Cancelled",
}
STATUS_NOTE = {
    "requested": "Nearby drivers are being notified of your request.",
    "accepted": "Your driver is heading to the pickup point.",
    "in_progress": "Enjoy your ride.",
    "completed": "Thanks for riding with us.",
    "cancelled": "Ride cancelled. The fare goes back to WeChat Pay within 1-3 business days.",
}
OPEN = ("requested", "accepted", "in_progress")
CANCELLABLE = ("requested", "accepted")
REASONS = (
    "Plans changed",
    "Driver is too far away",
    "Wrong pickup location",
    "Booked by mistake",
    "Waited too long",
    "Other reason",
)
REQUEST_FLOW = ("pay", "options", "pick")


# ------------------------------------------------------------------ values
def distance_km(a: dict[str, Any] | None, b: dict[str, Any] | None) -> float:
    """The road distance between two places (at least 1 km)."""
    if a is None or b is None:
        return 0.0
    dx = float(a.get("x_km") or 0) - float(b.get("x_km") or 0)
    dy = float(a.get("y_km") or 0) - float(b.get("y_km") or 0)
    return max(1.0, round(math.hypot(dx, dy) * ROAD_FACTOR, 1))


def fare(tier: str, km: float) -> int:
    """The estimated fare in cents, to the nearest 10 cents."""
    cents = BASE_FARE.get(tier, 0) + PER_KM.get(tier, 0) * km
    return round(cents / 10.0) * 10


def minutes(km: float) -> int:
    return round(km * 2.4 + 3)


class RideApp(MiniProgram):
    model = "ride"
    label = "Rides"
    home = "ride"
    tabs = (("ride", "Ride"), ("trips", "Trips"), ("me", "Me"))

    # ============================================================== reading
    def place(self, ctx: Ctx, name: Any) -> dict[str, Any] | None:
        return ctx.find("places", lambda p: p.get("name") == name)

    def saved(self, ctx: Ctx, label: Any) -> dict[str, Any] | None:
        return ctx.find("saved_places", lambda s: s.get("label") == label)

    def trip(self, ctx: Ctx, trip_no: Any) -> dict[str, Any] | None:
        return ctx.find("trips", lambda t: t.get("trip_no") == trip_no)

    def open_trip(self, ctx: Ctx) -> dict[str, Any] | None:
        return ctx.find("trips", lambda t: t.get("status") in OPEN)

    def location(self, ctx: Ctx) -> str:
        return str(ctx.setting("location") or "")

    # ============================================================== tab pages
    def screen_ride(self, ctx: Ctx, route: Route) -> Screen:
        screen = self.page(ctx, self.label, "ride")
        pickup = ctx.form("pickup") or self.location(ctx)
        destination = ctx.form("destination")
        rows = []
        current = self.open_trip(ctx)
        if current is not None:
            rows.append(
                node(
                    key="open_trip",
                    arg=current.get("trip_no"),
                    rid="trip-banner",
                    horizontal=True,
                    height=140,
                    children=[
                        node(
                            STATUS.get(str(current.get("status")), ""),
                            rid="trip-banner-status",
                            weight=0.5,
                        ),
                        node(
                            f"To {current.get('destination')}",
                            rid="trip-banner-destination",
                            weight=0.5,
                        ),
                    ],
                )
            )
        rows += [
            node(
                f"You are near {pickup}" if pickup else "Locating you…", rid="map-view", height=320
            ),
            self.end_row("From", pickup or "Choose pickup location", "pickup"),
            self.end_row("To", destination or "Where to?", "destination"),
        ]
        shortcuts = [
            node(str(s.get("label")), "go_saved", s.get("label"), rid="saved-place-chip")
            for s in ctx.records("saved_places")
        ]
        if shortcuts:
            rows.append(node("Saved Places", rid="section-title", height=90))
            for i in range(0, len(shortcuts), 3):
                rows.append(
                    node(
                        rid="saved-places",
                        horizontal=True,
                        height=120,
                        children=shortcuts[i : i + 3],
                    )
                )
        screen.rows = rows
        return screen

    def end_row(self, name: str, value: str, field: str) -> View:
        return node(
            key="pick",
            arg=field,
            rid=f"{field}-row",
            horizontal=True,
            height=140,
            children=[
                node(name, rid="end-label", weight=0.2),
                node(value, rid=f"{field}-name", weight=0.8),
            ],
        )

    def screen_trips(self, ctx: Ctx, route: Route) -> Screen:
        screen = self.page(ctx, "My Trips", "trips")
        trips = sorted(
            ctx.records("trips"), key=lambda t: str(t.get("requested_at") or ""), reverse=True
        )
        screen.rows = [self.trip_card(t) for t in trips] or [
            node("No trips yet", rid="trips-empty", height=300)
        ]
        return screen

    def trip_card(self, trip: dict[str, Any]) -> View:
        """A trip in the history: when, its status, from and to, the class and fare, its
        number, whether it is paid, and why it was cancelled."""
        status = str(trip.get("status") or "requested")
        why = trip.get("cancel_reason")
        reason = [] if why is None else [node(f"Reason: {why}", rid="trip-reason", height=70)]
        return node(
            key="open_trip",
            arg=trip.get("trip_no"),
            rid="trip-item",
            children=[
                node(
                    horizontal=True,
                    height=90,
                    children=[
                        node(when(trip.get("requested_at")), rid="trip-time", weight=0.55),
                        node(
                            "Cancelled" if status == "cancelled" else STATUS.get(status, ""),
                            rid="trip-status",
                            weight=0.45,
                        ),
                    ],
                ),
                node(str(trip.get("pickup") or ""), rid="trip-pickup", desc="from", height=70),
                node(
                    str(trip.get("destination") or ""), rid="trip-destination", desc="to", height=70
                ),
                node(
                    horizontal=True,
                    height=80,
                    children=[
                        node(label_of(TIERS, trip.get("tier")), rid="trip-tier"),
                        node(money(trip.get("fare")), rid="trip-fare"),
                    ],
                ),
                node(
                    horizontal=True,
                    height=70,
                    children=[
                        node(f"Trip {trip.get('trip_no')}", rid="trip-no"),
                        node("Paid" if trip.get("paid", True) else "Unpaid", rid="trip-paid"),
                    ],
                ),
                *reason,
            ],
        )

    def screen_me(self, ctx: Ctx, route: Route) -> Screen:
        screen = self.page(ctx, "Me", "me")
        saved = ctx.records("saved_places")
        screen.rows = [
            self.field_row("Current Location", self.location(ctx), "pick", "location"),
            self.field_row("Saved Places", str(len(saved)), "open_saved"),
            self.field_row("Trips", str(len(ctx.records("trips"))), "tab", "trips"),
            self.field_row("Payment", "WeChat Pay"),
        ]
        return screen

    # ============================================================== choosing places
    def on_pick(self, ctx: Ctx, arg: Any) -> None:
        self.push_focused(ctx, "pick", "query", field=str(arg))

    def screen_pick(self, ctx: Ctx, route: Route) -> Screen:
        field = str(route.arg("field"))
        titles = {
            "pickup": "Pickup Location",
            "destination": "Destination",
            "location": "Current Location",
            "saved": f"Set {route.arg('label')}",
            "new": "Add a Place",
        }
        screen = self.page(ctx, titles.get(field, "Choose a Place"))
        hints = {"pickup": "Where should the driver pick you up?", "destination": "Where to?"}
        header = []
        if field == "new":
            header.append(
                View(
                    w.EDIT,
                    rid="place-label-input",
                    edit="label",
                    hint="Name (e.g. Gym)",
                    height=130,
                )
            )
        header.append(self.search_box(hints.get(field, "Search for an address")))
        screen.header = header
        needle = ctx.form("query").strip().casefold()
        rows: list[View] = []
        if not needle and field in ("pickup", "destination"):
            saved = [(s, self.place(ctx, s.get("place"))) for s in ctx.records("saved_places")]
            if saved:
                rows.append(node("Saved Places", rid="section-title", height=90))
                rows += [
                    self.place_row(p, field, str(s.get("label"))) for s, p in saved if p is not None
                ]
            here = self.place(ctx, self.location(ctx))
            if field == "pickup" and here is not None:
                rows.insert(0, self.place_row(here, field, "Current Location"))
        elif needle:
            found = [
                p
                for p in ctx.records("places")
                if needle in str(p.get("name") or "").casefold()
                or needle in str(p.get("address") or "").casefold()
            ]
            rows = [self.place_row(p, field) for p in found] or [
                node(
                    f"No results for “{ctx.form('query').strip()}”", rid="search-empty", height=200
                )
            ]
        screen.rows = rows
        return screen

    def place_row(self, place: dict[str, Any], field: str, badge: str = "") -> View:
        kids = []
        if badge:
            kids.append(node(badge, rid="place-badge", height=70))
        kids += [
            node(str(place.get("name")), rid="place-name", desc="place", height=80),
            node(str(place.get("address") or ""), rid="place-address", height=70),
        ]
        return node(key="choose_place", arg=place.get("name"), rid="place-item", children=kids)

    def on_choose_place(self, ctx: Ctx, arg: Any) -> None:
        route = ctx.route
        assert route is not None and route.screen == "pick"
        field = str(route.arg("field"))
        name = str(arg)
        below = self.opener(ctx)
        if field == "location":
            if ctx.setting("location") != name:
                ctx.set("location", name)
            ctx.back()
            return
        if field == "saved":
            label = route.arg("label")
            saved = self.saved(ctx, label)
            if saved is not None and saved.get("place") != name:
                ctx.update("saved_places", saved, place=name)
            ctx.back()
            return
        if field == "new":
            label = ctx.form("label").strip()
            if not label:
                ctx.toast("Enter a name for this place")
                return
            if self.saved(ctx, label) is not None:
                ctx.toast(f"{label} is already a saved place")
                return
            ctx.add("saved_places", {"label": label, "place": name})
            ctx.hide_keyboard()
            ctx.back()
            return
        ctx.hide_keyboard()
        if below is not None and below.screen == "options":
            ctx.set_form(field, name, below)
            ctx.back()
            return
        if below is not None:
            ctx.set_form(field, name, below)
            pickup = ctx.phone.forms.get(below.id, {}).get("pickup") or self.location(ctx)
            destination = ctx.phone.forms.get(below.id, {}).get("destination", "")
            if pickup and destination:
                self.show_options(ctx, pickup, destination)
                return
        ctx.back()

    def show_options(self, ctx: Ctx, pickup: str, destination: str) -> None:
        route = (
            ctx.replace("options")
            if ctx.route and ctx.route.screen == "pick"
            else ctx.push("options")
        )
        ctx.set_form("pickup", pickup, route)
        ctx.set_form("destination", destination, route)

    def on_go_saved(self, ctx: Ctx, arg: Any) -> None:
        saved = self.saved(ctx, arg)
        if saved is None or self.place(ctx, saved.get("place")) is None:
            ctx.toast("Set this place's address first")
            return
        pickup = ctx.form("pickup") or self.location(ctx)
        if not pickup:
            ctx.toast("Choose a pickup location first")
            return
        ctx.set_form("destination", str(saved.get("place")))
        self.show_options(ctx, pickup, str(saved.get("place")))

    # ============================================================== ride options
    def screen_options(self, ctx: Ctx, route: Route) -> Screen:
        screen = self.page(ctx, "Choose a Ride")
        pickup, destination = ctx.form("pickup"), ctx.form("destination")
        km = distance_km(self.place(ctx, pickup), self.place(ctx, destination))
        tier = ctx.form("tier") or "economy"
        screen.header = [
            self.end_row("From", pickup, "pickup"),
            self.end_row("To", destination, "destination"),
            node(f"{km:.1f} km · about {minutes(km)} min", rid="route-summary", height=100),
        ]
        screen.rows = [
            node(
                key="choose_tier",
                arg=key,
                rid="ride-option",
                selected=key == tier,
                horizontal=True,
                height=170,
                children=[
                    node(
                        weight=0.6,
                        children=[
                            node(text, rid="ride-option-name", desc="ride option", height=80),
                            node(
                                f"{SEATS[key]} seats · {CAR_MINUTES[key]} min away",
                                rid="ride-option-info",
                                height=70,
                            ),
                        ],
                    ),
                    node(f"Est. {money(fare(key, km))}", rid="ride-option-fare", weight=0.4),
                ],
            )
            for key, text in TIERS
        ]
        screen.footer = [
            node(
                f"Request {label_of(TIERS, tier)}",
                "request",
                rid="request-ride",
                height=160,
            )
        ]
        return screen

    def on_choose_tier(self, ctx: Ctx, arg: Any) -> None:
        ctx.set_form("tier", str(arg))

    def on_request(self, ctx: Ctx, arg: Any) -> None:
        pickup, destination = ctx.form("pickup"), ctx.form("destination")
        start, end = self.place(ctx, pickup), self.place(ctx, destination)
        if start is None or end is None:
            ctx.toast("Choose the pickup and destination")
            return
        if pickup == destination:
            ctx.toast("The pickup and destination are the same place")
            return
        current = self.open_trip(ctx)
        if current is not None:
            ctx.dialog(
                Dialog(
                    "You have a ride in progress",
                    message=f"Your ride to {current.get('destination')} is still open. Finish "
                    "or cancel it before requesting another.",
                    buttons=[
                        ("View Ride", "open_trip", current.get("trip_no")),
                        ("OK", None, None),
                    ],
                )
            )
            return
        tier = ctx.form("tier") or "economy"
        km = distance_km(start, end)
        ctx.push(
            "pay", pickup=pickup, destination=destination, tier=tier, km=km, fare=fare(tier, km)
        )

    def screen_pay(self, ctx: Ctx, route: Route) -> Screen:
        return self.pay_sheet(
            ctx,
            f"{self.label} · {label_of(TIERS, route.arg('tier'))}",
            int(route.arg("fare")),
            "ride_pay",
        )

    def on_ride_pay(self, ctx: Ctx, arg: Any) -> None:
        route = ctx.route
        assert route is not None and route.screen == "pay"
        args = dict(route.args)
        if self.open_trip(ctx) is not None or not self.charge(ctx, int(args["fare"])):
            return
        trip_no = next_number(ctx.records("trips"), "trip_no", "T", 1000)
        ctx.add(
            "trips",
            {
                "trip_no": trip_no,
                "pickup": args["pickup"],
                "destination": args["destination"],
                "tier": args["tier"],
                "fare": int(args["fare"]),
                "distance_km": float(args["km"]),
                "status": "requested",
                "requested_at": stamp(ctx.now),
                "driver": None,
                "car": None,
                "plate": None,
                "cancel_reason": None,
                "paid": True,
            },
        )
        stack = ctx.phone.stacks.get(self.model, [])
        while len(stack) > 1 and stack[-1].screen in REQUEST_FLOW:
            ctx.back()
        if stack and stack[-1].screen == "ride":
            ctx.replace("ride")  # the request is made: the ride page starts over
        ctx.push("trip", trip_no=trip_no)
        ctx.toast("Ride requested")

    # ============================================================== a trip
    def on_open_trip(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("trip", trip_no=str(arg))

    def screen_trip(self, ctx: Ctx, route: Route) -> Screen:
        trip = self.trip(ctx, route.arg("trip_no"))
        screen = self.page(ctx, "Trip Details")
        if trip is None:
            screen.rows = [node("Trip not found", rid="trip-missing", height=300)]
            return screen
        status = str(trip.get("status") or "requested")
        rows = [
            node(STATUS.get(status, status), rid="trip-status", height=130),
            node(STATUS_NOTE.get(status, ""), rid="trip-status-note", height=110),
        ]
        if trip.get("driver") and status != "requested":
            rows.append(
                node(
                    rid="driver-card",
                    horizontal=True,
                    height=150,
                    children=[
                        node(str(trip.get("driver")), rid="driver-name", weight=0.4),
                        node(str(trip.get("car") or ""), rid="driver-car", weight=0.35),
                        node(str(trip.get("plate") or ""), rid="driver-plate", weight=0.25),
                    ],
                )
            )
        rows += [
            self.field_row("Trip No.", str(trip.get("trip_no"))),
            self.field_row("From", str(trip.get("pickup") or "")),
            self.field_row("To", str(trip.get("destination") or "")),
            self.field_row("Ride", label_of(TIERS, trip.get("tier"))),
            self.field_row("Distance", f"{float(trip.get('distance_km') or 0):.1f} km"),
            self.field_row("Requested At", when(trip.get("requested_at"))),
            self.field_row(
                "Fare", money(trip.get("fare")) + (" (paid)" if trip.get("paid", True) else "")
            ),
        ]
        if status == "cancelled" and trip.get("cancel_reason"):
            rows.append(self.field_row("Cancel Reason", str(trip.get("cancel_reason"))))
        screen.rows = rows
        if status in CANCELLABLE:
            screen.footer = [
                node(
                    "Cancel Ride", "cancel_ask", trip.get("trip_no"), rid="cancel-ride", height=150
                )
            ]
        return screen

    def on_cancel_ask(self, ctx: Ctx, arg: Any) -> None:
        trip = self.trip(ctx, arg)
        if trip is None or trip.get("status") not in CANCELLABLE:
            return
        items = [
            View(
                w.LINEAR,
                clickable=True,
                focusable=True,
                on_click="cancel_reason",
                arg=(arg, reason),
                height=140,
                children=[View(w.TEXT, text=reason, rid="android:id/text1")],
            )
            for reason in REASONS
        ]
        ctx.dialog(
            Dialog("Why are you cancelling?", items=items, buttons=[("Keep Ride", None, None)])
        )

    def on_cancel_reason(self, ctx: Ctx, arg: Any) -> None:
        trip_no, reason = arg
        trip = self.trip(ctx, trip_no)
        if trip is None or trip.get("status") not in CANCELLABLE:
            return
        ctx.dialog(
            Dialog(
                "Cancel this ride?",
                message=f"Reason: {reason}. The fare of {money(trip.get('fare'))} goes back to "
                "WeChat Pay within 1-3 business days.",
                buttons=[("Confirm", "cancel_trip", arg), ("Keep Ride", None, None)],
            )
        )

    def on_cancel_trip(self, ctx: Ctx, arg: Any) -> None:
        trip_no, reason = arg
        trip = self.trip(ctx, trip_no)
        if trip is None or trip.get("status") not in CANCELLABLE:
            return
        ctx.update("trips", trip, status="cancelled", cancel_reason=reason)
        ctx.toast("Ride cancelled")

    # ============================================================== saved places
    def on_open_saved(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("saved")

    def screen_saved(self, ctx: Ctx, route: Route) -> Screen:
        screen = self.page(ctx, "Saved Places")
        rows = []
        for s in ctx.records("saved_places"):
            place = self.place(ctx, s.get("place"))
            rows.append(
                node(
                    rid="saved-item",
                    horizontal=True,
                    height=170,
                    children=[
                        node(
                            key="pick_saved",
                            arg=s.get("label"),
                            weight=0.75,
                            children=[
                                node(
                                    str(s.get("label")),
                                    rid="saved-label",
                                    desc="saved place",
                                    height=80,
                                ),
                                node(
                                    str(place.get("name")) if place else "Not set",
                                    rid="saved-place",
                                    height=70,
                                ),
                            ],
                        ),
                        node(
                            "Remove", "remove_ask", s.get("label"), rid="saved-remove", weight=0.25
                        ),
                    ],
                )
            )
        screen.rows = rows or [node("No saved places", rid="saved-empty", height=300)]
        screen.footer = [node("Add a Place", "add_place", rid="add-place", height=150)]
        return screen

    def on_pick_saved(self, ctx: Ctx, arg: Any) -> None:
        self.push_focused(ctx, "pick", "query", field="saved", label=str(arg))

    def on_add_place(self, ctx: Ctx, arg: Any) -> None:
        self.push_focused(ctx, "pick", "label", field="new")

    def on_remove_ask(self, ctx: Ctx, arg: Any) -> None:
        ctx.dialog(
            Dialog(
                f"Remove {arg}?",
                message="This place is removed from your saved places.",
                buttons=[("Remove", "remove_saved", arg), ("Cancel", None, None)],
            )
        )

    def on_remove_saved(self, ctx: Ctx, arg: Any) -> None:
        saved = self.saved(ctx, arg)
        if saved is not None:
            ctx.delete("saved_places", saved)


APP = RideApp
