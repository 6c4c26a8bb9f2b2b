"""AOSP Settings (``com.android.settings``) as on a Pixel running Android 13/14.

Pages and what they change (model ``settings``):

- the homepage (``com.android.settings.Settings``): the search bar and the top-level list
  (Network & internet, Connected devices, Apps, Notifications, Battery, ..., System, About
  phone) with the Pixel summaries; pages the model does not cover open read-only pages.
- Network & internet: Internet, SIMs (Mobile data), Airplane mode, Data Saver.
  The Internet page (``Settings$NetworkProviderSettingsActivity``) has the "Wi-Fi" switch row
  (``android:id/switch_widget``) and, while Wi-Fi is on, the networks (``android:id/title`` =
  ssid, ``android:id/summary`` = "Connected" / "Saved" / "Secured", nothing for an open
  network), "Add network" and "Saved networks". Tapping a saved network connects to it, an open
  one connects (and saves it), a secured one that is not saved asks for its password in a
  dialog (any password of 8 characters or more, 5 for WEP, is accepted: the model keeps none);
  the connected network opens its details page (Forget / Disconnect / Share), as do the rows of
  Saved networks. Turning Wi-Fi off disconnects; turning it on reconnects to the saved network
  with the best signal, as a real phone does. Airplane mode turns Wi-Fi and Bluetooth off (and
  does not turn them back on when it is turned off: the model does not remember what was on).
- Connected devices: currently connected and saved Bluetooth devices (while Bluetooth is on:
  with it off, none is listed, as on a real phone), Pair new device and See all (opening
  either turns Bluetooth on, as on a real phone; a pairing dialog "Pair with X?"), device
  details (Connect / Disconnect / Forget), Connection preferences > Bluetooth ("Use
  Bluetooth").
- Apps > See all apps > app info > Notifications, and Notifications > App notifications: the
  apps of ``app_notifications`` (``com.android.settings:id/app_name``) with their switches; an
  app's page has "All <app> notifications" and one switch per channel (the channels shown are
  the common channel names plus any other allowed one). Notification history has its switch.
- Display: Brightness level (a page with a SeekBar), Adaptive brightness, Screen timeout (a
  dialog of radio options 15 seconds..30 minutes), Dark theme, Font size (Small / Default /
  Large / Largest), Auto-rotate screen.
- Sound & vibration: Media, Ring & notification, Alarm volume SeekBars, Do Not Disturb (a page
  with "Turn on now" / "Turn off now"), Vibrate for calls.
- Battery > Battery Saver ("Use Battery Saver"); Location ("Use location").
- System > Languages & input > Languages (the system language, changed through "Add a
  language" and a confirmation), System > Date & time (time zone automatically, 24-hour format).
- Search settings: typing a word lists the matching settings; a result opens its page.

SeekBars: the phone passes no tap position, so every SeekBar row carries "-" / "+"
ImageButtons with content-desc "Decrease <name>" / "Increase <name>" (what a SeekBar's
accessibility scroll actions do: one step for volumes, 5% for brightness, snapping to a
multiple of 5), and a tap on the SeekBar itself (a tap at its centre) moves it to the middle of
its range. The Font size page has the real "Make smaller" / "Make larger" buttons. A SeekBar's
text is its value ("60%", "8 of 15"), standing in for the state description a screen reader
reads. Page-wide "Use ..." switches are ``com.android.settings:id/switch_widget`` (the
Settings switch bar); switches in preference rows are ``android:id/switch_widget``. Labels are
English whatever the language setting, and "Wi-Fi" is written with a plain hyphen.
"""

from __future__ import annotations

import datetime as dt
import functools
import zoneinfo
from typing import Any

from tasklang.envs.phoneworld import widgets as w
from tasklang.envs.phoneworld.app import App, Ctx, Dialog, Route, Screen
from tasklang.envs.phoneworld.apps.common import button, choice_dialog, image_button, radio, switch
from tasklang.envs.phoneworld.widgets import View

PKG = "com.android.settings"
MAIN = f"{PKG}.Settings"
SUB = f"{PKG}.SubSettings"
CARRIER = "T-Mobile"
DEVICE = "Pixel 7"
MAIN_SWITCH = f"{PKG}:id/switch_widget"  # the switch bar of a page ("Use Wi-Fi", ...)
ROW_SWITCH = "android:id/switch_widget"  # the switch of a preference row


def _act(name: str) -> str:
    return f"{PKG}.Settings${name}"


TIMEOUTS = (15, 30, 60, 120, 300, 600, 1800)
FONT_SIZES = ("small", "default", "large", "largest")
LANGUAGES = {
    "en_US": ("English (United States)", "English (United States)"),
    "en_GB": ("English (United Kingdom)", "English (United Kingdom)"),
    "de_DE": ("Deutsch (Deutschland)", "German (Germany)"),
    "fr_FR": ("Français (France)", "French (France)"),
    "es_ES": ("Español (España)", "Spanish (Spain)"),
    "zh_CN": ("中文 (中国)", "Chinese (China)"),
    "ja_JP": ("日本語 (日本)", "Japanese (Japan)"),
}
SECURITY = {"open": "None", "wep": "WEP", "wpa2": "WPA2-Personal", "wpa3": "WPA3-Personal"}
SIGNAL = ("No wifi.", "Wifi one bar.", "Wifi two bars.", "Wifi three bars.", "Wifi signal full.")
SIGNAL_WORDS = ("Very poor", "Poor", "Fair", "Good", "Excellent")
CHANNELS = ("Messages", "Reminders", "Promotions", "Account alerts", "Updates", "Calls", "Offers")
# name: (low, high, accessibility step, label)
SEEKBARS: dict[str, tuple[int, int, int, str]] = {
    "brightness": (0, 100, 5, "Brightness"),
    "media_volume": (0, 15, 1, "Media volume"),
    "ring_volume": (0, 7, 1, "Ring & notification volume"),
    "alarm_volume": (0, 7, 1, "Alarm volume"),
}
# settings a plain switch row or switch bar toggles with no other effect
PLAIN_SWITCHES = frozenset(
    {
        "mobile_data",
        "data_saver",
        "location",
        "adaptive_brightness",
        "dark_theme",
        "auto_rotate",
        "vibrate_for_calls",
        "battery_saver",
        "notification_history",
        "time_format_24h",
        "auto_time_zone",
        "do_not_disturb",
    }
)

HOME: tuple[tuple[str, str, str], ...] = (
    ("Network & internet", "Mobile, Wi-Fi, hotspot", "network"),
    ("Connected devices", "Bluetooth, pairing", "connected"),
    ("Apps", "Assistant, recent apps, default apps", "apps"),
    ("Notifications", "Notification history, conversations", "notifications"),
    ("Battery", "100%", "battery"),
    ("Storage", "34% used - 84.21 GB free", "Storage"),
    ("Sound & vibration", "Volume, haptics, Do Not Disturb", "sound"),
    ("Display", "Dark theme, font size, brightness", "display"),
    ("Wallpaper & style", "Colors, themed icons, app grid", "Wallpaper & style"),
    ("Accessibility", "Display, interaction, audio", "Accessibility"),
    ("Security & privacy", "App security, device lock, permissions", "Security & privacy"),
    ("Location", "", "location"),
    ("Safety & emergency", "Emergency SOS, medical info, alerts", "Safety & emergency"),
    ("Passwords & accounts", "Saved passwords, autofill, synced accounts", "Passwords & accounts"),
    (
        "Digital Wellbeing & parental controls",
        "Screen time, app timers, bedtime schedules",
        "Digital Wellbeing & parental controls",
    ),
    ("Google", "Services & preferences", "Google"),
    ("System", "Languages, gestures, time, backup", "system"),
    ("About phone", DEVICE, "About phone"),
    ("Tips & support", "Help articles, phone & chat", "Tips & support"),
)

