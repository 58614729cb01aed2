"""Where the parser found something, and a quoted token's text: what the
parse-tree methods (``transform``, ``generate``) all need."""

from __future__ import annotations

from typing import Any, Optional, cast

from lark import Token
from lark.tree import Meta

from .. import ir


def pos(meta: Optional[Meta]) -> Optional[ir.Pos]:
    """The line and column a rule matched at (None when it matched nothing)."""
    if meta is None or getattr(meta, "empty", True):
        return None
    return ir.Pos(meta.line, meta.column)


def tok_pos(tok: Token) -> ir.Pos:
    """The line and column of a token (one the lexer made always has them)."""
    return ir.Pos(cast(int, tok.line), cast(int, tok.column))


def unquote(tok: Any) -> str:
    """A token's text without its quotes."""
    s = str(tok)
    return s[1:-1] if s.startswith('"') else s
