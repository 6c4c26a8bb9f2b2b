"""Readers of recorded GUI usage: DroidBot folders, AutoDroid utg.yaml, trajectories.

The fixtures under ``tests/data/reconstruct`` are hand-written in each tool's format (a
shopping-list app recorded by DroidBot, an SMS app recorded by AutoDroid) with broken
copies: a cut-short utg.js, an unreadable state, an event to a state with no file, a YAML
file cut inside a record, a record without a screen, unknown fields.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tasklang.envs.phoneworld.reconstruct.autodroid import parse_html
from tasklang.envs.phoneworld.reconstruct.model import ReadError
from tasklang.envs.phoneworld.reconstruct.readers import discover, read_source
from tasklang.envs.phoneworld.reconstruct.trajectory import parse_xml

DATA = Path(__file__).parent / "data" / "reconstruct"
SHOP = "org.example.shoplist"


def read(name: str):  # type: ignore[no-untyped-def]
    [(kind, path)] = discover(DATA / name)
    return read_source(kind, path)


def test_droidbot_folder_reads_states_events_and_targets() -> None:
    rec = read("droidbot_shoplist")
    assert rec.format == "droidbot" and rec.package == SHOP and rec.gaps == []
    assert len(rec.states) == 5 and len(rec.events) == 10
    assert (rec.width, rec.height) == (1080, 1920)
    first = rec.events[0]
    node = rec.states[first.src].nodes[first.target]  # type: ignore[index]
    assert (node.rid, node.clickable) == (f"{SHOP}:id/item_row", True)
    assert [e.kind for e in rec.events].count("back") == 3
    edit = rec.states["aaaa0002"]
    assert edit.activity == f"{SHOP}.EditActivity"
    assert any(n.editable and n.text == "Milk" for n in edit.nodes)


def test_droidbot_broken_folder_keeps_what_it_can_and_lists_the_gaps() -> None:
    rec = read("droidbot_broken")
    assert len(rec.states) == 4  # the cut-short state file is left out
    gaps = "\n".join(rec.gaps)
    assert "utg.js: cut short or malformed" in gaps
    assert "ignored unknown field(s) battery_level" in gaps
    assert "unreadable JSON" in gaps
    assert "stop state ffff9999 has no state file" in gaps
    broken = [e for e in rec.events if e.dst is None or e.src is None]
    assert len(broken) == 3 and len(rec.events) == 10


def test_droidbot_without_events_uses_utg_edges() -> None:
    rec = read("droidbot_noevents")
    assert any("transitions come from utg.js edges" in g for g in rec.gaps)
    assert [e.index for e in rec.events] == [1, 5, 6, 7]
    assert all(e.target is not None and e.kind == "click" for e in rec.events)


def test_autodroid_html_elements() -> None:
    html = "<input id=0>Search</input>\n<button id=1 text='Settings'></button>\n" + (
        "<button id=2>Bob<br>Hey<br>30.06</button>\n<checkbox id=3 checked=True>Dark</checkbox>"
    )
    tags = [(e["tag"], e["parts"], e["desc"], e["checked"]) for e in parse_html(html)]
    assert tags == [
        ("input", ["Search"], "", False),
        ("button", [""], "Settings", False),
        ("button", ["Bob", "Hey", "30.06"], "", False),
        ("checkbox", ["Dark"], "", True),
    ]


def test_autodroid_records_chain_into_events() -> None:
    rec = read("autodroid_sms")
    assert rec.app == "SMS Messenger"
    assert rec.package == "com.simplemobiletools.smsmessenger"  # from the checkout's tasks.csv
    assert len(rec.events) == 9  # ten records: each leads to the next
    kinds = [e.kind for e in rec.events]
    assert kinds == ["click", "click", "back", "click", "input", "back", "click", "back", "click"]
    typed = rec.events[4]
    assert typed.text == "See you" and rec.states[typed.src].nodes[typed.target].editable  # type: ignore[index]
    main = rec.states[rec.start]  # type: ignore[index]
    assert [n.text for n in main.nodes if n.text][:4] == ["Search", "Carol", "Lunch?", "02.07"]
    assert main.layout == "inferred"
    assert any("last record's action" in g for g in rec.gaps)


def test_autodroid_broken_file_gives_a_partial_recording() -> None:
    rec = read("autodroid_broken.yaml")
    gaps = "\n".join(rec.gaps)
    assert "YAML broken at line" in gaps and "kept the 9 records" in gaps
    assert "record 6: no `State` text" in gaps
    assert "ignored unknown field(s) Timestamp" in gaps
    assert "no package name" in gaps
    assert rec.app == "autodroid_broken" and len(rec.states) == 5


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("not_yaml.yaml", "not valid YAML at line"),
        ("missing_folder", "does not exist"),
    ],
)
def test_unreadable_sources_say_where_and_why(name: str, message: str) -> None:
    with pytest.raises(ReadError, match=message) as info:
        for kind, path in discover(DATA / name):
            read_source(kind, path)
    assert name in str(info.value)


def test_a_folder_without_sources_is_refused(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("nothing here")
    with pytest.raises(ReadError, match="holds no DroidBot folder"):
        discover(tmp_path)


def test_droidbot_folder_without_any_state_is_refused(tmp_path: Path) -> None:
    (tmp_path / "states").mkdir()
    (tmp_path / "utg.js").write_text("var utg = {")
    with pytest.raises(ReadError, match="no readable states"):
        read_source("droidbot", tmp_path)


def test_trajectory_steps_become_states_and_events(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from tasklang.cli import app

    out = tmp_path / "shop.jsonl"
    result = CliRunner().invoke(
        app, ["import", "droidbot", str(DATA / "droidbot_shoplist"), "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    rec = read_source("trajectory", out)
    assert rec.format == "trajectory" and rec.package == SHOP
    clicks = [e for e in rec.events if e.kind == "click" and e.src and e.dst]
    assert clicks and all(e.target is not None for e in clicks)
    rows = [rec.states[e.src].nodes[e.target].rid for e in clicks]  # type: ignore[index]
    assert f"{SHOP}:id/item_row" in rows


def test_parse_xml_keeps_attributes_and_tree() -> None:
    xml = (
        '<?xml version="1.0"?><hierarchy rotation="0"><node index="0" text="" resource-id="a:id/root" '
        'class="android.widget.FrameLayout" package="a" content-desc="" clickable="false" '
        'bounds="[0,0][100,200]"><node index="0" text="Hi" resource-id="a:id/t" '
        'class="android.widget.Button" package="a" content-desc="d" clickable="true" '
        'bounds="[0,0][50,50]" /></node></hierarchy>'
    )
    root, button = parse_xml(xml)
    assert (root.rid, root.bounds, root.children) == ("a:id/root", (0, 0, 100, 200), [1])
    assert (button.text, button.desc, button.clickable, button.parent) == ("Hi", "d", True, 0)


def test_states_without_events_give_an_app_with_no_transitions(tmp_path: Path) -> None:
    import shutil

    from tasklang.envs.phoneworld.reconstruct.env import ReconstructedEnv
    from tasklang.envs.phoneworld.reconstruct.graph import build_graph

    shutil.copytree(DATA / "droidbot_shoplist" / "states", tmp_path / "states")
    rec = read_source("droidbot", tmp_path)
    assert len(rec.states) == 5 and rec.events == []
    assert any("no events and no usable utg.js" in g for g in rec.gaps)
    env = ReconstructedEnv(build_graph([rec]))
    obs, _ = env.reset()
    rows = [i for i, n in enumerate(parse_xml(obs["ui_xml"])) if n.rid.endswith("item_row")]
    *_, info = env.step({"action_type": "click", "index": rows[0]})
    assert info["screen"] == "unexplored" and info["unexplored"] == 1
