"""Robustness: the compiler turns any input into diagnostics, never into a traceback.

Every library file is mutated byte by byte (seeded, so a failure is reproducible) and each
mutant is compiled from disk with ``Compiler().compile_paths``, so the whole reading path,
invalid UTF-8 included, is exercised. Hypothesis then feeds arbitrary text, bytes and token
soup, and a list of nasty inputs checks specific outcomes.

``TASKLANG_MUTANTS`` sets the number of mutants (default 2000) and ``TASKLANG_MUTANT_SEED``
the seed. The unchanged library app files are parsed once per module (see
``cached_library_parses``); each mutant is always parsed afresh.
"""

from __future__ import annotations

import math
import os
import random
import re
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path

import lark
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tasklang import compiler as compiler_module
from tasklang import parser as parser_module
from tasklang.compiler import Compiler, CompileResult, library_root
from tasklang.diagnostics import MAX_DIAGNOSTICS, REGISTRY, render_json, render_text
from tasklang.parser import MAX_NESTING, MAX_SOURCE_BYTES
from tasklang.source import SourceFile

LIBRARY = library_root()
LIBRARY_FILES = sorted(p for p in LIBRARY.rglob("*") if p.suffix in (".task", ".app"))
APP_FILES = sorted((LIBRARY / "apps").glob("*.app"))
APP_LINES = {str(p): p.read_bytes().count(b"\n") + 1 for p in APP_FILES}
CORPUS = {p: p.read_bytes() for p in LIBRARY_FILES}
WORDS = sorted(
    {w for data in CORPUS.values() for w in re.findall(rb"[A-Za-z_]+|[^\sA-Za-z_]", data)}
)

MUTANTS = int(os.environ.get("TASKLANG_MUTANTS", "2000"))
SEED = os.environ.get("TASKLANG_MUTANT_SEED", "tasklang-mutants-1")
PER_FILE = math.ceil(MUTANTS / len(LIBRARY_FILES))


@pytest.fixture(scope="module", autouse=True)
def cached_library_parses() -> Iterator[None]:
    """Parse each unchanged library app file once; any other source is parsed every time."""
    original = getattr(compiler_module, "parse", None)
    if original is None:  # the driver no longer calls `parse` by that name: no cache
        yield
        return
    app_paths = set(APP_LINES)
    cache: dict[tuple[str, str], tuple[object, list[object]]] = {}

    def parse(source):  # type: ignore[no-untyped-def]
        if source.path not in app_paths:
            return original(source)
        key = (source.path, source.text)
        if key not in cache:
            cache[key] = original(source)
        module, problems = cache[key]
        if problems:  # never share diagnostics: finalize() may add notes to them
            del cache[key]
        return module, list(problems)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(compiler_module, "parse", parse)
        yield


# ---------------------------------------------------------------- invariants
def violations(result: CompileResult, file: str, data: bytes) -> list[str]:
    """What is wrong with the result of compiling ``data`` (saved as ``file``)."""
    out: list[str] = []
    lines = {**APP_LINES, file: data.count(b"\n") + 1}
    library_apps = {p.stem for p in APP_FILES}
    if not (result.tasks or result.diagnostics or set(result.apps) - library_apps):
        out.append("no task, no diagnostic and no new app")
    for d in result.diagnostics:
        where = f"{d.code} {d.message!r} at {d.span.file}:{d.span.line}:{d.span.column}"
        if d.code not in REGISTRY:
            out.append(f"unregistered code: {where}")
        if d.span.line < 1 or d.span.column < 1 or d.span.end_line < d.span.line:
            out.append(f"bad position: {where} (end {d.span.end_line}:{d.span.end_column})")
        if d.span.file not in lines:
            out.append(f"diagnostic in a file that was not compiled: {where}")
        elif d.span.line > lines[d.span.file] + 1:
            out.append(f"position past the end of the file ({lines[d.span.file]} lines): {where}")
        message = d.message
        if not message or message[0].isupper() or message.endswith("."):
            out.append(f"message style: {where}")
    render_text(result.diagnostics, result.sources)
    render_json(result.diagnostics)
    return out


