"""Observations as the policy reads them: a compact list of the screen's UI elements.

One line per element an agent could name or act on (text, content-desc, checkable, editable,
scrollable), keeping the element's index in the full element list, the one actions refer to::

    screen com.android.settings .Settings
    [15] TextView "Network & internet" id=title
    [20] Switch id=switch_widget checkable checked

Layout containers without a label are left out: they add length and nothing to choose by.
The same text is produced from a PhoneWorld episode, a device dump or a recorded trajectory.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tasklang.verifiers.snapshot import UIElement
from tasklang.verifiers.trajectory import Observation
from tasklang.verifiers.ui import Screen

MAX_TEXT = 60  # characters of an element's text or description kept
MAX_LINES = 80  # elements listed at most (the rest are summarized by a count)

_EDITABLE = ("EditText", "AutoCompleteTextView", "SearchView")


def _short_class(name: str) -> str:
    return name.rsplit(".", 1)[-1]


def _short_id(rid: str) -> str:
    return rid.split(":id/", 1)[-1] if ":id/" in rid else rid


def _quote(text: str) -> str:
    flat = " ".join(text.split())
    if len(flat) > MAX_TEXT:
        flat = flat[: MAX_TEXT - 1] + "…"
    return '"' + flat.replace('"', "'") + '"'


def _editable(e: UIElement) -> bool:
    return any(e.class_name.endswith(c) for c in _EDITABLE)


def keep(e: UIElement) -> bool:
    """Whether an element is listed: it has a label, or a state or role an agent acts on."""
    return bool(
        e.text or e.content_desc or e.checkable or e.scrollable or e.focused or _editable(e)
    )


def element_line(index: int, e: UIElement) -> str:
    """One element as a line: index, class, text, resource-id, content-desc, flags."""
    parts = [f"[{index}]", _short_class(e.class_name) or "View"]
    if e.text:
        parts.append(_quote(e.text))
    if e.resource_id:
        parts.append("id=" + _short_id(e.resource_id))
    if e.content_desc:
        parts.append("desc=" + _quote(e.content_desc))
    flags = [
        name
        for name, on in (
            ("checkable", e.checkable),
            ("checked", e.checked),
            ("selected", e.selected),
            ("focused", e.focused),
            ("editable", _editable(e)),
            ("scrollable", e.scrollable),
            ("long-clickable", e.long_clickable),
            ("disabled", not e.enabled),
        )
        if on
    ]
    parts.extend(flags)
    return " ".join(parts)


def render_elements(
    elements: Iterable[UIElement], package: str | None = None, activity: str | None = None
) -> str:
    """The compact text of one screen."""
    lines = [f"screen {package or '?'} {activity or '?'}"]
    listed = [(i if e.index is None else e.index, e) for i, e in enumerate(elements)]
    shown = [(i, e) for i, e in listed if keep(e)]
    for i, e in shown[:MAX_LINES]:
        lines.append(element_line(i, e))
    if len(shown) > MAX_LINES:
        lines.append(f"... {len(shown) - MAX_LINES} more elements")
    return "\n".join(lines)


def render_dicts(
    elements: list[dict[str, Any]], package: str | None = None, activity: str | None = None
) -> str:
    """The compact text of a screen given as element dicts (PhoneWorld's ``elements()``)."""
    return render_elements([UIElement.model_validate(e) for e in elements], package, activity)


def render_observation(obs: Observation) -> str:
    """The compact text of a recorded observation (XML or element list)."""
    if obs.ui_elements is not None:
        elements = obs.ui_elements
    elif obs.ui_xml:
        elements = Screen.from_parts(obs.ui_xml, None).elements
    else:
        return f"screen {obs.package or '?'} {obs.activity or '?'}\n(no UI recorded)"
    return render_elements(elements, obs.package, obs.activity)
