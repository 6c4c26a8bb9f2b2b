"""The phone: launcher, per-app back stacks, status bar, keyboard and focus, dialogs, clock,
and the AndroidWorld action set acting on what the agent last observed.

``Phone.observe()`` composes the current widget tree (status bar, the foreground app's
screen or the launcher, a dialog on top) and lays it out on the screen; every action is
resolved against that tree, as on a real device the agent acts on the screen it saw.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import dataclass, field
from itertools import chain
from typing import Any

from tasklang import ir
from tasklang.envs.phoneworld import widgets as w
from tasklang.envs.phoneworld.app import (
    App,
    AppData,
    Ctx,
    Dialog,
    Notification,
    Route,
    Screen,
    UndeclaredChange,
)
from tasklang.envs.phoneworld.widgets import View
from tasklang.types import whole_minute
from tasklang.verifiers.probes import opens
from tasklang.verifiers.snapshot import AppState, Foreground, WorldSnapshot
from tasklang.verifiers.state import (
    collections_unraised,
    field_kept,
    field_kept_apart,
    identity_key,
    key_of,
)
from tasklang.verifiers.ui import Screen as UiScreen

LAUNCHER = "com.google.android.apps.nexuslauncher"
LAUNCHER_ACTIVITY = "com.google.android.apps.nexuslauncher.NexusLauncherActivity"
SYSTEMUI = "com.android.systemui"
PERMISSIONS = "com.google.android.permissioncontroller"
STATUS_BAR = 84
NAV_BAR = 63
TOOLBAR = 147
TABS = 168
KEYBOARD = 860
WAIT_SECONDS = 5
ACTIONS = (
    "click",
    "double_tap",
    "long_press",
    "input_text",
    "scroll",
    "swipe",
    "navigate_back",
    "navigate_home",
    "keyboard_enter",
    "open_app",
    "wait",
    "status",
    "answer",
)


SEEN_SCREENS = 8  # composed screens each phone keeps for when the same state comes back


@dataclass
class _Composed:
    """A composed screen, with the objects its key names by identity (kept alive, so that
    their ids cannot be reused while the entry exists)."""

    tree: View
    activity: str | None
    lists: tuple[int, tuple[int, int]] | None  # the foreground list's (route id, extent)
    keep: tuple[Any, ...]
    xml: str | None = None  # its uiautomator XML, once asked for


class InvalidAction(Exception):
    """An action that cannot be carried out: the step is a no-op, with this reason."""


@dataclass
class PhoneState:
    """Everything that changes while the phone is used; restored exactly by ``restore``."""

    state: dict[str, AppData]
    stacks: dict[str, list[Route]]
    foreground: str | None
    drawer: bool
    dialog: Dialog | None
    keyboard: bool
    focus: tuple[int, str] | None
    forms: dict[int, dict[str, str]]
    scroll: dict[int, int]
    clock: dt.datetime
    granted: frozenset[str]
    toast: str | None
    ended: bool
    status: str | None
    answer: str | None
    clipboard: str | None = None
    notifications: tuple[Notification, ...] = ()
    shade: bool = False
    paste_at: tuple[int, str, w.Bounds] | None = None
    taken: tuple[tuple[View, dict[str, Any]], ...] = ()
    opened: frozenset[tuple[str, str]] = frozenset()
    held: dict[tuple[str, str], dict[str, tuple[dict[str, Any], ...]]] = field(default_factory=dict)


@dataclass
class Outcome:
    """What an action did: ``ok`` False for an invalid action (a no-op), with the reason."""

    ok: bool
    info: str
    ended: bool = False


@dataclass
class Phone:
    apps: dict[str, App]
    width: int = 1080
    height: int = 2400
    density: int = 420
    tz: str = "UTC"
    state: dict[str, AppData] = field(default_factory=dict)
    stacks: dict[str, list[Route]] = field(default_factory=dict)
    foreground: str | None = None
    drawer: bool = False
    dialog: Dialog | None = None
    keyboard: bool = False
    focus: tuple[int, str] | None = None
    forms: dict[int, dict[str, str]] = field(default_factory=dict)
    scroll: dict[int, int] = field(default_factory=dict)
    clock: dt.datetime = dt.datetime(2026, 1, 1, 9, 0)
    granted: frozenset[str] = frozenset()
    toast: str | None = None
    ended: bool = False
    status: str | None = None
    answer: str | None = None
    clipboard: str | None = None
    notifications: tuple[Notification, ...] = ()
    shade: bool = False  # the notification shade is pulled down
    row_scale: float = 1.0  # list rows' height factor (screen density and font scale)
    # a long press on a text field with text on the clipboard: the floating "Paste" toolbar
    # for (route id, field, the field's bounds)
    paste_at: tuple[int, str, w.Bounds] | None = None
    changed: bool = False
    # (app, collection) -> key field of each collection whose model says `append only`: a
    # change that removes one of its records raises ``AppendOnlyViolation``
    append_only: dict[tuple[str, str], ir.FieldDef] = field(default_factory=dict)
    # (app, collection or setting) -> where its model lets it change: an action that changes
    # it anywhere else raises ``UndeclaredChange``
    change_scopes: dict[tuple[str, str], list[ir.ChangeScope]] = field(default_factory=dict)
    # (app, collection) -> where its model lets its records be removed (`removes`): an action
    # that removes one anywhere else raises ``UndeclaredChange``
    removal_scopes: dict[tuple[str, str], list[ir.ChangeScope]] = field(default_factory=dict)
    # ... and where it lets records be added to it (`adds`)
    addition_scopes: dict[tuple[str, str], list[ir.ChangeScope]] = field(default_factory=dict)
    # ... and where it lets an update bring a record back to what it held earlier (`undoes`):
    # ``held`` keeps, by key, what each record of those collections held since ``load``
    reversal_scopes: dict[tuple[str, str], list[ir.ChangeScope]] = field(default_factory=dict)
    held: dict[tuple[str, str], dict[str, tuple[dict[str, Any], ...]]] = field(default_factory=dict)
    # (app, collection) -> its records' key field (a `changes` line naming a field follows a
    # record by its key)
    record_keys: dict[tuple[str, str], ir.FieldDef] = field(default_factory=dict)
    # (app, collection) -> the fields that tell its records apart, where they have no key
    # but fields that never change (a record removed is one fewer holding their values)
    identities: dict[tuple[str, str], tuple[str, ...]] = field(default_factory=dict)
    # (app, "collection.field") -> default, of records told apart by nothing: where a
    # record may come to hold another value of the field (``unraised_fields``)
    unraised: dict[tuple[str, str], Any] = field(default_factory=dict)
    # (app, collection) -> its records' fields that change by themselves: a `changes` line
    # on the collection does not hold of them
    itself_fields: dict[tuple[str, str], frozenset[str]] = field(default_factory=dict)
    # (app, collection) -> its records' fields declared `datetime(minute)`: an action that
    # writes one a value with seconds raises ``UndeclaredChange``
    minutes: dict[tuple[str, str], tuple[str, ...]] = field(default_factory=dict)
    # with ``change_scopes``: each action taken since ``load``, with the screen it was taken on,
    # and the declared state one of them was found to be a way in to (``(app, "removed from
    # COLLECTION")``: a way in to removing its records)
    taken: tuple[tuple[View, dict[str, Any]], ...] = ()
    opened: frozenset[tuple[str, str]] = frozenset()
    _tree: View | None = None
    _activity: str | None = None
    _lists: dict[int, tuple[int, int]] = field(default_factory=dict)  # route id -> total, page
    _flat: list[View] | None = None
    # screens composed recently, by everything they are a function of (see ``screen_key``)
    _seen: dict[tuple[Any, ...], _Composed] = field(default_factory=dict, repr=False)
    _bar: tuple[tuple[Any, ...], View] | None = field(default=None, repr=False)
    _shown: _Composed | None = field(default=None, repr=False)  # the entry of ``_tree``
    hits: int = 0  # observations answered from ``_seen``
    misses: int = 0  # observations composed afresh

    # ------------------------------------------------------------ the world
    def load(self, snap: WorldSnapshot, foreground: str | None = None) -> None:
        """Start from a task instance's initial state (and foreground app)."""
        self.state = {}
        for name, app in snap.apps.items():
            self.state[name] = AppData(
                {k: list(v) for k, v in app.collections.items()}, dict(app.settings)
            )
        for name in self.apps:
            self.state.setdefault(name, AppData({}, {}))
        if snap.clock:
            self.clock = dt.datetime.fromisoformat(snap.clock).replace(tzinfo=None)
        self.tz = snap.tz
        self.stacks, self.forms, self.scroll = {}, {}, {}
        self.foreground, self.drawer, self.dialog = None, False, None
        self.keyboard, self.focus, self.toast = False, None, None
        self.ended, self.status, self.answer = False, None, None
        self.clipboard, self.notifications, self.shade = None, (), False
        self.paste_at = None
        self.taken, self.opened, self.held = (), frozenset(), {}
        self._note_held()
        self.granted = frozenset()
        self._tree = None
        posted: list[Notification] = []
        for installed in self.apps.values():
            posted += installed.posted(Ctx(self, installed, None))
        self.notifications = tuple(posted)
        if foreground is not None and foreground in self.apps:
            self.launch(foreground)

    def world(self) -> WorldSnapshot:
        """The world as the verifier reads it (shares the phone's immutable records)."""
        apps = {
            name: AppState.model_construct(collections=dict(d.collections), settings=d.settings)
            for name, d in self.state.items()
        }
        package, activity = self.current_activity()
        return WorldSnapshot.model_construct(
            apps=apps,
            foreground=Foreground.model_construct(package=package, activity=activity),
            ui_xml=None,
            ui_elements=None,
            clock=self.clock.isoformat(),
            tz=self.tz,
        )

    def snapshot(self) -> PhoneState:
        return PhoneState(
            {k: AppData(v.collections, v.settings) for k, v in self.state.items()},
            {k: list(v) for k, v in self.stacks.items()},
            self.foreground,
            self.drawer,
            self.dialog,
            self.keyboard,
            self.focus,
            {k: dict(v) for k, v in self.forms.items()},
            dict(self.scroll),
            self.clock,
            self.granted,
            self.toast,
            self.ended,
            self.status,
            self.answer,
            self.clipboard,
            self.notifications,
            self.shade,
            self.paste_at,
            self.taken,
            self.opened,
            {k: dict(v) for k, v in self.held.items()},
        )

    def restore(self, s: PhoneState) -> None:
        self.state = {k: AppData(v.collections, v.settings) for k, v in s.state.items()}
        self.stacks = {k: list(v) for k, v in s.stacks.items()}
        self.foreground, self.drawer, self.dialog = s.foreground, s.drawer, s.dialog
        self.keyboard, self.focus = s.keyboard, s.focus
        self.forms = {k: dict(v) for k, v in s.forms.items()}
        self.scroll = dict(s.scroll)
        self.clock, self.granted, self.toast = s.clock, s.granted, s.toast
        self.ended, self.status, self.answer = s.ended, s.status, s.answer
        self.clipboard, self.notifications, self.shade = s.clipboard, s.notifications, s.shade
        self.paste_at, self.taken, self.opened = s.paste_at, s.taken, s.opened
        self.held = {k: dict(v) for k, v in s.held.items()}
        self._tree = None

    # ------------------------------------------------------------ navigation
    def leave(self, why: str) -> None:
        """Tell the foreground app its top screen is being left (see ``App.leaving``)."""
        model = self.foreground
        route = self.route()
        if model is None or route is None:
            return
        app = self.apps[model]
        app.leaving(Ctx(self, app, route), route, why)

    def launch(self, model: str) -> None:
        if self.foreground is not None and self.foreground != model:
            self.leave("switch")
        app = self.apps[model]
        self.foreground, self.drawer = model, False
        self.keyboard, self.focus = False, None
        if not self.stacks.get(model):
            self.stacks[model] = [Route(app.home)]
        missing = [p for p in app.permissions if p not in self.granted]
        if missing and self.dialog is None:
            self.dialog = permission_dialog(app, missing[0])

    def back_in_app(self, model: str) -> None:
        stack = self.stacks.get(model, [])
        if stack:
            gone = stack.pop()
            self.forms.pop(gone.id, None)
            self.scroll.pop(gone.id, None)
            if self.focus is not None and self.focus[0] == gone.id:
                self.focus, self.keyboard = None, False
        if not stack:
            self.stacks.pop(model, None)
            if self.foreground == model:
                host = self.apps[model].host
                # leaving a mini-app returns to the super-app it runs in
                self.foreground = host if host in self.apps else None
                if self.foreground is not None and not self.stacks.get(self.foreground):
                    self.stacks[self.foreground] = [Route(self.apps[self.foreground].home)]

    def route(self) -> Route | None:
        if self.foreground is None:
            return None
        stack = self.stacks.get(self.foreground)
        return stack[-1] if stack else None

    def current_activity(self) -> tuple[str, str]:
        if self.foreground is None:
            return LAUNCHER, LAUNCHER_ACTIVITY
        app = self.apps[self.foreground]
        if self._tree is None:
            self.observe()
        return app.package, self._activity or app.activity

    # ------------------------------------------------------------ composing the screen
    def invalidate(self) -> None:
        """Forget composed screens: call after changing the phone other than by actions
        (writing app state in place, installing or removing apps)."""
        self._tree, self._flat, self._bar = None, None, None
        self._seen.clear()

    def screen_key(self) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
        """Everything a composed screen is a function of: each app's state, every back
        stack, forms, scroll positions, focus, keyboard, dialog, toast, clock, permissions.
        Apps keep no state of their own and app state is never changed in place, so equal
        keys mean equal screens. Objects are named by identity; the second tuple holds them
        so that their ids stay theirs."""
        state = tuple(self.state.values())
        routes = tuple(chain.from_iterable(self.stacks.values()))
        key = (
            self.foreground,
            self.drawer,
            self.keyboard,
            self.focus,
            self.toast,
            self.clock,
            self.granted,
            self.ended,
            self.clipboard,
            id(self.notifications),
            self.shade,
            self.paste_at,
            id(self.dialog),
            id(self.apps),
            len(self.apps),
            tuple(self.state),
            tuple(map(id, state)),
            tuple(self.stacks),
            tuple(map(len, self.stacks.values())),
            tuple(map(id, routes)),
            tuple((k, tuple(v.items())) for k, v in self.forms.items() if v),
            tuple(self.scroll.items()),
        )
        return key, (state, routes, self.dialog, self.notifications)

    def observe(self) -> View:
        """The current widget tree, laid out (cached until the next action, and reused when
        the phone comes back to a state it showed recently)."""
        if self._tree is not None:
            return self._tree
        key, keep = self.screen_key()
        seen = self._seen.pop(key, None)
        if seen is not None:
            self.hits += 1
            self._seen[key] = seen  # most recently used last
            self._tree, self._flat, self._activity = seen.tree, None, seen.activity
            self._shown = seen
            if seen.lists is not None:
                self._lists[seen.lists[0]] = seen.lists[1]
            return seen.tree
        self.misses += 1
        root = self.compose()
        route = self.route()
        lists = None
        if route is not None and route.id in self._lists:
            lists = (route.id, self._lists[route.id])
        self._shown = self._seen[key] = _Composed(root, self._activity, lists, keep)
        if len(self._seen) > SEEN_SCREENS:
            del self._seen[next(iter(self._seen))]
        return root

    def xml(self) -> str:
        """The current screen as ``uiautomator dump`` writes it."""
        tree = self.observe()
        shown = self._shown
        if shown is None or shown.tree is not tree:
            return w.to_xml(tree)
        if shown.xml is None:
            shown.xml = w.to_xml(tree)
        return shown.xml

    def compose(self) -> View:
        """Compose and lay out the current screen."""
        top = STATUS_BAR
        bottom = self.height - NAV_BAR - (KEYBOARD if self.keyboard else 0)
        if self.foreground is None:
            package = LAUNCHER
            content = self.launcher_view(top, bottom)
            self._activity = LAUNCHER_ACTIVITY
        else:
            app = self.apps[self.foreground]
            package = app.package
            route = self.route()
            assert route is not None
            screen = app.screen(Ctx(self, app, route), route)
            self._activity = screen.activity or app.activity
            content = self.screen_view(app, route, screen, top, bottom)
        if self.shade:  # the shade covers whatever is under it
            content, package = self.shade_view(top, self.height - NAV_BAR), SYSTEMUI
        root = View(w.FRAME, children=[content], package=package)
        root.bounds = (0, 0, self.width, self.height)
        root.children.insert(0, self.status_bar())
        if self.shade:
            self._tree, self._flat = root, None
            return root
        if self.paste_at is not None:
            root.children.append(self.paste_toolbar(self.paste_at, package))
        if self.dialog is not None:
            overlay = self.dialog_view(self.dialog, package)
            owner = self.stacks.get(self.dialog.owner or "")
            if owner:  # text fields in a dialog write to the screen under it
                self.decorate_fields(owner[-1], overlay)
            root.children.append(overlay)
        if self.toast:
            toast = View(w.TEXT, text=self.toast, rid="android:id/message", package=package)
            toast.bounds = (240, bottom - 260, self.width - 240, bottom - 140)
            root.children.append(toast)
        self._tree = root
        self._flat = None
        return root

    def nodes(self) -> list[View]:
        """The current screen's views in document order (the element list's order)."""
        if self._tree is None or self._flat is None:
            self._flat = self.observe().flat()
        return self._flat

    def status_bar(self) -> View:
        wifi_on = self.state.get("settings", AppData({}, {})).settings.get("wifi", True)
        key = (self.clock.hour, self.clock.minute, bool(wifi_on), self.width)
        if self._bar is not None and self._bar[0] == key:
            return self._bar[1]  # it only changes with the minute and the wifi
        bar = self._status_bar(bool(wifi_on))
        self._bar = (key, bar)
        return bar

    def _status_bar(self, wifi_on: bool) -> View:
        clock = View(w.TEXT, text=self.clock.strftime("%-H:%M"), rid=f"{SYSTEMUI}:id/clock")
        battery = View(w.IMAGE, desc="Battery 100 percent.", rid=f"{SYSTEMUI}:id/battery")
        wifi = View(w.IMAGE, desc="Wifi signal full." if wifi_on else "Wifi off.")
        bar = View(w.FRAME, rid=f"{SYSTEMUI}:id/status_bar", horizontal=True)
        bar.children = [clock, View(w.LINEAR, horizontal=True, children=[wifi, battery])]
        w.layout(bar, 0, 0, self.width, STATUS_BAR)
        bar.package = SYSTEMUI
        return bar

    def screen_view(self, app: App, route: Route, screen: Screen, top: int, bottom: int) -> View:
        width = self.width
        body = View(w.LINEAR, rid="android:id/content")
        body.bounds = (0, top, width, bottom)
        y = top
        if screen.title is not None or screen.up or screen.actions:
            bar = View(w.TOOLBAR, rid=app.rid("toolbar"), horizontal=True)
            if screen.up:
                bar.children.append(
                    View(
                        w.IMAGE_BUTTON,
                        desc="Navigate up",
                        clickable=True,
                        focusable=True,
                        on_click="sys:up",
                        weight=0.15,
                    )
                )
            if screen.title is not None:
                bar.children.append(View(w.TEXT, text=screen.title, weight=1.0))
            for a in screen.actions:
                a.weight = a.weight if a.weight != 1.0 else 0.15
                bar.children.append(a)
            w.layout(bar, 0, y, width, y + TOOLBAR)
            body.children.append(bar)
            y += TOOLBAR
        for h in screen.header:
            height = w.natural_height(h)
            w.layout(h, 0, y, width, y + height)
            body.children.append(h)
            y += height
        footer_height = sum(w.natural_height(f) for f in screen.footer)
        list_bottom = bottom - (TABS if screen.tabs else 0) - footer_height
        footer_top = list_bottom
        body.children.append(self.list_view(route, screen, y, list_bottom))
        for f in screen.footer:
            height = w.natural_height(f)
            w.layout(f, 0, footer_top, width, footer_top + height)
            body.children.append(f)
            footer_top += height
        if screen.tabs:
            tabs = View(w.LINEAR, rid=app.rid("main_tabs_holder"), horizontal=True)
            tabs.children = screen.tabs
            w.layout(tabs, 0, footer_top, width, bottom)
            body.children.append(tabs)
        self.decorate_fields(route, body)
        if screen.fab is not None:
            fab = screen.fab
            w.layout(fab, width - 220, list_bottom - 220, width - 52, list_bottom - 52)
            body.children.append(fab)
        return body

    def list_view(self, route: Route, screen: Screen, top: int, bottom: int) -> View:
        heights = [w.natural_height(r) for r in screen.rows]
        if self.row_scale != 1.0:
            heights = [max(1, int(h * self.row_scale)) for h in heights]
        total = sum(heights)
        page = max(1, bottom - top)
        offset = min(self.scroll.get(route.id, 0), max(0, total - page))
        self._lists[route.id] = (total, page)
        holder = View(screen.list_cls, rid=screen.list_rid, scrollable=total > page)
        holder.bounds = (0, top, self.width, bottom)
        y = top - offset
        for row, h in zip(screen.rows, heights, strict=True):
            if y + h > top and y < bottom:
                w.layout(row, 0, y, self.width, y + h)
                if y < top or y + h > bottom:
                    clip(row, top, bottom)
                holder.children.append(row)
            y += h
        return holder

    def decorate_fields(self, route: Route, root: View) -> None:
        """Editable texts show what was typed into them (or their hint), and the focus."""
        values = self.forms.get(route.id, {})
        for v in root.walk():
            if v.edit is None:
                continue
            v.cls = w.EDIT if v.cls == w.TEXT else v.cls
            v.clickable = v.focusable = v.long_clickable = True
            typed = values.get(v.edit)
            if typed:
                v.text = typed
            elif not v.text:
                v.text = v.hint
            v.focused = self.focus == (route.id, v.edit)

    def launcher_view(self, top: int, bottom: int) -> View:
        root = View(w.FRAME, rid=f"{LAUNCHER}:id/launcher")
        apps = sorted(
            (a for a in self.apps.values() if a.host is None), key=lambda a: a.label.lower()
        )
        icons = [
            View(
                w.TEXT,
                text=a.label,
                desc=a.label,
                clickable=True,
                long_clickable=True,
                focusable=True,
                on_click="sys:open",
                arg=a.model,
                height=300,
            )
            for a in apps
        ]
        if self.drawer:
            grid = View(w.RECYCLER, rid=f"{LAUNCHER}:id/apps_list_view", scrollable=False)
            search = View(w.EDIT, text="Search your phone and more", rid=f"{LAUNCHER}:id/input")
            rows = [icons[i : i + 5] for i in range(0, len(icons), 5)]
            grid.children = [View(w.LINEAR, horizontal=True, children=r, height=300) for r in rows]
            root.children = [search, grid]
            w.layout(root, 0, top, self.width, bottom)
            return root
        workspace = View(w.VIEWGROUP, rid=f"{LAUNCHER}:id/workspace", desc="Home")
        rows = [icons[i : i + 4] for i in range(0, len(icons), 4)]
        workspace.children = [View(w.LINEAR, horizontal=True, children=r, height=300) for r in rows]
        drawer = View(
            w.TEXT,
            text="Apps list",
            desc="Apps list",
            clickable=True,
            on_click="sys:drawer",
            rid=f"{LAUNCHER}:id/all_apps_handle",
            height=150,
        )
        root.children = [
            workspace,
            View(w.VIEW, height=max(0, bottom - top - 150 - 300 * len(rows))),
            drawer,
        ]
        w.layout(root, 0, top, self.width, bottom)
        return root

    def shade_view(self, top: int, bottom: int) -> View:
        """The notification shade: quick settings' header, the notifications (newest first;
        a tap opens the app that posted one), and "Clear all"."""
        rows: list[View] = []
        for i in reversed(range(len(self.notifications))):
            n = self.notifications[i]
            app = self.apps.get(n.app)
            label = app.label if app is not None else n.app
            parts = [
                View(w.TEXT, text=label, rid="android:id/app_name_text", height=60),
                View(w.TEXT, text=n.title, rid="android:id/title", height=70),
            ]
            if n.text:
                parts.append(View(w.TEXT, text=n.text, rid="android:id/text", height=70))
            rows.append(
                View(
                    w.FRAME,
                    rid=f"{SYSTEMUI}:id/expandableNotificationRow",
                    desc=f"{label} notification: {n.title}",
                    clickable=True,
                    focusable=True,
                    long_clickable=True,
                    on_click="sys:notification",
                    arg=i,
                    children=[View(w.LINEAR, children=parts)],
                )
            )
        if rows:
            rows.append(
                View(
                    w.BUTTON,
                    text="Clear all",
                    rid=f"{SYSTEMUI}:id/dismiss_text",
                    clickable=True,
                    focusable=True,
                    on_click="sys:clear_notifications",
                    height=140,
                )
            )
        else:
            rows.append(
                View(
                    w.TEXT,
                    text="No notifications",
                    rid=f"{SYSTEMUI}:id/no_notifications",
                    height=200,
                )
            )
        header = View(
            w.TEXT,
            text=self.clock.strftime("%a, %b %-d"),
            rid=f"{SYSTEMUI}:id/date",
            height=120,
        )
        stack = View(w.SCROLL, rid=f"{SYSTEMUI}:id/notification_stack_scroller", children=rows)
        shade = View(
            w.FRAME,
            rid=f"{SYSTEMUI}:id/notification_panel",
            children=[header, stack],
        )
        w.layout(shade, 0, top, self.width, bottom)
        return shade

    def paste_toolbar(self, at: tuple[int, str, w.Bounds], package: str) -> View:
        """The floating text toolbar a long press on a text field shows: "Paste"."""
        route_id, field_name, (left, top, right, _bottom) = at
        y = max(STATUS_BAR, top - 130)
        item = View(
            w.BUTTON,
            text="Paste",
            rid="android:id/floating_toolbar_menu_item_text",
            clickable=True,
            focusable=True,
            on_click="sys:paste",
            arg=(route_id, field_name),
        )
        bar = View(w.LINEAR, horizontal=True, children=[item])
        w.layout(bar, left, y, min(right, left + 300), y + 120)
        bar.package = package
        return bar

    def dialog_view(self, dialog: Dialog, package: str) -> View:
        pkg = PERMISSIONS if dialog.system else package
        parts = [View(w.TEXT, text=dialog.title, rid="android:id/alertTitle", height=140)]
        if dialog.system:
            parts[0].rid = f"{PERMISSIONS}:id/permission_message"
        if dialog.message:
            parts.append(View(w.TEXT, text=dialog.message, rid="android:id/message", height=160))
        parts += dialog.items
        buttons = View(w.LINEAR, horizontal=True, height=150)
        for i, (label, _key, _arg) in enumerate(dialog.buttons):
            rid = f"android:id/button{[1, 2, 3][min(i, 2)]}"
            if dialog.system:
                rid = f"{PERMISSIONS}:id/permission_{['allow', 'deny'][min(i, 1)]}_button"
            buttons.children.append(
                View(
                    w.BUTTON,
                    text=label,
                    rid=rid,
                    clickable=True,
                    focusable=True,
                    on_click="sys:dialog",
                    arg=i,
                )
            )
        parts.append(buttons)
        panel = View(
            w.LINEAR,
            rid="android:id/parentPanel" if not dialog.system else f"{PERMISSIONS}:id/grant_dialog",
            children=parts,
        )
        height = sum(w.natural_height(p) for p in parts)
        top = max(STATUS_BAR, (self.height - height) // 2)
        w.layout(panel, 60, top, self.width - 60, min(self.height - NAV_BAR, top + height))
        # a tap outside the dialog's panel dismisses it, as on a phone
        overlay = View(w.FRAME, children=[panel], on_click="sys:dismiss")
        overlay.bounds = (0, 0, self.width, self.height)
        overlay.package = pkg
        return overlay

    # ------------------------------------------------------------ actions
    def act(self, action: dict[str, Any]) -> Outcome:
        """Carry out one AndroidWorld JSON action on the screen last observed."""
        scoped = (
            self.change_scopes or self.removal_scopes or self.addition_scopes
            or self.reversal_scopes
        )  # fmt: skip
        before = dict(self.state) if scoped else None
        if before is not None:
            self.taken = (*self.taken, (self.observe(), action))
        # the apps' data before the action, for the check of whole minutes (the same as
        # ``before`` where that is kept)
        was = (before if before is not None else dict(self.state)) if self.minutes else None
        try:
            info = self._act(action)
        except InvalidAction as exc:
            if before is not None:
                self.taken = self.taken[:-1]
            return Outcome(False, str(exc), self.ended)
        self._tree = None
        if was is not None:
            self._whole_minutes(was, before is not None)
        if before is not None:
            self._changed_where_declared(before)
            self._note_held(before)
        return Outcome(True, info, self.ended)

    def _whole_minutes(self, before: dict[str, AppData], taken: bool) -> None:
        """Refuses an action that wrote a value with seconds to a field its model declares
        `datetime(minute)`: puts the apps' data back as it was ``before`` and raises
        ``UndeclaredChange`` (``taken``: the action was noted in ``taken``)."""
        for (app, coll), names in self.minutes.items():
            old, new = before.get(app), self.state.get(app)
            if new is None or old is new:
                continue
            records = new.collections.get(coll, [])
            if old is not None and old.collections.get(coll) is records:
                continue
            bad = next(((r, n) for r in records for n in names if not whole_minute(r.get(n))),
                       None)  # fmt: skip
            if bad is None:
                continue
            self.state.clear()  # the apps' data as it was: nothing is written
            self.state.update(before)
            if taken:
                self.taken = self.taken[:-1]
            raise UndeclaredChange(f"{app}.{coll}: `{bad[1]}` was set to {bad[0][bad[1]]!r}, and "
                                   "the model says it is a whole minute (`datetime(minute)`)")  # fmt: skip

    def _changed_where_declared(self, before: dict[str, AppData]) -> None:
        """Refuses a change the app models do not let the actions taken so far make (see
        ``UndeclaredChange``)."""
        screens: dict[int, UiScreen] = {}
        self._keys_where_declared(before, screens, "removed")
        self._keys_where_declared(before, screens, "added")
        self._undone_where_declared(before, screens)
        for (app, name), scopes in self.change_scopes.items():
            old, new = before.get(app), self.state.get(app)
            if old is None or new is None or old is new or (app, name) in self.opened:
                continue
            coll = name.split(".")[0]
            loose = self.itself_fields.get((app, name), frozenset())
            key, identity = self.record_keys.get((app, coll)), self.identities.get((app, coll))
            if (app, name) in self.unraised:  # records told apart by nothing
                if collections_unraised(
                    old.collections, new.collections, name, self.unraised[(app, name)]
                ):
                    continue
            elif _same_state(old, new, name, key, loose, identity or ()):
                continue
            why = f"{app}.{name} changed where its model does not let it change"
            self._opened_or_refuse((app, name), scopes, screens, before, why, "it changes")

    def _keys_where_declared(
        self, before: dict[str, AppData], screens: dict[int, UiScreen], done: str
    ) -> None:
        """Refuses the removal of a record (its key gone; ``done`` "removed") from a
        collection whose model says where its records are removed, or the addition of one (a
        key new there; "added") to a collection whose model says where they are added, by an
        action that is no way in to that. Records without a key are told apart by the fields
        that never change: fewer records holding some values of them is one removed, more is
        one added."""
        removed = done == "removed"
        for (app, name), scopes in (
            self.removal_scopes if removed else self.addition_scopes
        ).items():
            old, new, key = before.get(app), self.state.get(app), self.record_keys.get((app, name))
            identity = self.identities.get((app, name))
            way = (app, f"{done} {'from' if removed else 'to'} {name}")
            if old is None or new is None or old is new or way in self.opened:
                continue
            if key is not None:  # a key held at all, however many records hold it
                was = Counter({key_of(r, key) for r in old.collections.get(name, [])})
                now = Counter({key_of(r, key) for r in new.collections.get(name, [])})
            elif identity:
                was = Counter(identity_key(r, identity) for r in old.collections.get(name, []))
                now = Counter(identity_key(r, identity) for r in new.collections.get(name, []))
            else:
                continue
            if not (was - now if removed else now - was):
                continue
            why = f"a record of {app}.{name} was {done} where its model does not let one be {done}"
            self._opened_or_refuse(way, scopes, screens, before, why, f"its records are {done}")

    def _undone_where_declared(
        self, before: dict[str, AppData], screens: dict[int, UiScreen]
    ) -> None:
        """Refuses an update that brings a record (found by its key) of a collection whose
        model says where updates are undone back to what it held earlier in the episode
        (``held``; but for the fields that change by themselves), by an action that is no
        way in to that."""
        for (app, name), scopes in self.reversal_scopes.items():
            old, new, key = before.get(app), self.state.get(app), self.record_keys.get((app, name))
            way = (app, f"undone in {name}")
            if old is None or new is None or old is new or key is None or way in self.opened:
                continue
            was, now = old.collections.get(name, []), new.collections.get(name, [])
            if was is now:
                continue
            loose = self.itself_fields.get((app, name), frozenset())
            last = {key_of(r, key): r for r in was}
            held = self.held.get((app, name), {})
            for record in now:
                k = key_of(record, key)
                if k not in last or _alike(last[k], record, loose):
                    continue
                if any(_alike(earlier, record, loose) for earlier in held.get(k, ())):
                    why = (f"a record of {app}.{name} ({key.name} {k!r}) was brought back to "
                           "what it held earlier, where its model does not let an update be "
                           "undone")  # fmt: skip
                    self._opened_or_refuse(way, scopes, screens, before, why, "updates are undone")
                    break

    def _note_held(self, before: dict[str, AppData] | None = None) -> None:
        """Adds what each record of the collections in ``reversal_scopes`` holds now to
        ``held``, where it is new (``before``: the apps' data before the action, whose
        collections it left as they were need no look)."""
        for app, name in self.reversal_scopes:
            key, data = self.record_keys.get((app, name)), self.state.get(app)
            if key is None or data is None:
                continue
            old = before.get(app) if before is not None else None
            if old is not None and old.collections.get(name) is data.collections.get(name):
                continue
            loose = self.itself_fields.get((app, name), frozenset())
            held = self.held.setdefault((app, name), {})
            for record in data.collections.get(name, []):
                k = key_of(record, key)
                states = held.get(k, ())
                if not states or not _alike(states[-1], record, loose):
                    held[k] = (*states, record)

    def _opened_or_refuse(
        self,
        way: tuple[str, str],
        scopes: list[ir.ChangeScope],
        screens: dict[int, UiScreen],
        before: dict[str, AppData],
        why: str,
        what: str,
    ) -> None:
        """Notes ``way`` as taken when an action so far opened one of ``scopes``; else puts
        the apps' data back as it was ``before`` and raises ``UndeclaredChange``: ``why``,
        and where the model says ``what`` happens."""
        if any(self._opened(scope, screens) for scope in scopes):
            self.opened = self.opened | {way}  # a way in stays taken
            return
        self.state.clear()  # the apps' data as it was: nothing is written
        self.state.update(before)
        self.taken = self.taken[:-1]
        shown = "; ".join(_scope_text(s) for s in scopes)
        raise UndeclaredChange(f"{why} (the model says {what} {shown})")

    def _opened(self, scope: ir.ChangeScope, screens: dict[int, UiScreen]) -> bool:
        """Whether an action taken so far (this one included) lets the scope's state change
        (``screens``: the steps' screens parsed so far, by step)."""
        for i, (tree, action) in enumerate(self.taken):
            screen = screens.get(i)
            if screen is None:
                screen = screens[i] = UiScreen.from_parts(w.to_xml(tree), None)
            at = (action.get("index"), action.get("x"), action.get("y"))
            if opens(scope, screen, action.get("action_type"), *at):
                return True
        return False

    def _act(self, a: dict[str, Any]) -> str:
        kind = a.get("action_type")
        if kind not in ACTIONS:
            raise InvalidAction(
                f"unknown action_type {kind!r}; expected one of {', '.join(ACTIONS)}"
            )
        if self.ended:
            raise InvalidAction("the episode has ended")
        tree = self.observe()
        self.toast, self.paste_at = None, None
        if kind in ("click", "double_tap", "long_press"):
            view = self.target(a, tree, required=True)
            assert view is not None
            info = self.tap(view, long=kind == "long_press")
            self._tree = None
            if kind == "double_tap":
                # the second tap lands on the same point of the screen the first one made
                left, top, right, bottom = view.bounds
                second = w.hit(self.observe(), (left + right) / 2, (top + bottom) / 2)
                if second is not None:
                    info = self.tap(second)
                    self._tree = None
            return info
        if kind == "input_text":
            text = a.get("text")
            if not isinstance(text, str):
                raise InvalidAction("input_text needs `text`")
            view = self.target(a, tree, required=False)
            if view is not None:
                if view.edit is None:
                    raise InvalidAction(f"element {describe(view)} is not a text field")
                self.focus_on(view)
            if self.focus is None:
                raise InvalidAction("no text field has the focus; name one with `index`")
            route_id, name = self.focus
            values = self.forms.setdefault(route_id, {})
            values[name] = text if a.get("clear_text") else values.get(name, "") + text
            return f"typed {text!r}"
        if kind in ("scroll", "swipe"):
            direction = a.get("direction")
            if direction not in ("up", "down", "left", "right"):
                raise InvalidAction(f"{kind} needs `direction`: up, down, left or right")
            if kind == "swipe":
                direction = {"up": "down", "down": "up", "left": "right", "right": "left"}[
                    direction
                ]
            if self.shade:
                if direction == "down":  # a swipe up closes the shade
                    self.shade = False
                    return "notification shade closed"
                return "nothing to scroll"
            if direction == "up" and self.on_status_bar(a, tree):
                self.shade = True  # a swipe down from the status bar pulls the shade down
                return "notification shade"
            return self.scroll_by(direction)
        if kind == "navigate_back":
            if self.shade:
                self.shade = False
                return "notification shade closed"
            return self.go_back()
        if kind == "navigate_home":
            self.shade = False
            self.leave("home")
            self.foreground, self.drawer, self.dialog = None, False, None
            self.keyboard, self.focus = False, None
            return "home screen"
        if kind == "keyboard_enter":
            return self.enter()
        if kind == "open_app":
            app_name = a.get("app_name")
            if not isinstance(app_name, str) or not app_name.strip():
                raise InvalidAction("open_app needs `app_name`")
            model = self.find_app(app_name)
            self.dialog, self.shade = None, False
            self.launch(model)
            return f"opened {self.apps[model].label}"
        if kind == "wait":
            self.clock += dt.timedelta(seconds=WAIT_SECONDS)
            return f"waited {WAIT_SECONDS} s"
        if kind == "status":
            status = a.get("goal_status")
            if status not in ("complete", "infeasible"):
                raise InvalidAction("status needs `goal_status`: complete or infeasible")
            self.ended, self.status = True, status
            return f"declared the task {status}"
        text = a.get("text")
        if not isinstance(text, str):
            raise InvalidAction("answer needs `text`")
        # answering finishes the task: the episode ends with the answer, declared complete
        self.ended, self.answer, self.status = True, text, "complete"
        return "answered"

    def find_app(self, name: str) -> str:
        key = " ".join(name.split()).casefold()
        for model, app in self.apps.items():
            if app.host is None and key in (
                app.label.casefold(),
                model.casefold(),
                app.package.casefold(),
            ):
                return model
        labels = ", ".join(sorted(a.label for a in self.apps.values() if a.host is None))
        raise InvalidAction(f"no app named {name!r} on this phone (apps: {labels})")

    def target(self, a: dict[str, Any], tree: View, required: bool) -> View | None:
        index = a.get("index")
        if index is not None:
            if isinstance(index, bool) or not isinstance(index, int):
                raise InvalidAction(f"`index` must be an integer, not {index!r}")
            nodes = self.nodes() if tree is self._tree else tree.flat()
            if not 0 <= index < len(nodes):
                raise InvalidAction(f"index {index} is out of range (0..{len(nodes) - 1})")
            node = nodes[index]
            left, top, right, bottom = node.bounds
            if right <= left or bottom <= top:
                raise InvalidAction(f"element {index} is not visible")
            return w.hit(tree, (left + right) / 2, (top + bottom) / 2) or node
        x, y = a.get("x"), a.get("y")
        if x is None and y is None:
            if required:
                raise InvalidAction(f"{a.get('action_type')} needs `index` or `x` and `y`")
            return None
        if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (x, y)):
            raise InvalidAction("`x` and `y` must both be numbers")
        assert isinstance(x, (int, float)) and isinstance(y, (int, float))
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise InvalidAction(f"({x}, {y}) is off the {self.width}x{self.height} screen")
        found = w.hit(tree, x, y)
        if found is None:
            if required:
                return View(w.VIEW)  # a tap on nothing: valid, and does nothing
            return None
        return found

    def on_status_bar(self, a: dict[str, Any], tree: View) -> bool:
        """Whether a scroll or swipe starts on the status bar (by index or coordinates)."""
        if a.get("index") is None and a.get("x") is None and a.get("y") is None:
            return False
        if a.get("index") is not None:
            view = self.target(a, tree, required=False)
            return view is not None and view.bounds[3] <= STATUS_BAR
        y = a.get("y")
        self.target(a, tree, required=False)  # checks the coordinates
        return isinstance(y, (int, float)) and y < STATUS_BAR

    def tap(self, view: View, long: bool = False) -> str:
        if not view.enabled:
            return f"{describe(view)} is disabled: nothing happened"
        if view.edit is not None:
            self.focus_on(view)
            if not long:
                return f"focused {describe(view)}"
            if not self.clipboard:
                return f"long-pressed {describe(view)}: the clipboard is empty"
            assert self.focus is not None
            self.paste_at = (*self.focus, view.bounds)
            return f"long-pressed {describe(view)}: Paste offered"
        key = view.on_long if long else view.on_click
        if key is None:
            return f"{'long-pressed' if long else 'tapped'} {describe(view)}: nothing happened"
        if key.startswith("sys:"):
            return self.system(key, view.arg)
        owner = self.foreground
        if self.dialog is not None:  # an item of the dialog: it closes, then the app acts
            owner, self.dialog = self.dialog.owner, None
        return self.dispatch(owner, key, view.arg)

    def dispatch(self, model: str | None, key: str, arg: Any) -> str:
        if model is None:
            return "nothing happened"
        app = self.apps[model]
        ctx = Ctx(self, app, self.stacks.get(model, [None])[-1] if self.stacks.get(model) else None)
        if not app.handle(ctx, key, arg):
            raise RuntimeError(f"{model} has no handler `on_{key}`")
        return key

    def system(self, key: str, arg: Any) -> str:
        if key == "sys:open":
            self.launch(arg)
            return f"opened {self.apps[arg].label}"
        if key == "sys:dismiss":
            self.dialog = None
            return "dialog dismissed"
        if key == "sys:notification":
            return self.open_notification(arg)
        if key == "sys:clear_notifications":
            self.notifications, self.shade = (), False
            return "notifications cleared"
        if key == "sys:paste":
            route_id, field_name = arg
            values = self.forms.setdefault(route_id, {})
            values[field_name] = values.get(field_name, "") + (self.clipboard or "")
            return f"pasted {self.clipboard!r}"
        if key == "sys:drawer":
            self.drawer = True
            return "app drawer"
        if key == "sys:up":
            return self.go_back(up=True)
        if key == "sys:dialog":
            dialog = self.dialog
            assert dialog is not None
            label, then, value = dialog.buttons[arg]
            self.dialog = None
            if dialog.system:
                app = self.apps[dialog.owner or ""]
                if then == "allow":
                    self.granted = self.granted | {app.permissions[0]} | set(app.permissions)
                else:
                    self.granted = self.granted | set(app.permissions)  # asked once
                return f"{label} ({dialog.title})"
            if then is not None:
                self.dispatch(dialog.owner, then, value)
            return str(label)
        raise RuntimeError(f"unknown system key {key}")

    def open_notification(self, i: int) -> str:
        """A tap on notification ``i``: it goes away and its app opens (at its screen)."""
        n = self.notifications[i]
        self.notifications = self.notifications[:i] + self.notifications[i + 1 :]
        self.shade, self.dialog = False, None
        if n.app not in self.apps:
            return f"{n.title}: its app is not installed"
        self.launch(n.app)
        if n.key is not None:
            self.dispatch(n.app, n.key, n.arg)
        elif n.screen is not None:
            Ctx(self, self.apps[n.app], None).push(n.screen, **dict(n.args))
        return f"opened {self.apps[n.app].label} from its notification"

    def focus_on(self, view: View) -> None:
        route = self.route()
        if route is None or view.edit is None:
            raise InvalidAction("that text field cannot take input")
        self.focus = (route.id, view.edit)
        self.keyboard = True

    def enter(self) -> str:
        if self.focus is None:
            return "enter: no text field has the focus"
        tree = self.observe()
        field_view = next((v for v in tree.walk() if v.focused and v.edit), None)
        if field_view is None or field_view.on_enter is None:
            return "enter: nothing to submit"
        return self.dispatch(self.foreground, field_view.on_enter, field_view.arg)

    def scroll_by(self, direction: str) -> str:
        if self.foreground is None:
            if direction == "down" and not self.drawer:
                self.drawer = True
                return "app drawer"
            if direction == "up" and self.drawer:
                self.drawer = False
                return "home screen"
            return "nothing to scroll"
        route = self.route()
        if route is not None and direction in ("left", "right") and self.dialog is None:
            app = self.apps[self.foreground]
            if app.paged(Ctx(self, app, route), route, direction):
                return f"scrolled {direction}"
        if route is None or direction in ("left", "right"):
            return "nothing to scroll"
        total, page = self._lists.get(route.id, (0, 1))
        if total <= page:
            return "the list fits on the screen: nothing to scroll"
        step = int(page * 0.8)
        current = self.scroll.get(route.id, 0)
        new = max(0, min(total - page, current + (step if direction == "down" else -step)))
        self.scroll[route.id] = new
        return (
            f"scrolled {direction}"
            if new != current
            else f"already at the {'end' if direction == 'down' else 'top'}"
        )

    def drag(self, pixels: int) -> bool:
        """Move the current screen's list by ``pixels`` (a finger dragged that far up and
        lifted without a fling; negative: down), as far as the list goes. Whether it moved."""
        route = self.route()
        if route is None or self.dialog is not None or self.shade:
            return False
        self.observe()
        total, page = self._lists.get(route.id, (0, 1))
        current = min(self.scroll.get(route.id, 0), max(0, total - page))
        new = max(0, min(total - page, current + pixels))
        if new == current:
            return False
        self.scroll[route.id] = new
        self._tree = None
        return True

    def go_back(self, up: bool = False) -> str:
        if self.keyboard and not up:
            self.keyboard, self.focus = False, None
            return "keyboard hidden"
        if self.dialog is not None:
            self.dialog = None
            return "dialog dismissed"
        if self.foreground is None:
            if self.drawer:
                self.drawer = False
                return "home screen"
            return "already on the home screen"
        self.leave("back")
        if self.foreground is None:  # the app left itself while being left
            return "back"
        self.focus, self.keyboard = None, False
        self.back_in_app(self.foreground)
        return "back"


