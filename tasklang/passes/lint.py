"""Lint: warnings about tasks that compile but are probably not what the author meant.

>>> from tasklang import ir
>>> from tasklang.passes.context import Context
>>> task = ir.Task(id="t", goal=ir.Goal(template="Hi"), budget=ir.Budget(steps=5))
>>> [d.code for d in run(task, Context())[1]]
[]
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from decimal import Decimal, InvalidOperation
from difflib import SequenceMatcher
from typing import NamedTuple

from tasklang import ir
from tasklang.diagnostics import Diagnostic
from tasklang.passes.context import Context
from tasklang.passes.resolve import param_refs
from tasklang.source import Span


def run(task: ir.Task, ctx: Context) -> tuple[ir.Task, list[Diagnostic]]:
    """Report unused or unchecked parameters, missing budgets, unchecked questions and
    checked literals the goal never states."""
    out: list[Diagnostic] = []
    where = task.span or Span()
    used = param_refs(
        [task.goal, task.constraints, task.given, task.clauses, [p.domain for p in task.params]]
    )
    for p in task.params:
        if p.name not in used:
            out.append(
                Diagnostic(
                    "TL2001",
                    f"parameter `{p.name}` is never used",
                    p.span or where,
                    help="use it in the goal or a clause, or remove it",
                )
            )
    if task.budget.steps is None:
        out.append(
            Diagnostic(
                "TL2003", f"task `{task.id}` has no step budget", where, help="add `budget N steps`"
            )
        )
    goal_params = param_refs(task.goal)
    tried = "{" in task.goal.template.replace("{{", "")
    if task.params and not goal_params and not tried:
        out.append(
            Diagnostic(
                "TL2004",
                "the goal interpolates no parameter",
                task.goal.span or where,
                help="mention a parameter with `{name}` so instances differ",
            )
        )
    asks = task.goal.template.rstrip().endswith("?")
    checks_answer = any(_mentions_answer(c) for c in task.clauses)
    if asks and not checks_answer and task.outcome == "complete" and not task.verify_only:
        out.append(
            Diagnostic(
                "TL2005",
                "the goal asks a question but no clause checks `answer`",
                task.goal.span or where,
                help="add `answer == ...` to `expect`",
            )
        )
    # An infeasible task's goal asks for the impossible; a name that could not be read may
    # have been meant for any parameter.
    if task.outcome == "complete" and not _has_unreadable_name(task):
        checked = verdict_params(task) | _cyclic_params(task)  # those get TL1029
        for p in task.params:
            if p.name in goal_params and p.name not in checked:
                out.append(
                    Diagnostic(
                        "TL2006",
                        f"the goal mentions parameter `{p.name}` but no clause checks it",
                        task.goal.span or where,
                        help=f"compare `{p.name}` with the state or the answer in `expect`, "
                        "or leave it out of the goal",
                    )
                )
    out.extend(_unstated_literals(task, ctx, where))
    out.extend(_watched_by_itself(task, ctx, where))
    if task.outcome == "infeasible" and checks_answer:
        out.append(
            Diagnostic(
                "TL1024",
                "an infeasible task cannot also check an answer",
                where,
                help="remove the `answer` clauses or the outcome",
            )
        )
    return task, out


def _watched_by_itself(task: ir.Task, ctx: Context, where: Span) -> Iterator[Diagnostic]:
    """TL2008: an `unchanged` clause that names state its app says changes by itself."""
    for clause in task.clauses:
        body = clause.body
        if not isinstance(body, ir.UnchangedBody):
            continue
        for target in body.targets:
            if not isinstance(target, (ir.CollectionRef, ir.SettingRef)):
                continue
            model = ctx.apps.get(target.app)
            loose = model.loose_fields(target.name) if model else []
            if model is None or (target.name not in model.by_itself and not loose):
                continue
            what = f"`{target.app}.{target.name}`" + (f" (its `{loose[0]}`)" if loose else "")
            yield Diagnostic(
                "TL2008",
                f"{what} changes by itself: on a phone this clause fails when it does",
                target.span or clause.span or where,
                help=f"watch `{target.app}` as a whole, or check what the agent could change",
            )


def _mentions_answer(node: object) -> bool:
    return any(isinstance(n, ir.AnswerRef) for n in ir.walk(node))


# ---------------------------------------------------------------- TL2006
def verdict_params(task: ir.Task) -> set[str]:
    """The parameters that can change a verdict.

    A parameter counts when a clause (of any role) uses it; when a parameter that counts is
    drawn from a domain that names it (`top: one of maps.places where distance_km <= max_km`
    makes `max_km` count if `top` does); or when one conjunct of a constraint, one value the
    `given` block writes, or one conjunct of a `noise ... where`, names it together with a
    parameter that counts (they are drawn or seeded together: a seeded record
    `{ address: number, contact_name: who }` ties `who` to `number`).
    """
    counted = param_refs(task.clauses)
    drawn_from = {p.name: param_refs(p.domain) - {p.name} for p in task.params}
    parts: list[object] = [c for e in task.constraints for c in _conjuncts(e)]
    for op in task.given.ops:
        if isinstance(op, ir.NoiseOp):
            parts += _conjuncts(op.where) if op.where is not None else []
        else:
            parts.append(op.value)
    ties = [param_refs(part) for part in parts]
    ties = [tie for tie in ties if len(tie) > 1]
    while True:
        grown = set(counted)
        for name in counted:
            grown |= drawn_from.get(name, set())
        for tie in ties:
            if tie & counted:
                grown |= tie
        if grown == counted:
            return counted
        counted = grown


def _cyclic_params(task: ir.Task) -> set[str]:
    """The parameters whose domains depend on themselves (`alone: time in alone .. 10:00`)."""
    deps = {p.name: param_refs(p.domain) for p in task.params}
    for p in task.params:
        if isinstance(p.domain, ir.RecordDomain):
            deps[p.name].discard(p.name)  # `p` in its own `where` is the candidate record
    cyclic = set()
    for name in deps:
        seen, todo = set(), list(deps[name])
        while todo:
            dep = todo.pop()
            if dep not in seen:
                seen.add(dep)
                todo.extend(deps.get(dep, ()))
        if name in seen:
            cyclic.add(name)
    return cyclic


def _has_unreadable_name(task: ir.Task) -> bool:
    """Whether resolving left a placeholder (an unknown name) where a parameter could be."""
    parts = [task.clauses, task.constraints, task.given, [p.domain for p in task.params]]
    return any(
        isinstance(n, ir.Lit) and n.value is None and n.type is not None and n.type.name == "any"
        for n in ir.walk(parts)
    )


def _conjuncts(e: ir.Expr) -> list[ir.Expr]:
    if isinstance(e, ir.Logic) and e.op == "and":
        return [*_conjuncts(e.left), *_conjuncts(e.right)]
    return [e]


# ---------------------------------------------------------------- TL2007
# A literal compared with state or the answer by one of these is a value the agent must
# produce; `!=`, ordering, `in` and `matches` do not name one value to produce.
_PRODUCING_OPS = frozenset({"==", "~", "contains"})
_TEXT = frozenset(ir.TEXT_LIKE - {"enum"})
_DEFAULT_FUZZY = 0.85  # what `~` accepts without `fuzzy R` (tasklang.verifiers.compare)
# Longer literals are documents no goal restates, and not looked at (this also keeps the
# approximate search cheap on hostile input).
_MAX_LITERAL = 1000
_MAX_LOOSE_WORDS = 40  # the longest literal searched approximately, in words
_MAX_WINDOWS = 2000  # the most runs of goal words it is compared with
_NUMBER = re.compile(r"(?<![\w.])\d+(?:,\d{3})*(?:\.\d+)?")
_PHONE = re.compile(r"\+?\d[\d ()./-]{4,}\d")
_WORDS = (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen", "twenty",
)  # fmt: skip
_NUMBER_WORDS = {w: Decimal(i) for i, w in enumerate(_WORDS)} | {
    "none": Decimal(0), "a": Decimal(1), "an": Decimal(1), "single": Decimal(1),
    "once": Decimal(1), "twice": Decimal(2), "both": Decimal(2), "dozen": Decimal(12),
}  # fmt: skip
# Answers to a yes/no question, which the goal cannot state.
_YES_NO = frozenset({"yes", "no", "true", "false"})
# For approximate text (`~`, `fuzzy`): a message the goal reports ("tell Ada that you are on
# your way") is written in the first person ("on my way"); punctuation does not count either.
_CONTRACTIONS = {"you're": "i'm", "you've": "i've", "you'll": "i'll", "you'd": "i'd"}
_PRONOUNS = {"you": "i", "me": "i", "your": "my", "yours": "mine", "yourself": "myself"}
_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)?")


class _Produced(NamedTuple):
    """A literal value the agent must produce, and how it is compared."""

    lit: ir.Lit
    value: ir.Value  # the value (one item of a list literal)
    kind: str  # its scalar type: text, phone, email, file, int, number, money
    answer: bool  # compared with `answer`
    fuzzy: float | None  # the similarity `~` or `fuzzy R` accepts; None for exact comparisons
    default: list[ir.Value]  # the default value(s) of the field or setting it is compared with


def _unstated_literals(task: ir.Task, ctx: Context, where: Span) -> Iterator[Diagnostic]:
    """TL2007: literals a goal clause requires the agent to produce that the goal never states."""
    for found in _Literals(task, ctx).unstated():
        yield Diagnostic(
            "TL2007",
            f"{_show(found.value, found.kind)} is checked but the goal never states it",
            found.lit.span or task.goal.span or where,
            help="state the value in the goal (or interpolate a parameter holding it), "
            "or seed it in `given` if the agent should find it in the app",
        )


class _Literals:
    """The literals of a task's goal clauses that the agent must produce but cannot know.

    Read: a literal on one side of `==`, `~` or `contains` whose other side is a field of the
    record in scope, a setting or `answer`, in a check clause or a `trace eventually`,
    `before` or `then` event (not `deleted`). Skipped: literals other than text, phone,
    email, file, int, number and money; literals under `not`, `none`, `!=`, a `count`, the
    condition of `implies`, or in a branch of `or` when another branch needs nothing unstated;
    guard and safety clauses; number and yes/no literals compared with `answer`; literals
    equal to the default of the field or setting they are compared with; and literals the
    `given` block seeds (the agent finds those in the app). What is left, the goal must state.
    """

    def __init__(self, task: ir.Task, ctx: Context) -> None:
        self.task = task
        self.ctx = ctx
        self.seeded = _Seeded(task)
        self.goal = _GoalText(task.goal)

    def unstated(self) -> Iterator[_Produced]:
        for clause in self.task.clauses:
            if clause.role != "goal":
                continue
            body = clause.body
            if isinstance(body, ir.CheckBody):
                yield from self.required(body.expr, None)
            elif isinstance(body, ir.TraceBody) and body.op in ("eventually", "before", "then"):
                for event in (body.first, body.second):
                    if isinstance(event, ir.HoldsEvent):
                        yield from self.required(event.expr, None)
                    elif isinstance(event, ir.ChangeEvent) and event.op != "deleted":
                        yield from self.required(event.where, self.record_of(event.target))

    def record_of(self, source: object) -> ir.RecordDef | None:
        if isinstance(source, ir.CollectionRef):
            return self.ctx.collection_record(source)
        return None

    def required(self, e: object, record: ir.RecordDef | None) -> Iterator[_Produced]:
        """The unstated literals ``e`` requires; ``record`` is the record of its bare fields."""
        if isinstance(e, ir.Logic) and e.op == "or":
            left, right = list(self.required(e.left, record)), list(self.required(e.right, record))
            if left and right:  # otherwise one way to pass needs nothing unstated
                yield from left + right
        elif isinstance(e, ir.Logic):
            if e.op == "and":  # the condition of `implies` selects, it does not require
                yield from self.required(e.left, record)
            yield from self.required(e.right, record)
        elif isinstance(e, ir.Quant) and e.quantifier != "none" and e.where is not None:
            yield from self.required(e.where, self.record_of(e.source))
        elif isinstance(e, ir.Compare) and e.op in _PRODUCING_OPS:
            yield from filter(self.is_unstated, self.compared(e, record))

    def compared(self, e: ir.Compare, record: ir.RecordDef | None) -> Iterator[_Produced]:
        """The literal values ``e`` compares with what the agent leaves behind."""
        fuzzy = (e.fuzzy or _DEFAULT_FUZZY) if e.op == "~" else e.fuzzy
        for target, value in ((e.left, e.right), (e.right, e.left)):
            target_kind = _produced_kind(target)
            if target_kind is None:
                continue
            default = _default_of(target, self.ctx, record)
            for item in value.items if isinstance(value, ir.ListExpr) else [value]:
                kind = _scalar_kind(item.type) if isinstance(item, ir.Lit) else None
                if not isinstance(item, ir.Lit) or kind is None:
                    continue
                same = target_kind == "answer" or (kind in _TEXT) == (target_kind in _TEXT)
                if not same or (kind not in _TEXT and kind not in ir.NUMERIC):
                    continue
                values = item.value if isinstance(item.value, list) else [item.value]
                for v in values:
                    yield _Produced(item, v, kind, target_kind == "answer", fuzzy, default)

    def is_unstated(self, found: _Produced) -> bool:
        value, kind = found.value, found.kind
        if value is None or isinstance(value, bool) or not str(value).strip():
            return False
        if len(str(value)) > _MAX_LITERAL:
            return False
        if found.answer and (kind not in _TEXT or _text(value) in _YES_NO):
            return False  # a number answer is usually counted or summed, not read off
        if any(_same(value, d, kind) for d in found.default):
            return False  # the app's default: nothing to produce
        if self.seeded.holds(value, kind, partial=found.answer):
            return False
        return not self.goal.states(value, kind, found.fuzzy)


def _produced_kind(e: object) -> str | None:
    """The scalar type of what the agent leaves behind, read by ``e``: a field of the record
    in scope, a setting, or the answer (`answer`); None for anything else."""
    if isinstance(e, ir.AnswerRef):
        return "answer"
    if (isinstance(e, ir.FieldRef) and e.base is None) or isinstance(e, ir.SettingRef):
        kind = _scalar_kind(e.type)
        return kind if kind in _TEXT or kind in ir.NUMERIC else None
    return None


def _default_of(e: object, ctx: Context, record: ir.RecordDef | None) -> list[ir.Value]:
    """The declared default of the field or setting ``e`` reads (its items, for a list)."""
    fdef = None
    if isinstance(e, ir.FieldRef) and record is not None:
        fdef = record.field(e.name)
    elif isinstance(e, ir.SettingRef) and (app := ctx.apps.get(e.app)) is not None:
        fdef = app.setting(e.name)
    if fdef is None or not fdef.has_default or fdef.default is None:
        return []
    return list(fdef.default) if isinstance(fdef.default, list) else [fdef.default]


def _scalar_kind(t: ir.Type | None) -> str | None:
    if t is not None and t.name == "list":
        t = t.item
    return t.name if t is not None else None


def _number(value: object, kind: str) -> Decimal | None:
    """A number or money value (cents) as a plain decimal, sign dropped."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return None
    try:
        number = Decimal(str(value))
    except InvalidOperation:
        return None
    return abs(number / 100 if kind == "money" else number)


