"""Groups within groups (`each ... each ... rows`), a datetime read in two parts (a group's day,
a row's time of day), and a listing of the records not yet started (`rows ... upcoming FIELD`):
the language, the reading on a phone, and the Movie Tickets mini program's showtimes (each
cinema's films, each film's days, each day's shows), decided on a phone."""

from __future__ import annotations

import copy
import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest

from tasklang import ir
from tasklang.compiler import Compiler
from tasklang.envs.device.check import _runner, probe
from tasklang.envs.device.codec import DecodeError
from tasklang.envs.device.differential import judge, library, run_task, start_reading
from tasklang.envs.device.phoneworld import PhoneWorldTransport
from tasklang.envs.device.probes import coverage, start_specs
from tasklang.envs.device.screenread import Page, ScreenReader, _in_strip
from tasklang.envs.device.screens import Day, TimeOfDay, Within, join_parts, screen_specs
from tasklang.envs.phoneworld.episode import run_reference
from tasklang.fmt import format_source
from tasklang.source import SourceFile
from tasklang.verifiers.evaluate import ranged
from tasklang.verifiers.snapshot import WorldSnapshot

APP = """\
app shows_demo {
  package "com.example.shows"
  record Show {
    code: text key
    venue: text
    act: text
    starts: datetime
    price: money
    seats: int = 100
  }
  collection shows: Show
  probe shows: screen (tap text "Venues") %s rows id "show" %s{
    %s
  }
}
"""
LEVELS = ('each id "venue" { venue = id "venue-name" } each id "act-chip" { act = xpath "." } '
          'each id "day-chip" { starts = xpath "." format "{*} {}" }')  # fmt: skip
ROWS = 'starts = id "start", price = id "price",'


def _compile(each: str, upcoming: str = "", rows: str = ROWS) -> tuple[Any, list[str]]:
    result = Compiler().compile_text(APP % (each, upcoming, rows), path="shows.app")
    return result.apps.get("shows_demo"), [d.message for d in result.diagnostics]


# ---------------------------------------------------------------- the language
def test_levels_of_groups_reach_the_probe_and_the_formatter_keeps_them() -> None:
    app, diagnostics = _compile(LEVELS, "upcoming starts ")
    assert diagnostics == [] and app is not None
    [shows] = app.probes
    assert [list(g.spots) for g in shows.each] == [["venue"], ["act"], ["starts"]]
    assert [g.selector.attrs[0].value for g in shows.each] == ["venue", "act-chip", "day-chip"]
    assert list(shows.spots) == ["starts", "price"] and shows.upcoming == "starts"
    assert shows.each[2].spots["starts"].format == "{*} {}"
    text = APP % (LEVELS, "upcoming starts ", ROWS)
    once, _ = format_source(SourceFile("shows.app", text))
    assert once.count("each id ") == 3 and 'rows id "show" upcoming starts {' in once
    # broken, a level a line
    assert [line.split()[0] for line in once.splitlines() if "each id" in line] == ["each"] * 3
    assert format_source(SourceFile("shows.app", once))[0] == once


def test_the_spec_reads_a_datetime_in_two_parts() -> None:
    result = Compiler().compile_text(APP % (LEVELS, "upcoming starts ", ROWS), path="shows.app")
    app = result.apps["shows_demo"]
    compiled = ir.CompiledTask.model_construct(apps={"shows_demo": app})
    [spec] = screen_specs(compiled)
    day = next(r for r in spec.group_reads if r.name == "starts")
    time_of_day = next(r for r in spec.reads if r.name == "starts")
    assert (day.part, time_of_day.part, time_of_day.ranged) == ("day", "time", True)
    assert day.decode("Today 5/16") == Day(5, 16)
    assert day.decode("Sat 2026-05-16") == Day(5, 16, 2026)
    assert time_of_day.decode("19:30") == TimeOfDay("19:30:00", False)
    assert time_of_day.decode("19:30:15") == TimeOfDay("19:30:15", True)
    with pytest.raises(DecodeError):
        day.decode("Today 2/30")
    with pytest.raises(DecodeError):
        day.decode("Tonight")
    described = spec.describe()
    assert described.index('each id "venue"') < described.index('each id "act-chip"')
    assert "(those whose starts is after the phone's clock)" in described


