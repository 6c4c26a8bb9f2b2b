"""Golden cases: `tests/golden/<case>/input.task` and the compiler's expected output.

A case whose compilation reports any diagnostic (error or warning) is compared with
``expected.diagnostics.txt``, the text rendering of its diagnostics; a case that compiles
cleanly is compared with ``expected.ir.json``, the IR of its task (a list when the file
declares several), spans stripped. ``pytest --update-golden`` rewrites the expected files;
review the diff before keeping it.

Case names state what they are for: ``ir_*`` cases must compile without diagnostics, and
``tlNNNN_*`` cases must report code TLNNNN. A few inputs are generated instead of checked in
(``GENERATED``), such as the oversized file for TL0008.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from tasklang import ir
from tasklang.compiler import Compiler, CompileResult, library_root
from tasklang.diagnostics import render_text
from tasklang.parser import MAX_SOURCE_BYTES

GOLDEN = Path(__file__).resolve().parent / "golden"
INPUT = "input.task"
EXPECTED_IR = "expected.ir.json"
EXPECTED_DIAGNOSTICS = "expected.diagnostics.txt"
CASE_NAME = re.compile(r"^(ir|tl\d{4})_[a-z0-9_]+$")


def _oversized() -> bytes:
    """A well-formed task padded with a comment to just over the size limit."""
    task = (
        b'task big.file {\n  kind app\n  apps clock\n  goal "Hi"\n'
        b"  expect { count(clock.alarms) == 0 }\n  budget 3 steps\n}\n"
    )
    padding = b"#" + b"x" * (MAX_SOURCE_BYTES - len(task)) + b"\n"
    return task + padding


# Inputs built by the test, not checked in (too large, or bytes an editor would mangle).
GENERATED: dict[str, Callable[[], bytes]] = {
    "tl0008_file_too_large": _oversized,
}


def case_dirs() -> list[Path]:
    return sorted(p for p in GOLDEN.iterdir() if p.is_dir())


def compile_case(case: Path, workdir: Path, monkeypatch: pytest.MonkeyPatch) -> CompileResult:
    """Compile the case's input as ``input.task`` (a relative path, so output is portable)."""
    if case.name in GENERATED:
        (workdir / INPUT).write_bytes(GENERATED[case.name]())
    else:
        workdir = case
    monkeypatch.chdir(workdir)
    return Compiler().compile_paths([Path(INPUT)])


def render_diagnostics(result: CompileResult) -> str:
    text = render_text(result.diagnostics, result.sources, color=False)
    return text.replace(str(library_root()), "<library>") + "\n"


def render_ir(result: CompileResult) -> str:
    tasks = [
        ir.strip_spans(c.task.model_dump(mode="json", exclude_none=True)) for c in result.tasks
    ]
    data = tasks[0] if len(tasks) == 1 else tasks
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


@pytest.mark.parametrize("case", case_dirs(), ids=lambda p: p.name)
def test_golden(
    case: Path, update_golden: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = compile_case(case, tmp_path, monkeypatch)
    if result.diagnostics:
        actual, name, stale = render_diagnostics(result), EXPECTED_DIAGNOSTICS, EXPECTED_IR
    else:
        assert result.tasks, "a clean compilation must produce tasks"
        actual, name, stale = render_ir(result), EXPECTED_IR, EXPECTED_DIAGNOSTICS
    expected, other = case / name, case / stale
    if update_golden:
        expected.write_text(actual, encoding="utf-8")
        other.unlink(missing_ok=True)
    assert not other.exists(), f"`{other.name}` is stale: the case now yields `{name}`"
    assert expected.exists(), f"`{expected}` is missing; run `pytest --update-golden`"
    assert actual == expected.read_text(encoding="utf-8")


@pytest.mark.parametrize("case", case_dirs(), ids=lambda p: p.name)
def test_case_name_states_the_outcome(
    case: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`ir_*` cases compile cleanly; `tlNNNN_*` cases report their code."""
    match = CASE_NAME.match(case.name)
    assert match, f"case `{case.name}` should be named ir_* or tlNNNN_*"
    result = compile_case(case, tmp_path, monkeypatch)
    codes = {d.code for d in result.diagnostics}
    if match.group(1) == "ir":
        assert not codes and result.tasks
    else:
        assert match.group(1).upper() in codes, sorted(codes)


def test_case_folders_are_complete() -> None:
    cases = case_dirs()
    for case in cases:
        files = {p.name for p in case.iterdir()}
        has_input = INPUT in files or case.name in GENERATED
        assert has_input, f"{case.name}: no {INPUT}"
        assert len(files & {EXPECTED_IR, EXPECTED_DIAGNOSTICS}) == 1, f"{case.name}: {files}"
        assert files <= {INPUT, EXPECTED_IR, EXPECTED_DIAGNOSTICS}, f"{case.name}: {files}"
    assert set(GENERATED) <= {c.name for c in cases}
    ir_cases = [c for c in cases if (c / EXPECTED_IR).exists()]
    assert len(ir_cases) >= 12


def test_oversized_input_is_over_the_limit() -> None:
    data = _oversized()
    assert MAX_SOURCE_BYTES < len(data) < MAX_SOURCE_BYTES + 100
    assert data.decode("utf-8").startswith("task big.file {")
