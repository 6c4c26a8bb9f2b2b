"""PhoneWorld's Retro Music (code.name.monkey.retromusic): the reference solutions of the music
tasks, the screens' XML, and the library tabs, playback, the playing queue, search, and
creating, filling, reordering, renaming and deleting playlists through real actions."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tasklang import ir
from tasklang.compiler import Compiler
from tasklang.envs.phoneworld.app import AppData
from tasklang.envs.phoneworld.apps.music import fmt_length
from tasklang.envs.phoneworld.episode import Episode, run_nothing, run_reference
from tasklang.envs.phoneworld.solutions.base import Driver
from tasklang.verifiers.snapshot import parse_ui_xml

ROOT = Path(__file__).resolve().parents[1]
PKG = "code.name.monkey.retromusic"
TASKS = (
    "music.create_playlist",
    "music.playlist_duration",
    "music.play_song",
    "music.reorder_playlist",
)


@cache
def compiled(task_id: str) -> ir.CompiledTask:
    path = ROOT / "task_library" / "app" / f"{task_id}.task"
    return Compiler().compile_paths([path]).tasks[0]


@pytest.mark.parametrize("task_id", TASKS)
def test_reference_solves_every_instance(task_id: str) -> None:
    for seed in range(6):  # `tasklang test` tries 20
        verdict, _ = run_reference(compiled(task_id), seed)
        failed = [(r.id, r.summary) for r in verdict.clauses if not r.passed]
        assert not failed, (seed, failed)
        assert verdict.success, (seed, verdict.notes)


@pytest.mark.parametrize("task_id", TASKS)
def test_doing_nothing_fails(task_id: str) -> None:
    for seed in range(6):  # `tasklang test` tries 20
        assert not run_nothing(compiled(task_id), seed).success


# ------------------------------------------------------------------ helpers
def song(title: str, artist: str, album: str, duration: int, track: int = 1) -> dict[str, Any]:
    return {
        "title": title,
        "artist": artist,
        "album": album,
        "duration": duration,
        "track": track,
        "year": 2020,
        "path": f"/sdcard/Music/{title}.mp3",
    }


def library() -> list[dict[str, Any]]:
    return [
        song("Morning Light", "The Lanterns", "Harbor Lights", 207, 1),
        song("Paper Boats", "The Lanterns", "Harbor Lights", 245, 2),
        song("Neon Avenue", "Kite Machine", "City Nights", 224, 1),
        song("Rooftops", "Kite Machine", "City Nights", 189, 2),
        song("Echoes", "Delta Park", "Signals", 3723, 1),
    ]


def episode(
    songs: list[dict[str, Any]] | None = None,
    playlists: list[dict[str, Any]] | None = None,
    **settings: Any,
) -> tuple[Episode, Driver]:
    ep = Episode(compiled("music.play_song"), 0)
    assert ep.instance is not None
    base = {"now_playing": None, "playing": False, "queue": [], "shuffle": False, "repeat": "off"}
    ep.phone.state["music"] = AppData(
        {
            "songs": list(library() if songs is None else songs),
            "playlists": list(playlists or []),
        },
        {**base, **settings},
    )
    ep.phone.invalidate()
    d = Driver(ep.tree, ep.step, ep.instance.params)
    d.open("Retro Music")
    return ep, d


def data(ep: Episode) -> AppData:
    return ep.phone.state["music"]


def playlists(ep: Episode) -> dict[str, list[str]]:
    return {p["name"]: p["songs"] for p in data(ep).collections["playlists"]}


def setting(ep: Episode, name: str) -> Any:
    return data(ep).settings.get(name)


def xml_ok(ep: Episode) -> None:
    _, elements = parse_ui_xml(ep.xml())
    assert elements and all(e.package for e in elements)
    assert f'resource-id="{PKG}:id/' in ep.xml()


def wait(d: Driver, times: int = 1) -> None:
    for _ in range(times):
        d.act({"action_type": "wait"})


def new_playlist(d: Driver, name: str) -> None:
    d.tap(desc="Playlists")
    d.tap(desc="More options")
    d.tap(text="New playlist")
    d.type(name)
    d.tap(text="Create")


def add_to(d: Driver, title: str, name: str) -> None:
    """Add a song to a playlist from the Songs tab's song menu."""
    d.tap(desc="Songs")
    titles = d.texts(rid="title")
    d.tap(rid="menu", nth=titles.index(title))
    d.tap(text="Add to playlist…")
    d.tap(text=name)


