"""The intermediate representation: pydantic models, JSON-serializable, lark-free.

Expressions, events and clauses are discriminated unions tagged by ``node``, so a
compiled task read back from JSON is the same tree. Every node has a ``span``;
spans take no part in equality and are dropped from JSON unless asked for.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from tasklang.source import Span

SCALAR_TYPES = (
    "text", "int", "number", "bool", "money", "phone", "email",
    "date", "time", "datetime", "duration", "file",
)  # fmt: skip
TEXT_LIKE = frozenset({"text", "phone", "email", "file", "enum"})
NUMERIC = frozenset({"int", "number", "money"})
TEMPORAL = frozenset({"date", "time", "datetime"})
ORDERED = NUMERIC | TEMPORAL | {"duration"}

Value = str | int | float | bool | None | list[Any] | dict[str, Any]


def strip_spans(data: Any) -> Any:
    """A JSON-like structure with every ``span`` key removed."""
    if isinstance(data, dict):
        return {k: strip_spans(v) for k, v in data.items() if k != "span"}
    if isinstance(data, list):
        return [strip_spans(v) for v in data]
    return data


class IRNode(BaseModel):
    """Base of all IR nodes: equality ignores spans."""

    model_config = ConfigDict(extra="forbid", validate_assignment=False)

    span: Span | None = None

    def __eq__(self, other: object) -> bool:
        if type(self) is not type(other):
            return NotImplemented
        assert isinstance(other, BaseModel)
        return bool(strip_spans(self.model_dump()) == strip_spans(other.model_dump()))

    def __hash__(self) -> int:  # pragma: no cover - nodes are not used as keys
        return id(self)


def walk(node: object) -> Iterator[IRNode]:
    """Every IR node in ``node``, pre-order (a node before its fields, fields in order).

    ``node`` may be an IR node, any pydantic model holding IR (a compiled task), or lists,
    tuples and dicts of them, nested. Spans and types are not IR and are not entered.

    >>> e = Logic(op="and", left=Param(name="a"), right=Not(operand=AnswerRef()))
    >>> [n.node for n in walk([e, {"k": Lit(value=1)}])]
    ['logic', 'param', 'not', 'answer', 'lit']
    """
    stack: list[object] = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, BaseModel):
            if isinstance(item, (Span, Type)):
                continue
            if isinstance(item, IRNode):
                yield item
            values = [getattr(item, name) for name in type(item).model_fields]
            stack.extend(v for v in reversed(values) if isinstance(v, _CONTAINERS))
        elif isinstance(item, (list, tuple)):
            stack.extend(v for v in reversed(item) if isinstance(v, _CONTAINERS))
        elif isinstance(item, dict):
            stack.extend(v for v in reversed(item.values()) if isinstance(v, _CONTAINERS))


_CONTAINERS = (BaseModel, list, tuple, dict)


class Type(BaseModel):
    """A value type: a scalar, an enum, a record of an app, a list, or a special type.

    >>> str(Type(name="list", item=Type(name="phone")))
    'list of phone'
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: Literal[
        "text", "int", "number", "bool", "money", "phone", "email", "date", "time",
        "datetime", "duration", "file", "enum", "record", "list", "answer", "null", "any",
    ]  # fmt: skip
    members: tuple[str, ...] | None = None
    record: str | None = None  # "app.Record"; None with ``fields`` for an anonymous record
    fields: tuple[tuple[str, Type], ...] | None = None
    item: Type | None = None
    optional: bool = False

    def __str__(self) -> str:
        if self.name == "enum":
            text = f"enum({', '.join(self.members or ())})"
        elif self.name == "record" and self.record:
            text = f"record {self.record}"
        elif self.name == "record":
            inner = ", ".join(f"{n}: {t}" for n, t in self.fields or ())
            text = f"{{{inner}}}"
        elif self.name == "list":
            text = f"list of {self.item}"
        else:
            text = self.name
        return text + ("?" if self.optional else "")

    def field_type(self, name: str) -> Type | None:
        """The type of a field of an anonymous record type."""
        return next((t for n, t in self.fields or () if n == name), None)

    def required(self) -> Type:
        return self.model_copy(update={"optional": False})


# ---------------------------------------------------------------- expressions
class ExprBase(IRNode):
    type: Type | None = None


class Lit(ExprBase):
    node: Literal["lit"] = "lit"
    value: Value


class Path(ExprBase):
    """An unresolved dotted name; the resolve pass replaces every Path."""

    node: Literal["path"] = "path"
    parts: list[str]


class Param(ExprBase):
    node: Literal["param"] = "param"
    name: str


