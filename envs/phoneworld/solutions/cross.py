"""Reference solutions of the cross-app workflows."""

from __future__ import annotations

import re

from tasklang.envs.phoneworld.solutions.base import Driver, SolutionError, reference
from tasklang.envs.phoneworld.solutions.clock import click, set_time

_TIME = re.compile(r"\b(\d{1,2}):(\d{2})\s*([ap]m)?\b|\b(\d{1,2})\s*([ap]m)\b", re.I)


def meeting_time(text: str) -> tuple[int, int]:
    """The first time of day a message mentions ("15:30", "2pm", "4:45pm"), as (h, m).

    >>> meeting_time("Can we do 2pm instead? Same room."), meeting_time("meet at 15:30 in 4B")
    ((14, 0), (15, 30))
    """
    m = _TIME.search(text)
    if m is None:
        raise SolutionError(f"no time of day in {text!r}")
    if m[1] is not None:
        hour, minute, half = int(m[1]), int(m[2]), (m[3] or "").lower()
    else:
        hour, minute, half = int(m[4]), 0, m[5].lower()
    if half == "pm" and hour < 12:
        hour += 12
    if half == "am" and hour == 12:
        hour = 0
    return hour, minute


@reference("cross.alarm_from_message")
def alarm_from_message(d: Driver) -> None:
    friend = d.params["friend"]
    d.open("Messages")
    click(d, d.scroll_to(rid="conversation_address", text=friend["name"]))
    bodies = d.texts(rid="thread_message_body")
    if not bodies:
        raise SolutionError("the conversation shows no message")
    hour, minute = meeting_time(bodies[-1])
    total = (hour * 60 + minute - 30) % (24 * 60)
    d.open("Clock")
    if not d.has(desc="Add alarm"):
        d.tap(desc="Alarm")
    d.tap(desc="Add alarm")
    set_time(d, f"{total // 60:02d}:{total % 60:02d}:00")
    click(d, d.scroll_to(rid="edit_label", text="Add label"))
    d.type("Meeting", rid="label_input_field")
    d.tap(text="OK")
    d.done()
