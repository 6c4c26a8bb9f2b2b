"""`tasklang bench phoneworld`: how cheap PhoneWorld is to step, reset, snapshot and keep alive.

- steps/s with XML observations: an action, then the uiautomator XML of the new screen;
  the actions are a seeded walk over the screens (taps on what acts, scrolls, back);
- steps/s with screenshots: the same, plus a PNG of every screen;
- reset: back to the instance's initial state (and, separately, with a newly sampled
  instance);
- snapshot and restore of the whole phone;
- memory per live instance (tracemalloc) with ``instances`` phones alive at once;
- the lxml floor: the time lxml takes to serialize a real ``uiautomator dump`` of the same
  number of nodes (a DroidBot state of the Yelp app from ../shared/realdata, scaled per node;
  without it, the PhoneWorld screen itself parsed by lxml), and a step's ratio to it.
"""

from __future__ import annotations

import json
import random
import statistics
import time
import tracemalloc
from pathlib import Path
from typing import Any

from lxml import etree

from tasklang import ir
from tasklang.envs.phoneworld.episode import Episode, missing_apps
from tasklang.envs.phoneworld.widgets import View

PREFERRED = ("settings.enable_dark_theme", "clock.weekday_alarm", "contacts.add_coworker")
USED_STEPS = 20  # steps each live instance takes before its memory is measured
REALDATA = Path(__file__).resolve().parents[2].parent / "shared" / "realdata"


def pick_task(tasks: dict[str, ir.CompiledTask], name: str | None) -> ir.CompiledTask:
    if name is not None:
        return tasks[name]
    for tid in PREFERRED:
        if tid in tasks and not missing_apps(tasks[tid]):
            return tasks[tid]
    runnable = [c for c in tasks.values() if not missing_apps(c)]
    if not runnable:
        raise ValueError("no library task has all its apps in PhoneWorld")
    return runnable[0]


def walk_action(tree: View, rng: random.Random) -> dict[str, Any]:
    """A plausible next action: mostly taps on views that act, sometimes scroll or back."""
    roll = rng.random()
    if roll < 0.12:
        return {"action_type": "navigate_back"}
    if roll < 0.2:
        return {"action_type": "scroll", "direction": rng.choice(["up", "down"])}
    acting = [i for i, v in enumerate(tree.walk()) if v.on_click and v.bounds[3] > v.bounds[1]]
    if not acting:
        return {"action_type": "navigate_back"}
    return {"action_type": "click", "index": rng.choice(acting)}


def steps_per_second(ep: Episode, steps: int, screenshots: bool = False) -> tuple[float, int]:
    """Steps per second over a seeded walk (only the phone's work is timed: the action,
    the new screen and its XML, and the screenshot when asked for; not the choice of the
    next action); also the mean number of nodes per screen."""
    rng = random.Random(0)
    start_state = ep.phone.snapshot()
    nodes = 0
    render = None
    if screenshots:
        from tasklang.envs.phoneworld.render import render_png

        render = render_png
    clock = time.perf_counter
    spent = 0.0
    for i in range(steps):
        action = walk_action(ep.phone.observe(), rng)
        if i % 21 == 20:
            action = {"action_type": "navigate_home"}
        if ep.phone.foreground is None:
            action = {"action_type": "open_app", "app_name": ep.phone.apps[_first_app(ep)].label}
        t = clock()
        ep.phone.act(action)
        xml = ep.phone.xml()
        if render is not None:
            render(ep.phone.observe(), ep.width, ep.height)
        spent += clock() - t
        nodes += xml.count("<node ")
        if ep.phone.ended:
            ep.phone.restore(start_state)
    ep.phone.restore(start_state)
    return steps / spent, nodes // max(1, steps)


