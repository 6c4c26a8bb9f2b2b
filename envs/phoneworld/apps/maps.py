"""Google Maps (``com.google.android.apps.maps``): search, place sheets, saved lists, directions.

Google Maps is one activity (``com.google.android.maps.MapsActivity``) whose screens are
fragments; PhoneWorld draws them as routes of that activity:

* the map home (Explore tab): the omnibox "Search here" (``search_omnibox_text_box``), the
  category chips (Restaurants, Coffee, Bars, Hotels, Gas, Groceries, Parks, Museums,
  Pharmacies, Hospitals), the map with its "Layers" button (map type, traffic) and the account
  button (Settings); the bottom tabs Explore, Go (recent directions) and Saved (the lists);
* the search screen: the omnibox as an editable field (``search_omnibox_edit_text``, focused),
  the recent searches (``search_history_item``; a long press removes one) and, while typing,
  the places whose name or address matches;
* the search results (``search_list_layout``): one row per place with its name (``title``),
  rating ("4.6"), review count ("(1,893)"), category, distance ("1.2 km") and opening status
  ("Open · Closes 6 PM"), and the filter chips "Open now", "Rating" and "Sort by"; a search
  with a single result opens that place at once, as Maps does;
* the place sheet: name, rating, category, price, distance, the buttons "Directions", "Call",
  "Save" ("Saved" once in a list) and "Share", then the address, hours, phone and website;
* "Save": the lists dialog (Favorites, Want to go, Travel plans, Starred places): a place is in
  at most one list (``saved`` is keyed by place); picking its list again removes it;
* "Share": the share sheet; "Messages" sends the place's name and address to the Messages app
  as Android's ACTION_SEND does (a new conversation with that text);
* "Directions": the route preview (origin, stops, destination ``directions_destination``, the
  travel modes with their durations, route options and "Start"); opening it records a route
  (``routes``), changes of mode, origin, stops or destination update that record, and "Start"
  marks it started and shows the navigation screen;
* Settings (from the account menu): "Edit home or work", "Distance units", and the navigation
  settings "Avoid highways" and "Avoid tolls".

Searches (typed, picked from history, or a category chip) are recorded in ``recent_searches``;
searching again for a query already there moves it to the top (its ``searched_at`` changes).
Distances are the places' ``distance_km`` from the current location, shown in kilometres
("automatic" units follow the metric system in PhoneWorld) or miles.
"""

from __future__ import annotations

import datetime as dt
import itertools
import math
import zlib
from typing import Any

from tasklang.envs.phoneworld import widgets as w
from tasklang.envs.phoneworld.app import App, Ctx, Dialog, Route, Screen
from tasklang.envs.phoneworld.widgets import View

PKG = "com.google.android.apps.maps"
ACTIVITY = "com.google.android.maps.MapsActivity"
YOUR_LOCATION = "Your location"
SEARCH_HERE = "Search here"

CATEGORY_LABELS = {
    "restaurant": "Restaurant",
    "cafe": "Cafe",
    "bar": "Bar",
    "hotel": "Hotel",
    "gas_station": "Gas station",
    "museum": "Museum",
    "park": "Park",
    "pharmacy": "Pharmacy",
    "supermarket": "Supermarket",
    "hospital": "Hospital",
    "other": "",
}
# the home screen's category chips: (label, category), in two rows of five
CHIPS = (
    ("Restaurants", "restaurant"),
    ("Coffee", "cafe"),
    ("Bars", "bar"),
    ("Hotels", "hotel"),
    ("Gas", "gas_station"),
    ("Groceries", "supermarket"),
    ("Parks", "park"),
    ("Museums", "museum"),
    ("Pharmacies", "pharmacy"),
    ("Hospitals", "hospital"),
)
# what a typed query can say to ask for a category
SYNONYMS = {
    "restaurant": ("restaurant", "food", "places to eat", "dinner", "lunch", "eat"),
    "cafe": ("cafe", "coffee", "coffee shop", "coffeeshop", "espresso"),
    "bar": ("bar", "pub", "drinks", "nightlife"),
    "hotel": ("hotel", "lodging", "motel", "hotel room"),
    "gas_station": ("gas", "gas station", "petrol", "fuel", "petrol station"),
    "museum": ("museum",),
    "park": ("park",),
    "pharmacy": ("pharmacy", "drugstore", "chemist"),
    "supermarket": ("supermarket", "grocery", "grocery store", "groceries"),
    "hospital": ("hospital", "clinic", "emergency room"),
}
QUERY_SUFFIXES = (" near me", " nearby", " around me", " close by")

LISTS = (
    ("favorites", "Favorites"),
    ("want_to_go", "Want to go"),
    ("travel_plans", "Travel plans"),
    ("starred", "Starred places"),
)
LIST_LABELS = dict(LISTS)

MODES = (
    ("driving", "Driving mode", 32.0, 0),  # mode, content-desc, km/h, minutes of waiting
    ("transit", "Transit mode", 18.0, 5),
    ("walking", "Walking mode", 4.8, 0),
    ("cycling", "Cycling mode", 15.0, 0),
)

UNITS = (("automatic", "Automatic"), ("kilometers", "Kilometers"), ("miles", "Miles"))
MAP_TYPES = (("default", "Default"), ("satellite", "Satellite"), ("terrain", "Terrain"))
RATINGS = ((0.0, "Any rating"), (3.5, "3.5+"), (4.0, "4.0+"), (4.5, "4.5+"))
SORTS = (("relevance", "Relevance"), ("distance", "Distance"))
SETTING_DEFAULTS: dict[str, Any] = {
    "home_address": None,
    "work_address": None,
    "distance_units": "automatic",
    "map_type": "default",
    "traffic_layer": False,
    "avoid_tolls": False,
    "avoid_highways": False,
}


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
    """A time as Maps writes it: "6 PM", "7:30 AM" (23:59 counts as midnight)."""
    if (t.hour, t.minute) == (23, 59):
        return "12 AM"
    hour = t.hour % 12 or 12
    half = "AM" if t.hour < 12 else "PM"
    return f"{hour} {half}" if t.minute == 0 else f"{hour}:{t.minute:02d} {half}"


def _minutes(t: dt.time) -> int:
    return t.hour * 60 + t.minute + (1 if (t.hour, t.minute) == (23, 59) else 0)


def open_all_day(opens: dt.time, closes: dt.time) -> bool:
    return opens == closes or (_minutes(opens) == 0 and _minutes(closes) >= 24 * 60)


def open_status(place: dict[str, Any], now: dt.datetime) -> str | None:
    """The opening status line: "Open · Closes 6 PM", "Closes soon · 6 PM", "Closed · Opens
    7:30 AM", "Opens soon · 7:30 AM" or "Open 24 hours"; None when the hours are unknown."""
    opens, closes = parse_time(place.get("opens")), parse_time(place.get("closes"))
    if opens is None or closes is None:
        return None
    if open_all_day(opens, closes):
        return "Open 24 hours"
    day = 24 * 60
    at, o, c = now.hour * 60 + now.minute, _minutes(opens), _minutes(closes)
    is_open = o <= at < c if o < c else (at >= o or at < c)
    if is_open:
        left = (c - at) % day
        if left <= 60:
            return f"Closes soon · {clock_text(closes)}"
        return f"Open · Closes {clock_text(closes)}"
    until = (o - at) % day
    if until <= 60:
        return f"Opens soon · {clock_text(opens)}"
    return f"Closed · Opens {clock_text(opens)}"


def is_open_now(place: dict[str, Any], now: dt.datetime) -> bool:
    status = open_status(place, now) or ""
    return status.startswith(("Open ·", "Open 24", "Closes soon"))


def hours_text(place: dict[str, Any]) -> str | None:
    opens, closes = parse_time(place.get("opens")), parse_time(place.get("closes"))
    if opens is None or closes is None:
        return None
    if open_all_day(opens, closes):
        return "Hours: Open 24 hours"
    return f"Hours: {clock_text(opens)}–{clock_text(closes)}"


