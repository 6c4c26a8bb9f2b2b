"""Amazon's cart lines and lists on a phone: each cart line read from the cart with its size
and colour (a line each), and its ASIN from the product page its title opens (`details
tap`); a line is a product as chosen, whose quantity changes only in the quantity picker or
where the product is added again, so an episode that took neither updated no line. The lists
are read list by list (`each`), each item's ASIN from its product page too."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from tasklang.compiler import Compiler
from tasklang.envs.device.check import probe
from tasklang.envs.device.differential import library, start_reading
from tasklang.envs.device.phoneworld import PhoneWorldTransport
from tasklang.envs.phoneworld.app import AppData, UndeclaredChange
from tasklang.envs.phoneworld.apps.shopping import Shopping
from tasklang.envs.phoneworld.episode import Episode, run_reference
from tasklang.fmt import format_source
from tasklang.source import SourceFile
from tasklang.verifiers.state import field_kept_apart

CART = """\
app cart_demo {
  package "com.example.shop"
  record Line { sku: text  size: text?  qty: int = 1 }
  collection lines: Line
  %s
  probe lines: screen (tap text "Cart") rows id "line" {
    size = id "line-size" format "Size: {}",
    qty = id "line-qty",
  } details tap id "line-title" {
    sku = id "sku",
  }
}
"""


# ---------------------------------------------------------------- the language
def test_details_of_keyless_rows_open_from_an_element_of_the_row() -> None:
    result = Compiler().compile_text(CART % "", path="cart.app")
    assert result.diagnostics == []
    [probe] = result.apps["cart_demo"].probes
    assert probe.details_tap is not None
    assert [(a.attr, a.value) for a in probe.details_tap.attrs] == [("id", "line-title")]
    assert list(probe.details) == ["sku"]
    once, diags = format_source(SourceFile("cart.app", CART % ""))
    assert once is not None and not diags
    assert format_source(SourceFile("cart.app", once))[0] == once
    assert '} details tap id "line-title" {' in once


def test_keyless_rows_that_read_nothing_cannot_be_found_again() -> None:
    text = (CART % "").replace(
        """    size = id "line-size" format "Size: {}",
    qty = id "line-qty",
