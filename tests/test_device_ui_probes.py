"""`screen` probes: state that apps show only on screen (mini programs' orders and trips,
WeChat's wallet and settings, Amazon's orders, addresses and payment methods), read after the
episode by opening the app again and reading its pages, PhoneWorld's own screens answering.

What is checked: the language form compiles, formats back and reports what does not fit the
model; shown text decodes exactly or not at all; pages of a scrolled list fit together with
every row counted once, and pages that do not fit are an error; on every library task of
these apps the probes read exactly what the end state holds in the fields they map; a screen
that cannot be read leaves its state undecided instead of guessed; readings after each step
never open an app; and the commands a reading sends are argument vectors that carry no text
from the phone's state.
"""

from __future__ import annotations

import copy
import datetime as dt
import shlex
from typing import Any

import pytest

from tasklang import ir
from tasklang.compiler import Compiler
from tasklang.envs.device.check import device_check, probe
from tasklang.envs.device.codec import DecodeError
from tasklang.envs.device.differential import library, run_task
from tasklang.envs.device.phoneworld import PhoneWorldTransport
from tasklang.envs.device.probes import coverage
from tasklang.envs.device.screenread import Row, ScreenError, Shot, stitch
from tasklang.envs.device.screens import Within, screen_specs, spot_decoder, unformat
from tasklang.envs.device.transport import DeviceTimeout
from tasklang.envs.phoneworld.episode import run_reference
from tasklang.verifiers.evaluate import ranged
from tasklang.verifiers.probes import unobservable
from tasklang.verifiers.snapshot import WorldSnapshot

APPS = {"coffee", "ride", "bills", "movies", "wechat", "shopping", "maps", "yelp"}
SCREEN_TASKS = sorted(t for t, c in library().items() if set(c.apps) & APPS)


def no_wait(seconds: float) -> None:
    return None


def read(compiled: ir.CompiledTask, world: WorldSnapshot) -> Any:
    transport = PhoneWorldTransport(compiled, lambda: world, lambda: world.ui_xml or "")
    reading = probe(compiled, transport, screens=True, sleep=no_wait)
    return reading, transport


def _whole(spec: Any) -> list[Any]:
    """The spots of a probe that read their field on every row: neither a form that leaves
    it unread nor a range (a datetime shown to the minute) in place of the value."""
    return [r for r in (*spec.reads, *spec.details)
            if not r.ranged and not any(f.unknown or f.among for f in r.spot.forms)]  # fmt: skip


def _in_part(spec: Any) -> list[Any]:
    return [r for r in (*spec.reads, *spec.details) if r not in _whole(spec)]


def project(
    world: WorldSnapshot, compiled: ir.CompiledTask, keys: set[Any], clock: str | None = None
) -> dict[str, Any]:
    """The part of a world the screen probes map on every row, for the targets in ``keys``
    (see :func:`shown_in_part` for the fields some rows do not show); of a page that lists
    only what is after the phone's ``clock`` (`upcoming`), the records it lists."""
    out: dict[str, Any] = {}
    for spec in screen_specs(compiled):
        if spec.key not in keys:
            continue
        state = world.apps.get(spec.app)
        assert state is not None
        if spec.kind == "setting":
            out[spec.target] = state.settings.get(spec.target)
            continue
        names = [r.name for r in _whole(spec)]
        after = spec.probe.upcoming
        listed = [r for r in state.collections.get(spec.target, [])
                  if after is None or clock is None or str(r.get(after)) > clock]  # fmt: skip
        rows = [{n: r.get(n) for n in names} for r in listed]
        out[spec.target] = sorted(rows, key=repr)
    return out


def shown_in_part(reading: WorldSnapshot, world: WorldSnapshot, compiled: ir.CompiledTask) -> int:
    """Checks that each field some rows do not show holds, where a row shows it, the value of
    the world's record with the same key, and lies in the range a row shows instead; the
    number of such values read."""
    seen = 0
    for spec in screen_specs(compiled):
        some = [r.name for r in _in_part(spec)]
        rdef = compiled.apps[spec.app].record_of(spec.target)
        if not some or rdef is None:
            continue
        keys = [f.name for f in rdef.fields if f.key]
        if not keys:
            continue  # keyless records: no world record to hold a row against
        [key] = keys
        truth = {r[key]: r for r in world.apps[spec.app].collections.get(spec.target, [])}
        for row in reading.apps[spec.app].collections.get(spec.target, []):
            for name in some:
                real = truth[row[key]].get(name)
                if name in row:
                    assert row[name] == real, (spec.target, row)
                    seen += 1
                elif "one_of" in row.get(ranged(name), {}):
                    assert real in row[ranged(name)]["one_of"], (spec.target, row, real)
                    seen += 1
                elif ranged(name) in row:
                    span = row[ranged(name)]
                    at = dt.datetime.fromisoformat(str(real))
                    low, high = (dt.datetime.fromisoformat(span[k]) for k in ("from", "to"))
                    assert low <= at <= high, (spec.target, row, real)
                    seen += 1
    return seen


