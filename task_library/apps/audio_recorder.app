# Audio Recorder by Dmytro Ponomarenko (com.dimowner.audiorecorder), the recorder AndroidWorld
# installs. Recordings are files in the app's records folder; its settings live in its shared
# preferences (shared_prefs/com.dimowner.audiorecorder.data.PrefsImpl.xml).
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

  probe recordings: files "/sdcard/Android/data/com.dimowner.audiorecorder/files/Music/records/*" {
    path = "path",
    name = "stem",
    size = "size",
    created = "modified",
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
