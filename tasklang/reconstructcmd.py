"""`tasklang reconstruct ...`: rebuild runnable PhoneWorld apps from recorded GUI usage."""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer


class Format(StrEnum):
    text = "text"
    json = "json"


def register(app: typer.Typer) -> None:
    """Add this module's commands to the `tasklang` CLI (imports stay lazy: startup stays fast)."""

    @app.command("reconstruct")
    def reconstruct_cmd(
        sources: Annotated[
            list[Path],
            typer.Argument(
                help="DroidBot output folders, AutoDroid utg.yaml files, .jsonl trajectories, "
                "or folders holding them."
            ),
        ],
        out: Annotated[
            Path,
            typer.Option("-o", "--out", help="Folder for the screen graphs and fidelity.json."),
        ],
        binding: Annotated[
            list[Path] | None,
            typer.Option(
                "--binding",
                help="A binding file (JSON) mapping screens to an app model; applied to the "
                "app whose package it names. The bundled bindings apply by themselves.",
            ),
        ] = None,
        fmt: Annotated[Format, typer.Option("--format", help="Output format.")] = Format.text,
    ) -> None:
        """Rebuild each app in SOURCES as a screen graph PhoneWorld runs
        (tasklang/Reconstructed-v0), and report how faithful it is."""
        apps = _build(sources, binding or [])
        _write(out, apps)
        reports = [a["report"] for a in apps]
        if fmt is Format.json:
            typer.echo(json.dumps({"out": str(out), "apps": reports}, indent=2, ensure_ascii=False))
            return
        typer.echo(_table(reports))
        typer.echo(f"wrote {len(apps)} screen graph(s) and fidelity.json to {out}")


def _fail(message: str) -> Any:
    typer.echo(f"tasklang: error: {message}", err=True)
    raise typer.Exit(2)


def _build(sources: list[Path], binding_files: list[Path]) -> list[dict[str, Any]]:
    """Read every source, group recordings by app, build each app's graph, bindings and
    report; nothing is written until all of it worked."""
    from tasklang.envs.phoneworld.reconstruct.binding import BindingError
    from tasklang.envs.phoneworld.reconstruct.bindings import bundled, read_binding_file
    from tasklang.envs.phoneworld.reconstruct.fidelity import report
    from tasklang.envs.phoneworld.reconstruct.graph import build_graph
    from tasklang.envs.phoneworld.reconstruct.model import ReadError, Recording
    from tasklang.envs.phoneworld.reconstruct.readers import discover, read_source

    groups: dict[str, list[Recording]] = {}
    try:
        extra = [read_binding_file(p) for p in binding_files]
        for src in sources:
            for kind, path in discover(src):
                rec = read_source(kind, path)
                groups.setdefault(rec.package or rec.app, []).append(rec)
    except (ReadError, BindingError) as exc:
        _fail(str(exc))
    out: list[dict[str, Any]] = []
    for recordings in groups.values():
        graph = build_graph(recordings)
        graph.bindings = [b for b in [*extra, *bundled()] if b.get("package") == graph.package]
        out.append({"graph": graph, "report": report(graph)})
    packages = {a["graph"].package for a in out}
    for path, b in zip(binding_files, extra, strict=True):
        if b["package"] not in packages:
            typer.echo(f"tasklang: warning: {path}: no app of package `{b['package']}`", err=True)
    return out


def _write(out: Path, apps: list[dict[str, Any]]) -> None:
    from tasklang.cli import write_atomic
    from tasklang.envs.phoneworld.reconstruct.runtime import slug

    if out.exists() and not out.is_dir():
        _fail(f"{out}: exists and is not a folder")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        _fail(f"{out}: cannot create the folder ({exc.strerror})")
    used: set[str] = set()
    for a in apps:
        name = slug(a["graph"].app)
        while name in used:
            name += "_"
        used.add(name)
        path = out / f"{name}.screens.json"
        a["report"]["graph"] = str(path)
        write_atomic(path, json.dumps(a["graph"].to_json(), ensure_ascii=False))
    doc = {"apps": [a["report"] for a in apps]}
    write_atomic(out / "fidelity.json", json.dumps(doc, indent=2, ensure_ascii=False))


def _pct(part: dict[str, Any]) -> str:
    if not part["n"]:
        return "n/a"
    return f"{part['correct']}/{part['n']} ({100 * part['accuracy']:.0f}%)"


def _table(reports: list[dict[str, Any]]) -> str:
    head = (
        "app",
        "states",
        "screens",
        "widgets",
        "transitions",
        "held-out: transition>=2",
        "action>=2",
        "replay",
        "gaps",
    )
    rows = [head]
    for r in reports:
        c, a, s = r["counts"], r["accuracy"], r["similarity"]
        rows.append(
            (
                str(r["app"])[:28],
                str(c["states"]),
                str(c["screens"]),
                str(c["widgets"]),
                str(c["transitions"]),
                _pct(a["repeated_transition"]),
                _pct(a["repeated"]),
                f"{s['replay_mean']:.2f}",
                str(c["gaps"]),
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    return "\n".join(
        "  ".join(v.ljust(w) for v, w in zip(row, widths, strict=True)) for row in rows
    )
