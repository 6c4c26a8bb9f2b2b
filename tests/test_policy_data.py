"""Policy data: observations, the action tools, demonstrations, splits, mixtures, configs,
intervals and the human-evaluation sheet (no training library needed beyond transformers)."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from tasklang.policy.actions import ACTION_NAMES, action_from_call, parse_tool_calls, tool_call
from tasklang.policy.config import ConfigError, load_config, parse_config
from tasklang.policy.data import CLOSING, Example, mix, reference_example, split_by_family
from tasklang.policy.envs import ENDED, PhoneWorldEnvironment
from tasklang.policy.evaluate import summarize, wilson
from tasklang.policy.human import SheetError, agreement, export_sheet, read_verdicts
from tasklang.policy.io import parse_seeds
from tasklang.policy.observe import render_elements
from tasklang.policy.rollout import Rollout
from tasklang.verifiers.snapshot import UIElement

WIFI = "androidworld.system_wifi_turn_on"
CONFIGS = Path(__file__).resolve().parent.parent / "policy" / "configs"


def test_observation_keeps_indices_and_drops_unlabelled_containers() -> None:
    els = [
        UIElement(class_name="android.widget.FrameLayout"),
        UIElement(class_name="android.widget.LinearLayout", clickable=True),
        UIElement(
            class_name="android.widget.TextView", text="Wi-Fi", resource_id="android:id/title"
        ),
        UIElement(class_name="android.widget.Switch", checkable=True, checked=True),
    ]
    text = render_elements(els, "com.android.settings", ".Settings")
    assert text.splitlines() == [
        "screen com.android.settings .Settings",
        '[2] TextView "Wi-Fi" id=title',
        "[3] Switch checkable checked",
    ]


def test_tool_calls_round_trip_and_refuse_unknown_names() -> None:
    action = {"action_type": "input_text", "text": "Ada", "index": 4}
    call = tool_call(action)
    assert call["function"] == {"name": "input_text", "arguments": {"index": 4, "text": "Ada"}}
    assert action_from_call("input_text", call["function"]["arguments"]) == action
    with pytest.raises(ValueError, match="unknown tool `fly`"):
        action_from_call("fly", {})
    with pytest.raises(ValueError, match="takes no argument `speed`"):
        action_from_call("scroll", {"direction": "up", "speed": 3})
    text = 'x<tool_call>\n{"name": "scroll", "arguments": {"direction": "down"}}\n</tool_call><tool_call>{bad</tool_call>'
    assert parse_tool_calls(text) == [("scroll", {"direction": "down"})]


def test_environment_tools_are_exactly_the_action_set() -> None:
    # TRL exposes an environment's public functions (besides reset and get_reward) as tools
    public = [
        n
        for n, _ in inspect.getmembers(PhoneWorldEnvironment, predicate=inspect.isfunction)
        if not n.startswith("_") and n not in ("reset", "get_reward")
    ]
    assert public == list(ACTION_NAMES)


def test_reference_demonstration_is_a_tool_calling_conversation() -> None:
    ex = reference_example(WIFI, 2)
    assert ex.success and ex.kind == "app" and ex.environment == "phoneworld"
    roles = [m["role"] for m in ex.messages]
    assert roles[:3] == ["system", "user", "assistant"]
    assert ex.messages[1]["content"].startswith("Goal: Turn Wi-Fi on.\nscreen ")
    calls = [m["tool_calls"][0]["function"]["name"] for m in ex.messages if m.get("tool_calls")]
    assert calls[0] == "open_app" and calls[-1] == "status"
    assert ex.messages[-2] == {"role": "tool", "name": "status", "content": ENDED}
    assert ex.messages[-1] == {"role": "assistant", "content": CLOSING}


def _ex(task: str, env: str = "phoneworld", kind: str = "app", seed: int = 0) -> Example:
    return Example(task=task, kind=kind, environment=env, seed=seed, source="t", goal="g")


def test_family_split_keeps_evaluated_families_out_of_training() -> None:
    examples = [_ex("a", seed=s) for s in range(3)] + [_ex("b", seed=s) for s in range(2)]
    train, test = split_by_family(examples, ["b"])
    assert {e.family for e in train} == {"a"} and {e.family for e in test} == {"b"}


def test_mixture_weighs_environment_and_kind_groups() -> None:
    examples = [_ex("a", "phoneworld") for _ in range(4)] + [
        _ex("d", "device", "mini_app") for _ in range(2)
    ]
    mixed = mix(examples, environments={"device": 2.0}, kinds={"app": 0.5}, seed=1)
    counts = {
        env: sum(1 for e in mixed if e.environment == env) for env in ("phoneworld", "device")
    }
    assert counts == {"phoneworld": 2, "device": 4}
    assert mix(examples, environments={"device": 0.0}) and all(
        e.environment == "phoneworld" for e in mix(examples, environments={"device": 0.0})
    )


def test_configs_in_the_repo_load(tmp_path: Path) -> None:
    for path in sorted(CONFIGS.glob("*.toml")):
        load_config(path)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            {"model": {"tiny": True}, "sft": {"max_stpes": 3}},
            "unknown key `max_stpes` in [sft]; did you mean `max_steps`",
        ),
        (
            {"model": {"tiny": True}, "rl": {"mode": "cloud"}},
            "mode must be phoneworld, device or mixed",
        ),
        ({"model": {"tiny": True}, "rl": {"ratio": "3-1"}}, "not a ratio"),
        ({"model": {"tiny": True}, "sft": {"max_steps": "ten"}}, "[sft] max_steps: expected int"),
        ({"model": {}}, "needs `name`"),
        ({"model": {"tiny": True}, "data": {"train_seeds": "5-1"}}, "train_seeds"),
        ({"modle": {}}, "unknown section `[modle]`"),
    ],
)
def test_bad_configs_say_where_and_why(body: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError) as info:
        parse_config(body, Path("cfg.toml"))
    assert message in str(info.value) and str(info.value).startswith("cfg.toml")


def test_seed_ranges() -> None:
    assert parse_seeds("0-2, 9") == [0, 1, 2, 9]
    with pytest.raises(ValueError, match="`x` is not a seed"):
        parse_seeds("x")


def test_wilson_interval_and_per_kind_summary() -> None:
    lo, hi = wilson(0, 20)
    assert lo == 0.0 and 0.16 < hi < 0.17
    rollouts = [
        Rollout("t", i, "phoneworld", kind="app", reward=1.0 if i < 3 else 0.0) for i in range(4)
    ]
    rollouts.append(Rollout("c", 0, "phoneworld", kind="cross_app", reward=None))
    s = summarize(rollouts)
    assert s["app"]["successes"] == 3 and s["app"]["rate"] == 0.75
    assert s["cross_app"] == {
        "episodes": 1,
        "errored": 1,
        "successes": 0,
        "rate": None,
        "ci95": [0.0, 1.0],
    }
    assert s["overall"]["episodes"] == 5 and s["overall"]["errored"] == 1
    assert s["mini_app"]["episodes"] == 0


def test_human_sheet_round_trip_and_agreement(tmp_path: Path) -> None:
    sheet = tmp_path / "sheet.csv"
    n = export_sheet(
        sheet,
        [(WIFI, 0), (WIFI, 1), (WIFI, 2)],
        auto={(WIFI, 0): True, (WIFI, 1): True, (WIFI, 2): False},
    )
    assert n == 3
    text = sheet.read_text(encoding="utf-8")
    assert "settings: set wifi to False" in text and "Turn Wi-Fi on." in text
    # the person fills in the sheet: agrees on seed 0, disagrees on seeds 1 and 2
    lines = text.splitlines(keepends=False)
    filled = tmp_path / "filled.csv"
    import csv

    rows = list(csv.DictReader(sheet.open(encoding="utf-8")))
    for row, human in zip(rows, ["yes", "no", "yes"], strict=True):
        row["human_success"] = human
    with filled.open("w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    summary = agreement(read_verdicts(filled)).summary()
    assert lines[0].startswith("id,task,kind,seed,goal,setup")
    assert summary["compared"] == 3 and summary["accuracy"] == pytest.approx(1 / 3)
    assert summary["false_successes"] == 1 and summary["false_failures"] == 1
    rows[0]["human_success"] = "maybe"
    with filled.open("w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    with pytest.raises(SheetError, match="`maybe` is not yes or no"):
        read_verdicts(filled)


def test_solver_demonstrations_are_replayed_through_the_tools() -> None:
    from tasklang.policy.data import solver_example

    ex = solver_example(WIFI, 0, time_limit=20)
    assert ex is not None and ex.success and ex.source == "solver"
    calls = [m["tool_calls"][0]["function"]["name"] for m in ex.messages if m.get("tool_calls")]
    assert calls[-1] == "status"


def _yelp_replay_environment(fault: dict[str, object] | None = None) -> object:
    """The GRPO device class on a DeviceEnv that replays a recorded phone session
    (tests/data/device): the commands the episode sends must be the recorded ones."""
    import json

    from tasklang.envs.device.driver import ShellDriver
    from tasklang.envs.device.env import DeviceEnv
    from tasklang.envs.device.transport import ReplayTransport
    from tasklang.policy.envs import DeviceSession, environment_classes
    from tasklang.policy.tasks import compiled_task

    path = Path(__file__).parent / "data" / "device" / "yelp_bookmark_episode.jsonl"
    recorded = [json.loads(line) for line in path.read_text("utf-8").splitlines()]
    if fault is not None:
        i = next(i for i, p in enumerate(recorded) if p["line"].startswith("input tap"))
        recorded[i] = {"line": recorded[i]["line"], **fault}

    def make(task: str, seed: int) -> DeviceEnv:
        transport = ReplayTransport(recorded)
        return DeviceEnv(compiled_task(task), ShellDriver(transport), transport,
                         setup=False, sleep=lambda s: None)  # fmt: skip

    return environment_classes(device_factory=lambda: DeviceSession(make))["device"]()


def test_device_class_runs_a_replayed_phone_session() -> None:
    env = _yelp_replay_environment()
    first = env.reset(task="yelp.bookmark_salon", seed=0)
    assert first.startswith("\nscreen com.yelp.android") and "Salon Lumière" in first
    assert "screen com.yelp.android" in env.click(index=2)  # the Bookmark button
    env.click(index=3)  # the Bookmarks tab
    assert env.status(goal_status="complete") == ENDED
    assert env.get_reward() == 1.0


def test_device_class_gives_no_reward_when_the_phone_stops_answering() -> None:
    env = _yelp_replay_environment({"error": "disconnected"})
    env.reset(task="yelp.bookmark_salon", seed=0)
    assert env.click(index=2).startswith("error: the episode failed")
    assert env.get_reward() is None and env.errored


def test_phoneworld_as_the_phone_goes_through_the_device_code() -> None:
    from tasklang.policy.envs import PhoneWorldSession, phoneworld_device, reward_of

    session = phoneworld_device()
    turn = session.reset("yelp.bookmark_salon", 0)
    # the prompt a policy sees is the same through either path
    assert turn == PhoneWorldSession().reset("yelp.bookmark_salon", 0)
    session.step({"action_type": "status", "goal_status": "complete"})
    assert reward_of(session.verdict()) == 0.0  # nothing bookmarked: decided on the "phone"
    assert '"kind":"device"' in session.trajectory_jsonl().replace(" ", "")
