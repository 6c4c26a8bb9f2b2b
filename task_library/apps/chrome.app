# Chrome (com.android.chrome). Tabs, history and bookmarks are read back from the open tab's
# UI and Chrome's own databases where the build allows it.
app chrome {
  package "com.android.chrome"
  label "Chrome"

  record Tab {
    url: text key
    title: text
    active: bool = false
  }

  record Visit {
    url: text
    title: text
    visited: datetime
  }

  record Bookmark {
    url: text key
    title: text
    folder: text = "Mobile bookmarks"
  }

  collection tabs: Tab
  collection history: Visit
  collection bookmarks: Bookmark
  # A bookmark is made with the app menu's star (Bookmark / Edit bookmark), changed and
  # deleted in the bookmarks manager (each row's "More options for <title>": Edit, Delete) and
  # its editor (the folder row): screens that show one of these.
  changes bookmarks only on
    id "com.android.chrome:id/bookmark_this_page_id",
    xpath "//node[starts-with(@content-desc, 'More options for ')]",
    id "com.android.chrome:id/folder_text"

  # The open tabs are the browser's, not the user's data, and Chrome changes them with no
  # action taken in it: a page's title changes as it loads, a tab another app opened (a file
  # from Files, a link from a chat) closes again when Back leaves it for that app, and tabs left
  # unused for weeks leave the tab list (archived as inactive). A guard on everything (`deleted
  # any`) does not watch them; a clause that names `chrome.tabs` still does.
  changes tabs by itself

  settings {
    javascript: bool = true
    desktop_site: bool = false
    search_engine: enum(google, bing, duckduckgo, yahoo) = "google"
  }

  probe tabs: ui id "com.android.chrome:id/url_bar" { url = "text" }
  probe history: sqlite "/data/data/com.android.chrome/app_chrome/Default/History" table "urls" {
    url = "url",
    title = "title",
    visited = "last_visit_time",
  }
}
