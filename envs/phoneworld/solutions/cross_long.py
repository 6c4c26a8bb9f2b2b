"""Reference solutions of the longer cross-app workflows, which carry what one app shows into
another (a recipe's ingredients into a to-do list, an order's total into the expense log...)."""

from __future__ import annotations

import datetime as dt
import re

from tasklang.envs.phoneworld.solutions.base import Driver, SolutionError, reference
from tasklang.envs.phoneworld.solutions.calendar import pick_date, pick_reminder, pick_time
from tasklang.envs.phoneworld.solutions.cross_calendar import plan_of
from tasklang.envs.phoneworld.solutions.maps import click, open_place
from tasklang.envs.phoneworld.solutions.markor import open_folder, tap_row
from tasklang.envs.phoneworld.solutions.shopping import (
    child,
    find_card,
    groups,
    index_of,
    search,
)
from tasklang.envs.phoneworld.solutions.wechat import open_mini_program

_LONG_DATE = re.compile(r"([A-Z][a-z]+) (\d{1,2}), (\d{4})")


def bullets(d: Driver, rid: str, limit: int = 8) -> list[str]:
    """Every text of ``rid`` down a scrolled list (without a leading bullet), in order."""
    seen: list[str] = []
    for _ in range(limit):
        for t in d.texts(rid=rid):
            t = t.removeprefix("• ").strip()
            if t not in seen:
                seen.append(t)
        before = d.texts(rid=rid)
        d.scroll("down")
        if d.texts(rid=rid) == before:
            break
    return seen


@reference("cross.recipe_ingredients_to_tasks")
def recipe_ingredients_to_tasks(d: Driver) -> None:
    title, shop = d.params["dish"]["title"], str(d.params["shop"])
    click(d, d.scroll_to(text=title, rid="card_text_view_title"))
    d.scroll_to(rid="ingredient_text")
    items = bullets(d, "ingredient_text")
    if not items:
        raise SolutionError("the recipe lists no ingredient")
    d.open("Tasks")
    for item in items:
        d.tap(desc="Create new task")
        d.type(item, rid="title")
        d.back()  # the keyboard
        d.tap(rid="list_row")
        d.tap(text=shop, rid="list_name")
        d.tap(desc="Save")
    d.done()


def long_date(text: str) -> dt.date:
    """The date in "Order date May 9, 2026"."""
    m = _LONG_DATE.search(text)
    if m is None:
        raise SolutionError(f"no date in {text!r}")
    return dt.datetime.strptime(f"{m[1]} {m[2]} {m[3]}", "%B %d %Y").date()


def expense_day(d: Driver, day: dt.date) -> None:
    """Pick ``day`` in Pro Expense's date dialog (the entry's Date row)."""
    d.tap(rid="tv_date")
    month = f"{day:%B} {day.year}"
    for _ in range(24):
        shown = d.texts(rid="month_title")
        if shown == [month]:
            break
        now = dt.datetime.strptime(shown[0], "%B %Y").date() if shown else day
        d.tap(desc="Previous month" if now > day else "Next month")
    d.tap(desc=f"{day:%a}, {day:%b} {day.day}, {day.year}")
    d.tap(text="OK")


@reference("cross.order_total_to_expense")
def order_total_to_expense(d: Driver) -> None:
    pick, cat = d.params["pick"], d.params["cat"]
    d.tap(desc="You")
    d.tap(text="Your Orders")
    card = find_card(d, "order-card", order_item_title=str(pick["item"]))
    d.act({"action_type": "click", "index": index_of(d, card)})
    when = long_date(d.texts(rid="od-date")[0])
    number = d.texts(rid="od-order-id")[0].removeprefix("Order #").strip()
    d.scroll_to(rid="od-total")
    total = d.texts(rid="od-total")[0].split("$", 1)[1].replace(",", "")
    d.open("Pro Expense")
    d.tap(rid="fb_add")
    d.type(str(pick["label"]), rid="edt_name")
    d.type(total, rid="edt_amount")
    d.back()  # the keyboard
    d.tap(rid="tv_category")
    d.tap(text=str(cat["label"]), rid="tv_category_name")
    d.type(number, rid="edt_note")
    d.back()
    expense_day(d, when)
    d.tap(rid="btn_save")
    d.done()


def open_event(d: Driver, title: str) -> None:
    """Find an event with Simple Calendar's search and open it in the editor."""
    d.tap(desc="Search")
    d.type(title, rid="search_src_text")
    d.tap(text=title, rid="event_item_title")


def text_friend(d: Driver, name: str) -> None:
    """In Messages' new conversation (from a share sheet): pick the contact and send."""
    d.type(name, rid="new_conversation_address")
    click(d, d.scroll_to(text=name, rid="item_contact_name"))
    d.tap(desc="Send")


