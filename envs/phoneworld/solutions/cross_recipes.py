"""Reference solutions of the cross-app tasks that start in Broccoli."""

from __future__ import annotations

from tasklang.envs.phoneworld.solutions.base import Driver, reference
from tasklang.envs.phoneworld.solutions.maps import click


@reference("cross.recipe_to_friend")
def recipe_to_friend(d: Driver) -> None:
    dish = d.params["dish"]
    friend = d.params["friend"]
    d.tap(text=dish["title"], rid="card_text_view_title")
    d.tap(desc="More options")
    d.tap(text="Share")
    d.tap(text="Messages")
    d.type(friend["name"], rid="new_conversation_address")
    click(d, d.scroll_to(text=friend["name"], rid="item_contact_name"))
    d.tap(desc="Send")
    d.done()
