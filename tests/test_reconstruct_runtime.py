"""Reconstructed apps on the phone: replay, unexplored actions, Gymnasium, bindings."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import gymnasium as gym
import pytest

from tasklang.envs.phoneworld.reconstruct.binding import BindingError, parse_binding
from tasklang.envs.phoneworld.reconstruct.bindings import SMS_MESSENGER
from tasklang.envs.phoneworld.reconstruct.env import ENV_ID, ReconstructedEnv
from tasklang.envs.phoneworld.reconstruct.graph import ScreenGraph, build_graph
from tasklang.envs.phoneworld.reconstruct.model import walk
from tasklang.envs.phoneworld.reconstruct.readers import discover, read_source
from tasklang.envs.phoneworld.reconstruct.trajectory import parse_xml

DATA = Path(__file__).parent / "data" / "reconstruct"
SHOP = "org.example.shoplist"


def graph(name: str) -> ScreenGraph:
    return build_graph([read_source(k, p) for k, p in discover(DATA / name)])


def index_of(env: Any, **match: str) -> int:
    """The element index of the first node whose attributes all match."""
    nodes = parse_xml(env.unwrapped.phone.xml())
    names = {"rid": "rid", "text": "text", "desc": "desc"}
    return next(
        i for i, n in enumerate(nodes) if all(getattr(n, names[k]) == v for k, v in match.items())
    )


def click(env: Any, **match: str) -> tuple[dict[str, Any], dict[str, Any]]:
    obs, _, _, _, info = env.step({"action_type": "click", "index": index_of(env, **match)})
    return obs, info


@pytest.fixture
def shop(tmp_path: Path) -> Any:
    path = tmp_path / "shop.screens.json"
    path.write_text(json.dumps(graph("droidbot_shoplist").to_json()))
    env = gym.make(f"tasklang.envs.phoneworld.reconstruct:{ENV_ID}", graph=str(path))
    env.reset(seed=0)
    return env


def test_gymnasium_runs_it_and_the_checker_passes(shop: Any) -> None:
    from gymnasium.utils.env_checker import check_env

    check_env(shop.unwrapped, skip_render_check=True)


def test_the_xml_is_the_recorded_screen(shop: Any) -> None:
    obs, info = shop.reset()
    assert obs["package"] == SHOP and obs["activity"] == f"{SHOP}.ListActivity"
    shown = parse_xml(obs["ui_xml"])
    nodes = shop.unwrapped.graph.states[info["state"]].nodes
    recorded = [nodes[i] for i in walk(nodes)]  # document order
    assert [(n.cls, n.rid, n.text, n.desc, n.bounds) for n in shown] == [
        (n.cls, n.rid, n.text, n.desc, n.bounds) for n in recorded
    ]


def test_navigation_replays_recorded_transitions(shop: Any) -> None:
    obs, info = click(shop, text="Milk")
    assert obs["activity"] == f"{SHOP}.EditActivity" and info["state"] == "aaaa0002"
    field = index_of(shop, rid=f"{SHOP}:id/name_input")
    # the recorded text is shown until something is typed (it may be a hint: a dump cannot tell)
    obs, *_ = shop.step({"action_type": "input_text", "index": field, "text": "Oat milk"})
    assert 'text="Oat milk"' in obs["ui_xml"] and 'text="Milk"' not in obs["ui_xml"]
    obs, *_, info = shop.step({"action_type": "navigate_back"})  # hides the keyboard first
    obs, *_, info = shop.step({"action_type": "navigate_back"})
    assert obs["activity"] == f"{SHOP}.ListActivity" and info["unexplored"] == 0


def test_an_unobserved_action_is_marked_and_counted(shop: Any) -> None:
    obs, info = click(shop, desc="Add item")
    assert info["unexplored"] == 0
    obs, info = click(shop, text="Save")
    assert info["screen"] == shop.unwrapped.graph.screen_of["aaaa0004"]
    obs, *_, info = shop.step({"action_type": "scroll", "direction": "down"})
    assert info["unexplored"] == 1 and info["screen"] == "unexplored"
    assert 'resource-id="tasklang:id/unexplored"' in obs["ui_xml"]
    assert "scroll down" in obs["ui_xml"] and info["unexplored_actions"] == ["scroll down"]
    obs, *_, info = shop.step({"action_type": "navigate_back"})
    assert info["state"] == "aaaa0004"


def test_a_row_the_recording_never_tapped_acts_like_the_others(shop: Any) -> None:
    click(shop, desc="Add item")
    click(shop, text="Save")  # the list with Eggs, a row never tapped
    obs, info = click(shop, text="Eggs")
    assert obs["activity"] == f"{SHOP}.EditActivity" and info["unexplored"] == 0


def seeded_sms(tmp_path: Path, **kw: Any) -> Any:
    g = graph("autodroid_sms")
    g.bindings = [SMS_MESSENGER]
    path = tmp_path / "sms.screens.json"
    path.write_text(json.dumps(g.to_json()))
    env = ReconstructedEnv(str(path), **kw)
    env.reset()
    return env


THREADS = [
    {"address": "+1 555 0100", "contact_name": "Grace Hopper", "snippet": "Compiler is done",
     "last_activity": "2026-03-04T10:00:00"},
    {"address": "+1 555 0101", "snippet": "Your code is 4411", "last_activity": "2026-03-05T08:30:00"},
    {"address": "+1 555 0102", "contact_name": "Old friend", "snippet": "archived",
     "archived": True, "last_activity": "2026-03-06T08:30:00"},
]  # fmt: skip


def test_seeded_state_renders_into_the_recorded_layout(tmp_path: Path) -> None:
    env = seeded_sms(tmp_path, state={"collections": {"threads": THREADS}})
    xml = env.phone.xml()  # type: ignore[union-attr]
    texts = [t for t in re.findall(r'text="([^"]*)"', xml) if t]
    assert texts[texts.index("Search") + 1 :][:6] == [
        "+1 555 0101", "Your code is 4411", "05.03",
        "Grace Hopper", "Compiler is done", "04.03",
    ]  # fmt: skip
    assert "Carol" not in texts and "Old friend" not in texts  # recorded rows and archived gone
    obs, *_, info = env.step({"action_type": "click", "index": index_of(env, text="Grace Hopper")})
    assert info["unexplored"] == 0 and "Type a message" in obs["ui_xml"]
    # the conversation opened shows the tapped record where the recording showed Carol's
    texts = [t for t in re.findall(r'text="([^"]*)"', obs["ui_xml"]) if t]
    assert texts[:2] == ["Grace Hopper", "Compiler is done"] and "Carol" not in texts


def test_a_bound_toggle_changes_the_setting(tmp_path: Path) -> None:
    env = seeded_sms(tmp_path, state={"settings": {"send_on_enter": True}})
    env.step({"action_type": "click", "index": index_of(env, desc="Settings")})
    checked = dict(re.findall(r'text="([^"]+)"[^>]*checked="(\w+)"', env.phone.xml()))  # type: ignore[union-attr]
    assert checked["Send message on pressing Enter"] == "true"
    assert checked["Enable delivery reports"] == "false"
    env.step({"action_type": "click", "index": index_of(env, text="Enable delivery reports")})
    assert env.phone.state["messages"].settings["delivery_reports"] is True  # type: ignore[union-attr]
    assert 'text="Enable delivery reports"' in env.phone.xml()  # type: ignore[union-attr]
    checked = dict(re.findall(r'text="([^"]+)"[^>]*checked="(\w+)"', env.phone.xml()))  # type: ignore[union-attr]
    assert checked["Enable delivery reports"] == "true"


def test_a_library_task_seeds_the_bound_app(tmp_path: Path) -> None:
    task = (
        Path(__file__).parent.parent / "task_library" / "app" / "messages.delete_conversation.task"
    )
    env = seeded_sms(tmp_path, task=str(task), seed=3)
    who = env.phone.state["messages"].collections["threads"][0]["contact_name"]  # type: ignore[union-attr]
    assert who in env.goal and f'text="{who}"' in env.phone.xml()  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"model": "nope"}, "unknown app model `nope`"),
        ({"toggles": [{"text": "x", "setting": "wifi"}]}, "has no setting `wifi`"),
        ({"screens": [{"has": [], "items": {"collection": "threads", "row": {"texts": 3},
                                           "fields": ["{name}"]}}]}, "has no field `name`"),
        ({"screens": [{"has": [], "items": {"collection": "mail", "row": {}}}]}, "no collection `mail`"),
    ],
)  # fmt: skip
def test_bindings_are_checked_against_the_app_model(change: dict[str, Any], message: str) -> None:
    with pytest.raises(BindingError, match=message):
        parse_binding({**SMS_MESSENGER, **change}, "test")


def test_a_broken_graph_file_is_one_message(tmp_path: Path) -> None:
    from tasklang.envs.phoneworld.reconstruct.env import GraphError, load_graph

    doc = graph("droidbot_shoplist").to_json()
    doc["screens"][0]["states"].append("nowhere")
    path = tmp_path / "g.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(GraphError, match="lists the unknown state `nowhere`"):
        load_graph(path)
    path.write_text('{"format": "tasklang.screens", "states": [')
    with pytest.raises(GraphError, match="not JSON"):
        load_graph(path)
