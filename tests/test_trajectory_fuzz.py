"""Robustness of `tasklang check`: corrupted trajectory files never crash it or pass silently.

A few valid trajectories for library tasks (and one small task with XPath selectors) are
corrupted in seeded, reproducible ways: truncation, removed/duplicated/swapped lines, byte
flips, invalid UTF-8, JSON of the wrong types, unknown action and record types, a missing
`final` record, lines after it, another task's header, steps out of order, deep nesting,
huge numbers, NaN/Infinity, UI XML that does not parse (entity bombs and external entities
included), XPath-breaking text, screenshot paths that do not exist, bounds out of range, and
edits that break the goal. Each mutant is checked through the CLI in process (`CliRunner`),
and a spread of a few dozen through a real `python -m tasklang.cli check`. For every one:

* no traceback and no "internal error", ever;
* exit 2 with ``tasklang: error: <file>:<line>: ...`` when the file is not a trajectory
  (``read_trajectory`` raises), the line being the one the reader names; an unlocated
  message only for an empty or unreadable file;
* exit 2 naming the file when it is a trajectory that does not fit the task;
* otherwise exit 0 or 1, agreeing with ``check_trajectory`` run directly, and a verdict line;
* never exit 0 when an independent oracle says the final state does not satisfy the task
  (a *silent pass*); mutants that surely break the goal must not exit 0.

Bugs found this way have regression tests at the end of this file; a signature listed in
``KNOWN_CRASHES`` would make a mutant that hits only that bug an expected failure.

``TASKLANG_TRAJ_MUTANTS`` sets the number of in-process mutants (default 320),
``TASKLANG_TRAJ_SUBPROCESS`` the number of subprocess runs (default 30) and
``TASKLANG_TRAJ_SEED`` the seed.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import math
import os
import random
import re
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any
from xml.etree import ElementTree
from xml.sax.saxutils import quoteattr

import pytest
from typer.testing import CliRunner

from tasklang import ir
from tasklang.checkcmd import find_tasks
from tasklang.cli import app
from tasklang.compiler import library_root
from tasklang.verifiers.check import InstanceError, check_trajectory
from tasklang.verifiers.state import initial_state
from tasklang.verifiers.trajectory import Trajectory, TrajectoryError, read_trajectory

N_MUTANTS = int(os.environ.get("TASKLANG_TRAJ_MUTANTS", "320"))
N_SUBPROCESS = int(os.environ.get("TASKLANG_TRAJ_SUBPROCESS", "12"))
SEED = os.environ.get("TASKLANG_TRAJ_SEED", "tasklang-traj-fuzz-1")
LIBRARY = library_root()
HAS_REPORT = importlib.util.find_spec("tasklang.verifiers.report") is not None
SECRET = "XXE-SECRET-7f3a9c"  # the content of a local file an external entity points at
REPO = Path(__file__).resolve().parent.parent

XPATH_TASK = """\
task settings.xpath_probe {
  kind app
  apps settings
  goal "Open Display settings and turn on the dark theme."
  expect {
    settings.dark_theme == true
    trace eventually shown xpath "//node[@text='Screen timeout']"
    ui no element xpath "//*[contains(@text, 'Error')]"
  }
  budget 10 steps
}
"""


# ---------------------------------------------------------------- UI trees
def _node(
    position: int,
    text: str = "",
    rid: str = "",
    cls: str = "android.widget.TextView",
    desc: str = "",
    pkg: str = "com.android.settings",
    bounds: tuple[int, int, int, int] = (0, 0, 1080, 2400),
    clickable: bool = False,
    checked: bool | None = None,
) -> dict[str, Any]:
    return {
        "index": position,
        "text": text,
        "resource_id": rid,
        "class_name": cls,
        "package": pkg,
        "content_desc": desc,
        "checkable": checked is not None,
        "checked": bool(checked),
        "clickable": clickable,
        "enabled": True,
        "bounds": list(bounds),
    }


def screen_nodes(pkg: str, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A root frame, a toolbar, then one row per entry (text/desc/id/class/checked)."""
    nodes = [
        _node(0, cls="android.widget.FrameLayout", pkg=pkg),
        _node(
            1,
            rid=f"{pkg}:id/toolbar",
            cls="android.view.ViewGroup",
            pkg=pkg,
            bounds=(0, 84, 1080, 240),
        ),
    ]
    for i, row in enumerate(rows):
        top = 260 + 190 * i
        nodes.append(
            _node(
                len(nodes),
                text=row.get("text", ""),
                rid=row.get("id", f"{pkg}:id/title"),
                cls=row.get("class", "android.widget.TextView"),
                desc=row.get("desc", ""),
                pkg=pkg,
                bounds=(0, top, 1080, top + 180),
                clickable=True,
                checked=row.get("checked"),
            )
        )
    return nodes


def to_xml(nodes: list[dict[str, Any]]) -> str:
    """A uiautomator dump of the nodes: the first is the root, the rest its children."""

    def attrs(n: dict[str, Any]) -> str:
        left, top, right, bottom = n["bounds"]
        pairs = [
            ("index", str(n["index"])),
            ("text", n["text"]),
            ("resource-id", n["resource_id"]),
            ("class", n["class_name"]),
            ("package", n["package"]),
            ("content-desc", n["content_desc"]),
            ("checkable", str(n["checkable"]).lower()),
            ("checked", str(n["checked"]).lower()),
            ("clickable", str(n["clickable"]).lower()),
            ("enabled", "true"),
            ("focusable", "false"),
            ("focused", "false"),
            ("scrollable", "false"),
            ("long-clickable", "false"),
            ("password", "false"),
            ("selected", "false"),
            ("bounds", f"[{left},{top}][{right},{bottom}]"),
        ]
        return " ".join(f"{k}={quoteattr(v)}" for k, v in pairs)

    children = "".join(f"<node {attrs(n)} />" for n in nodes[1:])
    return (
        "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>"
        f'<hierarchy rotation="0"><node {attrs(nodes[0])}>{children}</node></hierarchy>'
    )


# ---------------------------------------------------------------- base trajectories
def _deep(value: Any) -> Any:
    return json.loads(json.dumps(value))


@cache
def compiled_task(task_file: str) -> ir.CompiledTask:
    tasks = find_tasks(task_file)
    assert len(tasks) == 1, task_file
    return next(iter(tasks.values()))


def _initial(task_file: str, params: dict[str, Any]) -> dict[str, Any]:
    snap, _ = initial_state(compiled_task(task_file), params)
    data: dict[str, Any] = snap.model_dump(mode="json", exclude_none=True)
    return data


def _header(task_id: str, params: dict[str, Any], goal: str) -> dict[str, Any]:
    return {
        "type": "header",
        "format": "tasklang.trajectory",
        "version": 1,
        "task": {"id": task_id, "revision": 1},
        "goal": goal,
        "instance": {"seed": 7, "params": params},
        "environment": {
            "kind": "phoneworld",
            "name": "PhoneWorld",
            "sdk": 34,
            "screen": {"width": 1080, "height": 2400, "density": 420},
        },
        "created": "2026-05-14T21:40:00+02:00",
        "extra": {"agent": "fuzz-agent ✓"},
    }


def _settings_path(snap: dict[str, Any]) -> dict[str, Any]:
    settings: dict[str, Any] = snap["apps"]["settings"]["settings"]
    return settings


