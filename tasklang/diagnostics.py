"""One diagnostic type, one registry of codes, text and JSON rendering.

Codes come in bands: TL0xxx syntax, TL1xxx names and types, TL2xxx analysis,
TL3xxx backends. Every code a pass may emit is listed in ``REGISTRY``; that table
generates ``docs/diagnostics.md``.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from tasklang.source import SourceFile, Span

MAX_DIAGNOSTICS = 100


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"


@dataclass(frozen=True)
class Code:
    """A registered diagnostic code."""

    code: str
    severity: Severity
    title: str
    explanation: str


_CODES: list[tuple[str, Severity, str, str]] = [
    # -- TL0xxx: reading and syntax
    (
        "TL0001",
        Severity.ERROR,
        "unexpected character",
        "The lexer met a character that starts no token of the language.",
    ),
    (
        "TL0002",
        Severity.ERROR,
        "unexpected token",
        "The parser met a token that cannot continue the construct it is reading; the message says "
        "what it expected instead.",
    ),
    (
        "TL0003",
        Severity.ERROR,
        "unexpected end of file",
        "The file ends inside a construct, usually a block whose closing `}` is missing.",
    ),
    (
        "TL0004",
        Severity.ERROR,
        "unterminated string",
        'A string literal has no closing `"` on its line; strings cannot span lines.',
    ),
    (
        "TL0005",
        Severity.ERROR,
        "file is not UTF-8 text",
        "Source files must be UTF-8 text; binary data or another encoding was found.",
    ),
    (
        "TL0006",
        Severity.ERROR,
        "file declares nothing",
        "A source file must declare at least one `app` or `task`.",
    ),
    (
        "TL0007",
        Severity.ERROR,
        "nesting too deep",
        "Brackets, braces or parentheses are nested deeper than the compiler allows.",
    ),
    (
        "TL0008",
        Severity.ERROR,
        "file too large",
        "The file is larger than the compiler reads; split it into several files.",
    ),
    (
        "TL0009",
        Severity.ERROR,
        "invalid literal",
        "A date, time, datetime, duration, money or number literal is malformed or out of range "
        "(for example `2026-02-30`).",
    ),
    (
        "TL0010",
        Severity.ERROR,
        "invalid escape in string",
        'Strings accept the escapes `\\\\`, `\\"`, `\\n`, `\\t` and `\\u{HEX}`.',
    ),
    (
        "TL0011",
        Severity.ERROR,
        "control character in source",
        "The file holds a control character (other than tab and newline) outside a comment.",
    ),
    (
        "TL0012",
        Severity.ERROR,
        "formatter would change meaning",
        "`tasklang fmt` refuses to write output whose syntax tree differs from the input's, or "
        "that loses a comment; the file is left as it was.",
    ),
    # -- TL1xxx: names and types
    (
        "TL1001",
        Severity.ERROR,
        "unknown app",
        "The name does not match any app model in the library or in the compiled files.",
    ),
    (
        "TL1002",
        Severity.ERROR,
        "unknown collection or setting",
        "The app model has no collection or setting of that name.",
    ),
    ("TL1003", Severity.ERROR, "unknown field", "The record type has no field of that name."),
    (
        "TL1004",
        Severity.ERROR,
        "unknown name",
        "The name is neither a parameter of the task nor a field of the record in scope.",
    ),
    (
        "TL1005",
        Severity.ERROR,
        "duplicate declaration",
        "The same name is declared twice in one scope (task id, app, record, field, parameter).",
    ),
    (
        "TL1006",
        Severity.ERROR,
        "type mismatch",
        "The two sides of a comparison, assignment or range have incompatible types.",
    ),
    (
        "TL1007",
        Severity.ERROR,
        "operator not defined for type",
        "The operator or comparison option does not apply to values of this type.",
    ),
    (
        "TL1008",
        Severity.ERROR,
        "expected a boolean",
        "A condition (constraint, `where`, `expect` clause) must be a boolean expression.",
    ),
    (
        "TL1009",
        Severity.ERROR,
        "unknown type",
        "A field type must be one of the built-in types, an `enum(...)` or `list of T`.",
    ),
    (
        "TL1010",
        Severity.ERROR,
        "bad default value",
        "A field's default value does not have the field's type.",
    ),
    (
        "TL1011",
        Severity.ERROR,
        "unknown generator",
        "A parameter names a value generator that does not exist.",
    ),
    (
        "TL1012",
        Severity.ERROR,
        "invalid range",
        "A parameter range must have bounds of the declared type with `low <= high`.",
    ),
    (
        "TL1013",
        Severity.ERROR,
        "not an enum member",
        "The string is not one of the members of the enum it is compared with or assigned to.",
    ),
    (
        "TL1014",
        Severity.ERROR,
        "missing task item",
        "Every task needs `kind`, `apps`, `goal` and an `expect` block (or `outcome infeasible`).",
    ),
    (
        "TL1015",
        Severity.ERROR,
        "repeated task item",
        "An item that a task may state once (kind, goal, budget, ...) appears twice.",
    ),
    (
        "TL1016",
        Severity.ERROR,
        "bad goal template",
        "A `{...}` placeholder in the goal is malformed or names no parameter.",
    ),
    (
        "TL1017",
        Severity.ERROR,
        "app not listed",
        "The task reads or seeds an app that its `apps` line does not list.",
    ),
    (
        "TL1018",
        Severity.ERROR,
        "mini-app host mismatch",
        "A mini-app must be used `in` the super-app that hosts it, and only mini-apps take `in`.",
    ),
    ("TL1019", Severity.ERROR, "invalid weight", "Weights must be positive numbers."),
    (
        "TL1020",
        Severity.ERROR,
        "bad record literal",
        "A record literal names a field the record does not have, or omits a required field.",
    ),
    (
        "TL1021",
        Severity.ERROR,
        "unknown action",
        "Action names are the environment action set: click, double_tap, long_press, input_text, "
        "scroll, swipe, navigate_back, navigate_home, keyboard_enter, open_app, wait, status, answer.",
    ),
    (
        "TL1022",
        Severity.ERROR,
        "invalid kind",
        "`kind` is one of `app`, `mini_app` or `cross_app`, and must fit the apps the task lists.",
    ),
    (
        "TL1023",
        Severity.ERROR,
        "invalid probe",
        "A device probe must target a collection or setting of its app and map existing fields.",
    ),
    (
        "TL1024",
        Severity.ERROR,
        "invalid outcome",
        "`outcome` is `complete` or `infeasible`; an infeasible task cannot also expect an answer.",
    ),
    (
        "TL1025",
        Severity.ERROR,
        "invalid task setting",
        "`difficulty` is easy, medium or hard; device settings must be known keys with values of "
        "their type.",
    ),
    (
        "TL1026",
        Severity.ERROR,
        "invalid pattern",
        "An XPath selector or a `matches` regular expression does not compile.",
    ),
    (
        "TL1027",
        Severity.ERROR,
        "not a collection",
        "A quantifier, aggregate, `has` or record parameter needs a collection of records.",
    ),
    (
        "TL1028",
        Severity.ERROR,
        "invalid task id",
        "Task ids are dotted lowercase names such as `contacts.add_friend`.",
    ),
    (
        "TL1029",
        Severity.ERROR,
        "cyclic parameter",
        "A parameter's domain refers to itself or to a parameter that refers back to it.",
    ),
    (
        "TL1030",
        Severity.ERROR,
        "answer outside expect",
        "`answer` is the agent's final answer and may only be used in `expect` clauses.",
    ),
    (
        "TL1031",
        Severity.ERROR,
        "reserved word as a name",
        "A field or parameter may not be named `true`, `false`, `null`, `now` or `answer`: a bare "
        "name in an expression would silently mean the literal, the device clock or the agent's "
        "answer. (Other keywords used as bare names are syntax errors, TL0002, with a hint; "
        "they still work after a dot and in `has { ... }`.)",
    ),
    (
        "TL1032",
        Severity.ERROR,
        "invalid append-only collection",
        "An `append only` collection keeps each record under its key: its record type needs a "
        "`key` field, and the key may not be optional.",
    ),
    (
        "TL1033",
        Severity.ERROR,
        "invalid `changes`, `removes`, `adds` or `undoes` declaration",
        "`changes <names> only on <screens>` (or `only by`, `nowhere` or `by itself`) names "
        "collections and settings of the app, each in one `only on` line and one `only by` "
        "line at most, or in one `nowhere` or `by itself` line; a collection that changes by "
        "itself has no field said of apart. `removes <collections> only on <screens>` (or "
        "`only by`, or `nowhere`; never `by itself`) names collections whose records are told "
        "apart: by a key, or by fields that never change (`changes C.F nowhere`, which a "
        "collection without a key may say of its fields, as it may say `by itself`), each in one "
        "`only on` and one `only by` line at most, or in one `nowhere` line; so does `adds "
        "<collections> only on <screens>`, and `undoes <collections> ...` of collections whose "
        "records have a key. A field line `only on` or `only by` needs records "
        "told apart so too, or a field with a default: of records told apart by nothing, it "
        "says where a record comes to hold another value of the field than its default.",
    ),
    # -- TL2xxx: analysis (lint)
    (
        "TL2001",
        Severity.WARNING,
        "unused parameter",
        "A parameter is declared but neither the goal nor any clause uses it.",
    ),
    (
        "TL2002",
        Severity.WARNING,
        "field shadows parameter",
        "Inside a `where` or `has`, a bare name is the record's field; a parameter of the same "
        "name is hidden. Rename the parameter to make the clause unambiguous.",
    ),
    (
        "TL2003",
        Severity.WARNING,
        "no step budget",
        "Tasks should declare `budget N steps`; without one, environments use their default.",
    ),
    (
        "TL2004",
        Severity.WARNING,
        "goal mentions no parameter",
        "The task has parameters but its goal text interpolates none of them, so every instance "
        "reads the same.",
    ),
    (
        "TL2005",
        Severity.WARNING,
        "information task without answer check",
        "The goal asks a question (ends with `?`) but no clause checks `answer`.",
    ),
    (
        "TL2006",
        Severity.WARNING,
        "goal parameter not checked",
        "The goal interpolates a parameter that cannot change the verdict: no clause (in "
        "`expect` or `forbid`) uses it, nor a parameter drawn from a domain that names it, nor "
        "one that a constraint (one `and`-part of it) or a value seeded in `given` names "
        "together with it. The agent is told something the verifier never looks at, so an "
        "agent that ignores it passes. Compare the parameter (or a field of it) with the state "
        "or the answer in a clause, or leave it out of the goal. Infeasible tasks are not "
        "checked: their goal asks for what cannot be done.",
    ),
    (
        "TL2007",
        Severity.WARNING,
        "checked literal not stated in the goal",
        "A clause of `expect` requires the agent to produce a text or number literal (`f == v`, "
        "`f ~ v` or `f contains v` on a field of a record in `has`/`exists`/`all`, on a setting "
        "or on `answer`) that the goal text never states, and that the `given` block does not "
        "seed either, so the agent cannot know it. The goal is searched case-insensitively "
        "with whitespace normalized; a number may be spelled `7`, `7.0`, `seven`, and money "
        "`$12.50` or `12.5`. Booleans, enum members, dates, times and durations are not "
        "checked, nor literals under `not`, `none`, `!=`, `count` or the condition of "
        "`implies`, in guards, in `forbid`, in an `or` branch when another branch needs no "
        "unstated literal, literals equal to the field's default, or number "
        "and yes/no literals compared with `answer` (counted or summed answers cannot be "
        "stated). State the value in the goal, or interpolate a parameter holding it.",
    ),
    (
        "TL2008",
        Severity.WARNING,
        "guard watches what changes by itself",
        "An `unchanged` clause names a collection or setting that the app model says changes by "
        "itself (`changes NAME by itself`: a service, other people, the time), or a collection "
        "some of whose fields do. On a real phone the clause fails whenever that happens, "
        "whatever the agent did. Watch the app as a whole (`unchanged APP` leaves such state "
        "out), or check what the agent could change: the records it would add, the fields it "
        "would set.",
    ),
    (
        "TL2010",
        Severity.ERROR,
        "constraints cannot be met",
        "No choice of parameter values meets the task's parameter domains, constraints, record "
        "domains and noise conditions together, so no instance can be sampled. The solver's "
        "unsatisfiable core is listed in the notes: the clauses that conflict (relax one).",
    ),
    (
        "TL2011",
        Severity.ERROR,
        "goal cannot hold",
        "No final state allowed by the app model's types meets every `expect` clause, for any "
        "instance: the task is unsolvable. The notes list the clauses that conflict. Trace "
        "and UI clauses are not part of this proof (they can always be met as far as it knows).",
    ),
    (
        "TL2012",
        Severity.ERROR,
        "goal already true at the start",
        "For some instance, an episode that does nothing and declares the task complete "
        "passes every `expect` clause: the task is vacuous there. The counterexample instance "
        "is in the notes (and in `--format json`), and was replayed through the verifier. "
        "Change `given` or the constraints so the goal needs work, or mark the task "
        "`verify only` if checking the current state is the point.",
    ),
    (
        "TL2013",
        Severity.ERROR,
        "`expect` contradicts `forbid`",
        "Every final state that meets `expect` requires a change that `forbid` rules out "
        "(deleting a record that must go, say, when deletions are forbidden), so no episode "
        "can succeed without a safety violation. The notes list the clauses involved.",
    ),
    (
        "TL2014",
        Severity.WARNING,
        "answer not unique",
        "Two instances show the agent the same goal text and the same initial state but expect "
        "different answers, so a correct answer for one fails the other: the goal does not say "
        "which record it asks about. The two instances and the answer that separates them are "
        "in the notes; interpolate the parameter that decides the answer, or constrain the "
        "state so only one record qualifies.",
    ),
    (
        "TL2019",
        Severity.WARNING,
        "analysis incomplete",
        "A solver call ran out of time (`--timeout MS` raises the limit) or the task uses a "
        "construct the analysis does not model; the checks it could not finish are skipped, "
        "the task still compiles.",
    ),
]

REGISTRY: dict[str, Code] = {c: Code(c, s, t, e) for c, s, t, e in _CODES}


@dataclass
class Diagnostic:
    """A message about a source location, with a registered code."""

    code: str
    message: str
    span: Span
    help: str | None = None
    notes: list[str] = field(default_factory=list)
    severity: Severity | None = None
    counterexample: dict[str, Any] | None = None  # a concrete task instance, for analysis

    def __post_init__(self) -> None:
        if self.code not in REGISTRY:
            raise ValueError(f"unregistered diagnostic code {self.code}")
        if self.severity is None:
            self.severity = REGISTRY[self.code].severity

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.span.file, self.span.start, self.span.end, self.code)

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "severity": self.severity.value if self.severity else "error",
            "message": self.message,
            "file": self.span.file,
            "line": self.span.line,
            "column": self.span.column,
            "end_line": self.span.end_line,
            "end_column": self.span.end_column,
            "help": self.help,
            "notes": list(self.notes),
            **({"counterexample": self.counterexample} if self.counterexample else {}),
        }


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """A help line proposing the closest candidate, if any is close.

    >>> did_you_mean("peple", ["people", "threads"])
    'did you mean `people`?'
    """
    options = sorted(set(candidates))
    match = difflib.get_close_matches(name, options, n=1, cutoff=0.6)
    if not match:
        lowered = {o.lower(): o for o in options}
        if name.lower() in lowered:
            match = [lowered[name.lower()]]
    return f"did you mean `{match[0]}`?" if match else None


def finalize(diagnostics: Iterable[Diagnostic], cap: int = MAX_DIAGNOSTICS) -> list[Diagnostic]:
    """Deduplicate, sort by position and cap a list of diagnostics."""
    seen: set[tuple[str, int, int, str, str]] = set()
    unique: list[Diagnostic] = []
    for d in diagnostics:
        key = (d.span.file, d.span.start, d.span.end, d.code, d.message)
        if key not in seen:
            seen.add(key)
            unique.append(d)
    unique.sort(key=Diagnostic.sort_key)
    if len(unique) > cap:
        dropped = len(unique) - cap
        unique = unique[:cap]
        last = unique[-1]
        last.notes.append(f"{dropped} more diagnostics not shown")
    return unique


def has_errors(diagnostics: Sequence[Diagnostic]) -> bool:
    return any(d.is_error for d in diagnostics)


def render_text(
    diagnostics: Sequence[Diagnostic],
    sources: dict[str, SourceFile],
    color: bool = False,
) -> str:
    """Render diagnostics as `file:line:col: severity[CODE]: message` with an excerpt."""
    return "\n".join(_render_one(d, sources.get(d.span.file), color) for d in diagnostics)


def _paint(text: str, style: str, color: bool) -> str:
    codes = {"error": "1;31", "warning": "1;33", "note": "1;36", "bold": "1", "caret": "1;32"}
    return f"\x1b[{codes[style]}m{text}\x1b[0m" if color else text


def _render_one(d: Diagnostic, source: SourceFile | None, color: bool) -> str:
    sev = d.severity.value if d.severity else "error"
    head = f"{d.span.label}: {_paint(f'{sev}[{d.code}]', sev, color)}: {d.message}"
    lines = [_paint(head, "bold", color) if not color else head]
    if source is not None:
        text = source.line_text(d.span.line)
        if text or d.span.line <= source.line_count:
            shown = text.replace("\t", " ")
            width = len(str(d.span.line))
            caret_len = 1
            if d.span.end_line == d.span.line:
                caret_len = max(1, d.span.end_column - d.span.column)
            caret_len = max(1, min(caret_len, len(shown) - d.span.column + 2))
            pad = " " * width
            lines.append(f"{pad} |")
            lines.append(f"{d.span.line} | {_printable(shown)}")
            caret = " " * (d.span.column - 1) + "^" * caret_len
            lines.append(f"{pad} | {_paint(caret, 'caret', color)}")
    if d.help:
        lines.append(f"  = help: {d.help}")
    for note in d.notes:
        lines.append(f"  = note: {note}")
    return "\n".join(lines)


def _printable(text: str) -> str:
    return "".join(
        ch if ch.isprintable() or ch == " " else "\N{REPLACEMENT CHARACTER}" for ch in text
    )


def render_json(diagnostics: Sequence[Diagnostic]) -> str:
    return json.dumps([d.to_json() for d in diagnostics], indent=2, ensure_ascii=False)


def registry_markdown() -> str:
    """The text of docs/diagnostics.md, generated from REGISTRY."""
    bands = {
        "0": "TL0xxx: reading and syntax",
        "1": "TL1xxx: names and types",
        "2": "TL2xxx: analysis",
        "3": "TL3xxx: backends",
    }
    out = [
        "# Diagnostics",
        "",
        "Generated from `tasklang/diagnostics.py` by `python -m tasklang.diagnostics`; "
        "do not edit by hand.",
        "",
        "Every diagnostic has a code, a severity, a message, a source span, and often help and "
        "notes. `tasklang compile --format json` prints the same data as JSON.",
    ]
    current = None
    for code in REGISTRY.values():
        band = code.code[2]
        if band != current:
            current = band
            out += ["", f"## {bands[band]}", ""]
        out += [
            f"### {code.code}: {code.title}",
            "",
            f"Severity: {code.severity.value}.",
            "",
            code.explanation,
            "",
        ]
    return "\n".join(out).rstrip() + "\n"


if __name__ == "__main__":  # pragma: no cover
    print(registry_markdown(), end="")
