"""UI predicates over a uiautomator tree: selectors, states, and taps inside bounds."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lxml import etree
from tasklang.verifiers.compare import norm_text
from tasklang.verifiers.snapshot import UIElement, UiParseError, parse_ui_xml

from tasklang import ir

STATE_ATTRS = {
    "checked": "checked", "selected": "selected", "focused": "focused", "enabled": "enabled",
    "clickable": "clickable", "scrollable": "scrollable",
}  # fmt: skip


@dataclass
class Screen:
    """One UI tree: its elements in document order and, when known, its XML."""

    elements: list[UIElement]
    xml: str | None = None

    @classmethod
    def from_parts(cls, xml: str | None, elements: list[UIElement] | None) -> Screen:
        if xml:
            _, parsed = parse_ui_xml(xml)
            return cls(parsed, xml)
        listed = [
            e if e.index is not None else e.model_copy(update={"index": i})
            for i, e in enumerate(elements or [])
        ]
        return cls(listed, None)

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

    def select(self, selector: ir.Selector) -> list[UIElement]:
        """The elements that match every attribute of the selector."""
        chosen = list(self.elements)
        for attr in selector.attrs:
            if attr.attr == "xpath":
                indices = self.xpath_indices(attr.value) or set()
                chosen = [e for e in chosen if e.index in indices]
            else:
                chosen = [e for e in chosen if attribute_matches(e, attr.attr, attr.value)]
        return chosen


def attribute_matches(element: UIElement, attr: str, value: str) -> bool:
    """One selector attribute against one element.

    `text` and `desc` compare normalized text; `id` may omit the `package:id/` prefix;
    `class` may omit the package (`Switch` matches `android.widget.Switch`).
    """
    if attr == "text":
        return norm_text(element.text) == norm_text(value)
    if attr == "desc":
        return norm_text(element.content_desc) == norm_text(value)
    if attr == "id":
        rid = element.resource_id
        return (
            rid == value
            or rid.endswith(":id/" + value)
            or (
                ":id/" in value
                and rid.split(":id/")[-1] == value.split(":id/")[-1]
                and rid.split(":id/")[0] == value.split(":id/")[0]
            )
        )
    if attr == "class":
        return element.class_name == value or element.class_name.rsplit(".", 1)[-1] == value
    if attr == "package":
        return element.package == value
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


def action_target(
    screen: Screen, index: int | None, x: float | None, y: float | None
) -> list[UIElement]:
    """The elements an action hits: the one at ``index``, or all whose bounds hold (x, y)."""
    if index is not None:
        return [e for e in screen.elements if e.index == index]
    if x is None or y is None:
        return []
    return [e for e in screen.elements if e.contains(x, y)]
