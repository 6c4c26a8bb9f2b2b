"""The canonical formatter: stable, meaning-preserving, comment-preserving."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tasklang import ast, fmt
from tasklang.diagnostics import REGISTRY
from tasklang.fmt import MAX_WIDTH, format_module, format_source
from tasklang.parser import parse, parse_with_comments
from tasklang.source import SourceFile

# ---------------------------------------------------------------- samples
APP_SAMPLE = """
# an app model with every app item
app contacts {  # trailing on the header
  package "com.android.contacts"
  label "Contacts"   # label
  host wechat
  record Person {
    name: text key
    # own-line comment inside a record
    phone: phone   email: email?
    group: enum(family,work) = "work"
    tags: list of text
    maybe: list of text?
    score: list of int = [2 * (3 + 4)]
  }
  record Empty {}
  collection people: Person
  settings { sort_by: enum(first, last) = "first"  dark: bool = false }
  settings {}
  probe people: content "content://x" { name = "display_name", phone = "data1", }
  probe people.raw: content "content://raw"
  probe people.none: content "content://none" {}
  probe settings.sort_by: setting secure "sort"
  probe notes: sqlite "/data/notes.db" table "notes" { title = "t" body = "b" }
  probe logs: sqlite "/data/l.db" table "log"
  probe photos: files "/sdcard/DCIM" { name = "name" }
  probe shown_name: ui text "Name" id "com.x:id/name" desc "d" class "c" xpath "//a" { v = "text" }
  # comment before the closing brace
}
app empty {}
"""

TASK_SAMPLE = r"""
task contacts.add_friend {
  kind app
  apps contacts, coffee in wechat
  goal "Call {friend.name}"
  params {
    friend: one of contacts.people where friend.group == "work"
    anyone: one of contacts.people
    n: int in 1..10
    m: decimal in -1.5..(2.5 + 1)
    c: one of ["a", "b",]
    who: person_name
    at: time in 09:00..17:00
  }
  constraints { n <= 5 and c != "a"   n > 1 }
  given {
    now 2026-05-14T09:30 tz "UTC"
    now now
    foreground contacts
    foreground contacts activity ".Main"
    contacts.people += {name: who, phone: "+1 555",}
    contacts.people += noise 5 where group == "work"
    contacts.people += noise 3
    contacts.sort_by = "last"
  }
  expect {
    contacts.people has { name == who, phone == "555" within 2, }
    exists contacts.people where name ~ who fuzzy 0.8 weight 2
    count(contacts.people where starred) == 1
    count(contacts.people) >= 2 weight 1.5
    answer == ["a", "b"] unordered
    sum(expenses.items where category == "food", amount) == $12.50
    min(expenses.items, amount) < max(expenses.items, amount)
    avg(expenses.items where amount > $1, amount) > $0.5
    only contacts changed
    only contacts.people, contacts.sort_by changed weight 3
    unchanged contacts.sort_by
    unchanged contacts.people, contacts.sort_by weight 1
    trace eventually action click on text "Save" id "com.x:id/save"
    trace never action navigate_home weight 2
    trace foreground maps before added messages.sent where to == friend.phone
    trace shown text "Done" then holds(n > 1)
    trace eventually updated contacts.people
    trace never deleted any where true
    trace eventually changed contacts.sort_by
    trace eventually foreground contacts activity ".Edit"
    trace at most 3 times action navigate_back
    ui element id "x" checked not selected focused enabled clickable scrollable
    ui element text "y" weight 2
    ui no element text "Error"
    ui foreground contacts
    ui foreground contacts activity ".Main" weight 1
    subgoal "opened" weight 0.5 { ui foreground contacts activity ".Main" }
    subgoal "nested" {
      subgoal "inner" { answer == "x" }
      now - 5m < now
    }
    subgoal "empty" {}
    now - 5m < now
  }
  forbid { deleted any  action click on text "Delete"  shown id "warn"
           foreground settings activity ".X"  holds(n == 0)  added contacts.people where name == "x" }
  outcome complete
  budget 25 steps 10m
  budget 30 steps
  device { min_sdk 30 hint "x" locale "en-US" }
  tags "a", "b"
  difficulty easy
  revision 2
  require status
  verify_only
}
task empty.blocks {
  params {}
  constraints {}
  given {}
  expect {}
  forbid {}
  device {}
}
task bare {}
"""

EXPR_SAMPLE = r"""
task exprs {
  constraints {
    a == b  a != b  a <= b  a >= b  a < b  a > b  a ~ b  a in [1, 2]  a contains "x"
    a matches "^x\\d+$"
    a == b within 5m fuzzy 0.9 unordered exact
    a == b exact unordered
    1 + 2 * 3 - 4 / 5 == ((1 + 2) * 3) - (4 / (5 - 6))
    a - (b - c) == (a - b) - c
    (-a.b) == (-a).b
    (--a == -(-a))
    (+a == -(a + b))
    not a and not (b or c) or (d implies e)
    not not a
    (not a) == b
    not (a == b)
    (a == b) == (c == d)
    (a implies b) implies c
    a implies (b implies c)
    ((((x))))
    (exists a.b where x == 1) and y
    (exists a.b where x) implies y
    exists a.b where (x implies y)
    (exists a.b).c
    none a.b where c or d
    all a where b and (none c where d)
    (exists a where b) + 1 == 2
    x == (exists a where b) within 2
    [x, (exists a where b) ] == []
    {} == { k: 1, j: [], } and {x: (exists a where b)}.x
    (count(a.b where c implies d)).e
    a has { x == 1 } has { y > 2, z ~ "q" fuzzy 1 } == true
    (a.b) has { x in [1, 2] within 1 }
    null == false and true
    $5 + $1.25 < 2026-01-01 - 2026-01-02 + 09:30 + 2026-01-01T09:30 + 1d2h
    "quote \" and \\ back" == "tab\t"
    1.5 * -2 == 3
    answer == now
  }
}
"""

COMMENT_SAMPLE = """# file header
# second header line

