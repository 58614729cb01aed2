"""Rules that give values (``rule NAME gives KIND { … give EXPR }``, used
as ``NAME(args)`` in any expression): worked out before the statement
that uses them, as a roll is, so a value rule may roll, draw or ask."""

from __future__ import annotations

import random
import re

import pytest

import rulelang
from rulelang import CHANCE, RulesetCheckError
from rulelang.testing import check_ruleset, op_by_op

VALUES = '''game "Values"
players 2
per player { x 0  hits 0  top none  f 0 }
rule twice (n) gives number { give n * 2 }
rule big gives yes/no {
    if x > 5 { give yes } else { give no }
}
rule me gives player { give this player }
rule rolled gives number {
    let r = roll d6
    log "rolled {r}"
    give r
}
rule fact (n) gives number {
    if n <= 1: give 1
    else { give n * fact(n - 1) }
}
turn { phase p {
    x += twice(1) + rolled()
    top = me()
    f = fact(4)
    if big(): hits += 1
    if hits >= 2: end game "done"
} }
score { hits }
'''


def values():
    return rulelang.loads(VALUES, "values.rules")


def test_a_rule_gives_its_value_to_the_expression_that_asks_for_it():
    """Each turn: x gains twice(1) = 2 and a die; 'big' is yes past 5; the
    die is forced through explicit chance (4 for P0, then 6)."""
    s = values().new_game(seed=1, chance="explicit")
    assert s.current_player == CHANCE
    s.apply("roll 4")
    assert s.stat("x", 0) == 6 and s.stat("hits", 0) == 1 and s.stat("top", 0) == 0
    s.apply("roll 1")                                   # P1: 2 + 1
    assert s.stat("x", 1) == 3 and s.stat("hits", 1) == 0 and s.stat("top", 1) == 1
    s.apply("roll 6")                                   # P0: 6 + 2 + 6
    assert s.is_over and s.stat("x", 0) == 14 and s.stat("hits", 0) == 2
    assert [e.text for e in s.log if e.kind == "log"] == ["rolled 4", "rolled 1", "rolled 6"]


def test_a_rule_may_call_itself_for_its_value():
    """fact(4) = 24, through four frames of the rule."""
    s = values().new_game(seed=1)
    assert s.is_over and s.stat("f", 0) == s.stat("f", 1) == 24


def test_a_game_waiting_inside_a_value_rule_saves_restores_and_plays_as_the_ops():
    """At the die inside 'rolled' the stack holds the turn and the rule:
    the save restores there, and the generated code plays as the ops."""
    g = values()
    s = g.new_game(seed=3, chance="explicit")
    assert len(s.stack) >= 3
    again = g.restore(s.to_json())
    assert again == s
    again.apply("roll 5")
    s.apply("roll 5")
    assert again == s
    reference = op_by_op(g)
    for chance in ("sample", "explicit"):
        for seed in range(6):
            a = g.new_game(seed=seed, chance=chance)
            b = reference.new_game(seed=seed, chance=chance)
            rng = random.Random(seed)
            while not a.is_over:
                assert a.to_json() == b.to_json()
                move = rng.choice(a.legal_moves())
                a.apply(move.label)
                b.apply(move.label)
            assert a.to_json() == b.to_json()


def test_rules_that_give_values_conform():
    report = check_ruleset(values(), games=30, seed=0, fresh_games=0)
    assert report.ok, report.format()


def test_a_value_rule_called_as_a_statement_runs_and_its_value_is_dropped():
    text = VALUES.replace("    top = me()\n", "    rolled\n")
    s = rulelang.loads(text, "values.rules").new_game(seed=1, chance="explicit")
    s.apply("roll 2")                 # the call for its value
    assert s.current_player == CHANCE  # the one made as a statement rolls too
    s.apply("roll 3")
    assert [e.text for e in s.log if e.kind == "log"] == ["rolled 2", "rolled 3"]
    assert s.stat("x", 0) == 4


@pytest.mark.parametrize("change, message", [
    (("give n * 2 }", "n = 2 }"), "rule 'twice' gives a number but may end without giving one"),
    (("if x > 5 { give yes } else { give no }", "if x > 5 { give yes }"),
     "rule 'big' gives a yes/no but may end without giving one"),
    (("give this player", "give 3"), "what the rule gives must be a player, not a number"),
    (("hits += 1", "give 1"), "'give' ends a rule that gives a value"),
    (("score { hits }", "score { hits + fact(3) }"),
     "the value of rule 'fact' is worked out before the statement that uses it"),
    (("x += twice(1) + rolled()", "x += twise(1)"), "unknown function 'twise' — did you mean 'twice'"),
    (("x += twice(1) + rolled()", "x += avg(1, 2)"), "unknown function 'avg'"),
    (("rule me gives player", "rule me"), "rule 'me' gives no value"),
    (("x += twice(1) + rolled()", "x += twice(1, 2)"), "rule 'twice' takes 1 value (n), not 2"),
    (("if hits >= 2", "if count players where twice(x) > 2 >= 2"),
     "the value of rule 'twice' is worked out before the statement that uses it"),
])
def test_the_checker_holds_rule_values_to_their_kind(change, message):
    old, new = change
    assert old in VALUES
    with pytest.raises(RulesetCheckError, match=re.escape(message)):
        rulelang.loads(VALUES.replace(old, new, 1), "values.rules")


def test_a_rule_gives_only_a_kind_of_value_the_language_has():
    with pytest.raises(rulelang.RulesetSyntaxError, match="a rule gives one of number, yes/no"):
        rulelang.loads(VALUES.replace("rule twice (n) gives number", "rule twice (n) gives colour"),
                       "values.rules")


def test_a_parameter_may_be_yes_or_no_in_place_of_a_mode_flag():
    """A rule told how to act (Endurance's 'by_hunt') rather than reading a
    global set around the call."""
    game = rulelang.loads('''game "Flags"
players 1
per player { got 0 }
rule gain (double: yes/no) { got += if double then 2 else 1 }
turn { phase p { gain(yes)  gain(no)  end game "done" } }
score { got }
''')
    state = game.new_game(seed=0)
    assert state.is_over and state.stat("got", 0) == 3
    with pytest.raises(RulesetCheckError, match="'double' holds a yes/no value|yes/no"):
        rulelang.loads('''game "Flags"
players 1
per player { got 0 }
rule gain (double: yes/no) { got += double }
turn { phase p { gain(yes)  end game "done" } }
''')
