"""Verifier throughput: ``check_trajectory`` over a synthetic corpus of library-task episodes.

The corpus is built in memory: trajectories for four library tasks (a settings change, a
Wi-Fi check, a timer and a message reply), each step with a realistic observation — a
uiautomator dump of 32 nested nodes (``ui_xml``, about 10 kB) or the same nodes as a UI
element list (``ui_elements``) — an action, and a full world snapshot taken after the
action. A quarter of each task's trajectories are made to fail. (``passed`` counts the
verdicts: correct timer and reply episodes fail today for reasons in the checker, not in
the corpus; see tests/test_trajectory_fuzz.py.) The corpus is written as JSONL text and read back with
``parse_trajectory``, so the checker sees exactly what ``tasklang check`` would.

Timed, best of ``repeat``, corpus construction excluded:

* ``parse``: ``parse_trajectory`` over the serialized corpus (one figure per observation kind),
  also with the garbage collector off: with the whole corpus in memory, gen-2 collections
  over the parsed objects cost more than the parsing itself for ``ui_elements``;
* ``check``: ``check_trajectory`` over every parsed trajectory in one process;
* ``scaling``: the per-step check cost at 5, 10, 20, 40 and 80 steps per trajectory for a
  fixed number of trajectories, the ratio of the per-step cost at the longest to the
  shortest length, and the least-squares line through time per trajectory against steps:
  its slope (the marginal cost of a step), intercept (the fixed cost of a trajectory) and
  R² (1.0: time grows linearly with steps).

``python -m tasklang.verifiers.bench [N_TRAJECTORIES [STEPS [REPEAT]]]`` prints the figures
as JSON; ``profile_check`` lists the top cProfile hotspots of the check loop.
"""

from __future__ import annotations

import copy
import cProfile
import gc
import json
import pstats
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache, partial
from typing import Any
from xml.sax.saxutils import quoteattr

from tasklang import ir
from tasklang.compiler import Compiler, library_root
from tasklang.verifiers.check import check_trajectory
from tasklang.verifiers.state import initial_state
from tasklang.verifiers.trajectory import Trajectory, parse_trajectory

TARGET_STEPS_PER_SECOND = 20_000
SCALING_STEPS = (5, 10, 20, 40, 80)
OBSERVATIONS = ("ui_xml", "ui_elements")
SCREEN = (1080, 2400)

# ---------------------------------------------------------------- screens


@dataclass(frozen=True)
class Row:
    """One list row: a title, a summary, and optionally a switch or a description."""

    text: str
    summary: str = ""
    desc: str = ""
    rid: str = "android:id/title"
    switch: bool | None = None
    cls: str = "android.widget.TextView"


@dataclass(frozen=True)
class Page:
    package: str
    activity: str
    title: str
    rows: tuple[Row, ...]


@dataclass
class _Node:
    attrs: dict[str, Any]
    children: list[_Node] = field(default_factory=list)


def _node(
    package: str,
    cls: str,
    bounds: tuple[int, int, int, int],
    text: str = "",
    rid: str = "",
    desc: str = "",
    clickable: bool = False,
    scrollable: bool = False,
    checked: bool | None = None,
) -> _Node:
    return _Node(
        {
            "text": text,
            "resource_id": rid,
            "class_name": cls,
            "package": package,
            "content_desc": desc,
            "checkable": checked is not None,
            "checked": bool(checked),
            "clickable": clickable,
            "enabled": True,
            "focusable": clickable,
            "focused": False,
            "scrollable": scrollable,
            "long_clickable": False,
            "password": False,
            "selected": False,
            "bounds": bounds,
        }
    )


