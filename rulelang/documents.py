"""JSON and YAML documents read into plain data, within limits: the
readers for rulesets as data and (with the same care) anything else a
program is sent.

What reaches the caller is only what JSON can say: mappings with text
keys, lists, text, whole numbers, true/false/null (and floats, which the
shape check then refuses where a number is wanted).  On the way:

- YAML anchors and aliases are refused (a few kilobytes of aliases expand
  to millions of values), as are tags other than the core schema's;
- no document holds more than ``Limits.max_nodes`` values or nests deeper
  than ``Limits.max_nesting`` levels (counted on the data: twice the IR's
  nesting, as each node sits in a list or a field);
- a number with more digits than any limit allows, a fraction or NaN is
  not read (``Odd`` stands for it, so it is reported at its place);
- a mapping that gives one key twice is refused (two readers would not
  agree on what it says).

Every refusal is a ``RulesetSyntaxError`` at the line and column of the
place in the document.
"""

from __future__ import annotations

import json
import sys
from typing import Any, Callable, Dict, Iterable, List, NoReturn, Optional, Set, Tuple, Union

from .errors import RulesetSyntaxError
from .limits import DEFAULT, Limits


def _yaml() -> Tuple[Any, Any, Any]:
    """PyYAML, its safe loader and its event parser (libyaml's when
    present: much faster); imported when a YAML document is first read,
    so that reading rule files and JSON never pays for it."""
    import yaml
    return (yaml, getattr(yaml, "CSafeLoader", yaml.SafeLoader),
            getattr(yaml, "CBaseLoader", yaml.BaseLoader))

#: Digits a number may have when read: more than any limit allows (2**63
#: has 19), few enough that reading it is cheap.
MAX_DIGITS = 40

#: The core schema's tags: all a data document may use.
_TAGS = {"tag:yaml.org,2002:" + t for t in ("str", "int", "bool", "null", "float", "map", "seq")}


def data_depth(limits: Limits) -> int:
    """The deepest nesting of lists and mappings a document may have."""
    return 2 * limits.max_nesting + 8


def read(text: str, filename: str, limits: Optional[Limits] = None, form: str = "json") -> Any:
    """The plain data of a JSON (``form="json"``) or YAML document."""
    limits = limits or DEFAULT
    if form == "json":
        return _read_json(text, filename, limits)
    if form == "yaml":
        return _read_yaml(text, filename, limits)
    raise ValueError(f"form must be json or yaml, not {form!r}")


def form_of(path: str) -> Optional[str]:
    """"json" or "yaml" by a file's name, or None for a rule file."""
    if path.endswith(".json"):
        return "json"
    if path.endswith((".yaml", ".yml")):
        return "yaml"
    return None


# ------------------------------------------------------------------ JSON


class Odd:
    """Stands for a value JSON can hold but no document of ours does (a
    number of more digits than any limit allows, a fraction, NaN), kept
    where it was read so that the check of the document's shape reports it
    at its place."""

    __slots__ = ("what",)

    def __init__(self, what: str):
        self.what = what


class DocumentError(Exception):
    """Text that is not a JSON document we read: ``message`` and, where the
    reader knows it, ``line`` and ``column`` (each caller raises its own
    error from it: ``RulesetSyntaxError``, ``SaveError``)."""

    def __init__(self, message: str, line: int = 1, column: int = 1):
        super().__init__(message)
        self.message, self.line, self.column = message, line, column


def _number(digits: str) -> Union[int, Odd]:
    if len(digits) > MAX_DIGITS:
        return Odd(f"a number of {len(digits.lstrip('-'))} digits")
    return int(digits)


def _fraction(text: str) -> Odd:
    return Odd(f"the number {text[:30]} (whole numbers are written without a fraction or an "
               f"exponent)")


def _constant(word: str) -> Odd:
    return Odd(f"{word} (not a number a document holds)")


class _Twice(Exception):
    pass


def _pairs(pairs: List[Tuple[str, Any]]) -> Dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: Set[str] = set()
        for k, _ in pairs:
            if k in seen:
                raise _Twice(k)
            seen.add(k)
    return out


def decode_json(source: str, places: bool = True) -> Any:
    """The plain data of JSON text: mappings (no key given twice), lists,
    texts, whole numbers, true/false/null; a number too long to read, a
    fraction or NaN becomes an ``Odd`` where it stands.  Raises
    ``DocumentError``.  ``places=False`` lets Python's own bound on the
    digits of a number (4 300 by default) refuse long numbers, without a
    place but faster (for big documents of numbers: saves)."""
    # None is json.loads's own default: Python's int, bounded in its digits.
    parse_int: Optional[Callable[[str], Any]] = _number
    if not places and 0 < getattr(sys, "get_int_max_str_digits", lambda: 0)() <= 100_000:
        parse_int = None
    try:
        return json.loads(source, parse_float=_fraction, parse_constant=_constant,
                          object_pairs_hook=_pairs, parse_int=parse_int)
    except json.JSONDecodeError as e:
        raise DocumentError(f"not valid JSON: {e.msg}", e.lineno, e.colno) from None
    except _Twice as e:
        raise DocumentError(f"the key {json.dumps(e.args[0])} is given twice in one "
                            f"mapping") from None
    except RecursionError:
        raise DocumentError("the document is nested too deeply to read") from None
    except ValueError as e:     # a number of more digits than Python converts
        raise DocumentError(f"a number of more digits than any document holds ({e})") from None


