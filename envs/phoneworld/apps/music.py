"""Retro Music (``code.name.monkey.retromusic``), the music player AndroidWorld uses.

- Library (``activities.MainActivity``): the toolbar (search, "More options") and the bottom
  navigation (``bottomNavigationView``: Songs, Albums, Artists, Playlists). Songs are listed by
  title (``title``, ``text`` = artist) under Shuffle / Play all buttons, each with a menu
  (``menu``: Play next, Add to playing queue, Add to playlist…, Go to album, Go to artist,
  Details, Delete from device). Albums and artists open their songs; playlists
  (``title``, ``text`` = "N Songs") open the playlist, and their menu plays, renames or
  deletes one. The toolbar menu of the Playlists tab creates a playlist ("New playlist":
  ``actionNewPlaylist``, Create / Cancel).
- Playlist details: the songs in playlist order with their length (``duration``), Play and
  Shuffle, and per song a drag handle (``drag_view``) and a menu with "Remove from playlist".
  Reordering is a drag on a phone; here a long press on a handle picks the song up and a tap
  on another song's row (or handle) drops it at that position.
- "Add to playlist": a dialog listing "New playlist…" and the playlists; a song is added at the
  end (a song already in the playlist is not added twice).
- Playing: a tap on a song plays it with the list it was in as the playing queue. The mini
  player (``miniPlayerTitle``, ``miniPlayerPlayPauseButton``) sits above the bottom navigation
  and opens the now playing screen (title, artist, position and length, previous / play-pause
  / next, shuffle and repeat, the playing queue).
- Search (``activities.search.SearchActivity``): songs, albums and artists whose name contains
  the typed text.

The now playing state is the model's settings (``now_playing``, ``playing``, ``queue``,
``shuffle``, ``repeat``); the playback position is kept in the phone's scratch forms
(route id 0), as the app's service keeps it, and moves with the phone's clock.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from tasklang.envs.phoneworld import widgets as w
from tasklang.envs.phoneworld.app import App, Ctx, Dialog, Route, Screen
from tasklang.envs.phoneworld.apps.common import button, image_button, menu_item
from tasklang.envs.phoneworld.widgets import View

PACKAGE = "code.name.monkey.retromusic"
MAIN_ACTIVITY = f"{PACKAGE}.activities.MainActivity"
SEARCH_ACTIVITY = f"{PACKAGE}.activities.search.SearchActivity"
TABS = (
    ("songs", "Songs", "action_song"),
    ("albums", "Albums", "action_album"),
    ("artists", "Artists", "action_artist"),
    ("playlists", "Playlists", "action_playlist"),
)
SONG_MENU = (
    ("Play next", "play_next"),
    ("Add to playing queue", "enqueue"),
    ("Add to playlist…", "add_to_playlist"),
    ("Go to album", "go_album"),
    ("Go to artist", "go_artist"),
    ("Details", "details"),
    ("Delete from device", "delete_song"),
)
SCRATCH = Route("music:scratch", (), 0)
PREFIX = "music."
REPEAT_NEXT = {"off": "all", "all": "one", "one": "off"}
REPEAT_DESC = {"off": "Repeat off", "all": "Repeat all", "one": "Repeat one"}


def fmt_length(seconds: Any) -> str:
    """As the app shows a length: "3:07", "1:02:03"."""
    try:
        total = max(0, int(seconds))
    except (TypeError, ValueError):
        total = 0
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def songs_label(n: int) -> str:
    return f"{n} Song" if n == 1 else f"{n} Songs"


def text(value: str, rid: str = "", height: int = 0, **kw: Any) -> View:
    return View(w.TEXT, text=value, rid=rid, height=height, **kw)


class RetroMusic(App):
    model = "music"
    package = PACKAGE
    label = "Retro Music"
    activity = MAIN_ACTIVITY
    home = "main"

    # ------------------------------------------------------------ reading state
    def song(self, ctx: Ctx, title: Any) -> dict[str, Any] | None:
        return ctx.find("songs", lambda s: s.get("title") == title)

    def playlist(self, ctx: Ctx, name: Any) -> dict[str, Any] | None:
        return ctx.find("playlists", lambda p: p.get("name") == name)

    def library(self, ctx: Ctx) -> list[dict[str, Any]]:
        return sorted(ctx.records("songs"), key=lambda s: str(s.get("title") or "").casefold())

    def scratch(self, ctx: Ctx, name: str) -> str:
        return ctx.phone.forms.get(SCRATCH.id, {}).get(PREFIX + name, "")

    def put(self, ctx: Ctx, **values: Any) -> None:
        for name, value in values.items():
            ctx.set_form(PREFIX + name, "" if value is None else str(value), route=SCRATCH)

    def position(self, ctx: Ctx) -> int:
        """Seconds into the current song (the clock moves it while playing)."""
        song = self.song(ctx, ctx.setting("now_playing"))
        if song is None:
            return 0
        try:
            pos = int(self.scratch(ctx, "pos") or 0)
        except ValueError:
            pos = 0
        since = self.scratch(ctx, "since")
        if ctx.setting("playing") and since:
            pos += max(0, int((ctx.now - dt.datetime.fromisoformat(since)).total_seconds()))
        return min(pos, int(song.get("duration") or 0))

    # ------------------------------------------------------------ rows
    def song_row(
        self, s: dict[str, Any], key: str, arg: Any, extra: list[View] | None = None, **kw: Any
    ) -> View:
        title = str(s.get("title") or "")
        body = View(
            w.LINEAR,
            weight=0.7,
            children=[
                text(title, self.rid("title"), height=90),
                text(str(s.get("artist") or ""), self.rid("text"), height=70),
            ],
        )
        children = [View(w.IMAGE, rid=self.rid("image"), weight=0.15), body, *(extra or [])]
        children.append(
            View(
                w.IMAGE_BUTTON,
                rid=self.rid("menu"),
                desc="More options",
                clickable=True,
                focusable=True,
                on_click=key,
                arg=arg,
                weight=0.12,
            )
        )
        return View(
            w.LINEAR,
            horizontal=True,
            clickable=True,
            focusable=True,
            on_click="play",
            arg=kw.pop("play", (title, ())),
            height=190,
            children=children,
            **kw,
        )

    def song_rows(self, songs: list[dict[str, Any]]) -> list[View]:
        queue = tuple(str(s.get("title")) for s in songs)
        return [
            self.song_row(s, "song_menu", s.get("title"), play=(s.get("title"), queue))
            for s in songs
        ]

    def mini_player(self, ctx: Ctx) -> list[View]:
        s = self.song(ctx, ctx.setting("now_playing"))
        if s is None:
            return []
        playing = bool(ctx.setting("playing"))
        return [
            View(
                w.LINEAR,
                rid=self.rid("miniPlayerFragment"),
                horizontal=True,
                clickable=True,
                focusable=True,
                on_click="open_player",
                height=160,
                children=[
                    View(w.IMAGE, rid=self.rid("image"), weight=0.15),
                    text(
                        f"{s.get('title')} • {s.get('artist')}",
                        self.rid("miniPlayerTitle"),
                        weight=0.7,
                    ),
                    View(
                        w.IMAGE_BUTTON,
                        rid=self.rid("miniPlayerPlayPauseButton"),
                        desc="Pause" if playing else "Play",
                        clickable=True,
                        focusable=True,
                        on_click="toggle_play",
                        weight=0.15,
                    ),
                ],
            )
        ]

    def bottom_nav(self, tab: str) -> View:
        items = [
            View(
                w.FRAME,
                rid=self.rid(rid),
                desc=label,
                clickable=True,
                focusable=True,
                selected=name == tab,
                on_click="tab",
                arg=name,
                children=[text(label, self.rid("navigation_bar_item_large_label_view"))],
            )
            for name, label, rid in TABS
        ]
        return View(
            w.FRAME,
            rid=self.rid("bottomNavigationView"),
            horizontal=True,
            height=168,
            children=items,
        )

    # ------------------------------------------------------------ the library
    def screen_main(self, ctx: Ctx, route: Route) -> Screen:
        tab = str(route.arg("tab") or "songs")
        songs = self.library(ctx)
        rows: list[View]
        if tab == "songs":
            rows = [
                View(
                    w.LINEAR,
                    horizontal=True,
                    height=170,
                    children=[
                        button("Shuffle", "shuffle_all", rid=self.rid("shuffleButton")),
                        button("Play", "play_all", rid=self.rid("playButton")),
                    ],
                ),
                *self.song_rows(songs),
            ]
        elif tab == "albums":
            albums: dict[str, list[dict[str, Any]]] = {}
            for s in songs:
                albums.setdefault(str(s.get("album") or ""), []).append(s)
            rows = [
                self.group_row(
                    name, f"{items[0].get('artist')} • {songs_label(len(items))}", "album"
                )
                for name, items in sorted(albums.items(), key=lambda kv: kv[0].casefold())
            ]
        elif tab == "artists":
            artists: dict[str, int] = {}
            for s in songs:
                artists[str(s.get("artist") or "")] = artists.get(str(s.get("artist") or ""), 0) + 1
            rows = [
                self.group_row(name, songs_label(n), "artist")
                for name, n in sorted(artists.items(), key=lambda kv: kv[0].casefold())
            ]
        else:
            rows = [
                View(
                    w.LINEAR,
                    horizontal=True,
                    clickable=True,
                    focusable=True,
                    on_click="open_playlist",
                    arg=p.get("name"),
                    height=190,
                    children=[
                        View(w.IMAGE, rid=self.rid("image"), weight=0.15),
                        View(
                            w.LINEAR,
                            weight=0.7,
                            children=[
                                text(str(p.get("name") or ""), self.rid("title"), height=90),
                                text(
                                    songs_label(len(p.get("songs") or [])),
                                    self.rid("text"),
                                    height=70,
                                ),
                            ],
                        ),
                        image_button(
                            "More options", "playlist_menu", p.get("name"), rid=self.rid("menu")
                        ),
                    ],
                )
                for p in sorted(
                    ctx.records("playlists"), key=lambda p: str(p.get("name")).casefold()
                )
            ]
        if not rows:
            rows = [text("Nothing here yet", self.rid("emptyText"), height=300)]
        actions = [
            image_button("Search", "search", rid=self.rid("action_search")),
            image_button("More options", "main_menu", tab),
        ]
        return Screen(
            "Retro Music",
            rows,
            actions=actions,
            footer=[*self.mini_player(ctx), self.bottom_nav(tab)],
            list_rid=self.rid("recyclerView"),
        )

    def group_row(self, name: str, info: str, kind: str) -> View:
        return View(
            w.LINEAR,
            horizontal=True,
            clickable=True,
            focusable=True,
            on_click=f"open_{kind}",
            arg=name,
            height=190,
            children=[
                View(w.IMAGE, rid=self.rid("image"), weight=0.15),
                View(
                    w.LINEAR,
                    weight=0.85,
                    children=[
                        text(name, self.rid("title"), height=90),
                        text(info, self.rid("text"), height=70),
                    ],
                ),
            ],
        )

    def on_tab(self, ctx: Ctx, tab: str) -> None:
        if ctx.route is not None and ctx.route.arg("tab", "songs") != tab:
            ctx.replace("main", tab=tab)  # each tab is its own list, scrolled to the top

    def on_main_menu(self, ctx: Ctx, tab: Any) -> None:
        items = []
        if tab == "playlists":
            items.append(menu_item("New playlist", "new_playlist"))
        items += [menu_item("Shuffle all", "shuffle_all"), menu_item("Settings", "settings")]
        ctx.dialog(Dialog("", items=items))

    def on_settings(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("settings")

    # ------------------------------------------------------------ albums, artists
    def screen_album(self, ctx: Ctx, route: Route) -> Screen:
        name = route.arg("name")
        songs = [s for s in ctx.records("songs") if s.get("album") == name]
        songs.sort(key=lambda s: (int(s.get("track") or 0), str(s.get("title")).casefold()))
        artist = str(songs[0].get("artist")) if songs else ""
        total = sum(int(s.get("duration") or 0) for s in songs)
        header = text(
            f"{artist} • {songs_label(len(songs))} • {fmt_length(total)}",
            self.rid("albumText"),
            height=110,
        )
        return Screen(
            str(name),
            self.song_rows(songs),
            up=True,
            header=[header],
            footer=self.mini_player(ctx),
            list_rid=self.rid("recyclerView"),
        )

    def screen_artist(self, ctx: Ctx, route: Route) -> Screen:
        name = route.arg("name")
        songs = [s for s in self.library(ctx) if s.get("artist") == name]
        header = text(songs_label(len(songs)), self.rid("text"), height=110)
        return Screen(
            str(name),
            self.song_rows(songs),
            up=True,
            header=[header],
            footer=self.mini_player(ctx),
            list_rid=self.rid("recyclerView"),
        )

    def on_open_album(self, ctx: Ctx, name: Any) -> None:
        ctx.push("album", name=name)

    def on_open_artist(self, ctx: Ctx, name: Any) -> None:
        ctx.push("artist", name=name)

    # ------------------------------------------------------------ playing
    def start(self, ctx: Ctx, title: Any, queue: tuple[str, ...] | list[str]) -> None:
        if self.song(ctx, title) is None:
            return
        queue = list(queue) or [str(title)]
        if ctx.setting("queue") != queue:
            ctx.set("queue", queue)
        if ctx.setting("now_playing") != title:
            ctx.set("now_playing", title)
        if not ctx.setting("playing"):
            ctx.set("playing", True)
        self.put(ctx, pos=0, since=ctx.now.isoformat())

    def on_play(self, ctx: Ctx, arg: tuple[Any, tuple[str, ...]]) -> None:
        title, queue = arg
        if self.scratch(ctx, "moving") and ctx.route is not None and ctx.route.screen == "playlist":
            self.drop(ctx, ctx.route.arg("name"), title)
            return
        self.start(ctx, title, queue)

    def on_play_all(self, ctx: Ctx, arg: Any) -> None:
        songs = [str(s.get("title")) for s in self.library(ctx)]
        if songs:
            if ctx.setting("shuffle"):
                ctx.set("shuffle", False)
            self.start(ctx, songs[0], songs)

    def on_shuffle_all(self, ctx: Ctx, arg: Any) -> None:
        songs = [str(s.get("title")) for s in self.library(ctx)]
        if not songs:
            return
        order = self.shuffled(ctx, songs)
        if not ctx.setting("shuffle"):
            ctx.set("shuffle", True)
        self.start(ctx, order[0], order)

    def shuffled(self, ctx: Ctx, titles: list[str]) -> list[str]:
        """A shuffled order that depends only on the phone's clock (replays are identical)."""
        order = list(titles)
        random.Random(ctx.now.isoformat()).shuffle(order)
        return order

    def on_toggle_play(self, ctx: Ctx, arg: Any) -> None:
        if self.song(ctx, ctx.setting("now_playing")) is None:
            return
        if ctx.setting("playing"):
            self.put(ctx, pos=self.position(ctx), since="")
            ctx.set("playing", False)
        else:
            self.put(ctx, since=ctx.now.isoformat())
            ctx.set("playing", True)

    def on_skip(self, ctx: Ctx, step: int) -> None:
        queue = list(ctx.setting("queue") or [])
        current = ctx.setting("now_playing")
        if current not in queue:
            return
        if step < 0 and self.position(ctx) > 3:  # "previous" restarts a song under way
            self.put(ctx, pos=0, since=ctx.now.isoformat() if ctx.setting("playing") else "")
            return
        i = queue.index(current) + step
        if not 0 <= i < len(queue):
            if ctx.setting("repeat") != "all":
                return
            i %= len(queue)
        ctx.set("now_playing", queue[i])
        self.put(ctx, pos=0, since=ctx.now.isoformat() if ctx.setting("playing") else "")

    def on_shuffle(self, ctx: Ctx, arg: Any) -> None:
        ctx.set("shuffle", not ctx.setting("shuffle"))

    def on_repeat(self, ctx: Ctx, arg: Any) -> None:
        ctx.set("repeat", REPEAT_NEXT.get(str(ctx.setting("repeat") or "off"), "off"))

    def on_open_player(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("player")

    def screen_player(self, ctx: Ctx, route: Route) -> Screen:
        s = self.song(ctx, ctx.setting("now_playing"))
        if s is None:
            return Screen(
                "", [text("Nothing is playing", self.rid("emptyText"), height=300)], up=True
            )
        playing = bool(ctx.setting("playing"))
        repeat = str(ctx.setting("repeat") or "off")
        rows = [
            View(w.IMAGE, rid=self.rid("playerAlbumCoverFragment"), height=800),
            text(str(s.get("title") or ""), self.rid("title"), height=120),
            text(str(s.get("artist") or ""), self.rid("text"), height=100),
            View(w.SEEKBAR, rid=self.rid("progressSlider"), height=80),
            View(
                w.LINEAR,
                horizontal=True,
                height=90,
                children=[
                    text(fmt_length(self.position(ctx)), self.rid("songCurrentProgress")),
                    text(fmt_length(s.get("duration")), self.rid("songTotalTime")),
                ],
            ),
            View(
                w.LINEAR,
                horizontal=True,
                height=220,
                children=[
                    View(
                        w.IMAGE_BUTTON,
                        rid=self.rid("repeatButton"),
                        desc=REPEAT_DESC.get(repeat, "Repeat off"),
                        clickable=True,
                        focusable=True,
                        selected=repeat != "off",
                        on_click="repeat",
                    ),
                    image_button("Previous", "skip", -1, rid=self.rid("previousButton")),
                    image_button(
                        "Pause" if playing else "Play",
                        "toggle_play",
                        rid=self.rid("playPauseButton"),
                    ),
                    image_button("Next", "skip", 1, rid=self.rid("nextButton")),
                    View(
                        w.IMAGE_BUTTON,
                        rid=self.rid("shuffleButton"),
                        desc="Shuffle",
                        clickable=True,
                        focusable=True,
                        selected=bool(ctx.setting("shuffle")),
                        on_click="shuffle",
                    ),
                ],
            ),
            button("Playing queue", "open_queue", rid=self.rid("playerQueueSheet"), height=150),
        ]
        return Screen(
            None,
            rows,
            header=[
                View(
                    w.VIEWGROUP,
                    rid=self.rid("playerToolbar"),
                    horizontal=True,
                    height=147,
                    children=[
                        image_button("Navigate up", "close_player"),
                        View(w.VIEW, weight=0.55),
                        image_button("Add to playlist", "add_to_playlist", s.get("title")),
                        image_button("More options", "song_menu", s.get("title")),
                    ],
                )
            ],
            list_rid=self.rid("playerFragmentContainer"),
            list_cls=w.FRAME,
        )

    def on_close_player(self, ctx: Ctx, arg: Any) -> None:
        ctx.back()

    def on_open_queue(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("queue")

    def screen_queue(self, ctx: Ctx, route: Route) -> Screen:
        queue = [t for t in (ctx.setting("queue") or []) if self.song(ctx, t) is not None]
        current = ctx.setting("now_playing")
        rows = []
        for i, title in enumerate(queue):
            s = self.song(ctx, title)
            assert s is not None
            rows.append(
                self.song_row(
                    s, "queue_menu", i, play=(title, tuple(queue)), selected=title == current
                )
            )
        if not rows:
            rows = [text("The playing queue is empty", self.rid("emptyText"), height=300)]
        return Screen("Playing queue", rows, up=True, list_rid=self.rid("recyclerView"))

    def on_queue_menu(self, ctx: Ctx, index: Any) -> None:
        ctx.dialog(Dialog("", items=[menu_item("Remove from playing queue", "dequeue", index)]))

    def on_dequeue(self, ctx: Ctx, index: Any) -> None:
        queue = list(ctx.setting("queue") or [])
        if isinstance(index, int) and 0 <= index < len(queue):
            gone = queue.pop(index)
            ctx.set("queue", queue)
            if gone == ctx.setting("now_playing") and gone not in queue:
                ctx.set("now_playing", queue[min(index, len(queue) - 1)] if queue else None)
                if not queue:
                    ctx.set("playing", False)
                self.put(ctx, pos=0, since=ctx.now.isoformat() if ctx.setting("playing") else "")

    # ------------------------------------------------------------ the song menu
    def on_song_menu(self, ctx: Ctx, title: Any) -> None:
        if self.song(ctx, title) is None:
            return
        ctx.dialog(Dialog("", items=[menu_item(label, key, title) for label, key in SONG_MENU]))

    def on_play_next(self, ctx: Ctx, title: Any) -> None:
        queue = list(ctx.setting("queue") or [])
        current = ctx.setting("now_playing")
        if current not in queue:
            self.start(ctx, title, [title])
            return
        queue.insert(queue.index(current) + 1, str(title))
        ctx.set("queue", queue)
        ctx.toast("Added 1 title to the playing queue.")

    def on_enqueue(self, ctx: Ctx, title: Any) -> None:
        queue = list(ctx.setting("queue") or [])
        if not queue:
            self.start(ctx, title, [title])
            return
        ctx.set("queue", [*queue, str(title)])
        ctx.toast("Added 1 title to the playing queue.")

    def on_go_album(self, ctx: Ctx, title: Any) -> None:
        s = self.song(ctx, title)
        if s is not None:
            ctx.push("album", name=s.get("album"))

    def on_go_artist(self, ctx: Ctx, title: Any) -> None:
        s = self.song(ctx, title)
        if s is not None:
            ctx.push("artist", name=s.get("artist"))

    def on_details(self, ctx: Ctx, title: Any) -> None:
        s = self.song(ctx, title)
        if s is None:
            return
        pairs = (
            ("File name", str(s.get("path") or "").rsplit("/", 1)[-1]),
            ("File path", str(s.get("path") or "")),
            ("Track length", fmt_length(s.get("duration"))),
            ("Title", str(s.get("title") or "")),
            ("Artist", str(s.get("artist") or "")),
            ("Album", str(s.get("album") or "")),
            ("Year", str(s.get("year") or "-")),
        )
        items = [text(f"{k}: {v}", height=110) for k, v in pairs]
        ctx.dialog(Dialog("Details", items=items, buttons=[("OK", None, None)]))

    def on_delete_song(self, ctx: Ctx, title: Any) -> None:
        if self.song(ctx, title) is None:
            return
        ctx.dialog(
            Dialog(
                "Delete song",
                message=f"Do you want to delete the song {title}?",
                buttons=[("Delete", "delete_song_ok", title), ("Cancel", None, None)],
            )
        )

    def on_delete_song_ok(self, ctx: Ctx, title: Any) -> None:
        s = self.song(ctx, title)
        if s is None:
            return
        ctx.delete("songs", s)
        for p in list(ctx.records("playlists")):
            if title in (p.get("songs") or []):
                ctx.update("playlists", p, songs=[t for t in p["songs"] if t != title])
        queue = list(ctx.setting("queue") or [])
        if title in queue:
            ctx.set("queue", [t for t in queue if t != title])
        if ctx.setting("now_playing") == title:
            ctx.set("now_playing", None)
            ctx.set("playing", False)
        ctx.toast("Deleted 1 song.")

    # ------------------------------------------------------------ playlists
    def on_add_to_playlist(self, ctx: Ctx, title: Any) -> None:
        if self.song(ctx, title) is None:
            return
        items = [menu_item("New playlist…", "new_playlist", title)]
        items += [
            menu_item(str(p.get("name")), "add_to", (p.get("name"), title))
            for p in sorted(ctx.records("playlists"), key=lambda p: str(p.get("name")).casefold())
        ]
        ctx.dialog(Dialog("Add to playlist", items=items))

    def on_add_to(self, ctx: Ctx, arg: tuple[Any, Any]) -> None:
        name, title = arg
        p = self.playlist(ctx, name)
        if p is None or self.song(ctx, title) is None:
            return
        songs = list(p.get("songs") or [])
        if title in songs:
            ctx.toast(f"Song already exists in {name}")
            return
        ctx.update("playlists", p, songs=[*songs, str(title)])
        ctx.toast(f"Added 1 song to {name}")

    def on_new_playlist(self, ctx: Ctx, title: Any) -> None:
        ctx.set_form("playlist_name", "")
        field = View(
            w.TEXT,
            rid=self.rid("actionNewPlaylist"),
            edit="playlist_name",
            hint="Playlist name",
            height=160,
        )
        ctx.dialog(
            Dialog(
                "New playlist",
                items=[field],
                buttons=[("Create", "create_playlist", title), ("Cancel", None, None)],
            )
        )
        ctx.focus("playlist_name")

    def on_create_playlist(self, ctx: Ctx, title: Any) -> None:
        name = ctx.form("playlist_name").strip()
        ctx.hide_keyboard()
        if not name:
            ctx.toast("Playlist name can't be empty")
            return
        if self.playlist(ctx, name) is not None:
            ctx.toast(f"Playlist {name} exists")
            return
        songs = [str(title)] if title is not None and self.song(ctx, title) else []
        ctx.add("playlists", {"name": name, "songs": songs})
        ctx.toast(f"Playlist {name} created")

    def on_open_playlist(self, ctx: Ctx, name: Any) -> None:
        if self.playlist(ctx, name) is not None:
            self.put(ctx, moving="")
            ctx.push("playlist", name=name)

    def on_playlist_menu(self, ctx: Ctx, name: Any) -> None:
        if self.playlist(ctx, name) is None:
            return
        items = [
            menu_item("Play", "play_playlist", name),
            menu_item("Play next", "playlist_next", name),
            menu_item("Add to playing queue", "playlist_enqueue", name),
            menu_item("Rename", "rename_playlist", name),
            menu_item("Delete", "delete_playlist", name),
        ]
        ctx.dialog(Dialog("", items=items))

    def playlist_songs(self, ctx: Ctx, name: Any) -> list[str]:
        p = self.playlist(ctx, name)
        return [t for t in (p.get("songs") or []) if self.song(ctx, t)] if p else []

    def on_play_playlist(self, ctx: Ctx, name: Any) -> None:
        songs = self.playlist_songs(ctx, name)
        if songs:
            self.start(ctx, songs[0], songs)

    def on_shuffle_playlist(self, ctx: Ctx, name: Any) -> None:
        songs = self.playlist_songs(ctx, name)
        if songs:
            order = self.shuffled(ctx, songs)
            if not ctx.setting("shuffle"):
                ctx.set("shuffle", True)
            self.start(ctx, order[0], order)

    def on_playlist_next(self, ctx: Ctx, name: Any) -> None:
        for title in reversed(self.playlist_songs(ctx, name)):
            self.on_play_next(ctx, title)

    def on_playlist_enqueue(self, ctx: Ctx, name: Any) -> None:
        for title in self.playlist_songs(ctx, name):
            self.on_enqueue(ctx, title)

    def on_rename_playlist(self, ctx: Ctx, name: Any) -> None:
        ctx.set_form("playlist_name", str(name))
        field = View(
            w.TEXT,
            rid=self.rid("actionNewPlaylist"),
            edit="playlist_name",
            hint="Playlist name",
            height=160,
        )
        ctx.dialog(
            Dialog(
                "Rename playlist",
                items=[field],
                buttons=[("Rename", "rename_ok", name), ("Cancel", None, None)],
            )
        )

    def on_rename_ok(self, ctx: Ctx, old: Any) -> None:
        name = ctx.form("playlist_name").strip()
        p = self.playlist(ctx, old)
        ctx.hide_keyboard()
        if p is None or not name or name == old:
            return
        if self.playlist(ctx, name) is not None:
            ctx.toast(f"Playlist {name} exists")
            return
        ctx.update("playlists", p, name=name)

    def on_delete_playlist(self, ctx: Ctx, name: Any) -> None:
        if self.playlist(ctx, name) is None:
            return
        ctx.dialog(
            Dialog(
                "Delete playlist",
                message=f"Do you want to delete the playlist {name}?",
                buttons=[("Delete", "delete_playlist_ok", name), ("Cancel", None, None)],
            )
        )

    def on_delete_playlist_ok(self, ctx: Ctx, name: Any) -> None:
        p = self.playlist(ctx, name)
        if p is None:
            return
        ctx.delete("playlists", p)
        if ctx.route is not None and ctx.route.screen == "playlist":
            ctx.back()
        ctx.toast(f"Deleted playlist {name}")

    def screen_playlist(self, ctx: Ctx, route: Route) -> Screen:
        name = route.arg("name")
        p = self.playlist(ctx, name)
        songs = list(p.get("songs") or []) if p else []
        try:
            moving = int(self.scratch(ctx, "moving")) if self.scratch(ctx, "moving") else -1
        except ValueError:
            moving = -1
        rows = []
        for i, title in enumerate(songs):
            s = self.song(ctx, title)
            if s is None:
                continue
            handle = View(
                w.IMAGE,
                rid=self.rid("drag_view"),
                desc="Drag to reorder",
                clickable=True,
                long_clickable=True,
                focusable=True,
                selected=i == moving,
                on_click="drop" if moving >= 0 else None,
                on_long="pick_up",
                arg=(name, i),
                weight=0.12,
            )
            length = text(fmt_length(s.get("duration")), self.rid("duration"), weight=0.15)
            rows.append(
                self.song_row(
                    s,
                    "playlist_song_menu",
                    (name, i),
                    extra=[length],
                    play=(title, tuple(songs)),
                    selected=i == moving,
                )
            )
            rows[-1].children.insert(0, handle)
        if not rows:
            rows = [text("This playlist is empty", self.rid("emptyText"), height=300)]
        header = View(
            w.LINEAR,
            horizontal=True,
            height=170,
            children=[
                button("Play", "play_playlist", name, rid=self.rid("playButton")),
                button("Shuffle", "shuffle_playlist", name, rid=self.rid("shuffleButton")),
            ],
        )
        return Screen(
            str(name),
            rows,
            up=True,
            actions=[image_button("More options", "playlist_menu", name)],
            header=[text(songs_label(len(songs)), self.rid("songCount"), height=100), header],
            footer=self.mini_player(ctx),
            list_rid=self.rid("recyclerView"),
        )

    def on_pick_up(self, ctx: Ctx, arg: tuple[Any, int]) -> None:
        self.put(ctx, moving=arg[1])

    def on_drop(self, ctx: Ctx, arg: tuple[Any, int]) -> None:
        name, i = arg
        p = self.playlist(ctx, name)
        if p is None:
            return
        self.drop(ctx, name, (p.get("songs") or [])[i] if i < len(p.get("songs") or []) else None)

    def drop(self, ctx: Ctx, name: Any, target: Any) -> None:
        """Move the picked-up song of playlist ``name`` to where ``target`` is."""
        p = self.playlist(ctx, name)
        moving = self.scratch(ctx, "moving")
        self.put(ctx, moving="")
        if p is None or not moving:
            return
        songs = list(p.get("songs") or [])
        src = int(moving)
        if target not in songs or not 0 <= src < len(songs):
            return
        dst = songs.index(target)
        if src == dst:
            return
        songs.insert(dst, songs.pop(src))
        ctx.update("playlists", p, songs=songs)

    def on_playlist_song_menu(self, ctx: Ctx, arg: tuple[Any, int]) -> None:
        name, i = arg
        songs = (self.playlist(ctx, name) or {}).get("songs") or []
        if not 0 <= i < len(songs):
            return
        title = songs[i]
        items = [
            menu_item("Play next", "play_next", title),
            menu_item("Add to playing queue", "enqueue", title),
            menu_item("Add to playlist…", "add_to_playlist", title),
            menu_item("Remove from playlist", "remove_from_playlist", arg),
            menu_item("Details", "details", title),
        ]
        ctx.dialog(Dialog("", items=items))

    def on_remove_from_playlist(self, ctx: Ctx, arg: tuple[Any, int]) -> None:
        name, i = arg
        p = self.playlist(ctx, name)
        songs = list((p or {}).get("songs") or [])
        if p is None or not 0 <= i < len(songs):
            return
        title = songs[i]
        ctx.dialog(
            Dialog(
                "Remove song from playlist",
                message=f"Remove the song {title} from the playlist?",
                buttons=[("Remove", "remove_ok", (name, i)), ("Cancel", None, None)],
            )
        )

    def on_remove_ok(self, ctx: Ctx, arg: tuple[Any, int]) -> None:
        name, i = arg
        p = self.playlist(ctx, name)
        songs = list((p or {}).get("songs") or [])
        if p is None or not 0 <= i < len(songs):
            return
        songs.pop(i)
        self.put(ctx, moving="")
        ctx.update("playlists", p, songs=songs)

    # ------------------------------------------------------------ search
    def on_search(self, ctx: Ctx, arg: Any) -> None:
        route = ctx.push("search")
        Ctx(ctx.phone, self, route).focus("query")  # the search box opens focused

    def screen_search(self, ctx: Ctx, route: Route) -> Screen:
        query = ctx.form("query").strip().casefold()
        rows: list[View] = []
        if query:
            songs = [s for s in self.library(ctx) if query in str(s.get("title")).casefold()]
            if songs:
                rows.append(text("Songs", self.rid("sectionHeader"), height=110))
                rows += self.song_rows(songs)
            albums = sorted(
                {
                    str(s.get("album"))
                    for s in ctx.records("songs")
                    if query in str(s.get("album")).casefold()
                },
                key=str.casefold,
            )
            if albums:
                rows.append(text("Albums", self.rid("sectionHeader"), height=110))
                rows += [self.group_row(a, "Album", "album") for a in albums]
            artists = sorted(
                {
                    str(s.get("artist"))
                    for s in ctx.records("songs")
                    if query in str(s.get("artist")).casefold()
                },
                key=str.casefold,
            )
            if artists:
                rows.append(text("Artists", self.rid("sectionHeader"), height=110))
                rows += [self.group_row(a, "Artist", "artist") for a in artists]
            if not rows:
                rows.append(text("No results", self.rid("empty"), height=300))
        field = View(
            w.TEXT,
            rid=self.rid("searchView"),
            edit="query",
            hint="Search your library…",
            weight=0.7,
        )
        bar = View(
            w.VIEWGROUP,
            rid=self.rid("toolbar"),
            horizontal=True,
            height=147,
            children=[
                image_button("Navigate up", "up"),
                field,
                image_button("Clear", "clear_search", rid=self.rid("clearText")),
            ],
        )
        return Screen(
            None,
            rows,
            activity=SEARCH_ACTIVITY,
            header=[bar],
            footer=self.mini_player(ctx),
            list_rid=self.rid("recyclerView"),
        )

    def on_up(self, ctx: Ctx, arg: Any) -> None:
        ctx.hide_keyboard()
        ctx.back()

    def on_clear_search(self, ctx: Ctx, arg: Any) -> None:
        ctx.set_form("query", "")
        ctx.focus("query")

    # ------------------------------------------------------------ settings
    def screen_settings(self, ctx: Ctx, route: Route) -> Screen:
        rows = [
            View(
                w.LINEAR,
                horizontal=True,
                clickable=True,
                focusable=True,
                on_click="repeat",
                height=170,
                children=[
                    text("Repeat mode", "android:id/title", weight=0.6),
                    text(
                        REPEAT_DESC.get(str(ctx.setting("repeat") or "off"), ""),
                        "android:id/summary",
                        weight=0.4,
                    ),
                ],
            ),
            View(
                w.LINEAR,
                horizontal=True,
                clickable=True,
                focusable=True,
                on_click="shuffle",
                height=170,
                children=[
                    text("Shuffle mode", "android:id/title", weight=0.8),
                    View(
                        w.SWITCH,
                        rid="android:id/switch_widget",
                        checkable=True,
                        checked=bool(ctx.setting("shuffle")),
                        weight=0.2,
                    ),
                ],
            ),
        ]
        return Screen("Settings", rows, up=True, list_rid=self.rid("recycler_view"))


APP = RetroMusic
