"""Library tasks on reconstructed apps: seeded from the task, judged by its own verifier.

The real recordings (``../shared/realdata``) of SMS Messenger, Contacts and Dialer, bound to
the ``messages``, ``contacts`` and ``phone`` models, run the library tasks those bindings
cover; a reference planned through the screen graph passes each one for several seeds, and
declaring the task done at once fails it.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import gymnasium as gym
import pytest

import tasklang.envs.phoneworld.reconstruct  # noqa: F401  (registers the environment)
from tasklang.envs.phoneworld.reconstruct.binding import BindingError, parse_binding
from tasklang.envs.phoneworld.reconstruct.env import ENV_ID
from tasklang.envs.phoneworld.reconstruct.hybridplan import HYBRID
from tasklang.envs.phoneworld.reconstruct.plan import (
    NOT_COVERED,
    REFERENCES,
    PlanError,
    Player,
    plan,
)

LIBRARY = Path(__file__).parent.parent / "task_library"
APPS = ("messages", "contacts", "phone")  # the bound app models
SEEDS = (0, 1, 2)


def play(graph: str, task: str, seed: int) -> Player:
    env = gym.make(ENV_ID, graph=graph, task=task, seed=seed, elements=True)
    obs, info = env.reset()
    return Player(env, obs, info)


@pytest.mark.realdata
@pytest.mark.parametrize("task", sorted(REFERENCES))
def test_reference_passes_and_doing_nothing_fails(bound_graphs: dict[str, str], task: str) -> None:
    graph = bound_graphs[task.split(".")[0]]
    for seed in SEEDS:
        p = play(graph, task, seed)
        REFERENCES[task](p)
        assert p.done and p.reward == 1.0 and p.info["success"], (task, seed)
        assert p.info["unexplored"] == 0
        idle = play(graph, task, seed)
        idle.status("complete")
        assert idle.done and idle.reward == 0.0 and idle.info["success"] is False, (task, seed)


@pytest.mark.realdata
def test_a_bound_delete_removes_the_conversation_and_its_messages(
    bound_graphs: dict[str, str],
) -> None:
    p = play(bound_graphs["messages"], "messages.delete_conversation", 4)
    who, number = str(p.params["who"]), p.params["number"]
    p.reach(["Search", "Settings", "About", "More options"])
    p.tap(text=who)
    assert p.shows(who)  # the conversation opened from the row shows the record's name
    p.tap(desc="Delete")
    p.tap(text="No")  # recorded: nothing changes
    p.tap(desc="Delete")
    p.tap(text="Yes")  # bound: the record goes, with its messages, and the list is back
    assert p.info["bound_actions"] == ["Yes: threads"] and not p.shows(who)
    world = p.core.phone.world().apps["messages"].collections
    assert not any(t["address"] == number for t in world["threads"])
    assert not any(m["from"] == number for m in world["received"])
    assert any(t["contact_name"] == "Priya Shah" for t in world["threads"])


@pytest.mark.realdata
def test_the_contact_star_flips_the_held_record(bound_graphs: dict[str, str]) -> None:
    p = play(bound_graphs["contacts"], "contacts.delete_missing_contact", 0)
    p.tap(text="Bob Lindqvist")
    p.tap(desc="Toggle favorite")
    people = p.core.phone.world().apps["contacts"].collections["people"]
    bob = next(r for r in people if r["name"] == "Bob Lindqvist")
    assert bob["starred"] is True and p.info["unexplored"] == 0
    assert p.info["bound_actions"] == ["Toggle favorite: people"]


@pytest.mark.realdata
def test_the_planner_follows_recorded_transitions(bound_graphs: dict[str, str]) -> None:
    p = play(bound_graphs["phone"], "phone.talk_time_today", 0)
    graph = p.core.graph
    history = {sc.id for sc in graph.screens.values() if "Search / Alice / 11:26 AM" in sc.name}
    keys = plan(graph, str(p.info["screen"]), history)
    assert keys == ["click:android.widget.Button#|Call History"]
    assert plan(graph, str(p.info["screen"]), {"no such screen"}) is None
    with pytest.raises(PlanError):
        p.reach(["a text no recorded screen shows"])


@pytest.mark.realdata
def test_a_task_for_another_app_model_is_refused(bound_graphs: dict[str, str]) -> None:
    with pytest.raises(ValueError, match="besides `phone`"):
        gym.make(ENV_ID, graph=bound_graphs["phone"], task="messages.delete_conversation")


def library_tasks(models: set[str]) -> list[str]:
    """Ids of the library tasks whose apps are one of ``models``, read from their sources."""
    out = []
    for path in sorted(LIBRARY.rglob("*.task")):
        text = path.read_text(encoding="utf-8")
        task = re.search(r"^task\s+(\S+)", text, re.M)
        apps = re.search(r"^\s*apps\s+(.+)$", text, re.M)
        if task and apps and {a.strip() for a in apps.group(1).split(",")} <= models:
            out.append(task.group(1))
    return out


def test_every_library_task_of_a_bound_model_is_covered_or_explained() -> None:
    tasks = set(library_tasks(set(APPS)))
    covered = [set(REFERENCES), set(HYBRID), set(NOT_COVERED)]
    unexplained = tasks - set.union(*covered)
    assert not unexplained, f"give these a reference or a reason in plan.NOT_COVERED: {unexplained}"
    assert set.union(*covered) <= tasks  # nothing stale
    assert sum(map(len, covered)) == len(set.union(*covered))  # each in one place
    assert all(HYBRID[t].lacks for t in HYBRID)  # what the recording lacks, for each
    for model in APPS:  # at least one task of each bound app runs on its recording
        assert any(t.startswith(f"{model}.") for t in REFERENCES)


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ({"has": [], "tap": "Yes"}, "needs an effect"),
        ({"has": [], "tap": "Yes", "flip": "nope"}, "no record of `messages` has a field"),
        ({"has": [], "tap": "Yes", "delete": True, "also": [{"collection": "x"}]}, "`also` is"),
        ({"has": [], "tap": "Yes", "delete": True, "colour": 1}, "unknown key(s) colour"),
        ({"has": [], "tap": "Yes", "delete": True, "back": -1}, "`back` is a number"),
    ],
)  # fmt: skip
def test_bound_actions_are_checked_against_the_model(action: dict[str, Any], message: str) -> None:
    with pytest.raises(BindingError, match=re.escape(message)):
        parse_binding({"model": "messages", "actions": [action]}, "b.json")


@pytest.mark.realdata
def test_the_planner_reaches_a_screen_behind_a_row_and_a_dialog(
    bound_graphs: dict[str, str],
) -> None:
    # the conversation list to the Settings screen's colour dialog: Settings, Customize
    # colors, then the "Theme Dark" row (keyed by its texts together)
    p = play(bound_graphs["messages"], "messages.delete_conversation", 0)
    p.reach(["Auto light / dark", "Light", "Dark"])
    assert p.info["unexplored"] == 0 and p.info["step"] >= 3
