"""Setup plans: a task instance's initial world (what `given` built) as device commands, and
the tear-down that puts back what setup changed.

Every state a probe reads is written through the same source: provider rows with `content
insert`, settings with `settings put`, SQLite rows through `run-as PKG sqlite3`, files with
`adb push`. Before changing anything the plan saves what was there (a query, a `settings
get`, a folder moved aside); the tear-down restores it from those saved outputs. State no
probe reads cannot be written, and the plan says so.
"""

from __future__ import annotations

import datetime as dt
import json
import posixpath
from dataclasses import dataclass, field, replace
from typing import Any

from tasklang import ir
from tasklang.envs.device.codec import DecodeError, table_fills
from tasklang.envs.device.probes import (
    DUMP_PATH,
    ProbeSpec,
    carried_specs,
    defaults_read,
    encode_values,
    files_root,
    ids_command,
    listing_specs,
    needs_start,
    own_folder,
    probe_specs,
    start_specs,
)
from tasklang.envs.device.services import ServiceSetting, service_setting, session_value
from tasklang.envs.device.shell import Command, UnsafeValue, option_like, sql_literal, sql_name
from tasklang.verifiers.snapshot import WorldSnapshot

SAVE_DIR = "/data/local/tmp/tasklang-saved"  # outside every folder a probe or an app reads


@dataclass
class Plan:
    setup: list[Command] = field(default_factory=list)
    probes: list[Command] = field(default_factory=list)
    teardown: list[Command] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    folders: set[str] = field(default_factory=set)  # created by setup so far
    later: list[Command] = field(default_factory=list)  # tear-down steps that run last

    def mkdir(self, path: str, why: str) -> None:
        if path not in self.folders:
            self.folders.add(path)
            self.setup.append(Command(("mkdir", "-p", path), why))

    def commands(self) -> list[Command]:
        return [*self.setup, *self.probes, *self.teardown]

    def to_json(self) -> dict[str, Any]:
        return {
            "setup": [c.to_json() for c in self.setup],
            "probes": [c.to_json() for c in self.probes],
            "teardown": [c.to_json() for c in self.teardown],
            "notes": list(self.notes),
        }


def build_plan(compiled: ir.CompiledTask, initial: WorldSnapshot) -> Plan:
    """The setup, probe and tear-down commands for one task instance."""
    from tasklang.envs.device.probes import probe_commands

    plan = Plan(probes=probe_commands(compiled))
    specs = probe_specs(compiled)
    prefs: dict[tuple[str, str], list[str]] = {}  # (app, file) -> settings to set by hand
    for spec in specs:
        state = initial.apps.get(spec.app)
        if state is None:
            continue
        if spec.prefs_key is not None:
            names = prefs.setdefault((spec.app, spec.probe.path or ""), [])
            value = state.settings.get(spec.target, spec.default)
            if value != spec.default:
                names.append(f"{spec.target} = {value!r}")
        elif spec.kind == "setting":
            if spec.target in state.settings:
                _setting(plan, spec, state.settings[spec.target])
        elif spec.prefs_records:
            _prefs_records_note(plan, spec, state.collections.get(spec.target))
        elif spec.probe.source == "service":
            continue  # read only: see `_unwritable`
        elif spec.target in state.collections:
            _collection(plan, spec, state.collections[spec.target])
    _prefs_notes(plan, prefs)
    _unwritable(plan, compiled, initial, specs)
    _unrecorded_folders(plan, compiled, initial, specs)
    _screen_notes(plan, compiled)
    _clock_and_foreground(plan, compiled, initial)
    # what setup checks before it changes anything: the phone may be one it cannot set up
    plan.setup.sort(key=lambda c: "expect_rows" not in c.meta)
    plan.teardown.reverse()
    plan.teardown += sorted(plan.later, key=_last)
    return plan


