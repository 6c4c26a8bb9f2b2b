"""`tasklang lsp`: a Language Server Protocol server for `.task` and `.app` files, over stdio.

Features: the compiler's own diagnostics (on open, and on change after a short debounce),
the z3 analysis of ``tasklang lint`` (after a longer pause, once the document compiles
without errors), completion, hover, go to definition, document symbols and formatting.

How it stays responsive:

* Diagnostics come from a compile that runs on one worker thread, ``COMPILE_DELAY`` seconds
  after the last change (longer for big files). A compile whose document changed while it
  waited is skipped; one that finishes after a newer change is kept for completion and hover
  but not published. The bundled app models are parsed and built once (and again only when
  a model file changes on disk), so a compile costs only the document's own work. A document
  of ``ISOLATE_CHARS`` characters or more compiles in a separate process, so that its long
  compile cannot hold the interpreter lock while requests wait; a compile's result
  (``Analysis``) is small: no syntax tree, no IR.
* Completion, hover and definition never wait for a compile. They read the text around the
  cursor (the enclosing top-level declaration, tokenized with one regular expression) for the
  syntactic context, and the latest compile that parsed for app models and parameter types.
* Every handler is wrapped: an internal error is logged to stderr and answered with nothing;
  the server never dies on broken input.

Positions: the compiler counts code points; LSP counts UTF-16 code units (or what the client
negotiated). ``LineIndex`` converts between character offsets and LSP positions, with LSP's own
line breaks (``\\n``, ``\\r\\n``, ``\\r``).

Entry points: ``serve()`` runs the server on stdin/stdout, ``main()`` is the console entry
point (``python -m tasklang.lsp``), ``build_server()`` returns the configured server.
"""

from __future__ import annotations

import asyncio
import bisect
import concurrent.futures
import contextlib
import functools
import json
import logging
import multiprocessing
import os
import re
import sys
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from tasklang import __version__, ast, ir
from tasklang.appmodel import PREFS_FORMS, PROBE_NAMESPACES, AppBuilder
from tasklang.compiler import compile_task, library_root, read_source
from tasklang.diagnostics import REGISTRY, Diagnostic, Severity, did_you_mean, finalize, has_errors
from tasklang.lower import DEVICE_KEYS, DIFFICULTIES, OUTCOMES
from tasklang.parser import MAX_SOURCE_BYTES, parse
from tasklang.passes import Context
from tasklang.passes.resolve import ACTIONS
from tasklang.source import SourceFile, Span
from tasklang.types import GENERATORS, RANGE_TYPES

log = logging.getLogger("tasklang.lsp")

COMPILE_DELAY = 0.15  # seconds of quiet after a change before compiling
MAX_COMPILE_DELAY = 2.0  # the delay grows with the file's size, up to this
ISOLATE_CHARS = 250_000  # documents this long compile in a separate process
ANALYSIS_DELAY = 1.5  # seconds of quiet after a clean compile before the z3 analysis runs
ANALYSIS_MAX_CHARS = 200_000  # longer documents are analysed by `tasklang lint` only
SCAN_WINDOW = 100_000  # characters around the cursor that completion and hover read at most
KINDS = ("app", "mini_app", "cross_app")

P = ParamSpec("P")
R = TypeVar("R")


# ---------------------------------------------------------------- positions
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


class LineIndex:
    """Character offsets <-> LSP positions of one text (UTF-16 code units by default)."""

    def __init__(self, text: str, encoding: str = "utf-16") -> None:
        self.text = text
        self.encoding = encoding
        self.starts = [0, *(m.end() for m in _LINE_BREAK.finditer(text))]

    def _units(self, s: str) -> int:
        if self.encoding == "utf-32" or s.isascii():
            return len(s)
        if self.encoding == "utf-8":
            return len(s.encode("utf-8", "surrogatepass"))
        return len(s.encode("utf-16-le", "surrogatepass")) // 2

    def _line_end(self, line: int) -> int:
        start = self.starts[line]
        end = self.starts[line + 1] if line + 1 < len(self.starts) else len(self.text)
        while end > start and self.text[end - 1] in "\r\n":
            end -= 1
        return end

    def position(self, offset: int) -> lsp.Position:
        offset = max(0, min(offset, len(self.text)))
        line = bisect.bisect_right(self.starts, offset) - 1
        start = self.starts[line]
        offset = min(offset, max(start, self._line_end(line)))
        return lsp.Position(line=line, character=self._units(self.text[start:offset]))

    def offset(self, position: lsp.Position) -> int:
        if position.line >= len(self.starts):
            return len(self.text)
        start = self.starts[max(0, position.line)]
        end = self._line_end(max(0, position.line))
        segment = self.text[start:end]
        want = max(0, position.character)
        if self.encoding == "utf-32" or segment.isascii():
            return start + min(want, len(segment))
        count = 0
        for i, ch in enumerate(segment):
            if count >= want:
                return start + i
            count += self._units(ch)
        return end

    def range(self, start: int, end: int) -> lsp.Range:
        return lsp.Range(start=self.position(start), end=self.position(max(start, end)))

    def edited(self, start: int, end: int, new: str) -> LineIndex:
        """The index of the text with ``[start, end)`` replaced by ``new``.

        Only the lines the edit touches are scanned again; the other line starts are kept
        (shifted), so an edit costs little even in a long file.
        """
        old = self.text
        text = old[:start] + new + old[end:]
        delta = len(new) - (end - start)
        # [lo, hi) of the new text is bounded by line feeds (or the ends of the text) and holds
        # every character next to the edit, so no line break crosses its bounds.
        lo = old.rfind("\n", 0, max(0, start - 1)) + 1
        hi = text.find("\n", start + len(new))
        hi = len(text) if hi < 0 else hi + 1
        starts = self.starts
        keep = bisect.bisect_right(starts, lo)
        after = bisect.bisect_right(starts, hi - delta)
        middle = [m.end() for m in _LINE_BREAK.finditer(text, lo, hi)]
        out = LineIndex.__new__(LineIndex)
        out.text = text
        out.encoding = self.encoding
        out.starts = [*starts[:keep], *middle, *(s + delta for s in starts[after:])]
        return out

    def end(self) -> lsp.Position:
        return self.position(len(self.text))


# ---------------------------------------------------------------- the bundled app models
@dataclass
class _LibApp:
    decl: ast.AppDecl
    app: ir.AppModel
    diagnostics: list[Diagnostic]


@dataclass
class _LibFile:
    path: Path
    stamp: tuple[int, int]
    source: SourceFile
    module: ast.Module | None
    diagnostics: list[Diagnostic]
    apps: list[_LibApp]
    index: LineIndex


class Library:
    """The bundled app model files, parsed and built once (again when one changes on disk)."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder if folder is not None else library_root() / "apps"
        self._files: dict[Path, _LibFile] = {}
        self._lock = threading.Lock()
        self.loaded = False

    def files(self, exclude: str | None = None) -> list[_LibFile]:
        """The library's app files in the compiler's order, minus the file ``exclude``."""
        skip = _resolved(exclude) if exclude else None
        with self._lock:
            paths = sorted(self.folder.glob("*.app")) if self.folder.is_dir() else []
            current: dict[Path, _LibFile] = {}
            for path in paths:
                try:
                    st = path.stat()
                except OSError:
                    continue
                stamp = (st.st_mtime_ns, st.st_size)
                known = self._files.get(path)
                if known is None or known.stamp != stamp:
                    loaded = _load_library_file(path, stamp)
                    if loaded is None:
                        continue
                    known = loaded
                current[path] = known
            self._files = current
            self.loaded = True
            return [f for p, f in current.items() if skip is None or _resolved(str(p)) != skip]

    def apps(self) -> dict[str, ir.AppModel]:
        """The library's app models by name (the first of duplicates)."""
        found: dict[str, ir.AppModel] = {}
        for f in self._files.values() if self.loaded else self.files():
            for a in f.apps:
                found.setdefault(a.app.name, a.app)
        return found

    def index_for(self, path: str) -> LineIndex | None:
        """The line index of a loaded model file (without waiting for a reload)."""
        for f in list(self._files.values()):
            if f.source.path == path:
                return f.index
        return None


def _resolved(path: str) -> Path:
    try:
        return Path(path).resolve()
    except (OSError, RuntimeError):  # pragma: no cover - odd paths
        return Path(path)


def _load_library_file(path: Path, stamp: tuple[int, int]) -> _LibFile | None:
    try:
        source, problems = read_source(path)
    except Exception:  # UnreadableInput and friends: leave the file out
        log.warning("cannot read app model %s", path, exc_info=True)
        return None
    if source is None:
        return _LibFile(path, stamp, SourceFile(str(path), ""), None, problems, [], LineIndex(""))
    module, found = parse(source)
    problems.extend(found)
    apps: list[_LibApp] = []
    if module is not None:
        for decl in module.decls:
            if isinstance(decl, ast.AppDecl):
                builder = AppBuilder()
                app = builder.build(decl)
                apps.append(_LibApp(decl, app, list(builder.diagnostics)))
    return _LibFile(path, stamp, source, module, problems, apps, LineIndex(source.text))


# ---------------------------------------------------------------- analysis
ParamTypes = dict[str, dict[str, "ir.Type | None"]]


@dataclass
class Analysis:
    """What one compile of one document leaves for the features: small and picklable.

    ``diagnostics`` are the compiler's for this document (``published`` the same as LSP
    diagnostics); ``apps`` the app models the document sees; ``params`` the type of every
    parameter of every task of the document (typed even when the task has errors);
    ``symbols`` its document symbols.
    """

    path: str
    version: int | None
    parsed: bool
    diagnostics: list[Diagnostic]
    published: list[lsp.Diagnostic]
    apps: dict[str, ir.AppModel]
    params: ParamTypes
    symbols: list[lsp.DocumentSymbol]

    @property
    def ok(self) -> bool:
        return not has_errors(self.diagnostics)


