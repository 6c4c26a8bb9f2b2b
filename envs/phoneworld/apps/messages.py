"""Simple SMS Messenger (``com.simplemobiletools.smsmessenger``), the SMS app AndroidWorld uses.

The model keeps three views of the same conversations: ``threads`` (what the conversation list
shows: address, contact name, snippet, unread, pinned, archived, last activity), and the
messages themselves, ``received`` and ``sent``. On a real phone the telephony provider derives
the conversations from the messages; here a conversation is a thread record, or, for messages
whose number has no thread record (task instances may seed messages only), one derived from
those messages. The app keeps them consistent:

* opening a conversation (or "Mark as Read") marks its received messages read and its thread
  not unread; "Mark as Unread" does the reverse (all of its received messages, as the real app
  does, and the thread record, created when there is none);
* sending adds a ``sent`` record to the conversation's own number (the thread record's address,
  exactly as stored), and brings the thread's snippet and last activity up to date (creating the
  thread record for a new conversation), and drops the conversation's draft;
* deleting a conversation deletes its thread record, its messages and its draft.

Screens: the conversation list with its search bar (MainActivity), selection mode on a long
press (delete, archive, mark as read / unread, pin), the archived conversations, a new
conversation (NewConversationActivity: a name or number, contact suggestions), a conversation
(ThreadActivity: the messages, "Type a message…", "Send"), its details, the settings
(SettingsActivity, the customization of colors) and About.

Other apps share text to it as Android's ACTION_SEND does: ``ctx.open("messages", "new",
body="...")`` opens a new conversation; the recipient's conversation then opens with that text
in its message field.
"""

from __future__ import annotations

import datetime as dt
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from tasklang.envs.phoneworld import widgets as w
from tasklang.envs.phoneworld.app import Ctx, Dialog, Notification, Route, Screen
from tasklang.envs.phoneworld.apps.common import checkbox, choice_dialog, menu_item
from tasklang.envs.phoneworld.apps.simple_tools import (
    COMMONS,
    FONT_SIZES,
    THEMES,
    SimpleToolsApp,
    font_label,
)
from tasklang.envs.phoneworld.widgets import View
from tasklang.verifiers.compare import phone_digits

PKG = "com.simplemobiletools.smsmessenger"
ACTIVITIES = f"{PKG}.activities"

NO_CONVERSATIONS = "No stored conversations have been found"
START_CONVERSATION = "Start a conversation"
TYPE_A_MESSAGE = "Type a message…"
ADD_CONTACT_OR_NUMBER = "Add Contact or Number…"
DELETE_THREAD = "Are you sure you want to delete all messages of this conversation?"
LONG_SMS = 160  # characters in one SMS: longer ones go as MMS when the setting asks for it
DATE_GAP = dt.timedelta(minutes=5)  # a date line separates messages further apart than this

CHECKBOXES = (  # setting, resource id, label: the "Outgoing messages" section, in order
    ("show_character_counter", "settings_show_character_counter", "Show a character counter at writing messages"),
    ("remove_accents", "settings_use_simple_characters", "Remove accents and diacritics at sending messages"),
    ("send_on_enter", "settings_send_on_enter", "Send message on pressing Enter"),
    ("delivery_reports", "settings_enable_delivery_reports", "Enable delivery reports"),
    ("send_long_as_mms", "settings_send_long_message_mms", "Send long messages as MMS"),
)  # fmt: skip
SETTING_DEFAULTS: dict[str, Any] = {
    "send_on_enter": False,
    "delivery_reports": False,
    "show_character_counter": False,
    "remove_accents": False,
    "send_long_as_mms": False,
    "font_size": "medium",
    "theme": "dark",
}


def number_key(number: Any) -> str:
    """The identity of a phone number: its last ten digits (without trunk zeros), as the
    verifier keys phone fields; text without digits (a sender name) is its own key."""
    digits = phone_digits(number).lstrip("0")[-10:]
    return digits or str(number or "").strip().casefold()


@dataclass
class Conversation:
    """One row of the conversation list: a thread record, or one derived from messages."""

    key: str
    address: str
    name: str | None
    snippet: str
    date: str
    unread: bool
    pinned: bool = False
    archived: bool = False
    record: dict[str, Any] | None = None
    draft: str | None = None
    messages: list[tuple[str, str, bool]] = field(default_factory=list)  # (time, body, sent)

    @property
    def title(self) -> str:
        return self.name or self.address


def stamp(moment: dt.datetime) -> str:
    return moment.replace(microsecond=0).isoformat()


def parse_time(value: Any) -> dt.datetime | None:
    if not value:
        return None
    try:
        return dt.datetime.fromisoformat(str(value)).replace(tzinfo=None)
    except ValueError:
        return None