def _text(value: object) -> str:
    """Casefolded, with runs of whitespace as one space."""
    return " ".join(str(value).casefold().split())


def _loose(text: str) -> str:
    """Words only, second-person pronouns read as first-person ones."""
    text = text.replace("\u2019", "'")
    for second, first in _CONTRACTIONS.items():
        text = text.replace(second, first)
    return " ".join(_PRONOUNS.get(w, w) for w in _WORD.findall(text))


def _digits(text: str) -> str:
    return "".join(ch for ch in text if ch.isdigit())


def _same(a: object, b: object, kind: str) -> bool:
    if kind in ir.NUMERIC:
        return _number(a, kind) == _number(b, kind)
    return isinstance(b, str) and _text(a) == _text(b)


def _show(value: object, kind: str) -> str:
    if kind == "money":
        number = _number(value, kind)
        return f"`${number:.2f}`" if number is not None else f"`{value}`"
    if kind in ir.NUMERIC:
        return f"`{value}`"
    return f'`"{value}"`'


def _find(needle: str, haystack: str) -> bool:
    """Whether ``needle`` occurs in ``haystack`` and is not part of a longer word."""
    head = r"(?<!\w)" if needle[:1].isalnum() else ""
    tail = r"(?!\w)" if needle[-1:].isalnum() else ""
    return re.search(head + re.escape(needle) + tail, haystack) is not None


