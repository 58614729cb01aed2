"""The facade: ``load`` and ``loads`` run every stage (parse, check,
compile) and return a ``Game``.  Each stage is still reachable alone:
``rulelang.syntax.parse``, ``rulelang.check.check``,
``rulelang.engine.compile_ruleset``.  Whatever the source of a ruleset,
it reaches the compiler through the trust boundary (``rulelang.trust``).
"""

from __future__ import annotations

import functools
import gc
import os
import warnings
from typing import Any, Callable, Optional, TypeVar, Union

from . import ir, trust
from .engine import Game, compile_ruleset
from .errors import RulesetCheckError, RulesetSyntaxError
from .limits import DEFAULT, Limits
from .syntax import parse


_F = TypeVar("_F", bound=Callable[..., Any])


def _collector_paused(fn: _F) -> _F:
    """Run ``fn`` with Python's cycle collector paused.  A load makes tens of
    thousands of objects that all live on (the IR, the program) and little
    garbage, so the collector's passes over them are wasted: they were a
    fifth of the time of a big ruleset's load.  It is turned back on after,
    unless it was off before (a load inside a load leaves it to the outer
    one; with loads in several threads at once, the first to end turns it
    back on, and the others finish collecting as usual)."""
    @functools.wraps(fn)
    def paused(*args: Any, **kwargs: Any) -> Any:
        was_on = gc.isenabled()
        gc.disable()
        try:
            return fn(*args, **kwargs)
        finally:
            if was_on:
                gc.enable()
    return paused  # type: ignore[return-value]


def parse_and_check(text: str, filename: str = "<string>",
                    limits: Optional[Limits] = None) -> ir.Ruleset:
    """Parse and check rule file text; raise ``RulesetError`` on any problem."""
    return trust.checked(parse(text, filename, limits), limits)


def checked(rs: ir.Ruleset, limits: Optional[Limits] = None) -> ir.Ruleset:
    """The ruleset ``rs`` admitted (``rulelang.trust.admit``): checked, and
    unless our parser made it, held to the IR's exact shape first."""
    return trust.admit(rs, limits)


def game_of(rs: ir.Ruleset, limits: Optional[Limits] = None) -> Game:
    """A ``Game`` from a ruleset (admitted first if it is not yet)."""
    try:
        return Game(compile_ruleset(rs, limits), limits)
    except RecursionError:
        raise RulesetCheckError.at(getattr(rs, "filename", "<ruleset>"), 1, 1,
                                   "the ruleset is nested too deeply to compile (lower "
                                   "Limits.max_nesting)") from None


@_collector_paused
def loads(text: str, filename: str = "<string>", limits: Optional[Limits] = None) -> Game:
    """A ``Game`` from rule file text.  ``limits`` (a ``rulelang.Limits``)
    bounds parsing, checking and, as the game's default, playing."""
    return game_of(parse_and_check(text, filename, limits), limits)


def _form_of(path: str) -> Optional[str]:
    """"json" or "yaml" by a file's name, or None for a rule file
    (``documents.form_of``, whose module a rule file's load does not need)."""
    if path.endswith((".json", ".yaml", ".yml")):
        from . import documents
        return documents.form_of(path)
    return None


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


def read(path: Union[str, "os.PathLike[str]"], limits: Optional[Limits] = None) -> ir.Ruleset:
    """The IR of a ruleset file: a ``.rules`` file parsed (not yet checked),
    or a compiled ``.json``/``.yaml``/``.yml`` document admitted (its shape
    and the checker); raises ``RulesetError`` when it cannot be read as one."""
    path = os.fspath(path)
    text = _text(path, limits)
    form = _form_of(path)
    if form is not None:
        return trust.read_document(text, path, limits, form)
    return parse(text, path, limits)


@_collector_paused
def load(path: Union[str, "os.PathLike[str]"], limits: Optional[Limits] = None,
         cache: Union[None, bool, str, "os.PathLike[str]"] = None) -> Game:
    """A ``Game`` from a ``.rules`` file or a compiled ``.json``/``.yaml`` file.
    ``limits`` (a ``rulelang.Limits``) bounds loading and, as the game's
    default, playing.  ``cache`` is accepted and does nothing (a
    ``DeprecationWarning`` unless None or False): the cache of checked
    rulesets it named was retired, since the parser reads a rule file
    faster than a cache entry, untrusted, could be admitted again."""
    if cache is not None and cache is not False:
        warnings.warn("rulelang.load(cache=...) does nothing since the cache was retired: "
                      "a rule file loads faster without it", DeprecationWarning, stacklevel=3)
    return game_of(checked(read(path, limits), limits), limits)
