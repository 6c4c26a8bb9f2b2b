"""`tasklang solve`: search PhoneWorld for an action sequence the task's verifier accepts.

Best-first search over the phone's states with snapshot / restore. A state's children are the
actions an agent could take on its screen: a tap on each view that acts (one per view a tap
reaches), a long press where one does something, typing a candidate text into each text field
(replacing its text, or appended to / put before what it holds), the keyboard's enter when a
field has the focus, scrolling, back, and opening the task's apps; and macro actions: filling
every field of a form with the texts that fit them, and keying a number on a numeric keypad
(a timer's or a PIN pad's digits, one tap per digit). Candidate texts come only from what the
goal says: its quoted words, the parameter values it shows, numbers and capitalized names.

Only the task's apps are searched: a child that lands in another app is dropped. A tap
addresses the view it reaches (not a container over it), as the verifier's trace clauses see
the element acted on.

Every new state is judged in two stages. First the task's state clauses (``expect`` checks on
the apps' data and on the answer, ``unchanged`` / ``only ... changed`` guards) are evaluated
on the phone's world with the verifier's own code; this is cheap, cached per world state, and
necessary for success. Only where they all hold is the episode ended there (with ``status``,
or for tasks checked on an answer, with each candidate answer: the texts the current screen
shows, and the goal's texts; an answer is never guessed) and the full verifier run, trace,
UI and ``forbid`` clauses included.

States are ordered by cost: the number of choices made (a macro is one), less the verifier's
score (or where it did not run, the share of its weight the state clauses already earn), less
the partial credit of ``has {...}`` clauses (the largest share of a wanted record's conditions
one record meets), less how well the actions that led there match the goal (words of the goal
and of parameter values on the view tapped, affirmative buttons, a text not typed before on
the path, reaching a screen no state reached before). States already seen (same screen, same
app data) are not expanded twice.

The result is the action sequence, how many states were explored and generated, and the
trajectory of replaying it in a fresh episode, checked again from scratch.
"""

from __future__ import annotations

import heapq
import itertools
import json
import re
import time
from dataclasses import dataclass, field
from typing import Any

from tasklang import ir
from tasklang.envs.phoneworld import widgets as w
from tasklang.envs.phoneworld.episode import Episode
from tasklang.envs.phoneworld.widgets import View
from tasklang.verifiers.trajectory import Trajectory
from tasklang.verifiers.verdict import Verdict

DEFAULT_TIME_LIMIT = 60.0
DEPTH_COST = 1.0  # a state's cost: depth, less its score and the relevance of its actions
SCORE_WEIGHT = 3.0
PARTIAL_WEIGHT = 3.0  # records that meet more of a `has {...}` clause's conditions come first
NOVELTY = 1.0  # the bonus of reaching a screen no state reached before
MAX_TEXTS = 16  # candidate texts drawn from the goal
MAX_FIELD_TEXTS = 5  # of which typed into one field (those that fit it best)
MAX_KEYPAD = 6  # numbers keyed on a numeric keypad
BOOLS = frozenset(["yes", "no", "true", "false", "1", "0", "y", "n"])  # read as a truth value
# buttons that go ahead (a permission, a dialog's positive answer, a form's save)
AFFIRMATIVE = frozenset(
    ["allow", "ok", "save", "done", "confirm", "yes", "apply", "create", "start", "send",
     "while using the app", "only this time", "set", "add", "pay", "submit", "next"]
)  # fmt: skip
STOPWORDS = frozenset(
    [
        "the",
        "a",
        "an",
        "and",
        "or",
        "of",
        "to",
        "in",
        "on",
        "at",
        "for",
        "with",
        "from",
        "by",
        "my",
        "me",
        "i",
        "it",
        "is",
        "be",
        "this",
        "that",
        "then",
        "as",
        "into",
        "your",
        "you",
        "are",
        "was",
        "all",
        "any",
        "one",
        "each",
        "set",
        "app",
        "open",
        "use",
        "using",
    ]
)


