"""Parsers of what Android's tools print, on outputs written in their exact formats
(tests/data/device), and the codecs that type the raw values."""

from __future__ import annotations

from collections.abc import Callable
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


def _app_probe(app: str, target: str) -> tuple[ir.Probe, ir.FieldDef]:
    from tasklang.envs.device.differential import library

    for compiled in library().values():
        model = compiled.apps.get(app)
        if model is not None:
            probe = next(p for p in model.probes if p.target == target)
            fdef = model.setting(target)
            assert fdef is not None
            return probe, fdef
    raise AssertionError(f"no app {app}")


def _setting_read(app: str, target: str, xml: str) -> object:
    probe, fdef = _app_probe(app, target)
    raw = parse.parse_prefs_file(xml).get(probe.key or "")
    return fdef.default if raw is None else codec.setting_codec(probe, fdef).decode(raw)


def test_shared_preferences_entries() -> None:
    xml = text("shared_prefs_expense.xml")
    entries = parse.parse_prefs_file(xml)
    assert entries["selected_currency_number"] == "978"
    assert entries["launch_count"] == "3"
    assert entries["isFirstTime"] == "false"
    assert "absent" not in entries
    assert parse.parse_prefs_file("") == {}  # no file yet: the app's defaults
    assert _setting_read("expense", "currency", xml) == "eur"
    garbage = [
        "Segmentation fault", "<list/>", '<map><blob name="k"/></map>', '<map><int value="3"/></map>',
        '<map><int name="k" value="three"/></map>', '<map><boolean name="k" value="yes"/></map>',
        '<map><string name="k">a</string><string name="k">b</string></map>',
        '<map><set name="k"><int value="1"/></set></map>',
        '<!DOCTYPE map [<!ENTITY a "aaaa">]><map><string name="k">&a;</string></map>',
    ]  # fmt: skip
    for bad in garbage:
        with pytest.raises(parse.OutputError):
            parse.parse_prefs_file(bad)


def test_shared_preferences_as_android_writes_them() -> None:
    entries = parse.parse_prefs_file(text("shared_prefs_markor.xml"))
    assert entries["pref_key__inject_to_head"] == (
        '<meta name="x" content="a & b">\n  second line\r\ttab \x01ctl'
    )
    assert entries["empty"] == "" and entries["pref_key__language"] is None
    assert entries["pref_key__recent_documents"] == "[]"
    assert entries["unicode"] == "Ünïcödé 中文 😀"
    cal = parse.parse_prefs_file(text("shared_prefs_calendar.xml"))
    assert cal["display_event_types"] == '["1", "3"]' and cal["last_version"] == "240"
    assert cal["weekly_view_item_height_multiplier"] == "1.0"


def test_settings_read_from_real_preference_files() -> None:
    cal = text("shared_prefs_calendar.xml")
    got = {t: _setting_read("calendar", t, cal) for t in (
        "view", "font_size", "default_reminder", "snooze_minutes", "use_24h",
        "start_week_on_sunday", "theme", "show_grid",
    )}  # fmt: skip
    assert got == {
        "view": "week", "font_size": "large", "default_reminder": -1, "snooze_minutes": 15,
        "use_24h": True, "start_week_on_sunday": False, "theme": "black_white",
        "show_grid": False,  # not in the file: the app's default
    }  # fmt: skip
    clock = text("shared_prefs_deskclock.xml")
    got = {t: _setting_read("clock", t, clock) for t in (
        "clock_style", "automatic_home_clock", "home_time_zone", "silence_after",
        "snooze_length", "volume_buttons", "week_start", "stopwatch_running",
    )}  # fmt: skip
    assert got == {
        "clock_style": "analog", "automatic_home_clock": False, "home_time_zone": "Europe/London",
        "silence_after": 300, "snooze_length": 900, "volume_buttons": "snooze",
        "week_start": "monday", "stopwatch_running": False,  # 2: paused
    }  # fmt: skip
    markor = text("shared_prefs_markor.xml")
    assert _setting_read("markor", "sort_by", markor) == "date"
    assert _setting_read("markor", "new_file_type", markor) == "txt"


def test_prefs_forms_read_flags_units_and_other_values() -> None:
    probe, fdef = _app_probe("contacts", "sort_by")
    sort = codec.setting_codec(probe, fdef)
    probe, fdef = _app_probe("contacts", "sort_descending")
    descending = codec.setting_codec(probe, fdef)
    stored = 512 | 1024 | 32768  # by surname, descending, numeric sort (another setting's bit)
    assert sort.decode(str(stored)) == "last_name" and descending.decode(str(stored)) is True
    assert sort.encode("date_created") == "262144" and descending.encode(False) == "0"
    with pytest.raises(codec.DecodeError):  # no sort field among the bits
        sort.decode("1024")
    probe, fdef = _app_probe("messages", "theme")
    theme = codec.setting_codec(probe, fdef)
    assert theme.decode("-13816531") == "dark" and theme.decode("-65536") == "custom"
    assert theme.encode("dark") == "-12434878" and theme.encode("custom") == "-16746133"
    minutes = codec.in_unit(60_000)
    assert minutes.encode(600) == "10" and minutes.decode("10") == 600
    with pytest.raises(codec.DecodeError):  # 90 s is no whole number of minutes
        minutes.encode(90)
    millis = codec.in_unit(1)
    assert millis.encode(30) == "30000" and millis.decode("30000") == 30
    with pytest.raises(codec.DecodeError):
        millis.decode("1500")


