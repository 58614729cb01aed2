"""Many random games of Endurance, from different seeds: every game ends in
one of the rulebook's four endings (EN-END-05), and at every step every man
is in exactly one place, the Supply never holds more than twelve counters
(EN-FINE-01) and no card is lost or duplicated."""

from __future__ import annotations

import collections
import random

import pytest

from endurance_helpers import CREW, GAME, SUPPLIES

GAMES = 320
MAX_MOVES = 20_000
ENDINGS = {"Mutiny", "Rescue", "All Lifeboats Lost at Sea", "The James Caird Lost at Sea"}
PILES = ("main", "events", "set_aside", "lifeboat_deck", "hand", "in_play", "discard",
         "reserve", "active", "box", "boat_cards")
PLACES = {"in_camp", "infirmary", "dead", "sailed", "drowned"}


def every_card(state):
    cards = collections.Counter()
    for pile in PILES:
        cards.update(state.pile(pile))
    return cards


FULL = every_card(GAME.new_game(players=1, seed=0, log=False))


def check_invariants(state):
    assert every_card(state) == FULL, "a card was lost or duplicated"
    in_supply = 0
    for name in SUPPLIES:
        info = state.piece("supplies", name)
        in_supply += info["at"] == "in_supply"
        assert info["side"] in ("plain", "striped")
    assert in_supply <= 12, f"the Supply holds {in_supply} counters"
    groups = collections.Counter()
    for name in CREW:
        man = state.piece("crew", name)
        assert man["place"] in PLACES
        assert man["skill"] == (man["blue_skill"] if man["side"] == "fresh" else man["red_skill"])
        if man["place"] == "in_camp":
            groups[man["group"]] += 1
        else:
            assert man["group"] == 0, (name, man)
        if man["place"] == "infirmary":
            assert man["side"] == "demoralized", name
    # Each man in camp is in one of the five Groups (between setup steps
    # and while regrouping after the boats, a man may wait with no Group).
    assert all(0 <= g <= 5 for g in groups)
    assert all(n <= 6 for g, n in groups.items() if g), groups
    assert 1 <= state.stat("active_group") <= 5


def random_game(seed, check=True):
    state = GAME.new_game(players=1, seed=seed, log=False)
    rng = random.Random(50_000 + seed)
    for _ in range(MAX_MOVES):
        if state.is_over:
            return state
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
        if check:
            check_invariants(state)
    raise AssertionError(f"seed {seed}: no ending after {MAX_MOVES} moves")


@pytest.mark.parametrize("block", range(4))
def test_random_games_end_in_one_of_the_four_endings(block):
    """EN-END-05: 320 random games (four blocks of 80 seeds) all end in one of
    the four endings, with the invariants checked after every move; the score
    is the number of men alive (EN-END-06)."""
    endings = collections.Counter()
    for seed in range(block * GAMES // 4, (block + 1) * GAMES // 4):
        state = random_game(seed)
        result = state.result()
        assert result.ending in ENDINGS, result
        alive = sum(state.piece("crew", n)["place"] in ("in_camp", "infirmary", "sailed")
                    for n in CREW)
        assert result.scores == (alive + (1 if state.stat("shackleton_alive") else 0),)
        endings[result.ending] += 1
    assert sum(endings.values()) == GAMES // 4


def test_random_play_reaches_more_than_one_ending():
    """Random play is varied enough to reach the boats and beyond, not only
    an early Mutiny: over 120 games at least two endings occur."""
    endings = collections.Counter(random_game(seed, check=False).result().ending
                                  for seed in range(1000, 1120))
    assert len(endings) >= 2, endings
