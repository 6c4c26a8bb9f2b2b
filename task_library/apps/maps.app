# Google Maps. Its data is server-side or in private stores, so everything is read from screen.
app maps {
  package "com.google.android.apps.maps"
  label "Maps"

  record Place {
    name: text key
    address: text
    category: enum(
      restaurant,
      cafe,
      bar,
      hotel,
      gas_station,
      museum,
      park,
      pharmacy,
      supermarket,
      hospital,
      other
    ) = "other"
    rating: number  # 1.0 .. 5.0
    reviews: int = 0
    phone: phone?
    website: text?
    opens: time?
    closes: time?
    price_level: int?  # 1 .. 4 ($ .. $$$$)
    distance_km: number?  # from the current location
  }

  record SavedPlace {
    place: text key  # Place.name
    list_name: enum(favorites, want_to_go, travel_plans, starred) = "favorites"
    note: text?
  }

  record RecentSearch {
    query: text key  # searching a query again moves it to the top
    searched_at: datetime
  }

  record Route {
    origin: text = "Your location"
    destination: text
    stops: list of text = []
    mode: enum(driving, transit, walking, cycling) = "driving"
    started: bool = false  # navigation started
  }

  collection places: Place
  # Places are the map's own data: saving, searching and routing leave them as they are.
  changes places nowhere
  collection saved: SavedPlace
  collection recent_searches: RecentSearch
  # a search leaves the history only in the dialog that removes it (a long press on it) or
  # the one that deletes them all
  removes recent_searches only on text "Remove from history?", text "Delete all Maps history?"
  collection routes: Route
  # A place is saved to a list, moved or removed from the "Save to list" choices, the saved
  # place's menu ("Remove") and its note dialog ("Save"); a route is planned by a place's
  # Directions button, changed on the directions page (its travel modes, the swap, the start
  # point) and opened again from the Go tab's recent routes. A tap anywhere else leaves them.
  changes saved only by
    id "com.google.android.apps.maps:id/list_checkbox",
    text "Remove",
    text "Save"
  # of the "Save to list" choices, a checked one removes the place from its list, and an
  # unchecked one saves it there (or moves it there from another list)
  removes saved only by
    xpath "//node[@resource-id='com.google.android.apps.maps:id/list_checkbox'][@checked='true']",
    text "Remove"
  adds saved only by
    xpath "//node[@resource-id='com.google.android.apps.maps:id/list_checkbox'][@checked='false']"
  changes routes only by
    id "com.google.android.apps.maps:id/directions_button",
    xpath "//node[.//node[@resource-id='com.google.android.apps.maps:id/directions_startpoint_textbox']]",
    xpath "//node[@clickable='true'][node[@resource-id='com.google.android.apps.maps:id/recent_route_destination']]"
  # a route is planned not started, and only the directions page's Start button starts
  # navigation (routes have no key and no field that never changes: the line says where a
  # route comes to be started)
  changes routes.started only by id "com.google.android.apps.maps:id/start_button"

  settings {
    home_address: text?
    work_address: text?
    distance_units: enum(automatic, kilometers, miles) = "automatic"
    map_type: enum(default, satellite, terrain) = "default"
    traffic_layer: bool = false
    avoid_tolls: bool = false
    avoid_highways: bool = false
  }
  # The settings change only on their own pages and dialogs: home and work on Edit home or work
  # (its "Edit home address" / "Edit work address" dialogs) and the Saved tab's Labeled list;
  # the distance units in their dialog; the routes' avoidances on Navigation settings and in
  # the directions' Route options; the map type and traffic in the layers sheet.
  changes home_address, work_address only on
    text "Edit home or work",
    xpath "//node[starts-with(@text, 'Edit ') and contains(@text, ' address')]",
    text "Labeled"
  changes distance_units only on text "Distance units"
  changes avoid_highways, avoid_tolls only on text "Avoid highways", text "Avoid tolls"
  changes map_type, traffic_layer only on text "Map type", text "Traffic"

  probe places: ui id "com.google.android.apps.maps:id/title" { name = "text" }
  # Saved lists the lists (Favorites, Want to go, Travel plans, Starred places), and a list's
  # page its places by name (a place's note shows only on its own page)
  probe saved: screen (
    tap id "com.google.android.apps.maps:id/saved_tab",
  ) each xpath "//node[@clickable='true'][.//node[@resource-id='com.google.android.apps.maps:id/list_title']]" {
    list_name = id "com.google.android.apps.maps:id/list_title" labels {
      favorites = "Favorites",
      want_to_go = "Want to go",
      travel_plans = "Travel plans",
      starred = "Starred places",
    },
  } rows xpath "//node[@long-clickable='true'][node[@resource-id='com.google.android.apps.maps:id/title']]" {
    place = id "com.google.android.apps.maps:id/title",
  }
  # the search page lists the searches run lately, the latest first (not when each ran)
  probe recent_searches: screen (
    tap id "com.google.android.apps.maps:id/search_omnibox_text_box",
  ) rows id "com.google.android.apps.maps:id/search_history_item" { query = xpath "." }
  # the Go tab lists the directions got lately, the latest first: each route's destination,
  # and where from in what travel mode ("From Your location · Walking"); not its stops, nor
  # whether navigation started
  probe routes: screen (
    tap id "com.google.android.apps.maps:id/go_tab",
  ) rows xpath "//node[@clickable='true'][node[@resource-id='com.google.android.apps.maps:id/recent_route_destination']]" {
    destination = id "com.google.android.apps.maps:id/recent_route_destination",
    origin = id "com.google.android.apps.maps:id/recent_route_details" format "From {} · {*}",
    mode = id "com.google.android.apps.maps:id/recent_route_details" format "From {*} · {}" labels {
      driving = "Driving",
      transit = "Transit",
      walking = "Walking",
      cycling = "Cycling",
    },
  }
  probe distance_units: ui text "Distance units" id "android:id/summary"
}
