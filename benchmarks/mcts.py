"""How long the MCTS player takes to decide: CPU milliseconds a decision,
with a fixed number of playouts, on a few fixed positions of each game.

    python benchmarks/mcts.py [--playouts 150] [--rounds 3] [--root DIR] [GAME...]

GAME is an example's name (``goofspiel``), a ruleset's (``northpole``) or
a path, with ``:N`` for the players (two by default, or the smallest count
the game allows).  The positions are each game's start and the positions
after 3 and 6 random moves (seeds 0, 1, 2; a position that is over or at a
chance node is left out); each is decided once by ``mcts:N`` with its own
seed, and the best of ``--rounds`` runs is printed.  ``--root`` measures
another checkout of rulelang (put first on the import path): run it once
for each of two checkouts to set them side by side.
"""

from __future__ import annotations

import argparse
import pathlib
import random
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
GAMES = ("tic_tac_toe", "goofspiel", "pig", "liars_dice", "hex", "northpole:3", "deepsea")


def find(name: str) -> pathlib.Path:
    for folder in ("examples", "rulesets"):
        path = ROOT / folder / f"{name}.rules"
        if path.exists():
            return path
    return pathlib.Path(name)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game", nargs="*")
    ap.add_argument("--playouts", type=int, default=150)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--root", default=str(ROOT), help="the checkout of rulelang to measure")
    args = ap.parse_args()
    sys.path.insert(0, args.root)
    import rulelang
    from rulelang.players import player
    print(f"Python {sys.version.split()[0]}, rulelang from {pathlib.Path(rulelang.__file__).parent}; "
          f"CPU ms a decision of mcts:{args.playouts}, best of {args.rounds} rounds")
    for spec in args.game or GAMES:
        name, _, count = spec.partition(":")
        game = rulelang.load(find(name))
        players = int(count) if count else max(game.min_players, min(2, game.max_players))
        positions = []
        for seed in range(3):
            st = game.new_game(players=players, seed=seed, log=False)
            rng = random.Random(seed)
            for _ in range(3 * seed):
                if st.is_over:
                    break
                st.apply(rng.choice(st.legal_moves()))
            if not st.is_over and not st.is_chance_node:
                positions.append(st)
        best = float("inf")
        for _ in range(args.rounds):
            start = time.process_time()
            for i, st in enumerate(positions):
                player(f"mcts:{args.playouts}", seed=i).choose(st)
            best = min(best, (time.process_time() - start) / len(positions) * 1000)
        print(f"{name:<14} {players}p {best:9.1f} ms", flush=True)


if __name__ == "__main__":
    main()
