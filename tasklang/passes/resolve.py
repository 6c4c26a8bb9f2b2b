"""Resolve names: every ``Path`` becomes a parameter, field, collection or setting.

Inside a ``where`` or ``has`` a bare name is a field of the record in scope; outside
it is a parameter, or ``app.collection`` / ``app.setting``. Also checks the apps the
task lists, action names, and that ``answer`` appears only in ``expect``.

>>> from tasklang import ir
>>> from tasklang.passes.context import Context
>>> task = ir.Task(id="t", params=[ir.ParamDecl(name="n", domain=ir.GeneratorDomain(
...     generator="word"))], constraints=[ir.Path(parts=["n"])])
>>> out, diags = run(task, Context())
>>> out.constraints[0].node, [d.code for d in diags]
('param', [])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tasklang import ir
from tasklang.diagnostics import Diagnostic, did_you_mean
from tasklang.passes.context import Context
from tasklang.source import Span

ACTIONS = (
    "click", "double_tap", "long_press", "input_text", "scroll", "swipe", "navigate_back",
    "navigate_home", "keyboard_enter", "open_app", "wait", "status", "answer",
)  # fmt: skip


@dataclass(frozen=True)
class Scope:
    record: ir.RecordDef | None = None
    self_param: str | None = None
    allow_answer: bool = False
    opaque: bool = False  # the record type is unknown (already reported): stay quiet


@dataclass
class Resolver:
    task: ir.Task
    ctx: Context
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def error(
        self,
        code: str,
        message: str,
        span: Span | None,
        help: str | None = None,
        severity: Any = None,
    ) -> None:
        self.diagnostics.append(
            Diagnostic(
                code, message, span or self.task.span or Span(), help=help, severity=severity
            )
        )

    @property
    def listed(self) -> set[str]:
        names = {u.name for u in self.task.apps}
        return names | {u.host for u in self.task.apps if u.host}

    # ------------------------------------------------------------ names
    def path(self, p: ir.Path, scope: Scope) -> ir.Expr:
        parts, span = p.parts, p.span
        head = parts[0]
        base: ir.Expr
        rest = parts[1:]
        if scope.record is not None and scope.record.field(head) is not None:
            if self.task.param(head) is not None and head != scope.self_param:
                self.error(
                    "TL2002",
                    f"field `{head}` hides parameter `{head}`",
                    span,
                    f"rename the parameter; here `{head}` is the record's field",
                )
            base = ir.FieldRef(name=head, span=span)
        elif self.task.param(head) is not None:
            base = ir.Param(name=head, span=span)
        elif head in self.ctx.apps:
            return self.app_member(parts, span)
        else:
            if not scope.opaque:
                self.unknown_name(head, span, scope)
            return ir.Lit(value=None, type=ir.Type(name="any"), span=span)
        for name in rest:
            base = ir.FieldRef(base=base, name=name, span=span)
        return base

    def unknown_name(self, head: str, span: Span | None, scope: Scope) -> None:
        if head in self.listed:
            return  # an unknown app on the `apps` line, reported there
        candidates = [p.name for p in self.task.params] + list(self.listed)
        if scope.record is not None:
            candidates += [f.name for f in scope.record.fields]
        self.error(
            "TL1004",
            f"unknown name `{head}`",
            span,
            did_you_mean(head, candidates)
            or "names are parameters, fields of the record in scope, or `app.member`",
        )

    def app_member(self, parts: list[str], span: Span | None) -> ir.Expr:
        app_name = parts[0]
        app = self.ctx.apps[app_name]
        self.require_listed(app_name, span)
        if len(parts) < 2:
            self.error(
                "TL1002",
                f"`{app_name}` is an app, not a value",
                span,
                f"name a collection or setting, such as `{app_name}.<name>`",
            )
            return ir.Lit(value=None, type=ir.Type(name="any"), span=span)
        member = parts[1]
        ref: ir.Expr
        if app.collection(member) is not None:
            ref = ir.CollectionRef(app=app_name, name=member, span=span)
        elif app.setting(member) is not None:
            ref = ir.SettingRef(app=app_name, name=member, span=span)
        else:
            names = [c.name for c in app.collections] + [s.name for s in app.settings]
            self.error(
                "TL1002",
                f"app `{app_name}` has no collection or setting `{member}`",
                span,
                did_you_mean(member, names),
            )
            return ir.Lit(value=None, type=ir.Type(name="any"), span=span)
        if len(parts) > 2:
            if isinstance(ref, ir.CollectionRef):
                self.error(
                    "TL1003",
                    f"`{app_name}.{member}` is a collection; it has no field `{parts[2]}`",
                    span,
                    "use a quantifier: `exists C where field == ...`",
                )
            else:
                self.error(
                    "TL1003", f"setting `{app_name}.{member}` has no member `{parts[2]}`", span
                )
            return ir.Lit(value=None, type=ir.Type(name="any"), span=span)
        return ref

    def require_listed(self, app_name: str, span: Span | None) -> None:
        if app_name not in self.listed:
            self.error(
                "TL1017",
                f"app `{app_name}` is used but not listed in `apps`",
                span,
                f"add `{app_name}` to the task's `apps` line",
            )

    def app_name(self, name: str, span: Span | None) -> None:
        if name not in self.ctx.apps:
            self.error("TL1001", f"unknown app `{name}`", span, did_you_mean(name, self.ctx.apps))
        else:
            self.require_listed(name, span)

    # ------------------------------------------------------------ expressions
    def expr(self, e: ir.Expr, scope: Scope) -> ir.Expr:
        if isinstance(e, ir.Path):
            return self.path(e, scope)
        if isinstance(e, ir.AnswerRef) and not scope.allow_answer:
            self.error(
                "TL1030",
                "`answer` is only available to `expect` clauses on the final state",
                e.span,
                "the agent's answer exists only when the episode ends",
            )
        if isinstance(e, (ir.Quant, ir.Count, ir.Aggregate)):
            source = self.expr(e.source, scope)
            inner = self.inner_scope(source, scope)
            where = self.expr(e.where, inner) if e.where is not None else None
            return e.model_copy(update={"source": source, "where": where})
        if isinstance(e, ir.Has):
            source = self.expr(e.source, scope)
            inner = self.inner_scope(source, scope)
            items = [self.has_item(i, scope, inner) for i in e.items]
            return e.model_copy(update={"source": source, "items": items})
        return self.children(e, scope)

    def has_item(self, item: ir.HasItem, outer: Scope, inner: Scope) -> ir.HasItem:
        value = self.expr(item.value, inner)
        within = self.expr(item.within, inner) if item.within is not None else None
        return item.model_copy(update={"value": value, "within": within})

    def children(self, e: ir.Expr, scope: Scope) -> ir.Expr:
        update: dict[str, Any] = {}
        for name in type(e).model_fields:
            value = getattr(e, name)
            if name in ("span", "type"):
                continue
            if isinstance(value, ir.ExprBase):
                update[name] = self.expr(value, scope)  # type: ignore[arg-type]
            elif isinstance(value, list) and value and isinstance(value[0], ir.ExprBase):
                update[name] = [self.expr(v, scope) for v in value]
            elif isinstance(value, list) and value and isinstance(value[0], ir.RecordField):
                update[name] = [
                    f.model_copy(update={"value": self.expr(f.value, scope)}) for f in value
                ]
        return e.model_copy(update=update)

    def inner_scope(self, source: ir.Expr, outer: Scope, self_param: str | None = None) -> Scope:
        """The scope of a `where` over ``source``."""
        record = self.record_of(source)
        own = self_param or outer.self_param
        return Scope(record, own, outer.allow_answer, opaque=record is None)

    def record_of(self, source: ir.Expr) -> ir.RecordDef | None:
        if isinstance(source, ir.CollectionRef):
            return self.ctx.collection_record(source)
        if not (isinstance(source, ir.Lit) and source.value is None):
            self.error(
                "TL1027",
                "expected a collection of records",
                source.span,
                "write `app.collection`, such as `contacts.people`",
            )
        return None

    def target(self, t: ir.Expr) -> ir.Expr:
        """A given/guard/event target: `app.collection` or `app.setting`."""
        if isinstance(t, ir.Path) and t.parts[0] in self.ctx.apps:
            return self.app_member(t.parts, t.span)
        if isinstance(t, ir.Path):
            self.app_name(t.parts[0], t.span)
        return ir.Lit(value=None, type=ir.Type(name="any"), span=t.span)


def run(task: ir.Task, ctx: Context) -> tuple[ir.Task, list[Diagnostic]]:
    """Resolve every name in ``task`` against its params and the app models."""
    r = Resolver(task, ctx)
    check_apps(r)
    top = Scope()
    params = [resolve_param(r, p) for p in task.params]
    check_param_cycles(r, params)
    update: dict[str, Any] = {
        "params": params,
        "constraints": [r.expr(c, top) for c in task.constraints],
        "given": resolve_given(r, task.given),
        "clauses": [resolve_clause(r, c) for c in task.clauses],
        "goal": resolve_goal(r, task.goal),
    }
    return task.model_copy(update=update), r.diagnostics


def check_apps(r: Resolver) -> None:
    seen: set[str] = set()
    for use in r.task.apps:
        if use.name in seen:
            r.error("TL1005", f"app `{use.name}` is listed twice", use.span)
        seen.add(use.name)
        app = r.ctx.apps.get(use.name)
        if app is None:
            r.error(
                "TL1001", f"unknown app `{use.name}`", use.span, did_you_mean(use.name, r.ctx.apps)
            )
            continue
        if use.host is not None and use.host not in r.ctx.apps:
            r.error(
                "TL1001", f"unknown app `{use.host}`", use.span, did_you_mean(use.host, r.ctx.apps)
            )
        if app.host is not None and use.host != app.host:
            r.error(
                "TL1018",
                f"mini-app `{use.name}` runs inside `{app.host}`",
                use.span,
                f"write `{use.name} in {app.host}`",
            )
        elif app.host is None and use.host is not None:
            r.error(
                "TL1018",
                f"`{use.name}` is not a mini-app; it cannot run `in {use.host}`",
                use.span,
                f"list `{use.name}` on its own",
            )
    check_kind(r)


def check_kind(r: Resolver) -> None:
    task = r.task
    uses = list({u.name: u for u in task.apps}.values())
    minis = [u for u in uses if u.host is not None]
    hosts = {u.host for u in minis}
    others = [u for u in uses if u.host is None and u.name not in hosts]
    span = (
        task.apps[0].span.cover(task.apps[-1].span)
        if task.apps and task.apps[0].span
        else task.span
    )
    if task.kind == "mini_app" and not minis:
        r.error(
            "TL1022",
            "a `mini_app` task must use a mini-app",
            span,
            "list it with its host: `apps coffee in wechat`",
        )
    elif task.kind == "mini_app" and others:
        r.error(
            "TL1022",
            "a `mini_app` task uses mini-apps (and their host) only",
            span,
            f"`{others[0].name}` is another app: use `kind cross_app`",
        )
    elif task.kind == "app" and (minis or len(uses) > 1):
        r.error(
            "TL1022",
            "an `app` task uses exactly one app",
            span,
            "use `kind mini_app` for a mini-app, `kind cross_app` for several apps",
        )
    elif task.kind == "cross_app" and len(minis) + len(others) < 2:
        r.error(
            "TL1022",
            "a `cross_app` task uses at least two apps",
            span,
            "use `kind app` for a single app",
        )


def resolve_param(r: Resolver, p: ir.ParamDecl) -> ir.ParamDecl:
    d = p.domain
    top = Scope()
    domain: ir.Domain
    if isinstance(d, ir.RecordDomain):
        source = r.expr(d.source, top)
        inner = r.inner_scope(source, top, p.name)
        where = r.expr(d.where, inner) if d.where is not None else None
        domain = d.model_copy(update={"source": source, "where": where})
    elif isinstance(d, ir.RangeDomain):
        domain = d.model_copy(update={"low": r.expr(d.low, top), "high": r.expr(d.high, top)})
    elif isinstance(d, ir.ChoiceDomain):
        domain = d.model_copy(update={"values": [r.expr(v, top) for v in d.values]})
    else:
        domain = d
    return p.model_copy(update={"domain": domain})


def param_refs(node: Any) -> set[str]:
    """Names of the parameters an IR subtree refers to."""
    return {n.name for n in ir.walk(node) if isinstance(n, ir.Param)}


def check_param_cycles(r: Resolver, params: list[ir.ParamDecl]) -> None:
    deps = {p.name: param_refs(p.domain) for p in params}
    for p in params:
        if isinstance(p.domain, ir.RecordDomain):
            deps[p.name].discard(p.name)  # `p` in its own `where` is the candidate record
    state: dict[str, int] = {}

    def visit(name: str, trail: list[str]) -> None:
        if state.get(name) == 2:
            return
        if state.get(name) == 1:
            cycle = [*trail[trail.index(name) :], name]
            p = next(x for x in params if x.name == name)
            r.error(
                "TL1029",
                "parameters depend on each other: " + " -> ".join(cycle),
                p.span,
                "make one of them independent",
            )
            return
        state[name] = 1
        for dep in sorted(deps.get(name, ())):
            if dep in deps:
                visit(dep, [*trail, name])
        state[name] = 2

    for p in params:
        visit(p.name, [])


def resolve_given(r: Resolver, given: ir.Given) -> ir.Given:
    top = Scope()
    ops: list[ir.GivenOp] = []
    for op in given.ops:
        target = r.target(op.target)
        if isinstance(op, ir.NoiseOp):
            inner = r.inner_scope(target, top)
            where = r.expr(op.where, inner) if op.where is not None else None
            ops.append(op.model_copy(update={"target": target, "where": where}))
        else:
            ops.append(op.model_copy(update={"target": target, "value": r.expr(op.value, top)}))
    clock = given.clock
    if clock is not None:
        clock = clock.model_copy(update={"value": r.expr(clock.value, top)})
    if given.foreground is not None:
        r.app_name(given.foreground.app, given.foreground.span)
    return given.model_copy(update={"ops": ops, "clock": clock})


def resolve_clause(r: Resolver, c: ir.Clause) -> ir.Clause:
    body = c.body
    scope = Scope(allow_answer=True)
    new: ir.ClauseBody
    if isinstance(body, ir.CheckBody):
        new = body.model_copy(update={"expr": r.expr(body.expr, scope)})
    elif isinstance(body, (ir.UnchangedBody, ir.OnlyChangedBody)):
        targets: list[ir.Expr] = []
        apps: list[str] = []
        for t in body.targets:
            if isinstance(t, ir.Path) and len(t.parts) == 1 and t.parts[0] in r.ctx.apps:
                r.require_listed(t.parts[0], t.span)
                apps.append(t.parts[0])
            else:
                targets.append(r.target(t))
        new = body.model_copy(update={"targets": targets, "apps": apps})
    elif isinstance(body, ir.TraceBody):
        second = resolve_event(r, body.second) if body.second is not None else None
        new = body.model_copy(update={"first": resolve_event(r, body.first), "second": second})
    elif isinstance(body, ir.UiForegroundBody):
        r.app_name(body.app, body.span)
        new = body
    else:
        new = body
    return c.model_copy(update={"body": new})


def resolve_event(r: Resolver, e: ir.Event) -> ir.Event:
    if isinstance(e, ir.ActionEvent):
        if e.action not in ACTIONS:
            r.error(
                "TL1021",
                f"unknown action `{e.action}`",
                e.span,
                did_you_mean(e.action, ACTIONS) or "actions: " + ", ".join(ACTIONS),
            )
        return e
    if isinstance(e, ir.ForegroundEvent):
        r.app_name(e.app, e.span)
        return e
    if isinstance(e, ir.ChangeEvent):
        if e.target is None:
            if e.where is not None:
                r.error("TL1027", "`where` needs a collection, not `any`", e.where.span)
            return e
        target = r.target(e.target)
        where = None
        if e.where is not None:
            if isinstance(target, ir.SettingRef):
                r.error("TL1027", "`where` needs a collection, not a setting", e.where.span)
                inner = Scope(opaque=True)
            else:
                inner = r.inner_scope(target, Scope())
            where = r.expr(e.where, inner)
        return e.model_copy(update={"target": target, "where": where})
    if isinstance(e, ir.HoldsEvent):
        return e.model_copy(update={"expr": r.expr(e.expr, Scope())})
    return e


def resolve_goal(r: Resolver, goal: ir.Goal) -> ir.Goal:
    parts = []
    for part in goal.parts:
        if part.expr is None or not isinstance(part.expr, ir.Path):
            parts.append(part)
            continue
        head = part.expr.parts[0]
        if r.task.param(head) is None:
            r.error(
                "TL1016",
                f"goal placeholder `{{{'.'.join(part.expr.parts)}}}` names no parameter",
                part.span or goal.span,
                did_you_mean(head, [p.name for p in r.task.params])
                or "declare it in `params { ... }`",
            )
            parts.append(ir.GoalPart(text="{" + ".".join(part.expr.parts) + "}"))
            continue
        parts.append(part.model_copy(update={"expr": r.path(part.expr, Scope())}))
    return goal.model_copy(update={"parts": parts})