def page_tree(page: Page, clock: str) -> _Node:
    """The view tree of a page: status bar, toolbar with title, a list of rows (~30 nodes)."""
    w, h = SCREEN
    pkg = page.package
    root = _node(pkg, "android.widget.FrameLayout", (0, 0, w, h))
    decor = _node(pkg, "android.widget.LinearLayout", (0, 0, w, h))
    status = _node(
        "com.android.systemui",
        "android.widget.TextView",
        (40, 0, 200, 84),
        clock,
        "com.android.systemui:id/clock",
    )
    toolbar = _node(pkg, "android.view.ViewGroup", (0, 84, w, 240), rid=f"{pkg}:id/action_bar")
    toolbar.children = [
        _node(
            pkg, "android.widget.ImageButton", (0, 84, 156, 240), desc="Navigate up", clickable=True
        ),
        _node(pkg, "android.widget.TextView", (180, 120, 900, 204), page.title),
    ]
    content = _node(pkg, "android.widget.FrameLayout", (0, 240, w, h), rid="android:id/content")
    listing = _node(
        pkg,
        "androidx.recyclerview.widget.RecyclerView",
        (0, 240, w, h),
        rid=f"{pkg}:id/recycler_view",
        scrollable=True,
    )
    for i, row in enumerate(page.rows):
        top = 240 + 200 * i
        item = _node(pkg, "android.widget.LinearLayout", (0, top, w, top + 200), clickable=True)
        item.children.append(
            _node(
                pkg,
                row.cls,
                (60, top + 30, 860, top + 110),
                row.text,
                row.rid,
                row.desc,
                clickable=row.cls.endswith("Button"),
            )
        )
        if row.switch is not None:
            item.children.append(
                _node(
                    pkg,
                    "android.widget.Switch",
                    (900, top + 60, 1040, top + 140),
                    rid="android:id/switch_widget",
                    clickable=True,
                    checked=row.switch,
                )
            )
        else:
            item.children.append(
                _node(
                    pkg,
                    "android.widget.TextView",
                    (60, top + 110, 860, top + 170),
                    row.summary,
                    "android:id/summary",
                )
            )
        listing.children.append(item)
    content.children.append(listing)
    decor.children = [status, toolbar, content]
    root.children.append(decor)
    return root


def flatten(root: _Node) -> list[_Node]:
    """The nodes in document order (the order element indices count in)."""
    out = [root]
    for child in root.children:
        out += flatten(child)
    return out


_XML_NAMES = {
    "resource_id": "resource-id",
    "class_name": "class",
    "content_desc": "content-desc",
    "long_clickable": "long-clickable",
}


