"""WeChat (``com.tencent.mm``): chats, contacts, WeChat Pay transfers, and the mini programs it
hosts (see ``coffee.py``).

The launcher screen (``LauncherUI``) has four bottom tabs, "Chats", "Contacts", "Discover" and
"Me". A chat (``ChattingUI``) lists its messages and has a text field, "Send" (shown once
something is typed, in place of the "More function buttons" "+" that opens the panel with
"Album", "Camera", ..., "Location", "Transfer", "File"). "Transfer" (``RemittanceUI``) takes an
amount and an optional note ("Add Note"); "Transfer" opens the WeChat Pay sheet ("Pay", with the
payment method: the wallet balance or a card), which writes a ``transfers`` record, takes the
amount off ``wallet_balance`` when the balance pays, and posts a transfer message in the chat.

Contacts lists the friends by their remark (else their nickname); a friend's profile
(``ContactInfoUI``) has "Messages", and "Set Remark and Tag" edits the remark and phone.
Discover > Mini Programs (``AppBrandLauncherUI``) lists the recently used mini programs
(``recent_mini_apps``) and searches them; a mini program that PhoneWorld has (an app whose
``host`` is ``wechat``) opens on top of WeChat. Opening one does not rewrite the recent list:
the tasks guard it, and its last use is not something a test can observe.

Other apps share files into WeChat: ``screen_share`` ("Send to Chat", ``SelectConversationUI``)
takes the Files app's share arguments (``name``, ``path``, ``kind``, ``size``, ``names``,
``paths``) or a mini program card (``mini``), lists the recent chats, "Create New Chat" and a
search, and sends to the chosen chat after a "Send" confirmation.

Me > Services > Wallet shows the balance; Me > Settings has the notification, dark mode,
language and font size settings. Money shows as dollars, as the task goals write it.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Any

from tasklang.envs.phoneworld import widgets as w
from tasklang.envs.phoneworld.app import App, Ctx, Dialog, Route, Screen
from tasklang.envs.phoneworld.widgets import View

PKG = "com.tencent.mm"
LAUNCHER_UI = f"{PKG}.ui.LauncherUI"
CHATTING_UI = f"{PKG}.ui.chatting.ChattingUI"
CHAT_INFO_UI = f"{PKG}.ui.SingleChatInfoUI"
CONTACT_INFO_UI = f"{PKG}.plugin.profile.ui.ContactInfoUI"
REMARK_UI = f"{PKG}.plugin.profile.ui.ContactRemarkInfoModUI"
REMITTANCE_UI = f"{PKG}.plugin.remittance.ui.RemittanceUI"
REMITTANCE_RESULT_UI = f"{PKG}.plugin.remittance.ui.RemittanceResultNewUI"
WALLET_PAY_UI = f"{PKG}.plugin.wallet.pay.ui.WalletPayUI"
SELECT_CONVERSATION_UI = f"{PKG}.ui.transmit.SelectConversationUI"
SELECT_CONTACT_UI = f"{PKG}.ui.contact.SelectContactUI"
FILE_SELECTOR_UI = f"{PKG}.pluginsdk.ui.tools.FileSelectorUI"
LOCATION_UI = f"{PKG}.plugin.location.ui.impl.MMPoiMapUI"
FTS_UI = f"{PKG}.plugin.fts.ui.FTSMainUI"
APPBRAND_LAUNCHER_UI = f"{PKG}.plugin.appbrand.ui.AppBrandLauncherUI"
MALL_UI = f"{PKG}.plugin.mall.ui.MallIndexUIv2"
WALLET_UI = f"{PKG}.plugin.wallet.balance.ui.WalletBalanceManagerUI"
PAY_SETTINGS_UI = f"{PKG}.plugin.wallet.pwd.ui.WalletPasswordSettingUI"
WALLET_BILL_UI = f"{PKG}.plugin.wallet.bill.ui.WalletBillListUI"
SETTINGS_UI = f"{PKG}.plugin.setting.ui.setting.SettingsUI"
NOTIFY_SETTINGS_UI = f"{PKG}.plugin.setting.ui.setting.SettingsNotificationUI"
GENERAL_SETTINGS_UI = f"{PKG}.plugin.setting.ui.setting.SettingsAboutSystemUI"

TABS = (("chats", "Chats"), ("contacts", "Contacts"), ("discover", "Discover"), ("me", "Me"))
PANEL = (  # the "+" panel of a chat: label, handler key (None: not in PhoneWorld)
    ("Album", None),
    ("Camera", None),
    ("Video Call", None),
    ("Location", "panel_location"),
    ("Red Packet", None),
    ("Transfer", "panel_transfer"),
    ("Voice Input", None),
    ("Favorites", None),
    ("Contact Card", None),
    ("File", "panel_file"),
)
DISCOVER = ("Moments", "Channels", "Scan", "Shake", "Top Stories", "Search", "Nearby", "Games")
METHODS = (("balance", "Balance"), ("bank_card", "Bank Card"), ("credit_card", "Credit Card"))
DARK_MODES = (("follow_system", "Auto"), ("on", "Dark Mode"), ("off", "Normal Mode"))
LANGUAGES = (
    ("follow_system", "Auto"),
    ("en", "English"),
    ("zh_CN", "简体中文"),
    ("zh_TW", "繁體中文(台灣)"),
)
FONT_SIZES = (
    ("small", "Small"),
    ("standard", "Standard"),
    ("large", "Large"),
    ("extra_large", "Extra Large"),
)
SETTING_DEFAULTS: dict[str, Any] = {
    "wallet_balance": 20000,
    "payment_method": "balance",
    "pay_with_fingerprint": False,
    "new_message_notifications": True,
    "language": "follow_system",
    "font_size": "standard",
    "dark_mode": "follow_system",
}
SNIPPETS = {
    "image": "[Photo]",
    "voice": "[Voice]",
    "file": "[File]",
    "location": "[Location]",
    "link": "[Link]",
    "transfer": "[Transfer]",
    "red_packet": "[Red Packet]",
}
TRANSFER_STATES = {"pending": "Pending", "accepted": "Accepted", "returned": "Returned"}
TIME_GAP = dt.timedelta(minutes=5)  # a time line separates messages further apart than this
MAX_TRANSFER = 20_000_000  # cents: WeChat's limit on one transfer

_AMOUNT = re.compile(r"^\s*[$¥]?\s*(\d{1,9})(?:\.(\d{0,2}))?\s*$")


# ------------------------------------------------------------------ values
def money(cents: Any) -> str:
    """Cents as the app shows money: "$30.80"."""
    value = int(cents or 0)
    sign = "-" if value < 0 else ""
    value = abs(value)
    return f"{sign}${value // 100:,}.{value % 100:02d}"


def parse_amount(text: str) -> int | None:
    """Cents from a typed amount ("30.8", "30.80", "$5"), or None when it is not one.

    >>> parse_amount("30.8"), parse_amount("$5"), parse_amount("1.234"), parse_amount("")
    (3080, 500, None, None)
    """
    m = _AMOUNT.match(text)
    if m is None:
        return None
    return int(m[1]) * 100 + int((m[2] or "").ljust(2, "0"))


def parse_time(value: Any) -> dt.datetime | None:
    if not value:
        return None
    try:
        return dt.datetime.fromisoformat(str(value)).replace(tzinfo=None)
    except ValueError:
        return None


def stamp(moment: dt.datetime) -> str:
    return moment.replace(microsecond=0).isoformat()


def list_time(value: Any, now: dt.datetime) -> str:
    """The chat list's time column: "20:15" today, "Yesterday", the weekday this week, else
    the date ("5/2/26")."""
    moment = parse_time(value)
    if moment is None:
        return ""
    days = (now.date() - moment.date()).days
    if days <= 0:
        return moment.strftime("%H:%M")
    if days == 1:
        return "Yesterday"
    if days < 7:
        return moment.strftime("%A")
    return f"{moment.month}/{moment.day}/{moment:%y}"


def chat_time(moment: dt.datetime, now: dt.datetime) -> str:
    """A chat's time line: "20:15", "Yesterday 20:15", "Tue 20:15", "May 2, 2026 20:15"."""
    days = (now.date() - moment.date()).days
    clock = moment.strftime("%H:%M")
    if days <= 0:
        return clock
    if days == 1:
        return f"Yesterday {clock}"
    if days < 7:
        return f"{moment:%a} {clock}"
    return f"{moment:%b} {moment.day}, {moment.year} {clock}"


