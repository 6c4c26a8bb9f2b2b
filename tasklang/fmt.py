"""The canonical formatter: AST (plus comments) -> text, and a safe source formatter.

``format_module`` prints a tree in the one canonical style: two-space indentation,
one item per line inside blocks, a blank line between top-level declarations (and
one wherever the source separated two block items by empty lines), and expressions
with the fewest parentheses that re-parse to the same tree. ``format_source`` formats
a file and refuses (diagnostic ``TL0012``) whenever the result would not parse back
to the same tree or would lose a comment.

Lines are kept within ``MAX_WIDTH`` columns. An item that does not fit breaks its
outermost bracketed construct (list and record literals, ``has { ... }``, probe
maps, ``enum(...)``, and ``count(...)`` and aggregates that have a ``where``) one
element per line, one level deeper, each element followed by a comma (``enum`` and
the calls take none), and the closing bracket on a line of its own. A chain of
``and``/``or``/``implies`` that does not fit puts each further operand on a line of
its own, one level deeper, starting with the operator. Inner constructs that still
do not fit break the same way; ones that fit stay inline. Parentheses never break:
the parser leaves them out of node spans, and comments and blank lines are placed
by the first and last line of an item's span, which must stay its first and last
printed lines. A long string or other unbreakable run can still pass the width.

The grammar is LALR(1) and lark resolves its shift/reduce conflicts by shifting,
which the printer has to respect:

* a quantifier's ``where`` clause reads a whole expression greedily, so a
  quantifier with ``where`` that is followed by any operator, comparison option or
  postfix is parenthesized: ``(exists a.b where x) and y``. Without ``where`` its
  dotted path would swallow a following ``.name``: ``(exists a.b).c``. A change
  event's ``where`` reads an ``or_expr``;
* statements in ``constraints`` and ``expect`` are juxtaposed without separators,
  so a statement that starts with ``-`` would be read as the right operand of the
  previous one, and one that starts with ``not`` right after ``ui element ...``
  would be read as a negated UI state. Such a statement is printed in parentheses
  (``(`` cannot continue an expression: the language has no call syntax);
* a ``probe ... : ui SELECTOR`` without a column map, directly followed by a
  ``package`` item, cannot be printed at all (the selector takes ``package "..."``
  as one more attribute). No source parses to that tree, so only hand-built trees
  hit it; ``format_source`` never emits wrong text because it re-parses its output.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TypeAlias, cast

from tasklang import ast
from tasklang.diagnostics import Diagnostic
from tasklang.parser import Comment, parse_with_comments
from tasklang.source import SourceFile, Span

INDENT = "  "
MAX_WIDTH = 100  # longest line the layout aims for, indentation included
REFUSAL_CODE = "TL0012"
_RECURSION_LIMIT = 10_000

# Binding strength of expression forms, loosest first. A child printed where the
# grammar wants strength `need` is parenthesized when its own strength is lower.
_NONE = 0  # also: "nothing that could extend an expression follows"
_IMPLIES = 1
_OR = 2
_AND = 3
_NOT = 4
_CMP = 5
_SUM = 6
_PRODUCT = 7
_UNARY = 8
_POSTFIX = 9
_ATOM = 10

_OP_STRENGTH = {
    "implies": _IMPLIES,
    "or": _OR,
    "and": _AND,
    "+": _SUM,
    "-": _SUM,
    "*": _PRODUCT,
    "/": _PRODUCT,
}
_NODE_STRENGTH = {
    "Not": _NOT,
    "Compare": _CMP,
    "Neg": _UNARY,
    "Attr": _POSTFIX,
    "Has": _POSTFIX,
}


def _strength(node: ast.Expr) -> int:
    """How tightly the printed form of ``node`` binds."""
    if isinstance(node, (ast.BoolOp, ast.BinOp)):
        return _OP_STRENGTH[node.op]
    return _NODE_STRENGTH.get(type(node).__name__, _ATOM)


def _open_right(node: ast.Expr, follow: int) -> bool:
    """Whether ``node`` would swallow the operator of strength ``follow`` after it."""
    if isinstance(node, ast.Quant):
        return follow >= (_IMPLIES if node.where is not None else _POSTFIX)
    return False


@dataclass(frozen=True)
class _Group:
    """A bracketed, comma-separated construct that may be laid out one item per line.

    Inline it reads ``open item, item close`` (with a space inside the brackets when
    ``pad``); broken, each item goes on its own line one level deeper, followed by a
    comma (after the last item only when ``comma``: the grammar allows it there).
    """

    open: str
    items: tuple[_Doc, ...]
    close: str
    pad: bool = False
    comma: bool = True


@dataclass(frozen=True)
class _Chain:
    """Operands joined by one boolean operator (``a and b and c``).

    Inline it reads ``a and b``; broken, every further operand starts a new line,
    one level deeper, with the operator in front: ``a`` / ``and b`` / ``and c``.
    """

    op: str
    operands: tuple[_Doc, ...]


# A document: text and breakable parts, printed one after the other.
_Part: TypeAlias = "str | _Group | _Chain"
_Doc: TypeAlias = tuple[_Part, ...]


def _cat(*pieces: _Part | _Doc) -> _Doc:
    """One document from text, breakable parts and documents (adjacent text merged)."""
    out: list[_Part] = []
    for piece in pieces:
        for part in piece if isinstance(piece, tuple) else (piece,):
            if isinstance(part, str) and out and isinstance(out[-1], str):
                out[-1] += part
            elif part != "":
                out.append(part)
    return tuple(out)


def _flat(doc: _Doc) -> str:
    """``doc`` on one line."""
    return "".join(_flat_part(part) for part in doc)


def _flat_part(part: _Part) -> str:
    if isinstance(part, str):
        return part
    if isinstance(part, _Chain):
        return f" {part.op} ".join(_flat(operand) for operand in part.operands)
    if not part.items:
        return part.open + part.close
    pad = " " if part.pad else ""
    inner = ", ".join(_flat(item) for item in part.items)
    return f"{part.open}{pad}{inner}{pad}{part.close}"


def _layout(doc: _Doc, depth: int, lines: list[str], after: int, width: int) -> None:
    """Append ``doc`` to ``lines[-1]``, breaking parts that would pass ``width``.

    ``depth`` is the indentation level of the current line and ``after`` the width
    of the text that will follow ``doc`` on its last line. A group or chain stays
    inline when it fits together with the text after it, up to the next place a
    line could break; otherwise it is broken and its pieces are laid out the same
    way, so the outermost construct breaks first. Only whitespace changes between
    the two forms, so either one parses to the same tree.
    """
    for i, part in enumerate(doc):
        if isinstance(part, str):
            lines[-1] += part
            continue
        flat = _flat_part(part)
        follow = _follow(doc, i + 1, after)
        if len(lines[-1]) + len(flat) + follow <= width or not _breakable(part):
            lines[-1] += flat
        elif isinstance(part, _Chain):
            last = len(part.operands) - 1
            first = part.operands[0]
            # a chain of a tighter operator as the first operand (`a and b or c`)
            # continues deeper than this one, so the two cannot be mistaken
            nested = len(first) == 1 and isinstance(first[0], _Chain)
            _layout(first, depth + 1 if nested else depth, lines, 0, width)
            for j, operand in enumerate(part.operands[1:], 1):
                lines.append(f"{INDENT * (depth + 1)}{part.op} ")
                _layout(operand, depth + 1, lines, follow if j == last else 0, width)
        else:
            # a group with no brackets hangs its items under the line that leads to them
            lines[-1] = lines[-1] + part.open if part.open else lines[-1].rstrip()
            for j, item in enumerate(part.items):
                comma = "," if part.comma or j + 1 < len(part.items) else ""
                lines.append(INDENT * (depth + 1))
                _layout(item, depth + 1, lines, len(comma), width)
                lines[-1] += comma
            if part.close:
                lines.append(INDENT * depth + part.close)


def _breakable(part: _Part) -> bool:
    return isinstance(part, _Chain) or (isinstance(part, _Group) and bool(part.items))


def _follow(doc: _Doc, start: int, after: int) -> int:
    """Width of ``doc[start:]`` up to its first possible line break (or ``after``)."""
    width = 0
    for part in doc[start:]:
        if isinstance(part, _Chain):
            return width + _follow(part.operands[0], 0, 0)
        if isinstance(part, _Group) and part.items:
            return width + len(part.open)
        width += len(_flat_part(part))
    return width + after


class _ExprPrinter:
    """Expressions to documents with minimal parentheses (``_expr_<Class>`` per node)."""

    def expr(self, node: ast.Expr, need: int = _IMPLIES, follow: int = _NONE) -> _Doc:
        """``node`` in a slot that takes strength ``need``, followed by ``follow``."""
        if _strength(node) < need or _open_right(node, follow):
            return _cat("(", self._render(node, _NONE), ")")
        return self._render(node, follow)

    def _render(self, node: ast.Expr, follow: int) -> _Doc:
        method = getattr(self, f"_expr_{type(node).__name__}", None)
        if method is None:
            raise TypeError(f"cannot format expression node {type(node).__name__}")
        return _cat(cast(Callable[[ast.Expr, int], "_Part | _Doc"], method)(node, follow))

    def _expr_Lit(self, node: ast.Lit, follow: int) -> str:
        return node.text

    def _expr_Name(self, node: ast.Name, follow: int) -> str:
        return node.name

    def _expr_Answer(self, node: ast.Answer, follow: int) -> str:
        return "answer"

    def _expr_Now(self, node: ast.Now, follow: int) -> str:
        return "now"

    def _expr_Attr(self, node: ast.Attr, follow: int) -> _Doc:
        return _cat(self.expr(node.base, _POSTFIX, _POSTFIX), ".", node.name)

    def _expr_Neg(self, node: ast.Neg, follow: int) -> _Doc:
        return _cat("-", self.expr(node.operand, _UNARY, follow))

    def _expr_Not(self, node: ast.Not, follow: int) -> _Doc:
        return _cat("not ", self.expr(node.operand, _NOT, follow))

    def _expr_BinOp(self, node: ast.BinOp, follow: int) -> _Doc:
        strength = _strength(node)
        left = self.expr(node.left, strength, strength)
        return _cat(left, f" {node.op} ", self.expr(node.right, strength + 1, follow))

    def _expr_BoolOp(self, node: ast.BoolOp, follow: int) -> _Chain:
        strength = _strength(node)
        left_need = strength + 1 if node.op == "implies" else strength  # implies: non-assoc
        left = self.expr(node.left, left_need, strength)
        right = self.expr(node.right, strength + 1, follow)
        match left:  # `a and b` (unparenthesized) and `c`: one chain `a and b and c`
            case (_Chain(op=node.op, operands=operands),):
                return _Chain(node.op, (*operands, right))
        return _Chain(node.op, (left, right))

    def _expr_Compare(self, node: ast.Compare, follow: int) -> _Doc:
        left = self.expr(node.left, _SUM, _CMP)
        right = self.expr(node.right, _SUM, _CMP if node.options else follow)
        return _cat(left, f" {node.op} ", right, self.options(node.options, follow))

    def options(self, options: Sequence[ast.CmpOption], follow: int) -> _Doc:
        """Comparison options, each with a leading space."""
        out: _Doc = ()
        for i, option in enumerate(options):
            after = _CMP if i + 1 < len(options) else follow
            value = () if option.value is None else _cat(" ", self.expr(option.value, _SUM, after))
            out = _cat(out, f" {option.kind}", value)
        return out

    def _expr_Has(self, node: ast.Has, follow: int) -> _Doc:
        items = _Group("{", tuple(self._has_item(item) for item in node.items), "}", pad=True)
        return _cat(self.expr(node.base, _POSTFIX, _POSTFIX), " has ", items)

    def _has_item(self, item: ast.HasItem) -> _Doc:
        value = self.expr(item.value, _SUM, _CMP if item.options else _NONE)
        return _cat(f"{item.field} {item.op} ", value, self.options(item.options, _NONE))

    def where(self, where: ast.Expr | None, need: int = _IMPLIES, follow: int = _NONE) -> _Doc:
        """A ``where`` clause with a leading space, or nothing."""
        return () if where is None else _cat(" where ", self.expr(where, need, follow))

    def _expr_Quant(self, node: ast.Quant, follow: int) -> _Doc:
        where = self.where(node.where, _IMPLIES, follow)
        return _cat(f"{node.quantifier} {node.path.text}", where)

    def _expr_Count(self, node: ast.Count, follow: int) -> str | _Group:
        if node.where is None:  # nothing to gain from breaking it
            return f"count({node.path.text})"
        collection = _cat(node.path.text, self.where(node.where))
        return _Group("count(", (collection,), ")", comma=False)

    def _expr_Aggregate(self, node: ast.Aggregate, follow: int) -> str | _Group:
        if node.where is None:
            return f"{node.fn}({node.path.text}, {node.field})"
        collection = _cat(node.path.text, self.where(node.where))
        return _Group(f"{node.fn}(", (collection, (node.field,)), ")", comma=False)

    def _expr_ListLit(self, node: ast.ListLit, follow: int) -> _Group:
        return _Group("[", tuple(self.expr(item) for item in node.items), "]")

    def _expr_RecordLit(self, node: ast.RecordLit, follow: int) -> _Group:
        fields = tuple(_cat(f"{f.name}: ", self.expr(f.value)) for f in node.fields)
        return _Group("{", fields, "}", pad=bool(fields))


@dataclass
class _Line:
    """One line-level item, with the source range it came from and its comments.

    Its text is laid out when rendered and may take several lines when it holds a
    group that does not fit; a trailing comment goes after the last of them.
    """

    indent: int
    text: _Doc
    start: int
    end: int
    end_line: int
    closing: bool = False
    blank_before: bool = False
    leading: list[str] = field(default_factory=list)
    trailing: str | None = None

    def take(self, comment: Comment) -> bool:
        """Keep a comment from inside or just after this line's source; say if kept."""
        if self.trailing is not None:
            return False
        if comment.start < self.end:
            self.leading.append(comment.text.rstrip())
            return True
        if comment.line == self.end_line:
            self.trailing = comment.text.rstrip()
            return True
        return False

    def render(self, width: int) -> list[str]:
        """The comment lines before this item, then its lines."""
        comment_pad = INDENT * (self.indent + (1 if self.closing else 0))
        out = [""] if self.blank_before else []
        out += [comment_pad + text for text in self.leading]
        lines = [INDENT * self.indent]
        _layout(self.text, self.indent, lines, 0, width)
        if self.trailing:
            lines[-1] += f"  {self.trailing}"
        return out + lines


