# Audio Recorder by Dmytro Ponomarenko (com.dimowner.audiorecorder), the recorder AndroidWorld
# installs. Recordings are files in the app's records folder; its settings live in shared
# preferences, read back through the UI.
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
    name = "name",
    size = "size",
    created = "modified",
  }
  probe format: ui id "com.dimowner.audiorecorder:id/txt_format"
}
