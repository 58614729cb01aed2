"""Where the time of a move goes: cProfile over random games through the
move API (``legal_moves`` + ``apply``, log off), the functions by their own
time.  Each rule's generated Python shows as its own function (``<rulelang
goofspiel.rules: the turn>``), so a profile says which rule costs what.

    python benchmarks/profile_moves.py GAME [--players N] [--games 1500] [--top 25] [--root DIR]

GAME is an example's name (``goofspiel``), a ruleset's (``northpole``) or a
path.  ``--root`` profiles another checkout of rulelang (put first on the
import path), so a profile before a change and one after can be set side
by side.  (cProfile slows small functions most: compare two profiles, or
time with ``benchmarks/ab.py``.)
"""

from __future__ import annotations

import argparse
import cProfile
import pathlib
import pstats
import random
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def find(game: str) -> pathlib.Path:
    """A ruleset's path from its name or path."""
    for where in (ROOT / "examples", ROOT / "rulesets"):
        if (where / f"{game}.rules").exists():
            return where / f"{game}.rules"
    return pathlib.Path(game)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game")
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--games", type=int, default=1500)
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--root", default=str(ROOT), help="the checkout of rulelang to profile")
    args = ap.parse_args()
    sys.path.insert(0, args.root)
    import rulelang
    game = rulelang.load(find(args.game))
    players = args.players or game.min_players

    def play(n: int, first: int) -> None:
        for i in range(first, first + n):
            st = game.new_game(players=players, seed=i, log=False)
            rng = random.Random(i)
            while not st.is_over:
                st.apply(rng.choice(st.legal_moves()))

    play(50, 10**6)         # (warm: generated functions made, first positions kept)
    prof = cProfile.Profile()
    prof.runcall(play, args.games, 0)
    print(f"{args.game}, {players} players, {args.games} games, rulelang from {rulelang.__file__}")
    pstats.Stats(prof).sort_stats("tottime").print_stats(args.top)


if __name__ == "__main__":
    main()
