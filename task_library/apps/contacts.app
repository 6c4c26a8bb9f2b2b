# Simple Contacts Pro (the Simple Mobile Tools contacts app AndroidWorld uses).
# Contacts are stored in the system contacts provider; the app's own options live in its
# shared preferences, so those are read from its settings screen.
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
  probe sort_by: setting secure "android.contacts.SORT_ORDER"
  probe start_name_with_surname: setting secure "android.contacts.DISPLAY_ORDER"
  probe show_phone_numbers: ui text "Show phone numbers" class "android.widget.CheckBox"
}