def clock_text(moment: dt.datetime) -> str:
    hour = moment.hour % 12 or 12
    return f"{hour}:{moment.minute:02d} {'AM' if moment.hour < 12 else 'PM'}"


def date_or_time(value: Any, now: dt.datetime) -> str:
    """The list's date column: the time for today, else the date (with the year when it is
    not this year), in the app's default "dd.MM.yyyy" format."""
    moment = parse_time(value)
    if moment is None:
        return ""
    if moment.date() == now.date():
        return clock_text(moment)
    if moment.year == now.year:
        return moment.strftime("%d.%m")
    return moment.strftime("%d.%m.%Y")


def date_time(value: Any, now: dt.datetime) -> str:
    """A conversation's date line: "30.06, 12:18 PM"."""
    moment = parse_time(value)
    if moment is None:
        return ""
    day = moment.strftime("%d.%m") if moment.year == now.year else moment.strftime("%d.%m.%Y")
    return f"{day}, {clock_text(moment)}"


def simple_characters(text: str) -> str:
    """The text without accents and diacritics ("Remove accents ... at sending messages")."""
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize(
        "NFC", "".join(c for c in decomposed if not unicodedata.combining(c))
    )


def looks_like_number(text: str) -> bool:
    return sum(c.isdigit() for c in text) >= 3 and all(
        c.isdigit() or c in "+-() ./#*" for c in text
    )


def contact_people(ctx: Ctx) -> list[dict[str, Any]]:
    data = ctx.phone.state.get("contacts")
    return data.collections.get("people", []) if data is not None else []


def contact_names(ctx: Ctx) -> dict[str, str]:
    names: dict[str, str] = {}
    for person in contact_people(ctx):
        if person.get("phone") and person.get("name"):
            names.setdefault(number_key(person["phone"]), str(person["name"]))
    return names


def conversations(ctx: Ctx) -> list[Conversation]:
    """Every conversation, pinned ones first, then the most recent first."""
    names = contact_names(ctx)
    found: dict[str, Conversation] = {}
    for t in ctx.records("threads"):
        key = number_key(t.get("address"))
        if key in found:
            continue
        found[key] = Conversation(
            key=key,
            address=str(t.get("address") or ""),
            name=t.get("contact_name") or names.get(key),
            snippet=str(t.get("snippet") or ""),
            date=str(t.get("last_activity") or ""),
            unread=bool(t.get("unread")),
            pinned=bool(t.get("pinned")),
            archived=bool(t.get("archived")),
            record=t,
        )
    for collection, field_name, sent in (("received", "from", False), ("sent", "to", True)):
        for m in ctx.records(collection):
            key = number_key(m.get(field_name))
            conv = found.get(key)
            if conv is None:
                conv = found[key] = Conversation(
                    key=key,
                    address=str(m.get(field_name) or ""),
                    name=names.get(key),
                    snippet="",
                    date="",
                    unread=False,
                )
            when = str(m.get("timestamp") or "")
            body = str(m.get("body") or "")
            conv.messages.append((when, body, sent))
            if not sent and not m.get("read"):
                conv.unread = True
            if when >= conv.date:
                conv.date, conv.snippet = when, body
    for d in ctx.records("drafts"):
        key = number_key(d.get("to"))
        conv = found.get(key)
        if conv is None:
            conv = found[key] = Conversation(
                key, str(d.get("to") or ""), names.get(key), "", "", False
            )
        conv.draft = str(d.get("body") or "")
    result = sorted(found.values(), key=lambda c: c.date, reverse=True)
    result.sort(key=lambda c: not c.pinned)
    return result


def find_conversation(ctx: Ctx, key: str) -> Conversation | None:
    return next((c for c in conversations(ctx) if c.key == key), None)


