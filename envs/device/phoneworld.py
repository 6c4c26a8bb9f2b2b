"""A transport whose phone is PhoneWorld: probe commands answered from its world state, in
the output formats real Android tools print, so every library task's device checker runs
without a phone.

The command line is split with ``shlex`` exactly as the device's shell would split it, so
a quoting mistake shows up here as a wrong answer. SQLite queries run for real, on an
in-memory database filled from the state.
"""

from __future__ import annotations

import datetime as dt
import json
import posixpath
import re
import shlex
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from tasklang import ir
from tasklang.envs.device import bluetooth, mms, wifi
from tasklang.envs.device.codec import name_digest
from tasklang.envs.device.livescreen import LiveScreen
from tasklang.envs.device.probes import (
    DUMP_PATH,
    MEDIA_KEY,
    MEDIA_URI,
    ProbeSpec,
    encode_values,
    link_rows,
    lookup_tables,
    media_key,
    named_paths,
    prefs_record_entries,
    probe_specs,
)
from tasklang.envs.device.services import (
    MEDIA_SESSION_HEAD,
    SERVICE_SETTINGS,
    session_record,
    session_value,
)
from tasklang.envs.device.transport import CommandFailed
from tasklang.envs.phoneworld.apps.files import ROOT, STANDARD_PATHS
from tasklang.verifiers.snapshot import WorldSnapshot


@dataclass
class _File:
    path: str
    is_dir: bool
    size: int = 0
    modified: str = "2026-01-01T00:00:00"
    content: str = ""


# the folders every phone has, whatever its files: the standard ones at the top of shared
# storage (as PhoneWorld's Files app lists them), the system's, and `/data/local/tmp` (where
# the UI is dumped)
STANDARD_FOLDERS = (
    ROOT, *sorted(STANDARD_PATHS), "/sdcard/Android", "/sdcard/Android/data", "/data",
    "/data/local", "/data/local/tmp",
)  # fmt: skip