def test_tasks_timestamps_hold_due_dates_times_and_completion() -> None:
    due, due_time = codec.due_stamp("date"), codec.due_stamp("time")
    assert due.from_record is not None
    timed = due.from_record({"due": "2026-05-19", "due_time": "09:30:00"})
    untimed = due.from_record({"due": "2026-05-19", "due_time": None})
    assert (due.decode(timed), due_time.decode(timed)) == ("2026-05-19", "09:30:00")
    assert (due.decode(untimed), due_time.decode(untimed)) == ("2026-05-19", None)
    assert due.from_record({"due": None, "due_time": "09:30:00"}) == "0"  # no time without a day
    assert due.decode("0") is None and due_time.decode("0") is None
    done, done_at = codec.done_stamp("flag"), codec.done_stamp("time")
    assert done.from_record is not None
    stamp = done.from_record({"completed": True, "completed_at": "2026-05-14T18:00:00"})
    assert done.decode(stamp) is True and done_at.decode(stamp) == "2026-05-14T18:00:00"
    assert done.from_record({"completed": False, "completed_at": "2026-05-14T18:00:00"}) == "0"
    assert done.decode("0") is False and done_at.decode("0") is None


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


def test_a_link_through_a_lookup_table_reads_the_names_it_points_at() -> None:
    import sqlite3

    from tasklang.envs.device.probes import Link, select_sql

    column = "caldav_tasks(cd_task = _id).caldav_lists(cdl_uuid = cd_calendar).cdl_name"
    link = Link.of(column)
    assert link is not None and (link.lookup, link.ref, link.row_value) == (
        "caldav_lists", "cd_calendar", "cd_calendar",
    )  # fmt: skip
    db = sqlite3.connect(":memory:")
    db.executescript(
        "CREATE TABLE tasks (_id INTEGER PRIMARY KEY, title);"
        "CREATE TABLE caldav_tasks (cd_task, cd_calendar);"
        "CREATE TABLE caldav_lists (cdl_uuid, cdl_name);"
        "INSERT INTO tasks VALUES (1, 'Milk'), (2, 'Report'), (3, 'Loose');"
        "INSERT INTO caldav_lists VALUES ('u-1', 'Groceries'), ('u-2', 'Work');"
        "INSERT INTO caldav_tasks VALUES (1, 'u-1'), (2, 'u-2'), (3, 'u-gone');"
    )
    cur = db.execute(select_sql("tasks", ["title", "_id"], [column]))
    names = [d[0] for d in cur.description]
    rows = [dict(zip(names, r, strict=True)) for r in cur.fetchall()]
    lists = codec.first_of("Default list")
    assert [(r["title"], lists.decode(r[column])) for r in rows] == [
        ("Milk", "Groceries"), ("Report", "Work"), ("Loose", "Default list"),
    ]  # fmt: skip


def test_a_field_kept_as_a_preferences_set_reads_membership() -> None:
    from tasklang.envs.device.differential import library
    from tasklang.envs.device.probes import probe_specs, records_of

    compiled = next(c for c in library().values() if "gallery" in c.apps)
    spec = next(s for s in probe_specs(compiled) if (s.app, s.target) == ("gallery", "albums"))
    prefs = (
        '<map><set name="pinned_folders"><string>/sdcard/Pictures/Trips</string></set>'
        '<int name="sort_order" value="1026" /></map>'
    )
    table = "'path','filename'\n'/sdcard/Pictures/Trips','Trips'\n'/sdcard/DCIM','DCIM'\n"

    def run(argv: tuple[str, ...]) -> str:
        assert argv[-1].endswith("/shared_prefs/Prefs.xml") and argv[2] == "cat"
        return prefs

    got = records_of(spec, table, run)
    assert [(r["name"], r["pinned"]) for r in got] == [("Trips", True), ("DCIM", False)]
    prefs = "<map/>"  # no set yet: nothing is pinned
    assert [r["pinned"] for r in records_of(spec, table, run)] == [False, False]


