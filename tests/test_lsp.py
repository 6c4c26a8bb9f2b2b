"""The language server: a real client over stdio (Content-Length framed JSON-RPC).

Most tests share one server subprocess; the edit session replays the same scripted edits as
``tasklang bench lsp``. No test asserts timings.
"""

from __future__ import annotations

import json
import os
import queue
import random
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types as lsp

from tasklang import lsp as tl
from tasklang.benchlsp import edit_script, large_document, utf16_position
from tasklang.compiler import Compiler, library_root
from tasklang.fmt import format_source
from tasklang.source import SourceFile

LIB = library_root()
DARK = LIB / "app" / "settings.enable_dark_theme.task"
COWORKER = LIB / "app" / "contacts.add_coworker.task"
CROSS = LIB / "cross_app" / "cross.alarm_from_message.task"
CONTACTS_APP = LIB / "apps" / "contacts.app"


# ---------------------------------------------------------------- a tiny LSP client
class Client:
    """Speaks JSON-RPC with Content-Length framing to ``python -m tasklang.lsp``."""

    def __init__(self, **env: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tasklang.lsp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, **env},
        )
        self.inbox: queue.Queue[dict[str, Any]] = queue.Queue()
        self.responses: dict[int, dict[str, Any]] = {}
        self.notes: list[dict[str, Any]] = []
        self.stderr: list[bytes] = []
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._drain, daemon=True).start()

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    return
                if not line.strip():
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value)
            assert length is not None
            self.inbox.put(json.loads(out.read(length)))

    def _drain(self) -> None:
        assert self.proc.stderr is not None
        for line in iter(self.proc.stderr.readline, b""):
            self.stderr.append(line)

    def send(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        body = json.dumps(message).encode("utf-8")
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        self.proc.stdin.flush()

    def notify(self, method: str, params: Any) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def ask(self, method: str, params: Any) -> int:
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return self.next_id

    def _pump(self, timeout: float) -> None:
        try:
            msg = self.inbox.get(timeout=timeout)
        except queue.Empty:
            return
        if "id" in msg and "method" not in msg:
            self.responses[msg["id"]] = msg
        elif "method" in msg and "id" not in msg:
            self.notes.append(msg)

    def wait(self, msg_id: int, timeout: float = 20.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while msg_id not in self.responses:
            assert time.monotonic() < deadline, f"no response to request {msg_id}"
            assert self.proc.poll() is None, b"".join(self.stderr).decode()
            self._pump(0.2)
        return self.responses.pop(msg_id)

    def call(self, method: str, params: Any) -> Any:
        reply = self.wait(self.ask(method, params))
        assert "error" not in reply, reply
        return reply.get("result")

    def diagnostics(self, uri: str, version: int, timeout: float = 30.0) -> list[dict[str, Any]]:
        deadline = time.monotonic() + timeout
        while True:
            for msg in self.notes:
                p = msg["params"]
                if (
                    msg["method"] == "textDocument/publishDiagnostics"
                    and p["uri"] == uri
                    and p.get("version") == version
                ):
                    self.notes.remove(msg)
                    return list(p["diagnostics"])
            assert time.monotonic() < deadline, f"no diagnostics for {uri} v{version}"
            assert self.proc.poll() is None, b"".join(self.stderr).decode()
            self._pump(0.2)

    def open(self, uri: str, text: str, version: int = 1) -> None:
        doc = {"uri": uri, "languageId": "tasklang", "version": version, "text": text}
        self.notify("textDocument/didOpen", {"textDocument": doc})

    def change(self, uri: str, version: int, changes: list[dict[str, Any]]) -> None:
        self.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": version}, "contentChanges": changes},
        )

    def at(self, method: str, uri: str, text: str, offset: int) -> Any:
        position = utf16_position(text, offset)
        return self.call(method, {"textDocument": {"uri": uri}, "position": position})


@pytest.fixture(scope="module")
def server() -> Iterator[Client]:
    client = Client()
    result = client.call("initialize", {"processId": os.getpid(), "capabilities": {}})
    caps = result["capabilities"]
    for feature in ("completionProvider", "hoverProvider", "definitionProvider"):
        assert caps.get(feature), feature
    assert caps.get("documentSymbolProvider") and caps.get("documentFormattingProvider")
    client.notify("initialized", {})
    yield client
    if client.proc.poll() is None:
        client.proc.kill()
        client.proc.wait()


def _quiet(server: Client) -> None:
    """The server logged no internal error (handlers swallow them to stay alive)."""
    assert b"internal error" not in b"".join(server.stderr), b"".join(server.stderr).decode()


def _uri(name: str) -> str:
    return (Path("/tmp/tasklang-lsp-test") / name).as_uri()


def _open(server: Client, name: str, text: str) -> tuple[str, list[dict[str, Any]]]:
    uri = _uri(name)
    server.open(uri, text)
    return uri, server.diagnostics(uri, 1)


# ---------------------------------------------------------------- diagnostics
def test_typo_is_tl1002_with_did_you_mean(server: Client) -> None:
    # Non-ASCII text before the typo on its line: the column is counted in UTF-16 units.
    prefix = '"\u00e9\U0001f600" != "x" and '
    text = DARK.read_text("utf-8").replace(
        "settings.dark_theme == true weight 2", prefix + "settings.dark_them == true weight 2"
    )
    uri, diags = _open(server, "typo.task", text)
    found = [d for d in diags if d["code"] == "TL1002"]
    assert len(found) == 1, diags
    d = found[0]
    assert "did you mean `dark_theme`" in d["message"]
    assert d["source"] == "tasklang"
    assert d["severity"] == lsp.DiagnosticSeverity.Error
    start = text.index("settings.dark_them ")
    assert d["range"]["start"] == utf16_position(text, start)
    assert d["range"]["start"]["character"] == len(text[text.rfind("\n", 0, start) + 1 : start]) + 1
    # the same diagnostics as the compiler
    expected = Compiler().compile_text(text, str(Path("/tmp/tasklang-lsp-test/typo.task")))
    assert [x["code"] for x in diags] == [x.code for x in expected.diagnostics]
    # hovering inside the diagnostic explains its code
    hover = server.at("textDocument/hover", uri, text, start + 12)
    assert "TL1002" in hover["contents"]["value"]


def test_clean_file_and_app_model_file_have_no_diagnostics(server: Client) -> None:
    _, diags = _open(server, "clean.task", CROSS.read_text("utf-8"))
    assert diags == []
    # the bundled model itself, opened in place, is not "declared twice"
    uri = CONTACTS_APP.resolve().as_uri()
    server.open(uri, CONTACTS_APP.read_text("utf-8"))
    assert server.diagnostics(uri, 1) == []
    server.notify("textDocument/didClose", {"textDocument": {"uri": uri}})


def test_diagnostics_follow_changes(server: Client) -> None:
    text = COWORKER.read_text("utf-8")
    uri, diags = _open(server, "changes.task", text)
    assert diags == []
    offset = text.index("phone == number")
    server.change(
        uri,
        2,
        [
            {
                "range": {
                    "start": utf16_position(text, offset),
                    "end": utf16_position(text, offset + 5),
                },
                "text": "phnoe",
            }
        ],
    )
    diags = server.diagnostics(uri, 2)
    assert [d["code"] for d in diags] == ["TL1003"], diags
    assert "did you mean `phone`" in diags[0]["message"]
    server.change(uri, 3, [{"text": text}])  # a full-text change
    assert server.diagnostics(uri, 3) == []


# ---------------------------------------------------------------- completion
def _items(result: Any) -> list[dict[str, Any]]:
    return list(result["items"] if isinstance(result, dict) else result or [])


def test_completion_after_app_dot_offers_exactly_its_members(server: Client) -> None:
    text = COWORKER.read_text("utf-8")
    uri, _ = _open(server, "complete.task", text)
    # type `contacts.` on a new line of the expect block
    anchor = text.index("    only contacts.people changed")
    server.change(
        uri,
        2,
        [
            {
                "range": {
                    "start": utf16_position(text, anchor),
                    "end": utf16_position(text, anchor),
                },
                "text": "    contacts.\n",
            }
        ],
    )
    text = text[:anchor] + "    contacts.\n" + text[anchor:]
    items = _items(server.at("textDocument/completion", uri, text, anchor + len("    contacts.")))
    model = Compiler().compile_text(text).apps["contacts"]
    collections = {i["label"] for i in items if i["kind"] == lsp.CompletionItemKind.Struct}
    settings = {i["label"] for i in items if i["kind"] == lsp.CompletionItemKind.Property}
    assert collections == {c.name for c in model.collections}
    assert settings == {s.name for s in model.settings}
    assert len(items) == len(collections) + len(settings)


def test_completion_in_context(server: Client) -> None:
    text = COWORKER.read_text("utf-8")
    uri, _ = _open(server, "context.task", text)

    def labels(needle: str, delta: int = 0) -> set[str]:
        offset = text.index(needle) + delta
        return {i["label"] for i in _items(server.at("textDocument/completion", uri, text, offset))}

    person = {
        f.name for f in Compiler().compile_text(text).apps["contacts"].record("Person").fields
    }  # type: ignore[union-attr]
    # inside `has { ... }`: the record's fields
    assert labels("      phone == number,", 6) >= person
    # inside a `where`: fields, params and comparison words
    where = labels("where name == who)", 6)
    assert where >= person | {"who", "number", "within", "fuzzy", "unordered", "exact", "~"}
    assert {"in", "contains", "matches"} <= where
    # a generator after `name: `
    assert {"person_name", "phone_number", "email_address"} <= labels("person_name")
    # task items at the start of a line in the task body
    assert {"params", "given", "expect", "budget"} <= labels("  budget 25 steps", 2)
    # the task's parameters and app names in an expression
    assert {"who", "contacts"} <= labels("count(contacts.people", 0)
    # nothing inside strings or comments
    assert labels("contact saved with", 3) == set()


def test_completion_of_actions_and_record_params(server: Client) -> None:
    text = CROSS.read_text("utf-8")
    uri, _ = _open(server, "actions.task", text)
    offset = text.index("    deleted any")
    server.change(
        uri,
        2,
        [
            {
                "range": {
                    "start": utf16_position(text, offset),
                    "end": utf16_position(text, offset),
                },
                "text": "    action \n",
            }
        ],
    )
    text = text[:offset] + "    action \n" + text[offset:]
    items = _items(server.at("textDocument/completion", uri, text, offset + len("    action ")))
    assert {"click", "long_press", "navigate_back"} <= {i["label"] for i in items}
    # after `friend.`: the fields of the parameter's record type
    at = text.index("from: friend.phone") + len("from: friend.")
    items = _items(server.at("textDocument/completion", uri, text, at))
    assert {"name", "phone", "group"} <= {i["label"] for i in items}
    # after `slot.` (a choice of record literals): its fields
    at = text.index("time == slot.at") + len("time == slot.")
    items = _items(server.at("textDocument/completion", uri, text, at))
    assert {i["label"] for i in items} == {"said", "at"}


# ---------------------------------------------------------------- hover and definition
def _line_of(path: Path, needle: str) -> int:
    lines = path.read_text("utf-8").splitlines()
    return next(i for i, line in enumerate(lines) if needle in line)


def test_hover_and_definition_of_a_field(server: Client) -> None:
    text = COWORKER.read_text("utf-8")
    uri, _ = _open(server, "hover.task", text)
    at = text.index("birthday == bday") + 2
    value = server.at("textDocument/hover", uri, text, at)["contents"]["value"]
    assert "`birthday`" in value and "`date?`" in value and "contacts.Person" in value
    loc = server.at("textDocument/definition", uri, text, at)
    assert loc["uri"].endswith("task_library/apps/contacts.app")
    assert loc["range"]["start"]["line"] == _line_of(CONTACTS_APP, "birthday: date?")
    # a collection: its record type; definition at its declaration
    at = text.index("contacts.people has") + len("contacts.pe")
    value = server.at("textDocument/hover", uri, text, at)["contents"]["value"]
    assert "collection" in value and "Person" in value
    loc = server.at("textDocument/definition", uri, text, at)
    assert loc["range"]["start"]["line"] == _line_of(CONTACTS_APP, "collection people: Person")


def test_hover_and_definition_of_params_settings_keywords(server: Client) -> None:
    text = DARK.read_text("utf-8")
    uri, _ = _open(server, "hover2.task", text)
    # a parameter: its domain and type; definition in the params block
    at = text.index("settings.screen_timeout == timeout") + len("settings.screen_timeout == ti")
    value = server.at("textDocument/hover", uri, text, at)["contents"]["value"]
    assert "timeout" in value and "duration" in value and "one of [1m" in value
    loc = server.at("textDocument/definition", uri, text, at)
    decl = text.index("    timeout: one of") + 4
    assert loc["uri"] == uri
    assert loc["range"]["start"] == utf16_position(text, decl)
    # a setting: its type and default
    at = text.index("settings.dark_theme == true") + len("settings.da")
    value = server.at("textDocument/hover", uri, text, at)["contents"]["value"]
    assert "dark_theme" in value and "`bool`" in value and "default `false`" in value
    loc = server.at("textDocument/definition", uri, text, at)
    settings_app = LIB / "apps" / "settings.app"
    assert loc["range"]["start"]["line"] == _line_of(settings_app, "dark_theme: bool")
    # a keyword: one line of documentation
    at = text.index("constraints {") + 2
    assert "constraints" in server.at("textDocument/hover", uri, text, at)["contents"]["value"]


# ---------------------------------------------------------------- symbols and formatting
def test_document_symbols(server: Client) -> None:
    text = CROSS.read_text("utf-8")
    uri, _ = _open(server, "symbols.task", text)
    symbols = server.call("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    assert [s["name"] for s in symbols] == ["cross.alarm_from_message"]
    task = symbols[0]
    assert task["range"]["start"]["line"] == _line_of(CROSS, "task cross.alarm_from_message")
    kids = {c["name"]: c["kind"] for c in task["children"]}
    assert kids["friend"] == kids["slot"] == lsp.SymbolKind.Variable
    assert kids["read the message"] == lsp.SymbolKind.Event
    # an app model file: records, collections and settings inside the app
    uri = _uri("model.app")
    server.open(uri, CONTACTS_APP.read_text("utf-8").replace("app contacts", "app contacts2"))
    assert server.diagnostics(uri, 1) == []
    symbols = server.call("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    assert [s["name"] for s in symbols] == ["contacts2"]
    names = {c["name"] for c in symbols[0]["children"]}
    assert {"Person", "Group", "people", "groups", "sort_by", "theme"} <= names


def test_formatting_returns_the_canonical_text(server: Client) -> None:
    canonical = COWORKER.read_text("utf-8")
    messy = canonical.replace("  kind app", "kind    app").replace(
        "    number: phone_number", "\t\t number :phone_number"
    )
    assert messy != canonical
    uri, _ = _open(server, "fmt.task", messy)
    edits = server.call(
        "textDocument/formatting",
        {"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": True}},
    )
    assert edits and len(edits) == 1
    edit = edits[0]
    start = edit["range"]["start"]
    assert start == {"line": 0, "character": 0}
    assert edit["range"]["end"] == utf16_position(messy, len(messy))
    assert edit["newText"] == format_source(SourceFile("fmt.task", messy))[0] == canonical
    # a file the formatter refuses (a syntax error) gets no edits
    uri, _ = _open(server, "fmt_broken.task", messy.replace("expect {", "expect {{"))
    edits = server.call(
        "textDocument/formatting",
        {"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": True}},
    )
    assert not edits


# ---------------------------------------------------------------- robustness
def test_random_edit_session_keeps_answering(server: Client) -> None:
    text = COWORKER.read_text("utf-8")
    uri, _ = _open(server, "session.task", text)
    steps = edit_script(text, 200, seed=7)
    version = 1
    for n, step in enumerate(steps):
        version += 1
        server.change(uri, version, [step.change])
        reply = server.wait(
            server.ask(step.method, {"textDocument": {"uri": uri}, "position": step.position})
        )
        assert "error" not in reply, (n, step, reply)
        if n % 25 == 0:
            time.sleep(0.2)  # let a debounced compile run between requests
    assert server.proc.poll() is None
    # The server's copy of the document matches the client's: replacing everything the client
    # thinks is there with the original text gives a clean file again.
    end = utf16_position(steps[-1].text, len(steps[-1].text))
    version += 1
    server.change(
        uri,
        version,
        [{"range": {"start": {"line": 0, "character": 0}, "end": end}, "text": text}],
    )
    assert server.diagnostics(uri, version) == []
    _quiet(server)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "{",
        "task",
        'task a.b { goal "unterminated',
        "task a.b { expect { " + "(" * 200 + " } }",
        "app \u00e9 { }",
        "task a.b { given { now 2026-02-30T10:00 } }\x00\x01",
        "\ufefftask a.b { kind app }",
        "task a.b {\r\n  kind app\r\n  apps contacts\r  expect { contacts.peple }\n}",
        "x" * 300_000,
    ],
)
def test_broken_input_never_kills_the_server(server: Client, text: str) -> None:
    uri = _uri(f"broken{abs(hash(text))}.task")
    server.open(uri, text)
    diags = server.diagnostics(uri, 1)
    assert all(d["source"] == "tasklang" for d in diags)
    for offset in {0, len(text) // 2, len(text)}:
        server.at("textDocument/completion", uri, text, offset)
        server.at("textDocument/hover", uri, text, offset)
        server.at("textDocument/definition", uri, text, offset)
    server.call("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    server.call(
        "textDocument/formatting",
        {"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": True}},
    )
    assert server.proc.poll() is None
    _quiet(server)


