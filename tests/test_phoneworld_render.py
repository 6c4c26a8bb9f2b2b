"""PhoneWorld screenshots: valid, deterministic PNGs that show what the tree holds, and
that never fail on odd trees."""

from __future__ import annotations

import io
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from tasklang.envs.phoneworld import render
from tasklang.envs.phoneworld import widgets as w
from tasklang.envs.phoneworld.app import App, Ctx, Dialog, Route, Screen
from tasklang.envs.phoneworld.phone import Phone
from tasklang.envs.phoneworld.widgets import View

W, H = 1080, 2400


def screen(*rows: View) -> View:
    """A root frame holding ``rows`` stacked from the top, laid out on the W x H screen."""
    root = View(w.FRAME, children=[View(w.LINEAR, children=list(rows))])
    w.layout(root, 0, 0, W, H)
    return root


def image(png: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(png))
    im.load()
    return im


def pixels(root: View, **kw: Any) -> bytes:
    return image(render.render_png(root, W, H, **kw)).convert("RGB").tobytes()


def blank(**kw: Any) -> bytes:
    return pixels(screen(), **kw)


def mean(im: Image.Image) -> float:
    grey = im.convert("L")
    hist = grey.histogram()
    return sum(i * n for i, n in enumerate(hist)) / max(1, sum(hist))


# ---------------------------------------------------------------- the PNG itself
def test_valid_png_of_the_scaled_size() -> None:
    root = screen(w.text_row("Hello"))
    png = render.render_png(root, W, H)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    im = image(png)
    assert im.format == "PNG"
    assert im.size == (540, 1200)
    assert im.mode == "RGB"
    assert image(render.render_png(root, W, H, scale=1.0)).size == (W, H)
    assert image(render.render_png(root, W, H, scale=0.25)).size == (270, 600)
    assert image(render.render_png(root, 1001, 777, scale=0.33)).size == (330, 256)
    assert image(render.render_png(root, 1, 1)).size == (1, 1)


def test_png_decodes_to_the_rendered_pixels() -> None:
    root = screen(w.text_row("Pixels"), View(w.SWITCH, text="On", checkable=True, checked=True))
    for dark in (False, True):
        drawn = render.render_image(root, W, H, dark)
        decoded = image(render.render_png(root, W, H, dark))
        assert decoded.size == drawn.size
        assert decoded.tobytes() == drawn.tobytes()


def test_same_bytes_every_time() -> None:
    root = phone_screen()
    first = render.render_png(root, W, H)
    assert render.render_png(root, W, H) == first
    # cold caches draw exactly what warm ones do
    render._mask.cache_clear()
    render._wrap.cache_clear()
    render._ADVANCES.clear()
    assert render.render_png(root, W, H) == first
    assert render.render_png(root, W, H, dark=True) == render.render_png(root, W, H, dark=True)


def test_same_bytes_in_another_process(tmp_path: Path) -> None:
    """No string hashing, set order or id leaks into the picture."""
    here = tmp_path / "here.png"
    render.save_png(phone_screen(), W, H, here)
    script = (
        "import sys\n"
        "sys.path.insert(0, sys.argv[2])\n"
        "import test_phoneworld_render as t\n"
        "from tasklang.envs.phoneworld import render\n"
        "render.save_png(t.phone_screen(), t.W, t.H, sys.argv[1])\n"
    )
    there = tmp_path / "there.png"
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    subprocess.run(
        [sys.executable, "-c", script, str(there), str(Path(__file__).parent)],
        check=True,
        env=env,
        timeout=120,
    )
    assert there.read_bytes() == here.read_bytes()


def test_save_png_writes_render_png(tmp_path: Path) -> None:
    root = screen(w.text_row("Saved"))
    path = tmp_path / "shot.png"
    render.save_png(root, W, H, path, dark=True, scale=0.3)
    assert path.read_bytes() == render.render_png(root, W, H, True, 0.3)
    render.save_png(root, W, H, str(path))
    assert path.read_bytes() == render.render_png(root, W, H)


