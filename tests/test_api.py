"""The move API: illegal moves change nothing, clones and restored states
are equal and go on identically, one seed and one list of moves give one
game, chance nodes are exact, views hide what they must."""

from __future__ import annotations

import json
import random
import warnings
from fractions import Fraction


import pytest

import rulelang
from rulelang import CHANCE, IllegalMoveError, RulesetError

from helpers import SHIPPED, random_moves
from northpole_helpers import GAME, start



def mid_game(seed=3, players=3, moves=60, chance="sample"):
    state = GAME.new_game(players=players, seed=seed, chance=chance)
    random_moves(state, random.Random(seed), moves)
    assert not state.is_over
    return state


def test_game_header():
    """load() gives the title and the player range of the ruleset."""
    assert GAME.title == "Racing to the North Pole"
    assert (GAME.min_players, GAME.max_players) == (2, 4)
    assert GAME.new_game(seed=1).players == 2


@pytest.mark.parametrize("players", [1, 5, "3"])
def test_bad_player_count_is_refused(players):
    """new_game refuses a player count outside the ruleset's range."""
    with pytest.raises(ValueError, match="2 to 4 players"):
        GAME.new_game(players=players)


def test_unknown_option_is_refused():
    """new_game names the options and choices it knows."""
    with pytest.raises(ValueError, match="unknown option 'expeditoin'"):
        GAME.new_game(options={"expeditoin": "random"})
    with pytest.raises(ValueError, match="has no choice 'Nobody'"):
        GAME.new_game(options={"expedition": "Nobody"})


def test_illegal_move_changes_nothing():
    """An illegal move raises IllegalMoveError; the state, its JSON and its
    log stay exactly as they were."""
    state = mid_game()
    before_json = state.to_json()
    before = state.clone()
    for bad in ["no such move", 42, None]:
        with pytest.raises(IllegalMoveError):
            state.apply(bad)
    assert state == before
    assert state.to_json() == before_json


def test_moves_after_the_end_are_illegal():
    """A finished game has no legal moves and refuses any move."""
    state = GAME.new_game(players=2, seed=5)
    random_moves(state, random.Random(5), 10_000)
    assert state.is_over and state.current_player is None
    assert state.legal_moves() == []
    with pytest.raises(IllegalMoveError, match="the game is over"):
        state.apply("roll 1")


def test_clone_is_equal_and_independent():
    """A clone equals the state; moving the clone leaves the original alone."""
    state = mid_game()
    copy = state.clone()
    assert copy == state
    snapshot = state.to_json()
    random_moves(copy, random.Random(99), 30)
    assert copy != state
    assert state.to_json() == snapshot


@pytest.mark.parametrize("chance", ["sample", "explicit"])
def test_restore_equals_and_continues_identically(chance):
    """restore(to_json()) equals the state and goes on to the same game."""
    state = mid_game(chance=chance)
    restored = GAME.restore(state.to_json())
    assert restored == state
    assert [e.text for e in restored.log] == [e.text for e in state.log]
    a, b = random.Random(7), random.Random(7)
    random_moves(state, a, 10_000)
    random_moves(restored, b, 10_000)
    assert restored == state and state.is_over
    assert restored.result() == state.result()


def test_restore_refuses_another_ruleset():
    """A state saved from one ruleset does not restore into another."""
    other = rulelang.loads('game "Other"\nplayers 1..1\n')
    with pytest.raises(rulelang.SaveError, match=r"^\$\.ruleset: the save belongs to another ruleset"):
        other.restore(mid_game().to_json())


def test_same_seed_and_moves_same_game():
    """Replaying one seed and one list of moves gives the same game."""
    state = GAME.new_game(players=4, seed=11)
    labels = random_moves(state, random.Random(1), 10_000)
    replay = GAME.new_game(players=4, seed=11)
    for label in labels:
        replay.apply(label)
    assert replay == state
    assert [e.text for e in replay.log] == [e.text for e in state.log]


