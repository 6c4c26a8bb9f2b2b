"""`tasklang solve`: best-first search over PhoneWorld finds action sequences the verifier
accepts, reports how much it explored, writes trajectories `tasklang check` accepts, and uses
only what an agent could know."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tasklang.cli import app
from tasklang.compiler import Compiler, library_root
from tasklang.envs.phoneworld.solver import Solver, fits, solve

runner = CliRunner()
# searches are bounded by explored states, not time, so that results do not depend on the
# machine's speed
BIG = 1e9
STATES = 500
LIBRARY = {c.task.id: c for c in Compiler().compile_paths([library_root()]).tasks}


def test_solves_a_settings_task_and_the_replay_passes() -> None:
    result = solve(LIBRARY["settings.ensure_wifi_on"], seed=0, time_limit=BIG, max_states=STATES)
    assert result.found and result.verdict is not None and result.verdict.success
    assert result.explored >= 1 and result.generated > result.explored
    assert result.actions[-1] == {"action_type": "status", "goal_status": "complete"}
    assert 2 <= len(result.actions) <= 12
    assert result.trajectory is not None and len(result.trajectory.steps) == len(result.actions)


def test_same_seed_same_solution() -> None:
    a = solve(LIBRARY["settings.ensure_wifi_on"], seed=2, time_limit=BIG, max_states=STATES)
    b = solve(LIBRARY["settings.ensure_wifi_on"], seed=2, time_limit=BIG, max_states=STATES)
    assert a.found and a.actions == b.actions and a.explored == b.explored


def test_answers_come_from_the_screen_not_from_hidden_parameters() -> None:
    compiled = LIBRARY["maps.place_address"]
    solver = Solver(compiled, seed=0, time_limit=BIG, max_states=STATES)
    assert solver.ep.instance is not None
    address = solver.ep.instance.params["place"]["address"]
    assert address not in solver.texts  # the goal names the place, not its address
    result = solver.run()
    assert result.found
    assert result.actions[-1] == {"action_type": "answer", "text": address}
    assert len(result.actions) >= 3  # it had to find the place first


def test_a_state_budget_ends_the_search_with_a_reason() -> None:
    result = solve(LIBRARY["contacts.add_coworker"], seed=0, time_limit=BIG, max_states=3)
    assert not result.found and result.explored == 3
    assert "3 explored states" in result.reason and 0 <= result.score < 1


def test_texts_fit_their_fields() -> None:
    assert fits("+1 415 555 0187", "Phone number com.x:id/phone") > fits("Ana", "Phone number")
    assert fits("ana@example.com", "Email") > 0 and fits("Ana", "First name") > 0
    assert fits("Meeting", "Label") == 0


def test_command_line_writes_a_trajectory_check_accepts(tmp_path: Path) -> None:
    out = tmp_path / "wifi.jsonl"
    result = runner.invoke(
        app, ["solve", "settings.ensure_wifi_on", "--max-states", "300", "-o", str(out)]
    )
    assert result.exit_code == 0, result.stdout
    assert "solved in" in result.stdout and "explored" in result.stdout
    checked = runner.invoke(app, ["check", "settings.ensure_wifi_on", str(out)])
    assert checked.exit_code == 0, checked.stdout
    as_json = runner.invoke(
        app,
        [
            "solve",
            "settings.ensure_wifi_on",
            "--seed",
            "1",
            "--max-states",
            "300",
            "--format",
            "json",
        ],
    )
    row = json.loads(as_json.stdout)["tasks"][0]
    assert row["found"] and row["explored"] >= 1 and row["steps"] == len(row["actions"])


def test_command_line_reports_failure_and_bad_usage(tmp_path: Path) -> None:
    result = runner.invoke(app, ["solve", "contacts.add_coworker", "--max-states", "2"])
    assert result.exit_code == 1 and "not solved" in result.stdout
    assert runner.invoke(app, ["solve", "no.such_task"]).exit_code == 2
    bad = runner.invoke(app, ["solve", "settings.ensure_wifi_on", "--time-limit", "0"])
    assert bad.exit_code == 2


@pytest.mark.parametrize("task_id", ["settings.enable_dark_theme", "yelp.open_salon_page"])
def test_solves_more_library_tasks(task_id: str) -> None:
    result = solve(LIBRARY[task_id], seed=0, time_limit=BIG, max_states=STATES)
    assert result.found, result.summary()
