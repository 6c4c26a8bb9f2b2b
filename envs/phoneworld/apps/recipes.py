"""Broccoli (``com.flauschcode.broccoli``), the recipe app AndroidWorld uses.

- Recipes (``MainActivity``): the toolbar's drawer button, the category spinner (``spinner``:
  "All recipes", "Favorites", then each category) and the search action; the recipes as cards
  (``card_text_view_title``, ``card_text_view_description``, ``card_text_view_source``) sorted
  by title, filtered by the spinner and by what is typed in the search field (title,
  description or ingredients); the "Add recipe" button (``fab_recipes``). The navigation
  drawer (``nav_view``) switches between Recipes and Categories.
- Recipe details (``recipe.details.RecipeDetailsActivity``): title, categories, servings,
  preparation time, source, description, the ingredients one a line and the numbered
  directions; the toolbar toggles the favourite and its overflow menu has Share (the share
  sheet: Messages, or Copy to the clipboard; the recipe goes as text), Edit and Delete
  ("Delete recipe": asks first).
- New / edit recipe (``recipe.crud.CreateAndEditRecipeActivity``): the real form fields
  (``new_title``, ``new_description``, ``new_source``, ``new_categories``, ``new_servings``,
  ``new_preparation_time``, ``new_ingredients``, ``new_directions``) and the Save button
  (``button_save_recipe``); a recipe needs a title. The close button asks before discarding
  typed changes. Categories are picked in a multi-choice dialog.
- Categories (``MainActivity``, from the drawer): the category names; the "Add category"
  button asks for a name, a tap on a category renames or deletes it (deleting a category
  takes it off its recipes).

Records are the model's ``Recipe`` (``recipes``) and ``Category`` (``categories``). The
spinner's choice and the search text live in the list screen's form.
"""

from __future__ import annotations

from typing import Any

from tasklang.envs.phoneworld import widgets as w
from tasklang.envs.phoneworld.app import App, Ctx, Dialog, Route, Screen
from tasklang.envs.phoneworld.apps.common import button, checkbox, image_button, menu_item
from tasklang.envs.phoneworld.widgets import View

PACKAGE = "com.flauschcode.broccoli"
MAIN_ACTIVITY = f"{PACKAGE}.MainActivity"
DETAILS_ACTIVITY = f"{PACKAGE}.recipe.details.RecipeDetailsActivity"
EDIT_ACTIVITY = f"{PACKAGE}.recipe.crud.CreateAndEditRecipeActivity"

ALL = ""  # the spinner's "All recipes"
FAVORITES = "\x00favorites"  # the spinner's "Favorites" (no category can be named so)
SEP = "\n"  # categories picked in the edit form, one a line
# (form field, record field, hint, lines) of the edit form, in the real form's order
FIELDS = (
    ("title", "title", "Title", 1),
    ("description", "description", "Description", 3),
    ("source", "source", "Source", 1),
    ("servings", "servings", "Servings", 1),
    ("preparation_time", "preparation_time", "Preparation time", 1),
    ("ingredients", "ingredients", "Ingredients", 4),
    ("directions", "directions", "Directions", 4),
)


def lines(text: Any) -> list[str]:
    return [line.strip() for line in str(text or "").splitlines() if line.strip()]


def matches(recipe: dict[str, Any], query: str) -> bool:
    """The search: the query's text in the title, description or ingredients."""
    q = query.strip().casefold()
    if not q:
        return True
    return any(
        q in str(recipe.get(f) or "").casefold() for f in ("title", "description", "ingredients")
    )


def text(value: str, rid: str = "", height: int = 0, **kw: Any) -> View:
    return View(w.TEXT, text=value, rid=rid, height=height, **kw)


