"""The ops of chance: dice, pools, roll-offs and draws."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Tuple

import functools

from ..kinds import Compiled, Frame, St, Where, Writer
from ..visibility import EVERYONE, NOBODY, SeenBy, pile_seen_by
from .base import (CODE, LOCALS, LOG, PC, PLAYER, POOL_DIE, ROLL_OFF_DIE, WAIT_CHANCE,
                   WAIT_DECISION, WAIT_NONE, Moves, Op, RuleFault, draw_label, draw_work,
                   rand_below, roll_label, spend)

if TYPE_CHECKING:       # imported where a chance's odds are first asked for: a load needs none
    from fractions import Fraction

#: The totals of some dice and the chance of each, lowest first (``_sum_distribution``).
Dist = Tuple[Tuple[int, "Fraction"], ...]


class RollOp(Op):
    """Roll ``count`` dice of ``sides`` into a local (their sum).  In
    explicit mode this waits for a chance outcome; during a turn the
    ruleset's reroll rule may then offer the turn's player a reroll."""

    __slots__ = ("count", "sides", "slot", "why", "dist", "seen")
    waits = True

    def __init__(self, where: Where, count: int, sides: int, slot: int, why: str,
                 seen: Optional[Compiled] = None) -> None:
        super().__init__(where)
        self.count = count
        self.sides = sides
        self.slot = slot
        self.why = why
        #: the outcomes and their chances, worked out when first asked
        self.dist: Optional[Dist] = None
        #: fn(st, fr) -> who may see what was rolled (a roll into a hidden
        #: or secret stat), or None: everyone
        self.seen = seen

    def run(self, st: St, fr: Frame) -> bool:
        if st.explicit:
            st.wait(WAIT_CHANCE, None)
            return False
        sides = self.sides
        total = 0
        for _ in range(self.count):
            total += rand_below(st, sides) + 1
        if st.chance_record is not None:
            st.chance_record.append(roll_label(total))
        return self.got(st, fr, total)

    def got(self, st: St, fr: Frame, value: int) -> bool:
        fr[self.slot] = value
        if st.logging:
            seen = self.seen(st, fr) if self.seen is not None else EVERYONE
            if seen is EVERYONE:
                st.note(fr[PLAYER], "roll", f"{self.why}: rolled {value}", value)
            else:
                st.note(fr[PLAYER], "roll", f"{self.why}: rolled {value}", value,
                        f"{self.why}: rolled, out of sight", seen)
        rr = st.prog.reroll
        if rr is not None and st.turn_player is not None and rr[0](st, [None, 0, st.turn_player]):
            st.wait(WAIT_DECISION, st.turn_player)
            st.rerolling = True
            return False
        fr[PC] += 1
        return True

    def moves(self, st: St, fr: Frame) -> Moves:
        if st.rerolling:
            v = fr[self.slot]
            return [(f"keep {v}", None, "keep"), (f"reroll {v}", None, "reroll")]
        return [(roll_label(v), p, v) for v, p in self.outcomes()]

    def outcomes(self) -> Dist:
        """(total, probability) of each total, lowest first."""
        if self.dist is None:
            self.dist = _sum_distribution(self.count, self.sides)
        return self.dist

    def move_key(self, st: St, fr: Frame) -> Any:
        return ("reroll", fr[self.slot]) if st.rerolling else ()

    def choices(self, st: St, fr: Frame) -> Sequence[Any]:
        if st.rerolling:
            return _KEEP_OR_REROLL
        return [v for v, _ in self.outcomes()]

    def resume(self, st: St, fr: Frame, data: Any) -> bool:
        if st.rerolling:
            st.rerolling = False
            st.waiting = WAIT_NONE
            if data == "keep":
                if st.logging:
                    st.note(st.turn_player, "keep", f"keeps the {fr[self.slot]}", fr[self.slot])
                fr[PC] += 1
                return True
            if st.logging:
                st.note(st.turn_player, "reroll", f"rerolls the {fr[self.slot]}", None)
            st.prog.reroll[1](st, [None, 0, st.turn_player])
            return True         # the machine runs this op again: a new roll
        st.waiting = WAIT_NONE
        return self.got(st, fr, data)

    def emit(self, r: Writer, k: int) -> bool:
        """Dice in sample mode, with the reroll question asked at once."""
        if self.seen is not None:
            return False        # (rare: the op itself says who sees the roll)
        d = r.D
        r.emit(d, "if st.explicit or st.chance_record is not None:")
        r.fallback(k, self, d + 1)
        r.emit(d, "else:")
        d += 1
        r.emit(d, r.at(self))
        sides = r.number(self.sides)
        if self.count == 1:
            r.emit(d, "_s = st.seed", "_r = st.rng + 1", *r.RANDOM,
                   f"_tot = ((_z * {sides}) >> 64) + 1")
        else:
            r.emit(d, "_s = st.seed", "_r = st.rng", "_tot = 0", f"for _i in range({r.number(self.count)}):",
                   "    _r += 1",
                   *["    " + line for line in r.RANDOM],
                   f"    _tot += ((_z * {sides}) >> 64) + 1")
        r.emit(d, "st.rng = _r", f"fr[{self.slot}] = _tot",
               "if st.logging:",
               f"    st.note(fr[{PLAYER}], 'roll', {r.const(self.why + ': rolled ')} + str(_tot), _tot)")
        prog = r.prog
        if prog.reroll is not None:
            cond = prog.reroll_src
            if cond is None:
                cond = f"{r.const(prog.reroll[0])}(st, [None, 0, _tp])"
            wait = (f"st.wait({WAIT_DECISION}, _tp)", "st.rerolling = True", f"fr[{PC}] = {k}")
            r.emit(d, "_tp = st.turn_player", f"if _tp is not None and {cond}:",
                   *["    " + line for line in r.decide(k, f"O[{k}].choices(st, fr)", wait,
                                                          r.ready(k, "('reroll', _tot)", "_tp"))])
        r.emit(d, f"pc = {k + 1}")
        return True


@functools.lru_cache(maxsize=64)
def _sum_distribution(count: int, sides: int) -> Dist:
    """Exact distribution of the sum of ``count`` dice: ((total,
    probability), ...), lowest total first.  One die at a time, each
    total's ways from running sums (count × count × sides steps; the
    checker's ``Limits.max_pool_outcomes`` bounds count × sides)."""
    ways = [1]                  # ways[t]: the ways to make total t
    for _ in range(count):
        run = [0]
        for w in ways:
            run.append(run[-1] + w)
        top = len(ways)         # run[i] = ways of the totals below i
        ways = [run[min(t, top)] - run[max(t - sides, 0)] for t in range(top + sides)]
    whole = sides ** count
    from fractions import Fraction
    return tuple((t, Fraction(w, whole)) for t, w in enumerate(ways) if w)


