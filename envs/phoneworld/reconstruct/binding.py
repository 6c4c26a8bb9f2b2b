"""Binding a reconstructed screen to an app model, so seeded state shows in the real layout.

A binding is data (in the screen graph file under ``bindings``, or a sidecar JSON file)::

    {"model": "messages",
     "screens": [{"has": ["Search", "Settings"],
                  "items": {"collection": "threads", "row": {"texts": 3},
                            "fields": ["{contact_name|address}", "{snippet}",
                                       "{last_activity:%d.%m}"],
                            "sort": "-last_activity"}}],
     "toggles": [{"text": "Send message on pressing Enter", "setting": "send_on_enter"}]}

``has``: texts a recorded state must show for the screen rule to apply to it. ``row``: which
recorded views are the repeated items: ``{"texts": N}`` (a clickable view holding N texts;
a list of counts takes rows of each),
``{"rid": "pkg:id/name"}``, or ``{"after": "More options", "cls": "android.widget.Button"}``
(the run of one-line views of that class that follows the view showing that text). The first such item is the template: one copy per record of
the collection, its texts (in order) filled from ``fields`` (``{a|b}`` takes the first field
that is set; ``{f:%d.%m}`` formats a date or time, ``{f:%M:%S}`` a duration in seconds). ``toggles``: a checkable view with this
text shows the setting and a tap flips it. Names are checked against the app model.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from tasklang.envs.phoneworld.reconstruct.model import Node, walk

_FIELD = re.compile(r"\{([^{}:]+)(?::([^{}]*))?\}")


class BindingError(ValueError):
    """A binding that does not fit the app model or is malformed."""


@dataclass
class ItemRule:
    collection: str
    row: dict[str, Any]
    fields: list[str]
    sort: str | None = None
    where: dict[str, Any] = field(default_factory=dict)  # only records with these values


@dataclass
class ScreenRule:
    has: list[str]
    items: ItemRule | None = None


@dataclass
class Cascade:
    """Records of another collection that go with a deleted one (a conversation's
    messages): those whose ``match`` fields equal the deleted record's fields."""

    collection: str
    match: dict[str, str]  # field of this collection -> field of the deleted record


@dataclass
class ActionRule:
    """What a tap on a widget does to the record the screen is about (the record of the
    bound row that opened it, or of a screen opened from that one).

    The recording shows the widget and often the confirmation it asks for, but seldom the
    outcome (the recording's own data would be gone): the binding says what the app does,
    and ``back`` how many screens close afterwards (a dialog and the record's own screen).
    """

    has: list[str]  # texts (or descriptions) the screen shows
    tap: str  # the text or description of the widget tapped
    delete: bool = False
    also: list[Cascade] = field(default_factory=list)  # deleted with it
    set: dict[str, Any] = field(default_factory=dict)  # fields given these values
    flip: str | None = None  # a boolean field turned over
    back: int = 0  # screens closed afterwards (0: where the recording went, if it did)


@dataclass
class RouteRule:
    """Where a recorded screen is in the app model's hand-written app (hybrid mode): the
    back stack of routes that shows the same thing, each a screen name and its arguments
    (``{field}`` templates filled from the record the recorded screen is about).
    ``returns``: reaching this route on the hand-written app goes back to the recording."""

    has: list[str]  # texts (or descriptions) the recorded screen shows
    stack: list[tuple[str, dict[str, str]]]
    returns: bool = False

    @property
    def needs_record(self) -> bool:
        return any(_FIELD.search(v) for _, args in self.stack for v in args.values())


