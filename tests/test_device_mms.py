"""Texts sent as MMS: read from the MMS provider's sent box (its messages, their text parts
and their numbers) as records of the sent collection; setup checks the box it cannot write,
and the tear-down deletes the messages an episode added there."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from tasklang.envs.device import mms
from tasklang.envs.device.check import device_check, not_kept, probe
from tasklang.envs.device.differential import library, run_task
from tasklang.envs.device.driver import ShellDriver
from tasklang.envs.device.emulated import EmulatedPhone, Storage, snapshot_of
from tasklang.envs.device.env import DeviceEnv
from tasklang.envs.device.parse import OutputError, Unread
from tasklang.envs.device.phoneworld import PhoneWorldTransport
from tasklang.envs.device.probes import coverage
from tasklang.envs.device.runner import SetupRefused, run_setup, run_teardown
from tasklang.envs.device.setup import build_plan
from tasklang.envs.phoneworld.episode import run_reference
from tasklang.sampling import sample_instance
from tasklang.verifiers.check import check_trajectory
from tasklang.verifiers.snapshot import WorldSnapshot
from tasklang.verifiers.trajectory import read_trajectory

TASK = "androidworld.markor_create_note_and_sms"
BOX = "content://mms/sent"

# what a phone prints for one text sent as MMS (message 7): its row in the sent box, its
# SMIL layout and text parts, and its two address rows (the phone's own, the recipient's)
SENT = "Row: 0 _id=7, date=1778765100, read=1\n"
PARTS = (
    "Row: 0 mid=7, seq=-1, ct=application/smil, text=NULL\n"
    "Row: 1 mid=7, seq=0, ct=text/plain, text=See you at 6, by the gate\n"
    "Row: 2 mid=3, seq=0, ct=text/plain, text=a text that came in\n"
)
ADDR = "Row: 0 type=137, address=insert-address-token\nRow: 1 type=151, address=+1 555 0100\n"


def _phone(**answers: str):
    def run(argv: tuple[str, ...]) -> str:
        return answers[argv[3].replace("content://mms/", "").replace("/", "_")]

    return run


def test_a_box_reads_as_rows_of_the_sms_providers_columns() -> None:
    rows = mms.read_box(BOX, _phone(sent=SENT, part=PARTS, **{"7_addr": ADDR}), "messages.sent")
    assert rows == [{"_id": "7", "address": "+1 555 0100", "body": "See you at 6, by the gate",
                     "date": "1778765100000", "read": "1"}]  # fmt: skip
    # what came in is from its sender, the 137 row (the phone's own number is the 151 one)
    came = "Row: 0 type=137, address=+1 555 0142\nRow: 1 type=151, address=insert-address-token\n"
    run = _phone(inbox=SENT, part=PARTS, **{"7_addr": came})
    assert mms.read_box("content://mms/inbox", run, "messages.received")[0]["address"] == (
        "+1 555 0142"
    )
    assert mms.read_box(BOX, _phone(sent="No result found.\n"), "messages.sent") == []


@pytest.mark.parametrize(
    ("answers", "error", "match"),
    [
        ({"7_addr": ADDR + "Row: 2 type=151, address=+1 555 0101\n"}, Unread, "2 numbers"),
        ({"part": PARTS + "Row: 3 mid=7, seq=1, ct=text/plain, text=more\n"}, Unread, "2 parts"),
        ({"sent": "Row: 0 _id=7;reboot, date=1778765100, read=1\n"}, OutputError, "not a number"),
        ({"sent": "Row: 0 _id=7, date=soon, read=1\n"}, OutputError, "`date`"),
        ({"part": "Error while accessing provider\n"}, OutputError, "not rows"),
    ],
)
def test_a_box_that_is_not_one_text_to_one_number_is_not_read(
    answers: dict[str, str], error: type[Exception], match: str
) -> None:
    run = _phone(**{"sent": SENT, "part": PARTS, "7_addr": ADDR, **answers})
    with pytest.raises(error, match=match):
        mms.read_box(BOX, run, "messages.sent")


def _as_mms(world: WorldSnapshot) -> WorldSnapshot:
    """``world`` with its texts sent as MMS (a phone set to send long texts so)."""
    out = world.model_copy(deep=True)
    for text in out.apps["messages"].collections["sent"]:
        text["mms"] = True
    return out


def test_texts_sent_as_mms_are_read_and_decide_the_clauses_on_them() -> None:
    compiled = library()[TASK]
    _, traj = run_reference(compiled, 0)
    assert traj.final.snapshot is not None
    end = _as_mms(traj.final.snapshot)
    [text] = end.apps["messages"].collections["sent"]
    transport = PhoneWorldTransport(compiled, lambda: end, lambda: "")
    assert text["body"] not in transport.shell("content query --uri content://sms/sent")
    box = transport.shell(f"content query --uri {BOX} --projection _id:date:read")
    assert box == "Row: 0 _id=1, date=1778765100, read=1\n"
    assert f"text={text['body']}" in transport.shell(
        "content query --uri content://mms/part --projection mid:seq:ct:text"
    )
    reading = probe(compiled, transport)
    assert ("messages", "sent") not in reading.unread
    # the MMS provider keeps no delivery status of the SMS kind: the text holds none
    read = {k: v for k, v in text.items() if k != "status"}
    assert reading.snapshot.apps["messages"].collections["sent"] == [read]
    assert ("messages", "sent", "status") in not_kept(compiled, [reading.snapshot])

    final = traj.final.model_copy(update={"snapshot": end})
    seen = traj.model_copy(update={"final": final})
    dv = device_check(compiled, seen, transport)
    verdict = check_trajectory(compiled, seen)
    # the sent text's number and body are read: the clauses on them are decided, as
    # PhoneWorld decides them
    ids = [c.id for c in compiled.task.clauses[1:3]]
    assert not set(ids) & set(dv.unobservable)
    results = {r.id: r.passed for r in dv.clauses}
    assert [results[i] for i in ids] == [r.passed for r in verdict.clauses if r.id in ids]
    assert all(results[i] for i in ids)
    # ... and a text sent to another number fails the task on a phone too
    end.apps["messages"].collections["sent"][0]["to"] = "+1 555 0199"
    assert device_check(compiled, seen, transport).success is False


def test_setup_checks_the_box_first_and_teardown_deletes_what_the_episode_added() -> None:
    compiled = library()[TASK]
    initial = sample_instance(compiled, 0).initial
    plan = build_plan(compiled, initial)
    first = plan.setup[0]
    assert first.argv == ("content", "query", "--uri", BOX, "--projection", "_id")
    assert first.meta["expect_rows"] == 0
    assert any(c.meta.get("drop_added") == BOX for c in plan.teardown)
    # the numbers are read by the ids the box lists: the plan says where
    assert any("content://mms/<_id>/addr" in n for n in plan.notes)

    phone = EmulatedPhone(compiled, Storage())
    saved = run_setup(compiled, initial, phone)
    # an episode sends a text as MMS: message 1 in the box, its parts and numbers
    phone.s.providers[BOX] = [{"_id": "1", "date": "1778765100", "read": "1"}]
    phone.s.providers[mms.PARTS] = [{"mid": "1", "seq": "0", "ct": "text/plain", "text": "hi"}]
    phone.s.providers["content://mms/1/addr"] = [{"type": "151", "address": "+1 555 0100"}]
    run_teardown(compiled, initial, phone, saved)
    assert "content delete --uri content://mms/1" in phone.lines
    assert not phone.s.providers[BOX] and not phone.s.providers[mms.PARTS]


def test_setup_refuses_a_phone_whose_box_holds_messages_and_changes_nothing() -> None:
    compiled = library()[TASK]
    initial = sample_instance(compiled, 0).initial
    storage = Storage(providers={BOX: [{"_id": "4", "date": "1778000000", "read": "1"}]})
    phone = EmulatedPhone(compiled, storage)
    before = copy.deepcopy(snapshot_of(storage))
    with pytest.raises(SetupRefused, match=r"content://mms/sent holds 1 message\(s\) where the"):
        run_setup(compiled, initial, phone)
    assert snapshot_of(storage) == before
    assert phone.lines == [f"content query --uri {BOX} --projection _id"]


def test_an_episode_on_a_phone_setup_refuses_ends_as_an_error(tmp_path: Path) -> None:
    compiled = library()[TASK]
    storage = Storage(providers={BOX: [{"_id": "4", "date": "1778000000", "read": "1"}]})
    phone = EmulatedPhone(compiled, storage)
    out = tmp_path / "episode.jsonl"
    env = DeviceEnv(compiled, ShellDriver(phone), phone, record_path=out, sleep=lambda s: None)
    env.reset(seed=0)
    assert env.error is not None and env.error.startswith("SetupRefused: content://mms/sent")
    _, reward, terminated, _, _ = env.step({"action_type": "navigate_home"})
    assert reward is None and terminated
    assert read_trajectory(out).final.error == env.error
    assert snapshot_of(storage)["providers"] == {
        BOX: [{"_id": "4", "date": "1778000000", "read": "1"}]
    }


def test_texts_are_told_apart_by_what_never_changes_in_them() -> None:
    """A text keeps its number, body, time and kind: read exactly, they say which texts
    were sent and which deleted, though an MMS's delivery status is not read."""
    compiled = library()["androidworld.simple_sms_resend"]
    cov = coverage(compiled)
    sent = ("messages", "sent")
    assert cov.record_identity[sent] == {"to", "body", "timestamp", "mms"}
    assert cov.told_apart(sent)
    status = cov.partly_read({("messages", "sent", "status")})
    assert status.told_apart(sent) and not status.records_seen(sent)
    assert not cov.partly_read({("messages", "sent", "body")}).told_apart(sent)


def test_the_resend_task_is_decided_where_its_texts_went_as_mms() -> None:
    """Seed 1 gives the task texts sent as MMS: the task's reference end state and its near
    misses are decided on a phone, as PhoneWorld decides them."""
    compiled = library()["androidworld.simple_sms_resend"]
    initial = sample_instance(compiled, 1).initial
    assert any(t["mms"] for t in initial.apps["messages"].collections["sent"])
    cases = run_task(compiled, 1)
    assert all(c.agrees for c in cases)
    assert [c.device for c in cases] == [c.phoneworld for c in cases]
    assert cases[0].name == "reference" and cases[0].device is True
