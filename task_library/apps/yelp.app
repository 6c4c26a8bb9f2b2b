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
  # A bookmark is made and removed only by the Bookmark buttons: on a business's page and on
  # its card in a list.
  changes bookmarks only by
    id "com.yelp.android:id/bookmark",
    id "com.yelp.android:id/bookmark_button"

  settings {
    background_location: bool = false
    signed_in: bool = false
  }

  probe bookmarks: ui id "com.yelp.android:id/business_name" { business = "text" }
  probe background_location: ui text "Background Location" class "android.widget.Switch"
}
