"""The language's constructs, each on a small ruleset of its own, so the
behaviour is pinned independently of any one game."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest

import rulelang
from rulelang import CHANCE
from rulelang.api import parse_and_check
from rulelang import ir
from rulelang.ir import serialize
from helpers import ROOT, game, labels



def test_may_is_a_yes_no_decision():
    """'may' asks the player in scope; only "yes" runs its body."""
    g = game('per player { gold 0 }\nturn { phase p { may "dig" { gold += 3 }; end game "done" } }')
    s = g.new_game(players=1)
    assert labels(s) == ["dig: yes", "dig: no"]
    assert s.current_player == 0
    s.apply("dig: yes")
    assert s.stat("gold", 0) == 3 and s.is_over
    s = g.new_game(players=1).apply("dig: no")
    assert s.stat("gold", 0) == 0


def test_choose_one_in_the_middle_of_a_rule():
    """'choose one' stops a rule for a decision and goes on after it."""
    g = game('per player { a 0  b 0 }\nrule r { a += 1; choose one "pick" { "left": b = 1 "right": b = 2 }; a += 10 }\n'
             'turn { phase p { r; end game "done" } }')
    s = g.new_game(players=1)
    assert labels(s) == ["left", "right"]
    s.apply("right")
    assert (s.stat("a", 0), s.stat("b", 0)) == (11, 2)


def test_repeat_while_and_stop():
    """'repeat N times' runs N times; 'stop' leaves the innermost loop."""
    g = game('per player { n 0  m 0 }\nturn { phase p {\n'
             ' repeat 4 times: n += 1\n'
             ' while yes { m += 1; if m == 3: stop }\n'
             ' end game "done" } }')
    s = g.new_game(players=1)
    assert (s.stat("n", 0), s.stat("m", 0)) == (4, 3)


def test_for_each_player_rebinds_or_names():
    """'for each player' makes each player the one in scope; 'as x' names
    them instead; 'other' leaves out the current player."""
    g = game('per player { x 0  seen 0 }\nsetup {\n for each player { x = 10 }\n}\n'
             'turn { phase p {\n for each other player as q { q.seen += 1 }\n'
             ' end game "done" } }', players="3..3")
    s = g.new_game(players=3)
    assert [s.stat("x", p) for p in range(3)] == [10, 10, 10]
    assert [s.stat("seen", p) for p in range(3)] == [0, 1, 1]


def test_whenever_fires_once_when_the_condition_becomes_true():
    """A 'whenever' runs when a change makes its condition true, not again
    while it stays true."""
    g = game('per player { hp 3 min 0  alarms 0 }\nwhenever hp == 0 { alarms += 1 }\n'
             'turn { phase p { hp -= 2; hp -= 2; hp -= 2; end game "done" } }')
    s = g.new_game(players=1)
    assert (s.stat("hp", 0), s.stat("alarms", 0)) == (0, 1)


def test_pool_sum_has_exact_probabilities():
    """'roll 2d6' is one chance node over the sums 2..12 with exact odds."""
    g = game('per player { x 0 }\nturn { phase p { x = roll 2d6; end game "done" } }')
    s = g.new_game(players=1, chance="explicit")
    probs = {m.label: m.probability for m in s.legal_moves()}
    assert probs["roll 7"] == Fraction(6, 36) and probs["roll 2"] == Fraction(1, 36)
    assert sum(probs.values()) == 1 and len(probs) == 11
    s.apply("roll 12")
    assert s.stat("x", 0) == 12


def test_roll_off_rerolls_only_the_tied():
    """'roll off' lets the tied highest players roll again."""
    g = game('global { first none }\nsetup { first = roll off d6 }\nend "set" when first is not none',
             players="3..3")
    s = g.new_game(players=3, chance="explicit")
    for v in (6, 2, 6):          # seats 0 and 2 tie
        s.apply(f"roll {v}")
    assert s.current_player == CHANCE
    s.apply("roll 1")            # seat 0 again
    s.apply("roll 4")            # seat 2 again
    assert s.stat("first") == 2 and s.is_over


def test_player_queries():
    """count/no/any players where, highest/lowest X among players."""
    g = game('per player { x 0 }\nglobal { c 0  hi 0  lo 0  none_big no  any_big no }\n'
             'setup { for each player { x = 5 } }\n'
             'turn { phase p { x = 9\n'
             ' c = count players where x > 6\n hi = highest x among players\n lo = lowest x among other players\n'
             ' none_big = no players where x > 9\n any_big = any players where x > 8\n end game "done" } }',
             players="3..3")
    s = g.new_game(players=3)
    assert (s.stat("c"), s.stat("hi"), s.stat("lo")) == (1, 9, 5)
    assert s.stat("none_big") is True and s.stat("any_big") is True


def test_per_turn_values_reset_and_turn_order():
    """Per-turn stats are reset from their expression at each turn's start;
    turns go clockwise from the first player; 'when' filters the players."""
    g = game('per player { base 2  played 0  out no  seatno 0 }\nper turn { budget = base * 2 }\n'
             'global { order 0  starter none }\n'
             'setup { let k = 1\n for each player { seatno = k; k += 1 }\n for each player as p { starter = p } }\n'
             'turn order clockwise from starter when not out {\n'
             ' phase p { played += budget; budget = 0; order = order * 10 + seatno\n'
             '  if seatno == 1: out = yes } }\n'
             'end "three turns" when order >= 100', players="3..3")
    s = g.new_game(players=3)
    assert s.stat("starter") == 2
    assert s.stat("order") == 312          # seats 2, 0, 1
    assert [s.stat("played", p) for p in range(3)] == [4, 4, 4]


def test_skip_a_phase():
    """'skip NAME' skips that phase later in the same turn only."""
    g = game('global { turns 0  a 0  b 0 }\n'
             'turn { phase one { turns += 1; if turns == 1: skip two }\n phase two { b += 1 }\n'
             ' phase three { a += 1 } }\nend "two turns" when turns == 2 and a == 2', players="1..1")
    s = g.new_game(players=1)
    assert (s.stat("a"), s.stat("b")) == (2, 1)


def test_options_answered_by_new_game():
    """Setup options given to new_game are not asked; a list answers per seat."""
    g = game('per player { power 0 }\noption side "Pick a side" { "light": power = 1 "dark": power = 2 }\n'
             'setup { for each player { choose side } }\nend "ready" when yes', players="2..2")
    s = g.new_game(players=2, options={"side": ["dark", "light"]})
    assert [s.stat("power", p) for p in range(2)] == [2, 1]
    s = g.new_game(players=2, options={"side": [None, "light"]})
    assert labels(s) == ["light", "dark"] and s.current_player == 0


def test_choose_a_row_and_reroll():
    """'choose a row' applies the picked row; 'reroll while' offers a reroll
    after every die on a turn and charges its cost."""
    g = game('per player { x 0  tokens 1 }\ntable t d6 { 1..5: x += 1\n 6: x += 6 }\n'
             'reroll while tokens > 0 { tokens -= 1 }\n'
             'turn { phase p { roll on t; choose a row of t 6..6; end game "done" } }', players="1..1")
    s = g.new_game(players=1, chance="explicit")
    s.apply("roll 2")
    assert labels(s) == ["keep 2", "reroll 2"]
    s.apply("reroll 2")
    assert s.stat("tokens", 0) == 0
    s.apply("roll 6")                       # no tokens left: no reroll offered
    assert labels(s) == ["6"]
    s.apply("6")
    assert s.stat("x", 0) == 12


def test_cards_draw_move_count_and_sum():
    """Draws refill from the refill pile; count/sum/size read piles; chosen
    cards move between piles."""
    g = game('per player { total 0  n 0 }\ndeck d refills from used { A x2: v 3\n B x1: v -1 }\npile used\n'
             'pile hand per player, hidden\n'
             'turn { phase p { draw 3 from d to hand\n total = sum of v in hand\n n = count of A in hand\n'
             ' choose 1 cards from hand as out "drop"\n move out from hand to used\n move all from hand to used\n'
             ' draw 2 from d to hand\n end game "done" } }', players="1..1")
    s = g.new_game(players=1, chance="explicit")
    for c in ("A", "B", "A"):
        s.apply(f"draw {c}")
    assert (s.stat("total", 0), s.stat("n", 0)) == (5, 2)
    assert labels(s) == ["drop A", "drop B"]
    s.apply("drop B")
    # Both piles went to 'used', and the next draw found 'd' empty:
    # 'used' was shuffled into it.
    assert sorted(s.pile("d")) == ["A", "A", "B"] and s.pile("used") == []
    s.apply("draw B")                        # the deck was refilled from 'used'
    s.apply("draw A")
    assert sorted(s.pile("hand", 0)) == ["A", "B"] and s.is_over


def test_arithmetic_is_safe():
    """Division floors; dividing by zero gives 0 rather than a crash."""
    g = game('per player { a 0  b 0 }\nturn { phase p { a = 7 / 2; b = 7 / (a - a); end game "done" } }')
    s = g.new_game(players=1)
    assert (s.stat("a", 0), s.stat("b", 0)) == (3, 0)


def test_lowest_score_wins():
    """'winner lowest score' picks the lowest."""
    g = game('per player { pts 0 }\nsetup { let k = 0\n for each player { pts = 5 - k; k += 1 } }\n'
             'end "x" when yes\nscore { pts }\nwinner lowest score', players="3..3")
    result = g.new_game(players=3).result()
    assert result.scores == (5, 4, 3) and result.winners == (2,)


def test_compiled_json_plays_identically(tmp_path):
    """A ruleset loaded from its compiled JSON plays the same game as the
    .rules file for the same seed and moves."""
    path = ROOT / "rulesets" / "northpole.rules"
    out = tmp_path / "np.json"
    out.write_text(json.dumps(serialize.to_data(parse_and_check(path.read_text(), str(path)))))
    a, b = rulelang.load(path).new_game(players=3, seed=9), rulelang.load(out).new_game(players=3, seed=9)
    rng = random.Random(9)
    while not a.is_over:
        label = rng.choice(a.legal_moves()).label
        a.apply(label)
        b.apply(label)
    assert b.is_over and a.result() == b.result()
    assert [e.text for e in a.log] == [e.text for e in b.log]


@pytest.mark.parametrize("choice, move", [("choose 1 cards from hand as c", "take A"),
                                           ("choose one card from hand as c", "take: A")])
def test_runtime_error_names_the_rule(choice, move):
    """A fault inside a rule at run time is a RulesetError naming the rule,
    the file and the line (here: moving a chosen card that has already
    left its pile), the state unchanged; the same whether the local holds
    the chosen cards or one card."""
    g = game('deck d { A x1  B x1 }\npile used\npile hand per player\n'
             f'rule bad {{\n  draw 2 from d to hand\n  {choice} "take"\n'
             '  move c from hand to used\n  move c from hand to used\n}\nturn { phase p { bad } }')
    s = g.new_game(players=1)
    with pytest.raises(rulelang.RulesetError) as info:
        s.apply(move)
    assert info.value.filename == "t.rules" and info.value.line == 10
    assert "rule bad" in info.value.message and "card A is not in hand" in info.value.message
    assert s.pile("used") == [] and sorted(s.pile("hand", 0)) == ["A", "B"]


def test_moving_a_chosen_card_that_is_none_moves_nothing():
    """A choice of one card from an empty pile holds none, and moving none
    moves nothing."""
    g = game('deck d { A x1 }\npile used\npile empty\n'
             'turn { phase p { choose one card from empty as c "take"\n move c from empty to used\n'
             ' end game "done" } }')
    s = g.new_game(players=1)
    assert s.is_over and s.pile("used") == [] and s.pile("d") == ["A"]


def test_while_rolls_anew_each_time():
    """A roll in a 'while' condition is made again before every test."""
    g = game('per player { tries 0 }\nturn { phase p { while roll d6 < 6 { tries += 1 }; end game "done" } }')
    s = g.new_game(players=1, chance="explicit")
    for v in (2, 3, 6):
        s.apply(f"roll {v}")
    assert s.is_over and s.stat("tries", 0) == 2


def test_end_turn_in_setup_is_an_error():
    """'end turn' reached from setup (through a rule) stops with a clear error."""
    g = game('per player { flag no }\nrule bail { end turn }\nsetup { for each player { bail; flag = yes } }')
    with pytest.raises(rulelang.RulesetError, match="outside a turn"):
        g.new_game()


def test_end_turn_in_a_whenever_for_another_player():
    """'end turn' in a whenever running for a player who is not taking the
    turn ends only that whenever; the turn goes on."""
    g = game('per player { hp 1 min 0  down no }\nglobal { after 0 }\n'
             'rule fall { end turn }\nwhenever hp == 0 { down = yes; fall; hp = 5 }\n'
             'turn { phase p { for each other player as foe { foe.hp -= 1 }; after += 1; end game "done" } }',
             players="2..2")
    s = g.new_game(players=2)
    # The whenever stopped at 'end turn' (hp stays 0); the attacker's turn went on.
    assert s.stat("down", 1) is True and s.stat("hp", 1) == 0
    assert s.stat("after") == 1


def test_end_turn_in_a_whenever_as_a_round_begins():
    """'end turn' in a whenever set off while no turn is running (here in
    'every round') ends only that whenever; the round begins as usual."""
    g = game('per player { hp 2 min 0  down no  turns 0 }\n'
             'rule fall { end turn }\nwhenever hp == 0 { down = yes; fall; hp = 5 }\n'
             'turn { every round { for each player { hp -= 1 } }\n'
             '  phase p { turns += 1; if round >= 3: end game "done" } }')
    s = g.new_game(players=1)
    assert s.is_over and s.stat("down", 0) is True
    assert s.stat("hp", 0) == 0        # the whenever stopped at 'end turn'
    assert s.stat("turns", 0) == 3     # and every round still had its turn


def test_whenever_on_a_global():
    """A whenever watching a global stat fires when it changes."""
    g = game('global { alarm 0  rang 0 }\nwhenever alarm >= 1 { rang += 1 }\n'
             'turn { phase p { alarm = 5; end game "done" } }')
    assert g.new_game(players=1).stat("rang") == 1


def test_choosing_more_cards_than_held_takes_them_all():
    """'choose 3 cards' from a hand of 2 offers the whole hand, never nothing."""
    g = game('deck d { A x1  B x1 }\npile hand per player\npile out\n'
             'turn { phase p { draw 2 from d to hand; choose 3 cards from hand as c "take"\n'
             ' move c from hand to out; end game "done" } }')
    s = g.new_game(players=1)
    assert labels(s) == ["take A, B"]
    s.apply("take A, B")
    assert sorted(s.pile("out")) == ["A", "B"]


def test_separators_names_and_quoted_cards():
    """',' separates statements; names may start with language words; a
    quoted card name can be counted."""
    g = game('per player { a 0  b 0  highest_bid 4  n 0 }\ndeck d { "Cracked Ice" x2 }\npile hand per player\n'
             'turn { phase p { a -= 1, b += 1, a = highest_bid\n'
             ' draw 2 from d to hand, n = count of "Cracked Ice" in hand\n end game "done" } }')
    s = g.new_game(players=1)
    assert (s.stat("a", 0), s.stat("b", 0), s.stat("n", 0)) == (4, 1, 2)


def test_choose_a_row_labels_are_unique():
    """Rows that share a name are told apart by their roll; a range row
    that starts below the chosen range is offered too."""
    g = game('per player { x 0 }\ntable t d4 { 1..2 Nothing: x += 0\n 3 Nothing: x += 0\n 4 Treasure: x += 9 }\n'
             'turn { phase p { choose a row of t 2..4; end game "done" } }')
    s = g.new_game(players=1)
    assert labels(s) == ["Nothing (2)", "Nothing (3)", "Treasure"]


def test_end_condition_on_rounds_is_checked_when_a_round_starts():
    """An end condition counting rounds fires as the round begins, before
    anyone plays in it."""
    g = game('per player { turns 0 }\nturn { phase p { turns += 1 } }\nend "three rounds" when round >= 3',
             players="2..2")
    s = g.new_game(players=2)
    assert s.is_over and [s.stat("turns", p) for p in range(2)] == [2, 2]


def test_endless_loop_error_points_at_the_loop():
    """The step-limit error names the line of the loop that ran away."""
    g = rulelang.loads('game "T"\nplayers 1..1\nper player { food 0 }\n'
                       'turn { phase p {\n  while food >= 0 { food += 1 }\n} }\n', "loop.rules")
    with pytest.raises(rulelang.RulesetError) as info:
        g.new_game(limits=rulelang.Limits(max_steps=1000))
    assert info.value.line == 5


# ------------------------------------------------------------------ pieces and pools

CREW = '''
pieces crew {
    state { side one of fresh, tired   group 0 }
    Wild: skill 4, tired_skill 5, leader yes, group 1
    "Mrs Chippy": skill 6, group 2
    Crean: skill 4, group 1
    Blackborow: skill 5, tired_skill none, group 1
}
'''


def test_pieces_have_attributes_and_their_own_state():
    """Each piece has the attributes on its line and its own copy of the
    state values (a line may set one); attributes it does not give are none."""
    g = game('per player { x 0 }\n' + CREW + 'end "x" when yes', players="1..1")
    s = g.new_game()
    assert s.piece("crew", "Wild") == {"skill": 4, "tired_skill": 5, "leader": True,
                                       "side": "fresh", "group": 1}
    assert s.piece("crew", "Mrs Chippy")["group"] == 2
    assert s.piece("crew", "Crean")["leader"] is None
    assert [p["name"] for p in s.view(None)["pieces"]["crew"]] == ["Wild", "Mrs Chippy", "Crean", "Blackborow"]


def test_piece_queries_and_loops():
    """count/any/none of pieces where..., lowest X among pieces, and
    'for each PIECES as x where ...' that changes their state."""
    g = game('per player { n 0  best 0  lead no  nobody no }\n' + CREW +
             'turn { phase p {\n n = count crew where group == 1\n best = lowest skill among crew where group == 2\n'
             ' lead = any of crew where leader and side is fresh\n'
             ' for each crew as man where man.group == 1 and man.skill == 4 { man.side = tired }\n'
             ' nobody = none of crew where side is fresh and group == 1\n end game "done" } }', players="1..1")
    s = g.new_game()
    assert (s.stat("n", 0), s.stat("best", 0), s.stat("lead", 0)) == (3, 6, True)
    assert [s.piece("crew", m)["side"] for m in ("Wild", "Crean", "Blackborow")] == ["tired", "tired", "fresh"]
    assert s.stat("nobody", 0) is False


def test_choose_a_piece():
    """'choose one PIECES as x where ...' offers the matching pieces by name;
    with none matching there is no decision and x is none."""
    g = game('per player { picked no }\n' + CREW +
             'turn { phase p {\n choose one crew as who where group == 1 and skill == 4 "Demoralize"\n'
             ' who.side = tired\n choose one crew as nobody where group == 9\n'
             ' if nobody is none: picked = yes\n end game "done" } }', players="1..1")
    s = g.new_game()
    assert labels(s) == ["Wild", "Crean"] and s.current_player == 0
    s.apply("Crean")
    assert s.piece("crew", "Crean")["side"] == "tired" and s.stat("picked", 0) is True


def test_dice_pool_counts_successes_and_ones():
    """'roll N dice d6' keeps the faces; 'count of pool >= t' and
    'count of pool == 1' count them (the rulebook example: five dice,
    target 4, three successes and one failure)."""
    g = game('per player { net 0 }\nturn { phase p {\n let throw = roll 5 dice d6\n'
             ' net = count of throw >= 4 - count of throw == 1\n end game "done" } }', players="1..1")
    s = g.new_game(chance="explicit")
    assert [m.probability for m in s.legal_moves()] == [Fraction(1, 6)] * 6
    for face in (6, 4, 1, 5, 2):
        s.apply(f"roll {face}")
    assert s.stat("net", 0) == 2
    assert [e.value for e in s.log if e.kind == "pool"] == [(6, 4, 1, 5, 2)]


def test_piece_checker_messages():
    """The checker knows piece sets: unknown sets and fields, fixed
    attributes that cannot change, words outside a state's values."""
    text = ('game "T"\nplayers 1..1\n' + CREW +
            'rule r {\n for each crwe as m { }\n for each crew as m { m.skil += 1 }\n'
            ' for each crew as m { m.skill = 3 }\n for each crew as m { m.side = asleep }\n}\n'
            'turn { phase p { r } }')
    with pytest.raises(rulelang.RulesetError) as info:
        rulelang.loads(text)
    messages = [d.message for d in info.value.diagnostics]
    assert any("there is no piece set 'crwe' — did you mean 'crew'?" in m for m in messages)
    assert any("pieces of 'crew' have no 'skil' — did you mean 'skill'?" in m for m in messages)
    assert any("'skill' is a fixed attribute" in m for m in messages)
    assert any("'asleep' is not one of the values of 'side'" in m for m in messages)


