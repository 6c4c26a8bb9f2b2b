"""Chrome (``com.android.chrome``, ``org.chromium.chrome.browser.ChromeTabbedActivity``): a
browser over offline pages.

The phone has no network: the pages Chrome can show are the files of shared storage (the Files
app's ``documents``, as ``file:///sdcard/Download/page.html`` URLs; a folder URL lists the
folder, as Chrome's "Index of" page does), its own pages (the new tab page, History, Bookmarks)
and error pages for everything else ("This site can’t be reached", or "No internet" when Wi-Fi
is off).

A page is data: a title and a tuple of :class:`Node` (text, headings, links, buttons, form
fields, images, groups). An HTML file is parsed into nodes (``<title>``, headings, paragraphs,
``<a href>`` links resolved against the page's URL, buttons, inputs, images; scripts and styles
are skipped); a plain text file shows its lines. A page may carry a :class:`Script`, a small
state machine standing for the page's JavaScript: it draws the nodes from its state and changes
the state when a button is pressed. The scripts of AndroidWorld's browser tasks are built in
(``Maze``: "Navigate the X to the bottom-right cell", ``Multiply``: "Click the button 5
times..."), recognised in a file's HTML by their code; their seeded maze and numbers follow the
page's own ``SeededRNG``. AndroidWorld's tasks write ``task.html`` into Download; a library task
that gives that file without its bytes (``content`` null) gets the maze page, seeded from the
file's path, date and size. A page without a ``<title>`` (or whose bytes PhoneWorld does not
hold) is titled with its file name, as Chrome titles such a page. With JavaScript blocked
(Settings > Site settings > JavaScript) scripted pages show only what their HTML holds, and
their buttons do nothing.

The page is drawn as Chrome's accessibility tree shows it to uiautomator: an
``android.webkit.WebView`` whose text is the page title, holding ``android.view.View`` groups
and links, ``android.widget.TextView`` texts, ``android.widget.Button`` buttons and
``android.widget.EditText`` fields; an element's HTML ``id`` is its resource id.

Screens: the tab (toolbar: "Open the home page", the address bar ``url_bar`` with its
suggestions while typing, "N open tabs, tap to switch tabs", the menu "Customize and control
Google Chrome": Bookmark / Edit bookmark, Page info, Refresh, New tab, History, Delete browsing
data, Bookmarks, Desktop site, Settings), the tab switcher (cards with "Close <title> tab"),
History (``HistoryActivity``: search, Remove, Delete browsing data…), Bookmarks
(``BookmarkActivity``: folders, "More options for <title>": Edit, Delete; the editor saves on
its up arrow), Settings (Search engine, Site settings > JavaScript, About Chrome).

State: ``tabs`` (one active; the main screen shows the active tab, or the new tab page when
there is none), ``history`` (a visit per page loaded from storage) and ``bookmarks``. What a
page's script holds (the maze's X) lives in the phone's scratch forms per tab, outside the
verifier's state, as a page's JavaScript state lives in the renderer; navigating to a page,
reloading it or closing its tab starts it afresh. A link or the address bar navigates the tab
in place (Back leaves the tab's screen, not the page). Another app may open a page in Chrome:
the ``share`` screen (what Files' Share sends: ``path``; or a ``url``, or ``text`` to search)
and the ``file`` screen (an ``ACTION_VIEW`` of ``path``) show it as a tab of its own; the tab
and its visit are recorded when the page is first used (Chrome's handlers run), since opening
it from another app runs none of Chrome's.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import zlib
from dataclasses import dataclass
from functools import lru_cache
from html.parser import HTMLParser
from typing import Any
from urllib.parse import quote, quote_plus, unquote, urljoin, urlsplit

from tasklang.envs.phoneworld import widgets as w
from tasklang.envs.phoneworld.app import App, Ctx, Dialog, Route, Screen
from tasklang.envs.phoneworld.apps.files import Storage, format_size
from tasklang.envs.phoneworld.widgets import View

PACKAGE = "com.android.chrome"
ACTIVITY = "org.chromium.chrome.browser.ChromeTabbedActivity"
HISTORY_ACTIVITY = "org.chromium.chrome.browser.history.HistoryActivity"
BOOKMARKS_ACTIVITY = "org.chromium.chrome.browser.app.bookmarks.BookmarkActivity"
BOOKMARK_EDIT_ACTIVITY = "org.chromium.chrome.browser.app.bookmarks.BookmarkEditActivity"
SETTINGS_ACTIVITY = "org.chromium.chrome.browser.settings.SettingsActivity"
WEBVIEW = "android.webkit.WebView"

NTP_URL = "chrome://newtab/"
HISTORY_URL = "chrome://history/"
BOOKMARKS_URL = "chrome://bookmarks/"
BLANK_URL = "about:blank"
MOBILE_BOOKMARKS = "Mobile bookmarks"
HINT = "Search or type web address"
INTENT_SCREENS = ("share", "file")

# The phone's forms hold what is typed per screen; route id 0 is never a screen, so its forms
# are scratch space (what the pages' scripts hold), copied and restored with the phone.
SCRATCH = Route("chrome:scratch", (), 0)
PREFIX = "chrome."

ENGINES = (
    ("google", "Google", "https://www.google.com/search?q="),
    ("bing", "Bing", "https://www.bing.com/search?q="),
    ("yahoo", "Yahoo!", "https://search.yahoo.com/search?p="),
    ("duckduckgo", "DuckDuckGo", "https://duckduckgo.com/?q="),
)
ENGINE_LABEL = {key: label for key, label, _ in ENGINES}
ENGINE_URL = {key: url for key, _, url in ENGINES}

_DOMAIN = re.compile(r"^(localhost|[\w-]+(\.[\w-]+)+)(:\d+)?([/?#].*)?$", re.I)


# ================================================================== pages as data
@dataclass(frozen=True)
class Node:
    """One element of a page.

    ``kind``: "text", "heading", "link" (``href``), "button" (``action``: what a press does:
    a script's action, "submit" for a form's button, "" for nothing), "field" (an input named
    ``name``, ``text`` its placeholder), "image" (``text`` its alt text), "group" (a block of
    ``children``; ``row`` lays them side by side).
    """

    kind: str
    text: str = ""
    href: str = ""
    action: str = ""
    name: str = ""
    id: str = ""
    children: tuple[Node, ...] = ()
    row: bool = False


class Script:
    """A page's JavaScript: its state (JSON-able), the nodes it draws, and what a press does."""

    def start(self) -> dict[str, Any]:
        return {}

    def static(self) -> tuple[Node, ...]:
        """What the page's HTML shows before (or without) its script."""
        return ()

    def render(self, state: dict[str, Any]) -> tuple[Node, ...]:
        return ()

    def act(self, state: dict[str, Any], action: str, fields: dict[str, str]) -> dict[str, Any]:
        return state


@dataclass(frozen=True)
class Page:
    """What a URL shows: its title, its nodes (the HTML without scripts) and its script."""

    url: str
    title: str
    nodes: tuple[Node, ...] = ()
    script: Script | None = None
    recorded: bool = True  # a visit goes into the history
    error: bool = False

    def view_nodes(self, state: dict[str, Any] | None, javascript: bool) -> tuple[Node, ...]:
        if self.script is None or not javascript:
            return self.nodes
        return self.script.render(self.script.start() if state is None else state)