def _unwritable(
    plan: Plan, compiled: ir.CompiledTask, initial: WorldSnapshot, specs: list[ProbeSpec]
) -> None:
    written = {s.key for s in specs if s.probe.source != "service"}
    for name, state in sorted(initial.apps.items()):
        for coll, records in sorted(state.collections.items()):
            if records and (name, coll) not in written:
                plan.notes.append(
                    f"{name}.{coll}: {len(records)} record(s) no probe can write; "
                    "prepare them on the phone by hand"
                )
    hint = compiled.task.device.get("hint")
    if isinstance(hint, str):
        plan.notes.append(f"task hint: {hint}")


def _unrecorded_folders(
    plan: Plan, compiled: ir.CompiledTask, initial: WorldSnapshot, specs: list[ProbeSpec]
) -> None:
    """A note for each folder under shared storage that the task's files lie in, which is
    no standard folder and which no folder record names (``listing_specs``): setup makes it
    and a phone keeps it when its last file leaves, where PhoneWorld lists it only while a
    file is in it and holds no record of it, so a guard on the folders can read the two
    differently (the folder deleted in the Files app, say)."""
    from tasklang.envs.phoneworld.apps.files import STANDARD_PATHS

    for listing in listing_specs(compiled, specs):
        root = files_root(listing.probe.path or "").rstrip("/")
        state = initial.apps.get(listing.app)
        held = state.collections.get(listing.target, []) if state else []
        named = {posixpath.normpath(str(r.get("path"))) for r in held if r.get("path")}
        implied: dict[str, str] = {}  # folder -> the collection whose file lies in it
        for spec in specs:
            if spec.app != listing.app or spec.probe.source != "files" or spec is listing:
                continue
            for r in state.collections.get(spec.target, []) if state else []:
                folder = posixpath.dirname(posixpath.normpath(str(r.get("path") or "/")))
                while folder.startswith(root + "/"):
                    implied.setdefault(folder, f"{spec.app}.{spec.target}")
                    folder = posixpath.dirname(folder)
        for folder, coll in sorted(implied.items()):
            if folder not in named and folder not in STANDARD_PATHS:
                plan.notes.append(
                    f"{coll}: no {listing.app}.{listing.target} record names {folder}, which "
                    "setup makes for a file: a phone keeps it when its files leave, PhoneWorld "
                    "then lists it no more, so a guard on the folders may read the two "
                    "differently; give the folder a record"
                )


def _screen_notes(plan: Plan, compiled: ir.CompiledTask) -> None:
    """What the `screen` probes read after the episode, and how they get there (their taps
    and drags are found on the screens, so they are no fixed commands)."""
    from tasklang.envs.device.screens import screen_specs

    for spec in screen_specs(compiled):
        plan.notes.append(f"{spec.app}.{spec.target}: read from the screen after the episode: "
                          f"{spec.describe()}")  # fmt: skip
    if not needs_start(compiled):
        return
    if start_specs(compiled):
        plan.notes.append(
            "the screens read after the episode are read before it too (after setup), then the "
            "apps are stopped and the phone put back where setup leaves it"
        )
    for listing in listing_specs(compiled, probe_specs(compiled)):
        plan.notes.append(
            f"{listing.app}.{listing.target}: the folders are listed before the episode too (after "
            "setup): the same ones after it prove the records unchanged"
        )
    for (app, name), default in sorted(defaults_read(compiled).items()):
        plan.notes.append(
            f"{app}.{name}: shown on no page; read as {json.dumps(default)} in every record "
            "where no step took a way to change it (its `changes` line) and the reading "
            "before the episode listed no record"
        )
    for carried in carried_specs(compiled, probe_specs(compiled)):
        plan.notes.append(
            f"{carried.app}.{carried.target}: read before the episode too (after setup): where the "
            "reading after it cannot list them, that reading stands for it if no step took a "
            "way to add, remove or change them (their `adds`, `removes` and `changes` lines)"
        )


