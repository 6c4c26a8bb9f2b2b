"""PhoneWorld's Movie Tickets mini program inside WeChat: the reference solutions of its
tasks, the pages' XML, and films, cinemas, showtimes, the seat map, paying and refunds through
real actions."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tasklang import ir
from tasklang.compiler import Compiler
from tasklang.envs.phoneworld.episode import Episode, run_nothing, run_reference
from tasklang.envs.phoneworld.solutions.base import Driver
from tasklang.envs.phoneworld.solutions.movies import adjacent_block, free_seats
from tasklang.envs.phoneworld.solutions.wechat import open_mini_program
from tasklang.verifiers.snapshot import parse_ui_xml

ROOT = Path(__file__).resolve().parents[1]
TASKS = (
    "mini.movies_adjacent_seats",
    "mini.movies_refund_order",
    "mini.movies_cheapest_tonight",
)
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
def episode(task_id: str = "mini.movies_adjacent_seats", seed: int = 0) -> tuple[Episode, Driver]:
    ep = Episode(compiled(task_id), seed)
    assert ep.instance is not None
    d = Driver(ep.tree, ep.step, ep.instance.params)
    open_mini_program(d, "Movie Tickets")
    assert ep.phone.foreground == "movies"
    return ep, d


def coll(ep: Episode, name: str) -> list[dict[str, Any]]:
    return ep.phone.state["movies"].collections[name]


def show(ep: Episode, show_id: str) -> dict[str, Any]:
    return next(s for s in coll(ep, "showtimes") if s["show_id"] == show_id)


def wallet(ep: Episode) -> int:
    return int(ep.phone.state["wechat"].settings.get("wallet_balance", 20000))


def activity(ep: Episode) -> str:
    return ep.phone.current_activity()[1].rsplit(".", 1)[-1]


def xml_ok(ep: Episode) -> None:
    _, elements = parse_ui_xml(ep.xml())
    assert elements and {e.package for e in elements} <= {PKG, "com.android.systemui"}


def click(d: Driver, index: int) -> Any:
    return d.act({"action_type": "click", "index": index})


def to_seats(d: Driver, cinema: str, film: str, start: str) -> None:
    d.tap(text="Cinemas", rid="tab-bar-item")
    click(d, d.scroll_to(text=cinema, rid="cinema-name"))
    d.tap(text=film, rid="film-chip")
    d.tap(text=start, rid="show-start")


# ------------------------------------------------------------------ screens
def test_every_page_produces_parseable_xml_with_the_real_ids() -> None:
    ep, d = episode()
    assert activity(ep) == "AppBrandUI"
    xml_ok(ep)
    assert f"{PKG}:id/actionbar_capsule_home" in ep.xml() and "android.webkit.WebView" in ep.xml()
    for tab in ("Cinemas", "Orders", "Movies"):
        d.tap(text=tab, rid="tab-bar-item")
        xml_ok(ep)
    d.tap(text="Dune: Part Two", rid="film-title")
    xml_ok(ep)
    assert d.texts(rid="cinema-name") == [
        "CGV Jing'an",
        "UME IMAX Xintiandi",
        "Wanda Cinema Xujiahui",
    ]  # by distance
    d.tap(text="CGV Jing'an", rid="cinema-name")
    xml_ok(ep)
    d.tap(text="19:30", rid="show-start")
    xml_ok(ep)
    assert d.has(text="SCREEN")
    d.tap(desc="Row 1 Seat 1, available")
    d.tap(text="Confirm Seats")
    xml_ok(ep)
    d.tap(text="Refund Rules", rid="field-name")
    xml_ok(ep)
    assert len(d.texts(rid="rule")) == 5
    d.back()
    d.tap(text="Submit Order")
    assert activity(ep) == "WalletPayUI"
    xml_ok(ep)


def test_films_list_only_what_is_showing_and_past_showtimes_are_not_sold() -> None:
    _, d = episode()
    assert d.texts(rid="film-title")[:2] == ["Dune: Part Two", "Inside Out 2"]  # by rating
    d.tap(text="Cinemas", rid="tab-bar-item")
    d.tap(text="Wanda Cinema Xujiahui", rid="cinema-name")
    d.tap(text="Inside Out 2", rid="film-chip")
    # it is 12:05: the 10:15 showing is over and is not listed
    assert d.texts(rid="show-start") == ["15:00", "17:35", "19:10"]
    d.tap(text="Tomorrow 5/17", rid="day-chip")
    assert d.texts(rid="show-start") == ["11:00"]
    d.tap(text="Dune: Part Two", rid="film-chip")
    assert d.texts(rid="show-start") == ["18:05"]


def test_seat_map_disables_sold_seats_and_toggles_chosen_ones() -> None:
    ep, d = episode()
    to_seats(d, "CGV Jing'an", "Dune: Part Two", "19:30")
    route = ep.phone.stacks["movies"][-1]
    taken = set(show(ep, route.arg("show_id"))["taken"])
    sold = next(k for k in sorted(taken))
    r, s = (int(x) for x in sold.split("-"))
    seat = d.need(desc=f"Row {r} Seat {s}, sold")
    assert not ep.tree().flat()[seat].enabled
    out = click(d, seat)
    assert "disabled" in out.info and d.texts(rid="seats-chosen") == ["Tap seats to choose them"]
    free = free_seats(d)
    assert sum(len(v) for v in free.values()) == 80 - len(taken)
    row, first = adjacent_block(free, 2)
    d.tap(desc=f"Row {row} Seat {first}, available")
    d.tap(desc=f"Row {row} Seat {first + 1}, available")
    assert d.texts(rid="seats-chosen") == [f"Row {row} Seat {first}, Row {row} Seat {first + 1}"]
    assert d.texts(rid="seats-total") == ["$14.40"]
    d.tap(desc=f"Row {row} Seat {first}, selected")  # a second tap lets it go
    assert d.texts(rid="seats-total") == ["$7.20"]


def test_at_most_six_seats_and_at_least_one() -> None:
    ep, d = episode()
    to_seats(d, "CGV Jing'an", "Dune: Part Two", "19:30")
    d.tap(text="Confirm Seats")
    assert ep.phone.toast == "Choose at least one seat" and d.has(text="SCREEN")
    free = sorted((r, s) for r, seats in free_seats(d).items() for s in seats)
    for r, s in free[:6]:
        d.tap(desc=f"Row {r} Seat {s}, available")
    r, s = free[6]
    d.tap(desc=f"Row {r} Seat {s}, available")
    assert ep.phone.toast == "You can choose up to 6 seats"
    assert d.has(desc=f"Row {r} Seat {s}, available")


def test_paying_writes_the_order_and_tickets_and_sells_the_seats() -> None:
    ep, d = episode()
    before = wallet(ep)
    to_seats(d, "CGV Jing'an", "Dune: Part Two", "16:45")
    show_id = ep.phone.stacks["movies"][-1].arg("show_id")
    row, first = adjacent_block(free_seats(d), 3)
    for k in range(3):
        d.tap(desc=f"Row {row} Seat {first + k}, available")
    d.tap(text="Confirm Seats")
    d.tap(text="Submit Order")
    d.tap(desc="Close")  # closing the sheet pays nothing
    assert len(coll(ep, "orders")) == 1 and coll(ep, "tickets") == []
    d.tap(text="Submit Order")
    d.tap(text="Pay")
    assert wallet(ep) == before - 3 * 720
    order = coll(ep, "orders")[-1]
    assert order["film"] == "Dune: Part Two" and order["show_id"] == show_id
    assert order["seats"] == [f"Row {row} Seat {first + k}" for k in range(3)]
    assert order["total"] == 2160 and order["status"] == "paid"
    assert [(t["row"], t["seat"]) for t in coll(ep, "tickets")] == [
        (row, first + k) for k in range(3)
    ]
    assert {f"{row}-{first + k}" for k in range(3)} <= set(show(ep, show_id)["taken"])
    assert d.has(text="Order Details") and d.has(text="Refund")
    d.back()  # the buying pages are gone: back to the cinema
    d.tap(text="16:45", rid="show-start")
    assert d.has(desc=f"Row {row} Seat {first}, sold")


def test_refund_releases_the_seats_and_late_orders_cannot_be_refunded() -> None:
    ep, d = episode("mini.movies_refund_order")
    d.tap(text="Orders", rid="tab-bar-item")
    d.tap(text="Detective Chinatown 4", rid="order-film")  # starts at 18:40, it is 17:50
    assert not d.has(text="Refund") and d.has(text="Not refundable: the show starts within 1 hour")
    d.back()
    d.tap(text="Moonlit Harbor", rid="order-film")
    d.tap(text="Refund")
    d.tap(text="Cancel")
    assert coll(ep, "orders")[0]["status"] == "paid"
    d.tap(text="Refund")
    d.tap(text="Confirm Refund")
    assert coll(ep, "orders")[0]["status"] == "refunded"
    assert not {"4-5", "4-6"} & set(show(ep, "S2058")["taken"])
    assert d.has(text="Refunded") and not d.has(text="Refund")
    d.back()
    assert d.texts(rid="order-status")[:1] == ["Paid"]
    assert "Completed" in d.texts(rid="order-status")  # the show of May 9 is over
