"""Probe plans: the app models' `probe` declarations as device commands, and the world
snapshot their output makes (for the same verifier PhoneWorld's snapshots go to)."""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from tasklang import ir
from tasklang.envs.device import parse
from tasklang.envs.device.codec import OPAQUE, Codec, DecodeError, column_codec, setting_codec
from tasklang.envs.device.shell import Command, UnsafeValue, sql_name
from tasklang.verifiers.probes import Coverage
from tasklang.verifiers.snapshot import AppState, Foreground, WorldSnapshot

DUMP_PATH = "/data/local/tmp/tasklang-window.xml"
DUMP = Command(("uiautomator", "dump", DUMP_PATH), "dump the UI hierarchy")
READ_DUMP = Command(("cat", DUMP_PATH), "read the UI hierarchy")
FOREGROUND = Command(("dumpsys", "window"), "read the focused app and activity")
CLOCK = Command(("date", "+%Y-%m-%dT%H:%M:%S"), "read the phone's clock")


@dataclass(frozen=True)
class FieldMap:
    field: str
    column: str
    codec: Codec


@dataclass(frozen=True)
class ProbeSpec:
    """One probe of one app, resolved against the app model."""

    app: str
    package: str
    probe: ir.Probe
    kind: Literal["collection", "setting"]
    fields: tuple[FieldMap, ...] = ()
    codec: Codec | None = None

    @property
    def target(self) -> str:
        return self.probe.target

    @property
    def rows_exact(self) -> bool:
        """Whether the rows read are the records: not so for folders, since a phone lists
        every folder, also those that only exist to hold files, which a model's folder
        records need not name."""
        return not (self.probe.source == "files" and (self.probe.path or "").endswith("/"))

    @property
    def columns(self) -> list[str]:
        return [f.column for f in self.fields]

    def command(self) -> Command | None:
        """The command that reads this probe's state (None: it reads the UI dump)."""
        p = self.probe
        what = f"read {self.app}.{self.target}"
        if p.source == "content":
            for col in self.columns:
                if ":" in col:
                    raise UnsafeValue(f"column `{col}` cannot be projected (it holds `:`)")
            argv = ["content", "query", "--uri", p.uri or ""]
            if self.columns:
                argv += ["--projection", ":".join(self.columns)]
            return Command(tuple(argv), what, meta={"probe": self})
        if p.source == "setting":
            key = ("settings", "get", p.namespace or "system", p.key or "")
            return Command(key, what, meta={"probe": self})
        if p.source == "sqlite":
            return Command(
                ("run-as", self.package, "sqlite3", "-header", "-quote", p.path or "",
                 select_sql(p.table or "", self.columns)),
                what,
                meta={"probe": self},
            )  # fmt: skip
        if p.source == "files":
            root = files_root(p.path or "")
            if not root.startswith("/"):
                raise UnsafeValue(f"files probe `{p.path}` is not an absolute path")
            return Command(("ls", "-lRab", root), what, meta={"probe": self})
        return None


def select_sql(table: str, columns: list[str]) -> str:
    cols = ", ".join(sql_name(c) for c in columns) or "*"
    return f"SELECT {cols} FROM {sql_name(table)};"


def files_root(pattern: str) -> str:
    """The folder a files probe lists: the pattern up to its first wildcard.

    >>> files_root("/sdcard/Documents/Markor/**/*"), files_root("/sdcard/DCIM/Camera/*")
    ('/sdcard/Documents/Markor', '/sdcard/DCIM/Camera')
    """
    parts = []
    for part in pattern.split("/"):
        if any(c in part for c in "*?["):
            break
        parts.append(part)
    return posixpath.normpath("/".join(parts) or "/")


def files_match(pattern: str, entry: parse.Entry) -> bool:
    """Whether a listed entry is one of the probe's records: ``**/`` folders, else files;
    ``**`` anywhere below the root, a single ``*`` only directly in it."""
    root = files_root(pattern)
    if entry.is_dir != pattern.endswith("/"):
        return False
    if not entry.path.startswith(root.rstrip("/") + "/"):
        return False
    if "**" in pattern:
        return True
    return posixpath.dirname(entry.path) == root


def probe_specs(compiled: ir.CompiledTask, initial: WorldSnapshot | None = None) -> list[ProbeSpec]:
    """Every probe of the task's apps whose target is a collection or a setting.

    With the instance's ``initial`` world, a files probe's `name` counts as read exactly
    only when the records name each file by its file name (some apps keep a title without
    the extension there, which a listing cannot give).
    """
    specs = []
    for name in sorted(compiled.apps):
        app = compiled.apps[name]
        for p in app.probes:
            if p.source == "ui":
                continue
            coll = app.collection(p.target)
            if coll is not None:
                rdef = app.record(coll.record)
                maps = tuple(
                    FieldMap(f, col, column_codec(p, rdef.field(f) if rdef else None, col))
                    for f, col in p.columns.items()
                )
                if p.source == "files" and initial is not None:
                    maps = _named_as_listed(maps, _records(initial, name, p.target))
                specs.append(ProbeSpec(name, app.package, p, "collection", maps))
            elif app.setting(p.target) is not None:
                codec = setting_codec(p, app.setting(p.target))
                specs.append(ProbeSpec(name, app.package, p, "setting", codec=codec))
    return specs


def _records(world: WorldSnapshot, app: str, target: str) -> list[dict[str, Any]]:
    state = world.apps.get(app)
    return state.collections.get(target, []) if state else []


