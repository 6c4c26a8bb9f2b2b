"""`tasklang fmt`: format files in place, check them, or print a diff."""

from __future__ import annotations

import difflib
import json
from pathlib import Path

import typer

from tasklang.compiler import UnreadableInput, discover, read_source
from tasklang.diagnostics import Diagnostic, render_text
from tasklang.source import SourceFile


def run_fmt(paths: list[Path], check: bool, diff: bool, as_json: bool) -> int:
    """Format every file; returns the exit code (0 ok, 1 problems or changes in --check)."""
    from tasklang.cli import use_color, write_atomic
    from tasklang.fmt import format_source

    try:
        files = discover(paths)
    except UnreadableInput as exc:
        typer.echo(f"tasklang: error: {exc}", err=True)
        return 2
    diagnostics: list[Diagnostic] = []
    sources: dict[str, SourceFile] = {}
    changed: list[str] = []
    for path in files:
        source, problems = read_source(path)
        diagnostics.extend(problems)
        if source is None:
            continue
        sources[source.path] = source
        text, problems = format_source(source)
        diagnostics.extend(problems)
        if text is None or text == source.text:
            continue
        changed.append(source.path)
        if diff:
            typer.echo(
                "".join(
                    difflib.unified_diff(
                        source.text.splitlines(keepends=True),
                        text.splitlines(keepends=True),
                        fromfile=source.path,
                        tofile=source.path,
                    )
                ),
                nl=False,
            )
        elif not check:
            write_atomic(path, text)
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "changed": changed,
                    "checked": len(files),
                    "diagnostics": [d.to_json() for d in diagnostics],
                },
                indent=2,
            )
        )
    else:
        if diagnostics:
            import sys

            typer.echo(render_text(diagnostics, sources, use_color(sys.stderr)), err=True)
        verb = "would reformat" if (check or diff) else "reformatted"
        for name in changed:
            typer.echo(f"{verb} {name}", err=True)
    if any(d.is_error for d in diagnostics):
        return 1
    return 1 if (check and changed) else 0
