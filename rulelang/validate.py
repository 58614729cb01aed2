"""Validate a ruleset in any of its three forms (.rules, .json, .yaml):
first the document against ``schema/ruleset.schema.json`` (with the path
inside the document and its line), then the same static checker as for a
rule file, with every node placed at its line in the document.

Never raises for a bad document: every problem comes back as a
``Diagnostic``.
"""

from __future__ import annotations

from typing import List

import attrs
import yaml

from . import serialize
from .check import check
from .errors import Diagnostic, RulesetError, source_line
from .schema import validate_data
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


_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)   # libyaml when present: much faster


def _compose(text, filename):
    """(plain data, node tree) of a JSON or YAML document, read once.  YAML
    is a superset of JSON, so one reader gives line numbers for both."""
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        raise RulesetError.at(filename, line, col,
                              f"not valid JSON/YAML: {e.problem or e}", text) from None
    except yaml.YAMLError as e:
        raise RulesetError.at(filename, 1, 1, f"not valid JSON/YAML: {e}", text) from None
    finally:
        loader.dispose()
    return data, node


def _locator(root):
    def locate(parts):
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


def _place_nodes(data, node):
    """Give every node of the document its own line and column as ``pos``,
    so the checker's messages point into this document."""
    stack = [(data, node)]
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


def validate_document(text: str, filename: str) -> List[Diagnostic]:
    try:
        data, node = _compose(text, filename)
    except RulesetError as e:
        return e.diagnostics
    if node is None:
        return [Diagnostic(filename, 1, 1, "the document is empty")]
    problems = validate_data(data, _locator(node))
    if problems:
        out = []
        for path, line, col, message in problems:
            line, col = line or 1, col or 1
            out.append(Diagnostic(filename, line, col, f"{path}: {message}",
                                  source_line(text, line)))
        return out
    _place_nodes(data, node)
    try:
        rs = serialize.from_data(data, filename)
    except RulesetError as e:
        return e.diagnostics
    return check(attrs.evolve(rs, filename=filename, source=text))
