"""Reference solutions of the Retro Music tasks."""

from __future__ import annotations

from tasklang.envs.phoneworld.solutions.base import Driver, reference


def _seconds(length: str) -> int:
    """Seconds of a length as the app shows it: "3:07", "1:02:03"."""
    total = 0
    for part in length.split(":"):
        total = total * 60 + int(part)
    return total


def _search(d: Driver, query: str) -> None:
    d.tap(desc="Search")
    d.type(query)


@reference("music.create_playlist")
def create_playlist(d: Driver) -> None:
    p = d.params
    name = p["list_name"]
    d.tap(desc="Playlists")
    d.tap(desc="More options")
    d.tap(text="New playlist")
    d.type(name)
    d.tap(text="Create")
    for song in (p["first"], p["second"], p["third"]):
        _search(d, song["title"])
        d.tap(rid="menu")  # the first result is the song
        d.tap(text="Add to playlist…")
        d.tap(text=name)
        d.tap(desc="Navigate up")
    d.done()


@reference("music.playlist_duration")
def playlist_duration(d: Driver) -> None:
    d.tap(desc="Playlists")
    d.act({"action_type": "click", "index": d.scroll_to(text=d.params["pl"]["name"], rid="title")})
    total = sum(_seconds(t) for t in d.texts(rid="duration"))
    minutes, seconds = divmod(total, 60)
    d.answer(f"{minutes} minutes {seconds} seconds")


@reference("music.play_song")
def play_song(d: Driver) -> None:
    title = d.params["track"]["title"]
    _search(d, title)
    d.tap(text=title, rid="title")
    d.done()


@reference("music.reorder_playlist")
def reorder_playlist(d: Driver) -> None:
    edit = d.params["edit"]
    d.tap(desc="Playlists")
    d.tap(text=d.params["pl_name"], rid="title")
    titles = d.texts(rid="title")
    d.tap(rid="menu", nth=titles.index(edit["gone"]))
    d.tap(text="Remove from playlist")
    d.tap(text="Remove")
    titles = d.texts(rid="title")
    d.long_press(rid="drag_view", nth=titles.index(edit["top"]))
    d.tap(rid="drag_view", nth=0)  # drop it on the first song's place
    d.done()
