"""What generated code runs with: the functions of expression source
(``compiled``), the checks of arithmetic results, and the helpers and names
generated code may call (``GENERATED_ENV``: nothing else, no builtins)."""

from __future__ import annotations

import bisect
import itertools
import operator
import types
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

from ..errors import RulesetRuntimeError
from . import ops as O
from .kinds import Bound, Compiled, Frame, Keeper, St
from .moves import Move
from .ops import RuleFault
from .visibility import EVERYONE, NOBODY, both, pile_seen_by, show, stat_seen_by, unshow


def _too_big(big: int) -> RuleFault:
    return RuleFault(f"a number went past {big}, the largest a rule may work out "
                     f"(Limits.max_number)")


def _too_many_dice(n: int, most: int) -> RuleFault:
    return RuleFault(f"a pool of {n} dice is more than the limit of {most} (Limits.max_dice)")


def keeper(lo: Bound, hi: Bound, big: int, dice: int) -> Keeper:
    """fn(x) -> x within [lo, hi]; past max_number it is an error, and so
    is a pool of more than ``dice`` dice.  Its ``bounds`` are the ints it
    keeps as they are."""
    def keep(x: Any) -> Any:
        if isinstance(x, bool) or not isinstance(x, int):
            if type(x) is tuple and len(x) > dice:
                raise _too_many_dice(len(x), dice)
            return x
        if lo is not None and x < lo:
            return lo
        if hi is not None and x > hi:
            return hi
        if not -big <= x <= big:
            raise _too_big(big)
        return x
    keep.bounds = (-big if lo is None else max(lo, -big), big if hi is None else min(hi, big))  # type: ignore[attr-defined]
    return keep  # type: ignore[return-value]


def _floordiv(a: Any, b: Any) -> Any:
    if b == 0:
        return 0
    return a // b


def _mod(a: Any, b: Any) -> Any:
    if b == 0:
        return 0
    return a % b


ARITH: Dict[str, Callable[[Any, Any], Any]] = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": _floordiv, "%": _mod}


CMP: Dict[str, Callable[[Any, Any], Any]] = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
        ">": operator.gt, ">=": operator.ge}


def _stub(st: St, fr: Frame) -> Any:
    # (each compiled function's globals hold its _build)
    return _build()(st, fr)  # type: ignore[name-defined]  # noqa: F821


def compiled(src: str, gen_env: Dict[str, Any]) -> Compiled:
    """fn(st, fr) -> the value of the expression source ``src`` (``Source``),
    turned into Python the first time it is called: most never are (each
    code's generated function has their source inline, ``fn.src``), and
    compiling them all would be most of the time a ruleset takes to load.
    On its first call the function takes the compiled code as its own.
    ``gen_env`` is the program's ``Program.gen_env``."""
    env = dict(gen_env)

    def build() -> Any:
        real = eval(compile(f"lambda st, fr: {src}", "<rulelang expression>", "eval"), env)
        fn.__code__ = real.__code__
        return real
    env["_build"] = build
    fn = types.FunctionType(_stub.__code__, env, "expression")
    fn.src = src  # type: ignore[attr-defined]
    return fn  # type: ignore[return-value]


def nothing(st: St, fr: Frame) -> None:
    pass


def _big_result(r: Any, big: int) -> Any:
    """The value of an arithmetic result that is not a plain in-range int:
    two pools of dice put together pass; a number too big is an error."""
    if type(r) is tuple:
        return r
    if type(r) is bool or (type(r) is int and -big <= r <= big):
        return r
    raise _too_big(big)


def big_checker(dice: int) -> Callable[[Any, int], Any]:
    """``_big_result`` for a program whose pools hold at most ``dice``
    dice (``Limits.max_dice``): two pools put together may not make more."""
    def big_result(r: Any, big: int) -> Any:
        if type(r) is tuple and len(r) > dice:
            raise _too_many_dice(len(r), dice)
        return _big_result(r, big)
    return big_result


# ------------------------------------------------- what generated code calls


def _count_faces(st: St, faces: Optional[Tuple[int, ...]], v: Any,
                 cmp: Callable[[Any, Any], Any]) -> int:
    """How many of a pool's dice meet ``cmp`` with ``v`` (none with no
    value); the dice looked at are work."""
    faces = faces or ()
    st.steps += len(faces)
    if v is None:
        return 0
    if cmp is operator.eq:      # (the dice equal to v, counted in C)
        return faces.count(v)
    return sum(1 for face in faces if cmp(face, v))


def _spend_dice(st: St, faces: Optional[Tuple[int, ...]], n: Optional[int], v: Any,
                cmp: Callable[[Any, Any], Any]) -> Optional[Tuple[int, ...]]:
    """The pool ``faces`` without the ``n`` dice meeting ``cmp`` with ``v``
    nearest to ``v`` (the lower first); the dice looked at are work."""
    dice = faces or ()
    st.steps += len(dice)
    if v is None or n is None or n <= 0:
        return faces
    fit = sorted((i for i, f in enumerate(dice) if cmp(f, v)),
                 key=lambda i: (abs(dice[i] - v), dice[i]))[:n]
    gone = set(fit)
    return tuple(f for i, f in enumerate(dice) if i not in gone)