# ------------------------------------------------------------------ settings
def _prefs_notes(plan: Plan, prefs: dict[tuple[str, str], list[str]]) -> None:
    """Settings kept in an app's shared preferences are not written (the app rewrites its
    file as it pleases, and holds it open while it runs): the plan says which must be set
    in the app, and that the others are read as the phone has them."""
    for (app, path), names in sorted(prefs.items()):
        where = f"{app}: settings in the app's shared preferences ({posixpath.basename(path)})"
        if names:
            plan.notes.append(
                f"{where} are not written by setup; set {', '.join(names)} in the app"
            )
        else:
            plan.notes.append(
                f"{where} are read as the phone has them; they start at the app's defaults"
            )


def _prefs_records_note(plan: Plan, spec: ProbeSpec, records: list[Any] | None) -> None:
    """Records kept in an app's shared preferences are not written either (the app holds
    the file open and rewrites it from memory): the plan says what to prepare in the app."""
    where = (f"{spec.app}.{spec.target}: records in the app's shared preferences "
             f"({posixpath.basename(spec.probe.path or '')}) are not written by setup")  # fmt: skip
    if records:
        plan.notes.append(f"{where}; prepare the {len(records)} record(s) the task starts "
                          "with in the app")  # fmt: skip
    elif records is not None:
        plan.notes.append(f"{where}; the task starts with none: remove any in the app")


def _row_list_note(plan: Plan, spec: ProbeSpec, value: Any) -> None:
    """A list setting kept as rows of an app's database (a player's queue) is not written:
    the app saves it from memory on every change, so rows written under it would be lost, and
    they need columns the model does not hold. The plan says what to prepare in the app."""
    where = (f"{spec.app}.{spec.target}: kept as the rows of `{spec.probe.table}` in "
             f"{posixpath.basename(spec.probe.path or '')}, which setup does not write")  # fmt: skip
    items = list(value or [])
    if items:
        shown = ", ".join(repr(v) for v in items[:5]) + (", ..." if len(items) > 5 else "")
        plan.notes.append(f"{where}; make it {len(items)} item(s) in the app: {shown}")
    else:
        plan.notes.append(f"{where}; the task starts with it empty: clear it in the app")


def _setting(plan: Plan, spec: ProbeSpec, value: Any) -> None:
    p = spec.probe
    ns, key = p.namespace or "system", p.key or ""
    assert spec.codec is not None
    raw = spec.codec.encode(value)
    save = f"setting:{ns}:{key}"
    if p.source == "sqlite":  # a list the app keeps as rows and rewrites from memory
        _row_list_note(plan, spec, value)
        return
    if session_value(ns, key) is not None:  # the player's own state: no command writes it
        if value != spec.default:
            plan.notes.append(
                f"{spec.app}.{spec.target}: {value!r} is the player's media session state, "
                "which no command can write; prepare it on the phone by hand"
            )
        return
    service = service_setting(ns, key)
    if service is not None:
        _service_setting(plan, spec, service, raw, save)
        return
    if raw is not None and option_like(raw):
        raise UnsafeValue(
            f"{spec.app}.{spec.target}: `settings put` would read {raw[:40]!r} as an option"
        )
    plan.setup.append(Command(("settings", "get", ns, key), f"save {key}", save=save))
    if raw is None:
        plan.setup.append(
            Command(("settings", "delete", ns, key), f"unset {spec.app}.{spec.target}")
        )
    else:
        plan.setup.append(
            Command(("settings", "put", ns, key, raw), f"set {spec.app}.{spec.target}")
        )
    plan.teardown.append(
        Command(("settings", "put", ns, key, f"<saved {save}>"), f"restore {key}",
                meta={"restore": save, "spec": spec})
    )  # fmt: skip