def test_a_conversation_is_read_by_its_thread_id_and_canonical_address() -> None:
    """A conversation's number is the canonical address its `recipient_ids` names; the
    app's `pinned_conversations` set names conversations by their thread `_id`, which the
    provider gives and the probe reads beside the row (an id of a conversation no longer
    there pins nothing); `archived` is the threads table's own column."""
    from tasklang.envs.device.differential import library
    from tasklang.envs.device.probes import Ambiguous, probe_specs, records_of

    compiled = library()["messages.delete_conversation"]
    spec = next(s for s in probe_specs(compiled) if (s.app, s.target) == ("messages", "threads"))
    pinned = next(f for f in spec.fields if f.field == "pinned")
    assert pinned.prefs_set is not None and pinned.prefs_set.key == "pinned_conversations"
    assert spec.set_ids == ["_id"] and spec.provided == ["recipient_ids", "_id"]
    assert spec.columns == ["snippet", "read", "_id", "archived", "date", "recipient_ids"]
    package = "com.simplemobiletools.smsmessenger"
    canonical = ("content", "query", "--uri", "content://mms-sms/canonical-addresses",
                 "--projection", "_id:address")  # fmt: skip
    assert [c.argv for c in spec.data_commands()] == [canonical]
    prefs, addresses = (
        text("shared_prefs_messages.xml"),
        text("content_query_canonical_addresses.txt"),
    )

    def run(argv: tuple[str, ...]) -> str:
        if argv == canonical:
            return addresses
        assert argv == ("run-as", package, "cat", f"/data/data/{package}/shared_prefs/Prefs.xml")
        return prefs

    threads = text("content_query_threads.txt")
    got = records_of(spec, threads, run)
    assert [(r["address"], r["snippet"], r["unread"], r["pinned"], r["archived"]) for r in got] == [
        ("+15550100", "See you at 6, ok?", False, False, False),
        ("555 0199", "Lunch = tomorrow", True, True, False),
        ("+15550123", None, False, False, True),
    ]  # fmt: skip
    assert all("contact_name" not in r for r in got)  # not read
    prefs = "<map/>"  # the app has pinned nothing yet
    assert not any(r["pinned"] for r in records_of(spec, threads, run))
    prefs = '<map><string name="pinned_conversations">12</string></map>'
    with pytest.raises(parse.OutputError, match="`pinned_conversations` is not a set"):
        records_of(spec, threads, run)
    prefs = "<map/>"
    group = threads.replace("recipient_ids=7\n", "recipient_ids=7 8\n")  # two parties
    with pytest.raises(Ambiguous, match="recipient_ids '7 8' names no row"):
        records_of(spec, group, run)


def test_the_sent_box_reads_the_delivery_status_telephony_keeps() -> None:
    from tasklang.envs.device.differential import library
    from tasklang.envs.device.probes import probe_specs, records_of

    compiled = library()["androidworld.simple_sms_send"]
    spec = next(s for s in probe_specs(compiled) if (s.app, s.target) == ("messages", "sent"))
    status = next(f for f in spec.fields if f.field == "status")
    assert status.codec.exact
    assert [status.codec.encode(v) for v in ("sent", "delivered", "pending", "failed")] == [
        "-1", "0", "32", "64",
    ]  # fmt: skip

    def run(argv: tuple[str, ...]) -> str:
        raise AssertionError(f"a content probe runs nothing more: {argv}")

    records = records_of(spec, text("content_query_sms_sent.txt"), run)
    assert [(r["to"], r["body"], r["timestamp"], r["status"]) for r in records] == [
        ("+15550100", "Running late, be there at 6", "2024-05-14T08:00:00", "sent"),
        ("555 0199", "Got it =) thanks", "2024-05-14T09:00:00", "delivered"),
        ("+15550123", "Call me", "2024-05-14T10:00:00", "pending"),
        ("+15550124", "Are you there?", "2024-05-14T11:00:00", "failed"),
    ]
    with pytest.raises(parse.OutputError, match=r"messages\.sent"):  # not a status Telephony keeps
        records_of(spec, "Row: 0 address=1, body=x, date=0, status=sent\n", run)
    assert codec.FORM_COLUMNS[("status", "status")](_type("enum", members=("sent", "read"))) is None
    mms = next(f for f in spec.fields if f.field == "mms")
    assert mms.codec.exact and mms.parts == () and "mms" not in spec.columns
    assert mms.elsewhere is not None and mms.elsewhere.uri == "content://mms/sent"
    table = spec.probe.model_copy(update={"source": "sqlite"})  # only providers keep records apart
    fdef = ir.FieldDef(name="mms", type=_type("bool"))
    assert not codec.column_codec(table, fdef, mms.column).exact


def _contacts_people() -> tuple[ir.CompiledTask, object]:
    from tasklang.envs.device.differential import library
    from tasklang.envs.device.probes import probe_specs

    compiled = library()["contacts.company_answer"]
    spec = next(s for s in probe_specs(compiled) if (s.app, s.target) == ("contacts", "people"))
    return compiled, spec