task comments.everywhere # after the id
{
  # before kind
  kind app  # trailing kind
  apps contacts,  # inside apps
    coffee
  params {   # after params brace
    # first param
    x: int in 1..  # inside range
      10
  }
  # between blocks

  constraints {
    a ==   # inside an expression
      1
    # second statement
    b  # trailing b
  }
  expect {
    # lone
  }
  given { # brace comment
  }
  forbid {}   # after empty forbid
} # after task

# between declarations
app a { package "p" } # after app
# end of file
"""

JUXTAPOSED_SAMPLE = """
task juxtaposed {
  constraints {
    a
    (-b) > 0
    c (-d)
    (exists x where y) (z)
  }
  expect {
    ui element id "x"
    (not y)
    ui element id "x" checked (not y) == z
    ui element id "x" weight 1 not y
    trace eventually added a.b where x
    (-y) > 0
    count(a) == 1 (-c) < 2 weight 2
  }
}
"""

LONG_SAMPLE = r"""
app places {
  record Place {
    category: enum(restaurant, cafe, bar, hotel, gas_station, museum, park, pharmacy, other) = "other"
    tags: list of text = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
  }
  probe places: sqlite "/data/data/com.google.android.apps.maps/databases/gmm_storage.db" table "p" { name = "n", rating = "r" }
}
task long.lines {
  params {
    top: one of maps.places where category == "cafe" and distance_km <= max_km and rating == max(maps.places where category == "cafe", rating)
    slot: one of [{ said: "Design review moved, let's meet at 15:30 in room 4B.", at: 15:30 }, { said: "2pm?", at: 14:00 }]
  }
  given {
    maps.places += { name: "Harbor Bean", address: "270 7th St, San Francisco, CA 94103", rating: 4.3, tags: [] }
  }
  expect {
    maps.places has { name == top.name, address == top.address, saved == true, tags == ["a", "b"] unordered } weight 2
    count(maps.places where saved and category in ["restaurant", "cafe", "bar", "hotel", "museum"]) == 1
    trace eventually holds(answer == [{ a: 1, b: [1, 2, 3] }, { a: 2, b: [4, 5, 6] }, { a: 3, b: [7, 8, 9] }])
  }
}
"""

SAMPLES = {
    "long": LONG_SAMPLE,
    "app": APP_SAMPLE,
    "task": TASK_SAMPLE,
    "exprs": EXPR_SAMPLE,
    "comments": COMMENT_SAMPLE,
    "juxtaposed": JUXTAPOSED_SAMPLE,
}


def _parse(text: str) -> ast.Module:
    module, diagnostics = parse(SourceFile("t.task", text))
    assert module is not None, diagnostics
    return module


def _comments(text: str) -> list[str]:
    _, comments, _ = parse_with_comments(SourceFile("t.task", text))
    return [c.text.rstrip() for c in comments]


def _fmt(text: str) -> str:
    out, diagnostics = format_source(SourceFile("t.task", text))
    assert out is not None, diagnostics
    assert diagnostics == []
    return out


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_sample_roundtrips(name: str) -> None:
    source = SAMPLES[name]
    out = _fmt(source)
    assert _parse(out) == _parse(source)
    assert _comments(out) == _comments(source)
    assert _fmt(out) == out
    assert out.endswith("\n") and not out.endswith("\n\n")


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_sample_is_canonical_text(name: str) -> None:
    out = _fmt(SAMPLES[name])
    lines = out.split("\n")
    assert lines[-1] == "" and lines[-2] != ""
    for line in lines:
        assert line == line.rstrip()
        indent = len(line) - len(line.lstrip(" "))
        assert indent % 2 == 0


def test_formats_sample_file_in_canonical_style() -> None:
    source = """app contacts { package "c"
record Person { name: text key  phone: phone? }
probe people: content "x" { name = "n" phone = "p" } }
task a.b { kind app  params { n: int in 1..10 }
expect { contacts.people has {name==who} weight 2 } budget 5 steps }"""
    assert _fmt(source) == (
        "app contacts {\n"
        '  package "c"\n'
        "  record Person {\n"
        "    name: text key\n"
        "    phone: phone?\n"
        "  }\n"
        '  probe people: content "x" { name = "n", phone = "p" }\n'
        "}\n"
        "\n"
        "task a.b {\n"
        "  kind app\n"
        "  params {\n"
        "    n: int in 1 .. 10\n"
        "  }\n"
        "  expect {\n"
        "    contacts.people has { name == who } weight 2\n"
        "  }\n"
        "  budget 5 steps\n"
        "}\n"
    )


def test_comment_placement() -> None:
    out = _fmt(COMMENT_SAMPLE)
    assert out == (
        "# file header\n"
        "# second header line\n"
        "task comments.everywhere {  # after the id\n"
        "  # before kind\n"
        "  kind app  # trailing kind\n"
        "  # inside apps\n"
        "  apps contacts, coffee\n"
        "  params {  # after params brace\n"
        "    # first param\n"
        "    # inside range\n"
        "    x: int in 1 .. 10\n"
        "  }\n"
        "\n"
        "  # between blocks\n"
        "  constraints {\n"
        "    # inside an expression\n"
        "    a == 1\n"
        "    # second statement\n"
        "    b  # trailing b\n"
        "  }\n"
        "  expect {\n"
        "    # lone\n"
        "  }\n"
        "  given {  # brace comment\n"
        "  }\n"
        "  forbid {}  # after empty forbid\n"
        "}  # after task\n"
        "\n"
        "# between declarations\n"
        "app a {\n"
        '  package "p"\n'
        "}  # after app\n"
        "# end of file\n"
    )


def test_blank_lines_between_block_items_are_kept_as_one() -> None:
    source = 'task t {\n\n  kind app\n  goal "g"\n\n\n  # about params\n  params {}\n  # x\n\n  outcome complete\n\n}\n\n\n\napp a {}\n'
    assert _fmt(source) == (
        "task t {\n"
        "  kind app\n"
        '  goal "g"\n'
        "\n"
        "  # about params\n"
        "  params {}\n"
        "\n"
        "  # x\n"
        "  outcome complete\n"
        "}\n"
        "\n"
        "app a {}\n"
    )


def _constraint(expr: str) -> str:
    out = _fmt(f"task t {{ constraints {{ {expr} }} }}")
    prefix, suffix = "task t {\n  constraints {\n", "  }\n}\n"
    assert out.startswith(prefix) and out.endswith(suffix), out
    return "\n".join(line.strip() for line in out[len(prefix) : -len(suffix)].splitlines())


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("a or (b and c)", "a or b and c"),
        ("(a or b) and c", "(a or b) and c"),
        ("(a or b) or c", "a or b or c"),
        ("a or (b or c)", "a or (b or c)"),
        ("a - (b - c)", "a - (b - c)"),
        ("(a - b) - c", "a - b - c"),
        ("a * (b + c)", "a * (b + c)"),
        ("(a * b) + c", "a * b + c"),
        ("-(a.b)", "-a.b"),
        ("(-a).b", "(-a).b"),
        ("-(a * b)", "-(a * b)"),
        ("not (a == b)", "not a == b"),
        ("(not a) == b", "(not a) == b"),
        ("not (a and b)", "not (a and b)"),
        ("(a == b) == c", "(a == b) == c"),
        ("(a implies b) implies c", "(a implies b) implies c"),
        ("(a or b) implies (c and d)", "a or b implies c and d"),
        ("(exists a.b where x == 1) and y", "(exists a.b where x == 1) and y"),
        ("(exists a.b where x) implies y", "(exists a.b where x) implies y"),
        ("exists a.b where (x or y)", "exists a.b where x or y"),
        ("exists a.b where (x implies y)", "exists a.b where x implies y"),
        ("a implies (exists b where c implies d)", "a implies exists b where c implies d"),
        ("(exists a.b).c", "(exists a.b).c"),
        ("(exists a.b) == (exists c.d)", "exists a.b == exists c.d"),
        ("a == (exists b where c) unordered", "a == (exists b where c) unordered"),
        ("(count(a where b)).c", "count(a where b).c"),
        ("a + (b)", "a + b"),
        ("+a", "a"),
        ("a (-b)", "a\n(-b)"),
        ("a (-b == c)", "a\n(-b == c)"),
        ("a (b) (c)", "a\nb\nc"),
    ],
)
def test_minimal_parentheses(source: str, expected: str) -> None:
    assert _constraint(source) == expected


def test_syntax_error_returns_parser_diagnostics() -> None:
    text, diagnostics = format_source(SourceFile("bad.task", "task t { expect { a == } }"))
    assert text is None
    assert [d.code for d in diagnostics] == ["TL0002"]


needs_tl0012 = pytest.mark.skipif("TL0012" not in REGISTRY, reason="TL0012 not registered yet")


@needs_tl0012
def test_refuses_output_that_changes_meaning(monkeypatch: pytest.MonkeyPatch) -> None:
    source = SourceFile("t.task", "task t {\n  constraints {\n    a\n    (-b) > 0\n  }\n}\n")
    # The real formatter guards this case; a formatter without the guard must be refused.
    monkeypatch.setattr(
        fmt, "format_module", lambda module, comments=(): source.text.replace("(-b)", "-b")
    )
    text, diagnostics = format_source(source)
    assert text is None
    assert [d.code for d in diagnostics] == ["TL0012"]
    assert diagnostics[0].span.start == 0  # the task, the first declaration that changed


@needs_tl0012
def test_refuses_output_that_loses_a_comment(monkeypatch: pytest.MonkeyPatch) -> None:
    source = SourceFile("t.task", "task t {}  # keep me\n")
    monkeypatch.setattr(fmt, "format_module", lambda module, comments=(): "task t {}\n")
    text, diagnostics = format_source(source)
    assert text is None
    assert [d.code for d in diagnostics] == ["TL0012"]


def test_juxtaposed_negation_is_guarded_not_refused() -> None:
    source = 'task t { constraints { a (-b) > 0 } expect { ui element id "x" (not y) } }'
    out = _fmt(source)
    assert "    (-b > 0)\n" in out
    assert "    (not y)\n" in out


# ---------------------------------------------------------------- line width
def _body(block: str, items: str) -> str:
    """The formatted lines inside ``block`` of a task holding ``items``."""
    out = _fmt(f"task t {{ {block} {{\n{items}\n}} }}")
    prefix, suffix = f"task t {{\n  {block} {{\n", "  }\n}\n"
    assert out.startswith(prefix) and out.endswith(suffix), out
    return out[len(prefix) : -len(suffix)]


def test_long_list_breaks_one_item_per_line() -> None:
    cities = ", ".join(f'"{c}"' for c in ["Amsterdam", "Barcelona", "Copenhagen", "Dubrovnik"])
    short = f"city: one of [{cities}]"
    assert _body("params", short) == f"    {short}\n"  # fits: stays inline
    long = f'city: one of [{cities}, "Edinburgh", "Florence", "Geneva", "Helsinki", "Istanbul"]'
    assert _body("params", long) == (
        "    city: one of [\n"
        '      "Amsterdam",\n'
        '      "Barcelona",\n'
        '      "Copenhagen",\n'
        '      "Dubrovnik",\n'
        '      "Edinburgh",\n'
        '      "Florence",\n'
        '      "Geneva",\n'
        '      "Helsinki",\n'
        '      "Istanbul",\n'
        "    ]\n"
    )


def test_long_record_breaks_with_trailing_comment_after_it() -> None:
    source = (
        'contacts.people += { name: "Alice Moreau", phone: "+1 415 555 0187",'
        ' starred: true, group: "friends" }  # Alice'
    )
    assert _body("given", source) == (
        "    contacts.people += {\n"
        '      name: "Alice Moreau",\n'
        '      phone: "+1 415 555 0187",\n'
        "      starred: true,\n"
        '      group: "friends",\n'
        "    }  # Alice\n"
    )


def test_long_has_breaks_and_keeps_the_weight_after_it() -> None:
    source = (
        "contacts.people has { name == who, phone == number within 2, email == mail,"
        ' company ~ firm fuzzy 0.8, group == "work" } weight 2'
    )
    assert _body("expect", source) == (
        "    contacts.people has {\n"
        "      name == who,\n"
        "      phone == number within 2,\n"
        "      email == mail,\n"
        "      company ~ firm fuzzy 0.8,\n"
        '      group == "work",\n'
        "    } weight 2\n"
    )


def test_long_probe_map_and_enum_break() -> None:
    source = """app wechat {
  record Place { kind: enum(restaurant, cafe, bar, hotel, gas_station, museum, park, pharmacy, hospital, zoo) = "cafe" }
  probe chats: sqlite "/data/data/com.tencent.mm/MicroMsg/EnMicroMsg.db" table "rconversation" { peer = "username" unread = "unReadCount" }
  probe short: content "content://x" { name = "n", phone = "p" }
}"""
    assert _fmt(source) == (
        "app wechat {\n"
        "  record Place {\n"
        "    kind: enum(\n"
        "      restaurant,\n"
        "      cafe,\n"
        "      bar,\n"
        "      hotel,\n"
        "      gas_station,\n"
        "      museum,\n"
        "      park,\n"
        "      pharmacy,\n"
        "      hospital,\n"
        "      zoo\n"  # the grammar takes no trailing comma here
        '    ) = "cafe"\n'
        "  }\n"
        '  probe chats: sqlite "/data/data/com.tencent.mm/MicroMsg/EnMicroMsg.db"'
        ' table "rconversation" {\n'
        '    peer = "username",\n'
        '    unread = "unReadCount",\n'
        "  }\n"
        '  probe short: content "content://x" { name = "n", phone = "p" }\n'
        "}\n"
    )


def test_nested_constructs_break_only_where_they_do_not_fit() -> None:
    source = (
        'slot: one of [{ said: "Design review moved, let us meet at 15:30 in room 4B.", at: 15:30 },'
        ' { said: "2pm?", at: 14:00 }, { said: "Running late today, how about 4:45pm at the lobby'
        ' cafe?", at: 16:45, tags: ["late", "cafe", "lobby", "afternoon", "rescheduled", "again"] }]'
    )
    assert _body("params", source) == (
        "    slot: one of [\n"
        '      { said: "Design review moved, let us meet at 15:30 in room 4B.", at: 15:30 },\n'
        '      { said: "2pm?", at: 14:00 },\n'
        "      {\n"
        '        said: "Running late today, how about 4:45pm at the lobby cafe?",\n'
        "        at: 16:45,\n"
        '        tags: ["late", "cafe", "lobby", "afternoon", "rescheduled", "again"],\n'
        "      },\n"
        "    ]\n"
    )


def test_long_calls_and_boolean_chains_break() -> None:
    source = (
        'answer == sum(coffee.orders where status != "cancelled" and placed_at >= 2026-05-11T00:00,'
        " total) within $0.01\n"
        'top == max(maps.places where category == "cafe", rating) and count(maps.places where'
        " rating > 4.5) == 2 or count(maps.places) == 0\n"
    )
    assert _body("expect", source) == (
        "    answer == sum(\n"
        '      coffee.orders where status != "cancelled" and placed_at >= 2026-05-11T00:00,\n'
        "      total\n"  # no trailing comma in a call
        "    ) within $0.01\n"
        '    top == max(maps.places where category == "cafe", rating)\n'
        "        and count(maps.places where rating > 4.5) == 2\n"  # deeper: binds tighter
        "      or count(maps.places) == 0\n"
    )


def test_comment_inside_a_broken_construct_goes_before_it() -> None:
    source = "task t { given {\n  a.b = [\n    1,  # one\n    2,\n  ]  # end\n} }"
    out = _fmt(source)
    assert out == "task t {\n  given {\n    # one\n    a.b = [1, 2]  # end\n  }\n}\n"
    long = source.replace("1,", "1, " + "1000000, " * 11)
    out = _fmt(long)
    assert out.startswith("task t {\n  given {\n    # one\n    a.b = [\n      1,\n")
    assert out.endswith("      2,\n    ]  # end\n  }\n}\n")
    assert _fmt(out) == out


_STRING = re.compile(r'"([^"\\\n]|\\.)*"')
_CHAIN_OP = re.compile(r"\b(and|or|implies)\b")
_CALL_OPEN = re.compile(r"\b(count|sum|min|max|avg|enum)\($")


def _inline_breakable(line: str) -> str | None:
    """A construct the layout could have broken that sits whole on ``line``, if any.

    That is a non-empty list, record, `has`, probe map, `enum(...)`, or `count(...)`
    or aggregate with a `where`, opened and closed on the line, or a boolean
    operator anywhere but at the start of a continuation line.
    """
    code = _STRING.sub('""', _code(line)).strip()
    code = re.sub(r"^(and|or|implies) ", "", code)
    code = code.replace(" or {", " {")  # a screen spot's other forms: no boolean operator
    if match := _CHAIN_OP.search(code):
        return match.group()
    stack: list[tuple[int, bool]] = []  # (where it opened, whether it is breakable)
    for i, ch in enumerate(code):
        if ch in "[{(":
            breakable = ch != "(" or bool(_CALL_OPEN.search(code[: i + 1]))
            stack.append((i, breakable))
        elif ch in "]})" and stack:
            start, breakable = stack.pop()
            inner = code[start + 1 : i].strip()
            if breakable and inner and (ch != ")" or " where " in f" {inner} "):
                return code[start : i + 1]
    return None


def _code(line: str) -> str:
    """``line`` without its comment (comments take no part in the layout)."""
    blanked = _STRING.sub(lambda m: '"' + "x" * (len(m.group()) - 2) + '"', line)
    return line[: blanked.index("#")].rstrip() if "#" in blanked else line


def _check_width(text: str, width: int) -> None:
    """Every line within ``width`` unless nothing on it could have been broken."""
    for line in text.splitlines():
        if len(_code(line)) > width:
            assert _inline_breakable(line) is None, (width, line, text)


def test_breakable_construct_detection() -> None:
    assert _inline_breakable('  goal "a [b] and {c} or d"') is None
    assert _inline_breakable("  x == []  y == {}  (a)") is None
    assert _inline_breakable("    and a == b") is None
    assert _inline_breakable("  count(a.b) == sum(a.b, c)") is None
    assert _inline_breakable("  a == [1]") == "[1]"
    assert _inline_breakable("  a has { b == 1 }") == "{ b == 1 }"
    assert _inline_breakable("  count(a where b) == 1") == "(a where b)"
    assert _inline_breakable("  a or b") == "or"
    assert _inline_breakable('  a == "#"  # [1] or b') is None
    assert _code('  a == "#"  # [1] or b') == '  a == "#"'


LIBRARY = Path(__file__).resolve().parent.parent / "task_library"
LIBRARY_FILES = sorted(p for p in LIBRARY.rglob("*") if p.suffix in (".task", ".app"))


@pytest.mark.skipif(not LIBRARY_FILES, reason="no task library")
@pytest.mark.parametrize("path", LIBRARY_FILES, ids=lambda p: p.name)
def test_library_files_fit_the_width(path: Path) -> None:
    out = _fmt(path.read_text(encoding="utf-8"))
    assert _fmt(out) == out
    assert _parse(out) == _parse(path.read_text(encoding="utf-8"))
    _check_width(out, MAX_WIDTH)
    for line in map(_code, out.splitlines()):
        if len(line) > MAX_WIDTH:  # only a long string may push a line past the width
            longest = max((len(m.group()) for m in _STRING.finditer(line)), default=0)
            assert longest > len(line) / 2, line


# ---------------------------------------------------------------- generated trees
NAMES = st.sampled_from(["a", "b", "x1", "_tmp", "price", "friend", "total_2"])
DOTTED = st.lists(NAMES, min_size=1, max_size=3).map(ast.Dotted)
NUMBERS = st.sampled_from([ast.Lit("int", "5"), ast.Lit("decimal", "0.8")])
LITERALS = st.sampled_from(
    [
        ast.Lit("int", "0"),
        ast.Lit("int", "42"),
        ast.Lit("decimal", "2.5"),
        ast.Lit("string", '"hi"'),
        ast.Lit("string", r'"q\"x\\"'),
        ast.Lit("money", "$12.50"),
        ast.Lit("date", "2026-05-14"),
        ast.Lit("time", "09:30"),
        ast.Lit("datetime", "2026-05-14T09:30"),
        ast.Lit("duration", "1h30m"),
        ast.Lit("bool", "true"),
        ast.Lit("bool", "false"),
        ast.Lit("null", "null"),
    ]
)
LEAVES = st.one_of(
    LITERALS,
    NAMES.map(ast.Name),
    st.builds(ast.Answer),
    st.builds(ast.Now),
    st.builds(ast.Quant, st.sampled_from(["exists", "none", "all"]), DOTTED),
    st.builds(ast.Count, DOTTED),
)
CMP_OPS = st.sampled_from(["==", "!=", "<=", ">=", "<", ">", "~", "in", "contains", "matches"])


def _options(children: st.SearchStrategy[ast.Expr]) -> st.SearchStrategy[list[ast.CmpOption]]:
    option = st.one_of(
        st.builds(ast.CmpOption, st.just("within"), children),
        st.builds(ast.CmpOption, st.just("fuzzy"), NUMBERS),
        st.sampled_from([ast.CmpOption("unordered"), ast.CmpOption("exact")]),
    )
    return st.lists(option, max_size=2)


def _composite(children: st.SearchStrategy[ast.Expr]) -> st.SearchStrategy[ast.Expr]:
    maybe = st.none() | children
    has_item = st.builds(ast.HasItem, NAMES, CMP_OPS, children, _options(children))
    return st.one_of(
        st.builds(ast.BoolOp, st.sampled_from(["and", "or", "implies"]), children, children),
        st.builds(ast.Not, children),
        st.builds(ast.Compare, CMP_OPS, children, children, _options(children)),
        st.builds(ast.BinOp, st.sampled_from(["+", "-", "*", "/"]), children, children),
        st.builds(ast.Neg, children),
        st.builds(ast.Attr, children, NAMES),
        st.builds(ast.Quant, st.sampled_from(["exists", "none", "all"]), DOTTED, maybe),
        st.builds(ast.Count, DOTTED, maybe),
        st.builds(
            ast.Aggregate, st.sampled_from(["sum", "min", "max", "avg"]), DOTTED, maybe, NAMES
        ),
        st.builds(ast.Has, children, st.lists(has_item, min_size=1, max_size=2)),
        st.builds(ast.ListLit, st.lists(children, max_size=3)),
        st.builds(ast.RecordLit, st.lists(st.builds(ast.RecordField, NAMES, children), max_size=2)),
    )


EXPRS = st.recursive(LEAVES, _composite, max_leaves=10)

UI_ELEMENT = ast.UiClause(
    ast.UiPred("element", ast.Selector([ast.UiAttr("id", '"x"')]), [ast.UiState("checked")])
)
OPEN_TRACE = st.builds(
    lambda where: ast.TraceClause(
        ast.TracePred("eventually", ast.ChangeEvent("added", None, where))
    ),
    EXPRS,
)
CLAUSES = st.one_of(
    st.builds(ast.CheckClause, EXPRS, st.none() | NUMBERS.map(ast.Weight)),
    st.just(UI_ELEMENT),
    OPEN_TRACE,
)
GENERATED = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# The library width, and narrow ones that make the layout break nearly everything.
WIDTHS = st.sampled_from([MAX_WIDTH, 40, 24, 8])


def _roundtrip(module: ast.Module, width: int = MAX_WIDTH) -> None:
    text = format_module(module, width=width)
    parsed, diagnostics = parse(SourceFile("gen.task", text))
    assert parsed is not None, (text, diagnostics)
    assert parsed == module, text
    assert format_module(parsed, width=width) == text
    _check_width(text, width)


@GENERATED
@given(st.lists(EXPRS, min_size=1, max_size=4), WIDTHS)
def test_generated_constraints_roundtrip(exprs: list[ast.Expr], width: int) -> None:
    module = ast.Module([ast.TaskDecl(ast.Dotted(["t"]), [ast.ConstraintsBlock(exprs)])])
    _roundtrip(module, width)


@GENERATED
@given(st.lists(CLAUSES, min_size=1, max_size=4), WIDTHS)
def test_generated_expect_clauses_roundtrip(clauses: list[ast.Node], width: int) -> None:
    _roundtrip(ast.Module([ast.TaskDecl(ast.Dotted(["t"]), [ast.ExpectBlock(clauses)])]), width)


def _task_with_slots(e: list[ast.Expr], maybe: list[ast.Expr | None]) -> ast.Module:
    """A task (and an app) that puts generated expressions in every other slot."""
    change = ast.ChangeEvent("added", ast.Dotted(["a", "b"]), maybe[0])
    record = ast.RecordDecl(
        # a field default is a literal or a list literal
        "R",
        [ast.FieldDecl("f", ast.TypeRef(ast.NamedType("int")), False, ast.ListLit([e[0]]))],
    )
    items: list[ast.Node] = [
        ast.ParamsBlock(
            [
                ast.ParamDecl("p", ast.RangeDomain("int", e[1], e[2])),
                ast.ParamDecl("q", ast.RecordDomain(ast.Dotted(["a", "b"]), maybe[1])),
                ast.ParamDecl("r", ast.ChoiceDomain(ast.ListLit([e[3]]))),
            ]
        ),
        ast.GivenBlock(
            [
                ast.GivenClock(e[4]),
                ast.GivenSet(ast.Dotted(["a"]), e[5]),
                ast.GivenAdd(ast.Dotted(["a", "b"]), e[6]),
                ast.GivenNoise(ast.Dotted(["a"]), "3", maybe[2]),
                ast.GivenSet(ast.Dotted(["c"]), e[7]),
            ]
        ),
        ast.ExpectBlock([ast.TraceClause(ast.TracePred("before", change, ast.HoldsEvent(e[8])))]),
        ast.ForbidBlock([change, ast.ChangeEvent("deleted", None, maybe[3]), ast.HoldsEvent(e[9])]),
        ast.DeviceBlock([ast.DeviceItem("x", e[10]), ast.DeviceItem("y", e[11])]),
    ]
    return ast.Module([ast.AppDecl("app1", [record]), ast.TaskDecl(ast.Dotted(["t"]), items)])


@GENERATED
@given(
    st.lists(EXPRS, min_size=12, max_size=12),
    st.lists(st.none() | EXPRS, min_size=4, max_size=4),
    WIDTHS,
)
def test_generated_expressions_in_every_slot_roundtrip(
    exprs: list[ast.Expr], maybe: list[ast.Expr | None], width: int
) -> None:
    _roundtrip(_task_with_slots(exprs, maybe), width)


def test_deep_but_parseable_expression_is_formatted() -> None:
    source = SourceFile("deep.task", "task t { constraints { " + " + ".join(["a"] * 450) + " } }")
    if parse(source)[0] is None:
        pytest.skip("the parser no longer accepts this depth")
    text, diagnostics = format_source(source)
    assert diagnostics == []
    assert text is not None and text.count("+") == 449


def _with_comments(text: str, positions: list[int]) -> str:
    """``text`` with a comment (and a line break) put in place of some whitespace."""
    out, last = [], 0
    for n, pos in enumerate(sorted(set(positions))):
        out += [text[last:pos], f" # c{n}\n"]
        last = pos + 1
    return "".join(out) + text[last:]


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_comments_anywhere_are_kept_in_order(data: st.DataObject) -> None:
    text = SAMPLES[data.draw(st.sampled_from(["app", "task", "exprs", "long"]))]
    spaces = [i for i, ch in enumerate(text) if ch in " \n"]
    positions = data.draw(st.lists(st.sampled_from(spaces), min_size=1, max_size=8))
    commented = _with_comments(text, positions)
    module, _ = parse(SourceFile("c.task", commented))
    assume(module is not None and module == _parse(text))  # not inside a string
    out = _fmt(commented)
    assert _comments(out) == _comments(commented)
    assert _fmt(out) == out


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_comments_anywhere_survive_narrow_layouts(data: st.DataObject) -> None:
    text = SAMPLES[data.draw(st.sampled_from(sorted(SAMPLES)))]
    spaces = [i for i, ch in enumerate(text) if ch in " \n"]
    positions = data.draw(st.lists(st.sampled_from(spaces), max_size=6))
    commented = _with_comments(text, positions)
    module, comments, _ = parse_with_comments(SourceFile("c.task", commented))
    assume(module is not None and module == _parse(text))  # not inside a string
    assert module is not None
    width = data.draw(WIDTHS)
    out = format_module(module, comments, width)
    again, again_comments, _ = parse_with_comments(SourceFile("c.task", out))
    assert again is not None and again == module, out
    assert [c.text for c in again_comments] == [c.text for c in comments]
    assert format_module(again, again_comments, width) == out  # comments stay put
    _check_width(out, width)


def test_long_prefs_probe_breaks_before_its_key() -> None:
    path = "/data/data/com.example.long.package.name/shared_prefs/com.example.long_preferences.xml"
    src = (
        'app p {\n  package "com.example.long.package.name"\n  settings { on: bool = false }\n'
        f'  probe on: prefs "{path}" key "a_fairly_long_key_name" bits {{ true = "4", false = "0" }}\n}}\n'
    )
    out = _fmt(src)
    assert f'  probe on: prefs "{path}"\n    key "a_fairly_long_key_name" bits {{' in out
    assert _fmt(out) == out and _parse(out) == _parse(src)
