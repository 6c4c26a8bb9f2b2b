"""Tasks.org (``org.tasks``), the to-do app AndroidWorld installs.

- Task list (``com.todoroo.astrid.activity.MainActivity``): the toolbar (navigation drawer,
  the filter's name, search, "More options"), one row per task (``rowBody``: the completion
  box ``completeBox``, the ``title``, the due date chip ``due_date``, the first line of the
  description and, outside the list's own filter, the list chip), and the "Create new task"
  button (``fab``). Completed tasks are hidden unless "Show completed" is checked in the
  menu; they then follow the open ones under a "Completed" header. The menu also sorts (due
  date, priority, alphabetical, created) and clears the filter's completed tasks, after a
  confirmation. A long press on a row selects it ("N selected", with Select all and Delete,
  which asks before it deletes); while tasks are selected a tap selects or unselects.
- Navigation drawer: the filters "My Tasks" (every task) and "Today" (due today or overdue),
  the local lists with their counts of open tasks, and "New list".
- Search: tasks (completed ones too) whose title or description holds the query.
- Task editor (the same activity): completion box, ``title`` ("Task name"), the due date row
  (a date sheet: Today / Tomorrow / Next week / No date, a month calendar and the time of day
  presets), the priority (``priority_high`` ... ``priority_none``), the list and the
  description (``notes``). "Save" writes the task; back discards; the menu deletes it after a
  confirmation.

Tasks are addressed by their position in the ``tasks`` collection, which nothing reorders
while a task is open.
"""

from __future__ import annotations

import calendar
import datetime as dt
from typing import Any

from tasklang.envs.phoneworld import widgets as w
from tasklang.envs.phoneworld.app import App, Ctx, Dialog, Route, Screen
from tasklang.envs.phoneworld.apps.common import checkbox, menu_item, radio
from tasklang.envs.phoneworld.widgets import View

PACKAGE = "org.tasks"
MAIN_ACTIVITY = "com.todoroo.astrid.activity.MainActivity"
DEFAULT_LIST = "Default list"
MY_TASKS = "my_tasks"
TODAY = "today"
PRIORITIES = (
    ("high", "High", "priority_high"),
    ("medium", "Medium", "priority_medium"),
    ("low", "Low", "priority_low"),
    ("none", "None", "priority_none"),
)
PRIORITY_RANK = {key: i for i, (key, _, _) in enumerate(PRIORITIES)}
SORTS = (
    ("due_date", "Due date"),
    ("priority", "Priority"),
    ("title", "Alphabetical"),
    ("created", "Created date"),
)
TIMES = (
    ("", "No time"),
    ("09:00:00", "9:00 AM"),
    ("13:00:00", "1:00 PM"),
    ("17:00:00", "5:00 PM"),
    ("20:00:00", "8:00 PM"),
)
WEEKDAYS = ("S", "M", "T", "W", "T", "F", "S")
ALL_DAY = "12:00:00"  # the app keeps a date without a time at noon


# ------------------------------------------------------------------ formatting
def parse_date(value: Any) -> dt.date | None:
    try:
        return dt.date.fromisoformat(str(value)[:10])
    except ValueError:
        return None


def time_label(value: Any) -> str:
    """ "09:00:00" as the app shows it: "9:00 AM"."""
    try:
        t = dt.time.fromisoformat(str(value))
    except ValueError:
        return ""
    return f"{t.hour % 12 or 12}:{t.minute:02d} {'AM' if t.hour < 12 else 'PM'}"


def date_label(day: dt.date, today: dt.date) -> str:
    """A due date: "Today", "Tomorrow", "Yesterday", "Mon, May 18" or "May 18, 2025"."""
    if day == today:
        return "Today"
    if day == today + dt.timedelta(days=1):
        return "Tomorrow"
    if day == today - dt.timedelta(days=1):
        return "Yesterday"
    if day.year == today.year:
        return f"{day:%a}, {day:%b} {day.day}"
    return f"{day:%b} {day.day}, {day.year}"


