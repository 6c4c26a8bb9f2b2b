"""The app framework: an app is its model's state, screens drawn from that state, and handlers.

An app subclasses :class:`App` and names the app model it implements (``model = "clock"``).
Screens are methods ``screen_<name>(ctx, route) -> Screen``: pure functions of the state, the
route's arguments and the route's form values. Handlers are methods ``on_<key>(ctx, arg)``,
called when a view whose ``on_click`` (or ``on_long``, ``on_enter``) is ``key`` is acted on;
they change state only through :class:`Ctx` (which copies on write, so a snapshot of the
phone is a few shallow copies) and navigate with ``ctx.push`` / ``ctx.back`` /
``ctx.replace``. Adding an app means declaring its model and writing its screens and
handlers, nothing else.
"""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tasklang import ir
from tasklang.envs.phoneworld.widgets import View
from tasklang.verifiers.state import key_of, record_keys

if TYPE_CHECKING:
    from tasklang.envs.phoneworld.phone import Phone

_route_ids = itertools.count(1)


@dataclass(frozen=True)
class Route:
    """One screen on an app's back stack: its name, arguments, and identity (for its form
    values and scroll position)."""

    screen: str
    args: tuple[tuple[str, Any], ...] = ()
    id: int = field(default_factory=lambda: next(_route_ids))

    def arg(self, name: str, default: Any = None) -> Any:
        return next((v for k, v in self.args if k == name), default)


@dataclass
class Screen:
    """What a screen shows: a toolbar, fixed header views, a (scrolling) list of rows, and
    optionally a floating action button and bottom tabs."""

    title: str | None
    rows: list[View] = field(default_factory=list)
    activity: str | None = None  # defaults to the app's main activity
    up: bool = False  # a "Navigate up" arrow in the toolbar
    actions: list[View] = field(default_factory=list)  # toolbar buttons
    header: list[View] = field(default_factory=list)  # under the toolbar, not scrolling
    fab: View | None = None
    tabs: list[View] = field(default_factory=list)
    footer: list[View] = field(default_factory=list)  # above the tabs, not scrolling
    list_rid: str = ""  # the resource id of the list that holds ``rows``
    list_cls: str = "androidx.recyclerview.widget.RecyclerView"


@dataclass
class Dialog:
    """A modal dialog: a title, a message, optional items (views), and buttons.

    A button is ``(label, key, arg)``; a click dismisses the dialog and then sends ``key``
    (None: only dismiss) to the app that opened it. ``system`` dialogs (permission prompts)
    belong to the permission controller's package.
    """

    title: str
    message: str = ""
    buttons: list[tuple[str, str | None, Any]] = field(default_factory=list)
    items: list[View] = field(default_factory=list)
    system: bool = False
    owner: str | None = None  # the app the keys go to


@dataclass(frozen=True)
class Notification:
    """A notification in the shade: the app that posted it, what it says, and what a tap
    does: open the app and send it ``key`` with ``arg`` (as a tap on a view would), or open
    ``screen`` with ``args``, or just open the app."""

    app: str
    title: str
    text: str = ""
    screen: str | None = None
    args: tuple[tuple[str, Any], ...] = ()
    key: str | None = None
    arg: Any = None


@dataclass
class AppData:
    """One app's state, as the verifier sees it. Never mutated in place: writes replace."""

    collections: dict[str, list[dict[str, Any]]]
    settings: dict[str, Any]


class AppendOnlyViolation(RuntimeError):
    """An app removed a record from a collection its model declares `append only` (or
    changed the record's key, which removes it under its old key): the app breaks its model."""


def append_only_keys(apps: dict[str, ir.AppModel]) -> dict[tuple[str, str], ir.FieldDef]:
    """(app, collection) -> the key field, for each append-only collection of ``apps``."""
    return {
        (app, name): key
        for (app, name), key in record_keys(apps).items()
        if (coll := apps[app].collection(name)) is not None and coll.append_only
    }


class UndeclaredChange(RuntimeError):
    """An app changed a collection, a setting or a field of a record that kept its key where
    its model's `changes` line does not let it (on a screen it does not name, by an action
    that is no tap on an element it names, or at all for one that changes `nowhere`): the
    app breaks its model."""