# ---------------------------------------------------------------- what is drawn
def test_text_is_drawn() -> None:
    assert pixels(screen(w.text_row("Hello world"))) != blank()
    assert pixels(screen(w.text_row("Hello world"))) != pixels(screen(w.text_row("Hello there")))
    for cls in (w.TEXT, w.BUTTON, w.EDIT):
        assert pixels(screen(View(cls, text="Label", height=140))) != pixels(
            screen(View(cls, text="", height=140))
        )


def test_text_stays_inside_its_bounds() -> None:
    box = View(w.TEXT, text="wrapped " * 5000 + "x" * 3000)
    box.bounds = (300, 900, 700, 1100)
    root = View(w.FRAME, children=[box])
    root.bounds = (0, 0, W, H)
    im = image(render.render_png(root, W, H))
    bg = render.LIGHT.bg
    inside = (150, 450, 350, 550)  # the box at scale 0.5
    drawn = im.crop(inside)
    assert drawn.getcolors(1 << 16) != [(drawn.width * drawn.height, bg)]
    outside = im.copy()
    outside.paste(bg, inside)
    assert outside.getcolors(4) == [(im.width * im.height, bg)]


def test_long_text_wraps_and_ends_in_an_ellipsis() -> None:
    lines = render._wrap("one two three four five six seven eight nine ten", 20, 120, 2)
    assert len(lines) == 2
    assert lines[-1].endswith(render.ELLIPSIS)
    assert all(render._measure(line, 20) <= 120 for line in lines)
    assert render._wrap("short", 20, 120, 3) == ("short",)
    assert render._wrap("a\nb", 20, 120, 3) == ("a", "b")
    long_word = render._wrap("x" * 500, 20, 100, 3)
    assert len(long_word) == 3 and all(render._measure(s, 20) <= 100 for s in long_word)


def test_measure_matches_the_font() -> None:
    for size in (9, 21, 37):
        font = render._font(size)
        for s in ("Shopping list 10", "AVAWAY To Ty", "Wave Tea LT. Yo", "i.l|"):
            assert render._measure(s, size) == font.getlength(s)


def test_switch_checkbox_and_radio_states() -> None:
    for cls in (w.SWITCH, w.CHECKBOX, w.RADIO):
        on = pixels(screen(View(cls, text="Wi-Fi", checkable=True, checked=True, height=140)))
        off = pixels(screen(View(cls, text="Wi-Fi", checkable=True, checked=False, height=140)))
        assert on != off, cls
        assert off != blank(), cls
    # a checkable row of another class shows its state too
    on = pixels(screen(View(w.TEXT, text="Row", checkable=True, checked=True)))
    assert on != pixels(screen(View(w.TEXT, text="Row", checkable=True, checked=False)))


def test_dark_and_light_differ() -> None:
    root = phone_screen()
    light = image(render.render_png(root, W, H))
    dark = image(render.render_png(root, W, H, dark=True))
    assert light.tobytes() != dark.tobytes()
    assert mean(dark) < mean(light)
    assert blank(dark=True) != blank()


def test_icon_glyphs_follow_the_content_desc() -> None:
    assert render._glyph_kind("Navigate up") == "up"
    assert render._glyph_kind("Search") == "search"
    assert render._glyph_kind("More options") == "more"
    for desc in ("Add", "Create event", "New contact"):
        assert render._glyph_kind(desc) == "plus"
    assert render._glyph_kind("Address book") == "letter"
    drawn = {
        desc: pixels(screen(View(w.IMAGE_BUTTON, desc=desc, clickable=True, height=160)))
        for desc in ("Navigate up", "Search", "More options", "Add", "Delete", "Zebra", "")
    }
    assert len(set(drawn.values())) == len(drawn)


def test_fab_is_a_filled_circle() -> None:
    fab = View(w.IMAGE_BUTTON, desc="Add note", rid="com.example:id/fab", clickable=True)
    fab.bounds = (860, 2000, 1028, 2168)
    root = View(w.FRAME, children=[fab])
    root.bounds = (0, 0, W, H)
    im = image(render.render_png(root, W, H))
    assert im.getpixel((450, 1030)) == render.LIGHT.primary  # inside the circle, off the +
    assert im.getpixel((431, 1001)) == render.LIGHT.bg  # the box's corner, outside it


