"""`tasklang solve`: search PhoneWorld for an action sequence the task's verifier accepts.

Best-first search over the phone's states with snapshot / restore. A state's children are the
actions an agent could take on its screen: a tap on each view that acts (one per view a tap
reaches), a long press where one does something, typing a candidate text into each text
field (texts from the goal's quoted words and the instance's parameters), the keyboard's
enter when a field has the focus, scrolling a list that is longer than the screen, back, and
opening the task's apps. Every new state is tested as a goal: the episode is ended there (with
``status`` or, for tasks checked on an answer, with each candidate answer: the screen's texts
and the parameters') and the verifier decides.

States are ordered by the verifier's weighted score at that point (clauses and subgoals met,
as the dense reward counts them), then by how well the action that led there matches the goal
(words of the goal and of parameter values on the view tapped), then by depth. States already
seen (same screen, same app state) are not expanded twice.

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
MAX_TEXTS = 12  # candidate texts typed into a field
MAX_ANSWERS = 40  # candidate answers tried on a state
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
            "reason": self.reason,
            "actions": self.actions,
        }


@dataclass(order=True)
class _Node:
    priority: tuple[float, int, int]
    saved: Any = field(compare=False)
    actions: list[dict[str, Any]] = field(compare=False)
    rel: float = field(compare=False, default=0.0)  # relevance of the action that led here


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


def _needs_answer(compiled: ir.CompiledTask) -> bool:
    return any(
        getattr(node, "node", None) == "answer"
        for node in ir.walk([compiled.task.clauses, compiled.task.subgoals])
    )


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


def fits(text: str, field_words: str) -> float:
    """How well a text suits a field (its hint, current text and id): shared words, or the
    kind of value a phone number, an e-mail address or a number field takes."""
    hint = field_words.casefold()
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
    if text.replace(" ", "").isalpha() and "name" in hint:
        return 1.0
    return 0.0


class Solver:
    def __init__(
        self,
        compiled: ir.CompiledTask,
        seed: int = 0,
        time_limit: float = DEFAULT_TIME_LIMIT,
        max_depth: int | None = None,
        max_states: int | None = None,
    ) -> None:
        self.compiled = compiled
        self.seed = seed
        self.time_limit = time_limit
        self.ep = Episode(compiled, seed)
        assert self.ep.instance is not None
        budget = self.ep.budget
        self.max_depth = min(max_depth or budget - 1, budget - 1)
        self.max_states = max_states
        self.answer = _needs_answer(compiled)
        self.final = {"action_type": "status", "goal_status": compiled.task.outcome}
        goal = self.ep.goal
        self.goal_words = words(goal)
        # only what the goal says is known: parameters the goal does not show stay hidden
        shown_goal = goal.casefold()
        params = [p for p in _param_strings(self.ep.instance.params) if p.casefold() in shown_goal]
        quoted = re.findall(r"'([^']+)'|\"([^\"]+)\"", goal)
        texts = [a or b for a, b in quoted] + [p for p in params if 0 < len(p) <= 80]
        # a file name is often typed without its extension (the dialog adds it)
        texts += [t.rsplit(".", 1)[0] for t in texts if re.fullmatch(r"[\w\- ]+\.\w{1,4}", t)]
        # a full name is often typed as first and last name
        texts += [part for t in texts if " " in t and t.replace(" ", "").isalpha()
                  for part in t.split()]  # fmt: skip
        self.texts = list(dict.fromkeys(texts))[:MAX_TEXTS]
        self.numbers = set(re.findall(r"\d+", goal))
        self.param_texts = {p.casefold() for p in params if p}
        for p in params:
            self.goal_words |= words(p)
        labels = {}
        for ref in compiled.task.apps:
            app = self.ep.phone.apps[ref.name]
            model = app.host or ref.name
            labels[model] = self.ep.phone.apps[model].label
        self.app_labels = labels
        self._reprs: dict[int, tuple[Any, str]] = {}
        self.record_goals = record_clauses(compiled)
        self.best = 0.0  # the best verifier score reached
        self.last_final: dict[str, Any] = self.final  # the ending that was accepted

    # ------------------------------------------------------------ states
    def signature(self) -> tuple[str, ...]:
        """The screen and the content of every app's state."""
        phone = self.ep.phone
        parts = [phone.xml(), repr(phone.focus), repr(phone.keyboard)]
        for name, data in phone.state.items():
            known = self._reprs.get(id(data))
            if known is None or known[0] is not data:
                text = json.dumps([data.collections, data.settings], sort_keys=True, default=str)
                known = self._reprs[id(data)] = (data, text)
            parts.append(f"{name}:{known[1]}")
        return tuple(parts)

    def place(self) -> tuple[str | None, str]:
        """Where the phone is: the foreground app and its top screen (or a dialog's title)."""
        phone = self.ep.phone
        route = phone.route()
        where = route.screen if route is not None else ("drawer" if phone.drawer else "home")
        if phone.dialog is not None:
            where += "/" + phone.dialog.title
        return phone.foreground, where

    def partial(self) -> float:
        """How close the state is to the records the goal asks for: for each such clause,
        the largest share of its conditions one record meets (mean over the clauses)."""
        if not self.record_goals:
            return 0.0
        from tasklang.verifiers.evaluate import Env, EvalError, collection, evaluate

        assert self.ep.instance is not None
        env = Env(dict(self.compiled.apps), self.ep.instance.params, self.ep.phone.world())
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
        return sum(shares) / len(shares)

    def check(self) -> tuple[Verdict | None, float]:
        """End the episode here: the verdict if the verifier accepts it (else None), and the
        best score of the endings tried."""
        ep = self.ep
        saved = ep.snapshot()
        finals = [self.final]
        if self.answer:
            shown = [v.text for v in ep.phone.nodes() if v.text and len(v.text) <= 80]
            answers = list(dict.fromkeys([*shown, *self.texts]))[:MAX_ANSWERS]
            finals = [{"action_type": "answer", "text": t} for t in answers]
        score = 0.0
        for final in finals:
            ep.step(final)
            verdict = ep.verdict()
            ep.restore(saved)
            score = max(score, verdict.score)
            if verdict.success:
                self.last_final = final
                return verdict, score
        self.best = max(self.best, score)
        return None, score

    # ------------------------------------------------------------ actions
    def candidates(self) -> list[tuple[float, dict[str, Any]]]:
        """(relevance, action) for every action worth trying on the current screen."""
        phone = self.ep.phone
        tree = phone.observe()
        nodes = phone.nodes()
        out: list[tuple[float, dict[str, Any]]] = []
        reached: set[int] = set()
        scrollable = False
        for i, v in enumerate(nodes):
            left, top, right, bottom = v.bounds
            if right <= left or bottom <= top:
                continue
            scrollable = scrollable or v.scrollable
            if v.edit is not None:
                for text in self.texts:
                    rel = 1.0 + fits(text, f"{v.text} {v.hint} {v.rid}")
                    out.append(
                        (rel, {"action_type": "input_text", "text": text, "index": i,
                               "clear_text": True})
                    )  # fmt: skip
                continue
            target = w.hit(tree, (left + right) / 2, (top + bottom) / 2)
            if target is None or id(target) in reached or not target.enabled:
                continue
            reached.add(id(target))
            rel = self.relevance(target)
            if target.acts or target.clickable:
                out.append((rel, {"action_type": "click", "index": i}))
            if target.on_long is not None:
                out.append((rel - 0.5, {"action_type": "long_press", "index": i}))
        form = self.fill_form(nodes)
        if form:
            # one child that fills every field with the goal text that fits it best
            out.append((1.0 + len(form), form))  # type: ignore[arg-type]
        if phone.focus is not None:
            out.append((1.0, {"action_type": "keyboard_enter"}))
        if scrollable:
            out.append((0.3, {"action_type": "scroll", "direction": "down"}))
            out.append((0.1, {"action_type": "scroll", "direction": "up"}))
        out.append((0.0, {"action_type": "navigate_back"}))
        out.append((-0.5, {"action_type": "wait"}))
        for model, label in self.app_labels.items():
            if phone.foreground != model:
                out.append((1.0, {"action_type": "open_app", "app_name": label}))
        return out

    def apply(self, action: Any, depth: int) -> list[dict[str, Any]] | None:
        """Carry out an action, or a form fill (text per field name, each field found again
        on the screen as it is then); the actions taken, or None if one was refused."""
        if not isinstance(action, list):
            return [action] if self.ep.step(action).ok else None
        if depth + len(action) > self.max_depth:
            return None
        taken = []
        for field_name, text in action:
            index = next(
                (i for i, v in enumerate(self.ep.phone.nodes())
                 if v.edit == field_name and v.bounds[3] > v.bounds[1]),
                None,
            )  # fmt: skip
            if index is None:
                return None
            step = {"action_type": "input_text", "text": text, "index": index, "clear_text": True}
            if not self.ep.step(step).ok:
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
            ((fits(t, f"{v.text} {v.hint} {v.rid}"), i, t) for i, v in fields for t in self.texts),
            key=lambda p: (-p[0], p[1]),
        )
        used_fields: set[int] = set()
        used_texts: set[str] = set()
        plan = []
        for score, i, text in pairs:
            if score <= 0 or i in used_fields or text in used_texts:
                continue
            used_fields.add(i)
            used_texts.add(text)
            plan.append((str(nodes[i].edit), text))
        return plan if len(plan) >= 2 else []

    def relevance(self, view: View) -> float:
        texts = [x.text or x.desc for x in view.flat() if x.text or x.desc]
        if not texts:
            return 0.0
        exact = any(t.casefold() in self.param_texts for t in texts)
        go_ahead = len(texts) == 1 and texts[0].casefold().strip() in AFFIRMATIVE
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
            for rel, action in self.candidates():
                ep.restore(node.saved)
                steps = self.apply(action, depth)
                if steps is None or ep.phone.ended:
                    continue
                sig = self.signature()
                if sig in seen:
                    continue
                seen.add(sig)
                generated += 1
                actions = [*node.actions, *steps]
                verdict, score = self.check()
                if verdict is not None:
                    return self.result(actions, explored, generated, start, "")
                place = self.place()
                novel = place not in places
                places.add(place)
                rel += NOVELTY if novel else 0.0
                cost = (
                    len(actions) * DEPTH_COST
                    - SCORE_WEIGHT * score
                    - PARTIAL_WEIGHT * self.partial()
                    - rel
                    - 0.5 * node.rel
                )
                heapq.heappush(
                    frontier,
                    _Node((cost, len(actions), next(counter)), ep.snapshot(), actions, rel),
                )
        return SolveResult(
            self.compiled.task.id, self.seed, False, [], explored, generated,
            time.perf_counter() - start, self.best, reason,
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
            verdict, fresh.trajectory(),
        )  # fmt: skip


def solve(
    compiled: ir.CompiledTask,
    seed: int = 0,
    time_limit: float = DEFAULT_TIME_LIMIT,
    max_depth: int | None = None,
    max_states: int | None = None,
) -> SolveResult:
    return Solver(compiled, seed, time_limit, max_depth, max_states).run()