def compile_file(path: Path, data: bytes) -> tuple[CompileResult | None, list[str]]:
    """Write ``data`` to ``path``, compile it, and list every violation (tracebacks too)."""
    path.write_bytes(data)
    try:
        result = Compiler().compile_paths([path])
    except Exception:
        return None, [traceback.format_exc(limit=-6)]
    try:
        return result, violations(result, str(path), data)
    except Exception:
        return result, ["rendering failed:\n" + traceback.format_exc(limit=-6)]


# ---------------------------------------------------------------- mutations
Mutation = Callable[[bytearray, random.Random], None]
NASTY_CHARS = (
    [chr(c) for c in range(32)]
    + ["\x7f", "\x85", "\u00a0", "\u200b", "\u2028", "\u202e", "\ufeff", "\ufffd", "\uffff"]
    + ["é", "ß", "中", "😀", "\u0301", "Ａ", "\U0010ffff"]
)
INVALID_UTF8 = [b"\xff", b"\xfe", b"\xc3", b"\x80", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf0\x9f\x98"]


def _pos(data: bytearray, rng: random.Random) -> int:
    return rng.randint(0, len(data))


def flip_bit(data: bytearray, rng: random.Random) -> None:
    if data:
        data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)


def insert_byte(data: bytearray, rng: random.Random) -> None:
    at = _pos(data, rng)
    data[at:at] = bytes([rng.randrange(256)])


def delete_bytes(data: bytearray, rng: random.Random) -> None:
    start = _pos(data, rng)
    del data[start : start + rng.randint(1, 16)]


def duplicate_bytes(data: bytearray, rng: random.Random) -> None:
    start = _pos(data, rng)
    chunk = data[start : start + rng.randint(1, 64)]
    at = _pos(data, rng)
    data[at:at] = chunk


def splice_other_file(data: bytearray, rng: random.Random) -> None:
    other = rng.choice(list(CORPUS.values()))
    start = rng.randrange(len(other))
    chunk = other[start : start + rng.randint(1, 400)]
    at = _pos(data, rng)
    data[at : at + rng.choice([0, len(chunk)])] = chunk


def insert_unicode(data: bytearray, rng: random.Random) -> None:
    if rng.random() < 0.4:
        raw = rng.choice(INVALID_UTF8)
    else:
        raw = rng.choice(NASTY_CHARS).encode("utf-8", "surrogatepass")
    at = _pos(data, rng)
    data[at:at] = raw


def truncate(data: bytearray, rng: random.Random) -> None:
    del data[_pos(data, rng) :]


def delete_brace(data: bytearray, rng: random.Random) -> None:
    braces = [i for i, b in enumerate(data) if b in b"{}()[]"]
    if braces:
        del data[rng.choice(braces)]


def duplicate_line(data: bytearray, rng: random.Random) -> None:
    lines = data.split(b"\n")
    i = rng.randrange(len(lines))
    lines.insert(rng.randrange(len(lines) + 1), lines[i])
    data[:] = b"\n".join(lines)


def delete_line(data: bytearray, rng: random.Random) -> None:
    lines = data.split(b"\n")
    del lines[rng.randrange(len(lines))]
    data[:] = b"\n".join(lines)


def replace_word(data: bytearray, rng: random.Random) -> None:
    """Swap one word or symbol for another from the library: mostly still parses."""
    spans = [m.span() for m in re.finditer(rb"[A-Za-z_]+|[^\sA-Za-z_]", data)]
    if spans:
        start, end = rng.choice(spans)
        data[start:end] = rng.choice(WORDS)


MUTATIONS: list[Mutation] = [
    flip_bit, insert_byte, delete_bytes, duplicate_bytes, splice_other_file, insert_unicode,
    truncate, delete_brace, duplicate_line, delete_line, replace_word, replace_word,
]  # fmt: skip


