# Markor (net.gsantner.markor), the markdown notes app AndroidWorld installs. Notes are plain
# markdown and text files in the notebook folder (/sdcard/Documents/Markor by default) and its
# sub-folders, so the device probes read the files themselves.
app markor {
  package "net.gsantner.markor"
  label "Markor"

  record Note {
    path: file key  # e.g. "/sdcard/Documents/Markor/Work/standup.md"
    name: text  # file name with extension, e.g. "standup.md"
    folder: text = ""  # folder inside the notebook, e.g. "Work" or "Work/2026" ("" at the top)
    content: text = ""
    modified: datetime
  }

  record Folder {
    path: file key  # e.g. "/sdcard/Documents/Markor/Work"
    name: text
    parent: text = ""  # folder inside the notebook that holds it ("" at the top)
  }

  collection files: Note
  collection folders: Folder

  settings {
    sort_by: enum(name, date, size) = "name"
    sort_reverse: bool = false
    folders_first: bool = true
    new_file_type: enum(md, txt) = "md"  # the type the "new file" dialog proposes
    open_in_view_mode: bool = false
  }

  # `folder` is where a listing shows the file, below the notebook folder ("" directly in it).
  probe files: files "/sdcard/Documents/Markor/**/*" {
    path = "path",
    name = "name",
    folder = "folder",
    modified = "modified",
    content = "content",
  }
  probe folders: files "/sdcard/Documents/Markor/**/" {
    path = "path",
    name = "name",
    parent = "folder",
  }
  # Options are entries of the app's default shared preferences, under its `pref_key__` keys:
  # the file browser's sort is a <string> (GsFileUtils.SORT_BY_NAME "NAME", SORT_BY_MTIME
  # "MTIME", SORT_BY_FILESIZE "FILESIZE"); the new file dialog keeps the extension it proposes.
  probe sort_by: prefs "/data/data/net.gsantner.markor/shared_prefs/net.gsantner.markor_preferences.xml"
    key "pref_key__file_browser__sort_by_type" { name = "NAME", date = "MTIME", size = "FILESIZE" }
  probe sort_reverse: prefs "/data/data/net.gsantner.markor/shared_prefs/net.gsantner.markor_preferences.xml"
    key "pref_key__sort_reverse"
  probe folders_first: prefs "/data/data/net.gsantner.markor/shared_prefs/net.gsantner.markor_preferences.xml"
    key "pref_key__sort_folder_first"
  probe new_file_type: prefs "/data/data/net.gsantner.markor/shared_prefs/net.gsantner.markor_preferences.xml"
    key "pref_key__new_file_dialog_lastused_extension" { md = ".md", txt = ".txt" }
  probe open_in_view_mode: prefs "/data/data/net.gsantner.markor/shared_prefs/net.gsantner.markor_preferences.xml"
    key "pref_key__editor_prefer_view_mode"
}