def analyze(
    text: str,
    path: str,
    library: Library | None = None,
    version: int | None = None,
    encoding: str = "utf-16",
) -> Analysis:
    """Compile one document the way ``Compiler.compile_paths`` would compile the file ``path``.

    The result's diagnostics equal the compiler's (for this file); the bundled models are
    reused from ``library`` instead of being parsed again.
    """
    if text.startswith("\ufeff"):
        text = " " + text[1:]  # the compiler drops a BOM; a space keeps every offset
    library = library if library is not None else Library()
    lib_files = library.files(exclude=path)
    source = SourceFile(path, text)
    problems: list[Diagnostic] = []
    for lf in lib_files:
        problems.extend(lf.diagnostics)
    module, found = parse(source)
    problems.extend(found)

    apps: dict[str, ir.AppModel] = {}

    def add_app(decl: ast.AppDecl, app: ir.AppModel, built: list[Diagnostic]) -> None:
        problems.extend(built)
        if app.name in apps:
            first = apps[app.name].span
            problems.append(
                Diagnostic(
                    "TL1005",
                    f"app `{app.name}` is declared twice",
                    decl.span,
                    notes=[f"first declared at {first.label}"] if first else [],
                )
            )
            return
        apps[app.name] = app

    for lf in lib_files:
        for la in lf.apps:
            add_app(la.decl, la.app, la.diagnostics)
    doc_decls = list(module.decls) if module is not None else []
    for decl in doc_decls:
        if isinstance(decl, ast.AppDecl):
            builder = AppBuilder()
            app = builder.build(decl)
            add_app(decl, app, list(builder.diagnostics))
    for app in apps.values():
        if app.host is not None and app.host not in apps and app.span is not None:
            problems.append(
                Diagnostic(
                    "TL1001",
                    f"unknown host app `{app.host}`",
                    app.span,
                    help=did_you_mean(app.host, apps),
                )
            )

    ctx = Context(apps=dict(apps))
    params: ParamTypes = {}
    seen: dict[str, Span] = {}
    lib_tasks = [d for lf in lib_files if lf.module for d in lf.module.decls]
    for decl in [*lib_tasks, *doc_decls]:
        if not isinstance(decl, ast.TaskDecl):
            continue
        compiled, task_problems = compile_task(decl, ctx)
        task_id = decl.id.text
        if task_id in seen:
            task_problems.append(
                Diagnostic(
                    "TL1005",
                    f"task `{task_id}` is declared twice",
                    decl.id.span,
                    notes=[f"first declared at {seen[task_id].label}"],
                )
            )
        seen.setdefault(task_id, decl.id.span)
        problems.extend(task_problems)
        if decl.span.file == path and task_id not in params:
            params[task_id] = {p.name: p.type for p in compiled.params}
    mine = [d for d in finalize(problems) if d.span.file == path]
    index = LineIndex(text, encoding)
    symbols = document_symbols(module, index) if module is not None else []
    return Analysis(
        path, version, module is not None, mine, lsp_diagnostics(mine, index), apps, params, symbols
    )


def lsp_diagnostics(diagnostics: Sequence[Diagnostic], index: LineIndex) -> list[lsp.Diagnostic]:
    """Diagnostics as LSP diagnostics: the message, then the help and notes on lines of their own."""
    out: list[lsp.Diagnostic] = []
    for d in diagnostics:
        message = d.message
        if d.help:
            message += f"\nhelp: {d.help}"
        for note in d.notes:
            message += f"\nnote: {note}"
        out.append(
            lsp.Diagnostic(
                range=index.range(d.span.start, d.span.end),
                message=message,
                severity=_SEVERITY.get(d.severity or Severity.ERROR, lsp.DiagnosticSeverity.Error),
                code=d.code,
                source="tasklang",
            )
        )
    return out


_WORKER_LIBRARY: Library | None = None


def _watch_parent(parent: int) -> None:
    """In the compile process: exit as soon as the server process is gone."""

    def watch() -> None:
        while True:
            time.sleep(1.0)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, daemon=True, name="tasklang-watch").start()


def analyze_in_worker(text: str, path: str, version: int | None, encoding: str) -> Analysis:
    """``analyze`` with a library kept for the process (run in the compile process)."""
    global _WORKER_LIBRARY
    if _WORKER_LIBRARY is None:
        _WORKER_LIBRARY = Library()
    return analyze(text, path, _WORKER_LIBRARY, version, encoding)


_SEVERITY = {
    Severity.ERROR: lsp.DiagnosticSeverity.Error,
    Severity.WARNING: lsp.DiagnosticSeverity.Warning,
    Severity.NOTE: lsp.DiagnosticSeverity.Information,
}


# ---------------------------------------------------------------- tokens and context
_TOKEN = re.compile(
    r"""
      (?P<nl>\r\n|\r|\n)
    | (?P<ws>[ \t\f\v]+)
    | (?P<comment>\#[^\r\n]*)
    | (?P<string>"(?:[^"\\\r\n]|\\[^\r\n])*"?)
    | (?P<num>\$?[0-9][0-9A-Za-z_:]*(?:-[0-9][0-9A-Za-z_:]*)*(?:\.[0-9][0-9A-Za-z_]*)?)
    | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
    | (?P<op>==|!=|<=|>=|\+=|\.\.|[-+*/<>~=:,.{}()\[\]?])
    | (?P<other>.)
    """,
    re.X,
)
_DECL_START = re.compile(r"^(?:task|app)[ \t]+[A-Za-z_]", re.M)
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class Tok:
    kind: str  # nl ws comment string num name op other
    text: str
    start: int
    end: int


def tokenize(text: str, start: int = 0, end: int | None = None) -> list[Tok]:
    """The tokens of ``text[start:end]`` (whitespace dropped, line breaks kept)."""
    out: list[Tok] = []
    for m in _TOKEN.finditer(text, start, len(text) if end is None else end):
        kind = m.lastgroup or "other"
        if kind != "ws":
            out.append(Tok(kind, m.group(), m.start(), m.end()))
    return out


def decl_bounds(text: str, offset: int) -> tuple[int, int]:
    """The span of the top-level declaration around ``offset`` (by `task`/`app` at column 0)."""
    low = max(0, offset - SCAN_WINDOW)
    start = 0 if low == 0 else low
    for m in _DECL_START.finditer(text, low, min(len(text), offset + 1)):
        if m.start() <= offset:
            start = m.start()
    nxt = _DECL_START.search(text, offset + 1, min(len(text), offset + SCAN_WINDOW))
    end = nxt.start() if nxt else min(len(text), offset + SCAN_WINDOW)
    return start, end


_BLOCKS = frozenset(
    {"top", "task", "app", "record", "settings", "params", "constraints", "given", "expect"}
    | {"forbid", "device", "block"}
)
_CONT_AFTER = frozenset(
    {"and", "or", "implies", "not", "where", "==", "!=", "<", "<=", ">", ">=", "~", "in"}
    | {"contains", "matches", "+", "-", "*", "/", ",", ":", "=", "+=", ".", "..", "of", "one"}
    | {"has", "within", "fuzzy", "then", "before", "eventually", "never", "trace", "at", "most"}
    | {"times", "action", "on", "shown", "added", "updated", "deleted", "holds", "weight"}
    | {"unchanged", "only", "tz", "noise", "subgoal", "ui", "element", "no", "activity"}
    | {"kind", "apps", "goal", "tags", "difficulty", "revision", "outcome", "budget", "record"}
    | {"collection", "probe", "package", "label", "host", "foreground", "require", "list"}
)
_CONT_BEFORE = frozenset(
    {"and", "or", "implies", "where", "==", "!=", "<", "<=", ">", ">=", "~", "in", "contains"}
    | {"matches", "+", "-", "*", "/", ".", "..", "within", "fuzzy", "unordered", "exact", "then"}
    | {"before", "weight", "has", ",", "tz", "activity", "on", "of", ":", "=", "+="}
)
_OPEN_KINDS = {"(": "paren", "[": "list"}
_AGGREGATES = frozenset({"count", "sum", "min", "max", "avg"})


@dataclass
class Frame:
    """A bracketed region being read: a block, a `has { }`, a record literal, parentheses..."""

    kind: str
    name: str | None = None  # task id, app or record name
    base: tuple[str, ...] = ()  # has: its collection; record literal: its target; aggregate
    agg: str | None = None  # a paren frame of count/sum/min/max/avg: the function
    items: int = 0  # commas seen
    stmt: list[Tok] = field(default_factory=list)
    pending_nl: bool = False


@dataclass
class ParamInfo:
    name: str
    start: int
    end: int
    domain: list[Tok]
    domain_start: int
    domain_end: int


def _path_ending(stmt: Sequence[Tok], i: int) -> tuple[str, ...]:
    """The dotted name that ends at ``stmt[i]``."""
    if i < 0 or i >= len(stmt) or stmt[i].kind != "name":
        return ()
    parts = [stmt[i].text]
    while i >= 2 and stmt[i - 1].text == "." and stmt[i - 2].kind == "name":
        i -= 2
        parts.insert(0, stmt[i].text)
    return tuple(parts)


def _path_starting(stmt: Sequence[Tok], i: int) -> tuple[str, ...]:
    if i >= len(stmt) or stmt[i].kind != "name":
        return ()
    parts = [stmt[i].text]
    while i + 2 < len(stmt) and stmt[i + 1].text == "." and stmt[i + 2].kind == "name":
        i += 2
        parts.append(stmt[i].text)
    return tuple(parts)


def _continues(prev: Tok, tok: Tok) -> bool:
    return (prev.kind in ("name", "op") and prev.text in _CONT_AFTER) or tok.text in _CONT_BEFORE


def _classify(frames: list[Frame], f: Frame) -> Frame:
    """The frame that a `{` opens, from the statement before it."""
    st = f.stmt
    first = st[0].text if st else ""
    if st and st[-1].text == "has":
        return Frame("has", base=_path_ending(st, len(st) - 2))
    if f.kind == "top":
        if first == "task":
            return Frame("task", name="".join(t.text for t in st[1:]))
        if first == "app":
            return Frame("app", name=st[1].text if len(st) > 1 else None)
        return Frame("block")
    if f.kind == "task" and first in ("params", "constraints", "given", "expect", "forbid"):
        return Frame(first)
    if f.kind == "task" and first == "device":
        return Frame("device")
    if f.kind == "expect" and first == "subgoal":
        return Frame("expect")
    if f.kind == "app":
        if first == "record":
            return Frame("record", name=st[1].text if len(st) > 1 else None)
        if first == "settings":
            return Frame("settings")
        if first == "probe":
            return Frame("probe_map", base=_path_starting(st, 1))
    if f.kind in ("task", "app", "top", "block"):
        return Frame("block")
    target: tuple[str, ...] = ()
    if f.kind == "given" and st and st[-1].text in ("=", "+="):
        target = _path_starting(st, 0)
    elif f.kind == "list":
        target = f.base  # `app.collection = [ {...}, ... ]` in `given`
    return Frame("record_lit", base=target)


