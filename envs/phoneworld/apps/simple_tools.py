"""What the Simple Mobile Tools apps (Simple Contacts Pro, Simple Dialer, Simple SMS Messenger)
share: their font size and theme tables, their widgets (the search bar, tabs, the contact row,
the list placeholder, settings rows) and screens of their commons library (Customize colors,
About), and the base class of the three apps (settings read with the app's defaults, the
handlers they have in common).

Not an app: this module defines no ``APP``, so the app discovery of this package skips it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

from tasklang.envs.phoneworld import widgets as w
from tasklang.envs.phoneworld.app import App, Ctx, Dialog, Screen
from tasklang.envs.phoneworld.apps.common import checkbox
from tasklang.envs.phoneworld.widgets import View

COMMONS = "com.simplemobiletools.commons.activities"
FONT_SIZES = (
    ("small", "Small"),
    ("medium", "Medium"),
    ("large", "Large"),
    ("extra_large", "Extra large"),
)
THEMES = (
    ("light", "Light"),
    ("dark", "Dark"),
    ("black_white", "Black & White"),
    ("custom", "Custom"),
)


def font_label(value: Any) -> str:
    return dict(FONT_SIZES).get(value, "Medium")


def theme_label(value: Any) -> str:
    return dict(THEMES).get(value, "Dark")


def section(text: str, rid: str = "") -> View:
    """A section heading of a settings screen."""
    return View(w.TEXT, text=text, rid=rid, height=110)


def menu_dialog(entries: Iterable[tuple[str, str, Any]]) -> Dialog:
    """The overflow menu: ``(label, key, arg)`` entries."""
    items = [
        View(
            w.TEXT,
            text=text,
            rid="android:id/title",
            clickable=True,
            focusable=True,
            on_click=key,
            arg=arg,
            height=130,
        )
        for text, key, arg in entries
    ]
    return Dialog(title="", items=items)


class SimpleToolsApp(App):
    """Base class of the Simple Mobile Tools apps."""

    defaults: ClassVar[dict[str, Any]] = {}  # setting -> its value until the user changes it

    def setting_of(self, ctx: Ctx, name: str) -> Any:
        value = ctx.setting(name)
        return self.defaults.get(name) if value is None else value

    # ------------------------------------------------------------ handlers
    def on_toggle_setting(self, ctx: Ctx, arg: Any) -> None:
        ctx.set(arg, not bool(self.setting_of(ctx, arg)))

    def on_tab(self, ctx: Ctx, arg: Any) -> None:
        assert ctx.route is not None
        if arg != ctx.route.arg("tab", "contacts"):
            ctx.hide_keyboard()
            ctx.replace("main", tab=arg)

    def on_search(self, ctx: Ctx, arg: Any) -> None:
        ctx.hide_keyboard()

    def on_settings(self, ctx: Ctx, arg: Any) -> None:
        ctx.hide_keyboard()
        ctx.push("settings")

    def on_about(self, ctx: Ctx, arg: Any) -> None:
        ctx.hide_keyboard()
        ctx.push("about")

    def on_customize_colors(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("colors")

    # ------------------------------------------------------------ the main screen
    def search_bar(self, buttons: list[View], weight: float) -> View:
        """The top bar: the search field, then ``buttons``."""
        field = View(
            w.TEXT,
            rid=self.rid("top_toolbar_search"),
            edit="search",
            hint="Search",
            on_enter="search",
            weight=weight,
        )
        return View(
            w.LINEAR,
            rid=self.rid("top_app_bar_layout"),
            horizontal=True,
            children=[field, *buttons],
            height=147,
        )

    def tab_views(self, tabs: Iterable[tuple[str, str]], current: str) -> list[View]:
        """The bottom tabs: ``(tab, label)``; a tap sends ``tab``."""
        return [
            View(
                w.LINEAR,
                desc=label,
                clickable=True,
                focusable=True,
                selected=key == current,
                on_click="tab",
                arg=key,
                children=[View(w.TEXT, text=label, rid=self.rid("tab_item_label"))],
            )
            for key, label in tabs
        ]

    def contact_frame(
        self, rids: tuple[str, str, str], texts: list[View], key: str, arg: Any, height: int
    ) -> View:
        """A contact of a list: ``rids`` of the frame, its holder and the photo; ``texts``
        beside the photo."""
        frame, holder, image = rids
        return View(
            w.FRAME,
            rid=self.rid(frame),
            clickable=True,
            long_clickable=True,
            focusable=True,
            on_click=key,
            arg=arg,
            height=height,
            children=[
                View(
                    w.RELATIVE,
                    rid=self.rid(holder),
                    horizontal=True,
                    children=[
                        View(w.IMAGE, rid=self.rid(image), weight=0.18),
                        View(w.LINEAR, children=texts, weight=0.82),
                    ],
                )
            ],
        )

    def list_item(
        self,
        rid: str,
        key: str,
        arg: Any,
        height: int,
        children: list[View],
        long_clickable: bool = True,
    ) -> View:
        """A row of a list (its views side by side); a tap sends ``key`` with ``arg``."""
        return View(
            w.RELATIVE,
            rid=self.rid(rid),
            clickable=True,
            long_clickable=long_clickable,
            focusable=True,
            on_click=key,
            arg=arg,
            horizontal=True,
            height=height,
            children=children,
        )

    def placeholder(
        self,
        text: str,
        action: str | None = None,
        key: str | None = None,
        rid: str = "fragment_placeholder",
    ) -> list[View]:
        """An empty list's text, and a tappable ``action`` under it."""
        rows = [View(w.TEXT, text=text, rid=self.rid(rid), height=160)]
        if action is not None:
            rows.append(
                View(
                    w.TEXT,
                    text=action,
                    rid=self.rid(f"{rid}_2"),
                    clickable=True,
                    focusable=True,
                    on_click=key,
                    height=140,
                )
            )
        return rows

    # ------------------------------------------------------------ settings
    def pref_row(
        self, title: str, key: str, rid: str, summary: str | None = None, summary_height: int = 80
    ) -> View:
        """A settings row that opens something: its title, and its value under it."""
        kids = [View(w.TEXT, text=title, rid=self.rid(f"{rid}_label"), height=90)]
        if summary is not None:
            kids.append(View(w.TEXT, text=summary, rid=self.rid(rid), height=summary_height))
        return View(
            w.RELATIVE,
            rid=self.rid(f"{rid}_holder"),
            clickable=True,
            focusable=True,
            on_click=key,
            height=170 if summary is not None else 150,
            children=kids,
        )

    def checkbox_row(self, ctx: Ctx, name: str, text: str, rid: str = "") -> View:
        """A settings row with the check box of the boolean setting ``name``."""
        rid = rid or f"settings_{name}"
        return View(
            w.RELATIVE,
            rid=self.rid(f"{rid}_holder"),
            clickable=True,
            focusable=True,
            on_click="toggle_setting",
            arg=name,
            height=150,
            children=[
                checkbox(
                    text, bool(self.setting_of(ctx, name)), "toggle_setting", name, self.rid(rid)
                )
            ],
        )

    def colors_screen(self, theme: Any, key: str) -> Screen:
        """Customize colors: the theme (a tap sends ``key``)."""
        return Screen(
            title="Customize colors",
            up=True,
            rows=[self.pref_row("Theme", key, "customization_theme", theme_label(theme))],
            activity=f"{COMMONS}.CustomizationActivity",
            list_rid=self.rid("customization_holder"),
            list_cls=w.SCROLL,
        )

    def about_screen(self, name: str, version: str) -> Screen:
        return Screen(
            title="About",
            up=True,
            rows=[
                View(w.TEXT, text=name, rid=self.rid("about_app_name"), height=150),
                View(w.TEXT, text=version, rid=self.rid("about_app_version"), height=120),
            ],
            activity=f"{COMMONS}.AboutActivity",
            list_rid=self.rid("about_holder"),
            list_cls=w.SCROLL,
        )
