"""Reference solutions of library tasks on hybrid reconstructed apps.

A hybrid reference starts on the recording: it reaches the list the binding binds by
recorded actions (``Player.reach``) and does there what the recording can (open a row).
Where the recording stops (no Send button, no saved contact editor, no call menu) it makes
an action the recording never made, which hands the episode over to the hand-written app at
the same place, and it finishes there with the library's own reference solution
(``envs/phoneworld/solutions``), which reads the screen by resource ids and texts as an
agent would. Going back to a list the recording has hands the episode back; the references
cope with either app drawing the screen.

``HYBRID`` maps a task id to its reference and to what the recording lacks for it (the
reason it needs the hand-written app); the tasks of ``plan.REFERENCES`` run on hybrid apps
unchanged (they never leave the recording).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tasklang.envs.phoneworld.phone import Outcome
from tasklang.envs.phoneworld.reconstruct.plan import PlanError, Player, Reference, bound_list
from tasklang.envs.phoneworld.solutions import Driver, references
from tasklang.envs.phoneworld.solutions.aw_system import ADDRESS, received_messages

SCROLL_DOWN = {"action_type": "scroll", "direction": "down"}
SCROLL_UP = {"action_type": "scroll", "direction": "up"}


@dataclass(frozen=True)
class HybridReference:
    reference: Reference
    lacks: str  # what the recording lacks: why the task needs the hand-written app


HYBRID: dict[str, HybridReference] = {}


def hybrid(task: str, lacks: str) -> Callable[[Reference], Reference]:
    def register(f: Reference) -> Reference:
        HYBRID[task] = HybridReference(f, lacks)
        return f

    return register


def driver(p: Player) -> Driver:
    """The library solutions' driver, acting through the player (the same episode)."""

    def step(action: dict[str, Any]) -> Outcome:
        p.act(action)
        return Outcome(bool(p.info.get("ok", True)), str(p.info.get("result", "")))

    return Driver(lambda: p.core.phone.observe(), step, p.params)


def hand_over(p: Player) -> None:
    """Scroll the screen shown, which the recording never did: the hand-written app takes
    over at the same place (and the scroll is undone there)."""
    p.act(SCROLL_DOWN)
    if p.info["on_recording"]:
        raise PlanError(f"scrolling {p.info['screen']} did not hand over")
    p.act(SCROLL_UP)


def library(task: str) -> Callable[[Driver], None]:
    solution = references().get(task)
    if solution is None:
        raise PlanError(f"no library reference solution for `{task}`")
    return solution


def from_the_list(task: str) -> Reference:
    """Reach the bound list on the recording, hand over there, then the library's solution."""

    def run(p: Player) -> None:
        p.reach(bound_list(p))
        hand_over(p)
        library(task)(driver(p))

    return run


def open_row(p: Player, label: str) -> None:
    """Open the bound list's row showing ``label``, on the recording."""
    p.reach(bound_list(p))
    listed = p.info["screen"]
    p.tap(text=label)
    if not p.info["on_recording"] or p.info["screen"] == listed:
        raise PlanError(f"the row {label!r} did not open a recorded screen")


# ------------------------------------------------------------------ messages
SENDING = "sending is never recorded (no Send button appears)"

for _task in (
    "androidworld.simple_sms_send",
    "androidworld.simple_sms_reply",
    "androidworld.simple_sms_reply_most_recent",
    "androidworld.simple_sms_resend",
):
    hybrid(_task, SENDING)(from_the_list(_task))

# the conversation must be opened on the hand-written app: a recorded row opens a recorded
# conversation, which does not mark its messages read (the task checks that they are)
hybrid("messages.reply_unread", SENDING)(from_the_list("messages.reply_unread"))


def last_received(p: Player) -> str:
    """The newest message received in the conversation shown by the hand-written app."""
    received = received_messages(p.core.phone.observe())
    if not received or not received[-1]:
        raise PlanError("no received message in the conversation")
    return received[-1]


@hybrid("androidworld.simple_sms_send_received_address", SENDING)
def send_received_address(p: Player) -> None:
    open_row(p, str(p.params["from_name"]))
    hand_over(p)  # the conversation's messages are on the hand-written app only
    found = ADDRESS.search(last_received(p))
    if found is None:
        raise PlanError("no address in the message")
    p.act({"action_type": "navigate_back"})  # the conversation list: back on the recording
    open_row(p, str(p.params["to_name"]))
    hand_over(p)  # the hand-written conversation has the composer and Send
    d = driver(p)
    d.type(found.group(0), rid="thread_type_message")
    d.tap(desc="Send")
    d.done()


@hybrid(
    "messages.last_text_from",
    "the recording shows one message per conversation and not who sent it, so a "
    "conversation's messages are not bound",
)
def last_text_from(p: Player) -> None:
    open_row(p, str(p.params["who"]))
    hand_over(p)  # the hand-written conversation shows every message, theirs on the left
    d = driver(p)
    theirs = received_messages(d.observe(), visible=True)
    if not theirs:
        raise PlanError(f"no message from {p.params['who']} on the screen")
    d.answer(theirs[-1])


# ------------------------------------------------------------------ contacts
EDITOR = "the contact editor is recorded but never saved, and its fields are not bound"

for _task in ("contacts.add_coworker", "androidworld.contacts_add_contact"):
    hybrid(_task, EDITOR)(from_the_list(_task))


@hybrid("contacts.update_number", EDITOR)
def update_number(p: Player) -> None:
    open_row(p, str(p.params["who"]))
    hand_over(p)  # the contact's page, on the hand-written app
    d = driver(p)
    d.tap(desc="Edit contact")
    d.type(str(p.params["number"]), rid="contact_number")
    d.tap(desc="Save")
    d.done()


@hybrid("contacts.company_answer", "the recorded contact pages show no company")
def company_answer(p: Player) -> None:
    open_row(p, str(p.params["who"]))
    hand_over(p)
    d = driver(p)
    d.answer(d.texts(rid="contact_organization_company")[0])


@hybrid(
    "contacts.ensure_favorite",
    "the task checks the Favorites tab's `selected` flag, which AutoDroid does not record",
)
def ensure_favorite(p: Player) -> None:
    who = str(p.params["who"])
    open_row(p, who)
    hand_over(p)  # the hand-written page says whether the contact is a favorite
    d = driver(p)
    if d.has(desc="Add to favorites"):
        d.tap(desc="Add to favorites")
    d.back()  # the contact list: handed back to the recording
    p.tap(text="Favorites")
    if p.info["on_recording"]:
        hand_over(p)  # the recorded Favorites tab shows no favorites and no tab state
    d.need(rid="contact_name", text=who)
    d.done()


# ------------------------------------------------------------------ phone
for _task, _lacks in (
    ("phone.block_repeat_caller", "the recording never opens a call's menu (no Block number)"),
    (
        "phone.call_back_missed",
        "the recording never calls from the call history, and its rows show days, not the "
        "times the task needs",
    ),
):
    hybrid(_task, _lacks)(from_the_list(_task))
