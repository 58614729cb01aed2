"""examples/pig.rules by hand: roll, hold, bank; a 1 loses the turn."""

from __future__ import annotations

import random

TARGET = 50


def playout(seed: int, players: int = 2) -> list:
    rng = random.Random(seed)
    banked = [0] * players
    seat = 0
    while True:
        held = 0
        while banked[seat] + held < TARGET:
            face = rng.randint(1, 6)
            if face == 1:
                held = 0
                break
            held += face
            if banked[seat] + held < TARGET and rng.choice(("yes", "no")) == "no":   # "Roll again"
                break
        banked[seat] += held
        if banked[seat] >= TARGET:
            return banked
        seat = (seat + 1) % players
