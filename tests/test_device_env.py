"""DeviceEnv end to end on recorded command/response pairs (tests/data/device), and what
happens when a phone misbehaves: timeouts, a dropped connection, garbage output. Each
fault ends the episode as an error (reward None) with the trajectory so far written, and
nothing raises."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tasklang.cli import app
from tasklang.compiler import library_root
from tasklang.envs.device.differential import library
from tasklang.envs.device.driver import ShellDriver
from tasklang.envs.device.env import DeviceEnv
from tasklang.envs.device.runner import run_setup, run_teardown
from tasklang.envs.device.services import DATA_SAVER
from tasklang.envs.device.transport import ReplayTransport
from tasklang.sampling import sample_instance
from tasklang.verifiers.check import check_trajectory
from tasklang.verifiers.trajectory import read_trajectory

DATA = Path(__file__).parent / "data" / "device"
EPISODE = DATA / "yelp_bookmark_episode.jsonl"
TASK_FILE = library_root() / "app" / "yelp.bookmark_salon.task"
ACTIONS = [
    {"action_type": "click", "index": 2},  # the Bookmark button
    {"action_type": "click", "index": 3},  # the Bookmarks tab
    {"action_type": "status", "goal_status": "complete"},
]


def pairs() -> list[dict[str, Any]]:
    return [json.loads(line) for line in EPISODE.read_text("utf-8").splitlines()]


def make_env(recorded: list[dict[str, Any]], out: Path) -> tuple[DeviceEnv, ReplayTransport]:
    transport = ReplayTransport(recorded)
    env = DeviceEnv(
        library()["yelp.bookmark_salon"], ShellDriver(transport), transport,
        setup=False, record_path=out, sleep=lambda s: None,
    )  # fmt: skip
    return env, transport


def play(env: DeviceEnv) -> list[tuple[Any, bool, dict[str, Any]]]:
    env.reset(seed=0)
    results = []
    for action in ACTIONS:
        _, reward, terminated, _, info = env.step(action)
        results.append((reward, terminated, info))
        if terminated:
            break
    return results


def test_replayed_episode_is_checked_on_the_phone(tmp_path: Path) -> None:
    out = tmp_path / "episode.jsonl"
    env, transport = make_env(pairs(), out)
    obs, _ = env.reset(seed=0)
    assert obs["package"] == "com.yelp.android" and "Salon Lumière" in obs["ui_xml"]
    assert env.observation_space.contains(obs) and env.action_space.contains(ACTIONS[0])
    _, reward, terminated, _, _ = env.step(ACTIONS[0])
    assert reward == 0.0 and not terminated
    env.step(ACTIONS[1])
    _, reward, terminated, _, info = env.step(ACTIONS[2])
    assert terminated and reward == 1.0 and "error" not in info
    assert not transport.pairs  # every recorded command was asked, in order
    traj = read_trajectory(out)
    assert traj.header.environment.kind == "device" and len(traj.steps) == 3
    assert traj.final.extra["device_verdict"]["success"] is True
    assert check_trajectory(library()["yelp.bookmark_salon"], traj).success


def test_a_timeout_of_a_read_is_retried_once(tmp_path: Path) -> None:
    recorded = pairs()
    recorded.insert(
        6, {"line": "uiautomator dump /data/local/tmp/tasklang-window.xml", "error": "timeout"}
    )
    env, _ = make_env(recorded, tmp_path / "t.jsonl")
    assert play(env)[-1][0] == 1.0


def _fault(recorded: list[dict[str, Any]], nth_line: str, nth: int, change: dict[str, Any]) -> None:
    hits = [i for i, p in enumerate(recorded) if p["line"] == nth_line]
    recorded[hits[nth]] = {"line": nth_line, **change}


@pytest.mark.parametrize(
    ("line", "nth", "change", "steps"),
    [
        ("input tap 800 2325", 0, {"error": "timeout"}, 2),  # a tap is never sent twice
        ("cat /data/local/tmp/tasklang-window.xml", 3, {"error": "timeout"}, 1),
        ("uiautomator dump /data/local/tmp/tasklang-window.xml", 2, {"error": "disconnected"}, 1),
        ("dumpsys window", 1, {"output": "Can't find service: window\n"}, 1),
        ("cat /data/local/tmp/tasklang-window.xml", 5, {"output": "<hierarchy><node"}, 2),
        ("date +%Y-%m-%dT%H:%M:%S", 0, {"output": "Thu May 14 09:03:12 2026\n"}, 3),
        (
            "uiautomator dump /data/local/tmp/tasklang-window.xml",
            6,
            {"output": "ERROR: null root node\n"},
            3,
        ),
    ],
)
def test_faults_end_the_episode_as_an_error(
    line: str, nth: int, change: dict[str, Any], steps: int, tmp_path: Path
) -> None:
    recorded = pairs()
    _fault(recorded, line, nth, change)
    if change.get("error") == "timeout" and not line.startswith("input"):
        i = recorded.index({"line": line, **change})  # a read is retried once: time out twice
        recorded.insert(i, dict(recorded[i]))
    out = tmp_path / "fault.jsonl"
    env, _ = make_env(recorded, out)
    results = play(env)
    reward, terminated, info = results[-1]
    assert reward is None and terminated and info["error"]
    traj = read_trajectory(out)
    assert traj.final.error and len(traj.steps) == steps
    assert env.step(ACTIONS[0])[1] is None  # a finished episode stays finished


def test_a_fault_during_reset_is_reported(tmp_path: Path) -> None:
    recorded = pairs()
    recorded[0] = {"line": recorded[0]["line"], "error": "disconnected"}
    env, _ = make_env(recorded, tmp_path / "r.jsonl")
    _, info = env.reset(seed=0)
    assert env.ended and "Disconnected" in info["error"]
    assert read_trajectory(tmp_path / "r.jsonl").final.error


def test_an_invalid_action_is_a_no_op_step(tmp_path: Path) -> None:
    recorded = pairs()
    env, _ = make_env(recorded, tmp_path / "i.jsonl")
    env.reset(seed=0)
    for p in recorded[:5]:  # the same screen is observed again after the no-op
        env.transport.pairs.insert(0, dict(p))  # type: ignore[union-attr]
    _, reward, terminated, _, info = env.step({"action_type": "click", "index": 99})
    assert reward == 0.0 and not terminated and "index 99" in info["error"]


class Changing:
    """A driver whose screen never settles."""

    def __init__(self) -> None:
        self.dumps = 0

    def dump(self) -> str:
        self.dumps += 1
        return f"<hierarchy><node index='0' text='{self.dumps}' bounds='[0,0][1,1]'/></hierarchy>"

    def current(self) -> tuple[str, str]:
        return "com.yelp.android", ".Main"


def test_settle_detection_is_bounded() -> None:
    driver = Changing()
    env = DeviceEnv(library()["yelp.bookmark_salon"], driver, None, setup=False,  # type: ignore[arg-type]
                    settle_polls=4, sleep=lambda s: None)  # fmt: skip
    obs, _ = env.reset(seed=0)
    assert driver.dumps == 4 and 'text="4"' in obs["ui_xml"].replace("'", '"')


class Recorder:
    """A phone that remembers what it was told: settings stored, rows ignored."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        # Data Saver on, as the network policy service keeps it
        self.settings: dict[str, str] = {
            "secure ui_night_mode": "2", "netpolicy restrict-background": "1",
        }  # fmt: skip

    def shell(self, line: str, timeout: float = 20.0) -> str:
        import shlex

        self.lines.append(line)
        argv = shlex.split(line)
        if argv[:2] == ["settings", "get"]:
            return self.settings.get(f"{argv[2]} {argv[3]}", "null") + "\n"
        if argv[:2] == ["settings", "put"]:
            self.settings[f"{argv[2]} {argv[3]}"] = argv[4]
        if argv[:2] == ["settings", "delete"]:
            self.settings.pop(f"{argv[2]} {argv[3]}", None)
        if argv[:2] == ["content", "query"]:
            return "No result found.\n"
        if argv[:3] == ["cmd", "netpolicy", "get"]:
            return DATA_SAVER.output(self.settings[f"netpolicy {argv[3]}"])
        if argv[:3] == ["cmd", "netpolicy", "set"]:
            self.settings[f"netpolicy {argv[3]}"] = {"true": "1", "false": "0"}[argv[4]]
        return ""

    def push(self, remote: str, data: bytes, timeout: float = 60.0) -> None:
        self.lines.append(f"<push {remote}>")