@dataclass
class Binding:
    model: str
    screens: list[ScreenRule] = field(default_factory=list)
    toggles: dict[str, str] = field(default_factory=dict)  # checkbox text -> setting
    defaults: dict[str, Any] = field(default_factory=dict)  # the model's setting defaults
    actions: list[ActionRule] = field(default_factory=list)
    routes: list[RouteRule] = field(default_factory=list)

    def route_for(self, nodes: list[Node], held: bool) -> RouteRule | None:
        """The hand-written app's route for a recorded screen: the first rule that fits
        (one that fills arguments from a record only when the screen holds one)."""
        shown = {n.text for n in nodes} | {n.desc for n in nodes}
        return next(
            (
                r for r in self.routes
                if all(t in shown for t in r.has) and (held or not r.needs_record)
            ),
            None,
        )  # fmt: skip

    def rule_for(self, nodes: list[Node]) -> ScreenRule | None:
        shown = {n.text for n in nodes} | {n.desc for n in nodes}
        return next((r for r in self.screens if all(t in shown for t in r.has)), None)

    def action_for(self, nodes: list[Node], i: int) -> ActionRule | None:
        """The action rule for a tap on node ``i`` (its own text or description, or the
        first one inside it)."""
        labels = {t for c in walk(nodes, i) for t in (nodes[c].text, nodes[c].desc) if t}
        shown = {n.text for n in nodes} | {n.desc for n in nodes}
        return next(
            (r for r in self.actions if r.tap in labels and all(t in shown for t in r.has)),
            None,
        )


@cache
def library_models() -> dict[str, Any]:
    """The app models of ``task_library/apps`` (compiled once per process)."""
    from tasklang.compiler import Compiler

    return dict(Compiler().compile_text("").apps)


def parse_binding(data: Any, loc: str) -> Binding:
    """Check a binding against the app model it names (from ``task_library/apps``)."""
    if not isinstance(data, dict) or not isinstance(data.get("model"), str):
        raise BindingError(f"{loc}: a binding is an object with a `model` name")
    models = library_models()
    model = models.get(data["model"])
    if model is None:
        raise BindingError(
            f"{loc}: unknown app model `{data['model']}` (known: {', '.join(sorted(models))})"
        )
    b = Binding(model.name, defaults={s.name: s.default for s in model.settings})
    for i, s in enumerate(_list(data, "screens", loc)):
        b.screens.append(screen_rule(s, model, f"{loc}: screens[{i}]"))
    for i, t in enumerate(_list(data, "toggles", loc)):
        here = f"{loc}: toggles[{i}]"
        if not isinstance(t, dict) or not isinstance(t.get("text"), str):
            raise BindingError(f'{here}: a toggle is {{"text": ..., "setting": ...}}')
        setting = model.setting(str(t.get("setting")))
        if setting is None:
            known = ", ".join(s.name for s in model.settings)
            raise BindingError(
                f"{here}: `{model.name}` has no setting `{t.get('setting')}` ({known})"
            )
        b.toggles[t["text"]] = setting.name
    for i, a in enumerate(_list(data, "actions", loc)):
        b.actions.append(action_rule(a, model, f"{loc}: actions[{i}]"))
    for i, r in enumerate(_list(data, "routes", loc)):
        b.routes.append(route_rule(r, model, f"{loc}: routes[{i}]"))
    return b


def route_rule(r: Any, model: Any, loc: str) -> RouteRule:
    shape = '{"has": [...], "stack": [{"screen": NAME, "args": {...}}], "returns": BOOL}'
    if not isinstance(r, dict) or not isinstance(r.get("has"), list):
        raise BindingError(f"{loc}: a route is {shape}")
    unknown = set(r) - {"has", "stack", "returns"}
    if unknown:
        raise BindingError(f"{loc}: unknown key(s) {', '.join(sorted(unknown))}")
    fields = {f.name for rec in model.records for f in rec.fields}
    stack: list[tuple[str, dict[str, str]]] = []
    for j, step in enumerate(_list(r, "stack", loc)):
        here = f"{loc}: stack[{j}]"
        args = step.get("args", {}) if isinstance(step, dict) else None
        if not isinstance(step, dict) or not isinstance(step.get("screen"), str):
            raise BindingError(f'{here}: a route step is {{"screen": NAME, "args": {{...}}}}')
        if not isinstance(args, dict) or not all(isinstance(v, str) for v in args.values()):
            raise BindingError(f"{here}: `args` maps argument names to texts")
        for v in args.values():
            for m in _FIELD.finditer(v):
                for name in m.group(1).split("|"):
                    if name.strip() not in fields:
                        raise BindingError(
                            f"{here}: no record of `{model.name}` has a field `{name.strip()}`"
                        )
        stack.append((step["screen"], {str(k): v for k, v in args.items()}))
    if not stack:
        raise BindingError(f"{loc}: `stack` names at least one screen")
    rule = RouteRule([str(t) for t in r["has"]], stack, r.get("returns") is True)
    if rule.returns and (len(stack) != 1 or rule.needs_record):
        raise BindingError(f"{loc}: a route that `returns` is one screen with fixed arguments")
    return rule


