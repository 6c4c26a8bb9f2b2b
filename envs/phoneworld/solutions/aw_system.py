"""Reference solutions of the AndroidWorld system, contacts, SMS and clock task families."""

from __future__ import annotations

import re

from tasklang.envs.phoneworld.solutions.base import Driver, SolutionError, reference
from tasklang.envs.phoneworld.widgets import View

ROW_SWITCH = "android:id/switch_widget"
MAIN_SWITCH = "com.android.settings:id/switch_widget"


def _nodes(d: Driver) -> list[View]:
    return list(d.observe().walk())


def _click(d: Driver, index: int) -> None:
    d.act({"action_type": "click", "index": index})


# ---------------------------------------------------------------------------- Settings
def _settings_home(d: Driver) -> None:
    """Open Settings on its homepage."""
    d.open("Settings")
    for _ in range(6):
        if d.has(text="Search settings"):
            return
        d.back() if d.has(desc="Navigate up") else d.open("Settings")
    d.need(text="Search settings")


def _open_row(d: Driver, title: str) -> None:
    _click(d, d.scroll_to(text=title, rid="android:id/title"))


def _row_switch(d: Driver, title: str) -> int:
    """The index of the switch of the row titled ``title`` (scrolled into view)."""
    at = d.scroll_to(text=title, rid="android:id/title")
    nodes = _nodes(d)
    for i in range(at + 1, len(nodes)):
        if nodes[i].rid == ROW_SWITCH:
            return i
    raise SolutionError(f"no switch on the row {title!r}")


def _set_wifi(d: Driver, on: bool) -> None:
    _settings_home(d)
    _open_row(d, "Network & internet")
    _open_row(d, "Internet")
    switch = _row_switch(d, "Wi-Fi")
    if _nodes(d)[switch].checked != on:
        _click(d, switch)
    d.need(rid=ROW_SWITCH, checked=on)


def _set_bluetooth(d: Driver, on: bool) -> None:
    _settings_home(d)
    _open_row(d, "Connected devices")
    _open_row(d, "Connection preferences")
    _open_row(d, "Bluetooth")
    switch = d.need(rid=MAIN_SWITCH)
    if _nodes(d)[switch].checked != on:
        _click(d, switch)
    d.need(rid=MAIN_SWITCH, checked=on)


def _set_brightness(d: Driver, target: str, button: str) -> None:
    _settings_home(d)
    _open_row(d, "Display")
    _open_row(d, "Brightness level")
    for _ in range(25):
        if d.has(rid="seekbar", text=target):
            return
        d.tap(desc=button)
    d.need(rid="seekbar", text=target)


@reference("androidworld.system_wifi_turn_on")
def system_wifi_turn_on(d: Driver) -> None:
    _set_wifi(d, True)
    d.done()


@reference("androidworld.system_wifi_turn_off")
def system_wifi_turn_off(d: Driver) -> None:
    _set_wifi(d, False)
    d.done()


@reference("androidworld.system_bluetooth_turn_on")
def system_bluetooth_turn_on(d: Driver) -> None:
    _set_bluetooth(d, True)
    d.done()


@reference("androidworld.system_bluetooth_turn_off")
def system_bluetooth_turn_off(d: Driver) -> None:
    _set_bluetooth(d, False)
    d.done()


@reference("androidworld.system_brightness_max")
def system_brightness_max(d: Driver) -> None:
    _set_brightness(d, "100%", "Increase brightness")
    d.done()


@reference("androidworld.system_brightness_min")
def system_brightness_min(d: Driver) -> None:
    _set_brightness(d, "0%", "Decrease brightness")
    d.done()


# ---------------------------------------------------------------------------- Messages
def _digits(text: str) -> str:
    return "".join(c for c in text if c.isdigit())[-10:]


def _conversation_row(d: Driver, title: str) -> int | None:
    """The index of the visible conversation row titled ``title`` (a name, or a number in any
    formatting)."""
    want = _digits(title) if sum(c.isdigit() for c in title) >= 7 else None
    for i, v in enumerate(d.observe().walk()):
        if not v.rid.endswith(":id/conversation_frame") or v.bounds[3] <= v.bounds[1]:
            continue
        for c in v.walk():
            if not c.rid.endswith(":id/conversation_address"):
                continue
            if c.text.casefold() == title.casefold() or (want and _digits(c.text) == want):
                return i
    return None


def _open_conversation(d: Driver, title: str, limit: int = 12) -> None:
    """In the conversation list, scroll to the conversation with ``title`` and open it."""
    d.open("Messages")
    for _ in range(limit):
        index = _conversation_row(d, title)
        if index is not None:
            _click(d, index)
            d.need(rid="thread_type_message")
            return
        d.scroll("down")
    raise SolutionError(f"no conversation with {title!r} in the list")


def _send(d: Driver, text: str) -> None:
    """Type ``text`` into the open conversation's message field and send it."""
    d.type(text, rid="thread_type_message")
    d.tap(desc="Send")


def _new_conversation(d: Driver, to: str) -> None:
    d.open("Messages")
    d.tap(desc="Start a conversation")
    d.type(to, rid="new_conversation_address")
    d.tap(desc="Confirm selection")
    d.need(rid="thread_type_message")


