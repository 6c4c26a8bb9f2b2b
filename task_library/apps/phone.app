# Simple Dialer (Simple Mobile Tools), the phone app AndroidWorld uses. Calls are logged in the
# system call log provider and blocked numbers in the blocked-number provider; the app's own
# options live in its shared preferences (shared_prefs/Prefs.xml).
app phone {
  package "com.simplemobiletools.dialer"
  label "Phone"

  record Call {
    number: phone  # the other party's number, as dialled or received
    name: text?  # the contact's name when the number belongs to a contact
    direction: enum(incoming, outgoing, missed) = "outgoing"
    timestamp: datetime  # when the call started
    duration: duration = 0s  # how long it was connected
  }

  record BlockedNumber {
    number: text key  # a number or a pattern such as "*12345*"
  }

  collection calls: Call
  collection blocked_numbers: BlockedNumber

  settings {
    font_size: enum(small, medium, large, extra_large) = "medium"
    start_name_with_surname: bool = false
    hide_dialpad_numbers: bool = false
    dialpad_vibration: bool = true
    dialpad_beeps: bool = true
    open_dialpad_at_launch: bool = false
    group_subsequent_calls: bool = true
    show_call_confirmation: bool = false
    disable_proximity_sensor: bool = false
    use_24_hour_format: bool = false
    block_unknown_numbers: bool = false
  }

  # The provider's `type` column is 1 for incoming, 2 for outgoing and 3 for missed calls; the
  # backend maps it onto `direction`.
  probe calls: content "content://call_log/calls" {
    number = "number",
    name = "name",
    direction = "type",
    timestamp = "date",
    duration = "duration",
  }
  probe blocked_numbers: content "content://com.android.blockednumber/blocked" {
    number = "original_number",
  }
  # Options are entries of shared_prefs/Prefs.xml under the keys of the app's Config and of
  # Simple Commons' BaseConfig, <boolean> but `font_size` (an <int>, FONT_SIZE_SMALL 0 ..
  # FONT_SIZE_EXTRA_LARGE 3).
  probe font_size: prefs "/data/data/com.simplemobiletools.dialer/shared_prefs/Prefs.xml"
    key "font_size" { small = "0", medium = "1", large = "2", extra_large = "3" }
  probe start_name_with_surname: prefs "/data/data/com.simplemobiletools.dialer/shared_prefs/Prefs.xml"
    key "start_name_with_surname"
  probe hide_dialpad_numbers: prefs "/data/data/com.simplemobiletools.dialer/shared_prefs/Prefs.xml"
    key "hide_dialpad_numbers"
  probe dialpad_vibration: prefs "/data/data/com.simplemobiletools.dialer/shared_prefs/Prefs.xml"
    key "dialpad_vibration"
  probe dialpad_beeps: prefs "/data/data/com.simplemobiletools.dialer/shared_prefs/Prefs.xml"
    key "dialpad_beeps"
  probe open_dialpad_at_launch: prefs "/data/data/com.simplemobiletools.dialer/shared_prefs/Prefs.xml"
    key "open_dialpad_at_launch"
  probe group_subsequent_calls: prefs "/data/data/com.simplemobiletools.dialer/shared_prefs/Prefs.xml"
    key "group_subsequent_calls"
  probe show_call_confirmation: prefs "/data/data/com.simplemobiletools.dialer/shared_prefs/Prefs.xml"
    key "show_call_confirmation"
  probe disable_proximity_sensor: prefs "/data/data/com.simplemobiletools.dialer/shared_prefs/Prefs.xml"
    key "disable_proximity_sensor"
  probe use_24_hour_format: prefs "/data/data/com.simplemobiletools.dialer/shared_prefs/Prefs.xml"
    key "use_24_hour_format"
  probe block_unknown_numbers: prefs "/data/data/com.simplemobiletools.dialer/shared_prefs/Prefs.xml"
    key "block_unknown_numbers"
}
