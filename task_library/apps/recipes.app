# Broccoli (com.flauschcode.broccoli), the recipe app AndroidWorld uses. Recipes live in the
# app's Room database (databases/broccoli): the `recipes` table holds the texts as typed (servings
# and preparation time are free text, e.g. "4" and "30 min"), `categories` the category names
# (`categoryId`, `name`) and `recipes_with_categories` which recipe is in which category (one
# row per pair: `recipeId`, `categoryId`). A recipe can only be in categories that exist: its
# categories are rows pointing at category records, and a deleted category leaves its recipes.
app recipes {
  package "com.flauschcode.broccoli"
  label "Broccoli"

  record Recipe {
    title: text key  # titles need not be unique in the app; tasks keep them apart
    description: text = ""
    servings: text = ""
    preparation_time: text = ""
    source: text = ""  # a URL or a book
    ingredients: text = ""  # one ingredient a line
    directions: text = ""  # one step a line
    categories: list of text = []  # Category.name
    favourite: bool = false
  }

  record Category {
    name: text key
  }

  collection recipes: Recipe
  collection categories: Category

  probe recipes: sqlite "/data/data/com.flauschcode.broccoli/databases/broccoli" table "recipes" {
    title = "title",
    description = "description",
    servings = "servings",
    preparation_time = "preparationTime",
    source = "source",
    ingredients = "ingredients",
    directions = "directions",
    categories = "recipes_with_categories(recipeId = recipeId).categories(categoryId = categoryId).name",
    favourite = "favorite",
  }
  probe categories: sqlite "/data/data/com.flauschcode.broccoli/databases/broccoli" table "categories" {
    name = "name",
  }
}
