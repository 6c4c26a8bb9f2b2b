"""`tasklang solve`: search PhoneWorld for an action sequence the task's verifier accepts.

Best-first search over the phone's states with snapshot / restore. A state's children are the
actions an agent could take on its screen: a tap on each view that acts (one per view a tap
reaches), a long press where one does something, typing a candidate text into each text field
(replacing its text, or appended to / put before what it holds), the keyboard's enter when a
field has the focus, scrolling, back, waiting, and opening the task's apps; and macro actions:
filling every field of a form with the texts that fit them, keying a number on a numeric
keypad (one tap per digit), and paging until the screen shows something of the goal it did
not show (a "Previous month" button tapped again and again, a list scrolled down).

Texts to type come from what the goal says (its quoted words, the parameter values it shows,
its numbers and capitalized names; not a text that only names a day, which is picked, not
typed) and from what the path saw: where a screen shows a name the goal gives, the long texts
of the list rows that show it, or of all rows when it is the screen's title (a conversation's
messages), are noted, typed later ("resend the message I sent") and looked for ("the two
seats she wants"). Only the task's apps are searched: a child that lands in another app is
dropped. A tap addresses the view it reaches (not a container over it), as the verifier's
trace clauses see the element acted on.

Every new state is judged in two stages. First the task's state clauses (``expect`` checks on
the apps' data and on the answer, ``unchanged`` / ``only ... changed`` guards) are evaluated
on the phone's world with the verifier's own code; this is cheap, cached per world state, and
necessary for success (a candidate answer is first compared, with the verifier's comparators,
to the value each answer clause computes once per world state). Only where they all hold is
the episode ended there (with ``status``, or for a question, with each candidate answer) and
the full verifier run on a replay of the path, trace, UI and ``forbid`` clauses included.
Candidate answers are what the screen shows (texts, descriptions, the numbers in them), the
goal's texts, and answers computed from the lists seen on the way (``readings``: counts, sums,
lists of names of the rows the goal's words and values pick); a yes / no is given only on a
screen that shows a name the goal gives, never blind.

States are taken in turn from two orders of the same frontier. By path cost: each step costs
``1 / (1 + relevance)`` (less where it reaches a screen no state reached before; nothing for
opening a menu or dialog that changes nothing, whose item is the choice), less the progress
made. Greedily: the choices made, less the progress, less the relevance of the last step and
half of the one before, with the deletion of records one by one weighted strongly. Progress
is the verifier's score (or the share of its weight the state clauses earn), and partial
credit: of a ``has {...}`` clause, the largest share of its conditions one record meets (less
where it is further from it than at the start), and of a clause that counts records two or
more away (``none C where P``, ``count(...) == n``), how far the count has come. Relevance is
how much the view tapped shows what the goal says: its (stemmed) words and the parameter
values and days it names, each counted once on a path; a button that goes ahead; a keypad's
digit of the goal's numbers; a phrase of a noted text; for a row's own button without text
(its menu, its drag handle), half its row's. A step to a screen that newly offers a view to
tap showing a goal's word costs less (``offers``), a menu or dialog opened comes right after
what opened it in the greedy order, which also counts how much of the goal the path has
credited. A state that meets more of the task's subgoals than any state before it puts its
subtree ahead in the greedy order (``CLIMB``), as a hill climber commits to a better state:
a subgoal is the author's milestone, a surer sign than a larger share of the clauses (which a
form saved with some wrong values earns too). A state that deleted or changed a record a ``forbid`` clause protects is dropped
(``Judge.lost``). Of the actions that reach the same state the most relevant is kept, and
states already seen (same screen, same targets of its views, same focus, same app data) are
not expanded twice.

The result is the action sequence, how many states were explored and generated, and the
trajectory of replaying it in a fresh episode, checked again from scratch.
"""

from __future__ import annotations

import datetime as dt
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
from tasklang.envs.phoneworld.goaltext import (
    AFFIRMATIVE,
    MONTH_STEMS,
    QUOTED,
    STOPWORDS,
    field_words,
    fits,
    goal_texts,
    keypad_numbers,
    param_strings,
    shows,
    stem,
    words,
)
from tasklang.envs.phoneworld.judge import Judge, needs_answer, yes_no_answer
from tasklang.envs.phoneworld.readings import (
    Row,
    computed_answers,
    date_shift,
    dates_shown,
    goal_values,
    merge,
    names_a_day,
    tables,
)
from tasklang.envs.phoneworld.widgets import View
from tasklang.verifiers.trajectory import Trajectory
from tasklang.verifiers.verdict import Verdict

