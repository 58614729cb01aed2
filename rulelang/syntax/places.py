"""Where the parser found something, and a quoted token's text: what the
parse-tree methods (``transform``, ``generate``) all need; and the two
things they are handed besides the nodes they built: a ``Token`` (a piece
of the text, with its terminal and its place) and a ``Meta`` (where the
text a rule matched starts)."""

from __future__ import annotations

from operator import itemgetter
from typing import Any, Optional

from .. import ir


class Token(str):
    """A token of the rule file: its text (the token is that ``str``), the
    grammar's name for its terminal (``type``: ``NAME``, ``INT``…) and
    where it starts (``line`` and ``column``, from 1), as Lark's tokens
    have them; what the parse-tree methods are given, whichever parser
    read the text."""

    __slots__ = ("type", "line", "column")

    type: str
    line: int
    column: int

    def __new__(cls, type_: str, value: str, line: int, column: int) -> "Token":
        tok = str.__new__(cls, value)
        tok.type = type_
        tok.line = line
        tok.column = column
        return tok

    @property
    def value(self) -> str:
        return str(self)

    def __repr__(self) -> str:
        return f"Token({self.type!r}, {str(self)!r})"

    def __reduce__(self) -> Any:
        return (Token, (self.type, str(self), self.line, self.column))


class Meta(tuple):  # type: ignore[type-arg]
    """Where the text a grammar rule matched starts: ``(line, column)``,
    read as ``meta.line`` and ``meta.column`` (as Lark's ``Meta``)."""

    __slots__ = ()

    empty = False
    line = property(itemgetter(0))
    column = property(itemgetter(1))


class NoPlace:
    """The ``Meta`` of a rule that matched nothing (an empty file): it has
    no line or column (as Lark's, whose ``empty`` is then true)."""

    __slots__ = ()

    empty = True


NOWHERE = NoPlace()


def pos(meta: Any) -> Optional[ir.Pos]:
    """The line and column a rule matched at (None when it matched nothing)."""
    if type(meta) is Meta:
        return ir.Pos(meta[0], meta[1])
    if meta is None or getattr(meta, "empty", True):
        return None
    return ir.Pos(meta.line, meta.column)


def tok_pos(tok: Token) -> ir.Pos:
    """The line and column of a token (one the lexer made always has them)."""
    return ir.Pos(tok.line, tok.column)


def unquote(tok: Any) -> str:
    """A token's text without its quotes."""
    s = str(tok)
    return s[1:-1] if s.startswith('"') else s
