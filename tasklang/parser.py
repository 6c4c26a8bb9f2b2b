"""Text -> AST, turning every lexer and parser failure into a diagnostic."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from importlib import resources

from lark import Lark, Token, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.exceptions import VisitError

from tasklang import ast
from tasklang.diagnostics import Diagnostic
from tasklang.source import SourceFile, Span
from tasklang.transform import ToAst

MAX_SOURCE_BYTES = 2 * 1024 * 1024
MAX_NESTING = 64
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_PREV_WORD = re.compile(r"\b([A-Za-z_][A-Za-z0-9_]*)\s*$")
_CALL_WORDS = frozenset({"count", "sum", "min", "max", "avg"})

_TOKEN_NAMES = {
    "NAME": "a name",
    "STRING": "a string",
    "INT": "an integer",
    "DECIMAL": "a number",
    "MONEY": "a money amount",
    "DATE": "a date",
    "TIME": "a time",
    "DATETIME": "a datetime",
    "DURATION": "a duration",
    "CMP_SYM": "a comparison",
    "ADD_OP": "`+` or `-`",
    "MUL_OP": "`*` or `/`",
    "$END": "end of file",
}


def grammar_text() -> str:
    """The grammar source, from the installed package data."""
    return resources.files("tasklang.grammar").joinpath("tasklang.lark").read_text("utf-8")


_comments: list[Token] = []


@functools.cache
def parser() -> Lark:
    return Lark(
        grammar_text(),
        parser="lalr",
        lexer="contextual",
        propagate_positions=True,
        maybe_placeholders=True,
        lexer_callbacks={"COMMENT": _comments.append},
        cache=False,
    )


@dataclass(frozen=True)
class Comment:
    """A `#` comment: its text (with the `#`), line and offsets."""

    text: str
    line: int
    start: int
    end: int


def parse_with_comments(
    source: SourceFile,
) -> tuple[ast.Module | None, list[Comment], list[Diagnostic]]:
    """Like ``parse``, also returning the file's comments in order."""
    _comments.clear()
    module, diagnostics = parse(source)
    found = [Comment(str(t), t.line or 1, t.start_pos or 0, t.end_pos or 0) for t in _comments]
    _comments.clear()
    return module, found, diagnostics


def parse(source: SourceFile) -> tuple[ast.Module | None, list[Diagnostic]]:
    """Parse one source file; on failure return None and the syntax diagnostics."""
    problems = precheck(source)
    if problems:
        return None, problems
    try:
        tree = parser().parse(source.text)
    except UnexpectedInput as exc:
        return None, [_syntax_diagnostic(source, exc)]
    try:
        module = ToAst(source.path).transform(tree)
    except (RecursionError, VisitError) as exc:
        if isinstance(exc, VisitError) and not isinstance(exc.orig_exc, RecursionError):
            raise
        return None, [_too_deep(source, source.whole())]
    if not module.decls:
        return None, [
            Diagnostic(
                "TL0006",
                "file declares nothing",
                source.span(0, 0),
                help="start the file with `task ID { ... }` or `app NAME { ... }`",
            )
        ]
    return module, []


def _too_deep(source: SourceFile, span: Span) -> Diagnostic:
    return Diagnostic(
        "TL0007",
        "expression nested too deeply",
        span,
        help="split the expression into several clauses",
    )


def precheck(source: SourceFile) -> list[Diagnostic]:
    """Cheap checks before parsing: size, control characters, bracket nesting."""
    text = source.text
    if len(text.encode("utf-8", "surrogatepass")) > MAX_SOURCE_BYTES:
        return [
            Diagnostic(
                "TL0008",
                f"file is larger than {MAX_SOURCE_BYTES // 1024} KiB",
                source.span(0, 0),
                help="split the tasks over several files",
            )
        ]
    depth = 0
    in_string = in_comment = escaped = False
    for i, ch in enumerate(text):
        code = ord(ch)
        if in_comment and not 0xD800 <= code <= 0xDFFF:
            in_comment = ch != "\n"
            continue
        if (code < 32 and ch not in "\t\n\r") or code == 127 or 0xD800 <= code <= 0xDFFF:
            return [
                Diagnostic(
                    "TL0011",
                    f"control character U+{code:04X} in source",
                    source.span(i, i + 1),
                    help="remove the character",
                )
            ]
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"' or ch == "\n":
                in_string = False
            continue
        if ch == "#":
            in_comment = True
        elif ch == '"':
            in_string = True
        elif ch in "([{":
            depth += 1
            if depth > MAX_NESTING:
                return [
                    Diagnostic(
                        "TL0007",
                        f"brackets nested deeper than {MAX_NESTING} levels",
                        source.span(i, i + 1),
                    )
                ]
        elif ch in ")]}":
            depth = max(0, depth - 1)
    return []


def _describe(name: str) -> str:
    if name in _TOKEN_NAMES:
        return _TOKEN_NAMES[name]
    for term in parser().terminals:
        if term.name == name:
            pattern = term.pattern
            if pattern.type == "str":
                return f"`{pattern.value}`"
    return f"`{name.lower()}`"


def _expected(names: set[str] | frozenset[str] | None) -> str:
    if not names:
        return ""
    described = sorted(
        {_describe(n) for n in names}, key=lambda d: (d not in ("`}`", "`)`", "`]`"), d)
    )
    if len(described) > 8:
        described = [*described[:8], "..."]
    return ", ".join(described)


def _syntax_diagnostic(source: SourceFile, exc: UnexpectedInput) -> Diagnostic:
    if isinstance(exc, UnexpectedCharacters):
        pos = exc.pos_in_stream or 0
        ch = source.text[pos] if pos < len(source.text) else ""
        if ch == '"':
            end = source.text.find("\n", pos)
            end = len(source.text) if end < 0 else end
            return Diagnostic(
                "TL0004",
                "unterminated string",
                source.span(pos, end),
                help='close the string with `"` on the same line',
            )
        shown = ch if ch.isprintable() else f"U+{ord(ch):04X}"
        return Diagnostic(
            "TL0001",
            f"unexpected character `{shown}`",
            source.span(pos, pos + 1),
            help=_help_for(exc.allowed),
        )
    if isinstance(exc, UnexpectedEOF) or (
        isinstance(exc, UnexpectedToken) and exc.token.type == "$END"
    ):
        end = len(source.text)
        expected = getattr(exc, "expected", None)
        return Diagnostic(
            "TL0003",
            "unexpected end of file",
            source.span(end, end),
            help=_help_for(expected) or "a block may be missing its closing `}`",
        )
    assert isinstance(exc, UnexpectedToken)
    token: Token = exc.token
    start = token.start_pos or 0
    end = token.end_pos if token.end_pos is not None else start + len(str(token))
    text = str(token)
    if len(text) > 40:
        text = text[:37] + "..."
    help_text = _help_for(exc.expected)
    before = _PREV_WORD.search(source.text, 0, start)
    if before and before.group(1) in _CALL_WORDS and exc.expected and "LPAR" in exc.expected:
        word = before.group(1)
        help_text = (
            f"`{word}` starts `{word}(...)` here; a field named `{word}` can be used "
            f"after a dot or in `has {{ {word} == ... }}`"
        )
    if token.type != "NAME" and "NAME" in (exc.expected or ()) and _NAME.fullmatch(text):
        help_text = f"`{text}` is a reserved word here; choose another name"
    return Diagnostic("TL0002", f"unexpected `{text}`", source.span(start, end), help=help_text)


def _help_for(names: set[str] | frozenset[str] | None) -> str | None:
    listed = _expected(names)
    return f"expected {listed}" if listed else None