# ------------------------------------------------------------------ the language
APP = """
app shop_demo {
  package "com.example.shop"
  record Order {
    number: text key
    status: enum(open, done) = "open"
    paid: bool = true
    total: money
    tags: list of text = []
  }
  collection orders: Order
  settings { balance: money = $0.00  alerts: bool = true }
  probe orders: screen (tap text "Orders", type "open orders") rows id "order" {
    number = id "number" format "Order {}",
    status = id "status" labels { open = "Open", done = "Done" },
    paid = id "paid" labels { true = "Paid", false = "" },
    total = id "total",
    tags = id "tag",
  }
  probe balance: screen (tap text "Wallet") value id "balance"
  probe alerts: screen value xpath "//node[node[@text='Alerts']]/node[@checkable='true']"
}
task shop_demo.t {
  kind app
  apps shop_demo
  goal "Pay."
  expect { exists shop_demo.orders where paid }
  budget 5 steps
}
"""


def test_screen_probes_compile_and_format_back() -> None:
    result = Compiler().compile_text(APP, "demo.task")
    assert not result.diagnostics, result.diagnostics
    probes = {p.target: p for p in result.tasks[0].apps["shop_demo"].probes}
    orders = probes["orders"]
    assert orders.source == "screen" and [s.action for s in orders.steps] == ["tap", "type"]
    assert orders.steps[1].text == "open orders"
    assert orders.spots["status"].labels == {"open": "Open", "done": "Done"}
    assert orders.spots["number"].format == "Order {}"
    assert probes["balance"].spots["balance"].selector.attrs[0].value == "balance"
    from tasklang.fmt import format_source
    from tasklang.source import SourceFile

    once, diags = format_source(SourceFile("demo.task", APP))
    assert once is not None and not diags
    again, _ = format_source(SourceFile("demo.task", once))
    assert again == once
    assert 'probe orders: screen (tap text "Orders", type "open orders") rows' in once


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ('total = id "total",', "has no field `totl`"),
        ('number = id "number" format "Order {}",', "needs one `{}`"),
        ('total = id "total",', "labels name the values of an enum or a bool"),
        ('status = id "status" labels { open = "Open", done = "Done" },', "would read as both"),
        ('status = id "status" labels { open = "Open", done = "Done" },', "is not a value of"),
        ('probe balance: screen (tap text "Wallet") value id "balance"', "reads one `value`"),
    ],
)
def test_screen_probe_mistakes_are_reported(change: str, message: str) -> None:
    wrong = {
        "has no field `totl`": 'totl = id "total",',
        "needs one `{}`": 'number = id "number" format "Order",',
        "labels name the values of an enum or a bool": 'total = id "total" labels { a = "x" },',
        "would read as both": 'status = id "status" labels { open = "Open", done = "Open" },',
        "is not a value of": 'status = id "status" labels { opened = "Open", done = "Done" },',
        "reads one `value`": 'probe balance: screen (tap text "Wallet") rows id "b" { }',
    }[message]
    result = Compiler().compile_text(APP.replace(change, wrong), "demo.task")
    codes = [(d.code, d.message) for d in result.diagnostics]
    assert any(code == "TL1023" and message in text for code, text in codes), codes


# ------------------------------------------------------------------ shown text
def spot(fmt: str | None = None, labels: dict[str, str] | None = None) -> ir.ScreenSpot:
    return ir.ScreenSpot(selector=ir.Selector(attrs=[]), format=fmt, labels=labels or {})


