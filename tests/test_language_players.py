"""Three ways of naming players (docs/language.md, "Questions about
players" and "for P"): `player after P where …` (the next one clockwise
who meets it), `sum of X among [other] players [where …]` and the
statement `for P { … }` (the player P holds is the player in scope).  How
each parses, what it gives (edge cases: nobody qualifies, `other`, a
player of none), what the checker says, and that generated code plays as
the ops do, op by op."""

from __future__ import annotations


import pytest

import rulelang
from rulelang import ir
from rulelang.check import check
from rulelang.ir import serialize
from rulelang.syntax import parse
from rulelang.testing import op_by_op
from helpers import game, labels, play_both_ways, shipped

# ---------------------------------------------------------------- parsing


def _value(text):
    """The value of ``x = TEXT`` in a rule."""
    return parse('game "T"\nrule r { x = ' + text + ' }\n').rules[0].body[0].value


def test_the_forms_parse_to_their_nodes():
    assert _value("player after bidder where in_hand > 0") == ir.PlayerAfter(
        ir.Name("bidder"), ir.Compare(">", ir.Name("in_hand"), ir.Num(0)))
    assert _value("player after bidder") == ir.PlayerAfter(ir.Name("bidder"))
    assert _value("sum of in_hand among players") == ir.Extreme("sum", ir.Name("in_hand"), False)
    assert _value("sum of in_hand * 2 among other players where in_hand > 1") == ir.Extreme(
        "sum", ir.BinOp("*", ir.Name("in_hand"), ir.Num(2)), True,
        ir.Compare(">", ir.Name("in_hand"), ir.Num(1)))
    assert _value("lowest in_hand among other players where in_hand > 0") == ir.Extreme(
        "lowest", ir.Name("in_hand"), True, ir.Compare(">", ir.Name("in_hand"), ir.Num(0)))
    assert _value("highest in_hand among players") == ir.Extreme("highest", ir.Name("in_hand"), False)
    # ('sum of PROP in PILE' is still the cards' sum)
    assert _value("sum of move in hand") == ir.SumCards("move", ir.PileRef("hand"))
    body = parse('game "T"\nrule r { for bidder { x = 1 }  for player after p: y = 2 }\n').rules[0].body
    assert body == (
        ir.ForPlayer(ir.Name("bidder"), (ir.Assign(ir.Name("x"), "=", ir.Num(1)),)),
        ir.ForPlayer(ir.PlayerAfter(ir.Name("p")), (ir.Assign(ir.Name("y"), "=", ir.Num(2)),)))


def test_a_where_goes_to_the_innermost_question():
    """As with any 'where', the one after 'player after' takes in the rest."""
    v = _value("count players where player after p where ready is q")
    assert v == ir.PlayerQuery("count", False, ir.PlayerAfter(
        ir.Name("p"), ir.Compare("==", ir.Name("ready"), ir.Name("q"))))


def test_the_forms_round_trip_through_json_and_the_schema():
    from rulelang.ir import schema
    rs = shipped("liars_dice.rules").ruleset
    data = serialize.to_data(rs)
    assert serialize.from_data(data) == rs
    assert schema.validate_data(data) == []
    kinds = {n["kind"] for n in _nodes(data)}
    assert {"PlayerAfter", "Extreme", "ForPlayer"} <= kinds


def _nodes(data):
    stack = [data]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            if "kind" in x:
                yield x
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)


# ---------------------------------------------------------------- player after P where …

AROUND = """
per player { dice 0  ready no }
global { found none  start none }
"""


def _found(players, start, cond):
    """Who ``player after (seat START) where COND`` finds (seats with an
    odd number hold dice), by generated code and op by op alike."""
    g = game(AROUND + f"""
rule seat_no (n) gives player {{
    for each player as p where seat of p is n {{ give p }}
    give none
}}
setup {{
    for each player {{ dice = seat of this player % 2 }}
    start = seat_no({start})
    found = player after start where {cond}
}}
""", players="1..6")
    got = {runner.new_game(players=players, seed=1).stat("found") for runner in (g, op_by_op(g))}
    assert len(got) == 1
    return got.pop()


