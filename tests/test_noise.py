"""Noise records (`given { C += noise N [where P] }`): realistic, valid, and inert.

Inert: a noise record never changes the value of a quantifier, count or aggregate with a
`where` over its collection, and never shares the key or a goal-interpolated field with the
record chosen for a parameter. Every property is checked on the library tasks for many seeds,
and on small tasks written for the purpose.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tasklang import ir
from tasklang.compiler import Compiler
from tasklang.noise import (
    NoiseError,
    collect_filters,
    describe,
    key_canon,
    locale_of,
    phone_for,
    plan_for,
    record_kind,
)
from tasklang.sampling import SamplingError, sample_instance
from tasklang.verifiers.compare import norm_text, phone_digits, to_datetime
from tasklang.verifiers.evaluate import Env, EvalError, evaluate
from tasklang.verifiers.state import BuiltState, build_state, initial_state

ROOT = Path(__file__).resolve().parent.parent
SEEDS = range(25)


@cache
def library() -> dict[str, ir.CompiledTask]:
    result = Compiler().compile_paths([ROOT / "task_library"])
    assert result.ok
    return {c.task.id: c for c in result.tasks}


def compile_one(text: str) -> ir.CompiledTask:
    result = Compiler().compile_text(text, "test.task")
    errors = [d.message for d in result.diagnostics if d.is_error]
    assert result.ok and len(result.tasks) == 1, errors
    return result.tasks[0]


def noisy_tasks() -> list[str]:
    return sorted(
        tid
        for tid, c in library().items()
        if any(isinstance(op, ir.NoiseOp) for op in c.task.given.ops)
    )


def built(compiled: ir.CompiledTask, seed: int) -> tuple[dict[str, Any], BuiltState]:
    """An instance's parameters and its state rebuilt with the noise records marked."""
    inst = sample_instance(compiled, seed)
    rebuilt = build_state(compiled, inst.params, random.Random(f"noise#{seed}"))
    return inst.params, rebuilt


def noise_records(
    compiled: ir.CompiledTask, state: BuiltState
) -> list[tuple[ir.NoiseOp, list[dict[str, Any]]]]:
    ops = compiled.task.given.ops
    out = []
    for index, records in state.noise.items():
        op = ops[index]
        assert isinstance(op, ir.NoiseOp)
        out.append((op, records))
    return out


def record_def(compiled: ir.CompiledTask, target: ir.Expr) -> ir.RecordDef:
    assert isinstance(target, ir.CollectionRef)
    app = compiled.apps[target.app]
    cdef = app.collection(target.name)
    assert cdef is not None
    rdef = app.record(cdef.record)
    assert rdef is not None
    return rdef


# ---------------------------------------------------------------- library tasks
def test_the_library_has_noise_to_test() -> None:
    assert len(noisy_tasks()) >= 10


@pytest.mark.parametrize("task_id", noisy_tasks())
def test_noise_is_generated_with_its_count(task_id: str) -> None:
    compiled = library()[task_id]
    inst = sample_instance(compiled, 3)
    expected: dict[str, int] = {}
    for op in compiled.task.given.ops:
        if isinstance(op, ir.NoiseOp):
            assert isinstance(op.target, ir.CollectionRef)
            name = f"{op.target.app}.{op.target.name}"
            expected[name] = expected.get(name, 0) + op.count
    assert inst.noise == expected
    assert not any("noise" in n for n in inst.notes), inst.notes


@pytest.mark.parametrize("task_id", noisy_tasks())
def test_noise_records_satisfy_their_where(task_id: str) -> None:
    compiled = library()[task_id]
    for seed in SEEDS:
        params, state = built(compiled, seed)
        for op, records in noise_records(compiled, state):
            assert len(records) == op.count
            if op.where is None:
                continue
            for rec in records:
                env = Env(compiled.apps, params, state.snapshot, None, rec)
                assert evaluate(op.where, env), (describe(op.where), rec)