@dataclass
class SolveResult:
    task: str
    seed: int
    found: bool
    actions: list[dict[str, Any]]
    explored: int  # states expanded
    generated: int  # states reached (children made)
    seconds: float
    score: float  # the best verifier score reached
    reason: str = ""  # why the search stopped without a solution
    verdict: Verdict | None = None
    trajectory: Trajectory | None = None
    verifier_runs: int = 0  # states the full verifier judged (the state clauses held)

    def summary(self) -> dict[str, Any]:
        return {
            "task": self.task,
            "seed": self.seed,
            "found": self.found,
            "steps": len(self.actions),
            "explored": self.explored,
            "generated": self.generated,
            "seconds": round(self.seconds, 2),
            "best_score": round(self.score, 4),
            "verifier_runs": self.verifier_runs,
            "reason": self.reason,
            "actions": self.actions,
        }


@dataclass(order=True)
class _Node:
    priority: tuple[float, int, int]
    saved: Any = field(compare=False)
    actions: list[dict[str, Any]] = field(compare=False)
    rel: float = field(compare=False, default=0.0)  # relevance of the action that led here
    decisions: int = field(compare=False, default=0)  # choices made (a macro is one)
    typed: frozenset[str] = field(compare=False, default=frozenset())  # texts, field ids


def words(text: str) -> set[str]:
    return {t for t in re.findall(r"[a-z0-9]+", text.casefold()) if t not in STOPWORDS}


def _param_strings(value: Any) -> list[str]:
    """The texts a parameter value could be typed or answered as."""
    out: list[str] = []
    if isinstance(value, bool) or value is None:
        return out
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, (int, float)):
        out.append(str(value))
    elif isinstance(value, dict):
        for v in value.values():
            out += _param_strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            out += _param_strings(v)
    return out


def needs_answer(compiled: ir.CompiledTask) -> bool:
    return any(
        getattr(node, "node", None) == "answer"
        for node in ir.walk([compiled.task.clauses, compiled.task.subgoals])
    )


def yes_no_answer(compiled: ir.CompiledTask) -> bool:
    """Whether the task's answer is compared with a truth value (a yes / no question)."""
    for node in ir.walk([compiled.task.clauses]):
        if isinstance(node, ir.Compare):
            sides = (node.left, node.right)
            if any(isinstance(x, ir.AnswerRef) for x in sides) and any(
                x.type is not None and x.type.name == "bool" for x in sides
            ):
                return True
    return False


def conjuncts(e: ir.Expr) -> list[ir.Expr]:
    if isinstance(e, ir.Logic) and e.op == "and":
        return conjuncts(e.left) + conjuncts(e.right)
    return [e]


def record_clauses(compiled: ir.CompiledTask) -> list[ir.Quant]:
    """The goal clauses that ask for a record with several properties (``C has {...}``)."""
    out = []
    for c in compiled.task.clauses:
        e = c.body.expr if c.role == "goal" and isinstance(c.body, ir.CheckBody) else None
        if (
            isinstance(e, ir.Quant)
            and e.quantifier == "exists"
            and e.where is not None
            and len(conjuncts(e.where)) >= 2
        ):
            out.append(e)
    return out


def field_words(v: View) -> str:
    """What says what a field takes: its text, its hint and its id (less the package)."""
    return f"{v.text} {v.hint} {v.rid.rsplit('/', 1)[-1]}"


def fits(text: str, about: str) -> float:
    """How well a text suits a field (``about``: its hint, current text and id): shared
    words, the kind of value a phone number, an e-mail address or a number field takes, or
    a name (a file's too) for a name or title field."""
    hint = about.casefold()
    if words(text) & words(hint):
        return 2.0
    digits = sum(c.isdigit() for c in text)
    if "@" in text and ("mail" in hint):
        return 2.0
    if digits >= 7 and ("phone" in hint or "number" in hint):
        return 2.0
    if (
        digits
        and digits == len(text.replace(".", "").replace(",", ""))
        and ("amount" in hint or "price" in hint or "number" in hint or "quantity" in hint)
    ):
        return 1.5
    if re.fullmatch(r"[^\W\d][\w\-' ]*(\.\w{1,4})?", text) and ("name" in hint or "title" in hint):
        return 1.0  # a name, or a file name
    return 0.0


