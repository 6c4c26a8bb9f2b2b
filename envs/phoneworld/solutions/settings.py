"""Reference solutions of the Settings tasks."""

from __future__ import annotations

from tasklang.envs.phoneworld.apps.settings import timeout_label
from tasklang.envs.phoneworld.solutions.base import Driver, reference
from tasklang.envs.phoneworld.widgets import View


def _nodes(d: Driver) -> list[View]:
    return list(d.observe().walk())


def _click(d: Driver, index: int) -> None:
    d.act({"action_type": "click", "index": index})


def _home(d: Driver) -> None:
    """Bring Settings to its homepage, wherever the task starts."""
    for _ in range(6):
        if d.has(text="Search settings"):
            return
        if d.has(desc="Navigate up"):
            d.back()
        else:
            d.open("Settings")
    d.need(text="Search settings")


def _row_switch(d: Driver, title: str) -> int:
    """The index of the switch of the row titled ``title`` (scrolled into view)."""
    at = d.scroll_to(text=title, rid="android:id/title")
    nodes = _nodes(d)
    for i in range(at + 1, len(nodes)):
        if nodes[i].rid == "android:id/switch_widget":
            return i
    raise AssertionError(f"no switch on the row {title!r}")


@reference("settings.enable_dark_theme")
def enable_dark_theme(d: Driver) -> None:
    _home(d)
    _click(d, d.scroll_to(text="Display", rid="android:id/title"))
    _click(d, d.scroll_to(text="Screen timeout", rid="android:id/title"))
    d.tap(text=timeout_label(d.params["timeout"]), rid="android:id/text1")
    switch = _row_switch(d, "Dark theme")
    if not _nodes(d)[switch].checked:
        _click(d, switch)
    d.done()


@reference("settings.ensure_wifi_on")
def ensure_wifi_on(d: Driver) -> None:
    ssid = d.params["net"]["ssid"]
    _home(d)
    _click(d, d.scroll_to(text="Network & internet", rid="android:id/title"))
    d.tap(text="Internet", rid="android:id/title")
    switch = _row_switch(d, "Wi-Fi")
    if not _nodes(d)[switch].checked:
        _click(d, switch)
    row = d.scroll_to(text=ssid, rid="android:id/title")
    summary = _nodes(d)[row + 1]
    if summary.rid != "android:id/summary" or summary.text != "Connected":
        _click(d, row)
    d.done()