def test_contact_details_are_read_from_the_data_rows_of_their_raw_contact() -> None:
    from tasklang.envs.device.probes import ProbeSpec, records_of

    _, spec = _contacts_people()
    assert isinstance(spec, ProbeSpec)
    assert spec.columns == ["display_name", "data1", "data2", "starred", "raw_contact_id"]
    data, groups = spec.data_commands()
    assert data.argv == (
        "content", "query", "--uri", "content://com.android.contacts/data",
        # the groups' members are kept in the same rows: one query for both
        "--projection", "raw_contact_id:mimetype:data1:data2:data4:display_name",
    )  # fmt: skip
    assert groups.argv == (
        "content", "query", "--uri", "content://com.android.contacts/groups",
        "--projection", "_id:title",
    )  # fmt: skip
    asked = []
    outputs = {
        data.argv: text("content_query_contact_data.txt"),
        groups.argv: text("content_query_contact_groups.txt"),
    }

    def run(argv: tuple[str, ...]) -> str:
        asked.append(argv)
        return outputs[argv]

    records = records_of(spec, text("content_query_contact_phones.txt"), run)
    assert asked == [data.argv, groups.argv]  # read once for every contact
    ann, bob, chloe = records
    assert ann == {
        "name": "Ann Lee", "phone": "+1 555-0100", "phone_label": "mobile", "starred": False,
        "email": "ann.lee@example.com", "email_label": "work", "company": "Bluefin Logistics",
        "job_title": "Account Manager", "address": None,
        "birthday": "1990-04-02",  # the birthday event, not the anniversary (TYPE 1)
        "notes": "Met at the fair; likes tea",
        "group": "work",  # the membership names the group row of `_id` 3
    }  # fmt: skip
    assert bob["address"] == "12 Harbour Road\nLeith" and bob["phone_label"] == "home"
    # no rows of a kind: the field's default
    assert (bob["email"], bob["email_label"], bob["company"], bob["notes"]) == (
        None, "home", None, None,
    )  # fmt: skip
    assert chloe["phone_label"] == "work" and chloe["birthday"] is None
    # a group created in the app is a `Group` record's, not a standard group: no group
    assert bob["group"] == chloe["group"] == "other"


def test_a_contact_with_two_values_for_one_field_is_not_read() -> None:
    from tasklang.envs.device.probes import Ambiguous, ProbeSpec, read_world

    compiled, spec = _contacts_people()
    assert isinstance(spec, ProbeSpec)
    data, groups = spec.data_commands()
    rows = text("content_query_contact_data.txt") + (
        "Row: 14 raw_contact_id=1, mimetype=vnd.android.cursor.item/email_v2, "
        "data1=ann@work.example, data2=2, data4=NULL, display_name=Ann Lee\n"
    )
    from tasklang.envs.device.probes import records_of

    def reads(data_rows: str) -> Callable[[tuple[str, ...]], str]:
        outputs = {data.argv: data_rows, groups.argv: text("content_query_contact_groups.txt")}
        return lambda argv: outputs[argv]

    with pytest.raises(Ambiguous, match=r"raw_contact_id 1 has 2 values for `email`"):
        records_of(spec, text("content_query_contact_phones.txt"), reads(rows))
    # the same address twice is one value
    twice = text("content_query_contact_data.txt") + (
        "Row: 14 raw_contact_id=1, mimetype=vnd.android.cursor.item/email_v2, "
        "data1=ann.lee@example.com, data2=2, data4=NULL, display_name=Ann Lee\n"
    )
    [ann, *_] = records_of(spec, text("content_query_contact_phones.txt"), reads(twice))
    assert ann["email"] == "ann.lee@example.com"
    # two standard groups, where the model keeps one: not read either
    friends = text("content_query_contact_data.txt") + (
        "Row: 14 raw_contact_id=1, mimetype=vnd.android.cursor.item/group_membership, "
        "data1=2, data2=NULL, data4=NULL, display_name=Ann Lee\n"
    )
    with pytest.raises(Ambiguous, match=r"2 values for `group`"):
        records_of(spec, text("content_query_contact_phones.txt"), reads(friends))

    def phone(argv: tuple[str, ...]) -> str:
        if argv == data.argv:
            return rows
        if argv == groups.argv:
            return text("content_query_contact_groups.txt")
        if argv[-2:] == ("--projection", "title:_id:deleted"):  # the groups probe's own query
            titles = ("Family", "Friends", "Work", "Classmates", "Book club, Tuesdays")
            return "".join(
                f"Row: {i} title={t}, _id={i + 1}, deleted=0\n" for i, t in enumerate(titles)
            )
        if argv == spec.command().argv:
            return text("content_query_contact_phones.txt")
        if argv[:3] == ("content", "query", "--uri"):
            return "No result found.\n"
        if argv[0] == "run-as":
            return ""
        if argv[0] == "date":
            return "2026-05-14T14:10:00\n"
        if argv[0] == "dumpsys":
            return text("dumpsys_window.txt")
        if argv[:2] == ("uiautomator", "dump"):
            return "UI hierchary dumped to: /data/local/tmp/tasklang-window.xml\n"
        return text("uiautomator_dump_ok.txt")

    reading = read_world(compiled, phone)  # the collection is left out, never guessed
    assert "people" not in reading.snapshot.apps["contacts"].collections
    assert "2 values for `email`" in reading.unread[("contacts", "people")]
    # the standard groups' rows are the values of a contact's group, not `Group` records
    assert reading.snapshot.apps["contacts"].collections["groups"] == [
        {"title": "Book club, Tuesdays", "members": ["Bob Lee"]}
    ]


