"""Importers: DroidBot folders, AndroidWorld histories and xmltrace folders as trajectories.

The real-data tests read ``../shared/realdata`` (skipped when absent); the xmltrace fixtures
under ``tests/data/xmltrace`` are small hand-written dumps.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tasklang.verifiers.importers import IMPORTERS, ImportFailure, import_source
from tasklang.verifiers.trajectory import Trajectory, parse_trajectory

XMLTRACE = Path(__file__).parent / "data" / "xmltrace"
YELP = Path("droidbot_yelp") / "report_com.yelp.android"
HISTORIES = {
    "2025_04_19_21_13_11": (12, "Record an audio clip using Audio Recorder app and save it."),
    "2025_04_19_23_20_05": (12, "Record an audio clip using Audio Recorder app and save it."),
    "2025_04_20_01_00_30": (
        20,
        "Open the file task.html in Downloads in the file manager; when prompted open it with "
        "Chrome. Then navigate the X to the bottom-right cell, by using the direction buttons.",
    ),
}


SCHEMA = json.loads(
    (Path(__file__).parent.parent / "tasklang/schemas/trajectory.schema.json").read_text()
)


def round_trip(trajectory: Trajectory) -> Trajectory:
    """Write to JSONL and read back; the text must be stable and every line schema-valid."""
    text = trajectory.to_jsonl()
    again = parse_trajectory(text)
    assert again.to_jsonl() == text
    validator = jsonschema.Draft202012Validator(SCHEMA)
    for line in text.splitlines():
        validator.validate(json.loads(line))
    return again


# --- DroidBot -----------------------------------------------------------------------------


@pytest.mark.realdata
def test_droidbot_yelp_one_step_per_event_file(realdata_dir: Path, tmp_path: Path) -> None:
    src = realdata_dir / YELP
    event_files = sorted((src / "events").glob("event_*.json"))
    trajectory, warnings = import_source("droidbot", src, out_dir=tmp_path)
    assert len(trajectory.steps) == len(event_files) == 35
    tags = [step.extra["source_event"]["tag"] for step in trajectory.steps]
    assert tags == sorted(tags)
    for step in trajectory.steps:
        assert step.action is not None or step.extra["source_event"]
        assert step.extra["event_str"] == step.extra["source_event"]["event_str"]
    assert all(step.action is not None for step in trajectory.steps)

    header = trajectory.header
    assert header.task.id == "imported.droidbot"
    assert header.source is not None and header.source.format == "droidbot"
    assert header.environment.kind == "imported"
    assert header.environment.screen is not None
    assert (header.environment.screen.width, header.environment.screen.height) == (1440, 2560)
    assert (header.environment.model, header.environment.sdk) == ("Nexus 6P", 23)
    assert header.extra["utg_edges"] == 30
    assert header.extra["droidbot_env"] == []
    assert header.created == "2017-08-11T20:21:37"

    home, start, touch = trajectory.steps[:3]
    assert home.action is not None and home.action.action_type == "navigate_home"
    assert start.action is not None and start.action.action_type == "open_app"
    assert start.action.app_name == "com.yelp.android"
    assert touch.action is not None and touch.action.action_type == "click"
    assert (touch.action.index, touch.action.x, touch.action.y) == (17, 1062.0, 2244.5)
    elements = touch.observation.ui_elements
    assert elements is not None and elements[17].text == "Yes, turn it on"
    assert elements[17].resource_id == "com.yelp.android:id/accept_button"
    assert elements[17].bounds == (737, 2150, 1387, 2339)
    assert elements[17].model_extra is not None
    assert elements[17].model_extra["view_str"] == "7372ea818be56266b763c25a833835f3"
    assert touch.observation.package == "com.yelp.android"
    assert touch.observation.activity == (
        ".ui.activities.backgroundlocation.ActivityBackgroundLocationOptIn"
    )
    assert touch.observation.time == "2017-08-11T20:23:29"
    assert touch.extra["utg_event_id"] == 1
    shot = touch.observation.screenshot
    assert shot is not None and not Path(shot).is_absolute()
    assert (tmp_path / shot).resolve() == (src / "states/screen_2017-08-11_202329.png").resolve()

    # three events start from states DroidBot did not save: reported, the step still there
    assert any("e5053440a9b942325d9c282f2f39cd4a" in w for w in warnings)
    assert trajectory.steps[5].observation.ui_elements is None
    assert trajectory.final.snapshot is not None and trajectory.final.snapshot.ui_elements
    round_trip(trajectory)


@pytest.mark.realdata
def test_droidbot_without_out_dir_writes_absolute_screenshots(realdata_dir: Path) -> None:
    trajectory, _ = import_source("droidbot", realdata_dir / YELP, task_id="yelp.explore")
    assert trajectory.header.task.id == "yelp.explore"
    shots = [s.observation.screenshot for s in trajectory.steps if s.observation.screenshot]
    assert shots and all(Path(s).is_absolute() and Path(s).is_file() for s in shots)


def write_json(path: Path, value: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value), encoding="utf-8")


def view(temp_id: int, bounds: list[list[int]], **fields: Any) -> dict[str, Any]:
    return {
        "temp_id": temp_id,
        "view_str": f"v{temp_id}",
        "class": "android.widget.TextView",
        "resource_id": None,
        "text": None,
        "content_description": None,
        "bounds": bounds,
        "clickable": True,
        "enabled": True,
        "is_password": False,
        "parent": 0,
        "children": [],
        "package": "com.example",
        **fields,
    }


def droidbot_folder(root: Path, events: list[dict[str, Any]]) -> Path:
    """A small DroidBot output folder with one state ``s1`` and the given events."""
    views = [
        view(0, [[0, 0], [1080, 1920]], clickable=False, parent=-1, children=[1, 2]),
        view(1, [[0, 100], [1080, 300]], text="Title", resource_id="com.example:id/title"),
        view(2, [[0, 300], [1080, 1800]], scrollable=True, **{"class": "android.widget.ListView"}),
    ]
    state = {
        "tag": "2020-01-01_100000",
        "state_str": "s1",
        "views": views,
        "foreground_activity": "com.example/.Main",
        "activity_stack": ["com.example/.Main"],
    }
    write_json(root / "states" / "state_2020-01-01_100000.json", state)
    (root / "states" / "screen_2020-01-01_100000.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    for n, event in enumerate(events):
        record = {
            "tag": f"2020-01-01_1001{n:02d}",
            "event": event,
            "start_state": "s1",
            "stop_state": "s1",
            "event_str": f"E{n}",
        }
        write_json(root / "events" / f"event_2020-01-01_1001{n:02d}.json", record)
    return root


def test_droidbot_event_types(tmp_path: Path) -> None:
    title, lst = view(1, [[0, 100], [1080, 300]]), view(2, [[0, 300], [1080, 1800]])
    events: list[dict[str, Any]] = [
        {"event_type": "long_touch", "view": title, "x": None, "y": None, "duration": 2000},
        {"event_type": "set_text", "view": title, "text": "hello"},
        {"event_type": "scroll", "view": lst, "direction": "DOWN"},
        {"event_type": "swipe", "start_x": 500, "start_y": 1500, "end_x": 500, "end_y": 400},
        {"event_type": "touch", "x": 10, "y": 20, "view": None},
        {"event_type": "key", "name": "BACK"},
        {"event_type": "key", "name": "ENTER"},
        {"event_type": "key", "name": "MENU"},
        {"event_type": "intent", "intent": "am force-stop com.example"},
        {"event_type": "kill_app", "stop_intent": "am force-stop com.example"},
        {"event_type": "teleport", "where": "moon"},
    ]
    src = droidbot_folder(tmp_path / "out", events)
    trajectory, warnings = import_source("droidbot", src)
    actions = [
        s.action.model_dump(exclude_none=True) if s.action else None for s in trajectory.steps
    ]
    assert actions == [
        {"action_type": "long_press", "index": 1, "x": 540.0, "y": 200.0},
        {"action_type": "input_text", "index": 1, "x": 540.0, "y": 200.0, "text": "hello"},
        {"action_type": "scroll", "index": 2, "x": 540.0, "y": 1050.0, "direction": "down"},
        {"action_type": "swipe", "x": 500.0, "y": 1500.0, "direction": "up"},
        {"action_type": "click", "x": 10.0, "y": 20.0},
        {"action_type": "navigate_back"},
        {"action_type": "keyboard_enter"},
        None,
        None,
        None,
        None,
    ]
    assert trajectory.steps[3].extra["action_extra"] == {"end_x": 500.0, "end_y": 400.0}
    for step in trajectory.steps[7:]:
        assert step.extra["source_event"]["event"]["event_type"]
    text = "\n".join(warnings)
    for expected in ("key MENU", "force-stop", "`kill_app`", "unknown DroidBot event type"):
        assert expected in text
    assert "utg_edges" not in trajectory.header.extra  # no utg.js in this folder
    assert any("utg.js" in w for w in warnings)
    round_trip(trajectory)


def test_droidbot_malformed(tmp_path: Path) -> None:
    with pytest.raises(ImportFailure, match="does not exist"):
        import_source("droidbot", tmp_path / "nowhere")
    with pytest.raises(ImportFailure, match="no events/event_"):
        import_source("droidbot", tmp_path)
    src = droidbot_folder(tmp_path / "out", [{"event_type": "key", "name": "HOME"}])
    broken = next((src / "events").glob("*.json"))
    broken.write_text('{"tag": "x",\n "event": {,}}', encoding="utf-8")
    with pytest.raises(ImportFailure) as info:
        import_source("droidbot", src)
    assert broken.name in str(info.value) and ":2:" in str(info.value)
    broken.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(ImportFailure, match="not a DroidBot event record"):
        import_source("droidbot", src)
    broken.write_bytes(b'{"event": {"event_type": "key", "name": "\xff"}}')
    with pytest.raises(ImportFailure, match="not UTF-8"):
        import_source("droidbot", src)
    # odd shapes inside a well-formed record: a warning, or ImportFailure, never a crash
    for event in (
        {"event_type": "touch", "view": 5},
        {"event_type": None},
        {"x": [1]},
        {"event_type": "swipe", "start_view": {"bounds": "[0,0][1,1]"}},
        {"event_type": "scroll", "view": {"view_str": None}, "direction": 3},
    ):
        write_json(broken, {"event": event, "start_state": ["s1"], "tag": 7})
        trajectory, warnings = import_source("droidbot", src)
        assert trajectory.steps[0].action is None and warnings
        round_trip(trajectory)
    write_json(src / "states" / "state_2020-01-01_100000.json", {"views": [[]]})
    with pytest.raises(ImportFailure, match=r"views\[0\]"):
        import_source("droidbot", src)
    (src / "states" / "state_2020-01-01_100000.json").write_text("{", encoding="utf-8")
    with pytest.raises(ImportFailure, match=r"state_2020-01-01_100000\.json:1"):
        import_source("droidbot", src)


# --- AndroidWorld ---------------------------------------------------------------------------


@pytest.mark.realdata
@pytest.mark.parametrize("run", sorted(HISTORIES))
def test_androidworld_histories(realdata_dir: Path, run: str) -> None:
    src = realdata_dir / "my_android_world" / "data_history" / run
    records = json.loads((src / "history.json").read_text(encoding="utf-8"))
    n_steps, goal = HISTORIES[run]
    trajectory, _ = import_source("androidworld", src)
    assert len(trajectory.steps) == len(records) == n_steps
    assert trajectory.header.goal == goal
    assert trajectory.header.extra["result"] is False  # all three runs are labelled failures
    assert trajectory.final.extra["result"] is False
    assert trajectory.final.status is None
    screen = trajectory.header.environment.screen
    assert screen is not None and (screen.width, screen.height) == (1080, 2400)
    for step, record in zip(trajectory.steps, records, strict=True):
        assert step.thought == record["action_reason"]
        for key in ("action_prompt", "summary_prompt", "summary", "action_output", "result"):
            assert step.extra[key] == record[key]
        elements = step.observation.ui_elements
        assert elements is not None and len(elements) == len(record["ui_description"])
        for element, item in zip(elements, record["ui_description"], strict=True):
            left, right, top, bottom = item["ui_bbox"]  # x range, then y range
            assert element.bounds == (left, top, right, bottom)
            assert element.bounds[2] <= 1080 and element.bounds[3] <= 2400
        assert step.action is not None or step.extra["action_output"]
    round_trip(trajectory)


@pytest.mark.realdata
def test_androidworld_actions(realdata_dir: Path) -> None:
    runs = realdata_dir / "my_android_world" / "data_history"
    # run 1: every output was rejected by the runner ("Can not parse the output ...")
    rejected, warnings = import_source("androidworld", runs / "2025_04_19_21_13_11")
    assert all(step.action is None for step in rejected.steps)
    assert len(warnings) == 12 and all("no action was taken" in w for w in warnings)
    assert rejected.steps[6].extra["intended_action"]["app_name"] == "Recorder"
    assert rejected.steps[0].extra["action_output"].endswith("Action: open_app()")
    # run 2: the executed action is the JSON after "Action selected:" in the summary
    run2, _ = import_source("androidworld", runs / "2025_04_19_23_20_05" / "history.json")
    first, second = run2.steps[:2]
    assert first.action is not None and first.action.app_name == "Audio Recorder"
    assert second.action is not None and second.action.model_dump(exclude_none=True) == {
        "action_type": "click",
        "x": 500.0,
        "y": 891.0,
    }
    assert second.extra["action_source"] == "summary"
    # run 3: an element text with a raw newline is read leniently and kept verbatim
    run3, warnings = import_source("androidworld", runs / "2025_04_20_01_00_30")
    home = run3.steps[0].observation.ui_elements
    assert home is not None and home[16].text == "Gmail"
    assert home[16].bounds == (309, 1479, 519, 1751)
    assert home[16].clickable and home[16].long_clickable
    assert home[16].model_extra == {"is_editable": False}
    chrome = run3.steps[8].observation.ui_elements
    assert chrome is not None and chrome[15].text.startswith("By continuing")
    assert "\n" in chrome[15].text
    assert any("read leniently" in w for w in warnings)


def history(tmp_path: Path, records: Any) -> Path:
    path = tmp_path / "run" / "history.json"
    write_json(path, records)
    return path


def test_androidworld_action_output_formats(tmp_path: Path) -> None:
    base = {
        "task_goal": "Turn on Wi-Fi",
        "result": "True",
        "action_reason": "r",
        "ui_description": [
            {
                "ui_description": 'UI element 0: {"index": 0, "text": '
                '"Wi-Fi", "is_clickable": True, "is_checked": False}',
                "ui_bbox": [0, 1080, 0, 200],
            }
        ],
    }
    outputs = [
        'Reason: tap it\nAction: {"action_type": "click", "index": 0}',
        "Thought: t\nAction: click(start_box='<|box_start|>(500,891)<|box_end|>')",
        "Action: type(content='hello')",
        "Action: scroll(start_box='(10,20)', direction='down')",
        "Action: drag(start_box='(100,900)', end_box='(100,100)')",
        "Action: press_back()",
        "Action: something strange",
        "Action: finished(content='done')",
    ]
    records = [{**base, "action_output": out, "summary": None} for out in outputs]
    trajectory, warnings = import_source("androidworld", history(tmp_path, records), "t.wifi")
    actions = [
        s.action.model_dump(exclude_none=True) if s.action else None for s in trajectory.steps
    ]
    assert actions == [
        {"action_type": "click", "index": 0},
        {"action_type": "click", "x": 500.0, "y": 891.0},
        {"action_type": "input_text", "text": "hello"},
        {"action_type": "scroll", "x": 10.0, "y": 20.0, "direction": "down"},
        {"action_type": "swipe", "x": 100.0, "y": 900.0, "direction": "up"},
        {"action_type": "navigate_back"},
        None,
        {"action_type": "status", "goal_status": "complete"},
    ]
    assert trajectory.final.status == "complete"
    assert trajectory.header.extra["result"] == "True"
    assert trajectory.steps[6].extra["action_output"] == "Action: something strange"
    assert any("step 6" in w and "no action could be parsed" in w for w in warnings)
    element = trajectory.steps[0].observation.ui_elements
    assert element is not None and element[0].bounds == (0, 0, 1080, 200)
    round_trip(trajectory)


def test_androidworld_malformed(tmp_path: Path) -> None:
    with pytest.raises(ImportFailure, match=r"no history\.json"):
        import_source("androidworld", tmp_path)
    path = tmp_path / "history.json"
    path.write_text('[{"task_goal": "x",\n\n "result": tru}]', encoding="utf-8")
    with pytest.raises(ImportFailure, match=r"history.json:3: not valid JSON"):
        import_source("androidworld", path)
    for value, message in (({"a": 1}, "JSON list"), ([], "no steps"), ([1], "step 0")):
        write_json(path, value)
        with pytest.raises(ImportFailure, match=message):
            import_source("androidworld", path)
    odd = [
        {"ui_description": 5, "action_output": 7, "summary": "Action selected: {bad"},
        {
            "ui_description": [3, {"ui_description": "UI element x"}, {"ui_bbox": [1, 2]}],
            "action_reason": ["?"],
            "summary": 'Action selected: {"action_type": "fly"}',
        },
        {
            "ui_description": [
                {"ui_description": 'UI element 0: {"index": 5, "x": (}', "ui_bbox": ["a", 1, 2, 3]}
            ],
            "task_goal": ["x"],
        },
    ]
    trajectory, warnings = import_source("androidworld", history(tmp_path, odd))
    assert [s.action for s in trajectory.steps] == [None, None, None]
    assert len(warnings) >= 4
    round_trip(trajectory)


# --- xmltrace -------------------------------------------------------------------------------


def test_xmltrace_settings_wifi(tmp_path: Path) -> None:
    trajectory, warnings = import_source("xmltrace", XMLTRACE / "settings_wifi", out_dir=XMLTRACE)
    assert warnings == []
    assert trajectory.header.task.id == "imported.xmltrace"
    screen = trajectory.header.environment.screen
    assert screen is not None and (screen.width, screen.height) == (1080, 2400)
    open_network, toggle, done = trajectory.steps
    # recorded at 400x720, dumped at 1080x2400: x * 1080 / 400, y * 2400 / 720
    assert open_network.action is not None and open_network.action.action_type == "click"
    assert (open_network.action.x, open_network.action.y) == (540.0, 660.0)
    assert toggle.action is not None and (toggle.action.x, toggle.action.y) == (969.3, 510.0)
    assert done.action is not None and done.action.goal_status == "complete"
    assert trajectory.final.status == "complete"
    assert toggle.extra["source_line"].startswith("[Click] Screen Resolution (400, 720)")
    # the scaled points land on what the user touched
    hit = [e for e in toggle.observation.ui_elements or [] if e.contains(969.3, 510.0)]
    assert hit[-1].class_name == "android.widget.Switch" and not hit[-1].checked
    network = [e for e in open_network.observation.ui_elements or [] if e.contains(540, 660)]
    assert network[-1].text == "Mobile, Wi-Fi, hotspot"
    switch = (done.observation.ui_elements or [])[7]
    assert switch.resource_id == "android:id/switch_widget" and switch.checked
    assert [(s.observation.package, s.observation.activity) for s in trajectory.steps] == [
        ("com.android.settings", ".Settings"),
        ("com.android.settings", ".SubSettings"),
        ("com.android.settings", ".SubSettings"),
    ]
    assert [s.observation.screenshot for s in trajectory.steps] == [
        "settings_wifi/0.png",
        "settings_wifi/1.png",
        "settings_wifi/2.png",
    ]
    assert open_network.observation.ui_xml == (XMLTRACE / "settings_wifi" / "0.xml").read_text()
    again = round_trip(trajectory)
    assert again.steps[1].action == toggle.action
    absolute, _ = import_source("xmltrace", XMLTRACE / "settings_wifi")
    shot = absolute.steps[0].observation.screenshot
    assert shot is not None and Path(shot).is_absolute() and Path(shot).is_file()
    elsewhere, _ = import_source("xmltrace", XMLTRACE / "settings_wifi", out_dir=tmp_path)
    shot = elsewhere.steps[0].observation.screenshot
    assert shot is not None and (tmp_path / shot).resolve() == XMLTRACE / "settings_wifi/0.png"


def test_xmltrace_notes_swipe() -> None:
    trajectory, warnings = import_source("xmltrace", XMLTRACE / "notes_swipe", out_dir=XMLTRACE)
    assert warnings == []
    actions = [
        s.action.model_dump(exclude_none=True) if s.action else None for s in trajectory.steps
    ]
    # recorded at 720x1600, dumped at 1080x2400: both axes times 1.5
    assert actions == [
        {"action_type": "swipe", "x": 540.0, "y": 1800.0, "direction": "up"},
        {"action_type": "click", "x": 675.0, "y": 1050.0},
        {"action_type": "long_press", "x": 540.0, "y": 750.0},
        {"action_type": "input_text", "text": "Buy milk"},
        {"action_type": "navigate_back"},
        {"action_type": "answer", "text": "Buy milk"},
    ]
    assert trajectory.steps[0].extra["action_extra"]["end_y"] == 600.0
    assert trajectory.answer == "Buy milk" and trajectory.final.status is None
    drawer = trajectory.steps[1]
    assert drawer.observation.activity is None and drawer.observation.screenshot is None
    assert drawer.observation.package == "com.google.android.apps.nexuslauncher"
    assert trajectory.steps[2].observation.activity == ".activities.MainActivity"
    # 6.xml comes after the last action: the final screen
    final = trajectory.final
    assert final.snapshot is not None and final.snapshot.ui_elements is not None
    assert final.snapshot.ui_elements[3].text == "Buy milk"
    assert final.extra == {"dump": "6.xml", "screenshot": "notes_swipe/6.png"}
    round_trip(trajectory)


def copy_trace(tmp_path: Path, name: str = "settings_wifi") -> Path:
    dst = tmp_path / name
    shutil.copytree(XMLTRACE / name, dst)
    return dst


def test_xmltrace_action_lines(tmp_path: Path) -> None:
    src = copy_trace(tmp_path)
    (src / "actions.txt").write_text(
        "[Shake] the phone\n[Click] somewhere\n[Home]\n[Wait]\n[Enter]\n"
        "[Status] infeasible\n[Scroll] down\n[Open App] Settings\n"
        "[Tap] Screen Resolution (400, 720), Click Position (0, 720)\n\n",
        encoding="utf-8",
    )
    trajectory, warnings = import_source("xmltrace", src)
    actions = [
        s.action.model_dump(exclude_none=True) if s.action else None for s in trajectory.steps
    ]
    assert actions == [
        None,
        None,
        {"action_type": "navigate_home"},
        {"action_type": "wait"},
        {"action_type": "keyboard_enter"},
        {"action_type": "status", "goal_status": "infeasible"},
        {"action_type": "scroll", "direction": "down"},
        {"action_type": "open_app", "app_name": "Settings"},
        {"action_type": "click", "x": 0.0, "y": 2400.0},
    ]
    assert trajectory.steps[0].extra["source_line"] == "[Shake] the phone"
    assert any("actions.txt:1: unknown action line" in w for w in warnings)
    assert any("actions.txt:2: [Click] without a position" in w for w in warnings)
    assert any("step 3: no 3.xml" in w for w in warnings)
    assert trajectory.final.status is None  # the last action is a click
    round_trip(trajectory)


def test_xmltrace_malformed(tmp_path: Path) -> None:
    with pytest.raises(ImportFailure, match="does not exist"):
        import_source("xmltrace", tmp_path / "missing")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ImportFailure, match=r"no N\.xml dumps"):
        import_source("xmltrace", tmp_path / "empty")
    src = copy_trace(tmp_path)
    (src / "1.xml").write_text("<hierarchy>\n<node bounds='[0,0][1,1]'>\n</hierarchy>")
    with pytest.raises(ImportFailure, match=r"1\.xml:3: not well-formed XML"):
        import_source("xmltrace", src)
    (src / "1.xml").write_bytes(b"<hierarchy text='\xff'/>")
    with pytest.raises(ImportFailure, match=r"1\.xml:1: not UTF-8"):
        import_source("xmltrace", src)
    (src / "1.xml").write_text("<hierarchy/>")  # no nodes: no resolution, positions unscaled
    (src / "notes.md").write_text("hello")
    (src / "0.xml").unlink()
    trajectory, warnings = import_source("xmltrace", src)
    assert trajectory.steps[0].observation.ui_elements is None
    assert trajectory.steps[1].action is not None and trajectory.steps[1].action.x == 359.0
    assert any("notes.md" in w for w in warnings)
    assert any("resolution is unknown" in w for w in warnings)
    (src / "actions.txt").unlink()
    (src / "99.xml").write_text("<hierarchy/>")
    with pytest.raises(ImportFailure, match="not numbered 0, 1, 2"):
        import_source("xmltrace", src)
    (src / "99.xml").unlink()
    trajectory, warnings = import_source("xmltrace", src)
    assert len(trajectory.steps) == 2 and trajectory.final.snapshot is not None
    assert any("actions.txt: missing" in w for w in warnings)
    round_trip(trajectory)


# --- API ----------------------------------------------------------------------------------


def test_api(tmp_path: Path) -> None:
    assert set(IMPORTERS) == {"droidbot", "androidworld", "xmltrace"}
    with pytest.raises(ImportFailure, match="unknown import format 'rico'"):
        import_source("rico", tmp_path)
    a_file = tmp_path / "x.txt"
    a_file.write_text("x")
    for name in ("droidbot", "xmltrace"):
        with pytest.raises(ImportFailure, match="expected a directory"):
            import_source(name, a_file)
    with pytest.raises(ImportFailure, match="not valid JSON"):
        import_source("androidworld", a_file)
    failure = ImportFailure("bad", path="a/b.json", line=3, step=2)
    assert str(failure) == "a/b.json:3 (step 2): bad" and failure.line == 3