def _named_as_listed(
    maps: tuple[FieldMap, ...], records: list[dict[str, Any]]
) -> tuple[FieldMap, ...]:
    """The field maps, with `name` and `size` opaque where the records do not say what a
    listing shows (a title for a file name; a size other than the text's)."""

    def listed(fm: FieldMap) -> bool:
        if fm.column == "name":
            return all(r.get(fm.field) == posixpath.basename(str(r.get("path"))) for r in records)
        if fm.column == "size":
            return all(r.get(fm.field) == _text_size(r, fm.field) for r in records)
        return True

    return tuple(fm if listed(fm) else FieldMap(fm.field, fm.column, OPAQUE) for fm in maps)


def _text_size(record: dict[str, Any], field: str) -> Any:
    """The size a file written from the record has (its text's, when setup writes text)."""
    content, size = record.get("content"), record.get(field)
    if isinstance(content, str) and (content or not isinstance(size, int)):
        return len(content.encode("utf-8", "surrogatepass"))
    return size


def coverage(
    compiled: ir.CompiledTask,
    specs: list[ProbeSpec] | None = None,
    initial: WorldSnapshot | None = None,
) -> Coverage:
    """What the probes read exactly (see ``tasklang.verifiers.probes``)."""
    specs = probe_specs(compiled, initial) if specs is None else specs
    fields: dict[tuple[str, str], frozenset[str]] = {}
    settings: set[tuple[str, str]] = set()
    for s in specs:
        if s.kind == "setting" and s.codec is not None and s.codec.exact:
            settings.add((s.app, s.target))
        elif s.kind == "collection" and s.rows_exact:
            fields[(s.app, s.target)] = frozenset(f.field for f in s.fields if f.codec.exact)
    return Coverage.of(compiled, fields, settings)


def probe_commands(compiled: ir.CompiledTask) -> list[Command]:
    """The static probe plan: one command per probe, then the clock, foreground and UI."""
    specs = [s for s in probe_specs(compiled) if s.rows_exact]
    out = [c for c in (s.command() for s in specs) if c is not None]
    return [*out, CLOCK, FOREGROUND, DUMP, READ_DUMP]


# ------------------------------------------------------------------ reading a phone
Shell = Callable[[tuple[str, ...]], str]


@dataclass
class Reading:
    """What one run of the probe plan read."""

    snapshot: WorldSnapshot


def read_world(
    compiled: ir.CompiledTask,
    run: Shell,
    tz: str | None = None,
    initial: WorldSnapshot | None = None,
) -> Reading:
    """Run the probe plan through ``run`` (argv -> output) and build the world snapshot.

    Output in no known form, or a value that does not fit its field, raises
    ``parse.OutputError``: a checker must not judge state it could not read.
    """
    snap = WorldSnapshot(tz=tz or _tz(compiled))
    reading = Reading(snap)
    for spec in probe_specs(compiled, initial):
        cmd = spec.command()
        if cmd is None or not spec.rows_exact:
            continue
        state = snap.apps.setdefault(spec.app, AppState())
        out = _listing(run, cmd.argv) if spec.probe.source == "files" else run(cmd.argv)
        if spec.kind == "setting":
            assert spec.codec is not None
            if spec.codec.exact:
                state.settings[spec.target] = _decode(spec.codec, parse.parse_setting(out), spec)
            continue
        state.collections[spec.target] = records_of(spec, out, run)
    snap.clock = parse.parse_date(run(CLOCK.argv))
    pkg, act = parse.parse_foreground(run(FOREGROUND.argv))
    snap.foreground = Foreground(package=pkg, activity=act)
    parse.check_dumped(run(DUMP.argv))
    snap.ui_xml = run(READ_DUMP.argv)
    return reading


def _listing(run: Shell, argv: tuple[str, ...]) -> str:
    """`ls` of a folder; a folder that does not exist lists nothing."""
    from tasklang.envs.device.transport import CommandFailed

    try:
        return run(argv)
    except CommandFailed as exc:
        if "No such file or directory" in exc.output:
            return ""
        raise


def _tz(compiled: ir.CompiledTask) -> str:
    clock = compiled.task.given.clock
    return clock.tz if clock is not None else "UTC"


def _decode(codec: Codec, raw: str | None, spec: ProbeSpec) -> Any:
    try:
        return codec.decode(raw)
    except DecodeError as exc:
        raise parse.OutputError(f"{spec.app}.{spec.target}: {exc}") from None


def raw_rows(spec: ProbeSpec, out: str, run: Shell) -> list[dict[str, str | None]]:
    """The probe's rows as raw column values (files: the listing, contents read by `cat`)."""
    src = spec.probe.source
    if src == "content":
        return parse.parse_content_rows(out, spec.columns)
    if src == "sqlite":
        return parse.parse_sqlite_quote(out)
    pattern = spec.probe.path or ""
    rows: list[dict[str, str | None]] = []
    for e in parse.parse_ls(out, files_root(pattern)):
        if not files_match(pattern, e):
            continue
        row: dict[str, str | None] = {
            "path": e.path, "name": e.name, "size": str(e.size), "modified": e.modified,
        }  # fmt: skip
        if "content" in spec.columns and not e.is_dir:
            row["content"] = run(("cat", e.path))
        rows.append(row)
    return rows


def encode_values(spec: ProbeSpec, record: dict[str, Any]) -> dict[str, str | None]:
    """A record's probed fields as raw column values (what the phone stores)."""
    return {f.column: f.codec.encode(record.get(f.field)) for f in spec.fields}


def records_of(spec: ProbeSpec, out: str, run: Shell) -> list[dict[str, Any]]:
    records = []
    for row in raw_rows(spec, out, run):
        rec = {}
        for fm in spec.fields:
            if not fm.codec.exact:
                continue
            if fm.column not in row:
                raise parse.OutputError(f"{spec.app}.{spec.target}: no column `{fm.column}`")
            rec[fm.field] = _decode(fm.codec, row[fm.column], spec)
        records.append(rec)
    return records