# ------------------------------------------------------------------ screens
def test_every_screen_produces_parseable_xml_with_real_ids() -> None:
    ep, d = episode(playlists=[{"name": "Mix", "songs": ["Echoes", "Rooftops"]}])
    xml_ok(ep)
    assert ep.phone.current_activity() == (PKG, f"{PKG}.activities.MainActivity")
    assert d.has(rid="bottomNavigationView") and d.has(rid="action_song")
    for tab in ("Albums", "Artists", "Playlists"):
        d.tap(desc=tab)
        xml_ok(ep)
    d.tap(text="Mix", rid="title")
    xml_ok(ep)
    assert d.has(rid="drag_view")
    d.tap(text="Echoes", rid="title")
    d.tap(rid="miniPlayerTitle")
    xml_ok(ep)
    assert d.has(rid="playPauseButton") and d.has(rid="songTotalTime")
    d.tap(text="Playing queue")
    xml_ok(ep)
    d.back()
    d.back()
    d.back()
    d.tap(desc="Search")
    xml_ok(ep)
    assert ep.phone.current_activity()[1] == f"{PKG}.activities.search.SearchActivity"


def test_library_tabs() -> None:
    _, d = episode()
    assert d.texts(rid="title") == [
        "Echoes",
        "Morning Light",
        "Neon Avenue",
        "Paper Boats",
        "Rooftops",
    ]
    d.tap(desc="Albums")
    assert d.texts(rid="title") == ["City Nights", "Harbor Lights", "Signals"]
    assert d.texts(rid="text")[0] == "Kite Machine • 2 Songs"
    d.tap(text="Harbor Lights")
    assert d.texts(rid="title") == ["Morning Light", "Paper Boats"]  # track order
    assert d.texts(rid="albumText") == ["The Lanterns • 2 Songs • 7:32"]
    d.back()
    d.tap(desc="Artists")
    assert d.texts(rid="title") == ["Delta Park", "Kite Machine", "The Lanterns"]
    d.tap(text="Kite Machine")
    assert d.texts(rid="title") == ["Neon Avenue", "Rooftops"]
    d.back()
    d.tap(desc="Playlists")
    assert d.has(text="Nothing here yet")


def test_lengths_as_the_app_shows_them() -> None:
    assert fmt_length(189) == "3:09"
    assert fmt_length(3723) == "1:02:03"
    assert fmt_length(0) == "0:00"


def test_a_long_library_scrolls() -> None:
    many = [song(f"Track {i:02d}", "Various", "Sampler", 180, i) for i in range(25)]
    _, d = episode(many)
    assert "Track 24" not in d.texts(rid="title")
    d.scroll_to(text="Track 24")
    d.tap(text="Track 24")
    assert d.texts(rid="miniPlayerTitle") == ["Track 24 • Various"]


# ------------------------------------------------------------------ playing
def test_play_pause_next_previous_and_the_clock() -> None:
    ep, d = episode()
    d.tap(text="Neon Avenue")
    assert setting(ep, "now_playing") == "Neon Avenue" and setting(ep, "playing") is True
    assert setting(ep, "queue") == [
        "Echoes",
        "Morning Light",
        "Neon Avenue",
        "Paper Boats",
        "Rooftops",
    ]
    d.tap(rid="miniPlayerTitle")
    assert d.texts(rid="title") == ["Neon Avenue"] and d.texts(rid="songTotalTime") == ["3:44"]
    wait(d, 2)
    assert d.texts(rid="songCurrentProgress") == ["0:10"]
    d.tap(desc="Pause")
    assert setting(ep, "playing") is False
    wait(d, 3)
    assert d.texts(rid="songCurrentProgress") == ["0:10"]
    d.tap(desc="Play")
    d.tap(desc="Next")
    assert setting(ep, "now_playing") == "Paper Boats"
    d.tap(desc="Previous")  # at the start of a song: the previous one
    assert setting(ep, "now_playing") == "Neon Avenue"
    wait(d)
    d.tap(desc="Previous")  # under way: restarts it
    assert setting(ep, "now_playing") == "Neon Avenue"
    assert d.texts(rid="songCurrentProgress") == ["0:00"]
    d.tap(desc="Next")
    d.tap(desc="Next")
    d.tap(desc="Next")  # the end of the queue with repeat off: stays
    assert setting(ep, "now_playing") == "Rooftops"
    d.tap(desc="Repeat off")
    assert setting(ep, "repeat") == "all"
    d.tap(desc="Next")  # repeat all wraps around
    assert setting(ep, "now_playing") == "Echoes"
    d.tap(desc="Shuffle")
    assert setting(ep, "shuffle") is True


