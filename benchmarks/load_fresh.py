"""Load time: in fresh processes, and warm in one process stage by stage.

    python benchmarks/load_fresh.py [--runs 5] [--repeat 7] [--root DIR] [RULESET...]

Every ruleset in rulesets/ and examples/ (or those named: a path, or a
name such as ``northpole``).  Fresh processes (the median of ``--runs``,
the cases interleaved run by run, after one warm-up run that leaves the
bytecode cached):

- ``python``: ``python -c pass``, the interpreter alone;
- ``import``: ``python -c "import rulelang"``;
- ``first load``: ``import rulelang; rulelang.load(FILE)`` in a new process
  (whatever the parser needs made there: nothing kept from another
  process), as wall time of the process and as the time from before
  ``import rulelang`` to after the load, measured inside it;
- ``check``: ``rulelang check FILE`` (the console script), wall time.

Warm, in one process (the median of ``--repeat`` loads, after one):
``lark`` (the Lark parse tree of the text), ``transform`` (that tree to
IR), ``parse`` (``rulelang.syntax.parse``, all of the syntax stage as a
load runs it), ``check`` (the trust boundary's checker), ``compile``
(``compile_ruleset``) and ``load`` (``rulelang.load``, all of it).

``--root`` measures another checkout of rulelang (its package is put first
on ``PYTHONPATH`` of every child), so two versions can be compared with
the same interpreter.  No cache is used (``RULELANG_CACHE`` is removed from
the children's environment).  ``--bytecode``: ``cached`` (the default)
lets the children keep compiled bytecode, in a directory of their own
(``PYTHONPYCACHEPREFIX``), as an installed package has it; ``env`` leaves
the environment as it is (with ``PYTHONDONTWRITEBYTECODE=1`` and no
``__pycache__`` in the checkout, every process compiles rulelang's modules
from source).  Milliseconds throughout.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent

_LOAD = ("import time; t = time.perf_counter(); import rulelang; rulelang.load({path!r}); "
         "print((time.perf_counter() - t) * 1000)")
_WHICH = "import rulelang, sys; sys.stdout.write(rulelang.__file__)"

_WARM = r'''
import json, statistics, sys, time
import rulelang
from rulelang import trust
from rulelang.engine import compile_ruleset
from rulelang.limits import DEFAULT
from rulelang.syntax import parse, parser
from rulelang.syntax.transform import to_ir
paths, repeat = json.loads(sys.argv[1])
out = {}
for path in paths:
    text = open(path, encoding="utf-8").read()
    times = {k: [] for k in ("lark", "transform", "parse", "check", "compile", "load")}
    for i in range(repeat + 1):
        t0 = time.perf_counter()
        tree = parser().parse(text)
        t1 = time.perf_counter()
        to_ir(tree, path, text, DEFAULT)
        t2 = time.perf_counter()
        rs = parse(text, path)
        t3 = time.perf_counter()
        rs = trust.checked(rs)
        t4 = time.perf_counter()
        compile_ruleset(rs)
        t5 = time.perf_counter()
        rulelang.load(path)
        t6 = time.perf_counter()
        if i:
            for k, a, b in (("lark", t0, t1), ("transform", t1, t2), ("parse", t2, t3),
                            ("check", t3, t4), ("compile", t4, t5), ("load", t5, t6)):
                times[k].append((b - a) * 1000)
    out[path] = {k: statistics.median(v) for k, v in times.items()}
print(json.dumps(out))
'''


def rulesets(names):
    every = sorted((ROOT / "rulesets").glob("*.rules")) + sorted((ROOT / "examples").glob("*.rules"))
    if not names:
        return every
    chosen = []
    for name in names:
        p = pathlib.Path(name)
        if p.exists():
            chosen.append(p.resolve())
        else:
            chosen.extend(q for q in every if q.stem == name)
    return chosen


def environment(root, bytecode):
    """The children's environment: ``root`` first on their path."""
    env = dict(os.environ)
    env.pop("RULELANG_CACHE", None)
    env["PYTHONPATH"] = str(root) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    if bytecode == "cached":
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = os.path.join(tempfile.gettempdir(), "rulelang-load-fresh-pyc")
    return env


