"""Hybrid reconstructed apps: the recording until an unrecorded action, then the hand-written
app at the same place, and back to the recording when that app returns to a recorded list.

The real recordings (``../shared/realdata``) of SMS Messenger, Contacts and Dialer run the
library tasks of their models in hybrid mode; each task's reference passes and declaring the
task done at once fails it.
"""

from __future__ import annotations

import re
from typing import Any

import gymnasium as gym
import pytest

import tasklang.envs.phoneworld.reconstruct  # noqa: F401  (registers the environment)
from tasklang.envs.phoneworld.app import AppData
from tasklang.envs.phoneworld.reconstruct.binding import BindingError, parse_binding
from tasklang.envs.phoneworld.reconstruct.env import ENV_ID
from tasklang.envs.phoneworld.reconstruct.hybrid import native_app
from tasklang.envs.phoneworld.reconstruct.hybridplan import HYBRID
from tasklang.envs.phoneworld.reconstruct.plan import REFERENCES, Player, bound_list

SMS_LIST = ["Search", "Settings", "About", "More options"]
SCROLL_DOWN = {"action_type": "scroll", "direction": "down"}


def play(graph: str, task: str, seed: int, hybrid: bool = True) -> Player:
    env = gym.make(ENV_ID, graph=graph, task=task, seed=seed, elements=True, hybrid=hybrid)
    obs, info = env.reset()
    return Player(env, obs, info)


def model_of(task: str) -> str:
    if task.startswith("androidworld."):
        return "messages" if "_sms_" in task else "contacts"
    return task.split(".")[0]


def collections(p: Player, model: str) -> dict[str, Any]:
    return dict(p.core.phone.world().apps[model].collections)


@pytest.mark.realdata
def test_an_unrecorded_action_hands_over_and_keeps_the_world(bound_graphs: dict[str, str]) -> None:
    plain = play(bound_graphs["messages"], "messages.last_text_from", 0, hybrid=False)
    plain.reach(SMS_LIST)
    plain.act(SCROLL_DOWN)  # the recording never scrolled the list
    assert plain.info["unexplored"] == 1 and plain.info["handovers"] == 0

    p = play(bound_graphs["messages"], "messages.last_text_from", 0)
    p.reach(SMS_LIST)
    before = collections(p, "messages")
    p.act(SCROLL_DOWN)
    assert p.info["handovers"] == 1 and p.info["unexplored"] == 0
    assert p.info["on_recording"] is False and p.info["screen"] == "main"
    assert p.info["state"] is None and p.info["ok"]
    assert collections(p, "messages") == before  # one world, read by both apps
    assert p.info["recorded_steps"] == p.info["step"]  # the scroll started on the recording
    assert p.core.trajectory().steps[-1].extra["handover"].startswith("scroll down: ")
    shown = {e["resource_id"] for e in p.obs["ui_elements"]}
    assert "com.simplemobiletools.smsmessenger:id/conversation_address" in shown


@pytest.mark.realdata
def test_the_hand_over_keeps_the_record_and_typed_text_and_replays_enter(
    bound_graphs: dict[str, str],
) -> None:
    p = play(bound_graphs["messages"], "messages.last_text_from", 2)
    who, number = str(p.params["who"]), str(p.params["number"])
    phone = p.core.phone
    data = phone.state["messages"]
    phone.state["messages"] = AppData(data.collections, {**data.settings, "send_on_enter": True})
    phone.invalidate()
    p.reach(SMS_LIST)
    p.tap(text=who)  # recorded: the conversation opened from the bound row
    assert p.info["on_recording"] and p.shows(who)
    field = next(e for e in p.obs["ui_elements"] if e["text"] == "Type a message…")
    p.act({"action_type": "input_text", "index": field["index"], "text": "On my way"})
    p.act({"action_type": "keyboard_enter"})  # never recorded: Enter sends, on the app's own
    assert p.info["handovers"] == 1 and p.info["screen"] == "thread"
    sent = collections(p, "messages")["sent"]
    assert any(m["to"] == number and m["body"] == "On my way" for m in sent)


