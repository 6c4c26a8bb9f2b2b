# Simple SMS Messenger (Simple Mobile Tools). Messages live in the system telephony provider,
# so the device probes query content://sms and content://mms-sms.
app messages {
  package "com.simplemobiletools.smsmessenger"
  label "Messages"

  record Thread {
    address: phone key  # the other party's number
    contact_name: text?  # shown instead of the number when it is a contact
    snippet: text = ""  # last message, as the conversation list shows it
    unread: bool = false
    pinned: bool = false
    archived: bool = false
    last_activity: datetime
  }

  record Sent {
    to: phone
    body: text
    timestamp: datetime
    status: enum(pending, sent, delivered, failed) = "sent"
    mms: bool = false
  }

  record Received {
    from: phone
    body: text
    timestamp: datetime
    read: bool = false
  }

  record Draft {
    to: phone
    body: text
  }

  collection threads: Thread
  # A thread's contact name is the contacts' name for its number: it changes only with the
  # contacts, on the Contacts app's screens.
  changes threads.contact_name only on package "com.simplemobiletools.contacts.pro"
  collection sent: Sent
  collection received: Received
  # A text stays as it was sent or received: its number, text, time and kind never change
  # (a sent text's delivery status does, as reports come in; a received one is marked read)
  changes sent.to, sent.body, sent.timestamp, sent.mms nowhere
  changes received.from, received.body, received.timestamp nowhere
  collection drafts: Draft

  settings {
    send_on_enter: bool = false
    delivery_reports: bool = false
    show_character_counter: bool = false
    remove_accents: bool = false
    send_long_as_mms: bool = false
    font_size: enum(small, medium, large, extra_large) = "medium"
    theme: enum(light, dark, black_white, custom) = "dark"
  }

  # A conversation is a row of the telephony threads table. `pinned` is whether the app's
  # Config set `pinned_conversations` (PINNED_CONVERSATIONS, a <set> of thread ids as text,
  # in shared_prefs/Prefs.xml) holds the row's `_id`; `archived` the threads table's own
  # `archived` column (Threads.ARCHIVED), where the app's archive writes it. The number is
  # the `address` of the canonical address row whose `_id` the row's `recipient_ids` holds
  # (a conversation with several parties holds several ids and is not read). `contact_name`
  # is what the contacts provider's phone lookup answers for the number, which matches
  # numbers loosely (the last digits, ignoring formatting), not a column or a row the
  # thread names: it is not read.
  probe threads: content "content://mms-sms/conversations?simple=true" {
    address = "address in content://mms-sms/canonical-addresses by _id = recipient_ids",
    snippet = "snippet",
    unread = "read",
    pinned = "Prefs.xml pinned_conversations has _id",
    archived = "archived",
    last_activity = "date",
  }
  # The SMS sent box; `status` is the delivery status Telephony keeps (-1 none asked for:
  # sent, 0 delivered, 32 pending, 64 failed). Texts sent as MMS (long ones, with
  # attachments) are kept in the MMS sent box instead, their number and text in rows of
  # their own: a reading reads them there too, with no `status` (the MMS provider keeps
  # none of this kind).
  probe sent: content "content://sms/sent" {
    to = "address",
    body = "body",
    timestamp = "date",
    status = "status",
    mms = "true in content://mms/sent",
  }
  probe received: content "content://sms/inbox" {
    from = "address",
    body = "body",
    timestamp = "date",
    read = "read",
  }
  probe drafts: content "content://sms/draft" { to = "address", body = "body" }
  # Options are entries of shared_prefs/Prefs.xml under the keys of the app's Config and of
  # Simple Commons' BaseConfig: `font_size` an <int> (FONT_SIZE_SMALL 0 .. FONT_SIZE_EXTRA_LARGE
  # 3); the theme the app's `background_color` (an ARGB <int>: white for light, dark grey
  # 0xFF424242 or 0xFF2D2D2D for dark, black for black & white, any other color custom).
  probe send_on_enter: prefs "/data/data/com.simplemobiletools.smsmessenger/shared_prefs/Prefs.xml"
    key "send_on_enter"
  probe delivery_reports: prefs "/data/data/com.simplemobiletools.smsmessenger/shared_prefs/Prefs.xml"
    key "enable_delivery_reports"
  probe show_character_counter: prefs "/data/data/com.simplemobiletools.smsmessenger/shared_prefs/Prefs.xml"
    key "show_character_counter"
  probe remove_accents: prefs "/data/data/com.simplemobiletools.smsmessenger/shared_prefs/Prefs.xml"
    key "use_simple_characters"
  probe send_long_as_mms: prefs "/data/data/com.simplemobiletools.smsmessenger/shared_prefs/Prefs.xml"
    key "send_long_message_mms"
  probe font_size: prefs "/data/data/com.simplemobiletools.smsmessenger/shared_prefs/Prefs.xml"
    key "font_size" { small = "0", medium = "1", large = "2", extra_large = "3" }
  probe theme: prefs "/data/data/com.simplemobiletools.smsmessenger/shared_prefs/Prefs.xml"
    key "background_color" {
    light = "-1",
    dark = "-12434878",
    dark = "-13816531",
    black_white = "-16777216",
    custom = "-16746133",
    custom = "*",
  }
}