def _service_setting(
    plan: Plan, spec: ProbeSpec, service: ServiceSetting, raw: str | None, save: str
) -> None:
    """A setting a system service keeps, set through the service's command (a boolean: an
    unset one is off)."""
    what = f"{spec.app}.{spec.target}"
    plan.setup.append(Command(service.get(), f"save {service.key}", save=save))
    try:
        plan.setup.append(Command(service.set(raw or "0"), f"set {what}"))
    except ValueError as exc:
        raise UnsafeValue(f"{what}: {exc}") from None
    plan.teardown.append(
        Command(("cmd", service.service, "set", service.key, f"<saved {save}>"),
                f"restore {service.key}", meta={"restore": save, "spec": spec})
    )  # fmt: skip


def restore_setting_key(save: str, saved: str) -> Command:
    """The tear-down step for a setting saved as ``setting:NS:KEY``, from what `settings
    get` (or the service's own command) printed before setup."""
    from tasklang.envs.device.parse import parse_setting

    _, ns, key = save.split(":", 2)
    service = service_setting(ns, key)
    if service is not None:
        return Command(service.set(service.parse(saved)), f"restore {key}")
    raw = parse_setting(saved)
    if raw is not None and option_like(raw):
        raise UnsafeValue(f"`settings put` would read the saved {raw[:40]!r} as an option")
    if raw is None:
        return Command(("settings", "delete", ns, key), f"restore {key} (unset)")
    return Command(("settings", "put", ns, key, raw), f"restore {key}")


# ------------------------------------------------------------------ records
def _collection(plan: Plan, spec: ProbeSpec, records: list[dict[str, Any]]) -> None:
    src = spec.probe.source
    if src == "files":
        _files(plan, spec, records)
        return
    save = f"rows:{spec.app}.{spec.target}"
    if src == "sqlite":  # the rows whole, every column, in a table beside them
        plan.setup.append(Command(sqlite_argv(spec, save_table_sql(spec)),
                                  f"save {spec.app}.{spec.target}", save=save))  # fmt: skip
    else:
        probe = spec.command()
        assert probe is not None
        plan.setup.append(Command(probe.argv, f"save {spec.app}.{spec.target}", save=save))
    opaque = [f"`{f.column}` ({f.field})" for f in spec.fields if not f.codec.exact]
    if opaque:
        plan.notes.append(
            f"{spec.app}.{spec.target}: column(s) {', '.join(opaque)} hold something other than "
            "the field; setup leaves them to the app's defaults"
        )
    linked = [f"`{f.field}` (table `{f.link.table}`)" for f in spec.links if f.link is not None]
    if linked and any(r.get(f.field) for f in spec.links for r in records):
        plan.notes.append(
            f"{spec.app}.{spec.target}: {', '.join(linked)} kept in rows the app writes with "
            "columns the model does not hold; setup does not write them: prepare them in the app"
        )
    inner = [f for f in spec.fields if f.inner_links]
    for f in inner:
        tables = ", ".join(f"`{link.table}`" for link in f.inner_links)
        plan.notes.append(
            f"{spec.app}.{spec.target}: `{f.field}` is read in part from rows of {tables}: setup "
            "saves and empties them with the table (the tear-down puts them back) and writes "
            "none there, so a record setup writes keeps the field only in its own columns; a "
            "file's digest kept there is named by `md5sum` of each file the records read name"
        )
    held = [f"`{f.field}` (set `{f.prefs_set.key}` of {f.prefs_set.file})"
            for f in spec.prefs_sets if f.prefs_set is not None]  # fmt: skip
    if held and any(r.get(f.field) for f in spec.prefs_sets for r in records):
        plan.notes.append(
            f"{spec.app}.{spec.target}: {', '.join(held)} kept in the app's shared preferences, "
            "which setup does not write: set them in the app"
        )
    data = [f for f in spec.data_rows if any(f.codec.encode(r.get(f.field)) for r in records)]
    if data:
        uris = ", ".join(sorted({f.data_row.uri for f in data if f.data_row is not None}))
        plan.notes.append(
            f"{spec.app}.{spec.target}: {', '.join(f'`{f.field}`' for f in data)} kept in rows "
            f"of {uris}, which setup does not write: enter them in the app"
        )
    kept = [f for f in spec.elsewhere if f.elsewhere is not None and f.codec.exact]
    there = [r for r in records if any(r.get(f.field) for f in kept)]
    if there:
        uris = ", ".join(sorted({f.elsewhere.uri for f in kept if f.elsewhere is not None}))
        plan.notes.append(
            f"{spec.app}.{spec.target}: {len(there)} record(s) kept in {uris}, which setup "
            "does not write: prepare them on the phone by hand"
        )
    for f in kept:
        if f.elsewhere is not None and f.elsewhere.read:
            _box(plan, spec, f.elsewhere.uri, sum(1 for r in records if r.get(f.field)))
    here = [r for r in records if not any(r.get(f.field) for f in kept)]
    rows = [writable_values(spec, r) for r in here] + spec.named_rows()
    plan.setup.extend(replace_rows(spec, rows))
    _row_files(plan, spec, here)
    plan.teardown.append(
        Command(("<replace rows>", f"<saved {save}>"), f"restore {spec.app}.{spec.target}",
                meta={"restore": save, "spec": spec})
    )  # fmt: skip


