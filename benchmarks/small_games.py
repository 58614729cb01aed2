"""The engine against hand-written twins on small games, where the fixed
cost of a move (listing moves, resuming, dispatch) is most of the time.

    python benchmarks/small_games.py [--seconds 1] [--rounds 5]

For each game in examples/ with a twin in benchmarks/twins/: random
playouts through the move API (``legal_moves`` + ``apply``, log off),
batched (``Game.playouts``) and by the twin, interleaved round by round;
the table gives playouts/s (medians) and how many times slower the engine
is (ratio of medians), and the geometric means over the games.
"""

from __future__ import annotations

import argparse
import importlib
import math
import pathlib
import random
import statistics
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import rulelang  # noqa: E402

GAMES = ["pig", "nim", "tic_tac_toe", "connect_four", "hex", "hare_and_hounds"]


def rate(play, seconds):
    """Playouts per second of ``play(i)`` over about ``seconds``."""
    n, start = 0, time.perf_counter()
    while True:
        play(n)
        n += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return n / elapsed


def through_api(game, players):
    def play(i):
        st = game.new_game(players=players, seed=i, log=False)
        rng = random.Random(i)
        while not st.is_over:
            st.apply(rng.choice(st.legal_moves()))
    return play


def batched(game, players):
    return lambda i: game.playouts(1, seed=i, players=players)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seconds", type=float, default=1.0)
    p.add_argument("--rounds", type=int, default=5)
    args = p.parse_args(argv)
    print(f"Python {sys.version.split()[0]}, {args.rounds} rounds of {args.seconds}s each")
    print(f"{'game':<14}{'by hand/s':>11}{'API/s':>9}{'slower':>8}{'batched/s':>11}{'slower':>8}")
    api_ratios, batch_ratios = [], []
    for name in GAMES:
        game = rulelang.load(ROOT / "examples" / f"{name}.rules")
        twin = importlib.import_module(f"twins.{name}").playout
        players = game.min_players
        ways = {"hand": lambda i, twin=twin, players=players: twin(i, players),
                "api": through_api(game, players),
                "batched": batched(game, players)}
        rates = {k: [] for k in ways}
        for _ in range(args.rounds):
            for k, play in ways.items():
                rates[k].append(rate(play, args.seconds))
        med = {k: statistics.median(v) for k, v in rates.items()}
        a, b = med["hand"] / med["api"], med["hand"] / med["batched"]
        api_ratios.append(a)
        batch_ratios.append(b)
        print(f"{name:<14}{med['hand']:>11.0f}{med['api']:>9.0f}{a:>7.1f}x"
              f"{med['batched']:>11.0f}{b:>7.1f}x")
    gm = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs))   # noqa: E731
    print(f"{'geomean':<14}{'':>11}{'':>9}{gm(api_ratios):>7.1f}x{'':>11}{gm(batch_ratios):>7.1f}x")


if __name__ == "__main__":
    main()