def scan(tokens: Iterable[Tok], params: list[ParamInfo] | None = None) -> list[Frame]:
    """Read tokens into the stack of open frames; collect parameter declarations seen."""
    frames = [Frame("top")]

    def end_statement(f: Frame) -> None:
        st = f.stmt
        if (
            params is not None
            and f.kind == "params"
            and len(st) >= 2
            and st[0].kind == "name"
            and st[1].text == ":"
        ):
            domain = st[2:]
            params.append(
                ParamInfo(
                    st[0].text,
                    st[0].start,
                    st[0].end,
                    domain,
                    domain[0].start if domain else st[1].end,
                    domain[-1].end if domain else st[1].end,
                )
            )
        f.stmt = []

    for tok in tokens:
        if tok.kind == "comment":
            continue
        f = frames[-1]
        if tok.kind == "nl":
            f.pending_nl = True
            continue
        if f.pending_nl:
            f.pending_nl = False
            if f.kind in _BLOCKS and f.stmt and not _continues(f.stmt[-1], tok):
                end_statement(f)
        t = tok.text
        if tok.kind == "op" and t == "{":
            new = _classify(frames, f)
            f.stmt.append(tok)
            frames.append(new)
        elif tok.kind == "op" and t in _OPEN_KINDS:
            prev = f.stmt[-1].text if f.stmt else ""
            agg = prev if t == "(" and prev in _AGGREGATES else None
            base: tuple[str, ...] = ()
            if t == "[" and f.kind == "given" and f.stmt and f.stmt[-1].text == "=":
                base = _path_starting(f.stmt, 0)
            f.stmt.append(tok)
            frames.append(Frame(_OPEN_KINDS[t], agg=agg, base=base))
        elif tok.kind == "op" and t in "}])":
            if len(frames) > 1:
                end_statement(frames.pop())
            frames[-1].stmt.append(tok)
        elif tok.kind == "op" and t == "," and f.kind not in _BLOCKS:
            if f.kind == "paren" and f.agg and f.items == 0:
                f.base = _path_starting(f.stmt, 0)
            end_statement(f)
            f.items += 1
        else:
            f.stmt.append(tok)
    if params is not None:
        for f in reversed(frames):
            end_statement(f)
    return frames


@dataclass
class Cursor:
    """What surrounds an offset: the open frames, the statement so far, the word being typed."""

    offset: int
    in_text: bool  # inside a string or a comment
    prefix: str
    prefix_start: int
    chain: tuple[str, ...]  # `a.b.` before the word: ("a", "b")
    frames: list[Frame]
    params: list[ParamInfo]
    task_id: str | None
    app_name: str | None

    @property
    def frame(self) -> Frame:
        return self.frames[-1]

    @property
    def stmt(self) -> list[Tok]:
        return self.frames[-1].stmt

    def param(self, name: str) -> ParamInfo | None:
        return next((p for p in self.params if p.name == name), None)


def cursor_at(text: str, offset: int) -> Cursor:
    """The context of ``offset`` in ``text``, read from the enclosing declaration."""
    offset = max(0, min(offset, len(text)))
    start, end = decl_bounds(text, offset)
    tokens = tokenize(text, start, end)
    before: list[Tok] = []
    in_text = False
    prefix_start = offset
    for tok in tokens:
        if tok.end <= offset:
            before.append(tok)
            continue
        if tok.start < offset:
            if tok.kind in ("string", "comment"):
                in_text = True
            elif tok.kind == "name":
                prefix_start = tok.start
        break
    if before and before[-1].end == offset:
        last = before[-1]
        if last.kind == "comment" or (
            last.kind == "string" and (len(last.text) == 1 or not last.text.endswith('"'))
        ):
            in_text = True
        elif last.kind in ("name", "num"):
            prefix_start = last.start
            before.pop()
    chain: tuple[str, ...] = ()
    sig = [t for t in before if t.kind not in ("nl", "comment")]
    if sig and sig[-1].kind == "op" and sig[-1].text == ".":
        chain = _path_ending(sig, len(sig) - 2)
        if chain:
            cut = sig[len(sig) - 2 * len(chain)].start  # the chain's first name
            before = [t for t in before if t.start < cut]
    frames = scan(before)
    inner = frames[-1]
    continued = bool(inner.stmt) and _continues(inner.stmt[-1], Tok("ws", "", 0, 0))
    if inner.pending_nl and inner.kind in _BLOCKS and not continued:
        inner.stmt = []  # the cursor starts a new line: a new statement
    params: list[ParamInfo] = []
    task_id = frames[1].name if len(frames) > 1 and frames[1].kind == "task" else None
    app_name = frames[1].name if len(frames) > 1 and frames[1].kind == "app" else None
    if task_id is not None:
        scan(tokens, params)
    return Cursor(
        offset,
        in_text,
        text[prefix_start:offset],
        prefix_start,
        chain,
        frames,
        params,
        task_id,
        app_name,
    )


# ---------------------------------------------------------------- the model of a document
@dataclass
class View:
    """What completion and hover know: the app models and this document's typed tasks."""

    apps: Mapping[str, ir.AppModel]
    params: Mapping[str, Mapping[str, ir.Type | None]]
    doc_path: str

    def collection_record(self, path: Sequence[str]) -> tuple[ir.AppModel, ir.RecordDef] | None:
        if len(path) != 2:
            return None
        app = self.apps.get(path[0])
        coll = app.collection(path[1]) if app else None
        rec = app.record(coll.record) if app and coll else None
        return (app, rec) if app and rec else None


@dataclass
class Scope:
    """The record whose fields are names here (inside `where`, `has`, record literals)."""

    app: ir.AppModel | None = None
    record: ir.RecordDef | None = None
    key_position: bool = False  # a record literal's field name or a `has` item's field


def scope_at(cur: Cursor, view: View) -> Scope:
    """The record in scope at the cursor: of the innermost `has`, `where`, record literal..."""
    for f in reversed(cur.frames):
        st = f.stmt
        if f.kind == "has":
            found = view.collection_record(f.base)
            if found:
                return Scope(found[0], found[1], key_position=not st)
            return Scope()
        if f.kind == "record_lit":
            found = view.collection_record(f.base)
            if found and (not st or (len(st) == 1 and st[0].kind == "name")):
                return Scope(found[0], found[1], key_position=True)
            continue  # a value: the names of the scope outside
        if f.kind == "paren" and f.agg in ("sum", "min", "max", "avg") and f.items == 1:
            found = view.collection_record(f.base)
            if found:
                return Scope(found[0], found[1], key_position=True)
        wheres = [i for i, t in enumerate(st) if t.text == "where" and t.kind == "name"]
        if wheres:
            w = wheres[-1]
            for j in range(w - 1, -1, -1):
                found = view.collection_record(_path_ending(st, j))
                if found:
                    return Scope(found[0], found[1])
            return Scope()
        if f.kind in _BLOCKS:
            break
    return Scope()


def param_type(
    name: str, cur: Cursor, view: View
) -> tuple[ir.Type | None, ir.RecordDef | None, ir.AppModel | None]:
    """A parameter's type, and its record definition when it ranges over records."""
    typ = view.params.get(cur.task_id or "", {}).get(name)
    if typ is not None and typ.name == "record" and typ.record:
        app_name, _, rec_name = typ.record.partition(".")
        app = view.apps.get(app_name)
        rec = app.record(rec_name) if app else None
        return typ, rec, app
    if typ is not None:
        return typ, None, None
    info = cur.param(name)
    if info is not None:
        dom = info.domain
        if len(dom) >= 3 and dom[0].text == "one" and dom[1].text == "of":
            found = view.collection_record(_path_starting(dom, 2))
            if found:
                t = ir.Type(name="record", record=f"{found[0].name}.{found[1].name}")
                return t, found[1], found[0]
    return None, None, None


