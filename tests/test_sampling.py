"""Sampling task instances: determinism, distinct instances, goal text, `tasklang sample`."""

from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tasklang import ir, sampling
from tasklang.benchsample import bench_sample
from tasklang.compiler import Compiler
from tasklang.noise import collect_filters
from tasklang.samplecmd import run_sample
from tasklang.sampling import (
    Instance,
    SamplingError,
    derived_seed,
    exhausted,
    format_value,
    plain_domain_size,
    render_goal,
    sample_instance,
    sample_instances,
)
from tasklang.verifiers.evaluate import Env, evaluate
from tasklang.verifiers.state import build_state

ROOT = Path(__file__).resolve().parent.parent


@cache
def library() -> dict[str, ir.CompiledTask]:
    result = Compiler().compile_paths([ROOT / "task_library"])
    assert result.ok
    return {c.task.id: c for c in result.tasks}


def compile_one(text: str) -> ir.CompiledTask:
    result = Compiler().compile_text(text, "test.task")
    assert result.ok and len(result.tasks) == 1, [d.message for d in result.diagnostics]
    return result.tasks[0]


def dump(inst: Instance) -> dict[str, Any]:
    return {
        "seed": inst.seed,
        "params": inst.params,
        "initial": inst.initial.model_dump(mode="json"),
        "notes": inst.notes,
        "noise": inst.noise,
    }


def key(inst: Instance) -> str:
    return json.dumps(inst.params, sort_keys=True)


# ---------------------------------------------------------------- one instance
@pytest.mark.parametrize("task_id", sorted(library()))
def test_the_same_seed_gives_the_same_instance(task_id: str) -> None:
    compiled = library()[task_id]
    assert dump(sample_instance(compiled, 7)) == dump(sample_instance(compiled, 7))


def test_different_seeds_give_different_instances() -> None:
    compiled = library()["contacts.add_coworker"]
    dumps = [json.dumps(dump(sample_instance(compiled, s))["initial"]) for s in range(20)]
    assert len(set(dumps)) == 20
    # even a task without parameters gets different noise for another seed
    compiled = library()["files.large_pdfs"]
    a, b = sample_instance(compiled, 1), sample_instance(compiled, 2)
    assert a.params == b.params == {}
    assert a.initial.model_dump() != b.initial.model_dump()


def test_a_fresh_compile_gives_the_same_instance() -> None:
    first = library()["cross.share_place_address"]
    again = Compiler().compile_paths([ROOT / "task_library" / "cross_app"])
    other = {c.task.id: c for c in again.tasks}["cross.share_place_address"]
    assert dump(sample_instance(first, 11)) == dump(sample_instance(other, 11))


# ---------------------------------------------------------------- many instances
def test_instances_are_pairwise_distinct_and_reproducible() -> None:
    compiled = library()["contacts.add_coworker"]
    instances = sample_instances(compiled, 5, 40)
    assert len(instances) == 40
    assert len({key(i) for i in instances}) == 40
    assert not exhausted(instances)
    assert dump(instances[0]) == dump(sample_instance(compiled, 5))
    for inst in instances[:5]:
        assert dump(sample_instance(compiled, inst.seed)) == dump(inst)
    assert dump(instances[3]) == dump(sample_instances(compiled, 5, 40)[3])


