"""Screenshots: a laid-out widget tree drawn as a person would see it, as PNG bytes.

``render_png(root, width, height)`` draws the tree :meth:`Phone.observe` returns (or any
tree laid out with :func:`widgets.layout`) with Pillow: container backgrounds, the status
bar, the toolbar band, tab bars, text (wrapped, ellipsized, kept inside its bounds), edit
fields with their underline, hint and cursor, switches, check boxes and radio buttons,
icon buttons with a glyph chosen from their content-desc, the floating action button,
launcher icons, list dividers, selection and focus highlights, greyed disabled views, a
dimmed scrim under a dialog card, and toasts.

Only Pillow's bundled default font is used (with its basic layout engine), so the same
tree gives the same bytes on every machine with the same Pillow. Drawing works in output
pixels: a view's bounds are screen pixels, multiplied by ``scale``; sizes given in dp/sp
are multiplied by ``density / 160 * scale``.
"""

from __future__ import annotations

import io
import itertools
import math
import os
import re
import struct
import unicodedata
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from PIL import Image, ImageDraw, ImageFont

from tasklang.envs.phoneworld import widgets as w
from tasklang.envs.phoneworld.widgets import View

__all__ = ["DARK", "LIGHT", "Palette", "render_image", "render_png", "save_png"]

RGB = tuple[int, int, int]
RGBA = tuple[int, int, int, int]
Rect = tuple[int, int, int, int]  # output pixels, half open: [x0, x1) x [y0, y1)

MAX_PIXELS = 40_000_000  # the largest image rendered (width * height after scaling)
MIN_FONT = 6  # text that would need a smaller font (in output pixels) is not drawn
ELLIPSIS = "…"


@dataclass(frozen=True, slots=True)
class Palette:
    bg: RGB
    fg: RGB  # text on the background
    secondary: RGB  # secondary text, icons
    hint: RGB
    outline: RGB
    divider: RGB
    primary: RGB
    on_primary: RGB
    container: RGB  # primary container (tonal buttons)
    on_container: RGB
    surface_variant: RGB  # tab bars, icon button circles, switch tracks off
    toolbar: RGB
    on_toolbar: RGB
    status: RGB
    on_status: RGB
    dialog: RGB
    scrim: RGBA
    selected: RGBA
    disabled: RGB
    disabled_bg: RGB
    wallpaper: RGB
    on_wallpaper: RGB
    toast: RGB
    on_toast: RGB
    shadow: RGBA
    icons: tuple[RGB, ...]  # launcher icon colours


LIGHT = Palette(
    bg=(254, 247, 255),
    fg=(29, 27, 32),
    secondary=(73, 69, 79),
    hint=(121, 116, 126),
    outline=(121, 116, 126),
    divider=(202, 196, 208),
    primary=(103, 80, 164),
    on_primary=(255, 255, 255),
    container=(234, 221, 255),
    on_container=(33, 0, 93),
    surface_variant=(231, 224, 236),
    toolbar=(103, 80, 164),
    on_toolbar=(255, 255, 255),
    status=(79, 55, 139),
    on_status=(255, 255, 255),
    dialog=(243, 237, 247),
    scrim=(0, 0, 0, 110),
    selected=(103, 80, 164, 40),
    disabled=(170, 166, 175),
    disabled_bg=(226, 222, 230),
    wallpaper=(46, 75, 110),
    on_wallpaper=(255, 255, 255),
    toast=(50, 48, 54),
    on_toast=(245, 239, 247),
    shadow=(0, 0, 0, 60),
    icons=(
        (219, 68, 55),
        (66, 133, 244),
        (15, 157, 88),
        (244, 160, 0),
        (171, 71, 188),
        (0, 172, 193),
        (255, 112, 67),
        (92, 107, 192),
    ),
)

DARK = Palette(
    bg=(20, 18, 24),
    fg=(230, 224, 233),
    secondary=(202, 196, 208),
    hint=(147, 143, 153),
    outline=(147, 143, 153),
    divider=(73, 69, 79),
    primary=(208, 188, 255),
    on_primary=(56, 30, 114),
    container=(79, 55, 139),
    on_container=(234, 221, 255),
    surface_variant=(54, 52, 59),
    toolbar=(43, 41, 48),
    on_toolbar=(230, 224, 233),
    status=(0, 0, 0),
    on_status=(230, 224, 233),
    dialog=(43, 41, 48),
    scrim=(0, 0, 0, 150),
    selected=(208, 188, 255, 40),
    disabled=(95, 92, 100),
    disabled_bg=(50, 48, 54),
    wallpaper=(18, 30, 48),
    on_wallpaper=(230, 230, 235),
    toast=(230, 224, 233),
    on_toast=(50, 48, 54),
    shadow=(0, 0, 0, 120),
    icons=(
        (183, 58, 47),
        (56, 112, 205),
        (13, 132, 74),
        (204, 134, 0),
        (143, 60, 157),
        (0, 144, 161),
        (214, 94, 56),
        (77, 89, 160),
    ),
)


# ---------------------------------------------------------------- the public API
def render_png(
    root: View,
    width: int,
    height: int,
    dark: bool = False,
    scale: float = 0.5,
    *,
    density: int = 420,
) -> bytes:
    """A PNG screenshot of the laid-out tree ``root`` on a ``width`` x ``height`` screen
    (pixels), drawn at ``scale`` (the PNG is ``round(width * scale)`` pixels wide).
    Raises ValueError for an empty screen or a nonsensical scale."""
    return _encode_png(render_image(root, width, height, dark, scale, density=density))


def save_png(
    root: View,
    width: int,
    height: int,
    path: str | os.PathLike[str],
    *,
    dark: bool = False,
    scale: float = 0.5,
    density: int = 420,
) -> None:
    """Write :func:`render_png`'s screenshot to ``path``."""
    data = render_png(root, width, height, dark, scale, density=density)
    with open(path, "wb") as f:
        f.write(data)