def test_rules_with_parameters():
    """A rule may take values: numbers, players and pieces, each checked
    against what the call gives; rolls in the call are made first."""
    g = game('per player { x 0 }\n' + CREW +
             'rule bump (amount, who: player) { who.x += amount }\n'
             'rule tire (man: crew) { man.side = tired }\n'
             'turn { phase p {\n for each player as q { bump(roll d6, q) }\n'
             ' choose one crew as m where side is fresh\n tire(m)\n end game "done" } }', players="2..2")
    s = g.new_game(players=2, chance="explicit")
    s.apply("roll 3")
    s.apply("roll 5")
    s.apply("Crean")
    assert (s.stat("x", 0), s.stat("x", 1)) == (3, 5)
    assert s.piece("crew", "Crean")["side"] == "tired" and s.is_over


def test_rule_parameter_errors():
    """Calls are checked for the number and kind of their values."""
    with pytest.raises(rulelang.RulesetError) as info:
        rulelang.loads('game "T"\nplayers 1..1\nper player { x 0 }\nrule two (a, b) { x += a + b }\n'
                       'rule who (p: plyer) { }\nturn { phase p { two(1); two(yes, 2); who(1) } }')
    messages = [d.message for d in info.value.diagnostics]
    assert "rule 'two' takes 2 values (a, b), not 1" in messages
    assert "'a' of rule 'two' is a number, not a yes/no value" in messages
    assert any("not 'plyer' — did you mean 'player'?" in m for m in messages)