def test_standard_groups_are_written_as_group_rows_and_named_by_title() -> None:
    from tasklang.envs.device.probes import probe_specs

    compiled, _ = _contacts_people()
    groups = next(s for s in probe_specs(compiled) if s.target == "groups")
    assert groups.named_rows() == [
        {"title": t} for t in ("Classmates", "Family", "Friends", "Work")
    ]
    assert groups.is_named({"title": "family"}) and not groups.is_named({"title": "Book club"})
    kinds = _type("enum", members=("family", "friends", "work", "classmates", "other"))
    group = codec.FORM_COLUMNS[("group", "title")](kinds)
    assert group is not None
    assert [group.encode(v) for v in ("family", "classmates", "other")] == [
        "Family", "Classmates", None,
    ]  # fmt: skip
    with pytest.raises(codec.DecodeError):
        group.decode("Book club")
    assert codec.FORM_COLUMNS[("group", "title")](_type("enum", members=("vip",))) is None


def test_data_row_columns_need_a_single_valued_field_of_a_provider() -> None:
    column = (
        "data1 where mimetype = vnd.android.cursor.item/email_v2 "
        "in content://com.android.contacts/data by raw_contact_id"
    )
    probe = ir.Probe(target="people", source="content", uri="content://x", columns={"e": column})
    text_field = ir.FieldDef(name="e", type=_type("text", optional=True))
    assert codec.column_codec(probe, text_field, column).exact
    listed = ir.FieldDef(name="e", type=_type("list", item=_type("int")))
    assert not codec.column_codec(probe, listed, column).exact  # a row holds one text
    texts = ir.FieldDef(name="e", type=_type("list", item=_type("text")))
    assert codec.column_codec(probe, texts, column).many  # a row per item
    table = probe.model_copy(update={"source": "sqlite"})
    assert not codec.column_codec(table, text_field, column).exact
    labelled = ir.FieldDef(name="email_label", type=_type("enum", members=("home", "mobile")))
    assert not codec.column_codec(probe, labelled, column.replace("data1", "data2", 1)).exact


def _contacts_groups() -> tuple[ir.CompiledTask, object]:
    from tasklang.envs.device.differential import library
    from tasklang.envs.device.probes import probe_specs

    compiled = library()["contacts.company_answer"]
    spec = next(s for s in probe_specs(compiled) if (s.app, s.target) == ("contacts", "groups"))
    return compiled, spec


def test_a_groups_members_are_read_from_the_membership_rows_naming_it() -> None:
    from tasklang.envs.device.probes import Ambiguous, ProbeSpec, records_of

    _, spec = _contacts_groups()
    assert isinstance(spec, ProbeSpec)
    # the id the membership rows name it by, and the mark of a group deleted (kept until a
    # sync adapter removes it)
    assert spec.columns == ["title", "_id", "deleted"]
    [data] = spec.data_commands()
    assert data.argv == (
        "content", "query", "--uri", "content://com.android.contacts/data",
        "--projection", "raw_contact_id:mimetype:data1:data2:data4:display_name",
    )  # fmt: skip
    outputs = {data.argv: text("content_query_contact_data.txt")}
    groups = text("content_query_contact_groups_ids.txt")
    records = records_of(spec, groups, outputs.__getitem__)
    # the standard groups are no records, nor is a deleted group (`Old friends`); only
    # membership rows name a group by `data1`
    assert records == [
        {"title": "Book club, Tuesdays", "members": ["Bob Lee"]},
        {"title": "Neighbours", "members": ["Chloé 王"]},
        {"title": "Choir", "members": []},
    ]
    # a second member: the provider keeps no order among the rows, so the list is not read
    two = text("content_query_contact_data.txt") + (
        "Row: 14 raw_contact_id=1, mimetype=vnd.android.cursor.item/group_membership, "
        "data1=5, data2=NULL, data4=NULL, display_name=Ann Lee\n"
    )
    with pytest.raises(Ambiguous, match=r"_id 5 has 2 rows for `members`.*keeps no order"):
        records_of(spec, groups, {data.argv: two}.__getitem__)
    # one contact twice (two raw contacts joined into one) is not one member either
    twice = text("content_query_contact_data.txt") + (
        "Row: 14 raw_contact_id=4, mimetype=vnd.android.cursor.item/group_membership, "
        "data1=6, data2=NULL, data4=NULL, display_name=Chloé 王\n"
    )
    with pytest.raises(Ambiguous, match=r"_id 6 has 2 rows"):
        records_of(spec, groups, {data.argv: twice}.__getitem__)
    nameless = text("content_query_contact_data.txt") + (
        "Row: 14 raw_contact_id=5, mimetype=vnd.android.cursor.item/group_membership, "
        "data1=7, data2=NULL, data4=NULL, display_name=NULL\n"
    )
    with pytest.raises(Ambiguous, match=r"_id 7 has a row for `members`.*without `display_name`"):
        records_of(spec, groups, {data.argv: nameless}.__getitem__)


