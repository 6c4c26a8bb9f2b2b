"""Simple Contacts Pro (``com.simplemobiletools.contacts.pro``), the contacts app AndroidWorld
uses.

Screens follow the real app: the main screen has a search bar, tabs (Contacts, Favorites,
Groups), a list of contacts sorted by the app's sort setting and a "Create new contact" button;
a contact opens in the view screen (numbers, email, birthday, company, groups, a favorite star,
Edit and Delete in the toolbar), and the edit screen has the real form fields (First name,
Surname, Number with its type, Email with its type, Address, the birthday event, Notes, Company,
Job position, Groups) saved with the toolbar's "Save" button. The settings screen holds the
app's own options.

Records are the model's ``Person`` (``people``, keyed by the display name "First Last") and
``Group`` (``groups``). A person's ``group`` is one of the standard groups (Family, Friends,
Work, Classmates) or ``other`` ("No groups"); groups created in the app are ``Group`` records.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from tasklang.envs.phoneworld import widgets as w
from tasklang.envs.phoneworld.app import Ctx, Dialog, Route, Screen
from tasklang.envs.phoneworld.apps.common import checkbox, choice_dialog, image_button, radio
from tasklang.envs.phoneworld.apps.simple_tools import (
    FONT_SIZES,
    THEMES,
    SimpleToolsApp,
    font_label,
    menu_dialog,
    section,
)
from tasklang.envs.phoneworld.widgets import View
from tasklang.verifiers.compare import phone_digits, to_date

PACKAGE = "com.simplemobiletools.contacts.pro"
ACTIVITIES = f"{PACKAGE}.activities"
SOURCE = "Phone storage (not visible by other apps)"

PHONE_LABELS = ("mobile", "home", "work", "main", "other")
EMAIL_LABELS = ("home", "work", "other")
STANDARD_GROUPS = ("family", "friends", "work", "classmates")
NO_GROUP = "other"
SORTS = (("first_name", "First name"), ("last_name", "Surname"), ("date_created", "Date created"))
TABS = (("contacts", "Contacts"), ("favorites", "Favorites"), ("groups", "Groups"))
SETTING_DEFAULTS: dict[str, Any] = {
    "sort_by": "first_name",
    "sort_descending": False,
    "show_phone_numbers": False,
    "start_name_with_surname": False,
    "show_dialpad_button": True,
    "font_size": "medium",
    "theme": "dark",
}
# (setting, label) of the check boxes on the settings screen
CHECKBOX_SETTINGS = (
    ("show_dialpad_button", "Show a dialpad button on the main screen"),
    ("show_phone_numbers", "Show phone numbers"),
    ("start_name_with_surname", "Start name with surname"),
)
# the edit form's fields that are typed, with the record field each one fills
TEXT_FIELDS = ("phone", "email", "address", "notes", "company", "job_title")
_DOTTED = re.compile(r"^\s*(\d{1,2})\.(\d{1,2})\.(\d{4})\s*$")


# ---------------------------------------------------------------- people
def split_name(name: str) -> tuple[str, str]:
    """A display name's first name(s) and surname: ``"Ada K. Park"`` -> ``("Ada K.", "Park")``."""
    parts = name.strip().rsplit(" ", 1)
    return (parts[0], parts[1]) if len(parts) == 2 else (parts[0], "")


def join_name(first: str, surname: str) -> str:
    return " ".join(p for p in (" ".join(first.split()), " ".join(surname.split())) if p)


def shown_name(person: dict[str, Any], surname_first: bool) -> str:
    first, surname = split_name(str(person.get("name") or ""))
    if surname_first and first and surname:
        return f"{surname} {first}"
    return str(person.get("name") or "")


def label_text(value: str) -> str:
    """An enum member as the app shows it: ``"extra_large"`` -> ``"Extra large"``."""
    return value.replace("_", " ").capitalize()


def group_title(value: str) -> str:
    return "No groups" if value == NO_GROUP else label_text(value)


def find_by_number(people: list[dict[str, Any]], number: str) -> dict[str, Any] | None:
    """The contact whose number is ``number`` (compared by digits, ignoring a country code)."""
    digits = phone_digits(number).lstrip("0")
    if not digits:
        return None
    for p in people:
        theirs = phone_digits(p.get("phone") or "").lstrip("0")
        if not theirs:
            continue
        short, long_ = sorted((digits, theirs), key=len)
        if short == long_ or (len(short) >= 7 and long_.endswith(short)):
            return p
    return None


