"""AutoDroid ``utg.yaml`` records: screens as simplified HTML, the element acted on, the input.

AutoDroid (``droidbot/device_state.py``, ``get_described_actions``) writes each screen as
one line per element: ``<p>`` a text, ``<button>`` a clickable view (the texts of its
children joined by ``<br>``), ``<checkbox checked=..>`` a checkable one, ``<input>`` an
editable one; a ``text='..'`` attribute carries the content description; the last line,
``<button>go back</button>``, is the Back key. There are no classes, resource ids or bounds,
so this reader lays the elements out top to bottom (``layout = "inferred"``) with the widget
class each kind of element is drawn with, and keeps the texts, descriptions and checked
states exactly.

``new_state_str`` does not name the next record's state (it is a hash of a state prompt and
never equals a ``state_str``); AutoDroid's own memory builder links record *i* to record
*i + 1*, and so does this reader.
"""

from __future__ import annotations

import csv
import hashlib
import re
from pathlib import Path
from typing import Any

from tasklang.envs.phoneworld.reconstruct.model import Event, Node, ReadError, Recording, State

WIDTH, HEIGHT = 1080, 2400
TOP = 84  # below the status bar
ROW = 147
KNOWN_KEYS = {"State", "Choice", "Input", "state_str", "new_state_str"}
_ELEMENT = re.compile(r"<(\w+)\s+id=(\d+)([^>]*)>(.*?)</\1>", re.S)
_CHECKED = re.compile(r"checked=(True|False)")
_DESC = re.compile(r"text='(.*)'", re.S)
CLASSES = {
    "p": "android.widget.TextView",
    "button": "android.widget.Button",
    "checkbox": "android.widget.CheckBox",
    "input": "android.widget.EditText",
}


def parse_html(html: str) -> list[dict[str, Any]]:
    """The elements of one screen, in order: tag, id, texts (the ``<br>`` parts), desc,
    checked."""
    out = []
    for m in _ELEMENT.finditer(html):
        tag, attrs, inner = m.group(1), m.group(3), m.group(4)
        checked = _CHECKED.search(attrs)
        desc = _DESC.search(attrs)
        parts = [p.strip() for p in inner.split("<br>")]
        out.append(
            {
                "tag": tag,
                "id": int(m.group(2)),
                "parts": [p for p in parts if p] or [""],
                "desc": desc.group(1) if desc else "",
                "checked": checked is not None and checked.group(1) == "True",
            }
        )
    return out


def is_back(element: dict[str, Any]) -> bool:
    return element["tag"] == "button" and element["parts"] == ["go back"] and not element["desc"]


