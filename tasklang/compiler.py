"""The compiler driver: files and folders in, compiled tasks and diagnostics out."""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from tasklang import __version__, ast, ir
from tasklang.appmodel import AppBuilder
from tasklang.diagnostics import Diagnostic, did_you_mean, finalize, has_errors
from tasklang.lower import Lowerer
from tasklang.parser import parse
from tasklang.passes import Context, run_passes
from tasklang.source import SourceFile, Span

SOURCE_SUFFIXES = (".task", ".app")


class UnreadableInput(Exception):
    """A path that does not exist or cannot be read (exit code 2)."""


@dataclass
class CompileResult:
    tasks: list[ir.CompiledTask] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    sources: dict[str, SourceFile] = field(default_factory=dict)
    apps: dict[str, ir.AppModel] = field(default_factory=dict)
    failed: list[str] = field(default_factory=list)  # task ids not compiled

    @property
    def ok(self) -> bool:
        return not has_errors(self.diagnostics)


@functools.lru_cache(maxsize=256)
def parse_cached(path: str, text: str) -> tuple[ast.Module | None, list[Diagnostic]]:
    """Parse a source file, remembering the result for the same path and text: every
    compilation reads all the bundled app models, a tool or test compiling many small texts
    would otherwise parse them again each time, and one that compiles the library more than
    once (the language server, a test run) its task files too. Nothing downstream changes
    the AST."""
    return parse(SourceFile(path, text))


def library_root() -> Path:
    """The bundled task library folder (works from a source tree and an installed wheel)."""
    return Path(str(resources.files("tasklang.task_library")))


