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
  # Options are entries of shared_prefs/Prefs.xml under the keys of the app's Config and of
  # Simple Commons' BaseConfig. The sort of media is one <int> of flags, `sort_order`
  # (SORT_BY_NAME 1, SORT_BY_DATE_MODIFIED 2, SORT_BY_SIZE 4, SORT_BY_DATE_TAKEN 8, SORT_BY_PATH
  # 32, and SORT_DESCENDING 1024 on top); what is shown is another, `filter_media` (TYPE_IMAGES
  # 1, TYPE_VIDEOS 2, TYPE_GIFS 4, ...); `view_type_files` is VIEW_TYPE_GRID 1 or VIEW_TYPE_LIST 2.
  probe sort_by: prefs "/data/data/com.simplemobiletools.gallery.pro/shared_prefs/Prefs.xml"
    key "sort_order" bits { name = "1", modified = "2", size = "4", taken = "8", path = "32" }
  probe sort_descending: prefs "/data/data/com.simplemobiletools.gallery.pro/shared_prefs/Prefs.xml"
    key "sort_order" bits { true = "1024", false = "0" }
  probe show_images: prefs "/data/data/com.simplemobiletools.gallery.pro/shared_prefs/Prefs.xml"
    key "filter_media" bits { true = "1", false = "0" }
  probe show_videos: prefs "/data/data/com.simplemobiletools.gallery.pro/shared_prefs/Prefs.xml"
    key "filter_media" bits { true = "2", false = "0" }
  probe show_gifs: prefs "/data/data/com.simplemobiletools.gallery.pro/shared_prefs/Prefs.xml"
    key "filter_media" bits { true = "4", false = "0" }
  probe view: prefs "/data/data/com.simplemobiletools.gallery.pro/shared_prefs/Prefs.xml"
    key "view_type_files" { grid = "1", list = "2" }
  probe show_filenames: prefs "/data/data/com.simplemobiletools.gallery.pro/shared_prefs/Prefs.xml"
    key "display_file_names"
  probe use_recycle_bin: prefs "/data/data/com.simplemobiletools.gallery.pro/shared_prefs/Prefs.xml"
    key "use_recycle_bin"
  probe show_recycle_bin: prefs "/data/data/com.simplemobiletools.gallery.pro/shared_prefs/Prefs.xml"
    key "show_recycle_bin_at_folders"
  probe skip_delete_confirmation: prefs "/data/data/com.simplemobiletools.gallery.pro/shared_prefs/Prefs.xml"
    key "skip_delete_confirmation"
  # An album is pinned while the string set `pinned_folders` of Prefs.xml holds its path.
  probe albums: sqlite "/data/data/com.simplemobiletools.gallery.pro/databases/gallery.db" table "directories" {
    path = "path",
    name = "filename",
    pinned = "Prefs.xml pinned_folders has path",
  }
}
