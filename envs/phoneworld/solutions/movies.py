"""Reference solutions of the Movie Tickets mini program's tasks (inside WeChat)."""

from __future__ import annotations

import datetime as dt
import re

from tasklang.envs.phoneworld.solutions.base import Driver, SolutionError, reference
from tasklang.envs.phoneworld.solutions.wechat import cents, click, dollars, open_mini_program

_SEAT = re.compile(r"^Row (\d+) Seat (\d+), (\w+)$")


def free_seats(d: Driver) -> dict[int, set[int]]:
    """Row -> the seat numbers the seat map shows as available."""
    free: dict[int, set[int]] = {}
    for v in d.observe().walk():
        m = _SEAT.match(v.desc)
        if v.rid == "seat" and m and m[3] == "available":
            free.setdefault(int(m[1]), set()).add(int(m[2]))
    return free


def adjacent_block(free: dict[int, set[int]], n: int) -> tuple[int, int]:
    """The first row (from the middle of the hall outwards) with ``n`` free seats side by
    side: (row, first seat)."""
    rows = sorted(free, key=lambda r: (abs(r - 5), r))
    for r in rows:
        for s in sorted(free[r]):
            if all(s + k in free[r] for k in range(n)):
                return r, s
    raise SolutionError(f"no {n} free seats side by side")


@reference("mini.movies_adjacent_seats")
def movies_adjacent_seats(d: Driver) -> None:
    p = d.params
    n, film, cinema = int(p["n"]), p["pick"]["film"], p["pick"]["cinema"]
    after = dt.datetime.fromisoformat(str(p["slot"]["at"])).time()
    open_mini_program(d, "Movie Tickets")
    d.tap(text="Cinemas", rid="tab-bar-item")
    click(d, d.scroll_to(text=cinema, rid="cinema-name"))
    d.tap(text=film, rid="film-chip")
    starts = sorted(d.texts(rid="show-start"))
    first = next((t for t in starts if dt.time.fromisoformat(t) >= after), None)
    if first is None:
        raise SolutionError(f"no showtime after {after}")
    d.tap(text=first, rid="show-start")
    row, seat = adjacent_block(free_seats(d), n)
    for k in range(n):
        click(d, d.scroll_to(desc=f"Row {row} Seat {seat + k}, available"))
    d.tap(text="Confirm Seats")
    d.tap(text="Submit Order")
    d.tap(text="Pay")
    d.done()


def order_card(d: Driver, film: str, cinema: str, starts: str) -> int:
    """The index of the film title on the order card of ``film`` at ``cinema`` starting at
    ``starts`` (a film may have orders at several cinemas and times), scrolling to it."""
    want = (film, cinema, dt.datetime.fromisoformat(starts).strftime("%Y-%m-%d %H:%M"))
    for _ in range(10):
        shown: tuple[str | None, ...] = ()
        for i, v in enumerate(d.observe().walk()):
            if v.rid == "order-item":
                card = {c.rid: c.text for c in v.walk() if c.text}
                shown = tuple(card.get(f"order-{k}") for k in ("film", "cinema", "time"))
            elif v.rid == "order-film" and v.bounds[3] > v.bounds[1] and shown == want:
                return i
        d.scroll("down")
    raise SolutionError(f"no order of {film} at {cinema} at {want[2]}")


@reference("mini.movies_refund_order")
def movies_refund_order(d: Driver) -> None:
    o = d.params["o"]
    open_mini_program(d, "Movie Tickets")
    d.tap(text="Orders", rid="tab-bar-item")
    click(d, order_card(d, str(o["film"]), str(o["cinema"]), str(o["starts"])))
    d.tap(text="Refund", rid="order-refund")
    d.tap(text="Confirm Refund")
    d.done()


@reference("mini.movies_cheapest_tonight")
def movies_cheapest_tonight(d: Driver) -> None:
    film = d.params["f"]
    cut = dt.datetime.fromisoformat(str(d.params["cut"]["from"])).time()
    open_mini_program(d, "Movie Tickets")
    d.tap(text=film, rid="film-title")
    cinemas = d.texts(rid="cinema-name")
    prices: list[int] = []
    for cinema in cinemas:
        d.tap(text=cinema, rid="cinema-name")
        if d.find(contains="Today", rid="day-chip") is not None:  # the first day is chosen
            for row in [v for v in d.observe().walk() if v.rid == "show-item"]:
                texts = {c.rid: c.text for c in row.walk() if c.text}
                if dt.time.fromisoformat(texts["show-start"]) >= cut:
                    prices.append(cents(texts["show-price"]))
        d.back()
    if not prices:
        raise SolutionError(f"no showing of {film} tonight")
    d.answer(dollars(min(prices)))
