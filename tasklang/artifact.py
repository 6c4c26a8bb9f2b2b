"""Compiled task artifacts as JSON, and the JSON Schemas that describe them."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from pydantic import BaseModel

from tasklang import ir


def _schemas() -> dict[str, type[BaseModel]]:
    from tasklang.verifiers.trajectory import TrajectoryLine
    from tasklang.verifiers.verdict import Verdict

    return {"compiled-task": ir.CompiledTask, "trajectory": TrajectoryLine, "verdict": Verdict}


SCHEMA_NAMES = ("compiled-task", "trajectory", "verdict")


def artifact_dict(compiled: ir.CompiledTask) -> dict[str, Any]:
    """The artifact as plain JSON data: spans kept on clauses only (verdicts cite them)."""
    data = compiled.model_dump(mode="json")
    task = data["task"]
    clause_spans = [c.get("span") for c in task["clauses"]]
    stripped: dict[str, Any] = dict(ir.strip_spans(data))
    for clause, span in zip(stripped["task"]["clauses"], clause_spans, strict=True):
        clause["span"] = span
    return stripped


def artifact_json(compiled: ir.CompiledTask) -> str:
    return json.dumps(artifact_dict(compiled), indent=2, ensure_ascii=False) + "\n"


def load_artifact(text: str) -> ir.CompiledTask:
    """Read an artifact back into IR (raises pydantic.ValidationError on bad input)."""
    return ir.CompiledTask.model_validate_json(text)


def schema_dict(name: str) -> dict[str, Any]:
    """The JSON Schema of an artifact kind (Draft 2020-12)."""
    model = _schemas()[name]
    schema: dict[str, Any] = _tagged_unions(model.model_json_schema())
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = f"tasklang/{name}.schema.json"
    return schema


def _tagged_unions(node: Any) -> Any:
    """Rewrite discriminated ``oneOf`` unions as ``if``/``then`` on the tag.

    A validator tries every ``oneOf`` branch in full, which is exponential in the depth of
    nested expressions; testing the tag first keeps validation linear. The
    ``discriminator`` annotation stays for tools that read it.
    """
    if isinstance(node, list):
        return [_tagged_unions(v) for v in node]
    if not isinstance(node, dict):
        return node
    node = {k: _tagged_unions(v) for k, v in node.items()}
    disc = node.get("discriminator")
    if isinstance(disc, dict) and "oneOf" in node and "mapping" in disc:
        tag = disc["propertyName"]
        mapping: dict[str, str] = disc["mapping"]
        del node["oneOf"]
        node["type"] = "object"
        node["required"] = [tag]
        node["properties"] = {tag: {"enum": sorted(mapping)}}
        node["allOf"] = [
            {"if": {"properties": {tag: {"const": key}}}, "then": {"$ref": ref}}
            for key, ref in sorted(mapping.items())
        ]
    return node


def schema_json(name: str) -> str:
    return json.dumps(schema_dict(name), indent=2, sort_keys=True) + "\n"


def checked_in_schema(name: str) -> str:
    """The schema file shipped with the package (tests compare it with ``schema_json``)."""
    return resources.files("tasklang.schemas").joinpath(f"{name}.schema.json").read_text("utf-8")