class PhoneWorldTransport:
    """Answers probe commands from ``world()`` (a PhoneWorld world snapshot) and ``xml()``.

    ``initial`` is the instance's world, which setup wrote: its files are bytes with no
    media in them, so the media store keeps no value (a video's length) for them, and it
    keeps one for a file the app made since. Without it, no file is known to be the app's:
    the media store keeps no value for any."""

    def __init__(
        self,
        compiled: ir.CompiledTask,
        world: Callable[[], WorldSnapshot],
        xml: Callable[[], str],
        initial: WorldSnapshot | None = None,
    ) -> None:
        self.compiled = compiled
        self.world, self.xml = world, xml
        self.initial = initial
        self.specs = probe_specs(compiled)
        self.lines: list[str] = []
        self.screen: LiveScreen | None = None  # started by the first screen command

    # ------------------------------------------------------------ the Transport protocol
    def shell(self, line: str, timeout: float = 20.0) -> str:
        self.lines.append(line)
        argv = list(_split(line))
        handlers = self._handlers()
        handler = handlers.get(tuple(argv[:2])) or handlers.get((argv[0],))
        if handler is None:
            raise CommandFailed(line, 127, f"/system/bin/sh: {argv[0]}: inaccessible or not found")
        return handler(argv, line)

    def push(self, remote: str, data: bytes, timeout: float = 60.0) -> None:
        raise CommandFailed(f"push {remote}", 1, "PhoneWorld answers probes only")

    def _handlers(self) -> dict[tuple[str, ...], Callable[[list[str], str], str]]:
        return {
            ("content", "query"): self.content_query,
            ("settings", "get"): self.settings_get,
            **{("cmd", service): self.service_get for service, _ in SERVICE_SETTINGS},
            ("cmd", "wifi"): self.wifi,
            ("run-as",): self.run_as,
            ("ls",): self.ls,
            ("cat",): self.cat,
            ("md5sum",): self.md5sum,
            ("uiautomator", "dump"): lambda a, _: f"UI hierchary dumped to: {a[2]}\n",
            ("dumpsys", "window"): self.dumpsys,
            ("dumpsys", "media_session"): self.media_session,
            ("dumpsys", "bluetooth_manager"): self.bluetooth,
            ("date",): self.date,
            ("am", "force-stop"): self.force_stop,
            ("monkey",): lambda a, line: self.live().monkey(a, line),
            ("am", "start"): lambda a, line: self.live().am_start(a, line),
            ("input",): lambda a, line: self.live().input(a, line),
        }

    # ------------------------------------------------------------ screens
    def live(self) -> LiveScreen:
        """The phone screen commands act on: PhoneWorld started from ``world()``."""
        if self.screen is None:
            self.screen = LiveScreen(self.world())
        return self.screen

    def leave_screens(self) -> None:
        """Done with the screens screen commands opened (a reading before an episode): the
        UI is ``xml()`` again, until the next screen command."""
        self.screen = None

    def force_stop(self, argv: list[str], line: str) -> str:
        self.screen = LiveScreen(self.world())
        return ""

    # ------------------------------------------------------------ answers
    def _records(self, spec: ProbeSpec) -> list[dict[str, Any]]:
        state = self.world().apps.get(spec.app)
        return list(state.collections.get(spec.target, [])) if state else []

    def _setting_rows(self, spec: ProbeSpec) -> list[dict[str, Any]]:
        """The rows a list setting is kept as (see ``codec.row_list``): one per item."""
        state = self.world().apps.get(spec.app)
        raw = spec.codec.encode(state.settings.get(spec.target)) if state and spec.codec else None
        return [{spec.row_column: item} for item in json.loads(raw or "[]")]

    def content_query(self, argv: list[str], line: str) -> str:
        uri = _option(argv, "--uri")
        spec = next((s for s in self.specs if s.probe.uri == uri), None)
        projection = _option(argv, "--projection")
        if uri == MEDIA_URI:
            return _rows_text(self.media_rows(), projection.split(":") if projection else [])
        if spec is None and self._data_specs(uri):
            return _rows_text(self.data_rows(uri), projection.split(":") if projection else [])
        if spec is None:
            return self.kept_elsewhere(uri, line, projection.split(":") if projection else [])
        columns = projection.split(":") if projection else spec.columns
        return _rows_text(self.provider_rows(spec), columns)

    def provider_rows(self, spec: ProbeSpec) -> list[dict[str, str | None]]:
        """The rows of a probe's provider: its records, each with the id the rows of other
        providers point at it by, then the rows other fields name (the standard groups),
        numbered on by the id those fields' rows refer to them by."""
        rows = []
        for i, rec in enumerate(self._stored_here(spec)):
            raw = encode_values(spec, rec)
            for f in spec.data_rows:  # the row's own id, which the rows elsewhere point at
                if f.data_row is not None:
                    raw[f.data_row.row_key] = str(i + 1)
            for column in spec.set_ids:  # the id a set of the app's preferences names it by
                raw[column] = str(i + 1)
            rows.append(raw)
        rows += spec.named_rows()
        ids = {f.data_row.look.key for s in self.specs for f in s.data_rows
               if f.data_row is not None and f.data_row.look is not None
               and f.data_row.look.uri == spec.probe.uri}  # fmt: skip
        for i, row in enumerate(rows):
            for key in ids:
                row.setdefault(key, str(i + 1))
            if spec.deleted_flag is not None:  # none deleted: PhoneWorld keeps no such rows
                row.setdefault(spec.deleted_flag, "0")
        return rows

    def _stored_here(self, spec: ProbeSpec) -> list[dict[str, Any]]:
        """The records the probe's own provider keeps: not those another provider keeps (a
        text sent as MMS is not in the SMS sent box)."""
        return [r for r in self._records(spec) if not any(r.get(f.field) for f in spec.elsewhere)]

    def _looked_up(self, uri: str, column: str, key: str, value: str) -> str | None:
        """The ``key`` of the row of ``uri`` whose ``column`` holds ``value``."""
        spec = next((s for s in self.specs if s.probe.uri == uri), None)
        rows = self.provider_rows(spec) if spec is not None else []
        return next((r.get(key) for r in rows if r.get(column) == value), None)

    def _data_specs(self, uri: str) -> list[ProbeSpec]:
        return [s for s in self.specs for f in s.data_rows
                if f.data_row is not None and f.data_row.uri == uri]  # fmt: skip

    def data_rows(self, uri: str) -> list[dict[str, str | None]]:
        """The rows of a provider that keep fields of other records (a contact's e-mail in
        the contacts provider's data table): for each record, one row of each kind that holds
        a value, pointing at the record's row as :meth:`content_query` numbers them; a list
        kept a row per item (a group's members), a row for each item."""
        rows: list[dict[str, str | None]] = []
        for spec in dict.fromkeys(self._data_specs(uri)):
            fields = [f for f in spec.data_rows if f.data_row is not None and f.data_row.uri == uri]
            for i, rec in enumerate(self._stored_here(spec)):
                kinds: dict[tuple[tuple[str, str], ...], dict[str, str | None]] = {}
                for f in fields:
                    data = f.data_row
                    assert data is not None
                    if f.codec.many:
                        items = rec.get(f.field) or []
                        rows += [{data.key: str(i + 1), **dict(data.conds), data.value: str(v)}
                                 for v in items]  # fmt: skip
                        continue
                    raw = f.codec.encode(rec.get(f.field))
                    if raw is not None and data.look is not None:  # the row it names, by id
                        look = data.look
                        raw = self._looked_up(look.uri, look.value, look.key, raw)
                    if raw is None:
                        continue
                    row = kinds.setdefault(data.conds, {data.key: str(i + 1), **dict(data.conds)})
                    row[data.value] = raw
                rows += kinds.values()
        return rows

    def media_rows(self) -> list[dict[str, str | None]]:
        """The media store's rows for the files probes' records, one per file: its folder
        and name, and the values the media store keeps for a file the app made (one
        ``initial`` did not hold) that holds media: a field's value other than its default
        (a photo has no length)."""
        rows: dict[tuple[str, str], dict[str, str | None]] = {}
        for spec in self.specs:
            if not spec.media_fields:
                continue
            path = next((f.field for f in spec.fields if f.column == "path"), "path")
            by_setup = {r.get(path) for r in self._initial_records(spec)}
            rdef = self.compiled.apps[spec.app].record_of(spec.target)
            # each field the media store keeps, with the value that means none (its default)
            kept = [(f, rdef.field(f.field) if rdef is not None else None)
                    for f in spec.media_fields]  # fmt: skip
            for rec in self._records(spec):
                key = media_key(str(rec.get(path) or ""))
                if key is None:
                    continue
                row = rows.setdefault(key, dict(zip(MEDIA_KEY, key, strict=True)))
                own = self.initial is not None and rec.get(path) not in by_setup
                for f, fdef in kept:
                    value = rec.get(f.field)
                    held = own and value is not None and (fdef is None or value != fdef.default)
                    row.setdefault(f.media or "", f.codec.encode(value) if held else None)
        return list(rows.values())

    def _initial_records(self, spec: ProbeSpec) -> list[dict[str, Any]]:
        state = self.initial.apps.get(spec.app) if self.initial is not None else None
        return list(state.collections.get(spec.target, [])) if state else []

    def wifi(self, argv: list[str], line: str) -> str:
        """``cmd wifi list-networks`` and ``cmd wifi status``, from the records a `service
        "wifi"` probe reads: the saved ones listed, the connected one named."""
        spec = next((s for s in self.specs if s.probe.source == "service"
                     and s.probe.namespace == "wifi"), None)  # fmt: skip
        if spec is None or argv[2:] not in (["list-networks"], ["status"]):
            raise CommandFailed(line, 255, f"Unknown command: {' '.join(argv[2:])}")
        attr = {f.column: f for f in spec.fields}  # the service's attribute -> its field

        def given(record: dict[str, Any], name: str) -> str | None:
            f = attr.get(name)
            return f.codec.encode(record.get(f.field)) if f is not None else None

        records = self._records(spec)
        if argv[2] == "list-networks":  # the saved ones (none, if no field says which)
            saved = [r for r in records if "saved" in attr and given(r, "saved") == "1"]
            return wifi.networks_output([
                {"ssid": given(r, "ssid") or "",
                 # a type the model names otherwise (or not at all) is one the service
                 # names as no model does
                 "security": kind if kind in wifi.SECURITY_NAMES else "unknown"}
                for r in saved for kind in [given(r, "security")]
            ])  # fmt: skip
        on = [given(r, "ssid") or "" for r in records if given(r, "connected") == "1"]
        return wifi.status_output(self._wifi_on(on), on)

    def bluetooth(self, argv: list[str], line: str) -> str:
        """``dumpsys bluetooth_manager``, from the records a `service "bluetooth_manager"`
        probe reads and the setting read from `bluetooth_on`: the paired devices listed while
        Bluetooth is on."""
        spec = next((s for s in self.specs if s.probe.source == "service"
                     and s.probe.namespace == "bluetooth_manager"), None)  # fmt: skip
        on = self._setting_on("bluetooth_on", False)
        if spec is None:
            return bluetooth.output(on, [])
        attr = {f.column: f for f in spec.fields}
        if "name" not in attr or "paired" not in attr:
            return bluetooth.output(on, [])
        name, paired = attr["name"], attr["paired"]
        bonded = [r for r in self._records(spec) if paired.codec.encode(r.get(paired.field)) == "1"]
        return bluetooth.output(on, [name.codec.encode(r.get(name.field)) or "" for r in bonded])

    def _setting_on(self, key: str, otherwise: bool) -> bool:
        """A boolean setting a `setting` probe reads from ``key`` (``otherwise`` if none)."""
        for s in self.specs:
            if s.kind == "setting" and s.probe.key == key:
                state = self.world().apps.get(s.app)
                if state is not None and s.target in state.settings:
                    return bool(state.settings[s.target])
        return otherwise

    def _wifi_on(self, connected: list[str]) -> bool:
        """Whether Wi-Fi is on: the setting read from `wifi_on` (else: whether connected)."""
        return self._setting_on("wifi_on", bool(connected))

    def kept_elsewhere(self, uri: str, line: str, projection: list[str]) -> str:
        """The provider that keeps the records a field is true for: the MMS provider's
        messages, their parts and numbers (see ``mms.box_rows``); anywhere else, the rows'
        ids."""
        found = [(spec, f) for spec in self.specs for f in spec.elsewhere
                 if f.elsewhere is not None]  # fmt: skip
        boxes = [(spec, f, f.elsewhere.uri) for spec, f in found
                 if f.elsewhere is not None and f.elsewhere.read]  # fmt: skip
        addr = re.fullmatch(r"content://mms/(\d+)/addr", uri)
        if boxes and (uri == mms.PARTS or addr or uri in {box for *_, box in boxes}):
            held: dict[str, list[dict[str, str | None]]] = {}
            parts: list[dict[str, str | None]] = []
            addrs: dict[str, list[dict[str, str | None]]] = {}
            first = 1  # one table: ids numbered on from box to box
            for spec, f, box in boxes:
                texts = [encode_values(spec, r) for r in self._records(spec) if r.get(f.field)]
                held[box], more, numbers = mms.box_rows(texts, mms.BOXES[box], first)
                first += len(texts)
                parts += more
                addrs.update(numbers)
            if addr is not None:
                return _rows_text(addrs.get(addr[1], []), projection)
            return _rows_text(parts if uri == mms.PARTS else held.get(uri, []), projection)
        if not any(f.elsewhere is not None and f.elsewhere.uri == uri for _, f in found):
            raise CommandFailed(line, 1, f"Error while accessing provider:{uri}")
        ids = [r for spec, f in found if f.elsewhere is not None and f.elsewhere.uri == uri
               for r in self._records(spec) if r.get(f.field)]  # fmt: skip
        out = [f"Row: {i} _id={i + 1}" for i in range(len(ids))]
        return "\n".join(out) + "\n" if out else "No result found.\n"

    def settings_get(self, argv: list[str], line: str) -> str:
        ns, key = argv[2], argv[3]
        for s in self.specs:
            p = s.probe
            if s.kind == "setting" and p.namespace == ns and p.key == key and s.codec:
                state = self.world().apps.get(s.app)
                value = state.settings.get(s.target) if state else None
                raw = s.codec.encode(value)
                return ("null" if raw is None else raw) + "\n"
        return "null\n"

    def service_get(self, argv: list[str], line: str) -> str:
        """`cmd SERVICE get KEY` of a setting a system service keeps (Data Saver)."""
        service = SERVICE_SETTINGS.get((argv[1], argv[3])) if argv[2:3] == ["get"] else None
        if service is None or len(argv) != 4:
            raise CommandFailed(line, 255, f"Error: unknown command '{' '.join(argv[2:])}'")
        for s in self.specs:
            p = s.probe
            if s.kind == "setting" and (p.namespace, p.key) == (argv[1], argv[3]) and s.codec:
                state = self.world().apps.get(s.app)
                value = state.settings.get(s.target) if state else None
                return service.output(s.codec.encode(value))
        return service.output(None)

    def run_as(self, argv: list[str], line: str) -> str:
        package, rest = argv[1], argv[2:]
        if rest[:1] == ["cat"] and len(rest) == 2:
            return self.prefs(package, rest[1], line)
        if not rest or rest[0] != "sqlite3":
            raise CommandFailed(line, 1, "run-as: only sqlite3 and cat are known here")
        path, sql = rest[-2], rest[-1]
        specs = [s for s in self.specs if s.package == package and s.probe.path == path]
        db = sqlite3.connect(":memory:")
        try:
            _fill(db, [(s, self._records(s)) for s in specs if s.kind == "collection"])
            for s in specs:
                if s.kind == "setting":
                    _insert(db, s.probe.table or "", s.columns, self._setting_rows(s))
            cur = db.execute(sql)
            names = [d[0] for d in cur.description or ()]
            rows = cur.fetchall()
        except sqlite3.Error as exc:
            raise CommandFailed(line, 1, f"Error: {exc}") from None
        finally:
            db.close()
        if not names:
            return ""
        lines = [",".join(_sql_quote(n) for n in names)]
        lines += [",".join(_sql_quote(v) for v in row) for row in rows]
        return "\n".join(lines) + "\n"

    def prefs(self, package: str, path: str, line: str) -> str:
        """An app's shared preferences file, with the settings its probes read there, as
        `SharedPreferences` writes it (a setting the app holds no value for is absent)."""
        specs = [s for s in self.specs if s.package == package and s.probe.path == path
                 and s.prefs_key is not None]  # fmt: skip
        kept = [s for s in self.specs if s.package == package and s.probe.path == path
                and s.prefs_records]  # fmt: skip
        sets = self._prefs_sets(package, path)
        if not specs and not sets and not kept:
            raise CommandFailed(line, 1, f"cat: {path}: No such file or directory")
        entries: dict[str, tuple[str, str]] = dict(sets)  # key -> (element, stored text)
        for s in kept:  # collections kept as entries named by each record's id
            entries.update(prefs_record_entries(s, self._records(s)))
        for s in specs:
            state = self.world().apps.get(s.app)
            raw = s.codec.encode(state.settings.get(s.target)) if state and s.codec else None
            key = s.prefs_key or ""
            if raw is None:
                continue
            if s.probe.form == "bits" and key in entries:  # flags that settings share
                raw = str(int(entries[key][1]) | int(raw))
            entries[key] = (prefs_element(s, raw), raw)
        return prefs_xml(entries)

    def _prefs_sets(self, package: str, path: str) -> dict[str, tuple[str, str]]:
        """The sets of the preferences file at ``path`` that records are kept in (an album
        is pinned while `pinned_folders` holds its path), as JSON arrays."""
        out: dict[str, tuple[str, str]] = {}
        for spec in self.specs:
            for fm in spec.prefs_sets:
                member = fm.prefs_set
                if spec.package != package or member is None:
                    continue
                if member.command(package).argv[-1] != path:
                    continue
                held = [row.get(member.column) for r, row in self._rows_of(spec)
                        if r.get(fm.field)]  # fmt: skip
                values = list(dict.fromkeys(v for v in held if v is not None))
                out[member.key] = ("set", json.dumps(values, ensure_ascii=False))
        return out

    def _rows_of(self, spec: ProbeSpec) -> list[tuple[dict[str, Any], dict[str, str | None]]]:
        """Each record of a probe with the row the phone keeps it as: a provider's row with
        the id the provider gives it (see :meth:`provider_rows`), else its encoded fields."""
        if spec.set_ids:
            stored = self._stored_here(spec)
            return list(zip(stored, self.provider_rows(spec)[: len(stored)], strict=True))
        return [(r, encode_values(spec, r)) for r in self._records(spec)]

    # ------------------------------------------------------------ files
    def files(self) -> dict[str, _File]:
        """The shared storage PhoneWorld's file records describe (folders implied), with the
        standard folders every phone has (`/sdcard/Movies` stays when its last file leaves)."""
        out: dict[str, _File] = {
            f: _File(f, True, 0, "2026-01-01T00:00:00") for f in STANDARD_FOLDERS
        }
        for spec in self.specs:
            if spec.probe.source != "files":
                continue
            folders = (spec.probe.path or "").endswith("/")
            # the fields the listing shows, by the attribute each is read as
            field = {col: f for f, col in reversed(spec.probe.columns.items())}
            for rec in self._records(spec):
                path = rec.get(field.get("path", "path"))
                if not isinstance(path, str) or not path.startswith("/"):
                    continue
                path = posixpath.normpath(path)
                content = rec.get(field.get("content", "content"))
                content = content if isinstance(content, str) else ""
                size = rec.get(field.get("size", "size"))
                if not isinstance(size, int) or isinstance(size, bool):
                    size = len(str(content).encode("utf-8", "surrogatepass"))
                modified = str(rec.get(field.get("modified", "modified")) or "2026-01-01T00:00:00")
                out.setdefault(
                    path, _File(path, folders, 0 if folders else size, modified, str(content))
                )
                parent = posixpath.dirname(path)
                while parent not in ("/", "") and parent not in out:
                    out[parent] = _File(parent, True, 0, modified)
                    parent = posixpath.dirname(parent)
        return out

    def ls(self, argv: list[str], line: str) -> str:
        root = posixpath.normpath(argv[-1])
        files = self.files()
        if root not in files and not any(p.startswith(root + "/") for p in files):
            raise CommandFailed(line, 1, f"ls: {root}: No such file or directory")
        out: list[str] = []
        self._list(root, files, out, "--full-time" in argv)
        return "\n".join(out) + "\n"

    def _list(self, folder: str, files: dict[str, _File], out: list[str], full: bool) -> None:
        if out:
            out.append("")
        out.append(f"{_escape(folder)}:")
        children = sorted(
            (f for p, f in files.items() if posixpath.dirname(p) == folder and p != folder),
            key=lambda f: f.path,
        )
        out.append(f"total {len(children) * 8}")
        stamp = _listing_time("2026-01-01T00:00:00", full)
        out.append(f"drwxrws--- 2 u0_a1 media_rw 3452 {stamp} .")
        out.append(f"drwxrws--- 2 u0_a1 media_rw 3452 {stamp} ..")
        for f in children:
            kind, size = ("d", 3452) if f.is_dir else ("-", f.size)
            when = _listing_time(f.modified, full)
            name = _escape(posixpath.basename(f.path))
            out.append(f"{kind}rw-rw---- 1 u0_a1 media_rw {size:>8} {when} {name}")
        for f in children:
            if f.is_dir:
                self._list(f.path, files, out, full)

    def cat(self, argv: list[str], line: str) -> str:
        path = argv[-1]
        if path == DUMP_PATH:
            return self.screen.xml() if self.screen is not None else self.xml()
        f = self.files().get(posixpath.normpath(path))
        if f is None or f.is_dir:
            raise CommandFailed(line, 1, f"cat: {path}: No such file or directory")
        return f.content

    def md5sum(self, argv: list[str], line: str) -> str:
        """The digest of a file a record of the world names by its `path` (or a files probe
        lists): of its name, as PhoneWorld's files hold no content of their own
        (``codec.name_digest``)."""
        path = posixpath.normpath(argv[-1])
        found = self.files().get(path)
        if (found is None or found.is_dir) and argv[-1] not in named_paths(self.world()):
            raise CommandFailed(line, 1, f"md5sum: {argv[-1]}: No such file or directory")
        return f"{name_digest(posixpath.basename(path))}  {argv[-1]}\n"

    def dumpsys(self, argv: list[str], line: str) -> str:
        fg = self.world().foreground
        pkg = fg.package if fg and fg.package else "com.android.launcher3"
        act = fg.activity if fg and fg.activity else ".Launcher"
        return (
            "WINDOW MANAGER WINDOWS (dumpsys window windows)\n"
            f"  mCurrentFocus=Window{{5c2a1f0 u0 {pkg}/{act}}}\n"
            f"  mFocusedApp=ActivityRecord{{8d1e3a u0 {pkg}/{act} t42}}\n"
        )

    def media_session(self, argv: list[str], line: str) -> str:
        """`dumpsys media_session`: a session for each app a `setting media_session` probe
        reads, its metadata the current song (title, artist, album) and its state playing
        (3), paused (2) or none while nothing is loaded."""
        if len(argv) != 2:
            raise CommandFailed(line, 1, f"Unknown argument: {' '.join(argv[2:])}")
        out = MEDIA_SESSION_HEAD
        players: dict[tuple[str, str], dict[str, str]] = {}  # (app, package) -> key: setting
        for s in self.specs:
            if session_value(s.probe.namespace, s.probe.key) is not None:
                players.setdefault((s.app, s.package), {})[s.probe.key or ""] = s.target
        for (app, package), targets in sorted(players.items()):
            state = self.world().apps.get(app)
            values = state.settings if state else {}
            title = values.get(targets["title"]) if "title" in targets else None
            playing = bool(values.get(targets["playing"])) if "playing" in targets else False
            description = None
            if title is not None:
                song = next((r for recs in (state.collections if state else {}).values()
                             for r in recs if r.get("title") == title), {})  # fmt: skip
                description = f"{title}, {song.get('artist')}, {song.get('album')}"
            code = 3 if playing else (2 if title is not None else None)
            out += session_record(package, description, code)
        return out

    def date(self, argv: list[str], line: str) -> str:
        clock = self.world().clock or "2026-01-01T00:00:00"
        return dt.datetime.fromisoformat(clock).strftime("%Y-%m-%dT%H:%M:%S") + "\n"