@pytest.mark.parametrize("task_id", noisy_tasks())
def test_keys_are_unique_in_every_collection(task_id: str) -> None:
    compiled = library()[task_id]
    for seed in SEEDS:
        inst = sample_instance(compiled, seed)
        for app_name, app in compiled.apps.items():
            for cdef in app.collections:
                rdef = app.record(cdef.record)
                key = next((f for f in rdef.fields if f.key), None) if rdef else None
                if key is None:
                    continue
                records = inst.initial.apps[app_name].collections.get(cdef.name, [])
                keys = [key_canon(r.get(key.name), key.type.name) for r in records]
                assert len(keys) == len(set(keys)), (app_name, cdef.name, keys)


@pytest.mark.parametrize("task_id", noisy_tasks())
def test_noise_leaves_every_filtered_quantifier_unchanged(task_id: str) -> None:
    """The `where` of exists/none/count/aggregates is false on noise; of `all`, true."""
    compiled = library()[task_id]
    filters = collect_filters(compiled.task)
    for seed in SEEDS:
        params, state = built(compiled, seed)
        for op, records in noise_records(compiled, state):
            assert isinstance(op.target, ir.CollectionRef)
            for f in filters.get((op.target.app, op.target.name), ()):
                for rec in records:
                    env = Env(compiled.apps, params, state.snapshot, None, rec)
                    assert bool(evaluate(f.where, env)) is f.want, (f.origin, rec)


@pytest.mark.parametrize("task_id", noisy_tasks())
def test_noise_differs_from_record_parameters(task_id: str) -> None:
    """No noise record shares the key, or a field the goal shows, with a chosen record."""
    compiled = library()[task_id]
    task = compiled.task
    shown = {
        (p.expr.base.name, p.expr.name)
        for p in task.goal.parts
        if isinstance(p.expr, ir.FieldRef) and isinstance(p.expr.base, ir.Param)
    }
    for seed in SEEDS:
        params, state = built(compiled, seed)
        for op, records in noise_records(compiled, state):
            rdef = record_def(compiled, op.target)
            key = next((f.name for f in rdef.fields if f.key), None)
            for p in task.params:
                d = p.domain
                if not isinstance(d, ir.RecordDomain) or d.source != op.target:
                    continue
                fields = {f for name, f in shown if name == p.name} | ({key} if key else set())
                for rec in records:
                    for f in fields:
                        assert norm_text(rec[f]) != norm_text(params[p.name][f]), (p.name, f)


def test_no_noise_contact_is_named_like_the_new_coworker() -> None:
    compiled = library()["contacts.add_coworker"]
    for seed in range(60):
        inst = sample_instance(compiled, seed)
        people = inst.initial.apps["contacts"].collections["people"]
        assert len(people) == 13
        named = [p for p in people if norm_text(p["name"]) == norm_text(inst.params["who"])]
        assert named == [], seed


def test_no_noise_place_is_named_like_the_asked_place() -> None:
    compiled = library()["maps.place_address"]
    for seed in range(40):
        inst = sample_instance(compiled, seed)
        places = inst.initial.apps["maps"].collections["places"]
        same = [p for p in places if p["name"] == inst.params["place"]["name"]]
        assert same == [inst.params["place"]]
        assert all(p["category"] not in ("museum", "park") for p in places[3:])


def test_weekday_alarm_noise_cannot_pass_for_the_answer() -> None:
    compiled = library()["clock.weekday_alarm"]
    for seed in range(40):
        inst = sample_instance(compiled, seed)
        wake = dt.time.fromisoformat(inst.params["wake"])
        for alarm in inst.initial.apps["clock"].collections["alarms"][1:]:
            t = dt.time.fromisoformat(alarm["time"])
            gap = abs((t.hour * 60 + t.minute) - (wake.hour * 60 + wake.minute))
            assert gap > 1  # not even `within 1m` of the wake-up time
            assert alarm["label"] != inst.params["title"]
            assert not ("mon" in alarm["repeat"] and "fri" in alarm["repeat"])


