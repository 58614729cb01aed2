"""Engine bugs the conformance harness and the fuzzers found, each pinned
by a test of its own."""

from __future__ import annotations

import random

import pytest

import rulelang
from rulelang import CHANCE, RulesetError
from rulelang.engine import ops
from helpers import ROOT, game, labels



def test_same_card_name_in_two_decks_gives_distinct_labels():
    """Two decks may both hold a 'Joker' (with different properties); the
    moves that pick one or draw one used to share a label, so one of them
    could not be played.  Such cards are now named with their deck."""
    g = game('per player { p 0 }\ndeck red { Joker: power 2 }\ndeck blue { Joker: power -1 }\n'
             'pile hand per player\n'
             'turn { phase a { draw 1 from red to hand; draw 1 from blue to hand\n'
             ' choose 1 cards from hand as k "keep"; p = sum of power in hand; end game "done" } }')
    s = g.new_game(players=1, seed=1)
    assert labels(s) == ["keep Joker (red)", "keep Joker (blue)"]
    s.apply("keep Joker (blue)")
    assert s.is_over
    e = g.new_game(players=1, seed=1, chance="explicit")
    assert labels(e) == ["draw Joker (red)"]


@pytest.mark.parametrize("name, shown", [("nothing", '"nothing"'), ('"Two, Three"', '"Two, Three"')])
def test_card_names_that_read_as_no_card_or_a_list_are_quoted(name, shown):
    """A card called 'nothing' (or 'Two, Three') made 'keep nothing' (or
    'keep Two, Three') mean two different moves."""
    g = game(f'deck d {{ {name}  Two  Three }}\npile hand per player\n'
             'turn { phase a { draw 3 from d to hand\n'
             ' choose up to 2 cards from hand as k "keep"; end game "done" } }', players="1..1")
    s = g.new_game(seed=2)
    got = labels(s)
    assert len(set(got)) == len(got)
    assert "keep nothing" in got and f"keep {shown}" in got


def test_restored_log_values_equal_the_originals():
    """A card choice was logged with a list value, which came back from
    to_json() as a tuple: the restored log differed from the original."""
    g = game('deck d { A x3  B x3 }\npile hand per player\n'
             'turn { phase a { draw 3 from d to hand\n'
             ' choose up to 2 cards from hand as k "keep"; end game "done" } }', players="1..1")
    s = g.new_game(seed=3)
    s.apply(labels(s)[-1])
    restored = g.restore(s.to_json())
    assert [e.value for e in restored.log] == [e.value for e in s.log]
    assert [e.to_dict() for e in restored.log] == [e.to_dict() for e in s.log]


def test_sample_and_explicit_leave_piles_in_the_same_order():
    """After the same draws, sample mode and explicit mode hold the deck
    in the same order (both take the first copy of the card drawn), so a
    sampled game replayed in explicit mode equals it, not only as a
    multiset."""
    g = rulelang.load(ROOT / "rulesets" / "northpole.rules")
    s = g.new_game(players=2, seed=11, options={"expedition": "Roald Amundsen"})
    record = []
    s2 = g._new_state(2, 11, "sample", {"expedition": "Roald Amundsen"}, None, True)
    s2.chance_record = record
    s2._run()
    assert s2 == s
    e = g.new_game(players=2, seed=11, chance="explicit", options={"expedition": "Roald Amundsen"})
    for label in record:
        assert e.current_player == CHANCE
        e.apply(label)
    assert e.current_player == s.current_player
    assert e.piles == s.piles and e.v == s.v and e.stack == s.stack


def test_chance_record_lists_sampled_outcomes_as_explicit_labels():
    g = game('per player { x 0 }\ndeck d { A  B x2 }\npile hand per player\n'
             'setup { for each player { x = roll 2d6 } }\n'
             'turn { phase a { draw 2 from d to hand; end game "done" } }', players="1..1")
    st = g._new_state(1, 5, "sample", None, None, True)
    st.chance_record = []
    st._run()
    kinds = [label.split()[0] for label in st.chance_record]
    assert kinds == ["roll", "draw", "draw"]
    assert st.clone().chance_record is None