@pytest.mark.realdata
def test_back_on_a_recorded_list_hands_back(bound_graphs: dict[str, str]) -> None:
    p = play(bound_graphs["messages"], "messages.last_text_from", 0)
    p.reach(SMS_LIST)
    listed = p.info["screen"]
    p.tap(text=str(p.params["who"]))
    p.act(SCROLL_DOWN)  # the conversation, handed over
    assert p.info["screen"] == "thread" and p.info["handbacks"] == 0
    p.act({"action_type": "navigate_back"})  # the hand-written list has a recorded one
    assert p.info["handbacks"] == 1 and p.info["on_recording"]
    assert p.info["screen"] == listed and p.shows(str(p.params["who"]))
    p.act(SCROLL_DOWN)  # and the next unrecorded action hands over again
    assert p.info["handovers"] == 2


@pytest.mark.realdata
def test_a_screen_without_a_route_stays_unexplored(bound_graphs: dict[str, str]) -> None:
    p = play(bound_graphs["messages"], "messages.last_text_from", 0)
    p.reach(["16.02.2021"])  # the date format dialog: the binding names no route for it
    p.act(SCROLL_DOWN)
    assert p.info["unexplored"] == 1 and p.info["handovers"] == 0


@pytest.mark.realdata
@pytest.mark.parametrize("task", sorted(set(HYBRID) | set(REFERENCES)))
def test_library_tasks_pass_on_the_hybrid_app(bound_graphs: dict[str, str], task: str) -> None:
    reference = HYBRID[task].reference if task in HYBRID else REFERENCES[task]
    graph = bound_graphs[model_of(task)]
    for seed in (0, 1):
        p = play(graph, task, seed)
        reference(p)
        assert p.done and p.reward == 1.0 and p.info["success"], (task, seed)
        assert p.info["unexplored"] == 0
        assert (p.info["handovers"] > 0) == (task in HYBRID)
        idle = play(graph, task, seed)
        idle.status("complete")
        assert idle.done and idle.reward == 0.0 and idle.info["success"] is False


@pytest.mark.realdata
def test_the_hybrid_env_keeps_the_gymnasium_contract(bound_graphs: dict[str, str]) -> None:
    from gymnasium.utils.env_checker import check_env

    env = gym.make(ENV_ID, graph=bound_graphs["contacts"], hybrid=True)
    check_env(env.unwrapped, skip_render_check=True)
    p = Player(env, *env.reset())
    assert p.info["handovers"] == 0 and p.info["handbacks"] == 0 and p.info["on_recording"]


@pytest.mark.realdata
def test_the_dialer_hands_back_on_its_call_history_tab(bound_graphs: dict[str, str]) -> None:
    p = play(bound_graphs["phone"], "phone.call_back_missed", 0)
    p.reach(bound_list(p))
    p.act(SCROLL_DOWN)
    p.tap(desc="Contacts")  # the hand-written contacts tab has no recorded counterpart route
    assert not p.info["on_recording"] and p.info["handbacks"] == 0
    p.tap(desc="Create new contact")  # the Contacts app's editor: not on this phone
    assert p.info["ok"] is False and "`contacts` is not on this phone" in p.info["error"]
    p.tap(desc="Call History")
    assert p.info["on_recording"] and p.info["handbacks"] == 1


BAD_ROUTES = [
    ({"has": [], "stack": []}, "`stack` names at least one screen"),
    ({"has": [], "stack": [{"args": {}}]}, "a route step is"),
    ({"has": [], "stack": [{"screen": "thread", "args": {"address": 1}}]}, "`args` maps"),
    ({"has": [], "stack": [{"screen": "thread", "args": {"a": "{nope}"}}]}, "has a field `nope`"),
    ({"has": [], "stack": [{"screen": "main"}], "colour": 1}, "unknown key(s) colour"),
    ({"has": [], "stack": [{"screen": "a"}, {"screen": "b"}], "returns": True}, "one screen"),
    ({"stack": [{"screen": "main"}]}, "a route is"),
]


@pytest.mark.parametrize(("route", "message"), BAD_ROUTES)
def test_routes_are_checked_against_the_model(route: dict[str, Any], message: str) -> None:
    with pytest.raises(BindingError, match=re.escape(message)):
        parse_binding({"model": "messages", "routes": [route]}, "b.json")


def test_hybrid_mode_needs_routes_to_screens_the_hand_written_app_has() -> None:
    with pytest.raises(BindingError, match="needs a binding"):
        native_app(None)
    with pytest.raises(BindingError, match="has no `routes`"):
        native_app(parse_binding({"model": "messages"}, "b.json"))
    wrong = {"model": "messages", "routes": [{"has": [], "stack": [{"screen": "inbox"}]}]}
    with pytest.raises(BindingError, match="has no screen `inbox`"):
        native_app(parse_binding(wrong, "b.json"))