def test_player_after_where_skips_those_who_fail_it_and_wraps_round():
    # seats with dice: 1, 3, 5 (seat % 2)
    assert _found(6, 1, "dice > 0") == 3
    assert _found(6, 5, "dice > 0") == 1        # past the last seat, round to the first
    assert _found(6, 0, "dice > 0") == 1
    assert _found(6, 2, "dice is 0") == 4


def test_player_after_where_gives_p_itself_when_no_other_player_meets_it():
    assert _found(6, 3, "seat of this player is 3") == 3
    assert _found(2, 1, "dice > 0") == 1        # the only seat with dice is P's own


def test_player_after_where_gives_none_when_nobody_meets_it():
    assert _found(6, 2, "dice > 5") is None
    assert _found(1, 0, "dice > 0") is None     # alone, and failing it


def test_player_after_where_reads_the_looked_at_players_stats_and_lets():
    """Bare names and 'this player' are the player looked at; a 'let' is
    still the asker's."""
    g = game(AROUND + """
setup { for each player { dice = seat of this player % 2 } }
turn { phase p {
    let mine = dice
    found = player after this player where dice is mine and this player is not none
    end game "e"
} }
""", players="1..6")
    st = g.new_game(players=6, seed=1)
    assert st.stat("found") == 2       # seat 0's turn: the next seat with no dice


def test_player_after_a_player_of_none_is_a_runtime_error_naming_the_line():
    g = game(AROUND + 'turn { phase p {\n    found = player after start where dice > 0\n} }\n')
    with pytest.raises(rulelang.RulesetRuntimeError) as err:
        g.new_game(players=2, seed=1)
    assert err.value.line == line_in(AROUND, 3)
    assert "none" in err.value.message


def line_in(decls, n):
    """Line ``n`` of the turn after ``game``/``players`` and ``decls``."""
    return 2 + decls.count("\n") + n - 1


# ---------------------------------------------------------------- sum / highest / lowest of X among players

SUMS = """
per player { dice 0  alive yes }
global { total 0 }
setup { for each player { dice = seat of this player + 1 } }
"""


@pytest.mark.parametrize("expr, want", [
    ("sum of dice among players", 1 + 2 + 3 + 4),
    ("sum of dice among other players", 2 + 3 + 4),             # seat 0's turn
    ("sum of dice among players where dice > 2", 3 + 4),
    ("sum of dice * dice among other players where dice is not 3", 4 + 16),
    ("sum of dice among players where dice > 9", 0),            # nobody: 0
    ("sum of (if alive then 1 else 0) among other players", 3),
    ("(sum of dice among players) - dice", 9),
    ("highest dice among other players where dice < 4", 3),
    ("lowest dice among other players where dice > 1", 2),
    ("lowest dice among players where dice > 9", 0),            # nobody: 0, as without 'where'
])
def test_sum_among_players(expr, want):
    g = game(SUMS + f'turn {{ phase p {{ total = {expr}\n end game "e" }} }}\n', players="1..4")
    for runner in (g, op_by_op(g)):
        assert runner.new_game(players=4, seed=1).stat("total") == want


def test_sum_among_players_with_no_player_in_scope():
    g = game(SUMS.replace("} }\n", "}  total = sum of dice among players where alive }\n"),
             players="1..4")
    assert g.new_game(players=3, seed=1).stat("total") == 6


def test_sum_among_players_past_the_largest_number_is_an_error():
    g = game("per player { big 0 }\nglobal { total 0 }\nsetup {\n"
             "    for each player { big = 9000000000000000 }\n"
             "    total = sum of big among players\n}\n", players="1..2")
    with pytest.raises(rulelang.RulesetRuntimeError) as err:
        g.new_game(players=2, seed=1)
    assert err.value.line == 7


# ---------------------------------------------------------------- for P { … }

