"""The engine against hand-written twins on small games, where the fixed
cost of a move (listing moves, resuming, dispatch) is most of the time.

    python benchmarks/small_games.py [--seconds 1] [--rounds 5] [--games 1000] [--every-count] [GAME...]

For each game in examples/ (each has a twin in benchmarks/twins/), at its
smallest number of players (with ``--every-count``, at each number it
allows, up to 6; the geometric means are then given over every row and
over the smallest counts alone): random playouts through the move API
(``legal_moves`` + ``apply``, log off), batched (``Game.playouts``) and by
the twin, interleaved round by round; the table gives playouts/s (medians)
and how many times slower the engine is (ratio of medians), and the
geometric means over the games.  Before the timing, an untimed pass of
``--games`` games on each side gives the decisions per game ("moves/game":
the engine's moves applied through the API, the twin's calls of
``rng.choice``, one a decision), so that the two can be seen to play games
of the same length.
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
import types

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import rulelang  # noqa: E402

GAMES = ["pig", "nim", "tic_tac_toe", "connect_four", "hex", "hare_and_hounds",
         "goofspiel", "blackjack", "kuhn_poker", "liars_dice"]


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


def engine_moves(game, players, games):
    """Mean moves per game through the move API over ``games`` random games."""
    moves = 0
    for i in range(games):
        st = game.new_game(players=players, seed=i, log=False)
        rng = random.Random(i)
        while not st.is_over:
            st.apply(rng.choice(st.legal_moves()))
            moves += 1
    return moves / games


class _Counting(random.Random):
    """A ``random.Random`` that counts its calls of ``choice``: a twin's decisions."""

    calls = 0

    def choice(self, seq):
        _Counting.calls += 1
        return super().choice(seq)


def twin_moves(module, players, games):
    """Mean decisions per game of a twin over ``games`` games (its module's
    ``random`` swapped for one whose generator counts them, for this pass only)."""
    real, _Counting.calls = module.random, 0
    module.random = types.SimpleNamespace(Random=_Counting)
    try:
        for i in range(games):
            module.playout(i, players)
    finally:
        module.random = real
    return _Counting.calls / games


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seconds", type=float, default=1.0)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--games", type=int, default=1000, help="games counted for moves/game, each side")
    p.add_argument("--every-count", action="store_true",
                   help="each number of players a game allows (up to 6), not only its smallest")
    p.add_argument("names", nargs="*", metavar="GAME", help=f"some of {', '.join(GAMES)}")
    args = p.parse_args(argv)
    names = args.names or GAMES
    print(f"Python {sys.version.split()[0]}, {args.rounds} rounds of {args.seconds}s each; "
          f"moves/game: decisions per game, mean of {args.games} games each side")
    print(f"{'':<16}{'':>3}{'moves/game':^16}{'playouts/s and how many times slower':^47}".rstrip())
    print(f"{'game':<16}{'pl':>3}{'by hand':>8}{'engine':>8}{'by hand':>11}{'API':>9}{'slower':>8}"
          f"{'batched':>11}{'slower':>8}")
    api_ratios, batch_ratios, smallest = [], [], []
    rows = []
    for name in names:
        game = rulelang.load(ROOT / "examples" / f"{name}.rules")
        most = min(game.max_players, 6) if args.every_count else game.min_players
        rows += [(name, game, n) for n in range(game.min_players, most + 1)]
    for name, game, players in rows:
        module = importlib.import_module(f"twins.{name}")
        twin = module.playout
        lengths = twin_moves(module, players, args.games), engine_moves(game, players, args.games)
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
        if players == game.min_players:
            smallest.append((a, b))
        print(f"{name:<16}{players:>3}{lengths[0]:>8.1f}{lengths[1]:>8.1f}{med['hand']:>11.0f}"
              f"{med['api']:>9.0f}{a:>7.1f}x{med['batched']:>11.0f}{b:>7.1f}x", flush=True)
    gm = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs))   # noqa: E731
    means = [("geomean", api_ratios, batch_ratios)]
    if len(smallest) < len(rows):
        means = [("geomean, all", api_ratios, batch_ratios),
                 ("geomean, fewest", [a for a, _ in smallest], [b for _, b in smallest])]
    for label, apis, batches in means:
        print(f"{label:<19}{'':>8}{'':>8}{'':>11}{'':>9}{gm(apis):>7.1f}x{'':>11}"
              f"{gm(batches):>7.1f}x")


if __name__ == "__main__":
    main()
