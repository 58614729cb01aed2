"""How fast hostile rulesets stop: the time each takes from loading to its
RulesetError, and the work it counted (``State.steps``) on the way.

    python benchmarks/hostile.py [--max-steps N] [NAME...]

Each case is a small rule file that tries to keep the machine busy inside
every limit: endless loops of cheap or costly passes (dice, pools, log
lines, cards moved, draws that refill, pieces and cards looked at), call
trees and recursion, endless turns.  With the default ``rulelang.Limits``
each must end with a ``RulesetError`` naming a line, well under a second
after it starts; the table shows the seconds, the steps counted and the
nanoseconds of real work per step (the worst of these, times
``Limits.max_steps``, bounds how long any ruleset can run between two
moves).
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import rulelang  # noqa: E402
from rulelang.engine import state as _state  # noqa: E402

HEAD = 'game "Hostile"\nplayers 1..1\nper player { x 0 }\n'


def _phase(body, decls=""):
    return HEAD + decls + "turn { phase p {\n" + body + "\n} }\n"


def _calls(depth):
    rules = "rule r0 { x += 1 }\n" + "".join(f"rule r{i} {{ r{i - 1}; r{i - 1} }}\n"
                                            for i in range(1, depth + 1))
    return _phase(f"r{depth}", rules)


CASES = {
    "empty loop": _phase("while yes { }"),
    "counting loop": _phase("while yes { x += 1 }"),
    "100d100 a pass": _phase("while yes { x = roll 100d100 }"),
    "a pool of 100 dice a pass": _phase("while yes { let p = roll 100 dice d6 }"),
    "2000 values logged a pass": _phase("while yes { log \"" + "{x}" * 2000 + "\" }"),
    "a log line a pass": _phase('while yes { log "again" }'),
    "10 000 statements a pass": _phase("while yes {\n" + "x += 1\n" * 10_000 + "}"),
    "100 000 cards moved a pass": _phase(
        "while yes { move all from d to a; move all from a to d }",
        "deck d { A x100000 }\npile a\n"),
    "draws that refill forever": _phase("draw 1000000000 from d to hand",
                                        "deck d refills from hand { A x50 B x50 }\npile hand\n"),
    "an 'on draw' that puts the card back": _phase(
        "draw 1000000000 from d to hand",
        "deck d { A x10 }\npile hand\non draw from d as c { move c from hand to d }\n"),
    "100 000 different cards drawn": _phase(
        "draw 100000 from d to hand",
        "deck d {\n" + "".join(f"  C{i}\n" for i in range(100_000)) + "}\npile hand\n"),
    "count of 100 000 cards a pass": _phase("while yes { x = sum of v in d }",
                                            "deck d { A x100000: v 1 }\n"),
    "50 000 pieces looked at a pass": _phase(
        "while yes { x = count crew where v > 0 }",
        "pieces crew {\n" + "".join(f"  P{i}: v 1\n" for i in range(50_000)) + "}\n"),
    "for each card, none taken": _phase("while yes { for each card in d as c where no { x += 1 } }",
                                        "deck d { A x100000 }\n"),
    "a call tree 2^60 wide": _calls(60),
    "recursion 2^60 wide": _phase("r(60)", "rule r (n) { if n > 0 { r(n - 1); r(n - 1) } }\n"),
    "endless turns": HEAD + "turn { phase p { x += 1 } }\n",
    "a roll-off a pass": 'game "Hostile"\nplayers 64..64\nper player { x 0 }\nglobal { w none }\n'
                         "turn { phase p { while yes { w = roll off d2 } } }\n",
}


def run(text, limits, log=True):
    """(seconds to load, seconds to play, steps counted, the error) of
    loading and starting a game."""
    seen = []
    real = _state.State._run

    def counting(self):
        try:
            real(self)
        finally:
            seen.append(self.steps)
    t0 = time.perf_counter()
    loaded = t0
    _state.State._run = counting
    try:
        game = rulelang.loads(text, "hostile.rules", limits=limits)
        loaded = time.perf_counter()
        game.new_game(seed=1, log=log)
    except rulelang.RulesetError as e:
        err = e
    else:
        err = None
    finally:
        _state.State._run = real
    end = time.perf_counter()
    return loaded - t0, end - loaded, max(seen, default=0), err


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-steps", type=int, default=None)
    parser.add_argument("names", nargs="*")
    args = parser.parse_args(argv)
    limits = rulelang.Limits() if args.max_steps is None else rulelang.Limits(max_steps=args.max_steps)
    print(f"Python {sys.version.split()[0]}, Limits.max_steps {limits.max_steps}")
    print(f"{'case':38} {'load s':>7} {'play s':>7} {'steps':>11} {'ns/step':>8}  error")
    worst = 0.0
    for name, text in CASES.items():
        if args.names and name not in args.names:
            continue
        load, play, steps, err = run(text, limits)
        per = play / steps * 1e9 if steps else float("nan")
        worst = max(worst, play)
        what = f"line {err.line}: {err.message[:50]}" if err else "NO ERROR"
        shown = f"{steps:11d}" if steps < 10**11 else f"{steps:11.1e}"
        print(f"{name:38} {load:7.3f} {play:7.3f} {shown} {per:8.1f}  {what}")
    print(f"slowest play: {worst:.3f}s")


if __name__ == "__main__":
    main()
