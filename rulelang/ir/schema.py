"""The published JSON Schema of a serialized ruleset, generated from the IR
classes and their field metadata (so the two cannot drift), and validation
of documents against it with paths and line numbers that point into the
document.  ``shape`` checks the same facts fast, from the same metadata,
on every document the engine loads; the tests hold the two to agree.

    python -m rulelang.ir.schema > schema/ruleset.schema.json
"""

from __future__ import annotations

import functools
import inspect
import json
import pathlib
import sys
import typing
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Tuple, Union

import attrs

from ..limits import DEFAULT
from .. import ir
from .shape import FORMAT
from .walk import NODE_CLASSES

SCHEMA_ID = "https://rulelang.dev/schema/ruleset.schema.json"
SCHEMA_PATH = pathlib.Path(__file__).resolve().parents[2] / "schema" / "ruleset.schema.json"

_UNION_NAMES = {ir.Expr: "Expr", ir.Stmt: "Stmt"}


def _describe(cls: type) -> str:
    doc = inspect.getdoc(cls) or ""
    if doc.startswith(cls.__name__ + "("):  # attrs' generated signature: no docstring
        doc = ""
    return " ".join(doc.split()) or f"A {cls.__name__} node."


#: The published bounds of every whole number (``Limits.max_number``'s default).
_MAX_NUMBER = DEFAULT.max_number


def _type_schema(t: Any, meta: Optional[Mapping[str, Any]] = None) -> Dict[str, Any]:
    """The schema of a field of type ``t``; ``meta`` (the field's metadata)
    bounds its scalar values (each item of a tuple)."""
    meta = meta or {}
    if t is int:
        low = meta.get("minimum", -_MAX_NUMBER)
        return {"type": "integer", "minimum": low, "maximum": _MAX_NUMBER}
    if t is str:
        out: Dict[str, Any] = {"type": "string"}
        if "enum" in meta:
            out["enum"] = list(meta["enum"])
        elif meta.get("string") == "name":
            out["pattern"] = f"^{ir.NAME_PATTERN}$"
            out["maxLength"] = DEFAULT.max_text
        elif meta.get("string") == "text":
            out["pattern"] = f"^{ir.TEXT_PATTERN}$"
            out["maxLength"] = DEFAULT.max_text
        return out
    if t is bool:
        return {"type": "boolean"}
    if t is ir.Pos:
        return {"$ref": "#/$defs/Pos"}
    if t in _UNION_NAMES:
        return {"$ref": f"#/$defs/{_UNION_NAMES[t]}"}
    if isinstance(t, type) and t in NODE_CLASSES.values():
        return {"$ref": f"#/$defs/{t.__name__}"}
    origin, args = typing.get_origin(t), typing.get_args(t)
    if origin is Union:
        rest = [a for a in args if a is not type(None)]
        same = _same_union(rest)
        options = [_type_schema(same)] if same else [_type_schema(a, meta) for a in rest]
        if type(None) in args:
            options.append({"type": "null"})
        return options[0] if len(options) == 1 else {"anyOf": options}
    if origin in (tuple, Tuple):
        out = {"type": "array", "items": _type_schema(args[0], meta)}
        if "minItems" in meta:
            out["minItems"] = meta["minItems"]
        return out
    raise TypeError(f"no schema for {t!r}")


def _same_union(members: List[Any]) -> Any:
    """The named union (Expr or Stmt) whose members these are, if any."""
    for union in _UNION_NAMES:
        if set(members) == set(typing.get_args(union)):
            return union
    return None


def _node_schema(cls: type) -> Dict[str, Any]:
    props = {"kind": {"const": cls.__name__, "description": "the node kind"}}
    required = ["kind"]
    hints = typing.get_type_hints(cls)
    for f in attrs.fields(cls):
        if cls is ir.Ruleset and f.name in ("filename", "source"):
            continue
        schema = dict(_type_schema(hints[f.name], f.metadata))
        if "description" in f.metadata:
            if "$ref" in schema:
                schema = {"allOf": [schema]}
            schema["description"] = f.metadata["description"]
        props[f.name] = schema
        if f.default is attrs.NOTHING:
            required.append(f.name)
    return {"type": "object", "description": _describe(cls), "properties": props,
            "required": required, "additionalProperties": False}


def _union(description: str, union: Any) -> Dict[str, Any]:
    """A node of one of the union's kinds, chosen by its ``kind`` (if/then
    per kind: a validator checks one branch, and says why that one fails)."""
    kinds = [c.__name__ for c in typing.get_args(union)]
    return {
        "description": description,
        "type": "object",
        "required": ["kind"],
        "properties": {"kind": {"enum": kinds}},
        "allOf": [{"if": {"properties": {"kind": {"const": k}}, "required": ["kind"]},
                   "then": {"$ref": f"#/$defs/{k}"}} for k in kinds],
    }