def test_shown_text_decodes_exactly_or_not_at_all() -> None:
    money = spot_decoder(spot("Total {}"), ir.Type(name="money"))
    assert money("Total $1,234.50") == 123450 and money("Total -$0.05") == -5
    for bad in ("Total 4.50", "Sum $4.50", "Total $4.5", "Total $1,23.00"):
        with pytest.raises(DecodeError):
            money(bad)
    when = spot_decoder(spot(), ir.Type(name="datetime"))
    assert when("2026-05-14 08:05:30") == "2026-05-14T08:05:30"
    # the seconds are not on screen: the minute it lies in (tests/test_screen_ranges.py)
    assert when("2026-05-14 08:05") == Within("2026-05-14T08:05:00", "2026-05-14T08:05:59.999999")
    with pytest.raises(DecodeError, match="like 2026-05-14 08:05"):
        when("May 14, 08:05")
    assert spot_decoder(spot(), ir.Type(name="time"))("08:05") == "08:05:00"
    state = spot_decoder(spot(labels={"open": "Open"}), ir.Type(name="enum", members=("open", "x")))
    assert state("Open") == "open"
    with pytest.raises(DecodeError):
        state("x")  # a value with no label of its own cannot be told apart
    optional = spot_decoder(spot("Coupon {}"), ir.Type(name="text", optional=True))
    assert optional("") is None and optional("Coupon  x") == " x"
    flag = spot_decoder(spot(labels={"true": "Default", "false": ""}), ir.Type(name="bool"))
    assert flag("") is False and flag("Default") is True
    assert unformat("{*}, {} {*}", "Seattle, WA 98101") == "WA"
    with pytest.raises(DecodeError, match="which part"):
        unformat("Row {} Seat {*}", "Row 1 Seat 2 Seat 3")


# ------------------------------------------------------------------ pages of a list
def page(tops: list[tuple[int, str]], view: tuple[int, int] = (100, 1000)) -> Shot:
    """A page whose rows are 100 high at ``tops`` showing ``text`` (its marks: the rows)."""
    rows = []
    for top, text in tops:
        t, b = max(top, view[0]), min(top + 100, view[1])
        if b > t:
            rows.append(Row(t, b - t, ((text,),)))
    marks = [(r.top, r.height, ("0", "1", r.values[0][0])) for r in rows]
    return Shot(rows, view, marks)


def content(shift: int, texts: list[str]) -> list[tuple[int, str]]:
    return [(100 + 100 * i - shift, t) for i, t in enumerate(texts)]


def test_pages_fit_together_and_each_row_counts_once() -> None:
    texts = [f"r{i}" for i in range(20)]
    texts[7] = texts[8] = "same"  # two equal rows side by side stay two
    shots = [page(content(s, texts)) for s in (0, 360, 720, 1080, 1100)]
    rows = stitch(shots)
    assert [r.values[0][0] for r in rows] == texts


def test_pages_that_do_not_overlap_are_an_error() -> None:
    texts = [f"r{i}" for i in range(20)]
    with pytest.raises(ScreenError, match="share nothing"):
        stitch([page(content(0, texts)), page(content(1000, texts))])


def test_pages_that_fit_two_ways_are_an_error() -> None:
    same = ["a"] * 20
    with pytest.raises(ScreenError, match="more than one way"):
        stitch([page(content(0, same)), page(content(300, same))])


# ------------------------------------------------------------------ the library
@pytest.mark.parametrize("task_id", SCREEN_TASKS)
def test_screens_read_what_the_end_state_holds(task_id: str) -> None:
    compiled = library()[task_id]
    _, traj = run_reference(compiled, 0)
    world = traj.final.snapshot
    assert world is not None
    reading, transport = read(compiled, world)
    keys = {s.key for s in screen_specs(compiled)}
    assert not reading.unread, reading.unread
    clock = reading.snapshot.clock
    assert project(reading.snapshot, compiled, keys) == project(world, compiled, keys, clock)
    shown_in_part(reading.snapshot, world, compiled)  # rows may show none: every order done
    assert reading.snapshot.ui_xml == world.ui_xml  # the final screen, read before any tap
    assert any(line.startswith("input tap") for line in transport.lines)


def test_a_long_list_with_twins_is_read_whole() -> None:
    """Thirty orders, two of them alike in all but their number: many drags, each row once."""
    compiled = library()["mini.coffee_cancel_duplicate"]
    _, traj = run_reference(compiled, 0)
    world = copy.deepcopy(traj.final.snapshot)
    assert world is not None
    orders = world.apps["coffee"].collections["orders"]
    for i in range(30):
        orders.append({**orders[0], "order_no": f"B{i:03d}", "status": "delivered",
                       "placed_at": f"2026-05-{1 + i % 9:02d}T09:00:00"})  # fmt: skip
    reading, transport = read(compiled, world)
    assert not reading.unread
    assert project(reading.snapshot, compiled, {("coffee", "orders")}) == project(
        world, compiled, {("coffee", "orders")}
    )
    assert sum(line.startswith("input swipe") for line in transport.lines) > 5


