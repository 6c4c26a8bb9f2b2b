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
    starts: datetime
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
    starts: datetime
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
    starts: datetime
    row: int
    seat: int
  }

  collection films: Film
  collection cinemas: Cinema
  collection showtimes: Showtime
  collection orders: Order
  collection tickets: Ticket

  probe films: ui class "android.view.View" desc "film" { title = "text" }
  probe cinemas: ui class "android.view.View" desc "cinema" { name = "text" }
  probe showtimes: ui class "android.view.View" desc "showtime" { starts = "text" }
  probe orders: ui class "android.view.View" desc "order" { film = "text" }
  probe tickets: ui class "android.view.View" id "order-seat" { seat = "text" }
}
