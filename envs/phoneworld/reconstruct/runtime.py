"""A reconstructed app on the PhoneWorld phone.

``ReconstructedApp`` is an ``App`` whose screens are recorded states: each route names a
screen of the graph and the state it shows, and the view tree is the recorded one (classes,
resource ids, texts, descriptions, flags and bounds as recorded). A tap, long press, scroll
or text entry is looked up in the graph (``ScreenGraph.predict``); an action the recording
never made opens the ``unexplored`` screen, which says so, and is counted on the phone.

``ReconPhone`` is the phone with one difference: a reconstructed app's screen is drawn as
recorded (its own root, its own bounds) instead of being laid out by the phone, and its
scrolls go to the app. Navigation follows Android: a screen already on the back stack is
returned to, another screen of the same activity replaces the current one, a new activity
is pushed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from tasklang.envs.phoneworld import widgets as w
from tasklang.envs.phoneworld.app import App, Ctx, Route, Screen
from tasklang.envs.phoneworld.phone import Phone
from tasklang.envs.phoneworld.reconstruct.binding import ActionRule, Binding, fill, is_row, shown
from tasklang.envs.phoneworld.reconstruct.graph import ScreenGraph, shape_of, widget_keys
from tasklang.envs.phoneworld.reconstruct.model import Node, State, walk
from tasklang.envs.phoneworld.widgets import View

UNEXPLORED = "unexplored"
UNEXPLORED_RID = "tasklang:id/unexplored"
UNEXPLORED_ACTIVITY = "tasklang.reconstruct.UnexploredActivity"


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.casefold()).strip("_") or "app"


class ReconstructedApp(App):
    """An app rebuilt from a screen graph (and optionally bound to an app model)."""

    def __init__(self, graph: ScreenGraph, binding: Binding | None = None) -> None:
        self.graph = graph
        self.binding = binding
        self.model = binding.model if binding else f"recon_{slug(graph.app)}"
        self.package = graph.package or f"recon.{slug(graph.app)}"
        self.label = graph.app
        start = graph.states[graph.start]
        self.activity = start.activity or f"{self.package}.RecordedActivity"
        self.home = graph.screen_of[graph.start]
        self.native: App | None = None  # hybrid mode: the model's hand-written app

    def on_native(self, route: Route | None) -> bool:
        """Whether ``route`` is a screen of the hand-written app (hybrid mode)."""
        return (
            self.native is not None
            and route is not None
            and route.screen != UNEXPLORED
            and route.screen not in self.graph.screens
        )

    # ------------------------------------------------------------ drawing
    def screen(self, ctx: Ctx, route: Route) -> Screen:
        """The hand-written app's screen on its routes; otherwise only for code that asks the
        base interface (``ReconPhone`` draws ``render``)."""
        if self.native is not None and self.on_native(route):
            return self.native.screen(ctx, route)
        root, activity = self.render(ctx, route)
        return Screen(title=None, header=[root], activity=activity)

    def state_of(self, route: Route) -> str:
        return str(route.arg("state") or self.graph.start)

    def render(self, ctx: Ctx, route: Route) -> tuple[View, str]:
        if route.screen == UNEXPLORED:
            return self.unexplored_view(ctx, str(route.arg("action", ""))), UNEXPLORED_ACTIVITY
        state = self.graph.states[self.state_of(route)]
        nodes = state.nodes
        rule = self.binding.rule_for(nodes) if self.binding else None
        rows: list[dict[str, Any]] | None = None
        if rule is not None and rule.items is not None:
            rows = shown(ctx.records(rule.items.collection), rule.items)
        subst = self.carried_texts(ctx, route)
        return self.build(ctx, nodes, rule, rows, subst), state.activity or self.activity

    def carried_texts(self, ctx: Ctx, route: Route) -> dict[str, str]:
        """A screen opened from a bound row shows that record where the recorded screen
        showed the recorded row's texts (a conversation's name and last message)."""
        held = route.arg("record")
        if held is None:
            return {}
        collection, index = held
        records = ctx.records(collection)
        if not 0 <= index < len(records):
            return {}
        return {shown: fill(template, records[index]) for shown, template in route.arg("carry", ())}

    def build(
        self, ctx: Ctx, nodes: list[Node], rule: Any, records: Any, subst: dict[str, str]
    ) -> View:
        row_rule = rule.items.row if rule is not None and rule.items is not None else None

        def view(i: int, dy: int, record: int | None) -> View:
            n = nodes[i]
            left, top, right, bottom = n.bounds
            v = View(
                n.cls, text=subst.get(n.text, n.text), rid=n.rid, desc=n.desc, clickable=n.clickable,
                long_clickable=n.long_clickable, checkable=n.checkable, checked=n.checked,
                focusable=n.focusable, scrollable=n.scrollable, enabled=n.enabled,
                selected=n.selected, password=n.password, package=n.package,
            )  # fmt: skip
            v.bounds = (left, top + dy, right, bottom + dy)
            if n.clickable or n.checkable or n.long_clickable:
                v.on_click, v.on_long, v.arg = "act", "act_long", (i, record)
            if n.editable:
                v.edit, v.on_enter = f"n{i}", "enter"
                v.arg = (i, record)
            toggle = self.binding.toggles.get(n.text) if self.binding and n.checkable else None
            if toggle is not None:
                v.checked = bool(self.setting(ctx, toggle))
                v.on_click, v.arg = "toggle", toggle
            v.children = children(n, dy, record)
            low = max((c.bounds[3] for c in v.children), default=v.bounds[3])
            if low > v.bounds[3]:  # bound rows past the recorded ones: it holds them too
                v.bounds = (v.bounds[0], v.bounds[1], v.bounds[2], low)
            return v

        def children(n: Node, dy: int, record: int | None) -> list[View]:
            kids: list[View] = []
            shift, done = 0, False
            for c in n.children:
                if row_rule is None or not is_row(nodes, c, row_rule):
                    kids.append(view(c, dy + shift, record))
                    continue
                if done:
                    continue
                done = True
                height = nodes[c].bounds[3] - nodes[c].bounds[1]
                seen = sum(1 for d in n.children if is_row(nodes, d, row_rule))
                for k, rec in enumerate(records or ()):
                    copy = view(c, dy + k * height, k)
                    fill_row(copy, rule.items.fields, rec)
                    kids.append(copy)
                shift = (len(records or ()) - seen) * height
            return kids

        return view(0, 0, None)

    def setting(self, ctx: Ctx, name: str) -> Any:
        value = ctx.setting(name)
        if value is None and self.binding is not None:
            return self.binding.defaults.get(name)
        return value

    def unexplored_view(self, ctx: Ctx, action: str) -> View:
        phone = ctx.phone
        root = View(w.FRAME, rid=UNEXPLORED_RID, package=self.package)
        root.bounds = (0, 0, phone.width, phone.height)
        title = View(w.TEXT, text="Unexplored", rid="tasklang:id/unexplored_title")
        title.bounds = (0, 200, phone.width, 347)
        what = View(
            w.TEXT,
            text=f"The recording never showed what this does: {action}",
            rid="tasklang:id/unexplored_action",
        )
        what.bounds = (0, 347, phone.width, 641)
        root.children = [title, what]
        return root

    # ------------------------------------------------------------ acting
    def handle(self, ctx: Ctx, key: str, arg: Any) -> bool:
        if self.native is not None and self.on_native(ctx.route):
            return self.native.handle(ctx, key, arg)
        if key in ("act", "act_long", "enter"):
            verb = {"act": "click", "act_long": "long_press", "enter": "enter"}[key]
            self.act(ctx, verb, arg[0], arg[1])
            return True
        if key == "toggle":
            ctx.set(arg, not bool(self.setting(ctx, arg)))
            return True
        return False

    def act(self, ctx: Ctx, verb: str, i: int, record: int | None, quiet: bool = False) -> bool:
        route = ctx.route
        if route is None or route.screen == UNEXPLORED:
            return False
        sid = self.state_of(route)
        state = self.graph.states[sid]
        rule = self.binding.action_for(state.nodes, i) if self.binding else None
        held = route.arg("record")
        applied = rule is not None and verb == "click" and self.apply(ctx, rule)
        if applied and rule is not None and (rule.back or rule.delete):
            # a deleted record's screens close with it, however many the binding says
            self.close(ctx, rule.back, held if rule.delete else None)
            return True
        exact, shape = widget_keys(state, i)
        if record is not None:  # a row showing seeded data: it acts as recorded rows did
            exact, shape = f"{exact}#record", shape_of(state.nodes, i)
        shape_key = f"{verb}:{shape}" if shape else None
        dst, _how = self.graph.predict(sid, f"{verb}:{exact}", shape_key, self.below(ctx))
        if dst is None:
            if applied:  # the binding said what it does; it stays on this screen
                return True
            if not quiet:
                n = self.graph.states[sid].nodes[i]
                self.unexplored(ctx, f"{verb} on {n.text or n.desc or n.rid or n.cls}")
            return False
        carry = self.carry(ctx, state, record, dst) if record is not None else {}
        self.go(ctx, dst, **carry)
        return True

    def held(self, ctx: Ctx) -> tuple[str, dict[str, Any]] | None:
        """The record the current screen is about: the bound row that opened it (or opened
        a screen below it)."""
        held = ctx.route.arg("record") if ctx.route is not None else None
        if held is None:
            return None
        collection, index = held
        records = ctx.records(collection)
        return (collection, records[index]) if 0 <= index < len(records) else None

    def apply(self, ctx: Ctx, rule: ActionRule) -> bool:
        """Carry out a bound action on the held record; False when the screen holds none."""
        held = self.held(ctx)
        if held is None:
            return False
        collection, record = held
        if rule.delete:
            for c in rule.also:
                gone = [
                    r for r in ctx.records(c.collection)
                    if all(r.get(mine) == record.get(theirs) for mine, theirs in c.match.items())
                ]  # fmt: skip
                for r in gone:
                    ctx.delete(c.collection, r)
            ctx.delete(collection, record)
        else:
            changes = dict(rule.set)
            if rule.flip:
                changes[rule.flip] = not bool(record.get(rule.flip))
            ctx.update(collection, record, **changes)
        if isinstance(ctx.phone, ReconPhone):
            ctx.phone.bound_actions.append(f"{rule.tap}: {collection}")
        return True

    def close(self, ctx: Ctx, count: int, gone_record: Any = None) -> None:
        """Close ``count`` screens, and then any screen about ``gone_record`` (a deleted
        record), never the last one."""
        phone = ctx.phone
        stack = phone.stacks.setdefault(self.model, [])
        while len(stack) > 1 and (
            count > 0 or (gone_record is not None and stack[-1].arg("record") == gone_record)
        ):
            count -= 1
            gone = stack.pop()
            phone.forms.pop(gone.id, None)
            phone.scroll.pop(gone.id, None)
        if phone.focus is not None and phone.focus[0] not in {r.id for r in stack}:
            phone.focus, phone.keyboard = None, False

    def scroll(self, ctx: Ctx, direction: str) -> str:
        route = ctx.route
        if route is None or route.screen == UNEXPLORED:
            return "nothing to scroll"
        dst, _how = self.graph.predict(
            self.state_of(route), f"scroll:{direction}", None, self.below(ctx)
        )
        if dst is None:
            self.unexplored(ctx, f"scroll {direction}")
            return "unexplored"
        self.go(ctx, dst)
        return f"scrolled {direction}"

    def below(self, ctx: Ctx) -> list[str]:
        """The states under the current screen, nearest first."""
        stack = ctx.phone.stacks.get(self.model, [])
        return [self.state_of(r) for r in reversed(stack[:-1])]

    def carry(self, ctx: Ctx, state: State, k: int, dst: str) -> dict[str, Any]:
        """What a tap on bound row ``k`` hands to the screen it opens: which record, and which
        recorded texts stand for which of its fields."""
        rule = self.binding.rule_for(state.nodes) if self.binding else None
        if rule is None or rule.items is None:
            return {}
        everything = ctx.records(rule.items.collection)
        records = shown(everything, rule.items)
        if not 0 <= k < len(records):
            return {}
        index = next(j for j, r in enumerate(everything) if r is records[k])
        texts = self.recorded_row_texts(state.id, dst)
        return {
            "record": (rule.items.collection, index),
            "carry": tuple(zip(texts, rule.items.fields, strict=False)),
        }

    def recorded_row_texts(self, src: str, dst: str) -> list[str]:
        """The texts of the row whose tap, in the recording, led from ``src``'s screen to
        ``dst``."""
        screen = self.graph.screen_of[src]
        for e in self.graph.events:
            if e.dst != dst or e.src is None or e.target is None:
                continue
            if self.graph.screen_of.get(e.src) == screen:
                nodes = self.graph.states[e.src].nodes
                return [nodes[c].text for c in walk(nodes, e.target) if nodes[c].text]
        return []

    def go(self, ctx: Ctx, dst: str, **args: Any) -> None:
        phone = ctx.phone
        stack = phone.stacks.setdefault(self.model, [])
        keep = len(self.graph.navigate([self.state_of(r) for r in stack], dst)) - 1
        here = ctx.route
        if keep < len(stack) and stack[keep].screen == self.graph.screen_of[dst]:
            here = stack[keep]  # back to a screen on the stack: it is about what it was about
        elif keep < len(stack):
            here = None
        while len(stack) > keep:
            gone = stack.pop()
            phone.forms.pop(gone.id, None)
            phone.scroll.pop(gone.id, None)
        if phone.focus is not None and phone.focus[0] not in {r.id for r in stack}:
            phone.focus, phone.keyboard = None, False
        if not args and here is not None and here.arg("record") is not None:
            # a screen opened from a record's screen is about that record too (its menu,
            # its dialogs), and so is that screen when it is returned to
            args = {"record": here.arg("record"), "carry": here.arg("carry", ())}
        ctx.push(self.graph.screen_of[dst], state=dst, **args)

    def paged(self, ctx: Ctx, route: Route, direction: str) -> bool:
        if self.native is not None and self.on_native(route):
            return self.native.paged(ctx, route, direction)
        return False

    def leaving(self, ctx: Ctx, route: Route, why: str) -> None:
        if self.native is not None and self.on_native(route):
            self.native.leaving(ctx, route, why)

    def unexplored(self, ctx: Ctx, action: str) -> None:
        """An action the recording never made: the unexplored screen, or in hybrid mode a
        hand-over to the hand-written app (the phone carries it out after the action)."""
        phone = ctx.phone
        if isinstance(phone, ReconPhone) and self.native is not None:
            phone.pending = action
            return
        self.show_unexplored(ctx, action)

    def show_unexplored(self, ctx: Ctx, action: str) -> None:
        if isinstance(ctx.phone, ReconPhone):
            ctx.phone.unexplored.append(action)
        ctx.push(UNEXPLORED, action=action)


def fill_row(row: View, fields: list[str], record: dict[str, Any]) -> None:
    """Put a record's values into a row's texts, in document order."""
    texts = [v for v in row.walk() if v.text]
    for v, template in zip(texts, fields, strict=False):
        v.text = fill(template, record)


@dataclass
class ReconPhone(Phone):
    """The phone, drawing reconstructed apps as recorded."""

    unexplored: list[str] = field(default_factory=list)  # actions that hit unexplored screens
    bound_actions: list[str] = field(default_factory=list)  # the binding's actions carried out
    handovers: list[str] = field(default_factory=list)  # hybrid: to the hand-written app
    handbacks: list[str] = field(default_factory=list)  # hybrid: back to the recording
    pending: str | None = None  # hybrid: an unrecorded action waiting to be handed over

    def recon(self) -> tuple[ReconstructedApp | None, Route | None]:
        """The foreground app if it is reconstructed and shows a recorded screen."""
        app = self.apps.get(self.foreground) if self.foreground else None
        route = self.route()
        if not isinstance(app, ReconstructedApp) or route is None or app.on_native(route):
            return None, route
        return app, route

    def compose(self) -> View:
        app, route = self.recon()
        if app is None or route is None or self.shade:
            return super().compose()
        root, self._activity = app.render(Ctx(self, app, route), route)
        self.decorate_fields(route, root)
        if self.paste_at is not None:  # a long press on a text field, with a clipboard
            root.children.append(self.paste_toolbar(self.paste_at, app.package))
        self._tree, self._flat = root, None
        return root

    def scroll_by(self, direction: str) -> str:
        app, route = self.recon()
        if app is None or route is None:
            return super().scroll_by(direction)
        return app.scroll(Ctx(self, app, route), direction)

    def tap(self, view: View, long: bool = False) -> str:
        """A text field that the recording tapped into and left from does what it did then,
        besides taking the focus."""
        app, route = self.recon()
        info = super().tap(view, long)
        if view.edit is None or app is None or route is None or app.on_native(self.route()):
            return info
        if long or not isinstance(view.arg, tuple):
            return info
        i, record = view.arg
        if app.act(Ctx(self, app, route), "click", i, record, quiet=True):
            self.focus, self.keyboard = None, False
            return f"{info}; it opened another screen"
        return info