def due_label(due: Any, due_time: Any, today: dt.date) -> str:
    day = parse_date(due) if due else None
    if day is None:
        return ""
    label = date_label(day, today)
    return f"{label}, {time_label(due_time)}" if due_time else label


def day_desc(day: dt.date) -> str:
    """The content description of a calendar day: "Thu, May 14, 2026"."""
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


class Tasks(App):
    model = "tasks"
    package = PACKAGE
    label = "Tasks"
    activity = MAIN_ACTIVITY
    home = "main"

    # ------------------------------------------------------------ reading
    def task_at(self, ctx: Ctx, index: Any) -> dict[str, Any] | None:
        found = ctx.records("tasks")
        if isinstance(index, int) and 0 <= index < len(found):
            return found[index]
        return None

    def list_names(self, ctx: Ctx) -> list[str]:
        names = {str(r.get("name", "")) for r in ctx.records("lists")}
        names |= {str(t.get("list") or DEFAULT_LIST) for t in ctx.records("tasks")}
        names.add(DEFAULT_LIST)
        return sorted((n for n in names if n), key=str.casefold)

    def in_filter(self, ctx: Ctx, task: dict[str, Any], flt: str) -> bool:
        if flt == TODAY:
            day = parse_date(task.get("due")) if task.get("due") else None
            return day is not None and day <= ctx.now.date()
        if flt.startswith("list:"):
            return str(task.get("list") or DEFAULT_LIST) == flt[5:]
        return True

    def filter_title(self, flt: str) -> str:
        if flt == TODAY:
            return "Today"
        if flt.startswith("list:"):
            return flt[5:]
        return "My Tasks"

    def ordered(self, ctx: Ctx, items: list[tuple[int, dict[str, Any]]]) -> list[int]:
        sort = str(ctx.setting("sort") or "due_date")

        def key(item: tuple[int, dict[str, Any]]) -> tuple[Any, ...]:
            i, t = item
            due = str(t.get("due") or "9999-12-31")
            when = (due, str(t.get("due_time") or ALL_DAY))
            if sort == "priority":
                return (PRIORITY_RANK.get(str(t.get("priority")), 3), when, i)
            if sort == "title":
                return (str(t.get("title", "")).casefold(), i)
            if sort == "created":
                return (str(t.get("created") or ""), i)
            return (when, PRIORITY_RANK.get(str(t.get("priority")), 3), i)

        reverse = sort == "created"
        return [i for i, _ in sorted(items, key=key, reverse=reverse)]

    # ------------------------------------------------------------ task list
    def screen_main(self, ctx: Ctx, route: Route) -> Screen:
        flt = str(route.arg("filter", MY_TASKS))
        chosen = self.selection(ctx)
        if chosen:  # the action mode of a selection
            toolbar = row(
                icon("Done", "clear_selection", "action_mode_close_button"),
                text(f"{len(chosen)} selected", "toolbar_title", weight=0.55),
                icon("Select all", "select_all", "select_all", arg=flt),
                icon("Delete", "delete_selected", "delete"),
                rid=self.rid("toolbar"),
                height=150,
            )
        else:
            toolbar = row(
                icon("Open navigation drawer", "drawer"),
                text(self.filter_title(flt), "toolbar_title", weight=0.55),
                icon("Search", "search", "menu_search"),
                icon("More options", "menu"),
                rid=self.rid("toolbar"),
                height=150,
            )
        tasks = list(enumerate(ctx.records("tasks")))
        shown = [(i, t) for i, t in tasks if self.in_filter(ctx, t, flt)]
        active = self.ordered(ctx, [(i, t) for i, t in shown if not t.get("completed")])
        done = [(i, t) for i, t in shown if t.get("completed")]
        own_list = flt.startswith("list:")
        rows = [self.task_row(ctx, i, not own_list, chosen, main=True) for i in active]
        if ctx.setting("show_completed") and done:
            rows.append(text("Completed", "header", height=110))
            done.sort(key=lambda it: str(it[1].get("completed_at") or ""), reverse=True)
            rows += [self.task_row(ctx, i, False, chosen, main=True) for i, _ in done]
        if not rows:
            rows.append(text("No tasks", "body_empty", height=400))
        fab = View(
            w.IMAGE_BUTTON,
            rid=self.rid("fab"),
            desc="Create new task",
            clickable=True,
            focusable=True,
            on_click="new",
            arg=flt,
        )
        return Screen(
            None, header=[toolbar], rows=rows, fab=fab, list_rid=self.rid("recycler_view")
        )

    def task_row(
        self,
        ctx: Ctx,
        index: int,
        show_list: bool,
        chosen: list[int] | None = None,
        main: bool = False,
    ) -> View:
        """A task's row; on the task list a long press selects it, and while tasks are
        selected a tap selects or unselects."""
        t = ctx.records("tasks")[index]
        done = bool(t.get("completed"))
        lines = [text(str(t.get("title", "")), "title", height=90)]
        chips: list[View] = []
        due = due_label(t.get("due"), t.get("due_time"), ctx.now.date())
        if due:
            chips.append(text(due, "due_date", weight=0.5))
        if show_list:
            chips.append(text(str(t.get("list") or DEFAULT_LIST), "chip_list", weight=0.5))
        notes = str(t.get("notes") or "").strip()
        if notes:
            lines.append(text(notes.splitlines()[0], "description", height=70))
        if chips:
            lines.append(row(*chips, height=70))
        box = checkbox(
            "",
            done,
            "toggle",
            index,
            rid=self.rid("completeBox"),
            height=0,
            weight=0.15,
            desc="Complete" if not done else "Completed",
        )
        body = View(w.LINEAR, weight=0.85, children=lines)
        return View(
            w.LINEAR,
            rid=self.rid("rowBody"),
            horizontal=True,
            clickable=True,
            focusable=True,
            long_clickable=main,
            selected=index in (chosen or []),
            on_click="pick_task" if chosen else "edit",
            on_long="pick_task" if main else None,
            arg=index,
            height=max(150, sum(w.natural_height(v) for v in lines) + 30),
            children=[box, body],
        )

    # selection ----------------------------------------------------------------
    def selection(self, ctx: Ctx) -> list[int]:
        raw = ctx.form("selected")
        return [int(p) for p in raw.split(",") if p.isdigit()] if raw else []

    def put_selection(self, ctx: Ctx, chosen: list[int]) -> None:
        ctx.set_form("selected", ",".join(str(i) for i in sorted(set(chosen))))

    def on_pick_task(self, ctx: Ctx, index: Any) -> None:
        chosen = self.selection(ctx)
        if index in chosen:
            chosen.remove(index)
        elif self.task_at(ctx, index) is not None:
            chosen.append(index)
        self.put_selection(ctx, chosen)

    def on_clear_selection(self, ctx: Ctx, arg: Any) -> None:
        self.put_selection(ctx, [])

    def on_select_all(self, ctx: Ctx, flt: Any) -> None:
        show_done = bool(ctx.setting("show_completed"))
        chosen = [
            i
            for i, t in enumerate(ctx.records("tasks"))
            if self.in_filter(ctx, t, str(flt)) and (show_done or not t.get("completed"))
        ]
        self.put_selection(ctx, chosen)

    def on_delete_selected(self, ctx: Ctx, arg: Any) -> None:
        chosen = self.selection(ctx)
        if not chosen:
            return
        n = len(chosen)
        ctx.dialog(
            Dialog(
                "",
                message=f"Delete {n} task{'s' if n != 1 else ''}?",
                buttons=[("Delete", "delete_selected_ok", tuple(chosen)), ("Cancel", None, None)],
            )
        )

    def on_delete_selected_ok(self, ctx: Ctx, chosen: Any) -> None:
        found = ctx.records("tasks")
        doomed = [found[i] for i in chosen if isinstance(i, int) and 0 <= i < len(found)]
        for task in doomed:
            ctx.delete("tasks", task)
        self.put_selection(ctx, [])
        n = len(doomed)
        ctx.toast(f"Deleted {n} task{'s' if n != 1 else ''}")

    def on_toggle(self, ctx: Ctx, index: Any) -> None:
        task = self.task_at(ctx, index)
        if task is None:
            return
        if task.get("completed"):
            ctx.update("tasks", task, completed=False, completed_at=None)
        else:
            ctx.update(
                "tasks", task, completed=True, completed_at=ctx.now.isoformat(timespec="seconds")
            )

    def on_menu(self, ctx: Ctx, arg: Any) -> None:
        assert ctx.route is not None
        flt = str(ctx.route.arg("filter", MY_TASKS))
        shown = bool(ctx.setting("show_completed"))
        items = [
            menu_item("Sort", "sort_menu"),
            checkbox(
                "Show completed",
                shown,
                "show_completed",
                None,
                rid=self.rid("menu_show_completed"),
                height=132,
            ),
            menu_item("Clear completed", "clear_completed", flt),
        ]
        ctx.dialog(Dialog("", items=items))

    def on_sort_menu(self, ctx: Ctx, arg: Any) -> None:
        current = str(ctx.setting("sort") or "due_date")
        items = [
            radio(label, key == current, "set_sort", key, rid=self.rid("sort_option"))
            for key, label in SORTS
        ]
        ctx.dialog(Dialog("Sort", items=items, buttons=[("Cancel", None, None)]))

    def on_set_sort(self, ctx: Ctx, key: Any) -> None:
        if ctx.setting("sort") != key:
            ctx.set("sort", key)

    def on_show_completed(self, ctx: Ctx, arg: Any) -> None:
        ctx.set("show_completed", not ctx.setting("show_completed"))

    def on_clear_completed(self, ctx: Ctx, flt: Any) -> None:
        done = [t for t in ctx.records("tasks") if t.get("completed")]
        done = [t for t in done if self.in_filter(ctx, t, str(flt))]
        if not done:
            ctx.toast("No completed tasks")
            return
        n = len(done)
        message = f"Delete {n} completed task{'s' if n != 1 else ''}?"
        ctx.dialog(
            Dialog(
                "Clear completed",
                message=message,
                buttons=[("OK", "clear_completed_ok", flt), ("Cancel", None, None)],
            )
        )

    def on_clear_completed_ok(self, ctx: Ctx, flt: Any) -> None:
        keep = [
            t
            for t in ctx.records("tasks")
            if not (t.get("completed") and self.in_filter(ctx, t, str(flt)))
        ]
        gone = len(ctx.records("tasks")) - len(keep)
        for t in [t for t in ctx.records("tasks") if t not in keep]:
            ctx.delete("tasks", t)
        self.put_selection(ctx, [])
        ctx.toast(f"Deleted {gone} task{'s' if gone != 1 else ''}")

    # ------------------------------------------------------------ drawer
    def on_drawer(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("drawer")

    def screen_drawer(self, ctx: Ctx, route: Route) -> Screen:
        stack = ctx.phone.stacks.get(self.model, [])
        below = stack[-2] if len(stack) > 1 else None
        current = str(below.arg("filter", MY_TASKS)) if below is not None else MY_TASKS
        open_tasks = [t for t in ctx.records("tasks") if not t.get("completed")]

        def item(label: str, flt: str) -> View:
            count = sum(1 for t in open_tasks if self.in_filter(ctx, t, flt))
            return View(
                w.LINEAR,
                rid=self.rid("drawer_item"),
                horizontal=True,
                clickable=True,
                focusable=True,
                selected=flt == current,
                on_click="pick_filter",
                arg=flt,
                height=140,
                children=[
                    text(label, "title", weight=0.8),
                    text(str(count) if count else "", "count", weight=0.2),
                ],
            )

        rows = [
            text("Filters", "header", height=100),
            item("My Tasks", MY_TASKS),
            item("Today", TODAY),
            text("Local lists", "header", height=100),
            *(item(name, f"list:{name}") for name in self.list_names(ctx)),
            View(
                w.LINEAR,
                rid=self.rid("drawer_item"),
                clickable=True,
                focusable=True,
                on_click="new_list",
                height=140,
                children=[text("New list", "title")],
            ),
        ]
        return Screen(None, rows=rows, list_rid=self.rid("navigation_view"))

    def on_pick_filter(self, ctx: Ctx, flt: Any) -> None:
        ctx.back_to("main")
        ctx.replace("main", filter=flt)

    def on_new_list(self, ctx: Ctx, arg: Any) -> None:
        ctx.set_form("new_list", "")
        field = View(w.EDIT, rid=self.rid("name"), edit="new_list", hint="Name", height=150)
        ctx.dialog(
            Dialog(
                "New list",
                items=[field],
                buttons=[("Save", "new_list_ok", None), ("Cancel", None, None)],
            )
        )
        ctx.focus("new_list")

    def on_new_list_ok(self, ctx: Ctx, arg: Any) -> None:
        ctx.hide_keyboard()
        name = " ".join(ctx.form("new_list").split())
        if not name:
            ctx.toast("Name cannot be empty")
            return
        if name.casefold() in (n.casefold() for n in self.list_names(ctx)):
            ctx.toast("List already exists")
            return
        ctx.add("lists", {"name": name})
        ctx.back_to("main")
        ctx.replace("main", filter=f"list:{name}")

    # ------------------------------------------------------------ search
    def on_search(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("search")
        ctx.phone.focus = (ctx.phone.stacks[self.model][-1].id, "query")
        ctx.phone.keyboard = True

    def screen_search(self, ctx: Ctx, route: Route) -> Screen:
        query = ctx.form("query").strip().casefold()
        box = row(
            icon("Navigate up", "back"),
            View(
                w.EDIT,
                rid=self.rid("search_src_text"),
                edit="query",
                hint="Search",
                weight=0.85,
            ),
            rid=self.rid("toolbar"),
            height=150,
        )
        rows: list[View] = []
        if query:
            for i, t in enumerate(ctx.records("tasks")):
                haystack = f"{t.get('title', '')}\n{t.get('notes') or ''}".casefold()
                if query in haystack:
                    rows.append(self.task_row(ctx, i, True))
            if not rows:
                rows.append(text("No tasks", "body_empty", height=400))
        return Screen(None, header=[box], rows=rows, list_rid=self.rid("recycler_view"))

    def on_back(self, ctx: Ctx, arg: Any) -> None:
        ctx.hide_keyboard()
        ctx.back()

    # ------------------------------------------------------------ the editor
    def on_new(self, ctx: Ctx, flt: Any) -> None:
        flt = str(flt or MY_TASKS)
        route = ctx.push("edit", index=None)
        values = {
            "title": "",
            "notes": "",
            "due": ctx.now.date().isoformat() if flt == TODAY else "",
            "due_time": "",
            "priority": "none",
            "list": flt[5:] if flt.startswith("list:") else DEFAULT_LIST,
            "completed": "",
        }
        for name, value in values.items():
            ctx.set_form(name, value, route=route)
        ctx.phone.focus = (route.id, "title")
        ctx.phone.keyboard = True

    def on_edit(self, ctx: Ctx, index: Any) -> None:
        task = self.task_at(ctx, index)
        if task is None:
            return
        ctx.hide_keyboard()
        route = ctx.push("edit", index=index)
        values = {
            "title": str(task.get("title", "")),
            "notes": str(task.get("notes") or ""),
            "due": str(task.get("due") or ""),
            "due_time": str(task.get("due_time") or ""),
            "priority": str(task.get("priority") or "none"),
            "list": str(task.get("list") or DEFAULT_LIST),
            "completed": "1" if task.get("completed") else "",
        }
        for name, value in values.items():
            ctx.set_form(name, value, route=route)

    def screen_edit(self, ctx: Ctx, route: Route) -> Screen:
        index = route.arg("index")
        toolbar = row(
            icon("Save", "save", "menu_save"),
            text("", weight=0.7),
            *([icon("More options", "edit_menu", arg=index)] if index is not None else []),
            rid=self.rid("toolbar"),
            height=150,
        )
        done = ctx.form("completed") == "1"
        due = due_label(ctx.form("due"), ctx.form("due_time"), ctx.now.date())
        priority = ctx.form("priority") or "none"
        title = row(
            checkbox(
                "",
                done,
                "edit_complete",
                None,
                rid=self.rid("completeBox"),
                height=0,
                weight=0.15,
                desc="Complete" if not done else "Completed",
            ),
            View(w.EDIT, rid=self.rid("title"), edit="title", hint="Task name", weight=0.85),
            height=170,
        )
        due_row = View(
            w.LINEAR,
            rid=self.rid("due_date_row"),
            horizontal=True,
            clickable=True,
            focusable=True,
            on_click="due",
            height=150,
            children=[
                View(w.IMAGE, desc="Due date", weight=0.15),
                text(due or "Due date", "due_date", weight=0.85),
            ],
        )
        prio = row(
            text("Priority", weight=0.8),
            *(
                radio(label, key == priority, "edit_priority", key, rid=self.rid(name))
                for key, label, name in PRIORITIES
            ),
            rid=self.rid("priority_row"),
            height=150,
        )
        list_row = View(
            w.LINEAR,
            rid=self.rid("list_row"),
            horizontal=True,
            clickable=True,
            focusable=True,
            on_click="edit_list",
            height=150,
            children=[
                View(w.IMAGE, desc="List", weight=0.15),
                text(ctx.form("list") or DEFAULT_LIST, "chip_list", weight=0.85),
            ],
        )
        notes = View(w.EDIT, rid=self.rid("notes"), edit="notes", hint="Description", height=300)
        rows = [title, due_row, prio, list_row, notes]
        if index is not None:
            task = self.task_at(ctx, index)
            created = str(task.get("created") or "") if task else ""
            when = created.replace("T", " ")[:16]
            if when:
                rows.append(text(f"Created {when}", "creation_date", height=100))
        return Screen(None, header=[toolbar], rows=rows, list_cls=w.SCROLL)

    def on_edit_complete(self, ctx: Ctx, arg: Any) -> None:
        ctx.set_form("completed", "" if ctx.form("completed") == "1" else "1")

    def on_edit_priority(self, ctx: Ctx, key: Any) -> None:
        ctx.set_form("priority", str(key))

    def on_edit_list(self, ctx: Ctx, arg: Any) -> None:
        current = ctx.form("list") or DEFAULT_LIST
        items = [
            radio(name, name == current, "edit_list_pick", name, rid=self.rid("list_name"))
            for name in self.list_names(ctx)
        ]
        ctx.dialog(Dialog("Select list", items=items, buttons=[("Cancel", None, None)]))

    def on_edit_list_pick(self, ctx: Ctx, name: Any) -> None:
        ctx.set_form("list", str(name))

    def on_save(self, ctx: Ctx, arg: Any) -> None:
        assert ctx.route is not None
        ctx.hide_keyboard()
        index = ctx.route.arg("index")
        task = self.task_at(ctx, index) if index is not None else None
        title = " ".join(ctx.form("title").split())
        due = ctx.form("due") or None
        values: dict[str, Any] = {
            "notes": ctx.form("notes").strip(),
            "due": due,
            "due_time": (ctx.form("due_time") or None) if due else None,
            "priority": ctx.form("priority") or "none",
            "list": ctx.form("list") or DEFAULT_LIST,
        }
        done = ctx.form("completed") == "1"
        stamp = ctx.now.isoformat(timespec="seconds")
        if task is None:
            if index is not None:  # the task went away meanwhile
                ctx.back()
                return
            if not title:  # an empty new task is discarded
                ctx.back()
                return
            values.update(
                title=title,
                completed=done,
                completed_at=stamp if done else None,
                created=stamp,
            )
            ctx.add("tasks", values)
            ctx.back()
            return
        values["title"] = title or task.get("title", "")
        if done != bool(task.get("completed")):
            values.update(completed=done, completed_at=stamp if done else None)
        changes = {k: v for k, v in values.items() if task.get(k) != v}
        if changes:
            ctx.update("tasks", task, **changes)
        ctx.back()

    def on_edit_menu(self, ctx: Ctx, index: Any) -> None:
        ctx.dialog(Dialog("", items=[menu_item("Delete", "delete", index)]))

    def on_delete(self, ctx: Ctx, index: Any) -> None:
        if self.task_at(ctx, index) is None:
            return
        ctx.dialog(
            Dialog(
                "",
                message="Delete task?",
                buttons=[("Delete", "delete_ok", index), ("Cancel", None, None)],
            )
        )

    def on_delete_ok(self, ctx: Ctx, index: Any) -> None:
        task = self.task_at(ctx, index)
        if task is None:
            return
        ctx.hide_keyboard()
        ctx.delete("tasks", task)
        ctx.back_to("main")
        ctx.toast("Task deleted")

    # ------------------------------------------------------------ the date sheet
    def on_due(self, ctx: Ctx, arg: Any) -> None:
        ctx.hide_keyboard()
        due = parse_date(ctx.form("due")) if ctx.form("due") else None
        shown = due or ctx.now.date()
        ctx.set_form("pick_due", due.isoformat() if due else "")
        ctx.set_form("pick_time", ctx.form("due_time"))
        ctx.set_form("pick_month", f"{shown:%Y-%m}")
        self.date_sheet(ctx)

    def date_sheet(self, ctx: Ctx) -> None:
        today = ctx.now.date()
        picked = parse_date(ctx.form("pick_due")) if ctx.form("pick_due") else None
        year, month = (int(p) for p in ctx.form("pick_month", f"{today:%Y-%m}").split("-"))
        shortcuts = (
            ("Today", today),
            ("Tomorrow", today + dt.timedelta(days=1)),
            ("Next week", today + dt.timedelta(days=7)),
            ("No date", None),
        )
        quick = row(
            *(
                View(
                    w.BUTTON,
                    text=label,
                    rid=self.rid("shortcut"),
                    clickable=True,
                    focusable=True,
                    selected=day == picked,
                    on_click="pick_day",
                    arg=day.isoformat() if day else "",
                )
                for label, day in shortcuts
            ),
            height=130,
        )
        header = row(
            icon("Previous month", "pick_month", "month_previous", arg=-1),
            text(f"{calendar.month_name[month]} {year}", "month_title", weight=0.7),
            icon("Next month", "pick_month", "month_next", arg=1),
            height=130,
        )
        names = row(*(text(d, height=90) for d in WEEKDAYS), height=90)
        weeks: list[View] = []
        for week in calendar.Calendar(firstweekday=6).monthdatescalendar(year, month):
            cells = []
            for day in week:
                if day.month != month:
                    cells.append(View(w.VIEW))
                    continue
                cells.append(
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
                )
            weeks.append(row(*cells, height=115))
        chosen = ctx.form("pick_time")
        times = row(
            *(
                radio(label, value == chosen, "pick_time", value, rid=self.rid("time_option"))
                for value, label in TIMES
            ),
            height=130,
        )
        ctx.dialog(
            Dialog(
                "Due date",
                items=[quick, header, names, *weeks, times],
                buttons=[("OK", "due_ok", None), ("Cancel", None, None)],
            )
        )

    def on_pick_day(self, ctx: Ctx, day: Any) -> None:
        ctx.set_form("pick_due", str(day))
        if day:
            ctx.set_form("pick_month", str(day)[:7])
        else:
            ctx.set_form("pick_time", "")
        self.date_sheet(ctx)

    def on_pick_month(self, ctx: Ctx, delta: Any) -> None:
        year, month = (int(p) for p in ctx.form("pick_month").split("-"))
        month += int(delta)
        year, month = year + (month - 1) // 12, (month - 1) % 12 + 1
        ctx.set_form("pick_month", f"{year:04d}-{month:02d}")
        self.date_sheet(ctx)

    def on_pick_time(self, ctx: Ctx, value: Any) -> None:
        ctx.set_form("pick_time", str(value))
        if value and not ctx.form("pick_due"):  # a time alone means today
            ctx.set_form("pick_due", ctx.now.date().isoformat())
        self.date_sheet(ctx)

    def on_due_ok(self, ctx: Ctx, arg: Any) -> None:
        due = ctx.form("pick_due")
        ctx.set_form("due", due)
        ctx.set_form("due_time", ctx.form("pick_time") if due else "")


APP = Tasks
