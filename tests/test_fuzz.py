"""Parser and checker fuzzing with Hypothesis.

Inputs: strings generated from the grammar itself
(``hypothesis.extra.lark.from_lark``), as written and with every token
spaced out (so more of them get past the parser to the checker and the
engine), and mutations of the real rulesets (and of the small ones in
tests/conformance/ that use what the real ones do not: lines dropped, duplicated,
swapped; tokens swapped; junk, deep bracket runs, deep nesting without
brackets and huge numbers inserted; the file cut short).

The property: every input either loads or raises ``RulesetError`` with a
line and a column — never another exception, never a hang (a watchdog
turns more than WATCHDOG seconds into a failure).  An input that loads is
played for a few random moves in both chance modes, where again the only
exception allowed is ``RulesetError``.  All of it runs under
``rulelang.testing.EngineAudit``: the engine opens no file, socket or
process, imports nothing and reads no clock.

make test runs 150 + 250 from the grammar (generating them is what takes
the time), 800 mutations and 300 shaped IRs; make test-long 2000 of each.
RULELANG_FUZZ_EXAMPLES=N
runs N per test instead.  A long session, e.g. overnight:

    RULELANG_FUZZ_EXAMPLES=200000 python -m pytest tests/test_fuzz.py -q --hypothesis-show-statistics

Hypothesis keeps failing examples in .hypothesis/ and replays them first
on the next run; ``--hypothesis-seed=N`` repeats a run exactly.
"""

from __future__ import annotations

import os
import random
import re
import signal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark

import rulelang
from rulelang import Limits, RulesetError, ir, trust
from rulelang.check import reserved_words
from rulelang.ir import serialize
from rulelang.syntax import parser
from rulelang.testing import EngineAudit
from test_data import strategy as ir_strategy
from helpers import ROOT, RULESETS

#: The real rulesets, and the small ones that use what they do not.
SOURCES = [p.read_text(encoding="utf-8")
           for p in RULESETS + sorted((ROOT / "tests" / "conformance").glob("*.rules"))]

SCALE = int(os.environ.get("RULELANG_FUZZ_EXAMPLES", "0"))
WATCHDOG = 20          # seconds for one input, loading and playing
PLAY_LIMITS = Limits(max_steps=20_000)


def examples(ci: int) -> int:
    return SCALE or ci


def fuzz_settings(n):
    return settings(max_examples=examples(n), deadline=None, print_blob=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much, HealthCheck.large_base_example])


class Hang(Exception):
    pass


def _alarm(signum, frame):
    raise Hang(f"no answer within {WATCHDOG} seconds")


def loads_or_error(text: str, seed: int = 0):
    """The property: load ``text`` (and play a little); only RulesetError
    may come out, with a line and column, and within WATCHDOG seconds."""
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, WATCHDOG)
    try:
        try:
            game = rulelang.loads(text, "fuzz.rules")
        except RulesetError as e:
            assert e.filename == "fuzz.rules"
            assert isinstance(e.line, int) and e.line >= 1, e.format()
            assert isinstance(e.column, int) and e.column >= 1, e.format()
            assert e.message and e.format().startswith(f"fuzz.rules:{e.line}:{e.column}: ")
            return "error"
        play_a_little(game, seed)
        return "loaded"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def play_a_little(game, seed, moves=60):
    rng = random.Random(seed)
    for chance in ("sample", "explicit"):
        try:
            state = game.new_game(players=game.min_players, seed=seed, chance=chance,
                                  limits=PLAY_LIMITS, log=seed % 2 == 0)
            for _ in range(moves):
                if state.is_over:
                    break
                legal = state.legal_moves()
                assert legal, "no legal move in a game that is not over"
                state.apply(rng.choice(legal))
            state.result()
            game.restore(state.to_json())
            for seat in range(state.players):
                state.view(seat)
        except RulesetError as e:
            assert e.line >= 1 and e.column >= 1, e.format()


@pytest.fixture(scope="session", autouse=True)
def warm_engine():
    """Everything the engine imports or reads on first use happens before
    the audit starts (the grammar file, Lark's error machinery): once per
    test process, however its tests of this file are ordered."""
    for text in ['game "W"\n', "game 1", 'game "W"\nrule r { x = }', 'game "W"\nrule r { y }',
                 'game "W"\n#' + "(" * 300, 'game "W"\nper player { x 0 }\nturn { phase p { while yes { x += 1 } } }']:
        try:
            game = rulelang.loads(text)
            game.new_game(seed=1)
        except RulesetError:
            pass
    for source in SOURCES:
        play_a_little(rulelang.loads(source, "fuzz.rules"), 1)


def audited(run):
    with EngineAudit() as audit:
        run()
    assert not audit.events, audit.format()


# ------------------------------------------------------------------ from the grammar


GRAMMAR = parser()


def spaced_terminals():
    """Every terminal with a space before it (and comments ending their
    line), so that generated tokens do not run into each other."""
    out = {}
    for t in GRAMMAR.terminals:
        if t.name == "COMMENT":
            out[t.name] = st.just(" # a comment\n")
        elif t.name == "WS":
            out[t.name] = st.sampled_from([" ", "\n", "\t"])
        else:
            out[t.name] = st.from_regex(t.pattern.to_regexp(), fullmatch=True).map(lambda s: " " + s)
    return out


RAW = from_lark(GRAMMAR)
SPACED = from_lark(GRAMMAR, explicit=spaced_terminals())


def test_strings_from_the_grammar():
    @fuzz_settings(150)
    @given(RAW)
    def run(text):
        loads_or_error(text)
    audited(run)


