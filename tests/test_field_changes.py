"""`changes COLLECTION.FIELD ...`: where a field of a collection's records may change in a
record that keeps its key, and what that proves on a phone.

A phone that reads a collection's key and all of its fields but a few still sees every change
to it when those few are declared unchanged along the episode: an addition or a deletion shows
in the keys, an update in a field read. The Files app is the library's case: a document's
kind, content, size, star and bin flag never change under one path, and its top folder is read
from the path.
"""

from __future__ import annotations

import random

import pytest

from tasklang import ir
from tasklang.compiler import Compiler
from tasklang.envs.device.differential import library, near_misses, run_task
from tasklang.envs.device.probes import coverage, probe_specs, raw_rows
from tasklang.envs.phoneworld.app import UndeclaredChange
from tasklang.envs.phoneworld.episode import Episode, run_reference
from tasklang.fmt import format_source
from tasklang.source import SourceFile
from tasklang.verifiers.probes import Coverage, clause_problem, quiet_state
from tasklang.verifiers.state import field_kept

PODCASTS = """\
app podcast_demo {
  package "com.example.podcasts"
  record Episode { url: text key  title: text  played: bool = false }
  record Log { line: text }
  collection episodes: Episode
  collection log: Log
%s}
"""
DECLARED = (
    "  changes episodes.title nowhere\n"
    '  changes episodes.played only by id "com.example.podcasts:id/mark_played"\n'
)


def _compile(extra: str) -> tuple[dict[str, ir.AppModel], list[tuple[str, str]]]:
    result = Compiler().compile_text(PODCASTS % extra, path="podcasts.app")
    return dict(result.apps), [(d.code, d.message) for d in result.diagnostics]


def test_a_field_line_reaches_the_app_model() -> None:
    apps, diagnostics = _compile(DECLARED)
    assert diagnostics == []
    model = apps["podcast_demo"]
    [title] = model.changes_of("episodes.title")
    assert title.screens == []
    [played] = model.changes_of("episodes.played")
    assert played.by_tap and model.changes_of("episodes") == []
    # the collection and one of its fields are said of apart
    apps, diagnostics = _compile("  changes episodes nowhere\n  changes episodes.title nowhere\n")
    assert diagnostics == [] and len(apps["podcast_demo"].changes) == 2


def test_the_formatter_keeps_a_field_line() -> None:
    formatted, diagnostics = format_source(SourceFile("podcasts.app", PODCASTS % DECLARED))
    assert diagnostics == [] and formatted is not None
    assert DECLARED in formatted


@pytest.mark.parametrize(
    ("line", "message", "hint"),
    [
        ("  changes episode.title nowhere\n", "has no collection `episode`", "`episodes`"),
        ("  changes episodes.titel nowhere\n", "has no field `titel`", "`title`"),
        ("  changes episodes.url nowhere\n", "is the key of `podcast_demo.episodes`", None),
        ('  changes log.line only on text "Log"\n', "have no key field", None),
        (
            "  changes episodes.title nowhere\n  changes episodes.title nowhere\n",
            "where `episodes.title` changes is said twice",
            None,
        ),
    ],
)
def test_a_field_line_names_a_field_other_than_the_key(
    line: str, message: str, hint: str | None
) -> None:
    result = Compiler().compile_text(PODCASTS % line, path="podcasts.app")
    [diag] = result.diagnostics
    assert diag.code == "TL1033" and message in diag.message
    assert diag.span.line == 6 + line.count("\n")  # the line that says it (again)
    if hint is not None:
        assert hint in (diag.help or ""), diag.help


# ---------------------------------------------------------------- what it proves
def _coverage(read: set[str], quiet: set[str]) -> Coverage:
    apps, _ = _compile("")
    compiled = ir.CompiledTask.model_construct(apps=apps)  # Coverage.of reads only the apps
    cov = Coverage.of(compiled, {("podcast_demo", "episodes"): frozenset(read)}, set())
    return cov.with_quiet(frozenset(("podcast_demo", f"episodes.{f}") for f in quiet))


def test_a_collection_is_seen_changing_when_each_field_is_read_or_proved_unchanged() -> None:
    key = ("podcast_demo", "episodes")
    assert not _coverage({"url", "title"}, set()).sees_changes(key)
    assert _coverage({"url", "title"}, {"played"}).sees_changes(key)
    assert _coverage({"url"}, {"title", "played"}).records_seen(key)
    # without the key nothing says which record a field belongs to
    assert not _coverage({"title"}, {"played"}).sees_changes(key)
    # seen changing is not read: a check on its value stays undecided
    assert not _coverage({"url", "title"}, {"played"}).reads(key)


def test_field_kept_follows_records_by_key() -> None:
    key = ir.FieldDef(name="url", type=ir.Type(name="text"), key=True)
    old = [{"url": "a", "played": False}, {"url": "b", "played": False}]
    assert field_kept(old, [{"url": "a", "played": False}], key, "played")  # b deleted
    assert field_kept(old, [*old, {"url": "c", "played": True}], key, "played")  # c added
    renamed = [{"url": "a2", "played": True}, old[1]]  # a new key is a new record
    assert field_kept(old, renamed, key, "played")
    assert not field_kept(old, [{"url": "a", "played": True}, old[1]], key, "played")


