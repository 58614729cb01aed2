"""How much Python a move runs: the bytecode instructions executed over
random games through the move API (``legal_moves`` + ``apply``, log off),
counted by function, and by line of each rule's generated Python.  A count
does not change with the load on the machine, so it can judge a change too
small for a timing to see (``benchmarks/ab.py``), though an instruction
is not a fixed time (a call costs more than a load).

    python benchmarks/opcodes.py GAME [--players N] [--games 200] [--top 20] [--lines 25] [--root DIR]

GAME is an example's name (``goofspiel``: its hand-written twin in
``benchmarks/twins/`` is counted too), a ruleset's (``northpole``) or a
path.  ``--root`` counts another checkout of rulelang.
"""

from __future__ import annotations

import argparse
import collections
import importlib
import linecache
import pathlib
import random
import sys
from typing import Any, Callable, Counter, Tuple

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from profile_moves import find  # noqa: E402


def counted(play: Callable[[], Any]) -> Tuple[Counter[str], Counter[Tuple[str, int]], Any]:
    """(instructions by function, by (generated file, line), what ``play``
    gave) while ``play()`` runs."""
    by_function: Counter[str] = collections.Counter()
    by_line: Counter[Tuple[str, int]] = collections.Counter()

    def trace(frame: Any, event: str, arg: Any) -> Any:
        frame.f_trace_opcodes = True
        code = frame.f_code
        name = f"{pathlib.Path(code.co_filename).name}:{code.co_name}"
        generated = code.co_filename.startswith("<rulelang")

        def each(frame: Any, event: str, arg: Any) -> Any:
            if event == "opcode":
                by_function[name] += 1
                if generated:
                    by_line[(code.co_filename, frame.f_lineno or 0)] += 1
            return each
        return each

    sys.settrace(trace)
    try:
        out = play()
    finally:
        sys.settrace(None)
    return by_function, by_line, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game")
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--top", type=int, default=20, help="functions shown")
    ap.add_argument("--lines", type=int, default=25, help="lines of generated Python shown")
    ap.add_argument("--root", default=str(ROOT), help="the checkout of rulelang to count")
    args = ap.parse_args()
    sys.path.insert(0, args.root)
    import rulelang
    path = find(args.game)
    game = rulelang.load(path)
    players = args.players or game.min_players

    def play() -> int:
        moves = 0
        for i in range(args.games):
            st = game.new_game(players=players, seed=i, log=False)
            rng = random.Random(i)
            while not st.is_over:
                st.apply(rng.choice(st.legal_moves()))
                moves += 1
        return moves

    for i in range(20):     # (warm: generated functions made, first positions kept)
        st = game.new_game(players=players, seed=10**6 + i, log=False)
        while not st.is_over:
            st.apply(st.legal_moves()[0])
    functions, lines, moves = counted(play)
    total = sum(functions.values())
    print(f"{args.game}, {players} players, {args.games} games, {moves / args.games:.1f} moves a "
          f"game, rulelang from {rulelang.__file__}")
    print(f"{total / args.games:.0f} instructions a game, {total / max(moves, 1):.0f} a move")
    twin_path = ROOT / "benchmarks" / "twins" / f"{path.stem}.py"
    if twin_path.exists():
        twin = importlib.import_module(f"twins.{path.stem}")
        theirs, _, _ = counted(lambda: [twin.playout(i, players) for i in range(args.games)])
        mine = sum(theirs.values())
        print(f"the hand-written twin: {mine / args.games:.0f} a game "
              f"(the engine runs {total / max(mine, 1):.2f} times as many)")
    print("\n  a game   share  function")
    for name, n in functions.most_common(args.top):
        print(f"{n / args.games:8.0f} {100 * n / total:6.1f}%  {name}")
    print("\n  a game  generated line")
    for (filename, line), n in lines.most_common(args.lines):
        where = filename.rsplit(": ", 1)[-1].rstrip(">")
        text = linecache.getline(filename, line).strip()
        print(f"{n / args.games:8.0f}  {where[:24]:<24} {text[:100]}")


if __name__ == "__main__":
    main()
