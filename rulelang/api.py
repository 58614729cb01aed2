"""The facade: ``load`` and ``loads`` run every stage (parse, check,
compile) and return a ``Game``.  Each stage is still reachable alone:
``rulelang.syntax.parse``, ``rulelang.check.check``,
``rulelang.engine.compile_ruleset``.
"""

from __future__ import annotations

import json
import os
from typing import Union

from . import ir, serialize
from .check import check
from .engine import Game, compile_ruleset
from .errors import RulesetCheckError, RulesetSyntaxError
from .syntax import parse


def parse_and_check(text: str, filename: str = "<string>") -> ir.Ruleset:
    """Parse and check rule file text; raise ``RulesetError`` on any problem."""
    rs = parse(text, filename)
    return checked(rs)


def checked(rs: ir.Ruleset) -> ir.Ruleset:
    errors = check(rs)
    if errors:
        raise RulesetCheckError(errors)
    return rs


def loads(text: str, filename: str = "<string>") -> Game:
    """A ``Game`` from rule file text."""
    return Game(compile_ruleset(parse_and_check(text, filename)))


def read(path: Union[str, os.PathLike]) -> ir.Ruleset:
    """The IR of a ruleset file (``.rules``, ``.json``, ``.yaml``/``.yml``),
    not yet checked; raises ``RulesetError`` when it cannot be read as one."""
    path = os.fspath(path)
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except UnicodeDecodeError as e:
        raise RulesetSyntaxError.at(path, 1, 1, f"the file is not UTF-8 text ({e.reason})") from None
    if path.endswith(".json"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise RulesetSyntaxError.at(path, e.lineno, e.colno, f"not valid JSON: {e.msg}",
                                        text) from None
        return serialize.from_data(data, path)
    if path.endswith((".yaml", ".yml")):
        import yaml
        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError as e:
            mark = getattr(e, "problem_mark", None)
            line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
            raise RulesetSyntaxError.at(path, line, col, f"not valid YAML: {getattr(e, 'problem', e)}",
                                        text) from None
        return serialize.from_data(data, path)
    return parse(text, path)


def load(path: Union[str, os.PathLike]) -> Game:
    """A ``Game`` from a ``.rules`` file or a compiled ``.json``/``.yaml`` file."""
    return Game(compile_ruleset(checked(read(path))))