@reference("androidworld.simple_sms_send")
def simple_sms_send(d: Driver) -> None:
    _new_conversation(d, str(d.params["number"]))
    _send(d, str(d.params["message"]))
    d.done()


@reference("androidworld.simple_sms_reply")
def simple_sms_reply(d: Driver) -> None:
    _open_conversation(d, str(d.params["peer"]))
    _send(d, str(d.params["message"]))
    d.done()


def _open_newest_conversation(d: Driver) -> None:
    """Open the conversation at the top of the list (the list is newest first)."""
    d.open("Messages")
    for _ in range(3):
        for i, v in enumerate(d.observe().walk()):
            if v.rid.endswith(":id/conversation_frame") and v.bounds[3] > v.bounds[1]:
                pinned = any(c.desc == "Pinned" for c in v.walk())
                if pinned:
                    continue
                _click(d, i)
                d.need(rid="thread_type_message")
                return
        d.scroll("up")
    raise SolutionError("no conversation in the list")


def _last_sent_body(d: Driver) -> str:
    """The text of the newest message I sent in the open conversation (sent bubbles sit on the
    right of their row, after a spacer)."""
    last = ""
    for _ in range(6):
        for v in d.observe().walk():
            if not v.rid.endswith(":id/thread_message_holder") or not v.children:
                continue
            first, bubble = v.children[0], v.children[-1]
            if not first.rid.endswith(":id/thread_message_body") and bubble.text:
                last = bubble.text
        before = [v.text for v in d.observe().walk() if v.rid.endswith(":id/thread_message_body")]
        d.scroll("down")
        after = [v.text for v in d.observe().walk() if v.rid.endswith(":id/thread_message_body")]
        if after == before:
            break
    if not last:
        raise SolutionError("no sent message in the conversation")
    return last


@reference("androidworld.simple_sms_reply_most_recent")
def simple_sms_reply_most_recent(d: Driver) -> None:
    _open_newest_conversation(d)
    _send(d, str(d.params["message"]))
    d.done()


@reference("androidworld.simple_sms_resend")
def simple_sms_resend(d: Driver) -> None:
    _open_conversation(d, str(d.params["friend"]))
    _send(d, _last_sent_body(d))
    d.done()


ADDRESS = re.compile(r"\d+ [A-Za-z0-9 .'-]+?, [A-Za-z .'-]+, [A-Z]{2} \d{5}")


def received_messages(tree: View, visible: bool = False) -> list[str]:
    """The texts of the received messages a conversation screen holds, oldest first (only
    those on the screen, with ``visible``): a received bubble is the first view of its row,
    a sent one sits after a spacer, on the right."""
    return [
        v.children[0].text
        for v in tree.walk()
        if v.rid.endswith(":id/thread_message_holder")
        and v.children
        and v.children[0].rid.endswith(":id/thread_message_body")
        and (not visible or v.bounds[3] > v.bounds[1])
    ]


def _last_received_body(d: Driver) -> str:
    """The text of the newest message received in the open conversation."""
    received = received_messages(d.observe())
    if not received or not received[-1]:
        raise SolutionError("no received message in the conversation")
    return received[-1]


@reference("androidworld.simple_sms_send_received_address")
def simple_sms_send_received_address(d: Driver) -> None:
    _open_conversation(d, str(d.params["from_name"]))
    found = ADDRESS.search(_last_received_body(d))
    if found is None:
        raise SolutionError("no address in the message")
    d.back()  # the keyboard is not up: back to the conversation list
    _open_conversation(d, str(d.params["to_name"]))
    _send(d, found.group(0))
    d.done()


# ---------------------------------------------------------------------------- Contacts
def _first_and_surname(name: str) -> tuple[str, str]:
    parts = name.strip().rsplit(" ", 1)
    return (parts[0], parts[1]) if len(parts) == 2 else (parts[0], "")


@reference("androidworld.contacts_add_contact")
def contacts_add_contact(d: Driver) -> None:
    first, surname = _first_and_surname(str(d.params["who"]))
    d.open("Contacts")
    d.tap(desc="Create new contact")
    for text, field in (
        (first, "contact_first_name"),
        (surname, "contact_surname"),
        (str(d.params["number"]), "contact_number"),
    ):
        d.scroll_to(rid=field)
        d.type(text, rid=field)
    d.tap(desc="Save")
    d.done()


# ---------------------------------------------------------------------------- Clock
def _stopwatch_tab(d: Driver) -> None:
    d.open("Clock")
    d.tap(desc="Stopwatch")
    d.need(rid="stopwatch_time_text")


@reference("androidworld.clock_stop_watch_running")
def clock_stop_watch_running(d: Driver) -> None:
    _stopwatch_tab(d)
    d.tap(rid="fab", desc="Start")
    d.need(rid="fab", desc="Pause")
    d.done()


@reference("androidworld.clock_stop_watch_paused_verify")
def clock_stop_watch_paused_verify(d: Driver) -> None:
    _stopwatch_tab(d)
    d.tap(rid="fab", desc="Pause")
    d.need(rid="fab", desc="Start")
    d.done()