class FieldRef(ExprBase):
    """A field of a record value; ``base`` None means the record in scope."""

    node: Literal["field"] = "field"
    base: Expr | None = None
    name: str


class CollectionRef(ExprBase):
    node: Literal["collection"] = "collection"
    app: str
    name: str


class SettingRef(ExprBase):
    node: Literal["setting"] = "setting"
    app: str
    name: str


class Now(ExprBase):
    node: Literal["now"] = "now"


class AnswerRef(ExprBase):
    node: Literal["answer"] = "answer"


class Neg(ExprBase):
    node: Literal["neg"] = "neg"
    operand: Expr


class Arith(ExprBase):
    node: Literal["arith"] = "arith"
    op: Literal["+", "-", "*", "/"]
    left: Expr
    right: Expr


class Compare(ExprBase):
    node: Literal["compare"] = "compare"
    op: Literal["==", "!=", "<", "<=", ">", ">=", "~", "in", "contains", "matches"]
    left: Expr
    right: Expr
    within: Expr | None = None
    fuzzy: float | None = None
    unordered: bool = False
    exact: bool = False


class Logic(ExprBase):
    node: Literal["logic"] = "logic"
    op: Literal["and", "or", "implies"]
    left: Expr
    right: Expr


class Not(ExprBase):
    node: Literal["not"] = "not"
    operand: Expr


class Quant(ExprBase):
    node: Literal["quant"] = "quant"
    quantifier: Literal["exists", "none", "all"]
    source: Expr
    where: Expr | None = None


class HasItem(IRNode):
    field: str
    op: Literal["==", "!=", "<", "<=", ">", ">=", "~", "in", "contains", "matches"]
    value: Expr
    within: Expr | None = None
    fuzzy: float | None = None
    unordered: bool = False
    exact: bool = False


class Has(ExprBase):
    """``C has { f op v, ... }``; desugared to ``exists C where f op v and ...``."""

    node: Literal["has"] = "has"
    source: Expr
    items: list[HasItem]


class Count(ExprBase):
    node: Literal["count"] = "count"
    source: Expr
    where: Expr | None = None


class Aggregate(ExprBase):
    node: Literal["aggregate"] = "aggregate"
    fn: Literal["sum", "min", "max", "avg"]
    source: Expr
    where: Expr | None = None
    field: str


class ListExpr(ExprBase):
    node: Literal["list"] = "list"
    items: list[Expr]


class RecordField(IRNode):
    name: str
    value: Expr


class RecordExpr(ExprBase):
    node: Literal["record"] = "record"
    fields: list[RecordField]


Expr = Annotated[
    Lit | Path | Param | FieldRef | CollectionRef | SettingRef | Now | AnswerRef | Neg | Arith | Compare | Logic | Not | Quant | Has | Count | Aggregate | ListExpr | RecordExpr,
    Field(discriminator="node"),
]  # fmt: skip


# ---------------------------------------------------------------- UI and events
class UiAttr(IRNode):
    attr: Literal["text", "id", "desc", "class", "xpath", "package"]
    value: str


class Selector(IRNode):
    attrs: list[UiAttr]


class ActionEvent(IRNode):
    node: Literal["action"] = "action"
    action: str
    on: Selector | None = None


class ShownEvent(IRNode):
    node: Literal["shown"] = "shown"
    selector: Selector


class ForegroundEvent(IRNode):
    node: Literal["foreground"] = "foreground"
    app: str
    activity: str | None = None


class ChangeEvent(IRNode):
    """A state change between two steps; ``target`` None means any record or setting."""

    node: Literal["change"] = "change"
    op: Literal["added", "updated", "deleted", "changed"]
    target: Expr | None = None
    where: Expr | None = None


class HoldsEvent(IRNode):
    node: Literal["holds"] = "holds"
    expr: Expr


Event = Annotated[
    ActionEvent | ShownEvent | ForegroundEvent | ChangeEvent | HoldsEvent,
    Field(discriminator="node"),
]


# ---------------------------------------------------------------- clauses
class CheckBody(IRNode):
    node: Literal["check"] = "check"
    expr: Expr


class UnchangedBody(IRNode):
    """None of ``targets`` (collections, settings) nor ``apps`` changed."""

    node: Literal["unchanged"] = "unchanged"
    targets: list[Expr]
    apps: list[str] = Field(default_factory=list)


class OnlyChangedBody(IRNode):
    """Nothing outside ``targets`` (collections, settings, or whole apps) changed."""

    node: Literal["only_changed"] = "only_changed"
    targets: list[Expr]
    apps: list[str] = Field(default_factory=list)