@pytest.mark.parametrize(
    ("each", "upcoming", "rows", "message"),
    [
        # only a datetime is read in two parts; any other field read on a group and a row
        ('each id "v" { price = id "p" }', "", ROWS, "field `price` is read twice"),
        # a day once: two levels that both read it read it twice
        ('each id "v" { starts = id "d" } each id "w" { starts = id "e" }', "", ROWS,
         "field `starts` is read twice"),
        ('each id "v" { starts = id "d" or { "Soon" = unknown } }', "", ROWS,
         "field `starts` is read in two parts: every group must show one value of it"),
        (LEVELS, "upcoming begins ", ROWS, "record `Show` has no field `begins`"),
        (LEVELS, "upcoming price ", ROWS, "field `price` is `money`, and the phone's clock"),
        ('each id "v" { venue = id "n" }', "upcoming starts ", 'price = id "price",',
         "the rows must read `starts`"),
        ('each id "v" { code = id "n" }', "", ROWS, "field `code` is the key"),
    ],
)  # fmt: skip
def test_levels_that_cannot_be_read_are_errors(
    each: str, upcoming: str, rows: str, message: str
) -> None:
    _, diagnostics = _compile(each, upcoming, rows)
    assert any(message in d for d in diagnostics), diagnostics


def test_upcoming_is_a_keyword_only_where_it_can_appear() -> None:
    text = (APP % (LEVELS, "", ROWS)).replace("seats: int = 100", "upcoming: int = 0")
    result = Compiler().compile_text(text, path="shows.app")
    assert result.diagnostics == []


# ---------------------------------------------------------------- days without their year
@pytest.mark.parametrize(
    ("day", "today", "date"),
    [
        (Day(5, 16), dt.date(2026, 5, 16), dt.date(2026, 5, 16)),
        (Day(5, 18), dt.date(2026, 5, 16), dt.date(2026, 5, 18)),
        (Day(1, 2), dt.date(2026, 12, 30), dt.date(2027, 1, 2)),  # a listing over New Year
        (Day(12, 31), dt.date(2027, 1, 1), dt.date(2026, 12, 31)),
        (Day(2, 29), dt.date(2027, 3, 1), dt.date(2028, 2, 29)),  # the nearest year that has it
        (Day(5, 16, 2025), dt.date(2026, 5, 16), dt.date(2025, 5, 16)),  # shown: as shown
    ],
)
def test_a_day_without_its_year_is_the_one_nearest_the_phones_clock(
    day: Day, today: dt.date, date: dt.date
) -> None:
    assert day.on(today) == date


def test_a_day_without_its_year_and_no_clock_is_not_read() -> None:
    with pytest.raises(DecodeError, match="without its year"):
        Day(5, 16).on(None)


def test_a_time_of_day_with_its_seconds_makes_an_exact_datetime() -> None:
    today = dt.date(2026, 5, 16)
    assert join_parts(Day(5, 17), TimeOfDay("09:05:30", True), today) == "2026-05-17T09:05:30"
    assert join_parts(Day(5, 17), TimeOfDay("09:05:00", False), today) == Within(
        "2026-05-17T09:05:00", "2026-05-17T09:05:59.999999"
    )


# ---------------------------------------------------------------- the showtimes on a phone
def _reference(task: str = "mini.movies_cheapest_tonight") -> tuple[Any, Any, WorldSnapshot]:
    compiled = library()[task]
    _, traj = run_reference(compiled, 0)
    end = traj.final.snapshot
    assert end is not None
    return compiled, traj, end


def _read(compiled: ir.CompiledTask, world: WorldSnapshot, initial: Any = None) -> Any:
    transport = PhoneWorldTransport(compiled, lambda: world, lambda: "", initial)
    return probe(compiled, transport, initial=initial, screens=True, sleep=lambda s: None)


