"""WeChat's chat messages as its `message` table keeps them: a row's `type` says what the
message is, its `content` holds the words or an XML document. A field a row does not keep (an
image's file name) leaves the field unread for the episode, never guessed."""

from __future__ import annotations

from typing import Any

import pytest

from tasklang import ir
from tasklang.envs.device.check import not_kept
from tasklang.envs.device.codec import NotKept
from tasklang.envs.device.differential import library
from tasklang.envs.device.probes import ProbeSpec, coverage, probe_specs, records_of
from tasklang.envs.device.wechat import stored
from tasklang.verifiers.evaluate import Env, Unknown, evaluate
from tasklang.verifiers.snapshot import AppState, WorldSnapshot

TASK = "cross.send_file_wechat"


@pytest.fixture(scope="module")
def compiled() -> ir.CompiledTask:
    return library()[TASK]


@pytest.fixture(scope="module")
def spec(compiled: ir.CompiledTask) -> ProbeSpec:
    return next(s for s in probe_specs(compiled) if s.key == ("wechat", "messages"))


def _read(spec: ProbeSpec, part: str, row: dict[str, str]) -> Any:
    """A field read from a row's columns, as a probe joins them."""
    fm = next(f for f in spec.fields if f.field == part)
    return fm.codec.decode(",".join(row[c] for c in fm.parts))


def _message(kind: str, body: str = "", amount: int | None = None, **kw: Any) -> dict[str, Any]:
    return {"chat": "wxid_pal", "outgoing": True, "kind": kind, "body": body,
            "amount": amount, "sent_at": "2026-03-02T09:00:00", **kw}  # fmt: skip


@pytest.mark.parametrize(
    "message",
    [
        _message("text", "Lunch at 12, by the river?"),
        _message("file", "Q3 <draft> & notes.pdf"),
        _message("location", 'Blue "Bottle" Coffee'),
        _message("transfer", "rent, March", 125050),
        _message("transfer", "", 1),
        _message("text", "see you", outgoing=False, chat="g1@chatroom"),
    ],
)
def test_what_a_row_keeps_reads_back(spec: ProbeSpec, message: dict[str, Any]) -> None:
    row = stored(message)
    for part in ("kind", "body", "amount"):
        assert _read(spec, part, row) == message[part], part


@pytest.mark.parametrize("kind", ["image", "voice", "link", "red_packet"])
def test_a_message_that_keeps_no_body_reads_its_kind_only(spec: ProbeSpec, kind: str) -> None:
    row = stored(_message(kind, "IMG_0042.jpg"))
    assert _read(spec, "kind", row) == kind
    with pytest.raises(NotKept):
        _read(spec, "body", row)
    if kind == "red_packet":  # its amount shows only once it is opened
        with pytest.raises(NotKept):
            _read(spec, "amount", row)
    else:
        assert _read(spec, "amount", row) is None


def _row(code: str, content: str, talker: str = "wxid_pal", sent: str = "1") -> dict[str, str]:
    return {"type": code, "isSend": sent, "talker": talker, "content": content}


def test_rows_as_a_phone_writes_them(spec: ProbeSpec) -> None:
    file_row = _row(
        "49",
        '<?xml version="1.0"?>\n<msg><appmsg appid="" sdkver="0"><title>Q3.pdf</title><des>'
        "</des><type>6</type><appattach><totallen>1024</totallen><fileext>pdf</fileext>"
        "</appattach></appmsg><fromusername>wxid_me</fromusername></msg>",
    )
    assert (_read(spec, "kind", file_row), _read(spec, "body", file_row)) == ("file", "Q3.pdf")
    transfer = _row(
        "419430449",
        "<msg><appmsg><title>Transfer</title><type>2000</type><wcpayinfo><paysubtype>1"
        "</paysubtype><feedesc>￥1,250.5</feedesc><pay_memo>dinner</pay_memo></wcpayinfo>"
        "</appmsg></msg>",
    )
    assert _read(spec, "amount", transfer) == 125050
    assert _read(spec, "body", transfer) == "dinner"
    group = _row("1", "wxid_b:\nhi, all", talker="1234@chatroom", sent="0")
    assert _read(spec, "body", group) == "hi, all"
    card = _row(
        "49", "wxid_pal:\n<msg><appmsg><title>Menu</title><type>33</type></appmsg></msg>", sent="0"
    )
    assert _read(spec, "kind", card) == "link"