def _box(plan: Plan, spec: ProbeSpec, uri: str, given: int) -> None:
    """An MMS box a probe reads, which setup cannot write or put back (a message is rows of
    three tables, its attachments files): setup checks that it holds as many messages as
    the task gives (none, unless prepared by hand), and stops if not (``runner.SetupRefused``);
    the tear-down deletes the messages it did not hold then (those sent in the episode)."""
    what = f"{spec.app}.{spec.target}"
    save = f"box:{uri}"
    plan.notes.append(
        f"{what}: the numbers of each message in {uri} are read from "
        "content://mms/<_id>/addr, by the ids the box lists"
    )
    check = ids_command(uri, f"check that {uri} holds {given} message(s) of {what}")
    plan.setup.append(replace(check, save=save, meta={"expect_rows": given}))
    plan.teardown.append(Command(
        ("<delete rows added>", uri, f"<saved {save}>"),
        f"delete the messages added to {uri}", meta={"drop_added": uri, "restore": save},
    ))  # fmt: skip


def writable_values(spec: ProbeSpec, record: dict[str, Any]) -> dict[str, str | None]:
    """The columns setup writes: those whose codec says what the phone stores. A value the
    phone's storage cannot hold (an event type of the user's own, whose row setup does not
    write) stops the plan."""
    try:
        raw = encode_values(spec, record)
    except DecodeError as exc:
        raise UnsafeValue(f"{spec.app}.{spec.target}: {exc}; setup cannot write it") from None
    exact = [c for f in spec.fields if f.codec.exact for c in f.parts]
    return {c: raw[c] for c in raw if c in exact}


def replace_rows(spec: ProbeSpec, rows: list[dict[str, str | None]]) -> list[Command]:
    """Commands that leave exactly ``rows`` in the probe's provider or table."""
    p = spec.probe
    what = f"{spec.app}.{spec.target}"
    if p.source == "content":
        out = [Command(("content", "delete", "--uri", p.uri or ""), f"clear {what}")]
        for row in rows:
            binds: list[str] = []
            for col, raw in row.items():
                binds += ["--bind", f"{col}:n:" if raw is None else f"{col}:s:{raw}"]
            out.append(
                Command(("content", "insert", "--uri", p.uri or "", *binds), f"add to {what}")
            )
        return out
    table = sql_name(p.table or "")
    sql = [f"DELETE FROM {table};"]
    fills = table_fills(p)
    for row in rows:
        row = {**row, **{c: row.get(v[1:]) if v.startswith("=") else v
                         for c, v in fills.items() if c not in row}}  # fmt: skip
        cols = ", ".join(sql_name(c) for c in row)
        vals = ", ".join(sql_literal(v) for v in row.values())
        sql.append(f"INSERT INTO {table} ({cols}) VALUES ({vals});")
    return [Command(sqlite_argv(spec, "\n".join(sql)), f"write {what}")]


