"""PhoneWorld's Broccoli (com.flauschcode.broccoli): the reference solutions of the recipe tasks,
the screens' XML, and adding, editing, deleting, filtering, searching and categories through
real actions."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tasklang import ir
from tasklang.compiler import Compiler
from tasklang.envs.phoneworld.app import AppData
from tasklang.envs.phoneworld.episode import Episode, run_nothing, run_reference
from tasklang.envs.phoneworld.solutions.base import Driver
from tasklang.verifiers.snapshot import parse_ui_xml

ROOT = Path(__file__).resolve().parents[1]
PKG = "com.flauschcode.broccoli"
TASKS = (
    "recipes.add_recipe",
    "recipes.delete_category",
    "recipes.quickest_recipe",
    "recipes.favourite_recipe",
    "recipes.delete_duplicates",
    "cross.recipe_to_friend",
)


@cache
def compiled(task_id: str) -> ir.CompiledTask:
    folder = "cross_app" if task_id.startswith("cross.") else "app"
    path = ROOT / "task_library" / folder / f"{task_id}.task"
    return Compiler().compile_paths([path]).tasks[0]


@pytest.mark.parametrize("task_id", TASKS)
def test_reference_solves_every_instance(task_id: str) -> None:
    for seed in range(6):  # `tasklang test` tries 20
        verdict, _ = run_reference(compiled(task_id), seed)
        failed = [(r.id, r.summary) for r in verdict.clauses if not r.passed]
        assert not failed, (seed, failed)
        assert verdict.success, (seed, verdict.notes)


@pytest.mark.parametrize("task_id", TASKS)
def test_doing_nothing_fails(task_id: str) -> None:
    for seed in range(6):  # `tasklang test` tries 20
        assert not run_nothing(compiled(task_id), seed).success


# ------------------------------------------------------------------ helpers
def recipe(title: str, **fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "title": title,
        "description": "",
        "servings": "",
        "preparation_time": "",
        "source": "",
        "ingredients": "",
        "directions": "",
        "categories": [],
        "favourite": False,
    }
    return {**base, **fields}


def kitchen() -> list[dict[str, Any]]:
    return [
        recipe(
            "Pancakes",
            description="Fluffy weekend pancakes.",
            servings="4",
            preparation_time="20 min",
            source="Grandma",
            ingredients="flour\nmilk\neggs",
            directions="Mix the batter.\nFry in butter.",
            categories=["Breakfast"],
        ),
        recipe("Tomato Soup", description="Classic.", categories=["Soup"], favourite=True),
        recipe("Apple Crumble", ingredients="apples\noats", categories=["Dessert"]),
    ]


def episode(
    recipes: list[dict[str, Any]] | None = None, categories: tuple[str, ...] = ()
) -> tuple[Episode, Driver]:
    ep = Episode(compiled("recipes.add_recipe"), 0)
    assert ep.instance is not None
    cats = categories or ("Breakfast", "Dessert", "Soup")
    ep.phone.state["recipes"] = AppData(
        {
            "recipes": list(kitchen() if recipes is None else recipes),
            "categories": [{"name": c} for c in cats],
        },
        {},
    )
    ep.phone.invalidate()
    d = Driver(ep.tree, ep.step, ep.instance.params)
    d.open("Broccoli")
    return ep, d


def recipes(ep: Episode) -> list[dict[str, Any]]:
    return ep.phone.state["recipes"].collections["recipes"]


def categories(ep: Episode) -> list[str]:
    return [c["name"] for c in ep.phone.state["recipes"].collections["categories"]]


def activity(ep: Episode) -> str:
    return ep.phone.current_activity()[1].rsplit(".", 1)[-1]


def xml_ok(ep: Episode) -> None:
    _, elements = parse_ui_xml(ep.xml())
    assert elements and all(e.package for e in elements)
    assert any(e.package == PKG for e in elements)
    assert f'resource-id="{PKG}:id/' in ep.xml()


def titles(d: Driver) -> list[str]:
    return d.texts(rid="card_text_view_title")


# ------------------------------------------------------------------ screens
def test_every_screen_produces_parseable_xml_with_real_ids() -> None:
    ep, d = episode()
    xml_ok(ep)
    assert ep.phone.current_activity() == (PKG, f"{PKG}.MainActivity")
    assert d.has(rid="fab_recipes") and d.has(rid="spinner")
    d.tap(text="Pancakes")
    xml_ok(ep)
    assert activity(ep) == "RecipeDetailsActivity"
    d.tap(desc="More options")
    xml_ok(ep)
    d.tap(text="Edit")
    xml_ok(ep)
    assert activity(ep) == "CreateAndEditRecipeActivity"
    d.tap(desc="Navigate up")
    d.back()
    d.tap(desc="Open navigation drawer")
    xml_ok(ep)
    d.tap(text="Categories")
    xml_ok(ep)
    assert d.texts(rid="category_name") == ["Breakfast", "Dessert", "Soup"]


def test_list_is_sorted_and_details_show_every_field() -> None:
    _, d = episode()
    assert titles(d) == ["Apple Crumble", "Pancakes", "Tomato Soup"]
    d.tap(text="Pancakes")
    assert d.texts(rid="details_title") == ["Pancakes"]
    assert d.texts(rid="details_servings") == ["4"]
    assert d.texts(rid="details_preparation_time") == ["20 min"]
    assert d.texts(rid="details_source") == ["Grandma"]
    assert d.texts(rid="details_categories") == ["Breakfast"]
    assert d.texts(rid="ingredient_text") == ["• flour", "• milk", "• eggs"]
    assert d.texts(rid="direction_text") == ["1. Mix the batter.", "2. Fry in butter."]


def test_empty_list() -> None:
    _, d = episode([])
    assert d.has(text="There are no recipes here yet.")


# ------------------------------------------------------------------ adding and editing
def test_add_a_recipe_with_a_category() -> None:
    ep, d = episode()
    d.tap(desc="Add recipe")
    d.type("Lentil Soup", rid="new_title")
    d.type("Warming.", rid="new_description")
    d.back()  # hide the keyboard
    d.tap(rid="new_categories")
    d.tap(text="Soup", cls="CheckBox")
    assert d.has(text="Soup", cls="CheckBox", checked=True)  # the dialog stays open
    d.tap(text="Dessert", cls="CheckBox")
    d.tap(text="Dessert", cls="CheckBox")  # and off again
    d.tap(text="OK")
    assert d.texts(rid="new_categories") == ["Soup"]
    d.scroll_to(rid="new_servings")
    d.type("4", rid="new_servings")
    d.scroll_to(rid="new_ingredients")
    d.type("lentils\ncarrots", rid="new_ingredients")
    d.tap(rid="button_save_recipe")
    added = recipes(ep)[-1]
    assert added == recipe(
        "Lentil Soup",
        description="Warming.",
        servings="4",
        ingredients="lentils\ncarrots",
        categories=["Soup"],
    )
    # saved: the new recipe's details are shown, and back is the list
    assert activity(ep) == "RecipeDetailsActivity"
    assert d.texts(rid="details_title") == ["Lentil Soup"]
    d.back()
    assert "Lentil Soup" in titles(d)


def test_a_recipe_needs_a_title() -> None:
    ep, d = episode()
    d.tap(desc="Add recipe")
    d.type("No title here", rid="new_description")
    d.tap(rid="button_save_recipe")
    assert ep.phone.toast == "Please enter a title."
    assert len(recipes(ep)) == 3 and activity(ep) == "CreateAndEditRecipeActivity"


def test_closing_the_form_asks_before_discarding() -> None:
    ep, d = episode()
    d.tap(desc="Add recipe")
    d.tap(desc="Navigate up")  # nothing typed: closes at once
    assert activity(ep) == "MainActivity"
    d.tap(desc="Add recipe")
    d.type("Half a recipe", rid="new_title")
    d.back()
    d.tap(desc="Navigate up")
    assert d.has(text="Discard changes?")
    d.tap(text="Keep editing")
    assert d.texts(rid="new_title") == ["Half a recipe"]
    d.tap(desc="Navigate up")
    d.tap(text="Discard")
    assert activity(ep) == "MainActivity" and len(recipes(ep)) == 3


def test_edit_a_recipe_prefills_the_form() -> None:
    ep, d = episode()
    d.tap(text="Pancakes")
    d.tap(desc="More options")
    d.tap(text="Edit")
    assert d.texts(rid="new_title") == ["Pancakes"]
    assert d.texts(rid="new_categories") == ["Breakfast"]
    d.type("Buttermilk Pancakes", rid="new_title")
    d.scroll_to(rid="new_preparation_time")
    d.type("", rid="new_preparation_time")  # cleared: the hint shows
    assert d.texts(rid="new_preparation_time") == ["Preparation time"]
    d.tap(rid="button_save_recipe")
    assert activity(ep) == "RecipeDetailsActivity"
    assert d.texts(rid="details_title") == ["Buttermilk Pancakes"]
    edited = recipes(ep)[0]
    assert edited["title"] == "Buttermilk Pancakes" and edited["preparation_time"] == ""
    assert edited["ingredients"] == "flour\nmilk\neggs" and len(recipes(ep)) == 3


# ------------------------------------------------------------------ deleting, favourites
def test_delete_asks_first() -> None:
    ep, d = episode()
    d.tap(text="Tomato Soup")
    d.tap(desc="More options")
    d.tap(text="Delete")
    assert d.has(text="Do you really want to delete this recipe?")
    d.tap(text="Cancel")
    assert len(recipes(ep)) == 3 and activity(ep) == "RecipeDetailsActivity"
    d.tap(desc="More options")
    d.tap(text="Delete")
    d.tap(text="Delete", rid="android:id/button1")
    assert [r["title"] for r in recipes(ep)] == ["Pancakes", "Apple Crumble"]
    assert activity(ep) == "MainActivity" and titles(d) == ["Apple Crumble", "Pancakes"]


def test_share_copies_or_sends_the_recipe_as_text() -> None:
    ep, d = episode()
    d.tap(text="Pancakes")
    d.tap(desc="More options")
    d.tap(text="Share")
    assert d.has(text="Share Pancakes")
    d.tap(text="Copy")
    assert ep.phone.clipboard == (
        "Pancakes\n\nFluffy weekend pancakes.\n\nServings: 4\nPreparation time: 20 min"
        "\n\nIngredients\nflour\nmilk\neggs\n\nDirections\n1. Mix the batter.\n2. Fry in butter."
        "\n\nSource: Grandma"
    )
    d.tap(desc="More options")
    d.tap(text="Share")
    d.tap(text="Messages")
    assert ep.phone.current_activity()[0] == "com.simplemobiletools.smsmessenger"
    d.open("Broccoli")  # Broccoli kept its screen
    assert d.texts(rid="details_title") == ["Pancakes"] and len(recipes(ep)) == 3


def test_favourite_toggle_and_filter() -> None:
    ep, d = episode()
    d.tap(text="Apple Crumble")
    d.tap(rid="action_details_like")
    assert recipes(ep)[2]["favourite"] is True
    assert d.has(rid="action_details_unlike")
    d.back()
    d.tap(rid="spinner")
    d.tap(text="Favorites")
    assert titles(d) == ["Apple Crumble", "Tomato Soup"]
    d.tap(text="Tomato Soup")
    d.tap(rid="action_details_unlike")
    d.back()
    assert titles(d) == ["Apple Crumble"]


def test_category_filter_and_search() -> None:
    _, d = episode()
    d.tap(rid="spinner")
    # the spinner's own label, then the dropdown's items
    assert d.texts(rid="android:id/text1") == [
        "All recipes",
        "All recipes",
        "Favorites",
        "Breakfast",
        "Dessert",
        "Soup",
    ]
    d.tap(text="Soup", rid="android:id/text1")
    assert titles(d) == ["Tomato Soup"] and d.texts(rid="android:id/text1") == ["Soup"]
    d.tap(rid="spinner")
    d.tap(text="All recipes")
    d.tap(desc="Search")
    d.type("oats")  # the field opened focused; ingredients count
    assert titles(d) == ["Apple Crumble"]
    d.type("zzz")
    assert d.has(text="No recipes found.")
    d.tap(desc="Collapse")
    assert len(titles(d)) == 3


def test_a_long_list_scrolls() -> None:
    many = [recipe(f"Recipe {i:02d}", description="Tasty.") for i in range(20)]
    ep, d = episode(many)
    assert "Recipe 19" not in titles(d)
    d.scroll_to(text="Recipe 19")
    assert "Recipe 19" in titles(d) and "Recipe 00" not in titles(d)
    d.tap(text="Recipe 19")
    assert d.texts(rid="details_title") == ["Recipe 19"]
    assert len(recipes(ep)) == 20


# ------------------------------------------------------------------ categories
def test_add_rename_and_delete_categories() -> None:
    ep, d = episode()
    d.tap(desc="Open navigation drawer")
    d.tap(text="Categories")
    d.tap(desc="Add category")
    d.type("Snacks")  # the name field has the focus
    d.tap(text="Save")
    assert categories(ep) == ["Breakfast", "Dessert", "Soup", "Snacks"]
    d.tap(desc="Add category")
    d.type("soup")
    d.tap(text="Save")
    assert ep.phone.toast == "This category already exists." and len(categories(ep)) == 4
    d.tap(text="Breakfast", rid="category_name")
    d.type("Brunch", rid="category_name_input")
    d.tap(text="Save")
    assert "Brunch" in categories(ep) and recipes(ep)[0]["categories"] == ["Brunch"]
    d.tap(text="Soup", rid="category_name")
    d.tap(text="Delete")
    assert d.has(text="Do you really want to delete the category Soup?")
    d.tap(text="Cancel")
    assert "Soup" in categories(ep)
    d.tap(text="Soup", rid="category_name")
    d.tap(text="Delete")
    d.tap(text="Delete")
    assert "Soup" not in categories(ep) and recipes(ep)[1]["categories"] == []
    d.tap(desc="Open navigation drawer")
    d.tap(text="Recipes")
    assert activity(ep) == "MainActivity" and len(titles(d)) == 3


def test_invalid_actions_are_no_ops_with_a_reason() -> None:
    ep, d = episode()
    out = ep.step({"action_type": "input_text", "text": "x", "index": d.need(rid="fab_recipes")})
    assert not out.ok and "not a text field" in out.info
    out = ep.step({"action_type": "input_text", "text": "x"})
    assert not out.ok and "focus" in out.info
    out = ep.step({"action_type": "scroll", "direction": "down"})
    assert out.ok and "nothing to scroll" in out.info.replace("fits on the screen: ", "")
    assert len(recipes(ep)) == 3