# ---------------------------------------------------------------- keyword docs
KEYWORDS: dict[str, str] = {
    "task": "`task ID { ... }` declares a task: its apps, goal, parameters, initial state and checks.",
    "app": "`app NAME { ... }` declares an app model: records, collections, settings and probes.",
    "kind": "`kind app|mini_app|cross_app`: one app, a mini-app in its host, or several apps.",
    "apps": "`apps a, b in host`: the apps the task uses; every app it names must be listed.",
    "goal": '`goal "..."`: the instruction given to the agent; `{param}` inserts a parameter.',
    "params": "`params { name: domain }`: values drawn for each episode.",
    "constraints": "`constraints { expr }`: conditions the drawn parameters must satisfy.",
    "given": "`given { ... }`: the initial state: clock, foreground app, settings and records.",
    "expect": "`expect { clause }`: what must hold at the end of the episode (the verifier).",
    "forbid": "`forbid { event }`: events that must never happen (safety).",
    "outcome": "`outcome complete|infeasible`: whether the task can be done at all.",
    "budget": "`budget N steps [DURATION]`: the step (and time) budget of an episode.",
    "device": "`device { key value }`: hints for the device backend (min_sdk, locale, ...).",
    "tags": '`tags "a", "b"`: free labels for filtering the library.',
    "difficulty": "`difficulty easy|medium|hard`.",
    "revision": "`revision N`: bump when the task's meaning changes.",
    "require": "`require status`: the agent must end with a `status` action.",
    "status": "`require status`: the agent must end with a `status` action.",
    "verify_only": "`verify_only`: the task checks a state but is not used to train on.",
    "one": "`one of [...]` or `one of app.collection [where P]`: a parameter domain.",
    "of": "`one of ...`, `list of T`.",
    "where": "`where P`: keeps the records (of the collection before it) that satisfy `P`.",
    "has": "`C has { field op value, ... }`: some record of `C` matches every item.",
    "exists": "`exists C [where P]`: some record of collection `C` (satisfying `P`) exists.",
    "none": "`none C [where P]`: no record of collection `C` satisfies `P`.",
    "all": "`all C where P`: every record of collection `C` satisfies `P`.",
    "count": "`count(C [where P])`: the number of records of `C` (satisfying `P`).",
    "sum": "`sum(C [where P], field)`: the sum of a numeric field over records.",
    "min": "`min(C [where P], field)`: the smallest value of a field over records.",
    "max": "`max(C [where P], field)`: the largest value of a field over records.",
    "avg": "`avg(C [where P], field)`: the average of a numeric field over records.",
    "within": "`a == b within T`: equal up to a tolerance (numbers, times, durations).",
    "fuzzy": "`a ~ b fuzzy R`: text similarity threshold R, 0 < R <= 1.",
    "unordered": "`a == b unordered`: compare lists as multisets.",
    "exact": "`a == b exact`: compare texts without normalization.",
    "contains": "`a contains b`: a list holds an item, or a text holds a substring.",
    "matches": '`a matches "regex"`: the text matches a regular expression.',
    "in": "`a in b`: membership in a list; `T in LOW .. HIGH` is a range domain.",
    "unchanged": "`unchanged a.b, ...`: these collections, settings or apps did not change.",
    "only": "`only a.b, ... changed`: nothing outside these changed.",
    "itself": "`changes NAME by itself`: it changes with no action (the service, other "
    "people, the time), so what watches the whole app, or any change, does not watch it.",
    "removes": "`removes C only on SELECTOR, ...` (`only by`, `nowhere`): records of the "
    "collection are removed only from such a step; an episode that takes none removes none.",
    "adds": "`adds C only on SELECTOR, ...` (`only by`, `nowhere`): records are added to the "
    "collection only from such a step; an episode that takes none adds none.",
    "undoes": "`undoes C only on SELECTOR, ...` (`only by`, `nowhere`): an update brings a "
    "record of the collection back to what it held earlier only from such a step; in an "
    "episode that takes none, an update made shows in its record at the end.",
    "changed": "`changed C`: any change to a collection or setting (also `only ... changed`).",
    "trace": "`trace PRED`: a check over the whole trajectory, not just the final state.",
    "eventually": "`trace eventually E`: the event happens at some step.",
    "never": "`trace never E`: the event happens at no step.",
    "before": "`trace E1 before E2`: E1 happened at an earlier step than the first E2.",
    "then": "`trace E1 then E2`: E2 happens at a later step than E1.",
    "at": "`trace at most N times E`.",
    "most": "`trace at most N times E`.",
    "times": "`trace at most N times E`.",
    "action": "`action NAME [on SELECTOR]`: the agent performs the action.",
    "on": "`action NAME on SELECTOR`: on an element matching the selector.",
    "shown": "`shown SELECTOR`: the screen shows a matching element.",
    "foreground": '`foreground APP [activity "..."]`: the app is in the foreground.',
    "activity": '`activity "name"`: an Android activity of the app.',
    "added": "`added C [where P]`: a record is added to collection `C`.",
    "updated": "`updated C [where P]`: a record of `C` changes.",
    "deleted": "`deleted C [where P]`: a record is removed from `C`.",
    "any": "`added any`, `deleted any`, ...: in any collection (or setting).",
    "holds": "`holds (E)`: the expression is true in the state after the step.",
    "ui": "`ui element|no element|foreground ...`: a check on the final screen.",
    "element": "`ui element SELECTOR [STATE ...]`: a matching element is on screen.",
    "no": "`ui no element SELECTOR`: no matching element is on screen.",
    "subgoal": '`subgoal "name" [weight W] { clauses }`: a milestone for partial credit.',
    "weight": "`weight W`: the relative weight of a clause or subgoal (default 1).",
    "now": '`now`: the current time; in `given`, `now DATETIME tz "Zone"` sets the clock.',
    "tz": '`tz "Area/City"`: the time zone of the clock.',
    "noise": "`C += noise N [where P]`: add N generated records (that satisfy `P`).",
    "answer": "`answer`: the agent's final answer (information tasks).",
    "record": "`record Name { field: type ... }`: a record type of the app.",
    "collection": "`collection name: Record`: a collection of records of the app.",
    "settings": "`settings { name: type = default }`: the app's settings.",
    "probe": "`probe target: source`: how to read a collection or setting on a device.",
    "package": '`package "com.example"`: the Android package (also a selector attribute).',
    "label": '`label "Name"`: the app\'s name on the launcher.',
    "host": "`host APP`: this app is a mini-app running inside APP.",
    "key": "`key`: the field identifies a record.",
    "list": "`list of T`: a list type.",
    "enum": "`enum(a, b, c)`: one of the listed names (written as strings in values).",
    "and": "Boolean and.",
    "or": "Boolean or.",
    "not": "Boolean negation (in `ui element`, a negated state).",
    "implies": "`a implies b`: `not a or b`.",
    "true": "The boolean true.",
    "false": "The boolean false.",
    "null": "No value (for optional fields, `T?`).",
    "steps": "`budget N steps`.",
    "text": '`text "..."`: selector on the element\'s text (also the text type).',
    "id": '`id "..."`: selector on the resource-id.',
    "desc": '`desc "..."`: selector on the content-desc.',
    "class": '`class "..."`: selector on the widget class.',
    "xpath": '`xpath "..."`: an XPath over the UI hierarchy.',
    "checked": "UI state: checked.",
    "selected": "UI state: selected.",
    "focused": "UI state: focused.",
    "enabled": "UI state: enabled.",
    "clickable": "UI state: clickable.",
    "scrollable": "UI state: scrollable.",
    "content": '`content "content://..."`: a probe reading an Android content provider.',
    "setting": '`setting system|secure|global "key"`: a probe reading an Android setting.',
    "sqlite": '`sqlite "/path/db" table "name"`: a probe reading an SQLite table.',
    "table": '`sqlite "/path/db" table "name"`.',
    "files": '`files "/sdcard/**/*"`: a probe reading files matching a glob.',
    "service": '`service "wifi"`: a probe reading the records a system service keeps (the '
    'saved Wi-Fi networks; `"bluetooth_manager"`: the bonded Bluetooth devices).',
    "prefs": '`prefs "/data/data/PKG/shared_prefs/F.xml" key "k" [FORM] [{ value = "stored" }]`: '
    "a probe reading a setting from an app's shared preferences.",
}

TOP_ITEMS = ("task", "app")
TASK_ITEMS = (
    "kind", "apps", "goal", "params", "constraints", "given", "expect", "forbid", "outcome",
    "budget", "device", "tags", "difficulty", "revision", "require", "verify_only",
)  # fmt: skip
APP_ITEMS = (
    "package", "label", "host", "record", "collection", "settings", "changes", "removes", "adds",
    "undoes", "probe",
)  # fmt: skip
CLAUSE_STARTS = ("unchanged", "only", "trace", "ui", "subgoal")
EXPR_STARTS = (
    "exists", "none", "all", "count", "sum", "min", "max", "avg", "not", "answer", "now",
    "true", "false", "null",
)  # fmt: skip
COMPARATORS = ("==", "!=", "<", "<=", ">", ">=", "~", "in", "contains", "matches")
OPTIONS = ("within", "fuzzy", "unordered", "exact")
LOGIC = ("and", "or", "implies")
EVENTS = ("action", "shown", "foreground", "added", "updated", "deleted", "changed", "holds")
SELECTOR_ATTRS = ("text", "id", "desc", "class", "xpath", "package")
UI_STATES = ("checked", "selected", "focused", "enabled", "clickable", "scrollable")
PROBE_SOURCES = ("content", "setting", "sqlite", "files", "service", "ui", "prefs")
TYPE_NAMES = (*ir.SCALAR_TYPES, "enum", "list")
_NOT_VALUES = frozenset(
    {"and", "or", "implies", "not", "where", "in", "contains", "matches", "has", "within"}
    | {"fuzzy", "of", "one", "weight", "exists", "none", "all", "eventually", "never"}
    | {"before", "then", "trace", "only", "unchanged", "noise"}
)


# ---------------------------------------------------------------- completion
class _Items:
    def __init__(self) -> None:
        self.items: dict[tuple[str, lsp.CompletionItemKind], lsp.CompletionItem] = {}

    def add(
        self,
        label: str,
        kind: lsp.CompletionItemKind,
        rank: int = 5,
        detail: str | None = None,
        doc: str | None = None,
        insert: str | None = None,
    ) -> None:
        key = (label, kind)
        if key in self.items:
            return
        self.items[key] = lsp.CompletionItem(
            label=label,
            kind=kind,
            detail=detail,
            documentation=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=doc)
            if doc
            else None,
            sort_text=f"{rank}_{label}",
            insert_text=insert,
        )

    def keywords(self, words: Iterable[str], rank: int = 5) -> None:
        for w in words:
            kind = lsp.CompletionItemKind.Keyword
            if not w[0].isalpha():
                kind = lsp.CompletionItemKind.Operator
            self.add(w, kind, rank, doc=KEYWORDS.get(w))

    def done(self) -> list[lsp.CompletionItem]:
        return list(self.items.values())


def _field_detail(f: ir.FieldDef) -> str:
    text = str(f.type)
    if f.key:
        text += " key"
    if f.has_default:
        text += f" = {_show_value(f.default)}"
    return text


def _show_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    return json.dumps(value, ensure_ascii=False)


def _add_apps(out: _Items, view: View, rank: int = 3) -> None:
    for name, app in view.apps.items():
        out.add(
            name,
            lsp.CompletionItemKind.Module,
            rank,
            detail=f"app {app.label or name}" + (f" (in {app.host})" if app.host else ""),
        )


def _add_members(out: _Items, app: ir.AppModel) -> None:
    for c in app.collections:
        out.add(
            c.name,
            lsp.CompletionItemKind.Struct,
            0,
            detail=f"collection of {c.record}",
            doc=_record_doc(app, app.record(c.record)),
        )
    for s in app.settings:
        out.add(s.name, lsp.CompletionItemKind.Property, 1, detail=f"setting: {_field_detail(s)}")


def _add_fields(out: _Items, rec: ir.RecordDef, app: ir.AppModel | None, rank: int = 0) -> None:
    owner = f"{app.name}.{rec.name}" if app else rec.name
    for f in rec.fields:
        out.add(f.name, lsp.CompletionItemKind.Field, rank, detail=f"{_field_detail(f)} ({owner})")


def _add_params(out: _Items, cur: Cursor, view: View, rank: int = 1) -> None:
    for p in cur.params:
        typ = param_type(p.name, cur, view)[0]
        out.add(p.name, lsp.CompletionItemKind.Variable, rank, detail=f"param: {typ or '?'}")


def _value_like(tok: Tok) -> bool:
    if tok.kind in ("num", "string"):
        return True
    if tok.kind == "name":
        return tok.text not in _NOT_VALUES
    return tok.text in (")", "]", "}")


def _enum_values(out: _Items, typ: ir.Type | None) -> None:
    if typ is not None and typ.name == "enum":
        for m in typ.members or ():
            out.add(f'"{m}"', lsp.CompletionItemKind.EnumMember, 0, insert=f'"{m}"')


def _typed_name(st: Sequence[Tok], i: int, scope: Scope, cur: Cursor, view: View) -> ir.Type | None:
    """The type of the name (or `app.setting`, `param.field`) that ends at ``st[i]``."""
    path = _path_ending(st, i)
    if len(path) == 1 and scope.record is not None:
        f = scope.record.field(path[0])
        if f is not None:
            return f.type
    if len(path) == 2:
        app = view.apps.get(path[0])
        s = app.setting(path[1]) if app else None
        if s is not None:
            return s.type
        _, rec, _ = param_type(path[0], cur, view)
        f2 = rec.field(path[1]) if rec else None
        if f2 is not None:
            return f2.type
    return None


