"""Hybrid reconstructed apps: the recording where it goes, the hand-written app beyond it.

A bound reconstructed app in hybrid mode runs its recorded screens as ``ReconPhone`` does,
until an action the recording never made (a tap, long press, scroll or Enter that would open
the unexplored screen). Then it **hands over** to the hand-written PhoneWorld app of the same
model (``envs/phoneworld/apps``): the binding's ``routes`` say which back stack of that app
shows what the recorded screen shows (the conversation list; a conversation, filled from the
record the recorded screen is about), the phone's back stack becomes that one, text typed
into a recorded field moves to the field with the same hint, and the action is replayed on
the hand-written screen on the view with the same resource id, else the same text, else the
same description. Both apps read and write the same app state, so nothing else moves.

From then on the hand-written app draws and acts, until it reaches a route whose rule
``returns`` (the conversation list, the contact list, the call history): then it **hands
back** to the recorded screen that rule names. A screen with no route, or an action with no
counterpart on the hand-written screen, is unexplored, as without hybrid mode.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tasklang.envs.phoneworld import widgets as w
from tasklang.envs.phoneworld.app import App, AppData, Ctx, Route
from tasklang.envs.phoneworld.phone import InvalidAction
from tasklang.envs.phoneworld.reconstruct.binding import Binding, BindingError, RouteRule, fill
from tasklang.envs.phoneworld.reconstruct.runtime import ReconPhone, ReconstructedApp
from tasklang.envs.phoneworld.widgets import View
from tasklang.verifiers.snapshot import WorldSnapshot


def native_app(binding: Binding | None) -> App:
    """The hand-written app of a binding's model, checked against the binding's routes."""
    from tasklang.envs.phoneworld.apps import app_classes

    if binding is None:
        raise BindingError("hybrid mode needs a binding: it names the app model to hand over to")
    cls = app_classes().get(binding.model)
    if cls is None:
        raise BindingError(f"`{binding.model}` has no hand-written PhoneWorld app to hand over to")
    app = cls()
    if not binding.routes:
        raise BindingError(f"the `{binding.model}` binding has no `routes` for hybrid mode")
    for i, rule in enumerate(binding.routes):
        for screen, _args in rule.stack:
            if getattr(app, f"screen_{screen}", None) is None:
                raise BindingError(
                    f"routes[{i}]: the hand-written `{binding.model}` app has no screen `{screen}`"
                )
    return app


@dataclass
class HybridPhone(ReconPhone):
    """``ReconPhone`` that hands unrecorded actions over to the hand-written app."""

    def tap(self, view: View, long: bool = False) -> str:
        app, route = self.recon()
        if app is None or route is None:
            return super().tap(view, long)
        self.pending = None
        info = super().tap(view, long)
        return self.settle(app, route, info, lambda: self.replay_tap(view, long))

    def scroll_by(self, direction: str) -> str:
        app, route = self.recon()
        if app is None or route is None:
            return super().scroll_by(direction)
        self.pending = None
        info = super().scroll_by(direction)
        return self.settle(app, route, info, lambda: self.replay_scroll(direction))

    def enter(self) -> str:
        app, route = self.recon()
        if app is None or route is None or self.focus is None:
            return super().enter()
        label = self.field_label(app, route, self.focus[1])
        self.pending = None
        info = super().enter()
        return self.settle(app, route, info, lambda: self.replay_enter(label))

    def load(self, snap: WorldSnapshot, foreground: str | None = None) -> None:
        """As on PhoneWorld, every hand-written app's model has a state (empty unless the
        task seeds it): the hand-written app may read another model's records (the Phone
        app's names come from ``contacts``)."""
        from tasklang.envs.phoneworld.apps import app_classes

        super().load(snap, foreground)
        for model in app_classes():
            self.state.setdefault(model, AppData({}, {}))

    def launch(self, model: str) -> None:
        if model not in self.apps:  # a hand-written screen's intent to another app
            raise InvalidAction(f"`{model}` is not on this phone: it runs one app")
        super().launch(model)

    def _act(self, a: dict[str, Any]) -> str:
        before = self.route()
        info = super()._act(a)
        app = self.apps.get(self.foreground) if self.foreground else None
        route = self.route()
        if (
            isinstance(app, ReconstructedApp)
            and route is not None
            and before is not None
            and route.id != before.id
            and app.on_native(before)  # moved on the hand-written app (not handed over now)
            and app.on_native(route)
        ):
            rule = self.returning(app, route)
            if rule is not None:
                self.hand_back(app, route, rule)
                info += "; back on the recorded screens"
        return info

    # ------------------------------------------------------------ handing over
    def settle(
        self, app: ReconstructedApp, route: Route, info: str, replay: Callable[[], str | None]
    ) -> str:
        """After an action on a recorded screen: hand it over if it was unrecorded."""
        action, self.pending = self.pending, None
        if action is None:
            return info
        saved = self.snapshot()
        stack = self.native_stack(app, route)
        if stack is not None:
            typed = self.typed(app, route)
            self.replace_stack(app.model, stack)
            self.carry(typed)
            try:
                done = replay()
            except InvalidAction:  # refused there (an intent to another app): not handed over
                self.restore(saved)
                raise
            if done is not None:
                names = " > ".join(r.screen for r in stack)
                self.handovers.append(
                    f"{action}: {app.graph.screens[route.screen].name} -> {names}"
                )
                return f"{done} (on the hand-written app)"
            self.restore(saved)
        app.show_unexplored(Ctx(self, app, self.route()), action)
        return "unexplored"

    def native_stack(self, app: ReconstructedApp, route: Route) -> list[Route] | None:
        """The hand-written back stack that shows the recorded screen of ``route``."""
        assert app.binding is not None
        held = app.held(Ctx(self, app, route))
        nodes = app.graph.states[app.state_of(route)].nodes
        rule = app.binding.route_for(nodes, held is not None)
        if rule is None:
            return None
        record = held[1] if held is not None else {}
        return [
            Route(screen, tuple(sorted((k, fill(v, record)) for k, v in args.items())))
            for screen, args in rule.stack
        ]

    def replace_stack(self, model: str, routes: list[Route]) -> None:
        for gone in self.stacks.get(model, []):
            self.forms.pop(gone.id, None)
            self.scroll.pop(gone.id, None)
        self.stacks[model] = list(routes)
        self.focus, self.keyboard, self.paste_at = None, False, None
        self._tree = None

    def field_label(self, app: ReconstructedApp, route: Route, name: str) -> str:
        """The recorded text (a hint, as recorded) of a recorded text field ``n<i>``."""
        nodes = app.graph.states[app.state_of(route)].nodes
        i = int(name[1:]) if name[1:].isdigit() else -1
        return nodes[i].text if 0 <= i < len(nodes) else ""

    def typed(self, app: ReconstructedApp, route: Route) -> dict[str, str]:
        """What was typed into the recorded screen's fields, by the fields' recorded text."""
        values = self.forms.get(route.id, {})
        return {self.field_label(app, route, k): v for k, v in values.items() if v}

    def native_field(self, label: str) -> View | None:
        """The hand-written screen's text field with ``label`` as its hint."""
        if not label:
            return None
        return next(
            (v for v in self.observe().walk() if v.edit is not None and label in (v.hint, v.text)),
            None,
        )

    def carry(self, typed: dict[str, str]) -> None:
        top = self.route()
        for label, text in typed.items():
            found = self.native_field(label)
            if found is not None and found.edit is not None and top is not None:
                self.forms.setdefault(top.id, {})[found.edit] = text
                self._tree = None

    # ------------------------------------------------------------ replaying
    def replay_tap(self, view: View, long: bool) -> str | None:
        tree = self.observe()
        match = counterpart(tree, view)
        if match is None:
            return None
        left, top, right, bottom = match.bounds
        target = w.hit(tree, (left + right) / 2, (top + bottom) / 2) or match
        return self.tap(target, long)

    def replay_scroll(self, direction: str) -> str | None:
        self.observe()  # the list's extent is known once it is drawn
        return self.scroll_by(direction)

    def replay_enter(self, label: str) -> str | None:
        found = self.native_field(label)
        top = self.route()
        if found is None or found.edit is None or top is None:
            return None
        self.focus, self.keyboard = (top.id, found.edit), True
        self._tree = None
        return self.enter()

    # ------------------------------------------------------------ handing back
    def returning(self, app: ReconstructedApp, route: Route) -> RouteRule | None:
        """The rule, if any, that hands ``route`` of the hand-written app back."""
        assert app.binding is not None
        args = dict(route.args)
        for rule in app.binding.routes:
            screen, wanted = rule.stack[0]
            if rule.returns and route.screen == screen and args == wanted:
                return rule
        return None

    def hand_back(self, app: ReconstructedApp, route: Route, rule: RouteRule) -> None:
        graph = app.graph
        state = next(
            (
                sid for sid, st in graph.states.items()
                if set(rule.has) <= {n.text for n in st.nodes} | {n.desc for n in st.nodes}
            ),
            None,
        )  # fmt: skip
        if state is None:
            return
        self.replace_stack(app.model, [Route(graph.screen_of[state], (("state", state),))])
        self.handbacks.append(f"{route.screen} -> {graph.screens[graph.screen_of[state]].name}")


def counterpart(tree: View, view: View) -> View | None:
    """The visible view of ``tree`` that is ``view``'s counterpart: the same resource id
    (where it is unique), else the same text, else the same description."""
    shown = [v for v in tree.walk() if v.bounds[2] > v.bounds[0] and v.bounds[3] > v.bounds[1]]
    if view.rid:
        same = [v for v in shown if v.rid == view.rid]
        if len(same) == 1:
            return same[0]
    for label, of in ((view.text, "text"), (view.desc, "desc")):
        if label:
            same = [v for v in shown if getattr(v, of) == label]
            if same:
                return same[0]
    return None
