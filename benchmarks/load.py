"""Load time and memory of big generated rulesets, stage by stage.

    python benchmarks/load.py [--rows 10000] [--rules 30000] [CASE...]

Cases (each in a fresh process, so that its memory is its own):

- ``table``: one table of ``--rows`` rows (``roll on`` it once);
- ``warnings``: ``--rules`` rules that nothing calls, each a warning, and
  one unknown name each (an error with a "did you mean");
- ``statements``: one phase of ``--rows`` statements.

For each: the seconds to parse, check, compile and play the first game
(which writes out the code of what it runs), and the most memory the
process held (``ru_maxrss``) after each stage.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent

_CHILD = r'''
import json, resource, sys, time
sys.path.insert(0, sys.argv[1])
import rulelang
from rulelang.check import check_all
from rulelang.engine import Game, compile_ruleset
from rulelang.syntax import parse
text, play = json.loads(sys.stdin.read())
limits = rulelang.Limits(max_die_sides=max(10_000, text.count("\n")))
parse("game \"warm\"\n", "warm.rules")          # the grammar, built once
out = {}
def stage(name, fn):
    t = time.perf_counter()
    value = fn()
    out[name] = (time.perf_counter() - t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    return value
out["start"] = (0.0, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
rs = stage("parse", lambda: parse(text, "big.rules", limits))
errors, warnings = stage("check", lambda: check_all(rs, limits))
out["diagnostics"] = (len(errors), len(warnings))
if play and not errors:
    prog = stage("compile", lambda: compile_ruleset(rs, limits))
    stage("first game", lambda: Game(prog, limits).new_game(seed=1))
print(json.dumps(out))
'''


def table(rows):
    body = "\n".join(f"    {i} R{i}: x += {i % 7}" for i in range(1, rows + 1))
    return (f'game "Big"\nplayers 1..2\nper player {{ x 0 }}\ntable t d{rows} {{\n{body}\n}}\n'
            'turn { phase p { roll on t; end game "done" } }\n')


def warnings(rules):
    body = "".join(f"rule r{i} {{ x += y{i} }}\n" for i in range(rules))
    return f'game "Big"\nplayers 1..2\nper player {{ x 0 }}\n{body}turn {{ phase p {{ x += 1 }} }}\n'


def statements(n):
    body = "".join(f"    x += {i % 7}\n" for i in range(n))
    return (f'game "Big"\nplayers 1..2\nper player {{ x 0 }}\n'
            f'turn {{ phase p {{\n{body}    end game "done"\n}} }}\n')


def measure(text, play=True, root=ROOT):
    done = subprocess.run([sys.executable, "-c", _CHILD, str(root)], input=json.dumps([text, play]),
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--rules", type=int, default=30_000)
    parser.add_argument("--root", default=str(ROOT), help="the rulelang to measure (a checkout)")
    parser.add_argument("cases", nargs="*")
    args = parser.parse_args(argv)
    cases = {
        f"table of {args.rows} rows": (table(args.rows), True),
        f"{args.rules} unused rules": (warnings(args.rules), False),
        f"{args.rows} statements": (statements(args.rows), True),
    }
    print(f"Python {sys.version.split()[0]}; seconds, and the process's most memory (MB) after")
    print(f"{'case':28} {'parse':>12} {'check':>12} {'compile':>12} {'first game':>12}  diagnostics")
    for name, (text, play) in cases.items():
        if args.cases and not any(c in name for c in args.cases):
            continue
        out = measure(text, play, args.root)
        cells = []
        for stage in ("parse", "check", "compile", "first game"):
            if stage in out:
                seconds, rss = out[stage]
                cells.append(f"{seconds:6.2f}s {rss:4.0f}")
            else:
                cells.append(f"{'-':>12}")
        errors, warned = out["diagnostics"]
        print(f"{name:28} {' '.join(cells)}  {errors} errors, {warned} warnings")


if __name__ == "__main__":
    main()