def _read_json(text: str, filename: str, limits: Limits) -> Any:
    try:
        return decode_json(text)
    except DocumentError as e:
        message = e.message
        if "nested too deeply" in message:
            message = f"the document is nested more than {data_depth(limits)} levels deep " \
                      f"(Limits.max_nesting)"
        elif not message.startswith("not valid JSON"):
            message = f"not a valid document: {message}"
        raise RulesetSyntaxError.at(filename, e.line, e.column, message, text) from None


# ------------------------------------------------------------------ YAML


def _read_yaml(text: str, filename: str, limits: Limits) -> Any:
    yaml, safe_loader, _ = _yaml()
    _scan_yaml(text, filename, limits)
    try:
        return yaml.load(text, Loader=safe_loader)   # noqa: S506 - a safe loader, aliases refused above
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        raise RulesetSyntaxError.at(filename, line, col,
                                    f"not valid YAML: {e.problem or e}", text) from None
    except (yaml.YAMLError, ValueError) as e:
        raise RulesetSyntaxError.at(filename, 1, 1, f"not valid YAML: {e}", text) from None
    except RecursionError:
        raise RulesetSyntaxError.at(filename, 1, 1, "the document is nested too deeply for the "
                                    "YAML reader (Limits.max_nesting)") from None


def _scan_yaml(text: str, filename: str, limits: Limits) -> None:
    """Refuse, before anything is built, a YAML document with aliases or
    anchors, tags outside the core schema, numbers too long to read, more
    values than ``max_nodes`` or deeper nesting than the limit."""
    yaml, _, event_parser = _yaml()
    deepest = data_depth(limits)
    budget = limits.max_nodes
    loader = event_parser(text)
    depth = nodes = 0

    def refuse(event: Any, message: str) -> NoReturn:
        mark = event.start_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        raise RulesetSyntaxError.at(filename, line, col, message, text)
    try:
        while True:
            event = loader.get_event()
            if event is None or isinstance(event, yaml.StreamEndEvent):
                break
            if isinstance(event, yaml.AliasEvent):
                refuse(event, f"YAML aliases (*{event.anchor}) are not allowed: a document "
                              f"writes every value where it stands")
            if isinstance(event, (yaml.ScalarEvent, yaml.CollectionStartEvent)):
                if event.anchor is not None:
                    refuse(event, f"YAML anchors (&{event.anchor}) are not allowed: a document "
                                  f"writes every value where it stands")
                tag = event.tag
                if tag is not None and tag not in ("!", "?") and tag not in _TAGS:
                    refuse(event, f"the YAML tag {tag!r} is not allowed (only plain values, "
                                  f"lists and mappings)")
                nodes += 1
                if nodes > budget:
                    refuse(event, f"the document holds more than {budget} values "
                                  f"(Limits.max_nodes)")
                if isinstance(event, yaml.ScalarEvent) and len(event.value) > MAX_DIGITS and \
                        not event.style and event.value.lstrip("+-").isdigit():
                    refuse(event, f"a number of {len(event.value)} digits is too large")
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > deepest:
                    refuse(event, f"the document is nested more than {deepest} levels deep "
                                  f"(Limits.max_nesting)")
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problem = str(e.problem or e)
        if "nesting depth" in problem:      # libyaml's own bound, below ours
            problem = f"the document is nested more than {deepest} levels deep " \
                      f"(Limits.max_nesting)"
        else:
            problem = f"not valid YAML: {problem}"
        raise RulesetSyntaxError.at(filename, line, col, problem, text) from None
    except yaml.YAMLError as e:
        raise RulesetSyntaxError.at(filename, 1, 1, f"not valid YAML: {e}", text) from None
    finally:
        loader.dispose()


# --------------------------------------------------------------- locating


#: ``locate(path) -> (line, column)``: the path a list or tuple of keys and indices.
Locator = Callable[[Iterable[Union[str, int]]], Tuple[int, int]]


def locator(text: str) -> Locator:
    """``locate(path) -> (line, column)`` of a place in a JSON or YAML
    document (JSON read as YAML, which gives the marks); (1, 1) where it
    cannot be found.  Made only when a problem is reported."""
    yaml, safe_loader, _ = _yaml()
    root: Any = None     # a yaml.Node (PyYAML has no type stubs here)
    try:
        loader = safe_loader(text)
        try:
            root = loader.get_single_node()
        finally:
            loader.dispose()
    except (yaml.YAMLError, RecursionError, ValueError):
        root = None

    def locate(parts: Iterable[Union[str, int]]) -> Tuple[int, int]:
        node = root
        for p in parts:
            if isinstance(node, yaml.MappingNode):
                for k, v in node.value:
                    if k.value == p:
                        node = v
                        break
                else:
                    break
            elif isinstance(node, yaml.SequenceNode) and isinstance(p, int) and p < len(node.value):
                node = node.value[p]
            else:
                break
        if node is None:
            return 1, 1
        return node.start_mark.line + 1, node.start_mark.column + 1
    return locate