DEFAULT_TIME_LIMIT = 60.0
SCORE_WEIGHT = 3.0
PARTIAL_WEIGHT = 3.0  # records that meet more of a `has {...}` clause's conditions come first
NOVELTY = 0.2  # what reaching a screen no state reached before takes off a step's cost
OFFER = 0.3  # what reaching a screen that offers a goal's word to tap takes off (see ``offers``)
GREEDY_OFFER = 0.5  # and its bonus in the greedy order
LONG_PRESS = 0.25  # what a long press is worth less than a tap of the same view
ROW_SHARE = 0.5  # the share of its row's relevance a row's button without text gets
RELEVANCE_DISCOUNT = 1.0  # a step of relevance r costs 1 / (1 + r * this)
MIN_STEP = 0.05
MAX_PAGES = 12  # taps of a paging button in one macro
PAGING = 1.5  # the relevance of paging until the goal shows
STEPPERS = frozenset(["previous", "next", "prev", "earlier", "later", "older", "newer"])
COST_SCORE = 1.0  # the path cost order's weight of the score
GREEDY_COUNTS = 12.0  # the greedy order's weight of the partial credit of deletions
GREEDY_CREDIT = 0.5  # the greedy order's weight of the goal's words and notes a path credited
GREEDY_NOVELTY = 1.0  # the greedy order's bonus for reaching a screen no state reached
CLIMB = 10.0  # the greedy order's lead of the subtree of a state that met a new subgoal
NONE: frozenset[str] = frozenset()
MAX_NOTES = 6  # texts a path remembers (see ``Solver.notice``)
REUSED = 0.3  # what a goal's word counts for on a path that already tapped one showing it
MAX_TEXTS = 16  # candidate texts drawn from the goal
MAX_FIELD_TEXTS = 5  # of which typed into one field (those that fit it best)
MAX_KEYPAD = 6  # numbers keyed on a numeric keypad
BOOLS = frozenset(["yes", "no", "true", "false", "1", "0", "y", "n"])  # read as a truth value


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


@dataclass
class _Node:
    saved: Any
    actions: list[dict[str, Any]]
    rel: float = 0.0  # relevance of the action that led here (novelty included)
    decisions: int = 0  # choices made (a macro is one, so is a menu and its item)
    typed: frozenset[str] = frozenset()  # texts typed and fields typed into on the path
    rows: dict[str, tuple[Row, ...]] = field(default_factory=dict)  # lists seen
    used: frozenset[str] = frozenset()  # goal words credited
    cost: float = 0.0  # the path's cost so far
    notes: tuple[str, ...] = ()  # texts noted on the way
    days: frozenset[dt.date] = frozenset()  # days the path looks for besides the goal's
    greedy: float = 0.0  # its place in the greedy order
    climb: float = 0.0  # the greedy order's offset of the subtree of a new best state
    expanded: bool = False


