"""`changes ... only on` and `changes ... nowhere`: the declaration, its checks, PhoneWorld
keeping to it, and the device checker counting what the episode's screens prove unchanged.

An app model may say on which screens the app lets a collection or setting change (or that it
never does). A phone that cannot read that state still knows it did not change along an
episode whose screens never showed one of those screens, so the clauses that watch it for
changes are decided; PhoneWorld refuses a change made anywhere else, so its world never drifts
from the model.
"""

from __future__ import annotations

import random

import pytest

from tasklang import ir
from tasklang.compiler import Compiler
from tasklang.envs.device.differential import library, near_misses, run_task
from tasklang.envs.phoneworld.app import UndeclaredChange
from tasklang.envs.phoneworld.episode import Episode, run_reference
from tasklang.fmt import format_source
from tasklang.source import SourceFile
from tasklang.verifiers.probes import quiet_state
from tasklang.verifiers.trajectory import Observation

RADIO = """\
app radio_demo {
  package "com.example.radio"
  record Station { name: text key  favourite: bool = false }
  record Genre { name: text key }
  collection stations: Station
  collection genres: Genre
  settings { volume: int = 5  bass: bool = false }
%s}
"""
DECLARED = (
    '  changes stations, volume only on text "Stations", id "com.example.radio:id/player"\n'
    "  changes genres nowhere\n"
)


def _compile(extra: str) -> tuple[dict[str, ir.AppModel], list[tuple[str, int, str]]]:
    result = Compiler().compile_text(RADIO % extra, path="radio.app")
    return dict(result.apps), [(d.code, d.span.line, d.message) for d in result.diagnostics]


def test_the_declaration_reaches_the_app_model() -> None:
    apps, diagnostics = _compile(DECLARED)
    assert diagnostics == []
    model = apps["radio_demo"]
    stations = model.change_screens("stations")
    assert stations is not None and stations == model.change_screens("volume")
    assert [[(a.attr, a.value) for a in s.attrs] for s in stations] == [
        [("text", "Stations")],
        [("id", "com.example.radio:id/player")],
    ]
    assert model.change_screens("genres") == []  # nowhere
    assert model.change_screens("bass") is None  # not said: any step may change it


def test_the_formatter_keeps_the_declaration() -> None:
    formatted, diagnostics = format_source(SourceFile("radio.app", RADIO % DECLARED))
    assert diagnostics == [] and formatted is not None
    assert DECLARED in formatted
    assert Compiler().compile_text(formatted, path="radio.app").diagnostics == []


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("  changes station nowhere\n", "has no collection or setting `station`"),
        ("  changes genres, genres nowhere\n", "where `genres` changes is said twice"),
        (
            '  changes genres nowhere\n  changes genres only on text "x"\n',
            "where `genres` changes is said twice",
        ),
    ],
)
def test_each_name_is_state_of_the_app_said_of_once(line: str, message: str) -> None:
    _, diagnostics = _compile(line)
    assert diagnostics and {code for code, _, _ in diagnostics} == {"TL1033"}
    assert message in diagnostics[0][2]


def test_a_half_written_declaration_is_a_located_syntax_error() -> None:
    _, diagnostics = _compile("  changes genres only on\n")
    assert [(code, line) for code, line, _ in diagnostics] == [("TL0002", 9)]


def test_changes_is_still_a_name_elsewhere() -> None:
    text = (RADIO % "").replace("favourite: bool", "changes: int = 0  favourite: bool")
    assert Compiler().compile_text(text, path="radio.app").diagnostics == []


# ---------------------------------------------------------------- PhoneWorld keeps to it
def _settings_episode(screens: list[ir.Selector]) -> Episode:
    ep = Episode(library()["androidworld.system_wifi_turn_off"], 0)
    ep.phone.change_screens[("settings", "wifi_networks")] = screens
    return ep


def _wifi_steps() -> list[dict[str, object]]:
    _, traj = run_reference(library()["androidworld.system_wifi_turn_off"], 0)
    out = []
    for step in traj.steps:
        assert step.action is not None
        out.append(step.action.model_dump(exclude_none=True))
    return out