def test_queue_play_next_and_remove() -> None:
    ep, d = episode()
    d.tap(desc="Artists")
    d.tap(text="Kite Machine")
    d.tap(text="Neon Avenue")
    assert setting(ep, "queue") == ["Neon Avenue", "Rooftops"]  # the list it was played from
    d.back()
    d.tap(desc="Songs")
    titles = d.texts(rid="title")
    d.tap(rid="menu", nth=titles.index("Echoes"))
    d.tap(text="Play next")
    d.tap(rid="menu", nth=titles.index("Paper Boats"))
    d.tap(text="Add to playing queue")
    assert setting(ep, "queue") == ["Neon Avenue", "Echoes", "Rooftops", "Paper Boats"]
    d.tap(rid="miniPlayerTitle")
    d.tap(text="Playing queue")
    assert d.texts(rid="title") == ["Neon Avenue", "Echoes", "Rooftops", "Paper Boats"]
    d.tap(rid="menu", nth=2)
    d.tap(text="Remove from playing queue")
    assert setting(ep, "queue") == ["Neon Avenue", "Echoes", "Paper Boats"]


def test_search_finds_songs_albums_and_artists() -> None:
    ep, d = episode()
    d.tap(desc="Search")
    d.type("li")  # the search box has the focus
    assert d.texts(rid="sectionHeader") == ["Songs", "Albums"]
    assert d.texts(rid="title") == ["Morning Light", "Harbor Lights"]
    d.type("zzz")
    assert d.has(text="No results")
    d.tap(desc="Clear")
    d.type("Delta")
    d.tap(text="Delta Park")
    assert d.texts(rid="title") == ["Echoes"]
    d.tap(text="Echoes")
    assert setting(ep, "now_playing") == "Echoes"


def test_song_details_and_delete_from_device() -> None:
    ep, d = episode(playlists=[{"name": "Mix", "songs": ["Rooftops", "Echoes"]}])
    titles = d.texts(rid="title")
    d.tap(rid="menu", nth=titles.index("Echoes"))
    d.tap(text="Details")
    assert d.has(text="Track length: 1:02:03")
    d.tap(text="OK")
    d.tap(rid="menu", nth=titles.index("Rooftops"))
    d.tap(text="Delete from device")
    assert d.has(text="Do you want to delete the song Rooftops?")
    d.tap(text="Cancel")
    assert len(data(ep).collections["songs"]) == 5
    d.tap(rid="menu", nth=titles.index("Rooftops"))
    d.tap(text="Delete from device")
    d.tap(text="Delete")
    assert "Rooftops" not in [s["title"] for s in data(ep).collections["songs"]]
    assert playlists(ep) == {"Mix": ["Echoes"]}


# ------------------------------------------------------------------ playlists
def test_create_and_fill_a_playlist() -> None:
    ep, d = episode(playlists=[{"name": "Old", "songs": []}])
    new_playlist(d, "Road Trip")
    assert playlists(ep)["Road Trip"] == []
    assert ep.phone.toast == "Playlist Road Trip created"
    new_playlist(d, "Old")
    assert ep.phone.toast == "Playlist Old exists" and len(playlists(ep)) == 2
    d.tap(desc="More options")
    d.tap(text="New playlist")
    d.tap(text="Cancel")
    assert len(playlists(ep)) == 2
    add_to(d, "Rooftops", "Road Trip")
    add_to(d, "Echoes", "Road Trip")
    add_to(d, "Rooftops", "Road Trip")  # already there: not added twice
    assert ep.phone.toast == "Song already exists in Road Trip"
    assert playlists(ep)["Road Trip"] == ["Rooftops", "Echoes"]
    # "New playlist…" from a song's menu creates the playlist with the song in it
    d.tap(rid="menu", nth=d.texts(rid="title").index("Paper Boats"))
    d.tap(text="Add to playlist…")
    d.tap(text="New playlist…")
    d.type("Boats")
    d.tap(text="Create")
    assert playlists(ep)["Boats"] == ["Paper Boats"]
    d.tap(desc="Playlists")
    assert d.texts(rid="title") == ["Boats", "Old", "Road Trip"]
    assert d.texts(rid="text") == ["1 Song", "0 Songs", "2 Songs"]


