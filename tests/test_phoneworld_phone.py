"""PhoneWorld's Phone app (Simple Dialer) and its app model `phone`: the model compiles, the
screens' XML parses, and the dialpad, calls, call history, contacts lookup and settings work
through real actions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tasklang import ir
from tasklang.compiler import Compiler
from tasklang.envs.phoneworld.apps import app_classes
from tasklang.envs.phoneworld.episode import Episode
from tasklang.envs.phoneworld.solutions import Driver
from tasklang.verifiers.snapshot import parse_ui_xml

LIBRARY = Path(__file__).resolve().parent.parent / "task_library"
PKG = "com.simplemobiletools.dialer"

DEMO = """
task phone.demo_phoneworld {
  kind cross_app
  apps phone, contacts
  goal "Sort out my calls."
  given {
    now 2026-05-14T09:30 tz "America/Los_Angeles"
    foreground phone
    contacts.people += { name: "Alice Moreau", phone: "+1 415 555 0187", starred: true }
    contacts.people += { name: "Bob Lindqvist", phone: "+1 628 555 0142" }
    contacts.people += { name: "Carla Zed", phone: "+1 650 555 0100" }
    phone.calls += { number: "+1 628 555 0142", direction: "missed", timestamp: 2026-05-14T08:10 }
    phone.calls += { number: "+1 628 555 0142", direction: "missed", timestamp: 2026-05-14T08:05 }
    phone.calls += { number: "+1 212 555 0199", direction: "incoming",
                     timestamp: 2026-05-13T18:00, duration: 125s }
  }
  expect { exists phone.calls where direction == "outgoing" }
  budget 30 steps
}
"""


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

    def calls(self) -> list[dict[str, Any]]:
        return self.ep.phone.state["phone"].collections.get("calls", [])

    def blocked(self) -> list[dict[str, Any]]:
        return self.ep.phone.state["phone"].collections.get("blocked_numbers", [])

    def settings(self) -> dict[str, Any]:
        return self.ep.phone.state["phone"].settings

    def act(self, **action: Any) -> Any:
        return self.ep.step(action)

    def tap(self, **sel: Any) -> Any:
        return self.act(action_type="click", index=self.d.need(**sel))

    def long_press(self, **sel: Any) -> Any:
        return self.act(action_type="long_press", index=self.d.need(**sel))

    def type(self, text: str, **sel: Any) -> Any:
        return self.act(
            action_type="input_text", text=text, index=self.d.need(**sel), clear_text=True
        )

    def back(self) -> Any:
        return self.act(action_type="navigate_back")

    def dial(self, digits: str) -> None:
        names = {"0": "Zero", "1": "One", "2": "Two", "3": "Three", "4": "Four", "5": "Five"}
        names.update({"6": "Six", "7": "Seven", "8": "Eight", "9": "Nine", "*": "Asterisk"})
        for digit in digits:
            assert self.tap(desc=names[digit]).ok

    def texts(self) -> list[str]:
        return [v.text for v in self.ep.tree().walk() if v.text]

    def screen(self) -> str:
        return self.ep.phone.current_activity()[1].rsplit(".", 1)[-1]

    def check_xml(self) -> None:
        root, elements = parse_ui_xml(self.ep.xml())
        assert root.tag == "hierarchy"
        assert any(e.package == PKG for e in elements)


# ---------------------------------------------------------------- the model
def test_phone_model_compiles_and_the_app_implements_it() -> None:
    result = Compiler().compile_paths([LIBRARY])
    assert not [d for d in result.diagnostics if d.severity == "error"]
    model = result.apps["phone"]
    assert model.package == PKG and model.label == "Phone"
    call = model.record("Call")
    assert call is not None
    assert [f.name for f in call.fields] == ["number", "name", "direction", "timestamp", "duration"]
    assert "phone" in app_classes() and app_classes()["phone"].package == PKG


# ---------------------------------------------------------------- screens
def test_screens_produce_parseable_xml(demo: ir.CompiledTask) -> None:
    p = Phone(demo)
    assert p.screen() == "MainActivity"
    p.check_xml()
    for tab in ("Favorites", "Call History", "Contacts"):
        p.tap(desc=tab)
        p.check_xml()
    p.tap(desc="Dialpad")
    assert p.screen() == "DialpadActivity"
    p.check_xml()
    p.dial("5")
    p.tap(desc="Call number")
    assert p.screen() == "CallActivity"
    p.check_xml()
    p.tap(desc="Show dialpad")
    p.check_xml()
    p.tap(desc="End call")
    p.tap(desc="Navigate up")
    p.tap(desc="More options")
    p.tap(text="Settings")
    assert p.screen() == "SettingsActivity"
    p.check_xml()
    p.tap(text="Manage blocked numbers")
    p.check_xml()


def test_contacts_and_favorites_tabs_read_the_contacts_app(demo: ir.CompiledTask) -> None:
    p = Phone(demo)
    assert p.d.texts(rid="item_contact_name") == ["Alice Moreau", "Bob Lindqvist", "Carla Zed"]
    p.type("carla", rid="top_toolbar_search")
    assert p.d.texts(rid="item_contact_name") == ["Carla Zed"]
    p.tap(desc="Favorites")
    assert p.d.texts(rid="item_contact_name") == ["Alice Moreau"]


def test_call_history_lists_calls_newest_first_grouped(demo: ir.CompiledTask) -> None:
    p = Phone(demo)
    p.tap(desc="Call History")
    names = p.d.texts(rid="item_recents_name")
    assert names == ["Bob Lindqvist (2)", "+1 212 555 0199"]
    assert p.d.texts(rid="item_recents_date_time") == ["8:10 AM", "Yesterday, 6:00 PM"]
    assert "02:05" in p.d.texts(rid="item_recents_duration")
    assert p.d.has(desc="Missed call") and p.d.has(desc="Incoming call")
    p.tap(desc="More options", nth=0)  # the toolbar's menu
    p.tap(text="Settings")
    p.tap(text="Group subsequent calls with the same number at the call log")
    p.tap(text="Change date and time format")
    p.tap(text="Use 24-hour time format")
    p.tap(text="OK")
    assert p.settings()["group_subsequent_calls"] is False
    assert p.settings()["use_24_hour_format"] is True
    p.back()
    names = p.d.texts(rid="item_recents_name")
    assert names == ["Bob Lindqvist", "Bob Lindqvist", "+1 212 555 0199"]
    assert p.d.texts(rid="item_recents_date_time")[0] == "08:10"


# ---------------------------------------------------------------- calling
def test_dialpad_call_logs_an_outgoing_call_and_end_call_records_its_length(
    demo: ir.CompiledTask,
) -> None:
    p = Phone(demo)
    p.tap(desc="Dialpad")
    p.dial("6505550")
    assert p.d.texts(rid="item_contact_name") == ["Carla Zed"]  # matching contacts
    p.long_press(desc="Zero")
    p.tap(desc="Delete")  # backspace removes the "+"
    p.dial("100")
    assert p.d.has(rid="dialpad_input", text="6505550100")
    p.tap(desc="Call number")
    assert p.screen() == "CallActivity"
    assert p.d.has(rid="caller_name_label", text="Carla Zed")
    assert p.d.has(rid="call_status_label", text="Dialing…")
    new = p.calls()[-1]
    assert new == {
        "number": "6505550100",
        "name": "Carla Zed",
        "direction": "outgoing",
        "timestamp": "2026-05-14T09:30:00",
        "duration": 0,
    }
    p.act(action_type="wait")
    p.act(action_type="wait")
    assert p.d.has(rid="call_status_label", text="00:10")
    p.tap(desc="Turn microphone off")
    assert p.d.has(desc="Turn microphone on")
    p.tap(desc="End call")
    assert p.calls()[-1]["duration"] == 10
    assert p.screen() == "DialpadActivity"
    assert p.d.has(rid="dialpad_input", text="6505550100")
    p.long_press(desc="Delete")
    assert not p.d.has(rid="dialpad_input", text="6505550100")


def test_typed_number_and_empty_number(demo: ir.CompiledTask) -> None:
    p = Phone(demo)
    p.tap(desc="Dialpad")
    p.tap(desc="Call number")
    assert p.ep.phone.toast == "Please enter a number"
    assert len(p.calls()) == 3
    p.type("+44 7700 900123", rid="dialpad_input")
    p.act(action_type="keyboard_enter")
    assert p.screen() == "CallActivity"
    assert p.calls()[-1]["number"] == "+44 7700 900123"
    assert p.calls()[-1]["name"] is None


def test_tapping_a_contact_calls_it(demo: ir.CompiledTask) -> None:
    p = Phone(demo)
    p.tap(text="Bob Lindqvist")
    assert p.screen() == "CallActivity"
    assert p.calls()[-1]["number"] == "+1 628 555 0142"
    assert p.calls()[-1]["name"] == "Bob Lindqvist"
    p.back()  # leaving the call screen keeps the logged call
    assert p.screen() == "MainActivity"
    assert len(p.calls()) == 4


def test_call_confirmation_setting_asks_first(demo: ir.CompiledTask) -> None:
    p = Phone(demo)
    p.tap(desc="More options")
    p.tap(text="Settings")
    p.tap(text="Show a call confirmation dialog before initiating a call")
    assert p.settings()["show_call_confirmation"] is True
    p.back()
    p.tap(text="Alice Moreau")
    assert "Call Alice Moreau?" in p.texts()
    p.tap(text="Cancel")
    assert len(p.calls()) == 3
    p.tap(text="Alice Moreau")
    p.tap(text="Call")
    assert len(p.calls()) == 4 and p.screen() == "CallActivity"


def test_recent_call_menu_calls_back_blocks_and_removes(demo: ir.CompiledTask) -> None:
    p = Phone(demo)
    p.tap(desc="Call History")
    p.tap(rid="overflow_menu_icon", nth=1)
    assert "Add number to contact" in p.texts()
    p.tap(text="Block number")
    assert p.blocked() == [{"number": "+1 212 555 0199"}]
    p.tap(rid="overflow_menu_icon", nth=0)
    assert "Add number to contact" not in p.texts()
    p.tap(text="Remove")
    p.tap(text="No")
    assert len(p.calls()) == 3
    p.tap(rid="overflow_menu_icon", nth=0)
    p.tap(text="Remove")
    p.tap(text="Yes")
    assert [c["number"] for c in p.calls()] == ["+1 212 555 0199"]
    p.tap(rid="item_recents_holder")
    assert p.screen() == "CallActivity"
    assert p.calls()[-1]["number"] == "+1 212 555 0199"


def test_clear_call_history(demo: ir.CompiledTask) -> None:
    p = Phone(demo)
    p.tap(desc="Call History")
    p.tap(desc="More options", nth=0)
    p.tap(text="Clear call history")
    p.tap(text="Yes")
    assert p.calls() == []
    assert "No previous calls have been found" in p.texts()


def test_add_number_to_contact_opens_the_contacts_editor(demo: ir.CompiledTask) -> None:
    p = Phone(demo)
    p.tap(desc="Dialpad")
    p.dial("5550199")
    p.tap(desc="Add number to contact")
    assert p.ep.phone.current_activity()[0] == "com.simplemobiletools.contacts.pro"
    assert p.d.has(rid="contact_number", text="5550199")
    p.type("Zoe", rid="contact_first_name")
    p.tap(desc="Save")
    people = p.ep.phone.state["contacts"].collections["people"]
    assert any(x["name"] == "Zoe" and x["phone"] == "5550199" for x in people)
    assert p.screen() == "DialpadActivity"  # saving returns to the app that asked


def test_send_sms_from_the_call_history_opens_the_conversation(demo: ir.CompiledTask) -> None:
    p = Phone(demo)
    p.tap(desc="Call History")
    p.tap(rid="overflow_menu_icon", nth=0)
    p.tap(text="Send SMS")
    assert p.ep.phone.current_activity()[0] == "com.simplemobiletools.smsmessenger"


def test_blocked_numbers_screen(demo: ir.CompiledTask) -> None:
    p = Phone(demo)
    p.tap(desc="More options")
    p.tap(text="Settings")
    p.tap(text="Manage blocked numbers")
    assert "You are not blocking anyone." in p.texts()
    p.tap(desc="Add a blocked number")
    p.act(
        action_type="input_text", text="*12345*", index=p.d.need(rid="add_blocked_number_edittext")
    )
    p.tap(text="OK")
    assert p.blocked() == [{"number": "*12345*"}]
    assert p.d.texts(rid="manage_blocked_number_title") == ["*12345*"]
    p.tap(text="Block calls from not stored contacts")
    assert p.settings()["block_unknown_numbers"] is True
    p.tap(rid="manage_blocked_number_holder")
    p.tap(text="Delete")
    assert p.blocked() == []


def test_settings_toggles_and_font_size(demo: ir.CompiledTask) -> None:
    p = Phone(demo)
    p.tap(desc="More options")
    p.tap(text="Settings")
    for text, name, now in (
        ("Hide dialpad numbers", "hide_dialpad_numbers", True),
        ("Enable beeps on dialpad button clicks", "dialpad_beeps", False),
        ("Open the dialpad by default when the app opens", "open_dialpad_at_launch", True),
    ):
        p.d.scroll_to(text=text)
        p.tap(text=text)
        assert p.settings()[name] is now
    p.d.scroll_to(direction="up", text="Font size")
    p.tap(text="Font size")
    p.tap(text="Extra large", cls="RadioButton")
    assert p.settings()["font_size"] == "extra_large"
    p.back()
    p.tap(desc="Dialpad")
    assert not p.d.has(rid="dialpad_2_letters")  # letters hidden


def test_invalid_actions_are_refused_with_a_reason(demo: ir.CompiledTask) -> None:
    p = Phone(demo)
    out = p.act(action_type="click", index=-1)
    assert not out.ok and "out of range" in out.info
    out = p.act(action_type="scroll", direction="sideways")
    assert not out.ok and "direction" in out.info
    out = p.act(action_type="input_text", text="123", index=p.d.need(desc="Dialpad"))
    assert not out.ok and "not a text field" in out.info
    assert p.calls() and len(p.calls()) == 3


# ---------------------------------------------------------------- library tasks
def library_task(task_id: str) -> ir.CompiledTask:
    result = Compiler().compile_paths([LIBRARY / "app" / f"{task_id}.task"])
    assert result.tasks, [d.message for d in result.diagnostics]
    return result.tasks[0]


@pytest.mark.parametrize("task_id", ["phone.call_back_missed", "phone.block_repeat_caller"])
def test_library_references_pass_and_doing_nothing_fails(task_id: str) -> None:
    from tasklang.envs.phoneworld.episode import run_nothing, run_reference

    compiled = library_task(task_id)
    for seed in range(6):  # `tasklang test` tries 20
        verdict, _ = run_reference(compiled, seed)
        assert verdict.success, (seed, [(r.id, r.summary) for r in verdict.clauses if not r.passed])
        assert not run_nothing(compiled, seed).success


def finish(p: Phone) -> bool:
    p.act(action_type="status", goal_status="complete")
    verdict = p.ep.verdict()
    return verdict.success


def test_calling_back_the_wrong_missed_call_fails() -> None:
    compiled = library_task("phone.call_back_missed")
    for seed in range(6):
        p = Phone(compiled, seed)
        wanted = p.ep.instance.params["cutoff"]["number"]
        p.tap(desc="Call History")
        rows = [v for v in p.ep.tree().walk() if v.rid.endswith(":id/item_recents_holder")]
        assert len(rows) == 8
        # the newest missed call (Jonas Brandt, 17:52) is right only for "6 pm"
        p.tap(text="Jonas Brandt")
        p.tap(desc="End call")
        assert finish(p) == (wanted == "+49 170 5550 3391"), seed


def test_blocking_the_other_unknown_number_fails() -> None:
    p = Phone(library_task("phone.block_repeat_caller"), 0)
    p.tap(desc="Call History")
    names = p.d.texts(rid="item_recents_name")
    other = names.index("+1 503 555 0121")
    p.tap(rid="overflow_menu_icon", nth=other)
    p.tap(text="Block number")
    assert p.blocked() == [{"number": "+1 503 555 0121"}]
    assert not finish(p)


def test_missed_calls_of_the_last_day_are_notified_and_open_the_call_history() -> None:
    p = Phone(library_task("phone.call_back_missed"), 0)
    shade = p.ep.phone.notifications
    assert [(n.title, n.text) for n in shade] == [
        ("Missed call", "+49 151 5550 8877"),
        ("Missed call", "+49 160 5550 4410"),
        ("Missed call", "Mira Kaya"),
        ("Missed call", "Paul Weber"),
        ("Missed call", "Jonas Brandt"),
    ]
    p.act(action_type="swipe", direction="down", index=p.d.need(rid="clock"))
    assert p.d.has(desc="Phone notification: Missed call")
    p.tap(text="Jonas Brandt")
    assert p.ep.phone.route() is not None and p.ep.phone.route().arg("tab") == "recents"
    assert len(p.ep.phone.notifications) == 4
