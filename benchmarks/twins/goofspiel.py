"""examples/goofspiel.rules by hand: each seat bids a card of its suit for
a prize drawn at random from the diamonds; the one highest bid takes the
prize, worth its rank, and tied highest bids set it aside."""

from __future__ import annotations

import random


def playout(seed: int, players: int = 2) -> list:
    rng = random.Random(seed)
    hands = [list(range(1, 14)) for _ in range(players)]
    prizes = list(range(1, 14))
    points = [0] * players
    while prizes:
        worth = prizes.pop(rng.randrange(len(prizes)))
        offers = []
        for hand in hands:                      # each seat in turn, none seeing the others' bids
            bid = rng.choice(hand)
            hand.remove(bid)
            offers.append(bid)
        top = max(offers)
        if offers.count(top) == 1:
            points[offers.index(top)] += worth
    return points
