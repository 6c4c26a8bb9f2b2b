"""Collections an app keeps in its shared preferences, a record per id (DeskClock's timers,
laps and world clocks): read exactly from the file as Android writes it, or left unread."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from tasklang import ir
from tasklang.envs.device import parse
from tasklang.envs.device.check import not_kept
from tasklang.envs.device.differential import library, near_misses, run_task
from tasklang.envs.device.phoneworld import PhoneWorldTransport
from tasklang.envs.device.probes import (
    ProbeSpec,
    coverage,
    prefs_hold,
    prefs_records,
    probe_specs,
    read_world,
)
from tasklang.envs.device.setup import build_plan
from tasklang.envs.device.shell import shell_line
from tasklang.envs.phoneworld.episode import run_reference
from tasklang.verifiers.snapshot import AppState, WorldSnapshot

CLOCK = library()["clock.start_timer"]
SPECS = {s.target: s for s in probe_specs(CLOCK) if s.app == "clock"}

# as DeskClock writes its default preferences: a paused timer with a label and a reset one
# without, two laps and two cities, among the settings' own entries
DESKCLOCK_XML = """<?xml version='1.0' encoding='utf-8' standalone='yes' ?>
<map>
    <int name="next_timer_id" value="8" />
    <set name="timers_list">
        <string>7</string>
        <string>3</string>
    </set>
    <int name="timer_state_3" value="2" />
    <long name="timer_setup_timet_3" value="600000" />
    <long name="timer_original_timet_3" value="660000" />
    <long name="timer_start_time_3" value="-9223372036854775808" />
    <long name="timer_wall_clock_time_3" value="-9223372036854775808" />
    <long name="timer_time_left_3" value="240000" />
    <string name="timer_label_3">Tea &amp; toast</string>
    <boolean name="delete_after_use_3" value="false" />
    <int name="timer_state_7" value="4" />
    <long name="timer_setup_timet_7" value="90000" />
    <long name="timer_original_timet_7" value="90000" />
    <long name="timer_time_left_7" value="90000" />
    <boolean name="delete_after_use_7" value="false" />
    <int name="sw_state" value="2" />
    <long name="sw_accum_time" value="291000" />
    <int name="sw_lap_num" value="2" />
    <long name="sw_lap_time_1" value="92000" />
    <long name="sw_lap_time_2" value="193000" />
    <int name="number_of_cities" value="2" />
    <string name="city_id_0">C178</string>
    <string name="city_id_1">C139</string>
