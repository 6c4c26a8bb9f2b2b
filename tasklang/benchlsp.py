"""`tasklang bench lsp`: request latency of the language server under a scripted edit session.

The session opens a library task file in a server subprocess (``python -m tasklang.lsp``) and
applies ``edits`` random edits (insertions and deletions of characters, with some non-ASCII
ones, and of whole lines), each followed by a completion or hover request, the way an editor
sends them while someone types. It reports the latency of every request as the client sees it
(from writing the request to reading its response) and whether the server stayed alive.

``edit_script`` builds the session (the tests replay the same one); ``LspClient`` is a small
JSON-RPC client with Content-Length framing.
"""

from __future__ import annotations

import json
import os
import queue
import random
import re
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

TARGET_MS = 200.0
_POOL = (
    "abcdefghijklmnopqrstuvwxyz_ABCXYZ0123456789"
    + ' {}()[].,:=<>~+-"#\t'
    + "\u00e9\u65e5\U0001f600"  # é, 日 (one UTF-16 unit each), 😀 (two)
)
_SNIPPETS = (
    "contacts.",
    "settings.",
    "settings.dark_them == true",
    "exists contacts.people where ",
    "contacts.people has { name == ",
    "trace eventually action ",
    "count(",
    "  params {",
    "}",
    '"unterminated',
    "# a comment with \u65e5\u672c\u8a9e and \U0001f600",
    "weight 2",
    "timeout: ",
)


def utf16_position(text: str, offset: int) -> dict[str, int]:
    """The LSP position (UTF-16 code units; lines split at ``\\n``) of a character offset."""
    line = text.count("\n", 0, offset)
    start = text.rfind("\n", 0, offset) + 1
    column = len(text[start:offset].encode("utf-16-le")) // 2
    return {"line": line, "character": column}


@dataclass
class Step:
    """One edit (an LSP content change) and the request that follows it."""

    change: dict[str, Any]
    method: str  # textDocument/completion or textDocument/hover
    position: dict[str, int]
    text: str  # the document after the edit


def edit_script(text: str, edits: int = 200, seed: int = 0) -> list[Step]:
    """A reproducible session of ``edits`` random edits on ``text``."""
    rng = random.Random(seed)
    steps: list[Step] = []
    for _ in range(edits):
        n = len(text)
        roll = rng.random()
        if roll < 0.35 or n == 0:  # type a few characters
            start = end = rng.randint(0, n)
            new = "".join(rng.choice(_POOL) for _ in range(rng.randint(1, 3)))
        elif roll < 0.6:  # delete a few characters
            start = rng.randint(0, max(0, n - 1))
            end = min(n, start + rng.randint(1, 3))
            new = ""
        elif roll < 0.8:  # insert a line
            at = rng.randint(0, n)
            start = end = text.rfind("\n", 0, at) + 1
            lines = text.split("\n")
            line = rng.choice(_SNIPPETS) if rng.random() < 0.6 else rng.choice(lines)
            new = "    " + line.strip() + "\n"
        else:  # delete a line
            at = rng.randint(0, max(0, n - 1))
            start = text.rfind("\n", 0, at) + 1
            stop = text.find("\n", at)
            end = n if stop < 0 else stop + 1
            new = ""
        change = {
            "range": {"start": utf16_position(text, start), "end": utf16_position(text, end)},
            "text": new,
        }
        text = text[:start] + new + text[end:]
        # mostly ask where the cursor now is, sometimes anywhere
        where = start + len(new) if rng.random() < 0.7 else rng.randint(0, len(text))
        method = "textDocument/completion" if rng.random() < 0.6 else "textDocument/hover"
        steps.append(Step(change, method, utf16_position(text, where), text))
    return steps


