# A ride-hailing mini program inside WeChat (in the style of the DiDi one). It runs in the
# host's process (com.tencent.mm, AppBrandUI), so its state is read from its web pages.
app ride {
  host wechat
  package "com.tencent.mm"
  label "Rides"

  record Place {
    name: text key  # as the map's search shows it, e.g. "Jing'an Temple Station"
    address: text
    x_km: number  # map position, km east of the city centre
    y_km: number  # km north of the city centre
  }

  record SavedPlace {
    label: text key  # "Home", "Work", "Gym"
    place: text  # Place.name
  }

  record Trip {
    trip_no: text key  # e.g. "T1041"
    pickup: text  # Place.name
    destination: text  # Place.name
    tier: enum(economy, comfort, xl) = "economy"
    fare: money  # the estimated fare, paid when the ride is requested
    distance_km: number
    status: enum(requested, accepted, in_progress, completed, cancelled) = "requested"
    requested_at: datetime
    driver: text?
    car: text?
    plate: text?
    cancel_reason: text?
    paid: bool = true
  }

  collection places: Place
  # Places are the service's map data: booking and saving leave them as they are.
  changes places nowhere
  collection saved_places: SavedPlace
  # Saved places are set, added and removed only from the Saved Places page (its "Add a Place"
  # footer): a place is set on the picker it opens, removed in its dialog.
  changes saved_places only on id "add-place"
  collection trips: Trip
  # when a trip was requested, from where to where and in which tier is history
  changes trips.requested_at, trips.pickup, trips.destination, trips.tier nowhere
  # A trip is made only from the WeChat Pay sheet and cancelled only in the dialogs that ask
  # why and confirm; the service moves it along by itself: a driver accepts (with a car and a
  # plate), the trip starts and ends. A trip stays in the history; where the service lets one
  # be deleted from it, that is done from something labelled Delete.
  changes trips only on
    text "WeChat Pay",
    text "Why are you cancelling?",
    text "Cancel this ride?",
    xpath "//node[starts-with(@text, 'Delete') or starts-with(@content-desc, 'Delete')]"
  removes trips only on
    xpath "//node[starts-with(@text, 'Delete') or starts-with(@content-desc, 'Delete')]"
  changes trips.status, trips.driver, trips.car, trips.plate by itself

  settings {
    location: text?  # Place.name of where the phone is: the default pickup
  }
  # where the phone is: it moves with the phone, and the app follows it
  changes location by itself

  # the Me page shows where the phone is (nothing where the app does not know)
  probe location: screen (
    tap id "tab_label" text "Discover",
    tap text "Mini Programs",
    tap desc "Search",
    tap id "search_input",
    type "Rides",
    tap id "appbrand_name" text "Rides",
    tap id "tab-bar-item" text "Me",
  ) value xpath "//node[node[@text='Current Location']]/node[@resource-id='field-value']"

  # the trip history shows each trip with its number, and why a cancelled one was
  probe trips: screen (
    tap id "tab_label" text "Discover",
    tap text "Mini Programs",
    tap desc "Search",
    tap id "search_input",
    type "Rides",
    tap id "appbrand_name" text "Rides",
    tap id "tab-bar-item" text "Trips",
  ) rows id "trip-item" {
    trip_no = id "trip-no" format "Trip {}",
    pickup = id "trip-pickup",
    destination = id "trip-destination",
    tier = id "trip-tier" labels { economy = "Economy", comfort = "Comfort", xl = "XL" },
    fare = id "trip-fare",
    status = id "trip-status" labels {
      requested = "Looking for a driver",
      accepted = "Driver on the way",
      in_progress = "On the trip",
      completed = "Completed",
      cancelled = "Cancelled",
    },
    paid = id "trip-paid" labels { true = "Paid", false = "Unpaid" },
    cancel_reason = id "trip-reason" format "Reason: {}",
  }
}
