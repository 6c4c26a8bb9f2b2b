"""`datetime(minute)`: a field whose values are whole minutes (a show's start). The language,
PhoneWorld holding its apps to it, and the screens that show such a value to the minute, which
then show it exactly: a ticket's start is the earliest showtime's, decided on a phone."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tasklang.compiler import Compiler
from tasklang.envs.device.codec import DecodeError
from tasklang.envs.device.differential import judge, library, start_reading, step_readings
from tasklang.envs.device.screens import TimeOfDay, screen_specs
from tasklang.envs.phoneworld.app import AppData, UndeclaredChange
from tasklang.envs.phoneworld.episode import Episode, run_reference
from tasklang.fmt import format_source
from tasklang.source import SourceFile
from tasklang.verifiers.state import minute_fields

APP = """\
app gigs_demo {
  package "com.example.gigs"
  record Gig {
    code: text key
    starts: %s
    doors: datetime
  }
  collection gigs: Gig
  probe gigs: screen (tap text "Gigs") rows id "gig" {
    code = id "code",
    starts = id "starts",
    doors = id "doors",
  }
}
"""
TASK = """\
task gigs_demo.one {
  kind app
  apps gigs_demo
  goal "Look at the gigs."
  given {
    gigs_demo.gigs = [{ code: "G1", starts: %s, doors: 2026-05-16T19:00:30 }]
  }
  expect {
    count(gigs_demo.gigs) == 1
  }
}
"""


def _compile(starts: str = "datetime(minute)", value: str = "2026-05-16T19:30") -> Any:
    return Compiler().compile_text(APP % starts + "\n" + TASK % value, path="gigs.task")


def test_a_minute_field_reaches_the_model_and_the_formatter_keeps_it() -> None:
    result = _compile()
    assert [d.message for d in result.diagnostics if d.severity == "error"] == []
    gig = result.apps["gigs_demo"].record("Gig")
    assert gig is not None
    assert [(f.name, f.type.name, f.unit) for f in gig.fields[1:]] == [
        ("starts", "datetime", "minute"),
        ("doors", "datetime", None),
    ]
    once, _ = format_source(SourceFile("gigs.app", APP % "datetime(minute)?"))
    assert "starts: datetime(minute)?" in once
    assert format_source(SourceFile("gigs.app", once))[0] == once
    assert minute_fields({"gigs_demo": result.apps["gigs_demo"]}) == {
        ("gigs_demo", "gigs"): ("starts",)
    }


@pytest.mark.parametrize(
    ("starts", "value", "code", "message"),
    [
        ("text(minute)", "2026-05-16T19:30", "TL1009", "unknown type `text(minute)`"),
        ("datetime(second)", "2026-05-16T19:30", "TL1009", "unknown type `datetime(second)`"),
        ("list of datetime(minute)", "[]", "TL1009", "the type of a field, not of a list's"),
        ("datetime\n  }\n  settings { at: datetime(minute)? ", "2026-05-16T19:30", "TL1009",
         "setting `at`: `datetime(minute)` is the type of a record's field"),
        ("datetime(minute)", "2026-05-16T19:30:15", "TL1006", "is not a whole minute"),
        ("datetime(minute) = 2026-05-16T19:30:01", "2026-05-16T19:30", "TL1010",
         "default of `starts` is not a whole minute"),
    ],
)  # fmt: skip
def test_what_is_no_whole_minute_is_an_error(
    starts: str, value: str, code: str, message: str
) -> None:
    found = [(d.code, d.message) for d in _compile(starts, value).diagnostics]
    assert any(c == code and message in m for c, m in found), found


# ---------------------------------------------------------------- PhoneWorld
def test_phoneworld_refuses_an_app_that_writes_seconds_to_a_minute_field() -> None:
    ep = Episode(library()["mini.movies_my_seats"], 0)
    phone = ep.phone
    assert ("movies", "showtimes") in phone.minutes
    before = dict(phone.state)
    old = before["movies"]
    show = old.collections["showtimes"][0]

    def moved(starts: str) -> AppData:
        shows = [{**show, "starts": starts}, *old.collections["showtimes"][1:]]
        return AppData({**old.collections, "showtimes": shows}, dict(old.settings))

    phone.state["movies"] = moved("2026-05-16T21:40:00")
    phone._whole_minutes(before, taken=False)  # a whole minute: no breach
    phone.state["movies"] = moved("2026-05-16T21:40:15")
    with pytest.raises(UndeclaredChange, match=r"movies\.showtimes: `starts` was set to"):
        phone._whole_minutes(before, taken=False)
    assert phone.state["movies"] is old  # the apps' data as it was


# ---------------------------------------------------------------- screens
def _reads() -> dict[str, Any]:
    [compiled] = _compile().tasks
    [spec] = screen_specs(compiled)
    return {r.name: r for r in spec.reads}


def test_a_minute_field_shown_to_the_minute_is_read_exactly() -> None:
    reads = _reads()
    assert not reads["starts"].ranged and reads["doors"].ranged
    assert reads["starts"].decode("2026-05-16 19:30") == "2026-05-16T19:30:00"
    assert reads["starts"].decode("2026-05-16 19:30:00") == "2026-05-16T19:30:00"
    with pytest.raises(DecodeError, match="not a whole minute"):
        reads["starts"].decode("2026-05-16 19:30:15")
    # a field that may hold seconds is read as the minute it lies in
    assert reads["doors"].decode("2026-05-16 19:00").as_json()["to"].endswith(":59.999999")


def test_a_minute_fields_time_of_day_is_exact() -> None:
    compiled = library()["mini.movies_cheapest_tonight"]
    [spec] = [s for s in screen_specs(compiled) if s.target == "showtimes"]
    starts = next(r for r in spec.reads if r.name == "starts")
    assert not starts.ranged
    assert starts.decode("19:30") == TimeOfDay("19:30:00", True)
    with pytest.raises(DecodeError):
        starts.decode("19:30:15")


# ---------------------------------------------------------------- decided on a phone
def test_tickets_for_the_first_show_after_a_time_are_decided_on_a_phone() -> None:
    compiled = library()["mini.movies_adjacent_seats"]
    _, traj = run_reference(compiled, 0)
    end = traj.final.snapshot
    assert end is not None
    start = start_reading(compiled, traj)
    states = [r.snapshot for r in step_readings(compiled, traj)]  # probed after every step
    case = judge(compiled, traj, end, "reference", states, start)
    assert case.phoneworld is True and case.device is True, case.unobservable
    # the same seats for the next show of the film at that cinema: caught
    later = copy.deepcopy(end)
    params = traj.header.instance.params
    film, cinema = params["pick"]["film"], params["pick"]["cinema"]
    mine = {t["starts"] for t in later.apps["movies"].collections["tickets"]}
    shows = sorted(s["starts"] for s in later.apps["movies"].collections["showtimes"]
                   if s["film"] == film and s["cinema"] == cinema and s["starts"] > max(mine))  # fmt: skip
    assert shows
    for ticket in later.apps["movies"].collections["tickets"]:
        if ticket["film"] == film:
            ticket["starts"] = shows[0]
    for order in later.apps["movies"].collections["orders"]:
        if order["film"] == film and order["status"] == "paid" and order["starts"] in mine:
            order["starts"] = shows[0]
    case = judge(compiled, traj, later, "later show", states, start)
    assert case.phoneworld is False and case.device is False, case.unobservable
