"""`tasklang new`: the text of a new `.task` file, ready to fill in.

A scaffold compiles at once, with no error and no warning (so even ``tasklang compile --strict``
accepts it), and is in the canonical layout of ``tasklang fmt``. What the author still has to write
is marked with ``TODO``, in the places a reviewer will look:

* the comment above the task (what it checks, and where it comes from);
* the goal, ``"TODO: ..."``, which an agent would otherwise be given verbatim;
* the difficulty;
* ``given``, an empty block whose comment shows the statements that set up the phone;
* ``expect``, whose only clause is the placeholder ``true``: it holds in every episode, so an
  unedited task verifies nothing;
* ``forbid``, which starts with the irreversible actions (deletions; sending money) to keep
  or remove.

A commented ``params`` example shows the three kinds of parameter domain on the task's own
app. ``SCAFFOLD_TODOS`` names the TODO markers a scaffold carries; ``todo_lines`` finds them.

>>> text = scaffold("app", "clock.wake_up", ["clock"])
>>> print(text.splitlines()[1])
task clock.wake_up {
>>> [line.strip() for line in text.splitlines() if line.strip().startswith(("kind", "apps"))]
['kind app', 'apps clock']
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tasklang import ir
from tasklang.compiler import Compiler, library_root
from tasklang.diagnostics import did_you_mean
from tasklang.fmt import format_source
from tasklang.lower import TASK_ID
from tasklang.source import SourceFile

KINDS = ("app", "mini_app", "cross_app")
DEFAULT_BUDGET = 20
TODO = "TODO"
# Which parts of a scaffold carry a TODO marker (in this order); see the module docstring.
SCAFFOLD_TODOS = ("description", "goal", "difficulty", "given", "expect", "forbid")

# Irreversible actions forbidden by default, per app, where the app model has the collection:
# (change, collection, why).
_IRREVERSIBLE: dict[str, list[tuple[str, str, str]]] = {
    "wechat": [("added", "transfers", "money sent cannot be taken back")],
}

EXIT_OK = 0
EXIT_USAGE = 2


class ScaffoldError(ValueError):
    """A kind, task id or app list that cannot make a task; the message says why."""


@dataclass(frozen=True)
class _Use:
    name: str
    host: str | None = None

    def text(self) -> str:
        return f"{self.name} in {self.host}" if self.host else self.name


@functools.lru_cache(maxsize=1)
def bundled_apps() -> dict[str, ir.AppModel]:
    """The app models in the bundled library (`task_library/apps`), by name."""
    apps_dir = library_root() / "apps"
    files = sorted(apps_dir.glob("*.app")) if apps_dir.is_dir() else []
    return dict(Compiler(with_library_apps=False).compile_files(files).apps)


def scaffold(kind: str, task_id: str, apps: list[str]) -> str:
    """The canonical text of a new task `task_id` of `kind` on the bundled `apps`.

    `apps` are app names (a mini-app may be given alone: its host comes from its model, or as
    ``"coffee in wechat"``); items may also be comma-separated lists. Raises `ScaffoldError`
    for an unknown kind or app (with a "did you mean"), an invalid id, or apps that do not fit
    the kind.
    """
    models = bundled_apps()
    _check_kind(kind)
    _check_id(task_id)
    uses = _check_apps(kind, _split_apps(apps), models)
    raw = _render(kind, task_id, uses, models)
    formatted, problems = format_source(SourceFile(f"{task_id}.task", raw))
    if formatted is None:  # pragma: no cover - the template is always well-formed
        raise ScaffoldError("; ".join(d.message for d in problems) or "cannot format the scaffold")
    result = Compiler().compile_text(formatted, f"{task_id}.task")
    errors = [d for d in result.diagnostics if d.is_error]
    if errors:
        detail = "; ".join(f"{d.code}: {d.message}" for d in errors)
        raise ScaffoldError(f"the new task would not compile ({detail})")
    return formatted


def todo_lines(text: str) -> list[tuple[int, str]]:
    """The (1-based line number, stripped line) of every line of `text` that mentions TODO."""
    return [(n, line.strip()) for n, line in enumerate(text.splitlines(), 1) if TODO in line]


def run_new(
    kind: str,
    task_id: str,
    apps: list[str],
    out: Path | None = None,
    force: bool = False,
) -> int:
    """`tasklang new KIND ID --apps A,B [-o DIR] [--force]`: write `DIR/ID.task`.

    Returns the exit code: 0 when the file was written, 2 for bad usage (unknown kind or app,
    invalid id, apps that do not fit the kind, an existing file without `force`, an output
    path that is not a folder). Messages go to stderr; the path written goes to stdout.
    """
    try:
        text = scaffold(kind, task_id, apps)
    except ScaffoldError as exc:
        return _usage(str(exc))
    folder = out if out is not None else Path.cwd()
    if folder.exists() and not folder.is_dir():
        return _usage(f"`{folder}` is not a folder")
    target = folder / f"{task_id}.task"
    if target.exists() and not force:
        return _usage(f"`{target}` already exists; use --force to overwrite it")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    except OSError as exc:
        return _usage(f"cannot write `{target}`: {exc.strerror or exc}")
    print(f"created {target}")
    print(f"  fill in the {TODO}s, then check it with `tasklang compile {target}`")
    return EXIT_OK


def _usage(message: str) -> int:
    print(f"tasklang: error: {message}", file=sys.stderr)
    return EXIT_USAGE


# ---------------------------------------------------------------- validation


def _check_kind(kind: str) -> None:
    if kind in KINDS:
        return
    hint = did_you_mean(kind, KINDS)
    choices = ", ".join(KINDS)
    raise ScaffoldError(
        f"unknown task kind `{kind}`" + (f": {hint}" if hint else "") + f" (kinds: {choices})"
    )


def _check_id(task_id: str) -> None:
    if TASK_ID.fullmatch(task_id):
        return
    suggestion = ".".join(
        part.strip("_") for part in task_id.strip().lower().replace("-", "_").split(".")
    )
    hint = f": did you mean `{suggestion}`?" if TASK_ID.fullmatch(suggestion) else ""
    raise ScaffoldError(
        f"`{task_id}` is not a valid task id{hint} (use lowercase dotted names such as "
        "`contacts.add_friend`)"
    )


def _split_apps(apps: Sequence[str]) -> list[str]:
    names: list[str] = []
    for item in apps:
        for part in item.split(","):
            part = " ".join(part.split())
            if part and part not in names:
                names.append(part)
    return names


def _check_apps(kind: str, names: list[str], models: dict[str, ir.AppModel]) -> list[_Use]:
    if not names:
        raise ScaffoldError("no apps given: list the task's apps with --apps, e.g. --apps contacts")
    uses: list[_Use] = []
    for item in names:
        name, _, host = (w.strip() for w in item.partition(" in "))
        _check_app_name(name, models)
        model = models[name]
        if host and model.host is None:
            raise ScaffoldError(f"`{name}` is not a mini-app; it cannot run `in {host}`")
        if model.host is not None and host and host != model.host:
            raise ScaffoldError(
                f"mini-app `{name}` runs inside `{model.host}`, not `{host}`: "
                f"give `{name}` (or `{name} in {model.host}`)"
            )
        use = _Use(name, model.host)
        if all(u.name != name for u in uses):
            uses.append(use)
    minis = [u for u in uses if u.host is not None]
    hosts = {u.host for u in minis}
    # A host listed next to its mini-app is already available through `MINI in HOST`.
    uses = [u for u in uses if u.host is not None or u.name not in hosts]
    others = [u for u in uses if u.host is None]
    mini_names = sorted(n for n, m in models.items() if m.host is not None)
    if kind == "app":
        if minis:
            raise ScaffoldError(
                f"`{minis[0].name}` is a mini-app (it runs in `{minis[0].host}`): use kind mini_app"
            )
        if len(uses) != 1:
            raise ScaffoldError(
                f"an `app` task uses exactly one app, not {len(uses)}: use kind cross_app"
            )
    elif kind == "mini_app":
        if not minis:
            listed = ", ".join(f"`{n}`" for n in mini_names) or "none"
            raise ScaffoldError(f"a `mini_app` task needs a mini-app (bundled mini-apps: {listed})")
        if others:
            raise ScaffoldError(
                f"`{others[0].name}` is not a mini-app or the host of one: use kind cross_app"
            )
    elif len(uses) < 2:
        note = " (a mini-app and its host count as one)" if minis else ""
        raise ScaffoldError(
            f"a `cross_app` task uses at least two apps{note}: use kind app or mini_app"
        )
    return uses


def _check_app_name(name: str, models: dict[str, ir.AppModel]) -> None:
    if name in models:
        return
    hint = did_you_mean(name, models)
    known = ", ".join(sorted(models))
    raise ScaffoldError(
        f"unknown app `{name}`" + (f": {hint}" if hint else "") + f" (bundled apps: {known})"
    )


# ---------------------------------------------------------------- rendering


def _render(kind: str, task_id: str, uses: list[_Use], models: dict[str, ir.AppModel]) -> str:
    names = _app_names(uses)  # listed apps and their hosts, in order
    first = models[uses[0].name]
    goal = _string(f"{TODO}: tell the agent what to do in {_where(uses, models)}.", goal=True)
    lines = [
        f"# {TODO}: what this task checks, in a sentence or two (and its source, if adapted).",
        f"task {task_id} {{",
        f"  kind {kind}",
        "  apps " + ", ".join(u.text() for u in uses),
        f"  goal {goal}",
        "  tags " + ", ".join(_string(t) for t in _tags(kind, uses)),
        f"  difficulty medium  # {TODO}: easy, medium or hard",
        "  revision 1",
        "",
        *_params_example(first),
        "",
        "  given {",
        f"    # {TODO}: the phone at the start, for example:",
        '    #   now 2026-05-14T09:00 tz "UTC"',
        f"    #   foreground {names[0] if kind != 'mini_app' else uses[0].host}",
        *_given_examples(names, models),
        "  }",
        "",
        "  expect {",
        f"    true  # {TODO}: replace with checks on the final state, e.g. `only ... changed`",
        "  }",
        "",
        "  forbid {",
        *_forbid_lines(names, models),
        "  }",
        f"  budget {DEFAULT_BUDGET} steps",
        "}",
    ]
    return "\n".join(lines) + "\n"


def _app_names(uses: list[_Use]) -> list[str]:
    names: list[str] = []
    for use in uses:
        for name in (use.name, use.host):
            if name and name not in names:
                names.append(name)
    return names


def _label(model: ir.AppModel) -> str:
    return model.label or model.name


def _where(uses: list[_Use], models: dict[str, ir.AppModel]) -> str:
    parts: list[str] = []
    for use in uses:
        model = models[use.name]
        if use.host:
            parts.append(f"the {_label(model)} mini program in {_label(models[use.host])}")
        else:
            parts.append(f"the {_label(model)} app")
    if len(parts) == 1:
        return parts[0]
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def _tags(kind: str, uses: list[_Use]) -> list[str]:
    tags = [] if kind == "app" else [kind.replace("_", "-")]
    return tags + [u.name for u in uses]


def _string(text: str, goal: bool = False) -> str:
    """A tasklang string literal for plain `text` (in a goal, braces are doubled too)."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    escaped = escaped.replace("\t", "\\t")
    if goal:
        escaped = escaped.replace("{", "{{").replace("}", "}}")
    return f'"{escaped}"'


