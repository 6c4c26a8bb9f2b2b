"""`bench_check` returns its documented figures (a tiny run; no timing assertions)."""

from __future__ import annotations

import json

import pytest

from tasklang.verifiers.bench import (
    OBSERVATIONS,
    SCALING_STEPS,
    TARGET_STEPS_PER_SECOND,
    bench_check,
    build_corpus,
    line_fit,
    parse_corpus,
    profile_check,
    r_squared,
)

PER_OBSERVATION = {
    "observation", "trajectories", "steps", "passed", "corpus_mb", "parse_seconds",
    "parse_steps_per_second", "parse_mb_per_second", "parse_steps_per_second_no_gc",
    "check_seconds", "check_steps_per_second", "check_us_per_step", "meets_target",
}  # fmt: skip
POSITIVE = {
    "corpus_mb", "parse_seconds", "parse_steps_per_second", "parse_mb_per_second",
    "parse_steps_per_second_no_gc", "check_seconds", "check_steps_per_second",
    "check_us_per_step",
}  # fmt: skip


@pytest.fixture(scope="module")
def figures() -> dict[str, object]:
    result: dict[str, object] = bench_check(n_trajectories=5, steps=4, repeat=1)
    return result


def test_documented_keys_with_positive_figures(figures: dict[str, object]) -> None:
    assert {
        "trajectories", "steps_per_trajectory", "steps", "tasks", "target_steps_per_second",
        "steps_per_second", "meets_target", "scaling", *OBSERVATIONS,
    } <= set(figures)  # fmt: skip
    assert figures["trajectories"] == 5 and figures["steps_per_trajectory"] == 4
    assert figures["steps"] == 20
    assert figures["target_steps_per_second"] == TARGET_STEPS_PER_SECOND
    assert isinstance(figures["meets_target"], bool)
    tasks = figures["tasks"]
    assert isinstance(tasks, list) and len(tasks) >= 3
    for observation in OBSERVATIONS:
        part = figures[observation]
        assert isinstance(part, dict)
        assert set(part) >= PER_OBSERVATION, PER_OBSERVATION - set(part)
        assert part["observation"] == observation and part["steps"] == 20
        for key in POSITIVE:
            assert part[key] > 0, (observation, key, part[key])
        assert 0 <= part["passed"] <= 5
    assert figures["steps_per_second"] == figures["ui_xml"]["check_steps_per_second"]  # type: ignore[index]
    json.dumps(figures)  # plain JSON values only


def test_scaling_points(figures: dict[str, object]) -> None:
    scaling = figures["scaling"]
    assert isinstance(scaling, dict) and set(scaling) == set(OBSERVATIONS)
    for part in scaling.values():
        points = part["points"]
        assert [p["steps"] for p in points] == list(SCALING_STEPS)
        for p in points:
            assert p["seconds"] > 0 and p["us_per_step"] > 0 and p["ms_per_trajectory"] > 0
        assert part["per_step_ratio"] > 0
        assert part["ratio_steps"] == [SCALING_STEPS[0], SCALING_STEPS[-1]]
        assert 0.0 <= part["r_squared"] <= 1.0
        assert "fit_us_per_step" in part and "fit_ms_per_trajectory_fixed" in part


@pytest.mark.parametrize("observation", OBSERVATIONS)
def test_corpus_is_realistic_and_parses(observation: str) -> None:
    corpus = build_corpus(4, 6, observation)
    assert corpus.steps == 24 and len(corpus.texts) == 4
    trajectories = parse_corpus(corpus)
    assert {t.header.task.id for t in trajectories} == {c.task.id for c in corpus.tasks}
    for traj in trajectories:
        assert len(traj.steps) == 6 and traj.final.snapshot is not None
        for step in traj.steps:
            assert step.snapshot is not None and step.action is not None
            obs = step.observation
            if observation == "ui_xml":
                assert obs.ui_xml is not None and 25 <= obs.ui_xml.count("<node") <= 40
            else:
                assert obs.ui_elements is not None and 25 <= len(obs.ui_elements) <= 40


def test_profile_lists_hotspots() -> None:
    rows = profile_check(n_trajectories=4, steps=3, observation="ui_elements", top=5)
    assert 0 < len(rows) <= 5
    assert all(r["own_seconds"] >= 0 and r["calls"] > 0 for r in rows)


def test_line_fit_and_r_squared() -> None:
    assert line_fit([1, 2, 3], [3, 5, 7]) == pytest.approx((1.0, 2.0))
    assert r_squared([1, 2, 3], [2, 4, 6]) == pytest.approx(1.0)
    assert r_squared([1, 2, 3, 4], [1, 3, 2, 4]) < 1.0