def test_if_then_else_value():
    """'if C then A else B' is A when C holds, else B; both of one kind."""
    g = game('per player { a 3  b 0  c 0 }\nturn { phase p {\n b = if a > 2 then 10 else 20\n'
             ' c = if a > 5 then 10 else 20\n end game "done" } }', players="1..1")
    s = g.new_game()
    assert (s.stat("b", 0), s.stat("c", 0)) == (10, 20)
    with pytest.raises(rulelang.RulesetError, match="both must be of one kind"):
        game('per player { a 0 }\nturn { phase p { a = if a > 1 then 2 else no } }')


def test_cards_with_words_and_single_card_choices():
    """Card properties may be words; 'choose one card from PILE as c where …'
    picks one card (copies are one move) and 'c.prop' reads it; 'for each
    card in PILE as c where …' walks the cards the pile held at the start."""
    g = game('per player { need 0  tally 0 }\n'
             'deck main {\n Hunt1: action hunt, penguins 2, red yes\n Hunt2: action hunt, penguins 1\n'
             ' Sled1: action sled\n Show x2: action entertain, item book\n}\n'
             'pile hand per player\npile discard\n'
             'turn { phase p {\n draw 4 from main to hand\n'
             ' choose one card from hand as act where action is hunt "Action"\n'
             ' need = act.penguins\n move act from hand to discard\n'
             ' for each card in hand as rest where rest.action is not hunt { tally += 1; move rest from hand to discard }\n'
             ' end game "done" } }', players="1..1")
    s = g.new_game(chance="explicit")
    for card in ("Hunt1", "Sled1", "Show", "Hunt2"):
        s.apply(f"draw {card}")
    assert labels(s) == ["Action: Hunt1", "Action: Hunt2"]
    s.apply("Action: Hunt1")
    assert (s.stat("need", 0), s.stat("tally", 0)) == (2, 2)
    assert s.pile("hand", 0) == ["Hunt2"] and s.is_over


