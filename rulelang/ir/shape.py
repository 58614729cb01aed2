"""The shape of a ruleset as data: what every field of every IR node may
hold, read once from the IR classes (their type hints and field metadata)
and checked exactly on plain data (JSON/YAML documents, an embedder's IR
unstructured).

This is the first half of the trust boundary (``rulelang.trust``): a
document that passes holds only what the IR allows — whole numbers that
are ints (never bools, floats or strings) within ``Limits.max_number``,
words from each field's fixed list, names that are the grammar's
identifiers, texts without quotes or line breaks, node kinds of the right
union — and no more values or nesting than the limits allow.  The checker
(``rulelang.check``) then judges what it means.  ``schema`` publishes
the same facts as JSON Schema; the tests hold the two to agree.

The walk uses no recursion, so any depth of input is safe to look at.
"""

from __future__ import annotations

import functools
import re
import typing
from typing import Any, Dict, List, Optional, Tuple, Union

import attrs

from ..documents import Odd
from ..limits import DEFAULT, Limits
from .. import ir
from .walk import NODE_CLASSES

#: The serialized form's version (``serialize.FORMAT`` re-exports it).
FORMAT = "rulelang-ir/1"

_NAME = re.compile(ir.NAME_PATTERN)
_TEXT = re.compile(ir.TEXT_PATTERN)

#: The largest number of problems reported for one document.
MAX_PROBLEMS = 50

Path = Tuple[Union[str, int], ...]


# ------------------------------------------------------------------ specs
# A spec is a small tuple: ("int", minimum) ("bool",) ("str", kind, enum)
# ("opt", spec) ("list", spec, fewest items) ("node", frozenset of kinds)
# ("pos",).
Spec = Tuple[Any, ...]


def _spec(t: Any, meta: Any) -> Spec:
    if t is int:
        return ("int", meta.get("minimum"))
    if t is bool:
        return ("bool",)
    if t is str:
        enum = meta.get("enum")
        return ("str", meta.get("string"), frozenset(enum) if enum else None)
    if t is ir.Pos:
        return ("pos",)
    if isinstance(t, type) and t in NODE_CLASSES.values():
        return ("node", frozenset((t.__name__,)))
    origin, args = typing.get_origin(t), typing.get_args(t)
    if origin is Union:
        rest = [a for a in args if a is not type(None)]
        if rest == [ir.Pos]:
            return ("pos",)     # null or [line, column]
        if all(a in NODE_CLASSES.values() for a in rest):
            inner: Spec = ("node", frozenset(a.__name__ for a in rest))
        elif len(rest) == 1:
            inner = _spec(rest[0], meta)
        else:   # pragma: no cover - the IR has no other unions
            raise TypeError(f"no shape for {t!r}")
        return ("opt", inner) if type(None) in args else inner
    if origin in (tuple, Tuple):
        return ("list", _spec(args[0], meta), meta.get("minItems", 0))
    raise TypeError(f"no shape for {t!r}")   # pragma: no cover


@functools.lru_cache(maxsize=None)
def fields_of(kind: str) -> Dict[str, Tuple[Spec, bool]]:
    """{field: (spec, required)} of a node kind, as its data holds it."""
    cls = NODE_CLASSES[kind]
    hints = typing.get_type_hints(cls)
    out = {}
    for f in attrs.fields(cls):
        if cls is ir.Ruleset and f.name in ("filename", "source"):
            continue
        out[f.name] = (_spec(hints[f.name], f.metadata), f.default is attrs.NOTHING)
    return out