def matches(person: dict[str, Any], query: str) -> bool:
    """Whether a contact matches a search: name, number (by digits), email or company."""
    q = query.strip().casefold()
    if not q:
        return True
    texts = (person.get("name"), person.get("email"), person.get("company"))
    if any(q in str(t).casefold() for t in texts if t):
        return True
    digits = re.sub(r"\D", "", q)
    return bool(digits) and digits in phone_digits(person.get("phone") or "")


def parse_date(text: str) -> str | None:
    """A typed date as ISO text ("1978-05-26", "26.05.1978", "May 26, 1978"...); None if not."""
    m = _DOTTED.match(text)
    if m:
        try:
            return dt.date(int(m[3]), int(m[2]), int(m[1])).isoformat()
        except ValueError:
            return None
    day = to_date(text)
    return day.isoformat() if day is not None else None


def format_date(iso: str) -> str:
    day = to_date(iso)
    return day.strftime("%-d %B %Y") if day is not None else iso


class Contacts(SimpleToolsApp):
    model = "contacts"
    package = PACKAGE
    label = "Contacts"
    activity = f"{ACTIVITIES}.MainActivity"
    defaults = SETTING_DEFAULTS

    # ------------------------------------------------------------ reading
    def person(self, ctx: Ctx, name: Any) -> dict[str, Any] | None:
        if not isinstance(name, str):
            return None
        return ctx.find("people", lambda p: p.get("name") == name)

    def sorted_people(self, ctx: Ctx, people: list[dict[str, Any]]) -> list[dict[str, Any]]:
        sort_by = self.setting_of(ctx, "sort_by")
        if sort_by == "date_created":
            ordered = list(people)
        elif sort_by == "last_name":
            ordered = sorted(
                people,
                key=lambda p: tuple(s.casefold() for s in reversed(split_name(p["name"]))),
            )
        else:
            ordered = sorted(people, key=lambda p: str(p.get("name") or "").casefold())
        if self.setting_of(ctx, "sort_descending"):
            ordered.reverse()
        return ordered

    def group_list(self, ctx: Ctx) -> list[tuple[str, str | None]]:
        """The groups the app shows: (title, standard group or None for a created group)."""
        shown: list[tuple[str, str | None]] = [(label_text(g), g) for g in STANDARD_GROUPS]
        known = {t.casefold() for t, _ in shown}
        for g in ctx.records("groups"):
            title = str(g.get("title") or "")
            if title and title.casefold() not in known:
                shown.append((title, None))
                known.add(title.casefold())
        return sorted(shown, key=lambda t: t[0].casefold())

    def members(self, ctx: Ctx, title: str) -> list[dict[str, Any]]:
        value = title.casefold()
        names: set[str] = set()
        for g in ctx.records("groups"):
            if str(g.get("title") or "").casefold() == value:
                names.update(str(n) for n in g.get("members") or [])
        found = []
        for p in ctx.records("people"):
            group = str(p.get("group") or NO_GROUP)
            if (group != NO_GROUP and label_text(group).casefold() == value) or p.get(
                "name"
            ) in names:
                found.append(p)
        return found

    def groups_of(self, ctx: Ctx, person: dict[str, Any]) -> list[str]:
        titles = []
        if person.get("group") and person["group"] != NO_GROUP:
            titles.append(label_text(person["group"]))
        for g in ctx.records("groups"):
            title = str(g.get("title") or "")
            if person.get("name") in (g.get("members") or []) and title.casefold() not in {
                t.casefold() for t in titles
            }:
                titles.append(title)
        return titles

    # ------------------------------------------------------------ main screen
    def contact_row(self, ctx: Ctx, person: dict[str, Any]) -> View:
        surname_first = bool(self.setting_of(ctx, "start_name_with_surname"))
        texts = [View(w.TEXT, text=shown_name(person, surname_first), rid=self.rid("contact_name"))]
        if self.setting_of(ctx, "show_phone_numbers") and person.get("phone"):
            texts.append(View(w.TEXT, text=str(person["phone"]), rid=self.rid("contact_number")))
        return self.contact_frame(
            ("contact_frame", "contact_holder", "contact_tmb"),
            texts,
            "open_contact",
            person["name"],
            170 if len(texts) > 1 else 150,
        )

    def bar_buttons(self, tab: str) -> list[View]:
        """The search bar's buttons on ``tab``."""
        if tab == "groups":
            buttons = [
                image_button("Settings", "settings", rid=self.rid("settings")),
                image_button("About", "about", rid=self.rid("about")),
            ]
        else:
            buttons = [
                image_button("Sort by", "sort", rid=self.rid("sort")),
                image_button("Filter", "filter", rid=self.rid("filter")),
            ]
        buttons.append(image_button("More options", "more"))
        return buttons

    def fab(self, ctx: Ctx, tab: str) -> View:
        main = {
            "contacts": ("Create new contact", "new_contact"),
            "favorites": ("Add favorites", "add_favorites"),
            "groups": ("Create group", "create_group"),
        }[tab]
        button = image_button(main[0], main[1], rid=self.rid("fragment_fab"))
        if not self.setting_of(ctx, "show_dialpad_button"):
            return button
        dialpad = image_button("Dialpad", "dialpad", rid=self.rid("main_dialpad_button"))
        return View(w.LINEAR, children=[dialpad, button])

    def screen_main(self, ctx: Ctx, route: Route) -> Screen:
        tab = route.arg("tab", "contacts")
        query = ctx.form("search")
        rows: list[View]
        if tab == "groups":
            rows = []
            for title, _std in self.group_list(ctx):
                if query.strip() and query.strip().casefold() not in title.casefold():
                    continue
                count = len(self.members(ctx, title))
                kids = [
                    View(w.IMAGE, rid=self.rid("group_tmb"), weight=0.18),
                    View(w.TEXT, text=title, rid=self.rid("group_name"), weight=0.64),
                    View(w.TEXT, text=str(count), rid=self.rid("group_count"), weight=0.18),
                ]
                rows.append(self.list_item("group_holder", "open_group", title, 150, kids))
            if not rows:
                rows = self.placeholder("No items found.", "Create group", "create_group")
        else:
            people = ctx.records("people")
            if tab == "favorites":
                people = [p for p in people if p.get("starred")]
            found = [p for p in people if matches(p, query)]
            rows = [self.contact_row(ctx, p) for p in self.sorted_people(ctx, found)]
            if not rows and query.strip():
                rows = self.placeholder("No contacts found")
            elif not rows and tab == "favorites":
                rows = self.placeholder("No contacts found", "Add favorites", "add_favorites")
            elif not rows:
                rows = self.placeholder("No contacts found", "Create new contact", "new_contact")
        return Screen(
            title=None,
            header=[self.search_bar(self.bar_buttons(tab), 0.55)],
            rows=rows,
            fab=self.fab(ctx, tab),
            tabs=self.tab_views(TABS, tab),
            list_rid=self.rid("fragment_list"),
        )

    def on_open_contact(self, ctx: Ctx, arg: Any) -> None:
        ctx.hide_keyboard()
        ctx.push("view", name=arg)

    def on_new_contact(self, ctx: Ctx, arg: Any) -> None:
        ctx.hide_keyboard()
        ctx.push("edit")

    def on_dialpad(self, ctx: Ctx, arg: Any) -> None:
        if "phone" in ctx.phone.apps:
            ctx.open("phone", "dialpad")
        else:
            ctx.toast("No app can perform this action")

    def on_open_group(self, ctx: Ctx, arg: Any) -> None:
        ctx.hide_keyboard()
        ctx.push("group", title=arg)

    # ------------------------------------------------------------ main screen dialogs
    def sort_dialog(self, sort_by: str, descending: bool) -> Dialog:
        items = [
            radio(
                label,
                sort_by == key,
                "sort_pick",
                (key, descending),
                self.rid(f"sorting_dialog_radio_{key}"),
            )
            for key, label in SORTS
        ]
        items += [
            radio(
                "Ascending",
                not descending,
                "sort_pick",
                (sort_by, False),
                self.rid("sorting_dialog_radio_ascending"),
            ),
            radio(
                "Descending",
                descending,
                "sort_pick",
                (sort_by, True),
                self.rid("sorting_dialog_radio_descending"),
            ),
        ]
        return Dialog(
            title="Sort by",
            items=items,
            buttons=[("Cancel", None, None), ("OK", "sort_ok", (sort_by, descending))],
        )

    def on_sort(self, ctx: Ctx, arg: Any) -> None:
        ctx.hide_keyboard()
        ctx.dialog(
            self.sort_dialog(
                self.setting_of(ctx, "sort_by"), bool(self.setting_of(ctx, "sort_descending"))
            )
        )

    def on_sort_pick(self, ctx: Ctx, arg: Any) -> None:
        sort_by, descending = arg
        ctx.dialog(self.sort_dialog(sort_by, descending))

    def on_sort_ok(self, ctx: Ctx, arg: Any) -> None:
        sort_by, descending = arg
        if sort_by != self.setting_of(ctx, "sort_by"):
            ctx.set("sort_by", sort_by)
        if descending != bool(self.setting_of(ctx, "sort_descending")):
            ctx.set("sort_descending", descending)

    def on_filter(self, ctx: Ctx, arg: Any) -> None:
        count = len(ctx.records("people"))
        ctx.dialog(
            Dialog(
                title="Filter",
                items=[checkbox(f"{SOURCE} ({count})", True, "filter_source", None)],
                buttons=[("Cancel", None, None), ("OK", None, None)],
            )
        )

    def on_filter_source(self, ctx: Ctx, arg: Any) -> None:
        ctx.toast("At least one contact source must be selected")

    def on_more(self, ctx: Ctx, arg: Any) -> None:
        ctx.dialog(menu_dialog([("Settings", "settings", None), ("About", "about", None)]))

    def favorites_dialog(self, ctx: Ctx, chosen: tuple[str, ...]) -> Dialog:
        candidates = [p for p in ctx.records("people") if not p.get("starred")]
        items = [
            checkbox(
                p["name"],
                p["name"] in chosen,
                "favorite_pick",
                (chosen, p["name"]),
                self.rid("add_favorite_checkbox"),
            )
            for p in sorted(candidates, key=lambda p: str(p["name"]).casefold())
        ]
        if not items:
            items = [View(w.TEXT, text="No contacts found", height=130)]
        return Dialog(
            title="Add favorites",
            items=items,
            buttons=[("Cancel", None, None), ("OK", "favorites_ok", chosen)],
        )

    def on_add_favorites(self, ctx: Ctx, arg: Any) -> None:
        ctx.hide_keyboard()
        ctx.dialog(self.favorites_dialog(ctx, ()))

    def on_favorite_pick(self, ctx: Ctx, arg: Any) -> None:
        chosen, name = arg
        now = tuple(n for n in chosen if n != name) if name in chosen else (*chosen, name)
        ctx.dialog(self.favorites_dialog(ctx, now))

    def on_favorites_ok(self, ctx: Ctx, arg: Any) -> None:
        for name in arg:
            person = self.person(ctx, name)
            if person is not None and not person.get("starred"):
                ctx.update("people", person, starred=True)

    def on_create_group(self, ctx: Ctx, arg: Any) -> None:
        ctx.hide_keyboard()
        ctx.set_form("new_group_title", "")
        field = View(
            w.TEXT, rid=self.rid("group_name"), edit="new_group_title", hint="Title", height=150
        )
        ctx.dialog(
            Dialog(
                title="Create a new group",
                items=[field],
                buttons=[("Cancel", None, None), ("OK", "create_group_ok", None)],
            )
        )

    def on_create_group_ok(self, ctx: Ctx, arg: Any) -> None:
        title = " ".join(ctx.form("new_group_title").split())
        ctx.hide_keyboard()
        if not title:
            ctx.toast("Empty name")
            return
        if any(t.casefold() == title.casefold() for t, _ in self.group_list(ctx)):
            ctx.toast("A group with that title already exists")
            return
        ctx.add("groups", {"title": title, "members": []})
        ctx.set_form("new_group_title", "")

    # ------------------------------------------------------------ a group's contacts
    def screen_group(self, ctx: Ctx, route: Route) -> Screen:
        title = str(route.arg("title", ""))
        rows = [self.contact_row(ctx, p) for p in self.sorted_people(ctx, self.members(ctx, title))]
        if not rows:
            rows = self.placeholder("There are no contacts in this group")
        return Screen(
            title=title,
            up=True,
            rows=rows,
            activity=f"{ACTIVITIES}.GroupContactsActivity",
            list_rid=self.rid("group_contacts_list"),
        )

    # ------------------------------------------------------------ viewing a contact
    def detail_row(
        self,
        value: str,
        value_rid: str,
        kind: str = "",
        kind_rid: str = "",
        key: str | None = None,
        arg: Any = None,
    ) -> View:
        kids = [View(w.TEXT, text=value, rid=self.rid(value_rid), weight=0.7)]
        if kind:
            kids.append(View(w.TEXT, text=kind, rid=self.rid(kind_rid), weight=0.3))
        return View(
            w.RELATIVE,
            rid=self.rid(f"{value_rid}_holder"),
            horizontal=True,
            clickable=key is not None,
            long_clickable=key is not None,
            focusable=key is not None,
            on_click=key,
            arg=arg,
            children=kids,
            height=140,
        )

    def screen_view(self, ctx: Ctx, route: Route) -> Screen:
        person = self.person(ctx, route.arg("name"))
        activity = f"{ACTIVITIES}.ViewContactActivity"
        if person is None:
            return Screen(
                title=None, up=True, activity=activity, rows=self.placeholder("No contacts found")
            )
        name = person["name"]
        starred = bool(person.get("starred"))
        top = View(
            w.RELATIVE,
            horizontal=True,
            height=260,
            children=[
                View(w.IMAGE, rid=self.rid("contact_photo"), desc="Change photo", weight=0.6),
                image_button(
                    "Remove from favorites" if starred else "Add to favorites",
                    "toggle_star",
                    name,
                    self.rid("contact_toggle_favorite"),
                ),
            ],
        )
        actions = []
        if person.get("email"):
            actions.append(
                image_button("Send email", "send_email", name, self.rid("contact_send_email"))
            )
        if person.get("phone"):
            actions.append(
                image_button("Call contact", "call_contact", name, self.rid("contact_start_call"))
            )
            actions.append(image_button("Send SMS", "send_sms", name, self.rid("contact_send_sms")))
        rows = [top]
        if actions:
            rows.append(
                View(
                    w.LINEAR,
                    rid=self.rid("contact_actions_holder"),
                    horizontal=True,
                    children=actions,
                    height=140,
                )
            )
        surname_first = bool(self.setting_of(ctx, "start_name_with_surname"))
        rows.append(
            View(
                w.TEXT,
                text=shown_name(person, surname_first),
                rid=self.rid("contact_name"),
                height=150,
            )
        )
        if person.get("phone"):
            rows.append(
                self.detail_row(
                    str(person["phone"]),
                    "contact_number",
                    label_text(str(person.get("phone_label") or "mobile")),
                    "contact_number_type",
                    "call_contact",
                    name,
                )
            )
        if person.get("email"):
            rows.append(
                self.detail_row(
                    str(person["email"]),
                    "contact_email",
                    label_text(str(person.get("email_label") or "home")),
                    "contact_email_type",
                    "send_email",
                    name,
                )
            )
        if person.get("address"):
            rows.append(
                self.detail_row(
                    str(person["address"]), "contact_address", "Home", "contact_address_type"
                )
            )
        if person.get("birthday"):
            rows.append(
                self.detail_row(
                    format_date(str(person["birthday"])),
                    "contact_event",
                    "Birthday",
                    "contact_event_type",
                )
            )
        if person.get("notes"):
            rows.append(self.detail_row(str(person["notes"]), "contact_notes"))
        if person.get("company"):
            rows.append(self.detail_row(str(person["company"]), "contact_organization_company"))
        if person.get("job_title"):
            rows.append(
                self.detail_row(str(person["job_title"]), "contact_organization_job_position")
            )
        for title in self.groups_of(ctx, person):
            rows.append(self.detail_row(title, "contact_group"))
        rows.append(self.detail_row(SOURCE, "contact_source"))
        return Screen(
            title=None,
            up=True,
            actions=[
                image_button("Edit contact", "edit_contact", name, self.rid("edit")),
                image_button("Delete", "delete_contact", name, self.rid("delete")),
            ],
            rows=rows,
            activity=activity,
            list_rid=self.rid("contact_scrollview"),
            list_cls=w.SCROLL,
        )

    def on_toggle_star(self, ctx: Ctx, arg: Any) -> None:
        person = self.person(ctx, arg)
        if person is not None:
            ctx.update("people", person, starred=not person.get("starred"))

    def on_edit_contact(self, ctx: Ctx, arg: Any) -> None:
        ctx.hide_keyboard()
        ctx.push("edit", name=arg)

    def on_delete_contact(self, ctx: Ctx, arg: Any) -> None:
        ctx.hide_keyboard()
        ctx.dialog(
            Dialog(
                title="Are you sure you want to proceed with the deletion?",
                buttons=[("No", None, None), ("Yes", "delete_confirmed", arg)],
            )
        )

    def on_delete_confirmed(self, ctx: Ctx, arg: Any) -> None:
        person = self.person(ctx, arg)
        if person is not None:
            self.drop_memberships(ctx, person["name"])
            ctx.delete("people", person)
        self.leave_contact(ctx)

    def leave_contact(self, ctx: Ctx) -> None:
        """Close the contact's view and edit screens."""
        stack = ctx.phone.stacks.get(self.model, [])
        while len(stack) > 1 and stack[-1].screen in ("view", "edit"):
            ctx.back()

    def on_call_contact(self, ctx: Ctx, arg: Any) -> None:
        person = self.person(ctx, arg)
        if person is None or not person.get("phone"):
            return
        if "phone" not in ctx.phone.apps:
            ctx.toast("No app can perform this action")
            return
        from tasklang.envs.phoneworld.apps.phone import start_call

        start_call(ctx, str(person["phone"]), person["name"], back_to=self.model)

    def on_send_sms(self, ctx: Ctx, arg: Any) -> None:
        person = self.person(ctx, arg)
        if person is None or not person.get("phone"):
            return
        if "messages" in ctx.phone.apps:
            ctx.open("messages", "thread", address=str(person["phone"]))
        else:
            ctx.toast("No app can perform this action")

    def on_send_email(self, ctx: Ctx, arg: Any) -> None:
        ctx.toast("No app can perform this action")

    # ------------------------------------------------------------ editing a contact
    def initial(self, ctx: Ctx, route: Route) -> dict[str, str]:
        """The edit form's starting values: the contact's, or a new contact's defaults."""
        person = self.person(ctx, route.arg("name"))
        if person is None:
            return {
                "first_name": "",
                "surname": "",
                "phone": str(route.arg("phone") or ""),
                "phone_label": "mobile",
                "email": "",
                "email_label": "home",
                "address": "",
                "birthday": "",
                "notes": "",
                "company": "",
                "job_title": "",
                "group": NO_GROUP,
                "starred": "0",
            }
        first, surname = split_name(person["name"])
        values = {f: str(person.get(f) or "") for f in TEXT_FIELDS}
        values.update(
            first_name=first,
            surname=surname,
            phone_label=str(person.get("phone_label") or "mobile"),
            email_label=str(person.get("email_label") or "home"),
            birthday=str(person.get("birthday") or ""),
            group=str(person.get("group") or NO_GROUP),
            starred="1" if person.get("starred") else "0",
        )
        return values

    def value(self, ctx: Ctx, route: Route, name: str) -> str:
        return ctx.form(name, self.initial(ctx, route)[name])

    def field(self, rid: str, name: str, hint: str, weight: float = 1.0) -> View:
        return View(w.TEXT, rid=self.rid(rid), edit=name, hint=hint, weight=weight, height=150)

    def chooser(self, text: str, rid: str, key: str, arg: Any = None, weight: float = 0.3) -> View:
        return View(
            w.TEXT,
            text=text,
            rid=self.rid(rid),
            clickable=True,
            focusable=True,
            on_click=key,
            arg=arg,
            weight=weight,
            height=150,
        )

    def screen_edit(self, ctx: Ctx, route: Route) -> Screen:
        initial = self.initial(ctx, route)

        def val(name: str) -> str:
            return ctx.form(name, initial[name])

        starred = val("starred") == "1"
        existing = self.person(ctx, route.arg("name")) is not None

        def line(*kids: View) -> View:
            return View(w.LINEAR, horizontal=True, children=list(kids), height=150)

        fields = {
            name: self.field(rid, name, hint)
            for name, rid, hint in (
                ("first_name", "contact_first_name", "First name"),
                ("surname", "contact_surname", "Surname"),
                ("phone", "contact_number", "Number"),
                ("email", "contact_email", "Email"),
                ("address", "contact_address", "Address"),
                ("birthday", "contact_event", "Date"),
                ("notes", "contact_notes", "Notes"),
                ("company", "contact_organization_company", "Company"),
                ("job_title", "contact_organization_job_position", "Job position"),
            )
        }
        for name, view in fields.items():
            view.text = val(name)
        for name in ("phone", "email", "address", "birthday"):
            fields[name].weight = 0.7
        rows = [
            View(
                w.RELATIVE,
                horizontal=True,
                height=260,
                children=[
                    View(w.IMAGE, rid=self.rid("contact_photo"), desc="Change photo", weight=0.6),
                    View(
                        w.IMAGE_BUTTON,
                        desc="Toggle favorite",
                        rid=self.rid("contact_toggle_favorite"),
                        clickable=True,
                        focusable=True,
                        selected=starred,
                        on_click="toggle_form_star",
                        weight=0.2,
                    ),
                    image_button("Change photo", None, rid=self.rid("contact_change_photo")),
                ],
            ),
            line(fields["first_name"]),
            line(fields["surname"]),
            line(
                fields["phone"],
                self.chooser(
                    label_text(val("phone_label")), "contact_number_type", "choose_phone_label"
                ),
            ),
            line(
                fields["email"],
                self.chooser(
                    label_text(val("email_label")), "contact_email_type", "choose_email_label"
                ),
            ),
            line(
                fields["address"],
                View(w.TEXT, text="Home", rid=self.rid("contact_address_type"), weight=0.3),
            ),
            line(
                fields["birthday"],
                View(w.TEXT, text="Birthday", rid=self.rid("contact_event_type"), weight=0.3),
            ),
            line(fields["notes"]),
            line(fields["company"]),
            line(fields["job_title"]),
            line(
                self.chooser(group_title(val("group")), "contact_group", "choose_group", weight=1.0)
            ),
            line(View(w.TEXT, text=SOURCE, rid=self.rid("contact_source"))),
        ]
        actions = [image_button("Save", "save_contact", rid=self.rid("save"))]
        if existing:
            actions.append(
                image_button("Delete", "delete_contact", route.arg("name"), self.rid("delete"))
            )
        return Screen(
            title=None,
            up=True,
            actions=actions,
            rows=rows,
            activity=f"{ACTIVITIES}.EditContactActivity",
            list_rid=self.rid("contact_scrollview"),
            list_cls=w.SCROLL,
        )

    def on_toggle_form_star(self, ctx: Ctx, arg: Any) -> None:
        assert ctx.route is not None
        ctx.set_form("starred", "0" if self.value(ctx, ctx.route, "starred") == "1" else "1")

    def label_dialog(
        self, ctx: Ctx, name: str, options: tuple[str, ...], title: str = "", text: Any = label_text
    ) -> None:
        assert ctx.route is not None
        current = self.value(ctx, ctx.route, name)
        ctx.hide_keyboard()
        labels = [(o, text(o)) for o in options]
        ctx.dialog(choice_dialog(title, labels, current, "pick", name, cancel=bool(title)))

    def on_choose_phone_label(self, ctx: Ctx, arg: Any) -> None:
        self.label_dialog(ctx, "phone_label", PHONE_LABELS)

    def on_choose_email_label(self, ctx: Ctx, arg: Any) -> None:
        self.label_dialog(ctx, "email_label", EMAIL_LABELS)

    def on_choose_group(self, ctx: Ctx, arg: Any) -> None:
        options = (*STANDARD_GROUPS, NO_GROUP)
        self.label_dialog(ctx, "group", options, "Select groups", group_title)

    def on_pick(self, ctx: Ctx, arg: Any) -> None:
        name, value = arg
        ctx.set_form(name, value)

    def on_save_contact(self, ctx: Ctx, arg: Any) -> None:
        route = ctx.route
        assert route is not None
        values = {k: ctx.form(k, v) for k, v in self.initial(ctx, route).items()}
        name = join_name(values["first_name"], values["surname"])
        if not name:
            ctx.toast("Please enter a name")
            return
        birthday: str | None = None
        if values["birthday"].strip():
            birthday = parse_date(values["birthday"])
            if birthday is None:
                ctx.toast("Invalid date")
                return
        changes: dict[str, Any] = {f: " ".join(values[f].split()) or None for f in TEXT_FIELDS}
        changes["notes"] = values["notes"].strip() or None
        changes.update(
            name=name,
            phone_label=values["phone_label"],
            email_label=values["email_label"],
            starred=values["starred"] == "1",
            group=values["group"],
            birthday=birthday,
        )
        old = self.person(ctx, route.arg("name"))
        if old is None:
            record = {"job_title": None, **changes}
            ctx.add("people", record)
        else:
            if any(old.get(k) != v for k, v in changes.items()):
                ctx.update("people", old, **changes)
            if old["name"] != name:
                self.drop_memberships(ctx, old["name"], rename=name)
        self.sync_group(ctx, name, old.get("group") if old else None, values["group"])
        ctx.hide_keyboard()
        ctx.back()
        back_to = route.arg("back_to")
        if back_to in ctx.phone.apps and back_to != self.model:
            ctx.open(back_to)  # opened by another app's intent: saving returns there
            return
        stack = ctx.phone.stacks.get(self.model, [])
        if stack and stack[-1].screen == "view" and old is not None and old["name"] != name:
            ctx.replace("view", name=name)

    def drop_memberships(self, ctx: Ctx, name: str, rename: str | None = None) -> None:
        """Take ``name`` out of created groups (or rename it there)."""
        for g in list(ctx.records("groups")):
            members = list(g.get("members") or [])
            if name in members:
                if rename is None:
                    kept = [m for m in members if m != name]
                else:
                    kept = [rename if m == name else m for m in members]
                ctx.update("groups", g, members=kept)

    def sync_group(self, ctx: Ctx, name: str, old: str | None, new: str) -> None:
        """Keep a created group that shares a standard group's title in step with ``group``."""
        if old == new:
            return
        for g in list(ctx.records("groups")):
            title = str(g.get("title") or "").casefold()
            members = list(g.get("members") or [])
            if title == label_text(new).casefold() and new != NO_GROUP and name not in members:
                ctx.update("groups", g, members=[*members, name])
            elif (
                old and old != NO_GROUP and title == label_text(old).casefold() and name in members
            ):
                ctx.update("groups", g, members=[m for m in members if m != name])

    # ------------------------------------------------------------ settings
    def screen_settings(self, ctx: Ctx, route: Route) -> Screen:
        font = font_label(self.setting_of(ctx, "font_size"))
        rows = [
            section("COLOR CUSTOMIZATION", self.rid("settings_color_customization_label")),
            View(
                w.RELATIVE,
                rid=self.rid("settings_color_customization_holder"),
                clickable=True,
                focusable=True,
                on_click="customize_colors",
                height=150,
                children=[
                    View(
                        w.TEXT,
                        text="Customize colors",
                        rid=self.rid("settings_color_customization"),
                    )
                ],
            ),
            section("GENERAL", self.rid("settings_general_settings_label")),
            self.pref_row("Font size", "font_size", "settings_font_size", font),
            *(self.checkbox_row(ctx, name, text) for name, text in CHECKBOX_SETTINGS),
        ]
        return Screen(
            title="Settings",
            up=True,
            rows=rows,
            activity=f"{ACTIVITIES}.SettingsActivity",
            list_rid=self.rid("settings_scrollview"),
            list_cls=w.SCROLL,
        )

    def choose(self, ctx: Ctx, setting: str, options: tuple[tuple[str, str], ...]) -> None:
        current = self.setting_of(ctx, setting)
        ctx.dialog(choice_dialog("", options, current, "choose_setting", setting))

    def on_font_size(self, ctx: Ctx, arg: Any) -> None:
        self.choose(ctx, "font_size", FONT_SIZES)

    def on_choose_setting(self, ctx: Ctx, arg: Any) -> None:
        setting, value = arg
        if self.setting_of(ctx, setting) != value:
            ctx.set(setting, value)

    def screen_colors(self, ctx: Ctx, route: Route) -> Screen:
        return self.colors_screen(self.setting_of(ctx, "theme"), "theme")

    def on_theme(self, ctx: Ctx, arg: Any) -> None:
        self.choose(ctx, "theme", THEMES)

    def screen_about(self, ctx: Ctx, route: Route) -> Screen:
        return self.about_screen("Simple Contacts Pro", "Version 6.22.4")


APP = Contacts