def sqlite_argv(spec: ProbeSpec, sql: str) -> tuple[str, ...]:
    """`sqlite3` on the probe's database, as its app (SQL passed whole, as one argument)."""
    return ("run-as", spec.package, "sqlite3", spec.probe.path or "", sql)


def saved_table(table: str) -> str:
    """The table, in the same database, that keeps a table's rows from setup to tear-down."""
    return sql_name(f"tasklang_saved_{table}")


def read_through(spec: ProbeSpec) -> list[str]:
    """The tables a probe's fields are read from in part (a WeChat image's `ImgInfo2`: see
    ``FieldMap.inner_links``), besides its own."""
    links = [link.table for f in spec.fields for link in f.inner_links]
    return [t for t in dict.fromkeys(links) if t != spec.probe.table]


def save_table_sql(spec: ProbeSpec) -> str:
    """Copy a table's rows whole (every column the app keeps, blobs and ids too) into
    :func:`saved_table`. A copy left by a run whose tear-down never came is the phone's own
    rows: it is kept, not overwritten with what that run wrote. The tables a field is read
    from in part are copied too, and emptied: a row the phone kept there could name a row
    setup writes (by an id the table gives again)."""
    out = []
    for table in [spec.probe.table or "", *read_through(spec)]:
        name = sql_name(table)
        out.append(f"CREATE TABLE IF NOT EXISTS {saved_table(table)} AS SELECT * FROM {name};")
    out += [f"DELETE FROM {sql_name(t)};" for t in read_through(spec)]
    return "\n".join(out)


def restore_table_sql(spec: ProbeSpec) -> str:
    """Put back the rows :func:`save_table_sql` kept, and drop the copies."""
    out = []
    for table in [spec.probe.table or "", *read_through(spec)]:
        name, saved = sql_name(table), saved_table(table)
        out.append(f"DELETE FROM {name};\nINSERT INTO {name} SELECT * FROM {saved};\n"
                   f"DROP TABLE {saved};")  # fmt: skip
    return "\n".join(out)


def restore_rows(spec: ProbeSpec, saved: str) -> list[Command]:
    """The tear-down steps for a provider or table, from the rows saved before setup (a
    table's rows are in the copy setup made beside it)."""
    from tasklang.envs.device.probes import raw_rows

    if spec.probe.source == "sqlite":
        what = f"{spec.app}.{spec.target}"
        return [Command(sqlite_argv(spec, restore_table_sql(spec)), f"restore {what}")]

    def no_files(argv: tuple[str, ...]) -> str:
        raise UnsafeValue("a provider or table probe reads no files")

    rows = raw_rows(spec, saved, no_files)
    kept = [c for c in spec.columns if c not in spec.provided]
    return replace_rows(spec, [{c: r.get(c) for c in kept} for r in rows])


# ------------------------------------------------------------------ files
def _row_files(plan: Plan, spec: ProbeSpec, records: list[dict[str, Any]]) -> None:
    """The files a table's rows name (a `file` field): an app that lists its rows only while
    their files are there (Audio Recorder's records) gets them too, in its own folder on
    shared storage (``/sdcard/Android/data/PACKAGE``), which is moved aside and rebuilt.
    Files a row names anywhere else belong to other apps as well: setup does not write them,
    and the plan says so."""
    field = next((f.field for f in spec.fields if f.type_name == "file"), None)
    if spec.probe.source != "sqlite" or field is None:
        return
    own = f"/sdcard/Android/data/{spec.package}"
    named = [r for r in records if isinstance(r.get(field), str)]
    mine = [r for r in named if r[field].startswith(own + "/")]
    if mine:
        root = posixpath.commonpath([posixpath.dirname(posixpath.normpath(r[field])) for r in mine])
        root = root if root.startswith(own + "/") else own  # the folder that holds them all
        # the folders above it the phone may not have yet (an app never opened): made, and
        # removed again by the tear-down if setup made them
        _folder(plan, posixpath.dirname(own), posixpath.dirname(root), aside=False)
        _files(plan, spec, mine, root=root, field=field)
    if len(mine) < len(named):
        plan.notes.append(
            f"{spec.app}.{spec.target}: {len(named) - len(mine)} row(s) name a file outside "
            f"{own}, which setup does not write: the rows are written, the files are the phone's"
        )