def _note_test(st: St, who: Optional[int], what: str, roll: Any, target: Any, passed: bool,
               margin: Any) -> None:
    st.note(who, "test", f"test of {what} ({target}): rolled {roll}, "
                         f"{'passed' if passed else 'failed'}{'' if passed else f' by {margin}'}",
            (what, roll, target, passed, margin))


def _show(v: Any, names: Optional[Sequence[str]]) -> str:
    """A value as a log line shows it (``names``: of the pieces or cards
    an index stands for)."""
    if v is None:
        return "none"
    if v is True or v is False:
        return "yes" if v else "no"
    if type(v) is tuple:        # a pool of dice
        return ", ".join(map(str, v)) if v else "no dice"
    return names[v] if names is not None else str(v)


def _show_cards(cards: Optional[Sequence[int]], names: Sequence[str]) -> str:
    return ", ".join(names[c] for c in cards) if cards else "nothing"


def _text(parts: Iterable[str], most: int) -> str:
    """A log line from its parts, cut at ``most`` characters (``Limits.max_text``)."""
    out = "".join(parts)
    return out if len(out) <= most else out[:most - 1] + "…"


def _reveal(st: St, key: int, owner: Optional[int], name: str, value: Any) -> None:
    """``reveal``: the stat's value seen by everyone (until it changes), and
    said in the log."""
    show(st, key)
    if st.logging:
        whose = f"P{owner}'s {name}" if owner is not None else name
        st.note(owner, "reveal", f"{whose}: {_show(value, None)}", value)


def _farthest(start: Optional[int], steps: List[Optional[int]], ok: Callable[[int], Any]
              ) -> Optional[int]:
    """The last space reached from ``start`` stepping along ``steps`` while
    the next space is ``ok`` (``_farthest_is``, each space asked as it is
    reached)."""
    return _farthest_is(start, steps, _Asked(ok), True)


def _connected(start: Optional[int], adj: Sequence[Tuple[int, ...]],
               ok: Callable[[int], Any], goal: Callable[[int], Any]) -> bool:
    """Whether the spaces joined to ``start`` through links (``adj``: the
    spaces one link away from each), each ``ok``, include one that meets
    ``goal``."""
    if start is None or not ok(start):
        return False
    seen = {start}
    todo = [start]
    while todo:
        i = todo.pop()
        if goal(i):
            return True
        for j in adj[i]:
            if j not in seen and ok(j):
                seen.add(j)
                todo.append(j)
    return False


def _distance(start: Optional[int], to: Optional[int], adj: Sequence[Tuple[int, ...]],
              ok: Optional[Callable[[int], Any]]) -> Optional[int]:
    """The fewest steps (to the spaces ``adj`` lists beside each, onto
    spaces that are ``ok``) from space ``start`` to space ``to``; None when
    there is no way (or either is none)."""
    if start is None or to is None:
        return None
    if start == to:
        return 0
    seen = {start}
    ring = [start]
    far = 0
    while ring:
        far += 1
        nxt = []
        for i in ring:
            for j in adj[i]:
                if j in seen or (ok is not None and not ok(j)):
                    continue
                if j == to:
                    return far
                seen.add(j)
                nxt.append(j)
        ring = nxt
    return None


def _in_a_row(start: Optional[int], n: int, lines: Any, ok: Callable[[int], Any]) -> bool:
    """Whether ``n`` spaces or more in a row, each ``ok``, run through space
    ``start`` (``_in_a_row_is``, each space asked as it is reached)."""
    return _in_a_row_is(start, n, lines, _Asked(ok), True)


class _Asked:
    """Whether each space meets a condition, as a list the walks read
    (``values[i]``): asked when read, so a walk asks only the spaces it
    reaches."""

    __slots__ = ("ok",)

    def __init__(self, ok: Callable[[int], Any]) -> None:
        self.ok = ok

    def __getitem__(self, i: int) -> bool:
        return bool(self.ok(i))


def _farthest_is(start: Optional[int], steps: List[Optional[int]], values: Any,
                 value: Any) -> Optional[int]:
    """The last space reached from ``start`` stepping along ``steps`` while
    the next space's value in ``values`` (one per space) is ``value`` (at
    most a board's length: a ring ends where it began)."""
    if start is None:
        return None
    here, left = start, len(steps)
    while left > 0:
        i = steps[here]
        if i is None or i == start or values[i] != value:
            break
        here, left = i, left - 1
    return here


#: The most runs through one space, and the most spaces on a board, for
#: which ``row_windows`` makes a table (past them, walking the lines asks
#: fewer spaces, and the table would be large).
MOST_WINDOWS, MOST_SPACES = 8, 4096


