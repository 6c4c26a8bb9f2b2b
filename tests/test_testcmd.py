"""`tasklang test`: a library is proven task by task (lint, references on sampled instances,
doing nothing), summed up per kind, and its catalogue written as Markdown."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from typer.testing import CliRunner

from tasklang.cli import app
from tasklang.compiler import Compiler, library_root

runner = CliRunner()
LIB = library_root()


def copy(tmp: Path, *task_files: str) -> Path:
    folder = tmp / "lib"
    folder.mkdir(exist_ok=True)
    for rel in task_files:
        shutil.copy(LIB / rel, folder / Path(rel).name)
    return folder


def test_a_sound_library_passes_with_a_table_per_kind(tmp_path: Path) -> None:
    folder = copy(
        tmp_path, "app/settings.ensure_wifi_on.task", "cross_app/cross.alarm_from_message.task"
    )
    result = runner.invoke(app, ["test", str(folder), "--seeds", "3", "--format", "json"])
    assert result.exit_code == 0, result.stdout
    doc = json.loads(result.stdout)
    assert doc["ok"] and doc["seeds"] == 3 and doc["androidworld_families"] == 0
    kinds = {k["kind"]: k for k in doc["kinds"]}
    assert kinds["app"]["tasks"] == 1 and kinds["cross_app"]["tasks"] == 1
    for k in kinds.values():
        assert k["instances"] == k["reference passes"] == k["do-nothing failures"] == 3
        assert k["lint findings"] == 0 and k["failed tasks"] == 0
    tasks = {t["task"]: t for t in doc["tasks"]}
    assert tasks["settings.ensure_wifi_on"]["mean_reference_steps"] > 1
    assert tasks["cross.alarm_from_message"]["distinct_goals"] >= 2
    for t in tasks.values():
        assert t["diverse"] == (not t["parameterized"] or t["distinct_goals"] * 2 > 3)
    assert sum(k["diverse goals"] for k in kinds.values()) == sum(
        t["diverse"] for t in tasks.values()
    )
    text = runner.invoke(app, ["test", str(folder), "--seeds", "1"])
    assert (
        text.exit_code == 0 and "all passed" in text.stdout and "do-nothing failures" in text.stdout
    )


VACUOUS = """
task settings.wifi_already_on {
  kind app
  apps settings
  goal "Make sure Wi-Fi is on."
  given { settings.wifi = true }
  expect { settings.wifi == true }
  budget 5 steps
}
"""
UNPROVEN = """
task settings.wifi_on_somehow {
  kind app
  apps settings
  goal "Turn on Wi-Fi."
  params { net: one of ["HomeNet", "Office"] }
  given { settings.wifi = false }
  expect { settings.wifi == true }
  budget 5 steps
}
"""


def test_failures_are_named_and_exit_one(tmp_path: Path) -> None:
    folder = copy(tmp_path, "app/settings.ensure_wifi_on.task")
    (folder / "settings.wifi_already_on.task").write_text(VACUOUS)  # its goal already holds
    (folder / "settings.wifi_on_somehow.task").write_text(
        UNPROVEN
    )  # unused parameter, no reference
    result = runner.invoke(app, ["test", str(folder), "--seeds", "2"])
    assert result.exit_code == 1
    lines = [line for line in result.stdout.splitlines() if line.startswith("FAIL ")]
    assert "FAIL settings.wifi_already_on: does not compile" in lines
    assert "FAIL settings.wifi_on_somehow: 2 lint finding(s)" in lines  # TL2001, TL2004
    assert "FAIL settings.wifi_on_somehow: no reference solution" in lines
    assert not any("ensure_wifi_on" in line for line in lines)
    assert "2 failed" in result.stdout


def test_bad_usage(tmp_path: Path) -> None:
    assert runner.invoke(app, ["test", str(tmp_path / "nowhere")]).exit_code == 2
    assert runner.invoke(app, ["test", "--seeds", "0"]).exit_code == 2
    empty = tmp_path / "empty"
    empty.mkdir()
    assert runner.invoke(app, ["test", str(empty)]).exit_code == 2


def test_the_catalogue_is_written(tmp_path: Path) -> None:
    folder = copy(tmp_path, "app/settings.ensure_wifi_on.task", "app/clock.start_timer.task")
    out = tmp_path / "docs" / "lib.md"
    result = runner.invoke(app, ["test", str(folder), "--seeds", "1", "--docs", str(out)])
    assert result.exit_code == 0, result.stdout
    text = out.read_text()
    assert "| `clock.start_timer` | clock | Set a timer for {countdown}" in text
    assert "2 tasks (2 app, 0 mini_app, 0 cross_app)" in text


def test_the_library_catalogue_lists_every_task() -> None:
    documented = set(
        re.findall(
            r"^\| `([a-z0-9_.]+)` \|", (LIB.parent / "docs" / "task_library.md").read_text(), re.M
        )
    )
    library = {c.task.id for c in Compiler().compile_paths([LIB]).tasks}
    assert documented == library, (
        "regenerate with `tasklang test task_library --docs docs/task_library.md`"
    )