def test_instances_are_independent_draws_and_depend_on_the_seed() -> None:
    compiled = library()["clock.start_timer"]
    a = sample_instances(compiled, 0, 10)
    b = sample_instances(compiled, 1, 10)
    assert [key(i) for i in a] != [key(i) for i in b]
    seeds = [i.seed for i in a]
    assert seeds[0] == 0 and all(s > 1000 for s in seeds[1:])  # hashed, not 1, 2, 3, ...
    assert seeds[1] == derived_seed("clock.start_timer", 0, 1)
    minutes = sorted(i.params["countdown"] // 60 for i in a)
    assert minutes[-1] - minutes[0] > 10  # spread over 3..45 minutes, not neighbours


def test_a_small_domain_returns_every_instance_and_says_so() -> None:
    compiled = library()["settings.enable_dark_theme"]
    assert plain_domain_size(compiled.task) == 15  # one pair is ruled out by a constraint
    instances = sample_instances(compiled, 0, 20)
    assert len(instances) == 14
    assert len({key(i) for i in instances}) == 14
    assert exhausted(instances)
    assert instances[0].notes[0].startswith("only 14 distinct instance(s)")
    assert all(i.params["timeout"] != i.params["start_timeout"] for i in instances)


def test_a_task_without_parameters_has_one_instance() -> None:
    compiled = library()["yelp.bookmark_salon"]
    instances = sample_instances(compiled, 3, 5)
    assert len(instances) == 1 and exhausted(instances)
    assert sample_instances(compiled, 3, 1)[0].notes == []
    assert sample_instances(compiled, 3, 0) == []


# ---------------------------------------------------------------- every library task
@pytest.mark.parametrize("task_id", sorted(library()))
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**40))
def test_every_sampled_instance_meets_its_task(task_id: str, seed: int) -> None:
    compiled = library()[task_id]
    task = compiled.task
    inst = sample_instance(compiled, seed)
    env = Env(compiled.apps, inst.params, inst.initial)
    assert {p.name for p in task.params} == set(inst.params)
    for c in task.constraints:
        assert evaluate(c, env) is True
    for p in task.params:
        d = p.domain
        if isinstance(d, ir.RecordDomain):
            chosen = inst.params[p.name]
            assert chosen in evaluate(d.source, env)
            if d.where is not None:
                trial = Env(compiled.apps, inst.params, inst.initial, None, chosen)
                assert evaluate(d.where, trial)
    assert "{" not in render_goal(task, inst.params).replace("{{", "")
    # noise leaves filtered counts exactly as the explicit state has them
    explicit = build_state(compiled, inst.params)
    for (app, name), filters in collect_filters(task).items():
        for f in filters:
            if f.want:
                continue
            count = ir.Count(source=ir.CollectionRef(app=app, name=name), where=f.where)
            before = evaluate(count, Env(compiled.apps, inst.params, explicit.snapshot))
            after = evaluate(count, env)
            assert before == after, f.origin


# ---------------------------------------------------------------- the guided fallback
NEEDLE = """
task test.needle {
  kind app
  apps clock
  goal "Set {n} alarms."
  params { n: int in 1 .. 1000000 }
  constraints { n == 137 }
  expect { count(clock.alarms) == n }
  budget 5 steps
}
"""


def test_rejection_failure_names_the_constraint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sampling, "GUIDED", None)
    compiled = compile_one(NEEDLE)
    with pytest.raises(SamplingError, match=r"constraint 1 `n == 137` was false"):
        sample_instance(compiled, 0)


def test_the_solver_finds_what_rejection_misses() -> None:
    assert sample_instance(compile_one(NEEDLE), 0).params == {"n": 137}
    narrow = NEEDLE.replace("n == 137", "n >= 999990")
    compiled = compile_one(narrow)
    found = [i.params["n"] for i in sample_instances(compiled, 3, 5)]
    assert len(set(found)) == 5 and all(999990 <= n <= 1000000 for n in found)
    assert found == [i.params["n"] for i in sample_instances(compiled, 3, 5)]
    assert found != [i.params["n"] for i in sample_instances(compiled, 4, 5)]
    impossible = NEEDLE.replace("n == 137", "n > 1000000")
    with pytest.raises(SamplingError):
        sample_instance(compile_one(impossible), 0)


def test_the_guided_hook_is_asked_before_giving_up(monkeypatch: pytest.MonkeyPatch) -> None:
    compiled = compile_one(NEEDLE)
    calls: list[str] = []

    def guided(c: ir.CompiledTask, rng: random.Random) -> dict[str, Any] | None:
        calls.append(c.task.id)
        return {"n": 137}

    monkeypatch.setattr(sampling, "GUIDED", guided)
    inst = sample_instance(compiled, 0)
    assert inst.params == {"n": 137} and calls == ["test.needle"]
    monkeypatch.setattr(sampling, "GUIDED", lambda c, rng: None)
    with pytest.raises(SamplingError):
        sample_instance(compiled, 0)