class App:
    """Base class of PhoneWorld apps."""

    model: str = ""  # the app model name in task_library/apps
    package: str = ""
    label: str = ""
    activity: str = ""  # the main activity (full class name)
    home: str = "main"  # the first screen
    permissions: tuple[str, ...] = ()  # asked for the first time the app opens
    host: str | None = None  # a mini-app: the super-app it runs in (not on the launcher)

    def screen(self, ctx: Ctx, route: Route) -> Screen:
        method: Callable[[Ctx, Route], Screen] | None = getattr(
            self, f"screen_{route.screen}", None
        )
        if method is None:
            raise KeyError(f"{self.model} has no screen `{route.screen}`")
        return method(ctx, route)

    def handle(self, ctx: Ctx, key: str, arg: Any) -> bool:
        """Run the handler for ``key``; False when the app has none."""
        method: Callable[[Ctx, Any], None] | None = getattr(self, f"on_{key}", None)
        if method is None:
            return False
        method(ctx, arg)
        return True

    def posted(self, ctx: Ctx) -> list[Notification]:
        """The notifications the app shows for the state a task starts from (unread
        messages, missed calls), oldest first. The default shows none."""
        return []

    def paged(self, ctx: Ctx, route: Route, direction: str) -> bool:
        """A sideways scroll on ``route``: ``direction`` is "right" to show what lies to the
        right (the next photo, the next tab; a swipe to the left) or "left". Return True if
        the screen pages; the default does not."""
        return False

    def leaving(self, ctx: Ctx, route: Route, why: str) -> None:
        """Called as the user leaves ``route``, the app's top screen: ``why`` is "back"
        (system Back or the toolbar's up arrow; the screen is popped next), "home" or
        "switch" (another app comes to the front; the screen stays on the stack). An editor
        that saves when it is left does it here. The default does nothing."""

    def rid(self, name: str) -> str:
        return f"{self.package}:id/{name}"