class MessagesApp(SimpleToolsApp):
    model = "messages"
    package = PKG
    label = "Messages"
    activity = f"{ACTIVITIES}.MainActivity"
    home = "main"
    defaults = SETTING_DEFAULTS

    def posted(self, ctx: Ctx) -> list[Notification]:
        """A notification per unread conversation (not archived) with its latest message;
        a tap opens the conversation (and marks it read)."""
        out = []
        for conv in sorted(conversations(ctx), key=lambda c: c.date):
            if not conv.unread or conv.archived:
                continue
            received = [body for _, body, sent in sorted(conv.messages) if not sent]
            text = received[-1] if received else conv.snippet
            out.append(
                Notification(self.model, conv.name or conv.address, text,
                             key="open_thread", arg=conv.address)
            )  # fmt: skip
        return out

    # ================================================================= screens
    def screen_main(self, ctx: Ctx, route: Route) -> Screen:
        return self.conversation_list(ctx, route, archived=False)

    def screen_archived(self, ctx: Ctx, route: Route) -> Screen:
        return self.conversation_list(ctx, route, archived=True)

    def conversation_list(self, ctx: Ctx, route: Route, archived: bool) -> Screen:
        selected: tuple[str, ...] = route.arg("selected") or ()
        convs = [c for c in conversations(ctx) if c.archived == archived]
        if selected:
            return self.selection_screen(ctx, route, convs, selected, archived)
        if archived:
            screen = Screen(
                "Archived conversations",
                activity=f"{ACTIVITIES}.ArchivedConversationsActivity",
                up=True,
                list_rid=self.rid("conversations_list"),
            )
            screen.rows = [self.conversation_row(ctx, c, False) for c in convs]
            if not convs:
                screen.rows = [
                    w.text_row(
                        "No archived conversations have been found",
                        self.rid("no_conversations_placeholder"),
                    )
                ]
            return screen
        query = ctx.form("search")
        screen = Screen(
            None,
            list_rid=self.rid("search_results_list" if query else "conversations_list"),
            actions=[
                View(
                    w.EDIT,
                    rid=self.rid("top_toolbar_search"),
                    edit="search",
                    hint="Search",
                    on_enter="search_submit",
                    weight=0.55,
                ),
                self.action("Settings", "settings", "open_settings"),
                self.action("About", "about", "open_about"),
                self.action("More options", "", "main_menu"),
            ],
        )
        if query:
            screen.rows = self.search_rows(ctx, query, convs)
            return screen
        screen.rows = [self.conversation_row(ctx, c, False) for c in convs]
        if not convs:
            screen.rows = [
                w.text_row(NO_CONVERSATIONS, self.rid("no_conversations_placeholder")),
                w.text_row(
                    START_CONVERSATION,
                    self.rid("no_conversations_placeholder_2"),
                    clickable=True,
                    focusable=True,
                    on_click="new_conversation",
                ),
            ]
        screen.fab = View(
            w.IMAGE_BUTTON,
            desc=START_CONVERSATION,
            rid=self.rid("conversations_fab"),
            clickable=True,
            focusable=True,
            on_click="new_conversation",
        )
        return screen

    def selection_screen(
        self,
        ctx: Ctx,
        route: Route,
        convs: list[Conversation],
        selected: tuple[str, ...],
        archived: bool,
    ) -> Screen:
        """The action mode a long press starts: the selected rows, and what to do with them."""
        chosen = [c for c in convs if c.key in selected]
        screen = Screen(
            f"{len(chosen)} / {len(convs)}",
            activity=f"{ACTIVITIES}.{'ArchivedConversationsActivity' if archived else 'MainActivity'}",
            up=True,
            list_rid=self.rid("conversations_list"),
            actions=[
                self.action("Delete", "cab_delete", "cab_delete"),
                self.action(
                    "Unarchive" if archived else "Archive",
                    "cab_unarchive" if archived else "cab_archive",
                    "cab_archive",
                    not archived,
                ),
                self.action("More options", "", "cab_menu"),
            ],
        )
        screen.rows = [self.conversation_row(ctx, c, True, c.key in selected) for c in convs]
        return screen

    def conversation_row(
        self, ctx: Ctx, conv: Conversation, selecting: bool, selected: bool = False
    ) -> View:
        texts = View(
            w.LINEAR,
            weight=0.6,
            children=[
                View(w.TEXT, text=conv.title, rid=self.rid("conversation_address"), height=110),
                View(
                    w.TEXT,
                    text=conv.draft if conv.draft else conv.snippet,
                    rid=self.rid("conversation_body_short"),
                    height=100,
                ),
            ],
        )
        side = View(
            w.LINEAR,
            weight=0.25,
            children=[
                View(
                    w.TEXT,
                    text=date_or_time(conv.date, ctx.now),
                    rid=self.rid("conversation_date"),
                    height=90,
                )
            ],
        )
        if conv.draft is not None:
            side.children.append(
                View(w.TEXT, text="Draft", rid=self.rid("draft_indicator"), height=60)
            )
        if conv.unread:
            side.children.append(
                View(w.IMAGE, desc="Unread", rid=self.rid("unread_indicator"), height=60)
            )
        if conv.pinned:
            side.children.append(
                View(w.IMAGE, desc="Pinned", rid=self.rid("pin_indicator"), height=60)
            )
        return View(
            w.RELATIVE,
            rid=self.rid("conversation_frame"),
            clickable=True,
            long_clickable=True,
            focusable=True,
            selected=selected,
            horizontal=True,
            height=210,
            on_click="toggle" if selecting else "open_thread",
            on_long="toggle" if selecting else "select",
            arg=conv.key if selecting else conv.address,
            children=[
                View(w.IMAGE, rid=self.rid("conversation_image"), weight=0.15),
                texts,
                side,
            ],
        )

    def search_rows(self, ctx: Ctx, query: str, convs: list[Conversation]) -> list[View]:
        needle = query.strip().casefold()
        if len(needle) < 2:
            return [
                w.text_row(
                    "Type at least 2 characters to start the search.",
                    self.rid("search_placeholder_2"),
                )
            ]
        digits = phone_digits(needle)
        hits: list[tuple[Conversation, str, str]] = []
        for c in convs:
            if needle in c.title.casefold() or (
                len(digits) >= 2 and digits in phone_digits(c.address)
            ):
                hits.append((c, c.snippet, c.date))
        for c in convs:
            for when, body, _sent in sorted(c.messages, reverse=True):
                if needle in body.casefold():
                    hits.append((c, body, when))
        if not hits:
            return [w.text_row("No items found.", self.rid("search_placeholder"))]
        return [
            View(
                w.RELATIVE,
                rid=self.rid("search_result_holder"),
                clickable=True,
                focusable=True,
                height=210,
                on_click="open_thread",
                arg=c.address,
                children=[
                    View(w.TEXT, text=c.title, rid=self.rid("search_result_title"), height=70),
                    View(w.TEXT, text=body, rid=self.rid("search_result_snippet"), height=80),
                    View(
                        w.TEXT,
                        text=date_or_time(when, ctx.now),
                        rid=self.rid("search_result_date"),
                        height=60,
                    ),
                ],
            )
            for c, body, when in hits
        ]

    def screen_thread(self, ctx: Ctx, route: Route) -> Screen:
        address = str(route.arg("address"))
        key = number_key(address)
        conv = find_conversation(ctx, key)
        names = contact_names(ctx)
        title = conv.title if conv is not None else names.get(key, address)
        archived = conv.archived if conv is not None else False
        screen = Screen(
            title,
            activity=f"{ACTIVITIES}.ThreadActivity",
            up=True,
            list_rid=self.rid("thread_messages_list"),
            actions=[
                self.action("Delete", "delete", "thread_delete", address),
                self.action("Dial number", "dial_number", "dial_number", address),
                self.action("More options", "", "thread_menu", (address, archived)),
            ],
        )
        messages = sorted(conv.messages) if conv is not None else []
        if conv is not None and not messages and conv.snippet:
            messages = [(conv.date, conv.snippet, False)]
        rows: list[View] = []
        last: dt.datetime | None = None
        for when, body, sent in messages:
            moment = parse_time(when)
            if moment is not None and (last is None or moment - last > DATE_GAP):
                rows.append(
                    w.text_row(date_time(when, ctx.now), self.rid("thread_date_time"), height=100)
                )
            last = moment or last
            rows.append(self.message_row(body, sent))
        screen.rows = rows
        typed = ctx.form("message")
        settings = ctx.data().settings
        composer = [
            View(
                w.IMAGE,
                desc="Attachment",
                rid=self.rid("thread_add_attachment"),
                weight=0.13,
            ),
            View(
                w.EDIT,
                rid=self.rid("thread_type_message"),
                edit="message",
                hint=TYPE_A_MESSAGE,
                on_enter="send" if settings.get("send_on_enter") else "newline",
                arg=address,
                weight=0.6,
            ),
        ]
        if settings.get("show_character_counter"):
            composer.append(
                View(
                    w.TEXT,
                    text=str(len(typed)),
                    rid=self.rid("thread_character_counter"),
                    weight=0.12,
                )
            )
        composer.append(
            View(
                w.BUTTON,
                text="SMS",
                desc="Send",
                rid=self.rid("thread_send_message"),
                clickable=bool(typed.strip()),
                focusable=True,
                enabled=bool(typed.strip()),
                on_click="send" if typed.strip() else None,
                arg=address,
                weight=0.15,
            )
        )
        screen.tabs = composer  # the composer sits at the bottom, above the keyboard
        return screen

    def message_row(self, body: str, sent: bool) -> View:
        lines = max(1, -(-len(body) // 28))
        bubble = View(
            w.TEXT,
            text=body,
            rid=self.rid("thread_message_body"),
            clickable=True,
            long_clickable=True,
            focusable=True,
            weight=0.75,
        )
        space = View(w.VIEW, weight=0.25)
        return View(
            w.LINEAR,
            rid=self.rid("thread_message_holder"),
            horizontal=True,
            height=70 + 55 * min(lines, 12),
            children=[space, bubble] if sent else [bubble, space],
        )

    def screen_new(self, ctx: Ctx, route: Route) -> Screen:
        typed = ctx.form("address")
        screen = Screen(
            "New conversation",
            activity=f"{ACTIVITIES}.NewConversationActivity",
            up=True,
            list_rid=self.rid("contacts_list"),
        )
        field_row = View(
            w.LINEAR,
            horizontal=True,
            height=140,
            children=[
                View(
                    w.EDIT,
                    rid=self.rid("new_conversation_address"),
                    edit="address",
                    hint=ADD_CONTACT_OR_NUMBER,
                    on_enter="new_confirm",
                    weight=0.85,
                )
            ],
        )
        if len(typed.strip()) > 2:
            field_row.children.append(
                View(
                    w.IMAGE,
                    desc="Confirm selection",
                    rid=self.rid("new_conversation_confirm"),
                    clickable=True,
                    focusable=True,
                    on_click="new_confirm",
                    weight=0.15,
                )
            )
        suggestions = [c for c in conversations(ctx) if c.name][:5]
        screen.header = [field_row]
        if suggestions:
            screen.header += [
                View(w.TEXT, text="Suggestions", rid=self.rid("suggestions_label"), height=80),
                View(
                    w.LINEAR,
                    rid=self.rid("suggestions_holder"),
                    horizontal=True,
                    height=170,
                    children=[
                        View(
                            w.RELATIVE,
                            rid=self.rid("suggested_contact_holder"),
                            clickable=True,
                            focusable=True,
                            on_click="pick_contact",
                            arg=c.address,
                            children=[
                                View(w.IMAGE, rid=self.rid("suggested_contact_image"), height=100),
                                View(
                                    w.TEXT,
                                    text=c.title,
                                    rid=self.rid("suggested_contact_name"),
                                    height=70,
                                ),
                            ],
                        )
                        for c in suggestions
                    ],
                ),
            ]
        needle = typed.strip().casefold()
        digits = phone_digits(needle) if any(ch.isdigit() for ch in needle) else ""
        people = sorted(
            (p for p in contact_people(ctx) if p.get("phone") and p.get("name")),
            key=lambda p: str(p["name"]).casefold(),
        )
        if needle:
            people = [
                p
                for p in people
                if needle in str(p["name"]).casefold()
                or (digits and digits in phone_digits(p["phone"]))
            ]
        screen.rows = [
            View(
                w.RELATIVE,
                rid=self.rid("item_contact_frame"),
                clickable=True,
                focusable=True,
                horizontal=True,
                height=190,
                on_click="pick_contact",
                arg=str(p["phone"]),
                children=[
                    View(w.IMAGE, rid=self.rid("item_contact_image"), weight=0.15),
                    View(
                        w.LINEAR,
                        weight=0.85,
                        children=[
                            View(
                                w.TEXT,
                                text=str(p["name"]),
                                rid=self.rid("item_contact_name"),
                                height=100,
                            ),
                            View(
                                w.TEXT,
                                text=str(p["phone"]),
                                rid=self.rid("item_contact_number"),
                                height=90,
                            ),
                        ],
                    ),
                ],
            )
            for p in people
        ]
        if not screen.rows and not needle:
            screen.rows = [w.text_row("No contacts found", self.rid("no_contacts_placeholder"))]
        return screen

    def screen_details(self, ctx: Ctx, route: Route) -> Screen:
        address = str(route.arg("address"))
        conv = find_conversation(ctx, number_key(address))
        title = conv.title if conv is not None else address
        number = conv.address if conv is not None else address
        screen = Screen(
            "Conversation details",
            activity=f"{ACTIVITIES}.ConversationDetailsActivity",
            up=True,
            list_rid=self.rid("participants_recyclerview"),
        )
        screen.header = [
            View(
                w.TEXT,
                text="Conversation name",
                rid=self.rid("conversation_name_heading"),
                height=90,
            ),
            View(w.TEXT, text=title, rid=self.rid("conversation_name"), height=120),
            View(w.TEXT, text="Members", rid=self.rid("members_heading"), height=90),
        ]
        screen.rows = [
            View(
                w.RELATIVE,
                rid=self.rid("item_contact_frame"),
                clickable=True,
                focusable=True,
                height=190,
                children=[
                    View(w.TEXT, text=title, rid=self.rid("item_contact_name"), height=100),
                    View(w.TEXT, text=number, rid=self.rid("item_contact_number"), height=90),
                ],
            )
        ]
        return screen

    def screen_settings(self, ctx: Ctx, route: Route) -> Screen:
        settings = {**SETTING_DEFAULTS, **ctx.data().settings}
        font = font_label(str(settings["font_size"]))
        screen = Screen(
            "Settings",
            activity=f"{ACTIVITIES}.SettingsActivity",
            up=True,
            list_rid=self.rid("settings_nested_scrollview"),
            list_cls=w.SCROLL,
        )
        rows = [
            w.text_row(
                "Color customization", self.rid("settings_color_customization_label"), height=100
            ),
            self.pref_row("Customize colors", "open_colors", "settings_customize_colors"),
            w.text_row("General", self.rid("settings_general_settings_label"), height=100),
            self.pref_row("Font size", "font_size_dialog", "settings_font_size", font, 70),
            w.text_row(
                "Outgoing messages", self.rid("settings_outgoing_messages_label"), height=100
            ),
        ]
        for name, rid, label in CHECKBOXES:
            rows.append(
                View(
                    w.RELATIVE,
                    rid=self.rid(f"{rid}_holder"),
                    height=150,
                    children=[
                        checkbox(
                            label, bool(settings[name]), "toggle_setting", name, self.rid(rid), 0
                        )
                    ],
                )
            )
        screen.rows = rows
        return screen

    def screen_colors(self, ctx: Ctx, route: Route) -> Screen:
        return self.colors_screen(str(ctx.setting("theme") or "dark"), "theme_dialog")

    def screen_about(self, ctx: Ctx, route: Route) -> Screen:
        screen = Screen(
            "About",
            activity=f"{COMMONS}.AboutActivity",
            up=True,
            list_rid=self.rid("about_scrollview"),
            list_cls=w.SCROLL,
        )
        screen.rows = [
            w.text_row("Support", self.rid("about_support"), height=100),
            w.text_row("Frequently asked questions", self.rid("about_faq"), height=140),
            w.text_row("Other", self.rid("about_other"), height=100),
            w.text_row("Version 5.18.2", self.rid("about_version"), height=140),
        ]
        return screen

    # ================================================================= small views
    def action(
        self, desc: str, rid: str, key: str | None, arg: Any = None, visible: bool = True
    ) -> View:
        return View(
            w.IMAGE_BUTTON,
            desc=desc,
            rid=self.rid(rid) if rid else "",
            clickable=visible,
            focusable=True,
            on_click=key if visible else None,
            arg=arg,
        )

    def menu(self, items: list[tuple[str, str, Any]]) -> Dialog:
        """A popup menu (the overflow "More options" or a list of choices)."""
        return Dialog(title="", items=[menu_item(*item, height=130) for item in items])

    # ================================================================= handlers: list
    # the shared handlers, under this app's keys
    on_search_submit = SimpleToolsApp.on_search
    on_open_settings = SimpleToolsApp.on_settings
    on_open_about = SimpleToolsApp.on_about

    def on_main_menu(self, ctx: Ctx, arg: Any) -> None:
        ctx.dialog(self.menu([("Archived conversations", "open_archived", None)]))

    def on_open_archived(self, ctx: Ctx, arg: Any) -> None:
        close_dialog(ctx)
        ctx.hide_keyboard()
        ctx.push("archived")

    def on_new_conversation(self, ctx: Ctx, arg: Any) -> None:
        ctx.hide_keyboard()
        ctx.push("new")

    def on_open_thread(self, ctx: Ctx, arg: Any) -> None:
        self.open_thread(ctx, str(arg), replace=False)

    def open_thread(self, ctx: Ctx, address: str, replace: bool) -> None:
        key = number_key(address)
        conv = find_conversation(ctx, key)
        if conv is not None:
            address = conv.address
        shared = ctx.route.arg("body") if ctx.route is not None else None
        mark_read(ctx, key)
        ctx.hide_keyboard()
        if replace:
            route = ctx.replace("thread", address=address)
        else:
            route = ctx.push("thread", address=address)
        if shared:  # text another app shared (ACTION_SEND) waits in the message field
            ctx.set_form("message", str(shared), route)
        elif conv is not None and conv.draft:
            ctx.set_form("message", conv.draft, route)

    # selection mode ---------------------------------------------------------------
    def on_select(self, ctx: Ctx, arg: Any) -> None:
        assert ctx.route is not None
        ctx.hide_keyboard()
        old = ctx.route
        self.keep_scroll(ctx, old, ctx.push(old.screen, selected=(number_key(arg),)))

    def on_toggle(self, ctx: Ctx, arg: Any) -> None:
        assert ctx.route is not None
        old = ctx.route
        selected: tuple[str, ...] = old.arg("selected") or ()
        key = str(arg)
        now = tuple(k for k in selected if k != key) if key in selected else (*selected, key)
        if not now:
            ctx.back()
            return
        self.keep_scroll(ctx, old, ctx.replace(old.screen, selected=now))

    def keep_scroll(self, ctx: Ctx, old: Route, new: Route) -> None:
        if old.id in ctx.phone.scroll:
            ctx.phone.scroll[new.id] = ctx.phone.scroll[old.id]

    def selected(self, ctx: Ctx) -> list[Conversation]:
        assert ctx.route is not None
        keys: tuple[str, ...] = ctx.route.arg("selected") or ()
        archived = ctx.route.screen == "archived"
        return [c for c in conversations(ctx) if c.key in keys and c.archived == archived]

    def on_cab_delete(self, ctx: Ctx, arg: Any) -> None:
        count = len(self.selected(ctx))
        what = f"{count} conversation" + ("" if count == 1 else "s")
        ctx.dialog(
            Dialog(
                title="",
                message=f"Are you sure you want to delete {what}?",
                buttons=[("Yes", "cab_delete_confirmed", None), ("No", None, None)],
            )
        )

    def on_cab_delete_confirmed(self, ctx: Ctx, arg: Any) -> None:
        for conv in self.selected(ctx):
            delete_conversation(ctx, conv.key)
        ctx.back()

    def on_cab_archive(self, ctx: Ctx, arg: Any) -> None:
        for conv in self.selected(ctx):
            set_thread(ctx, conv, archived=bool(arg))
        ctx.back()

    def on_cab_menu(self, ctx: Ctx, arg: Any) -> None:
        chosen = self.selected(ctx)
        items: list[tuple[str, str, Any]] = []
        if any(c.unread for c in chosen):
            items.append(("Mark as Read", "cab_read", None))
        if any(not c.unread for c in chosen):
            items.append(("Mark as Unread", "cab_unread", None))
        if any(not c.pinned for c in chosen):
            items.append(("Pin to the top", "cab_pin", True))
        if any(c.pinned for c in chosen):
            items.append(("Unpin", "cab_pin", False))
        items.append(("Select all", "cab_select_all", None))
        ctx.dialog(self.menu(items))

    def on_cab_read(self, ctx: Ctx, arg: Any) -> None:
        close_dialog(ctx)
        for conv in self.selected(ctx):
            mark_read(ctx, conv.key)
        ctx.back()

    def on_cab_unread(self, ctx: Ctx, arg: Any) -> None:
        close_dialog(ctx)
        for conv in self.selected(ctx):
            mark_unread(ctx, conv)
        ctx.back()

    def on_cab_pin(self, ctx: Ctx, arg: Any) -> None:
        close_dialog(ctx)
        for conv in self.selected(ctx):
            if conv.pinned != bool(arg):
                set_thread(ctx, conv, pinned=bool(arg))
        ctx.back()

    def on_cab_select_all(self, ctx: Ctx, arg: Any) -> None:
        close_dialog(ctx)
        assert ctx.route is not None
        old = ctx.route
        archived = old.screen == "archived"
        keys = tuple(c.key for c in conversations(ctx) if c.archived == archived)
        self.keep_scroll(ctx, old, ctx.replace(old.screen, selected=keys))

    # ================================================================= handlers: thread
    def on_send(self, ctx: Ctx, arg: Any) -> None:
        text = ctx.form("message")
        if not text.strip():
            return
        settings = {**SETTING_DEFAULTS, **ctx.data().settings}
        body = simple_characters(text) if settings["remove_accents"] else text
        key = number_key(arg)
        conv = find_conversation(ctx, key)
        to = conv.address if conv is not None else str(arg)
        now = stamp(ctx.now)
        ctx.add(
            "sent",
            {
                "to": to,
                "body": body,
                "timestamp": now,
                "status": "sent",
                "mms": bool(settings["send_long_as_mms"]) and len(body) > LONG_SMS,
            },
        )
        if conv is not None and conv.record is not None:
            ctx.update("threads", conv.record, snippet=body, last_activity=now, unread=False)
        else:
            ctx.add(
                "threads",
                {
                    "address": to,
                    "contact_name": conv.name if conv is not None else contact_names(ctx).get(key),
                    "snippet": body,
                    "unread": False,
                    "pinned": False,
                    "archived": False,
                    "last_activity": now,
                },
            )
        for d in list(ctx.records("drafts")):
            if number_key(d.get("to")) == key:
                ctx.delete("drafts", d)
        clear_form(ctx, "message")

    def on_newline(self, ctx: Ctx, arg: Any) -> None:
        ctx.set_form("message", ctx.form("message") + "\n")

    def on_thread_delete(self, ctx: Ctx, arg: Any) -> None:
        ctx.dialog(
            Dialog(
                title="",
                message=DELETE_THREAD,
                buttons=[("Yes", "thread_delete_confirmed", arg), ("No", None, None)],
            )
        )

    def on_thread_delete_confirmed(self, ctx: Ctx, arg: Any) -> None:
        delete_conversation(ctx, number_key(arg))
        ctx.back()

    def on_dial_number(self, ctx: Ctx, arg: Any) -> None:
        ctx.toast("No app found")

    def on_thread_menu(self, ctx: Ctx, arg: Any) -> None:
        address, archived = arg
        items: list[tuple[str, str, Any]] = [
            ("Conversation details", "open_details", address),
            ("Mark as Unread", "thread_unread", address),
            ("Unarchive" if archived else "Archive", "thread_archive", (address, not archived)),
        ]
        ctx.dialog(self.menu(items))

    def on_open_details(self, ctx: Ctx, arg: Any) -> None:
        close_dialog(ctx)
        ctx.hide_keyboard()
        ctx.push("details", address=str(arg))

    def on_thread_unread(self, ctx: Ctx, arg: Any) -> None:
        close_dialog(ctx)
        key = number_key(arg)
        conv = find_conversation(ctx, key)
        if conv is None:  # a new conversation, nothing in it yet
            ctx.back()
            return
        mark_unread(ctx, conv)
        ctx.back()

    def on_thread_archive(self, ctx: Ctx, arg: Any) -> None:
        close_dialog(ctx)
        address, archived = arg
        conv = find_conversation(ctx, number_key(address))
        if conv is not None:
            set_thread(ctx, conv, archived=bool(archived))
        ctx.back()

    # ================================================================= handlers: new conversation
    def on_new_confirm(self, ctx: Ctx, arg: Any) -> None:
        typed = ctx.form("address").strip()
        if not typed:
            return
        if looks_like_number(typed):
            self.open_thread(ctx, typed, replace=True)
            return
        matches = [
            p
            for p in contact_people(ctx)
            if p.get("phone") and str(p.get("name") or "").casefold() == typed.casefold()
        ]
        if len(matches) == 1:
            self.open_thread(ctx, str(matches[0]["phone"]), replace=True)
            return
        ctx.toast("Invalid number")

    def on_pick_contact(self, ctx: Ctx, arg: Any) -> None:
        self.open_thread(ctx, str(arg), replace=True)

    # ================================================================= handlers: settings
    on_open_colors = SimpleToolsApp.on_customize_colors

    def on_font_size_dialog(self, ctx: Ctx, arg: Any) -> None:
        current = str(ctx.setting("font_size") or "medium")
        ctx.dialog(choice_dialog("", FONT_SIZES, current, "set_font_size"))

    def on_set_font_size(self, ctx: Ctx, arg: Any) -> None:
        close_dialog(ctx)
        if ctx.setting("font_size") != arg:
            ctx.set("font_size", arg)

    def on_theme_dialog(self, ctx: Ctx, arg: Any) -> None:
        ctx.dialog(choice_dialog("", THEMES, str(ctx.setting("theme") or "dark"), "set_theme"))

    def on_set_theme(self, ctx: Ctx, arg: Any) -> None:
        close_dialog(ctx)
        if ctx.setting("theme") != arg:
            ctx.set("theme", arg)


# ===================================================================== state changes
def close_dialog(ctx: Ctx) -> None:
    """A click on a dialog's item (not one of its buttons) leaves the dialog open: close it."""
    ctx.phone.dialog = None


def clear_form(ctx: Ctx, name: str) -> None:
    """Empty a field so that it shows its hint again (the phone shows a field's hint only
    while nothing was typed into it, and an empty typed value counts as typed)."""
    if ctx.route is not None:
        ctx.phone.forms.get(ctx.route.id, {}).pop(name, None)


def mark_read(ctx: Ctx, key: str) -> None:
    for r in list(ctx.records("received")):
        if not r.get("read") and number_key(r.get("from")) == key:
            ctx.update("received", r, read=True)
    for t in list(ctx.records("threads")):
        if t.get("unread") and number_key(t.get("address")) == key:
            ctx.update("threads", t, unread=False)


def mark_unread(ctx: Ctx, conv: Conversation) -> None:
    for r in list(ctx.records("received")):
        if r.get("read") and number_key(r.get("from")) == conv.key:
            ctx.update("received", r, read=False)
    set_thread(ctx, conv, unread=True)


def set_thread(ctx: Ctx, conv: Conversation, **changes: Any) -> None:
    """Change a conversation's thread record, creating it for a conversation that has none."""
    if conv.record is not None:
        if any(conv.record.get(k) != v for k, v in changes.items()):
            ctx.update("threads", conv.record, **changes)
        return
    ctx.add(
        "threads",
        {
            "address": conv.address,
            "contact_name": conv.name,
            "snippet": conv.snippet,
            "unread": conv.unread,
            "pinned": conv.pinned,
            "archived": conv.archived,
            "last_activity": conv.date or None,
            **changes,
        },
    )


def delete_conversation(ctx: Ctx, key: str) -> None:
    for collection, field_name in (
        ("threads", "address"),
        ("received", "from"),
        ("sent", "to"),
        ("drafts", "to"),
    ):
        for r in list(ctx.records(collection)):
            if number_key(r.get(field_name)) == key:
                ctx.delete(collection, r)


APP = MessagesApp