class TraceBody(IRNode):
    node: Literal["trace"] = "trace"
    op: Literal["eventually", "never", "before", "then", "at_most"]
    first: Event
    second: Event | None = None
    times: int | None = None


class UiElementBody(IRNode):
    node: Literal["ui_element"] = "ui_element"
    selector: Selector
    present: bool = True
    states: dict[str, bool] = Field(default_factory=dict)


class UiForegroundBody(IRNode):
    node: Literal["ui_foreground"] = "ui_foreground"
    app: str
    activity: str | None = None


ClauseBody = Annotated[
    CheckBody | UnchangedBody | OnlyChangedBody | TraceBody | UiElementBody | UiForegroundBody,
    Field(discriminator="node"),
]


class Clause(IRNode):
    """One checkable statement of a task, with its role, weight and subgoal."""

    id: str
    role: Literal["goal", "guard", "safety"] = "goal"
    weight: float = 1.0
    subgoal: str | None = None
    body: ClauseBody


class Subgoal(IRNode):
    name: str
    weight: float = 1.0


# ---------------------------------------------------------------- params and state
class ChoiceDomain(IRNode):
    node: Literal["choice"] = "choice"
    values: list[Expr]


class RangeDomain(IRNode):
    node: Literal["range"] = "range"
    low: Expr
    high: Expr


class GeneratorDomain(IRNode):
    node: Literal["generator"] = "generator"
    generator: str


class RecordDomain(IRNode):
    node: Literal["records"] = "records"
    source: Expr
    where: Expr | None = None


Domain = Annotated[
    ChoiceDomain | RangeDomain | GeneratorDomain | RecordDomain,
    Field(discriminator="node"),
]


class ParamDecl(IRNode):
    name: str
    type_name: str | None = None  # the declared type of a range
    type: Type | None = None
    domain: Domain


class GoalPart(IRNode):
    text: str | None = None
    expr: Expr | None = None


class Goal(IRNode):
    template: str
    parts: list[GoalPart] = Field(default_factory=list)


class Clock(IRNode):
    value: Expr
    tz: str = "UTC"


class Foreground(IRNode):
    app: str
    activity: str | None = None


class SetOp(IRNode):
    op: Literal["set"] = "set"
    target: Expr
    value: Expr


class AddOp(IRNode):
    op: Literal["add"] = "add"
    target: Expr
    value: Expr


class NoiseOp(IRNode):
    op: Literal["noise"] = "noise"
    target: Expr
    count: int
    where: Expr | None = None


GivenOp = Annotated[SetOp | AddOp | NoiseOp, Field(discriminator="op")]


class Given(IRNode):
    clock: Clock | None = None
    foreground: Foreground | None = None
    ops: list[GivenOp] = Field(default_factory=list)


class AppUse(IRNode):
    name: str
    host: str | None = None


class Budget(IRNode):
    steps: int | None = None
    seconds: int | None = None


class Task(IRNode):
    """A compiled task (before sampling: parameters are still symbolic)."""

    id: str
    kind: Literal["app", "mini_app", "cross_app"] = "app"
    apps: list[AppUse] = Field(default_factory=list)
    goal: Goal = Field(default_factory=lambda: Goal(template=""))
    params: list[ParamDecl] = Field(default_factory=list)
    constraints: list[Expr] = Field(default_factory=list)
    given: Given = Field(default_factory=Given)
    clauses: list[Clause] = Field(default_factory=list)
    subgoals: list[Subgoal] = Field(default_factory=list)
    outcome: Literal["complete", "infeasible"] = "complete"
    require_status: bool = False
    verify_only: bool = False
    budget: Budget = Field(default_factory=Budget)
    device: dict[str, Value] = Field(default_factory=dict)
    tags: list[str] = Field(default_factory=list)
    difficulty: Literal["easy", "medium", "hard"] | None = None
    revision: int = 1

    def param(self, name: str) -> ParamDecl | None:
        return next((p for p in self.params if p.name == name), None)


# ---------------------------------------------------------------- app models
class FieldDef(IRNode):
    name: str
    type: Type
    key: bool = False
    default: Value = None
    has_default: bool = False
    # `datetime(minute)`: every value is a whole minute (no seconds), so a screen that shows
    # it to the minute shows it exactly
    unit: Literal["minute"] | None = None

    @property
    def defaulted(self) -> bool:
        """Whether a record made without the field holds a value of it: its default, or
        null where the field is optional."""
        return self.has_default or self.type.optional


class RecordDef(IRNode):
    name: str
    fields: list[FieldDef]

    def field(self, name: str) -> FieldDef | None:
        return next((f for f in self.fields if f.name == name), None)

    def key_field(self) -> FieldDef | None:
        """The field that names a record among the others (None: the record has none)."""
        return next((f for f in self.fields if f.key), None)