def test_card_property_errors():
    """Only numbers can be summed; printed properties cannot change."""
    with pytest.raises(rulelang.RulesetError) as info:
        game('per player { n 0 }\ndeck main { A: kind big  B: kind 3 }\npile hand per player\n'
             'turn { phase p { n = sum of kind in hand; choose one card from hand as c; c.kind = 2; n = c.knd } }')
    messages = [d.message for d in info.value.diagnostics]
    assert "'sum of kind' needs numbers, but some cards give 'kind' a word" in messages
    assert "a card's 'kind' is printed on it and cannot change" in messages
    assert "no card has a 'knd' — did you mean 'kind'?" in messages


def test_on_draw_and_moving_a_named_card():
    """'on draw from DECK as c where …' runs as soon as such a card is drawn,
    then the draw goes on; 'move card NAME from A to B' moves one copy of a
    named card (here: only the first event of the turn is resolved, and it
    shuffles another card into the deck)."""
    g = game('per player { events 0 }\nper turn { resolved no }\n'
             'deck main refills from discard {\n Work x3: kind job\n Storm: kind event\n Thaw: kind event\n}\n'
             'deck reserve { Sinks: kind event }\npile hand per player\npile discard\n'
             'on draw from main as ev where kind is event {\n move ev from hand to discard\n'
             ' if not resolved { events += 1; resolved = yes; move card Sinks from reserve to main }\n}\n'
             'turn { phase p {\n while size of hand < 2 { draw 1 from main to hand }\n end game "done" } }',
             players="1..1")
    s = g.new_game(chance="explicit")
    s.apply("draw Storm")
    assert s.pile("discard") == ["Storm"] and "Sinks" in s.pile("main") and s.pile("reserve") == []
    for card in ("Thaw", "Work", "Work"):
        s.apply(f"draw {card}")
    assert s.pile("hand", 0) == ["Work", "Work"] and s.stat("events", 0) == 1
    assert sorted(s.pile("discard")) == ["Storm", "Thaw"] and s.is_over


