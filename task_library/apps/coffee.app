# A coffee-chain mini-program inside WeChat (in the style of the Luckin / Starbucks ones).
# It runs in the host's process, so the foreground package is WeChat's; its screens are web
# views, read through the UI tree.
app coffee {
  host wechat
  package "com.tencent.mm"
  label "Coffee"

  record MenuItem {
    name: text key  # e.g. "Latte"
    category: enum(coffee, tea, non_coffee, food, seasonal) = "coffee"
    price: money  # medium size
    size: enum(small, medium, large) = "medium"  # the size the price is for
    available: bool = true
    calories: int?
  }

  record CartItem {
    item: text  # MenuItem.name
    size: enum(small, medium, large) = "medium"
    milk: enum(whole, skim, oat, soy, none) = "whole"
    sugar: enum(none, less, normal) = "normal"
    shots: int = 1
    quantity: int = 1
    price: money  # line total
  }

  record Order {
    order_no: text key  # e.g. "A0193"
    items: list of text  # item names, as the order list summarises them
    total: money
    status: enum(placed, preparing, ready, delivered, cancelled) = "placed"
    pickup: enum(pickup, delivery) = "pickup"
    store: text  # Store.name
    placed_at: datetime
    paid: bool = true
    coupon: text?  # Coupon.code used
  }

  record OrderLine {
    order_no: text  # Order.order_no
    item: text  # MenuItem.name
    size: enum(small, medium, large) = "medium"
    milk: enum(whole, skim, oat, soy, none) = "whole"
    sugar: enum(none, less, normal) = "normal"
    quantity: int = 1
    price: money  # line total
  }

  record Store {
    name: text key
    address: text
    distance_km: number
    opens: time
    closes: time
    open_now: bool = true
  }

  record Coupon {
    code: text key
    title: text  # e.g. "$2 off any large drink"
    discount: money
    min_spend: money = $0.00
    expires: date
    used: bool = false
  }

  collection menu: MenuItem
  collection cart: CartItem
  # The cart fills from an item's "Add to Cart" and an order's "Order Again", and changes on
  # its own page (a line's steppers) and in the dialog that clears it
  changes cart only on id "cart-footer", text "Clear the cart?"
  changes cart only by text "Add to Cart", text "Order Again"
  # A line is a drink as it was made up (adding the same one again adds to its quantity),
  # and leaves the cart from its "-" at one cup or from the dialog's Clear
  changes cart.item, cart.size, cart.milk, cart.sugar, cart.shots nowhere
  removes cart only by
    xpath "//node[@resource-id='stepper-minus'][../node[@resource-id='stepper-value'][@text='1']]",
    text "Clear"
  collection orders: Order
  # An order and its lines are made only by paying (the WeChat Pay sheet, or the member
  # balance's confirmation) and cancelled only in the dialog that asks; the store moves an
  # order along by itself (preparing, ready, completed). An order stays in the list; where
  # the chain lets one be deleted from it, that is done from something labelled Delete.
  changes orders, order_lines only on
    text "WeChat Pay",
    text "Pay with Member Balance",
    text "Cancel this order?",
    xpath "//node[starts-with(@text, 'Delete') or starts-with(@content-desc, 'Delete')]"
  removes orders only on
    xpath "//node[starts-with(@text, 'Delete') or starts-with(@content-desc, 'Delete')]"
  changes orders.status by itself
  # when an order was placed, what it holds, where and what it cost is history
  changes orders.placed_at, orders.items, orders.total, orders.store nowhere
  changes orders.pickup, orders.coupon nowhere
  collection order_lines: OrderLine
  # an order's line is what was paid for: nothing about it changes, and it leaves the order
  # list only with its order
  changes order_lines.order_no, order_lines.item, order_lines.size nowhere
  changes order_lines.milk, order_lines.sugar, order_lines.quantity, order_lines.price nowhere
  removes order_lines only on
    xpath "//node[starts-with(@text, 'Delete') or starts-with(@content-desc, 'Delete')]"
  collection stores: Store
  # The menu and the stores are the chain's: the app shows them and changes neither; a store
  # opens and closes by the clock.
  changes menu, stores nowhere
  changes stores.open_now by itself
  collection coupons: Coupon
  # the chain hands out coupons and lets them lapse
  changes coupons by itself

  settings {
    default_store: text?
    member_points: int = 0
    payment: enum(wechat_pay, member_balance) = "wechat_pay"
    member_balance: money = $0.00
  }
  # The store is picked from the rows of Select a Store (the home page's "Select a store"
  # only leads there), the usual payment in its dialog; the balance pays for an order or is
  # topped up; points are credited and lapse on the chain's side
  changes default_store only on id "store-item"
  changes payment only on text "Payment Method"
  changes member_balance only on text "Pay with Member Balance", text "Top Up"
  changes member_points by itself

  # The cart lists each line: the drink, its options in one text ("Large · Oat Milk · Less
  # Sugar", then "· 2 shots" for more than one; nothing for food), its price and its cups.
  # (The shots are not read: a line's text shows them only where there are more than one.)
  probe cart: screen (
    tap id "tab_label" text "Discover",
    tap text "Mini Programs",
    tap desc "Search",
    tap id "search_input",
    type "Coffee",
    tap id "appbrand_name" text "Coffee",
    tap id "tab-bar-item" text "Menu",
    tap id "cart-icon",
  ) rows id "cart-line" {
    item = id "com.tencent.mm:id/cart_item",
    size = id "cart-line-spec" format "{} · {*}" labels {
      small = "Small",
      medium = "Medium",
      large = "Large",
    } or { "" = unknown },
    milk = id "cart-line-spec" format "{*} · {} · {*}" labels {
      whole = "Whole Milk",
      skim = "Skim Milk",
      oat = "Oat Milk",
      soy = "Soy Milk",
      none = "No Milk",
    } or { "" = unknown },
    sugar = id "cart-line-spec" format "{*} · {}{*}" labels {
      none = "No Sugar",
      less = "Less Sugar",
      normal = "Normal Sugar",
    } or { "" = unknown },
    quantity = id "stepper-value",
    price = id "cart-line-price",
  }
  # My Coupons (the Me tab's Coupons row) lists every coupon, used and lapsed ones too: its
  # title, what it saves, its least spend and the day it expires, and whether it was used,
  # has expired, needs a larger order or is available. No page shows a coupon's code
  probe coupons: screen (
    tap id "tab_label" text "Discover",
    tap text "Mini Programs",
    tap desc "Search",
    tap id "search_input",
    type "Coffee",
    tap id "appbrand_name" text "Coffee",
    tap id "tab-bar-item" text "Me",
    tap id "field-name" text "Coupons",
  ) rows id "coupon-item" {
    title = id "coupon-title",
    discount = id "coupon-discount" format "Save {}",
    min_spend = id "coupon-min" format "Min. spend {}",
    expires = id "coupon-expires" format "Expires {}",
    used = id "coupon-state" labels { true = "Used", false = "Available" } or {
      "Expired" = false,
      "Spend {*} to use" = false,
    },
  }
  # the order list shows each order in full (when it was placed, to the minute), and the cups
  # of each of its lines
  probe orders: screen (
    tap id "tab_label" text "Discover",
    tap text "Mini Programs",
    tap desc "Search",
    tap id "search_input",
    type "Coffee",
    tap id "appbrand_name" text "Coffee",
    tap id "tab-bar-item" text "Orders",
  ) rows id "order-item" {
    order_no = id "order-no" format "Order No. {}",
    status = id "order-status" labels {
      placed = "Placed",
      preparing = "Preparing",
      ready = "Ready for Pickup",
      delivered = "Completed",
      cancelled = "Cancelled",
    },
    store = id "order-store",
    total = id "order-total",
    placed_at = id "order-time",
    pickup = id "order-mode" labels { pickup = "Pickup", delivery = "Delivery" },
    paid = id "order-paid" labels { true = "Paid", false = "Unpaid" },
    coupon = id "order-coupon" format "Coupon {}",
  }
  probe order_lines: screen (
    tap id "tab_label" text "Discover",
    tap text "Mini Programs",
    tap desc "Search",
    tap id "search_input",
    type "Coffee",
    tap id "appbrand_name" text "Coffee",
    tap id "tab-bar-item" text "Orders",
  ) rows id "order-card-line" {
    order_no = xpath "ancestor::node[@resource-id='order-item']//node[@resource-id='order-no']" format "Order No. {}",
    item = id "line-item",
    size = id "line-size" labels { small = "Small", medium = "Medium", large = "Large" },
    milk = id "line-milk" labels {
      whole = "Whole Milk",
      skim = "Skim Milk",
      oat = "Oat Milk",
      soy = "Soy Milk",
      none = "No Milk",
    },
    sugar = id "line-sugar" labels {
      none = "No Sugar",
      less = "Less Sugar",
      normal = "Normal Sugar",
    },
    quantity = id "line-qty" format "×{}",
    price = id "line-price",
  }
}