# ------------------------------------------------------------------ AndroidWorld's scripts
class SeededRNG:
    """The pages' ``SeededRNG``: a linear congruential generator (exact, as JavaScript's
    doubles are for these magnitudes)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def random(self) -> float:
        self.seed = (1664525 * self.seed + 1013904223) % 2**32
        return self.seed / 2**32


def maze_layout(seed: int, size: int = 4) -> tuple[str, ...]:
    """AndroidWorld's ``generateMaze``: a randomised depth-first walk from the top-left cell
    that stops at the bottom-right one (``#`` walls, `` `` open, ``$`` the goal)."""
    rng = SeededRNG(seed)
    layout = [["#"] * size for _ in range(size)]
    stack = [(0, 0)]
    directions = [(-1, 0), (1, 0), (0, -1), (0, 1)]
    while stack:
        row, col = stack.pop()
        layout[row][col] = " "
        if row == size - 1 and col == size - 1:
            break
        for i in range(len(directions) - 1, 0, -1):  # the shuffle persists between cells
            j = int(rng.random() * (i + 1))
            directions[i], directions[j] = directions[j], directions[i]
        for dr, dc in directions:
            r, c = row + dr, col + dc
            if 0 <= r < size and 0 <= c < size and layout[r][c] == "#":
                stack.append((r, c))
    layout[0][0] = " "
    layout[size - 1][size - 1] = "$"
    return tuple("".join(r) for r in layout)


MOVES = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}


@dataclass(frozen=True)
class Maze(Script):
    """BrowserMaze: move the X with Up / Down / Left / Right; "Success!" on the goal."""

    layout: tuple[str, ...]

    @classmethod
    def seeded(cls, seed: int, size: int = 4) -> Maze:
        return cls(maze_layout(seed, size))

    def start(self) -> dict[str, Any]:
        return {"row": 0, "col": 0, "won": False}

    def static(self) -> tuple[Node, ...]:
        controls = tuple(Node("button", d.capitalize()) for d in MOVES)
        return (Node("group", id="maze"), Node("group", children=controls, row=True))

    def render(self, state: dict[str, Any]) -> tuple[Node, ...]:
        if state.get("won"):
            return (Node("heading", "Success!"),)
        at = (state.get("row", 0), state.get("col", 0))
        rows = tuple(
            Node(
                "group",
                row=True,
                children=tuple(
                    Node("group", "X" if (r, c) == at and cell != "#" else "")
                    for c, cell in enumerate(line)
                ),
            )
            for r, line in enumerate(self.layout)
        )
        controls = tuple(Node("button", d.capitalize(), action=d) for d in MOVES)
        return (Node("group", id="maze", children=rows), Node("group", children=controls, row=True))

    def act(self, state: dict[str, Any], action: str, fields: dict[str, str]) -> dict[str, Any]:
        if state.get("won") or action not in MOVES:
            return state
        dr, dc = MOVES[action]
        r, c = int(state.get("row", 0)) + dr, int(state.get("col", 0)) + dc
        if not (0 <= r < len(self.layout) and 0 <= c < len(self.layout[r])):
            return state
        if self.layout[r][c] == "#":
            return state
        return {"row": r, "col": c, "won": self.layout[r][c] == "$"}


@dataclass(frozen=True)
class Multiply(Script):
    """BrowserMultiply: "Click Me" shows a new number 5 times, then a form takes their
    product; "Success!" when it is right."""

    seed: int

    def start(self) -> dict[str, Any]:
        rng = SeededRNG(self.seed)
        return {"rng": self.seed, "numbers": [], "clicks": 0, "result": None} | self._draw(rng)

    def static(self) -> tuple[Node, ...]:
        return (
            Node(
                "group",
                children=(
                    Node("group", id="number"),
                    Node("button", "Click Me", id="button"),
                    Node("group", id="result"),
                ),
            ),
        )

    @staticmethod
    def _draw(rng: SeededRNG) -> dict[str, Any]:
        number = int(rng.random() * 10) + 1
        return {"rng": rng.seed, "last": number}

    def render(self, state: dict[str, Any]) -> tuple[Node, ...]:
        numbers = [*state.get("numbers", []), state.get("last")]
        form = int(state.get("clicks", 0)) >= 5
        parts: list[Node] = []
        if not form:
            parts.append(Node("text", str(numbers[-1]), id="number"))
            parts.append(Node("button", "Click Me", action="click", id="button"))
        else:
            field_node = Node("field", "Enter the product", name="answer", id="answer")
            parts.append(
                Node(
                    "group", id="form", children=(field_node, Node("button", "Submit", "", "check"))
                )
            )
        result = state.get("result")
        parts.append(
            Node("group", id="result", children=(Node("heading", result),) if result else ())
        )
        return (Node("group", children=tuple(parts)),)

    def act(self, state: dict[str, Any], action: str, fields: dict[str, str]) -> dict[str, Any]:
        if action == "click" and int(state.get("clicks", 0)) < 5:
            clicks = int(state.get("clicks", 0)) + 1
            if clicks < 5:
                numbers = [*state.get("numbers", []), state.get("last")]
                drawn = self._draw(SeededRNG(int(state.get("rng", self.seed))))
                return {**state, **drawn, "numbers": numbers, "clicks": clicks}
            return {**state, "clicks": clicks}
        if action == "check" and int(state.get("clicks", 0)) >= 5:
            numbers = [*state.get("numbers", []), state.get("last")]
            product = 1
            for n in numbers:
                product *= int(n)
            match = re.match(r"\s*[-+]?\d+", fields.get("answer", ""))
            ok = match is not None and int(match.group()) == product
            return {**state, "result": "Success!" if ok else ""}
        return state


def recognise_script(content: str) -> Script | None:
    """The built-in script an HTML file's code stands for, if any."""
    seed = re.search(r"new\s+SeededRNG\(\s*(\d+)\s*\)", content)
    if seed is None:
        return None
    if "moveCharacter" in content:
        size = re.search(r"mazeSize\s*=\s*(\d+)", content)
        return Maze.seeded(int(seed[1]), int(size[1]) if size else 4)
    if "handleButtonClick" in content and "checkAnswer" in content:
        return Multiply(int(seed[1]))
    return None


def builtin_file(doc: dict[str, Any]) -> Script | None:
    """The page of a known file whose bytes the task does not give: AndroidWorld's
    ``task.html`` is its maze."""
    if str(doc.get("name", "")).casefold() != "task.html":
        return None
    key = f"{doc.get('path')}|{doc.get('modified')}|{doc.get('size')}"
    return Maze.seeded(zlib.crc32(key.encode()))


# ------------------------------------------------------------------ HTML to nodes
_BLOCKS = frozenset(
    ("p", "div", "section", "article", "header", "footer", "main", "nav", "aside", "ul", "ol",
     "li", "table", "tbody", "thead", "tr", "td", "th", "pre", "blockquote", "form", "br", "hr",
     "body", "center", "dl", "dt", "dd", "label", "figure", "figcaption", "fieldset")
)  # fmt: skip
_HEADINGS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))
_SKIP = frozenset(("script", "style", "noscript", "template", "head"))
_VOID = frozenset(("input", "br", "img", "hr", "meta", "link", "area", "source", "wbr"))
_NO_DISPLAY = re.compile(r"display\s*:\s*none", re.I)


