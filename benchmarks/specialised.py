"""How much a code generator specialised to one ruleset could gain, measured
on Goofspiel: its turn written by hand the way such a generator would
write it, put in place of the generated turn, and timed against it and
against the hand-written twin, interleaved.

    python benchmarks/specialised.py [--seconds 1] [--rounds 5] [--games 200]

Two hand-written forms of examples/goofspiel.rules' turn (log off, sample
mode; the generated turn still runs the rest: explicit chance, the log):

- ``structural``: the generated turn's own statements, each as general as
  the generator writes it (a card moved by the loop that moves a card or a
  list of them, each change of a number checked against the largest
  number, the work counted and checked at each step), but the frame's
  locals held in Python locals, the state's lists read once, the bidding
  loop a Python loop, and a resumed decision found by one test instead of
  the jump table.  This is what issue 20's "larger step" (docs/internals.md,
  Still to do) would give.
- ``typed``: the same, with what a generator that knows each value's kind
  could also leave out (a chosen card is one card or none, points cannot
  reach the largest number here, the players' column is never empty, no
  limit can be reached inside a loop over the seats).

Before timing, each form must play the same games as the generated turn
(``--games`` seeds, through the move API and batched: the same moves, the
same final state); if not (the compiler changed the constants' numbers
these functions name), it says so and times nothing.  The table gives
playouts/s (medians) and how many times slower than the twin each is.
"""

from __future__ import annotations

import argparse
import pathlib
import random
import statistics
import sys
import time
from typing import Any, Callable, Dict, List

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import rulelang  # noqa: E402
from twins import goofspiel as twin  # noqa: E402

# Written into the generated turn's own module (its constants C, its ops O,
# its helpers), beside it.  The generated turn (``GENERATED``) still runs a
# turn begun in explicit chance mode or with the log on.  Its frame: 2 the
# seat, 4 the prize's worth, 5 the next seat to bid, 6 the turn's player, 7
# the card bid; a decision waits at 5 and resumes at 6.
STRUCTURAL = r'''
def turn_structural(st, fr):
    pc = fr[1]
    v = st.v
    piles = st.piles
    n = st.n
    if pc == 6:                     # a bid made: go on after the choice
        i = fr[5]
        if type(i) is tuple:        # (a round the generated turn began)
            i = i[0]
        p = fr[2]
        c = fr[7]
    elif pc == 0:
        if C[23] in st.skips or st.explicit or st.logging or st.chance_record is not None:
            return GENERATED(st, fr)
        _src = piles[1]
        _dst = piles[2]
        _n = len(_src)
        if _n:
            if _n > 1:
                _r = st.rng + 1
                _b = st.block
                if _b[1] != _r >> 3 or _b[0] != st.seed:
                    _b = st.block = _random_block(st.seed, _r >> 3)
                _i = (_b[2][_r & 7] * _n) >> 64
                st.rng = _r
            else:
                _i = 0
            _c = _src[_i]
            _src[_i] = _src[-1]
            _src.pop()
            _dst.append(_c)
        fr[4] = sum(map(C[8], _dst))
        fr[6] = fr[2]
        i = 0
        p = None
    else:
        return GENERATED(st, fr)
    _lim = st.limits.max_steps
    while True:
        if p is not None:
            k = p * 3 + 1
            v[k] = None if c is None else C[9][c]
            if (sh := st.shown) and k in sh:
                j = sh.index(k)
                st.shown = sh[:j] + sh[j + 1:]
            MOVE_THE_BID
            st.steps += 109
            if st.steps > _lim:
                raise RuleFault(C[27] % _lim)
        if i >= n:
            break
        p = i
        i += 1
        o = sorted(piles[4 + p])
        if o:
            _p = st.policy
            if _p is None or (_x := _p.x) == _p.end:
                st.waiting = 2
                st.actor = p
                fr[2] = p
                fr[5] = i
                fr[1] = 5
                st.offer = (fr, o)
                _m = O[5].ones.get(p, ())
                if len(_m) < len(o):
                    st._moves = O[5].offered(st, (tuple(o), p), o, _make)
                else:
                    try:
                        st._moves = (list(map(_get, _m, o)), None, O[5])
                    except KeyError:
                        st._moves = O[5].offered(st, (tuple(o), p), o, _make)
                return False
            _p.x = _x = (_x * 6364136223846793005 + 1442695040888963407) & 18446744073709551615
            st.steps = 0
            c = o[((_x >> 32) * len(o)) >> 32]
        else:
            c = None
    worth = fr[4]
    for q in range(n):
        st.steps += 56
        COUNT_CHECK_56
        k = q * 3 + 1
        sh = st.shown
        if k not in sh:
            st.shown = (sh + (k,)) if not sh or sh[-1] < k else tuple(sorted((k,) + sh))
        b = piles[4 + n + q]
        piles[4 + 2 * n + q].extend(b)
        b.clear()
    col = v[1::3]
    top = max(COLUMN)
    prize = piles[2]
    if col.count(top) == 1:
        for q in range(n):
            if v[q * 3 + 1] == top:
                ADD_WORTH
                piles[4 + 3 * n + q].extend(prize)
                prize.clear()
    else:
        piles[3].extend(prize)
        prize.clear()
    fr[2] = fr[6]
    st.stack.pop()
    return True
'''

