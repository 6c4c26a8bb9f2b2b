"""Lint of what the goal text says against what the clauses check (TL2006, TL2007), and
the one IR walker the passes and the verifier share.

Each case plants one defect (or one near-miss) in a small task compiled from text; the
bundled library must stay clean of both warnings, and taking a stated value or a checked
parameter out of a library task must make them fire.
"""

from __future__ import annotations

import pytest

from tasklang import ir
from tasklang.compiler import Compiler, CompileResult, library_root
from tasklang.diagnostics import Diagnostic
from tasklang.passes import lint
from tasklang.passes.resolve import param_refs
from tasklang.verifiers.check import mentions

LINT = ("TL2006", "TL2007")


def compile_task(text: str) -> CompileResult:
    return Compiler().compile_text(text, path="input.task")


def task(
    goal: str,
    expect: str,
    *,
    apps: str = "contacts",
    params: str = "",
    given: str = "",
    extra: str = "",
) -> str:
    lines = [
        "task lint.case {",
        "  kind app",
        f"  apps {apps}",
        f'  goal "{goal}"',
    ]
    if params:
        lines.append(f"  params {{\n    {params}\n  }}")
    if given:
        lines.append(f"  given {{\n    {given}\n  }}")
    lines.append(f"  expect {{\n    {expect}\n  }}")
    if extra:
        lines.append(f"  {extra}")
    lines += ["  budget 10 steps", "}", ""]
    return "\n".join(lines)


def lint_of(text: str) -> list[Diagnostic]:
    result = compile_task(text)
    assert result.ok, [(d.code, d.message) for d in result.diagnostics]
    return [d for d in result.diagnostics if d.code in LINT]


def spanned(text: str, diag: Diagnostic) -> str:
    return text[diag.span.start : diag.span.end]


# ---------------------------------------------------------------- TL2006
def test_goal_parameter_not_checked() -> None:
    text = task(
        "Rename {old.name} to {new_name}.",
        "exists contacts.people where name == new_name",
        params="old: one of contacts.people\n    new_name: person_name",
    )
    [diag] = lint_of(text)
    assert diag.code == "TL2006"
    assert "`old`" in diag.message
    assert spanned(text, diag) == 'goal "Rename {old.name} to {new_name}."'
    assert diag.help and "`old`" in diag.help


def test_every_unchecked_goal_parameter_is_named() -> None:
    text = task(
        "Star {a} and {b}, then {c}.",
        "exists contacts.people where name == c and starred",
        params="a: person_name\n    b: person_name\n    c: person_name",
    )
    assert [d.message.split("`")[1] for d in lint_of(text)] == ["a", "b"]


@pytest.mark.parametrize(
    ("params", "expect", "given", "extra"),
    [
        # checked in `forbid`
        (
            "who: person_name",
            "count(contacts.people) >= 0",
            "",
            "forbid { deleted contacts.people where name == who }",
        ),
        # through the domain of a checked parameter
        (
            'who: one of contacts.people where group == kind\n    kind: one of ["work", "family"]',
            "exists contacts.people where name == who.name and starred",
            "",
            "",
        ),
        # through a constraint that ties it to a checked parameter
        (
            "who: person_name\n    other: person_name",
            "exists contacts.people where name == other",
            "",
            "constraints { who != other }",
        ),
        # through a record the task seeds with both
        (
            "who: person_name\n    number: phone_number",
            "exists contacts.people where phone == number and starred",
            "contacts.people += { name: who, phone: number }",
            "",
        ),
    ],
    ids=["forbid", "record-domain", "constraint", "given"],
)
def test_goal_parameter_checked_indirectly(
    params: str, expect: str, given: str, extra: str
) -> None:
    goal = "Star {who}." if "who: one of" not in params else "Star {who.name} ({kind})."
    text = task(goal, expect, params=params, given=given, extra=extra)
    assert lint_of(text) == []


def test_a_constraint_ties_only_within_one_conjunct() -> None:
    text = task(
        "Star {who}.",
        "exists contacts.people where name == other",
        params="who: person_name\n    other: person_name",
        extra='constraints { who != "x" and other != "y" }',
    )
    assert [d.code for d in lint_of(text)] == ["TL2006"]


def test_infeasible_task_goal_parameters_are_not_reported() -> None:
    text = task(
        "Delete the contact {ghost}.",
        "unchanged contacts.people",
        params="ghost: person_name",
        extra="outcome infeasible",
    )
    assert lint_of(text) == []


def test_an_unknown_name_does_not_cascade_into_tl2006() -> None:
    text = task(
        "Star {who}.",
        "exists contacts.people where name == wh",
        params="who: person_name",
    )
    codes = [d.code for d in compile_task(text).diagnostics]
    assert "TL1004" in codes and "TL2006" not in codes