def uses_miles(units: Any) -> bool:
    return str(units) == "miles"


def distance_text(km: Any, units: Any) -> str | None:
    """A distance as Maps shows it ("1.2 km", "400 m", "0.7 mi", "500 ft"); None when it is
    unknown."""
    if km is None:
        return None
    value = float(km)
    if uses_miles(units):
        miles = value * 0.621371
        if miles < 0.1:
            return f"{round(miles * 5280, -1):.0f} ft"
        return f"{miles:.1f} mi"
    if value < 1:
        return f"{round(value * 1000, -1):.0f} m"
    return f"{value:.1f} km"


def rating_text(rating: Any) -> str:
    return f"{float(rating):.1f}" if rating is not None else ""


def reviews_text(count: Any) -> str:
    return f"({int(count or 0):,})"


def price_text(level: Any) -> str:
    return "$" * int(level) if level else ""


def duration_text(minutes: int) -> str:
    if minutes < 60:
        return f"{minutes} min"
    hours, rest = divmod(minutes, 60)
    return f"{hours} hr" if rest == 0 else f"{hours} hr {rest} min"


def normalize_query(text: str) -> str:
    q = " ".join(text.casefold().split())
    for suffix in QUERY_SUFFIXES:
        if q.endswith(suffix):
            q = q[: -len(suffix)].strip()
    return q


def singular(word: str) -> str:
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("es") and word[:-2].endswith(("sh", "ch", "x")):
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        return word[:-1]
    return word


def query_category(q: str) -> str | None:
    """The category a query asks for ("coffee shops", "Gas", "museums"), if any."""
    q = normalize_query(q)
    forms = {q, singular(q), " ".join(singular(x) for x in q.split())}
    for category, words in SYNONYMS.items():
        if forms & set(words):
            return category
    return None


def pseudo_km(key: str) -> float:
    """A stable, made-up distance for a leg between places whose distance is unknown."""
    return 0.8 + (zlib.crc32(key.encode()) % 140) / 10


