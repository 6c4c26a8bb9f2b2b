"""Setup, probe and tear-down plans: what they do, and that no task value is ever read by a
shell as syntax.

The property tests push hostile strings (quotes, `;`, `$()`, backticks, newlines,
non-ASCII, 10k characters) through every setup path (provider rows, SQLite rows, settings,
files, the foreground activity), every probe path (app-model strings, file names a phone
lists) and every tear-down path (outputs saved before setup), and check each command:
the `adb shell` line splits back (``shlex``, POSIX rules, as the device's shell splits it)
into exactly the plan's argument vector, and the value arrives whole where it belongs (a
`--bind` value, a SQL literal that SQLite itself reads back, a `settings put` value, a
pushed file's bytes).
"""

from __future__ import annotations

import json
import shlex
import sqlite3
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from tasklang import ir
from tasklang.cli import app
from tasklang.compiler import library_root
from tasklang.envs.device.codec import TEXT, DecodeError, table_fills
from tasklang.envs.device.differential import library
from tasklang.envs.device.parse import OutputError, parse_setting
from tasklang.envs.device.probes import (
    DataRow,
    Elsewhere,
    FieldMap,
    Lookup,
    ProbeSpec,
    files_root,
    probe_specs,
)
from tasklang.envs.device.runner import teardown_commands
from tasklang.envs.device.services import DATA_SAVER
from tasklang.envs.device.setup import (
    build_plan,
    read_through,
    restore_table_sql,
    save_table_sql,
    writable_values,
)
from tasklang.envs.device.shell import (
    Command,
    UnsafeValue,
    option_like,
    quote,
    shell_line,
    sql_name,
)
from tasklang.sampling import sample_instance
from tasklang.verifiers.snapshot import AppState, WorldSnapshot

HOSTILE = [
    "'", '"', ";", "$(reboot)", "`id`", "a\nb", "it's \"quoted\"", "; rm -rf / #", "$HOME",
    "&& echo pwned", "| cat", "> /sdcard/x", "*", "~", "-rf", "--bind", "%s", "\\", "\\'",
    "é中😀\u202e", " leading and trailing ", "\t\r\n", "x" * 10_000, "NULL", "null", "a, b=c",
    "'; DROP TABLE expense; --", "\u0085\u2028", "",
]  # fmt: skip
hostile = st.one_of(
    st.sampled_from(HOSTILE),
    st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=80),
)
PROPERTY = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def round_trips(cmd: Command) -> bool:
    return cmd.kind == "push" or shlex.split(cmd.line) == list(cmd.argv)


def all_apps() -> ir.CompiledTask:
    """A library task given every library app model, so every probe source is exercised."""
    tasks = library()
    base = tasks["markor.create_note"]
    apps: dict[str, ir.AppModel] = {}
    for c in tasks.values():
        apps.update(c.apps)
    return base.model_copy(update={"apps": apps})


ALL = all_apps()
TASKS = library_root() / "app"


def hostile_value(t: ir.Type, s: str) -> Any:
    if t.name in ("text", "phone", "email", "enum", "file", "date"):
        return s
    if t.name == "list":  # (a list of numbers holds numbers: a calendar's reminders)
        return [len(s), 3] if t.item is not None and t.item.name == "int" else [s, s[:3]]
    return None  # a typed value a string cannot be: exercised as NULL


def hostile_world(s: str, setting: str | None = None) -> WorldSnapshot:
    """One record per probed collection and every probed setting, holding ``s`` (settings
    hold ``setting`` when given)."""
    snap = WorldSnapshot(clock="2026-05-14T08:30:00")
    name = s.replace("/", "_") or "x"
    if name in (".", ".."):
        name = "x" + name
    for spec in probe_specs(ALL):
        model = ALL.apps[spec.app]
        state = snap.apps.setdefault(spec.app, AppState())
        if spec.kind == "setting":
            fdef = model.setting(spec.target)
            assert fdef is not None
            state.settings[spec.target] = hostile_value(
                fdef.type, s if setting is None else setting
            )
            continue
        coll = model.collection(spec.target)
        rdef = model.record(coll.record) if coll else None
        assert rdef is not None
        rec = {f.name: hostile_value(f.type, s) for f in rdef.fields}
        for fm in spec.fields:  # (an event's type: only a built-in one can be written)
            fdef = rdef.field(fm.field)
            if fdef is not None and fm.codec.exact and fm.codec.from_record is None:
                try:
                    fm.codec.encode(rec.get(fm.field))
                except DecodeError:
                    rec[fm.field] = fdef.default
        if spec.probe.source == "files":
            rec["path"] = f"{files_root(spec.probe.path or '')}/{name}"
            rec["modified"] = "2026-05-14T08:30:00"
        elif any(f.type_name == "file" for f in spec.fields):  # a row naming its app's file
            rec["path"] = f"/sdcard/Android/data/{spec.package}/files/{name}"
        state.collections[spec.target] = [rec]
    return snap


