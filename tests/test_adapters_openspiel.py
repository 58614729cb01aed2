"""The OpenSpiel adapter (rulelang.adapters.openspiel): OpenSpiel's own
random_sim_test on the rulesets and examples (a few in the suite, every
one under RULELANG_LONG), its MCTS and CFR on our games, and what the
adapter promises: exact chance, stable actions named by our labels, no
seat told what it may not see, serialization through our save."""

from __future__ import annotations

import base64
import os
import random
from fractions import Fraction

import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is not installed (its wheels need Python 3.11+; "
    "pip install -e '.[adapters]')")

from open_spiel.python.algorithms import cfr, exploitability, mcts  # noqa: E402

import numpy as np  # noqa: E402

from rulelang.adapters import openspiel as adapter  # noqa: E402
from rulelang.adapters.common import action_of  # noqa: E402

from helpers import EXAMPLES, RULESETS, SHIPPED, shipped  # noqa: E402

LONG = bool(os.environ.get("RULELANG_LONG"))
#: The games random_sim_test plays in the ordinary run (about 2 s of CPU);
#: under RULELANG_LONG, every ruleset and every example, at each number of players.
SAMPLED = ["kuhn_poker.rules", "tic_tac_toe.rules", "pig.rules", "goofspiel.rules",
           "northpole.rules"]


def load(name, **params):
    """The OpenSpiel game for a shipped ruleset, registered under its default name."""
    registered = adapter.register(shipped(name))
    if params:
        text = ",".join(f"{k}={v}" for k, v in params.items())
        return pyspiel.load_game(f"{registered}({text})")
    return pyspiel.load_game(registered)


def seat_counts(name):
    game = shipped(name)
    return range(game.min_players, game.max_players + 1)


@pytest.mark.parametrize("name", SAMPLED)
def test_random_sim_test_passes_on_a_sample(name):
    """OpenSpiel's own check (legal actions, masks, clones, serialization,
    observations, returns, game length) on a random game."""
    pyspiel.random_sim_test(load(name), num_sims=1, serialize=True, verbose=False)


@pytest.mark.skipif(not LONG, reason="every ruleset and example: RULELANG_LONG=1 (make test-long)")
@pytest.mark.parametrize("path", RULESETS + EXAMPLES, ids=lambda p: p.name)
def test_random_sim_test_passes_on_every_ruleset_and_example(path):
    for players in seat_counts(path.name):
        game = load(path.name, players=players)
        pyspiel.random_sim_test(game, num_sims=2 if players <= 2 else 1, serialize=True,
                                verbose=False)


def test_the_flags_say_what_the_game_is():
    kuhn, ttt, pig = (load(n).get_type() for n in ("kuhn_poker.rules", "tic_tac_toe.rules",
                                                   "pig.rules"))
    T = pyspiel.GameType
    assert kuhn.information == T.Information.IMPERFECT_INFORMATION
    assert kuhn.chance_mode == T.ChanceMode.EXPLICIT_STOCHASTIC
    assert ttt.information == T.Information.PERFECT_INFORMATION
    assert ttt.chance_mode == T.ChanceMode.DETERMINISTIC
    assert pig.information == T.Information.PERFECT_INFORMATION
    assert pig.chance_mode == T.ChanceMode.EXPLICIT_STOCHASTIC
    assert kuhn.utility == T.Utility.GENERAL_SUM and kuhn.reward_model == T.RewardModel.TERMINAL
    assert (kuhn.min_num_players, kuhn.max_num_players) == (2, 2)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_a_game_flagged_deterministic_never_reaches_chance(path):
    """The flag is read off the ruleset; random games check it against play."""
    game = load(path.name)
    deterministic = game.get_type().chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert (game.max_chance_outcomes() == 0) == deterministic
    rng = random.Random(0)
    met_chance = False
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            met_chance |= state.is_chance_node()
            state.apply_action(rng.choice(state.legal_actions()))
    assert not (deterministic and met_chance)
    assert deterministic or met_chance


def test_chance_outcomes_are_the_engines_exact_probabilities():
    state = load("kuhn_poker.rules").new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    labels = {state.action_to_string(pyspiel.PlayerId.CHANCE, a): p for a, p in outcomes}
    assert labels == {"draw Jack": 1 / 3, "draw Queen": 1 / 3, "draw King": 1 / 3}
    moves = state.rules_state.legal_moves()
    assert {m.label: m.probability for m in moves} == {k: Fraction(1, 3) for k in labels}
    state.apply_action(action_of("draw King"))
    assert sorted(p for _, p in state.chance_outcomes()) == [0.5, 0.5]


