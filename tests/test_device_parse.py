"""Parsers of what Android's tools print, on outputs written in their exact formats
(tests/data/device), and the codecs that type the raw values."""

from __future__ import annotations

from pathlib import Path

import pytest

from tasklang import ir
from tasklang.envs.device import codec, parse
from tasklang.verifiers.snapshot import parse_ui_xml

DATA = Path(__file__).parent / "data" / "device"


def text(name: str) -> str:
    return (DATA / name).read_text("utf-8")


def test_content_query_rows_keep_commas_and_nulls() -> None:
    rows = parse.parse_content_rows(
        text("content_query_phones.txt"), ["display_name", "data1", "starred"]
    )
    assert rows == [
        {"display_name": "Ann Lee", "data1": "+1 555-0100", "starred": "0"},
        {"display_name": "Lee, Bob", "data1": None, "starred": "1"},
        {"display_name": "Chloé 王", "data1": "555 0199", "starred": "0"},
    ]


def test_content_query_value_with_a_newline() -> None:
    out = "Row: 0 address=555, body=first line\nsecond, line\nRow: 1 address=556, body=x\n"
    rows = parse.parse_content_rows(out, ["address", "body"])
    assert rows[0]["body"] == "first line\nsecond, line" and rows[1]["body"] == "x"


def test_content_query_empty_and_garbage() -> None:
    assert parse.parse_content_rows(text("content_query_empty.txt"), ["a"]) == []
    with pytest.raises(parse.OutputError):
        parse.parse_content_rows("Error while accessing provider:foo\n", ["a"])
    with pytest.raises(parse.OutputError):
        parse.parse_content_rows("Row: 0 other=1\n", ["a"])


def test_settings_get() -> None:
    assert parse.parse_setting("2\n") == "2"
    assert parse.parse_setting("null\n") is None
    assert parse.parse_setting("en-US,fr-FR\n") == "en-US,fr-FR"


def test_sqlite_quote_mode() -> None:
    rows = parse.parse_sqlite_quote(text("sqlite_quote_expense.txt"))
    assert rows == [
        {"name": "Lunch", "amount": "1250", "category": "Food", "note": "with 'team'"},
        {"name": "Taxi, airport", "amount": "4800", "category": "Transport", "note": None},
        {"name": "Groceries", "amount": "3399", "category": "Food", "note": "milk\neggs"},
    ]
    assert parse.parse_sqlite_quote("") == []
    assert parse.parse_sqlite_quote("'a'\n'multi\nline'\n") == [{"a": "multi\nline"}]


@pytest.mark.parametrize(
    "garbage", ["'a','b'\n1\n", "'unterminated\n", "'a'\nbogus\n", "'a'\nreplace('x',1)\n"]
)
def test_sqlite_garbage(garbage: str) -> None:
    with pytest.raises(parse.OutputError):
        parse.parse_sqlite_quote(garbage)


def test_ls_recursive_listing() -> None:
    entries = parse.parse_ls(text("ls_markor.txt"), "/sdcard/Documents/Markor")
    assert [(e.path, e.is_dir, e.size, e.modified) for e in entries] == [
        ("/sdcard/Documents/Markor/Work", True, 3452, "2026-05-13T09:02"),
        ("/sdcard/Documents/Markor/recipes.md", False, 35, "2026-05-03T20:15"),
        ("/sdcard/Documents/Markor/to do\nlist.txt", False, 32, "2026-05-12T18:04"),
        ("/sdcard/Documents/Markor/Work/standéup.md", False, 43, "2026-05-13T09:02"),
    ]
    assert parse.parse_ls(text("ls_missing.txt"), "/sdcard/Documents/Markor") == []
    with pytest.raises(parse.OutputError):
        parse.parse_ls("-rw-rw---- what\n", "/sdcard")


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("dumpsys_window.txt", ("com.google.android.deskclock", "com.android.deskclock.DeskClock")),
        ("dumpsys_window_shade.txt", ("com.android.settings", "com.android.settings.Settings")),
        ("dumpsys_activity.txt", ("com.android.settings", "com.android.settings.SubSettings")),
    ],
)
def test_foreground(name: str, expected: tuple[str, str]) -> None:
    assert parse.parse_foreground(text(name)) == expected


def test_foreground_garbage() -> None:
    with pytest.raises(parse.OutputError):
        parse.parse_foreground("Can't find service: window\n")


def test_date_and_dump_messages() -> None:
    assert parse.parse_date("2026-05-14T08:30:00\n") == "2026-05-14T08:30:00"
    with pytest.raises(parse.OutputError):
        parse.parse_date("Thu May 14 08:30:00 UTC 2026\n")
    parse.check_dumped(text("uiautomator_dump_ok.txt"))
    with pytest.raises(parse.OutputError):
        parse.check_dumped(text("uiautomator_dump_idle.txt"))


def test_uiautomator_xml() -> None:
    _, elements = parse_ui_xml(text("window_dump.xml"))
    switch = elements[2]
    assert switch.resource_id == "com.google.android.deskclock:id/onoff" and switch.checked


def _type(name: str, **kw: object) -> ir.Type:
    return ir.Type.model_validate({"name": name, **kw})


