"""Amazon Shopping (``com.amazon.mShop.android.shopping``), signed in to one customer.

The app is one native activity (``com.amazon.mShop.navigation.MainActivity``) whose chrome is
native (the search bar ``chrome_search_hint_view``, the cart count, the "Deliver to" bar
``glow_subnav_label``, the bottom tabs Home, You, Cart and Menu) around web pages whose nodes
carry the pages' HTML ids (``productTitle``, ``add-to-cart-button``, ``sc-active-cart``,
``placeYourOrder1``...). The search box (``rs_search_src_text``) opens over the page with the
search history and suggestions (``iss_search_dropdown_item_text``).

- Home: greeting, "Keep shopping for" (recent searches), category tiles and today's deals.
- Search results: "N results for ...", the "Prime" chip, "Filters" (customer reviews,
  price, department) and "Sort by" (Featured, price both ways, customer review, most
  reviews); each result shows its title, stars, ratings count, price (and the list price of a
  deal), the Prime badge and "Add to cart" (or "See options" for a product with sizes or
  colours, and nothing when it is unavailable).
- Product page: brand, title, stars, price, stock, the size and colour choices (a size must be
  picked; the first colour is preselected), the quantity spinner, "Add to Cart", "Buy Now"
  and "Add to List"; then "Product details" (the manufacturer and the ASIN).
- Cart: the lines with their size and colour (a line each) and price, the quantity spinner
  ("0 (Delete)" removes the line), "Delete", "Save for later"; "Saved for later" with "Move
  to cart" (onto the line of the same product as chosen, where there is one) and "Delete";
  "Proceed to checkout".
- Checkout: the delivery address and the payment method (each with "Change"), the items and
  the order summary, and "Place your order". Placing the order writes the order and its lines
  (a checkout from the cart also empties the cart; "Buy Now" leaves the cart alone) and
  replaces the checkout with the confirmation, so the button cannot be tapped twice.
- You: "Your Orders" (newest first; an order's page, "Cancel items" for an order not yet
  shipped, after a confirmation), "Your Lists" (the account's lists, the Shopping List
  first, each opening its items: "Add to Cart", "Delete"), "Your Addresses" (add, remove
  after a confirmation, set as default) and "Your Payments" (set as default).
- Menu: "Shop by Department".

Filters, sort order, chosen variants and quantities live in the routes and their forms, as
the web pages keep them in their URLs and page state. Money is in cents.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from typing import Any

from tasklang.envs.phoneworld import widgets as w
from tasklang.envs.phoneworld.app import App, Ctx, Dialog, Route, Screen
from tasklang.envs.phoneworld.apps.common import button, checkbox, choice_dialog, radio
from tasklang.envs.phoneworld.widgets import View

PKG = "com.amazon.mShop.android.shopping"
MAIN_ACTIVITY = "com.amazon.mShop.navigation.MainActivity"
SEARCH_ACTIVITY = "com.amazon.mShop.search.SearchActivity"
WEBVIEW = "android.webkit.WebView"
SPINNER = "android.widget.Spinner"  # a web page's <select>
SEARCH_HINT = "Search Amazon"
TABS = (("home", "Home"), ("you", "You"), ("cart", "Cart"), ("menu", "Menu"))
SORTS = (
    ("featured", "Featured"),
    ("price_asc", "Price: Low to High"),
    ("price_desc", "Price: High to Low"),
    ("rating", "Avg. Customer Review"),
    ("reviews", "Most Reviews"),
)
SORT_LABEL = dict(SORTS)
STARS = ((4, "4 Stars & Up"), (3, "3 Stars & Up"), (2, "2 Stars & Up"), (0, "Any rating"))
PRICES = (
    ("", "Any price", None, None),
    ("under25", "Up to $25", None, 2500),
    ("25to50", "$25 to $50", 2500, 5000),
    ("50to100", "$50 to $100", 5000, 10000),
    ("over100", "$100 & above", 10000, None),
)
PRICE_LABEL = {key: label for key, label, _, _ in PRICES}
STATUS = {
    "placed": "Ordered",
    "shipped": "Shipped",
    "delivered": "Delivered",
    "cancelled": "Cancelled",
}
MAX_QTY = 10
FREE_SHIPPING_MIN = 3500
SHIPPING_FEE = 599
ORDER_STATUS = {
    "placed": "Ordered",
    "shipped": "Shipped",
    "delivered": "Delivered",
    "cancelled": "Cancelled",
}
CARD_KINDS = {
    "visa": "Visa",
    "mastercard": "Mastercard",
    "amex": "American Express",
    "discover": "Discover",
    "gift_card": "Amazon Gift Card",
}
_WORD = re.compile(r"[a-z0-9]+")


# ------------------------------------------------------------------ values
def money(cents: Any) -> str:
    """Cents as the app shows a price: "$1,249.99"."""
    value = int(cents or 0)
    sign = "-" if value < 0 else ""
    value = abs(value)
    return f"{sign}${value // 100:,}.{value % 100:02d}"


def parse_time(value: Any) -> dt.datetime | None:
    if not value:
        return None
    try:
        return dt.datetime.fromisoformat(str(value)).replace(tzinfo=None)
    except ValueError:
        return None


def stamp(moment: dt.datetime) -> str:
    return moment.replace(microsecond=0).isoformat()


def long_date(value: Any) -> str:
    """ "May 14, 2026"."""
    t = parse_time(value)
    return "" if t is None else f"{t:%B} {t.day}, {t.year}"


def stars_text(rating: Any) -> str:
    return f"{float(rating or 0):.1f} out of 5 stars"


def count_text(n: Any) -> str:
    return f"{int(n or 0):,}"


def stem(word: str) -> str:
    """A word without its plural ending, so "bottle" finds "bottles" and "glass" "glasses"."""
    for end in ("ies", "es", "s"):
        if len(word) > len(end) + 2 and word.endswith(end):
            base = word[: -len(end)]
            return base + "y" if end == "ies" else base
    return word


@functools.lru_cache(maxsize=8192)
def words(text: str) -> tuple[str, ...]:
    """The stemmed words of a text (cached: search screens match every product per draw)."""
    return tuple(stem(t) for t in _WORD.findall(text.casefold()))


def matches(product: dict[str, Any], query: str) -> bool:
    """Every word of the query is a word of the product's title, brand, type or department
    (a word of the query may also begin a word: "sun" finds "sunglasses")."""
    wanted = words(query)
    if not wanted:
        return False
    have = words(
        " ".join(str(product.get(f) or "") for f in ("title", "brand", "category", "department"))
    )
    return all(any(h == q or h.startswith(q) for h in have) for q in wanted)


# where "Add to List" puts a product
DEFAULT_LIST = "Shopping List"
# a cart line is a product as chosen: adding it again adds to the line's quantity
SAME_LINE = ("asin", "size", "color")


def variations(line: dict[str, Any], rid: str) -> list[View]:
    """A line's chosen size and colour, a line each ("Size: 8", "Color: Grey"), as the cart,
    checkout and an order's page show them."""
    shown = [f"{name}: {line[f]}" for f, name in (("size", "Size"), ("color", "Color"))
             if line.get(f)]  # fmt: skip
    return [web(text, rid=rid, height=70) for text in shown]


def as_int(value: Any, default: int = 0) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


# ------------------------------------------------------------------ views
def web(
    text: str = "",
    key: str | None = None,
    arg: Any = None,
    rid: str = "",
    desc: str = "",
    height: int = 100,
    **kw: Any,
) -> View:
    """A web page element: an ``android.view.View`` (clickable when it sends a key)."""
    return View(
        w.VIEW,
        text=text,
        rid=rid,
        desc=desc,
        clickable=key is not None,
        focusable=key is not None,
        on_click=key,
        arg=arg,
        height=height,
        **kw,
    )


def group(*children: View, rid: str = "", horizontal: bool = False, **kw: Any) -> View:
    return View(w.VIEW, rid=rid, children=list(children), horizontal=horizontal, **kw)


def web_button(text: str, key: str | None, arg: Any = None, rid: str = "", **kw: Any) -> View:
    return button(text, key, arg, rid=rid, height=kw.pop("height", 140), **kw)


