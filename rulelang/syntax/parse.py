"""Parse a rule file: the entry point of the syntax stage.

``parse`` reads the text with the grammar (``rulelang.lark``), within the
limits (file size, nesting): first by the fast path (``lalr``, Lark's tables
without Lark, the IR built as it reads); a text that path does not read
is read again by Lark itself, whose errors become a ``RulesetSyntaxError``
with file, line, column and what was probably meant (worded by
``diagnose``, which reads on for the file's other errors), its tree handed to ``transform`` for the IR.  It remembers
the rulesets it made (``made_here``) for the trust boundary.

It exists apart from those two so that the order of the checks, and what
is refused before a long parse, read in one short place.
"""

from __future__ import annotations

import functools
import re
import weakref
from typing import TYPE_CHECKING, Callable, Dict, Optional, Tuple, cast

from .. import ir
from ..errors import RulesetSyntaxError
from ..limits import DEFAULT, Limits
from . import lalr, tables
from .messages import nesting_message
from .transform import ToIR, to_ir

if TYPE_CHECKING:
    import lark


def __getattr__(name: str) -> object:
    """``GRAMMAR_PATH``: the grammar file (``tables.GRAMMAR_PATH``, made
    when asked for: a load does not need ``pathlib``)."""
    if name == "GRAMMAR_PATH":
        return tables.GRAMMAR_PATH
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: The default limits (see ``rulelang.limits``); kept as names for callers
#: that read them.
MAX_SOURCE_BYTES = DEFAULT.max_source_bytes
MAX_NESTING = DEFAULT.max_nesting


def parser() -> "lark.Lark":
    """The Lark parser of the grammar, built once in a process (about a
    third of a second): what reads a text the fast path does not (``lalr``),
    and says what went wrong in it."""
    found: lark.Lark = tables.lark_parser()
    return found


@functools.lru_cache(maxsize=None)
def fast_tables() -> Optional[lalr.Tables]:
    """The tables of the fast path: the shipped ones when they were made
    from this grammar, else made now from Lark's parser (slow: run
    ``python -m rulelang.syntax``); None if the grammar is not one
    the fast path can read (then Lark reads every text)."""
    with open(tables.GRAMMAR_FILE, "rb") as f:
        grammar = f.read()
    found = lalr.load(tables.TABLES_FILE, tables.grammar_digest(grammar))
    if found is None:
        try:
            found = lalr.Tables(tables.build(parser(), grammar))
        except ValueError:
            return None
    return found


_BRACKETS = re.compile(r'"[^"\n]*"|#[^\n]*|[({]|[)}]')


def _bracket_too_deep(text: str, limit: int) -> Optional[Tuple[int, int]]:
    """(line, column) of the first bracket nested deeper than ``limit``
    (brackets inside quoted text and comments do not count), or None."""
    if text.count("(") + text.count("{") <= limit:
        return None
    depth = 0
    for m in _BRACKETS.finditer(text):
        ch = m.group()
        if ch in "({":
            depth += 1
            if depth > limit:
                start = m.start()
                line = text.count("\n", 0, start) + 1
                return line, start - (text.rfind("\n", 0, start) + 1) + 1
        elif ch in ")}":
            depth -= 1
    return None


def parse(text: str, filename: str = "<string>", limits: Limits | None = None) -> ir.Ruleset:
    """Parse rule file text into an ``ir.Ruleset`` (not yet checked).
    ``limits`` bounds the file size, nesting and numbers (default:
    ``rulelang.Limits()``)."""
    limits = limits or DEFAULT
    if not isinstance(text, str):
        raise TypeError(f"parse() takes the rule file text as a str, not {type(text).__name__}")
    if len(text) > limits.max_source_bytes or \
            len(text.encode("utf-8", "replace")) > limits.max_source_bytes:
        raise RulesetSyntaxError.at(
            filename, 1, 1,
            f"the file is larger than the limit of {limits.max_source_bytes} bytes")
    where = _bracket_too_deep(text, limits.max_nesting)
    if where is not None:
        raise RulesetSyntaxError.at(filename, where[0], where[1],
                                    nesting_message(limits.max_nesting), text)
    rs = read_fast(text, filename, limits)
    if rs is None:
        rs = read_with_lark(text, filename, limits)
    deep = ir.deepest(rs, limits.max_nesting)
    if deep is not None:
        pos = getattr(deep, "pos", None) or ir.Pos(1, 1)
        raise RulesetSyntaxError.at(filename, pos.line, pos.column,
                                    nesting_message(limits.max_nesting), text)
    _made[id(rs)] = weakref.ref(rs, _forget(id(rs)))
    return rs


def _deepest_stack(limits: Limits) -> int:
    """The most states the parser's stack may hold before a token: nesting
    that needs no brackets ('if a: if b: …', 'not not …') is stopped while
    it is read, not after a long parse."""
    return 4 * limits.max_nesting + 100


def read_fast(text: str, filename: str, limits: Limits) -> Optional[ir.Ruleset]:
    """The IR of ``text`` read by the fast path (``lalr``), or None when
    it cannot read it (a syntax error, a value the language refuses, a
    limit: ``read_with_lark`` says which)."""
    found = fast_tables()
    if found is None:
        return None
    try:
        rs: ir.Ruleset = lalr.parse(found, text, ToIR(filename, text, limits),
                                    _deepest_stack(limits), limits.max_text)
    except Exception:  # noqa: BLE001 - whatever it is, Lark reads the text again and says it
        return None
    return rs


def read_with_lark(text: str, filename: str, limits: Limits) -> ir.Ruleset:
    """The IR of ``text`` read with Lark's parser, token by token, within
    the limits; raises ``RulesetSyntaxError`` for what it cannot read."""
    import lark
    try:
        run = parser().parse_interactive(text)
        deepest_stack = _deepest_stack(limits)
        longest = limits.max_text
        try:
            for tok in run.iter_parse():
                if len(run.parser_state.state_stack) > deepest_stack:
                    raise RulesetSyntaxError.at(filename, cast(int, tok.line), cast(int, tok.column),
                                                nesting_message(limits.max_nesting), text)
                if len(tok) > longest and tok.type in ("NAME", "STRING") and \
                        len(tok) - 2 * (tok.type == "STRING") > longest:     # (a number says it is too large)
                    raise RulesetSyntaxError.at(
                        filename, cast(int, tok.line), cast(int, tok.column),
                        f"this is {len(tok) - 2 * (tok.type == 'STRING')} characters long: a name, "
                        f"label or text is at most {longest} (Limits.max_text)", text)
            tree = run.resume_parse()  # type: ignore[no-untyped-call]
        except lark.UnexpectedToken as e:
            if e.interactive_parser is None:   # as a plain parse() would give it
                e.interactive_parser = run
            raise
    except (lark.UnexpectedInput, lark.UnexpectedEOF) as e:
        from . import diagnose      # (here: only a file with a syntax error needs it)
        raise RulesetSyntaxError(diagnose.report(text, filename, e, parser())) from None
    return to_ir(tree, filename, text, limits)


# The rulesets this parser made in this process (id -> weak reference):
# their IR has the shape the grammar gives, so the trust boundary
# (``rulelang.trust``) need only check them.
_made: Dict[int, weakref.ReferenceType[ir.Ruleset]] = {}


def _forget(key: int) -> Callable[[object], object]:
    return lambda _ref: _made.pop(key, None)


def made_here(rs: object) -> bool:
    """Whether ``rs`` is an IR this parser made (and nobody rebuilt)."""
    ref = _made.get(id(rs))
    return ref is not None and ref() is rs
