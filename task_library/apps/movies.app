# A cinema ticketing mini program inside WeChat (in the style of the Maoyan one). It runs in
# the host's process (com.tencent.mm, AppBrandUI), so its state is read from its web pages.
app movies {
  host wechat
  package "com.tencent.mm"
  label "Movie Tickets"

  record Film {
    title: text key
    genre: text
    duration_min: int
    rating: number  # out of 10
    language: text = "English"
  }

  record Cinema {
    name: text key
    address: text
    distance_km: number
  }

  record Showtime {
    show_id: text key  # e.g. "S2051"
    film: text  # Film.title
    cinema: text  # Cinema.name
    starts: datetime(minute)  # a show starts on the minute
    hall: text  # e.g. "Hall 3"
    format: text = "2D"  # "2D", "3D", "IMAX"
    price: money  # per seat
    rows: int = 8
    seats_per_row: int = 10
    taken: list of text = []  # sold seats, "ROW-SEAT": "5-7"
  }

  record Order {
    order_no: text key  # e.g. "M20014"
    film: text
    cinema: text
    show_id: text  # Showtime.show_id
    starts: datetime(minute)  # the show's
    seats: list of text  # "Row 5 Seat 7", as the order shows them
    total: money
    status: enum(paid, refunded, used) = "paid"
    placed_at: datetime
  }

  record Ticket {
    order_no: text  # Order.order_no
    show_id: text
    film: text
    cinema: text
    starts: datetime(minute)  # the show's
    row: int
    seat: int
  }

  collection films: Film
  collection cinemas: Cinema
  # Films and cinemas are the service's listings: buying tickets changes neither.
  changes films, cinemas nowhere
  collection showtimes: Showtime
  # Seats sell to other people all the time, and the service schedules shows: what watches
  # the whole app does not watch the showtimes (a clause that names them still does).
  changes showtimes by itself
  collection orders: Order
  # An order and its tickets are made only from the WeChat Pay sheet, and refunded only from
  # the refund dialog (a ticket is marked used at the cinema's gate, not while a task runs).
  # An order stays in My Orders; where the service lets one be deleted from it, that is done
  # from something labelled Delete, and its tickets go with it. A refund marks the order:
  # its tickets keep the show and the seats they were sold for.
  changes orders only on
    text "WeChat Pay",
    text "Refund these tickets?",
    xpath "//node[starts-with(@text, 'Delete') or starts-with(@content-desc, 'Delete')]"
  changes tickets only on
    text "WeChat Pay",
    xpath "//node[starts-with(@text, 'Delete') or starts-with(@content-desc, 'Delete')]"
  removes orders only on
    xpath "//node[starts-with(@text, 'Delete') or starts-with(@content-desc, 'Delete')]"
  # when an order was placed, and for which show (film, cinema, start), is history (changing
  # to another showing, where a cinema allows it, keeps both orders); its tickets show the
  # start on its card
  changes orders.placed_at, orders.film, orders.cinema, orders.starts nowhere
  # a refund is final: a refunded order is never paid again (the seats are bought again, in
  # a new order)
  undoes orders nowhere
  # an order's status changes during a task only with a refund, in its dialog (it is marked
  # used at the cinema's gate)
  changes orders.status only on text "Refund these tickets?"
  collection tickets: Ticket
  # a ticket is the seat it was sold for, at its show: nothing about it changes (a refund
  # marks its order), and it leaves My Orders only with its order
  changes tickets.order_no, tickets.show_id, tickets.film, tickets.cinema nowhere
  changes tickets.starts, tickets.row, tickets.seat nowhere
  removes tickets only on
    xpath "//node[starts-with(@text, 'Delete') or starts-with(@content-desc, 'Delete')]"

  # The Cinemas tab lists every cinema; a cinema's page shows a chip for each film it has
  # showtimes of, a chip for each of that film's days ("Today 5/16", "Tomorrow 5/17"), and the
  # chosen day's showtimes: start (to the minute), format and hall ("IMAX · Hall 2"), price.
  # Only the shows not yet started are listed, and no page shows a show's id nor which seats
  # are sold (only how many are left)
  probe showtimes: screen (
    tap id "tab_label" text "Discover",
    tap text "Mini Programs",
    tap desc "Search",
    tap id "search_input",
    type "Movie Tickets",
    tap id "appbrand_name" text "Movie Tickets",
    tap id "tab-bar-item" text "Cinemas",
  )
    each id "cinema-item" { cinema = id "cinema-name" }
    each id "film-chip" { film = xpath "." }
    each id "day-chip" { starts = xpath "." format "{*} {}" } rows id "show-item" upcoming starts {
      starts = id "show-start",
      format = id "show-hall" format "{} · {*}",
      hall = id "show-hall" format "{*} · {}",
      price = id "show-price",
    }

  # My Orders lists each order with its number, film, cinema and start (to the minute), and
  # its tickets' seats. A paid order whose show has started reads "Completed", as a used one
  # does: such a row says its status is one of the two (`used` has no label of its own)
  probe orders: screen (
    tap id "tab_label" text "Discover",
    tap text "Mini Programs",
    tap desc "Search",
    tap id "search_input",
    type "Movie Tickets",
    tap id "appbrand_name" text "Movie Tickets",
    tap id "tab-bar-item" text "Orders",
  ) rows id "order-item" {
    order_no = id "order-no" format "Order No. {}",
    film = id "order-film",
    cinema = id "order-cinema",
    starts = id "order-time",
    total = id "order-total",
    status = id "order-status" labels { paid = "Paid", refunded = "Refunded" } or {
      "Completed" = "used" or "paid",
    },
  }
  probe tickets: screen (
    tap id "tab_label" text "Discover",
    tap text "Mini Programs",
    tap desc "Search",
    tap id "search_input",
    type "Movie Tickets",
    tap id "appbrand_name" text "Movie Tickets",
    tap id "tab-bar-item" text "Orders",
  ) rows id "order-card-seat" {
    order_no = xpath "ancestor::node[@resource-id='order-item']//node[@resource-id='order-no']" format "Order No. {}",
    film = xpath "ancestor::node[@resource-id='order-item']//node[@resource-id='order-film']",
    cinema = xpath "ancestor::node[@resource-id='order-item']//node[@resource-id='order-cinema']",
    starts = xpath "ancestor::node[@resource-id='order-item']//node[@resource-id='order-time']",
    row = id "order-card-seat" format "Row {} Seat {*}",
    seat = id "order-card-seat" format "Row {*} Seat {}",
  }
}