# ------------------------------------------------------------------ the app
class Shopping(App):
    model = "shopping"
    package = PKG
    label = "Amazon Shopping"
    activity = MAIN_ACTIVITY
    home = "home"

    # ------------------------------------------------------------ reading
    def product(self, ctx: Ctx, asin: Any) -> dict[str, Any] | None:
        return ctx.find("products", lambda p: p.get("asin") == asin)

    def order(self, ctx: Ctx, order_id: Any) -> dict[str, Any] | None:
        return ctx.find("orders", lambda o: o.get("order_id") == order_id)

    def address(self, ctx: Ctx, street: Any) -> dict[str, Any] | None:
        return ctx.find("addresses", lambda a: a.get("street") == street)

    def payment(self, ctx: Ctx, label: Any) -> dict[str, Any] | None:
        return ctx.find("payments", lambda p: p.get("label") == label)

    def default_address(self, ctx: Ctx) -> dict[str, Any] | None:
        found = ctx.records("addresses")
        return next((a for a in found if a.get("is_default")), found[0] if found else None)

    def default_payment(self, ctx: Ctx) -> dict[str, Any] | None:
        found = ctx.records("payments")
        return next((p for p in found if p.get("is_default")), found[0] if found else None)

    def cart_count(self, ctx: Ctx) -> int:
        return sum(as_int(c.get("quantity"), 1) for c in ctx.records("cart"))

    def departments(self, ctx: Ctx) -> list[str]:
        seen: list[str] = []
        for p in ctx.records("products"):
            d = str(p.get("department") or "")
            if d and d not in seen:
                seen.append(d)
        return sorted(seen)

    def categories(self, ctx: Ctx) -> list[str]:
        seen: list[str] = []
        for p in ctx.records("products"):
            c = str(p.get("category") or "")
            if c and c not in seen:
                seen.append(c)
        return seen

    def search(self, ctx: Ctx, route: Route) -> list[dict[str, Any]]:
        query = str(route.arg("query") or "")
        dept = str(route.arg("dept") or "")
        found = [
            p
            for p in ctx.records("products")
            if (matches(p, query) if query else True)
            and (not dept or p.get("department") == dept)
            and (query or dept)
        ]
        if route.arg("prime"):
            found = [p for p in found if p.get("prime")]
        stars = as_int(route.arg("stars"))
        if stars:
            found = [p for p in found if float(p.get("rating") or 0) >= stars]
        band = next((b for b in PRICES if b[0] == (route.arg("price") or "")), PRICES[0])
        low, high = band[2], band[3]
        if low is not None:
            found = [p for p in found if as_int(p.get("price")) >= low]
        if high is not None:
            found = [p for p in found if as_int(p.get("price")) < high]
        sort = str(route.arg("sort") or "featured")
        if sort == "price_asc":
            found.sort(key=lambda p: as_int(p.get("price")))
        elif sort == "price_desc":
            found.sort(key=lambda p: -as_int(p.get("price")))
        elif sort == "rating":
            found.sort(key=lambda p: (-float(p.get("rating") or 0), -as_int(p.get("reviews"))))
        elif sort == "reviews":
            found.sort(key=lambda p: -as_int(p.get("reviews")))
        return found

    # ------------------------------------------------------------ chrome
    def chrome(self, ctx: Ctx, back: bool = True, query: str = "") -> list[View]:
        """The native bar: back (on inner pages), the search box and the cart."""
        parts: list[View] = []
        if back:
            parts.append(
                View(
                    w.IMAGE_BUTTON,
                    desc="Back",
                    rid=self.rid("chrome_action_bar_back_icon"),
                    clickable=True,
                    focusable=True,
                    on_click="back",
                    weight=0.12,
                )
            )
        parts.append(
            View(
                w.TEXT,
                text=query or SEARCH_HINT,
                rid=self.rid("chrome_search_hint_view"),
                clickable=True,
                focusable=True,
                on_click="open_search",
                arg=query,
                weight=0.74 if back else 0.86,
            )
        )
        parts.append(
            View(
                w.FRAME,
                desc=f"Cart {self.cart_count(ctx)} items",
                rid=self.rid("chrome_action_bar_cart"),
                clickable=True,
                focusable=True,
                on_click="tab",
                arg="cart",
                weight=0.14,
                children=[
                    View(
                        w.TEXT,
                        text=str(self.cart_count(ctx)),
                        rid=self.rid("chrome_action_bar_cart_count"),
                    )
                ],
            )
        )
        bar = View(
            w.LINEAR, rid=self.rid("chrome_action_bar"), horizontal=True, height=150, children=parts
        )
        address = self.default_address(ctx)
        where = (
            f"Deliver to {str(address.get('name') or '').split(' ')[0]} - "
            f"{address.get('city')} {address.get('zip')}"
            if address is not None
            else "Select delivery location"
        )
        glow = View(
            w.TEXT,
            text=where,
            rid=self.rid("glow_subnav_label"),
            clickable=True,
            focusable=True,
            on_click="addresses",
            height=90,
        )
        return [bar, glow]

    def tabs(self, ctx: Ctx, current: str) -> list[View]:
        out = []
        for key, label in TABS:
            text = label
            if key == "cart":
                text = f"{label} {self.cart_count(ctx)}"
            out.append(
                View(
                    w.FRAME,
                    desc=label,
                    rid=self.rid("bottom_tab_button"),
                    clickable=True,
                    focusable=True,
                    selected=key == current,
                    on_click="tab",
                    arg=key,
                    children=[
                        View(w.IMAGE, rid=self.rid("bottom_tab_button_icon"), height=60),
                        View(w.TEXT, text=text, rid=self.rid("bottom_tab_button_text"), height=50),
                    ],
                )
            )
        return out

    def page(
        self,
        ctx: Ctx,
        rows: list[View],
        tab: str | None = None,
        back: bool = True,
        query: str = "",
        header: list[View] | None = None,
        footer: list[View] | None = None,
        list_rid: str = "",
    ) -> Screen:
        return Screen(
            None,
            rows,
            header=[*self.chrome(ctx, back, query), *(header or [])],
            footer=footer or [],
            tabs=self.tabs(ctx, tab or ""),
            list_rid=list_rid or self.rid("mash_web_fragment"),
            list_cls=WEBVIEW,
        )

    def on_screen(self, ctx: Ctx, screen: str) -> bool:
        """Whether ``screen`` is on top (a second tap of a double tap lands on the next one)."""
        return ctx.route is not None and ctx.route.screen == screen

    def on_back(self, ctx: Ctx, arg: Any) -> None:
        ctx.back()

    def on_tab(self, ctx: Ctx, arg: Any) -> None:
        ctx.hide_keyboard()
        ctx.back_to("home")
        if arg != "home":
            ctx.push(str(arg))

    # ------------------------------------------------------------ home
    def screen_home(self, ctx: Ctx, route: Route) -> Screen:
        name = str(ctx.setting("customer") or "")
        rows: list[View] = [
            web(f"Hello, {name}" if name else "Hello", rid="nav-greeting", height=120)
        ]
        recent = sorted(
            ctx.records("search_history"),
            key=lambda s: str(s.get("searched_at") or ""),
            reverse=True,
        )
        seen: list[str] = []
        for s in recent:
            q = str(s.get("query") or "")
            if q and q.casefold() not in [x.casefold() for x in seen]:
                seen.append(q)
        if seen:
            rows.append(web("Keep shopping for", rid="keep-shopping-header", height=110))
            rows += [
                group(
                    *(
                        web(q, "search_for", q, rid="keep-shopping-item", height=120, weight=1.0)
                        for q in seen[i : i + 2]
                    ),
                    horizontal=True,
                    height=130,
                )
                for i in range(0, min(len(seen), 4), 2)
            ]
        cats = self.categories(ctx)
        if cats:
            rows.append(web("Shop by category", rid="category-header", height=110))
            rows += [
                group(
                    *(
                        web(c.capitalize(), "search_for", c, rid="category-tile", height=160)
                        for c in cats[i : i + 3]
                    ),
                    horizontal=True,
                    height=170,
                )
                for i in range(0, len(cats), 3)
            ]
        deals = [p for p in ctx.records("products") if p.get("list_price")]
        if deals:
            rows.append(web("Today's Deals", rid="deals-header", height=110))
            for p in deals:
                off = 100 - round(
                    100 * as_int(p.get("price")) / max(1, as_int(p.get("list_price")))
                )
                rows.append(
                    group(
                        web(str(p.get("title") or ""), rid="deal-title", height=90),
                        web(f"-{off}% {money(p.get('price'))}", rid="deal-price", height=70),
                        rid="deal-card",
                        clickable=True,
                        focusable=True,
                        on_click="open_product",
                        arg=p.get("asin"),
                        height=170,
                    )
                )
        return self.page(ctx, rows, tab="home", back=False)

    # ------------------------------------------------------------ search
    def screen_search(self, ctx: Ctx, route: Route) -> Screen:
        typed = ctx.form("query")
        field = View(
            w.EDIT,
            rid=self.rid("rs_search_src_text"),
            edit="query",
            hint=SEARCH_HINT,
            on_enter="submit_search",
            weight=0.62,
        )
        bar = View(
            w.LINEAR,
            rid=self.rid("rs_search_plate"),
            horizontal=True,
            height=150,
            children=[
                View(
                    w.IMAGE_BUTTON,
                    desc="Back",
                    rid=self.rid("rs_search_back_button"),
                    clickable=True,
                    focusable=True,
                    on_click="back",
                    weight=0.12,
                ),
                field,
                View(
                    w.IMAGE_BUTTON,
                    desc="Clear search keywords",
                    rid=self.rid("rs_clear_text_button"),
                    clickable=bool(typed),
                    focusable=bool(typed),
                    on_click="clear_query" if typed else None,
                    weight=0.12,
                ),
                View(
                    w.IMAGE_BUTTON,
                    desc="Search",
                    rid=self.rid("rs_search_submit_button"),
                    clickable=True,
                    focusable=True,
                    on_click="submit_search",
                    weight=0.14,
                ),
            ],
        )
        rows: list[View] = []
        typed_words = words(typed)
        history = sorted(
            ctx.records("search_history"),
            key=lambda s: str(s.get("searched_at") or ""),
            reverse=True,
        )
        shown: list[str] = []
        for s in history:
            q = str(s.get("query") or "")
            if not q or q.casefold() in shown:
                continue
            if typed.strip() and not q.casefold().startswith(typed.strip().casefold()):
                continue
            shown.append(q.casefold())
            rows.append(self.suggestion(q, history=True))
        if typed_words:
            for term in self.suggested_terms(ctx, typed):
                if term.casefold() not in shown:
                    shown.append(term.casefold())
                    rows.append(self.suggestion(term))
        return Screen(
            None,
            rows[:12],
            activity=SEARCH_ACTIVITY,
            header=[bar],
            list_rid=self.rid("iss_search_suggestions_list_view"),
            list_cls="android.widget.ListView",
        )

    def suggested_terms(self, ctx: Ctx, typed: str) -> list[str]:
        """Product types, brands and titles that the typed text begins or matches."""
        start = " ".join(typed.split()).casefold()
        out: list[str] = []
        for p in ctx.records("products"):
            for term in (str(p.get("category") or ""), str(p.get("brand") or "")):
                t = term.casefold()
                if t and t.startswith(start) and t not in out:
                    out.append(t)
        for p in ctx.records("products"):
            if matches(p, typed):
                t = str(p.get("category") or "").casefold()
                brand = str(p.get("brand") or "").casefold()
                for term in (f"{brand} {t}".strip(), t):
                    if term and term not in out:
                        out.append(term)
        return out

    def suggestion(self, term: str, history: bool = False) -> View:
        children = [
            View(w.TEXT, text=term, rid=self.rid("iss_search_dropdown_item_text"), weight=0.85)
        ]
        if history:
            children.append(
                View(
                    w.IMAGE_BUTTON,
                    desc=f"Remove {term} from search history",
                    rid=self.rid("iss_search_dropdown_item_delete"),
                    clickable=True,
                    focusable=True,
                    on_click="forget_search",
                    arg=term,
                    weight=0.15,
                )
            )
        return View(
            w.LINEAR,
            rid=self.rid("iss_search_dropdown_item"),
            clickable=True,
            focusable=True,
            on_click="search_for",
            arg=term,
            horizontal=True,
            height=140,
            children=children,
        )

    def on_open_search(self, ctx: Ctx, arg: Any) -> None:
        route = ctx.push("search")
        if arg:
            ctx.set_form("query", str(arg), route)
        ctx.phone.focus = (route.id, "query")
        ctx.phone.keyboard = True

    def on_clear_query(self, ctx: Ctx, arg: Any) -> None:
        if not self.on_screen(ctx, "search"):
            return
        ctx.set_form("query", "")
        ctx.focus("query")

    def on_submit_search(self, ctx: Ctx, arg: Any) -> None:
        if not self.on_screen(ctx, "search"):
            return
        typed = " ".join(ctx.form("query").split())
        if typed:
            self.run_search(ctx, typed)

    def on_search_for(self, ctx: Ctx, arg: Any) -> None:
        self.run_search(ctx, str(arg))

    def run_search(self, ctx: Ctx, query: str) -> None:
        now = stamp(ctx.now)
        old = ctx.find(
            "search_history", lambda s: str(s.get("query") or "").casefold() == query.casefold()
        )
        if old is None:
            ctx.add("search_history", {"query": query, "searched_at": now})
        elif old.get("searched_at") != now:
            ctx.update("search_history", old, searched_at=now)
        ctx.hide_keyboard()
        if ctx.route is not None and ctx.route.screen == "search":
            ctx.replace("results", query=query)
        else:
            ctx.push("results", query=query)

    def on_forget_search(self, ctx: Ctx, arg: Any) -> None:
        for s in list(ctx.records("search_history")):
            if str(s.get("query") or "").casefold() == str(arg).casefold():
                ctx.delete("search_history", s)

    # ------------------------------------------------------------ results
    def screen_results(self, ctx: Ctx, route: Route) -> Screen:
        query = str(route.arg("query") or "")
        dept = str(route.arg("dept") or "")
        found = self.search(ctx, route)
        sort = str(route.arg("sort") or "featured")
        n_filters = sum(
            1
            for k in ("stars", "price", "dept")
            if route.arg(k) and not (k == "dept" and not query)
        )
        chips = group(
            View(
                w.CHECKBOX,
                text="Prime",
                rid="s-prime-filter",
                checkable=True,
                checked=bool(route.arg("prime")),
                clickable=True,
                focusable=True,
                on_click="toggle_prime",
                weight=0.28,
            ),
            web(
                f"Filters ({n_filters})" if n_filters else "Filters",
                "filters",
                rid="s-all-filters",
                weight=0.32,
            ),
            web(f"Sort by: {SORT_LABEL.get(sort, 'Featured')}", "sort", rid="s-sort", weight=0.4),
            rid="s-refinements",
            horizontal=True,
            height=130,
        )
        what = query or dept
        rows: list[View] = [
            web(
                f'{len(found)} result{"s" if len(found) != 1 else ""} for "{what}"'
                if found
                else f'No results for "{what}".',
                rid="s-result-count",
                height=100,
            )
        ]
        rows += [self.result_row(ctx, p) for p in found]
        if not found:
            rows.append(web("Try checking your spelling or use more general terms", height=100))
        return self.page(
            ctx,
            rows,
            query=query,
            header=[chips],
            list_rid="s-search-results",
        )

    def result_row(self, ctx: Ctx, p: dict[str, Any]) -> View:
        asin = p.get("asin")
        price_parts = [web(money(p.get("price")), rid="s-price", height=80, weight=0.5)]
        if p.get("list_price"):
            price_parts.append(
                web(
                    f"List: {money(p.get('list_price'))}", rid="s-list-price", height=80, weight=0.5
                )
            )
        children: list[View] = [
            web(str(p.get("title") or ""), rid="s-result-title", height=110),
            group(
                web(
                    f"{float(p.get('rating') or 0):.1f}",
                    desc=stars_text(p.get("rating")),
                    rid="s-rating",
                    height=70,
                    weight=0.5,
                ),
                web(
                    f"({count_text(p.get('reviews'))})", rid="s-review-count", height=70, weight=0.5
                ),
                horizontal=True,
                height=70,
            ),
            group(*price_parts, horizontal=True, height=80),
        ]
        if p.get("prime"):
            children.append(web("prime", desc="Amazon Prime", rid="s-prime-badge", height=60))
        if not p.get("in_stock", True):
            children.append(web("Currently unavailable.", rid="s-availability", height=70))
        elif p.get("sizes") or p.get("colors"):
            children.append(web_button("See options", "open_product", asin, rid="s-see-options"))
        else:
            children.append(web_button("Add to cart", "quick_add", asin, rid="s-add-to-cart"))
        body = group(*children, weight=0.72)
        return View(
            w.VIEW,
            rid="s-result-item",
            clickable=True,
            focusable=True,
            on_click="open_product",
            arg=asin,
            horizontal=True,
            height=sum(w.natural_height(c) for c in children) + 20,
            children=[View(w.IMAGE, desc=str(p.get("title") or ""), weight=0.28), body],
        )

    def results_args(self, route: Route, **changes: Any) -> dict[str, Any]:
        args = dict(route.args)
        args.update(changes)
        return {k: v for k, v in args.items() if v not in (None, "", 0, False)}

    def on_toggle_prime(self, ctx: Ctx, arg: Any) -> None:
        if ctx.route is None or ctx.route.screen != "results":
            return
        ctx.replace("results", **self.results_args(ctx.route, prime=not ctx.route.arg("prime")))

    def on_sort(self, ctx: Ctx, arg: Any) -> None:
        if ctx.route is None or ctx.route.screen != "results":
            return
        current = str(ctx.route.arg("sort") or "featured")
        ctx.dialog(choice_dialog("Sort by", SORTS, current, "set_sort"))

    def on_set_sort(self, ctx: Ctx, sort: Any) -> None:
        if ctx.route is None or ctx.route.screen != "results":
            return
        ctx.replace("results", **self.results_args(ctx.route, sort=sort))

    def on_filters(self, ctx: Ctx, arg: Any) -> None:
        if ctx.route is None or ctx.route.screen != "results":
            return
        route = ctx.route
        stars = as_int(route.arg("stars"))
        price = str(route.arg("price") or "")
        items: list[View] = [web("Customer Reviews", height=100)]
        items += [
            radio(label, value == stars, "set_filter", ("stars", value), height=110)
            for value, label in STARS
        ]
        items.append(web("Price", height=100))
        items += [
            radio(label, key == price, "set_filter", ("price", key), height=110)
            for key, label, _, _ in PRICES
        ]
        if route.arg("query"):
            dept = str(route.arg("dept") or "")
            items.append(web("Department", height=100))
            items.append(radio("All Departments", not dept, "set_filter", ("dept", ""), height=110))
            items += [
                radio(d, d == dept, "set_filter", ("dept", d), height=110)
                for d in self.departments(ctx)
            ]
        ctx.dialog(Dialog("Filters", items=items, buttons=[("Close", None, None)]))

    def on_set_filter(self, ctx: Ctx, arg: tuple[str, Any]) -> None:
        if ctx.route is None or ctx.route.screen != "results":
            return
        name, value = arg
        ctx.replace("results", **self.results_args(ctx.route, **{name: value}))

    def on_quick_add(self, ctx: Ctx, asin: Any) -> None:
        p = self.product(ctx, asin)
        if p is None or not p.get("in_stock", True):
            return
        self.add_line(ctx, p, None, None, 1)
        ctx.toast("Added to cart")

    # ------------------------------------------------------------ product page
    def screen_product(self, ctx: Ctx, route: Route) -> Screen:
        p = self.product(ctx, route.arg("asin"))
        if p is None:
            return self.page(ctx, [web("Looking for something?", height=200)])
        size = ctx.form("size")
        colors = list(p.get("colors") or [])
        color = ctx.form("color") or (colors[0] if colors else "")
        qty = as_int(ctx.form("qty"), 1) or 1
        rows: list[View] = [
            web(
                f"Visit the {p.get('brand')} Store",
                "search_for",
                str(p.get("brand") or ""),
                rid="bylineInfo",
                height=90,
            ),
            web(str(p.get("title") or ""), rid="productTitle", height=160),
            group(
                web(
                    f"{float(p.get('rating') or 0):.1f}",
                    desc=stars_text(p.get("rating")),
                    rid="acrPopover",
                    height=80,
                    weight=0.4,
                ),
                web(
                    f"{count_text(p.get('reviews'))} ratings",
                    rid="acrCustomerReviewText",
                    height=80,
                    weight=0.6,
                ),
                horizontal=True,
                height=80,
            ),
        ]
        if p.get("list_price"):
            off = 100 - round(100 * as_int(p.get("price")) / max(1, as_int(p.get("list_price"))))
            rows.append(web(f"-{off}%", rid="savingsPercentage", height=80))
        rows.append(web(money(p.get("price")), rid="priceblock_ourprice", height=120))
        if p.get("list_price"):
            rows.append(
                web(f"List Price: {money(p.get('list_price'))}", rid="listPrice", height=80)
            )
        if p.get("prime"):
            rows.append(web("prime", desc="Amazon Prime", rid="prime-badge", height=70))
        sizes = list(p.get("sizes") or [])
        if sizes:
            rows.append(web(f"Size: {size or 'Select'}", rid="variation_size_name", height=90))
            rows += [
                group(
                    *(
                        radio(s, s == size, "pick", ("size", s), rid="size_name", height=120)
                        for s in sizes[i : i + 4]
                    ),
                    horizontal=True,
                    height=120,
                )
                for i in range(0, len(sizes), 4)
            ]
        if colors:
            rows.append(web(f"Color: {color}", rid="variation_color_name", height=90))
            rows += [
                group(
                    *(
                        radio(c, c == color, "pick", ("color", c), rid="color_name", height=120)
                        for c in colors[i : i + 3]
                    ),
                    horizontal=True,
                    height=120,
                )
                for i in range(0, len(colors), 3)
            ]
        if p.get("in_stock", True):
            rows.append(web("In Stock", rid="availability", height=90))
            rows.append(
                View(
                    SPINNER,
                    text=f"Quantity: {qty}",
                    rid="mobileQuantityDropDown",
                    clickable=True,
                    focusable=True,
                    on_click="choose_qty",
                    height=130,
                )
            )
            rows.append(
                web_button("Add to Cart", "add_to_cart", p.get("asin"), rid="add-to-cart-button")
            )
            rows.append(web_button("Buy Now", "buy_now", p.get("asin"), rid="buy-now-button"))
        else:
            rows.append(web("Currently unavailable.", rid="availability", height=90))
            rows.append(web("We don't know when or if this item will be back in stock.", height=90))
        listed = any(i.get("asin") == p.get("asin") for i in ctx.records("wish_list"))
        rows.append(
            web_button(
                "Added to List" if listed else "Add to List",
                "add_to_list",
                p.get("asin"),
                rid="add-to-wishlist-button-submit",
            )
        )
        rows.append(web("About this item", rid="feature-bullets-header", height=100))
        rows.append(
            web(
                f"{p.get('brand')} {p.get('category')} ({p.get('department')}).",
                rid="feature-bullets",
                height=100,
            )
        )
        # "Product details" names the product's ASIN, as Amazon's detail bullets do
        rows.append(web("Product details", rid="detailBullets-header", height=100))
        for label, value in (("Manufacturer", p.get("brand")), ("ASIN", p.get("asin"))):
            rows.append(
                group(
                    web(label, rid="detailBullets-label", height=80, weight=0.4),
                    web(str(value or ""), rid="detailBullets-value", height=80, weight=0.6),
                    rid="detailBullets-row",
                    horizontal=True,
                    height=80,
                )
            )
        return self.page(ctx, rows, query="")

    def on_open_product(self, ctx: Ctx, asin: Any) -> None:
        if self.product(ctx, asin) is not None:
            ctx.push("product", asin=asin)

    def on_pick(self, ctx: Ctx, arg: tuple[str, str]) -> None:
        if not self.on_screen(ctx, "product"):
            return
        name, value = arg
        ctx.set_form(name, value)

    def on_choose_qty(self, ctx: Ctx, arg: Any) -> None:
        if not self.on_screen(ctx, "product"):
            return
        qty = as_int(ctx.form("qty"), 1) or 1
        options = [(str(n), str(n)) for n in range(1, MAX_QTY + 1)]
        ctx.dialog(choice_dialog("Quantity", options, str(qty), "set_qty"))

    def on_set_qty(self, ctx: Ctx, value: Any) -> None:
        if not self.on_screen(ctx, "product"):
            return
        ctx.set_form("qty", str(value))

    def chosen(self, ctx: Ctx, p: dict[str, Any]) -> tuple[str | None, str | None] | None:
        """The size and colour chosen on the product page; None (with a message) when a size
        is still to be picked."""
        sizes = list(p.get("sizes") or [])
        colors = list(p.get("colors") or [])
        size = ctx.form("size") or None
        color = (ctx.form("color") or (colors[0] if colors else "")) or None
        if sizes and size is None:
            ctx.dialog(
                Dialog(
                    "Select a Size",
                    message="Please select a Size from the choices above.",
                    buttons=[("OK", None, None)],
                )
            )
            return None
        return size, color

    def on_add_to_cart(self, ctx: Ctx, asin: Any) -> None:
        if not self.on_screen(ctx, "product"):
            return
        p = self.product(ctx, asin)
        if p is None or not p.get("in_stock", True):
            return
        picked = self.chosen(ctx, p)
        if picked is None:
            return
        self.add_line(ctx, p, picked[0], picked[1], as_int(ctx.form("qty"), 1) or 1)
        ctx.toast("Added to Cart")

    def add_line(
        self, ctx: Ctx, p: dict[str, Any], size: str | None, color: str | None, qty: int
    ) -> None:
        chosen = {"asin": p.get("asin"), "size": size, "color": color}
        same = ctx.find("cart", lambda c: all(c.get(f) == chosen[f] for f in SAME_LINE))
        if same is not None:
            total = min(30, as_int(same.get("quantity"), 1) + qty)
            ctx.update("cart", same, quantity=total, price=as_int(p.get("price")))
            return
        ctx.add(
            "cart",
            {
                "asin": p.get("asin"),
                "title": p.get("title"),
                "size": size,
                "color": color,
                "quantity": qty,
                "price": as_int(p.get("price")),
            },
        )

    def on_buy_now(self, ctx: Ctx, asin: Any) -> None:
        if not self.on_screen(ctx, "product"):
            return
        p = self.product(ctx, asin)
        if p is None or not p.get("in_stock", True):
            return
        picked = self.chosen(ctx, p)
        if picked is None:
            return
        qty = as_int(ctx.form("qty"), 1) or 1
        ctx.push("checkout", mode="buy", asin=asin, size=picked[0], color=picked[1], qty=qty)

    def on_add_to_list(self, ctx: Ctx, asin: Any) -> None:
        p = self.product(ctx, asin)
        if p is None:
            return
        if any(i.get("asin") == asin for i in ctx.records("wish_list")):
            ctx.toast("This item is already in Shopping List")
            return
        ctx.add(
            "wish_list",
            {
                "asin": asin,
                "title": p.get("title"),
                "list": DEFAULT_LIST,
                "added_at": stamp(ctx.now),
            },
        )
        ctx.toast("1 item added to Shopping List")

    # ------------------------------------------------------------ cart
    def screen_cart(self, ctx: Ctx, route: Route) -> Screen:
        lines = ctx.records("cart")
        saved = ctx.records("saved_for_later")
        count = self.cart_count(ctx)
        subtotal = sum(as_int(c.get("price")) * as_int(c.get("quantity"), 1) for c in lines)
        rows: list[View] = []
        if lines:
            rows.append(
                group(
                    web(f"Subtotal {money(subtotal)}", rid="sc-subtotal-amount-buybox", height=110),
                    web_button(
                        f"Proceed to checkout ({count} item{'s' if count != 1 else ''})",
                        "checkout",
                        rid="sc-buy-box-ptc-button",
                    ),
                    rid="sc-buy-box",
                )
            )
            rows.append(
                group(*(self.cart_row(c, i) for i, c in enumerate(lines)), rid="sc-active-cart")
            )
        else:
            rows.append(web("Your Amazon Cart is empty", rid="sc-empty-cart", height=160))
        if saved:
            rows.append(
                web(
                    f"Saved for later ({len(saved)} item{'s' if len(saved) != 1 else ''})",
                    rid="sc-saved-cart-header",
                    height=110,
                )
            )
            rows.append(
                group(*(self.saved_row(c, i) for i, c in enumerate(saved)), rid="sc-saved-cart")
            )
        return self.page(ctx, rows, tab="cart", back=False)

    def cart_row(self, c: dict[str, Any], i: int) -> View:
        qty = as_int(c.get("quantity"), 1)
        parts: list[View] = [
            web(str(c.get("title") or ""), "open_product", c.get("asin"), rid="sc-product-title"),
        ]
        parts += variations(c, "sc-product-variation")
        parts += [
            web(money(c.get("price")), rid="sc-product-price", height=80),
            web("In Stock", rid="sc-product-availability", height=60),
            group(
                web(
                    str(qty),
                    "line_qty",
                    i,
                    desc=f"Quantity is {qty}",
                    rid="a-autoid-quantity",
                    height=120,
                    weight=0.25,
                ),
                web("Delete", "delete_line", i, rid="sc-action-delete", height=120, weight=0.3),
                web(
                    "Save for later",
                    "save_line",
                    i,
                    rid="sc-action-save-for-later",
                    height=120,
                    weight=0.45,
                ),
                horizontal=True,
                height=120,
            ),
        ]
        return group(*parts, rid="sc-list-item")

    def saved_row(self, c: dict[str, Any], i: int) -> View:
        parts: list[View] = [
            web(str(c.get("title") or ""), "open_product", c.get("asin"), rid="sc-product-title"),
        ]
        parts += variations(c, "sc-product-variation")
        parts += [
            web(money(c.get("price")), rid="sc-product-price", height=80),
            group(
                web("Move to cart", "move_to_cart", i, rid="sc-action-move-to-cart", height=120),
                web("Delete", "delete_saved", i, rid="sc-action-delete", height=120),
                horizontal=True,
                height=120,
            ),
        ]
        return group(*parts, rid="sc-list-item")

    def line(self, ctx: Ctx, collection: str, i: Any) -> dict[str, Any] | None:
        found = ctx.records(collection)
        return found[i] if isinstance(i, int) and 0 <= i < len(found) else None

    def on_line_qty(self, ctx: Ctx, i: Any) -> None:
        c = self.line(ctx, "cart", i)
        if c is None:
            return
        options = [(0, "0 (Delete)")] + [(n, str(n)) for n in range(1, MAX_QTY + 1)]
        ctx.dialog(
            choice_dialog("Quantity", options, as_int(c.get("quantity"), 1), "set_line_qty", i)
        )

    def on_set_line_qty(self, ctx: Ctx, arg: tuple[int, int]) -> None:
        i, qty = arg
        c = self.line(ctx, "cart", i)
        if c is None:
            return
        if qty == 0:
            self.on_delete_line(ctx, i)
        elif qty != as_int(c.get("quantity"), 1):
            ctx.update("cart", c, quantity=qty)

    def on_delete_line(self, ctx: Ctx, i: Any) -> None:
        c = self.line(ctx, "cart", i)
        if c is not None:
            ctx.delete("cart", c)
            ctx.toast(f"{c.get('title')} was removed from Shopping Cart.")

    def on_save_line(self, ctx: Ctx, i: Any) -> None:
        c = self.line(ctx, "cart", i)
        if c is not None:
            ctx.delete("cart", c)
            ctx.add("saved_for_later", c)
            ctx.toast(f"{c.get('title')} has been moved to Saved For Later.")

    def on_move_to_cart(self, ctx: Ctx, i: Any) -> None:
        c = self.line(ctx, "saved_for_later", i)
        if c is not None:
            ctx.delete("saved_for_later", c)
            same = ctx.find("cart", lambda line: all(line.get(f) == c.get(f) for f in SAME_LINE))
            if same is None:
                ctx.add("cart", c)
            else:  # the product as chosen is in the cart already: one line, more of it
                qty = as_int(same.get("quantity"), 1) + as_int(c.get("quantity"), 1)
                ctx.update("cart", same, quantity=min(30, qty))
            ctx.toast(f"{c.get('title')} has been moved to Cart.")

    def on_delete_saved(self, ctx: Ctx, i: Any) -> None:
        c = self.line(ctx, "saved_for_later", i)
        if c is not None:
            ctx.delete("saved_for_later", c)
            ctx.toast(f"{c.get('title')} was removed from Saved For Later.")

    def on_checkout(self, ctx: Ctx, arg: Any) -> None:
        if not self.on_screen(ctx, "cart"):
            return
        if ctx.records("cart"):
            ctx.push("checkout", mode="cart")

    # ------------------------------------------------------------ checkout
    def checkout_lines(self, ctx: Ctx, route: Route) -> list[dict[str, Any]]:
        if route.arg("mode") == "buy":
            p = self.product(ctx, route.arg("asin"))
            if p is None:
                return []
            return [
                {
                    "asin": p.get("asin"),
                    "title": p.get("title"),
                    "size": route.arg("size"),
                    "color": route.arg("color"),
                    "quantity": as_int(route.arg("qty"), 1),
                    "price": as_int(p.get("price")),
                }
            ]
        return list(ctx.records("cart"))

    def totals(self, ctx: Ctx, lines: list[dict[str, Any]]) -> tuple[int, int]:
        items = sum(as_int(c.get("price")) * as_int(c.get("quantity"), 1) for c in lines)
        free = ctx.setting("prime_member") is not False or items >= FREE_SHIPPING_MIN
        return items, 0 if free else SHIPPING_FEE

    def chosen_address(self, ctx: Ctx) -> dict[str, Any] | None:
        return self.address(ctx, ctx.form("address")) or self.default_address(ctx)

    def chosen_payment(self, ctx: Ctx) -> dict[str, Any] | None:
        return self.payment(ctx, ctx.form("payment")) or self.default_payment(ctx)

    def screen_checkout(self, ctx: Ctx, route: Route) -> Screen:
        lines = self.checkout_lines(ctx, route)
        address = self.chosen_address(ctx)
        pay = self.chosen_payment(ctx)
        items, shipping = self.totals(ctx, lines)
        rows: list[View] = [web("Checkout", rid="checkout-header", height=120)]
        if address is not None:
            where = (
                f"{address.get('name')}, {address.get('street')}, {address.get('city')}, "
                f"{address.get('state')} {address.get('zip')}"
            )
        else:
            where = "Add a delivery address"
        rows.append(
            group(
                web("Delivering to", height=80),
                web(where, rid="deliver-to-address", height=130),
                web("Change", "change_address", rid="change-address-link", height=90),
                rid="shipping-address-section",
            )
        )
        rows.append(
            group(
                web("Paying with", height=80),
                web(
                    str(pay.get("label")) if pay is not None else "Add a payment method",
                    rid="payment-method-label",
                    height=100,
                ),
                web("Change", "change_payment", rid="change-payment-link", height=90),
                rid="payment-section",
            )
        )
        rows.append(web("Arriving in 2 days", rid="delivery-promise", height=90))
        for c in lines:
            rows.append(
                group(
                    web(str(c.get("title") or ""), rid="checkout-item-title", height=100),
                    *variations(c, "checkout-item-variation"),
                    group(
                        web(
                            f"Qty: {as_int(c.get('quantity'), 1)}",
                            rid="checkout-item-qty",
                            height=80,
                        ),
                        web(money(c.get("price")), rid="checkout-item-price", height=80),
                        horizontal=True,
                        height=80,
                    ),
                    rid="checkout-item",
                )
            )
        rows += [
            web("Order Summary", height=100),
            web(f"Items: {money(items)}", rid="subtotals-items", height=80),
            web(f"Shipping & handling: {money(shipping)}", rid="subtotals-shipping", height=80),
            web(
                f"Order total: {money(items + shipping)}",
                rid="subtotals-marketplace-total",
                height=100,
            ),
        ]
        footer = [
            web_button(
                "Place your order",
                "place_order" if lines and address and pay else None,
                rid="placeYourOrder1",
                enabled=bool(lines and address and pay),
                height=150,
            )
        ]
        return Screen(
            None,
            rows,
            header=[
                View(
                    w.LINEAR,
                    rid=self.rid("chrome_action_bar"),
                    horizontal=True,
                    height=150,
                    children=[
                        View(
                            w.IMAGE_BUTTON,
                            desc="Back",
                            rid=self.rid("chrome_action_bar_back_icon"),
                            clickable=True,
                            focusable=True,
                            on_click="back",
                            weight=0.12,
                        ),
                        View(w.TEXT, text="Secure checkout", weight=0.88),
                    ],
                )
            ],
            footer=footer,
            list_rid="checkout-page",
            list_cls=WEBVIEW,
        )

    def on_change_address(self, ctx: Ctx, arg: Any) -> None:
        if not self.on_screen(ctx, "checkout"):
            return
        current = self.chosen_address(ctx)
        options = [
            (
                a.get("street"),
                f"{a.get('name')}, {a.get('street')}, {a.get('city')}, {a.get('state')} {a.get('zip')}",
            )
            for a in ctx.records("addresses")
        ]
        ctx.dialog(
            choice_dialog(
                "Choose a delivery address",
                options,
                current.get("street") if current else None,
                "use_address",
                height=160,
                cancel=True,
            )
        )

    def on_use_address(self, ctx: Ctx, street: Any) -> None:
        if not self.on_screen(ctx, "checkout"):
            return
        ctx.set_form("address", str(street))

    def on_change_payment(self, ctx: Ctx, arg: Any) -> None:
        if not self.on_screen(ctx, "checkout"):
            return
        current = self.chosen_payment(ctx)
        options = [(p.get("label"), str(p.get("label"))) for p in ctx.records("payments")]
        ctx.dialog(
            choice_dialog(
                "Choose a payment method",
                options,
                current.get("label") if current else None,
                "use_payment",
                cancel=True,
            )
        )

    def on_use_payment(self, ctx: Ctx, label: Any) -> None:
        if not self.on_screen(ctx, "checkout"):
            return
        ctx.set_form("payment", str(label))

    def new_order_id(self, ctx: Ctx) -> str:
        n = len(ctx.records("orders")) + 1
        seed = int(ctx.now.strftime("%y%m%d%H%M")) * 31 + n * 7919
        return f"11{n % 10}-{seed % 9_000_000 + 1_000_000}-{(seed * 48271) % 9_000_000 + 1_000_000}"

    def on_place_order(self, ctx: Ctx, arg: Any) -> None:
        route = ctx.route
        if route is None or route.screen != "checkout":
            return  # a second tap lands on the confirmation: nothing is ordered again
        lines = self.checkout_lines(ctx, route)
        address = self.chosen_address(ctx)
        pay = self.chosen_payment(ctx)
        if not lines or address is None or pay is None:
            return
        items, shipping = self.totals(ctx, lines)
        order_id = self.new_order_id(ctx)
        ctx.add(
            "orders",
            {
                "order_id": order_id,
                "items": [str(c.get("title") or "") for c in lines],
                "total": items + shipping,
                "address": address.get("street"),
                "payment": pay.get("label"),
                "status": "placed",
                "placed_at": stamp(ctx.now),
            },
        )
        for c in lines:
            ctx.add(
                "order_lines",
                {
                    "order_id": order_id,
                    "asin": c.get("asin"),
                    "title": c.get("title"),
                    "size": c.get("size"),
                    "color": c.get("color"),
                    "quantity": as_int(c.get("quantity"), 1),
                    "price": as_int(c.get("price")) * as_int(c.get("quantity"), 1),
                },
            )
        if route.arg("mode") != "buy":
            for c in list(ctx.records("cart")):
                ctx.delete("cart", c)
        ctx.replace("placed", order_id=order_id)

    def screen_placed(self, ctx: Ctx, route: Route) -> Screen:
        order = self.order(ctx, route.arg("order_id")) or {}
        address = self.address(ctx, order.get("address")) or {}
        rows = [
            web("Order placed, thank you!", rid="thankyou-header", height=160),
            web("Confirmation will be sent to your email.", height=90),
            web(
                f"Shipping to {address.get('name', '')}, {order.get('address', '')}",
                rid="thankyou-address",
                height=110,
            ),
            web(f"Order # {order.get('order_id', '')}", rid="thankyou-order-id", height=90),
            web(
                "Review or edit your recent orders",
                "your_orders",
                rid="review-orders-link",
                height=110,
            ),
            web_button("Continue shopping", "tab", "home", rid="continue-shopping"),
        ]
        return self.page(ctx, rows)

    # ------------------------------------------------------------ you, orders
    def screen_you(self, ctx: Ctx, route: Route) -> Screen:
        name = str(ctx.setting("customer") or "")
        rows: list[View] = [
            web(f"Hello, {name}" if name else "Hello", rid="gw-greeting", height=130),
            group(
                web_button("Your Orders", "your_orders", rid="your-orders-button", weight=0.5),
                web_button("Your Lists", "your_lists", rid="your-lists-button", weight=0.5),
                horizontal=True,
                height=140,
            ),
            group(
                web_button("Your Account", "account", rid="your-account-button", weight=0.5),
                web_button("Buy Again", "buy_again", rid="buy-again-button", weight=0.5),
                horizontal=True,
                height=140,
            ),
        ]
        if ctx.setting("prime_member") is not False:
            rows.append(web("prime member", desc="Prime member", rid="prime-status", height=80))
        recent = self.sorted_orders(ctx)[:3]
        if recent:
            rows.append(web("Your Orders", height=100))
            rows += [self.order_card(o) for o in recent]
        return self.page(ctx, rows, tab="you", back=False)

    def sorted_orders(self, ctx: Ctx) -> list[dict[str, Any]]:
        return sorted(
            ctx.records("orders"), key=lambda o: str(o.get("placed_at") or ""), reverse=True
        )

    def order_card(self, o: dict[str, Any]) -> View:
        """An order in "Your Orders": its status and date, what was ordered, the total, where
        it ships, how it was paid and the order number."""
        status = str(o.get("status") or "placed")
        items = [str(t) for t in (o.get("items") or [])]
        titles = [web(items[0], rid="order-item-title", height=90)] if items else []
        titles += [web(t, rid="order-item-more", height=70) for t in items[1:]]
        return group(
            group(
                web(ORDER_STATUS.get(status, status), rid="order-status", height=80, weight=0.4),
                web(f"Ordered {long_date(o.get('placed_at'))}", rid="order-date", weight=0.6),
                horizontal=True,
                height=80,
            ),
            *titles,
            web(f"Total {money(o.get('total'))}", rid="order-card-total", height=70),
            web(f"Ship to {o.get('address') or ''}", rid="order-card-address", height=70),
            web(f"Paid with {o.get('payment') or ''}", rid="order-card-payment", height=70),
            group(
                web("Order #", height=70, weight=0.3),
                web(str(o.get("order_id") or ""), rid="order-card-id", height=70, weight=0.7),
                horizontal=True,
                height=70,
            ),
            rid="order-card",
            clickable=True,
            focusable=True,
            on_click="open_order",
            arg=o.get("order_id"),
        )

    def on_your_orders(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("orders")

    def screen_orders(self, ctx: Ctx, route: Route) -> Screen:
        found = self.sorted_orders(ctx)
        rows: list[View] = [web("Your Orders", rid="orders-header", height=120)]
        rows += [self.order_card(o) for o in found]
        if not found:
            rows.append(web("You have not placed any orders.", height=120))
        return self.page(ctx, rows, tab="you", list_rid="orders-list")

    def on_open_order(self, ctx: Ctx, order_id: Any) -> None:
        if self.order(ctx, order_id) is not None:
            ctx.push("order", order_id=order_id)

    def screen_order(self, ctx: Ctx, route: Route) -> Screen:
        o = self.order(ctx, route.arg("order_id"))
        if o is None:
            return self.page(ctx, [web("This order is no longer available.", height=120)])
        status = str(o.get("status") or "placed")
        lines = [c for c in ctx.records("order_lines") if c.get("order_id") == o.get("order_id")]
        rows: list[View] = [
            web("Order Details", height=120),
            web(f"Order date {long_date(o.get('placed_at'))}", rid="od-date", height=80),
            web(f"Order # {o.get('order_id')}", rid="od-order-id", height=80),
            web(STATUS.get(status, status), rid="od-status", height=90),
        ]
        if lines:
            for c in lines:
                rows.append(
                    group(
                        web(
                            str(c.get("title") or ""),
                            "open_product",
                            c.get("asin"),
                            rid="od-item-title",
                        ),
                        *variations(c, "od-item-variation"),
                        web(
                            f"Qty: {as_int(c.get('quantity'), 1)}  {money(c.get('price'))}",
                            rid="od-item-qty",
                            height=70,
                        ),
                        rid="od-item",
                    )
                )
        else:
            rows += [web(str(t), rid="od-item-title") for t in (o.get("items") or [])]
        address = self.address(ctx, o.get("address"))
        ship = (
            f"{address.get('name')}, {address.get('street')}, {address.get('city')}"
            if address is not None
            else str(o.get("address") or "")
        )
        rows += [
            web("Ship to", height=80),
            web(ship, rid="od-shipping-address", height=100),
            web("Payment method", height=80),
            web(str(o.get("payment") or ""), rid="od-payment-method", height=90),
            web(f"Order total: {money(o.get('total'))}", rid="od-total", height=100),
        ]
        if status == "placed":
            rows.append(
                web_button("Cancel items", "cancel_order", o.get("order_id"), rid="od-cancel")
            )
        return self.page(ctx, rows, tab="you")

    def on_cancel_order(self, ctx: Ctx, order_id: Any) -> None:
        o = self.order(ctx, order_id)
        if o is None or o.get("status") != "placed":
            return
        ctx.dialog(
            Dialog(
                "Cancel items",
                message=f"Cancel all items in order # {order_id}? You won't be charged for "
                "cancelled items.",
                buttons=[
                    ("Keep order", None, None),
                    ("Cancel checked items", "cancel_ok", order_id),
                ],
            )
        )

    def on_cancel_ok(self, ctx: Ctx, order_id: Any) -> None:
        o = self.order(ctx, order_id)
        if o is None or o.get("status") != "placed":
            return
        ctx.update("orders", o, status="cancelled")
        ctx.toast("This order has been cancelled.")

    def on_buy_again(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("buy_again")

    def screen_buy_again(self, ctx: Ctx, route: Route) -> Screen:
        seen: list[str] = []
        for o in self.sorted_orders(ctx):
            for c in ctx.records("order_lines"):
                if c.get("order_id") == o.get("order_id") and c.get("asin") not in seen:
                    seen.append(str(c.get("asin")))
        rows: list[View] = [web("Buy Again", height=120)]
        for asin in seen:
            p = self.product(ctx, asin)
            if p is not None:
                rows.append(self.result_row(ctx, p))
        if len(rows) == 1:
            rows.append(web("Items you buy will appear here.", height=120))
        return self.page(ctx, rows, tab="you")

    # ------------------------------------------------------------ lists
    def on_your_lists(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("lists")

    def list_names(self, ctx: Ctx) -> list[str]:
        """The account's lists: the Shopping List (where "Add to List" puts a product),
        then every other list an item is in."""
        names = [DEFAULT_LIST]
        for item in ctx.records("wish_list"):
            name = str(item.get("list") or DEFAULT_LIST)
            if name not in names:
                names.append(name)
        return names

    def screen_lists(self, ctx: Ctx, route: Route) -> Screen:
        items = ctx.records("wish_list")
        rows: list[View] = [web("Your Lists", rid="lists-header", height=120)]
        for name in self.list_names(ctx):
            n = sum(1 for i in items if str(i.get("list") or DEFAULT_LIST) == name)
            rows.append(
                group(
                    web(name, rid="list-name", height=100),
                    web(f"{n} item{'s' if n != 1 else ''}", rid="list-count", height=70),
                    rid="list-card",
                    clickable=True,
                    focusable=True,
                    on_click="open_list",
                    arg=name,
                )
            )
        return self.page(ctx, rows, tab="you")

    def on_open_list(self, ctx: Ctx, name: Any) -> None:
        if name in self.list_names(ctx):
            ctx.push("list", name=name)

    def screen_list(self, ctx: Ctx, route: Route) -> Screen:
        name = str(route.arg("name") or DEFAULT_LIST)
        items = [
            (i, item)
            for i, item in enumerate(ctx.records("wish_list"))
            if str(item.get("list") or DEFAULT_LIST) == name
        ]
        rows: list[View] = [
            web(name, rid="list-header", height=120),
            web(f"{len(items)} item{'s' if len(items) != 1 else ''}", height=80),
        ]
        for i, item in items:
            p = self.product(ctx, item.get("asin"))
            parts: list[View] = [
                web(str(item.get("title") or ""), "open_product", item.get("asin"), rid="itemName"),
            ]
            if p is not None:
                parts.append(web(money(p.get("price")), rid="itemPrice", height=80))
            parts.append(
                group(
                    web_button(
                        "Add to Cart",
                        "list_to_cart" if p is not None and p.get("in_stock", True) else None,
                        i,
                        rid="list-add-to-cart",
                        weight=0.5,
                    ),
                    web("Delete", "list_delete", i, rid="list-delete", height=140, weight=0.5),
                    horizontal=True,
                    height=140,
                )
            )
            rows.append(group(*parts, rid="itemWrapper"))
        if not items:
            rows.append(web("This list is empty", height=120))
        return self.page(ctx, rows, tab="you")

    def on_list_to_cart(self, ctx: Ctx, i: Any) -> None:
        item = self.line(ctx, "wish_list", i)
        p = self.product(ctx, item.get("asin")) if item is not None else None
        if p is None or not p.get("in_stock", True):
            return
        if p.get("sizes") or p.get("colors"):
            ctx.push("product", asin=p.get("asin"))
            return
        self.add_line(ctx, p, None, None, 1)
        ctx.toast("Added to cart")

    def on_list_delete(self, ctx: Ctx, i: Any) -> None:
        item = self.line(ctx, "wish_list", i)
        if item is not None:
            ctx.delete("wish_list", item)
            ctx.toast("Deleted")

    # ------------------------------------------------------------ account
    def on_account(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("account")

    def screen_account(self, ctx: Ctx, route: Route) -> Screen:
        rows = [
            web("Your Account", height=120),
            web("Your Orders", "your_orders", rid="account-orders", height=130),
            web("Your Addresses", "addresses", rid="account-addresses", height=130),
            web("Your Payments", "payments", rid="account-payments", height=130),
            web("Your Lists", "your_lists", rid="account-lists", height=130),
        ]
        return self.page(ctx, rows, tab="you")

    def on_addresses(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("addresses")

    def screen_addresses(self, ctx: Ctx, route: Route) -> Screen:
        rows: list[View] = [
            web("Your Addresses", height=120),
            web_button("Add address", "new_address", rid="ya-myab-plus-address-icon"),
        ]
        for a in ctx.records("addresses"):
            parts: list[View] = []
            if a.get("is_default"):
                parts.append(web("Default", rid="address-default-badge", height=70))
            parts += [
                web(str(a.get("name") or ""), rid="address-ui-widgets-name", height=80),
                web(str(a.get("street") or ""), rid="address-ui-widgets-street", height=80),
                web(
                    f"{a.get('city')}, {a.get('state')} {a.get('zip')}",
                    rid="address-ui-widgets-city",
                    height=80,
                ),
            ]
            actions = [
                web("Remove", "remove_address", a.get("street"), rid="ya-remove", height=110)
            ]
            if not a.get("is_default"):
                actions.append(
                    web(
                        "Set as Default",
                        "default_address",
                        a.get("street"),
                        rid="ya-set-default",
                        height=110,
                    )
                )
            parts.append(group(*actions, horizontal=True, height=110))
            rows.append(group(*parts, rid="address-card"))
        return self.page(ctx, rows, tab="you")

    def on_new_address(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("new_address")

    def screen_new_address(self, ctx: Ctx, route: Route) -> Screen:
        fields = (
            ("name", "Full name (First and Last name)", "address-ui-widgets-enterAddressFullName"),
            ("phone", "Phone number", "address-ui-widgets-enterAddressPhoneNumber"),
            ("street", "Address", "address-ui-widgets-enterAddressLine1"),
            ("city", "City", "address-ui-widgets-enterAddressCity"),
            ("state", "State", "address-ui-widgets-enterAddressStateOrRegion"),
            ("zip", "ZIP Code", "address-ui-widgets-enterAddressPostalCode"),
        )
        rows: list[View] = [web("Add a new address", height=120)]
        for name, label, rid in fields:
            rows.append(web(label, height=80))
            rows.append(View(w.EDIT, rid=rid, edit=name, hint=label, height=130))
        rows.append(
            checkbox(
                "Make this my default address",
                ctx.form("default") == "1",
                "toggle_default",
                None,
                rid="address-ui-widgets-use-as-my-default",
            )
        )
        rows.append(
            web_button("Add address", "save_address", rid="address-ui-widgets-form-submit-button")
        )
        return self.page(ctx, rows, tab="you")

    def on_toggle_default(self, ctx: Ctx, arg: Any) -> None:
        if not self.on_screen(ctx, "new_address"):
            return
        ctx.set_form("default", "" if ctx.form("default") == "1" else "1")

    def on_save_address(self, ctx: Ctx, arg: Any) -> None:
        if not self.on_screen(ctx, "new_address"):
            return
        values = {
            k: " ".join(ctx.form(k).split())
            for k in ("name", "phone", "street", "city", "state", "zip")
        }
        missing = [k for k in ("name", "street", "city", "state", "zip") if not values[k]]
        if missing:
            labels = {
                "name": "full name",
                "street": "address",
                "city": "city",
                "state": "state",
                "zip": "ZIP code",
            }
            ctx.dialog(
                Dialog(
                    "There was a problem",
                    message=f"Please enter a {labels[missing[0]]}.",
                    buttons=[("OK", None, None)],
                )
            )
            return
        if self.address(ctx, values["street"]) is not None:
            ctx.toast("This address is already in your address book")
            return
        make_default = ctx.form("default") == "1" or not ctx.records("addresses")
        if make_default:
            for a in list(ctx.records("addresses")):
                if a.get("is_default"):
                    ctx.update("addresses", a, is_default=False)
        ctx.add(
            "addresses",
            {
                "street": values["street"],
                "name": values["name"],
                "city": values["city"],
                "state": values["state"],
                "zip": values["zip"],
                "phone": values["phone"] or None,
                "is_default": make_default,
            },
        )
        ctx.hide_keyboard()
        ctx.back()
        ctx.toast("Address saved")

    def on_remove_address(self, ctx: Ctx, street: Any) -> None:
        a = self.address(ctx, street)
        if a is None:
            return
        ctx.dialog(
            Dialog(
                "Confirm removal",
                message=f"{a.get('name')}, {street}, {a.get('city')}",
                buttons=[("Cancel", None, None), ("Yes", "remove_address_ok", street)],
            )
        )

    def on_remove_address_ok(self, ctx: Ctx, street: Any) -> None:
        a = self.address(ctx, street)
        if a is not None:
            ctx.delete("addresses", a)
            ctx.toast("Address removed")

    def on_default_address(self, ctx: Ctx, street: Any) -> None:
        target = self.address(ctx, street)
        if target is None:
            return
        for a in list(ctx.records("addresses")):
            if a.get("is_default") and a.get("street") != street:
                ctx.update("addresses", a, is_default=False)
        target = self.address(ctx, street)
        assert target is not None
        ctx.update("addresses", target, is_default=True)

    def on_payments(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("payments")

    def screen_payments(self, ctx: Ctx, route: Route) -> Screen:
        rows: list[View] = [web("Your Payments", height=120), web("Wallet", height=90)]
        for p in ctx.records("payments"):
            parts: list[View] = [
                web(str(p.get("label") or ""), rid="pmts-instrument-label", height=90),
                web(
                    f"{CARD_KINDS.get(str(p.get('kind')), '')} · {p.get('holder')} · "
                    f"Expires {p.get('expires')}",
                    rid="pmts-instrument-details",
                    height=80,
                ),
            ]
            if p.get("is_default"):
                parts.append(web("Default payment method", rid="pmts-default-badge", height=70))
            else:
                parts.append(
                    web(
                        "Set as default",
                        "default_payment",
                        p.get("label"),
                        rid="pmts-set-default",
                        height=100,
                    )
                )
            rows.append(group(*parts, rid="pmts-instrument"))
        return self.page(ctx, rows, tab="you")

    def on_default_payment(self, ctx: Ctx, label: Any) -> None:
        if self.payment(ctx, label) is None:
            return
        for p in list(ctx.records("payments")):
            if p.get("is_default") and p.get("label") != label:
                ctx.update("payments", p, is_default=False)
        target = self.payment(ctx, label)
        assert target is not None
        ctx.update("payments", target, is_default=True)

    # ------------------------------------------------------------ menu
    def screen_menu(self, ctx: Ctx, route: Route) -> Screen:
        rows: list[View] = [web("Shop by Department", rid="hmenu-header", height=120)]
        rows += [
            web(d, "department", d, rid="hmenu-item", height=130) for d in self.departments(ctx)
        ]
        rows += [
            web("Your Orders", "your_orders", rid="hmenu-orders", height=130),
            web("Your Lists", "your_lists", rid="hmenu-lists", height=130),
            web("Your Account", "account", rid="hmenu-account", height=130),
        ]
        return self.page(ctx, rows, tab="menu", back=False)

    def on_department(self, ctx: Ctx, dept: Any) -> None:
        ctx.push("results", dept=str(dept))


APP = Shopping
