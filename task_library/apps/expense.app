# Pro Expense by Arduia (com.arduia.expense), the expense tracker AndroidWorld installs.
# Expenses live in the app's Room database (`accounting.db`, table `expense`); the category
# column holds the index of the category in the app's fixed list.
app expense {
  package "com.arduia.expense"
  label "Pro Expense"

  record Expense {
    name: text
    amount: money
    category: enum(
      income,
      food,
      housing,
      social,
      entertainment,
      transportation,
      clothes,
      health_care,
      education,
      donation
    ) = "food"
    note: text = ""
    date: date
  }

  collection expenses: Expense

  settings {
    currency: enum(usd, eur, gbp, mmk, jpy) = "usd"
  }

  probe expenses: sqlite "/data/data/com.arduia.expense/databases/accounting.db" table "expense" {
    name = "name",
    amount = "amount",
    category = "category",
    note = "note",
    date = "created_date",
  }
  # The currency is the app's default shared preference `selected_currency_number`, its ISO 4217
  # number ("840" USD, "978" EUR, "826" GBP, "104" MMK, "392" JPY).
  probe currency: prefs "/data/data/com.arduia.expense/shared_prefs/com.arduia.expense_preferences.xml"
    key "selected_currency_number" {
    usd = "840",
    eur = "978",
    gbp = "826",
    mmk = "104",
    jpy = "392",
  }
}