_KEEP_OR_REROLL = ("keep", "reroll")


class RollOffOp(Op):
    """Every player rolls; players tied for the highest roll roll again until
    one is highest.  The winner (a seat) goes into ``slot``.  Progress is
    kept in local ``work`` as a tuple (contenders..., None, rolls...)."""

    __slots__ = ("sides", "slot", "work")
    waits = True

    def __init__(self, where: Where, sides: int, slot: int, work: int) -> None:
        super().__init__(where)
        self.sides = sides
        self.slot = slot
        self.work = work

    def run(self, st: St, fr: Frame) -> bool:
        work = fr[self.work]
        if work is None:
            work = (tuple(range(st.n)), ())
        while True:
            contenders, rolls = work
            if len(rolls) == len(contenders):
                high = max(rolls)
                best = tuple(c for c, r in zip(contenders, rolls) if r == high)
                if len(best) == 1:
                    fr[self.slot] = best[0]
                    fr[self.work] = None
                    if st.logging:
                        st.note(best[0], "roll-off", f"P{best[0]} wins the roll-off", best[0])
                    fr[PC] += 1
                    return True
                work = (best, ())
                continue
            if len(contenders) == 1:
                rolls = (1,)
                work = (contenders, rolls)
                continue
            fr[self.work] = work
            spend(st, ROLL_OFF_DIE)
            if st.explicit:
                st.wait(WAIT_CHANCE, None)
                return False
            value = rand_below(st, self.sides) + 1
            if st.chance_record is not None:
                st.chance_record.append(roll_label(value))
            self._add(st, fr, value)
            work = fr[self.work]

    def _add(self, st: St, fr: Frame, value: int) -> None:
        contenders, rolls = fr[self.work]
        if st.logging:
            st.note(contenders[len(rolls)], "roll", f"P{contenders[len(rolls)]} rolls {value} for the roll-off", value)
        fr[self.work] = (contenders, rolls + (value,))

    def moves(self, st: St, fr: Frame) -> Moves:
        from fractions import Fraction
        p = Fraction(1, self.sides)
        return [(roll_label(v), p, v) for v in range(1, self.sides + 1)]

    def move_key(self, st: St, fr: Frame) -> Any:
        return ()       # one die's faces

    def resume(self, st: St, fr: Frame, data: Any) -> bool:
        st.waiting = WAIT_NONE
        self._add(st, fr, data)
        return self.run(st, fr)