FOOD_SPEND = """
task test.food_spend {
  kind mini_app
  apps coffee in wechat
  goal "How much do the food items on the menu cost together?"
  given {
    now 2026-05-14T10:00 tz "Asia/Shanghai"
    coffee.menu += { name: "Croissant", category: "food", price: $3.00 }
    coffee.menu += { name: "Latte", category: "coffee", price: $4.50 }
    coffee.menu += noise 40
  }
  expect {
    answer == sum(coffee.menu where category == "food", price) within $0.01
    all coffee.menu where price <= $20.00
    count(coffee.menu where available and category == "seasonal" and price > $14.00) == 0
  }
  budget 10 steps
}
"""


def test_unfiltered_noise_never_matches_an_aggregate_filter() -> None:
    compiled = compile_one(FOOD_SPEND)
    seen_categories: set[str] = set()
    for seed in range(40):
        inst = sample_instance(compiled, seed)
        menu = inst.initial.apps["coffee"].collections["menu"]
        assert len(menu) == 42
        noise = menu[2:]
        assert all(item["category"] != "food" for item in noise)
        assert all(item["price"] <= 2000 for item in noise)
        seen_categories |= {item["category"] for item in noise}
        total = evaluate(
            compiled.task.clauses[0].body.expr.right,  # type: ignore[union-attr]
            Env(compiled.apps, inst.params, inst.initial),
        )
        assert total == 300
    assert seen_categories >= {"coffee", "tea", "seasonal"}  # the rest stays varied


# ---------------------------------------------------------------- record parameters from noise
FROM_NOISE = """
task test.call_from_noise {
  kind app
  apps contacts
  goal "Call {who.name} and tell them about {other}."
  params {
    other: person_name
    who: one of contacts.people where starred
  }
  given {
    contacts.people += noise 10
    contacts.people += { name: "Zed Last", phone: "+1 415 555 0100" }
  }
  expect {
    count(contacts.people where name == who.name) == 1
    none contacts.people where name == other
  }
  budget 5 steps
}
"""


def test_a_record_parameter_can_come_from_noise() -> None:
    compiled = compile_one(FROM_NOISE)
    for seed in range(30):
        inst = sample_instance(compiled, seed)
        people = inst.initial.apps["contacts"].collections["people"]
        assert len(people) == 11
        assert people[-1]["name"] == "Zed Last"  # the order of the operations is kept
        who = inst.params["who"]
        assert who["starred"] is True and who in people[:10]
        assert [p["name"] for p in people].count(who["name"]) == 1
        assert all(norm_text(p["name"]) != norm_text(inst.params["other"]) for p in people)


# ---------------------------------------------------------------- failures are explained
IMPOSSIBLE = """
task test.impossible_noise {
  kind app
  apps contacts
  goal "Look at your contacts."
  given { contacts.people += noise 3 where group == "work" }
  expect {
    none contacts.people where group == "work"
  }
  budget 5 steps
}
"""


def test_noise_that_cannot_be_inert_is_an_error_naming_the_clause() -> None:
    compiled = compile_one(IMPOSSIBLE)
    with pytest.raises(SamplingError) as err:
        sample_instance(compiled, 0)
    text = str(err.value)
    assert "contacts.people" in text
    assert "none contacts.people where group ==" in text
    assert "test.impossible_noise" in text


def test_a_where_that_excludes_every_enum_member_is_an_error() -> None:
    compiled = compile_one(
        IMPOSSIBLE.replace('where group == "work"', 'where group != "work"', 1).replace(
            'none contacts.people where group == "work"', "exists contacts.people"
        )
    )
    assert sample_instance(compiled, 0).noise == {"contacts.people": 3}
    compiled = compile_one(
        IMPOSSIBLE.replace(
            'where group == "work"',
            'where not group in ["family", "friends", "work", "classmates", "other"]',
            1,
        ).replace('none contacts.people where group == "work"', "exists contacts.people")
    )
    with pytest.raises(SamplingError, match=r"excludes every value of `group`"):
        sample_instance(compiled, 0)