class CollectionDef(IRNode):
    """A collection of records. ``append_only``: the app offers no way to remove a record
    (nor to change its key): a record, once there, stays to the end of an episode."""

    name: str
    record: str
    append_only: bool = False


class Probe(IRNode):
    """How one collection or setting is read back on a device. A `prefs` probe reads the
    entry ``key`` of an app's shared preferences file ``path``; ``form`` says how a number
    is kept there (`minutes`, `seconds`, `millis`, or `bits` of a flags integer) and
    ``values`` the stored form of each value of the setting (the first pair of a value is
    what the app writes; later ones are other forms it reads as the same value)."""

    target: str
    source: Literal["content", "setting", "sqlite", "files", "service", "ui", "prefs", "screen"]
    uri: str | None = None
    namespace: str | None = None  # a setting's table or service; the service a `service` reads
    key: str | None = None
    path: str | None = None
    table: str | None = None
    selector: Selector | None = None
    columns: dict[str, str] = Field(default_factory=dict)
    form: str | None = None
    values: list[tuple[str, str]] = Field(default_factory=list)
    # a `screen` probe: the steps from the app's start screen to the page it reads, then
    # one record per element matching ``selector`` (``spots``: where each field is in it),
    # or a setting's value (``spots``: the setting's name)
    steps: list[ScreenStep] = Field(default_factory=list)
    spots: dict[str, ScreenSpot] = Field(default_factory=dict)
    # `details { ... }`: fields each record's own page shows, opened by a tap on its row
    # (``details_tap``: on the row's element it finds, else the row's centre)
    details: dict[str, ScreenSpot] = Field(default_factory=dict)
    details_tap: Selector | None = None
    # `rows SELECTOR at most N`: the page lists N rows at most (the latest), so a reading of
    # N rows may have left some out
    most: int | None = None
    # `each SELECTOR { ... }`, once or more: the page lists groups, and a tap on one opens
    # the page of its rows (or, for all but the last level, of the next level's groups); a
    # group's spots read fields every row under it holds
    each: list[ScreenGroup] = Field(default_factory=list)
    # `rows ... upcoming FIELD`: the page lists only the records whose datetime ``FIELD`` is
    # after the phone's clock; one it does not list lies at or before it
    upcoming: str | None = None

    def group_spots(self) -> dict[str, ScreenSpot]:
        """The fields read on groups, at every level of `each`."""
        return {name: s for g in self.each for name, s in g.spots.items()}


class ScreenGroup(IRNode):
    """One level of a `screen` probe's `each`: the elements of the groups a page lists, and
    the fields each shows that every row under it holds (``spots``)."""

    selector: Selector
    spots: dict[str, ScreenSpot] = Field(default_factory=dict)


class ScreenStep(IRNode):
    """A tap on the first element ``selector`` matches (scrolling down to it), or ``text``
    typed into the focused field. ``if_shown``: a tap on the element where the screen as it
    is shows it (a prompt an app shows only at times: its first run's), and none where it
    does not."""

    action: Literal["tap", "type"]
    selector: Selector | None = None
    text: str | None = None
    if_shown: bool = False


class ScreenSpot(IRNode):
    """Where a `screen` probe reads a value: the element (inside the row, for a record's
    field), the text around the value (``format``: ``{}`` is the value), and the text shown
    for each value of an enum or a bool (``labels``: value -> text)."""

    selector: Selector
    format: str | None = None
    labels: dict[str, str] = Field(default_factory=dict)
    forms: list[ScreenForm] = Field(default_factory=list)  # other text the spot may show
    names: ScreenNames | None = None  # the text names a record of another collection


class ScreenNames(IRNode):
    """`names COLLECTION by F or G`: the text a spot shows is how a record of ``collection``
    (of the same app) is named, its first field of ``by`` that is set; the spot reads that
    record's key (several records so named: one of their keys; none: not read)."""

    collection: str
    by: list[str]


class ScreenForm(IRNode):
    """Text a spot may show besides its ``format`` (``{*}``: any text), and the value it
    stands for; ``unknown``: a row that shows it does not show the field (the record is
    read without it)."""

    text: str
    value: Any = None
    unknown: bool = False
    # `"Completed" = "used" or "paid"`: the row shows one of these values, not which one
    among: list[Any] = Field(default_factory=list)