def test_the_cart_and_the_items_saved_for_later_are_read_apart() -> None:
    """One page lists both: each collection is read from its own rows, from the top of the
    page to its end, and each line's ASIN from the product page its title opens. Two lines
    that read alike are told apart by their place on a page that shows them all."""
    compiled = library()["shopping.save_for_later"]
    _, traj = run_reference(compiled, 0)
    world = copy.deepcopy(traj.final.snapshot)
    assert world is not None
    held = world.apps["shopping"].collections
    held["cart"] += [{**held["cart"][i % 2], "quantity": 5 + i} for i in range(12)]
    keys = {("shopping", "cart"), ("shopping", "saved_for_later")}
    reading, transport = read(compiled, world)
    assert not reading.unread
    got = project(reading.snapshot, compiled, keys)
    assert got == project(world, compiled, keys)
    assert len(got["cart"]) == len(held["cart"]) and len(got["saved_for_later"]) == 2
    assert sum(line.startswith("input swipe") for line in transport.lines) > 3
    specs = {s.target: s for s in screen_specs(compiled)}
    shown = {"title", "size", "color", "price"}
    assert {r.name for r in specs["cart"].reads} == shown | {"quantity"}
    assert {r.name for r in specs["saved_for_later"].reads} == shown
    assert [r.name for r in specs["cart"].details] == ["asin"]
    cov = coverage(compiled)
    cart = ("shopping", "cart")
    # every field read exactly but the ASIN, which a product page that does not show it
    # leaves unread: read in the records that show it
    assert cart in cov.at_end and cov.fields[cart] == shown | {"quantity"}
    assert cov.partly[cart] == {"asin"} and cart not in cov.complete
    assert "quantity" not in cov.fields[("shopping", "saved_for_later")]  # not shown

    held["saved_for_later"] += [dict(r) for r in held["saved_for_later"]]  # twins
    reading, _ = read(compiled, world)
    assert not reading.unread  # on one page, each opened by its place among those alike
    got = project(reading.snapshot, compiled, keys)
    assert got == project(world, compiled, keys) and len(got["saved_for_later"]) == 4


def test_a_page_that_cannot_be_read_leaves_its_state_undecided() -> None:
    compiled = library()["mini.ride_cancel_with_reason"]
    _, traj = run_reference(compiled, 0)
    model = compiled.apps["ride"]
    trips = next(p for p in model.probes if p.target == "trips")
    lost = trips.model_copy(
        update={
            "steps": [
                *trips.steps[:-1],
                ir.ScreenStep(
                    action="tap",
                    selector=ir.Selector(attrs=[ir.UiAttr(attr="text", value="Nowhere")]),
                ),
            ]
        }
    )
    apps = {**compiled.apps, "ride": model.model_copy(update={"probes": [
        lost if p.target == "trips" else p for p in model.probes]})}  # fmt: skip
    broken = compiled.model_copy(update={"apps": apps})
    world = traj.final.snapshot
    assert world is not None
    transport = PhoneWorldTransport(broken, lambda: world, lambda: world.ui_xml or "")
    dv = device_check(broken, traj, transport, sleep=no_wait)
    assert dv.success is None
    assert any("ride.trips" in why for why in dv.unobservable.values())
    good = device_check(compiled, traj, PhoneWorldTransport(compiled, lambda: world,
                                                            lambda: ""), sleep=no_wait)  # fmt: skip
    assert len(good.unobservable) < len(dv.unobservable)


