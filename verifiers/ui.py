"""UI predicates over a uiautomator tree: selectors, states, and taps inside bounds."""

from __future__ import annotations

import functools
from typing import Any

from lxml import etree

from tasklang import ir
from tasklang.verifiers.compare import norm_text
from tasklang.verifiers.snapshot import UIElement, UiParseError, element_from_attrs, parse_ui_root

STATE_ATTRS = {
    "checked": "checked", "selected": "selected", "focused": "focused", "enabled": "enabled",
    "clickable": "clickable", "scrollable": "scrollable",
}  # fmt: skip


# an AlertDialog's window: its parentPanel's parent and all it holds
_DIALOG = "//node[node[@resource-id='android:id/parentPanel']]/descendant-or-self::node"


class Screen:
    """One UI tree: its elements in document order and, when known, its XML.

    From XML, selectors read the raw attributes and an element object is built only for
    the nodes a clause looks at, so checking stays cheap on large dumps.
    """

    def __init__(
        self,
        elements: list[UIElement] | None = None,
        xml: str | None = None,
        raw: list[dict[str, str]] | None = None,
    ) -> None:
        self.xml = xml
        self._raw = raw
        self._built: dict[int, UIElement] = {}
        self._modal: set[int] | None = None
        self._elements = elements

    @classmethod
    def from_parts(cls, xml: str | None, elements: list[UIElement] | None) -> Screen:
        if xml:
            return cls(None, xml, _raw_nodes(xml))
        listed = [
            e if e.index is not None else e.model_copy(update={"index": i})
            for i, e in enumerate(elements or [])
        ]
        return cls(listed, None)

    def __len__(self) -> int:
        return len(self._raw) if self._raw is not None else len(self._elements or [])

    def element(self, i: int) -> UIElement:
        """The element at list position ``i``."""
        if self._raw is None:
            return (self._elements or [])[i]
        built = self._built.get(i)
        if built is None:
            built = self._built[i] = element_from_attrs(self._raw[i], i)
        return built

    @property
    def elements(self) -> list[UIElement]:
        return [self.element(i) for i in range(len(self))]

    def xpath_indices(self, expr: str) -> set[int] | None:
        """Positions of the elements an XPath selects (None when there is no XML)."""
        if self.xml is None:
            return None
        try:
            root = etree.fromstring(self.xml.encode("utf-8", "surrogatepass"))
            nodes = list(root.iter("node"))  # keeps the proxies alive while we compare them
            found = root.xpath(expr)
        except (etree.XMLSyntaxError, etree.XPathError, ValueError) as exc:
            raise UiParseError(f"cannot evaluate XPath `{expr}`: {exc}") from None
        if not isinstance(found, list):
            return set()
        return {i for i, n in enumerate(nodes) if any(n is f for f in found)}

    def modal(self) -> set[int]:
        """Positions of the elements of an alert dialog the screen shows (its
        ``android:id/parentPanel`` and what its window holds); empty: none, or no XML to
        tell."""
        if self._modal is None:
            self._modal = (self.xpath_indices(_DIALOG) or set()) if self.xml is not None else set()
        return self._modal

    def select(self, selector: ir.Selector) -> list[UIElement]:
        """The elements that match every attribute of the selector."""
        chosen: list[int] = list(range(len(self)))
        for attr in selector.attrs:
            if attr.attr == "xpath":
                indices = self.xpath_indices(attr.value) or set()
                chosen = [i for i in chosen if i in indices]
            else:
                chosen = [
                    i
                    for i in chosen
                    if value_matches(attr.attr, self._value(i, attr.attr), attr.value)
                ]
        return [self.element(i) for i in chosen]

    def _value(self, i: int, attr: str) -> str:
        if self._raw is not None:
            return self._raw[i].get(_RAW_KEYS[attr], "")
        return str(getattr(self.element(i), _ELEMENT_KEYS[attr]) or "")