def _shows(records: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    def start(r: dict[str, Any]) -> str:
        return str(r["starts"] if "starts" in r else r[ranged("starts")]["from"])[:16]

    return sorted((r["cinema"], r["film"], start(r), r["hall"], r["format"], r["price"])
                  for r in records)  # fmt: skip


def test_every_showtime_not_yet_started_is_read_cinema_by_cinema_film_by_film_day_by_day() -> None:
    compiled, traj, end = _reference()
    reading = _read(compiled, end, traj.header.instance.initial)
    assert not reading.unread, reading.unread
    read = reading.snapshot.apps["movies"].collections["showtimes"]
    clock = reading.snapshot.clock
    world = end.apps["movies"].collections["showtimes"]
    upcoming = [s for s in world if s["starts"] > clock]
    assert 0 < len(upcoming) < len(world)  # the morning's shows have started: not listed
    assert _shows(read) == _shows(upcoming)
    # on the day of its chip, exactly (a show starts on the minute: `datetime(minute)`); no
    # page shows a show's id or its sold seats
    assert all(set(r) == {"cinema", "film", "starts", "hall", "format", "price"} for r in read)
    days = {r["starts"][:10] for r in read}
    assert days == {"2026-05-16", "2026-05-17"}
    # what the listing leaves out started by the time it was read
    until = reading.unlisted[("movies", "showtimes")][ranged("starts")]
    assert until["to"] == "2026-05-16T12:05:01" and until["from"] < "1000"


def test_chips_are_tapped_where_they_are_and_pages_of_their_own_opened_from_the_start() -> None:
    """A film or day chip a tap selects leaves the chips in place: the next one is tapped on
    the screen as it is. A cinema opens a page of its own, which shows no cinema: the next
    one is opened from the app's start."""
    compiled, traj, end = _reference()
    transport = PhoneWorldTransport(compiled, lambda: end, lambda: "", traj.header.instance.initial)
    [spec] = [s for s in screen_specs(compiled) if s.target == "showtimes"]
    reader = ScreenReader(_runner(transport, 20.0), lambda s: None, dt.date(2026, 5, 16))
    read = reader.rows(spec)
    starts = sum(line.startswith("am force-stop") for line in transport.lines)
    cinemas = len(end.apps["movies"].collections["cinemas"])
    pages = {(r["cinema"], r["film"], r["starts"][:10]) for r in read}
    assert len(pages) > 2 * cinemas  # days of films of cinemas: more than one each
    assert starts == cinemas  # the way, then each cinema but the first from the start again


def test_a_reading_without_the_lists_time_leaves_nothing_decided_on_what_it_left_out() -> None:
    compiled = library()["mini.movies_cheapest_tonight"]
    cov = coverage(compiled)
    assert cov.unlisted[("movies", "showtimes")][ranged("starts")]["to"] > "9000"
    assert ("movies", "showtimes") not in cov.complete and ("movies", "showtimes") not in cov.keyed


def test_the_showtimes_are_not_read_before_an_episode() -> None:
    """A show listed before the episode and not after it may just have started: the two
    readings would prove nothing added or deleted, so the listing is read only at the end."""
    compiled = library()["mini.movies_cheapest_tonight"]
    assert ("movies", "showtimes") in coverage(compiled).at_end
    assert ("movies", "orders") in {s.key for s in start_specs(compiled)}
    assert ("movies", "showtimes") not in {s.key for s in start_specs(compiled)}


def test_a_show_moved_into_the_past_is_not_listed_and_one_moved_later_is_read_on_its_day() -> None:
    """A show moved into the past is left out of its cinema's page, as the app lists only
    those not yet started; one moved to a later day is read on that day's chip."""
    compiled, traj, end = _reference()
    moved = copy.deepcopy(end)
    shows = moved.apps["movies"].collections["showtimes"]
    evening = next(s for s in shows if s["starts"] > "2026-05-16T17")
    evening["starts"] = "2026-05-16T11:00:00"
    later = next(s for s in shows if s["starts"] > "2026-05-16T17" and s is not evening)
    later["starts"] = "2026-05-19T21:40:00"
    read = _read(compiled, moved, traj.header.instance.initial).snapshot
    got = read.apps["movies"].collections["showtimes"]
    assert len(got) == sum(s["starts"] > "2026-05-16T12:05" for s in shows)
    assert any(r["starts"] == "2026-05-19T21:40:00" for r in got)


STRIP = """<hierarchy><node class="android.widget.FrameLayout" bounds="[0,0][1080,2000]">
<node resource-id="list" scrollable="true" bounds="[0,200][1080,2000]">
<node resource-id="strip" scrollable="%s" bounds="[0,200][1080,300]">
<node resource-id="chip" text="Dune" bounds="[0,200][400,300]"/>
<node resource-id="chip" text="Furiosa" bounds="[400,200][1080,300]"/>
</node>
<node resource-id="show" text="19:30" bounds="[0,300][1080,400]"/>
</node></node></hierarchy>"""


@pytest.mark.parametrize(
    ("strip", "page", "found"),
    [("true", "true", True), ("false", "true", False), ("true", "false", True)],
)
def test_chips_in_a_strip_that_scrolls_sideways_are_told_apart(
    strip: str, page: str, found: bool
) -> None:
    """A strip of its own in the page's list, or the only list that scrolls (then the
    page's scroller, but far wider than tall)."""
    shown = Page(STRIP.replace('"list" scrollable="true"', f'"list" scrollable="{page}"') % strip)
    chip = shown.select(ir.Selector(attrs=[ir.UiAttr(attr="id", value="chip")]))[0]
    show = shown.select(ir.Selector(attrs=[ir.UiAttr(attr="id", value="show")]))[0]
    assert _in_strip(shown, chip) is found
    assert _in_strip(shown, show) is False  # in the page's own list, or in none


def test_groups_in_a_strip_that_scrolls_leave_the_collection_unread() -> None:
    """A dump shows only the chips on screen, and the page's drags do not move a strip that
    scrolls sideways: the showtimes are unread, never read in part unawares."""
    from tasklang.envs.phoneworld.apps import movies

    compiled, traj, end = _reference()

    def scrolling(*args: Any, **kwargs: Any) -> Any:
        view = chips(*args, **kwargs)
        if view.rid == "film-chips":
            view.scrollable = True
        return view

    chips = movies.node
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(movies, "node", scrolling)
        reading = _read(compiled, end, traj.header.instance.initial)
    why = reading.unread[("movies", "showtimes")]
    assert 'the groups of movies.showtimes (`id "film-chip"`) lie in a strip' in why


def test_the_cheapest_ticket_tonight_is_decided_on_a_phone(
    decided_on_a_phone: Callable[..., None],
) -> None:
    decided_on_a_phone("mini.movies_cheapest_tonight", every_case=True)


@pytest.mark.parametrize("seed", [1, 2])
def test_the_cheapest_ticket_tonight_is_decided_on_other_seeds(seed: int) -> None:
    cases = run_task(library()["mini.movies_cheapest_tonight"], seed)
    assert cases[0].device is True and all(c.agrees and c.device is not None for c in cases)


def test_a_cheaper_evening_show_makes_the_answer_wrong_on_a_phone() -> None:
    compiled, traj, end = _reference()
    cheaper = copy.deepcopy(end)
    film = traj.header.instance.params["f"]
    evening = next(s for s in cheaper.apps["movies"].collections["showtimes"]
                   if s["film"] == film and s["starts"] >= "2026-05-16T19:30")  # fmt: skip
    evening["price"] = 100  # $1.00: below every price the task draws
    case = judge(compiled, traj, cheaper, "cheaper", None, start_reading(compiled, traj))
    assert case.phoneworld is False and case.device is False, case.unobservable
    # and one in the afternoon, before the cut, changes nothing
    afternoon = copy.deepcopy(end)
    early = next(s for s in afternoon.apps["movies"].collections["showtimes"]
                 if s["film"] == film and "2026-05-16T12:05" < s["starts"] < "2026-05-16T17")  # fmt: skip
    early["price"] = 100
    case = judge(compiled, traj, afternoon, "afternoon", None, start_reading(compiled, traj))
    assert case.phoneworld is True and case.device is True, case.unobservable
