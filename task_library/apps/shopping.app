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
    query: text key  # searching a query again moves it to the top
    searched_at: datetime
  }

  collection products: Product
  # The catalogue is the store's: carts, lists and orders leave its products as they are.
  changes products nowhere
  collection cart: CartLine
  collection saved_for_later: CartLine
  # The cart and the lines saved for later change only from a tap on an element that names
  # the cart (any "Add to Cart": a product page's, a list's, a search result's or a
  # carousel's; "Move to cart"; the Cart tab) or from a step on a page that shows the cart's
  # lines (their quantity, Delete, Save for later), on checkout (placing the cart's order
  # empties it), or in a quantity picker. Within an episode the store does not reprice a
  # line, as it leaves its products as they are.
  changes cart, saved_for_later only by
    xpath "//node[contains(translate(@text, 'CART', 'cart'), 'cart') or contains(translate(@content-desc, 'CART', 'cart'), 'cart')]"
  changes cart, saved_for_later only on
    id "sc-active-cart",
    id "sc-saved-cart",
    id "placeYourOrder1",
    text "Place your order",
    text "Quantity"
  # A line is a product as chosen (its size and colour): adding it again adds to its
  # quantity, and no page changes what was chosen. A line comes into the cart only from a
  # tap on something that says "to cart" (any "Add to Cart", "Move to cart"), and leaves it
  # by a tap on its Delete (or a quantity of "0 (Delete)"), on "Save for later", or on
  # "Place your order", which empties the cart; a saved line comes only from "Save for
  # later", and leaves by its Delete or "Move to cart". The saved list offers no quantity:
  # a saved line keeps the quantity it was saved with.
  changes cart.asin, cart.title, cart.size, cart.color nowhere
  # a line's quantity (and the price it is charged at) changes in the quantity picker, and
  # where the product is added to the cart again
  changes cart.quantity, cart.price only on text "Quantity"
  changes cart.quantity, cart.price only by
    xpath "//node[contains(translate(@text, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz'), 'to cart') or contains(translate(@content-desc, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz'), 'to cart')]"
  changes saved_for_later.asin, saved_for_later.title, saved_for_later.size nowhere
  changes saved_for_later.color, saved_for_later.quantity nowhere
  removes cart only by
    xpath "//node[contains(@text, 'Delete') or contains(@content-desc, 'Delete')]",
    text "Save for later",
    text "Place your order"
  adds cart only by
    xpath "//node[contains(translate(@text, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz'), 'to cart') or contains(translate(@content-desc, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz'), 'to cart')]"
  adds saved_for_later only by
    xpath "//node[contains(translate(@text, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz'), 'save for later') or contains(translate(@content-desc, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz'), 'save for later')]"
  removes saved_for_later only by
    xpath "//node[contains(@text, 'Delete') or contains(@content-desc, 'Delete')]",
    text "Move to cart"
  # the app offers no way to delete an order: a cancelled order stays in Your Orders, marked
  # Cancelled, under its order number (archiving, which hides an order from Your Orders, is a
  # feature of the desktop website; an app version that offers it would end this declaration)
  collection orders: Order append only
  # an order is placed from the checkout page (Place your order) or, with 1-Click, by Buy Now
  adds orders only on text "Place your order", text "Buy Now"
  # when an order was placed is history
  changes orders.placed_at nowhere
  # Within an episode an order changes only where it is placed or cancelled (its page's
  # Cancel items asks first: "Cancel checked items"). The store ships and delivers orders
  # over days, not in an episode's minutes, as it reprices its products: a task that runs
  # while an order of the account ships would see that order updated.
  changes orders only on text "Place your order", text "Buy Now", text "Cancel checked items"
  # placing an order adds one, and leaves the others as they are
  changes orders.items, orders.total, orders.address only on text "Cancel checked items"
  changes orders.payment, orders.status only on text "Cancel checked items"
  # a cancellation is final: an order cancelled, or some of its items, never gets them back
  # (they are ordered again, in a new order), so an update shows in its order from then on
  undoes orders nowhere
  collection order_lines: OrderLine
  # An order's lines are what was ordered: written when it is placed, never changed, and
  # never removed (cancelling items marks the order, which keeps its lines)
  changes order_lines only on text "Place your order", text "Cancel items"
  changes order_lines.order_id, order_lines.asin, order_lines.title nowhere
  changes order_lines.size, order_lines.color, order_lines.quantity nowhere
  changes order_lines.price nowhere
  adds order_lines only on text "Place your order", text "Buy Now"
  removes order_lines nowhere
  collection addresses: Address
  # The address book changes only from Your Addresses' buttons (Remove, after its
  # confirmation; Set as Default) and on the forms that add or edit an address (checkout
  # opens them too)
  changes addresses only by text "Remove", text "Set as Default"
  changes addresses only on text "Add a new address", text "Edit address", text "Confirm removal"
  # an address is added on the form that adds one (or made by editing one's street), and
  # removed only after the confirmation
  adds addresses only on text "Add a new address", text "Edit address"
  removes addresses only on text "Confirm removal"
  collection payments: PaymentMethod
  # The wallet changes only on Your Payments (Set as default) and where a card is added; a
  # card leaves it only after a tap on something that says Remove (or Delete)
  changes payments only on text "Your Payments", text "Add a credit or debit card"
  removes payments only by
    xpath "//node[contains(@text, 'Remove') or contains(@content-desc, 'Remove') or contains(@text, 'Delete') or contains(@content-desc, 'Delete')]"
  collection wish_list: ListItem
  # The wish list changes only from a tap on an element that names a list ("Add to List",
  # "Added to List", "Your Lists") or from a step on a list's page (its Delete buttons).
  changes wish_list only by
    xpath "//node[contains(translate(@text, 'LIST', 'list'), 'list') or contains(translate(@content-desc, 'LIST', 'list'), 'list')]"
  changes wish_list only on id "list-header"
  # A list's item is the product, named when it was added: it comes only from "Add to
  # List" (a tap on something that names a list) and leaves only by its Delete (on the
  # list's page, the only page that shows its items)
  changes wish_list.asin, wish_list.title, wish_list.added_at nowhere
  removes wish_list only by
    xpath "//node[contains(@text, 'Delete') or contains(@content-desc, 'Delete')]"
  collection search_history: Search
  # A search is remembered when it runs: from the search page (typed, or a suggestion, whose
  # history entries it also removes), from a tap in the top bar (voice and camera search), or
  # from a tap that searches for a term (a "Keep shopping for" item, a category tile, a
  # product's "Visit the ... Store")
  changes search_history only on id "com.amazon.mShop.android.shopping:id/rs_search_src_text"
  changes search_history only by
    id "com.amazon.mShop.android.shopping:id/chrome_action_bar",
    id "keep-shopping-item",
    id "category-tile",
    id "bylineInfo"
  # an entry leaves the history only by a tap on its own remove button, on the search page
  removes search_history only by
    id "com.amazon.mShop.android.shopping:id/iss_search_dropdown_item_delete"

  settings {
    customer: text = "Alex"  # the first name the app greets ("Hello, Alex")
    prime_member: bool = true
  }
  # The name is changed under Login & security. A Prime membership is joined or ended only
  # after a page that says so: the membership's own page ("Prime Membership", where it is
  # ended), or an offer to join ("Join Prime", "Try Prime", a Prime free trial). The "Prime"
  # filter of search results and the Prime badges are no such page.
  changes customer only on text "Login & security"
  changes prime_member only on
    xpath "//node[contains(translate(concat(@text, ' ', @content-desc), 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz'), 'prime membership') or contains(translate(concat(@text, ' ', @content-desc), 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz'), 'join prime') or contains(translate(concat(@text, ' ', @content-desc), 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz'), 'try prime') or contains(translate(concat(@text, ' ', @content-desc), 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz'), 'prime free trial')]"

  # Your Orders shows each order whole: status, items, total, where it ships, how it was paid
  probe orders: screen (
    tap desc "You" id "bottom_tab_button",
    tap text "Your Orders",
  ) rows id "order-card" {
    order_id = id "order-card-id",
    status = id "order-status" labels {
      placed = "Ordered",
      shipped = "Shipped",
      delivered = "Delivered",
      cancelled = "Cancelled",
    },
    items = xpath ".//node[@resource-id='order-item-title' or @resource-id='order-item-more']",
    total = id "order-card-total" format "Total {}",
    address = id "order-card-address" format "Ship to {}",
    payment = id "order-card-payment" format "Paid with {}",
  }
  # An order's page lists its lines: the product's title, its size and colour (a line each)
  # and the quantity with the line's total ("Qty: 2  $259.98"); each line's ASIN is on the
  # product page its title opens
  probe order_lines: screen (
    tap desc "You" id "bottom_tab_button",
    tap text "Your Orders",
  ) each id "order-card" { order_id = id "order-card-id" } rows id "od-item" {
    title = id "od-item-title",
    size = xpath ".//node[@resource-id='od-item-variation'][starts-with(@text, 'Size: ')]" format "Size: {}",
    color = xpath ".//node[@resource-id='od-item-variation'][starts-with(@text, 'Color: ')]" format "Color: {}",
    quantity = id "od-item-qty" format "Qty: {}  {*}",
    price = id "od-item-qty" format "Qty: {*}  {}",
  } details tap id "od-item-title" {
    asin = xpath "//node[@resource-id='detailBullets-row'][node[@text='ASIN']]/node[@resource-id='detailBullets-value']" or {
      "" = unknown,
    },
  }
  # The Cart tab lists the cart's lines, then those saved for later (whose quantity it does
  # not show), each with its chosen size and colour a line each ("Size: 8", "Color: Grey"),
  # as a line has them. No page of the cart shows a line's ASIN: its product page (opened
  # from the line's title) names it under "Product details" (a product page that does not
  # leaves the line's ASIN unread).
  probe cart: screen (
    tap desc "Cart" id "bottom_tab_button",
  ) rows xpath "//node[@resource-id='sc-active-cart']/node[@resource-id='sc-list-item']" {
    title = id "sc-product-title",
    size = xpath ".//node[@resource-id='sc-product-variation'][starts-with(@text, 'Size: ')]" format "Size: {}",
    color = xpath ".//node[@resource-id='sc-product-variation'][starts-with(@text, 'Color: ')]" format "Color: {}",
    price = id "sc-product-price",
    quantity = id "a-autoid-quantity",
  } details tap id "sc-product-title" {
    asin = xpath "//node[@resource-id='detailBullets-row'][node[@text='ASIN']]/node[@resource-id='detailBullets-value']" or {
      "" = unknown,
    },
  }
  probe saved_for_later: screen (
    tap desc "Cart" id "bottom_tab_button",
  ) rows xpath "//node[@resource-id='sc-saved-cart']/node[@resource-id='sc-list-item']" {
    title = id "sc-product-title",
    size = xpath ".//node[@resource-id='sc-product-variation'][starts-with(@text, 'Size: ')]" format "Size: {}",
    color = xpath ".//node[@resource-id='sc-product-variation'][starts-with(@text, 'Color: ')]" format "Color: {}",
    price = id "sc-product-price",
  } details tap id "sc-product-title" {
    asin = xpath "//node[@resource-id='detailBullets-row'][node[@text='ASIN']]/node[@resource-id='detailBullets-value']" or {
      "" = unknown,
    },
  }
  # Your Lists shows the account's lists (the Shopping List first), each opening its items;
  # an item's ASIN is on the product page its title opens. When an item was added is on no
  # page.
  probe wish_list: screen (
    tap desc "You" id "bottom_tab_button",
    tap text "Your Lists",
  ) each id "list-card" { list = id "list-name" } rows id "itemWrapper" {
    title = id "itemName",
  } details tap id "itemName" {
    asin = xpath "//node[@resource-id='detailBullets-row'][node[@text='ASIN']]/node[@resource-id='detailBullets-value']" or {
      "" = unknown,
    },
  }
  # The search page lists the searches remembered, newest first, each with its own remove
  # button (the suggestions for what is typed have none), the latest 12 at most. When each
  # was run is on no page.
  probe search_history: screen (
    tap id "com.amazon.mShop.android.shopping:id/chrome_search_hint_view",
  ) rows xpath "//node[@resource-id='com.amazon.mShop.android.shopping:id/iss_search_dropdown_item'][node[@resource-id='com.amazon.mShop.android.shopping:id/iss_search_dropdown_item_delete']]" at most 12 {
    query = id "com.amazon.mShop.android.shopping:id/iss_search_dropdown_item_text",
  }
  probe addresses: screen (
    tap desc "You" id "bottom_tab_button",
    tap text "Your Account",
    tap text "Your Addresses",
  ) rows id "address-card" {
    street = id "address-ui-widgets-street",
    name = id "address-ui-widgets-name",
    city = id "address-ui-widgets-city" format "{}, {*} {*}",
    state = id "address-ui-widgets-city" format "{*}, {} {*}",
    zip = id "address-ui-widgets-city" format "{*}, {*} {}",
    is_default = id "address-default-badge" labels { true = "Default", false = "" },
  }
  probe payments: screen (
    tap desc "You" id "bottom_tab_button",
    tap text "Your Account",
    tap text "Your Payments",
  ) rows id "pmts-instrument" {
    label = id "pmts-instrument-label",
    kind = id "pmts-instrument-details" format "{} · {*} · Expires {*}" labels {
      visa = "Visa",
      mastercard = "Mastercard",
      amex = "American Express",
      discover = "Discover",
      gift_card = "Amazon Gift Card",
    },
    holder = id "pmts-instrument-details" format "{*} · {} · Expires {*}",
    expires = id "pmts-instrument-details" format "{*} · {*} · Expires {}",
    is_default = id "pmts-default-badge" labels { true = "Default payment method", false = "" },
  }
}