def run(cmd, env):
    """``cmd`` run to its end in the checkout measured (``python -c`` puts
    its working directory first on its path)."""
    return subprocess.run(cmd, env=env, cwd=env["PYTHONPATH"].split(os.pathsep)[0],
                          capture_output=True, text=True, check=True)


def wall(cmd, env):
    """(wall ms of running ``cmd``, its stdout)."""
    t = time.perf_counter()
    done = run(cmd, env)
    return (time.perf_counter() - t) * 1000, done.stdout


def check_command():
    script = pathlib.Path(sys.executable).parent / "rulelang"
    return [str(script)] if script.exists() else [sys.executable, "-m", "rulelang"]


def fresh(paths, runs, env):
    """Medians of the fresh-process cases."""
    py = sys.executable
    cases = {("python", None): [py, "-c", "pass"], ("import", None): [py, "-c", "import rulelang"]}
    for p in paths:
        cases[("load", p)] = [py, "-c", _LOAD.format(path=str(p))]
        cases[("check", p)] = check_command() + ["check", str(p)]
    times = {k: [] for k in cases}
    inside = {p: [] for p in paths}
    for run in range(runs + 1):
        for key, cmd in cases.items():
            ms, out = wall(cmd, env)
            if run:
                times[key].append(ms)
                if key[0] == "load":
                    inside[key[1]].append(float(out))
    med = {k: statistics.median(v) for k, v in times.items()}
    return med, {p: statistics.median(v) for p, v in inside.items()}


def warm(paths, repeat, env):
    cmd = [sys.executable, "-c", _WARM, json.dumps([[str(p) for p in paths], repeat])]
    return json.loads(run(cmd, env).stdout)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5, help="fresh processes per case (median)")
    ap.add_argument("--repeat", type=int, default=7, help="warm loads per ruleset (median)")
    ap.add_argument("--root", default=str(ROOT), help="the rulelang to measure (a checkout)")
    ap.add_argument("--bytecode", choices=("cached", "env"), default="cached",
                    help="compiled bytecode in the children (see above)")
    ap.add_argument("--json", help="also write the figures to this file")
    ap.add_argument("rulesets", nargs="*")
    args = ap.parse_args(argv)
    paths = rulesets(args.rulesets)
    root = pathlib.Path(args.root).resolve()
    env = environment(root, args.bytecode)
    which = wall([sys.executable, "-c", _WHICH], env)[1]
    if not pathlib.Path(which).resolve().is_relative_to(root):
        raise SystemExit(f"the children import rulelang from {which}, not from {root}")
    med, inside = fresh(paths, args.runs, env)
    stages = warm(paths, args.repeat, env)
    print(f"Python {sys.version.split()[0]}, rulelang from {args.root}, bytecode {args.bytecode}; "
          f"ms, medians ({args.runs} fresh processes, {args.repeat} warm loads)")
    print(f"fresh process: python -c pass {med[('python', None)]:.0f}, "
          f"python -c 'import rulelang' {med[('import', None)]:.0f}")
    head = ("ruleset", "lark", "transform", "parse", "check", "compile", "load",
            "1st load", "(inside)", "check cmd")
    print(f"{head[0]:<17}" + "".join(f"{h:>10}" for h in head[1:]))
    rows = {}
    for p in paths:
        s = stages[str(p)]
        row = [s["lark"], s["transform"], s["parse"], s["check"], s["compile"], s["load"],
               med[("load", p)], inside[p], med[("check", p)]]
        rows[p.stem] = dict(zip(head[1:], row))
        print(f"{p.stem:<17}" + "".join(f"{v:10.1f}" for v in row))
    print("warm: lark = Lark's parse tree, transform = tree to IR, parse = rulelang.syntax.parse "
          "(all of the syntax stage), load = rulelang.load;\nfresh: 1st load = wall time of "
          "'import rulelang; rulelang.load(FILE)' in a new process, (inside) = the same timed "
          "from before the import,\ncheck cmd = wall time of 'rulelang check FILE'")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"python": med[("python", None)], "import": med[("import", None)],
                       "rulesets": rows}, f, indent=1)


if __name__ == "__main__":
    main()
