"""examples/blackjack.rules by hand: five hands against a dealer who draws
to 17; bets of 1 to 5, hit or stand, a blackjack paid 3 to 2 (rounded
down); the shoe of 52 refills from the discards."""

from __future__ import annotations

import random

HANDS = 5
SHOE = [(n, 0) for n in range(2, 11) for _ in range(4)] + [(10, 0)] * 12 + [(1, 1)] * 4   # (points, ace)


def _draw(shoe: list, discard: list, rng: random.Random) -> tuple:
    """A random card of the shoe, which first takes back the discards when empty."""
    if not shoe:
        shoe.extend(discard)
        discard.clear()
    return shoe.pop(rng.randrange(len(shoe)))


def _worth(hand: list) -> int:
    points = sum(card[0] for card in hand)
    if any(card[1] for card in hand) and points + 10 <= 21:
        return points + 10
    return points


def playout(seed: int, players: int = 1) -> list:
    rng = random.Random(seed)
    shoe, discard = list(SHOE), []
    chips = [0] * players
    for _ in range(HANDS):
        bets, hands = [], []
        for _ in range(players):
            bets.append(rng.choice((1, 2, 3, 4, 5)))
            hands.append([_draw(shoe, discard, rng), _draw(shoe, discard, rng)])
        dealer = [_draw(shoe, discard, rng), _draw(shoe, discard, rng)]   # one up, the hole card
        for hand in hands:
            while _worth(hand) < 21 and rng.choice(("Hit", "Stand")) == "Hit":
                hand.append(_draw(shoe, discard, rng))
        while _worth(dealer) < 17:
            dealer.append(_draw(shoe, discard, rng))
        house = _worth(dealer)
        house_blackjack = house == 21 and len(dealer) == 2
        for seat, hand in enumerate(hands):
            mine, bet = _worth(hand), bets[seat]
            blackjack = mine == 21 and len(hand) == 2
            if mine > 21:
                chips[seat] -= bet
            elif blackjack and not house_blackjack:
                chips[seat] += bet * 3 // 2
            elif house_blackjack and not blackjack:
                chips[seat] -= bet
            elif house > 21 or mine > house:
                chips[seat] += bet
            elif mine < house:
                chips[seat] -= bet
            discard.extend(hand)
        discard.extend(dealer)
    return chips