def build_schema() -> Dict[str, Any]:
    """The JSON Schema (2020-12) of ``serialize.to_data`` output."""
    defs: Dict[str, Any] = {
        "Pos": {"description": "[line, column] in the rule file the node came from",
                "anyOf": [{"type": "array",
                           "prefixItems": [{"type": "integer", "minimum": 1, "maximum": _MAX_NUMBER},
                                           {"type": "integer", "minimum": 0, "maximum": _MAX_NUMBER}],
                           "items": False, "minItems": 2},
                          {"type": "null"}]},
        "Expr": _union("An expression: a value computed while the game runs.", ir.Expr),
        "Stmt": _union("A statement: one step of a rule.", ir.Stmt),
    }
    for name, cls in sorted(NODE_CLASSES.items()):
        if cls is ir.Pos or cls is ir.Ruleset:
            continue
        defs[name] = _node_schema(cls)
    root = _node_schema(ir.Ruleset)
    root["properties"] = {"format": {"const": FORMAT, "description": "the version of this format"},
                          "origin": {"type": "string", "maxLength": DEFAULT.max_text,
                                     "description": "the rule file this was compiled from (the "
                                                    "file that the positions refer to)"},
                          **root["properties"]}
    root["required"] = ["format"] + root["required"]
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "rulelang ruleset",
        "description": ("A tabletop game's rules as compiled by rulelang (`rulelang compile`): "
                        "the intermediate representation of a .rules file, as JSON or YAML."),
        **{k: v for k, v in root.items() if k != "description"},
        "$defs": defs,
    }


def schema_text() -> str:
    return json.dumps(build_schema(), indent=2) + "\n"


# ------------------------------------------------------------- validation


@functools.lru_cache(maxsize=None)
def _validator() -> Any:
    import jsonschema
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8")) if SCHEMA_PATH.exists() else build_schema()
    return jsonschema.Draft202012Validator(schema)


def json_path(parts: Iterable[Union[str, int]]) -> str:
    out = "$"
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else f".{p}"
    return out


def _specific(e: Any) -> Any:
    """The most specific reason for an error: for an optional value, why it
    fails as a value; for a node that fits none of the node kinds, why it
    fails as the kind it names (or "unknown node kind")."""
    if not e.context or e.validator not in ("anyOf", "oneOf"):
        return e
    options = e.validator_value
    branches = [b.get("$ref", "").rsplit("/", 1)[-1] if isinstance(b, dict) else "" for b in options]
    kind = e.instance.get("kind") if isinstance(e.instance, dict) else None
    if any(b in NODE_CLASSES or b in ("Expr", "Stmt") for b in branches) and all(
            b in NODE_CLASSES for b in branches if b):
        # A union of node kinds: judge the node as the kind it names.
        if kind in branches:
            keep = {branches.index(kind)}
        else:
            e.message = (f"unknown node kind {kind!r}" if kind is not None
                         else "a node needs a 'kind' (the name of its node type)")
            return e
    else:
        # Optional or a union: leave out the branches of another JSON type.
        keep = {i for i, b in enumerate(options)
                if not (isinstance(b, dict) and b.get("type") == "null" and e.instance is not None)}
    mine = [c for c in e.context if c.relative_schema_path and c.relative_schema_path[0] in keep]
    if not mine:
        return e
    found = [_specific(c) for c in mine]
    return max(found, key=lambda c: len(c.absolute_path))


def _best_errors(errors: Iterable[Any]) -> List[Any]:
    return [_specific(e) for e in errors]


def validate_data(data: Any, locate: Optional[Callable[[List[Any]], Tuple[int, int]]] = None
                  ) -> List[Tuple[str, Optional[int], Optional[int], str]]:
    """Schema problems of a document as (json path, line, column, message);
    ``locate(path_parts)`` may give the line and column of a place."""
    problems = []
    errors = sorted(_validator().iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))
    said = set()
    for e in _best_errors(errors):
        parts = list(e.absolute_path)
        if e.validator == "enum" and parts and parts[-1] == "kind":
            parts = parts[:-1]           # an unknown kind is a fault of the node
        where, message = json_path(parts), _message(e)
        if (where, message) in said:     # (the same fault, found under each alternative of a union)
            continue
        said.add((where, message))
        line = col = None
        if locate is not None:
            line, col = locate(parts)
        problems.append((where, line, col, message))
    return problems


def _message(e: Any) -> str:
    v = e.validator
    path = list(e.absolute_path)
    message: str = e.message
    if v == "enum" and path and path[-1] == "kind":
        return f"unknown node kind {e.instance!r}"
    if v == "required" and "'kind'" in message:
        return "a node needs a 'kind' (the name of its node type)"
    if v == "required":
        return message.replace("is a required property", "is missing (a required field)")
    if v == "additionalProperties":
        return message.replace("Additional properties are not allowed", "unknown field")
    if v == "const" and path and path[-1] == "format":
        return f"unknown format version {e.instance!r}; this rulelang reads {FORMAT!r}"
    return message


def main() -> int:
    sys.stdout.write(schema_text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
