"""How the Expedition plays in simulation: the figures its ruleset's
design is judged by that ``rulelang simulate`` does not report for any
game (the fate of each Resource).

    python benchmarks/expedition_report.py [--games 500] [--players 1 2 3 4]

Players are random but make camp only one time in ten when they could do
something else, so that a game is played out rather than camped away.
For each player count:
the game's length (Game Turns, decisions), discovery points by seat and
the winners' share by seat, how the games end and how the explorers end,
and for each Resource how often it comes into play: in what share of the
player-games it is held at some point, spent or lost (a chit leaving a
sheet), and gained after equipping (from a Village, a Kingdom or a random
draw).
"""

from __future__ import annotations

import argparse
import collections
import pathlib
import random
import statistics
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import rulelang  # noqa: E402

RESOURCES = ("Quinine", "Cannabis", "Bible", "Rifle", "Ammo", "Books", "Diary", "Revolver",
             "Machete", "Pickax", "Canteen", "Canoes", "Guide", "Telescope", "Surveying",
             "Altimeter", "Painting", "Fishing")


def busy(rng, moves):
    names = [m.label for m in moves]
    if "Make camp" in names and len(names) > 1 and rng.random() < 0.9:
        moves = [m for m in moves if m.label != "Make camp"]
    return rng.choice(moves)


def play(game, players, games):
    length, decisions = [], []
    points = collections.defaultdict(list)
    wins = collections.Counter()
    endings, fates = collections.Counter(), collections.Counter()
    nobody = 0
    held, left, gained = (collections.Counter(), collections.Counter(), collections.Counter())
    for seed in range(games):
        rng = random.Random(seed)
        st = game.new_game(players=players, seed=seed)
        seen = [set() for _ in range(players)]
        out = [set() for _ in range(players)]
        came = [set() for _ in range(players)]
        before = [collections.Counter(st.pile("sheet", p)) for p in range(players)]
        n = 0
        while not st.is_over:
            move = busy(rng, st.legal_moves()) if isinstance(st.current_player, int) else \
                rng.choice(st.legal_moves())
            if isinstance(st.current_player, int):
                n += 1
            equipping = st.round == 0
            st.apply(move)
            for p in range(players):
                now = collections.Counter(st.pile("sheet", p))
                seen[p].update(now)
                out[p].update((before[p] - now).keys())
                if not equipping:
                    came[p].update((now - before[p]).keys())
                before[p] = now
        result = st.result()
        length.append(st.round - 1)
        decisions.append(n)
        endings[result.ending] += 1
        for p in range(players):
            points[p].append(result.scores[p])
            fates[st.stat("fate", p)] += 1
            held.update(seen[p])
            left.update(out[p])
            gained.update(came[p])
        for w in result.winners:
            wins[w] += 1
        nobody += not result.winners
    n = games * players
    print(f"\n{players} player{'s' if players > 1 else ''}, {games} games")
    print(f"  Game Turns played: mean {statistics.mean(length):.2f}; decisions a game: mean "
          f"{statistics.mean(decisions):.0f}, median {statistics.median(decisions):.0f}")
    print("  DP by seat (mean):  " + "  ".join(f"P{p} {statistics.mean(v):.1f}"
                                             for p, v in sorted(points.items())))
    print("  wins by seat:       " + "  ".join(f"P{p} {100 * wins[p] / games:.1f}%"
                                             for p in range(players))
          + f"   nobody wins: {100 * nobody / games:.1f}%")
    print("  endings:            " + ", ".join(f"{k} {100 * v / games:.1f}%"
                                              for k, v in endings.most_common()))
    print("  explorers:          " + ", ".join(f"{k} {100 * v / n:.1f}%"
                                              for k, v in fates.most_common()))
    print("  Resource        held  spent/lost  gained in play   (% of player-games)")
    for r in RESOURCES:
        print(f"  {r:12s} {100 * held[r] / n:7.1f} {100 * left[r] / n:11.1f} {100 * gained[r] / n:12.1f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--players", type=int, nargs="*", default=[1, 2, 3, 4])
    args = ap.parse_args()
    game = rulelang.load(ROOT / "rulesets" / "expedition.rules")
    for players in args.players:
        play(game, players, args.games)


if __name__ == "__main__":
    main()