def dark_records(task_file: str, task_id: str, passing: bool) -> list[dict[str, Any]]:
    params = {"timeout": 600, "start_timeout": 30}
    s0 = _initial(task_file, params)
    s1 = _deep(s0)
    _settings_path(s1)["screen_timeout"] = 600
    s2 = _deep(s1)
    _settings_path(s2)["dark_theme"] = passing
    pkg = "com.android.settings"
    main = to_xml(
        screen_nodes(pkg, [{"text": t} for t in ("Network & internet", "Display", "Sound")])
    )
    display = to_xml(
        screen_nodes(
            pkg,
            [
                {"text": "Brightness level"},
                {"text": "Screen timeout"},
                {
                    "text": "Dark theme",
                    "id": "android:id/switch_widget",
                    "class": "android.widget.Switch",
                    "checked": False,
                },
            ],
        )
    )
    timeouts = to_xml(
        screen_nodes(pkg, [{"text": t} for t in ("15 seconds", "30 seconds", "10 minutes")])
    )
    fg = {"package": pkg, "activity": ".Settings"}
    steps = [
        {
            "type": "step",
            "index": 0,
            "observation": {
                "ui_xml": main,
                "package": pkg,
                "activity": ".Settings",
                "screenshot": "shots/0.png",
                "time": "2026-05-14T21:40:02",
            },
            "action": {"action_type": "click", "index": 3},
            "thought": "打开 Display — “display”",
            "snapshot": {**_deep(s0), "foreground": fg},
        },
        {
            "type": "step",
            "index": 1,
            "observation": {"ui_xml": display, "package": pkg, "activity": ".DisplaySettings"},
            "action": {"action_type": "click", "x": 540, "y": 545},
            "snapshot": _deep(s0),
        },
        {
            "type": "step",
            "index": 2,
            "observation": {"ui_xml": timeouts, "package": pkg},
            "action": {"action_type": "click", "index": 4},
            "snapshot": _deep(s1),
        },
        {
            "type": "step",
            "index": 3,
            "observation": {"ui_xml": display, "package": pkg},
            "action": {"action_type": "click", "index": 4},
            "snapshot": _deep(s2),
        },
        {
            "type": "step",
            "index": 4,
            "observation": {"ui_xml": display},
            "action": {"action_type": "status", "goal_status": "complete"},
        },
    ]
    final = {"type": "final", "status": "complete", "snapshot": {**_deep(s2), "foreground": fg}}
    goal = (
        "Check the current screen timeout and set it to 10 minutes. Then turn the dark theme on — ✓"
    )
    return [_header(task_id, params, goal), *steps, final]


def wifi_records(task_file: str, task_id: str) -> list[dict[str, Any]]:
    params: dict[str, Any] = {"net": "HomeNet-5G", "wifi_was_on": False}
    s0 = _initial(task_file, params)
    s1 = _deep(s0)
    _settings_path(s1)["wifi"] = True
    s2 = _deep(s1)
    for net in s2["apps"]["settings"]["collections"]["wifi_networks"]:
        if net["ssid"] == "HomeNet-5G":
            net["connected"] = True
    pkg = "com.android.settings"
    activity = ".Settings$NetworkProviderSettingsActivity"
    internet = screen_nodes(
        pkg,
        [
            {
                "text": "Wi‑Fi",
                "id": "android:id/switch_widget",
                "class": "android.widget.Switch",
                "checked": False,
            },
            {"text": "HomeNet-5G"},
            {"text": "Office-Guest"},
        ],
    )
    on = _deep(internet)
    on[2]["checked"] = True
    steps = [
        {
            "type": "step",
            "index": 0,
            "observation": {
                "ui_elements": screen_nodes(pkg, [{"text": "Network & internet"}]),
                "package": pkg,
                "activity": ".Settings",
                "screenshot": "shots/0.png",
            },
            "action": {"action_type": "click", "index": 2},
            "snapshot": _deep(s0),
        },
        {
            "type": "step",
            "index": 1,
            "observation": {
                "ui_elements": internet,
                "package": pkg,
                "activity": activity,
                "screenshot": "shots/1.png",
            },
            "action": {"action_type": "click", "index": 2},
            "snapshot": _deep(s1),
        },
        {
            "type": "step",
            "index": 2,
            "observation": {
                "ui_elements": on,
                "package": pkg,
                "activity": activity,
                "screenshot": "shots/2.png",
            },
            "action": {"action_type": "click", "x": 300.5, "y": 545.0},
            "snapshot": _deep(s2),
        },
        {
            "type": "step",
            "index": 3,
            "observation": {"ui_elements": on, "package": pkg, "activity": activity},
            "action": {"action_type": "status", "goal_status": "complete"},
        },
    ]
    final_snap = {
        **_deep(s2),
        "foreground": {"package": pkg, "activity": activity},
        "ui_elements": on,
    }
    final = {"type": "final", "status": "complete", "snapshot": final_snap}
    return [_header(task_id, params, "Make sure Wi‑Fi is on."), *steps, final]


def timer_records(task_file: str, task_id: str) -> list[dict[str, Any]]:
    params = {"countdown": 600}
    s0 = _initial(task_file, params)
    s1 = _deep(s0)
    s1["apps"]["clock"]["collections"]["timers"] = [
        {"length": 600, "label": "", "state": "running", "remaining": 598}
    ]
    pkg = "com.google.android.deskclock"
    tabs = [{"text": t} for t in ("Alarm", "Clock", "Timer", "Stopwatch")]
    keypad = [{"text": d} for d in "1234567890"] + [
        {"desc": "Start", "class": "android.widget.ImageButton", "id": f"{pkg}:id/fab"}
    ]
    running = [
        {"text": "9:58", "id": f"{pkg}:id/timer_time_text"},
        {"desc": "Pause", "class": "android.widget.ImageButton", "id": f"{pkg}:id/fab"},
    ]
    start_index = len(screen_nodes(pkg, keypad)) - 1
    steps = [
        {
            "type": "step",
            "index": 0,
            "observation": {
                "ui_xml": to_xml(screen_nodes(pkg, tabs)),
                "package": pkg,
                "activity": ".DeskClock",
            },
            "action": {"action_type": "click", "index": 4},
            "snapshot": _deep(s0),
        },
        {
            "type": "step",
            "index": 1,
            "observation": {"ui_xml": to_xml(screen_nodes(pkg, keypad)), "package": pkg},
            "action": {"action_type": "input_text", "text": "1000"},
        },
        {
            "type": "step",
            "index": 2,
            "observation": {"ui_xml": to_xml(screen_nodes(pkg, keypad)), "package": pkg},
            "action": {"action_type": "click", "index": start_index},
        },
        {
            "type": "step",
            "index": 3,
            "observation": {"ui_xml": to_xml(screen_nodes(pkg, running)), "package": pkg},
            "action": {"action_type": "status", "goal_status": "complete"},
            "snapshot": _deep(s1),
        },
    ]
    final_snap = {**_deep(s1), "ui_xml": to_xml(screen_nodes(pkg, running))}
    return [
        _header(task_id, params, "Set a 10-minute timer."),
        *steps,
        {"type": "final", "status": "complete", "snapshot": final_snap},
    ]


# ---------------------------------------------------------------- oracles
_TRUE = {"true", "yes", "on", "1", "enabled"}
_NUMBER = re.compile(r"^\s*[-+]?(\d[\d,]*\.?\d*|\.\d+)\s*$")


def truthy(value: Any) -> bool:
    """True as the `bool` comparator documents it: true, or text/1 reading as true."""
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, str)):
        return " ".join(str(value).split()).casefold() in _TRUE
    return False


def number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return float(value) if abs(value) < 1e300 else None
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, str) and _NUMBER.match(value.replace(",", "")):
        return float(value.replace(",", ""))
    return None


def same_number(a: Any, b: Any) -> bool:
    x, y = number(a), number(b)
    return x is not None and y is not None and abs(x - y) <= 1e-9


def final_state(traj: Trajectory) -> Any:
    if traj.final.snapshot is not None:
        return traj.final.snapshot
    return next((s.snapshot for s in reversed(traj.steps) if s.snapshot is not None), None)


def _setting(traj: Trajectory, app_name: str, name: str, default: Any) -> Any:
    state = final_state(traj)
    if state is None:
        return default
    app_state = state.apps.get(app_name)
    if app_state is None or name not in app_state.settings:
        return default
    return app_state.settings[name]


def _records(traj: Trajectory, app_name: str, name: str) -> list[dict[str, Any]]:
    state = final_state(traj)
    app_state = state.apps.get(app_name) if state is not None else None
    return list(app_state.collections.get(name, [])) if app_state is not None else []