def mutants(original: bytes, rng: random.Random, count: int) -> Iterator[tuple[bytes, list[str]]]:
    for _ in range(count):
        data = bytearray(original)
        ops = [rng.choice(MUTATIONS) for _ in range(rng.choice([1, 1, 1, 2, 3]))]
        for op in ops:
            op(data, rng)
        yield bytes(data), [op.__name__ for op in ops]


def test_mutations_change_the_input() -> None:
    rng = random.Random(SEED)
    original = CORPUS[LIBRARY_FILES[0]]
    changed = [data != original for data, _ in mutants(original, rng, 200)]
    assert sum(changed) > 180
    assert {op.__name__ for op in MUTATIONS} == {
        "flip_bit", "insert_byte", "delete_bytes", "duplicate_bytes", "splice_other_file",
        "insert_unicode", "truncate", "delete_brace", "duplicate_line", "delete_line",
        "replace_word",
    }  # fmt: skip


def test_library_is_mutated_in_full() -> None:
    assert len(LIBRARY_FILES) >= 20 and len(APP_FILES) >= 8
    assert PER_FILE * len(LIBRARY_FILES) >= MUTANTS


def test_parse_cache_is_transparent() -> None:
    """The cached parses give the same result as parsing everything afresh (the mini-app and
    cross-app tasks, which use most of the library's app models)."""
    folders = [LIBRARY / "mini_app", LIBRARY / "cross_app"]
    cached = [Compiler().compile_paths(folders) for _ in range(2)]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(
            compiler_module,
            "parse_cached",
            lambda path, text: parser_module.parse(SourceFile(path, text)),
        )
        fresh = Compiler().compile_paths(folders)
    assert fresh.tasks
    for result in cached:
        assert [c.task for c in result.tasks] == [c.task for c in fresh.tasks]
        assert [c.apps for c in result.tasks] == [c.apps for c in fresh.tasks]
        assert [d.to_json() for d in result.diagnostics] == [d.to_json() for d in fresh.diagnostics]


@pytest.mark.parametrize("original", LIBRARY_FILES, ids=lambda p: str(p.relative_to(LIBRARY)))
def test_mutants_of_library_file(original: Path, tmp_path: Path) -> None:
    rng = random.Random(f"{SEED}:{original.relative_to(LIBRARY)}")
    target = tmp_path / original.name
    failures: list[str] = []
    outcomes = {"tasks": 0, "errors": 0}
    for index, (data, ops) in enumerate(mutants(CORPUS[original], rng, PER_FILE)):
        result, problems = compile_file(target, data)
        if problems:
            keep = tmp_path / f"failing-{index}{original.suffix}"
            keep.write_bytes(data)
            failures.append(
                f"mutant {index} ({', '.join(ops)}), saved as {keep}:\n" + "\n".join(problems)
            )
        elif result is not None:
            outcomes["tasks" if result.tasks else "errors"] += 1
    assert not failures, f"{len(failures)} of {PER_FILE} mutants failed:\n" + "\n".join(
        failures[:5]
    )
    assert outcomes["errors"] > 0


