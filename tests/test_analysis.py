"""The z3 analysis: planted defects are found with replayable counterexamples, the bundled
library is clean, and what the solver predicts is what the verifier decides.

The property tests compare the analysis with brute force: small tasks over settings with
finite parameter domains are enumerated instance by instance, each do-nothing episode is
checked by the verifier, and the analysis must report a vacuous goal exactly when one of
them passes.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest
import z3
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from tasklang import ir
from tasklang.analysis import Options, analyze
from tasklang.analysis.checks import Analysis, replay_answer, replay_do_nothing
from tasklang.cli import app
from tasklang.compiler import Compiler, library_root
from tasklang.envs.device.differential import library
from tasklang.verifiers.evaluate import Env, evaluate
from tasklang.verifiers.state import initial_state

runner = CliRunner()

PLANTED = {
    "TL2010": """
task planted.unsat {
  kind app
  apps settings
  goal "Change the screen timeout from {old} to {new}."
  params {
    old: one of [1m, 2m]
    new: one of [15s, 30s]
  }
  constraints {
    new > old
  }
  given { settings.screen_timeout = old }
  expect { settings.screen_timeout == new }
  budget 10 steps
}
""",
    "TL2011": """
task planted.impossible {
  kind app
  apps contacts
  goal "Add {who} to my contacts."
  params { who: person_name }
  expect {
    exists contacts.people where name == who
    none contacts.people where name == who
  }
  budget 10 steps
}
""",
    "TL2012": """
task planted.vacuous {
  kind app
  apps settings
  goal "Set the brightness to {level} percent."
  params { level: int in 40 .. 80 }
  given { settings.brightness = 60 }
  expect { settings.brightness == level }
  budget 10 steps
}
""",
    "TL2013": """
task planted.contradiction {
  kind app
  apps contacts
  goal "Remove Alice Moreau from my contacts."
  given {
    contacts.people += { name: "Alice Moreau", phone: "+1 415 555 0187" }
    contacts.people += noise 5 where name != "Alice Moreau"
  }
  expect { none contacts.people where name == "Alice Moreau" }
  forbid { deleted contacts.people }
  budget 10 steps
}
""",
    "TL2014": """