def test_selected_focused_and_disabled_show() -> None:
    plain = pixels(screen(w.text_row("Row")))
    assert pixels(screen(w.text_row("Row", selected=True))) != plain
    assert pixels(screen(w.text_row("Row", focused=True))) != plain
    assert pixels(screen(w.text_row("Row", enabled=False))) != plain
    button = pixels(screen(View(w.BUTTON, text="Save", clickable=True, height=150)))
    assert pixels(screen(View(w.BUTTON, text="Save", enabled=False, height=150))) != button


def test_edit_text_hint_and_focus() -> None:
    field = View(w.EDIT, text="", hint="Title", height=150)
    hinted = pixels(screen(field))
    assert hinted != blank()
    typed = pixels(screen(View(w.EDIT, text="Title", height=150)))
    assert typed != hinted  # the hint looks different from typed text
    focused = pixels(screen(View(w.EDIT, text="", hint="Title", focused=True, height=150)))
    assert focused != hinted
    secret = pixels(screen(View(w.EDIT, text="hunter2", password=True, height=150)))
    assert secret != pixels(screen(View(w.EDIT, text="hunter2", height=150)))


def test_dialog_dims_the_screen_behind_it() -> None:
    before = image(render.render_png(phone_screen(), W, H))
    phone = make_phone()
    phone.launch("notes")
    phone.dialog = Dialog(
        title="Delete note?", message="It is gone for good.", buttons=[("Delete", "d", None)]
    )
    after = image(render.render_png(phone.observe(), W, H))
    corner = (10, 300, 100, 400)  # list rows, far from the dialog card
    assert mean(after.crop(corner)) < mean(before.crop(corner)) - 20
    middle = (100, 580, 440, 620)  # the card: a light surface
    assert mean(after.crop(middle)) > mean(after.crop(corner)) + 50


def test_phone_screens_render() -> None:
    shots = {"launcher": render.render_png(make_phone().observe(), W, H)}
    phone = make_phone()
    phone.drawer = True
    shots["drawer"] = render.render_png(phone.observe(), W, H)
    phone = make_phone()
    phone.launch("notes")
    phone.toast = "Saved"
    shots["app"] = render.render_png(phone.observe(), W, H)
    phone = make_phone()
    phone.launch("notes")
    phone.keyboard = True
    shots["keyboard"] = render.render_png(phone.observe(), W, H)
    assert len(set(shots.values())) == len(shots)
    for png in shots.values():
        assert image(png).size == (540, 1200)
    app = image(shots["app"])
    assert app.getpixel((270, 5)) == render.LIGHT.status  # the status bar
    assert app.getpixel((270, 75)) == render.LIGHT.toolbar  # the toolbar band, by the title
    launcher = image(shots["launcher"])
    assert launcher.getpixel((270, 600)) == render.LIGHT.wallpaper


# ---------------------------------------------------------------- odd input
def test_zero_or_nonsense_screens_are_rejected() -> None:
    root = screen(w.text_row("x"))
    bad: list[tuple[Any, Any, Any]] = [
        (0, H, 0.5),
        (W, 0, 0.5),
        (-5, H, 0.5),
        (W, H, 0),
        (W, H, -1.0),
        (W, H, float("nan")),
        (W, H, float("inf")),
        (float("inf"), H, 0.5),
        ("1080", H, 0.5),
        (True, H, 0.5),
        (10**9, 10**9, 1.0),  # far too large an image
    ]
    for width, height, scale in bad:
        with pytest.raises(ValueError):
            render.render_png(root, width, height, scale=scale)
    with pytest.raises(ValueError):
        render.render_png(root, W, H, density=0)