def _expression(out: _Items, cur: Cursor, view: View, scope: Scope, tail: Sequence[Tok]) -> None:
    last = tail[-1] if tail else None
    infix = last is not None and _value_like(last)
    if scope.record is not None:
        _add_fields(out, scope.record, scope.app, 5 if infix else 0)
    if infix:
        out.keywords(COMPARATORS, 1)
        out.keywords(OPTIONS, 2)
        out.keywords(LOGIC, 2)
        out.keywords(("has", "where", "weight"), 4)
        return
    if last is not None and last.text in COMPARATORS and len(tail) >= 2:
        _enum_values(out, _typed_name(tail, len(tail) - 2, scope, cur, view))
    _add_params(out, cur, view, 1)
    _add_apps(out, view, 3)
    out.keywords(EXPR_STARTS, 4)
    if scope.record is not None:
        out.keywords(COMPARATORS, 6)
        out.keywords(OPTIONS, 6)


def _events(out: _Items, cur: Cursor, view: View, tail: Sequence[Tok]) -> None:
    last = tail[-1].text if tail else None
    if last is None or last in ("eventually", "never", "times", "before", "then"):
        out.keywords(EVENTS, 0)
    elif last in ("added", "updated", "deleted", "changed"):
        _add_apps(out, view, 0)
        out.keywords(("any",), 1)
    elif last == "action":
        for a in ACTIONS:
            out.add(a, lsp.CompletionItemKind.Function, 0, detail="action")
    elif last in ("on", "shown"):
        out.keywords(SELECTOR_ATTRS, 0)
    elif last == "foreground":
        _add_apps(out, view, 0)
    elif last == "at":
        out.keywords(("most",), 0)
    elif last == "most":
        return
    elif len(tail) >= 2 and tail[-2].text == "most":
        out.keywords(("times",), 0)
    elif last == "(":
        _expression(out, cur, view, Scope(), ())
    else:
        out.keywords(("before", "then", "where", "on", "activity", "weight"), 0)
        out.keywords(SELECTOR_ATTRS, 1)


def _trace(out: _Items, cur: Cursor, view: View, st: Sequence[Tok]) -> None:
    if len(st) == 1:
        out.keywords(("eventually", "never", "at"), 0)
        out.keywords(EVENTS, 1)
        return
    _events(out, cur, view, st[1:])


def _ui(out: _Items, st: Sequence[Tok], view: View) -> None:
    last = st[-1].text
    if len(st) == 1:
        out.keywords(("element", "no", "foreground"), 0)
    elif last == "no":
        out.keywords(("element",), 0)
    elif last == "foreground":
        _add_apps(out, view, 0)
    elif st[1].text in ("element", "no"):
        if st[-1].kind == "string":
            out.keywords(SELECTOR_ATTRS, 0)
            if st[1].text == "element":
                out.keywords((*UI_STATES, "not"), 1)
        elif last in UI_STATES or last == "not":
            out.keywords(UI_STATES, 0)
            out.keywords(("not", "weight"), 1)
        else:
            out.keywords(SELECTOR_ATTRS, 0)
    else:
        out.keywords(("activity", "weight"), 0)


def complete(text: str, offset: int, view: View) -> list[lsp.CompletionItem]:
    """Completion items at ``offset``."""
    cur = cursor_at(text, offset)
    if cur.in_text:
        return []
    out = _Items()
    if cur.chain:
        _members(out, cur, view)
        return out.done()
    f = cur.frame
    st = cur.stmt
    last = st[-1].text if st else None
    scope = scope_at(cur, view)
    kind = f.kind
    if kind == "has":
        if scope.key_position and scope.record is not None:
            _add_fields(out, scope.record, scope.app, 0)
        elif len(st) == 1 and st[0].kind == "name":
            out.keywords(COMPARATORS, 0)
        else:
            _expression(out, cur, view, scope, st)
        return out.done()
    if kind == "record_lit":
        if not st:
            if scope.key_position and scope.record is not None:
                _add_fields(out, scope.record, scope.app, 0)
        elif len(st) >= 2:
            _expression(out, cur, view, scope, st[2:])
        return out.done()
    if kind == "paren" and scope.key_position and scope.record is not None:
        _add_fields(out, scope.record, scope.app, 0)
        return out.done()
    if any(t.text == "where" and t.kind == "name" for t in st) and kind in (
        "params", "constraints", "given", "expect", "forbid", "paren", "list",
    ):  # fmt: skip
        where = max(i for i, t in enumerate(st) if t.text == "where")
        _expression(out, cur, view, scope, st[where + 1 :])
        return out.done()
    if kind == "top":
        if not st:
            out.keywords(TOP_ITEMS, 0)
    elif kind == "task":
        _task_items(out, cur, view, st)
    elif kind == "app":
        _app_items(out, cur, view, st)
    elif kind in ("record", "settings"):
        if last in (":", "of"):
            for t in TYPE_NAMES:
                out.add(t, lsp.CompletionItemKind.TypeParameter, 0, detail="type")
        elif st and st[-1].kind == "name" and len(st) >= 3:
            out.keywords(("key", "?", "="), 0)
    elif kind == "params":
        _params_items(out, cur, view, st)
    elif kind == "given":
        _given_items(out, cur, view, st)
    elif kind == "expect":
        if not st:
            out.keywords(CLAUSE_STARTS, 2)
            _expression(out, cur, view, scope, ())
        elif st[0].text == "trace":
            _trace(out, cur, view, st)
        elif st[0].text == "ui":
            _ui(out, st, view)
        elif st[0].text in ("unchanged", "only"):
            if last in ("unchanged", "only", ","):
                _add_apps(out, view, 0)
            elif st[0].text == "only":
                out.keywords(("changed",), 0)
        elif st[0].text == "subgoal":
            out.keywords(("weight",), 0)
        else:
            _expression(out, cur, view, scope, st)
            if st and _value_like(st[-1]):
                out.keywords(("weight",), 3)
    elif kind == "forbid":
        _events(out, cur, view, st)
    elif kind in ("constraints", "paren", "list"):
        _expression(out, cur, view, scope, st)
    elif kind == "device" and not st:
        for k, t in DEVICE_KEYS.items():
            out.add(k, lsp.CompletionItemKind.Property, 0, detail=t)
    return out.done()


def _members(out: _Items, cur: Cursor, view: View) -> None:
    chain = cur.chain
    if len(chain) != 1:
        return
    head = chain[0]
    if cur.frame.kind == "app" and cur.stmt and cur.stmt[0].text == "changes":
        app = view.apps.get(cur.app_name or "")
        rec = app.record_of(head) if app is not None else None
        for f in rec.fields if rec is not None else ():
            if not f.key:  # a record never changes its key
                out.add(f.name, lsp.CompletionItemKind.Field, 0, detail=_field_detail(f))
        return
    scope = scope_at(cur, view)
    if scope.record is not None and scope.record.field(head) is not None:
        return  # a field of the record in scope: a scalar, no members
    if cur.param(head) is not None:
        typ, rec, app = param_type(head, cur, view)
        if rec is not None:
            _add_fields(out, rec, app, 0)
        elif typ is not None and typ.name == "record":
            for name, t in typ.fields or ():
                out.add(name, lsp.CompletionItemKind.Field, 0, detail=str(t))
        return
    app = view.apps.get(head)
    if app is not None:
        _add_members(out, app)


def _task_items(out: _Items, cur: Cursor, view: View, st: Sequence[Tok]) -> None:
    if not st:
        out.keywords(TASK_ITEMS, 0)
        return
    first, last = st[0].text, st[-1].text
    if first == "kind" and len(st) == 1:
        for k in KINDS:
            out.add(k, lsp.CompletionItemKind.EnumMember, 0)
    elif first == "difficulty" and len(st) == 1:
        for k in DIFFICULTIES:
            out.add(k, lsp.CompletionItemKind.EnumMember, 0)
    elif first == "outcome" and len(st) == 1:
        for k in OUTCOMES:
            out.add(k, lsp.CompletionItemKind.EnumMember, 0)
    elif first == "apps":
        if last in ("apps", ",", "in"):
            _add_apps(out, view, 0)
        else:
            out.keywords(("in",), 0)
    elif first == "require":
        out.keywords(("status",), 0)
    elif first == "budget" and len(st) == 2:
        out.keywords(("steps",), 0)


def _app_items(out: _Items, cur: Cursor, view: View, st: Sequence[Tok]) -> None:
    if not st:
        out.keywords(APP_ITEMS, 0)
        return
    first, last = st[0].text, st[-1].text
    app = view.apps.get(cur.app_name or "")
    if first == "host" and len(st) == 1:
        _add_apps(out, view, 0)
    elif first == "collection" and last == ":" and app is not None:
        for r in app.records:
            out.add(r.name, lsp.CompletionItemKind.Class, 0, detail="record")
    elif first == "changes" and app is not None:
        _changes_items(out, app, st)
    elif first in ("removes", "adds", "undoes") and app is not None:
        _removes_items(out, app, st)
    elif first == "probe":
        if len(st) == 1 and app is not None:
            _add_members(out, app)
        elif last == ":":
            out.keywords(PROBE_SOURCES, 0)
        elif last == "setting":
            for ns in PROBE_NAMESPACES:
                out.add(ns, lsp.CompletionItemKind.EnumMember, 0)
        elif st[-1].kind == "string" and len(st) > 1 and st[-2].text == "prefs":
            out.keywords(("key",), 0)
        elif st[-1].kind == "string" and len(st) > 3 and st[-4].text == "prefs":
            out.keywords(PREFS_FORMS, 0)
        elif last == "ui" or st[-1].kind == "string":
            out.keywords(SELECTOR_ATTRS, 0)
            if last != "ui" and any(t.text == "sqlite" for t in st):
                out.keywords(("table",), 0)


def _changes_items(out: _Items, app: ir.AppModel, st: Sequence[Tok]) -> None:
    """`changes NAME, ... only on|by SELECTOR, ...`, `changes NAME, ... nowhere` or
    `changes NAME, ... by itself`."""
    last = st[-1]
    words = [t.text for t in st if t.kind == "name"]
    if _scope_items(out, st) or "itself" in words[1:]:
        return
    if last.text == "by":
        out.keywords(("itself",), 0)
    elif last.text in ("changes", ","):
        _add_members(out, app)
    elif last.kind == "name":
        out.keywords(("only", "nowhere", "by"), 0)