def test_on_draw_needs_a_deck_and_move_card_a_card():
    with pytest.raises(rulelang.RulesetError) as info:
        game('per player { x 0 }\ndeck main { A x2 }\npile hand per player\n'
             'on draw from mian as c { x += 1 }\nturn { phase p { move card B from main to hand } }')
    messages = [d.message for d in info.value.diagnostics]
    assert "'on draw' needs a deck: there is no deck 'mian' — did you mean 'main'?" in messages
    assert "there is no card 'B'" in messages


def test_choices_with_conditions_are_offered_only_while_they_hold():
    """A 'choose one' alternative with 'if' is offered only while its
    condition holds; with none offered there is no decision at all."""
    g = game('per player { gold 2  picks 0 }\n'
             'turn { phase p {\n'
             '  choose one "Spend" {\n'
             '    "Buy" if gold >= 2 { gold -= 2; picks += 1 }\n'
             '    "Beg" if gold == 0: gold += 1\n'
             '  }\n'
             '  choose one "Again" { "Buy" if gold >= 2: gold -= 2 }\n'
             '  end game "done" } }')
    s = g.new_game(players=1)
    assert labels(s) == ["Buy"]
    s.apply("Buy")
    assert s.is_over and (s.stat("gold", 0), s.stat("picks", 0)) == (0, 1)


