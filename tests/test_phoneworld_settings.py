"""PhoneWorld's Settings app: the library tasks' reference solutions, the screens as real
uiautomator XML, and what every page does through real actions (switches, the Wi-Fi and
Bluetooth flows, dialogs, SeekBars, notifications, languages, back navigation)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tasklang import ir
from tasklang.compiler import Compiler
from tasklang.envs.phoneworld.app import Ctx
from tasklang.envs.phoneworld.apps.settings import Settings, timeout_label
from tasklang.envs.phoneworld.episode import Episode, run_nothing, run_reference
from tasklang.envs.phoneworld.phone import LAUNCHER, Outcome
from tasklang.envs.phoneworld.solutions.base import Driver
from tasklang.verifiers.snapshot import parse_ui_xml

TASKS = ["settings.enable_dark_theme", "settings.ensure_wifi_on"]
LIBRARY = Path(__file__).resolve().parent.parent / "task_library" / "app"

WORLD = """
task test.settings_world {
  kind app
  apps settings
  goal "Change some settings."
  given {
    now 2026-05-14T21:40 tz "Europe/Berlin"
    foreground settings
    settings.wifi = true
    settings.bluetooth = true
    settings.wifi_networks = []
    settings.wifi_networks += { ssid: "HomeNet-5G", security: "wpa2", saved: true,
                                connected: true, signal: 4 }
    settings.wifi_networks += { ssid: "Office-Guest", security: "open", saved: true, signal: 2 }
    settings.wifi_networks += { ssid: "Cafe-Guest", security: "open", signal: 3 }
    settings.wifi_networks += { ssid: "NETGEAR42", security: "wpa2", signal: 1 }
    settings.bluetooth_devices += { name: "WH-1000XM5", kind: "headphones", paired: true,
                                    connected: true }
    settings.bluetooth_devices += { name: "JBL Flip 6", kind: "speaker", paired: true }
    settings.bluetooth_devices += { name: "Pixel Watch 2", kind: "watch" }
    settings.app_notifications += { app_name: "Gmail", package_name: "com.google.android.gm",
                                    allowed_channels: ["Messages", "Updates"] }
    settings.app_notifications += { app_name: "Instagram",
                                    package_name: "com.instagram.android", enabled: false }
  }
  expect { settings.wifi == true }
  budget 300 steps
}
"""


def compile_task(task_id: str) -> ir.CompiledTask:
    return Compiler().compile_paths([LIBRARY / f"{task_id}.task"]).tasks[0]


@pytest.fixture(scope="module")
def world_task() -> ir.CompiledTask:
    result = Compiler().compile_text(WORLD, "settings_world.task")
    assert not result.diagnostics
    return result.tasks[0]


class Phone:
    """An episode of the test world, driven by element selectors like an agent."""

    def __init__(self, compiled: ir.CompiledTask) -> None:
        self.ep = Episode(compiled, 0)
        self.d = Driver(self.ep.tree, self.ep.step, {}, max_steps=1000)

    # reading
    def setting(self, name: str) -> Any:
        return self.ep.phone.state["settings"].settings[name]

    def records(self, collection: str) -> list[dict[str, Any]]:
        return self.ep.phone.state["settings"].collections[collection]

    def record(self, collection: str, key: str, value: str) -> dict[str, Any]:
        return next(r for r in self.records(collection) if r[key] == value)

    def activity(self) -> str:
        return self.ep.phone.current_activity()[1]

    def has(self, **sel: Any) -> bool:
        return self.d.has(**sel)

    def node(self, index: int) -> Any:
        return list(self.ep.tree().walk())[index]

    def switch_of(self, title: str) -> Any:
        """The switch of the row titled ``title``."""
        at = self.d.scroll_to(text=title)
        nodes = list(self.ep.tree().walk())
        return next(
            (i, n) for i, n in enumerate(nodes) if i > at and n.rid.endswith("id/switch_widget")
        )

    # acting
    def click(self, index: int) -> Outcome:
        out = self.ep.step({"action_type": "click", "index": index})
        assert isinstance(out, Outcome)
        return out

    def tap(self, **sel: Any) -> Outcome:
        return self.click(self.d.scroll_to(**sel))

    def tap_switch(self, title: str) -> Outcome:
        return self.click(self.switch_of(title)[0])

    def back(self) -> Outcome:
        return self.ep.step({"action_type": "navigate_back"})

    def type(self, text: str, **sel: Any) -> Outcome:
        return self.ep.step(
            {"action_type": "input_text", "text": text, "index": self.d.need(**sel),
             "clear_text": True}
        )  # fmt: skip

    def go(self, *titles: str) -> None:
        """Tap through the rows titled ``titles`` from the homepage."""
        while not self.has(text="Search settings"):
            assert self.back().ok
        for t in titles:
            out = self.tap(text=t)
            assert out.ok, out.info


@pytest.fixture
def p(world_task: ir.CompiledTask) -> Phone:
    return Phone(world_task)


# ---------------------------------------------------------------- the library tasks
@pytest.mark.parametrize("task_id", TASKS)
def test_reference_solves_every_instance(task_id: str) -> None:
    compiled = compile_task(task_id)
    for seed in range(6):  # `tasklang test` tries 20
        verdict, _ = run_reference(compiled, seed)
        failed = [(r.id, r.summary) for r in verdict.clauses if not r.passed]
        assert verdict.success, (seed, failed, verdict.notes)


@pytest.mark.parametrize("task_id", TASKS)
def test_doing_nothing_fails(task_id: str) -> None:
    compiled = compile_task(task_id)
    for seed in range(6):  # `tasklang test` tries 20
        assert not run_nothing(compiled, seed).success


# ---------------------------------------------------------------- screens
SCREENS: list[tuple[str, dict[str, Any]]] = [
    ("main", {}),
    ("search", {}),
    ("info", {"title": "About phone"}),
    ("network", {}),
    ("internet", {}),
    ("network_details", {"ssid": "HomeNet-5G"}),
    ("network_details", {"ssid": "gone"}),
    ("saved_networks", {}),
    ("add_network", {}),
    ("sim", {}),
    ("data_saver", {}),
    ("connected", {}),
    ("saved_devices", {}),
    ("connection", {}),
    ("bluetooth", {}),
    ("pair", {}),
    ("device_details", {"name": "WH-1000XM5"}),
    ("apps", {}),
    ("all_apps", {}),
    ("app_info", {"app": "Gmail"}),
    ("notifications", {}),
    ("app_notifications", {}),
    ("app_notification", {"app": "Gmail"}),
    ("app_notification", {"app": "Instagram"}),
    ("notification_history", {}),
    ("battery", {}),
    ("battery_saver", {}),
    ("location", {}),
    ("display", {}),
    ("brightness", {}),
    ("adaptive_brightness", {}),
    ("dark_theme", {}),
    ("font_size", {}),
    ("sound", {}),
    ("dnd", {}),
    ("system", {}),
    ("languages_input", {}),
    ("languages", {}),
    ("add_language", {}),
    ("date_time", {}),
]


def test_every_screen_is_a_real_uiautomator_dump(p: Phone) -> None:
    app = p.ep.phone.apps["settings"]
    assert {f"screen_{name}" for name, _ in SCREENS} == {
        m for m in dir(app) if m.startswith("screen_") and m != "screen"
    }
    for name, args in SCREENS:
        Ctx(p.ep.phone, app, None).push(name, **args)
        p.ep.phone.invalidate()
        root, elements = parse_ui_xml(p.ep.xml())
        assert root.tag == "hierarchy"
        assert elements and all(e.package in ("com.android.settings", "com.android.systemui")
                                for e in elements), name  # fmt: skip
        assert p.activity().startswith(("com.android.settings.", "com.google.android.settings"))


def test_homepage_lists_the_pixel_sections(p: Phone) -> None:
    assert p.activity() == "com.android.settings.Settings"
    assert p.has(text="Network & internet") and p.has(text="Mobile, Wi-Fi, hotspot")
    assert p.has(text="Connected devices") and p.has(text="Bluetooth, pairing")
    for title in ("Display", "System", "About phone"):
        p.d.scroll_to(text=title)


def test_read_only_pages_open_and_go_back(p: Phone) -> None:
    p.go("About phone")
    assert p.has(text="Android version")
    assert p.tap(desc="Navigate up").ok
    assert p.has(text="Search settings")
    assert p.back().ok and p.ep.phone.foreground is None
    assert p.ep.phone.current_activity()[0] == LAUNCHER


# ---------------------------------------------------------------- Wi-Fi
def test_internet_page_lists_networks_connected_first(p: Phone) -> None:
    p.go("Network & internet", "Internet")
    assert p.activity() == "com.android.settings.Settings$NetworkProviderSettingsActivity"
    _, switch = p.switch_of("Wi-Fi")
    assert switch.rid == "android:id/switch_widget" and switch.checked
    titles = p.d.texts(rid="android:id/title")
    nets = [t for t in titles if t in ("HomeNet-5G", "Office-Guest", "Cafe-Guest", "NETGEAR42")]
    assert nets == ["HomeNet-5G", "Office-Guest", "Cafe-Guest", "NETGEAR42"]
    summaries = p.d.texts(rid="android:id/summary")
    assert "Connected" in summaries and "Saved" in summaries and "Secured" in summaries


def test_wifi_off_disconnects_and_on_reconnects_the_best_saved_network(p: Phone) -> None:
    p.go("Network & internet", "Internet")
    assert p.tap_switch("Wi-Fi").ok
    assert p.setting("wifi") is False
    assert not any(n["connected"] for n in p.records("wifi_networks"))
    assert p.has(text="To see available networks, turn Wi-Fi on.")
    assert not p.has(text="Office-Guest")
    assert p.tap(text="Wi-Fi").ok  # the whole row toggles
    assert p.setting("wifi") is True
    assert p.record("wifi_networks", "ssid", "HomeNet-5G")["connected"] is True


def test_tapping_networks_connects(p: Phone) -> None:
    p.go("Network & internet", "Internet")
    assert p.tap(text="Office-Guest").ok  # saved: connects
    assert p.record("wifi_networks", "ssid", "Office-Guest")["connected"] is True
    assert p.record("wifi_networks", "ssid", "HomeNet-5G")["connected"] is False
    assert p.tap(text="Cafe-Guest").ok  # open: connects and is saved
    cafe = p.record("wifi_networks", "ssid", "Cafe-Guest")
    assert cafe["connected"] is True and cafe["saved"] is True
    assert sum(n["connected"] for n in p.records("wifi_networks")) == 1


def test_secured_network_asks_for_its_password(p: Phone) -> None:
    p.go("Network & internet", "Internet")
    before = p.records("wifi_networks")
    assert p.tap(text="NETGEAR42").ok
    assert p.has(text="NETGEAR42", rid="android:id/alertTitle")
    assert p.tap(text="Cancel").ok  # cancel: nothing changes
    assert p.records("wifi_networks") is before
    assert p.tap(text="NETGEAR42").ok
    assert p.type("short", rid="password").ok
    assert p.tap(text="Connect").ok
    assert p.ep.phone.toast == "Password must be at least 8 characters"
    assert p.record("wifi_networks", "ssid", "NETGEAR42")["connected"] is False
    assert p.tap(text="NETGEAR42").ok
    assert p.type("correct horse", rid="password").ok
    assert p.ep.step({"action_type": "keyboard_enter"}).ok
    net = p.record("wifi_networks", "ssid", "NETGEAR42")
    assert net["connected"] is True and net["saved"] is True
    assert p.ep.phone.dialog is None and not p.ep.phone.keyboard


def test_network_details_disconnect_and_forget(p: Phone) -> None:
    p.go("Network & internet", "Internet")
    assert p.tap(text="HomeNet-5G").ok  # the connected network opens its details
    assert p.has(text="Network details") and p.has(text="WPA2-Personal")
    assert p.tap(text="Disconnect").ok
    assert p.record("wifi_networks", "ssid", "HomeNet-5G")["connected"] is False
    assert p.tap(text="Connect").ok
    assert p.record("wifi_networks", "ssid", "HomeNet-5G")["connected"] is True
    assert p.tap(text="Forget").ok
    home = p.record("wifi_networks", "ssid", "HomeNet-5G")
    assert home["saved"] is False and home["connected"] is False
    assert p.has(text="Internet")  # back on the Internet page
    summary = p.d.find(text="HomeNet-5G")
    assert summary is not None and p.node(summary + 1).text == "Secured"


def test_saved_networks_page_opens_details(p: Phone) -> None:
    p.go("Network & internet", "Internet")
    assert p.tap(text="Saved networks").ok
    assert p.d.texts(rid="android:id/title") == ["HomeNet-5G", "Office-Guest"]
    assert p.tap(text="Office-Guest").ok
    assert p.has(text="Forget") and p.has(text="Connect")


def test_add_network(p: Phone) -> None:
    p.go("Network & internet", "Internet")
    assert p.tap(text="Add network").ok
    assert p.tap(text="Save").ok  # no name: stays
    assert p.ep.phone.toast == "Enter the network name" and p.has(text="Network name")
    assert p.type("Attic", rid="ssid").ok
    assert p.type("hunter22hunter", rid="password").ok
    assert p.tap(text="Save").ok
    attic = p.record("wifi_networks", "ssid", "Attic")
    assert attic == {"ssid": "Attic", "security": "wpa2", "saved": True, "connected": True,
                     "signal": 3}  # fmt: skip
    assert p.has(text="Internet")
    assert p.tap(text="Add network").ok
    assert p.tap(text="None").ok  # an open network has no password field
    assert not p.has(rid="password")
    assert p.tap(text="Cancel").ok and p.has(text="Add network")


def test_airplane_mode_turns_the_radios_off(p: Phone) -> None:
    p.go("Network & internet")
    assert p.tap_switch("Airplane mode").ok
    assert p.setting("airplane_mode") is True
    assert p.setting("wifi") is False and p.setting("bluetooth") is False
    assert not any(d["connected"] for d in p.records("bluetooth_devices"))
    assert p.has(text="Airplane mode is on")
    assert p.tap(text="Internet").ok
    assert p.tap_switch("Airplane mode").ok  # the Internet page offers to turn it off
    assert p.setting("airplane_mode") is False and p.setting("wifi") is False


def test_mobile_data_and_data_saver(p: Phone) -> None:
    p.go("Network & internet", "SIMs")
    assert p.tap_switch("Mobile data").ok and p.setting("mobile_data") is False
    assert p.back().ok
    assert p.tap(text="Data Saver").ok
    _, bar = p.switch_of("Use Data Saver")
    assert bar.rid == "com.android.settings:id/switch_widget" and not bar.checked
    assert p.tap(text="Use Data Saver").ok and p.setting("data_saver") is True


# ---------------------------------------------------------------- Bluetooth
def test_connected_devices(p: Phone) -> None:
    p.go("Connected devices")
    assert p.has(text="Currently connected") and p.has(text="WH-1000XM5")
    assert p.has(text="Saved devices") and p.has(text="JBL Flip 6")
    assert not p.has(text="Pixel Watch 2")
    assert p.tap(text="JBL Flip 6").ok  # a saved device connects
    assert p.record("bluetooth_devices", "name", "JBL Flip 6")["connected"] is True
    assert p.tap(text="WH-1000XM5").ok  # a connected one opens its details
    assert p.has(text="Device details")
    assert p.tap(text="Disconnect").ok
    assert p.record("bluetooth_devices", "name", "WH-1000XM5")["connected"] is False
    assert p.tap(text="Forget").ok and p.has(text="Forget device?")
    assert p.tap(text="Cancel").ok
    assert p.record("bluetooth_devices", "name", "WH-1000XM5")["paired"] is True
    assert p.tap(text="Forget").ok and p.tap(text="Forget device").ok
    assert p.record("bluetooth_devices", "name", "WH-1000XM5")["paired"] is False


def test_with_bluetooth_off_no_device_is_listed_until_see_all_turns_it_on(p: Phone) -> None:
    p.go("Connected devices", "Connection preferences", "Bluetooth")
    assert p.tap(text="Use Bluetooth").ok and p.setting("bluetooth") is False
    p.go("Connected devices")
    assert not p.has(text="JBL Flip 6") and not p.has(text="WH-1000XM5")
    assert p.has(text="Saved devices") and p.has(text="Bluetooth will turn on")
    assert p.tap(text="See all").ok
    assert p.setting("bluetooth") is True
    assert p.has(text="JBL Flip 6")  # saved, and disconnected when Bluetooth went off
    assert all(d["paired"] for d in p.records("bluetooth_devices") if d["name"] == "JBL Flip 6")


def test_pair_new_device_turns_bluetooth_on(p: Phone) -> None:
    p.go("Connected devices", "Connection preferences", "Bluetooth")
    assert p.activity() == "com.android.settings.Settings$BluetoothSettingsActivity"
    assert p.tap(text="Use Bluetooth").ok
    assert p.setting("bluetooth") is False
    assert not any(d["connected"] for d in p.records("bluetooth_devices"))
    assert not p.has(text="Pair new device")
    p.go("Connected devices", "Pair new device")
    assert p.setting("bluetooth") is True
    assert p.tap(text="Pixel Watch 2").ok and p.has(text="Pair with Pixel Watch 2?")
    assert p.back().ok and p.ep.phone.dialog is None
    assert p.record("bluetooth_devices", "name", "Pixel Watch 2")["paired"] is False
    assert p.tap(text="Pixel Watch 2").ok and p.tap(text="Pair").ok
    watch = p.record("bluetooth_devices", "name", "Pixel Watch 2")
    assert watch["paired"] is True and watch["connected"] is True
    assert p.has(text="Connected devices")


# ---------------------------------------------------------------- display
def test_screen_timeout_dialog(p: Phone) -> None:
    p.go("Display")
    assert p.has(text="After 30 seconds of inactivity")
    assert p.tap(text="Screen timeout").ok
    checked = [n.text for n in p.ep.tree().walk() if n.rid == "android:id/text1" and n.checked]
    assert checked == ["30 seconds"]
    assert p.tap(text="Cancel").ok and p.setting("screen_timeout") == 30
    assert p.tap(text="Screen timeout").ok and p.back().ok
    assert p.setting("screen_timeout") == 30
    for seconds in (15, 60, 600, 1800):
        assert p.tap(text="Screen timeout").ok
        assert p.tap(text=timeout_label(seconds)).ok
        assert p.setting("screen_timeout") == seconds and p.ep.phone.dialog is None
    assert p.has(text="After 30 minutes of inactivity")


def test_dark_theme_switch_and_page(p: Phone) -> None:
    p.go("Display")
    assert p.tap_switch("Dark theme").ok and p.setting("dark_theme") is True
    assert p.has(text="Will never turn off automatically")
    assert p.tap(text="Dark theme").ok  # the text opens the page
    assert p.activity() == "com.android.settings.Settings$DarkThemeSettingsActivity"
    assert p.setting("dark_theme") is True
    assert p.tap(text="Use Dark theme").ok and p.setting("dark_theme") is False


def test_brightness_seekbar(p: Phone) -> None:
    p.go("Display", "Brightness level")
    bar = p.node(p.d.need(cls="SeekBar"))
    assert bar.text == "60%" and bar.desc == "Brightness"
    assert p.tap(desc="Increase brightness").ok and p.setting("brightness") == 65
    for _ in range(10):
        p.tap(desc="Increase brightness")
    assert p.setting("brightness") == 100
    assert p.tap(cls="SeekBar").ok and p.setting("brightness") == 50  # a tap at its centre
    assert p.tap(desc="Decrease brightness").ok and p.setting("brightness") == 45
    assert isinstance(p.setting("brightness"), int)
    assert p.back().ok and p.has(text="45%")


def test_brightness_steps_snap_to_multiples_of_five(p: Phone) -> None:
    app = Settings()
    ctx = Ctx(p.ep.phone, app, None)
    ctx.set("brightness", 37)
    app.on_adjust(ctx, ("brightness", 1))
    assert p.setting("brightness") == 40
    ctx.set("brightness", 37)
    app.on_adjust(ctx, ("brightness", -1))
    assert p.setting("brightness") == 35
    ctx.set("brightness", 0)
    app.on_adjust(ctx, ("brightness", -1))
    assert p.setting("brightness") == 0


def test_adaptive_brightness_auto_rotate_and_font_size(p: Phone) -> None:
    p.go("Display")
    assert p.tap_switch("Adaptive brightness").ok and p.setting("adaptive_brightness") is False
    assert p.tap(text="Auto-rotate screen").ok and p.setting("auto_rotate") is True
    assert p.tap(text="Font size").ok
    assert p.tap(desc="Make larger").ok and p.setting("font_size") == "large"
    assert p.tap(desc="Make larger").ok and p.tap(desc="Make larger").ok
    assert p.setting("font_size") == "largest"
    for _ in range(4):
        p.tap(desc="Make smaller")
    assert p.setting("font_size") == "small"
    assert p.tap(cls="SeekBar").ok and p.setting("font_size") == "large"
    assert p.back().ok and p.has(text="Large")


# ---------------------------------------------------------------- sound, battery, location
def test_volumes_do_not_disturb_and_vibration(p: Phone) -> None:
    p.go("Sound & vibration")
    assert p.node(p.d.need(desc="Media volume")).text == "8 of 15"
    assert p.tap(desc="Increase media volume").ok and p.setting("media_volume") == 9
    for _ in range(8):
        p.tap(desc="Decrease ring & notification volume")
    assert p.setting("ring_volume") == 0
    for _ in range(3):
        p.tap(desc="Increase alarm volume")
    assert p.setting("alarm_volume") == 7
    assert p.tap_switch("Vibrate for calls").ok and p.setting("vibrate_for_calls") is False
    assert p.tap(text="Do Not Disturb").ok
    assert p.tap(text="Turn on now").ok and p.setting("do_not_disturb") is True
    assert p.tap(text="Turn off now").ok and p.setting("do_not_disturb") is False


def test_battery_saver_and_location(p: Phone) -> None:
    p.go("Battery", "Battery Saver")
    assert p.tap(text="Use Battery Saver").ok and p.setting("battery_saver") is True
    assert p.back().ok and p.has(text="On")
    p.go("Location")
    assert p.tap(text="Use location").ok and p.setting("location") is False
    assert p.back().ok and p.has(text="Off")


# ---------------------------------------------------------------- notifications
def test_app_notifications_list_and_channels(p: Phone) -> None:
    p.go("Notifications", "App notifications")
    assert p.d.texts(rid="app_name") == ["Gmail", "Instagram"]
    _, switch = p.switch_of("Instagram")
    assert not switch.checked
    assert p.tap_switch("Instagram").ok
    assert p.record("app_notifications", "app_name", "Instagram")["enabled"] is True
    assert p.tap(text="Gmail").ok
    assert p.has(text="All Gmail notifications")
    assert p.switch_of("Messages")[1].checked and not p.switch_of("Reminders")[1].checked
    assert p.tap(text="Reminders").ok
    gmail = p.record("app_notifications", "app_name", "Gmail")
    assert gmail["allowed_channels"] == ["Messages", "Reminders", "Updates"]
    assert p.tap(text="Messages").ok
    assert p.record("app_notifications", "app_name", "Gmail")["allowed_channels"] == [
        "Reminders", "Updates"
    ]  # fmt: skip
    assert p.tap(text="All Gmail notifications").ok
    assert p.record("app_notifications", "app_name", "Gmail")["enabled"] is False
    assert not p.has(text="Reminders")


def test_notification_history(p: Phone) -> None:
    p.go("Notifications", "Notification history")
    assert p.has(text="Use notification history")
    assert p.tap(text="Use notification history").ok
    assert p.setting("notification_history") is True


def test_app_info_leads_to_the_apps_notifications(p: Phone) -> None:
    p.go("Apps", "See all 2 apps", "Instagram")
    assert p.has(text="com.instagram.android")
    assert p.tap(text="Notifications").ok and p.has(text="All Instagram notifications")


# ---------------------------------------------------------------- system, search
def test_change_the_system_language(p: Phone) -> None:
    p.go("System", "Languages & input", "Languages")
    assert p.has(text="English (United States)")
    assert p.tap(text="Add a language").ok
    assert not p.has(text="English (United States)")
    assert p.tap(text="Deutsch (Deutschland)").ok
    assert p.tap(text="Cancel").ok and p.setting("language") == "en_US"
    assert p.tap(text="Deutsch (Deutschland)").ok and p.tap(text="Change").ok
    assert p.setting("language") == "de_DE"
    assert p.has(text="Languages") and p.has(text="Deutsch (Deutschland)")


def test_date_and_time(p: Phone) -> None:
    p.go("System", "Date & time")
    assert p.has(text="9:40 PM") and p.has(text="May 14, 2026")
    zone = p.node(p.d.need(text="Time zone", rid="android:id/title", nth=1))
    assert not zone.enabled
    assert p.tap(text="Use 24-hour format").ok and p.setting("time_format_24h") is True
    assert p.has(text="21:40")
    assert p.tap_switch("Set time zone automatically").ok
    assert p.setting("auto_time_zone") is False
    assert p.node(p.d.need(text="Time zone", rid="android:id/title", nth=1)).enabled
    assert p.has(text="GMT+02:00 Europe/Berlin")


def test_search_opens_the_matching_page(p: Phone) -> None:
    assert p.tap(text="Search settings").ok
    assert p.type("dark", rid="search_src_text").ok
    assert p.d.texts(rid="android:id/title") == ["Dark theme"]
    assert p.tap(text="Dark theme").ok
    assert p.has(text="Use Dark theme")
    assert not p.ep.phone.keyboard  # the page took the keyboard away
    assert p.back().ok and p.has(rid="search_src_text")
    assert p.type("zzz", rid="search_src_text").ok and p.has(text="No results")


# ---------------------------------------------------------------- actions that do nothing
def test_invalid_actions_are_no_ops(p: Phone) -> None:
    before = p.ep.phone.state["settings"]
    out = p.ep.step({"action_type": "input_text", "text": "x", "index": p.d.need(text="Display")})
    assert not out.ok and "not a text field" in out.info
    out = p.ep.step({"action_type": "click", "index": 10_000})
    assert not out.ok and "out of range" in out.info
    assert p.ep.phone.state["settings"] is before


def test_read_only_rows_do_nothing(p: Phone) -> None:
    p.go("Sound & vibration")
    before = p.ep.phone.state["settings"]
    out = p.tap(text="Phone ringtone")
    assert out.ok and "nothing happened" in out.info
    assert p.ep.phone.state["settings"] is before


def test_screens_are_pure_functions_of_the_state(p: Phone) -> None:
    p.go("Display")
    before = p.ep.phone.state["settings"]
    first = p.ep.xml()
    p.ep.phone.invalidate()
    assert p.ep.xml() == first
    assert p.ep.phone.state["settings"] is before