def render_image(
    root: View,
    width: int,
    height: int,
    dark: bool = False,
    scale: float = 0.5,
    *,
    density: int = 420,
) -> Image.Image:
    """The screenshot as an RGB Pillow image (see :func:`render_png`)."""
    out_w, out_h = _out_size(width, height, scale)
    if not _positive(density):
        raise ValueError(f"density must be a positive number, not {density!r}")
    r = _Renderer(out_w, out_h, float(scale), density / 160 * float(scale), DARK if dark else LIGHT)
    r.draw_tree(root)
    return r.img


_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_GREY_PALETTE = bytes(range(256)) * 3


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def _encode_png(image: Image.Image) -> bytes:
    """``image`` (RGB) as PNG bytes, compressed by Pillow's own zlib (so the bytes depend on
    the Pillow build only, not on the system's zlib)."""
    if _unfiltered_rows_work():
        return _encode_unfiltered(image)
    buf = io.BytesIO()
    image.save(buf, "PNG", compress_level=1)
    return buf.getvalue()


def _encode_unfiltered(image: Image.Image) -> bytes:
    """The PNG with every row unfiltered.

    Pillow tries every PNG filter on every row of an RGB image, which costs more than the
    compression itself and gains nothing on flat UI colours; 8-bit palette rows it leaves
    unfiltered. So the RGB bytes are saved as a palette image three times as wide (the
    same rows, byte for byte), and its IDAT chunks are put under an RGB header."""
    width, height = image.size
    wide = Image.frombuffer("P", (width * 3, height), image.tobytes(), "raw", "P", 0, 1)
    wide.putpalette(_GREY_PALETTE)  # 256 entries: saved with 8 bits a pixel
    buf = io.BytesIO()
    wide.save(buf, "PNG", compress_level=1)
    data = buf.getvalue()
    out = [
        _PNG_SIGNATURE,
        _png_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)),
    ]
    pos = len(_PNG_SIGNATURE)
    while pos + 8 <= len(data):
        (length,) = struct.unpack_from(">I", data, pos)
        end = pos + 12 + length
        if data[pos + 4 : pos + 8] == b"IDAT":
            out.append(data[pos:end])
        pos = end
    out.append(_png_chunk(b"IEND", b""))
    return b"".join(out)


@lru_cache(maxsize=1)
def _unfiltered_rows_work() -> bool:
    """Whether this Pillow still saves palette rows unfiltered (checked once, on gradients
    that any filter would change): if not, screenshots take Pillow's ordinary path."""
    probe = Image.frombytes(
        "RGB", (16, 8), bytes((x * 7 + y * 3) % 256 for y in range(8) for x in range(48))
    )
    try:
        back = Image.open(io.BytesIO(_encode_unfiltered(probe)))
        back.load()
    except Exception:  # a capability probe: any failure means "use the ordinary path"
        return False
    return back.mode == "RGB" and back.tobytes() == probe.tobytes()


def _positive(x: object) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) and x > 0


def _out_size(width: object, height: object, scale: object) -> tuple[int, int]:
    for name, value in (("width", width), ("height", height)):
        if not _positive(value):
            raise ValueError(f"screen {name} must be a positive number, not {value!r}")
    if not _positive(scale):
        raise ValueError(f"scale must be a positive number, not {scale!r}")
    assert isinstance(width, (int, float)) and isinstance(height, (int, float))
    assert isinstance(scale, (int, float))
    out_w = max(1, round(width * scale))
    out_h = max(1, round(height * scale))
    if out_w * out_h > MAX_PIXELS:
        raise ValueError(f"a {out_w}x{out_h} image is too large to render")
    return out_w, out_h


# ---------------------------------------------------------------- fonts and text
@lru_cache(maxsize=64)
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    try:
        return ImageFont.load_default(size=size)
    except (ImportError, OSError):  # a Pillow without FreeType: the fixed bitmap font
        return ImageFont.load_default_imagefont()


@lru_cache(maxsize=64)
def _line_height(size: int) -> int:
    font = _font(size)
    if isinstance(font, ImageFont.FreeTypeFont):
        ascent, descent = font.getmetrics()
        return max(1, ascent + descent)
    return max(1, int(font.getbbox("Ag")[3]) + 2)


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def _clean(text: str) -> str:
    """Text as drawn: tabs as spaces, control characters and lone surrogates gone, and
    characters the font lacks replaced by a look-alike it has where there is one."""
    if "\t" in text or "\r" in text:
        text = text.replace("\t", " ").replace("\r\n", "\n").replace("\r", "\n")
    text = _CONTROL.sub("", text)
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = text.encode("utf-8", "replace").decode("utf-8")
    if not isinstance(_font(12), ImageFont.FreeTypeFont):
        return text.encode("latin-1", "replace").decode("latin-1")
    return "".join(c if c.isascii() else _shown(c) for c in text)


_LOOKALIKES = {
    "\u2013": "-",
    "\u2014": "-",
    "\u2010": "-",
    "\u2011": "-",
    "\u2212": "-",
    "\u2022": "·",
    "\u00d7": "x",
    "\u00a0": " ",
    "\u202f": " ",
    "\u2018": "'",
    "\u2019": "'",
    "\u201c": '"',
    "\u201d": '"',
    "\u00df": "ss",
    "\u00e6": "ae",
    "\u00c6": "AE",
    "\u0153": "oe",
    "\u0152": "OE",
    "\u00f8": "o",
    "\u00d8": "O",
    "\u0142": "l",
    "\u0141": "L",
    "\u20ac": "EUR",
    "\u00a3": "GBP",
}


@lru_cache(maxsize=4096)
def _shown(c: str) -> str:
    """What stands for the non-ASCII character ``c``: itself when the font has it, an
    ASCII look-alike (a letter without its accent), nothing for invisible marks, or itself
    again (drawn as the font's missing-glyph box: something is there)."""
    if _has_glyph(c):
        return c
    if c in _LOOKALIKES:
        return _LOOKALIKES[c]
    if unicodedata.combining(c) or unicodedata.category(c) in ("Cf", "Mn", "Me"):
        return ""
    base = "".join(b for b in unicodedata.normalize("NFKD", c) if not unicodedata.combining(b))
    if base and all(b.isascii() or _has_glyph(b) for b in base):
        return base
    return c