def test_an_action_is_its_labels_number_in_every_state():
    """The same move keeps its number as the game goes on, and
    action_to_string gives our label."""
    game = load("tic_tac_toe.rules")
    state = game.new_initial_state()
    first = {state.action_to_string(0, a): a for a in state.legal_actions()}
    assert set(first) == {f"{c}{r}" for c in "abc" for r in "123"}
    assert all(a == action_of(label) for label, a in first.items())
    assert state.legal_actions() == sorted(state.legal_actions())
    state.apply_action(first["b2"])
    state.apply_action(first["a1"])
    later = {state.action_to_string(1, a): a for a in state.legal_actions()}
    assert later == {label: a for label, a in first.items() if label not in ("b2", "a1")}
    with pytest.raises(Exception, match="not legal"):
        state.apply_action(first["b2"])


def test_the_same_actions_give_the_same_game_as_our_api():
    """A random game through OpenSpiel, its actions replayed as labels
    through rulelang's own API in explicit mode: the same state."""
    for name in ("liars_dice.rules", "northpole.rules"):
        game = load(name)
        state = game.new_initial_state()
        rng = random.Random(3)
        labels = []
        for _ in range(300):
            if state.is_terminal():
                break
            action = rng.choice(state.legal_actions())
            labels.append(state.action_to_string(state.current_player(), action))
            state.apply_action(action)
        ours = shipped(name).new_game(players=2, seed=0, chance="explicit")
        for label in labels:
            ours.apply(label)
        assert ours == state.rules_state
        assert ours.history == labels


def _kuhn_after(first, second):
    state = load("kuhn_poker.rules").new_initial_state()
    state.apply_action(action_of(f"draw {first}"))
    state.apply_action(action_of(f"draw {second}"))
    return state


def test_a_seat_is_never_told_another_seats_card():
    """Seat 0 holds the King; seat 1 the Queen or the Jack: seat 0's
    information state and observation are the same either way, seat 1's
    differ, and no card of seat 1's appears in seat 0's."""
    a, b = _kuhn_after("King", "Queen"), _kuhn_after("King", "Jack")
    for s in (a, b):
        s.apply_action(action_of("Bet"))
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.observation_string(0) == b.observation_string(0)
    assert a.information_state_string(1) != b.information_state_string(1)
    assert a.observation_string(1) != b.observation_string(1)
    assert "King" in a.information_state_string(0)
    for text in (a.information_state_string(0), a.observation_string(0)):
        assert "Queen" not in text and "Jack" not in text


def test_the_information_state_remembers_what_the_observation_forgets():
    """Check-then-bet and bet reach the same table for seat 1 to answer
    (a bet open) but are different histories: perfect recall."""
    a, b = _kuhn_after("King", "Queen"), _kuhn_after("King", "Queen")
    a.apply_action(action_of("Bet"))
    b.apply_action(action_of("Check"))
    b.apply_action(action_of("Bet"))
    assert a.current_player() == 1 and b.current_player() == 0
    assert a.information_state_string(1) != b.information_state_string(1)


def test_serialization_is_our_save_and_is_checked():
    game = load("kuhn_poker.rules")
    state = _kuhn_after("Queen", "King")
    state.apply_action(action_of("Check"))
    text = state.serialize()
    back = game.deserialize_state(text)
    assert back.rules_state == state.rules_state and str(back) == str(state)
    assert back.history() == state.history()
    head, _, encoded = text.rpartition("__dict__=")
    raw = base64.b64decode(encoded)
    save = state.rules_state.to_json().encode()
    assert save in raw                                  # our save, whole, inside
    assert len(raw) < len(save) + 300                   # and little else (no ruleset, no game)
    fingerprint = shipped("kuhn_poker.rules").fingerprint.encode()
    forged = raw.replace(fingerprint, b"0" * len(fingerprint))
    with pytest.raises(Exception, match="ruleset|fingerprint|belongs"):
        game.deserialize_state(head + "__dict__=" + base64.b64encode(forged).decode())


def test_a_game_stops_at_its_length_limit_with_nothing_won():
    name = adapter.register(shipped("pig.rules"), "rulelang_pig_short", max_game_length=5)
    game = pyspiel.load_game(name)
    assert game.max_game_length() == 5
    state = game.new_initial_state()
    rng = random.Random(1)
    steps = 0
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
    assert steps == 5 and state.returns() == [0.0, 0.0]
    assert not state.rules_state.is_over


def test_the_default_length_is_the_rulesets_replay_limit():
    assert load("nim.rules").max_game_length() == shipped("nim.rules").limits.max_history