def test_noise_error_from_build_state_names_the_collection() -> None:
    compiled = compile_one(IMPOSSIBLE)
    with pytest.raises(NoiseError, match=r"contacts\.people"):
        build_state(compiled, {}, random.Random(1))
    snap, notes = initial_state(compiled, {}, random.Random(1))  # noted, not raised
    assert snap.apps["contacts"].collections["people"] == []
    assert any("cannot generate noise record 1 of 3 for contacts.people" in n for n in notes)


# ---------------------------------------------------------------- state building
def test_initial_state_without_a_generator_leaves_noise_out() -> None:
    compiled = library()["contacts.add_coworker"]
    params = sample_instance(compiled, 0).params
    snap, notes = initial_state(compiled, params)
    assert len(snap.apps["contacts"].collections["people"]) == 1
    assert any("12 noise record(s) for contacts.people" in n for n in notes)
    snap, notes = initial_state(compiled, params, random.Random(5))
    people = snap.apps["contacts"].collections["people"]
    assert len(people) == 13 and people[0]["name"] == "Alice Moreau"
    assert notes == []


def test_explicit_records_that_read_a_record_parameter_are_built() -> None:
    compiled = library()["cross.alarm_from_message"]
    for seed in range(10):
        inst = sample_instance(compiled, seed)
        received = inst.initial.apps["messages"].collections["received"]
        assert received[0]["from"] == inst.params["friend"]["phone"]
        assert received[0]["body"] == inst.params["slot"]["said"]
        assert len(received) == 6 and all(r["read"] for r in received[1:])
        assert inst.notes == []


def test_generation_is_deterministic() -> None:
    compiled = library()["cross.share_place_address"]
    a = build_state(compiled, sample_instance(compiled, 1).params, random.Random("x"))
    b = build_state(compiled, sample_instance(compiled, 1).params, random.Random("x"))
    c = build_state(compiled, sample_instance(compiled, 1).params, random.Random("y"))
    assert a.snapshot.model_dump() == b.snapshot.model_dump()
    assert a.snapshot.model_dump() != c.snapshot.model_dump()


def test_many_noise_records_keep_unique_keys() -> None:
    compiled = compile_one(
        """
task test.many_networks {
  kind app
  apps settings
  goal "Look at the Wi-Fi networks."
  given { settings.wifi_networks += noise 300 }
  expect { exists settings.wifi_networks }
  budget 5 steps
}
"""
    )
    inst = sample_instance(compiled, 0)
    ssids = [
        norm_text(n["ssid"]) for n in inst.initial.apps["settings"].collections["wifi_networks"]
    ]
    assert len(ssids) == 300 == len(set(ssids))


def test_the_plan_is_cached_per_compiled_object() -> None:
    compiled = library()["contacts.add_coworker"]
    assert plan_for(compiled) is plan_for(compiled)
    copy = compiled.model_copy(deep=True)
    assert plan_for(copy) is not plan_for(compiled)
    plan = plan_for(compiled)
    people = plan.collections[("contacts", "people")]
    assert people.kind == "person" and people.key is not None and people.key.name == "name"
    # the four filtered quantifiers over people all hold `name == who`: one check suffices
    assert len(collect_filters(compiled.task)[("contacts", "people")]) == 4
    assert [f.origin.split(": ")[-1] for f in people.filters] == [
        "`count(contacts.people where name == who)`"
    ]


# ---------------------------------------------------------------- realistic values
def all_noise(task_ids: list[str]) -> list[tuple[ir.CompiledTask, ir.RecordDef, dict[str, Any]]]:
    out = []
    for tid in task_ids:
        compiled = library()[tid]
        for seed in range(8):
            _, state = built(compiled, seed)
            for op, records in noise_records(compiled, state):
                rdef = record_def(compiled, op.target)
                out.extend((compiled, rdef, r) for r in records)
    return out


