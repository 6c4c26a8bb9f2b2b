"""A list setting an app keeps as rows of its own database (`probe S: sqlite DB table T
{ S = "COLUMN" }`): Retro Music's playing queue, which its playback service saves as a
`playing_queue` row per song, in queue order.

The probe reads the column as one JSON array in row order; setup does not write it (the app
rewrites the table from memory) and the plan says what to prepare in the app.
"""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest

from tasklang.compiler import Compiler
from tasklang.envs.device.codec import INT, TEXT, DecodeError, row_list
from tasklang.envs.device.differential import library, run_task
from tasklang.envs.device.parse import OutputError
from tasklang.envs.device.probes import ProbeSpec, _row_list_raw, coverage, probe_specs
from tasklang.envs.device.setup import build_plan
from tasklang.envs.device.transport import CommandFailed
from tasklang.sampling import sample_instance

TASK = "androidworld.retro_playing_queue"
# Retro Music's MusicPlaybackQueueStore makes both queue tables with these columns
QUEUE_COLUMNS = ("_id INT NOT NULL, title STRING NOT NULL, track INT NOT NULL, year INT NOT NULL, "
                 "duration LONG NOT NULL, _data STRING NOT NULL, date_modified LONG NOT NULL, "
                 "album_id INT NOT NULL, album STRING NOT NULL, artist_id INT NOT NULL, "
                 "artist STRING NOT NULL, composer STRING NOT NULL")  # fmt: skip

PLAYER = """\
app player_demo {
  package "com.example.player"
  settings {
    queue: list of text = []
    volume: int = 5
    stacks: list of list of text = []
  }
%s}
"""
DB = '"/data/data/com.example.player/databases/state.db"'


def _diagnostics(probe: str) -> list[tuple[str, str]]:
    result = Compiler().compile_text(PLAYER % probe, path="player.app")
    return [(d.code, d.message) for d in result.diagnostics]


def _queue_spec() -> ProbeSpec:
    compiled = library()[TASK]
    return next(s for s in probe_specs(compiled) if s.key == ("music", "queue"))


def test_a_list_setting_may_be_read_from_rows() -> None:
    assert _diagnostics(f'  probe queue: sqlite {DB} table "queue" {{ queue = "title" }}\n') == []


@pytest.mark.parametrize(
    ("probe", "message"),
    [
        (f'  probe volume: sqlite {DB} table "state" {{ volume = "v" }}\n',
         "a setting that is a list of values (one per row), not `int`"),
        (f'  probe stacks: sqlite {DB} table "s" {{ stacks = "v" }}\n',
         "a setting that is a list of values (one per row), not `list of list of text`"),
        (f'  probe queue: sqlite {DB} table "queue"\n', "names the one column"),
        (f'  probe queue: sqlite {DB} table "queue" {{ queue = "a", queue = "b" }}\n',
         "names the one column"),
        (f'  probe queue: sqlite {DB} table "queue" {{ songs = "title" }}\n',
         "reads setting `queue`, not `songs`"),
    ],
)  # fmt: skip
def test_a_row_list_probe_that_does_not_fit_is_refused(probe: str, message: str) -> None:
    found = _diagnostics(probe)
    assert any(code == "TL1023" and message in text for code, text in found), found


def test_the_codec_keeps_items_and_their_order() -> None:
    titles = row_list(TEXT)
    value = ["Night Drive", 'It\'s "here"', "夜"]
    assert titles.decode(titles.encode(value)) == value and titles.exact
    assert row_list(INT).decode("[3, 1, 2]") == [3, 1, 2]
    assert titles.decode(None) == []  # no table yet: the app never saved the list
    with pytest.raises(DecodeError):
        titles.decode("not json")
    with pytest.raises(DecodeError):
        titles.decode('{"a": 1}')