class DrawOp(Op):
    """Draw cards one at a time; the number left to draw is in local
    ``count``.  An empty deck is refilled from its refill pile.  In explicit
    mode each draw is a chance node (even from a deck of one kind of card,
    so that every draw can be forced the same way)."""

    __slots__ = ("count", "src", "dst", "refill", "hooks", "per_card")
    waits = True

    def __init__(self, where: Where, count: int, src: Compiled, dst: Compiled,
                 refill: Optional[Compiled], hooks: Sequence[Any] = (), per_card: int = 1) -> None:
        super().__init__(where)
        self.count = count
        self.src = src      # fn(st, fr) -> pile index
        self.dst = dst
        self.refill = refill  # fn(st, fr) -> the index of the pile it refills from, or None
        self.hooks = hooks    # the deck's 'on draw' rules: (cond or None, code)
        #: The work of each card drawn (see ``draw_work``; the draw
        #: statement counts it for the cards in the deck when it starts).
        self.per_card = per_card

    def run(self, st: St, fr: Frame) -> bool:
        piles = st.piles
        src = piles[self.src(st, fr)]
        while True:
            if fr[self.count] <= 0:
                fr[PC] += 1
                return True
            rf = piles[self.refill(st, fr)] if not src and self.refill is not None else None
            if rf:
                src.extend(rf)
                rf.clear()
                n = len(src)
                spend(st, n + LOG + draw_work(fr[self.count], n, self.per_card))
                if st.logging:
                    st.note(fr[PLAYER], "shuffle", "the discards are shuffled into a new deck", None)
            if not src:
                fr[self.count] = 0
                continue
            if st.explicit:
                st.wait(WAIT_CHANCE, None)
                return False
            i = rand_below(st, len(src)) if len(src) > 1 else 0
            if st.chance_record is not None:
                st.chance_record.append(draw_label(st, src[i]))
            # Take the card's first copy, as explicit mode does, so that both
            # modes leave the pile in the same order after the same draws.
            if self._take(st, fr, src, src.index(src[i])):
                return True     # an 'on draw' rule runs first; the draw goes on after

    def _take(self, st: St, fr: Frame, src: List[int], i: int) -> bool:
        card = src[i]
        src[i] = src[-1]
        src.pop()
        dst = self.dst(st, fr)
        st.piles[dst].append(card)
        fr[self.count] -= 1
        if st.logging:
            # Seen by whoever sees the pile the card goes to (nobody, for a
            # deck or a shared hidden pile); the rest read "draws a card".
            seen = pile_seen_by(st, dst)
            if seen is EVERYONE:
                st.note(fr[PLAYER], "draw", f"draws {st.prog.card_names[card]}", card)
            else:
                st.note(fr[PLAYER], "draw", f"draws {st.prog.card_names[card]}", card,
                        "draws a card", seen)
        if not self.hooks:
            return False
        for cond, code in self.hooks:
            frame = [code, 0, fr[PLAYER]] + [None] * st.prog.nlocals[code]
            frame[LOCALS] = card
            if cond is None or cond(st, frame):
                spend(st, st.prog.push_cost[code])
                st.push(frame)
                return True
        return False

    @staticmethod
    def drawn_seen_by(st: St, fr: Frame) -> SeenBy:
        """Who may see the card of an 'on draw' rule running in frame
        ``fr``: whoever sees the pile it was drawn into (the draw's frame is
        the one below; nobody when that cannot be told)."""
        stack = st.stack
        for k in range(len(stack) - 1, 0, -1):
            if stack[k] is fr:
                below = stack[k - 1]
                op = st.prog.codes[below[CODE]][below[PC]]
                if isinstance(op, DrawOp):
                    return pile_seen_by(st, op.dst(st, below))
                break
        return NOBODY

    def moves(self, st: St, fr: Frame) -> Moves:
        src = st.piles[self.src(st, fr)]
        counts: Dict[int, int] = {}
        for c in src:
            counts[c] = counts.get(c, 0) + 1
        n = len(src)
        from fractions import Fraction
        return [(draw_label(st, c), Fraction(k, n), c) for c, k in sorted(counts.items())]

    def resume(self, st: St, fr: Frame, data: Any) -> bool:
        st.waiting = WAIT_NONE
        src = st.piles[self.src(st, fr)]
        if self._take(st, fr, src, src.index(data)):
            return True
        return self.run(st, fr)

    def emit(self, r: Writer, k: int) -> bool:
        """Draws in sample mode with nothing to log or record: one loop."""
        d = r.D
        if self.hooks:
            return False
        r.emit(d, "if st.explicit or st.logging or st.chance_record is not None:")
        r.fallback(k, self, d + 1)
        # The same draws as DrawOp.run (same generator steps, same cards, same
        # pile order), in one loop.
        r.emit(d, "else:")
        d += 1
        r.emit(d, r.at(self), f"_src = st.piles[{r.value(self.src)}]",
               f"_dst = st.piles[{r.value(self.dst)}]",
               f"_left = fr[{self.count}]", "_s = st.seed", "_r = st.rng",
               "while _left > 0:", "    _n = len(_src)", "    if not _n:")
        if self.refill is None:
            r.emit(d + 2, "break")
        else:
            # A refill counts the cards it moves and the draws it makes
            # possible (``ops.DrawOp``).
            r.emit(d + 2, f"_rf = st.piles[{r.value(self.refill)}]", "if not _rf:", "    break",
                   "_src.extend(_rf)", "_rf.clear()", "_n = len(_src)")
            r.spend(d + 2, f"_n + {LOG} + {r.const(draw_work)}(_left, _n, {self.per_card})")
        r.emit(d + 1, "if _n > 1:", "    _r += 1", *["    " + line for line in r.RANDOM],
               # (the first copy of the card, as ``run`` takes: in a ruleset
               # without copies, the card itself)
               "    _i = (_z * _n) >> 64" if cards_distinct(r.prog) else
               "    _i = _src.index(_src[(_z * _n) >> 64])",
               "else:", "    _i = 0",
               "_c = _src[_i]", "_src[_i] = _src[-1]", "_src.pop()", "_dst.append(_c)", "_left -= 1")
        r.emit(d, "st.rng = _r", f"fr[{self.count}] = 0", f"pc = {k + 1}")
        return True


