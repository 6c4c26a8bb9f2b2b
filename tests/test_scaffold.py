"""`tasklang new`: scaffolds compile at once, are canonical, and mark what is left to write.

"Fails lint only where the author still has to fill something in" means, concretely:

* the scaffold compiles with no diagnostic at all (there is no compiler code for unfinished
  tasks, and it must not trip the existing ones);
* the z3 analysis of `tasklang lint` (and `compile --strict`) reports exactly one finding, at
  the placeholder: the goal already holds at the start (TL2012), since `expect { true }` does;
* every place left to write carries a TODO marker, exactly those in `SCAFFOLD_TODOS`: the
  description, the goal text (which reads "TODO: ..."), the difficulty, `given`, the placeholder
  clause `true` in `expect`, and the `forbid` list to review;
* the commented `params` example, once uncommented, is caught by lint (TL2001 unused parameter,
  TL2004 goal without placeholders) until the author uses the parameters;
* once the TODOs are filled in, the task compiles cleanly with nothing else to change.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from tasklang import ir
from tasklang.analysis import analyze
from tasklang.compiler import Compiler, CompileResult
from tasklang.fmt import format_source
from tasklang.scaffold import (
    DEFAULT_BUDGET,
    SCAFFOLD_TODOS,
    ScaffoldError,
    bundled_apps,
    run_new,
    scaffold,
    todo_lines,
)
from tasklang.source import SourceFile

APPS = bundled_apps()
MINI_APPS = sorted(name for name, model in APPS.items() if model.host is not None)
PLAIN_APPS = sorted(name for name, model in APPS.items() if model.host is None)

# One regex per TODO marker, in file order (see SCAFFOLD_TODOS).
TODO_SHAPES = {
    "description": r"^# TODO: ",
    "goal": r'^goal "TODO: ',
    "difficulty": r"^difficulty medium  # TODO: ",
    "given": r"^# TODO: the phone at the start",
    "expect": r"^true  # TODO: ",
    "forbid": r"^# TODO: what must never happen",
}


def compile_text(text: str, task_id: str) -> CompileResult:
    return Compiler().compile_text(text, f"{task_id}.task")


def the_task(result: CompileResult) -> ir.Task:
    [compiled] = result.tasks
    return compiled.task


def check_scaffold(kind: str, task_id: str, apps: list[str], listed: str) -> ir.Task:
    text = scaffold(kind, task_id, apps)
    result = compile_text(text, task_id)
    assert result.ok, [d.message for d in result.diagnostics]
    assert result.diagnostics == [], [f"{d.code}: {d.message}" for d in result.diagnostics]
    formatted, problems = format_source(SourceFile(f"{task_id}.task", text))
    assert problems == [] and formatted == text, "the scaffold is not in the canonical layout"
    assert f"\n  apps {listed}\n" in text
    assert f"\n  kind {kind}\n" in text
    assert f"\n  budget {DEFAULT_BUDGET} steps\n" in text
    assert "\n  revision 1\n" in text
    assert "\n  # params {\n" in text
    assert "\n  given {\n" in text and "\n  expect {\n" in text and "\n  forbid {\n" in text
    task = the_task(result)
    assert task.id == task_id and task.kind == kind
    assert task.budget.steps == DEFAULT_BUDGET
    assert task.revision == 1 and task.difficulty == "medium"
    assert task.goal.template.startswith("TODO: ")
    assert task.params == []
    check_todos(text)
    return task


def check_todos(text: str) -> None:
    found = [line for _, line in todo_lines(text)]
    assert len(found) == len(SCAFFOLD_TODOS), found
    for part, line in zip(SCAFFOLD_TODOS, found, strict=True):
        assert re.match(TODO_SHAPES[part], line), (part, line)


@pytest.mark.parametrize("name", PLAIN_APPS)
def test_single_app_scaffold(name: str) -> None:
    task = check_scaffold("app", f"{name}.new_task", [name], name)
    assert [(u.name, u.host) for u in task.apps] == [(name, None)]
    assert task.tags == [name]
    assert [c.role for c in task.clauses if c.role != "safety"] == ["goal"]  # `true`


@pytest.mark.parametrize("name", MINI_APPS)
def test_mini_app_scaffold(name: str) -> None:
    host = APPS[name].host
    assert host is not None
    task = check_scaffold("mini_app", f"mini.{name}_task", [name], f"{name} in {host}")
    assert [(u.name, u.host) for u in task.apps] == [(name, host)]
    assert task.tags == ["mini-app", name]
    text = scaffold("mini_app", f"mini.{name}_task", [name])
    assert f"#   foreground {host}\n" in text
    # Written out in full, or with the host listed too, gives the same file.
    assert scaffold("mini_app", f"mini.{name}_task", [f"{name} in {host}"]) == text
    assert scaffold("mini_app", f"mini.{name}_task", [name, host]) == text


# Every bundled app appears in some pair, and every mini-app is paired with a plain app.
CROSS_PAIRS = [
    *zip(PLAIN_APPS, [*PLAIN_APPS[1:], PLAIN_APPS[0]], strict=True),
    *((mini, PLAIN_APPS[0]) for mini in MINI_APPS),
]


@pytest.mark.parametrize(("first", "second"), CROSS_PAIRS)
def test_cross_app_scaffold(first: str, second: str) -> None:
    def listed(name: str) -> str:
        host = APPS[name].host
        return f"{name} in {host}" if host else name

    task = check_scaffold(
        "cross_app", "cross.new_task", [first, second], f"{listed(first)}, {listed(second)}"
    )
    assert [u.name for u in task.apps] == [first, second]
    assert task.tags == ["cross-app", first, second]


def test_every_pair_of_plain_apps_makes_a_cross_app_task() -> None:
    for first, second in itertools.combinations(PLAIN_APPS, 2):
        result = compile_text(scaffold("cross_app", "cross.pair", [first, second]), "cross.pair")
        assert result.ok and result.diagnostics == [], (first, second)


def test_apps_may_be_comma_separated() -> None:
    assert scaffold("cross_app", "cross.x", ["files,wechat"]) == scaffold(
        "cross_app", "cross.x", ["files", "wechat"]
    )
    assert scaffold("cross_app", "cross.x", ["files, wechat", "files"]) == scaffold(
        "cross_app", "cross.x", ["files", "wechat"]
    )


def test_forbid_starts_with_irreversible_actions() -> None:
    text = scaffold("app", "contacts.x", ["contacts"])
    assert "\n    deleted any  # deleting cannot be undone\n" in text
    assert "transfers" not in text
    task = the_task(compile_text(text, "contacts.x"))
    assert [c.role for c in task.clauses].count("safety") == 1
    wechat = scaffold("app", "wechat.x", ["wechat"])
    assert "\n    added wechat.transfers  # money sent cannot be taken back\n" in wechat
    mini = scaffold("mini_app", "mini.x", ["coffee"])  # the host's transfers too
    assert "\n    added wechat.transfers" in mini


def test_the_placeholder_clause_always_holds() -> None:
    text = scaffold("app", "clock.x", ["clock"])
    task = the_task(compile_text(text, "clock.x"))
    [clause] = [c for c in task.clauses if c.role == "goal"]
    body = clause.body.model_dump()
    assert body["node"] == "check"
    assert body["expr"]["node"] == "lit" and body["expr"]["value"] is True


def test_the_params_example_is_caught_by_lint_until_used() -> None:
    text = scaffold("app", "contacts.x", ["contacts"])
    uncommented = re.sub(r"(?m)^  # (params \{|  |\})", r"  \1", text)
    assert "\n  params {\n    item: one of contacts.people" in uncommented
    result = compile_text(uncommented, "contacts.x")
    assert result.ok
    codes = sorted({d.code for d in result.diagnostics})
    assert codes == ["TL2001", "TL2004"], [d.message for d in result.diagnostics]


def test_filled_in_scaffold_compiles_cleanly() -> None:
    text = scaffold("app", "contacts.star_ada", ["contacts"])
    filled = (
        text.replace(
            "# TODO: what this task checks, in a sentence or two (and its source, if adapted).",
            "# Star an existing contact.",
        )
        .replace(
            '"TODO: tell the agent what to do in the Contacts app."',
            '"Add Ada Park to my favorites."',
        )
        .replace("difficulty medium  # TODO: easy, medium or hard", "difficulty easy")
        .replace(
            "    # TODO: the phone at the start, for example:\n",
            '    contacts.people += { name: "Ada Park", phone: "+1 415 555 0134" }\n',
        )
        .replace(
            "true  # TODO: replace with checks on the final state, e.g. `only ... changed`",
            'contacts.people has { name == "Ada Park", starred == true }',
        )
        .replace("    # TODO: what must never happen; remove any line the goal itself needs.\n", "")
    )
    assert todo_lines(filled) == []
    result = compile_text(filled, "contacts.star_ada")
    assert result.ok and result.diagnostics == [], [d.message for d in result.diagnostics]
    (compiled,) = result.tasks
    assert analyze(compiled)[0] == []


@pytest.mark.parametrize(
    "kind,apps", [("app", ["clock"]), ("mini_app", ["coffee"]), ("cross_app", ["maps", "messages"])]
)
def test_lint_flags_only_the_placeholder(kind: str, apps: list[str]) -> None:
    text = scaffold(kind, "demo.unfinished", apps)
    (compiled,) = compile_text(text, "demo.unfinished").tasks
    findings, _ = analyze(compiled)
    assert [f.code for f in findings] == ["TL2012"]


def test_goal_text_is_escaped() -> None:
    text = scaffold("cross_app", "cross.x", ["coffee", "contacts"])
    assert 'goal "TODO: tell the agent what to do in the Coffee mini program in WeChat and ' in text


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("kind", "task_id", "apps", "message"),
    [
        ("mini-app", "x.y", ["coffee"], "unknown task kind `mini-app`: did you mean `mini_app`?"),
        ("crossapp", "x.y", ["a"], "did you mean `cross_app`?"),
        ("app", "x.y", ["contact"], "unknown app `contact`: did you mean `contacts`?"),
        ("app", "x.y", ["clok"], "did you mean `clock`?"),
        ("app", "x.y", ["zzzzzz"], "unknown app `zzzzzz` (bundled apps: audio_recorder,"),
        ("app", "Contacts.AddFriend", ["contacts"], "did you mean `contacts.addfriend`?"),
        ("app", "my-task", ["contacts"], "not a valid task id"),
        ("app", "x.y", [], "no apps given"),
        ("app", "x.y", ["coffee"], "`coffee` is a mini-app (it runs in `wechat`): use kind mini_app"),
        ("app", "x.y", ["clock", "maps"], "use kind cross_app"),
        ("mini_app", "x.y", ["clock"], "needs a mini-app (bundled mini-apps: `bills`, `coffee`, `movies`, `ride`)"),
        ("mini_app", "x.y", ["coffee", "clock"], "`clock` is not a mini-app or the host of one"),
        ("mini_app", "x.y", ["coffee in clock"], "runs inside `wechat`, not `clock`"),
        ("app", "x.y", ["clock in wechat"], "`clock` is not a mini-app"),
        ("cross_app", "x.y", ["clock"], "at least two apps"),
        ("cross_app", "x.y", ["coffee", "wechat"], "a mini-app and its host count as one"),
    ],
)  # fmt: skip
def test_bad_input(kind: str, task_id: str, apps: list[str], message: str) -> None:
    with pytest.raises(ScaffoldError) as info:
        scaffold(kind, task_id, apps)
    assert message in str(info.value)


# ---------------------------------------------------------------- run_new


def test_run_new_writes_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "tasks" / "new"  # created when missing
    assert run_new("app", "clock.wake_up", ["clock"], out, force=False) == 0
    target = out / "clock.wake_up.task"
    assert target.read_text(encoding="utf-8") == scaffold("app", "clock.wake_up", ["clock"])
    captured = capsys.readouterr()
    assert str(target) in captured.out and captured.err == ""
    result = Compiler().compile_paths([target])
    assert result.ok and result.diagnostics == []


def test_run_new_defaults_to_the_current_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert run_new("mini_app", "mini.coffee_x", ["coffee"], None, force=False) == 0
    text = (tmp_path / "mini.coffee_x.task").read_text(encoding="utf-8")
    assert "\n  apps coffee in wechat\n" in text


def test_run_new_refuses_to_overwrite(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "clock.x.task"
    target.write_text("# mine\n", encoding="utf-8")
    assert run_new("app", "clock.x", ["clock"], tmp_path, force=False) == 2
    assert target.read_text(encoding="utf-8") == "# mine\n"
    err = capsys.readouterr().err
    assert "already exists" in err and "--force" in err
    assert run_new("app", "clock.x", ["clock"], tmp_path, force=True) == 0
    assert target.read_text(encoding="utf-8") == scaffold("app", "clock.x", ["clock"])


@pytest.mark.parametrize(
    ("kind", "apps", "message"),
    [
        ("apps", ["clock"], "unknown task kind `apps`: did you mean `app`?"),
        ("app", ["clocks"], "unknown app `clocks`: did you mean `clock`?"),
        ("mini_app", ["clock"], "needs a mini-app"),
    ],
)
def test_run_new_rejects_bad_usage(
    kind: str, apps: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_new(kind, "clock.x", apps, tmp_path, force=False) == 2
    err = capsys.readouterr().err
    assert err.startswith("tasklang: error: ") and message in err
    assert list(tmp_path.iterdir()) == []


def test_run_new_output_must_be_a_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    not_a_folder = tmp_path / "file.txt"
    not_a_folder.write_text("x", encoding="utf-8")
    assert run_new("app", "clock.x", ["clock"], not_a_folder, force=False) == 2
    assert "is not a folder" in capsys.readouterr().err
