# Amazon Shopping (com.amazon.mShop.android.shopping), signed in to one customer's account.
# The catalogue is what search and the departments show; the cart, the lists, the orders, the
# address book and the wallet belong to the account and are read back through the UI (the
# app's pages are web views, so there is no database on the device to read).
app shopping {
  package "com.amazon.mShop.android.shopping"
  label "Amazon Shopping"

  record Product {
    asin: text key  # e.g. "B0C8PQRS12"
    title: text
    brand: text
    category: text  # the product type a search matches, e.g. "headphones"
    department: text = "Electronics"  # as "Shop by Department" lists it
    price: money
    list_price: money?  # the struck-through "List Price" of a deal
    rating: number  # 1.0 .. 5.0, one decimal
    reviews: int = 0  # number of ratings
    prime: bool = true
    in_stock: bool = true
    sizes: list of text = []  # the size choices, e.g. ["S", "M", "L"]
    colors: list of text = []  # the colour choices
  }

  record CartLine {
    asin: text  # Product.asin
    title: text
    size: text?  # the chosen size, for products that have sizes
    color: text?  # the chosen colour, for products that have colours
    quantity: int = 1
    price: money  # the unit price
  }

  record Order {
    order_id: text key  # e.g. "112-4829163-7742315"
    items: list of text  # the product titles, as the order list shows them
    total: money
    address: text  # Address.street it ships to
    payment: text  # PaymentMethod.label it was paid with
    status: enum(placed, shipped, delivered, cancelled) = "placed"
    placed_at: datetime
  }

  record OrderLine {
    order_id: text  # Order.order_id
    asin: text
    title: text
    size: text?
    color: text?
    quantity: int = 1
    price: money  # the line total
  }

  record Address {
    street: text key  # the first address line, e.g. "1420 Pine St Apt 5"
    name: text  # the recipient's full name
    city: text
    state: text  # e.g. "WA"
    zip: text
    phone: phone?
    is_default: bool = false
  }

  record PaymentMethod {
    label: text key  # e.g. "Visa ending in 4242"
    kind: enum(visa, mastercard, amex, discover, gift_card) = "visa"
    holder: text
    expires: text = "12/2029"  # MM/YYYY
    is_default: bool = false
  }

  record ListItem {
    asin: text
    title: text
    list: text = "Shopping List"
    added_at: datetime
  }

  record Search {
    query: text
    searched_at: datetime
  }

  collection products: Product
  collection cart: CartLine
  collection saved_for_later: CartLine
  collection orders: Order
  collection order_lines: OrderLine
  collection addresses: Address
  collection payments: PaymentMethod
  collection wish_list: ListItem
  collection search_history: Search

  settings {
    customer: text = "Alex"  # the first name the app greets ("Hello, Alex")
    prime_member: bool = true
  }

  probe cart: ui xpath "//*[@resource-id='sc-active-cart']//*[@resource-id='sc-product-title']" {
    title = "text",
  }
  probe saved_for_later: ui xpath "//*[@resource-id='sc-saved-cart']//*[@resource-id='sc-product-title']" {
    title = "text",
  }
  probe orders: ui id "order-card-id" { order_id = "text" }
  probe wish_list: ui id "itemName" { title = "text" }
  probe addresses: ui id "address-ui-widgets-street" { street = "text" }
  probe payments: ui id "pmts-instrument-label" { label = "text" }
  probe search_history: ui id "com.amazon.mShop.android.shopping:id/iss_search_dropdown_item_text" {
    query = "text",
  }
  probe products: ui id "s-result-title" { title = "text" }
}