def test_a_list_kept_a_row_per_item_round_trips_up_to_one_item() -> None:
    column = (
        "display_name where mimetype = vnd.android.cursor.item/group_membership "
        "in content://com.android.contacts/data by data1 = _id"
    )
    probe = ir.Probe(target="groups", source="content", uri="content://x", columns={"m": column})
    listed = ir.FieldDef(name="m", type=_type("list", item=_type("text")))
    items = codec.column_codec(probe, listed, column)
    assert items.exact and items.many
    assert [items.encode(v) for v in ([], None, ["Ann, Lee"])] == [None, None, '["Ann, Lee"]']
    assert items.decode(None) == [] and items.decode('["Ann, Lee"]') == ["Ann, Lee"]
    with pytest.raises(codec.DecodeError):
        items.decode("[1]")
    numbers = ir.FieldDef(name="m", type=_type("list", item=_type("int")))
    assert not codec.column_codec(probe, numbers, column).exact  # a row's text, not a number
    table = probe.model_copy(update={"source": "sqlite"})
    assert not codec.column_codec(table, listed, column).exact


def test_data_saver_is_read_from_the_network_policy_service() -> None:
    from tasklang.envs.device.differential import library
    from tasklang.envs.device.probes import probe_specs, setting_raw
    from tasklang.envs.device.services import DATA_SAVER, service_setting

    compiled = library()["settings.set_volumes"]
    spec = next(s for s in probe_specs(compiled) if s.target == "data_saver")
    assert service_setting(spec.probe.namespace, spec.probe.key) == DATA_SAVER
    cmd = spec.command()
    assert cmd is not None and cmd.argv == ("cmd", "netpolicy", "get", "restrict-background")
    assert spec.codec is not None and spec.codec.exact
    on = setting_raw(spec, text("cmd_netpolicy_restrict_background.txt"))
    off = setting_raw(spec, "Restrict background status: disabled\r\n")
    assert (spec.codec.decode(on), spec.codec.decode(off)) == (True, False)
    assert DATA_SAVER.output("1") == text("cmd_netpolicy_restrict_background.txt")
    assert DATA_SAVER.set("0") == ("cmd", "netpolicy", "set", "restrict-background", "false")
    for garbage in (
        "", "null\n", "Error: unknown get type 'restrict-background'\n",
        "Restrict background status: enabled (metered)\n", "Restricted mode status: enabled\n",
        "Restrict background status: enabled\nRestrict background status: disabled\n",
    ):  # fmt: skip
        with pytest.raises(parse.OutputError, match=r"settings\.data_saver: `cmd netpolicy get"):
            setting_raw(spec, garbage)
    with pytest.raises(ValueError, match="holds 1 or 0"):
        DATA_SAVER.set("2")
    # every service key the compiler accepts, the device backend reads
    from tasklang.appmodel import SERVICE_SETTINGS as ACCEPTED
    from tasklang.envs.device.services import SERVICE_SETTINGS

    assert set(SERVICE_SETTINGS) == {(s, k) for s, keys in ACCEPTED.items() for k in keys}


@pytest.mark.parametrize(
    ("probe", "message"),
    [
        ('setting netpolicy "restrict-backgrounds"', "`netpolicy` keeps no setting"),
        ('setting netpolcy "restrict-background"', "unknown settings namespace"),
    ],
)
def test_a_service_setting_probe_names_a_known_key(probe: str, message: str) -> None:
    from tasklang.compiler import Compiler

    app = (
        'app saver {\n  package "com.example.saver"\n  settings {\n    on: bool = false\n'
        f"    level: int = 0\n  }}\n  probe on: {probe}\n"
        '  probe level: setting netpolicy "restrict-background"\n}\n'
    )
    result = Compiler().compile_text(app, "saver.app")
    texts = [d.message for d in result.diagnostics if d.code == "TL1023"]
    assert any(message in t for t in texts), texts
    assert any("is a boolean, not `int`" in t for t in texts), texts


RETRO = "code.name.monkey.retromusic"


