"""Simple Dialer (``com.simplemobiletools.dialer``), the phone app AndroidWorld uses.

The main screen has a search bar, tabs (Contacts, Favorites, Call History) and a "Dialpad"
button. The dialpad has the digit keys, the number field and the "Call number" button; placing
a call logs an outgoing call in ``calls`` at the phone's clock and shows the in-call screen
("Dialing…", "End call"); ending it records how long it lasted. Contacts come from the
contacts app (``contacts.people``); tapping one calls it. The call history lists ``calls``
newest first, with each call's name (or number), direction, time and duration; its menu calls
back, blocks the number or removes the call. The settings screen holds the app's options and
the blocked numbers (``blocked_numbers``).
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from tasklang.envs.phoneworld import widgets as w
from tasklang.envs.phoneworld.app import Ctx, Dialog, Notification, Route, Screen
from tasklang.envs.phoneworld.apps.common import checkbox, choice_dialog, image_button
from tasklang.envs.phoneworld.apps.contacts import find_by_number, matches, shown_name
from tasklang.envs.phoneworld.apps.simple_tools import (
    FONT_SIZES,
    SimpleToolsApp,
    font_label,
    menu_dialog,
    section,
)
from tasklang.envs.phoneworld.widgets import View
from tasklang.verifiers.compare import phone_digits

PACKAGE = "com.simplemobiletools.dialer"
ACTIVITIES = f"{PACKAGE}.activities"
MODEL = "phone"

KEYS = (
    ("1", "One", ""),
    ("2", "Two", "ABC"),
    ("3", "Three", "DEF"),
    ("4", "Four", "GHI"),
    ("5", "Five", "JKL"),
    ("6", "Six", "MNO"),
    ("7", "Seven", "PQRS"),
    ("8", "Eight", "TUV"),
    ("9", "Nine", "WXYZ"),
    ("*", "Asterisk", ""),
    ("0", "Zero", "+"),
    ("#", "Hashtag", ""),
)
KEY_IDS = {"*": "asterisk", "#": "hashtag"}
T9 = {letter: digit for digit, _, letters in KEYS for letter in letters if letter.isalpha()}
DIRECTIONS = {"incoming": "Incoming call", "outgoing": "Outgoing call", "missed": "Missed call"}
SETTING_DEFAULTS: dict[str, Any] = {
    "font_size": "medium",
    "start_name_with_surname": False,
    "hide_dialpad_numbers": False,
    "dialpad_vibration": True,
    "dialpad_beeps": True,
    "open_dialpad_at_launch": False,
    "group_subsequent_calls": True,
    "show_call_confirmation": False,
    "disable_proximity_sensor": False,
    "use_24_hour_format": False,
    "block_unknown_numbers": False,
}
GENERAL_CHECKBOXES = (
    ("start_name_with_surname", "Start name with surname"),
    ("hide_dialpad_numbers", "Hide dialpad numbers"),
    ("dialpad_vibration", "Enable vibrations on dialpad button clicks"),
    ("dialpad_beeps", "Enable beeps on dialpad button clicks"),
)
STARTUP_CHECKBOXES = (("open_dialpad_at_launch", "Open the dialpad by default when the app opens"),)
CALL_CHECKBOXES = (
    ("group_subsequent_calls", "Group subsequent calls with the same number at the call log"),
    ("show_call_confirmation", "Show a call confirmation dialog before initiating a call"),
    ("disable_proximity_sensor", "Disable proximity sensor during calls"),
)
TABS = (("contacts", "Contacts"), ("favorites", "Favorites"), ("recents", "Call History"))


# ---------------------------------------------------------------- calls
def parse_time(value: Any) -> dt.datetime:
    try:
        return dt.datetime.fromisoformat(str(value)).replace(tzinfo=None)
    except ValueError:
        return dt.datetime.min


def call_key(call: dict[str, Any]) -> tuple[str, str, str]:
    return (str(call.get("number")), str(call.get("timestamp")), str(call.get("direction")))


def format_duration(seconds: int) -> str:
    minutes, secs = divmod(max(0, int(seconds)), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"


def format_when(when: dt.datetime, now: dt.datetime, h24: bool) -> str:
    """A call's time as the call history shows it: the time today, else the date and time."""
    clock = when.strftime("%H:%M") if h24 else when.strftime("%-I:%M %p")
    if when.date() == now.date():
        return clock
    if when.date() == now.date() - dt.timedelta(days=1):
        return f"Yesterday, {clock}"
    day = when.strftime("%-d %b") if when.year == now.year else when.strftime("%-d %b %Y")
    return f"{day}, {clock}"


