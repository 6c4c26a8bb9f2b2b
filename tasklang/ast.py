"""The abstract syntax tree: plain dataclasses that mirror the grammar.

Every node carries a ``span``; spans take no part in equality, so two trees parsed
from differently formatted text compare equal. Literals keep their source text;
their meaning is decided when the tree is lowered to IR.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, fields
from dataclasses import field as dc_field
from typing import Any

from tasklang.source import Span

_NO_SPAN = Span()


@dataclass
class Node:
    span: Span = dc_field(default=_NO_SPAN, compare=False, repr=False, kw_only=True)

    def children(self) -> Iterator[Node]:
        """Direct child nodes, in source order."""
        for f in fields(self):
            if f.name == "span":
                continue
            yield from _nodes_in(getattr(self, f.name))

    def walk(self) -> Iterator[Node]:
        """This node and all its descendants, depth first."""
        stack: list[Node] = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(list(node.children())))


def _nodes_in(value: Any) -> Iterator[Node]:
    if isinstance(value, Node):
        yield value
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _nodes_in(item)


# ---------------------------------------------------------------- expressions
@dataclass
class Expr(Node):
    pass


@dataclass
class Lit(Expr):
    kind: str  # string int decimal money date time datetime duration bool null
    text: str


@dataclass
class Name(Expr):
    name: str


@dataclass
class Attr(Expr):
    base: Expr
    name: str


@dataclass
class Neg(Expr):
    operand: Expr


@dataclass
class BinOp(Expr):
    op: str
    left: Expr
    right: Expr


@dataclass
class CmpOption(Node):
    kind: str  # within fuzzy unordered exact
    value: Expr | None = None


@dataclass
class Compare(Expr):
    op: str
    left: Expr
    right: Expr
    options: list[CmpOption] = dc_field(default_factory=list)


@dataclass
class BoolOp(Expr):
    op: str  # and or implies
    left: Expr
    right: Expr


@dataclass
class Not(Expr):
    operand: Expr


@dataclass
class HasItem(Node):
    field: str
    op: str
    value: Expr
    options: list[CmpOption] = dc_field(default_factory=list)


@dataclass
class Has(Expr):
    base: Expr
    items: list[HasItem]


@dataclass
class Answer(Expr):
    pass


@dataclass
class Now(Expr):
    pass


@dataclass
class Dotted(Node):
    parts: list[str]

    @property
    def text(self) -> str:
        return ".".join(self.parts)


@dataclass
class Quant(Expr):
    quantifier: str  # exists none all
    path: Dotted
    where: Expr | None = None


@dataclass
class Count(Expr):
    path: Dotted
    where: Expr | None = None


@dataclass
class Aggregate(Expr):
    fn: str  # sum min max avg
    path: Dotted
    where: Expr | None
    field: str


@dataclass
class ListLit(Expr):
    items: list[Expr]


@dataclass
class RecordField(Node):
    name: str
    value: Expr


@dataclass
class RecordLit(Expr):
    fields: list[RecordField]


# ---------------------------------------------------------------- app models
@dataclass
class TypeBase(Node):
    pass


@dataclass
class NamedType(TypeBase):
    name: str
    unit: str | None = None  # `datetime(minute)`: the values are whole minutes


@dataclass
class EnumType(TypeBase):
    members: list[str]


@dataclass
class ListType(TypeBase):
    item: TypeBase


@dataclass
class TypeRef(Node):
    base: TypeBase
    optional: bool = False


@dataclass
class FieldDecl(Node):
    name: str
    type: TypeRef
    key: bool = False
    default: Expr | None = None


@dataclass
class AppPackage(Node):
    value: str


@dataclass
class AppLabel(Node):
    value: str


@dataclass
class AppHost(Node):
    name: str


@dataclass
class RecordDecl(Node):
    name: str
    fields: list[FieldDecl]


@dataclass
class CollectionDecl(Node):
    name: str
    record: str
    append_only: bool = False


@dataclass
class ChangeDecl(Node):
    """`changes a, b only on <selector>, ...` (`only by`, or `nowhere`): where the app lets
    the named collections, settings and fields (`collection.field`) change."""

    names: list[Dotted]
    screens: list[Selector]  # empty: `nowhere` (or `by itself`)
    by_tap: bool = False  # `only by`: a tap on one of the elements, not any action on a screen
    by_itself: bool = False  # `by itself`: it changes with no action (a service, the time)
    # `changes`; `removes <collections> ...` / `adds <collections> ...` / `undoes
    # <collections> ...`: where their records are removed / added / brought back by an update
    # to what they held earlier
    verb: str = "changes"


@dataclass
class SettingsDecl(Node):
    fields: list[FieldDecl]


@dataclass
class ProbeColumn(Node):
    name: str
    column: str


@dataclass
class UiAttr(Node):
    attr: str  # text id desc class xpath package
    value: str


@dataclass
class Selector(Node):
    attrs: list[UiAttr]


@dataclass
class ScreenStep(Node):
    """One step of a `screen` probe's way to its page: a tap, or text typed (raw literal).
    ``if_shown``: a tap only where the screen shows the element."""

    action: str  # tap type
    selector: Selector | None = None
    text: str | None = None
    if_shown: bool = False


@dataclass
class ScreenSpot(Node):
    """Where a `screen` probe finds a value: the element, the text around the value (raw
    string literal, ``{}`` for the value), and the text shown for each value."""

    selector: Selector
    format: str | None = None
    labels: list[ProbeColumn] | None = None
    forms: list[ScreenForm] | None = None
    names: ScreenNames | None = None


@dataclass
class ScreenNames(Node):
    """``names friends by remark or nickname`` after a spot: the text is how a record of the
    collection is named (its first field of ``by`` that is set), and the spot reads that
    record's key."""

    collection: str
    by: list[str]