@pytest.mark.parametrize(
    ("c", "values"),
    [
        (codec.INT, [0, -3, 10**12]),
        (codec.NUMBER, [1, 2.5, -0.125]),
        (codec.BOOL, [True, False]),
        (codec.JSON, [["a", "b"], [], {"k": 1}]),
        (codec.TEXT, ["", "a, b=c", "NULL-ish 'x'"]),
        (codec.SETTING_CODECS["ui_night_mode"](), [True, False]),
        (codec.SETTING_CODECS["screen_off_timeout"](), [15, 30, 600]),
        (codec.SETTING_CODECS["font_scale"](), ["small", "default", "large", "largest"]),
        (codec.SETTING_CODECS["system_locales"](), ["en_US", "zh_CN"]),
        (codec.epoch_millis(), ["2026-05-14T08:30:00", "1999-12-31T23:59:59"]),
    ],
)
def test_exact_codecs_round_trip(c: codec.Codec, values: list[object]) -> None:
    assert c.exact
    for v in values:
        assert c.decode(c.encode(v)) == v
    assert c.decode(c.encode(None)) is None


def test_brightness_percent_round_trips_over_its_range() -> None:
    c = codec.SETTING_CODECS["screen_brightness"]()
    assert all(c.decode(c.encode(p)) == p for p in range(101))
    assert c.encode(100) == "255"


def test_codecs_reject_garbage() -> None:
    with pytest.raises(codec.DecodeError):
        codec.INT.decode("twelve")
    with pytest.raises(codec.DecodeError):
        codec.BOOL.decode("maybe")
    with pytest.raises(codec.DecodeError):
        codec.SETTING_CODECS["ui_night_mode"]().decode("7")
    assert codec.by_type(_type("money")) is codec.INT
    assert codec.by_type(_type("list", item=_type("text"))) is codec.JSON


def test_ls_full_time_gives_seconds() -> None:
    """`ls -l --full-time` (what the probes ask for): the fraction and zone are dropped."""
    entries = parse.parse_ls(text("ls_markor_full_time.txt"), "/sdcard/Documents/Markor")
    assert [(e.path, e.modified) for e in entries] == [
        ("/sdcard/Documents/Markor/Work", "2026-05-13T09:02:07"),
        ("/sdcard/Documents/Markor/recipes.md", "2026-05-03T20:15:59"),
        ("/sdcard/Documents/Markor/Work/standup.md", "2026-05-13T09:02:07"),
    ]
    modified = codec.FILE_COLUMNS["modified"](_type("datetime"))
    assert modified.exact and modified.decode(entries[1].modified) == "2026-05-03T20:15:59"
    with pytest.raises(codec.DecodeError):  # a listing in minutes cannot give the field back
        modified.decode("2026-05-03T20:15")


def test_shared_preferences_entries() -> None:
    xml = text("shared_prefs_expense.xml")
    assert parse.parse_prefs(xml, "selected_currency_number") == "978"
    assert parse.parse_prefs(xml, "launch_count") == "3"
    assert parse.parse_prefs(xml, "isFirstTime") == "false"
    assert parse.parse_prefs(xml, "absent") is None
    assert parse.parse_prefs("", "absent") is None  # no file yet: the app's defaults
    currency = codec.SETTING_CODECS["selected_currency_number"]()
    assert currency.decode(parse.parse_prefs(xml, "selected_currency_number")) == "eur"
    for garbage in ("Segmentation fault", "<list/>", '<map><set name="k"/></map>'):
        with pytest.raises(parse.OutputError):
            parse.parse_prefs(garbage, "k")


@pytest.mark.parametrize(
    ("c", "values"),
    [
        (codec.hour_minutes(), ["07:30:00", "00:00:00", "23:59:00"]),
        (codec.flag_bit(1), [True, False]),
        (codec.nonzero(4102444800000), [True, False]),
        (codec.FORM_COLUMNS[("kind", "type")](_type("enum", members=("image", "video", "gif"))),
         ["image", "video", "gif"]),
    ],
)  # fmt: skip
def test_columns_in_another_form_round_trip(c: codec.Codec | None, values: list[object]) -> None:
    assert c is not None and c.exact
    for v in values:
        assert c.decode(c.encode(v)) == v


def test_columns_in_another_form_read_what_the_app_stores() -> None:
    assert codec.hour_minutes().encode("18:23:00") == "18,23"
    assert codec.flag_bit(1).decode("3") is True and codec.flag_bit(1).decode("2") is False
    assert codec.nonzero(1).decode("1715670000000") is True and not codec.nonzero(1).decode("0")
    folder = codec.parent_name("path")
    assert folder.from_record is not None
    assert folder.from_record({"path": "/sdcard/Pictures/Trips/a.jpg"}) == "/sdcard/Pictures/Trips"
    assert folder.decode("/sdcard/Pictures/Trips") == "Trips"
    kind = codec.by_extension()
    assert [kind.decode(n) for n in ("IMG_1.jpg", "VID_2.MP4", "notes.txt")] == [
        "photo", "video", None,
    ]  # fmt: skip
    with pytest.raises(codec.DecodeError):
        codec.hour_minutes().decode("eighteen")
    enum = _type("enum", members=("image", "raw"))  # a member the app's numbers do not cover
    assert codec.FORM_COLUMNS[("kind", "type")](enum) is None
