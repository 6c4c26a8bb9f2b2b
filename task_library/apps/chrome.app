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
