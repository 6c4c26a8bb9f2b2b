"""Views: the widget tree PhoneWorld screens are made of, and its uiautomator XML form.

A :class:`View` carries exactly the attributes a real ``uiautomator dump`` node has (class
names are real Android widget classes, resource ids are ``package:id/name``), plus what the
phone needs to act on it: the handler key a click or long press sends to the app, and the
form field an editable text writes to. Those never reach the XML.

Serialization builds the XML string directly (no DOM): it is the hot path of every step.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

Bounds = tuple[int, int, int, int]

XML_HEADER = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>"

# Real Android widget classes.
FRAME = "android.widget.FrameLayout"
LINEAR = "android.widget.LinearLayout"
RELATIVE = "android.widget.RelativeLayout"
VIEWGROUP = "android.view.ViewGroup"
VIEW = "android.view.View"
TEXT = "android.widget.TextView"
EDIT = "android.widget.EditText"
BUTTON = "android.widget.Button"
IMAGE_BUTTON = "android.widget.ImageButton"
IMAGE = "android.widget.ImageView"
SWITCH = "android.widget.Switch"
CHECKBOX = "android.widget.CheckBox"
RADIO = "android.widget.RadioButton"
RECYCLER = "androidx.recyclerview.widget.RecyclerView"
SCROLL = "android.widget.ScrollView"
SEEKBAR = "android.widget.SeekBar"
TOOLBAR = "android.view.ViewGroup"


@dataclass(slots=True)
class View:
    """One node of a screen's widget tree."""

    cls: str = TEXT
    text: str = ""
    rid: str = ""  # resource id: "com.example:id/name" (or "android:id/title")
    desc: str = ""  # content-desc
    clickable: bool = False
    long_clickable: bool = False
    checkable: bool = False
    checked: bool = False
    focusable: bool = False
    focused: bool = False
    scrollable: bool = False
    enabled: bool = True
    selected: bool = False
    password: bool = False
    children: list[View] = field(default_factory=list)
    # layout
    height: int = 0  # preferred height in pixels (0: derived from the children)
    horizontal: bool = False  # lay the children out side by side
    weight: float = 1.0  # share of the width when laid out side by side
    # behaviour (never serialized)
    on_click: str | None = None  # the handler key a click sends to the app
    on_long: str | None = None  # the handler key a long press sends
    arg: Any = None  # the value sent with the key (a record key, an index)
    edit: str | None = None  # an editable text: the form field it writes to
    on_enter: str | None = None  # an editable text: the key the keyboard's enter sends
    hint: str = ""  # an empty editable text shows its hint as its text
    # set by the phone when composing
    package: str = ""  # empty: its parent's
    bounds: Bounds = (0, 0, 0, 0)

    def walk(self) -> Iterator[View]:
        """This view and every view under it, in document order."""
        return iter(self.flat())

    def flat(self) -> list[View]:
        """This view and every view under it, in document order, as a list."""
        out: list[View] = []
        append = out.append
        todo = [self]
        pop, push = todo.pop, todo.extend
        while todo:
            v = pop()
            append(v)
            if v.children:
                push(reversed(v.children))
        return out

    @property
    def acts(self) -> bool:
        """Whether a click on this view does something."""
        return self.on_click is not None or self.edit is not None or self.checkable


def text_row(text: str, rid: str = "", **kw: Any) -> View:
    return View(TEXT, text=text, rid=rid, height=kw.pop("height", 120), **kw)