def library_walks(tasks: dict[str, ir.CompiledTask], steps: int, per_node: float) -> dict[str, Any]:
    """The same walk on every runnable library task: steps/s, nodes per screen, the share of
    screens reused from the phone's recent ones, and each step's ratio to the lxml floor
    for its screen size; with the median and the worst ratio."""
    rows: list[dict[str, Any]] = []
    ratios: list[float] = []
    rates: list[float] = []
    for tid in sorted(tasks):
        if missing_apps(tasks[tid]):
            continue
        ep = Episode(tasks[tid], 0, record=False)
        ep.phone.hits = ep.phone.misses = 0
        rate, nodes = steps_per_second(ep, steps)
        seen = ep.phone.hits + ep.phone.misses
        ratios.append(round(1.0 / rate / (per_node * max(1, nodes)), 2))
        rates.append(round(rate, 1))
        rows.append(
            {
                "task": tid,
                "steps_per_s_xml": rates[-1],
                "nodes_per_screen": nodes,
                "screens_reused": round(ep.phone.hits / max(1, seen), 3),
                "step_over_lxml_floor": ratios[-1],
            }
        )
    ratios.sort()
    return {
        "tasks": rows,
        "median_step_over_lxml_floor": statistics.median(ratios) if ratios else None,
        "worst_step_over_lxml_floor": ratios[-1] if ratios else None,
        "slowest_steps_per_s_xml": min(rates, default=None),
    }


def _first_app(ep: Episode) -> str:
    """The task's first app that the launcher shows (a mini-app's host for a mini-app)."""
    for ref in ep.compiled.task.apps:
        app = ep.phone.apps[ref.name]
        model = app.host or ref.name
        if model in ep.phone.apps:
            return model
    return ep.compiled.task.apps[0].name


