# Simple Dialer (Simple Mobile Tools), the phone app AndroidWorld uses. Calls are logged in the
# system call log provider and blocked numbers in the blocked-number provider; the app's own
# options live in its shared preferences, so those are read from its settings screen.
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
  probe show_call_confirmation: ui id "com.simplemobiletools.dialer:id/settings_show_call_confirmation"
  probe group_subsequent_calls: ui id "com.simplemobiletools.dialer:id/settings_group_subsequent_calls"
  probe open_dialpad_at_launch: ui id "com.simplemobiletools.dialer:id/settings_open_dialpad_at_launch"
  probe block_unknown_numbers: ui id "com.simplemobiletools.dialer:id/block_unknown"
}
