"""One meaning for each bare name (``rulelang.check.resolve``): the checker
looks each name up in the language's order and records what it means, and
the compiler reads that record, so a name the checker accepts is one the
engine can read, and reads the same way."""

from __future__ import annotations

import pathlib

import attrs
import pytest

import rulelang
from rulelang import RulesetCheckError, check, ir
from rulelang.api import parse_and_check
from rulelang.check import resolve

TWO_SETS = '''
game "T"
players 1..1
global { n 0  shade one of plain, red }
pieces crew { state { group 1 }  A: skill 2  B: skill 3  C: skill 9 }
pieces boats { state { seats 2 }  X: length 1  Y: length 2, colour red  Z: length 3 }
setup {
    n = count crew where any of boats where length == skill
    shade = red
}
turn { phase p { end game "done" } }
'''


def test_a_where_inside_a_where_reads_the_outer_piece():
    """In 'count crew where any of boats where length == skill', 'length' is the
    boat's and 'skill' the crewman's: the checker used to keep only the
    innermost piece in scope and refused it; crew A (2) and B (3) have a boat
    of their size, C (9) has none."""
    state = rulelang.loads(TWO_SETS, "t.rules").new_game(players=1)
    assert state.stat("n") == 2
    assert state.stat("shade") == "red"


def test_the_lookup_order():
    """Card property, piece field (innermost first), local, player stat,
    global stat, constant, word: the language's order, in one place."""
    rs = parse_and_check(
        'game "T"\nplayers 1..2\nconst most = 4\nper player { skill 1 }\nglobal { red 0 }\n'
        'deck d { K: skill 5 }\npieces crew { A: skill 2, colour blue }\n'
        'pieces boats { X: skill 7 }\nturn { phase p { end game "x" } }', "t.rules")
    names = resolve.Names(rs)
    assert names.bare("skill", card=True, pieces=["crew"]).kind == resolve.CARD
    assert names.bare("skill", pieces=["crew", "boats"]) == resolve.Binding(resolve.PIECE, 1, "boats")
    assert names.bare("skill", pieces=["boats", "crew"]) == resolve.Binding(resolve.PIECE, 1, "crew")
    assert names.bare("skill", locals={"skill": 0}).kind == resolve.LOCAL
    assert names.bare("skill").kind == resolve.PLAYER
    assert names.bare("red").kind == resolve.GLOBAL
    assert names.bare("most").kind == resolve.CONST
    assert names.bare("blue").kind == resolve.WORD
    assert names.bare("nothing") is None


def test_words_come_from_every_place_that_prints_one():
    rs = parse_and_check(
        'game "T"\nplayers 1..2\nper player { mood one of calm, cross }\n'
        'track road { start: ground flat  end: ground steep }\n'
        'deck d { K: suit hearts }\npieces crew { state { side one of up, down } A: colour blue }\n'
        'turn { phase p { end game "x" } }', "t.rules")
    assert set(resolve.words_of(rs)) == {"calm", "cross", "start", "end", "flat", "steep",
                                         "hearts", "up", "down", "blue"}


def test_a_game_stat_one_per_piece_is_refused():
    """A document may say what the syntax cannot: a stat of the game that is
    one per piece (neither the checker nor the engine would find it)."""
    rs = parse_and_check(TWO_SETS, "t.rules")
    stats = list(rs.stats)
    stats[0] = ir.Stat("n", "piece", ir.Num(0))
    with pytest.raises(RulesetCheckError, match="one per piece"):
        rulelang.api.game_of(rulelang.trust.admit(
            attrs.evolve(rs, stats=tuple(stats)), rulelang.Limits()))


def test_the_checker_keeps_what_it_worked_out():
    """``check.resolve_ruleset``: the types the checker found, the stat of
    each word, and what each bare name it read means, every piece scope
    kept ('length' is the boat's, the outer 'skill' the crewman's)."""
    rs = parse_and_check(TWO_SETS, "t.rules")
    found = check.resolve_ruleset(rs)
    assert found.stat_types["n"] == check.NUM and found.stat_types["shade"] == check.TEXT
    assert found.word_stats["red"] == "shade"
    assert found.piece_fields["crew"]["group"] == (check.NUM, True)      # a state value
    assert found.piece_fields["boats"]["colour"] == (check.TEXT, False)  # an attribute
    where = rs.setup[0].value.cond.cond                  # length == skill, inside both 'where's
    assert found.binding(where.left) == resolve.Binding(resolve.PIECE, 1, "boats")
    assert found.binding(where.right) == resolve.Binding(resolve.PIECE, 0, "crew")
    assert found.binding(rs.setup[1].value).kind == resolve.WORD          # shade = red
    assert found.binding(ir.Name("red")) is None        # an equal node, but not one of rs
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        found.stat_types = {}
    with pytest.raises(TypeError):
        found.stat_types["n"] = check.TEXT


def test_resolving_an_unsound_ruleset_raises_every_problem():
    rs = rulelang.syntax.parse(TWO_SETS.replace("shade = red", "shade = blue"), "t.rules")
    with pytest.raises(RulesetCheckError, match="unknown name 'blue'"):
        check.resolve_ruleset(rs)


def test_every_expression_has_its_type_and_every_log_line_its_parts():
    """The checker keeps the type of every expression it read and the
    parts of every log line, as the nodes whose names it bound: the
    engine reads them, it does not parse a log line again."""
    rs = parse_and_check(TWO_SETS.replace('shade = red', 'shade = red\n    log "n is {n}"'),
                         "t.rules")
    found = check.resolve_ruleset(rs)
    count = rs.setup[0].value
    assert found.type_of(count) == check.NUM
    assert found.type_of(count.cond.cond) == check.BOOL           # length == skill
    assert found.type_of(rs.setup[1].value) == check.TEXT        # red, a word
    parts = found.log_parts(rs.setup[2])
    assert parts[0] == "n is " and isinstance(parts[1], ir.Name) and parts[1].name == "n"
    assert found.binding(parts[1]).kind == resolve.GLOBAL
    assert found.type_of(ir.Num(1)) is None and found.log_parts(ir.Log("x")) is None


def test_the_engine_asks_the_checker_what_a_name_means(monkeypatch):
    """Once the checker has run, no other stage looks a name up: every
    shipped ruleset compiles and plays with the resolver's own lookup
    (``Names.bare``) switched off; and every expression in them (a place
    assigned to and a value a declaration writes out too) has the type
    the checker found for it."""
    from rulelang import trust
    from rulelang.engine import compile_ruleset
    root = pathlib.Path(__file__).resolve().parent.parent
    for path in sorted([*root.glob("rulesets/*.rules"), *root.glob("examples/*.rules"),
                        *root.glob("tests/conformance/*.rules")]):
        rs = parse_and_check(path.read_text(encoding="utf-8"), str(path))
        found = trust.resolution(rs)
        with monkeypatch.context() as m:
            m.setattr(resolve.Names, "bare", lambda *a, **k: pytest.fail("a name looked up again"))
            game = rulelang.engine.Game(compile_ruleset(rs))
            rulelang.engine.Game.playouts(game, 2, seed=1)
        untyped = [node for node in ir.walk(rs) if isinstance(node, ir.Expr)
                   and found.type_of(node) is None]
        assert not untyped, untyped[:3]