def test_the_probe_is_one_query_of_the_rows_in_order() -> None:
    cmd = _queue_spec().command()
    assert cmd is not None
    assert cmd.argv[:6] == ("run-as", "code.name.monkey.retromusic", "sqlite3", "-header",
                            "-quote", "/data/data/code.name.monkey.retromusic/databases/"
                            "music_playback_state.db")  # fmt: skip
    assert "ORDER BY rowid" in cmd.argv[6] and "json_group_array" in cmd.argv[6]
    assert ("music", "queue") in coverage(library()[TASK]).settings


def _queue_db(path: Path, titles: list[str]) -> None:
    db = sqlite3.connect(path)
    db.execute(f"CREATE TABLE playing_queue ({QUEUE_COLUMNS})")
    db.executemany(
        "INSERT INTO playing_queue VALUES (?, ?, 0, 2024, 200000, ?, 0, 1, 'A', 1, 'B', '')",
        [(i, t, f"/sdcard/Music/{t}.mp3") for i, t in enumerate(titles)],
    )
    db.commit()
    db.close()


@pytest.mark.skipif(shutil.which("sqlite3") is None, reason="needs the sqlite3 command-line tool")
def test_the_query_reads_the_apps_own_table(tmp_path: Path) -> None:
    """The plan's query, run by the sqlite3 tool on a table made as the app makes it (more
    columns than the model holds), reads the titles in queue order."""
    titles = ["Whispering Wind", "Bright Lights", "Dreamer's Awake"]
    _queue_db(tmp_path / "state.db", titles)

    def local(argv: tuple[str, ...]) -> str:
        *opts, _path, sql = argv[2:]
        done = subprocess.run([*opts, str(tmp_path / "state.db"), sql], capture_output=True,
                              text=True, check=True)  # fmt: skip
        return done.stdout

    assert _read_queue_only(local) == titles


def _read_queue_only(run: object) -> list[str]:
    """The queue as the probe reads it, every other command of the plan answered empty."""
    spec = _queue_spec()
    cmd = spec.command()
    assert cmd is not None
    raw = _row_list_raw(spec, run, cmd.argv)  # type: ignore[arg-type]
    assert spec.codec is not None
    return spec.codec.decode(raw)


def test_a_table_not_made_yet_is_an_empty_queue() -> None:
    def missing(argv: tuple[str, ...]) -> str:
        raise CommandFailed(" ".join(argv), 1, "Error: in prepare, no such table: playing_queue")

    assert _read_queue_only(missing) == []


def test_a_failing_or_garbled_reading_is_an_error_not_a_value() -> None:
    def locked(argv: tuple[str, ...]) -> str:
        raise CommandFailed(" ".join(argv), 5, "Error: database is locked")

    with pytest.raises(CommandFailed):
        _read_queue_only(locked)
    with pytest.raises(OutputError):
        _read_queue_only(lambda argv: "'title'\n'a','b'\n")
    with pytest.raises(OutputError):
        _read_queue_only(lambda argv: "")
    spec = _queue_spec()
    assert spec.codec is not None
    with pytest.raises(DecodeError):
        spec.codec.decode(_read_queue_only_raw("'title'\n'<html>'\n"))


def _read_queue_only_raw(out: str) -> str | None:
    spec = _queue_spec()
    cmd = spec.command()
    assert cmd is not None
    return _row_list_raw(spec, lambda argv: out, cmd.argv)


def test_setup_writes_no_queue_and_says_so() -> None:
    compiled = library()[TASK]
    plan = build_plan(compiled, sample_instance(compiled, 0).initial)
    assert not any("playing_queue" in " ".join(c.argv) for c in plan.setup + plan.teardown)
    [note] = [n for n in plan.notes if n.startswith("music.queue")]
    assert "setup does not write" in note and "clear it in the app" in note


def test_phoneworld_and_a_phone_agree_on_the_queue_and_decide_it() -> None:
    cases = run_task(library()[TASK], seed=0)
    assert all(c.agrees and c.device is not None for c in cases)
    reference, *misses = cases
    assert reference.phoneworld and reference.device
    assert any(not c.phoneworld and c.device is False for c in misses)