def layout(view: View, left: int, top: int, right: int, bottom: int) -> None:
    """Give ``view`` and its children bounds inside the box (children share it evenly, or
    by their preferred heights when stacked vertically)."""
    view.bounds = (left, top, right, bottom)
    kids = view.children
    if not kids:
        return
    if view.horizontal:
        total = sum(k.weight for k in kids) or 1.0
        x = left
        for i, k in enumerate(kids):
            w = right - x if i == len(kids) - 1 else int((right - left) * k.weight / total)
            layout(k, x, top, x + w, bottom)
            x += w
        return
    wanted = [natural_height(k) for k in kids]
    space = bottom - top
    total = sum(wanted) or 1
    y = top
    for k, h in zip(kids, wanted, strict=True):
        h = h if total <= space else max(1, int(h * space // total))
        layout(k, left, y, right, min(bottom, y + h))
        y += h


def natural_height(view: View) -> int:
    if view.height:
        return view.height
    if not view.children:
        return 120
    if view.horizontal:
        return max(natural_height(k) for k in view.children)
    return sum(natural_height(k) for k in view.children)


_SPECIAL = re.compile(r'[&<>"\x00-\x1f]')
_CONTROL = {c: None for c in range(32) if chr(c) not in "\n\r\t"}
_ENTITIES = str.maketrans(
    {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "\n": "&#10;", "\r": "&#13;",
     "\t": "&#9;", **{chr(c): None for c in _CONTROL}}
)  # fmt: skip


def _esc(text: str) -> str:
    """Text as an XML attribute value; characters XML 1.0 cannot carry are dropped, as
    uiautomator does."""
    if not text or _SPECIAL.search(text) is None:
        return text
    return text.translate(_ENTITIES)


_B = ("false", "true")


_FLAGS: dict[tuple[bool, ...], str] = {}


def _flags(*values: bool) -> str:
    names = ("checkable", "checked", "clickable", "enabled", "focusable", "focused",
             "scrollable", "long-clickable", "password", "selected")  # fmt: skip
    return " ".join(f'{n}="{_B[v]}"' for n, v in zip(names, values, strict=True))


def to_xml(root: View, rotation: int = 0) -> str:
    """The hierarchy as ``uiautomator dump`` writes it (same attributes, same order)."""
    out = [XML_HEADER, f'<hierarchy rotation="{rotation}">']
    append = out.append

    def node(v: View, index: int, package: str) -> None:
        left, top, right, bottom = v.bounds
        package = v.package or package
        key = (v.checkable, v.checked, v.clickable, v.enabled, v.focusable, v.focused,
               v.scrollable, v.long_clickable, v.password, v.selected)  # fmt: skip
        flags = _FLAGS.get(key)
        if flags is None:
            flags = _FLAGS[key] = _flags(*key)
        text, desc = v.text, v.desc
        if text and _SPECIAL.search(text) is not None:
            text = text.translate(_ENTITIES)
        if desc and _SPECIAL.search(desc) is not None:
            desc = desc.translate(_ENTITIES)
        append(
            f'<node index="{index}" text="{text}" resource-id="{v.rid}" '
            f'class="{v.cls}" package="{package}" content-desc="{desc}" {flags} '
            f'bounds="[{left},{top}][{right},{bottom}]"'
        )
        if v.children:
            append(">")
            for i, child in enumerate(v.children):
                node(child, i, package)
            append("</node>")
        else:
            append(" />")

    node(root, 0, root.package)
    append("</hierarchy>")
    return "".join(out)


def elements(root: View) -> list[dict[str, Any]]:
    """The element list (document order, the positions actions refer to), as plain dicts
    with the verifier's ``UIElement`` field names."""
    packages: list[str] = []

    def visit(v: View, package: str) -> None:
        package = v.package or package
        packages.append(package)
        for child in v.children:
            visit(child, package)

    visit(root, root.package)
    return [
        {
            "index": i,
            "text": v.text,
            "resource_id": v.rid,
            "class_name": v.cls,
            "package": packages[i],
            "content_desc": v.desc,
            "checkable": v.checkable,
            "checked": v.checked,
            "clickable": v.clickable,
            "enabled": v.enabled,
            "focusable": v.focusable,
            "focused": v.focused,
            "scrollable": v.scrollable,
            "long_clickable": v.long_clickable,
            "password": v.password,
            "selected": v.selected,
            "bounds": v.bounds,
        }
        for i, v in enumerate(root.walk())
    ]


def hit(root: View, x: float, y: float) -> View | None:
    """The view a tap at (x, y) reaches: the deepest view under the point that does
    something, looking at later (drawn on top) siblings first; None when nothing acts."""

    def inside(v: View) -> bool:
        left, top, right, bottom = v.bounds
        return left <= x < right and top <= y < bottom

    def visit(v: View) -> View | None:
        if not inside(v):
            return None
        for child in reversed(v.children):
            found = visit(child)
            if found is not None:
                return found
        return v if v.acts or v.clickable else None

    return visit(root)