class _HTML(HTMLParser):
    def __init__(self, base: str) -> None:
        super().__init__(convert_charrefs=True)
        self.base = base
        self.title = ""
        self.nodes: list[Node] = []
        self.buf: list[str] = []
        self.skip = 0
        self.in_title = False
        self.heading = False
        self.link: tuple[str, str, list[str]] | None = None
        self.button: tuple[dict[str, str], list[str]] | None = None
        self.form: str | None = None
        self.fields = 0
        self.hidden: tuple[str, int] | None = None  # the hidden element's tag, its nesting

    def flush(self) -> None:
        text = " ".join("".join(self.buf).split())
        self.buf = []
        if text:
            self.nodes.append(Node("heading" if self.heading else "text", text))

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "title":
            self.in_title = True
            return
        if tag in _SKIP:
            self.skip += 1
            return
        if self.skip:
            return
        if self.hidden is not None:  # inside an element that is not displayed
            if tag == self.hidden[0]:
                self.hidden = (tag, self.hidden[1] + 1)
            return
        if "hidden" in a or _NO_DISPLAY.search(a.get("style", "")):
            if tag not in _VOID:
                self.flush()
                self.hidden = (tag, 1)
            return
        if tag == "a":
            self.flush()
            self.link = (a.get("href", ""), a.get("id", ""), [])
        elif tag == "button":
            self.flush()
            self.button = (a, [])
        elif tag in ("input", "textarea"):
            self.flush()
            self.input(a, tag)
        elif tag == "img":
            self.flush()
            self.nodes.append(Node("image", a.get("alt", ""), id=a.get("id", "")))
        elif tag == "form":
            self.flush()
            self.form = a.get("action", "")
        elif tag in _HEADINGS:
            self.flush()
            self.heading = True
        elif tag in _BLOCKS:
            self.flush()

    def input(self, a: dict[str, str], tag: str) -> None:
        kind = a.get("type", "text").lower() if tag == "input" else "text"
        if kind == "hidden":
            return
        if kind in ("submit", "button", "reset"):
            label = a.get("value") or {"submit": "Submit", "reset": "Reset"}.get(kind, "")
            action = "submit" if kind == "submit" and self.form is not None else ""
            href = urljoin(self.base, self.form) if action and self.form else ""
            self.nodes.append(Node("button", label, href=href, action=action, id=a.get("id", "")))
            return
        self.fields += 1
        name = a.get("name") or a.get("id") or f"field{self.fields}"
        in_form = self.form is not None
        self.nodes.append(
            Node(
                "field",
                a.get("placeholder", ""),
                href=urljoin(self.base, self.form) if self.form else "",
                action="submit" if in_form else "",  # enter submits the field's form
                name=name,
                id=a.get("id", ""),
            )
        )

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self.in_title = False
            return
        if tag in _SKIP:
            self.skip = max(0, self.skip - 1)
            return
        if self.skip:
            return
        if self.hidden is not None:
            if tag == self.hidden[0]:
                depth = self.hidden[1] - 1
                self.hidden = (tag, depth) if depth else None
            return
        if tag == "a" and self.link is not None:
            href, ident, parts = self.link
            self.link = None
            text = " ".join("".join(parts).split())
            target = urljoin(self.base, href) if href else ""
            self.nodes.append(Node("link", text or target, href=target, id=ident))
        elif tag == "button" and self.button is not None:
            a, parts = self.button
            self.button = None
            submit = self.form is not None and a.get("type", "submit").lower() == "submit"
            href = urljoin(self.base, self.form) if submit and self.form else ""
            text = " ".join("".join(parts).split())
            action = "submit" if submit else ""
            self.nodes.append(Node("button", text, href=href, action=action, id=a.get("id", "")))
        elif tag == "form":
            self.flush()
            self.form = None
        elif tag in _HEADINGS:
            self.flush()
            self.heading = False
        elif tag in _BLOCKS:
            self.flush()

    def handle_data(self, data: str) -> None:
        if self.in_title:
            self.title += data
        elif self.skip or self.hidden is not None:
            return
        elif self.link is not None:
            self.link[2].append(data)
        elif self.button is not None:
            self.button[1].append(data)
        else:
            self.buf.append(data)


@lru_cache(maxsize=64)
def parse_html(content: str, base: str) -> tuple[str, tuple[Node, ...]]:
    """The title and the nodes of an HTML document (cached: pages are redrawn every step)."""
    parser = _HTML(base)
    parser.feed(content)
    parser.close()
    parser.flush()
    return " ".join(parser.title.split()), tuple(parser.nodes)


def is_html(name: str, content: str) -> bool:
    return name.lower().endswith((".html", ".htm", ".xhtml")) or content.lstrip().startswith("<")


# ------------------------------------------------------------------ URLs
def file_url(path: str) -> str:
    return "file://" + quote(path, safe="/")


def url_path(url: str) -> str:
    return unquote(urlsplit(url).path)


def looks_like_url(text: str) -> bool:
    if " " in text:
        return False
    if re.match(r"^[a-z][a-z0-9+.-]*:", text, re.I) and not _DOMAIN.match(text):
        return text.split(":", 1)[0].lower() in ("http", "https", "file", "chrome", "about")
    return bool(_DOMAIN.match(text))


def fixup(text: str, engine: str) -> str:
    """What the address bar makes of what was typed: a URL, or a search with the engine."""
    text = text.strip()
    if text.startswith("/"):
        return file_url(text)
    if looks_like_url(text):
        if "://" in text or text.lower().startswith(("about:", "chrome:")):
            if text.lower().startswith("chrome:") and "://" not in text:
                text = "chrome://" + text.split(":", 1)[1]
            parts = urlsplit(text)
            if parts.scheme in ("http", "https", "chrome") and not parts.path:
                return text + "/"
            return text
        host_end = re.search(r"[/?#]", text)
        return "https://" + text + ("" if host_end else "/")
    return ENGINE_URL.get(engine, ENGINE_URL["google"]) + quote_plus(text)


def display_url(url: str) -> str:
    """The address bar's text: the URL, without ``https://``, ``www.`` or a lone "/"."""
    if url == NTP_URL:
        return ""
    parts = urlsplit(url)
    if parts.scheme in ("http", "https"):
        host = parts.netloc.removeprefix("www.")
        rest = parts.path if parts.path != "/" else ""
        if parts.query:
            rest += "?" + parts.query
        return host + rest
    return url


def host_of(url: str) -> str:
    return urlsplit(url).netloc or url


def parse_time(value: Any) -> dt.datetime | None:
    try:
        return dt.datetime.fromisoformat(str(value))
    except ValueError:
        return None


def short_time(t: dt.datetime) -> str:
    return f"{t.hour % 12 or 12}:{t.minute:02d} {'AM' if t.hour < 12 else 'PM'}"


def day_header(value: Any, now: dt.datetime) -> str:
    t = parse_time(value)
    if t is None:
        return ""
    if t.date() == now.date():
        return "Today"
    if t.date() == now.date() - dt.timedelta(days=1):
        return "Yesterday"
    return f"{t:%A}, {t:%B} {t.day}, {t.year}"