def start_call(ctx: Ctx, number: str, name: str | None = None, back_to: str | None = None) -> None:
    """Place an outgoing call from any app: log it in ``phone.calls`` at the phone's clock and
    bring up the dialer's in-call screen (``back_to``: the app to return to when it ends)."""
    number = " ".join(number.split())
    if name is None:
        person = find_by_number(ctx.records("people", app="contacts"), number)
        name = person["name"] if person is not None else None
    started = ctx.now.replace(microsecond=0).isoformat()
    ctx.hide_keyboard()
    ctx.add(
        "calls",
        {
            "number": number,
            "name": name,
            "direction": "outgoing",
            "timestamp": started,
            "duration": 0,
        },
        app=MODEL,
    )
    args: dict[str, Any] = {"number": number, "name": name, "started": started, "back_to": back_to}
    if ctx.app.model == MODEL:
        ctx.push("call", **args)
    else:
        ctx.open(MODEL, "call", **args)


class Dialer(SimpleToolsApp):
    model = MODEL
    package = PACKAGE
    label = "Phone"
    activity = f"{ACTIVITIES}.MainActivity"
    defaults = SETTING_DEFAULTS

    def posted(self, ctx: Ctx) -> list[Notification]:
        """ "Missed call" for each call missed in the day before the clock; a tap opens the
        call history."""
        out = []
        for call in sorted(ctx.records("calls"), key=lambda c: parse_time(c.get("timestamp"))):
            when = parse_time(call.get("timestamp"))
            if call.get("direction") != "missed" or not (
                ctx.now - dt.timedelta(days=1) <= when <= ctx.now
            ):
                continue
            out.append(
                Notification(self.model, "Missed call", self.caller(ctx, call),
                             key="tab", arg="recents")
            )  # fmt: skip
        return out

    # ------------------------------------------------------------ reading
    def people(self, ctx: Ctx) -> list[dict[str, Any]]:
        return ctx.records("people", app="contacts")

    def person(self, ctx: Ctx, name: Any) -> dict[str, Any] | None:
        return next((p for p in self.people(ctx) if p.get("name") == name), None)

    def caller(self, ctx: Ctx, call: dict[str, Any]) -> str:
        """The name a call is shown under: its contact's, else the number."""
        if call.get("name"):
            return str(call["name"])
        person = find_by_number(self.people(ctx), str(call.get("number") or ""))
        return str(person["name"]) if person is not None else str(call.get("number") or "")

    def ask_call(self, ctx: Ctx, number: str, name: str | None) -> None:
        """Call ``number``, after the confirmation dialog when the setting asks for one."""
        if not number.strip():
            return
        if self.setting_of(ctx, "show_call_confirmation"):
            ctx.hide_keyboard()
            ctx.dialog(
                Dialog(
                    title=f"Call {name or number}?",
                    buttons=[("Cancel", None, None), ("Call", "call_confirmed", (number, name))],
                )
            )
            return
        start_call(ctx, number, name)

    def on_call_confirmed(self, ctx: Ctx, arg: Any) -> None:
        number, name = arg
        start_call(ctx, number, name)

    # ------------------------------------------------------------ main screen
    def contact_row(self, ctx: Ctx, person: dict[str, Any]) -> View:
        surname_first = bool(self.setting_of(ctx, "start_name_with_surname"))
        texts = [
            View(w.TEXT, text=shown_name(person, surname_first), rid=self.rid("item_contact_name"))
        ]
        if person.get("phone"):
            texts.append(
                View(w.TEXT, text=str(person["phone"]), rid=self.rid("item_contact_number"))
            )
        return self.contact_frame(
            ("item_contact_frame", "item_contact_holder", "item_contact_image"),
            texts,
            "call_contact",
            person["name"],
            170,
        )

    def recent_rows(self, ctx: Ctx, query: str) -> list[View]:
        calls = sorted(
            ctx.records("calls"), key=lambda c: parse_time(c.get("timestamp")), reverse=True
        )
        grouped: list[list[dict[str, Any]]] = []
        group = bool(self.setting_of(ctx, "group_subsequent_calls"))
        for call in calls:
            last = grouped[-1][0] if grouped else None
            if (
                group
                and last is not None
                and phone_digits(last.get("number")) == phone_digits(call.get("number"))
                and (last.get("direction") == "missed") == (call.get("direction") == "missed")
            ):
                grouped[-1].append(call)
            else:
                grouped.append([call])
        h24 = bool(self.setting_of(ctx, "use_24_hour_format"))
        q = query.strip().casefold()
        rows = []
        for calls_here in grouped:
            first = calls_here[0]
            name = self.caller(ctx, first)
            number = str(first.get("number") or "")
            if (
                q
                and q not in name.casefold()
                and not (re.sub(r"\D", "", q) and re.sub(r"\D", "", q) in phone_digits(number))
            ):
                continue
            shown = f"{name} ({len(calls_here)})" if len(calls_here) > 1 else name
            direction = str(first.get("direction") or "outgoing")
            keys = tuple(call_key(c) for c in calls_here)
            kids = [
                View(w.IMAGE, rid=self.rid("item_recents_image"), weight=0.15),
                View(
                    w.LINEAR,
                    weight=0.7,
                    children=[
                        View(w.TEXT, text=shown, rid=self.rid("item_recents_name")),
                        View(
                            w.LINEAR,
                            horizontal=True,
                            children=[
                                View(
                                    w.IMAGE,
                                    rid=self.rid("item_recents_type"),
                                    desc=DIRECTIONS.get(direction, ""),
                                    weight=0.1,
                                ),
                                View(
                                    w.TEXT,
                                    text=format_when(
                                        parse_time(first.get("timestamp")), ctx.now, h24
                                    ),
                                    rid=self.rid("item_recents_date_time"),
                                    weight=0.6,
                                ),
                                View(
                                    w.TEXT,
                                    text=""
                                    if direction == "missed"
                                    else format_duration(int(first.get("duration") or 0)),
                                    rid=self.rid("item_recents_duration"),
                                    weight=0.3,
                                ),
                            ],
                        ),
                    ],
                ),
                image_button("More options", "recent_menu", keys, self.rid("overflow_menu_icon")),
            ]
            rows.append(self.list_item("item_recents_holder", "recent_call", keys, 190, kids))
        return rows

    def screen_main(self, ctx: Ctx, route: Route) -> Screen:
        tab = route.arg("tab", "contacts")
        query = ctx.form("search")
        if tab == "recents":
            rows = self.recent_rows(ctx, query)
            if not rows:
                rows = self.placeholder(
                    "No contacts found" if query.strip() else "No previous calls have been found",
                )
        else:
            people = self.people(ctx)
            if tab == "favorites":
                people = [p for p in people if p.get("starred")]
            found = sorted(
                (p for p in people if matches(p, query)),
                key=lambda p: str(p.get("name") or "").casefold(),
            )
            rows = [self.contact_row(ctx, p) for p in found]
            if not rows and query.strip():
                rows = self.placeholder("No contacts found")
            elif not rows:
                rows = self.placeholder("No contacts found", "Create new contact", "create_contact")
        buttons = []
        if tab != "recents":
            buttons.append(
                image_button(
                    "Create new contact", "create_contact", rid=self.rid("create_new_contact")
                )
            )
        buttons.append(image_button("More options", "more"))
        return Screen(
            title=None,
            header=[self.search_bar(buttons, 0.6)],
            rows=rows,
            fab=image_button("Dialpad", "dialpad", rid=self.rid("main_dialpad_button")),
            tabs=self.tab_views(TABS, tab),
            list_rid=self.rid("fragment_list"),
        )

    def on_dialpad(self, ctx: Ctx, arg: Any) -> None:
        ctx.hide_keyboard()
        ctx.push("dialpad")

    def on_create_contact(self, ctx: Ctx, arg: Any) -> None:
        ctx.hide_keyboard()
        ctx.open("contacts", "edit", back_to=MODEL)

    def on_call_contact(self, ctx: Ctx, arg: Any) -> None:
        person = self.person(ctx, arg)
        if person is None:
            return
        if not person.get("phone"):
            ctx.toast("There is no phone number for this contact")
            return
        self.ask_call(ctx, str(person["phone"]), person["name"])

    def find_calls(self, ctx: Ctx, keys: Any) -> list[dict[str, Any]]:
        wanted = set(keys)
        return [c for c in ctx.records("calls") if call_key(c) in wanted]

    def on_recent_call(self, ctx: Ctx, arg: Any) -> None:
        calls = self.find_calls(ctx, arg)
        if calls:
            self.ask_call(ctx, str(calls[0].get("number") or ""), calls[0].get("name"))

    def menu(self, ctx: Ctx, entries: list[tuple[str, str, Any]]) -> None:
        ctx.hide_keyboard()
        ctx.dialog(menu_dialog(entries))

    def on_recent_menu(self, ctx: Ctx, arg: Any) -> None:
        calls = self.find_calls(ctx, arg)
        if not calls:
            return
        number = str(calls[0].get("number") or "")
        entries: list[tuple[str, str, Any]] = [
            ("Call", "menu_call", arg),
            ("Send SMS", "menu_sms", arg),
        ]
        if find_by_number(self.people(ctx), number) is None:
            entries.append(("Add number to contact", "menu_add_contact", arg))
        entries.append(("Block number", "menu_block", arg))
        entries.append(("Remove", "menu_remove", arg))
        self.menu(ctx, entries)

    def on_menu_call(self, ctx: Ctx, arg: Any) -> None:
        self.on_recent_call(ctx, arg)

    def on_menu_sms(self, ctx: Ctx, arg: Any) -> None:
        calls = self.find_calls(ctx, arg)
        if not calls:
            return
        if "messages" in ctx.phone.apps:
            ctx.open("messages", "thread", address=str(calls[0].get("number") or ""))
        else:
            ctx.toast("No app can perform this action")

    def on_menu_add_contact(self, ctx: Ctx, arg: Any) -> None:
        calls = self.find_calls(ctx, arg)
        if calls:
            ctx.open("contacts", "edit", phone=str(calls[0].get("number") or ""), back_to=MODEL)

    def on_menu_block(self, ctx: Ctx, arg: Any) -> None:
        calls = self.find_calls(ctx, arg)
        if calls:
            self.block(ctx, str(calls[0].get("number") or ""))

    def block(self, ctx: Ctx, number: str) -> None:
        number = " ".join(number.split())
        if not number:
            return
        have = {
            phone_digits(b.get("number")) or str(b.get("number"))
            for b in ctx.records("blocked_numbers")
        }
        if (phone_digits(number) or number) in have:
            return
        ctx.add("blocked_numbers", {"number": number})
        ctx.toast(f"{number} has been blocked")

    def on_menu_remove(self, ctx: Ctx, arg: Any) -> None:
        ctx.dialog(
            Dialog(
                title="Are you sure you want to proceed with the deletion?",
                buttons=[("No", None, None), ("Yes", "remove_calls", arg)],
            )
        )

    def on_remove_calls(self, ctx: Ctx, arg: Any) -> None:
        for call in self.find_calls(ctx, arg):
            ctx.delete("calls", call)

    def on_more(self, ctx: Ctx, arg: Any) -> None:
        assert ctx.route is not None
        entries: list[tuple[str, str, Any]] = []
        if ctx.route.arg("tab", "contacts") == "recents":
            entries.append(("Clear call history", "clear_history", None))
        entries += [("Settings", "settings", None), ("About", "about", None)]
        self.menu(ctx, entries)

    def on_clear_history(self, ctx: Ctx, arg: Any) -> None:
        ctx.dialog(
            Dialog(
                title="Are you sure you want to clear the call history?",
                buttons=[("No", None, None), ("Yes", "clear_confirmed", None)],
            )
        )

    def on_clear_confirmed(self, ctx: Ctx, arg: Any) -> None:
        for call in list(ctx.records("calls")):
            ctx.delete("calls", call)

    # ------------------------------------------------------------ dialpad
    def keypad(self, ctx: Ctx, key: str) -> list[View]:
        """The 4 x 3 digit keys; each sends ``key`` with its character."""
        letters = not self.setting_of(ctx, "hide_dialpad_numbers")
        rows = []
        for i in range(0, len(KEYS), 3):
            cells = []
            for char, desc, extra in KEYS[i : i + 3]:
                name = KEY_IDS.get(char, char)
                kids = [View(w.TEXT, text=char, rid=self.rid(f"dialpad_{name}"))]
                if extra and letters:
                    kids.append(View(w.TEXT, text=extra, rid=self.rid(f"dialpad_{name}_letters")))
                cells.append(
                    View(
                        w.RELATIVE,
                        rid=self.rid(f"dialpad_{name}_holder"),
                        desc=desc,
                        clickable=True,
                        long_clickable=char == "0",
                        focusable=True,
                        on_click=key,
                        on_long=f"{key}_plus" if char == "0" else None,
                        arg=char,
                        children=kids,
                    )
                )
            rows.append(View(w.LINEAR, horizontal=True, children=cells, height=150))
        return rows

    def screen_dialpad(self, ctx: Ctx, route: Route) -> Screen:
        typed = self.typed(ctx)
        digits = re.sub(r"[^0-9]", "", typed)
        people = self.people(ctx)
        if digits:
            people = [
                p
                for p in people
                if digits in phone_digits(p.get("phone") or "")
                or digits in "".join(T9.get(c, "") for c in str(p.get("name") or "").upper())
            ]
        rows = [
            self.contact_row(ctx, p)
            for p in sorted(people, key=lambda p: str(p.get("name") or "").casefold())
        ]
        if not rows and digits:
            rows = [View(w.TEXT, text="No contacts found", rid=self.rid("dialpad_placeholder"))]
        number_row = View(
            w.LINEAR,
            horizontal=True,
            height=150,
            children=[
                View(
                    w.TEXT,
                    rid=self.rid("dialpad_input"),
                    edit="number",
                    on_enter="call_number",
                    weight=0.8,
                ),
                View(
                    w.IMAGE_BUTTON,
                    desc="Delete",
                    rid=self.rid("dialpad_clear_char"),
                    clickable=True,
                    long_clickable=True,
                    focusable=True,
                    on_click="backspace",
                    on_long="clear_number",
                    weight=0.2,
                ),
            ],
        )
        call_row = View(
            w.LINEAR,
            horizontal=True,
            height=170,
            children=[
                View(w.VIEW, weight=0.35),
                image_button("Call number", "call_number", rid=self.rid("dialpad_call_button")),
                View(w.VIEW, weight=0.35),
            ],
        )
        call_row.children[1].weight = 0.3
        return Screen(
            title="Dialpad",
            up=True,
            actions=[
                image_button(
                    "Add number to contact", "add_to_contact", rid=self.rid("add_number_to_contact")
                ),
            ],
            footer=[number_row, *self.keypad(ctx, "digit"), call_row],
            rows=rows,
            activity=f"{ACTIVITIES}.DialpadActivity",
            list_rid=self.rid("dialpad_list"),
        )

    def typed(self, ctx: Ctx) -> str:
        """The number on the dialpad (an intent may open it with a number filled in)."""
        assert ctx.route is not None
        return ctx.form("number", str(ctx.route.arg("number") or ""))

    def on_digit(self, ctx: Ctx, arg: Any) -> None:
        ctx.set_form("number", self.typed(ctx) + str(arg))

    def on_digit_plus(self, ctx: Ctx, arg: Any) -> None:
        ctx.set_form("number", self.typed(ctx) + "+")

    def on_backspace(self, ctx: Ctx, arg: Any) -> None:
        ctx.set_form("number", self.typed(ctx)[:-1])

    def on_clear_number(self, ctx: Ctx, arg: Any) -> None:
        ctx.set_form("number", "")

    def on_call_number(self, ctx: Ctx, arg: Any) -> None:
        number = self.typed(ctx).strip()
        if not re.search(r"\d", number):
            ctx.toast("Please enter a number")
            return
        self.ask_call(ctx, number, None)

    def on_add_to_contact(self, ctx: Ctx, arg: Any) -> None:
        ctx.hide_keyboard()
        ctx.open("contacts", "edit", phone=self.typed(ctx).strip(), back_to=MODEL)

    # ------------------------------------------------------------ in a call
    def screen_call(self, ctx: Ctx, route: Route) -> Screen:
        number = str(route.arg("number") or "")
        name = route.arg("name")
        started = parse_time(route.arg("started"))
        elapsed = int((ctx.now - started).total_seconds())
        status = "Dialing…" if elapsed <= 0 else format_duration(elapsed)
        if ctx.form("hold") == "1":
            status = "Call on hold"
        mic_off = ctx.form("mic") == "off"
        speaker = ctx.form("speaker") == "on"
        held = ctx.form("hold") == "1"

        def toggle(desc: str, key: str, rid: str, on: bool) -> View:
            view = image_button(desc, key, rid=self.rid(rid))
            view.selected, view.weight = on, 1.0
            return view

        rows = [
            View(w.TEXT, text=str(name or number), rid=self.rid("caller_name_label"), height=170),
            View(w.TEXT, text=number if name else "", rid=self.rid("caller_number"), height=120),
            View(w.TEXT, text=status, rid=self.rid("call_status_label"), height=120),
            View(
                w.LINEAR,
                horizontal=True,
                height=220,
                children=[
                    toggle(
                        "Turn microphone on" if mic_off else "Turn microphone off",
                        "toggle_mic",
                        "call_toggle_microphone",
                        mic_off,
                    ),
                    toggle(
                        "Turn speaker on" if not speaker else "Turn speaker off",
                        "toggle_speaker",
                        "call_toggle_speaker",
                        speaker,
                    ),
                    toggle("Show dialpad", "toggle_call_dialpad", "call_dialpad", False),
                ],
            ),
            View(
                w.LINEAR,
                horizontal=True,
                height=220,
                children=[
                    toggle(
                        "Resume call" if held else "Hold call",
                        "toggle_hold",
                        "call_toggle_hold",
                        held,
                    ),
                    toggle("Add call", "add_call", "call_add", False),
                    View(w.VIEW),
                ],
            ),
        ]
        if ctx.form("keypad") == "1":
            rows.append(
                View(w.TEXT, text=ctx.form("tones"), rid=self.rid("dialpad_input"), height=120)
            )
            rows += self.keypad(ctx, "tone")
        rows.append(
            View(
                w.LINEAR,
                horizontal=True,
                height=220,
                children=[
                    View(w.VIEW, weight=0.35),
                    image_button("End call", "end_call", rid=self.rid("call_end")),
                    View(w.VIEW, weight=0.35),
                ],
            )
        )
        return Screen(
            title=None,
            rows=rows,
            activity=f"{ACTIVITIES}.CallActivity",
            list_rid=self.rid("call_holder"),
            list_cls=w.RELATIVE,
        )

    def flip(self, ctx: Ctx, name: str, on: str, off: str) -> None:
        ctx.set_form(name, off if ctx.form(name, off) == on else on)

    def on_toggle_mic(self, ctx: Ctx, arg: Any) -> None:
        self.flip(ctx, "mic", "off", "on")

    def on_toggle_speaker(self, ctx: Ctx, arg: Any) -> None:
        self.flip(ctx, "speaker", "on", "off")

    def on_toggle_hold(self, ctx: Ctx, arg: Any) -> None:
        self.flip(ctx, "hold", "1", "0")

    def on_toggle_call_dialpad(self, ctx: Ctx, arg: Any) -> None:
        self.flip(ctx, "keypad", "1", "0")

    def on_tone(self, ctx: Ctx, arg: Any) -> None:
        ctx.set_form("tones", ctx.form("tones") + str(arg))

    def on_tone_plus(self, ctx: Ctx, arg: Any) -> None:
        ctx.set_form("tones", ctx.form("tones") + "+")

    def on_add_call(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("dialpad")

    def on_end_call(self, ctx: Ctx, arg: Any) -> None:
        route = ctx.route
        assert route is not None
        started = route.arg("started")
        call = ctx.find(
            "calls",
            lambda c: (
                c.get("timestamp") == started
                and c.get("number") == route.arg("number")
                and c.get("direction") == "outgoing"
            ),
        )
        elapsed = int((ctx.now - parse_time(started)).total_seconds())
        if call is not None and elapsed > 0 and call.get("duration") != elapsed:
            ctx.update("calls", call, duration=elapsed)
        back_to = route.arg("back_to")
        # the call screen and any dialpad opened from it with "Add call" close
        stack = ctx.phone.stacks.get(self.model, [])
        while len(stack) > 1 and stack[-1] is not route:
            ctx.back()
        ctx.back()
        if back_to and back_to in ctx.phone.apps:
            ctx.open(back_to)

    # ------------------------------------------------------------ settings
    def screen_settings(self, ctx: Ctx, route: Route) -> Screen:
        font = font_label(self.setting_of(ctx, "font_size"))
        rows = [
            section("GENERAL", self.rid("settings_general_settings_label")),
            self.pref_row(
                "Manage blocked numbers", "blocked_numbers", "settings_manage_blocked_numbers"
            ),
            self.pref_row(
                "Change date and time format", "date_format", "settings_change_date_time_format"
            ),
            self.pref_row("Font size", "font_size", "settings_font_size", font),
            *(self.checkbox_row(ctx, n, t) for n, t in GENERAL_CHECKBOXES),
            section("STARTUP", self.rid("settings_startup_label")),
            *(self.checkbox_row(ctx, n, t) for n, t in STARTUP_CHECKBOXES),
            section("CALLS", self.rid("settings_calls_label")),
            *(self.checkbox_row(ctx, n, t) for n, t in CALL_CHECKBOXES),
        ]
        return Screen(
            title="Settings",
            up=True,
            rows=rows,
            activity=f"{ACTIVITIES}.SettingsActivity",
            list_rid=self.rid("settings_nested_scrollview"),
            list_cls=w.SCROLL,
        )

    def on_font_size(self, ctx: Ctx, arg: Any) -> None:
        current = self.setting_of(ctx, "font_size")
        ctx.dialog(choice_dialog("", FONT_SIZES, current, "choose_font_size"))

    def on_choose_font_size(self, ctx: Ctx, arg: Any) -> None:
        if self.setting_of(ctx, "font_size") != arg:
            ctx.set("font_size", arg)

    def date_dialog(self, h24: bool) -> Dialog:
        return Dialog(
            title="Change date and time format",
            items=[checkbox("Use 24-hour time format", h24, "date_pick", not h24)],
            buttons=[("Cancel", None, None), ("OK", "date_ok", h24)],
        )

    def on_date_format(self, ctx: Ctx, arg: Any) -> None:
        ctx.dialog(self.date_dialog(bool(self.setting_of(ctx, "use_24_hour_format"))))

    def on_date_pick(self, ctx: Ctx, arg: Any) -> None:
        ctx.dialog(self.date_dialog(bool(arg)))

    def on_date_ok(self, ctx: Ctx, arg: Any) -> None:
        if bool(arg) != bool(self.setting_of(ctx, "use_24_hour_format")):
            ctx.set("use_24_hour_format", bool(arg))

    def screen_about(self, ctx: Ctx, route: Route) -> Screen:
        return self.about_screen("Simple Dialer", "Version 5.18.1")

    # ------------------------------------------------------------ blocked numbers
    def on_blocked_numbers(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("blocked")

    def screen_blocked(self, ctx: Ctx, route: Route) -> Screen:
        rows: list[View] = []
        for b in ctx.records("blocked_numbers"):
            number = str(b.get("number") or "")
            kids = [
                View(w.TEXT, text=number, rid=self.rid("manage_blocked_number_title"), weight=0.85),
                image_button(
                    "More options", "blocked_menu", number, self.rid("overflow_menu_icon")
                ),
            ]
            rows.append(
                self.list_item(
                    "manage_blocked_number_holder", "blocked_menu", number, 150, kids, False
                )
            )
        if not rows:
            rows = self.placeholder(
                "You are not blocking anyone.",
                "Add a blocked number",
                "add_blocked",
                "manage_blocked_numbers_placeholder",
            )
        return Screen(
            title="Manage blocked numbers",
            up=True,
            actions=[
                image_button(
                    "Add a blocked number", "add_blocked", rid=self.rid("add_blocked_number")
                )
            ],
            header=[
                self.checkbox_row(
                    ctx,
                    "block_unknown_numbers",
                    "Block calls from not stored contacts",
                    "block_unknown",
                )
            ],
            rows=rows,
            activity="com.simplemobiletools.commons.activities.ManageBlockedNumbersActivity",
            list_rid=self.rid("manage_blocked_numbers_list"),
        )

    def on_blocked_menu(self, ctx: Ctx, arg: Any) -> None:
        self.menu(ctx, [("Delete", "unblock", arg)])

    def on_unblock(self, ctx: Ctx, arg: Any) -> None:
        entry = ctx.find("blocked_numbers", lambda b: b.get("number") == arg)
        if entry is not None:
            ctx.delete("blocked_numbers", entry)

    def on_add_blocked(self, ctx: Ctx, arg: Any) -> None:
        ctx.set_form("blocked_number", "")
        ctx.dialog(
            Dialog(
                title="",
                items=[
                    View(
                        w.TEXT,
                        rid=self.rid("add_blocked_number_edittext"),
                        edit="blocked_number",
                        hint="Number",
                        height=150,
                    ),
                    View(
                        w.TEXT,
                        text="Enter a number or a pattern (e.g. *12345*, +1*8888) to block all calls and messages from numbers matching the pattern.",
                        height=200,
                    ),
                ],
                buttons=[("Cancel", None, None), ("OK", "add_blocked_ok", None)],
            )
        )

    def on_add_blocked_ok(self, ctx: Ctx, arg: Any) -> None:
        ctx.hide_keyboard()
        self.block(ctx, ctx.form("blocked_number"))
        ctx.set_form("blocked_number", "")


APP = Dialer