@dataclass
class LspClient:
    """A JSON-RPC client for a language server subprocess over stdio."""

    command: list[str] = field(default_factory=lambda: [sys.executable, "-m", "tasklang.lsp"])
    cwd: str | None = None
    proc: subprocess.Popen[bytes] | None = None
    messages: queue.Queue[tuple[float, dict[str, Any]]] = field(default_factory=queue.Queue)
    notifications: list[dict[str, Any]] = field(default_factory=list)
    stderr: list[bytes] = field(default_factory=list)
    _next_id: int = 0
    _pending: dict[int, tuple[float, dict[str, Any]]] = field(default_factory=dict)
    _published: int = 0

    def start(self) -> LspClient:
        env = dict(os.environ)
        env.setdefault("PYTHONUNBUFFERED", "1")
        self.proc = subprocess.Popen(
            self.command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=self.cwd,
            env=env,
        )
        assert self.proc.stdout is not None and self.proc.stderr is not None
        threading.Thread(target=self._read, args=(self.proc.stdout,), daemon=True).start()
        threading.Thread(target=self._drain, args=(self.proc.stderr,), daemon=True).start()
        return self

    def _read(self, stream: BinaryIO) -> None:
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.decode("ascii", "replace").partition(":")
                if name.lower() == "content-length":
                    length = int(value.strip())
            if length is None:
                continue
            body = stream.read(length)
            self.messages.put((time.perf_counter(), json.loads(body)))

    def _drain(self, stream: BinaryIO) -> None:
        for line in iter(stream.readline, b""):
            self.stderr.append(line)

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def send(self, message: dict[str, Any]) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        body = json.dumps(message).encode("utf-8")
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def notify(self, method: str, params: Any) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method: str, params: Any) -> tuple[int, float]:
        """Send a request; returns its id and the time it was sent."""
        self._next_id += 1
        sent = time.perf_counter()
        self.send({"jsonrpc": "2.0", "id": self._next_id, "method": method, "params": params})
        return self._next_id, sent

    def _pump(self, timeout: float) -> bool:
        try:
            at, msg = self.messages.get(timeout=timeout)
        except queue.Empty:
            return False
        if "id" in msg and "method" not in msg:
            self._pending[int(msg["id"])] = (at, msg)
        elif "id" in msg:  # a request from the server: answer it with nothing
            self.send({"jsonrpc": "2.0", "id": msg["id"], "result": None})
        else:
            self.notifications.append(msg)
            if msg.get("method") == "textDocument/publishDiagnostics":
                self._published += 1
        return True

    def response(self, msg_id: int, timeout: float = 10.0) -> tuple[float, dict[str, Any]] | None:
        """The response to request ``msg_id`` and when it arrived, or None on timeout."""
        deadline = time.perf_counter() + timeout
        while msg_id not in self._pending:
            left = deadline - time.perf_counter()
            if left <= 0 or (not self._pump(min(left, 0.5)) and not self.alive):
                return None
        return self._pending.pop(msg_id)

    def call(self, method: str, params: Any, timeout: float = 10.0) -> Any:
        msg_id, _ = self.request(method, params)
        got = self.response(msg_id, timeout)
        if got is None:
            raise TimeoutError(f"no response to {method}")
        if "error" in got[1]:
            raise RuntimeError(f"{method} failed: {got[1]['error']}")
        return got[1].get("result")

    @property
    def published(self) -> int:
        """How many diagnostics notifications have arrived so far."""
        return self._published

    def diagnostics(
        self, uri: str, version: int | None = None, timeout: float = 10.0
    ) -> list[dict[str, Any]] | None:
        """The first diagnostics published for ``uri`` (at ``version``) from now on."""
        deadline = time.perf_counter() + timeout
        seen = 0
        while True:
            for msg in self.notifications[seen:]:
                params = msg.get("params") or {}
                if (
                    msg.get("method") == "textDocument/publishDiagnostics"
                    and params.get("uri") == uri
                    and (version is None or params.get("version") == version)
                ):
                    self.notifications.remove(msg)
                    return list(params.get("diagnostics", []))
            seen = len(self.notifications)
            left = deadline - time.perf_counter()
            if left <= 0:
                return None
            self._pump(min(left, 0.5))

    def initialize(self, root: Path | None = None) -> Any:
        result = self.call(
            "initialize",
            {
                "processId": os.getpid(),
                "rootUri": root.resolve().as_uri() if root else None,
                "capabilities": {
                    "textDocument": {
                        "hover": {"contentFormat": ["markdown", "plaintext"]},
                        "completion": {"completionItem": {"snippetSupport": False}},
                        "documentSymbol": {"hierarchicalDocumentSymbolSupport": True},
                    }
                },
            },
            timeout=60.0,
        )
        self.notify("initialized", {})
        return result

    def open(self, uri: str, text: str, version: int = 1) -> None:
        self.notify(
            "textDocument/didOpen",
            {
                "textDocument": {
                    "uri": uri,
                    "languageId": "tasklang",
                    "version": version,
                    "text": text,
                }
            },
        )

    def stop(self, timeout: float = 10.0) -> int | None:
        """Shut the server down politely; returns its exit code (None if it had to be killed)."""
        if self.proc is None:
            return None
        try:
            if self.alive:
                self.call("shutdown", None, timeout=timeout)
                self.notify("exit", None)
        except (OSError, TimeoutError, RuntimeError):
            pass
        try:
            if self.proc.stdin is not None:
                self.proc.stdin.close()
        except OSError:
            pass
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            return None


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    k = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[k]


