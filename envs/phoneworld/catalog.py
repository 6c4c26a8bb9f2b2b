"""`tasklang apps`: every PhoneWorld app and mini-app, with its package, activity, screens,
the app model it implements, and the library tasks that use it."""

from __future__ import annotations

import inspect
from collections import defaultdict
from typing import Any

from tasklang.compiler import Compiler, library_root
from tasklang.envs.phoneworld.app import App
from tasklang.envs.phoneworld.apps import app_classes


def screens_of(cls: type[App]) -> list[str]:
    """The screens an app defines (its ``screen_<name>`` methods), in source order."""
    found = [
        (inspect.getsourcelines(fn)[1] if inspect.isfunction(fn) else 0, name[len("screen_") :])
        for name, fn in inspect.getmembers(cls, callable)
        if name.startswith("screen_")
    ]
    return [name for _, name in sorted(found)]


def catalog() -> dict[str, Any]:
    """The apps (launcher apps first, then mini-apps), the app models no PhoneWorld app
    implements yet, and totals."""
    result = Compiler().compile_paths([library_root()])
    models = result.apps
    users: dict[str, list[str]] = defaultdict(list)
    for compiled in result.tasks:
        for ref in compiled.task.apps:
            users[ref.name].append(compiled.task.id)
    classes = app_classes()
    apps: list[dict[str, Any]] = []
    for name, cls in sorted(classes.items(), key=lambda kv: (kv[1].host is not None, kv[0])):
        model = models.get(name)
        apps.append(
            {
                "app": name,
                "label": cls.label,
                "package": cls.package,
                "activity": cls.activity,
                "host": cls.host,
                "screens": screens_of(cls),
                "handlers": sum(1 for n in dir(cls) if n.startswith("on_")),
                "app_model": f"task_library/apps/{name}.app" if model is not None else None,
                "collections": [c.name for c in model.collections] if model else [],
                "settings": [s.name for s in model.settings] if model else [],
                "tasks": sorted(users.get(name, [])),
            }
        )
    hosts: dict[str, list[str]] = defaultdict(list)
    for entry in apps:
        if entry["host"]:
            hosts[entry["host"]].append(entry["app"])
    return {
        "apps": apps,
        "models_without_app": sorted(set(models) - set(classes)),
        "totals": {
            "apps": sum(1 for a in apps if not a["host"]),
            "mini_apps": sum(1 for a in apps if a["host"]),
            "mini_apps_by_host": {h: sorted(m) for h, m in sorted(hosts.items())},
            "screens": sum(len(a["screens"]) for a in apps),
        },
    }


def text_report(cat: dict[str, Any]) -> str:
    rows = [("app", "label", "package", "host", "screens", "tasks")]
    for a in cat["apps"]:
        rows.append(
            (a["app"], a["label"], a["package"], a["host"] or "", str(len(a["screens"])),
             str(len(a["tasks"])))
        )  # fmt: skip
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows]
    t = cat["totals"]
    hosted = "; ".join(f"{h}: {', '.join(m)}" for h, m in t["mini_apps_by_host"].items())
    lines.append("")
    lines.append(
        f"{plural(t['apps'], 'app')} and {plural(t['mini_apps'], 'mini-app')} "
        f"({hosted or 'none'}), {plural(t['screens'], 'screen')}"
    )
    if cat["models_without_app"]:
        lines.append(f"app models with no PhoneWorld app: {', '.join(cat['models_without_app'])}")
    return "\n".join(lines)


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"
