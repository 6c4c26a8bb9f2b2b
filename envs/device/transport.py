"""Transports: how a command line reaches a phone and its output comes back.

``AdbTransport`` runs `adb -s SERIAL shell LINE` (one argument: adb hands it to the device's
`sh -c`). ``ReplayTransport`` answers from recorded command/response pairs.
``PhoneWorldTransport`` (module ``phoneworld``) answers from PhoneWorld's state. All raise
:class:`TransportError` subclasses, never anything else, so an episode can end cleanly.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from tasklang.envs.device.shell import shell_line


class TransportError(Exception):
    """A phone that could not be reached or did not answer."""


class DeviceTimeout(TransportError):
    pass


class Disconnected(TransportError):
    pass


class CommandFailed(TransportError):
    def __init__(self, line: str, status: int, output: str) -> None:
        super().__init__(f"`{line[:80]}` exited {status}: {output.strip()[:120]}")
        self.status, self.output = status, output


class Transport(Protocol):
    def shell(self, line: str, timeout: float = 20.0) -> str: ...

    def push(self, remote: str, data: bytes, timeout: float = 60.0) -> None: ...


def run_argv(t: Transport, argv: Sequence[str], timeout: float = 20.0, retries: int = 0) -> str:
    """Run one argument vector, retrying a timeout ``retries`` times. Only commands that
    read are retried (a tap or an insert that timed out may still have happened: running it
    again could do it twice); a failed command or a lost connection never is."""
    line = shell_line(argv)
    for attempt in range(retries + 1):
        try:
            return t.shell(line, timeout)
        except DeviceTimeout:
            if attempt == retries:
                raise
    raise AssertionError("unreachable")


@dataclass
class AdbTransport:
    """A phone over adb; ``adb`` is found on PATH unless given."""

    serial: str
    adb: str = "adb"

    def _run(self, args: list[str], timeout: float, data: bytes | None = None) -> str:
        try:
            proc = subprocess.run(
                [self.adb, "-s", self.serial, *args],
                input=data,
                capture_output=True,
                timeout=timeout,
                check=False,
            )
        except subprocess.TimeoutExpired:
            raise DeviceTimeout(f"`adb {args[0]}` took over {timeout:g}s") from None
        except OSError as exc:
            raise Disconnected(f"cannot run adb: {exc}") from None
        out = proc.stdout.decode("utf-8", "replace")
        err = proc.stderr.decode("utf-8", "replace")
        if proc.returncode != 0:
            if any(s in err for s in ("not found", "offline", "no devices", "unauthorized")):
                raise Disconnected(f"device `{self.serial}`: {err.strip()[:120]}")
            raise CommandFailed(" ".join(args), proc.returncode, out + err)
        return out

    def shell(self, line: str, timeout: float = 20.0) -> str:
        return self._run(["shell", line], timeout)

    def push(self, remote: str, data: bytes, timeout: float = 60.0) -> None:
        import tempfile

        with tempfile.NamedTemporaryFile(prefix="tasklang-push-") as tmp:
            tmp.write(data)
            tmp.flush()
            self._run(["push", tmp.name, remote], timeout)


@dataclass
class ReplayTransport:
    """Answers from recorded ``{"line", "output"}`` pairs (``"status"``, ``"error"``:
    ``timeout`` or ``disconnected`` too): each line gets the first pair recorded for it, which
    is then used up (unless ``"once": false``); a line never recorded is a failed command."""

    pairs: list[dict[str, Any]]
    used: list[str] = field(default_factory=list)

    @classmethod
    def load(cls, path: Path) -> ReplayTransport:
        pairs = [json.loads(x) for x in path.read_text("utf-8").splitlines() if x.strip()]
        return cls(pairs)

    def shell(self, line: str, timeout: float = 20.0) -> str:
        for i, pair in enumerate(self.pairs):
            if pair.get("line") == line:
                if pair.get("once", True):
                    self.pairs.pop(i)
                self.used.append(line)
                return self._answer(line, pair)
        raise CommandFailed(line, 127, "no recorded answer")

    @staticmethod
    def _answer(line: str, pair: dict[str, Any]) -> str:
        error = pair.get("error")
        if error == "timeout":
            raise DeviceTimeout(f"`{line[:60]}` did not answer")
        if error == "disconnected":
            raise Disconnected("device offline")
        status = int(pair.get("status", 0))
        if status:
            raise CommandFailed(line, status, str(pair.get("output", "")))
        return str(pair.get("output", ""))

    def push(self, remote: str, data: bytes, timeout: float = 60.0) -> None:
        self.shell(f"<push {remote}>", timeout)
