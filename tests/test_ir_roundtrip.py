"""IR -> JSON -> IR round trips, the artifact schema, and span-blind IR equality.

Every compiled library task survives ``model_dump_json`` / ``model_validate_json`` and
``artifact_json`` / ``load_artifact`` unchanged, and its artifact validates against the
checked-in JSON Schema. Hypothesis builds random expression trees to check the same for
every expression node, and that equality ignores spans but nothing else.
"""

from __future__ import annotations

import copy
import functools
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter, ValidationError

from tasklang import ir
from tasklang.artifact import (
    artifact_dict,
    artifact_json,
    checked_in_schema,
    load_artifact,
    schema_json,
)
from tasklang.compiler import Compiler, CompileResult, library_root
from tasklang.source import Span

SCHEMA_FILE = "tasklang/schemas/compiled-task.schema.json"
EXPR = TypeAdapter(ir.Expr)
PLAIN = jsonschema.Draft202012Validator
ONE_OF = PLAIN.VALIDATORS["oneOf"]


def _one_of_by_discriminator(validator: Any, one_of: Any, instance: Any, schema: Any) -> Any:
    """`oneOf` that follows the schema's own `discriminator` to the one branch to check.

    A plain `oneOf` checks every branch in full, which is exponential in the depth of
    nested expressions (see ``test_plain_validation_is_not_exponential``).
    """
    disc = schema.get("discriminator")
    if not (disc and validator.is_type(instance, "object")):
        yield from ONE_OF(validator, one_of, instance, schema)
        return
    mapping = disc["mapping"]
    tag = instance.get(disc["propertyName"])
    target = mapping.get(tag) if isinstance(tag, str) else None
    if target is None:
        yield jsonschema.ValidationError(
            f"{disc['propertyName']} {tag!r} is not one of {sorted(mapping)}"
        )
        return
    assert {"$ref": target} in one_of, target
    yield from validator.descend(instance, {"$ref": target})


DISCRIMINATED = jsonschema.validators.extend(PLAIN, {"oneOf": _one_of_by_discriminator})


@functools.cache
def library() -> CompileResult:
    return Compiler().compile_paths([library_root()])


def library_task_ids() -> list[str]:
    return [c.task.id for c in library().tasks]


def compiled(task_id: str) -> ir.CompiledTask:
    return next(c for c in library().tasks if c.task.id == task_id)


