"""Random games played for ``rulelang simulate``: in this process, or shared
out over worker processes with the very same results.

    for moves, scores, winners, ending in random_games(game, players=3, seed=0, games=2000,
                                                       workers=2):
        ...

Game ``i`` is ``game.new_game(players=players, seed=seed + i, log=False)``
with every decision and chance outcome picked by
``random.Random((seed + i) ^ 0x5EED).choice`` among its legal moves.  A game
depends on its seed only, so the games come out the same, in seed order,
whatever the number of workers: the seeds go out in chunks (small enough
that the workers end together, large enough that handing one out costs
nothing measurable) and the results come back chunk by chunk, in order.

A worker gets the ``Game`` itself: where processes fork (Linux) it inherits
it, nothing sent; elsewhere the game is pickled as ``Game`` pickles (its
checked ruleset, its limits and its parameters; compiled again in the
worker), never the compiled program.  Workers ignore SIGINT: at a Ctrl-C
the parent hands out no more chunks, waits for the few in hand and lets
the workers end (none is killed while it hands back a chunk, which could
hang the parent); the games already handed back are the ones counted (a
prefix of the seeds).
"""

from __future__ import annotations

import collections
import itertools
import multiprocessing
import multiprocessing.pool
import random
import signal
import sys
import threading
import time
from typing import Any, Deque, Generator, List, Optional, Sequence, Tuple, Type

from .engine import Game
from .errors import Diagnostic, RulesetError

#: One game played: the moves made (decisions and chance outcomes), each
#: seat's score, the winners, the ending.
Played = Tuple[int, Tuple[Any, ...], Tuple[int, ...], Optional[str]]

#: A chunk handed to a worker: (players, first seed, number of games).
_Chunk = Tuple[int, int, int]

#: A worker's answer: its games, and the ruleset error that stopped it (as
#: the class and diagnostics: a ``RulesetError`` does not pickle).
_Answer = Tuple[List[Played], Optional[Tuple[Type[RulesetError], List[Diagnostic]]]]

#: Chunks per worker: enough that the workers end within a small chunk of
#: each other.  ``MOST_PER_CHUNK`` bounds a chunk for a large run.
CHUNKS_PER_WORKER = 32
MOST_PER_CHUNK = 64
#: Chunks a worker has in hand (sent, not yet taken back) at a time.
IN_HAND = 2
#: How long stopping waits for the chunks in hand before it kills the workers.
STOP_WAIT = 30.0


def played_games(game: Game, players: int, seeds: Sequence[int]) -> Generator[Played, None, None]:
    """Play the game of each seed here, one after the other (raises the
    ``RulesetError`` of a game that runs into one, after the games before)."""
    for seed in seeds:
        state = game.new_game(players=players, seed=seed, log=False)
        rng = random.Random(seed ^ 0x5EED)
        made = 0
        while not state.is_over:
            state.apply(rng.choice(state.legal_moves()))
            made += 1
        r = state.result()
        yield made, tuple(r.scores), tuple(r.winners), r.ending


def chunks(seed: int, games: int, workers: int) -> List[Tuple[int, int]]:
    """The seeds of ``games`` games from ``seed`` in chunks, as (first seed,
    number of games)."""
    size = max(1, min(MOST_PER_CHUNK, -(-games // (workers * CHUNKS_PER_WORKER))))
    return [(s, min(size, seed + games - s)) for s in range(seed, seed + games, size)]


def default_start_method() -> Optional[str]:
    """``fork`` on Linux (a worker starts at once, the game inherited), else
    the platform's default."""
    return "fork" if sys.platform.startswith("linux") else None


def random_games(game: Game, players: int, seed: int, games: int, workers: int = 1,
                 start_method: Optional[str] = None) -> Generator[Played, None, None]:
    """The ``games`` random games from ``seed`` (see the module's
    documentation), in seed order, played in ``workers`` processes (1:
    here, no process started).  Raises the ``RulesetError`` of the first
    game that runs into one, after the games before it.  Close the
    iterator (``contextlib.closing``) if you may stop before its end: that
    stops the workers."""
    if workers < 1:
        raise ValueError(f"workers is how many processes to play in, at least 1, not {workers}")
    parts = chunks(seed, games, workers)
    if workers == 1 or len(parts) <= 1:
        yield from played_games(game, players, range(seed, seed + games))
        return
    size = min(workers, len(parts))
    pool = _pool(game, size, start_method or default_start_method())
    todo = iter([(players, s, n) for s, n in parts])
    # A few chunks a worker in hand at a time, taken back in seed order:
    # stopping (Ctrl-C, an error, the caller closing) waits only for those.
    held: Deque[multiprocessing.pool.AsyncResult[_Answer]] = collections.deque(
        pool.apply_async(_play_chunk, (chunk,)) for chunk in itertools.islice(todo, IN_HAND * size))
    try:
        while held:
            records, error = held.popleft().get()
            chunk = next(todo, None)
            if chunk is not None:
                held.append(pool.apply_async(_play_chunk, (chunk,)))
            yield from records
            if error is not None:
                raise error[0](error[1])
    finally:
        _stop(pool, held)


def _stop(pool: multiprocessing.pool.Pool, held: Sequence[Any]) -> None:
    """End the workers without killing one in the middle of handing back a
    chunk (a worker killed while it holds the pool's queue can hang the
    parent): no chunk more, the ones in hand finished, then each worker
    ends; only those still busy after ``STOP_WAIT`` seconds are killed."""
    pool.close()
    deadline = time.monotonic() + STOP_WAIT
    for answer in held:
        answer.wait(max(0.0, deadline - time.monotonic()))
    if not all(answer.ready() for answer in held):
        pool.terminate()
    pool.join()


def _pool(game: Game, workers: int, start_method: Optional[str]) -> multiprocessing.pool.Pool:
    """``workers`` processes, each holding ``game``, that ignore SIGINT
    (ignored here too while they start, so none can be interrupted before
    it ignores it)."""
    context = multiprocessing.get_context(start_method)
    main = threading.current_thread() is threading.main_thread()
    before = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
    try:
        return context.Pool(workers, initializer=_start_worker, initargs=(game,))
    finally:
        if before is not None:
            signal.signal(signal.SIGINT, before)


_worker_game: Optional[Game] = None


def _start_worker(game: Game) -> None:
    global _worker_game
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _worker_game = game


def _play_chunk(chunk: _Chunk) -> _Answer:
    players, first, n = chunk
    assert _worker_game is not None
    out: List[Played] = []
    try:
        for record in played_games(_worker_game, players, range(first, first + n)):
            out.append(record)
    except RulesetError as e:
        return out, (type(e), e.diagnostics)
    return out, None