#: The places where the two forms differ: (structural, typed).
_FORMS = {
    "MOVE_THE_BID": ("""_t12 = piles[st.nshared + p]
            _t13 = piles[st.nshared + st.n + p]
            for _t15 in (c,) if type(c) is int else c or ():
                try:
                    _t12.remove(_t15)
                except ValueError:
                    raise RuleFault(C[10] % C[11][_t15]) from None
                _t13.append(_t15)""", """if c is not None:
                piles[4 + p].remove(c)
                piles[4 + n + p].append(c)"""),
    "COUNT_CHECK_56": ("""if st.steps > _lim:
            raise RuleFault(C[12] % _lim)""", ""),
    "COLUMN": ("col or (0,)", "col"),
    "ADD_WORTH": ("""v[q * 3 + 2] = _t if -9007199254740991 <= (_t := v[q * 3 + 2] + worth) <= 9007199254740991 else C[15](_t)
                st.steps += 105
                if st.steps > _lim:
                    raise RuleFault(C[14] % _lim)""", "v[q * 3 + 2] += worth"),
}


def _source(form: int, name: str) -> str:
    src = STRUCTURAL.replace("turn_structural", name)
    for mark, both in _FORMS.items():
        src = src.replace(mark, both[form])
    return src


def install(prog: Any) -> Dict[str, Callable[..., Any]]:
    """The turn's functions by name: the generated one and the two written
    here, made in the generated one's module (a game's program is the
    same for every state, so setting ``prog.runners`` changes every game)."""
    generated = prog.runners[2] or prog.runner(2)
    module = generated.__globals__
    module["GENERATED"] = generated
    exec(_source(0, "turn_structural"), module)
    exec(_source(1, "turn_typed"), module)
    return {"generated": generated, "structural": module["turn_structural"],
            "typed": module["turn_typed"]}


def main(argv: Any = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seconds", type=float, default=1.0)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--games", type=int, default=200, help="seeds checked to play alike")
    args = p.parse_args(argv)
    game = rulelang.load(ROOT / "examples" / "goofspiel.rules")
    prog = game.new_game(players=2, seed=0, log=False).prog
    turns = install(prog)

    def api(i: int) -> Any:
        st = game.new_game(players=2, seed=i, log=False)
        rng = random.Random(i)
        while not st.is_over:
            st.apply(rng.choice(st.legal_moves()))
        return st

    def batched(i: int) -> Any:
        return game.playouts(1, seed=i, players=2)

    def games() -> List[Any]:
        out: List[Any] = []
        for i in range(args.games):
            st = api(i)
            out.append((st.history, st.v[:], st.over, repr(batched(i))))
        return out

    prog.runners[2] = turns["generated"]
    expected = games()
    for name in ("structural", "typed"):
        prog.runners[2] = turns[name]
        if games() != expected:
            print(f"the {name} turn does not play the same games as the generated one: "
                  f"(a form is wrong, or the compiler has renumbered the constants it names); "
                  f"nothing timed")
            return 1
    print(f"Goofspiel, 2 players: {args.games} games alike each way; "
          f"{args.rounds} rounds of {args.seconds}s, interleaved")

    def rate(play: Callable[[int], Any]) -> float:
        n, start = 0, time.perf_counter()
        while time.perf_counter() - start < args.seconds:
            play(n)
            n += 1
        return n / (time.perf_counter() - start)

    rates: Dict[str, List[float]] = {"by hand": []}
    for _ in range(args.rounds):
        rates["by hand"].append(rate(lambda i: twin.playout(i, 2)))
        for name, fn in turns.items():
            prog.runners[2] = fn
            rates.setdefault(f"API, {name}", []).append(rate(api))
            rates.setdefault(f"batched, {name}", []).append(rate(batched))
    prog.runners[2] = turns["generated"]
    med = {k: statistics.median(v) for k, v in rates.items()}
    print(f"{'':<24}{'playouts/s':>12}{'slower':>9}{'gain':>8}")
    for k in ["by hand"] + sorted(k for k in med if k != "by hand"):
        way = k.split(",")[0]
        gain = "" if k == "by hand" else f"{med[k] / med[f'{way}, generated']:.2f}x"
        print(f"{k:<24}{med[k]:>12.0f}{med['by hand'] / med[k]:>8.2f}x{gain:>8}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
