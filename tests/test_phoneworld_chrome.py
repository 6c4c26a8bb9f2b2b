"""PhoneWorld's Chrome: the reference solution of AndroidWorld's BrowserMaze, the screens' XML,
the offline page engine (HTML, scripts, folder listings, error pages) and the handlers'
behaviour through real actions."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from tasklang import ir
from tasklang.compiler import Compiler
from tasklang.envs.phoneworld.app import AppData, Ctx
from tasklang.envs.phoneworld.apps.chrome import (
    Maze,
    Multiply,
    builtin_file,
    display_url,
    fixup,
    maze_layout,
    parse_html,
    recognise_script,
)
from tasklang.envs.phoneworld.episode import Episode, run_nothing, run_reference
from tasklang.envs.phoneworld.solutions.base import Driver
from tasklang.envs.phoneworld.solutions.chrome import maze_position, solve_maze
from tasklang.verifiers.snapshot import parse_ui_xml

ROOT = Path(__file__).resolve().parents[1]
TASK = "androidworld.browser_maze"
PKG = "com.android.chrome"
MENU = "Customize and control Google Chrome"


@cache
def compiled(task_id: str) -> ir.CompiledTask:
    path = ROOT / "task_library" / "androidworld" / f"{task_id}.task"
    return Compiler().compile_paths([path]).tasks[0]


def test_reference_solves_every_instance() -> None:
    for seed in range(6):  # `tasklang test` tries 20
        verdict, _ = run_reference(compiled(TASK), seed)
        failed = [(r.id, r.summary) for r in verdict.clauses if not r.passed]
        assert not failed, (seed, failed)
        assert verdict.success, (seed, verdict.notes)


def test_doing_nothing_fails() -> None:
    for seed in range(6):  # `tasklang test` tries 20
        assert not run_nothing(compiled(TASK), seed).success


# ------------------------------------------------------------------ a known storage
MAZE_HTML = """<!DOCTYPE html><html><head><title>Maze Puzzle</title></head><body>
<div id="maze"></div><div class="controls">
<button onclick="moveCharacter('up')">Up</button><button onclick="moveCharacter('down')">Down</button>
<button onclick="moveCharacter('left')">Left</button><button onclick="moveCharacter('right')">Right</button>
</div><script>const mazeSize = 4; rng = new SeededRNG(42)</script></body></html>"""

MULTIPLY_HTML = """<html><head><title>Memory Task</title></head><body>
<div class="number" id="number"></div>
<button id="button" onclick="handleButtonClick()">Click Me</button>
<div class="form" id="form" style="display: none;"><input type="number" id="answer"
 placeholder="Enter the product"><button onclick="checkAnswer()">Submit</button></div>