""",
        "",
    )
    result = Compiler().compile_text(text, path="cart.app")
    messages = [d.message for d in result.diagnostics]
    assert any("finds each row again by what it reads" in m for m in messages), messages


def test_a_page_of_the_latest_rows_at_most() -> None:
    text = (CART % "").replace('rows id "line" {', 'rows id "line" at most 3 {')
    result = Compiler().compile_text(text, path="cart.app")
    assert result.diagnostics == []
    assert result.apps["cart_demo"].probes[0].most == 3
    once, _ = format_source(SourceFile("cart.app", text))
    assert once is not None and 'rows id "line" at most 3 {' in once
    bad = Compiler().compile_text(text.replace("at most 3", "at most 0"), path="cart.app")
    assert any("one row at least" in d.message for d in bad.diagnostics), bad.diagnostics


@pytest.mark.parametrize(
    ("lines", "scoped"),
    [
        ('changes lines.sku, lines.size nowhere\n  changes lines.qty only on text "Quantity"',
         ["lines.qty"]),
        # told apart by nothing: a field with a default may still say where it is raised
        ('changes lines.qty only on text "Quantity"', ["lines.qty"]),
        ('changes lines.sku only on text "Edit"', None),
    ],
)  # fmt: skip
def test_a_field_of_keyless_records_changes_somewhere_only_where_they_are_told_apart(
    lines: str, scoped: list[str] | None
) -> None:
    result = Compiler().compile_text(CART % lines, path="cart.app")
    messages = [d.message for d in result.diagnostics]
    assert any("nor fields that never change" in m for m in messages) == (scoped is None)
    # a line refused is dropped: no scope is left that names the field
    found = [c.names for c in result.apps["cart_demo"].changes if c.screens]
    assert found == ([scoped] if scoped is not None else [])


def test_a_field_is_kept_in_records_told_apart_by_those_that_never_change() -> None:
    ids = ("asin", "size")
    old = [{"asin": "A", "size": "8", "quantity": 1}, {"asin": "A", "size": "9", "quantity": 1}]
    assert field_kept_apart(old, old[:1], ids, "quantity")  # one removed: nothing updated
    assert field_kept_apart(
        old, [*old, {"asin": "B", "size": None, "quantity": 3}], ids, "quantity"
    )
    assert not field_kept_apart(old, [old[0], {**old[1], "quantity": 2}], ids, "quantity")


# ---------------------------------------------------------------- PhoneWorld
def _reading(task: str, edit: Callable[[Any], None] | None = None) -> Any:
    compiled = library()[task]
    _, traj = run_reference(compiled, 0)
    if edit is not None:
        instance = traj.header.instance
        assert instance.initial is not None
        initial = copy.deepcopy(instance.initial)
        edit(initial)
        traj = traj.model_copy(update={"header": traj.header.model_copy(
            update={"instance": instance.model_copy(update={"initial": initial})})})  # fmt: skip
    reading = start_reading(compiled, traj)
    assert reading is not None
    return reading, traj.header.instance.initial


def test_the_cart_reads_each_line_with_the_asin_its_product_page_names() -> None:
    reading, initial = _reading("shopping.remove_from_cart")
    assert not reading.unread, reading.unread
    given = initial.apps["shopping"].collections["cart"]
    read = reading.snapshot.apps["shopping"].collections["cart"]
    fields = ("asin", "title", "size", "color", "quantity", "price")
    assert [{f: r.get(f) for f in fields} for r in read] == [
        {f: g.get(f) for f in fields} for g in given
    ]
    saved = reading.snapshot.apps["shopping"].collections["saved_for_later"]
    assert [(s["asin"], s["size"], s["color"]) for s in saved] == [("B001SUN103", None, None)]


def test_a_product_page_without_the_asin_leaves_it_unread(monkeypatch: pytest.MonkeyPatch) -> None:
    """Read as nothing at all, never as an empty ASIN: the clauses that name it stay
    undecided."""
    shown = Shopping.screen_product

    def without_details(self: Shopping, ctx: Any, route: Any) -> Any:
        screen = shown(self, ctx, route)
        screen.rows = [v for v in screen.rows if v.rid != "detailBullets-row"]
        return screen

    monkeypatch.setattr(Shopping, "screen_product", without_details)
    reading, _ = _reading("shopping.remove_from_cart")
    read = reading.snapshot.apps["shopping"].collections["cart"]
    assert read and all("asin" not in r and r["title"] for r in read)


def test_lines_that_read_alike_are_told_apart_by_their_place_on_the_page() -> None:
    """Two cart lines that show the same title, size, colour, quantity and price are still
    two rows of one page: the first opens its own product page, the second its own."""

    def twins(world: Any) -> None:
        held = world.apps["shopping"].collections
        first = held["cart"][0]
        other = next(p["asin"] for p in held["products"] if p["asin"] != first["asin"])
        held["cart"].insert(1, {**first, "asin": other})

    reading, initial = _reading("shopping.remove_from_cart", twins)
    assert ("shopping", "cart") not in reading.unread, reading.unread
    given = initial.apps["shopping"].collections["cart"]
    read = reading.snapshot.apps["shopping"].collections["cart"]
    assert read[0]["title"] == read[1]["title"] and read[0]["asin"] != read[1]["asin"]
    assert [r.get("asin") for r in read] == [g["asin"] for g in given]


def test_lines_alike_that_no_page_shows_together_leave_the_cart_unread() -> None:
    def apart(world: Any) -> None:
        cart = world.apps["shopping"].collections["cart"]
        first = copy.deepcopy(cart[0])
        cart += [{**first, "quantity": 5 + i} for i in range(12)] + [first]

    reading, _ = _reading("shopping.remove_from_cart", apart)
    why = reading.unread.get(("shopping", "cart"), "")
    assert "show together on no page" in why, reading.unread


def test_phoneworld_refuses_a_quantity_changed_where_none_may_be() -> None:
    """On the cart's page (a way in to the cart), but with no quantity picker opened and
    nothing added to the cart, no line's quantity may change."""
    ep = Episode(library()["shopping.remove_from_cart"], 0)
    phone = ep.phone
    phone.opened = phone.opened | {("shopping", "cart")}
    before = dict(phone.state)
    data = phone.state["shopping"]
    cart = [dict(r) for r in data.collections["cart"]]
    cart[0]["quantity"] = 5
    phone.state = {**before, "shopping": AppData({**data.collections, "cart": cart},
                                                 data.settings)}  # fmt: skip
    with pytest.raises(UndeclaredChange, match=r"shopping\.cart\.quantity changed"):
        phone._changed_where_declared(before)