</map>
"""


def entries(text: str = DESKCLOCK_XML) -> dict[str, str | None]:
    return parse.parse_prefs_file(text)


def read(target: str, text: str = DESKCLOCK_XML) -> list[dict[str, Any]]:
    return prefs_records(SPECS[target], entries(text))


def test_deskclock_timers_laps_and_cities_are_read_exactly() -> None:
    assert read("timers") == [
        {"length": 600, "label": "Tea & toast", "state": "paused", "remaining": 240},
        {"length": 90, "label": "", "state": "reset", "remaining": 90},
    ]
    assert read("laps") == [
        {"number": 1, "total": 92, "lap_time": 92},
        {"number": 2, "total": 193, "lap_time": 101},
    ]
    assert read("world_clocks") == [
        {"city": "London", "time_zone": "Europe/London"},
        {"city": "Tokyo", "time_zone": "Asia/Tokyo"},
    ]


def test_no_id_entry_is_no_record() -> None:
    empty = '<map><int name="next_timer_id" value="3" /></map>'
    assert read("timers", empty) == read("laps", empty) == read("world_clocks", empty) == []


@pytest.mark.parametrize(
    ("target", "old", "new", "why"),
    [
        ("timers", '<int name="timer_state_3" value="2" />',
         '<int name="timer_state_3" value="5" />', "unexpected value '5'"),
        ("timers", '<long name="timer_time_left_3" value="240000" />',
         '<long name="timer_time_left_3" value="239517" />', "no whole number of seconds"),
        ("timers", '<long name="timer_setup_timet_7" value="90000" />', "",
         "record 7 has no entry `timer_setup_timet_7` for `length`"),
        ("timers", "<string>7</string>", "<string>seven</string>", "'seven', which is no id"),
        ("timers", "<string>7</string>", "<string>07</string><string>3</string>",
         "names a record twice"),
        ("timers", "<string>7</string>", "<string>7</string><string>9</string>",
         "record 9 has no entry `timer_setup_timet_9`"),
        ("laps", '<long name="sw_lap_time_1" value="92000" />', "",
         "record 1 has no entry `sw_lap_time_1`"),
        ("laps", '<int name="sw_lap_num" value="2" />',
         '<int name="sw_lap_num" value="3" />', "record 3 has no entry `sw_lap_time_3`"),
        ("world_clocks", '<string name="city_id_1">C139</string>',
         '<string name="city_id_1">C258</string>', "unexpected value 'C258'"),
        ("world_clocks", '<int name="number_of_cities" value="2" />',
         '<string name="number_of_cities">two</string>', "'two', which is no count"),
    ],
)  # fmt: skip
def test_entries_that_do_not_give_the_records_back_leave_them_unread(
    target: str, old: str, new: str, why: str
) -> None:
    assert old in DESKCLOCK_XML
    with pytest.raises(parse.Unread, match="clock." + target) as exc:
        read(target, DESKCLOCK_XML.replace(old, new))
    assert why in str(exc.value)


def clock_world(**collections: list[dict[str, Any]]) -> WorldSnapshot:
    world = WorldSnapshot(clock="2026-05-14T08:30:00")
    world.apps["clock"] = AppState(collections={"alarms": [], "timers": [], "laps": [],
                                                "world_clocks": [], **collections})  # fmt: skip
    return world


def read_back(world: WorldSnapshot) -> tuple[AppState, dict[tuple[str, str], str]]:
    transport = PhoneWorldTransport(CLOCK, lambda: world, lambda: "<hierarchy/>")
    reading = read_world(CLOCK, lambda argv: transport.shell(shell_line(argv)))
    return reading.snapshot.apps["clock"], reading.unread


@pytest.mark.parametrize(
    ("target", "records"),
    [
        ("laps", [{"number": 1, "lap_time": 92, "total": 92},
                  {"number": 1, "lap_time": 92, "total": 92}]),
        ("laps", [{"number": 1, "lap_time": 50, "total": 92}]),
        ("world_clocks", [{"city": "London", "time_zone": "Europe/Paris"}]),
        ("world_clocks", [{"city": "Sao Paulo", "time_zone": "America/Sao_Paulo"}]),
    ],
)  # fmt: skip
def test_records_a_phone_cannot_keep_as_they_are_read_back_unread(
    target: str, records: list[dict[str, Any]]
) -> None:
    """Two laps numbered 1, a lap time that is not the difference of the totals, a city in
    another zone, a city the phone names otherwise: none is read as some other record."""
    state, unread = read_back(clock_world(**{target: records}))
    assert ("clock", target) in unread and target not in state.collections


def test_a_running_timer_is_read_without_its_time_left() -> None:
    """A running timer's time left moves with the clock, so its record is read without it
    (the field is then read only in the records that hold it); a paused one holds it."""
    running = {"length": 600, "label": "", "state": "running", "remaining": 240}
    paused = {"length": 90, "label": "tea", "state": "paused", "remaining": 30}
    state, unread = read_back(clock_world(timers=[running, paused]))
    assert not unread
    assert state.collections["timers"] == [
        {"length": 600, "label": "", "state": "running"},
        paused,
    ]
    lacking = not_kept(CLOCK, [WorldSnapshot(apps={"clock": state})])
    assert lacking == {("clock", "timers", "remaining")}
    cov = coverage(CLOCK).partly_read(lacking)
    assert cov.partly[("clock", "timers")] == {"remaining"}
    assert {"length", "label", "state"} <= cov.fields[("clock", "timers")]


def test_a_task_that_guards_a_paused_timer_is_decided_on_a_phone(
    decided_on_a_phone: Callable[..., None],
) -> None:
    """The stopwatch task's tea timer is paused (a running one counts down by itself, so a
    guard on it could not be kept by any agent): read whole, it proves the timers
    unchanged."""
    decided_on_a_phone("androidworld.clock_stop_watch_paused_verify")


def test_setup_says_it_does_not_write_records_kept_in_shared_preferences() -> None:
    world = clock_world(timers=[{"length": 60, "label": "", "state": "reset", "remaining": 60}])
    plan = build_plan(CLOCK, world)
    notes = [n for n in plan.notes if n.startswith(("clock.timers:", "clock.laps:"))]
    assert any(n.startswith("clock.timers: records in the app's shared preferences") and
               "prepare the 1 record(s)" in n for n in notes)  # fmt: skip
    assert any(n.startswith("clock.laps:") and "starts with none" in n for n in notes)
    assert not any("timer" in " ".join(c.argv) for c in plan.setup)


@pytest.mark.parametrize(
    ("form", "column", "message"),
    [
        ("set", "timer_label_", "names no entry by the record's id"),
        ("set", "timer_label_{id} seconds", "`seconds` keeps a duration, not `text`"),
        ("lines", "timer_label_{id}", "needs `set`, `indexed` or `numbered`"),
        ("set", "timer_label_{id} while kind is x", "record `Timer` has no field `kind`"),
    ],
)
def test_a_prefs_probe_of_a_collection_names_entries_that_fit(
    form: str, column: str, message: str
) -> None:
    from tasklang.compiler import Compiler

    path = "/data/data/com.example.t/shared_prefs/t.xml"
    app = (
        'app t {\n  package "com.example.t"\n  record Timer {\n    label: text = ""\n  }\n'
        f'  collection timers: Timer\n  probe timers: prefs "{path}"\n'
        f'    key "ids" {form} {{ label = "{column}" }}\n}}\n'
    )
    result = Compiler().compile_text(app, "t.app")
    texts = [d.message for d in result.diagnostics if d.code == "TL1023"]
    assert any(message in t for t in texts), texts


def test_every_clock_collection_is_read_in_full() -> None:
    from tasklang.envs.device.probes import coverage

    cov = coverage(CLOCK)
    assert {("clock", c) for c in ("alarms", "timers", "laps", "world_clocks")} <= cov.complete
    assert all(isinstance(s, ProbeSpec) and s.probe.source != "ui" for s in SPECS.values())
    assert isinstance(CLOCK, ir.CompiledTask)


def test_prefs_hold_says_which_records_the_app_can_keep() -> None:
    laps = SPECS["laps"]
    kept = [{"number": 1, "lap_time": 92, "total": 92}, {"number": 2, "lap_time": 8, "total": 100}]
    assert prefs_hold(laps, kept) and prefs_hold(laps, [])
    assert not prefs_hold(laps, kept[1:])  # lap 1 missing: numbered by their place
    assert not prefs_hold(laps, [kept[0], {**kept[1], "lap_time": 9}])  # not the difference


def test_near_misses_of_the_laps_are_states_the_stopwatch_can_be_in() -> None:
    """Dropping the first lap, or changing one lap's total alone, makes laps no stopwatch
    keeps (and a phone would leave unread): the differential makes no such near miss. A
    lap more is the next lap, numbered and timed as the stopwatch keeps it."""
    compiled = library()["androidworld.clock_stop_watch_paused_verify"]
    _, traj = run_reference(compiled, 0)
    final = traj.final.snapshot
    assert final is not None
    [spec] = [s for s in probe_specs(compiled) if s.key == ("clock", "laps")]
    misses = near_misses(compiled, final, random.Random(0), 400)
    laps = [world.apps["clock"].collections["laps"] for n, world in misses if ".laps" in n]
    assert all(prefs_hold(spec, records) for records in laps)
    [more] = [world for n, world in misses if n.startswith("duplicate clock.laps")]
    *before, last = more.apps["clock"].collections["laps"]
    assert last["number"] == len(before) + 1
    assert last["total"] == before[-1]["total"] + last["lap_time"]
    assert all(c.agrees and c.device is not None for c in run_task(compiled, 0))