def action_rule(a: Any, model: Any, loc: str) -> ActionRule:
    if not isinstance(a, dict) or not isinstance(a.get("tap"), str):
        raise BindingError(f'{loc}: an action is {{"has": [...], "tap": TEXT, ...effect}}')
    unknown = set(a) - {"has", "tap", "delete", "also", "set", "flip", "back"}
    if unknown:
        raise BindingError(f"{loc}: unknown key(s) {', '.join(sorted(unknown))}")
    fields = {f.name for r in model.records for f in r.fields}
    rule = ActionRule([str(t) for t in _list(a, "has", loc)], a["tap"])
    rule.delete = a.get("delete") is True
    rule.flip = str(a["flip"]) if a.get("flip") is not None else None
    rule.set = a.get("set") or {}
    if not isinstance(rule.set, dict):
        raise BindingError(f"{loc}: `set` maps fields to values")
    for name in [*rule.set, *([rule.flip] if rule.flip else [])]:
        if name not in fields:
            raise BindingError(f"{loc}: no record of `{model.name}` has a field `{name}`")
    if not (rule.delete or rule.set or rule.flip):
        raise BindingError(f"{loc}: an action needs an effect (`delete`, `set` or `flip`)")
    back = a.get("back", 0)
    if not isinstance(back, int) or isinstance(back, bool) or back < 0:
        raise BindingError(f"{loc}: `back` is a number of screens")
    rule.back = back
    for j, c in enumerate(_list(a, "also", loc)):
        here = f"{loc}: also[{j}]"
        coll = model.collection(str(c.get("collection"))) if isinstance(c, dict) else None
        if coll is None or not isinstance(c.get("match"), dict) or not c["match"]:
            raise BindingError(
                f'{here}: `also` is {{"collection": NAME, "match": {{FIELD: FIELD}}}} '
                f"with a collection of `{model.name}`"
            )
        record = model.record(coll.record)
        names = {f.name for f in record.fields} if record else set()
        for mine, theirs in c["match"].items():
            if mine not in names or str(theirs) not in fields:
                raise BindingError(f"{here}: `{mine}` = `{theirs}` names an unknown field")
        rule.also.append(Cascade(coll.name, {k: str(v) for k, v in c["match"].items()}))
    return rule


def _list(data: dict[str, Any], key: str, loc: str) -> list[Any]:
    value = data.get(key) or []
    if not isinstance(value, list):
        raise BindingError(f"{loc}: `{key}` must be a list")
    return value


