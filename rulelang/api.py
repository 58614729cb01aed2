"""The facade: ``load`` and ``loads`` run every stage (parse, check,
compile) and return a ``Game``.  Each stage is still reachable alone:
``rulelang.syntax.parse``, ``rulelang.check.check``,
``rulelang.engine.compile_ruleset``.
"""

from __future__ import annotations

import json
import os
from typing import Optional, Union

from . import cache as _cache
from . import ir, serialize
from .check import check
from .engine import Game, compile_ruleset
from .errors import RulesetCheckError, RulesetSyntaxError
from .limits import DEFAULT, Limits
from .syntax import parse


def parse_and_check(text: str, filename: str = "<string>",
                    limits: Optional[Limits] = None) -> ir.Ruleset:
    """Parse and check rule file text; raise ``RulesetError`` on any problem."""
    rs = parse(text, filename, limits)
    return checked(rs, limits)


def checked(rs: ir.Ruleset, limits: Optional[Limits] = None) -> ir.Ruleset:
    errors = check(rs, limits)
    if errors:
        raise RulesetCheckError(errors)
    return rs


def game_of(rs: ir.Ruleset, limits: Optional[Limits] = None) -> Game:
    """A ``Game`` from a checked ruleset."""
    try:
        return Game(compile_ruleset(rs, limits), limits)
    except RecursionError:
        raise RulesetCheckError.at(rs.filename, 1, 1, "the ruleset is nested too deeply to "
                                   "compile (lower Limits.max_nesting)") from None


def loads(text: str, filename: str = "<string>", limits: Optional[Limits] = None) -> Game:
    """A ``Game`` from rule file text.  ``limits`` (a ``rulelang.Limits``)
    bounds parsing, checking and, as the game's default, playing."""
    return game_of(parse_and_check(text, filename, limits), limits)


def _text(path: str, limits: Optional[Limits]) -> str:
    most = (limits or DEFAULT).max_source_bytes
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read(most + 1)
    except UnicodeDecodeError as e:
        raise RulesetSyntaxError.at(path, 1, 1, f"the file is not UTF-8 text ({e.reason})") from None
    if len(text) > most:
        raise RulesetSyntaxError.at(path, 1, 1, f"the file is larger than the limit of {most} bytes")
    return text


def read(path: Union[str, os.PathLike], limits: Optional[Limits] = None) -> ir.Ruleset:
    """The IR of a ruleset file (``.rules``, ``.json``, ``.yaml``/``.yml``),
    not yet checked; raises ``RulesetError`` when it cannot be read as one."""
    path = os.fspath(path)
    text = _text(path, limits)
    try:
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
                raise RulesetSyntaxError.at(path, line, col,
                                            f"not valid YAML: {getattr(e, 'problem', e)}",
                                            text) from None
            return serialize.from_data(data, path)
    except RecursionError:
        raise RulesetSyntaxError.at(path, 1, 1, "the document is nested too deeply") from None
    return parse(text, path, limits)


def load(path: Union[str, os.PathLike], limits: Optional[Limits] = None,
         cache: Union[None, bool, str, os.PathLike] = None) -> Game:
    """A ``Game`` from a ``.rules`` file or a compiled ``.json``/``.yaml`` file.
    ``limits`` (a ``rulelang.Limits``) bounds loading and, as the game's
    default, playing.  ``cache``: keep checked rule files in a cache
    directory so they load again without parsing (``rulelang.cache``):
    True for the default directory, a directory, False for none; None
    (the default) does as the environment variable ``RULELANG_CACHE`` says,
    and without it uses no cache."""
    path = os.fspath(path)
    folder = _cache.directory(cache)
    if folder is None or path.endswith((".json", ".yaml", ".yml")):
        return game_of(checked(read(path, limits), limits), limits)
    text = _text(path, limits)
    rs = _cache.get(folder, text, path, limits)
    if rs is None:
        rs = parse_and_check(text, path, limits)
        _cache.put(folder, text, limits, rs)
    return game_of(rs, limits)
