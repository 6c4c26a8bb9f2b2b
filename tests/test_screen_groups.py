"""A screen probe's `each SELECTOR { field = SPOT, ... } rows ...`: a page that lists groups
(a list of lists), each opening a page of rows whose records all hold what the group shows.
The language, the reading on a phone, and Maps' saved places (Saved lists the lists, a list's
page its places), decided on a phone with where a place is saved and removed declared."""

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
from tasklang.envs.device.probes import coverage
from tasklang.envs.device.screens import screen_specs
from tasklang.envs.phoneworld.episode import run_reference
from tasklang.fmt import format_source
from tasklang.source import SourceFile
from tasklang.verifiers.probes import closed_state, kept_state
from tasklang.verifiers.snapshot import WorldSnapshot

APP = """\
app shelf_demo {
  package "com.example.shelf"
  record Book {
    isbn: text key
    title: text
    shelf: enum(reading, done) = "reading"
    authors: list of text = []
  }
  collection books: Book
  probe books: screen (tap text "Shelves") %s rows id "book" {
    isbn = id "isbn",
    %s
  }
}
"""
EACH = 'each id "shelf" { shelf = id "shelf-name" labels { reading = "Reading", done = "Done" } }'


def _compile(each: str, rows: str = "") -> tuple[ir.AppModel | None, list[str]]:
    result = Compiler().compile_text(APP % (each, rows), path="shelf.app")
    return result.apps.get("shelf_demo"), [d.message for d in result.diagnostics]


# ---------------------------------------------------------------- the language
def test_groups_reach_the_probe_and_the_formatter_keeps_them() -> None:
    app, diagnostics = _compile(EACH, 'title = id "title",')
    assert diagnostics == [] and app is not None
    [books] = app.probes
    [shelves] = books.each
    assert [(a.attr, a.value) for a in shelves.selector.attrs] == [("id", "shelf")]
    assert list(shelves.spots) == ["shelf"] and list(books.spots) == ["isbn", "title"]
    assert shelves.spots["shelf"].labels == {"reading": "Reading", "done": "Done"}
    text = APP % (EACH, 'title = id "title",')
    once, _ = format_source(SourceFile("shelf.app", text))
    assert ') each id "shelf" {' in once and '} rows id "book" {' in once
    assert format_source(SourceFile("shelf.app", once))[0] == once


@pytest.mark.parametrize(
    ("each", "rows", "message"),
    [
        ('each id "shelf" { }', "", "it reads at least one"),
        ('each id "shelf" { isbn = id "n" }', "", "field `isbn` is read twice"),
        ('each id "shelf" { authors = id "a" }', "", "not a list nor a name"),
        ('each id "shelf" { title = id "t" }', 'title = id "t",', "field `title` is read twice"),
        ('each id "shelf" { title = id "t" or { "" = unknown } }', "",
         "every group must show one value of it"),
    ],
)  # fmt: skip
def test_groups_that_cannot_be_read_are_errors(each: str, rows: str, message: str) -> None:
    _, diagnostics = _compile(each, rows)
    assert any(message in d for d in diagnostics), diagnostics


def test_the_rows_of_groups_may_open_pages_of_their_own() -> None:
    """A row's own page opens from its group's page: `details` read there as on any rows."""
    text = (APP % (EACH, "")).replace(
        'isbn = id "isbn",\n    \n  }', 'isbn = id "isbn" } details { title = id "t" }'
    )
    result = Compiler().compile_text(text, path="shelf.app")
    assert result.diagnostics == []
    [probe] = [p for p in result.apps["shelf_demo"].probes if p.each]
    assert list(probe.details) == ["title"] and list(probe.group_spots())


def test_each_is_a_keyword_only_where_it_can_appear() -> None:
    text = (APP % (EACH, "")).replace("isbn: text key", "isbn: text key\n    each: int = 0")
    result = Compiler().compile_text(text, path="shelf.app")
    assert result.diagnostics == []


