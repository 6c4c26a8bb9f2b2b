"""Reference solutions of single-app tasks over the everyday tools: Clock, Contacts, Phone,
Messages, Settings, Files, Tasks, Broccoli, Retro Music, Calendar and Pro Expense."""

from __future__ import annotations

import datetime as dt

from tasklang.envs.phoneworld.solutions.aw_system import received_messages
from tasklang.envs.phoneworld.solutions.base import Driver, SolutionError, reference


def click(d: Driver, index: int) -> None:
    d.act({"action_type": "click", "index": index})


# ------------------------------------------------------------------ Clock
@reference("clock.delete_labelled_alarm")
def delete_labelled_alarm(d: Driver) -> None:
    label = str(d.params["tgt"])
    if not d.has(desc="Add alarm"):
        d.tap(desc="Alarm")
    click(d, d.scroll_to(text=label, rid="label"))
    click(d, d.scroll_to(text="Delete", rid="delete"))
    d.done()


@reference("clock.impossible_alarm")
def impossible_alarm(d: Driver) -> None:
    hour, minute = (int(p) for p in str(d.params["bad"]).split(":"))
    if hour > 23 or minute > 59:  # no time picker takes it
        d.done("infeasible")
        return
    raise SolutionError(f"{hour}:{minute} is a real time")


# ------------------------------------------------------------------ Contacts
def open_contact(d: Driver, name: str) -> None:
    """From the contact list, search for ``name`` and open the contact."""
    d.type(name, rid="top_toolbar_search")
    d.enter()
    d.tap(rid="contact_name", text=name)


@reference("contacts.update_number")
def update_number(d: Driver) -> None:
    open_contact(d, str(d.params["who"]))
    d.tap(desc="Edit contact")
    d.type(str(d.params["number"]), rid="contact_number")
    d.tap(desc="Save")
    d.done()


@reference("contacts.company_answer")
def company_answer(d: Driver) -> None:
    name = str(d.params["who"])
    open_contact(d, name)
    d.answer(d.texts(rid="contact_organization_company")[0])


# ------------------------------------------------------------------ Phone
def seconds_of(text: str) -> int:
    """Seconds from a call length as the call history shows it ("07:12", "1:02:03")."""
    total = 0
    for part in text.split(":"):
        total = total * 60 + int(part)
    return total


@reference("phone.talk_time_today")
def talk_time_today(d: Driver) -> None:
    who = str(d.params["who"])
    d.tap(desc="Call History")
    seen: dict[tuple[str, str, str], int] = {}
    for _ in range(8):
        for v in d.observe().walk():
            if not v.rid.endswith(":id/item_recents_holder") or v.bounds[3] <= v.bounds[1]:
                continue
            texts = {c.rid.rsplit("/", 1)[-1]: c.text for c in v.walk() if c.rid}
            kind = next(c.desc for c in v.walk() if c.rid.endswith(":id/item_recents_type"))
            when = texts.get("item_recents_date_time", "")
            if texts.get("item_recents_name") != who or kind == "Missed call" or "," in when:
                continue
            seen[(when, kind, texts.get("item_recents_duration", ""))] = seconds_of(
                texts.get("item_recents_duration") or "0"
            )
        before = d.observe()
        d.scroll("down")
        if d.observe() == before:
            break
    total = sum(seen.values())
    minutes, secs = divmod(total, 60)
    d.answer(f"{minutes}m {secs}s")


# ------------------------------------------------------------------ Messages
@reference("messages.delete_conversation")
def delete_conversation(d: Driver) -> None:
    who = str(d.params["who"])
    d.scroll_to(rid="conversation_address", text=who)
    d.long_press(rid="conversation_address", text=who)
    d.tap(desc="Delete")
    d.tap(text="Yes", rid="button1")
    d.done()


@reference("messages.last_text_from")
def last_text_from(d: Driver) -> None:
    who = str(d.params["who"])
    d.scroll_to(rid="conversation_address", text=who)
    d.tap(rid="conversation_address", text=who)
    theirs = received_messages(d.observe(), visible=True)
    if not theirs:
        raise SolutionError(f"no message from {who} on the screen")
    d.answer(theirs[-1])


@reference("clock.ensure_alarm_on")
def ensure_alarm_on(d: Driver) -> None:
    label = str(d.params["lbl"])
    d.open("Clock")
    if not d.has(desc="Add alarm"):
        d.tap(desc="Alarm")
    at = d.scroll_to(text=label, rid="label")
    nodes = list(d.observe().walk())
    switch = next(i for i in range(at, len(nodes)) if nodes[i].rid.endswith(":id/onoff"))
    if not nodes[switch].checked:
        click(d, switch)
    d.done()


@reference("contacts.ensure_favorite")
def ensure_favorite(d: Driver) -> None:
    who = str(d.params["who"])
    d.tap(desc="Favorites")
    for _ in range(6):
        if d.has(rid="contact_name", text=who):
            d.done()  # already a favorite
            return
        before = d.observe()
        d.scroll("down")
        if d.observe() == before:
            break
    d.tap(desc="Contacts")
    open_contact(d, who)
    d.tap(desc="Add to favorites")
    d.back()
    d.tap(desc="Favorites")
    d.need(rid="contact_name", text=who)
    d.done()