def dark_oracle(traj: Trajectory) -> str | None:
    """Why the final state cannot satisfy settings.enable_dark_theme (None: it may)."""
    if final_state(traj) is None:
        return "no final state"
    if not truthy(_setting(traj, "settings", "dark_theme", False)):
        return "dark theme is not on"
    if not same_number(
        _setting(traj, "settings", "screen_timeout", 30), traj.header.instance.params.get("timeout")
    ):
        return "screen timeout is not the instance's `timeout`"
    if traj.status == "infeasible":
        return "declared infeasible"
    if any(s.action is not None and s.action.action_type == "long_press" for s in traj.steps):
        return "a long press happened"
    return None


def wifi_oracle(traj: Trajectory) -> str | None:
    if final_state(traj) is None:
        return "no final state"
    if not truthy(_setting(traj, "settings", "wifi", True)):
        return "wifi is off"
    net = traj.header.instance.params.get("net")
    if isinstance(net, dict):
        ssid = net.get("ssid")
    else:
        given = traj.header.instance.initial
        known = (
            given.app("settings").collections.get("wifi_networks", [])
            if given is not None
            else [
                {
                    "ssid": "HomeNet-5G",
                    "security": "wpa2",
                    "saved": True,
                    "connected": False,
                    "signal": 4,
                },
                {
                    "ssid": "Office-Guest",
                    "security": "open",
                    "saved": True,
                    "connected": False,
                    "signal": 2,
                },
            ]
        )
        ssid = next((r.get("ssid") for r in known if net in r.values()), None)
    if not isinstance(ssid, str):
        return "no network parameter"
    nets = _records(traj, "settings", "wifi_networks")
    norm = " ".join(ssid.split()).casefold()
    if not any(
        isinstance(r.get("ssid"), (str, int, float))
        and " ".join(str(r.get("ssid")).split()).casefold() == norm
        and truthy(r.get("connected"))
        for r in nets
    ):
        return f"not connected to {ssid}"
    if traj.status != "complete":
        return "status is not `complete`"
    return None


def timer_oracle(traj: Trajectory) -> str | None:
    if final_state(traj) is None:
        return "no final state"
    timers = _records(traj, "clock", "timers")
    if len(timers) != 1:
        return f"{len(timers)} timers"
    countdown = traj.header.instance.params.get("countdown")
    timer = timers[0]
    if not isinstance(timer, dict):
        return "not a record"
    state = timer.get("state")
    if not (isinstance(state, str) and state.strip().casefold() == "running"):
        return "the timer is not running"
    if not same_number(timer.get("length"), countdown):
        return "the timer's length is not `countdown`"
    if traj.status == "infeasible":
        return "declared infeasible"
    return None


def _final_texts(traj: Trajectory) -> list[str] | None:
    """Texts on the final screen as the checker would take it (None: unknown)."""
    state = final_state(traj)
    if state is not None and (state.ui_xml or state.ui_elements):
        if state.ui_xml:
            try:
                root = ElementTree.fromstring(state.ui_xml)
            except (ElementTree.ParseError, ValueError):
                return None
            return [n.get("text", "") for n in root.iter()]
        return [e.text for e in state.ui_elements or []]
    for step in reversed(traj.steps):
        obs = step.observation
        if obs.ui_xml:
            try:
                root = ElementTree.fromstring(obs.ui_xml)
            except (ElementTree.ParseError, ValueError):
                continue
            return [n.get("text", "") for n in root.iter()]
        if obs.ui_elements is not None:
            return [e.text for e in obs.ui_elements]
    return None


def xpath_oracle(traj: Trajectory) -> str | None:
    if final_state(traj) is None:
        return "no final state"
    if not truthy(_setting(traj, "settings", "dark_theme", False)):
        return "dark theme is not on"
    texts = _final_texts(traj)
    if texts is not None and any("Error" in t for t in texts):
        return "an `Error` element is on the final screen"
    return None


# ---------------------------------------------------------------- bases
@dataclass(frozen=True)
class Base:
    name: str
    task_id: str
    build: Callable[[str, str], list[dict[str, Any]]]
    oracle: Callable[[Trajectory], str | None]
    passes: bool
    library: bool = True

    def task_file(self, tmp_dir: Path) -> str:
        if not self.library:
            return str(tmp_dir / "xpath_probe.task")
        return str(next(LIBRARY.rglob(f"{self.task_id}.task")))


BASES = [
    Base(
        "dark",
        "settings.enable_dark_theme",
        lambda f, t: dark_records(f, t, True),
        dark_oracle,
        True,
    ),
    Base(
        "darkfail",
        "settings.enable_dark_theme",
        lambda f, t: dark_records(f, t, False),
        dark_oracle,
        False,
    ),
    Base("wifi", "settings.ensure_wifi_on", wifi_records, wifi_oracle, True),
    Base("timer", "clock.start_timer", timer_records, timer_oracle, True),
    Base(
        "xpath",
        "settings.xpath_probe",
        lambda f, t: dark_records(f, t, True),
        xpath_oracle,
        True,
        library=False,
    ),
]
BASE_BY_NAME = {b.name: b for b in BASES}