def discover(paths: Sequence[Path]) -> list[Path]:
    """Source files named by ``paths`` (folders are searched recursively), sorted."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found.extend(
                sorted(p for p in path.rglob("*") if p.suffix in SOURCE_SUFFIXES and p.is_file())
            )
        elif path.is_file():
            found.append(path)
        else:
            raise UnreadableInput(f"`{path}` does not exist")
    unique: dict[Path, Path] = {}
    for p in found:
        unique.setdefault(p.resolve(), p)
    return list(unique.values())


def read_source(path: Path) -> tuple[SourceFile | None, list[Diagnostic]]:
    """Read one file; undecodable bytes are a TL0005 diagnostic, not an exception."""
    display = str(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise UnreadableInput(f"cannot read `{path}`: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        prefix = data[: exc.start].decode("utf-8", "replace")
        src = SourceFile(display, prefix)
        end = len(prefix)
        return None, [
            Diagnostic(
                "TL0005",
                f"byte 0x{data[exc.start]:02X} is not UTF-8 text",
                src.span(end, end),
                help="save the file as UTF-8",
            )
        ]
    if text.startswith("\ufeff"):
        text = text[1:]
    return SourceFile(display, text), []


@dataclass
class _Unit:
    source: SourceFile
    module: ast.Module


class Compiler:
    """Compiles a set of files against the bundled app models plus any declared ones."""

    def __init__(self, with_library_apps: bool = True) -> None:
        self.with_library_apps = with_library_apps

    def compile_paths(self, paths: Sequence[Path], stop_after: str | None = None) -> CompileResult:
        files = discover(paths)
        extra = self._library_app_files(files)
        return self.compile_files(files, extra, stop_after)

    def _library_app_files(self, files: Iterable[Path]) -> list[Path]:
        if not self.with_library_apps:
            return []
        apps_dir = library_root() / "apps"
        if not apps_dir.is_dir():
            return []
        have = {f.resolve() for f in files}
        return [p for p in sorted(apps_dir.glob("*.app")) if p.resolve() not in have]

    def compile_files(
        self,
        files: Sequence[Path],
        library_apps: Sequence[Path] = (),
        stop_after: str | None = None,
    ) -> CompileResult:
        """Compile files; undecodable files become diagnostics."""
        sources: list[SourceFile] = []
        problems: list[Diagnostic] = []
        for path in [*library_apps, *files]:
            source, found = read_source(path)
            problems.extend(found)
            if source is not None:
                sources.append(source)
        result = self.compile_sources(sources, (), stop_after)
        result.diagnostics = finalize([*problems, *result.diagnostics])
        return result

    def compile_sources(
        self,
        sources: Sequence[SourceFile],
        library_apps: Sequence[Path] = (),
        stop_after: str | None = None,
    ) -> CompileResult:
        """Compile already-read sources (plus app model files ``library_apps``)."""
        result = CompileResult()
        units: list[_Unit] = []
        lib_sources = [s for s in (read_source(p)[0] for p in library_apps) if s is not None]
        for source in [*lib_sources, *sources]:
            result.sources[source.path] = source
            module, problems = parse_cached(source.path, source.text)
            result.diagnostics.extend(problems)
            if module is not None:
                units.append(_Unit(source, module))
        broken_apps = self._build_apps(units, result)
        self._compile_tasks(units, result, broken_apps, stop_after)
        result.diagnostics = finalize(result.diagnostics)
        return result

    def compile_text(self, text: str, path: str = "<input>") -> CompileResult:
        """Compile source text against the bundled app models; for tests and tools."""
        text = text.removeprefix("\ufeff")
        return self.compile_sources([SourceFile(path, text)], self._library_app_files([]))

    def _build_apps(self, units: list[_Unit], result: CompileResult) -> set[str]:
        broken: set[str] = set()
        for unit in units:
            for decl in unit.module.decls:
                if not isinstance(decl, ast.AppDecl):
                    continue
                builder = AppBuilder()
                app = builder.build(decl)
                result.diagnostics.extend(builder.diagnostics)
                if has_errors(builder.diagnostics):
                    broken.add(app.name)
                if app.name in result.apps:
                    first = result.apps[app.name].span
                    result.diagnostics.append(
                        Diagnostic(
                            "TL1005",
                            f"app `{app.name}` is declared twice",
                            decl.span,
                            notes=[f"first declared at {first.label}"] if first else [],
                        )
                    )
                    continue
                result.apps[app.name] = app
        for app in result.apps.values():
            if app.host is not None and app.host not in result.apps and app.span is not None:
                result.diagnostics.append(
                    Diagnostic(
                        "TL1001",
                        f"unknown host app `{app.host}`",
                        app.span,
                        help=did_you_mean(app.host, result.apps),
                    )
                )
                broken.add(app.name)
        return broken

    def _compile_tasks(
        self, units: list[_Unit], result: CompileResult, broken: set[str], stop_after: str | None
    ) -> None:
        ctx = Context(apps=dict(result.apps))
        seen: dict[str, Span] = {}
        for unit in units:
            digest = hashlib.sha256(unit.source.text.encode("utf-8", "surrogatepass")).hexdigest()
            for decl in unit.module.decls:
                if not isinstance(decl, ast.TaskDecl):
                    continue
                compiled, problems = compile_task(decl, ctx, stop_after)
                task_id = decl.id.text
                if task_id in seen:
                    problems.append(
                        Diagnostic(
                            "TL1005",
                            f"task `{task_id}` is declared twice",
                            decl.id.span,
                            notes=[f"first declared at {seen[task_id].label}"],
                        )
                    )
                seen.setdefault(task_id, decl.id.span)
                result.diagnostics.extend(problems)
                uses_broken = {u.name for u in compiled.apps} & broken
                if has_errors(problems) or uses_broken:
                    result.failed.append(task_id)
                    continue
                apps = {a: ctx.apps[a] for a in _app_names(compiled) if a in ctx.apps}
                result.tasks.append(
                    ir.CompiledTask(
                        compiler=__version__,
                        source=ir.SourceInfo(path=unit.source.path, sha256=digest),
                        task=compiled,
                        apps=apps,
                    )
                )


def compile_task(
    decl: ast.TaskDecl, ctx: Context, stop_after: str | None = None
) -> tuple[ir.Task, list[Diagnostic]]:
    """Lower one task declaration and run the pass table over it."""
    lowerer = Lowerer()
    task = lowerer.task(decl)
    diagnostics = list(lowerer.diagnostics)
    if stop_after == "lower":
        return task, diagnostics
    try:
        task, found = run_passes(task, ctx, stop_after)
    except RecursionError:
        found = [
            Diagnostic(
                "TL0007",
                "expression nested too deeply",
                decl.span,
                help="split the expression into several clauses",
            )
        ]
    diagnostics.extend(found)
    return task, diagnostics


def _app_names(task: ir.Task) -> list[str]:
    names: list[str] = []
    for use in task.apps:
        for name in (use.host, use.name):
            if name and name not in names:
                names.append(name)
    return names