def test_odd_bounds_and_text_never_fail() -> None:
    odd = [
        View(w.TEXT, text="empty"),  # never laid out
        View(w.TEXT, text="zero", bounds=(10, 10, 10, 10)),
        View(w.TEXT, text="inverted", bounds=(500, 500, 100, 100)),
        View(w.TEXT, text="negative", bounds=(-500, -300, -10, -5)),
        View(w.TEXT, text="partly off", bounds=(-200, -200, 300, 300)),
        View(w.TEXT, text="off screen", bounds=(5000, 9000, 6000, 9999)),
        View(w.TEXT, text="huge", bounds=(-(10**15), -(10**15), 10**15, 10**15)),
        View(w.TEXT, text="x" * 1_000_000, bounds=(0, 0, W, 200)),
        View(w.TEXT, text="word " * 200_000, bounds=(0, 200, W, H)),
        View(w.TEXT, text="😀🎉👍🏽 日本語 中文 한국어 العربية עברית Ωμέγα Ñandú ß ½ e\u0301"),
        View(w.TEXT, text="\x00\x01\t\r\n\u200b\u202e\ufeff\ud800 lone surrogate"),
        View(w.SWITCH, text="😀" * 50, checkable=True, checked=True, bounds=(0, 0, 3, 3)),
        View(w.CHECKBOX, text="tiny", checkable=True, bounds=(0, 0, 1, 1)),
        View(w.RADIO, text="thin", checkable=True, checked=True, bounds=(0, 0, W, 2)),
        View(w.EDIT, text="", hint="", focused=True, bounds=(0, 0, 2, 400)),
        View(w.IMAGE_BUTTON, desc="😀", bounds=(0, 0, 1, 1)),
        View(w.IMAGE_BUTTON, desc="", bounds=(0, 0, 50, 50)),
        View(w.IMAGE, desc="\u0301", bounds=(0, 0, 400, 400)),
        View(w.SEEKBAR, text="nan", bounds=(0, 0, W, 100)),
        View(w.SEEKBAR, text="1e999", bounds=(0, 0, W, 100)),
        View(w.BUTTON, text="B" * 10_000, bounds=(0, 0, 30, 30)),
        View("com.example.CustomWidget", text="custom", bounds=(0, 0, 500, 500)),
        View("", text="no class", bounds=(0, 0, 500, 500)),
        View(w.TEXT, text="float bounds", bounds=(0.5, 1.5, 300.25, 99.9)),  # type: ignore[arg-type]
        View(w.TEXT, text="bad bounds", bounds=None),  # type: ignore[arg-type]
        View(w.TEXT, text="short bounds", bounds=(1, 2)),  # type: ignore[arg-type]
        View(w.TEXT, text="nan bounds", bounds=(float("nan"), 0, 10, 10)),  # type: ignore[arg-type]
    ]
    root = View(w.FRAME, children=odd)
    root.bounds = (0, 0, W, H)
    for dark in (False, True):
        for scale in (0.5, 1.0, 0.01, 0.001):
            im = image(render.render_png(root, W, H, dark, scale))
            assert im.size == (max(1, round(W * scale)), max(1, round(H * scale)))
    # a root that was never laid out still renders (its children where they are)
    loose = View(w.FRAME, children=[View(w.TEXT, text="loose", bounds=(0, 0, 500, 200))])
    assert image(render.render_png(loose, W, H)).size == (540, 1200)


def test_deep_trees_do_not_recurse() -> None:
    root = View(w.FRAME)
    root.bounds = (0, 0, W, H)
    node = root
    for i in range(5000):
        child = View(w.LINEAR, text=f"level {i}")
        child.bounds = (0, 0, W, H)
        node.children.append(child)
        node = child
    node.children.append(View(w.TEXT, text="bottom", bounds=(0, 0, W, 200)))
    assert image(render.render_png(root, W, H)).size == (540, 1200)


CLASSES = [
    w.FRAME,
    w.LINEAR,
    w.RELATIVE,
    w.VIEWGROUP,
    w.VIEW,
    w.TEXT,
    w.EDIT,
    w.BUTTON,
    w.IMAGE_BUTTON,
    w.IMAGE,
    w.SWITCH,
    w.CHECKBOX,
    w.RADIO,
    w.RECYCLER,
    w.SCROLL,
    w.SEEKBAR,
    "com.google.android.material.floatingactionbutton.FloatingActionButton",
    "weird.Thing",
]
RIDS = [
    "",
    "com.android.systemui:id/status_bar",
    "com.example:id/toolbar",
    "com.example:id/main_tabs_holder",
    "android:id/parentPanel",
    "com.example:id/fab",
    "com.google.android.apps.nexuslauncher:id/launcher",
    "com.google.android.apps.nexuslauncher:id/apps_list_view",
    "android:id/content",
    "android:id/alertTitle",
    "android:id/message",
]
TEXTS = ["", "OK", "Navigate up", "a longer piece of text " * 8, "😀 ñ 日本", "\x00\n\t", "x" * 300]