def test_may_else_runs_on_no():
    """'may … else' carries out the else part when the answer is no."""
    g = game('per player { n 0 }\n'
             'turn { phase p { while n < 5 { may "more" { n += 1 } else: stop }; end game "done" } }')
    s = g.new_game(players=1)
    s.apply("more: yes").apply("more: yes").apply("more: no")
    assert s.is_over and s.stat("n", 0) == 2


def test_choose_a_number():
    """'choose a number from A to B' offers every whole number in the range;
    an empty or one-number range decides nothing."""
    g = game('per player { n 0  m 0 }\n'
             'turn { phase p { choose a number from 1 to n + 3 as k "How many"; m = k\n'
             '  choose a number from 5 to 2 as j "None"; n = j; end game "done" } }')
    s = g.new_game(players=1)
    assert labels(s) == ["How many: 1", "How many: 2", "How many: 3"]
    s.apply("How many: 3")
    assert s.is_over and (s.stat("m", 0), s.stat("n", 0)) == (3, 5)


def test_pick_a_random_piece_is_a_fair_chance_node():
    """'pick one … at random' is a chance node over the matching pieces,
    equally likely; with one match it takes it without a draw."""
    g = game('per player { n 0 }\n'
             'pieces chits { state { out no } A: v 1  B: v 2  C: v 3 }\n'
             'turn { phase p { pick one chits at random as c where not out; c.out = yes; n += c.v\n'
             '  pick one chits at random as d where v == 3 and not out\n'
             '  if d is none: n += 100\n'
             '  end game "done" } }')
    s = g.new_game(players=1, chance="explicit")
    assert s.current_player == CHANCE
    assert {(m.label, m.probability) for m in s.legal_moves()} == {
        ("draw A", Fraction(1, 3)), ("draw B", Fraction(1, 3)), ("draw C", Fraction(1, 3))}
    s.apply("draw C")
    assert s.is_over and s.stat("n", 0) == 103
    counts = {"A": 0, "B": 0, "C": 0}
    for seed in range(300):
        t = g.new_game(players=1, seed=seed)
        counts["ABC"[t.stat("n", 0) % 100 - 1]] += 1
    assert all(60 < c < 140 for c in counts.values()), counts