def _collection(model: ir.AppModel) -> tuple[ir.CollectionDef, ir.RecordDef] | None:
    for coll in model.collections:
        record = model.record(coll.record)
        if record is not None and record.fields:
            return coll, record
    return None


def _params_example(model: ir.AppModel) -> list[str]:
    lines = [
        "  # Parameters (optional) make a family of task instances; the goal shows them as",
        "  # {name} or {name.field}. For example:",
        "  # params {",
    ]
    found = _collection(model)
    if found is not None:
        coll, record = found
        field = next((f for f in record.fields if f.key), record.fields[0])
        lines.append(
            f"  #   item: one of {model.name}.{coll.name}  # a record of the initial state: "
            f"{{item.{field.name}}}"
        )
    lines += [
        "  #   n: int in 1 .. 5  # a range",
        "  #   who: person_name  # a generator",
        "  # }",
    ]
    return lines


def _given_examples(names: list[str], models: dict[str, ir.AppModel]) -> list[str]:
    lines: list[str] = []
    for name in names:
        found = _collection(models[name])
        if found is not None:
            lines.append(f"    #   {name}.{found[0].name} += {{ ... }}")
            lines.append(f"    #   {name}.{found[0].name} += noise 5")
            break
    for name in names:
        settings = models[name].settings
        if settings:
            lines.append(f"    #   {name}.{settings[0].name} = ...")
            break
    return lines


def _forbid_lines(names: list[str], models: dict[str, ir.AppModel]) -> list[str]:
    lines = [
        f"    # {TODO}: what must never happen; remove any line the goal itself needs.",
        "    deleted any  # deleting cannot be undone",
    ]
    for name in names:
        collections = {c.name for c in models[name].collections}
        for change, coll, why in _IRREVERSIBLE.get(name, []):
            if coll in collections:
                lines.append(f"    {change} {name}.{coll}  # {why}")
    return lines
