"""Recipes: how an agent solves each task of the sample (real task ids, real expected values).

One module per site the task starts on; each `build(add)` hands its recipes to `add` in the order they are
written.
"""

from __future__ import annotations

from ..web import Recipe
from . import gitlab, openstreetmap, reddit, shopping, shopping_admin, wikipedia


def build_recipes() -> dict[int, Recipe]:
    recipes: list[Recipe] = []
    for site in (shopping, shopping_admin, reddit, gitlab, openstreetmap, wikipedia):
        site.build(recipes.append)
    return {r.task_id: r for r in recipes}
