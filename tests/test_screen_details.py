"""A screen probe's `details { ... }`: fields each record's own page shows (opened by a tap on
its row, found again by its key): the language, the reading, and the checker deciding on
them."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tasklang import ir
from tasklang.compiler import Compiler
from tasklang.envs.device.check import probe
from tasklang.envs.device.differential import library
from tasklang.envs.device.livescreen import LiveScreen
from tasklang.envs.device.phoneworld import PhoneWorldTransport
from tasklang.envs.device.probes import coverage
from tasklang.envs.device.screens import UNSHOWN, screen_specs, spot_decoder
from tasklang.envs.phoneworld.episode import run_reference
from tasklang.fmt import format_source
from tasklang.source import SourceFile
from tasklang.verifiers.snapshot import WorldSnapshot

APP = """\
app cards_demo {
  package "com.example.cards"
  record Card {
    number: text key
    tags: list of text = []
    holder: text?
    credit: money = $0.00
  }
  collection cards: Card
  settings { total: money = $0.00 }
  probe cards: screen rows id "card" { %s } details { %s }
  probe total: screen value id "total"
}
"""
HOLDER = 'holder = id "holder", credit = id "credit" or { "" = $0.00 }'


def _compile(rows: str, details: str) -> tuple[ir.AppModel | None, list[str]]:
    result = Compiler().compile_text(APP % (rows, details), path="cards.app")
    return result.apps.get("cards_demo"), [d.message for d in result.diagnostics]


# ---------------------------------------------------------------- the language
def test_details_reach_the_probe_and_the_formatter_keeps_them() -> None:
    app, diagnostics = _compile('number = id "number"', HOLDER)
    assert diagnostics == [] and app is not None
    [cards] = [p for p in app.probes if p.target == "cards"]
    assert list(cards.spots) == ["number"] and list(cards.details) == ["holder", "credit"]
    text = APP % ('number = id "number"', HOLDER)
    once, _ = format_source(SourceFile("cards.app", text))
    assert "} details {" in once
    assert format_source(SourceFile("cards.app", once))[0] == once


@pytest.mark.parametrize(
    ("rows", "details", "message"),
    [
        ('holder = id "holder"', 'credit = id "credit"', "must read the key of `Card`"),
        ('number = id "number", holder = id "h"', 'holder = id "holder"', "is read twice"),
        ('number = id "number"', 'tags = id "tag"', "is a list"),
        ('number = id "number"', 'owner = id "owner"', "has no field `owner`"),
    ],
)
def test_details_that_cannot_be_read_are_errors(rows: str, details: str, message: str) -> None:
    _, diagnostics = _compile(rows, details)
    assert any(message in d for d in diagnostics), diagnostics


def test_a_setting_has_no_rows_to_open() -> None:
    text = (APP % ('number = id "number"', HOLDER)).replace(
        'value id "total"', 'value id "total" details { }'
    )
    result = Compiler().compile_text(text, path="cards.app")
    assert [(d.code, d.message) for d in result.diagnostics] == [
        ("TL0002", "unexpected `details`")
    ]  # `details` follows `rows` only


def test_nothing_shown_is_what_a_form_for_no_text_says() -> None:
    spot = ir.ScreenSpot(selector=ir.Selector(attrs=[]),
                         forms=[ir.ScreenForm(text="", unknown=True)])  # fmt: skip
    read = spot_decoder(spot, ir.Type(name="date", optional=True))
    assert read("") is UNSHOWN and read("2026-05-25") == "2026-05-25"
    plain = spot_decoder(ir.ScreenSpot(selector=ir.Selector(attrs=[])),
                         ir.Type(name="date", optional=True))  # fmt: skip
    assert plain("") is None  # without the form, an optional field shown nowhere is null


# ---------------------------------------------------------------- the library's bill accounts
def test_each_accounts_page_gives_its_holder_credit_and_due_date(screens_read: Any) -> None:
    compiled = library()["mini.bills_pay_part_by_card"]
    [spec] = [s for s in screen_specs(compiled) if s.target == "accounts"]
    assert "each row's own page (a tap on the row) for holder, balance, due_date" in spec.describe()
    _, traj = run_reference(compiled, 0)
    end = copy.deepcopy(traj.final.snapshot)
    assert end is not None
    accounts = end.apps["bills"].collections["accounts"]
    bill = next(a for a in accounts if a["kind"] != "mobile" and a.get("due"))
    bill["balance"] = 650  # a credit shows in a row of its own
    quiet = next(a for a in accounts if a["kind"] != "mobile" and a is not bill)
    quiet["due"], quiet["holder"] = 0, None  # no bill due: no due date; no holder row
    reading = screens_read(compiled, end)
    assert not reading.unread, reading.unread
    rows = {r["account_no"]: r for r in reading.snapshot.apps["bills"].collections["accounts"]}
    assert len(rows) == len(accounts)
    for real in accounts:
        row = rows[real["account_no"]]
        assert row["balance"] == real["balance"] and row["holder"] == real.get("holder")
        if real["kind"] != "mobile" and real.get("due") and real.get("due_date"):
            assert row["due_date"] == real["due_date"]
        else:
            assert "due_date" not in row  # not shown: read without it
    assert rows[bill["account_no"]]["balance"] == 650


def test_a_part_payment_that_left_a_credit_is_caught(device_check_of: Any) -> None:
    """Paying part of a bill leaves the rest due and no credit: the account's page shows
    the credit a wrong payment would have left, which the card does not."""
    dv, truth, _ = device_check_of("mini.bills_pay_part_by_card")
    assert truth.success and dv.success is True

    def credit(end: WorldSnapshot, traj: Any) -> None:
        number = traj.header.instance.params["acct"]["account_no"]
        for row in end.apps["bills"].collections["accounts"]:
            if row["account_no"] == number:
                row["balance"] = int(row.get("balance") or 0) + 1000

    dv, truth, _ = device_check_of("mini.bills_pay_part_by_card", credit)
    assert not truth.success and dv.success is False
    assert dv.failed_observable == [r.id for r in truth.clauses if not r.passed]


def test_the_bill_accounts_are_read_in_full_but_the_due_date() -> None:
    cov = coverage(library()["mini.bills_pay_part_by_card"])
    key = ("bills", "accounts")
    assert cov.partly[key] == {"due", "due_date"} and key not in cov.complete
    assert {"holder", "balance"} <= cov.fields[key]


def test_a_row_its_key_does_not_find_again_leaves_the_accounts_unread() -> None:
    """The account listed first is gone when its page is to be opened (the phone changed
    under the reading): the accounts are unread, never half read."""
    compiled = library()["mini.bills_pay_part_by_card"]
    _, traj = run_reference(compiled, 0)
    end = traj.final.snapshot
    assert end is not None
    first = end.apps["bills"].collections["accounts"][0]["account_no"]
    gone = copy.deepcopy(end)
    accounts = gone.apps["bills"].collections["accounts"]
    accounts[:] = [a for a in accounts if a["account_no"] != first]

    class Changing(PhoneWorldTransport):
        """The app started once for the list, then again for each account's page."""

        stops = 0

        def force_stop(self, argv: list[str], line: str) -> str:
            self.stops += 1
            self.screen = LiveScreen(end if self.stops == 1 else gone)
            return ""

    reading = probe(compiled, Changing(compiled, lambda: end, lambda: ""), screens=True,
                    sleep=lambda s: None)  # fmt: skip
    why = reading.unread[("bills", "accounts")]
    assert f"no row of bills.accounts reads account_no {first!r} again" in why
    assert "accounts" not in reading.snapshot.apps["bills"].collections