def file_size(size: Any) -> str:
    if not isinstance(size, int) or isinstance(size, bool):
        return ""
    for unit, scale in (("GB", 1024**3), ("MB", 1024**2), ("KB", 1024)):
        if size >= scale:
            return f"{size / scale:.1f} {unit}"
    return f"{size} B"


def display_name(friend: dict[str, Any]) -> str:
    """What WeChat calls a friend: the remark you gave them, else their nickname."""
    return str(friend.get("remark") or friend.get("nickname") or friend.get("wxid") or "")


def index_letter(name: str) -> str:
    first = name[:1].upper()
    return first if "A" <= first <= "Z" else "#"


def label_of(options: tuple[tuple[str, str], ...], value: Any) -> str:
    return next((label for key, label in options if key == value), str(value or ""))


def settings_of(ctx: Ctx) -> dict[str, Any]:
    return {**SETTING_DEFAULTS, **ctx.data("wechat").settings}


def hosted_apps(ctx: Ctx) -> dict[str, str]:
    """Mini program name (casefolded) -> app model, for the mini programs WeChat hosts."""
    return {
        app.label.casefold(): app.model
        for app in ctx.phone.apps.values()
        if app.host == "wechat" and app.label
    }


# ------------------------------------------------------------------ chats
@dataclass
class Conversation:
    """One row of the chat list: a chat record, or one implied by messages."""

    peer: str
    title: str
    is_group: bool
    unread: int
    pinned: bool
    muted: bool
    last: str
    snippet: str
    record: dict[str, Any] | None


def friends_by_id(ctx: Ctx) -> dict[str, dict[str, Any]]:
    return {str(f.get("wxid")): f for f in ctx.records("friends", "wechat")}


def snippet(message: dict[str, Any]) -> str:
    kind = message.get("kind") or "text"
    body = str(message.get("body") or "")
    if kind == "text":
        return body
    tag = SNIPPETS.get(kind, "")
    if kind in ("file", "location", "link") and body:
        return f"{tag} {body}"
    if kind == "transfer" and message.get("outgoing"):
        return f"{tag} {money(message.get('amount'))}"
    return tag


def conversations(ctx: Ctx) -> list[Conversation]:
    """Every chat: sticky ones first, then the most recent first."""
    friends = friends_by_id(ctx)
    found: dict[str, Conversation] = {}
    for c in ctx.records("chats", "wechat"):
        peer = str(c.get("peer"))
        if peer in found:
            continue
        friend = friends.get(peer)
        found[peer] = Conversation(
            peer=peer,
            title=display_name(friend) if friend else str(c.get("title") or peer),
            is_group=bool(c.get("is_group")),
            unread=int(c.get("unread") or 0),
            pinned=bool(c.get("pinned")),
            muted=bool(c.get("muted")),
            last=str(c.get("last_activity") or ""),
            snippet="",
            record=c,
        )
    latest: dict[str, str] = {}
    for m in ctx.records("messages", "wechat"):
        peer = str(m.get("chat"))
        conv = found.get(peer)
        if conv is None:
            friend = friends.get(peer)
            conv = found[peer] = Conversation(
                peer,
                display_name(friend) if friend else peer,
                False,
                0,
                False,
                False,
                "",
                "",
                None,
            )
        when = str(m.get("sent_at") or "")
        if when >= latest.get(peer, ""):
            latest[peer] = when
            conv.snippet = snippet(m)
            if conv.record is None or when > conv.last:
                conv.last = max(conv.last, when)
    result = sorted(found.values(), key=lambda c: c.last, reverse=True)
    result.sort(key=lambda c: not c.pinned)
    return result


def used(ctx: Ctx, name: str) -> None:
    """A mini program opened: it heads the Recently Used list (WeChat's bookkeeping, which
    the app model says changes by itself)."""
    mine = ctx.find("recent_mini_apps", lambda r: r.get("name") == name, "wechat")
    if mine is None:
        ctx.add(
            "recent_mini_apps",
            {"name": name, "last_used": stamp(ctx.now), "pinned": False},
            "wechat",
        )
    else:
        ctx.update("recent_mini_apps", mine, "wechat", last_used=stamp(ctx.now))


def chat_title(ctx: Ctx, peer: str) -> str:
    friend = friends_by_id(ctx).get(peer)
    if friend is not None:
        return display_name(friend)
    record = ctx.find("chats", lambda c: c.get("peer") == peer, "wechat")
    return str(record.get("title") or peer) if record else peer


def chat_messages(ctx: Ctx, peer: str) -> list[dict[str, Any]]:
    found = [m for m in ctx.records("messages", "wechat") if m.get("chat") == peer]
    return sorted(found, key=lambda m: str(m.get("sent_at") or ""))


def post(ctx: Ctx, peer: str, kind: str, body: str, amount: int | None = None) -> None:
    """Send a message to a chat (creating the chat when there is none) and bring the chat to
    the top of the list."""
    when = stamp(ctx.now)
    ctx.add(
        "messages",
        {
            "chat": peer,
            "outgoing": True,
            "kind": kind,
            "body": body,
            "amount": amount,
            "sent_at": when,
        },
        "wechat",
    )
    record = ctx.find("chats", lambda c: c.get("peer") == peer, "wechat")
    if record is None:
        ctx.add(
            "chats",
            {
                "peer": peer,
                "title": chat_title(ctx, peer),
                "is_group": False,
                "unread": 0,
                "pinned": False,
                "muted": False,
                "last_activity": when,
            },
            "wechat",
        )
    elif str(record.get("last_activity") or "") != when:
        ctx.update("chats", record, "wechat", last_activity=when)


# ------------------------------------------------------------------ views
def rid(name: str) -> str:
    return f"{PKG}:id/{name}"


def label(text: str, name: str = "", height: int = 110, **kw: Any) -> View:
    return View(w.TEXT, text=text, rid=rid(name) if name else "", height=height, **kw)


def row(
    title: str,
    key: str | None = None,
    arg: Any = None,
    value: str = "",
    name: str = "pref_row",
    height: int = 150,
    value_rid: str = "",
) -> View:
    """A tappable preference-style row: a title and, on the right, a value."""
    kids = [View(w.TEXT, text=title, rid="android:id/title", weight=0.6)]
    if value:
        kids.append(View(w.TEXT, text=value, rid=value_rid or "android:id/summary", weight=0.4))
    return View(
        w.LINEAR,
        rid=rid(name),
        clickable=key is not None,
        focusable=key is not None,
        on_click=key,
        arg=arg,
        horizontal=True,
        height=height,
        children=kids,
    )


def switch_row(title: str, on: bool, key: str, arg: Any = None) -> View:
    return View(
        w.LINEAR,
        rid=rid("pref_row"),
        clickable=True,
        focusable=True,
        on_click=key,
        arg=arg,
        horizontal=True,
        height=150,
        children=[
            View(w.TEXT, text=title, rid="android:id/title", weight=0.8),
            View(
                w.SWITCH,
                rid=rid("checkbox"),
                checkable=True,
                checked=on,
                clickable=True,
                focusable=True,
                on_click=key,
                arg=arg,
                weight=0.2,
            ),
        ],
    )


def section(text: str) -> View:
    return View(w.TEXT, text=text, rid=rid("section_title"), height=90)


def icon_button(desc: str, key: str | None, arg: Any = None, name: str = "") -> View:
    return View(
        w.IMAGE_BUTTON,
        desc=desc,
        rid=rid(name) if name else "",
        clickable=True,
        focusable=True,
        on_click=key,
        arg=arg,
    )


def button(
    text: str, key: str | None, arg: Any = None, name: str = "", enabled: bool = True
) -> View:
    return View(
        w.BUTTON,
        text=text,
        rid=rid(name) if name else "",
        clickable=True,
        focusable=True,
        enabled=enabled,
        on_click=key if enabled else None,
        arg=arg,
        height=150,
    )


def choice_dialog(
    title: str, options: tuple[tuple[str, str], ...], current: Any, key: str
) -> Dialog:
    """A single-choice list: each option a radio row sending ``key`` with its value."""
    items = [
        View(
            w.LINEAR,
            clickable=True,
            focusable=True,
            on_click=key,
            arg=value,
            horizontal=True,
            height=140,
            children=[
                View(w.TEXT, text=text, rid="android:id/text1", weight=0.8),
                View(
                    w.RADIO,
                    rid=rid("radio"),
                    checkable=True,
                    checked=value == current,
                    weight=0.2,
                ),
            ],
        )
        for value, text in options
    ]
    return Dialog(title, items=items, buttons=[("Cancel", None, None)])


