"""Running a balance report's games: here, on local worker processes, or
on a Dask cluster, with the same tally every way.

The seeds go out in chunks (``rulelang.simulate.chunks``: small enough that
the workers end together, at most 64 games); each chunk comes back as a
``Tally`` and the tallies are added up (``Tally.merge``).  Adding counts
does not depend on the order, so the figures are the same for any number
of workers and either backend.  At a Ctrl-C no more chunks go out and the
tally of the chunks already back is returned, marked interrupted.
"""

from __future__ import annotations

import collections
import contextlib
import itertools
import time
from typing import Any, Callable, Deque, Generator, List, Optional, Tuple

import attrs

from .. import simulate
from ..engine import Game
from .play import Setup, play_range
from .stats import Tally

#: Told after each chunk: (games done, games in all).
Progress = Callable[[int, int], None]


@attrs.define
class Run:
    """A finished (or interrupted) run: its tally and how it went."""

    tally: Tally
    seconds: float
    interrupted: bool = False
    backend: str = "local"
    workers: int = 1


def _chunks(seed: int, games: int, workers: int) -> List[Tuple[int, int]]:
    return simulate.chunks(seed, games, workers)


def _play_chunk_in_worker(job: Tuple[Setup, int, int]) -> Tally:
    game = simulate._worker_game
    assert game is not None
    return play_range(game, *job)


def _local(game: Game, setup: Setup, parts: List[Tuple[int, int]],
           workers: int) -> Generator[Tally, None, None]:
    """The chunks' tallies, played here (``workers`` 1) or in worker
    processes (a few chunks each in hand; see ``rulelang.simulate``)."""
    size = min(workers, len(parts))
    pool = simulate._pool(game, size, simulate.default_start_method())
    todo = iter([(setup, first, n) for first, n in parts])
    held: Deque[Any] = collections.deque(
        pool.apply_async(_play_chunk_in_worker, (job,))
        for job in itertools.islice(todo, simulate.IN_HAND * size))
    try:
        while held:
            tally = held.popleft().get()
            job = next(todo, None)
            if job is not None:
                held.append(pool.apply_async(_play_chunk_in_worker, (job,)))
            yield tally
    finally:
        simulate._stop(pool, held)


def _dask(game: Game, setup: Setup, parts: List[Tuple[int, int]],
          address: str) -> Generator[Tally, None, None]:
    """The chunks' tallies from a Dask cluster (``local``: a LocalCluster
    started here for the run), as they finish."""
    try:
        import distributed
    except ImportError:
        raise ValueError("--dask needs the 'dask' extra: pip install 'rulelang[dask]'") from None
    dist: Any = distributed     # (untyped calls)
    Client, LocalCluster, as_completed = dist.Client, dist.LocalCluster, dist.as_completed
    cluster = None
    try:
        if address == "local":
            cluster = LocalCluster(processes=True, threads_per_worker=1, dashboard_address=None)
            client = Client(cluster)
        else:
            try:
                client = Client(address, timeout="5s")
            except (OSError, TimeoutError, ValueError) as e:
                raise ValueError(f"cannot reach the Dask scheduler at {address!r} "
                                 f"({type(e).__name__})") from None
        with client:
            remote = client.scatter(game, broadcast=True)
            futures = [client.submit(play_range, remote, setup, first, n, pure=False)
                       for first, n in parts]
            try:
                for future in as_completed(futures):
                    yield future.result()
            finally:
                for f in futures:
                    f.cancel()
    finally:
        if cluster is not None:
            cluster.close()


def run(game: Game, setup: Setup, seed: int, games: int, workers: int = 1,
        dask: Optional[str] = None, progress: Optional[Progress] = None) -> Run:
    """Play ``games`` games from ``seed`` and tally them.  Raises
    ``ValueError`` for a Dask cluster that cannot be used; a Ctrl-C returns
    what is tallied so far (``interrupted``)."""
    if games < 1:
        raise ValueError(f"games is how many games to play, at least 1, not {games}")
    if workers < 1:
        raise ValueError(f"workers is how many processes to play in, at least 1, not {workers}")
    spread = workers if dask is None else max(workers, 4)
    parts = _chunks(seed, games, spread)
    tally = Tally(setup.players)
    t0 = time.perf_counter()
    interrupted = False
    try:
        if dask is None and (workers == 1 or len(parts) <= 1):
            for first, n in parts:      # here, straight into the tally
                play_range(game, setup, first, n, into=tally)
                if progress is not None:
                    progress(tally.games, games)
        else:
            source = _local(game, setup, parts, workers) if dask is None else \
                _dask(game, setup, parts, dask)
            with contextlib.closing(source):
                for part in source:
                    tally.merge(part)
                    if progress is not None:
                        progress(tally.games, games)
    except KeyboardInterrupt:
        interrupted = True
    return Run(tally, time.perf_counter() - t0, interrupted,
               "local" if dask is None else f"dask {dask}", workers)
