"""The PhoneWorld phone itself, with a small app defined here: observations in the form of a
real `uiautomator dump`, the action set's semantics (and invalid actions as no-ops with a
reason), the launcher, keyboard, dialogs, permission prompts, scrolling, snapshot/restore and
determinism."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tasklang.envs.phoneworld import widgets as w
from tasklang.envs.phoneworld.app import App, Ctx, Dialog, Route, Screen
from tasklang.envs.phoneworld.phone import LAUNCHER, PERMISSIONS, SYSTEMUI, Phone
from tasklang.verifiers.snapshot import AppState, WorldSnapshot, parse_ui_xml

UIAUTOMATOR_ATTRS = [
    "index", "text", "resource-id", "class", "package", "content-desc", "checkable", "checked",
    "clickable", "enabled", "focusable", "focused", "scrollable", "long-clickable", "password",
    "selected", "bounds",
]  # fmt: skip


class Notes(App):
    model = "notes"
    package = "com.example.notes"
    label = "Notes"
    activity = "com.example.notes.MainActivity"

    def screen_main(self, ctx: Ctx, route: Route) -> Screen:
        rows = [
            w.View(
                w.LINEAR,
                clickable=True,
                on_click="open",
                on_long="ask_delete",
                arg=n["title"],
                children=[w.View(w.TEXT, text=n["title"], rid=self.rid("note_title"))],
                height=220,
            )
            for n in ctx.records("notes")
        ]
        fab = w.View(w.IMAGE_BUTTON, desc="New note", rid=self.rid("fab"), clickable=True,
                     on_click="new")  # fmt: skip
        return Screen("Notes", rows, list_rid=self.rid("notes_list"), fab=fab)

    def screen_edit(self, ctx: Ctx, route: Route) -> Screen:
        title = w.View(
            edit="title", hint="Title", rid=self.rid("title"), on_enter="save", height=150
        )
        save = w.View(w.IMAGE_BUTTON, desc="Save", clickable=True, on_click="save")
        return Screen("New note", [title], up=True, actions=[save],
                      activity="com.example.notes.EditActivity")  # fmt: skip

    def on_new(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("edit")

    def on_open(self, ctx: Ctx, arg: Any) -> None:
        ctx.toast(f"opened {arg}")

    def on_save(self, ctx: Ctx, arg: Any) -> None:
        title = ctx.form("title").strip()
        if not title:
            ctx.toast("Title is empty")
            return
        ctx.add("notes", {"title": title})
        ctx.back()

    def on_ask_delete(self, ctx: Ctx, arg: Any) -> None:
        ctx.dialog(Dialog(f"Delete {arg}?", "This cannot be undone.",
                          [("Delete", "delete", arg), ("Cancel", None, None)]))  # fmt: skip

    def on_delete(self, ctx: Ctx, arg: Any) -> None:
        note = ctx.find("notes", lambda n: n["title"] == arg)
        assert note is not None
        ctx.delete("notes", note)


class Camera(App):
    model = "camera"
    package = "com.example.camera"
    label = "Camera"
    activity = "com.example.camera.CameraActivity"
    permissions = ("android.permission.CAMERA",)

    def screen_main(self, ctx: Ctx, route: Route) -> Screen:
        return Screen(
            None, [w.View(w.IMAGE_BUTTON, desc="Shutter", clickable=True, on_click="shoot")]
        )

    def on_shoot(self, ctx: Ctx, arg: Any) -> None:
        ctx.add("photos", {"n": len(ctx.records("photos")) + 1})


class Mail(App):
    model = "mail"
    package = "com.example.mail"
    label = "Mail"
    activity = "com.example.mail.MailActivity"

    def screen_main(self, ctx: Ctx, route: Route) -> Screen:
        rows = [
            w.View(w.BUTTON, text="Copy code", clickable=True, on_click="copy", height=150),
            w.View(w.BUTTON, text="Notify", clickable=True, on_click="notify", height=150),
        ]
        return Screen("Inbox", rows)

    def screen_thread(self, ctx: Ctx, route: Route) -> Screen:
        return Screen(f"Thread with {route.arg('who')}", up=True)

    def paged(self, ctx: Ctx, route: Route, direction: str) -> bool:
        if route.screen != "thread":
            return False
        ctx.replace("thread", who="Ben" if direction == "right" else "Ann")
        return True

    def on_copy(self, ctx: Ctx, arg: Any) -> None:
        ctx.copy("4711")

    def on_notify(self, ctx: Ctx, arg: Any) -> None:
        ctx.notify("New message", "from Ann", screen="thread", who="Ann")
        ctx.notify("Backup done")


def phone(notes: int = 3) -> Phone:
    p = Phone({"notes": Notes(), "camera": Camera(), "mail": Mail()})
    snap = WorldSnapshot(
        apps={
            "notes": AppState(
                collections={"notes": [{"title": f"Note {i}"} for i in range(notes)]}
            ),
            "camera": AppState(collections={"photos": []}),
        },
        clock="2026-05-14T09:05:00",
    )
    p.load(snap)
    return p


def xml(p: Phone) -> str:
    return w.to_xml(p.observe())


def index_of(p: Phone, **sel: str) -> int:
    for i, v in enumerate(p.observe().walk()):
        if all(getattr(v, k) == val for k, val in sel.items()):
            return i
    raise AssertionError(f"no element {sel}")


def act(p: Phone, **action: Any) -> Any:
    return p.act(action)


# ---------------------------------------------------------------- observations
def test_xml_has_exactly_the_attributes_of_a_uiautomator_dump_in_order() -> None:
    p = phone()
    act(p, action_type="open_app", app_name="Notes")
    text = xml(p)
    assert text.startswith(
        "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">"
    )
    for node in re.findall(r"<node ([^>]*?)/?>", text):
        names = re.findall(r'([\w-]+)="', node)
        assert names == UIAUTOMATOR_ATTRS
    root, elements = parse_ui_xml(text)
    assert root.tag == "hierarchy" and len(elements) == len(list(p.observe().walk()))
    as_dicts = w.elements(p.observe())
    for parsed, mine in zip(elements, as_dicts, strict=True):
        for key in (
            "text",
            "resource_id",
            "class_name",
            "package",
            "content_desc",
            "clickable",
            "bounds",
        ):
            assert getattr(parsed, key) == mine[key], key


def test_packages_classes_and_ids_look_like_a_real_phone() -> None:
    p = phone()
    act(p, action_type="open_app", app_name="Notes")
    _, elements = parse_ui_xml(xml(p))
    packages = {e.package for e in elements}
    assert packages == {"com.example.notes", SYSTEMUI}
    classes = {e.class_name for e in elements}
    assert all(c.startswith(("android.", "androidx.")) for c in classes)
    assert any(e.resource_id == "com.example.notes:id/note_title" for e in elements)
    assert any(e.resource_id == f"{SYSTEMUI}:id/clock" and e.text == "9:05" for e in elements)
    assert elements[0].bounds == (0, 0, 1080, 2400)


def test_attribute_set_matches_the_real_view_trees(realdata_dir: Path) -> None:
    states = sorted(
        (realdata_dir / "droidbot_yelp" / "report_com.yelp.android" / "states").glob("*.json")
    )
    if not states:
        pytest.skip("no DroidBot states in ../shared/realdata/droidbot_yelp")
    view = json.loads(states[0].read_text("utf-8"))["views"][0]
    # DroidBot records a dump's attributes under its own names
    droidbot_to_dump = {
        "text": "text", "resource_id": "resource-id", "class": "class", "package": "package",
        "content_description": "content-desc", "checkable": "checkable", "checked": "checked",
        "clickable": "clickable", "enabled": "enabled", "focusable": "focusable",
        "focused": "focused", "scrollable": "scrollable", "long_clickable": "long-clickable",
        "is_password": "password", "selected": "selected", "bounds": "bounds",
    }  # fmt: skip
    assert set(droidbot_to_dump) <= set(view)
    assert set(droidbot_to_dump.values()) | {"index"} == set(UIAUTOMATOR_ATTRS)


def test_text_is_escaped_and_control_characters_dropped() -> None:
    p = phone(0)
    p.state["notes"].collections["notes"] = [{"title": 'a<b & "c"\n\x01d'}]
    act(p, action_type="open_app", app_name="notes")
    _, elements = parse_ui_xml(xml(p))
    assert any(e.text == 'a<b & "c"\nd' for e in elements)


# ---------------------------------------------------------------- actions
def test_create_a_note_through_the_keyboard() -> None:
    p = phone()
    assert act(p, action_type="open_app", app_name="Notes").ok
    assert act(p, action_type="click", index=index_of(p, desc="New note")).ok
    assert p.current_activity() == ("com.example.notes", "com.example.notes.EditActivity")
    field = index_of(p, rid="com.example.notes:id/title")
    assert p.observe().walk().__next__() is not None
    assert [v.text for v in p.observe().walk() if v.edit] == ["Title"]  # the hint
    assert act(p, action_type="input_text", text="Shop", index=field).ok
    assert p.keyboard
    focused = [v for v in p.observe().walk() if v.focused]
    assert [v.text for v in focused] == ["Shop"] and focused[0].cls == w.EDIT
    assert act(p, action_type="input_text", text="ping").ok  # appends to the focused field
    assert act(p, action_type="input_text", text="Groceries", clear_text=True).ok
    assert act(p, action_type="keyboard_enter").ok
    assert p.state["notes"].collections["notes"][-1] == {"title": "Groceries"}
    assert p.route() is not None and p.route().screen == "main" and not p.keyboard


def test_back_hides_the_keyboard_then_leaves_the_screen_then_the_app() -> None:
    p = phone()
    act(p, action_type="open_app", app_name="Notes")
    act(p, action_type="click", index=index_of(p, desc="New note"))
    act(p, action_type="input_text", text="x", index=index_of(p, rid="com.example.notes:id/title"))
    assert act(p, action_type="navigate_back").info == "keyboard hidden"
    assert act(p, action_type="navigate_back").info == "back"
    assert p.route().screen == "main"
    act(p, action_type="navigate_back")
    assert p.foreground is None and p.current_activity()[0] == LAUNCHER


def test_navigate_up_in_the_toolbar() -> None:
    p = phone()
    act(p, action_type="open_app", app_name="Notes")
    act(p, action_type="click", index=index_of(p, desc="New note"))
    assert act(p, action_type="click", index=index_of(p, desc="Navigate up")).ok
    assert p.route().screen == "main"


def test_dialog_buttons_and_back() -> None:
    p = phone()
    act(p, action_type="open_app", app_name="Notes")
    act(p, action_type="long_press", index=index_of(p, text="Note 1"))
    _, elements = parse_ui_xml(xml(p))
    assert [e.text for e in elements if e.resource_id.startswith("android:id/button")] == [
        "Delete",
        "Cancel",
    ]
    assert any(
        e.resource_id == "android:id/alertTitle" and e.text == "Delete Note 1?" for e in elements
    )
    act(p, action_type="click", index=index_of(p, text="Cancel"))
    assert p.dialog is None and len(p.state["notes"].collections["notes"]) == 3
    act(p, action_type="long_press", index=index_of(p, text="Note 1"))
    assert act(p, action_type="navigate_back").info == "dialog dismissed"
    act(p, action_type="long_press", index=index_of(p, text="Note 1"))
    act(p, action_type="click", index=index_of(p, text="Delete"))
    assert [n["title"] for n in p.state["notes"].collections["notes"]] == ["Note 0", "Note 2"]


def test_a_tap_reaches_the_row_under_a_text_and_taps_by_coordinates() -> None:
    p = phone()
    act(p, action_type="open_app", app_name="Notes")
    title = next(v for v in p.observe().walk() if v.text == "Note 2")
    left, top, right, bottom = title.bounds
    out = act(p, action_type="click", x=(left + right) / 2, y=(top + bottom) / 2)
    assert out.ok and p.toast == "opened Note 2"
    assert "opened Note 2" in xml(p)  # the toast is on the next screen
    act(p, action_type="wait")
    assert "opened Note 2" not in xml(p)


def test_long_lists_scroll() -> None:
    p = phone(30)
    act(p, action_type="open_app", app_name="Notes")
    shown = [v.text for v in p.observe().walk() if v.rid.endswith("note_title")]
    assert "Note 0" in shown and "Note 29" not in shown
    holder = next(v for v in p.observe().walk() if v.rid.endswith("notes_list"))
    assert holder.scrollable
    for _ in range(10):
        act(p, action_type="scroll", direction="down")
    shown = [v.text for v in p.observe().walk() if v.rid.endswith("note_title")]
    assert "Note 29" in shown and "Note 0" not in shown
    assert act(p, action_type="scroll", direction="down").info == "already at the end"
    act(p, action_type="swipe", direction="down")  # a finger moving down scrolls up
    shown_after = [v.text for v in p.observe().walk() if v.rid.endswith("note_title")]
    assert shown_after != shown
    for v in p.observe().walk():  # nothing is drawn outside the list's viewport
        if v.rid.endswith("note_title"):
            assert v.bounds[1] >= holder.bounds[1] and v.bounds[3] <= holder.bounds[3]


def test_launcher_drawer_and_home() -> None:
    p = phone()
    assert p.current_activity()[0] == LAUNCHER
    labels = [v.text for v in p.observe().walk() if v.on_click == "sys:open"]
    assert labels == ["Camera", "Mail", "Notes"]
    act(p, action_type="swipe", direction="up")
    assert p.drawer
    act(p, action_type="click", index=index_of(p, text="Notes"))
    assert p.foreground == "notes"
    act(p, action_type="navigate_home")
    assert p.foreground is None and not p.drawer
    act(p, action_type="open_app", app_name="  notes ")
    assert p.foreground == "notes" and p.route().screen == "main"


def test_permission_prompt_on_first_open() -> None:
    p = phone()
    act(p, action_type="open_app", app_name="Camera")
    _, elements = parse_ui_xml(xml(p))
    prompt = [e for e in elements if e.package == PERMISSIONS]
    assert any(e.resource_id.endswith("permission_allow_button") for e in prompt)
    act(p, action_type="click", index=index_of(p, text="Allow"))
    assert "android.permission.CAMERA" in p.granted and p.dialog is None
    act(p, action_type="navigate_home")
    act(p, action_type="open_app", app_name="Camera")
    assert p.dialog is None
    act(p, action_type="click", index=index_of(p, desc="Shutter"))
    assert p.state["camera"].collections["photos"] == [{"n": 1}]


@pytest.mark.parametrize(
    "action,reason",
    [
        ({"action_type": "fly"}, "unknown action_type"),
        ({}, "unknown action_type"),
        ({"action_type": "click"}, "needs `index` or `x` and `y`"),
        ({"action_type": "click", "index": 9999}, "out of range"),
        ({"action_type": "click", "index": "3"}, "must be an integer"),
        ({"action_type": "click", "x": 5000, "y": 10}, "off the 1080x2400 screen"),
        ({"action_type": "click", "x": 5}, "both be numbers"),
        ({"action_type": "open_app", "app_name": "Nope"}, "no app named 'Nope'"),
        ({"action_type": "open_app"}, "needs `app_name`"),
        ({"action_type": "input_text", "text": "x"}, "no text field has the focus"),
        ({"action_type": "input_text"}, "needs `text`"),
        ({"action_type": "scroll"}, "needs `direction`"),
        ({"action_type": "status", "goal_status": "done"}, "complete or infeasible"),
        ({"action_type": "answer"}, "needs `text`"),
    ],
)
def test_invalid_actions_are_no_ops_with_a_reason(action: dict[str, Any], reason: str) -> None:
    p = phone()
    act(p, action_type="open_app", app_name="Notes")
    before, state = xml(p), p.snapshot()
    out = p.act(action)
    assert not out.ok and reason in out.info
    assert xml(p) == before and p.snapshot().state == state.state


def test_typing_into_something_that_is_not_a_field() -> None:
    p = phone()
    act(p, action_type="open_app", app_name="Notes")
    out = act(p, action_type="input_text", text="x", index=index_of(p, text="Note 0"))
    assert not out.ok and "not a text field" in out.info


def test_status_and_answer_end_the_episode() -> None:
    p = phone()
    assert act(p, action_type="answer", text="42").ended and p.answer == "42"
    assert p.status == "complete"  # answering finishes the task
    out = act(p, action_type="navigate_home")
    assert not out.ok and "ended" in out.info
    p2 = phone()
    assert act(p2, action_type="status", goal_status="infeasible").ended
    assert p2.status == "infeasible"


# ---------------------------------------------------------------- snapshot, restore, determinism
def script(p: Phone) -> list[str]:
    seen = [xml(p)]
    act(p, action_type="open_app", app_name="Notes")
    seen.append(xml(p))
    act(p, action_type="click", index=index_of(p, desc="New note"))
    act(
        p,
        action_type="input_text",
        text="Plan",
        index=index_of(p, rid="com.example.notes:id/title"),
    )
    seen.append(xml(p))
    act(p, action_type="keyboard_enter")
    seen.append(xml(p))
    act(p, action_type="long_press", index=index_of(p, text="Plan"))
    act(p, action_type="click", index=index_of(p, text="Delete"))
    seen.append(xml(p))
    return seen


def test_same_actions_same_observations() -> None:
    assert script(phone()) == script(phone())


def test_snapshot_and_restore_are_exact() -> None:
    p = phone()
    act(p, action_type="open_app", app_name="Notes")
    act(p, action_type="click", index=index_of(p, desc="New note"))
    act(
        p,
        action_type="input_text",
        text="Draft",
        index=index_of(p, rid="com.example.notes:id/title"),
    )
    saved, screen, world = p.snapshot(), xml(p), p.world().model_dump()
    act(p, action_type="keyboard_enter")
    act(p, action_type="long_press", index=index_of(p, text="Draft"))
    act(p, action_type="click", index=index_of(p, text="Delete"))
    act(p, action_type="navigate_home")
    assert xml(p) != screen
    p.restore(saved)
    assert xml(p) == screen and p.world().model_dump() == world
    act(p, action_type="keyboard_enter")  # the restored form still holds the typed text
    assert p.state["notes"].collections["notes"][-1] == {"title": "Draft"}


def test_snapshots_share_nothing_that_later_writes_change() -> None:
    p = phone()
    saved = p.snapshot()
    records = saved.state["notes"].collections["notes"]
    act(p, action_type="open_app", app_name="Notes")
    act(p, action_type="long_press", index=index_of(p, text="Note 0"))
    act(p, action_type="click", index=index_of(p, text="Delete"))
    assert [n["title"] for n in records] == ["Note 0", "Note 1", "Note 2"]
    assert len(p.state["notes"].collections["notes"]) == 2


def test_the_world_for_the_verifier() -> None:
    p = phone()
    act(p, action_type="open_app", app_name="Notes")
    world = p.world()
    assert world.foreground is not None and world.foreground.package == "com.example.notes"
    assert world.clock == "2026-05-14T09:05:00"
    assert world.app("notes").collections["notes"][0] == {"title": "Note 0"}


# ---------------------------------------------------------------- clipboard and notifications
def test_copy_then_paste_with_a_long_press_on_a_field() -> None:
    p = phone()
    act(p, action_type="open_app", app_name="Notes")
    act(p, action_type="click", index=index_of(p, desc="New note"))
    field = index_of(p, rid="com.example.notes:id/title")
    out = act(p, action_type="long_press", index=field)
    assert out.ok and "clipboard is empty" in out.info
    assert "Paste" not in [v.text for v in p.observe().walk()]
    act(p, action_type="open_app", app_name="Mail")
    act(p, action_type="click", index=index_of(p, text="Copy code"))
    assert p.clipboard == "4711" and "Copied to clipboard" in xml(p)
    act(p, action_type="open_app", app_name="Notes")  # back on the note being written
    assert act(p, action_type="input_text", text="Code ", index=field).ok
    assert act(p, action_type="long_press", index=field).ok
    paste = index_of(p, text="Paste")
    node = p.observe().flat()[paste]
    assert node.rid == "android:id/floating_toolbar_menu_item_text" and node.clickable
    saved = p.snapshot()
    assert act(p, action_type="click", index=paste).ok
    assert [v.text for v in p.observe().walk() if v.edit] == ["Code 4711"]
    assert "Paste" not in [v.text for v in p.observe().walk()]  # the toolbar went away
    p.restore(saved)
    assert index_of(p, text="Paste") == paste  # the clipboard and toolbar are phone state
    act(p, action_type="navigate_back")  # any other action closes the toolbar
    assert "Paste" not in [v.text for v in p.observe().walk()]


def test_notifications_open_their_app_at_their_screen() -> None:
    p = phone()
    act(p, action_type="open_app", app_name="Mail")
    act(p, action_type="click", index=index_of(p, text="Notify"))
    act(p, action_type="navigate_home")
    clock = index_of(p, rid=f"{SYSTEMUI}:id/clock")
    assert act(p, action_type="scroll", direction="down", index=clock).info != "notification shade"
    out = act(p, action_type="swipe", direction="down", index=clock)
    assert out.ok and out.info == "notification shade" and p.shade
    tree = p.observe()
    assert {v.package or tree.package for v in tree.children[1:]} == {SYSTEMUI}
    titles = [v.text for v in tree.walk() if v.rid == "android:id/title"]
    assert titles == ["Backup done", "New message"]  # newest first
    parse_ui_xml(xml(p))
    row = index_of(p, desc="Mail notification: New message")
    assert act(p, action_type="click", index=row).ok
    assert not p.shade and p.foreground == "mail"
    assert p.route() is not None and p.route().screen == "thread"
    assert "Thread with Ann" in xml(p)
    assert [n.title for n in p.notifications] == ["Backup done"]
    act(p, action_type="scroll", direction="up", y=40, x=500)  # by coordinates
    assert p.shade
    act(p, action_type="navigate_back")
    assert not p.shade and p.route() is not None and p.route().screen == "thread"
    act(p, action_type="swipe", direction="down", x=500, y=40)
    act(p, action_type="swipe", direction="up")
    assert not p.shade
    act(p, action_type="swipe", direction="down", x=500, y=40)
    act(p, action_type="click", index=index_of(p, text="Clear all"))
    assert not p.shade and p.notifications == ()
    act(p, action_type="swipe", direction="down", x=500, y=40)
    assert "No notifications" in xml(p)
    act(p, action_type="open_app", app_name="Notes")
    assert not p.shade and p.foreground == "notes"


def test_a_double_tap_taps_twice_at_the_same_point_of_the_new_screen() -> None:
    p = phone()
    act(p, action_type="open_app", app_name="Notes")
    fab = index_of(p, desc="New note")
    assert act(p, action_type="double_tap", index=fab).ok
    # the first tap opened the editor; the second landed on the editor, not on the stale FAB
    assert [r.screen for r in p.stacks["notes"]] == ["main", "edit"]
    act(p, action_type="navigate_back")
    act(p, action_type="navigate_back")
    act(p, action_type="open_app", app_name="Mail")
    act(p, action_type="double_tap", index=index_of(p, text="Notify"))
    assert [n.title for n in p.notifications] == ["New message", "Backup done"] * 2


def test_sideways_scrolls_page_the_screens_that_page() -> None:
    p = phone()
    act(p, action_type="open_app", app_name="Mail")
    out = act(p, action_type="swipe", direction="left")
    assert out.ok and out.info == "nothing to scroll"  # the inbox does not page
    act(p, action_type="click", index=index_of(p, text="Notify"))
    act(p, action_type="swipe", direction="down", x=500, y=40)
    act(p, action_type="click", index=index_of(p, desc="Mail notification: New message"))
    assert "Thread with Ann" in xml(p)
    assert act(p, action_type="swipe", direction="left").info == "scrolled right"
    assert "Thread with Ben" in xml(p)
    assert act(p, action_type="scroll", direction="left").info == "scrolled left"
    assert "Thread with Ann" in xml(p)
