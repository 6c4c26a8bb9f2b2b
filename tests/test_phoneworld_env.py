"""PhoneWorld through Gymnasium and the command line, on the library's tasks: `check_env`,
determinism, rewards from the verifier, truncation at the budget, recorded trajectories that
`tasklang check` accepts, reference solutions that pass and doing nothing that fails."""

from __future__ import annotations

import json
from pathlib import Path

import gymnasium
import pytest
from gymnasium.utils.env_checker import check_env
from typer.testing import CliRunner

import tasklang.envs.phoneworld  # noqa: F401 - registers tasklang/PhoneWorld-v0
from tasklang import ir
from tasklang.cli import app
from tasklang.compiler import Compiler, library_root
from tasklang.envs.phoneworld.env import PhoneWorldEnv
from tasklang.envs.phoneworld.episode import Episode, missing_apps, run_nothing, run_reference
from tasklang.envs.phoneworld.solutions import references

runner = CliRunner()
LIBRARY = {c.task.id: c for c in Compiler().compile_paths([library_root()]).tasks}
RUNNABLE = sorted(t for t, c in LIBRARY.items() if not missing_apps(c))
SOLVED = sorted(t for t in RUNNABLE if t in references())


def needs(task_id: str) -> ir.CompiledTask:
    compiled = LIBRARY[task_id]
    missing = missing_apps(compiled)
    if missing:
        pytest.skip(f"PhoneWorld has no {', '.join(missing)} app yet")
    return compiled


def test_some_library_tasks_run_in_phoneworld() -> None:
    assert RUNNABLE, "no library task has all its apps in PhoneWorld"


@pytest.mark.parametrize("task_id", sorted(LIBRARY))
def test_check_env(task_id: str) -> None:
    compiled = needs(task_id)
    env = PhoneWorldEnv(compiled, seed=1)
    check_env(env, skip_render_check=True)
    env.close()


@pytest.mark.parametrize("task_id", SOLVED)
def test_reference_passes_and_doing_nothing_fails(task_id: str) -> None:
    compiled = needs(task_id)
    for seed in range(3):
        verdict, traj = run_reference(compiled, seed)
        assert verdict.success, (seed, [(r.id, r.summary) for r in verdict.clauses if not r.passed])
        assert traj.steps and traj.header.environment.kind == "phoneworld"
        assert not run_nothing(compiled, seed).success


def test_make_reset_step_and_rewards() -> None:
    task_id = SOLVED[0] if SOLVED else pytest.skip("no task with a reference solution")
    env = gymnasium.make("tasklang/PhoneWorld-v0", task=task_id, seed=5)
    obs, info = env.reset()
    assert {"ui_xml", "package", "activity", "goal"} <= set(obs) and info["seed"] == 5
    assert obs["ui_xml"].startswith("<?xml") and info["task"] == task_id
    _obs2, reward, terminated, truncated, info = env.step(
        {"action_type": "status", "goal_status": "complete"}
    )
    assert terminated and not truncated and reward == 0.0 and info["success"] is False
    env.close()


def test_same_seed_same_observations() -> None:
    task_id = RUNNABLE[0]
    runs = []
    for _ in range(2):
        env = PhoneWorldEnv(task_id)
        obs, _ = env.reset(seed=11)
        seen = [obs["ui_xml"]]
        for _ in range(8):
            obs, *_ = env.step(env.action_space.sample())
            seen.append(obs["ui_xml"])
        runs.append((seen, env.trajectory_jsonl()))
    assert runs[0] == runs[1]


def one_task_per_app() -> list[str]:
    """A library task for every app (the first, by id, that uses it)."""
    chosen: dict[str, str] = {}
    for tid in SOLVED:
        for ref in LIBRARY[tid].task.apps:
            chosen.setdefault(ref.name, tid)
    return sorted(set(chosen.values()))


