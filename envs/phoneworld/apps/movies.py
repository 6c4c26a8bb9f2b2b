"""Movie Tickets: a cinema ticketing mini program inside WeChat (in the style of the Maoyan
one). It runs in WeChat's process (``com.tencent.mm``, ``AppBrandUI``) as a web view of generic
``android.view.View`` nodes under WeChat's title bar and capsule (see ``ride.MiniProgram``).

Pages: the tabs "Movies" (the films now showing, with genre, length and rating), "Cinemas"
(by distance) and "Orders". A film's page lists the cinemas that show it; a cinema's page has
a chip per film it shows and per day with showtimes, and the showtimes of the chosen film and
day (start and end time, hall, format, price; past ones are not sold). A showtime opens the
seat map: the screen, then a row per seat row with a view per seat ("Row 5 Seat 7"), the seats
already sold disabled; up to ``MAX_SEATS`` seats are chosen by tapping them. "Confirm Seats"
opens the order confirmation (the seats, the price, the refund rule), and "Submit Order" the
WeChat Pay sheet (``wechat.WeChatPay``). Paying writes the ``orders`` record, one ``tickets``
record per seat, and marks the seats sold on the showtime. An order's page shows the pickup code and, until
``REFUND_BEFORE`` before the show, "Refund" (confirmed): the order becomes "refunded", its seats
are sold again and the money goes back to WeChat Pay. "Refund Rules" explains this.

Seats are written "ROW-SEAT" in a showtime's ``taken`` list ("5-7"). Money is in cents.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from tasklang.envs.phoneworld.app import Ctx, Dialog, Route, Screen
from tasklang.envs.phoneworld.apps.miniprogram import MiniProgram, next_number, node, when
from tasklang.envs.phoneworld.apps.wechat import money, parse_time, stamp
from tasklang.envs.phoneworld.widgets import View

MAX_SEATS = 6
REFUND_BEFORE = dt.timedelta(hours=1)
STATUS = {"paid": "Paid", "refunded": "Refunded", "used": "Completed"}
BUY_FLOW = ("pay", "confirm", "seats")
RULES = (
    "Tickets can be refunded up to 1 hour before the show starts.",
    "A refund covers the whole order: all of its seats are released.",
    "The money goes back to WeChat Pay within 1-3 business days.",
    "Tickets cannot be changed to another showtime; refund and buy again.",
    "After the show has started, tickets can no longer be refunded.",
)


def seat_key(row: int, seat: int) -> str:
    return f"{row}-{seat}"


def seat_text(row: int, seat: int) -> str:
    return f"Row {row} Seat {seat}"


def clock(value: Any) -> str:
    moment = parse_time(value)
    return moment.strftime("%H:%M") if moment else ""


def day_label(day: dt.date, today: dt.date) -> str:
    names = {0: "Today", 1: "Tomorrow"}
    prefix = names.get((day - today).days, day.strftime("%a"))
    return f"{prefix} {day.month}/{day.day}"


class MoviesApp(MiniProgram):
    model = "movies"
    label = "Movie Tickets"
    home = "films"
    tabs = (("films", "Movies"), ("cinemas", "Cinemas"), ("orders", "Orders"))

    # ============================================================== reading
    def film(self, ctx: Ctx, title: Any) -> dict[str, Any] | None:
        return ctx.find("films", lambda f: f.get("title") == title)

    def show(self, ctx: Ctx, show_id: Any) -> dict[str, Any] | None:
        return ctx.find("showtimes", lambda s: s.get("show_id") == show_id)

    def order(self, ctx: Ctx, order_no: Any) -> dict[str, Any] | None:
        return ctx.find("orders", lambda o: o.get("order_no") == order_no)

    def upcoming(self, ctx: Ctx, **match: Any) -> list[dict[str, Any]]:
        """The showtimes not yet started that match the given fields, earliest first."""
        now = ctx.now
        found = [
            s
            for s in ctx.records("showtimes")
            if all(s.get(k) == v for k, v in match.items())
            and (parse_time(s.get("starts")) or now) > now
        ]
        return sorted(found, key=lambda s: str(s.get("starts") or ""))

    def ends(self, ctx: Ctx, show: dict[str, Any]) -> str:
        film = self.film(ctx, show.get("film"))
        start = parse_time(show.get("starts"))
        if start is None or film is None:
            return ""
        return (start + dt.timedelta(minutes=int(film.get("duration_min") or 0))).strftime("%H:%M")

    def refundable(self, ctx: Ctx, order: dict[str, Any]) -> bool:
        start = parse_time(order.get("starts"))
        return (
            order.get("status") == "paid" and start is not None and ctx.now <= start - REFUND_BEFORE
        )

    # ============================================================== tab pages
    def screen_films(self, ctx: Ctx, route: Route) -> Screen:
        screen = self.page(ctx, self.label, "films")
        showing = {s.get("film") for s in self.upcoming(ctx)}
        films = [f for f in ctx.records("films") if f.get("title") in showing]
        films.sort(key=lambda f: -float(f.get("rating") or 0))
        screen.rows = [self.film_card(f) for f in films] or [
            node("No films showing", rid="films-empty", height=300)
        ]
        return screen

    def film_card(self, film: dict[str, Any]) -> View:
        return node(
            rid="film-item",
            horizontal=True,
            height=220,
            children=[
                node(
                    key="open_film",
                    arg=film.get("title"),
                    weight=0.75,
                    children=[
                        node(str(film.get("title")), rid="film-title", desc="film", height=90),
                        node(
                            f"{film.get('genre') or ''} · {film.get('duration_min') or 0} min",
                            rid="film-info",
                            height=65,
                        ),
                        node(
                            f"Rating {float(film.get('rating') or 0):.1f}",
                            rid="film-rating",
                            height=65,
                        ),
                    ],
                ),
                node("Buy", "open_film", film.get("title"), rid="film-buy", weight=0.25),
            ],
        )

    def screen_cinemas(self, ctx: Ctx, route: Route) -> Screen:
        screen = self.page(ctx, "Cinemas", "cinemas")
        cinemas = sorted(ctx.records("cinemas"), key=lambda c: float(c.get("distance_km") or 0))
        screen.rows = [self.cinema_card(ctx, c, None) for c in cinemas] or [
            node("No cinemas nearby", rid="cinemas-empty", height=300)
        ]
        return screen

    def cinema_card(self, ctx: Ctx, cinema: dict[str, Any], film: str | None) -> View:
        match = {"cinema": cinema.get("name")}
        if film:
            match["film"] = film
        shows = self.upcoming(ctx, **match)
        cheapest = min((int(s.get("price") or 0) for s in shows), default=None)
        return node(
            key="open_cinema",
            arg=(cinema.get("name"), film),
            rid="cinema-item",
            children=[
                node(str(cinema.get("name")), rid="cinema-name", desc="cinema", height=90),
                node(str(cinema.get("address") or ""), rid="cinema-address", height=70),
                node(
                    horizontal=True,
                    height=70,
                    children=[
                        node(
                            f"{float(cinema.get('distance_km') or 0):.1f} km", rid="cinema-distance"
                        ),
                        node(
                            f"From {money(cheapest)}" if cheapest is not None else "No showtimes",
                            rid="cinema-price",
                        ),
                        node(
                            f"Next {clock(shows[0].get('starts'))}" if shows else "",
                            rid="cinema-next",
                        ),
                    ],
                ),
            ],
        )

    def screen_orders(self, ctx: Ctx, route: Route) -> Screen:
        screen = self.page(ctx, "My Orders", "orders")
        orders = sorted(
            ctx.records("orders"), key=lambda o: str(o.get("placed_at") or ""), reverse=True
        )
        screen.header = [node("Refund Rules", "open_rules", rid="refund-rules-link", height=100)]
        screen.rows = [self.order_card(ctx, o) for o in orders] or [
            node("No orders yet", rid="orders-empty", height=300)
        ]
        return screen

    def status_text(self, ctx: Ctx, order: dict[str, Any]) -> str:
        status = str(order.get("status") or "paid")
        start = parse_time(order.get("starts"))
        if status == "paid" and start is not None and start <= ctx.now:
            status = "used"
        return STATUS.get(status, status)

    def order_card(self, ctx: Ctx, order: dict[str, Any]) -> View:
        """An order in the list: film and status, cinema, start, the number of tickets and
        the total, the order number, and a chip per ticket's seat."""
        seats = order.get("seats") or []
        no = order.get("order_no")
        chips = [
            node(f"Row {t.get('row')} Seat {t.get('seat')}", rid="order-card-seat", weight=1.0)
            for t in ctx.records("tickets")
            if t.get("order_no") == no
        ]
        return node(
            key="open_order",
            arg=order.get("order_no"),
            rid="order-item",
            children=[
                node(
                    horizontal=True,
                    height=90,
                    children=[
                        node(str(order.get("film")), rid="order-film", desc="order", weight=0.6),
                        node(self.status_text(ctx, order), rid="order-status", weight=0.4),
                    ],
                ),
                node(str(order.get("cinema") or ""), rid="order-cinema", height=70),
                node(when(order.get("starts")), rid="order-time", height=70),
                node(
                    horizontal=True,
                    height=80,
                    children=[
                        node(
                            f"{len(seats)} ticket{'s' if len(seats) != 1 else ''}",
                            rid="order-count",
                        ),
                        node(money(order.get("total")), rid="order-total"),
                    ],
                ),
                node(f"Order No. {no}", rid="order-no", height=70),
                *[
                    node(
                        rid="order-card-seats",
                        horizontal=True,
                        height=70,
                        children=chips[i : i + 3],
                    )
                    for i in range(0, len(chips), 3)
                ],
            ],
        )

    # ============================================================== a film, a cinema
    def on_open_film(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("film", title=str(arg))

    def screen_film(self, ctx: Ctx, route: Route) -> Screen:
        title = str(route.arg("title"))
        film = self.film(ctx, title)
        screen = self.page(ctx, title)
        if film is None:
            screen.rows = [node("This film is no longer showing", rid="film-missing", height=300)]
            return screen
        showing = {s.get("cinema") for s in self.upcoming(ctx, film=title)}
        cinemas = sorted(
            (c for c in ctx.records("cinemas") if c.get("name") in showing),
            key=lambda c: float(c.get("distance_km") or 0),
        )
        screen.header = [
            node(title, rid="film-title", desc="film", height=100),
            node(
                f"{film.get('genre') or ''} · {film.get('duration_min') or 0} min · "
                f"{film.get('language') or 'English'}",
                rid="film-info",
                height=70,
            ),
            node(f"Rating {float(film.get('rating') or 0):.1f}", rid="film-rating", height=70),
            node("Cinemas showing this film", rid="section-title", height=90),
        ]
        screen.rows = [self.cinema_card(ctx, c, title) for c in cinemas] or [
            node("No showtimes", rid="cinemas-empty", height=300)
        ]
        return screen

    def on_open_cinema(self, ctx: Ctx, arg: Any) -> None:
        name, film = arg
        route = ctx.push("cinema", name=str(name))
        if film:
            ctx.set_form("film", str(film), route)

    def screen_cinema(self, ctx: Ctx, route: Route) -> Screen:
        name = str(route.arg("name"))
        cinema = ctx.find("cinemas", lambda c: c.get("name") == name)
        screen = self.page(ctx, name)
        shows = self.upcoming(ctx, cinema=name)
        films = list(dict.fromkeys(str(s.get("film")) for s in shows))
        film = ctx.form("film") if ctx.form("film") in films else (films[0] if films else "")
        of_film = [s for s in shows if s.get("film") == film]
        days = list(dict.fromkeys(str(s.get("starts"))[:10] for s in of_film))
        day = ctx.form("day") if ctx.form("day") in days else (days[0] if days else "")
        today = ctx.now.date()
        header = [
            node(
                str(cinema.get("address") or "") if cinema else "", rid="cinema-address", height=80
            )
        ]
        if films:
            header.append(
                node(
                    rid="film-chips",
                    horizontal=True,
                    height=110,
                    children=[
                        node(f, "pick_film", f, rid="film-chip", selected=f == film) for f in films
                    ],
                )
            )
            header.append(
                node(
                    rid="day-chips",
                    horizontal=True,
                    height=110,
                    children=[
                        node(
                            day_label(dt.date.fromisoformat(d), today),
                            "pick_day",
                            d,
                            rid="day-chip",
                            selected=d == day,
                        )
                        for d in days
                    ],
                )
            )
        screen.header = header
        screen.rows = [
            self.show_row(ctx, s) for s in of_film if str(s.get("starts"))[:10] == day
        ] or [node("No showtimes", rid="shows-empty", height=300)]
        return screen

    def show_row(self, ctx: Ctx, show: dict[str, Any]) -> View:
        total = int(show.get("rows") or 0) * int(show.get("seats_per_row") or 0)
        left = total - len(show.get("taken") or [])
        return node(
            key="open_seats",
            arg=show.get("show_id"),
            rid="show-item",
            horizontal=True,
            height=170,
            children=[
                node(
                    weight=0.3,
                    children=[
                        node(
                            clock(show.get("starts")), rid="show-start", desc="showtime", height=90
                        ),
                        node(f"Ends {self.ends(ctx, show)}", rid="show-end", height=70),
                    ],
                ),
                node(
                    weight=0.4,
                    children=[
                        node(
                            f"{show.get('format') or '2D'} · {show.get('hall') or ''}",
                            rid="show-hall",
                            height=90,
                        ),
                        node(
                            f"{left} seats left" if left else "Sold out", rid="show-left", height=70
                        ),
                    ],
                ),
                node(money(show.get("price")), rid="show-price", weight=0.15),
                node("Buy", "open_seats", show.get("show_id"), rid="show-buy", weight=0.15),
            ],
        )

    def on_pick_film(self, ctx: Ctx, arg: Any) -> None:
        ctx.set_form("film", str(arg))
        ctx.set_form("day", "")

    def on_pick_day(self, ctx: Ctx, arg: Any) -> None:
        ctx.set_form("day", str(arg))

    # ============================================================== seats
    def on_open_seats(self, ctx: Ctx, arg: Any) -> None:
        show = self.show(ctx, arg)
        if show is None or (parse_time(show.get("starts")) or ctx.now) <= ctx.now:
            ctx.toast("This showtime is no longer on sale")
            return
        ctx.push("seats", show_id=str(arg))

    def chosen(self, ctx: Ctx) -> list[tuple[int, int]]:
        picked = [p for p in ctx.form("seats").split(",") if p]
        out = []
        for p in picked:
            r, s = p.split("-")
            out.append((int(r), int(s)))
        return sorted(out)

    def screen_seats(self, ctx: Ctx, route: Route) -> Screen:
        show = self.show(ctx, route.arg("show_id"))
        screen = self.page(ctx, "Select Seats")
        if show is None:
            screen.rows = [node("Showtime not found", rid="show-missing", height=300)]
            return screen
        taken = set(show.get("taken") or [])
        chosen = set(self.chosen(ctx))
        screen.header = [
            node(str(show.get("film")), rid="seats-film", height=90),
            node(
                f"{show.get('cinema')} · {when(show.get('starts'))} · {show.get('hall') or ''}",
                rid="seats-show",
                height=80,
            ),
            node("SCREEN", rid="seat-screen", height=80),
        ]
        rows = []
        for r in range(1, int(show.get("rows") or 0) + 1):
            seats = [node(str(r), rid="row-label", desc=f"Row {r}", weight=0.8)]
            for s in range(1, int(show.get("seats_per_row") or 0) + 1):
                sold = seat_key(r, s) in taken
                mine = (r, s) in chosen
                state = "sold" if sold else "selected" if mine else "available"
                seats.append(
                    View(
                        "android.view.View",
                        text=str(s),
                        rid="seat",
                        desc=f"{seat_text(r, s)}, {state}",
                        clickable=True,
                        focusable=True,
                        enabled=not sold,
                        selected=mine,
                        on_click="toggle_seat",
                        arg=(r, s),
                    )
                )
            rows.append(node(rid="seat-row", horizontal=True, height=110, children=seats))
        screen.rows = rows
        price = int(show.get("price") or 0)
        picked = sorted(chosen)
        screen.footer = [
            node(
                ", ".join(seat_text(r, s) for r, s in picked) or "Tap seats to choose them",
                rid="seats-chosen",
                height=110,
            ),
            node(
                rid="seats-footer",
                horizontal=True,
                height=150,
                children=[
                    node(money(price * len(picked)), rid="seats-total", weight=0.5),
                    node("Confirm Seats", "confirm_seats", rid="confirm-seats", weight=0.5),
                ],
            ),
        ]
        return screen

    def on_toggle_seat(self, ctx: Ctx, arg: Any) -> None:
        route = ctx.route
        assert route is not None
        show = self.show(ctx, route.arg("show_id"))
        if show is None:
            return
        r, s = arg
        if seat_key(r, s) in (show.get("taken") or []):
            ctx.toast("This seat is sold")
            return
        chosen = self.chosen(ctx)
        if (r, s) in chosen:
            chosen.remove((r, s))
        elif len(chosen) >= MAX_SEATS:
            ctx.toast(f"You can choose up to {MAX_SEATS} seats")
            return
        else:
            chosen.append((r, s))
        ctx.set_form("seats", ",".join(seat_key(a, b) for a, b in sorted(chosen)))

    def on_confirm_seats(self, ctx: Ctx, arg: Any) -> None:
        route = ctx.route
        assert route is not None
        chosen = self.chosen(ctx)
        if not chosen:
            ctx.toast("Choose at least one seat")
            return
        ctx.push(
            "confirm",
            show_id=route.arg("show_id"),
            seats=",".join(seat_key(r, s) for r, s in chosen),
        )

    def screen_confirm(self, ctx: Ctx, route: Route) -> Screen:
        show = self.show(ctx, route.arg("show_id"))
        screen = self.page(ctx, "Confirm Order")
        if show is None:
            screen.rows = [node("Showtime not found", rid="show-missing", height=300)]
            return screen
        seats = [tuple(int(x) for x in p.split("-")) for p in str(route.arg("seats")).split(",")]
        price = int(show.get("price") or 0)
        total = price * len(seats)
        screen.rows = [
            node(str(show.get("film")), rid="confirm-film", height=100),
            self.field_row("Cinema", str(show.get("cinema"))),
            self.field_row("Time", when(show.get("starts"))),
            self.field_row("Hall", f"{show.get('hall') or ''} · {show.get('format') or '2D'}"),
            node(
                rid="confirm-seats-list",
                children=[node(seat_text(r, s), rid="confirm-seat", height=80) for r, s in seats],
            ),
            self.field_row("Price", f"{money(price)} × {len(seats)}"),
            self.field_row("Refund Rules", "Refundable until 1 hour before", "open_rules"),
        ]
        screen.footer = [
            node(
                rid="confirm-footer",
                horizontal=True,
                height=150,
                children=[
                    node(f"Total {money(total)}", rid="confirm-total", weight=0.55),
                    node("Submit Order", "buy", total, rid="confirm-submit", weight=0.45),
                ],
            )
        ]
        return screen

    def on_buy(self, ctx: Ctx, arg: Any) -> None:
        route = ctx.route
        assert route is not None
        show = self.show(ctx, route.arg("show_id"))
        if show is None:
            return
        taken = set(show.get("taken") or [])
        if any(p in taken for p in str(route.arg("seats")).split(",")):
            ctx.dialog(
                Dialog(
                    "Seats no longer available",
                    message="Some of these seats were just sold. Choose other seats.",
                    buttons=[("OK", None, None)],
                )
            )
            return
        ctx.push("pay", show_id=route.arg("show_id"), seats=route.arg("seats"), total=int(arg))

    def screen_pay(self, ctx: Ctx, route: Route) -> Screen:
        show = self.show(ctx, route.arg("show_id")) or {}
        return self.pay_sheet(
            ctx, f"{self.label} · {show.get('film', '')}", int(route.arg("total")), "movies_pay"
        )

    def on_movies_pay(self, ctx: Ctx, arg: Any) -> None:
        route = ctx.route
        assert route is not None and route.screen == "pay"
        show = self.show(ctx, route.arg("show_id"))
        if show is None:
            return
        keys = str(route.arg("seats")).split(",")
        if any(k in (show.get("taken") or []) for k in keys):
            return
        total = int(route.arg("total"))
        if not self.charge(ctx, total):
            return
        order_no = next_number(ctx.records("orders"), "order_no", "M", 20000)
        seats = [tuple(int(x) for x in k.split("-")) for k in keys]
        ctx.add(
            "orders",
            {
                "order_no": order_no,
                "film": show.get("film"),
                "cinema": show.get("cinema"),
                "show_id": show.get("show_id"),
                "starts": show.get("starts"),
                "seats": [seat_text(r, s) for r, s in seats],
                "total": total,
                "status": "paid",
                "placed_at": stamp(ctx.now),
            },
        )
        for r, s in seats:
            ctx.add(
                "tickets",
                {
                    "order_no": order_no,
                    "show_id": show.get("show_id"),
                    "film": show.get("film"),
                    "cinema": show.get("cinema"),
                    "starts": show.get("starts"),
                    "row": r,
                    "seat": s,
                },
            )
        ctx.update("showtimes", show, taken=[*(show.get("taken") or []), *keys])
        stack = ctx.phone.stacks.get(self.model, [])
        while len(stack) > 1 and stack[-1].screen in BUY_FLOW:
            ctx.back()
        ctx.push("order", order_no=order_no)
        ctx.toast("Payment successful")

    # ============================================================== orders
    def on_open_order(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("order", order_no=str(arg))

    def screen_order(self, ctx: Ctx, route: Route) -> Screen:
        order = self.order(ctx, route.arg("order_no"))
        screen = self.page(ctx, "Order Details")
        if order is None:
            screen.rows = [node("Order not found", rid="order-missing", height=300)]
            return screen
        status = str(order.get("status") or "paid")
        rows = [
            node(self.status_text(ctx, order), rid="order-status", height=120),
            node(str(order.get("film")), rid="order-film", desc="order", height=100),
            self.field_row("Order No.", str(order.get("order_no"))),
            self.field_row("Cinema", str(order.get("cinema") or "")),
            self.field_row("Time", when(order.get("starts"))),
            node(
                rid="order-seats",
                children=[
                    node(str(s), rid="order-seat", height=80) for s in order.get("seats") or []
                ],
            ),
            self.field_row("Total", money(order.get("total"))),
            self.field_row("Paid At", when(order.get("placed_at"))),
        ]
        if status == "paid":
            code = str(order.get("order_no") or "")[-4:].rjust(4, "0")
            rows.insert(2, node(f"Pickup Code {code}", rid="pickup-code", height=110))
        screen.rows = rows
        if self.refundable(ctx, order):
            screen.footer = [
                node("Refund", "refund_ask", order.get("order_no"), rid="order-refund", height=150)
            ]
        elif status == "paid":
            screen.footer = [
                node(
                    "Not refundable: the show starts within 1 hour",
                    rid="order-no-refund",
                    height=120,
                )
            ]
        return screen

    def on_refund_ask(self, ctx: Ctx, arg: Any) -> None:
        order = self.order(ctx, arg)
        if order is None or not self.refundable(ctx, order):
            return
        ctx.dialog(
            Dialog(
                "Refund these tickets?",
                message=f"All {len(order.get('seats') or [])} tickets of this order are refunded "
                f"and {money(order.get('total'))} goes back to WeChat Pay within 1-3 business "
                "days. The seats are released.",
                buttons=[("Confirm Refund", "refund", arg), ("Cancel", None, None)],
            )
        )

    def on_refund(self, ctx: Ctx, arg: Any) -> None:
        order = self.order(ctx, arg)
        if order is None or not self.refundable(ctx, order):
            return
        ctx.update("orders", order, status="refunded")
        show = self.show(ctx, order.get("show_id"))
        if show is not None:
            freed = set()
            for text in order.get("seats") or []:
                parts = str(text).split()
                if len(parts) == 4:
                    freed.add(seat_key(int(parts[1]), int(parts[3])))
            ctx.update(
                "showtimes", show, taken=[t for t in show.get("taken") or [] if t not in freed]
            )
        ctx.toast("Refund requested")

    def on_open_rules(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("rules")

    def screen_rules(self, ctx: Ctx, route: Route) -> Screen:
        screen = self.page(ctx, "Refund Rules")
        screen.rows = [
            node(f"{i}. {text}", rid="rule", height=160) for i, text in enumerate(RULES, 1)
        ]
        return screen


APP = MoviesApp