def check_setup(plan_cmds: list[Command], snap: WorldSnapshot) -> set[str]:
    """Assert every setup command is safe and carries its value whole; the kinds seen."""
    seen: set[str] = set()
    specs = probe_specs(ALL)
    by_uri = {s.probe.uri: s for s in specs if s.probe.source == "content"}
    by_table = {
        (s.package, s.probe.path, f"DELETE FROM {sql_name(s.probe.table or '')};"): s
        for s in specs
        if s.probe.source == "sqlite"
    }
    for cmd in plan_cmds:
        assert round_trips(cmd), cmd.argv
        argv = list(cmd.argv)
        if argv[:2] == ["content", "insert"]:
            spec = by_uri[argv[3]]
            binds = [argv[i + 1] for i, a in enumerate(argv) if a == "--bind"]
            got = {b.split(":", 2)[0]: b.split(":", 2)[2] for b in binds if b.split(":")[1] == "s"}
            want = writable_values(spec, _record(snap, spec))
            # the record's row, or a row another field names (a standard contact group)
            assert got == {k: v for k, v in want.items() if v is not None} or (
                got in spec.named_rows()
            )
            seen.add("content")
        elif argv[:1] == ["run-as"] and argv[4:5] and argv[4].startswith("CREATE TABLE"):
            saving = {(s.package, s.probe.path, save_table_sql(s)) for s in by_table.values()}
            assert (argv[1], argv[3], argv[4]) in saving, argv  # a copy of a table's rows
        elif argv[:1] == ["run-as"] and len(argv) == 5:
            spec = by_table[(argv[1], argv[3], argv[4].split("\n", 1)[0])]
            want_row = writable_values(spec, _record(snap, spec))
            got_rows = _sql_rows(argv[4], spec)
            assert [{c: r[c] for c in want_row} for r in got_rows] == [want_row]
            seen.add("sqlite")
        elif argv[:2] == ["settings", "put"] and argv[3] != "auto_time":
            seen.add("setting")
        elif cmd.kind == "push":
            assert cmd.data is not None
            seen.add("push")
        elif argv[:2] == ["am", "start"]:
            seen.add("foreground")
    return seen


def _record(snap: WorldSnapshot, spec: ProbeSpec) -> dict[str, Any]:
    return snap.apps[spec.app].collections[spec.target][0]


def _sql_rows(sql: str, spec: ProbeSpec) -> list[dict[str, Any]]:
    """Run the plan's SQL on a table of the probe's columns; the rows it leaves."""
    db = sqlite3.connect(":memory:")
    cols = ", ".join(sql_name(c) for c in spec.columns)
    every = ", ".join(sql_name(c) for c in [*spec.columns, *table_fills(spec.probe)])
    db.execute(f"CREATE TABLE {sql_name(spec.probe.table or '')} ({every})")
    db.executescript(sql)
    rows = db.execute(f"SELECT {cols} FROM {sql_name(spec.probe.table or '')}").fetchall()
    return [dict(zip(spec.columns, r, strict=True)) for r in rows]


def _ascii_lower(name: str) -> str:
    return "".join(c.lower() if c.isascii() else c for c in name)


def _option_like_setting(snap: WorldSnapshot) -> bool:
    """Whether a setting's stored form (`_` becomes `-` in a locale) reads as an option."""
    for spec in probe_specs(ALL):
        if spec.kind == "setting" and spec.codec is not None and spec.prefs_key is None:
            raw = spec.codec.encode(snap.apps[spec.app].settings.get(spec.target))
            if raw is not None and option_like(raw):
                return True
    return False


# ------------------------------------------------------------------ properties
@PROPERTY
@given(hostile)
@example("_")  # a locale's `_` is stored as `-`: an option to `settings put`
def test_setup_paths_pass_hostile_values_as_data(s: str) -> None:
    snap = hostile_world(s)
    task = ALL.task.model_copy(
        update={"given": ir.Given(foreground=ir.Foreground(app="clock", activity=s or "x"),
                                  clock=ALL.task.given.clock)}
    )  # fmt: skip
    compiled = ALL.model_copy(update={"task": task})
    if _option_like_setting(snap):  # `settings put` would read it as an option: refused
        with pytest.raises(UnsafeValue, match="as an option"):
            build_plan(compiled, snap)
        snap = hostile_world(s, setting="x" + s)
    plan = build_plan(compiled, snap)
    seen = check_setup(plan.setup, snap)
    assert {"content", "sqlite", "setting", "push", "foreground"} <= seen
    for cmd in plan.commands():
        assert round_trips(cmd)


