"""examples/hare_and_hounds.rules by hand: three hounds (first player) and a
hare on the eleven-point board; hounds never step back (west)."""

from __future__ import annotations

import random

X = {"a2": 1, "b1": 2, "b2": 2, "b3": 2, "c1": 3, "c2": 3, "c3": 3, "d1": 4, "d2": 4, "d3": 4, "e2": 5}
ORDER = list(X)
LINES = [("a2", "b1", "se"), ("a2", "b2", "e"), ("a2", "b3", "ne"), ("b1", "b2", "n"),
         ("b2", "b3", "n"), ("c1", "c2", "n"), ("c2", "c3", "n"), ("d1", "d2", "n"), ("d2", "d3", "n"),
         ("b1", "c1", "e"), ("c1", "d1", "e"), ("b2", "c2", "e"), ("c2", "d2", "e"), ("b3", "c3", "e"),
         ("c3", "d3", "e"), ("b1", "c2", "ne"), ("b3", "c2", "se"), ("c2", "d1", "se"),
         ("c2", "d3", "ne"), ("d1", "e2", "ne"), ("d2", "e2", "e"), ("d3", "e2", "se")]
ANY = {p: [] for p in ORDER}            # every neighbour
FORWARD = {p: [] for p in ORDER}        # where a hound may go: east, across, or diagonally east
ACROSS = set()
for a, b, d in LINES:
    ANY[a].append(b)
    ANY[b].append(a)
    FORWARD[a].append(b)                # each line is written west to east, or south to north
    if d == "n":
        FORWARD[b].append(a)
        ACROSS.update({(a, b), (b, a)})
for p in ORDER:                         # the board's order, as the rule file lists its points
    ANY[p].sort(key=ORDER.index)
    FORWARD[p].sort(key=ORDER.index)


def playout(seed: int, players: int = 2) -> list:
    rng = random.Random(seed)
    hounds, hare, across = {"a2", "b1", "b3"}, "e2", 0
    while True:
        taken = hounds | {hare}
        movable = [h for h in ORDER if h in hounds and any(q not in taken for q in FORWARD[h])]
        if not movable:
            return [0, 1]
        h = rng.choice(movable)
        dest = rng.choice([q for q in FORWARD[h] if q not in taken])
        hounds.remove(h)
        hounds.add(dest)
        across = across + 1 if (h, dest) in ACROSS else 0
        if across >= 10:
            return [0, 1]
        moves = [q for q in ANY[hare] if q not in hounds]
        if not moves:
            return [1, 0]
        hare = rng.choice(moves)
        if all(X[hare] < X[p] for p in hounds):
            return [0, 1]
