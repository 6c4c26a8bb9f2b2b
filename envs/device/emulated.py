"""An emulated phone with writable storage: content providers, settings, SQLite databases,
shared storage, a clock and a foreground app, driven by the same command lines as a real one
and answering in the real tools' formats.

It is the test bench for setup and tear-down plans: run the setup, probe, and the reading
must be the instance's initial world; run the tear-down, and the storage must be what it was.
Apps' SQLite tables exist from the start (an installed app has created its schema).
"""

from __future__ import annotations

import datetime as dt
import posixpath
import shlex
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tasklang import ir
from tasklang.envs.device.phoneworld import _escape, _listing_time, _sql_quote
from tasklang.envs.device.probes import probe_specs
from tasklang.envs.device.shell import sql_name
from tasklang.envs.device.transport import CommandFailed

Row = dict[str, str | None]
STANDARD_FOLDERS = (
    "/sdcard", "/sdcard/Documents", "/sdcard/Download", "/sdcard/DCIM", "/sdcard/Pictures",
    "/sdcard/Music", "/sdcard/Movies", "/sdcard/Android", "/sdcard/Android/data", "/data",
    "/data/local", "/data/local/tmp",
)  # fmt: skip


@dataclass
class Stored:
    is_dir: bool
    data: bytes = b""
    modified: str = "2026-01-01T00:00:00"
    sparse: int | None = None  # the size of a sparse file whose bytes are not kept

    @property
    def size(self) -> int:
        return self.sparse if self.sparse is not None else len(self.data)


@dataclass
class Storage:
    """Everything the phone keeps, as raw text (what its tools print)."""

    providers: dict[str, list[Row]] = field(default_factory=dict)
    settings: dict[tuple[str, str], str] = field(default_factory=dict)
    tables: dict[tuple[str, str], list[Row]] = field(default_factory=dict)
    files: dict[str, Stored] = field(default_factory=dict)
    clock: str = "2026-01-01T00:00:00"
    foreground: tuple[str, str] = ("com.android.launcher3", "com.android.launcher3.Launcher")


