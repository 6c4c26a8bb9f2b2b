"""PhoneWorld's WeChat and its Coffee mini program: the reference solutions of their tasks, the
screens' XML, and the handlers' behaviour through real actions."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tasklang import ir
from tasklang.compiler import Compiler
from tasklang.envs.phoneworld.app import AppData
from tasklang.envs.phoneworld.apps.wechat import money, parse_amount
from tasklang.envs.phoneworld.episode import Episode, run_nothing, run_reference
from tasklang.envs.phoneworld.solutions.base import Driver
from tasklang.envs.phoneworld.solutions.wechat import open_mini_program
from tasklang.verifiers.snapshot import parse_ui_xml

ROOT = Path(__file__).resolve().parents[1]
TASKS = {
    "wechat.transfer_money": "app",
    "mini.coffee_order_latte": "mini_app",
    "mini.coffee_cancel_duplicate": "mini_app",
    "mini.coffee_weekly_spend": "mini_app",
    "cross.send_file_wechat": "cross_app",
}
PKG = "com.tencent.mm"
LILY = "wxid_k2m9q0"


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
def episode(task_id: str = "wechat.transfer_money", seed: int = 0) -> tuple[Episode, Driver]:
    ep = Episode(compiled(task_id), seed)
    assert ep.instance is not None
    d = Driver(ep.tree, ep.step, ep.instance.params)
    if ep.phone.foreground != "wechat" and task_id != "cross.send_file_wechat":
        d.open("WeChat")
    return ep, d


def coll(ep: Episode, app: str, name: str) -> list[dict[str, Any]]:
    return ep.phone.state[app].collections.get(name, [])


def setting(ep: Episode, app: str, name: str) -> Any:
    return ep.phone.state[app].settings.get(name)


def set_state(ep: Episode, app: str, settings: dict[str, Any] | None = None, **colls: Any) -> None:
    data = ep.phone.state.get(app, AppData({}, {}))
    ep.phone.state[app] = AppData(
        {**data.collections, **colls}, {**data.settings, **(settings or {})}
    )
    ep.phone.invalidate()


def activity(ep: Episode) -> str:
    return ep.phone.current_activity()[1].rsplit(".", 1)[-1]


def xml_ok(ep: Episode) -> None:
    _, elements = parse_ui_xml(ep.xml())
    assert elements and all(e.package for e in elements)


def click(d: Driver, index: int, long: bool = False) -> Any:
    return d.act({"action_type": "long_press" if long else "click", "index": index})


def chat_with(ep: Episode, d: Driver, name: str) -> None:
    """From the launcher screen: Contacts > the friend > Messages."""
    d.tap(text="Contacts", rid="tab_label")
    click(d, d.scroll_to(text=name, rid="contact_name"))
    d.tap(text="Messages")
    assert activity(ep) == "ChattingUI"


def open_coffee(ep: Episode, d: Driver) -> None:
    open_mini_program(d, "Coffee")
    assert ep.phone.foreground == "coffee"
    assert ep.phone.current_activity() == (PKG, f"{PKG}.plugin.appbrand.ui.AppBrandUI")


def message(**fields: Any) -> dict[str, Any]:
    return {"outgoing": False, "kind": "text", "amount": None, **fields}


def chat(peer: str, title: str, **fields: Any) -> dict[str, Any]:
    base = {"is_group": False, "unread": 0, "pinned": False, "muted": False}
    return {"peer": peer, "title": title, **base, **fields}


# ------------------------------------------------------------------ values
def test_money_and_amounts() -> None:
    assert money(3080) == "$30.80" and money(123456) == "$1,234.56" and money(0) == "$0.00"
    assert parse_amount("30.8") == 3080 and parse_amount(" $5 ") == 500
    assert parse_amount("12.") == 1200 and parse_amount(".5") is None
    assert parse_amount("1.234") is None and parse_amount("abc") is None


# ------------------------------------------------------------------ screens
def test_every_wechat_screen_produces_parseable_xml() -> None:
    ep, d = episode()
    xml_ok(ep)
    assert activity(ep) == "LauncherUI"
    for tab in ("Contacts", "Discover", "Me", "Chats"):
        d.tap(text=tab, rid="tab_label")
        xml_ok(ep)
    d.tap(desc="More function buttons")
    xml_ok(ep)
    d.back()
    d.tap(desc="Search")
    d.type("li", rid="search_input")
    xml_ok(ep)
    assert activity(ep) == "FTSMainUI"
    assert "Lily Chen" in d.texts(rid="contact_name")
    d.back()
    d.back()
    chat_with(ep, d, "Lily Chen")
    d.tap(desc="More function buttons")
    xml_ok(ep)
    for item, act in (("Location", "MMPoiMapUI"), ("File", "FileSelectorUI")):
        d.tap(text=item, rid="panel_title")
        xml_ok(ep)
        assert activity(ep) == act
        d.back()
        d.tap(desc="More function buttons")
    d.tap(text="Transfer", rid="panel_title")
    xml_ok(ep)
    assert activity(ep) == "RemittanceUI"
    d.back()
    d.tap(desc="Chat Info")
    xml_ok(ep)
    d.tap(text="Lily Chen")
    assert activity(ep) == "ContactInfoUI"
    d.tap(text="Set Remark and Tag")
    xml_ok(ep)
    assert activity(ep) == "ContactRemarkInfoModUI"
    d.back()
    d.tap(text="Messages")  # back to the open chat, not a second one
    assert activity(ep) == "ChattingUI"
    assert [r.screen for r in ep.phone.stacks["wechat"]] == ["main", "profile", "chat"]
    d.back()
    d.back()
    d.tap(text="Me", rid="tab_label")
    d.tap(text="Services")
    d.tap(text="Wallet")
    xml_ok(ep)
    assert d.texts(rid="wallet_balance") == ["$80.00"]
    d.tap(text="Payment Settings")
    xml_ok(ep)
    for _ in range(3):
        d.back()
    d.tap(text="Settings")
    xml_ok(ep)
    for page in ("Message Notifications", "General"):
        d.tap(text=page)
        xml_ok(ep)
        d.back()
    d.back()
    d.tap(text="Discover", rid="tab_label")
    d.tap(text="Mini Programs")
    xml_ok(ep)
    assert activity(ep) == "AppBrandLauncherUI"


def test_every_coffee_screen_produces_parseable_xml() -> None:
    ep, d = episode("mini.coffee_order_latte")
    open_coffee(ep, d)
    xml_ok(ep)
    assert d.has(text="Coffee", cls="TextView")  # the mini program's title bar
    for tab in ("Menu", "Orders", "Me", "Home"):
        d.tap(text=tab, rid="tab-bar-item")
        xml_ok(ep)
    d.tap(text="Menu", rid="tab-bar-item")
    d.tap(text="Change", rid="store-change")
    xml_ok(ep)
    assert d.texts(rid="store-name") == ["Riverside", "Central Plaza", "Airport T2"]
    d.back()
    d.tap(text="Latte", rid="menu-item-name")
    xml_ok(ep)
    d.tap(text="Add to Cart")
    d.tap(text="Cart (1)")
    xml_ok(ep)
    d.tap(text="Checkout", rid="cart-checkout")
    xml_ok(ep)
    d.tap(desc="More")
    xml_ok(ep)
    d.back()
    d.tap(text="Place Order")
    xml_ok(ep)
    assert activity(ep) == "WalletPayUI"
    # every page is a web view of generic views under WeChat's package
    _, elements = parse_ui_xml(ep.xml())
    assert {e.package for e in elements} == {PKG, "com.android.systemui"}


# ------------------------------------------------------------------ chats
def test_sending_a_text_creates_the_chat_and_lists_it() -> None:
    ep, d = episode()
    chat_with(ep, d, "Dan (work)")
    assert not d.has(text="Send")  # "+" until something is typed
    d.type("On my way", rid="chatting_input")
    d.tap(text="Send")
    sent = coll(ep, "wechat", "messages")
    assert sent == [
        {
            "chat": "wxid_p7r3t8",
            "outgoing": True,
            "kind": "text",
            "body": "On my way",
            "amount": None,
            "sent_at": "2026-05-14T20:15:00",
        }
    ]
    assert [c["peer"] for c in coll(ep, "wechat", "chats")] == ["wxid_p7r3t8"]
    assert d.texts(rid="chatting_content") == ["On my way"]
    assert d.has(desc="More function buttons")  # the field was cleared
    d.back()  # the keyboard
    d.back()
    d.back()
    d.tap(text="Chats", rid="tab_label")
    assert d.texts(rid="chat_title") == ["Dan (work)"]
    assert d.texts(rid="chat_snippet") == ["On my way"]


def test_chat_list_menu_marks_pins_and_deletes_with_confirmation() -> None:
    ep, d = episode()
    set_state(
        ep,
        "wechat",
        chats=[
            chat(LILY, "Lily", unread=2, last_activity="2026-05-14T19:00:00"),
            chat("g1@chatroom", "Book club", is_group=True, last_activity="2026-05-13T10:00:00"),
        ],
        messages=[
            message(chat=LILY, body="Dinner?", sent_at="2026-05-14T19:00:00"),
            message(chat="g1@chatroom", body="Chapter 3", sent_at="2026-05-13T10:00:00"),
        ],
    )
    assert d.texts(rid="chat_title") == ["Lily Chen", "Book club"]  # the remark, newest first
    assert d.texts(rid="chat_time") == ["19:00", "Yesterday"]
    assert d.texts(rid="unread_count") == ["2"]
    d.tap(text="Lily Chen")
    assert coll(ep, "wechat", "chats")[0]["unread"] == 0
    d.back()
    d.long_press(text="Book club")
    d.tap(text="Sticky on Top")
    assert d.texts(rid="chat_title") == ["Book club", "Lily Chen"]
    d.long_press(text="Lily Chen")
    d.tap(text="Mark as Unread")
    assert coll(ep, "wechat", "chats")[0]["unread"] == 1
    d.long_press(text="Book club")
    d.tap(text="Delete")
    d.tap(text="Cancel")
    assert len(coll(ep, "wechat", "chats")) == 2
    d.long_press(text="Book club")
    d.tap(text="Delete")
    d.tap(text="Delete")
    assert [c["peer"] for c in coll(ep, "wechat", "chats")] == [LILY]
    assert [m["chat"] for m in coll(ep, "wechat", "messages")] == [LILY]


def test_message_menu_deletes_one_message_and_chat_info_toggles() -> None:
    ep, d = episode()
    set_state(
        ep,
        "wechat",
        chats=[chat(LILY, "Lily", last_activity="2026-05-14T19:00:00")],
        messages=[
            message(chat=LILY, body="first", sent_at="2026-05-14T18:00:00"),
            message(chat=LILY, body="second", sent_at="2026-05-14T19:00:00"),
        ],
    )
    d.tap(text="Lily Chen")
    assert d.texts(rid="chatting_time") == ["18:00", "19:00"]
    d.long_press(text="first")
    d.tap(text="Delete")
    assert [m["body"] for m in coll(ep, "wechat", "messages")] == ["second"]
    d.tap(desc="Chat Info")
    assert activity(ep) == "SingleChatInfoUI"
    d.tap(text="Mute Notifications")
    assert coll(ep, "wechat", "chats")[0]["muted"] is True
    d.tap(text="Clear Chat History")
    d.tap(text="Clear")
    assert coll(ep, "wechat", "messages") == []


def test_sending_a_location_and_a_file_from_the_panel() -> None:
    ep, d = episode("cross.send_file_wechat")
    d.open("WeChat")
    chat_with(ep, d, "Lily Chen")
    d.tap(desc="More function buttons")
    d.tap(text="Location", rid="panel_title")
    d.type("People's Square", rid="location_search")
    d.tap(text="People's Square", rid="poi_name")
    d.tap(text="Send")
    d.tap(desc="More function buttons")
    d.tap(text="File", rid="panel_title")
    assert (
        not d.find(text="Send", cls="Button") or not ep.tree().flat()[d.need(text="Send")].enabled
    )
    d.tap(text="lease_agreement.pdf")
    d.tap(text="Send(1)")
    kinds = [(m["kind"], m["body"]) for m in coll(ep, "wechat", "messages")]
    assert kinds == [("location", "People's Square"), ("file", "lease_agreement.pdf")]
    assert d.texts(rid="file_name") == ["lease_agreement.pdf"]


# ------------------------------------------------------------------ transfers
def start_transfer(ep: Episode, d: Driver, amount: str, note: str = "") -> None:
    chat_with(ep, d, "Lily Chen")
    d.tap(desc="More function buttons")
    d.tap(text="Transfer", rid="panel_title")
    d.type(amount, rid="remittance_amount")
    if note:
        d.tap(text="Add Note")
        d.type(note, rid="remittance_desc_input")
        d.tap(text="OK")


def test_transfer_pays_from_the_balance_and_posts_a_message() -> None:
    ep, d = episode()
    start_transfer(ep, d, "12.5", "Taxi")
    d.tap(text="Transfer", rid="remittance_btn")
    assert d.texts(rid="pay_amount") == ["$12.50"]
    assert d.texts(rid="pay_method") == ["Balance ($80.00)"]
    d.tap(text="Pay")
    transfers = coll(ep, "wechat", "transfers")
    assert [(t["to"], t["amount"], t["note"], t["status"]) for t in transfers] == [
        (LILY, 1250, "Taxi", "pending")
    ]
    assert setting(ep, "wechat", "wallet_balance") == 6750
    [m] = coll(ep, "wechat", "messages")
    assert (m["chat"], m["kind"], m["amount"], m["body"], m["outgoing"]) == (
        LILY,
        "transfer",
        1250,
        "Taxi",
        True,
    )
    assert activity(ep) == "RemittanceResultNewUI"
    assert not d.has(text="Pay")  # the sheet is gone: no second payment
    d.tap(text="Done")
    assert activity(ep) == "ChattingUI"
    assert d.texts(rid="transfer_amount") == ["$12.50"]
    assert d.texts(rid="transfer_status") == ["Pending"]


def test_invalid_amount_keeps_transfer_disabled() -> None:
    ep, d = episode()
    start_transfer(ep, d, "1.234")
    assert d.has(text="Invalid amount")
    button = ep.tree().flat()[d.need(text="Transfer", rid="remittance_btn")]
    assert not button.enabled
    out = ep.step({"action_type": "click", "index": d.need(text="Transfer", rid="remittance_btn")})
    assert out.ok and "disabled" in out.info
    assert activity(ep) == "RemittanceUI" and coll(ep, "wechat", "transfers") == []


def test_note_cancel_keeps_the_old_note() -> None:
    ep, d = episode()
    start_transfer(ep, d, "5", "Dinner")
    d.tap(text="Change")
    d.type("Other", rid="remittance_desc_input")
    d.tap(text="Cancel")
    assert d.texts(rid="remittance_desc") == ["Dinner"]


def test_insufficient_balance_or_closing_the_sheet_pays_nothing() -> None:
    ep, d = episode()
    start_transfer(ep, d, "95")
    d.tap(text="Transfer", rid="remittance_btn")
    d.tap(text="Pay")
    assert d.has(text="Insufficient Balance")
    d.tap(text="OK")
    assert coll(ep, "wechat", "transfers") == [] and setting(ep, "wechat", "wallet_balance") == 8000
    d.tap(desc="Close")
    assert activity(ep) == "RemittanceUI"
    assert coll(ep, "wechat", "transfers") == []


def test_a_card_pays_for_this_transfer_only() -> None:
    ep, d = episode()
    start_transfer(ep, d, "95")
    d.tap(text="Transfer", rid="remittance_btn")
    d.tap(text="Payment Method")
    d.tap(text="Bank Card")
    assert d.texts(rid="pay_method") == ["Bank Card"]
    d.tap(text="Pay")
    assert coll(ep, "wechat", "transfers")[0]["amount"] == 9500
    assert setting(ep, "wechat", "wallet_balance") == 8000
    assert setting(ep, "wechat", "payment_method") == "balance"


# ------------------------------------------------------------------ contacts and settings
def test_remark_star_and_delete_a_friend() -> None:
    ep, d = episode()
    d.tap(text="Contacts", rid="tab_label")
    click(d, d.scroll_to(text="Dan (work)", rid="contact_name"))
    assert d.has(text="Name: Daniel W.") and d.has(text="WeChat ID: wxid_p7r3t8")
    d.tap(text="Set Remark and Tag")
    d.type("Daniel Wu", rid="remark_input")
    d.tap(text="Done")
    dan = next(f for f in coll(ep, "wechat", "friends") if f["wxid"] == "wxid_p7r3t8")
    assert dan["remark"] == "Daniel Wu" and dan["phone"] is None
    assert d.has(text="Daniel Wu", rid="contact_info_name")
    d.tap(desc="More")
    d.tap(text="Add to Starred")
    dan = next(f for f in coll(ep, "wechat", "friends") if f["wxid"] == "wxid_p7r3t8")
    assert dan["starred"] is True
    count = len(coll(ep, "wechat", "friends"))
    d.tap(desc="More")
    d.tap(text="Delete")
    d.tap(text="Cancel")
    assert len(coll(ep, "wechat", "friends")) == count
    d.tap(desc="More")
    d.tap(text="Delete")
    d.tap(text="Delete")
    assert len(coll(ep, "wechat", "friends")) == count - 1
    assert activity(ep) == "LauncherUI" and not d.has(text="Daniel Wu")


def test_settings_switches_and_choices() -> None:
    ep, d = episode()
    d.tap(text="Me", rid="tab_label")
    d.tap(text="Settings")
    d.tap(text="Message Notifications")
    d.tap(text="New Message Alert")
    assert setting(ep, "wechat", "new_message_notifications") is False
    assert not ep.tree().flat()[d.need(rid="checkbox")].checked
    d.back()
    d.tap(text="General")
    d.tap(text="Font Size")
    d.tap(text="Large")
    assert setting(ep, "wechat", "font_size") == "large"
    assert d.has(text="Large", rid="android:id/summary")


def test_invalid_actions_are_refused() -> None:
    ep, d = episode()
    out = ep.step({"action_type": "input_text", "text": "x", "index": d.need(text="WeChat")})
    assert not out.ok and "not a text field" in out.info
    out = ep.step({"action_type": "click", "index": 10_000})
    assert not out.ok and "out of range" in out.info
    out = ep.step({"action_type": "open_app", "app_name": "Coffee"})  # a mini program
    assert not out.ok and "no app named" in out.info


# ------------------------------------------------------------------ mini programs
def test_recent_mini_programs_and_unavailable_ones() -> None:
    ep, d = episode()
    set_state(
        ep,
        "wechat",
        recent_mini_apps=[
            {"name": "Bike Share", "last_used": "2026-05-10T08:00:00", "pinned": False},
            {"name": "Coffee", "last_used": "2026-05-12T08:00:00", "pinned": True},
        ],
    )
    d.tap(text="Discover", rid="tab_label")
    d.tap(text="Mini Programs")
    assert d.has(text="My Mini Programs")
    assert d.texts(rid="appbrand_name") == ["Coffee", "Coffee", "Bike Share"]
    assert d.find(desc="Recently Used", text="Bike Share") is not None
    d.tap(text="Bike Share")
    assert ep.phone.toast == "Bike Share is unavailable" and ep.phone.foreground == "wechat"
    d.tap(text="Coffee", nth=1)
    assert ep.phone.foreground == "coffee"
    # opening one is WeChat's own bookkeeping: it was used now (its pin stays)
    assert coll(ep, "wechat", "recent_mini_apps") == [
        {"name": "Bike Share", "last_used": "2026-05-10T08:00:00", "pinned": False},
        {
            "name": "Coffee",
            "last_used": ep.phone.clock.isoformat(timespec="seconds"),
            "pinned": True,
        },
    ]


def test_a_mini_program_opened_joins_the_recently_used() -> None:
    ep, d = episode()
    set_state(ep, "wechat", recent_mini_apps=[])
    open_coffee(ep, d)
    assert coll(ep, "wechat", "recent_mini_apps") == [
        {
            "name": "Coffee",
            "last_used": ep.phone.clock.isoformat(timespec="seconds"),
            "pinned": False,
        }
    ]


def test_closing_or_leaving_the_mini_program_returns_to_wechat() -> None:
    ep, d = episode("mini.coffee_order_latte")
    open_coffee(ep, d)
    d.tap(text="Menu", rid="tab-bar-item")
    d.tap(text="Latte", rid="menu-item-name")
    d.tap(desc="Close")
    assert ep.phone.foreground == "wechat" and activity(ep) == "FTSMainUI"
    assert "coffee" not in ep.phone.stacks
    d.tap(text="Coffee", rid="appbrand_name")
    assert activity(ep) == "AppBrandUI" and d.has(text="Order Now")
    d.back()
    assert ep.phone.foreground == "wechat"


def test_sharing_the_mini_program_to_a_chat_and_opening_the_card() -> None:
    ep, d = episode("cross.send_file_wechat")
    d.open("WeChat")
    open_coffee(ep, d)
    d.tap(desc="More")
    d.tap(text="Send to Chat")
    assert ep.phone.foreground == "wechat" and activity(ep) == "SelectConversationUI"
    d.tap(text="Create New Chat")
    d.tap(text="Lily Chen")
    assert d.has(text="[Mini Program] Coffee")
    d.tap(text="Send")
    [m] = coll(ep, "wechat", "messages")
    assert (m["chat"], m["kind"], m["body"]) == (LILY, "link", "Coffee")
    assert ep.phone.foreground == "coffee" and ep.phone.toast == "Sent"
    d.tap(desc="Close")
    d.back()  # the search
    d.back()  # Mini Programs
    d.tap(text="Chats", rid="tab_label")
    d.tap(text="Lily Chen", rid="chat_title")
    assert d.texts(rid="chat_snippet") == [] and d.has(text="Mini Program")
    d.tap(text="Coffee", rid="appbrand_name")
    assert ep.phone.foreground == "coffee"


# ------------------------------------------------------------------ "Send to Chat"
def share_from_files(ep: Episode, d: Driver, name: str) -> None:
    d.tap(text="Download", rid="title")
    click(d, d.scroll_to(text=name, rid="title"), long=True)
    d.tap(desc="Share")
    d.tap(text="WeChat")
    assert ep.phone.foreground == "wechat" and activity(ep) == "SelectConversationUI"
    assert d.has(text="Send to Chat")


def test_share_to_a_recent_chat_with_a_message() -> None:
    ep, d = episode("cross.send_file_wechat")
    set_state(ep, "wechat", chats=[chat(LILY, "Lily", last_activity="2026-05-14T12:00:00")])
    share_from_files(ep, d, "lease_agreement.pdf")
    d.tap(text="Lily Chen", rid="chat_title")
    assert d.has(text="Send to:") and d.has(text="[File] lease_agreement.pdf")
    d.type("Please sign", rid="send_to_message")
    d.tap(text="Send")
    got = [(m["chat"], m["kind"], m["body"]) for m in coll(ep, "wechat", "messages")]
    assert got == [(LILY, "file", "lease_agreement.pdf"), (LILY, "text", "Please sign")]
    assert coll(ep, "wechat", "chats")[0]["last_activity"] == "2026-05-14T16:40:00"
    assert activity(ep) == "LauncherUI" and ep.phone.toast == "Sent"


def test_share_cancel_sends_nothing_and_back_returns_to_files() -> None:
    ep, d = episode("cross.send_file_wechat")
    share_from_files(ep, d, "trip_itinerary.docx")
    d.type("dan", rid="search_input")
    d.tap(text="Dan (work)")
    d.tap(text="Cancel")
    assert coll(ep, "wechat", "messages") == []
    d.back()  # keyboard
    d.back()
    assert ep.phone.foreground == "wechat" and activity(ep) == "LauncherUI"


# ------------------------------------------------------------------ coffee: stores and items
def test_closed_store_cannot_be_chosen() -> None:
    ep, d = episode("mini.coffee_order_latte")
    stores = coll(ep, "coffee", "stores")
    set_state(ep, "coffee", stores=[{**stores[0], "open_now": False}, *stores[1:]])
    open_coffee(ep, d)
    d.tap(text="Menu", rid="tab-bar-item")
    assert d.texts(rid="store-name") == ["Central Plaza"]  # the nearest open store
    d.tap(text="Change", rid="store-change")
    assert d.texts(rid="store-status") == ["Closed", "Open", "Open"]
    d.tap(text="Riverside", desc="store")
    assert ep.phone.toast is not None and "closed" in ep.phone.toast
    assert setting(ep, "coffee", "default_store") is None
    d.tap(text="Airport T2", desc="store")
    assert setting(ep, "coffee", "default_store") == "Airport T2"
    assert d.texts(rid="store-name") == ["Airport T2"]


def test_item_options_price_and_merge_into_one_cart_line() -> None:
    ep, d = episode("mini.coffee_order_latte")
    open_coffee(ep, d)
    d.tap(text="Menu", rid="tab-bar-item")
    d.tap(text="Latte", rid="menu-item-name")
    d.tap(text="Large")
    d.tap(text="Oat Milk")
    d.tap(text="Less Sugar")
    d.tap(desc="More shots")
    d.tap(desc="Increase quantity")
    d.tap(desc="Increase quantity")
    d.tap(desc="Decrease quantity")
    assert d.texts(rid="item-total") == ["$13.00"]  # (4.50 + 0.60 + 0.60 + 0.80) x 2
    d.tap(text="Add to Cart")
    d.tap(text="Latte", rid="menu-item-name")
    d.tap(text="Large")
    d.tap(text="Oat Milk")
    d.tap(text="Less Sugar")
    d.tap(desc="More shots")
    d.tap(text="Add to Cart")
    assert coll(ep, "coffee", "cart") == [
        {
            "item": "Latte",
            "size": "large",
            "milk": "oat",
            "sugar": "less",
            "shots": 2,
            "quantity": 3,
            "price": 1950,
        }
    ]
    d.tap(text="Tea", rid="category")
    assert d.texts(rid="menu-item-name") == ["Matcha Latte"]
    assert d.has(text="Cart (3)") and d.has(text="$19.50")


def test_cart_steps_remove_and_clear() -> None:
    ep, d = episode("mini.coffee_order_latte")
    open_coffee(ep, d)
    d.tap(text="Menu", rid="tab-bar-item")
    for drink in ("Latte", "Americano"):
        d.tap(text=drink, rid="menu-item-name")
        d.tap(text="Add to Cart")
    d.tap(text="Cart (2)")
    assert d.texts(rid="cart_item") == ["Latte", "Americano"]
    d.tap(desc="Increase quantity", nth=1)
    assert coll(ep, "coffee", "cart")[1]["quantity"] == 2
    assert coll(ep, "coffee", "cart")[1]["price"] == 640
    d.tap(desc="Decrease quantity")
    assert [c["item"] for c in coll(ep, "coffee", "cart")] == ["Americano"]
    d.tap(text="Clear")
    d.tap(text="Cancel")
    assert len(coll(ep, "coffee", "cart")) == 1
    d.tap(text="Clear")
    d.tap(text="Clear", cls="Button")
    assert coll(ep, "coffee", "cart") == [] and d.has(text="Your cart is empty")
    d.tap(text="Checkout", rid="cart-checkout")
    assert ep.phone.toast == "Your cart is empty" and activity(ep) == "AppBrandUI"


# ------------------------------------------------------------------ coffee: checkout and payment
def to_checkout(ep: Episode, d: Driver, drink: str = "Latte") -> None:
    open_coffee(ep, d)
    d.tap(text="Menu", rid="tab-bar-item")
    d.tap(text=drink, rid="menu-item-name")
    d.tap(text="Add to Cart")
    d.tap(text="Checkout", rid="cart-checkout")
    assert d.has(text="Confirm Order")


def test_coupon_and_delivery_go_into_the_order() -> None:
    ep, d = episode("mini.coffee_order_latte")
    set_state(
        ep,
        "coffee",
        coupons=[
            {
                "code": "SAVE1",
                "title": "$1 off any drink",
                "discount": 100,
                "min_spend": 0,
                "expires": "2026-06-30",
                "used": False,
            },
            {
                "code": "BIG",
                "title": "$3 off $20",
                "discount": 300,
                "min_spend": 2000,
                "expires": "2026-06-30",
                "used": False,
            },
            {
                "code": "OLD",
                "title": "Expired deal",
                "discount": 200,
                "min_spend": 0,
                "expires": "2026-05-01",
                "used": False,
            },
        ],
    )
    to_checkout(ep, d)
    d.tap(text="Delivery")
    assert d.has(text="Delivery Fee") and d.has(text="Total $6.50")
    d.tap(text="1 available")
    assert d.texts(rid="coupon-state") == ["Use", "Spend $20.00 to use", "Expired"]
    d.tap(text="$1 off any drink")
    assert d.has(text="Total $5.50") and d.has(text="-$1.00")
    d.tap(text="Place Order")
    d.tap(text="Pay")
    [order] = coll(ep, "coffee", "orders")
    assert (order["pickup"], order["coupon"], order["total"], order["items"]) == (
        "delivery",
        "SAVE1",
        550,
        ["Latte"],
    )
    used = {c["code"]: c["used"] for c in coll(ep, "coffee", "coupons")}
    assert used == {"SAVE1": True, "BIG": False, "OLD": False}
    assert setting(ep, "wechat", "wallet_balance") == 20000 - 550
    assert activity(ep) == "AppBrandUI" and d.has(text=f"Order No. {order['order_no']}")
    assert [r.screen for r in ep.phone.stacks["coffee"]] == ["menu", "order"]


def test_wechat_pay_insufficient_balance_places_no_order() -> None:
    ep, d = episode("mini.coffee_order_latte")
    set_state(ep, "wechat", settings={"wallet_balance": 100})
    to_checkout(ep, d)
    d.tap(text="Place Order")
    d.tap(text="Pay")
    assert d.has(text="Insufficient Balance")
    d.tap(text="OK")
    assert coll(ep, "coffee", "orders") == []
    assert activity(ep) == "WalletPayUI"
    d.tap(desc="Close")
    assert d.has(text="Confirm Order")


def test_member_balance_pays_without_wechat() -> None:
    ep, d = episode("mini.coffee_order_latte")
    to_checkout(ep, d, "Americano")
    d.tap(text="WeChat Pay")
    d.tap(text="Member Balance ($0.00)")
    d.tap(text="Place Order")
    assert d.has(text="Insufficient Member Balance")
    d.tap(text="OK")
    set_state(ep, "coffee", settings={"member_balance": 1000})
    d.tap(text="Place Order")
    d.tap(text="Cancel")
    assert coll(ep, "coffee", "orders") == []
    d.tap(text="Place Order")
    d.tap(text="Confirm")
    assert [o["total"] for o in coll(ep, "coffee", "orders")] == [320]
    assert setting(ep, "coffee", "member_balance") == 680
    assert setting(ep, "coffee", "payment") == "wechat_pay"  # chosen for this order only
    assert setting(ep, "wechat", "wallet_balance") == 20000


def test_order_numbers_follow_the_last_one() -> None:
    ep, d = episode("mini.coffee_cancel_duplicate")
    store = {
        "name": "Riverside",
        "address": "88 Binjiang Ave",
        "distance_km": 0.8,
        "opens": "07:00:00",
        "closes": "21:00:00",
        "open_now": True,
    }
    set_state(
        ep,
        "coffee",
        menu=[{"name": "Latte", "category": "coffee", "price": 450}],
        stores=[store],
    )
    to_checkout(ep, d)
    d.tap(text="Place Order")
    d.tap(text="Pay")
    last = max(int(o["order_no"][1:]) for o in coll(ep, "coffee", "orders")[:-1])
    assert last == int(d.params["pair"]["second"][1:])  # the duplicates are the latest
    assert coll(ep, "coffee", "orders")[-1]["order_no"] == f"A{last + 1}"
    lines = coll(ep, "coffee", "order_lines")
    assert [(x["order_no"], x["item"], x["quantity"], x["price"]) for x in lines] == [
        (f"A{last + 1}", "Latte", 1, 450)
    ]


# ------------------------------------------------------------------ coffee: orders
def test_cancel_order_needs_confirmation_and_is_final() -> None:
    ep, d = episode("mini.coffee_cancel_duplicate")
    open_coffee(ep, d)
    d.tap(text="Orders", rid="tab-bar-item")
    first, second = d.params["pair"]["first"], d.params["pair"]["second"]
    assert d.texts(rid="order-no") == [
        f"Order No. {second}",
        f"Order No. {first}",
        "Order No. A0977",
    ]
    d.tap(text=f"Order No. {first}")
    d.tap(text="Cancel order")
    d.tap(text="Keep Order")
    assert [o["status"] for o in coll(ep, "coffee", "orders")] == ["placed", "placed", "delivered"]
    d.tap(text="Cancel order")
    d.tap(text="Confirm")
    assert [o["status"] for o in coll(ep, "coffee", "orders")] == [
        "cancelled",
        "placed",
        "delivered",
    ]
    assert d.has(text="Cancelled") and not d.has(text="Cancel order") and d.has(text="Order Again")
    assert setting(ep, "wechat", "wallet_balance") == 20000  # the refund takes days
    d.back()
    assert d.texts(rid="order-status") == ["Placed", "Cancelled", "Completed"]


def test_order_again_fills_the_cart() -> None:
    ep, d = episode("mini.coffee_cancel_duplicate")
    set_state(
        ep,
        "coffee",
        menu=[
            {
                "name": "Latte",
                "category": "coffee",
                "price": 450,
                "size": "medium",
                "available": True,
            },
            {
                "name": "Croissant",
                "category": "food",
                "price": 320,
                "size": "medium",
                "available": False,
            },
        ],
    )
    open_coffee(ep, d)
    d.tap(text="Orders", rid="tab-bar-item")
    d.tap(text="Order No. A0977")
    assert d.texts(rid="order-line-name") == ["Latte", "Croissant"]
    d.tap(text="Order Again")
    assert ep.phone.toast == "Not available now: Croissant"
    assert [(c["item"], c["quantity"], c["price"]) for c in coll(ep, "coffee", "cart")] == [
        ("Latte", 1, 450)
    ]
    assert d.has(text="Cart")
