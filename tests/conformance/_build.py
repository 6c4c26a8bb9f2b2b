"""Build the verifier conformance cases: ``python tests/conformance/_build.py``.

Every case is a folder ``tests/conformance/<case>/`` with

- ``task.task`` (a small task on the bundled app models) or ``task_id.txt`` (a library task),
- ``trajectory.jsonl`` (the episode, in the trajectory format of ``verifiers/trajectory.py``),
- ``expected.json``: ``{"success", "score", "clauses": {"c1": true, ...}, "why"}`` and, for a
  case that records a verifier bug, ``"xfail": "<reason>"``.

The expected verdicts are written from the contract in ``docs/language.md`` (and the
comparators' documented rules), never copied from the verifier's output. A case marked
``xfail`` holds the *correct* verdict; ``tests/test_conformance.py`` marks it
``xfail(strict=True)`` so that the case starts failing loudly once the bug is fixed.

Final snapshots are written by hand: records get their model defaults from the compiled app
models (``rec``), so a record the agent did not touch is the same JSON as in the initial state
that ``given`` describes.
"""

from __future__ import annotations

import functools
import json
import shutil
import sys
import textwrap
from pathlib import Path
from typing import Any
from xml.sax.saxutils import quoteattr

HERE = Path(__file__).resolve().parent

# ------------------------------------------------------------------ app models and records
_MODELS: dict[str, Any] = {}


def models() -> dict[str, Any]:
    """The bundled app models, as the compiler reads them."""
    if not _MODELS:
        from tasklang.compiler import Compiler

        stub = 'task stub.models { kind app apps settings goal "x" expect { settings.wifi } }'
        _MODELS.update(Compiler().compile_text(stub).apps)
    return _MODELS


def rec(app: str, collection: str, **fields: Any) -> dict[str, Any]:
    """A record of ``app.collection`` with every field its model declares (defaults filled)."""
    model = models()[app]
    rdef = model.record(model.collection(collection).record)
    names = {f.name for f in rdef.fields}
    unknown = set(fields) - names
    assert not unknown, f"{app}.{collection} has no field(s) {unknown}"
    out = {f.name: (f.default if f.has_default else None) for f in rdef.fields}
    out.update(fields)
    return out


