# Simple Contacts Pro (the Simple Mobile Tools contacts app AndroidWorld uses).
# Contacts are stored in the system contacts provider; the app's own options live in its
# shared preferences (shared_prefs/Prefs.xml).
app contacts {
  package "com.simplemobiletools.contacts.pro"
  label "Contacts"

  record Person {
    name: text key  # display name, "First Last"
    phone: phone
    phone_label: enum(mobile, home, work, main, other) = "mobile"
    email: email?
    email_label: enum(home, work, other) = "home"
    company: text?
    job_title: text?
    address: text?
    starred: bool = false  # "Favorites" in the app
    group: enum(family, friends, work, classmates, other) = "other"
    birthday: date?
    notes: text?
    tags: list of text = []
  }

  record Group {
    title: text key
    members: list of text = []  # display names of the people in the group
  }

  collection people: Person
  collection groups: Group

  settings {
    sort_by: enum(first_name, last_name, date_created) = "first_name"
    sort_descending: bool = false
    show_phone_numbers: bool = false
    start_name_with_surname: bool = false
    show_dialpad_button: bool = true
    font_size: enum(small, medium, large, extra_large) = "medium"
    theme: enum(light, dark, black_white, custom) = "dark"
  }

  probe people: content "content://com.android.contacts/data/phones" {
    name = "display_name",
    phone = "data1",
    starred = "starred",
  }
  probe groups: content "content://com.android.contacts/groups" { title = "title" }
  # Options are entries of shared_prefs/Prefs.xml under the keys of the app's Config and of
  # Simple Commons' BaseConfig: `font_size` an <int> (FONT_SIZE_SMALL 0 .. FONT_SIZE_EXTRA_LARGE
  # 3); the theme the app's `background_color` (an ARGB <int>: white for light, dark grey
  # 0xFF424242 or 0xFF2D2D2D for dark, black for black & white, any other color custom).
  # The sort is one <int> of flags, `sort_order`: SORT_BY_FIRST_NAME 128, SORT_BY_SURNAME 512,
  # SORT_BY_DATE_CREATED 262144, and SORT_DESCENDING 1024 on top.
  probe sort_by: prefs "/data/data/com.simplemobiletools.contacts.pro/shared_prefs/Prefs.xml"
    key "sort_order" bits { first_name = "128", last_name = "512", date_created = "262144" }
  probe sort_descending: prefs "/data/data/com.simplemobiletools.contacts.pro/shared_prefs/Prefs.xml"
    key "sort_order" bits { true = "1024", false = "0" }
  probe show_phone_numbers: prefs "/data/data/com.simplemobiletools.contacts.pro/shared_prefs/Prefs.xml"
    key "show_phone_numbers"
  probe start_name_with_surname: prefs "/data/data/com.simplemobiletools.contacts.pro/shared_prefs/Prefs.xml"
    key "start_name_with_surname"
  probe show_dialpad_button: prefs "/data/data/com.simplemobiletools.contacts.pro/shared_prefs/Prefs.xml"
    key "show_dialpad_button"
  probe font_size: prefs "/data/data/com.simplemobiletools.contacts.pro/shared_prefs/Prefs.xml"
    key "font_size" { small = "0", medium = "1", large = "2", extra_large = "3" }
  probe theme: prefs "/data/data/com.simplemobiletools.contacts.pro/shared_prefs/Prefs.xml"
    key "background_color" {
    light = "-1",
    dark = "-12434878",
    dark = "-13816531",
    black_white = "-16777216",
    custom = "-16746133",
    custom = "*",
  }
}
