"""Android widgets several PhoneWorld apps build the same way: toolbar image buttons, buttons,
switches, checkable items (radio buttons, check boxes), single-choice dialogs and popup menu
items.

Not an app: this module defines no ``APP``, so the app discovery of this package skips it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tasklang.envs.phoneworld import widgets as w
from tasklang.envs.phoneworld.app import Dialog
from tasklang.envs.phoneworld.widgets import View


def image_button(desc: str, key: str | None, arg: Any = None, rid: str = "") -> View:
    """An ``ImageButton`` of a toolbar or a row (a tap sends ``key``; None: it does nothing)."""
    return View(
        w.IMAGE_BUTTON,
        desc=desc,
        rid=rid,
        clickable=key is not None,
        focusable=key is not None,
        on_click=key,
        arg=arg,
        weight=0.15,
    )


def button(text: str, key: str | None, arg: Any = None, rid: str = "", **kw: Any) -> View:
    """A ``Button``; ``kw``: more of the view's attributes (height, weight...)."""
    return View(
        w.BUTTON,
        text=text,
        rid=rid,
        clickable=True,
        focusable=True,
        on_click=key,
        arg=arg,
        **kw,
    )


def switch(
    checked: bool,
    key: str,
    arg: Any,
    rid: str = "android:id/switch_widget",
    clickable: bool = False,
    enabled: bool = True,
    **kw: Any,
) -> View:
    """A ``Switch`` (not clickable by itself when its row takes the taps)."""
    return View(
        w.SWITCH,
        rid=rid,
        checkable=True,
        checked=checked,
        clickable=clickable,
        focusable=clickable,
        enabled=enabled,
        on_click=key if enabled else None,
        arg=arg,
        **kw,
    )


def check_item(
    cls: str,
    text: str,
    checked: bool,
    key: str,
    arg: Any,
    rid: str = "",
    height: int = 130,
    **kw: Any,
) -> View:
    """A checkable view (``RadioButton``, ``CheckBox``, ``CheckedTextView``) a tap on which
    sends ``key``; ``height`` 0: its natural height."""
    return View(
        cls,
        text=text,
        rid=rid,
        checkable=True,
        checked=checked,
        clickable=True,
        focusable=True,
        on_click=key,
        arg=arg,
        height=height,
        **kw,
    )


def radio(
    text: str, checked: bool, key: str, arg: Any, rid: str = "", height: int = 130, **kw: Any
) -> View:
    return check_item(w.RADIO, text, checked, key, arg, rid, height, **kw)


def checkbox(
    text: str, checked: bool, key: str, arg: Any, rid: str = "", height: int = 130, **kw: Any
) -> View:
    return check_item(w.CHECKBOX, text, checked, key, arg, rid, height, **kw)


def choice_dialog(
    title: str,
    options: Iterable[tuple[Any, str]],
    current: Any,
    key: str,
    tag: str | None = None,
    *,
    cls: str = w.RADIO,
    rid: str = "",
    height: int = 130,
    cancel: bool = False,
) -> Dialog:
    """A single-choice dialog: one checkable item per ``(value, label)`` option, the one equal
    to ``current`` checked; a tap sends ``key`` with the value (``(tag, value)`` when a tag is
    given). ``cancel``: a "Cancel" button."""
    items = [
        check_item(
            cls, label, value == current, key, value if tag is None else (tag, value), rid, height
        )
        for value, label in options
    ]
    return Dialog(title, items=items, buttons=[("Cancel", None, None)] if cancel else [])


def menu_item(label: str, key: str, arg: Any = None, height: int = 132) -> View:
    """An item of a popup menu (the overflow "More options")."""
    return View(
        w.LINEAR,
        clickable=True,
        focusable=True,
        on_click=key,
        arg=arg,
        height=height,
        children=[View(w.TEXT, text=label, rid="android:id/title")],
    )
