"""The PettingZoo adapter (rulelang.adapters.pettingzoo): PettingZoo's own
api_test and seed_test on the rulesets and examples (a few in the suite,
every one under RULELANG_LONG), and what the adapter promises: masks that
are the legal moves, observations that hold only what a seat may see, the
same game as our API for the same actions, truncation after max_cycles.

PettingZoo's max_cycles_test needs a parallel environment (every agent
acting at each step), which a turn-based game is not (see the module), so
the max_cycles promise is tested here directly."""

from __future__ import annotations

import os
import random
import warnings

import pytest

pytest.importorskip("pettingzoo", reason="PettingZoo is not installed (pip install -e '.[adapters]')")

import numpy as np  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from rulelang.adapters import pettingzoo as adapter  # noqa: E402
from rulelang.adapters.common import action_of  # noqa: E402

from helpers import EXAMPLES, RULESETS, shipped  # noqa: E402

LONG = bool(os.environ.get("RULELANG_LONG"))
SAMPLED = ["kuhn_poker.rules", "liars_dice.rules", "tic_tac_toe.rules", "endurance.rules"]


def _suite(name, players, cycles):
    game = shipped(name)
    with warnings.catch_warnings():
        # PettingZoo warns of any observation that is a dict, its own
        # classic games' form (observation + action_mask) included.
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent")
        api_test(adapter.env(game, players=players, render_mode="ansi"), num_cycles=cycles)
        seed_test(lambda: adapter.env(game, players=players), num_cycles=cycles)


@pytest.mark.parametrize("name", SAMPLED)
def test_pettingzoos_api_and_seed_tests_pass_on_a_sample(name):
    game = shipped(name)
    _suite(name, min(max(2, game.min_players), game.max_players), 60)


@pytest.mark.skipif(not LONG, reason="every ruleset and example: RULELANG_LONG=1 (make test-long)")
@pytest.mark.parametrize("path", RULESETS + EXAMPLES, ids=lambda p: p.name)
def test_pettingzoos_api_and_seed_tests_pass_on_every_ruleset_and_example(path):
    game = shipped(path.name)
    for players in range(game.min_players, game.max_players + 1):
        _suite(path.name, players, 400)


def test_the_mask_is_the_seats_legal_moves_and_only_its_own():
    env = adapter.env(shipped("tic_tac_toe.rules"))
    env.reset(seed=1)
    assert env.agent_selection == "player_0"
    mine, theirs = env.observe("player_0"), env.observe("player_1")
    legal = np.flatnonzero(mine["action_mask"])
    assert sorted(legal) == sorted(action_of(f"{c}{r}") for c in "abc" for r in "123")
    assert not theirs["action_mask"].any()
    assert set(env.infos["player_0"]["moves"].values()) == {f"{c}{r}" for c in "abc" for r in "123"}
    env.step(action_of("b2"))
    assert env.agent_selection == "player_1"
    assert action_of("b2") not in np.flatnonzero(env.observe("player_1")["action_mask"])
    with pytest.raises(ValueError, match="not one of player_1's legal moves"):
        env.step(action_of("b2"))


def test_an_observation_holds_only_what_its_seat_sees():
    """Two Kuhn deals that differ only in seat 1's card: seat 0's
    observation is the same, seat 1's is not."""
    obs = []
    for seed in range(40):
        env = adapter.env(shipped("kuhn_poker.rules"))
        env.reset(seed=seed)
        st = env.unwrapped.rules_state
        obs.append((st.pile("hand", 0), st.pile("hand", 1), env.observe("player_0")["observation"],
                    env.observe("player_1")["observation"]))
    a = next(o for o in obs if o[0] == ["King"] and o[1] == ["Queen"])
    b = next(o for o in obs if o[0] == ["King"] and o[1] == ["Jack"])
    assert np.array_equal(a[2], b[2])
    assert not np.array_equal(a[3], b[3])


def test_the_same_actions_give_the_same_game_as_our_api():
    env = adapter.env(shipped("liars_dice.rules"), players=3)
    env.reset(seed=5)
    rng = random.Random(5)
    labels = []
    for _agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        action = rng.choice(sorted(info["moves"]))
        labels.append(info["moves"][action])
        env.step(action)
    ours = shipped("liars_dice.rules").new_game(players=3, seed=5)
    for label in labels:
        ours.apply(label)
    assert ours.is_over and ours == env.unwrapped.rules_state


def test_rewards_come_at_the_end_from_who_won():
    env = adapter.env(shipped("tic_tac_toe.rules"), render_mode="ansi")
    env.reset(seed=0)
    for label in ("a1", "a2", "b1", "b2", "c1"):
        env.step(action_of(label))
    assert all(env.terminations.values())
    assert env.rewards == {"player_0": 1.0, "player_1": -1.0}
    assert "Tic-tac-toe" in env.render() and "over" in env.render()


def test_max_cycles_truncates_every_agent():
    env = adapter.env(shipped("pig.rules"), max_cycles=3)
    env.reset(seed=2)
    steps = 0
    for _agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            assert trunc and not term
            env.step(None)
            continue
        env.step(min(info["moves"]))
        steps += 1
    assert steps == 3 * 2 and not env.unwrapped.rules_state.is_over


def test_score_rewards_are_the_seats_scores():
    env = adapter.env(shipped("kuhn_poker.rules"), reward="score")
    env.reset(seed=4)
    env.step(action_of("Bet"))
    env.step(action_of("Call"))
    scores = env.unwrapped.rules_state.result().scores
    assert sorted(scores) == [-2, 2]
    assert env.rewards == {"player_0": float(scores[0]), "player_1": float(scores[1])}
