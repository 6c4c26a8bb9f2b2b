"""Parse tree -> AST. The Transformer only reshapes: it validates nothing."""

from __future__ import annotations

from typing import Any

from lark import Token, Transformer, v_args
from lark.tree import Meta

from tasklang import ast
from tasklang.source import Span

_BY_ITSELF = object()  # `changes ... by itself`


def _opt(items: list[Any], index: int) -> Any:
    return items[index] if index < len(items) else None


@v_args(meta=True)
class ToAst(Transformer[Token, ast.Module]):
    """Builds ``tasklang.ast`` nodes, attaching a span to each."""

    def __init__(self, file: str) -> None:
        super().__init__(visit_tokens=False)
        self.file = file

    # -- spans
    def _span(self, meta: Meta) -> Span:
        if getattr(meta, "empty", True):
            return Span(file=self.file)
        return Span(
            file=self.file,
            line=meta.line,
            column=meta.column,
            end_line=meta.end_line,
            end_column=meta.end_column,
            start=meta.start_pos,
            end=meta.end_pos,
        )

    def _tok(self, token: Token) -> Span:
        return Span(
            file=self.file,
            line=token.line or 1,
            column=token.column or 1,
            end_line=token.end_line or token.line or 1,
            end_column=token.end_column or token.column or 1,
            start=token.start_pos or 0,
            end=token.end_pos or 0,
        )

    # -- module
    def start(self, meta: Meta, items: list[ast.Node]) -> ast.Module:
        return ast.Module(list(items), span=self._span(meta))

    # -- app models
    def app_decl(self, meta: Meta, items: list[Any]) -> ast.AppDecl:
        return ast.AppDecl(str(items[0]), list(items[1:]), span=self._span(meta))

    def app_package(self, meta: Meta, items: list[Token]) -> ast.AppPackage:
        return ast.AppPackage(str(items[0]), span=self._span(meta))

    def app_label(self, meta: Meta, items: list[Token]) -> ast.AppLabel:
        return ast.AppLabel(str(items[0]), span=self._span(meta))

    def app_host(self, meta: Meta, items: list[Token]) -> ast.AppHost:
        return ast.AppHost(str(items[0]), span=self._span(meta))

    def record_decl(self, meta: Meta, items: list[Any]) -> ast.RecordDecl:
        return ast.RecordDecl(str(items[0]), list(items[1:]), span=self._span(meta))

    def field_decl(self, meta: Meta, items: list[Any]) -> ast.FieldDecl:
        name, type_ref, key, default = items
        return ast.FieldDecl(str(name), type_ref, key is not None, default, span=self._span(meta))

    def type_ref(self, meta: Meta, items: list[Any]) -> ast.TypeRef:
        return ast.TypeRef(items[0], items[1] is not None, span=self._span(meta))

    def named_type(self, meta: Meta, items: list[Token | None]) -> ast.NamedType:
        name, unit = items
        return ast.NamedType(str(name), str(unit) if unit is not None else None,
                             span=self._span(meta))  # fmt: skip

    def enum_type(self, meta: Meta, items: list[Token]) -> ast.EnumType:
        return ast.EnumType([str(t) for t in items], span=self._span(meta))

    def list_type(self, meta: Meta, items: list[Any]) -> ast.ListType:
        return ast.ListType(items[0], span=self._span(meta))

    def collection_decl(self, meta: Meta, items: list[Any]) -> ast.CollectionDecl:
        name, record, append_only = items
        return ast.CollectionDecl(
            str(name), str(record), append_only is not None, span=self._span(meta)
        )

    def append_only(self, meta: Meta, items: list[Token]) -> bool:
        return True

    def change_decl(self, meta: Meta, items: list[Any]) -> ast.ChangeDecl:
        *names, where = items
        if where is _BY_ITSELF:
            return ast.ChangeDecl(names, [], by_itself=True, span=self._span(meta))
        by_tap, screens = where
        return ast.ChangeDecl(names, screens, by_tap, span=self._span(meta))

    def removal_decl(self, meta: Meta, items: list[Any]) -> ast.ChangeDecl:
        return self._record_scope("removes", meta, items)

    def addition_decl(self, meta: Meta, items: list[Any]) -> ast.ChangeDecl:
        return self._record_scope("adds", meta, items)

    def undo_decl(self, meta: Meta, items: list[Any]) -> ast.ChangeDecl:
        return self._record_scope("undoes", meta, items)

    def _record_scope(self, verb: str, meta: Meta, items: list[Any]) -> ast.ChangeDecl:
        *tokens, where = items
        names = [ast.Dotted([str(t)], span=self._tok(t)) for t in tokens]
        if where is _BY_ITSELF:
            return ast.ChangeDecl(names, [], by_itself=True, verb=verb, span=self._span(meta))
        by_tap, screens = where
        return ast.ChangeDecl(names, screens, by_tap, verb=verb, span=self._span(meta))

    def change_name(self, meta: Meta, items: list[Token | None]) -> ast.Dotted:
        return ast.Dotted([str(t) for t in items if t is not None], span=self._span(meta))

    def change_on(self, meta: Meta, items: list[Any]) -> tuple[bool, list[ast.Selector]]:
        return False, list(items)

    def change_by(self, meta: Meta, items: list[Any]) -> tuple[bool, list[ast.Selector]]:
        return True, list(items)

    def change_nowhere(self, meta: Meta, items: list[Any]) -> tuple[bool, list[ast.Selector]]:
        return False, []

    def change_by_itself(self, meta: Meta, items: list[Any]) -> object:
        return _BY_ITSELF

    def settings_decl(self, meta: Meta, items: list[Any]) -> ast.SettingsDecl:
        return ast.SettingsDecl(list(items), span=self._span(meta))

    def probe_decl(self, meta: Meta, items: list[Any]) -> ast.ProbeDecl:
        target, (source, args, selector, columns, *screen) = items
        extra: dict[str, Any] = screen[0] if screen else {}
        return ast.ProbeDecl(
            target, source, args, selector, columns, **extra, span=self._span(meta)
        )

    def probe_content(self, meta: Meta, items: list[Any]) -> tuple[Any, ...]:
        return ("content", [str(items[0])], None, items[1])

    def probe_setting(self, meta: Meta, items: list[Any]) -> tuple[Any, ...]:
        return ("setting", [str(items[0]), str(items[1])], None, None)

    def probe_sqlite(self, meta: Meta, items: list[Any]) -> tuple[Any, ...]:
        return ("sqlite", [str(items[0]), str(items[1])], None, items[2])

    def probe_files(self, meta: Meta, items: list[Any]) -> tuple[Any, ...]:
        return ("files", [str(items[0])], None, items[1])

    def probe_service(self, meta: Meta, items: list[Any]) -> tuple[Any, ...]:
        return ("service", [str(items[0])], None, items[1])

    def probe_ui(self, meta: Meta, items: list[Any]) -> tuple[Any, ...]:
        return ("ui", [], items[0], items[1])

    def probe_prefs(self, meta: Meta, items: list[Any]) -> tuple[Any, ...]:
        path, _key, key, form, values = items
        args = [str(path), str(key)] + ([str(form)] if form is not None else [])
        return ("prefs", args, None, values)

    def prefs_map(self, meta: Meta, items: list[Any]) -> list[ast.ProbeColumn]:
        return list(items)

    def prefs_value(self, meta: Meta, items: list[Token]) -> ast.ProbeColumn:
        return ast.ProbeColumn(str(items[0]), str(items[1]), span=self._span(meta))

    def probe_screen(self, meta: Meta, items: list[Any]) -> tuple[Any, ...]:
        path, (rows, fields, value, details, each, most, upcoming) = items
        steps = path or []
        tap, details = details if details is not None else (None, None)
        extra = {"steps": steps, "fields": fields, "value": value, "details": details,
                 "details_tap": tap, "most": most, "each": each, "upcoming": upcoming}  # fmt: skip
        return ("screen", [], rows, None, extra)

    def screen_path(self, meta: Meta, items: list[Any]) -> list[ast.ScreenStep]:
        return [i for i in items if i is not None]

    def screen_tap(self, meta: Meta, items: list[Any]) -> ast.ScreenStep:
        return ast.ScreenStep("tap", items[0], if_shown=items[1] is not None, span=self._span(meta))

    def screen_if_shown(self, meta: Meta, items: list[Token]) -> bool:
        return True

    def screen_type(self, meta: Meta, items: list[Token]) -> ast.ScreenStep:
        return ast.ScreenStep("type", text=str(items[0]), span=self._span(meta))

    def screen_rows(self, meta: Meta, items: list[Any]) -> tuple[Any, ...]:
        n = next(i for i, x in enumerate(items) if not isinstance(x, ast.ScreenGroup))
        each, (rows, most, upcoming, *fields, details) = items[:n], items[n:]
        fields = [f for f in fields if f is not None]
        return (rows, fields, None, details, each, most, upcoming)

    def screen_most(self, meta: Meta, items: list[Token]) -> int:
        return int(items[0])

    def screen_upcoming(self, meta: Meta, items: list[Token]) -> str:
        return str(items[0])

    def screen_each(self, meta: Meta, items: list[Any]) -> ast.ScreenGroup:
        selector, *fields = items
        return ast.ScreenGroup(selector, [f for f in fields if f is not None],
                               span=self._span(meta))  # fmt: skip

    def screen_details(self, meta: Meta, items: list[Any]) -> tuple[Any, list[ast.ScreenField]]:
        tap, *fields = items
        return (tap, [f for f in fields if f is not None])

    def screen_details_tap(self, meta: Meta, items: list[Any]) -> Any:
        return items[0]

    def screen_value(self, meta: Meta, items: list[Any]) -> tuple[Any, ...]:
        return (None, None, items[0], None, [], None, None)

    def screen_field(self, meta: Meta, items: list[Any]) -> ast.ScreenField:
        return ast.ScreenField(str(items[0]), items[1], span=self._span(meta))

    def screen_spot(self, meta: Meta, items: list[Any]) -> ast.ScreenSpot:
        selector, fmt, labels, forms, names = items
        fmt = str(fmt) if fmt is not None else None
        return ast.ScreenSpot(selector, fmt, labels, forms, names, span=self._span(meta))

    def screen_names(self, meta: Meta, items: list[Token]) -> ast.ScreenNames:
        collection, *by = items
        return ast.ScreenNames(str(collection), [str(t) for t in by], span=self._span(meta))

    def screen_forms(self, meta: Meta, items: list[Any]) -> list[ast.ScreenForm]:
        return [i for i in items if i is not None]

    def screen_form(self, meta: Meta, items: list[Any]) -> ast.ScreenForm:
        text, value, *more = items
        if isinstance(value, ast.Lit):
            return ast.ScreenForm(str(text), value=value, more=more, span=self._span(meta))
        return ast.ScreenForm(str(text), name=str(value), more=more, span=self._span(meta))

    def screen_labels(self, meta: Meta, items: list[Any]) -> list[ast.ProbeColumn]:
        return [i for i in items if i is not None]

    def screen_label(self, meta: Meta, items: list[Token]) -> ast.ProbeColumn:
        return ast.ProbeColumn(str(items[0]), str(items[1]), span=self._span(meta))

    def probe_map(self, meta: Meta, items: list[Any]) -> list[ast.ProbeColumn]:
        return list(items)

    def probe_column(self, meta: Meta, items: list[Token]) -> ast.ProbeColumn:
        return ast.ProbeColumn(str(items[0]), str(items[1]), span=self._span(meta))

    # -- tasks
    def task_decl(self, meta: Meta, items: list[Any]) -> ast.TaskDecl:
        return ast.TaskDecl(items[0], list(items[1:]), span=self._span(meta))

    def kind_item(self, meta: Meta, items: list[Token]) -> ast.KindItem:
        return ast.KindItem(str(items[0]), span=self._span(meta))

    def apps_item(self, meta: Meta, items: list[Any]) -> ast.AppsItem:
        return ast.AppsItem(list(items), span=self._span(meta))

    def app_use(self, meta: Meta, items: list[Any]) -> ast.AppUse:
        host = items[1]
        return ast.AppUse(
            str(items[0]), str(host) if host is not None else None, span=self._span(meta)
        )

    def goal_item(self, meta: Meta, items: list[Token]) -> ast.GoalItem:
        return ast.GoalItem(str(items[0]), span=self._span(meta))

    def tags_item(self, meta: Meta, items: list[Token]) -> ast.TagsItem:
        return ast.TagsItem([str(t) for t in items], span=self._span(meta))

    def difficulty_item(self, meta: Meta, items: list[Token]) -> ast.DifficultyItem:
        return ast.DifficultyItem(str(items[0]), span=self._span(meta))

    def revision_item(self, meta: Meta, items: list[Token]) -> ast.RevisionItem:
        return ast.RevisionItem(str(items[0]), span=self._span(meta))

    def require_item(self, meta: Meta, items: list[Any]) -> ast.RequireItem:
        return ast.RequireItem(span=self._span(meta))

    def verify_only_item(self, meta: Meta, items: list[Any]) -> ast.VerifyOnlyItem:
        return ast.VerifyOnlyItem(span=self._span(meta))

    def outcome_item(self, meta: Meta, items: list[Token]) -> ast.OutcomeItem:
        return ast.OutcomeItem(str(items[0]), span=self._span(meta))

    def budget_item(self, meta: Meta, items: list[Any]) -> ast.BudgetItem:
        dur = items[1]
        return ast.BudgetItem(
            str(items[0]), str(dur) if dur is not None else None, span=self._span(meta)
        )

    def params_block(self, meta: Meta, items: list[Any]) -> ast.ParamsBlock:
        return ast.ParamsBlock(list(items), span=self._span(meta))

    def param_decl(self, meta: Meta, items: list[Any]) -> ast.ParamDecl:
        return ast.ParamDecl(str(items[0]), items[1], span=self._span(meta))

    def choice_domain(self, meta: Meta, items: list[Any]) -> ast.ChoiceDomain:
        return ast.ChoiceDomain(items[0], span=self._span(meta))

    def record_domain(self, meta: Meta, items: list[Any]) -> ast.RecordDomain:
        return ast.RecordDomain(items[0], items[1], span=self._span(meta))

    def range_domain(self, meta: Meta, items: list[Any]) -> ast.RangeDomain:
        return ast.RangeDomain(str(items[0]), items[1], items[2], span=self._span(meta))

    def generator_domain(self, meta: Meta, items: list[Token]) -> ast.GeneratorDomain:
        return ast.GeneratorDomain(str(items[0]), span=self._span(meta))

    def constraints_block(self, meta: Meta, items: list[Any]) -> ast.ConstraintsBlock:
        return ast.ConstraintsBlock(list(items), span=self._span(meta))

    def given_block(self, meta: Meta, items: list[Any]) -> ast.GivenBlock:
        return ast.GivenBlock(list(items), span=self._span(meta))

    def given_clock(self, meta: Meta, items: list[Any]) -> ast.GivenClock:
        tz = items[2]
        return ast.GivenClock(items[1], str(tz) if tz is not None else None, span=self._span(meta))

    def given_foreground(self, meta: Meta, items: list[Any]) -> ast.GivenForeground:
        act = items[1]
        return ast.GivenForeground(
            str(items[0]), str(act) if act is not None else None, span=self._span(meta)
        )

    def given_set(self, meta: Meta, items: list[Any]) -> ast.GivenSet:
        return ast.GivenSet(items[0], items[1], span=self._span(meta))

    def given_add(self, meta: Meta, items: list[Any]) -> ast.GivenAdd:
        return ast.GivenAdd(items[0], items[1], span=self._span(meta))

    def given_noise(self, meta: Meta, items: list[Any]) -> ast.GivenNoise:
        return ast.GivenNoise(items[0], str(items[1]), items[2], span=self._span(meta))

    def expect_block(self, meta: Meta, items: list[Any]) -> ast.ExpectBlock:
        return ast.ExpectBlock(list(items), span=self._span(meta))

    def weight(self, meta: Meta, items: list[Any]) -> ast.Weight:
        return ast.Weight(items[0], span=self._span(meta))

    def check_clause(self, meta: Meta, items: list[Any]) -> ast.CheckClause:
        return ast.CheckClause(items[0], items[1], span=self._span(meta))

    def unchanged_clause(self, meta: Meta, items: list[Any]) -> ast.UnchangedClause:
        return ast.UnchangedClause(list(items[:-1]), items[-1], span=self._span(meta))

    def only_changed_clause(self, meta: Meta, items: list[Any]) -> ast.OnlyChangedClause:
        return ast.OnlyChangedClause(list(items[:-1]), items[-1], span=self._span(meta))

    def trace_clause(self, meta: Meta, items: list[Any]) -> ast.TraceClause:
        return ast.TraceClause(items[0], items[1], span=self._span(meta))

    def ui_clause(self, meta: Meta, items: list[Any]) -> ast.UiClause:
        return ast.UiClause(items[0], items[1], span=self._span(meta))

    def subgoal(self, meta: Meta, items: list[Any]) -> ast.Subgoal:
        return ast.Subgoal(str(items[0]), items[1], list(items[2:]), span=self._span(meta))

    def eventually(self, meta: Meta, items: list[Any]) -> ast.TracePred:
        return ast.TracePred("eventually", items[0], span=self._span(meta))

    def never(self, meta: Meta, items: list[Any]) -> ast.TracePred:
        return ast.TracePred("never", items[0], span=self._span(meta))

    def before(self, meta: Meta, items: list[Any]) -> ast.TracePred:
        return ast.TracePred("before", items[0], items[1], span=self._span(meta))

    def then(self, meta: Meta, items: list[Any]) -> ast.TracePred:
        return ast.TracePred("then", items[0], items[1], span=self._span(meta))

    def at_most(self, meta: Meta, items: list[Any]) -> ast.TracePred:
        return ast.TracePred("at_most", items[1], None, str(items[0]), span=self._span(meta))

    def action_event(self, meta: Meta, items: list[Any]) -> ast.ActionEvent:
        return ast.ActionEvent(str(items[0]), items[1], span=self._span(meta))

    def shown_event(self, meta: Meta, items: list[Any]) -> ast.ShownEvent:
        return ast.ShownEvent(items[0], span=self._span(meta))

    def foreground_event(self, meta: Meta, items: list[Any]) -> ast.ForegroundEvent:
        act = items[1]
        return ast.ForegroundEvent(
            str(items[0]), str(act) if act is not None else None, span=self._span(meta)
        )

    def change_event(self, meta: Meta, items: list[Any]) -> ast.ChangeEvent:
        op, target, where = items
        return ast.ChangeEvent(op, target, where, span=self._span(meta))

    def change_op(self, meta: Meta, items: list[Token]) -> str:
        return str(items[0])

    def target(self, meta: Meta, items: list[Any]) -> ast.Dotted | None:
        item = items[0]
        return item if isinstance(item, ast.Dotted) else None

    def holds_event(self, meta: Meta, items: list[Any]) -> ast.HoldsEvent:
        return ast.HoldsEvent(items[0], span=self._span(meta))

    def ui_element(self, meta: Meta, items: list[Any]) -> ast.UiPred:
        return ast.UiPred("element", items[0], list(items[1:]), span=self._span(meta))

    def ui_no_element(self, meta: Meta, items: list[Any]) -> ast.UiPred:
        return ast.UiPred("no_element", items[0], span=self._span(meta))

    def ui_foreground(self, meta: Meta, items: list[Any]) -> ast.UiPred:
        act = items[1]
        return ast.UiPred(
            "foreground",
            app=str(items[0]),
            activity=str(act) if act is not None else None,
            span=self._span(meta),
        )

    def ui_selector(self, meta: Meta, items: list[Any]) -> ast.Selector:
        return ast.Selector(list(items), span=self._span(meta))

    def ui_attr(self, meta: Meta, items: list[Any]) -> ast.UiAttr:
        return ast.UiAttr(items[0], str(items[1]), span=self._span(meta))

    def ui_attr_kw(self, meta: Meta, items: list[Token]) -> str:
        return str(items[0])

    def ui_state(self, meta: Meta, items: list[Any]) -> ast.UiState:
        return ast.UiState(items[1], items[0] is not None, span=self._span(meta))

    def ui_state_kw(self, meta: Meta, items: list[Token]) -> str:
        return str(items[0])

    def forbid_block(self, meta: Meta, items: list[Any]) -> ast.ForbidBlock:
        return ast.ForbidBlock(list(items), span=self._span(meta))

    def device_block(self, meta: Meta, items: list[Any]) -> ast.DeviceBlock:
        return ast.DeviceBlock(list(items), span=self._span(meta))

    def device_item(self, meta: Meta, items: list[Any]) -> ast.DeviceItem:
        return ast.DeviceItem(str(items[0]), items[1], span=self._span(meta))

    # -- expressions
    def implies_op(self, meta: Meta, items: list[Any]) -> ast.BoolOp:
        return ast.BoolOp("implies", items[0], items[1], span=self._span(meta))

    def or_op(self, meta: Meta, items: list[Any]) -> ast.BoolOp:
        return ast.BoolOp("or", items[0], items[1], span=self._span(meta))

    def and_op(self, meta: Meta, items: list[Any]) -> ast.BoolOp:
        return ast.BoolOp("and", items[0], items[1], span=self._span(meta))

    def not_op(self, meta: Meta, items: list[Any]) -> ast.Not:
        return ast.Not(items[1], span=self._span(meta))

    def compare(self, meta: Meta, items: list[Any]) -> ast.Compare:
        return ast.Compare(items[1], items[0], items[2], list(items[3:]), span=self._span(meta))

    def comp_op(self, meta: Meta, items: list[Token]) -> str:
        return str(items[0])

    def opt_within(self, meta: Meta, items: list[Any]) -> ast.CmpOption:
        return ast.CmpOption("within", items[0], span=self._span(meta))

    def opt_fuzzy(self, meta: Meta, items: list[Any]) -> ast.CmpOption:
        return ast.CmpOption("fuzzy", items[0], span=self._span(meta))

    def opt_unordered(self, meta: Meta, items: list[Any]) -> ast.CmpOption:
        return ast.CmpOption("unordered", span=self._span(meta))

    def opt_exact(self, meta: Meta, items: list[Any]) -> ast.CmpOption:
        return ast.CmpOption("exact", span=self._span(meta))

    def arith(self, meta: Meta, items: list[Any]) -> ast.BinOp:
        return ast.BinOp(str(items[1]), items[0], items[2], span=self._span(meta))

    def neg(self, meta: Meta, items: list[Any]) -> ast.Expr:
        if str(items[0]) == "+":
            return items[1]  # type: ignore[no-any-return]
        return ast.Neg(items[1], span=self._span(meta))

    def attr(self, meta: Meta, items: list[Any]) -> ast.Attr:
        return ast.Attr(items[0], str(items[1]), span=self._span(meta))

    def has(self, meta: Meta, items: list[Any]) -> ast.Has:
        return ast.Has(items[0], list(items[1:]), span=self._span(meta))

    def has_item(self, meta: Meta, items: list[Any]) -> ast.HasItem:
        return ast.HasItem(
            str(items[0]), items[1], items[2], list(items[3:]), span=self._span(meta)
        )

    def name(self, meta: Meta, items: list[Token]) -> ast.Name:
        return ast.Name(str(items[0]), span=self._span(meta))

    def answer(self, meta: Meta, items: list[Any]) -> ast.Answer:
        return ast.Answer(span=self._span(meta))

    def now(self, meta: Meta, items: list[Any]) -> ast.Now:
        return ast.Now(span=self._span(meta))

    def quant(self, meta: Meta, items: list[Any]) -> ast.Quant:
        return ast.Quant(items[0], items[1], items[2], span=self._span(meta))

    def quant_kw(self, meta: Meta, items: list[Token]) -> str:
        return str(items[0])

    def count(self, meta: Meta, items: list[Any]) -> ast.Count:
        return ast.Count(items[0], items[1], span=self._span(meta))

    def aggregate(self, meta: Meta, items: list[Any]) -> ast.Aggregate:
        return ast.Aggregate(items[0], items[1], items[2], str(items[3]), span=self._span(meta))

    def agg_fn(self, meta: Meta, items: list[Token]) -> str:
        return str(items[0])

    def list_lit(self, meta: Meta, items: list[Any]) -> ast.ListLit:
        return ast.ListLit([i for i in items if i is not None], span=self._span(meta))

    def record_lit(self, meta: Meta, items: list[Any]) -> ast.RecordLit:
        return ast.RecordLit([i for i in items if i is not None], span=self._span(meta))

    def record_field(self, meta: Meta, items: list[Any]) -> ast.RecordField:
        return ast.RecordField(str(items[0]), items[1], span=self._span(meta))

    def dotted(self, meta: Meta, items: list[Token]) -> ast.Dotted:
        return ast.Dotted([str(t) for t in items], span=self._span(meta))

    def literal(self, meta: Meta, items: list[Any]) -> ast.Lit:
        return items[0]  # type: ignore[no-any-return]

    def _lit(self, kind: str, meta: Meta, items: list[Token], text: str | None = None) -> ast.Lit:
        return ast.Lit(kind, text if text is not None else str(items[0]), span=self._span(meta))

    def string(self, meta: Meta, items: list[Token]) -> ast.Lit:
        return self._lit("string", meta, items)

    def int(self, meta: Meta, items: list[Token]) -> ast.Lit:
        return self._lit("int", meta, items)

    def decimal(self, meta: Meta, items: list[Token]) -> ast.Lit:
        return self._lit("decimal", meta, items)

    def money(self, meta: Meta, items: list[Token]) -> ast.Lit:
        return self._lit("money", meta, items)

    def date(self, meta: Meta, items: list[Token]) -> ast.Lit:
        return self._lit("date", meta, items)

    def time(self, meta: Meta, items: list[Token]) -> ast.Lit:
        return self._lit("time", meta, items)

    def datetime(self, meta: Meta, items: list[Token]) -> ast.Lit:
        return self._lit("datetime", meta, items)

    def duration(self, meta: Meta, items: list[Token]) -> ast.Lit:
        return self._lit("duration", meta, items)

    def true(self, meta: Meta, items: list[Token]) -> ast.Lit:
        return self._lit("bool", meta, items, "true")

    def false(self, meta: Meta, items: list[Token]) -> ast.Lit:
        return self._lit("bool", meta, items, "false")

    def null(self, meta: Meta, items: list[Token]) -> ast.Lit:
        return self._lit("null", meta, items, "null")
