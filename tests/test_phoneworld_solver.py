"""`tasklang solve`: best-first search over PhoneWorld finds action sequences the verifier
accepts, reports how much it explored, writes trajectories `tasklang check` accepts, and uses
only what an agent could know."""

from __future__ import annotations

import datetime as dt
import doctest
import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tasklang.cli import app
from tasklang.compiler import Compiler, library_root
from tasklang.envs.phoneworld import goaltext, judge, readings, solver
from tasklang.envs.phoneworld.app import AppData
from tasklang.envs.phoneworld.benchsolve import bench_solve, text_report
from tasklang.envs.phoneworld.goaltext import fits, goal_texts, keypad_numbers
from tasklang.envs.phoneworld.readings import computed_answers, goal_values, read, relative_dates
from tasklang.envs.phoneworld.solver import Solver, solve

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
    assert fits("budget_review", "Title new_file_dialog__name") > 0  # a file name is a name


def test_candidate_texts_come_from_the_goal() -> None:
    goal = "Add the expense: name: Book club dues, amount: $28.50. Check WeChat's Life Payments."
    texts = goal_texts(goal, ["Book club dues"])
    assert texts[0] == "Book club dues" and "28.50" in texts and "Life Payments" in texts
    assert "28" not in texts and "Check" not in texts  # no stem of a number, no first word
    assert "Dana" in goal_texts("Call Dana Weber now.", ["Dana Weber"])  # parts of a name


def test_goal_texts_leave_out_apostrophes_and_parts_of_numbers() -> None:
    texts = goal_texts("Top up Grandma's phone number 13916637204 with $100.00 in WeChat's app", [])
    assert "100.00" in texts and not any(t.startswith("s ") for t in texts)
    texts = goal_texts("Change the servings from 6 to 8; call +1 415 555 0187 on 2026-05-14.", [])
    assert "6" in texts and "8" in texts and "415" not in texts and "2026" not in texts


def test_module_examples() -> None:
    for module in (solver, goaltext, judge, readings):
        assert doctest.testmod(module).failed == 0


def test_screens_are_read_as_typed_values() -> None:
    today = dt.date(2026, 5, 14)
    assert read("$ 1,450.00").money == 145000 and read("2.48 MB").size == 2_480_000
    assert read("9:30 AM - 9:45 AM").end == dt.time(9, 45) and read("24:26").seconds == 1466
    assert read("Yesterday, 7:40 PM", today).date == dt.date(2026, 5, 13)
    assert read("Wed, May 20", today).date == dt.date(2026, 5, 20)
    assert read("4.8").number == 4.8 and read("Row 3 Seat 7") == readings.Reading("Row 3 Seat 7")
    # "next week (Monday to Sunday)" from a Thursday; "since Monday" is this week's
    assert relative_dates("due next week", today) == [dt.date(2026, 5, 18), dt.date(2026, 5, 24)]
    assert dt.date(2026, 5, 11) in relative_dates("since Monday", today)


def test_answers_are_computed_from_rows_the_goal_picks() -> None:
    today = dt.date(2026, 5, 14)
    goal = "How long did I talk with Ana today? Don't count missed calls."
    calls = tuple(
        (("name", name), ("when", when), ("kind", kind), ("length", length))
        for name, when, kind, length in [
            ("Ana", "4:55 PM", "Outgoing call", "24:26"),
            ("Bo", "2:30 PM", "Incoming call", "01:05"),
            ("Ana", "12:47 PM", "Missed call", "00:00"),
            ("Ana", "8:12 AM", "Incoming call", "15:00"),
            ("Ana", "Yesterday, 7:40 PM", "Outgoing call", "20:00"),
        ]
    )
    answers = computed_answers({"calls": calls}, ["Ana"], goal_values(goal, today), today)
    assert "39m 26s" in answers  # today's calls with Ana, summed
    assert "3" in answers and "Ana, Bo, Ana, Ana, Ana" in answers  # counts and lists
    assert "1h 0m 31s" in answers  # every call