def _what(value: Any) -> str:
    """How a wrong value is named in a message (short, whatever it is)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return repr(value[:40] + "…" if len(value) > 40 else value)
    if isinstance(value, float):
        return f"the number {value!r}"
    if isinstance(value, Odd):
        return value.what
    if isinstance(value, int):
        return str(value) if abs(value) < 10**30 else f"a number of {len(str(abs(value)))} digits"
    return f"a {type(value).__name__}"


# ------------------------------------------------------------------ the walk


def problems(data: Any, limits: Optional[Limits] = None,
             most: int = MAX_PROBLEMS) -> List[Tuple[Path, str]]:
    """Every way ``data`` (a whole serialized ruleset) is not of the IR's
    shape, as (path, message), at most ``most`` of them; [] when it is."""
    limits = limits or DEFAULT
    out: List[Tuple[Path, str]] = []
    if not isinstance(data, dict):
        return [((), "a serialized ruleset is a mapping")]
    version = data.get("format")
    if version != FORMAT:
        return [(("format",), f"unknown ruleset format {_what(version)}; this rulelang reads "
                              f"{FORMAT!r}" if "format" in data else
                 f"'format' is missing: a serialized ruleset says {FORMAT!r}")]
    origin = data.get("origin")
    if "origin" in data and (type(origin) is not str or len(origin) > limits.max_text):
        out.append((("origin",), "'origin' is the name of a rule file (a short text)"))
    body = {k: v for k, v in data.items() if k not in ("format", "origin")}
    _walk(body, ("node", frozenset(("Ruleset",))), out, limits, most)
    return out


def _walk(root: Any, root_spec: Spec, out: List[Tuple[Path, str]], limits: Limits,
          most: int) -> None:
    big = limits.max_number
    text_most = limits.max_text
    deepest = limits.max_nesting
    budget = limits.max_nodes
    seen = 0
    # (value, spec, path, node depth)
    stack: List[Tuple[Any, Spec, Path, int]] = [(root, root_spec, (), 0)]
    while stack:
        value, spec, path, depth = stack.pop()
        seen += 1
        if seen > budget:
            out.append(((), f"the document holds more than {budget} values "
                            f"(Limits.max_nodes)"))
            return
        kind = spec[0]
        if kind == "opt":
            if value is None:
                continue
            spec = spec[1]
            kind = spec[0]
        if kind == "int":
            if type(value) is not int:
                problem = f"{_what(value)} is not a whole number"
            elif not -big <= value <= big:
                problem = f"{_what(value)} is larger than {big} (Limits.max_number)"
            elif spec[1] is not None and value < spec[1]:
                problem = f"{value} is less than the minimum of {spec[1]}"
            else:
                continue
        elif kind == "str":
            if type(value) is not str:
                problem = f"{_what(value)} is not a text"
            elif spec[2] is not None:
                if value in spec[2]:
                    continue
                problem = f"{_what(value)} is not one of {', '.join(map(repr, sorted(spec[2])))}"
            elif len(value) > text_most:
                problem = f"a text of {len(value)} characters is longer than {text_most} " \
                          f"(Limits.max_text)"
            elif spec[1] == "name":
                if _NAME.fullmatch(value):
                    continue
                problem = f"{_what(value)} is not a name (a letter or _, then letters, " \
                          f"digits or _)"
            elif spec[1] == "text":
                if _TEXT.fullmatch(value):
                    continue
                problem = f"{_what(value)} has a double quote or a line break, which a text " \
                          f"may not hold"
            else:
                continue
        elif kind == "bool":
            if type(value) is bool:
                continue
            problem = f"{_what(value)} is not true or false"
        elif kind == "list":
            if type(value) is not list:
                problem = f"{_what(value)} is not a list"
            elif len(value) < spec[2]:
                problem = f"the list needs at least {spec[2]} item{'s' if spec[2] > 1 else ''}"
            else:
                item = spec[1]
                for i in range(len(value) - 1, -1, -1):
                    stack.append((value[i], item, path + (i,), depth))
                continue
        elif kind == "pos":
            if value is None or (type(value) is list and len(value) == 2
                                 and type(value[0]) is int and type(value[1]) is int
                                 and 1 <= value[0] <= big and 0 <= value[1] <= big):
                continue
            problem = f"{_what(value)} is not a position ([line, column] or null)"
        else:   # a node of one of the kinds in spec[1]
            if type(value) is not dict:
                problem = f"{_what(value)} is not a node (a mapping with a 'kind')"
            elif depth > deepest:
                problem = f"this is nested more than {deepest} levels deep (Limits.max_nesting)"
            else:
                node_kind = value.get("kind")
                allowed = spec[1]
                if node_kind is None:
                    problem = "a node needs a 'kind' (the name of its node type)"
                elif type(node_kind) is not str or node_kind not in allowed:
                    problem = (f"unknown node kind {_what(node_kind)}"
                               if not (type(node_kind) is str and node_kind in NODE_CLASSES)
                               else f"a {node_kind} cannot stand here (expected "
                                    f"{' or '.join(sorted(allowed)) if len(allowed) < 6 else 'an ' + _union_name(allowed)})")
                else:
                    fields = fields_of(node_kind)
                    bad = False
                    for key in value:
                        if key != "kind" and key not in fields:
                            out.append((path, f"unknown field {_what(key)} in a {node_kind}"))
                            bad = True
                    for name, (field_spec, required) in fields.items():
                        if name in value:
                            stack.append((value[name], field_spec, path + (name,), depth + 1))
                        elif required:
                            out.append((path, f"'{name}' is missing (a required field of a "
                                              f"{node_kind})"))
                            bad = True
                    if bad and len(out) >= most:
                        return
                    continue
        out.append((path, problem))
        if len(out) >= most:
            return


def _union_name(kinds: Any) -> str:
    stmts = {c.__name__ for c in typing.get_args(ir.Stmt)}
    return "statement" if kinds == stmts else "expression"


def json_path(parts: Path) -> str:
    """``$.rules[3].body[0]`` for the parts of a path."""
    out = "$"
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else f".{p}"
    return out