def clip(view: View, top: int, bottom: int) -> None:
    for v in view.walk():
        left, t, right, b = v.bounds
        t2 = min(max(t, top), bottom)
        v.bounds = (left, t2, right, max(t2, min(b, bottom)))


def describe(view: View) -> str:
    label = view.text or view.desc or view.rid or view.cls.rsplit(".", 1)[-1]
    return repr(label[:40])


def permission_dialog(app: App, permission: str) -> Dialog:
    what = permission.rsplit(".", 1)[-1].replace("_", " ").lower()
    return Dialog(
        title=f"Allow {app.label} to {what}?",
        buttons=[("Allow", "allow", None), ("Don't allow", "deny", None)],
        system=True,
        owner=app.model,
    )


def _alike(a: dict[str, Any], b: dict[str, Any], loose: frozenset[str]) -> bool:
    """Whether two records hold the same, but for their ``loose`` fields."""
    return a is b or _without(a, loose) == _without(b, loose)


def _same_state(
    old: AppData,
    new: AppData,
    name: str,
    key: ir.FieldDef | None = None,
    loose: frozenset[str] = frozenset(),
    identity: tuple[str, ...] = (),
) -> bool:
    """Whether a collection or setting is the same in two versions of an app's data, but
    for its records' ``loose`` fields (those that change by themselves); for
    ``collection.field``, whether the field is, in each record found under its ``key`` in
    both (records without a key: found by their ``identity``, the fields that never
    change)."""
    if "." in name:
        coll, fname = name.split(".", 1)
        a, b = old.collections.get(coll), new.collections.get(coll)
        if a is b or a is None or b is None:
            return True
        if key is not None:
            return field_kept(a, b, key, fname)
        return not identity or field_kept_apart(a, b, identity, fname)
    if name in old.collections or name in new.collections:
        a, b = old.collections.get(name), new.collections.get(name)
        if a is b or a == b:
            return True
        if not loose or a is None or b is None:
            return False
        return [_without(r, loose) for r in a] == [_without(r, loose) for r in b]
    return bool(old.settings.get(name) == new.settings.get(name))


def _without(record: dict[str, Any], fields: frozenset[str]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k not in fields}


def _scope_text(scope: ir.ChangeScope) -> str:
    if not scope.screens:
        return "nowhere"
    shown = ", ".join(" ".join(f'{a.attr} "{a.value}"' for a in s.attrs) for s in scope.screens)
    return f"only {'by' if scope.by_tap else 'on'} {shown}"
