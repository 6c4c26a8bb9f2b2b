"""World snapshots and UI trees: what a verifier looks at.

A snapshot holds the typed state of each app (collections of records and settings, as
JSON values: money in cents, dates as ISO text), the foreground app, the UI tree and the
clock. PhoneWorld produces snapshots directly; the device backend builds them from probes.
"""

from __future__ import annotations

import re
from typing import Any
from xml.etree import ElementTree

from pydantic import BaseModel, ConfigDict, Field, field_validator

MAX_COORD = 1_000_000
_BOUNDS = re.compile(r"\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]")


class AppState(BaseModel):
    """One app's state: records by collection, and settings."""

    model_config = ConfigDict(extra="forbid")

    collections: dict[str, list[dict[str, Any]]] = Field(default_factory=dict)
    settings: dict[str, Any] = Field(default_factory=dict)


class Foreground(BaseModel):
    model_config = ConfigDict(extra="forbid")

    package: str | None = None
    activity: str | None = None


class UIElement(BaseModel):
    """One node of a uiautomator hierarchy, with the attributes a real dump has.

    ``index`` is the node's position in the element list (the index actions refer to);
    a dump's own sibling index is kept as ``sibling_index``.
    """

    model_config = ConfigDict(extra="allow")

    index: int | None = None  # position in the element list; None: use the list position
    text: str = ""
    resource_id: str = ""
    class_name: str = ""
    package: str = ""
    content_desc: str = ""
    checkable: bool = False
    checked: bool = False
    clickable: bool = False
    enabled: bool = True
    focusable: bool = False
    focused: bool = False
    scrollable: bool = False
    long_clickable: bool = False
    password: bool = False
    selected: bool = False
    bounds: tuple[int, int, int, int] | None = None  # left, top, right, bottom

    @field_validator("bounds")
    @classmethod
    def _sane_bounds(
        cls, value: tuple[int, int, int, int] | None
    ) -> tuple[int, int, int, int] | None:
        if value is not None and any(abs(v) > MAX_COORD for v in value):
            raise ValueError(f"bounds beyond +-{MAX_COORD} pixels")
        return value

    def contains(self, x: float, y: float) -> bool:
        """Whether the point lies inside the element's bounds."""
        if self.bounds is None:
            return False
        left, top, right, bottom = self.bounds
        return left <= x < right and top <= y < bottom

    @property
    def center(self) -> tuple[float, float] | None:
        if self.bounds is None:
            return None
        left, top, right, bottom = self.bounds
        return (left + right) / 2, (top + bottom) / 2


class WorldSnapshot(BaseModel):
    """App states, foreground app, UI tree and clock at one moment."""

    model_config = ConfigDict(extra="forbid")

    apps: dict[str, AppState] = Field(default_factory=dict)
    foreground: Foreground | None = None
    ui_xml: str | None = None
    ui_elements: list[UIElement] | None = None
    clock: str | None = None  # ISO datetime, local time of ``tz``
    tz: str = "UTC"

    def app(self, name: str) -> AppState:
        return self.apps.get(name) or AppState()


_XML_ATTRS = {
    "resource-id": "resource_id",
    "class": "class_name",
    "content-desc": "content_desc",
    "long-clickable": "long_clickable",
}
BOOL_ATTRS = frozenset({
    "checkable", "checked", "clickable", "enabled", "focusable", "focused", "scrollable",
    "long_clickable", "password", "selected",
})  # fmt: skip


class UiParseError(ValueError):
    """A UI hierarchy that is not well-formed XML."""


def parse_bounds(text: str) -> tuple[int, int, int, int] | None:
    """``[l,t][r,b]`` as a tuple.

    >>> parse_bounds("[0,84][1440,2392]")
    (0, 84, 1440, 2392)
    """
    m = _BOUNDS.fullmatch(text.strip())
    if not m:
        return None
    box = (int(m[1]), int(m[2]), int(m[3]), int(m[4]))
    return box if max(box) <= MAX_COORD and min(box) >= -MAX_COORD else None


def parse_ui_root(xml: str) -> ElementTree.Element:
    """The root of a ``uiautomator dump`` (raises UiParseError)."""
    try:
        return ElementTree.fromstring(xml)
    except ElementTree.ParseError as exc:
        raise UiParseError(f"UI hierarchy is not well-formed XML: {exc}") from None
    except (UnicodeError, ValueError) as exc:
        raise UiParseError(f"UI hierarchy cannot be read: {exc}") from None


def parse_ui_xml(xml: str) -> tuple[ElementTree.Element, list[UIElement]]:
    """Parse a ``uiautomator dump``: the XML root and its nodes in document order."""
    root = parse_ui_root(xml)
    elements = []
    for i, node in enumerate(root.iter("node")):
        elements.append(element_from_attrs(node.attrib, i))
    return root, elements


def element_from_attrs(attrs: dict[str, str], position: int) -> UIElement:
    """A UIElement from uiautomator attribute names (``resource-id``, ``bounds``...).

    Values are converted here, so the element is built without a second validation.
    """
    values: dict[str, Any] = {"index": position}
    for key, raw in attrs.items():
        name = _NAMES.get(key)
        if name is None:
            name = _NAMES.setdefault(key, _XML_ATTRS.get(key, key.replace("-", "_")))
        if name in BOOL_ATTRS:
            values[name] = raw == "true"
        elif name == "bounds":
            values[name] = parse_bounds(raw)
        elif name == "index":  # uiautomator's index among siblings; ours is list position
            values["sibling_index"] = int(raw) if raw.lstrip("-").isdigit() else None
        elif name in _FIELDS or name.isidentifier():
            values[name] = raw
    return _build(values)


_NAMES: dict[str, str] = {}
_FIELDS = frozenset(UIElement.model_fields)
_DEFAULTS = dict(UIElement().__dict__)


def _build(values: dict[str, Any]) -> UIElement:
    """A UIElement from already-converted values (what ``model_construct`` does, faster)."""
    element = object.__new__(UIElement)
    fields = dict(_DEFAULTS)
    extra = {}
    for name, value in values.items():
        if name in _FIELDS:
            fields[name] = value
        else:
            extra[name] = value
    object.__setattr__(element, "__dict__", fields)
    object.__setattr__(element, "__pydantic_fields_set__", _FIELDS & values.keys())
    object.__setattr__(element, "__pydantic_extra__", extra)
    object.__setattr__(element, "__pydantic_private__", None)
    return element
