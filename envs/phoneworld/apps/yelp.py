"""Yelp (``com.yelp.android``): local businesses, their pages, and bookmarks.

Rebuilt from recorded screens of the real app (a DroidBot exploration): the same activities,
resource ids, classes and texts.

* First run while signed out: the background location opt-in
  (``ActivityBackgroundLocationOptIn``: "Yes, turn it on" sets ``background_location``, "No,
  not now"), then the sign-up splash (``ActivitySplashLogin``: "Continue with Facebook", "Log In",
  "I'm New"). "I'm New" opens ``ActivityCreateAccount`` whose "Skip" goes on without an account;
  signing up with Google, Facebook or an email address, or logging in, sets ``signed_in``.
* Every main screen has the bottom "hot buttons" Nearby, Search, Me, Activity and Bookmarks
  (``hot_button_*``): each opens its activity on top of the current one, as the real app does;
  the toolbar's "Navigate up" of those screens opens the navigation drawer (Nearby, Search,
  Activity, Bookmarks, Settings).
* Nearby (``ActivityNearby``): the search box "Search for restaurants, delivery, etc."
  (``search_text``: typing there shows the suggestions in place of the grid, and enter
  searches; the box's icon opens the search overlay) and the category grid (Restaurants,
  Coffee & Tea, Hair Salons, Bars, Delivery, Takeout, Reservations, More: the overlay).
* The search overlay (``SearchOverlay``): the term (``searchbar``) and location
  (``locationbar``) fields, "Search Yelp", and suggestions (``search_suggest``: category terms,
  then businesses whose name matches).
* The results (``SearchBusinessesByList``): the toolbar's "<term> Current Location", the "Open
  Now" filter, and one row per business ("1. Name", "34 Reviews" with its star rating as the
  content description, the address and neighbourhood, the price, the categories).
* A business page (``ActivityBusinessPage``): name, rating and review count, price, categories,
  "Hours Today: ...", "Open"/"Closed", the buttons "Add Photo", "Check In" and "Bookmark"
  ("Bookmarked" once saved; a tap toggles it), the address, "Get Directions" (Maps), "Call
  (412) ..." (the dialer), "More Info" (hours, address, phone, price) and "Share" (Messages).
* Bookmarks (``ActivityBookmarks``): the bookmarked businesses (``business_name``), most
  recently saved first, or the hint "Bookmarks are a great way of saving businesses ...".
* Activity (``ActivityFeed``): popular businesses nearby, each with a "Bookmark" toggle button;
  Me (``ActivityUserProfile``, the sign-up splash while signed out); Settings (the "Background
  Location" switch, "Log Out").

Businesses come from the app model's ``businesses``; Yelp's data lives on its servers, so an
instance that seeds none gets the built-in directory of Pittsburgh businesses below (read-only:
it is never written to the state). A bookmark is a ``bookmarks`` record keyed by the business
name, with the time it was saved.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from tasklang.envs.phoneworld import widgets as w
from tasklang.envs.phoneworld.app import App, Ctx, Dialog, Route, Screen
from tasklang.envs.phoneworld.widgets import View

PKG = "com.yelp.android"
ACTIVITIES = f"{PKG}.ui.activities"
ROOT_ACTIVITY = f"{ACTIVITIES}.RootActivity"
OPT_IN = f"{ACTIVITIES}.backgroundlocation.ActivityBackgroundLocationOptIn"
SPLASH = f"{ACTIVITIES}.ActivitySplashLogin"
CREATE_ACCOUNT = f"{ACTIVITIES}.ActivityCreateAccount"
LOGIN = f"{ACTIVITIES}.ActivityLogin"
NEARBY = f"{ACTIVITIES}.nearby.ActivityNearby"
SEARCH_OVERLAY = f"{ACTIVITIES}.search.SearchOverlay"
SEARCH_LIST = f"{ACTIVITIES}.search.SearchBusinessesByList"
BUSINESS_PAGE = f"{ACTIVITIES}.businesspage.ActivityBusinessPage"
MORE_INFO = f"{ACTIVITIES}.businesspage.ActivityMoreInfo"
BOOKMARKS = f"{ACTIVITIES}.bookmarks.ActivityBookmarks"
FEED = f"{ACTIVITIES}.feed.ActivityFeed"
PROFILE = f"{ACTIVITIES}.profile.ActivityUserProfile"
SETTINGS = f"{ACTIVITIES}.settings.ActivitySettings"

LIST_VIEW = "android.widget.ListView"
GRID_VIEW = "android.widget.GridView"
TOGGLE = "android.widget.ToggleButton"

BOOKMARKS_EMPTY = (
    "Bookmarks are a great way of saving businesses to access later. When viewing businesses, "
    "tap the bookmark button to save it!"
)
SEARCH_HINT = "Search for restaurants, delivery, etc."
CURRENT_LOCATION = "Current Location"
USER_NAME = "Alex R."
USER_CITY = "Pittsburgh, PA"
CITY = "Pittsburgh"

# the bottom "hot buttons": tab (screen), resource id, label
HOT_BUTTONS = (
    ("nearby", "hot_button_nearby", "Nearby"),
    ("search", "hot_button_search", "Search"),
    ("profile", "hot_button_profile", "Me"),
    ("feed", "hot_button_feed", "Activity"),
    ("bookmarks", "hot_button_bookmarks", "Bookmarks"),
)
# the navigation drawer: resource id, label, target
DRAWER = (
    ("nav_nearby", "Nearby", "nearby"),
    ("nav_search", "Search", "search"),
    ("nav_activity_feed", "Activity", "feed"),
    ("nav_bookmarks", "Bookmarks", "bookmarks"),
    ("nav_settings", "Settings", "settings"),
)
# Nearby's category grid, in its order
CATEGORIES = (
    "Restaurants",
    "Coffee & Tea",
    "Hair Salons",
    "Bars",
    "Delivery",
    "Takeout",
    "Reservations",
    "More",
)
RESTAURANTS = frozenset(
    {
        "Restaurants", "Thai", "Argentine", "Steakhouses", "American (New)",
        "American (Traditional)", "Pizza", "Italian", "Mexican", "Sushi Bars", "Japanese",
        "Chinese", "Vietnamese", "Burgers", "Breakfast & Brunch", "Sandwiches", "Diners",
    }
)  # fmt: skip
# a term that names a group of categories (the grid's chips and their plain words)
GROUPS: dict[str, frozenset[str]] = {
    "restaurant": RESTAURANTS,
    "food": RESTAURANTS,
    "delivery": RESTAURANTS,
    "takeout": RESTAURANTS,
    "reservation": RESTAURANTS,
    "coffee tea": frozenset({"Coffee & Tea", "Cafes", "Coffee Roasteries"}),
    "coffee": frozenset({"Coffee & Tea", "Cafes", "Coffee Roasteries"}),
    "bar": frozenset({"Bars", "Cocktail Bars", "Pubs", "Sports Bars", "Wine Bars", "Dive Bars"}),
}
# the overlay's suggested terms
SUGGESTIONS = (
    "Restaurants",
    "Coffee & Tea",
    "Hair Salons",
    "Bars",
    "Delivery",
    "Takeout",
    "Reservations",
    "Hair Salons for Women",
    "Men's Hair Salons",
    "Hair Stylists",
    "Barbers",
    "Nail Salons",
    "Pizza",
    "Thai",
    "Mexican",
    "Sushi Bars",
    "Cocktail Bars",
)
QUERY_SUFFIXES = ("near me", "nearby", "around me", "close by")
DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


def _biz(
    name: str,
    category: str,
    rating: float,
    reviews: int,
    street: str,
    zip_code: str,
    neighborhood: str,
    phone: str,
    price: int,
    opens: str,
    closes: str,
) -> dict[str, Any]:
    return {
        "name": name,
        "category": category,
        "rating": rating,
        "reviews": reviews,
        "address": f"{street}, {CITY}, PA {zip_code}",
        "open_now": None,
        # what Yelp's servers know besides the model's fields
        "street": street,
        "neighborhood": neighborhood,
        "phone": phone,
        "price": price,
        "opens": opens,
        "closes": closes,
    }


# Yelp's directory when the instance seeds no businesses (never written to the state)
DIRECTORY: tuple[dict[str, Any], ...] = (
    _biz("Veranda Hair & Wellness", "Hair Salons", 5.0, 44, "4606 Winthrop St", "15213", "Oakland", "(412) 687-2210", 2, "09:00:00", "18:00:00"),
    _biz("Bloomfield Hair Studio", "Hair Salons", 4.5, 34, "288 Liberty Ave", "15224", "Bloomfield", "(412) 621-1926", 1, "10:00:00", "20:00:00"),
    _biz("Whitfield Salon", "Hair Salons, Nail Salons", 4.0, 93, "5523 Walnut St", "15232", "Shadyside", "(412) 683-4410", 2, "09:00:00", "19:00:00"),
    _biz("Great Cuts", "Hair Salons", 3.0, 12, "1615 S Braddock Ave", "15218", "Regent Square", "(412) 731-0420", 1, "09:00:00", "21:00:00"),
    _biz("Strand & Co. Barbers", "Barbers", 4.5, 158, "3609 Butler St", "15201", "Lawrenceville", "(412) 682-3300", 2, "10:00:00", "19:00:00"),
    _biz("Polished Nail Bar", "Nail Salons", 4.0, 67, "1922 E Carson St", "15203", "South Side", "(412) 488-7717", 2, "10:00:00", "20:00:00"),
    _biz("Siam Orchid Kitchen", "Thai", 4.5, 432, "856 Western Ave", "15233", "North Side", "(412) 321-8424", 2, "11:00:00", "22:00:00"),
    _biz("Gaucho Grill Argentina", "Argentine, Steakhouses", 4.5, 1210, "146 6th St", "15222", "Downtown", "(412) 709-6622", 2, "11:00:00", "21:00:00"),
    _biz("Meat & Greet", "American (New)", 4.0, 2104, "649 Penn Ave", "15222", "Downtown", "(412) 325-7007", 3, "16:00:00", "23:00:00"),
    _biz("Mercato Pizza Co.", "Pizza, Italian", 4.0, 318, "4400 Butler St", "15201", "Lawrenceville", "(412) 683-1000", 1, "11:00:00", "23:00:00"),
    _biz("Taco Luna", "Mexican", 4.5, 540, "5426 Walnut St", "15232", "Shadyside", "(412) 621-8226", 1, "11:00:00", "22:00:00"),
    _biz("Sakura Sushi Bar", "Sushi Bars, Japanese", 4.0, 275, "3608 5th Ave", "15213", "Oakland", "(412) 687-7777", 2, "11:30:00", "21:30:00"),
    _biz("Commonplace Roasters", "Coffee & Tea", 4.5, 190, "5827 Forbes Ave", "15217", "Squirrel Hill", "(412) 422-0404", 1, "07:00:00", "18:00:00"),
    _biz("Steel City Tea House", "Coffee & Tea", 4.0, 88, "4121 Butler St", "15201", "Lawrenceville", "(412) 904-1234", 1, "08:00:00", "17:00:00"),
    _biz("The Foundry Tap Room", "Bars, Pubs", 4.0, 402, "2101 Smallman St", "15222", "Strip District", "(412) 434-1440", 2, "15:00:00", "02:00:00"),
    _biz("Ivy Lounge", "Cocktail Bars", 4.5, 150, "5404 Penn Ave", "15206", "Garfield", "(412) 661-9900", 3, "17:00:00", "02:00:00"),
)  # fmt: skip


# ===================================================================== formatting
def stamp(moment: dt.datetime) -> str:
    return moment.replace(microsecond=0).isoformat()


def parse_time(value: Any) -> dt.time | None:
    if not value:
        return None
    try:
        return dt.time.fromisoformat(str(value))
    except ValueError:
        return None


def clock_text(t: dt.time) -> str:
    """A time as Yelp writes it: "10:00 AM", "8:00 PM"."""
    hour = t.hour % 12 or 12
    return f"{hour}:{t.minute:02d} {'AM' if t.hour < 12 else 'PM'}"


def hours_text(business: dict[str, Any]) -> str | None:
    """The hours as "10:00 AM - 8:00 PM", or None when the hours are not known."""
    opens, closes = parse_time(business.get("opens")), parse_time(business.get("closes"))
    if opens is None or closes is None:
        return None
    return f"{clock_text(opens)} - {clock_text(closes)}"


def is_open(business: dict[str, Any], now: dt.datetime) -> bool | None:
    """Whether the business is open now: from its hours when known, else its ``open_now``."""
    opens, closes = parse_time(business.get("opens")), parse_time(business.get("closes"))
    if opens is None or closes is None:
        value = business.get("open_now")
        return None if value is None else bool(value)
    t = now.time()
    if opens <= closes:
        return opens <= t < closes
    return t >= opens or t < closes  # open past midnight


def rating_desc(rating: Any) -> str:
    """The star rating as the content description reads it: "4.5 star rating"."""
    if rating is None:
        return ""
    value = float(rating)
    return f"{value:g} star rating"


def reviews_text(count: Any) -> str:
    n = int(count or 0)
    return f"{n} Review" if n == 1 else f"{n} Reviews"


def price_views(price: Any) -> tuple[str, str]:
    """The price as shown ("$$") and as read ("2 $ signs")."""
    n = int(price or 0)
    if n <= 0:
        return "", ""
    return "$" * n, f"{n} $ sign" + ("" if n == 1 else "s")


def short_address(business: dict[str, Any]) -> str:
    """The results' address line: "288 Liberty Ave, Bloomfield" (the stored address when the
    street and neighbourhood are not known)."""
    street, hood = business.get("street"), business.get("neighborhood")
    if street and hood:
        return f"{street}, {hood}"
    return str(business.get("address") or "")


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-")


# ===================================================================== searching
def tokens(text: str) -> tuple[str, ...]:
    """The words of a term, lower case and singular: "Men's Hair Salons" -> men, hair, salon."""
    words = re.findall(r"[a-z0-9]+(?:'s)?", text.casefold().replace("’", "'"))
    out = []
    for word in words:
        word = word.removesuffix("'s")
        if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
            word = word[:-1]
        out.append(word)
    return tuple(out)


def contains(words: tuple[str, ...], part: tuple[str, ...]) -> bool:
    """Whether ``part`` occurs in ``words`` as consecutive words."""
    n = len(part)
    return n > 0 and any(words[i : i + n] == part for i in range(len(words) - n + 1))


def query_words(query: str) -> tuple[str, ...]:
    text = " ".join(query.split()).casefold()
    for suffix in QUERY_SUFFIXES:
        text = text.removesuffix(suffix).strip()
    return tokens(text)


def categories_of(business: dict[str, Any]) -> list[str]:
    return [c.strip() for c in str(business.get("category") or "").split(",") if c.strip()]


def matches(business: dict[str, Any], query: str) -> bool:
    """Whether a business is a result for a search term: a group of categories the term names
    (Restaurants, Coffee & Tea, Bars, Delivery ...), one of its categories, or its name."""
    q = query_words(query)
    if not q:
        return True
    cats = categories_of(business)
    group = GROUPS.get(" ".join(q))
    if group is not None:
        return any(c in group or tokens(c) == q for c in cats)
    for c in cats:
        words = tokens(c)
        if contains(words, q) or contains(q, words):
            return True
    return contains(tokens(str(business.get("name") or "")), q)


def in_location(business: dict[str, Any], location: str) -> bool:
    where = " ".join(location.split()).casefold()
    if not where or where == CURRENT_LOCATION.casefold():
        return True
    text = f"{business.get('address') or ''} {business.get('neighborhood') or ''}".casefold()
    return where in text


# ===================================================================== the app
class YelpApp(App):
    model = "yelp"
    package = PKG
    label = "Yelp"
    activity = ROOT_ACTIVITY
    home = "root"

    # ----------------------------------------------------------------- state
    def businesses(self, ctx: Ctx) -> list[dict[str, Any]]:
        """The businesses the app knows: the instance's, else Yelp's directory."""
        seeded = ctx.records("businesses")
        return seeded if seeded else list(DIRECTORY)

    def business(self, ctx: Ctx, name: Any) -> dict[str, Any] | None:
        return next((b for b in self.businesses(ctx) if b.get("name") == name), None)

    def bookmark(self, ctx: Ctx, name: Any) -> dict[str, Any] | None:
        return ctx.find("bookmarks", lambda r: r.get("business") == name)

    def signed_in(self, ctx: Ctx) -> bool:
        return bool(ctx.setting("signed_in"))

    def search(
        self, ctx: Ctx, term: str, location: str = "", open_now: bool = False
    ) -> list[dict[str, Any]]:
        """The results of a search, best first (rating, then review count)."""
        found = [
            b
            for b in self.businesses(ctx)
            if matches(b, term)
            and in_location(b, location)
            and (not open_now or is_open(b, ctx.now))
        ]
        return sorted(
            found, key=lambda b: (-float(b.get("rating") or 0), -int(b.get("reviews") or 0))
        )

    # ----------------------------------------------------------------- shared views
    def hot_buttons(self, current: str) -> View:
        bar = View(w.LINEAR, rid=self.rid("hot_buttons"), horizontal=True, height=150)
        for tab, rid, label in HOT_BUTTONS:
            bar.children.append(
                View(
                    w.TEXT,
                    text=label,
                    desc=label,
                    rid=self.rid(rid),
                    clickable=True,
                    focusable=True,
                    selected=tab == current,
                    on_click="tab",
                    arg=tab,
                )
            )
        return bar

    def drawer_button(self, activity: str) -> View:
        """The toolbar's "Navigate up" of the main screens: it opens the navigation drawer."""
        return View(
            w.IMAGE_BUTTON,
            desc="Navigate up",
            clickable=True,
            focusable=True,
            on_click="open_drawer",
            arg=activity,
            weight=0.15,
        )

    def main_screen(self, title: str | None, activity: str, tab: str) -> Screen:
        """A screen with the drawer button, a title, and the hot buttons."""
        actions = [self.drawer_button(activity), View(w.TEXT, text=title or "", weight=0.85)]
        return Screen(
            None,
            activity=activity,
            actions=actions,
            footer=[self.hot_buttons(tab)],
            list_rid="android:id/list",
            list_cls=LIST_VIEW,
        )

    def button(self, text: str, rid: str, key: str, arg: Any = None, height: int = 150) -> View:
        return View(
            w.BUTTON,
            text=text,
            rid=self.rid(rid),
            clickable=True,
            focusable=True,
            on_click=key,
            arg=arg,
            height=height,
        )

    def stars(self, business: dict[str, Any], rid: str) -> View:
        return View(
            w.TEXT,
            text=reviews_text(business.get("reviews")),
            desc=rating_desc(business.get("rating")),
            rid=self.rid(rid),
            height=60,
        )

    # ================================================================= onboarding
    def screen_root(self, ctx: Ctx, route: Route) -> Screen:
        """What the app opens on: the opt-in and sign-up splash while signed out, else Nearby."""
        if self.signed_in(ctx):
            return self.screen_nearby(ctx, route)
        if not ctx.setting("background_location"):
            return self.screen_optin(ctx, route)
        return self.screen_splash(ctx, route)

    def screen_optin(self, ctx: Ctx, route: Route) -> Screen:
        screen = Screen(None, activity=OPT_IN, list_rid=self.rid("container"), list_cls=w.RELATIVE)
        screen.rows = [
            View(w.IMAGE, rid=self.rid("yelp_logo"), height=160),
            View(w.IMAGE, rid=self.rid("image"), height=620),
            View(
                w.LINEAR,
                rid=self.rid("text_container"),
                children=[
                    View(
                        w.TEXT,
                        text="Enable Background Location Access",
                        rid=self.rid("title"),
                        height=100,
                    ),
                    View(
                        w.TEXT,
                        text="When you are near an interesting business or event, "
                        "we'll send a push notification.",
                        rid=self.rid("description"),
                        height=140,
                    ),
                ],
            ),
            View(
                w.LINEAR,
                rid=self.rid("buttons"),
                horizontal=True,
                height=150,
                children=[
                    self.button("No, not now", "deny_button", "optin", False),
                    self.button("Yes, turn it on", "accept_button", "optin", True),
                ],
            ),
        ]
        return screen

    def screen_splash(self, ctx: Ctx, route: Route) -> Screen:
        screen = Screen(None, activity=SPLASH, list_rid=self.rid("container"), list_cls=w.RELATIVE)
        screen.rows = [
            View(w.IMAGE, rid=self.rid("yelp_logo"), height=160),
            View(
                "androidx.viewpager.widget.ViewPager",
                rid=self.rid("pager"),
                children=[
                    View(
                        w.RELATIVE,
                        rid=self.rid("splash_container"),
                        children=[
                            View(w.IMAGE, rid=self.rid("splash_icon"), height=480),
                            View(
                                w.TEXT,
                                text="Search for nearby restaurants, shops, and services.",
                                rid=self.rid("tagline"),
                                height=110,
                            ),
                        ],
                    )
                ],
            ),
            View(
                w.TEXT,
                text="By signing up, you agree to the Terms of Service and Privacy Policy",
                rid=self.rid("terms_of_service"),
                height=90,
            ),
            View(
                w.RELATIVE,
                rid=self.rid("button_container"),
                children=[
                    self.button("Continue with Facebook", "fb_sign_up_button", "facebook"),
                    View(
                        w.LINEAR,
                        rid=self.rid("signup_login_button_container"),
                        horizontal=True,
                        height=150,
                        children=[
                            self.button("Log In", "login_button", "open_login"),
                            self.button("I'm New", "sign_up_button", "open_create_account"),
                        ],
                    ),
                ],
            ),
        ]
        return screen

    def screen_create_account(self, ctx: Ctx, route: Route) -> Screen:
        screen = Screen(
            "Sign Up for Yelp",
            activity=CREATE_ACCOUNT,
            up=True,
            actions=[
                View(
                    w.TEXT,
                    text="Skip",
                    desc="Skip",
                    rid=self.rid("skip"),
                    clickable=True,
                    focusable=True,
                    on_click="skip",
                    weight=0.2,
                )
            ],
            list_rid=self.rid("activity_scrollview"),
            list_cls=w.SCROLL,
        )
        screen.rows = [
            View(
                w.TEXT,
                text="By signing up, you agree to the Yelp Terms of Service and Privacy Policy",
                rid=self.rid("terms_of_service"),
                height=120,
            ),
            View(
                w.LINEAR,
                rid=self.rid("shown_signup_fields"),
                children=[
                    View(
                        w.EDIT,
                        rid=self.rid("email_address"),
                        edit="email",
                        hint="Via email",
                        on_enter="email_sign_up",
                        height=150,
                    )
                ],
            ),
            View(
                w.LINEAR,
                rid=self.rid("sign_up_options"),
                children=[
                    self.button("Sign up with Google", "google_sign_up", "sign_up", "google"),
                    self.button("Sign up with Facebook", "fb_sign_up", "sign_up", "facebook"),
                    View(
                        w.TEXT,
                        text="Don't worry, we won't post without your permission.",
                        rid=self.rid("we_wont_share"),
                        height=100,
                    ),
                ],
            ),
        ]
        return screen

    def screen_login(self, ctx: Ctx, route: Route) -> Screen:
        screen = Screen(
            "Log In",
            activity=LOGIN,
            up=True,
            list_rid=self.rid("activity_scrollview"),
            list_cls=w.SCROLL,
        )
        screen.rows = [
            View(
                w.EDIT,
                rid=self.rid("email"),
                edit="email",
                hint="Email",
                on_enter="login_submit",
                height=150,
            ),
            View(
                w.EDIT,
                rid=self.rid("password"),
                edit="password",
                hint="Password",
                password=True,
                on_enter="login_submit",
                height=150,
            ),
            self.button("Log In", "login_button", "login_submit"),
            View(
                w.TEXT,
                text="Forgot password?",
                rid=self.rid("forgot_password"),
                height=100,
            ),
        ]
        return screen

    # ================================================================= nearby and search
    def screen_nearby(self, ctx: Ctx, route: Route) -> Screen:
        screen = self.main_screen(None, NEARBY, "nearby")
        screen.header = [
            View(
                w.FRAME,
                rid=self.rid("search_holder"),
                clickable=True,
                on_click="open_search",
                height=150,
                children=[
                    View(
                        w.RELATIVE,
                        rid=self.rid("search_text_wrapper"),
                        horizontal=True,
                        children=[
                            View(w.IMAGE, rid=self.rid("search_text_icon"), weight=0.15),
                            View(
                                w.EDIT,
                                rid=self.rid("search_text"),
                                edit="term",
                                hint=SEARCH_HINT,
                                on_enter="submit_search",
                                weight=0.85,
                            ),
                        ],
                    )
                ],
            )
        ]
        cells = [
            View(
                w.RELATIVE,
                rid=self.rid("category_suggestion"),
                clickable=True,
                focusable=True,
                on_click="category",
                arg=name,
                children=[
                    View(w.IMAGE, rid=self.rid("icon"), height=140),
                    View(w.TEXT, text=name, rid=self.rid("title"), height=130),
                ],
            )
            for name in CATEGORIES
        ]
        grid = View(
            GRID_VIEW,
            rid=self.rid("category_container"),
            children=[
                View(w.LINEAR, horizontal=True, children=cells[i : i + 4])
                for i in range(0, len(cells), 4)
            ],
        )
        screen.rows = [grid]
        if ctx.form("term").strip():  # typing in the search box: the suggestions
            screen.rows = self.suggestion_rows(ctx, ctx.form("term"))
        return screen

    def screen_overlay(self, ctx: Ctx, route: Route) -> Screen:
        term = ctx.form("term")
        boxes = View(
            w.RELATIVE,
            rid=self.rid("main_searchboxes"),
            horizontal=True,
            children=[
                View(
                    w.RELATIVE,
                    rid=self.rid("search_controls_wrapper"),
                    weight=0.85,
                    children=[
                        View(
                            w.EDIT,
                            rid=self.rid("searchbar"),
                            edit="term",
                            hint=SEARCH_HINT,
                            on_enter="submit_search",
                            height=147,
                        ),
                        View(w.VIEW, rid=self.rid("separator"), height=3),
                        View(
                            w.EDIT,
                            rid=self.rid("locationbar"),
                            edit="location",
                            hint=CURRENT_LOCATION,
                            on_enter="submit_search",
                            height=147,
                        ),
                    ],
                ),
                View(
                    w.IMAGE_BUTTON,
                    desc="Search Yelp",
                    rid=self.rid("search_button"),
                    clickable=True,
                    focusable=True,
                    on_click="submit_search",
                    weight=0.15,
                ),
            ],
        )
        screen = Screen(
            None,
            activity=SEARCH_OVERLAY,
            header=[boxes],
            list_rid=self.rid("search_suggest"),
            list_cls=LIST_VIEW,
        )
        screen.rows = self.suggestion_rows(ctx, term)
        return screen

    def suggestion_rows(self, ctx: Ctx, term: str) -> list[View]:
        """Suggested terms, then the businesses whose name matches what is typed."""
        rows = [self.suggestion(t, "", "suggestion", t) for t in self.suggested_terms(term)]
        q = query_words(term)
        if q:
            typed = term.strip().casefold()
            for b in self.businesses(ctx):
                name = str(b.get("name") or "")
                if contains(tokens(name), q) or name.casefold().startswith(typed):
                    place = str(b.get("neighborhood") or b.get("address") or "")
                    rows.append(self.suggestion(name, place, "suggest_business", name))
        return rows

    def suggested_terms(self, term: str) -> list[str]:
        typed = " ".join(term.split()).casefold()
        if not typed:
            return list(SUGGESTIONS[:7])
        q = query_words(term)
        return [
            s
            for s in SUGGESTIONS
            if s.casefold().startswith(typed) or (q and contains(tokens(s), q))
        ]

    def suggestion(self, term: str, description: str, key: str, arg: Any) -> View:
        return View(
            w.LINEAR,
            clickable=True,
            focusable=True,
            on_click=key,
            arg=arg,
            height=140,
            children=[
                View(
                    w.RELATIVE,
                    rid=self.rid("term_description"),
                    horizontal=True,
                    children=[
                        View(w.TEXT, text=term, rid=self.rid("term"), weight=0.7),
                        View(w.TEXT, text=description, rid=self.rid("description"), weight=0.3),
                    ],
                )
            ],
        )

    def screen_results(self, ctx: Ctx, route: Route) -> Screen:
        term = str(route.arg("term") or "")
        location = str(route.arg("location") or "") or CURRENT_LOCATION
        open_now = bool(route.arg("open_now"))
        found = self.search(ctx, term, location, open_now)
        screen = Screen(
            None,
            activity=SEARCH_LIST,
            up=True,
            actions=[
                View(
                    w.LINEAR,
                    rid=self.rid("toolbar_search"),
                    weight=0.85,
                    children=[
                        View(
                            w.TEXT,
                            text=f"{term} {location}".strip(),
                            rid=self.rid("toolbar_search_text"),
                            clickable=True,
                            focusable=True,
                            on_click="edit_search",
                        )
                    ],
                )
            ],
            footer=[self.hot_buttons("search")],
            list_rid="android:id/list",
            list_cls=LIST_VIEW,
        )
        filters = View(
            w.RECYCLER,
            rid=self.rid("search_tag_filters"),
            horizontal=True,
            height=130,
            children=[
                View(
                    w.BUTTON,
                    text="Open Now",
                    rid=self.rid("tag_button"),
                    clickable=True,
                    focusable=True,
                    selected=open_now,
                    on_click="open_now",
                    weight=0.3,
                ),
                View(w.VIEW, weight=0.7),
            ],
        )
        screen.rows = [filters]
        for i, b in enumerate(found, 1):
            screen.rows.append(self.result_row(ctx, i, b))
        if not found:
            screen.rows.append(
                w.text_row(
                    f"No results found for {term}" if term else "No results found",
                    self.rid("empty_results"),
                    height=200,
                )
            )
        return screen

    def result_row(self, ctx: Ctx, number: int, b: dict[str, Any]) -> View:
        price, price_desc = price_views(b.get("price"))
        texts = View(
            w.LINEAR,
            weight=0.75,
            children=[
                View(
                    w.TEXT,
                    text=f"{number}. {b.get('name')}",
                    rid=self.rid("search_title_textview"),
                    height=66,
                ),
                self.stars(b, "search_rating"),
                View(
                    w.TEXT,
                    text=short_address(b),
                    rid=self.rid("search_address_textview"),
                    height=60,
                ),
                View(
                    w.TEXT,
                    text=str(b.get("category") or ""),
                    rid=self.rid("search_category_textview"),
                    height=60,
                ),
            ],
        )
        side = View(
            w.LINEAR,
            weight=0.1,
            children=[
                View(w.IMAGE, rid=self.rid("direction"), height=60),
                View(
                    w.TEXT,
                    text=price,
                    desc=price_desc,
                    rid=self.rid("search_price_textview"),
                    height=60,
                ),
            ],
        )
        return View(
            w.RELATIVE,
            clickable=True,
            focusable=True,
            on_click="open_business",
            arg=b.get("name"),
            horizontal=True,
            height=300,
            children=[View(w.IMAGE, rid=self.rid("search_image"), weight=0.2), texts, side],
        )

    # ================================================================= business page
    def screen_business(self, ctx: Ctx, route: Route) -> Screen:
        name = str(route.arg("name") or "")
        b = self.business(ctx, name) or {"name": name}
        saved = self.bookmark(ctx, name) is not None
        screen = Screen(
            name,
            activity=BUSINESS_PAGE,
            up=True,
            actions=[
                View(
                    w.TEXT,
                    desc="Share",
                    rid=self.rid("share"),
                    clickable=True,
                    focusable=True,
                    on_click="share",
                    arg=name,
                )
            ],
            footer=[self.hot_buttons("")],
            list_rid="android:id/list",
            list_cls=LIST_VIEW,
        )
        price, price_desc = price_views(b.get("price"))
        summary = View(
            w.RELATIVE,
            rid=self.rid("panel_pulled_content"),
            children=[
                View(
                    w.LINEAR,
                    rid=self.rid("name_distance"),
                    children=[View(w.TEXT, text=name, rid=self.rid("name"), height=90)],
                ),
                View(
                    w.RELATIVE,
                    rid=self.rid("names_rating_price"),
                    horizontal=True,
                    children=[
                        View(
                            w.TEXT,
                            text=reviews_text(b.get("reviews")),
                            desc=rating_desc(b.get("rating")),
                            rid=self.rid("rating"),
                            height=77,
                            weight=0.85,
                        ),
                        View(
                            w.TEXT,
                            text=price,
                            desc=price_desc,
                            rid=self.rid("price"),
                            weight=0.15,
                        ),
                    ],
                ),
                View(
                    w.TEXT,
                    text=str(b.get("category") or ""),
                    rid=self.rid("categories"),
                    height=60,
                ),
            ],
        )
        hours = hours_text(b)
        status = is_open(b, ctx.now)
        if hours is not None or status is not None:
            line = View(w.LINEAR, horizontal=True, height=60)
            if hours is not None:
                line.children.append(
                    View(
                        w.TEXT,
                        text=f"Hours Today: {hours}",
                        rid=self.rid("hours"),
                        clickable=True,
                        on_click="more_info",
                        arg=name,
                        weight=0.8,
                    )
                )
            if status is not None:
                line.children.append(
                    View(
                        w.TEXT,
                        text="Open" if status else "Closed",
                        rid=self.rid("open_closed"),
                        weight=0.2,
                    )
                )
            summary.children.append(line)
        buttons = View(
            w.LINEAR,
            rid=self.rid("button_bar"),
            horizontal=True,
            height=220,
            children=[
                self.page_button("photos_and_videos", "Add Photo", "", "add_photo", name),
                self.page_button("check_in", "Check In", "", "check_in", name),
                self.page_button(
                    "bookmark",
                    "Bookmarked" if saved else "Bookmark",
                    "Bookmarked" if saved else "Bookmark",
                    "toggle_bookmark",
                    name,
                    selected=saved,
                ),
            ],
        )
        screen.rows = [summary, buttons]
        if b.get("address"):
            screen.rows.append(
                View(
                    w.LINEAR,
                    rid=self.rid("map_cell"),
                    clickable=True,
                    focusable=True,
                    on_click="directions",
                    arg=name,
                    children=[
                        View(w.FRAME, rid=self.rid("map_frame"), desc="", height=300),
                        View(
                            w.LINEAR,
                            rid=self.rid("address"),
                            children=[
                                View(
                                    w.TEXT,
                                    text=str(b["address"]),
                                    rid=self.rid("addressExact"),
                                    height=66,
                                ),
                                View(
                                    w.TEXT,
                                    text=str(b.get("neighborhood") or ""),
                                    rid=self.rid("addressGeneral"),
                                    height=66,
                                ),
                            ],
                        ),
                    ],
                )
            )
            screen.rows.append(self.list_button("Get Directions", "", "directions", name))
        if b.get("phone"):
            screen.rows.append(self.list_button(f"Call {b['phone']}", "", "call", name))
        screen.rows.append(self.list_button("More Info", "Hours, Attributes…", "more_info", name))
        return screen

    def page_button(
        self, rid: str, label: str, desc: str, key: str, arg: Any, selected: bool = False
    ) -> View:
        return View(
            w.LINEAR,
            rid=self.rid(rid),
            desc=desc,
            clickable=True,
            focusable=True,
            selected=selected,
            on_click=key,
            arg=arg,
            children=[
                View(w.TEXT, rid=self.rid("value"), height=90),
                View(w.TEXT, text=label, rid=self.rid("label"), height=90),
            ],
        )

    def list_button(self, title: str, subtitle: str, key: str, arg: Any) -> View:
        texts = [View(w.TEXT, text=title, rid=self.rid("list_button_title"), height=80)]
        if subtitle:
            texts.append(
                View(w.TEXT, text=subtitle, rid=self.rid("list_button_subtitle"), height=60)
            )
        return View(
            w.RELATIVE,
            rid=self.rid("content"),
            clickable=True,
            focusable=True,
            on_click=key,
            arg=arg,
            height=180,
            children=[
                View(
                    w.RELATIVE,
                    rid=self.rid("action_content"),
                    horizontal=True,
                    children=[
                        View(w.IMAGE, rid=self.rid("list_button_icon"), weight=0.1),
                        View(w.LINEAR, weight=0.8, children=texts),
                        View(w.IMAGE, rid=self.rid("disclosure"), weight=0.1),
                    ],
                )
            ],
        )

    def screen_info(self, ctx: Ctx, route: Route) -> Screen:
        name = str(route.arg("name") or "")
        b = self.business(ctx, name) or {"name": name}
        screen = Screen(
            "More Info", activity=MORE_INFO, up=True, list_rid="android:id/list", list_cls=LIST_VIEW
        )
        rows: list[View] = []
        hours = hours_text(b)
        if hours is not None:
            rows.append(w.text_row("Hours", self.rid("section_title"), height=110))
            for day in DAYS:
                rows.append(
                    View(
                        w.LINEAR,
                        horizontal=True,
                        height=90,
                        children=[
                            View(w.TEXT, text=day, rid=self.rid("day"), weight=0.3),
                            View(w.TEXT, text=hours, rid=self.rid("hours"), weight=0.7),
                        ],
                    )
                )
        if b.get("address"):
            rows.append(w.text_row("Address", self.rid("section_title"), height=110))
            rows.append(w.text_row(str(b["address"]), self.rid("address"), height=100))
        if b.get("phone"):
            rows.append(w.text_row("Phone", self.rid("section_title"), height=110))
            rows.append(w.text_row(str(b["phone"]), self.rid("phone"), height=100))
        price, _ = price_views(b.get("price"))
        if price:
            rows.append(w.text_row("Price Range", self.rid("section_title"), height=110))
            rows.append(w.text_row(price, self.rid("price_range"), height=100))
        if not rows:
            rows.append(w.text_row("No information yet.", self.rid("empty"), height=140))
        screen.rows = rows
        return screen

    # ================================================================= bookmarks
    def screen_bookmarks(self, ctx: Ctx, route: Route) -> Screen:
        screen = self.main_screen("Bookmarks", BOOKMARKS, "bookmarks")
        screen.list_rid = self.rid("yelp_fragment_container")
        saved = sorted(
            ctx.records("bookmarks"), key=lambda r: str(r.get("saved") or ""), reverse=True
        )
        if not saved:
            screen.rows = [
                View(w.IMAGE, rid=self.rid("error_image"), height=540),
                View(w.TEXT, text=BOOKMARKS_EMPTY, rid=self.rid("error_text"), height=280),
            ]
            return screen
        for r in saved:
            name = str(r.get("business") or "")
            b = self.business(ctx, name) or {"name": name}
            screen.rows.append(
                View(
                    w.RELATIVE,
                    rid=self.rid("business_layout"),
                    clickable=True,
                    focusable=True,
                    on_click="open_business",
                    arg=name,
                    horizontal=True,
                    height=260,
                    children=[
                        View(w.IMAGE, rid=self.rid("business_photo"), weight=0.2),
                        View(
                            w.LINEAR,
                            weight=0.8,
                            children=[
                                View(w.TEXT, text=name, rid=self.rid("business_name"), height=76),
                                self.stars(b, "business_rating"),
                                View(
                                    w.TEXT,
                                    text=short_address(b),
                                    rid=self.rid("business_address"),
                                    height=60,
                                ),
                                View(
                                    w.TEXT,
                                    text=str(b.get("category") or ""),
                                    rid=self.rid("business_category"),
                                    height=60,
                                ),
                            ],
                        ),
                    ],
                )
            )
        return screen

    # ================================================================= activity, me, drawer
    def screen_feed(self, ctx: Ctx, route: Route) -> Screen:
        screen = self.main_screen("Activity", FEED, "feed")
        screen.header = [
            View(
                w.LINEAR,
                rid=self.rid("feed_header"),
                height=126,
                children=[
                    View(
                        "android.widget.HorizontalScrollView",
                        rid=self.rid("feed_tabs"),
                        horizontal=True,
                        children=[
                            View(w.TEXT, text="All", selected=True),
                            View(w.TEXT, text="Friends"),
                            View(w.TEXT, text="Nearby"),
                        ],
                    )
                ],
            )
        ]
        popular = sorted(self.businesses(ctx), key=lambda b: -int(b.get("reviews") or 0))[:5]
        rows: list[View] = []
        for b in popular:
            name = str(b.get("name") or "")
            saved = self.bookmark(ctx, name) is not None
            rows.append(
                View(
                    w.TEXT,
                    text=f"A popular business in {CITY}",
                    rid=self.rid("feed_description"),
                    height=90,
                )
            )
            rows.append(
                View(
                    w.RELATIVE,
                    rid=self.rid("fullcontent_business_layout"),
                    clickable=True,
                    focusable=True,
                    on_click="open_business",
                    arg=name,
                    horizontal=True,
                    height=230,
                    children=[
                        View(w.IMAGE, rid=self.rid("business_image"), weight=0.25),
                        View(
                            w.LINEAR,
                            rid=self.rid("business_info_relative_layout"),
                            weight=0.75,
                            children=[
                                View(w.TEXT, text=name, rid=self.rid("business_title"), height=66),
                                View(
                                    w.LINEAR,
                                    horizontal=True,
                                    height=70,
                                    children=[
                                        View(
                                            w.TEXT,
                                            text=reviews_text(b.get("reviews")),
                                            desc=rating_desc(b.get("rating")),
                                            rid=self.rid("business_rating"),
                                            weight=0.85,
                                        ),
                                        View(
                                            TOGGLE,
                                            desc="Bookmark",
                                            rid=self.rid("bookmark_button"),
                                            clickable=True,
                                            focusable=True,
                                            checkable=True,
                                            checked=saved,
                                            on_click="toggle_bookmark",
                                            arg=name,
                                            weight=0.15,
                                        ),
                                    ],
                                ),
                                View(
                                    w.TEXT,
                                    text=f"{b.get('neighborhood') or ''}, {CITY}".lstrip(", "),
                                    rid=self.rid("neighborhood_and_city"),
                                    height=60,
                                ),
                            ],
                        ),
                    ],
                )
            )
        screen.rows = rows
        return screen

    def screen_profile(self, ctx: Ctx, route: Route) -> Screen:
        screen = self.main_screen(USER_NAME, PROFILE, "profile")
        count = len(ctx.records("bookmarks"))
        screen.rows = [
            View(
                w.RELATIVE,
                rid=self.rid("user_profile_header"),
                horizontal=True,
                height=420,
                children=[
                    View(w.IMAGE, rid=self.rid("user_profile_image"), weight=0.3),
                    View(
                        w.LINEAR,
                        weight=0.7,
                        children=[
                            View(w.TEXT, text=USER_NAME, rid=self.rid("user_profile_name")),
                            View(w.TEXT, text=USER_CITY, rid=self.rid("user_profile_location")),
                            View(
                                w.LINEAR,
                                horizontal=True,
                                children=[
                                    View(
                                        w.TEXT,
                                        text="0",
                                        desc=f"0 {what.title()}",
                                        rid=self.rid(f"user_profile_{what[:-1]}_count"),
                                    )
                                    for what in ("friends", "reviews", "photos")
                                ],
                            ),
                        ],
                    ),
                ],
            ),
            View(
                w.RELATIVE,
                rid=self.rid("content"),
                clickable=True,
                focusable=True,
                on_click="tab",
                arg="bookmarks",
                height=180,
                children=[
                    View(
                        w.TEXT,
                        text=f"Bookmarks ({count})",
                        rid=self.rid("contribution_text"),
                    )
                ],
            ),
            w.text_row("My Feed", self.rid("section_title"), height=140),
            w.text_row("Aw, no recent Yelp fun.", height=140),
        ]
        return screen

    def screen_drawer(self, ctx: Ctx, route: Route) -> Screen:
        """The navigation drawer, over the screen that opened it (same activity)."""
        screen = Screen(
            None,
            activity=str(route.arg("under") or NEARBY),
            list_rid=self.rid("dino_list"),
            list_cls=LIST_VIEW,
        )
        rows: list[View] = []
        if self.signed_in(ctx):
            rows.append(
                View(
                    w.RELATIVE,
                    rid=self.rid("nav_user_photo_name"),
                    clickable=True,
                    focusable=True,
                    on_click="drawer_item",
                    arg="profile",
                    horizontal=True,
                    height=230,
                    children=[
                        View(w.IMAGE, rid=self.rid("nav_user_photo"), weight=0.2),
                        View(w.TEXT, text=USER_NAME, rid=self.rid("nav_user_name"), weight=0.8),
                    ],
                )
            )
        else:
            rows.append(
                View(
                    w.TEXT,
                    text="Log In or Sign Up",
                    rid=self.rid("nav_log_in"),
                    clickable=True,
                    focusable=True,
                    on_click="drawer_item",
                    arg="profile",
                    height=230,
                )
            )
        for rid, label, target in DRAWER:
            rows.append(
                View(
                    w.TEXT,
                    text=label,
                    rid=self.rid(rid),
                    clickable=True,
                    focusable=True,
                    on_click="drawer_item",
                    arg=target,
                    height=154,
                )
            )
        screen.rows = [View(w.RELATIVE, rid=self.rid("nav_drawer"), children=rows)]
        return screen

    def screen_settings(self, ctx: Ctx, route: Route) -> Screen:
        screen = Screen(
            "Settings", activity=SETTINGS, up=True, list_rid="android:id/list", list_cls=LIST_VIEW
        )
        on = bool(ctx.setting("background_location"))
        screen.rows = [
            w.text_row("Location", self.rid("section_title"), height=110),
            View(
                w.SWITCH,
                text="Background Location",
                rid=self.rid("background_location_switch"),
                clickable=True,
                focusable=True,
                checkable=True,
                checked=on,
                on_click="toggle_background_location",
                height=160,
            ),
            w.text_row(
                "Get notified when you are near an interesting business or event.",
                self.rid("summary"),
                height=110,
            ),
        ]
        if self.signed_in(ctx):
            screen.rows.append(
                w.text_row(
                    "Log Out",
                    self.rid("log_out"),
                    clickable=True,
                    focusable=True,
                    on_click="log_out",
                    height=160,
                )
            )
        return screen

    # ================================================================= handlers: onboarding
    def on_optin(self, ctx: Ctx, arg: Any) -> None:
        if arg and not ctx.setting("background_location"):
            ctx.set("background_location", True)
        ctx.replace("splash")

    def on_facebook(self, ctx: Ctx, arg: Any) -> None:
        self.sign_in(ctx)

    def on_open_login(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("login")

    def on_open_create_account(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("create_account")

    def on_skip(self, ctx: Ctx, arg: Any) -> None:
        self.finish_onboarding(ctx)

    def on_sign_up(self, ctx: Ctx, arg: Any) -> None:
        self.sign_in(ctx)

    def on_email_sign_up(self, ctx: Ctx, arg: Any) -> None:
        email = ctx.form("email").strip()
        if not re.fullmatch(r"[^@\s]+@[^@\s]+\.[^@\s]+", email):
            ctx.toast("Please enter a valid email address.")
            return
        self.sign_in(ctx)

    def on_login_submit(self, ctx: Ctx, arg: Any) -> None:
        email, password = ctx.form("email").strip(), ctx.form("password")
        if not email or not password:
            ctx.toast("Please enter your email and password.")
            return
        if "@" not in email:
            ctx.toast("Please enter a valid email address.")
            return
        self.sign_in(ctx)

    def sign_in(self, ctx: Ctx) -> None:
        if not self.signed_in(ctx):
            ctx.set("signed_in", True)
        self.finish_onboarding(ctx)

    def finish_onboarding(self, ctx: Ctx) -> None:
        """Leave the opt-in, splash and sign-up screens: back to the screen that asked for
        them, or on to Nearby."""
        ctx.hide_keyboard()
        onboarding = {"root", "optin", "splash", "create_account", "login"}
        stack = ctx.phone.stacks.get(self.model, [])
        while len(stack) > 1 and stack[-1].screen in onboarding:
            ctx.back()
        if stack and stack[-1].screen in onboarding:
            ctx.replace("nearby")

    # ================================================================= handlers: navigation
    def top(self, ctx: Ctx) -> Route | None:
        """The screen on top of Yelp's stack now (a handler's ``ctx.route`` is the screen it
        was sent from, which it may have closed)."""
        stack = ctx.phone.stacks.get(self.model, [])
        return stack[-1] if stack else None

    def current(self, ctx: Ctx) -> str:
        top = self.top(ctx)
        if top is None:
            return ""
        return "nearby" if top.screen == "root" else top.screen

    def on_tab(self, ctx: Ctx, arg: Any) -> None:
        self.go(ctx, str(arg))

    def go(self, ctx: Ctx, target: str) -> None:
        here = self.current(ctx)
        if target == "search":
            top = self.top(ctx)
            term = str(top.arg("term") or "") if here == "results" and top is not None else ""
            self.open_overlay(ctx, term)
            return
        if target == "profile" and not self.signed_in(ctx):
            ctx.push("splash")
            return
        if target != here:
            ctx.push(target)

    def on_open_drawer(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("drawer", under=str(arg))

    def on_drawer_item(self, ctx: Ctx, arg: Any) -> None:
        ctx.back()
        self.go(ctx, str(arg))

    def on_open_search(self, ctx: Ctx, arg: Any) -> None:
        self.open_overlay(ctx, "")

    def on_edit_search(self, ctx: Ctx, arg: Any) -> None:
        assert ctx.route is not None
        self.open_overlay(ctx, str(ctx.route.arg("term") or ""))

    def open_overlay(self, ctx: Ctx, term: str) -> None:
        route = ctx.push("overlay")
        if term:
            ctx.set_form("term", term, route)
        ctx.phone.focus = (route.id, "term")
        ctx.phone.keyboard = True

    def on_category(self, ctx: Ctx, arg: Any) -> None:
        if arg == "More":
            self.open_overlay(ctx, "")
            return
        ctx.push("results", term=str(arg))

    def on_submit_search(self, ctx: Ctx, arg: Any) -> None:
        self.show_results(ctx, ctx.form("term").strip(), ctx.form("location").strip())

    def on_suggestion(self, ctx: Ctx, arg: Any) -> None:
        self.show_results(ctx, str(arg), ctx.form("location").strip())

    def show_results(self, ctx: Ctx, term: str, location: str) -> None:
        """Close the overlay (or clear Nearby's search box) and show the results (in place of
        the results the overlay was opened from, if any)."""
        self.leave_search(ctx)
        args: dict[str, Any] = {"term": term}
        if location and location.casefold() != CURRENT_LOCATION.casefold():
            args["location"] = location
        stack = ctx.phone.stacks.get(self.model, [])
        if stack and stack[-1].screen == "results":
            ctx.replace("results", **args)
        else:
            ctx.push("results", **args)

    def leave_search(self, ctx: Ctx) -> None:
        ctx.hide_keyboard()
        top = self.top(ctx)
        if top is None:
            return
        if top.screen == "overlay":
            ctx.back()
        else:
            ctx.phone.forms.get(top.id, {}).pop("term", None)

    def on_suggest_business(self, ctx: Ctx, arg: Any) -> None:
        self.leave_search(ctx)
        ctx.push("business", name=str(arg))

    def on_open_now(self, ctx: Ctx, arg: Any) -> None:
        assert ctx.route is not None
        args = dict(ctx.route.args)
        args["open_now"] = not bool(args.get("open_now"))
        ctx.replace("results", **args)

    def on_open_business(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("business", name=str(arg))

    def on_more_info(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("info", name=str(arg))

    # ================================================================= handlers: business
    def on_toggle_bookmark(self, ctx: Ctx, arg: Any) -> None:
        name = str(arg)
        existing = self.bookmark(ctx, name)
        if existing is not None:
            ctx.delete("bookmarks", existing)
            ctx.toast("Removed from Bookmarks")
            return
        ctx.add("bookmarks", {"business": name, "saved": stamp(ctx.now)})
        ctx.toast("Added to Bookmarks")

    def on_call(self, ctx: Ctx, arg: Any) -> None:
        b = self.business(ctx, arg)
        if b is None or not b.get("phone"):
            return
        if "phone" in ctx.phone.apps:
            ctx.open("phone", "dialpad", number=str(b["phone"]))
        else:
            ctx.toast("No app can perform this action")

    def on_directions(self, ctx: Ctx, arg: Any) -> None:
        if "maps" in ctx.phone.apps:
            ctx.open("maps")
        else:
            ctx.toast("No app can perform this action")

    def on_share(self, ctx: Ctx, arg: Any) -> None:
        items = [
            View(
                w.TEXT,
                text=label,
                rid="android:id/text1",
                clickable=True,
                focusable=True,
                on_click=key,
                arg=arg,
                height=130,
            )
            for label, key in (("Messages", "share_messages"), ("Copy Link", "share_copy"))
        ]
        ctx.dialog(Dialog(title="Share business via", items=items))

    def on_share_messages(self, ctx: Ctx, arg: Any) -> None:
        if "messages" not in ctx.phone.apps:
            ctx.toast("No app can perform this action")
            return
        name = str(arg)
        link = f"https://www.yelp.com/biz/{slug(name)}"
        ctx.open("messages", "new", body=f"Check out {name} on Yelp: {link}")

    def on_share_copy(self, ctx: Ctx, arg: Any) -> None:
        ctx.toast("Link copied")

    def on_add_photo(self, ctx: Ctx, arg: Any) -> None:
        if not self.signed_in(ctx):
            ctx.push("splash")
            return
        ctx.toast("No photos to add")

    def on_check_in(self, ctx: Ctx, arg: Any) -> None:
        if not self.signed_in(ctx):
            ctx.push("splash")
            return
        ctx.toast(f"You checked in at {arg}")

    # ================================================================= handlers: settings
    def on_toggle_background_location(self, ctx: Ctx, arg: Any) -> None:
        ctx.set("background_location", not bool(ctx.setting("background_location")))

    def on_log_out(self, ctx: Ctx, arg: Any) -> None:
        ctx.dialog(
            Dialog(
                title="Log Out",
                message="Are you sure you want to log out?",
                buttons=[("Log Out", "log_out_confirmed", None), ("Cancel", None, None)],
            )
        )

    def on_log_out_confirmed(self, ctx: Ctx, arg: Any) -> None:
        if self.signed_in(ctx):
            ctx.set("signed_in", False)
        ctx.toast("You have been logged out")


APP = YelpApp