class _GoalText:
    """The literal text of a goal (placeholders left out), ready to search."""

    def __init__(self, goal: ir.Goal) -> None:
        texts = [p.text for p in goal.parts if p.text] if goal.parts else [goal.template]
        texts = [_text(t) for t in texts]
        self.text = "\x00".join(texts)
        self.loose = [_loose(t).split() for t in texts]
        words = set(_WORD.findall(self.text))
        self.numbers = {n for w, n in _NUMBER_WORDS.items() if w in words} | {
            Decimal(m[0].replace(",", "")) for m in _NUMBER.finditer(self.text)
        }
        self.phones = {_digits(m[0]) for m in _PHONE.finditer(self.text)}

    def states(self, value: object, kind: str, fuzzy: float | None) -> bool:
        """Whether the goal states ``value``: a number in any usual spelling, a phone number
        up to formatting and a country prefix, text up to case and whitespace (and, compared
        with ``fuzzy``, up to punctuation, person and that similarity)."""
        if kind in ir.NUMERIC:
            return _number(value, kind) in self.numbers
        if kind == "phone" and self._states_phone(_digits(str(value))):
            return True
        if _find(_text(value), self.text):
            return True
        return fuzzy is not None and self._states_loosely(_loose(_text(value)), fuzzy)

    def _states_phone(self, digits: str) -> bool:
        return len(digits) >= 7 and any(
            len(p) >= 7 and (digits.endswith(p) or p.endswith(digits)) for p in self.phones
        )

    def _states_loosely(self, needle: str, fuzzy: float) -> bool:
        """``needle`` is as similar as ``fuzzy`` to a run of about as many words of the goal
        (looked for in the first `_MAX_WINDOWS` runs only, and for needles of at most
        `_MAX_LOOSE_WORDS` words: beyond that it counts as not stated)."""
        size = len(needle.split())
        if not size or size > _MAX_LOOSE_WORDS:
            return False
        tried = 0
        for words in self.loose:
            for n in sorted({max(1, size - 1), size, size + 1}):
                for i in range(len(words) - n + 1):
                    window = " ".join(words[i : i + n])
                    if window == needle or _similar(window, needle, fuzzy):
                        return True
                    tried += 1
                    if tried >= _MAX_WINDOWS:
                        return False
        return False


