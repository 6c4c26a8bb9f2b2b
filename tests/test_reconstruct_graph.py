"""Screen graphs: grouping states into screens, keying actions, predicting, fidelity."""

from __future__ import annotations

import json
from pathlib import Path

from tasklang.envs.phoneworld.reconstruct.fidelity import report, similarity
from tasklang.envs.phoneworld.reconstruct.graph import ScreenGraph, build_graph, widget_keys
from tasklang.envs.phoneworld.reconstruct.model import Event, Node, Recording, State
from tasklang.envs.phoneworld.reconstruct.readers import discover, read_source

DATA = Path(__file__).parent / "data" / "reconstruct"
SHOP = "org.example.shoplist"


def graph(name: str) -> ScreenGraph:
    return build_graph([read_source(k, p) for k, p in discover(DATA / name)])


def test_same_screen_with_other_data_is_one_screen() -> None:
    g = graph("droidbot_shoplist")
    # two item lists (2 and 3 rows), three editors (Milk, Bread, empty)
    assert sorted(len(s.states) for s in g.screens.values()) == [2, 3]
    assert g.screen_of["aaaa0001"] == g.screen_of["aaaa0004"]
    assert g.screen_of["aaaa0002"] == g.screen_of["aaaa0003"] == g.screen_of["aaaa0005"]


def test_transitions_are_counted_per_screen_and_widget() -> None:
    g = graph("droidbot_shoplist")
    lst = g.screen_of["aaaa0001"]
    add = g.transitions[(lst, f"click:android.widget.ImageButton#{SHOP}:id/add")]
    assert add.count == 2 and add.shape is None
    row = next(t for t in g.transitions.values() if t.key.endswith("|Milk 2"))
    assert row.count == 2 and row.shape is not None  # a list row: it has a shape key
    assert g.transitions[(g.screen_of["aaaa0002"], "back")].count == 3


def test_predict_exact_shape_and_unexplored() -> None:
    g = graph("droidbot_shoplist")
    lst = g.states["aaaa0004"]
    eggs = next(i for i, n in enumerate(lst.nodes) if n.rid.endswith("item_row") and i > 8)
    exact, shape = widget_keys(lst, eggs)
    dst, how = g.predict("aaaa0004", f"click:{exact}", f"click:{shape}")
    assert how == "shape" and g.screen_of[dst or ""] == g.screen_of["aaaa0002"]
    title = next(i for i, n in enumerate(lst.nodes) if n.rid.endswith("id/title"))
    assert g.predict("aaaa0004", f"click:{widget_keys(lst, title)[0]}", None) == (
        None,
        "unexplored",
    )


def test_back_where_never_pressed_follows_the_stack() -> None:
    g = graph("droidbot_shoplist")
    dst, how = g.predict("aaaa0001", "back", None, below=["aaaa0002"])
    assert (dst, how) == ("aaaa0002", "stack")


def test_graph_json_round_trip() -> None:
    g = graph("autodroid_sms")
    again = ScreenGraph.from_json(json.loads(json.dumps(g.to_json())))
    assert again.to_json() == g.to_json()


def test_fidelity_report_on_handwritten_droidbot_data() -> None:
    r = report(graph("droidbot_shoplist"))
    assert r["counts"]["states"] == 5 and r["counts"]["screens"] == 2
    assert r["counts"]["events"] == 10 and r["counts"]["events_used"] == 10
    repeated = r["accuracy"]["repeated"]
    # row "Milk" twice, "add" twice, back three times: the last of each is held out
    assert (repeated["n"], repeated["correct"]) == (3, 3)
    assert r["similarity"]["replay_mean"] == 1.0 and r["similarity"]["replay_min"] == 1.0
    assert 0.5 < r["similarity"]["screen_mean"] < 1.0  # the two lists differ in one row


def test_similarity_is_an_f1_of_elements() -> None:
    g = graph("droidbot_shoplist")
    a, b = g.states["aaaa0001"].nodes, g.states["aaaa0004"].nodes
    assert similarity(a, a) == 1.0
    assert 0.0 < similarity(a, b) < 1.0


def test_the_graph_file_lists_each_screens_widgets() -> None:
    doc = graph("droidbot_shoplist").to_json()
    lst = doc["screens"][0]
    add = next(w for w in lst["widgets"] if w["rid"] == f"{SHOP}:id/add")
    assert (add["cls"], add["desc"], add["clickable"], add["states"]) == (
        "android.widget.ImageButton", "Add item", True, 2,
    )  # fmt: skip
    assert add["bounds"] == [880, 1700, 1040, 1860]
    eggs = [w for w in lst["widgets"] if w["text"] == "Eggs"]
    assert len(eggs) == 1 and eggs[0]["states"] == 1  # only the longer list shows it
    editor = doc["screens"][1]
    assert any(w["editable"] and w["rid"] == f"{SHOP}:id/name_input" for w in editor["widgets"])


def screen_of_buttons(sid: str, *labels: str) -> State:
    """A recorded state: a root holding one clickable button per label (its own screen)."""
    nodes = [
        Node(
            "android.widget.FrameLayout",
            rid=f"x:id/{sid}",
            children=[1 + i for i in range(len(labels))],
        )
    ]
    nodes += [Node("android.widget.Button", text=t, clickable=True, parent=0) for t in labels]
    return State(sid, nodes)  # fmt: skip


def test_an_action_that_always_closed_its_screen_returns_to_what_it_covers() -> None:
    states = [
        screen_of_buttons("list", "Menu", "Open", "Settings"),
        screen_of_buttons("menu", "Go to settings"),
        screen_of_buttons("settings", "Open"),
        screen_of_buttons("dialog", "Cancel"),
    ]
    steps = [  # (from, button or Back, to)
        ("list", "Menu", "menu"), ("menu", "Go to settings", "settings"),
        ("settings", None, "list"),  # Back passes the menu: a menu closes when left
        ("list", "Open", "dialog"), ("dialog", "Cancel", "list"),
        ("list", "Settings", "settings"), ("settings", "Open", "dialog"),
    ]  # fmt: skip
    by_id = {s.id: s for s in states}
    events = [
        Event(i, "back" if b is None else "click", src, dst,
              None if b is None else next(k for k, n in enumerate(by_id[src].nodes) if n.text == b))
        for i, (src, b, dst) in enumerate(steps)
    ]  # fmt: skip
    rec = Recording("demo", "test", "demo", states=by_id, events=events, start="list")
    g = build_graph([rec])
    assert g.transient == {g.screen_of["menu"]}
    cancel = g.transitions[(g.screen_of["dialog"], "click:android.widget.Button#|Cancel")]
    assert cancel.returns == cancel.count == 1
    # the recording's Cancel went to the list; over settings it returns to settings
    key = "click:android.widget.Button#|Cancel"
    assert g.predict("dialog", key, None, below=["settings", "list"]) == ("settings", "return")
    assert g.predict("dialog", key, None, below=["menu", "settings"]) == ("settings", "return")
    assert g.predict("dialog", key, None) == ("list", "exact")  # no stack: as recorded
    again = ScreenGraph.from_json(json.loads(json.dumps(g.to_json())))
    assert again.transient == g.transient and again.transitions[cancel.screen, key].returns == 1
