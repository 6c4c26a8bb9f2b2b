"""Running screen probes on a phone: open the app afresh, take the probe's steps, and read the
page's rows, scrolling from its top to its end.

Every command is a plain argument vector over the same transport the other probes use:
``am force-stop`` and ``monkey`` to start the app, ``input tap X Y`` (the centre of the element
a step's selector finds, scrolling down to it; for a step `if shown`, on the screen as it is,
and no tap where it shows none), ``input text`` for a typed step, ``input swipe``
for a slow drag that scrolls, ``uiautomator dump`` and ``cat`` to read each screen (dumped
until two dumps agree). No text from a task or from the screen is ever sent: taps are
coordinates, and typed text is the model's own.

Rows are read only where they show whole. A list that scrolls is read page by page: each
drag moves it less than a page, and consecutive pages must overlap in rows that sit at the
same place relative to each other (the shift the drag made), so a row is never counted twice
nor skipped. Pages that overlap in no row, or in several ways, make the reading fail: the
collection is then *unread* (its clauses undecided), never guessed.
"""

from __future__ import annotations

import datetime as dt
import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from tasklang import ir
from tasklang.envs.device import parse
from tasklang.envs.device.codec import DecodeError
from tasklang.envs.device.probes import DUMP, READ_DUMP
from tasklang.envs.device.screens import (
    UNSHOWN,
    Among,
    Day,
    GroupRead,
    ScreenSpec,
    SpotRead,
    TimeOfDay,
    Within,
    join_parts,
    selector_text,
)
from tasklang.envs.device.transport import CommandFailed
from tasklang.verifiers.evaluate import ranged
from tasklang.verifiers.ui import value_matches

Shell = Callable[[tuple[str, ...]], str]
Bounds = tuple[int, int, int, int]
LAUNCHER = "android.intent.category.LAUNCHER"
DRAG = 0.4  # a drag that scrolls moves the list by this part of its height
DRAG_MS = 1500  # slowly: no fling, so the list moves about as far as the finger
MAX_PAGES = 200
SETTLE_POLLS = 6
_MARK = ("class", "resource-id", "text", "content-desc")
_ATTRS = {"text": "text", "desc": "content-desc", "id": "resource-id", "class": "class",
          "package": "package"}  # fmt: skip


class ScreenError(Exception):
    """A screen probe that could not read its page (a step's element is not there, pages
    that do not fit together, a value that does not read)."""


# ------------------------------------------------------------------ one screen
class Page:
    """One dump: its elements, and where each is."""

    def __init__(self, xml: str) -> None:
        self.xml = xml
        try:
            self.root = etree.fromstring(xml.encode("utf-8", "surrogatepass"))
        except etree.XMLSyntaxError as exc:
            raise parse.OutputError(f"the UI dump is not XML: {exc}") from None
        self.nodes = list(self.root.iter("node"))

    def select(self, sel: ir.Selector, within: Any = None) -> list[Any]:
        """The elements (inside ``within``, itself included) that match every attribute.
        An `xpath` inside a row is evaluated from the row and may leave it (a line of an
        order reads the order's number with ``ancestor::...``)."""
        xpath = any(a.attr == "xpath" for a in sel.attrs)
        pool = list(within.iter("node")) if within is not None and not xpath else self.nodes
        for attr in sel.attrs:
            if attr.attr == "xpath":
                try:
                    found = (within if within is not None else self.root).xpath(attr.value)
                except (etree.XPathError, ValueError) as exc:
                    raise ScreenError(f"cannot evaluate XPath `{attr.value}`: {exc}") from None
                hits = {id(n) for n in found} if isinstance(found, list) else set()
                pool = [n for n in pool if id(n) in hits]
            else:
                key = _ATTRS[attr.attr]
                pool = [n for n in pool if value_matches(attr.attr, n.get(key, ""), attr.value)]
        return pool

    def scroller(self) -> Any:
        """The list to scroll: the largest on screen."""
        lists = [n for n in self.nodes if n.get("scrollable") == "true" and bounds(n)]
        return max(lists, key=lambda n: area(bounds(n)), default=None)

    def signature(self, within: Any) -> tuple[Any, ...]:
        """What a scroll changes: every element inside ``within`` and where it is."""
        scope = within.iter("node") if within is not None else self.nodes
        return tuple(
            (n.get("bounds"), n.get("text"), n.get("content-desc"), n.get("resource-id"))
            for n in scope
        )