def test_different_seeds_differ():
    """The seed matters: two seeds give two different games."""
    a = mid_game(seed=1, moves=30)
    b = mid_game(seed=2, moves=30)
    assert a != b


def test_chance_nodes_are_exact():
    """In explicit mode every chance node's probabilities are positive
    Fractions over distinct outcomes that sum to exactly 1."""
    state = GAME.new_game(players=3, seed=4, chance="explicit")
    rng = random.Random(4)
    seen = 0
    while not state.is_over:
        moves = state.legal_moves()
        if state.current_player == CHANCE:
            seen += 1
            probs = [m.probability for m in moves]
            assert all(isinstance(p, Fraction) and p > 0 for p in probs)
            assert sum(probs) == 1
            assert len({m.label for m in moves}) == len(moves)
            move = rng.choices(moves, weights=[float(p) for p in probs])[0]
        else:
            assert all(m.probability is None for m in moves)
            move = rng.choice(moves)
        state.apply(move)
    assert seen > 50


def test_draw_probabilities_follow_the_deck():
    """A draw's probabilities are the share of each card kind in the deck:
    10 Trek in 45 cards is 2/9."""
    state = start()
    state.apply("roll 2")   # Difficult Terrain
    state.apply("roll 1")   # the Skill test passes
    draws = {m.label: m.probability for m in state.legal_moves()}
    assert draws["draw Trek"] == Fraction(10, 45)
    assert draws["draw Open Water"] == Fraction(5, 45)


def test_move_to_dict_is_json():
    """Move.to_dict() is plain JSON with the label, player and probability."""
    state = start()
    d = state.legal_moves()[0].to_dict()
    assert json.loads(json.dumps(d)) == d
    assert d["label"] == "roll 1" and d["probability"] == "1/10" and d["player"] is None


def test_view_hides_deck_order_and_other_hands():
    """A player's view shows their own hand, only the size of another
    player's hand and of the deck, and is JSON-able."""
    state = start()
    state.apply("roll 2")
    state.apply("roll 1")
    for card in ["Trek", "Ice", "Snow", "Dogs", "Hunting"]:
        state.apply(f"draw {card}")
    mine, theirs = state.view(0), state.view(1)
    json.dumps(mine), json.dumps(theirs)
    assert mine["players"][0]["piles"]["hand"] == sorted(["Trek", "Ice", "Snow", "Dogs", "Hunting"])
    assert theirs["players"][0]["piles"]["hand"] == {"size": 5}
    assert theirs["piles"]["travel"] == {"size": 40}
    assert "Trek" not in json.dumps(theirs["piles"])
    assert "legal_moves" in mine and "legal_moves" not in theirs


def test_log_entries_are_structured_and_readable():
    """Every log entry has a kind, a round, a player and a readable text."""
    state = mid_game()
    log = state.log
    assert log and all(e.text and e.kind for e in log)
    kinds = {e.kind for e in log}
    assert {"roll", "row", "turn", "phase"} <= kinds
    json.dumps([e.to_dict() for e in log])


def test_current_player_and_result():
    """current_player is a seat at decisions and CHANCE at chance nodes; the
    result of a finished game names its ending and its winners."""
    state = GAME.new_game(players=2, seed=8, chance="explicit")
    rng = random.Random(8)
    seen = set()
    while not state.is_over:
        seen.add(state.current_player)
        state.apply(rng.choice(state.legal_moves()))
    assert CHANCE in seen and seen & {0, 1}
    result = state.result()
    assert result.ending == "every expedition is home or lost"
    assert len(result.scores) == 2
    assert result.winners and all(result.scores[w] == max(result.scores) for w in result.winners)


# ----------------------------------------------------------- runaway rules

LOOP = '''game "Loop"
players 1..1
per player { x 0 }
rule spin {
    while yes { x += 1 }
}
turn { phase go { spin } }
'''

RECURSE = '''game "Recurse"
players 1..1
per player { x 0 }
rule again {
    x += 1
    again
}
turn { phase go { again } }
'''


