"""The `tasklang` command line. Exit codes: 0 ok, 1 errors or failed checks, 2 bad usage."""

from __future__ import annotations

import json
import os
import sys
import tempfile
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from tasklang import __version__, devicecmd, reconstructcmd, traincmd
from tasklang.compiler import Compiler, CompileResult, UnreadableInput, library_root
from tasklang.diagnostics import render_text
from tasklang.ir import strip_spans
from tasklang.passes import PASS_NAMES

app = typer.Typer(
    name="tasklang",
    help="Write phone-use agent tasks once; compile them for PhoneWorld, devices and training.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


class Format(StrEnum):
    text = "text"
    json = "json"


FormatOpt = Annotated[Format, typer.Option("--format", help="Output format.")]
PathsArg = Annotated[
    list[Path] | None,
    typer.Argument(help="Files or folders of .task/.app files (default: the bundled library)."),
]


def use_color(stream: Any) -> bool:
    """Color only on a terminal, and never when NO_COLOR is set."""
    return bool(getattr(stream, "isatty", lambda: False)()) and "NO_COLOR" not in os.environ


def fail_usage(message: str) -> NoReturn:
    typer.echo(f"tasklang: error: {message}", err=True)
    raise typer.Exit(2)


def report(result: CompileResult, fmt: Format, extra: dict[str, Any] | None = None) -> None:
    """Print diagnostics (text to stderr) or one JSON document (stdout)."""
    if fmt is Format.json:
        doc = {
            "ok": result.ok,
            **(extra or {}),
            "diagnostics": [d.to_json() for d in result.diagnostics],
        }
        typer.echo(json.dumps(doc, indent=2, ensure_ascii=False))
        return
    if result.diagnostics:
        typer.echo(render_text(result.diagnostics, result.sources, use_color(sys.stderr)), err=True)
    errors = sum(1 for d in result.diagnostics if d.is_error)
    warnings = len(result.diagnostics) - errors
    if errors or warnings:
        typer.echo(f"{errors} error(s), {warnings} warning(s)", err=True)


def run_compile(paths: list[Path] | None, stop_after: str | None = None) -> CompileResult:
    try:
        return Compiler().compile_paths(paths or [library_root()], stop_after)
    except UnreadableInput as exc:
        fail_usage(str(exc))


def write_atomic(path: Path, text: str) -> None:
    """Write a file so that readers see the old content or the new, never half."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", errors="replace") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


@app.command("compile")
def compile_cmd(
    paths: PathsArg = None,
    out: Annotated[
        Path | None,
        typer.Option("-o", "--out", help="Write one JSON artifact per task into this folder."),
    ] = None,
    fmt: FormatOpt = Format.text,
    dump_after: Annotated[
        str | None,
        typer.Option(
            "--dump-after",
            help=f"Print each task's IR after a pass ({', '.join(PASS_NAMES)}).",
        ),
    ] = None,
    strict: Annotated[
        bool,
        typer.Option("--strict", help="Also run the analysis of `lint`; warnings are errors."),
    ] = False,
) -> None:
    """Compile tasks to JSON artifacts; nothing is written for a task that has errors."""
    if dump_after is not None and dump_after not in ("lower", *PASS_NAMES):
        fail_usage(f"unknown pass `{dump_after}`; passes: lower, {', '.join(PASS_NAMES)}")
    if out is not None and out.exists() and not out.is_dir():
        fail_usage(f"`{out}` exists and is not a folder")
    result = run_compile(paths, dump_after)
    if dump_after is not None:
        for t in result.tasks:
            data = strip_spans(t.task.model_dump(mode="json", exclude_none=True))
            typer.echo(json.dumps(data, indent=2, ensure_ascii=False))
    if strict and dump_after is None:
        from tasklang.lintcmd import add_analysis

        add_analysis(result)
    written: list[dict[str, str]] = []
    if out is not None and dump_after is None:
        written = write_artifacts(result, out)
    report(
        result,
        fmt,
        {"tasks": written or [{"id": t.task.id} for t in result.tasks], "failed": result.failed},
    )
    if fmt is Format.text and dump_after is None:
        where = f" into {out}" if out is not None else ""
        typer.echo(
            f"compiled {len(result.tasks)} task(s){where}"
            + (f", {len(result.failed)} failed" if result.failed else ""),
            err=True,
        )
    bad = not result.ok or (strict and bool(result.diagnostics))
    raise typer.Exit(1 if bad else 0)


def write_artifacts(result: CompileResult, out: Path) -> list[dict[str, str]]:
    from tasklang.artifact import artifact_json

    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail_usage(f"cannot create `{out}`: {exc.strerror or exc}")
    written = []
    for compiled in result.tasks:
        path = out / f"{compiled.task.id}.json"
        write_atomic(path, artifact_json(compiled))
        written.append({"id": compiled.task.id, "path": str(path)})
    return written


@app.command("list")
def list_cmd(paths: PathsArg = None, fmt: FormatOpt = Format.text) -> None:
    """List the tasks under PATHS: id, kind, apps, tags, difficulty."""
    result = run_compile(paths)
    rows = [
        {
            "id": t.task.id,
            "kind": t.task.kind,
            "apps": [u.name + (f" in {u.host}" if u.host else "") for u in t.task.apps],
            "tags": t.task.tags,
            "difficulty": t.task.difficulty,
            "goal": t.task.goal.template,
        }
        for t in sorted(result.tasks, key=lambda c: c.task.id)
    ]
    if fmt is Format.json:
        report(result, fmt, {"tasks": rows, "failed": result.failed})
    else:
        report(result, fmt)
        typer.echo(format_table(rows))
        kinds = {
            k: sum(1 for r in rows if r["kind"] == k) for k in ("app", "mini_app", "cross_app")
        }
        summary = ", ".join(f"{n} {k}" for k, n in kinds.items())
        typer.echo(f"\n{len(rows)} task(s): {summary}; {len(result.apps)} app model(s)")
    raise typer.Exit(0 if result.ok else 1)


def format_table(rows: list[dict[str, Any]]) -> str:
    """The `list` table of tasks."""
    cells = [
        {
            "id": r["id"],
            "kind": r["kind"],
            "apps": ", ".join(r["apps"]),
            "difficulty": r["difficulty"] or "-",
            "tags": ", ".join(r["tags"]) or "-",
        }
        for r in rows
    ]
    return text_table(["id", "kind", "apps", "difficulty", "tags"], cells)


def text_table(headers: list[str], rows: list[dict[str, Any]]) -> str:
    """Left-aligned columns, two spaces apart."""
    cells = [[str(r.get(h, "")) for h in headers] for r in rows]
    widths = [max([len(h), *(len(c[i]) for c in cells)]) for i, h in enumerate(headers)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)).rstrip()]
    lines += [
        "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in cells
    ]
    return "\n".join(lines)


class SchemaName(StrEnum):
    compiled_task = "compiled-task"
    trajectory = "trajectory"
    verdict = "verdict"


@app.command("schema")
def schema_cmd(
    name: Annotated[SchemaName, typer.Argument(help="Which schema.")] = SchemaName.compiled_task,
) -> None:
    """Print the JSON Schema of a tasklang artifact."""
    from tasklang.artifact import schema_json

    typer.echo(schema_json(name.value), nl=False)


@app.command("fmt")
def fmt_cmd(
    paths: PathsArg = None,
    check: Annotated[bool, typer.Option("--check", help="Exit 1 if a file would change.")] = False,
    diff: Annotated[bool, typer.Option("--diff", help="Print a diff instead of writing.")] = False,
    fmt: FormatOpt = Format.text,
) -> None:
    """Format files canonically, keeping comments; refuses output that changes meaning."""
    from tasklang.fmtcmd import run_fmt

    if not paths:
        fail_usage("name the files or folders to format")
    raise typer.Exit(run_fmt(paths, check=check, diff=diff, as_json=fmt is Format.json))


@app.command("check")
def check_cmd(
    task: Annotated[str, typer.Argument(help="A library task id or a .task file.")],
    trajectories: Annotated[list[Path], typer.Argument(help="Trajectory .jsonl files.")],
    fmt: FormatOpt = Format.text,
    html: Annotated[Path | None, typer.Option("--html", help="Write an HTML report.")] = None,
    params: Annotated[
        str | None,
        typer.Option("--params", help="Parameter values as a JSON object (override the header's)."),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option("--seed", help="Use the instance drawn from this seed, not the header's."),
    ] = None,
) -> None:
    """Check recorded trajectories: exit 0 if all pass, 1 if any fails, 2 on bad input."""
    from tasklang.checkcmd import run_check

    raise typer.Exit(run_check(task, trajectories, params, fmt is Format.json, html, seed))


@app.command("import")
def import_cmd(
    source_format: Annotated[
        str, typer.Argument(metavar="FORMAT", help="droidbot, androidworld or xmltrace.")
    ],
    src: Annotated[Path, typer.Argument(help="The recording: a folder or a file.")],
    out: Annotated[Path, typer.Option("-o", "--out", help="The trajectory to write (.jsonl).")],
    task: Annotated[
        str | None,
        typer.Option("--task", help="Task id for the header (default: imported.FORMAT)."),
    ] = None,
    fmt: FormatOpt = Format.text,
) -> None:
    """Convert another recorder's output into the tasklang trajectory format."""
    from tasklang.verifiers.importers import IMPORTERS, ImportFailure, import_source

    if source_format not in IMPORTERS:
        fail_usage(f"unknown format `{source_format}`; formats: {', '.join(sorted(IMPORTERS))}")
    if out.is_dir():
        fail_usage(f"`{out}` is a folder; name the .jsonl file to write")
    try:
        traj, warnings = import_source(source_format, src, task, out.parent)
    except ImportFailure as exc:
        fail_usage(str(exc))
    out.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(out, traj.to_jsonl())
    if fmt is Format.json:
        typer.echo(
            json.dumps({"out": str(out), "steps": len(traj.steps), "warnings": warnings}, indent=2)
        )
    else:
        for w in warnings:
            typer.echo(f"warning: {w}", err=True)
        typer.echo(f"imported {len(traj.steps)} step(s) into {out}", err=True)
    raise typer.Exit(0)


class BenchName(StrEnum):
    compile = "compile"
    check = "check"
    lsp = "lsp"
    sample = "sample"
    phoneworld = "phoneworld"
    solve = "solve"


@app.command("bench")
def bench_cmd(
    name: Annotated[
        BenchName, typer.Argument(help="compile, check, lsp, sample, phoneworld or solve.")
    ],
    tasks: Annotated[int, typer.Option("--tasks", min=1, help="compile: library size.")] = 150,
    trajectories: Annotated[
        int, typer.Option("--trajectories", min=1, help="check: corpus size.")
    ] = 1000,
    steps: Annotated[int, typer.Option("--steps", min=1, help="check: steps each.")] = 20,
    repeat: Annotated[int, typer.Option("--repeat", min=1, help="Timed repetitions.")] = 1,
    instances: Annotated[
        int,
        typer.Option(
            "--instances", min=1, help="sample: instances per task; phoneworld: alive at once."
        ),
    ] = 1000,
    walk: Annotated[
        int, typer.Option("--walk", min=10, help="phoneworld: steps of the timed walk.")
    ] = 2000,
    task: Annotated[
        list[str] | None,
        typer.Option("--task", help="phoneworld: the library task to run; solve: one per use."),
    ] = None,
    budget: Annotated[
        float, typer.Option("--budget", min=0.001, metavar="SECONDS", help="solve: per task.")
    ] = 60.0,
    max_states: Annotated[
        int | None, typer.Option("--max-states", min=1, help="solve: states per task.")
    ] = None,
    edits: Annotated[int, typer.Option("--edits", min=1, help="lsp: scripted edits.")] = 200,
    lines: Annotated[
        int, typer.Option("--lines", min=0, help="lsp: edit a generated file this long.")
    ] = 0,
    seed: Annotated[
        int, typer.Option("--seed", help="lsp: edit script seed; solve: instance seed.")
    ] = 0,
    fmt: FormatOpt = Format.text,
) -> None:
    """Measure speed: the compiler on the library, the checker on a synthetic corpus, the
    language server's latency through a scripted editing session, sampling and lint, PhoneWorld's
    steps and resets, or how much of the library the solver solves within a budget."""
    if name is BenchName.compile:
        from tasklang.bench import bench_compile

        figures = bench_compile(tasks, max(repeat, 3))
    elif name is BenchName.phoneworld:
        from tasklang.envs.phoneworld.bench import bench_phoneworld

        if task and len(task) > 1:
            typer.echo("tasklang: error: bench phoneworld takes one --task", err=True)
            raise typer.Exit(2)
        figures = bench_phoneworld(walk, min(instances, 100_000), task[0] if task else None)
    elif name is BenchName.solve:
        from tasklang.envs.phoneworld.benchsolve import bench_solve

        try:
            figures = bench_solve(task or None, seed, budget, max_states)
        except (KeyError, ValueError) as err:
            typer.echo(f"tasklang: error: {str(err).strip(chr(39))}", err=True)
            raise typer.Exit(2) from None
    elif name is BenchName.sample:
        from tasklang.benchsample import bench_lint, bench_sample

        figures = {"sampling": bench_sample(instances), "lint": bench_lint(repeat)}
    elif name is BenchName.lsp:
        from tasklang.benchlsp import bench_lsp

        figures = bench_lsp(edits=edits, seed=seed, large_lines=lines)
    else:
        from tasklang.verifiers.bench import bench_check

        figures = bench_check(trajectories, steps, repeat)
    if fmt is Format.json:
        typer.echo(json.dumps(figures, indent=2))
    elif name is BenchName.sample:
        typer.echo(sample_table(figures))
    elif name is BenchName.phoneworld:
        from tasklang.envs.phoneworld.bench import text_report

        typer.echo(text_report(figures))
    elif name is BenchName.solve:
        from tasklang.envs.phoneworld.benchsolve import text_report as solve_report

        typer.echo(solve_report(figures))
    else:
        for key, value in figures.items():
            typer.echo(f"{key:32} {json.dumps(value) if isinstance(value, dict) else value}")


@app.command("lint")
def lint_cmd(
    paths: PathsArg = None,
    fmt: FormatOpt = Format.text,
    strict: Annotated[bool, typer.Option("--strict", help="Exit 1 on warnings too.")] = False,
    timeout: Annotated[
        int, typer.Option("--timeout", min=1, metavar="MS", help="Limit per solver call.")
    ] = 5000,
) -> None:
    """Find broken tasks with z3: unmeetable constraints, impossible or vacuous goals,
    `expect` against `forbid`, ambiguous answers; each with a replayed counterexample."""
    from tasklang.lintcmd import run_lint

    code = run_lint(paths, fmt is Format.json, strict, timeout, use_color(sys.stderr))
    raise typer.Exit(code)


@app.command("sample")
def sample_cmd(
    task: Annotated[str, typer.Argument(metavar="TASK", help="A .task file or a task id.")],
    seed: Annotated[int, typer.Option("--seed", help="The seed of the first instance.")] = 0,
    count: Annotated[int, typer.Option("-n", min=1, help="How many distinct instances.")] = 1,
    fmt: FormatOpt = Format.text,
) -> None:
    """Draw task instances: parameter values and the initial state, noise included."""
    from tasklang.samplecmd import run_sample

    raise typer.Exit(run_sample(task, seed, count, fmt is Format.json))


class EnvName(StrEnum):
    phoneworld = "phoneworld"


@app.command("run")
def run_cmd(
    task: Annotated[
        str | None,
        typer.Argument(
            metavar="[TASK]", help="A task id, a .task file or a folder (default: the library)."
        ),
    ] = None,
    env: Annotated[EnvName, typer.Option("--env", help="Where to run.")] = EnvName.phoneworld,
    agent: Annotated[
        str,
        typer.Option("--agent", metavar="AGENT", help="reference, nothing, random or replay:FILE."),
    ] = "reference",
    seed: Annotated[int, typer.Option("--seed", help="The task instance's seed.")] = 0,
    out: Annotated[
        Path | None, typer.Option("-o", "--out", help="Trajectory file (one task) or folder.")
    ] = None,
    render: Annotated[
        Path | None, typer.Option("--render", metavar="DIR", help="Write a PNG per step here.")
    ] = None,
    randomize: Annotated[
        bool,
        typer.Option(
            "--randomize",
            help="Device, dark mode, font scale, list order and noise drawn from the seed.",
        ),
    ] = False,
    fmt: FormatOpt = Format.text,
) -> None:
    """Run an agent on tasks in PhoneWorld; record, check and sum up the trajectories."""
    from tasklang.runcmd import run

    raise typer.Exit(run(task, agent, seed, out, render, fmt is Format.json, randomize))


@app.command("solve")
def solve_cmd(
    task: Annotated[
        str | None,
        typer.Argument(
            metavar="[TASK]", help="A task id, a .task file or a folder (default: the library)."
        ),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="The task instance's seed.")] = 0,
    time_limit: Annotated[
        float,
        typer.Option(
            "--time-limit", "--budget", metavar="SECONDS", min=0.001, help="Search time per task."
        ),
    ] = 60.0,
    max_depth: Annotated[
        int | None,
        typer.Option("--max-depth", min=1, help="Most actions before the end (default: budget)."),
    ] = None,
    max_states: Annotated[
        int | None, typer.Option("--max-states", min=1, help="Most states to explore.")
    ] = None,
    out: Annotated[
        Path | None, typer.Option("-o", "--out", help="Trajectory file (one task) or folder.")
    ] = None,
    fmt: FormatOpt = Format.text,
) -> None:
    """Search PhoneWorld for actions the task's verifier accepts; write them as a trajectory."""
    from tasklang.solvecmd import solve_tasks

    raise typer.Exit(
        solve_tasks(task, seed, time_limit, max_depth, max_states, out, fmt is Format.json)
    )