def test_values_fit_their_types() -> None:
    nulls = 0
    for _compiled, rdef, rec in all_noise(noisy_tasks()):
        assert list(rec) == [f.name for f in rdef.fields]
        for f in rdef.fields:
            value = rec[f.name]
            t = f.type
            if value is None:
                assert t.optional, (rdef.name, f.name)
                nulls += 1
                continue
            if t.name == "enum":
                assert value in (t.members or ())
            elif t.name == "list":
                assert isinstance(value, list)
                if t.item is not None and t.item.name == "enum":
                    assert set(value) <= set(t.item.members or ())
            elif t.name == "bool":
                assert isinstance(value, bool)
            elif t.name in ("int", "money", "duration"):
                assert isinstance(value, int) and not isinstance(value, bool)
            elif t.name == "number":
                assert isinstance(value, (int, float))
            elif t.name == "phone":
                assert len(phone_digits(value)) >= 10 and value.startswith("+")
            elif t.name == "email":
                assert re.fullmatch(r"[a-z0-9.]+@[a-z0-9-]+\.[a-z.]+", value), value
            elif t.name == "date":
                dt.date.fromisoformat(value)
            elif t.name == "time":
                dt.time.fromisoformat(value)
            elif t.name == "datetime":
                dt.datetime.fromisoformat(value)
            else:
                assert isinstance(value, str)
                assert value.strip() or (f.has_default and value == f.default), f.name
    assert nulls > 0  # optional fields are sometimes null


def test_values_look_like_what_their_field_names_say() -> None:
    records = all_noise(noisy_tasks())
    people = [r for _, d, r in records if d.name == "Person"]
    assert people and all(
        re.fullmatch(r"[A-Z][a-z]+( [A-Z]\.)? [A-Z][a-z]+", p["name"]) for p in people
    )
    docs = [r for _, d, r in records if d.name == "Document"]
    assert docs and all(d["path"] == f"/sdcard/{d['folder']}/{d['name']}" for d in docs)
    assert all(d["size"] > 0 for d in docs)
    images = [d for d in docs if d["kind"] == "image"]
    assert all(re.search(r"\.(jpe?g|png|webp)$", d["name"]) for d in images)
    places = [r for _, d, r in records if d.name == "Place"]
    assert places and all(1.0 <= p["rating"] <= 5.0 for p in places)
    for p in places:
        if p["opens"] and p["closes"]:
            assert p["opens"] < p["closes"]
    alarms = [r for _, d, r in records if d.name == "Alarm"]
    assert alarms and all(a["time"].endswith(":00") for a in alarms)


def test_past_timestamps_are_before_the_clock_and_phones_follow_the_time_zone() -> None:
    compiled = library()["messages.reply_unread"]
    for seed in range(10):
        inst = sample_instance(compiled, seed)
        clock = to_datetime(inst.initial.clock)
        assert clock is not None
        for msg in inst.initial.apps["messages"].collections["received"][1:]:
            moment = to_datetime(msg["timestamp"])
            assert moment is not None and moment < clock
            assert clock - moment < dt.timedelta(days=31)
            assert msg["from"].startswith("+44 ")  # a London task: British numbers
    assert locale_of("Asia/Shanghai") == "CN" and locale_of(None) == "US"
    assert phone_for("CN", random.Random(1)).startswith("+86 1")


def test_record_kinds() -> None:
    apps = library()["cross.send_file_wechat"].apps
    kinds = {r.name: record_kind(r) for app in apps.values() for r in app.records}
    assert kinds["Document"] == "file" and kinds["Friend"] == "person"


def test_evaluation_errors_reject_a_candidate() -> None:
    compiled = compile_one(
        """
task test.needs_answer {
  kind app
  apps contacts
  goal "Who is the oldest contact?"
  given { contacts.people += noise 4 }
  expect { exists contacts.people where birthday < now }
  budget 5 steps
}
"""
    )
    # no clock: `now` cannot be evaluated, so no candidate can be shown inert
    with pytest.raises(SamplingError, match=r"cannot be evaluated"):
        sample_instance(compiled, 0)
    with pytest.raises(EvalError):
        evaluate(ir.Now(), Env({}, {}, initial_state(compiled, {})[0]))
