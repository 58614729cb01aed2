"""Games drawn from what one seat knows (``rulelang.engine.resample``), as
the searching players think on them (``players.Beliefs``): the seat sees
the same, what it could not see is drawn again, and what the rules worked
out from a hidden thing is worked out again from the one drawn."""

from __future__ import annotations

import collections
import random

import pytest

from rulelang.engine.resample import resample, trajectory
from rulelang.players import Beliefs

from helpers import ROOT

import rulelang


def _game(name):
    return rulelang.load(ROOT / "examples" / f"{name}.rules")


def _goofspiel_at_second_bid():
    """Goofspiel, round 3, seat 1 to bid: seat 0 has bid face down."""
    st = _game("goofspiel").new_game(players=2, seed=3, log=False)
    for label in ["Bid: 7 of spades", "Bid: 13 of hearts", "Bid: 8 of spades",
                  "Bid: 1 of hearts", "Bid: 5 of spades"]:
        st.apply(label)
    assert st.current_player == 1
    return st


def test_a_draw_looks_the_same_to_the_seat_and_the_rules_work_out_the_rest():
    """Seat 1's view is the same in every game drawn; seat 0's face-down bid
    is any card it still holds, and its hidden bid value is that card's
    rank (the rough way put it back to 0: seat 1 would think it always
    wins the prize)."""
    st = _goofspiel_at_second_bid()
    spent = set(st.pile("spent", 0))
    bids = collections.Counter()
    for i in range(120):
        drawn = resample(st, 1, random.Random(i))
        assert drawn is not None
        assert drawn.view(1) == st.view(1)
        (card,) = drawn.pile("bid", 0)
        assert card not in spent
        assert drawn.stat("offer", 0) == int(card.split()[0])
        assert drawn.pile("spent", 0) == st.pile("spent", 0)    # (shown when turned over)
        bids[card] += 1
    assert len(bids) == 11 and min(bids.values()) >= 3, bids


def _kuhn(seed):
    st = _game("kuhn_poker").new_game(players=2, seed=seed, log=False)
    st.apply("Check")
    return st


def test_what_is_drawn_does_not_depend_on_what_the_seat_cannot_see():
    """Two Kuhn poker games in which seat 1 holds the same card and seat 0
    another: every draw for seat 1 is the same in both (what seat 0 holds
    is never read), and the opponent's hidden rank is its card's."""
    by_card = {}
    for seed in range(40):
        st = _kuhn(seed)
        by_card.setdefault(st.pile("hand", 1)[0], {}).setdefault(st.pile("hand", 0)[0], st)
    mine, twins = next((card, games) for card, games in by_card.items() if len(games) == 2)
    a, b = twins.values()
    assert a.view(1) == b.view(1) and a.pile("hand", 0) != b.pile("hand", 0)
    seen = collections.Counter()
    for i in range(300):
        da, db = resample(a, 1, random.Random(i)), resample(b, 1, random.Random(i))
        assert da.pile("hand", 0) == db.pile("hand", 0)
        assert da.pile("hand", 1) == [mine]
        (card,) = da.pile("hand", 0)
        assert da.stat("holding", 0) == {"Jack": 1, "Queen": 2, "King": 3}[card]
        seen[card] += 1
    assert set(seen) == {"Jack", "Queen", "King"} - {mine}
    assert all(120 <= n <= 180 for n in seen.values()), seen      # (each half: 150 ± 3 sd)


def test_the_steps_of_a_game_are_its_moves_and_its_chance_as_explicit_mode_takes_them():
    """``trajectory``: played again in explicit mode, the steps give the game."""
    st = _goofspiel_at_second_bid()
    steps = trajectory(st)
    assert [label for who, label in steps if who >= 0] == st.history
    ex = st.game.new_game(players=2, seed=st.seed, chance="explicit", log=False)
    for _, label in steps:
        ex.apply(label)
    assert ex.view(0) == st.view(0) and ex.view(1) == st.view(1)


def test_a_state_changed_from_outside_the_rules_is_not_drawn_from():
    """Its moves no longer make it: no steps, no draw (a player falls back
    on the rough way)."""
    st = _kuhn(1)
    st.set_pile("hand", ["King" if st.pile("hand", 0) != ["King"] else "Queen"], 0)
    assert trajectory(st) is None and resample(st, 1, random.Random(0)) is None


@pytest.mark.parametrize("name", ["goofspiel", "kuhn_poker", "blackjack", "tic_tac_toe"])
def test_beliefs_hand_out_playable_games_the_seat_cannot_tell_apart(name):
    """What a searching player thinks on: in sample mode, with a generator of
    its own, the seat's view unchanged, playable to the end."""
    game = _game(name)
    st = game.new_game(seed=2, log=False)
    rng = random.Random(2)
    st.apply(rng.choice(st.legal_moves()))
    while st.is_chance_node:
        st.apply(rng.choice(st.legal_moves()))
    seat = st.current_player
    beliefs = Beliefs(st, seat)
    for i in range(12):
        c = beliefs.draw(random.Random(i))
        assert not c.explicit and c.view(seat) == st.view(seat)
        while not c.is_over:
            c.apply(rng.choice(c.legal_moves()))
    assert beliefs.rough == (name == "tic_tac_toe")     # (nothing hidden: no draws needed)