def bounds(node: Any) -> Bounds | None:
    raw = node.get("bounds", "")
    try:
        left, top, right, bottom = (int(v) for v in raw.replace("][", ",").strip("[]").split(","))
    except ValueError:
        return None
    return (left, top, right, bottom) if right > left and bottom > top else None


def area(b: Bounds | None) -> int:
    return (b[2] - b[0]) * (b[3] - b[1]) if b else 0


def texts(page: Page, row: Any, read: SpotRead) -> tuple[str, ...]:
    """The texts (or switch states) of the elements a spot finds in a row (none found: one
    empty text)."""
    found = page.select(read.spot.selector, row)
    if read.many:
        return tuple(shown(n, read) for n in found)
    if len(found) > 1:
        what = selector_text(read.spot.selector)
        raise ScreenError(f"{len(found)} elements match `{what}` for `{read.name}` in one row")
    return (shown(found[0], read) if found else "",)


def shown(node: Any, read: SpotRead) -> str:
    if read.attr == "checked":
        return str(node.get("checked", "")) if node.get("checkable") == "true" else ""
    return str(node.get("text", ""))


# ------------------------------------------------------------------ rows on pages
@dataclass
class Row:
    top: int
    height: int
    values: tuple[tuple[str, ...], ...]
    left: int = 0  # rows side by side (chips in a line) differ here


Mark = tuple[int, int, tuple[str, ...]]  # an element of a page: top, height, what it shows


@dataclass
class Shot:
    """One page of a list: its rows, every element in it (``marks``, which say how far the
    list moved from one page to the next), and the part of the screen the list shows."""

    rows: list[Row]
    view: tuple[int, int]  # the list's top and bottom on screen
    marks: list[Mark] = field(default_factory=list)
    whole: list[Row] = field(default_factory=list)
    whole_marks: set[Mark] = field(default_factory=set)


def stitch(shots: list[Shot]) -> list[Row]:
    """The rows of a list read page by page, top to bottom, each once (see the module)."""
    for i, shot in enumerate(shots):
        top, bottom = shot.view
        first, last = i == 0, i == len(shots) - 1
        if any(r.top <= top and r.top + r.height >= bottom for r in shot.rows) and len(shots) > 1:
            raise ScreenError("a row is taller than the part of the screen the list shows")

        shot.whole = [r for r in shot.rows if _inside(r.top, r.height, shot.view, first, last)]
        shot.whole_marks = {m for m in shot.marks if _inside(m[0], m[1], shot.view, first, last)}
    offsets = [0]
    for prev, shot in itertools.pairwise(shots):
        offsets.append(offsets[-1] + shift(prev, shot))
    out: dict[tuple[int, int], Row] = {}
    for shot, offset in zip(shots, offsets, strict=True):
        for r in shot.whole:
            at = (r.top + offset, r.left)
            out.setdefault(at, Row(r.top + offset, r.height, r.values, r.left))
    _all_whole_somewhere(shots, offsets, out)
    return [out[at] for at in sorted(out)]


def _inside(top: int, height: int, view: tuple[int, int], first: bool, last: bool) -> bool:
    """Whether an element shows whole: inside the list's part of the screen (where the list
    starts on its first page, and ends on its last, an element may touch the edge)."""
    return (top > view[0] or first) and (top + height < view[1] or last)


def _all_whole_somewhere(
    shots: list[Shot], offsets: list[int], rows: dict[tuple[int, int], Row]
) -> None:
    """A row cut off at the bottom of a page (its top is where it starts) or at the top (its
    bottom is where it ends) shows whole on some page."""
    ends = {(r.top + r.height, r.left) for r in rows.values()}
    for shot, offset in zip(shots, offsets, strict=True):
        top, bottom = shot.view
        for r in shot.rows:
            if r in shot.whole:
                continue
            if r.top > top and (r.top + offset, r.left) not in rows:
                raise ScreenError("a row cut off at the bottom of a page shows whole on no page")
            if r.top + r.height < bottom and (r.top + r.height + offset, r.left) not in ends:
                raise ScreenError("a row cut off at the top of a page shows whole on no page")