def test_dice_gathered_and_spent():
    """Pools join with '+', start from 'no dice', and 'spend' takes the dice
    nearest the value first, never more than there are."""
    g = game('per player { left 0  high 0 }\n'
             'turn { phase p {\n'
             '  let held = no dice\n'
             '  held += roll 3 dice d6\n'
             '  held = held + roll 2 dice d6\n'
             '  spend 2 dice >= 4 from held\n'
             '  left = size of held\n'
             '  high = count of held >= 4\n'
             '  spend 9 dice == 1 from held\n'
             '  end game "done" } }')
    s = g.new_game(players=1, chance="explicit")
    for face in (6, 4, 1, 5, 2):
        s.apply(f"roll {face}")
    # 4 and 5 are spent (nearest 4), leaving 6, 1, 2
    assert s.is_over and (s.stat("left", 0), s.stat("high", 0)) == (3, 1)


def test_a_rule_can_take_a_card():
    """A rule parameter of kind 'card' reads the card's properties."""
    g = game('per player { food 0 }\n'
             'deck d { Big: food 3 }\npile hand\n'
             'rule eat (c: card) { food += c.food }\n'
             'turn { phase p { draw 1 from d to hand\n'
             '  choose one card from hand as top "Eat"; eat(top); end game "done" } }')
    s = g.new_game(players=1)
    s.apply("Eat: Big")
    assert s.is_over and s.stat("food", 0) == 3


def test_log_lines_show_values_named_in_braces():
    """'log' replaces {name} and {x.field} by their values: pieces and cards
    by name, yes/no as words."""
    g = game('per player { n 3  open yes }\n'
             'pieces crew { state { side one of fresh, tired } A: id 1  B: id 2 }\n'
             'turn { phase p { for each crew as man where id == 2 { man.side = tired\n'
             '  log "{man} ({man.id}) is {man.side}; n={n}, open={open}" }; end game "done" } }')
    s = g.new_game(players=1)
    assert "B (2) is tired; n=3, open=yes" in [e.text for e in s.log]


def test_a_track_reads_the_data_of_the_space_its_marker_is_on():
    """A track is a stat holding one of its spaces (the first to start);
    'track.field' reads what the current space prints."""
    g = game('track camp {\n  low: heat 1, hand 2\n  high: heat 3\n}\n'
             'per player { h 0  n 0 }\n'
             'turn { phase p { h = camp.heat; camp = high; n = camp.heat * 10\n'
             '  if camp.hand is none: n += 1\n  end game "done" } }')
    s = g.new_game(players=1)
    assert (s.stat("h", 0), s.stat("n", 0)) == (1, 31)
    assert s.view(None)["tracks"]["camp"] == {"space": "high", "heat": 3}


def test_players_with_one_number_is_exactly_that_many():
    """'players 2' is a game for exactly two, as 'players 2..2' is; the
    syntax error a designer used to get (about a brace) is gone."""
    body = 'per player { x 0 }\nturn { phase p { end game "done" } }\n'
    one = rulelang.loads(f'game "T"\nplayers 2\n{body}', "t.rules")
    both = rulelang.loads(f'game "T"\nplayers 2..2\n{body}', "t.rules")
    assert (one.min_players, one.max_players) == (2, 2)
    assert one.ruleset == both.ruleset
    with pytest.raises(ValueError, match="2 to 2 players, not 3"):
        one.new_game(players=3)
    assert rulelang.loads(f'game "T"\nplayers 3\n{body}', "t.rules").new_game().players == 3


