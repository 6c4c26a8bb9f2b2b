# Yelp (com.yelp.android): businesses, reviews and bookmarks. Its state lives on Yelp's
# servers, so a device reads it back from the screen.
app yelp {
  package "com.yelp.android"
  label "Yelp"

  record Business {
    name: text key
    category: text
    rating: number?
    reviews: int = 0
    address: text?
    open_now: bool?
  }

  record Bookmark {
    business: text key
    saved: datetime?
  }

  collection businesses: Business
  # The listings are the service's: bookmarks and searches leave them as they are.
  changes businesses nowhere
  collection bookmarks: Bookmark
  # A bookmark is made and removed only by the Bookmark buttons: on a business's page (which
  # reads "Bookmarked" once the business is saved; a button that is selected counts as saved
  # too, one that is not as not saved) and on its card in a list (a toggle, checked once
  # saved). Each saves its business where it is not saved yet, and removes it where it is;
  # when a business was saved stays as it was.
  changes bookmarks only by
    id "com.yelp.android:id/bookmark",
    id "com.yelp.android:id/bookmark_button"
  adds bookmarks only by
    xpath "//node[@resource-id='com.yelp.android:id/bookmark'][not(.//node[@text='Bookmarked']) or @selected='false']",
    xpath "//node[@resource-id='com.yelp.android:id/bookmark_button'][@checked='false']"
  removes bookmarks only by
    xpath "//node[@resource-id='com.yelp.android:id/bookmark'][.//node[@text='Bookmarked'] or @selected='true']",
    xpath "//node[@resource-id='com.yelp.android:id/bookmark_button'][@checked='true']"
  changes bookmarks.saved nowhere

  settings {
    background_location: bool = false
    signed_in: bool = false
  }
  # Background location is turned on by the first run's opt-in ("Yes, turn it on"), on and
  # off with the switch in Settings, and either way on Android's permission screens for the
  # app. One signs in from the sign-up and log-in buttons, or by Enter in the fields of those
  # forms, and out with Log Out (the Settings row and its confirmation).
  changes background_location only by
    text "Yes, turn it on",
    id "com.yelp.android:id/background_location_switch"
  changes background_location only on
    xpath "//node[@package='com.android.permissioncontroller' or @package='com.google.android.permissioncontroller']"
  changes signed_in only by
    text "Continue with Facebook",
    text "Sign up with Google",
    text "Sign up with Facebook",
    text "Log In",
    text "Log Out"
  changes signed_in only on
    xpath "//node[@focused='true'][@resource-id='com.yelp.android:id/email_address' or @resource-id='com.yelp.android:id/email' or @resource-id='com.yelp.android:id/password']"

  # Bookmarks lists every bookmarked business by its name, the latest first (not when it was
  # saved). Signed out, the app opens on its first-run prompts: location access, then signing
  # up, which the way there declines and skips.
  probe bookmarks: screen (
    tap text "No, not now" if shown,
    tap text "I'm New" if shown,
    tap text "Skip" if shown,
    tap id "com.yelp.android:id/hot_button_bookmarks",
  ) rows id "com.yelp.android:id/business_layout" {
    business = id "com.yelp.android:id/business_name",
  }
  probe background_location: ui text "Background Location" class "android.widget.Switch"
}