@PROPERTY
@given(hostile, hostile)
def test_probe_paths_quote_model_strings(s: str, t: str) -> None:
    for source in ("content", "setting", "sqlite", "files", "prefs"):
        probe = ir.Probe(target="x", source=source, uri=s, namespace=t, key=s, path="/" + s,
                         table=t, columns={"a": s, "b": t})  # fmt: skip
        kind = "setting" if source in ("setting", "prefs") else "collection"
        spec = ProbeSpec("app", t, probe, kind)
        try:
            cmd = spec.command()
        except UnsafeValue:
            assert source == "content" and ":" in s + t
            continue
        assert cmd is not None and round_trips(cmd)
        if source == "sqlite":  # the identifiers reach SQLite as names, whatever they hold
            db = sqlite3.connect(":memory:")
            # SQLite tells names apart but for the case of ASCII letters
            same = _ascii_lower(s) == _ascii_lower(t)
            cols = sql_name(s) if same else ", ".join(sql_name(c) for c in (s, t))
            db.execute(f"CREATE TABLE {sql_name(t)} ({cols})")
            db.execute(cmd.argv[-1]).fetchall()
    listed = Command(("cat", "/sdcard/" + s), "read a listed file")
    assert round_trips(listed)
    [elsewhere] = Elsewhere("content://" + s).commands("app", t)  # the other provider looked at
    assert round_trips(elsewhere) and elsewhere.argv[3] == "content://" + s
    # the providers a field's rows are kept in and refer into, and the kind of row, as the
    # model names them
    uri, kind = (
        "content://" + ("".join(s.split()) or "x"),
        "".join(t.replace("=", "").split()) or "k",
    )
    column = (
        f"data1 where mimetype = {kind} in {uri} by raw_contact_id then title in {uri}/g by _id"
    )
    data = ProbeSpec("app", t, ir.Probe(target="x", source="content", uri=uri),
                     "collection", (FieldMap("e", column, TEXT),))  # fmt: skip
    assert data.data_rows and data.data_rows[0].data_row == DataRow(
        "data1", (("mimetype", kind),), uri, "raw_contact_id", Lookup("title", uri + "/g", "_id")
    )
    rows, looked = data.data_commands()
    assert round_trips(rows) and rows.argv[3] == uri
    assert rows.argv[5] == "raw_contact_id:mimetype:data1"
    assert round_trips(looked) and looked.argv[3:] == (uri + "/g", "--projection", "_id:title")
    # rows that name the record by another column of its row (a group's members)
    members = f"display_name where mimetype = {kind} in {uri} by data1 = _id"
    group = ProbeSpec("app", t, ir.Probe(target="x", source="content", uri=uri + "/g"),
                      "collection", (FieldMap("m", members, TEXT),))  # fmt: skip
    assert group.data_rows[0].data_row == DataRow(
        "display_name", (("mimetype", kind),), uri, "data1", None, "_id"
    )
    assert group.columns == ["_id"]
    [held] = group.data_commands()
    projected = (uri, "--projection", "data1:mimetype:display_name")
    assert round_trips(held) and held.argv[3:] == projected
    assert round_trips(group.command() or listed)


@PROPERTY
@given(hostile)
@example("a\n")
@example("\r\n")
def test_a_groups_member_read_back_whole(s: str) -> None:
    """A member's name (any text an agent typed as a contact's name) is read from the
    membership rows as data, the group named by its row's id."""
    from tasklang.envs.device.phoneworld import PhoneWorldTransport
    from tasklang.envs.device.probes import Ambiguous, records_of

    compiled = library()["contacts.company_answer"]
    spec = next(p for p in probe_specs(compiled) if p.target == "groups")
    world = WorldSnapshot(clock="2026-05-14T08:30:00")
    groups = [{"title": "x" + s, "members": [s]}, {"title": "y", "members": []}]
    world.apps["contacts"] = AppState(collections={"groups": groups, "people": []})
    transport = PhoneWorldTransport(compiled, lambda: world, lambda: "")
    cmd = spec.command()
    assert cmd is not None and round_trips(cmd)
    assert all(round_trips(c) for c in spec.data_commands())

    def run(argv: tuple[str, ...]) -> str:
        return transport.shell(shell_line(argv))

    if _plain_cell(s) and _plain_cell("x" + s):
        assert records_of(spec, run(cmd.argv), run) == groups
    world.apps["contacts"].collections["groups"] = [{"title": "x", "members": [s, s + "."]}]
    with pytest.raises(Ambiguous, match="2 rows for `members`"):
        records_of(spec, run(cmd.argv), run)


@PROPERTY
@given(hostile)
@example(", read=0, _id=2, archived=1, date=0")
@example("12")
@example("NULL")
@example("")
def test_a_pinned_conversation_is_named_by_its_thread_id_never_by_its_text(s: str) -> None:
    """A conversation's number and last message (any text) reach the phone as data; the
    app's `pinned_conversations` set names it by the id the provider gives its row, so the
    reading pins exactly the conversations pinned, whatever their text. Setup writes
    `archived` as a bound value, never the id, and leaves the pins to be set in the app."""
    from tasklang.envs.device.parse import parse_prefs_file
    from tasklang.envs.device.phoneworld import PhoneWorldTransport
    from tasklang.envs.device.probes import records_of

    compiled = library()["messages.delete_conversation"]
    spec = next(p for p in probe_specs(compiled) if p.target == "threads")
    when = "2026-05-14T08:00:00"
    threads = [
        {"address": s, "snippet": s, "unread": False, "pinned": True, "archived": False,
         "last_activity": when},
        {"address": "x" + s, "snippet": "y", "unread": True, "pinned": False, "archived": True,
         "last_activity": when},
    ]  # fmt: skip
    world = WorldSnapshot(clock="2026-05-14T08:30:00")
    world.apps["messages"] = AppState(collections={"threads": threads})
    transport = PhoneWorldTransport(compiled, lambda: world, lambda: "")

    def run(argv: tuple[str, ...]) -> str:
        return transport.shell(shell_line(argv))

    cmd = spec.command()
    assert cmd is not None and round_trips(cmd)
    [pins] = [f.prefs_set.command(spec.package) for f in spec.prefs_sets if f.prefs_set]
    assert round_trips(pins)
    assert parse_prefs_file(run(pins.argv))["pinned_conversations"] == '["1"]'
    if _plain_cell(s) and _plain_cell("x" + s):
        got = records_of(spec, run(cmd.argv), run)
        assert [(r["address"], r["snippet"], r["pinned"], r["archived"]) for r in got] == [
            (s, s, True, False), ("x" + s, "y", False, True),
        ]  # fmt: skip
    elif "\nRow: " not in s:  # a value mimicking cells is read exactly or not at all
        try:
            got = records_of(spec, run(cmd.argv), run)
        except OutputError:
            pass
        else:
            assert [(r["pinned"], r["archived"]) for r in got] == [(True, False), (False, True)]
            if s != "NULL":  # `content query` prints a NULL cell so
                assert [r["address"] for r in got] == [s, "x" + s]
    plan = build_plan(compiled, world)
    uri = spec.probe.uri or ""
    inserts = [c.argv for c in plan.setup if c.argv[:4] == ("content", "insert", "--uri", uri)]
    assert inserts[0][4:6] == ("--bind", f"snippet:s:{s}")
    assert [[b for b in a if b.startswith("archived:")] for a in inserts] == [
        ["archived:s:0"], ["archived:s:1"],
    ]  # fmt: skip
    assert all(round_trips(c) for c in plan.commands())
    assert not any(b.startswith(("_id:", "recipient_ids:")) for a in inserts for b in a)
    notes = [n for n in plan.notes if n.startswith("messages.threads:")]
    assert any("`pinned` (set `pinned_conversations` of Prefs.xml)" in n for n in notes)
    assert any("`address` kept in rows of content://mms-sms/canonical-addresses" in n
               for n in notes)  # fmt: skip


