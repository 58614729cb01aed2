"""Two versions of rulelang side by side: CPU time per move, interleaved.

    python benchmarks/ab.py BASE [--new DIR] [--rounds 5] [--seconds 0.7] [--batched] [GAME...]

BASE is a git revision (a commit, a branch, ``HEAD~3``), checked out for
the run into a temporary worktree and removed after; ``--new`` is the
checkout measured against it (this one by default).  A GAME is an
example's name (``goofspiel``), a ruleset's (``northpole``) or a path,
with ``:N`` for the players (the ruleset's smallest count otherwise); by
default every example and shipped ruleset.

For each game and each round, one fresh process per version plays random
games through the move API (``legal_moves`` + ``apply``, log off; starting
each game counted) for about ``--seconds`` of CPU time, after a warm-up,
and reports the CPU time per move (``--batched``: per game of
``Game.playouts``) (``time.process_time``, which load on a
shared machine disturbs less than the wall clock).  The versions take
turns, round by round, so that a change in the machine's load falls on
both.  Each game has its own seed (0, 1, 2, ...), the same for both
versions, none played twice: a cache that only pays on games played again
is not rewarded.  The table gives the medians and the ratio new / base
(below 1: the new version is faster), and the range of the rounds' own
ratios (each round's new run against the base run just before it): a
range that takes in 1 says the difference is within the machine's noise.
"""

from __future__ import annotations

import argparse
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent

_CHILD = r'''
import random, sys, time
sys.path.insert(0, sys.argv[1])
import rulelang
game = rulelang.load(sys.argv[2])
players, seconds, batched = int(sys.argv[3]), float(sys.argv[4]), sys.argv[5] == "batched"
seed = 0
def play(k):
    global seed
    n = 0
    if batched:     # (counted in games: both versions play the same ones)
        game.playouts(k, seed=seed, players=players)
        seed += k
        return k
    for _ in range(k):
        st = game.new_game(players=players, seed=seed, log=False)
        rng = random.Random(seed)
        seed += 1
        while not st.is_over:
            st.apply(rng.choice(st.legal_moves()))
            n += 1
    return n
play(20)
start, moves = time.process_time(), 0
while time.process_time() - start < seconds:
    moves += play(10)
print((time.process_time() - start) / moves * 1e6, rulelang.__file__)
'''


def games(names):
    """(label, path, players) for each GAME given, or every example and ruleset."""
    if not names:
        names = [p.stem for p in sorted((ROOT / "examples").glob("*.rules"))] + \
                [p.stem for p in sorted((ROOT / "rulesets").glob("*.rules"))]
    out = []
    for name in names:
        name, _, players = name.partition(":")
        path = pathlib.Path(name)
        if not path.exists():
            for folder in ("examples", "rulesets"):
                if (ROOT / folder / f"{name}.rules").exists():
                    path = ROOT / folder / f"{name}.rules"
        if not path.exists():
            raise SystemExit(f"ab.py: no game {name!r} (an example, a ruleset, or a path)")
        if not players:
            sys.path.insert(0, str(ROOT))
            import rulelang
            players = str(rulelang.load(path).min_players)
        out.append((f"{path.stem} ({players}p)", path.resolve(), int(players)))
    return out


def per_move(root, path, players, seconds, batched=False):
    done = subprocess.run([sys.executable, "-c", _CHILD, str(root), str(path), str(players),
                           str(seconds), "batched" if batched else "api"],
                          capture_output=True, text=True, cwd=tempfile.gettempdir())
    if done.returncode:
        raise SystemExit(f"ab.py: the run of {path.name} from {root} failed:\n{done.stderr}")
    value, loaded_from = done.stdout.split(maxsplit=1)
    if not loaded_from.strip().startswith(str(root)):     # (an installed copy came first)
        raise SystemExit(f"ab.py: {root} was asked for, {loaded_from.strip()} was run")
    return float(value)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base")
    parser.add_argument("game", nargs="*")
    parser.add_argument("--new", default=str(ROOT))
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=0.7)
    parser.add_argument("--batched", action="store_true",
                        help="time whole games of Game.playouts (CPU µs per game) instead")
    args = parser.parse_intermixed_args()
    chosen = games(args.game)
    folder = pathlib.Path(tempfile.mkdtemp(prefix="rulelang-ab-"))
    base = folder / "base"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--quiet", "--detach", str(base),
                    args.base], check=True)
    try:
        new = pathlib.Path(args.new).resolve()
        what = "per game through Game.playouts" if args.batched else "per move through the move API"
        print(f"Python {sys.version.split()[0]}; CPU µs {what}, medians "
              f"of {args.rounds} rounds of {args.seconds}s; base {args.base}, new {new}")
        print(f"{'game':<28}{'base':>9}{'new':>9}{'new/base':>10}{'rounds':>14}")
        ratios = []
        for label, path, players in chosen:
            times = {"base": [], "new": []}
            for _ in range(args.rounds):
                for tag, root in (("base", base), ("new", new)):
                    times[tag].append(per_move(root, path, players, args.seconds, args.batched))
            b, n = statistics.median(times["base"]), statistics.median(times["new"])
            ratios.append(n / b)
            paired = [y / x for x, y in zip(times["base"], times["new"])]
            spread = f"{min(paired):.3f}–{max(paired):.3f}"
            print(f"{label:<28}{b:9.2f}{n:9.2f}{n / b:10.3f}{spread:>14}", flush=True)
        print(f"{'geometric mean':<28}{'':>18}{statistics.geometric_mean(ratios):10.3f}")
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)],
                       check=False)
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
