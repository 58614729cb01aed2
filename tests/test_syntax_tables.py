"""The parser's fast path (``rulelang.syntax.lalr``, with the tables
shipped in ``rulelang/syntax/rulelang.tables.json``) reads every text as
Lark does: the same IR, with the same positions, for every text it reads;
and every text it does not read (an error, a limit) is read again by Lark,
so errors are Lark's, word for word.  The tables are those of the grammar
as it is (after a change to rulelang.lark: ``python -m rulelang.syntax``)."""

from __future__ import annotations

import importlib
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark

from rulelang import RulesetError
from rulelang.ir import serialize
from rulelang.limits import DEFAULT, Limits
from rulelang.syntax import lalr, tables
from rulelang.syntax.parse import parse, read_fast, read_with_lark
from helpers import ROOT

parse_module = importlib.import_module("rulelang.syntax.parse")   # (the package's ``parse`` is the function)

EVERY_RULE_FILE = sorted(p for folder in ("rulesets", "examples", "tests")
                         for p in (ROOT / folder).rglob("*.rules"))


def test_the_shipped_tables_are_made_from_the_grammar_as_it_is():
    grammar = tables.GRAMMAR_PATH.read_bytes()
    shipped = tables.TABLES_PATH.read_text(encoding="utf-8")
    assert lalr.load(tables.TABLES_PATH, tables.grammar_digest(grammar)) is not None, \
        "rulelang.lark changed: run python -m rulelang.syntax"
    assert shipped == tables.dumps(tables.build(tables.lark_parser(), grammar)), \
        "rulelang.tables.json is not what the grammar makes: run python -m rulelang.syntax"


def test_the_tables_are_plain_data():
    """JSON, nothing else (no pickle, no code): read with ``json.loads``."""
    import json
    data = json.loads(tables.TABLES_PATH.read_text(encoding="utf-8"))
    assert data["format"] == lalr.FORMAT and set(data) >= {"rows", "rules", "scanners", "terminals"}


def full(rs):
    """Everything of an IR: its data (positions included) and its repr."""
    return serialize.to_data(rs), repr(rs), rs.source, rs.filename


@pytest.mark.parametrize("path", EVERY_RULE_FILE, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_fast_path_reads_every_rule_file_as_lark_does(path):
    text = path.read_text(encoding="utf-8")
    fast = read_fast(text, path.name, DEFAULT)
    assert fast is not None, "the fast path did not read a shipped rule file"
    assert full(fast) == full(read_with_lark(text, path.name, DEFAULT))


def outcome(text, limits=None):
    """What ``parse`` gives for ``text``: the IR's data, or the error."""
    try:
        return ("ok",) + full(parse(text, "t.rules", limits))
    except RulesetError as e:
        return ("error", type(e).__name__, e.format())


def both_ways(text, limits=None):
    """(``parse`` as it reads, ``parse`` with Lark alone)."""
    fast = outcome(text, limits)
    saved = parse_module.read_fast
    parse_module.read_fast = lambda *args: None
    try:
        slow = outcome(text, limits)
    finally:
        parse_module.read_fast = saved
    return fast, slow


def test_lark_alone_still_reads_a_rule_file():
    text = (ROOT / "examples" / "pig.rules").read_text(encoding="utf-8")
    fast, slow = both_ways(text)
    assert fast == slow and fast[0] == "ok"


SOURCES = [p.read_text(encoding="utf-8") for p in EVERY_RULE_FILE]
TOKEN_EDGES = ["", " ", "\n", "#", '"', "(", ")", "{", "}", ":", ",", ";", ".", "..", "-", "+", "=",
               "-=", "->", "--", "<", "x", "x1", "x(a)", "d6", "d", "other", "others", "highest",
               "yes/no", "yes", "1", "-1", "+1", "9" * 30, "roll", "rolling", "if", "iff", "_a"]


@st.composite
def edited(draw):
    """A rule file with a few small edits: characters and tokens put in,
    taken out or swapped, where the lexer and the parser decide most."""
    text = draw(st.sampled_from(SOURCES))
    rnd = random.Random(draw(st.integers(0, 2**32)))
    for _ in range(draw(st.integers(1, 4))):
        at = rnd.randrange(len(text) + 1)
        op = rnd.choice(["insert", "delete", "replace"])
        piece = rnd.choice(TOKEN_EDGES) if rnd.random() < 0.8 else draw(st.text(max_size=3))
        if op == "insert":
            text = text[:at] + piece + text[at:]
        elif op == "delete":
            text = text[:at] + text[at + rnd.randrange(1, 8):]
        else:
            text = text[:at] + piece + text[at + len(piece):]
    return text


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(edited())
def test_edited_rule_files_read_the_same_both_ways(text):
    fast, slow = both_ways(text)
    assert fast == slow


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(from_lark(tables.lark_parser()))
def test_texts_from_the_grammar_read_the_same_both_ways(text):
    fast, slow = both_ways(text)
    assert fast == slow


@pytest.mark.parametrize("limits", [Limits(max_nesting=5), Limits(max_text=3), Limits(max_number=99)])
def test_the_limits_are_met_the_same_both_ways(limits):
    for text in SOURCES[:6]:
        assert both_ways(text, limits)[0] == both_ways(text, limits)[1]


def test_first_characters_of_the_terminals():
    assert tables.first_characters(r"[+-]?[0-9]+") == set("+-0123456789")
    assert tables.first_characters(r"(highest|lowest)\b") == {"h", "l"}
    assert tables.first_characters(r"(?:[ \t\f\r\n])+") == set(" \t\f\r\n")
    assert tables.first_characters(r"\w+") is None          # not known: tried everywhere
    assert tables.first_characters(r"[^a]") is None
    assert tables.first_characters(r"a*") is None           # may match nothing
    assert tables.first_characters(r"(?i:ab)") is None
    assert tables.first_characters(r"a?b") == {"a", "b"}
