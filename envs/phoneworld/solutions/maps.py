"""Reference solutions of the Google Maps tasks (and the cross-app task that starts in Maps)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from tasklang.envs.phoneworld.solutions.base import Driver, SolutionError, reference

LIST_ID = "search_list_layout"


def click(d: Driver, index: int) -> None:
    d.act({"action_type": "click", "index": index})


def maps_home(d: Driver) -> None:
    """Bring Maps to its home screen (the map with the "Search here" box)."""
    d.open("Maps")
    for _ in range(6):
        if d.has(rid="search_omnibox_text_box", text="Search here"):
            return
        d.back()
    d.need(rid="search_omnibox_text_box", text="Search here")


def km(text: str) -> float | None:
    """A shown distance in kilometres: "1.2 km", "400 m", "0.7 mi", "500 ft".

    >>> km("1.2 km"), km("400 m"), km("1.0 mi"), km("Open")
    (1.2, 0.4, 1.609344, None)
    """
    m = re.fullmatch(r"([\d.,]+)\s*(km|m|mi|ft)", text.strip())
    if m is None:
        return None
    value = float(m[1].replace(",", ""))
    return value * {"km": 1.0, "m": 0.001, "mi": 1.609344, "ft": 0.0003048}[m[2]]


@dataclass
class Row:
    name: str
    rating: float
    category: str
    km: float | None


def result_rows(d: Driver) -> list[Row]:
    """The search result rows on the screen (name, rating, category, distance)."""
    rows: list[Row] = []
    for v in d.observe().walk():
        if not v.rid.endswith(f":id/{LIST_ID}"):
            continue
        for row in v.children:
            texts: dict[str, str] = {}
            for c in row.walk():
                name = c.rid.rsplit("/", 1)[-1]
                if c.text and name and name not in texts:
                    texts[name] = c.text
            if "title" not in texts or row.bounds[3] <= row.bounds[1]:
                continue
            rows.append(
                Row(
                    name=texts["title"],
                    rating=float(texts.get("rating") or 0),
                    category=texts.get("category", ""),
                    km=km(texts.get("distance", "")),
                )
            )
    return rows


def all_results(d: Driver, limit: int = 12) -> list[Row]:
    """Every result of the search: read the list, scrolling down to its end."""
    seen: dict[str, Row] = {}
    for _ in range(limit):
        before = len(seen)
        for r in result_rows(d):
            seen.setdefault(r.name, r)
        listing = next((v for v in d.observe().walk() if v.rid.endswith(f":id/{LIST_ID}")), None)
        if listing is None or not listing.scrollable or (before and len(seen) == before):
            break
        d.scroll("down")
    return list(seen.values())


def search(d: Driver, query: str) -> None:
    """Type a query into the search box and run it."""
    d.tap(rid="search_omnibox_text_box")
    d.type(query, rid="search_omnibox_edit_text")
    d.enter()


def open_place(d: Driver, name: str) -> None:
    """Search for a place by name and open its sheet (a single match opens at once)."""
    maps_home(d)
    search(d, name)
    if d.has(text=name, rid="title") and d.has(text="Directions"):
        return
    click(d, d.scroll_to(text=name, rid="title"))
    d.need(text="Directions")


@reference("maps.place_address")
def place_address(d: Driver) -> None:
    place = d.params["place"]
    open_place(d, place["name"])
    shown = d.texts(rid="address_text")
    if not shown:
        raise SolutionError("the place sheet shows no address")
    d.answer(shown[0])


@reference("maps.save_best_cafe")
def save_best_cafe(d: Driver) -> None:
    limit = float(d.params["max_km"])
    maps_home(d)
    d.tap(text="Coffee", rid="chip")
    near = [
        r
        for r in all_results(d)
        if r.category == "Cafe" and r.km is not None and r.km <= limit + 1e-9
    ]
    if not near:
        raise SolutionError(f"no cafe within {limit} km")
    best = max(near, key=lambda r: (r.rating, -(r.km or 0)))
    click(d, d.scroll_to("up", text=best.name, rid="title"))
    d.tap(text="Save", rid="save_button")
    d.tap(text="Want to go")
    d.done()


@reference("cross.share_place_address")
def share_place_address(d: Driver) -> None:
    friend = d.params["friend"]
    place = d.params["place"]
    # who is the friend: look them up in Contacts first
    d.open("Contacts")
    click(d, d.scroll_to(text=friend["name"], rid="contact_name"))
    # the place, then its share sheet, to Messages
    open_place(d, place["name"])
    d.tap(text="Share", rid="share_button")
    d.tap(text="Messages")
    d.type(friend["name"], rid="new_conversation_address")
    click(d, d.scroll_to(text=friend["name"], rid="item_contact_name"))
    d.tap(desc="Send")
    d.done()