# ================================================================== views
def rid(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


def image_button(name: str, desc: str, key: str | None, arg: Any = None, **kw: Any) -> View:
    return View(
        w.IMAGE_BUTTON,
        rid=rid(name) if name else "",
        desc=desc,
        clickable=key is not None,
        focusable=True,
        on_click=key,
        arg=arg,
        **kw,
    )


def menu_item(label: str, key: str, arg: Any = None, name: str = "menu_item_text") -> View:
    return View(
        w.LINEAR,
        clickable=True,
        focusable=True,
        on_click=key,
        arg=arg,
        height=132,
        children=[View(w.TEXT, text=label, rid=rid(name))],
    )


def pref(title: str, summary: str = "", key: str | None = None, arg: Any = None) -> View:
    """A row of a settings screen (``android:id/title`` and ``android:id/summary``)."""
    kids = [View(w.TEXT, text=title, rid="android:id/title")]
    if summary:
        kids.append(View(w.TEXT, text=summary, rid="android:id/summary"))
    return View(
        w.LINEAR,
        clickable=key is not None,
        focusable=key is not None,
        on_click=key,
        arg=arg,
        height=190 if summary else 150,
        children=kids,
    )


NODE_HEIGHT = {"text": 110, "heading": 160, "link": 110, "button": 150, "field": 150}


def node_view(node: Node) -> View:
    """A page element as Chrome's accessibility tree shows it."""
    ident = node.id
    if node.kind == "link":
        return View(
            w.VIEW,
            text=node.text,
            rid=ident,
            clickable=True,
            focusable=True,
            on_click="link",
            arg=node.href,
            height=NODE_HEIGHT["link"],
        )
    if node.kind == "button":
        return View(
            w.BUTTON,
            text=node.text,
            rid=ident,
            clickable=True,
            focusable=True,
            on_click="press",
            arg=(node.action, node.href),
            height=NODE_HEIGHT["button"],
        )
    if node.kind == "field":
        return View(
            w.EDIT,
            rid=ident,
            edit=f"page.{node.name}",
            hint=node.text,
            on_enter="press",
            arg=(node.action, node.href),
            height=NODE_HEIGHT["field"],
        )
    if node.kind == "image":
        return View(w.IMAGE, desc=node.text, rid=ident, height=300)
    if node.kind == "group":
        kids = [node_view(c) for c in node.children]
        if node.row:  # a row of cells (the maze's): square cells side by side
            height = 240 if all(c.kind == "group" for c in node.children) else 150
            for k in kids:
                k.height = height
            return View(w.VIEW, rid=ident, horizontal=True, children=kids, height=height)
        if not kids:
            cls = w.TEXT if node.text else w.VIEW
            return View(cls, text=node.text, rid=ident, height=240 if not node.text else 110)
        return View(w.VIEW, text=node.text, rid=ident, children=kids)
    return View(w.TEXT, text=node.text, rid=ident, height=NODE_HEIGHT.get(node.kind, 110))


# ================================================================== the app
class Chrome(App):
    model = "chrome"
    package = PACKAGE
    label = "Chrome"
    activity = ACTIVITY
    home = "main"
    # the file types Chrome offers to open (an "Open with" chooser sends them to ``file``)
    opens = frozenset(("html", "htm", "xhtml", "shtml", "mht", "mhtml"))

    # ------------------------------------------------------------ scratch (page scripts)
    def scratch(self, ctx: Ctx, name: str) -> str:
        return ctx.phone.forms.get(SCRATCH.id, {}).get(PREFIX + name, "")

    def put(self, ctx: Ctx, name: str, value: str) -> None:
        ctx.set_form(PREFIX + name, value, route=SCRATCH)

    def state_key(self, route: Route, url: str) -> str:
        if route.screen in INTENT_SCREENS:
            return f"route {route.id}"
        return f"tab {url}"

    def page_state(self, ctx: Ctx, route: Route, url: str) -> dict[str, Any] | None:
        raw = self.scratch(ctx, self.state_key(route, url))
        if not raw:
            return None
        try:
            value = json.loads(raw)
        except ValueError:
            return None
        return value if isinstance(value, dict) else None

    # ------------------------------------------------------------ tabs
    def tabs(self, ctx: Ctx) -> list[dict[str, Any]]:
        return ctx.records("tabs")

    def active_tab(self, ctx: Ctx) -> dict[str, Any] | None:
        tabs = self.tabs(ctx)
        return next((t for t in tabs if t.get("active")), tabs[-1] if tabs else None)

    def tab(self, ctx: Ctx, url: Any) -> dict[str, Any] | None:
        return ctx.find("tabs", lambda t: t.get("url") == url)

    def activate(self, ctx: Ctx, url: str) -> None:
        for t in list(self.tabs(ctx)):
            want = t.get("url") == url
            if bool(t.get("active")) != want:
                ctx.update("tabs", t, active=want)

    def current_url(self, ctx: Ctx, route: Route) -> str:
        """The URL the screen ``route`` shows."""
        if route.screen in INTENT_SCREENS:
            path, url, text = route.arg("path"), route.arg("url"), route.arg("text")
            if path:
                return file_url(str(path))
            if url:
                return str(url)
            if text:  # shared text: Chrome searches it (or opens it, when it is a URL)
                return fixup(str(text), str(ctx.setting("search_engine") or "google"))
            return NTP_URL
        tab = self.active_tab(ctx)
        return str(tab.get("url")) if tab is not None else NTP_URL

    # ------------------------------------------------------------ loading pages
    def load(self, ctx: Ctx, url: str) -> Page:
        """The page at ``url`` (pure: reads the storage of the Files app)."""
        parts = urlsplit(url)
        if parts.scheme == "file":
            return self.load_file(ctx, url, url_path(url).rstrip("/") or "/")
        if url in (BLANK_URL, "about:blank/"):
            return Page(url, BLANK_URL, recorded=False)
        if parts.scheme in ("http", "https"):
            return self.offline_page(ctx, url)
        return Page(
            url,
            host_of(url),
            (
                Node("heading", "This site can’t be reached"),
                Node("text", f"The webpage at {url} might be temporarily down or it may have "
                     "moved permanently to a new web address."),
                Node("text", "ERR_INVALID_URL"),
            ),
            recorded=False,
            error=True,
        )  # fmt: skip

    def offline_page(self, ctx: Ctx, url: str) -> Page:
        host = host_of(url)
        settings = ctx.data("settings").settings if "settings" in ctx.phone.state else {}
        offline = not settings.get("wifi", True) or bool(settings.get("airplane_mode"))
        nodes: tuple[Node, ...]
        if offline:
            nodes = (
                Node("heading", "No internet"),
                Node("text", "Try:"),
                Node("text", "Turning off airplane mode"),
                Node("text", "Turning on mobile data or Wi-Fi"),
                Node("text", "ERR_INTERNET_DISCONNECTED"),
            )
        else:
            nodes = (
                Node("heading", "This site can’t be reached"),
                Node("text", f"Check if there is a typo in {host}."),
                Node("text", "DNS_PROBE_FINISHED_NXDOMAIN"),
                Node("button", "Reload", action="reload"),
            )
        return Page(url, host, nodes, recorded=False, error=True)

    def storage(self, ctx: Ctx) -> Storage | None:
        files = ctx.phone.apps.get("files")
        if files is None or "files" not in ctx.phone.state:
            return None
        return Storage(Ctx(ctx.phone, files, None))

    def load_file(self, ctx: Ctx, url: str, path: str) -> Page:
        st = self.storage(ctx)
        docs = ctx.records("documents", app="files") if "files" in ctx.phone.state else []
        doc = next((d for d in docs if d.get("path") == path and not d.get("in_trash")), None)
        name = path.rsplit("/", 1)[-1]
        if doc is not None:
            content = doc.get("content")
            if content is None:
                script = builtin_file(doc)
                if script is not None:
                    return Page(url, name, script.static(), script)
                if doc.get("kind") == "image":
                    return Page(url, name, (Node("image", name),))
                return Page(url, name)
            text = str(content)
            if is_html(name, text):
                title, nodes = parse_html(text, url)
                return Page(url, title or name, nodes, recognise_script(text))
            return Page(url, name, tuple(Node("text", line) for line in text.split("\n")))
        if st is not None and (path in st.dirs or path == "/sdcard"):
            return self.listing(ctx, st, url if url.endswith("/") else url + "/", path)
        return Page(
            url,
            name or url,
            (
                Node("heading", "Your file couldn’t be accessed"),
                Node("text", "It may have been moved, edited, or deleted."),
                Node("text", "ERR_FILE_NOT_FOUND"),
            ),
            recorded=False,
            error=True,
        )

    def listing(self, ctx: Ctx, st: Storage, url: str, path: str) -> Page:
        """Chrome's "Index of" page of a folder."""
        title = f"Index of {path}/"
        nodes: list[Node] = [Node("heading", title)]
        parent = path.rsplit("/", 1)[0]
        if parent:
            nodes.append(Node("link", "[parent directory]", href=file_url(parent + "/")))
        nodes.append(
            Node(
                "group",
                row=True,
                children=(
                    Node("text", "Name"),
                    Node("text", "Size"),
                    Node("text", "Date modified"),
                ),
            )
        )
        entries = sorted(st.children(path), key=lambda e: (not e.is_dir, e.name.casefold()))
        for e in entries:
            when = parse_time(e.modified)
            date = f"{when:%-m/%-d/%y}, {short_time(when)}" if when else ""
            link = Node(
                "link",
                e.name + ("/" if e.is_dir else ""),
                href=file_url(e.path + ("/" if e.is_dir else "")),
            )
            size = Node("text", "" if e.is_dir else format_size(e.size))
            nodes.append(Node("group", row=True, children=(link, size, Node("text", date))))
        return Page(url, title, tuple(nodes))

    # ------------------------------------------------------------ screens
    def toolbar(self, ctx: Ctx, route: Route, url: str) -> View:
        n = len(self.tabs(ctx))
        if route.screen in INTENT_SCREENS and self.tab(ctx, url) is None:
            n += 1  # the page another app opened is a tab of its own
        tabs_desc = f"{n} open tab{'s' if n != 1 else ''}, tap to switch tabs"
        url_bar = View(
            w.TEXT,
            text=display_url(url),
            rid=rid("url_bar"),
            edit="url",
            hint=HINT,
            on_enter="go",
            weight=0.64,
        )
        location = View(
            w.LINEAR,
            rid=rid("location_bar"),
            horizontal=True,
            weight=0.64,
            children=[url_bar],
        )
        if url.startswith("file:"):
            location.children.insert(
                0,
                image_button("location_bar_status_icon", "Page info", "page_info", weight=0.1),
            )
        bar = View(
            w.LINEAR,
            rid=rid("toolbar"),
            horizontal=True,
            height=147,
            children=[
                image_button("home_button", "Open the home page", "home", weight=0.12),
                location,
                image_button("tab_switcher_button", tabs_desc, "tab_switcher", weight=0.12),
                image_button(
                    "menu_button", "Customize and control Google Chrome", "menu", weight=0.12
                ),
            ],
        )
        return View(w.FRAME, rid=rid("control_container"), height=147, children=[bar])

    def editing(self, ctx: Ctx, route: Route) -> bool:
        return ctx.phone.focus == (route.id, "url")

    def suggestions(self, ctx: Ctx, typed: str) -> list[View]:
        """The omnibox's suggestions for what is typed: the input itself, then pages of the
        history and the bookmarks whose title or URL holds it."""
        engine = str(ctx.setting("search_engine") or "google")
        target = fixup(typed, engine)
        first = typed if looks_like_url(typed) or typed.startswith("/") else f"{typed}"
        second = "" if target.startswith(ENGINE_URL.get(engine, "")) else target
        if not second:
            second = f"{ENGINE_LABEL.get(engine, 'Google')} Search"
        rows = [self.suggestion(first, second, target)]
        q = typed.casefold()
        seen = {target}
        pages = [*reversed(ctx.records("history")), *ctx.records("bookmarks")]
        for p in pages:
            url = str(p.get("url", ""))
            title = str(p.get("title", ""))
            if url in seen or (q not in url.casefold() and q not in title.casefold()):
                continue
            seen.add(url)
            rows.append(self.suggestion(title or url, display_url(url), url))
            if len(rows) >= 6:
                break
        return rows

    def suggestion(self, line1: str, line2: str, url: str) -> View:
        return View(
            w.LINEAR,
            rid=rid("omnibox_suggestion"),
            clickable=True,
            focusable=True,
            on_click="open_url",
            arg=url,
            height=170,
            children=[
                View(w.TEXT, text=line1, rid=rid("line_1"), height=90),
                View(w.TEXT, text=line2, rid=rid("line_2"), height=80),
            ],
        )

    def page_screen(self, ctx: Ctx, route: Route) -> Screen:
        url = self.current_url(ctx, route)
        header = [self.toolbar(ctx, route, url)]
        typed = ctx.form("url")
        if self.editing(ctx, route) and typed.strip():
            return Screen(
                None,
                header=header,
                rows=self.suggestions(ctx, typed.strip()),
                list_rid=rid("omnibox_results_container"),
                list_cls=w.LINEAR,
            )
        if url == NTP_URL:
            return Screen(
                None,
                header=header,
                rows=self.new_tab_page(),
                list_rid=rid("ntp_scrollview"),
                list_cls=w.SCROLL,
            )
        page = self.load(ctx, url)
        state = self.page_state(ctx, route, url)
        javascript = ctx.setting("javascript") is not False
        nodes = page.view_nodes(state, javascript)
        web = View(
            WEBVIEW,
            text=page.title,
            focusable=True,
            children=[node_view(n) for n in nodes],
        )
        if not nodes:
            web.height = 1200
        return Screen(
            None,
            header=header,
            rows=[web],
            list_rid=rid("compositor_view_holder"),
            list_cls=w.FRAME,
        )

    def new_tab_page(self) -> list[View]:
        search = View(
            w.TEXT,
            rid=rid("search_box_text"),
            edit="url",
            hint=HINT,
            on_enter="go",
            weight=0.85,
        )
        box = View(
            w.LINEAR,
            rid=rid("search_box"),
            horizontal=True,
            height=150,
            children=[
                search,
                image_button("voice_search_button", "Start voice search", None, weight=0.15),
            ],
        )
        logo = View(w.IMAGE, rid=rid("search_provider_logo"), desc="Google", height=300)
        return [logo, box]

    def screen_main(self, ctx: Ctx, route: Route) -> Screen:
        return self.page_screen(ctx, route)

    def screen_share(self, ctx: Ctx, route: Route) -> Screen:
        """A file another app shared with Chrome: it opens in a tab of its own."""
        return self.page_screen(ctx, route)

    def screen_file(self, ctx: Ctx, route: Route) -> Screen:
        """A file another app asked Chrome to open (``ACTION_VIEW`` of ``path``)."""
        return self.page_screen(ctx, route)

    # ------------------------------------------------------------ a page opened by another app
    def handle(self, ctx: Ctx, key: str, arg: Any) -> bool:
        """Run a handler; on a page another app opened, the page becomes a tab first."""
        route = ctx.route
        if route is not None and route.screen in INTENT_SCREENS:
            new = self.adopt(ctx, route)
            ctx = Ctx(ctx.phone, self, new)
        return super().handle(ctx, key, arg)

    def adopt(self, ctx: Ctx, route: Route) -> Route:
        """Record the page of an intent screen as a new active tab (and its visit), and show
        it on the main screen, keeping its script's state and what was typed."""
        url = self.current_url(ctx, route)
        page = self.load(ctx, url)
        state = self.scratch(ctx, self.state_key(route, url))
        forms = dict(ctx.phone.forms.get(route.id, {}))
        focus = ctx.phone.focus
        self.open_tab(ctx, url, page)
        self.put(ctx, self.state_key(route, url), "")
        stack = ctx.phone.stacks.get(self.model, [])
        while len(stack) > 1 and stack[-1] is not route:
            stack.pop()
        new = ctx.replace("main")
        while len(stack) > 1:
            gone = stack.pop(0)
            ctx.phone.forms.pop(gone.id, None)
            ctx.phone.scroll.pop(gone.id, None)
        self.put(ctx, f"tab {url}", state)
        for name, value in forms.items():
            ctx.set_form(name, value, route=new)
        if focus is not None and focus[0] == route.id:
            ctx.phone.focus = (new.id, focus[1])
        return new

    def open_tab(self, ctx: Ctx, url: str, page: Page) -> None:
        """A new active tab at ``url`` (or the tab already there, made active)."""
        tab = self.tab(ctx, url)
        if tab is None:
            ctx.add("tabs", {"url": url, "title": page.title, "active": True})
        elif tab.get("title") != page.title:
            ctx.update("tabs", tab, title=page.title)
        self.activate(ctx, url)
        self.visit(ctx, url, page)

    def visit(self, ctx: Ctx, url: str, page: Page) -> None:
        if page.recorded and not url.startswith("chrome:"):
            visited = ctx.now.isoformat(timespec="seconds")
            ctx.add("history", {"url": url, "title": page.title, "visited": visited})

    # ------------------------------------------------------------ navigating
    def navigate(self, ctx: Ctx, url: str) -> None:
        """Load ``url`` in the active tab (a new one when there is none), on the main
        screen."""
        ctx.hide_keyboard()
        ctx.close_dialog()
        ctx.back_to("main")
        main = self.main_route(ctx)
        if main is not None:
            ctx.set_form("url", "", route=main)
        if url.rstrip("/") == HISTORY_URL.rstrip("/"):
            ctx.push("history")
            return
        if url.rstrip("/") == BOOKMARKS_URL.rstrip("/"):
            ctx.push("bookmarks")
            return
        if url.rstrip("/") == NTP_URL.rstrip("/"):
            page = Page(NTP_URL, "New tab", recorded=False)
        else:
            page = self.load(ctx, url)
        url = page.url  # a folder's URL ends with "/"
        current = self.active_tab(ctx)
        other = self.tab(ctx, url)
        if current is None or (other is not None and other is not current):
            self.open_tab(ctx, url, page)  # a tab already shows it: Chrome switches to it
        else:
            ctx.update("tabs", current, url=url, title=page.title, active=True)
            self.activate(ctx, url)
            self.visit(ctx, url, page)
        self.put(ctx, f"tab {url}", "")
        self.clear_fields(ctx)
        if main is not None:
            ctx.phone.scroll.pop(main.id, None)

    def main_route(self, ctx: Ctx) -> Route | None:
        stack = ctx.phone.stacks.get(self.model, [])
        return stack[0] if stack and stack[0].screen == "main" else None

    def clear_fields(self, ctx: Ctx) -> None:
        """Empty the page's fields (a new page, or a reload, starts with empty fields)."""
        for route in ctx.phone.stacks.get(self.model, []):
            values = ctx.phone.forms.get(route.id, {})
            for name in [n for n in values if n.startswith("page.")]:
                values[name] = ""

    def on_go(self, ctx: Ctx, arg: Any) -> None:
        typed = ctx.form("url").strip()
        if not typed:
            return
        self.navigate(ctx, fixup(typed, str(ctx.setting("search_engine") or "google")))

    def on_open_url(self, ctx: Ctx, url: str) -> None:
        self.navigate(ctx, url)

    def on_link(self, ctx: Ctx, href: str) -> None:
        if not href or href.startswith("javascript:"):
            return
        current = self.current_url(ctx, ctx.route) if ctx.route is not None else ""
        if href.split("#", 1)[0] == current.split("#", 1)[0] and "#" in href:
            return  # an anchor on the same page
        self.navigate(ctx, href)

    def on_press(self, ctx: Ctx, arg: tuple[str, str]) -> None:
        """A page's button (or the enter key in one of its fields)."""
        route = ctx.route
        if route is None:
            return
        action, href = arg
        url = self.current_url(ctx, route)
        page = self.load(ctx, url)
        if action == "reload":
            self.on_reload(ctx, None)
            return
        if page.script is not None and ctx.setting("javascript") is not False:
            state = self.page_state(ctx, route, url) or page.script.start()
            values = ctx.phone.forms.get(route.id, {})
            fields = {
                k.removeprefix("page."): v for k, v in values.items() if k.startswith("page.")
            }
            new = page.script.act(state, action, fields)
            if new != state or self.page_state(ctx, route, url) is None:
                self.put(ctx, self.state_key(route, url), json.dumps(new, sort_keys=True))
            ctx.hide_keyboard()
            return
        if action == "submit":
            self.navigate(ctx, href or url)  # a form without an action reloads its page

    def on_reload(self, ctx: Ctx, arg: Any) -> None:
        route = ctx.route
        if route is None:
            return
        url = self.current_url(ctx, route)
        if url == NTP_URL:
            return
        page = self.load(ctx, url)
        tab = self.tab(ctx, url)
        if tab is not None and tab.get("title") != page.title:
            ctx.update("tabs", tab, title=page.title)
        self.put(ctx, self.state_key(route, url), "")
        self.clear_fields(ctx)

    def on_home(self, ctx: Ctx, arg: Any) -> None:
        self.navigate(ctx, NTP_URL)

    def on_page_info(self, ctx: Ctx, arg: Any) -> None:
        route = ctx.route
        url = self.current_url(ctx, route) if route is not None else ""
        ctx.dialog(
            Dialog(
                url,
                message="This page is stored on your device."
                if url.startswith("file:")
                else "Your connection to this site is not secure",
            )
        )

    # ------------------------------------------------------------ the menu
    def on_menu(self, ctx: Ctx, arg: Any) -> None:
        route = ctx.route
        url = self.current_url(ctx, route) if route is not None else NTP_URL
        page_open = url != NTP_URL
        marked = ctx.find("bookmarks", lambda b: b.get("url") == url) is not None
        icons = View(
            w.LINEAR,
            horizontal=True,
            height=150,
            children=[
                image_button("forward_menu_id", "Forward", None, enabled=False),
                image_button(
                    "bookmark_this_page_id",
                    "Edit bookmark" if marked else "Bookmark",
                    "bookmark" if page_open else None,
                    enabled=page_open,
                ),
                image_button("offline_page_id", "Download", None, enabled=False),
                image_button("info_menu_id", "Page info", "page_info" if page_open else None),
                image_button("reload_menu_id", "Refresh", "reload" if page_open else None),
            ],
        )
        desktop = View(
            w.LINEAR,
            horizontal=True,
            clickable=True,
            focusable=True,
            on_click="desktop_site",
            height=132,
            children=[
                View(w.TEXT, text="Desktop site", rid=rid("menu_item_text"), weight=0.8),
                View(
                    w.CHECKBOX,
                    rid=rid("checkbox"),
                    checkable=True,
                    checked=bool(ctx.setting("desktop_site")),
                    clickable=True,
                    on_click="desktop_site",
                    weight=0.2,
                ),
            ],
        )
        items = [
            icons,
            menu_item("New tab", "new_tab"),
            menu_item("History", "history"),
            menu_item("Delete browsing data", "clear_data"),
            menu_item("Bookmarks", "bookmarks"),
            desktop,
            menu_item("Settings", "settings"),
        ]
        ctx.dialog(Dialog("", items=items))

    def on_desktop_site(self, ctx: Ctx, arg: Any) -> None:
        ctx.set("desktop_site", not ctx.setting("desktop_site"))

    def on_new_tab(self, ctx: Ctx, arg: Any) -> None:
        ctx.hide_keyboard()
        self.open_tab(ctx, NTP_URL, Page(NTP_URL, "New tab", recorded=False))
        ctx.back_to("main")

    def on_bookmark(self, ctx: Ctx, arg: Any) -> None:
        route = ctx.route
        if route is None:
            return
        url = self.current_url(ctx, route)
        found = ctx.find("bookmarks", lambda b: b.get("url") == url)
        if found is not None:
            ctx.push("bookmark_edit", url=url)
            return
        title = self.load(ctx, url).title
        ctx.add("bookmarks", {"url": url, "title": title, "folder": MOBILE_BOOKMARKS})
        ctx.toast(f"Bookmarked in {MOBILE_BOOKMARKS}")

    # ------------------------------------------------------------ tab switcher
    def on_tab_switcher(self, ctx: Ctx, arg: Any) -> None:
        ctx.hide_keyboard()
        ctx.push("tabs")

    def screen_tabs(self, ctx: Ctx, route: Route) -> Screen:
        tabs = self.tabs(ctx)
        active = self.active_tab(ctx)
        cards = []
        for t in tabs:
            title = str(t.get("title") or display_url(str(t.get("url", ""))))
            cards.append(
                View(
                    w.FRAME,
                    rid=rid("content_view"),
                    clickable=True,
                    focusable=True,
                    selected=t is active,
                    on_click="switch_tab",
                    arg=t.get("url"),
                    height=600,
                    children=[
                        View(
                            w.LINEAR,
                            horizontal=True,
                            height=130,
                            children=[
                                View(w.TEXT, text=title, rid=rid("tab_title"), weight=0.8),
                                image_button(
                                    "action_button",
                                    f"Close {title} tab",
                                    "close_tab",
                                    t.get("url"),
                                    weight=0.2,
                                ),
                            ],
                        ),
                        View(w.IMAGE, rid=rid("tab_thumbnail"), height=470),
                    ],
                )
            )
        rows = [
            View(
                w.LINEAR,
                horizontal=True,
                height=600,
                children=cards[i : i + 2] + ([View(w.VIEW)] if len(cards[i : i + 2]) == 1 else []),
            )
            for i in range(0, len(cards), 2)
        ]
        if not rows:
            rows = [View(w.TEXT, text="No open tabs", height=300)]
        header = View(
            w.LINEAR,
            rid=rid("action_bar"),
            horizontal=True,
            height=147,
            children=[
                image_button("new_tab_view_button", "New tab", "new_tab", weight=0.15),
                View(
                    w.TEXT, text=f"{len(tabs)} open tab{'s' if len(tabs) != 1 else ''}", weight=0.7
                ),
                image_button("menu_button", "More options", "tabs_menu", weight=0.15),
            ],
        )
        return Screen(None, header=[header], rows=rows, list_rid=rid("tab_list_recycler_view"))

    def on_switch_tab(self, ctx: Ctx, url: str) -> None:
        if self.tab(ctx, url) is not None:
            self.activate(ctx, url)
            self.clear_fields(ctx)
        ctx.back_to("main")

    def on_close_tab(self, ctx: Ctx, url: str) -> None:
        tab = self.tab(ctx, url)
        if tab is None:
            return
        was_active = tab is self.active_tab(ctx)
        ctx.delete("tabs", tab)
        self.put(ctx, f"tab {url}", "")
        rest = self.tabs(ctx)
        if was_active and rest:
            self.activate(ctx, str(rest[-1].get("url")))

    def on_tabs_menu(self, ctx: Ctx, arg: Any) -> None:
        ctx.dialog(
            Dialog(
                "",
                items=[menu_item("Close all tabs", "close_all"), menu_item("Settings", "settings")],
            )
        )

    def on_close_all(self, ctx: Ctx, arg: Any) -> None:
        for t in list(self.tabs(ctx)):
            self.put(ctx, f"tab {t.get('url')}", "")
            ctx.delete("tabs", t)

    # ------------------------------------------------------------ history
    def on_history(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("history")

    def screen_history(self, ctx: Ctx, route: Route) -> Screen:
        query = ctx.form("history_query").strip().casefold()
        order = {id(v): i for i, v in enumerate(ctx.records("history"))}
        visits = sorted(
            ctx.records("history"),
            key=lambda v: (str(v.get("visited", "")), order[id(v)]),
            reverse=True,
        )
        rows: list[View] = [
            View(
                w.TEXT,
                text="Delete browsing data…",
                rid=rid("clear_browsing_data_button"),
                clickable=True,
                focusable=True,
                on_click="clear_data",
                height=150,
            )
        ]
        seen: set[tuple[str, str]] = set()
        last = None
        for v in visits:
            url, title = str(v.get("url", "")), str(v.get("title") or v.get("url", ""))
            if query and query not in url.casefold() and query not in title.casefold():
                continue
            day = day_header(v.get("visited"), ctx.now)
            if (day, url) in seen:
                continue
            seen.add((day, url))
            if day != last:
                rows.append(View(w.TEXT, text=day, height=110))
                last = day
            rows.append(
                View(
                    w.LINEAR,
                    rid=rid("content"),
                    horizontal=True,
                    clickable=True,
                    focusable=True,
                    on_click="open_url",
                    arg=url,
                    height=180,
                    children=[
                        View(
                            w.LINEAR,
                            weight=0.85,
                            children=[
                                View(w.TEXT, text=title, rid=rid("title"), height=100),
                                View(
                                    w.TEXT, text=display_url(url), rid=rid("description"), height=80
                                ),
                            ],
                        ),
                        image_button("remove", "Remove", "history_remove", (day, url), weight=0.15),
                    ],
                )
            )
        if len(rows) == 1:
            rows.append(View(w.TEXT, text="No history here", rid=rid("empty_view"), height=300))
        search = View(
            w.TEXT,
            rid=rid("search_text"),
            edit="history_query",
            hint="Search your history",
            weight=0.7,
        )
        header = View(
            w.LINEAR,
            rid=rid("action_bar"),
            horizontal=True,
            height=147,
            children=[
                View(w.TEXT, text="History", weight=0.3),
                search,
                image_button("close_menu_id", "Close", "close_native", weight=0.15),
            ],
        )
        return Screen(
            None,
            activity=HISTORY_ACTIVITY,
            header=[header],
            rows=rows,
            list_rid=rid("recycler_view"),
        )

    def on_close_native(self, ctx: Ctx, arg: Any) -> None:
        ctx.hide_keyboard()
        ctx.back()

    def on_history_remove(self, ctx: Ctx, arg: tuple[str, str]) -> None:
        day, url = arg
        for v in list(ctx.records("history")):
            if v.get("url") == url and day_header(v.get("visited"), ctx.now) == day:
                ctx.delete("history", v)

    def on_clear_data(self, ctx: Ctx, arg: Any) -> None:
        ctx.dialog(
            Dialog(
                "Delete browsing data",
                message="Browsing history: clears history from all synced devices",
                buttons=[("Delete data", "clear_data_ok", None), ("Cancel", None, None)],
            )
        )

    def on_clear_data_ok(self, ctx: Ctx, arg: Any) -> None:
        for v in list(ctx.records("history")):
            ctx.delete("history", v)

    # ------------------------------------------------------------ bookmarks
    def on_bookmarks(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("bookmarks")

    def screen_bookmarks(self, ctx: Ctx, route: Route) -> Screen:
        folder = str(route.arg("folder") or MOBILE_BOOKMARKS)
        marks = ctx.records("bookmarks")
        rows: list[View] = []
        if folder == MOBILE_BOOKMARKS:
            others = sorted({str(b.get("folder")) for b in marks} - {MOBILE_BOOKMARKS, "None", ""})
            for f in others:
                count = sum(1 for b in marks if b.get("folder") == f)
                rows.append(
                    View(
                        w.LINEAR,
                        rid=rid("container"),
                        clickable=True,
                        focusable=True,
                        on_click="bookmark_folder",
                        arg=f,
                        height=180,
                        children=[
                            View(w.TEXT, text=f, rid=rid("title"), height=100),
                            View(
                                w.TEXT,
                                text=f"{count} bookmark{'s' if count != 1 else ''}",
                                rid=rid("description"),
                                height=80,
                            ),
                        ],
                    )
                )
        for b in marks:
            if str(b.get("folder") or MOBILE_BOOKMARKS) != folder:
                continue
            url, title = str(b.get("url", "")), str(b.get("title") or b.get("url", ""))
            rows.append(
                View(
                    w.LINEAR,
                    rid=rid("container"),
                    horizontal=True,
                    clickable=True,
                    focusable=True,
                    on_click="open_url",
                    arg=url,
                    height=180,
                    children=[
                        View(
                            w.LINEAR,
                            weight=0.85,
                            children=[
                                View(w.TEXT, text=title, rid=rid("title"), height=100),
                                View(
                                    w.TEXT, text=display_url(url), rid=rid("description"), height=80
                                ),
                            ],
                        ),
                        image_button(
                            "more", f"More options for {title}", "bookmark_menu", url, weight=0.15
                        ),
                    ],
                )
            )
        if not rows:
            rows.append(View(w.TEXT, text="No bookmarks here", rid=rid("empty_view"), height=300))
        return Screen(
            folder, activity=BOOKMARKS_ACTIVITY, up=True, rows=rows, list_rid=rid("recycler_view")
        )

    def on_bookmark_folder(self, ctx: Ctx, folder: str) -> None:
        ctx.push("bookmarks", folder=folder)

    def on_bookmark_menu(self, ctx: Ctx, url: str) -> None:
        ctx.dialog(
            Dialog(
                "",
                items=[
                    menu_item("Edit", "bookmark_edit", url),
                    menu_item("Delete", "bookmark_delete", url),
                ],
            )
        )

    def on_bookmark_edit(self, ctx: Ctx, url: str) -> None:
        if ctx.find("bookmarks", lambda b: b.get("url") == url) is not None:
            ctx.push("bookmark_edit", url=url)

    def on_bookmark_delete(self, ctx: Ctx, url: str) -> None:
        found = ctx.find("bookmarks", lambda b: b.get("url") == url)
        if found is None:
            return
        ctx.delete("bookmarks", found)
        if ctx.route is not None and ctx.route.screen == "bookmark_edit":
            ctx.back()
        ctx.toast(f"{found.get('title') or url} deleted")

    def screen_bookmark_edit(self, ctx: Ctx, route: Route) -> Screen:
        url = str(route.arg("url"))
        found = ctx.find("bookmarks", lambda b: b.get("url") == url)
        title = str(found.get("title", "")) if found else ""
        folder = str(found.get("folder") or MOBILE_BOOKMARKS) if found else MOBILE_BOOKMARKS
        rows = [
            View(w.TEXT, text="Name", height=80),
            View(
                w.TEXT,
                text=title,
                rid=rid("title_text"),
                edit="b_title",
                on_enter="bookmark_save",
                height=150,
            ),
            View(w.TEXT, text="URL", height=80),
            View(
                w.TEXT,
                text=url,
                rid=rid("url_text"),
                edit="b_url",
                on_enter="bookmark_save",
                height=150,
            ),
            View(w.TEXT, text="Folder", height=80),
            View(w.TEXT, text=folder, rid=rid("folder_text"), height=130),
        ]
        bar = View(
            w.LINEAR,
            rid=rid("action_bar"),
            horizontal=True,
            height=147,
            children=[
                image_button("", "Navigate up", "bookmark_save", weight=0.15),
                View(w.TEXT, text="Edit bookmark", weight=0.7),
                image_button("delete", "Delete", "bookmark_delete", url, weight=0.15),
            ],
        )
        return Screen(
            None, activity=BOOKMARK_EDIT_ACTIVITY, header=[bar], rows=rows, list_cls=w.SCROLL
        )

    def on_bookmark_save(self, ctx: Ctx, arg: Any) -> None:
        """Leaving the editor (its up arrow, or enter in a field) saves what was typed."""
        route = ctx.route
        ctx.hide_keyboard()
        if route is None:
            return
        url = str(route.arg("url"))
        found = ctx.find("bookmarks", lambda b: b.get("url") == url)
        if found is not None:
            title = ctx.form("b_title").strip() or str(found.get("title", ""))
            new_url = ctx.form("b_url").strip() or url
            if new_url != url and ctx.find("bookmarks", lambda b: b.get("url") == new_url):
                new_url = url
            if title != found.get("title") or new_url != url:
                ctx.update("bookmarks", found, title=title, url=new_url)
        ctx.back()

    # ------------------------------------------------------------ settings
    def on_settings(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("settings")

    def screen_settings(self, ctx: Ctx, route: Route) -> Screen:
        engine = str(ctx.setting("search_engine") or "google")
        rows = [
            View(w.TEXT, text="Basics", height=110),
            pref("Search engine", ENGINE_LABEL.get(engine, engine), "search_engines"),
            View(w.TEXT, text="Advanced", height=110),
            pref("Site settings", "", "site_settings"),
            pref("About Chrome", "", "about"),
        ]
        return Screen(
            "Settings",
            activity=SETTINGS_ACTIVITY,
            up=True,
            rows=rows,
            list_rid=rid("recycler_view"),
        )

    def on_search_engines(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("search_engine")

    def screen_search_engine(self, ctx: Ctx, route: Route) -> Screen:
        engine = str(ctx.setting("search_engine") or "google")
        rows = [
            View(
                w.RADIO,
                text=label,
                rid=rid("radio_button"),
                checkable=True,
                checked=key == engine,
                clickable=True,
                focusable=True,
                on_click="set_engine",
                arg=key,
                height=150,
            )
            for key, label, _ in ENGINES
        ]
        return Screen(
            "Search engine",
            activity=SETTINGS_ACTIVITY,
            up=True,
            rows=rows,
            list_rid=rid("recycler_view"),
        )

    def on_set_engine(self, ctx: Ctx, key: str) -> None:
        if ctx.setting("search_engine") != key:
            ctx.set("search_engine", key)

    def on_site_settings(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("site_settings")

    def screen_site_settings(self, ctx: Ctx, route: Route) -> Screen:
        js = ctx.setting("javascript") is not False
        rows = [pref("JavaScript", "Allowed" if js else "Blocked", "javascript_settings")]
        return Screen(
            "Site settings",
            activity=SETTINGS_ACTIVITY,
            up=True,
            rows=rows,
            list_rid=rid("recycler_view"),
        )

    def on_javascript_settings(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("javascript")

    def screen_javascript(self, ctx: Ctx, route: Route) -> Screen:
        js = ctx.setting("javascript") is not False
        switch = View(
            w.SWITCH,
            rid="android:id/switch_widget",
            checkable=True,
            checked=js,
            clickable=True,
            focusable=True,
            on_click="toggle_javascript",
            weight=0.2,
        )
        row = View(
            w.LINEAR,
            horizontal=True,
            clickable=True,
            focusable=True,
            on_click="toggle_javascript",
            height=190,
            children=[
                View(
                    w.LINEAR,
                    weight=0.8,
                    children=[
                        View(w.TEXT, text="JavaScript", rid="android:id/title"),
                        View(w.TEXT, text="Allowed" if js else "Blocked", rid="android:id/summary"),
                    ],
                ),
                switch,
            ],
        )
        return Screen(
            "JavaScript",
            activity=SETTINGS_ACTIVITY,
            up=True,
            rows=[row],
            list_rid=rid("recycler_view"),
        )

    def on_toggle_javascript(self, ctx: Ctx, arg: Any) -> None:
        ctx.set("javascript", ctx.setting("javascript") is False)

    def on_about(self, ctx: Ctx, arg: Any) -> None:
        ctx.push("about")

    def screen_about(self, ctx: Ctx, route: Route) -> Screen:
        rows = [
            pref("Application version", "Chrome 120.0.6099.230"),
            pref("Operating system", "Android 13"),
        ]
        return Screen(
            "About Chrome",
            activity=SETTINGS_ACTIVITY,
            up=True,
            rows=rows,
            list_rid=rid("recycler_view"),
        )


APP = Chrome