@PROPERTY
@given(hostile)
@example("\x01\r\ufffe<&\"'>\uffff")
def test_prefs_paths_read_back_hostile_settings_as_data(s: str) -> None:
    """A setting the app keeps as text in its shared preferences (any text an agent typed)
    is written there as Android escapes it and read back whole."""
    from tasklang.envs.device.parse import parse_prefs_file
    from tasklang.envs.device.phoneworld import PhoneWorldTransport

    prefs = [sp for sp in probe_specs(ALL) if sp.prefs_key is not None]
    texts = [sp for sp in prefs if not sp.probe.values and sp.setting_type is not None
             and sp.setting_type.name == "text"]  # fmt: skip
    assert texts  # the clock's home time zone, at least
    world = WorldSnapshot(clock="2026-05-14T08:30:00")
    for sp in prefs:  # the others at their defaults
        state = world.apps.setdefault(sp.app, AppState())
        state.settings[sp.target] = s if sp in texts else sp.default
    transport = PhoneWorldTransport(ALL, lambda: world, lambda: "")
    for sp in texts:
        cmd = sp.command()
        assert cmd is not None and round_trips(cmd) and cmd.argv[2] == "cat"
        entries = parse_prefs_file(transport.shell(cmd.line))
        assert sp.codec is not None and sp.codec.decode(entries[sp.prefs_key or ""]) == s


@PROPERTY
@given(hostile)
@example("\x01\r\ufffe<&\"'>\uffff")
@example("$(reboot); rm -rf /")
def test_prefs_records_read_back_a_hostile_label_as_data(s: str) -> None:
    """Whatever a timer's label holds (the clock keeps its timers as entries of its shared
    preferences, a record per id), the file PhoneWorld serves for the phone gives the records
    back as they are, and the command that reads it holds no value of theirs."""
    from tasklang.envs.device.phoneworld import PhoneWorldTransport
    from tasklang.envs.device.probes import read_world

    spec = next(sp for sp in probe_specs(ALL) if sp.prefs_records and sp.target == "timers")
    timers = [{"length": 600, "label": s, "state": "paused", "remaining": 240},
              {"length": 60, "label": "", "state": "reset", "remaining": 60}]  # fmt: skip
    world = WorldSnapshot(clock="2026-05-14T08:30:00")
    world.apps["clock"] = AppState(collections={"timers": timers})
    transport = PhoneWorldTransport(ALL, lambda: world, lambda: "<hierarchy/>")
    reading = read_world(ALL, lambda argv: transport.shell(shell_line(argv)))
    assert ("clock", "timers") not in reading.unread
    assert reading.snapshot.apps["clock"].collections["timers"] == timers
    cmd = spec.command()
    assert cmd is not None and round_trips(cmd)
    assert cmd.argv == ("run-as", spec.package, "cat", spec.probe.path)


@PROPERTY
@given(hostile, hostile)
@example("Low, Tide", "a")
@example("a\n      queueTitle=null, size=0", "b")
@example("null", "c")
def test_a_players_session_reads_back_a_hostile_title_whole_or_not_at_all(s: str, t: str) -> None:
    """The current song's title and artist (any text a file's tags hold) reach the phone's
    media session as data: read back, the title is the one the session holds, or nothing is
    read; never another title."""
    from tasklang.envs.device.phoneworld import PhoneWorldTransport
    from tasklang.envs.device.probes import setting_raw
    from tasklang.envs.device.services import SessionUnread

    compiled = library()["music.play_song"]
    spec = next(sp for sp in probe_specs(compiled) if sp.target == "now_playing")
    cmd = spec.command()
    assert cmd is not None and cmd.argv == ("dumpsys", "media_session") and round_trips(cmd)
    song = {"title": s, "artist": t, "album": "x"}
    world = WorldSnapshot(clock="2026-05-14T08:30:00")
    world.apps["music"] = AppState(collections={"songs": [song], "playlists": []},
                                   settings={"now_playing": s, "playing": True})  # fmt: skip
    transport = PhoneWorldTransport(compiled, lambda: world, lambda: "")
    try:
        raw = setting_raw(spec, transport.shell(cmd.line))
    except SessionUnread:
        return
    assert raw == s
    assert all(", " not in v and "\n" not in v for v in (s, t)) and s != "null"


