"""The command line: exit codes, artifacts, JSON output, and no tracebacks."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from typer.testing import CliRunner

from tasklang.artifact import checked_in_schema, load_artifact
from tasklang.cli import app
from tasklang.compiler import library_root

runner = CliRunner()
LIBRARY = library_root()
GOOD = """\
task settings.dark {
  kind app
  apps settings
  goal "Turn on the dark theme."
  expect { settings.dark_theme == true }
  budget 6 steps
}
"""
BAD = """\
task settings.dark {
  kind app
  apps settings
  goal "Turn on the dark theme."
  expect { settings.dark_them == true }
  budget 6 steps
}
"""


def invoke(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def library_task_count() -> int:
    return sum(1 for _ in LIBRARY.rglob("*.task"))


def test_compile_library_writes_one_valid_artifact_per_task(tmp_path: Path) -> None:
    code, out, _ = invoke("compile", str(LIBRARY), "-o", str(tmp_path), "--format", "json")
    assert code == 0
    doc = json.loads(out)
    assert doc["ok"] is True and doc["failed"] == []
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == len(doc["tasks"]) == library_task_count() >= 10
    for f in files:
        assert load_artifact(f.read_text()).task.id == f.stem
    # every library artifact is checked against the schema in test_ir_roundtrip; here one
    # file of each kind of task, as the command wrote it
    validator = jsonschema.Draft202012Validator(json.loads(checked_in_schema("compiled-task")))
    kinds: dict[str, Path] = {}
    for f in files:
        kinds.setdefault(f.stem.split(".")[0], f)
    assert len(kinds) >= 4
    for f in kinds.values():
        validator.validate(json.loads(f.read_text()))


def test_compile_error_exits_1_and_writes_nothing(tmp_path: Path) -> None:
    src = tmp_path / "bad.task"
    src.write_text(BAD)
    out_dir = tmp_path / "out"
    code, _, err = invoke("compile", str(src), "-o", str(out_dir))
    assert code == 1
    assert "error[TL1002]" in err and "did you mean `dark_theme`?" in err
    assert f"{src}:5:12" in err
    assert not list(out_dir.glob("*.json"))


def test_only_failing_tasks_are_skipped(tmp_path: Path) -> None:
    (tmp_path / "good.task").write_text(GOOD)
    (tmp_path / "bad.task").write_text(BAD.replace("settings.dark ", "settings.dark2 "))
    out_dir = tmp_path / "out"
    code, out, _ = invoke("compile", str(tmp_path), "-o", str(out_dir), "--format", "json")
    assert code == 1
    doc = json.loads(out)
    assert [t["id"] for t in doc["tasks"]] == ["settings.dark"]
    assert doc["failed"] == ["settings.dark2"]
    assert sorted(p.name for p in out_dir.iterdir()) == ["settings.dark.json"]


def test_json_diagnostics_carry_code_and_position(tmp_path: Path) -> None:
    src = tmp_path / "bad.task"
    src.write_text(BAD)
    code, out, _ = invoke("compile", str(src), "--format", "json")
    assert code == 1
    [diag] = json.loads(out)["diagnostics"]
    assert diag["code"] == "TL1002"
    assert (diag["line"], diag["column"]) == (5, 12)
    assert diag["severity"] == "error" and diag["help"] == "did you mean `dark_theme`?"


def test_missing_path_is_usage_error() -> None:
    code, _, err = invoke("compile", "/nonexistent/x.task")
    assert code == 2 and "does not exist" in err


def test_out_is_a_file_is_usage_error(tmp_path: Path) -> None:
    (tmp_path / "good.task").write_text(GOOD)
    blocker = tmp_path / "out"
    blocker.write_text("keep me")
    code, _, _ = invoke("compile", str(tmp_path / "good.task"), "-o", str(blocker))
    assert code == 2 and blocker.read_text() == "keep me"


def test_strict_turns_warnings_into_failure(tmp_path: Path) -> None:
    src = tmp_path / "warn.task"
    src.write_text(GOOD.replace("  budget 6 steps\n", ""))
    assert invoke("compile", str(src))[0] == 0
    code, _, err = invoke("compile", str(src), "--strict")
    assert code == 1 and "warning[TL2003]" in err


def test_dump_after_prints_ir_of_that_pass(tmp_path: Path) -> None:
    src = tmp_path / "t.task"
    src.write_text(GOOD)
    code, out, _ = invoke("compile", str(src), "--dump-after", "resolve")
    assert code == 0
    task = json.loads(out)
    expr = task["clauses"][0]["body"]["expr"]
    assert expr["left"] == {"node": "setting", "app": "settings", "name": "dark_theme"}
    assert invoke("compile", str(src), "--dump-after", "nope")[0] == 2


def test_list_text_and_json() -> None:
    code, out, _ = invoke("list", str(LIBRARY), "--format", "json")
    assert code == 0
    rows = json.loads(out)["tasks"]
    assert {r["kind"] for r in rows} == {"app", "mini_app", "cross_app"}
    assert all(set(r) >= {"id", "kind", "apps", "tags", "difficulty"} for r in rows)
    code, out, _ = invoke("list", str(LIBRARY))
    assert code == 0
    assert out.splitlines()[0].split() == ["id", "kind", "apps", "difficulty", "tags"]
    assert f"{len(rows)} task(s)" in out


@pytest.mark.parametrize("name", ["compiled-task", "trajectory", "verdict"])
def test_schema_matches_checked_in_file(name: str) -> None:
    code, out, _ = invoke("schema", name)
    assert code == 0
    assert out == checked_in_schema(name)
    assert json.loads(out)["$schema"].endswith("2020-12/schema")


def test_schema_default_and_unknown() -> None:
    assert invoke("schema")[1] == checked_in_schema("compiled-task")
    assert invoke("schema", "nonsense")[0] == 2


def test_bench_compile_reports_throughput() -> None:
    code, out, _ = invoke("bench", "compile", "--tasks", "20", "--repeat", "1", "--format", "json")
    assert code == 0
    figures = json.loads(out)
    assert figures["tasks"] >= 20 and figures["compiled_ok"] == figures["tasks"]
    assert figures["compile_tasks_per_second"] > 0 and figures["parse_tasks_per_second"] > 0


def run_console(*args: str, stdin_env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, **(stdin_env or {})}
    return subprocess.run(
        [sys.executable, "-m", "tasklang.cli", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


@pytest.mark.parametrize("content", [b"", b"\xff\xfe\x00garbage", b"task {{{{", b"\x00\x01"])
def test_console_never_shows_a_traceback(tmp_path: Path, content: bytes) -> None:
    src = tmp_path / "x.task"
    src.write_bytes(content)
    proc = run_console("compile", str(src))
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr + proc.stdout
    assert "error[TL0" in proc.stderr


def test_no_color_when_not_a_terminal(tmp_path: Path) -> None:
    src = tmp_path / "bad.task"
    src.write_text(BAD)
    proc = run_console("compile", str(src))
    assert "\x1b[" not in proc.stderr


def test_version() -> None:
    code, out, _ = invoke("--version")
    assert code == 0 and out.startswith("tasklang ")


def test_a_library_task_id_compiles_from_its_own_file_as_from_the_library() -> None:
    from tasklang.checkcmd import CheckUsageError, find_tasks
    from tasklang.compiler import Compiler

    ids = ["settings.enable_dark_theme", "cross.share_place_address", "mini.coffee_order_status"]
    whole = {c.task.id: c for c in Compiler().compile_paths([LIBRARY]).tasks}
    for task_id in ids:
        assert find_tasks(task_id)[task_id].model_dump() == whole[task_id].model_dump()
    with pytest.raises(
        CheckUsageError, match=re.escape("did you mean `settings.enable_dark_theme`")
    ):
        find_tasks("settings.enable_dark_them")
