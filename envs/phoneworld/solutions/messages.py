"""Reference solutions of the Messages (Simple SMS Messenger) tasks."""

from __future__ import annotations

from tasklang.envs.phoneworld.solutions.base import Driver, SolutionError, reference
from tasklang.envs.phoneworld.widgets import View


def unread_row(d: Driver, title: str) -> int | None:
    """The element index of the visible, unread conversation row titled ``title``."""
    for i, v in enumerate(d.observe().walk()):
        if not v.rid.endswith(":id/conversation_frame") or v.bounds[3] <= v.bounds[1]:
            continue
        views: list[View] = list(v.walk())
        named = any(c.rid.endswith(":id/conversation_address") and c.text == title for c in views)
        if named and any(c.desc == "Unread" for c in views):
            return i
    return None


def open_unread_conversation(d: Driver, title: str, limit: int = 12) -> None:
    """Scroll the conversation list to the unread conversation with ``title`` and open it."""
    for _ in range(limit):
        index = unread_row(d, title)
        if index is not None:
            d.act({"action_type": "click", "index": index})
            return
        d.scroll("down")
    raise SolutionError(f"no unread conversation with {title!r} in the list")


@reference("messages.reply_unread")
def reply_unread(d: Driver) -> None:
    thread = d.params["thread"]
    d.open("Messages")
    open_unread_conversation(d, thread["contact_name"])
    d.type(d.params["reply"], rid="thread_type_message")
    d.tap(desc="Send")
    d.done()
