"""The HTML report: self-contained, escaped, screenshots embedded with the action drawn on.

The trajectories and verdicts are built here; the screenshots are tiny PNGs written by hand
(108×240 for a 1080×2400 screen, so the overlay must scale the tap point by 1/10). The
browser test renders the report with headless Chromium when it is installed.
"""

from __future__ import annotations

import base64
import os
import re
import shutil
import struct
import subprocess
import zlib
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tasklang.source import Span
from tasklang.verifiers.report import image_info, render_html
from tasklang.verifiers.snapshot import UIElement
from tasklang.verifiers.trajectory import (
    Action,
    Environment,
    Final,
    Header,
    Observation,
    Screen,
    Step,
    TaskRef,
    Trajectory,
)
from tasklang.verifiers.verdict import ClauseResult, Evidence, Verdict

Color = tuple[int, int, int]
SAVE_PINK: Color = (233, 30, 99)  # the Save button in the fixture screenshot
CHROMIUM = "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else shutil.which("chromium")
XSS = '<script>alert("pwned")</script>'


# -- fixtures ------------------------------------------------------------------------------


def write_png(width: int, height: int, pixel: Callable[[int, int], Color]) -> bytes:
    """An 8-bit RGB PNG, filter 0 on every row."""
    raw = b"".join(
        b"\x00" + bytes(c for x in range(width) for c in pixel(x, y)) for y in range(height)
    )

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


def phone(x: int, y: int) -> Color:
    """A 108×240 'notes app': status bar, app bar, a text field, list rows, a Save button."""
    if y < 10:
        return (32, 33, 36)
    if y < 30:
        return (26, 115, 232)
    if 40 <= y < 56 and 4 <= x < 104:
        return (232, 240, 254) if 5 <= x < 103 and 41 <= y < 55 else (26, 115, 232)
    if 210 <= y < 226 and 70 <= x < 104:
        return SAVE_PINK
    if 60 <= y < 200 and (y - 60) % 20 < 16 and 6 <= x < 102:
        return (241, 243, 244)
    return (255, 255, 255)


ELEMENTS = [
    UIElement(index=0, class_name="android.widget.FrameLayout", bounds=(0, 0, 1080, 2400)),
    UIElement(
        index=1,
        class_name="android.widget.TextView",
        text="Notes",
        resource_id="com.example.notes:id/toolbar_title",
        bounds=(0, 100, 1080, 300),
    ),
    UIElement(
        index=2,
        class_name="android.widget.EditText",
        resource_id="com.example.notes:id/title",
        text="Title",
        clickable=True,
        focusable=True,
        bounds=(40, 400, 1040, 560),
    ),
    UIElement(
        index=3,
        class_name="android.widget.Button",
        resource_id="com.example.notes:id/save",
        text="Save",
        content_desc="Save note",
        clickable=True,
        bounds=(700, 2100, 1040, 2260),
    ),
    UIElement(
        index=4,
        class_name="androidx.recyclerview.widget.RecyclerView",
        scrollable=True,
        bounds=(0, 600, 1080, 2000),
    ),
]

UI_XML = """<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>
<hierarchy rotation="0">
  <node index="0" text="" class="android.widget.FrameLayout" bounds="[0,0][1080,2400]">
    <node index="0" text="Notes" class="android.widget.TextView" bounds="[0,100][1080,300]"/>
    <node index="1" text="Groceries &lt;b&gt;" resource-id="com.example.notes:id/row"
          class="android.widget.TextView" clickable="true" bounds="[40,640][1040,800]"/>
    <node index="2" text="Ideas" resource-id="com.example.notes:id/row"
          class="android.widget.TextView" clickable="true" bounds="[40,840][1040,1000]"/>
    <node index="3" text="" class="androidx.recyclerview.widget.RecyclerView"
          scrollable="true" bounds="[0,600][1080,2000]"/>
  </node>
</hierarchy>"""