@pytest.mark.parametrize(
    "row",
    [
        {"type": "47", "content": '<msg><emoji md5="ab" /></msg>'},  # a sticker
        {"type": "43", "content": "<msg><videomsg length='3' /></msg>"},  # a video
        {"type": "49", "content": "<msg><appmsg><type>19</type></appmsg></msg>"},  # a chat record
        {"type": "49", "content": "<msg><appmsg><title>half"},  # cut short
    ],
)
def test_a_row_of_no_kind_the_model_has_keeps_no_kind(spec: ProbeSpec, row: dict[str, str]) -> None:
    with pytest.raises(NotKept):
        _read(spec, "kind", {"isSend": "0", "talker": "wxid_pal", **row})


def test_a_group_message_without_its_sender_keeps_no_body(spec: ProbeSpec) -> None:
    row = {"type": "1", "isSend": "0", "talker": "1234@chatroom", "content": "no sender"}
    with pytest.raises(NotKept):
        _read(spec, "body", row)


@pytest.mark.parametrize("part", ["kind", "body", "amount"])
def test_a_row_with_a_null_column_keeps_nothing_of_it(spec: ProbeSpec, part: str) -> None:
    fm = next(f for f in spec.fields if f.field == part)
    with pytest.raises(NotKept):
        fm.codec.decode(None)


def _sql(value: str | None) -> str:
    if value is None:
        return "NULL"
    quoted = "'" + value.replace("'", "''") + "'"
    return f"replace({quoted},'\\n',char(10))" if "\n" in value else quoted


def _output(spec: ProbeSpec, messages: list[dict[str, Any]]) -> str:
    """What `sqlite3 -header -quote` prints for the messages."""
    rows = [stored(m) | {"createTime": "1772442000"} for m in messages]
    lines = [",".join(f"'{c}'" for c in spec.columns)]
    lines += [",".join(_sql(r[c]) for c in spec.columns) for r in rows]
    return "\n".join(lines) + "\n"


def test_a_row_that_keeps_no_body_leaves_it_out_of_its_record(
    compiled: ir.CompiledTask, spec: ProbeSpec
) -> None:
    def unused(argv: tuple[str, ...]) -> str:
        raise AssertionError(argv)

    words = _message("text", "it's done,\nsee you")
    read = records_of(spec, _output(spec, [words, _message("file", "a.pdf")]), unused)
    assert [(r["kind"], r["body"]) for r in read] == [
        ("text", "it's done,\nsee you"),
        ("file", "a.pdf"),
    ]
    read = records_of(spec, _output(spec, [words, _message("image", "b.jpg")]), unused)
    assert [r["kind"] for r in read] == ["text", "image"]
    assert read[0]["body"] == "it's done,\nsee you" and "body" not in read[1]
    state = WorldSnapshot(apps={"wechat": AppState(collections={"messages": read})})
    lacking = not_kept(compiled, [state])
    assert lacking == {("wechat", "messages", "body")}
    cov = coverage(compiled).partly_read(lacking)
    assert {"kind", "chat", "outgoing"} <= cov.fields[("wechat", "messages")]
    assert "body" not in cov.fields[("wechat", "messages")]
    # ... but read in the records that keep it: a clause they decide is decided
    assert cov.partly[("wechat", "messages")] == {"body"}
    env = Env({}, {}, state, partial=True)
    text = ir.Logic(op="and", left=_is("kind", "text"), right=_is("body", "it's done,\nsee you"))
    image = ir.Logic(op="and", left=_is("kind", "image"), right=_is("body", "b.jpg"))
    assert evaluate(_exists(text), env) is True
    with pytest.raises(Unknown):
        evaluate(_exists(image), env)


