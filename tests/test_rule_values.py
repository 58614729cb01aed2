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


def plays_as_the_ops(game, seeds, players=None):
    """Random games of ``game`` played by its generated code and by the
    ops one at a time (``op_by_op``) stay equal, move for move."""
    reference = op_by_op(game)
    for chance in ("sample", "explicit"):
        for seed in range(seeds):
            a = game.new_game(players=players, seed=seed, chance=chance)
            b = reference.new_game(players=players, seed=seed, chance=chance)
            rng = random.Random(seed)
            while not a.is_over:
                assert a.to_json() == b.to_json()
                move = rng.choice(a.legal_moves())
                a.apply(move.label)
                b.apply(move.label)
            assert a.to_json() == b.to_json()


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
    plays_as_the_ops(g, seeds=6)


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
     "rule 'fact' asks for its own value, so its value cannot be asked for here"),
    (("score { hits }", "score { hits + rolled() }"),
     "rule 'rolled' rolls dice (line 10), so its value cannot be asked for here"),
    (("x += twice(1) + rolled()", "x += twise(1)"), "unknown function 'twise' — did you mean 'twice'"),
    (("x += twice(1) + rolled()", "x += avg(1, 2)"), "unknown function 'avg'"),
    (("rule me gives player", "rule me"), "rule 'me' gives no value"),
    (("x += twice(1) + rolled()", "x += twice(1, 2)"), "rule 'twice' takes 1 value (n), not 2"),
    (("if hits >= 2", "if any players where rolled() > 2"),
     "rule 'rolled' rolls dice (line 10), so its value cannot be asked for here"),
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


# ------------------------------------------------------------ rules that only work out a value

ROADS = '''game "Roads"
players 1..2
per player { gold 3  seen 0  at one of map }
board map {
    state { visits 0 }
    A: cost 1, home yes
    B: cost 2
    C: cost 5
    link A -- B by road
    link A -- C by road
}
rule can_go (from: map, to: map) gives yes/no {
    give to.cost <= gold and (distance from from to to along road) is 1
}
rule can_move gives yes/no {
    let here = at
    for each map as s {
        if can_go(here, s): give yes
    }
    give no
}
rule doubled (n) gives number {
    let t = n
    t += n
    give t
}
whenever doubled(gold) >= 10 { seen += 1 }
setup { for each player { for each map as s where home { at = s } } }
turn {
    phase a {
        let here = at
        choose one "Act" {
            "Go" if can_move() {
                choose one map as dest where can_go(here, dest) "Go to"
                dest.visits += 1
            }
            "Rest": gold += 0
        }
        gold += 1
        if round >= 3: end game "x"
    }
}
end "rich" when any players where doubled(gold) >= 20
score { doubled(gold) }
'''


def test_a_rule_that_only_works_out_a_value_can_be_asked_for_anywhere():
    """A rule that only works out its value (let, if, a loop, give) is asked
    for in a 'where', a choice's condition, a 'whenever', an ending and the
    score: 'Go' is offered while a space is in reach, the destinations are
    those in reach (C costs 5: reached once there are 5 gold), the
    'whenever' fires as gold doubles to 10, and the score is gold doubled."""
    st = rulelang.loads(ROADS, "roads.rules").new_game(players=1, seed=1)
    assert [m.label for m in st.legal_moves()] == ["Go", "Rest"]
    st.apply("Go")
    assert [m.label for m in st.legal_moves()] == ["B"]      # 3 gold: not C
    st.apply("B").apply("Rest")                              # gold 5 as round 3 begins
    st.apply("Go")
    assert [m.label for m in st.legal_moves()] == ["B", "C"]
    assert st.stat("seen", 0) == 1           # doubled(gold) reached 10 as gold went to 5
    st.apply("C")
    assert st.is_over and st.result().scores == (12,)


def test_a_whenever_on_a_rule_watches_the_stats_the_rule_reads():
    """'whenever doubled(gold) >= 10' is asked when gold changes (the rule
    reads it), and only as it becomes true."""
    src = ROADS.replace("gold += 1\n", "gold += 3\n")
    st = rulelang.loads(src, "roads.rules").new_game(players=1, seed=1)
    st.apply("Rest")                         # gold 3 -> 6: doubled 12
    assert st.stat("seen", 0) == 1
    st.apply("Rest")                         # 6 -> 9: still true, no second time
    assert st.stat("seen", 0) == 1


def test_inline_rule_values_play_as_the_ops_do():
    """The generated code and the ops, move for move, with rule values
    called inline in conditions; and the rules conform."""
    game = rulelang.loads(ROADS, "roads.rules")
    plays_as_the_ops(game, seeds=8, players=2)
    report = check_ruleset(game, games=20, seed=0, fresh_games=0)
    assert report.ok, report.format()


@pytest.mark.parametrize("body, why", [
    ("gold += 1\n    give yes", "changes 'gold' (line 13)"),
    ("log \"x\"\n    give yes", "writes to the log (line 13)"),
    ("let r = roll d6\n    give r > 2", "rolls dice (line 13)"),
    ("give twice_again(1) > 0", "asks for the value of 'twice_again', which rolls dice (line "),
])
def test_a_rule_that_does_more_is_refused_in_a_where_with_the_reason(body, why):
    src = ROADS.replace("    give to.cost <= gold and (distance from from to to along road) is 1",
                        "    " + body, 1)
    src += "rule twice_again (n) gives number { give n + roll d6 }\n"
    with pytest.raises(RulesetCheckError) as info:
        rulelang.loads(src, "roads.rules")
    msg = str(info.value)
    assert f"rule 'can_go' {why}" in msg and "so its value cannot be asked for here" in msg


def test_a_loop_without_end_in_a_rule_value_is_stopped_by_the_work_limit():
    """A pure rule's loops pay for each pass: one that never ends, asked for
    in a choice's condition, stops at Limits.max_steps with its rule named."""
    src = ROADS.replace("    let here = at\n    for each map as s {",
                        "    let here = at\n    while here is at { here = at }\n    for each map as s {", 1)
    game = rulelang.loads(src, "roads.rules")
    with pytest.raises(rulelang.RulesetRuntimeError) as info:
        game.new_game(players=1, seed=1)
    assert "in rule can_move" in info.value.message and "max_steps" in info.value.message
    assert info.value.line == src[:src.index("while here is at")].count("\n") + 1