# ---------------------------------------------------------------- hypothesis
VOCAB = [
    "task", "app", "kind", "apps", "goal", "params", "given", "expect", "forbid", "budget",
    "steps", "constraints", "device", "tags", "outcome", "subgoal", "weight", "trace",
    "eventually", "never", "before", "then", "at", "most", "times", "action", "on", "shown",
    "foreground", "added", "updated", "deleted", "changed", "any", "holds", "ui", "element",
    "no", "unchanged", "only", "exists", "none", "all", "count", "sum", "min", "max", "avg",
    "where", "has", "and", "or", "not", "implies", "in", "one", "of", "now", "tz", "noise",
    "answer", "within", "fuzzy", "unordered", "exact", "record", "collection", "settings",
    "probe", "content", "enum", "list", "key", "clock", "alarms", "time", "label", "settings",
    "wifi", "contacts", "people", "name", "coffee", "wechat", "x", "{", "}", "(", ")", "[", "]",
    ",", ".", ":", "=", "+=", "==", "!=", "<", ">=", "~", "+", "-", "*", "/", "..", "?",
    "1", "0", "2.5", "$3.50", "2026-05-14", "07:30", "2026-05-14T09:00", "1h30m", "true",
    "null", '"text"', '"{x}"', '"\\u{D800}"', '"\\q"', '"open', "#c\n", "\n", "\x00", "\ufeff",
]  # fmt: skip
HEADER = 'task soup.case {\n  kind app\n  apps clock\n  goal "Hi"\n  budget 3 steps\n'
soup = st.lists(st.sampled_from(VOCAB), max_size=120).map(" ".join)
HYPOTHESIS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_text(text: str) -> None:
    try:
        result = Compiler().compile_text(text, path="input.task")
    except Exception:
        pytest.fail(f"compiling {text!r} raised:\n{traceback.format_exc()}")
    data = text.encode("utf-8", "surrogatepass")
    assert not violations(result, "input.task", data), text


@HYPOTHESIS
@given(st.text(max_size=3000))
def test_arbitrary_text(text: str) -> None:
    check_text(text)


@HYPOTHESIS
@given(
    st.one_of(
        soup,
        soup.map(lambda s: HEADER + s + "\n}"),
        soup.map(lambda s: HEADER + "expect { " + s + " }\n}"),
    )
)
def test_token_soup(text: str) -> None:
    check_text(text)


SURROGATES = st.integers(0xD800, 0xDFFF).map(chr)


@HYPOTHESIS
@given(
    st.text(st.one_of(st.characters(), SURROGATES), max_size=3000).filter(lambda t: "#" not in t)
)
def test_text_with_lone_surrogates(text: str) -> None:
    """`compile_text` takes any `str`; outside comments a surrogate is a TL0011."""
    check_text(text)


def test_lone_surrogate_in_a_comment() -> None:
    text = "# \ud800\n" + GOOD
    result = Compiler().compile_text(text, path="input.task")
    assert not violations(result, "input.task", text.encode("utf-8", "surrogatepass"))


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("bytes") / "input.task"


@HYPOTHESIS
@given(data=st.binary(max_size=3000))
def test_arbitrary_bytes(data: bytes, scratch: Path) -> None:
    _, problems = compile_file(scratch, data)
    assert not problems, f"{data!r}:\n" + "\n".join(problems)


# ---------------------------------------------------------------- nasty inputs
def task(expect: str, goal: str = "Hi") -> str:
    return (
        f'task nasty.case {{\n  kind app\n  apps clock\n  goal "{goal}"\n'
        f"  expect {{ {expect} }}\n  budget 3 steps\n}}\n"
    )


