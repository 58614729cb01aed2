"""examples/nim.rules by hand: take 1 to 3 from a heap of 21; the last take wins."""

from __future__ import annotations

import random


def playout(seed: int, players: int = 2) -> list:
    rng = random.Random(seed)
    heap, seat = 21, 0
    while True:
        heap -= rng.choice(range(1, min(3, heap) + 1)) if heap > 1 else 1   # one left: no decision
        if heap == 0:
            return [int(s == seat) for s in range(players)]
        seat = 1 - seat
