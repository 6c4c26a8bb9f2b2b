"""Pro Expense by Arduia (``com.arduia.expense``), the expense tracker AndroidWorld installs.

One activity (``com.arduia.expense.ui.MainActivity``) whose fragments are the screens:

- Home: the menu button (``btn_menu``, the navigation drawer), the card with this week's
  spending (``tv_value`` and the currency), the "Recent" list (``rv_recent``: the ten newest
  expenses) with its "More" button (``btn_recent_more``, the logs) and the add button
  (``fb_add``).
- Expense Logs: every expense under date headers, newest first (``rv_expense``). A tap shows
  the "Expense Detail" sheet (name, amount, date, note, category; Edit and Delete); a long
  press starts the selection ("N selected" with Select All and Delete), and Delete asks
  "Delete Items" / "N items will be deleted!" before it deletes.
- Expense Entry (``edt_name``, ``edt_amount``, the category choice ``tv_category``,
  ``edt_note``, the date ``tv_date`` with a month calendar, ``btn_save``): new expenses, and
  "Update Data" for an existing one. An empty amount is refused ("Cost is Empty").
- Statistics: a month's spending per category (amount and share), with previous / next month.
- Settings: the currency the amounts are shown in.

Expenses are addressed by their position in the ``expenses`` collection; a selection is
cleared whenever expenses are deleted.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from typing import Any

from tasklang.envs.phoneworld import widgets as w
from tasklang.envs.phoneworld.app import App, Ctx, Dialog, Route, Screen
from tasklang.envs.phoneworld.apps.common import button, choice_dialog
from tasklang.envs.phoneworld.widgets import View

PACKAGE = "com.arduia.expense"
MAIN_ACTIVITY = "com.arduia.expense.ui.MainActivity"
CATEGORIES = (
    ("income", "Income"),
    ("food", "Food"),
    ("housing", "Housing"),
    ("social", "Social"),
    ("entertainment", "Entertainment"),
    ("transportation", "Transportation"),
    ("clothes", "Clothes"),
    ("health_care", "Health Care"),
    ("education", "Education"),
    ("donation", "Donation"),
)
CATEGORY_LABEL = dict(CATEGORIES)
CURRENCIES = (
    ("usd", "US Dollar", "$"),
    ("eur", "Euro", "€"),
    ("gbp", "British Pound", "£"),
    ("mmk", "Myanmar Kyat", "Ks"),
    ("jpy", "Japanese Yen", "¥"),
)
SYMBOL = {key: symbol for key, _, symbol in CURRENCIES}
WEEKDAYS = ("S", "M", "T", "W", "T", "F", "S")
_AMOUNT = re.compile(r"^\d{1,8}(\.\d{1,2})?$")


# ------------------------------------------------------------------ formatting
def parse_date(value: Any) -> dt.date | None:
    try:
        return dt.date.fromisoformat(str(value)[:10])
    except ValueError:
        return None


def amount_text(cents: Any) -> str:
    """Cents as the app shows them: "1,250.00"."""
    try:
        value = int(cents)
    except (TypeError, ValueError):
        value = 0
    sign = "-" if value < 0 else ""
    whole, part = divmod(abs(value), 100)
    return f"{sign}{whole:,}.{part:02d}"


def parse_amount(typed: str) -> int | None:
    """What was typed into the amount field, in cents; None when it is not an amount."""
    cleaned = typed.strip().replace(",", "").lstrip("$€£¥")
    if not _AMOUNT.match(cleaned):
        return None
    whole, _, part = cleaned.partition(".")
    return int(whole) * 100 + int((part + "00")[:2])


def short_date(day: dt.date) -> str:
    """The date of a row and of the detail sheet: "14/5/2026"."""
    return f"{day.day}/{day.month}/{day.year}"


def header_date(day: dt.date, today: dt.date) -> str:
    if day == today:
        return "Today"
    if day == today - dt.timedelta(days=1):
        return "Yesterday"
    return f"{day.day} {day:%b} {day.year}"


def day_desc(day: dt.date) -> str:
    return f"{day:%a}, {day:%b} {day.day}, {day.year}"


# ------------------------------------------------------------------ views
def text(value: str, name: str = "", **kw: Any) -> View:
    return View(w.TEXT, text=value, rid=f"{PACKAGE}:id/{name}" if name else "", **kw)


def icon(desc: str, key: str | None, name: str = "", arg: Any = None, **kw: Any) -> View:
    return View(
        w.IMAGE_BUTTON,
        desc=desc,
        rid=f"{PACKAGE}:id/{name}" if name else "",
        clickable=key is not None,
        focusable=key is not None,
        on_click=key,
        arg=arg,
        weight=kw.pop("weight", 0.15),
        **kw,
    )


def row(*children: View, height: int = 0, **kw: Any) -> View:
    return View(w.LINEAR, horizontal=True, children=list(children), height=height, **kw)


class Expense(App):
    model = "expense"
    package = PACKAGE
    label = "Pro Expense"
    activity = MAIN_ACTIVITY
    home = "main"

    # ------------------------------------------------------------ reading
    def at(self, ctx: Ctx, index: Any) -> dict[str, Any] | None:
        found = ctx.records("expenses")
        if isinstance(index, int) and 0 <= index < len(found):
            return found[index]
        return None

    def newest(self, ctx: Ctx) -> list[int]:
        """Positions of the expenses, newest date first (later entries first on a day)."""
        found = list(enumerate(ctx.records("expenses")))
        found.sort(key=lambda it: (str(it[1].get("date") or ""), it[0]), reverse=True)
        return [i for i, _ in found]

    def symbol(self, ctx: Ctx) -> str:
        return SYMBOL.get(str(ctx.setting("currency") or "usd"), "$")

    def item(
        self,
        ctx: Ctx,
        index: int,
        selected: bool = False,
        selecting: bool = False,
        logs: bool = False,
    ) -> View:
        """A row of an expense; in the logs a long press selects it."""
        e = ctx.records("expenses")[index]
        day = parse_date(e.get("date"))
        category = CATEGORY_LABEL.get(str(e.get("category")), str(e.get("category")))
        body = View(
            w.LINEAR,
            weight=0.5,
            children=[
                text(str(e.get("name", "")), "tv_name", height=90),
                text(short_date(day) if day else "", "tv_date", height=70),
            ],
        )
        amount = row(
            text(amount_text(e.get("amount")), "tv_amount", weight=0.75),
            text(self.symbol(ctx), "tv_currency_symbol", weight=0.25),
            rid=self.rid("linear_amount"),
            weight=0.35,
        )
        return View(
            w.RELATIVE,
            rid=self.rid("cd_expense"),
            horizontal=True,
            clickable=True,
            focusable=True,
            long_clickable=logs,
            selected=selected,
            on_click="tap_item" if selecting else "detail",
            on_long="select" if logs else None,
            arg=index,
            height=180,
            children=[
                View(w.IMAGE, rid=self.rid("imv_category"), desc=category, weight=0.15),
                body,
                amount,
            ],
        )

    # ------------------------------------------------------------ home
    def toolbar(
        self, title: str, key: str = "drawer", desc: str = "Open navigation drawer"
    ) -> View:
        return row(
            icon(desc, key, "btn_menu"),
            text(title, "tv_title", weight=0.85),
            rid=self.rid("toolbar"),
            height=150,
        )

    def screen_main(self, ctx: Ctx, route: Route) -> Screen:
        today = ctx.now.date()
        week_start = today - dt.timedelta(days=(today.weekday() + 1) % 7)  # from Sunday
        week = sum(
            int(e.get("amount") or 0)
            for e in ctx.records("expenses")
            if e.get("category") != "income"
            and (d := parse_date(e.get("date"))) is not None
            and week_start <= d <= today
        )
        card = View(
            w.FRAME,
            rid=self.rid("cd_value"),
            height=330,
            children=[
                View(
                    w.LINEAR,
                    children=[
                        text("Expenses in this Week", "tv_week", height=100),
                        row(
                            text(amount_text(week), "tv_value", weight=0.8),
                            text(self.symbol(ctx), "tv_currency", weight=0.2),
                            height=150,
                        ),
                    ],
                )
            ],
        )
        recent = row(
            text("Recent", "tv_transition", weight=0.7),
            button("More", "logs", rid=self.rid("btn_recent_more"), weight=0.3),
            height=130,
        )
        rows = [self.item(ctx, i) for i in self.newest(ctx)[:10]]
        if not rows:
            rows.append(text("No spending logged yet this month", "tv_empty", height=300))
        fab = View(
            w.IMAGE_BUTTON,
            rid=self.rid("fb_add"),
            desc="Add",
            clickable=True,
            focusable=True,
            on_click="new",
        )
        return Screen(
            None,
            header=[self.toolbar("Home"), card, recent],
            rows=rows,
            fab=fab,
            list_rid=self.rid("rv_recent"),
        )

    # ------------------------------------------------------------ drawer
    def on_drawer(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("drawer")

    def screen_drawer(self, ctx: Ctx, route: Route) -> Screen:
        items = (
            ("Home", "main"),
            ("Expense Logs", "logs"),
            ("Statistics", "statistics"),
            ("Settings", "settings"),
        )
        rows = [
            text("Pro Expense", "tv_app_name", height=200),
            *(
                View(
                    w.LINEAR,
                    rid=self.rid("nav_item"),
                    clickable=True,
                    focusable=True,
                    on_click="go",
                    arg=screen,
                    height=140,
                    children=[text(label, "design_menu_item_text")],
                )
                for label, screen in items
            ),
        ]
        return Screen(None, rows=rows, list_rid=self.rid("nav_view"))

    def on_go(self, ctx: Ctx, screen: Any) -> None:
        ctx.back_to("main")
        if screen != "main":
            ctx.push(str(screen))

    def on_back(self, ctx: Ctx, arg: Any) -> None:
        ctx.hide_keyboard()
        ctx.back()

    # ------------------------------------------------------------ logs
    def on_logs(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("logs")

    def selection(self, ctx: Ctx) -> list[int]:
        raw = ctx.form("selected")
        return [int(p) for p in raw.split(",") if p.isdigit()] if raw else []

    def screen_logs(self, ctx: Ctx, route: Route) -> Screen:
        chosen = self.selection(ctx)
        selecting = bool(chosen)
        if selecting:
            toolbar = row(
                icon("Close", "clear_selection", "btn_close"),
                text(f"{len(chosen)} selected", "tv_title", weight=0.55),
                icon("Select All", "select_all", "btn_select_all"),
                icon("Delete", "delete_selected", "btn_delete"),
                rid=self.rid("toolbar"),
                height=150,
            )
        else:
            toolbar = self.toolbar("Expense Logs", "back", "Navigate up")
        rows: list[View] = []
        today = ctx.now.date()
        last = None
        for i in self.newest(ctx):
            day = parse_date(ctx.records("expenses")[i].get("date"))
            header = header_date(day, today) if day else ""
            if header != last:
                rows.append(text(header, "tv_date_header", height=100))
                last = header
            rows.append(self.item(ctx, i, i in chosen, selecting, logs=True))
        if not rows:
            rows.append(text("No Data", "tv_no_data", height=300))
        return Screen(None, header=[toolbar], rows=rows, list_rid=self.rid("rv_expense"))

    def put_selection(self, ctx: Ctx, chosen: list[int]) -> None:
        ctx.set_form("selected", ",".join(str(i) for i in sorted(set(chosen))))

    def on_select(self, ctx: Ctx, index: Any) -> None:
        assert ctx.route is not None
        if ctx.route.screen != "logs" or self.at(ctx, index) is None:
            return
        chosen = self.selection(ctx)
        if index not in chosen:
            self.put_selection(ctx, [*chosen, index])

    def on_tap_item(self, ctx: Ctx, index: Any) -> None:
        chosen = self.selection(ctx)
        if index in chosen:
            chosen.remove(index)
        elif self.at(ctx, index) is not None:
            chosen.append(index)
        self.put_selection(ctx, chosen)

    def on_clear_selection(self, ctx: Ctx, arg: Any) -> None:
        self.put_selection(ctx, [])

    def on_select_all(self, ctx: Ctx, arg: Any) -> None:
        self.put_selection(ctx, list(range(len(ctx.records("expenses")))))

    def on_delete_selected(self, ctx: Ctx, arg: Any) -> None:
        chosen = self.selection(ctx)
        if chosen:
            self.confirm_delete(ctx, chosen)

    def confirm_delete(self, ctx: Ctx, chosen: list[int]) -> None:
        n = len(chosen)
        message = f"{n} item{'s' if n != 1 else ''} will be deleted!"
        ctx.dialog(
            Dialog(
                "Delete Items",
                message=message,
                buttons=[("Confirm", "delete_ok", tuple(chosen)), ("Cancel", None, None)],
            )
        )

    def on_delete_ok(self, ctx: Ctx, chosen: Any) -> None:
        found = ctx.records("expenses")
        doomed = [found[i] for i in chosen if isinstance(i, int) and 0 <= i < len(found)]
        for record in doomed:
            ctx.delete("expenses", record)
        if ctx.route is not None and ctx.route.screen == "logs":
            self.put_selection(ctx, [])
        ctx.toast("Item Deleted" if len(doomed) == 1 else "Items Deleted")

    # ------------------------------------------------------------ detail
    def on_detail(self, ctx: Ctx, index: Any) -> None:
        e = self.at(ctx, index)
        if e is None:
            return
        day = parse_date(e.get("date"))
        category = CATEGORY_LABEL.get(str(e.get("category")), str(e.get("category")))
        lines = (
            ("Name", str(e.get("name", "")), "tv_name_value"),
            ("Amount", f"{self.symbol(ctx)} {amount_text(e.get('amount'))}", "tv_amount_value"),
            ("Category", category, "tv_category_value"),
            ("Date", short_date(day) if day else "", "tv_date_value"),
            ("Note", str(e.get("note") or ""), "tv_note_value"),
        )
        items = [
            row(text(label, weight=0.35), text(value, name, weight=0.65), height=110)
            for label, value, name in lines
        ]
        items.append(
            row(
                button("Edit", "edit", index, rid=self.rid("btn_edit")),
                button("Delete", "detail_delete", index, rid=self.rid("btn_delete")),
                height=140,
            )
        )
        ctx.dialog(Dialog("Expense Detail", items=items))

    def on_detail_delete(self, ctx: Ctx, index: Any) -> None:
        if self.at(ctx, index) is not None:
            self.confirm_delete(ctx, [index])

    # ------------------------------------------------------------ entry
    def on_new(self, ctx: Ctx, arg: Any) -> None:
        route = ctx.push("entry", index=None)
        values = {
            "name": "",
            "amount": "",
            "category": "food",
            "note": "",
            "date": ctx.now.date().isoformat(),
        }
        for name, value in values.items():
            ctx.set_form(name, value, route=route)

    def on_edit(self, ctx: Ctx, index: Any) -> None:
        e = self.at(ctx, index)
        if e is None:
            return
        route = ctx.push("entry", index=index)
        values = {
            "name": str(e.get("name", "")),
            "amount": amount_text(e.get("amount")).replace(",", ""),
            "category": str(e.get("category") or "food"),
            "note": str(e.get("note") or ""),
            "date": str(e.get("date") or ctx.now.date().isoformat()),
        }
        for name, value in values.items():
            ctx.set_form(name, value, route=route)

    def screen_entry(self, ctx: Ctx, route: Route) -> Screen:
        editing = route.arg("index") is not None
        toolbar = row(
            text("Update Data" if editing else "Expense Entry", "tv_entry_title", weight=0.85),
            icon("Close", "back", "btn_entry_close"),
            rid=self.rid("tb_entry"),
            height=150,
        )
        category = CATEGORY_LABEL.get(ctx.form("category"), "Category")
        day = parse_date(ctx.form("date")) or ctx.now.date()

        def picker(label: str, value: str, name: str, key: str) -> View:
            return View(
                w.LINEAR,
                rid=self.rid(f"{name}_layout"),
                horizontal=True,
                clickable=True,
                focusable=True,
                on_click=key,
                height=150,
                children=[text(label, weight=0.35), text(value, name, weight=0.65)],
            )

        rows = [
            View(w.EDIT, rid=self.rid("edt_name"), edit="name", hint="Name", height=160),
            View(w.EDIT, rid=self.rid("edt_amount"), edit="amount", hint="Amount", height=160),
            picker("Category", category, "tv_category", "pick_category"),
            View(w.EDIT, rid=self.rid("edt_note"), edit="note", hint="Note", height=220),
            picker("Date", short_date(day), "tv_date", "pick_date"),
            button("Update" if editing else "Save", "save", rid=self.rid("btn_save"), height=160),
        ]
        return Screen(None, header=[toolbar], rows=rows, list_cls=w.SCROLL)

    def on_pick_category(self, ctx: Ctx, arg: Any) -> None:
        ctx.hide_keyboard()
        ctx.dialog(
            choice_dialog(
                "Category",
                CATEGORIES,
                ctx.form("category"),
                "set_category",
                rid=self.rid("tv_category_name"),
                height=120,
                cancel=True,
            )
        )

    def on_set_category(self, ctx: Ctx, key: Any) -> None:
        ctx.set_form("category", str(key))

    def on_save(self, ctx: Ctx, arg: Any) -> None:
        assert ctx.route is not None
        ctx.hide_keyboard()
        name = " ".join(ctx.form("name").split())
        typed = ctx.form("amount").strip()
        if not typed:
            ctx.toast("Cost is Empty")
            return
        cents = parse_amount(typed)
        if cents is None or cents <= 0:
            ctx.toast("Invalid Amount")
            return
        values: dict[str, Any] = {
            "name": name,
            "amount": cents,
            "category": ctx.form("category") or "food",
            "note": ctx.form("note").strip(),
            "date": ctx.form("date") or ctx.now.date().isoformat(),
        }
        index = ctx.route.arg("index")
        if index is None:
            ctx.add("expenses", values)
            ctx.back()
            return
        e = self.at(ctx, index)
        if e is not None:
            changes = {k: v for k, v in values.items() if e.get(k) != v}
            if changes:
                ctx.update("expenses", e, **changes)
            ctx.toast("Data Updated!")
        ctx.back()

    # the date dialog ------------------------------------------------------------
    def on_pick_date(self, ctx: Ctx, arg: Any) -> None:
        ctx.hide_keyboard()
        day = parse_date(ctx.form("date")) or ctx.now.date()
        ctx.set_form("pick_date", day.isoformat())
        ctx.set_form("pick_month", f"{day:%Y-%m}")
        self.calendar(ctx)

    def calendar(self, ctx: Ctx) -> None:
        picked = parse_date(ctx.form("pick_date"))
        year, month = (int(p) for p in ctx.form("pick_month").split("-"))
        header = row(
            icon("Previous month", "pick_month", "month_previous", arg=-1),
            text(f"{calendar.month_name[month]} {year}", "month_title", weight=0.7),
            icon("Next month", "pick_month", "month_next", arg=1),
            height=130,
        )
        names = row(*(text(d, height=90) for d in WEEKDAYS), height=90)
        weeks: list[View] = []
        for week in calendar.Calendar(firstweekday=6).monthdatescalendar(year, month):
            cells = [
                View(
                    w.TEXT,
                    text=str(day.day),
                    desc=day_desc(day),
                    rid=self.rid("calendar_day"),
                    clickable=True,
                    focusable=True,
                    selected=day == picked,
                    on_click="pick_day",
                    arg=day.isoformat(),
                )
                if day.month == month
                else View(w.VIEW)
                for day in week
            ]
            weeks.append(row(*cells, height=115))
        ctx.dialog(
            Dialog(
                "Date",
                items=[header, names, *weeks],
                buttons=[("OK", "date_ok", None), ("Cancel", None, None)],
            )
        )

    def on_pick_day(self, ctx: Ctx, day: Any) -> None:
        ctx.set_form("pick_date", str(day))
        self.calendar(ctx)

    def on_pick_month(self, ctx: Ctx, delta: Any) -> None:
        year, month = (int(p) for p in ctx.form("pick_month").split("-"))
        month += int(delta)
        year, month = year + (month - 1) // 12, (month - 1) % 12 + 1
        ctx.set_form("pick_month", f"{year:04d}-{month:02d}")
        self.calendar(ctx)

    def on_date_ok(self, ctx: Ctx, arg: Any) -> None:
        if ctx.form("pick_date"):
            ctx.set_form("date", ctx.form("pick_date"))

    # ------------------------------------------------------------ statistics
    def screen_statistics(self, ctx: Ctx, route: Route) -> Screen:
        month = ctx.form("month") or f"{ctx.now:%Y-%m}"
        year, mon = (int(p) for p in month.split("-"))
        totals: dict[str, int] = {}
        for e in ctx.records("expenses"):
            if str(e.get("date") or "")[:7] == month:
                key = str(e.get("category"))
                totals[key] = totals.get(key, 0) + int(e.get("amount") or 0)
        spent = sum(v for k, v in totals.items() if k != "income")
        nav = row(
            icon("Previous month", "stat_month", "btn_previous", arg=-1),
            text(f"{calendar.month_name[mon]} {year}", "tv_month", weight=0.7),
            icon("Next month", "stat_month", "btn_next", arg=1),
            height=140,
        )
        summary = row(
            text("Total", weight=0.5),
            text(f"{self.symbol(ctx)} {amount_text(spent)}", "tv_total", weight=0.5),
            height=120,
        )
        rows: list[View] = [text("Category Statistics", "tv_category_statistics", height=110)]
        for key, total in sorted(totals.items(), key=lambda kv: (-kv[1], kv[0])):
            share = 0.0 if key == "income" or not spent else total * 100 / spent
            rows.append(
                View(
                    w.LINEAR,
                    rid=self.rid("cl_category"),
                    horizontal=True,
                    height=140,
                    children=[
                        text(CATEGORY_LABEL.get(key, key), "tv_name", weight=0.4),
                        text(
                            f"{share:.1f}%" if key != "income" else "", "tv_percentage", weight=0.25
                        ),
                        text(f"{self.symbol(ctx)} {amount_text(total)}", "tv_amount", weight=0.35),
                    ],
                )
            )
        if not totals:
            rows.append(text("No Data", "tv_no_data", height=300))
        return Screen(
            None,
            header=[self.toolbar("Statistics", "back", "Navigate up"), nav, summary],
            rows=rows,
            list_rid=self.rid("rv_statistics"),
        )

    def on_stat_month(self, ctx: Ctx, delta: Any) -> None:
        month = ctx.form("month") or f"{ctx.now:%Y-%m}"
        year, mon = (int(p) for p in month.split("-"))
        mon += int(delta)
        year, mon = year + (mon - 1) // 12, (mon - 1) % 12 + 1
        ctx.set_form("month", f"{year:04d}-{mon:02d}")

    # ------------------------------------------------------------ settings
    def screen_settings(self, ctx: Ctx, route: Route) -> Screen:
        currency = str(ctx.setting("currency") or "usd")
        name = next((n for k, n, _ in CURRENCIES if k == currency), currency)
        rows = [
            View(
                w.LINEAR,
                rid=self.rid("fl_currency"),
                clickable=True,
                focusable=True,
                on_click="currency",
                height=170,
                children=[
                    text("Currency", "tv_currency_label", height=90),
                    text(f"{name} ({SYMBOL.get(currency, '')})", "tv_currency_value", height=80),
                ],
            )
        ]
        return Screen(
            None,
            header=[self.toolbar("Settings", "back", "Navigate up")],
            rows=rows,
            list_cls=w.SCROLL,
        )

    def on_currency(self, ctx: Ctx, arg: Any) -> None:
        options = [(k, f"{n} ({s})") for k, n, s in CURRENCIES]
        ctx.dialog(
            choice_dialog(
                "Choose Currency",
                options,
                ctx.setting("currency"),
                "set_currency",
                rid=self.rid("tv_currency_name"),
                cancel=True,
            )
        )

    def on_set_currency(self, ctx: Ctx, key: Any) -> None:
        if ctx.setting("currency") != key:
            ctx.set("currency", key)


APP = Expense