class Broccoli(App):
    model = "recipes"
    package = PACKAGE
    label = "Broccoli"
    activity = MAIN_ACTIVITY
    home = "main"

    # ------------------------------------------------------------ helpers
    def recipe(self, ctx: Ctx, index: Any) -> dict[str, Any] | None:
        recipes = ctx.records("recipes")
        if isinstance(index, int) and 0 <= index < len(recipes):
            return recipes[index]
        return None

    def category_names(self, ctx: Ctx) -> list[str]:
        names = {str(c.get("name")) for c in ctx.records("categories") if c.get("name")}
        return sorted(names, key=str.casefold)

    def filter_label(self, value: str) -> str:
        if value == ALL:
            return "All recipes"
        if value == FAVORITES:
            return "Favorites"
        return value

    # ------------------------------------------------------------ the recipes list
    def screen_main(self, ctx: Ctx, route: Route) -> Screen:
        chosen = ctx.form("filter")
        searching = ctx.form("searching") == "1"
        query = ctx.form("query") if searching else ""
        shown = []
        for i, r in enumerate(ctx.records("recipes")):
            if chosen == FAVORITES and not r.get("favourite"):
                continue
            if chosen not in (ALL, FAVORITES) and chosen not in (r.get("categories") or []):
                continue
            if matches(r, query):
                shown.append((i, r))
        shown.sort(key=lambda p: (str(p[1].get("title") or "").casefold(), p[0]))
        rows = [self.card(i, r) for i, r in shown]
        if not rows:
            empty = "No recipes found." if query else "There are no recipes here yet."
            rows.append(text(empty, self.rid("recipes_empty"), height=300))
        drawer = image_button("Open navigation drawer", "drawer")
        if searching:
            bar = [
                image_button("Collapse", "search_close", rid=self.rid("search_close_btn")),
                View(
                    w.TEXT,
                    rid=self.rid("search_src_text"),
                    edit="query",
                    hint="Search",
                    weight=0.85,
                ),
            ]
        else:
            spinner = View(
                w.LINEAR,
                rid=self.rid("spinner"),
                clickable=True,
                focusable=True,
                on_click="spinner",
                weight=0.7,
                children=[text(self.filter_label(chosen), "android:id/text1")],
            )
            bar = [
                drawer,
                spinner,
                image_button("Search", "search", rid=self.rid("action_search")),
            ]
        toolbar = View(w.VIEWGROUP, rid=self.rid("toolbar"), horizontal=True, height=147)
        toolbar.children = bar
        fab = View(
            w.IMAGE_BUTTON,
            rid=self.rid("fab_recipes"),
            desc="Add recipe",
            clickable=True,
            focusable=True,
            on_click="new",
        )
        return Screen(
            None,
            rows,
            header=[toolbar],
            fab=fab,
            list_rid=self.rid("recycler_view"),
        )

    def card(self, index: int, r: dict[str, Any]) -> View:
        body = View(
            w.LINEAR,
            weight=0.72,
            children=[
                text(str(r.get("title") or ""), self.rid("card_text_view_title"), height=110),
                text(
                    str(r.get("description") or "").split("\n")[0][:80],
                    self.rid("card_text_view_description"),
                    height=110,
                ),
                text(str(r.get("source") or ""), self.rid("card_text_view_source"), height=80),
            ],
        )
        return View(
            w.FRAME,
            rid=self.rid("card_view"),
            clickable=True,
            focusable=True,
            on_click="open",
            arg=index,
            horizontal=True,
            height=330,
            children=[View(w.IMAGE, rid=self.rid("card_image"), weight=0.28), body],
        )

    def on_open(self, ctx: Ctx, index: Any) -> None:
        if self.recipe(ctx, index) is not None:
            ctx.push("details", index=index)

    def on_spinner(self, ctx: Ctx, arg: Any) -> None:
        options = [ALL, FAVORITES, *self.category_names(ctx)]
        current = ctx.form("filter")
        items = [
            View(
                w.TEXT,
                text=self.filter_label(o),
                rid="android:id/text1",
                checkable=True,
                checked=o == current,
                clickable=True,
                focusable=True,
                on_click="pick_filter",
                arg=o,
                height=140,
            )
            for o in options
        ]
        ctx.dialog(Dialog("", items=items))

    def on_pick_filter(self, ctx: Ctx, value: str) -> None:
        ctx.set_form("filter", value)

    def on_search(self, ctx: Ctx, arg: Any) -> None:
        ctx.set_form("searching", "1")
        ctx.focus("query")

    def on_search_close(self, ctx: Ctx, arg: Any) -> None:
        ctx.set_form("searching", "")
        ctx.set_form("query", "")
        ctx.hide_keyboard()

    def on_drawer(self, ctx: Ctx, arg: Any) -> None:
        current = ctx.route.screen if ctx.route else "main"
        items = [
            View(
                w.TEXT,
                text=label,
                rid=self.rid(rid),
                checkable=True,
                checked=screen == current,
                clickable=True,
                focusable=True,
                on_click="nav",
                arg=screen,
                height=150,
            )
            for label, rid, screen in (
                ("Recipes", "nav_recipes", "main"),
                ("Categories", "nav_categories", "categories"),
            )
        ]
        ctx.dialog(Dialog("Broccoli", items=items))

    def on_nav(self, ctx: Ctx, screen: str) -> None:
        if ctx.route is not None and ctx.route.screen != screen:
            ctx.replace(screen)

    # ------------------------------------------------------------ details
    def screen_details(self, ctx: Ctx, route: Route) -> Screen:
        index = route.arg("index")
        r = self.recipe(ctx, index)
        if r is None:
            return Screen("", activity=DETAILS_ACTIVITY, up=True)
        fav = bool(r.get("favourite"))
        actions = [
            View(
                w.IMAGE_BUTTON,
                rid=self.rid("action_details_unlike" if fav else "action_details_like"),
                desc="Favorite",  # the two menu items differ by id; the set one is selected
                clickable=True,
                focusable=True,
                selected=fav,
                on_click="favourite",
                arg=index,
            ),
            image_button("More options", "details_menu", index),
        ]
        rows: list[View] = [
            View(w.IMAGE, rid=self.rid("image"), height=400),
            text(str(r.get("title") or ""), self.rid("details_title"), height=150),
        ]
        cats = r.get("categories") or []
        if cats:
            rows.append(text(", ".join(cats), self.rid("details_categories"), height=100))
        facts = (
            ("details_servings", r.get("servings"), "Servings"),
            ("details_preparation_time", r.get("preparation_time"), "Preparation time"),
            ("details_source", r.get("source"), "Source"),
        )
        for rid, value, desc in facts:
            if value:
                rows.append(
                    View(
                        w.LINEAR,
                        horizontal=True,
                        height=110,
                        children=[
                            View(w.IMAGE, desc=desc, weight=0.15),
                            text(str(value), self.rid(rid), weight=0.85),
                        ],
                    )
                )
        if r.get("description"):
            rows.append(text(str(r["description"]), self.rid("details_description"), height=160))
        ingredients = lines(r.get("ingredients"))
        if ingredients:
            rows.append(text("Ingredients", self.rid("details_ingredients_header"), height=130))
            rows += [text(f"• {i}", self.rid("ingredient_text"), height=100) for i in ingredients]
        directions = lines(r.get("directions"))
        if directions:
            rows.append(text("Directions", self.rid("details_directions_header"), height=130))
            rows += [
                text(f"{n}. {d}", self.rid("direction_text"), height=120)
                for n, d in enumerate(directions, 1)
            ]
        return Screen(
            str(r.get("title") or ""),
            rows,
            activity=DETAILS_ACTIVITY,
            up=True,
            actions=actions,
            list_rid=self.rid("recipe_details_scroll"),
            list_cls="androidx.core.widget.NestedScrollView",
        )

    def on_favourite(self, ctx: Ctx, index: Any) -> None:
        r = self.recipe(ctx, index)
        if r is not None:
            ctx.update("recipes", r, favourite=not r.get("favourite"))

    def on_details_menu(self, ctx: Ctx, index: Any) -> None:
        if self.recipe(ctx, index) is None:
            return
        items = [
            menu_item("Share", "share", index),
            menu_item("Edit", "edit", index),
            menu_item("Delete", "delete", index),
        ]
        ctx.dialog(Dialog("", items=items))

    def share_text(self, r: dict[str, Any]) -> str:
        """The recipe as Broccoli shares it: title, description, then the ingredients and
        directions under their headings."""
        parts = [str(r.get("title") or "")]
        if r.get("description"):
            parts.append(str(r["description"]))
        facts = [
            f"{label}: {r[f]}"
            for label, f in (("Servings", "servings"), ("Preparation time", "preparation_time"))
            if r.get(f)
        ]
        if facts:
            parts.append("\n".join(facts))
        if lines(r.get("ingredients")):
            parts.append("Ingredients\n" + "\n".join(lines(r["ingredients"])))
        if lines(r.get("directions")):
            steps = lines(r["directions"])
            parts.append("Directions\n" + "\n".join(f"{n}. {d}" for n, d in enumerate(steps, 1)))
        if r.get("source"):
            parts.append(f"Source: {r['source']}")
        return "\n\n".join(parts)

    def on_share(self, ctx: Ctx, index: Any) -> None:
        """The system share sheet for the recipe's text."""
        r = self.recipe(ctx, index)
        if r is None:
            return
        targets = [("Copy", "share_copy")]
        if "messages" in ctx.phone.apps:
            targets.insert(0, ("Messages", "share_messages"))
        items = [
            View(
                w.LINEAR,
                clickable=True,
                focusable=True,
                on_click=key,
                arg=index,
                horizontal=True,
                height=150,
                children=[
                    View(w.IMAGE, desc=label, weight=0.2),
                    View(w.TEXT, text=label, rid="android:id/text1", weight=0.8),
                ],
            )
            for label, key in targets
        ]
        ctx.dialog(Dialog(f"Share {r.get('title')}", items=items))

    def on_share_messages(self, ctx: Ctx, index: Any) -> None:
        r = self.recipe(ctx, index)
        if r is not None:
            ctx.open("messages", "new", body=self.share_text(r))

    def on_share_copy(self, ctx: Ctx, index: Any) -> None:
        r = self.recipe(ctx, index)
        if r is not None:
            ctx.copy(self.share_text(r))

    def on_delete(self, ctx: Ctx, index: Any) -> None:
        if self.recipe(ctx, index) is None:
            return
        ctx.dialog(
            Dialog(
                "Delete recipe",
                message="Do you really want to delete this recipe?",
                buttons=[("Delete", "delete_ok", index), ("Cancel", None, None)],
            )
        )

    def on_delete_ok(self, ctx: Ctx, index: Any) -> None:
        r = self.recipe(ctx, index)
        if r is None:
            return
        ctx.delete("recipes", r)
        ctx.back_to("main")
        ctx.toast("Recipe deleted")

    # ------------------------------------------------------------ new / edit
    def on_new(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("edit")

    def on_edit(self, ctx: Ctx, index: Any) -> None:
        r = self.recipe(ctx, index)
        if r is None:
            return
        route = ctx.push("edit", index=index)
        for name, field, _, _ in FIELDS:
            ctx.set_form(name, str(r.get(field) or ""), route=route)
        ctx.set_form("categories", SEP.join(r.get("categories") or []), route=route)

    def picked(self, ctx: Ctx) -> list[str]:
        return [c for c in ctx.form("categories").split(SEP) if c]

    def screen_edit(self, ctx: Ctx, route: Route) -> Screen:
        editing = route.arg("index") is not None
        rows: list[View] = [
            View(
                w.IMAGE,
                rid=self.rid("new_image"),
                desc="Add a photo",
                clickable=True,
                focusable=True,
                on_click="photo",
                height=420,
            )
        ]
        for name, _, hint, size in FIELDS:
            rows.append(
                View(
                    w.TEXT,
                    rid=self.rid(f"new_{name}"),
                    edit=name,
                    hint=hint,
                    height=150 if size == 1 else 120 + 60 * size,
                )
            )
            if name == "source":
                picked = self.picked(ctx)
                rows.append(
                    View(
                        w.TEXT,
                        text=", ".join(picked) if picked else "Categories",
                        rid=self.rid("new_categories"),
                        clickable=True,
                        focusable=True,
                        on_click="categories_dialog",
                        height=150,
                    )
                )
        toolbar = View(
            w.VIEWGROUP,
            rid=self.rid("toolbar"),
            horizontal=True,
            height=147,
            children=[
                image_button("Navigate up", "close"),
                text("Edit recipe" if editing else "New recipe", weight=0.6),
                button("Save", "save", rid=self.rid("button_save_recipe"), weight=0.25),
            ],
        )
        return Screen(
            None,
            rows,
            activity=EDIT_ACTIVITY,
            header=[toolbar],
            list_rid=self.rid("new_recipe_scroll"),
            list_cls="androidx.core.widget.NestedScrollView",
        )

    def on_photo(self, ctx: Ctx, arg: Any) -> None:
        ctx.dialog(
            Dialog(
                "Add a photo",
                items=[
                    menu_item("Take a photo", "no_camera"),
                    menu_item("Pick a photo", "no_camera"),
                ],
            )
        )

    def on_no_camera(self, ctx: Ctx, arg: Any) -> None:
        ctx.toast("No app found to handle this action.")

    def on_categories_dialog(self, ctx: Ctx, arg: Any) -> None:
        picked = self.picked(ctx)
        names = self.category_names(ctx)
        items = [
            checkbox(n, n in picked, "toggle_category", n, rid="android:id/text1") for n in names
        ]
        message = "" if names else "There are no categories yet."
        ctx.dialog(
            Dialog(
                "Categories",
                message=message,
                items=items,
                buttons=[("OK", None, None)],
            )
        )

    def on_toggle_category(self, ctx: Ctx, name: str) -> None:
        picked = self.picked(ctx)
        picked = [c for c in picked if c != name] if name in picked else [*picked, name]
        ctx.set_form("categories", SEP.join(picked))
        self.on_categories_dialog(ctx, None)  # a multi-choice dialog stays open

    def values(self, ctx: Ctx) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name, field, _, size in FIELDS:
            value = ctx.form(name)
            out[field] = value.strip() if size == 1 else value.strip("\n ")
        known = set(self.category_names(ctx))
        out["categories"] = [c for c in self.picked(ctx) if c in known]
        return out

    def on_save(self, ctx: Ctx, arg: Any) -> None:
        assert ctx.route is not None
        values = self.values(ctx)
        if not values["title"]:
            ctx.toast("Please enter a title.")
            return
        index = ctx.route.arg("index")
        r = self.recipe(ctx, index) if index is not None else None
        ctx.hide_keyboard()
        if r is not None:
            ctx.update("recipes", r, **values)
            ctx.back()
            return
        ctx.add("recipes", {**values, "favourite": False})
        ctx.back()
        ctx.push("details", index=len(ctx.records("recipes")) - 1)

    def changed(self, ctx: Ctx) -> bool:
        assert ctx.route is not None
        values = self.values(ctx)
        r = self.recipe(ctx, ctx.route.arg("index"))
        if r is None:
            return any(values.values())
        return any(values[f] != (r.get(f) or ("" if f != "categories" else [])) for f in values)

    def on_close(self, ctx: Ctx, arg: Any) -> None:
        if not self.changed(ctx):
            ctx.back()
            return
        ctx.dialog(
            Dialog(
                "Discard changes?",
                message="Your changes to this recipe will be lost.",
                buttons=[("Discard", "discard", None), ("Keep editing", None, None)],
            )
        )

    def on_discard(self, ctx: Ctx, arg: Any) -> None:
        ctx.hide_keyboard()
        ctx.back()

    # ------------------------------------------------------------ categories
    def screen_categories(self, ctx: Ctx, route: Route) -> Screen:
        names = self.category_names(ctx)
        rows = [
            View(
                w.LINEAR,
                rid=self.rid("category_item"),
                clickable=True,
                focusable=True,
                on_click="category",
                arg=n,
                height=150,
                children=[text(n, self.rid("category_name"))],
            )
            for n in names
        ]
        if not rows:
            rows.append(
                text("There are no categories yet.", self.rid("categories_empty"), height=300)
            )
        toolbar = View(
            w.VIEWGROUP,
            rid=self.rid("toolbar"),
            horizontal=True,
            height=147,
            children=[
                image_button("Open navigation drawer", "drawer"),
                text("Categories", weight=0.85),
            ],
        )
        fab = View(
            w.IMAGE_BUTTON,
            rid=self.rid("fab_categories"),
            desc="Add category",
            clickable=True,
            focusable=True,
            on_click="add_category",
        )
        return Screen(None, rows, header=[toolbar], fab=fab, list_rid=self.rid("recycler_view"))

    def category_dialog(
        self, ctx: Ctx, title: str, buttons: list[tuple[str, str | None, Any]]
    ) -> None:
        field = View(
            w.TEXT,
            rid=self.rid("category_name_input"),
            edit="category_name",
            hint="Name",
            height=150,
        )
        ctx.dialog(Dialog(title, items=[field], buttons=buttons))

    def on_add_category(self, ctx: Ctx, arg: Any) -> None:
        ctx.set_form("category_name", "")
        self.category_dialog(
            ctx, "New category", [("Save", "category_save", None), ("Cancel", None, None)]
        )
        ctx.focus("category_name")

    def on_category(self, ctx: Ctx, name: str) -> None:
        ctx.set_form("category_name", name)
        self.category_dialog(
            ctx,
            "Edit category",
            [
                ("Save", "category_save", name),
                ("Cancel", None, None),
                ("Delete", "category_delete", name),
            ],
        )

    def on_category_save(self, ctx: Ctx, old: Any) -> None:
        name = " ".join(ctx.form("category_name").split())
        ctx.hide_keyboard()
        if not name:
            ctx.toast("Please enter a name.")
            return
        if name != old and name.casefold() in {n.casefold() for n in self.category_names(ctx)}:
            ctx.toast("This category already exists.")
            return
        if old is None:
            ctx.add("categories", {"name": name})
            return
        record = ctx.find("categories", lambda c: c.get("name") == old)
        if record is None or name == old:
            return
        ctx.update("categories", record, name=name)
        for r in list(ctx.records("recipes")):
            cats = r.get("categories") or []
            if old in cats:
                ctx.update("recipes", r, categories=[name if c == old else c for c in cats])

    def on_category_delete(self, ctx: Ctx, name: Any) -> None:
        ctx.dialog(
            Dialog(
                "Delete category",
                message=f"Do you really want to delete the category {name}?",
                buttons=[("Delete", "category_delete_ok", name), ("Cancel", None, None)],
            )
        )

    def on_category_delete_ok(self, ctx: Ctx, name: Any) -> None:
        record = ctx.find("categories", lambda c: c.get("name") == name)
        if record is None:
            return
        ctx.delete("categories", record)
        for r in list(ctx.records("recipes")):
            cats = r.get("categories") or []
            if name in cats:
                ctx.update("recipes", r, categories=[c for c in cats if c != name])


APP = Broccoli
