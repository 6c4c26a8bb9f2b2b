"""`tasklang apps`: every PhoneWorld app and mini-app with its package, screens and app model,
and the library tasks that use it."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from tasklang.cli import app
from tasklang.compiler import library_root
from tasklang.envs.phoneworld.apps import app_classes

runner = CliRunner()


def listing() -> dict:
    result = runner.invoke(app, ["apps", "--format", "json"])
    assert result.exit_code == 0, result.stdout
    return json.loads(result.stdout)


def test_every_app_is_listed_with_its_model_and_screens() -> None:
    cat = listing()
    names = [a["app"] for a in cat["apps"]]
    assert sorted(names) == sorted(app_classes())
    for entry in cat["apps"]:
        cls = app_classes()[entry["app"]]
        assert entry["package"] == cls.package and "." in entry["package"]
        assert entry["activity"].startswith(("com.", "org.", "net.", "code."))
        assert cls.home in entry["screens"], entry["app"]
        assert entry["app_model"] == f"task_library/apps/{entry['app']}.app"
        assert (library_root() / "apps" / f"{entry['app']}.app").is_file()
        assert entry["collections"] or entry["settings"], entry["app"]
    assert cat["models_without_app"] == []


def test_mini_apps_come_last_and_run_in_a_listed_host() -> None:
    cat = listing()
    hosts = [a["host"] is not None for a in cat["apps"]]
    assert hosts == sorted(hosts)  # launcher apps first
    launcher = {a["app"] for a in cat["apps"] if a["host"] is None}
    minis = [a for a in cat["apps"] if a["host"]]
    assert minis and all(m["host"] in launcher for m in minis)
    by_host = cat["totals"]["mini_apps_by_host"]
    assert sum(len(v) for v in by_host.values()) == cat["totals"]["mini_apps"] == len(minis)


def test_every_app_has_library_tasks() -> None:
    lacking = [a["app"] for a in listing()["apps"] if not a["tasks"]]
    assert lacking == []


def test_text_listing() -> None:
    result = runner.invoke(app, ["apps"])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["app", "label", "package", "host", "screens", "tasks"]
    assert any(line.startswith("settings ") and "com.android.settings" in line for line in lines)
    assert "mini-app" in lines[-1] or "mini-app" in lines[-2]
