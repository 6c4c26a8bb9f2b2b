"""Real recordings by others import completely and get the right verdicts.

- ``droidbot_yelp``: DroidBot's exploration of Yelp (35 events). It opened a hair salon's page
  but never bookmarked anything, and ended on an empty Bookmarks tab.
- ``my_android_world``: three AndroidWorld agent runs, all labelled failures by their runner.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tasklang.cli import app
from tasklang.verifiers.trajectory import read_trajectory

runner = CliRunner()
AW_RUNS = {
    "2025_04_19_21_13_11": ("androidworld.audio_recorder_record_audio", 12),
    "2025_04_19_23_20_05": ("androidworld.audio_recorder_record_audio", 12),
    "2025_04_20_01_00_30": ("androidworld.browser_maze", 20),
}


def cli(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout


def import_to(tmp_path: Path, fmt: str, src: Path, task: str) -> Path:
    out = tmp_path / f"{task}.jsonl"
    code, _ = cli("import", fmt, str(src), "-o", str(out), "--task", task)
    assert code == 0
    return out


def verdict(task: str, traj: Path) -> tuple[int, dict]:
    code, out = cli("check", task, str(traj), "--format", "json")
    [one] = json.loads(out)
    return code, one


@pytest.mark.parametrize("run", sorted(AW_RUNS))
def test_androidworld_runs_are_failures(realdata_dir: Path, tmp_path: Path, run: str) -> None:
    task, steps = AW_RUNS[run]
    src = realdata_dir / "my_android_world" / "data_history" / run / "history.json"
    recorded = json.loads(src.read_text())
    traj = import_to(tmp_path, "androidworld", src, task)
    parsed = read_trajectory(traj)
    assert len(parsed.steps) == len(recorded) == steps
    assert parsed.header.goal == recorded[0]["task_goal"]
    code, v = verdict(task, traj)
    assert code == 1 and v["success"] is False and v["score"] == 0.0
    assert recorded[-1]["result"] in (False, "False")  # the runner's own label agrees


@pytest.fixture
def yelp(realdata_dir: Path) -> Path:
    return realdata_dir / "droidbot_yelp" / "report_com.yelp.android"


def test_droidbot_yelp_imports_every_event(yelp: Path, tmp_path: Path) -> None:
    traj = read_trajectory(import_to(tmp_path, "droidbot", yelp, "yelp.open_salon_page"))
    events = sorted((yelp / "events").glob("event_*.json"))
    assert len(traj.steps) == len(events) == 35
    assert all(s.action is not None or s.extra for s in traj.steps)


def test_droidbot_yelp_opened_a_salon_page(yelp: Path, tmp_path: Path) -> None:
    traj = import_to(tmp_path, "droidbot", yelp, "yelp.open_salon_page")
    code, v = verdict("yelp.open_salon_page", traj)
    assert code == 0 and v["success"] is True
    order = next(c for c in v["clauses"] if c["kind"] == "trace" and len(c["evidence"]) == 2)
    first, later = (e["step"] for e in order["evidence"])
    assert first < later


def test_droidbot_yelp_never_bookmarked(yelp: Path, tmp_path: Path) -> None:
    traj = import_to(tmp_path, "droidbot", yelp, "yelp.bookmark_salon")
    code, v = verdict("yelp.bookmark_salon", traj)
    assert code == 1 and v["success"] is False
    failed = {c["kind"] for c in v["clauses"] if not c["passed"]}
    assert failed == {"trace", "ui_element"}  # no bookmark tap; the empty-list hint is shown
