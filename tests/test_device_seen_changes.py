"""A change the readings after each step show, on a collection some of whose fields are not
read (a running timer's time left), happened: `eventually` and `then` are decided true and
`never` false where the readings, cut down to the fields read exactly, show it."""

from __future__ import annotations

from typing import Any

from tasklang import ir
from tasklang.compiler import Compiler
from tasklang.envs.device.differential import library, run_task
from tasklang.envs.device.probes import coverage
from tasklang.verifiers.check import Episode, Moment
from tasklang.verifiers.probes import clause_problem, decide_seen
from tasklang.verifiers.snapshot import AppState, WorldSnapshot
from tasklang.verifiers.trajectory import Action

TASK = """
task probe.timers {
  kind app
  apps clock
  goal "x"
  expect {
    trace eventually changed clock.timers where state == "running"
    trace eventually changed clock.timers where remaining < 4m
  }
  forbid {
    changed clock.timers where state == "running"
  }
}
"""


def _compiled() -> ir.CompiledTask:
    result = Compiler().compile_text(TASK, path="timers.task")
    assert result.ok and result.tasks, [d.message for d in result.diagnostics]
    return result.tasks[0]


def _world(*timers: dict[str, Any]) -> WorldSnapshot:
    return WorldSnapshot(apps={"clock": AppState(collections={"timers": list(timers)})})


PAUSED = {"length": 300, "label": "Tea", "state": "paused", "remaining": 240}


def _episode(initial: WorldSnapshot, *readings: WorldSnapshot) -> Episode:
    click = Action(action_type="click", x=10, y=10)
    moments = [Moment(i, None, "com.google.android.deskclock", None, click, r)
               for i, r in enumerate(readings)]  # fmt: skip
    return Episode({}, initial, moments, readings[-1], "complete", None)


def _decide(ep: Episode) -> dict[str, bool | None]:
    compiled = _compiled()
    cov = coverage(compiled).partly_read({("clock", "timers", "remaining")})
    out = {}
    for clause in compiled.task.clauses:
        assert clause_problem(clause, compiled, cov, steps=True) is not None
        result = decide_seen(clause, compiled, cov, ep, True)
        out[clause.id] = None if result is None else result.passed
    return out


def test_a_timer_seen_starting_decides_the_clauses_that_watch_it() -> None:
    running = {"length": 300, "label": "Tea", "state": "running"}  # read without time left
    got = _decide(_episode(_world(PAUSED), _world(PAUSED), _world(running)))
    # started: seen; the time left is not read, so a change to it is not decided
    assert got == {"c1": True, "c2": None, "s3": False}


def test_a_change_to_fields_not_read_is_never_seen() -> None:
    # the time left ran down while the timer ran (the world before the episode holds it),
    # which no reading shows
    running = {"length": 300, "label": "Tea", "state": "running"}
    got = _decide(_episode(_world({**running, "remaining": 300}), _world(running), _world(running)))
    assert got == {"c1": None, "c2": None, "s3": None}


def test_the_library_timer_started_is_decided_on_a_phone() -> None:
    cases = run_task(library()["clock.start_timer"], 0)
    assert all(c.agrees for c in cases)
    reference = cases[0]
    assert reference.device is True and reference.unobservable == {}
