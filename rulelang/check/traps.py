"""Warnings for the traps of the language: text that parses, and may even
check, but probably does not say what its writer meant.

    if failed: gear -= 1; food -= 1     only 'gear -= 1' is under the 'if'
    if count players where alive >= 2   reads as count … where (alive >= 2)
    (no score block)                    every player scores 0

``traps`` reads a parsed ruleset (its IR, and its text for how a line
was written) and gives warnings as ``Diagnostic``s, printed as the
checker's are; ``check_all`` adds them to the checker's warnings (and a
note that explains an error to its errors).

It exists apart from the checker because these are about how the text
reads, not about what the names and types mean; and it never fails a
ruleset: a trap is only a warning.
"""

from __future__ import annotations

import re
import typing
from typing import Any, List, Optional, Tuple

from .. import ir
from ..errors import Diagnostic, source_line

_STATEMENTS: Tuple[type, ...] = tuple(typing.get_args(ir.Stmt))
#: What a statement line holds that is not syntax: quoted text and comments.
_QUOTED = re.compile(r'"[^"\n]*"|#[^\n]*')
#: Where a value must be yes or no.
_CONDITION_FIELDS = ("cond",)


def _warn(rs: ir.Ruleset, pos: Optional[ir.Pos], message: str, kind: str = "warning") -> Diagnostic:
    where = pos or ir.Pos(1, 1)
    return Diagnostic(rs.filename, where.line, where.column, f"{kind}: {message}",
                      source_line(rs.source or "", where.line))


def _statement_lists(node: Any) -> List[Tuple[Any, ...]]:
    found = []
    for name in getattr(type(node), "__attrs_attrs__", ()):
        value = getattr(node, name.name)
        if isinstance(value, tuple) and len(value) > 1 and all(isinstance(s, _STATEMENTS) for s in value):
            found.append(value)
    return found


def _words(rs: ir.Ruleset, start: ir.Pos, end: ir.Pos) -> str:
    """The text from ``start`` to ``end`` (on one line), quotes and
    comments left out."""
    line = source_line(rs.source or "", start.line)
    return _QUOTED.sub('""', line[start.column - 1:end.column - 1])


def _one_statement_bodies(rs: ir.Ruleset, stmts: Tuple[Any, ...]) -> List[Diagnostic]:
    """``if c: a; b`` (or 'while', 'repeat', 'for each', 'may' with ':'):
    a statement after a one-statement body on the same line looks as if
    it were under the condition, but runs every time."""
    found = []
    for before, after in zip(stmts, stmts[1:]):
        start, end = getattr(before, "pos", None), getattr(after, "pos", None)
        if start is None or end is None or start.line != end.line:
            continue
        between = _words(rs, start, end)
        head = between.split(":", 1)
        if len(head) < 2 or "}" in between or "{" in between:
            continue
        keyword = head[0].split()[0] if head[0].split() else ""
        if keyword not in ("if", "while", "repeat", "for", "may", "else", "secretly"):
            continue
        first = head[1].strip().rstrip(";,").strip()
        line = source_line(rs.source or "", end.line)
        rest = line[end.column - 1:].split("#", 1)[0].strip().rstrip(";,")
        found.append(_warn(rs, end,
                           f"only '{first}' is under the '{keyword}' (a ':' takes one statement): "
                           f"'{rest}' runs every time; to put both under it write "
                           f"{head[0].strip()} {{ {first}; {rest} }}"))
    return found


def _counts_as_conditions(rs: ir.Ruleset, node: Any) -> List[Diagnostic]:
    """``count X where a >= 2`` where a yes/no is wanted: the comparison
    belongs to the 'where', so the whole is a number."""
    found = []
    wanted: List[Any] = [getattr(node, f, None) for f in _CONDITION_FIELDS]
    if isinstance(node, ir.BinOp) and node.op in ("and", "or"):
        wanted += [node.left, node.right]
    if isinstance(node, ir.Not):
        wanted.append(node.operand)
    for value in wanted:
        if isinstance(value, (ir.PlayerQuery, ir.PieceQuery)) and value.quantifier == "count" \
                and isinstance(value.cond, ir.Compare):
            what = "players" if isinstance(value, ir.PlayerQuery) else value.pieces
            cond, op = _text_of(rs, value.cond), value.cond.op
            left, _, right = cond.partition(op)
            if not right.strip():
                left, right = "…", " …"
            found.append(_warn(rs, value.pos,
                               f"this reads as count {what} where ({cond}), a number, not yes/no: "
                               f"the comparison is part of the 'where'; to compare the count, "
                               f"write (count {what} where {left.strip()}) {op} {right.strip()}",
                               kind="note"))
    return found


def _text_of(rs: ir.Ruleset, node: Any) -> str:
    """The text of an expression on its line, up to where a block or a
    ':' body starts (a shortened copy when it cannot tell)."""
    pos = getattr(node, "pos", None)
    if pos is None:
        return "…"
    line = _QUOTED.sub(lambda m: m.group() if m.group().startswith('"') else "",
                       source_line(rs.source or "", pos.line))[pos.column - 1:]
    cut = re.search(r"[{:#]|\bthen\b", line)
    return (line[:cut.start()] if cut else line).strip() or "…"


def traps(rs: ir.Ruleset) -> Tuple[List[Diagnostic], List[Diagnostic]]:
    """(notes, warnings) for the traps in ``rs``, each in the order of the
    text: a note explains an error the checker reports at the same place
    (a count where a yes/no is wanted), so it goes with the errors."""
    notes: List[Diagnostic] = []
    found: List[Diagnostic] = []
    for node in ir.walk(rs):
        if rs.source:
            for stmts in _statement_lists(node):
                found += _one_statement_bodies(rs, stmts)
        notes += _counts_as_conditions(rs, node)
    if not rs.score and rs.max_players >= 2:       # (a solo game's result may be its ending)
        found.append(_warn(rs, None,
                           "the ruleset has no 'score' block: every player scores 0, so every "
                           "game ends in a tie (add one, e.g. score { points })"))
    return sorted(notes, key=_place), sorted(found, key=_place)


def _place(d: Diagnostic) -> Tuple[int, int]:
    return d.line, d.column
