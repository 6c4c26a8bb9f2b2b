"""Reference solutions of the Broccoli (recipes) tasks."""

from __future__ import annotations

import re

from tasklang.envs.phoneworld.solutions.base import Driver, reference


def _minutes(text: str) -> int:
    """Minutes of a preparation time as people type it: "45 min", "1 h 30 min", "2 h"."""
    hours = re.search(r"(\d+)\s*h", text)
    minutes = re.search(r"(\d+)\s*m", text)
    return (int(hours[1]) * 60 if hours else 0) + (int(minutes[1]) if minutes else 0)


def _filter(d: Driver, category: str) -> None:
    """Show only one category's recipes with the toolbar's spinner."""
    d.tap(rid="spinner")
    d.tap(text=category, rid="android:id/text1")


@reference("recipes.add_recipe")
def add_recipe(d: Driver) -> None:
    dish = d.params["dish"]
    d.tap(desc="Add recipe")
    fields = (
        ("new_title", dish["title"]),
        ("new_description", dish["description"]),
        ("new_servings", d.params["portions"]),
        ("new_preparation_time", dish["time"]),
        ("new_ingredients", dish["ingredients"]),
        ("new_directions", dish["directions"]),
    )
    for rid, value in fields:
        d.scroll_to(rid=rid)
        d.type(value, rid=rid)
        if rid == "new_description":  # the categories come right after the source
            d.back()  # hide the keyboard
            d.scroll_to(rid="new_categories")
            d.tap(rid="new_categories")
            d.tap(text=dish["category"], cls="CheckBox")
            d.tap(text="OK")
    d.tap(rid="button_save_recipe")
    d.done()


@reference("recipes.delete_category")
def delete_category(d: Driver) -> None:
    _filter(d, d.params["cat"])
    while d.has(rid="card_text_view_title"):
        d.tap(rid="card_text_view_title")
        d.tap(desc="More options")
        d.tap(text="Delete")
        d.tap(text="Delete", rid="android:id/button1")
    d.done()


@reference("recipes.quickest_recipe")
def quickest_recipe(d: Driver) -> None:
    _filter(d, d.params["cat"]["name"])
    times: dict[str, int] = {}
    titles = d.texts(rid="card_text_view_title")
    for title in titles:
        d.tap(text=title, rid="card_text_view_title")
        shown = d.texts(rid="details_preparation_time")
        times[title] = _minutes(shown[0]) if shown else 10**6
        d.back()
    d.answer(min(times, key=lambda t: times[t]))


@reference("recipes.favourite_recipe")
def favourite_recipe(d: Driver) -> None:
    title = d.params["dish"]["title"]
    d.tap(desc="Search")
    d.type(title)
    d.tap(text=title, rid="card_text_view_title")
    d.tap(rid="action_details_like")
    d.done()


@reference("recipes.delete_duplicates")
def delete_duplicates(d: Driver) -> None:
    _filter(d, d.params["dup"]["category"])
    titles = d.texts(rid="card_text_view_title")  # sorted: copies are side by side
    for title in sorted({t for t in titles if titles.count(t) > 1}):
        for _ in range(titles.count(title) - 1):
            d.tap(text=title, rid="card_text_view_title")
            d.tap(desc="More options")
            d.tap(text="Delete")
            d.tap(text="Delete", rid="android:id/button1")
    d.done()