@reference("cross.event_place_to_message")
def event_place_to_message(d: Driver) -> None:
    title, friend = str(d.params["pick"]["title"]), str(d.params["friend"]["name"])
    open_event(d, title)
    place = d.texts(rid="event_location")
    if not place:
        raise SolutionError(f"{title} has no location")
    d.open("Maps")
    open_place(d, place[0])
    address = d.texts(rid="address_text")
    if not address:
        raise SolutionError("the place sheet shows no address")
    d.tap(text="Share", rid="share_button")
    d.tap(text="Messages")
    text_friend(d, friend)
    d.open("Calendar")
    if not d.has(rid="event_location"):
        if d.has(desc="Search"):
            open_event(d, title)
        else:
            d.tap(text=title, rid="event_item_title")
    d.type(address[0], rid="event_location")
    d.tap(desc="Save")
    d.done()


@reference("cross.recipe_copy_to_note")
def recipe_copy_to_note(d: Driver) -> None:
    dish, shelf = d.params["dish"], str(d.params["shelf"])
    click(d, d.scroll_to(text=str(dish["title"]), rid="card_text_view_title"))
    d.tap(desc="More options")
    d.tap(text="Share")
    d.tap(text="Copy")
    d.open("Markor")
    open_folder(d, shelf)
    stem = str(dish["file"]).removesuffix(".md")
    d.tap(rid="fab_add_new_item")
    d.type(stem, rid="new_file_dialog__name")
    if not d.has(text="Markdown", rid="new_file_dialog__type"):
        d.tap(rid="new_file_dialog__type")
        d.tap(text="Markdown")
    d.tap(text="OK")
    editor = "document__fragment__edit__highlighting_editor"
    d.type(f"{dish['heading']}\n\n", rid=editor)
    d.paste(rid=editor)
    d.tap(desc="Save")
    d.back()  # the keyboard
    d.back()  # the editor
    d.done()


def field(d: Driver, name: str) -> str:
    """The value of a mini program's "name: value" row on the screen."""
    for row in groups(d, "field-row"):
        key, value = child(row, "field-name"), child(row, "field-value")
        if key is not None and value is not None and key.text == name:
            return value.text
    raise SolutionError(f"no {name} row on the screen")


@reference("cross.movie_ticket_to_calendar")
def movie_ticket_to_calendar(d: Driver) -> None:
    film = str(d.params["pick"]["film"])
    open_mini_program(d, "Movie Tickets")
    d.tap(text="Orders", rid="tab-bar-item")
    click(d, d.scroll_to(text=film, rid="order-film"))
    cinema = field(d, "Cinema")
    start = dt.datetime.strptime(field(d, "Time"), "%Y-%m-%d %H:%M")
    d.back()
    d.tap(text="Movies", rid="tab-bar-item")
    d.scroll_to(text=film, rid="film-title")
    info = None
    for card in groups(d, "film-item"):
        title = child(card, "film-title")
        if title is not None and title.text == film:
            info = child(card, "film-info")
    m = re.search(r"(\d+) min", info.text if info is not None else "")
    if m is None:
        raise SolutionError(f"no running time for {film}")
    end = start + dt.timedelta(minutes=int(m[1]))
    d.open("Calendar")
    d.tap(desc="New Event")
    d.type(film, rid="event_title")
    d.type(cinema, rid="event_location")
    pick_date(d, "start", start.date())
    pick_time(d, "start", start.hour, start.minute)
    if end.date() != start.date():
        pick_date(d, "end", end.date())
    pick_time(d, "end", end.hour, end.minute)
    pick_reminder(d, 1, int(d.params["remind"]["minutes"]))
    d.tap(desc="Save")
    d.done()


@reference("cross.note_list_to_cart")
def note_list_to_cart(d: Driver) -> None:
    qty = int(d.params["qty"])
    open_folder(d, "Lists")
    tap_row(d, str(d.params["list"]["file"]))
    body = d.texts(rid="document__fragment__edit__highlighting_editor")
    items = [ln[2:].strip() for ln in (body[0] if body else "").splitlines() if ln.startswith("- ")]
    if not items:
        raise SolutionError("the note lists no item")
    d.open("Amazon Shopping")
    for item in items:
        search(d, item)
        words = item.casefold().split()
        for _ in range(qty):
            card = next(
                (
                    c
                    for c in groups(d, "s-result-item")
                    if (t := child(c, "s-result-title")) is not None
                    and all(w in t.text.casefold() for w in words)
                ),
                None,
            )
            add = child(card, "s-add-to-cart") if card is not None else None
            if add is None:
                raise SolutionError(f"no result to add for {item}")
            d.act({"action_type": "click", "index": index_of(d, add)})
    d.done()


