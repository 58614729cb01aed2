"""The small games in examples/: each loads, plays to its end in both
chance modes, and plays by its rules (dice forced: explicit chance mode).
They are also the games benchmarks/small_games.py times against their
hand-written twins."""

from __future__ import annotations

import random

import pytest

from rulelang import CHANCE

from helpers import EXAMPLES


def test_there_are_examples():
    assert {p.stem for p in EXAMPLES} >= {"pig", "nim"}


@pytest.mark.parametrize("chance", ["sample", "explicit"])
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_an_example_plays_to_its_end(path, chance, shipped_game):
    game = shipped_game(path.name)
    for seed in range(20):
        players = game.min_players + seed % (game.max_players - game.min_players + 1)
        state = game.new_game(players=players, seed=seed, chance=chance)
        rng = random.Random(seed)
        for _ in range(5000):
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_moves()))
        assert state.is_over
        assert len(state.result().winners) >= 1


@pytest.fixture
def pig(shipped_game):
    """A new two-player game of Pig, every die forced by the test."""
    return shipped_game("pig.rules").new_game(players=2, seed=0, chance="explicit")


def test_pig_a_roll_adds_to_what_is_held_and_banking_keeps_it(pig):
    state = pig
    state.apply("roll 4").apply("Roll again: yes").apply("roll 5")
    assert state.stat("held", 0) == 9
    state.apply("Roll again: no")
    assert state.stat("banked", 0) == 9 and state.current_player == CHANCE
    assert state.turn_player == 1


def test_pig_a_one_loses_the_turn(pig):
    state = pig
    state.apply("roll 6").apply("Roll again: yes").apply("roll 1")
    assert state.stat("banked", 0) == 0 and state.turn_player == 1


def test_pig_reaching_the_target_ends_the_game(pig):
    state = pig
    for face in [6] * 8 + [2]:      # 50: no more 'Roll again' is asked
        state.apply(f"roll {face}")
        if not state.is_over and state.current_player == 0:
            state.apply("Roll again: yes")
    assert state.is_over and state.result().winners == (0,)
    assert state.stat("banked", 0) == 50


def test_nim_whoever_takes_the_last_counter_wins(shipped_game):
    game = shipped_game("nim.rules")
    state = game.new_game(players=2, seed=0)
    assert [m.label for m in state.legal_moves()] == ["Take: 1", "Take: 2", "Take: 3"]
    for take in [3, 3, 3, 3, 3, 3]:     # 18 taken, P1 took last; 3 left for P0
        state.apply(f"Take: {take}")
    assert state.current_player == 0 and state.stat("heap") == 3
    state.apply("Take: 3")
    assert state.is_over and state.result().winners == (0,)