# Read-only pages: title -> rows (title, summary).
INFO_PAGES: dict[str, tuple[tuple[str, str], ...]] = {
    "Storage": (
        ("This device", "34% used - 84.21 GB free"),
        ("Apps", "18 GB"),
        ("Images", "9.4 GB"),
        ("Videos", "6.1 GB"),
        ("Audio", "1.2 GB"),
        ("Documents & other", "2.3 GB"),
        ("System", "14 GB"),
    ),
    "Wallpaper & style": (("Wallpaper", ""), ("Colors", "Wallpaper colors"), ("Themed icons", "")),
    "Accessibility": (
        ("Display size and text", ""),
        ("Color and motion", ""),
        ("TalkBack", "Off"),
        ("Select to Speak", "Off"),
        ("Live Caption", ""),
    ),
    "Security & privacy": (
        ("App security", "Apps scanned at 8:02 AM"),
        ("Device unlock", "Screen lock, Face & Fingerprint Unlock"),
        ("Privacy", "Permissions, account activity, personal data"),
    ),
    "Safety & emergency": (
        ("Emergency SOS", "Off"),
        ("Medical information", ""),
        ("Emergency contacts", ""),
        ("Crisis alerts", ""),
    ),
    "Passwords & accounts": (
        ("Passwords", "Google Password Manager"),
        ("Autofill service from Google", ""),
        ("Automatically sync app data", "Let apps refresh data automatically"),
    ),
    "Digital Wellbeing & parental controls": (
        ("Dashboard", "Screen time, app timers"),
        ("Bedtime mode", "Off"),
        ("Focus mode", "Off"),
        ("Parental controls", "Add content restrictions and set other limits"),
    ),
    "Google": (
        ("Autofill", ""),
        ("Backup", ""),
        ("Devices & sharing", "Cast options, Nearby Share"),
    ),
    "About phone": (
        ("Device name", DEVICE),
        ("Phone number (sim slot 1)", "(650) 555-1212"),
        ("Model", DEVICE),
        ("Android version", "14"),
        ("Build number", "UQ1A.240205.004"),
    ),
    "Tips & support": (("Getting started", ""), ("Help articles", "")),
    "Hotspot & tethering": (
        ("Wi-Fi hotspot", "Off"),
        ("USB tethering", ""),
        ("Bluetooth tethering", "Not sharing internet"),
    ),
    "VPN": (("No VPNs added", ""),),
    "Private DNS": (("Automatic", "Use Private DNS when available"),),
    "Calls & SMS": (("Calls", CARRIER), ("SMS", CARRIER)),
    "Network preferences": (
        ("Turn on Wi-Fi automatically", "Wi-Fi will turn back on near high-quality saved networks"),
        ("Notify for public networks", "Notify when a high-quality public network is available"),
        ("Install certificates", ""),
    ),
    "Lock screen": (
        ("Privacy", "Show all notification content"),
        ("Always show time and info", "On"),
    ),
    "Screen saver": (("Current screen saver", "Clock"),),
    "Battery usage": (
        ("Screen", "23%"),
        ("Android System", "9%"),
        ("Mobile network standby", "4%"),
    ),
    "Adaptive Battery": (("Use Adaptive Battery", "Extend battery life based on your usage"),),
    "Default apps": (("Browser app", "Chrome"), ("Phone app", "Phone"), ("SMS app", "Messages")),
    "Gestures": (("Quick tap", "Off"), ("Quickly open camera", ""), ("System navigation", "")),
    "Backup": (("Backup by Google One", "Off"),),
    "Reset options": (
        ("Reset Wi-Fi, mobile & Bluetooth", ""),
        ("Reset app preferences", ""),
        ("Erase all data (factory reset)", ""),
    ),
    "Conversations": (("No priority conversations", ""),),
    "Notifications on lock screen": (("Show conversations, default, and silent", ""),),
    "Cast": (("No nearby devices were found.", ""),),
    "Printing": (("Default Print Service", "On"),),
    "On-screen keyboard": (("Gboard", "Multilingual typing"),),
}


# ---------------------------------------------------------------- small views
def _rid(name: str) -> str:
    return f"{PKG}:id/{name}"


def _texts(title: str, summary: str = "", enabled: bool = True) -> View:
    kids = [View(w.TEXT, text=title, rid="android:id/title", enabled=enabled, height=70)]
    if summary:
        kids.append(
            View(w.TEXT, text=summary, rid="android:id/summary", enabled=enabled, height=60)
        )
    return View(w.RELATIVE, children=kids, enabled=enabled, weight=0.8)


def _pref(
    title: str,
    summary: str = "",
    key: str | None = None,
    arg: Any = None,
    enabled: bool = True,
    icon: bool | str = False,
) -> View:
    """A preference row: title and summary; a tap sends ``key`` (None: a read-only row).
    ``icon``: True for an icon, a text for an icon with that content-desc."""
    kids: list[View] = []
    if icon:
        desc = icon if isinstance(icon, str) else ""
        kids.append(View(w.IMAGE, rid="android:id/icon", desc=desc, weight=0.15))
    kids.append(_texts(title, summary, enabled))
    clickable = key is not None and enabled
    return View(
        w.LINEAR,
        horizontal=True,
        clickable=clickable,
        focusable=clickable,
        on_click=key if enabled else None,
        arg=arg,
        enabled=enabled,
        children=kids,
        height=200 if summary else 160,
    )


def _switch_frame(
    checked: bool, key: str, arg: Any, clickable: bool = False, enabled: bool = True
) -> View:
    """The end of a switch row: the frame holding its switch."""
    return View(
        w.LINEAR,
        rid="android:id/widget_frame",
        weight=0.2,
        children=[switch(checked, key, arg, ROW_SWITCH, clickable, enabled)],
    )


def _switch_pref(
    title: str,
    summary: str,
    checked: bool,
    key: str,
    arg: Any,
    enabled: bool = True,
) -> View:
    """A switch row: a tap anywhere on the row toggles it."""
    frame = _switch_frame(checked, key, arg, enabled=enabled)
    return View(
        w.LINEAR,
        horizontal=True,
        clickable=enabled,
        focusable=enabled,
        on_click=key if enabled else None,
        arg=arg,
        enabled=enabled,
        children=[_texts(title, summary, enabled), frame],
        height=200 if summary else 160,
    )


def _primary_switch(
    title: str, summary: str, checked: bool, open_key: str, open_arg: Any, key: str, arg: Any
) -> View:
    """A row whose text opens a page and whose switch (behind a divider) toggles."""
    text = View(
        w.LINEAR,
        clickable=True,
        focusable=True,
        on_click=open_key,
        arg=open_arg,
        children=[_texts(title, summary)],
        weight=0.8,
    )
    frame = _switch_frame(checked, key, arg, clickable=True)
    return View(w.LINEAR, horizontal=True, children=[text, frame], height=200 if summary else 160)


def _main_switch(label: str, checked: bool, key: str, arg: Any) -> View:
    """The switch bar at the top of a page ("Use Wi-Fi")."""
    return View(
        w.LINEAR,
        horizontal=True,
        rid=_rid("main_switch_bar"),
        clickable=True,
        focusable=True,
        on_click=key,
        arg=arg,
        children=[
            View(w.TEXT, text=label, rid=_rid("switch_text"), weight=0.8),
            switch(checked, key, arg, rid=MAIN_SWITCH),
        ],
        height=190,
    )


def _entity_header(title: str, summary: str) -> View:
    """The header of a network's or a device's page."""
    return View(
        w.LINEAR,
        rid=_rid("entity_header"),
        children=[
            View(w.TEXT, text=title, rid=_rid("entity_header_title"), height=110),
            View(w.TEXT, text=summary, rid=_rid("entity_header_summary"), height=80),
        ],
    )


def _category(title: str) -> View:
    return View(w.TEXT, text=title, rid="android:id/title", height=110)


def _footer(text: str) -> View:
    return View(w.TEXT, text=text, rid="android:id/title", height=220)