@app.command("test")
def test_cmd(
    path: Annotated[
        str | None,
        typer.Argument(
            metavar="[PATH]", help="A library folder or .task file (default: the library)."
        ),
    ] = None,
    seeds: Annotated[int, typer.Option("--seeds", help="Instances tried per task.")] = 20,
    docs: Annotated[
        Path | None, typer.Option("--docs", metavar="FILE", help="Write the catalogue here.")
    ] = None,
    fmt: FormatOpt = Format.text,
) -> None:
    """Prove a task library: lint clean, every reference passes, doing nothing fails."""
    from tasklang.testcmd import run_tests

    raise typer.Exit(run_tests(path, seeds, fmt is Format.json, docs))


@app.command("apps")
def apps_cmd(fmt: FormatOpt = Format.text) -> None:
    """List PhoneWorld's apps and mini-apps: package, activity, screens, the app model each
    implements, and the library tasks that use it."""
    from tasklang.envs.phoneworld.catalog import catalog, text_report

    cat = catalog()
    typer.echo(json.dumps(cat, indent=2) if fmt is Format.json else text_report(cat))


@app.command("new")
def new_cmd(
    kind: Annotated[str, typer.Argument(metavar="KIND", help="app, mini_app or cross_app.")],
    task_id: Annotated[
        str, typer.Argument(metavar="ID", help="The task id, e.g. contacts.add_friend.")
    ],
    apps: Annotated[
        list[str] | None,
        typer.Option("--apps", metavar="A,B", help="Apps the task uses, comma-separated."),
    ] = None,
    out: Annotated[
        Path | None, typer.Option("-o", "--out", help="Folder to write ID.task into.")
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing file.")] = False,
) -> None:
    """Scaffold a task that compiles at once; lint points at what is left to fill in."""
    from tasklang.scaffold import run_new

    raise typer.Exit(run_new(kind, task_id, apps or [], out, force))


@app.command("lsp")
def lsp_cmd() -> None:
    """Serve the Language Server Protocol over stdio (for editors)."""
    from tasklang.lsp import main as serve_lsp

    serve_lsp()


def sample_table(figures: dict[str, Any]) -> str:
    """`bench sample` as text: a row per task, then the summary figures."""
    sampling, lint = figures["sampling"], figures["lint"]
    rows = []
    for tid, row in sampling["tasks"].items():
        rate = row.get("instances_per_s")
        rows.append(
            {
                "task": tid,
                "instances/s": f"{rate:,.0f}" if rate is not None else row.get("error", "?"),
                "noise/instance": row.get("noise_records_per_instance", ""),
                "lint s": lint["per_task_s"].get(tid, ""),
            }
        )
    typical = sampling["typical"]
    lines = [
        text_table(["task", "instances/s", "noise/instance", "lint s"], rows),
        "",
        f"typical task ({typical['task']}): {typical['instances_per_s']:,} instances/s",
        f"median over tasks: {sampling['median_instances_per_s']:,} instances/s",
        f"lint: {lint['total_s']} s for {lint['tasks']} task(s), median {lint['median_s']} s, "
        f"slowest {lint['slowest']} ({lint['max_s']} s)",
    ]
    return "\n".join(lines)


devicecmd.register(app)
reconstructcmd.register(app)
traincmd.register(app)


@app.callback(invoke_without_command=True)
def main_callback(
    version: Annotated[bool, typer.Option("--version", help="Print the version.")] = False,
) -> None:
    if version:
        typer.echo(f"tasklang {__version__}")
        raise typer.Exit(0)


def main() -> None:
    """Console entry point: never shows a Python traceback for a user's mistake."""
    try:
        app()
    except KeyboardInterrupt:  # pragma: no cover
        typer.echo("interrupted", err=True)
        sys.exit(130)
    except Exception as exc:  # pragma: no cover - a bug; say so instead of a traceback
        if os.environ.get("TASKLANG_DEBUG"):
            raise
        typer.echo(f"tasklang: internal error: {type(exc).__name__}: {exc}", err=True)
        typer.echo("this is a bug in tasklang; rerun with TASKLANG_DEBUG=1 for details", err=True)
        sys.exit(2)


if __name__ == "__main__":  # pragma: no cover
    main()
