"""Reference solutions of the AndroidWorld families over Pro Expense, Broccoli, Retro Music,
Audio Recorder and Chrome."""

from __future__ import annotations

from typing import Any

from tasklang.envs.phoneworld.solutions.base import Driver, SolutionError, reference


def _typed_amount(cents: Any) -> str:
    whole, part = divmod(int(cents), 100)
    return f"{whole}.{part:02d}"


def _new_expense(d: Driver, name: str, amount: str, label: str, note: str) -> None:
    """Log one expense from Pro Expense's home screen."""
    d.tap(rid="fb_add")
    d.type(name, rid="edt_name")
    d.type(amount, rid="edt_amount")
    d.back()  # the keyboard
    d.tap(rid="tv_category")
    d.tap(text=label, rid="tv_category_name")
    d.type(note, rid="edt_note")
    d.back()
    d.tap(rid="btn_save")


def _expense_logs(d: Driver) -> None:
    d.open("Pro Expense")
    d.tap(text="More", rid="btn_recent_more")


def _show(d: Driver, **sel: Any) -> None:
    """Scroll the list down, then up, until an element matching ``sel`` is visible."""
    for direction in ("down", "up"):
        for _ in range(20):
            if d.has(**sel):
                return
            before = d.texts()
            d.scroll(direction)
            if d.texts() == before:  # the end of the list
                break
    d.need(**sel)


def _delete_recipe(d: Driver, title: str) -> None:
    """Find a recipe with Broccoli's search and delete it from its details."""
    if not d.has(rid="search_src_text"):
        d.tap(desc="Search")
    d.type(title, rid="search_src_text")
    d.tap(text=title, rid="card_text_view_title")
    d.tap(desc="More options")
    d.tap(text="Delete")
    d.tap(text="Delete", rid="android:id/button1")


@reference("androidworld.expense_add_single")
def expense_add_single(d: Driver) -> None:
    item = d.params["item"]
    d.open("Pro Expense")
    amount = _typed_amount(d.params["cost"])
    _new_expense(d, str(item["name"]), amount, str(item["label"]), str(item["note"]))
    d.done()


@reference("androidworld.expense_delete_single")
def expense_delete_single(d: Driver) -> None:
    name = str(d.params["target"])
    _expense_logs(d)
    d.scroll_to(text=name, rid="tv_name", limit=20)
    d.tap(text=name, rid="tv_name")
    d.tap(text="Delete", rid="btn_delete")
    d.tap(text="Confirm")
    d.done()


@reference("androidworld.expense_delete_multiple")
def expense_delete_multiple(d: Driver) -> None:
    names = [str(d.params[k]) for k in ("first", "second", "third")]
    _expense_logs(d)
    for i, name in enumerate(names):
        _show(d, text=name, rid="tv_name")
        if i == 0:
            d.long_press(text=name, rid="tv_name")  # starts the selection
        else:
            d.tap(text=name, rid="tv_name")
    if d.texts(rid="tv_title") != ["3 selected"]:
        raise SolutionError(f"selection shows {d.texts(rid='tv_title')}")
    d.tap(desc="Delete", rid="btn_delete")
    d.tap(text="Confirm")
    d.done()


def _new_recipe(d: Driver, dish: dict[str, Any]) -> None:
    """Fill Broccoli's new recipe form (no category) and save it; ends on the list."""
    d.tap(desc="Add recipe")
    fields = (
        ("new_title", dish["title"]),
        ("new_description", dish["description"]),
        ("new_servings", dish["servings"]),
        ("new_preparation_time", dish["time"]),
        ("new_ingredients", dish["ingredients"]),
        ("new_directions", dish["directions"]),
    )
    for rid, value in fields:
        d.scroll_to(rid=rid)
        d.type(str(value), rid=rid)
    d.tap(rid="button_save_recipe")
    if d.has(rid="new_title"):
        raise SolutionError("the recipe was not saved")
    d.back()  # the details of the new recipe


@reference("androidworld.recipe_add_multiple_recipes")
def recipe_add_multiple_recipes(d: Driver) -> None:
    d.open("Broccoli")
    for key in ("first", "second"):
        _new_recipe(d, d.params[key])
    d.done()


@reference("androidworld.recipe_delete_single_recipe")
def recipe_delete_single_recipe(d: Driver) -> None:
    title = str(d.params["target"])
    d.open("Broccoli")
    _delete_recipe(d, title)
    d.done()


def _song_menu(d: Driver, title: str) -> None:
    """Search Retro Music for a song and open its menu."""
    d.tap(desc="Search")
    d.type(title)
    titles = d.texts(rid="title")
    if title not in titles:
        raise SolutionError(f"the search for {title} shows {titles}")
    d.tap(rid="menu", nth=titles.index(title))


@reference("androidworld.retro_playing_queue")
def retro_playing_queue(d: Driver) -> None:
    d.open("Retro Music")
    for key in ("first", "second", "third"):
        _song_menu(d, str(d.params[key]["title"]))
        d.tap(text="Add to playing queue")
        d.tap(desc="Navigate up")
    d.done()


@reference("androidworld.audio_recorder_record_audio_with_file_name")
def audio_recorder_record_audio_with_file_name(d: Driver) -> None:
    d.open("Audio Recorder")
    d.tap(rid="btn_record")
    d.act({"action_type": "wait"})  # record a few seconds
    d.tap(rid="btn_record_stop")
    d.type(str(d.params["fname"]), rid="input_name")
    d.tap(text="Save", rid="dialog_positive_btn")
    d.done()


@reference("androidworld.browser_multiply")
def browser_multiply(d: Driver) -> None:
    name = str(d.params["page"]["file"])
    d.open("Files")
    d.tap(text="Download", rid="title")
    d.scroll_to(text=name, rid="title")
    d.long_press(text=name, rid="title")
    d.tap(desc="Share")
    d.tap(text="Chrome")
    product = 1
    for _ in range(5):
        shown = d.texts(rid="number")
        if len(shown) != 1 or not shown[0].strip().isdigit():
            raise SolutionError(f"the page shows no number: {shown}")
        product *= int(shown[0])
        d.tap(text="Click Me", cls="Button")
    d.type(str(product), rid="answer")
    d.tap(text="Submit", cls="Button")
    if not d.has(text="Success!"):
        raise SolutionError("the page did not accept the product")
    d.done()


@reference("androidworld.recipe_delete_multiple_recipes_with_noise")
def recipe_delete_multiple_recipes_with_noise(d: Driver) -> None:
    d.open("Broccoli")
    for key in ("first", "second", "third"):
        _delete_recipe(d, str(d.params[key]))
    d.done()


@reference("androidworld.expense_add_multiple_from_markor")
def expense_add_multiple_from_markor(d: Driver) -> None:
    file_name = str(d.params["sheet_file"]["name"])
    d.open("Markor")
    d.scroll_to(text=file_name, rid="opoc_filesystem_item__title")
    d.tap(text=file_name, rid="opoc_filesystem_item__title")
    text = "\n".join(d.texts(rid="document__fragment__edit__highlighting_editor"))
    rows = []
    for line in text.split("\n"):
        parts = [p.strip() for p in line.split(";")]
        if len(parts) == 5 and parts[4] == "reimbursable":
            rows.append(parts)
    if not rows:
        raise SolutionError(f"no reimbursable transactions in {text!r}")
    d.back()
    d.open("Pro Expense")
    for name, amount, label, note, _ in rows:
        _new_expense(d, name, amount.lstrip("$"), label, note)
    d.done()
