"""``rulelang simulate --workers N``: wall time of the whole command, one
worker against more, interleaved.

    python benchmarks/simulate_workers.py [--runs 3] [--games 2000] [--workers 1,2]

Cases: ``rulesets/endurance.rules`` (solitaire) and ``rulesets/northpole.rules
--players 3``, each ``--games`` games from seed 0.  Every run is a fresh
``python -m rulelang simulate`` process; the runs go case by case, worker
count by worker count, round after round (so a change in the machine's load
falls on every cell alike), and each cell is the median of ``--runs``.

Printed per case and worker count: the median wall time of the command
(start-up, import and load included: the same for every worker count, and
not shared out), the speed-up of that wall time over the first worker count,
the median games/s that the command itself prints (the playing alone: from
just before the games to the last result, the workers' start included) and
its speed-up, and the median CPU seconds of the command, its workers
included (what sharing the games out costs in work).  Every run's figures
but the speed line must be those of the first worker count (the same
games): a difference is reported and the exit status is 1.  The load average (``os.getloadavg``: 1, 5 and 15 minutes) is
printed before and after, and beside each round: on a machine busy with
other work the speed-ups are low.  So each round also times what the
machine gives at that moment: a plain Python loop (no rulelang) in one
process, then in as many processes at once as the largest worker count,
each process doing the same work (``machine`` in the table: the ideal the
workers can reach).  ``RULELANG_CACHE`` is removed from the children's
environment.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import re
import resource
import statistics
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent

CASES = [("endurance", ["rulesets/endurance.rules"]),
         ("northpole 3p", ["rulesets/northpole.rules", "--players", "3"])]


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def cpu() -> float:
    """CPU seconds (user and system) of every child process waited for so far,
    their own children included."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def run(args: list, games: int, workers: int) -> tuple:
    """(wall seconds, CPU seconds, games/s printed, the output without its
    speed line)."""
    env = dict(os.environ)
    env.pop("RULELANG_CACHE", None)
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    cmd = [sys.executable, "-m", "rulelang", "simulate", *args, "--games", str(games),
           "--workers", str(workers)]
    c0, t0 = cpu(), time.perf_counter()
    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    wall, used = time.perf_counter() - t0, cpu() - c0
    if done.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stderr}")
    lines = done.stdout.splitlines()
    rate = float(re.match(r"\s*([\d.]+) games/s", lines[1]).group(1))
    return wall, used, rate, [lines[0]] + lines[2:]


LOOP = "x = 0\nfor i in range(15_000_000):\n    x += i\n"


def machine(processes: int) -> float:
    """Wall seconds of ``processes`` copies of ``LOOP`` run at once."""
    t0 = time.perf_counter()
    procs = [subprocess.Popen([sys.executable, "-c", LOOP]) for _ in range(processes)]
    for p in procs:
        p.wait()
    return time.perf_counter() - t0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3, help="runs per cell (the median; default 3)")
    ap.add_argument("--games", type=int, default=2000, help="games per run (default 2000)")
    ap.add_argument("--workers", default="1,2", help="worker counts, comma-separated (default 1,2)")
    a = ap.parse_args()
    counts = [int(w) for w in a.workers.split(",")]
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, {a.games} games, "
          f"median of {a.runs} runs, interleaved")
    print(f"load average before: {load()}")
    walls: dict = {}
    rates: dict = {}
    cpus: dict = {}
    first: dict = {}
    bad = 0
    for r in range(a.runs):
        for name, args in CASES:
            for w in counts:
                wall, used, rate, out = run(args, a.games, w)
                walls.setdefault((name, w), []).append(wall)
                cpus.setdefault((name, w), []).append(used)
                rates.setdefault((name, w), []).append(rate)
                if first.setdefault(name, out) != out:
                    print(f"  DIFFERENT FIGURES: {name}, --workers {w}, round {r + 1}:\n    "
                          + "\n    ".join(out))
                    bad += 1
        for w in counts:
            walls.setdefault(("machine", w), []).append(machine(w))
        print(f"  round {r + 1} done, load average {load()}")
    print(f"load average after: {load()}")
    print()
    print(f"{'case':14} {'workers':>7} {'wall s':>8} {'speed-up':>9} {'games/s':>8} {'speed-up':>9} "
          f"{'CPU s':>7}")
    one = statistics.median(walls[("machine", 1)])
    for w in counts:
        ideal = statistics.median(walls[("machine", w)])
        print(f"{'machine':14} {w:7} {ideal:8.2f} {w * one / ideal:8.2f}x"
              f"{'':>9} {'':>9}   (a Python loop in {w} process{'es' if w > 1 else ''} at once)")
    for name, _ in CASES:
        base_wall = statistics.median(walls[(name, counts[0])])
        base_rate = statistics.median(rates[(name, counts[0])])
        for w in counts:
            wall = statistics.median(walls[(name, w)])
            rate = statistics.median(rates[(name, w)])
            used = statistics.median(cpus[(name, w)])
            print(f"{name:14} {w:7} {wall:8.2f} {base_wall / wall:8.2f}x {rate:8.0f} "
                  f"{rate / base_rate:8.2f}x {used:7.2f}")
    print("\nthe figures (all but the speed line) are "
          + ("the same for every worker count" if not bad else f"DIFFERENT in {bad} runs"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