@pytest.fixture(scope="module")
def schema(repo_root: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((repo_root / SCHEMA_FILE).read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(data)
    return data


# ---------------------------------------------------------------- the library
def test_library_compiles_every_task() -> None:
    result = library()
    declared = sum(
        len(re.findall(r"^task\s", p.read_text(encoding="utf-8"), re.M))
        for p in library_root().rglob("*.task")
    )
    errors = [f"{d.span.label}: {d.code} {d.message}" for d in result.diagnostics if d.is_error]
    assert not errors and not result.failed, errors
    assert declared >= 15 and len(result.tasks) == declared


@pytest.mark.parametrize("task_id", library_task_ids())
def test_task_json_round_trip(task_id: str) -> None:
    task = compiled(task_id).task
    back = ir.Task.model_validate_json(task.model_dump_json())
    assert back == task
    assert back.model_dump() == task.model_dump()  # spans survive too


@pytest.mark.parametrize("task_id", library_task_ids())
def test_artifact_round_trip(task_id: str, schema: dict[str, Any]) -> None:
    c = compiled(task_id)
    text = artifact_json(c)
    data = json.loads(text)
    DISCRIMINATED(schema).validate(data)
    back = load_artifact(text)
    assert back.task == c.task
    assert back.apps == c.apps
    assert back.source == c.source
    assert artifact_json(back) == text  # loading loses nothing the artifact holds


@pytest.mark.parametrize("task_id", library_task_ids())
def test_artifact_keeps_spans_on_clauses_only(task_id: str) -> None:
    c = compiled(task_id)
    data = artifact_dict(c)
    clauses = data["task"]["clauses"]
    assert clauses
    for clause in clauses:
        span = Span.model_validate(clause.pop("span"))
        assert span.file == c.source.path and span.line >= 1
    assert not list(span_keys(data))  # (a record field may be called "span": not a key)


def span_keys(value: Any, path: str = "") -> Iterator[str]:
    """Where a dict in ``value`` has a ``span`` key."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k == "span":
                yield path
            yield from span_keys(v, f"{path}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from span_keys(v, f"{path}[{i}]")


def test_schema_file_is_generated() -> None:
    assert checked_in_schema("compiled-task") == schema_json("compiled-task")


def smallest_artifacts(count: int) -> list[dict[str, Any]]:
    data = [artifact_dict(c) for c in library().tasks]
    return sorted(data, key=lambda d: len(json.dumps(d)))[:count]


def test_plain_validator_accepts_small_artifacts(schema: dict[str, Any]) -> None:
    """The standard Draft 2020-12 validator, without the discriminator shortcut."""
    for data in smallest_artifacts(3):
        PLAIN(schema).validate(data)


@pytest.mark.parametrize("validator", [PLAIN, DISCRIMINATED], ids=["plain", "discriminated"])
def test_schema_rejects_broken_artifacts(validator: Any, schema: dict[str, Any]) -> None:
    check = validator(schema)
    good = smallest_artifacts(1)[0]
    assert check.is_valid(good)
    broken: list[dict[str, Any]] = []
    for path, value in [
        (("task", "kind"), "phone"),
        (("format",), "something-else"),
        (("task", "clauses", 0, "body", "node"), "telepathy"),
        (("task", "clauses", 0, "id"), 7),
        (("task", "budget", "steps"), "many"),
        (("unexpected",), 1),
    ]:
        data = copy.deepcopy(good)
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        broken.append(data)
    missing = copy.deepcopy(good)
    del missing["task"]
    broken.append(missing)
    for data in broken:
        assert not check.is_valid(data)
        with pytest.raises(ValidationError):
            load_artifact(json.dumps(data))


class _Budget(Exception):
    pass


def json_nodes(data: Any) -> int:
    if isinstance(data, dict):
        return 1 + sum(json_nodes(v) for v in data.values())
    if isinstance(data, list):
        return 1 + sum(json_nodes(v) for v in data)
    return 1


def test_plain_validation_is_not_exponential(schema: dict[str, Any]) -> None:
    """Validating `C has { 6 items }` costs ~77000 `properties` checks (x3 per item)."""
    items = ", ".join(['label == "x"'] * 6)
    text = (
        'task deep.has {\n  kind app\n  apps clock\n  goal "Hi"\n'
        f"  expect {{ clock.alarms has {{ {items} }} }}\n  budget 3 steps\n}}\n"
    )
    data = artifact_dict(Compiler().compile_text(text).tasks[0])
    budget = 20 * json_nodes(data)  # generous: linear in the artifact's size
    calls = 0
    properties = PLAIN.VALIDATORS["properties"]

    def counting(validator: Any, props: Any, instance: Any, schema: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls > budget:
            raise _Budget
        yield from properties(validator, props, instance, schema)

    counted = jsonschema.validators.extend(PLAIN, {"properties": counting})
    try:
        counted(schema).validate(data)
    except _Budget:
        pytest.fail(f"more than {budget} `properties` checks for {json_nodes(data)} JSON nodes")


@pytest.mark.parametrize("length", [200, 260])
def test_long_conjunction_compiles_to_a_readable_artifact(length: int) -> None:
    """Compile errors are fine (TL0007); an artifact that cannot round-trip is not."""
    text = (
        'task deep.chain {\n  kind app\n  apps clock\n  goal "Hi"\n'
        f"  expect {{ {' and '.join(['true'] * length)} }}\n  budget 3 steps\n}}\n"
    )
    result = Compiler().compile_text(text, path="input.task")
    for c in result.tasks:
        assert load_artifact(artifact_json(c)).task == c.task


# ---------------------------------------------------------------- random expressions
names = st.from_regex(r"[a-z_][a-z0-9_]{0,6}", fullmatch=True)
spans = st.one_of(
    st.none(),
    st.builds(
        Span,
        file=st.sampled_from(["a.task", "b/c.app", "<input>"]),
        line=st.integers(1, 10_000),
        column=st.integers(1, 500),
        end_line=st.integers(1, 10_000),
        end_column=st.integers(1, 500),
        start=st.integers(0, 10**6),
        end=st.integers(0, 10**6),
    ),
)
scalar_types = st.sampled_from((*ir.SCALAR_TYPES, "answer", "any", "null"))
types = st.one_of(
    st.none(),
    st.builds(ir.Type, name=scalar_types, optional=st.booleans()),
    st.builds(ir.Type, name=st.just("enum"), members=st.lists(names, min_size=1).map(tuple)),
    st.builds(ir.Type, name=st.just("record"), record=names.map(lambda n: f"app.{n}")),
    st.builds(ir.Type, name=st.just("list"), item=st.builds(ir.Type, name=scalar_types)),
)


def plain_values(distinct: bool) -> st.SearchStrategy[Any]:
    """Literal values; ``distinct`` leaves out numbers Python equates with others (1 == True)."""
    if distinct:
        ints = st.integers().filter(lambda i: i not in (0, 1))
        floats = st.floats(allow_nan=False, allow_infinity=False).filter(
            lambda f: not f.is_integer()
        )
    else:
        ints = st.integers(-(2**63), 2**63)
        floats = st.floats(allow_nan=False, allow_infinity=False)
    scalars = st.one_of(st.none(), st.booleans(), ints, floats, st.text(max_size=8))
    return st.recursive(
        scalars,
        lambda inner: st.one_of(
            st.lists(inner, max_size=3), st.dictionaries(names, inner, max_size=3)
        ),
        max_leaves=6,
    )


def leaves(distinct: bool) -> st.SearchStrategy[Any]:
    common = {"type": types, "span": spans}
    return st.one_of(
        st.builds(ir.Lit, value=plain_values(distinct), **common),
        st.builds(ir.Param, name=names, **common),
        st.builds(ir.FieldRef, name=names, **common),
        st.builds(ir.CollectionRef, app=names, name=names, **common),
        st.builds(ir.SettingRef, app=names, name=names, **common),
        st.builds(ir.Now, **common),
        st.builds(ir.AnswerRef, **common),
    )


def branches(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    common = {"type": types, "span": spans}
    maybe = st.one_of(st.none(), children)
    return st.one_of(
        st.builds(
            ir.Compare,
            op=st.sampled_from(["==", "!=", "<", "<=", ">", ">=", "~", "in", "contains"]),
            left=children,
            right=children,
            within=maybe,
            fuzzy=st.one_of(st.none(), st.floats(0.01, 1)),
            unordered=st.booleans(),
            exact=st.booleans(),
            **common,
        ),
        st.builds(
            ir.Logic,
            op=st.sampled_from(["and", "or", "implies"]),
            left=children,
            right=children,
            **common,
        ),
        st.builds(ir.Not, operand=children, **common),
        st.builds(ir.Neg, operand=children, **common),
        st.builds(
            ir.Quant,
            quantifier=st.sampled_from(["exists", "none", "all"]),
            source=children,
            where=maybe,
            **common,
        ),
        st.builds(ir.Count, source=children, where=maybe, **common),
        st.builds(
            ir.Aggregate,
            fn=st.sampled_from(["sum", "min", "max", "avg"]),
            source=children,
            where=maybe,
            field=names,
            **common,
        ),
        st.builds(ir.ListExpr, items=st.lists(children, max_size=3), **common),
        st.builds(
            ir.Arith,
            op=st.sampled_from(["+", "-", "*", "/"]),
            left=children,
            right=children,
            **common,
        ),
        st.builds(ir.FieldRef, base=children, name=names, **common),
    )


def exprs(distinct: bool = False) -> st.SearchStrategy[Any]:
    return st.recursive(leaves(distinct), branches, max_leaves=12)


def canonical(e: Any) -> str:
    return json.dumps(ir.strip_spans(e.model_dump(mode="json")), sort_keys=True)


def respan(e: Any, rng: random.Random) -> Any:
    """The same tree with every span replaced by a random one (or none)."""

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            out = {k: walk(v) for k, v in node.items()}
            if "span" in node:
                line = rng.randint(1, 99)
                out["span"] = rng.choice(
                    [None, {"file": "x.task", "line": line, "column": 2, "end_line": line}]
                )
            return out
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node

    return EXPR.validate_python(walk(e.model_dump()))


def change_one_thing(e: Any, rng: random.Random) -> Any:
    """The tree with one name, operator or value changed."""
    data = e.model_dump()
    sites: list[tuple[dict[str, Any], str, Any]] = []
    other_op = {"==": "!=", "!=": "==", "and": "or", "or": "and", "implies": "and", "+": "-"}
    other_op |= {"-": "+", "*": "/", "/": "*", "<": ">", ">": "<", "<=": ">=", ">=": "<="}
    other_op |= {"~": "==", "in": "contains", "contains": "in", "matches": "=="}

    def collect(node: Any) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("name", "app", "field") and isinstance(value, str):
                    sites.append((node, key, value + "_x"))
                elif key == "op" and value in other_op:
                    sites.append((node, key, other_op[value]))
                elif key == "value" and node.get("node") == "lit":
                    sites.append((node, key, ["changed", value]))
                elif key == "quantifier":
                    sites.append((node, key, "all" if value != "all" else "none"))
                elif key not in ("span", "type"):
                    collect(value)
        elif isinstance(node, list):
            for item in node:
                collect(item)

    collect(data)
    if not sites:  # Now and AnswerRef have nothing to change: wrap instead
        return ir.Not(operand=e)
    node, key, value = rng.choice(sites)
    node[key] = value
    return EXPR.validate_python(data)


@settings(max_examples=300, deadline=None)
@given(exprs())
def test_expression_json_round_trip(e: Any) -> None:
    back = EXPR.validate_json(e.model_dump_json())
    assert type(back) is type(e)
    assert back == e
    assert back.model_dump() == e.model_dump()  # spans and types survive
    assert EXPR.validate_json(back.model_dump_json()).model_dump() == e.model_dump()


@settings(max_examples=150, deadline=None)
@given(exprs(), st.randoms(use_true_random=False))
def test_equality_ignores_spans(e: Any, rng: random.Random) -> None:
    other = respan(e, rng)
    assert other == e and e == other
    assert canonical(other) == canonical(e)


@settings(max_examples=150, deadline=None)
@given(exprs(), st.randoms(use_true_random=False))
def test_equality_sees_every_other_change(e: Any, rng: random.Random) -> None:
    changed = change_one_thing(e, rng)
    assert canonical(changed) != canonical(e)
    assert changed != e and e != changed


@settings(max_examples=150, deadline=None)
@given(exprs(distinct=True), exprs(distinct=True))
def test_equality_agrees_with_the_json(a: Any, b: Any) -> None:
    assert (a == b) == (canonical(a) == canonical(b))
    assert a == EXPR.validate_json(a.model_dump_json())


def test_equality_is_by_value_not_identity() -> None:
    lit = ir.Lit(value=3, type=ir.Type(name="int"), span=Span(line=4))
    assert lit == ir.Lit(value=3, type=ir.Type(name="int"))
    assert lit != ir.Lit(value=3, type=ir.Type(name="money"))
    assert lit != ir.Lit(value="3", type=ir.Type(name="int"))
    assert ir.Param(name="a") != ir.FieldRef(name="a")
