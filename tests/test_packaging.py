"""An installed wheel works without the source tree: grammar and library ship as data."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def unpacked_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    dist = tmp_path_factory.mktemp("dist")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(dist),
            str(ROOT),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    if proc.returncode != 0:
        pytest.fail(f"building the wheel failed:\n{proc.stderr[-2000:]}")
    [wheel] = dist.glob("tasklang-*.whl")
    site = tmp_path_factory.mktemp("site")
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        zf.extractall(site)
    for needed in (
        "tasklang/grammar/tasklang.lark",
        "tasklang/schemas/compiled-task.schema.json",
        "tasklang/task_library/apps/contacts.app",
        "tasklang/envs/__init__.py",
        "tasklang/verifiers/__init__.py",
        "tasklang/policy/__init__.py",
    ):
        assert needed in names, f"{needed} missing from the wheel"
    assert any(n.startswith("tasklang/task_library/") and n.endswith(".task") for n in names)
    return site


def test_wheel_compiles_its_bundled_library(unpacked_wheel: Path, tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(unpacked_wheel)}
    out = tmp_path / "out"
    proc = subprocess.run(
        [sys.executable, "-m", "tasklang.cli", "compile", "-o", str(out), "--format", "json"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert len(doc["tasks"]) >= 10
    artifact = json.loads(next(out.glob("*.json")).read_text())
    assert artifact["source"]["path"].startswith(str(unpacked_wheel))
