"""AST -> IR for tasks: decodes literals, flattens names, checks the task's outline.

Names stay unresolved (``ir.Path``) until the resolve pass; this module knows no app
model. Problems are returned as diagnostics, never raised.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tasklang import ast, ir
from tasklang.diagnostics import Diagnostic
from tasklang.literals import LiteralError, decode, decode_string
from tasklang.source import Span

KINDS = ("app", "mini_app", "cross_app")
DIFFICULTIES = ("easy", "medium", "hard")
OUTCOMES = ("complete", "infeasible")
# Words that, at the start of an expression, silently mean a value rather than a name.
# (Other keywords used as bare names fail to parse, with a hint that they are reserved.)
RESERVED_NAMES = frozenset({"true", "false", "null", "now", "answer"})
DEVICE_KEYS: dict[str, str] = {
    "min_sdk": "int",
    "max_sdk": "int",
    "locale": "text",
    "timezone": "text",
    "hint": "text",
    "requires": "list",
    "install": "list",
    "accounts": "list",
    "orientation": "text",
    "reset": "text",
}
MAX_WEIGHT = 1_000_000
MAX_EXPR_DEPTH = 100
TASK_ID = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$")
_ONCE = {
    "KindItem": "kind", "AppsItem": "apps", "GoalItem": "goal", "ParamsBlock": "params",
    "ConstraintsBlock": "constraints", "GivenBlock": "given", "ExpectBlock": "expect",
    "ForbidBlock": "forbid", "OutcomeItem": "outcome", "BudgetItem": "budget",
    "DeviceBlock": "device", "TagsItem": "tags", "DifficultyItem": "difficulty",
    "RevisionItem": "revision", "RequireItem": "require status", "VerifyOnlyItem": "verify_only",
}  # fmt: skip


@dataclass
class Reporter:
    """Collects diagnostics; decodes string literals, reporting bad escapes."""

    diagnostics: list[Diagnostic] = field(default_factory=list)

    def error(self, code: str, message: str, span: Span, help: str | None = None) -> None:
        self.diagnostics.append(Diagnostic(code, message, span, help=help))

    def string(self, raw: str, span: Span) -> str:
        """The value of a string literal (its raw text without quotes if it is malformed)."""
        try:
            return decode_string(raw)
        except LiteralError as exc:
            self.error(exc.code, str(exc), span, exc.help)
            return raw[1:-1]


@dataclass
class Lowerer(Reporter):
    """Lowers one task; collects diagnostics in ``diagnostics``."""

    _clause_count: int = 0
    _depth: int = 0
    _too_deep: bool = False

    # ------------------------------------------------------------ task
    def task(self, decl: ast.TaskDecl) -> ir.Task:
        task_id = decl.id.text
        if not TASK_ID.match(task_id):
            self.error(
                "TL1028",
                f"`{task_id}` is not a valid task id",
                decl.id.span,
                "use lowercase dotted names such as `contacts.add_friend`",
            )
        task = ir.Task(id=task_id, span=decl.span)
        seen: dict[str, ast.Node] = {}
        for item in decl.items:
            name = type(item).__name__
            if name in seen:
                self.error(
                    "TL1015",
                    f"`{_ONCE[name]}` is given twice in task `{task_id}`",
                    item.span,
                    "keep one",
                )
                continue
            seen[name] = item
            handler: Callable[[Any, ir.Task], None] = getattr(self, f"_item_{name}")
            handler(item, task)
        self._check_outline(decl, task, seen)
        return task

    def _check_outline(self, decl: ast.TaskDecl, task: ir.Task, seen: dict[str, Any]) -> None:
        head = decl.id.span
        for name, what in (("KindItem", "kind"), ("AppsItem", "apps"), ("GoalItem", "goal")):
            if name not in seen:
                self.error(
                    "TL1014",
                    f"task `{task.id}` has no `{what}`",
                    head,
                    f"add `{what} ...` to the task",
                )
        if "ExpectBlock" not in seen and task.outcome != "infeasible":
            self.error(
                "TL1014",
                f"task `{task.id}` has no `expect` block",
                head,
                "say what must hold at the end in `expect { ... }`, or declare "
                "`outcome infeasible`",
            )

    def _item_KindItem(self, item: ast.KindItem, task: ir.Task) -> None:
        if item.name not in KINDS:
            self.error(
                "TL1022", f"unknown task kind `{item.name}`", item.span, _choices(item.name, KINDS)
            )
        else:
            task.kind = item.name  # type: ignore[assignment]

    def _item_AppsItem(self, item: ast.AppsItem, task: ir.Task) -> None:
        task.apps = [ir.AppUse(name=u.name, host=u.host, span=u.span) for u in item.uses]

    def _item_GoalItem(self, item: ast.GoalItem, task: ir.Task) -> None:
        text = self.string(item.text, item.span)
        task.goal = ir.Goal(template=text, parts=self.template(text, item), span=item.span)

    def _item_TagsItem(self, item: ast.TagsItem, task: ir.Task) -> None:
        task.tags = [self.string(t, item.span) for t in item.values]

    def _item_DifficultyItem(self, item: ast.DifficultyItem, task: ir.Task) -> None:
        if item.name not in DIFFICULTIES:
            self.error(
                "TL1025",
                f"unknown difficulty `{item.name}`",
                item.span,
                _choices(item.name, DIFFICULTIES),
            )
        else:
            task.difficulty = item.name  # type: ignore[assignment]

    def _item_RevisionItem(self, item: ast.RevisionItem, task: ir.Task) -> None:
        task.revision = int(item.value)

    def _item_RequireItem(self, item: ast.RequireItem, task: ir.Task) -> None:
        task.require_status = True

    def _item_VerifyOnlyItem(self, item: ast.VerifyOnlyItem, task: ir.Task) -> None:
        task.verify_only = True

    def _item_OutcomeItem(self, item: ast.OutcomeItem, task: ir.Task) -> None:
        if item.name not in OUTCOMES:
            self.error(
                "TL1024", f"unknown outcome `{item.name}`", item.span, _choices(item.name, OUTCOMES)
            )
        else:
            task.outcome = item.name  # type: ignore[assignment]

    def _item_BudgetItem(self, item: ast.BudgetItem, task: ir.Task) -> None:
        seconds = None
        if item.duration is not None:
            seconds = self.literal(ast.Lit("duration", item.duration, span=item.span)).value
        steps = int(item.steps)
        if steps <= 0:
            self.error("TL1025", "a step budget must be at least 1", item.span)
        task.budget = ir.Budget(steps=steps, seconds=seconds, span=item.span)

    def _item_DeviceBlock(self, item: ast.DeviceBlock, task: ir.Task) -> None:
        for entry in item.items:
            value = self.expr(entry.value)
            if entry.name not in DEVICE_KEYS:
                self.error(
                    "TL1025",
                    f"unknown device setting `{entry.name}`",
                    entry.span,
                    _choices(entry.name, tuple(DEVICE_KEYS)),
                )
                continue
            expected = DEVICE_KEYS[entry.name]
            got = (
                "list"
                if isinstance(value, ir.ListExpr)
                else (value.type.name if isinstance(value, ir.Lit) and value.type else "?")
            )
            if got != expected and isinstance(value, (ir.Lit, ir.ListExpr)):
                self.error(
                    "TL1025",
                    f"device setting `{entry.name}` takes {expected}, not {got}",
                    entry.value.span,
                )
                continue
            if not isinstance(value, (ir.Lit, ir.ListExpr)):
                self.error(
                    "TL1025", f"device setting `{entry.name}` must be a literal", entry.value.span
                )
                continue
            if entry.name in task.device:
                self.error("TL1005", f"device setting `{entry.name}` is given twice", entry.span)
            task.device[entry.name] = _plain(value)
        task.device = dict(task.device)

    def _item_ParamsBlock(self, item: ast.ParamsBlock, task: ir.Task) -> None:
        for p in item.params:
            if p.name in RESERVED_NAMES:
                self.error(
                    "TL1031",
                    f"`{p.name}` is a reserved word",
                    p.span,
                    "choose another parameter name",
                )
            if task.param(p.name) is not None:
                self.error("TL1005", f"parameter `{p.name}` is declared twice", p.span)
                continue
            task.params.append(self.param(p))

    def _item_ConstraintsBlock(self, item: ast.ConstraintsBlock, task: ir.Task) -> None:
        task.constraints = [self.expr(e) for e in item.exprs]

    def _item_GivenBlock(self, item: ast.GivenBlock, task: ir.Task) -> None:
        given = ir.Given(span=item.span)
        for stmt in item.stmts:
            self.given_stmt(stmt, given)
        task.given = given

    def _item_ExpectBlock(self, item: ast.ExpectBlock, task: ir.Task) -> None:
        for clause in item.clauses:
            self.clause(clause, task, None)

    def _item_ForbidBlock(self, item: ast.ForbidBlock, task: ir.Task) -> None:
        for event in item.events:
            body = ir.TraceBody(op="never", first=self.event(event), span=event.span)
            task.clauses.append(self.new_clause(body, event.span, role="safety"))

    # ------------------------------------------------------------ pieces
    def param(self, p: ast.ParamDecl) -> ir.ParamDecl:
        d = p.domain
        domain: ir.Domain
        type_name = None
        if isinstance(d, ast.ChoiceDomain):
            domain = ir.ChoiceDomain(values=[self.expr(v) for v in d.values.items], span=d.span)
        elif isinstance(d, ast.RecordDomain):
            where = self.expr(d.where) if d.where is not None else None
            domain = ir.RecordDomain(source=self.path(d.path), where=where, span=d.span)
        elif isinstance(d, ast.RangeDomain):
            type_name = d.type_name
            domain = ir.RangeDomain(low=self.expr(d.low), high=self.expr(d.high), span=d.span)
        else:
            assert isinstance(d, ast.GeneratorDomain)
            domain = ir.GeneratorDomain(generator=d.name, span=d.span)
        return ir.ParamDecl(name=p.name, type_name=type_name, domain=domain, span=p.span)

    def given_stmt(self, stmt: ast.Node, given: ir.Given) -> None:
        if isinstance(stmt, ast.GivenClock):
            if given.clock is not None:
                self.error("TL1015", "`now` is given twice", stmt.span)
            tz = self.string(stmt.tz, stmt.span) if stmt.tz is not None else "UTC"
            given.clock = ir.Clock(value=self.expr(stmt.value), tz=tz, span=stmt.span)
        elif isinstance(stmt, ast.GivenForeground):
            if given.foreground is not None:
                self.error("TL1015", "`foreground` is given twice", stmt.span)
            act = self.string(stmt.activity, stmt.span) if stmt.activity else None
            given.foreground = ir.Foreground(app=stmt.app, activity=act, span=stmt.span)
        elif isinstance(stmt, ast.GivenSet):
            given.ops.append(
                ir.SetOp(target=self.path(stmt.target), value=self.expr(stmt.value), span=stmt.span)
            )
        elif isinstance(stmt, ast.GivenAdd):
            given.ops.append(
                ir.AddOp(target=self.path(stmt.target), value=self.expr(stmt.value), span=stmt.span)
            )
        else:
            assert isinstance(stmt, ast.GivenNoise)
            where = self.expr(stmt.where) if stmt.where is not None else None
            count = int(stmt.count)
            if count > 10_000:
                self.error("TL1012", "at most 10000 noise records", stmt.span)
            given.ops.append(
                ir.NoiseOp(
                    target=self.path(stmt.target),
                    count=min(count, 10_000),
                    where=where,
                    span=stmt.span,
                )
            )

    def new_clause(
        self,
        body: ir.ClauseBody,
        span: Span,
        role: str = "goal",
        weight: float = 1.0,
        subgoal: str | None = None,
    ) -> ir.Clause:
        self._clause_count += 1
        prefix = "s" if role == "safety" else "c"
        return ir.Clause(
            id=f"{prefix}{self._clause_count}",
            role=role,  # type: ignore[arg-type]
            weight=weight,
            subgoal=subgoal,
            body=body,
            span=span,
        )

    def clause(self, c: ast.Node, task: ir.Task, subgoal: str | None) -> None:
        if isinstance(c, ast.Subgoal):
            self.subgoal(c, task, subgoal)
            return
        weight = self.weight(getattr(c, "weight", None))
        role = "guard" if isinstance(c, (ast.UnchangedClause, ast.OnlyChangedClause)) else "goal"
        body = self.clause_body(c)
        task.clauses.append(self.new_clause(body, c.span, role, weight, subgoal))

    def subgoal(self, c: ast.Subgoal, task: ir.Task, parent: str | None) -> None:
        name = self.string(c.name, c.span)
        if not name.strip():
            self.error(
                "TL1015",
                "a subgoal needs a name",
                c.span,
                'name it after what it achieves: `subgoal "opened the chat" { ... }`',
            )
        if parent is not None:
            self.error(
                "TL1005",
                f"subgoal `{name}` is nested in subgoal `{parent}`",
                c.span,
                "subgoals cannot nest; list them side by side",
            )
        if any(s.name == name for s in task.subgoals):
            self.error("TL1005", f"subgoal `{name}` is declared twice", c.span)
        task.subgoals.append(ir.Subgoal(name=name, weight=self.weight(c.weight), span=c.span))
        for inner in c.clauses:
            self.clause(inner, task, name)

    def clause_body(self, c: ast.Node) -> ir.ClauseBody:
        if isinstance(c, ast.CheckClause):
            return ir.CheckBody(expr=self.expr(c.expr), span=c.span)
        if isinstance(c, ast.UnchangedClause):
            return ir.UnchangedBody(targets=[self.path(t) for t in c.targets], span=c.span)
        if isinstance(c, ast.OnlyChangedClause):
            return ir.OnlyChangedBody(targets=[self.path(t) for t in c.targets], span=c.span)
        if isinstance(c, ast.TraceClause):
            return self.trace(c.pred)
        assert isinstance(c, ast.UiClause)
        return self.ui(c.pred)

    def trace(self, p: ast.TracePred) -> ir.TraceBody:
        times = None
        if p.times is not None:
            times = int(p.times)
            if times < 0 or times > 1_000_000:
                self.error("TL1012", "`at most N times` needs 0 <= N <= 1000000", p.span)
        second = self.event(p.second) if p.second is not None else None
        return ir.TraceBody(
            op=p.kind,
            first=self.event(p.first),  # type: ignore[arg-type]
            second=second,
            times=times,
            span=p.span,
        )

    def event(self, e: ast.Node) -> ir.Event:
        if isinstance(e, ast.ActionEvent):
            on = self.selector(e.selector) if e.selector is not None else None
            return ir.ActionEvent(action=e.name, on=on, span=e.span)
        if isinstance(e, ast.ShownEvent):
            return ir.ShownEvent(selector=self.selector(e.selector), span=e.span)
        if isinstance(e, ast.ForegroundEvent):
            act = self.string(e.activity, e.span) if e.activity else None
            return ir.ForegroundEvent(app=e.app, activity=act, span=e.span)
        if isinstance(e, ast.ChangeEvent):
            target = self.path(e.target) if e.target is not None else None
            where = self.expr(e.where) if e.where is not None else None
            return ir.ChangeEvent(
                op=e.op,
                target=target,
                where=where,  # type: ignore[arg-type]
                span=e.span,
            )
        assert isinstance(e, ast.HoldsEvent)
        return ir.HoldsEvent(expr=self.expr(e.expr), span=e.span)

    def ui(self, p: ast.UiPred) -> ir.ClauseBody:
        if p.kind == "foreground":
            act = self.string(p.activity, p.span) if p.activity else None
            return ir.UiForegroundBody(app=p.app or "", activity=act, span=p.span)
        assert p.selector is not None
        states: dict[str, bool] = {}
        for s in p.states:
            if s.name in states:
                self.error("TL1015", f"state `{s.name}` is given twice", s.span)
            states[s.name] = not s.negated
        return ir.UiElementBody(
            selector=self.selector(p.selector),
            present=p.kind == "element",
            states=states,
            span=p.span,
        )

    def selector(self, s: ast.Selector) -> ir.Selector:
        attrs = [
            ir.UiAttr(
                attr=a.attr,
                value=self.string(a.value, a.span),  # type: ignore[arg-type]
                span=a.span,
            )
            for a in s.attrs
        ]
        return ir.Selector(attrs=attrs, span=s.span)

    def weight(self, w: ast.Weight | None) -> float:
        if w is None:
            return 1.0
        value = _number(self.literal(w.value).value)
        if 0 < value <= MAX_WEIGHT:
            return value
        problem = "must be positive" if value <= 0 else f"is above the limit of {MAX_WEIGHT:,}"
        self.error(
            "TL1019",
            f"weight `{w.value.text}` {problem}",
            w.span,
            "weights are relative: `weight 2` counts twice as much as the default 1",
        )
        return 1.0

    def template(self, text: str, item: ast.GoalItem) -> list[ir.GoalPart]:
        return split_template(text, goal_locator(item), self)

    # ------------------------------------------------------------ expressions
    def literal(self, lit: ast.Lit) -> ir.Lit:
        try:
            value, type_name = decode(lit.kind, lit.text)
        except LiteralError as exc:
            self.error(exc.code, str(exc), lit.span, exc.help)
            value, type_name = None, "any"
        return ir.Lit(value=value, type=ir.Type(name=type_name), span=lit.span)  # type: ignore[arg-type]

    def path(self, d: ast.Dotted) -> ir.Expr:
        return ir.Path(parts=list(d.parts), span=d.span)

    def expr(self, e: ast.Expr) -> ir.Expr:
        if self._depth >= MAX_EXPR_DEPTH:
            if not self._too_deep:
                self.error(
                    "TL0007",
                    f"expression nested deeper than {MAX_EXPR_DEPTH} levels",
                    e.span,
                    "split it into several clauses or constraints",
                )
            self._too_deep = True
            return ir.Lit(value=None, type=ir.Type(name="any"), span=e.span)
        method: Callable[[Any], ir.Expr] = getattr(self, f"_expr_{type(e).__name__}")
        self._depth += 1
        try:
            return method(e)
        finally:
            self._depth -= 1

    def _expr_Lit(self, e: ast.Lit) -> ir.Expr:
        return self.literal(e)

    def _expr_Name(self, e: ast.Name) -> ir.Expr:
        return ir.Path(parts=[e.name], span=e.span)

    def _expr_Attr(self, e: ast.Attr) -> ir.Expr:
        base = self.expr(e.base)
        if isinstance(base, ir.Path):
            return ir.Path(parts=[*base.parts, e.name], span=e.span)
        return ir.FieldRef(base=base, name=e.name, span=e.span)

    def _expr_Neg(self, e: ast.Neg) -> ir.Expr:
        inner = self.expr(e.operand)
        if (
            isinstance(inner, ir.Lit)
            and isinstance(inner.value, (int, float))
            and not isinstance(inner.value, bool)
        ):
            return inner.model_copy(update={"value": -inner.value, "span": e.span})
        return ir.Neg(operand=inner, span=e.span)

    def _expr_BinOp(self, e: ast.BinOp) -> ir.Expr:
        return ir.Arith(
            op=e.op,
            left=self.expr(e.left),
            right=self.expr(e.right),  # type: ignore[arg-type]
            span=e.span,
        )

    def _options(self, options: list[ast.CmpOption]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for o in options:
            if o.kind in out:
                self.error("TL1015", f"comparison option `{o.kind}` is given twice", o.span)
            if o.kind == "within":
                assert o.value is not None
                out["within"] = self.expr(o.value)
            elif o.kind == "fuzzy":
                assert isinstance(o.value, ast.Lit)
                ratio = _number(self.literal(o.value).value)
                if not 0 < ratio <= 1:
                    self.error(
                        "TL1007",
                        f"fuzzy ratio `{o.value.text}` must be in (0, 1]",
                        o.span,
                        "for example `fuzzy 0.85`",
                    )
                out["fuzzy"] = ratio
            else:
                out[o.kind] = True
        return out

    def _expr_Compare(self, e: ast.Compare) -> ir.Expr:
        return ir.Compare(
            op=e.op,
            left=self.expr(e.left),
            right=self.expr(e.right),  # type: ignore[arg-type]
            span=e.span,
            **self._options(e.options),
        )

    def _expr_BoolOp(self, e: ast.BoolOp) -> ir.Expr:
        return ir.Logic(
            op=e.op,
            left=self.expr(e.left),
            right=self.expr(e.right),  # type: ignore[arg-type]
            span=e.span,
        )

    def _expr_Not(self, e: ast.Not) -> ir.Expr:
        return ir.Not(operand=self.expr(e.operand), span=e.span)

    def _expr_Has(self, e: ast.Has) -> ir.Expr:
        items = [
            ir.HasItem(
                field=i.field,
                op=i.op,
                value=self.expr(i.value),  # type: ignore[arg-type]
                span=i.span,
                **self._options(i.options),
            )
            for i in e.items
        ]
        return ir.Has(source=self.expr(e.base), items=items, span=e.span)

    def _expr_Answer(self, e: ast.Answer) -> ir.Expr:
        return ir.AnswerRef(span=e.span)

    def _expr_Now(self, e: ast.Now) -> ir.Expr:
        return ir.Now(span=e.span)

    def _where(self, w: ast.Expr | None) -> ir.Expr | None:
        return self.expr(w) if w is not None else None

    def _expr_Quant(self, e: ast.Quant) -> ir.Expr:
        return ir.Quant(
            quantifier=e.quantifier,
            source=self.path(e.path),  # type: ignore[arg-type]
            where=self._where(e.where),
            span=e.span,
        )

    def _expr_Count(self, e: ast.Count) -> ir.Expr:
        return ir.Count(source=self.path(e.path), where=self._where(e.where), span=e.span)

    def _expr_Aggregate(self, e: ast.Aggregate) -> ir.Expr:
        return ir.Aggregate(
            fn=e.fn,
            source=self.path(e.path),  # type: ignore[arg-type]
            where=self._where(e.where),
            field=e.field,
            span=e.span,
        )

    def _expr_ListLit(self, e: ast.ListLit) -> ir.Expr:
        return ir.ListExpr(items=[self.expr(i) for i in e.items], span=e.span)

    def _expr_RecordLit(self, e: ast.RecordLit) -> ir.Expr:
        seen: set[str] = set()
        fields = []
        for f in e.fields:
            if f.name in seen:
                self.error("TL1005", f"field `{f.name}` is given twice", f.span)
                continue
            seen.add(f.name)
            fields.append(ir.RecordField(name=f.name, value=self.expr(f.value), span=f.span))
        return ir.RecordExpr(fields=fields, span=e.span)


_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
_PLACEHOLDER_PATH = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*(\s*\.\s*[A-Za-z_][A-Za-z0-9_]*)*)\s*$")


def goal_locator(item: ast.GoalItem) -> Callable[[int, int], Span]:
    """Maps offsets in the decoded goal text to spans inside the goal's string literal."""
    span = item.span
    raw = item.text
    start = span.end - len(raw)
    column = span.end_column - len(raw)

    def locate(i: int, j: int) -> Span:
        if "\\" in raw or span.line != span.end_line:
            return span
        return Span(
            file=span.file,
            line=span.end_line,
            column=column + 1 + i,
            end_line=span.end_line,
            end_column=column + 1 + j,
            start=start + 1 + i,
            end=start + 1 + j,
        )

    return locate