# ------------------------------------------------------------------ WeChat Pay
def method_text(ctx: Ctx, method: str) -> str:
    if method == "balance":
        return f"Balance ({money(settings_of(ctx)['wallet_balance'])})"
    return label_of(METHODS, method)


def pay_method(ctx: Ctx) -> str:
    """The payment method of the sheet on screen: the one chosen there, else the default."""
    chosen = ctx.form("method")
    return chosen or str(settings_of(ctx)["payment_method"])


class WeChatPay:
    """The WeChat Pay sheet, shared by WeChat's transfers and the mini programs it hosts:
    the payee, the amount, the payment method ("Change": this payment only) and "Pay"."""

    def pay_sheet(self, ctx: Ctx, payee: str, amount: int, pay_key: str, arg: Any = None) -> Screen:
        method = pay_method(ctx)
        screen = Screen(
            None,
            activity=WALLET_PAY_UI,
            actions=[icon_button("Close", "pay_close", name="close_btn")],
            list_rid=rid("wallet_pay_list"),
        )
        screen.rows = [
            label("WeChat Pay", "pay_title", height=120),
            label(payee, "pay_payee", height=110),
            label(money(amount), "pay_amount", height=200),
            View(
                w.LINEAR,
                rid=rid("pay_method_row"),
                clickable=True,
                focusable=True,
                on_click="pay_choose_method",
                horizontal=True,
                height=150,
                children=[
                    View(w.TEXT, text="Payment Method", rid="android:id/title", weight=0.5),
                    View(w.TEXT, text=method_text(ctx, method), rid=rid("pay_method"), weight=0.5),
                ],
            ),
        ]
        screen.footer = [button("Pay", pay_key, arg, name="pay_btn")]
        return screen

    def on_pay_close(self, ctx: Ctx, arg: Any) -> None:
        ctx.back()

    def on_pay_choose_method(self, ctx: Ctx, arg: Any) -> None:
        options = tuple((key, method_text(ctx, key)) for key, _ in METHODS)
        ctx.dialog(
            choice_dialog("Select Payment Method", options, pay_method(ctx), "pay_set_method")
        )

    def on_pay_set_method(self, ctx: Ctx, arg: Any) -> None:
        ctx.set_form("method", str(arg))

    def charge(self, ctx: Ctx, amount: int) -> bool:
        """Take ``amount`` from the sheet's payment method; False (and a dialog saying why)
        when the balance cannot pay."""
        method = pay_method(ctx)
        if method == "balance":
            balance = int(settings_of(ctx)["wallet_balance"])
            if balance < amount:
                ctx.dialog(
                    Dialog(
                        "Insufficient Balance",
                        message=f"Your balance ({money(balance)}) is not enough for this "
                        "payment. Select another payment method.",
                        buttons=[("OK", None, None)],
                    )
                )
                return False
            ctx.set("wallet_balance", balance - amount, "wechat")
        return True


