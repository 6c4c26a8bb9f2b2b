"""The policy commands: usage errors, the human-evaluation sheet, the rollout benchmark."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from typer.testing import CliRunner

from tasklang.cli import app

runner = CliRunner()
WIFI = "androidworld.system_wifi_turn_on"


def test_bad_config_is_a_usage_error(tmp_path: Path) -> None:
    cfg = tmp_path / "bad.toml"
    cfg.write_text("[model]\ntiny = true\n[sft]\nlearning_rat = 1\n", encoding="utf-8")
    result = runner.invoke(app, ["train", "sft", "--config", str(cfg)])
    assert result.exit_code == 2
    assert "tasklang: error:" in result.stderr and "did you mean `learning_rate`" in result.stderr
    missing = runner.invoke(app, ["train", "rl", "--config", str(tmp_path / "nope.toml")])
    assert missing.exit_code == 2 and "cannot read" in missing.stderr


def test_eval_of_an_unknown_task_is_a_usage_error() -> None:
    result = runner.invoke(
        app, ["eval", "--policy", "x", "--tasks", "androidworld.system_wifi_turn_onn"]
    )
    assert result.exit_code == 2 and "did you mean" in result.stderr


def test_human_eval_sheet_and_agreement(tmp_path: Path) -> None:
    sheet = tmp_path / "sheet.csv"
    result = runner.invoke(
        app, ["human-eval", "export", "--tasks", WIFI, "--seeds", "0-1", "-o", str(sheet)]
    )
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(sheet.open(encoding="utf-8")))
    assert [r["seed"] for r in rows] == ["0", "1"] and rows[0]["auto_success"] == ""
    rows[0]["auto_success"], rows[0]["human_success"] = "yes", "yes"
    rows[1]["auto_success"], rows[1]["human_success"] = "no", "yes"
    with sheet.open("w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    result = runner.invoke(app, ["human-eval", "agreement", str(sheet), "--format", "json"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["compared"] == 2 and data["false_failures"] == 1 and data["accuracy"] == 0.5


def test_rollout_benchmark_reports_both_loops() -> None:
    result = runner.invoke(
        app,
        [
            "demo",
            "rollouts",
            "--batch",
            "3",
            "--latency",
            "0.01",
            "--steps",
            "1",
            "--format",
            "json",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["batch"] == 3 and data["sequential_s"] > 0 and data["concurrent_s"] > 0