def _files(
    plan: Plan,
    spec: ProbeSpec,
    records: list[dict[str, Any]],
    root: str | None = None,
    field: str = "path",
) -> None:
    """An app's own folder is moved aside and rebuilt; under shared storage (`/sdcard`,
    `/sdcard/DCIM/Camera`) files the phone already has are moved aside one by one, and
    folders setup creates are removed again if they were not there before. ``root`` is the
    folder the files lie in (a files probe's own by default), ``field`` what holds a path."""
    root = root or files_root(spec.probe.path or "")
    aside = own_folder(root)
    if aside and not any(c.meta.get("aside") == root for c in plan.setup):
        kept = _keep(plan, root)
        plan.setup += [
            Command(("rm", "-rf", kept), f"drop an old copy of {root}", tolerate=True),
            Command(("mv", root, kept), f"move {root} aside", tolerate=True, meta={"aside": root}),
        ]
        plan.mkdir(root, f"recreate {root}")
        plan.teardown += [
            Command(("mv", kept, root), f"put {root} back", tolerate=True),
            Command(("rm", "-rf", root), f"remove the task's {root}"),
        ]
    folders = spec.probe.path is not None and spec.probe.path.endswith("/")
    for r in records:
        path = _inside(root, r.get(field), spec)
        if folders:
            _folder(plan, root, path, aside)
            continue
        _folder(plan, root, posixpath.dirname(path), aside)
        if not aside:
            kept = _keep(plan, path)
            plan.setup.append(
                Command(("mv", path, kept), "move an existing file aside", tolerate=True)
            )
            plan.teardown += [
                Command(("mv", kept, path), "put the phone's file back", tolerate=True),
                Command(("rm", "-f", path), "remove a pushed file"),
            ]
        _write_file(plan, path, r, spec)
        stamp = _touch_time(r.get(_field_for(spec, "modified")))
        if stamp:
            plan.setup.append(Command(("touch", "-d", stamp, path), "set the file's time"))


def _field_for(spec: ProbeSpec, attr: str) -> str:
    """The record field a files probe reads as ``attr`` (a capture's `taken` is the file's
    `modified`); the attribute's own name when no field is mapped to it."""
    return next((f for f, col in spec.probe.columns.items() if col == attr), attr)


def _keep(plan: Plan, path: str) -> str:
    """Where setup keeps the phone's own copy of ``path`` until the tear-down."""
    kept = SAVE_DIR + path
    if not plan.folders & {SAVE_DIR}:
        plan.folders.add(SAVE_DIR)
        plan.later.append(Command(("rm", "-rf", SAVE_DIR), "drop the kept copies", tolerate=True))
    plan.mkdir(posixpath.dirname(kept), "make room for a kept copy")
    return kept


def _folder(plan: Plan, root: str, path: str, aside: bool) -> None:
    """Create ``path`` and the folders above it up to ``root``; under shared storage,
    note which ones existed, so the tear-down removes only the new ones."""
    if aside or path in plan.folders:
        plan.mkdir(path, "create a folder")
        return
    chain = []
    while path != root and path.startswith(root + "/") and path not in plan.folders:
        chain.append(path)
        path = posixpath.dirname(path)
    for folder in reversed(chain):
        save = f"dir:{folder}"
        plan.setup.append(Command(("ls", "-d", folder), "see whether the folder exists",
                                  save=save, tolerate=True))  # fmt: skip
        plan.mkdir(folder, "create a folder")
        plan.later.append(
            Command(("rmdir", folder), "remove a folder setup created", tolerate=True,
                    meta={"restore": save, "rmdir": True})
        )  # fmt: skip


