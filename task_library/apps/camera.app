# Camera (com.android.camera2), the AOSP camera app AndroidWorld's emulator ships. Photos and
# videos are files under /sdcard/DCIM/Camera (IMG_yyyyMMdd_HHmmss.jpg, VID_yyyyMMdd_HHmmss.mp4)
# named after the phone's clock; the settings live in the app's shared preferences.
app camera {
  package "com.android.camera2"
  label "Camera"

  record Capture {
    path: file key  # e.g. "/sdcard/DCIM/Camera/IMG_20260514_093015.jpg"
    name: text  # file name with extension
    kind: enum(photo, video) = "photo"
    taken: datetime
    size: int  # bytes
    duration: duration = 0s  # videos only
    camera: enum(back, front) = "back"
  }

  collection media: Capture
  # a capture keeps the lens it was taken with
  changes media.camera nowhere

  settings {
    mode: enum(photo, video) = "photo"
    timer: enum(off, s3, s10) = "off"
    flash: enum(auto, on, off) = "auto"
    grid: bool = false
    lens: enum(back, front) = "back"
    save_location: bool = false
    photo_resolution: enum(r4_3, r16_9) = "r4_3"
    video_quality: enum(fhd, hd, sd) = "fhd"
  }

  # A capture's `kind` is its file name's extension: .jpg a photo, .mp4 a video. No MediaStore
  # column or EXIF tag the app writes says which lens took it: its `camera` is the `lens`
  # setting when the file appeared, which a phone probed after every step knows where the
  # setting read the same before and after that step (the app takes a capture with the lens
  # in use, and hides its lens switch while a countdown or a recording runs). Its `duration`
  # is the media store's (milliseconds, read to the second below), which the app writes for
  # a video it records; it keeps none for a photo, or for a video setup writes (bytes with no
  # media in them), whose length is then not read.
  probe media: files "/sdcard/DCIM/Camera/*" {
    path = "path",
    name = "name",
    kind = "name",
    size = "size",
    taken = "modified",
    duration = "media duration",
    camera = "lens when added",
  }
  # Settings are <string> entries of the app's default shared preferences, under the keys of
  # its `Keys` class: booleans as "1" / "0", the camera id ("0" back, "1" front), the countdown
  # in seconds, the flash mode by name, the picture size of the back camera as WIDTHxHEIGHT (the
  # emulator's back camera: 1280x960 for 4:3, 1280x720 for 16:9), the video quality as "large",
  # "medium" or "small"; the mode is the <int> index of the module it starts in (0 photo,
  # 1 video).
  probe mode: prefs "/data/data/com.android.camera2/shared_prefs/com.android.camera2_preferences.xml"
    key "camera.startup_module" { photo = "0", video = "1" }
  probe timer: prefs "/data/data/com.android.camera2/shared_prefs/com.android.camera2_preferences.xml"
    key "pref_camera_countdown_duration_key" { off = "0", s3 = "3", s10 = "10" }
  probe flash: prefs "/data/data/com.android.camera2/shared_prefs/com.android.camera2_preferences.xml"
    key "pref_camera_flashmode_key"
  probe grid: prefs "/data/data/com.android.camera2/shared_prefs/com.android.camera2_preferences.xml"
    key "pref_camera_grid_lines" { true = "1", false = "0" }
  probe lens: prefs "/data/data/com.android.camera2/shared_prefs/com.android.camera2_preferences.xml"
    key "pref_camera_id_key" { back = "0", front = "1" }
  probe save_location: prefs "/data/data/com.android.camera2/shared_prefs/com.android.camera2_preferences.xml"
    key "pref_camera_recordlocation_key" { true = "1", false = "0" }
  probe photo_resolution: prefs "/data/data/com.android.camera2/shared_prefs/com.android.camera2_preferences.xml"
    key "pref_camera_picturesize_back_key" { r4_3 = "1280x960", r16_9 = "1280x720" }
  probe video_quality: prefs "/data/data/com.android.camera2/shared_prefs/com.android.camera2_preferences.xml"
    key "pref_video_quality_back_key" { fhd = "large", hd = "medium", sd = "small" }
}
