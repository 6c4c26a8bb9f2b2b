# WeChat, a super-app that hosts mini-programs (see coffee.app).
# Its database (EnMicroMsg.db) is SQLCipher-encrypted with a per-device key: the sqlite probes
# below name WeChat's real tables and columns and need that key; the rest is read from screen.
app wechat {
  package "com.tencent.mm"
  label "WeChat"

  record Friend {
    wxid: text key  # WeChat ID, e.g. "wxid_k2m9q0"
    nickname: text
    remark: text?  # the name you gave them; shown instead of the nickname
    phone: phone?
    region: text?
    starred: bool = false
    tags: list of text = []
  }

  record Chat {
    peer: text key  # friend's wxid, or the group's id
    title: text  # as the chat list shows it
    is_group: bool = false
    unread: int = 0
    pinned: bool = false
    muted: bool = false
    last_activity: datetime
  }

  record ChatMessage {
    chat: text  # Chat.peer
    outgoing: bool
    kind: enum(text, image, voice, file, location, link, transfer, red_packet) = "text"
    body: text  # text, file name, place name, or transfer note
    amount: money?  # for transfers and red packets
    sent_at: datetime
  }

  record Transfer {
    to: text  # friend's wxid
    amount: money
    note: text = ""
    sent_at: datetime
    status: enum(pending, accepted, returned) = "pending"
  }

  record MiniAppUse {
    name: text key  # mini-program name as shown in the pull-down list
    last_used: datetime
    pinned: bool = false
  }

  collection friends: Friend
  collection chats: Chat
  collection messages: ChatMessage
  collection transfers: Transfer
  collection recent_mini_apps: MiniAppUse

  settings {
    wallet_balance: money = $200.00
    payment_method: enum(balance, bank_card, credit_card) = "balance"
    pay_with_fingerprint: bool = false
    new_message_notifications: bool = true
    language: enum(follow_system, en, zh_CN, zh_TW) = "follow_system"
    font_size: enum(small, standard, large, extra_large) = "standard"
    dark_mode: enum(follow_system, on, off) = "follow_system"
  }

  # Friends are edited from a profile's menu (Set Remark and Tag; Add to Starred / Remove
  # from Starred; Delete, confirmed in its "Delete Contact" dialog) and added by accepting a
  # request; the name and region are the friend's own, which they change themselves.
  changes friends only by text "Add to Starred", text "Remove from Starred", text "Accept"
  changes friends only on text "Set Remark and Tag", text "Delete Contact"
  changes friends.nickname, friends.region by itself
  # A chat is pinned from its long-press menu or Chat Info (Sticky on Top / Unsticky), muted
  # in Chat Info; a group's title is its name, which any member may change, and a friend's
  # follows the name they give themselves.
  changes chats.pinned only on text "Sticky on Top", text "Unsticky"
  changes chats.muted only on text "Mute Notifications"
  changes chats.is_group nowhere
  changes chats.title by itself
  # WeChat keeps the mini programs used lately itself: opening one puts it at the top of the
  # list, and using one on another device (WeChat for PC) lists it too.
  changes recent_mini_apps by itself
  # A message stays in its chat, sent (or received) when it was, whatever becomes of it (a
  # recall turns it into a notice in place); it leaves the chat only by Delete (its menu's,
  # the chat's, a selection's) or by clearing the chat history (the dialog's Clear)
  changes messages.chat, messages.outgoing, messages.sent_at nowhere
  removes messages only by
    xpath "//node[starts-with(@text, 'Delete') or starts-with(@content-desc, 'Delete')]",
    text "Clear"
  # A transfer is made only from the WeChat Pay sheet of a transfer (the password or
  # fingerprint confirms it there), whose payee line reads "Transfer to" and the friend: a
  # mini program's sheet names its merchant; the friend accepts or returns it, or it lapses
  # back after a day. To whom, how much, with what note and when stay as they were made,
  # which tells transfers apart; where a bill may be deleted, that is done from something
  # labelled Delete on a page of the bills.
  changes transfers only on
    xpath "//node[@resource-id='com.tencent.mm:id/pay_payee'][starts-with(@text, 'Transfer to ')]",
    xpath "//node[starts-with(@text, 'Delete') or starts-with(@content-desc, 'Delete')][//node[starts-with(@resource-id, 'com.tencent.mm:id/bill_')]]"
  removes transfers only on
    xpath "//node[starts-with(@text, 'Delete') or starts-with(@content-desc, 'Delete')][//node[starts-with(@resource-id, 'com.tencent.mm:id/bill_')]]"
  changes transfers.status by itself
  changes transfers.to, transfers.amount, transfers.note, transfers.sent_at nowhere
  # The default payment method is chosen only in its dialog, which Payment Settings' row of
  # that name opens: a pay sheet's own choice is for that payment alone
  changes payment_method only on text "Default Payment Method"

  probe friends: sqlite "/data/data/com.tencent.mm/MicroMsg/EnMicroMsg.db" table "rcontact" {
    wxid = "username",
    nickname = "nickname",
    remark = "conRemark",
  }
  probe chats: sqlite "/data/data/com.tencent.mm/MicroMsg/EnMicroMsg.db" table "rconversation" {
    peer = "username",
    unread = "unReadCount",
    last_activity = "conversationTime",
  }
  # a row's `type` says what a message is and `content` holds it: words, or XML naming a
  # file, a place or a transfer's note and amount; an image names no file, but its rows of
  # `ImgInfo2` keep the MD5 of the original it sent (see envs/device/wechat.py)
  probe messages: sqlite "/data/data/com.tencent.mm/MicroMsg/EnMicroMsg.db" table "message" {
    chat = "talker",
    kind = "type,content",
    body = "type,isSend,talker,ImgInfo2(msglocalid = msgId).origImgMD5,content",
    amount = "type,content",
    sent_at = "createTime",
    outgoing = "isSend",
  }
  # what the database keeps unreadable, WeChat's own screens show; a bill names its payee
  # as WeChat names a friend: by the remark you gave them, else by their own name
  probe transfers: screen (
    tap id "tab_label" text "Me",
    tap text "Services",
    tap text "Wallet",
    tap text "Transactions",
  ) rows id "bill_item" {
    to = id "bill_title" format "Transfer to {}" names friends by remark or nickname,
    amount = id "bill_amount" format "-{}",
    note = id "bill_note" format "Note: {}",
    sent_at = id "bill_time",
    status = id "bill_status" labels {
      pending = "Pending",
      accepted = "Received",
      returned = "Returned",
    },
  }
  probe wallet_balance: screen (
    tap id "tab_label" text "Me",
    tap text "Services",
    tap text "Wallet",
  ) value id "wallet_balance"
  probe payment_method: screen (
    tap id "tab_label" text "Me",
    tap text "Services",
    tap text "Wallet",
    tap text "Payment Settings",
  ) value xpath "//node[node[@text='Default Payment Method']]/node[@resource-id='android:id/summary']" labels {
    balance = "Balance",
    bank_card = "Bank Card",
    credit_card = "Credit Card",
  }
  probe pay_with_fingerprint: screen (
    tap id "tab_label" text "Me",
    tap text "Services",
    tap text "Wallet",
    tap text "Payment Settings",
  ) value xpath "//node[node[@text='Pay with Fingerprint']]/node[@checkable='true']"
  probe new_message_notifications: screen (
    tap id "tab_label" text "Me",
    tap text "Settings",
    tap text "Message Notifications",
  ) value xpath "//node[node[@text='New Message Alert']]/node[@checkable='true']"
  probe language: screen (
    tap id "tab_label" text "Me",
    tap text "Settings",
    tap text "General",
  ) value xpath "//node[node[@text='Language']]/node[@resource-id='android:id/summary']" labels {
    follow_system = "Auto",
    en = "English",
    zh_CN = "简体中文",
    zh_TW = "繁體中文(台灣)",
  }
  probe font_size: screen (
    tap id "tab_label" text "Me",
    tap text "Settings",
    tap text "General",
  ) value xpath "//node[node[@text='Font Size']]/node[@resource-id='android:id/summary']" labels {
    small = "Small",
    standard = "Standard",
    large = "Large",
    extra_large = "Extra Large",
  }
  probe dark_mode: screen (
    tap id "tab_label" text "Me",
    tap text "Settings",
    tap text "General",
  ) value xpath "//node[node[@text='Dark Mode']]/node[@resource-id='android:id/summary']" labels {
    follow_system = "Auto",
    on = "Dark Mode",
    off = "Normal Mode",
  }
}