def _scope_items(out: _Items, st: Sequence[Tok]) -> bool:
    """The part of a `changes`, `removes` or `adds` line after its names: `only on|by SELECTOR, ...`
    or `nowhere`. True: the line is there (what follows is offered, if anything)."""
    last = st[-1]
    words = [t.text for t in st if t.kind == "name"]
    if last.text == "only":
        out.keywords(("on", "by"), 0)
    elif "only" in words[1:]:
        if last.text in ("on", "by", ","):
            out.keywords(SELECTOR_ATTRS, 0)
    elif "nowhere" not in words[1:]:
        return False
    return True


def _removes_items(out: _Items, app: ir.AppModel, st: Sequence[Tok]) -> None:
    """`removes COLLECTION, ... only on|by SELECTOR, ...` or `removes COLLECTION, ...
    nowhere` (and `adds`, `undoes`): collections whose records have a key."""
    last = st[-1]
    if _scope_items(out, st):
        return
    if last.text in ("removes", "adds", "undoes", ","):
        for c in app.collections:
            rec = app.record(c.record)
            if rec is not None and rec.key_field() is not None:
                out.add(
                    c.name,
                    lsp.CompletionItemKind.Struct,
                    0,
                    detail=f"collection of {c.record}",
                    doc=_record_doc(app, rec),
                )
    elif last.kind == "name":
        out.keywords(("only", "nowhere"), 0)


def _params_items(out: _Items, cur: Cursor, view: View, st: Sequence[Tok]) -> None:
    last = st[-1].text if st else None
    if len(st) == 2 and last == ":":
        for g, t in GENERATORS.items():
            out.add(g, lsp.CompletionItemKind.Function, 0, detail=f"generator -> {t}")
        out.add("one of", lsp.CompletionItemKind.Keyword, 1, doc=KEYWORDS["one"])
        for t in RANGE_TYPES:
            out.add(t, lsp.CompletionItemKind.TypeParameter, 2, detail=f"{t} in LOW .. HIGH")
    elif len(st) == 3 and last == "one":
        out.keywords(("of",), 0)
    elif len(st) == 4 and last == "of":
        _add_apps(out, view, 0)
    elif len(st) == 3 and last in RANGE_TYPES:
        out.keywords(("in",), 0)
    elif len(st) >= 5 and st[2].text == "one" and st[3].text == "of" and st[4].kind == "name":
        out.keywords(("where",), 0)
    elif len(st) >= 4 and st[3].text in ("in", ".."):
        _expression(out, cur, view, Scope(), st[4:])


def _given_items(out: _Items, cur: Cursor, view: View, st: Sequence[Tok]) -> None:
    if not st:
        out.keywords(("now", "foreground"), 0)
        _add_apps(out, view, 1)
        return
    first = st[0].text
    if first == "foreground":
        if len(st) == 1:
            _add_apps(out, view, 0)
        else:
            out.keywords(("activity",), 0)
        return
    if first == "now":
        if len(st) >= 2 and _value_like(st[-1]):
            out.keywords(("tz",), 0)
        elif len(st) == 1:
            _expression(out, cur, view, Scope(), ())
        return
    ops = [i for i, t in enumerate(st) if t.kind == "op" and t.text in ("=", "+=")]
    if not ops:
        if st[-1].kind == "name":
            out.keywords(("=", "+="), 0)
        return
    tail = st[ops[0] + 1 :]
    if st[ops[0]].text == "+=" and not tail:
        out.keywords(("noise",), 0)
    if tail and tail[0].text == "noise":
        if len(tail) == 2:
            out.keywords(("where",), 0)
        return
    _expression(out, cur, view, Scope(), tail)


# ---------------------------------------------------------------- symbols under the cursor
@dataclass
class Symbol:
    kind: str  # app collection setting field param record keyword
    name: str
    markdown: str
    span: Span | None = None  # the declaration, in an app model file or this document
    local: tuple[int, int] | None = None  # the declaration's name, in the current text


def word_at(text: str, offset: int) -> tuple[int, int] | None:
    """The bounds of the name at (or just before) ``offset``."""
    n = len(text)
    if offset > n:
        return None
    i = offset
    if i < n and (text[i].isalnum() or text[i] == "_") and text[i].isascii():
        pass
    elif i > 0 and (text[i - 1].isalnum() or text[i - 1] == "_") and text[i - 1].isascii():
        i -= 1
    else:
        return None
    start = i
    while (
        start > 0
        and text[start - 1].isascii()
        and (text[start - 1].isalnum() or text[start - 1] == "_")
    ):
        start -= 1
    end = i
    while end < n and text[end].isascii() and (text[end].isalnum() or text[end] == "_"):
        end += 1
    m = _WORD.fullmatch(text, start, end)
    return (start, end) if m else None


def _chain_before(text: str, start: int) -> tuple[list[str], int]:
    """The names before ``start`` joined to it by dots, and where the first one starts."""
    parts: list[str] = []
    i = start
    while True:
        j = i
        while j > 0 and text[j - 1] in " \t":
            j -= 1
        if j == 0 or text[j - 1] != ".":
            break
        j -= 1
        if j > 0 and text[j - 1] == ".":
            break  # `..` is a range
        while j > 0 and text[j - 1] in " \t":
            j -= 1
        k = j
        while k > 0 and text[k - 1].isascii() and (text[k - 1].isalnum() or text[k - 1] == "_"):
            k -= 1
        if k == j or not _WORD.fullmatch(text, k, j):
            break
        parts.insert(0, text[k:j])
        i = k
    return parts, i


def symbol_at(text: str, offset: int, view: View) -> tuple[Symbol | None, tuple[int, int] | None]:
    """The symbol named at ``offset`` and the bounds of its name in the text."""
    bounds = word_at(text, offset)
    if bounds is None:
        return None, None
    start, end = bounds
    word = text[start:end]
    chain, chain_start = _chain_before(text, start)
    cur = cursor_at(text, chain_start)
    if cur.in_text:
        return None, bounds
    return _resolve([*chain, word], cur, view, text, start), bounds


def _record_doc(app: ir.AppModel | None, rec: ir.RecordDef | None) -> str | None:
    if rec is None:
        return None
    owner = f"{app.name}.{rec.name}" if app else rec.name
    lines = [f"record `{owner}`", "", "```tasklang"]
    lines += [f"{f.name}: {_field_detail(f)}" for f in rec.fields]
    lines.append("```")
    return "\n".join(lines)


def _field_symbol(
    f: ir.FieldDef, rec: ir.RecordDef | None, app: ir.AppModel | None, what: str = "field"
) -> Symbol:
    owner = f"record `{app.name}.{rec.name}`" if app and rec else f"app `{app.name}`" if app else ""
    lines = [f"**{what}** `{f.name}`: `{f.type}`"]
    facts = []
    if f.key:
        facts.append("key")
    if f.type.optional:
        facts.append("optional")
    if f.has_default:
        facts.append(f"default `{_show_value(f.default)}`")
    if facts:
        lines.append(", ".join(facts))
    if owner:
        lines.append(f"of {owner}" if what == "field" else f"setting of {owner}")
    return Symbol(what, f.name, "\n\n".join(lines), f.span)


def _app_symbol(app: ir.AppModel) -> Symbol:
    lines = [f"**app** `{app.name}`" + (f" ({app.label})" if app.label else "")]
    if app.package:
        lines.append(
            f"package `{app.package}`" + (f", runs inside `{app.host}`" if app.host else "")
        )
    if app.collections:
        lines.append("collections: " + ", ".join(f"`{c.name}`" for c in app.collections))
    if app.settings:
        lines.append("settings: " + ", ".join(f"`{s.name}`" for s in app.settings))
    return Symbol("app", app.name, "\n\n".join(lines), app.span)


def _member_symbol(app: ir.AppModel, name: str) -> Symbol | None:
    coll = app.collection(name)
    if coll is not None:
        rec = app.record(coll.record)
        body = f"**collection** `{app.name}.{coll.name}`: records of `{coll.record}`"
        doc = _record_doc(app, rec)
        return Symbol("collection", name, body + ("\n\n" + doc if doc else ""), coll.span)
    s = app.setting(name)
    if s is not None:
        return _field_symbol(s, None, app, "setting")
    return None


def _param_symbol(info: ParamInfo, cur: Cursor, view: View, text: str) -> Symbol:
    typ, rec, app = param_type(info.name, cur, view)
    domain = " ".join(text[info.domain_start : info.domain_end].split())
    if len(domain) > 120:
        domain = domain[:117] + "..."
    lines = [f"**parameter** `{info.name}`: `{typ or '?'}`", f"domain: `{domain}`"]
    if info.domain and info.domain[0].text in GENERATORS:
        lines.append(f"generator `{info.domain[0].text}`")
    doc = _record_doc(app, rec)
    if doc:
        lines.append(doc)
    return Symbol("param", info.name, "\n\n".join(lines), local=(info.start, info.end))


def _resolve(parts: list[str], cur: Cursor, view: View, text: str, at: int) -> Symbol | None:
    head = parts[0]
    scope = scope_at(cur, view)
    if len(parts) == 1:
        if scope.record is not None:
            f = scope.record.field(head)
            if f is not None:
                return _field_symbol(f, scope.record, scope.app)
        info = cur.param(head)
        if info is not None:
            return _param_symbol(info, cur, view, text)
        declared = _declared_at(head, cur, view, at)
        if declared is not None:
            return declared
        app = view.apps.get(head)
        if app is not None:
            return _app_symbol(app)
        if head in DEVICE_KEYS and cur.frame.kind == "device" and not cur.stmt:
            return Symbol("keyword", head, f"**device setting** `{head}`: {DEVICE_KEYS[head]}")
        if head in GENERATORS and cur.frame.kind == "params":
            return Symbol(
                "keyword", head, f"**generator** `{head}`: values of type `{GENERATORS[head]}`"
            )
        if head in ACTIONS and cur.stmt and cur.stmt[-1].text == "action":
            return Symbol("keyword", head, f"**action** `{head}`")
        if head in KEYWORDS:
            return Symbol("keyword", head, KEYWORDS[head])
        return None
    if len(parts) == 2:
        info = cur.param(head)
        if info is not None and not (scope.record is not None and scope.record.field(head)):
            typ, rec, app2 = param_type(head, cur, view)
            if rec is not None:
                f = rec.field(parts[1])
                if f is not None:
                    sym = _field_symbol(f, rec, app2)
                    return sym
            if typ is not None and typ.name == "record":
                t = typ.field_type(parts[1])
                if t is not None:
                    return Symbol(
                        "field",
                        parts[1],
                        f"**field** `{parts[1]}`: `{t}`\n\nof parameter `{head}`",
                        local=(info.start, info.end),
                    )
            return None
        app = view.apps.get(head)
        if app is not None:
            return _member_symbol(app, parts[1])
        if head == "settings" and cur.app_name:  # `probe settings.NAME`
            own = view.apps.get(cur.app_name)
            return _member_symbol(own, parts[1]) if own else None
    return None