@pytest.mark.parametrize("task_id", one_task_per_app())
def test_reused_screens_are_the_screens_composed_afresh(task_id: str) -> None:
    """Two phones take the same walk (taps, scrolls, back, home, snapshot and restore);
    one reuses recently composed screens, the other composes every screen anew. Their
    screens, activities and outcomes never differ, and the first does reuse screens."""
    import random

    from tasklang.envs.phoneworld.bench import walk_action

    cached, fresh = (
        Episode(LIBRARY[task_id], 3, record=False),
        Episode(LIBRARY[task_id], 3, record=False),
    )
    rng = random.Random(task_id)
    saved = cached.phone.snapshot(), fresh.phone.snapshot()
    for i in range(150):
        fresh.phone.invalidate()
        assert cached.phone.xml() == fresh.phone.xml(), i
        assert cached.phone.current_activity() == fresh.phone.current_activity()
        action = walk_action(cached.phone.observe(), rng)
        if cached.phone.foreground is None and rng.random() < 0.5:
            action = {"action_type": "open_app", "app_name": cached.phone.apps[
                [a for a in cached.phone.apps.values() if a.host is None][rng.randrange(3)].model
            ].label}  # fmt: skip
        fields = [j for j, v in enumerate(cached.phone.nodes()) if v.edit is not None]
        if fields and rng.random() < 0.3:
            action = {"action_type": "input_text", "text": rng.choice(["a", "Bo", "7"]),
                      "index": rng.choice(fields), "clear_text": rng.random() < 0.5}  # fmt: skip
        if i % 40 == 39:
            cached.phone.restore(saved[0])
            fresh.phone.restore(saved[1])
            continue
        a, b = cached.phone.act(action), fresh.phone.act(action)
        assert (a.ok, a.info, a.ended) == (b.ok, b.info, b.ended), (i, action)
        if a.ended:
            break
    assert cached.phone.hits > 0


def test_invalid_actions_are_no_ops_and_the_budget_truncates() -> None:
    env = PhoneWorldEnv(RUNNABLE[0], seed=0)
    obs, info = env.reset()
    budget = info["budget"]
    obs2, _, terminated, truncated, info = env.step({"action_type": "click", "index": 10_000})
    assert (
        info["ok"] is False and "out of range" in info["error"] and obs2["ui_xml"] == obs["ui_xml"]
    )
    step_info = info
    for _ in range(budget - 1):
        _, _reward, terminated, truncated, step_info = env.step({"action_type": "wait"})
    assert truncated and not terminated and step_info["step"] == budget
    assert step_info["success"] is False


def test_dense_rewards_sum_to_the_sparse_one() -> None:
    task_id = SOLVED[0] if SOLVED else pytest.skip("no task with a reference solution")
    compiled = LIBRARY[task_id]
    _, traj = run_reference(compiled, 2)
    actions = [s.action.model_dump(exclude_none=True) for s in traj.steps if s.action]
    env = PhoneWorldEnv(compiled, dense=True)
    env.reset(seed=2)
    total = 0.0
    for a in actions:
        _, reward, terminated, truncated, info = env.step(a)
        total += reward
        if terminated or truncated:
            break
    assert info["success"] and total == pytest.approx(1.0)


def test_snapshot_restore_through_the_env() -> None:
    env = PhoneWorldEnv(RUNNABLE[0], seed=3)
    obs, _ = env.reset()
    saved = env.snapshot()
    for _ in range(5):
        env.step(env.action_space.sample())
    env.restore(saved)
    assert env._observation()["ui_xml"] == obs["ui_xml"]
    assert json.loads(env.trajectory_jsonl().splitlines()[0])["type"] == "header"