# ------------------------------------------------------------------ Files
@reference("files.rename_download")
def rename_download(d: Driver) -> None:
    old, new = str(d.params["old"]), str(d.params["new"])
    click(d, d.scroll_to(text="Download", rid="title"))
    d.scroll_to(text=old, rid="title")
    d.long_press(text=old, rid="title")
    d.tap(desc="More options")
    d.tap(text="Rename")
    d.type(new, cls="EditText")
    d.tap(rid="button1")
    d.done()


# ------------------------------------------------------------------ Tasks
@reference("tasks.search_set_priority")
def search_set_priority(d: Driver) -> None:
    kw = str(d.params["t"]["kw"])
    d.tap(desc="Search")
    d.type(kw, rid="search_src_text")
    d.enter()
    hits = [
        v.text
        for v in d.observe().walk()
        if v.rid.endswith(":id/description") and kw.casefold() in v.text.casefold()
    ]
    if len(hits) != 1:
        raise SolutionError(f"{len(hits)} tasks mention {kw!r}")
    d.tap(rid="description", text=hits[0])
    d.tap(rid=f"priority_{str(d.params['p']['label']).lower()}")
    d.tap(desc="Save")
    d.done()


# ------------------------------------------------------------------ Broccoli
@reference("recipes.change_servings")
def change_servings(d: Driver) -> None:
    title = str(d.params["dish"]["title"])
    d.tap(desc="Search")
    d.type(title)
    d.tap(text=title, rid="card_text_view_title")
    d.tap(desc="More options")
    d.tap(text="Edit")
    d.scroll_to(rid="new_servings")
    d.type(str(d.params["n"]), rid="new_servings")
    d.back()  # the keyboard
    d.tap(rid="button_save_recipe")
    d.done()


# ------------------------------------------------------------------ Retro Music
def menu_after(d: Driver, title: str) -> int:
    """The index of the "More options" button of the song row titled ``title``."""
    at = d.scroll_to(text=title, rid="title")
    nodes = list(d.observe().walk())
    return next(i for i in range(at, len(nodes)) if nodes[i].rid.endswith(":id/menu"))


@reference("music.album_to_playlist")
def album_to_playlist(d: Driver) -> None:
    album, playlist = str(d.params["alb"]["name"]), str(d.params["pl"])
    d.tap(desc="Albums")
    click(d, d.scroll_to(text=album, rid="title"))
    header = d.texts(rid="albumText")[0]  # "Artist • 4 Songs • 14:26"
    count = int(header.split("•")[1].split()[0])
    titles: list[str] = []
    for _ in range(6):
        for t in d.texts(rid="title"):
            if t not in titles:
                titles.append(t)
        if len(titles) >= count:
            break
        d.scroll("down")
    for title in titles[:count]:
        click(d, menu_after(d, title))
        d.tap(text="Add to playlist…")
        d.tap(text=playlist)
    d.done()


# ------------------------------------------------------------------ Calendar
@reference("calendar.move_missing_event")
def move_missing_event(d: Driver) -> None:
    title = str(d.params["ghost"])
    d.tap(desc="Search")
    d.type(title, rid="search_src_text")
    if d.has(text=title, rid="event_item_title"):
        raise SolutionError(f"{title!r} is in the calendar")
    d.done("infeasible")


# ------------------------------------------------------------------ Pro Expense
@reference("expense.priciest_in_category")
def priciest_in_category(d: Driver) -> None:
    label = str(d.params["cat"]["label"])
    since = dt.date.fromisoformat(str(d.params["since"]))
    d.tap(text="More", rid="btn_recent_more")
    seen: dict[tuple[str, str, str], float] = {}
    rows: set[tuple[str, str, str]] = set()
    for _ in range(15):
        before = len(rows)
        for v in d.observe().walk():
            if not v.rid.endswith(":id/cd_expense") or v.bounds[3] <= v.bounds[1]:
                continue
            kids = list(v.walk())
            texts = {c.rid.rsplit("/", 1)[-1]: c.text for c in kids if c.rid}
            kind = next((c.desc for c in kids if c.rid.endswith(":id/imv_category")), "")
            key = (texts.get("tv_name", ""), texts.get("tv_date", ""), texts.get("tv_amount", ""))
            rows.add(key)
            day, month, year = (int(p) for p in key[1].split("/"))
            if kind == label and dt.date(year, month, day) >= since:
                seen[key] = float(key[2].replace(",", ""))
        if len(rows) == before:
            break
        d.scroll("down")
    if not seen:
        raise SolutionError(f"no {label} expense in the log")
    d.answer(f"${max(seen.values()):.2f}")


# ------------------------------------------------------------------ Settings
def set_level(d: Driver, label: str, target: int) -> None:
    """Move the SeekBar ``label`` ("Media volume") to ``target`` with its -/+ buttons."""
    d.scroll_to(desc=label, cls="SeekBar")
    for _ in range(20):
        shown = next(v.text for v in d.observe().walk() if v.desc == label and v.text)
        value = int(shown.split(" of ")[0])
        if value == target:
            return
        what = label.lower()
        d.tap(desc=("Increase " if value < target else "Decrease ") + what)
    raise SolutionError(f"{label} never reached {target}")


@reference("settings.set_volumes")
def set_volumes(d: Driver) -> None:
    d.open("Settings")
    click(d, d.scroll_to(text="Sound & vibration", rid="android:id/title"))
    set_level(d, "Media volume", int(d.params["media"]))
    set_level(d, "Ring & notification volume", int(d.params["ring"]))
    d.done()