task planted.ambiguous {
  kind app
  apps maps
  goal "What is the address of the museum near me?"
  params { place: one of maps.places where category == "museum" }
  given {
    maps.places += { name: "Musee A", address: "53 Avenue des Terroirs de France", category: "museum", rating: 4.5 }
    maps.places += { name: "Musee B", address: "128 Quai de Bercy", category: "museum", rating: 4.1 }
  }
  expect { answer ~ place.address }
  budget 10 steps
}
""",
}


def compile_one(text: str) -> ir.CompiledTask:
    result = Compiler().compile_text(text, "planted.task")
    assert result.ok, [d.message for d in result.diagnostics]
    (compiled,) = result.tasks
    return compiled


def lint_json(tmp_path: Path, text: str) -> tuple[int, dict[str, Any]]:
    path = tmp_path / "planted.task"
    path.write_text(text, encoding="utf-8")
    out = runner.invoke(app, ["lint", str(path), "--format", "json"])
    return out.exit_code, json.loads(out.stdout)


@pytest.mark.parametrize("code", sorted(PLANTED))
def test_each_planted_defect_is_reported_with_its_code(tmp_path: Path, code: str) -> None:
    exit_code, doc = lint_json(tmp_path, PLANTED[code])
    found = [d for d in doc["diagnostics"] if d["code"].startswith("TL201")]
    assert [d["code"] for d in found] == [code], found
    severity = found[0]["severity"]
    assert exit_code == (1 if severity == "error" else 0)
    assert found[0]["line"] > 1 and found[0]["file"].endswith("planted.task")


def test_unsatisfiable_constraints_point_at_the_core(tmp_path: Path) -> None:
    _, doc = lint_json(tmp_path, PLANTED["TL2010"])
    (d,) = [d for d in doc["diagnostics"] if d["code"] == "TL2010"]
    assert d["line"] == 11  # the constraint `new > old`
    assert any("line 11" in n for n in d["notes"])


def test_impossible_goal_and_contradiction_name_both_clauses(tmp_path: Path) -> None:
    _, doc = lint_json(tmp_path, PLANTED["TL2011"])
    (d,) = [d for d in doc["diagnostics"] if d["code"] == "TL2011"]
    assert sorted(n for n in d["notes"] if "line" in n) == [
        "conflicting clause (line 8)",
        "conflicting clause (line 9)",
    ]
    _, doc = lint_json(tmp_path, PLANTED["TL2013"])
    (d,) = [d for d in doc["diagnostics"] if d["code"] == "TL2013"]
    assert "expected (line 10)" in d["notes"] and "forbidden (line 11)" in d["notes"]


def test_vacuous_counterexample_replays_to_success(tmp_path: Path) -> None:
    _, doc = lint_json(tmp_path, PLANTED["TL2012"])
    (d,) = [d for d in doc["diagnostics"] if d["code"] == "TL2012"]
    cex = d["counterexample"]
    assert cex["params"] == {"level": 60}
    assert cex["predicted"] == "success" and cex["trajectory"]["actions"] == []
    compiled = compile_one(PLANTED["TL2012"])
    state, _ = initial_state(compiled, cex["params"])
    assert replay_do_nothing(compiled, cex["params"], state).success


def test_ambiguous_answer_counterexample_replays(tmp_path: Path) -> None:
    _, doc = lint_json(tmp_path, PLANTED["TL2014"])
    (d,) = [d for d in doc["diagnostics"] if d["code"] == "TL2014"]
    cex = d["counterexample"]
    compiled = compile_one(PLANTED["TL2014"])
    state, _ = initial_state(compiled, {})
    answer = cex["trajectory"]["actions"][0]["text"]
    assert not replay_answer(compiled, cex["params"], state, answer).success
    assert replay_answer(compiled, cex["other_params"], state, answer).success
    assert cex["params"]["place"]["name"] != cex["other_params"]["place"]["name"]


def test_the_fix_silences_the_finding(tmp_path: Path) -> None:
    fixed = PLANTED["TL2014"].replace("the museum near me?", "{place.name}?")
    _, doc = lint_json(tmp_path, fixed)
    assert not [d for d in doc["diagnostics"] if d["code"].startswith("TL201")]
    fixed = PLANTED["TL2012"].replace("settings.brightness = 60", "settings.brightness = 20")
    _, doc = lint_json(tmp_path, fixed)
    assert not [d for d in doc["diagnostics"] if d["code"].startswith("TL201")]


def test_verify_only_tasks_are_not_vacuous() -> None:
    text = PLANTED["TL2012"].replace("budget 10 steps", "verify_only\n  budget 10 steps")
    findings, _ = analyze(compile_one(text))
    assert not findings


@pytest.mark.parametrize("task_id", sorted(library()))
def test_bundled_library_is_clean_and_every_exact_prediction_holds(task_id: str) -> None:
    # what the library says, not how fast a loaded machine proves it: a query the solver
    # gives up on under the default time limit (TL2019) is a speed figure, not a finding
    patient = Options(timeout_ms=120_000)
    findings, stats = analyze(library()[task_id], patient)
    assert [f.code for f in findings] == [], findings
    assert stats.refuted_exact == []
    assert stats.queries >= 2


def test_lint_cli_on_a_library_folder_and_text_output(tmp_path: Path) -> None:
    # the whole library is analysed in test_bundled_library_is_clean_...; the command is
    # run here on one of its folders
    folder = library_root() / "mini_app"
    out = runner.invoke(app, ["lint", str(folder)])
    assert out.exit_code == 0, out.output
    tasks = len(list(folder.glob("*.task")))
    assert tasks >= 5 and f"linted {tasks} task(s): 0 error(s), 0 warning(s)" in out.stderr
    path = tmp_path / "v.task"
    path.write_text(PLANTED["TL2012"], encoding="utf-8")
    out = runner.invoke(app, ["lint", str(path)])
    assert out.exit_code == 1
    assert "error[TL2012]" in out.stderr and "counterexample: level = 60" in out.stderr


def test_compile_strict_runs_the_analysis_and_writes_nothing_for_broken_tasks(
    tmp_path: Path,
) -> None:
    path = tmp_path / "v.task"
    path.write_text(PLANTED["TL2012"], encoding="utf-8")
    out_dir = tmp_path / "out"
    plain = runner.invoke(app, ["compile", str(path)])
    assert plain.exit_code == 0
    strict = runner.invoke(app, ["compile", "--strict", str(path), "-o", str(out_dir)])
    assert strict.exit_code == 1 and "TL2012" in strict.stderr
    assert not list(out_dir.glob("*.json")) if out_dir.exists() else True


def test_a_solver_that_gives_up_becomes_a_diagnostic(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(z3.Solver, "check", lambda self, *a: z3.unknown)
    monkeypatch.setattr(z3.Solver, "reason_unknown", lambda self: "timeout")
    findings, _ = analyze(compile_one(PLANTED["TL2012"]), Options(timeout_ms=1))
    assert [f.code for f in findings] == ["TL2019"]
    assert "timeout" in findings[0].message


def test_lint_usage_errors(tmp_path: Path) -> None:
    out = runner.invoke(app, ["lint", str(tmp_path / "missing.task")])
    assert out.exit_code == 2
    out = runner.invoke(app, ["lint", "--timeout", "0"])
    assert out.exit_code == 2


# ---------------------------------------------------------------- solver vs brute force
CLAUSES = [
    "settings.brightness == a",
    "settings.brightness > b",
    "settings.ring_volume <= a",
    "settings.wifi == f",
    "not settings.wifi or settings.brightness >= 3",
    "settings.brightness + settings.ring_volume == a + b",
    "settings.ring_volume != b",
    "settings.brightness - a < 2 and settings.brightness - a > -2",
]
GIVEN = {
    "brightness": ["a", "b", "2", "5"],
    "ring_volume": ["b", "a", "3", "0"],
    "wifi": ["f", "true", "false", "not f"],
}
CONSTRAINTS = ["", "a != b", "a < b + 2", "a > 4 and b > 4"]


@st.composite
def small_tasks(draw: st.DrawFn) -> str:
    low = draw(st.integers(0, 4))
    high = draw(st.integers(low, low + 4))
    choices = sorted(draw(st.sets(st.integers(0, 7), min_size=1, max_size=3)))
    given_lines = [
        f"settings.{name} = {draw(st.sampled_from(options))}"
        for name, options in GIVEN.items()
        if draw(st.booleans())
    ]
    clauses = draw(st.lists(st.sampled_from(CLAUSES), min_size=1, max_size=3, unique=True))
    constraint = draw(st.sampled_from(CONSTRAINTS))
    return f"""