def test_setup_then_teardown_puts_settings_back() -> None:
    compiled = library()["settings.enable_dark_theme"]
    initial = sample_instance(compiled, 0).initial
    phone = Recorder()
    before = dict(phone.settings)
    saved = run_setup(compiled, initial, phone)
    assert phone.settings["secure ui_night_mode"] == "1"  # the task starts with it off
    assert phone.settings["netpolicy restrict-background"] == "0"  # and Data Saver off
    run_teardown(compiled, initial, phone, saved)
    assert phone.settings == before


def test_cli_run_and_check_on_a_replay(tmp_path: Path) -> None:
    runner = CliRunner()
    first = tmp_path / "first.jsonl"
    env, _ = make_env(pairs(), first)
    play(env)
    replay = tmp_path / "pairs.jsonl"
    replay.write_text(EPISODE.read_text("utf-8"), "utf-8")
    out = tmp_path / "out.jsonl"
    result = runner.invoke(
        app,
        ["device", "run", str(TASK_FILE), "--replay", str(replay), "--no-setup",
         "--agent", f"replay:{first}", "-o", str(out), "--format", "json"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["reward"] == 1.0 and read_trajectory(out).steps
    final_probes = tmp_path / "final.jsonl"
    final_probes.write_text("\n".join(EPISODE.read_text("utf-8").splitlines()[-4:]) + "\n")
    result = runner.invoke(
        app,
        [
            "device",
            "check",
            str(TASK_FILE),
            "--replay",
            str(final_probes),
            "--trajectory",
            str(out),
        ],
    )
    assert result.exit_code == 0 and "PASS" in result.output, result.output
    result = runner.invoke(app, ["device", "check", str(TASK_FILE)])
    assert result.exit_code == 2 and "--serial" in result.output


def test_registered_with_gymnasium(tmp_path: Path) -> None:
    import gymnasium

    from tasklang.envs.device import ENV_ID

    transport = ReplayTransport(pairs())
    env = gymnasium.make(
        ENV_ID, task=library()["yelp.bookmark_salon"], driver=ShellDriver(transport),
        transport=transport, setup=False, sleep=lambda s: None, disable_env_checker=True,
    )  # fmt: skip
    obs, _ = env.reset(seed=0)
    assert obs["package"] == "com.yelp.android"


EPISODE_SAMPLE = [
    "settings.set_volumes", "contacts.update_number", "expense.fix_amount", "markor.move_note",
    "clock.ensure_alarm_on", "mini.coffee_order_latte", "cross.note_to_contacts",
    "yelp.bookmark_salon", "shopping.save_for_later", "androidworld.simple_sms_send",
    "expense.category_total", "maps.save_best_cafe",
]  # fmt: skip


@pytest.mark.parametrize("task_id", EPISODE_SAMPLE)
def test_whole_episode_through_device_env_on_phoneworld(task_id: str) -> None:
    """The reference actions through DeviceEnv (index taps become points, scrolls become
    finger swipes) still solve the task in PhoneWorld, and the device verdict agrees.
    `tasklang device differential --episodes` runs this over the whole library."""
    from tasklang.envs.device.differential import run_episode

    case = run_episode(library()[task_id], 0)
    assert case.phoneworld, case
    assert case.agrees, case
    if task_id == "yelp.bookmark_salon":
        assert case.device is True