def _declared_at(word: str, cur: Cursor, view: View, at: int) -> Symbol | None:
    """Names in an app declaration of this document: fields, collections, records, probes."""
    if cur.app_name is None:
        return None
    app = view.apps.get(cur.app_name)
    if app is None:
        return None
    kind = cur.frame.kind
    st = cur.stmt
    if kind == "record" and cur.frame.name:
        rec = app.record(cur.frame.name)
        f = rec.field(word) if rec else None
        if f is not None and not st:
            return _field_symbol(f, rec, app)
    if kind == "settings" and not st:
        s = app.setting(word)
        if s is not None:
            return _field_symbol(s, None, app, "setting")
    if kind == "app" and st:
        first = st[0].text
        if first == "collection" and len(st) == 1:
            return _member_symbol(app, word)
        if first == "collection" and st[-1].text == ":":
            rec = app.record(word)
            if rec is not None:
                return Symbol("record", word, _record_doc(app, rec) or "", rec.span)
        if first == "record" and len(st) == 1:
            rec = app.record(word)
            if rec is not None:
                return Symbol("record", word, _record_doc(app, rec) or "", rec.span)
        if first == "probe" and len(st) == 1:
            return _member_symbol(app, word)
    if kind == "probe_map" and not st:
        found = view.collection_record((app.name, cur.frame.base[-1])) if cur.frame.base else None
        if found:
            f = found[1].field(word)
            if f is not None:
                return _field_symbol(f, found[1], app)
    return None


def hover(
    text: str,
    offset: int,
    view: View,
    diagnostics: Sequence[Diagnostic] = (),
    index: LineIndex | None = None,
) -> lsp.Hover | None:
    """Hover text at ``offset``: the symbol's type and origin, and the explanation of any of
    ``diagnostics`` (those of this very text) there."""
    sym, bounds = symbol_at(text, offset, view)
    parts: list[str] = []
    if sym is not None:
        parts.append(sym.markdown)
    if diagnostics:
        for d in diagnostics:
            if d.span.start <= offset <= max(d.span.end, d.span.start):
                code = REGISTRY.get(d.code)
                head = f"**{d.code}**" + (f" ({code.title})" if code else "") + f": {d.message}"
                body = [head]
                if d.help:
                    body.append(f"help: {d.help}")
                if code:
                    body.append(code.explanation)
                parts.append("\n\n".join(body))
    if not parts:
        return None
    index = index if index is not None else LineIndex(text)
    rng = index.range(*bounds) if bounds else None
    return lsp.Hover(
        contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value="\n\n---\n\n".join(parts)),
        range=rng,
    )


def definition(
    text: str,
    offset: int,
    view: View,
    uri: str,
    index: LineIndex,
    files: Callable[[str], LineIndex | None],
) -> lsp.Location | None:
    """Where the symbol at ``offset`` (of the document ``uri``, ``text``) is declared."""
    sym, _ = symbol_at(text, offset, view)
    if sym is None:
        return None
    if sym.local is not None:
        return lsp.Location(uri=uri, range=index.range(*sym.local))
    span = sym.span
    if span is None:
        return None
    if span.file == view.doc_path:
        target_index = index
        target_uri = uri
    else:
        found = files(span.file)
        if found is None:
            return None
        target_index = found
        target_uri = from_fs_path(str(_resolved(span.file))) or Path(span.file).resolve().as_uri()
    start, end = _name_bounds(target_index.text, span, sym.name)
    return lsp.Location(uri=target_uri, range=target_index.range(start, end))


def _name_bounds(text: str, span: Span, name: str) -> tuple[int, int]:
    """Where ``name`` first appears (as a whole word) inside ``span``; else the whole span."""
    if not name:
        return span.start, span.end
    pattern = re.escape(name)
    if _WORD.match(name[0]):
        pattern = r"(?<![A-Za-z0-9_])" + pattern
    if _WORD.match(name[-1]):
        pattern += r"(?![A-Za-z0-9_])"
    m = re.compile(pattern).search(text, span.start, max(span.start, span.end))
    return (m.start(), m.end()) if m else (span.start, span.end)


# ---------------------------------------------------------------- document symbols, formatting
def document_symbols(module: ast.Module, idx: LineIndex) -> list[lsp.DocumentSymbol]:
    """Apps (records, collections, settings) and tasks (params, subgoals) of a module."""
    text = idx.text

    def sym(
        name: str,
        kind: lsp.SymbolKind,
        span: Span,
        detail: str | None = None,
        children: list[lsp.DocumentSymbol] | None = None,
        select: str | Span | None = None,
    ) -> lsp.DocumentSymbol:
        if isinstance(select, Span):
            start, end = select.start, select.end
        else:
            start, end = _name_bounds(text, span, select or name)
        if not (span.start <= start <= end <= span.end):
            start, end = span.start, span.end
        return lsp.DocumentSymbol(
            name=name or "?",
            kind=kind,
            range=idx.range(span.start, span.end),
            selection_range=idx.range(start, end),
            detail=detail,
            children=children or None,
        )

    def field_syms(
        fields: Sequence[ast.FieldDecl], kind: lsp.SymbolKind
    ) -> list[lsp.DocumentSymbol]:
        return [
            sym(f.name, kind, f.span, text[f.type.span.start : f.type.span.end] or None)
            for f in fields
        ]

    def subgoals(clauses: Sequence[ast.Node]) -> list[lsp.DocumentSymbol]:
        out: list[lsp.DocumentSymbol] = []
        for c in clauses:
            if isinstance(c, ast.Subgoal):
                label = _unquote(c.name)
                out.append(
                    sym(label, lsp.SymbolKind.Event, c.span, "subgoal", subgoals(c.clauses), c.name)
                )
        return out

    result: list[lsp.DocumentSymbol] = []
    for decl in module.decls:
        if isinstance(decl, ast.AppDecl):
            kids: list[lsp.DocumentSymbol] = []
            for item in decl.items:
                if isinstance(item, ast.RecordDecl):
                    kids.append(
                        sym(
                            item.name,
                            lsp.SymbolKind.Struct,
                            item.span,
                            "record",
                            field_syms(item.fields, lsp.SymbolKind.Field),
                        )
                    )
                elif isinstance(item, ast.CollectionDecl):
                    kids.append(sym(item.name, lsp.SymbolKind.Array, item.span, item.record))
                elif isinstance(item, ast.SettingsDecl):
                    kids.extend(field_syms(item.fields, lsp.SymbolKind.Property))
            result.append(sym(decl.name, lsp.SymbolKind.Module, decl.span, "app", kids))
        elif isinstance(decl, ast.TaskDecl):
            kids = []
            for item in decl.items:
                if isinstance(item, ast.ParamsBlock):
                    for p in item.params:
                        dom = " ".join(text[p.domain.span.start : p.domain.span.end].split())
                        kids.append(sym(p.name, lsp.SymbolKind.Variable, p.span, dom or None))
                elif isinstance(item, ast.ExpectBlock):
                    kids.extend(subgoals(item.clauses))
            tid = decl.id.text
            result.append(sym(tid, lsp.SymbolKind.Function, decl.span, "task", kids, decl.id.span))
    return result


def _unquote(s: str) -> str:
    if len(s) >= 2 and s.startswith('"') and s.endswith('"'):
        return s[1:-1]
    return s


def format_edits(text: str, path: str, index: LineIndex) -> list[lsp.TextEdit]:
    """One edit to the canonical text, or none (already canonical, or the formatter refuses)."""
    from tasklang.fmt import format_source

    if len(text) > MAX_SOURCE_BYTES or text.startswith("\ufeff"):
        return []
    formatted, _ = format_source(SourceFile(path, text))
    if formatted is None or formatted == text:
        return []
    return [
        lsp.TextEdit(
            range=lsp.Range(start=lsp.Position(line=0, character=0), end=index.end()),
            new_text=formatted,
        )
    ]


# ---------------------------------------------------------------- the server
def _safe(fn: Callable[P, R | None]) -> Callable[P, R | None]:
    """Log an internal error and answer nothing instead of failing."""

    @functools.wraps(fn)
    def run(*args: P.args, **kwargs: P.kwargs) -> R | None:
        try:
            return fn(*args, **kwargs)
        except Exception:
            log.exception("internal error in %s", fn.__name__)
            return None

    return run


@dataclass
class Document:
    uri: str
    path: str
    text: str
    version: int
    encoding: str = "utf-16"
    latest: Analysis | None = None  # the newest finished compile
    parsed: Analysis | None = None  # the newest finished compile that parsed
    timer: asyncio.TimerHandle | None = None
    analysis_timer: asyncio.TimerHandle | None = None
    _index: LineIndex | None = None

    @property
    def index(self) -> LineIndex:
        if self._index is None or self._index.text is not self.text:
            self._index = LineIndex(self.text, self.encoding)
        return self._index

    def apply(self, change: lsp.TextDocumentContentChangeEvent) -> None:
        if isinstance(change, lsp.TextDocumentContentChangePartial):
            idx = self.index
            start = idx.offset(change.range.start)
            end = idx.offset(change.range.end)
            if end < start:
                start, end = end, start
            self._index = idx.edited(start, end, change.text)
            self.text = self._index.text
        else:
            self.text = change.text
            self._index = None

    def diagnostics(self) -> list[Diagnostic]:
        """The diagnostics of the current text, if its compile has finished."""
        latest = self.latest
        return latest.diagnostics if latest is not None and latest.version == self.version else []