def test_the_lists_read_each_item_with_its_list_and_asin() -> None:
    def another_list(world: Any) -> None:
        items = world.apps["shopping"].collections["wish_list"]
        items.append({"asin": "B0CSH00401", "title": "Nike Men's Pegasus 40 Road Running Shoes",
                      "list": "Birthday", "added_at": "2026-05-03T10:00:00"})  # fmt: skip

    reading, initial = _reading("shopping.top_rated_to_list", another_list)
    assert not reading.unread, reading.unread
    read = reading.snapshot.apps["shopping"].collections["wish_list"]
    assert [(r["list"], r["asin"], r["title"]) for r in read] == [
        (i["list"], i["asin"], i["title"])
        for i in initial.apps["shopping"].collections["wish_list"]
    ]
    assert [r["list"] for r in read] == ["Shopping List", "Birthday"]
    assert all("added_at" not in r for r in read)  # on no page


def test_the_orders_pages_read_each_line_with_its_order_and_asin() -> None:
    """The lines of an order placed in the episode, read from its page after it: one line
    each, with the size and colour of its own lines and the quantity with the line's total."""
    compiled = library()["shopping.buy_variant"]
    _, traj = run_reference(compiled, 0)
    end = traj.final.snapshot
    assert end is not None
    transport = PhoneWorldTransport(compiled, lambda: end, lambda: "")
    reading = probe(compiled, transport, screens=True, sleep=lambda s: None)
    assert ("shopping", "order_lines") not in reading.unread, reading.unread
    fields = ("order_id", "asin", "title", "size", "color", "quantity", "price")
    read = reading.snapshot.apps["shopping"].collections["order_lines"]
    held = end.apps["shopping"].collections["order_lines"]
    assert sorted(tuple(str(r.get(f)) for f in fields) for r in read) == sorted(
        tuple(str(r.get(f)) for f in fields) for r in held
    )
    assert any(r["size"] for r in read) and len(read) == 3


def test_the_search_history_is_read_where_the_page_shows_fewer_than_it_may() -> None:
    def searched(n: int) -> Callable[[Any], None]:
        def edit(world: Any) -> None:
            world.apps["shopping"].collections["search_history"] = [
                {"query": f"query {i:02d}", "searched_at": f"2026-05-{i + 1:02d}T09:00:00"}
                for i in range(n)
            ]

        return edit

    reading, _ = _reading("shopping.kids_item_to_cart", searched(11))
    read = reading.snapshot.apps["shopping"].collections["search_history"]
    assert [r["query"] for r in read] == [f"query {i:02d}" for i in reversed(range(11))]
    reading, _ = _reading("shopping.kids_item_to_cart", searched(13))
    why = reading.unread.get(("shopping", "search_history"), "")
    assert "12 rows at most" in why, reading.unread


# ---------------------------------------------------------------- on a phone
@pytest.mark.parametrize(
    "task",
    [
        "shopping.remove_from_cart",
        "shopping.cheapest_rated_to_cart",
        "shopping.top_rated_to_list",
        "cross.note_list_to_cart",
        "shopping.buy_variant",
        "shopping.kids_item_to_cart",
    ],
)
def test_cart_tasks_are_decided_on_a_phone(
    task: str, decided_on_a_phone: Callable[..., None]
) -> None:
    """The line deleted (and no other line updated: no quantity picker was opened, nothing
    added to the cart), the cheapest well-rated product added (its ASIN from its page), the
    top-rated product added to the Shopping List (and none deleted: no Delete was tapped),
    the products a note lists added to the cart, the variant bought (its order's line read on
    the order's page; the new order's address and payment, which no step could change once
    it was placed, read after the episode as it was placed with), a kids' product added
    after a search for it (the search page lists the one search; the "Prime" filter is no
    way to join or end Prime). A near miss with a line twice is
    undecided: the cart never shows one product as chosen on two lines, and two lines alike
    cannot be told apart to open their pages."""
    decided_on_a_phone(task, every_case=task == "shopping.remove_from_cart")
