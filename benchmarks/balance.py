"""A quick balance report for any ruleset, until ``rulelang simulate`` grows
its own (see the issue "A designer's balance report").

    python benchmarks/balance.py RULESET [--games 200] [--players 2] [--param coop=1]
                                 [--policy random|busy] [--prompt Next]

For N games with random players: each seat's mean score and share of wins,
the first player's share of wins (the seat of the first turn) against the
fair share, the endings, and how often each answer of each decision was
chosen (``--prompt`` keeps the decisions whose prompt starts so).  The
``busy`` policy is random but answers "Pass", "End the turn" or "Make camp" only one time
in ten when something else is offered, so a worker-placement game is played
out rather than passed away.
"""

from __future__ import annotations

import argparse
import collections
import math
import pathlib
import random
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import rulelang  # noqa: E402

LAZY = ("Pass", "End the turn", "Make camp")


def pick(rng, moves, policy):
    if policy == "busy":
        busy = [m for m in moves if m.label not in LAZY]
        if busy and rng.random() < 0.9:
            return rng.choice(busy)
    return rng.choice(moves)


def wilson(wins, n, z=1.96):
    """The 95% Wilson interval of a proportion."""
    if n == 0:
        return (0.0, 0.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("ruleset")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--param", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--policy", choices=("random", "busy"), default="busy")
    ap.add_argument("--prompt", default="", help="only decisions whose prompt starts so")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    params = {}
    for p in args.param:
        name, _, value = p.partition("=")
        params[name] = int(value)
    game = rulelang.load(args.ruleset)
    n = args.players
    scores = collections.defaultdict(list)
    wins = collections.Counter()
    first_wins = 0.0
    endings = collections.Counter()
    answers = collections.defaultdict(collections.Counter)
    for g in range(args.games):
        st = game.new_game(players=n, seed=args.seed + g, params=params)
        rng = random.Random(args.seed + g)
        while not st.is_over:
            st.apply(pick(rng, st.legal_moves(), args.policy))
        result = st.result()
        endings[result.ending] += 1
        first = next((e.player for e in st.log if e.kind == "turn"), 0)
        for seat, s in enumerate(result.scores):
            scores[seat].append(s)
        for w in result.winners:
            wins[w] += 1 / len(result.winners)
            if w == first:
                first_wins += 1 / len(result.winners)
        for e in st.log:
            if e.kind == "choose" and ": " in e.text:
                prompt, answer = e.text.split(": ", 1)
                if prompt.startswith(args.prompt):
                    answers[prompt][answer] += 1
    print(f"{game.ruleset.title}: {args.games} games, {n} players, policy {args.policy}"
          + (f", {params}" if params else ""))
    for seat in range(n):
        mean = sum(scores[seat]) / len(scores[seat])
        print(f"  P{seat}: mean score {mean:.1f}, wins {100 * wins[seat] / args.games:.1f}%")
    low, high = wilson(first_wins, args.games)
    print(f"  first player wins {100 * first_wins / args.games:.1f}% "
          f"(95% {100 * low:.1f}–{100 * high:.1f}%; a fair share is {100 / n:.1f}%)")
    for name, k in endings.most_common():
        print(f"  ending {name!r}: {100 * k / args.games:.1f}%")
    for prompt, counter in sorted(answers.items()):
        total = sum(counter.values())
        shown = ", ".join(f"{a} {100 * c / total:.0f}%" for a, c in counter.most_common(8))
        print(f"  {prompt} ({total / args.games:.1f} a game): {shown}")


if __name__ == "__main__":
    main()
