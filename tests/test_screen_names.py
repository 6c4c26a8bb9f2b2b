"""A screen spot that shows a record of another collection by its name (`names COLLECTION by
F or G`): the language, what a reading makes of a name, and the checker deciding on the key it
reads (WeChat's bills name the payee of a transfer; the transfer keeps the friend's WeChat ID)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tasklang import ir
from tasklang.compiler import Compiler
from tasklang.envs.device.differential import library
from tasklang.envs.device.probes import coverage
from tasklang.envs.device.screens import Named, resolve_names, screen_specs
from tasklang.envs.phoneworld.episode import run_reference
from tasklang.fmt import format_source
from tasklang.source import SourceFile

APP = """\
app shop_demo {
  package "com.example.shop"
  record Customer { id: text key  name: text  nickname: text?  age: int = 0 }
  record Basket { items: int = 0 }
  record Order { number: text key  buyer: text  count: int = 0 }
  collection customers: Customer
  collection baskets: Basket
  collection orders: Order
  settings { owner: text = "" }
  probe customers: sqlite "/data/data/com.example.shop/databases/shop.db" table "customers" {
    id = "id",
    name = "name",
    nickname = "nickname",
  }
  probe orders: screen rows id "order" {
    number = id "number",
    buyer = %s,
  }
}
"""
BUYER = 'id "buyer" format "Bought by {}" names customers by nickname or name'


def _compile(buyer: str) -> tuple[ir.AppModel | None, list[str]]:
    result = Compiler().compile_text(APP % buyer, path="shop.app")
    return result.apps.get("shop_demo"), [d.message for d in result.diagnostics]


# ---------------------------------------------------------------- the language
def test_names_reach_the_probe_and_the_formatter_keeps_them() -> None:
    app, diagnostics = _compile(BUYER)
    assert diagnostics == [] and app is not None
    [orders] = [p for p in app.probes if p.target == "orders"]
    names = orders.spots["buyer"].names
    assert names is not None and (names.collection, names.by) == ("customers", ["nickname", "name"])
    once, _ = format_source(SourceFile("shop.app", APP % BUYER))
    assert "names customers by nickname or name," in once
    assert format_source(SourceFile("shop.app", once))[0] == once


@pytest.mark.parametrize(
    ("buyer", "message"),
    [
        ('id "b" names clients by name', "has no collection `clients`"),
        ('id "b" names baskets by items', "have no key for field `buyer` to read"),
        ('id "b" names customers by title', "record `Customer` has no field `title`"),
        ('id "b" names customers by age', "field `age` of `Customer` is `int`: a name is text"),
        ('id "b" names customers by name or name', "a field is named twice"),
    ],
)
def test_names_that_cannot_be_read_are_errors(buyer: str, message: str) -> None:
    _, diagnostics = _compile(buyer)
    assert any(message in d for d in diagnostics), diagnostics


def test_the_key_and_a_setting_are_not_read_as_names() -> None:
    text = (APP % 'id "b"').replace(
        'number = id "number"', 'number = id "n" names customers by name'
    )
    result = Compiler().compile_text(text, path="shop.app")
    assert any("is the key" in d.message for d in result.diagnostics)
    setting = (APP % 'id "b"').replace(
        "\n}\n", '\n  probe owner: screen value id "owner" names customers by name\n}\n'
    )
    result = Compiler().compile_text(setting, path="shop.app")
    assert any("`names` reads a record's key for a field" in d.message for d in result.diagnostics)


def test_a_field_of_another_type_cannot_hold_the_keys() -> None:
    text = (APP % BUYER).replace("buyer: text", "buyer: int")
    result = Compiler().compile_text(text, path="shop.app")
    assert any("cannot hold their keys" in d.message for d in result.diagnostics)


# ---------------------------------------------------------------- what a reading makes of a name
def _spec() -> Any:
    app, _ = _compile(BUYER)
    assert app is not None
    compiled = ir.CompiledTask.model_construct(apps={"shop_demo": app})
    [spec] = [s for s in screen_specs(compiled) if s.target == "orders"]
    return spec


CUSTOMERS = [
    {"id": "c1", "name": "Lily Chen", "nickname": None},
    {"id": "c2", "name": "Dan Wu", "nickname": "Dan"},
    {"id": "c3", "name": "Sam", "nickname": ""},
    {"id": "c4", "name": "Samuel", "nickname": "Sam"},
]


@pytest.mark.parametrize(
    ("shown", "read"),
    [
        ("Lily Chen", {"buyer": "c1"}),  # no nickname: by the name
        ("Dan", {"buyer": "c2"}),  # by the nickname first
        ("Dan Wu", {}),  # a name that has a nickname is not shown by its name
        ("Sam", {"buyer~": {"one_of": ["c3", "c4"]}}),  # two customers so named
        ("Nobody", {}),
    ],
)
def test_a_name_reads_the_key_of_the_record_so_named(shown: str, read: dict[str, Any]) -> None:
    spec = _spec()
    [buyer] = [r for r in spec.reads if r.name == "buyer"]
    assert buyer.named_key == "id" and buyer.decode(f"Bought by {shown}") == Named(shown)
    records = [{"number": "A1", "buyer": Named(shown)}]
    resolve_names(spec, records, {"customers": copy.deepcopy(CUSTOMERS)})
    assert records == [{"number": "A1", **read}]


def test_a_forms_value_is_a_key_not_a_name() -> None:
    text = APP % (BUYER.replace(" names", ' or { "You" = "c0", "Guest {*}" = unknown } names'))
    app = Compiler().compile_text(text, path="shop.app").apps["shop_demo"]
    compiled = ir.CompiledTask.model_construct(apps={"shop_demo": app})
    [spec] = [s for s in screen_specs(compiled) if s.target == "orders"]
    [buyer] = [r for r in spec.reads if r.name == "buyer"]
    assert buyer.decode("You") == "c0" and buyer.decode("Bought by Dan") == Named("Dan")


def test_names_read_nothing_where_their_collection_was_not_read() -> None:
    spec = _spec()
    records = [{"number": "A1", "buyer": Named("Lily Chen")}, {"number": "A2", "buyer": None}]
    resolve_names(spec, records, {})
    assert records == [{"number": "A1"}, {"number": "A2", "buyer": None}]


def test_a_name_is_read_in_part_and_only_where_its_collection_is_read() -> None:
    app, _ = _compile(BUYER)
    assert app is not None
    compiled = ir.CompiledTask.model_construct(apps={"shop_demo": app}, task=None)
    cov = coverage(compiled)
    key = ("shop_demo", "orders")
    assert "buyer" in cov.partly[key] and "buyer" not in cov.fields[key]
    # without the names the customers are known by, what the bills name is not known
    bare, _ = _compile(BUYER)
    assert bare is not None
    bare.probes = [p for p in bare.probes if p.target != "customers"]
    cov = coverage(ir.CompiledTask.model_construct(apps={"shop_demo": bare}, task=None))
    assert "buyer" not in cov.partly.get(key, frozenset()) | cov.fields[key]


# ---------------------------------------------------------------- WeChat's bills
def test_a_transfers_payee_is_read_from_its_bill(screens_read: Any) -> None:
    compiled = library()["wechat.transfer_money"]
    _, traj = run_reference(compiled, 0)
    end = traj.final.snapshot
    assert end is not None
    [sent] = end.apps["wechat"].collections["transfers"]
    reading = screens_read(compiled, end)
    assert not reading.unread, reading.unread
    [read] = reading.snapshot.apps["wechat"].collections["transfers"]
    assert read["to"] == sent["to"] and read["amount"] == sent["amount"]


def test_the_checker_decides_whom_the_money_went_to(device_check_of: Any) -> None:
    dv, truth, _ = device_check_of("wechat.transfer_money")
    assert truth.success and "c1" not in dv.unobservable
    assert next(r for r in dv.clauses if r.id == "c1").passed

    def elsewhere(world: Any, traj: Any) -> None:
        friends = world.apps["wechat"].collections["friends"]
        [sent] = world.apps["wechat"].collections["transfers"]
        sent["to"] = next(f["wxid"] for f in friends if f["wxid"] not in (sent["to"],))

    dv, truth, _ = device_check_of("wechat.transfer_money", elsewhere)
    assert not truth.success and dv.success is False
    assert not next(r for r in dv.clauses if r.id == "c1").passed
