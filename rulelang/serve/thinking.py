"""The server's bots: which specs a game may name, within what budget, and
the worker processes where the careful ones think.

A quick bot (``random``, ``greedy``) answers in a moment and moves at once,
in the request that reached its decision.  A thinking bot (``mcts``,
``mcts:N``, ``mcts:Ns``, ``greedy:N``) could hold the server's event loop
for seconds, so its decision is worked out in a worker process
(``Thinkers``): the worker is given the game (as ``Game`` pickles: its
checked ruleset, compiled again there once) and the game's replay (what
the store keeps), plays the replay, and answers the label of the move its
player chooses.  The server checks that the label is a legal move of that
seat before it makes it (``tables.Hall``).

A client names the spec, so the budget is capped (``MOST_PLAYOUTS``,
``MOST_SECONDS``, ``MOST_DEPTH``): a spec over the cap is refused.  A
search with a playout budget is also cut after ``CUT_SECONDS`` (a long
ruleset's playouts can be long): a cut decision may differ from one run
to the next, any other is the same for the same seed.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
import os
import signal
from typing import Dict, Optional, Tuple

from ..engine import Game
from ..players import GreedyPlayer, MctsPlayer, OutOfRange, Player, player

#: The bots that answer at once (moved in the request that reached them).
QUICK = ("random", "greedy")
#: The specs the lobby offers (any other spec within the caps is taken too).
OFFERED = ("random", "greedy", "greedy:2", "mcts:50", "mcts", "mcts:1000", "mcts:1s")
#: The most playouts a decision of ``mcts:N``.
MOST_PLAYOUTS = 2000
#: The most seconds a decision of ``mcts:Ns``.
MOST_SECONDS = 2.0
#: The most of its own decisions in a row ``greedy:N`` follows (each
#: multiplies its work by the number of moves).
MOST_DEPTH = 2
#: A search with a playout budget still running after this many seconds
#: stops there (a ruleset's playouts can be long).
CUT_SECONDS = 10.0
#: Worker processes: a core is left to the server's event loop.
WORKERS = max(1, min(4, (os.cpu_count() or 2) - 1))


def limits() -> Dict[str, float]:
    """The caps, as a client is told them."""
    return {"playouts": MOST_PLAYOUTS, "seconds": MOST_SECONDS, "depth": MOST_DEPTH}


def checked_spec(spec: str) -> str:
    """The spec as the server keeps it (trimmed, lower case), if it names a
    bot within the caps; else ``ValueError`` with one clear line."""
    text = spec.strip().lower()
    if len(text) > 20:
        raise ValueError("a bot's spec is short: " + ", ".join(OFFERED))
    try:
        bot = player(text, 0)
    except OutOfRange as e:     # (said without the spec; greedy within the server's cap)
        if e.kind == "greedy":
            raise ValueError(f"a greedy bot here follows 1 to {MOST_DEPTH} of its decisions "
                             f"in a row") from None
        raise ValueError(e.reason) from None
    except ValueError:
        raise ValueError(f"unknown bot; bots: {', '.join(OFFERED)}, or mcts:N up to "
                         f"{MOST_PLAYOUTS} playouts, mcts:Ns up to {MOST_SECONDS:g}s, "
                         f"greedy:N up to {MOST_DEPTH}") from None
    if isinstance(bot, MctsPlayer):
        if bot.playouts is not None and bot.playouts > MOST_PLAYOUTS:
            raise ValueError(f"a bot here thinks at most {MOST_PLAYOUTS} playouts a decision, "
                             f"not {bot.playouts}")
        if bot.seconds is not None and bot.seconds > MOST_SECONDS:
            raise ValueError(f"a bot here thinks at most {MOST_SECONDS:g}s a decision, "
                             f"not {bot.seconds:g}s")
    if isinstance(bot, GreedyPlayer) and bot.depth > MOST_DEPTH:
        raise ValueError(f"a greedy bot here follows at most {MOST_DEPTH} of its decisions "
                         f"in a row, not {bot.depth}")
    return text


def thinks(spec: str) -> bool:
    """Whether a (checked) spec's bot thinks in a worker rather than at once."""
    return spec not in QUICK


def make_bot(spec: str, seed: int) -> Player:
    """The one place a bot is made from its (checked) spec: a player of
    ``rulelang.players``, its search cut after ``CUT_SECONDS``."""
    bot = player(spec, seed)
    if isinstance(bot, MctsPlayer) and bot.seconds is None:
        bot.seconds = CUT_SECONDS
    return bot


# ------------------------------------------------------------------ workers

#: A worker's games, kept so that each is compiled once per worker (a
#: pickled ``Game`` is looked up by its fingerprint while one is alive).
_kept: Dict[str, Game] = {}
_MOST_KEPT = 32


def _start_worker() -> None:
    # A Ctrl-C at the terminal reaches the workers too: the server stops
    # them itself (``Thinkers.close``).
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def decide(game: Game, replay: str, spec: str, seed: int) -> Tuple[bool, str]:
    """In a worker: the label of the move the bot ``spec`` (seeded with
    ``seed``) makes in the game ``replay`` holds, as ``(True, label)``; or
    ``(False, why)`` (an engine error need not pickle, so none is raised)."""
    try:
        if game.fingerprint not in _kept and len(_kept) >= _MOST_KEPT:
            _kept.pop(next(iter(_kept)))
        game = _kept.setdefault(game.fingerprint, game)
        state = game.replay(replay)
        return True, make_bot(spec, seed).choose(state).label
    except Exception as e:      # (its text goes to the server's log, never to a client)
        return False, f"{type(e).__name__}: {e}"


class Thinkers:
    """The worker processes, started with the first thinking bot (a server
    without one starts none).  Each decision is one job: games share the
    workers move by move, none holds them for a whole game."""

    def __init__(self, workers: int = WORKERS) -> None:
        self.workers = workers
        self.pool: Optional[concurrent.futures.ProcessPoolExecutor] = None

    #: How many times a decision is asked of a new pool when the pool it
    #: was given broke (a worker killed: by the system, short of memory,
    #: say).  A game whose bot cannot move waits for a restart, so a
    #: worker lost once does not stop it; one that breaks every pool
    #: (the decision itself kills its worker) is not tried for ever.
    RETRIES = 1

    async def think(self, game: Game, replay: str, spec: str, seed: int) -> Tuple[bool, str]:
        """``decide`` in a worker; a pool that broke (a worker killed) is
        made again, and the decision asked of it (``RETRIES`` times)."""
        for _ in range(self.RETRIES + 1):
            if self.pool is None:
                # (spawn: the server has threads, and a fork would copy their locks)
                self.pool = concurrent.futures.ProcessPoolExecutor(
                    self.workers, mp_context=multiprocessing.get_context("spawn"),
                    initializer=_start_worker)
            pool = self.pool
            try:
                return await asyncio.get_running_loop().run_in_executor(
                    pool, decide, game, replay, spec, seed)
            except concurrent.futures.process.BrokenProcessPool:
                if self.pool is pool:
                    self.pool = None
                    pool.shutdown(wait=False, cancel_futures=True)
        return False, "a worker process stopped"

    def close(self) -> None:
        """Stops the workers: the decisions waiting are dropped, those being
        worked out end first (within ``CUT_SECONDS`` or ``MOST_SECONDS``)."""
        pool, self.pool = self.pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
