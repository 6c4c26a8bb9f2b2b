# Files by Google / DocumentsUI (com.google.android.documentsui, the "Files" app in SPA-Bench).
# It shows shared storage, so the device probes read /sdcard directly.
app files {
  package "com.google.android.documentsui"
  label "Files"

  record Document {
    path: file key  # e.g. "/sdcard/Download/report.pdf"
    name: text  # file name with extension
    folder: text  # top-level folder under internal storage, e.g. "Download"
    kind: enum(document, image, audio, video, archive, apk, other) = "other"
    size: int  # bytes
    modified: datetime
    content: text?  # for text files; null for binary ones
    starred: bool = false
    in_trash: bool = false
  }

  record Folder {
    path: file key  # e.g. "/sdcard/DCIM/Agent_created"
    name: text
    parent: text  # path of the folder that holds it, e.g. "/sdcard/DCIM"
  }

  collection documents: Document
  collection folders: Folder

  # Under one path a file keeps its kind (a rename that changes the extension is a new path)
  # and its content and size (the app has no editor); the app has no star and no bin (Delete
  # removes the file). A folder is made, renamed or deleted in a dialog (OK, or Enter in its name
  # field) and moved or copied with the picker's Move / Copy: each a screen with the app's
  # positive button.
  changes
    documents.kind,
    documents.content,
    documents.size,
    documents.starred,
    documents.in_trash nowhere
  changes folders only on package "com.google.android.documentsui" id "android:id/button1"
  # a folder's name and parent follow from its path
  changes folders.name, folders.parent nowhere

  settings {
    show_hidden_files: bool = false
    sort_by: enum(name, modified, size, type) = "name"
    sort_descending: bool = false
    view: enum(list, grid) = "list"
  }

  # A document's kind is the category the app sorts it into by its extension (read only for
  # a task whose records all say the category their extension does).
  probe documents: files "/sdcard/**/*" {
    path = "path",
    name = "name",
    kind = "name",
    folder = "top_folder",
    size = "size",
    modified = "modified",
    content = "content",
  }
  probe folders: files "/sdcard/**/" { path = "path", name = "name" }
  # The browser's options are entries of the app's default shared preferences: whether hidden
  # files show (<boolean>), the sort (an <int> dimension, SORT_DIMENSION_NAME 1, DATE 2, SIZE 3,
  # TYPE 4, and its direction, 1 ascending, 2 descending) and the view mode of internal storage
  # (`rootViewMode-` its provider and root: MODE_LIST 1, MODE_GRID 2).
  probe show_hidden_files: prefs "/data/data/com.google.android.documentsui/shared_prefs/com.google.android.documentsui_preferences.xml"
    key "showHiddenFiles"
  probe sort_by: prefs "/data/data/com.google.android.documentsui/shared_prefs/com.google.android.documentsui_preferences.xml"
    key "sortDimension" { name = "1", modified = "2", size = "3", type = "4" }
  probe sort_descending: prefs "/data/data/com.google.android.documentsui/shared_prefs/com.google.android.documentsui_preferences.xml"
    key "sortDirection" { false = "1", true = "2" }
  probe view: prefs "/data/data/com.google.android.documentsui/shared_prefs/com.google.android.documentsui_preferences.xml"
    key "rootViewMode-com.android.externalstorage.documents:primary" { list = "1", grid = "2" }
}