def test_spaced_strings_from_the_grammar():
    @fuzz_settings(250)
    @given(SPACED, st.integers(0, 2**16))
    def run(text, seed):
        loads_or_error(text, seed)
    audited(run)


# ------------------------------------------------------------------ mutations of real rulesets

TOKEN = re.compile(r'"[^"\n]*"|[A-Za-z_][A-Za-z0-9_]*|\d+|[^\sA-Za-z0-9_"]+')
WORDS = sorted(reserved_words() | {"game", "players", "per", "player", "turn", "global", "deck", "pile",
                                    "table", "rule", "option", "setup", "phase", "whenever", "reroll",
                                    "score", "winner", "const", "refills", "from", "hidden", "among",
                                    "clockwise", "order", "when", "of", "in", "to", "as", "up", "times",
                                    "cards", "row", "a", "one", "off", "by", "more", "where", "all"})
DEEP = ["(", "{", "if yes: ", "not ", "- ", "repeat 1 times: ", "x + ", "else if no: x = 1 ", "[", ")", "}"]


@st.composite
def mutated(draw):
    text = draw(st.sampled_from(SOURCES))
    for _ in range(draw(st.integers(1, 5))):
        lines = text.splitlines(keepends=True) or [""]
        n = len(lines)
        op = draw(st.sampled_from(["drop", "duplicate", "swap", "swap tokens", "junk", "deep",
                                   "number", "word", "cut", "char"]))
        if op == "drop":
            del lines[draw(st.integers(0, n - 1))]
        elif op == "duplicate":
            i, j = draw(st.integers(0, n - 1)), draw(st.integers(0, n))
            lines.insert(j, lines[i])
        elif op == "swap":
            i, j = draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1))
            lines[i], lines[j] = lines[j], lines[i]
        text = "".join(lines)
        if op == "swap tokens":
            spans = [m.span() for m in TOKEN.finditer(text)]
            if len(spans) >= 2:
                a, b = sorted(draw(st.lists(st.integers(0, len(spans) - 1), min_size=2, max_size=2,
                                            unique=True)))
                (a0, a1), (b0, b1) = spans[a], spans[b]
                text = text[:a0] + text[b0:b1] + text[a1:b0] + text[a0:a1] + text[b1:]
            continue
        at = draw(st.integers(0, len(text)))
        if op == "junk":
            text = text[:at] + draw(st.text(max_size=30)) + text[at:]
        elif op == "deep":
            run = draw(st.sampled_from(DEEP)) * draw(st.sampled_from([2, 50, 199, 201, 1000, 5000]))
            text = text[:at] + run + text[at:]
        elif op == "number":
            digits = draw(st.sampled_from([1, 10, 16, 17, 30, 1000, 5000]))
            number = draw(st.sampled_from(["9", "1", "0"])) * digits
            text = text[:at] + " " + draw(st.sampled_from(["", "-", "d", "x"])) + number + " " + text[at:]
        elif op == "word":
            text = text[:at] + " " + draw(st.sampled_from(WORDS)) + " " + text[at:]
        elif op == "cut":
            text = text[:at]
        elif op == "char" and text:
            at = min(at, len(text) - 1)
            text = text[:at] + draw(st.characters()) + text[at + 1:]
    return text


def test_mutations_of_the_rulesets():
    @fuzz_settings(300)
    @given(mutated(), st.integers(0, 2**16))
    def run(text, seed):
        loads_or_error(text, seed)
    audited(run)


def test_the_rulesets_themselves_load_and_play():
    """The unmutated rulesets pass the same property (and load)."""
    for source in SOURCES:
        assert loads_or_error(source, 3) == "loaded"


def test_the_watchdog_catches_a_hang(monkeypatch):
    """The property can fail: a parser that never returns is reported."""
    monkeypatch.setattr(rulelang.api, "parse_and_check", lambda *a, **k: _spin())
    monkeypatch.setattr(__import__(__name__), "WATCHDOG", 1)
    with pytest.raises(Hang):
        loads_or_error('game "X"\n')


def _spin():
    while True:
        pass


def test_the_property_fails_on_another_exception(monkeypatch):
    def broken(*a, **k):
        raise KeyError("boom")
    monkeypatch.setattr(rulelang.api, "parse_and_check", broken)
    with pytest.raises(KeyError):
        loads_or_error('game "X"\n')


# ------------------------------------------------------------ shaped IR

@fuzz_settings(300)
@given(st.data())
def test_any_ir_of_the_right_shape_loads_or_is_refused(data):
    """An IR of the right shape but any content (what a hostile document
    can hold once past the shape check, far from what the parser makes):
    admitting it gives a RulesetError with a place or a Game, and the
    game plays with no error but RulesetError."""
    rs = data.draw(ir_strategy(ir.Ruleset))
    document = serialize.to_data(rs)
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(WATCHDOG)
    try:
        with EngineAudit() as audit:
            try:
                game = rulelang.api.game_of(trust.admit_data(document, "shaped.json",
                                                             PLAY_LIMITS), PLAY_LIMITS)
            except RulesetError as e:
                assert e.line >= 1 and e.column >= 0   # (a document may claim column 0)
                return
            for chance in ("sample", "explicit"):
                try:
                    state = game.new_game(players=game.min_players, seed=1, chance=chance)
                    for _ in range(30):
                        if state.is_over:
                            break
                        state.apply(state.legal_moves()[0])
                except RulesetError:
                    pass
        assert not audit.events, audit.events
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