def _is(name: str, value: str) -> ir.Compare:
    t = ir.Type(name="text")
    return ir.Compare(
        op="==", left=ir.FieldRef(name=name, type=t), right=ir.Lit(value=value, type=t)
    )


def _exists(where: ir.Expr) -> ir.Quant:
    source = ir.CollectionRef(app="wechat", name="messages")
    return ir.Quant(quantifier="exists", source=source, where=where)


def test_what_the_messages_keep_is_decided_on_a_phone() -> None:
    """A sent file's kind and name are read from its row, so every clause on the messages of
    the file task is decided; an image keeps no file name, so the photo task's clause on
    the name is not."""
    from tasklang.envs.device.differential import run_task

    for task, undecided in [(TASK, set()), ("cross.gallery_share_photo_wechat", {"body"})]:
        cases = run_task(library()[task], 0)
        assert all(c.agrees for c in cases), task
        why = cases[0].unobservable
        on_messages = {w for w in why.values() if "wechat.messages" in w}
        assert {f for f in ("kind", "body") if any(f"`{f}`" in w for w in on_messages)} == (
            undecided
        ), (task, why)


@pytest.mark.parametrize(
    "task",
    [TASK, "cross.wechat_plan_to_calendar", "cross.movie_ticket_to_calendar",
     "cross.yelp_address_wechat"],
)  # fmt: skip
def test_what_wechat_declares_decides_its_guards(task: str, decided_on_a_phone: Any) -> None:
    """Friends, chats' pins and mutes, and transfers change only from their own pages; what
    friends, groups, payees and other devices change by themselves is excused where a guard
    watches WeChat only as part of something larger."""
    decided_on_a_phone(task)


def _renamed(world: WorldSnapshot, **changes: Any) -> WorldSnapshot:
    """``world`` with its first friend changed."""
    out = world.model_copy(deep=True)
    friends = out.apps["wechat"].collections["friends"]
    friends[0] = {**friends[0], **changes}
    return out


def test_a_friend_renaming_themselves_is_no_fault_of_the_agent() -> None:
    """The reference sends the file; a friend changing their own name meanwhile leaves it a
    success, on a phone and in PhoneWorld alike, while a remark the agent changed fails its
    `only ... changed` guard."""
    from tasklang.envs.device.differential import judge, start_reading, step_readings
    from tasklang.envs.phoneworld.episode import run_reference

    compiled = library()[TASK]
    _, traj = run_reference(compiled, 0)
    final = traj.final.snapshot
    assert final is not None
    readings = step_readings(compiled, traj)
    assert readings is not None
    states, start = [r.snapshot for r in readings], start_reading(compiled, traj)
    own = judge(compiled, traj, _renamed(final, nickname="New name"), "own", states, start)
    assert (own.phoneworld, own.device) == (True, True)
    edited = judge(compiled, traj, _renamed(final, remark="Edited"), "remark", states, start)
    assert edited.phoneworld is False and edited.agrees


def test_only_a_transfers_own_pay_sheet_is_a_way_to_make_one() -> None:
    """A mini program's WeChat Pay sheet names its merchant; a transfer's reads "Transfer to"
    and the friend. Paying for a ride proves the transfers unchanged; sending money does not."""
    from tasklang.envs.phoneworld.episode import run_reference
    from tasklang.verifiers.probes import quiet_state

    ride = library()["mini.ride_search_destination"]
    _, traj = run_reference(ride, 0)
    assert any("WeChat Pay" in (s.observation.ui_xml or "") for s in traj.steps)
    assert ("wechat", "transfers") in quiet_state(ride, traj.steps)
    send = library()["wechat.transfer_money"]
    _, traj = run_reference(send, 0)
    assert ("wechat", "transfers") not in quiet_state(send, traj.steps)