class _Formatter(_ExprPrinter):
    """Lays out declarations and blocks as lines and places comments among them.

    Block items dispatch to ``_block_<Class>``, one-line items to ``_text_<Class>``.
    Top-level declarations are separated by one blank line; inside a block, a run of
    empty lines between two items in the source is kept as one blank line.
    """

    def __init__(self, comments: Sequence[Comment], width: int) -> None:
        self.width = width
        self.lines: list[_Line] = []
        self.tail: list[str] = []
        self.indent = 0
        self._blank_next = False
        self._comments = sorted(comments, key=lambda c: c.start)
        self._next_comment = 0
        self._comment_lines = {c.line for c in comments}

    # -- output and comments
    def render(self, module: ast.Module) -> str:
        """The whole module as text ending in one newline."""
        for i, decl in enumerate(module.decls):
            self._blank_next = i > 0
            self.item(decl)
        self._place_comments(None)
        out = [text for line in self.lines for text in line.render(self.width)] + self.tail
        return "\n".join(out).rstrip("\n") + "\n"

    def _emit(
        self, text: str | _Doc, start: int, end: int, end_line: int, closing: bool = False
    ) -> None:
        line = _Line(self.indent, _cat(text), start, end, end_line, closing, self._blank_next)
        self._blank_next = False
        self._place_comments(line)
        self.lines.append(line)

    def _emit_node(self, node: ast.Node, text: _Doc) -> None:
        self._emit(text, node.span.start, node.span.end, node.span.end_line)

    def _place_comments(self, upcoming: _Line | None) -> None:
        """Give every comment before ``upcoming`` to the previous line or to it."""
        limit = upcoming.start if upcoming is not None else None
        previous = self.lines[-1] if self.lines else None
        to_upcoming = False
        while self._next_comment < len(self._comments):
            comment = self._comments[self._next_comment]
            if limit is not None and comment.start >= limit:
                break
            self._next_comment += 1
            to_upcoming = to_upcoming or previous is None or not previous.take(comment)
            if to_upcoming:
                target = upcoming.leading if upcoming is not None else self.tail
                target.append(comment.text.rstrip())

    # -- dispatch
    def item(self, node: ast.Node) -> None:
        """Emit one line-level item (a block or a one-line item)."""
        name = type(node).__name__
        block = getattr(self, f"_block_{name}", None)
        if block is not None:
            cast(Callable[[ast.Node], None], block)(node)
        else:
            self._emit_node(node, self.text(node))

    def text(self, node: ast.Node) -> _Doc:
        """The document of a non-expression node that is not a block."""
        method = getattr(self, f"_text_{type(node).__name__}", None)
        if method is None:
            raise TypeError(f"cannot format node {type(node).__name__}")
        return _cat(cast(Callable[[ast.Node], "_Part | _Doc"], method)(node))

    # -- blocks
    def _block(
        self,
        node: ast.Node,
        header: str,
        children: Sequence[ast.Node],
        emit: Callable[[ast.Node, ast.Node | None], None] | None = None,
        header_end: ast.Node | None = None,
    ) -> None:
        """``header {`` children ``}``, or ``header {}`` when there are no children."""
        span = node.span
        head_end, head_line = _header_anchor(span, header_end)
        if not children and not self._comment_within(head_end, span.end):
            self._emit(f"{header} {{}}", span.start, span.end, span.end_line)
            return
        self._emit(f"{header} {{", span.start, head_end, head_line)
        self.indent += 1
        previous: ast.Node | None = None
        for child in children:
            self._blank_next = previous is not None and self._blank_between(previous, child)
            (emit or self._emit_child)(child, previous)
            previous = child
        self.indent -= 1
        self._emit("}", span.end - 1, span.end, span.end_line, closing=True)

    def _blank_between(self, previous: ast.Node, child: ast.Node) -> bool:
        """Whether the source has an empty line between two siblings (kept, as one)."""
        gap = range(previous.span.end_line + 1, child.span.line)
        return any(line not in self._comment_lines for line in gap)

    def _comment_within(self, start: int, end: int) -> bool:
        """Whether a comment lies after a block's header and before its end.

        Such a comment keeps an empty block open (``name {``, comment, ``}``).
        """
        return any(start <= c.start < end for c in self._comments)

    def _emit_child(self, child: ast.Node, previous: ast.Node | None) -> None:
        self.item(child)

    def _block_AppDecl(self, node: ast.AppDecl) -> None:
        self._block(node, f"app {node.name}", node.items)

    def _block_RecordDecl(self, node: ast.RecordDecl) -> None:
        self._block(node, f"record {node.name}", node.fields)

    def _block_SettingsDecl(self, node: ast.SettingsDecl) -> None:
        self._block(node, "settings", node.fields)

    def _block_TaskDecl(self, node: ast.TaskDecl) -> None:
        self._block(node, f"task {node.id.text}", node.items, header_end=node.id)

    def _block_ParamsBlock(self, node: ast.ParamsBlock) -> None:
        self._block(node, "params", node.params)

    def _block_ConstraintsBlock(self, node: ast.ConstraintsBlock) -> None:
        self._block(node, "constraints", node.exprs, self._statement)

    def _block_GivenBlock(self, node: ast.GivenBlock) -> None:
        self._block(node, "given", node.stmts)

    def _block_ExpectBlock(self, node: ast.ExpectBlock) -> None:
        self._block(node, "expect", node.clauses, self._statement)

    def _block_Subgoal(self, node: ast.Subgoal) -> None:
        header = f"subgoal {node.name}{self._weight(node.weight)}"
        self._block(node, header, node.clauses, self._statement, header_end=node.weight)

    def _block_ForbidBlock(self, node: ast.ForbidBlock) -> None:
        self._block(node, "forbid", node.events)

    def _block_DeviceBlock(self, node: ast.DeviceBlock) -> None:
        self._block(node, "device", node.items)

    # -- juxtaposed statements (constraints, expect clauses)
    def _statement(self, node: ast.Node, previous: ast.Node | None) -> None:
        """Emit a constraint or clause so that ``previous`` cannot absorb its start."""
        if isinstance(node, ast.Expr):
            self._emit_node(node, _guard(self.expr(node), previous))
        elif isinstance(node, ast.CheckClause):
            text = _cat(_guard(self.expr(node.expr), previous), self._weight(node.weight))
            self._emit_node(node, text)
        else:
            self.item(node)

    # -- app items
    def _text_AppPackage(self, node: ast.AppPackage) -> str:
        return f"package {node.value}"

    def _text_AppLabel(self, node: ast.AppLabel) -> str:
        return f"label {node.value}"

    def _text_AppHost(self, node: ast.AppHost) -> str:
        return f"host {node.name}"

    def _text_CollectionDecl(self, node: ast.CollectionDecl) -> str:
        append_only = " append only" if node.append_only else ""
        return f"collection {node.name}: {node.record}{append_only}"

    def _text_ChangeDecl(self, node: ast.ChangeDecl) -> _Doc:
        # no comma after the last name or screen: the grammar has none there
        names = _Group("", tuple((n.text,) for n in node.names), "", comma=False)
        verb = f"{node.verb} "
        if node.by_itself:
            return _cat(verb, names, " by itself")
        if not node.screens:
            return _cat(verb, names, " nowhere")
        screens = tuple((self._text_Selector(s),) for s in node.screens)
        how = "by" if node.by_tap else "on"
        return _cat(verb, names, f" only {how} ", _Group("", screens, "", comma=False))

    def _text_FieldDecl(self, node: ast.FieldDecl) -> _Doc:
        key = " key" if node.key else ""
        default = () if node.default is None else _cat(" = ", self.expr(node.default))
        return _cat(f"{node.name}: ", self.text(node.type), key, default)

    def _text_TypeRef(self, node: ast.TypeRef) -> _Doc:
        return _cat(self.text(node.base), "?" if node.optional else "")

    def _text_NamedType(self, node: ast.NamedType) -> str:
        return f"{node.name}({node.unit})" if node.unit is not None else node.name

    def _text_EnumType(self, node: ast.EnumType) -> _Group:
        members = tuple((member,) for member in node.members)
        return _Group("enum(", members, ")", comma=False)  # no trailing comma in the grammar

    def _text_ListType(self, node: ast.ListType) -> _Doc:
        return _cat("list of ", self.text(node.item))

    def _text_ProbeDecl(self, node: ast.ProbeDecl) -> _Doc:
        return _cat(f"probe {node.target.text}: ", self._probe_source(node), self._probe_map(node))

    def _probe_source(self, node: ast.ProbeDecl) -> _Doc:
        args = node.args
        if node.source == "setting":
            return _cat(f"setting {args[0]} {args[1]}")
        if node.source == "sqlite":
            return _cat(f"sqlite {args[0]} table {args[1]}")
        if node.source == "prefs":  # too long, `key ...` goes on the next line
            key = _cat(" ".join([args[1], *args[2:]]))
            return _cat(_Chain("key", (_cat(f"prefs {args[0]}"), key)))
        if node.source == "ui":
            return _cat("ui ", self.text(node.selector)) if node.selector else _cat("ui")
        if node.source == "screen":
            return self._screen_source(node)
        return _cat(f"{node.source} {args[0]}")

    def _screen_source(self, node: ast.ProbeDecl) -> _Doc:
        steps = tuple(
            _cat(
                f"tap {self._text_Selector(s.selector)}{' if shown' if s.if_shown else ''}"
                if s.selector
                else f"type {s.text}"
            )
            for s in node.steps
        )
        path = _cat(_Group("(", steps, ")"), " ") if steps else ()
        if node.value is not None:
            return _cat("screen ", path, "value ", self._screen_spot(node.value))
        fields = tuple(_cat(f"{f.name} = ", self._screen_spot(f.spot)) for f in node.fields or [])
        most = f"at most {node.most} " if node.most is not None else ""
        most += f"upcoming {node.upcoming} " if node.upcoming is not None else ""
        rows = f"rows {self._text_Selector(node.selector)} {most}" if node.selector else ""
        levels = []
        for g in node.each:
            shows = tuple(_cat(f"{f.name} = ", self._screen_spot(f.spot)) for f in g.fields)
            group = _Group("{", shows, "}", pad=bool(shows))
            levels.append(_cat(f"{self._text_Selector(g.selector)} ", group))
        listed = _cat(rows, _Group("{", fields, "}", pad=bool(fields)))
        if len(levels) > 1 and steps:  # groups within groups: a level a line, when broken
            last = _cat(levels[-1], " ", listed)
            chain = _Chain("each", (_cat(_Group("(", steps, ")")), *levels[:-1], last))
            read = _cat("screen ", chain)
        else:
            each = _cat(*(_cat("each ", level, " ") for level in levels))
            read = _cat("screen ", path, each, listed)
        if node.details is None:
            return read
        more = tuple(_cat(f"{f.name} = ", self._screen_spot(f.spot)) for f in node.details)
        tap = f"tap {self._text_Selector(node.details_tap)} " if node.details_tap else ""
        return _cat(read, f" details {tap}", _Group("{", more, "}", pad=bool(more)))

    def _screen_spot(self, spot: ast.ScreenSpot) -> _Doc:
        fmt = f" format {spot.format}" if spot.format is not None else ""
        shown = self._text_Selector(spot.selector)
        labels: _Doc = ()
        if spot.labels is not None:
            pairs = tuple(_cat(f"{c.name} = {c.column}") for c in spot.labels)
            labels = _cat(" labels ", _Group("{", pairs, "}", pad=True))
        forms: _Doc = ()
        if spot.forms is not None:
            alts = tuple(
                _cat(
                    f"{f.text} = ",
                    self.expr(f.value) if f.value is not None else f.name or "",
                    *(_cat(" or ", self.expr(m)) for m in f.more),
                )
                for f in spot.forms
            )
            forms = _cat(" or ", _Group("{", alts, "}", pad=True))
        names = ""
        if spot.names is not None:
            names = f" names {spot.names.collection} by {' or '.join(spot.names.by)}"
        return _cat(shown, fmt, labels, forms, names)

    def _probe_map(self, node: ast.ProbeDecl) -> _Doc:
        if node.columns is None:
            return ()
        columns = tuple(_cat(f"{c.name} = {c.column}") for c in node.columns)
        return _cat(" ", _Group("{", columns, "}", pad=bool(columns)))

    def _text_Selector(self, node: ast.Selector) -> str:
        return " ".join(f"{attr.attr} {attr.value}" for attr in node.attrs)

    # -- task items
    def _text_KindItem(self, node: ast.KindItem) -> str:
        return f"kind {node.name}"

    def _text_AppsItem(self, node: ast.AppsItem) -> str:
        uses = (use.name + (f" in {use.host}" if use.host else "") for use in node.uses)
        return "apps " + ", ".join(uses)

    def _text_GoalItem(self, node: ast.GoalItem) -> str:
        return f"goal {node.text}"

    def _text_TagsItem(self, node: ast.TagsItem) -> str:
        return "tags " + ", ".join(node.values)

    def _text_DifficultyItem(self, node: ast.DifficultyItem) -> str:
        return f"difficulty {node.name}"

    def _text_RevisionItem(self, node: ast.RevisionItem) -> str:
        return f"revision {node.value}"

    def _text_RequireItem(self, node: ast.RequireItem) -> str:
        return "require status"

    def _text_VerifyOnlyItem(self, node: ast.VerifyOnlyItem) -> str:
        return "verify_only"

    def _text_OutcomeItem(self, node: ast.OutcomeItem) -> str:
        return f"outcome {node.name}"

    def _text_BudgetItem(self, node: ast.BudgetItem) -> str:
        duration = f" {node.duration}" if node.duration else ""
        return f"budget {node.steps} steps{duration}"

    def _text_DeviceItem(self, node: ast.DeviceItem) -> _Doc:
        return _cat(f"{node.name} ", self.expr(node.value))

    # -- params
    def _text_ParamDecl(self, node: ast.ParamDecl) -> _Doc:
        return _cat(f"{node.name}: ", self.text(node.domain))

    def _text_ChoiceDomain(self, node: ast.ChoiceDomain) -> _Doc:
        return _cat("one of ", self.expr(node.values))

    def _text_RecordDomain(self, node: ast.RecordDomain) -> _Doc:
        return _cat(f"one of {node.path.text}", self.where(node.where))

    def _text_RangeDomain(self, node: ast.RangeDomain) -> _Doc:
        low = self.expr(node.low, _SUM, _OR)  # `..` after an open `where` is not worth the risk
        return _cat(f"{node.type_name} in ", low, " .. ", self.expr(node.high, _SUM))

    def _text_GeneratorDomain(self, node: ast.GeneratorDomain) -> str:
        return node.name

    # -- given
    def _text_GivenClock(self, node: ast.GivenClock) -> _Doc:
        tz = f" tz {node.tz}" if node.tz else ""
        return _cat("now ", self.expr(node.value), tz)

    def _text_GivenForeground(self, node: ast.GivenForeground) -> str:
        return f"foreground {node.app}{_activity(node.activity)}"

    def _text_GivenSet(self, node: ast.GivenSet) -> _Doc:
        return _cat(f"{node.target.text} = ", self.expr(node.value))

    def _text_GivenAdd(self, node: ast.GivenAdd) -> _Doc:
        return _cat(f"{node.target.text} += ", self.expr(node.value))

    def _text_GivenNoise(self, node: ast.GivenNoise) -> _Doc:
        return _cat(f"{node.target.text} += noise {node.count}", self.where(node.where))

    # -- expect clauses
    def _weight(self, weight: ast.Weight | None) -> str:
        return "" if weight is None else f" weight {weight.value.text}"

    def _text_CheckClause(self, node: ast.CheckClause) -> _Doc:
        return _cat(self.expr(node.expr), self._weight(node.weight))

    def _text_UnchangedClause(self, node: ast.UnchangedClause) -> str:
        targets = ", ".join(t.text for t in node.targets)
        return f"unchanged {targets}{self._weight(node.weight)}"

    def _text_OnlyChangedClause(self, node: ast.OnlyChangedClause) -> str:
        targets = ", ".join(t.text for t in node.targets)
        return f"only {targets} changed{self._weight(node.weight)}"

    def _text_TraceClause(self, node: ast.TraceClause) -> _Doc:
        return _cat("trace ", self.text(node.pred), self._weight(node.weight))

    def _text_UiClause(self, node: ast.UiClause) -> _Doc:
        return _cat("ui ", self.text(node.pred), self._weight(node.weight))

    def _text_TracePred(self, node: ast.TracePred) -> _Doc:
        first = self.text(node.first)
        if node.kind in ("before", "then") and node.second is not None:
            # breaks like a chain when too long: `A` / `before B`
            return (_Chain(node.kind, (_cat(first), _cat(self.text(node.second)))),)
        if node.kind == "at_most":
            return _cat(f"at most {node.times} times ", first)
        return _cat(f"{node.kind} ", first)

    def _text_UiPred(self, node: ast.UiPred) -> _Doc:
        selector = self.text(node.selector) if node.selector else ()
        if node.kind == "element":
            states = "".join(f" {'not ' if s.negated else ''}{s.name}" for s in node.states)
            return _cat("element ", selector, states)
        if node.kind == "no_element":
            return _cat("no element ", selector)
        return _cat(f"foreground {node.app}{_activity(node.activity)}")

    # -- events
    def _text_ActionEvent(self, node: ast.ActionEvent) -> _Doc:
        on = _cat(" on ", self.text(node.selector)) if node.selector else ()
        return _cat(f"action {node.name}", on)

    def _text_ShownEvent(self, node: ast.ShownEvent) -> _Doc:
        return _cat("shown ", self.text(node.selector))

    def _text_ForegroundEvent(self, node: ast.ForegroundEvent) -> str:
        return f"foreground {node.app}{_activity(node.activity)}"

    def _text_ChangeEvent(self, node: ast.ChangeEvent) -> _Doc:
        target = node.target.text if node.target is not None else "any"
        return _cat(f"{node.op} {target}", self.where(node.where, _OR))

    def _text_HoldsEvent(self, node: ast.HoldsEvent) -> _Doc:
        return _cat("holds (", self.expr(node.expr), ")")