def goal_texts(goal: str, params: list[str]) -> list[str]:
    """The texts worth typing, most telling first: the goal's quoted words, the parameter
    values it shows, its decimal numbers and amounts, its capitalized names (a program's,
    a place's), and the parts of these a form asks for separately."""
    quoted = [a or b for a, b in re.findall(r"'([^']+)'|\"([^\"]+)\"", goal)]
    texts = quoted + [p for p in params if 0 < len(p) <= 80]
    texts += re.findall(r"\d+(?:[.,]\d+)+", goal)  # an amount, a version, a decimal
    # a file name is often typed without its extension (the dialog adds it)
    texts += [t.rsplit(".", 1)[0] for t in texts if re.fullmatch(r"[\w\- ]+\.[a-zA-Z]\w{0,3}", t)]
    # a full name is often typed as first and last name
    texts += [part for t in texts if re.fullmatch(r"[A-Z][a-z]+( [A-Z][a-z]+){1,2}", t)
              for part in t.split()]  # fmt: skip
    texts += capitalized(goal)
    out: dict[str, str] = {}  # one of each text, whatever its case (as the goal spells it)
    for t in texts:
        if t.strip() and t.casefold() not in out:
            at = goal.casefold().find(t.casefold())
            out[t.casefold()] = goal[at : at + len(t)] if at >= 0 else t
    return list(out.values())


def shows(goal: str, value: str) -> bool:
    """Whether the goal shows a value, as whole words."""
    return bool(value) and re.search(rf"(?<!\w){re.escape(value)}(?!\w)", goal, re.I) is not None


def capitalized(goal: str) -> list[str]:
    """Runs of capitalized words (a name the goal does not quote: "the Rides mini program");
    a sentence's first word is left out of its run, as it is capitalized anyway."""
    out = []
    for sentence in re.split(r"(?<=[.!?])\s+", goal):
        tokens = re.findall(r"[\w'’&-]+|[^\w\s]", sentence)  # punctuation ends a run
        run: list[str] = []
        for i, tok in enumerate([*tokens, ""]):
            word = re.sub(r"['’]s$", "", tok).strip("'’")
            if tok[:1].isupper() and i > 0 and word.casefold() not in STOPWORDS:
                run.append(word)
                if word != tok:  # a possessive ends the run: "WeChat's Life Payments"
                    out.append(" ".join(run))
                    run = []
                continue
            if run:
                out.append(" ".join(run))
            run = []
    return out


def keypad_numbers(goal: str) -> list[str]:
    """Digit strings to key on a numeric keypad: the goal's numbers as they are, its times
    of day without the colon, and its durations as a timer keypad takes them (hours,
    minutes and seconds, two digits each, leading zeros left out)."""
    out: list[str] = []
    units = {"h": 3600, "hr": 3600, "hrs": 3600, "hour": 3600, "hours": 3600,
             "m": 60, "min": 60, "mins": 60, "minute": 60, "minutes": 60,
             "s": 1, "sec": 1, "secs": 1, "second": 1, "seconds": 1}  # fmt: skip
    pattern = r"(\d+)\s*(hours?|hrs?|h|minutes?|mins?|m|seconds?|secs?|s)\b"
    total = 0
    for number, unit in re.findall(pattern, goal, flags=re.IGNORECASE):
        total += int(number) * units[unit.casefold()]
    if total:
        h, rest = divmod(total, 3600)
        m, sec = divmod(rest, 60)
        out.append(f"{h:02}{m:02}{sec:02}".lstrip("0"))
    out += [a + b for a, b in re.findall(r"\b(\d{1,2}):(\d{2})\b", goal)]
    out += re.findall(r"\d+", goal)
    return [n for n in dict.fromkeys(out) if n and len(n) <= 8]


