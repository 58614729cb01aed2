"""Validate a ruleset in any of its three forms (.rules, .json, .yaml):
first the document as a document (``documents``), then against the
published ``schema/ruleset.schema.json`` (with the path inside the document
and its line), then the IR's shape and the same static checker as for a
rule file, with every node placed at its line in the document.

Never raises for a bad document: every problem comes back as a
``Diagnostic``.
"""

from __future__ import annotations

from typing import Any, List, Optional, Tuple

import attrs
import yaml

from . import documents
from .check import check
from .errors import Diagnostic, RulesetError, source_line
from .ir import serialize
from .ir.schema import validate_data
from .limits import Limits
from .syntax import parse

DATA_SUFFIXES = (".json", ".yaml", ".yml")


def validate_file(path: str) -> List[Diagnostic]:
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        return [Diagnostic(path, 1, 1, f"cannot read: {e.strerror}")]
    except UnicodeDecodeError as e:
        return [Diagnostic(path, 1, 1, f"the file is not UTF-8 text ({e.reason})")]
    if path.endswith(DATA_SUFFIXES):
        return validate_document(text, path)
    try:
        return check(parse(text, path))
    except RulesetError as e:
        return e.diagnostics


def _place_nodes(data: Any, node: Any) -> None:
    """Give every node of the document its own line and column as ``pos``,
    so the checker's messages point into this document (``node``: the
    yaml.Node of ``data``; PyYAML has no type stubs here)."""
    stack: List[Tuple[Any, Any]] = [(data, node)]
    while stack:
        d, n = stack.pop()
        if isinstance(d, dict) and isinstance(n, yaml.MappingNode):
            if "kind" in d and d.get("kind") != "Ruleset":
                d["pos"] = [n.start_mark.line + 1, n.start_mark.column + 1]
            children = {k.value: v for k, v in n.value}
            for key, value in d.items():
                if key in children:
                    stack.append((value, children[key]))
        elif isinstance(d, list) and isinstance(n, yaml.SequenceNode):
            stack.extend(zip(d, n.value))


def validate_document(text: str, filename: str, limits: Optional[Limits] = None) -> List[Diagnostic]:
    """Every problem of a JSON or YAML ruleset document: first as a
    document (``documents``: aliases, sizes, nesting), then against the
    published schema, then the IR's shape and the checker, each at its
    line in the document."""
    form = documents.form_of(filename) or "yaml"    # YAML reads JSON too
    try:
        data = documents.read(text, filename, limits, form)
    except RulesetError as e:
        return e.diagnostics
    if data is None:
        return [Diagnostic(filename, 1, 1, "the document is empty")]
    locate = documents.locator(text)
    problems = validate_data(data, locate)
    if problems:
        out: List[Diagnostic] = []
        for path, line, col, message in problems:
            line, col = line or 1, col or 1
            out.append(Diagnostic(filename, line, col, f"{path}: {message}",
                                  source_line(text, line)))
        return out
    node = _root(text)
    if node is not None:
        _place_nodes(data, node)
    try:
        rs = serialize.from_data(data, filename, limits, locate=locate, source=text)
    except RulesetError as e:
        return e.diagnostics
    return check(attrs.evolve(rs, filename=filename, source=text), limits)


def _root(text: str) -> Any:
    """The node tree of a document (for its marks, a yaml.Node), or None."""
    try:
        loader = yaml.CSafeLoader(text) if hasattr(yaml, "CSafeLoader") else yaml.SafeLoader(text)
        try:
            return loader.get_single_node()
        finally:
            loader.dispose()
    except (yaml.YAMLError, RecursionError, ValueError):
        return None
