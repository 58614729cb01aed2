"""The Pygments lexer (rulelang.highlight) on every shipped rule file, and
the keyword list every editor tool shares (rulelang.words) held to the
grammar."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulelang import words
from rulelang.syntax import parse

pygments = pytest.importorskip("pygments", reason="the lexer needs Pygments (the 'highlight' extra)")

from pygments.lexers import get_lexer_by_name, get_lexer_for_filename  # noqa: E402
from pygments.token import (Comment, Error, Keyword, Name, Number, Operator,  # noqa: E402
                            Punctuation, String)

from rulelang.highlight import RulelangLexer  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted(p.relative_to(ROOT).as_posix() for p in [*ROOT.glob("rulesets/*.rules"),
                                                         *ROOT.glob("examples/*.rules")])


def test_keywords_are_the_grammars_words():
    """Every word the grammar spells out is a keyword, and nothing else is."""
    grammar = (ROOT / "rulelang/syntax/rulelang.lark").read_text(encoding="utf-8")
    quoted = set(re.findall(r'"([a-z][a-z/]*)"', grammar))
    from_terminals = {w for rx in re.findall(r"^(?:EXTREME|OTHER)\.\d+: /\(?([a-z|]+)\)?", grammar,
                                             re.MULTILINE) for w in rx.split("|")}
    assert from_terminals == {"highest", "lowest", "other"}
    assert words.KEYWORDS | {"yes/no"} == quoted | from_terminals
    assert words.DECLARATION_WORDS <= words.KEYWORDS


def test_the_lexer_is_registered_with_pygments():
    """`pygmentize -l rulelang` and `.rules` files find it (the entry point)."""
    assert get_lexer_by_name("rulelang").__class__ is RulelangLexer
    assert get_lexer_for_filename("northpole.rules").__class__ is RulelangLexer


@pytest.mark.parametrize("path", FILES)
def test_every_file_lexes_without_errors(path):
    """No Error token; the tokens give back the text; every name the IR
    declares is lexed as a name and every keyword as one."""
    text = (ROOT / path).read_text(encoding="utf-8")
    toks = list(RulelangLexer().get_tokens_unprocessed(text))
    assert [t for t in toks if t[1] in Error] == []
    assert "".join(v for _, _, v in toks) == text
    by_text = {}
    for _, kind, value in toks:
        by_text.setdefault(value, set()).add(kind)
    rs = parse(text, path)
    for r in rs.rules:
        assert Name.Function in by_text[r.name], r.name
    for d in (*rs.decks, *rs.piles, *rs.tables):
        assert Name.Class in by_text[d.name], d.name
    for s in rs.stats:      # (a stat may be called a keyword, 'at': that one reads as the keyword)
        assert all(k in Name for k in by_text[s.name]) or s.name in words.KEYWORDS, s.name
    for w in words.KEYWORDS & set(by_text):
        assert all(k in Keyword or k in Name for k in by_text[w]), w   # a keyword used as a name
    assert any(k in Comment for _, k, _ in toks) and any(k in Number for _, k, _ in toks)


def test_token_types_of_one_line():
    text = 'rule hunt (p: player) { if roll d6 >= 5: food += 2; log "{food} left" }  # eat\n'
    got = [(k, v) for _, k, v in RulelangLexer().get_tokens_unprocessed(text) if v.strip()]
    assert got[:2] == [(Keyword.Declaration, "rule"), (Name.Function, "hunt")]
    assert (Keyword, "if") in got and (Keyword, "roll") in got and (Number, "d6") in got
    assert (Number.Integer, "5") in got and (Name, "food") in got
    assert (String.Interpol, "{food}") in got and (String.Double, ' left"') in got
    assert (Comment.Single, "# eat") in got
    assert [k for k, v in got if v == "player"] == [Keyword]


def test_a_keyword_before_or_after_a_dot_is_a_name():
    """'to.walk' (a parameter called 'to'), 'dealer.at' (a stat called 'at'):
    names; 'to' elsewhere, and '1..3', stay what they are."""
    text = "give to.walk <= dealer.at and distance from x to y is 1..3\n"
    got = [(k, v) for _, k, v in RulelangLexer().get_tokens_unprocessed(text) if v.strip()]
    assert got[1:4] == [(Name, "to"), (Punctuation, "."), (Name, "walk")]
    assert (Name, "at") in got and (Keyword, "to") in got and (Operator, "..") in got