def test_a_clone_shares_the_legal_moves_but_not_their_invalidation():
    """A clone reuses the legal moves already worked out; changing either
    state afterwards recomputes its own."""
    g = rulelang.load(ROOT / "rulesets" / "northpole.rules")
    s = g.new_game(players=2, seed=4)
    before = labels(s)
    c = s.clone()
    assert labels(c) == before
    c.apply(before[0])
    assert labels(s) == before
    assert labels(c) != before or c.current_player != s.current_player


def test_card_choices_match_the_plain_enumeration():
    """The multisets offered by 'choose cards' (recursive for small
    choices, iterative for large ones) are exactly all of them, in order."""
    def brute(kinds, have, low, high):
        out = []

        def extend(start, combo, size):
            if size == 0:
                out.append(combo)
                return
            for i in range(start, len(kinds)):
                k = kinds[i]
                used = combo.count(k)
                if used < have[k]:
                    extend(i, combo + (k,), size - 1)
        for size in range(low, high + 1):
            extend(0, (), size)
        return out
    rng = random.Random(0)
    for _ in range(300):
        kinds = sorted(rng.sample(range(12), rng.randint(0, 6)))
        have = {k: rng.randint(1, 3) for k in kinds}
        total = sum(have.values())
        high = rng.randint(0, total)
        low = rng.randint(0, high)
        assert ops.choices._multisets(kinds, have, low, high, 10 ** 9) == brute(kinds, have, low, high)
    # the iterative path (more than 32 cards)
    kinds = [0, 1, 2]
    have = {0: 20, 1: 20, 2: 1}
    got = ops.choices._multisets(kinds, have, 39, 41, 10 ** 9)
    assert got == brute(kinds, have, 39, 41)
    assert ops.choices._multisets(list(range(30)), {k: 1 for k in range(30)}, 0, 30, 1000) is None
    assert len(ops.choices._multisets([7], {7: 5000}, 5000, 5000, 10)[0]) == 5000


def test_a_choice_of_a_row_no_row_covers_is_an_error_not_a_stuck_game():
    """A big table with gaps could leave 'choose a row' with nothing to
    offer: a game with no legal move that is not over.  The checker now
    finds the gaps on any die it allows (judging rows by their ranges)."""
    with pytest.raises(RulesetError) as info:
        game('per player { x 0 }\ntable t d2000 { 1 One: x += 1 }\n'
             'turn { phase a {\n choose a row of t 5..6\n end game "done" } }', players="1..1")
    assert info.value.line == 4 and "no row for a roll of 2" in info.value.message


def test_a_rule_fault_while_listing_moves_is_a_ruleset_error():
    """legal_moves() turns a fault of the rules (here too many choices)
    into a RulesetRuntimeError at the statement, like apply() does."""
    cards = " ".join(f"C{i}" for i in range(40))
    g = game(f'deck d {{ {cards} }}\npile hand per player\n'
             'turn { phase a { draw 40 from d to hand\n'
             ' choose up to 20 cards from hand as k "keep"\n end game "done" } }', players="1..1")
    with pytest.raises(rulelang.RulesetRuntimeError, match="max_choices") as info:
        g.new_game(seed=1)      # the first decision's moves are listed at once
    assert info.value.line == 6


def test_questions_about_pieces_outside_a_rule():
    """A question about pieces in the score, an end condition or the
    turn's 'when' had no room for its temporary in the bare frame the
    machine uses there (IndexError at the end of the first game)."""
    g = game('per player { x 0 }\n'
             'pieces crew { state { side one of fresh, lost }\n A: skill 3\n B: skill 5 }\n'
             'turn when any of crew where side is fresh { phase p {\n'
             ' choose one crew as m where side is fresh "lose"\n m.side = lost } }\n'
             'end "all lost" when none of crew where side is fresh\n'
             'score {\n count crew where side is lost\n'
             ' highest skill among crew where side is lost\n}', players="1..1")
    s = g.new_game(seed=1)
    s.apply("B")
    assert s.result().scores == (6,)
    s.apply("A")
    assert s.is_over and s.result().scores == (7,) and s.result().ending == "all lost"