# ---------------------------------------------------------------- the goal text
def test_render_goal_writes_values_for_a_person() -> None:
    lib = library()
    transfer = lib["wechat.transfer_money"]
    inst = sample_instance(transfer, 2)
    goal = render_goal(transfer.task, inst.params)
    cents = inst.params["owed"]
    assert f"Transfer ${cents // 100}.{cents % 100:02d} to {inst.params['pal']['remark']}" in goal
    timer = lib["clock.start_timer"]
    assert (
        render_goal(timer.task, {"countdown": 600})
        == "Set a timer for 10 minutes in the Clock app and start it."
    )
    alarm = lib["clock.weekday_alarm"]
    text = render_goal(alarm.task, {"wake": "07:05:00", "title": "Gym"})
    assert text.startswith("Set an alarm for 07:05 on weekdays") and "'Gym'" in text
    place = lib["maps.place_address"]
    assert "address of Parc de Bercy?" in render_goal(
        place.task, {"place": {"name": "Parc de Bercy"}}
    )
    assert "{place.name}" in render_goal(place.task, {})


def test_format_value() -> None:
    assert format_value(123456, ir.Type(name="money")) == "$1,234.56"
    assert format_value(3600 * 3, ir.Type(name="duration")) == "3 hours"
    assert format_value(45, ir.Type(name="duration")) == "45 seconds"
    assert format_value("2026-05-14", ir.Type(name="date")) == "2026-05-14"
    assert format_value("2026-05-14T08:30:00", ir.Type(name="datetime")) == "2026-05-14 08:30"
    assert format_value(True, ir.Type(name="bool")) == "yes"
    assert format_value(["a", "b"], None) == "a, b"
    assert format_value({"title": "Book club"}, ir.Type(name="record")) == "Book club"
    assert format_value(None, None) == "(none)"


# ---------------------------------------------------------------- tasklang sample
def test_run_sample_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_sample("contacts.add_coworker", seed=3, n=2) == 0
    out = capsys.readouterr().out
    assert out.count("task contacts.add_coworker, seed 3: instance") == 2
    assert "  goal: Create a new contact " in out
    assert "noise: contacts.people +12" in out
    assert '"Alice Moreau"' in out and "who = " in out


def test_run_sample_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_sample("settings.enable_dark_theme", seed=1, n=20, as_json=True) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["task"] == "settings.enable_dark_theme" and doc["seed"] == 1
    instances = doc["instances"]
    assert len(instances) == 14
    first = instances[0]
    assert set(first) >= {"index", "seed", "goal", "params", "initial", "notes"}
    assert first["index"] == 0 and first["seed"] == 1
    assert first["notes"][0].startswith("only 14 distinct")
    assert first["initial"]["apps"]["settings"]["settings"]["dark_theme"] is False
    assert "set it to" in first["goal"]


def test_run_sample_a_task_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "two.task"
    impossible = NEEDLE.replace("needle", "other").replace("n == 137", "n == 137 and n > 137")
    path.write_text(NEEDLE.replace("n == 137", "n > 0") + impossible)
    assert run_sample(str(path), n=1, as_json=True) == 1  # the second cannot be sampled
    captured = capsys.readouterr()
    docs = json.loads(captured.out)
    assert [d["task"] for d in docs] == ["test.needle"]
    assert "cannot sample task `test.other`" in captured.err
    assert "n == 137" in captured.err
    assert "Traceback" not in captured.err


def test_run_sample_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_sample("contacts.add_cowork") == 2
    assert "did you mean `contacts.add_coworker`" in capsys.readouterr().err
    assert run_sample(str(tmp_path / "missing.task")) == 2
    assert "missing.task" in capsys.readouterr().err
    assert run_sample("contacts.add_coworker", n=0) == 2
    assert "-n" in capsys.readouterr().err
    bad = tmp_path / "bad.task"
    bad.write_text("task broken {")
    assert run_sample(str(bad)) == 2
    assert "does not compile" in capsys.readouterr().err
    needle = tmp_path / "needle.task"
    needle.write_text(NEEDLE.replace("n == 137", "n == 137 and n > 137"))
    assert run_sample(str(needle)) == 1
    err = capsys.readouterr().err
    assert "cannot sample task `test.needle`" in err and "Traceback" not in err


def test_bench_sample_reports_rates() -> None:
    result = bench_sample(n=3, tasks=["contacts.add_coworker", "no.such_task"])
    assert result["n"] == 3
    assert result["tasks"]["contacts.add_coworker"]["instances"] == 3
    assert result["tasks"]["contacts.add_coworker"]["noise_records_per_instance"] == 12
    assert "error" in result["tasks"]["no.such_task"]
    assert result["typical"]["task"] == "contacts.add_coworker"
    assert result["typical"]["instances_per_s"] == result["median_instances_per_s"]
