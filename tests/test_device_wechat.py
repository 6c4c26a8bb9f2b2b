"""WeChat's chat messages as its `message` table keeps them: a row's `type` says what the
message is, its `content` holds the words or an XML document; an image names no file, but its
rows of `ImgInfo2` keep the MD5 of the original sent, which the reading names by the files the
records name. A field a row does not keep (a red packet's amount) leaves the field unread for
the episode, never guessed."""

from __future__ import annotations

from typing import Any

import pytest

from tasklang import ir
from tasklang.envs.device.check import not_kept
from tasklang.envs.device.codec import WECHAT_IMAGE_MD5, FileDigest, NotKept, name_digest
from tasklang.envs.device.differential import library
from tasklang.envs.device.probes import (
    ProbeSpec,
    coverage,
    name_by_digest,
    probe_specs,
    records_of,
)
from tasklang.envs.device.wechat import digests, stored
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
    """A field read from a row's columns, as a probe joins them (a row with no column of its
    rows of `ImgInfo2` has none)."""
    fm = next(f for f in spec.fields if f.field == part)
    return fm.codec.decode(",".join({WECHAT_IMAGE_MD5: "[]", **row}[c] for c in fm.parts))


def _kept(message: dict[str, Any]) -> dict[str, str | None]:
    """The message's row, with what its rows of `ImgInfo2` keep as the probe reads them."""
    return {**stored(message), WECHAT_IMAGE_MD5: digests(message)}


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
    row = _kept(message)
    for part in ("kind", "body", "amount"):
        assert _read(spec, part, row) == message[part], part


def test_an_image_reads_as_the_digest_of_its_original(spec: ProbeSpec) -> None:
    """An image's body is the digest its rows of `ImgInfo2` keep (in any case, repeated or
    not); rows that keep none, or two, keep no body."""
    row = _kept(_message("image", "IMG_0042.jpg"))
    assert row[WECHAT_IMAGE_MD5] == f'["{name_digest("IMG_0042.jpg")}"]'
    assert _read(spec, "body", row) == FileDigest(name_digest("IMG_0042.jpg"))
    md5 = "9E107D9D372BB6826BD81D3542A419D6"
    for kept in (f'["{md5}"]', f'["{md5}", null, "{md5.lower()}"]'):
        assert _read(spec, "body", {**row, WECHAT_IMAGE_MD5: kept}) == FileDigest(md5.lower())
    for kept in ("[]", "[null]", f'["{md5}", "e4d909c290d0fb1ca068ffaddf22cbd0"]'):
        with pytest.raises(NotKept):
            _read(spec, "body", {**row, WECHAT_IMAGE_MD5: kept})
    assert _read(spec, "kind", row) == "image"


@pytest.mark.parametrize("kind", ["voice", "link", "red_packet"])
def test_a_message_that_keeps_no_body_reads_its_kind_only(spec: ProbeSpec, kind: str) -> None:
    row = _kept(_message(kind, "IMG_0042.jpg"))
    assert _read(spec, "kind", row) == kind
    with pytest.raises(NotKept):
        _read(spec, "body", row)
    if kind == "red_packet":  # its amount shows only once it is opened
        with pytest.raises(NotKept):
            _read(spec, "amount", row)
    else:
        assert _read(spec, "amount", row) is None


def _row(code: str, content: str, talker: str = "wxid_pal", sent: str = "1") -> dict[str, str]:
    return {"type": code, "isSend": sent, "talker": talker, "content": content,
            WECHAT_IMAGE_MD5: "[]"}  # fmt: skip


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
    rows = [_kept(m) | {"createTime": "1772442000", "msgId": str(i)}
            for i, m in enumerate(messages, 1)]  # fmt: skip
    columns = [*spec.columns, *spec.link_columns]
    lines = [",".join(f"'{c}'" for c in columns)]
    lines += [",".join(_sql(r[c]) for c in columns) for r in rows]
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
    assert read[0]["body"] == "it's done,\nsee you"
    assert read[1]["body"] == FileDigest(name_digest("b.jpg"))
    state = WorldSnapshot(apps={"wechat": AppState(collections={"messages": read})})
    name_by_digest(state, unused)  # the reading names no file: the image's body is unread
    read = state.apps["wechat"].collections["messages"]
    assert read[0]["body"] == "it's done,\nsee you" and "body" not in read[1]
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