def test_an_endless_loop_of_plain_statements_is_stopped_at_its_line():
    """Loops that never wait run as one generated function; their passes
    still count against Limits.max_steps, and the error names the line of
    the statement that was running (here the inner loop's body)."""
    import rulelang
    g = rulelang.loads('game "T"\nper player { n 0 }\n'
                       'turn { phase p {\n'
                       '  repeat 1000000000 times {\n'
                       '    repeat 1000000000 times { n += 1 } } } }\n', "loop.rules")
    with pytest.raises(rulelang.RulesetRuntimeError) as err:
        g.new_game(players=1, limits=rulelang.Limits(max_steps=5000))
    assert err.value.line == 5 and "steps without reaching a decision" in err.value.message


def test_a_fault_inside_plain_statements_names_its_own_line():
    """A fault in the middle of a run of plain statements is reported at
    that statement's line, not at the run's first."""
    import rulelang
    g = rulelang.loads('game "T"\nper player { n 0  m 0 }\n'
                       'turn { phase p {\n'
                       '  n += 1\n'
                       '  m = n * 9007199254740991\n'
                       '  n += 1 } }\n', "big.rules")
    with pytest.raises(rulelang.RulesetRuntimeError) as err:
        g.new_game(players=1)
    assert err.value.line == 5 and "past" in err.value.message


@pytest.mark.parametrize("loop", ["for each player BODY", "for each player as pI BODY",
                                  "repeat 1 times BODY", "while n < 1 BODY"])
def test_deeply_nested_loops_still_compile(loop):
    """Python allows 20 nested loop or try blocks in one function; runs of
    plain statements nested deeper than the generated code may go are
    compiled as steps of the machine instead (a 'for each player' without
    'as' costs two blocks).  Twenty nested loops used to be a SyntaxError
    when the first game ran."""
    body = "n += 1"
    for i in range(20):
        body = loop.replace("I", str(i)).replace("BODY", "{ " + body + " }")
    g = game(f'per player {{ n 0 }}\nturn {{ phase p {{ {body}\n end game "done" }} }}\n')
    st = g.new_game(players=1)
    assert st.is_over and st.result().ending == "done"
    assert st.stat("n", 0) == 1


def test_a_fault_in_a_rule_called_from_a_rule_names_the_callee():
    """A rule's code calls the rules it uses inside its own Python call; a
    fault in the callee is reported at the callee's line, not at the call."""
    g = rulelang.loads('game "T"\nplayers 1..1\nper player { n 0 }\n'
                       'rule inner {\n'
                       '  n = 9007199254740991 * 2\n'
                       '}\n'
                       'rule outer { inner }\n'
                       'turn { phase p { outer } }\n', "calls.rules")
    with pytest.raises(rulelang.RulesetRuntimeError) as err:
        g.new_game(players=1)
    assert err.value.line == 5 and "rule inner" in err.value.message


def test_a_reaction_or_an_on_draw_rule_may_draw():
    """A 'whenever' whose body draws, and an 'on draw' rule that draws from
    its own deck, load and run (the deck's 'on draw' rules are known before
    any body is compiled; loading used to fail with an AttributeError)."""
    g = game('per player { x 0  low no }\ndeck d { A x3  B x3 }\npile hand per player\n'
             'whenever x >= 2 { draw 1 from d to hand }\n'
             'on draw from d as c where size of hand < 3 { draw 1 from d to hand }\n'
             'turn { phase a { x += 1\n if x >= 3: end game "done" } }', players="1..1")
    state = g.new_game(seed=1)
    while not state.is_over:
        state.apply(state.legal_moves()[0])
    assert len(state.pile("hand", 0)) == 3
