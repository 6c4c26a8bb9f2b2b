"""Reference solutions of the Pro Expense tasks."""

from __future__ import annotations

from typing import Any

from tasklang.envs.phoneworld.solutions.base import Driver, SolutionError, reference


def typed_amount(cents: Any) -> str:
    whole, part = divmod(int(cents), 100)
    return f"{whole}.{part:02d}"


def add(d: Driver, item: dict[str, Any]) -> None:
    d.tap(rid="fb_add")
    d.type(str(item["name"]), rid="edt_name")
    d.type(typed_amount(item["amount"]), rid="edt_amount")
    d.back()  # the keyboard
    d.tap(rid="tv_category")
    d.tap(text=str(item["label"]), rid="tv_category_name")
    d.type(str(item["note"]), rid="edt_note")
    d.back()
    d.tap(rid="btn_save")


@reference("expense.add_expenses")
def add_expenses(d: Driver) -> None:
    d.open("Pro Expense")
    add(d, d.params["first"])
    add(d, d.params["second"])
    d.done()


@reference("expense.delete_duplicates")
def delete_duplicates(d: Driver) -> None:
    name = str(d.params["dup"]["name"])
    d.open("Pro Expense")
    d.tap(text="More", rid="btn_recent_more")
    for _ in range(12):
        if d.has(text=name, rid="tv_name", nth=1):
            break
        d.scroll("down")
    else:
        raise SolutionError(f"no two rows named {name}")
    d.long_press(text=name, rid="tv_name", nth=1)
    d.tap(desc="Delete")
    d.tap(text="Confirm")
    d.done()


@reference("expense.category_total")
def category_total(d: Driver) -> None:
    label = str(d.params["cat"]["label"])
    month = str(d.params["month"]["label"])
    d.open("Pro Expense")
    d.tap(desc="Open navigation drawer")
    d.tap(text="Statistics")
    for _ in range(12):
        if d.texts(rid="tv_month") == [month]:
            break
        d.tap(desc="Previous month")
    else:
        raise SolutionError(f"Statistics never showed {month}")
    amount = "0.00"
    for v in d.observe().walk():
        if v.rid.endswith(":id/cl_category"):
            texts = {c.rid.rsplit("/", 1)[-1]: c.text for c in v.walk() if c.rid}
            if texts.get("tv_name") == label:
                amount = texts.get("tv_amount", "").split()[-1]
    d.answer(f"${amount}")


@reference("expense.fix_amount")
def fix_amount(d: Driver) -> None:
    item = d.params["item"]
    day = str(item["date"])
    year, month, dom = (int(p) for p in day.split("-"))
    shown = f"{dom}/{month}/{year}"
    d.open("Pro Expense")
    d.tap(text="More", rid="btn_recent_more")
    target = None
    for _ in range(12):
        for i, v in enumerate(d.observe().walk()):
            if not v.rid.endswith(":id/cd_expense") or v.bounds[3] <= v.bounds[1]:
                continue
            texts = {c.rid.rsplit("/", 1)[-1]: c.text for c in v.walk() if c.rid}
            if texts.get("tv_name") == item["name"] and texts.get("tv_date") == shown:
                target = i
                break
        if target is not None:
            break
        d.scroll("down")
    if target is None:
        raise SolutionError(f"no {item['name']} on {shown}")
    d.act({"action_type": "click", "index": target})
    d.tap(text="Edit")
    d.type(typed_amount(d.params["fixed"]), rid="edt_amount")
    d.back()  # the keyboard
    d.tap(rid="btn_save")
    d.done()