# ---------------------------------------------------------------- TL2007
@pytest.mark.parametrize(
    ("goal", "expect", "apps", "literal"),
    [
        (
            "Add Marta to my contacts.",
            'contacts.people has { name ~ "Marta", company == "Fontaneria Sol" }',
            "contacts",
            '"Fontaneria Sol"',
        ),
        (
            "Turn the brightness up.",
            "settings.brightness == 42",
            "settings",
            "42",
        ),
        (
            "Which city is the museum in?",
            'answer == "Paris"',
            "maps",
            '"Paris"',
        ),
        (
            "Label the contact.",
            'trace eventually updated contacts.people where notes == "vip"',
            "contacts",
            '"vip"',
        ),
        (
            "Note Ada Park's hobby.",
            'exists contacts.people where name == "Ada Park" and notes contains "climbing"',
            "contacts",
            '"climbing"',
        ),
        (
            "Transfer money to Lily (wxid_k2m9q0).",
            'wechat.transfers has { to == "wxid_k2m9q0", amount == $12.50 }',
            "wechat",
            "$12.50",
        ),
    ],
    ids=["has", "setting", "answer", "trace", "contains", "money"],
)
def test_checked_literal_not_stated(goal: str, expect: str, apps: str, literal: str) -> None:
    text = task(goal, expect, apps=apps)
    [diag] = lint_of(text)
    assert diag.code == "TL2007"
    assert spanned(text, diag) == literal
    assert diag.help and "goal" in diag.help


def test_each_unstated_literal_of_a_list_is_pointed_at() -> None:
    text = task("Which files are large?", 'answer == ["a.pdf", "b.pdf"] unordered', apps="files")
    assert [spanned(text, d) for d in lint_of(text)] == ['"a.pdf"', '"b.pdf"']


@pytest.mark.parametrize(
    ("goal", "expect", "apps", "given"),
    [
        # stated, up to case and whitespace
        (
            "Set the company of Ada Park to  ACME   corp.",
            'contacts.people has { name == "Ada Park", company == "Acme Corp" }',
            "contacts",
            "",
        ),
        # a number in any usual spelling
        ("Set the brightness to 42.0 percent.", "settings.brightness == 42", "settings", ""),
        ("Set the ring volume to seven.", "settings.ring_volume == 7", "settings", ""),
        ("Set the ring volume to 7.", "settings.ring_volume == 7.0", "settings", ""),
        (
            "Send Lily (wxid_k2m9q0) 12.5 yuan.",
            'wechat.transfers has { to == "wxid_k2m9q0", amount == $12.50 }',
            "wechat",
            "",
        ),
        (
            "Send Lily (wxid_k2m9q0) $7.",
            'wechat.transfers has { to == "wxid_k2m9q0", amount == 7 }',
            "wechat",
            "",
        ),
        # a phone number up to its formatting and country prefix
        (
            "Text (415) 555-0134 that I am late.",
            'messages.sent has { to == "+1 415 555 0134", body ~ "late" }',
            "messages",
            "",
        ),
        # `~` reads a reported message in the first person
        (
            "Text (415) 555-0134 that you are on your way.",
            'messages.sent has { to == "+1 415 555 0134", body ~ "on my way" }',
            "messages",
            "",
        ),
        # seeded in `given`: a check on a record the task seeded
        (
            "Set a weekday alarm at 07:00.",
            'exists clock.alarms where time == 07:00\n    exists clock.alarms where label == "Weekend"',
            "clock",
            'clock.alarms += { time: 09:00, label: "Weekend", repeat: ["sat", "sun"] }',
        ),
        # an answer read off seeded text
        (
            "Which city is the Louvre in?",
            'answer == "paris"',
            "maps",
            'maps.places += { name: "Louvre", address: "Rue de Rivoli, 75001 Paris", rating: 4.7 }',
        ),
        # preserving, not producing
        ("Star Ada Park.", 'not (exists contacts.people where company == "Acme")', "contacts", ""),
        ("Star Ada Park.", 'none contacts.people where company == "Acme"', "contacts", ""),
        ("Star Ada Park.", 'exists contacts.people where company != "Acme"', "contacts", ""),
        ("Star Ada Park.", 'count(contacts.people where company == "Acme") == 3', "contacts", ""),
        (
            "Star Ada Park.",
            'all contacts.people where company == "Acme" implies starred',
            "contacts",
            "",
        ),
        # not text or numbers: enums, bools, dates, times
        (
            "Star Ada Park.",
            'contacts.people has { name == "Ada Park", group == "work", starred == true }',
            "contacts",
            "",
        ),
        (
            "Star Ada Park.",
            'exists contacts.people where name == "Ada Park" and birthday == 1990-04-01',
            "contacts",
            "",
        ),
        ("Set an alarm.", "exists clock.alarms where time == 07:00", "clock", ""),
        # the field's declared default: nothing to produce
        (
            "Set an alarm at 07:00.",
            'exists clock.alarms where time == 07:00 and ringtone == "Default (Cesium)"',
            "clock",
            "",
        ),
        # answers that are counted or yes/no
        ("How many contacts are starred?", "answer == 3", "contacts", ""),
        ("Is Ada Park starred?", 'answer == "yes"', "contacts", ""),
        # not literals the agent produces: `in`, `matches`, ordering, tolerances
        (
            "Star Ada Park.",
            'exists contacts.people where group in ["work", "family"]',
            "contacts",
            "",
        ),
        ("Star Ada Park.", 'exists contacts.people where name matches "^A"', "contacts", ""),
        ("Brighten the screen.", "settings.brightness >= 80", "settings", ""),
    ],
)
def test_near_misses_do_not_warn(goal: str, expect: str, apps: str, given: str) -> None:
    assert lint_of(task(goal, expect, apps=apps, given=given)) == []


