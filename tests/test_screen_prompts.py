"""A screen probe's step `tap SELECTOR if shown`: a tap on a prompt an app shows only at times
(its first run's), passed over where the screen does not show it. The language, the reading
on a phone, and Yelp's bookmarks, which the app's first-run prompts stand in front of while
signed out, read before and after an episode and decided both ways from where the episode's
taps could save or remove one."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from tasklang import ir
from tasklang.compiler import Compiler
from tasklang.envs.device.check import probe
from tasklang.envs.device.differential import judge, library, start_reading
from tasklang.envs.device.phoneworld import PhoneWorldTransport
from tasklang.envs.device.screens import screen_specs
from tasklang.envs.phoneworld.episode import run_reference
from tasklang.fmt import format_source
from tasklang.source import SourceFile
from tasklang.verifiers.probes import closed_state, kept_state, quiet_state
from tasklang.verifiers.snapshot import WorldSnapshot

APP = """\
app notes_demo {
  package "com.example.notes"
  record Note { title: text key  if: bool = false }
  collection notes: Note
  probe notes: screen (
    %s
    tap text "Notes",
  ) rows id "note" {
    title = id "title",
  }
}
"""
PROMPT = 'tap text "Not now" if shown,'


def _compile(step: str) -> tuple[ir.AppModel | None, list[str]]:
    result = Compiler().compile_text(APP % step, path="notes.app")
    return result.apps.get("notes_demo"), [d.message for d in result.diagnostics]


# ---------------------------------------------------------------- the language
def test_a_tap_if_shown_reaches_the_probe_and_the_formatter_keeps_it() -> None:
    app, diagnostics = _compile(PROMPT)
    assert diagnostics == [] and app is not None
    [notes] = app.probes
    assert [(s.action, s.if_shown) for s in notes.steps] == [("tap", True), ("tap", False)]
    assert notes.steps[0].selector is not None
    assert [(a.attr, a.value) for a in notes.steps[0].selector.attrs] == [("text", "Not now")]
    once, _ = format_source(SourceFile("notes.app", APP % PROMPT))
    assert '(tap text "Not now" if shown, tap text "Notes")' in once
    assert format_source(SourceFile("notes.app", once))[0] == once


def test_if_is_a_keyword_only_where_it_can_appear() -> None:
    """A record's field may still be called `if` (the record above has one)."""
    app, diagnostics = _compile("")
    assert diagnostics == [] and app is not None
    record = app.record("Note")
    assert record is not None and record.field("if") is not None


@pytest.mark.parametrize("step", ['tap text "Not now" if,', 'type "x" if shown,'])
def test_if_shown_only_ends_a_tap(step: str) -> None:
    _, diagnostics = _compile(step)
    assert any("unexpected" in d for d in diagnostics), diagnostics


# ---------------------------------------------------------------- reading on a phone
def _taps(transport: PhoneWorldTransport) -> int:
    return sum(line.startswith("input tap ") for line in transport.lines)


def _read(compiled: ir.CompiledTask, world: WorldSnapshot) -> tuple[Any, PhoneWorldTransport]:
    transport = PhoneWorldTransport(compiled, lambda: world, lambda: "")
    return probe(compiled, transport, screens=True, sleep=lambda s: None), transport


def test_the_way_to_yelps_bookmarks_passes_its_first_run_prompts_where_they_show() -> None:
    compiled = library()["yelp.ensure_bookmark"]
    [spec] = [s for s in screen_specs(compiled) if s.target == "bookmarks"]
    assert 'tap text "No, not now" if shown, tap text "I\'m New" if shown' in spec.describe()
    _, traj = run_reference(compiled, 0)
    start = traj.header.instance.initial
    assert start is not None
    saved = sorted(b["business"] for b in start.apps["yelp"].collections["bookmarks"])
    assert saved, "the task starts with bookmarks to read"

    # signed out: the opt-in, then the sign-up splash, then its Skip, then the bookmarks
    reading, transport = _read(compiled, start)
    assert not reading.unread, reading.unread
    rows = reading.snapshot.apps["yelp"].collections["bookmarks"]
    assert sorted(r["business"] for r in rows) == saved
    assert _taps(transport) == 4

    # signed in: the app opens on Nearby, and no prompt is tapped
    signed_in = copy.deepcopy(start)
    signed_in.apps["yelp"].settings["signed_in"] = True
    reading, transport = _read(compiled, signed_in)
    assert not reading.unread, reading.unread
    rows = reading.snapshot.apps["yelp"].collections["bookmarks"]
    assert sorted(r["business"] for r in rows) == saved
    assert _taps(transport) == 1


def test_a_plain_tap_on_a_prompt_that_is_not_shown_fails_the_reading() -> None:
    """Without `if shown`, the same way fails once signed in: the reading is unread, never
    guessed."""
    compiled = library()["yelp.ensure_bookmark"]
    plain = compiled.model_copy(deep=True)
    for p in plain.apps["yelp"].probes:
        for step in p.steps:
            step.if_shown = False
    _, traj = run_reference(compiled, 0)
    start = traj.header.instance.initial
    assert start is not None
    signed_in = copy.deepcopy(start)
    signed_in.apps["yelp"].settings["signed_in"] = True
    reading, _ = _read(plain, signed_in)
    why = reading.unread[("yelp", "bookmarks")]
    assert 'no element `text "No, not now"` on the page' in why


# ---------------------------------------------------------------- Yelp's bookmarks decided
def test_a_tap_that_saves_a_business_removes_none() -> None:
    """Bookmarking the place asked for is a way in to adding a bookmark, not to removing
    one, nor to the settings: the bookmarks lose no record along the episode."""
    compiled = library()["yelp.best_open_spot"]
    _, traj = run_reference(compiled, 0)
    key = ("yelp", "bookmarks")
    assert key in kept_state(compiled, traj.steps)
    assert key not in closed_state(compiled, traj.steps)
    assert {("yelp", "background_location"), ("yelp", "signed_in")} <= quiet_state(
        compiled, traj.steps
    )


@pytest.mark.parametrize("task_id", ["yelp.best_open_spot", "yelp.ensure_bookmark"])
def test_yelps_bookmark_tasks_are_decided_on_a_phone(
    task_id: str, decided_on_a_phone: Callable[..., None]
) -> None:
    decided_on_a_phone(task_id, every_case=True)


def test_a_bookmark_removed_along_the_way_is_caught() -> None:
    """The episode removes a bookmark the task starts with (a tap on its saved button): the
    reading after the episode lacks it, and `never deleted yelp.bookmarks` fails on a phone
    as in PhoneWorld."""
    compiled = library()["yelp.best_open_spot"]
    _, traj = run_reference(compiled, 0)
    end = traj.final.snapshot
    assert end is not None
    gone = copy.deepcopy(end)
    marks = gone.apps["yelp"].collections["bookmarks"]
    first = marks[0]["business"]
    marks[:] = marks[1:]
    case = judge(compiled, traj, gone, "removed", None, start_reading(compiled, traj))
    assert case.phoneworld is False and case.device is False, (first, case.unobservable)
