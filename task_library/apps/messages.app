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
  collection sent: Sent
  collection received: Received
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

  probe threads: content "content://mms-sms/conversations?simple=true" {
    address = "recipient_ids",
    snippet = "snippet",
    unread = "read",
    last_activity = "date",
  }
  probe sent: content "content://sms/sent" {
    to = "address",
    body = "body",
    timestamp = "date",
    status = "status",
  }
  probe received: content "content://sms/inbox" {
    from = "address",
    body = "body",
    timestamp = "date",
    read = "read",
  }
  probe drafts: content "content://sms/draft" { to = "address", body = "body" }
  probe send_on_enter: ui text "Send message on pressing Enter" class "android.widget.CheckBox"
  probe delivery_reports: ui text "Enable delivery reports" class "android.widget.CheckBox"
}