@functools.lru_cache(maxsize=256)
def _raw_nodes(xml: str) -> list[dict[str, str]]:
    """The attributes of every node of a dump, in order (cached: screens often repeat;
    callers must not modify the result)."""
    return [dict(n.attrib) for n in parse_ui_root(xml).iter("node")]


_RAW_KEYS = {"text": "text", "desc": "content-desc", "id": "resource-id", "class": "class",
             "package": "package"}  # fmt: skip
_ELEMENT_KEYS = {"text": "text", "desc": "content_desc", "id": "resource_id",
                 "class": "class_name", "package": "package"}  # fmt: skip


@functools.lru_cache(maxsize=4096)
def _norm(value: str) -> str:
    return norm_text(value)


def attribute_matches(element: UIElement, attr: str, value: str) -> bool:
    """One selector attribute against one element (see ``value_matches``)."""
    return value_matches(attr, str(getattr(element, _ELEMENT_KEYS.get(attr, "text"), "")), value)


def value_matches(attr: str, actual: str, value: str) -> bool:
    """One selector attribute against an element's value for it.

    `text` and `desc` compare normalized text; `id` may omit the `package:id/` prefix;
    `class` may omit the package (`Switch` matches `android.widget.Switch`).
    """
    if attr in ("text", "desc"):
        return actual == value or (bool(actual) and norm_text(actual) == _norm(value))
    if attr == "id":
        return actual == value or actual.endswith(":id/" + value)
    if attr == "class":
        return actual == value or actual.rsplit(".", 1)[-1] == value
    if attr == "package":
        return actual == value
    return False


def states_hold(element: UIElement, states: dict[str, bool]) -> bool:
    return all(bool(getattr(element, STATE_ATTRS[name])) == want for name, want in states.items())


def describe(element: UIElement) -> dict[str, Any]:
    """The fields of an element worth citing as evidence."""
    data = {
        "index": element.index, "class": element.class_name, "resource_id": element.resource_id,
        "text": element.text, "content_desc": element.content_desc,
        "bounds": list(element.bounds) if element.bounds else None,
    }  # fmt: skip
    return {k: v for k, v in data.items() if v not in ("", None)}


TAPS = ("click", "double_tap", "long_press")


def touched(screen: Screen, index: int | None, x: float | None, y: float | None) -> list[UIElement]:
    """The elements a tap touches: every element whose bounds hold its point (the centre of
    the element at ``index``, when the tap names one), that element included."""
    named = action_target(screen, index, None, None) if index is not None else []
    if named:
        bounds = named[0].bounds
        if bounds is None:
            return named
        x, y = (bounds[0] + bounds[2]) / 2, (bounds[1] + bounds[3]) / 2
    if x is None or y is None:
        return named
    held = [e for e in screen.elements if e.contains(x, y)] + named
    modal = screen.modal()
    if modal:  # an alert dialog takes every tap: what lies under it is not touched
        held = [e for e in held if e.index in modal]
    first: dict[int | None, UIElement] = {}
    for e in held:
        first.setdefault(e.index, e)
    return list(first.values())


def touches(screen: Screen, selector: ir.Selector, index: int | None, x: float | None,
            y: float | None) -> bool:  # fmt: skip
    """Whether a tap touches an element the selector finds."""
    hit = {e.index for e in touched(screen, index, x, y)}
    return bool(hit) and any(e.index in hit for e in screen.select(selector))


def action_target(
    screen: Screen, index: int | None, x: float | None, y: float | None
) -> list[UIElement]:
    """The elements an action hits: the one at ``index``, or all whose bounds hold (x, y)."""
    if index is not None:
        if screen.xml is not None:
            return [screen.element(index)] if 0 <= index < len(screen) else []
        return [e for e in screen.elements if e.index == index]
    if x is None or y is None:
        return []
    return [e for e in screen.elements if e.contains(x, y)]
