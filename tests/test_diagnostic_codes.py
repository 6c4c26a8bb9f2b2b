"""The diagnostic registry against the golden cases, and the house style of messages.

Every registered code must be produced by at least one golden case (or be listed in
``NOT_IN_GOLDEN`` with a reason); every rendered diagnostic starts with a
`file:line:col: severity[CODE]: message` header whose message is lowercase-initial and has
no final period. The tests at the end are regressions: each pins a compiler bug that was
found while writing the golden cases, and fixed.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tasklang.compiler import Compiler, CompileResult
from tasklang.diagnostics import REGISTRY, Diagnostic, Severity, render_json, render_text
from tasklang.source import SourceFile

GOLDEN = Path(__file__).resolve().parent / "golden"

# Codes no golden case produces, with the reason.
# Unmeetable constraints, an impossible or vacuous goal, `expect` against `forbid`.
BROKEN_TASK_CODES = frozenset({"TL2010", "TL2011", "TL2012", "TL2013"})
_LINT = "produced by the z3 analysis of `tasklang lint`; tests/test_analysis.py covers it"
NOT_IN_GOLDEN: dict[str, str] = {
    **{code: _LINT for code in ("TL2010", "TL2011", "TL2012", "TL2013", "TL2014", "TL2019")},
    "TL0012": "emitted by `tasklang fmt` when formatting would change meaning, never by the "
    "compiler; tests/test_fmt.py covers it",
}

HEADER = re.compile(
    r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): "
    r"(?P<severity>error|warning|note)\[(?P<code>TL\d{4})\]: (?P<message>.+)$"
)
EXCERPT = re.compile(r"^(?P<gutter>\d+| +) \|( .*)?$")
EXTRA = re.compile(r"^  = (help|note): .+$")


def golden_texts() -> dict[str, str]:
    return {
        p.parent.name: p.read_text(encoding="utf-8")
        for p in sorted(GOLDEN.glob("*/expected.diagnostics.txt"))
    }


def headers(text: str) -> list[re.Match[str]]:
    return [m for m in map(HEADER.match, text.splitlines()) if m]


def compile_snippet(text: str) -> CompileResult:
    return Compiler().compile_text(text, path="input.task")


def codes_of(result: CompileResult) -> list[str]:
    return [d.code for d in result.diagnostics]


def check_style(text: str, what: str) -> None:
    assert text and text == text.strip(), f"{what}: {text!r}"
    assert not text[0].isupper(), f"{what} should start lowercase: {text!r}"
    assert not (text.endswith(".") and not text.endswith("...")), f"{what}: {text!r}"


# ---------------------------------------------------------------- the registry
def test_registry_codes_are_well_formed() -> None:
    assert list(REGISTRY) == sorted(REGISTRY)
    for code, entry in REGISTRY.items():
        assert re.fullmatch(r"TL[0-3]\d{3}", code), code
        assert entry.code == code
        check_style(entry.title, f"{code} title")
        assert entry.explanation.endswith((".", ".)")), code
        broken = code in BROKEN_TASK_CODES  # analysis findings that make a task unusable
        expected = Severity.WARNING if code.startswith("TL2") and not broken else Severity.ERROR
        assert entry.severity is expected, code


def test_every_code_has_a_golden_case() -> None:
    produced: set[str] = set()
    for text in golden_texts().values():
        produced |= {m["code"] for m in headers(text)}
    missing = set(REGISTRY) - produced - set(NOT_IN_GOLDEN)
    assert not missing, f"codes without a golden case: {sorted(missing)}"
    assert produced <= set(REGISTRY), produced - set(REGISTRY)


def test_allow_list_is_justified() -> None:
    produced = {m["code"] for t in golden_texts().values() for m in headers(t)}
    for code, reason in NOT_IN_GOLDEN.items():
        assert code in REGISTRY, code
        assert code not in produced, f"{code} now has a golden case: drop it from NOT_IN_GOLDEN"
        assert len(reason) > 20


def test_each_code_case_is_named_after_its_code() -> None:
    """`tlNNNN_*` cases exist for every code a golden case must produce."""
    named = {p.name[:6].upper() for p in GOLDEN.iterdir() if p.name.startswith("tl")}
    assert set(REGISTRY) - set(NOT_IN_GOLDEN) <= named


# ---------------------------------------------------------------- rendered text
@pytest.mark.parametrize("case", sorted(golden_texts()))
def test_golden_diagnostics_are_well_formed(case: str) -> None:
    text = golden_texts()[case]
    lines = text.rstrip("\n").splitlines()
    assert lines and HEADER.match(lines[0]), lines[:1]
    for line in lines:
        match = HEADER.match(line)
        if match is None:
            assert EXCERPT.match(line) or EXTRA.match(line), f"unexpected line {line!r}"
            continue
        assert match["file"] == "input.task"
        assert int(match["line"]) >= 1 and int(match["col"]) >= 1
        assert match["severity"] == REGISTRY[match["code"]].severity.value
        check_style(match["message"], f"{match['code']} message")
        assert "Traceback" not in line and "Error(" not in line
    for line in lines:
        if line.startswith("  = help: "):
            check_style(line.removeprefix("  = help: "), "help")


@pytest.mark.parametrize("code", sorted(REGISTRY))
def test_render_header_for_every_code(code: str) -> None:
    source = SourceFile("dir/a.task", "task a.b {\n  kind app\n}\n")
    diag = Diagnostic(code, "something is off", source.span(13, 17), help="fix it")
    text = render_text([diag], {source.path: source})
    first, *rest = text.splitlines()
    severity = REGISTRY[code].severity.value
    assert first == f"dir/a.task:2:3: {severity}[{code}]: something is off"
    assert rest == ["  |", "2 |   kind app", "  |   ^^^^", "  = help: fix it"]
    assert f'"code": "{code}"' in render_json([diag])


def test_unregistered_code_is_refused() -> None:
    with pytest.raises(ValueError, match="unregistered"):
        Diagnostic("TL9999", "nope", SourceFile("a", "").span(0, 0))


def test_caret_points_at_the_span() -> None:
    result = compile_snippet(
        'task clock.caret {\n  kind app\n  apps clock\n  goal "Hi"\n'
        "  expect { count(clock.alarmz) == 1 }\n  budget 3 steps\n}\n"
    )
    text = render_text(result.diagnostics, result.sources)
    lines = text.splitlines()
    assert lines[0].startswith("input.task:5:18: error[TL1002]: ")
    source_line, caret_line = lines[2], lines[3]
    start = caret_line.index("^")
    assert source_line[start : start + len("clock.alarmz")] == "clock.alarmz"
    assert caret_line.count("^") == len("clock.alarmz")


# ---------------------------------------------------------------- bugs fixed, kept fixed
TIMER = 'task clock.t {{\n  kind app\n  apps clock\n  goal "Hi"\n  {body}\n  budget 3 steps\n}}\n'


@pytest.mark.parametrize(
    ("given", "code"),
    [("now 09:30", "TL1006"), ("now 2026-05-14T08:00  now 2026-05-14T09:00", "TL1015")],
)
def test_clock_messages_name_the_now_keyword(given: str, code: str) -> None:
    result = compile_snippet(TIMER.format(body=f"given {{ {given} }}\n  expect {{ true }}"))
    assert codes_of(result) == [code]
    diag = result.diagnostics[0]
    assert "`now" in diag.message and "`clock" not in diag.message + (diag.help or "")


def test_field_of_a_collection_reports_once() -> None:
    body = "expect { clock.alarms.time == 07:00 }"
    assert codes_of(compile_snippet(TIMER.format(body=body))) == ["TL1003"]


@pytest.mark.parametrize(
    "clause",
    [
        'exists clock.timers where state in ["runing", "paused"]',
        'exists clock.alarms where repeat == ["mon", "fryday"]',
        'exists clock.alarms where repeat contains "fryday"',
    ],
)
def test_enum_members_in_lists_are_checked(clause: str) -> None:
    result = compile_snippet(TIMER.format(body=f"expect {{ {clause} }}"))
    assert codes_of(result) == ["TL1013"]


# ---------------------------------------------------------------- known compiler bugs
def test_weight_above_the_limit_is_not_called_non_positive() -> None:
    result = compile_snippet(TIMER.format(body="expect { true weight 2000000 }"))
    assert codes_of(result) == ["TL1019"]
    assert "positive" not in result.diagnostics[0].message


def test_invalid_within_literal_reports_once() -> None:
    body = "expect { exists clock.alarms where time == 07:00 within 1m1m }"
    assert codes_of(compile_snippet(TIMER.format(body=body))) == ["TL0009"]


def test_empty_goal_placeholder_reports_once() -> None:
    text = TIMER.format(body="expect { true }").replace('goal "Hi"', 'goal "Hi {} there"')
    assert codes_of(compile_snippet(text)) == ["TL1016"]


def test_app_listed_twice_reports_once() -> None:
    text = TIMER.format(body="expect { true }").replace("apps clock", "apps clock, clock")
    assert codes_of(compile_snippet(text)) == ["TL1005"]


@pytest.mark.parametrize("domain", ["time in alone .. 10:00", "int in 1 .. alone + 1"])
def test_parameter_range_naming_itself_is_cyclic(domain: str) -> None:
    body = f"params {{ alone: {domain} }}\n  expect {{ true }}"
    text = TIMER.format(body=body).replace('goal "Hi"', 'goal "Hi {alone}"')
    assert codes_of(compile_snippet(text)) == ["TL1029"]


def test_forward_parameter_reference_is_type_checked() -> None:
    text = (
        "task maps.forward {\n  kind app\n  apps maps\n"
        '  goal "Find {place.name} {label}."\n'
        "  params {\n    place: one of maps.places where rating >= label\n"
        '    label: one of ["x", "y"]\n  }\n'
        "  expect { answer == place.name }\n  budget 3 steps\n}\n"
    )
    # The same parameters in the other order give TL1006 (`number` >= `text`).
    swapped = text.replace(
        '    place: one of maps.places where rating >= label\n    label: one of ["x", "y"]\n',
        '    label: one of ["x", "y"]\n    place: one of maps.places where rating >= label\n',
    )
    assert "TL1006" in codes_of(compile_snippet(swapped))
    assert "TL1006" in codes_of(compile_snippet(text))


def test_money_against_int_arithmetic_is_not_unit_confused() -> None:
    """`total < 20` means $20 (2000 cents); `total < 10 * 2` compares cents with 20."""
    body = "expect { exists coffee.orders where total < 10 * 2 }"
    text = TIMER.replace("kind app\n  apps clock", "kind mini_app\n  apps coffee in wechat")
    result = compile_snippet(text.format(body=body))
    if not result.diagnostics:
        where = result.tasks[0].task.clauses[0].body.expr.where  # type: ignore[union-attr]
        assert where.right.type.name == "money"


def test_crlf_excerpt_has_no_replacement_character() -> None:
    text = TIMER.format(body="expect { count(clock.alarmz) == 1 }").replace("\n", "\r\n")
    result = compile_snippet(text)
    assert codes_of(result) == ["TL1002"]
    assert "\N{REPLACEMENT CHARACTER}" not in render_text(result.diagnostics, result.sources)


def test_keyword_field_used_bare_gets_a_hint() -> None:
    """Fields may be named `count`; used bare in a `where` the error should say why."""
    text = (GOLDEN / "tl0002_keyword_as_bare_name" / "input.task").read_text(encoding="utf-8")
    result = compile_snippet(text)
    assert codes_of(result) == ["TL0002"]
    diag = result.diagnostics[0]
    assert "`count`" in diag.message + (diag.help or ""), (diag.message, diag.help)