@pytest.fixture(scope="session")
def fuzz_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Shared files: the XPath task and a local file an external entity points at."""
    folder = tmp_path_factory.mktemp("traj-fuzz")
    (folder / "xpath_probe.task").write_text(XPATH_TASK, encoding="utf-8")
    (folder / "secret.txt").write_text(SECRET, encoding="utf-8")
    return folder


_BASE_CACHE: dict[str, list[dict[str, Any]]] = {}


def base_records(base: Base, folder: Path) -> list[dict[str, Any]]:
    if base.name not in _BASE_CACHE:
        _BASE_CACHE[base.name] = base.build(base.task_file(folder), base.task_id)
    return copy.deepcopy(_BASE_CACHE[base.name])


def dumps(record: Any) -> str:
    return json.dumps(record, ensure_ascii=False)


def serialize(records: list[Any]) -> bytes:
    return ("\n".join(dumps(r) for r in records) + "\n").encode("utf-8")


# ---------------------------------------------------------------- mutants
@dataclass
class Mutant:
    data: bytes
    expect: str = "any"  # any | reject | valid | instance | fail
    line: int | None = None  # the line a rejection must name, when known
    html: bool = False
    note: str = ""


@dataclass
class Ctx:
    rng: random.Random
    base: Base
    records: list[dict[str, Any]]
    folder: Path

    @property
    def lines(self) -> list[bytes]:
        return serialize(self.records).split(b"\n")[:-1]

    def steps(self) -> list[int]:
        """Line positions (0-based) of step records."""
        return [i for i, r in enumerate(self.records) if r.get("type") == "step"]


def _join(lines: list[bytes]) -> bytes:
    return b"\n".join(lines) + b"\n"


def m_truncate(c: Ctx) -> Mutant:
    data = serialize(c.records)
    cut = c.rng.randrange(0, len(data))
    return Mutant(data[:cut], "reject" if cut < len(data) - 1 else "any", note=f"cut at {cut}")


def m_drop_line(c: Ctx) -> Mutant:
    lines = c.lines
    i = c.rng.randrange(len(lines))
    last_step = c.steps()[-1]
    del lines[i]
    return Mutant(_join(lines), "any" if i == last_step else "reject", note=f"dropped line {i + 1}")


def m_duplicate_line(c: Ctx) -> Mutant:
    lines = c.lines
    i = c.rng.randrange(len(lines))
    lines.insert(i, lines[i])
    return Mutant(_join(lines), "reject", line=i + 2, note=f"duplicated line {i + 1}")


def m_swap_lines(c: Ctx) -> Mutant:
    lines = c.lines
    i, j = sorted(c.rng.sample(range(len(lines)), 2))
    lines[i], lines[j] = lines[j], lines[i]
    # the final record moved up: the line after it is the first wrong one
    line = i + 2 if j == len(lines) - 1 and i > 0 else i + 1
    return Mutant(_join(lines), "reject", line=line, note=f"swapped lines {i + 1} and {j + 1}")


def m_flip_bytes(c: Ctx) -> Mutant:
    data = bytearray(serialize(c.records))
    for _ in range(c.rng.randint(1, 4)):
        k = c.rng.randrange(len(data))
        data[k] ^= c.rng.randint(1, 255)
    return Mutant(bytes(data))


_BAD_UTF8 = [
    b"\xff",
    b"\xfe\xfe",
    b"\xc3(",
    b"\xed\xa0\x80",
    b"\xc0\xaf",
    b"\x80",
    b"\xf8\x88\x80\x80\x80",
    b"\xe2\x82",
]


def m_invalid_utf8(c: Ctx) -> Mutant:
    lines = c.lines
    i = c.rng.randrange(len(lines))
    k = c.rng.randrange(len(lines[i]) + 1)
    lines[i] = lines[i][:k] + c.rng.choice(_BAD_UTF8) + lines[i][k:]
    return Mutant(_join(lines), "reject", line=i + 1, note=f"bad UTF-8 in line {i + 1}")


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out: list[tuple[Any, ...]] = []
    items: list[tuple[Any, Any]] = []
    if isinstance(value, dict):
        items = list(value.items())
    elif isinstance(value, list):
        items = list(enumerate(value))
    for key, child in items:
        out.append((*prefix, key))
        out.extend(_paths(child, (*prefix, key)))
    return out


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        value = value[key]
    return value


def _set(value: Any, path: tuple[Any, ...], new: Any) -> None:
    _get(value, path[:-1])[path[-1]] = new


def _wrong(rng: random.Random, v: Any) -> Any:
    if isinstance(v, bool):
        options: list[Any] = ["true", 1, None, [v], {"v": v}, "yes", 0.0]
    elif isinstance(v, (int, float)):
        options = [str(v), [v], {"v": v}, None, True, "", f"{v}px", -v, v + 0.5]
    elif isinstance(v, str):
        options = [123, [v], {"v": v}, None, False, 1.5, "", v.upper(), " " + v + " "]
    elif isinstance(v, list):
        options = [{"0": v}, "list", 7, None, [v], []]
    elif isinstance(v, dict):
        options = [list(v.values()), [v], "obj", 0, None, {}]
    else:
        options = [0, "", [], {}, False]
    return rng.choice(options)


def m_wrong_type(c: Ctx) -> Mutant:
    i = c.rng.randrange(len(c.records))
    record = c.records[i]
    roll = c.rng.random()
    if roll < 0.08:  # the whole line is JSON but not an object
        lines: list[Any] = list(c.records)
        lines[i] = c.rng.choice([[record], "step", 42, None, True, []])
        return Mutant(serialize(lines), "reject", line=i + 1, note=f"line {i + 1} not an object")
    paths = _paths(record)
    path = c.rng.choice(paths)
    if roll < 0.25 and isinstance(_get(record, path[:-1]), dict):
        del _get(record, path[:-1])[path[-1]]
        return Mutant(serialize(c.records), note=f"line {i + 1}: deleted {path}")
    _set(record, path, _wrong(c.rng, _get(record, path)))
    return Mutant(serialize(c.records), note=f"line {i + 1}: wrong type at {path}")


def m_unknown_action(c: Ctx) -> Mutant:
    i = c.rng.choice([k for k in c.steps() if "action" in c.records[k]])
    kind = c.rng.choice(
        ["tap", "CLICK", "", "click ", "swipe_up", "klick\u200b", "долгое", 0, None]
    )
    c.records[i]["action"]["action_type"] = kind
    return Mutant(serialize(c.records), "reject", line=i + 1, note=f"action type {kind!r}")


def m_unknown_record(c: Ctx) -> Mutant:
    i = c.rng.randrange(1, len(c.records))
    kind = c.rng.choice(["stepp", "Step", "FINAL", "", None, 1, "header", ["step"], "observation"])
    c.records[i]["type"] = kind
    return Mutant(serialize(c.records), "reject", line=i + 1, note=f"record type {kind!r}")


def m_bad_header(c: Ctx) -> Mutant:
    header = c.records[0]
    edit = c.rng.choice(
        ["version", "format", "no-task", "task-int", "type", "unknown-key", "step-first"]
    )
    if edit == "version":
        header["version"] = c.rng.choice([2, 0, "1", None])
        expect = "any" if header["version"] == "1" else "reject"
    elif edit == "format":
        header["format"] = "androidworld.trajectory"
        expect = "reject"
    elif edit == "no-task":
        del header["task"]
        expect = "reject"
    elif edit == "task-int":
        header["task"]["id"] = 42
        expect = "reject"
    elif edit == "type":
        header["type"] = "step"
        expect = "reject"
    elif edit == "unknown-key":
        header["agent"] = "x"
        expect = "reject"
    else:
        c.records.insert(0, c.records.pop(1))
        expect = "reject"
    return Mutant(serialize(c.records), expect, line=1, note=f"header: {edit}")


def m_missing_final(c: Ctx) -> Mutant:
    lines = c.lines[:-1]
    tail = c.rng.choice([b"", b"\n", b"   \n\n"])
    return Mutant(_join(lines) + tail, "reject", line=len(lines), note="no final")


def m_after_final(c: Ctx) -> Mutant:
    lines = c.lines
    blanks = c.rng.randint(0, 2)
    extra = c.rng.choice(
        [lines[-1], lines[-2], lines[0], b"{}", b'{"type": "step", "index": 99}', b"[]", b"garbage"]
    )
    out = lines + [b"  "] * blanks + [extra]
    return Mutant(_join(out), "reject", line=len(lines) + blanks + 1, note="line after final")


_OTHER_TASKS = [
    "clock.start_timer",
    "settings.ensure_wifi_on",
    "maps.place_address",
    "no.such_task",
    "",
    "settings.enable_dark_theme ",
]


def m_other_task(c: Ctx) -> Mutant:
    other = c.rng.choice([t for t in _OTHER_TASKS if t != c.base.task_id])
    c.records[0]["task"]["id"] = other
    return Mutant(serialize(c.records), "instance", note=f"header for task {other!r}")


def m_step_order(c: Ctx) -> Mutant:
    steps = c.steps()
    edit = c.rng.choice(["swap", "shift", "repeat", "negative", "huge", "skip"])
    first_bad = steps[0]
    if edit == "swap":
        a, b = sorted(c.rng.sample(range(len(steps)), 2))
        c.records[steps[a]]["index"], c.records[steps[b]]["index"] = b, a
        first_bad = steps[a]
    elif edit == "shift":
        for n, k in enumerate(steps):
            c.records[k]["index"] = n + 1
    elif edit == "repeat":
        k = c.rng.randrange(1, len(steps))
        c.records[steps[k]]["index"] = k - 1
        first_bad = steps[k]
    elif edit == "negative":
        k = c.rng.randrange(len(steps))
        c.records[steps[k]]["index"] = -1
        first_bad = steps[k]
    elif edit == "huge":
        k = c.rng.randrange(len(steps))
        c.records[steps[k]]["index"] = 2**63
        first_bad = steps[k]
    else:
        k = c.rng.randrange(len(steps))
        for n in range(k, len(steps)):
            c.records[steps[n]]["index"] = n + 1
        first_bad = steps[k]
    return Mutant(serialize(c.records), "reject", line=first_bad + 1, note=f"step order: {edit}")


_MARK = "@@RAW@@"


def _with_raw(records: list[Any], raw: str) -> bytes:
    """Serialize, then put ``raw`` (any JSON text) where the marker string is."""
    return serialize(records).replace(json.dumps(_MARK).encode(), raw.encode("utf-8"))


def _slot(c: Ctx) -> tuple[int, tuple[Any, ...]]:
    """A place for an arbitrary value: free-form fields or a state value."""
    choices: list[tuple[int, tuple[Any, ...]]] = [
        (0, ("extra", "blob")),
        (0, ("instance", "params", "blob")),
    ]
    for k in c.steps():
        choices.append((k, ("extra", "blob")))
        if "snapshot" in c.records[k]:
            app_name = next(iter(c.records[k]["snapshot"]["apps"]))
            choices.append((k, ("snapshot", "apps", app_name, "settings", "blob")))
    choices.append((len(c.records) - 1, ("extra", "blob")))
    return c.rng.choice(choices)


def m_deep_nesting(c: Ctx) -> Mutant:
    depth = c.rng.choice([50, 300, 800, 5000, 100_000])
    shape = c.rng.choice(["list", "dict"])
    raw = "[" * depth + "]" * depth if shape == "list" else '{"a":' * depth + "1" + "}" * depth
    i, path = _slot(c)
    _set_path(c.records[i], path, _MARK)
    expect = "reject" if depth >= 5000 else "any"
    return Mutant(
        _with_raw(c.records, raw),
        expect,
        line=i + 1 if expect == "reject" else None,
        note=f"{shape} nested {depth} deep at line {i + 1} {path}",
    )


def _set_path(record: dict[str, Any], path: tuple[Any, ...], value: Any) -> None:
    target = record
    for key in path[:-1]:
        target = target.setdefault(key, {})
    target[path[-1]] = value


_HUGE = [
    "1e400",
    "-1e400",
    "1" + "0" * 30,
    "-" + "9" * 400,
    "1e308",
    "-0",
    "1E-400",
    "9" * 4400,
    "2e-308",
]
_NAN = ["NaN", "Infinity", "-Infinity"]


def _numeric_paths(c: Ctx) -> list[tuple[int, tuple[Any, ...]]]:
    out = []
    for i, record in enumerate(c.records):
        for path in _paths(record):
            value = _get(record, path)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                out.append((i, path))
    return out


def _raw_number(c: Ctx, tokens: list[str]) -> Mutant:
    i, path = c.rng.choice(_numeric_paths(c))
    _set(c.records[i], path, _MARK)
    token = c.rng.choice(tokens)
    return Mutant(
        _with_raw(c.records, token),
        html=c.rng.random() < 0.5,
        note=f"line {i + 1} {path} = {token[:12]}",
    )


def m_huge_number(c: Ctx) -> Mutant:
    return _raw_number(c, _HUGE)


def m_nan(c: Ctx) -> Mutant:
    return _raw_number(c, _NAN)


def _xml_places(c: Ctx) -> list[tuple[int, tuple[Any, ...]]]:
    places = []
    for i, record in enumerate(c.records):
        for path in _paths(record):
            if path[-1] in ("ui_xml", "ui_elements"):
                places.append((i, path))
    return places


def _bad_xml(c: Ctx) -> str:
    secret = (c.folder / "secret.txt").as_uri()
    good = to_xml(screen_nodes("com.android.settings", [{"text": "Screen timeout"}]))
    laughs = "".join(f'<!ENTITY l{k} "{f"&l{k - 1};" * 10}">' for k in range(1, 9))
    options = [
        good[: c.rng.randrange(1, len(good))],
        "",
        "<",
        "not xml at all",
        "<hierarchy><node></hierarchy>",
        '<hierarchy><node text="a&nbsp;b"/></hierarchy>',
        f'<?xml version="1.0"?><!DOCTYPE h [<!ENTITY x SYSTEM "{secret}">]>'
        '<hierarchy><node text="&x;" content-desc="&x;"/></hierarchy>',
        f'<?xml version="1.0"?><!DOCTYPE h [<!ENTITY l0 "lol">{laughs}]>'
        '<hierarchy><node text="&l8;"/></hierarchy>',
        "<hierarchy>" + "<node>" * 40 + "</node>" * 40 + "</hierarchy>",
        '<hierarchy><node bounds="[a,b][c,d]" checked="maybe" index="x"/></hierarchy>',
        "<?xml version='1.0' encoding='latin-1'?><hierarchy><node text='é'/></hierarchy>",
        "<hierarchy><other/><node/></hierarchy><trailing/>",
        good.replace("<node", "<node\u0000", 1),
        "<hierarchy>\x1b</hierarchy>",
    ]
    return c.rng.choice(options)


def m_bad_ui_xml(c: Ctx) -> Mutant:
    i, path = c.rng.choice(_xml_places(c))
    _get(c.records[i], path[:-1]).pop(path[-1])
    _get(c.records[i], path[:-1])["ui_xml"] = _bad_xml(c)
    return Mutant(
        serialize(c.records), html=c.rng.random() < 0.5, note=f"bad ui_xml at line {i + 1}"
    )


_XPATH_TEXT = [
    "'",
    '"',
    "']",
    "') or ('1'='1",
    '"] | //node[@text="',
    "//node",
    "contains(",
    "\\",
    "&quot;",
    "Screen timeout']",
    "Error",
    "]]>",
    "<node>",
    "\u202eError",
]


def m_xpath_text(c: Ctx) -> Mutant:
    places = _xml_places(c)
    i, path = c.rng.choice(places)
    holder = _get(c.records[i], path[:-1])
    words = [c.rng.choice(_XPATH_TEXT) for _ in range(3)]
    nodes = screen_nodes("com.android.settings", [{"text": w, "desc": w} for w in words])
    if path[-1] == "ui_xml":
        holder["ui_xml"] = to_xml(nodes)
    else:
        holder["ui_elements"] = nodes
    return Mutant(serialize(c.records), note=f"texts {words} at line {i + 1}")


_SHOTS = [
    "missing.png",
    "../../../../etc/passwd",
    "/etc/passwd",
    "/dev/zero",
    ".",
    "",
    "a\u0000b.png",
    "x" * 5000 + ".png",
    "shots/../../secret.txt",
    "file:///etc/passwd",
    "C:\\shots\\0.png",
    "data:image/png;base64,AAAA",
    "/proc/self/environ",
]


def m_screenshot(c: Ctx) -> Mutant:
    for k in c.rng.sample(c.steps(), c.rng.randint(1, 2)):
        c.records[k].setdefault("observation", {})["screenshot"] = c.rng.choice(_SHOTS)
    return Mutant(serialize(c.records), html=True, note="screenshots")


_BOUNDS = [
    [-100, -100, -1, -1],
    [0, 0, 10**15, 10**15],
    [500, 500, 10, 10],
    [0, 0, 0, 0],
    [-(2**31), -(2**31), 2**31, 2**31],
    [0, 0, 1080],
]


def m_bounds(c: Ctx) -> Mutant:
    k = c.rng.choice(c.steps())
    obs = c.records[k].setdefault("observation", {})
    nodes = screen_nodes(
        "com.android.settings", [{"text": "Screen timeout"}, {"text": "Dark theme"}]
    )
    for n in nodes:
        n["bounds"] = c.rng.choice(_BOUNDS)
    use_xml = c.rng.random() < 0.4 and all(len(n["bounds"]) == 4 for n in nodes)
    obs.pop("ui_xml", None)
    obs.pop("ui_elements", None)
    if use_xml:
        obs["ui_xml"] = to_xml(nodes)
    else:
        obs["ui_elements"] = nodes
    if "action" in c.records[k] and c.rng.random() < 0.5:
        c.records[k]["action"] = {
            "action_type": "click",
            "x": c.rng.choice([-5.0, 1e300, 0.0, -1e300]),
            "y": c.rng.choice([-5, 10**12, 0]),
        }
    return Mutant(serialize(c.records), html=True, note=f"bounds at line {k + 1}")


def m_break_goal(c: Ctx) -> Mutant:
    """An edit after which the final state cannot satisfy the task: must not exit 0."""
    edit = c.rng.choice(["state", "status", "params", "no-states"])
    snaps = [r["snapshot"] for r in c.records if isinstance(r.get("snapshot"), dict)]
    if edit == "status" or (edit == "params" and c.base.name in ("wifi", "xpath")):
        c.records[-1]["status"] = "infeasible"
    elif edit == "no-states":
        for r in c.records:
            r.pop("snapshot", None)
    elif edit == "params":
        key = {"timer": "countdown"}.get(c.base.name, "timeout")
        c.records[0]["instance"]["params"][key] = 300
    else:
        for snap in snaps:
            if c.base.name == "timer":
                snap["apps"]["clock"]["collections"]["timers"] = []
            elif c.base.name == "wifi":
                snap["apps"]["settings"]["settings"]["wifi"] = False
            else:
                snap["apps"]["settings"]["settings"]["dark_theme"] = False
    return Mutant(serialize(c.records), "fail", note=f"goal broken: {edit}")


def m_layout(c: Ctx) -> Mutant:
    """Edits that keep the file a valid trajectory: CRLF, blank lines, spaces, last step gone."""
    edit = c.rng.choice(
        ["crlf", "cr", "blank", "spaces", "no-trailing-newline", "drop-last-step", "bom"]
    )
    lines = c.lines
    if edit == "crlf":
        return Mutant(b"\r\n".join(lines) + b"\r\n", "valid", note=edit)
    if edit == "cr":
        return Mutant(b"\r".join(lines) + b"\r", "valid", note=edit)
    if edit == "blank":
        out: list[bytes] = []
        for line in lines:
            out += [b""] * c.rng.randint(0, 2) + [line]
        return Mutant(_join(out), "valid", note=edit)
    if edit == "spaces":
        return Mutant(_join([b"  " + line + b" \t" for line in lines]), "valid", note=edit)
    if edit == "no-trailing-newline":
        return Mutant(b"\n".join(lines), "valid", note=edit)
    if edit == "bom":
        return Mutant(b"\xef\xbb\xbf" + _join(lines), "reject", line=1, note=edit)
    del c.records[c.steps()[-1]]
    return Mutant(serialize(c.records), "valid", note=edit)


def m_empty(c: Ctx) -> Mutant:
    data = c.rng.choice([b"", b"\n", b"   \n\t\n", b"\r\n\r\n"])
    return Mutant(data, "reject", note="empty")


MUTATORS: list[Callable[[Ctx], Mutant]] = [
    m_truncate,
    m_drop_line,
    m_duplicate_line,
    m_swap_lines,
    m_flip_bytes,
    m_flip_bytes,
    m_invalid_utf8,
    m_wrong_type,
    m_wrong_type,
    m_wrong_type,
    m_unknown_action,
    m_unknown_record,
    m_bad_header,
    m_missing_final,
    m_after_final,
    m_other_task,
    m_step_order,
    m_deep_nesting,
    m_huge_number,
    m_nan,
    m_bad_ui_xml,
    m_xpath_text,
    m_screenshot,
    m_bounds,
    m_break_goal,
    m_layout,
    m_empty,
    m_truncate,
    m_wrong_type,
    m_bad_ui_xml,
    m_huge_number,
    m_break_goal,
]


def plan(n: int) -> list[tuple[int, Base, Callable[[Ctx], Mutant]]]:
    """Mutant i: which base and which mutator (the random choices are seeded by i)."""
    out = []
    for i in range(n):
        mutator = MUTATORS[i % len(MUTATORS)]
        base = BASES[(i // len(MUTATORS) + i) % len(BASES)]
        out.append((i, base, mutator))
    return out


PLAN = plan(N_MUTANTS)


def make_mutant(i: int, base: Base, mutator: Callable[[Ctx], Mutant], folder: Path) -> Mutant:
    rng = random.Random(f"{SEED}/{i}")
    return mutator(Ctx(rng, base, base_records(base, folder), folder))


# ---------------------------------------------------------------- judging
@dataclass
class Outcome:
    code: int
    stdout: str
    stderr: str
    crash: str | None = None  # "ExcType: message" of an exception that escaped (in process)


@dataclass
class Judgement:
    problems: list[str] = field(default_factory=list)
    known: list[str] = field(default_factory=list)


# Bugs once found here, by the signature of what escaped, have regression tests below. A
# signature listed in KNOWN_CRASHES is reported as an expected failure; none is known now.
KNOWN_CRASHES: dict[str, str] = {}


def known_crash(text: str) -> str | None:
    return next((bug for sig, bug in KNOWN_CRASHES.items() if sig in text), None)


def judge(
    m: Mutant, base: Base, path: Path, out: Outcome, task_file: str, html: Path | None
) -> Judgement:
    j = Judgement()
    p = j.problems
    shown = out.stdout + out.stderr
    crashed = out.crash or ("internal error" in out.stderr and out.stderr)
    if crashed or "Traceback" in shown:
        text = str(crashed or shown)
        bug = known_crash(text)
        (j.known if bug else p).append(bug or f"crash: {text[-600:]}")
        return j
    if out.code not in (0, 1, 2):
        p.append(f"exit code {out.code}")
        return j
    try:
        traj: Trajectory | None = read_trajectory(path)
        error: TrajectoryError | None = None
    except TrajectoryError as exc:
        traj, error = None, exc
    except Exception as exc:  # a known bug escaping the reader
        bug = known_crash(f"{type(exc).__name__}: {exc}")
        (j.known if bug else p).append(bug or f"read_trajectory raised {exc!r}")
        return j
    where = f"tasklang: error: {path}"
    if error is not None:
        if out.code != 2:
            p.append(f"exit {out.code} for unreadable input ({error})")
        if where not in out.stderr:
            p.append(f"the message does not name the file: {out.stderr!r}")
        if error.line is not None and f"{path}:{error.line}: " not in out.stderr:
            p.append(f"the message does not name line {error.line}: {out.stderr!r}")
        if error.line is None and not re.search(r"empty trajectory|cannot read", error.message):
            p.append(f"no line number in {error.message!r}")
        if m.line is not None and error.line != m.line:
            p.append(f"rejected at line {error.line}, the problem is in line {m.line}: {error}")
        if m.expect in ("valid", "instance", "fail"):
            p.append(f"a valid trajectory was rejected: {error}")
        return j
    assert traj is not None
    if m.expect == "reject":
        p.append("an invalid trajectory was accepted")
    try:
        verdict = check_trajectory(compiled_task(task_file), traj)
    except InstanceError as exc:
        if out.code != 2 or f"{where}:{exc.line}: " not in out.stderr:
            p.append(f"instance error {exc} gave exit {out.code}: {out.stderr!r}")
        return j
    except Exception as exc:
        bug = known_crash(f"{type(exc).__name__}: {exc}")
        (j.known if bug else p).append(bug or f"check_trajectory raised {exc!r}")
        return j
    if m.expect == "instance":
        p.append("a trajectory for another task was checked")
    expected = 0 if verdict.success else 1
    if out.code != expected:
        p.append(f"exit {out.code}, but check_trajectory says success={verdict.success}")
    elif out.stderr.strip():
        p.append(f"unexpected stderr: {out.stderr!r}")
    if out.code == 0:
        if m.expect == "fail":
            p.append(f"silent pass of a goal-breaking edit ({m.note})")
        reason = base.oracle(traj)
        if reason is not None:
            p.append(f"silent pass: exit 0 although {reason}")
    if out.code in (0, 1) and not out.stdout.lstrip().startswith("["):
        mark = "PASS" if out.code == 0 else "FAIL"
        if f"{mark} {path}: task {base.task_id}" not in out.stdout:
            p.append(f"no verdict line in {out.stdout[:300]!r}")
    if out.stdout.lstrip().startswith("["):
        doc = json.loads(out.stdout)
        if [v["success"] for v in doc] != [out.code == 0]:
            p.append("the JSON verdict disagrees with the exit code")
    if SECRET in shown:
        p.append("an external entity's file content leaked into the output")
    if html is not None and out.code in (0, 1):
        if not html.is_file():
            p.append("--html wrote no report")
        else:
            page = html.read_text("utf-8")
            if "</html>" not in page or "Traceback" in page or SECRET in page:
                p.append("the HTML report is incomplete, shows a traceback or leaks a file")
            shots = [s.observation.screenshot for s in traj.steps if s.observation.screenshot]
            if shots and 'class="missing"' not in page:
                p.append("a missing screenshot has no placeholder in the HTML report")
    return j


def run_in_process(args: list[str]) -> Outcome:
    result = CliRunner().invoke(app, args)
    crash = None
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        exc = result.exception
        crash = f"{type(exc).__name__}: {exc}"
    return Outcome(result.exit_code, result.stdout, result.stderr, crash)


def _conclude(j: Judgement, what: str) -> None:
    if j.problems:
        pytest.fail(f"{what}:\n  " + "\n  ".join(j.problems))
    if j.known:
        pytest.xfail("; ".join(sorted(set(j.known))))


# ---------------------------------------------------------------- tests
@pytest.mark.parametrize("name", [b.name for b in BASES])
def test_base_trajectories_are_valid_and_judged_as_intended(
    name: str, fuzz_dir: Path, tmp_path: Path
) -> None:
    base = BASE_BY_NAME[name]
    path = tmp_path / f"{name}.jsonl"
    path.write_bytes(serialize(base_records(base, fuzz_dir)))
    traj = read_trajectory(path)
    verdict = check_trajectory(compiled_task(base.task_file(fuzz_dir)), traj)
    assert (base.oracle(traj) is None) == base.passes
    failed = [(c.id, c.summary) for c in verdict.clauses if not c.passed]
    assert verdict.success == base.passes, (failed, verdict.notes)


@pytest.mark.parametrize(
    ("i", "base", "mutator"),
    PLAN,
    ids=[f"{i:04d}-{b.name}-{m.__name__[2:]}" for i, b, m in PLAN],
)
def test_mutant_in_process(
    i: int, base: Base, mutator: Callable[[Ctx], Mutant], fuzz_dir: Path, tmp_path: Path
) -> None:
    m = make_mutant(i, base, mutator, fuzz_dir)
    path = tmp_path / "trajectory.jsonl"
    path.write_bytes(m.data)
    task_file = base.task_file(fuzz_dir)
    args = ["check", task_file, str(path)]
    html = None
    if HAS_REPORT and (m.html or i % 4 == 0):
        html = tmp_path / "report.html"
        args += ["--html", str(html)]
    elif i % 4 == 1:
        args += ["--format", "json"]
    out = run_in_process(args)
    _conclude(judge(m, base, path, out, task_file, html), f"mutant {i} ({m.note})")


def test_mutants_in_subprocess(fuzz_dir: Path, tmp_path: Path) -> None:
    """A spread of the mutants through a real `python -m tasklang.cli check`."""
    step = max(1, len(PLAN) // max(1, N_SUBPROCESS))
    chosen = PLAN[::step][:N_SUBPROCESS]
    jobs = []
    for i, base, mutator in chosen:
        m = make_mutant(i, base, mutator, fuzz_dir)
        path = tmp_path / f"m{i:04d}.jsonl"
        path.write_bytes(m.data)
        task = base.task_id if base.library and i % 2 == 0 else base.task_file(fuzz_dir)
        args = [sys.executable, "-m", "tasklang.cli", "check", task, str(path)]
        if i % 3 == 0:
            args += ["--format", "json"]
        jobs.append((i, base, m, path, args))
    env = {k: v for k, v in os.environ.items() if k != "TASKLANG_DEBUG"}
    env["PYTHONIOENCODING"] = "utf-8"

    def run(args: list[str]) -> Outcome:
        done = subprocess.run(args, capture_output=True, cwd=REPO, env=env, timeout=120)
        return Outcome(
            done.returncode,
            done.stdout.decode("utf-8", "replace"),
            done.stderr.decode("utf-8", "replace"),
        )

    with ThreadPoolExecutor(max_workers=4) as pool:
        outcomes = list(pool.map(run, [job[4] for job in jobs]))
    problems, known = [], []
    for (i, base, m, path, _), out in zip(jobs, outcomes, strict=True):
        j = judge(m, base, path, out, base.task_file(fuzz_dir), None)
        problems += [f"mutant {i} ({m.note}): {p}" for p in j.problems]
        known += j.known
    assert len(jobs) >= min(N_SUBPROCESS, len(PLAN))
    assert not problems, "\n".join(problems)


def test_mutation_plan_covers_every_mutator() -> None:
    assert len(PLAN) >= min(N_MUTANTS, 300)
    used = {m for _, _, m in PLAN}
    assert used == set(MUTATORS)
    assert {b.name for _, b, _ in PLAN} == set(BASE_BY_NAME)


# ---------------------------------------------------------------- known bugs, minimal
def _write(tmp_path: Path, records: list[Any] | bytes, name: str = "t.jsonl") -> Path:
    path = tmp_path / name
    path.write_bytes(records if isinstance(records, bytes) else serialize(records))
    return path


def _dark_file() -> str:
    return str(LIBRARY / "app" / "settings.enable_dark_theme.task")


def test_jsonl_round_trip_keeps_unicode_line_separators() -> None:
    from tasklang.verifiers.trajectory import Final, Header, Step, TaskRef, parse_trajectory

    traj = Trajectory(
        header=Header(task=TaskRef(id="settings.enable_dark_theme")),
        steps=[Step(index=0, thought="first\u2028second\x85third")],
        final=Final(status="complete"),
    )
    assert parse_trajectory(traj.to_jsonl()).steps[0].thought == "first\u2028second\x85third"


def test_huge_integer_literal_is_a_located_error(fuzz_dir: Path, tmp_path: Path) -> None:
    records = base_records(BASE_BY_NAME["dark"], fuzz_dir)
    records[1]["extra"] = {"n": _MARK}
    path = _write(tmp_path, _with_raw(records, "9" * 5000))
    out = run_in_process(["check", _dark_file(), str(path)])
    assert out.crash is None, out.crash
    assert out.code == 2 and f"{path}:2: " in out.stderr


def test_state_value_beyond_float_range_does_not_crash(fuzz_dir: Path, tmp_path: Path) -> None:
    records = base_records(BASE_BY_NAME["dark"], fuzz_dir)
    records[-1]["snapshot"]["apps"]["settings"]["settings"]["screen_timeout"] = 10**400
    path = _write(tmp_path, records)
    out = run_in_process(["check", _dark_file(), str(path)])
    assert out.crash is None, out.crash
    assert out.code == 1


@pytest.mark.skipif(not HAS_REPORT, reason="no HTML report module")
def test_bounds_beyond_any_screen_are_rejected_with_the_line(
    fuzz_dir: Path, tmp_path: Path
) -> None:
    records = base_records(BASE_BY_NAME["dark"], fuzz_dir)
    records[2]["observation"] = {
        "ui_elements": [{"index": 0, "text": "x", "bounds": [0, 0, 10**400, 1]}]
    }
    path = _write(tmp_path, records)
    out = run_in_process(["check", _dark_file(), str(path), "--html", str(tmp_path / "r.html")])
    assert out.crash is None, out.crash
    # Coordinates beyond any screen are rejected where they are read, with the line.
    assert out.code == 2
    assert f"{path}:3: " in out.stderr, out.stderr


def test_lone_surrogate_in_ui_xml_does_not_crash(fuzz_dir: Path, tmp_path: Path) -> None:
    records = base_records(BASE_BY_NAME["dark"], fuzz_dir)
    records[2]["observation"]["ui_xml"] = '<hierarchy><node text="\ud800"/></hierarchy>'
    path = _write(
        tmp_path,
        json.dumps(records[0]).encode()
        + b"\n"
        + b"\n".join(json.dumps(r).encode() for r in records[1:])
        + b"\n",
    )
    out = run_in_process(["check", _dark_file(), str(path)])
    assert out.crash is None, out.crash
    assert out.code in (0, 1)


@pytest.mark.skipif(not HAS_REPORT, reason="no HTML report module")
def test_lone_surrogate_in_thought_does_not_crash_html(fuzz_dir: Path, tmp_path: Path) -> None:
    records = base_records(BASE_BY_NAME["dark"], fuzz_dir)
    records[2]["thought"] = "\ud800"
    path = _write(tmp_path, b"".join(json.dumps(r).encode() + b"\n" for r in records))
    out = run_in_process(["check", _dark_file(), str(path), "--html", str(tmp_path / "r.html")])
    assert out.crash is None, out.crash
    assert out.code == 0


def test_xpath_task_file(fuzz_dir: Path) -> None:
    assert compiled_task(str(fuzz_dir / "xpath_probe.task")).task.id == "settings.xpath_probe"


def test_xpath_selector_selects_nodes() -> None:
    from tasklang.verifiers.ui import Screen

    nodes = screen_nodes("com.android.settings", [{"text": f"row {k}"} for k in range(28)])
    screen = Screen.from_parts(to_xml(nodes), None)
    assert screen.xpath_indices("//node") == set(range(30))
    assert screen.xpath_indices("//node[@text='row 3']") == {5}


def test_no_element_xpath_fails_when_the_element_is_shown(fuzz_dir: Path, tmp_path: Path) -> None:
    records = base_records(BASE_BY_NAME["xpath"], fuzz_dir)
    error = [{"text": "Error: could not save"}] + [{"text": f"row {k}"} for k in range(6)]
    records[-1]["snapshot"]["ui_xml"] = to_xml(screen_nodes("com.android.settings", error))
    path = _write(tmp_path, records)
    traj = read_trajectory(path)
    verdict = check_trajectory(compiled_task(str(fuzz_dir / "xpath_probe.task")), traj)
    clause = next(c for c in verdict.clauses if c.kind == "ui_element")
    assert not clause.passed, clause.summary


@pytest.mark.parametrize(
    "xml",
    [
        "<hierarchy>" + "<node>" * 300 + "</node>" * 300 + "</hierarchy>",
        "<?xml version='1.0' encoding='latin-1'?><hierarchy><node text='Error'/></hierarchy>",
    ],
    ids=["nested-300", "latin-1"],
)
def test_ui_xml_lxml_refuses_does_not_crash_an_xpath_selector(
    xml: str, fuzz_dir: Path, tmp_path: Path
) -> None:
    records = base_records(BASE_BY_NAME["xpath"], fuzz_dir)
    records[-1]["snapshot"]["ui_xml"] = xml
    path = _write(tmp_path, records)
    out = run_in_process(["check", str(fuzz_dir / "xpath_probe.task"), str(path)])
    assert out.crash is None, out.crash
    assert out.code in (0, 1)


def test_list_valued_parameter_does_not_pass(fuzz_dir: Path, tmp_path: Path) -> None:
    records = base_records(BASE_BY_NAME["dark"], fuzz_dir)
    records[0]["instance"]["params"]["timeout"] = [600]
    path = _write(tmp_path, records)
    out = run_in_process(["check", _dark_file(), str(path)])
    assert out.code != 0, out.stdout


def test_other_task_header_names_the_line(fuzz_dir: Path, tmp_path: Path) -> None:
    records = base_records(BASE_BY_NAME["dark"], fuzz_dir)
    records[0]["task"]["id"] = "clock.start_timer"
    path = _write(tmp_path, records)
    out = run_in_process(["check", _dark_file(), str(path)])
    assert out.code == 2
    assert f"tasklang: error: {path}:1: " in out.stderr, out.stderr


def test_external_entity_is_not_resolved(fuzz_dir: Path, tmp_path: Path) -> None:
    records = base_records(BASE_BY_NAME["wifi"], fuzz_dir)
    secret = (fuzz_dir / "secret.txt").as_uri()
    xml = (
        f'<?xml version="1.0"?><!DOCTYPE h [<!ENTITY x SYSTEM "{secret}">]>'
        '<hierarchy><node text="&x;" resource-id="android:id/switch_widget" checked="true"/></hierarchy>'
    )
    final = records[-1]["snapshot"]
    final.pop("ui_elements")
    final["ui_xml"] = xml
    path = _write(tmp_path, records)
    out = run_in_process(
        [
            "check",
            str(LIBRARY / "app" / "settings.ensure_wifi_on.task"),
            str(path),
            "--format",
            "json",
        ]
    )
    assert out.crash is None and out.code in (0, 1)
    assert SECRET not in out.stdout + out.stderr


def test_judge_flags_crashes_silent_passes_and_unlocated_errors(
    fuzz_dir: Path, tmp_path: Path
) -> None:
    """The harness itself: a fake traceback, silent pass or unlocated message is caught."""
    base = BASE_BY_NAME["dark"]
    task_file = base.task_file(fuzz_dir)
    broken = make_mutant(0, base, m_break_goal, fuzz_dir)
    path = _write(tmp_path, broken.data)
    verdict_line = f"PASS {path}: task {base.task_id}, score 1.000"
    fake_pass = Outcome(0, verdict_line, "")
    assert any(
        "silent pass" in p for p in judge(broken, base, path, fake_pass, task_file, None).problems
    )
    crash = Outcome(1, "", "Traceback (most recent call last):\n  KeyError: 'x'")
    assert judge(broken, base, path, crash, task_file, None).problems
    bad = _write(tmp_path, b'{"type": "header"}\nnot json\n', "bad.jsonl")
    unlocated = Outcome(2, "", f"tasklang: error: {bad}: not valid JSON\n")
    assert any(
        "line 2" in p for p in judge(Mutant(b""), base, bad, unlocated, task_file, None).problems
    )


# ---------------------------------------------------------------- verdict bugs met on the way
def test_then_accepts_the_change_seen_in_the_same_steps_snapshot(fuzz_dir: Path) -> None:
    base = BASE_BY_NAME["timer"]
    records = base_records(base, fuzz_dir)
    assert records[3]["action"]["action_type"] == "click"  # step 2 taps Start
    records[3]["snapshot"] = copy.deepcopy(records[4]["snapshot"])  # the timer runs after it
    path_text = serialize(records).decode("utf-8")
    from tasklang.verifiers.trajectory import parse_trajectory

    verdict = check_trajectory(compiled_task(base.task_file(fuzz_dir)), parse_trajectory(path_text))
    failed = [(c.id, c.summary) for c in verdict.clauses if not c.passed]
    assert verdict.success, failed


def test_reply_unread_can_pass() -> None:
    from tasklang.verifiers.trajectory import parse_trajectory

    task_file = str(LIBRARY / "app" / "messages.reply_unread.task")
    compiled = compiled_task(task_file)
    address = "+44 7700 900123"
    params = {"thread": address, "reply": "On my way!", "got_at": "2026-05-14T08:10:00"}
    before = _initial(task_file, params)
    after = copy.deepcopy(before)
    coll = after["apps"]["messages"]["collections"]
    coll["sent"].append(
        {"to": address, "body": "On my way!", "timestamp": "2026-05-14T09:31:00",
         "status": "sent", "mms": False}
    )  # fmt: skip
    for message in coll["received"]:
        message["read"] = True
    for thread in coll["threads"]:
        thread["unread"] = False
    pkg = "com.simplemobiletools.smsmessenger"
    records = [
        _header(compiled.task.id, params, "Reply"),
        {"type": "step", "index": 0, "observation": {"package": pkg},
         "action": {"action_type": "input_text", "text": "On my way!"}, "snapshot": before},
        {"type": "step", "index": 1, "observation": {"package": pkg},
         "action": {"action_type": "click", "index": 3}, "snapshot": after},
        {"type": "final", "status": "complete", "snapshot": after},
    ]  # fmt: skip
    verdict = check_trajectory(compiled, parse_trajectory(serialize(records).decode("utf-8")))
    failed = [
        (c.id, c.summary, [e.detail for e in c.evidence]) for c in verdict.clauses if not c.passed
    ]
    assert verdict.success, failed