def to_xml(root: _Node) -> str:
    """A uiautomator dump of the tree."""

    def attrs(n: _Node, sibling: int) -> str:
        parts = [f'index="{sibling}"']
        for key, value in n.attrs.items():
            if key == "bounds":
                left, top, right, bottom = value
                text = f"[{left},{top}][{right},{bottom}]"
            elif isinstance(value, bool):
                text = "true" if value else "false"
            else:
                text = str(value)
            parts.append(f"{_XML_NAMES.get(key, key)}={quoteattr(text)}")
        return " ".join(parts)

    def emit(n: _Node, sibling: int, out: list[str]) -> None:
        if not n.children:
            out.append(f"<node {attrs(n, sibling)} />")
            return
        out.append(f"<node {attrs(n, sibling)}>")
        for i, child in enumerate(n.children):
            emit(child, i, out)
        out.append("</node>")

    out = ["<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">"]
    emit(root, 0, out)
    out.append("</hierarchy>")
    return "".join(out)


def to_elements(root: _Node) -> list[dict[str, Any]]:
    """The tree as a UI element list (``index`` = position in document order)."""
    out = []
    for i, n in enumerate(flatten(root)):
        element = dict(n.attrs)
        element["index"] = i
        element["bounds"] = list(n.attrs["bounds"])
        out.append(element)
    return out


def find(page: Page, *, text: str = "", desc: str = "", switch: bool = False) -> int:
    """The element index of the row (or its switch) with this text or description."""
    nodes = flatten(page_tree(page, "00:00"))
    for i, n in enumerate(nodes):
        a = n.attrs
        if (text and a["text"] == text) or (desc and a["content_desc"] == desc):
            if switch:
                return i + 1  # the switch follows the title in its row
            return i
    raise KeyError(text or desc)


def center(page: Page, index: int) -> tuple[float, float]:
    left, top, right, bottom = flatten(page_tree(page, "00:00"))[index].attrs["bounds"]
    return (left + right) / 2, (top + bottom) / 2


# ---------------------------------------------------------------- scenarios
State = dict[str, Any]


@dataclass
class Story:
    """One meaningful step: the page shown, the action taken, and its effect on the state."""

    page: Page
    action: dict[str, Any]
    effect: Callable[[State, bool], None] | None = None  # (state, passing)
    activity: str | None = None


@dataclass
class Scenario:
    task_id: str
    params: dict[str, Any]
    browse: list[Page]  # pages the agent wanders through before the story
    story: list[Story]
    foreground: dict[str, str]
    status: str = "complete"


def _settings(state: State, app: str = "settings") -> dict[str, Any]:
    values: dict[str, Any] = state["apps"][app]["settings"]
    return values


def _rows(*texts: str) -> tuple[Row, ...]:
    return tuple(Row(t, summary=f"{t} options") for t in texts)


SETTINGS = "com.android.settings"
MAIN = Page(
    SETTINGS,
    ".Settings",
    "Settings",
    _rows(
        "Network & internet",
        "Connected devices",
        "Apps",
        "Notifications",
        "Battery",
        "Storage",
        "Sound & vibration",
        "Display",
    ),
)
DISPLAY = Page(
    SETTINGS,
    ".DisplaySettings",
    "Display",
    (
        Row("Brightness level", "60%"),
        Row("Adaptive brightness", switch=True),
        Row("Dark theme", switch=False),
        Row("Screen timeout", "After 30 seconds of inactivity"),
        Row("Auto-rotate screen", switch=False),
        Row("Font size", "Default"),
        Row("Display size", "Default"),
        Row("Screen saver", "Off"),
    ),
)
TIMEOUTS = Page(
    SETTINGS,
    ".DisplaySettings",
    "Screen timeout",
    _rows(
        "15 seconds",
        "30 seconds",
        "1 minute",
        "2 minutes",
        "5 minutes",
        "10 minutes",
        "30 minutes",
        "Cancel",
    ),
)
INTERNET = Page(
    SETTINGS,
    ".Settings$NetworkProviderSettingsActivity",
    "Internet",
    (
        Row("Wi-Fi", switch=False),
        Row("HomeNet-5G", "Saved"),
        Row("Office-Guest", "Saved"),
        Row("CoffeeShop", "Open"),
        Row("Airport_Free", "Open"),
        Row("Add network"),
        Row("Saved networks", "2 networks"),
        Row("Network preferences"),
    ),
)
INTERNET_ON = Page(
    INTERNET.package,
    INTERNET.activity,
    INTERNET.title,
    (Row("Wi-Fi", switch=True), *INTERNET.rows[1:]),
)
CLOCK = "com.google.android.deskclock"
TABS = Page(
    CLOCK,
    ".DeskClock",
    "Clock",
    _rows("Alarm", "Clock", "Timer", "Stopwatch", "Bedtime", "7:00 AM", "8:30 AM", "Settings"),
)
KEYPAD = Page(
    CLOCK,
    ".DeskClock",
    "Timer",
    (
        *(Row(d) for d in "1234567"),
        Row("", desc="Start", cls="android.widget.ImageButton", rid=f"{CLOCK}:id/fab"),
    ),
)
RUNNING = Page(
    CLOCK,
    ".DeskClock",
    "Timer",
    (
        Row("Timer", "10m"),
        Row("9:58", rid=f"{CLOCK}:id/timer_time_text"),
        Row("Add label"),
        Row("Add 1:00"),
        Row("Reset"),
        Row("Delete"),
        Row("Add timer"),
        Row("", desc="Pause", cls="android.widget.ImageButton", rid=f"{CLOCK}:id/fab"),
    ),
)
MESSAGES = "com.simplemobiletools.smsmessenger"
CONVERSATIONS = Page(
    MESSAGES,
    ".activities.MainActivity",
    "Messages",
    (
        Row("Priya Shah", "Are we still on for lunch?"),
        Row("Mum", "Call me"),
        Row("+44 7700 900456", "Your code is 1234"),
        Row("Tom", "ok"),
        Row("Dentist", "Reminder"),
        Row("Bank", "Statement ready"),
        Row("Alex", "See you"),
        Row("Archived"),
    ),
)
THREAD = Page(
    MESSAGES,
    ".activities.ThreadActivity",
    "Priya Shah",
    (
        Row("Yesterday"),
        Row("Lunch at 1?", "12:02"),
        Row("Sure!", "12:05"),
        Row("Today"),
        Row("Are we still on for lunch?", "08:10"),
        Row("Type a message", rid=f"{MESSAGES}:id/thread_type_message"),
        Row(
            "",
            desc="Send",
            cls="android.widget.ImageButton",
            rid=f"{MESSAGES}:id/thread_send_message",
        ),
    ),
)


def _click(page: Page, **what: Any) -> dict[str, Any]:
    return {"action_type": "click", "index": find(page, **what)}


def _tap(page: Page, **what: Any) -> dict[str, Any]:
    x, y = center(page, find(page, **what))
    return {"action_type": "click", "x": x, "y": y}


def dark_theme_scenario() -> Scenario:
    def timeout(state: State, passing: bool) -> None:
        _settings(state)["screen_timeout"] = 600

    def dark(state: State, passing: bool) -> None:
        _settings(state)["dark_theme"] = passing

    return Scenario(
        "settings.enable_dark_theme",
        {"timeout": 600, "start_timeout": 30},
        [MAIN, DISPLAY],
        [
            Story(MAIN, _click(MAIN, text="Display")),
            Story(DISPLAY, _tap(DISPLAY, text="Screen timeout")),
            Story(TIMEOUTS, _click(TIMEOUTS, text="10 minutes"), timeout),
            Story(DISPLAY, _click(DISPLAY, text="Dark theme", switch=True), dark),
            Story(DISPLAY, {"action_type": "status", "goal_status": "complete"}),
        ],
        {"package": SETTINGS, "activity": ".DisplaySettings"},
    )


def wifi_scenario() -> Scenario:
    def wifi(state: State, passing: bool) -> None:
        _settings(state)["wifi"] = True

    def connect(state: State, passing: bool) -> None:
        for net in state["apps"]["settings"]["collections"]["wifi_networks"]:
            if net["ssid"] == "HomeNet-5G":
                net["connected"] = passing

    return Scenario(
        "settings.ensure_wifi_on",
        {"net": "HomeNet-5G", "wifi_was_on": False},
        [MAIN, INTERNET],
        [
            Story(MAIN, _click(MAIN, text="Network & internet")),
            Story(INTERNET, _click(INTERNET, text="Wi-Fi", switch=True), wifi),
            Story(INTERNET_ON, _tap(INTERNET_ON, text="HomeNet-5G"), connect),
            Story(INTERNET_ON, {"action_type": "status", "goal_status": "complete"}),
        ],
        {"package": SETTINGS, "activity": ".Settings$NetworkProviderSettingsActivity"},
    )


def timer_scenario() -> Scenario:
    def start(state: State, passing: bool) -> None:
        state["apps"]["clock"]["collections"]["timers"] = [
            {"length": 600 if passing else 60, "label": "", "state": "running", "remaining": 598}
        ]

    return Scenario(
        "clock.start_timer",
        {"countdown": 600},
        [TABS, KEYPAD],
        [
            Story(TABS, _click(TABS, text="Timer")),
            Story(KEYPAD, {"action_type": "input_text", "text": "1000"}),
            Story(KEYPAD, _click(KEYPAD, desc="Start"), start),
            Story(RUNNING, {"action_type": "status", "goal_status": "complete"}),
        ],
        {"package": CLOCK, "activity": ".DeskClock"},
    )


def reply_scenario() -> Scenario:
    def send(state: State, passing: bool) -> None:
        coll = state["apps"]["messages"]["collections"]
        to = "+44 7700 900123" if passing else "+44 7700 900456"
        coll["sent"].append(
            {
                "to": to,
                "body": "On my way!",
                "timestamp": "2026-05-14T09:31:00",
                "status": "sent",
                "mms": False,
            }
        )
        for message in coll["received"]:
            if message["from"] == "+44 7700 900123":
                message["read"] = True
        for thread in coll["threads"]:
            if thread["address"] == "+44 7700 900123":
                thread["unread"] = False
                thread["snippet"] = "On my way!"

    return Scenario(
        "messages.reply_unread",
        {"thread": "+44 7700 900123", "reply": "On my way!", "got_at": "2026-05-14T08:10:00"},
        [CONVERSATIONS, THREAD],
        [
            Story(CONVERSATIONS, _click(CONVERSATIONS, text="Priya Shah")),
            Story(THREAD, _click(THREAD, text="Type a message")),
            Story(THREAD, {"action_type": "input_text", "text": "On my way!"}),
            Story(THREAD, _click(THREAD, desc="Send"), send),
            Story(THREAD, {"action_type": "status", "goal_status": "complete"}),
        ],
        {"package": MESSAGES, "activity": ".activities.ThreadActivity"},
    )


SCENARIOS: tuple[Callable[[], Scenario], ...] = (
    dark_theme_scenario,
    wifi_scenario,
    timer_scenario,
    reply_scenario,
)
_BROWSE_ACTIONS: tuple[dict[str, Any], ...] = (
    {"action_type": "scroll", "direction": "down"},
    {"action_type": "scroll", "direction": "up"},
    {"action_type": "swipe", "direction": "left"},
    {"action_type": "wait"},
    {"action_type": "navigate_back"},
)


# ---------------------------------------------------------------- corpus
@dataclass
class Corpus:
    """Serialized trajectories (one JSONL text each) with the compiled task of each."""

    texts: list[str]
    tasks: list[ir.CompiledTask]
    steps: int

    @property
    def bytes(self) -> int:
        return sum(len(t.encode("utf-8")) for t in self.texts)


@cache
def _library() -> dict[str, ir.CompiledTask]:
    return {c.task.id: c for c in Compiler().compile_paths([library_root()]).tasks}


def compile_tasks(task_ids: Sequence[str]) -> dict[str, ir.CompiledTask]:
    """The library tasks by id (the library is compiled once per process)."""
    compiled = _library()
    missing = [t for t in task_ids if t not in compiled]
    if missing:
        raise RuntimeError(f"library tasks missing: {', '.join(missing)}")
    return {t: compiled[t] for t in task_ids}


def trajectory_text(
    compiled: ir.CompiledTask,
    scenario: Scenario,
    start: State,
    number: int,
    steps: int,
    observation: str,
    passing: bool = True,
) -> str:
    """One trajectory of ``steps`` steps as JSONL: browsing first, then the story."""
    state = copy.deepcopy(start)
    story = scenario.story[-steps:] if steps < len(scenario.story) else scenario.story
    pad = steps - len(story)
    header = {
        "type": "header",
        "format": "tasklang.trajectory",
        "version": 1,
        "task": {"id": compiled.task.id, "revision": compiled.task.revision},
        "goal": compiled.task.goal.template,
        "instance": {"seed": number, "params": scenario.params},
        "environment": {
            "kind": "phoneworld",
            "name": "bench",
            "sdk": 34,
            "screen": {"width": SCREEN[0], "height": SCREEN[1], "density": 420},
        },
    }
    lines = [json.dumps(header, ensure_ascii=False)]
    for i in range(steps):
        if i < pad:
            page = scenario.browse[i % len(scenario.browse)]
            action: dict[str, Any] = dict(_BROWSE_ACTIONS[(i + number) % len(_BROWSE_ACTIONS)])
            effect = None
        else:
            beat = story[i - pad]
            page, action, effect = beat.page, beat.action, beat.effect
        if effect is not None:
            effect(state, passing)
        # the status-bar clock differs from step to step and from one trajectory to the
        # next, so dumps do not repeat as they would not on a real phone
        second = (number * steps + i) % 86400
        tree = page_tree(page, f"{second // 3600:02d}:{second // 60 % 60:02d}:{second % 60:02d}")
        obs: dict[str, Any] = {"package": page.package, "activity": page.activity}
        if observation == "ui_xml":
            obs["ui_xml"] = to_xml(tree)
        else:
            obs["ui_elements"] = to_elements(tree)
        obs["screenshot"] = f"shots/{number:05d}-{i:03d}.png"
        step = {
            "type": "step",
            "index": i,
            "observation": obs,
            "action": action,
            "snapshot": {
                **state,
                "foreground": {"package": page.package, "activity": page.activity},
            },
        }
        lines.append(json.dumps(step, ensure_ascii=False))
    final = {
        "type": "final",
        "status": scenario.status,
        "snapshot": {**state, "foreground": scenario.foreground},
    }
    lines.append(json.dumps(final, ensure_ascii=False))
    return "\n".join(lines) + "\n"


def build_corpus(n_trajectories: int, steps: int, observation: str) -> Corpus:
    """``n_trajectories`` trajectories, the tasks taking turns."""
    if observation not in OBSERVATIONS:
        raise ValueError(f"observation must be one of {OBSERVATIONS}")
    scenarios = [make() for make in SCENARIOS]
    compiled = compile_tasks([s.task_id for s in scenarios])
    starts = []
    for s in scenarios:
        snap, _ = initial_state(compiled[s.task_id], s.params)
        starts.append(snap.model_dump(mode="json", exclude_none=True))
    texts, tasks = [], []
    for n in range(n_trajectories):
        k = n % len(scenarios)
        scenario = scenarios[k]
        task = compiled[scenario.task_id]
        passing = (n // len(scenarios)) % 4 != 3
        texts.append(trajectory_text(task, scenario, starts[k], n, steps, observation, passing))
        tasks.append(task)
    return Corpus(texts, tasks, n_trajectories * steps)


# ---------------------------------------------------------------- timing
def _best(repeat: int, run: Callable[[], Any]) -> tuple[float, Any]:
    best, result = float("inf"), None
    for _ in range(max(1, repeat)):
        start = time.perf_counter()
        result = run()
        best = min(best, time.perf_counter() - start)
    return best, result


def parse_corpus(corpus: Corpus) -> list[Trajectory]:
    return [parse_trajectory(text, f"bench-{i}.jsonl") for i, text in enumerate(corpus.texts)]


def check_corpus(corpus: Corpus, trajectories: list[Trajectory]) -> int:
    """Check every trajectory; the number that passed."""
    passed = 0
    for task, traj in zip(corpus.tasks[: len(trajectories)], trajectories, strict=True):
        passed += check_trajectory(task, traj).success
    return passed


def _rate(steps: int, seconds: float) -> float:
    return round(steps / seconds, 1) if seconds > 0 else float("inf")


def measure(n_trajectories: int, steps: int, observation: str, repeat: int) -> dict[str, Any]:
    """Parse and check figures for one corpus."""
    corpus = build_corpus(n_trajectories, steps, observation)
    parse_s, trajectories = _best(repeat, lambda: parse_corpus(corpus))
    del trajectories
    gc.collect()
    gc.disable()
    try:
        parse_no_gc_s, trajectories = _best(repeat, lambda: parse_corpus(corpus))
    finally:
        gc.enable()
    check_corpus(corpus, trajectories[: len(SCENARIOS)])  # warm caches and imports
    check_s, passed = _best(repeat, lambda: check_corpus(corpus, trajectories))
    return {
        "observation": observation,
        "trajectories": n_trajectories,
        "steps": corpus.steps,
        "passed": passed,
        "corpus_mb": round(corpus.bytes / 1e6, 2),
        "parse_seconds": round(parse_s, 4),
        "parse_steps_per_second": _rate(corpus.steps, parse_s),
        "parse_mb_per_second": round(corpus.bytes / 1e6 / parse_s, 2) if parse_s > 0 else 0.0,
        "parse_steps_per_second_no_gc": _rate(corpus.steps, parse_no_gc_s),
        "check_seconds": round(check_s, 4),
        "check_steps_per_second": _rate(corpus.steps, check_s),
        "check_us_per_step": round(check_s / corpus.steps * 1e6, 2),
        "meets_target": corpus.steps / check_s >= TARGET_STEPS_PER_SECOND if check_s else True,
    }


def line_fit(xs: Sequence[float], ys: Sequence[float]) -> tuple[float, float]:
    """Intercept and slope of the least-squares line through the points."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    if sxx == 0:
        return my, 0.0
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sxx
    return my - slope * mx, slope


def r_squared(xs: Sequence[float], ys: Sequence[float]) -> float:
    """R² of the least-squares line through the points (1.0 for a perfect line)."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    syy = sum((y - my) ** 2 for y in ys)
    if sxx == 0 or syy == 0:
        return 1.0
    return (sxy * sxy) / (sxx * syy)


def scaling(
    n_trajectories: int, lengths: Sequence[int], observation: str, repeat: int
) -> dict[str, Any]:
    """How check time grows with steps per trajectory, at a fixed number of trajectories."""
    points = []
    for steps in lengths:
        corpus = build_corpus(n_trajectories, steps, observation)
        trajectories = parse_corpus(corpus)
        check_corpus(corpus, trajectories[: len(SCENARIOS)])
        seconds, _ = _best(repeat, partial(check_corpus, corpus, trajectories))
        points.append(
            {
                "steps": steps,
                "seconds": round(seconds, 4),
                "us_per_step": round(seconds / corpus.steps * 1e6, 2),
                "ms_per_trajectory": round(seconds / n_trajectories * 1e3, 3),
            }
        )
    xs = [float(p["steps"]) for p in points]
    ys = [float(p["seconds"]) / n_trajectories for p in points]
    first, last = points[0], points[-1]
    return {
        "observation": observation,
        "trajectories": n_trajectories,
        "points": points,
        "per_step_ratio": round(float(last["us_per_step"]) / float(first["us_per_step"]), 3)
        if float(first["us_per_step"]) > 0
        else 0.0,
        "ratio_steps": [first["steps"], last["steps"]],
        "r_squared": round(r_squared(xs, ys), 4),
        "fit_us_per_step": round(line_fit(xs, ys)[1] * 1e6, 2),
        "fit_ms_per_trajectory_fixed": round(line_fit(xs, ys)[0] * 1e3, 3),
    }


def bench_check(n_trajectories: int = 1000, steps: int = 20, repeat: int = 1) -> dict[str, Any]:
    """Verifier throughput on a synthetic corpus; see the module docstring.

    Keys: ``trajectories``, ``steps_per_trajectory``, ``steps``, ``tasks``,
    ``target_steps_per_second``, ``ui_xml`` and ``ui_elements`` (each: ``parse_seconds``,
    ``parse_steps_per_second``, ``parse_mb_per_second``, ``parse_steps_per_second_no_gc``,
    ``check_seconds``,
    ``check_steps_per_second``, ``check_us_per_step``, ``passed``, ``corpus_mb``,
    ``meets_target``), ``steps_per_second`` (the ``ui_xml`` check rate, the realistic case),
    ``meets_target``, and ``scaling`` (per observation: ``points`` with ``steps``,
    ``seconds``, ``us_per_step``, ``ms_per_trajectory``; ``per_step_ratio`` of the longest to
    the shortest length, ``r_squared``, and the fitted line's ``fit_us_per_step`` and
    ``fit_ms_per_trajectory_fixed``), measured with ``max(1, n_trajectories // 10)``
    trajectories at each of ``SCALING_STEPS``.
    """
    if n_trajectories < 1 or steps < 1:
        raise ValueError("n_trajectories and steps must be at least 1")
    figures: dict[str, Any] = {
        "trajectories": n_trajectories,
        "steps_per_trajectory": steps,
        "steps": n_trajectories * steps,
        "tasks": [make().task_id for make in SCENARIOS],
        "target_steps_per_second": TARGET_STEPS_PER_SECOND,
    }
    for observation in OBSERVATIONS:
        figures[observation] = measure(n_trajectories, steps, observation, repeat)
    figures["steps_per_second"] = figures["ui_xml"]["check_steps_per_second"]
    figures["meets_target"] = figures["steps_per_second"] >= TARGET_STEPS_PER_SECOND
    few = max(1, n_trajectories // 10)
    figures["scaling"] = {o: scaling(few, SCALING_STEPS, o, repeat) for o in OBSERVATIONS}
    return figures


def profile_check(
    n_trajectories: int = 200, steps: int = 20, observation: str = "ui_xml", top: int = 15
) -> list[dict[str, Any]]:
    """The ``top`` functions by own time while checking a corpus (cProfile)."""
    corpus = build_corpus(n_trajectories, steps, observation)
    trajectories = parse_corpus(corpus)
    check_corpus(corpus, trajectories[: len(SCENARIOS)])
    profiler = cProfile.Profile()
    profiler.enable()
    check_corpus(corpus, trajectories)
    profiler.disable()
    stats = pstats.Stats(profiler)
    total = sum(row[2] for row in stats.stats.values())  # type: ignore[attr-defined]
    rows = sorted(stats.stats.items(), key=lambda kv: kv[1][2], reverse=True)  # type: ignore[attr-defined]
    out = []
    for (file, line, name), (_, calls, own, cumulative, _) in rows[:top]:
        out.append(
            {
                "function": f"{file.rsplit('/', 1)[-1]}:{line}({name})",
                "calls": calls,
                "own_seconds": round(own, 4),
                "own_share": round(own / total, 3) if total else 0.0,
                "cumulative_seconds": round(cumulative, 4),
            }
        )
    return out


def main(argv: Sequence[str]) -> None:
    numbers = [int(a) for a in argv]
    figures = bench_check(*numbers[:3])
    if "--profile" in sys.argv:
        figures["hotspots"] = {o: profile_check(observation=o) for o in OBSERVATIONS}
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":  # pragma: no cover
    main([a for a in sys.argv[1:] if not a.startswith("--")])