GOOD = task("count(clock.alarms) == 1")
NASTY: dict[str, tuple[bytes, set[str] | None]] = {
    # name: (file bytes, the codes expected, or None for "compiles without diagnostics")
    "empty": (b"", {"TL0006"}),
    "only_comments": (b"# one\n# two\n\n   # three", {"TL0006"}),
    "only_whitespace": (b" \n\t\r\n  ", {"TL0006"}),
    "ten_megabytes": (b"# " + b"x" * (10 * 1024 * 1024), {"TL0008"}),
    "just_over_the_limit": (b"#" * (MAX_SOURCE_BYTES + 1), {"TL0008"}),
    "nested_parens": (task("(" * 100_000 + "true" + ")" * 100_000).encode(), {"TL0007"}),
    "nested_brackets": (b"[" * 100_000, {"TL0007"}),
    "nesting_at_the_limit": (
        task("(" * (MAX_NESTING - 2) + "true" + ")" * (MAX_NESTING - 2)).encode(),
        None,
    ),
    "long_and_chain": (task(" and ".join(["true"] * 50_000)).encode(), {"TL0007"}),
    "long_name_chain": (task(" and ".join(["a"] * 50_000)).encode(), {"TL0007"}),
    "unterminated_string_at_eof": (b'task nasty.case {\n  goal "never closed', {"TL0004"}),
    "nul_bytes": (GOOD.replace("kind", "ki\x00nd").encode(), {"TL0011"}),
    "only_nul": (b"\x00" * 64, {"TL0011"}),
    "bom": (b"\xef\xbb\xbf" + GOOD.encode(), None),
    "double_bom": (b"\xef\xbb\xbf\xef\xbb\xbf" + GOOD.encode(), {"TL0001"}),
    "utf16": (GOOD.encode("utf-16"), {"TL0005"}),
    "latin1": (task("true", goal="Café").encode("latin-1"), {"TL0005"}),
    "crlf": (GOOD.replace("\n", "\r\n").encode(), None),
    "cr_only": (GOOD.replace("\n", "\r").encode(), None),
    "lone_surrogate_escape": (task('answer == "\\u{D800}"').encode(), {"TL0010"}),
    "escape_past_unicode": (task('answer == "\\u{110000}"').encode(), {"TL0010"}),
    "encoded_surrogate": (GOOD.encode() + b"# \xed\xa0\x80\n", {"TL0005"}),
    "long_identifier": (task("a" * 100_000 + " == 1").encode(), {"TL1004"}),
    "long_task_id": (GOOD.replace("nasty.case", "x" * 100_000).encode(), None),
    "long_string": (task("answer == " + '"' + "s" * 500_000 + '"').encode(), None),
    "many_errors": (task(" ".join(["nope == 1"] * 500)).encode(), {"TL1004"}),
    "unicode_name": (GOOD.replace("nasty.case", "café.x").encode(), {"TL0001"}),
    "line_separator_in_string": (task("true", goal="a\u2028b\u0085c").encode(), None),
}


@pytest.mark.parametrize("name", sorted(NASTY))
def test_nasty_input(name: str, tmp_path: Path) -> None:
    data, expected = NASTY[name]
    result, problems = compile_file(tmp_path / "nasty.task", data)
    assert not problems, "\n".join(problems)
    assert result is not None
    codes = {d.code for d in result.diagnostics}
    if expected is None:
        assert not codes and len(result.tasks) == 1, codes
    else:
        assert expected <= codes, codes


def test_ten_megabytes_fail_before_parsing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def parse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a file over the size limit reached the parser")

    monkeypatch.setattr(lark.Lark, "parse", parse)
    result, problems = compile_file(tmp_path / "big.task", NASTY["ten_megabytes"][0])
    assert not problems, "\n".join(problems)
    assert result is not None and [d.code for d in result.diagnostics] == ["TL0008"]


def test_diagnostics_are_capped(tmp_path: Path) -> None:
    result, _ = compile_file(tmp_path / "many.task", NASTY["many_errors"][0])
    assert result is not None and len(result.diagnostics) == MAX_DIAGNOSTICS
    assert result.diagnostics[-1].notes[-1].endswith("more diagnostics not shown")


@pytest.mark.parametrize("variant", ["bom", "crlf", "cr_only"])
def test_encoding_variants_compile_like_the_plain_file(variant: str, tmp_path: Path) -> None:
    plain, _ = compile_file(tmp_path / "plain.task", GOOD.encode())
    other, _ = compile_file(tmp_path / "other.task", NASTY[variant][0])
    assert plain is not None and other is not None
    assert [c.task for c in plain.tasks] == [c.task for c in other.tasks]


def test_crlf_positions_match_lf(tmp_path: Path) -> None:
    text = task("count(clock.alarmz) == 1")
    lf, _ = compile_file(tmp_path / "lf.task", text.encode())
    crlf, _ = compile_file(tmp_path / "crlf.task", text.replace("\n", "\r\n").encode())
    assert lf is not None and crlf is not None
    where = [[(d.code, d.span.line, d.span.column) for d in r.diagnostics] for r in (lf, crlf)]
    assert where[0] == where[1] == [("TL1002", 5, 18)]