def test_endless_loop_is_stopped_and_named():
    """A rule that loops forever is stopped by the step limit, reported as a
    RulesetError that names the rule, file and line."""
    game = rulelang.loads(LOOP, "loop.rules")
    with pytest.raises(RulesetError) as info:
        game.new_game(limits=rulelang.Limits(max_steps=5_000))
    err = info.value
    assert err.filename == "loop.rules" and err.line == 5
    assert "rule spin" in err.message and "endless loop" in err.message


def test_endless_recursion_is_stopped():
    """A rule that calls itself without end is stopped at the depth limit."""
    game = rulelang.loads(RECURSE, "recurse.rules")
    with pytest.raises(RulesetError, match="levels deep"):
        game.new_game()


def test_turn_nobody_can_take_is_reported():
    """A turn whose 'when' is never true is reported instead of hanging."""
    text = 'game "Never"\nplayers 1..2\nper player { x 0 }\nturn when x > 0 { phase p { x += 1 } }\n'
    with pytest.raises(RulesetError, match="no player can take a turn"):
        rulelang.loads(text).new_game()


@pytest.mark.parametrize("ruleset", sorted(SHIPPED))
def test_batched_playouts_are_the_games_the_move_api_plays(ruleset, shipped_game):
    """Game.playouts(n, seed) gives, for game i, the result of new_game(seed + i)
    played through legal_moves/apply with the same uniform picks (its own
    generator, rulelang.engine.ops.Policy), at every number of players up
    to four, so the fast path (the rules picking where they decide,
    ``Runner.decide``) plays the same rules as the move API."""
    from rulelang.engine.ops import Policy
    game = shipped_game(ruleset)
    for players in range(game.min_players, min(game.max_players, 4) + 1):
        batch = game.playouts(4, seed=40, players=players)
        assert len(batch) == 4
        for i, result in enumerate(batch):
            state = game.new_game(players=players, seed=40 + i)
            chooser = Policy(40 + i)
            while not state.is_over:
                moves = state.legal_moves()
                state.apply(moves[chooser.below(len(moves))])
            assert state.result() == result, (players, i)


@pytest.mark.parametrize("ruleset,players", [("northpole.rules", 3), ("endurance.rules", 1)])
def test_batched_playouts_differ_from_game_to_game(ruleset, players, shipped_game):
    """Each game of a batch has its own seed and its own picks."""
    game = shipped_game(ruleset)
    assert len({r.scores for r in game.playouts(20, seed=0, players=players)}) > 1


@pytest.mark.parametrize("name", ["goofspiel.rules", "liars_dice.rules", "pig.rules",
                                  "blackjack.rules", "nim.rules", "northpole.rules"])
def test_batched_playouts_pick_where_the_rules_decide(name, monkeypatch):
    """In ``Game.playouts`` a decision written out by the generated code is
    picked where the rules reach it (``Runner.decide``), and the rules go
    on: the machine is started (``State._run``) at most twice a game (as
    the game is made, and after its first decision, made before the game
    had its chooser), however many decisions the game has."""
    from rulelang.engine.state import State
    game = rulelang.load(SHIPPED[name])
    decisions = 0
    for seed in range(5):
        st = game.new_game(seed=seed, log=False)
        rng = random.Random(seed)
        while not st.is_over:
            st.apply(rng.choice(st.legal_moves()))
            decisions += 1
    assert decisions > 4 * 5
    runs = []
    real_run = State._run
    monkeypatch.setattr(State, "_run", lambda st, steps=0: runs.append(1) or real_run(st, steps))
    game.playouts(5, seed=0)
    assert 0 < len(runs) <= 2 * 5


def test_the_playouts_chooser_is_fair():
    """Game.playouts' chooser (``Policy.below``) gives every number below n
    about as often (within 4 standard deviations over 60,000 draws, for n
    of 2, 3, 6 and 45), none outside; and two seeds give different picks."""
    from rulelang.engine.ops import Policy
    for n in (2, 3, 6, 45):
        chooser = Policy(n)
        counts = [0] * n
        for _ in range(60_000):
            counts[chooser.below(n)] += 1
        mean = 60_000 / n
        sd = (60_000 * (1 / n) * (1 - 1 / n)) ** 0.5
        assert all(abs(c - mean) < 4 * sd for c in counts), (n, counts)
    a, b = Policy(1), Policy(2)
    assert [a.below(1000) for _ in range(20)] != [b.below(1000) for _ in range(20)]


