"""`append only` collections: the declaration, its checks, and PhoneWorld keeping to it.

A collection declared `append only` is one whose app offers no way to remove a record (nor to
change its key); the device checker relies on it to decide `never added` from readings before
and after an episode (see tests/test_probes_bracket.py), so PhoneWorld refuses a change that
breaks it instead of letting its world drift from the model.
"""

from __future__ import annotations

import pytest

from tasklang import ir
from tasklang.compiler import Compiler
from tasklang.envs.device.differential import library
from tasklang.envs.phoneworld.app import AppendOnlyViolation, Ctx
from tasklang.envs.phoneworld.episode import Episode
from tasklang.fmt import format_source
from tasklang.source import SourceFile

LEDGER = """\
app ledger_demo {
  package "com.example.ledger"
  record Payment { number: text key  total: money }
  record Entry { amount: money  note: text }
  record Receipt { number: text? key  total: money }
  collection payments: Payment append only
  collection drafts: Payment
%s}
"""


def _compile(extra: str = "") -> tuple[dict[str, ir.AppModel], list[tuple[str, int, int, str]]]:
    result = Compiler().compile_text(LEDGER % extra, path="ledger.app")
    found = [(d.code, d.span.line, d.span.column, d.message) for d in result.diagnostics]
    return dict(result.apps), found


def test_the_declaration_reaches_the_app_model() -> None:
    apps, diagnostics = _compile()
    assert diagnostics == []
    model = apps["ledger_demo"]
    payments, drafts = model.collection("payments"), model.collection("drafts")
    assert payments is not None and payments.append_only
    assert drafts is not None and not drafts.append_only


def test_the_formatter_keeps_the_declaration() -> None:
    text = LEDGER % ""
    formatted, diagnostics = format_source(SourceFile("ledger.app", text))
    assert diagnostics == [] and formatted is not None
    assert "  collection payments: Payment append only\n" in formatted
    assert "  collection drafts: Payment\n" in formatted


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("  collection entries: Entry append only\n", "`entries` has no key field"),
        ("  collection receipts: Receipt append only\n", "the key `number` of append-only"),
    ],
)
def test_an_append_only_collection_needs_a_key_that_is_always_there(
    line: str, message: str
) -> None:
    _, diagnostics = _compile(line)
    assert [(code, ln, col) for code, ln, col, _ in diagnostics] == [("TL1032", 8, 3)]
    assert message in diagnostics[0][3]


def test_a_half_written_declaration_is_a_located_syntax_error() -> None:
    _, diagnostics = _compile("  collection entries: Payment append\n")
    assert [(code, ln) for code, ln, _, _ in diagnostics] == [("TL0002", 9)]


def test_append_is_still_a_name_elsewhere() -> None:
    text = (LEDGER % "").replace("total: money }\n  record Entry", "append: text }\n  record Entry")
    result = Compiler().compile_text(text, path="ledger.app")
    assert result.diagnostics == []


def test_the_library_declares_amazon_orders_append_only() -> None:
    shopping = library()["shopping.buy_unavailable"].apps["shopping"]
    orders = shopping.collection("orders")
    assert orders is not None and orders.append_only
    cart = shopping.collection("cart")
    assert cart is not None and not cart.append_only


def _shopping() -> tuple[Episode, Ctx]:
    ep = Episode(library()["shopping.cancel_latest_order"], 0)
    return ep, Ctx(ep.phone, ep.phone.apps["shopping"], None)


def test_phoneworld_refuses_to_remove_an_order() -> None:
    _, ctx = _shopping()
    order = ctx.records("orders")[0]
    before = list(ctx.records("orders"))
    with pytest.raises(AppendOnlyViolation, match=r"shopping\.orders is append-only.*order_id"):
        ctx.delete("orders", order)
    with pytest.raises(AppendOnlyViolation, match="changed"):
        ctx.update("orders", order, order_id="111-0000000-0000000")
    assert ctx.records("orders") == before  # nothing was written


def test_phoneworld_still_updates_adds_and_removes_what_it_may() -> None:
    _, ctx = _shopping()
    orders = list(ctx.records("orders"))
    cancelled = ctx.update("orders", orders[0], status="cancelled")
    ctx.add("orders", {**orders[0], "order_id": "111-0000000-0000009"})
    assert ctx.records("orders")[0] is cancelled and cancelled["status"] == "cancelled"
    assert len(ctx.records("orders")) == len(orders) + 1
    line = {"asin": "B000000001", "title": "Cable", "quantity": 1, "price": 999}
    ctx.add("cart", line)
    ctx.delete("cart", ctx.records("cart")[-1])  # the cart is not append-only
    assert line not in ctx.records("cart")


def test_the_reference_solutions_keep_to_the_declaration() -> None:
    """Every library task on Amazon runs its reference solution without removing an order."""
    from tasklang.envs.phoneworld.episode import run_reference

    for compiled in library().values():
        if "shopping" in compiled.apps:
            verdict, _ = run_reference(compiled, 0)
            assert verdict.success, compiled.task.id
