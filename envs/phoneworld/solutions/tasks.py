"""Reference solutions of the Tasks.org tasks."""

from __future__ import annotations

import datetime as dt

from tasklang.envs.phoneworld.solutions.base import Driver, SolutionError, reference


def rows(d: Driver) -> list[tuple[int, str, str, bool]]:
    """The visible task rows: (index of the completion box, title, due chip, checked)."""
    found: list[tuple[int, str, str, bool]] = []
    nodes = list(d.observe().walk())
    for i, v in enumerate(nodes):
        if not v.rid.endswith(":id/rowBody") or v.bounds[3] <= v.bounds[1]:
            continue
        inner = list(v.walk())
        box = next(x for x in inner if x.rid.endswith(":id/completeBox"))
        title = next((x.text for x in inner if x.rid.endswith(":id/title")), "")
        due = next((x.text for x in inner if x.rid.endswith(":id/due_date")), "")
        found.append((i + inner.index(box), title, due, box.checked))
    return found


@reference("tasks.complete_due_today")
def complete_due_today(d: Driver) -> None:
    d.open("Tasks")
    seen: list[str] = []
    for _ in range(12):
        todo = [r for r in rows(d) if r[2].startswith("Today") and not r[3]]
        if todo:
            d.act({"action_type": "click", "index": todo[0][0]})
            continue
        titles = [r[1] for r in rows(d)]
        if titles == seen:  # the end of the list
            break
        seen = titles
        d.scroll("down")
    d.done()


@reference("tasks.add_high_priority")
def add_high_priority(d: Driver) -> None:
    day = dt.date.fromisoformat(str(d.params["day"]))
    d.open("Tasks")
    d.tap(desc="Create new task")
    d.type(str(d.params["name"]), rid="title")
    d.back()  # the keyboard
    d.tap(rid="due_date")
    month = f"{day:%B} {day.year}"
    for _ in range(24):
        if d.texts(rid="month_title") == [month]:
            break
        d.tap(desc="Next month")
    else:
        raise SolutionError(f"the calendar never showed {month}")
    d.tap(desc=f"{day:%a}, {day:%b} {day.day}, {day.year}")
    d.tap(text="OK")
    d.tap(rid="priority_high")
    d.type(str(d.params["details"]), rid="notes")
    d.back()
    d.tap(desc="Save")
    d.done()


@reference("tasks.clear_completed_list")
def clear_completed_list(d: Driver) -> None:
    d.open("Tasks")
    d.tap(desc="Open navigation drawer")
    d.tap(text=str(d.params["target"]["name"]), rid="title")
    d.tap(desc="More options")
    d.tap(text="Clear completed")
    d.tap(text="OK")
    d.done()


@reference("tasks.due_on_date")
def due_on_date(d: Driver) -> None:
    day = dt.date.fromisoformat(str(d.params["day"]["on"]))
    chip = f"{day:%a}, {day:%b} {day.day}"
    d.open("Tasks")
    found: list[str] = []
    seen: list[str] = []
    for _ in range(12):
        visible = rows(d)
        for _, title, due, checked in visible:
            if due.split(", ")[:2] == chip.split(", ") and not checked and title not in found:
                found.append(title)
        titles = [r[1] for r in visible]
        if titles == seen:  # the end of the list
            break
        seen = titles
        d.scroll("down")
    d.answer(", ".join(found))
