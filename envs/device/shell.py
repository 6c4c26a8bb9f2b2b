"""Device commands as argument vectors, and the one function that quotes them for `adb shell`.

`adb shell` hands its command line to the device's `sh -c`, so every command that runs
there is interpreted by a shell. Task values therefore never reach the device as text of a
command line: each argument is quoted by :func:`quote` (and nothing else), so the device
shell turns the line back into exactly the argument vector the plan holds. SQL and
`content --where` text built from task values goes through :func:`sql_literal`, the second
and last quoting function. File contents travel as pushed files, never as arguments.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

_PLAIN = re.compile(r"[A-Za-z0-9_@%+=:,./-]+")
MAX_ARG_CHARS = 100_000


class UnsafeValue(ValueError):
    """A value that cannot be passed to a device safely (a NUL byte, or far too long)."""


def quote(arg: str) -> str:
    """``arg`` as one word of a POSIX shell command line (the device's mksh included).

    Plain words stay as they are; anything else is single-quoted, and a single quote
    inside is written ``'"'"'``. Inside single quotes a POSIX shell expands nothing
    (no ``$``, no backticks, no backslashes, newlines kept), so the word is the value.

    >>> quote("settings")
    'settings'
    >>> quote("it's $(reboot)")
    '\\'it\\'"\\'"\\'s $(reboot)\\''
    >>> quote("")
    "''"
    """
    if "\x00" in arg:
        raise UnsafeValue("a NUL character cannot be passed to a device command")
    if len(arg) > MAX_ARG_CHARS:
        raise UnsafeValue(f"an argument of {len(arg)} characters is over {MAX_ARG_CHARS}")
    if _PLAIN.fullmatch(arg):
        return arg
    return "'" + arg.replace("'", "'\"'\"'") + "'"


def shell_line(argv: Sequence[str]) -> str:
    """The `adb shell` command line that runs ``argv`` (every word quoted by :func:`quote`)."""
    return " ".join(quote(a) for a in argv)


def option_like(value: str) -> bool:
    """Whether a command could read the value as an option (``-g``, ``--user``): a value
    that starts with ``-`` and is not a number.

    >>> option_like("--user"), option_like("-1"), option_like("-2.5"), option_like("a-b")
    (True, False, False, False)
    """
    if not value.startswith("-"):
        return False
    try:
        float(value)
    except ValueError:
        return True
    return False


def sql_literal(value: Any) -> str:
    """A SQLite literal for a JSON value: text in single quotes (doubled inside), numbers,
    ``NULL``; booleans as 1/0, lists and objects as their JSON text.

    >>> sql_literal("O'Brien"), sql_literal(None), sql_literal(True), sql_literal(2.5)
    ("'O''Brien'", 'NULL', '1', '2.5')
    """
    import json

    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            return "NULL"
        return repr(value)
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    if "\x00" in text:
        raise UnsafeValue("a NUL character cannot be stored through SQL text")
    return "'" + text.replace("'", "''") + "'"


def sql_name(name: str) -> str:
    """A SQLite identifier (table or column) in double quotes, doubled inside.

    >>> sql_name('expense'), sql_name('a"b')
    ('"expense"', '"a""b"')
    """
    if "\x00" in name:
        raise UnsafeValue("a NUL character cannot be part of a SQL name")
    return '"' + name.replace('"', '""') + '"'


@dataclass(frozen=True)
class Command:
    """One step of a device plan.

    ``shell``: ``argv`` runs through `adb shell` (quoted by :func:`shell_line`).
    ``push``: ``data`` is written to the device path ``argv[0]`` with `adb push` (no shell).
    ``save`` names the output kept for the tear-down; ``tolerate`` marks a step whose
    failure is expected on some phones (moving aside a folder that does not exist).
    """

    argv: tuple[str, ...]
    purpose: str
    kind: Literal["shell", "push"] = "shell"
    data: bytes | None = None
    save: str | None = None
    tolerate: bool = False
    meta: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def line(self) -> str:
        """How the step reads in a plan (the exact `adb shell` line, or the push)."""
        if self.kind == "push":
            size = len(self.data or b"")
            return f"adb push <{size} bytes> {quote(self.argv[0])}"
        return shell_line(self.argv)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "argv": list(self.argv), "purpose": self.purpose}
        if self.kind == "shell":
            out["line"] = self.line
        if self.data is not None:
            out["bytes"] = len(self.data)
        if self.save:
            out["save"] = self.save
        if self.tolerate:
            out["tolerate"] = True
        return out