BIDS = """
per player { bids 0  passes 0 }
global { bidder none  rounds 0 }
turn { phase p {
    bidder = player after this player
    while rounds < 3 {
        rounds += 1
        for bidder {
            choose one "Bid" {
                "Raise": bids += 1
                "Pass": passes += 1  stop
            }
        }
    }
    passes += 10        # the turn's player again
    end game "done"
} }
score { bids }
"""


def test_for_p_gives_the_decision_to_that_player():
    st = game(BIDS, players="3").new_game(players=3, seed=1)
    assert st.current_player == 1 and labels(st) == ["Raise", "Pass"]
    st.apply("Raise")
    assert st.current_player == 1 and st.stat("bids", 1) == 1 and st.stat("bids", 0) == 0


def test_a_stop_in_for_p_leaves_the_loop_around_it():
    """'for P' is not a loop: the 'stop' leaves the while (one round, not
    three), and the player in scope is the turn's player again."""
    for g in (game(BIDS, players="3"), op_by_op(game(BIDS, players="3"))):
        st = g.new_game(players=3, seed=1)
        st.apply("Pass")
        assert st.is_over and st.stat("rounds") == 1
        assert [st.stat("passes", s) for s in range(3)] == [10, 1, 0]


def test_a_game_saved_inside_for_p_restores_and_plays_on():
    """A save made at P's decision inside 'for P' keeps the player in scope
    before it; the restored game plays on as the first, and a save that
    claims another player there is refused."""
    import json
    g = game(BIDS, players="3")
    st = g.new_game(players=3, seed=1)
    back = g.restore(st.to_json())
    assert back.current_player == 1 and labels(back) == labels(st)
    for s in (st, back):
        s.apply("Raise")
        s.apply("Pass")
    assert back.is_over and back.to_json() == st.to_json()
    doc = json.loads(g.new_game(players=3, seed=1).to_json())
    frame = next(f for f in doc["stack"] if f[2] == 1)
    frame[2] = 2
    with pytest.raises(rulelang.SaveError):
        g.restore(json.dumps(doc))


def test_for_none_skips_the_body_and_the_player_in_scope_comes_back():
    text = """
per player { n 0 }
global { who none }
rule mark { n += 1 }
turn { phase p {
    for who { n += 100 }
    for who { mark; choose one "X" { "A": n += 10 } }
    for player after this player { n += 1 }
    n += 1000
    for this player { for player after this player { n += 5 }  n += 7 }
    end game "e"
} }
"""
    for g in (game(text, players="3"), op_by_op(game(text, players="3"))):
        st = g.new_game(players=3, seed=1)
        assert [st.stat("n", s) for s in range(3)] == [1007, 6, 0]


def test_for_p_with_a_choice_inside_a_for_each_loop_that_stops():
    """A 'stop' in a 'for P' that waits, inside 'for each player': it leaves
    that loop, and the player in scope is the one before the loop again."""
    text = """
per player { n 0 }
turn { phase p {
    for each player {
        for player after this player {
            choose one "X" { "Go": n += 1  "Stop": stop }
        }
    }
    n += 100
    end game "e"
} }
"""
    for g in (game(text, players="3"), op_by_op(game(text, players="3"))):
        st = g.new_game(players=3, seed=1)
        assert st.current_player == 1
        st.apply("Go")
        assert st.current_player == 2
        st.apply("Stop")
        assert st.is_over and [st.stat("n", s) for s in range(3)] == [100, 1, 0]


def test_for_p_in_setup_and_in_a_rule_that_works_out_a_value():
    text = """
per player { n 0 }
global { first none  total 0 }
rule twice (p: player) gives number { for p { give n * 2 }  give 0 }
setup {
    first = player after none_yet() where seat of this player is 1
    for first { n = 21 }
    total = twice(first) + twice(player after first)
}
rule none_yet gives player { give roll off d6 }
"""
    st = game(text, players="2").new_game(players=2, seed=3)
    assert st.stat("n", 1) == 21 and st.stat("n", 0) == 0 and st.stat("total") == 42


# ---------------------------------------------------------------- the checker