def test_media_sessions_are_read_from_a_real_dump() -> None:
    from tasklang.envs.device.services import SESSION_VALUES

    listing = parse.parse_media_sessions(text("dumpsys_media_session.txt"))
    assert listing.listed == 2
    assert [(s.package, s.state, s.whole) for s in listing.sessions] == [
        (RETRO, 3, True),
        ("org.videolan.vlc", 2, True),
    ]
    assert listing.sessions[0].metadata == (
        "size=9, description=Paper Planes Over Tokyo, Neon Tigers, After Hours"
    )
    dump = text("dumpsys_media_session.txt")
    assert SESSION_VALUES["title"].read(dump, RETRO) == "Paper Planes Over Tokyo"
    assert SESSION_VALUES["playing"].read(dump, RETRO) == "1"
    assert SESSION_VALUES["playing"].read(dump, "org.videolan.vlc") == "0"  # paused
    # every media session value the compiler accepts, the device backend reads
    from tasklang.appmodel import SESSION_VALUES as ACCEPTED

    assert set(SESSION_VALUES) == set(ACCEPTED)
    never = _one_player(None, None).replace("metadata: size=0, description=null", "metadata: null")
    assert SESSION_VALUES["title"].read(never, RETRO) is None  # a session never given any
    crlf = dump.replace("\n", "\r\n")  # a terminal's line ends
    assert SESSION_VALUES["title"].read(crlf, RETRO) == "Paper Planes Over Tokyo"


def _one_player(description: str | None, state: int | None) -> str:
    from tasklang.envs.device.services import MEDIA_SESSION_HEAD, session_record

    return MEDIA_SESSION_HEAD + session_record(RETRO, description, state)


@pytest.mark.parametrize(
    ("description", "state", "title", "playing"),
    [
        ("Low Tide, The Lanterns, Harbor Lights", 2, "Low Tide", "0"),  # paused
        ("Low Tide, The Lanterns, Harbor Lights", 1, "Low Tide", "0"),  # stopped
        ("Low Tide, The Lanterns, Harbor Lights", 0, "Low Tide", "0"),  # none
        (None, None, None, "0"),  # nothing loaded: no metadata, no state
        ("Ember, Ash & Oak, Hearth", 3, "Ember", "1"),
        ("Ember, Ash & Oak, Hearth", 6, "Ember", None),  # buffering: unread
        ("Ember, Ash & Oak, Hearth", 7, "Ember", None),  # an error: unread
        ("Paper Boats, Lanterns, The, Harbor Lights", 3, None, "1"),  # splits two ways
        ("Low Tide, Harbor Lights", 3, None, "1"),  # not title, artist, album
        ("null, null, null", 3, None, "1"),  # no title at all
    ],
)
def test_a_players_session_is_read_exactly_or_not_at_all(
    description: str | None, state: int | None, title: str | None, playing: str | None
) -> None:
    from tasklang.envs.device.services import SESSION_VALUES, SessionUnread

    dump = _one_player(description, state)
    for key, want in (("title", title), ("playing", playing)):
        unread = want is None and not (key == "title" and description is None)
        if unread:
            with pytest.raises(SessionUnread):
                SESSION_VALUES[key].read(dump, RETRO)
        else:
            assert SESSION_VALUES[key].read(dump, RETRO) == want, key


def test_a_player_with_no_session_or_several_is_not_read() -> None:
    from tasklang.envs.device.services import MEDIA_SESSION_HEAD, SESSION_VALUES, SessionUnread

    dump = text("dumpsys_media_session.txt")
    for key in SESSION_VALUES:
        with pytest.raises(SessionUnread, match=r"no media sessions of com\.example"):
            SESSION_VALUES[key].read(dump, "com.example.player")  # not running
        with pytest.raises(SessionUnread, match="no media sessions"):
            SESSION_VALUES[key].read(MEDIA_SESSION_HEAD, RETRO)
    one = _one_player("Ember, Ash & Oak, Hearth", 3)
    start = one.index("    " + RETRO + " ")
    two = one.replace("have 1 sessions", "have 2 sessions") + one[start:]
    with pytest.raises(SessionUnread, match="2 media sessions of"):
        SESSION_VALUES["title"].read(two, RETRO)


def test_a_title_with_a_line_break_cannot_pass_for_session_records() -> None:
    """Text a player gave its metadata is printed as it is: a line break in a title leaves
    lines that are no record's, or records the stacks do not list, and nothing is read."""
    from tasklang.envs.device.services import SESSION_VALUES, SessionUnread

    broken = _one_player("Low\nTide, The Lanterns, Harbor Lights", 3)
    with pytest.raises(SessionUnread, match="line break"):
        SESSION_VALUES["title"].read(broken, RETRO)
    fake = (  # a title that ends the record early and prints one of its own
        "Ember, A, B\n      queueTitle=null, size=0\n    x x/x (userId=0)\n"
        "      ownerPid=1, ownerUid=2, userId=0\n      package=x\n      state=null\n"
        "      metadata: size=0, description=Z"
    )
    spoofed = _one_player(fake + ", Ash & Oak, Hearth", 3)
    for key in SESSION_VALUES:
        with pytest.raises(SessionUnread, match="2 media session records printed where"):
            SESSION_VALUES[key].read(spoofed, RETRO)


