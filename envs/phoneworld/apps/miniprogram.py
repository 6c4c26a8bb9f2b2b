"""The frame every WeChat mini program page shares (title bar with the capsule menu, the web
view, bottom tabs, search), and numbering for the records mini programs create.

Not an app: this module defines no ``APP``, so the app discovery of this package skips it.
"""

from __future__ import annotations

import re
from typing import Any

from tasklang.envs.phoneworld import widgets as w
from tasklang.envs.phoneworld.app import App, Ctx, Dialog, Route, Screen
from tasklang.envs.phoneworld.apps.wechat import PKG, WeChatPay, parse_time, stamp
from tasklang.envs.phoneworld.widgets import View

APPBRAND_UI = f"{PKG}.plugin.appbrand.ui.AppBrandUI"
WEBVIEW = "android.webkit.WebView"
_NUMBERED = re.compile(r"^([A-Za-z]*)(\d+)$")


def node(
    text: str = "",
    key: str | None = None,
    arg: Any = None,
    rid: str = "",
    desc: str = "",
    height: int = 110,
    selected: bool = False,
    children: list[View] | None = None,
    horizontal: bool = False,
    weight: float = 1.0,
) -> View:
    """A web page element: an ``android.view.View`` (clickable when it sends a key)."""
    return View(
        w.VIEW,
        text=text,
        rid=rid,
        desc=desc,
        clickable=key is not None,
        focusable=key is not None,
        on_click=key,
        arg=arg,
        height=0 if children and not horizontal else height,
        selected=selected,
        children=children or [],
        horizontal=horizontal,
        weight=weight,
    )


def when(value: Any) -> str:
    moment = parse_time(value)
    return moment.strftime("%Y-%m-%d %H:%M") if moment else ""


class MiniProgram(WeChatPay, App):
    """What every WeChat mini program page has: WeChat's title bar with the capsule ("More":
    share, add to My Mini Programs, back to home; "Close"), the web view, the bottom tabs."""

    host = "wechat"
    package = PKG
    activity = APPBRAND_UI
    tabs: tuple[tuple[str, str], ...] = ()

    def page(
        self, ctx: Ctx, title: str, tab: str | None = None, up: bool = True, **kw: Any
    ) -> Screen:
        screen = Screen(
            title,
            activity=APPBRAND_UI,
            up=up and tab is None,
            actions=[
                View(
                    w.IMAGE_BUTTON,
                    desc="More",
                    rid=f"{PKG}:id/actionbar_capsule_option",
                    clickable=True,
                    focusable=True,
                    on_click="mini_more",
                ),
                View(
                    w.IMAGE_BUTTON,
                    desc="Close",
                    rid=f"{PKG}:id/actionbar_capsule_home",
                    clickable=True,
                    focusable=True,
                    on_click="mini_close",
                ),
            ],
            list_cls=WEBVIEW,
            **kw,
        )
        if tab is not None:
            screen.tabs = [
                node(text, "tab", key, rid="tab-bar-item", selected=key == tab, height=140)
                for key, text in self.tabs
            ]
        return screen

    def on_tab(self, ctx: Ctx, arg: Any) -> None:
        ctx.replace(str(arg))

    def on_mini_more(self, ctx: Ctx, arg: Any) -> None:
        mine = ctx.find("recent_mini_apps", lambda r: r.get("name") == self.label, "wechat")
        pinned = bool(mine and mine.get("pinned"))
        options = (
            ("Send to Chat", "mini_share"),
            ("Remove from My Mini Programs" if pinned else "Add to My Mini Programs", "mini_pin"),
            ("Back to Home", "mini_home"),
        )
        items = [
            View(
                w.LINEAR,
                clickable=True,
                focusable=True,
                on_click=key,
                height=140,
                children=[View(w.TEXT, text=text, rid="android:id/title")],
            )
            for text, key in options
        ]
        ctx.dialog(Dialog(self.label, items=items, buttons=[("Cancel", None, None)]))

    def on_mini_share(self, ctx: Ctx, arg: Any) -> None:
        ctx.open("wechat", "share", mini=self.label)

    def on_mini_pin(self, ctx: Ctx, arg: Any) -> None:
        mine = ctx.find("recent_mini_apps", lambda r: r.get("name") == self.label, "wechat")
        if mine is None:
            ctx.add(
                "recent_mini_apps",
                {"name": self.label, "last_used": stamp(ctx.now), "pinned": True},
                "wechat",
            )
        else:
            ctx.update("recent_mini_apps", mine, "wechat", pinned=not mine.get("pinned"))

    def on_mini_home(self, ctx: Ctx, arg: Any) -> None:
        ctx.back_to(self.home)
        ctx.replace(self.home)

    def on_mini_close(self, ctx: Ctx, arg: Any) -> None:
        while ctx.phone.stacks.get(self.model):
            ctx.back()

    def field_row(self, name: str, value: str, key: str | None = None, arg: Any = None) -> View:
        return node(
            key=key,
            arg=arg,
            rid="field-row",
            horizontal=True,
            height=130,
            children=[
                node(name, rid="field-name", weight=0.45),
                node(value, rid="field-value", weight=0.55),
            ],
        )

    def search_box(self, hint: str, rid: str = "search-input", key: str = "search_go") -> View:
        return View(w.EDIT, rid=rid, edit="query", hint=hint, on_enter=key, height=130)

    def on_search_go(self, ctx: Ctx, arg: Any) -> None:
        ctx.hide_keyboard()

    def opener(self, ctx: Ctx) -> Route | None:
        """The page under the current one (the page that opened it)."""
        stack = ctx.phone.stacks.get(self.model, [])
        return stack[-2] if len(stack) >= 2 else None

    def push_focused(self, ctx: Ctx, screen: str, field_name: str, **args: Any) -> None:
        """Open ``screen`` with its text field ``field_name`` focused (as a search page does)."""
        route = ctx.push(screen, **args)
        Ctx(ctx.phone, self, route).focus(field_name)


def next_number(records: list[dict[str, Any]], field: str, prefix: str, start: int) -> str:
    """The number after the highest one of ``records`` ("T1041" after "T1040")."""
    number, width = start, len(str(start))
    for r in records:
        m = _NUMBERED.match(str(r.get(field) or ""))
        if m and int(m[2]) >= number:
            prefix, number, width = m[1] or prefix, int(m[2]), len(m[2])
    return f"{prefix}{number + 1:0{width}d}"