def _seekbar(name: str, value: int) -> View:
    low, high, _step, label = SEEKBARS[name]
    shown = f"{value}%" if name == "brightness" else f"{value} of {high}"
    what = label.lower()
    return _slider(
        label if name != "brightness" else "",
        View(
            w.SEEKBAR,
            text=shown,
            rid=_rid("seekbar"),
            desc=label,
            focusable=True,
            on_click="seek",
            arg=(name, (low + high + 1) // 2),
            weight=0.7,
        ),
        ("Decrease " + what, "adjust", (name, -1), _rid("decrease")),
        ("Increase " + what, "adjust", (name, 1), _rid("increase")),
    )


def _slider(
    title: str, bar: View, minus: tuple[str, str, Any, str], plus: tuple[str, str, Any, str]
) -> View:
    buttons = (image_button(*minus), bar, image_button(*plus))
    line = View(w.LINEAR, horizontal=True, children=list(buttons), height=130)
    kids = [View(w.TEXT, text=title, rid="android:id/title", height=80)] if title else []
    return View(w.LINEAR, children=[*kids, line])


def _record(ctx: Ctx, collection: str, key: str, value: Any, what: str) -> dict[str, Any]:
    """The record of ``collection`` whose ``key`` is ``value`` (a KeyError when none is)."""
    found = ctx.find(collection, lambda r: r[key] == value)
    if found is None:
        raise KeyError(f"no {what} {value!r}")
    return found


def timeout_label(seconds: int) -> str:
    """'30 seconds', '1 minute', '10 minutes' (the Screen timeout options)."""
    if seconds < 60 or seconds % 60:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    minutes = seconds // 60
    if minutes % 60 == 0:
        hours = minutes // 60
        return f"{hours} hour{'s' if hours != 1 else ''}"
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


def font_label(size: str) -> str:
    return size.capitalize()


def language_name(code: str) -> str:
    return LANGUAGES.get(code, (code, code))[0]


@functools.cache
def _zone(name: str) -> dt.tzinfo | None:
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return None


def zone_summary(tz: str, now: dt.datetime) -> str:
    zone = _zone(tz)
    offset = zone.utcoffset(now) if zone is not None else None
    minutes = int(offset.total_seconds() // 60) if offset is not None else 0
    sign = "+" if minutes >= 0 else "-"
    hours, mins = divmod(abs(minutes), 60)
    return f"GMT{sign}{hours:02d}:{mins:02d} {tz}"


def channels_of(app: dict[str, Any]) -> list[str]:
    allowed = list(app.get("allowed_channels") or [])
    return [*CHANNELS, *(c for c in allowed if c not in CHANNELS)]


def _network_order(n: dict[str, Any]) -> tuple[int, int, int, str]:
    return (not n["connected"], not n["saved"], -int(n.get("signal", 0)), n["ssid"].casefold())


def _network_summary(n: dict[str, Any]) -> str:
    if n["connected"]:
        return "Connected"
    if n["saved"]:
        return "Saved"
    return "" if n["security"] == "open" else "Secured"


# Search: (title, where it is, screen, route arguments)
SEARCH_INDEX: tuple[tuple[str, str, str, tuple[tuple[str, Any], ...]], ...] = (
    ("Internet", "Network & internet", "internet", ()),
    ("Wi-Fi", "Network & internet > Internet", "internet", ()),
    ("Saved networks", "Network & internet > Internet", "saved_networks", ()),
    ("Add network", "Network & internet > Internet", "add_network", ()),
    ("Airplane mode", "Network & internet", "network", ()),
    ("Mobile data", "Network & internet > SIMs", "sim", ()),
    ("Data Saver", "Network & internet", "data_saver", ()),
    ("Bluetooth", "Connected devices > Connection preferences", "bluetooth", ()),
    ("Pair new device", "Connected devices", "pair", ()),
    ("Brightness level", "Display", "brightness", ()),
    ("Adaptive brightness", "Display", "adaptive_brightness", ()),
    ("Screen timeout", "Display", "display", ()),
    ("Dark theme", "Display", "dark_theme", ()),
    ("Font size", "Display", "font_size", ()),
    ("Auto-rotate screen", "Display", "display", ()),
    ("Media volume", "Sound & vibration", "sound", ()),
    ("Ring & notification volume", "Sound & vibration", "sound", ()),
    ("Alarm volume", "Sound & vibration", "sound", ()),
    ("Vibrate for calls", "Sound & vibration", "sound", ()),
    ("Do Not Disturb", "Sound & vibration", "dnd", ()),
    ("Battery Saver", "Battery", "battery_saver", ()),
    ("App notifications", "Notifications", "app_notifications", ()),
    ("Notification history", "Notifications", "notification_history", ()),
    ("Location", "Location", "location", ()),
    ("Languages", "System > Languages & input", "languages", ()),
    ("Date & time", "System", "date_time", ()),
    ("Use 24-hour format", "System > Date & time", "date_time", ()),
    ("Set time zone automatically", "System > Date & time", "date_time", ()),
)


class Settings(App):
    model = "settings"
    package = PKG
    label = "Settings"
    activity = MAIN
    home = "main"

    # ============================================================ screens
    def _page(
        self,
        title: str,
        rows: list[View],
        activity: str | None = SUB,
        header: list[View] | None = None,
    ) -> Screen:
        return Screen(
            title,
            rows,
            activity=activity,
            up=True,
            header=header or [],
            list_rid=_rid("recycler_view"),
        )

    def screen_main(self, ctx: Ctx, route: Route) -> Screen:
        title = View(w.TEXT, text="Settings", rid=_rid("homepage_title"), height=200)
        search = View(
            w.LINEAR,
            horizontal=True,
            rid=_rid("search_action_bar"),
            clickable=True,
            focusable=True,
            on_click="open",
            arg="search",
            children=[
                View(w.IMAGE, desc="Search", weight=0.15),
                View(w.TEXT, text="Search settings", rid=_rid("search_action_bar_title")),
            ],
            height=150,
        )
        rows = []
        for name, summary, target in HOME:
            if target == "location":
                summary = (
                    "On - 5 apps have access to location" if ctx.setting("location") else "Off"
                )
            key, arg = ("open", target) if target[0].islower() else ("info", target)
            rows.append(_pref(name, summary, key, arg, icon=True))
        return Screen(
            None, rows, activity=MAIN, header=[title, search], list_rid=_rid("recycler_view")
        )

    def screen_info(self, ctx: Ctx, route: Route) -> Screen:
        title = str(route.arg("title"))
        rows = [_pref(t, s) for t, s in INFO_PAGES.get(title, ())]
        return self._page(title, rows)

    def screen_search(self, ctx: Ctx, route: Route) -> Screen:
        field = View(
            edit="query",
            hint="Search settings",
            rid=_rid("search_src_text"),
            on_enter="search_enter",
            height=150,
        )
        query = ctx.form("query").strip().casefold()
        rows: list[View] = []
        if query:
            for title, where, screen, args in SEARCH_INDEX:
                if query in title.casefold() or query in where.casefold():
                    rows.append(_pref(title, where, "open", (screen, args)))
            if not rows:
                rows.append(_footer("No results"))
        return Screen(
            None,
            rows,
            activity="com.google.android.settings.intelligence.modules.search.SearchActivity",
            up=True,
            header=[field],
            list_rid=_rid("list_results"),
        )

    # ------------------------------------------------------------ network
    def _internet_summary(self, ctx: Ctx) -> str:
        if ctx.setting("wifi"):
            net = ctx.find("wifi_networks", lambda n: bool(n["connected"]))
            if net is not None:
                return str(net["ssid"])
            if ctx.records("wifi_networks"):
                return "Networks available"
        if ctx.setting("airplane_mode"):
            return "Airplane mode is on"
        return CARRIER if ctx.setting("mobile_data") else "Off"

    def screen_network(self, ctx: Ctx, route: Route) -> Screen:
        rows = [
            _pref("Internet", self._internet_summary(ctx), "open", "internet", icon=True),
            _pref("Calls & SMS", CARRIER, "info", "Calls & SMS", icon=True),
            _pref("SIMs", CARRIER, "open", "sim", icon=True),
            _switch_pref("Airplane mode", "", bool(ctx.setting("airplane_mode")), "airplane", None),
            _pref("Hotspot & tethering", "Off", "info", "Hotspot & tethering"),
            _pref("Data Saver", "On" if ctx.setting("data_saver") else "Off", "open", "data_saver"),
            _pref("VPN", "None", "info", "VPN"),
            _pref("Private DNS", "Automatic", "info", "Private DNS"),
        ]
        return self._page("Network & internet", rows, _act("NetworkDashboardActivity"))

    def screen_internet(self, ctx: Ctx, route: Route) -> Screen:
        wifi = bool(ctx.setting("wifi"))
        airplane = bool(ctx.setting("airplane_mode"))
        rows: list[View] = []
        if airplane:
            rows.append(_switch_pref("Airplane mode", "", True, "airplane", None))
        else:
            mobile = "Mobile data is off" if not ctx.setting("mobile_data") else "Connected"
            if wifi and ctx.find("wifi_networks", lambda n: bool(n["connected"])):
                mobile = "Mobile data won't auto-connect while Wi-Fi is on"
            rows.append(_pref(CARRIER, mobile, "open", "sim", icon=True))
        rows.append(_switch_pref("Wi-Fi", "", wifi, "wifi", None))
        if wifi:
            for n in sorted(ctx.records("wifi_networks"), key=_network_order):
                rows.append(self._network_row(n))
            rows.append(_pref("Add network", "", "open", "add_network", icon=True))
        else:
            rows.append(_footer("To see available networks, turn Wi-Fi on."))
        saved = sum(1 for n in ctx.records("wifi_networks") if n["saved"])
        rows.append(
            _pref(
                "Saved networks",
                f"{saved} network{'s' if saved != 1 else ''}",
                "open",
                "saved_networks",
            )
        )
        rows.append(
            _pref(
                "Network preferences",
                "Wi-Fi turns back on automatically",
                "info",
                "Network preferences",
            )
        )
        return self._page("Internet", rows, _act("NetworkProviderSettingsActivity"))

    def _network_row(self, n: dict[str, Any]) -> View:
        signal = max(0, min(4, int(n.get("signal", 0))))
        kids = [
            View(w.IMAGE, rid="android:id/icon", desc=SIGNAL[signal], weight=0.15),
            _texts(str(n["ssid"]), _network_summary(n)),
        ]
        if n["connected"]:
            details = ("network_details", (("ssid", n["ssid"]),))
            kids.append(image_button("Settings", "open", details, _rid("settings_button")))
        return View(
            w.LINEAR,
            horizontal=True,
            clickable=True,
            focusable=True,
            on_click="tap_network",
            arg=n["ssid"],
            children=kids,
            height=200,
        )

    def screen_network_details(self, ctx: Ctx, route: Route) -> Screen:
        ssid = route.arg("ssid")
        n = ctx.find("wifi_networks", lambda r: r["ssid"] == ssid)
        if n is None:
            return self._page("Network details", [_footer("This network is not available.")])
        wifi = bool(ctx.setting("wifi"))
        status = "Connected" if n["connected"] else ("Saved" if n["saved"] else "Not in range")
        header = _entity_header(str(n["ssid"]), status)
        buttons: list[View] = []
        if n["saved"]:
            buttons.append(button("Forget", "forget_network", ssid, _rid("button1")))
        if n["connected"]:
            buttons.append(button("Disconnect", "disconnect_network", ssid, _rid("button3")))
        elif wifi:
            buttons.append(button("Connect", "connect_network", ssid, _rid("button3")))
        buttons.append(button("Share", "share_network", ssid, _rid("button4")))
        signal = max(0, min(4, int(n.get("signal", 0))))
        rows = [
            header,
            View(w.LINEAR, horizontal=True, children=buttons, height=200),
            _pref("Network usage", "Use device MAC"),
            _pref("Signal strength", SIGNAL_WORDS[signal]),
            _pref("Frequency", "5 GHz" if "5G" in str(n["ssid"]) else "2.4 GHz"),
            _pref("Security", SECURITY.get(str(n["security"]), str(n["security"]))),
        ]
        return self._page("Network details", rows)

    def screen_saved_networks(self, ctx: Ctx, route: Route) -> Screen:
        rows = [
            _pref(
                str(n["ssid"]),
                "Connected" if n["connected"] and ctx.setting("wifi") else "",
                "open",
                ("network_details", (("ssid", n["ssid"]),)),
            )
            for n in sorted(ctx.records("wifi_networks"), key=_network_order)
            if n["saved"]
        ]
        if not rows:
            rows = [_footer("No saved networks")]
        return self._page("Saved networks", rows, _act("SavedAccessPointsSettingsActivity"))

    def screen_add_network(self, ctx: Ctx, route: Route) -> Screen:
        security = ctx.form("security", "wpa2")
        rows = [
            View(w.TEXT, text="Network name", rid=_rid("ssid_label"), height=80),
            View(edit="ssid", hint="Enter the SSID", rid=_rid("ssid"), height=140),
            View(w.TEXT, text="Security", rid=_rid("security_label"), height=80),
            View(
                w.LINEAR,
                horizontal=True,
                children=[
                    radio(SECURITY[s], s == security, "pick_security", s, _rid(f"security_{s}"), 0)
                    for s in SECURITY
                ],
                height=140,
            ),
        ]
        if security != "open":
            rows += [
                View(w.TEXT, text="Password", rid=_rid("password_label"), height=80),
                View(edit="password", hint="", rid=_rid("password"), password=True, height=140),
            ]
        rows.append(
            View(
                w.LINEAR,
                horizontal=True,
                children=[
                    button("Cancel", "cancel_add_network", None, _rid("cancel")),
                    button("Save", "save_network", None, _rid("save")),
                ],
                height=160,
            )
        )
        return self._page("Add network", rows)

    def screen_sim(self, ctx: Ctx, route: Route) -> Screen:
        rows = [
            _switch_pref(
                "Mobile data",
                "Access data using mobile network",
                bool(ctx.setting("mobile_data")),
                "toggle",
                "mobile_data",
            ),
            _pref("Roaming", "Connect to data services when roaming"),
            _pref("App data usage", "0 B used"),
            _pref("Preferred network type", "5G (recommended)"),
        ]
        return self._page(
            CARRIER, rows, "com.android.settings.network.telephony.MobileNetworkActivity"
        )

    def screen_data_saver(self, ctx: Ctx, route: Route) -> Screen:
        on = bool(ctx.setting("data_saver"))
        rows = [
            _main_switch("Use Data Saver", on, "toggle", "data_saver"),
            _pref("Unrestricted data", "0 apps allowed to use unrestricted data"),
        ]
        return self._page("Data Saver", rows, _act("DataSaverSummaryActivity"))

    # ------------------------------------------------------------ Bluetooth
    def _device_row(self, d: dict[str, Any]) -> View:
        details = ("device_details", (("name", d["name"]),))
        settings = image_button("Settings", "open", details, _rid("settings_button"))
        return View(
            w.LINEAR,
            horizontal=True,
            clickable=True,
            focusable=True,
            on_click="tap_device",
            arg=d["name"],
            children=[
                View(w.IMAGE, rid="android:id/icon", desc=str(d.get("kind", "other")), weight=0.15),
                _texts(str(d["name"]), "Connected" if d["connected"] else ""),
                settings,
            ],
            height=200,
        )

    def screen_connected(self, ctx: Ctx, route: Route) -> Screen:
        # As AOSP's: the saved devices are listed only while Bluetooth is on (the adapter
        # reports no bonded device while off), three at most; "See all" is always offered,
        # and while Bluetooth is off it says that opening it turns Bluetooth on.
        on = bool(ctx.setting("bluetooth"))
        devices = ctx.records("bluetooth_devices") if on else []
        connected = [d for d in devices if d["paired"] and d["connected"]]
        saved = [d for d in devices if d["paired"] and not d["connected"]]
        rows: list[View] = []
        if connected:
            rows.append(_category("Currently connected"))
            rows += [self._device_row(d) for d in connected]
        rows.append(_pref("Pair new device", "", "open", "pair", icon=True))
        rows.append(_category("Saved devices"))
        rows += [self._device_row(d) for d in saved[:3]]
        see_all = "" if on else "Bluetooth will turn on"
        rows.append(_pref("See all", see_all, "open", "saved_devices"))
        rows.append(
            _pref("Connection preferences", "Bluetooth, Android Auto, NFC", "open", "connection")
        )
        return self._page("Connected devices", rows, _act("ConnectedDeviceDashboardActivity"))

    def screen_saved_devices(self, ctx: Ctx, route: Route) -> Screen:
        rows = [
            self._device_row(d)
            for d in ctx.records("bluetooth_devices")
            if d["paired"] and not d["connected"]
        ]
        return self._page("Saved devices", rows or [_footer("No saved devices")])

    def screen_connection(self, ctx: Ctx, route: Route) -> Screen:
        rows = [
            _pref("Bluetooth", "On" if ctx.setting("bluetooth") else "Off", "open", "bluetooth"),
            _pref("Cast", "Not connected", "info", "Cast"),
            _pref("Printing", "1 print service on", "info", "Printing"),
            _pref("Android Auto", "Use apps on your car display"),
            _pref("NFC", "Use NFC"),
        ]
        return self._page("Connection preferences", rows, _act("AdvancedConnectedDeviceActivity"))

    def screen_bluetooth(self, ctx: Ctx, route: Route) -> Screen:
        on = bool(ctx.setting("bluetooth"))
        rows = [
            _main_switch("Use Bluetooth", on, "bluetooth", None),
            _pref("Device name", DEVICE),
        ]
        if on:
            rows.append(_pref("Pair new device", "", "open", "pair", icon=True))
            paired = [d for d in ctx.records("bluetooth_devices") if d["paired"]]
            if paired:
                rows.append(_category("Paired devices"))
                rows += [self._device_row(d) for d in paired]
            rows.append(
                _footer(
                    f"Visible as \u201c{DEVICE}\u201d to other devices while Bluetooth "
                    "settings is open."
                )
            )
        else:
            rows.append(
                _footer(
                    "When Bluetooth is turned on, your device can communicate with other "
                    "nearby Bluetooth devices."
                )
            )
        return self._page("Bluetooth", rows, _act("BluetoothSettingsActivity"))

    def screen_pair(self, ctx: Ctx, route: Route) -> Screen:
        rows = [_pref("Device name", DEVICE), _category("Available devices")]
        if ctx.setting("bluetooth"):
            available = [d for d in ctx.records("bluetooth_devices") if not d["paired"]]
            rows += [
                _pref(
                    str(d["name"]),
                    "",
                    "ask_pair",
                    d["name"],
                    icon=str(d.get("kind", "other")),
                )
                for d in available
            ]
        rows.append(
            _footer(
                f"Phone's Bluetooth address: 3C:28:6D:4A:19:B2\n\nVisible as \u201c{DEVICE}\u201d"
            )
        )
        return self._page("Pair new device", rows)

    def screen_device_details(self, ctx: Ctx, route: Route) -> Screen:
        name = route.arg("name")
        d = ctx.find("bluetooth_devices", lambda r: r["name"] == name)
        if d is None or not d["paired"]:
            return self._page("Device details", [_footer("This device is no longer paired.")])
        header = _entity_header(str(d["name"]), "Connected" if d["connected"] else "Disconnected")
        action = (
            ("Disconnect", "disconnect_device") if d["connected"] else ("Connect", "connect_device")
        )
        buttons = View(
            w.LINEAR,
            horizontal=True,
            children=[
                button("Forget", "ask_forget_device", name, _rid("button1")),
                button(action[0], action[1], name, _rid("button2")),
            ],
            height=200,
        )
        rows = [header, buttons, _pref("Device's Bluetooth address: 58:18:62:0A:C4:3E")]
        return self._page("Device details", rows)

    # ------------------------------------------------------------ apps and notifications
    def _apps(self, ctx: Ctx) -> list[dict[str, Any]]:
        return sorted(ctx.records("app_notifications"), key=lambda a: str(a["app_name"]).casefold())

    def screen_apps(self, ctx: Ctx, route: Route) -> Screen:
        n = len(ctx.records("app_notifications"))
        rows = [
            _pref(f"See all {n} apps", "", "open", "all_apps"),
            _pref("Default apps", "Assistant, browser, phone", "info", "Default apps"),
            _pref("Screen time", "0 minutes today"),
            _pref("Unused apps", "0 unused apps"),
            _pref("Special app access", "2 apps can use unrestricted data"),
        ]
        return self._page("Apps", rows, _act("AppDashboardActivity"))

    def screen_all_apps(self, ctx: Ctx, route: Route) -> Screen:
        rows = [
            View(
                w.LINEAR,
                horizontal=True,
                clickable=True,
                focusable=True,
                on_click="open",
                arg=("app_info", (("app", a["app_name"]),)),
                children=[
                    View(w.IMAGE, rid="android:id/icon", weight=0.15),
                    View(w.TEXT, text=str(a["app_name"]), rid=_rid("app_name")),
                ],
                height=180,
            )
            for a in self._apps(ctx)
        ]
        return self._page("All apps", rows, _act("ManageApplicationsActivity"))

    def screen_app_info(self, ctx: Ctx, route: Route) -> Screen:
        name = route.arg("app")
        a = ctx.find("app_notifications", lambda r: r["app_name"] == name)
        if a is None:
            return self._page("App info", [_footer("This app is not installed.")])
        rows = [
            View(w.TEXT, text=str(a["app_name"]), rid=_rid("entity_header_title"), height=120),
            View(w.TEXT, text=str(a["package_name"]), rid=_rid("entity_header_summary"), height=80),
            _pref(
                "Notifications",
                "On" if a["enabled"] else "Off",
                "open",
                ("app_notification", (("app", name),)),
            ),
            _pref("Permissions", "No permissions requested"),
            _pref("Storage & cache", "48 MB used in internal storage"),
            _pref("Mobile data & Wi-Fi", "No data used"),
        ]
        return self._page("App info", rows)

    def screen_notifications(self, ctx: Ctx, route: Route) -> Screen:
        rows = [
            _category("Manage"),
            _pref(
                "App notifications",
                "Control notifications from individual apps",
                "open",
                "app_notifications",
            ),
            _pref(
                "Notification history",
                "Show recent and snoozed notifications",
                "open",
                "notification_history",
            ),
            _category("Conversation"),
            _pref("Conversations", "No priority conversations", "info", "Conversations"),
            _pref("Bubbles", "On / Conversations can appear as floating icons"),
            _category("Privacy"),
            _pref(
                "Notifications on lock screen",
                "Show conversations, default, and silent",
                "info",
                "Notifications on lock screen",
            ),
            _category("General"),
            _pref(
                "Do Not Disturb", "On" if ctx.setting("do_not_disturb") else "Off", "open", "dnd"
            ),
        ]
        return self._page("Notifications", rows, _act("ConfigureNotificationSettingsActivity"))

    def screen_app_notifications(self, ctx: Ctx, route: Route) -> Screen:
        rows: list[View] = []
        for a in self._apps(ctx):
            text = View(
                w.LINEAR,
                clickable=True,
                focusable=True,
                on_click="open",
                arg=("app_notification", (("app", a["app_name"]),)),
                weight=0.8,
                children=[
                    View(w.TEXT, text=str(a["app_name"]), rid=_rid("app_name"), height=70),
                    View(
                        w.TEXT,
                        text="On" if a["enabled"] else "Off",
                        rid="android:id/summary",
                        height=60,
                    ),
                ],
            )
            frame = _switch_frame(bool(a["enabled"]), "toggle_app", a["app_name"], clickable=True)
            rows.append(View(w.LINEAR, horizontal=True, children=[text, frame], height=200))
        if not rows:
            rows.append(_footer("No apps"))
        return self._page("App notifications", rows, _act("NotificationAppListActivity"))

    def screen_app_notification(self, ctx: Ctx, route: Route) -> Screen:
        name = route.arg("app")
        a = ctx.find("app_notifications", lambda r: r["app_name"] == name)
        if a is None:
            return self._page("Notifications", [_footer("This app is not installed.")])
        on = bool(a["enabled"])
        allowed = set(a.get("allowed_channels") or [])
        rows = [
            View(w.TEXT, text=str(a["app_name"]), rid=_rid("entity_header_title"), height=120),
            _main_switch(f"All {a['app_name']} notifications", on, "toggle_app", name),
        ]
        if on:
            rows.append(_category("Categories"))
            rows += [
                _switch_pref(c, "", c in allowed, "toggle_channel", (name, c))
                for c in channels_of(a)
            ]
        else:
            rows.append(
                _footer(
                    "At your request, Android is blocking this app's notifications from "
                    "appearing on this device"
                )
            )
        return self._page("Notifications", rows, _act("AppNotificationSettingsActivity"))

    def screen_notification_history(self, ctx: Ctx, route: Route) -> Screen:
        on = bool(ctx.setting("notification_history"))
        rows = [
            _main_switch("Use notification history", on, "toggle", "notification_history"),
            _footer(
                "Recent and snoozed notifications will appear here"
                if on
                else "Turn on notification history to see recent notifications and snoozed "
                "notifications"
            ),
        ]
        return self._page(
            "Notification history",
            rows,
            "com.android.settings.notification.history.NotificationHistoryActivity",
        )

    # ------------------------------------------------------------ battery, location
    def screen_battery(self, ctx: Ctx, route: Route) -> Screen:
        saver = bool(ctx.setting("battery_saver"))
        rows = [
            View(w.TEXT, text="100%", rid=_rid("battery_percent"), height=160),
            _pref("Battery usage", "View usage for past 24 hours", "info", "Battery usage"),
            _pref("Battery Saver", "On" if saver else "Off", "open", "battery_saver"),
            _pref("Adaptive Battery", "On", "info", "Adaptive Battery"),
        ]
        return self._page("Battery", rows, _act("PowerUsageSummaryActivity"))

    def screen_battery_saver(self, ctx: Ctx, route: Route) -> Screen:
        on = bool(ctx.setting("battery_saver"))
        rows = [
            _main_switch("Use Battery Saver", on, "toggle", "battery_saver"),
            _pref("Set a schedule", "No schedule"),
            _footer(
                "Battery Saver turns on Dark theme and limits or turns off background "
                "activity, some visual effects, certain features, and some network connections."
            ),
        ]
        return self._page("Battery Saver", rows, _act("BatterySaverSettingsActivity"))

    def screen_location(self, ctx: Ctx, route: Route) -> Screen:
        on = bool(ctx.setting("location"))
        rows = [
            _main_switch("Use location", on, "toggle", "location"),
            _pref("Recent access", "", enabled=on),
            _pref("App location permissions", "5 of 27 apps have access to location", enabled=on),
            _pref("Location services", "", enabled=on),
        ]
        return self._page("Location", rows, _act("LocationSettingsActivity"))

    # ------------------------------------------------------------ display
    def screen_display(self, ctx: Ctx, route: Route) -> Screen:
        dark = bool(ctx.setting("dark_theme"))
        timeout = int(ctx.setting("screen_timeout") or 30)
        rows = [
            _category("Brightness"),
            _pref("Brightness level", f"{ctx.setting('brightness')}%", "open", "brightness"),
            _primary_switch(
                "Adaptive brightness",
                "",
                bool(ctx.setting("adaptive_brightness")),
                "open",
                "adaptive_brightness",
                "toggle",
                "adaptive_brightness",
            ),
            _category("Lock display"),
            _pref("Lock screen", "Show all notification content", "info", "Lock screen"),
            _pref(
                "Screen timeout",
                f"After {timeout_label(timeout)} of inactivity",
                "ask_timeout",
                None,
            ),
            _category("Appearance"),
            _primary_switch(
                "Dark theme",
                "Will never turn off automatically" if dark else "Will never turn on automatically",
                dark,
                "open",
                "dark_theme",
                "toggle",
                "dark_theme",
            ),
            _pref(
                "Font size",
                font_label(str(ctx.setting("font_size") or "default")),
                "open",
                "font_size",
            ),
            _category("Other display controls"),
            _switch_pref(
                "Auto-rotate screen", "", bool(ctx.setting("auto_rotate")), "toggle", "auto_rotate"
            ),
            _pref("Screen saver", "Clock", "info", "Screen saver"),
        ]
        return self._page("Display", rows, _act("DisplaySettingsActivity"))

    def screen_brightness(self, ctx: Ctx, route: Route) -> Screen:
        value = int(ctx.setting("brightness") or 0)
        rows = [
            _seekbar("brightness", value),
            _footer("Adjust the brightness of your screen"),
        ]
        return self._page("Brightness level", rows)

    def screen_adaptive_brightness(self, ctx: Ctx, route: Route) -> Screen:
        on = bool(ctx.setting("adaptive_brightness"))
        rows = [
            _main_switch("Use adaptive brightness", on, "toggle", "adaptive_brightness"),
            _footer(
                "Your screen brightness will automatically adjust to your environment and "
                "activities. You can move the slider manually to help adaptive brightness learn "
                "your preferences."
            ),
        ]
        return self._page("Adaptive brightness", rows, _act("AdaptiveBrightnessActivity"))

    def screen_dark_theme(self, ctx: Ctx, route: Route) -> Screen:
        on = bool(ctx.setting("dark_theme"))
        rows = [
            _main_switch("Use Dark theme", on, "toggle", "dark_theme"),
            _pref("Schedule", "None"),
            _footer(
                "Dark theme uses a black background to help keep battery alive longer on some "
                "screens."
            ),
        ]
        return self._page("Dark theme", rows, _act("DarkThemeSettingsActivity"))

    def screen_font_size(self, ctx: Ctx, route: Route) -> Screen:
        size = str(ctx.setting("font_size") or "default")
        index = FONT_SIZES.index(size) if size in FONT_SIZES else 1
        bar = View(
            w.SEEKBAR,
            text=font_label(size),
            rid=_rid("seek_bar"),
            desc="Font size",
            focusable=True,
            on_click="set_font",
            arg=FONT_SIZES[(len(FONT_SIZES)) // 2],
            weight=0.7,
        )
        rows = [
            View(w.TEXT, text="Preview", rid=_rid("preview_label"), height=90),
            View(
                w.TEXT,
                text="The Wonderful Wizard of Oz\nChapter 11: The Wonderful Emerald City of Oz",
                rid=_rid("preview_text"),
                height=420,
            ),
            View(w.TEXT, text=font_label(size), rid=_rid("current_label"), height=100),
            _slider(
                "",
                bar,
                ("Make smaller", "font_step", -1, _rid("smaller")),
                ("Make larger", "font_step", 1, _rid("larger")),
            ),
            _footer(
                "Make the text on your screen smaller or larger. "
                f"({', '.join(font_label(s) for s in FONT_SIZES)}; now {index + 1} of 4)"
            ),
        ]
        return self._page("Font size", rows)

    # ------------------------------------------------------------ sound
    def screen_sound(self, ctx: Ctx, route: Route) -> Screen:
        rows = [
            _seekbar("media_volume", int(ctx.setting("media_volume") or 0)),
            _seekbar("ring_volume", int(ctx.setting("ring_volume") or 0)),
            _seekbar("alarm_volume", int(ctx.setting("alarm_volume") or 0)),
            _pref(
                "Do Not Disturb", "On" if ctx.setting("do_not_disturb") else "Off", "open", "dnd"
            ),
            _switch_pref(
                "Vibrate for calls",
                "",
                bool(ctx.setting("vibrate_for_calls")),
                "toggle",
                "vibrate_for_calls",
            ),
            _pref("Phone ringtone", "The Big Adventure"),
            _pref("Default notification sound", "Popcorn"),
            _pref("Default alarm sound", "Fresh start"),
        ]
        return self._page("Sound & vibration", rows, _act("SoundSettingsActivity"))

    def screen_dnd(self, ctx: Ctx, route: Route) -> Screen:
        on = bool(ctx.setting("do_not_disturb"))
        turn = "off" if on else "on"
        toggle = button(
            f"Turn {turn} now",
            "toggle",
            "do_not_disturb",
            _rid(f"zen_mode_settings_turn_{turn}_button"),
            weight=0.5,
        )
        rows = [
            _category("What can interrupt Do Not Disturb"),
            _pref("People", "Calls and messages"),
            _pref("Apps", "No apps can interrupt"),
            _pref("Alarms & other interruptions", "Alarms, media"),
            _category("General"),
            _pref("Schedules", "1 schedule can turn on automatically"),
            _pref("Duration for Quick Settings", "Until you turn off"),
            View(
                w.LINEAR, horizontal=True, children=[View(w.VIEW, weight=0.5), toggle], height=170
            ),
        ]
        return self._page("Do Not Disturb", rows, _act("ZenModeSettingsActivity"))

    # ------------------------------------------------------------ system
    def screen_system(self, ctx: Ctx, route: Route) -> Screen:
        rows = [
            _pref("Languages & input", "Gboard", "open", "languages_input"),
            _pref("Gestures", "", "info", "Gestures"),
            _pref("Date & time", zone_summary(ctx.phone.tz, ctx.now), "open", "date_time"),
            _pref("Backup", "Off", "info", "Backup"),
            _pref("Reset options", "", "info", "Reset options"),
            _pref("Multiple users", "Signed in as Owner"),
            _pref("System update", "Updated to Android 14"),
        ]
        return self._page("System", rows, _act("SystemDashboardActivity"))

    def screen_languages_input(self, ctx: Ctx, route: Route) -> Screen:
        rows = [
            _pref("Languages", language_name(str(ctx.setting("language"))), "open", "languages"),
            _pref("On-screen keyboard", "Gboard", "info", "On-screen keyboard"),
            _pref("Physical keyboard", "Not connected"),
            _pref("Speech", ""),
            _pref("Pointer speed", ""),
        ]
        return self._page("Languages & input", rows, _act("LanguageAndInputSettingsActivity"))

    def screen_languages(self, ctx: Ctx, route: Route) -> Screen:
        current = str(ctx.setting("language"))
        rows = [
            _footer(
                "Your device, apps, and websites use the first supported language from your list."
            ),
            View(
                w.LINEAR,
                horizontal=True,
                children=[
                    View(w.TEXT, text="1", rid=_rid("label_bullet"), weight=0.1),
                    View(w.TEXT, text=language_name(current), rid=_rid("label")),
                ],
                height=170,
            ),
            _pref("Add a language", "", "open", "add_language", icon=True),
        ]
        return self._page("Languages", rows, _act("LocalePickerActivity"))

    def screen_add_language(self, ctx: Ctx, route: Route) -> Screen:
        current = str(ctx.setting("language"))
        rows = [
            _pref(native, english, "ask_language", code)
            for code, (native, english) in LANGUAGES.items()
            if code != current
        ]
        return self._page("Add a language", rows, _act("LocalePickerActivity"))

    def screen_date_time(self, ctx: Ctx, route: Route) -> Screen:
        auto_zone = bool(ctx.setting("auto_time_zone"))
        h24 = bool(ctx.setting("time_format_24h"))
        now = ctx.now
        hour12 = now.hour % 12 or 12
        time_text = (
            f"{now:%H:%M}" if h24 else f"{hour12}:{now:%M} {'AM' if now.hour < 12 else 'PM'}"
        )
        rows = [
            _pref("Date", f"{now:%B} {now.day}, {now.year}", enabled=False),
            _pref("Time", time_text, enabled=False),
            _category("Time zone"),
            _switch_pref("Set time zone automatically", "", auto_zone, "toggle", "auto_time_zone"),
            _pref("Time zone", zone_summary(ctx.phone.tz, now), enabled=not auto_zone),
            _category("Time format"),
            _switch_pref(
                "Use 24-hour format",
                "13:00" if h24 else "1:00 PM",
                h24,
                "toggle",
                "time_format_24h",
            ),
        ]
        return self._page("Date & time", rows, _act("DateTimeSettingsActivity"))

    # ============================================================ handlers
    # ------------------------------------------------------------ navigation
    def on_open(self, ctx: Ctx, arg: Any) -> None:
        screen, args = (arg, ()) if isinstance(arg, str) else arg
        if screen in ("pair", "saved_devices") and not ctx.setting("bluetooth"):
            ctx.set("bluetooth", True)  # Pair new device and See all turn Bluetooth on
        ctx.hide_keyboard()  # a new page takes the keyboard away
        ctx.push(screen, **dict(args))

    def on_info(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("info", title=arg)

    def on_search_enter(self, ctx: Ctx, arg: Any) -> None:
        ctx.hide_keyboard()

    # ------------------------------------------------------------ switches
    def on_toggle(self, ctx: Ctx, arg: Any) -> None:
        if arg not in PLAIN_SWITCHES:
            raise KeyError(f"settings: `{arg}` is not a switch")
        ctx.set(arg, not ctx.setting(arg))

    def on_wifi(self, ctx: Ctx, arg: Any) -> None:
        self.set_wifi(ctx, not ctx.setting("wifi"))

    def set_wifi(self, ctx: Ctx, on: bool) -> None:
        ctx.set("wifi", on)
        if not on:
            self._disconnect_all(ctx)
            return
        saved = [n for n in ctx.records("wifi_networks") if n["saved"]]
        if saved and not any(n["connected"] for n in ctx.records("wifi_networks")):
            best = min(saved, key=lambda n: -int(n.get("signal", 0)))
            ctx.update("wifi_networks", best, connected=True)

    def on_airplane(self, ctx: Ctx, arg: Any) -> None:
        on = not ctx.setting("airplane_mode")
        ctx.set("airplane_mode", on)
        if on:
            if ctx.setting("wifi"):
                self.set_wifi(ctx, False)
            if ctx.setting("bluetooth"):
                self.set_bluetooth(ctx, False)

    def on_bluetooth(self, ctx: Ctx, arg: Any) -> None:
        self.set_bluetooth(ctx, not ctx.setting("bluetooth"))

    def set_bluetooth(self, ctx: Ctx, on: bool) -> None:
        ctx.set("bluetooth", on)
        if not on:
            for d in list(ctx.records("bluetooth_devices")):
                if d["connected"]:
                    ctx.update("bluetooth_devices", d, connected=False)

    # ------------------------------------------------------------ Wi-Fi networks
    def _network(self, ctx: Ctx, ssid: Any) -> dict[str, Any]:
        return _record(ctx, "wifi_networks", "ssid", ssid, "Wi-Fi network")

    def _disconnect_all(self, ctx: Ctx, keep: Any = None) -> None:
        for n in list(ctx.records("wifi_networks")):
            if n["connected"] and n["ssid"] != keep:
                ctx.update("wifi_networks", n, connected=False)

    def _connect(self, ctx: Ctx, ssid: Any) -> None:
        self._disconnect_all(ctx, keep=ssid)
        n = self._network(ctx, ssid)
        if not (n["connected"] and n["saved"]):
            ctx.update("wifi_networks", n, connected=True, saved=True)

    def on_tap_network(self, ctx: Ctx, arg: Any) -> None:
        n = self._network(ctx, arg)
        if n["connected"]:
            ctx.push("network_details", ssid=arg)
        elif n["saved"] or n["security"] == "open":
            self._connect(ctx, arg)
        else:
            ctx.set_form("password", "")
            ctx.dialog(
                Dialog(
                    str(arg),
                    items=[
                        View(w.TEXT, text="Password", rid=_rid("password_label"), height=80),
                        View(
                            w.EDIT,
                            text="",
                            rid=_rid("password"),
                            edit="password",
                            password=True,
                            clickable=True,
                            focusable=True,
                            focused=True,
                            long_clickable=True,
                            on_enter="wifi_password",
                            arg=arg,
                            height=140,
                        ),
                    ],
                    buttons=[("Connect", "wifi_password", arg), ("Cancel", "wifi_cancel", None)],
                )
            )

    def on_wifi_password(self, ctx: Ctx, arg: Any) -> None:
        n = self._network(ctx, arg)
        password = ctx.form("password")
        need = 5 if n["security"] == "wep" else 8
        ctx.close_dialog()  # the keyboard's enter submits the dialog too
        ctx.hide_keyboard()
        if len(password) < need:
            ctx.toast(f"Password must be at least {need} characters")
            return
        ctx.set_form("password", "")
        self._connect(ctx, arg)

    def on_wifi_cancel(self, ctx: Ctx, arg: Any) -> None:
        ctx.set_form("password", "")
        ctx.hide_keyboard()

    def on_connect_network(self, ctx: Ctx, arg: Any) -> None:
        if ctx.setting("wifi"):
            self._connect(ctx, arg)

    def on_disconnect_network(self, ctx: Ctx, arg: Any) -> None:
        n = self._network(ctx, arg)
        if n["connected"]:
            ctx.update("wifi_networks", n, connected=False)

    def on_forget_network(self, ctx: Ctx, arg: Any) -> None:
        n = self._network(ctx, arg)
        ctx.update("wifi_networks", n, saved=False, connected=False)
        ctx.back()

    def on_share_network(self, ctx: Ctx, arg: Any) -> None:
        ctx.toast("Confirm it's you to share this network")

    def on_pick_security(self, ctx: Ctx, arg: Any) -> None:
        ctx.set_form("security", str(arg))

    def on_cancel_add_network(self, ctx: Ctx, arg: Any) -> None:
        ctx.back()

    def on_save_network(self, ctx: Ctx, arg: Any) -> None:
        ssid = ctx.form("ssid").strip()
        security = ctx.form("security", "wpa2")
        password = ctx.form("password")
        if not ssid:
            ctx.toast("Enter the network name")
            return
        need = 0 if security == "open" else (5 if security == "wep" else 8)
        if len(password) < need:
            ctx.toast(f"Password must be at least {need} characters")
            return
        existing = ctx.find("wifi_networks", lambda r: str(r["ssid"]).casefold() == ssid.casefold())
        connect = bool(ctx.setting("wifi"))
        if existing is not None:
            ctx.update("wifi_networks", existing, security=security, saved=True)
            ssid = str(existing["ssid"])
        else:
            ctx.add(
                "wifi_networks",
                {
                    "ssid": ssid,
                    "security": security,
                    "saved": True,
                    "connected": False,
                    "signal": 3,
                },
            )
        if connect:
            self._connect(ctx, ssid)
        ctx.back()

    # ------------------------------------------------------------ Bluetooth devices
    def _device(self, ctx: Ctx, name: Any) -> dict[str, Any]:
        return _record(ctx, "bluetooth_devices", "name", name, "Bluetooth device")

    def on_tap_device(self, ctx: Ctx, arg: Any) -> None:
        d = self._device(ctx, arg)
        if d["connected"]:
            ctx.push("device_details", name=arg)
        else:
            self.on_connect_device(ctx, arg)

    def on_connect_device(self, ctx: Ctx, arg: Any) -> None:
        if not ctx.setting("bluetooth"):
            ctx.set("bluetooth", True)
        d = self._device(ctx, arg)
        if not d["connected"]:
            ctx.update("bluetooth_devices", d, connected=True)

    def on_disconnect_device(self, ctx: Ctx, arg: Any) -> None:
        d = self._device(ctx, arg)
        if d["connected"]:
            ctx.update("bluetooth_devices", d, connected=False)

    def on_ask_forget_device(self, ctx: Ctx, arg: Any) -> None:
        ctx.dialog(
            Dialog(
                "Forget device?",
                f"Your phone will no longer be paired with {arg}",
                [("Forget device", "forget_device", arg), ("Cancel", None, None)],
            )
        )

    def on_forget_device(self, ctx: Ctx, arg: Any) -> None:
        d = self._device(ctx, arg)
        ctx.update("bluetooth_devices", d, paired=False, connected=False)
        ctx.back()

    def on_ask_pair(self, ctx: Ctx, arg: Any) -> None:
        ctx.dialog(
            Dialog(
                f"Pair with {arg}?",
                "",
                [("Pair", "pair", arg), ("Cancel", None, None)],
            )
        )

    def on_pair(self, ctx: Ctx, arg: Any) -> None:
        if not ctx.setting("bluetooth"):
            ctx.set("bluetooth", True)
        d = self._device(ctx, arg)
        ctx.update("bluetooth_devices", d, paired=True, connected=True)
        ctx.back()

    # ------------------------------------------------------------ notifications
    def _app(self, ctx: Ctx, name: Any) -> dict[str, Any]:
        return _record(ctx, "app_notifications", "app_name", name, "app")

    def on_toggle_app(self, ctx: Ctx, arg: Any) -> None:
        a = self._app(ctx, arg)
        ctx.update("app_notifications", a, enabled=not a["enabled"])

    def on_toggle_channel(self, ctx: Ctx, arg: Any) -> None:
        name, channel = arg
        a = self._app(ctx, name)
        allowed = list(a.get("allowed_channels") or [])
        if channel in allowed:
            allowed = [c for c in allowed if c != channel]
        else:
            order = channels_of(a)
            allowed = [c for c in order if c in allowed or c == channel]
        ctx.update("app_notifications", a, allowed_channels=allowed)

    # ------------------------------------------------------------ display and sound
    def on_ask_timeout(self, ctx: Ctx, arg: Any) -> None:
        current = int(ctx.setting("screen_timeout") or 0)
        options = [(s, timeout_label(s)) for s in TIMEOUTS]
        ctx.dialog(
            choice_dialog(
                "Screen timeout",
                options,
                current,
                "set_timeout",
                cls="android.widget.CheckedTextView",
                rid="android:id/text1",
                height=140,
                cancel=True,
            )
        )

    def on_set_timeout(self, ctx: Ctx, arg: Any) -> None:
        ctx.set("screen_timeout", int(arg))

    def on_adjust(self, ctx: Ctx, arg: Any) -> None:
        name, direction = arg
        low, high, step, _label = SEEKBARS[name]
        value = int(ctx.setting(name) or 0)
        # one step, landing on a multiple of the step
        new = (value // step + 1) * step if direction > 0 else ((value - 1) // step) * step
        new = max(low, min(high, new))
        if new != value:
            ctx.set(name, new)

    def on_seek(self, ctx: Ctx, arg: Any) -> None:
        name, value = arg
        low, high, _step, _label = SEEKBARS[name]
        value = max(low, min(high, int(value)))
        if value != ctx.setting(name):
            ctx.set(name, value)

    def on_font_step(self, ctx: Ctx, arg: Any) -> None:
        size = str(ctx.setting("font_size") or "default")
        index = FONT_SIZES.index(size) if size in FONT_SIZES else 1
        new = max(0, min(len(FONT_SIZES) - 1, index + int(arg)))
        if FONT_SIZES[new] != size:
            ctx.set("font_size", FONT_SIZES[new])

    def on_set_font(self, ctx: Ctx, arg: Any) -> None:
        if arg != ctx.setting("font_size"):
            ctx.set("font_size", arg)

    # ------------------------------------------------------------ system
    def on_ask_language(self, ctx: Ctx, arg: Any) -> None:
        native = language_name(str(arg))
        ctx.dialog(
            Dialog(
                f"Change system language to {native}?",
                "Your device settings and regional preferences will change.",
                [("Change", "set_language", arg), ("Cancel", None, None)],
            )
        )

    def on_set_language(self, ctx: Ctx, arg: Any) -> None:
        ctx.set("language", arg)
        ctx.back_to("languages")


APP = Settings
