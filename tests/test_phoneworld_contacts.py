"""PhoneWorld's Contacts app (Simple Contacts Pro): the reference solutions of its library tasks,
its screens' XML, and the behaviour of its handlers through real actions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tasklang import ir
from tasklang.compiler import Compiler
from tasklang.envs.phoneworld.episode import Episode, run_nothing, run_reference
from tasklang.envs.phoneworld.solutions import Driver
from tasklang.verifiers.snapshot import parse_ui_xml

LIBRARY = Path(__file__).resolve().parent.parent / "task_library"
PKG = "com.simplemobiletools.contacts.pro"
TASKS = ("contacts.add_coworker", "contacts.delete_missing_contact")

DEMO = """
task contacts.demo_phoneworld {
  kind app
  apps contacts
  goal "Look after my contacts."
  given {
    now 2026-05-14T09:30 tz "America/Los_Angeles"
    foreground contacts
    contacts.people += { name: "Alice Moreau", phone: "+1 415 555 0187", starred: true,
                         group: "friends", email: "alice@example.com", birthday: 1990-02-03 }
    contacts.people += { name: "Bob Lindqvist", phone: "+1 628 555 0142", company: "Acme" }
    contacts.people += { name: "Carla Zed", phone: "+1 650 555 0100", group: "work" }
    contacts.groups += { title: "Book club", members: ["Bob Lindqvist"] }
    contacts.groups += { title: "Work", members: ["Carla Zed"] }
  }
  expect { exists contacts.people where starred }
  budget 30 steps
}
"""


def _compile(task_id: str) -> ir.CompiledTask:
    path = next(LIBRARY.glob(f"*/{task_id}.task"))
    result = Compiler().compile_paths([path])
    return next(t for t in result.tasks if t.task.id == task_id)


@pytest.fixture(scope="module")
def demo() -> ir.CompiledTask:
    result = Compiler().compile_text(DEMO)
    assert result.tasks, [d.message for d in result.diagnostics]
    return result.tasks[0]


class Phone:
    """An episode with helpers that address elements the way an agent does."""

    def __init__(self, compiled: ir.CompiledTask, seed: int = 0) -> None:
        self.ep = Episode(compiled, seed)
        self.d = Driver(self.ep.tree, self.ep.step, {}, max_steps=500)

    def people(self) -> list[dict[str, Any]]:
        return self.ep.phone.state["contacts"].collections["people"]

    def person(self, name: str) -> dict[str, Any] | None:
        return next((p for p in self.people() if p["name"] == name), None)

    def settings(self) -> dict[str, Any]:
        return self.ep.phone.state["contacts"].settings

    def act(self, **action: Any) -> Any:
        return self.ep.step(action)

    def tap(self, **sel: Any) -> Any:
        return self.act(action_type="click", index=self.d.need(**sel))

    def type(self, text: str, **sel: Any) -> Any:
        self.d.scroll_to(**sel)
        return self.act(
            action_type="input_text", text=text, index=self.d.need(**sel), clear_text=True
        )

    def back(self) -> Any:
        return self.act(action_type="navigate_back")

    def texts(self) -> list[str]:
        return [v.text for v in self.ep.tree().walk() if v.text]

    def descs(self) -> list[str]:
        return [v.desc for v in self.ep.tree().walk() if v.desc]

    def screen(self) -> str:
        return self.ep.phone.current_activity()[1].rsplit(".", 1)[-1]

    def check_xml(self) -> None:
        root, elements = parse_ui_xml(self.ep.xml())
        assert root.tag == "hierarchy"
        assert any(e.package == PKG for e in elements)


# ---------------------------------------------------------------- reference solutions
@pytest.mark.parametrize("task_id", TASKS)
def test_reference_solves_every_seed(task_id: str) -> None:
    compiled = _compile(task_id)
    for seed in range(6):  # `tasklang test` tries 20
        verdict, _ = run_reference(compiled, seed)
        failed = [(r.id, r.summary) for r in verdict.clauses if not r.passed]
        assert verdict.success, (seed, failed)


@pytest.mark.parametrize("task_id", TASKS)
def test_doing_nothing_fails(task_id: str) -> None:
    compiled = _compile(task_id)
    for seed in range(3):
        assert not run_nothing(compiled, seed).success


def test_reference_trajectory_shows_the_real_screens() -> None:
    _, traj = run_reference(_compile("contacts.add_coworker"), 4)
    activities = {s.observation.activity for s in traj.steps}
    assert f"{PKG}.activities.MainActivity" in activities
    assert f"{PKG}.activities.EditContactActivity" in activities
    assert all(s.extra.get("invalid") is None for s in traj.steps)


# ---------------------------------------------------------------- screens
def test_screens_produce_parseable_xml(demo: ir.CompiledTask) -> None:
    p = Phone(demo)
    p.check_xml()
    for tab in ("Favorites", "Groups", "Contacts"):
        p.tap(desc=tab)
        p.check_xml()
    p.tap(desc="Sort by")
    p.check_xml()
    p.back()
    p.tap(text="Alice Moreau")
    assert p.screen() == "ViewContactActivity"
    p.check_xml()
    p.tap(desc="Edit contact")
    assert p.screen() == "EditContactActivity"
    p.check_xml()
    p.tap(rid="contact_number_type")
    p.check_xml()
    p.back()
    p.back()
    p.back()
    p.tap(desc="More options")
    p.tap(text="Settings")
    assert p.screen() == "SettingsActivity"
    p.check_xml()
    p.tap(text="Customize colors")
    p.check_xml()


def test_main_list_is_sorted_with_rows_and_tabs(demo: ir.CompiledTask) -> None:
    p = Phone(demo)
    names = p.d.texts(rid="contact_name")
    assert names == ["Alice Moreau", "Bob Lindqvist", "Carla Zed"]
    assert p.d.has(desc="Create new contact", cls="ImageButton")
    assert p.d.has(desc="Dialpad")
    assert [v.desc for v in p.ep.tree().walk() if v.rid.endswith("main_tabs_holder")] == [""]
    p.tap(desc="Favorites")
    assert p.d.texts(rid="contact_name") == ["Alice Moreau"]
    assert p.d.has(desc="Add favorites")
    p.tap(desc="Groups")
    assert p.d.texts(rid="group_name") == ["Book club", "Classmates", "Family", "Friends", "Work"]
    p.tap(text="Book club")
    assert p.d.texts(rid="contact_name") == ["Bob Lindqvist"]
    p.back()
    p.tap(text="Work")
    assert p.d.texts(rid="contact_name") == ["Carla Zed"]


def test_search_filters_and_says_when_nothing_matches(demo: ir.CompiledTask) -> None:
    p = Phone(demo)
    p.type("bob", rid="top_toolbar_search")
    assert p.d.texts(rid="contact_name") == ["Bob Lindqvist"]
    p.type("650 555", rid="top_toolbar_search")  # by number
    assert p.d.texts(rid="contact_name") == ["Carla Zed"]
    p.type("Nobody Here", rid="top_toolbar_search")
    assert p.d.texts(rid="contact_name") == []
    assert "No contacts found" in p.texts()
    assert p.act(action_type="keyboard_enter").ok
    assert not p.ep.phone.keyboard


# ---------------------------------------------------------------- creating and editing
def test_create_contact_stores_every_field_with_its_type(demo: ir.CompiledTask) -> None:
    p = Phone(demo)
    p.tap(desc="Create new contact")
    assert p.screen() == "EditContactActivity"
    p.tap(desc="Toggle favorite")
    p.type("Dana", rid="contact_first_name")
    p.type("Okafor", rid="contact_surname")
    p.type("+44 7700 900456", rid="contact_number")
    p.tap(rid="contact_number_type")
    p.tap(text="Work", cls="RadioButton")
    assert p.d.has(rid="contact_number_type", text="Work")
    p.type("dana@example.com", rid="contact_email")
    p.tap(rid="contact_email_type")
    p.tap(text="Other", cls="RadioButton")
    p.type("1 High St", rid="contact_address")
    p.type("1985-07-09", rid="contact_event")
    p.type("Met at the conference", rid="contact_notes")
    p.type("Globex", rid="contact_organization_company")
    p.type("Engineer", rid="contact_organization_job_position")
    p.d.scroll_to(rid="contact_group")
    p.tap(rid="contact_group")
    p.tap(text="Family", cls="RadioButton")
    assert p.tap(desc="Save").ok
    assert p.screen() == "MainActivity"
    dana = p.person("Dana Okafor")
    assert dana == {
        "name": "Dana Okafor",
        "phone": "+44 7700 900456",
        "phone_label": "work",
        "email": "dana@example.com",
        "email_label": "other",
        "company": "Globex",
        "job_title": "Engineer",
        "address": "1 High St",
        "starred": True,
        "group": "family",
        "birthday": "1985-07-09",
        "notes": "Met at the conference",
    }
    fields = {f.name for f in demo.apps["contacts"].record("Person").fields}  # type: ignore[union-attr]
    assert set(dana) == fields
    assert "Dana Okafor" in p.d.texts(rid="contact_name")


def test_new_contact_defaults_and_other_date_formats(demo: ir.CompiledTask) -> None:
    p = Phone(demo)
    p.tap(desc="Create new contact")
    p.type("Eve", rid="contact_first_name")
    p.type("26.05.1978", rid="contact_event")
    p.tap(desc="Save")
    eve = p.person("Eve")
    assert eve is not None
    assert eve["birthday"] == "1978-05-26"
    assert eve["phone"] is None and eve["email"] is None
    assert eve["phone_label"] == "mobile" and eve["email_label"] == "home"
    assert eve["group"] == "other" and eve["starred"] is False


def test_save_refuses_an_empty_name_and_a_bad_date(demo: ir.CompiledTask) -> None:
    p = Phone(demo)
    before = list(p.people())
    p.tap(desc="Create new contact")
    p.type("+1 555 0100", rid="contact_number")
    p.tap(desc="Save")
    assert p.ep.phone.toast == "Please enter a name"
    assert p.screen() == "EditContactActivity"
    p.type("Frank", rid="contact_first_name")
    p.type("next tuesday", rid="contact_event")
    p.tap(desc="Save")
    assert p.ep.phone.toast == "Invalid date"
    assert p.people() == before


def test_leaving_the_form_discards_it(demo: ir.CompiledTask) -> None:
    p = Phone(demo)
    before = p.ep.phone.state["contacts"]
    p.tap(desc="Create new contact")
    p.type("Ghost", rid="contact_first_name")
    p.back()  # hides the keyboard
    p.back()
    assert p.screen() == "MainActivity"
    p.tap(desc="Create new contact")
    assert p.d.has(rid="contact_first_name", text="First name")  # a fresh form
    p.tap(desc="Navigate up")
    assert p.ep.phone.state["contacts"] is before


def test_edit_renames_and_keeps_other_fields(demo: ir.CompiledTask) -> None:
    p = Phone(demo)
    alice = p.person("Alice Moreau")
    p.tap(text="Alice Moreau")
    p.tap(desc="Edit contact")
    assert p.d.has(rid="contact_first_name", text="Alice")
    assert p.d.has(rid="contact_event", text="1990-02-03")
    p.type("Morel", rid="contact_surname")
    p.type("", rid="contact_email")
    assert p.d.has(rid="contact_email", text="Email")  # a cleared field shows its hint
    p.tap(desc="Save")
    assert p.screen() == "ViewContactActivity"
    assert p.d.has(rid="contact_name", text="Alice Morel")
    assert p.person("Alice Moreau") is None
    renamed = p.person("Alice Morel")
    assert alice is not None and renamed == {**alice, "name": "Alice Morel", "email": None}
    p.back()
    assert "Alice Morel" in p.d.texts(rid="contact_name")


def test_saving_without_changes_changes_nothing(demo: ir.CompiledTask) -> None:
    p = Phone(demo)
    before = p.ep.phone.state["contacts"]
    p.tap(text="Bob Lindqvist")
    p.tap(desc="Edit contact")
    p.tap(desc="Save")
    assert p.ep.phone.state["contacts"] is before


def test_group_membership_follows_a_created_group_of_the_same_title(demo: ir.CompiledTask) -> None:
    p = Phone(demo)
    p.tap(text="Bob Lindqvist")
    p.tap(desc="Edit contact")
    p.d.scroll_to(rid="contact_group")
    p.tap(rid="contact_group")
    p.tap(text="Work", cls="RadioButton")
    p.tap(desc="Save")
    p.tap(desc="Navigate up")
    p.tap(text="Carla Zed")
    p.tap(desc="Edit contact")
    p.d.scroll_to(rid="contact_group")
    p.tap(rid="contact_group")
    p.tap(text="No groups", cls="RadioButton")
    p.tap(desc="Save")
    groups = {g["title"]: g["members"] for g in p.ep.phone.state["contacts"].collections["groups"]}
    assert groups == {"Book club": ["Bob Lindqvist"], "Work": ["Bob Lindqvist"]}
    assert p.person("Bob Lindqvist")["group"] == "work"  # type: ignore[index]
    assert p.person("Carla Zed")["group"] == "other"  # type: ignore[index]


def test_create_group_dialog(demo: ir.CompiledTask) -> None:
    p = Phone(demo)
    p.tap(desc="Groups")
    p.tap(desc="Create group")
    field = p.d.need(rid="group_name", cls="EditText")
    assert p.act(action_type="input_text", text="Work", index=field).ok
    p.tap(text="OK")
    assert p.ep.phone.toast == "A group with that title already exists"
    assert len(p.ep.phone.state["contacts"].collections["groups"]) == 2
    p.tap(desc="Create group")
    p.act(
        action_type="input_text",
        text="Neighbours",
        index=p.d.need(rid="group_name", cls="EditText"),
    )
    p.tap(text="OK")
    groups = p.ep.phone.state["contacts"].collections["groups"]
    assert {"title": "Neighbours", "members": []} in groups
    assert "Neighbours" in p.d.texts(rid="group_name")
    p.tap(desc="Create group")
    p.tap(text="Cancel")
    assert len(p.ep.phone.state["contacts"].collections["groups"]) == 3


# ---------------------------------------------------------------- viewing, starring, deleting
def test_view_shows_details_and_star_toggles(demo: ir.CompiledTask) -> None:
    p = Phone(demo)
    p.tap(text="Alice Moreau")
    texts = p.texts()
    for shown in ("+1 415 555 0187", "Mobile", "alice@example.com", "3 February 1990", "Friends"):
        assert shown in texts
    assert p.d.has(desc="Remove from favorites")
    p.tap(desc="Remove from favorites")
    assert p.person("Alice Moreau")["starred"] is False  # type: ignore[index]
    assert p.d.has(desc="Add to favorites")
    p.tap(desc="Add to favorites")
    assert p.person("Alice Moreau")["starred"] is True  # type: ignore[index]


def test_delete_asks_first_and_no_keeps_the_contact(demo: ir.CompiledTask) -> None:
    p = Phone(demo)
    p.tap(text="Bob Lindqvist")
    p.tap(desc="Delete")
    assert "Are you sure you want to proceed with the deletion?" in p.texts()
    p.tap(text="No")
    assert p.person("Bob Lindqvist") is not None
    p.tap(desc="Delete")
    p.back()  # dismisses the dialog
    assert p.ep.phone.dialog is None and p.person("Bob Lindqvist") is not None
    p.tap(desc="Delete")
    p.tap(text="Yes")
    assert p.person("Bob Lindqvist") is None
    assert p.screen() == "MainActivity"
    assert "Bob Lindqvist" not in p.d.texts(rid="contact_name")
    book_club = p.ep.phone.state["contacts"].collections["groups"][0]
    assert book_club == {"title": "Book club", "members": []}
    assert p.ep.phone.state["contacts"].collections["groups"][1]["members"] == ["Carla Zed"]


def test_delete_from_the_edit_screen(demo: ir.CompiledTask) -> None:
    p = Phone(demo)
    p.tap(text="Carla Zed")
    p.tap(desc="Edit contact")
    p.tap(desc="Delete")
    p.tap(text="Yes")
    assert p.person("Carla Zed") is None
    assert p.screen() == "MainActivity"


def test_add_favorites_dialog(demo: ir.CompiledTask) -> None:
    p = Phone(demo)
    p.tap(desc="Favorites")
    p.tap(desc="Add favorites")
    p.tap(text="Bob Lindqvist", cls="CheckBox")
    p.tap(text="Carla Zed", cls="CheckBox")
    p.tap(text="Carla Zed", cls="CheckBox")  # and back off
    assert p.d.has(text="Bob Lindqvist", cls="CheckBox", checked=True)
    p.tap(text="OK")
    assert p.person("Bob Lindqvist")["starred"] is True  # type: ignore[index]
    assert p.person("Carla Zed")["starred"] is False  # type: ignore[index]
    assert p.d.texts(rid="contact_name") == ["Alice Moreau", "Bob Lindqvist"]


# ---------------------------------------------------------------- settings
def test_sort_dialog_sets_the_order(demo: ir.CompiledTask) -> None:
    p = Phone(demo)
    p.tap(desc="Sort by")
    p.tap(text="Surname", cls="RadioButton")
    p.tap(text="Descending", cls="RadioButton")
    p.tap(text="Cancel")
    assert p.settings()["sort_by"] == "first_name"
    p.tap(desc="Sort by")
    p.tap(text="Surname", cls="RadioButton")
    p.tap(text="Descending", cls="RadioButton")
    p.tap(text="OK")
    assert p.settings()["sort_by"] == "last_name" and p.settings()["sort_descending"] is True
    assert p.d.texts(rid="contact_name") == ["Carla Zed", "Alice Moreau", "Bob Lindqvist"]


def test_settings_checkboxes_and_choices(demo: ir.CompiledTask) -> None:
    p = Phone(demo)
    p.tap(desc="More options")
    p.tap(text="Settings")
    assert p.d.has(text="Show phone numbers", cls="CheckBox", checked=False)
    p.tap(text="Show phone numbers")
    p.tap(text="Start name with surname")
    p.tap(text="Show a dialpad button on the main screen")
    assert p.settings()["show_phone_numbers"] is True
    assert p.settings()["start_name_with_surname"] is True
    assert p.settings()["show_dialpad_button"] is False
    p.tap(text="Font size")
    p.tap(text="Large", cls="RadioButton")
    assert p.settings()["font_size"] == "large"
    assert p.d.has(text="Large")
    p.tap(text="Customize colors")
    p.tap(text="Theme")
    p.tap(text="Light", cls="RadioButton")
    assert p.settings()["theme"] == "light"
    p.back()
    p.back()
    assert "+1 415 555 0187" in p.d.texts(rid="contact_number")
    assert "Moreau Alice" in p.d.texts(rid="contact_name")
    assert not p.d.has(desc="Dialpad")


# ---------------------------------------------------------------- actions, calls, invalid input
def test_call_contact_opens_the_dialer_and_logs_the_call(demo: ir.CompiledTask) -> None:
    p = Phone(demo)
    p.tap(text="Bob Lindqvist")
    p.tap(desc="Call contact")
    assert p.ep.phone.current_activity()[0] == "com.simplemobiletools.dialer"
    assert "Dialing…" in p.texts()
    calls = p.ep.phone.state["phone"].collections["calls"]
    assert calls == [
        {
            "number": "+1 628 555 0142",
            "name": "Bob Lindqvist",
            "direction": "outgoing",
            "timestamp": "2026-05-14T09:30:00",
            "duration": 0,
        }
    ]
    p.tap(desc="End call")
    assert p.ep.phone.current_activity()[0] == PKG
    assert p.screen() == "ViewContactActivity"


def test_send_sms_opens_the_conversation_in_messages(demo: ir.CompiledTask) -> None:
    p = Phone(demo)
    p.tap(text="Bob Lindqvist")
    p.tap(desc="Send SMS")
    assert p.ep.phone.current_activity() == (
        "com.simplemobiletools.smsmessenger",
        "com.simplemobiletools.smsmessenger.activities.ThreadActivity",
    )
    assert p.ep.phone.stacks["messages"][-1].arg("address") == "+1 628 555 0142"


def test_invalid_actions_are_refused_with_a_reason(demo: ir.CompiledTask) -> None:
    p = Phone(demo)
    out = p.act(action_type="click", index=10_000)
    assert not out.ok and "out of range" in out.info
    row = p.d.need(rid="contact_name", text="Alice Moreau")
    out = p.act(action_type="input_text", text="x", index=row)
    assert not out.ok and "not a text field" in out.info
    out = p.act(action_type="input_text", text="x")
    assert not out.ok and "no text field has the focus" in out.info
    assert p.screen() == "MainActivity"