@lru_cache(maxsize=4096)
def _has_glyph(c: str) -> bool:
    return _glyph_print(c) != _glyph_print("\ue000")  # a private-use code point: no glyph


@lru_cache(maxsize=4096)
def _glyph_print(c: str) -> bytes:
    canvas = Image.new("L", (32, 32), 0)
    ImageDraw.Draw(canvas).text((4, 4), c, font=_font(16), fill=255)
    return canvas.tobytes()


_ADVANCES: dict[int, dict[str, float]] = {}


def _measure(text: str, size: int) -> float:
    """The width of one line. The basic layout places glyphs at whole-pixel advances with
    no kerning, so a sum of cached per-character advances equals ``font.getlength`` (and
    costs a fraction of it: word wrapping measures a lot)."""
    adv = _ADVANCES.get(size)
    if adv is None:
        adv = _ADVANCES[size] = {}
    total = 0.0
    for c in text:
        a = adv.get(c)
        if a is None:
            if len(adv) > 4096:
                adv.clear()
            a = adv[c] = float(_font(size).getlength(c))
        total += a
    return total


def _prefix(text: str, size: int, width: float) -> int:
    """How many leading characters of ``text`` fit in ``width`` (possibly none)."""
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if _measure(text[:mid], size) <= width:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _ellipsize(line: str, size: int, width: float) -> str:
    """``line`` cut short enough to end in an ellipsis inside ``width``."""
    room = width - _measure(ELLIPSIS, size)
    if room < 0:
        return line[: _prefix(line, size, width)]
    return line[: _prefix(line, size, room)].rstrip() + ELLIPSIS


def _lines(text: str, size: int, width: float) -> Iterator[str]:
    """The lines of ``text`` wrapped at ``width``: at spaces, inside a word too wide for a
    line of its own, and at every newline."""
    for para in text.split("\n"):
        line = ""
        for word in para.split():
            cand = f"{line} {word}" if line else word
            if _measure(cand, size) <= width:
                line = cand
                continue
            if line:
                yield line
            while _measure(word, size) > width:
                n = max(1, _prefix(word, size, width))
                yield word[:n]
                word = word[n:]
            line = word
        yield line


def _text_budget(size: int, width: int, max_lines: int) -> int:
    """No ``max_lines`` lines of ``width`` hold more characters than this (the narrowest
    glyphs are about a quarter of the font size wide): the rest of a huge text is never
    looked at."""
    return max_lines * (int(width / max(1.0, size * 0.2)) + 2)


@lru_cache(maxsize=8192)
def _wrap(text: str, size: int, width: int, max_lines: int) -> tuple[str, ...]:
    """``text`` broken into at most ``max_lines`` lines no wider than ``width``; text that
    does not fit (or was cut at the budget) ends in an ellipsis."""
    budget = _text_budget(size, width, max_lines)
    cut = len(text) > budget
    lines = list(itertools.islice(_lines(text[:budget], size, width), max_lines + 1))
    overflow = cut or len(lines) > max_lines
    del lines[max_lines:]
    if overflow:
        if lines:
            lines[-1] = _ellipsize(lines[-1], size, width)
    else:
        while len(lines) > 1 and not lines[-1]:
            lines.pop()
    return tuple(lines)


@lru_cache(maxsize=2048)
def _mask(text: str, size: int) -> tuple[Image.Image, int, int, int] | None:
    """One line's coverage, cropped to its ink: (mask, x offset, y offset from the line's
    top-left origin, advance); None when nothing would show."""
    font = _font(size)
    advance = math.ceil(_measure(text, size))
    margin = size  # room for glyphs reaching past their advance or the line box
    canvas = Image.new("L", (advance + 2 * margin, _line_height(size) + 2 * margin), 0)
    ImageDraw.Draw(canvas).text((margin, margin), text, font=font, fill=255)
    ink = canvas.getbbox()
    if ink is None:
        return None
    return canvas.crop(ink), ink[0] - margin, ink[1] - margin, advance


# ---------------------------------------------------------------- roles and glyphs
class _Ctx(NamedTuple):
    clip: Rect  # the parent's visible box: nothing of this view is drawn outside it
    role: str  # "", "status", "toolbar", "tabs", "dialog", "launcher", "drawer"
    disabled: bool
    depth: int
    parent_rid: str


def _name(rid: str) -> str:
    return rid.rsplit("/", 1)[-1].lower()


def _role(v: View, inherited: str) -> str:
    if not v.rid:
        return inherited
    name = _name(v.rid)
    if name == "status_bar":
        return "status"
    if "toolbar" in name or name == "action_bar":
        return "toolbar"
    if name in ("parentpanel", "grant_dialog") or name.endswith("dialog"):
        return "dialog"
    if "tabs" in name or name in ("tab_layout", "bottom_navigation", "navigation_bar"):
        return "tabs"
    if name == "launcher":
        return "launcher"
    if name == "apps_list_view":
        return "drawer"
    return inherited


_PHRASES = (
    ("navigate up", "up"),
    ("go back", "up"),
    ("more options", "more"),
    ("open navigation drawer", "menu"),
    ("navigation drawer", "menu"),
    ("wifi off", "wifi_off"),
)
_WORDS = {
    "back": "up",
    "up": "up",
    "search": "search",
    "find": "search",
    "more": "more",
    "overflow": "more",
    "add": "plus",
    "create": "plus",
    "new": "plus",
    "plus": "plus",
    "delete": "delete",
    "remove": "delete",
    "trash": "delete",
    "discard": "delete",
    "close": "close",
    "cancel": "close",
    "clear": "close",
    "dismiss": "close",
    "done": "check",
    "save": "check",
    "confirm": "check",
    "ok": "check",
    "apply": "check",
    "menu": "menu",
    "drawer": "menu",
    "send": "send",
    "edit": "edit",
    "compose": "edit",
    "rename": "edit",
    "star": "star",
    "favorite": "star",
    "favourite": "star",
    "starred": "star",
    "battery": "battery",
    "wifi": "wifi",
}
_WORD = re.compile(r"[a-z]+")