def test_phoneworld_refuses_a_change_on_a_screen_the_model_does_not_name() -> None:
    nowhere = _settings_episode([ir.Selector(attrs=[ir.UiAttr(attr="text", value="Bluetooth")])])
    before = nowhere.phone.world().apps["settings"].collections["wifi_networks"]
    with pytest.raises(UndeclaredChange, match=r"settings\.wifi_networks changed on a screen"):
        for action in _wifi_steps():
            nowhere.step(action)
    # the apps' data is as it was before the refused action
    assert nowhere.phone.world().apps["settings"].collections["wifi_networks"] == before


def test_the_library_declares_where_settings_lists_change() -> None:
    settings = library()["settings.set_volumes"].apps["settings"]
    for name in ("wifi_networks", "bluetooth_devices", "app_notifications"):
        assert settings.change_screens(name), name
    assert settings.change_screens("brightness") is None
    assert library()["mini.movies_sold_out"].apps["movies"].change_screens("films") == []


def test_the_reference_solutions_keep_to_the_declarations() -> None:
    """Every library task whose apps declare where their state changes runs its reference
    solution (two instances) without a change anywhere else."""
    for compiled in library().values():
        if any(model.changes for model in compiled.apps.values()):
            for seed in (0, 1):
                verdict, _ = run_reference(compiled, seed)
                assert verdict.success, (compiled.task.id, seed)


# ---------------------------------------------------------------- what the screens prove
def _quiet(task: str) -> set[tuple[str, str]]:
    compiled = library()[task]
    _, traj = run_reference(compiled, 0)
    return set(quiet_state(compiled, traj.steps))


def test_an_episode_that_never_shows_the_wifi_pages_leaves_the_networks_unchanged() -> None:
    volumes = _quiet("settings.set_volumes")
    assert {("settings", "wifi_networks"), ("settings", "bluetooth_devices")} <= volumes
    assert ("settings", "app_notifications") in volumes
    wifi = _quiet("androidworld.system_wifi_turn_off")
    assert ("settings", "wifi_networks") not in wifi  # the episode was on the Wi-Fi page
    assert ("settings", "app_notifications") in wifi


def test_a_step_without_its_screen_proves_only_what_changes_nowhere() -> None:
    compiled = library()["mini.movies_sold_out"]
    _, traj = run_reference(compiled, 0)
    blind = [traj.steps[0].model_copy(update={"observation": Observation()}), *traj.steps[1:]]
    quiet = quiet_state(compiled, blind)
    assert ("movies", "films") in quiet and ("movies", "cinemas") in quiet
    assert all(not compiled.apps[a].change_screens(n) for a, n in quiet)
    settings = library()["settings.set_volumes"]
    _, traj = run_reference(settings, 0)
    blind = [s.model_copy(update={"observation": Observation()}) for s in traj.steps]
    assert quiet_state(settings, blind) == frozenset()


def test_the_phone_decides_guards_over_state_it_cannot_read() -> None:
    """`only changed settings.*_volume`-style guards watch the Wi-Fi and Bluetooth lists, which a
    phone reads only from their pages: the episode's screens decide them."""
    for task in ("settings.set_volumes", "androidworld.system_brightness_max"):
        cases = run_task(library()[task], 0)
        reference = cases[0]
        assert reference.name == "reference" and reference.device is True, task
        assert all(c.agrees for c in cases), task


def test_near_misses_leave_the_state_the_screens_prove_unchanged() -> None:
    compiled = library()["mini.movies_adjacent_seats"]
    _, traj = run_reference(compiled, 0)
    final = traj.final.snapshot
    assert final is not None
    quiet = quiet_state(compiled, traj.steps)
    every = near_misses(compiled, final, random.Random(0), 100)
    kept = near_misses(compiled, final, random.Random(0), 100, quiet)
    touched = {name for name, _ in every} - {name for name, _ in kept}
    assert touched and all(".films[" in n or ".cinemas[" in n for n in touched)
