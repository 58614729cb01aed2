"""examples/hex.rules by hand: a 7 × 7 rhombus; the first player joins west
and east, the second south and north; the second may swap the first stone."""

from __future__ import annotations

import random

SIZE = 7
STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1), (-1, 1), (1, -1))


def _joined(board: dict, start: tuple, seat: int) -> bool:
    """Whether the chain through ``start`` touches both of ``seat``'s edges."""
    axis = 0 if seat == 0 else 1
    seen, todo, low, high = {start}, [start], False, False
    while todo:
        here = todo.pop()
        low = low or here[axis] == 1
        high = high or here[axis] == SIZE
        if low and high:
            return True
        for dx, dy in STEPS:
            there = (here[0] + dx, here[1] + dy)
            if board.get(there) == seat and there not in seen:
                seen.add(there)
                todo.append(there)
    return False


def playout(seed: int, players: int = 2) -> list:
    rng = random.Random(seed)
    board: dict = {}
    empty = [(x, y) for y in range(1, SIZE + 1) for x in range(1, SIZE + 1)]
    seat, turn = 0, 0
    while True:
        if turn == 1 and rng.choice(("yes", "no")) == "yes":        # the swap rule
            (x, y), = board
            del board[(x, y)]
            empty.append((x, y))
            empty.remove((y, x))
            board[(y, x)] = 1
        else:
            here = rng.choice(empty)
            empty.remove(here)
            board[here] = seat
            if _joined(board, here, seat):
                return [int(s == seat) for s in range(players)]
        seat, turn = 1 - seat, turn + 1