@PROPERTY
@given(hostile)
def test_teardown_paths_restore_saved_values_as_data(s: str) -> None:
    """Saved outputs hold what the phone had (anything): restoring passes it back as data."""
    plan = build_plan(ALL, hostile_world("note"))
    saved = {c.save: f"{s}\n" for c in plan.setup if c.save and c.save.startswith("setting:")}
    # a service prints one of two sentences (anything else is an error: see below)
    on = len(s) % 2 == 1
    saved["setting:netpolicy:restrict-background"] = DATA_SAVER.output("1" if on else "0")
    specs = {f"rows:{p.app}.{p.target}": p for p in probe_specs(ALL)}
    for name in [c.save for c in plan.setup if c.save and c.save.startswith("rows:")]:
        spec = specs[name]
        nulls = [None] * (len(spec.columns) - 1)
        if spec.probe.source == "content":
            cells = [f"{spec.columns[0]}={s}", *[f"{c}=NULL" for c in spec.columns[1:]]]
            saved[name] = "Row: 0 " + ", ".join(cells) + "\n"
        else:
            header = ",".join(quote_sql(c) for c in spec.columns)
            saved[name] = header + "\n" + ",".join([quote_sql(s), *["NULL" for _ in nulls]]) + "\n"
    want = parse_setting(s + "\n")
    if want is not None and option_like(want):
        with pytest.raises(UnsafeValue, match="as an option"):
            teardown_commands(plan, saved)
        return
    restored = {"setting": 0, "content": 0, "sqlite": 0, "service": 0}
    for cmd in teardown_commands(plan, saved):
        assert round_trips(cmd)
        argv = list(cmd.argv)
        if argv[:2] == ["cmd", "netpolicy"]:
            assert argv[2:] == ["set", "restrict-background", "true" if on else "false"]
            restored["service"] += 1
        elif argv[:2] == ["settings", "put"]:
            assert argv[4] == want
            restored["setting"] += 1
        elif argv[:2] == ["settings", "delete"]:
            assert want is None
            restored["setting"] += 1
        elif argv[:2] == ["content", "insert"] and _plain_cell(s):
            assert argv[5].split(":", 2)[2] == s
            restored["content"] += 1
        elif argv[:1] == ["run-as"]:  # a table's rows come back from the copy beside it
            spec = next(p for p in specs.values()
                        if p.probe.path == argv[3] and argv[4] == restore_table_sql(p))  # fmt: skip
            assert _restores_whole(spec, s)
            restored["sqlite"] += 1
    assert restored["setting"] and restored["sqlite"] and restored["service"] == 1
    if not s.startswith(DATA_SAVER.label):  # what the phone printed was no status
        garbage = {**saved, "setting:netpolicy:restrict-background": s}
        with pytest.raises(OutputError, match="restrict-background` printed"):
            teardown_commands(plan, garbage)


def _restores_whole(spec: ProbeSpec, s: str) -> bool:
    """Whether a table's rows (``s`` in every text column, a blob and an id the model does
    not hold as well) are back, exactly, after setup's copy, a task's rows and the restore."""
    db = sqlite3.connect(":memory:")
    table = sql_name(spec.probe.table or "")
    cols = [*spec.columns, "own_blob"]
    db.execute(f"CREATE TABLE {table} (_rowid INTEGER PRIMARY KEY, "
               f"{', '.join(sql_name(c) for c in cols)})")  # fmt: skip
    own = [(7, *[s for _ in spec.columns], bytes(range(256))), (9, *[None for _ in cols])]
    db.executemany(f"INSERT INTO {table} VALUES ({', '.join('?' for _ in range(len(cols) + 1))})",
                   own)  # fmt: skip
    # the tables a field is read from in part (WeChat's ImgInfo2): the phone's rows there too
    through = {link.table: [link.fk, link.row_value] for f in spec.fields for link in f.inner_links}
    for name, link_cols in through.items():
        db.execute(f"CREATE TABLE {sql_name(name)} ({', '.join(map(sql_name, link_cols))})")
        db.execute(f"INSERT INTO {sql_name(name)} VALUES (?, ?)", (7, s))
    assert set(through) == set(read_through(spec))
    db.executescript(save_table_sql(spec))
    emptied = all(not db.execute(f"SELECT * FROM {sql_name(t)}").fetchall() for t in through)
    db.executescript(f"DELETE FROM {table}; INSERT INTO {table} (_rowid) VALUES (1);")
    db.executescript(save_table_sql(spec))  # a second setup keeps the first copy
    db.executescript(restore_table_sql(spec))
    back = db.execute(f"SELECT * FROM {table} ORDER BY _rowid").fetchall()
    linked = [db.execute(f"SELECT * FROM {sql_name(t)}").fetchall() for t in through]
    left = db.execute("SELECT name FROM sqlite_master WHERE name LIKE 'tasklang%'").fetchall()
    return back == own and emptied and linked == [[(7, s)]] * len(through) and not left


def _plain_cell(s: str) -> bool:
    """A value `content query` prints unambiguously (`NULL` and row or cell separators
    inside a value read back otherwise: the format cannot tell them apart)."""
    return s != "NULL" and "\nRow: " not in s and ", " not in s