def _rows_text(rows: list[dict[str, str | None]], columns: list[str]) -> str:
    """Rows as `content query` prints them (every column of the first row without a
    projection)."""
    columns = columns or (list(rows[0]) if rows else [])
    out = [
        f"Row: {i} " + ", ".join(f"{c}={'NULL' if r.get(c) is None else r[c]}" for c in columns)
        for i, r in enumerate(rows)
    ]
    return "\n".join(out) + "\n" if out else "No result found.\n"


def prefs_element(spec: ProbeSpec, raw: str) -> str:
    """The element a setting's stored text is written as: `boolean` for a plain boolean,
    `int` (or `long` past 32 bits) for a number or numeric stored forms, else `string`."""
    t = spec.setting_type
    if t is not None and t.name == "bool" and not spec.probe.values:
        return "boolean"
    numeric = t is not None and (
        t.name in ("int", "duration") or (spec.probe.values and t.name in ("enum", "bool"))
    )
    if numeric and re.fullmatch(r"-?\d{1,19}", raw):
        return "int" if -(2**31) <= int(raw) < 2**31 else "long"
    return "string"


def prefs_xml(entries: dict[str, tuple[str, str]]) -> str:
    """A shared preferences file as Android writes it (FastXmlSerializer: `&`, `<`, `>`,
    `"` and control characters escaped)."""
    lines = ["<?xml version='1.0' encoding='utf-8' standalone='yes' ?>", "<map>"]
    for key, (element, raw) in entries.items():
        name = _xml(key)
        if element == "set":  # a set of strings, given as a JSON array
            items = [f"        <string>{_xml(v)}</string>" for v in json.loads(raw)]
            lines += (
                [f'    <set name="{name}">', *items, "    </set>"]
                if items
                else [f'    <set name="{name}" />']
            )
        elif element == "string":
            lines.append(f'    <string name="{name}">{_xml(raw)}</string>')
        else:
            lines.append(f'    <{element} name="{name}" value="{_xml(raw)}" />')
    return "\n".join([*lines, "</map>"]) + "\n"