def snap(
    apps: dict[str, Any] | None = None,
    clock: str | None = None,
    fg: tuple[str, str | None] | None = None,
    ui_xml: str | None = None,
    ui_elements: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """A world snapshot: ``apps`` maps an app to {"collections": ..., "settings": ...}."""
    out: dict[str, Any] = {"apps": apps or {}}
    if clock is not None:
        out["clock"] = clock
    if fg is not None:
        out["foreground"] = {"package": fg[0], "activity": fg[1]}
    if ui_xml is not None:
        out["ui_xml"] = ui_xml
    if ui_elements is not None:
        out["ui_elements"] = ui_elements
    return out


def app_state(
    collections: dict[str, list[dict[str, Any]]] | None = None,
    settings: dict[str, Any] | None = None,
) -> dict[str, Any]:
    return {"collections": collections or {}, "settings": settings or {}}


# ------------------------------------------------------------------ uiautomator XML
def n(
    cls: str,
    bounds: tuple[int, int, int, int],
    text: str = "",
    rid: str = "",
    desc: str = "",
    kids: tuple[dict[str, Any], ...] = (),
    **flags: bool,
) -> dict[str, Any]:
    """One uiautomator node (``flags``: checkable, checked, clickable, enabled, ...)."""
    return {
        "class": cls,
        "bounds": bounds,
        "text": text,
        "rid": rid,
        "desc": desc,
        "kids": kids,
        "flags": flags,
    }


_FLAGS = (
    "checkable",
    "checked",
    "clickable",
    "enabled",
    "focusable",
    "focused",
    "scrollable",
    "long-clickable",
    "password",
    "selected",
)


def _render(node: dict[str, Any], pkg: str, sibling: int, depth: int) -> str:
    flags = {k.replace("_", "-"): v for k, v in node["flags"].items()}
    flags.setdefault("enabled", True)
    left, top, right, bottom = node["bounds"]
    attrs = [
        ("index", str(sibling)),
        ("text", node["text"]),
        ("resource-id", node["rid"]),
        ("class", node["class"]),
        ("package", pkg),
        ("content-desc", node["desc"]),
    ]
    attrs += [(f, "true" if flags.get(f, False) else "false") for f in _FLAGS]
    attrs.append(("bounds", f"[{left},{top}][{right},{bottom}]"))
    head = " ".join(f"{k}={quoteattr(v)}" for k, v in attrs)
    pad = "  " * depth
    if not node["kids"]:
        return f"{pad}<node {head} />"
    inner = "\n".join(_render(k, pkg, i, depth + 1) for i, k in enumerate(node["kids"]))
    return f"{pad}<node {head}>\n{inner}\n{pad}</node>"


def ui(pkg: str, *kids: dict[str, Any]) -> str:
    """A ``uiautomator dump``: a full-screen FrameLayout (element 0) holding ``kids``."""
    root = n("android.widget.FrameLayout", (0, 0, 1080, 2400), kids=kids)
    body = _render(root, pkg, 0, 1)
    return (
        "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n"
        f'<hierarchy rotation="0">\n{body}\n</hierarchy>'
    )


SETTINGS = "com.android.settings"
MESSAGES = "com.simplemobiletools.smsmessenger"
CLOCK = "com.google.android.deskclock"
WECHAT = "com.tencent.mm"
MAPS = "com.google.android.apps.maps"
CONTACTS = "com.simplemobiletools.contacts.pro"
FILES = "com.google.android.documentsui"
LAUNCHER = "com.google.android.apps.nexuslauncher"
DISPLAY_ACTIVITY = "com.android.settings/.Settings$DisplaySettingsActivity"


def settings_display(
    dark_on: bool = True,
    switch_enabled: bool = True,
    banner: bool = False,
    search_focused: bool = True,
    tab_selected: bool = True,
) -> str:
    """Settings > Display. Elements: 0 root, 1 Navigate up, 2 "Display" tab, 3 search field,
    4 list, 5-8 Dark theme row (8 the switch), 9-11 Screen timeout row, 12-13 Brightness,
    14 the airplane-mode banner (when shown)."""
    kids = [
        n("android.widget.ImageButton", (0, 84, 147, 231), desc="Navigate up", clickable=True),
        n(
            "android.widget.TextView",
            (189, 112, 400, 203),
            text="Display",
            rid="com.android.settings:id/tab_title",
            selected=tab_selected,
        ),
        n(
            "android.widget.EditText",
            (189, 250, 1040, 360),
            text="Search settings",
            rid="com.android.settings:id/search_src_text",
            clickable=True,
            focusable=True,
            focused=search_focused,
        ),
        n(
            "androidx.recyclerview.widget.RecyclerView",
            (0, 400, 1080, 2200),
            rid="com.android.settings:id/recycler_view",
            scrollable=True,
            kids=(
                n(
                    "android.widget.LinearLayout",
                    (0, 400, 1080, 600),
                    clickable=True,
                    kids=(
                        n(
                            "android.widget.TextView",
                            (63, 440, 700, 500),
                            text="Dark theme",
                            rid="android:id/title",
                        ),
                        n(
                            "android.widget.TextView",
                            (63, 500, 700, 560),
                            text="Will never turn on automatically",
                            rid="android:id/summary",
                        ),
                        n(
                            "android.widget.Switch",
                            (912, 460, 1017, 540),
                            rid="com.android.settings:id/switch_widget",
                            checkable=True,
                            checked=dark_on,
                            clickable=True,
                            focusable=True,
                            enabled=switch_enabled,
                        ),
                    ),
                ),
                n(
                    "android.widget.LinearLayout",
                    (0, 600, 1080, 800),
                    clickable=True,
                    kids=(
                        n(
                            "android.widget.TextView",
                            (63, 640, 700, 700),
                            text="Screen timeout",
                            rid="android:id/title",
                        ),
                        n(
                            "android.widget.TextView",
                            (63, 700, 700, 760),
                            text="After 30 seconds of inactivity",
                            rid="android:id/summary",
                        ),
                    ),
                ),
                n(
                    "android.widget.LinearLayout",
                    (0, 800, 1080, 1000),
                    clickable=True,
                    kids=(
                        n(
                            "android.widget.TextView",
                            (63, 840, 700, 900),
                            text="Brightness level",
                            rid="android:id/title",
                        ),
                    ),
                ),
            ),
        ),
    ]
    if banner:
        kids.append(
            n(
                "android.widget.TextView",
                (0, 2200, 1080, 2400),
                text="Airplane mode is on",
                rid="com.android.settings:id/banner_title",
            )
        )
    return ui(SETTINGS, *kids)


SEND_BOUNDS = (936, 2200, 1060, 2320)


def messages_compose(draft: str = "", sent: str | None = None, title: str = "Priya") -> str:
    """A conversation: 0 root, 1 title, 2 message field, 3 Send button [936,2200][1060,2320],
    4 the last sent message (when given)."""
    kids = [
        n(
            "android.widget.TextView",
            (189, 112, 900, 203),
            text=title,
            rid=f"{MESSAGES}:id/thread_toolbar_title",
        ),
        n(
            "android.widget.EditText",
            (42, 2200, 900, 2320),
            text=draft or "Type a message",
            rid=f"{MESSAGES}:id/thread_type_message",
            clickable=True,
            focusable=True,
            focused=bool(draft),
        ),
        n(
            "android.widget.ImageButton",
            SEND_BOUNDS,
            desc="Send",
            rid=f"{MESSAGES}:id/thread_send_message",
            clickable=True,
        ),
    ]
    if sent is not None:
        kids.append(
            n(
                "android.widget.TextView",
                (300, 1900, 1040, 2000),
                text=sent,
                rid=f"{MESSAGES}:id/thread_message_body",
            )
        )
    return ui(MESSAGES, *kids)


def messages_list() -> str:
    return ui(
        MESSAGES,
        n(
            "androidx.recyclerview.widget.RecyclerView",
            (0, 250, 1080, 2400),
            rid=f"{MESSAGES}:id/conversations_list",
            scrollable=True,
            kids=(
                n(
                    "android.widget.LinearLayout",
                    (0, 250, 1080, 450),
                    clickable=True,
                    kids=(
                        n(
                            "android.widget.TextView",
                            (200, 280, 900, 350),
                            text="Priya Shah",
                            rid=f"{MESSAGES}:id/conversation_address",
                        ),
                        n(
                            "android.widget.TextView",
                            (200, 350, 900, 420),
                            text="Are we still on for lunch?",
                            rid=f"{MESSAGES}:id/conversation_body_short",
                        ),
                    ),
                ),
            ),
        ),
    )


START_BOUNDS = (450, 1900, 630, 2080)


def clock_timer(running: bool = False, time_text: str = "10:00") -> str:
    """The Timer tab: 0 root, 1 "Timer" tab, 2 the time, 3 Start/Pause, 4 the "10 min" preset."""
    return ui(
        CLOCK,
        n("android.widget.TextView", (540, 2250, 810, 2400), text="Timer", selected=True),
        n(
            "android.widget.TextView",
            (200, 800, 880, 1000),
            text=time_text,
            rid=f"{CLOCK}:id/timer_time_text",
        ),
        n(
            "android.widget.ImageButton",
            START_BOUNDS,
            desc="Pause" if running else "Start",
            rid=f"{CLOCK}:id/fab",
            clickable=True,
        ),
        n("android.widget.Button", (100, 1500, 400, 1600), text="10 min", clickable=True),
    )


TRANSFER_BOUNDS = (100, 1800, 980, 1940)


def wechat_transfer(failed: bool = False) -> str:
    """Transfer page: 0 root, 1 title, 2 amount, 3 Transfer button, 4 "Payment failed"."""
    kids = [
        n("android.widget.TextView", (40, 112, 1040, 203), text="Transfer to Lily"),
        n(
            "android.widget.EditText",
            (100, 600, 980, 760),
            text="12.50",
            rid=f"{WECHAT}:id/amount_edit",
            focusable=True,
        ),
        n(
            "android.widget.Button",
            TRANSFER_BOUNDS,
            text="Transfer",
            rid=f"{WECHAT}:id/transfer_btn",
            clickable=True,
        ),
    ]
    if failed:
        kids.append(n("android.widget.TextView", (100, 1000, 980, 1100), text="Payment failed"))
    return ui(WECHAT, *kids)


def maps_place() -> str:
    return ui(
        MAPS,
        n(
            "android.widget.TextView",
            (40, 1400, 1040, 1500),
            text="Ferry Building",
            rid=f"{MAPS}:id/title",
        ),
        n(
            "android.widget.TextView",
            (40, 1500, 1040, 1580),
            text="1 Ferry Building, San Francisco, CA 94111",
            rid=f"{MAPS}:id/address",
        ),
    )


def end(pkg: str) -> dict[str, Any]:
    """A final snapshot that records only the foreground app (enough for answer checks)."""
    return snap(fg=(pkg, None))


def launcher() -> str:
    return ui(
        LAUNCHER,
        n(
            "android.widget.TextView",
            (60, 1800, 260, 2000),
            text="Settings",
            desc="Settings",
            clickable=True,
        ),
        n(
            "android.widget.TextView",
            (300, 1800, 500, 2000),
            text="Clock",
            desc="Clock",
            clickable=True,
        ),
    )


# ------------------------------------------------------------------ actions and steps
def act(kind: str, **fields: Any) -> dict[str, Any]:
    return {"action_type": kind, **fields}


def tap(x: float | None = None, y: float | None = None, index: int | None = None) -> dict:
    if index is not None:
        return act("click", index=index)
    return act("click", x=x, y=y)


def center(b: tuple[int, int, int, int]) -> dict[str, float]:
    return {"x": (b[0] + b[2]) / 2, "y": (b[1] + b[3]) / 2}


def step(
    action: dict[str, Any] | None,
    xml: str | None = None,
    pkg: str | None = None,
    activity: str | None = None,
    state: dict[str, Any] | None = None,
    elements: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    obs: dict[str, Any] = {}
    if xml is not None:
        obs["ui_xml"] = xml
    if elements is not None:
        obs["ui_elements"] = elements
    if pkg is not None:
        obs["package"] = pkg
    if activity is not None:
        obs["activity"] = activity
    out: dict[str, Any] = {"type": "step", "observation": obs}
    if action is not None:
        out["action"] = action
    if state is not None:
        out["snapshot"] = state
    return out


# ------------------------------------------------------------------ cases
CASES: list[dict[str, Any]] = []


def case(
    name: str,
    *,
    task: str | None = None,
    task_id: str | None = None,
    params: dict[str, Any] | None = None,
    initial: dict[str, Any] | None = None,
    steps: list[dict[str, Any]] | tuple[dict[str, Any], ...] = (),
    final: dict[str, Any] | None = None,
    status: str | None = None,
    answer: str | None = None,
    success: bool,
    clauses: dict[str, bool],
    why: str,
    score: float | None = None,
    violations: list[str] | None = None,
    xfail: str | None = None,
) -> None:
    assert (task is None) != (task_id is None), name
    assert all(c["name"] != name for c in CASES), f"duplicate case {name}"
    CASES.append(dict(locals()))


def T(text: str) -> str:
    return textwrap.dedent(text).strip() + "\n"


# ==== state checks: comparison operators ==========================================
NUMERIC = T("""
    task conformance.numeric_operators {
      kind app
      apps settings
      goal "Set the brightness to 80% and the ring volume to 3; keep the media volume at 8."
      given {
        settings.brightness = 40
        settings.ring_volume = 5
        settings.media_volume = 8
      }
      expect {
        settings.brightness == 80
        settings.brightness >= 80
        settings.brightness > 79
        settings.brightness <= 80
        settings.brightness < 81
        settings.ring_volume != 5
        settings.media_volume == 8
      }
      budget 10 steps
    }
""")


def settings_final(**values: Any) -> dict[str, Any]:
    return snap({"settings": app_state(settings=values)}, fg=(SETTINGS, DISPLAY_ACTIVITY))


case(
    "check_numeric_operators_pass",
    task=NUMERIC,
    steps=[step(act("scroll", direction="down"), settings_display(), SETTINGS)],
    final=settings_final(brightness=80, ring_volume=3, media_volume=8),
    status="complete",
    success=True,
    score=1.0,
    clauses={f"c{i}": True for i in range(1, 8)},
    why="brightness 80 satisfies ==, >=, > 79, <= 80 and < 81; ring 3 != 5; media stays 8.",
)
case(
    "check_numeric_operators_boundaries",
    task=NUMERIC,
    final=settings_final(brightness=81, ring_volume=5, media_volume=8),
    status="complete",
    success=False,
    score=round(3 / 7, 6),
    clauses={
        "c1": False,
        "c2": True,
        "c3": True,
        "c4": False,
        "c5": False,
        "c6": False,
        "c7": True,
    },
    why="brightness 81 is one over: == 80, <= 80 and < 81 fail while >= 80 and > 79 hold; "
    "the ring volume was left at 5.",
)

TEXT_OPS = T("""
    task conformance.text_operators {
      kind app
      apps contacts
      goal "Save Ada Park from Acme Corp. in the Family group, and in the Climbing group."
      expect {
        exists contacts.people where name == "  ada   PARK "
        exists contacts.people where name == "Ada Park" exact
        exists contacts.people where "Park" in name
        exists contacts.people where name contains "Ada"
        exists contacts.groups where members contains "Ada Park"
        exists contacts.groups where "Ada Park" in members
        exists contacts.people where group in ["family", "friends"]
        exists contacts.people where group != "work"
        exists contacts.people where name matches "^[A-Z][a-z]+ [A-Z][a-z]+$"
        exists contacts.people where company ~ "acme corp"
        exists contacts.people where email matches "@example\\\\.com$"
      }
      budget 20 steps
    }
""")


def ada(**fields: Any) -> dict[str, Any]:
    base = {"name": "Ada Park", "phone": "+1 415 555 0134"}
    base.update(fields)
    return rec("contacts", "people", **base)


def bob(**fields: Any) -> dict[str, Any]:
    base = {"name": "Bob Lindqvist", "phone": "+1 628 555 0142"}
    base.update(fields)
    return rec("contacts", "people", **base)


def contacts_final(people: list[dict[str, Any]], groups=None, **settings: Any) -> dict:
    colls: dict[str, Any] = {"people": people}
    if groups is not None:
        colls["groups"] = groups
    return snap({"contacts": app_state(colls, settings)}, fg=(CONTACTS, None))


case(
    "check_text_operators_pass",
    task=TEXT_OPS,
    final=contacts_final(
        [
            ada(
                company="Acme Corp.",
                group="family",
                email="ada@example.com",
            ),
        ],
        groups=[rec("contacts", "groups", title="Climbing", members=["Ada Park", "Bo Chen"])],
    ),
    success=True,
    score=1.0,
    clauses={f"c{i}": True for i in range(1, 12)},
    why="normalized ==, exact ==, substring in/contains, list contains/in, enum in a list, "
    "!=, matches and ~ all hold for the saved contact.",
)
case(
    "check_text_operators_near_miss",
    task=TEXT_OPS,
    final=contacts_final(
        [
            ada(
                name="Ada  Park",
                company="Apex Group",
                group="work",
                email="ada@example.org",
            ),
        ],
        groups=[rec("contacts", "groups", title="Climbing", members=["Ada Park"])],
    ),
    success=False,
    score=round(5 / 11, 6),
    clauses={
        "c1": True,
        "c2": False,
        "c3": True,
        "c4": True,
        "c5": True,
        "c6": True,
        "c7": False,
        "c8": False,
        "c9": False,
        "c10": False,
        "c11": False,
    },
    why="a doubled space passes normalized == but not exact == or the regex; the wrong "
    "group, company and e-mail domain fail their checks.",
)

# ==== comparison options ==========================================================
WITHIN_NUMBER = T("""
    task conformance.within_number {
      kind app
      apps clock
      goal "Set the alarm volume to about 6 and the snooze length to 10 minutes."
      expect {
        clock.alarm_volume == 6 within 1
        clock.snooze_length == 10m within 30s
        clock.silence_after == 10m
      }
      budget 10 steps
    }
""")


def clock_final(alarms=None, timers=None, **settings: Any) -> dict[str, Any]:
    colls: dict[str, Any] = {}
    if alarms is not None:
        colls["alarms"] = alarms
    if timers is not None:
        colls["timers"] = timers
    return snap({"clock": app_state(colls, settings)}, fg=(CLOCK, None))


case(
    "option_within_number_pass",
    task=WITHIN_NUMBER,
    final=clock_final(alarm_volume=7, snooze_length=620, silence_after=600),
    success=True,
    score=1.0,
    clauses={"c1": True, "c2": True, "c3": True},
    why="7 is within 1 of 6 and 10m20s within 30s of 10m.",
)
case(
    "option_within_number_near_miss",
    task=WITHIN_NUMBER,
    final=clock_final(alarm_volume=8, snooze_length=640, silence_after=600),
    success=False,
    score=round(1 / 3, 6),
    clauses={"c1": False, "c2": False, "c3": True},
    why="8 is 2 away from 6 (tolerance 1) and 10m40s is 40s away from 10m (tolerance 30s).",
)

ALARM_NEAR_SEVEN = T("""
    task conformance.alarm_near_seven {
      kind app
      apps clock
      goal "Set an alarm for 7:00."
      given { clock.alarms = [] }
      expect {
        exists clock.alarms where time == 07:00 within 1m
        only clock.alarms changed
      }
      budget 10 steps
    }
""")
case(
    "within_time_30s_pass",
    task=ALARM_NEAR_SEVEN,
    final=clock_final([rec("clock", "alarms", time="06:59:30")]),
    success=True,
    score=1.0,
    clauses={"c1": True, "c2": True},
    why="06:59:30 is 30 seconds from 07:00, inside `within 1m`.",
)
case(
    "within_time_2min_fail",
    task=ALARM_NEAR_SEVEN,
    final=clock_final([rec("clock", "alarms", time="07:02:00")]),
    success=False,
    score=0.5,
    clauses={"c1": False, "c2": True},
    why="07:02 is 2 minutes from 07:00, outside `within 1m`.",
)

LIST_EXACT = T("""
    task conformance.list_and_text_options {
      kind app
      apps clock
      goal "Set a weekday alarm at 07:00 labelled 'Stand-up'."
      expect {
        exists clock.alarms where repeat == ["mon", "tue", "wed", "thu", "fri"] unordered
        exists clock.alarms where repeat == ["mon", "tue", "wed", "thu", "fri"]
        exists clock.alarms where label == "Stand-up" exact
        exists clock.alarms where label == "stand-up" exact
        exists clock.alarms where label == "STAND-UP"
        exists clock.alarms where label ~ "standup meeting" fuzzy 0.5
        exists clock.alarms where label ~ "standup meeting" fuzzy 0.9
      }
      budget 15 steps
    }
""")
case(
    "option_unordered_exact_fuzzy",
    task=LIST_EXACT,
    final=clock_final(
        [
            rec(
                "clock",
                "alarms",
                time="07:00:00",
                label="Stand-up",
                repeat=["fri", "mon", "tue", "wed", "thu"],
            ),
        ]
    ),
    success=False,
    score=round(4 / 7, 6),
    clauses={
        "c1": True,
        "c2": False,
        "c3": True,
        "c4": False,
        "c5": True,
        "c6": True,
        "c7": False,
    },
    why="the weekdays match as a multiset but not in order; exact compares case; "
    "'Stand-up' is similar enough to 'standup meeting' at 0.5 but not at 0.9.",
)

LATE_MESSAGE = T("""
    task conformance.late_message {
      kind app
      apps messages
      goal "Text +1 415 555 0134: \\"Running 10 minutes late, sorry.\\""
      given { now 2026-05-14T08:40 tz "America/Los_Angeles" }
      expect {
        messages.sent has { to == "+1 415 555 0134", body ~ "Running 10 minutes late, sorry." }
      }
      budget 10 steps
    }
""")


def sent(to: str, body: str, at: str = "2026-05-14T08:41:00", **f: Any) -> dict[str, Any]:
    return rec("messages", "sent", to=to, body=body, timestamp=at, **f)


def messages_final(sent_list, threads=None, received=None, drafts=None, **settings) -> dict:
    colls: dict[str, Any] = {"sent": sent_list}
    for key, value in (("threads", threads), ("received", received), ("drafts", drafts)):
        if value is not None:
            colls[key] = value
    return snap({"messages": app_state(colls, settings)}, fg=(MESSAGES, None))


case(
    "fuzzy_default_threshold_pass",
    task=LATE_MESSAGE,
    final=messages_final([sent("+1 415 555 0134", "running 10 min late, sorry!")]),
    success=True,
    score=1.0,
    clauses={"c1": True},
    why="'running 10 min late, sorry!' is about 0.9 similar to the target, over the 0.85 default.",
)
case(
    "fuzzy_beyond_threshold_fail",
    task=LATE_MESSAGE,
    final=messages_final([sent("+1 415 555 0134", "Running late")]),
    success=False,
    score=0.0,
    clauses={"c1": False},
    why="'Running late' neither contains the target nor is 0.85 similar to it (about 0.56).",
)

SEE_YOU = T("""
    task conformance.fuzzy_threshold {
      kind app
      apps messages
      goal "Text +1 415 555 0134: \\"See you at the station\\"."
      expect {
        messages.sent has { to == "+1 415 555 0134", body ~ "see you at the station" fuzzy 0.9 }
        messages.sent has { to == "+1 415 555 0134", body ~ "see you at the station" fuzzy 0.98 }
      }
      budget 10 steps
    }
""")
case(
    "fuzzy_explicit_threshold",
    task=SEE_YOU,
    final=messages_final([sent("+1 415 555 0134", "See u at the station")]),
    success=False,
    score=0.5,
    clauses={"c1": True, "c2": False},
    why="'see u at the station' is about 0.95 similar: over a 0.9 threshold, under 0.98.",
)

# ==== quantifiers, count, has, aggregates ==========================================
QUANT = T("""
    task conformance.quantifiers {
      kind app
      apps contacts
      goal "Star Ada Park, and nobody else."
      given {
        contacts.people += { name: "Ada Park", phone: "+1 415 555 0134", group: "friends" }
        contacts.people += { name: "Bob Lindqvist", phone: "+1 628 555 0142", group: "work" }
        contacts.people += { name: "Cy Diaz", phone: "+1 212 555 0199", group: "family" }
      }
      expect {
        exists contacts.people where name == "Ada Park" and starred
        none contacts.people where name != "Ada Park" and starred
        all contacts.people where starred implies name == "Ada Park"
        all contacts.groups where title != ""
        none contacts.groups
        count(contacts.people where starred) == 1
        count(contacts.people) == 3
        contacts.people has { name == "Ada Park", starred == true }
      }
      budget 10 steps
    }
""")


def cy(**fields: Any) -> dict[str, Any]:
    base = {"name": "Cy Diaz", "phone": "+1 212 555 0199", "group": "family"}
    base.update(fields)
    return rec("contacts", "people", **base)


case(
    "quantifiers_count_has_pass",
    task=QUANT,
    final=contacts_final([ada(group="friends", starred=True), bob(group="work"), cy()], groups=[]),
    success=True,
    score=1.0,
    clauses={f"c{i}": True for i in range(1, 9)},
    why="only Ada is starred; `all` and `none` over the empty groups collection hold.",
)
case(
    "quantifiers_second_star_fails",
    task=QUANT,
    final=contacts_final(
        [ada(group="friends", starred=True), bob(group="work", starred=True), cy()], groups=[]
    ),
    success=False,
    score=round(5 / 8, 6),
    clauses={
        "c1": True,
        "c2": False,
        "c3": False,
        "c4": True,
        "c5": True,
        "c6": False,
        "c7": True,
        "c8": True,
    },
    why="Bob is starred too: `none`, `all ... implies` and the count of starred contacts fail.",
)

HAS_ONE = T("""
    task conformance.has_single_record {
      kind app
      apps contacts
      goal "Star Ada Park."
      given {
        contacts.people += { name: "Ada Park", phone: "+1 415 555 0134" }
        contacts.people += { name: "Bob Lindqvist", phone: "+1 628 555 0142" }
      }
      expect {
        contacts.people has { name == "Ada Park", starred == true }
        exists contacts.people where name == "Ada Park"
        exists contacts.people where starred
      }
      budget 10 steps
    }
""")
case(
    "has_items_need_one_record",
    task=HAS_ONE,
    final=contacts_final([ada(), bob(starred=True)]),
    success=False,
    score=round(2 / 3, 6),
    clauses={"c1": False, "c2": True, "c3": True},
    why="the wrong contact was starred: each item of `has` holds for some record, but no "
    "single record satisfies both.",
)

COFFEE = T("""
    task conformance.coffee_aggregates {
      kind mini_app
      apps coffee in wechat
      goal "Order one medium latte for pickup."
      given {
        now 2026-05-14T08:10 tz "Asia/Shanghai"
        coffee.menu = [
          { name: "Americano", price: $3.20, calories: 10 },
          { name: "Latte", price: $4.50, calories: 190 },
          { name: "Matcha Latte", category: "tea", price: $5.80, calories: 250 },
        ]
        coffee.orders = [
          { order_no: "A0101", items: ["Latte"], total: $12.00, status: "delivered",
            store: "Jing'an", placed_at: 2026-05-12T08:00 },
          { order_no: "A0102", items: ["Americano"], total: $5.00, status: "cancelled",
            store: "Jing'an", placed_at: 2026-05-13T08:00 },
        ]
      }
      expect {
        sum(coffee.orders where status != "cancelled", total) == $16.50
        min(coffee.menu where category == "coffee", price) == $3.20
        max(coffee.menu, price) <= $6
        max(coffee.orders, placed_at) == 2026-05-14T08:15
        avg(coffee.menu, calories) == 150
        count(coffee.orders where status == "placed") == 1
        coffee.orders has { items == ["Latte"], total == $4.50, status == "placed" }
      }
      budget 20 steps
    }
""")


def order(no: str, items, total: int, status: str, at: str) -> dict[str, Any]:
    return rec(
        "coffee",
        "orders",
        order_no=no,
        items=items,
        total=total,
        status=status,
        store="Jing'an",
        placed_at=at,
    )


MENU = [
    rec("coffee", "menu", name="Americano", price=320, calories=10),
    rec("coffee", "menu", name="Latte", price=450, calories=190),
    rec("coffee", "menu", name="Matcha Latte", category="tea", price=580, calories=250),
]
OLD_ORDERS = [
    order("A0101", ["Latte"], 1200, "delivered", "2026-05-12T08:00:00"),
    order("A0102", ["Americano"], 500, "cancelled", "2026-05-13T08:00:00"),
]


def coffee_final(orders: list[dict[str, Any]]) -> dict[str, Any]:
    return snap({"coffee": app_state({"menu": MENU, "orders": orders})}, fg=(WECHAT, None))


case(
    "aggregates_pass",
    task=COFFEE,
    final=coffee_final(
        [*OLD_ORDERS, order("A0103", ["Latte"], 450, "placed", "2026-05-14T08:15:00")]
    ),
    success=True,
    score=1.0,
    clauses={f"c{i}": True for i in range(1, 8)},
    why="non-cancelled total $12.00 + $4.50, cheapest coffee $3.20, newest order 08:15, "
    "average 150 calories, one placed order.",
)
case(
    "aggregates_duplicate_order",
    task=COFFEE,
    final=coffee_final(
        [
            *OLD_ORDERS,
            order("A0103", ["Latte"], 450, "placed", "2026-05-14T08:15:00"),
            order("A0104", ["Latte"], 450, "placed", "2026-05-14T08:16:00"),
        ]
    ),
    success=False,
    score=round(4 / 7, 6),
    clauses={
        "c1": False,
        "c2": True,
        "c3": True,
        "c4": False,
        "c5": True,
        "c6": False,
        "c7": True,
    },
    why="a second latte was ordered: the sum is $21.00, the newest order is 08:16 and two "
    "orders are placed.",
)

# ==== answers ======================================================================
PDF_ANSWER = T("""
    task conformance.pdf_answer {
      kind app
      apps files
      goal "Which PDF files in my Download folder are larger than 1 MB?"
      given {
        files.documents += { path: "/sdcard/Download/lease_agreement.pdf",
          name: "lease_agreement.pdf", folder: "Download", kind: "document", size: 2400000,
          modified: 2026-05-02T10:00 }
        files.documents += { path: "/sdcard/Download/Q1_report.pdf", name: "Q1_report.pdf",
          folder: "Download", kind: "document", size: 1300000, modified: 2026-04-20T09:00 }
        files.documents += { path: "/sdcard/Download/scan_0042.pdf", name: "scan_0042.pdf",
          folder: "Download", kind: "document", size: 300000, modified: 2026-05-10T16:45 }
      }
      expect {
        answer == ["lease_agreement.pdf", "Q1_report.pdf"] unordered
        answer contains "Q1_report.pdf"
        unchanged files
      }
      budget 15 steps
    }
""")
DOCS = [
    rec(
        "files",
        "documents",
        path="/sdcard/Download/lease_agreement.pdf",
        name="lease_agreement.pdf",
        folder="Download",
        kind="document",
        size=2400000,
        modified="2026-05-02T10:00:00",
    ),
    rec(
        "files",
        "documents",
        path="/sdcard/Download/Q1_report.pdf",
        name="Q1_report.pdf",
        folder="Download",
        kind="document",
        size=1300000,
        modified="2026-04-20T09:00:00",
    ),
    rec(
        "files",
        "documents",
        path="/sdcard/Download/scan_0042.pdf",
        name="scan_0042.pdf",
        folder="Download",
        kind="document",
        size=300000,
        modified="2026-05-10T16:45:00",
    ),
]
FILES_FINAL = snap({"files": app_state({"documents": DOCS})}, fg=(FILES, None))
case(
    "answer_list_unordered_pass",
    task=PDF_ANSWER,
    steps=[step(act("answer", text="Q1_report.pdf and lease_agreement.pdf"))],
    final=FILES_FINAL,
    answer="Q1_report.pdf and lease_agreement.pdf",
    success=True,
    score=1.0,
    clauses={"c1": True, "c2": True, "c3": True},
    why="the two files in another order, joined by `and`, equal the list as a multiset.",
)
case(
    "answer_list_extra_item",
    task=PDF_ANSWER,
    final=FILES_FINAL,
    answer="Q1_report.pdf, lease_agreement.pdf, scan_0042.pdf",
    success=False,
    score=round(2 / 3, 6),
    clauses={"c1": False, "c2": True, "c3": True},
    why="an extra file makes the list unequal even though it still contains Q1_report.pdf.",
)

ORDERED = T("""
    task conformance.ordered_answer {
      kind app
      apps files
      goal "List the two largest PDFs in Download, largest first."
      expect { answer == ["lease_agreement.pdf", "Q1_report.pdf"] }
      budget 15 steps
    }
""")
case(
    "answer_list_wrong_order",
    task=ORDERED,
    final=end(FILES),
    answer="Q1_report.pdf; lease_agreement.pdf",
    success=False,
    score=0.0,
    clauses={"c1": False},
    why="without `unordered` the answer list must be in the given order.",
)
case(
    "answer_list_right_order",
    task=ORDERED,
    final=end(FILES),
    answer="lease_agreement.pdf; Q1_report.pdf",
    success=True,
    score=1.0,
    clauses={"c1": True},
    why="the items in the required order, separated by a semicolon.",
)

TEXT_ANSWER = T("""
    task conformance.address_answer {
      kind app
      apps maps
      goal "What is the address of the Ferry Building?"
      expect {
        answer == "1 Ferry Building, San Francisco, CA 94111"
        answer ~ "1 Ferry Building, San Francisco" fuzzy 0.8
      }
      budget 10 steps
    }
""")
case(
    "answer_text_normalized",
    task=TEXT_ANSWER,
    final=end(MAPS),
    steps=[
        step(act("answer", text="1 ferry building,  San Francisco, CA 94111 "), maps_place(), MAPS)
    ],
    answer="1 ferry building,  San Francisco, CA 94111 ",
    success=True,
    score=1.0,
    clauses={"c1": True, "c2": True},
    why="case and repeated or surrounding whitespace do not count for text ==.",
)
case(
    "answer_text_wrong_place",
    task=TEXT_ANSWER,
    final=end(MAPS),
    answer="Pier 39, San Francisco, CA 94133",
    success=False,
    score=0.0,
    clauses={"c1": False, "c2": False},
    why="a different address is neither equal nor 0.8 similar.",
)

RATING = T("""
    task conformance.rating_answer {
      kind app
      apps maps
      goal "What is the rating of Blue Bottle Coffee?"
      expect { answer == 4.5 within 0.25 }
      budget 10 steps
    }
""")
case(
    "answer_number_within_pass",
    task=RATING,
    final=end(MAPS),
    answer="4.6",
    success=True,
    score=1.0,
    clauses={"c1": True},
    why="4.6 is within 0.25 of 4.5.",
)
case(
    "answer_number_within_fail",
    task=RATING,
    final=end(MAPS),
    answer="4.8",
    success=False,
    score=0.0,
    clauses={"c1": False},
    why="4.8 is 0.3 away from 4.5, over the 0.25 tolerance.",
)

SPEND = T("""
    task conformance.spend_answer {
      kind mini_app
      apps coffee in wechat
      goal "How much did my last coffee order cost?"
      expect { answer == $12.50 }
      budget 10 steps
    }
""")
for suffix, text in (
    ("dollar_sign", "$12.50"),
    ("no_cents_digit", "12.5"),
    ("currency_code", "12.50 USD"),
):
    case(
        f"answer_money_{suffix}",
        task=SPEND,
        final=end(WECHAT),
        answer=text,
        success=True,
        score=1.0,
        clauses={"c1": True},
        why=f"the answer {text!r} reads as 1250 cents.",
    )
case(
    "answer_money_off_by_one_cent",
    task=SPEND,
    final=end(WECHAT),
    answer="$12.49",
    success=False,
    score=0.0,
    clauses={"c1": False},
    why="money compares in exact cents: 1249 is not 1250.",
)

BIRTHDAY = T("""
    task conformance.date_answer {
      kind app
      apps contacts
      goal "On which date is Ada Park's birthday this year?"
      given { contacts.people += { name: "Ada Park", phone: "+1 415 555 0134", birthday: 1990-06-01 } }
      expect { answer == 2026-06-01 }
      budget 10 steps
    }
""")
for suffix, text in (
    ("long_month", "June 1, 2026"),
    ("day_first", "1 Jun 2026"),
    ("us_slashes", "06/01/2026"),
    ("iso", "2026-06-01"),
):
    case(
        f"answer_date_{suffix}",
        task=BIRTHDAY,
        final=end(CONTACTS),
        answer=text,
        success=True,
        score=1.0,
        clauses={"c1": True},
        why=f"{text!r} is the date 2026-06-01.",
    )
case(
    "answer_date_next_day",
    task=BIRTHDAY,
    final=end(CONTACTS),
    answer="June 2, 2026",
    success=False,
    score=0.0,
    clauses={"c1": False},
    why="June 2 is a different date.",
)

DINNER = T("""
    task conformance.time_answer {
      kind app
      apps clock
      goal "When does my Dinner alarm ring?"
      given { clock.alarms += { time: 19:30, label: "Dinner" } }
      expect { answer == 19:30 }
      budget 10 steps
    }
""")
for suffix, text in (
    ("twelve_hour", "7:30 PM"),
    ("twelve_hour_compact", "7:30pm"),
    ("twenty_four_hour", "19:30"),
):
    case(
        f"answer_time_{suffix}",
        task=DINNER,
        final=end(CLOCK),
        answer=text,
        success=True,
        score=1.0,
        clauses={"c1": True},
        why=f"{text!r} is 19:30.",
    )
case(
    "answer_time_am_instead_of_pm",
    task=DINNER,
    final=end(CLOCK),
    answer="7:30 AM",
    success=False,
    score=0.0,
    clauses={"c1": False},
    why="7:30 AM is 12 hours away from 19:30.",
)

# ==== guards =======================================================================
STAR_GUARDED = T("""
    task conformance.star_guarded {
      kind app
      apps contacts
      goal "Star Ada Park."
      given {
        contacts.people += { name: "Ada Park", phone: "+1 415 555 0134" }
        contacts.people += { name: "Bob Lindqvist", phone: "+1 628 555 0142" }
        contacts.groups += { title: "Climbing", members: ["Ada Park"] }
      }
      expect {
        contacts.people has { name == "Ada Park", starred == true }
        unchanged contacts.groups
        only contacts.people changed
        unchanged contacts.sort_by, contacts.theme
      }
      budget 10 steps
    }
""")
CLIMBING = rec("contacts", "groups", title="Climbing", members=["Ada Park"])
case(
    "guard_unchanged_pass",
    task=STAR_GUARDED,
    final=contacts_final(
        [ada(starred=True), bob()], [CLIMBING], sort_by="first_name", theme="dark"
    ),
    success=True,
    score=1.0,
    clauses={"c1": True, "c2": True, "c3": True, "c4": True},
    why="only Ada's record changed; groups and the two settings are as they were.",
)
case(
    "guard_deleted_unrequested_record",
    task=STAR_GUARDED,
    final=contacts_final([ada(starred=True), bob()], [], sort_by="first_name", theme="dark"),
    success=False,
    score=0.5,
    clauses={"c1": True, "c2": False, "c3": False, "c4": True},
    why="the Climbing group was deleted though the task did not ask for it.",
)
case(
    "guard_setting_changed",
    task=STAR_GUARDED,
    final=contacts_final([ada(starred=True), bob()], [CLIMBING], sort_by="last_name", theme="dark"),
    success=False,
    score=0.5,
    clauses={"c1": True, "c2": True, "c3": False, "c4": False},
    why="the sort order setting changed: it is guarded by `unchanged` and outside "
    "`only contacts.people changed`.",
)

ONE_ALARM = T("""
    task conformance.one_alarm {
      kind app
      apps clock
      goal "Set an alarm for 07:00."
      given { clock.alarms = [] }
      expect {
        clock.alarms has { time == 07:00 }
        count(clock.alarms) == 1
        only clock.alarms changed
        trace at most 1 times added clock.alarms
      }
      budget 10 steps
    }
""")
A7 = rec("clock", "alarms", time="07:00:00")
A730 = rec("clock", "alarms", time="07:30:00")
case(
    "guard_one_alarm_pass",
    task=ONE_ALARM,
    steps=[
        step(tap(540, 2100), pkg=CLOCK, state=clock_final([])),
        step(tap(900, 2200), pkg=CLOCK, state=clock_final([A7])),
    ],
    final=clock_final([A7]),
    success=True,
    score=1.0,
    clauses={"c1": True, "c2": True, "c3": True, "c4": True},
    why="exactly one alarm at 07:00 was added, in one step.",
)
case(
    "guard_one_extra_record",
    task=ONE_ALARM,
    steps=[
        step(tap(900, 2200), pkg=CLOCK, state=clock_final([A7])),
        step(tap(900, 2200), pkg=CLOCK, state=clock_final([A7, A730])),
    ],
    final=clock_final([A7, A730]),
    success=False,
    score=0.5,
    clauses={"c1": True, "c2": False, "c3": True, "c4": False},
    why="an extra 07:30 alarm: the count is 2 and `added` happened twice.",
)

BLUETOOTH = T("""
    task conformance.bluetooth_only {
      kind app
      apps settings
      goal "Turn on Bluetooth."
      given {
        settings.bluetooth = false
        settings.wifi = true
      }
      expect {
        settings.bluetooth == true
        unchanged settings.wifi, settings.airplane_mode
        only settings.bluetooth changed
        unchanged settings.bluetooth_devices
      }
      budget 8 steps
    }
""")
case(
    "guard_settings_only_changed_pass",
    task=BLUETOOTH,
    final=snap(
        {
            "settings": app_state(
                {"bluetooth_devices": []}, {"bluetooth": True, "wifi": True, "airplane_mode": False}
            )
        }
    ),
    success=True,
    score=1.0,
    clauses={"c1": True, "c2": True, "c3": True, "c4": True},
    why="only the bluetooth setting changed.",
)
case(
    "guard_other_setting_changed",
    task=BLUETOOTH,
    final=snap(
        {
            "settings": app_state(
                {"bluetooth_devices": []},
                {"bluetooth": True, "wifi": False, "airplane_mode": False},
            )
        }
    ),
    success=False,
    score=0.5,
    clauses={"c1": True, "c2": False, "c3": False, "c4": True},
    why="Wi-Fi was turned off on the way: both guards catch it.",
)

CROSS = T("""
    task conformance.text_ada_cross_app {
      kind cross_app
      apps contacts, messages
      goal "Text Ada Park that you are running late."
      given {
        now 2026-05-14T08:40 tz "America/Los_Angeles"
        contacts.people += { name: "Ada Park", phone: "+1 415 555 0134" }
        messages.sent = []
        messages.threads = []
      }
      expect {
        messages.sent has { to == "+1 415 555 0134", body ~ "running late" }
        unchanged contacts
        only messages changed
      }
      budget 15 steps
    }
""")
LATE = sent("+1 415 555 0134", "Sorry, running late!")
THREAD_ADA = rec(
    "messages",
    "threads",
    address="+1 415 555 0134",
    contact_name="Ada Park",
    snippet="Sorry, running late!",
    last_activity="2026-05-14T08:41:00",
)


def cross_final(people: list[dict[str, Any]]) -> dict[str, Any]:
    return snap(
        {
            "contacts": app_state({"people": people, "groups": []}),
            "messages": app_state({"sent": [LATE], "threads": [THREAD_ADA]}),
        },
        fg=(MESSAGES, None),
    )


case(
    "guard_whole_app_cross_app_pass",
    task=CROSS,
    final=cross_final([ada()]),
    success=True,
    score=1.0,
    clauses={"c1": True, "c2": True, "c3": True},
    why="the message and its thread changed, all in Messages; Contacts is untouched.",
)
case(
    "guard_whole_app_changed",
    task=CROSS,
    final=cross_final([ada(starred=True)]),
    success=False,
    score=round(1 / 3, 6),
    clauses={"c1": True, "c2": False, "c3": False},
    why="starring Ada changed the Contacts app, which `unchanged contacts` and `only "
    "messages changed` forbid.",
)

# ==== trace: actions, selectors, order =============================================
COMPOSE = T("""
    task conformance.compose_and_send {
      kind app
      apps messages
      goal "Text +1 415 555 0134 \\"On my way\\"."
      given {
        now 2026-05-14T08:40 tz "America/Los_Angeles"
        foreground messages
        messages.sent = []
      }
      expect {
        messages.sent has { to == "+1 415 555 0134", body ~ "on my way" }
        trace eventually action input_text
        trace eventually action click on text "Type a message" class "android.widget.EditText"
        trace eventually action click on id "thread_send_message"
        trace eventually action click on desc "Send" package "com.simplemobiletools.smsmessenger"
        trace action input_text before action click on desc "Send"
        trace action click on desc "Send" then added messages.sent where body ~ "on my way"
        trace eventually shown id "thread_send_message" desc "Send"
        trace never action long_press
        trace at most 1 times action input_text
        trace eventually foreground messages
      }
      budget 10 steps
    }
""")
case(
    "trace_actions_index_and_point",
    task=COMPOSE,
    steps=[
        step(tap(index=2), messages_compose(), MESSAGES),
        step(act("input_text", text="On my way", index=2), messages_compose(), MESSAGES),
        step(tap(**center(SEND_BOUNDS)), messages_compose("On my way"), MESSAGES),
        step(act("status", goal_status="complete"), messages_compose(sent="On my way"), MESSAGES),
    ],
    final=messages_final([sent("+1 415 555 0134", "On my way")]),
    status="complete",
    success=True,
    score=1.0,
    clauses={f"c{i}": True for i in range(1, 12)},
    why="a tap by index on the message field, typing, then a tap inside the Send button's "
    "bounds; the message appears in the final state.",
)

TAP_SEND = T("""
    task conformance.tap_send {
      kind app
      apps messages
      goal "Send the drafted message."
      expect { trace eventually action click on desc "Send" }
      budget 5 steps
    }
""")
case(
    "tap_just_outside_bounds",
    task=TAP_SEND,
    steps=[step(tap(998, 2199), messages_compose("On my way"), MESSAGES)],
    success=False,
    score=0.0,
    clauses={"c1": False},
    why="y=2199 is one pixel above the Send button's bounds [936,2200][1060,2320].",
)
case(
    "tap_on_top_left_corner",
    task=TAP_SEND,
    steps=[step(tap(936, 2200), messages_compose("On my way"), MESSAGES)],
    success=True,
    score=1.0,
    clauses={"c1": True},
    why="(936, 2200) is the top-left corner of the Send button, which bounds include.",
)
ELEMENTS_WITH_INDEX = [
    {
        "index": 0,
        "class_name": "android.widget.FrameLayout",
        "package": MESSAGES,
        "bounds": [0, 0, 1080, 2400],
    },
    {
        "index": 1,
        "class_name": "android.widget.TextView",
        "text": "Priya",
        "package": MESSAGES,
        "bounds": [189, 112, 900, 203],
    },
    {
        "index": 2,
        "class_name": "android.widget.EditText",
        "text": "On my way",
        "resource_id": f"{MESSAGES}:id/thread_type_message",
        "package": MESSAGES,
        "clickable": True,
        "bounds": [42, 2200, 900, 2320],
    },
    {
        "index": 3,
        "class_name": "android.widget.ImageButton",
        "content_desc": "Send",
        "resource_id": f"{MESSAGES}:id/thread_send_message",
        "package": MESSAGES,
        "clickable": True,
        "bounds": list(SEND_BOUNDS),
    },
]
case(
    "action_index_on_ui_elements",
    task=TAP_SEND,
    steps=[step(tap(index=3), pkg=MESSAGES, elements=ELEMENTS_WITH_INDEX)],
    success=True,
    score=1.0,
    clauses={"c1": True},
    why="the action's index 3 is the Send button of the observation's element list.",
)
case(
    "action_index_on_ui_elements_without_index_field",
    task=TAP_SEND,
    steps=[
        step(
            tap(index=3),
            pkg=MESSAGES,
            elements=[{k: v for k, v in e.items() if k != "index"} for e in ELEMENTS_WITH_INDEX],
        )
    ],
    success=True,
    score=1.0,
    clauses={"c1": True},
    why="an element's index is its position in the element list (UIElement's docstring); "
    "position 3 is the Send button.",
)

LOOKUP = T("""
    task conformance.lookup_then_send {
      kind cross_app
      apps maps, messages
      goal "Look up the Ferry Building in Maps and text its address to +1 415 555 0134."
      given {
        now 2026-05-14T08:40 tz "America/Los_Angeles"
        messages.sent = []
      }
      expect {
        messages.sent has { to == "+1 415 555 0134", body ~ "1 Ferry Building" }
        trace foreground maps before added messages.sent
        trace shown text "1 Ferry Building, San Francisco, CA 94111" before action input_text
      }
      budget 15 steps
    }
""")
ADDRESS = "1 Ferry Building, San Francisco, CA 94111"
SENT_ADDRESS = sent("+1 415 555 0134", ADDRESS)


def msgs(sent_list: list[dict[str, Any]]) -> dict[str, Any]:
    return snap({"messages": app_state({"sent": sent_list})})


case(
    "trace_before_right_order",
    task=LOOKUP,
    steps=[
        step(act("open_app", app_name="Messages"), maps_place(), MAPS, state=msgs([])),
        step(
            act("input_text", text=ADDRESS, index=2), messages_compose(), MESSAGES, state=msgs([])
        ),
        step(
            tap(**center(SEND_BOUNDS)),
            messages_compose(ADDRESS),
            MESSAGES,
            state=msgs([SENT_ADDRESS]),
        ),
    ],
    final=msgs([SENT_ADDRESS]),
    success=True,
    score=1.0,
    clauses={"c1": True, "c2": True, "c3": True},
    why="Maps was open (showing the address) at step 0, the text typed at step 1 and sent at "
    "step 2.",
)
case(
    "trace_before_wrong_order",
    task=LOOKUP,
    steps=[
        step(
            act("input_text", text=ADDRESS, index=2), messages_compose(), MESSAGES, state=msgs([])
        ),
        step(
            tap(**center(SEND_BOUNDS)),
            messages_compose(ADDRESS),
            MESSAGES,
            state=msgs([SENT_ADDRESS]),
        ),
        step(
            act("open_app", app_name="Maps"),
            messages_compose(sent=ADDRESS),
            MESSAGES,
            state=msgs([SENT_ADDRESS]),
        ),
        step(act("status", goal_status="complete"), maps_place(), MAPS, state=msgs([SENT_ADDRESS])),
    ],
    final=msgs([SENT_ADDRESS]),
    status="complete",
    success=False,
    score=round(1 / 3, 6),
    clauses={"c1": True, "c2": False, "c3": False},
    why="the right actions in the wrong order: the address was typed and sent before Maps "
    "was ever opened.",
)

TIMER = T("""
    task conformance.start_timer {
      kind app
      apps clock
      goal "Start a 10 minute timer."
      given {
        foreground clock
        clock.timers = []
      }
      expect {
        clock.timers has { length == 10m, state == "running" }
        trace action click on desc "Start" then changed clock.timers where state == "running"
        trace eventually added clock.timers where length == 10m
        trace shown text "Timer" before added clock.timers
      }
      budget 10 steps
    }
""")
T_RESET = rec("clock", "timers", length=600, state="reset")
T_RUN = rec("clock", "timers", length=600, state="running", remaining=598)
PRESET = (100, 1500, 400, 1600)
case(
    "trace_then_final_snapshot_only",
    task=TIMER,
    steps=[
        step(tap(**center(PRESET)), clock_timer(), CLOCK),
        step(tap(**center(START_BOUNDS)), clock_timer(), CLOCK),
    ],
    final=clock_final(timers=[T_RUN]),
    success=True,
    score=1.0,
    clauses={"c1": True, "c2": True, "c3": True, "c4": True},
    why="Start was tapped and the recorded end state has the timer running.",
)
case(
    "trace_then_effect_in_same_step_snapshot",
    task=TIMER,
    steps=[
        step(tap(675, 2325), clock_timer(), CLOCK, state=clock_final(timers=[])),
        step(tap(**center(PRESET)), clock_timer(), CLOCK, state=clock_final(timers=[T_RESET])),
        step(tap(**center(START_BOUNDS)), clock_timer(), CLOCK, state=clock_final(timers=[T_RUN])),
    ],
    final=clock_final(timers=[T_RUN]),
    success=True,
    score=1.0,
    clauses={"c1": True, "c2": True, "c3": True, "c4": True},
    why="the same episode as trace_then_final_snapshot_only with each step's state after its "
    "action recorded: the timer starts running after the tap on Start (the doc's own example).",
)
case(
    "trace_then_wrong_order",
    task=TIMER,
    steps=[
        step(tap(675, 2325), clock_timer(), CLOCK, state=clock_final(timers=[])),
        step(tap(**center(PRESET)), clock_timer(), CLOCK, state=clock_final(timers=[T_RUN])),
        step(act("wait"), clock_timer(True, "9:59"), CLOCK, state=clock_final(timers=[T_RUN])),
        step(
            tap(**center(START_BOUNDS)),
            clock_timer(False, "9:58"),
            CLOCK,
            state=clock_final(timers=[T_RUN]),
        ),
    ],
    final=clock_final(timers=[T_RUN]),
    success=False,
    score=0.75,
    clauses={"c1": True, "c2": False, "c3": True, "c4": True},
    why="the timer was already running (the preset started it at step 1) before Start was "
    "tapped at step 3; nothing changed after that tap.",
)

FOREGROUND = T("""
    task conformance.foreground_events {
      kind app
      apps settings
      goal "Open the Display settings and turn on the dark theme."
      given { settings.dark_theme = false }
      expect {
        settings.dark_theme == true
        trace eventually foreground settings
        trace eventually foreground settings activity ".Settings$DisplaySettingsActivity"
        trace eventually foreground settings activity ".Settings$WifiSettingsActivity"
        trace never foreground settings activity ".Settings$NetworkDashboardActivity"
        trace foreground settings activity ".Settings" before foreground settings activity ".Settings$DisplaySettingsActivity"
      }
      budget 10 steps
    }
""")
case(
    "trace_foreground_with_and_without_activity",
    task=FOREGROUND,
    steps=[
        step(
            tap(160, 1900),
            launcher(),
            LAUNCHER,
            "com.google.android.apps.nexuslauncher/.NexusLauncherActivity",
        ),
        step(tap(540, 700), settings_display(False), SETTINGS, "com.android.settings/.Settings"),
        step(tap(964, 500), settings_display(False), SETTINGS, DISPLAY_ACTIVITY),
    ],
    final=settings_final(dark_theme=True),
    success=False,
    score=round(5 / 6, 6),
    clauses={"c1": True, "c2": True, "c3": True, "c4": False, "c5": True, "c6": True},
    why="Settings was in the foreground (its main activity, then Display); the Wi-Fi "
    "activity never was.",
)

CHANGES = T("""
    task conformance.change_events {
      kind app
      apps contacts
      goal "Star Ada, add Cy Diaz, delete Bob and sort by last name."
      given {
        contacts.people += { name: "Ada Park", phone: "+1 415 555 0134" }
        contacts.people += { name: "Bob Lindqvist", phone: "+1 628 555 0142" }
      }
      expect {
        trace eventually updated contacts.people where name == "Ada Park" and starred
        trace eventually added contacts.people where name == "Cy Diaz"
        trace eventually deleted contacts.people where name == "Bob Lindqvist"
        trace eventually changed contacts.sort_by
        trace eventually changed contacts.people where name == "Cy Diaz"
        trace never deleted contacts.people where starred
        trace eventually added any
        trace updated contacts.people before deleted contacts.people
        trace eventually updated contacts.people where name == "Bob Lindqvist"
        trace never changed contacts.theme
        trace at most 2 times changed contacts.people
      }
      budget 20 steps
    }
""")
S0 = contacts_final([ada(starred=True), bob()], sort_by="first_name", theme="dark")
S1 = contacts_final([ada(starred=True), bob(), cy()], sort_by="first_name", theme="dark")
S2 = contacts_final([ada(starred=True), cy()], sort_by="first_name", theme="dark")
S3 = contacts_final([ada(starred=True), cy()], sort_by="last_name", theme="dark")
case(
    "trace_change_events",
    task=CHANGES,
    steps=[
        step(tap(980, 300), pkg=CONTACTS, state=S0),
        step(tap(540, 2200), pkg=CONTACTS, state=S1),
        step(tap(540, 1200), pkg=CONTACTS, state=S2),
        step(tap(540, 900), pkg=CONTACTS, state=S3),
    ],
    final=S3,
    success=False,
    score=round(9 / 11, 6),
    clauses={
        "c1": True,
        "c2": True,
        "c3": True,
        "c4": True,
        "c5": True,
        "c6": True,
        "c7": True,
        "c8": True,
        "c9": False,
        "c10": True,
        "c11": False,
    },
    why="one update, one addition, one deletion and a setting change, each at its own step; "
    "Bob was never updated, and contacts.people changed three times (limit 2).",
)

HOLDS = T("""
    task conformance.holds_events {
      kind app
      apps contacts
      goal "Star Ada Park, then Bob Lindqvist."
      given {
        contacts.people += { name: "Ada Park", phone: "+1 415 555 0134" }
        contacts.people += { name: "Bob Lindqvist", phone: "+1 628 555 0142" }
      }
      expect {
        trace eventually holds (count(contacts.people where starred) == 2)
        trace holds (exists contacts.people where name == "Ada Park" and starred) before holds (count(contacts.people where starred) == 2)
        trace never holds (count(contacts.people) < 2)
        trace at most 1 times holds (count(contacts.people where starred) == 1)
        trace holds (exists contacts.people where name == "Bob Lindqvist" and starred) before holds (exists contacts.people where name == "Ada Park" and starred)
      }
      budget 10 steps
    }
""")
H1 = contacts_final([ada(starred=True), bob()])
H2 = contacts_final([ada(starred=True), bob(starred=True)])
case(
    "trace_holds_events",
    task=HOLDS,
    steps=[
        step(tap(980, 300), pkg=CONTACTS, state=H1),
        step(tap(980, 500), pkg=CONTACTS, state=H2),
    ],
    final=H2,
    success=False,
    score=0.8,
    clauses={"c1": True, "c2": True, "c3": True, "c4": True, "c5": False},
    why="Ada was starred at step 0 and Bob at step 1: the conditions hold in that order, "
    "not the other.",
)

BACK = T("""
    task conformance.back_limit {
      kind app
      apps settings
      goal "Find the Display settings without wandering around."
      expect {
        trace at most 2 times action navigate_back
        trace at most 0 times action long_press
      }
      budget 10 steps
    }
""")
case(
    "trace_at_most_within_limit",
    task=BACK,
    steps=[step(act("navigate_back"), settings_display(), SETTINGS) for _ in range(2)],
    success=True,
    score=1.0,
    clauses={"c1": True, "c2": True},
    why="two presses of Back, the limit is two.",
)
case(
    "trace_at_most_exceeded",
    task=BACK,
    steps=[step(act("navigate_back"), settings_display(), SETTINGS) for _ in range(3)]
    + [step(act("long_press", x=540, y=700), settings_display(), SETTINGS)],
    success=False,
    score=0.0,
    clauses={"c1": False, "c2": False},
    why="three presses of Back (limit two) and a long press (`at most 0 times`).",
)

PAY_ONCE = T("""
    task conformance.pay_once {
      kind app
      apps wechat
      goal "Transfer $12.50 to Lily, once."
      given {
        now 2026-05-14T12:00 tz "Asia/Shanghai"
        wechat.friends += { wxid: "wxid_k2m9q0", nickname: "Lily" }
        wechat.transfers = []
      }
      expect {
        wechat.transfers has { to == "wxid_k2m9q0", amount == $12.50 }
        trace at most 1 times added wechat.transfers
      }
      budget 10 steps
    }
""")
TR1 = rec("wechat", "transfers", to="wxid_k2m9q0", amount=1250, sent_at="2026-05-14T12:01:00")
TR2 = rec("wechat", "transfers", to="wxid_k2m9q0", amount=1250, sent_at="2026-05-14T12:02:00")


def wechat_final(transfers: list[dict[str, Any]], balance: int | None = None) -> dict:
    settings = {} if balance is None else {"wallet_balance": balance}
    return snap({"wechat": app_state({"transfers": transfers}, settings)}, fg=(WECHAT, None))


case(
    "trace_at_most_added_per_step_snapshots",
    task=PAY_ONCE,
    steps=[
        step(tap(**center(TRANSFER_BOUNDS)), wechat_transfer(), WECHAT, state=wechat_final([TR1])),
        step(
            tap(**center(TRANSFER_BOUNDS)),
            wechat_transfer(),
            WECHAT,
            state=wechat_final([TR1, TR2]),
        ),
    ],
    final=wechat_final([TR1, TR2]),
    success=False,
    score=0.5,
    clauses={"c1": True, "c2": False},
    why="Lily was paid twice: two transfers were added.",
)
case(
    "trace_at_most_added_final_snapshot_only",
    task=PAY_ONCE,
    steps=[
        step(tap(**center(TRANSFER_BOUNDS)), wechat_transfer(), WECHAT),
        step(tap(**center(TRANSFER_BOUNDS)), wechat_transfer(), WECHAT),
    ],
    final=wechat_final([TR1, TR2]),
    success=False,
    score=0.5,
    clauses={"c1": True, "c2": False},
    why="the same double payment recorded without per-step snapshots: two transfers were "
    "added, so `at most 1 times added` fails.",
)

# ==== UI checks ====================================================================
DISPLAY_UI = T("""
    task conformance.display_screen {
      kind app
      apps settings
      goal "Turn on the dark theme and stay on the Display page."
      expect {
        ui element id "com.android.settings:id/switch_widget" class "android.widget.Switch" checked enabled
        ui element id "switch_widget" class "Switch" checked
        ui element text "dark   THEME" package "com.android.settings"
        ui element desc "Navigate up" clickable
        ui element text "Screen timeout" id "android:id/title" not checked not selected
        ui element text "Display" selected
        ui element class "android.widget.EditText" focused
        ui element id "recycler_view" scrollable
        ui no element text "Airplane mode is on"
        ui no element xpath "//node[@text='Wi-Fi']"
        ui no element text "Wi-Fi" class "android.widget.Switch"
        ui foreground settings activity ".Settings$DisplaySettingsActivity"
        ui foreground settings
      }
      budget 10 steps
    }
""")
case(
    "ui_selectors_and_states_pass",
    task=DISPLAY_UI,
    steps=[step(tap(964, 500), settings_display(False), SETTINGS, DISPLAY_ACTIVITY)],
    final=snap(fg=(SETTINGS, DISPLAY_ACTIVITY), ui_xml=settings_display(True)),
    success=True,
    score=1.0,
    clauses={f"c{i}": True for i in range(1, 14)},
    why="the final Display screen has the checked, enabled switch (full and short id/class), "
    "the other elements in their states, no banner, and Settings' Display activity in front.",
)
case(
    "ui_selectors_and_states_near_miss",
    task=DISPLAY_UI,
    final=snap(
        fg=(SETTINGS, "com.android.settings/.Settings$NetworkDashboardActivity"),
        ui_xml=settings_display(
            False, switch_enabled=False, banner=True, search_focused=False, tab_selected=False
        ),
    ),
    success=False,
    score=round(7 / 13, 6),
    clauses={
        "c1": False,
        "c2": False,
        "c3": True,
        "c4": True,
        "c5": True,
        "c6": False,
        "c7": False,
        "c8": True,
        "c9": False,
        "c10": True,
        "c11": True,
        "c12": False,
        "c13": True,
    },
    why="the switch is off and disabled, the tab not selected, the search field not focused, "
    "the airplane banner is shown and another Settings activity is in front.",
)

TIMER_UI = T("""
    task conformance.timer_screen_elements {
      kind app
      apps clock
      goal "Start the timer."
      expect {
        ui element desc "Pause" class "ImageButton" enabled clickable
        ui element id "timer_time_text" text "9:58"
        ui no element desc "Start"
        ui element text "Timer" selected not focused
      }
      budget 5 steps
    }
""")
TIMER_ELEMENTS = [
    {
        "index": 0,
        "class_name": "android.widget.FrameLayout",
        "package": CLOCK,
        "bounds": [0, 0, 1080, 2400],
    },
    {
        "index": 1,
        "class_name": "android.widget.TextView",
        "text": "Timer",
        "selected": True,
        "package": CLOCK,
        "bounds": [540, 2250, 810, 2400],
    },
    {
        "index": 2,
        "class_name": "android.widget.TextView",
        "text": "9:58",
        "resource_id": f"{CLOCK}:id/timer_time_text",
        "package": CLOCK,
        "bounds": [200, 800, 880, 1000],
    },
    {
        "index": 3,
        "class_name": "android.widget.ImageButton",
        "content_desc": "Pause",
        "resource_id": f"{CLOCK}:id/fab",
        "clickable": True,
        "package": CLOCK,
        "bounds": list(START_BOUNDS),
    },
]
case(
    "ui_element_list_final_screen",
    task=TIMER_UI,
    final=snap(fg=(CLOCK, None), ui_elements=TIMER_ELEMENTS),
    success=True,
    score=1.0,
    clauses={"c1": True, "c2": True, "c3": True, "c4": True},
    why="the final screen is given as an element list (no XML); selectors and states work "
    "on it the same way.",
)

FINAL_SCREEN = T("""
    task conformance.final_screen_events {
      kind app
      apps clock
      goal "Start the 10 minute timer."
      expect {
        ui element desc "Pause"
        trace eventually shown desc "Pause"
        ui foreground clock
        trace eventually foreground clock
      }
      budget 5 steps
    }
""")
case(
    "trace_events_on_final_screen",
    task=FINAL_SCREEN,
    steps=[step(act("open_app", app_name="Clock"), launcher(), LAUNCHER)],
    final=snap(fg=(CLOCK, "com.android.deskclock.DeskClock"), ui_xml=clock_timer(True, "9:58")),
    success=True,
    score=1.0,
    clauses={"c1": True, "c2": True, "c3": True, "c4": True},
    why="the episode ends on the Clock app with the Pause button shown: what `ui element` and "
    "`ui foreground` see at the end was shown and in the foreground during the episode.",
)

# ==== subgoals and weights =========================================================
SUBGOALS = T("""
    task conformance.subgoal_scores {
      kind app
      apps contacts
      goal "Create the contact Ada Park with number +1 415 555 0134 and star it."
      given { contacts.people = [] }
      expect {
        contacts.people has { name == "Ada Park", phone == "+1 415 555 0134", starred == true } weight 2
        only contacts.people changed weight 0.5
        subgoal "contact saved" weight 0.4 {
          exists contacts.people where name == "Ada Park"
          trace eventually added contacts.people
        }
        subgoal "contact starred" {
          exists contacts.people where name == "Ada Park" and starred weight 3
        }
      }
      budget 20 steps
    }
""")
# weights: c1 2, c2 0.5, c3 and c4 0.4 each (1 x subgoal 0.4), c5 3: total 6.3
case(
    "subgoals_partial_score",
    task=SUBGOALS,
    final=contacts_final([ada()]),
    success=False,
    score=round(1.3 / 6.3, 6),
    clauses={"c1": False, "c2": True, "c3": True, "c4": True, "c5": False},
    why="saved but not starred: c2 (0.5) and the 'contact saved' subgoal (2 x 0.4) earn 1.3 "
    "of 6.3.",
)
case(
    "subgoals_guard_missed_score",
    task=SUBGOALS,
    final=snap({"contacts": app_state({"people": [ada(starred=True)]}, {"sort_by": "last_name"})}),
    success=False,
    score=round(5.8 / 6.3, 6),
    clauses={"c1": True, "c2": False, "c3": True, "c4": True, "c5": True},
    why="everything but the guard (weight 0.5): 5.8 of 6.3.",
)
case(
    "subgoals_full_score",
    task=SUBGOALS,
    final=contacts_final([ada(starred=True)]),
    success=True,
    score=1.0,
    clauses={f"c{i}": True for i in range(1, 6)},
    why="every clause holds.",
)

# ==== forbid =======================================================================
TRANSFER = T("""
    task conformance.transfer_forbid {
      kind app
      apps wechat
      goal "Transfer $12.50 to Lily (wxid_k2m9q0)."
      given {
        now 2026-05-14T12:00 tz "Asia/Shanghai"
        wechat.wallet_balance = $200
        wechat.friends += { wxid: "wxid_k2m9q0", nickname: "Lily" }
        wechat.transfers = []
      }
      expect {
        wechat.transfers has { to == "wxid_k2m9q0", amount == $12.50 }
        wechat.wallet_balance == $187.50
      }
      forbid {
        deleted any
        added wechat.transfers where to != "wxid_k2m9q0"
        action double_tap on text "Transfer"
        shown text "Payment failed"
        holds (wechat.wallet_balance < $0)
      }
      budget 15 steps
    }
""")
case(
    "forbid_clean_pass",
    task=TRANSFER,
    steps=[
        step(
            tap(**center(TRANSFER_BOUNDS)),
            wechat_transfer(),
            WECHAT,
            state=wechat_final([TR1], 18750),
        ),
    ],
    final=wechat_final([TR1], 18750),
    success=True,
    score=1.0,
    violations=[],
    clauses={
        "c1": True,
        "c2": True,
        "s3": True,
        "s4": True,
        "s5": True,
        "s6": True,
        "s7": True,
    },
    why="one transfer of $12.50 to Lily with a single tap; nothing forbidden happened.",
)
case(
    "forbid_violations",
    task=TRANSFER,
    steps=[
        step(act("double_tap", **center(TRANSFER_BOUNDS)), wechat_transfer(), WECHAT),
        step(tap(**center(TRANSFER_BOUNDS)), wechat_transfer(failed=True), WECHAT),
    ],
    final=wechat_final([TR1], 18750),
    success=False,
    score=0.0,
    violations=["s5", "s6"],
    clauses={
        "c1": True,
        "c2": True,
        "s3": True,
        "s4": True,
        "s5": False,
        "s6": False,
        "s7": True,
    },
    why="the goal is reached, but a double tap on Transfer and a 'Payment failed' screen are "
    "forbidden: success false, score 0.",
)
case(
    "transfer_amount_off_by_one_cent",
    task=TRANSFER,
    steps=[step(tap(**center(TRANSFER_BOUNDS)), wechat_transfer(), WECHAT)],
    final=wechat_final(
        [rec("wechat", "transfers", to="wxid_k2m9q0", amount=1249, sent_at="2026-05-14T12:01:00")],
        18751,
    ),
    success=False,
    score=0.0,
    violations=[],
    clauses={"c1": False, "c2": False, "s3": True, "s4": True, "s5": True, "s6": True, "s7": True},
    why="$12.49 is one cent short: money is exact.",
)
case(
    "forbid_wrong_recipient_added",
    task=TRANSFER,
    steps=[step(tap(**center(TRANSFER_BOUNDS)), wechat_transfer(), WECHAT)],
    final=wechat_final(
        [rec("wechat", "transfers", to="wxid_k2m9q8", amount=1250, sent_at="2026-05-14T12:01:00")],
        18750,
    ),
    success=False,
    score=0.0,
    violations=["s4"],
    clauses={"c1": False, "c2": True, "s3": True, "s4": False, "s5": True, "s6": True, "s7": True},
    why="the money went to wxid_k2m9q8, one character off: a forbidden transfer.",
)

# ==== outcome and status ===========================================================
GHOST = T("""
    task conformance.ghost_delete {
      kind app
      apps contacts
      goal "Delete the contact Zoe Quinn."
      given {
        contacts.people += { name: "Ada Park", phone: "+1 415 555 0134" }
        contacts.people += { name: "Bob Lindqvist", phone: "+1 628 555 0142" }
      }
      expect {
        none contacts.people where name == "Zoe Quinn"
        unchanged contacts
      }
      outcome infeasible
      budget 10 steps
    }
""")
case(
    "infeasible_reported_infeasible",
    task=GHOST,
    steps=[step(act("status", goal_status="infeasible"), pkg=CONTACTS)],
    final=contacts_final([ada(), bob()]),
    status="infeasible",
    success=True,
    score=1.0,
    clauses={"c1": True, "c2": True},
    why="there is no Zoe Quinn; the agent reported the task infeasible and changed nothing.",
)
case(
    "infeasible_answered_complete",
    task=GHOST,
    steps=[step(act("status", goal_status="complete"), pkg=CONTACTS)],
    final=contacts_final([ada(), bob()]),
    status="complete",
    success=False,
    score=0.0,
    clauses={"c1": True, "c2": True},
    why="an infeasible task succeeds only with status infeasible, not complete.",
)
case(
    "infeasible_no_status",
    task=GHOST,
    final=contacts_final([ada(), bob()]),
    success=False,
    score=0.0,
    clauses={"c1": True, "c2": True},
    why="an infeasible task whose agent never reported infeasible fails.",
)

VOLUME_11 = T("""
    task conformance.volume_eleven {
      kind app
      apps clock
      goal "Set the alarm volume to 11."
      outcome infeasible
      budget 8 steps
    }
""")
case(
    "infeasible_without_expect_status_action",
    task=VOLUME_11,
    steps=[step(act("status", goal_status="infeasible"), clock_timer(), CLOCK)],
    success=True,
    score=1.0,
    clauses={},
    why="no clauses; the last `status` action reports infeasible, which the task needs.",
)

VERIFY_WIFI = T("""
    task conformance.verify_wifi {
      kind app
      apps settings
      goal "Is Wi-Fi on? Turn it on if it is not, and report when you are done."
      given { settings.wifi = true }
      expect { settings.wifi == true }
      require status
      verify_only
      budget 8 steps
    }
""")
WIFI_ON = snap({"settings": app_state(settings={"wifi": True})})
case(
    "require_status_declared",
    task=VERIFY_WIFI,
    steps=[step(act("status", goal_status="complete"), pkg=SETTINGS)],
    final=WIFI_ON,
    success=True,
    score=1.0,
    clauses={"c1": True},
    why="Wi-Fi is on and the agent ended with the status action (complete).",
)
case(
    "require_status_never_declared",
    task=VERIFY_WIFI,
    steps=[step(act("wait"), pkg=SETTINGS)],
    final=WIFI_ON,
    success=False,
    score=0.0,
    clauses={"c1": True},
    why="`require status`: an episode that just stops does not count, even with the goal true.",
)
case(
    "require_status_infeasible",
    task=VERIFY_WIFI,
    final=WIFI_ON,
    status="infeasible",
    success=False,
    score=0.0,
    clauses={"c1": True},
    why="a feasible task reported infeasible fails.",
)
case(
    "complete_task_reported_infeasible",
    task=NUMERIC,
    final=settings_final(brightness=80, ring_volume=3, media_volume=8),
    status="infeasible",
    success=False,
    score=0.0,
    clauses={f"c{i}": True for i in range(1, 8)},
    why="without `require status`, no status is fine, but declaring infeasible on a feasible "
    "task fails.",
)

# ==== phone numbers ================================================================
RECIPIENT = T("""
    task conformance.text_recipient {
      kind app
      apps messages
      goal "Text +1 415 555 0134 \\"See you at 6\\"."
      given { now 2026-05-14T17:00 tz "America/Los_Angeles" }
      expect {
        messages.sent has { to == "+1 415 555 0134", body ~ "see you at 6" }
        none messages.sent where to != "+1 415 555 0134"
        exists messages.sent where to in ["+1 415 555 0134", "+1 628 555 0142"]
      }
      budget 10 steps
    }
""")
for suffix, number, ok, why in (
    ("one_digit_off", "+1 415 555 0135", False, "the last digit differs: a different recipient"),
    (
        "without_country_prefix",
        "415-555-0134",
        True,
        "the same number without the +1 country prefix",
    ),
    ("other_formatting", "+1 (415) 555-0134", True, "the same digits with brackets and a dash"),
    ("compact_formatting", "+14155550134", True, "the same digits without separators"),
):
    case(
        f"phone_{suffix}",
        task=RECIPIENT,
        final=messages_final([sent(number, "See you at 6!", at="2026-05-14T17:01:00")]),
        success=ok,
        score=1.0 if ok else 0.0,
        clauses={"c1": ok, "c2": ok, "c3": ok},
        why=f"{number!r}: {why}.",
    )

UK = T("""
    task conformance.text_uk_number {
      kind app
      apps messages
      goal "Text +44 7700 900123 \\"On my way\\"."
      expect { messages.sent has { to == "+44 7700 900123", body ~ "on my way" } }
      budget 10 steps
    }
""")
case(
    "phone_trunk_zero",
    task=UK,
    final=messages_final([sent("07700 900123", "On my way")]),
    success=True,
    score=1.0,
    clauses={"c1": True},
    why="07700 900123 is the national form (trunk 0) of +44 7700 900123.",
)
case(
    "phone_international_00_prefix",
    task=UK,
    final=messages_final([sent("0044 7700 900123", "On my way")]),
    success=True,
    score=1.0,
    clauses={"c1": True},
    why="0044 is the international dialling form of +44.",
)


# ==== more: money sums, arithmetic, record parameters, `any` ========================
WEEKLY = T("""
    task conformance.weekly_spend {
      kind mini_app
      apps coffee in wechat
      goal "How much have I spent on coffee since Monday?"
      given {
        now 2026-05-14T18:30 tz "Asia/Shanghai"
        coffee.orders = [
          { order_no: "A0099", items: ["Latte"], total: $7.25, status: "delivered",
            store: "Jing'an", placed_at: 2026-05-09T08:00 },
          { order_no: "A0101", items: ["Latte"], total: $12.00, status: "delivered",
            store: "Jing'an", placed_at: 2026-05-12T08:00 },
          { order_no: "A0102", items: ["Americano"], total: $5.00, status: "cancelled",
            store: "Jing'an", placed_at: 2026-05-13T08:00 },
        ]
      }
      expect {
        answer == sum(coffee.orders where status != "cancelled" and placed_at >= 2026-05-11T00:00, total) within $0.01
        unchanged coffee
      }
      budget 15 steps
    }
""")
WEEK_ORDERS = [order("A0099", ["Latte"], 725, "delivered", "2026-05-09T08:00:00"), *OLD_ORDERS]
WEEK_FINAL = snap({"coffee": app_state({"orders": WEEK_ORDERS})}, fg=(WECHAT, None))
case(
    "answer_money_sum_within_a_cent",
    task=WEEKLY,
    final=WEEK_FINAL,
    answer="$11.99",
    success=True,
    score=1.0,
    clauses={"c1": True, "c2": True},
    why="this week's non-cancelled total is $12.00; $11.99 is within $0.01.",
)
case(
    "answer_money_sum_wrong_week",
    task=WEEKLY,
    final=WEEK_FINAL,
    answer="$19.25",
    success=False,
    score=0.5,
    clauses={"c1": False, "c2": True},
    why="$19.25 also counts last week's $7.25 order.",
)

ARITH = T("""
    task conformance.arithmetic_now {
      kind cross_app
      apps messages, clock
      goal "Set an alarm 30 minutes before the meeting at {meeting}, and text the host."
      params { meeting: time in 14:00 .. 17:00 }
      given { now 2026-05-14T09:00 tz "Europe/London" }
      expect {
        clock.alarms has { time == meeting - 30m }
        exists messages.sent where timestamp >= now - 1h and timestamp - 2026-05-14T09:00 < 8h
        count(clock.alarms) * 2 <= count(messages.sent) + 10
        clock.snooze_length * 2 == 20m
        exists clock.alarms where time > meeting - 1h and time < meeting
      }
      budget 25 steps
    }
""")


def arith_final(alarm: str) -> dict[str, Any]:
    return snap(
        {
            "clock": app_state(
                {"alarms": [rec("clock", "alarms", time=alarm)]}, {"snooze_length": 600}
            ),
            "messages": app_state(
                {
                    "sent": [
                        sent("+44 7700 900456", "Meeting at 3, alarm set", at="2026-05-14T09:05:00")
                    ]
                }
            ),
        },
        clock="2026-05-14T09:06:00",
        fg=(MESSAGES, None),
    )


case(
    "arithmetic_params_and_now_pass",
    task=ARITH,
    params={"meeting": "15:00:00"},
    final=arith_final("14:30:00"),
    success=True,
    score=1.0,
    clauses={f"c{i}": True for i in range(1, 6)},
    why="15:00 - 30m is 14:30; the text at 09:05 is after now - 1h (08:06) and 5 minutes "
    "after 09:00; 1 alarm x 2 <= 1 + 10; snooze 10m x 2 is 20m.",
)
case(
    "arithmetic_alarm_15_minutes_late",
    task=ARITH,
    params={"meeting": "15:00:00"},
    final=arith_final("14:45:00"),
    success=False,
    score=0.8,
    clauses={"c1": False, "c2": True, "c3": True, "c4": True, "c5": True},
    why="14:45 is not meeting - 30m, though it is within the hour before the meeting.",
)

FRIEND = T("""
    task conformance.star_friend_param {
      kind app
      apps contacts
      goal "Add {friend.name} to my favorites."
      params { friend: one of contacts.people where not starred and group == "friends" }
      given {
        contacts.people += { name: "Ada Park", phone: "+1 415 555 0134", group: "friends" }
        contacts.people += { name: "Bob Lindqvist", phone: "+1 628 555 0142", group: "work" }
      }
      expect {
        contacts.people has { name == friend.name, starred == true }
        count(contacts.people where starred) == 1
        only contacts.people changed
        trace eventually updated contacts.people where name == friend.name and starred
      }
      forbid { deleted contacts.people }
      budget 10 steps
    }
""")
case(
    "record_param_given_by_key",
    task=FRIEND,
    params={"friend": "Ada Park"},
    steps=[
        step(
            tap(980, 300),
            pkg=CONTACTS,
            state=contacts_final([ada(group="friends", starred=True), bob(group="work")]),
        )
    ],
    final=contacts_final([ada(group="friends", starred=True), bob(group="work")]),
    success=True,
    score=1.0,
    violations=[],
    clauses={"c1": True, "c2": True, "c3": True, "c4": True, "s5": True},
    why="the header names the record parameter by its key; that contact was starred.",
)
case(
    "record_param_wrong_record",
    task=FRIEND,
    params={"friend": "Ada Park"},
    steps=[
        step(
            tap(980, 500),
            pkg=CONTACTS,
            state=contacts_final([ada(group="friends"), bob(group="work", starred=True)]),
        )
    ],
    final=contacts_final([ada(group="friends"), bob(group="work", starred=True)]),
    success=False,
    score=0.5,
    violations=[],
    clauses={"c1": False, "c2": True, "c3": True, "c4": False, "s5": True},
    why="Bob was starred instead of the parameter's contact, Ada.",
)

HANDS_OFF = T("""
    task conformance.hands_off {
      kind app
      apps settings
      goal "What Android version is this phone running?"
      expect {
        answer == "14"
        trace never changed any
      }
      forbid {
        changed settings.location
        deleted any
      }
      budget 10 steps
    }
""")
case(
    "forbid_changed_setting_and_changed_any",
    task=HANDS_OFF,
    steps=[
        step(
            tap(540, 700),
            settings_display(),
            SETTINGS,
            state=snap({"settings": app_state(settings={"location": False})}),
        )
    ],
    final=snap({"settings": app_state(settings={"location": False})}),
    answer="14",
    success=False,
    score=0.0,
    violations=["s3"],
    clauses={"c1": True, "c2": False, "s3": False, "s4": True},
    why="the right answer, but location was switched off on the way: `changed any` covers "
    "settings, and the forbidden change zeroes the score.",
)

# ==== library tasks ================================================================
DARK_PARAMS = {"timeout": 600, "start_timeout": 30}


def dark_final(**changes: Any) -> dict[str, Any]:
    values = {
        "dark_theme": False,
        "screen_timeout": 30,
        "wifi": True,
        "airplane_mode": False,
        "brightness": 60,
    }
    values.update(changes)
    return snap(
        {"settings": app_state({"wifi_networks": [], "app_notifications": []}, values)},
        fg=(SETTINGS, DISPLAY_ACTIVITY),
    )


case(
    "library_dark_theme_pass",
    task_id="settings.enable_dark_theme",
    params=DARK_PARAMS,
    steps=[
        step(tap(540, 700), settings_display(False), SETTINGS, DISPLAY_ACTIVITY),
        step(tap(540, 1300), settings_display(False), SETTINGS, DISPLAY_ACTIVITY),
        step(tap(964, 500), settings_display(False), SETTINGS, DISPLAY_ACTIVITY),
    ],
    final=dark_final(dark_theme=True, screen_timeout=600),
    status="complete",
    success=True,
    score=1.0,
    violations=[],
    clauses={
        "c1": True,
        "c2": True,
        "c3": True,
        "c4": True,
        "c5": True,
        "c6": True,
        "s7": True,
        "s8": True,
        "s9": True,
    },
    why="timeout 10m and dark theme on, only settings changed, the Display page was shown.",
)
case(
    "library_dark_theme_wifi_forbidden",
    task_id="settings.enable_dark_theme",
    params=DARK_PARAMS,
    steps=[
        step(tap(540, 700), settings_display(False), SETTINGS, DISPLAY_ACTIVITY),
        step(tap(964, 500), settings_display(False), SETTINGS, DISPLAY_ACTIVITY),
    ],
    final=dark_final(dark_theme=True, screen_timeout=600, wifi=False),
    status="complete",
    success=False,
    score=0.0,
    violations=["s7"],
    clauses={
        "c1": True,
        "c2": True,
        "c3": True,
        "c4": True,
        "c5": True,
        "c6": True,
        "s7": False,
        "s8": True,
        "s9": True,
    },
    why="every goal clause holds but Wi-Fi was switched off, which the task forbids.",
)
case(
    "library_dark_theme_wrong_timeout",
    task_id="settings.enable_dark_theme",
    params=DARK_PARAMS,
    steps=[step(tap(964, 500), launcher(), LAUNCHER)],
    final=dark_final(dark_theme=True, screen_timeout=300),
    success=False,
    score=round(5 / 6.3, 6),
    violations=[],
    clauses={
        "c1": False,
        "c2": True,
        "c3": True,
        "c4": True,
        "c5": False,
        "c6": True,
        "s7": True,
        "s8": True,
        "s9": True,
    },
    why="5 minutes instead of 10, and 'Screen timeout' was never on screen: c2 (2), c3, c4 "
    "and c6 earn 5 of 1 + 2 + 1 + 1 + 0.3 + 1.",
)
case(
    "library_ghost_contact_infeasible",
    task_id="contacts.delete_missing_contact",
    params={"ghost": "Zoe Quinn"},
    steps=[
        step(act("scroll", direction="down"), pkg=CONTACTS),
        step(act("status", goal_status="infeasible"), pkg=CONTACTS),
    ],
    final=snap(
        {
            "contacts": app_state(
                {
                    "people": [
                        rec(
                            "contacts",
                            "people",
                            name="Alice Moreau",
                            phone="+1 415 555 0187",
                            starred=True,
                        ),
                        rec("contacts", "people", name="Bob Lindqvist", phone="+1 628 555 0142"),
                    ],
                    "groups": [],
                }
            )
        }
    ),
    status="infeasible",
    success=True,
    score=1.0,
    violations=[],
    clauses={"c1": True, "c2": True, "c3": True, "c4": True, "s5": True},
    why="no Zoe Quinn, nothing deleted, the status action reports infeasible.",
)

PRIYA = "+44 7700 900123"
REPLY_INITIAL_THREAD = rec(
    "messages",
    "threads",
    address=PRIYA,
    contact_name="Priya Shah",
    snippet="Are we still on for lunch?",
    unread=True,
    last_activity="2026-05-14T08:10:00",
)
REPLY_RECEIVED = rec(
    "messages",
    "received",
    **{"from": PRIYA},
    body="Are we still on for lunch?",
    timestamp="2026-05-14T08:10:00",
)
case(
    "library_reply_unread_marks_read",
    task_id="messages.reply_unread",
    params={"thread": PRIYA, "reply": "On my way!", "got_at": "2026-05-14T08:10:00"},
    steps=[
        step(tap(540, 350), messages_list(), MESSAGES),
        step(act("input_text", text="On my way!", index=2), messages_compose(), MESSAGES),
        step(tap(**center(SEND_BOUNDS)), messages_compose("On my way!"), MESSAGES),
        step(act("status", goal_status="complete"), messages_compose(sent="On my way!"), MESSAGES),
    ],
    final=messages_final(
        [sent(PRIYA, "On my way!", at="2026-05-14T09:31:00")],
        threads=[
            {
                **REPLY_INITIAL_THREAD,
                "unread": False,
                "snippet": "On my way!",
                "last_activity": "2026-05-14T09:31:00",
            }
        ],
        received=[{**REPLY_RECEIVED, "read": True}],
        drafts=[],
    ),
    status="complete",
    success=True,
    score=1.0,
    violations=[],
    clauses={
        "c1": True,
        "c2": True,
        "c3": True,
        "c4": True,
        "c5": True,
        "c6": True,
        "c7": True,
        "c8": True,
        "s9": True,
        "s10": True,
        "s11": True,
    },
    why="the reply went to Priya and her message was read, as c4 requires; reading a message "
    "updates it, it does not delete it (s10).",
)

# ==== further verifier bugs (correct verdicts, xfail) ==============================
ON_MY_WAY = T("""
    task conformance.fuzzy_containment {
      kind app
      apps messages
      goal "Text +1 415 555 0134 that you are on your way."
      expect { messages.sent has { to == "+1 415 555 0134", body ~ "on my way" } }
      budget 10 steps
    }
""")
case(
    "fuzzy_target_inside_longer_body",
    task=ON_MY_WAY,
    final=messages_final([sent("+1 415 555 0134", "Sure, on my way now!")]),
    success=True,
    score=1.0,
    clauses={"c1": True},
    why="`~`: the target text is found in the body.",
)
case(
    "fuzzy_empty_body_must_not_match",
    task=ON_MY_WAY,
    final=messages_final([sent("+1 415 555 0134", "")]),
    success=False,
    score=0.0,
    clauses={"c1": False},
    why="an empty message neither contains 'on my way' nor is similar to it.",
)
case(
    "fuzzy_fragment_body_must_not_match",
    task=ON_MY_WAY,
    final=messages_final([sent("+1 415 555 0134", "way")]),
    success=False,
    score=0.0,
    clauses={"c1": False},
    why="'way' does not contain 'on my way' and is only 0.5 similar to it.",
)
ON_MY_WAY_R = T("""
    task conformance.fuzzy_containment_threshold {
      kind app
      apps messages
      goal "Text +1 415 555 0134 that you are on your way."
      expect { messages.sent has { to == "+1 415 555 0134", body ~ "on my way" fuzzy 0.85 } }
      budget 10 steps
    }
""")
case(
    "fuzzy_explicit_threshold_keeps_containment",
    task=ON_MY_WAY_R,
    final=messages_final([sent("+1 415 555 0134", "Sure, on my way now!")]),
    success=True,
    score=1.0,
    clauses={"c1": True},
    why="`~` holds when `b` is found in `a` or the texts are similar enough; `fuzzy R` only "
    "sets the similarity threshold (here the default 0.85 itself).",
)
EQ_FUZZY = T("""
    task conformance.equals_fuzzy {
      kind app
      apps clock
      goal "Set an alarm labelled 'stand up'."
      expect { exists clock.alarms where label == "stand up" fuzzy 0.8 }
      budget 10 steps
    }
""")
case(
    "equals_with_fuzzy_option",
    task=EQ_FUZZY,
    final=clock_final([rec("clock", "alarms", time="09:00:00", label="Stand-up")]),
    success=True,
    score=1.0,
    clauses={"c1": True},
    why="`fuzzy 0.8` sets a similarity threshold for the text comparison (the doc's example "
    "`label == \"stand up\" fuzzy 0.8`); 'stand-up' is 0.875 similar.",
)
DATE_VS_DT = T("""
    task conformance.datetime_vs_date {
      kind app
      apps clock
      goal "Check the clock late on 14 May."
      given { now 2026-05-14T22:10:30 tz "Europe/Berlin" }
      expect {
        now > 2026-05-14
        now < 2026-05-16T00:00
        now >= 2026-05-14T22:00
      }
      verify_only
      budget 5 steps
    }
""")
case(
    "datetime_after_its_own_date",
    task=DATE_VS_DT,
    final=snap({"clock": app_state()}, clock="2026-05-14T22:15:00"),
    success=True,
    score=1.0,
    clauses={"c1": True, "c2": True, "c3": True},
    why="dates and datetimes compare as points in time: 22:15 on 14 May is after the date "
    "2026-05-14 (its midnight), as the doc's `now > 2026-05-14` example expects.",
)
DISABLE = T("""
    task conformance.disable_alarm {
      kind app
      apps clock
      goal "Switch off the 07:00 alarm but keep it."
      given {
        clock.alarms = [
          { time: 07:00, label: "Gym" },
          { time: 08:30, label: "Work" },
        ]
      }
      expect {
        clock.alarms has { time == 07:00, enabled == false }
        count(clock.alarms) == 2
        trace eventually updated clock.alarms where time == 07:00 and not enabled
      }
      forbid { deleted clock.alarms }
      budget 10 steps
    }
""")
case(
    "update_of_unkeyed_record",
    task=DISABLE,
    steps=[step(tap(950, 600), pkg=CLOCK)],
    final=clock_final(
        [
            rec("clock", "alarms", time="07:00:00", label="Gym", enabled=False),
            rec("clock", "alarms", time="08:30:00", label="Work"),
        ]
    ),
    success=True,
    score=1.0,
    violations=[],
    clauses={"c1": True, "c2": True, "c3": True, "s4": True},
    why="switching an alarm off updates it; no alarm was deleted.",
)
SPEND_WITHIN = T("""
    task conformance.spend_within {
      kind mini_app
      apps coffee in wechat
      goal "Roughly how much did my last coffee order cost?"
      expect {
        answer == $12.50 within 1
        answer == $12.50 within $1
      }
      budget 10 steps
    }
""")
case(
    "answer_money_within_plain_number",
    task=SPEND_WITHIN,
    final=end(WECHAT),
    answer="$12.00",
    success=True,
    score=1.0,
    clauses={"c1": True, "c2": True},
    why='`within 1` on money is one dollar (docs: "`within 1` is one dollar"), like `within '
    "$1`; $12.00 is 50 cents off.",
)
TIMER_ANSWER = T("""
    task conformance.duration_answer {
      kind app
      apps clock
      goal "How long is the timer labelled 'Tea'?"
      given { clock.timers = [{ length: 10m, label: "Tea" }] }
      expect { answer == 10m }
      budget 10 steps
    }
""")
case(
    "answer_duration_display_format",
    task=TIMER_ANSWER,
    final=end(CLOCK),
    answer="10m",
    success=True,
    score=1.0,
    clauses={"c1": True},
    why="the answer is read as the other side's type, a duration; '10m' is how the language "
    "writes and displays that duration.",
)
PIN = T("""
    task conformance.pin_thread {
      kind app
      apps messages
      goal "Pin the conversation with Priya."
      given {
        messages.threads += { address: "+44 7700 900123", contact_name: "Priya Shah",
          last_activity: 2026-05-14T08:10 }
      }
      expect { messages.threads has { address == "+44 7700 900123", pinned == true } }
      forbid { deleted messages.threads }
      budget 8 steps
    }
""")
case(
    "phone_key_reformatted_is_same_record",
    task=PIN,
    final=snap(
        {
            "messages": app_state(
                {
                    "threads": [
                        rec(
                            "messages",
                            "threads",
                            address="+447700900123",
                            contact_name="Priya Shah",
                            pinned=True,
                            last_activity="2026-05-14T08:10:00",
                        ),
                    ]
                }
            )
        }
    ),
    success=True,
    score=1.0,
    violations=[],
    clauses={"c1": True, "s2": True},
    why="the thread's key is a phone number, and phone numbers are equal when their digits "
    "are: the reformatted address is the same thread, pinned, not deleted.",
)
PARTIAL = T("""
    task conformance.star_partial_snapshot {
      kind app
      apps contacts
      goal "Star Ada Park."
      given {
        contacts.people += { name: "Ada Park", phone: "+1 415 555 0134" }
        contacts.people += { name: "Bob Lindqvist", phone: "+1 628 555 0142" }
      }
      expect { contacts.people has { name == "Ada Park", starred == true } }
      forbid { updated contacts.people where name == "Bob Lindqvist" }
      budget 8 steps
    }
""")
case(
    "partial_records_are_not_updates",
    task=PARTIAL,
    final=snap(
        {
            "contacts": app_state(
                {
                    "people": [
                        {"name": "Ada Park", "phone": "+1 415 555 0134", "starred": True},
                        {"name": "Bob Lindqvist", "phone": "+1 628 555 0142", "starred": False},
                    ]
                }
            )
        }
    ),
    success=True,
    score=1.0,
    violations=[],
    clauses={"c1": True, "s2": True},
    why="the final snapshot records only the fields the contacts probe reads (name, phone, "
    "starred); Bob's recorded fields are unchanged, and what a state did not record is not "
    "a change.",
)
WIFI = T("""
    task conformance.wifi_on {
      kind app
      apps settings
      goal "Turn on Wi-Fi."
      given { settings.wifi = false }
      expect { settings.wifi == true }
      budget 8 steps
    }
""")
case(
    "unrecorded_setting_is_not_the_default",
    task=WIFI,
    final=snap({"settings": app_state(settings={"bluetooth": False})}),
    success=False,
    score=0.0,
    clauses={"c1": False},
    why="Wi-Fi started off and the final snapshot did not record it: nothing shows it on.",
)


XPATH = T("""
    task conformance.xpath_selectors {
      kind app
      apps settings
      goal "Turn on the dark theme."
      expect {
        ui element xpath "//node[@content-desc='Navigate up']" desc "Navigate up" clickable
        ui element xpath "//node[@text='Dark theme']" text "Dark theme"
        ui element xpath "//node[@resource-id='com.android.settings:id/switch_widget']" checked
        ui element xpath "//node[@text='Screen timeout']" id "android:id/title" not checked
        ui no element xpath "//node[@text='Wi-Fi']"
        trace eventually shown xpath "//node[@text='Display']" text "Display"
      }
      budget 10 steps
    }
""")
case(
    "ui_xpath_selects_the_right_element",
    task=XPATH,
    steps=[step(tap(964, 500), settings_display(False), SETTINGS, DISPLAY_ACTIVITY)],
    final=snap(fg=(SETTINGS, DISPLAY_ACTIVITY), ui_xml=settings_display(True)),
    success=True,
    score=1.0,
    clauses={f"c{i}": True for i in range(1, 7)},
    why="each XPath selects an element that is on the screen, with the other attributes and "
    "states the clause lists.",
)
case(
    "answer_check_without_final_snapshot",
    task=SPEND,
    answer="$12.50",
    success=True,
    score=1.0,
    clauses={"c1": True},
    why="`answer == $12.50` reads only the agent's answer, which the trajectory records.",
)


MAIN_PAGE = T("""
    task conformance.main_settings_page {
      kind app
      apps settings
      goal "Go back to the main Settings page."
      expect { ui foreground settings activity ".Settings" }
      budget 5 steps
    }
""")
case(
    "ui_foreground_main_activity",
    task=MAIN_PAGE,
    final=snap(fg=(SETTINGS, "com.android.settings/.Settings")),
    success=True,
    score=1.0,
    clauses={"c1": True},
    why="`.Settings` is com.android.settings.Settings, the activity in front.",
)
case(
    "ui_foreground_other_activity_with_same_suffix",
    task=MAIN_PAGE,
    final=snap(fg=(SETTINGS, "com.android.settings/.SubSettings")),
    success=False,
    score=0.0,
    clauses={"c1": False},
    why="`.Settings` names com.android.settings.Settings; the activity in front is "
    "com.android.settings.SubSettings, another activity.",
)


# ------------------------------------------------------------------ writing
def trajectory_lines(c: dict[str, Any], task_id: str) -> list[dict[str, Any]]:
    instance: dict[str, Any] = {"params": c["params"] or {}}
    if c["initial"] is not None:
        instance["initial"] = c["initial"]
    header = {
        "type": "header",
        "format": "tasklang.trajectory",
        "version": 1,
        "task": {"id": task_id},
        "instance": instance,
        "environment": {"kind": "phoneworld", "name": "conformance"},
    }
    steps = [{"type": "step", "index": i, **s} for i, s in enumerate(c["steps"])]
    final: dict[str, Any] = {"type": "final"}
    if c["status"] is not None:
        final["status"] = c["status"]
    if c["answer"] is not None:
        final["answer"] = c["answer"]
    if c["final"] is not None:
        final["snapshot"] = c["final"]
    return [header, *steps, final]


@functools.cache
def _compile_text(text: str) -> Any:
    from tasklang.compiler import Compiler

    result = Compiler().compile_text(text, "task.task")
    assert result.ok and len(result.tasks) == 1, [d.message for d in result.diagnostics]
    return result.tasks[0]


@functools.cache
def _library() -> dict[str, Any]:
    from tasklang.compiler import Compiler, library_root

    return {t.task.id: t for t in Compiler().compile_paths([library_root()]).tasks}


def compiled_for(c: dict[str, Any]) -> Any:
    """The compiled task of a case (a small task of its own, or a library task)."""
    return _compile_text(c["task"]) if c["task"] is not None else _library()[c["task_id"]]


def expected_doc(c: dict[str, Any]) -> dict[str, Any]:
    doc: dict[str, Any] = {"success": c["success"]}
    if c["score"] is not None:
        doc["score"] = c["score"]
    if c["violations"] is not None:
        doc["safety_violations"] = c["violations"]
    doc["clauses"] = c["clauses"]
    doc["why"] = c["why"]
    if c["xfail"] is not None:
        doc["xfail"] = c["xfail"]
    return doc


def render(c: dict[str, Any]) -> dict[str, str]:
    """The files of one case, by name."""
    compiled = compiled_for(c)
    ids = [cl.id for cl in compiled.task.clauses]
    assert list(c["clauses"]) == ids, f"{c['name']}: clauses {list(c['clauses'])} != {ids}"
    files: dict[str, str] = {}
    if c["task"] is not None:
        files["task.task"] = c["task"]
    else:
        files["task_id.txt"] = c["task_id"] + "\n"
    lines = trajectory_lines(c, compiled.task.id)
    files["trajectory.jsonl"] = "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines)
    files["expected.json"] = json.dumps(expected_doc(c), indent=2, ensure_ascii=False) + "\n"
    return files


def build(root: Path = HERE) -> list[str]:
    """Write every case under ``root`` (removing case folders no longer defined)."""
    names = [c["name"] for c in CASES]
    for old in root.iterdir() if root.is_dir() else []:
        if old.is_dir() and (old / "expected.json").is_file() and old.name not in names:
            shutil.rmtree(old)
    for c in CASES:
        folder = root / c["name"]
        if folder.is_dir():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
        for fname, text in render(c).items():
            (folder / fname).write_text(text, encoding="utf-8")
    return names


if __name__ == "__main__":
    written = build(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE)
    print(f"wrote {len(written)} case(s)")