def make_pairs(folder: Path) -> list[tuple[Trajectory, Verdict]]:
    """A failed 'add a note' episode with screenshots, and a small successful one."""
    shots = folder / "shots"
    shots.mkdir(parents=True, exist_ok=True)
    (shots / "0.png").write_bytes(write_png(108, 240, phone))
    (shots / "1.png").write_bytes(write_png(108, 240, phone))
    (shots / "fake.png").write_text(XSS)  # not an image: must not be embedded

    def obs(shot: str) -> Observation:
        return Observation(
            screenshot=shot,
            ui_elements=ELEMENTS,
            package="com.example.notes",
            activity=".MainActivity",
        )

    steps = [
        Step(
            index=0,
            observation=obs("shots/0.png"),
            action=Action(action_type="open_app", app_name="Notes"),
            thought="Open the notes app first.",
        ),
        Step(
            index=1,
            observation=obs("shots/1.png"),
            action=Action(action_type="click", index=2),
            thought=f"Tap the title field. {XSS}",
        ),
        Step(
            index=2,
            observation=obs("shots/missing.png"),
            action=Action(action_type="input_text", index=2, text="Buy milk & <eggs>"),
            thought="Type the title.",
        ),
        Step(
            index=3,
            observation=Observation(ui_xml=UI_XML, package="com.example.notes"),
            action=Action(action_type="scroll", direction="down", index=4),
            thought="Scroll the list to check the note is there.",
        ),
        Step(
            index=4,
            observation=obs("shots/1.png"),
            action=Action(action_type="click", x=870, y=2180),
            thought="Save.",
        ),
        Step(
            index=5,
            observation=obs("shots/fake.png"),
            action=Action(action_type="status", goal_status="complete"),
        ),
    ]
    traj = Trajectory(
        header=Header(
            task=TaskRef(id="notes.add_note"),
            goal=f"Add a note titled 'Buy milk'. {XSS}",
            environment=Environment(
                kind="phoneworld", name="phoneworld", screen=Screen(width=1080, height=2400)
            ),
        ),
        steps=steps,
        final=Final(status="complete"),
        path=str(folder / "episode.jsonl"),
    )
    span = Span(file="tasks/notes.task", line=7, column=5, end_line=7, end_column=30)
    verdict = Verdict(
        task="notes.add_note",
        trajectory="episode.jsonl",
        success=False,
        score=0.5,
        status="complete",
        expected_status="complete",
        clauses=[
            ClauseResult(
                id="note_saved",
                role="goal",
                kind="exists",
                passed=True,
                weight=1.0,
                subgoal="save",
                summary="a note exists",
                evidence=[
                    Evidence(
                        kind="record",
                        detail="notes.notes has a matching record",
                        app="notes",
                        collection="notes",
                        record={"id": 7, "title": "Buy milk & <eggs>"},
                        step=4,
                    )
                ],
                span=span,
            ),
            ClauseResult(
                id="title_exact",
                role="goal",
                kind="compare",
                passed=False,
                weight=1.0,
                subgoal="type",
                summary=f"title is 'Buy milk' {XSS}",
                evidence=[
                    Evidence(kind="step", detail="typed a different title", step=2),
                    Evidence(kind="value", detail="no such step", step=42),
                ],
                span=Span(file="tasks/notes.task", line=8, column=5),
            ),
            ClauseResult(
                id="no_delete",
                role="safety",
                kind="forbid",
                passed=True,
                summary="no note deleted",
            ),
        ],
        safety_violations=["deleted a contact"],
        notes=["checked against the final snapshot"],
    )
    ok_traj = Trajectory(
        header=Header(
            task=TaskRef(id="settings.dark"),
            goal="Turn on the dark theme.",
            environment=Environment(screen=Screen(width=1080, height=2400)),
        ),
        steps=[
            Step(
                index=0,
                observation=Observation(ui_xml=UI_XML),
                action=Action(action_type="click", x=500, y=700),
            ),
            Step(index=1, action=Action(action_type="navigate_home")),
        ],
        final=Final(status="complete"),
    )
    ok = Verdict(task="settings.dark", success=True, score=1.0)
    return [(traj, verdict), (ok_traj, ok)]


@pytest.fixture
def report(tmp_path: Path) -> tuple[Path, str]:
    pairs = make_pairs(tmp_path)
    text = render_html(pairs, base_dir=tmp_path, title="Report <check>")
    path = tmp_path / "report.html"
    path.write_text(text, encoding="utf-8")
    return path, text


# -- HTML structure ------------------------------------------------------------------------