def _header_anchor(span: Span, header_end: ast.Node | None) -> tuple[int, int]:
    """End offset and end line of a block's header (its last spanned part, if any)."""
    if header_end is None:
        return span.start + 1, span.line
    return header_end.span.end, header_end.span.end_line


def _activity(activity: str | None) -> str:
    return f" activity {activity}" if activity else ""


def _guard(text: _Doc, previous: ast.Node | None) -> _Doc:
    """Parenthesize a statement whose start ``previous`` would otherwise absorb.

    A leading ``-`` would continue the previous expression as subtraction, and a
    leading ``not`` after ``ui element ...`` would be read as a negated UI state.
    """
    if previous is None:
        return text
    after_element = (
        isinstance(previous, ast.UiClause)
        and previous.pred.kind == "element"
        and previous.weight is None
    )
    flat = _flat(text)
    if flat.startswith("-") or (after_element and flat.startswith("not ")):
        return _cat("(", text, ")")
    return text


def format_module(
    module: ast.Module, comments: Sequence[Comment] = (), width: int = MAX_WIDTH
) -> str:
    """The canonical text of ``module``, with ``comments`` placed among its lines.

    Lines are kept within ``width`` columns where breaking bracketed constructs and
    boolean chains allows it; a long string or other unbreakable run may exceed it.
    """
    return _Formatter(comments, width).render(module)