def read_receipt(d: Driver, name: str) -> tuple[str, dt.date, str]:
    """Open a text receipt in Files' current folder: the shop, the date and the total."""
    click(d, d.scroll_to(text=name, rid="android:id/title"))
    lines = [t.strip() for t in d.texts(rid="text") if t.strip()]
    total = next((t.split("$", 1)[1] for t in lines if t.upper().startswith("TOTAL")), None)
    if len(lines) < 2 or total is None:
        raise SolutionError(f"{name} does not read as a receipt: {lines}")
    day = dt.date.fromisoformat(lines[1].split()[0])
    d.back()
    return lines[0], day, total.replace(",", "")


def add_expense(d: Driver, name: str, amount: str, label: str, day: dt.date) -> None:
    """Pro Expense's add button, then the entry form, saved."""
    d.tap(rid="fb_add")
    d.type(name, rid="edt_name")
    d.type(amount, rid="edt_amount")
    d.back()  # the keyboard
    d.tap(rid="tv_category")
    d.tap(text=label, rid="tv_category_name")
    expense_day(d, day)
    d.tap(rid="btn_save")


@reference("cross.receipts_to_expenses")
def receipts_to_expenses(d: Driver) -> None:
    pair = d.params["pair"]
    click(d, d.scroll_to(text="Download", rid="title"))
    receipts = [read_receipt(d, str(pair[k])) for k in ("one", "two")]
    d.open("Pro Expense")
    for shop, day, total in receipts:
        add_expense(d, shop, total, "Food", day)
    d.done()


_PLACE = re.compile(r"\d(?:[ap]m)\s+at\s+(.+?)\.\s", re.I)


@reference("cross.wechat_plan_to_calendar")
def wechat_plan_to_calendar(d: Driver) -> None:
    pal, title = str(d.params["pal"]["name"]), str(d.params["plan"]["title"])
    click(d, d.scroll_to(text=pal, rid="chat_title"))
    said = [t for t in d.texts(rid="chatting_content") if _PLACE.search(t + " ")]
    if not said:
        raise SolutionError("no plan in the chat")
    start = plan_of(said[-1], 2026)
    place = _PLACE.search(said[-1] + " ")
    assert place is not None
    end = start + dt.timedelta(hours=2)
    d.open("Calendar")
    d.tap(desc="New Event")
    d.type(title, rid="event_title")
    d.type(place[1], rid="event_location")
    pick_date(d, "start", start.date())
    pick_time(d, "start", start.hour, start.minute)
    pick_time(d, "end", end.hour, end.minute)
    d.tap(desc="Save")
    d.open("WeChat")
    if not d.has(rid="chatting_input"):
        click(d, d.scroll_to(text=pal, rid="chat_title"))
    d.type(str(d.params["reply"]), rid="chatting_input")
    d.tap(text="Send", rid="send_btn")
    d.done()


@reference("cross.note_to_contacts")
def note_to_contacts(d: Driver) -> None:
    duo = d.params["duo"]
    open_folder(d, "Plans")
    tap_row(d, str(d.params["note"]["file"]))
    body = d.texts(rid="document__fragment__edit__highlighting_editor")
    items = [ln[2:].strip() for ln in (body[0] if body else "").splitlines() if ln.startswith("- ")]
    if not items:
        raise SolutionError("the note lists no item")
    text = ", ".join(items)
    d.open("Messages")
    for name in (str(duo["a"]), str(duo["b"])):
        for _ in range(3):  # the keyboard, then the last conversation
            if d.has(rid="conversations_fab"):
                break
            d.back()
        d.tap(rid="conversations_fab")
        d.type(name, rid="new_conversation_address")
        click(d, d.scroll_to(text=name, rid="item_contact_name"))
        d.type(text, rid="thread_type_message")
        d.tap(desc="Send")
    d.done()


@reference("cross.contact_numbers_to_note")
def contact_numbers_to_note(d: Driver) -> None:
    people = d.params["group"]
    lines = []
    for key in ("a", "b", "c", "d"):
        name = str(people[key])
        for _ in range(8):  # the list is alphabetical: from its top, down to the name
            before = d.texts(rid="contact_name")
            if d.has(text=name, rid="contact_name"):
                break
            d.scroll("up")
            if d.texts(rid="contact_name") == before:
                break
        click(d, d.scroll_to(text=name, rid="contact_name"))
        numbers = d.texts(rid="contact_number")
        if not numbers:
            raise SolutionError(f"{name} shows no number")
        lines.append(f"{name}: {numbers[0]}")
        d.back()
    d.open("Markor")
    stem = str(d.params["file"]).removesuffix(".md")
    d.tap(rid="fab_add_new_item")
    d.type(stem, rid="new_file_dialog__name")
    if not d.has(text="Markdown", rid="new_file_dialog__type"):
        d.tap(rid="new_file_dialog__type")
        d.tap(text="Markdown")
    d.tap(text="OK")
    d.type("\n".join(lines), rid="document__fragment__edit__highlighting_editor")
    d.tap(desc="Save")
    d.back()  # the keyboard
    d.back()  # the editor
    d.done()