# ------------------------------------------------------------------ the app
class WeChatApp(WeChatPay, App):
    model = "wechat"
    package = PKG
    label = "WeChat"
    activity = LAUNCHER_UI
    home = "main"

    # ============================================================== launcher tabs
    def screen_main(self, ctx: Ctx, route: Route) -> Screen:
        tab = str(route.arg("tab", "chats"))
        title = {"chats": "WeChat"}.get(tab, label_of(TABS, tab))
        screen = Screen(
            title,
            actions=[
                icon_button("Search", "open_search", "all", "search_btn"),
                icon_button("More function buttons", "plus_menu", name="plus_btn"),
            ],
            list_rid=rid(f"{tab}_list"),
        )
        if tab == "me":
            screen.actions = []
        screen.rows = getattr(self, f"tab_{tab}")(ctx)
        screen.tabs = [
            View(
                w.LINEAR,
                rid=rid("tab_item"),
                clickable=True,
                focusable=True,
                selected=key == tab,
                on_click="tab",
                arg=key,
                children=[
                    View(w.IMAGE, rid=rid("tab_icon"), height=90),
                    View(w.TEXT, text=text, rid=rid("tab_label"), height=60),
                ],
            )
            for key, text in TABS
        ]
        return screen

    def tab_chats(self, ctx: Ctx) -> list[View]:
        rows = [self.chat_row(ctx, c) for c in conversations(ctx)]
        if not rows:
            rows = [label("No chats", "empty_tip", height=300)]
        return rows

    def chat_row(self, ctx: Ctx, conv: Conversation) -> View:
        texts = View(
            w.LINEAR,
            weight=0.62,
            children=[
                View(w.TEXT, text=conv.title, rid=rid("chat_title"), height=100),
                View(w.TEXT, text=conv.snippet, rid=rid("chat_snippet"), height=80),
            ],
        )
        side = View(
            w.LINEAR,
            weight=0.23,
            children=[View(w.TEXT, text=list_time(conv.last, ctx.now), rid=rid("chat_time"))],
        )
        if conv.unread:
            side.children.append(View(w.TEXT, text=str(conv.unread), rid=rid("unread_count")))
        if conv.muted:
            side.children.append(View(w.IMAGE, desc="Muted", rid=rid("mute_icon")))
        return View(
            w.LINEAR,
            rid=rid("conversation_item"),
            clickable=True,
            long_clickable=True,
            focusable=True,
            selected=conv.pinned,
            on_click="open_chat",
            on_long="chat_menu",
            arg=conv.peer,
            horizontal=True,
            height=200,
            children=[
                View(w.IMAGE, rid=rid("avatar"), desc="Profile Photo", weight=0.15),
                texts,
                side,
            ],
        )

    def tab_contacts(self, ctx: Ctx) -> list[View]:
        rows = [
            row(text, None, name="contact_header_row", height=140)
            for text in ("New Friends", "Group Chats", "Tags", "Official Accounts")
        ]
        friends = sorted(ctx.records("friends", "wechat"), key=lambda f: display_name(f).casefold())
        starred = [f for f in friends if f.get("starred")]
        if starred:
            rows.append(section("Starred Friends"))
            rows += [self.friend_row(f) for f in starred]
        letter = None
        for f in sorted(friends, key=lambda f: (index_letter(display_name(f)) == "#",)):
            first = index_letter(display_name(f))
            if first != letter:
                rows.append(section(first))
                letter = first
            rows.append(self.friend_row(f))
        rows.append(label(f"{len(friends)} friends", "contact_count", height=120))
        return rows

    def friend_row(
        self, friend: dict[str, Any], key: str = "open_profile", arg: Any = None
    ) -> View:
        return View(
            w.LINEAR,
            rid=rid("contact_item"),
            clickable=True,
            focusable=True,
            on_click=key,
            arg=friend.get("wxid") if arg is None else arg,
            horizontal=True,
            height=150,
            children=[
                View(w.IMAGE, rid=rid("avatar"), desc="Profile Photo", weight=0.15),
                View(w.TEXT, text=display_name(friend), rid=rid("contact_name"), weight=0.85),
            ],
        )

    def tab_discover(self, ctx: Ctx) -> list[View]:
        rows = [row(text, None, name="discover_row") for text in DISCOVER]
        rows.append(row("Mini Programs", "open_mini_programs", name="discover_row"))
        return rows

    def tab_me(self, ctx: Ctx) -> list[View]:
        return [
            row("Services", "open_services", name="me_row"),
            row("Favorites", None, name="me_row"),
            row("Moments", None, name="me_row"),
            row("Channels", None, name="me_row"),
            row("Cards & Offers", None, name="me_row"),
            row("Sticker Gallery", None, name="me_row"),
            row("Settings", "open_settings", name="me_row"),
        ]

    def on_tab(self, ctx: Ctx, arg: Any) -> None:
        ctx.replace("main", tab=str(arg))

    def on_plus_menu(self, ctx: Ctx, arg: Any) -> None:
        items = [
            View(
                w.LINEAR,
                clickable=True,
                focusable=True,
                on_click=key,
                height=140,
                children=[View(w.TEXT, text=text, rid=rid("plus_menu_title"))],
            )
            for text, key in (
                ("New Chat", "new_chat"),
                ("Add Contacts", "open_search"),
                ("Scan", None),
                ("Money", "open_services"),
            )
        ]
        ctx.dialog(Dialog("", items=items))

    def on_new_chat(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("select_contact", purpose="chat")

    # ============================================================== chats
    def on_open_chat(self, ctx: Ctx, arg: Any) -> None:
        peer = str(arg)
        record = ctx.find("chats", lambda c: c.get("peer") == peer, "wechat")
        if record is not None and record.get("unread"):
            ctx.update("chats", record, "wechat", unread=0)
        route = ctx.route
        if route is not None and route.screen == "select_contact":
            ctx.replace("chat", peer=peer)  # New Chat: the picker gives way to the chat
            return
        ctx.push("chat", peer=peer)

    def on_chat_menu(self, ctx: Ctx, arg: Any) -> None:
        peer = str(arg)
        record = ctx.find("chats", lambda c: c.get("peer") == peer, "wechat")
        unread = bool(record and record.get("unread"))
        pinned = bool(record and record.get("pinned"))
        options = [
            ("Mark as Read" if unread else "Mark as Unread", "chat_mark"),
            ("Unsticky" if pinned else "Sticky on Top", "chat_pin"),
            ("Delete", "chat_delete_ask"),
        ]
        items = [
            View(
                w.LINEAR,
                clickable=True,
                focusable=True,
                on_click=key,
                arg=peer,
                height=140,
                children=[View(w.TEXT, text=text, rid="android:id/title")],
            )
            for text, key in options
        ]
        ctx.dialog(Dialog(chat_title(ctx, peer), items=items))

    def chat_record(self, ctx: Ctx, peer: str) -> dict[str, Any]:
        """The chat's record, created (at its last message's time) when there is none."""
        record = ctx.find("chats", lambda c: c.get("peer") == peer, "wechat")
        if record is not None:
            return record
        msgs = chat_messages(ctx, peer)
        last = str(msgs[-1].get("sent_at")) if msgs else stamp(ctx.now)
        ctx.add(
            "chats",
            {
                "peer": peer,
                "title": chat_title(ctx, peer),
                "is_group": False,
                "unread": 0,
                "pinned": False,
                "muted": False,
                "last_activity": last,
            },
            "wechat",
        )
        found = ctx.find("chats", lambda c: c.get("peer") == peer, "wechat")
        assert found is not None
        return found

    def on_chat_mark(self, ctx: Ctx, arg: Any) -> None:
        record = self.chat_record(ctx, str(arg))
        ctx.update("chats", record, "wechat", unread=0 if record.get("unread") else 1)

    def on_chat_pin(self, ctx: Ctx, arg: Any) -> None:
        record = self.chat_record(ctx, str(arg))
        ctx.update("chats", record, "wechat", pinned=not record.get("pinned"))

    def on_chat_delete_ask(self, ctx: Ctx, arg: Any) -> None:
        ctx.dialog(
            Dialog(
                "",
                message="Chat history will be deleted after you delete this chat.",
                buttons=[("Delete", "chat_delete", arg), ("Cancel", None, None)],
            )
        )

    def on_chat_delete(self, ctx: Ctx, arg: Any) -> None:
        peer = str(arg)
        for m in [m for m in ctx.records("messages", "wechat") if m.get("chat") == peer]:
            ctx.delete("messages", m, "wechat")
        for c in [c for c in ctx.records("chats", "wechat") if c.get("peer") == peer]:
            ctx.delete("chats", c, "wechat")
        stack = ctx.phone.stacks.get(self.model, [])
        while len(stack) > 1 and stack[-1].arg("peer") == peer:
            ctx.back()

    def screen_chat(self, ctx: Ctx, route: Route) -> Screen:
        peer = str(route.arg("peer"))
        screen = Screen(
            chat_title(ctx, peer),
            activity=CHATTING_UI,
            up=True,
            actions=[icon_button("Chat Info", "chat_info", peer, "chat_info_btn")],
            list_rid=rid("chatting_list"),
        )
        rows: list[View] = []
        last: dt.datetime | None = None
        for m in chat_messages(ctx, peer):
            moment = parse_time(m.get("sent_at"))
            if moment is not None and (last is None or moment - last > TIME_GAP):
                rows.append(label(chat_time(moment, ctx.now), "chatting_time", height=90))
            last = moment or last
            rows.append(self.message_row(ctx, m))
        screen.rows = rows
        typed = ctx.form("msg")
        if ctx.form("panel") and not typed:
            cells = [
                View(
                    w.LINEAR,
                    rid=rid("panel_item"),
                    clickable=True,
                    focusable=True,
                    on_click=key,
                    arg=peer,
                    children=[
                        View(w.IMAGE, rid=rid("panel_icon"), height=110),
                        View(w.TEXT, text=text, rid=rid("panel_title"), height=60),
                    ],
                )
                for text, key in PANEL
            ]
            screen.footer = [
                View(w.LINEAR, rid=rid("panel_row"), horizontal=True, children=cells[i : i + 4])
                for i in range(0, len(cells), 4)
            ]
        composer = [
            icon_button("Switch to Voice", None, name="voice_btn"),
            View(w.EDIT, rid=rid("chatting_input"), edit="msg", arg=peer, weight=3.0),
            icon_button("Sticker", None, name="emoji_btn"),
        ]
        if typed.strip():
            send = button("Send", "send_text", peer, "send_btn")
            send.weight = 1.2
            composer.append(send)
        else:
            composer.append(icon_button("More function buttons", "toggle_panel", peer, "plus_btn"))
        screen.tabs = composer
        return screen

    def message_row(self, ctx: Ctx, m: dict[str, Any]) -> View:
        kind = str(m.get("kind") or "text")
        body = str(m.get("body") or "")
        outgoing = bool(m.get("outgoing"))
        bubble: View
        if kind == "text":
            bubble = View(w.TEXT, text=body, rid=rid("chatting_content"), height=130)
        elif kind == "transfer":
            note = body or ("Transfer" if outgoing else "Transfer to you")
            kids = [
                View(w.TEXT, text=money(m.get("amount")), rid=rid("transfer_amount")),
                View(w.TEXT, text=note, rid=rid("transfer_note"), height=70),
            ]
            if outgoing:
                sent = ctx.find(
                    "transfers",
                    lambda t: (
                        (t.get("to"), t.get("amount"), t.get("sent_at"))
                        == (m.get("chat"), m.get("amount"), m.get("sent_at"))
                    ),
                    "wechat",
                )
                if sent is not None:
                    state = TRANSFER_STATES.get(str(sent.get("status")), "")
                    kids.append(View(w.TEXT, text=state, rid=rid("transfer_status"), height=60))
            kids.append(View(w.TEXT, text="Weixin Transfer", rid=rid("transfer_source"), height=50))
            bubble = View(w.LINEAR, rid=rid("chatting_transfer"), height=260, children=kids)
        elif kind == "red_packet":
            bubble = View(
                w.LINEAR,
                rid=rid("chatting_red_packet"),
                height=220,
                children=[
                    View(w.TEXT, text=body or "Best wishes", rid=rid("red_packet_wishes")),
                    View(w.TEXT, text="Red Packet", rid=rid("red_packet_source"), height=60),
                ],
            )
        elif kind == "file":
            bubble = View(
                w.LINEAR,
                rid=rid("chatting_file"),
                height=200,
                children=[
                    View(w.TEXT, text=body, rid=rid("file_name")),
                    View(w.TEXT, text="File", rid=rid("file_source"), height=60),
                ],
            )
        elif kind == "link" and body.casefold() in hosted_apps(ctx):
            bubble = View(
                w.LINEAR,
                rid=rid("chatting_appbrand"),
                clickable=True,
                focusable=True,
                on_click="open_mini",
                arg=body,
                height=240,
                children=[
                    View(w.TEXT, text=body, rid=rid("appbrand_name")),
                    View(w.TEXT, text="Mini Program", rid=rid("appbrand_source"), height=60),
                ],
            )
        elif kind == "image":
            bubble = View(w.IMAGE, desc="Image", rid=rid("chatting_image"), height=300)
        else:
            bubble = View(w.TEXT, text=snippet(m), rid=rid("chatting_content"), height=130)
        if bubble.on_click is None:  # a long press opens the message's menu
            bubble.clickable = bubble.long_clickable = True
            bubble.on_long, bubble.arg = "message_menu", m
        avatar = View(w.IMAGE, rid=rid("chatting_avatar"), desc="Profile Photo", weight=0.15)
        bubble.weight = 0.85
        kids = [bubble, avatar] if outgoing else [avatar, bubble]
        return View(
            w.LINEAR,
            rid=rid("chatting_item_send" if outgoing else "chatting_item_receive"),
            horizontal=True,
            height=w.natural_height(bubble) + 20,
            children=kids,
        )

    def on_message_menu(self, ctx: Ctx, arg: Any) -> None:
        items = [
            View(
                w.LINEAR,
                clickable=True,
                focusable=True,
                on_click=key,
                arg=arg,
                height=140,
                children=[View(w.TEXT, text=text, rid="android:id/title")],
            )
            for text, key in (("Copy", "message_copy"), ("Delete", "message_delete"))
        ]
        ctx.dialog(Dialog("", items=items))

    def on_message_copy(self, ctx: Ctx, arg: Any) -> None:
        ctx.toast("Copied")

    def on_message_delete(self, ctx: Ctx, arg: Any) -> None:
        if isinstance(arg, dict) and any(m is arg for m in ctx.records("messages")):
            ctx.delete("messages", arg)

    def on_toggle_panel(self, ctx: Ctx, arg: Any) -> None:
        ctx.hide_keyboard()
        ctx.set_form("panel", "" if ctx.form("panel") else "1")

    def on_send_text(self, ctx: Ctx, arg: Any) -> None:
        text = ctx.form("msg")
        if not text.strip():
            return
        post(ctx, str(arg), "text", text)
        ctx.set_form("msg", "")

    def on_chat_info(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("chat_info", peer=str(arg))

    def screen_chat_info(self, ctx: Ctx, route: Route) -> Screen:
        peer = str(route.arg("peer"))
        record = ctx.find("chats", lambda c: c.get("peer") == peer, "wechat")
        screen = Screen("Chat Info", activity=CHAT_INFO_UI, up=True, list_rid=rid("chat_info_list"))
        friend = friends_by_id(ctx).get(peer)
        rows = [label(chat_title(ctx, peer), "chat_info_name", height=160)]
        if friend is not None:
            rows[0].clickable = rows[0].focusable = True
            rows[0].on_click, rows[0].arg = "open_profile", peer
        rows += [
            switch_row(
                "Mute Notifications", bool(record and record.get("muted")), "chat_mute", peer
            ),
            switch_row("Sticky on Top", bool(record and record.get("pinned")), "chat_pin", peer),
            row("Clear Chat History", "chat_clear_ask", peer),
        ]
        screen.rows = rows
        return screen

    def on_chat_mute(self, ctx: Ctx, arg: Any) -> None:
        record = self.chat_record(ctx, str(arg))
        ctx.update("chats", record, "wechat", muted=not record.get("muted"))

    def on_chat_clear_ask(self, ctx: Ctx, arg: Any) -> None:
        ctx.dialog(
            Dialog(
                "",
                message=f"Clear chat history with {chat_title(ctx, str(arg))}?",
                buttons=[("Clear", "chat_clear", arg), ("Cancel", None, None)],
            )
        )

    def on_chat_clear(self, ctx: Ctx, arg: Any) -> None:
        for m in [m for m in ctx.records("messages") if m.get("chat") == arg]:
            ctx.delete("messages", m)

    # ============================================================== the "+" panel
    def on_panel_transfer(self, ctx: Ctx, arg: Any) -> None:
        ctx.set_form("panel", "")
        ctx.push("transfer", peer=str(arg))

    def on_panel_file(self, ctx: Ctx, arg: Any) -> None:
        ctx.set_form("panel", "")
        ctx.push("pick_file", peer=str(arg))

    def on_panel_location(self, ctx: Ctx, arg: Any) -> None:
        ctx.set_form("panel", "")
        ctx.push("location", peer=str(arg))

    def screen_pick_file(self, ctx: Ctx, route: Route) -> Screen:
        """Phone storage files (the Files app's documents), tap to select, then "Send"."""
        peer = str(route.arg("peer"))
        chosen = set(ctx.form("picked").split("\n")) - {""}
        files = []
        if "files" in ctx.phone.state:
            files = [d for d in ctx.records("documents", "files") if not d.get("in_trash")]
        files.sort(key=lambda d: str(d.get("modified") or ""), reverse=True)
        screen = Screen(
            "Phone Storage",
            activity=FILE_SELECTOR_UI,
            up=True,
            list_rid=rid("file_list"),
        )
        screen.rows = [
            View(
                w.LINEAR,
                rid=rid("file_item"),
                clickable=True,
                focusable=True,
                on_click="pick_toggle",
                arg=str(d.get("path")),
                horizontal=True,
                height=170,
                children=[
                    View(
                        w.LINEAR,
                        weight=0.8,
                        children=[
                            View(w.TEXT, text=str(d.get("name") or ""), rid=rid("file_name")),
                            View(
                                w.TEXT,
                                text=file_size(d.get("size")),
                                rid=rid("file_size"),
                                height=60,
                            ),
                        ],
                    ),
                    View(
                        w.CHECKBOX,
                        rid=rid("file_check"),
                        checkable=True,
                        checked=str(d.get("path")) in chosen,
                        clickable=True,
                        on_click="pick_toggle",
                        arg=str(d.get("path")),
                        weight=0.2,
                    ),
                ],
            )
            for d in files
        ] or [label("No files", "empty_tip", height=300)]
        count = len(chosen)
        screen.footer = [
            button(f"Send({count})" if count else "Send", "pick_send", peer, "send_btn", count > 0)
        ]
        return screen

    def on_pick_toggle(self, ctx: Ctx, arg: Any) -> None:
        chosen = [p for p in ctx.form("picked").split("\n") if p]
        chosen = [p for p in chosen if p != arg] if arg in chosen else [*chosen, str(arg)]
        ctx.set_form("picked", "\n".join(chosen))

    def on_pick_send(self, ctx: Ctx, arg: Any) -> None:
        chosen = [p for p in ctx.form("picked").split("\n") if p]
        docs = {str(d.get("path")): d for d in ctx.records("documents", "files")}
        for path in chosen:
            doc = docs.get(path)
            if doc is not None:
                kind = "image" if doc.get("kind") == "image" else "file"
                post(ctx, str(arg), kind, str(doc.get("name") or ""))
        ctx.back()

    def screen_location(self, ctx: Ctx, route: Route) -> Screen:
        peer = str(route.arg("peer"))
        place = ctx.form("place").strip()
        chosen = ctx.form("chosen") or "Current Location"
        screen = Screen(
            "Location",
            activity=LOCATION_UI,
            up=True,
            header=[
                View(
                    w.EDIT,
                    rid=rid("location_search"),
                    edit="place",
                    hint="Search for places",
                    height=130,
                )
            ],
            actions=[button("Send", "location_send", peer, "send_btn")],
            list_rid=rid("poi_list"),
        )
        places = ["Current Location"] + ([place] if place else [])
        screen.rows = [
            View(
                w.LINEAR,
                rid=rid("poi_item"),
                clickable=True,
                focusable=True,
                selected=p == chosen,
                on_click="location_choose",
                arg=p,
                height=150,
                children=[View(w.TEXT, text=p, rid=rid("poi_name"))],
            )
            for p in places
        ]
        return screen

    def on_location_choose(self, ctx: Ctx, arg: Any) -> None:
        ctx.set_form("chosen", str(arg))

    def on_location_send(self, ctx: Ctx, arg: Any) -> None:
        place = ctx.form("chosen") or "Current Location"
        if place != "Current Location" and place != ctx.form("place").strip():
            place = "Current Location"
        post(ctx, str(arg), "location", place)
        ctx.back()

    # ============================================================== transfers
    def screen_transfer(self, ctx: Ctx, route: Route) -> Screen:
        peer = str(route.arg("peer"))
        friend = friends_by_id(ctx).get(peer)
        typed = ctx.form("amount")
        amount = parse_amount(typed)
        valid = amount is not None and 0 < amount <= MAX_TRANSFER
        note = ctx.form("note")
        screen = Screen("", activity=REMITTANCE_UI, up=True, list_rid=rid("remittance_list"))
        rows = [label(f"Transfer to {chat_title(ctx, peer)}", "remittance_name", height=130)]
        if friend is not None and friend.get("remark"):
            rows.append(label(f"Name: {friend.get('nickname') or ''}", "remittance_nickname", 90))
        rows.append(label("Transfer Amount", "remittance_amount_title", height=100))
        rows.append(
            View(
                w.LINEAR,
                horizontal=True,
                height=170,
                children=[
                    View(w.TEXT, text="$", rid=rid("money_unit"), weight=0.1),
                    View(w.EDIT, rid=rid("remittance_amount"), edit="amount", weight=0.9),
                ],
            )
        )
        if typed.strip() and not valid:
            rows.append(label("Invalid amount", "amount_tip", height=90))
        if note:
            rows.append(
                View(
                    w.LINEAR,
                    horizontal=True,
                    height=110,
                    children=[
                        View(w.TEXT, text=note, rid=rid("remittance_desc"), weight=0.75),
                        View(
                            w.TEXT,
                            text="Change",
                            rid=rid("remittance_desc_change"),
                            clickable=True,
                            focusable=True,
                            on_click="add_note",
                            weight=0.25,
                        ),
                    ],
                )
            )
        else:
            rows.append(
                View(
                    w.TEXT,
                    text="Add Note",
                    rid=rid("remittance_add_desc"),
                    clickable=True,
                    focusable=True,
                    on_click="add_note",
                    height=110,
                )
            )
        screen.rows = rows
        screen.footer = [button("Transfer", "transfer_go", peer, "remittance_btn", valid)]
        return screen

    def on_add_note(self, ctx: Ctx, arg: Any) -> None:
        ctx.set_form("note_draft", ctx.form("note"))
        ctx.dialog(
            Dialog(
                "Add Note",
                items=[
                    View(
                        w.EDIT,
                        rid=rid("remittance_desc_input"),
                        edit="note_draft",
                        hint="Add Note",
                        height=150,
                    )
                ],
                buttons=[("OK", "note_ok", None), ("Cancel", None, None)],
            )
        )

    def on_note_ok(self, ctx: Ctx, arg: Any) -> None:
        ctx.set_form("note", ctx.form("note_draft").strip())
        ctx.hide_keyboard()

    def on_transfer_go(self, ctx: Ctx, arg: Any) -> None:
        amount = parse_amount(ctx.form("amount"))
        if amount is None or not 0 < amount <= MAX_TRANSFER:
            return
        ctx.hide_keyboard()
        ctx.push("pay", peer=str(arg), amount=amount, note=ctx.form("note"))

    def screen_pay(self, ctx: Ctx, route: Route) -> Screen:
        peer = str(route.arg("peer"))
        return self.pay_sheet(
            ctx, f"Transfer to {chat_title(ctx, peer)}", int(route.arg("amount")), "transfer_pay"
        )

    def on_transfer_pay(self, ctx: Ctx, arg: Any) -> None:
        route = ctx.route
        assert route is not None and route.screen == "pay"
        peer, amount = str(route.arg("peer")), int(route.arg("amount"))
        note = str(route.arg("note") or "")
        if not self.charge(ctx, amount):
            return
        ctx.add(
            "transfers",
            {
                "to": peer,
                "amount": amount,
                "note": note,
                "sent_at": stamp(ctx.now),
                "status": "pending",
            },
        )
        post(ctx, peer, "transfer", note, amount)
        ctx.back()  # the sheet
        ctx.replace("transfer_done", peer=peer, amount=amount)

    def screen_transfer_done(self, ctx: Ctx, route: Route) -> Screen:
        peer = str(route.arg("peer"))
        screen = Screen(None, activity=REMITTANCE_RESULT_UI, list_rid=rid("remittance_result"))
        screen.rows = [
            View(w.IMAGE, desc="Success", rid=rid("result_icon"), height=200),
            label(f"Pending receipt by {chat_title(ctx, peer)}", "result_title", height=130),
            label(money(route.arg("amount")), "result_amount", height=180),
        ]
        screen.footer = [button("Done", "transfer_finish", None, "result_done")]
        return screen

    def on_transfer_finish(self, ctx: Ctx, arg: Any) -> None:
        ctx.back()

    # ============================================================== contacts
    def on_open_profile(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("profile", wxid=str(arg))

    def screen_profile(self, ctx: Ctx, route: Route) -> Screen:
        wxid = str(route.arg("wxid"))
        friend = friends_by_id(ctx).get(wxid)
        screen = Screen(
            "",
            activity=CONTACT_INFO_UI,
            up=True,
            actions=[icon_button("More", "profile_menu", wxid, "profile_more")],
            list_rid=rid("contact_info_list"),
        )
        if friend is None:
            screen.rows = [label("This contact no longer exists.", "empty_tip", height=300)]
            screen.actions = []
            return screen
        rows = [label(display_name(friend), "contact_info_name", height=140)]
        if friend.get("starred"):
            rows.append(View(w.IMAGE, desc="Starred", rid=rid("star_icon"), height=60))
        if friend.get("remark"):
            rows.append(label(f"Name: {friend.get('nickname') or ''}", "contact_info_nickname", 90))
        rows.append(label(f"WeChat ID: {wxid}", "contact_info_wxid", height=90))
        if friend.get("region"):
            rows.append(label(f"Region: {friend['region']}", "contact_info_region", height=90))
        rows.append(row("Set Remark and Tag", "edit_remark", wxid))
        if friend.get("phone"):
            rows.append(
                row("Mobile", None, value=str(friend["phone"]), value_rid=rid("contact_phone"))
            )
        if friend.get("tags"):
            rows.append(row("Tags", None, value=", ".join(str(t) for t in friend["tags"])))
        rows.append(row("Moments", None))
        rows.append(button("Messages", "profile_message", wxid, "send_msg_btn"))
        rows.append(button("Voice or Video Call", None, None, "voip_btn"))
        screen.rows = rows
        return screen

    def on_profile_message(self, ctx: Ctx, arg: Any) -> None:
        stack = ctx.phone.stacks.get(self.model, [])
        if any(r.screen == "chat" and r.arg("peer") == arg for r in stack):
            while stack[-1].screen != "chat" or stack[-1].arg("peer") != arg:
                ctx.back()  # the chat is open under this profile (Chat Info > profile)
            return
        ctx.push("chat", peer=str(arg))

    def on_profile_menu(self, ctx: Ctx, arg: Any) -> None:
        friend = friends_by_id(ctx).get(str(arg))
        if friend is None:
            return
        options = (
            ("Set Remark and Tag", "edit_remark"),
            ("Remove from Starred" if friend.get("starred") else "Add to Starred", "star"),
            ("Delete", "friend_delete_ask"),
        )
        items = [
            View(
                w.LINEAR,
                clickable=True,
                focusable=True,
                on_click=key,
                arg=arg,
                height=140,
                children=[View(w.TEXT, text=text, rid="android:id/title")],
            )
            for text, key in options
        ]
        ctx.dialog(Dialog("", items=items))

    def on_star(self, ctx: Ctx, arg: Any) -> None:
        friend = friends_by_id(ctx).get(str(arg))
        if friend is not None:
            ctx.update("friends", friend, starred=not friend.get("starred"))

    def on_friend_delete_ask(self, ctx: Ctx, arg: Any) -> None:
        friend = friends_by_id(ctx).get(str(arg))
        if friend is None:
            return
        ctx.dialog(
            Dialog(
                "Delete Contact",
                message=f'Delete contact "{display_name(friend)}"? The chat history with '
                "this contact will also be deleted.",
                buttons=[("Delete", "friend_delete", arg), ("Cancel", None, None)],
            )
        )

    def on_friend_delete(self, ctx: Ctx, arg: Any) -> None:
        friend = friends_by_id(ctx).get(str(arg))
        if friend is None:
            return
        ctx.delete("friends", friend)
        self.on_chat_delete(ctx, arg)
        stack = ctx.phone.stacks.get(self.model, [])
        while len(stack) > 1 and stack[-1].arg("wxid") == arg:
            ctx.back()

    def on_edit_remark(self, ctx: Ctx, arg: Any) -> None:
        friend = friends_by_id(ctx).get(str(arg))
        if friend is None:
            return
        route = ctx.push("remark", wxid=str(arg))
        ctx.set_form("remark", str(friend.get("remark") or ""), route)
        ctx.set_form("phone", str(friend.get("phone") or ""), route)

    def screen_remark(self, ctx: Ctx, route: Route) -> Screen:
        wxid = str(route.arg("wxid"))
        friend = friends_by_id(ctx).get(wxid) or {}
        screen = Screen(
            "Set Remark and Tag",
            activity=REMARK_UI,
            up=True,
            actions=[button("Done", "remark_save", wxid, "remark_done")],
            list_rid=rid("remark_list"),
        )
        screen.rows = [
            label("Remark", "remark_title", height=90),
            View(
                w.EDIT,
                rid=rid("remark_input"),
                edit="remark",
                hint=str(friend.get("nickname") or "Add remark"),
                height=140,
            ),
            label("Mobile", "phone_title", height=90),
            View(w.EDIT, rid=rid("phone_input"), edit="phone", hint="Add phone", height=140),
        ]
        return screen

    def on_remark_save(self, ctx: Ctx, arg: Any) -> None:
        friend = friends_by_id(ctx).get(str(arg))
        if friend is not None:
            remark = ctx.form("remark").strip() or None
            phone = ctx.form("phone").strip() or None
            if remark != friend.get("remark") or phone != friend.get("phone"):
                ctx.update("friends", friend, remark=remark, phone=phone)
        ctx.hide_keyboard()
        ctx.back()

    def screen_select_contact(self, ctx: Ctx, route: Route) -> Screen:
        """Pick one friend: a new chat, or the chat a share goes to."""
        sharing = route.arg("purpose") == "share"
        friends = sorted(ctx.records("friends", "wechat"), key=lambda f: display_name(f).casefold())
        screen = Screen(
            "Select Contacts",
            activity=SELECT_CONTACT_UI,
            up=True,
            header=[View(w.EDIT, rid=rid("search_input"), edit="query", hint="Search", height=130)],
            list_rid=rid("select_contact_list"),
        )
        needle = ctx.form("query").strip().casefold()
        if needle:
            friends = [f for f in friends if matches(f, needle)]
        key = "share_pick" if sharing else "open_chat"
        screen.rows = [self.friend_row(f, key) for f in friends] or [
            label("No results", "empty_tip", height=200)
        ]
        return screen

    # ============================================================== search
    def on_open_search(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("search", scope=str(arg or "all"))

    def screen_search(self, ctx: Ctx, route: Route) -> Screen:
        scope = str(route.arg("scope", "all"))
        needle = ctx.form("query").strip().casefold()
        screen = Screen(
            None,
            activity=FTS_UI,
            actions=[
                View(
                    w.EDIT,
                    rid=rid("search_input"),
                    edit="query",
                    hint="Search Mini Programs" if scope == "mini" else "Search",
                    on_enter="search_go",
                    weight=0.8,
                ),
                View(
                    w.TEXT,
                    text="Cancel",
                    rid=rid("cancel_btn"),
                    clickable=True,
                    focusable=True,
                    on_click="search_cancel",
                    weight=0.2,
                ),
            ],
            list_rid=rid("search_result_list"),
        )
        if not needle:
            return screen
        rows: list[View] = []
        if scope == "all":
            friends = [f for f in ctx.records("friends", "wechat") if matches(f, needle)]
            if friends:
                rows.append(section("Contacts"))
                rows += [self.friend_row(f) for f in friends]
            chats = [
                c
                for c in conversations(ctx)
                if c.peer not in {f.get("wxid") for f in friends} and needle in c.title.casefold()
            ]
            if chats:
                rows.append(section("Chats"))
                rows += [self.chat_row(ctx, c) for c in chats]
        minis = [name for name in mini_names(ctx) if needle in name.casefold()]
        if minis:
            rows.append(section("Mini Programs"))
            rows += [self.mini_row(name, "search_mini_item") for name in minis]
        screen.rows = rows or [label("No results", "empty_tip", height=200)]
        return screen

    def on_search_go(self, ctx: Ctx, arg: Any) -> None:
        ctx.hide_keyboard()

    def on_search_cancel(self, ctx: Ctx, arg: Any) -> None:
        ctx.back()

    # ============================================================== mini programs
    def mini_row(self, name: str, row_rid: str = "appbrand_item", desc: str = "") -> View:
        return View(
            w.LINEAR,
            rid=rid(row_rid),
            clickable=True,
            focusable=True,
            on_click="open_mini",
            arg=name,
            horizontal=True,
            height=150,
            children=[
                View(w.IMAGE, rid=rid("appbrand_icon"), weight=0.15),
                View(w.TEXT, text=name, desc=desc, rid=rid("appbrand_name"), weight=0.85),
            ],
        )

    def on_open_mini_programs(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("mini_programs")

    def screen_mini_programs(self, ctx: Ctx, route: Route) -> Screen:
        recent = sorted(
            ctx.records("recent_mini_apps", "wechat"),
            key=lambda r: str(r.get("last_used") or ""),
            reverse=True,
        )
        screen = Screen(
            "Mini Programs",
            activity=APPBRAND_LAUNCHER_UI,
            up=True,
            actions=[icon_button("Search", "open_search", "mini", "search_btn")],
            list_rid=rid("appbrand_list"),
        )
        rows: list[View] = []
        mine = [r for r in recent if r.get("pinned")]
        if mine:
            rows.append(section("My Mini Programs"))
            rows += [self.mini_row(str(r.get("name")), "appbrand_my_item") for r in mine]
        rows.append(section("Recently Used"))
        if recent:
            rows += [self.mini_row(str(r.get("name")), desc="Recently Used") for r in recent]
        else:
            rows.append(label("No recently used Mini Programs", "empty_tip", height=200))
        rows.append(row("Nearby Mini Programs", None))
        screen.rows = rows
        return screen

    def on_open_mini(self, ctx: Ctx, arg: Any) -> None:
        model = hosted_apps(ctx).get(str(arg).casefold())
        if model is None:
            ctx.toast(f"{arg} is unavailable")
            return
        ctx.hide_keyboard()
        used(ctx, ctx.phone.apps[model].label or str(arg))
        ctx.open(model)

    # ============================================================== "Send to Chat"
    def screen_share(self, ctx: Ctx, route: Route) -> Screen:
        """The chooser another app's share (or a mini program's "Share") opens."""
        screen = Screen(
            "Send to Chat",
            activity=SELECT_CONVERSATION_UI,
            up=True,
            header=[View(w.EDIT, rid=rid("search_input"), edit="query", hint="Search", height=130)],
            list_rid=rid("select_conversation_list"),
        )
        needle = ctx.form("query").strip().casefold()
        if needle:
            friends = [f for f in ctx.records("friends", "wechat") if matches(f, needle)]
            chats = [
                c
                for c in conversations(ctx)
                if c.peer not in {f.get("wxid") for f in friends} and needle in c.title.casefold()
            ]
            rows: list[View] = []
            if friends:
                rows.append(section("Contacts"))
                rows += [self.friend_row(f, "share_pick") for f in friends]
            if chats:
                rows.append(section("Chats"))
                rows += [self.share_chat_row(c) for c in chats]
            screen.rows = rows or [label("No results", "empty_tip", height=200)]
            return screen
        screen.rows = [
            row("Create New Chat", "share_new_chat", name="create_chat_row"),
            section("Recent Chats"),
            *[self.share_chat_row(c) for c in conversations(ctx)],
        ]
        return screen

    def share_chat_row(self, conv: Conversation) -> View:
        return View(
            w.LINEAR,
            rid=rid("select_conversation_item"),
            clickable=True,
            focusable=True,
            on_click="share_pick",
            arg=conv.peer,
            horizontal=True,
            height=150,
            children=[
                View(w.IMAGE, rid=rid("avatar"), desc="Profile Photo", weight=0.15),
                View(w.TEXT, text=conv.title, rid=rid("chat_title"), weight=0.85),
            ],
        )

    def share_route(self, ctx: Ctx) -> Route | None:
        stack = ctx.phone.stacks.get(self.model, [])
        return next((r for r in reversed(stack) if r.screen == "share"), None)

    def on_share_new_chat(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("select_contact", purpose="share")

    def on_share_pick(self, ctx: Ctx, arg: Any) -> None:
        share = self.share_route(ctx)
        if share is None:
            return
        peer = str(arg)
        names: tuple[Any, ...] = share.arg("names") or (
            (share.arg("name"),) if share.arg("name") else ()
        )
        mini = share.arg("mini")
        if mini:
            what = f"[Mini Program] {mini}"
        elif len(names) == 1:
            what = f"[File] {names[0]}"
        else:
            what = f"[File] {len(names)} files"
        ctx.set_form("leave_msg", "")
        ctx.dialog(
            Dialog(
                "Send to:",
                items=[
                    View(w.TEXT, text=chat_title(ctx, peer), rid=rid("send_to_name"), height=120),
                    View(w.TEXT, text=what, rid=rid("send_to_content"), height=120),
                    View(
                        w.EDIT,
                        rid=rid("send_to_message"),
                        edit="leave_msg",
                        hint="Leave a message",
                        height=130,
                    ),
                ],
                buttons=[("Send", "share_send", peer), ("Cancel", None, None)],
            )
        )

    def on_share_send(self, ctx: Ctx, arg: Any) -> None:
        share = self.share_route(ctx)
        if share is None:
            return
        peer = str(arg)
        note = ctx.form("leave_msg").strip()
        mini = share.arg("mini")
        if mini:
            post(ctx, peer, "link", str(mini))
        else:
            names = share.arg("names") or ((share.arg("name"),) if share.arg("name") else ())
            paths = share.arg("paths") or ((share.arg("path"),) if share.arg("path") else ())
            kinds = {}
            if "files" in ctx.phone.state:
                kinds = {d.get("path"): d.get("kind") for d in ctx.records("documents", "files")}
            for i, name in enumerate(names):
                path = paths[i] if i < len(paths) else None
                kind = kinds.get(path) or (share.arg("kind") if i == 0 else None)
                post(ctx, peer, "image" if kind == "image" else "file", str(name))
        if note:
            post(ctx, peer, "text", note)
        ctx.hide_keyboard()
        stack = ctx.phone.stacks.get(self.model, [])
        while stack and any(r.screen == "share" for r in stack):
            ctx.back()
        model = hosted_apps(ctx).get(str(mini or "").casefold())
        if model is not None:
            ctx.open(model)  # a mini program's share returns to the mini program
        ctx.toast("Sent")

    # ============================================================== Me: services, settings
    def on_open_services(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("services")

    def screen_services(self, ctx: Ctx, route: Route) -> Screen:
        screen = Screen("Services", activity=MALL_UI, up=True, list_rid=rid("mall_list"))
        screen.rows = [
            row("Money", None, name="mall_row"),
            row(
                "Wallet",
                "open_wallet",
                value=money(settings_of(ctx)["wallet_balance"]),
                name="mall_row",
            ),
            section("Financial Services"),
            row("Credit Card Repayment", None, name="mall_row"),
            row("Mobile Top Up", None, name="mall_row"),
        ]
        return screen

    def on_open_wallet(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("wallet")

    def screen_wallet(self, ctx: Ctx, route: Route) -> Screen:
        screen = Screen("Wallet", activity=WALLET_UI, up=True, list_rid=rid("wallet_list"))
        settings = settings_of(ctx)
        screen.rows = [
            View(
                w.LINEAR,
                rid=rid("wallet_balance_row"),
                horizontal=True,
                height=170,
                children=[
                    View(w.TEXT, text="Balance", rid="android:id/title", weight=0.5),
                    View(
                        w.TEXT,
                        text=money(settings["wallet_balance"]),
                        rid=rid("wallet_balance"),
                        weight=0.5,
                    ),
                ],
            ),
            row("Cards", None),
            row("Transactions", "open_transactions"),
            row("Payment Settings", "open_pay_settings"),
        ]
        return screen

    def on_open_transactions(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("transactions")

    def screen_transactions(self, ctx: Ctx, route: Route) -> Screen:
        """The wallet's bill: every transfer, newest first, with whom it went to, the
        amount, the note, when it was sent (to the second) and whether it was received."""
        screen = Screen("Transactions", activity=WALLET_BILL_UI, up=True, list_rid=rid("bill_list"))
        transfers = sorted(
            ctx.records("transfers", "wechat"),
            key=lambda t: str(t.get("sent_at") or ""),
            reverse=True,
        )
        screen.rows = [self.bill_row(ctx, t) for t in transfers] or [
            label("No transactions", "empty_tip", height=200)
        ]
        return screen

    def bill_row(self, ctx: Ctx, t: dict[str, Any]) -> View:
        moment = parse_time(t.get("sent_at"))
        status = TRANSFER_STATES.get(str(t.get("status") or "pending"), "")
        note = str(t.get("note") or "")
        return View(
            w.LINEAR,
            rid=rid("bill_item"),
            height=0,
            children=[
                View(
                    w.LINEAR,
                    horizontal=True,
                    height=100,
                    children=[
                        label(
                            f"Transfer to {chat_title(ctx, str(t.get('to')))}",
                            "bill_title",
                            weight=0.65,
                        ),
                        label(f"-{money(t.get('amount'))}", "bill_amount", weight=0.35),
                    ],
                ),
                View(
                    w.LINEAR,
                    horizontal=True,
                    height=80,
                    children=[
                        label(
                            moment.strftime("%Y-%m-%d %H:%M:%S") if moment else "",
                            "bill_time",
                            weight=0.65,
                        ),
                        label(status, "bill_status", weight=0.35),
                    ],
                ),
                *([label(f"Note: {note}", "bill_note", height=80)] if note else []),
            ],
        )

    def on_open_pay_settings(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("pay_settings")

    def screen_pay_settings(self, ctx: Ctx, route: Route) -> Screen:
        settings = settings_of(ctx)
        screen = Screen(
            "Payment Settings", activity=PAY_SETTINGS_UI, up=True, list_rid=rid("pay_settings_list")
        )
        screen.rows = [
            switch_row(
                "Pay with Fingerprint",
                bool(settings["pay_with_fingerprint"]),
                "toggle_setting",
                "pay_with_fingerprint",
            ),
            row(
                "Default Payment Method",
                "choose_setting",
                "payment_method",
                value=label_of(METHODS, settings["payment_method"]),
            ),
        ]
        return screen

    def on_open_settings(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("settings")

    def screen_settings(self, ctx: Ctx, route: Route) -> Screen:
        screen = Screen("Settings", activity=SETTINGS_UI, up=True, list_rid=rid("settings_list"))
        screen.rows = [
            row("Account Security", None),
            row("Message Notifications", "open_settings_page", "notifications"),
            row("Chats", None),
            row("General", "open_settings_page", "general"),
            row("Privacy", None),
            row("About WeChat", None),
        ]
        return screen

    def on_open_settings_page(self, ctx: Ctx, arg: Any) -> None:
        ctx.push(f"settings_{arg}")

    def screen_settings_notifications(self, ctx: Ctx, route: Route) -> Screen:
        on = bool(settings_of(ctx)["new_message_notifications"])
        screen = Screen(
            "Message Notifications",
            activity=NOTIFY_SETTINGS_UI,
            up=True,
            list_rid=rid("settings_list"),
        )
        screen.rows = [
            switch_row("New Message Alert", on, "toggle_setting", "new_message_notifications")
        ]
        return screen

    def screen_settings_general(self, ctx: Ctx, route: Route) -> Screen:
        settings = settings_of(ctx)
        screen = Screen(
            "General", activity=GENERAL_SETTINGS_UI, up=True, list_rid=rid("settings_list")
        )
        screen.rows = [
            row(
                "Dark Mode",
                "choose_setting",
                "dark_mode",
                value=label_of(DARK_MODES, settings["dark_mode"]),
            ),
            row(
                "Language",
                "choose_setting",
                "language",
                value=label_of(LANGUAGES, settings["language"]),
            ),
            row(
                "Font Size",
                "choose_setting",
                "font_size",
                value=label_of(FONT_SIZES, settings["font_size"]),
            ),
        ]
        return screen

    def on_toggle_setting(self, ctx: Ctx, arg: Any) -> None:
        ctx.set(str(arg), not settings_of(ctx)[str(arg)])

    def on_choose_setting(self, ctx: Ctx, arg: Any) -> None:
        name = str(arg)
        options, title = {
            "dark_mode": (DARK_MODES, "Dark Mode"),
            "language": (LANGUAGES, "Language"),
            "font_size": (FONT_SIZES, "Font Size"),
            "payment_method": (METHODS, "Default Payment Method"),
        }[name]
        items = choice_dialog(title, options, settings_of(ctx)[name], "set_setting")
        for item in items.items:
            item.arg = (name, item.arg)
        ctx.dialog(items)

    def on_set_setting(self, ctx: Ctx, arg: Any) -> None:
        name, value = arg
        if settings_of(ctx)[name] != value:
            ctx.set(name, value)


def matches(friend: dict[str, Any], needle: str) -> bool:
    return any(
        needle in str(friend.get(k) or "").casefold() for k in ("remark", "nickname", "wxid")
    )


def mini_names(ctx: Ctx) -> list[str]:
    """The mini programs a search can find: the ones WeChat hosts and the recently used."""
    names = {app.label: None for app in ctx.phone.apps.values() if app.host == "wechat"}
    for r in ctx.records("recent_mini_apps", "wechat"):
        names.setdefault(str(r.get("name")), None)
    return sorted(names, key=str.casefold)


APP = WeChatApp
