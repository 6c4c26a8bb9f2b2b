"""The canonical formatter: AST (plus comments) -> text, and a safe source formatter.

``format_module`` prints a tree in the one canonical style: two-space indentation,
one item per line inside blocks, a blank line between top-level declarations (and
one wherever the source separated two block items by empty lines),
inline record/list literals, `has` items and probe maps, and expressions with the
fewest parentheses that re-parse to the same tree. ``format_source`` formats a file
and refuses (diagnostic ``TL0012``) whenever the result would not parse back to the
same tree or would lose a comment.

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

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import cast

from tasklang import ast
from tasklang.diagnostics import Diagnostic
from tasklang.parser import Comment, parse_with_comments
from tasklang.source import SourceFile, Span

INDENT = "  "
REFUSAL_CODE = "TL0012"

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


class _ExprPrinter:
    """Expressions to text with minimal parentheses (one ``_expr_<Class>`` per node)."""

    def expr(self, node: ast.Expr, need: int = _IMPLIES, follow: int = _NONE) -> str:
        """``node`` in a slot that takes strength ``need``, followed by ``follow``."""
        if _strength(node) < need or _open_right(node, follow):
            return f"({self._render(node, _NONE)})"
        return self._render(node, follow)

    def _render(self, node: ast.Expr, follow: int) -> str:
        method = getattr(self, f"_expr_{type(node).__name__}", None)
        if method is None:
            raise TypeError(f"cannot format expression node {type(node).__name__}")
        return cast(Callable[[ast.Expr, int], str], method)(node, follow)

    def _expr_Lit(self, node: ast.Lit, follow: int) -> str:
        return node.text

    def _expr_Name(self, node: ast.Name, follow: int) -> str:
        return node.name

    def _expr_Answer(self, node: ast.Answer, follow: int) -> str:
        return "answer"

    def _expr_Now(self, node: ast.Now, follow: int) -> str:
        return "now"

    def _expr_Attr(self, node: ast.Attr, follow: int) -> str:
        return f"{self.expr(node.base, _POSTFIX, _POSTFIX)}.{node.name}"

    def _expr_Neg(self, node: ast.Neg, follow: int) -> str:
        return "-" + self.expr(node.operand, _UNARY, follow)

    def _expr_Not(self, node: ast.Not, follow: int) -> str:
        return "not " + self.expr(node.operand, _NOT, follow)

    def _expr_BinOp(self, node: ast.BinOp, follow: int) -> str:
        strength = _strength(node)
        left = self.expr(node.left, strength, strength)
        return f"{left} {node.op} {self.expr(node.right, strength + 1, follow)}"

    def _expr_BoolOp(self, node: ast.BoolOp, follow: int) -> str:
        strength = _strength(node)
        left_need = strength + 1 if node.op == "implies" else strength  # implies: non-assoc
        left = self.expr(node.left, left_need, strength)
        return f"{left} {node.op} {self.expr(node.right, strength + 1, follow)}"

    def _expr_Compare(self, node: ast.Compare, follow: int) -> str:
        left = self.expr(node.left, _SUM, _CMP)
        right = self.expr(node.right, _SUM, _CMP if node.options else follow)
        return f"{left} {node.op} {right}{self.options(node.options, follow)}"

    def options(self, options: Sequence[ast.CmpOption], follow: int) -> str:
        """Comparison options, each with a leading space."""
        out = []
        for i, option in enumerate(options):
            after = _CMP if i + 1 < len(options) else follow
            value = "" if option.value is None else " " + self.expr(option.value, _SUM, after)
            out.append(f" {option.kind}{value}")
        return "".join(out)

    def _expr_Has(self, node: ast.Has, follow: int) -> str:
        items = ", ".join(self._has_item(item) for item in node.items)
        return f"{self.expr(node.base, _POSTFIX, _POSTFIX)} has {{ {items} }}"

    def _has_item(self, item: ast.HasItem) -> str:
        value = self.expr(item.value, _SUM, _CMP if item.options else _NONE)
        return f"{item.field} {item.op} {value}{self.options(item.options, _NONE)}"

    def where(self, where: ast.Expr | None, need: int = _IMPLIES, follow: int = _NONE) -> str:
        """A ``where`` clause with a leading space, or nothing."""
        return "" if where is None else f" where {self.expr(where, need, follow)}"

    def _expr_Quant(self, node: ast.Quant, follow: int) -> str:
        return f"{node.quantifier} {node.path.text}{self.where(node.where, _IMPLIES, follow)}"

    def _expr_Count(self, node: ast.Count, follow: int) -> str:
        return f"count({node.path.text}{self.where(node.where)})"

    def _expr_Aggregate(self, node: ast.Aggregate, follow: int) -> str:
        return f"{node.fn}({node.path.text}{self.where(node.where)}, {node.field})"

    def _expr_ListLit(self, node: ast.ListLit, follow: int) -> str:
        return "[" + ", ".join(self.expr(item) for item in node.items) + "]"

    def _expr_RecordLit(self, node: ast.RecordLit, follow: int) -> str:
        if not node.fields:
            return "{}"
        return "{ " + ", ".join(f"{f.name}: {self.expr(f.value)}" for f in node.fields) + " }"


@dataclass
class _Line:
    """One output line, with the source range it came from and its comments."""

    indent: int
    text: str
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

    def render(self) -> list[str]:
        """The comment lines before this line, then the line itself."""
        comment_pad = INDENT * (self.indent + (1 if self.closing else 0))
        out = [""] if self.blank_before else []
        out += [comment_pad + text for text in self.leading]
        tail = f"  {self.trailing}" if self.trailing else ""
        out.append(INDENT * self.indent + self.text + tail)
        return out


class _Formatter(_ExprPrinter):
    """Lays out declarations and blocks as lines and places comments among them.

    Block items dispatch to ``_block_<Class>``, one-line items to ``_text_<Class>``.
    Top-level declarations are separated by one blank line; inside a block, a run of
    empty lines between two items in the source is kept as one blank line.
    """

    def __init__(self, comments: Sequence[Comment]) -> None:
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
        out = [text for line in self.lines for text in line.render()] + self.tail
        return "\n".join(out).rstrip("\n") + "\n"

    def _emit(self, text: str, start: int, end: int, end_line: int, closing: bool = False) -> None:
        line = _Line(self.indent, text, start, end, end_line, closing, self._blank_next)
        self._blank_next = False
        self._place_comments(line)
        self.lines.append(line)

    def _emit_node(self, node: ast.Node, text: str) -> None:
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

    def text(self, node: ast.Node) -> str:
        """The one-line text of a non-expression node."""
        method = getattr(self, f"_text_{type(node).__name__}", None)
        if method is None:
            raise TypeError(f"cannot format node {type(node).__name__}")
        return cast(Callable[[ast.Node], str], method)(node)

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
        if not children and not self._comment_within(span):
            self._emit(f"{header} {{}}", span.start, span.end, span.end_line)
            return
        head_end, head_line = _header_anchor(span, header_end)
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

    def _comment_within(self, span: Span) -> bool:
        """Whether a comment lies strictly inside ``span`` (keeps an empty block open)."""
        return any(span.start < c.start < span.end for c in self._comments)

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
            text = _guard(self.expr(node.expr), previous) + self._weight(node.weight)
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
        return f"collection {node.name}: {node.record}"

    def _text_FieldDecl(self, node: ast.FieldDecl) -> str:
        key = " key" if node.key else ""
        default = "" if node.default is None else f" = {self.expr(node.default)}"
        return f"{node.name}: {self.text(node.type)}{key}{default}"

    def _text_TypeRef(self, node: ast.TypeRef) -> str:
        return self.text(node.base) + ("?" if node.optional else "")

    def _text_NamedType(self, node: ast.NamedType) -> str:
        return node.name

    def _text_EnumType(self, node: ast.EnumType) -> str:
        return f"enum({', '.join(node.members)})"

    def _text_ListType(self, node: ast.ListType) -> str:
        return f"list of {self.text(node.item)}"

    def _text_ProbeDecl(self, node: ast.ProbeDecl) -> str:
        return f"probe {node.target.text}: {self._probe_source(node)}{self._probe_map(node)}"

    def _probe_source(self, node: ast.ProbeDecl) -> str:
        args = node.args
        if node.source == "setting":
            return f"setting {args[0]} {args[1]}"
        if node.source == "sqlite":
            return f"sqlite {args[0]} table {args[1]}"
        if node.source == "ui":
            return "ui " + self.text(node.selector) if node.selector else "ui"
        return f"{node.source} {args[0]}"

    def _probe_map(self, node: ast.ProbeDecl) -> str:
        if node.columns is None:
            return ""
        if not node.columns:
            return " {}"
        return " { " + ", ".join(f"{c.name} = {c.column}" for c in node.columns) + " }"

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

    def _text_DeviceItem(self, node: ast.DeviceItem) -> str:
        return f"{node.name} {self.expr(node.value)}"

    # -- params
    def _text_ParamDecl(self, node: ast.ParamDecl) -> str:
        return f"{node.name}: {self.text(node.domain)}"

    def _text_ChoiceDomain(self, node: ast.ChoiceDomain) -> str:
        return f"one of {self.expr(node.values)}"

    def _text_RecordDomain(self, node: ast.RecordDomain) -> str:
        return f"one of {node.path.text}{self.where(node.where)}"

    def _text_RangeDomain(self, node: ast.RangeDomain) -> str:
        low = self.expr(node.low, _SUM, _OR)  # `..` after an open `where` is not worth the risk
        return f"{node.type_name} in {low} .. {self.expr(node.high, _SUM)}"

    def _text_GeneratorDomain(self, node: ast.GeneratorDomain) -> str:
        return node.name

    # -- given
    def _text_GivenClock(self, node: ast.GivenClock) -> str:
        tz = f" tz {node.tz}" if node.tz else ""
        return f"now {self.expr(node.value)}{tz}"

    def _text_GivenForeground(self, node: ast.GivenForeground) -> str:
        return f"foreground {node.app}{_activity(node.activity)}"

    def _text_GivenSet(self, node: ast.GivenSet) -> str:
        return f"{node.target.text} = {self.expr(node.value)}"

    def _text_GivenAdd(self, node: ast.GivenAdd) -> str:
        return f"{node.target.text} += {self.expr(node.value)}"

    def _text_GivenNoise(self, node: ast.GivenNoise) -> str:
        return f"{node.target.text} += noise {node.count}{self.where(node.where)}"

    # -- expect clauses
    def _weight(self, weight: ast.Weight | None) -> str:
        return "" if weight is None else f" weight {weight.value.text}"

    def _text_CheckClause(self, node: ast.CheckClause) -> str:
        return self.expr(node.expr) + self._weight(node.weight)

    def _text_UnchangedClause(self, node: ast.UnchangedClause) -> str:
        targets = ", ".join(t.text for t in node.targets)
        return f"unchanged {targets}{self._weight(node.weight)}"

    def _text_OnlyChangedClause(self, node: ast.OnlyChangedClause) -> str:
        targets = ", ".join(t.text for t in node.targets)
        return f"only {targets} changed{self._weight(node.weight)}"

    def _text_TraceClause(self, node: ast.TraceClause) -> str:
        return f"trace {self.text(node.pred)}{self._weight(node.weight)}"

    def _text_UiClause(self, node: ast.UiClause) -> str:
        return f"ui {self.text(node.pred)}{self._weight(node.weight)}"

    def _text_TracePred(self, node: ast.TracePred) -> str:
        first = self.text(node.first)
        if node.kind in ("before", "then") and node.second is not None:
            return f"{first} {node.kind} {self.text(node.second)}"
        if node.kind == "at_most":
            return f"at most {node.times} times {first}"
        return f"{node.kind} {first}"

    def _text_UiPred(self, node: ast.UiPred) -> str:
        selector = self.text(node.selector) if node.selector else ""
        if node.kind == "element":
            states = "".join(f" {'not ' if s.negated else ''}{s.name}" for s in node.states)
            return f"element {selector}{states}"
        if node.kind == "no_element":
            return f"no element {selector}"
        return f"foreground {node.app}{_activity(node.activity)}"

    # -- events
    def _text_ActionEvent(self, node: ast.ActionEvent) -> str:
        on = f" on {self.text(node.selector)}" if node.selector else ""
        return f"action {node.name}{on}"

    def _text_ShownEvent(self, node: ast.ShownEvent) -> str:
        return f"shown {self.text(node.selector)}"

    def _text_ForegroundEvent(self, node: ast.ForegroundEvent) -> str:
        return f"foreground {node.app}{_activity(node.activity)}"

    def _text_ChangeEvent(self, node: ast.ChangeEvent) -> str:
        target = node.target.text if node.target is not None else "any"
        return f"{node.op} {target}{self.where(node.where, _OR)}"

    def _text_HoldsEvent(self, node: ast.HoldsEvent) -> str:
        return f"holds ({self.expr(node.expr)})"


def _header_anchor(span: Span, header_end: ast.Node | None) -> tuple[int, int]:
    """End offset and end line of a block's header (its last spanned part, if any)."""
    if header_end is None:
        return span.start + 1, span.line
    return header_end.span.end, header_end.span.end_line


