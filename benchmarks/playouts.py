"""Random playouts per second, moves per second, clones and load time, per ruleset.

    python benchmarks/playouts.py [--seconds 2] [RULESET...]

For every ruleset in rulesets/ (or those named) and every player count it
supports (up to 4): uniformly random games for the given time through the
move API (legal_moves + apply) and through the batched ``Game.playouts``
(no move labels), playouts/s and moves/s; the time of ``State.clone()`` and
the memory of a stored state in mid-game; then the time to parse + check
and to compile the ruleset and of the whole ``rulelang.load`` (medians of
repeated loads), and the first game after a load (which generates the code of the rules it runs).  When the
hand-written reference ../shared/bench/northpole_ref.py is there, North
Pole is also timed against it in the same run, interleaved, and the ratio
of medians is printed for both ways of playing.
"""

from __future__ import annotations

import argparse
import importlib.util
import pathlib
import random
import statistics
import sys
import time
import tracemalloc

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import rulelang  # noqa: E402
from rulelang.api import parse_and_check  # noqa: E402
from rulelang.engine import compile_ruleset  # noqa: E402

REF = ROOT.parent / "shared" / "bench" / "northpole_ref.py"


def playouts(game, players, seconds, seed=0):
    """(games, moves, elapsed) of random playouts for about ``seconds``."""
    games = moves = 0
    t0 = time.perf_counter()
    deadline = t0 + seconds
    while True:
        state = game.new_game(players=players, seed=seed * 2, log=False)
        rng = random.Random(seed * 2 + 1)
        choice = rng.choice
        while not state.is_over:
            state.apply(choice(state.legal_moves()))
            moves += 1
        games += 1
        seed += 1
        if time.perf_counter() >= deadline:
            break
    return games, moves, time.perf_counter() - t0


def batched(game, players, seconds, seed=0):
    """(games, elapsed) of ``Game.playouts`` for about ``seconds``."""
    games = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        game.playouts(10, seed=seed + games, players=players)
        games += 10
    return games, time.perf_counter() - t0


def mid_game(game, players, seed=1):
    """A state half-way through a random game."""
    moves = []
    state = game.new_game(players=players, seed=seed)
    rng = random.Random(seed)
    while not state.is_over:
        move = rng.choice(state.legal_moves())
        moves.append(move.label)
        state.apply(move)
    state = game.new_game(players=players, seed=seed)
    for label in moves[:len(moves) // 2]:
        state.apply(label)
    return state


def clone_cost(state, n=20_000):
    """(µs per clone, bytes per stored clone)."""
    t0 = time.perf_counter()
    for _ in range(n):
        state.clone()
    us = (time.perf_counter() - t0) / n * 1e6
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    kept = [state.clone() for _ in range(10_000)]
    size = (tracemalloc.get_traced_memory()[0] - before) / len(kept)
    tracemalloc.stop()
    return us, size


def load_times(path, repeat=7):
    text = path.read_text(encoding="utf-8")
    parse_check, compile_ = [], []
    for _ in range(repeat):
        t0 = time.perf_counter()
        rs = parse_and_check(text, str(path))
        t1 = time.perf_counter()
        compile_ruleset(rs)
        t2 = time.perf_counter()
        parse_check.append(t1 - t0)
        compile_.append(t2 - t1)
    whole = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        rulelang.load(path)
        whole.append(time.perf_counter() - t0)
    # Code for each rule is generated when it first runs: the first game pays it.
    game = rulelang.load(path)
    t0 = time.perf_counter()
    game.playouts(1, seed=0)
    first = time.perf_counter() - t0
    return (statistics.median(parse_check) * 1000, statistics.median(compile_) * 1000,
            statistics.median(whole) * 1000, first * 1000)


def reference_ratio(game, players, seconds, rounds=5, batch=False):
    """Interleaved: (reference playouts/s, rulelang playouts/s, ratio of
    medians); ``batch``: rulelang plays through ``Game.playouts``."""
    spec = importlib.util.spec_from_file_location("northpole_ref", REF)
    ref = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ref)
    ref_rates, our_rates = [], []
    slice_ = seconds / rounds
    for r in range(rounds):
        n = 0
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < slice_:
            ref.random_playout(players, r * 100_000 + n)
            n += 1
        ref_rates.append(n / (time.perf_counter() - t0))
        if batch:
            games, dt = batched(game, players, slice_, seed=r * 100_000)
        else:
            games, _, dt = playouts(game, players, slice_, seed=r * 100_000)
        our_rates.append(games / dt)
    ref_med, our_med = statistics.median(ref_rates), statistics.median(our_rates)
    return ref_med, our_med, ref_med / our_med


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rulesets", nargs="*", type=pathlib.Path)
    ap.add_argument("--seconds", type=float, default=2.0, help="time per ruleset and player count")
    args = ap.parse_args(argv)
    paths = args.rulesets or sorted((ROOT / "rulesets").glob("*.rules"))
    print(f"Python {sys.version.split()[0]}, {args.seconds:g}s per measurement")
    print(f"{'ruleset':<12}{'players':>8}{'playouts/s':>12}{'batched/s':>11}{'moves/s':>10}"
          f"{'moves/game':>12}{'clone µs':>10}{'bytes/state':>13}")
    loads = []
    for path in paths:
        game = rulelang.load(path)
        for n in range(game.min_players, min(game.max_players, 4) + 1):
            # Warm first (other seeds, untimed), as benchmarks/ab.py does: the
            # first games after a load generate the code of the rules they
            # reach, a one-time cost the "first game ms" column reports, which
            # would otherwise fall on the smallest player count alone.
            playouts(game, n, min(0.2, args.seconds / 5), seed=10**6)
            games, moves, dt = playouts(game, n, args.seconds)
            bgames, bdt = batched(game, n, args.seconds)
            us, size = clone_cost(mid_game(game, n))
            print(f"{path.stem:<12}{n:>8}{games / dt:>12.0f}{bgames / bdt:>11.0f}{moves / dt:>10.0f}"
                  f"{moves / games:>12.1f}{us:>10.2f}{size:>13.0f}")
        loads.append((path.stem, *load_times(path)))
    print()
    print(f"{'ruleset':<16}{'parse+check ms':>16}{'compile ms':>12}{'load ms':>10}"
          f"{'first game ms':>15}")
    for name, pc, comp, whole, first in loads:
        print(f"{name:<16}{pc:>16.1f}{comp:>12.1f}{whole:>10.1f}{first:>15.1f}")
    np_path = ROOT / "rulesets" / "northpole.rules"
    if REF.exists() and np_path in [p.resolve() for p in paths] or (REF.exists() and not args.rulesets):
        game = rulelang.load(np_path)
        print()
        print("North Pole against the hand-written reference (interleaved, ratio of medians):")
        print(f"{'players':>8}{'reference/s':>13}{'rulelang/s':>12}{'slower by':>11}"
              f"{'reference/s':>13}{'batched/s':>11}{'slower by':>11}")
        for n in (2, 3, 4):
            ref, ours, ratio = reference_ratio(game, n, args.seconds)
            ref2, batch, ratio2 = reference_ratio(game, n, args.seconds, batch=True)
            print(f"{n:>8}{ref:>13.0f}{ours:>12.0f}{ratio:>10.1f}x{ref2:>13.0f}{batch:>11.0f}"
                  f"{ratio2:>10.1f}x")

if __name__ == "__main__":
    main()