def step_cost(relevance: float) -> float:
    """The cost of a step: one, less for a step that looks like what the goal says, more
    for one that looks like it does nothing (waiting).

    >>> step_cost(0.0), step_cost(1.0), step_cost(-1.0)
    (1.0, 0.5, 2.0)
    """
    if relevance < 0:
        return 1.0 - relevance * RELEVANCE_DISCOUNT
    return 1.0 / (1.0 + relevance * RELEVANCE_DISCOUNT)


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
        # the search does not record its steps; a state the verifier judges is replayed
        self.ep = Episode(compiled, seed, record=False)
        self.replay = Episode(compiled, seed)
        assert self.ep.instance is not None
        budget = self.ep.budget
        self.max_depth = min(max_depth or budget - 1, budget - 1)
        self.max_states = max_states
        self.answer = needs_answer(compiled)
        self.yes_no = yes_no_answer(compiled)
        self.final = {"action_type": "status", "goal_status": compiled.task.outcome}
        labels = {}
        for ref in compiled.task.apps:
            app = self.ep.phone.apps[ref.name]
            model = app.host or ref.name
            labels[model] = self.ep.phone.apps[model].label
        self.app_labels = labels
        self.learn(self.ep.goal, self.ep.instance.params)
        self.allowed = {None, *labels, *(ref.name for ref in compiled.task.apps)}
        self._reprs: dict[int, tuple[Any, str]] = {}
        self._offers: dict[str, frozenset[str]] = {}
        self.judge = Judge(compiled, self.ep.instance.params, self.ep.instance.initial)
        self.best = 0.0  # the best verifier score reached
        self.top = 0  # the most subgoals a state met (see ``CLIMB``)
        self.verdicts = 0  # full verifier runs
        self.last_final: dict[str, Any] = self.final  # the ending that was accepted
        self.typed: frozenset[str] = frozenset()  # what the path to the state typed
        self.used: frozenset[str] = frozenset()  # the goal's words the path's taps credited
        self.read(())
        self.counter = itertools.count()
        self.start = 0.0
        self.explored = self.generated = 0  # states expanded, and reached
        self.seen: set[tuple[str, ...]] = set()  # the signatures of the states reached
        self.places: set[tuple[str | None, str]] = set()  # the screens reached

    def learn(self, goal: str, params: dict[str, Any]) -> None:
        """What the goal tells: its words, texts, numbers, names, days and values. Only what
        it says is known: parameters it does not show stay hidden."""
        shown = [p for p in param_strings(params) if shows(goal, p)]
        self.texts = goal_texts(goal, shown)[:MAX_TEXTS]
        self.today = self.ep.phone.clock.date()
        self.values = goal_values(goal, self.today)
        self.computes = self.answer and not self.yes_no  # answers computed from lists seen
        # what is typed: a day is picked on a calendar, not typed, and the app a goal names
        # ("in the Tasks app") is opened, not typed (a mini-app's name is: it is searched for)
        apps = {label.casefold() for label in self.app_labels.values()}
        self.typeable = [
            t for t in self.texts if not names_a_day(t, self.today) and t.casefold() not in apps
        ]
        self.goal_days = frozenset(self.values.dates)
        self.days = self.goal_days  # and those the path being expanded looks for
        self.shift = date_shift(goal)
        self._days: dict[str, frozenset[dt.date]] = {}  # the days a text names
        self._fit: dict[tuple[str, str, str], float] = {}
        self.numbers = set(re.findall(r"\d+", goal))
        self.keypad = keypad_numbers(goal)[:MAX_KEYPAD]
        self.param_texts = {p.casefold() for p in shown if p}
        quoted = [a or b for a, b in QUOTED.findall(goal)]
        self.names = self.param_texts | {q.casefold() for q in quoted}
        names = sorted(n for n in self.names if n not in BOOLS)
        self.name_pattern = (
            re.compile("|".join(rf"(?<!\w){re.escape(n)}(?!\w)" for n in names), re.I)
            if names
            else None
        )
        self.goal_words = words(goal).union(*(words(p) for p in shown))
        self.goal_stems = {stem(x) for x in self.goal_words}

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
        """The screen, what its views act on (a popup menu's items name the row it was
        opened for, which the screen does not show), and the content of every app's state."""
        phone = self.ep.phone
        targets = repr([(v.on_click, v.on_long, v.arg) for v in phone.nodes() if v.arg is not None])
        return (phone.xml(), targets, self.focus(), repr(phone.keyboard), *self.data_key())

    def focus(self) -> str:
        """The field with the focus: its screen's place on its app's back stack and its name
        (not the screen's identity, which differs between equal states reached apart)."""
        phone = self.ep.phone
        if phone.focus is None:
            return ""
        route_id, name = phone.focus
        for app, stack in phone.stacks.items():
            for depth, route in enumerate(stack):
                if route.id == route_id:
                    return f"{app}:{depth}:{route.screen}:{name}"
        return f"?:{name}"

    def lists(self, before: dict[str, tuple[Row, ...]], action: Any) -> dict[str, tuple[Row, ...]]:
        """The lists seen on the current screen, for answers computed from them (only for
        such questions): after a scroll, with the rows seen before it."""
        if not self.computes:
            return {}
        now = tables(self.ep.phone.observe())
        scrolled = isinstance(action, dict) and action["action_type"] == "scroll"
        return merge(before, now) if scrolled else now

    def notice(self, notes: tuple[str, ...]) -> tuple[str, ...]:
        """The texts a path remembers, with the current screen's: where the screen shows
        one of the parameter values the goal shows, the long texts (messages) of the list
        rows that show it, or of every row where it shows outside the lists (a
        conversation's title). A later step may type them or tap what they name."""
        shown = self.names_shown()
        if not shown:
            return notes
        found = []
        lists = tables(self.ep.phone.observe())
        in_rows = {t for rows in lists.values() for row in rows for _, t in row}
        titled = any(t.casefold() in self.names for t in shown - in_rows)
        for rows in lists.values():
            for row in rows:
                texts = [t for _, t in row]
                if titled or any(t.casefold() in self.names for t in texts):
                    found += [t for t in texts if len(re.findall(r"[^\W\d]{2,}", t)) >= 3]
        if not found:
            return notes
        # what the screen shows again comes last, in the screen's order (a conversation's
        # newest message last)
        kept = [t for t in notes if t not in found]
        return tuple(dict.fromkeys(t for t in [*kept, *found] if t not in self.texts))[-MAX_NOTES:]

    def names_shown(self) -> set[str]:
        """The texts the screen shows, if one is a name the goal gives (a parameter value
        it shows, or its quoted words); else nothing."""
        nodes = self.ep.phone.nodes()
        shown = {v.text for v in nodes if v.text and v.bounds[3] > v.bounds[1]}
        return shown if any(t.casefold() in self.names for t in shown) else set()

    def shows_a_name(self) -> bool:
        """Whether a view the agent did not type into shows a name the goal gives (a
        parameter value it shows, or its quoted words: "Order No. A1127"), as a whole word."""
        pattern = self.name_pattern
        if pattern is None:
            return False
        return any(
            pattern.search(v.text)
            for v in self.ep.phone.nodes()
            if v.text and v.edit is None and v.bounds[3] > v.bounds[1]
        )

    def moved_days(self, days: frozenset[dt.date]) -> frozenset[dt.date]:
        """The days a path looks for, with the current screen's: for a goal that moves
        something by some days ("one week later"), the days a screen that shows one of the
        goal's names shows (the thing's own), so moved."""
        if not self.shift:
            return days
        found = {
            d + dt.timedelta(days=self.shift)
            for t in self.names_shown() if any(c.isdigit() for c in t)
            for d in self.days_of(t)
        }  # fmt: skip
        return days | found if found - days else days

    def read(self, notes: tuple[str, ...]) -> None:
        """Take a path's notes as what it knows besides the goal (see ``notice``)."""
        self.notes = notes
        self.note_texts = [t.casefold() for t in notes]
        self.note_words = {stem(x) for t in notes for x in words(t)} - self.goal_stems

    def offers(self, screen: str) -> frozenset[str]:
        """The goal's (stemmed) words that the views to tap on a screen show (its XML:
        ``screen``, the current one), cached per screen."""
        known = self._offers.get(screen)
        if known is None:
            texts = [t for v in self.ep.phone.nodes() if v.clickable or v.acts
                     for x in v.flat() for t in (x.text, x.desc) if t]  # fmt: skip
            stems = {stem(x) for x in words(" ".join(texts))}
            known = self._offers[screen] = frozenset(stems & self.goal_stems)
        return known

    def noted(self, texts: list[str]) -> tuple[float, set[str]]:
        """How much a view's texts name what the path noted: a phrase of two words or more
        that a note holds ("Row 4 Seat 2"), or a note's words."""
        if not self.notes:
            return 0.0, set()
        phrases = {p.strip().casefold() for t in texts for p in t.split(",") if len(words(p)) >= 2}
        held = {
            "note:" + p for p in phrases
            if any(re.search(rf"(?<!\w){re.escape(p)}(?!\w)", n) for n in self.note_texts)
        }  # fmt: skip
        shared = {"note:" + x for x in (stem(y) for y in words(" ".join(texts)))
                  if x in self.note_words}  # fmt: skip
        score = (2.0 if held - self.used else 0.0) + 0.5 * min(len(shared - self.used), 2)
        return score, held | shared

    def restore(self, saved: Any) -> None:
        """Go back to a saved state, with the saved app states themselves (app state is never
        changed in place), so that the phone finds the screen it composed for them before."""
        self.ep.restore(saved)
        self.ep.phone.state = dict(saved[0].state)

    def place(self) -> tuple[str | None, str]:
        """Where the phone is: the foreground app and its top screen (or a dialog's title)."""
        phone = self.ep.phone
        route = phone.route()
        where = route.screen if route is not None else ("drawer" if phone.drawer else "home")
        if phone.dialog is not None:
            where += "/" + phone.dialog.title
        return phone.foreground, where

    def endings(self, rows: dict[str, tuple[Row, ...]]) -> list[dict[str, Any]]:
        """The final actions to try on the current state: ``status``, or for a question,
        each text (or description) the screen shows and the numbers in them (an answer is
        read where it is shown), each of the goal's texts, and the answers computed from the
        lists seen (``rows``: counts, sums, lists of names, see ``readings``); but for a yes /
        no question no text that reads as one (a yes / no is a judgment, and a "1" on the
        screen is no reading of it): "yes" and "no" themselves, only on a screen that shows a
        name the goal gives (the order asked about) other than in a field typed into."""
        if not self.answer:
            return [self.final]
        shown = [t.strip() for v in self.ep.phone.nodes() if v.bounds[3] > v.bounds[1]
                 for t in (v.text, v.desc) if t and len(t) <= 80]  # fmt: skip
        # and the number a text shows ("4.8 star rating", "180 Reviews")
        shown += [n for t in shown for n in re.findall(r"[$€£¥]?\d[\d,]*(?:\.\d+)?", t)]
        computed = computed_answers(rows, self.texts, self.values, self.today) if rows else []
        answers = dict.fromkeys(
            t
            for t in [*shown, *self.texts, *computed]
            if t and not (self.yes_no and t.casefold() in BOOLS)
        )
        if self.yes_no and self.shows_a_name():
            answers.update(dict.fromkeys(["yes", "no"]))
        return [{"action_type": "answer", "text": t} for t in answers]

    def verify(self, actions: list[dict[str, Any]]) -> Verdict:
        """The full verifier's verdict on an episode that takes these actions."""
        ep = self.replay
        ep.reset()
        for action in actions:
            ep.step(action)
        self.verdicts += 1
        return ep.verdict()

    def check(
        self, actions: list[dict[str, Any]], rows: dict[str, tuple[Row, ...]] | None = None
    ) -> tuple[Verdict | None, float]:
        """End the episode that took these actions here (the lists seen on the way:
        ``rows``): the verdict if the verifier accepts it (else None), and how close the
        state comes (the state clauses' share, or the verifier's score where it ran)."""
        key = self.data_key()
        world = self.ep.phone.world
        progress = -1.0
        for final in self.endings(rows or {}):
            answer = final.get("text")
            if answer is not None and not self.judge.could_be(key, world, answer):
                # the answer fails a clause: what the state earns without it
                progress = max(progress, self.judge.assess(key, world, None)[1])
                continue
            ok, share = self.judge.assess(key, world, answer)
            if not ok:
                progress = max(progress, share)
                continue
            verdict = self.verify([*actions, final])
            # the verifier's own figure (nothing where a `forbid` clause was broken)
            progress = max(progress, verdict.score)
            self.best = max(self.best, verdict.score)
            if verdict.success:
                self.last_final = final
                return verdict, progress
        self.best = max(self.best, progress)
        return None, progress

    # ------------------------------------------------------------ actions
    def candidates(self) -> list[tuple[float, Any, frozenset[str]]]:
        """(relevance, action, what of the goal it credits) for every action worth trying
        on the current screen; an action is one AndroidWorld action, or a macro (a list of
        steps, see ``apply``)."""
        phone = self.ep.phone
        tree = phone.observe()
        nodes = phone.nodes()
        out: list[tuple[float, Any, frozenset[str]]] = []
        reached: set[int] = set()
        digits: dict[str, str] = {}  # a keypad's keys: digit -> the key's text or description
        # a tap addresses the view it reaches (not a container over it): what the verifier's
        # trace clauses see as the element acted on
        index_of = {id(v): i for i, v in enumerate(nodes)}
        parents = {id(c): v for v in nodes for c in v.children}
        rows: dict[int, float] = {}  # the relevance of the rows seen
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
            rel, credit = self.relevance(target)
            if rel <= 0 and not credit:
                # a row's own button (its menu, its drag handle) is as relevant as half its row
                row = self.row_of(target, parents)
                if row is not None:
                    known = rows.get(id(row))
                    if known is None:
                        known = rows[id(row)] = self.relevance(row)[0]
                    rel = ROW_SHARE * known
            at = index_of.get(id(target), i)
            if at != i:
                tl, tt, tr, tb = target.bounds
                if w.hit(tree, (tl + tr) / 2, (tt + tb) / 2) is not target:
                    at = i  # the view's own centre reaches something else: tap where v is
            if target.acts or target.clickable:
                out.append((rel, {"action_type": "click", "index": at}, credit))
                label = (target.text or target.desc).strip()
                if len(label) == 1 and label.isdigit():
                    digits[label] = label
                if " " in label and label.split(" ", 1)[0].casefold() in STEPPERS:
                    # a button that pages (a month, a day): page until the goal shows
                    out.append((PAGING, [("until", label)], credit))
            if target.on_long is not None:
                out.append((rel - LONG_PRESS, {"action_type": "long_press", "index": at}, credit))
        form = self.fill_form(nodes)
        if form:
            # one child that fills every field with the goal text that fits it best
            out.append((1.0 + len(form), form, NONE))
        if len(digits) == 10:
            for rank, number in enumerate(self.keypad):
                keys = [("key", d) for d in number]
                out.append((2.5 - 0.2 * rank, keys, NONE))
        if phone.focus is not None:
            # enter after a goal's text was typed (a search) goes ahead
            typed = any(v.focused and v.text in self.texts for v in nodes if v.edit is not None)
            out.append((2.0 if typed else 1.0, {"action_type": "keyboard_enter"}, NONE))
        out.append((0.3, {"action_type": "scroll", "direction": "down"}, NONE))
        # scroll down a list until it shows something of the goal
        out.append((PAGING, [("scroll", "down")], NONE))
        out.append((0.1, {"action_type": "scroll", "direction": "up"}, NONE))
        out.append((0.0, {"action_type": "navigate_back"}, NONE))
        # waiting does nothing, unless the goal asks for something to last
        out.append((1.0 if self.values.seconds else -0.5, {"action_type": "wait"}, NONE))
        for model, label in self.app_labels.items():
            if phone.foreground != model:
                out.append((1.0, {"action_type": "open_app", "app_name": label}, NONE))
        return out

    @staticmethod
    def row_of(view: View, parents: dict[int, View]) -> View | None:
        """The list row a view sits in: the nearest of its two closest ancestors that is
        one of several alike items of a list (siblings of its class and id) and shows a text;
        None if neither is."""
        up = view
        for _ in range(2):
            up_next = parents.get(id(up))
            if up_next is None:
                return None
            up = up_next
            outer = parents.get(id(up))
            if outer is None:
                return None
            alike = sum(1 for x in outer.children if x.cls == up.cls and x.rid == up.rid)
            if alike >= 2 and any(x.text for x in up.flat()):
                return up
        return None

    def fit(self, text: str, about: str, own: str = "") -> float:
        """How well a goal text suits a field: ``fits``, and more where the goal says it
        next to a word of the field's hint or id ("the Rides mini program" for a field
        "Search Mini Programs"), or where the field holds another number the goal names
        (its old value: "from 6 to 8")."""
        key = (text, about, own)
        known = self._fit.get(key)
        if known is None:
            known = fits(text, about) + (1.0 if self.near(text, about) else 0.0)
            if own != text and own in self.numbers and text in self.numbers:
                known += 2.0
            self._fit[key] = known
        return known

    def near(self, text: str, about: str) -> bool:
        at = self.ep.goal.casefold().find(text.casefold())
        if at < 0:
            return False
        before = re.findall(r"[a-z0-9]+", self.ep.goal[:at].casefold())[-3:]
        after = re.findall(r"[a-z0-9]+", self.ep.goal[at + len(text) :].casefold())[:3]
        stems = {stem(x) for x in words(about)}
        return any(stem(x) in stems for x in [*before, *after] if x not in STOPWORDS)

    def typing(self, i: int, v: View) -> list[tuple[float, dict[str, Any], frozenset[str]]]:
        """Typing into one field: the texts that fit it best replace its text; into a field
        that holds text of its own, the best ones are also added on a line after it or put
        before it with a blank line between (an edit of a note rather than a new one)."""
        hint = field_words(v)
        own = v.text if v.text and v.text != v.hint else ""
        ranked = sorted(self.typeable, key=lambda t: -self.fit(t, hint, own))[:MAX_FIELD_TEXTS]
        ranked += [t for t in self.notes[-2:] if t not in ranked]  # what the path noted
        out = []
        for text in ranked:
            # a text typed before on this path, or a field typed into before, is worth less
            rel = (1.0 + self.fit(text, hint, own) - 2.0 * (text in self.typed)
                   - 1.0 * (v.rid in self.typed))  # fmt: skip
            out.append((rel, {"action_type": "input_text", "text": text, "index": i,
                              "clear_text": True}, NONE))  # fmt: skip
        if own and (len(own) > 20 or "\n" in own):
            # what is added to a text: the goal's phrases (not names) it does not hold yet
            phrases = [t for t in self.typeable if " " in t and t.casefold() not in own.casefold()]
            for text in phrases[:2]:
                out.append((0.8, {"action_type": "input_text", "text": "\n" + text,
                                  "index": i, "clear_text": False}, NONE))  # fmt: skip
                out.append((0.6, {"action_type": "input_text", "text": f"{text}\n\n{own}",
                                  "index": i, "clear_text": True}, NONE))  # fmt: skip
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
        description), each found again on the screen as it is then, or ``[("until",
        label)]`` (tap the button again and again until the screen shows something of the
        goal it did not show: a month's page, a day) or ``[("scroll", direction)]`` (scroll
        until it does). The actions taken, or None if one was refused, the macro goes past
        the depth limit, or the goal never showed."""
        if not isinstance(action, list):
            return [action] if self.step(action) else None
        if action[0][0] in ("until", "scroll"):
            return self.page(action[0], self.max_depth - depth)
        if depth + len(action) > self.max_depth:
            return None
        taken = []
        for what, value in action:
            step = self.find_step(what, value)
            if step is None or not self.step(step):
                return None
            taken.append(step)
        return taken

    def find_step(self, what: str, value: str) -> dict[str, Any] | None:
        """The action that taps the key ``value`` (``what`` is "key") or types ``value`` into
        the field ``what``, on the screen as it is; None if it is not there."""
        nodes = self.ep.phone.nodes()
        index = next(
            (i for i, v in enumerate(nodes)
             if v.bounds[3] > v.bounds[1]
             and (v.edit == what if what != "key" else value in (v.text, v.desc))),
            None,
        )  # fmt: skip
        if index is None:
            return None
        if what == "key":
            return {"action_type": "click", "index": index}
        return {"action_type": "input_text", "text": value, "index": index, "clear_text": True}

    def page(self, how: tuple[str, str], room: int) -> list[dict[str, Any]] | None:
        """Tap the button ``label`` (``how`` is ``("until", label)``), or scroll (``how`` is
        ``("scroll", direction)``), until the screen shows a goal's text or day it did not
        show before (at most ``room`` and ``MAX_PAGES`` times); None if it never does."""
        before = self.goal_shown()
        taken = []
        for _ in range(min(room, MAX_PAGES)):
            if how[0] == "scroll":
                step: dict[str, Any] | None = {"action_type": "scroll", "direction": how[1]}
                screen = self.ep.phone.xml()
            else:
                step = self.find_step("key", how[1])
            if step is None or not self.step(step):
                return None
            taken.append(step)
            if self.goal_shown() - before:
                return taken
            if how[0] == "scroll" and self.ep.phone.xml() == screen:
                return None  # the end of the list
        return None

    def goal_shown(self) -> set[str]:
        """The goal's texts and days the screen shows."""
        nodes = [v for v in self.ep.phone.nodes() if v.bounds[3] > v.bounds[1]]
        screen = " | ".join(t for v in nodes for t in (v.text, v.desc) if t).casefold()
        found = {t for t in self.texts if t.casefold() in screen}
        if any(self.day_shown(v) for v in nodes if not v.children):
            found.add("@day")
        return found

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
            ((self.fit(t, field_words(v)), i, t) for i, v in fields for t in self.typeable),
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

    def day_shown(self, view: View) -> bool | None:
        """Whether a view's text or description names a day the goal names ("13 June 2026"
        for "2026-06-13", "Wed, May 20" for "tomorrow"): True, False if it names only other
        days, None if it names none."""
        if not self.days:
            return None
        found: bool | None = None
        for x in view.flat():
            for t in (x.text, x.desc):
                if not t or not any(c.isdigit() for c in t):
                    continue
                days = self.days_of(t)
                if days & self.days:
                    return True
                if days:
                    found = False
        return found

    def days_of(self, text: str) -> frozenset[dt.date]:
        days = self._days.get(text)
        if days is None:
            days = self._days[text] = frozenset(dates_shown(text, self.today))
        return days

    def relevance(self, view: View) -> tuple[float, frozenset[str]]:
        """How much tapping a view looks like doing what the goal says, and what of the goal
        it credits: the goal's words it shows and the parameter values (or the day) it shows
        exactly count once on a path (a path that keeps tapping what names the same thing
        gets nothing more for it); a button that goes ahead, and a keypad's key whose digit
        is in one of the goal's numbers, always count."""
        texts = [x.text or x.desc for x in view.flat() if x.text or x.desc]
        if not texts:
            return 0.0, NONE
        day = self.day_shown(view)
        exact = {t.casefold() for t in texts} & self.param_texts
        if day:
            exact.add("@day")
        shared = {stem(x) for x in words(" ".join(texts))} & self.goal_stems
        if day is False:  # another day than the goal's: its month and year say nothing
            shared = {x for x in shared if not x.isdigit() and x not in MONTH_STEMS}
        # a button that goes ahead: "OK", or a short label that starts so ("Confirm selection")
        label = texts[0].casefold().split() if len(texts) == 1 else []
        go_ahead = bool(label) and (
            " ".join(label) in AFFIRMATIVE or (len(label) <= 3 and label[0] in AFFIRMATIVE)
        )
        digit = len(texts) == 1 and texts[0].isdigit() and any(texts[0] in n for n in self.numbers)
        note, noted = self.noted([t for x in view.flat() for t in (x.text, x.desc) if t])
        score = note + (
            (3.0 if exact - self.used else 1.0 if exact else 0.0)
            + min(len(shared - self.used) + REUSED * len(shared & self.used), 3)
            + (1.5 if digit else 0.0)
            + (1.0 if go_ahead else 0.0)
        )
        return score, frozenset(exact | shared | noted)

    # ------------------------------------------------------------ the search
    def run(self) -> SolveResult:
        self.start = time.perf_counter()
        self.best = 0.0
        self.last_final = self.final
        self.explored = self.generated = 0
        rows = self.lists({}, None)
        verdict, _ = self.check([], rows)
        if verdict is not None:
            return self.result([])
        self.top = self.judge.milestones(self.signature()[4:], self.ep.phone.world)
        self.seen = {self.signature()}
        self.places = {self.place()}
        root = _Node(self.ep.snapshot(), [], rows=rows)
        # two orders of the same states, taken from in turn (see the module's doc)
        frontiers: list[list[tuple[float, int, int, _Node]]] = [
            [(0.0, 0, next(self.counter), root)],
            [(0.0, 0, next(self.counter), root)],
        ]
        reason = "the search space was exhausted"
        turn = 0
        while any(frontiers):
            if time.perf_counter() - self.start > self.time_limit:
                reason = f"no solution within {self.time_limit:g} s"
                break
            if self.max_states is not None and self.explored >= self.max_states:
                reason = f"no solution within {self.max_states} explored states"
                break
            turn = (turn + 1) % 2 if frontiers[(turn + 1) % 2] else turn
            node = heapq.heappop(frontiers[turn])[-1]
            if node.expanded or len(node.actions) >= self.max_depth:
                continue
            node.expanded = True
            self.explored += 1
            found = self.expand(node, frontiers)
            if found is not None:
                return self.result(found)
        return SolveResult(
            self.compiled.task.id, self.seed, False, [], self.explored, self.generated,
            time.perf_counter() - self.start, self.best, reason, verifier_runs=self.verdicts,
        )  # fmt: skip

    def expand(
        self, node: _Node, frontiers: list[list[tuple[float, int, int, _Node]]]
    ) -> list[dict[str, Any]] | None:
        """Add a state's children to the frontiers; the actions of one the verifier accepts
        (the search ends there), else None."""
        self.restore(node.saved)
        self.typed, self.used = node.typed, node.used
        self.read(node.notes)
        self.days = self.goal_days | node.days
        before = self.data_key()
        parent = self.offers(self.ep.phone.xml())
        # the most relevant first: of actions that reach the same state, it is the one kept
        for rel, action, credit in sorted(self.candidates(), key=lambda c: -c[0]):
            self.restore(node.saved)
            self.typed = node.typed
            steps = self.apply(action, len(node.actions))
            ep = self.ep
            if steps is None or ep.phone.ended or ep.phone.foreground not in self.allowed:
                continue  # refused, or ended, or in an app the task does not need
            sig = self.signature()
            if sig in self.seen:
                continue
            self.seen.add(sig)
            self.generated += 1
            if self.judge.lost(sig[4:], ep.phone.world):
                continue  # a record the task forbids deleting is gone
            actions = [*node.actions, *steps]
            rows = self.lists(node.rows, action)
            verdict, progress = self.check(actions, rows)
            if verdict is not None:
                return actions
            place = self.place()
            novel = place not in self.places
            self.places.add(place)
            # a screen that newly offers a view to tap that names what the goal says (a long
            # press that brings up "Delete") is a step ahead
            offered = bool(self.offers(sig[0]) - parent)
            # a menu or a dialog opened (nothing else changed) is no choice yet: its item is
            opened = node.saved[0].dialog is None and ep.phone.dialog is not None
            free = opened and sig[4:] == before
            bonus = (NOVELTY if novel else 0.0) + (OFFER if offered else 0.0)
            step = 0.0 if free else max(MIN_STEP, step_cost(rel) - bonus)
            decisions = node.decisions + (0 if free else 1)
            partial, counted = self.judge.partial(sig[4:], ep.phone.world)
            gain = SCORE_WEIGHT * progress + PARTIAL_WEIGHT * partial
            # the path cost order trusts the verifier's share less: a wrong move (the note
            # moved into another folder) can earn clauses that the right one earns too
            trusted = COST_SCORE * progress + PARTIAL_WEIGHT * partial
            eager = rel + (GREEDY_NOVELTY if novel else 0.0) + (GREEDY_OFFER if offered else 0.0)
            child = _Node(ep.snapshot(), actions, eager, decisions, self.typed, rows,
                          node.used | credit, node.cost + step, self.notice(node.notes),
                          self.moved_days(node.days))  # fmt: skip
            # a state that comes closer than any before it: the greedy order goes on from
            # there (its subtree ahead of every state the search had), as a climber would
            child.climb = node.climb
            reached = self.judge.milestones(sig[4:], ep.phone.world)
            if reached > self.top:
                self.top = reached
                child.climb -= CLIMB
            order = len(actions), next(self.counter), child
            # the path's cost; and greedily, choices made less how right the last look
            heapq.heappush(frontiers[0], (child.cost - trusted, *order))
            # records deleted one by one: the greedy order goes on from there
            if free:  # the menu or dialog comes right after what opened it, sooner if relevant
                child.greedy = node.greedy - max(rel, 0.0)
            else:
                child.greedy = (child.climb + decisions - gain - GREEDY_COUNTS * counted - eager - 0.5 * node.rel
                                - GREEDY_CREDIT * len(child.used))  # fmt: skip
            heapq.heappush(frontiers[1], (child.greedy, *order))
        return None

    def result(self, actions: list[dict[str, Any]]) -> SolveResult:
        """Replay the actions (and the final one) in a fresh episode and check it again."""
        fresh = Episode(self.compiled, self.seed)
        for action in [*actions, self.last_final]:
            fresh.step(action)
        verdict = fresh.verdict()
        return SolveResult(
            self.compiled.task.id, self.seed, verdict.success, [*actions, self.last_final],
            self.explored, self.generated, time.perf_counter() - self.start, verdict.score,
            "" if verdict.success else "the replayed solution did not pass",
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
