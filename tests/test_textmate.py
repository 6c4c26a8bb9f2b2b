"""The VS Code extension in editors/vscode: its manifest and its TextMate grammar.

The grammar's regexes are written in the common subset of Oniguruma (what VS Code runs) and
Python's `re`, so this file can check them without node: it compiles every one, runs a small
TextMate matcher of its own over sample lines, and checks that every keyword of
`grammar/tasklang.lark` gets a keyword scope. Where `npm install` has been run in editors/vscode,
the real engine (vscode-textmate + vscode-oniguruma) tokenizes the whole bundled library too, and
must agree with the small matcher character by character.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXT = ROOT / "editors" / "vscode"
GRAMMAR_PATH = EXT / "syntaxes" / "tasklang.tmLanguage.json"
LARK = ROOT / "grammar" / "tasklang.lark"
LIBRARY = ROOT / "task_library"

ROOT_SCOPE = "source.tasklang"
# Scopes that count as "this word is highlighted as a keyword".
KEYWORD_PREFIXES = (
    "keyword.",
    "constant.language.",
    "variable.language.",
    "support.function.",
    "storage.",
)

Scopes = tuple[str, ...]


def load_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


GRAMMAR: dict[str, Any] = load_json(GRAMMAR_PATH)
MANIFEST: dict[str, Any] = load_json(EXT / "package.json")
LANG_CONFIG: dict[str, Any] = load_json(EXT / "language-configuration.json")


# ---------------------------------------------------------------- a small TextMate matcher


@dataclass
class Rule:
    """One grammar rule with its regexes compiled; includes are resolved lazily."""

    raw: dict[str, Any]
    grammar: Grammar
    match: re.Pattern[str] | None = None
    begin: re.Pattern[str] | None = None
    end: re.Pattern[str] | None = None
    _patterns: list[Rule] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        for key in ("match", "begin", "end"):
            if key in self.raw:
                setattr(self, key, re.compile(self.raw[key]))

    @property
    def name(self) -> str | None:
        return self.raw.get("name")

    @property
    def content_name(self) -> str | None:
        return self.raw.get("contentName")

    @property
    def patterns(self) -> list[Rule]:
        if self._patterns is None:
            self._patterns = self.grammar.flatten(self.raw.get("patterns", []))
        return self._patterns


class Grammar:
    """Resolves includes and tokenizes lines the way vscode-textmate does, for this grammar.

    At each position the rule whose regex matches earliest wins; on a tie, the enclosing rule's
    `end` first, then the patterns in order. `match` rules scope their match (and `captures`),
    `begin`/`end` rules push and pop a frame. Enough for single-line constructs; no
    `while`, back-references in `end`, or injections (the grammar uses none).
    """

    def __init__(self, raw: dict[str, Any]) -> None:
        self.raw = raw
        self._rules: dict[int, Rule] = {}
        self.top = Rule({"patterns": raw["patterns"]}, self)

    def rule(self, raw: dict[str, Any]) -> Rule:
        key = id(raw)
        if key not in self._rules:
            self._rules[key] = Rule(raw, self)
        return self._rules[key]

    def flatten(
        self, patterns: list[dict[str, Any]], seen: frozenset[str] = frozenset()
    ) -> list[Rule]:
        out: list[Rule] = []
        for p in patterns:
            if "include" in p:
                ref = p["include"]
                if ref in ("$self", "$base"):
                    out.extend(
                        self.flatten(self.raw["patterns"], seen | {ref}) if ref not in seen else []
                    )
                    continue
                assert ref.startswith("#"), f"unsupported include {ref}"
                name = ref[1:]
                if name in seen:
                    continue
                out.extend(self.flatten([self.raw["repository"][name]], seen | {name}))
            elif "match" in p or "begin" in p:
                out.append(self.rule(p))
            else:  # a repository entry that only groups patterns
                out.extend(self.flatten(p.get("patterns", []), seen))
        return out

    def tokenize(self, text: str) -> list[list[Scopes]]:
        """The scopes of every character of every line."""
        stack: list[_Frame] = [_Frame(self.top, None, (ROOT_SCOPE,))]
        return [self._line(line, stack) for line in text.split("\n")]

    def _line(self, line: str, stack: list[_Frame]) -> list[Scopes]:
        scopes: list[Scopes] = [()] * len(line)
        pos = 0
        while True:
            frame = stack[-1]
            best: tuple[int, int, str, Rule | None, re.Match[str]] | None = None
            if frame.end is not None:
                m = frame.end.search(line, pos)
                if m:
                    best = (m.start(), 0, "end", None, m)
            for i, rule in enumerate(frame.rule.patterns, start=1):
                regex = rule.match or rule.begin
                assert regex is not None
                m = regex.search(line, pos)
                if m and (best is None or (m.start(), i) < best[:2]):
                    best = (m.start(), i, "match" if rule.match else "begin", rule, m)
            if best is None:
                break
            start, _, kind, rule, m = best
            for i in range(pos, start):
                scopes[i] = frame.content
            if kind == "end":
                _paint(scopes, m, frame.outer, frame.rule.raw.get("endCaptures"))
                stack.pop()
            elif kind == "match":
                assert rule is not None
                base = frame.content + _split(rule.name)
                _paint(scopes, m, base, rule.raw.get("captures"))
            else:
                assert rule is not None
                outer = frame.content + _split(rule.name)
                captures = rule.raw.get("beginCaptures", rule.raw.get("captures"))
                _paint(scopes, m, outer, captures)
                end = re.compile(rule.raw["end"])
                stack.append(_Frame(rule, end, outer + _split(rule.content_name), outer))
            # Only an `end` may be empty (`$`): it pops a frame, so the loop always progresses.
            assert m.end() > m.start() or kind == "end", f"empty match of {m.re.pattern}"
            pos = m.end()
        for i in range(pos, len(line)):
            scopes[i] = stack[-1].content
        return scopes


@dataclass
class _Frame:
    rule: Rule
    end: re.Pattern[str] | None
    content: Scopes
    outer: Scopes = ()


def _split(name: str | None) -> Scopes:
    return tuple(name.split()) if name else ()


def _paint(
    scopes: list[Scopes], m: re.Match[str], base: Scopes, captures: dict[str, Any] | None
) -> None:
    for i in range(m.start(), m.end()):
        scopes[i] = base
    for group, spec in sorted((captures or {}).items(), key=lambda kv: int(kv[0])):
        g = int(group)
        if g > (m.re.groups or 0) or m.start(g) < 0:
            continue
        for i in range(m.start(g), m.end(g)):
            scopes[i] = scopes[i] + _split(spec.get("name"))


ENGINE = Grammar(GRAMMAR)


def scopes_of(line: str, needle: str, occurrence: int = 0) -> set[str]:
    """The scopes shared by every character of the `occurrence`-th `needle` in `line`."""
    start = -1
    for _ in range(occurrence + 1):
        start = line.index(needle, start + 1)
    chars = ENGINE.tokenize(line)[0][start : start + len(needle)]
    common = set(chars[0])
    for c in chars[1:]:
        common &= set(c)
    return common


# ---------------------------------------------------------------- structure


def all_rules(node: Any) -> Iterator[dict[str, Any]]:
    if isinstance(node, dict):
        if any(k in node for k in ("match", "begin", "include", "patterns")):
            yield node
        for value in node.values():
            yield from all_rules(value)
    elif isinstance(node, list):
        for item in node:
            yield from all_rules(item)


def test_grammar_header() -> None:
    assert GRAMMAR["scopeName"] == ROOT_SCOPE
    assert GRAMMAR["name"] == "tasklang"
    assert GRAMMAR["fileTypes"] == ["task", "app"]
    assert GRAMMAR["patterns"], "the grammar has top-level patterns"


def test_includes_resolve_and_every_repository_entry_is_used() -> None:
    repository = GRAMMAR["repository"]
    used: set[str] = set()
    for rule in all_rules(GRAMMAR):
        ref = rule.get("include")
        if ref is None:
            continue
        assert ref in ("$self", "$base") or ref.startswith("#"), ref
        if ref.startswith("#"):
            assert ref[1:] in repository, f"include {ref} names no repository entry"
            used.add(ref[1:])
    assert used == set(repository), f"unused repository entries: {set(repository) - used}"


def test_every_regex_compiles_with_python_re() -> None:
    count = 0
    for rule in all_rules(GRAMMAR):
        for key in ("match", "begin", "end"):
            if key in rule:
                re.compile(rule[key])
                count += 1
    assert count > 40


def test_scope_names_are_tasklang_scopes() -> None:
    names: list[str] = []
    for rule in all_rules([GRAMMAR["patterns"], GRAMMAR["repository"]]):
        names += [rule[k] for k in ("name", "contentName") if k in rule]
        for key in ("captures", "beginCaptures", "endCaptures"):
            names += [c["name"] for c in rule.get(key, {}).values()]
    assert names
    for name in names:
        for scope in name.split():
            assert re.fullmatch(r"[a-z]+(?:[.-][a-z0-9]+)*\.tasklang", scope), scope


def test_manifest() -> None:
    assert MANIFEST["engines"]["vscode"].startswith("^1.")
    assert "onLanguage:tasklang" in MANIFEST["activationEvents"]
    assert (EXT / MANIFEST["main"]).is_file()
    [language] = MANIFEST["contributes"]["languages"]
    assert language["id"] == "tasklang"
    assert language["extensions"] == [".task", ".app"]
    assert (EXT / language["configuration"]).is_file()
    [grammar] = MANIFEST["contributes"]["grammars"]
    assert grammar["language"] == "tasklang"
    assert grammar["scopeName"] == GRAMMAR["scopeName"]
    assert (EXT / grammar["path"]).resolve() == GRAMMAR_PATH.resolve()
    props = MANIFEST["contributes"]["configuration"]["properties"]
    assert props["tasklang.serverPath"]["default"] == "tasklang"
    assert props["tasklang.serverPath"]["type"] == "string"
    assert "vscode-languageclient" in MANIFEST["dependencies"]
    assert not (EXT / "node_modules").exists() or (EXT / ".gitignore").read_text().count(
        "node_modules"
    )


def test_extension_launches_the_server_over_stdio() -> None:
    source = (EXT / "extension.js").read_text(encoding="utf-8")
    assert "require('vscode-languageclient/node')" in source
    assert "getConfiguration(SECTION)" in source and "'serverPath'" in source
    assert "args: ['lsp'" in source
    # TransportKind.stdio would make the client append `--stdio` to the command line.
    assert "transport:" not in source
    assert "activate" in source and "deactivate" in source


def test_language_configuration() -> None:
    assert LANG_CONFIG["comments"]["lineComment"] == "#"
    assert [tuple(p) for p in LANG_CONFIG["brackets"]] == [("{", "}"), ("[", "]"), ("(", ")")]
    closing = {p["open"]: p["close"] for p in LANG_CONFIG["autoClosingPairs"]}
    assert closing == {"{": "}", "[": "]", "(": ")", '"': '"'}
    rules = LANG_CONFIG["indentationRules"]
    increase = re.compile(rules["increaseIndentPattern"])
    decrease = re.compile(rules["decreaseIndentPattern"])
    for line in ("task a.b {", "  expect {  # checks", "    x: [", '  goal "a" given {'):
        assert increase.search(line), line
    for line in ('  goal "Use {x} here"', '  goal "a {"', "  }", "  # a {", "x {}"):
        assert not increase.search(line), line
    for line in ("}", "  }", "    ]", " )"):
        assert decrease.search(line), line
    assert not decrease.search("  expect {")
    re.compile(LANG_CONFIG["wordPattern"])


# ---------------------------------------------------------------- tokenizing samples

SAMPLES: list[tuple[str, str, str]] = [
    # (line, text in it, expected scope)
    ("task contacts.star_friend {", "task", "keyword.declaration.task.tasklang"),
    ("task contacts.star_friend {", "contacts.star_friend", "entity.name.function.task.tasklang"),
    ("app notes_demo {", "app", "keyword.declaration.app.tasklang"),
    ("app notes_demo {", "notes_demo", "entity.name.type.app.tasklang"),
    ("  record Note { title: text key }", "record", "keyword.declaration.record.tasklang"),
    ("  record Note { title: text key }", "Note", "entity.name.type.record.tasklang"),
    ("  record Note { title: text key }", "text", "support.type.tasklang"),
    ("  record Note { title: text key }", "key", "keyword.other.model.tasklang"),
    ("  collection notes: Note", "notes", "entity.name.variable.collection.tasklang"),
    ("  collection notes: Note", "Note", "entity.name.type.record.tasklang"),
    ("  host wechat", "wechat", "entity.name.type.app.tasklang"),
    ("  tags: list of text = []", "text", "support.type.tasklang"),
    ("  owner: phone?", "phone", "support.type.tasklang"),
    ("  owner: phone?", "?", "keyword.operator.optional.tasklang"),
    ("  settings {", "settings", "keyword.declaration.tasklang"),
    ('  kind: enum(noun, none, record) = "noun"', "enum", "keyword.other.model.tasklang"),
    ('  kind: enum(noun, none, record) = "noun"', "none", "variable.other.enummember.tasklang"),
    ('  kind: enum(noun, none, record) = "noun"', "record", "variable.other.enummember.tasklang"),
    ('  kind: enum(noun, none, record) = "noun"', ")", "punctuation.section.parens.end.tasklang"),
    ("  kind mini_app", "kind", "keyword.other.task.tasklang"),
    ("  kind mini_app", "mini_app", "constant.language.kind.tasklang"),
    ("  difficulty hard", "hard", "constant.language.difficulty.tasklang"),
    ("  outcome infeasible", "infeasible", "constant.language.outcome.tasklang"),
    ("  apps coffee in wechat", "apps", "keyword.other.task.tasklang"),
    ("  apps coffee in wechat", "in", "keyword.operator.word.tasklang"),
    ("  budget 12 steps 3m", "budget", "keyword.other.task.tasklang"),
    ("  budget 12 steps 3m", "steps", "keyword.other.task.tasklang"),
    ("  budget 12 steps 3m", "12", "constant.numeric.integer.tasklang"),
    ("  budget 12 steps 3m", "3m", "constant.numeric.duration.tasklang"),
    ("  require status", "status", "keyword.other.task.tasklang"),
    ('  goal "Add {friend.name} now"', "goal", "keyword.other.task.tasklang"),
    ('  goal "Add {friend.name} now"', "Add ", "string.quoted.double.goal.tasklang"),
    ('  goal "Add {friend.name} now"', "friend.name", "variable.other.placeholder.tasklang"),
    ('  goal "Add {friend.name} now"', "{", "punctuation.section.interpolation.begin.tasklang"),
    ('  goal "Add { who } now"', "who", "variable.other.placeholder.tasklang"),
    ('  goal "Add {{x}} now"', "{{", "constant.character.escape.brace.tasklang"),
    ('  goal "Add {{{tag}}} now"', "tag", "variable.other.placeholder.tasklang"),
    ('  goal "Add {1} now"', "{1}", "invalid.illegal.placeholder.tasklang"),
    ('  goal "Add \\"x\\" now"', '\\"', "constant.character.escape.tasklang"),
    ('  goal "Add"', '"', "punctuation.definition.string.begin.tasklang"),
    ('  goal "Add"', '"', "string.quoted.double.goal.tasklang"),
    ('  x == "a {b} c"', "{b}", "string.quoted.double.tasklang"),
    ('  x == "a\\nb\\tc\\\\d"', "\\n", "constant.character.escape.tasklang"),
    ('  x == "a\\nb\\tc\\\\d"', "\\t", "constant.character.escape.tasklang"),
    ('  x == "a\\nb\\tc\\\\d"', "\\\\", "constant.character.escape.tasklang"),
    ('  x == "smile \\u{1F600}"', "\\u{1F600}", "constant.character.escape.unicode.tasklang"),
    ('  x == "C:\\Users"', "\\U", "invalid.illegal.escape.tasklang"),
    ('  x == "a" # "b"', '# "b"', "comment.line.number-sign.tasklang"),
    ('  x == "a # b"', "# b", "string.quoted.double.tasklang"),
    ("# TODO: fill in", "TODO", "keyword.other.todo.tasklang"),
    ("  wechat.wallet_balance == $187.50", "$187.50", "constant.numeric.money.tasklang"),
    ("  amount == $12", "$12", "constant.numeric.money.tasklang"),
    ("  now 2026-05-14T09:30 tz", "2026-05-14T09:30", "constant.numeric.datetime.tasklang"),
    ("  now 2026-05-14T09:30 tz", "now", "variable.language.tasklang"),
    ("  now 2026-05-14T09:30 tz", "tz", "keyword.control.clause.tasklang"),
    ("  x > 07:29:59 and d == 2026-06-01", "07:29:59", "constant.numeric.time.tasklang"),
    ("  x > 07:29:59 and d == 2026-06-01", "2026-06-01", "constant.numeric.date.tasklang"),
    ("  x > 07:29:59 and d == 2026-06-01", "and", "keyword.operator.word.tasklang"),
    ("  x > 07:29:59 and d == 2026-06-01", "==", "keyword.operator.comparison.tasklang"),
    ("  { at: 06:30, why: 1d2h3m4s }", "06:30", "constant.numeric.time.tasklang"),
    ("  { at: 06:30, why: 1d2h3m4s }", "1d2h3m4s", "constant.numeric.duration.tasklang"),
    ("  ratio: number in 0.5 .. 2.5", "0.5", "constant.numeric.decimal.tasklang"),
    ("  ratio: number in 0.5 .. 2.5", "..", "keyword.operator.range.tasklang"),
    ("  n: int in 1 .. 5", "int", "support.type.tasklang"),
    ("  who: person_name", "person_name", "support.function.generator.tasklang"),
    ("  starred == true and email == null", "true", "constant.language.boolean.tasklang"),
    ("  starred == true and email == null", "null", "constant.language.null.tasklang"),
    ("  answer ~ \"x\"", "answer", "variable.language.tasklang"),
    ("  count(contacts.people where starred) == 1", "count", "support.function.aggregate.tasklang"),
    ("  count(contacts.people where starred) == 1", "where", "keyword.control.clause.tasklang"),
    ("  exists clock.alarms where time > 07:00", "exists", "keyword.operator.quantifier.tasklang"),
    ("  trace eventually updated contacts.people", "trace", "keyword.control.clause.tasklang"),
    ("  trace eventually updated contacts.people", "eventually", "keyword.control.trace.tasklang"),
    ("  trace eventually updated contacts.people", "updated", "keyword.other.event.tasklang"),
    ("  trace at most 2 times action click", "most", "keyword.control.trace.tasklang"),
    ('  action click on text "Call"', "action", "keyword.other.event.tasklang"),
    ('  action click on text "Call"', "text", "keyword.other.ui.attribute.tasklang"),
    ('  ui element desc "Pause" clickable not selected', "element", "keyword.other.ui.tasklang"),
    ('  ui element desc "Pause" clickable not selected', "selected", "keyword.other.ui.tasklang"),
    ('  ui element desc "Pause" clickable not selected', "not", "keyword.operator.word.tasklang"),
    ("  deleted any", "any", "keyword.other.event.tasklang"),
    ("  contacts.people += noise 8 where group != \"friends\"", "+=", "keyword.operator.assignment.compound.tasklang"),
    ("  contacts.people += noise 8 where group != \"friends\"", "noise", "keyword.control.clause.tasklang"),
    ("  probe font_scale: setting system \"font_scale\"", "system", "constant.language.namespace.tasklang"),
    ('  probe notes: content "content://x" { id = "_id" }', "content", "keyword.other.model.tasklang"),
    ('  probe notes: content "content://x" { id = "_id" }', "=", "keyword.operator.assignment.tasklang"),
    ('    tap text "No, not now" if shown,', "if", "keyword.other.model.tasklang"),
    ('    tap text "No, not now" if shown,', "shown", "keyword.other.event.tasklang"),
    ('  ) each id "list" { name = id "title" } rows id "place" {', "each", "keyword.other.model.tasklang"),
]  # fmt: skip


@pytest.mark.parametrize(("line", "text", "scope"), SAMPLES)
def test_sample_scopes(line: str, text: str, scope: str) -> None:
    assert scope in scopes_of(line, text), ENGINE.tokenize(line)[0][line.index(text)]


# Words that are names here, not keywords: fields, apps named like keywords, field access.
NOT_KEYWORDS: list[tuple[str, str]] = [
    ('  coffee.orders has { status == "placed" }', "status"),
    ("  exists messages.sent where status in [\"failed\"]", "status"),
    ("  settings.wifi == true", "settings"),
    ("  apps settings", "settings"),
    ("  foreground files", "files"),
    ("  x == p.count", "count"),
    ('  { kind: "document" }', "kind"),
    ("  contacts.people has { tags contains tag }", "tags"),
    ("  in: bool", "in"),
    ("  exists words_demo.entries where text == \"apple\"", "text"),
    ("  where id == 7", "id"),
    ("  label: text", "label"),
    ("  x.selected == true", "selected"),
]  # fmt: skip


@pytest.mark.parametrize(("line", "text"), NOT_KEYWORDS)
def test_names_that_look_like_keywords(line: str, text: str) -> None:
    scopes = scopes_of(line, text)
    assert not any(s.startswith(KEYWORD_PREFIXES) for s in scopes), scopes


def test_a_string_ends_at_the_end_of_its_line() -> None:
    lines = ENGINE.tokenize('goal "unterminated\n  budget 5 steps')
    assert "keyword.other.task.tasklang" in lines[1][2]


BROKEN_ENUM = '  size: enum(\n    small,  # cups\n    large\n  ) = "small"'


def test_a_broken_enum_spans_lines() -> None:
    lines = ENGINE.tokenize(BROKEN_ENUM)
    assert "variable.other.enummember.tasklang" in lines[1][4]
    assert "comment.line.number-sign.tasklang" in lines[1][-1]
    assert "variable.other.enummember.tasklang" in lines[2][4]
    assert "string.quoted.double.tasklang" in lines[3][-1]


def grammar_keywords() -> set[str]:
    text = LARK.read_text(encoding="utf-8")
    return set(re.findall(r'"([A-Za-z_]+)"', text))


# Where a word is a keyword only in a context, the context it is tried in.
KEYWORD_CONTEXTS = ["{w}", "{w} x", '{w} "s"', "{w}(x)", "{w} {{", "require {w}", "x: {w}",
                    "{w} shown", '{w} id "x"']  # fmt: skip


def test_every_grammar_keyword_is_highlighted() -> None:
    keywords = grammar_keywords()
    assert {"task", "app", "expect", "verify_only", "xpath", "any", "unordered"} <= keywords
    missing = []
    for word in sorted(keywords):
        for context in KEYWORD_CONTEXTS:
            line = context.format(w=word)
            scopes = scopes_of(line, word, line.count(word) - 1 if context.startswith("x") else 0)
            if any(s.startswith(KEYWORD_PREFIXES) for s in scopes):
                break
        else:
            missing.append(word)
    assert not missing, f"keywords without a keyword pattern: {missing}"


def test_keywords_in_the_language_reference_are_grammar_keywords() -> None:
    # docs/language.md lists the keywords; the grammar test above covers the .lark ones.
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    section = text.split("The keywords of the language are", 1)[1].split(". The values", 1)[0]
    listed = set(re.findall(r"`([a-z_]+)`", section))
    assert listed == grammar_keywords()


def library_files() -> list[Path]:
    return sorted(p for p in LIBRARY.rglob("*") if p.suffix in (".task", ".app"))


def test_library_tokenizes_without_invalid_scopes() -> None:
    files = library_files()
    assert files
    for path in files:
        for number, line in enumerate(ENGINE.tokenize(path.read_text(encoding="utf-8")), 1):
            bad = {s for char in line for s in char if s.startswith("invalid.")}
            assert not bad, f"{path.name}:{number}: {bad}"


# ---------------------------------------------------------------- the real engine (optional)


def node_tokenizer() -> list[str]:
    node = shutil.which("node")
    modules = EXT / "node_modules"
    if node is None:
        pytest.skip("node is not installed")
    if not ((modules / "vscode-textmate").is_dir() and (modules / "vscode-oniguruma").is_dir()):
        pytest.skip("run `npm install` in editors/vscode to compare with vscode-textmate")
    return [node, str(EXT / "test" / "tokenize.js")]


def node_scopes(command: list[str], text: str) -> list[list[Scopes]]:
    proc = subprocess.run(
        command, input=text, capture_output=True, text=True, timeout=120, check=False
    )
    assert proc.returncode == 0, proc.stderr
    lines: list[list[Scopes]] = []
    for line, tokens in zip(text.split("\n"), json.loads(proc.stdout), strict=True):
        # vscode-textmate counts UTF-16 code units; the samples are ASCII where it matters.
        chars: list[Scopes] = [()] * len(line)
        for token in tokens:
            for i in range(token["start"], min(token["end"], len(line))):
                chars[i] = tuple(token["scopes"])
        lines.append(chars)
    return lines


def test_matches_vscode_textmate() -> None:
    command = node_tokenizer()
    corpus = [p.read_text(encoding="utf-8") for p in library_files()]
    corpus.append("\n".join(line for line, _, _ in SAMPLES))
    corpus.append("\n".join(line for line, _ in NOT_KEYWORDS))
    corpus.append(BROKEN_ENUM)
    corpus.append('goal "unterminated {x\n  x == "also \\')
    corpus.append(
        "\n".join(
            context.format(w=w) for w in sorted(grammar_keywords()) for context in KEYWORD_CONTEXTS
        )
    )
    text = "\n".join(c for c in corpus if c.isascii())
    ours = ENGINE.tokenize(text)
    theirs = node_scopes(command, text)
    for number, (mine, real, line) in enumerate(
        zip(ours, theirs, text.split("\n"), strict=True), 1
    ):
        for col, (a, b) in enumerate(zip(mine, real, strict=True)):
            assert a == b, f"line {number} col {col} of {line!r}: ours {a}, vscode-textmate {b}"


# ---------------------------------------------------------------- the extension's client


def activate(settings: dict[str, Any]) -> dict[str, Any]:
    """What extension.js starts, run against stand-ins for the VS Code API (node only)."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    proc = subprocess.run(
        [node, str(EXT / "test" / "activate.js"), json.dumps(settings)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    result: dict[str, Any] = json.loads(proc.stdout)
    return result


@pytest.mark.parametrize(
    ("settings", "command", "args"),
    [
        ({}, "tasklang", ["lsp"]),
        ({"serverPath": "/opt/tl/bin/tasklang"}, "/opt/tl/bin/tasklang", ["lsp"]),
        ({"serverPath": ".venv/bin/tasklang", "workspace": "/w"}, "/w/.venv/bin/tasklang", ["lsp"]),
        ({"serverPath": "${workspaceFolder}/e/tasklang", "workspace": "/w"}, "/w/e/tasklang", ["lsp"]),
        ({"serverPath": "tasklang", "serverArgs": ["--x"], "workspace": "/w"}, "tasklang", ["lsp", "--x"]),
    ],
)  # fmt: skip
def test_extension_starts_server_path_lsp(
    settings: dict[str, Any], command: str, args: list[str]
) -> None:
    started = activate(settings)
    assert started["clients"] == 1 and started["id"] == "tasklang"
    assert started["run"]["command"] == command and started["run"]["args"] == args
    assert started["debug"] == started["run"]
    assert "transport" not in started["run"]  # plain stdio, no `--stdio` argument added
    assert {"scheme": "file", "language": "tasklang"} in started["documentSelector"]
    assert started["watch"] == "**/*.{task,app}"
    assert started["commands"] == ["tasklang.restartServer"]


def lsp_frame(message: dict[str, Any]) -> bytes:
    body = json.dumps(message).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


def lsp_messages(data: bytes) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    while data:
        head, _, rest = data.partition(b"\r\n\r\n")
        found = re.search(rb"Content-Length: *(\d+)", head, re.I)
        assert found, head
        length = int(found.group(1))
        out.append(json.loads(rest[:length]))
        data = rest[length:]
    return out


def test_the_command_the_extension_starts_speaks_lsp(tmp_path: Path) -> None:
    """With `tasklang.serverPath` set to this environment's `tasklang`, an LSP handshake works."""
    exe = Path(sys.executable).with_name("tasklang")
    if not exe.is_file():
        pytest.skip("no `tasklang` executable next to the Python interpreter")
    probe = subprocess.run(
        [str(exe), "lsp", "--help"], capture_output=True, text=True, timeout=60, check=False
    )
    if probe.returncode != 0:
        pytest.skip("`tasklang lsp` is not available in this build")
    started = activate({"serverPath": str(exe), "workspace": str(tmp_path)})
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"processId": None, "rootUri": None, "capabilities": {}}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": None},
        {"jsonrpc": "2.0", "method": "exit", "params": None},
    ]  # fmt: skip
    proc = subprocess.run(
        [started["run"]["command"], *started["run"]["args"]],
        input=b"".join(lsp_frame(m) for m in messages),
        capture_output=True,
        timeout=120,
        cwd=tmp_path,
        check=False,
    )
    replies = {m.get("id"): m for m in lsp_messages(proc.stdout) if "id" in m}
    assert "capabilities" in replies[1]["result"], replies
    assert replies[2].get("result") is None and "error" not in replies[2]