def format_source(source: SourceFile) -> tuple[str | None, list[Diagnostic]]:
    """Format a file; None plus diagnostics on a syntax error or an unsafe result.

    The output is parsed again; it is refused (``TL0012``) unless it yields the
    same tree (spans aside) and the same comments in the same order.
    """
    module, comments, diagnostics = parse_with_comments(source)
    if module is None:
        return None, diagnostics
    try:
        with _deeper_recursion():
            return _format_checked(source, module, comments)
    except RecursionError:
        help_text = "split the expression into several clauses"
        span = source.whole()
        return None, [Diagnostic("TL0007", "expression nested too deeply", span, help=help_text)]


def _format_checked(
    source: SourceFile, module: ast.Module, comments: Sequence[Comment]
) -> tuple[str | None, list[Diagnostic]]:
    """Format ``module`` and keep the text only if it parses back to the same thing."""
    text = format_module(module, comments)
    again, again_comments, _ = parse_with_comments(SourceFile(source.path, text))
    if again != module or _texts(again_comments) != _texts(comments):
        return None, [_refusal(source, module, again)]
    return text, []


@contextlib.contextmanager
def _deeper_recursion() -> Iterator[None]:
    """Room for every tree the parser accepts: the printer recurses deeper than it."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, _RECURSION_LIMIT))
    try:
        yield
    finally:
        sys.setrecursionlimit(limit)


def _texts(comments: Sequence[Comment]) -> list[str]:
    return [c.text.rstrip() for c in comments]


def _refusal(source: SourceFile, module: ast.Module, again: ast.Module | None) -> Diagnostic:
    """TL0012 at the first declaration whose meaning or comments would change."""
    span = source.whole()
    if again is not None:
        for before, after in zip(module.decls, again.decls, strict=False):
            if before != after:
                span = before.span
                break
    return Diagnostic(
        REFUSAL_CODE,
        "formatter would change meaning",
        span,
        help="the file is left as it is; please report this formatter bug",
    )
