"""Reference solution of the cross-app task that puts a plan from a text into the calendar."""

from __future__ import annotations

import datetime as dt
import re

from tasklang.envs.phoneworld.solutions.base import Driver, SolutionError, reference
from tasklang.envs.phoneworld.solutions.calendar import (
    MONTHS,
    click,
    pick_date,
    pick_time,
)

_DAY = re.compile(r"\b(" + "|".join(MONTHS) + r")\s+(\d{1,2})\b", re.I)
_HOUR = re.compile(r"\b(\d{1,2})(?::(\d{2}))?\s*([ap]m)\b", re.I)


def plan_of(message: str, year: int) -> dt.datetime:
    """The day and time a message names ("Saturday May 23 at 7:30pm", "June 4, 8pm").

    >>> plan_of("Let's do dinner on June 4, 8pm?", 2026)
    datetime.datetime(2026, 6, 4, 20, 0)
    """
    day, hour = _DAY.search(message), _HOUR.search(message)
    if day is None or hour is None:
        raise SolutionError(f"no day and time in {message!r}")
    month = [m.casefold() for m in MONTHS].index(day[1].casefold()) + 1
    h = int(hour[1]) % 12 + (12 if hour[3].lower() == "pm" else 0)
    return dt.datetime(year, month, int(day[2]), h, int(hour[2] or 0))


@reference("cross.calendar_from_message")
def calendar_from_message(d: Driver) -> None:
    friend = d.params["friend"]["name"]
    d.open("Messages")
    click(d, d.scroll_to(rid="conversation_address", text=friend))
    bodies = d.texts(rid="thread_message_body")
    if not bodies:
        raise SolutionError("the conversation shows no message")
    start = plan_of(bodies[-1], 2026)
    end = start + dt.timedelta(seconds=int(d.params["length"]["span"]))
    d.open("Calendar")
    d.tap(desc="New Event")
    d.type(f"Dinner with {friend}", rid="event_title")
    pick_date(d, "start", start.date())
    pick_time(d, "start", start.hour, start.minute)
    pick_time(d, "end", end.hour, end.minute)
    d.tap(desc="Save")
    d.done()