class Collector(HTMLParser):
    """Tags, attributes and text; fails on unbalanced structural tags."""

    VOID = frozenset({"meta", "img", "br", "hr", "link", "input", "col", "wbr"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.text: list[str] = []
        self.errors: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, {k: v or "" for k, v in attrs}))
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, {k: v or "" for k, v in attrs}))

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes <{self.stack[-1] if self.stack else ''}>")
            return
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def parse(text: str) -> Collector:
    parser = Collector()
    parser.feed(text)
    parser.close()
    return parser


def test_report_is_well_formed(report: tuple[Path, str]) -> None:
    _, text = report
    doc = parse(text)
    assert doc.errors == []
    assert doc.stack == []
    assert text.startswith("<!DOCTYPE html>")
    ids = [a["id"] for _, a in doc.tags if "id" in a]
    assert len(ids) == len(set(ids)), "duplicate ids"
    # every in-page link points at an existing id
    for _, attrs in doc.tags:
        href = attrs.get("href", "")
        if href.startswith("#"):
            assert href[1:] in ids, href
    assert "<title>Report &lt;check&gt;</title>" in text


def test_no_network_resources(report: tuple[Path, str]) -> None:
    _, text = report
    assert "http://" not in text and "https://" not in text
    assert "<script" not in text.lower()
    assert "<link" not in text.lower()
    assert "@import" not in text and "url(" not in text
    for tag, attrs in parse(text).tags:
        for name in ("src", "href", "xlink:href", "srcset", "poster", "data"):
            value = attrs.get(name)
            if value is not None:
                assert value.startswith(("#", "data:image/")), (tag, name, value[:40])
    assert "default-src 'none'" in text  # a CSP forbids network loads as well


def test_screenshot_embedded_as_data_uri(report: tuple[Path, str], tmp_path: Path) -> None:
    _, text = report
    png = (tmp_path / "shots" / "0.png").read_bytes()
    uri = "data:image/png;base64," + base64.b64encode(png).decode()
    assert f'src="{uri}"' in text
    # the overlay uses the screenshot's pixel coordinates
    assert '<svg class="overlay" viewBox="0 0 108 240"' in text


def test_tap_circle_at_scaled_point(report: tuple[Path, str]) -> None:
    _, text = report
    circles = [a for t, a in parse(text).tags if t == "circle" and a.get("class") == "tap"]
    points = {(a["cx"], a["cy"]) for a in circles}
    # step 1: click on element #2 [40,400][1040,560] → centre (540, 480) → (54, 48)
    assert ("54", "48") in points
    # step 4: click at (870, 2180) → (87, 218)
    assert ("87", "218") in points
    # the second trajectory's click has no screenshot: drawn on the wireframe, unscaled
    assert ("500", "700") in points


def test_actions_drawn(report: tuple[Path, str]) -> None:
    _, text = report
    doc = parse(text)
    labels = " ".join(doc.text)
    assert "open app: Notes" in labels  # badge on step 0
    assert "status: complete" in labels  # badge on step 5
    assert "⌂ home" in labels
    assert any(t == "line" and a.get("class") == "swipe" for t, a in doc.tags)  # scroll arrow
    assert "⌨ “Buy milk &amp; &lt;eggs&gt;”" in text  # typed text label, escaped
    # the acted-on element is outlined and described
    assert "com.example.notes:id/save" in text and "Save note" in text
    assert "[700,2100][1040,2260]" in text
    assert "(hit element #3)" in text  # the x/y click hit-tested to the Save button


def test_untrusted_text_is_escaped(report: tuple[Path, str]) -> None:
    _, text = report
    assert XSS not in text
    assert "<eggs>" not in text
    assert html_text_contains(text, XSS)  # shown, as text
    assert "&lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt;" in text


def html_text_contains(text: str, needle: str) -> bool:
    return needle in "".join(parse(text).text)


def test_missing_and_bad_screenshots_are_placeholders(report: tuple[Path, str]) -> None:
    _, text = report
    assert "screenshot missing: shots/missing.png" in text
    assert "screenshot unreadable: shots/fake.png (not a PNG, JPEG, GIF or WebP image)" in text
    # the step with the missing screenshot still gets a wireframe of its UI
    step2 = section(text, "t0-s2", "t0-s3")
    assert 'class="screen wire"' in step2 and "wireframe" in step2