def _activity(activity: str | None) -> str:
    return f" activity {activity}" if activity else ""


def _guard(text: str, previous: ast.Node | None) -> str:
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
    if text.startswith("-") or (after_element and text.startswith("not ")):
        return f"({text})"
    return text


def format_module(module: ast.Module, comments: Sequence[Comment] = ()) -> str:
    """The canonical text of ``module``, with ``comments`` placed among its lines."""
    return _Formatter(comments).render(module)


def format_source(source: SourceFile) -> tuple[str | None, list[Diagnostic]]:
    """Format a file; None plus diagnostics on a syntax error or an unsafe result.

    The output is parsed again; it is refused (``TL0012``) unless it yields the
    same tree (spans aside) and the same comments in the same order.
    """
    module, comments, diagnostics = parse_with_comments(source)
    if module is None:
        return None, diagnostics
    try:
        text = format_module(module, comments)
        again, again_comments, _ = parse_with_comments(SourceFile(source.path, text))
        same = again == module and _texts(again_comments) == _texts(comments)
    except RecursionError:
        return None, [
            Diagnostic(
                "TL0007",
                "expression nested too deeply",
                source.whole(),
                help="split the expression into several clauses",
            )
        ]
    if not same:
        return None, [_refusal(source, module, again)]
    return text, []


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
