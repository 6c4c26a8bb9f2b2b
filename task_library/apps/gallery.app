# Simple Gallery Pro (com.simplemobiletools.gallery.pro), Simple Mobile Tools. `media` is the
# gallery's own media table: the files it indexed outside the camera's folder, and the rows it
# keeps for any file it marked (favourite, moved to the Recycle Bin). The photos and videos of
# the Camera app (camera.media) show in its "Camera" album too: they stay the camera's records
# while they are in /sdcard/DCIM/Camera, and the gallery renames and deletes them there.
app gallery {
  package "com.simplemobiletools.gallery.pro"
  label "Gallery"

  record Medium {
    path: file key  # e.g. "/sdcard/Pictures/Screenshots/Screenshot_20260512-101500.png"
    name: text  # file name with extension
    folder: text  # the album: the name of the folder that holds it, e.g. "Screenshots"
    kind: enum(image, video, gif) = "image"
    taken: datetime
    size: int  # bytes
    favourite: bool = false
    in_recycle_bin: bool = false
  }

  record Album {
    path: file key  # e.g. "/sdcard/Pictures/Trips"
    name: text
    pinned: bool = false
  }

  collection media: Medium
  collection albums: Album

  settings {
    sort_by: enum(name, path, size, modified, taken) = "modified"
    sort_descending: bool = true
    show_images: bool = true
    show_videos: bool = true
    show_gifs: bool = true
    view: enum(grid, list) = "grid"
    show_filenames: bool = true
    use_recycle_bin: bool = true
    show_recycle_bin: bool = true
    skip_delete_confirmation: bool = false
  }

  # `parent_path` is the full path of the item's folder (the album is its last part); `type` is
  # 1 for an image, 2 a video, 4 a GIF; `deleted_ts` is when the item went to the recycle bin
  # (0 outside it).
  probe media: sqlite "/data/data/com.simplemobiletools.gallery.pro/databases/gallery.db" table "media" {
    path = "full_path",
    name = "filename",
    taken = "date_taken",
    size = "size",
    favourite = "is_favorite",
    folder = "parent_path",
    kind = "type",
    in_recycle_bin = "deleted_ts",
  }
  probe albums: sqlite "/data/data/com.simplemobiletools.gallery.pro/databases/gallery.db" table "directories" {
    path = "path",
    name = "filename",
  }
}