class Ctx:
    """What screens and handlers may read and do."""

    def __init__(self, phone: Phone, app: App, route: Route | None) -> None:
        self.phone = phone
        self.app = app
        self.route = route

    # ------------------------------------------------------------ reading
    @property
    def now(self) -> dt.datetime:
        return self.phone.clock

    def data(self, app: str | None = None) -> AppData:
        return self.phone.state[app or self.app.model]

    def records(self, collection: str, app: str | None = None) -> list[dict[str, Any]]:
        return self.data(app).collections.get(collection, [])

    def setting(self, name: str, app: str | None = None) -> Any:
        return self.data(app).settings.get(name)

    def find(
        self, collection: str, pred: Callable[[dict[str, Any]], bool], app: str | None = None
    ) -> dict[str, Any] | None:
        return next((r for r in self.records(collection, app) if pred(r)), None)

    def form(self, name: str, default: str = "") -> str:
        """The text typed into a field of the current screen."""
        assert self.route is not None
        return self.phone.forms.get(self.route.id, {}).get(name, default)

    def set_form(self, name: str, value: str, route: Route | None = None) -> None:
        target = route or self.route
        assert target is not None
        self.phone.forms.setdefault(target.id, {})[name] = value

    # ------------------------------------------------------------ writing (copy on write)
    def _replace(self, collection: str, records: list[dict[str, Any]], app: str | None) -> None:
        key = self.phone.append_only.get((app or self.app.model, collection))
        if key is not None:
            self._keep(collection, records, app, key)
        d = self.data(app)
        self.phone.state[app or self.app.model] = AppData(
            {**d.collections, collection: records}, d.settings
        )
        self.phone.changed = True

    def _keep(
        self, collection: str, records: list[dict[str, Any]], app: str | None, key: ir.FieldDef
    ) -> None:
        """Refuses a change that removes a key from an append-only collection."""
        kept = {key_of(r, key) for r in records}
        gone = [r for r in self.records(collection, app) if key_of(r, key) not in kept]
        if gone:
            where = f"{app or self.app.model}.{collection}"
            raise AppendOnlyViolation(
                f"{where} is append-only, but the record whose {key.name} is "
                f"{gone[0].get(key.name)!r} would be removed (or its {key.name} changed)"
            )

    def add(self, collection: str, record: dict[str, Any], app: str | None = None) -> None:
        self._replace(collection, [*self.records(collection, app), dict(record)], app)

    def update(
        self, collection: str, record: dict[str, Any], app: str | None = None, **changes: Any
    ) -> dict[str, Any]:
        """Replace ``record`` (found by identity) with a copy carrying ``changes``."""
        new = {**record, **changes}
        records = [new if r is record else r for r in self.records(collection, app)]
        self._replace(collection, records, app)
        return new

    def delete(self, collection: str, record: dict[str, Any], app: str | None = None) -> None:
        self._replace(
            collection, [r for r in self.records(collection, app) if r is not record], app
        )

    def set(self, name: str, value: Any, app: str | None = None) -> None:
        d = self.data(app)
        self.phone.state[app or self.app.model] = AppData(
            d.collections, {**d.settings, name: value}
        )
        self.phone.changed = True

    # ------------------------------------------------------------ navigating
    def push(self, screen: str, keep_scroll: bool = False, **args: Any) -> Route:
        """Open ``screen`` on top of the current one; with ``keep_scroll`` it starts where
        the current one is scrolled to (a list that enters selection mode stays put)."""
        route = Route(screen, tuple(sorted(args.items())))
        stack = self.phone.stacks.setdefault(self.app.model, [])
        if keep_scroll and stack and stack[-1].id in self.phone.scroll:
            self.phone.scroll[route.id] = self.phone.scroll[stack[-1].id]
        stack.append(route)
        return route

    def replace(self, screen: str, keep_scroll: bool = False, **args: Any) -> Route:
        """Put ``screen`` in place of the current one (keeping its scroll position, if
        asked: a list that enters selection mode stays where it was)."""
        stack = self.phone.stacks.setdefault(self.app.model, [])
        old = stack.pop() if stack else None
        route = self.push(screen, **args)
        if old is not None:
            self.phone.forms.pop(old.id, None)
            offset = self.phone.scroll.pop(old.id, None)
            if keep_scroll and offset is not None:
                self.phone.scroll[route.id] = offset
        return route

    def close_dialog(self) -> None:
        self.phone.dialog = None

    def back(self) -> None:
        self.phone.back_in_app(self.app.model)

    def back_to(self, screen: str) -> None:
        """Pop screens until ``screen`` is on top (or the stack has one screen left); the
        popped screens' typed text, scroll positions and focus go with them."""
        phone = self.phone
        stack = phone.stacks.get(self.app.model, [])
        while len(stack) > 1 and stack[-1].screen != screen:
            gone = stack.pop()
            phone.forms.pop(gone.id, None)
            phone.scroll.pop(gone.id, None)
            if phone.focus is not None and phone.focus[0] == gone.id:
                phone.focus, phone.keyboard = None, False

    def dialog(self, dialog: Dialog) -> None:
        dialog.owner = dialog.owner or self.app.model
        self.phone.dialog = dialog

    def advance(self, seconds: float) -> None:
        """Let time pass on the phone's clock (a countdown that runs before a photo)."""
        self.phone.clock += dt.timedelta(seconds=seconds)

    def toast(self, text: str) -> None:
        self.phone.toast = text

    def open(self, app: str, screen: str | None = None, **args: Any) -> None:
        """Bring another app to the front (an intent), optionally at a given screen."""
        self.phone.launch(app)
        if screen is not None:
            Ctx(self.phone, self.phone.apps[app], None).push(screen, **args)

    def focus(self, field_name: str) -> None:
        """Give the text field ``field_name`` of the current screen the focus and show the
        keyboard (as a search box that opens focused does)."""
        assert self.route is not None
        self.phone.focus = (self.route.id, field_name)
        self.phone.keyboard = True

    def copy(self, text: str) -> None:
        """Put ``text`` on the clipboard (a long press on a text field then offers Paste)."""
        self.phone.clipboard = text
        self.phone.toast = "Copied to clipboard"

    def notify(self, title: str, text: str = "", screen: str | None = None, **args: Any) -> None:
        """Post a notification from this app; tapping it in the notification shade opens
        the app (at ``screen`` with ``args``, if given)."""
        self.phone.notifications = (
            *self.phone.notifications,
            Notification(self.app.model, title, text, screen, tuple(sorted(args.items()))),
        )

    def hide_keyboard(self) -> None:
        self.phone.keyboard = False
        self.phone.focus = None


def bool_text(value: bool) -> str:
    return "On" if value else "Off"


def by_key(records: Iterable[dict[str, Any]], field_name: str, value: Any) -> dict[str, Any] | None:
    return next((r for r in records if r.get(field_name) == value), None)