def shift(prev: Shot, shot: Shot) -> int:
    """How far the list moved between two pages: the one shift under which the elements
    both pages show whole agree. A slow drag moves a list at most as far as the finger went
    (``DRAG`` of its height): a page that moved further is not a page that fits."""
    most = int(DRAG * (prev.view[1] - prev.view[0])) + 2
    candidates = {
        a[0] - b[0]
        for a in prev.whole_marks
        for b in shot.whole_marks
        if a[1:] == b[1:] and 0 < a[0] - b[0] <= most
    }
    fits = [d for d in sorted(candidates) if _agree(prev, shot, d)]
    if not fits:
        raise ScreenError("two pages of the list share nothing: a drag scrolled too far")
    if len(fits) > 1:
        raise ScreenError("two pages of the list fit together in more than one way")
    return fits[0]


def _agree(prev: Shot, shot: Shot, d: int) -> bool:
    """Elements whole in one page sit, moved by ``d``, where the other page shows them."""
    top, bottom = prev.view
    for t, h, key in shot.whole_marks:
        if t + d > top and t + d + h < bottom and (t + d, h, key) not in prev.whole_marks:
            return False
    top, bottom = shot.view
    for t, h, key in prev.whole_marks:
        if t - d > top and t - d + h < bottom and (t - d, h, key) not in shot.whole_marks:
            return False
    return True


