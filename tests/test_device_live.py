"""Live checks on a real phone or emulator: run only when ``TASKLANG_DEVICE_SERIAL`` names
one (``adb devices`` lists it). They read state and the screen; none changes the phone
except `test_live_setup_and_teardown`, which sets a settings task's state and puts it back.

    TASKLANG_DEVICE_SERIAL=emulator-5554 pytest tests/test_device_live.py -n 0
"""

from __future__ import annotations

import os

import pytest

from tasklang.envs.device.differential import library

SERIAL = os.environ.get("TASKLANG_DEVICE_SERIAL")
pytestmark = pytest.mark.skipif(
    not SERIAL, reason="no phone: set TASKLANG_DEVICE_SERIAL to an adb serial to run these"
)


def test_live_probe_reads_settings_and_the_screen() -> None:
    from tasklang.envs.device.check import probe
    from tasklang.envs.device.transport import AdbTransport

    assert SERIAL is not None
    reading = probe(library()["settings.enable_dark_theme"], AdbTransport(SERIAL))
    snap = reading.snapshot
    assert isinstance(snap.apps["settings"].settings.get("dark_theme"), bool)
    assert snap.foreground is not None and snap.foreground.package
    assert snap.ui_xml and "<hierarchy" in snap.ui_xml and snap.clock


def test_live_episode_with_uiautomator2(tmp_path) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("uiautomator2")
    from tasklang.envs.device.driver import U2Driver
    from tasklang.envs.device.env import DeviceEnv
    from tasklang.envs.device.transport import AdbTransport

    assert SERIAL is not None
    env = DeviceEnv(
        library()["settings.enable_dark_theme"], U2Driver(SERIAL), AdbTransport(SERIAL),
        setup=False, record_path=tmp_path / "live.jsonl", serial=SERIAL,
    )  # fmt: skip
    obs, _ = env.reset(seed=0)
    assert "<hierarchy" in obs["ui_xml"]
    _, _, terminated, _, info = env.step({"action_type": "navigate_home"})
    assert not terminated and "error" not in info
    _, reward, terminated, _, info = env.step({"action_type": "status", "goal_status": "complete"})
    assert terminated and "error" not in info and reward in (None, 0.0, 1.0)
    assert env.verdict is not None and env.verdict.verdict.task == "settings.enable_dark_theme"
    assert (tmp_path / "live.jsonl").is_file()


def test_live_setup_and_teardown() -> None:
    from tasklang.envs.device.check import probe
    from tasklang.envs.device.runner import run_setup, run_teardown
    from tasklang.envs.device.transport import AdbTransport
    from tasklang.sampling import sample_instance

    assert SERIAL is not None
    compiled = library()["settings.enable_dark_theme"]
    t = AdbTransport(SERIAL)
    before = probe(compiled, t).snapshot.apps["settings"].settings
    initial = sample_instance(compiled, 0).initial
    plan_free = compiled.model_copy(
        update={
            "task": compiled.task.model_copy(
                update={"given": compiled.task.given.model_copy(update={"clock": None})}
            )
        }
    )  # no clock: setting it needs root
    saved = run_setup(plan_free, initial, t)
    try:
        during = probe(compiled, t).snapshot.apps["settings"].settings
        assert during["dark_theme"] == initial.apps["settings"].settings["dark_theme"]
    finally:
        run_teardown(plan_free, initial, t, saved)
    assert probe(compiled, t).snapshot.apps["settings"].settings == before