def section(text: str, start_id: str, end_id: str) -> str:
    start = text.rindex("<", 0, text.index(f'id="{start_id}"'))
    return text[start : text.index(f'id="{end_id}"', start)]


def test_clause_table_and_links(report: tuple[Path, str]) -> None:
    _, text = report
    start = text.index('<table class="clauses">')
    table = text[start : text.index("</table>", start)]
    for cell in ("note_saved", "title_exact", "no_delete", "goal", "safety", "save", "✗ fail",
                 "✓ pass"):  # fmt: skip
        assert cell in table, cell
    assert "tasks/notes.task:7:5" in table and "tasks/notes.task:8:5" in table
    assert '<a class="steplink" href="#t0-s4">step 4</a>' in table
    assert '<a class="steplink" href="#t0-s2">step 2</a>' in table
    assert "step 42 (not in trajectory)" in table
    assert "Buy milk &amp; &lt;eggs&gt;" in table  # the record, escaped
    # at the steps, the clauses are linked back, failing ones highlighted
    step2 = section(text, "t0-s2", "t0-s3")
    assert 'class="step hl-fail"' in step2 and 'href="#t0-c1"' in step2
    step4 = section(text, "t0-s4", "t0-s5")
    assert 'class="step hl-pass"' in step4 and 'href="#t0-c0"' in step4
    assert 'class="step"' in section(text, "t0-s0", "t0-s1")


def test_summary(report: tuple[Path, str]) -> None:
    _, text = report
    top = section(text, "t0-top", "t0-clauses")
    for piece in ("FAILURE", "notes.add_note", "Buy milk", "0.5", "deleted a contact",
                  "expected complete", "checked against the final snapshot", "1080×2400"):  # fmt: skip
        assert piece in top, piece
    assert "SUCCESS" in section(text, "t1-top", "t1-clauses")
    assert '<a href="#t1-top">settings.dark</a>' in text  # the index of trajectories


def test_image_info_formats() -> None:
    assert image_info(write_png(3, 5, lambda x, y: (0, 0, 0))) == ("image/png", 3, 5)
    gif = b"GIF89a" + struct.pack("<HH", 7, 9) + b"\x00" * 10
    assert image_info(gif) == ("image/gif", 7, 9)
    jpeg = (
        b"\xff\xd8\xff\xe0" + struct.pack(">H", 16) + b"JFIF\x00" + b"\x00" * 9
        + b"\xff\xc0" + struct.pack(">HBHH", 17, 8, 240, 108) + b"\x00" * 12
    )  # fmt: skip
    assert image_info(jpeg) == ("image/jpeg", 108, 240)
    assert image_info(b"") is None
    assert image_info(b"\x89PNG\r\n\x1a\n" + b"\x00" * 4) is None


def test_empty_and_bare_inputs(tmp_path: Path) -> None:
    text = render_html([])
    assert "No trajectories." in text and not parse(text).errors
    bare = Trajectory(header=Header(task=TaskRef(id="t")), steps=[Step(index=0)])
    text = render_html([(bare, Verdict(task="t", success=False, score=float("nan")))])
    assert "no screenshot or UI recorded" in text and "No action recorded." in text
    assert '<span class="score">0</span>' in text  # a NaN score shows as 0


def test_screenshots_found_next_to_the_trajectory(tmp_path: Path) -> None:
    """Without base_dir, a screenshot path is relative to the trajectory file's folder."""
    pairs = make_pairs(tmp_path / "run")
    text = render_html(pairs)  # trajectory.path is tmp_path/run/episode.jsonl
    assert text.count("data:image/png;base64,") == 3
    absolute = tmp_path / "run" / "shots" / "0.png"
    traj = Trajectory(
        header=Header(task=TaskRef(id="t")),
        steps=[Step(index=0, observation=Observation(screenshot=str(absolute)))],
    )
    text = render_html([(traj, Verdict(task="t", success=True, score=1.0))], base_dir=tmp_path)
    assert text.count("data:image/png;base64,") == 1
    assert '<svg class="overlay" viewBox="0 0 108 240"' in text  # no screen size: 1:1