@pytest.mark.parametrize(
    "garbage",
    [
        "",
        "Can't find service: media_session\n",
        "MEDIA SESSION SERVICE (dumpsys media_session)\n  Sessions Stack - have 1 sessions:\n"
        "      ownerPid=1, ownerUid=2, userId=0\n      package=p\n      queueTitle=null\n",
        "MEDIA SESSION SERVICE (dumpsys media_session)\n  Sessions Stack - have 1 sessions:\n"
        "      ownerPid=1, ownerUid=2, userId=0\n      package=p\n      state=PLAYING\n"
        "      metadata: size=0, description=null\n      queueTitle=null, size=0\n",
    ],
)
def test_media_session_output_in_no_known_form_is_an_error(garbage: str) -> None:
    with pytest.raises(parse.OutputError, match="dumpsys media_session"):
        parse.parse_media_sessions(garbage)


def test_the_music_players_session_is_read_after_every_step() -> None:
    """Retro Music's current song and whether it plays are read from its media session by a
    fixed command, which PhoneWorld answers from its state; the probes are no screen's, so a
    change along the way is seen."""
    from tasklang.envs.device.differential import library
    from tasklang.envs.device.phoneworld import PhoneWorldTransport
    from tasklang.envs.device.probes import coverage, probe_specs, read_world
    from tasklang.envs.device.setup import build_plan
    from tasklang.envs.device.shell import shell_line
    from tasklang.envs.phoneworld.episode import run_reference
    from tasklang.verifiers.probes import unobservable

    compiled = library()["music.play_song"]
    _, traj = run_reference(compiled, 0)
    specs = {s.target: s for s in probe_specs(compiled)}
    for target in ("now_playing", "playing"):
        cmd = specs[target].command()
        assert cmd is not None and cmd.argv == ("dumpsys", "media_session")
    problems = unobservable(compiled, coverage(compiled, initial=traj.header.instance.initial),
                            steps=True)  # fmt: skip
    assert not any("now_playing" in p or "music.playing" in p for p in problems.values())
    world = traj.final.snapshot
    assert world is not None
    transport = PhoneWorldTransport(compiled, lambda: world, lambda: "<hierarchy/>")
    reading = read_world(compiled, lambda argv: transport.shell(shell_line(argv)))
    music = reading.snapshot.apps["music"].settings
    want = world.apps["music"].settings
    assert want["now_playing"] is not None and want["playing"] is True
    assert (music["now_playing"], music["playing"]) == (want["now_playing"], True)
    # no command writes a player's session: a setup that needs one says so
    initial = traj.header.instance.initial.model_copy(deep=True)
    initial.apps["music"].settings["now_playing"] = "Ember"
    plan = build_plan(compiled, initial)
    assert not any("media_session" in c.line for c in plan.setup)
    assert any("music.now_playing: 'Ember' is the player's media session" in n
               for n in plan.notes)  # fmt: skip


@pytest.mark.parametrize(
    ("probe", "message"),
    [
        ('setting media_session "titel"', "the media session keeps no value `titel`"),
        ('setting media_session "title"', "`media_session title` is a text, not `bool`"),
    ],
)
def test_a_media_session_probe_names_a_known_value(probe: str, message: str) -> None:
    from tasklang.compiler import Compiler

    app = (
        'app player {\n  package "com.example.player"\n  settings {\n    on: bool = false\n'
        f"  }}\n  probe on: {probe}\n}}\n"
    )
    result = Compiler().compile_text(app, "player.app")
    texts = [d.message for d in result.diagnostics if d.code == "TL1023"]
    assert any(message in t for t in texts), texts


def test_a_provider_several_collections_keep_fields_in_is_read_once() -> None:
    from tasklang.envs.device.differential import library
    from tasklang.envs.device.phoneworld import PhoneWorldTransport
    from tasklang.envs.device.probes import read_world
    from tasklang.envs.device.shell import shell_line
    from tasklang.verifiers.snapshot import AppState, WorldSnapshot

    compiled = library()["contacts.company_answer"]
    world = WorldSnapshot(clock="2026-05-14T08:30:00")
    people = [{"name": "Ann Lee", "phone": "+1 555-0100", "company": "Bluefin"}]
    world.apps["contacts"] = AppState(
        collections={"people": people, "groups": [{"title": "Choir", "members": ["Ann Lee"]}]}
    )
    transport = PhoneWorldTransport(compiled, lambda: world, lambda: "<hierarchy/>")
    asked: list[tuple[str, ...]] = []

    def run(argv: tuple[str, ...]) -> str:
        asked.append(argv)
        return transport.shell(shell_line(argv))

    reading = read_world(compiled, run)
    data = [
        a
        for a in asked
        if a[:4] == ("content", "query", "--uri", "content://com.android.contacts/data")
    ]
    assert len(data) == 1  # the contacts' details and the groups' members, in one query
    state = reading.snapshot.apps["contacts"]
    assert state.collections["groups"] == [{"title": "Choir", "members": ["Ann Lee"]}]
    assert state.collections["people"][0]["company"] == "Bluefin"