class EmulatedPhone:
    """A transport whose phone is :class:`Storage`, for the apps of ``compiled``."""

    def __init__(self, compiled: ir.CompiledTask, storage: Storage | None = None) -> None:
        self.s = storage or Storage()
        self.lines: list[str] = []
        self.dbs: dict[str, sqlite3.Connection] = {}
        self.schemas: dict[str, dict[str, list[str]]] = {}
        for spec in probe_specs(compiled):
            if spec.probe.source == "sqlite":
                cols = self.schemas.setdefault(spec.probe.path or "", {})
                cols.setdefault(spec.probe.table or "", spec.columns)
        for folder in STANDARD_FOLDERS:
            self.s.files.setdefault(folder, Stored(True))

    # ------------------------------------------------------------ the Transport protocol
    def shell(self, line: str, timeout: float = 20.0) -> str:
        self.lines.append(line)
        argv = shlex.split(line)
        for prefix, handler in self._handlers():
            if tuple(argv[: len(prefix)]) == prefix:
                return handler(argv, line)
        raise CommandFailed(line, 127, f"/system/bin/sh: {argv[0]}: inaccessible or not found")

    def push(self, remote: str, data: bytes, timeout: float = 60.0) -> None:
        self.lines.append(f"<push {remote}>")
        self._mkdirs(posixpath.dirname(remote))
        self.s.files[remote] = Stored(False, data, self.s.clock)

    def _handlers(self) -> list[tuple[tuple[str, ...], Callable[[list[str], str], str]]]:
        return [
            (("content", "query"), self.content_query),
            (("content", "insert"), self.content_insert),
            (("content", "delete"), self.content_delete),
            (("settings", "get"), self.settings_get),
            (("settings", "put"), self.settings_put),
            (("settings", "delete"), self.settings_delete),
            (("run-as",), self.run_as),
            (("ls",), self.ls),
            (("cat",), self.cat),
            (("mkdir", "-p"), self.mkdir),
            (("rm",), self.rm),
            (("rmdir",), self.rmdir),
            (("mv",), self.mv),
            (("touch", "-d"), self.touch),
            (("truncate", "-s"), self.truncate),
            (("su", "0", "toybox", "date"), self.set_date),
            (("date",), lambda a, _: self.s.clock + "\n"),
            (("am", "start"), self.am_start),
            (("monkey",), self.monkey),
            (("input", "keyevent", "KEYCODE_HOME"), self.home),
            (("dumpsys", "window"), self.dumpsys),
            (("uiautomator", "dump"), self.dump),
        ]

    # ------------------------------------------------------------ providers and settings
    def content_query(self, argv: list[str], line: str) -> str:
        rows = self.s.providers.get(_opt(argv, "--uri"), [])
        cols = _opt(argv, "--projection").split(":")
        out = [
            f"Row: {i} " + ", ".join(f"{c}={'NULL' if r.get(c) is None else r[c]}" for c in cols)
            for i, r in enumerate(rows)
        ]
        return "\n".join(out) + "\n" if out else "No result found.\n"

    def content_insert(self, argv: list[str], line: str) -> str:
        row: Row = {}
        for i, a in enumerate(argv):
            if a == "--bind":
                name, kind, value = argv[i + 1].split(":", 2)
                row[name] = None if kind == "n" else value
        self.s.providers.setdefault(_opt(argv, "--uri"), []).append(row)
        return ""

    def content_delete(self, argv: list[str], line: str) -> str:
        self.s.providers[_opt(argv, "--uri")] = []
        return ""

    def settings_get(self, argv: list[str], line: str) -> str:
        return self.s.settings.get((argv[2], argv[3]), "null") + "\n"

    def settings_put(self, argv: list[str], line: str) -> str:
        self.s.settings[(argv[2], argv[3])] = argv[4]
        return ""

    def settings_delete(self, argv: list[str], line: str) -> str:
        self.s.settings.pop((argv[2], argv[3]), None)
        return ""

    # ------------------------------------------------------------ SQLite
    def _db(self, path: str, line: str) -> sqlite3.Connection:
        if path not in self.schemas:
            raise CommandFailed(line, 1, f'Error: unable to open database "{path}"')
        db = sqlite3.connect(":memory:")
        for table, cols in self.schemas[path].items():
            names = ", ".join(sql_name(c) for c in cols)
            db.execute(f"CREATE TABLE {sql_name(table)} ({names})")
            rows = self.s.tables.get((path, table), [])
            marks = ", ".join("?" for _ in cols)
            db.executemany(
                f"INSERT INTO {sql_name(table)} ({names}) VALUES ({marks})",
                [[r.get(c) for c in cols] for r in rows],
            )
        return db

    def run_as(self, argv: list[str], line: str) -> str:
        path, sql = argv[-2], argv[-1]
        db = self._db(path, line)
        try:
            if "-header" in argv:
                cur = db.execute(sql)
                names = [d[0] for d in cur.description or ()]
                body = [",".join(_sql_quote(v) for v in r) for r in cur.fetchall()]
                return "\n".join([",".join(_sql_quote(n) for n in names), *body]) + "\n"
            db.executescript(sql)
        except sqlite3.Error as exc:
            raise CommandFailed(line, 1, f"Error: {exc}") from None
        for table, cols in self.schemas[path].items():
            rows = db.execute(f"SELECT * FROM {sql_name(table)}").fetchall()
            self.s.tables[(path, table)] = [
                {c: None if v is None else str(v) for c, v in zip(cols, r, strict=True)}
                for r in rows
            ]
        return ""

    # ------------------------------------------------------------ files
    def mkdir(self, argv: list[str], line: str) -> str:
        self._mkdirs(argv[2])
        return ""

    def _mkdirs(self, path: str) -> None:
        while path not in ("", "/") and path not in self.s.files:
            self.s.files[path] = Stored(True, b"", self.s.clock)
            path = posixpath.dirname(path)

    def _under(self, path: str) -> list[str]:
        return [p for p in self.s.files if p == path or p.startswith(path + "/")]

    def ls(self, argv: list[str], line: str) -> str:
        root = argv[-1]
        if root not in self.s.files:
            raise CommandFailed(line, 1, f"ls: {root}: No such file or directory")
        if argv[1] == "-d":
            return root + "\n"
        out: list[str] = []
        self._list(root, out)
        return "\n".join(out) + "\n"

    def _list(self, folder: str, out: list[str]) -> None:
        if out:
            out.append("")
        kids = sorted(p for p in self.s.files if posixpath.dirname(p) == folder and p != folder)
        out += [f"{_escape(folder)}:", f"total {len(kids) * 8}"]
        for p in kids:
            f = self.s.files[p]
            kind, size = ("d", 3452) if f.is_dir else ("-", f.size)
            when = _listing_time(f.modified)
            out.append(
                f"{kind}rw-rw---- 1 u0_a1 media_rw {size:>8} {when} {_escape(posixpath.basename(p))}"
            )
        for p in kids:
            if self.s.files[p].is_dir:
                self._list(p, out)

    def cat(self, argv: list[str], line: str) -> str:
        f = self.s.files.get(argv[-1])
        if f is None or f.is_dir:
            raise CommandFailed(line, 1, f"cat: {argv[-1]}: No such file or directory")
        return f.data.decode("utf-8", "replace")

    def rm(self, argv: list[str], line: str) -> str:
        path, flags = argv[-1], argv[1] if argv[1].startswith("-") else ""
        if path not in self.s.files and "f" not in flags:
            raise CommandFailed(line, 1, f"rm: {path}: No such file or directory")
        for p in self._under(path) if "r" in flags else [path]:
            self.s.files.pop(p, None)
        return ""

    def rmdir(self, argv: list[str], line: str) -> str:
        path = argv[-1]
        if self._under(path) != [path] or not self.s.files[path].is_dir:
            raise CommandFailed(line, 1, f"rmdir '{path}': Directory not empty")
        del self.s.files[path]
        return ""

    def mv(self, argv: list[str], line: str) -> str:
        src, dst = argv[-2], argv[-1]
        moving = self._under(src)
        if not moving:
            raise CommandFailed(line, 1, f"mv: bad '{src}': No such file or directory")
        for p in moving:
            self.s.files[dst + p[len(src) :]] = self.s.files.pop(p)
        return ""

    def truncate(self, argv: list[str], line: str) -> str:
        path, size = argv[-1], int(argv[2])
        self._mkdirs(posixpath.dirname(path))
        old = self.s.files.get(path)
        data = old.data if old is not None and not old.is_dir else b""
        # the size is kept as a count of zero bytes only up to 1 MiB, a sparse file beyond
        self.s.files[path] = Stored(
            False, (data + b"\0" * size)[:size] if size <= 1 << 20 else b"", self.s.clock, size
        )
        return ""

    def touch(self, argv: list[str], line: str) -> str:
        f = self.s.files.get(argv[-1])
        if f is None:
            raise CommandFailed(line, 1, f"touch: {argv[-1]}: No such file or directory")
        f.modified = dt.datetime.fromisoformat(argv[2]).isoformat(timespec="seconds")
        return ""

    # ------------------------------------------------------------ clock and foreground
    def set_date(self, argv: list[str], line: str) -> str:
        when = dt.datetime.strptime(argv[-1], "%m%d%H%M%Y.%S")
        self.s.clock = when.isoformat(timespec="seconds")
        return ""

    def am_start(self, argv: list[str], line: str) -> str:
        pkg, _, act = _opt(argv, "-n").partition("/")
        self.s.foreground = (pkg, pkg + act if act.startswith(".") else act)
        return "Starting: Intent { cmp=" + _opt(argv, "-n") + " }\n"

    def monkey(self, argv: list[str], line: str) -> str:
        pkg = _opt(argv, "-p")
        self.s.foreground = (pkg, f"{pkg}.MainActivity")
        return "Events injected: 1\n"

    def home(self, argv: list[str], line: str) -> str:
        self.s.foreground = Storage().foreground
        return ""

    def dump(self, argv: list[str], line: str) -> str:
        xml = f'<?xml version="1.0" ?><hierarchy rotation="0"><node package="{self.s.foreground[0]}"/></hierarchy>'
        self.s.files[argv[2]] = Stored(False, xml.encode(), self.s.clock)
        return f"UI hierchary dumped to: {argv[2]}\n"

    def dumpsys(self, argv: list[str], line: str) -> str:
        pkg, act = self.s.foreground
        return f"  mCurrentFocus=Window{{5c2a1f0 u0 {pkg}/{act}}}\n"


def _opt(argv: list[str], name: str) -> str:
    return argv[argv.index(name) + 1] if name in argv[:-1] else ""


def snapshot_of(storage: Storage) -> dict[str, Any]:
    """The storage as plain data (for comparing a phone before and after)."""
    return {
        "providers": {k: [dict(r) for r in v] for k, v in storage.providers.items() if v},
        "settings": dict(storage.settings),
        "tables": {f"{p}:{t}": [dict(r) for r in v] for (p, t), v in storage.tables.items() if v},
        "files": {p: (f.is_dir, f.data, f.modified, f.size) for p, f in storage.files.items()},
    }
