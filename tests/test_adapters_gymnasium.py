"""The Gymnasium adapter (rulelang.adapters.gymnasium): Gymnasium's own
check_env on the rulesets and examples (a few in the suite, every one
under RULELANG_LONG), and what the adapter promises: a solitaire game
played whole by the agent, the other seats by seeded bots, rewards from
who won, illegal actions ending the episode (or refused)."""

from __future__ import annotations

import os
import random
import warnings

import pytest

pytest.importorskip("gymnasium", reason="Gymnasium is not installed (pip install -e '.[adapters]')")

import numpy as np  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

from rulelang.adapters.common import action_of  # noqa: E402
from rulelang.adapters.gymnasium import RulesEnv  # noqa: E402

from helpers import EXAMPLES, RULESETS, shipped  # noqa: E402

LONG = bool(os.environ.get("RULELANG_LONG"))
SAMPLED = ["endurance.rules", "expedition.rules", "kuhn_poker.rules", "connect_four.rules"]


def _check(name, players=None, seat=0):
    env = RulesEnv(shipped(name), players=players, seat=seat, render_mode="ansi")
    with warnings.catch_warnings():
        warnings.simplefilter("error")      # check_env's warnings fail the test
        # ...but one: it can try other render modes only of an environment made by gymnasium.make.
        warnings.filterwarnings("ignore", message=".*alternative render modes.*")
        check_env(env, skip_render_check=False)


@pytest.mark.parametrize("name", SAMPLED)
def test_check_env_passes_on_a_sample(name):
    _check(name)


@pytest.mark.skipif(not LONG, reason="every ruleset and example: RULELANG_LONG=1 (make test-long)")
@pytest.mark.parametrize("path", RULESETS + EXAMPLES, ids=lambda p: p.name)
def test_check_env_passes_on_every_ruleset_and_example(path):
    game = shipped(path.name)
    for players in range(game.min_players, game.max_players + 1):
        _check(path.name, players, seat=players - 1)


def _play(env, seed, pick):
    obs, info = env.reset(seed=seed)
    total, steps = 0.0, 0
    while True:
        legal = np.flatnonzero(obs["action_mask"])
        assert sorted(legal) == sorted(info["moves"])
        obs, reward, terminated, truncated, info = env.step(pick(legal, info))
        total += reward
        steps += 1
        if terminated or truncated:
            return total, steps, terminated


def test_a_solitaire_game_is_played_whole_by_the_agent():
    """Endurance: every decision is the agent's; the episode ends with the
    game, rewarded 1 for a win and -1 for a loss."""
    env = RulesEnv(shipped("endurance.rules"))
    rng = random.Random(0)
    total, steps, terminated = _play(env, 0, lambda legal, info: rng.choice(list(legal)))
    st = env.rules_state
    assert terminated and st.is_over
    assert total == (1.0 if st.result().winners == (0,) else -1.0)
    assert steps == sum(1 for _ in st.history)      # sample mode: only decisions are moves


def test_the_other_seats_are_played_by_the_bots_between_the_agents_steps():
    """Tic-tac-toe as seat 1: the bot (seat 0) has moved before the first
    observation, and after each step it is seat 1's decision again."""
    env = RulesEnv(shipped("tic_tac_toe.rules"), seat=1)
    obs, info = env.reset(seed=3)
    assert env.rules_state.current_player == 1
    assert len(info["moves"]) == 8
    obs, reward, terminated, truncated, info = env.step(min(info["moves"]))
    assert terminated or (env.rules_state.current_player == 1 and len(info["moves"]) == 6)


def test_one_seed_gives_one_game():
    def run():
        env = RulesEnv(shipped("liars_dice.rules"), players=3)
        rng = random.Random(7)
        _play(env, 11, lambda legal, info: rng.choice(sorted(legal)))
        return env.rules_state
    a, b = run(), run()
    assert a == b and a.history == b.history


def test_an_illegal_action_ends_the_episode_or_is_refused():
    env = RulesEnv(shipped("nim.rules"))
    env.reset(seed=0)
    bad = action_of("Take: 9")
    obs, reward, terminated, truncated, info = env.step(bad)
    assert (reward, terminated) == (-1.0, True) and "not one of the legal moves" in info["illegal"]
    strict = RulesEnv(shipped("nim.rules"), illegal="raise")
    strict.reset(seed=0)
    with pytest.raises(ValueError, match="not one of the legal moves"):
        strict.step(bad)


def test_a_seat_out_of_range_is_refused():
    with pytest.raises(ValueError, match="seat must be"):
        RulesEnv(shipped("nim.rules"), seat=2)


def test_a_score_reward_is_the_seats_score():
    """Endurance is always won (no 'winner … where'): its score, the men
    alive, is the reward that tells games apart."""
    env = RulesEnv(shipped("endurance.rules"), reward="score")
    rng = random.Random(1)
    total, steps, terminated = _play(env, 1, lambda legal, info: rng.choice(list(legal)))
    assert terminated and total == env.rules_state.result().scores[0]
    with pytest.raises(ValueError, match="reward must be"):
        RulesEnv(shipped("nim.rules"), reward="points")