# ===================================================================== the app
class MapsApp(App):
    model = "maps"
    package = PKG
    label = "Maps"
    activity = ACTIVITY
    home = "main"

    # ------------------------------------------------------------ reading
    def setting_of(self, ctx: Ctx, name: str) -> Any:
        value = ctx.setting(name)
        return SETTING_DEFAULTS.get(name) if value is None else value

    def place(self, ctx: Ctx, name: Any) -> dict[str, Any] | None:
        return ctx.find("places", lambda p: p.get("name") == name)

    def saved_entry(self, ctx: Ctx, name: Any) -> dict[str, Any] | None:
        return ctx.find("saved", lambda s: s.get("place") == name)

    def search(self, ctx: Ctx, query: str, category: str | None = None) -> list[dict[str, Any]]:
        """The places a search finds, most relevant first: a chip's category, or a typed
        query matching a category, a name or an address."""
        places = ctx.records("places")
        if category is not None:
            found = [p for p in places if p.get("category") == category]
            q = ""
        else:
            q = normalize_query(query)
            if not q:
                return []
            wanted = query_category(q)
            found = [
                p
                for p in places
                if (wanted is not None and p.get("category") == wanted)
                or q in str(p.get("name") or "").casefold()
                or q in str(p.get("address") or "").casefold()
            ]

        def relevance(p: dict[str, Any]) -> tuple[int, float, int, str]:
            name = str(p.get("name") or "").casefold()
            exact = 0 if q and name == q else 1 if q and name.startswith(q) else 2
            return (exact, -float(p.get("rating") or 0), -int(p.get("reviews") or 0), name)

        return sorted(found, key=relevance)

    def filtered(
        self, ctx: Ctx, route: Route, places: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        if route.arg("open_now"):
            places = [p for p in places if is_open_now(p, ctx.now)]
        least = float(route.arg("min_rating") or 0)
        if least:
            places = [p for p in places if float(p.get("rating") or 0) >= least]
        if route.arg("sort") == "distance":
            places = sorted(
                places,
                key=lambda p: (p.get("distance_km") is None, float(p.get("distance_km") or 0)),
            )
        return places

    def route_record(self, ctx: Ctx, route: Route | None) -> dict[str, Any] | None:
        if route is None:
            return None
        n = route.arg("n")
        records = ctx.records("routes")
        return records[n] if isinstance(n, int) and 0 <= n < len(records) else None

    def leg_km(self, ctx: Ctx, a: str, b: str) -> float:
        for here, there in ((a, b), (b, a)):
            if here == YOUR_LOCATION:
                if there == YOUR_LOCATION:
                    return 0.0
                p = self.place(ctx, there)
                if p is not None and p.get("distance_km") is not None:
                    return float(p["distance_km"])
                return pseudo_km(there)
        return pseudo_km(f"{min(a, b)}|{max(a, b)}")

    def trip_km(self, ctx: Ctx, record: dict[str, Any]) -> float:
        points = [
            str(record.get("origin") or YOUR_LOCATION),
            *[str(s) for s in record.get("stops") or []],
            str(record.get("destination") or ""),
        ]
        return sum(self.leg_km(ctx, a, b) for a, b in itertools.pairwise(points))

    def trip_minutes(self, ctx: Ctx, record: dict[str, Any], mode: str) -> int:
        km = self.trip_km(ctx, record)
        speed, wait = next((s, m) for name, _, s, m in MODES if name == mode)
        return max(1, math.ceil(km / speed * 60) + wait)

    # ------------------------------------------------------------ small views
    def image_button(
        self, desc: str, key: str | None, arg: Any = None, rid: str = "", weight: float = 0.15
    ) -> View:
        return View(
            w.IMAGE_BUTTON,
            desc=desc,
            rid=self.rid(rid) if rid else "",
            clickable=key is not None,
            focusable=True,
            on_click=key,
            arg=arg,
            weight=weight,
        )

    def back_button(self) -> View:
        return self.image_button("Back", "sys:up", weight=0.14)

    def chip(
        self, label: str, key: str, arg: Any = None, selected: bool = False, weight: float = 1.0
    ) -> View:
        return View(
            w.BUTTON,
            text=label,
            desc=label,
            rid=self.rid("chip"),
            clickable=True,
            focusable=True,
            selected=selected,
            checkable=False,
            on_click=key,
            arg=arg,
            weight=weight,
        )

    def menu(self, items: list[tuple[str, str, Any]], title: str = "") -> Dialog:
        rows = [
            View(
                w.LINEAR,
                clickable=True,
                focusable=True,
                height=130,
                on_click=key,
                arg=arg,
                children=[View(w.TEXT, text=label, rid="android:id/title")],
            )
            for label, key, arg in items
        ]
        return Dialog(title=title, items=rows)

    def choices(self, title: str, options: list[tuple[Any, str]], current: Any, key: str) -> Dialog:
        rows = [
            View(
                w.RADIO,
                text=label,
                rid="android:id/text1",
                checkable=True,
                checked=value == current,
                clickable=True,
                focusable=True,
                height=130,
                on_click=key,
                arg=value,
            )
            for value, label in options
        ]
        return Dialog(title=title, items=rows, buttons=[("Cancel", None, None)])

    def tabs(self, current: str) -> list[View]:
        return [
            View(
                w.LINEAR,
                desc=label,
                rid=self.rid(f"{key}_tab"),
                clickable=True,
                focusable=True,
                selected=key == current,
                on_click="tab",
                arg=key,
                children=[View(w.TEXT, text=label, rid=self.rid("tab_label"))],
            )
            for key, label in (("explore", "Explore"), ("go", "Go"), ("saved", "Saved"))
        ]

    def pref_row(
        self, title: str, key: str | None, summary: str | None = None, arg: Any = None
    ) -> View:
        children = [View(w.TEXT, text=title, rid="android:id/title", height=90)]
        if summary is not None:
            children.append(View(w.TEXT, text=summary, rid="android:id/summary", height=70))
        return View(
            w.LINEAR,
            clickable=key is not None,
            focusable=key is not None,
            on_click=key,
            arg=arg,
            height=180 if summary is not None else 150,
            children=children,
        )

    def switch_row(self, title: str, name: str, on: bool) -> View:
        return View(
            w.LINEAR,
            horizontal=True,
            clickable=True,
            focusable=True,
            on_click="toggle_setting",
            arg=name,
            height=150,
            children=[
                View(w.TEXT, text=title, rid="android:id/title", weight=0.8),
                View(
                    w.SWITCH,
                    rid="android:id/switch_widget",
                    checkable=True,
                    checked=on,
                    clickable=True,
                    focusable=True,
                    on_click="toggle_setting",
                    arg=name,
                    weight=0.2,
                ),
            ],
        )

    def rating_views(self, place: dict[str, Any]) -> list[View]:
        rating = rating_text(place.get("rating"))
        count = int(place.get("reviews") or 0)
        if not count:
            return [View(w.TEXT, text="No reviews", rid=self.rid("review_count"), weight=0.4)]
        return [
            View(w.TEXT, text=rating, rid=self.rid("rating"), weight=0.12),
            View(w.IMAGE, desc=f"{rating} stars", rid=self.rid("rating_stars"), weight=0.25),
            View(
                w.TEXT,
                text=reviews_text(count),
                desc=f"{count:,} reviews",
                rid=self.rid("review_count"),
                weight=0.25,
            ),
        ]

    def detail_views(self, ctx: Ctx, place: dict[str, Any]) -> list[View]:
        """Category, price and distance, side by side."""
        units = self.setting_of(ctx, "distance_units")
        views: list[View] = []
        category = CATEGORY_LABELS.get(str(place.get("category") or "other"), "")
        if category:
            views.append(View(w.TEXT, text=category, rid=self.rid("category"), weight=0.35))
        price = price_text(place.get("price_level"))
        if price:
            views.append(View(w.TEXT, text=price, rid=self.rid("price"), weight=0.15))
        distance = distance_text(place.get("distance_km"), units)
        if distance:
            views.append(View(w.TEXT, text=distance, rid=self.rid("distance"), weight=0.25))
        return views

    def result_row(self, ctx: Ctx, place: dict[str, Any]) -> View:
        name = str(place.get("name") or "")
        children = [
            View(w.TEXT, text=name, rid=self.rid("title"), height=90),
            View(w.LINEAR, horizontal=True, height=70, children=self.rating_views(place)),
        ]
        details = self.detail_views(ctx, place)
        if details:
            children.append(View(w.LINEAR, horizontal=True, height=70, children=details))
        status = open_status(place, ctx.now)
        if status:
            children.append(View(w.TEXT, text=status, rid=self.rid("open_status"), height=70))
        return View(
            w.RELATIVE,
            desc=name,
            clickable=True,
            focusable=True,
            on_click="open_place",
            arg=name,
            height=sum(w.natural_height(c) for c in children) + 40,
            children=children,
        )

    # ================================================================= screens: explore
    def search_bar(self, text: str | None, key: str, arg: Any = None) -> View:
        box = View(
            w.TEXT,
            text=text or SEARCH_HERE,
            rid=self.rid("search_omnibox_text_box"),
            clickable=True,
            focusable=True,
            on_click=key,
            arg=arg,
            weight=0.62,
        )
        return box

    def screen_main(self, ctx: Ctx, route: Route) -> Screen:
        bar = View(
            w.LINEAR,
            rid=self.rid("search_omnibox_container"),
            horizontal=True,
            height=150,
            children=[
                View(w.IMAGE, desc="Google Maps", rid=self.rid("search_omnibox_logo"), weight=0.12),
                self.search_bar(None, "open_search"),
                self.image_button(
                    "Voice search", "voice_search", rid="search_omnibox_voice_button"
                ),
                self.image_button(
                    "Account and settings", "account_menu", rid="search_omnibox_menu_button"
                ),
            ],
        )
        chip_rows = [
            View(
                w.LINEAR,
                rid=self.rid("chips_container"),
                horizontal=True,
                height=120,
                children=[self.chip(label, "chip_search", cat) for label, cat in CHIPS[i : i + 5]],
            )
            for i in (0, 5)
        ]
        tools = View(
            w.LINEAR,
            horizontal=True,
            height=150,
            children=[
                View(w.VIEW, weight=0.85),
                self.image_button("Layers", "layers", rid="layers_fab"),
            ],
        )
        map_type = self.setting_of(ctx, "map_type")
        desc = "Google Map" if map_type == "default" else f"Google Map, {map_type} view"
        if self.setting_of(ctx, "traffic_layer"):
            desc += ", traffic shown"
        screen = Screen(
            None,
            header=[bar, *chip_rows, tools],
            list_rid=self.rid("mainmap_container"),
            list_cls=w.FRAME,
            tabs=self.tabs("explore"),
        )
        screen.rows = [
            View(w.VIEW, desc=desc, rid=self.rid("map_frame"), height=1000),
            View(
                w.LINEAR,
                horizontal=True,
                height=170,
                children=[
                    View(w.VIEW, weight=0.8),
                    self.image_button(
                        "Re-center map to your location", "recenter", rid="mylocation_button"
                    ),
                ],
            ),
        ]
        return screen

    def screen_search(self, ctx: Ctx, route: Route) -> Screen:
        typed = ctx.form("query")
        field = View(
            w.EDIT,
            rid=self.rid("search_omnibox_edit_text"),
            edit="query",
            hint=SEARCH_HERE,
            on_enter="submit_search",
            weight=0.7,
        )
        bar = View(
            w.LINEAR,
            rid=self.rid("search_omnibox_container"),
            horizontal=True,
            height=150,
            children=[
                self.back_button(),
                field,
                self.image_button(
                    "Voice search", "voice_search", rid="search_omnibox_voice_button"
                ),
            ],
        )
        if typed:
            bar.children.insert(
                2, self.image_button("Clear search", "clear_query", rid="search_omnibox_clear")
            )
        screen = Screen(None, header=[bar], list_rid=self.rid("search_suggestions_list"))
        q = normalize_query(typed)
        if not q:
            history = sorted(
                ctx.records("recent_searches"),
                key=lambda r: str(r.get("searched_at") or ""),
                reverse=True,
            )
            rows: list[View] = []
            if history:
                rows.append(View(w.TEXT, text="Recent", rid=self.rid("header_text"), height=100))
            for r in history:
                query = str(r.get("query") or "")
                rows.append(
                    View(
                        w.LINEAR,
                        horizontal=True,
                        clickable=True,
                        long_clickable=True,
                        focusable=True,
                        on_click="history_search",
                        on_long="history_remove",
                        arg=query,
                        height=140,
                        children=[
                            View(w.IMAGE, desc="Recent search", weight=0.12),
                            View(
                                w.TEXT,
                                text=query,
                                rid=self.rid("search_history_item"),
                                weight=0.88,
                            ),
                        ],
                    )
                )
            screen.rows = rows
            return screen
        rows = []
        words: list[str] = []
        category = query_category(q)
        if category is not None:
            label = next((lbl for lbl, c in CHIPS if c == category), typed.strip())
            words.append(f"{label} near me")
        if len(q) >= 2:
            words += sorted(
                {x for xs in SYNONYMS.values() for x in xs if x.startswith(q) and x != q}
            )[:3]
        for word in words:
            rows.append(
                View(
                    w.LINEAR,
                    horizontal=True,
                    clickable=True,
                    focusable=True,
                    on_click="search_for",
                    arg=word,
                    height=140,
                    children=[
                        View(w.IMAGE, desc="Search", weight=0.12),
                        View(w.TEXT, text=word, rid=self.rid("suggestion_title"), weight=0.88),
                    ],
                )
            )
        for p in ctx.records("places"):
            name = str(p.get("name") or "")
            address = str(p.get("address") or "")
            if q not in name.casefold() and q not in address.casefold():
                continue
            rows.append(
                View(
                    w.LINEAR,
                    clickable=True,
                    focusable=True,
                    on_click="suggestion",
                    arg=name,
                    height=170,
                    children=[
                        View(w.TEXT, text=name, rid=self.rid("suggestion_title"), height=90),
                        View(w.TEXT, text=address, rid=self.rid("suggestion_subtitle"), height=70),
                    ],
                )
            )
        screen.rows = rows[:8]
        return screen

    def screen_results(self, ctx: Ctx, route: Route) -> Screen:
        query = str(route.arg("query") or "")
        category = route.arg("category")
        found = self.filtered(ctx, route, self.search(ctx, query, category))
        bar = View(
            w.LINEAR,
            rid=self.rid("search_omnibox_container"),
            horizontal=True,
            height=150,
            children=[
                self.back_button(),
                self.search_bar(query, "edit_search", query),
                self.image_button("Clear search", "close_search", rid="search_omnibox_clear"),
            ],
        )
        least = float(route.arg("min_rating") or 0)
        sort = str(route.arg("sort") or "relevance")
        chips = View(
            w.LINEAR,
            rid=self.rid("filter_chips"),
            horizontal=True,
            height=120,
            children=[
                self.chip("Open now", "toggle_open_now", selected=bool(route.arg("open_now"))),
                self.chip(
                    f"{least:.1f}+" if least else "Rating", "rating_filter", selected=bool(least)
                ),
                self.chip(
                    "Sort by" if sort == "relevance" else "Distance",
                    "sort_filter",
                    selected=sort != "relevance",
                ),
            ],
        )
        screen = Screen(
            None,
            header=[bar, chips],
            list_rid=self.rid("search_list_layout"),
        )
        if not found:
            screen.rows = [
                w.text_row(
                    f"Google Maps can't find {query}",
                    self.rid("no_results_text"),
                    height=200,
                )
            ]
            return screen
        screen.rows = [self.result_row(ctx, p) for p in found]
        return screen

    def screen_place(self, ctx: Ctx, route: Route) -> Screen:
        name = str(route.arg("name") or "")
        place = self.place(ctx, name)
        bar = View(
            w.LINEAR,
            rid=self.rid("search_omnibox_container"),
            horizontal=True,
            height=150,
            children=[
                self.back_button(),
                View(w.TEXT, text=name, rid=self.rid("search_omnibox_text_box"), weight=0.7),
                self.image_button("Close", "close_search", weight=0.14),
            ],
        )
        screen = Screen(None, header=[bar], list_rid=self.rid("placesheet_recycler_view"))
        if place is None:
            screen.rows = [w.text_row("This place is no longer available", height=160)]
            return screen
        saved = self.saved_entry(ctx, name)
        rows: list[View] = [
            View(w.TEXT, text=name, rid=self.rid("title"), height=120),
            View(w.LINEAR, horizontal=True, height=80, children=self.rating_views(place)),
        ]
        details = self.detail_views(ctx, place)
        if details:
            rows.append(View(w.LINEAR, horizontal=True, height=80, children=details))
        status = open_status(place, ctx.now)
        if status:
            rows.append(View(w.TEXT, text=status, rid=self.rid("open_status"), height=80))
        buttons = [
            View(
                w.BUTTON,
                text="Directions",
                desc=f"Directions to {name}",
                rid=self.rid("directions_button"),
                clickable=True,
                focusable=True,
                on_click="directions",
                arg=name,
            )
        ]
        if place.get("phone"):
            buttons.append(
                View(
                    w.BUTTON,
                    text="Call",
                    desc=f"Call {name}",
                    rid=self.rid("call_button"),
                    clickable=True,
                    focusable=True,
                    on_click="call",
                    arg=name,
                )
            )
        buttons += [
            View(
                w.BUTTON,
                text="Saved" if saved is not None else "Save",
                desc=f"Saved in {LIST_LABELS.get(str(saved.get('list_name')), 'a list')}"
                if saved is not None
                else f"Save {name}",
                rid=self.rid("save_button"),
                clickable=True,
                focusable=True,
                on_click="save",
                arg=name,
            ),
            View(
                w.BUTTON,
                text="Share",
                desc=f"Share {name}",
                rid=self.rid("share_button"),
                clickable=True,
                focusable=True,
                on_click="share",
                arg=name,
            ),
        ]
        rows.append(
            View(
                w.LINEAR,
                rid=self.rid("action_buttons"),
                horizontal=True,
                height=150,
                children=buttons,
            )
        )
        if saved is not None:
            label = LIST_LABELS.get(str(saved.get("list_name")), "")
            rows.append(
                View(w.TEXT, text=f"Saved in {label}", rid=self.rid("saved_label"), height=90)
            )
            if saved.get("note"):
                rows.append(
                    View(w.TEXT, text=str(saved["note"]), rid=self.rid("saved_note"), height=90)
                )
        info: list[tuple[str, str, str, str | None]] = []  # text, desc, rid, key
        if place.get("address"):
            address = str(place["address"])
            info.append((address, f"Address: {address}", "address", "copy_address"))
        hours = hours_text(place)
        if hours:
            info.append((hours, hours, "hours", None))
        if place.get("website"):
            site = str(place["website"])
            shown = site.removeprefix("https://").removeprefix("http://").removeprefix("www.")
            info.append((shown, f"Website: {shown}", "website", None))
        if place.get("phone"):
            phone = str(place["phone"])
            info.append((phone, f"Phone: {phone}", "phone", "call"))
        for text, desc, rid, key in info:
            rows.append(
                View(
                    w.LINEAR,
                    horizontal=True,
                    desc=desc,
                    clickable=key is not None,
                    focusable=True,
                    on_click=key,
                    arg=name,
                    height=140,
                    children=[
                        View(w.IMAGE, weight=0.12),
                        View(w.TEXT, text=text, rid=self.rid(f"{rid}_text"), weight=0.88),
                    ],
                )
            )
        screen.rows = rows
        return screen

    # ================================================================= screens: go, saved
    def screen_go(self, ctx: Ctx, route: Route) -> Screen:
        screen = Screen("Go", list_rid=self.rid("go_tab_list"), tabs=self.tabs("go"))
        records = ctx.records("routes")
        rows: list[View] = []
        for n in range(len(records) - 1, -1, -1):
            r = records[n]
            mode = str(r.get("mode") or "driving")
            rows.append(
                View(
                    w.LINEAR,
                    clickable=True,
                    focusable=True,
                    on_click="open_route",
                    arg=n,
                    height=200,
                    children=[
                        View(
                            w.TEXT,
                            text=str(r.get("destination") or ""),
                            rid=self.rid("recent_route_destination"),
                            height=90,
                        ),
                        View(
                            w.TEXT,
                            text=f"From {r.get('origin') or YOUR_LOCATION} · {mode.capitalize()}",
                            rid=self.rid("recent_route_details"),
                            height=70,
                        ),
                    ],
                )
            )
        if not rows:
            screen.header = [
                w.text_row(
                    "Directions you get will show up here", self.rid("empty_text"), height=160
                )
            ]
        else:
            screen.header = [
                View(w.TEXT, text="Recent directions", rid=self.rid("header_text"), height=110)
            ]
        screen.rows = rows
        return screen

    def screen_saved(self, ctx: Ctx, route: Route) -> Screen:
        counts = {key: 0 for key, _ in LISTS}
        for s in ctx.records("saved"):
            key = str(s.get("list_name") or "favorites")
            counts[key] = counts.get(key, 0) + 1
        screen = Screen("Saved", list_rid=self.rid("lists_list"), tabs=self.tabs("saved"))
        screen.header = [View(w.TEXT, text="Your lists", rid=self.rid("header_text"), height=110)]
        screen.rows = [
            View(
                w.LINEAR,
                horizontal=True,
                clickable=True,
                focusable=True,
                on_click="open_list",
                arg=key,
                height=180,
                children=[
                    View(w.IMAGE, desc=label, weight=0.15),
                    View(
                        w.LINEAR,
                        weight=0.85,
                        children=[
                            View(w.TEXT, text=label, rid=self.rid("list_title"), height=90),
                            View(
                                w.TEXT,
                                text=f"Private · {counts[key]} "
                                + ("place" if counts[key] == 1 else "places"),
                                rid=self.rid("list_subtitle"),
                                height=70,
                            ),
                        ],
                    ),
                ],
            )
            for key, label in LISTS
        ]
        return screen

    def screen_list(self, ctx: Ctx, route: Route) -> Screen:
        key = str(route.arg("list") or "favorites")
        entries = [s for s in ctx.records("saved") if s.get("list_name") == key]
        screen = Screen(
            LIST_LABELS.get(key, key),
            up=True,
            list_rid=self.rid("saved_list"),
            actions=[self.image_button("Share list", "share_list", key, rid="share_list")],
        )
        count = len(entries)
        header = [
            w.text_row(
                f"Private · {count} " + ("place" if count == 1 else "places"),
                self.rid("list_subtitle"),
                height=90,
            )
        ]
        if not entries:
            header.append(
                w.text_row("Save places to find them here", self.rid("empty_text"), height=140)
            )
        screen.header = header
        # only the place names are TextViews in the list (the device probe reads them)
        screen.rows = [
            View(
                w.LINEAR,
                horizontal=True,
                clickable=True,
                long_clickable=True,
                focusable=True,
                desc=str(s.get("place") or ""),
                on_click="open_place",
                on_long="saved_menu",
                arg=s.get("place"),
                height=160,
                children=[
                    View(
                        w.TEXT, text=str(s.get("place") or ""), rid=self.rid("title"), weight=0.85
                    ),
                    self.image_button("More options", "saved_menu", s.get("place")),
                ],
            )
            for s in entries
        ]
        return screen

    # ================================================================= screens: directions
    def screen_directions(self, ctx: Ctx, route: Route) -> Screen:
        record = self.route_record(ctx, route)
        screen = Screen(None, list_rid=self.rid("directions_trip_list"))
        if record is None:
            screen.header = [
                View(w.LINEAR, horizontal=True, height=150, children=[self.back_button()])
            ]
            screen.rows = [w.text_row("No route", height=160)]
            return screen
        n = route.arg("n")
        origin = str(record.get("origin") or YOUR_LOCATION)
        destination = str(record.get("destination") or "")
        stops = [str(s) for s in record.get("stops") or []]
        mode = str(record.get("mode") or "driving")
        header: list[View] = [
            View(
                w.LINEAR,
                horizontal=True,
                height=140,
                children=[
                    self.back_button(),
                    View(
                        w.TEXT,
                        text=origin,
                        rid=self.rid("directions_startpoint_textbox"),
                        clickable=True,
                        focusable=True,
                        on_click="choose",
                        arg=(n, "origin"),
                        weight=0.7,
                    ),
                    self.image_button("More options", "directions_menu", n, weight=0.14),
                ],
            )
        ]
        for i, stop in enumerate(stops):
            header.append(
                View(
                    w.LINEAR,
                    horizontal=True,
                    height=130,
                    children=[
                        View(w.VIEW, weight=0.14),
                        View(w.TEXT, text=stop, rid=self.rid("directions_waypoint"), weight=0.7),
                        self.image_button("Remove stop", "remove_stop", (n, i), weight=0.14),
                    ],
                )
            )
        header.append(
            View(
                w.LINEAR,
                horizontal=True,
                height=140,
                children=[
                    View(w.VIEW, weight=0.14),
                    View(
                        w.TEXT,
                        text=destination or "Choose destination",
                        rid=self.rid("directions_destination"),
                        clickable=True,
                        focusable=True,
                        on_click="choose",
                        arg=(n, "destination"),
                        weight=0.7,
                    ),
                    self.image_button(
                        "Swap start and destination", "swap", n, rid="swap_button", weight=0.14
                    ),
                ],
            )
        )
        header.append(
            View(
                w.LINEAR,
                rid=self.rid("directions_mode_tabs"),
                horizontal=True,
                height=130,
                children=[
                    View(
                        w.LINEAR,
                        desc=f"{desc}: {duration_text(self.trip_minutes(ctx, record, name))}",
                        clickable=True,
                        focusable=True,
                        selected=name == mode,
                        on_click="set_mode",
                        arg=(n, name),
                        children=[
                            View(
                                w.TEXT,
                                text=duration_text(self.trip_minutes(ctx, record, name)),
                                rid=self.rid("mode_duration"),
                            )
                        ],
                    )
                    for name, desc, _, _ in MODES
                ],
            )
        )
        screen.header = header
        minutes = self.trip_minutes(ctx, record, mode)
        km = self.trip_km(ctx, record)
        units = self.setting_of(ctx, "distance_units")
        rows = [
            View(
                w.LINEAR,
                rid=self.rid("trip_summary"),
                height=200,
                children=[
                    View(
                        w.TEXT,
                        text=f"{duration_text(minutes)} ({distance_text(km, units)})",
                        rid=self.rid("trip_duration"),
                        height=100,
                    ),
                    View(
                        w.TEXT,
                        text="Fastest route, the usual traffic"
                        if mode == "driving"
                        else f"Best {mode} route",
                        rid=self.rid("trip_description"),
                        height=80,
                    ),
                ],
            )
        ]
        avoid = [
            label
            for name, label in (("avoid_highways", "highways"), ("avoid_tolls", "tolls"))
            if self.setting_of(ctx, name)
        ]
        if avoid and mode == "driving":
            rows.append(
                w.text_row(f"Avoids {' and '.join(avoid)}", self.rid("trip_notice"), height=90)
            )
        screen.rows = rows
        screen.footer = [
            View(
                w.LINEAR,
                horizontal=True,
                height=160,
                children=[
                    View(
                        w.BUTTON,
                        text="Start",
                        desc=f"Start {mode} navigation",
                        rid=self.rid("start_button"),
                        clickable=bool(destination),
                        focusable=True,
                        enabled=bool(destination),
                        on_click="start",
                        arg=n,
                        weight=0.5,
                    ),
                    View(
                        w.BUTTON,
                        text="Steps",
                        desc="Show steps",
                        rid=self.rid("steps_button"),
                        clickable=True,
                        focusable=True,
                        on_click="steps",
                        arg=n,
                        weight=0.5,
                    ),
                ],
            )
        ]
        return screen

    def screen_choose(self, ctx: Ctx, route: Route) -> Screen:
        which = str(route.arg("field") or "destination")
        hint = {
            "origin": "Choose start location",
            "destination": "Choose destination",
            "stop": "Add stop",
        }[which]
        bar = View(
            w.LINEAR,
            horizontal=True,
            height=150,
            children=[
                self.back_button(),
                View(
                    w.EDIT,
                    rid=self.rid("search_omnibox_edit_text"),
                    edit="query",
                    hint=hint,
                    on_enter="choose_enter",
                    weight=0.86,
                ),
            ],
        )
        screen = Screen(None, header=[bar], list_rid=self.rid("search_suggestions_list"))
        rows: list[View] = []
        if which != "stop":
            rows.append(self.choice_row(YOUR_LOCATION, "", YOUR_LOCATION))
        for p in self.choices_for(ctx, ctx.form("query")):
            name = str(p.get("name") or "")
            rows.append(self.choice_row(name, str(p.get("address") or ""), name))
        screen.rows = rows
        return screen

    def choices_for(self, ctx: Ctx, typed: str) -> list[dict[str, Any]]:
        q = normalize_query(typed)
        places = ctx.records("places")
        if not q:
            return sorted(places, key=lambda p: str(p.get("name") or "").casefold())
        wanted = query_category(q)
        return [
            p
            for p in places
            if q in str(p.get("name") or "").casefold()
            or q in str(p.get("address") or "").casefold()
            or (wanted is not None and p.get("category") == wanted)
        ]

    def choice_row(self, title: str, subtitle: str, value: str) -> View:
        children = [View(w.TEXT, text=title, rid=self.rid("suggestion_title"), height=90)]
        if subtitle:
            children.append(
                View(w.TEXT, text=subtitle, rid=self.rid("suggestion_subtitle"), height=70)
            )
        return View(
            w.LINEAR,
            clickable=True,
            focusable=True,
            on_click="chosen",
            arg=value,
            height=170 if subtitle else 130,
            children=children,
        )

    def screen_navigation(self, ctx: Ctx, route: Route) -> Screen:
        record = self.route_record(ctx, route)
        destination = str(record.get("destination") or "") if record else ""
        mode = str(record.get("mode") or "driving") if record else "driving"
        minutes = self.trip_minutes(ctx, record, mode) if record else 0
        km = self.trip_km(ctx, record) if record else 0.0
        arrival = (ctx.now + dt.timedelta(minutes=minutes)).time()
        units = self.setting_of(ctx, "distance_units")
        screen = Screen(None, list_rid=self.rid("navigation_container"), list_cls=w.FRAME)
        screen.header = [
            View(
                w.LINEAR,
                rid=self.rid("navigation_header"),
                height=220,
                children=[
                    View(
                        w.TEXT,
                        text=f"Head toward {destination}",
                        rid=self.rid("navigation_instruction"),
                        height=140,
                    ),
                    View(w.TEXT, text="Then", rid=self.rid("navigation_then"), height=80),
                ],
            )
        ]
        screen.rows = [View(w.VIEW, desc="Google Map", rid=self.rid("map_frame"), height=900)]
        screen.footer = [
            View(
                w.LINEAR,
                horizontal=True,
                height=180,
                children=[
                    View(
                        w.BUTTON,
                        text="Exit",
                        desc="Close navigation",
                        rid=self.rid("navigation_exit"),
                        clickable=True,
                        focusable=True,
                        on_click="exit_navigation",
                        weight=0.25,
                    ),
                    View(
                        w.LINEAR,
                        weight=0.75,
                        children=[
                            View(
                                w.TEXT,
                                text=duration_text(minutes),
                                rid=self.rid("navigation_eta_duration"),
                                height=90,
                            ),
                            View(
                                w.TEXT,
                                text=f"{distance_text(km, units)} · {clock_text(arrival)}",
                                rid=self.rid("navigation_eta_details"),
                                height=90,
                            ),
                        ],
                    ),
                ],
            )
        ]
        return screen

    def screen_steps(self, ctx: Ctx, route: Route) -> Screen:
        record = self.route_record(ctx, route)
        screen = Screen("Steps", up=True, list_rid=self.rid("directions_steps_list"))
        if record is None:
            return screen
        points = [
            str(record.get("origin") or YOUR_LOCATION),
            *[str(s) for s in record.get("stops") or []],
            str(record.get("destination") or ""),
        ]
        units = self.setting_of(ctx, "distance_units")
        rows = []
        for a, b in itertools.pairwise(points):
            rows.append(
                View(
                    w.LINEAR,
                    height=170,
                    children=[
                        View(w.TEXT, text=f"Head toward {b}", rid=self.rid("step_text"), height=90),
                        View(
                            w.TEXT,
                            text=f"From {a} · {distance_text(self.leg_km(ctx, a, b), units)}",
                            rid=self.rid("step_details"),
                            height=70,
                        ),
                    ],
                )
            )
        screen.rows = rows
        return screen

    # ================================================================= screens: settings
    def screen_settings(self, ctx: Ctx, route: Route) -> Screen:
        units = dict(UNITS).get(str(self.setting_of(ctx, "distance_units")), "Automatic")
        screen = Screen("Settings", up=True, list_rid=self.rid("recycler_view"))
        screen.rows = [
            self.pref_row("Edit home or work", "open_home_work"),
            self.pref_row("Distance units", "units_dialog", units),
            self.pref_row("Navigation settings", "open_nav_settings"),
            self.pref_row("Maps history", "open_history"),
            self.pref_row("About, terms & privacy", "about"),
        ]
        return screen

    def screen_home_work(self, ctx: Ctx, route: Route) -> Screen:
        screen = Screen("Edit home or work", up=True, list_rid=self.rid("recycler_view"))
        screen.rows = [
            self.pref_row(
                label,
                "edit_address",
                str(self.setting_of(ctx, f"{kind}_address") or "Set once and go"),
                kind,
            )
            for kind, label in (("home", "Home"), ("work", "Work"))
        ]
        return screen

    def screen_nav_settings(self, ctx: Ctx, route: Route) -> Screen:
        screen = Screen("Navigation settings", up=True, list_rid=self.rid("recycler_view"))
        screen.rows = [
            w.text_row("Route options", "android:id/title", height=100),
            self.switch_row(
                "Avoid highways", "avoid_highways", bool(self.setting_of(ctx, "avoid_highways"))
            ),
            self.switch_row(
                "Avoid tolls", "avoid_tolls", bool(self.setting_of(ctx, "avoid_tolls"))
            ),
        ]
        return screen

    def screen_history(self, ctx: Ctx, route: Route) -> Screen:
        history = sorted(
            ctx.records("recent_searches"),
            key=lambda r: str(r.get("searched_at") or ""),
            reverse=True,
        )
        screen = Screen(
            "Maps history",
            up=True,
            list_rid=self.rid("recycler_view"),
            actions=[self.image_button("Delete all", "clear_history" if history else None)],
        )
        rows = []
        for r in history:
            query = str(r.get("query") or "")
            rows.append(
                View(
                    w.LINEAR,
                    horizontal=True,
                    height=170,
                    children=[
                        View(
                            w.LINEAR,
                            weight=0.85,
                            children=[
                                View(
                                    w.TEXT,
                                    text=query,
                                    rid=self.rid("search_history_item"),
                                    height=90,
                                ),
                                View(
                                    w.TEXT,
                                    text=self.when_text(ctx, r.get("searched_at")),
                                    rid=self.rid("search_history_time"),
                                    height=70,
                                ),
                            ],
                        ),
                        self.image_button(f"Delete {query}", "history_remove", query),
                    ],
                )
            )
        if not rows:
            rows = [w.text_row("No history", self.rid("empty_text"), height=140)]
        screen.rows = rows
        return screen

    def when_text(self, ctx: Ctx, value: Any) -> str:
        try:
            moment = dt.datetime.fromisoformat(str(value)).replace(tzinfo=None)
        except ValueError:
            return ""
        if moment.date() == ctx.now.date():
            return f"Today · {clock_text(moment.time())}"
        return moment.strftime("%b %-d, %Y")

    # ================================================================= handlers: searching
    def focus(self, ctx: Ctx, route: Route, field: str) -> None:
        """A screen that opens with its field focused and the keyboard up."""
        ctx.phone.focus = (route.id, field)
        ctx.phone.keyboard = True

    def on_open_search(self, ctx: Ctx, arg: Any) -> None:
        self.focus(ctx, ctx.push("search"), "query")

    def on_edit_search(self, ctx: Ctx, arg: Any) -> None:
        route = ctx.push("search")
        if arg:
            ctx.set_form("query", str(arg), route)
        self.focus(ctx, route, "query")

    def on_voice_search(self, ctx: Ctx, arg: Any) -> None:
        ctx.toast("Voice search needs microphone access")

    def on_clear_query(self, ctx: Ctx, arg: Any) -> None:
        if ctx.route is not None:
            ctx.phone.forms.get(ctx.route.id, {}).pop("query", None)
            self.focus(ctx, ctx.route, "query")

    def on_submit_search(self, ctx: Ctx, arg: Any) -> None:
        typed = ctx.form("query").strip()
        if not typed:
            return
        self.run_search(ctx, typed, None)

    def on_history_search(self, ctx: Ctx, arg: Any) -> None:
        self.run_search(ctx, str(arg), None)

    def on_search_for(self, ctx: Ctx, arg: Any) -> None:
        self.run_search(ctx, str(arg), None)

    def on_chip_search(self, ctx: Ctx, arg: Any) -> None:
        label = next((lbl for lbl, c in CHIPS if c == arg), str(arg))
        self.run_search(ctx, label, str(arg))

    def on_suggestion(self, ctx: Ctx, arg: Any) -> None:
        self.remember(ctx, str(arg))
        ctx.hide_keyboard()
        ctx.back_to("main")
        ctx.push("place", name=str(arg))

    def run_search(self, ctx: Ctx, query: str, category: str | None) -> None:
        self.remember(ctx, query)
        ctx.hide_keyboard()
        found = self.search(ctx, query, category)
        ctx.back_to("main")
        if len(found) == 1 and category is None:
            ctx.push("place", name=found[0]["name"])
            return
        args: dict[str, Any] = {"query": query}
        if category is not None:
            args["category"] = category
        ctx.push("results", **args)

    def remember(self, ctx: Ctx, query: str) -> None:
        """Record a search; one already in the history moves to the top."""
        now = stamp(ctx.now)
        old = ctx.find(
            "recent_searches",
            lambda r: str(r.get("query") or "").casefold() == query.casefold(),
        )
        if old is None:
            ctx.add("recent_searches", {"query": query, "searched_at": now})
        elif old.get("searched_at") != now:
            ctx.update("recent_searches", old, searched_at=now)

    def on_history_remove(self, ctx: Ctx, arg: Any) -> None:
        ctx.dialog(
            Dialog(
                title="Remove from history?",
                message=f"“{arg}” will be removed from your Maps history.",
                buttons=[("Remove", "history_removed", arg), ("Cancel", None, None)],
            )
        )

    def on_history_removed(self, ctx: Ctx, arg: Any) -> None:
        for r in list(ctx.records("recent_searches")):
            if r.get("query") == arg:
                ctx.delete("recent_searches", r)

    def on_clear_history(self, ctx: Ctx, arg: Any) -> None:
        ctx.dialog(
            Dialog(
                title="Delete all Maps history?",
                message="Your searches will be removed from Maps.",
                buttons=[("Delete", "history_cleared", None), ("Cancel", None, None)],
            )
        )

    def on_history_cleared(self, ctx: Ctx, arg: Any) -> None:
        for r in list(ctx.records("recent_searches")):
            ctx.delete("recent_searches", r)

    def on_close_search(self, ctx: Ctx, arg: Any) -> None:
        ctx.hide_keyboard()
        ctx.back_to("main")

    # filters ------------------------------------------------------------------
    def refilter(self, ctx: Ctx, **changes: Any) -> None:
        route = ctx.route
        if route is None or route.screen != "results":
            return
        args = {**dict(route.args), **changes}
        ctx.replace("results", **{k: v for k, v in args.items() if v not in (None, False, 0.0)})

    def on_toggle_open_now(self, ctx: Ctx, arg: Any) -> None:
        route = ctx.route
        self.refilter(ctx, open_now=not (route is not None and route.arg("open_now")))

    def on_rating_filter(self, ctx: Ctx, arg: Any) -> None:
        current = float(ctx.route.arg("min_rating") or 0) if ctx.route is not None else 0.0
        ctx.dialog(self.choices("Rating", list(RATINGS), current, "set_min_rating"))

    def on_set_min_rating(self, ctx: Ctx, arg: Any) -> None:
        self.refilter(ctx, min_rating=float(arg))

    def on_sort_filter(self, ctx: Ctx, arg: Any) -> None:
        current = str(ctx.route.arg("sort") or "relevance") if ctx.route is not None else ""
        ctx.dialog(self.choices("Sort by", list(SORTS), current, "set_sort"))

    def on_set_sort(self, ctx: Ctx, arg: Any) -> None:
        self.refilter(ctx, sort=None if arg == "relevance" else str(arg))

    # ================================================================= handlers: explore
    def on_tab(self, ctx: Ctx, arg: Any) -> None:
        ctx.hide_keyboard()
        current = ctx.route.screen if ctx.route is not None else "main"
        if arg == "explore":
            ctx.back_to("main")
        elif current == "main":
            ctx.push(str(arg))
        elif current != arg:
            ctx.replace(str(arg))

    def on_account_menu(self, ctx: Ctx, arg: Any) -> None:
        ctx.dialog(self.menu([("Settings", "open_settings", None)]))

    def on_open_settings(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("settings")

    def on_layers(self, ctx: Ctx, arg: Any) -> None:
        current = self.setting_of(ctx, "map_type")
        items = [
            View(
                w.RADIO,
                text=label,
                rid=self.rid("map_type"),
                checkable=True,
                checked=value == current,
                clickable=True,
                focusable=True,
                height=130,
                on_click="set_map_type",
                arg=value,
            )
            for value, label in MAP_TYPES
        ]
        items.append(View(w.TEXT, text="Map details", rid=self.rid("header_text"), height=100))
        items.append(
            View(
                w.CHECKBOX,
                text="Traffic",
                rid=self.rid("traffic_layer"),
                checkable=True,
                checked=bool(self.setting_of(ctx, "traffic_layer")),
                clickable=True,
                focusable=True,
                height=130,
                on_click="toggle_setting",
                arg="traffic_layer",
            )
        )
        ctx.dialog(Dialog(title="Map type", items=items))

    def on_set_map_type(self, ctx: Ctx, arg: Any) -> None:
        if self.setting_of(ctx, "map_type") != arg:
            ctx.set("map_type", str(arg))

    def on_recenter(self, ctx: Ctx, arg: Any) -> None:
        ctx.toast("Showing your location")

    # ================================================================= handlers: places
    def on_open_place(self, ctx: Ctx, arg: Any) -> None:
        ctx.hide_keyboard()
        ctx.push("place", name=str(arg))

    def on_copy_address(self, ctx: Ctx, arg: Any) -> None:
        ctx.toast("Copied to clipboard")

    def on_call(self, ctx: Ctx, arg: Any) -> None:
        place = self.place(ctx, arg)
        if place is None or not place.get("phone"):
            return
        if "phone" in ctx.phone.apps:
            ctx.open("phone", "dialpad", number=str(place["phone"]))
        else:
            ctx.toast("No app can perform this action")

    def on_save(self, ctx: Ctx, arg: Any) -> None:
        entry = self.saved_entry(ctx, arg)
        current = entry.get("list_name") if entry is not None else None
        items = [
            View(
                w.CHECKBOX,
                text=label,
                rid=self.rid("list_checkbox"),
                checkable=True,
                checked=key == current,
                clickable=True,
                focusable=True,
                height=140,
                on_click="save_to",
                arg=(arg, key),
            )
            for key, label in LISTS
        ]
        ctx.dialog(Dialog(title="Save to list", items=items, buttons=[("Done", None, None)]))

    def on_save_to(self, ctx: Ctx, arg: Any) -> None:
        name, key = arg
        label = LIST_LABELS[key]
        entry = self.saved_entry(ctx, name)
        if entry is None:
            ctx.add("saved", {"place": name, "list_name": key, "note": None})
            ctx.toast(f"Saved to {label}")
        elif entry.get("list_name") == key:
            ctx.delete("saved", entry)
            ctx.toast(f"Removed from {label}")
        else:
            ctx.update("saved", entry, list_name=key)
            ctx.toast(f"Saved to {label}")

    def on_share(self, ctx: Ctx, arg: Any) -> None:
        items = [
            View(
                w.LINEAR,
                clickable=True,
                focusable=True,
                on_click=key,
                arg=arg,
                height=150,
                children=[
                    View(w.IMAGE, desc=label, weight=0.2),
                    View(w.TEXT, text=label, rid="android:id/text1", weight=0.8),
                ],
            )
            for label, key in (("Messages", "share_messages"), ("Copy", "share_copy"))
        ]
        place = self.place(ctx, arg)
        message = str(place.get("address") or "") if place else ""
        ctx.dialog(Dialog(title=f"Share {arg}", message=message, items=items))

    def share_text(self, ctx: Ctx, name: Any) -> str:
        place = self.place(ctx, name)
        if place is None:
            return str(name)
        address = str(place.get("address") or "")
        return f"{place['name']}\n{address}" if address else str(place["name"])

    def on_share_messages(self, ctx: Ctx, arg: Any) -> None:
        if "messages" not in ctx.phone.apps:
            ctx.toast("No app can perform this action")
            return
        ctx.open("messages", "new", body=self.share_text(ctx, arg))

    def on_share_copy(self, ctx: Ctx, arg: Any) -> None:
        ctx.toast("Copied to clipboard")

    # saved lists --------------------------------------------------------------
    def on_open_list(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("list", list=str(arg))

    def on_share_list(self, ctx: Ctx, arg: Any) -> None:
        ctx.toast("Make the list shared to send a link")

    def on_saved_menu(self, ctx: Ctx, arg: Any) -> None:
        entry = self.saved_entry(ctx, arg)
        if entry is None:
            return
        ctx.dialog(
            self.menu(
                [
                    ("Edit note" if entry.get("note") else "Add note", "note_dialog", arg),
                    ("Remove", "remove_saved", arg),
                ],
                title=str(arg),
            )
        )

    def on_note_dialog(self, ctx: Ctx, arg: Any) -> None:
        entry = self.saved_entry(ctx, arg)
        if entry is None or ctx.route is None:
            return
        ctx.set_form("note", str(entry.get("note") or ""))
        field = View(
            w.EDIT,
            rid=self.rid("note_text"),
            edit="note",
            hint="Add a note",
            height=160,
        )
        ctx.dialog(
            Dialog(
                title="Note",
                items=[field],
                buttons=[("Save", "note_saved", arg), ("Cancel", None, None)],
            )
        )

    def on_note_saved(self, ctx: Ctx, arg: Any) -> None:
        entry = self.saved_entry(ctx, arg)
        if entry is None:
            return
        note = ctx.form("note").strip() or None
        ctx.hide_keyboard()
        if entry.get("note") != note:
            ctx.update("saved", entry, note=note)

    def on_remove_saved(self, ctx: Ctx, arg: Any) -> None:
        entry = self.saved_entry(ctx, arg)
        if entry is not None:
            label = LIST_LABELS.get(str(entry.get("list_name")), "the list")
            ctx.delete("saved", entry)
            ctx.toast(f"Removed from {label}")

    # ================================================================= handlers: directions
    def on_directions(self, ctx: Ctx, arg: Any) -> None:
        n = len(ctx.records("routes"))
        ctx.add(
            "routes",
            {
                "origin": YOUR_LOCATION,
                "destination": str(arg),
                "stops": [],
                "mode": "driving",
                "started": False,
            },
        )
        ctx.push("directions", n=n)

    def on_open_route(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("directions", n=int(arg))

    def change_route(self, ctx: Ctx, n: Any, **changes: Any) -> None:
        records = ctx.records("routes")
        if not isinstance(n, int) or not 0 <= n < len(records):
            return
        record = records[n]
        if any(record.get(k) != v for k, v in changes.items()):
            ctx.update("routes", record, **changes)

    def on_set_mode(self, ctx: Ctx, arg: Any) -> None:
        n, mode = arg
        self.change_route(ctx, n, mode=mode)

    def on_swap(self, ctx: Ctx, arg: Any) -> None:
        record = self.route_record(ctx, ctx.route)
        if record is None:
            return
        origin = str(record.get("origin") or YOUR_LOCATION)
        destination = str(record.get("destination") or "")
        if not destination:
            return
        self.change_route(
            ctx,
            arg,
            origin=destination,
            destination=origin,
            stops=list(reversed(record.get("stops") or [])),
        )

    def on_directions_menu(self, ctx: Ctx, arg: Any) -> None:
        ctx.dialog(
            self.menu(
                [
                    ("Add stop", "add_stop", arg),
                    ("Route options", "route_options", arg),
                ]
            )
        )

    def on_add_stop(self, ctx: Ctx, arg: Any) -> None:
        self.focus(ctx, ctx.push("choose", n=arg, field="stop"), "query")

    def on_choose(self, ctx: Ctx, arg: Any) -> None:
        n, which = arg
        self.focus(ctx, ctx.push("choose", n=n, field=which), "query")

    def on_remove_stop(self, ctx: Ctx, arg: Any) -> None:
        n, i = arg
        record = self.route_record(ctx, ctx.route)
        if record is None:
            return
        stops = list(record.get("stops") or [])
        if 0 <= i < len(stops):
            del stops[i]
            self.change_route(ctx, n, stops=stops)

    def on_chosen(self, ctx: Ctx, arg: Any) -> None:
        route = ctx.route
        if route is None or route.screen != "choose":
            return
        n, which = route.arg("n"), str(route.arg("field"))
        record = self.route_record(ctx, route)
        ctx.hide_keyboard()
        if record is None:
            ctx.back()
            return
        value = str(arg)
        if which == "stop":
            self.change_route(ctx, n, stops=[*(record.get("stops") or []), value])
        else:
            self.change_route(ctx, n, **{which: value})
        ctx.back()

    def on_choose_enter(self, ctx: Ctx, arg: Any) -> None:
        found = self.choices_for(ctx, ctx.form("query"))
        if len(found) == 1:
            self.on_chosen(ctx, found[0]["name"])

    def on_route_options(self, ctx: Ctx, arg: Any) -> None:
        items = [
            View(
                w.CHECKBOX,
                text=label,
                rid=self.rid("route_option"),
                checkable=True,
                checked=bool(self.setting_of(ctx, name)),
                clickable=True,
                focusable=True,
                height=130,
                on_click="toggle_setting",
                arg=name,
            )
            for name, label in (
                ("avoid_highways", "Avoid highways"),
                ("avoid_tolls", "Avoid tolls"),
            )
        ]
        ctx.dialog(Dialog(title="Route options", items=items, buttons=[("Done", None, None)]))

    def on_start(self, ctx: Ctx, arg: Any) -> None:
        record = self.route_record(ctx, ctx.route)
        if record is None or not record.get("destination"):
            return
        self.change_route(ctx, arg, started=True)
        ctx.push("navigation", n=arg)

    def on_steps(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("steps", n=arg)

    def on_exit_navigation(self, ctx: Ctx, arg: Any) -> None:
        ctx.back()

    # ================================================================= handlers: settings
    def on_toggle_setting(self, ctx: Ctx, arg: Any) -> None:
        name = str(arg)
        ctx.set(name, not bool(self.setting_of(ctx, name)))

    def on_units_dialog(self, ctx: Ctx, arg: Any) -> None:
        ctx.dialog(
            self.choices(
                "Distance units",
                list(UNITS),
                self.setting_of(ctx, "distance_units"),
                "set_units",
            )
        )

    def on_set_units(self, ctx: Ctx, arg: Any) -> None:
        if self.setting_of(ctx, "distance_units") != arg:
            ctx.set("distance_units", str(arg))

    def on_open_home_work(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("home_work")

    def on_open_nav_settings(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("nav_settings")

    def on_open_history(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("history")

    def on_about(self, ctx: Ctx, arg: Any) -> None:
        ctx.toast("Google Maps 11.120")

    def on_edit_address(self, ctx: Ctx, arg: Any) -> None:
        kind = str(arg)
        ctx.set_form(f"{kind}_address", str(self.setting_of(ctx, f"{kind}_address") or ""))
        field = View(
            w.EDIT,
            rid=self.rid("address_edit_text"),
            edit=f"{kind}_address",
            hint=f"Enter {kind} address",
            height=160,
        )
        buttons: list[tuple[str, str | None, Any]] = [
            ("Save", "address_saved", kind),
            ("Cancel", None, None),
        ]
        if self.setting_of(ctx, f"{kind}_address"):
            buttons.append(("Remove", "address_removed", kind))
        ctx.dialog(Dialog(title=f"Edit {kind} address", items=[field], buttons=buttons))

    def on_address_saved(self, ctx: Ctx, arg: Any) -> None:
        kind = str(arg)
        value = ctx.form(f"{kind}_address").strip()
        ctx.hide_keyboard()
        if not value:
            ctx.toast("Enter an address")
            return
        if self.setting_of(ctx, f"{kind}_address") != value:
            ctx.set(f"{kind}_address", value)

    def on_address_removed(self, ctx: Ctx, arg: Any) -> None:
        ctx.set(f"{arg}_address", None)


APP = MapsApp
