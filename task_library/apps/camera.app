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

  # A capture's `kind` is its file name's extension: .jpg a photo, .mp4 a video.
  probe media: files "/sdcard/DCIM/Camera/*" {
    path = "path",
    name = "name",
    kind = "name",
    size = "size",
    taken = "modified",
  }
  probe grid: ui id "com.android.camera2:id/grid_lines_toggle_button"
}