def split_template(
    text: str, span: Span | Callable[[int, int], Span], lowerer: Lowerer
) -> list[ir.GoalPart]:
    """Split a goal into text and ``{param.field}`` parts; ``{{``/``}}`` are literal braces."""
    locate: Callable[[int, int], Span] = span if callable(span) else (lambda i, j: span)
    parts: list[ir.GoalPart] = []
    buf: list[str] = []
    i = 0
    while i < len(text):
        two = text[i : i + 2]
        if two in ("{{", "}}"):
            buf.append(two[0])
            i += 2
            continue
        if text[i] == "{":
            match = _PLACEHOLDER.match(text, i)
            inner = match.group(1) if match else None
            path = _PLACEHOLDER_PATH.match(inner) if inner is not None else None
            if match is None or path is None:
                lowerer.error(
                    "TL1016",
                    "malformed placeholder in goal",
                    locate(i, match.end() if match else i + 1),
                    "write `{param}` or `{param.field}`; `{{` and `}}` are braces",
                )
                i = match.end() if match else i + 1
                continue
            if buf:
                parts.append(ir.GoalPart(text="".join(buf)))
                buf = []
            names = [n.strip() for n in path.group(1).split(".")]
            where = locate(i, match.end())
            parts.append(ir.GoalPart(expr=ir.Path(parts=names, span=where), span=where))
            i = match.end()
            continue
        if text[i] == "}":
            lowerer.error(
                "TL1016", "unmatched `}` in goal", locate(i, i + 1), "write `}}` for a brace"
            )
        buf.append(text[i])
        i += 1
    if buf:
        parts.append(ir.GoalPart(text="".join(buf)))
    return parts


def _plain(value: ir.Expr) -> Any:
    if isinstance(value, ir.Lit):
        return value.value
    if isinstance(value, ir.ListExpr):
        return [_plain(v) for v in value.items]
    return None


def _choices(name: str, options: tuple[str, ...]) -> str:
    from tasklang.diagnostics import did_you_mean

    hint = did_you_mean(name, options)
    listed = ", ".join(f"`{o}`" for o in options)
    return (f"{hint} " if hint else "") + f"expected one of {listed}"


def _number(value: Any) -> float:
    return float(value) if isinstance(value, (int, float)) else 0.0