def test_decision_names_what_is_being_decided():
    """``State.decision``: the choice's title from the rule file, a reroll's
    question, and None at a chance node or once the game is over."""
    game = rulelang.loads('''
game "Titles"
players 2
per player { n 0 }
turn { phase p {
    choose one "Pick a path" { "left": n += 1  "right": n += 2 }
    n += roll d6
    may "Push on" { choose a number from 1 to 2 as k "How far"
                    n += k }
} }
end "done" when round > 2
score { n }
''', "titles.rules")
    st = game.new_game(seed=1, chance="explicit")
    assert st.decision == "Pick a path"
    st.apply("left")
    assert st.is_chance_node and st.decision is None
    st.apply(st.legal_moves()[0])
    assert st.decision == "Push on"
    st.apply("Push on: yes")
    assert st.decision == "How far"
    while not st.is_over:
        st.apply(st.legal_moves()[0])
    assert st.decision is None
    north = GAME.new_game(seed=12, players=3)
    while not north.legal_moves()[0].label.startswith("keep"):
        north.apply(north.legal_moves()[0])
    assert north.decision.startswith("keep or reroll the roll for ")


def test_a_load_pauses_the_cycle_collector_and_leaves_it_as_it_was():
    """A load runs with Python's cycle collector off (it only slowed the
    load) and turns it back on after, also after a failed load, and leaves
    it off when it was off."""
    import gc
    seen = []
    real = rulelang.api.game_of

    def spy(*a, **k):
        seen.append(gc.isenabled())
        return real(*a, **k)

    assert gc.isenabled()
    try:
        rulelang.api.game_of = spy
        rulelang.loads('game "G"\nplayers 1..1\nturn { phase p { } }\n')
        assert seen == [False] and gc.isenabled()
        with pytest.raises(rulelang.RulesetError):
            rulelang.loads('game "G"\nplayers 1..1\nturn { phase p { nonsense } }\n')
        assert gc.isenabled()
        gc.disable()
        rulelang.loads('game "G"\nplayers 1..1\nturn { phase p { } }\n')
        assert not gc.isenabled()
    finally:
        rulelang.api.game_of = real
        gc.enable()


def test_playouts_from_a_state_leave_it_as_it_was_and_play_to_the_end(northpole):
    """``State.playouts(n, seed)``: n games played on from the state to their
    end, the state itself unchanged; the same seed gives the same games, and
    the games differ from one another."""
    st = northpole.new_game(players=3, seed=5)
    rng = random.Random(1)
    for _ in range(25):
        st.apply(rng.choice(st.legal_moves()))
    before, copy = st.to_json(), st.clone()
    results = st.playouts(12, seed=3)
    assert st.to_json() == before and st == copy
    assert len(results) == 12 and all(r.ending is not None for r in results)
    assert results == st.playouts(12, seed=3)
    assert len({r.scores for r in results}) > 1
    assert st.playouts(0) == []
    with pytest.raises(ValueError):
        st.playouts(-1)
    done = northpole.new_game(players=2, seed=1)
    while not done.is_over:
        done.apply(rng.choice(done.legal_moves()))
    assert done.playouts(3) == [done.result()] * 3


def test_playouts_from_a_state_draw_afresh_not_from_its_seed(northpole):
    """A state's playouts draw the dice and cards to come from their own
    seed, never from the state's (which would tell what the real game
    draws next): two states alike but for their seed play the same games."""
    a = northpole.new_game(players=2, seed=11)
    b = northpole.restore(a.to_json())
    b.seed = 12345      # (no call gives a state another seed: its own generator)
    assert a.playouts(8, seed=4) == b.playouts(8, seed=4)