def _similar(a: str, b: str, threshold: float) -> bool:
    """``a`` and ``b`` are as similar as ``threshold`` (cheap upper bounds first)."""
    matcher = SequenceMatcher(None, a, b)
    return (
        matcher.real_quick_ratio() >= threshold
        and matcher.quick_ratio() >= threshold
        and matcher.ratio() >= threshold
    )


class _Seeded:
    """The values the `given` block writes, normalised: text, phone digits and numbers.

    A parameter seeded from a list of choices (`body: slot.said`) seeds one of them: all the
    literals of its list count.
    """

    def __init__(self, task: ir.Task) -> None:
        self.texts: set[str] = set()
        self.phones: set[str] = set()
        self.numbers: set[Decimal] = set()
        written: list[object] = [
            op.value for op in task.given.ops if isinstance(op, ir.SetOp | ir.AddOp)
        ]
        through = param_refs(written)
        written += [
            p.domain
            for p in task.params
            if p.name in through and isinstance(p.domain, ir.ChoiceDomain)
        ]
        for node in ir.walk(written):
            if isinstance(node, ir.Lit):
                kind = _scalar_kind(node.type) or ""
                for value in node.value if isinstance(node.value, list) else [node.value]:
                    if isinstance(value, str):
                        self.texts.add(_text(value))
                        if kind == "phone":
                            self.phones.add(_digits(value))
                    elif kind in ir.NUMERIC and (number := _number(value, kind)) is not None:
                        self.numbers.add(number)

    def holds(self, value: object, kind: str, partial: bool) -> bool:
        """Whether ``value`` is seeded (or, with ``partial``, is part of a seeded text)."""
        if kind in ir.NUMERIC:
            return _number(value, kind) in self.numbers
        if kind == "phone" and _digits(str(value)) in self.phones:
            return True
        text = _text(value)
        return text in self.texts or (partial and any(text in s for s in self.texts))