def quote_sql(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def test_quote_refuses_nul_and_huge_values() -> None:
    with pytest.raises(UnsafeValue):
        quote("a\x00b")
    with pytest.raises(UnsafeValue):
        quote("x" * 200_000)
    assert shlex.split(shell_line(["echo", "x" * 10_000])) == ["echo", "x" * 10_000]


def test_paths_outside_the_probe_folder_are_refused() -> None:
    snap = hostile_world("note")
    for bad in ["/sdcard/Documents/Markor/../../../data/x", "/etc/passwd", "relative.md"]:
        snap.apps["markor"].collections["files"] = [
            {"path": bad, "name": "x", "content": "", "modified": "2026-05-14T08:30:00"}
        ]
        with pytest.raises(UnsafeValue):
            build_plan(ALL, snap)


# ------------------------------------------------------------------ plans of the library
def test_every_library_task_has_a_safe_plan() -> None:
    kinds: set[str] = set()
    for compiled in library().values():
        instance = sample_instance(compiled, 0)
        plan = build_plan(compiled, instance.initial)
        assert plan.probes, compiled.task.id
        for cmd in plan.commands():
            assert round_trips(cmd), (compiled.task.id, cmd.argv)
            kinds.add(cmd.argv[0] if cmd.kind == "shell" else "push")
    assert {"content", "settings", "run-as", "push", "ls", "uiautomator", "dumpsys"} <= kinds


def test_plan_saves_before_changing_and_teardown_restores() -> None:
    compiled = library()["settings.enable_dark_theme"]
    plan = build_plan(compiled, sample_instance(compiled, 0).initial)
    lines = [c.line for c in plan.setup]
    assert lines.index("settings get secure ui_night_mode") < lines.index(
        "settings put secure ui_night_mode 1"
    )
    assert lines.index("cmd netpolicy get restrict-background") < lines.index(
        "cmd netpolicy set restrict-background false"
    )  # Data Saver, through its service
    saved = {c.save: "2\n" for c in plan.setup if c.save}
    saved["setting:netpolicy:restrict-background"] = "Restrict background status: enabled\n"
    restored = [c.line for c in teardown_commands(plan, saved)]
    assert "settings put secure ui_night_mode 2" in restored
    assert "cmd netpolicy set restrict-background true" in restored
    saved["setting:secure:ui_night_mode"] = "null\n"
    assert "settings delete secure ui_night_mode" in [
        c.line for c in teardown_commands(plan, saved)
    ]


def test_plan_cli_text_and_json() -> None:
    runner = CliRunner()
    result = runner.invoke(
        app, ["device", "plan", str(TASKS / "expense.add_expenses.task"), "--seed", "3"]
    )
    assert result.exit_code == 0, result.output
    assert "run-as com.arduia.expense sqlite3" in result.output and "## teardown" in result.output
    result = runner.invoke(
        app, ["device", "plan", str(TASKS / "markor.create_note.task"), "--format", "json"]
    )
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["task"] == "markor.create_note" and doc["setup"] and doc["teardown"]
    for step in doc["setup"] + doc["probes"]:
        if step["kind"] == "shell":
            assert shlex.split(step["line"]) == step["argv"]
    result = runner.invoke(app, ["device", "plan", "no/such.task"])
    assert result.exit_code == 2 and "does not exist" in result.output


class Lines:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def shell(self, line: str, timeout: float = 20.0) -> str:
        self.lines.append(line)
        return ""

    def push(self, remote: str, data: bytes, timeout: float = 60.0) -> None:
        raise AssertionError("no push expected")


@PROPERTY
@given(hostile)
def test_typed_text_and_app_names_reach_the_phone_as_data(s: str) -> None:
    """What an agent types or opens is task-controlled too: one argument, whole."""
    from tasklang.envs.device.driver import ShellDriver

    phone = Lines()
    driver = ShellDriver(phone)
    driver.text(s)
    driver.app_start(s)
    typed, started = (shlex.split(line) for line in phone.lines)
    assert typed == ["input", "text", s.replace("%", "%%").replace(" ", "%s")]
    assert started[:3] == ["monkey", "-p", s]


XML_TEXT = st.text(
    st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\ufffe\uffff")
    | st.sampled_from("\t\n\r"),
    max_size=80,
)


@PROPERTY
@given(st.one_of(st.sampled_from([h for h in HOSTILE if "\x85" not in h]), XML_TEXT))
@example("%s%%s %")
def test_screen_paths_read_hostile_text_as_data(s: str) -> None:
    """A screen probe reads text the phone shows (a transfer's note) without ever sending it
    anywhere, and the text a probe types reaches the phone as one argument, whole."""
    from tasklang.envs.device.check import probe
    from tasklang.envs.device.livescreen import _TYPED
    from tasklang.envs.device.phoneworld import PhoneWorldTransport
    from tasklang.envs.device.screenread import ScreenReader
    from tasklang.envs.device.screens import screen_specs
    from tasklang.envs.phoneworld.episode import run_reference

    compiled = library()["wechat.transfer_money"]
    _, traj = run_reference(compiled, 0)
    world = traj.final.snapshot
    assert world is not None
    world = world.model_copy(deep=True)
    for t in world.apps["wechat"].collections["transfers"]:
        t["note"] = s
    transport = PhoneWorldTransport(compiled, lambda: world, lambda: "")
    reading = probe(compiled, transport, screens=True, sleep=lambda _: None)
    assert not reading.unread
    assert [t["note"] for t in reading.snapshot.apps["wechat"].collections["transfers"]] == [s]
    for line in transport.lines:
        argv = shlex.split(line)
        assert shell_line(argv) == line
        if argv[0] == "input":  # what the screens show is never sent back: points only
            assert argv[1] in ("tap", "swipe") and all(a.isdigit() for a in argv[2:]), argv
        elif argv[0] in ("am", "monkey"):
            assert "com.tencent.mm" in argv and len(argv) in (3, 6), argv
    spec = next(x for x in screen_specs(library()["mini.coffee_order_latte"]) if x.app == "coffee")
    typed = spec.probe.model_copy(update={"steps": [ir.ScreenStep(action="type", text=s)]})
    sent = Lines()
    ScreenReader(lambda argv: sent.shell(shell_line(argv)), lambda _: None).steps(
        type(spec)(spec.app, spec.package, typed, spec.kind, spec.reads)
    )
    argv = shlex.split(sent.lines[-1])
    assert argv[:2] == ["input", "text"] and len(argv) == 3
    assert _TYPED.sub(lambda m: " " if m[1] == "s" else "%", argv[2]) == s


def test_records_another_provider_keeps_are_noted_not_written() -> None:
    """A text sent as MMS is kept in the MMS sent box, which setup cannot write: the plan
    says so, and writes the SMS sent box with the other texts only."""
    compiled = library()["androidworld.markor_create_note_and_sms"]
    world = sample_instance(compiled, 0).initial
    texts = [
        {"to": "+15550100", "body": "as MMS", "timestamp": "2026-05-14T08:00:00", "mms": True},
        {"to": "+15550101", "body": "as SMS", "timestamp": "2026-05-14T08:05:00", "mms": False},
    ]
    world.apps.setdefault("messages", AppState()).collections["sent"] = texts
    plan = build_plan(compiled, world)
    assert any("messages.sent: 1 record(s) kept in content://mms/sent" in n for n in plan.notes)
    inserts = [
        c.argv
        for c in plan.setup
        if c.argv[:4] == ("content", "insert", "--uri", "content://sms/sent")
    ]
    assert inserts == [
        ("content", "insert", "--uri", "content://sms/sent", "--bind", "address:s:+15550101",
         "--bind", "body:s:as SMS", "--bind", "date:s:1778745900000", "--bind", "status:n:")
    ]  # fmt: skip
    # the box is read with the other texts, and checked before setup changes anything
    assert ("content", "query", "--uri", "content://mms/sent", "--projection", "_id:date:read") in [
        c.argv for c in plan.probes
    ]
    assert plan.setup[0].argv == ("content", "query", "--uri", "content://mms/sent",
                                  "--projection", "_id")  # fmt: skip
    assert plan.setup[0].meta["expect_rows"] == 1


def test_contact_data_rows_are_noted_and_standard_groups_written() -> None:
    compiled = library()["contacts.update_number"]
    plan = build_plan(compiled, sample_instance(compiled, 0).initial)
    groups = "content://com.android.contacts/groups"
    written = [
        c.argv[c.argv.index("--bind") + 1]
        for c in plan.setup
        if c.argv[:4] == ("content", "insert", "--uri", groups)
    ]
    assert {f"title:s:{t}" for t in ("Family", "Friends", "Work", "Classmates")} <= set(written)
    [note] = [n for n in plan.notes if "content://com.android.contacts/data," in n + ","]
    assert "`email`" in note and "`group`" in note and "enter them in the app" in note
    probes = [c.argv for c in plan.probes]
    data = ("content", "query", "--uri", "content://com.android.contacts/data")
    assert sum(a[:4] == data for a in probes) == 1  # one query for every field kept there


def test_a_groups_row_id_is_read_but_never_written() -> None:
    """The provider gives a group its `_id` (a deleted group's row keeps it): the probe reads
    it to find the group's members, setup and the tear-down leave it to the provider."""
    from tasklang.envs.device.setup import restore_rows

    compiled = library()["contacts.update_number"]
    spec = next(p for p in probe_specs(compiled) if p.target == "groups")
    assert spec.columns == ["title", "_id", "deleted"] and spec.provided == ["_id", "deleted"]
    groups = "content://com.android.contacts/groups"
    # a group deleted before setup stays deleted
    saved = "Row: 0 title=Choir, _id=12, deleted=0\nRow: 1 title=Old, _id=3, deleted=1\n"
    restored = restore_rows(spec, saved)
    assert [c.argv for c in restored] == [
        ("content", "delete", "--uri", groups),
        ("content", "insert", "--uri", groups, "--bind", "title:s:Choir"),
    ]
    world = sample_instance(compiled, 0).initial
    world.apps["contacts"].collections["groups"] = [{"title": "Choir", "members": ["Ann Lee"]}]
    plan = build_plan(compiled, world)
    inserts = [c.argv for c in plan.setup if c.argv[:4] == ("content", "insert", "--uri", groups)]
    assert ("content", "insert", "--uri", groups, "--bind", "title:s:Choir") in inserts
    assert not any("_id" in a for argv in inserts for a in argv)
    [note] = [n for n in plan.notes if n.startswith("contacts.groups:")]
    assert "`members`" in note and "enter them in the app" in note


# the first record's row as each app keeps it in its own database (its source's forms: Unix
# seconds or milliseconds, ids of a fixed list, one column per reminder) and the columns the
# app's table requires that no field holds
STORE_ROWS = [
    ("androidworld.expense_add_multiple_from_markor", "expense.expenses",
     {"category": "4", "created_date": str(1762300800 * 1000), "modified_date": "1762300800000",
      "amount": "4880"}),
    ("androidworld.simple_calendar_add_one_event", "calendar.events",
     {"start_ts": "1778837400", "end_ts": "1778838300", "repeat_interval": "0", "event_type": "1",
      "reminder_1_minutes": "-1", "reminder_2_minutes": "-1", "reminder_3_minutes": "-1",
      "time_zone": "UTC", "repetition_exceptions": "[]", "source": "imported-ics"}),
    ("calendar.add_event_reminder", "calendar.events",
     {"reminder_1_minutes": "5", "reminder_2_minutes": "-1", "repeat_interval": "604800"}),
    ("cross.camera_photo_favorite", "gallery.media",
     {"date_taken": "1778745600000", "last_modified": "1778745600000", "video_duration": "0",
      "media_store_id": "0", "type": "1"}),
    ("tasks.complete_due_today", "tasks.tasks",
     {"importance": "1", "created": "1778439600000", "modified": "1778439600000",
      "hideUntil": "0", "deleted": "0", "remoteId": "", "parent": "0"}),
    ("recipes.change_servings", "recipes.recipes", {"servings": "2", "imageName": ""}),
    ("androidworld.audio_recorder_record_audio_with_file_name", "audio_recorder.recordings",
     {"duration": "42000000", "created": "1778608920000", "added": "1778608920000",
      "data": "", "data_str": ""}),
]  # fmt: skip


@pytest.mark.parametrize(("task", "target", "want"), STORE_ROWS)
def test_each_apps_table_is_written_in_the_apps_own_forms(
    task: str, target: str, want: dict[str, str]
) -> None:
    compiled = library()[task]
    spec = next(s for s in probe_specs(compiled) if f"{s.app}.{s.target}" == target)
    plan = build_plan(compiled, sample_instance(compiled, 0).initial)
    table = sql_name(spec.probe.table or "")
    [write] = [c for c in plan.setup if c.argv[-1].startswith(f"DELETE FROM {table};")]
    db = sqlite3.connect(":memory:")
    cols = [*spec.columns, *table_fills(spec.probe)]
    db.execute(f"CREATE TABLE {table} ({', '.join(sql_name(c) for c in cols)})")
    db.executescript(write.argv[-1])
    first = dict(zip(cols, db.execute(f"SELECT * FROM {table}").fetchone(), strict=True))
    assert {c: first[c] for c in want} == want
    # read back through the same forms, the row is the record again
    record = sample_instance(compiled, 0).initial.apps[spec.app].collections[spec.target][0]
    for f in spec.fields:
        if f.codec.exact and all(c in first for c in f.parts):
            raw = ",".join(str(first[c]) for c in f.parts)
            assert f.codec.decode(raw) == record[f.field], f.field


@PROPERTY
@given(hostile)
@example("a'b\"c $(reboot) `id`; rm -rf /")
@example("new\nline")
def test_a_photos_digest_is_read_through_a_hostile_file_name_as_data(s: str) -> None:
    """A photo's path reaches `md5sum` as one argument, whatever its name holds; the image
    sent from it is named by it, or (a name `md5sum` cannot print on one line) left unread,
    never read as another."""
    from tasklang.envs.device.check import probe
    from tasklang.envs.device.phoneworld import PhoneWorldTransport
    from tasklang.envs.device.probes import digest_command

    compiled = library()["cross.gallery_share_photo_wechat"]
    name = "p" + s.replace("/", "_") + ".jpg"
    path = f"/sdcard/Pictures/Family/{name}"
    assert round_trips(digest_command(path))
    world = WorldSnapshot(clock="2026-05-14T19:05:00")
    photo = {"path": path, "name": name, "folder": "Family", "kind": "image",
             "taken": "2026-05-10T18:22:04", "size": 9}  # fmt: skip
    world.apps["gallery"] = AppState(collections={"media": [photo], "albums": []})
    sent = {"chat": "wxid_a", "outgoing": True, "kind": "image", "body": name,
            "sent_at": "2026-05-14T19:06:00"}  # fmt: skip
    world.apps["wechat"] = AppState(collections={"messages": [sent]})
    transport = PhoneWorldTransport(compiled, lambda: world, lambda: "<hierarchy/>")
    [read] = probe(compiled, transport).snapshot.apps["wechat"].collections["messages"]
    assert read.get("body", name) == name
    if len(name.splitlines()) == 1 and name.strip() == name:
        assert read["body"] == name
    assert any(line.startswith("md5sum ") for line in transport.lines)


def test_an_event_type_of_the_users_own_stops_the_plan() -> None:
    """Simple Calendar keeps an event's type as the id of its type's row; setup knows only
    the built-in one's, so an event of another type is refused with the reason, not written
    as text where an id belongs."""
    compiled = library()["androidworld.simple_calendar_add_one_event"]
    initial = sample_instance(compiled, 0).initial
    assert initial is not None
    world = initial.model_copy(deep=True)
    event = {"title": "Gym", "start": "2026-05-14T08:00:00", "end": "2026-05-14T09:00:00",
             "event_type": "Workouts"}  # fmt: skip
    world.apps.setdefault("calendar", AppState()).collections["events"] = [event]
    with pytest.raises(UnsafeValue, match=r"calendar\.events: 'Workouts' is no built-in value"):
        build_plan(compiled, world)