def test_parameters_are_the_players_and_the_rulesets_params():
    game = load("pig.rules", players=3, target=20)
    assert game.num_players() == 3
    state = game.new_initial_state()
    assert state.rules_state.game.params["target"]["value"] == 20
    with pytest.raises(Exception, match="is for 2 to"):
        load("pig.rules", players=99)


def test_registering_checks_its_name_and_refuses_a_clash():
    assert adapter.register(shipped("nim.rules")) == adapter.register(SHIPPED["nim.rules"])
    with pytest.raises(ValueError, match="lower-case"):
        adapter.register(shipped("nim.rules"), "Nim Game")
    with pytest.raises(ValueError, match="already registered"):
        adapter.register(shipped("pig.rules"), adapter.default_name(shipped("nim.rules")))
    with pytest.raises(ValueError, match="already has a game"):
        adapter.register(shipped("nim.rules"), "tic_tac_toe")


def test_zero_sum_returns_add_up_to_nothing():
    name = adapter.register(shipped("kuhn_poker.rules"), "rulelang_kuhn_zero", zero_sum=True)
    game = pyspiel.load_game(name)
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    state = _kuhn_after("Queen", "King")
    state.apply_action(action_of("Bet"))
    state.apply_action(action_of("Call"))
    assert state.returns() == [-1.0, 1.0]


def test_mcts_finds_the_winning_move():
    """OpenSpiel's MCTS bot on a rulelang game: X (a1, b1) to play c1."""
    game = load("tic_tac_toe.rules")
    state = game.new_initial_state()
    for label in ("a1", "a2", "b1", "b2"):
        state.apply_action(action_of(label))
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=200,
                       evaluator=mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    assert state.action_to_string(0, bot.step(state)) == "c1"


def test_cfr_converges_on_kuhn_poker():
    """OpenSpiel's CFR on the Kuhn poker example: 12 information states (3
    cards by 2 histories, for each seat) and an average policy whose
    exploitability falls toward 0."""
    name = adapter.register(shipped("kuhn_poker.rules"), "rulelang_kuhn_zero", zero_sum=True)
    game = pyspiel.load_game(name)
    solver = cfr.CFRSolver(game)
    solver.evaluate_and_update_policy()
    first = exploitability.exploitability(game, solver.average_policy())
    for _ in range(29):
        solver.evaluate_and_update_policy()
    later = exploitability.exploitability(game, solver.average_policy())
    assert len(solver.average_policy().state_lookup) == 12
    assert later < first / 5 and later < 0.05


def test_scores_as_returns_within_the_declared_range():
    """Kuhn poker's chips (±1 or ±2) as returns; a range too narrow for
    them is refused when a return falls outside it."""
    name = adapter.register(shipped("kuhn_poker.rules"), "rulelang_kuhn_chips", reward="score",
                            utility_range=(-2, 2))
    game = pyspiel.load_game(name)
    assert (game.min_utility(), game.max_utility()) == (-2.0, 2.0)
    state = game.new_initial_state()
    for label in ("draw Queen", "draw King", "Bet", "Call"):
        state.apply_action(action_of(label))
    assert state.returns() == [-2.0, 2.0]
    narrow = adapter.register(shipped("kuhn_poker.rules"), "rulelang_kuhn_narrow", reward="score",
                              utility_range=(-1, 1))
    state = pyspiel.load_game(narrow).new_initial_state()
    for label in ("draw Queen", "draw King", "Bet", "Call"):
        state.apply_action(action_of(label))
    with pytest.raises(Exception, match="outside the utility_range"):
        state.returns()
    with pytest.raises(ValueError, match="needs utility_range"):
        adapter.register(shipped("kuhn_poker.rules"), "rulelang_kuhn_x", reward="score")


def test_tensors_are_the_seats_view_and_what_it_was_told():
    """Same length every time; seat 0's tensors do not depend on seat 1's
    card; the information state tensor grows with the events told."""
    game = load("kuhn_poker.rules")
    a, b = _kuhn_after("King", "Queen"), _kuhn_after("King", "Jack")
    for s in (a, b):
        assert len(s.observation_tensor(0)) == game.observation_tensor_size() == 512
        assert len(s.information_state_tensor(0)) == game.information_state_tensor_size() == 512 + 256
    assert a.observation_tensor(0) == b.observation_tensor(0)
    assert a.information_state_tensor(0) == b.information_state_tensor(0)
    assert a.observation_tensor(1) != b.observation_tensor(1)
    told = sum(a.information_state_tensor(0)[512:])
    a.apply_action(action_of("Bet"))
    assert sum(a.information_state_tensor(0)[512:]) > told
