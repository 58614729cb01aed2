"""``rulelang odds``: exact chances, enumerated through explicit chance.

From a position of a game (a seed, the moves made, or the start of a named
phase reached by seeded random play), every chance outcome is followed
with its exact probability (``new_game(chance="explicit")``: each die and
draw is a chance node whose moves carry fractions) until the next decision,
the end of the game, or (``until="phase"``) the next phase.  What happened
on each branch is read from the log: the table rows that came up and the
tests rolled, with their result.  The answers are exact fractions:

- each table row's chance of coming up;
- each test's chance of failing, as a whole and given the first row that
  came up (the chance that each row of an events table leads to a failed
  test, say);
- the distribution of any stat at the end (``show``).

``vary`` repeats all of it for each value of one or more stats (set on
the deciding seat, or on the game for a global), giving a table by value.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

import attrs

from ..engine import Game, State
from ..show import terminal

#: The most branches followed before giving up (a position with more
#: chance ahead of it than a table can show).
MOST_BRANCHES = 200_000
#: The most moves of seeded random play spent looking for a phase.
MOST_MOVES_TO_PHASE = 20_000


@attrs.define
class Odds:
    """The exact outcome of the chance ahead of one position."""

    branches: int = 0
    #: "table: row" -> chance it came up
    rows: Dict[str, Fraction] = attrs.Factory(dict)
    #: chance that a test was rolled, and that one failed
    tested: Fraction = Fraction(0)
    failed: Fraction = Fraction(0)
    #: first row -> [chance of the row, chance a test failed with it]
    by_row: Dict[str, List[Fraction]] = attrs.Factory(dict)
    #: stat -> {value at the end: chance}
    shown: Dict[str, Dict[Any, Fraction]] = attrs.Factory(dict)
    #: where the branches stopped: "a decision", "the game is over: X", "the next phase"
    stops: Dict[str, Fraction] = attrs.Factory(dict)


def _set(state: State, name: str, value: int, seat: Optional[int]) -> None:
    try:
        state.set_stat(name, value, seat)
    except KeyError:
        state.set_stat(name, value, None)


def _stat(state: State, name: str, seat: Optional[int]) -> Any:
    try:
        return state.stat(name, seat)
    except KeyError:
        return state.stat(name, None)


def position(game: Game, players: int, seed: int, moves: Sequence[str] = (),
             phase: Optional[str] = None) -> State:
    """The position to work from: a new game in explicit chance mode, the
    ``moves`` made (labels, chance outcomes included), then, with
    ``phase``, seeded random play until that phase starts.  Raises
    ValueError when a move is not legal or the phase never comes."""
    st = game.new_game(players=players, seed=seed, chance="explicit")
    for label in moves:
        try:
            st.apply(label)
        except Exception as e:      # IllegalMoveError, a rule's error
            raise ValueError(f"the move {label!r} cannot be made here: {e}") from None
    if phase is not None:
        rng = random.Random(seed)
        for _ in range(MOST_MOVES_TO_PHASE):
            log = st.log
            if log and log[-1].kind == "phase" and log[-1].value == phase and st.is_chance_node:
                return st
            if st.is_over:
                break
            legal = st.legal_moves()
            if st.is_chance_node:
                st.apply(rng.choices(legal, weights=[float(m.probability or 0) for m in legal])[0])
            else:
                st.apply(rng.choice(legal))
        raise ValueError(f"no phase {phase!r} starting with a chance outcome came up in "
                         f"random play from seed {seed}")
    return st


def enumerate_odds(start: State, show: Sequence[str] = (), seat: Optional[int] = None,
                   until: str = "decision") -> Odds:
    """Follow every chance outcome from ``start`` (see the module)."""
    out = Odds()
    begin = len(start.log)
    stack: List[Tuple[State, Fraction]] = [(start.clone(), Fraction(1))]
    while stack:
        st, p = stack.pop()
        stop = _stopped(st, begin, until)
        if stop is None:
            legal = st.legal_moves()
            for m in legal:
                c = st.clone()
                c.apply(m)
                stack.append((c, p * (m.probability or Fraction(0))))
            continue
        out.branches += 1
        if out.branches > MOST_BRANCHES:
            raise ValueError(f"more than {MOST_BRANCHES} branches of chance ahead: start "
                             f"closer to what you ask about (--phase, --moves)")
        out.stops[stop] = out.stops.get(stop, Fraction(0)) + p
        entries = st.log[begin:]
        first_row = next((e.text for e in entries if e.kind == "row"), "(no table row)")
        for text in {e.text for e in entries if e.kind == "row"}:
            out.rows[text] = out.rows.get(text, Fraction(0)) + p
        tests = [e.value for e in entries if e.kind == "test"]
        fail = bool(tests) and not tests[0][3]
        if tests:
            out.tested += p
        if fail:
            out.failed += p
        row = out.by_row.setdefault(first_row, [Fraction(0), Fraction(0)])
        row[0] += p
        row[1] += p if fail else 0
        for name in show:
            v = _stat(st, name, seat)
            d = out.shown.setdefault(name, {})
            d[v] = d.get(v, Fraction(0)) + p
    return out


def _stopped(st: State, begin: int, until: str) -> Optional[str]:
    if st.is_over:
        return f"the game is over: {st.result().ending}"
    if until == "phase" and any(e.kind == "phase" for e in st.log[begin:]):
        return "the next phase"
    if not st.is_chance_node:
        return "a decision"
    return None


def _pct(x: Fraction) -> str:
    return f"{100 * float(x):.1f}%"


def add_arguments(c: Any) -> None:
    c.add_argument("file", metavar="FILE")
    c.add_argument("--players", type=int)
    c.add_argument("--seed", type=int, default=0, help="the game's seed (default 0)")
    c.add_argument("--param", action="append", metavar="NAME=N", help="give a parameter a value")
    c.add_argument("--moves", nargs="+", default=[], metavar="LABEL",
                   help="moves to make first (their labels; chance outcomes too: 'roll 3')")
    c.add_argument("--phase", metavar="NAME",
                   help="then play on at random (seeded) until this phase starts")
    c.add_argument("--set", action="append", default=[], metavar="STAT=N",
                   help="give a stat a value first (a player's: the player whose turn it is, or --seat)")
    c.add_argument("--vary", metavar="STAT[,STAT...]=LOW..HIGH",
                   help="a column for each value, given to every stat named")
    c.add_argument("--show", action="append", default=[], metavar="STAT",
                   help="the distribution of a stat's value where the branches stop")
    c.add_argument("--seat", type=int, help="whose stats --set, --vary and --show mean")
    c.add_argument("--until", choices=["decision", "phase"], default="decision",
                   help="follow chance to the next decision (default) or the next phase")


def parse_vary(text: str) -> Tuple[List[str], List[int]]:
    """``skill,will=1..10`` -> (["skill", "will"], [1 .. 10]); ValueError."""
    names, eq, span = text.partition("=")
    low, dots, high = span.partition("..")
    if not eq or not dots or not names:
        raise ValueError(f"--vary takes STAT[,STAT...]=LOW..HIGH, not {text!r}")
    try:
        lo, hi = int(low), int(high)
    except ValueError:
        raise ValueError(f"--vary takes whole numbers, not {span!r}") from None
    if hi < lo or hi - lo > 100:
        raise ValueError(f"--vary goes from LOW up to HIGH, at most 101 values, not {span!r}")
    return [n.strip() for n in names.split(",") if n.strip()], list(range(lo, hi + 1))


def command(args: Any, game: Game) -> int:
    """``rulelang odds``: print the table; one line and status 2 for bad arguments."""
    import sys
    try:
        players = game.min_players if args.players is None else args.players
        if not game.min_players <= players <= game.max_players:
            raise ValueError(f"{game.title} is for {game.players_text}, not {players}")
        if args.seat is not None and not 0 <= args.seat < players:
            raise ValueError(f"there is no seat {args.seat}: the seats are 0 to {players - 1}")
        sets: Dict[str, int] = {}
        for spec in args.set:
            name, eq, value = spec.partition("=")
            if not eq or not value.strip().lstrip("-").isdigit():
                raise ValueError(f"--set takes STAT=NUMBER, not {spec!r}")
            sets[name.strip()] = int(value)
        vary, values = parse_vary(args.vary) if args.vary else ([], [])
        results = odds_table(game, players, args.seed, args.moves, args.phase, sets, vary, values,
                             args.show, args.seat, args.until)
    except ValueError as e:
        print(terminal(f"error: {e}"), file=sys.stderr)
        return 2
    where = f"{game.title}, {players} players, seed {args.seed}" + \
        (f", {len(args.moves)} moves made" if args.moves else "") + \
        (f", at the start of phase {args.phase!r}" if args.phase else "") + \
        ("".join(f", {k}={v}" for k, v in sets.items()))
    print(terminal(where))
    print(terminal(format_odds(results, ",".join(vary))))
    return 0


def format_odds(results: Mapping[Any, Odds], varied: str) -> str:
    """One table for one position, or a column for each varied value."""
    keys = list(results)
    lines: List[str] = []
    one = len(keys) == 1 and keys[0] is None
    head = "" if one else "  " + " " * 36 + "".join(f"{str(k):>8}" for k in keys)

    def row(label: str, values: Sequence[str]) -> str:
        return f"  {label[:36]:<36}" + "".join(f"{v:>8}" for v in values)
    first = results[keys[0]]
    lines.append(f"{first.branches} branches of chance"
                 + ("" if one else f", for each value of {varied}") + ":")
    if head:
        lines.append(head)
    lines.append(row("a test failed", [_pct(results[k].failed) for k in keys]))
    names = sorted({r for o in results.values() for r in o.by_row})
    if any(r != "(no table row)" for r in names):
        lines.append("Chance a test failed, by the first table row:")
        for name in names:
            cells = []
            for k in keys:
                got = results[k].by_row.get(name)
                cells.append(_pct(got[1] / got[0]) if got and got[0] else "-")
            lines.append(row(name, cells))
        lines.append("Chance of each table row:")
        for name in sorted({r for o in results.values() for r in o.rows}):
            lines.append(row(name, [_pct(results[k].rows.get(name, Fraction(0))) for k in keys]))
    for stat in sorted({s for o in results.values() for s in o.shown}):
        lines.append(f"{stat} at the end:")
        values = sorted({v for o in results.values() for v in o.shown.get(stat, {})}, key=str)
        for v in values:
            lines.append(row(f"  {stat} = {v}", [_pct(results[k].shown.get(stat, {}).get(v, Fraction(0)))
                                                 for k in keys]))
    lines.append("Where the branches stop:")
    for stop in sorted({s for o in results.values() for s in o.stops}):
        lines.append(row(stop, [_pct(results[k].stops.get(stop, Fraction(0))) for k in keys]))
    return "\n".join(lines)


def odds_table(game: Game, players: int, seed: int, moves: Sequence[str] = (),
               phase: Optional[str] = None, sets: Mapping[str, int] = {},
               vary: Sequence[str] = (), values: Sequence[int] = (), show: Sequence[str] = (),
               seat: Optional[int] = None, until: str = "decision") -> Dict[Any, Odds]:
    """The odds from the position (``position``) with ``sets`` given, once,
    or for each of ``values`` given to every stat in ``vary``."""
    start = position(game, players, seed, moves, phase)
    who = start.turn_player if seat is None else seat
    for name, given in sets.items():
        _check_stat(start, name)
        _set(start, name, given, who)
    for name in vary:
        _check_stat(start, name)
    out: Dict[Any, Odds] = {}
    columns: List[Optional[int]] = list(values) if vary else [None]
    for v in columns:
        st = start.clone()
        for name in vary:
            _set(st, name, int(v or 0), who)
        out[v] = enumerate_odds(st, show, who, until)
    return out


def _check_stat(st: State, name: str) -> None:
    prog = st.prog
    if name not in prog.pslot and name not in prog.gslot:
        known = ", ".join(sorted([*prog.pslot, *(n for n in prog.gslot if "." not in n)]))
        raise ValueError(f"no stat named {name!r}; stats: {known}")