def test_empty_playlist_name_is_refused() -> None:
    ep, d = episode()
    new_playlist(d, "   ")
    assert ep.phone.toast == "Playlist name can't be empty" and playlists(ep) == {}


def test_playlist_details_reorder_and_remove() -> None:
    mix = ["Morning Light", "Paper Boats", "Neon Avenue", "Rooftops"]
    ep, d = episode(playlists=[{"name": "Mix", "songs": mix}])
    d.tap(desc="Playlists")
    d.tap(text="Mix", rid="title")
    assert d.texts(rid="title") == mix
    assert d.texts(rid="duration") == ["3:27", "4:05", "3:44", "3:09"]
    assert d.texts(rid="songCount") == ["4 Songs"]
    # a tap on a handle does nothing until a song is picked up
    d.tap(rid="drag_view", nth=0)
    assert playlists(ep)["Mix"] == mix
    d.long_press(rid="drag_view", nth=3)
    handles = [v for v in d.observe().walk() if v.rid.endswith(":id/drag_view")]
    assert [v.selected for v in handles] == [False, False, False, True]  # picked up
    d.tap(rid="drag_view", nth=1)
    assert playlists(ep)["Mix"] == ["Morning Light", "Rooftops", "Paper Boats", "Neon Avenue"]
    d.long_press(rid="drag_view", nth=0)
    d.tap(text="Neon Avenue", rid="title")  # a tap on a row drops there too
    assert playlists(ep)["Mix"] == ["Rooftops", "Paper Boats", "Neon Avenue", "Morning Light"]
    assert setting(ep, "now_playing") is None  # dropping is not playing
    d.tap(rid="menu", nth=1)
    d.tap(text="Remove from playlist")
    assert d.has(text="Remove the song Paper Boats from the playlist?")
    d.tap(text="Cancel")
    assert len(playlists(ep)["Mix"]) == 4
    d.tap(rid="menu", nth=1)
    d.tap(text="Remove from playlist")
    d.tap(text="Remove")
    assert playlists(ep)["Mix"] == ["Rooftops", "Neon Avenue", "Morning Light"]
    d.tap(text="Play")
    assert setting(ep, "now_playing") == "Rooftops"
    assert setting(ep, "queue") == ["Rooftops", "Neon Avenue", "Morning Light"]


def test_rename_and_delete_a_playlist() -> None:
    ep, d = episode(playlists=[{"name": "Mix", "songs": ["Echoes"]}, {"name": "Gym", "songs": []}])
    d.tap(desc="Playlists")
    d.tap(rid="menu", nth=1)  # Mix
    d.tap(text="Rename")
    d.type("Evening Mix", rid="actionNewPlaylist")
    d.tap(text="Rename")
    assert playlists(ep) == {"Evening Mix": ["Echoes"], "Gym": []}
    d.tap(rid="menu", nth=1)  # Gym
    d.tap(text="Delete")
    assert d.has(text="Do you want to delete the playlist Gym?")
    d.tap(text="Cancel")
    assert "Gym" in playlists(ep)
    d.tap(rid="menu", nth=1)
    d.tap(text="Delete")
    d.tap(text="Delete")
    assert playlists(ep) == {"Evening Mix": ["Echoes"]}


def test_invalid_actions_are_no_ops_with_a_reason() -> None:
    ep, d = episode()
    out = ep.step({"action_type": "input_text", "text": "x", "index": d.need(desc="Search")})
    assert not out.ok and "not a text field" in out.info
    out = ep.step({"action_type": "click", "index": 10_000})
    assert not out.ok and "out of range" in out.info
    out = ep.step({"action_type": "scroll", "direction": "diagonal"})
    assert not out.ok
    assert setting(ep, "now_playing") is None and playlists(ep) == {}