DOTS = '''game "Dots"
players 3
global { bidder none  total 0  first_seat none }
per player { won 0 }
turn { phase p {
    if bidder is none: bidder = this player
    bidder.won += 2
    total += seat of this player
    log "P{bidder} has {bidder.won}"
    if bidder.won >= 6: end game "done"
} }
score { won }
'''


def test_a_game_stat_holding_a_player_reads_and_changes_that_players_stats():
    """'bidder.won' is the stat of the player the game stat 'bidder' holds,
    read, changed and logged, as 'rival.won' is for a local."""
    s = rulelang.loads(DOTS, "dots.rules").new_game()
    assert s.is_over and s.stat("bidder") == 0
    assert [s.stat("won", i) for i in range(3)] == [6, 0, 0]
    assert [e.text for e in s.log if e.kind == "log"] == ["P0 has 2", "P0 has 4", "P0 has 6"]


def test_seat_of_a_player_is_its_number():
    """'seat of P' is the seat's number, 0 first: the game ends on the third
    turn (P0, the bidder, gets 2 on each), after seats 0, 1 and 2."""
    s = rulelang.loads(DOTS, "dots.rules").new_game()
    assert s.stat("total") == 0 + 1 + 2
    two = rulelang.loads(DOTS.replace("bidder.won >= 6", "bidder.won >= 4"), "dots.rules")
    assert two.new_game().stat("total") == 0 + 1


@pytest.mark.parametrize("line, message", [
    ("total.won += 1", "'total' holds a number, not a player"),
    ("total += seat of total", "'seat of' must be a player, not a number"),
    ("total += seat of none", "'seat of none': none is no player"),
])
def test_dots_and_seats_need_players(line, message):
    with pytest.raises(rulelang.RulesetCheckError, match=message):
        rulelang.loads(DOTS.replace("total += seat of this player", line), "dots.rules")


def test_seat_of_a_player_that_is_none_is_an_error_of_the_rule():
    text = DOTS.replace("total += seat of this player", "total += seat of first_seat")
    with pytest.raises(rulelang.RulesetRuntimeError, match="'seat of' a player that is none"):
        rulelang.loads(text, "dots.rules").new_game()


GENERATED = '''game "Gen"
players 2
deck cards {
    "{rank} of {suit}" for rank from 1 to 13 and suit in hearts, diamonds, clubs, spades: rank rank, suit suit
    Joker x2: rank 0
}
pieces meat {
    state { eaten no }
    "Meat {n}" for n from 1 to 6: food n
    Bone
}
pile hand per player
setup { for each player { draw 5 from cards to hand } }
turn { phase p { end game "done" } }
'''


def test_a_line_of_a_deck_or_piece_set_can_stand_for_many():
    """'"{rank} of {suit}" for rank from 1 to 13 and suit in …' is the 52
    cards, the first counter outermost, each with its values as properties;
    the same for pieces; the IR holds them written out, as by hand."""
    rs = rulelang.loads(GENERATED, "gen.rules").ruleset
    cards = rs.decks[0].cards
    assert len(cards) == 53 and sum(c.count for c in cards) == 54
    assert [c.name for c in cards[:5]] == ["1 of hearts", "1 of diamonds", "1 of clubs",
                                           "1 of spades", "2 of hearts"]
    by_hand = parse_and_check(GENERATED.replace(
        '"{rank} of {suit}" for rank from 1 to 13 and suit in hearts, diamonds, clubs, spades: '
        'rank rank, suit suit',
        "\n".join(f'"{r} of {s}": rank {r}, suit {s}' for r in range(1, 14)
                  for s in ("hearts", "diamonds", "clubs", "spades"))), "gen.rules")
    assert [(c.name, c.count, c.props) for c in cards] == \
        [(c.name, c.count, c.props) for c in by_hand.decks[0].cards]
    meat = rs.pieces[0].pieces
    assert [p.name for p in meat] == [f"Meat {n}" for n in range(1, 7)] + ["Bone"]
    assert meat[2].props[0].value == ir.Num(3)


@pytest.mark.parametrize("line, message", [
    ('"{n}" for n from 5 to 1', "'n' goes from 5 to 1: nothing to count"),
    ('"{m}" for n from 1 to 3', r"'\{m\}' in \"\{m\}\" names no value this line counts \(n\)"),
    ('"{n}" for n from 1 to 3 and n in a, b', "'n' is counted twice in this line"),
    ('"{a}{b}" for a from 1 to 400 and b from 1 to 400', "stands for more than 100000 components"),
])
def test_a_line_that_stands_for_many_says_what_is_wrong(line, message):
    text = GENERATED.replace("    Joker x2: rank 0\n", f"    {line}\n")
    with pytest.raises(rulelang.RulesetSyntaxError, match=message):
        rulelang.loads(text, "gen.rules")
