"""PhoneWorld's Messages app (Simple SMS Messenger): the reference solution of its tasks, the
screens' XML, and the handlers' behaviour through real actions."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tasklang import ir
from tasklang.compiler import Compiler
from tasklang.envs.phoneworld.app import AppData, Ctx
from tasklang.envs.phoneworld.apps.messages import number_key
from tasklang.envs.phoneworld.episode import Episode, run_nothing, run_reference
from tasklang.envs.phoneworld.solutions.base import Driver
from tasklang.verifiers.snapshot import parse_ui_xml

ROOT = Path(__file__).resolve().parents[1]
TASKS = ["messages.reply_unread"]
PRIYA = "+44 7700 900123"
PKG = "com.simplemobiletools.smsmessenger"


@cache
def compiled(task_id: str) -> ir.CompiledTask:
    path = ROOT / "task_library" / "app" / f"{task_id}.task"
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
def episode(seed: int = 0) -> tuple[Episode, Driver]:
    ep = Episode(compiled("messages.reply_unread"), seed)
    assert ep.instance is not None
    d = Driver(ep.tree, ep.step, ep.instance.params)
    d.open("Messages")
    return ep, d


def coll(ep: Episode, name: str) -> list[dict[str, Any]]:
    return ep.phone.state["messages"].collections[name]


def thread(ep: Episode, address: str) -> dict[str, Any]:
    return next(t for t in coll(ep, "threads") if number_key(t["address"]) == number_key(address))


def set_state(ep: Episode, app: str, **collections: list[dict[str, Any]]) -> None:
    data = ep.phone.state.get(app, AppData({}, {}))
    ep.phone.state[app] = AppData({**data.collections, **collections}, data.settings)
    ep.phone.invalidate()


def activity(ep: Episode) -> str:
    return ep.phone.current_activity()[1].rsplit(".", 1)[-1]


def row_of(d: Driver, title: str) -> int:
    """The index of the conversation row whose title is ``title``."""
    tree = list(d.observe().walk())
    i = d.scroll_to(text=title, rid="conversation_address")
    return max(j for j in range(i) if tree[j].rid.endswith(":id/conversation_frame"))


def xml_ok(ep: Episode) -> None:
    _, elements = parse_ui_xml(ep.xml())
    assert elements and all(e.package for e in elements)


# ------------------------------------------------------------------ screens
def test_every_screen_produces_parseable_xml() -> None:
    ep, d = episode()
    xml_ok(ep)
    assert activity(ep) == "MainActivity"
    d.type("lu", rid="top_toolbar_search")
    xml_ok(ep)
    d.back()
    d.type("", rid="top_toolbar_search")
    d.long_press(text="Priya Shah")
    xml_ok(ep)
    d.tap(desc="More options")
    xml_ok(ep)
    d.back()
    d.back()
    d.tap(desc="More options")
    d.tap(text="Archived conversations")
    xml_ok(ep)
    assert activity(ep) == "ArchivedConversationsActivity"
    d.back()
    d.tap(desc="Start a conversation")
    xml_ok(ep)
    assert activity(ep) == "NewConversationActivity"
    d.back()
    d.tap(text="Priya Shah")
    xml_ok(ep)
    assert activity(ep) == "ThreadActivity"
    d.tap(desc="More options")
    xml_ok(ep)
    d.tap(text="Conversation details")
    xml_ok(ep)
    assert activity(ep) == "ConversationDetailsActivity"
    d.back()
    d.back()
    d.tap(desc="Settings")
    xml_ok(ep)
    assert activity(ep) == "SettingsActivity"
    d.tap(text="Customize colors")
    xml_ok(ep)
    d.tap(text="Theme")
    xml_ok(ep)
    d.back()
    d.back()
    d.back()
    d.tap(desc="About")
    xml_ok(ep)
    assert activity(ep) == "AboutActivity"


def test_list_shows_unread_pinned_and_newest_first() -> None:
    ep, d = episode()
    tree = list(d.observe().walk())
    rows = [v for v in tree if v.rid.endswith(":id/conversation_frame")]
    titles = [
        next(c.text for c in r.walk() if c.rid.endswith(":id/conversation_address")) for r in rows
    ]
    assert "Priya Shah" in titles
    priya = rows[titles.index("Priya Shah")]
    descs = {c.desc for c in priya.walk()}
    texts = {c.text for c in priya.walk()}
    assert "Unread" in descs
    assert "Are we still on for lunch?" in texts
    pinned = [i for i, r in enumerate(rows) if any(c.desc == "Pinned" for c in r.walk())]
    assert pinned == list(range(len(pinned)))  # pinned conversations on top
    when = {r["from"]: r["timestamp"] for r in coll(ep, "received")}
    when |= {t["contact_name"] or t["address"]: t["last_activity"] for t in coll(ep, "threads")}
    dates = [when[t] for t in titles[len(pinned) :]]
    assert dates == sorted(dates, reverse=True)  # then the newest first
    assert d.has(desc="Start a conversation", rid=f"{PKG}:id/conversations_fab")


def test_empty_list_offers_to_start_a_conversation() -> None:
    ep, d = episode()
    set_state(ep, "messages", threads=[], received=[], sent=[], drafts=[])
    assert d.has(text="No stored conversations have been found")
    d.tap(text="Start a conversation")
    assert activity(ep) == "NewConversationActivity"


# ------------------------------------------------------------------ reading and replying
def test_opening_a_conversation_marks_it_read() -> None:
    ep, d = episode()
    d.tap(text="Priya Shah")
    assert d.has(text="Are we still on for lunch?", rid="thread_message_body")
    assert d.has(text="Type a message…", rid="thread_type_message")
    assert all(r["read"] for r in coll(ep, "received") if r["from"] == PRIYA)
    assert thread(ep, PRIYA)["unread"] is False
    d.back()
    assert activity(ep) == "MainActivity"
    assert not d.has(desc="Unread")


def test_sending_records_the_message_to_the_thread_number() -> None:
    ep, d = episode()
    d.tap(text="Priya Shah")
    d.type("On my way!", rid="thread_type_message")
    d.tap(desc="Send")
    sent = coll(ep, "sent")
    assert sent == [
        {
            "to": PRIYA,
            "body": "On my way!",
            "timestamp": ep.phone.clock.isoformat(),
            "status": "sent",
            "mms": False,
        }
    ]
    t = thread(ep, PRIYA)
    assert t["snippet"] == "On my way!" and t["last_activity"] == ep.phone.clock.isoformat()
    assert d.has(text="On my way!", rid="thread_message_body")
    assert d.has(text="Type a message…", rid="thread_type_message")  # the field is cleared
    # with an empty field the send button is disabled: a tap sends nothing
    out = ep.step({"action_type": "click", "index": d.need(desc="Send")})
    assert out.ok and "nothing happened" in out.info
    assert len(coll(ep, "sent")) == 1


def test_enter_adds_a_line_unless_send_on_enter() -> None:
    ep, d = episode()
    d.tap(text="Priya Shah")
    d.type("Hi", rid="thread_type_message")
    d.enter()
    assert coll(ep, "sent") == []
    assert d.has(text="Hi\n", rid="thread_type_message")
    d.back()
    d.back()
    d.tap(desc="Settings")
    d.tap(text="Send message on pressing Enter")
    assert ep.phone.state["messages"].settings["send_on_enter"] is True
    assert d.has(text="Send message on pressing Enter", checked=True, cls="CheckBox")
    d.back()
    d.tap(text="Priya Shah")
    d.type("Hello", rid="thread_type_message")
    d.enter()
    assert [s["body"] for s in coll(ep, "sent")] == ["Hello"]


def test_sending_settings_accents_counter_and_long_mms() -> None:
    ep, d = episode()
    d.tap(desc="Settings")
    for label in (
        "Remove accents and diacritics at sending messages",
        "Show a character counter at writing messages",
        "Send long messages as MMS",
    ):
        d.tap(text=label)
    d.back()
    d.tap(text="Priya Shah")
    d.type("Café à côté", rid="thread_type_message")
    assert d.has(text="11", rid="thread_character_counter")
    d.tap(desc="Send")
    long_text = "x" * 200
    d.type(long_text, rid="thread_type_message")
    d.tap(desc="Send")
    sent = coll(ep, "sent")
    assert [s["body"] for s in sent] == ["Cafe a cote", long_text]
    assert [s["mms"] for s in sent] == [False, True]


def test_reply_goes_to_the_conversation_number_as_stored() -> None:
    ep, d = episode()
    # a conversation known only from a message, from a number written another way
    set_state(
        ep,
        "messages",
        received=[
            *coll(ep, "received"),
            {"from": "07700 900555", "body": "Hi, it's Zoe", "timestamp": "2026-05-14T09:10:00", "read": False},
        ],
    )  # fmt: skip
    set_state(ep, "contacts", people=[{"name": "Zoe Park", "phone": "+44 7700 900555"}])
    threads_before = list(coll(ep, "threads"))
    d.tap(text="Zoe Park")
    assert activity(ep) == "ThreadActivity"
    assert coll(ep, "threads") == threads_before  # opening creates no thread record
    d.type("Hi Zoe", rid="thread_type_message")
    d.tap(desc="Send")
    assert coll(ep, "sent")[-1]["to"] == "07700 900555"
    new = thread(ep, "07700 900555")
    assert new["contact_name"] == "Zoe Park" and new["snippet"] == "Hi Zoe"


def test_derived_conversations_are_read_without_creating_threads() -> None:
    ep, d = episode()
    set_state(
        ep,
        "messages",
        threads=[],
        received=[{"from": "+44 7700 900789", "body": "Can we do 2pm instead?",
                   "timestamp": "2026-05-14T08:52:00", "read": False}],
    )  # fmt: skip
    set_state(ep, "contacts", people=[{"name": "Tom Reyes", "phone": "+44 7700 900789"}])
    assert d.has(text="Tom Reyes") and d.has(desc="Unread")
    d.tap(text="Tom Reyes")
    assert d.has(text="Can we do 2pm instead?")
    assert coll(ep, "received")[0]["read"] is True
    assert coll(ep, "threads") == []


# ------------------------------------------------------------------ selection mode
def test_long_press_selects_and_marks_unread_and_read() -> None:
    ep, d = episode()
    total = len({number_key(t["address"]) for t in coll(ep, "threads") if not t["archived"]})
    total += len(
        {number_key(r["from"]) for r in coll(ep, "received")}
        - {number_key(t["address"]) for t in coll(ep, "threads")}
    )
    d.long_press(text="Sven Hansen")
    assert d.has(text=f"1 / {total}")
    frames = [v for v in d.observe().walk() if v.rid.endswith(":id/conversation_frame")]
    assert sum(v.selected for v in frames) == 1
    d.tap(desc="More options")
    assert not d.has(text="Mark as Read")  # nothing selected is unread
    d.tap(text="Mark as Unread")
    assert ep.phone.dialog is None
    assert thread(ep, "+44 7700 900691")["unread"] is True
    assert activity(ep) == "MainActivity" and d.has(rid="top_toolbar_search")
    d.long_press(text="Sven Hansen")
    d.tap(desc="More options")
    d.tap(text="Mark as Read")
    assert thread(ep, "+44 7700 900691")["unread"] is False


def test_selection_toggles_and_back_leaves_it() -> None:
    ep, d = episode()
    d.long_press(text="Sven Hansen")
    assert d.find(contains="1 / ") is not None
    d.tap(text="Priya Shah")  # a tap in selection mode selects, does not open
    assert d.find(contains="2 / ") is not None and activity(ep) == "MainActivity"
    d.tap(text="Priya Shah")
    d.tap(text="Sven Hansen")  # nothing selected any more: selection mode ends
    assert d.has(rid="top_toolbar_search")
    d.long_press(text="Sven Hansen")
    d.back()
    assert d.has(rid="top_toolbar_search")
    assert activity(ep) == "MainActivity"
    assert coll(ep, "received")[0]["read"] is False  # nothing was opened


def test_delete_asks_first() -> None:
    ep, d = episode()
    before = len(coll(ep, "threads"))
    d.long_press(text="Priya Shah")
    d.tap(desc="Delete")
    assert d.has(text="Are you sure you want to delete 1 conversation?")
    d.tap(text="No")
    assert len(coll(ep, "threads")) == before
    d.tap(desc="Delete")
    d.tap(text="Yes")
    assert len(coll(ep, "threads")) == before - 1
    assert not any(r["from"] == PRIYA for r in coll(ep, "received"))
    assert not d.has(text="Priya Shah")
    assert d.has(rid="top_toolbar_search")


def test_pin_and_archive() -> None:
    ep, d = episode(1)
    d.long_press(text="Priya Shah")
    d.tap(desc="More options")
    d.tap(text="Pin to the top")
    assert thread(ep, PRIYA)["pinned"] is True
    assert d.texts(rid="conversation_address")[0] == "Priya Shah"
    d.long_press(text="Priya Shah")
    d.tap(desc="Archive")
    assert thread(ep, PRIYA)["archived"] is True
    assert not d.has(text="Priya Shah")
    d.tap(desc="More options")
    d.tap(text="Archived conversations")
    assert d.has(text="Priya Shah")
    d.long_press(text="Priya Shah")
    d.tap(desc="Unarchive")
    assert thread(ep, PRIYA)["archived"] is False
    d.back()
    assert d.has(text="Priya Shah")


def test_pinning_a_derived_conversation_creates_its_thread() -> None:
    ep, d = episode()
    n = len(coll(ep, "threads"))
    i = row_of(d, "+44 7700 900679")
    d.act({"action_type": "long_press", "index": i})
    d.tap(desc="More options")
    d.tap(text="Pin to the top")
    assert len(coll(ep, "threads")) == n + 1
    new = thread(ep, "+44 7700 900679")
    assert new["pinned"] and new["snippet"] == "The photos from the trip are up."
    assert new["last_activity"] == "2026-05-14T09:21:00" and new["unread"] is False


# ------------------------------------------------------------------ thread menu
def test_thread_delete_and_mark_unread() -> None:
    ep, d = episode()
    d.tap(text="Priya Shah")
    d.tap(desc="More options")
    d.tap(text="Mark as Unread")
    assert activity(ep) == "MainActivity"
    assert thread(ep, PRIYA)["unread"] is True
    assert all(not r["read"] for r in coll(ep, "received") if r["from"] == PRIYA)
    d.tap(text="Priya Shah")
    d.tap(desc="Delete")
    assert d.has(text="Are you sure you want to delete all messages of this conversation?")
    d.back()  # dismiss
    assert activity(ep) == "ThreadActivity"
    d.tap(desc="Delete")
    d.tap(text="Yes")
    assert activity(ep) == "MainActivity"
    assert not any(number_key(t["address"]) == number_key(PRIYA) for t in coll(ep, "threads"))


def test_dial_number_has_no_dialer() -> None:
    ep, d = episode()
    d.tap(text="Priya Shah")
    d.tap(desc="Dial number")
    assert ep.phone.toast == "No app found"


# ------------------------------------------------------------------ new conversation
def test_new_conversation_with_a_contact() -> None:
    ep, d = episode()
    set_state(
        ep,
        "contacts",
        people=[
            {"name": "Alice Moreau", "phone": "+44 7700 900111"},
            {"name": "Bob Stone", "phone": "+44 7700 900222"},
        ],
    )
    d.tap(desc="Start a conversation")
    assert d.has(text="Add Contact or Number…", rid="new_conversation_address")
    assert d.has(text="Alice Moreau") and d.has(text="Bob Stone")
    d.type("bob", rid="new_conversation_address")
    assert not d.has(text="Alice Moreau", rid="item_contact_name")
    d.tap(text="Bob Stone", rid="item_contact_name")
    assert activity(ep) == "ThreadActivity" and d.has(text="Bob Stone")
    d.type("Hello Bob", rid="thread_type_message")
    d.tap(desc="Send")
    assert coll(ep, "sent")[-1]["to"] == "+44 7700 900222"
    assert thread(ep, "+44 7700 900222")["contact_name"] == "Bob Stone"
    d.back()
    d.back()  # the new conversation screen was replaced by the conversation
    assert activity(ep) == "MainActivity"
    assert d.texts(rid="conversation_address")[1] == "Bob Stone"  # after the pinned one


def test_new_conversation_with_a_number_and_invalid_text() -> None:
    ep, d = episode()
    d.tap(desc="Start a conversation")
    d.type("hello", rid="new_conversation_address")
    d.enter()
    assert ep.phone.toast == "Invalid number"
    assert activity(ep) == "NewConversationActivity"
    d.type("+44 7700 900444", rid="new_conversation_address")
    d.tap(desc="Confirm selection")
    assert activity(ep) == "ThreadActivity" and d.has(text="+44 7700 900444")
    d.back()  # keyboard is hidden already; leaves the conversation
    assert activity(ep) == "MainActivity"
    assert not d.has(text="+44 7700 900444")  # nothing was sent: no conversation


def test_opening_an_existing_number_reuses_its_conversation() -> None:
    ep, d = episode()
    d.tap(desc="Start a conversation")
    d.type("07700 900123", rid="new_conversation_address")
    d.enter()
    assert d.has(text="Priya Shah") and d.has(text="Are we still on for lunch?")
    d.type("Yes!", rid="thread_type_message")
    d.tap(desc="Send")
    assert coll(ep, "sent")[-1]["to"] == PRIYA
    assert sum(number_key(t["address"]) == number_key(PRIYA) for t in coll(ep, "threads")) == 1


def test_draft_is_shown_and_dropped_on_send() -> None:
    ep, d = episode()
    set_state(ep, "messages", drafts=[{"to": PRIYA, "body": "See you"}])
    assert d.has(text="Draft", rid="draft_indicator") and d.has(text="See you")
    d.tap(text="Priya Shah")
    assert d.has(text="See you", rid="thread_type_message")
    d.tap(desc="Send")
    assert coll(ep, "drafts") == []
    assert coll(ep, "sent")[-1]["body"] == "See you"


# ------------------------------------------------------------------ search
def test_search_finds_conversations_and_messages() -> None:
    ep, d = episode()
    d.type("l", rid="top_toolbar_search")
    assert d.has(text="Type at least 2 characters to start the search.")
    d.type("lunch", rid="top_toolbar_search")
    assert d.has(text="Are we still on for lunch?", rid="search_result_snippet")
    d.type("zzzz", rid="top_toolbar_search")
    assert d.has(text="No items found.")
    d.type("priya", rid="top_toolbar_search")
    d.enter()
    assert not ep.phone.keyboard
    d.tap(text="Priya Shah", rid="search_result_title")
    assert activity(ep) == "ThreadActivity"
    assert thread(ep, PRIYA)["unread"] is False


# ------------------------------------------------------------------ settings
def test_font_size_and_theme_choices() -> None:
    ep, d = episode()
    d.tap(desc="Settings")
    assert d.has(text="Medium", rid="settings_font_size")
    d.tap(text="Font size")
    d.tap(text="Large")
    assert ep.phone.dialog is None
    assert ep.phone.state["messages"].settings["font_size"] == "large"
    assert d.has(text="Large", rid="settings_font_size")
    d.tap(text="Font size")
    d.back()  # cancel
    assert ep.phone.state["messages"].settings["font_size"] == "large"
    d.tap(text="Customize colors")
    d.tap(text="Theme")
    assert d.has(text="Dark", checked=True)
    d.tap(text="Black & White")
    assert ep.phone.state["messages"].settings["theme"] == "black_white"
    assert d.has(text="Black & White", rid="customization_theme")
    d.tap(desc="Navigate up")
    d.tap(desc="Navigate up")
    assert activity(ep) == "MainActivity"


# ------------------------------------------------------------------ invalid actions
def test_invalid_actions_are_no_ops_with_a_reason() -> None:
    ep, d = episode()
    before = ep.phone.world().apps["messages"].collections
    out = ep.step({"action_type": "input_text", "text": "hi", "index": d.need(text="Priya Shah")})
    assert not out.ok and "not a text field" in out.info
    out = ep.step({"action_type": "click", "index": 10_000})
    assert not out.ok and "out of range" in out.info
    out = ep.step({"action_type": "input_text", "text": "hi"})
    assert not out.ok and "focus" in out.info
    assert ep.phone.world().apps["messages"].collections == before


def test_text_shared_by_another_app_waits_in_the_message_field() -> None:
    ep, d = episode()
    set_state(ep, "contacts", people=[{"name": "Ada Park", "phone": "+1 415 555 0134"}])
    d.home()
    app = ep.phone.apps["messages"]
    Ctx(ep.phone, app, None).open("messages", "new", body="306 Broderick St")
    ep.phone.invalidate()
    assert activity(ep) == "NewConversationActivity"
    d.tap(text="Ada Park", rid="item_contact_name")
    assert d.has(text="306 Broderick St", rid="thread_type_message")
    d.tap(desc="Send")
    assert coll(ep, "sent")[-1] == {
        "to": "+1 415 555 0134",
        "body": "306 Broderick St",
        "timestamp": ep.phone.clock.isoformat(),
        "status": "sent",
        "mms": False,
    }


def test_an_unread_conversation_is_notified_and_the_notification_opens_it() -> None:
    ep, d = episode()
    assert [(n.app, n.title) for n in ep.phone.notifications] == [("messages", "Priya Shah")]
    note = ep.phone.notifications[0]
    assert note.text == "Are we still on for lunch?"
    d.home()
    d.notifications()
    d.tap(desc="Messages notification: Priya Shah")
    assert ep.phone.foreground == "messages" and activity(ep) == "ThreadActivity"
    route = ep.phone.route()
    assert route is not None and route.screen == "thread"
    assert number_key(route.arg("address")) == number_key(PRIYA)
    received = [m for m in coll(ep, "received") if number_key(m["from"]) == number_key(PRIYA)]
    assert received and all(m["read"] for m in received)  # opening it read it
    assert ep.phone.notifications == ()