def cards_distinct(prog: Any) -> bool:
    """No pile can hold a card twice: no deck holds copies and none is dealt
    to every player (a save's cards are checked to be the game's own)."""
    return all(len(c) == len(set(c)) and name not in prog.player_piles
               for name, c in prog.deck_contents.items())


class PoolOp(Op):
    """``roll N dice d6``: roll N dice one at a time (a chance node each in
    explicit mode) and keep their faces, as a tuple, in ``slot``.  Local
    ``work`` holds the faces rolled so far and how many are still to come."""

    __slots__ = ("count", "sides", "slot", "work", "seen")
    waits = True

    def __init__(self, where: Where, count: Compiled, sides: int, slot: int, work: int,
                 seen: Optional[Compiled] = None) -> None:
        super().__init__(where)
        self.count, self.sides, self.slot, self.work = count, sides, slot, work
        #: as ``RollOp.seen``
        self.seen = seen

    def run(self, st: St, fr: Frame) -> bool:
        work = fr[self.work]
        if work is None:
            n = self.count(st, fr)
            limit = st.limits.max_dice
            if n is None or n < 0:
                n = 0
            if n > limit:
                raise RuleFault(f"a pool of {n} dice is more than the limit of {limit} "
                                f"(Limits.max_dice)")
            spend(st, n * POOL_DIE)
            work = ((), n)
        faces, left = work
        while left > 0:
            if st.explicit:
                fr[self.work] = (faces, left)
                st.wait(WAIT_CHANCE, None)
                return False
            value = rand_below(st, self.sides) + 1
            if st.chance_record is not None:
                st.chance_record.append(roll_label(value))
            faces, left = faces + (value,), left - 1
        fr[self.work] = None
        fr[self.slot] = faces
        if st.logging:
            text = f"rolls {len(faces)}d{self.sides}: {', '.join(map(str, faces)) or 'no dice'}"
            seen = self.seen(st, fr) if self.seen is not None else EVERYONE
            if seen is EVERYONE:
                st.note(fr[PLAYER], "pool", text, faces)
            else:
                st.note(fr[PLAYER], "pool", text, faces,
                        f"rolls {len(faces)}d{self.sides}, out of sight", seen)
        fr[PC] += 1
        return True

    def emit(self, r: Writer, k: int) -> bool:
        """A whole pool rolled in sample mode with nothing to log or record,
        in one loop (the same generator steps as ``run``); any other case
        (explicit mode, the log, a pool begun before, a count that is not
        a whole number within ``Limits.max_dice``) is ``run``'s."""
        if getattr(self.count, "src", None) is None:
            return False
        d = r.D
        r.emit(d, r.at(self),
               f"if st.explicit or st.logging or st.chance_record is not None or "
               f"fr[{self.work}] is not None or not (type(_pn := {r.value(self.count)}) is int "
               f"and 0 <= _pn <= st.limits.max_dice):")
        r.fallback(k, self, d + 1)
        r.emit(d, "else:")
        d += 1
        r.spend(d, f"_pn * {POOL_DIE}")
        r.emit(d, "_s = st.seed", "_r = st.rng", "_pf = []", "for _pi in range(_pn):",
               "    _r += 1", *["    " + line for line in r.RANDOM],
               f"    _pf.append(((_z * {r.number(self.sides)}) >> 64) + 1)",
               "st.rng = _r", f"fr[{self.slot}] = tuple(_pf)", f"pc = {k + 1}")
        return True

    def moves(self, st: St, fr: Frame) -> Moves:
        from fractions import Fraction
        p = Fraction(1, self.sides)
        return [(roll_label(v), p, v) for v in range(1, self.sides + 1)]

    def move_key(self, st: St, fr: Frame) -> Any:
        return ()       # one die's faces

    def resume(self, st: St, fr: Frame, data: Any) -> bool:
        st.waiting = WAIT_NONE
        faces, left = fr[self.work]
        fr[self.work] = (faces + (data,), left - 1)
        return self.run(st, fr)