def test_playouts_from_a_chance_node_take_it_by_its_odds():
    """A state waiting at a chance node (explicit mode) draws it by its odds
    in each playout: two dice making 10 or more (1 in 6; 3 of the 11 totals)
    come up about a sixth of the time over 3,000 playouts (within four
    standard deviations), and the state still waits at its chance node."""
    game = rulelang.loads('game "Dice"\nplayers 2\nper player { points 0 }\n'
                          'turn { phase p {\n    let total = roll 2d6\n'
                          '    if total >= 10 { points += 1 }\n    end game "rolled"\n} }\n'
                          'score { points }\n', "dice.rules")
    st = game.new_game(seed=0, chance="explicit")
    assert st.is_chance_node and len(st.legal_moves()) == 11
    results = st.playouts(3000, seed=0)
    high = sum(r.scores[0] for r in results)
    assert abs(high - 500) < 4 * (3000 * (1 / 6) * (5 / 6)) ** 0.5
    assert st.is_chance_node and st.result().scores == (0, 0)


def test_a_chooser_stops_after_its_picks(northpole):
    """``Policy.stop_after(k)``: ``end`` is the chooser's number k picks on;
    a playout given it (``State._play_out``) makes k decisions, picked where
    the rules decide, and leaves the state waiting at the next one as the
    move API does: the state the same picks made through ``legal_moves`` /
    ``apply`` reach, with the same moves to make."""
    from rulelang.engine.ops import Policy
    chooser = Policy(5)
    chooser.stop_after(1000)
    for _ in range(1000):
        assert chooser.x != chooser.end
        chooser.below(2)
    assert chooser.x == chooser.end
    for k in (1, 6, 23):
        played = northpole.new_game(players=3, seed=7, log=False)
        chooser = Policy(3)
        chooser.stop_after(k)
        played._play_out(chooser)
        applied = northpole.new_game(players=3, seed=7, log=False)
        same = Policy(3)
        for _ in range(k):
            moves = applied.legal_moves()
            applied.apply(moves[same.below(len(moves))])
        assert played == applied and played.policy is None, k
        assert [m.label for m in played.legal_moves()] == [m.label for m in applied.legal_moves()]


@pytest.mark.parametrize("ruleset", sorted(SHIPPED))
def test_playouts_from_a_state_leave_every_ruleset_as_it_was(ruleset, shipped_game):
    """``State.playouts`` from a game in progress, in each chance mode (in
    explicit mode often from a chance node, or with a draw half made):
    the games end, and the state saves to the same text as before."""
    game = shipped_game(ruleset)
    for chance in ("sample", "explicit"):
        for seed in range(3):
            st = game.new_game(seed=seed, chance=chance)
            rng = random.Random(seed)
            for _ in range(4 + 3 * seed):
                if st.is_over:
                    break
                st.apply(rng.choice(st.legal_moves()))
            before = st.to_json()
            results = st.playouts(2, seed=seed)
            assert st.to_json() == before, (chance, seed)
            assert all(r.ending is not None for r in results), (chance, seed)


def test_the_retired_cache_argument_warns_and_writes_nothing(tmp_path, monkeypatch):
    """``load(path, cache=...)`` is still accepted, but the cache is retired
    (a rule file loads faster parsed than read back from an entry): a
    cache asked for warns, writes nothing, and the game is the one a plain
    load makes; ``RULELANG_CACHE`` is read no more either."""
    monkeypatch.setenv("RULELANG_CACHE", str(tmp_path))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))       # (where cache=True wrote)
    path = SHIPPED["northpole.rules"]
    plain = rulelang.load(path)
    for asked in (True, tmp_path, str(tmp_path)):
        with pytest.warns(DeprecationWarning, match="cache was retired"):
            game = rulelang.load(path, cache=asked)
        assert game.ruleset == plain.ruleset and game.fingerprint == plain.fingerprint
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert rulelang.load(path, cache=False).ruleset == plain.ruleset
        assert rulelang.load(path).ruleset == plain.ruleset
    assert list(tmp_path.iterdir()) == []
