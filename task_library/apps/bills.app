# Utility bills inside WeChat (in the style of WeChat's own Life Payments service): it runs
# in the host's process (com.tencent.mm, AppBrandUI), so its state is read from its web pages.
app bills {
  host wechat
  package "com.tencent.mm"
  label "Life Payments"

  record Provider {
    name: text key  # e.g. "State Grid Shanghai"
    kind: enum(electricity, water, gas, mobile)
    city: text?
  }

  record Account {
    account_no: text key  # the number on the bill, or the phone number of a mobile account
    kind: enum(electricity, water, gas, mobile)
    provider: text  # Provider.name
    name: text = ""  # the name you gave it, e.g. "Home"
    holder: text?  # as the provider shows it, e.g. "Zhang *ming"
    due: money = $0.00  # the unpaid bill
    due_date: date?
    balance: money = $0.00  # credit: paid beyond the bills, or a phone's balance
  }

  record Payment {
    payment_no: text key  # e.g. "P50012"
    account_no: text  # Account.account_no
    kind: enum(electricity, water, gas, mobile)
    provider: text
    amount: money
    paid_at: datetime
    status: enum(success, processing, failed) = "success"
  }

  collection providers: Provider
  # The providers are the service's directory: nothing in the app changes them.
  changes providers nowhere
  collection accounts: Account  # My Accounts
  # An account is added on the form that takes its number, removed in the dialog that asks,
  # and paid on the WeChat Pay sheet; the provider issues bills and draws on a balance by
  # itself
  changes accounts only on id "account-input", text "Remove this account?", text "WeChat Pay"
  removes accounts only on text "Remove this account?"
  changes accounts.due, accounts.due_date, accounts.balance by itself
  # the holder is the provider's record of the account, copied when it is added
  changes accounts.holder nowhere
  collection provider_accounts: Account  # the bills the providers have on record
  # the providers' own books
  changes provider_accounts by itself
  collection payments: Payment
  # a payment is made only on the WeChat Pay sheet; the provider settles it by itself. A
  # payment stays in the records; where the service lets one be deleted from them, that is
  # done from something labelled Delete.
  changes payments only on
    text "WeChat Pay",
    xpath "//node[starts-with(@text, 'Delete') or starts-with(@content-desc, 'Delete')]"
  removes payments only on
    xpath "//node[starts-with(@text, 'Delete') or starts-with(@content-desc, 'Delete')]"
  changes payments.status by itself
  # when a payment was made, to which account and provider, for what and how much is history
  changes payments.paid_at, payments.account_no, payments.kind, payments.provider nowhere
  changes payments.amount nowhere

  settings {
    city: text = "Shanghai"
  }
  # the city is chosen from its row on the home page
  changes city only by text "City"

  # the home page lists every account: a bill's card shows what is due (not the credit), a
  # phone's its balance (not a bill). An account's own page shows the holder the provider
  # has on record, and the credit (a row only where there is one) or a phone's balance; the
  # due date only while a bill is due
  probe accounts: screen (
    tap id "tab_label" text "Discover",
    tap text "Mini Programs",
    tap desc "Search",
    tap id "search_input",
    type "Life Payments",
    tap id "appbrand_name" text "Life Payments",
  ) rows id "account-item" {
    account_no = id "account-number",
    kind = id "account-kind" labels {
      electricity = "Electricity",
      water = "Water",
      gas = "Gas",
      mobile = "Mobile",
    },
    provider = id "account-provider",
    name = id "account-name",
    due = id "account-due" format "Due {}" or { "No bill due" = $0.00, "Balance {*}" = unknown },
  } details {
    holder = xpath "//node[@resource-id='field-row'][node[@resource-id='field-name'][@text='Account Holder']]/node[@resource-id='field-value']",
    balance = xpath "//node[@resource-id='field-row'][node[@resource-id='field-name'][@text='Credit' or @text='Balance']]/node[@resource-id='field-value']" or {
      "" = $0.00,
    },
    due_date = xpath "//node[@resource-id='field-row'][node[@resource-id='field-name'][@text='Due Date']]/node[@resource-id='field-value']" or {
      "" = unknown,
    },
  }

  # the Records tab lists every payment (no filter chosen), newest first, each with when it
  # was paid to the minute
  probe payments: screen (
    tap id "tab_label" text "Discover",
    tap text "Mini Programs",
    tap desc "Search",
    tap id "search_input",
    type "Life Payments",
    tap id "appbrand_name" text "Life Payments",
    tap id "tab-bar-item" text "Records",
  ) rows id "record-item" {
    payment_no = id "record-no" format "No. {}",
    account_no = id "record-account",
    kind = id "record-kind" labels {
      electricity = "Electricity",
      water = "Water",
      gas = "Gas",
      mobile = "Mobile",
    },
    provider = id "record-provider",
    amount = id "record-amount",
    paid_at = id "record-time",
    status = id "record-status" labels {
      success = "Paid",
      processing = "Processing",
      failed = "Failed",
    },
  }
}