def _xml(text: str) -> str:
    """Text as FastXmlSerializer escapes it."""
    out = []
    for ch in text:
        if ch in _XML_ESCAPES:
            out.append(_XML_ESCAPES[ch])
        elif ord(ch) < 32:
            out.append(f"&#{ord(ch)};")
        else:
            out.append(ch)
    return "".join(out)


_XML_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}


def _option(argv: list[str], name: str) -> str:
    return argv[argv.index(name) + 1] if name in argv[:-1] else ""


def _fill(db: sqlite3.Connection, records: list[tuple[ProbeSpec, list[dict[str, Any]]]]) -> None:
    """The probes' tables from the records; a field kept in another table (a link) as rows
    there, pointing at its record's key (the i-th record's is ``i + 1``). A lookup table a
    collection is read from holds that collection's rows, each referred to by its value."""
    tables: dict[str, list[dict[str, Any]]] = {}
    columns: dict[str, list[str]] = {}
    lookups = lookup_tables([spec for spec, _ in records])
    for spec, recs in records:
        keys = [link.key for link in spec.all_links]
        table = spec.probe.table or ""
        tables.setdefault(table, []).extend(
            {**encode_values(spec, r), **{k: i + 1 for k in keys}} for i, r in enumerate(recs)
        )
        columns.setdefault(table, []).extend(spec.columns)
        for link in spec.all_links:
            columns.setdefault(link.table, []).extend([link.fk, link.row_value])
            if link.lookup is not None:
                columns.setdefault(link.lookup, []).extend([link.lookup_key or "", link.value])
        for name, linked in link_rows(spec, recs).items():
            if name not in lookups:
                tables.setdefault(name, []).extend(linked)
    for name, (key, value) in lookups.items():  # a name refers to the first of its rows
        named: set[Any] = set()
        for row in tables.get(name, []):
            row[key] = None if row.get(value) in named else row.get(value)
            named.add(row.get(value))
    for name, cols in columns.items():
        _insert(db, name, list(dict.fromkeys(cols)), tables.get(name, []))


