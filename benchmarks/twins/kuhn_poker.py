"""examples/kuhn_poker.rules by hand: jack, queen, king, one dealt to each
of two; check or bet 1, then call or fold; the higher card takes the pot."""

from __future__ import annotations

import random


def playout(seed: int, players: int = 2) -> list:
    rng = random.Random(seed)
    cards = rng.sample((1, 2, 3), 2)
    staked = [1, 1]
    net = [0, 0]
    seat, checks, bet_open = 0, 0, False
    while True:
        if bet_open:
            if rng.choice(("Call", "Fold")) == "Fold":
                net[seat] -= staked[seat]
                net[1 - seat] += staked[seat]
                return net
            staked[seat] += 1
            break
        if rng.choice(("Check", "Bet")) == "Check":
            checks += 1
            if checks == 2:
                break
        else:
            staked[seat] += 1
            bet_open = True
        seat = 1 - seat
    loser = 0 if cards[0] < cards[1] else 1          # the showdown
    net[loser] -= staked[loser]
    net[1 - loser] += staked[loser]
    return net