class TasklangServer(LanguageServer):
    """The tasklang language server: documents, a compile worker and the feature handlers.

    Compiles run one at a time on a worker thread. A document of ``isolate_chars`` characters
    or more is compiled in a separate process instead, so that its long compile (and the
    garbage it leaves) cannot hold up requests; if that process cannot be started, the
    thread compiles it.
    """

    def __init__(self) -> None:
        super().__init__("tasklang", __version__)
        self.library = Library()
        self.documents: dict[str, Document] = {}
        self.worker = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="tasklang")
        self.compile_delay = COMPILE_DELAY
        self.isolate_chars = int(os.environ.get("TASKLANG_LSP_ISOLATE_CHARS", ISOLATE_CHARS))
        delay = os.environ.get("TASKLANG_LSP_ANALYSIS_DELAY", str(ANALYSIS_DELAY))
        self.analysis_delay: float | None = None if delay == "off" else float(delay)
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self.closing = False

    # ------------------------------------------------------------ helpers
    @property
    def encoding(self) -> str:
        try:
            enc = self.workspace.position_encoding
        except RuntimeError:
            return "utf-16"
        return str(enc.value if isinstance(enc, lsp.PositionEncodingKind) else enc or "utf-16")

    def view(self, doc: Document) -> View:
        """The freshest app models and parameter types for a document."""
        best = doc.latest if doc.latest is not None and doc.latest.parsed else None
        best = best or doc.parsed or doc.latest
        if best is not None:
            return View(best.apps, best.params, doc.path)
        apps = self.library.apps() if self.library.loaded else {}
        return View(apps, {}, doc.path)

    def files(self, path: str) -> LineIndex | None:
        found = self.library.index_for(path)
        if found is not None:
            return found
        for doc in self.documents.values():
            if doc.path == path:
                return doc.index
        return None

    # ------------------------------------------------------------ compiling
    def schedule(self, doc: Document, delay: float) -> None:
        if doc.timer is not None:
            doc.timer.cancel()
        loop = asyncio.get_running_loop()
        doc.timer = loop.call_later(delay, self.start_compile, doc.uri, loop)

    def delay_for(self, text: str) -> float:
        return min(MAX_COMPILE_DELAY, max(self.compile_delay, len(text) / 200_000))

    def start_compile(self, uri: str, loop: asyncio.AbstractEventLoop) -> None:
        doc = self.documents.get(uri)
        if doc is None:
            return
        doc.timer = None
        version, text, path, encoding = doc.version, doc.text, doc.path, doc.encoding

        def job() -> Analysis | None:
            current = self.documents.get(uri)
            if self.closing or current is None or current.version != version:
                return None  # changed again while queued: a newer compile is scheduled
            if len(text) >= self.isolate_chars:
                found = self.compile_apart(text, path, version, encoding)
                if found is not None or self.closing:
                    return found
            return analyze(text, path, self.library, version, encoding)

        def finished(fut: concurrent.futures.Future[Analysis | None]) -> None:
            with contextlib.suppress(RuntimeError):  # the loop is closed: shutting down
                loop.call_soon_threadsafe(self.finish_compile, uri, version, fut)

        with contextlib.suppress(RuntimeError):  # the worker is shut down
            self.worker.submit(job).add_done_callback(finished)

    def compile_apart(self, text: str, path: str, version: int, encoding: str) -> Analysis | None:
        """Compile in the compile process (on the worker thread); None if that fails."""
        try:
            if self._pool is None:
                ctx = multiprocessing.get_context("spawn")
                self._pool = concurrent.futures.ProcessPoolExecutor(
                    1, mp_context=ctx, initializer=_watch_parent, initargs=(os.getpid(),)
                )
            return self._pool.submit(analyze_in_worker, text, path, version, encoding).result()
        except Exception:
            if self.closing:
                return None
            log.warning("cannot compile in a separate process; compiling here", exc_info=True)
            self.isolate_chars = sys.maxsize
            self.stop_pool()
            return None

    def close(self) -> None:
        """Stop compiling: cancel pending compiles and end the compile process."""
        self.closing = True
        for doc in self.documents.values():
            for timer in (doc.timer, doc.analysis_timer):
                if timer is not None:
                    timer.cancel()
        self.worker.shutdown(wait=False, cancel_futures=True)
        self.stop_pool()

    def stop_pool(self) -> None:
        pool, self._pool = self._pool, None
        if pool is None:
            return
        processes = getattr(pool, "_processes", None) or {}
        for proc in list(processes.values()):
            with contextlib.suppress(Exception):
                proc.terminate()
        with contextlib.suppress(Exception):
            pool.shutdown(wait=False, cancel_futures=True)

    def finish_compile(
        self, uri: str, version: int, fut: concurrent.futures.Future[Analysis | None]
    ) -> None:
        try:
            result = fut.result()
        except Exception:
            log.exception("internal error while compiling %s", uri)
            return
        doc = self.documents.get(uri)
        if result is None or doc is None:
            return
        doc.latest = result
        if result.parsed:
            doc.parsed = result
        if doc.version != version:
            return
        self.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(uri=uri, version=version, diagnostics=result.published)
        )
        if result.ok and self.analysis_delay is not None and len(doc.text) < ANALYSIS_MAX_CHARS:
            if doc.analysis_timer is not None:
                doc.analysis_timer.cancel()
            loop = asyncio.get_running_loop()
            doc.analysis_timer = loop.call_later(
                self.analysis_delay, self.start_analysis, uri, version, loop
            )

    def start_analysis(self, uri: str, version: int, loop: asyncio.AbstractEventLoop) -> None:
        """Run the z3 analysis of a document that compiled cleanly, if it is still current."""
        doc = self.documents.get(uri)
        if doc is None or doc.version != version or self.closing:
            return
        doc.analysis_timer = None
        text, path = doc.text, doc.path

        def job() -> list[Diagnostic] | None:
            current = self.documents.get(uri)
            if self.closing or current is None or current.version != version:
                return None
            from tasklang.analysis import Options as AnalysisOptions
            from tasklang.compiler import Compiler
            from tasklang.lintcmd import findings_as_diagnostics

            result = Compiler().compile_text(text, path)
            found: list[Diagnostic] = []
            for compiled in result.tasks:
                if compiled.source.path == path:
                    found += findings_as_diagnostics(compiled, AnalysisOptions(timeout_ms=2000))[0]
            return found

        def finished(fut: concurrent.futures.Future[list[Diagnostic] | None]) -> None:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self.finish_analysis, uri, version, fut)

        with contextlib.suppress(RuntimeError):
            self.worker.submit(job).add_done_callback(finished)

    def finish_analysis(
        self, uri: str, version: int, fut: concurrent.futures.Future[list[Diagnostic] | None]
    ) -> None:
        try:
            found = fut.result()
        except Exception:
            log.exception("internal error while analysing %s", uri)
            return
        doc = self.documents.get(uri)
        if not found or doc is None or doc.version != version or doc.latest is None:
            return
        published = list(doc.latest.published) + lsp_diagnostics(found, doc.index)
        self.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(uri=uri, version=version, diagnostics=published)
        )


def _path_of(uri: str) -> str:
    path = to_fs_path(uri)
    return path if path else uri


def build_server() -> TasklangServer:
    """A tasklang language server with every feature registered."""
    server = TasklangServer()

    @server.feature(lsp.INITIALIZED)
    @_safe
    def initialized(ls: TasklangServer, params: lsp.InitializedParams) -> None:
        ls.worker.submit(ls.library.files)  # warm up: parse the bundled models

    @server.feature(lsp.SHUTDOWN)
    @_safe
    def shutdown(ls: TasklangServer, *args: Any) -> None:
        ls.close()

    @server.feature(lsp.EXIT)
    @_safe
    def on_exit(ls: TasklangServer, *args: Any) -> None:
        ls.close()

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    @_safe
    def did_open(ls: TasklangServer, params: lsp.DidOpenTextDocumentParams) -> None:
        td = params.text_document
        doc = Document(td.uri, _path_of(td.uri), td.text, td.version, ls.encoding)
        ls.documents[td.uri] = doc
        ls.schedule(doc, 0.0)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    @_safe
    def did_change(ls: TasklangServer, params: lsp.DidChangeTextDocumentParams) -> None:
        doc = ls.documents.get(params.text_document.uri)
        if doc is None:
            return
        for change in params.content_changes:
            doc.apply(change)
        doc.version = params.text_document.version
        ls.schedule(doc, ls.delay_for(doc.text))

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    @_safe
    def did_save(ls: TasklangServer, params: lsp.DidSaveTextDocumentParams) -> None:
        doc = ls.documents.get(params.text_document.uri)
        if doc is not None and doc.latest is None:
            ls.schedule(doc, 0.0)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    @_safe
    def did_close(ls: TasklangServer, params: lsp.DidCloseTextDocumentParams) -> None:
        doc = ls.documents.pop(params.text_document.uri, None)
        if doc is not None and doc.timer is not None:
            doc.timer.cancel()
        ls.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[])
        )

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=["."]))
    @_safe
    def completion(ls: TasklangServer, params: lsp.CompletionParams) -> lsp.CompletionList | None:
        doc = ls.documents.get(params.text_document.uri)
        if doc is None:
            return None
        items = complete(doc.text, doc.index.offset(params.position), ls.view(doc))
        return lsp.CompletionList(is_incomplete=False, items=items)

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    @_safe
    def on_hover(ls: TasklangServer, params: lsp.HoverParams) -> lsp.Hover | None:
        doc = ls.documents.get(params.text_document.uri)
        if doc is None:
            return None
        offset = doc.index.offset(params.position)
        return hover(doc.text, offset, ls.view(doc), doc.diagnostics(), doc.index)

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    @_safe
    def on_definition(ls: TasklangServer, params: lsp.DefinitionParams) -> lsp.Location | None:
        doc = ls.documents.get(params.text_document.uri)
        if doc is None:
            return None
        offset = doc.index.offset(params.position)
        return definition(doc.text, offset, ls.view(doc), doc.uri, doc.index, ls.files)

    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    @_safe
    def on_symbols(
        ls: TasklangServer, params: lsp.DocumentSymbolParams
    ) -> list[lsp.DocumentSymbol] | None:
        doc = ls.documents.get(params.text_document.uri)
        if doc is None:
            return None
        best = doc.parsed or doc.latest
        return best.symbols if best is not None else []

    @server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
    async def on_format(
        ls: TasklangServer, params: lsp.DocumentFormattingParams
    ) -> list[lsp.TextEdit] | None:
        doc = ls.documents.get(params.text_document.uri)
        if doc is None:
            return None
        text, path, index = doc.text, doc.path, doc.index
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(ls.worker, format_edits, text, path, index)
        except Exception:
            log.exception("internal error while formatting %s", doc.uri)
            return None

    return server


def serve() -> None:
    """Run the language server on stdin/stdout until the client says `exit`."""
    level = os.environ.get("TASKLANG_LSP_LOG", "WARNING").upper()
    logging.basicConfig(stream=sys.stderr, level=getattr(logging, level, logging.WARNING))
    sys.setswitchinterval(0.001)  # a compile on the worker thread yields the GIL sooner
    build_server().start_io()


def main() -> None:
    """Console entry point for `python -m tasklang.lsp` (and `tasklang lsp`)."""
    serve()


if __name__ == "__main__":  # pragma: no cover
    main()