def test_run_and_check_from_the_command_line(tmp_path: Path) -> None:
    task_id = SOLVED[0] if SOLVED else pytest.skip("no task with a reference solution")
    out = tmp_path / "ref.jsonl"
    result = runner.invoke(app, ["run", task_id, "--seed", "4", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "passed" in result.stdout
    checked = runner.invoke(app, ["check", task_id, str(out)])
    assert checked.exit_code == 0, checked.output
    replayed = tmp_path / "replay.jsonl"
    again = runner.invoke(
        app, ["run", task_id, "--seed", "4", "--agent", f"replay:{out}", "-o", str(replayed)]
    )
    assert again.exit_code == 0, again.output
    assert replayed.read_text() == out.read_text()
    nothing = runner.invoke(app, ["run", task_id, "--agent", "nothing", "--format", "json"])
    doc = json.loads(nothing.stdout)
    assert doc["tasks"][0]["status"] == "failed"


def test_run_usage_errors(tmp_path: Path) -> None:
    assert runner.invoke(app, ["run", "no.such_task"]).exit_code == 2
    assert runner.invoke(app, ["run", RUNNABLE[0], "--agent", "psychic"]).exit_code == 2
    assert (
        runner.invoke(
            app, ["run", RUNNABLE[0], "--agent", f"replay:{tmp_path / 'x.jsonl'}"]
        ).exit_code
        == 2
    )


def test_run_the_library_prints_a_table_per_kind(tmp_path: Path) -> None:
    result = runner.invoke(app, ["run", "-o", str(tmp_path)])
    assert "agent: reference" in result.stdout
    for kind in ("app", "mini_app", "cross_app"):
        assert kind in result.stdout
    assert result.exit_code == 0, result.stdout
    assert sorted(p.stem for p in tmp_path.glob("*.jsonl")) == SOLVED


def test_every_library_task_runs_and_has_a_reference_solution() -> None:
    assert sorted(LIBRARY) == RUNNABLE == SOLVED


def test_a_task_with_an_app_phoneworld_lacks_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from tasklang.envs.phoneworld import apps

    have = dict(apps.app_classes())
    del have["yelp"]
    monkeypatch.setattr(apps, "app_classes", lambda: have)
    assert missing_apps(LIBRARY["yelp.bookmark_salon"]) == ["yelp"]
    with pytest.raises(ValueError, match="does not have yet"):
        PhoneWorldEnv("yelp.bookmark_salon").reset(seed=0)


def test_bench_reports_every_figure_the_targets_name() -> None:
    result = runner.invoke(
        app, ["bench", "phoneworld", "--walk", "40", "--instances", "5", "--format", "json"]
    )
    assert result.exit_code == 0, result.stdout
    figures = json.loads(result.stdout)
    for key in figures["targets"]:
        assert figures[key] is not None, key
    assert figures["instances_alive"] == 5 and figures["steps_per_s_screenshots"] > 0
    assert 0 < figures["mb_per_instance"] < 10 and figures["reset_ms"] > 0
    assert 0 <= figures["screens_reused"] <= 1
    rows = figures["library"]["tasks"]
    assert sorted(r["task"] for r in rows) == RUNNABLE
    assert all(r["steps_per_s_xml"] > 0 and r["nodes_per_screen"] > 5 for r in rows)
    worst = figures["library"]["worst_step_over_lxml_floor"]
    assert worst == max(r["step_over_lxml_floor"] for r in rows)
    # the text report, of the same figures (a second bench run would only take as long again)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("tasklang.envs.phoneworld.bench.bench_phoneworld", lambda *args: figures)
        text = runner.invoke(app, ["bench", "phoneworld"])
    assert text.exit_code == 0 and "library task" in text.stdout and "median" in text.stdout


def test_restoring_a_snapshot_from_another_branch_restores_its_steps() -> None:
    ep = Episode(LIBRARY[RUNNABLE[0]], 0)
    ep.step({"action_type": "wait"})
    root = ep.snapshot()
    ep.step({"action_type": "navigate_home"})
    ep.step({"action_type": "scroll", "direction": "down"})
    branch_a = ep.snapshot()
    steps_a = [s.action for s in ep.steps]
    ep.restore(root)
    ep.step({"action_type": "navigate_back"})
    ep.restore(branch_a)  # from branch B, back to A: A's steps, not B's
    assert [s.action for s in ep.steps] == steps_a and len(ep.steps) == 3
    assert ep.trajectory().steps[1].action.action_type == "navigate_home"