<div id="result"></div><script>const rng = new SeededRNG(7);</script></body></html>"""

SHOP_HTML = """<html><head><title>Corner Shop</title><style>p { color: red }</style></head>
<body><h1>Opening hours</h1><p>Open <b>daily</b> from 9 to 5. <a href="prices.html">Prices</a></p>
<div hidden><p>Staff only</p></div><p style="display:none">Also hidden</p>
<form action="thanks.html"><input name="email" placeholder="Your email"><button>Subscribe</button>
</form><a href="https://example.com/">Our website</a></body></html>"""


def doc(
    path: str, content: str | None = None, kind: str = "document", size: int = 900
) -> dict[str, Any]:
    name = path.rsplit("/", 1)[-1]
    return {
        "path": path,
        "name": name,
        "folder": path.split("/")[2],
        "kind": kind,
        "size": size,
        "modified": "2026-05-14T09:00:00",
        "content": content,
        "starred": False,
        "in_trash": False,
    }


def episode(**chrome: Any) -> tuple[Episode, Driver]:
    ep = Episode(compiled(TASK), 0)
    assert ep.instance is not None
    files = ep.phone.state["files"]
    docs = [
        *files.collections["documents"],
        doc("/sdcard/Download/maze.html", MAZE_HTML),
        doc("/sdcard/Download/memory.html", MULTIPLY_HTML),
        doc("/sdcard/Download/shop.html", SHOP_HTML),
        doc("/sdcard/Download/prices.html", "<p>Bread 2.50</p>"),
        doc("/sdcard/Download/thanks.html", "<title>Thanks</title><h2>Subscribed</h2>"),
        doc("/sdcard/Documents/notes.txt", "Buy milk\nCall Ana"),
        doc("/sdcard/Pictures/cat.jpg", None, "image"),
    ]
    ep.phone.state["files"] = AppData({**files.collections, "documents": docs}, files.settings)
    data = ep.phone.state["chrome"]
    ep.phone.state["chrome"] = AppData(data.collections, {**data.settings, **chrome})
    ep.phone.invalidate()
    return ep, Driver(ep.tree, ep.step, ep.instance.params)


def coll(ep: Episode, name: str) -> list[dict[str, Any]]:
    return ep.phone.state["chrome"].collections[name]


def setting(ep: Episode, name: str) -> Any:
    return ep.phone.state["chrome"].settings[name]


def activity(ep: Episode) -> str:
    return ep.phone.current_activity()[1].rsplit(".", 1)[-1]


def xml_ok(ep: Episode) -> None:
    _, elements = parse_ui_xml(ep.xml())
    assert elements and all(e.package for e in elements)


def webview(d: Driver) -> str:
    return next(v.text for v in d.observe().walk() if v.cls == "android.webkit.WebView")


def url_bar(d: Driver) -> str:
    return d.texts(rid="url_bar")[0]


def go(d: Driver, text: str) -> None:
    d.type(text, rid="url_bar")
    d.enter()


def chrome(d: Driver) -> None:
    d.open("Chrome")


# ------------------------------------------------------------------ the page engine
def test_maze_layout_follows_the_pages_seeded_generator() -> None:
    # the layouts the page's own JavaScript draws for these seeds
    assert maze_layout(0) == ("    ", "##  ", "## #", "## $")
    assert maze_layout(42) == (" ###", "    ", "#   ", "#  $")
    assert maze_layout(4294967295) == ("    ", "##  ", "## #", "## $")
    for seed in range(200):
        layout = maze_layout(seed)
        assert layout[0][0] == " " and layout[3][3] == "$"


def test_maze_script_moves_only_into_open_cells() -> None:
    maze = Maze(("  ##", "# ##", "#   ", "#  $"))
    state = maze.start()
    assert maze.act(state, "up", {}) == state  # off the grid
    assert maze.act(state, "down", {}) == state  # a wall
    state = maze.act(state, "right", {})
    assert (state["row"], state["col"]) == (0, 1)
    for move in ("down", "down", "right", "right", "down"):
        state = maze.act(state, move, {})
    assert state["won"]
    assert maze.render(state)[0].text == "Success!"
    assert maze.act(state, "left", {}) == state  # the page is over


def test_scripts_are_recognised_by_their_code() -> None:
    maze = recognise_script(MAZE_HTML)
    assert isinstance(maze, Maze) and maze.layout == maze_layout(42)
    assert isinstance(recognise_script(MULTIPLY_HTML), Multiply)
    assert recognise_script(SHOP_HTML) is None
    builtin = builtin_file(doc("/sdcard/Download/task.html"))
    assert isinstance(builtin, Maze)
    assert builtin_file(doc("/sdcard/Download/other.html")) is None


def test_html_becomes_nodes() -> None:
    title, nodes = parse_html(SHOP_HTML, "file:///sdcard/Download/shop.html")
    assert title == "Corner Shop"
    texts = [n.text for n in nodes]
    assert texts[:3] == ["Opening hours", "Open daily from 9 to 5.", "Prices"]
    assert "Staff only" not in texts and "Also hidden" not in texts
    link = next(n for n in nodes if n.kind == "link" and n.text == "Prices")
    assert link.href == "file:///sdcard/Download/prices.html"
    field = next(n for n in nodes if n.kind == "field")
    assert (field.text, field.name, field.action) == ("Your email", "email", "submit")
    button = next(n for n in nodes if n.kind == "button")
    assert button.href == "file:///sdcard/Download/thanks.html"


def test_address_bar_input() -> None:
    assert fixup("/sdcard/Download/a b.html", "google") == "file:///sdcard/Download/a%20b.html"
    assert fixup("example.com", "google") == "https://example.com/"
    assert fixup("https://example.com/x", "google") == "https://example.com/x"
    assert fixup("chrome://history", "google") == "chrome://history/"
    assert fixup("cheap flights", "google") == "https://www.google.com/search?q=cheap+flights"
    assert fixup("cheap flights", "bing") == "https://www.bing.com/search?q=cheap+flights"
    assert display_url("https://www.example.com/") == "example.com"
    assert display_url("file:///sdcard/Download/task.html") == "file:///sdcard/Download/task.html"
    assert display_url("chrome://newtab/") == ""


# ------------------------------------------------------------------ screens
def test_every_screen_produces_parseable_xml() -> None:
    ep, d = episode()
    chrome(d)
    xml_ok(ep)
    assert activity(ep) == "ChromeTabbedActivity"
    assert d.texts(rid="url_bar") == ["Search or type web address"]
    d.type("shop", rid="url_bar")
    xml_ok(ep)
    assert d.has(rid="omnibox_suggestion")
    d.back()
    go(d, "/sdcard/Download/shop.html")
    xml_ok(ep)
    d.tap(desc=MENU)
    xml_ok(ep)
    d.tap(text="History")
    xml_ok(ep)
    assert activity(ep) == "HistoryActivity"
    d.back()
    d.tap(desc=MENU)
    d.tap(text="Bookmarks")
    xml_ok(ep)
    assert activity(ep) == "BookmarkActivity"
    d.back()
    d.tap(desc=MENU)
    d.tap(text="Settings")
    xml_ok(ep)
    assert activity(ep) == "SettingsActivity"
    d.tap(text="Search engine", rid="android:id/title")
    xml_ok(ep)
    d.back()
    d.tap(text="Site settings", rid="android:id/title")
    xml_ok(ep)
    d.tap(text="JavaScript", rid="android:id/title")
    xml_ok(ep)
    d.back()
    d.back()
    d.tap(text="About Chrome", rid="android:id/title")
    xml_ok(ep)
    d.back()
    d.back()
    d.tap(desc="1 open tab, tap to switch tabs")
    xml_ok(ep)


# ------------------------------------------------------------------ the maze page
def open_task_from_files(d: Driver) -> None:
    d.open("Files")
    d.tap(text="Download", rid="title")
    d.long_press(text="task.html", rid="title")
    d.tap(desc="Share")
    d.tap(text="Chrome")


def test_a_shared_file_opens_as_a_tab_once_used() -> None:
    ep, d = episode()
    open_task_from_files(d)
    assert ep.phone.foreground == "chrome"
    assert webview(d) == "task.html"  # a page Chrome has no title for is titled by its file
    assert url_bar(d) == "file:///sdcard/Download/task.html"
    assert d.has(desc="1 open tab, tap to switch tabs")
    assert coll(ep, "tabs") == [] and coll(ep, "history") == []  # not used yet
    d.tap(text="Down", cls="Button")
    url = "file:///sdcard/Download/task.html"
    assert coll(ep, "tabs") == [{"url": url, "title": "task.html", "active": True}]
    assert [v["url"] for v in coll(ep, "history")] == [url]
    assert [r.screen for r in ep.phone.stacks["chrome"]] == ["main"]
    # what the script held came along: the X is where the press left it
    assert maze_position(d) in ((0, 0), (1, 0))


def test_leaving_a_shared_file_unused_records_nothing() -> None:
    ep, d = episode()
    open_task_from_files(d)
    d.back()
    assert coll(ep, "tabs") == [] and coll(ep, "history") == []
    assert d.has(rid="search_box_text")  # Chrome's new tab page


def test_solving_the_maze_shows_success() -> None:
    _, d = episode()
    open_task_from_files(d)
    solve_maze(d)
    assert d.has(text="Success!")
    assert not d.has(text="Up", cls="Button")


def test_maze_state_lasts_while_the_tab_does_and_reload_restarts_it() -> None:
    _, d = episode()
    chrome(d)
    go(d, "/sdcard/Download/maze.html")
    assert webview(d) == "Maze Puzzle"
    assert maze_position(d) == (0, 0)
    d.tap(text="Down", cls="Button")  # seed 42: the top row is closed to the right
    assert maze_position(d) == (1, 0)
    d.tap(text="Left", cls="Button")  # the edge of the grid
    assert maze_position(d) == (1, 0)
    d.home()
    chrome(d)
    assert maze_position(d) == (1, 0)
    d.tap(desc=MENU)
    d.tap(desc="Refresh")
    assert maze_position(d) == (0, 0)


def test_blocked_javascript_leaves_the_maze_empty() -> None:
    _, d = episode(javascript=False)
    open_task_from_files(d)
    assert not d.has(text="X")
    assert d.has(text="Down", cls="Button")
    d.tap(text="Down", cls="Button")
    assert not d.has(text="X") and not d.has(text="Success!")


def test_javascript_setting() -> None:
    ep, d = episode()
    chrome(d)
    d.tap(desc=MENU)
    d.tap(text="Settings")
    d.tap(text="Site settings", rid="android:id/title")
    d.tap(text="JavaScript", rid="android:id/title")
    assert d.has(rid="switch_widget", checked=True)
    d.tap(rid="switch_widget")
    assert setting(ep, "javascript") is False
    assert d.texts(rid="android:id/summary") == ["Blocked"]
    d.back()
    assert d.texts(rid="android:id/summary") == ["Blocked"]


# ------------------------------------------------------------------ other pages
def test_memory_page_needs_the_product() -> None:
    _, d = episode()
    chrome(d)
    go(d, "/sdcard/Download/memory.html")
    assert webview(d) == "Memory Task"
    assert not d.has(rid="answer")
    numbers = []
    for _ in range(5):
        numbers.append(int(d.texts(rid="number")[0]))
        d.tap(text="Click Me")
    assert not d.has(text="Click Me")
    product = 1
    for n in numbers:
        product *= n
    d.type(str(product + 1), rid="answer")
    d.tap(text="Submit")
    assert not d.has(text="Success!")
    d.type(str(product), rid="answer")
    d.tap(text="Submit")
    assert d.has(text="Success!")


def test_static_page_links_and_forms() -> None:
    _, d = episode()
    chrome(d)
    go(d, "/sdcard/Download/shop.html")
    assert webview(d) == "Corner Shop"
    assert d.has(text="Opening hours") and not d.has(text="Staff only")
    d.tap(text="Prices")
    assert url_bar(d) == "file:///sdcard/Download/prices.html"
    assert d.has(text="Bread 2.50") and webview(d) == "prices.html"
    go(d, "/sdcard/Download/shop.html")
    d.type("ana@example.com", contains="Your email")  # the page's field shows its placeholder
    d.tap(text="Subscribe")
    assert webview(d) == "Thanks" and d.has(text="Subscribed")
    d.tap(desc=MENU)
    d.tap(text="History")
    assert d.texts(rid="title") == ["Thanks", "Corner Shop", "prices.html"]  # a page once a day


def test_text_files_images_and_missing_files() -> None:
    ep, d = episode()
    chrome(d)
    go(d, "/sdcard/Documents/notes.txt")
    assert d.has(text="Buy milk") and d.has(text="Call Ana")
    go(d, "/sdcard/Pictures/cat.jpg")
    assert d.has(desc="cat.jpg")
    go(d, "/sdcard/Download/gone.html")
    assert d.has(text="ERR_FILE_NOT_FOUND")
    assert [v["url"] for v in coll(ep, "history")] == [
        "file:///sdcard/Documents/notes.txt",
        "file:///sdcard/Pictures/cat.jpg",
    ]


def test_folder_listing_links_into_files() -> None:
    _, d = episode()
    chrome(d)
    go(d, "/sdcard/Download")
    assert url_bar(d) == "file:///sdcard/Download/"
    assert webview(d) == "Index of /sdcard/Download/"
    assert d.has(text="task.html") and d.has(text="shop.html")
    d.tap(text="[parent directory]")
    assert webview(d) == "Index of /sdcard/"
    d.tap(text="Documents/")
    d.tap(text="notes.txt")
    assert d.has(text="Buy milk")


def test_the_web_is_out_of_reach() -> None:
    ep, d = episode()
    chrome(d)
    go(d, "example.com")
    assert url_bar(d) == "example.com"
    assert d.has(text="This site can’t be reached") and d.has(text="DNS_PROBE_FINISHED_NXDOMAIN")
    assert coll(ep, "tabs")[0]["url"] == "https://example.com/"
    assert coll(ep, "history") == []  # failed loads are not history
    go(d, "weather tomorrow")
    assert coll(ep, "tabs")[0]["url"] == "https://www.google.com/search?q=weather+tomorrow"
    settings = ep.phone.state["settings"]
    ep.phone.state["settings"] = AppData(settings.collections, {**settings.settings, "wifi": False})
    d.tap(desc=MENU)
    d.tap(desc="Refresh")
    assert d.has(text="No internet") and d.has(text="ERR_INTERNET_DISCONNECTED")


def test_search_engine_setting() -> None:
    ep, d = episode()
    chrome(d)
    d.tap(desc=MENU)
    d.tap(text="Settings")
    assert d.texts(rid="android:id/summary")[0] == "Google"
    d.tap(text="Search engine", rid="android:id/title")
    d.tap(text="DuckDuckGo")
    assert setting(ep, "search_engine") == "duckduckgo"
    assert d.has(text="DuckDuckGo", checked=True)
    d.back()
    assert d.texts(rid="android:id/summary")[0] == "DuckDuckGo"
    d.back()
    go(d, "tea")
    assert coll(ep, "tabs")[0]["url"] == "https://duckduckgo.com/?q=tea"


def test_omnibox_suggests_history() -> None:
    ep, d = episode()
    chrome(d)
    go(d, "/sdcard/Download/shop.html")
    go(d, "/sdcard/Download/prices.html")
    d.type("corner", rid="url_bar")
    assert d.texts(rid="line_1") == ["corner", "Corner Shop"]
    d.tap(text="Corner Shop", rid="line_1")
    assert webview(d) == "Corner Shop"
    assert not ep.phone.keyboard


# ------------------------------------------------------------------ tabs
def test_tabs_new_switch_close() -> None:
    ep, d = episode()
    chrome(d)
    go(d, "/sdcard/Download/shop.html")
    d.tap(desc=MENU)
    d.tap(text="New tab")
    assert d.has(rid="search_box_text")
    go(d, "/sdcard/Download/prices.html")
    tabs = coll(ep, "tabs")
    assert [(t["title"], t["active"]) for t in tabs] == [
        ("Corner Shop", False),
        ("prices.html", True),
    ]
    d.tap(desc="2 open tabs, tap to switch tabs")
    assert d.texts(rid="tab_title") == ["Corner Shop", "prices.html"]
    d.tap(text="Corner Shop", rid="tab_title")
    assert webview(d) == "Corner Shop"
    assert [t["active"] for t in coll(ep, "tabs")] == [True, False]
    d.tap(desc="2 open tabs, tap to switch tabs")
    d.tap(desc="Close Corner Shop tab")
    assert d.texts(rid="tab_title") == ["prices.html"]
    assert coll(ep, "tabs") == [
        {"url": "file:///sdcard/Download/prices.html", "title": "prices.html", "active": True}
    ]
    d.back()
    assert webview(d) == "prices.html"


def test_home_button_and_same_page_in_another_tab() -> None:
    ep, d = episode()
    chrome(d)
    go(d, "/sdcard/Download/shop.html")
    d.tap(desc="Open the home page")
    assert d.has(rid="search_box_text")
    assert coll(ep, "tabs")[0]["url"] == "chrome://newtab/"
    go(d, "/sdcard/Download/shop.html")
    assert len(coll(ep, "tabs")) == 1


# ------------------------------------------------------------------ history and bookmarks
def test_history_remove_and_clear() -> None:
    ep, d = episode()
    chrome(d)
    go(d, "/sdcard/Download/shop.html")
    go(d, "/sdcard/Download/prices.html")
    d.tap(desc=MENU)
    d.tap(text="History")
    assert d.has(text="Today")
    d.tap(desc="Remove", nth=0)
    assert [v["url"] for v in coll(ep, "history")] == ["file:///sdcard/Download/shop.html"]
    d.type("nothing like it", rid="search_text")
    assert d.has(text="No history here")
    d.back()  # the keyboard
    d.type("", rid="search_text")
    d.tap(text="Delete browsing data…")
    d.tap(text="Cancel")
    assert len(coll(ep, "history")) == 1
    d.tap(text="Delete browsing data…")
    d.tap(text="Delete data")
    assert coll(ep, "history") == []
    d.tap(desc="Close")
    assert activity(ep) == "ChromeTabbedActivity"


def test_history_opens_a_page() -> None:
    ep, d = episode()
    chrome(d)
    go(d, "/sdcard/Download/shop.html")
    go(d, "/sdcard/Download/prices.html")
    d.tap(desc=MENU)
    d.tap(text="History")
    d.tap(text="Corner Shop", rid="title")
    assert webview(d) == "Corner Shop" and activity(ep) == "ChromeTabbedActivity"


def test_bookmarks_add_open_edit_delete() -> None:
    ep, d = episode()
    chrome(d)
    go(d, "/sdcard/Download/shop.html")
    d.tap(desc=MENU)
    d.tap(desc="Bookmark")
    assert coll(ep, "bookmarks") == [
        {
            "url": "file:///sdcard/Download/shop.html",
            "title": "Corner Shop",
            "folder": "Mobile bookmarks",
        }
    ]
    d.tap(desc=MENU)
    assert d.has(desc="Edit bookmark")
    d.tap(desc="Edit bookmark")
    d.type("My shop", rid="title_text")
    d.tap(desc="Navigate up")
    assert coll(ep, "bookmarks")[0]["title"] == "My shop"
    go(d, "/sdcard/Download/prices.html")
    d.tap(desc=MENU)
    d.tap(text="Bookmarks")
    assert d.has(text="Mobile bookmarks") and d.texts(rid="title") == ["My shop"]
    d.tap(text="My shop", rid="title")
    assert webview(d) == "Corner Shop"
    d.tap(desc=MENU)
    d.tap(text="Bookmarks")
    d.tap(desc="More options for My shop")
    d.tap(text="Delete")
    assert coll(ep, "bookmarks") == []
    assert d.has(text="No bookmarks here")


def test_desktop_site_toggle() -> None:
    ep, d = episode()
    chrome(d)
    d.tap(desc=MENU)
    assert d.has(rid="checkbox", checked=False)
    d.tap(text="Desktop site")
    assert setting(ep, "desktop_site") is True
    d.tap(desc=MENU)
    d.tap(rid="checkbox")
    assert setting(ep, "desktop_site") is False


def test_invalid_actions_are_reported() -> None:
    ep, d = episode()
    chrome(d)
    out = ep.step({"action_type": "input_text", "text": "x", "index": d.need(desc=MENU)})
    assert not out.ok and "not a text field" in out.info
    out = ep.step({"action_type": "click", "index": 10_000})
    assert not out.ok and "out of range" in out.info
    d.enter()  # nothing focused: nothing happens
    assert coll(ep, "tabs") == []


def test_another_app_can_open_a_file_or_share_text() -> None:
    ep, d = episode()
    files = ep.phone.apps["files"]
    Ctx(ep.phone, files, None).open("chrome", "file", path="/sdcard/Download/shop.html")
    ep.phone.invalidate()
    assert webview(d) == "Corner Shop" and activity(ep) == "ChromeTabbedActivity"
    d.tap(text="Prices")  # the page is used: it becomes a tab, then the link loads in it
    assert [t["url"] for t in coll(ep, "tabs")] == ["file:///sdcard/Download/prices.html"]
    assert [v["title"] for v in coll(ep, "history")] == ["Corner Shop", "prices.html"]
    Ctx(ep.phone, files, None).open("chrome", "share", text="opening hours")
    ep.phone.invalidate()
    assert url_bar(d) == "google.com/search?q=opening+hours"
    assert d.has(desc="2 open tabs, tap to switch tabs")