class ChangeScope(IRNode):
    """`changes <names> only on <screens>`: the app lets these collections and settings
    change only from a step whose screen, before its action, shows an element one of
    ``screens`` selects, on (that step or a later one); with ``by_tap`` (`only by`), only
    from a step whose action is a tap that touches such an element on. No ``screens``: they
    never change (`nowhere`). A name may have one `only on` and one `only by` line: either
    lets it change. A name ``collection.field`` is a field of the collection's records: it
    changes only so in a record that keeps its key (records added and deleted are the
    collection's changes, not the field's)."""

    names: list[str]
    screens: list[Selector] = Field(default_factory=list)
    by_tap: bool = False


class AppModel(IRNode):
    """The typed state of one app, and how to read it back on a device."""

    name: str
    package: str = ""
    label: str = ""
    host: str | None = None
    records: list[RecordDef] = Field(default_factory=list)
    collections: list[CollectionDef] = Field(default_factory=list)
    settings: list[FieldDef] = Field(default_factory=list)
    probes: list[Probe] = Field(default_factory=list)
    changes: list[ChangeScope] = Field(default_factory=list)
    # `changes NAME by itself`: collections, settings and fields (`collection.field`) that
    # change with no action (the service, other people, the time); what watches the whole
    # app, or any change anywhere, does not watch them
    by_itself: list[str] = Field(default_factory=list)
    # `removes C only on <screens>` (`only by`, `nowhere`): where records of a collection are
    # removed, within where it changes at all
    removals: list[ChangeScope] = Field(default_factory=list)
    # `adds C only on <screens>` (`only by`, `nowhere`): where records are added to it
    additions: list[ChangeScope] = Field(default_factory=list)
    # `undoes C only on <screens>` (`only by`, `nowhere`): where an update brings a record
    # back to what it held earlier in the episode (anywhere else, an update once made shows
    # in the record for as long as it keeps its key)
    reversals: list[ChangeScope] = Field(default_factory=list)

    def record(self, name: str) -> RecordDef | None:
        return next((r for r in self.records if r.name == name), None)

    def collection(self, name: str) -> CollectionDef | None:
        return next((c for c in self.collections if c.name == name), None)

    def record_of(self, collection: str) -> RecordDef | None:
        """The record type of a collection (None: no such collection, or record type)."""
        coll = self.collection(collection)
        return self.record(coll.record) if coll is not None else None

    def setting(self, name: str) -> FieldDef | None:
        return next((s for s in self.settings if s.name == name), None)

    def loose_fields(self, collection: str) -> list[str]:
        """The fields of a collection's records said to change by themselves (`changes
        collection.field by itself`)."""
        prefix = f"{collection}."
        return [n[len(prefix) :] for n in self.by_itself if n.startswith(prefix)]

    def fixed_fields(self, collection: str) -> list[str]:
        """The fields of a collection's records said never to change (`changes
        collection.field nowhere`), in the record's order."""
        rdef = self.record_of(collection)
        if rdef is None:
            return []
        return [
            f.name
            for f in rdef.fields
            if any(not c.screens for c in self.changes_of(f"{collection}.{f.name}"))
        ]

    def identity(self, collection: str) -> list[str]:
        """What tells a collection's records apart: its key field; for records without one,
        the fields that never change, which a record keeps as long as it is there (none:
        nothing but likeness)."""
        rdef = self.record_of(collection)
        key = rdef.key_field() if rdef is not None else None
        return [key.name] if key is not None else self.fixed_fields(collection)

    def changes_of(self, name: str) -> list[ChangeScope]:
        """Where a collection or setting may change: its `changes` lines (none: the model
        does not say, so any step may change it)."""
        return [c for c in self.changes if name in c.names]

    def removals_of(self, name: str) -> list[ChangeScope]:
        """Where a collection's records may be removed: its `removes` lines (none: the
        model does not say, so wherever it changes)."""
        return [c for c in self.removals if name in c.names]

    def additions_of(self, name: str) -> list[ChangeScope]:
        """Where records may be added to a collection: its `adds` lines (none: the model
        does not say, so wherever it changes)."""
        return [c for c in self.additions if name in c.names]


class SourceInfo(BaseModel):
    model_config = ConfigDict(extra="forbid")

    path: str
    sha256: str


class CompiledTask(BaseModel):
    """The compiled task artifact written by ``tasklang compile``."""

    model_config = ConfigDict(extra="forbid", title="tasklang compiled task")

    format: Literal["tasklang.compiled-task"] = "tasklang.compiled-task"
    version: Literal[1] = 1
    compiler: str
    source: SourceInfo
    task: Task
    apps: dict[str, AppModel]


for _model in list(globals().values()):
    if isinstance(_model, type) and issubclass(_model, BaseModel) and _model is not BaseModel:
        _model.model_rebuild()