class SlowTaps(PhoneWorldTransport):
    """A phone whose every command times out once: the first time each is sent."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.sent: list[str] = []

    def shell(self, line: str, timeout: float = 20.0) -> str:
        self.sent.append(line)
        if self.sent.count(line) == 1:
            raise DeviceTimeout(line)
        return super().shell(line, timeout)


def test_a_screen_step_that_timed_out_is_not_sent_again() -> None:
    """A read that timed out is tried once more; a tap never is (it may have happened)."""
    compiled = library()["shopping.save_for_later"]
    _, traj = run_reference(compiled, 0)
    world = traj.final.snapshot
    assert world is not None
    transport = SlowTaps(compiled, lambda: world, lambda: "")
    with pytest.raises(DeviceTimeout):
        probe(compiled, transport, screens=True, sleep=no_wait)
    acts = [line for line in transport.sent if line.startswith(("am ", "monkey ", "input "))]
    assert acts == [acts[0]] and acts[0].startswith("am force-stop")
    reads = [line for line in transport.sent if line not in acts]
    assert reads and all(reads.count(line) == 2 for line in reads)


def test_readings_along_the_way_never_open_an_app() -> None:
    compiled = library()["mini.coffee_order_latte"]
    _, traj = run_reference(compiled, 0)
    world = traj.final.snapshot
    assert world is not None
    transport = PhoneWorldTransport(compiled, lambda: world, lambda: "")
    snap = probe(compiled, transport).snapshot
    assert "orders" not in snap.apps.get("coffee", WorldSnapshot().app("coffee")).collections
    assert not any(line.startswith(("input", "am ", "monkey")) for line in transport.lines)
    cov = coverage(compiled)
    lines = ("coffee", "order_lines")  # read in full, but only at the end
    assert lines in cov.at_end and lines in cov.complete
    assert lines not in cov.during().fields and lines not in cov.during().complete
    steps = unobservable(compiled, cov, steps=True)
    assert any("only after the episode" in why for why in steps.values())


def test_my_coupons_read_every_coupon_and_whether_it_was_used() -> None:
    """My Coupons shows no code: each coupon is read by its title, saving, least spend, expiry
    and state, an expired one or one that needs a larger order read as not used."""
    compiled = library()["mini.coffee_coupon_order"]
    _, traj = run_reference(compiled, 0)
    world = traj.final.snapshot
    assert world is not None
    reading, _ = read(compiled, world)
    read_out = reading.snapshot.apps["coffee"].collections["coupons"]
    held = world.apps["coffee"].collections["coupons"]
    fields = ("title", "discount", "min_spend", "expires", "used")
    assert sorted(tuple(str(c[f]) for f in fields) for c in read_out) == sorted(
        tuple(str(c[f]) for f in fields) for c in held
    )
    assert all("code" not in c for c in read_out)
    used = {c["title"] for c in read_out if c["used"]}
    assert used == {c["title"] for c in held if c.get("used")} and len(used) == 2
    assert any(str(c["expires"]) < "2026-05-14" and not c["used"] for c in read_out)


@pytest.mark.parametrize("task_id", ["mini.coffee_coupon_order", "mini.ride_from_search",
                                     "wechat.transfer_money", "shopping.remove_address",
                                     "shopping.save_for_later"])  # fmt: skip
def test_screen_probes_decide_near_misses_and_agree(task_id: str) -> None:
    cases = run_task(library()[task_id], 0, 6)
    assert all(c.agrees for c in cases), [c for c in cases if not c.agrees]
    assert any(c.device is False for c in cases)


def test_commands_carry_no_text_from_the_phone() -> None:
    compiled = library()["wechat.transfer_money"]
    _, traj = run_reference(compiled, 0)
    world = copy.deepcopy(traj.final.snapshot)
    assert world is not None
    hostile = '\'; reboot; $(id) `x` "q"'
    for t in world.apps["wechat"].collections["transfers"]:
        t["note"] = hostile
    reading, transport = read(compiled, world)
    assert not reading.unread
    notes = [t["note"] for t in reading.snapshot.apps["wechat"].collections["transfers"]]
    assert hostile in notes
    for line in transport.lines:
        assert hostile not in line and "reboot" not in line
        argv = shlex.split(line)
        assert argv[0] in ("content", "settings", "run-as", "ls", "cat", "uiautomator",
                           "dumpsys", "date", "am", "monkey", "input"), line  # fmt: skip


def test_where_the_phone_is_reads_as_the_rides_me_page_shows_it() -> None:
    """The Me page shows the current location, and nothing where the app does not know it."""
    compiled = library()["mini.ride_book_from_home"]
    _, traj = run_reference(compiled, 0)
    world = traj.final.snapshot
    assert world is not None
    reading, _ = read(compiled, world)
    assert (
        reading.snapshot.apps["ride"].settings["location"]
        == (world.apps["ride"].settings["location"])
    )
    nowhere = copy.deepcopy(world)
    nowhere.apps["ride"].settings["location"] = None
    reading, _ = read(compiled, nowhere)
    assert ("ride", "location") not in reading.unread
    assert reading.snapshot.apps["ride"].settings["location"] is None