class Solver:
    def __init__(
        self,
        compiled: ir.CompiledTask,
        seed: int = 0,
        time_limit: float = DEFAULT_TIME_LIMIT,
        max_depth: int | None = None,
        max_states: int | None = None,
    ) -> None:
        from tasklang.verifiers.check import plan_of, resolve_params

        self.compiled = compiled
        self.seed = seed
        self.time_limit = time_limit
        self.ep = Episode(compiled, seed)
        assert self.ep.instance is not None
        budget = self.ep.budget
        self.max_depth = min(max_depth or budget - 1, budget - 1)
        self.max_states = max_states
        self.answer = needs_answer(compiled)
        self.yes_no = yes_no_answer(compiled)
        self.final = {"action_type": "status", "goal_status": compiled.task.outcome}
        goal = self.ep.goal
        self.goal_words = words(goal)
        # only what the goal says is known: parameters the goal does not show stay hidden
        params = [p for p in _param_strings(self.ep.instance.params) if shows(goal, p)]
        self.texts = goal_texts(goal, params)[:MAX_TEXTS]
        self.numbers = set(re.findall(r"\d+", goal))
        self.keypad = keypad_numbers(goal)[:MAX_KEYPAD]
        self.param_texts = {p.casefold() for p in params if p}
        for p in params:
            self.goal_words |= words(p)
        labels = {}
        for ref in compiled.task.apps:
            app = self.ep.phone.apps[ref.name]
            model = app.host or ref.name
            labels[model] = self.ep.phone.apps[model].label
        self.app_labels = labels
        self.allowed = {None, *labels, *(ref.name for ref in compiled.task.apps)}
        self._reprs: dict[int, tuple[Any, str]] = {}
        self.record_goals = record_clauses(compiled)
        plan = plan_of(compiled)
        # the clauses a world state alone decides (each must hold for the verifier to accept)
        self.state_clauses = [
            c for c in compiled.task.clauses
            if isinstance(c.body, (ir.UnchangedBody, ir.OnlyChangedBody, ir.CheckBody))
        ]  # fmt: skip
        self.answer_clauses = {c.id for c in self.state_clauses if plan.mentions_answer.get(c.id)}
        self.total_weight = (
            self._weight([c for c in compiled.task.clauses if c.role != "safety"]) or 1.0
        )
        self.params = resolve_params(compiled, self.ep.instance.params, self.ep.instance.initial)
        self._assessed: dict[tuple[Any, ...], tuple[bool, float]] = {}
        self._partial: dict[tuple[Any, ...], float] = {}
        self.best = 0.0  # the best verifier score reached
        self.verdicts = 0  # full verifier runs
        self.last_final: dict[str, Any] = self.final  # the ending that was accepted
        self.typed: frozenset[str] = frozenset()  # what the path to the state typed

    def _weight(self, clauses: list[ir.Clause]) -> float:
        subgoal = {s.name: s.weight for s in self.compiled.task.subgoals}
        return sum(c.weight * (subgoal.get(c.subgoal, 1.0) if c.subgoal else 1.0)
                   for c in clauses)  # fmt: skip

    # ------------------------------------------------------------ states
    def data_key(self) -> tuple[str, ...]:
        """The content of every app's state and the clock (what state clauses read)."""
        phone = self.ep.phone
        parts = [phone.clock.isoformat()]
        for name, data in phone.state.items():
            known = self._reprs.get(id(data))
            if known is None or known[0] is not data:
                text = json.dumps([data.collections, data.settings], sort_keys=True, default=str)
                known = self._reprs[id(data)] = (data, text)
            parts.append(f"{name}:{known[1]}")
        return tuple(parts)

    def signature(self) -> tuple[str, ...]:
        """The screen and the content of every app's state."""
        phone = self.ep.phone
        return (phone.xml(), repr(phone.focus), repr(phone.keyboard), *self.data_key())

    def place(self) -> tuple[str | None, str]:
        """Where the phone is: the foreground app and its top screen (or a dialog's title)."""
        phone = self.ep.phone
        route = phone.route()
        where = route.screen if route is not None else ("drawer" if phone.drawer else "home")
        if phone.dialog is not None:
            where += "/" + phone.dialog.title
        return phone.foreground, where

    def partial(self, key: tuple[str, ...]) -> float:
        """How close the state is to the records the goal asks for: for each such clause,
        the largest share of its conditions one record meets (mean over the clauses)."""
        if not self.record_goals:
            return 0.0
        cached = self._partial.get(key)
        if cached is not None:
            return cached
        from tasklang.verifiers.evaluate import Env, EvalError, collection, evaluate

        env = Env(dict(self.compiled.apps), self.params, self.ep.phone.world())
        shares = []
        for q in self.record_goals:
            parts = conjuncts(q.where) if q.where is not None else []
            best = 0.0
            for record in collection(env, q.source):
                inner = env.with_record(record)
                met = 0
                for part in parts:
                    try:
                        met += bool(evaluate(part, inner))
                    except EvalError:
                        continue
                best = max(best, met / len(parts))
            shares.append(best)
        value = self._partial[key] = sum(shares) / len(shares)
        return value

    def assess(self, key: tuple[str, ...], answer: str | None = None) -> tuple[bool, float]:
        """The state clauses on the current world (with this answer): whether they all hold
        (the verifier cannot accept the state otherwise), and the share of the verifier's
        weight they earn (less one if a ``forbid`` check fails)."""
        memo = (key, answer if self.answer_clauses else None)
        cached = self._assessed.get(memo)
        if cached is not None:
            return cached
        from tasklang.verifiers.check import Checker
        from tasklang.verifiers.check import Episode as Checked

        assert self.ep.instance is not None
        checked = Checked(self.params, self.ep.instance.initial, [], self.ep.phone.world(),
                          self.compiled.task.outcome, answer)  # fmt: skip
        checker = Checker(self.compiled, checked)
        ok, earned, violated = True, [], False
        for c in self.state_clauses:
            passed = checker.clause(c, None).passed
            ok = ok and passed
            if passed and c.role != "safety":
                earned.append(c)
            violated = violated or (c.role == "safety" and not passed)
        share = self._weight(earned) / self.total_weight - (1.0 if violated else 0.0)
        self._assessed[memo] = (ok, share)
        return ok, share

    def endings(self) -> list[dict[str, Any]]:
        """The final actions to try on the current state: ``status``, or for a question,
        each text the screen shows (an answer is read where it is shown) and each of the
        goal's texts; but for a yes / no question no text that reads as one (a yes / no is a
        judgment, and a "1" on the screen is no reading of it)."""
        if not self.answer:
            return [self.final]
        shown = [v.text.strip() for v in self.ep.phone.nodes()
                 if v.text and len(v.text) <= 80 and v.bounds[3] > v.bounds[1]]  # fmt: skip
        answers = dict.fromkeys(
            t for t in [*shown, *self.texts] if t and not (self.yes_no and t.casefold() in BOOLS)
        )
        return [{"action_type": "answer", "text": t} for t in answers]

    def check(self) -> tuple[Verdict | None, float]:
        """End the episode here: the verdict if the verifier accepts it (else None), and how
        close the state comes (the state clauses' share, or the verifier's score where it
        ran)."""
        ep = self.ep
        key = self.data_key()
        saved = None
        progress = -1.0
        for final in self.endings():
            ok, share = self.assess(key, final.get("text"))
            if not ok:
                progress = max(progress, share)
                continue
            saved = saved or ep.snapshot()
            ep.step(final)
            verdict = ep.verdict()
            self.verdicts += 1
            ep.restore(saved)
            # the verifier's own figure (nothing where a `forbid` clause was broken)
            progress = max(progress, verdict.score)
            self.best = max(self.best, verdict.score)
            if verdict.success:
                self.last_final = final
                return verdict, progress
        self.best = max(self.best, progress)
        return None, progress

    # ------------------------------------------------------------ actions
    def candidates(self) -> list[tuple[float, Any]]:
        """(relevance, action) for every action worth trying on the current screen; an
        action is one AndroidWorld action, or a macro (a list of steps, see ``apply``)."""
        phone = self.ep.phone
        tree = phone.observe()
        nodes = phone.nodes()
        out: list[tuple[float, Any]] = []
        reached: set[int] = set()
        digits: dict[str, str] = {}  # a keypad's keys: digit -> the key's text or description
        # a tap addresses the view it reaches (not a container over it): what the verifier's
        # trace clauses see as the element acted on
        index_of = {id(v): i for i, v in enumerate(nodes)}
        for i, v in enumerate(nodes):
            left, top, right, bottom = v.bounds
            if right <= left or bottom <= top:
                continue
            if v.edit is not None:
                out += self.typing(i, v)
                continue
            target = w.hit(tree, (left + right) / 2, (top + bottom) / 2)
            if target is None or id(target) in reached or not target.enabled:
                continue
            reached.add(id(target))
            rel = self.relevance(target)
            at = index_of.get(id(target), i)
            if at != i:
                tl, tt, tr, tb = target.bounds
                if w.hit(tree, (tl + tr) / 2, (tt + tb) / 2) is not target:
                    at = i  # the view's own centre reaches something else: tap where v is
            if target.acts or target.clickable:
                out.append((rel, {"action_type": "click", "index": at}))
                label = (target.text or target.desc).strip()
                if len(label) == 1 and label.isdigit():
                    digits[label] = label
            if target.on_long is not None:
                out.append((rel - 0.5, {"action_type": "long_press", "index": at}))
        form = self.fill_form(nodes)
        if form:
            # one child that fills every field with the goal text that fits it best
            out.append((1.0 + len(form), form))
        if len(digits) == 10:
            for rank, number in enumerate(self.keypad):
                keys = [("key", d) for d in number]
                out.append((2.5 - 0.2 * rank, keys))
        if phone.focus is not None:
            out.append((1.0, {"action_type": "keyboard_enter"}))
        out.append((0.3, {"action_type": "scroll", "direction": "down"}))
        out.append((0.1, {"action_type": "scroll", "direction": "up"}))
        out.append((0.0, {"action_type": "navigate_back"}))
        out.append((-0.5, {"action_type": "wait"}))
        for model, label in self.app_labels.items():
            if phone.foreground != model:
                out.append((1.0, {"action_type": "open_app", "app_name": label}))
        return out

    def typing(self, i: int, v: View) -> list[tuple[float, dict[str, Any]]]:
        """Typing into one field: the texts that fit it best replace its text; into a field
        that holds text of its own, the best ones are also added on a line after it or put
        before it with a blank line between (an edit of a note rather than a new one)."""
        hint = field_words(v)
        ranked = sorted(self.texts, key=lambda t: -fits(t, hint))[:MAX_FIELD_TEXTS]
        out = []
        for text in ranked:
            # a text typed before on this path, or a field typed into before, is worth less
            rel = 1.0 + fits(text, hint) - 2.0 * (text in self.typed) - 1.0 * (v.rid in self.typed)
            out.append((rel, {"action_type": "input_text", "text": text, "index": i,
                              "clear_text": True}))  # fmt: skip
        own = v.text if v.text and v.text != v.hint else ""
        if own and (len(own) > 20 or "\n" in own):
            # what is added to a text: the goal's phrases (not names) it does not hold yet
            phrases = [t for t in self.texts if " " in t and t.casefold() not in own.casefold()]
            for text in phrases[:2]:
                out.append((0.8, {"action_type": "input_text", "text": "\n" + text,
                                  "index": i, "clear_text": False}))  # fmt: skip
                out.append((0.6, {"action_type": "input_text", "text": f"{text}\n\n{own}",
                                  "index": i, "clear_text": True}))  # fmt: skip
        return out

    def step(self, action: dict[str, Any]) -> bool:
        """Carry out one action; whether the phone took it. What it typed (the text and the
        field's id) is added to ``self.typed``."""
        if action["action_type"] == "input_text":
            index = action.get("index")
            nodes = self.ep.phone.nodes()
            rid = nodes[index].rid if isinstance(index, int) and index < len(nodes) else ""
            self.typed = self.typed | {action["text"], rid}
        return self.ep.step(action).ok

    def apply(self, action: Any, depth: int) -> list[dict[str, Any]] | None:
        """Carry out an action, or a macro: a list of ``(field, text)`` (type the text into
        the field of that id) and ``("key", label)`` (tap the key with that text or
        description), each found again on the screen as it is then. The actions taken, or
        None if one was refused or the macro goes past the depth limit."""
        if not isinstance(action, list):
            return [action] if self.step(action) else None
        if depth + len(action) > self.max_depth:
            return None
        taken = []
        for what, value in action:
            nodes = self.ep.phone.nodes()
            index = next(
                (i for i, v in enumerate(nodes)
                 if v.bounds[3] > v.bounds[1]
                 and (v.edit == what if what != "key" else value in (v.text, v.desc))),
                None,
            )  # fmt: skip
            if index is None:
                return None
            step: dict[str, Any] = (
                {"action_type": "click", "index": index}
                if what == "key"
                else {"action_type": "input_text", "text": value, "index": index,
                      "clear_text": True}
            )  # fmt: skip
            if not self.step(step):
                return None
            taken.append(step)
        return taken

    def fill_form(self, nodes: list[View]) -> list[tuple[str, str]]:
        """Typing, for a screen with several fields, each goal text into the field it fits
        best (each text once, only where it fits); empty unless two fields get one."""
        fields = [
            (i, v) for i, v in enumerate(nodes)
            if v.edit is not None and v.bounds[2] > v.bounds[0] and v.bounds[3] > v.bounds[1]
        ]  # fmt: skip
        if len(fields) < 2:
            return []
        pairs = sorted(
            ((fits(t, field_words(v)), i, t) for i, v in fields for t in self.texts),
            key=lambda p: (-p[0], p[1]),
        )
        used_fields: set[int] = set()
        used_texts: set[str] = set()
        plan = []
        for score, i, text in pairs:
            if score <= 0 or i in used_fields or text in used_texts:
                continue
            if any(text in other or other in text for other in used_texts):
                continue  # a part of a text already typed (a first name after the full name)
            used_fields.add(i)
            used_texts.add(text)
            plan.append((str(nodes[i].edit), text))
        return plan if len(plan) >= 2 else []

    def relevance(self, view: View) -> float:
        texts = [x.text or x.desc for x in view.flat() if x.text or x.desc]
        if not texts:
            return 0.0
        exact = any(t.casefold() in self.param_texts for t in texts)
        # a button that goes ahead: "OK", or a short label that starts so ("Confirm selection")
        label = texts[0].casefold().split() if len(texts) == 1 else []
        go_ahead = bool(label) and (
            " ".join(label) in AFFIRMATIVE or (len(label) <= 3 and label[0] in AFFIRMATIVE)
        )
        shared = words(" ".join(texts)) & self.goal_words
        # a key of a keypad whose digit is in a number of the goal
        digit = len(texts) == 1 and texts[0].isdigit() and any(texts[0] in n for n in self.numbers)
        return (
            (3.0 if exact else 0.0)
            + min(len(shared), 3)
            + (1.5 if digit else 0.0)
            + (1.0 if go_ahead else 0.0)
        )

    # ------------------------------------------------------------ the search
    def run(self) -> SolveResult:
        start = time.perf_counter()
        self.best = 0.0
        self.last_final = self.final
        ep = self.ep
        counter = itertools.count()
        explored = generated = 0
        verdict, _ = self.check()
        if verdict is not None:
            return self.result([], explored, generated, start, "")
        seen = {self.signature()}
        places = {self.place()}
        frontier = [_Node((0.0, 0, next(counter)), ep.snapshot(), [])]
        reason = "the search space was exhausted"
        while frontier:
            if time.perf_counter() - start > self.time_limit:
                reason = f"no solution within {self.time_limit:g} s"
                break
            if self.max_states is not None and explored >= self.max_states:
                reason = f"no solution within {self.max_states} explored states"
                break
            node = heapq.heappop(frontier)
            explored += 1
            depth = len(node.actions)
            if depth >= self.max_depth:
                continue
            ep.restore(node.saved)
            self.typed = node.typed
            for rel, action in self.candidates():
                ep.restore(node.saved)
                self.typed = node.typed
                steps = self.apply(action, depth)
                if steps is None or ep.phone.ended:
                    continue
                if ep.phone.foreground not in self.allowed:
                    continue  # the task's apps are all it needs
                sig = self.signature()
                if sig in seen:
                    continue
                seen.add(sig)
                generated += 1
                actions = [*node.actions, *steps]
                verdict, progress = self.check()
                if verdict is not None:
                    return self.result(actions, explored, generated, start, "")
                place = self.place()
                novel = place not in places
                places.add(place)
                rel += NOVELTY if novel else 0.0
                # a macro is one choice: its cost is that of one step, however many it takes
                cost = (
                    (node.decisions + 1) * DEPTH_COST
                    - SCORE_WEIGHT * progress
                    - PARTIAL_WEIGHT * self.partial(sig[3:])
                    - rel
                    - 0.5 * node.rel
                )
                child = _Node(
                    (cost, len(actions), next(counter)),
                    ep.snapshot(),
                    actions,
                    rel,
                    node.decisions + 1,
                    self.typed,
                )
                heapq.heappush(frontier, child)
        return SolveResult(
            self.compiled.task.id, self.seed, False, [], explored, generated,
            time.perf_counter() - start, self.best, reason, verifier_runs=self.verdicts,
        )  # fmt: skip

    def result(
        self, actions: list[dict[str, Any]], explored: int, generated: int, start: float, why: str
    ) -> SolveResult:
        """Replay the actions (and the final one) in a fresh episode and check it again."""
        fresh = Episode(self.compiled, self.seed)
        for action in [*actions, self.last_final]:
            fresh.step(action)
        verdict = fresh.verdict()
        return SolveResult(
            self.compiled.task.id, self.seed, verdict.success, [*actions, self.last_final],
            explored, generated, time.perf_counter() - start, verdict.score,
            why if verdict.success else "the replayed solution did not pass",
            verdict, fresh.trajectory(), self.verdicts,
        )  # fmt: skip


def solve(
    compiled: ir.CompiledTask,
    seed: int = 0,
    time_limit: float = DEFAULT_TIME_LIMIT,
    max_depth: int | None = None,
    max_states: int | None = None,
) -> SolveResult:
    return Solver(compiled, seed, time_limit, max_depth, max_states).run()
