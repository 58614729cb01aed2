"""examples/liars_dice.rules by hand: five dice each under a cup; raise the
bid (more dice, or as many of a higher face) or call it a lie; the loser of
a call loses a die and opens the next round; ones are not wild."""

from __future__ import annotations

import random

DICE = 5


def playout(seed: int, players: int = 2) -> list:
    rng = random.Random(seed)
    in_hand = [DICE] * players
    opener = 0
    while True:
        cups = [[rng.randint(1, 6) for _ in range(n)] for n in in_hand]
        total = sum(in_hand)
        count, face, bidder, last = 0, 0, opener, None
        while True:
            offered = ["Raise"] if count < total or face < 6 else []
            if count > 0:
                offered.append("Liar!")
            if rng.choice(offered) == "Liar!":
                break
            low = count + 1 if face == 6 else max(count, 1)          # a range of one is no decision
            quantity = rng.choice(range(low, total + 1)) if low < total else low
            low = face + 1 if quantity == count else 1
            face = rng.choice(range(low, 7)) if low < 6 else low
            count, last = quantity, bidder
            bidder = (bidder + 1) % players
            while in_hand[bidder] == 0:
                bidder = (bidder + 1) % players
        showing = sum(cup.count(face) for cup in cups)
        loser = bidder if showing >= count else last
        in_hand[loser] -= 1
        opener = loser
        if in_hand[loser] == 0:
            opener = last if loser == bidder else bidder
            if sum(1 for n in in_hand if n > 0) == 1:
                return in_hand