def _last(cmd: Command) -> tuple[bool, int]:
    """Tear-down steps that run last: folders deepest first, the kept copies at the end."""
    return cmd.argv[-1] == SAVE_DIR, -cmd.argv[-1].count("/")


def _inside(root: str, path: Any, spec: ProbeSpec) -> str:
    """A record's path, which must lie below the probe's folder (no `..` escapes)."""
    if not isinstance(path, str) or not path:
        raise UnsafeValue(f"{spec.app}.{spec.target}: a record has no path")
    norm = posixpath.normpath(path)
    if not norm.startswith(root.rstrip("/") + "/") or norm != path.rstrip("/"):
        raise UnsafeValue(f"{spec.app}.{spec.target}: path {path[:80]!r} is not inside {root}")
    return norm


def _write_file(plan: Plan, path: str, record: dict[str, Any], spec: ProbeSpec) -> None:
    """Push a text file's content; give a binary file its size with `truncate -s` (sparse:
    nothing is sent). A size the content contradicts is noted: the phone shows the content's."""
    content, size = record.get(_field_for(spec, "content")), record.get(_field_for(spec, "size"))
    sized = isinstance(size, int) and not isinstance(size, bool) and size >= 0
    if isinstance(content, str) and (content or not sized):
        data = content.encode("utf-8", "surrogatepass")
        plan.setup.append(Command((path,), "write a file", kind="push", data=data))
        if sized and size != len(data):
            plan.notes.append(
                f"{spec.app}.{spec.target}: `{path}` holds {len(data)} bytes of text, "
                f"not the {size} its record says"
            )
        return
    plan.setup.append(
        Command(("truncate", "-s", str(size if sized else 0), path), "make a file of its size")
    )


def _touch_time(value: Any) -> str | None:
    try:
        when = dt.datetime.fromisoformat(str(value))
    except ValueError:
        return None
    return when.strftime("%Y-%m-%dT%H:%M:%S")


# ------------------------------------------------------------------ clock and foreground
def foreground_commands(compiled: ir.CompiledTask) -> list[Command]:
    """The commands that open the task's foreground app (`given foreground`), if any."""
    fg = compiled.task.given.foreground
    app = compiled.apps.get(fg.app) if fg is not None else None
    if fg is None or app is None or not app.package:
        return []
    if fg.activity:
        act = fg.activity if "/" in fg.activity else f"{app.package}/{fg.activity}"
        return [Command(("am", "start", "-W", "-n", act), f"open {fg.app}")]
    return [
        Command(("monkey", "-p", app.package, "-c", "android.intent.category.LAUNCHER", "1"),
                f"open {fg.app}")
    ]  # fmt: skip


def _clock_and_foreground(plan: Plan, compiled: ir.CompiledTask, initial: WorldSnapshot) -> None:
    if compiled.task.given.clock is not None and initial.clock:
        when = dt.datetime.fromisoformat(initial.clock)
        plan.setup += [
            Command(("settings", "get", "global", "auto_time"), "save auto_time", save="setting:global:auto_time"),
            Command(("settings", "put", "global", "auto_time", "0"), "stop network time"),
            Command(("su", "0", "toybox", "date", when.strftime("%m%d%H%M%Y.%S")), "set the clock (root)"),
        ]  # fmt: skip
        plan.teardown.append(
            Command(("settings", "put", "global", "auto_time", "<saved setting:global:auto_time>"),
                    "restore auto_time", meta={"restore": "setting:global:auto_time", "spec": None})
        )  # fmt: skip
    plan.setup += foreground_commands(compiled)
    plan.teardown.append(Command(("input", "keyevent", "KEYCODE_HOME"), "go home"))
    plan.teardown.append(Command(("rm", "-f", DUMP_PATH), "drop the UI dump"))
