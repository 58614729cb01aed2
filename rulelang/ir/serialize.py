"""The IR as data: a cattrs converter that turns a ``Ruleset`` into plain
JSON-able dicts and back.

Every node is written with a ``kind`` tag (its class name), so unions of
node kinds (expressions, statements) structure back without guessing.
Source positions are kept as ``[line, column]`` so errors found in a
compiled ruleset still point into the original rule file.

``from_data`` structures only data of the IR's exact shape (``shape``):
anything else is refused with every problem and its place, before cattrs
sees it (cattrs alone would turn "1", 1.5 or true into the integer 1).
"""

from __future__ import annotations

import functools
import typing
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Tuple, Union

import attrs

from ..errors import Diagnostic, RulesetSyntaxError, printable, source_line
from ..limits import Limits
from .. import ir
from . import shape
from .walk import NODE_CLASSES

if TYPE_CHECKING:
    import cattrs

#: The serialized form's version; bump when the shape changes.
FORMAT = shape.FORMAT

__all__ = ["CONVERTER", "FORMAT", "NODE_CLASSES", "Locate", "converter", "dumps",  # noqa: F822
           "from_data", "make_converter", "to_data"]


def _is_node_union(t: Any) -> bool:
    """A union of node classes (maybe with None): tagged by ``kind``."""
    if typing.get_origin(t) is not Union:
        return False
    args = [a for a in typing.get_args(t) if a is not type(None)]
    return len(args) > 1 and all(a in NODE_CLASSES.values() for a in args)


def make_converter() -> "cattrs.Converter":
    """The converter: each class's functions are made when first used."""
    import cattrs
    import cattrs.gen
    for cls in NODE_CLASSES.values():
        attrs.resolve_types(cls)    # (each class's hints, read in its own module)
    conv = cattrs.Converter(forbid_extra_keys=True)

    def unstructure_pos(pos: Optional[ir.Pos]) -> Optional[List[int]]:
        return None if pos is None else [pos.line, pos.column]

    def structure_pos(value: Any, _: Any) -> Optional[ir.Pos]:
        if value is None:
            return None
        line, column = value
        return ir.Pos(int(line), int(column))

    conv.register_unstructure_hook(ir.Pos, unstructure_pos)
    conv.register_structure_hook(ir.Pos, structure_pos)

    # Each class's function is made on first use, once every class has its
    # hook, so a field of any node type (declared before or after) is tagged.
    made: Dict[type, Any] = {}
    for cls in NODE_CLASSES.values():
        if cls is ir.Pos:
            continue

        def unstructure(node: Any, cls: type = cls, name: str = cls.__name__) -> Dict[str, Any]:
            base = made.get(cls)
            if base is None:
                base = made[cls] = cattrs.gen.make_dict_unstructure_fn(cls, conv)
            return {"kind": name, **base(node)}
        conv.register_unstructure_hook(cls, unstructure)

    def structure_union(value: Any, t: Any) -> Any:
        if value is None and type(None) in typing.get_args(t):
            return None
        if not isinstance(value, dict) or "kind" not in value:
            raise ValueError(f"expected a node with a 'kind', got {value!r}")
        kind = value["kind"]
        cls = NODE_CLASSES.get(kind)
        if cls is None or cls not in typing.get_args(t):
            raise ValueError(f"unknown node kind {kind!r}")
        return conv.structure(value, cls)

    conv.register_structure_hook_func(_is_node_union, structure_union)

    structuring: Dict[type, Callable[[Any, Any], Any]] = {}
    for cls in NODE_CLASSES.values():
        if cls is ir.Pos:
            continue

        def structure(value: Any, t: Any, cls: type = cls, name: str = cls.__name__) -> Any:
            if isinstance(value, dict) and value.get("kind", name) != name:
                raise ValueError(f"expected a {name}, got kind {value.get('kind')!r}")
            value = {k: v for k, v in value.items() if k != "kind"}
            inner = structuring.get(cls)
            if inner is None:
                inner = structuring[cls] = cattrs.gen.make_dict_structure_fn(
                    cls, conv, _cattrs_forbid_extra_keys=True)
            return inner(value, t)
        conv.register_structure_hook(cls, structure)
    return conv


@functools.lru_cache(maxsize=None)
def converter() -> "cattrs.Converter":
    """The converter of the IR (``CONVERTER``), made on first use: building
    it (and importing cattrs) is most of the time it takes to import
    rulelang, and a rule file is loaded without it."""
    return make_converter()


def __getattr__(name: str) -> Any:
    if name == "CONVERTER":
        return converter()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def to_data(rs: ir.Ruleset) -> Dict[str, Any]:
    """A ruleset as plain data (JSON/YAML-able), with the format version."""
    d = converter().unstructure(rs)
    d.pop("source", None)
    origin = d.pop("filename", None)
    out = {"format": FORMAT, **d}
    if origin and origin != "<string>":
        out["origin"] = origin   # the rule file that the positions refer to
    return out


#: ``locate(path) -> (line, column)`` of a place in the document.
Locate = Callable[[Tuple[Union[str, int], ...]], Tuple[int, int]]


def from_data(data: Any, filename: str = "<data>", limits: Optional[Limits] = None,
              locate: Optional[Locate] = None, source: str = "") -> ir.Ruleset:
    """A ruleset from plain data; raises ``RulesetSyntaxError`` listing
    every place where the data is not of the IR's shape (``shape``), each
    at its line when ``locate`` can find it in ``source``."""
    found = shape.problems(data, limits)
    if found:
        raise RulesetSyntaxError([_diagnostic(filename, path, message, locate, source)
                                  for path, message in found])
    body = {k: v for k, v in data.items() if k not in ("format", "origin")}
    origin = data.get("origin")
    body["filename"] = origin if isinstance(origin, str) and origin else filename
    try:
        return converter().structure(body, ir.Ruleset)
    except Exception as e:  # noqa: BLE001 - the shape is checked: this is a bug, said plainly
        raise RulesetSyntaxError.at(filename, 1, 1, f"not a valid ruleset: {_explain(e)}") from None


def _diagnostic(filename: str, path: Tuple[Union[str, int], ...], message: str,
                locate: Optional[Locate], source: str) -> Diagnostic:
    line, column = locate(path) if locate is not None else (1, 1)
    return Diagnostic(filename, line, column, f"{shape.json_path(path)}: {message}",
                      source_line(source, line) if source else "")


def dumps(rs: ir.Ruleset, fmt: str = "json") -> str:
    """A ruleset as JSON or YAML text, its words as they are; but when they
    hold a character a terminal would act on rather than show (a C1
    control, a bidirectional override: JSON and YAML leave those raw), with
    every character past ASCII escaped: the same data, safe to print."""
    data = to_data(rs)
    text = _dumps(data, fmt, False)
    return text if printable(text) == text else _dumps(data, fmt, True)


def _dumps(data: Any, fmt: str, ascii: bool) -> str:
    if fmt == "yaml":
        import yaml
        text: str = yaml.safe_dump(data, sort_keys=False, allow_unicode=not ascii, width=100,
                                   default_flow_style=None)
        return text
    if fmt == "json":
        import json
        return json.dumps(data, indent=1, ensure_ascii=ascii) + "\n"
    raise ValueError(f"format must be json or yaml, not {fmt!r}")


def _explain(e: BaseException) -> str:
    inner = getattr(e, "exceptions", None)     # an exception group (cattrs; Python 3.11+)
    if inner:
        return "; ".join(_explain(x) for x in inner[:3])
    return str(e)