def timed(fn: Any, repeat: int) -> float:
    """Median seconds of ``fn()`` over batches."""
    samples = []
    batch = max(1, repeat // 10)
    for _ in range(10):
        t = time.perf_counter()
        for _ in range(batch):
            fn()
        samples.append((time.perf_counter() - t) / batch)
    return statistics.median(samples)


def real_dump_floor(nodes: int) -> dict[str, Any]:
    """Seconds lxml takes to serialize a real dump, scaled to ``nodes`` nodes."""
    states = sorted(
        (REALDATA / "droidbot_yelp" / "report_com.yelp.android" / "states").glob("*.json")
    )
    best: tuple[int, Any, str] | None = None
    for path in states:
        try:
            views = json.loads(path.read_text("utf-8"))["views"]
        except (OSError, ValueError, KeyError):
            continue
        if best is None or len(views) > best[0]:
            best = (len(views), views, path.name)
    if best is None:
        return {"source": None}
    count, views, name = best
    root = dump_from_views(views)
    serialize = lambda: etree.tostring(root, encoding="UTF-8", xml_declaration=True)  # noqa: E731
    seconds = timed(serialize, 2000)
    return {
        "source": f"droidbot_yelp/report_com.yelp.android/states/{name}",
        "nodes": count,
        "seconds_per_node": seconds / count,
        "seconds_scaled": seconds / count * nodes,
    }


def _b(value: Any) -> str:
    return "true" if value else "false"


def dump_from_views(views: list[dict[str, Any]]) -> Any:
    """A DroidBot state's views as a uiautomator dump tree (attributes renamed back)."""
    root = etree.Element("hierarchy", rotation="0")
    made: dict[int, Any] = {}
    for view in views:
        parent = made.get(view.get("parent", -1), root)
        (left, top), (right, bottom) = view.get("bounds") or [[0, 0], [0, 0]]
        made[view["temp_id"]] = etree.SubElement(
            parent, "node",
            index="0", text=view.get("text") or "", **{"resource-id": view.get("resource_id") or ""},
            **{"class": view.get("class") or ""}, package=view.get("package") or "",
            **{"content-desc": view.get("content_description") or ""},
            checkable=_b(view.get("checkable")), checked=_b(view.get("checked")),
            clickable=_b(view.get("clickable")), enabled=_b(view.get("enabled")),
            focusable=_b(view.get("focusable")), focused=_b(view.get("focused")),
            scrollable=_b(view.get("scrollable")), **{"long-clickable": _b(view.get("long_clickable"))},
            password=_b(view.get("is_password")), selected=_b(view.get("selected")),
            bounds=f"[{left},{top}][{right},{bottom}]",
        )  # fmt: skip
    return root


def memory_per_instance(compiled: ir.CompiledTask, instances: int) -> dict[str, Any]:
    tracemalloc.start()
    base = tracemalloc.take_snapshot()
    alive = []
    for seed in range(instances):
        ep = Episode(compiled, seed, record=False)
        rng = random.Random(seed)
        for _ in range(USED_STEPS):  # a used phone: its recent screens are kept
            ep.phone.act(walk_action(ep.phone.observe(), rng))
            ep.phone.xml()
        alive.append(ep)
    now = tracemalloc.take_snapshot()
    tracemalloc.stop()
    used = sum(s.size_diff for s in now.compare_to(base, "filename"))
    return {"alive": len(alive), "bytes_per_instance": used // max(1, len(alive))}


def bench_phoneworld(
    steps: int = 2000, instances: int = 1000, task: str | None = None, screenshots: bool = True
) -> dict[str, Any]:
    from tasklang.compiler import Compiler, library_root

    result = Compiler().compile_paths([library_root()])
    tasks = {c.task.id: c for c in result.tasks}
    compiled = pick_task(tasks, task)
    ep = Episode(compiled, 0, record=False)
    ep.phone.hits = ep.phone.misses = 0
    xml_rate, nodes = steps_per_second(ep, steps)
    reused = ep.phone.hits / max(1, ep.phone.hits + ep.phone.misses)
    shots_rate = None
    if screenshots:
        shots_rate, _ = steps_per_second(ep, max(50, steps // 20), screenshots=True)
    reset_s = timed(ep.reset, 2000)
    new_instance_s = timed(lambda: Episode(compiled, random.randrange(10**6), record=False), 200)
    saved = ep.phone.snapshot()
    snapshot_s = timed(ep.phone.snapshot, 5000)
    restore_s = timed(lambda: ep.phone.restore(saved), 5000)
    memory = memory_per_instance(compiled, instances)
    floor = real_dump_floor(nodes)
    step_s = 1.0 / xml_rate
    if floor.get("source") is None:
        tree = etree.fromstring(ep.phone.xml().encode())
        seconds = timed(lambda: etree.tostring(tree), 2000)
        floor = {"source": "the PhoneWorld screen, serialized by lxml", "nodes": nodes,
                 "seconds_scaled": seconds, "seconds_per_node": seconds / max(1, nodes)}  # fmt: skip
    library = library_walks(tasks, max(100, steps // 4), floor["seconds_per_node"])
    return {
        "task": compiled.task.id,
        "steps": steps,
        "nodes_per_screen": nodes,
        "steps_per_s_xml": round(xml_rate, 1),
        "screens_reused": round(reused, 3),
        "steps_per_s_screenshots": round(shots_rate, 1) if shots_rate else None,
        "reset_ms": round(reset_s * 1000, 4),
        "reset_new_instance_ms": round(new_instance_s * 1000, 4),
        "snapshot_us": round(snapshot_s * 1e6, 2),
        "restore_us": round(restore_s * 1e6, 2),
        "instances_alive": memory["alive"],
        "mb_per_instance": round(memory["bytes_per_instance"] / 2**20, 4),
        "lxml_floor": {k: v for k, v in floor.items() if k != "seconds_per_node"},
        "step_over_lxml_floor": round(step_s / floor["seconds_scaled"], 2),
        "library": library,
        "targets": {
            "steps_per_s_xml": ">= 2000 per core",
            "reset_ms": "< 1",
            "mb_per_instance": "< 10",
            "instances_alive": ">= 1000",
            "step_over_lxml_floor": "<= 3",
        },
    }


def text_report(figures: dict[str, Any]) -> str:
    """The figures as text: the headline task's, then one line per library task."""
    lines = []
    for key, value in figures.items():
        if key == "library":
            continue
        shown = json.dumps(value) if isinstance(value, dict) else value
        lines.append(f"{key:32} {shown}")
    library = figures.get("library") or {}
    rows = library.get("tasks") or []
    if rows:
        width = max(len(r["task"]) for r in rows)
        lines.append("")
        lines.append(f"{'library task':{width}}  steps/s  nodes  reused  x lxml floor")
        for r in rows:
            lines.append(
                f"{r['task']:{width}}  {r['steps_per_s_xml']:7.0f}  {r['nodes_per_screen']:5}"
                f"  {r['screens_reused']:6.2f}  {r['step_over_lxml_floor']:12.2f}"
            )
        lines.append(
            f"median x lxml floor {library['median_step_over_lxml_floor']}, worst "
            f"{library['worst_step_over_lxml_floor']}, slowest "
            f"{library['slowest_steps_per_s_xml']} steps/s"
        )
    return "\n".join(lines)
