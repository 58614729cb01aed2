"""examples/tic_tac_toe.rules by hand: mark an empty space; three in a row wins."""

from __future__ import annotations

import random

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
THROUGH = [[line for line in LINES if i in line] for i in range(9)]


def playout(seed: int, players: int = 2) -> list:
    rng = random.Random(seed)
    board = [None] * 9
    seat = 0
    for _ in range(9):
        space = rng.choice([i for i in range(9) if board[i] is None])
        board[space] = seat
        if any(all(board[j] == seat for j in line) for line in THROUGH[space]):
            return [int(s == seat) for s in range(players)]
        seat = 1 - seat
    return [0] * players