def test_answers_are_computed_from_what_the_screens_show() -> None:
    # a list filtered by the goal's words and a size it names
    pdfs = solve(LIBRARY["files.large_pdfs"], seed=0, time_limit=BIG, max_states=STATES)
    assert pdfs.found, pdfs.summary()
    assert set(pdfs.actions[-1]["text"].split(", ")) == {"lease_agreement.pdf", "Q1_report.pdf"}
    # durations summed over the rows of one person's calls of today
    talk = solve(LIBRARY["phone.talk_time_today"], seed=0, time_limit=BIG, max_states=STATES)
    assert talk.found and talk.trajectory is not None, talk.summary()
    shown = " ".join(s.observation.ui_xml or "" for s in talk.trajectory.steps)
    assert talk.actions[-1]["action_type"] == "answer"
    assert talk.actions[-1]["text"] not in shown  # computed, not read off a screen


def test_a_text_seen_on_the_way_is_typed() -> None:
    # "resend the message I just sent": the message is only on the conversation's screen
    result = solve(LIBRARY["androidworld.simple_sms_resend"], 0, BIG, max_states=STATES)
    assert result.found, result.summary()
    typed = [a["text"] for a in result.actions if a["action_type"] == "input_text"]
    assert typed and all(t not in result.trajectory.header.goal for t in typed)  # type: ignore[union-attr]


def test_menus_opened_for_different_rows_are_different_states() -> None:
    # each call's "More options" opens the same menu; only the row it acts on differs
    result = solve(LIBRARY["phone.block_repeat_caller"], 0, BIG, max_states=STATES)
    assert result.found and len(result.actions) <= 5, result.summary()


def test_keypad_numbers_key_durations_and_times() -> None:
    assert keypad_numbers("Set a timer for 14 minutes.")[0] == "1400"
    assert keypad_numbers("a timer for 1 hour 30 minutes")[0] == "13000"
    assert "730" in keypad_numbers("wake me at 7:30")


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


@pytest.mark.parametrize(
    "task_id",
    [
        "settings.enable_dark_theme",
        "yelp.open_salon_page",
        "camera.take_photos",
        "mini.ride_cancel_with_reason",  # eleven steps through a mini program
        "androidworld.simple_calendar_events_in_time_range",  # a day, then a time range
    ],
)
def test_solves_more_library_tasks(task_id: str) -> None:
    result = solve(LIBRARY[task_id], seed=0, time_limit=BIG, max_states=STATES)
    assert result.found, result.summary()
    assert result.verdict is not None and result.verdict.success


def test_keys_a_duration_on_the_timer_keypad() -> None:
    compiled = LIBRARY["clock.start_timer"]
    solver = Solver(compiled, seed=0, time_limit=BIG, max_states=STATES)
    result = solver.run()
    assert result.found and result.trajectory is not None
    tapped = []
    for step in result.trajectory.steps:
        if step.action is not None and step.action.action_type == "click":
            assert step.observation.ui_xml is not None
            tapped.append(step.action.index)
    # one tap per digit of the countdown (minutes and seconds), then Start
    assert len(tapped) >= len(solver.keypad[0]) + 1


def test_taps_address_the_element_a_trace_clause_names() -> None:
    # the task's trace clause wants a click on the record button's id, not on its container
    result = solve(
        LIBRARY["androidworld.audio_recorder_record_audio"], 0, time_limit=BIG, max_states=STATES
    )
    assert result.found, result.summary()


def test_state_clauses_gate_the_full_verifier() -> None:
    # most states fail a cheap state clause; the full verifier runs only where they all hold
    result = solve(LIBRARY["markor.create_note"], seed=0, time_limit=BIG, max_states=STATES)
    assert result.found, result.summary()
    assert result.verifier_runs <= 3 < result.generated
    packages = (
        {s.observation.package for s in result.trajectory.steps} if result.trajectory else set()
    )
    assert not any("chrome" in (p or "") for p in packages)  # it stays in the task's apps


def test_an_infeasible_task_is_declared_infeasible() -> None:
    result = solve(LIBRARY["clock.impossible_alarm"], seed=0, time_limit=BIG, max_states=STATES)
    assert result.found
    assert result.actions[-1] == {"action_type": "status", "goal_status": "infeasible"}


def test_a_yes_or_no_is_given_only_where_the_thing_asked_about_shows() -> None:
    # "is my order A1127 ready? answer yes or no": no yes / no on a screen that does not show
    # the order (nor one where the number is only what the agent typed into a search)
    compiled = LIBRARY["mini.coffee_order_status"]
    solver = Solver(compiled, seed=0, time_limit=BIG)
    assert not any(a.get("text") in ("yes", "no") for a in solver.endings({}))
    result = solve(compiled, seed=0, time_limit=BIG, max_states=STATES)
    assert result.found and result.trajectory is not None, result.summary()
    assert result.actions[-1] == {"action_type": "answer", "text": result.actions[-1]["text"]}
    assert result.actions[-1]["text"] in ("yes", "no")
    last = result.trajectory.steps[-1].observation.ui_xml or ""
    assert re.search(r'text="[^"]*\bA1127\b[^"]*"', last)  # the order is on the screen