def screen_rule(s: Any, model: Any, loc: str) -> ScreenRule:
    if not isinstance(s, dict) or not isinstance(s.get("has"), list):
        raise BindingError(f"{loc}: a screen rule needs `has` (texts the screen shows)")
    items = s.get("items")
    if items is None:
        return ScreenRule([str(t) for t in s["has"]])
    if not isinstance(items, dict):
        raise BindingError(f"{loc}: `items` must be an object")
    coll = model.collection(str(items.get("collection")))
    if coll is None:
        known = ", ".join(c.name for c in model.collections)
        raise BindingError(
            f"{loc}: `{model.name}` has no collection `{items.get('collection')}` ({known})"
        )
    record = model.record(coll.record)
    names = {f.name for f in record.fields} if record else set()
    fields = [str(f) for f in _list(items, "fields", loc)]
    for f in fields:
        for m in _FIELD.finditer(f):
            for name in m.group(1).split("|"):
                if name.strip() not in names:
                    raise BindingError(f"{loc}: `{coll.record}` has no field `{name.strip()}`")
    row = items.get("row")
    if not isinstance(row, dict) or not ({"texts", "rid", "after"} & set(row)):
        raise BindingError(f'{loc}: `row` is {{"texts": N}}, {{"rid": ...}} or {{"after": ...}}')
    sort, where = items.get("sort"), items.get("where") or {}
    if not isinstance(where, dict) or set(where) - names:
        raise BindingError(f"{loc}: `where` maps fields of `{coll.record}` to values")
    if sort and str(sort).lstrip("-") not in names:
        raise BindingError(f"{loc}: `{coll.record}` has no field `{str(sort).lstrip('-')}`")
    return ScreenRule(
        [str(t) for t in s["has"]],
        ItemRule(coll.name, row, fields, str(sort) if sort else None, dict(where)),
    )


def load_binding(path: Path) -> Binding:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BindingError(f"{path}: unreadable binding ({exc})") from None
    return parse_binding(data, str(path))


def is_row(nodes: list[Node], i: int, row: dict[str, Any]) -> bool:
    """Whether node ``i`` is one of the repeated items ``row`` selects."""
    n = nodes[i]
    if "rid" in row:
        return n.rid == str(row["rid"])
    if "after" in row:
        return i in run_after(nodes, n.parent, str(row["after"]), str(row.get("cls", n.cls)))
    texts = [c for c in n.children if nodes[c].text]
    wanted = row["texts"] if isinstance(row["texts"], list) else [row["texts"]]
    return bool(n.clickable and len(n.children) == len(texts) and len(texts) in wanted)


def run_after(nodes: list[Node], parent: int, anchor: str, cls: str) -> list[int]:
    """The siblings that follow the one showing ``anchor`` (text or description) while they
    are of class ``cls`` with one line of text and no description: a list of names."""
    if not 0 <= parent < len(nodes):
        return []
    kids = nodes[parent].children
    at = next((k for k, c in enumerate(kids) if anchor in (nodes[c].text, nodes[c].desc)), None)
    out: list[int] = []
    for c in kids[at + 1 :] if at is not None else ():
        m = nodes[c]
        if m.cls != cls or m.desc or not m.text or "\n" in m.text:
            break
        out.append(c)
    return out


def fill(template: str, record: dict[str, Any]) -> str:
    def one(m: re.Match[str]) -> str:
        value = next(
            (
                record.get(k.strip())
                for k in m.group(1).split("|")
                if record.get(k.strip()) not in (None, "")
            ),
            "",
        )
        fmt = m.group(2)
        if fmt and isinstance(value, str):
            try:
                return dt.datetime.fromisoformat(value).strftime(fmt)
            except ValueError:
                return value
        if fmt and isinstance(value, (int, float)) and not isinstance(value, bool):
            try:
                return (dt.datetime(2000, 1, 1) + dt.timedelta(seconds=value)).strftime(fmt)
            except (OverflowError, ValueError):
                return str(value)
        return str(value)

    return _FIELD.sub(one, template)


def shown(records: list[dict[str, Any]], rule: ItemRule) -> list[dict[str, Any]]:
    """The records a bound list shows, in its order."""
    out = [r for r in records if all(r.get(k, False) == v for k, v in rule.where.items())]
    if not rule.sort:
        return out
    key = rule.sort.lstrip("-")
    return sorted(out, key=lambda r: str(r.get(key) or ""), reverse=rule.sort.startswith("-"))