# ---------------------------------------------------------------- reading on a phone
def _read(compiled: ir.CompiledTask, world: WorldSnapshot) -> tuple[Any, PhoneWorldTransport]:
    transport = PhoneWorldTransport(compiled, lambda: world, lambda: "")
    return probe(compiled, transport, screens=True, sleep=lambda s: None), transport


def _saved(world: WorldSnapshot) -> list[tuple[str, str]]:
    return sorted((r["place"], r["list_name"]) for r in world.apps["maps"].collections["saved"])


def test_maps_saved_places_are_read_list_by_list() -> None:
    compiled = library()["cross.maps_save_and_text"]
    [spec] = [s for s in screen_specs(compiled) if s.target == "saved"]
    assert spec.describe().startswith("start com.google.android.apps.maps, tap id ")
    assert "(for list_name), a tap on it, then rows xpath" in spec.describe()
    _, traj = run_reference(compiled, 0)
    end = traj.final.snapshot
    assert end is not None
    assert len({r["list_name"] for r in end.apps["maps"].collections["saved"]}) >= 2
    reading, transport = _read(compiled, end)
    assert not reading.unread, reading.unread
    read = reading.snapshot.apps["maps"].collections["saved"]
    assert sorted((r["place"], r["list_name"]) for r in read) == _saved(end)
    assert all("note" not in r for r in read)  # a place's own page shows it: not read
    # the app started for the lists' page, then again for each of the four lists but the
    # first, tapped on that page as it still shows (a list opens a page of its own, which
    # shows no list to tap: from the app's start again); and once for each other page the
    # task's probes read
    others = len(screen_specs(compiled)) - 1
    assert sum(line.startswith("am force-stop") for line in transport.lines) == 1 + 3 + others
    cov = coverage(compiled)
    assert cov.fields[("maps", "saved")] == {"place", "list_name"}


def test_an_empty_list_reads_no_places_and_an_empty_shelf_no_rows() -> None:
    compiled = library()["cross.maps_save_and_text"]
    _, traj = run_reference(compiled, 0)
    end = copy.deepcopy(traj.final.snapshot)
    assert end is not None
    end.apps["maps"].collections["saved"] = []
    reading, _ = _read(compiled, end)
    assert not reading.unread and reading.snapshot.apps["maps"].collections["saved"] == []


def test_groups_that_show_the_same_name_leave_the_collection_unread() -> None:
    """Two lists that read alike cannot be told apart to be opened again: the saved places
    are unread, never guessed."""
    from tasklang.envs.phoneworld.apps import maps

    compiled = library()["cross.maps_save_and_text"]
    _, traj = run_reference(compiled, 0)
    end = traj.final.snapshot
    assert end is not None
    twins = (("favorites", "Favorites"), ("want_to_go", "Favorites"), *maps.LISTS[2:])
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(maps, "LISTS", twins)
        reading, _ = _read(compiled, end)
    why = reading.unread[("maps", "saved")]
    assert "two groups of maps.saved show 'favorites'" in why


# ---------------------------------------------------------------- Maps' saved places decided
def test_saving_a_place_to_a_list_removes_none() -> None:
    compiled = library()["cross.maps_save_and_text"]
    _, traj = run_reference(compiled, 0)
    key = ("maps", "saved")
    assert key in kept_state(compiled, traj.steps) and key not in closed_state(compiled, traj.steps)


@pytest.mark.parametrize("task_id", ["maps.save_best_cafe", "cross.maps_save_and_text"])
def test_maps_saved_place_tasks_are_decided_on_a_phone(
    task_id: str, decided_on_a_phone: Callable[..., None]
) -> None:
    decided_on_a_phone(task_id, every_case=True)


def test_a_place_saved_to_the_wrong_list_is_caught() -> None:
    compiled = library()["maps.save_best_cafe"]
    _, traj = run_reference(compiled, 0)
    end = copy.deepcopy(traj.final.snapshot)
    assert end is not None
    [entry] = end.apps["maps"].collections["saved"]
    assert entry["list_name"] == "want_to_go"
    entry["list_name"] = "favorites"
    case = judge(compiled, traj, end, "favorites", None, start_reading(compiled, traj))
    assert case.phoneworld is False and case.device is False, case.unobservable
