"""The words of the language as an editor sees them: its keywords, and a
tokenizer that never fails.

The parser stops at the first thing it cannot read; an editor highlighting
or completing a half-written file cannot.  ``tokens`` cuts any text into
the grammar's kinds of token (names, keywords, numbers, dice, texts,
comments, punctuation), marking a character the grammar has no token for
as ``ERROR`` and going on.  The Pygments lexer (``rulelang.highlight``) and
the language server (``rulelang.lsp``) read text through it, and a test
holds ``KEYWORDS`` to the grammar's own words (``rulelang.lark``).
"""

from __future__ import annotations

import re
from typing import Iterator, NamedTuple

#: Every word the grammar spells out (its quoted words, and the words of
#: its terminals ``EXTREME`` and ``OTHER``); none of them can be a name.
KEYWORDS = frozenset("""
a actor after all along among and any as at board by card cards choose clockwise connected const
count deck dice distance draw each else end every failed farthest for from game give gives global
grid has heuristic hex hidden high highest if in is let link log lowest margin max may min more move
neighbour no none not number of off on one option or order other param passed per phase pick
pieces pile player players random reaches refills repeat reroll reveal roll round row rows rule
score seat secret secretly setup size skip spend state stop sum table test then this through
times to track turn until up when whenever where while wide winner yes
""".split())

#: The keywords that begin a declaration (the outline's kinds).
DECLARATION_WORDS = frozenset("""
game players per global track const param actor deck pile pieces board table test rule option
setup turn whenever on reroll end score heuristic winner
""".split())

#: Keywords that are values rather than structure.
CONSTANT_WORDS = frozenset({"yes", "no", "none"})

#: The kinds of token, as ``Token.kind`` gives them.
NAME, KEYWORD, CONSTANT, NUMBER, DIE, COUNT, STRING, COMMENT, OPERATOR, PUNCT, SPACE, ERROR = (
    "name", "keyword", "constant", "number", "die", "count", "string", "comment", "operator",
    "punct", "space", "error")

_TOKEN = re.compile(r"""
    (?P<space>\s+)
  | (?P<comment>\#[^\n]*)
  | (?P<string>"[^"\n]*"?)
  | (?P<yesno>yes/no\b)
  | (?P<die>d[0-9]+\b)
  | (?P<count>x[0-9]+\b|x\([A-Za-z_][A-Za-z0-9_]*\))
  | (?P<word>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<number>[0-9]+)
  | (?P<operator>\.\.|--|->|\+=|-=|==|!=|<=|>=|[<>=+\-*/%])
  | (?P<punct>[{}(),.:;])
""", re.VERBOSE)

#: A name in braces inside a log text: ``{held}``, ``{rival.position}``.
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)(?:\.([A-Za-z_][A-Za-z0-9_]*))?\}")


class Token(NamedTuple):
    """One token: its kind, its text, and where it starts (``offset`` in
    the text; ``line`` from 0 and ``column`` from 0, in characters)."""

    kind: str
    text: str
    offset: int
    line: int
    column: int

    @property
    def end_column(self) -> int:
        """The column just past it (a token never spans lines)."""
        return self.column + len(self.text)


def tokens(text: str, *, spaces: bool = False) -> Iterator[Token]:
    """The tokens of ``text``, in order; whitespace only when ``spaces``.
    A character no token starts with is one ``ERROR`` token."""
    line, line_start, at, end = 0, 0, 0, len(text)
    while at < end:
        m = _TOKEN.match(text, at)
        if m is None:
            kind, stop = ERROR, at + 1
        else:
            group = m.lastgroup or ERROR
            stop = m.end()
            if group == "word":
                word = m.group()
                kind = (CONSTANT if word in CONSTANT_WORDS else KEYWORD) if word in KEYWORDS else NAME
            else:
                kind = {"yesno": KEYWORD}.get(group, group)
        piece = text[at:stop]
        if kind == SPACE:
            if spaces:
                yield Token(kind, piece, at, line, at - line_start)
            newlines = piece.count("\n")
            if newlines:
                line += newlines
                line_start = at + piece.rfind("\n") + 1
        else:
            yield Token(kind, piece, at, line, at - line_start)
        at = stop