# ------------------------------------------------------------------ the session
class ScreenReader:
    """Reads screen probes through ``run`` (argv -> output); ``sleep`` waits between dumps
    while the screen settles."""

    def __init__(
        self,
        run: Shell,
        sleep: Callable[[float], None] = time.sleep,
        today: dt.date | None = None,
    ) -> None:
        self.run, self.sleep = run, sleep
        self.today = today  # the phone's date, which dates a day shown without its year
        self.seen: dict[tuple[str, tuple[str, ...]], list[Page]] = {}

    def dump(self) -> Page:
        """The screen once two dumps in a row agree (at most ``SETTLE_POLLS`` dumps)."""
        last = self._dump()
        for _ in range(SETTLE_POLLS - 1):
            self.sleep(0.3)
            now = self._dump()
            if now == last:
                break
            last = now
        return Page(last)

    def _dump(self) -> str:
        parse.check_dumped(self.run(DUMP.argv))
        return self.run(READ_DUMP.argv)

    def start(self, package: str) -> None:
        self.run(("am", "force-stop", package))
        self.run(("monkey", "-p", package, "-c", LAUNCHER, "1"))

    def drag(self, page: Page, down: bool, part: float = DRAG) -> tuple[Page, bool]:
        """Drag the page's list by ``part`` of its height (``down``: to see what is below):
        the screen after it, and whether the list moved (no list: the page as it is)."""
        scroller = page.scroller()
        b = bounds(scroller) if scroller is not None else None
        if scroller is None or b is None:
            return page, False
        before = page.signature(scroller)
        x, top, height = (b[0] + b[2]) // 2, b[1], b[3] - b[1]
        low, high = top + int(height * (0.5 + part / 2)), top + int(height * (0.5 - part / 2))
        y1, y2 = (low, high) if down else (high, low)
        self.run(("input", "swipe", str(x), str(y1), str(x), str(y2), str(DRAG_MS)))
        now = self.dump()
        after = now.scroller()
        return now, after is not None and now.signature(after) != before

    def find(self, sel: ir.Selector) -> tuple[Page, Any]:
        """The screen and the first element ``sel`` matches, scrolling down to it."""
        page, moved = self.dump(), True
        for _ in range(MAX_PAGES):
            found = [n for n in page.select(sel) if bounds(n)]
            if found:
                return page, found[0]
            if not moved:
                break
            page, moved = self.drag(page, down=True)
        raise ScreenError(f"no element `{selector_text(sel)}` on the page")

    def shown(self, sel: ir.Selector) -> Any:
        """The first element ``sel`` matches on the screen as it is (None: none)."""
        return next((n for n in self.dump().select(sel) if bounds(n)), None)

    def tap(self, node: Any) -> None:
        """A tap at the centre of an element on screen."""
        b = bounds(node)
        assert b is not None
        self.run(("input", "tap", str((b[0] + b[2]) // 2), str((b[1] + b[3]) // 2)))

    def steps(self, spec: ScreenSpec) -> None:
        self.start(spec.package)
        for step in spec.probe.steps:
            if step.selector is not None:
                node = self.shown(step.selector) if step.if_shown else self.find(step.selector)[1]
                if node is None:
                    continue  # a prompt the app does not show this time
                self.tap(node)
            else:
                text = (step.text or "").replace("%", "%%").replace(" ", "%s")
                self.run(("input", "text", text))

    def pages(self, spec: ScreenSpec) -> list[Page]:
        """The probe's page from the top of its list to the end, one dump a screenful: the
        way there is taken once, for every probe that reads the same page."""
        way = (spec.package, tuple(s.model_dump_json(exclude={"span"}) for s in spec.probe.steps))
        if way not in self.seen:
            self.seen.clear()  # one page at a time: the phone shows only the last
            self.steps(spec)
            self.seen[way] = self.scroll_through()
        return self.seen[way]

    def scroll_through(self) -> list[Page]:
        """The page's largest list scrolled to its top, then a dump after each drag down
        until the list no longer moves."""
        page = self.dump()
        for _ in range(MAX_PAGES):
            page, moved = self.drag(page, down=False, part=0.8)
            if not moved:
                break
        pages = [page]
        while True:
            if len(pages) > MAX_PAGES:
                raise ScreenError(f"the list is longer than {MAX_PAGES} pages")
            page, moved = self.drag(page, down=True)
            if not moved:
                return pages
            pages.append(page)

    def value(self, spec: ScreenSpec) -> Any:
        """A setting: the first element its spot matches, from the top of the page."""
        read = spec.reads[0]
        for page in self.pages(spec):
            found = [n for n in page.select(read.spot.selector) if bounds(n)]
            if found:
                value = _decode(read, (shown(found[0], read),), spec)
                if isinstance(value, (Within, Among)):
                    raise ScreenError(f"{spec.app}.{spec.target} is shown only as one of several "
                                      f"values ({value.as_json()}): a setting is one value")  # fmt: skip
                return value
        raise ScreenError(f"no element `{selector_text(read.spot.selector)}` on the page")

    def rows(self, spec: ScreenSpec) -> list[dict[str, Any]]:
        if spec.each:
            out: list[dict[str, Any]] = []
            self.under(spec, (), {}, out)
            return out
        assert spec.probe.selector is not None
        shown = _listed_whole(spec, _read_rows(self.pages(spec), spec.probe.selector,
                                               spec.reads, spec))  # fmt: skip
        out = [_record(v) for v in shown]
        if spec.details:
            for record, values, place in zip(out, shown, _places(shown), strict=True):
                record.update(_record(self.details(spec, record, values, place=place)))
        return out

    def under(
        self,
        spec: ScreenSpec,
        path: tuple[Any, ...],
        values: dict[str, Any],
        out: list[dict[str, Any]],
    ) -> None:
        """The rows under the groups ``path`` opened (`each`; ``values``: what those groups
        read), added to ``out``. On the page they opened (the first level's: the way's page),
        the groups of the next level as the page shows them; then, for each, from the app's
        start, the way and the groups again, a tap on the one that shows what it showed
        (scrolling down to it), and what the page that opens lists under it (where the screen
        still shows the level's groups where the page did, a tap on the group there: see
        :meth:`tap_in_place`); at the last level, the rows of the page, scrolled from its top
        to its end, each with the groups' fields (and, with `details`, what each row's own
        page shows, opened from the group's page)."""
        assert spec.probe.selector is not None
        pages = self.pages(spec) if not path else self.scroll_through()
        if len(path) == len(spec.each):
            rows = _listed_whole(spec, _read_rows(pages, spec.probe.selector, spec.reads, spec))
            records = [_record(self.joined({**values, **row}, values)) for row in rows]
            if spec.details:
                for record, row, place in zip(records, rows, _places(rows), strict=True):
                    record.update(_record(self.details(spec, record, row, path, place)))
            out += records
            return
        level = spec.each[len(path)]
        first = level.reads[0]
        for page in pages:
            if any(_in_strip(page, n) for n in page.select(level.selector)):
                raise ScreenError(f"the groups of {spec.app}.{spec.target} (`"
                                  f"{selector_text(level.selector)}`) lie in a strip of its "
                                  "own that scrolls: some may not show")  # fmt: skip
        groups = _read_rows(pages, level.selector, level.reads, spec)
        names = [g[first.name] for g in groups]
        for name in names:
            if name is UNSHOWN or isinstance(name, (Within, Among)):
                raise ScreenError(f"a group of {spec.app}.{spec.target} does not show its "
                                  f"`{first.name}` whole")  # fmt: skip
            if names.count(name) > 1:
                raise ScreenError(f"two groups of {spec.app}.{spec.target} show {name!r}: "
                                  "neither can be found again")  # fmt: skip
        where = _shown_groups(pages[0], level, spec)
        for group in groups:
            target = (*path, group[first.name])
            if not self.tap_in_place(spec, level, group[first.name], where):
                self.open_group(spec, target)
            self.under(spec, target, {**values, **group}, out)

    def tap_in_place(
        self, spec: ScreenSpec, level: GroupRead, name: Any, where: list[tuple[Any, ...]] | None
    ) -> bool:
        """A tap on the group that reads ``name`` on the screen as it is, where that shows
        the level's groups just where the level's page first showed them (``where``): chips
        or tabs, which a tap selects and leaves in place, so the screen it gives is the one
        the way and the taps from the app's start give. False, and no tap, where the screen
        shows them elsewhere or not at all (a group that opened a page of its own, rows
        opened below one, a list scrolled): the group is then opened from the app's start."""
        if not where:
            return False
        page = self.dump()
        if _shown_groups(page, level, spec) != where:
            return False
        found = _rows_of(page, level.selector, level.reads[:1], (name,), spec, whole=True)
        if len(found) != 1:
            return False
        self.seen.clear()  # the phone leaves the page it showed
        self.tap(found[0])
        return True

    def joined(self, row: dict[str, Any], group: dict[str, Any]) -> dict[str, Any]:
        """A row's values with a datetime read in two parts made whole: the day its group
        shows and the time of day the row does, the day dated by the phone's clock."""
        out = dict(row)
        for name, day in group.items():
            time_of_day = row.get(name)
            if isinstance(day, Day) and isinstance(time_of_day, TimeOfDay):
                try:
                    out[name] = join_parts(day, time_of_day, self.today)
                except DecodeError as exc:
                    raise ScreenError(str(exc)) from None
        return out

    def open_group(self, spec: ScreenSpec, path: tuple[Any, ...]) -> None:
        """From the app's start, the way to the page of the groups again, and a tap on the
        group of each level whose first `each` field reads the name ``path`` gives it
        (scrolling down to it): the page of the last one's rows (or groups)."""
        self.seen.clear()  # the phone leaves the page of the groups
        self.steps(spec)
        for level, name in zip(spec.each, path, strict=False):
            node = self.find_row(spec, level.selector, level.reads[:1], (name,))[1]
            self.tap(node)

    def find_row(
        self,
        spec: ScreenSpec,
        sel: ir.Selector,
        reads: tuple[SpotRead, ...],
        values: tuple[Any, ...],
        whole: bool = False,
        place: tuple[int, int] = (0, 1),
    ) -> tuple[Page, Any]:
        """The screen and the first element ``sel`` matches whose spots ``reads`` read
        ``values``, scrolling down to it (``whole``: a row the list shows whole, so a row
        cut off at the edge, which reads less than it shows, is never taken for another).
        ``place`` is (i, n) where the list holds n rows that read alike: the i-th of them,
        top to bottom, taken on a page that shows all n whole (rows that read alike are told
        apart only by where they are, which a page shows and a scroll would lose)."""
        i, alike = place
        what = ", ".join(f"{r.name} {v!r}" for r, v in zip(reads, values, strict=True))
        page, moved = self.dump(), True
        for _ in range(MAX_PAGES):
            found = _rows_of(page, sel, reads, values, spec, whole or alike > 1)
            if found and alike == 1:
                return page, found[0]
            if len(found) == alike > 1:
                return page, found[i]
            if not moved:
                if alike > 1:
                    raise ScreenError(f"the {alike} rows of {spec.app}.{spec.target} that read "
                                      f"{what} show together on no page: they cannot be told "
                                      "apart to open their pages")  # fmt: skip
                raise ScreenError(f"no row of {spec.app}.{spec.target} reads {what} again")
            page, moved = self.drag(page, down=True)
        raise ScreenError(f"the list is longer than {MAX_PAGES} pages")

    def details(
        self,
        spec: ScreenSpec,
        record: dict[str, Any],
        read_there: dict[str, Any],
        path: tuple[Any, ...] = (),
        place: tuple[int, int] = (0, 1),
    ) -> dict[str, Any]:
        """The `details` of one record: from the app's start, the way to the list again, a
        tap on the row that reads the record's key (scrolling down to it; without a key, the
        row shown whole that reads all ``read_there``, what the record's row read), on the
        row's element `details tap` names (else the row's centre), and the page that opens,
        scrolled from its top to its end; each spot reads the first element it finds there
        (none: no text). The rows of a group (`each`) are found on its page, which taps on
        the groups ``path`` names open (:meth:`open_group`). Without a key, ``place`` says
        which of the rows that read alike the record's is (see :meth:`find_row`)."""
        assert spec.probe.selector is not None
        if spec.key_field is None:
            reads, values = spec.reads, tuple(read_there[r.name] for r in spec.reads)
        elif spec.key_field not in record:  # a key shown only to a range finds no one row
            raise ScreenError(f"a row of {spec.app}.{spec.target} does not show its key whole")
        else:
            reads = tuple(r for r in spec.reads if r.name == spec.key_field)
            values = (record[spec.key_field],)
        if spec.each:
            self.open_group(spec, path)
        else:
            self.seen.clear()  # the phone leaves the list's page
            self.steps(spec)
        keyless = spec.key_field is None
        page, row = self.find_row(spec, spec.probe.selector, reads, values,
                                  whole=keyless, place=place if keyless else (0, 1))  # fmt: skip
        target = row
        if spec.probe.details_tap is not None:
            found = [n for n in page.select(spec.probe.details_tap, row) if bounds(n)]
            if not found:
                what = selector_text(spec.probe.details_tap)
                raise ScreenError(f"a row of {spec.app}.{spec.target} shows no `{what}` to tap")
            target = found[0]
        self.tap(target)
        pages = self.scroll_through()
        out = {}
        for read in spec.details:
            found_at = next(
                (n for p in pages for n in p.select(read.spot.selector) if bounds(n)), None
            )
            out[read.name] = _decode(
                read, (shown(found_at, read) if found_at is not None else "",), spec
            )
        return out


def _shown_groups(page: Page, level: GroupRead, spec: ScreenSpec) -> list[tuple[Any, ...]] | None:
    """Where the page shows the level's groups, and what each reads first, top to bottom
    (None: one that does not read)."""
    out = []
    for node in page.select(level.selector):
        b = bounds(node)
        if b is None:
            continue
        try:
            out.append((b, _decode(level.reads[0], texts(page, node, level.reads[0]), spec)))
        except ScreenError:
            return None
    return out


def _in_strip(page: Page, node: Any) -> bool:
    """Whether the element lies in a list that scrolls other than the page's own, or in one
    far wider than tall (a strip of chips that scrolls sideways): a screen dump shows only
    the part on screen, and the page's drags do not move it."""
    main = page.scroller()
    up = node.getparent()
    while up is not None and up.tag == "node":
        if up.get("scrollable") == "true":
            b = bounds(up)
            return up is not main or (b is not None and 3 * (b[3] - b[1]) < b[2] - b[0])
        up = up.getparent()
    return False


def _listed_whole(spec: ScreenSpec, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows of a page that lists the latest N at most (`at most N`), where it shows
    fewer: as many as that may be all of them, or may not."""
    most = spec.probe.most
    if most is not None and len(rows) >= most:
        raise ScreenError(f"{spec.app}.{spec.target}: the page lists {most} rows at most, and "
                          f"shows {len(rows)}: some may be left out")  # fmt: skip
    return rows


def _places(rows: list[dict[str, Any]]) -> list[tuple[int, int]]:
    """For each row, its place among the rows that read alike and how many do: a record
    without a key is found again by all its row reads, so rows that read alike are told
    apart only by their order on a page that shows them all (see ``find_row``)."""
    return [(rows[:i].count(row), rows.count(row)) for i, row in enumerate(rows)]


def _record(values: dict[str, Any]) -> dict[str, Any]:
    """A record from the values its spots read: a field not shown is left out (unread
    there), and so is one shown only as a range or one of several values, which the record
    holds instead."""
    record = {name: v for name, v in values.items()
              if v is not UNSHOWN and not isinstance(v, (Within, Among))}  # fmt: skip
    record.update({ranged(name): v.as_json() for name, v in values.items()
                   if isinstance(v, (Within, Among))})  # fmt: skip
    return record


def _read_rows(
    pages: list[Page], sel: ir.Selector, reads: tuple[SpotRead, ...], spec: ScreenSpec
) -> list[dict[str, Any]]:
    """What the spots read in each row ``sel`` finds on the pages of one list, each row once."""
    shots = [shot(page, sel, reads) for page in pages]
    return [{read.name: _decode(read, raw, spec) for read, raw in zip(reads, r.values, strict=True)}
            for r in stitch(shots)]  # fmt: skip


def _rows_of(
    page: Page,
    sel: ir.Selector,
    reads: tuple[SpotRead, ...],
    values: tuple[Any, ...],
    spec: ScreenSpec,
    whole: bool,
) -> list[Any]:
    """The rows ``sel`` finds on the page, shown whole (or, unless ``whole``, in part),
    whose spots ``reads`` read ``values``, top to bottom."""
    scroller = page.scroller()
    view = bounds(scroller) if scroller is not None else None
    out = []
    for node in page.select(sel):
        b = bounds(node)
        if b is None or (whole and view is not None and (b[1] < view[1] or b[3] > view[3])):
            continue
        try:
            if all(_decode(r, texts(page, node, r), spec) == v
                   for r, v in zip(reads, values, strict=True)):  # fmt: skip
                out.append((b[1], b[0], node))
        except ScreenError:
            continue  # a row cut off at the edge shows part of what it reads
    return [node for *_, node in sorted(out, key=lambda t: t[:2])]


def shot(page: Page, sel: ir.Selector, reads: tuple[SpotRead, ...]) -> Shot:
    """The rows one dump shows, where the list is, and every element in the list."""
    scroller = page.scroller()
    rows = []
    for node in page.select(sel):
        b = bounds(node)
        if b is None:
            continue
        values = tuple(texts(page, node, r) for r in reads)
        rows.append(Row(b[1], b[3] - b[1], values, b[0]))
    view = bounds(scroller) if scroller is not None else None
    if view is None:  # nothing scrolls: every row shows whole
        return Shot(rows, (-1, 1 << 30))
    marks = []
    for node in scroller.iterdescendants("node"):
        b = bounds(node)
        if b is not None:
            what = (str(b[0]), str(b[2]), *(node.get(k, "") for k in _MARK))
            marks.append((b[1], b[3] - b[1], what))
    return Shot(rows, (view[1], view[3]), marks)


def _decode(read: SpotRead, raw: tuple[str, ...], spec: ScreenSpec) -> Any:
    try:
        if read.many:
            items = [read.decode(t) for t in raw]
            if any(isinstance(i, (Within, Among)) for i in items):
                raise DecodeError("an item of the list is shown only as one of several values")
            return items
        return read.decode(raw[0])
    except DecodeError as exc:
        raise ScreenError(f"{spec.app}.{spec.target}: `{read.name}`: {exc}") from None


def read_screens(
    specs: list[ScreenSpec],
    run: Shell,
    sleep: Callable[[float], None] | None = None,
    today: dt.date | None = None,
) -> tuple[dict[tuple[str, str], Any], dict[tuple[str, str], str]]:
    """What each screen probe read (records, or a setting's value), and why the others
    could not be read (``sleep``: how to wait for a screen to settle; ``time.sleep``;
    ``today``: the phone's date, which dates a day a screen shows without its year)."""
    reader = ScreenReader(run, sleep or time.sleep, today)
    read: dict[tuple[str, str], Any] = {}
    unread: dict[tuple[str, str], str] = {}
    for spec in specs:
        try:
            read[spec.key] = reader.rows(spec) if spec.kind == "collection" else reader.value(spec)
        except (ScreenError, CommandFailed) as exc:  # a phone that answers, but not the page
            unread[spec.key] = f"{spec.app}.{spec.target} could not be read on screen: {exc}"
            reader.seen.clear()
    return read, unread
