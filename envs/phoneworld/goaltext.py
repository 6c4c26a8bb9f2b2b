"""What the solver reads in a goal (``solver``): its words (stemmed, a phone number as one
word), the texts worth typing (quoted words, the parameter values it shows, amounts, names,
counts), the numbers a keypad takes, and how well a text suits a field.
"""

from __future__ import annotations

import re
from typing import Any

from tasklang.envs.phoneworld.readings import MONTHS
from tasklang.envs.phoneworld.widgets import View

# buttons that go ahead (a permission, a dialog's positive answer, a form's save)
AFFIRMATIVE = frozenset(
    ["allow", "ok", "save", "done", "confirm", "yes", "apply", "create", "start", "send",
     "while using the app", "only this time", "set", "add", "pay", "submit", "next",
     # and past what stands in the way (an app's welcome screens)
     "skip", "not now", "no, not now", "no thanks", "got it", "continue", "later"]
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
# a quoted text (an apostrophe inside a word, "Grandma's", opens none)
QUOTED = re.compile(r"(?<!\w)'([^']+)'(?!\w)|\"([^\"]+)\"")
PHONE_NUMBER = re.compile(r"\+?\d[\d ().-]{6,}\d")


def stem(word: str) -> str:
    """A word less the ending of a plural, a past or a gerund, and a final "e" ("programs":
    "program", "recording": "record", "moved": "mov", "move": "mov").

    >>> [stem(w) for w in ["programs", "recording", "moved", "move", "address", "notes"]]
    ['program', 'record', 'mov', 'mov', 'address', 'not']
    """
    if word.isdigit() or word.endswith("ss"):
        return word
    for ending in ("ing", "ed", "es", "s"):
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            word = word[: -len(ending)]
            break
    return word[:-1] if word.endswith("e") and len(word) > 3 else word


MONTH_STEMS = frozenset(stem(m) for m in MONTHS)


def words(text: str) -> set[str]:
    """The words of a text that say something (a phone number is one word: its digits).

    >>> sorted(words("Call +1 415 555 0187 at the office"))
    ['14155550187', 'call', 'office']
    """
    text = PHONE_NUMBER.sub(lambda m: re.sub(r"\D", "", m[0]), text.casefold())
    return {t for t in re.findall(r"[a-z0-9]+", text) if t not in STOPWORDS}


def param_strings(value: Any) -> list[str]:
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
            out += param_strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            out += param_strings(v)
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
    if "search" in hint and re.fullmatch(r"[A-Z][\w'&.-]*( [A-Z&][\w'&.-]*)*", text):
        return 0.5  # a name is what one searches for
    return 0.0


def goal_texts(goal: str, params: list[str]) -> list[str]:
    """The texts worth typing, most telling first: the goal's quoted words, the parameter
    values it shows, its decimal numbers and amounts, its capitalized names (a program's,
    a place's), the parts of these a form asks for separately, and its whole numbers."""
    quoted = [a or b for a, b in QUOTED.findall(goal)]
    texts = quoted + [p for p in params if 0 < len(p) <= 80]
    texts += re.findall(r"\d+(?:[.,]\d+)+", goal)  # an amount, a version, a decimal
    # a file name is often typed without its extension (the dialog adds it)
    texts += [t.rsplit(".", 1)[0] for t in texts if re.fullmatch(r"[\w\- ]+\.[a-zA-Z]\w{0,3}", t)]
    # a full name is often typed as first and last name
    texts += [part for t in texts if re.fullmatch(r"[A-Z][a-z]+( [A-Z][a-z]+){1,2}", t)
              for part in t.split()]  # fmt: skip
    texts += capitalized(goal)
    # a count, a quantity (not a part of a phone number, a date, an amount or a time)
    plain = PHONE_NUMBER.sub(" ", goal)
    texts += re.findall(r"(?<![\w.,:/$€£¥+-])\d+(?![\w.,:/-])", plain)
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