def test_bench_reports_each_task_and_totals() -> None:
    tasks = ["settings.ensure_wifi_on", "contacts.add_coworker", "mini.coffee_order_status"]
    figures = bench_solve(tasks, 0, BIG, 20)
    rows = {r["task"]: r for r in figures["tasks"]}
    assert rows["settings.ensure_wifi_on"]["solved"] and rows["settings.ensure_wifi_on"]["steps"]
    assert rows["contacts.add_coworker"]["explored"] == 20
    assert rows["contacts.add_coworker"]["reference_steps"] == 13
    assert rows["mini.coffee_order_status"]["kind"] == "mini_app"
    totals = figures["totals"]
    assert totals["solved"] == 1 + rows["mini.coffee_order_status"]["solved"]
    assert totals["by_kind"]["app"] == {"tasks": 2, "solved": 1}
    assert totals["by_kind"]["mini_app"]["tasks"] == 1
    text = text_report(figures)
    assert "settings.ensure_wifi_on" in text and "by kind: app 1 of 2, mini_app" in text
    with pytest.raises(KeyError):
        bench_solve(["no.such_task"], 0, BIG, 1)


def test_bench_solve_command_line() -> None:
    result = runner.invoke(
        app,
        [
            "bench",
            "solve",
            "--task",
            "settings.ensure_wifi_on",
            "--max-states",
            "50",
            "--format",
            "json",
        ],
    )
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert figures["totals"] == figures["totals"] | {"tasks": 1, "solved": 1}
    assert figures["max_states"] == 50
    bad = runner.invoke(app, ["bench", "solve", "--task", "no.such_task"])
    assert bad.exit_code == 2 and "no task `no.such_task`" in bad.stderr


def test_a_state_that_breaks_a_forbid_for_good_is_lost() -> None:
    # "delete the notes in a folder, and no other": deleting a note of another folder can
    # never be undone, so the search drops the state
    compiled = LIBRARY["androidworld.markor_delete_all_notes"]
    solver = Solver(compiled, seed=0, time_limit=BIG)
    phone = solver.ep.phone
    assert not solver.judge.lost(("start",), phone.world)
    shelf = str(solver.ep.instance.params["shelf"])  # type: ignore[union-attr]
    data = phone.state["markor"]

    def without(collection: str, keep: Any) -> AppData:
        rows = [r for r in data.collections[collection] if keep(r)]
        return AppData({**data.collections, collection: rows}, data.settings)

    # the folder's own notes may go: that is the task
    phone.state = {**phone.state, "markor": without("files", lambda r: r.get("folder") != shelf)}
    assert not solver.judge.lost(("notes gone",), phone.world)
    # a note of another folder may not
    other = next(r for r in data.collections["files"] if r.get("folder") != shelf)
    phone.state = {**phone.state, "markor": without("files", lambda r: r is not other)}
    assert solver.judge.lost(("another note gone",), phone.world)


def test_meeting_a_subgoal_puts_the_search_ahead_there() -> None:
    # "remove a song from the playlist and move another to the top": the removal meets the
    # task's subgoal, and the search goes on from that state (a climber's move), rather than
    # back to the many shallower states whose last step looked more like the goal
    compiled = LIBRARY["music.reorder_playlist"]
    solver = Solver(compiled, seed=0, time_limit=BIG)
    phone = solver.ep.phone
    assert solver.judge.milestones(("start",), phone.world) == 0
    params = solver.ep.instance.params  # type: ignore[union-attr]
    gone = params["edit"]["gone"]
    data = phone.state["music"]
    lists = [
        {**p, "songs": [s for s in p["songs"] if s != gone]}
        if p["name"] == params["pl_name"]
        else p
        for p in data.collections["playlists"]
    ]
    phone.state = {
        **phone.state,
        "music": AppData({**data.collections, "playlists": lists}, data.settings),
    }
    assert solver.judge.milestones(("removed",), phone.world) == 1
    result = solve(compiled, seed=0, time_limit=BIG, max_states=2000)
    assert result.found, result.summary()
    assert result.verdict is not None and result.verdict.success