task prop.small {{
  kind app
  apps settings
  goal "Set brightness {{a}}, volume {{b}}, wifi {{f}}."
  params {{
    a: int in {low} .. {high}
    b: one of [{", ".join(map(str, choices))}]
    f: one of [true, false]
  }}
  constraints {{ {constraint or "true"} }}
  given {{ {" ".join(given_lines)} }}
  expect {{
    {chr(10).join(clauses)}
  }}
  budget 5 steps
}}
"""


def instances(compiled: ir.CompiledTask) -> list[dict[str, Any]]:
    domains = {}
    for p in compiled.task.params:
        d = p.domain
        if isinstance(d, ir.RangeDomain):
            low, high = evaluate(d.low, _env(compiled)), evaluate(d.high, _env(compiled))
            domains[p.name] = list(range(low, high + 1))
        else:
            assert isinstance(d, ir.ChoiceDomain)
            domains[p.name] = [evaluate(v, _env(compiled)) for v in d.values]
    out = []
    for combo in itertools.product(*domains.values()):
        params = dict(zip(domains, combo, strict=True))
        state, _ = initial_state(compiled, params)
        env = Env(dict(compiled.apps), params, state)
        if all(evaluate(c, env) for c in compiled.task.constraints):
            out.append(params)
    return out


def _env(compiled: ir.CompiledTask) -> Env:
    from tasklang.verifiers.snapshot import WorldSnapshot

    return Env(dict(compiled.apps), {}, WorldSnapshot())


def vacuous_instances(compiled: ir.CompiledTask) -> list[dict[str, Any]]:
    hits = []
    for params in instances(compiled):
        state, _ = initial_state(compiled, params)
        if replay_do_nothing(compiled, params, state).success:
            hits.append(params)
    return hits


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_tasks())
def test_vacuity_agrees_with_brute_force(text: str) -> None:
    compiled = compile_one(text)
    analysis = Analysis(compiled)
    findings = analysis.run()
    codes = [f.code for f in findings]
    truth = vacuous_instances(compiled)
    if not instances(compiled):
        assert "TL2010" in codes, text
        return
    assert ("TL2012" in codes) == bool(truth), (text, codes, truth)
    for f in findings:
        if f.code == "TL2012":
            assert f.counterexample is not None
            assert f.counterexample["params"] in truth
    # every prediction of an exact encoding was confirmed by the verifier
    assert analysis.stats.refuted_exact == []


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_tasks())
def test_an_impossible_goal_has_no_final_state_that_passes(text: str) -> None:
    compiled = compile_one(text)
    findings, _ = analyze(compiled)
    if "TL2011" not in [f.code for f in findings]:
        return
    # the proof is over all final states; spot-check it over a grid of them
    for params in instances(compiled):
        state, _ = initial_state(compiled, params)
        for brightness, volume, wifi in itertools.product(
            range(-2, 16), range(-2, 16), (True, False)
        ):
            final = state.model_copy(deep=True)
            final.apps["settings"].settings.update(
                brightness=brightness, ring_volume=volume, wifi=wifi
            )
            env = Env(dict(compiled.apps), params, final)
            body = [c.body for c in compiled.task.clauses if isinstance(c.body, ir.CheckBody)]
            assert not all(evaluate(b.expr, env) for b in body), (text, params, final)


def test_a_goal_outside_the_app_models_types_cannot_hold() -> None:
    text = """
task planted.enum_goal {
  kind app
  apps settings
  goal "Set the font size to {size}."
  params { size: one of ["huge", "tiny"] }
  expect { settings.font_size == size }
  budget 10 steps
}
"""
    findings, _ = analyze(compile_one(text))
    assert [f.code for f in findings] == ["TL2011"]
    findings, _ = analyze(compile_one(text.replace('"huge", "tiny"', '"huge", "large"')))
    assert findings == []


def test_sample_cli_is_reproducible_and_distinct() -> None:
    args = ["sample", "contacts.add_coworker", "--seed", "7", "-n", "4", "--format", "json"]
    first, again = runner.invoke(app, args), runner.invoke(app, args)
    assert first.exit_code == 0 and first.stdout == again.stdout
    doc = json.loads(first.stdout)
    params = [json.dumps(i["params"], sort_keys=True) for i in doc["instances"]]
    assert len(set(params)) == 4
    other = runner.invoke(app, [*args[:3], "8", *args[4:]])
    assert other.exit_code == 0 and other.stdout != first.stdout
    assert runner.invoke(app, ["sample", "no.such_task"]).exit_code == 2