def test_what_the_messages_keep_is_decided_on_a_phone(monkeypatch: pytest.MonkeyPatch) -> None:
    """A sent file's kind and name are read from its row, and a sent photo's name from the
    digest of its original, named by the gallery's files: every clause on the messages of
    both tasks is decided, on their reference end states and on their near misses (another
    photo sent among them). Without the digests named, the photo's name is not."""
    from tasklang.envs.device import probes
    from tasklang.envs.device.differential import run_task

    photo = "cross.gallery_share_photo_wechat"
    for task in (TASK, photo):
        for seed in (0, 1):
            cases = run_task(library()[task], seed)
            assert all(c.agrees and c.device is not None for c in cases), (task, seed, cases)
    cases = {c.name: c for c in run_task(library()[photo], 0)}
    other = cases["change wechat.messages[0].body"]
    assert (other.phoneworld, other.device) == (False, False)

    def unnamed(snap: WorldSnapshot, run: Any) -> None:
        for state in snap.apps.values():
            for recs in state.collections.values():
                for rec in recs:
                    if isinstance(rec.get("body"), FileDigest):
                        del rec["body"]

    monkeypatch.setattr(probes, "name_by_digest", unnamed)
    ref = run_task(library()[photo], 0)[0]
    assert ref.device is None and any("`body`" in w for w in ref.unobservable.values())


def test_a_digest_is_named_by_the_one_file_name_that_has_it() -> None:
    """The files the records name are read once each; a file the phone does not have is
    skipped; a digest two names share, or none has, leaves the field out of its record."""
    a, b = "/sdcard/Pictures/a.jpg", "/sdcard/DCIM/b 'x'.jpg"
    digest = {a: "0" * 32, b: "1" * 32, "/sdcard/Download/a.jpg": "0" * 32}
    ran: list[tuple[str, ...]] = []

    def run(argv: tuple[str, ...]) -> str:
        from tasklang.envs.device.transport import CommandFailed

        ran.append(argv)
        if argv[1] not in digest:
            raise CommandFailed(" ".join(argv), 1, f"md5sum: {argv[1]}: No such file")
        return f"{digest[argv[1]].upper()}  {argv[1]}\n"

    media = [{"path": a}, {"path": b}, {"path": "/sdcard/gone.jpg"}, {"path": b}]
    sent = [{"body": FileDigest("0" * 32)}, {"body": FileDigest("1" * 32)},
            {"body": FileDigest("2" * 32)}]  # fmt: skip
    snap = WorldSnapshot(apps={"gallery": AppState(collections={"media": media}),
                               "wechat": AppState(collections={"messages": sent})})  # fmt: skip
    name_by_digest(snap, run)
    assert snap.apps["wechat"].collections["messages"] == [
        {"body": "a.jpg"}, {"body": "b 'x'.jpg"}, {}
    ]  # fmt: skip
    assert sorted(ran) == sorted(("md5sum", p) for p in (a, b, "/sdcard/gone.jpg"))
    # a copy of a.jpg of the same name is the same photo; one of another name is not told apart
    digest["/sdcard/Download/c.jpg"] = "0" * 32
    for also, named in [("/sdcard/Download/a.jpg", {"body": "a.jpg"}),
                        ("/sdcard/Download/c.jpg", {})]:  # fmt: skip
        media.append({"path": also})
        snap = WorldSnapshot(apps={"gallery": AppState(collections={"media": media}),
                                   "wechat": AppState(collections={"messages": sent[:1]})})  # fmt: skip
        name_by_digest(snap, run)
        assert snap.apps["wechat"].collections["messages"] == [named]


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