@dataclass
class ScreenForm(Node):
    """``"No bill due" = $0.00`` in a spot's ``or { ... }``: text the spot may show (raw
    string literal, ``{*}`` for any text) and the value it stands for: a literal, or the
    name ``unknown`` (a row that shows it does not show the field); ``"Completed" = "used"
    or "paid"``: one of several values (``more``: those after the first)."""

    text: str
    value: Lit | None = None
    name: str | None = None
    more: list[Lit] = dc_field(default_factory=list)


@dataclass
class ScreenField(Node):
    name: str
    spot: ScreenSpot


@dataclass
class ScreenGroup(Node):
    """One level of `each SELECTOR { field = SPOT, ... }`: the groups a page lists."""

    selector: Selector
    fields: list[ScreenField]


@dataclass
class ProbeDecl(Node):
    target: Dotted
    source: str  # content setting sqlite files service ui prefs screen
    args: list[str]  # raw string literals / namespace name / a prefs form name
    selector: Selector | None = None  # ui: the elements; screen: the rows
    columns: list[ProbeColumn] | None = None
    steps: list[ScreenStep] = dc_field(default_factory=list)  # screen: the way to the page
    fields: list[ScreenField] | None = None  # screen: each field of a row
    value: ScreenSpot | None = None  # screen: a setting's value
    details: list[ScreenField] | None = None  # screen: fields each row's own page shows
    details_tap: Selector | None = None  # screen: the element of a row a tap opens it by
    most: int | None = None  # screen: the page lists this many rows at most
    # screen: the groups the page lists, each opening a page of rows (or of the next level's
    # groups), and what each shows
    each: list[ScreenGroup] = dc_field(default_factory=list)
    # screen: the page lists only the records whose datetime field is after the phone's clock
    upcoming: str | None = None


@dataclass
class AppDecl(Node):
    name: str
    items: list[Node]


# ---------------------------------------------------------------- tasks
@dataclass
class KindItem(Node):
    name: str


@dataclass
class AppUse(Node):
    name: str
    host: str | None = None


@dataclass
class AppsItem(Node):
    uses: list[AppUse]


@dataclass
class GoalItem(Node):
    text: str


@dataclass
class TagsItem(Node):
    values: list[str]


@dataclass
class DifficultyItem(Node):
    name: str


@dataclass
class RevisionItem(Node):
    value: str


@dataclass
class RequireItem(Node):
    pass


@dataclass
class VerifyOnlyItem(Node):
    pass


@dataclass
class OutcomeItem(Node):
    name: str


@dataclass
class BudgetItem(Node):
    steps: str
    duration: str | None = None


@dataclass
class ChoiceDomain(Node):
    values: ListLit


@dataclass
class RecordDomain(Node):
    path: Dotted
    where: Expr | None = None


@dataclass
class RangeDomain(Node):
    type_name: str
    low: Expr
    high: Expr


@dataclass
class GeneratorDomain(Node):
    name: str


@dataclass
class ParamDecl(Node):
    name: str
    domain: Node


@dataclass
class ParamsBlock(Node):
    params: list[ParamDecl]


@dataclass
class ConstraintsBlock(Node):
    exprs: list[Expr]


@dataclass
class GivenClock(Node):
    value: Expr
    tz: str | None = None


@dataclass
class GivenForeground(Node):
    app: str
    activity: str | None = None


@dataclass
class GivenSet(Node):
    target: Dotted
    value: Expr


@dataclass
class GivenAdd(Node):
    target: Dotted
    value: Expr


@dataclass
class GivenNoise(Node):
    target: Dotted
    count: str
    where: Expr | None = None


@dataclass
class GivenBlock(Node):
    stmts: list[Node]


@dataclass
class Weight(Node):
    value: Lit


@dataclass
class CheckClause(Node):
    expr: Expr
    weight: Weight | None = None


@dataclass
class UnchangedClause(Node):
    targets: list[Dotted]
    weight: Weight | None = None


@dataclass
class OnlyChangedClause(Node):
    targets: list[Dotted]
    weight: Weight | None = None


@dataclass
class ActionEvent(Node):
    name: str
    selector: Selector | None = None


@dataclass
class ShownEvent(Node):
    selector: Selector


@dataclass
class ForegroundEvent(Node):
    app: str
    activity: str | None = None


@dataclass
class ChangeEvent(Node):
    op: str  # added updated deleted changed
    target: Dotted | None  # None means `any`
    where: Expr | None = None


@dataclass
class HoldsEvent(Node):
    expr: Expr


@dataclass
class TracePred(Node):
    kind: str  # eventually never before then at_most
    first: Node
    second: Node | None = None
    times: str | None = None


@dataclass
class TraceClause(Node):
    pred: TracePred
    weight: Weight | None = None


@dataclass
class UiState(Node):
    name: str
    negated: bool = False


@dataclass
class UiPred(Node):
    kind: str  # element no_element foreground
    selector: Selector | None = None
    states: list[UiState] = dc_field(default_factory=list)
    app: str | None = None
    activity: str | None = None


@dataclass
class UiClause(Node):
    pred: UiPred
    weight: Weight | None = None


@dataclass
class Subgoal(Node):
    name: str
    weight: Weight | None
    clauses: list[Node]


@dataclass
class ExpectBlock(Node):
    clauses: list[Node]


@dataclass
class ForbidBlock(Node):
    events: list[Node]


@dataclass
class DeviceItem(Node):
    name: str
    value: Expr


@dataclass
class DeviceBlock(Node):
    items: list[DeviceItem]


@dataclass
class TaskDecl(Node):
    id: Dotted
    items: list[Node]


@dataclass
class Module(Node):
    decls: list[Node]
