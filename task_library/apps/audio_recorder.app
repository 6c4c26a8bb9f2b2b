# Audio Recorder by Dmytro Ponomarenko (com.dimowner.audiorecorder), the recorder AndroidWorld
# installs. Recordings are files in the app's records folder, each listed by a row of the app's
# database; its settings live in its shared preferences
# (shared_prefs/com.dimowner.audiorecorder.data.PrefsImpl.xml).
app audio_recorder {
  package "com.dimowner.audiorecorder"
  label "Audio Recorder"

  record Recording {
    name: text key  # file name without extension, e.g. "Record-12"
    path: file  # e.g. "/sdcard/Android/data/com.dimowner.audiorecorder/files/Music/records/Record-12.m4a"
    duration: duration
    created: datetime
    size: int  # bytes
    bookmarked: bool = false
  }

  collection recordings: Recording

  settings {
    format: enum(m4a, wav, three_gp) = "m4a"
    sample_rate: enum(r8000, r16000, r22050, r32000, r44100, r48000) = "r44100"
    stereo: bool = false
    keep_screen_on: bool = false
    name_format: enum(record, date, date_us, date_iso, timestamp) = "record"
  }

  # The records list is the app's database, records.db (its SQLiteHelper): a row is written
  # as a recording starts (duration 0) and gets its duration and size when it stops. `name` is
  # the file name without its extension, `duration` in microseconds (as MediaExtractor gives
  # it), `created` the file's last-modified time when the row was written, in epoch
  # milliseconds, and `bookmark` 1 or 0. (The files alone do not say how long a recording is:
  # the media store does not index the app's own folder.)
  probe recordings: sqlite "/data/data/com.dimowner.audiorecorder/databases/records.db" table "records" {
    name = "name",
    path = "path",
    duration = "duration",
    created = "created",
    size = "size",
    bookmarked = "bookmark",
  }
  # Settings as PrefsImpl writes them: the format and the naming format as <string> keys
  # ("m4a", "wav", "3gp"; "record", "date", "date_us", "date_iso", "timestamp"), the sample rate
  # and the channel count (1 mono, 2 stereo) as <int>, keeping the screen on as a <boolean>.
  probe format: prefs "/data/data/com.dimowner.audiorecorder/shared_prefs/com.dimowner.audiorecorder.data.PrefsImpl.xml"
    key "setting_recording_format" { m4a = "m4a", wav = "wav", three_gp = "3gp" }
  probe sample_rate: prefs "/data/data/com.dimowner.audiorecorder/shared_prefs/com.dimowner.audiorecorder.data.PrefsImpl.xml"
    key "setting_sample_rate" {
    r8000 = "8000",
    r16000 = "16000",
    r22050 = "22050",
    r32000 = "32000",
    r44100 = "44100",
    r48000 = "48000",
  }
  probe stereo: prefs "/data/data/com.dimowner.audiorecorder/shared_prefs/com.dimowner.audiorecorder.data.PrefsImpl.xml"
    key "setting_channel_count" { true = "2", false = "1" }
  probe keep_screen_on: prefs "/data/data/com.dimowner.audiorecorder/shared_prefs/com.dimowner.audiorecorder.data.PrefsImpl.xml"
    key "keep_screen_on"
  probe name_format: prefs "/data/data/com.dimowner.audiorecorder/shared_prefs/com.dimowner.audiorecorder.data.PrefsImpl.xml"
    key "setting_naming_format"
}