@pytest.mark.parametrize("stmt, col, message", [
    ("found = player after start where dice", 38,
     "a 'where' condition must be a yes/no value, not a number"),
    ("found = player after start where roll d6 > 3", 38,
     "a roll here would be made once for all the players: roll first (let r = roll d6) or roll "
     "inside 'for each player'"),
    ("total = sum of ready among players", 20,
     "'sum of … among players' must be a number, not a yes/no value"),
    ("total = sum of dice among players where dice", 45,
     "a 'where' condition must be a yes/no value, not a number"),
    ("for 3 { dice = 1 }", 9, "what 'for' names must be a player, not a number"),
    ("for none { dice = 1 }", 5, "'for none': none is no player"),
    ("for start { stop }", 17,
     "'stop' leaves a repeat, while or for each loop, and there is none here"),
    ("for start { dcie = 1 }", 17, "unknown name 'dcie' — did you mean 'dice'?"),
])
def test_the_checker_names_the_line_and_column(stmt, col, message):
    text = ('game "T"\nper player { dice 0  ready no }\nglobal { found none  start none  total 0 }\n'
            f'turn {{ phase p {{\n    {stmt}\n}} }}\n')
    diags = check(parse(text))
    assert [(d.line, d.column, d.message) for d in diags] == [(5, col, message)]


def test_other_needs_a_player_in_scope():
    text = 'game "T"\nper player { dice 0 }\nglobal { total 0 }\nsetup { total = sum of dice among other players }\n'
    assert [(d.line, d.message) for d in check(parse(text))] == [
        (4, "'other' means other than the player in scope, and there is none here")]


def test_bare_stats_need_for_p_when_no_player_is_in_scope():
    text = 'game "T"\nper player { dice 0 }\nglobal { who none }\nsetup {\n    dice = 1\n    for who { dice = 2 }\n}\n'
    assert [(d.line, d.message) for d in check(parse(text))] == [
        (5, "'dice' belongs to each player, but no player is in scope here (use 'for each player')")]


# ---------------------------------------------------------------- generated code and the ops


@pytest.mark.parametrize("chance", ["sample", "explicit"])
def test_generated_code_plays_liars_dice_as_the_ops(chance):
    """The reference interpreter (one op at a time) and the generated code
    agree move for move on liar's dice, which uses all three forms."""
    moves = play_both_ways(shipped("liars_dice.rules"), 6, chance, players=lambda i: 2 + i % 3)
    assert moves > 100


# Liar's dice as it was written before these forms: two helper rules and a
# scan of every seat for the bidder.
_BY_HAND = [
    ("for bidder { raise_or_call }",
     "for each player where this player is bidder { raise_or_call }"),
    ("let total = sum of in_hand among players",
     "let total = 0\n    for each player as p { total += p.in_hand }"),
    ("bidder = player after this player where in_hand > 0", "bidder = next_after(this player)"),
    ("let showing = sum of (count of cup == bid_face) among players",
     "let showing = 0\n    for each player as p { showing += count of p.cup == bid_face }"),
]
_NEXT_AFTER = """
rule next_after (p: player) gives player {
    let s = seat of p
    repeat count players times {
        s = (s + 1) % count players
        for each player as q where seat of q is s and q.in_hand > 0 { give q }
    }
    give p
}
"""


def test_liars_dice_plays_as_it_did_written_by_hand():
    """The example with the three forms and the same game written without
    them play the same games, log line for log line, for two to six."""
    from rulelang.testing import golden_log
    text = (shipped("liars_dice.rules").ruleset.source or "")
    assert text
    for new, old in _BY_HAND:
        assert new in text
        text = text.replace(new, old)
    by_hand = rulelang.loads(text + _NEXT_AFTER, "by_hand.rules")
    new_game = shipped("liars_dice.rules")
    for players in range(2, 7):
        for seed in range(3):
            for chance in ("sample", "explicit"):
                assert golden_log(new_game, players, seed, chance) == \
                    golden_log(by_hand, players, seed, chance)
