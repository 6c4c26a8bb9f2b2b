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

  # A contact's other details are rows of the provider's data table that point at its raw
  # contact, one kind per `mimetype` (ContactsContract.CommonDataKinds): an e-mail address
  # (`email_v2`: `data1`, its type `data2`), the company and job title (`organization`:
  # `data1`, `data4`), the formatted address (`postal-address_v2`: `data1`), the birthday
  # (`contact_event` of TYPE_BIRTHDAY 3: `data1`, the date), the note (`note`: `data1`) and
  # the standard group (`group_membership`: `data1`, the `_id` of the group row, whose
  # `title` is Family, Friends, Work or Classmates; those rows are no `Group` records). The
  # number's type is `data2` of its own row.
  probe people: content "content://com.android.contacts/data/phones" {
    name = "display_name",
    phone = "data1",
    phone_label = "data2",
    starred = "starred",
    email = "data1 where mimetype = vnd.android.cursor.item/email_v2 in content://com.android.contacts/data by raw_contact_id",
    email_label = "data2 where mimetype = vnd.android.cursor.item/email_v2 in content://com.android.contacts/data by raw_contact_id",
    company = "data1 where mimetype = vnd.android.cursor.item/organization in content://com.android.contacts/data by raw_contact_id",
    job_title = "data4 where mimetype = vnd.android.cursor.item/organization in content://com.android.contacts/data by raw_contact_id",
    address = "data1 where mimetype = vnd.android.cursor.item/postal-address_v2 in content://com.android.contacts/data by raw_contact_id",
    birthday = "data1 where mimetype = vnd.android.cursor.item/contact_event and data2 = 3 in content://com.android.contacts/data by raw_contact_id",
    notes = "data1 where mimetype = vnd.android.cursor.item/note in content://com.android.contacts/data by raw_contact_id",
    group = "data1 where mimetype = vnd.android.cursor.item/group_membership in content://com.android.contacts/data by raw_contact_id then title in content://com.android.contacts/groups by _id",
  }
  # A group's members are the contacts with a `group_membership` data row whose `data1` is
  # the group row's `_id`, by the `display_name` that row carries. The provider keeps no
  # order among those rows (the app deletes and writes a contact's memberships again on any
  # edit), so a group of two members or more leaves the groups unread, never guessed.
  probe groups: content "content://com.android.contacts/groups" {
    title = "title",
    members = "display_name where mimetype = vnd.android.cursor.item/group_membership in content://com.android.contacts/data by data1 = _id",
  }
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
