"""examples/connect_four.rules by hand: drop a disc in a column with room;
four in a row (across, up and down, or diagonally) wins."""

from __future__ import annotations

import random

WIDE, HIGH = 7, 6
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


def _run(board: list, x: int, y: int, dx: int, dy: int, seat: int) -> int:
    n = 0
    x, y = x + dx, y + dy
    while 0 <= x < WIDE and 0 <= y < HIGH and board[x][y] == seat:
        n += 1
        x, y = x + dx, y + dy
    return n


def playout(seed: int, players: int = 2) -> list:
    rng = random.Random(seed)
    board = [[None] * HIGH for _ in range(WIDE)]
    height = [0] * WIDE
    seat = 0
    for _ in range(WIDE * HIGH):
        x = rng.choice([c for c in range(WIDE) if height[c] < HIGH])
        y = height[x]
        board[x][y] = seat
        height[x] += 1
        for dx, dy in DIRECTIONS:
            if 1 + _run(board, x, y, dx, dy, seat) + _run(board, x, y, -dx, -dy, seat) >= 4:
                return [int(s == seat) for s in range(players)]
        seat = 1 - seat
    return [0] * players