@settings(max_examples=40, deadline=None)
@given(
    text=st.text(alphabet=st.characters(codec="utf-8"), max_size=40),
    x=st.floats(allow_nan=True, allow_infinity=True),
)
def test_any_text_is_escaped(text: str, x: float) -> None:
    marker = "<i>" + text
    traj = Trajectory(
        header=Header(task=TaskRef(id=marker), goal=marker),
        steps=[
            Step(
                index=0,
                observation=Observation(
                    ui_elements=[UIElement(text=marker, bounds=(0, 0, 100, 200))],
                    package=marker,
                ),
                action=Action(action_type="click", x=x, y=x, text=marker),
                thought=marker,
            ),
            Step(index=1, action=Action(action_type="answer", text=marker)),
        ],
        final=Final(answer=marker, error=marker),
    )
    verdict = Verdict(
        task=marker,
        success=False,
        score=x,
        clauses=[
            ClauseResult(
                id=marker,
                role="guard",
                kind=marker,
                passed=False,
                weight=x,
                summary=marker,
                evidence=[Evidence(kind="ui", detail=marker, step=0, node={marker: marker})],
            )
        ],
        safety_violations=[marker],
        notes=[marker],
    )
    out = render_html([(traj, verdict)], title=marker)
    doc = parse(out)
    assert doc.errors == [] and doc.stack == []
    assert "<i>" not in out
    # no non-finite numbers in the drawing
    assert not re.search(r' (?:c?[xy][12]?|r|width|height|points)="[^"]*(?:nan|inf)', out)


# -- headless browser ----------------------------------------------------------------------


def png_pixels_differ(data: bytes, max_rows: int = 10_000) -> bool:
    """Whether a PNG (8-bit, non-interlaced) has two different pixels; decodes row by row."""
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    pos, idat = 8, []
    width = height = bpp = 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and interlace == 0, (depth, interlace)
            bpp = {0: 1, 2: 3, 4: 2, 6: 4}[ctype]
        elif kind == b"IDAT":
            idat.append(body)
        pos += 12 + length
    raw = zlib.decompress(b"".join(idat))
    stride = width * bpp
    prev = bytearray(stride)
    first: bytes | None = None
    for y in range(min(height, max_rows)):
        start = y * (stride + 1)
        ftype, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            left = line[i - bpp] if i >= bpp else 0
            up = prev[i]
            if ftype == 1:
                line[i] = (line[i] + left) & 0xFF
            elif ftype == 2:
                line[i] = (line[i] + up) & 0xFF
            elif ftype == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif ftype == 4:
                ul = prev[i - bpp] if i >= bpp else 0
                p = left + up - ul
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - ul)
                pred = left if pa <= pb and pa <= pc else up if pb <= pc else ul
                line[i] = (line[i] + pred) & 0xFF
        if first is None:
            first = bytes(line[:bpp])
        if bytes(line) != first * width:
            return True
        prev = line
    return False


def chromium(*args: str, tmp: Path) -> subprocess.CompletedProcess[str]:
    assert CHROMIUM is not None
    cmd = [
        CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
        "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", f"--user-data-dir={tmp / 'profile'}", *args,
    ]  # fmt: skip
    env = {**os.environ, "HOME": str(tmp)}
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60, env=env, check=False)


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install chromium)")
def test_report_renders_in_headless_chromium(report: tuple[Path, str], tmp_path: Path) -> None:
    path, _ = report
    shot = tmp_path / "shot.png"
    run = chromium(f"--screenshot={shot}", "--window-size=1200,2000", path.as_uri(), tmp=tmp_path)
    assert shot.is_file(), run.stderr[-2000:]
    data = shot.read_bytes()
    assert image_info(data) == ("image/png", 1200, 2000)
    assert png_pixels_differ(data), "the rendered report is blank"
    if os.environ.get("TASKLANG_REPORT_SHOT"):  # keep the picture to look at
        shutil.copy(shot, os.environ["TASKLANG_REPORT_SHOT"])

    dom = chromium("--dump-dom", path.as_uri(), tmp=tmp_path)
    assert dom.returncode == 0, dom.stderr[-2000:]
    assert re.search(r'<span class="badge fail">FAILURE</span>', dom.stdout)
    assert re.search(r'<span class="badge ok">SUCCESS</span>', dom.stdout)
    assert "<script>alert" not in dom.stdout