def _insert(db: sqlite3.Connection, name: str, cols: list[str], rows: list[dict[str, Any]]) -> None:
    from tasklang.envs.device.shell import sql_name

    table = sql_name(name)
    db.execute(f"CREATE TABLE IF NOT EXISTS {table} ({', '.join(sql_name(c) for c in cols)})")
    marks = ", ".join("?" for _ in cols)
    names = ", ".join(sql_name(c) for c in cols)
    db.executemany(
        f"INSERT INTO {table} ({names}) VALUES ({marks})", [[r.get(c) for c in cols] for r in rows]
    )


def _sql_quote(value: Any) -> str:
    """A value as `sqlite3 -quote` prints it."""
    if value is None:
        return "NULL"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, bytes):
        return "X'" + value.hex().upper() + "'"
    return "'" + str(value).replace("'", "''") + "'"


def _escape(name: str) -> str:
    r"""A name as toybox `ls -b` prints it (``\\``, ``\n``, ``\t``, other controls octal)."""
    out = []
    for ch in name:
        if ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 32 or ord(ch) == 127:
            out.append(f"\\{ord(ch):03o}")
        else:
            out.append(ch)
    return "".join(out)


def _listing_time(value: str, full: bool = False) -> str:
    """A file time as toybox `ls -l` prints it (`--full-time`: seconds, nanoseconds, zone)."""
    shape = "%Y-%m-%d %H:%M:%S.000000000 +0000" if full else "%Y-%m-%d %H:%M"
    try:
        return dt.datetime.fromisoformat(value).strftime(shape)
    except ValueError:
        return dt.datetime(2026, 1, 1).strftime(shape)