@lru_cache(maxsize=1024)
def _glyph_kind(desc: str) -> str:
    low = desc.lower()
    for phrase, kind in _PHRASES:
        if low.startswith(phrase):
            return kind
    words = _WORD.findall(low)
    if words and words[0] in _WORDS:
        return _WORDS[words[0]]
    if "search" in words:
        return "search"
    return "letter"


def _initial(text: str) -> str:
    for c in text:
        if c.isalnum():
            return c.upper()
    for c in text:
        if not c.isspace():
            return c
    return ""


# ---------------------------------------------------------------- the renderer
def _intersect(a: Rect, b: Rect) -> Rect:
    return (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))


def _drawer_open(launcher: View) -> bool:
    """Whether the launcher shows its app drawer (a full-screen surface) over the wallpaper."""
    return any(_role(k, "") == "drawer" for k in launcher.children)


def _empty(r: Rect) -> bool:
    return r[2] <= r[0] or r[3] <= r[1]


_CONTAINERS = frozenset((w.FRAME, w.LINEAR, w.RELATIVE, w.VIEWGROUP, w.RECYCLER, w.SCROLL, w.VIEW))
_LISTS = ("RecyclerView", "ListView", "ScrollView", "GridView")


class _Renderer:
    def __init__(self, width: int, height: int, scale: float, dp: float, pal: Palette) -> None:
        self.w, self.h, self.s, self.dp, self.pal = width, height, scale, dp, pal
        self.img = Image.new("RGB", (width, height), pal.bg)
        self.d = ImageDraw.Draw(self.img)
        self.da = ImageDraw.Draw(self.img, "RGBA")  # blends translucent fills

    # ------------------------------------------------------------ geometry
    def px(self, dps: float) -> int:
        return max(1, round(dps * self.dp))

    def sp(self, size: float) -> int:
        return round(size * self.dp)

    def box(self, v: View) -> Rect | None:
        """The view's bounds in output pixels; None when it was never laid out (or its
        bounds are not four numbers)."""
        try:
            left, top, right, bottom = v.bounds
            if left == top == right == bottom == 0:
                return None
            s = self.s
            lim = 1 << 30
            return (
                round(max(-lim, min(lim, float(left))) * s),
                round(max(-lim, min(lim, float(top))) * s),
                round(max(-lim, min(lim, float(right))) * s),
                round(max(-lim, min(lim, float(bottom))) * s),
            )
        except (TypeError, ValueError, OverflowError):
            return None

    # ------------------------------------------------------------ the walk
    def draw_tree(self, root: View) -> None:
        screen = (0, 0, self.w, self.h)
        if any(_role(k, "") == "launcher" and not _drawer_open(k) for k in root.children):
            self.d.rectangle(
                (0, 0, self.w - 1, self.h - 1), fill=self.pal.wallpaper
            )  # edge to edge
        stack: list[tuple[View, _Ctx]] = [(root, _Ctx(screen, "", False, 0, ""))]
        while stack:
            v, ctx = stack.pop()
            full = self.box(v)
            vis = ctx.clip if full is None else _intersect(full, ctx.clip)
            if _empty(vis):
                continue
            role = _role(v, ctx.role)
            disabled = ctx.disabled or not v.enabled
            self.draw_view(v, vis, role, disabled, ctx)
            kids = v.children
            if kids:
                sub = _Ctx(vis, role, disabled, ctx.depth + 1, v.rid)
                stack.extend((k, sub) for k in reversed(kids))

    def draw_view(self, v: View, r: Rect, role: str, disabled: bool, ctx: _Ctx) -> None:
        pal, cls = self.pal, v.cls
        if role != ctx.role:
            self.background(v, role, r, ctx)
        if v.children and (cls in _CONTAINERS or not v.text):
            if v.selected:
                self.da.rectangle(_inclusive(r), fill=pal.selected)
            if cls.endswith(_LISTS):
                self.dividers(v, r)
            if v.focused:
                self.focus_ring(r)
            return
        if v.selected and role != "tabs":
            self.da.rectangle(_inclusive(r), fill=pal.selected)
        if v.on_click == "sys:open":
            self.app_icon(v, r, role, disabled)
        elif v.on_click == "sys:drawer" or _name(v.rid) == "all_apps_handle":
            self.drawer_handle(v, r)
        elif ctx.depth == 1 and role == "" and (_name(v.rid) == "message" or "Toast" in cls):
            self.toast(v, r)
        elif cls.endswith(("Switch", "SwitchCompat", "SwitchMaterial")):
            self.switch(v, r, role, disabled)
        elif cls.endswith(("CheckBox", "CheckedTextView")):
            self.checkbox(v, r, role, disabled, right=False)
        elif cls.endswith("RadioButton"):
            self.radio(v, r, role, disabled)
        elif "EditText" in cls or cls.endswith("AutoCompleteTextView"):
            self.edit_text(v, r, disabled)
        elif self.is_fab(v, r, ctx):
            self.fab(v, r, disabled)
        elif cls in (w.IMAGE_BUTTON, w.IMAGE) or cls.endswith(("ImageButton", "ImageView")):
            self.image(v, r, role, disabled)
        elif cls.endswith(("SeekBar", "ProgressBar", "Slider")):
            self.seekbar(v, r, disabled)
        elif cls.endswith("Button"):
            self.button(v, r, role, disabled)
        elif v.checkable:
            self.checkbox(v, r, role, disabled, right=True)
        elif v.text:
            self.text_view(v, r, role, disabled)
        elif v.desc and (v.clickable or v.acts):
            self.image(v, r, role, disabled)
        if v.focused and "EditText" not in cls:
            self.focus_ring(r)

    # ------------------------------------------------------------ containers
    def background(self, v: View, role: str, r: Rect, ctx: _Ctx) -> None:
        pal = self.pal
        if role == "status":
            self.d.rectangle(_inclusive(r), fill=pal.status)
        elif role == "toolbar":
            self.d.rectangle(_inclusive(r), fill=pal.toolbar)
        elif role == "tabs":
            self.d.rectangle(_inclusive(r), fill=pal.surface_variant)
            self.d.line((r[0], r[1], r[2] - 1, r[1]), fill=pal.divider, width=1)
        elif role == "launcher":
            self.d.rectangle(_inclusive(r), fill=pal.bg if _drawer_open(v) else pal.wallpaper)
        elif role == "drawer":
            self.d.rectangle(_inclusive(r), fill=pal.bg)
        elif role == "dialog":
            self.da.rectangle(_inclusive(ctx.clip), fill=pal.scrim)
            self.rounded(r, self.px(28), fill=pal.dialog)

    def dividers(self, v: View, r: Rect) -> None:
        inset = self.px(16)
        kids = v.children
        for k in kids[:-1]:
            b = self.box(k)
            if b is None or _empty(b):
                continue
            y = b[3] - 1
            if r[1] <= y < r[3]:
                x0, x1 = max(r[0], b[0] + inset), min(r[2], b[2]) - 1
                if x1 > x0:
                    self.d.line((x0, y, x1, y), fill=self.pal.divider, width=1)

    def focus_ring(self, r: Rect) -> None:
        self.rounded(r, self.px(8), outline=self.pal.primary, width=self.px(2))

    # ------------------------------------------------------------ text
    def text(
        self,
        r: Rect,
        text: str,
        size_sp: float,
        color: RGB,
        *,
        align: str = "left",
        pad: int | None = None,
        max_lines: int = 1 << 16,
        valign: str = "center",
    ) -> tuple[int, int, int] | None:
        """Draw ``text`` inside ``r``; returns (x end, top, bottom) of its last line."""
        if not text:
            return None
        x0, y0, x1, y1 = r
        width, height = x1 - x0, y1 - y0
        size = self.sp(size_sp)
        line_h = _line_height(size) if size >= MIN_FONT else height + 1
        if line_h > height:  # shrink to fit one line
            size = min(size, int(height / 1.25))
            if size < MIN_FONT:
                return None
            line_h = _line_height(size)
            if line_h > height:
                return None
        pad = self.px(16) if pad is None else pad
        pad = min(pad, width // 8)
        avail = width - 2 * pad
        if avail < max(2, size // 2):
            return None
        max_lines = max(1, min(max_lines, height // line_h))
        budget = _text_budget(size, avail, max_lines)
        # cut (generously: cleaning drops characters) before cleaning and caching
        text = _clean(text[: 2 * budget + 16])
        lines = _wrap(text, size, avail, max_lines)
        if not lines:
            return None
        block = line_h * len(lines)
        y = y0 + (height - block) // 2 if valign == "center" else y0 + min(pad, height - block)
        y = max(y0, y)
        end = (x0 + pad, y, y + line_h)
        for line in lines:
            m = _mask(line, size) if line else None
            advance = m[3] if m is not None else 0
            if align == "center":
                x = x0 + max(0, (width - advance) // 2)
            elif align == "right":
                x = x1 - pad - advance
            else:
                x = x0 + pad
            if m is not None:
                self.paint(m[0], x + m[1], y + m[2], r, color)
            end = (x + advance, y, y + line_h)
            y += line_h
        return end

    def paint(self, mask: Image.Image, x: int, y: int, r: Rect, color: RGB) -> None:
        """Fill ``color`` through ``mask`` placed at (x, y), clipped to ``r``."""
        mw, mh = mask.size
        if x < r[0] or y < r[1] or x + mw > r[2] or y + mh > r[3]:
            left, top = max(0, r[0] - x), max(0, r[1] - y)
            right, bottom = min(mw, r[2] - x), min(mh, r[3] - y)
            if right <= left or bottom <= top:
                return
            mask = mask.crop((left, top, right, bottom))
            x, y = x + left, y + top
        self.d.bitmap((x, y), mask, fill=color)

    def text_view(self, v: View, r: Rect, role: str, disabled: bool) -> None:
        pal = self.pal
        name = _name(v.rid)
        color = pal.disabled if disabled else pal.fg
        if role == "status":
            self.text(r, v.text, 14, pal.on_status, max_lines=1)
        elif role == "toolbar":
            color = pal.disabled if disabled else pal.on_toolbar
            if v.clickable or v.acts:
                self.text(r, v.text, 14, color, align="center", pad=self.px(4), max_lines=2)
            else:
                self.text(r, v.text, 22, color, max_lines=1)
        elif role == "tabs":
            if v.selected:
                color = pal.disabled if disabled else pal.primary
                bar = self.px(3)
                self.d.rectangle(
                    (r[0] + self.px(12), r[3] - bar, r[2] - 1 - self.px(12), r[3] - 1),
                    fill=color,
                )
            elif not disabled:
                color = pal.secondary
            self.text(r, v.text, 14, color, align="center", pad=self.px(4), max_lines=2)
        elif role == "dialog" and name in ("alerttitle", "permission_message"):
            self.text(r, v.text, 22, color, pad=self.px(24))
        elif role == "dialog" and name == "message":
            self.text(r, v.text, 15, pal.disabled if disabled else pal.secondary, pad=self.px(24))
        elif role == "launcher":
            self.text(r, v.text, 14, pal.on_wallpaper, align="center")
        else:
            self.text(r, v.text, 16, color)

    def toast(self, v: View, r: Rect) -> None:
        pal = self.pal
        self.rounded(r, (r[3] - r[1]) // 2, fill=pal.toast)
        self.text(r, v.text, 14, pal.on_toast, align="center", pad=self.px(16))

    # ------------------------------------------------------------ buttons
    def button(self, v: View, r: Rect, role: str, disabled: bool) -> None:
        pal = self.pal
        label = v.text or v.desc
        if role == "dialog":
            color = pal.disabled if disabled else pal.primary
            self.text(r, label, 14, color, align="center", pad=self.px(8), max_lines=2)
            return
        inset = self.px(4)
        b = (r[0] + inset, r[1] + inset, r[2] - inset, r[3] - inset)
        if not _empty(b):
            fill = pal.disabled_bg if disabled else pal.container
            self.rounded(b, min(self.px(20), (b[3] - b[1]) // 2), fill=fill)
        color = pal.disabled if disabled else pal.on_container
        self.text(r, label, 14, color, align="center", pad=self.px(12), max_lines=2)

    def is_fab(self, v: View, r: Rect, ctx: _Ctx) -> bool:
        if "FloatingActionButton" in v.cls:
            return True
        name = _name(v.rid)
        if name == "fab" or name.startswith("fab_") or name.endswith("_fab"):
            return True
        left, top, right, bottom = r
        square = abs((right - left) - (bottom - top)) <= 0.25 * max(1, right - left, bottom - top)
        return (
            ctx.parent_rid == "android:id/content"
            and v.cls in (w.IMAGE_BUTTON, w.IMAGE, w.BUTTON)
            and square
        )

    def fab(self, v: View, r: Rect, disabled: bool) -> None:
        pal = self.pal
        x0, y0, x1, y1 = r
        fill = pal.disabled_bg if disabled else pal.primary
        fg = pal.disabled if disabled else pal.on_primary
        if v.text and (x1 - x0) > 1.5 * (y1 - y0):  # an extended FAB: a pill with a label
            off = self.px(2)
            self.rounded((x0, y0 + off, x1, y1), (y1 - y0) // 2, fill=pal.shadow, alpha=True)
            self.rounded((x0, y0, x1, y1 - off), (y1 - y0) // 2, fill=fill)
            self.text(r, v.text, 14, fg, align="center")
            return
        size = min(x1 - x0, y1 - y0)
        if size < 4:
            return
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        rad = size / 2 - 1
        drop = max(1.0, rad * 0.06)  # the shadow shows under the bottom edge
        self.da.ellipse((cx - rad, cy - rad + drop, cx + rad, cy + rad), fill=pal.shadow)
        self.d.ellipse((cx - rad, cy - rad, cx + rad, cy + rad - drop), fill=fill)
        self.glyph(_glyph_kind(v.desc or v.text), cx, cy - drop / 2, rad * 0.45, fg, v)

    def image(self, v: View, r: Rect, role: str, disabled: bool) -> None:
        pal = self.pal
        x0, y0, x1, y1 = r
        if role == "status":
            color = pal.on_status
            size = min(self.px(16), y1 - y0, x1 - x0)
            cx, cy = x1 - self.px(16) - size / 2, (y0 + y1) / 2
            self.glyph(_glyph_kind(v.desc), cx, cy, size / 2, color, v)
            return
        size = min(x1 - x0, y1 - y0)
        if size < 4:
            return
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        color = pal.on_toolbar if role == "toolbar" else pal.secondary
        if disabled:
            color = pal.disabled
        label = v.desc or v.text
        if v.cls == w.IMAGE and not v.clickable and not v.acts and size >= self.px(32):
            # a picture: a rounded tile with its glyph
            tile = min(size, self.px(96)) / 2
            self.rounded(
                (round(cx - tile), round(cy - tile), round(cx + tile), round(cy + tile)),
                self.px(8),
                fill=pal.surface_variant,
            )
        elif role not in ("toolbar", "tabs"):
            rad = min(size * 0.4, self.px(20))
            self.d.ellipse((cx - rad, cy - rad, cx + rad, cy + rad), fill=pal.surface_variant)
        self.glyph(_glyph_kind(label), cx, cy, min(size * 0.3, self.px(12)), color, v)

    def glyph(self, kind: str, cx: float, cy: float, r: float, color: RGB, v: View) -> None:
        """A 2r-wide icon centred on (cx, cy)."""
        if r < 1:
            return
        d = self.d
        sw = max(1, round(r / 6))
        if kind == "up":
            d.line((cx + 0.75 * r, cy, cx - 0.7 * r, cy), fill=color, width=sw)
            d.line(
                (cx - 0.05 * r, cy - 0.65 * r, cx - 0.7 * r, cy, cx - 0.05 * r, cy + 0.65 * r),
                fill=color,
                width=sw,
                joint="curve",
            )
        elif kind == "search":
            c, rr = cx - 0.15 * r, 0.5 * r
            d.ellipse(
                (c - rr, cy - 0.15 * r - rr, c + rr, cy - 0.15 * r + rr), outline=color, width=sw
            )
            d.line((cx + 0.2 * r, cy + 0.2 * r, cx + 0.75 * r, cy + 0.75 * r), fill=color, width=sw)
        elif kind == "more":
            dot = max(1.0, 0.15 * r)
            for dy in (-0.6 * r, 0.0, 0.6 * r):
                d.ellipse((cx - dot, cy + dy - dot, cx + dot, cy + dy + dot), fill=color)
        elif kind == "plus":
            d.line((cx - 0.7 * r, cy, cx + 0.7 * r, cy), fill=color, width=sw)
            d.line((cx, cy - 0.7 * r, cx, cy + 0.7 * r), fill=color, width=sw)
        elif kind == "close":
            k = 0.55 * r
            d.line((cx - k, cy - k, cx + k, cy + k), fill=color, width=sw)
            d.line((cx - k, cy + k, cx + k, cy - k), fill=color, width=sw)
        elif kind == "check":
            d.line(
                (cx - 0.65 * r, cy, cx - 0.2 * r, cy + 0.45 * r, cx + 0.7 * r, cy - 0.5 * r),
                fill=color,
                width=sw,
                joint="curve",
            )
        elif kind == "menu":
            for dy in (-0.5 * r, 0.0, 0.5 * r):
                d.line((cx - 0.7 * r, cy + dy, cx + 0.7 * r, cy + dy), fill=color, width=sw)
        elif kind == "send":
            d.polygon(
                [
                    (cx - 0.7 * r, cy - 0.7 * r),
                    (cx + 0.8 * r, cy),
                    (cx - 0.7 * r, cy + 0.7 * r),
                    (cx - 0.4 * r, cy),
                ],
                fill=color,
            )
        elif kind == "delete":
            d.line(
                (cx - 0.65 * r, cy - 0.55 * r, cx + 0.65 * r, cy - 0.55 * r), fill=color, width=sw
            )
            d.line((cx - 0.2 * r, cy - 0.75 * r, cx + 0.2 * r, cy - 0.75 * r), fill=color, width=sw)
            d.rectangle(
                (cx - 0.45 * r, cy - 0.4 * r, cx + 0.45 * r, cy + 0.75 * r), outline=color, width=sw
            )
        elif kind == "edit":
            d.line(
                (cx - 0.6 * r, cy + 0.6 * r, cx + 0.5 * r, cy - 0.5 * r), fill=color, width=2 * sw
            )
            d.line((cx - 0.75 * r, cy + 0.75 * r, cx - 0.6 * r, cy + 0.6 * r), fill=color, width=sw)
        elif kind == "star":
            pts = [
                (
                    cx + (0.8 if i % 2 == 0 else 0.35) * r * math.sin(i * math.pi / 5),
                    cy - (0.8 if i % 2 == 0 else 0.35) * r * math.cos(i * math.pi / 5),
                )
                for i in range(10)
            ]
            d.polygon(pts, fill=color)
        elif kind == "battery":
            d.rectangle((cx - 0.15 * r, cy - 0.85 * r, cx + 0.15 * r, cy - 0.7 * r), fill=color)
            d.rectangle((cx - 0.4 * r, cy - 0.7 * r, cx + 0.4 * r, cy + 0.85 * r), fill=color)
        elif kind in ("wifi", "wifi_off"):
            box = (cx - r, cy - 0.6 * r, cx + r, cy + 1.4 * r)
            if kind == "wifi":
                d.pieslice(box, 225, 315, fill=color)
            else:
                d.pieslice(box, 225, 315, outline=color, width=1)
                d.line(
                    (cx - 0.7 * r, cy - 0.7 * r, cx + 0.7 * r, cy + 0.7 * r), fill=color, width=sw
                )
        else:
            letter = _initial(v.desc or v.text)
            size = round(r * 1.4)
            m = _mask(_clean(letter), size) if letter and size >= MIN_FONT else None
            if m is None:
                k = 0.5 * r
                d.rectangle((cx - k, cy - k, cx + k, cy + k), outline=color, width=sw)
                return
            mask = m[0]  # centred by its ink, not by its line box
            d.bitmap((round(cx - mask.width / 2), round(cy - mask.height / 2)), mask, fill=color)

    # ------------------------------------------------------------ compound buttons
    def label_and_control(self, v: View, r: Rect, size: int, right: bool, color: RGB) -> Rect:
        """Draw the label beside the control; returns the control's ``size``-wide square."""
        x0, y0, x1, y1 = r
        pad = min(self.px(16), (x1 - x0) // 8)
        cy = (y0 + y1) // 2
        if right:
            cx0 = x1 - pad - size
            self.text((x0, y0, cx0, y1), v.text, 16, color, max_lines=3)
        else:
            cx0 = x0 + pad
            self.text((cx0 + size, y0, x1, y1), v.text, 16, color, max_lines=3)
        return (cx0, cy - size // 2, cx0 + size, cy - size // 2 + size)

    def control_size(self, r: Rect, want_dp: float, aspect: float = 1.0) -> int:
        x0, y0, x1, y1 = r
        return int(min(self.px(want_dp), (y1 - y0) - 2, (x1 - x0) / (2 * aspect)))

    def switch(self, v: View, r: Rect, role: str, disabled: bool) -> None:
        pal = self.pal
        label = pal.disabled if disabled else pal.fg
        th = self.control_size(r, 32, 52 / 32)  # track height
        if th < 4:
            self.text(r, v.text, 16, label)
            return
        tw = round(th * 52 / 32)
        x0, y0, x1, y1 = r
        pad = min(self.px(16), (x1 - x0) // 8)
        tx0 = x1 - pad - tw
        ty0 = (y0 + y1 - th) // 2
        self.text((x0, y0, tx0, y1), v.text, 16, label, max_lines=3)
        track = (tx0, ty0, tx0 + tw, ty0 + th)
        rad = th / 2
        if v.checked:
            self.rounded(track, th // 2, fill=pal.disabled if disabled else pal.primary)
            k = th * 0.375
            cx, cy = tx0 + tw - rad, ty0 + rad
            thumb = pal.disabled_bg if disabled else pal.on_primary
            self.d.ellipse((cx - k, cy - k, cx + k, cy + k), fill=thumb)
        else:
            edge = pal.disabled if disabled else pal.outline
            self.rounded(
                track, th // 2, fill=pal.surface_variant, outline=edge, width=max(1, th // 16)
            )
            k = th * 0.25
            cx, cy = tx0 + rad, ty0 + rad
            self.d.ellipse((cx - k, cy - k, cx + k, cy + k), fill=edge)

    def checkbox(self, v: View, r: Rect, role: str, disabled: bool, right: bool) -> None:
        pal = self.pal
        label = pal.disabled if disabled else pal.fg
        size = self.control_size(r, 18)
        if size < 4:
            self.text(r, v.text, 16, label)
            return
        b = self.label_and_control(v, r, size, right, label)
        on = pal.disabled if disabled else pal.primary
        if v.checked:
            self.rounded(b, max(1, size // 8), fill=on)
            x0, y0 = b[0], b[1]
            self.d.line(
                (
                    x0 + 0.2 * size,
                    y0 + 0.52 * size,
                    x0 + 0.42 * size,
                    y0 + 0.74 * size,
                    x0 + 0.8 * size,
                    y0 + 0.3 * size,
                ),
                fill=pal.bg if disabled else pal.on_primary,
                width=max(1, size // 8),
                joint="curve",
            )
        else:
            edge = pal.disabled if disabled else pal.secondary
            self.rounded(b, max(1, size // 8), outline=edge, width=max(1, size // 9))

    def radio(self, v: View, r: Rect, role: str, disabled: bool) -> None:
        pal = self.pal
        label = pal.disabled if disabled else pal.fg
        size = self.control_size(r, 20)
        if size < 4:
            self.text(r, v.text, 16, label)
            return
        b = self.label_and_control(v, r, size, False, label)
        on = pal.disabled if disabled else pal.primary
        edge = on if v.checked else (pal.disabled if disabled else pal.secondary)
        self.d.ellipse(_inclusive(b), outline=edge, width=max(1, size // 10))
        if v.checked:
            k = size * 0.25
            cx, cy = (b[0] + b[2] - 1) / 2, (b[1] + b[3] - 1) / 2
            self.d.ellipse((cx - k, cy - k, cx + k, cy + k), fill=on)

    # ------------------------------------------------------------ fields and bars
    def edit_text(self, v: View, r: Rect, disabled: bool) -> None:
        pal = self.pal
        x0, y0, x1, y1 = r
        hinting = (not v.text and bool(v.hint)) or (bool(v.hint) and v.text == v.hint)
        text = v.hint if hinting else v.text
        if v.password and not hinting:
            text = "*" * min(len(text), 64)
        color = pal.disabled if disabled else (pal.hint if hinting else pal.fg)
        pad = min(self.px(16), (x1 - x0) // 8)
        inset = min(self.px(6), (y1 - y0) // 6)
        end = self.text((x0, y0, x1, y1 - inset), text, 16, color, pad=pad)
        thick = self.px(2) if v.focused else self.px(1)
        uy = y1 - inset - thick
        if uy > y0 and x1 - pad > x0 + pad:
            line = pal.disabled if disabled else (pal.primary if v.focused else pal.outline)
            self.d.rectangle((x0 + pad, uy, x1 - pad - 1, uy + thick - 1), fill=line)
        if v.focused and not disabled:
            if end is None:
                h = min(self.sp(20), uy - y0)
                top = y0 + (uy - y0 - h) // 2
                end = (x0 + pad, top, top + h)
            cx = end[0] if not hinting else x0 + pad
            cx = min(cx + 1, x1 - pad - 1)
            if end[2] > end[1] and x0 <= cx:
                self.d.rectangle((cx, end[1], cx + self.px(1), end[2] - 1), fill=pal.primary)

    def seekbar(self, v: View, r: Rect, disabled: bool) -> None:
        pal = self.pal
        x0, y0, x1, y1 = r
        pad = min(self.px(16), (x1 - x0) // 8)
        if x1 - x0 - 2 * pad < 4:
            return
        try:
            frac = min(1.0, max(0.0, float(v.text) / 100)) if v.text else 0.5
        except ValueError:
            frac = 0.5
        if math.isnan(frac):
            frac = 0.5
        cy = (y0 + y1) // 2
        th = self.px(4)
        on = pal.disabled if disabled else pal.primary
        tx = x0 + pad + round((x1 - x0 - 2 * pad) * frac)
        self.d.rectangle(
            (x0 + pad, cy - th // 2, x1 - pad - 1, cy - th // 2 + th - 1), fill=pal.surface_variant
        )
        self.d.rectangle((x0 + pad, cy - th // 2, tx, cy - th // 2 + th - 1), fill=on)
        k = min(self.px(10), (y1 - y0) / 2 - 1)
        if k >= 1:
            self.d.ellipse((tx - k, cy - k, tx + k, cy + k), fill=on)

    # ------------------------------------------------------------ the launcher
    def app_icon(self, v: View, r: Rect, role: str, disabled: bool) -> None:
        pal = self.pal
        x0, y0, x1, y1 = r
        label = v.text or v.desc
        size = min(self.px(56), int((x1 - x0) * 0.6), int((y1 - y0) * 0.55))
        fg = pal.on_wallpaper if role == "launcher" else pal.fg
        if size < 4:
            self.text(r, label, 12, fg, align="center", pad=0)
            return
        cx = (x0 + x1) / 2
        top = y0 + min(self.px(16), (y1 - y0) // 8)
        color = pal.icons[zlib.crc32(label.encode("utf-8", "replace")) % len(pal.icons)]
        self.d.ellipse((cx - size / 2, top, cx + size / 2, top + size), fill=color)
        letter = _clean(_initial(label))
        m = _mask(letter, round(size * 0.45)) if letter and size * 0.45 >= MIN_FONT else None
        if m is not None:
            mask = m[0]
            self.d.bitmap(
                (round(cx - mask.width / 2), round(top + size / 2 - mask.height / 2)),
                mask,
                fill=(255, 255, 255),
            )
        below = (x0, top + size + self.px(4), x1, y1)
        if not _empty(below):
            self.text(
                below, label, 12, fg, align="center", pad=self.px(2), max_lines=2, valign="top"
            )

    def drawer_handle(self, v: View, r: Rect) -> None:
        pal = self.pal
        x0, y0, x1, y1 = r
        cx = (x0 + x1) / 2
        k = min(self.px(12), (y1 - y0) / 4)
        if k >= 2:
            top = y0 + k
            self.d.line(
                (cx - k, top + k * 0.6, cx, top, cx + k, top + k * 0.6),
                fill=pal.on_wallpaper,
                width=max(1, round(k / 5)),
                joint="curve",
            )
        self.text(
            (x0, round(y0 + 2 * k), x1, y1), v.text or v.desc, 12, pal.on_wallpaper, align="center"
        )

    # ------------------------------------------------------------ shapes
    def rounded(
        self,
        r: Rect,
        radius: int,
        fill: RGB | RGBA | None = None,
        outline: RGB | None = None,
        width: int = 1,
        alpha: bool = False,
    ) -> None:
        x0, y0, x1, y1 = r
        if x1 - x0 < 1 or y1 - y0 < 1:
            return
        radius = max(0, min(radius, (x1 - x0) // 2, (y1 - y0) // 2))
        draw = self.da if alpha else self.d
        width = max(1, min(width, (x1 - x0) // 2, (y1 - y0) // 2)) if outline is not None else 0
        box = (x0, y0, x1 - 1, y1 - 1)
        if radius <= 1:
            draw.rectangle(box, fill=fill, outline=outline, width=width)
        else:
            draw.rounded_rectangle(box, radius, fill=fill, outline=outline, width=width)


def _inclusive(r: Rect) -> Rect:
    return (r[0], r[1], max(r[0], r[2] - 1), max(r[1], r[3] - 1))