def library_task(name: str = "contacts.add_coworker.task") -> Path:
    from tasklang.compiler import library_root

    found = sorted(library_root().rglob(name))
    if not found:
        raise FileNotFoundError(name)
    return found[0]


_TASK_ID = re.compile(r"^(task\s+)([A-Za-z_][A-Za-z0-9_.]*)", re.M)


def large_document(lines: int) -> str:
    """At least ``lines`` lines of library tasks, renamed so every id is distinct."""
    from tasklang.compiler import library_root

    texts = [p.read_text("utf-8") for p in sorted(library_root().rglob("*.task"))]
    parts: list[str] = []
    count = copy = 0
    while count < lines:
        for text in texts:
            renamed = _TASK_ID.sub(rf"\g<1>\g<2>_{copy}", text)
            parts.append(renamed)
            count += renamed.count("\n")
            if count >= lines:
                break
        copy += 1
    return "\n".join(parts)


def run_session(
    client: LspClient, uri: str, steps: list[Step], pause: float = 0.01, rest: float = 0.2
) -> tuple[list[tuple[str, float]], int]:
    """Replay ``steps`` on an open document (version 1); returns (method, ms) per answered
    request and the number of requests left unanswered.

    The client waits ``pause`` seconds after each answer, like someone typing, and ``rest``
    seconds after every tenth, so that debounced compiles run while requests arrive.
    """
    latencies: list[tuple[str, float]] = []
    missing = 0
    for version, step in enumerate(steps, start=2):
        time.sleep(rest if version % 10 == 0 else pause)
        client.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": version}, "contentChanges": [step.change]},
        )
        msg_id, sent = client.request(
            step.method, {"textDocument": {"uri": uri}, "position": step.position}
        )
        got = client.response(msg_id, timeout=10.0)
        if got is None or "error" in got[1]:
            missing += 1
            continue
        latencies.append((step.method, (got[0] - sent) * 1000))
    return latencies, missing


def _figures(latencies: list[tuple[str, float]]) -> dict[str, float]:
    ms = [v for _, v in latencies]
    return {
        "max_ms": round(max(ms, default=0.0), 2),
        "p50_ms": round(_percentile(ms, 0.5), 2),
        "p95_ms": round(_percentile(ms, 0.95), 2),
    }


def bench_lsp(
    edits: int = 200, seed: int = 0, large_lines: int = 0, rest: float | None = None
) -> dict[str, Any]:
    """Run the scripted edit session against a server subprocess and report its latencies.

    With ``large_lines`` > 0 the session edits a generated file of that many lines instead of
    a library task file. ``rest`` is the pause after every tenth edit (by default long enough
    for the server's debounced compile to start, so requests meet a compile in progress).
    """
    if large_lines > 0:
        text = large_document(large_lines)
        path = Path.cwd() / "bench_large.task"
    else:
        path = library_task()
        text = path.read_text("utf-8")
    uri = path.resolve().as_uri()
    steps = edit_script(text, edits, seed)
    client = LspClient().start()
    try:
        started = time.perf_counter()
        client.initialize()
        client.open(uri, text)
        first = client.diagnostics(uri, 1, timeout=60.0)
        first_ms = (time.perf_counter() - started) * 1000
        t0 = time.perf_counter()
        if rest is None:
            rest = max(0.2, len(text) / 200_000 + 0.1)
        latencies, missing = run_session(client, uri, steps, rest=rest)
        session_s = time.perf_counter() - t0
        alive = client.alive
        try:
            client.call(
                "textDocument/hover",
                {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}},
            )
            answering = True
        except (TimeoutError, RuntimeError, OSError):
            answering = False
    finally:
        code = client.stop()
    figures = _figures(latencies)
    by_method = {
        m.rsplit("/", 1)[-1]: _figures([x for x in latencies if x[0] == m])
        for m in sorted({m for m, _ in latencies})
    }
    return {
        "document_lines": text.count("\n") + 1,
        "edits": edits,
        "requests": len(steps),
        "answered": len(latencies),
        "unanswered": missing,
        **figures,
        "by_method": by_method,
        "over_target": sum(1 for _, v in latencies if v >= TARGET_MS),
        "target_ms": TARGET_MS,
        "within_target": missing == 0 and figures["max_ms"] < TARGET_MS,
        "first_diagnostics_ms": round(first_ms, 1) if first is not None else None,
        "session_s": round(session_s, 2),
        "compiles": client.published,
        "server_alive": alive and answering,
        "exit_code": code,
    }


if __name__ == "__main__":  # pragma: no cover
    lines = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    print(json.dumps(bench_lsp(large_lines=lines), indent=2))