def test_one_stated_branch_of_or_is_enough() -> None:
    expect = 'exists clock.alarms where label == "Gym" or label == "Workout"'
    assert lint_of(task("Set a Gym alarm.", expect, apps="clock")) == []
    text = task("Set an alarm.", expect, apps="clock")
    assert [spanned(text, d) for d in lint_of(text)] == ['"Gym"', '"Workout"']


def test_guards_and_forbid_are_not_read() -> None:
    text = task(
        "Star Ada Park.",
        'exists contacts.people where name == "Ada Park" and starred',
        extra='forbid { added contacts.people where company == "Acme" }',
    )
    assert lint_of(text) == []


def test_a_placeholder_does_not_state_its_name() -> None:
    """`{friend.name}` does not state the text "name"."""
    text = task(
        "Text {friend.name}.",
        'messages.sent has { to == friend.phone, body == "name" }',
        apps="messages, contacts",
        params="friend: one of contacts.people",
    ).replace("kind app", "kind cross_app")
    assert [spanned(text, d) for d in lint_of(text)] == ['"name"']


def test_a_word_inside_a_longer_word_is_not_stated() -> None:
    text = task(
        "Note that Ada Park is a climber.", 'contacts.people has { notes contains "climb" }'
    )
    assert [spanned(text, d) for d in lint_of(text)] == ['"climb"']


# ---------------------------------------------------------------- the library
def test_library_is_clean_of_tl2006_and_tl2007() -> None:
    result = Compiler().compile_paths([library_root()])
    assert result.ok and result.tasks
    assert [(d.span.label, d.message) for d in result.diagnostics if d.code in LINT] == []


def _library_task(name: str) -> str:
    [path] = library_root().glob(f"**/{name}.task")
    return path.read_text(encoding="utf-8")


def test_library_task_checking_a_label_it_does_not_state_warns() -> None:
    text = _library_task("cross.alarm_from_message")
    text = text.replace('label ~ "Meeting"', 'label ~ "Dentist"')
    assert [(d.code, spanned(text, d)) for d in lint_of(text)] == [("TL2007", '"Dentist"')]


def test_library_task_without_its_checked_parameter_warns() -> None:
    text = _library_task("clock.weekday_alarm").replace("      label == title,\n", "")
    assert [(d.code, d.message) for d in lint_of(text)] == [
        ("TL2006", "the goal mentions parameter `title` but no clause checks it")
    ]


def test_library_parameter_checked_through_a_domain() -> None:
    """`max_km` is checked through `top`, whose domain names it."""
    [compiled] = Compiler().compile_text(_library_task("maps.save_best_cafe")).tasks
    assert {"max_km", "top"} <= lint.verdict_params(compiled.task)


# ---------------------------------------------------------------- ir.walk
def test_walk_is_pre_order_through_models_lists_and_dicts() -> None:
    e = ir.Compare(
        op="==",
        left=ir.FieldRef(base=ir.Param(name="p"), name="f"),
        right=ir.ListExpr(items=[ir.Lit(value=1), ir.AnswerRef()]),
    )
    nodes = list(ir.walk({"a": [e], "b": (ir.Now(),)}))
    assert [type(n).__name__ for n in nodes] == [
        "Compare", "FieldRef", "Param", "ListExpr", "Lit", "AnswerRef", "Now",
    ]  # fmt: skip
    assert list(ir.walk("text")) == [] and list(ir.walk(None)) == []


def test_walk_reaches_the_task_inside_a_compiled_artifact() -> None:
    [compiled] = Compiler().compile_text(_library_task("wechat.transfer_money")).tasks
    params = {n.name for n in ir.walk(compiled) if isinstance(n, ir.Param)}
    assert params == {"pal", "owed", "memo"} == param_refs(compiled.task)
    assert mentions(compiled.task.clauses, (ir.SettingRef,))
    assert not mentions(compiled.task.clauses, (ir.AnswerRef,))
