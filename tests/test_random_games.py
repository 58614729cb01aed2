"""Many random games of North Pole over 2, 3 and 4 players: every game
ends, stats stay in bounds and the travel cards are conserved at every
step (NP-CMP-03: the deck is the 45 cards of the rulebook's table)."""

from __future__ import annotations

import collections
import random

import pytest

from rulelang import CHANCE

from northpole_helpers import GAME

GAMES_PER_COUNT = 170          # 510 games in all
MAX_MOVES = 5_000
FULL_DECK = collections.Counter({"Trek": 10, "Dogs": 10, "Ice": 5, "Snow": 5, "Hunting": 5,
                                 "Cracked Ice": 5, "Open Water": 5})
NINE = ("men", "dogs", "food", "gear", "skill", "will", "ship", "time", "hoax")


def all_cards(state):
    cards = collections.Counter(state.pile("travel")) + collections.Counter(state.pile("discard"))
    for seat in range(state.players):
        cards += collections.Counter(state.pile("hand", seat))
    return cards


def check_invariants(state):
    assert all_cards(state) == FULL_DECK
    for seat in range(state.players):
        for name in NINE:
            assert state.stat(name, seat) >= 0, (name, seat)
        pos, start = state.stat("position", seat), state.stat("start", seat)
        assert 0 <= start <= pos <= 29 or state.stat("heading_back", seat), (pos, start)
        assert 0 <= pos <= 29
        status = state.stat("status", seat)
        assert status in ("travelling", "returned", "perished")
        if status == "travelling":
            assert state.stat("men", seat) > 0
        if status == "returned":
            assert pos == start
        # Only the player whose turn it is holds cards, and only in Travel.
        if seat != state.turn_player:
            assert state.pile("hand", seat) == []


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_with_invariants(players):
    """Random play ends every game, with stats in bounds and all 45 cards
    accounted for after every move."""
    endings = collections.Counter()
    for seed in range(GAMES_PER_COUNT):
        state = GAME.new_game(players=players, seed=seed, log=False)
        rng = random.Random(10_000 + seed)
        for _ in range(MAX_MOVES):
            if state.is_over:
                break
            moves = state.legal_moves()
            assert moves and len({m.label for m in moves}) == len(moves)
            state.apply(rng.choice(moves))
            check_invariants(state)
        assert state.is_over, f"seed {seed} did not end in {MAX_MOVES} moves"
        result = state.result()
        endings[result.ending] += 1
        assert all(0 <= vp <= 6 for vp in result.scores)
        assert result.winners
    assert endings == {"every expedition is home or lost": GAMES_PER_COUNT}


def test_random_games_in_explicit_mode():
    """Explicit chance mode, outcomes picked by their probabilities, plays
    whole games with the same invariants."""
    for seed in range(30):
        state = GAME.new_game(players=2 + seed % 3, seed=seed, chance="explicit", log=False)
        rng = random.Random(seed)
        for _ in range(MAX_MOVES):
            if state.is_over:
                break
            moves = state.legal_moves()
            if state.current_player == CHANCE:
                move = rng.choices(moves, weights=[float(m.probability) for m in moves])[0]
            else:
                move = rng.choice(moves)
            state.apply(move)
            check_invariants(state)
        assert state.is_over
