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
}
