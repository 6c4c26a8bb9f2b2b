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

  settings {
    show_hidden_files: bool = false
    sort_by: enum(name, modified, size, type) = "name"
    sort_descending: bool = false
    view: enum(list, grid) = "list"
  }

  probe documents: files "/sdcard/**/*" {
    path = "path",
    name = "name",
    size = "size",
    modified = "modified",
    content = "content",
  }
  probe folders: files "/sdcard/**/" { path = "path", name = "name" }
  probe view: ui desc "Grid view" class "android.widget.Button"
}