def row_windows(lines: Any, n: int) -> Optional[Tuple[Tuple[Callable[[Any], Any], ...], ...]]:
    """For each space, a getter (``operator.itemgetter``) of each run of
    ``n`` spaces in a row through it, along the board's ``lines``; None
    where the walk (``_in_a_row_is``) is the better way: a line that comes
    back to a space it passed within ``n`` steps (a ring, which the walk
    ends where it began), more than ``MOST_WINDOWS`` runs through a space,
    a board of more than ``MOST_SPACES`` spaces, or ``n`` below 2."""
    if not 2 <= n <= MOST_WINDOWS or not lines or len(lines[0][0]) > MOST_SPACES:
        return None
    table = []
    for start in range(len(lines[0][0])):
        getters: List[Callable[[Any], Any]] = []
        for forward, back in lines:
            rays: List[List[int]] = []
            for steps in (forward, back):
                ray: List[int] = []
                i = steps[start]
                while i is not None and len(ray) < n - 1:
                    ray.append(i)
                    i = steps[i]
                rays.append(ray)
            row = rays[1][::-1] + [start] + rays[0]
            if len(set(row)) < len(row):
                return None
            getters += [operator.itemgetter(*row[j:j + n]) for j in range(len(row) - n + 1)]
        if len(getters) > MOST_WINDOWS:
            return None
        table.append(tuple(getters))
    return tuple(table)


def _rows_through(start: Optional[int], n: int, windows: Any, values: Any, value: Any) -> bool:
    """``_in_a_row_is`` read from ``row_windows``' table: whether one of the
    runs of ``n`` spaces through ``start`` has ``value`` at every space
    (each run's values taken at once, in C)."""
    if start is None or values[start] != value:
        return False
    every = (value,) * n
    for run in windows[start]:
        if run(values) == every:
            return True
    return False


def _in_a_row_is(start: Optional[int], n: int, lines: Any, values: Any, value: Any) -> bool:
    """Whether ``n`` spaces or more in a row, each with ``value`` in
    ``values`` (one per space), run through space ``start`` along one of
    the board's ``lines`` (steps one way, steps the other); a row visits no
    space twice, so a ring ends where it began."""
    if start is None or values[start] != value:
        return False
    most = len(lines[0][0]) if lines else 0
    for forward, back in lines:
        run = 1
        for steps in (forward, back):
            i = steps[start]
            while i is not None and run < n and run < most and i != start and values[i] == value:
                run += 1
                i = steps[i]
        if run >= n:
            return True
    return False


#: All that generated code can name (no builtins beyond these).
def _scale_row(lows: Sequence[int], highs: Sequence[int], values: Sequence[Any], v: Any) -> Any:
    """What a scale prints beside value ``v`` of its stat: the row whose
    range holds it, found by halving (``lows`` sorted); none outside them.
    (A scale over a few values is a dict instead: ``Program.scale_table``.)"""
    if type(v) is not int:
        return None
    i = bisect.bisect_right(lows, v) - 1
    return values[i] if i >= 0 and v <= highs[i] else None


def _seat(player: Any) -> int:
    """``seat of P``: the seat's number; a player that is none has none."""
    if player is None:
        raise RuleFault("'seat of' a player that is none (no player is held there)")
    return int(player)


GENERATED_ENV: Dict[str, Any] = {
    "_seat": _seat, "_reveal": _reveal, "_in_a_row": _in_a_row, "_farthest": _farthest,
    "_in_a_row_is": _in_a_row_is, "_rows_through": _rows_through, "_farthest_is": _farthest_is, "_compress": itertools.compress, "_connected": _connected, "_distance": _distance, "_unshow": unshow, "_stat_seen_by": stat_seen_by,
    "_big": _big_result, "_div": _floordiv, "_mod": _mod, "min": min, "max": max, "abs": abs,
    "bool": bool, "len": len, "type": type, "int": int, "tuple": tuple, "sum": sum, "any": any,
    "range": range, "map": map, "str": str, "Exception": Exception, "ValueError": ValueError,
    "AssertionError": AssertionError, "RulesetRuntimeError": RulesetRuntimeError,
    "PureFault": O.PureFault, "RuleFault": RuleFault, "sorted": sorted, "set": set,
    "_count_faces": _count_faces, "_spend_dice": _spend_dice, "_note_test": _note_test,
    "_show": _show, "_show_cards": _show_cards, "_text": _text, "_both": both,
    "_pile_seen_by": pile_seen_by, "_EVERYONE": EVERYONE, "_NOBODY": NOBODY, "_scale": _scale_row,
    "list": list, "KeyError": KeyError, "next": next, "iter": iter,
    # (a choice's moves made as it waits: ``ChooseOneOfOp.listed``)
    "_make": Move._list, "_get": dict.__getitem__,
    # (the state's generator: ``codegen._RANDOM``)
    "_random_block": O.random_block,
    "__builtins__": {},
}