def test_large_file_stays_answering(server: Client) -> None:
    text = large_document(2000)
    assert text.count("\n") >= 2000
    uri, diags = _open(server, "large.task", text)
    assert diags == []
    offset = text.index("contacts.people has")
    for k in range(10):
        at = offset + k * len(text) // 20
        server.at("textDocument/completion", uri, text, at % len(text))
        server.at("textDocument/hover", uri, text, at % len(text))
    symbols = server.call("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    assert len(symbols) == text.count("\ntask ") + text.startswith("task ")
    _quiet(server)


@pytest.mark.parametrize("isolate", ["250000", "0"])
def test_shutdown_and_exit_cleanly(isolate: str) -> None:
    # With TASKLANG_LSP_ISOLATE_CHARS=0 every document compiles in the separate process.
    client = Client(TASKLANG_LSP_ISOLATE_CHARS=isolate)
    client.call("initialize", {"processId": os.getpid(), "capabilities": {}})
    client.notify("initialized", {})
    text = DARK.read_text("utf-8")
    uri = _uri("bye.task")
    client.open(uri, text)
    assert client.diagnostics(uri, 1) == []
    typo = text.replace("settings.dark_theme == true", "settings.dark_them == true")
    client.change(uri, 2, [{"text": typo}])
    assert [d["code"] for d in client.diagnostics(uri, 2)] == ["TL1002"]
    at = typo.index("settings.wifi = true") + len("settings.wi")
    hover = client.at("textDocument/hover", uri, typo, at)
    assert "`wifi`" in hover["contents"]["value"]
    symbols = client.call("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    assert [s["name"] for s in symbols] == ["settings.enable_dark_theme"]
    assert client.call("shutdown", None) is None
    client.notify("exit", None)
    assert client.proc.wait(timeout=20) == 0
    assert b"internal error" not in b"".join(client.stderr)
    assert b"cannot compile in a separate process" not in b"".join(client.stderr)


# ---------------------------------------------------------------- in-process checks
def test_analysis_matches_the_compiler() -> None:
    library = tl.Library()
    compiler = Compiler()
    # one task per app (or kind) keeps this at a few hundred compiles; the variants, not the
    # number of tasks, are what exercise the analysis's different paths
    first: dict[str, Path] = {}
    for path in sorted(LIB.rglob("*.task")):
        first.setdefault(path.name.split(".")[0], path)
    for path in first.values():
        text = path.read_text("utf-8")
        variants = [
            text,
            text.replace("expect {", "expect {\n    settings.dark_them == true", 1),
            text[: len(text) // 2],
            text.replace("}", "", 1),
            text + "\n" + text,  # every task declared twice
            text + '\napp contacts { package "x" }\n',
        ]
        for variant in variants:
            mine = tl.analyze(variant, "doc.task", library).diagnostics
            theirs = [
                d for d in compiler.compile_text(variant, "doc.task").diagnostics
                if d.span.file == "doc.task"
            ]  # fmt: skip
            assert [d.to_json() for d in mine] == [d.to_json() for d in theirs], path


def test_line_index_counts_utf16_units() -> None:
    text = "a\u00e9\U0001f600b\r\nx\ry\n\U0001f600"
    idx = tl.LineIndex(text)
    b = text.index("b")
    assert idx.position(b) == lsp.Position(line=0, character=4)
    assert idx.offset(lsp.Position(line=0, character=4)) == b
    assert idx.position(text.index("x")) == lsp.Position(line=1, character=0)
    assert idx.position(text.index("y")) == lsp.Position(line=2, character=0)
    assert idx.position(len(text)) == lsp.Position(line=3, character=2)
    assert idx.offset(lsp.Position(line=0, character=99)) == text.index("\r")
    assert idx.offset(lsp.Position(line=9, character=0)) == len(text)
    assert tl.LineIndex(text, "utf-32").position(b) == lsp.Position(line=0, character=3)


def test_line_index_edits_match_a_fresh_index() -> None:
    rng = random.Random(3)
    pool = ["a", "b", "\n", "\r", "\r\n", "\U0001f600", "xy\nz"]
    text = "ab\r\ncd\ne\rf\n"
    idx = tl.LineIndex(text)
    for _ in range(500):
        start = rng.randint(0, len(text))
        end = min(len(text), start + rng.randint(0, 3))
        new = "".join(rng.choice(pool) for _ in range(rng.randint(0, 3)))
        idx = idx.edited(start, end, new)
        text = text[:start] + new + text[end:]
        assert idx.text == text
        assert idx.starts == tl.LineIndex(text).starts, repr(text)


VACUOUS = """task lsp.vacuous {
  kind app
  apps settings
  goal "Set the brightness to {level} percent."
  params { level: int in 40 .. 80 }
  given { settings.brightness = 60 }
  expect { settings.brightness == level }
  budget 10 steps
}
"""


def test_analysis_findings_follow_after_a_pause() -> None:
    client = Client(TASKLANG_LSP_ANALYSIS_DELAY="0.2")
    try:
        client.call("initialize", {"processId": os.getpid(), "capabilities": {}})
        client.notify("initialized", {})
        uri = _uri("vacuous.task")
        client.open(uri, VACUOUS)
        assert client.diagnostics(uri, 1) == []  # the compiler's: clean
        later = client.diagnostics(uri, 1)  # then the z3 analysis
        (found,) = [d for d in later if d["code"] == "TL2012"]
        assert "counterexample: level = 60" in found["message"]
        assert found["range"]["start"]["line"] == 3  # the goal
        # a fix clears it: the next compile publishes no finding and no analysis follows
        fixed = VACUOUS.replace("brightness = 60", "brightness = 20")
        client.change(uri, 2, [{"text": fixed}])
        assert client.diagnostics(uri, 2) == []
        assert client.proc.poll() is None
    finally:
        client.proc.kill()
        client.proc.wait()


def test_completion_of_changes_lines(server: Client) -> None:
    head = (
        'app r {\n  package "com.example.r"\n'
        "  record Station { name: text key  favourite: bool = false  plays: int = 0 }\n"
        "  collection stations: Station\n  settings { volume: int = 5 }\n"
    )

    def labels(name: str, line: str) -> set[str]:
        """Completion at the end of ``line``, typed into a model that compiled before."""
        uri, _ = _open(server, name, f"{head}}}\n")
        text = f"{head}  {line}\n}}\n"
        server.change(uri, 2, [{"text": text}])
        server.diagnostics(uri, 2)
        offset = len(head) + 2 + len(line)
        return {i["label"] for i in _items(server.at("textDocument/completion", uri, text, offset))}

    assert "changes" in labels("changes0.app", "")
    assert labels("changes1.app", "changes ") == {"stations", "volume"}
    assert labels("changes2.app", "changes stations, ") == {"stations", "volume"}
    # a field of the collection's records, the key left out: a record never changes its key
    assert labels("changes3.app", "changes stations.") == {"favourite", "plays"}
    assert labels("changes4.app", "changes stations ") == {"only", "nowhere", "by"}
    assert labels("changes5.app", "changes stations only ") == {"on", "by"}
    assert {"text", "id"} <= labels("changes6.app", "changes stations only by ")
    assert labels("changes7.app", "changes stations nowhere ") == set()
    assert labels("changes8.app", "changes stations by ") == {"itself"}
    assert labels("changes9.app", "changes stations by itself ") == set()
    # where records are removed: collections with a key only
    assert "removes" in labels("removes0.app", "")
    assert labels("removes1.app", "removes ") == {"stations"}
    assert labels("removes2.app", "removes stations ") == {"only", "nowhere"}
    assert labels("removes3.app", "removes stations only ") == {"on", "by"}
    assert {"text", "id"} <= labels("removes4.app", "removes stations only on ")
    assert labels("removes5.app", "removes stations nowhere ") == set()
    # ... and where they are added
    assert "adds" in labels("adds0.app", "")
    assert labels("adds1.app", "adds ") == {"stations"}
    assert labels("adds2.app", "adds stations only ") == {"on", "by"}
    # ... and where an update is undone
    assert "undoes" in labels("undoes0.app", "")
    assert labels("undoes1.app", "undoes ") == {"stations"}
    assert labels("undoes2.app", "undoes stations ") == {"only", "nowhere"}


def test_completion_of_prefs_probes(server: Client) -> None:
    path = '"/data/data/com.example.p/shared_prefs/Prefs.xml"'
    head = 'app p {\n  package "com.example.p"\n  settings { snooze: duration = 10m }\n'

    def labels(name: str, line: str) -> set[str]:
        text = f"{head}  {line}\n}}\n"
        uri, _ = _open(server, name, text)
        offset = text.index(line) + len(line)
        return {i["label"] for i in _items(server.at("textDocument/completion", uri, text, offset))}

    assert "prefs" in labels("prefs1.app", "probe snooze: ")
    assert labels("prefs2.app", f"probe snooze: prefs {path} ") == {"key"}
    assert labels("prefs3.app", f'probe snooze: prefs {path} key "s" ') == {
        "minutes", "seconds", "millis", "bits",
    }  # fmt: skip
