"""A Pygments lexer for rule files (needs the ``highlight`` extra).

Registered as the entry point ``pygments.lexers`` → ``rulelang``, so once
rulelang is installed ``pygmentize -l rulelang FILE`` and any tool built on
Pygments (Sphinx, MkDocs, a wiki) highlight ``.rules`` files.  It reads the
text with ``rulelang.words.tokens``, the tokenizer the language server uses,
so the two never disagree on what is a keyword; a name after the keyword
that declares it gets the token type of what it declares.
"""

from __future__ import annotations

from typing import Iterator, Tuple

from pygments.lexer import Lexer  # type: ignore[import-untyped,unused-ignore]
from pygments.token import (  # type: ignore[import-untyped,unused-ignore]
    Comment, Error, Keyword, Name, Number, Operator, Punctuation, String, Text, _TokenType)

from .words import (COMMENT, CONSTANT, COUNT, DECLARATION_WORDS, DIE, KEYWORD, NAME, NUMBER,
                    OPERATOR, PLACEHOLDER, PUNCT, SPACE, STRING, tokens)

_PLAIN = {
    KEYWORD: Keyword, CONSTANT: Keyword.Constant, NAME: Name, NUMBER: Number.Integer,
    DIE: Number, COUNT: Number, COMMENT: Comment.Single, OPERATOR: Operator,
    PUNCT: Punctuation, SPACE: Text.Whitespace,
}

#: The token type of a name right after the keyword that declares it.
_DECLARED = {
    "rule": Name.Function, "phase": Name.Function, "const": Name.Constant,
    "param": Name.Constant, "deck": Name.Class, "pile": Name.Class, "table": Name.Class,
    "pieces": Name.Class, "board": Name.Class, "track": Name.Class, "actor": Name.Class,
    "option": Name.Class,
}


class RulelangLexer(Lexer):  # type: ignore[misc]
    """Rule files of rulelang (docs/language.md)."""

    name = "rulelang"
    aliases = ["rulelang", "rules"]
    filenames = ["*.rules"]
    mimetypes = ["text/x-rulelang"]
    url = "https://pypi.org/project/rulelang/"

    def get_tokens_unprocessed(self, text: str) -> Iterator[Tuple[int, _TokenType, str]]:
        depth = 0
        previous = ""
        declaring = False       # the last word began a declaration (or a phase)
        for t in tokens(text, spaces=True):
            if t.kind == STRING:
                yield from _string(t.offset, t.text)
                previous = ""
                continue
            kind = _PLAIN.get(t.kind, Error)
            if t.kind == KEYWORD and depth == 0 and t.text in DECLARATION_WORDS and \
                    previous in ("", "}", ";"):
                kind = Keyword.Declaration
            elif previous in _DECLARED and (t.kind == NAME or (t.kind == KEYWORD and declaring)):
                kind = _DECLARED[previous]      # (a keyword may name a deck: 'deck cards')
            elif t.kind in (KEYWORD, CONSTANT) and _member(text, t.offset, t.offset + len(t.text)):
                kind = Name                     # 'to.walk': a keyword may name a local or a field
            if t.text == "{":
                depth += 1
            elif t.text == "}":
                depth = max(depth - 1, 0)
            yield t.offset, kind, t.text
            if t.kind != SPACE:
                declaring = kind is Keyword.Declaration or t.text == "phase"
                previous = t.text if t.kind in (KEYWORD, PUNCT) else "\0"
            elif "\n" in t.text:       # (a declared name is on its keyword's line)
                previous = ""


_STARTS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
_WORD = _STARTS | frozenset("0123456789")


def _member(text: str, start: int, end: int) -> bool:
    """Whether the word text[start:end] stands before a '.' and a name
    (``to.walk``) or after a word and a '.' (``dealer.at``): a name, not a
    keyword (the TextMate grammar's ``member`` patterns say the same)."""
    after = end + 1 < len(text) and text[end] == "." and text[end + 1] in _STARTS
    before = start >= 2 and text[start - 1] == "." and text[start - 2] in _WORD
    return after or before


def _string(offset: int, text: str) -> Iterator[Tuple[int, _TokenType, str]]:
    """A quoted text, its ``{placeholders}`` marked apart."""
    at = 0
    for m in PLACEHOLDER.finditer(text):
        if m.start() > at:
            yield offset + at, String.Double, text[at:m.start()]
        yield offset + m.start(), String.Interpol, m.group()
        at = m.end()
    if at < len(text):
        yield offset + at, String.Double, text[at:]