class PhoneWorldDriver:
    """The driver protocol over a PhoneWorld episode: screen-level calls (a tap at a point,
    a finger's swipe, typing into the focused field) become PhoneWorld actions, so DeviceEnv
    can run whole episodes against PhoneWorld."""

    def __init__(self, episode: Any) -> None:
        self.ep = episode

    def _do(self, action: dict[str, Any]) -> None:
        self.ep.step(action)

    def dump(self) -> str:
        return str(self.ep.xml())

    def screenshot(self) -> bytes:
        return bytes(self.ep.screenshot())

    def click(self, x: float, y: float) -> None:
        self._do({"action_type": "click", "x": x, "y": y})

    def long_click(self, x: float, y: float) -> None:
        self._do({"action_type": "long_press", "x": x, "y": y})

    def double_click(self, x: float, y: float) -> None:
        self._do({"action_type": "double_tap", "x": x, "y": y})

    def text(self, value: str, clear: bool = False) -> None:
        self._do({"action_type": "input_text", "text": value, "clear_text": clear})

    def swipe(self, x1: float, y1: float, x2: float, y2: float) -> None:
        dx, dy = x2 - x1, y2 - y1
        if abs(dy) >= abs(dx):
            direction = "up" if dy < 0 else "down"
        else:
            direction = "left" if dx < 0 else "right"
        self._do({"action_type": "swipe", "direction": direction, "x": x1, "y": y1})

    def key(self, name: str) -> None:
        kind = {"back": "navigate_back", "home": "navigate_home", "enter": "keyboard_enter"}
        self._do({"action_type": kind[name]})

    def app_start(self, package: str) -> None:
        self._do({"action_type": "open_app", "app_name": package})

    def current(self) -> tuple[str, str]:
        package, activity = self.ep.phone.current_activity()
        return str(package), str(activity)

    def window_size(self) -> tuple[int, int]:
        return int(self.ep.width), int(self.ep.height)

    def wait(self, seconds: float) -> None:
        self._do({"action_type": "wait"})  # PhoneWorld's clock moves on by its own wait


@lru_cache(maxsize=4096)
def _split(line: str) -> tuple[str, ...]:
    """The words a shell makes of a command line (a probe plan runs the same lines for every
    end state it reads)."""
    return tuple(shlex.split(line))