def random_tree(rng: random.Random, depth: int = 0) -> View:
    v = View(
        rng.choice(CLASSES),
        text=rng.choice(TEXTS),
        desc=rng.choice(TEXTS),
        rid=rng.choice(RIDS),
        hint=rng.choice(TEXTS),
        checkable=rng.random() < 0.3,
        checked=rng.random() < 0.5,
        clickable=rng.random() < 0.5,
        focused=rng.random() < 0.1,
        selected=rng.random() < 0.1,
        enabled=rng.random() < 0.8,
        password=rng.random() < 0.1,
        horizontal=rng.random() < 0.4,
        on_click=rng.choice([None, "x", "sys:open", "sys:drawer"]),
        height=rng.choice([0, 1, 60, 150, 400]),
    )
    if depth < 4:
        v.children = [random_tree(rng, depth + 1) for _ in range(rng.randrange(4))]
    return v


def scramble(rng: random.Random, root: View) -> None:
    for v in root.walk():
        if rng.random() < 0.2:
            a, b = rng.randrange(-3000, 5000), rng.randrange(-3000, 5000)
            c, d = rng.randrange(-3000, 5000), rng.randrange(-3000, 5000)
            v.bounds = (a, b, c, d)


def test_random_trees_never_fail() -> None:
    rng = random.Random(20260101)
    for _ in range(60):
        root = random_tree(rng)
        width, height = rng.choice([(W, H), (720, 1280), (1, 1), (3, 5000)])
        w.layout(root, 0, 0, width, height)
        scramble(rng, root)
        scale = rng.choice([0.5, 0.1, 1.0, 0.37])
        png = render.render_png(root, width, height, rng.random() < 0.5, scale)
        assert image(png).size == (max(1, round(width * scale)), max(1, round(height * scale)))


# ---------------------------------------------------------------- a tiny app for the phone
class Notes(App):
    model = "notes"
    package = "com.example.notes"
    label = "Notes"
    activity = "com.example.notes.MainActivity"

    def screen_main(self, ctx: Ctx, route: Route) -> Screen:
        rows = [
            View(
                w.LINEAR,
                horizontal=True,
                height=150,
                children=[
                    View(w.TEXT, text=f"Note {i}: milk, eggs and bread", weight=3),
                    View(w.CHECKBOX, checkable=True, checked=i % 2 == 0, weight=1),
                ],
            )
            for i in range(14)
        ]
        rows.append(View(w.SWITCH, text="Sync", checkable=True, checked=True, height=140))
        return Screen(
            title="Notes",
            rows=rows,
            up=True,
            actions=[
                View(w.IMAGE_BUTTON, desc="Search", clickable=True, on_click="search"),
                View(w.IMAGE_BUTTON, desc="More options", clickable=True, on_click="more"),
            ],
            header=[View(w.TEXT, edit="query", hint="Search notes", height=140)],
            fab=View(w.IMAGE_BUTTON, desc="Add note", rid=self.rid("fab"), clickable=True),
            tabs=[
                View(w.TEXT, text="All", selected=True, clickable=True),
                View(w.TEXT, text="Starred", clickable=True),
            ],
            list_rid=self.rid("list"),
        )


class Clock(App):
    model = "clock"
    package = "com.example.clock"
    label = "Clock"
    activity = "com.example.clock.MainActivity"

    def screen_main(self, ctx: Ctx, route: Route) -> Screen:
        return Screen(title="Clock", rows=[w.text_row("07:30")])


def make_phone() -> Phone:
    return Phone(apps={"notes": Notes(), "clock": Clock()})


def phone_screen() -> View:
    phone = make_phone()
    phone.launch("notes")
    return phone.observe()