def test_the_files_app_declares_its_documents_fields() -> None:
    files = library()["files.large_pdfs"].apps["files"]
    for name in ("kind", "content", "size", "starred", "in_trash"):
        [scope] = files.changes_of(f"documents.{name}")
        assert scope.screens == [], name
    [folders] = files.changes_of("folders")
    assert not folders.by_tap and folders.screens


def test_a_listing_reads_a_files_top_folder() -> None:
    compiled = library()["files.large_pdfs"]
    [spec] = [s for s in probe_specs(compiled) if s.target == "documents"]
    assert {f.field: f.column for f in spec.fields}["folder"] == "top_folder"
    listing = (
        "/sdcard:\ntotal 8\n"
        "drwxrwx--x 3 root sdcard_rw 4096 2026-05-14 09:00 Download\n"
        "-rw-rw---- 1 root sdcard_rw 12 2026-05-14 09:00 top.txt\n\n"
        "/sdcard/Download:\ntotal 8\n"
        "drwxrwx--x 2 root sdcard_rw 4096 2026-05-14 09:00 Work\n\n"
        "/sdcard/Download/Work:\ntotal 4\n"
        "-rw-rw---- 1 root sdcard_rw 2048 2026-05-14 09:00 a.pdf\n"
    )
    rows = {r["path"]: r for r in raw_rows(spec, listing, lambda argv: "")}
    assert rows["/sdcard/Download/Work/a.pdf"]["top_folder"] == "Download"
    assert rows["/sdcard/Download/Work/a.pdf"]["folder"] == "Download/Work"
    assert rows["/sdcard/top.txt"]["top_folder"] == ""


def test_the_phone_sees_every_change_to_the_documents_of_a_files_task() -> None:
    compiled = library()["files.large_pdfs"]
    _, traj = run_reference(compiled, 0)
    quiet = quiet_state(compiled, traj.steps)
    assert ("files", "documents.kind") in quiet and ("files", "folders") in quiet
    cov = coverage(compiled, initial=traj.header.instance.initial).with_quiet(quiet)
    assert cov.sees_changes(("files", "documents")) and not cov.reads(("files", "documents"))
    for clause in compiled.task.clauses:
        assert clause_problem(clause, compiled, cov, steps=True) is None, clause.id
    cases = run_task(compiled, 0)
    assert cases[0].name == "reference" and cases[0].device is True
    assert all(c.agrees for c in cases)
    assert any(c.device is False for c in cases[1:])  # a near miss is caught


def test_near_misses_keep_the_fields_the_episode_proves_unchanged() -> None:
    """A near miss that changes a document's kind in place is no end state the Files app can
    reach: the generator leaves it out, as it does for whole collections."""
    compiled = library()["androidworld.files_move_file"]
    _, traj = run_reference(compiled, 0)
    final = traj.final.snapshot
    assert final is not None
    quiet = quiet_state(compiled, traj.steps)
    dropped: set[str] = set()
    for seed in range(5):  # one change per collection, of a field drawn at random
        every = near_misses(compiled, final, random.Random(seed), 400)
        kept = near_misses(compiled, final, random.Random(seed), 400, quiet)
        dropped |= {n for n, _ in every} - {n for n, _ in kept}
    assert dropped
    assert all(".documents[" in n and n.endswith((".kind", ".size", ".content")) for n in dropped)


def test_phoneworld_refuses_a_field_change_the_model_does_not_let_happen() -> None:
    compiled = library()["androidworld.system_wifi_turn_off"]
    _, traj = run_reference(compiled, 0)
    actions = [s.action.model_dump(exclude_none=True) for s in traj.steps if s.action]
    ep = Episode(compiled, 0)
    scope = ir.ChangeScope(names=["wifi_networks.connected"], screens=[])
    ep.phone.change_scopes = {("settings", "wifi_networks.connected"): [scope]}
    before = ep.phone.world().apps["settings"].collections["wifi_networks"]
    with pytest.raises(UndeclaredChange, match=r"settings\.wifi_networks\.connected changed"):
        for action in actions:
            ep.step(action)
    assert ep.phone.world().apps["settings"].collections["wifi_networks"] == before
    # a field the steps leave alone in every record is no change
    ep = Episode(compiled, 0)
    scope = ir.ChangeScope(names=["wifi_networks.security"], screens=[])
    ep.phone.change_scopes = {("settings", "wifi_networks.security"): [scope]}
    for action in actions:
        ep.step(action)
    assert ep.verdict().success


def test_a_folder_made_with_enter_in_its_dialog_keeps_to_the_declaration() -> None:
    """The New folder dialog shows the app's positive button, so Enter in its name field is
    a way in to the folders, as OK is: PhoneWorld lets the folder be made."""
    from tasklang.verifiers.ui import Screen

    ep = Episode(library()["files.large_pdfs"], 0)

    def tap(**attrs: str) -> None:
        screen = Screen.from_parts(ep.xml(), None)
        found = next(
            e for e in screen.elements if all(getattr(e, k) == v for k, v in attrs.items())
        )
        ep.step({"action_type": "click", "index": found.index})

    tap(content_desc="More options")
    tap(text="New folder")
    screen = Screen.from_parts(ep.xml(), None)
    field = next(e for e in screen.elements if e.resource_id == "android:id/text1")
    ep.step({"action_type": "input_text", "text": "Taxes", "index": field.index})
    ep.step({"action_type": "keyboard_enter"})
    folders = ep.phone.state["files"].collections["folders"]
    assert [f["path"] for f in folders] == ["/sdcard/Taxes"]
    assert ("files", "folders") in ep.phone.opened