def layout_state(elements: list[dict[str, Any]], package: str) -> tuple[list[Node], dict[int, int]]:
    """Nodes for the elements, stacked top to bottom, and the element id -> node index map.

    A button with several text parts becomes a clickable row holding one text per part
    (how a list item with a name, a snippet and a date is built)."""
    shown = [e for e in elements if not is_back(e)]
    row = min(ROW, (HEIGHT - TOP) // max(1, len(shown)))
    nodes = [Node("android.widget.FrameLayout", bounds=(0, 0, WIDTH, HEIGHT), package=package)]
    content = Node(
        "android.widget.LinearLayout", rid="android:id/content", parent=0, package=package
    )
    content.bounds = (0, TOP, WIDTH, TOP + row * len(shown))
    nodes.append(content)
    nodes[0].children.append(1)
    index: dict[int, int] = {}
    for k, e in enumerate(shown):
        top = TOP + k * row
        box = (0, top, WIDTH, top + row)
        me = len(nodes)
        index[e["id"]] = me
        nodes[1].children.append(me)
        multi = e["tag"] == "button" and len(e["parts"]) > 1
        node = Node(
            "android.widget.LinearLayout" if multi else CLASSES.get(e["tag"], "android.view.View"),
            text="" if multi else e["parts"][0],
            desc=e["desc"],
            bounds=box,
            parent=1,
            package=package,
            clickable=e["tag"] in ("button", "checkbox", "input"),
            checkable=e["tag"] == "checkbox",
            checked=e["checked"],
            editable=e["tag"] == "input",
            focusable=e["tag"] in ("button", "checkbox", "input"),
        )
        nodes.append(node)
        if multi:
            height = max(1, row // len(e["parts"]))
            for j, part in enumerate(e["parts"]):
                node.children.append(len(nodes))
                y = top + j * height
                nodes.append(
                    Node(
                        "android.widget.TextView",
                        text=part,
                        bounds=(0, y, WIDTH, y + height),
                        parent=me,
                        package=package,
                    )
                )
    return nodes, index


def package_for(utg: Path, app: str) -> str:
    """The app's package from AutoDroid's ``tasks.csv`` (its apk file name), when the
    ``utg.yaml`` sits in an AutoDroid checkout (``memory/utgs/<app>/utg.yaml``)."""
    tasks = utg.parent.parent.parent.parent / "tasks.csv"
    if not tasks.is_file():
        return ""
    try:
        rows = list(csv.reader(tasks.read_text(encoding="utf-8-sig").splitlines()))
    except (OSError, UnicodeDecodeError, csv.Error):
        return ""
    for row in rows:
        if len(row) > 1 and row[0].strip().casefold() == app.casefold():
            m = re.search(r"apks/([A-Za-z][\w.]*?)_\d[^/]*\.apk", row[1])
            if m:
                return m.group(1)
    return ""


def load_records(path: Path, gaps: list[str]) -> list[Any]:
    """The ``records`` list; a file cut short keeps the records before the cut."""
    try:
        import yaml  # type: ignore[import-untyped, unused-ignore]
    except ImportError:
        raise ReadError(
            f"{path}: reading AutoDroid utg.yaml needs PyYAML (pip install pyyaml)"
        ) from None
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ReadError(f"{path}: cannot read: {exc}") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        cut = text.rfind("\n- ")
        try:
            data = yaml.safe_load(text[:cut]) if cut > 0 else None
        except yaml.YAMLError:
            data = None
        if not isinstance(data, dict) or not isinstance(data.get("records"), list):
            raise ReadError(f"{path}: not valid YAML{where}") from None
        gaps.append(
            f"{path}: YAML broken{where}; kept the {len(data['records'])} records before it"
        )
    if not isinstance(data, dict) or not isinstance(data.get("records"), list):
        raise ReadError(f"{path}: expected a mapping with a `records` list (AutoDroid utg.yaml)")
    return list(data["records"])


def state_id(record: dict[str, Any], html: str) -> str:
    s = record.get("state_str")
    if isinstance(s, list) and s and isinstance(s[0], str):
        return s[0]
    if isinstance(s, str) and s:
        return s
    return "html:" + hashlib.sha256(html.encode()).hexdigest()[:32]


def read_autodroid(path: Path) -> Recording:
    """Read one AutoDroid ``utg.yaml`` (or the folder holding it)."""
    if path.is_dir():
        path = path / "utg.yaml"
    if not path.is_file():
        raise ReadError(f"{path}: no such file")
    app = path.parent.name if path.stem == "utg" else path.stem  # memory/utgs/<app>/utg.yaml
    rec = Recording(app=app, format="autodroid", path=str(path), width=WIDTH, height=HEIGHT)
    records = load_records(path, rec.gaps)
    rec.package = package_for(path, app)
    if not rec.package:
        rec.gaps.append(f"{path}: no package name (no AutoDroid tasks.csv names this app)")
    previous: tuple[str, dict[int, int], list[dict[str, Any]], dict[str, Any]] | None = None
    unknown: set[str] = set()
    for i, r in enumerate(records):
        where = f"{path}: record {i + 1}"
        if not isinstance(r, dict) or not isinstance(r.get("State"), str):
            rec.gaps.append(f"{where}: no `State` text (skipped; the chain breaks here)")
            previous = None
            continue
        unknown |= set(r) - KNOWN_KEYS
        html = r["State"]
        elements = parse_html(html)
        if not elements:
            rec.gaps.append(f"{where}: `State` holds no elements (skipped)")
            previous = None
            continue
        sid = state_id(r, html)
        if sid not in rec.states:
            nodes, _ = layout_state(elements, rec.package)
            rec.add_state(
                State(sid, nodes, package=rec.package, source=f"{path}#{i + 1}", layout="inferred")
            )
        _, index = layout_state(elements, rec.package)
        if previous is not None:
            rec.events.append(make_event(len(rec.events), previous, sid, rec.gaps))
        rec.start = rec.start or sid
        previous = (sid, index, elements, {**r, "_where": where})
    if previous is not None:
        rec.gaps.append(
            f"{previous[3]['_where']}: the last record's action has no following record "
            "(its outcome is unknown)"
        )
    if unknown:
        rec.gaps.append(f"{path}: ignored unknown field(s) {', '.join(sorted(unknown))}")
    if not rec.states:
        raise ReadError(f"{path}: no usable records")
    return rec


def make_event(
    index: int,
    previous: tuple[str, dict[int, int], list[dict[str, Any]], dict[str, Any]],
    dst: str,
    gaps: list[str],
) -> Event:
    src, node_of, elements, r = previous
    choice, typed = r.get("Choice"), r.get("Input")
    text = typed if isinstance(typed, str) and typed not in ("null", "") else None
    source = r["_where"]
    chosen = next((e for e in elements if e["id"] == choice), None)
    if chosen is None:
        gaps.append(f"{source}: `Choice` {choice!r} names no element (recorded as unknown)")
        return Event(index, "other", src, dst, source=source)
    if is_back(chosen):
        return Event(index, "back", src, dst, source=source)
    kind = "input" if text is not None and chosen["tag"] == "input" else "click"
    return Event(
        index,
        kind,
        src,
        dst,
        target=node_of.get(choice) if isinstance(choice, int) else None,
        text=text,
        source=source,
    )
