"""The documentation is tested: every `tasklang` example in docs/language.md states its result.

An example is a fenced block whose info string is ``tasklang compiles``,
``tasklang error CODE...`` or ``tasklang warning CODE...``; each is compiled against the bundled
app models and must give that result. docs/diagnostics.md must be the generated registry.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from tasklang.compiler import Compiler, CompileResult
from tasklang.diagnostics import REGISTRY, Severity, registry_markdown, render_text

DOCS = Path(__file__).resolve().parent.parent / "docs"
LANGUAGE = DOCS / "language.md"
DIAGNOSTICS = DOCS / "diagnostics.md"

MIN_EXAMPLES = 60
_FENCE = re.compile(r"^```(.*)$")
_INFO = re.compile(r"^tasklang(?:\s+(compiles|error|warning)((?:\s+TL\d{4})*))?\s*$")

# Every construct of the language appears in at least one example that compiles.
REQUIRED_CONSTRUCTS = [
    "record", "collection", "settings", "probe", "content", "setting", "sqlite", "files", "ui",
    "host", "enum(", "list of", "key", "?", "kind", "apps", " in ", "goal", "{{", "tags",
    "difficulty", "revision", "params", "one of [", "one of ", "..", "constraints", "given",
    "now ", "tz", "foreground", "+=", "noise", "expect", "exists", "none", "all", "count(",
    "sum(", "min(", "max(", "avg(", "has {", "answer", "unordered", "within", "fuzzy", "exact",
    "contains", "matches", "~", "implies", "not", "unchanged", "only", "changed", "trace",
    "eventually", "never", "before", "then", "at most", "times", "action", "shown", "added",
    "updated", "deleted", "holds", "ui element", "ui no element", "ui foreground", "xpath",
    "checked", "subgoal", "weight", "forbid", "outcome infeasible", "require status",
    "verify_only", "budget", "steps", "device", "$", "money", "duration", "datetime", "date",
    "time", "phone", "email", "file", "number", "bool", "int", "text",
]  # fmt: skip


@dataclass(frozen=True)
class Example:
    """One checked example: where it starts, what it expects, and its text."""

    line: int  # line of the opening fence in docs/language.md
    info: str
    expect: str  # compiles | error | warning | "" (malformed info string)
    codes: tuple[str, ...]
    text: str
    index: int


def extract_examples(markdown: str) -> list[Example]:
    """The fenced blocks of ``markdown`` whose info string starts with `tasklang`."""
    examples: list[Example] = []
    lines = markdown.splitlines()
    i = 0
    while i < len(lines):
        opening = _FENCE.match(lines[i])
        if not opening:
            i += 1
            continue
        info = opening.group(1).strip()
        start = i
        i += 1
        body: list[str] = []
        while i < len(lines) and lines[i].rstrip() != "```":
            body.append(lines[i])
            i += 1
        i += 1  # the closing fence
        if info.split()[:1] != ["tasklang"]:
            continue
        found = _INFO.match(info)
        expect = (found.group(1) or "") if found else ""
        codes = tuple(found.group(2).split()) if found and found.group(2) else ()
        examples.append(
            Example(start + 1, info, expect, codes, "\n".join(body) + "\n", len(examples) + 1)
        )
    return examples


EXAMPLES = extract_examples(LANGUAGE.read_text("utf-8"))


def compile_example(example: Example) -> CompileResult:
    return Compiler().compile_text(example.text, path=f"docs/language.md#example-{example.index}")


def describe(example: Example, result: CompileResult) -> str:
    shown = render_text(result.diagnostics, result.sources) or "(no diagnostics)"
    return f"docs/language.md:{example.line}: ```{example.info}```\n{shown}"


def test_there_are_enough_examples() -> None:
    assert len(EXAMPLES) >= MIN_EXAMPLES, f"only {len(EXAMPLES)} checked examples"


@pytest.mark.parametrize("example", EXAMPLES, ids=[str(e.line) for e in EXAMPLES])
def test_example(example: Example) -> None:
    assert example.expect, (
        f"docs/language.md:{example.line}: info string `{example.info}` must be "
        "`tasklang compiles`, `tasklang error CODE...` or `tasklang warning CODE...`"
    )
    assert example.expect == "compiles" or example.codes, (
        f"docs/language.md:{example.line}: `{example.info}` lists no code"
    )
    unknown = [c for c in example.codes if c not in REGISTRY]
    assert not unknown, f"docs/language.md:{example.line}: unregistered codes {unknown}"
    result = compile_example(example)
    found = {d.code for d in result.diagnostics}
    if example.expect == "compiles":
        assert result.ok, describe(example, result)
    elif example.expect == "error":
        assert not result.ok, describe(example, result)
        missing = [c for c in example.codes if c not in found]
        assert not missing, f"missing {missing}\n" + describe(example, result)
    else:
        assert result.ok, describe(example, result)
        warned = {d.code for d in result.diagnostics if d.severity is Severity.WARNING}
        missing = [c for c in example.codes if c not in warned]
        assert not missing, f"missing warnings {missing}\n" + describe(example, result)


def _mentions(keyword: str, text: str) -> bool:
    """Whether ``text`` holds ``keyword``: as whole words when it is words, else verbatim."""
    if re.fullmatch(r"\w+( \w+)*", keyword):
        return re.search(rf"(?<!\w){re.escape(keyword)}(?!\w)", text) is not None
    return keyword in text


def test_every_construct_has_a_compiling_example() -> None:
    compiling = [e.text for e in EXAMPLES if e.expect in ("compiles", "warning")]
    missing = [k for k in REQUIRED_CONSTRUCTS if not any(_mentions(k, t) for t in compiling)]
    assert not missing, f"no compiling example in docs/language.md uses {missing}"


def test_error_examples_cover_the_common_mistakes() -> None:
    codes = {c for e in EXAMPLES if e.expect == "error" for c in e.codes}
    common = {"TL1003", "TL1004", "TL1006", "TL1013", "TL1014", "TL1017", "TL1022", "TL0002"}
    assert common <= codes, f"no error example for {sorted(common - codes)}"


def test_diagnostics_md_is_generated_from_the_registry() -> None:
    assert DIAGNOSTICS.read_text("utf-8") == registry_markdown(), (
        "docs/diagnostics.md is stale: run `python -m tasklang.diagnostics > docs/diagnostics.md`"
    )


def test_every_code_is_documented() -> None:
    text = LANGUAGE.read_text("utf-8") + DIAGNOSTICS.read_text("utf-8")
    missing = [code for code in REGISTRY if code not in text]
    assert not missing, f"codes documented nowhere: {missing}"


def test_extract_examples_reads_info_strings() -> None:
    doc = "\n".join(
        [
            "```tasklang compiles",
            "task a.b {}",
            "```",
            "```",
            "plain",
            "```",
            "```tasklang error TL1004 TL2001",
            "x",
            "```",
            "```tasklang oops",
            "```",
        ]
    )
    got = [(e.line, e.expect, e.codes, e.text) for e in extract_examples(doc)]
    assert got == [
        (1, "compiles", (), "task a.b {}\n"),
        (7, "error", ("TL1004", "TL2001"), "x\n"),
        (10, "", (), "\n"),
    ]
