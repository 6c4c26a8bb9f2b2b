# Retro Music (code.name.monkey.retromusic), the music player AndroidWorld uses. Songs are the
# device's audio files as the media store lists them; playlists live in the app's Room database
# (databases/playlist.db: PlaylistEntity, and SongEntity rows in playlist order); the playing
# queue and the current song are the app's playback service state.
app music {
  package "code.name.monkey.retromusic"
  label "Retro Music"

  record Song {
    title: text key
    artist: text
    album: text
    duration: duration
    track: int = 0  # track number within the album
    year: int?
    path: file?  # e.g. "/sdcard/Music/Sunrise.mp3"
  }

  record Playlist {
    name: text key
    songs: list of text = []  # Song.title, in playlist order
  }

  collection songs: Song
  collection playlists: Playlist

  settings {
    now_playing: text?  # Song.title of the current song
    playing: bool = false  # playing, not paused
    queue: list of text = []  # the playing queue, Song.title in order
    shuffle: bool = false
    repeat: enum(off, all, one) = "off"
  }

  probe songs: content "content://media/external/audio/media" {
    title = "title",
    artist = "artist",
    album = "album",
    duration = "duration",
    track = "track",
    year = "year",
    path = "_data",
  }
  # A playlist's songs are the `SongEntity` rows that point at it (`playlist_creator_id`), in
  # the order they were added.
  probe playlists: sqlite "/data/data/code.name.monkey.retromusic/databases/playlist.db" table "PlaylistEntity" {
    name = "playlist_name",
    songs = "SongEntity(playlist_creator_id = playlist_id).title",
  }
  # The current song and whether it plays are the player's media session, which the media
  # session service prints (`dumpsys media_session`: the session's PlaybackState and the
  # description of its metadata, "TITLE, ARTIST, ALBUM"); read after every step, unread while
  # the player has no session (it is not running) or the description splits more than one way.
  probe now_playing: setting media_session "title"
  probe playing: setting media_session "playing"
  # The playing queue is what the playback service saves to its own database on every change
  # (databases/music_playback_state.db: a `playing_queue` row per song, in queue order, with
  # the song's `title`), which is where AndroidWorld's check reads it.
  probe queue: sqlite "/data/data/code.name.monkey.retromusic/databases/music_playback_state.db" table "playing_queue" {
    queue = "title",
  }
  # The playback service saves its shuffle and repeat modes as <int> entries of the app's default
  # shared preferences (SHUFFLE_MODE_NONE 0, SHUFFLE_MODE_SHUFFLE 1; REPEAT_MODE_NONE 0,
  # REPEAT_MODE_ALL 1, REPEAT_MODE_THIS 2).
  probe shuffle: prefs "/data/data/code.name.monkey.retromusic/shared_prefs/code.name.monkey.retromusic_preferences.xml"
    key "SHUFFLE_MODE" { false = "0", true = "1" }
  probe repeat: prefs "/data/data/code.name.monkey.retromusic/shared_prefs/code.name.monkey.retromusic_preferences.xml"
    key "REPEAT_MODE" { off = "0", all = "1", one = "2" }
}
