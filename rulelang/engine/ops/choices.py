"""The ops of decisions: choices of cards, options, rows, numbers and pieces."""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from ..kinds import Compiled, Frame, St, Where, Writer
from ..visibility import EVERYONE, either, pile_name, pile_seen_by, seen_by_pile, sees
from .base import (LOCALS, MOST_KEPT_THINGS, PC, PLAYER, WAIT_CHANCE, WAIT_DECISION, WAIT_NONE, Moves,
                   Op, RuleFault, rand_below, spend)

#: The most moves one ``ChooseOneOfOp`` keeps made for a player and a
#: place in its list (past it, that place starts again).
MOST_ONES = 4096

#: A table's lookup (``ChooseOneOfOp.move_list``).
_get = dict.__getitem__

#: What ``ChooseCardsOp`` keeps for a hand and bounds: (the moves, their
#: values, player -> the move objects made for them).
_Cached = Tuple[Moves, List[Any], Dict[Optional[int], Any]]


class ChoiceOp(Op):
    """A decision whose answer goes into local ``slot``: the log shows
    '{prompt}: {shown answer}' and the rule goes on after it."""

    __slots__ = ()
    # Every choice has these (in its own slots).
    slot: int
    prompt: str

    def shown(self, st: St, value: Any) -> str:
        return str(value)

    def resume(self, st: St, fr: Frame, data: Any) -> bool:
        st.waiting = WAIT_NONE
        fr[self.slot] = data
        if st.logging:
            self.log_choice(st, fr, data)
        fr[PC] += 1
        return True

    def log_choice(self, st: St, fr: Frame, data: Any) -> None:
        if getattr(self, "secret", False):
            note_secretly(st, fr, self.prompt, f"{self.prompt}: {self.shown(st, data)}", data)
        else:
            st.note(fr[PLAYER], "choose", f"{self.prompt}: {self.shown(st, data)}", data)


def note_secretly(st: St, fr: Frame, prompt: str, text: str, data: Any) -> None:
    """The note of a choice made secretly: read in full by the chooser only."""
    st.note(fr[PLAYER], "choose", text, data, f"{prompt}: chosen in secret", (fr[PLAYER],))


def refuse_blind(op: ChoiceOp, st: St, fr: Frame, index: int) -> None:
    """A player may choose only among cards it sees: a choice among the
    cards of a pile hidden from it would name them in its moves (and their
    number would tell how many kinds it holds).  A card taken unseen is a
    random one: ``draw``."""
    if not sees(seen_by_pile(st)[index], fr[PLAYER]):
        raise RuleFault(f"'{op.prompt}': P{fr[PLAYER]} is to choose among the cards of "
                        f"{pile_name(st, index)}, which it may not see (to take a card unseen, "
                        f"draw one at random: 'draw 1 from PILE to PILE')")


def log_card_choice(op: ChoiceOp, st: St, fr: Frame, data: Any, index: int, public: str,
                    public_value: Any) -> None:
    """The note of a choice of cards from the pile at ``index``: read in full
    by the chooser and whoever sees that pile; by the rest as ``public``."""
    seen = pile_seen_by(st, index)
    text = f"{op.prompt}: {op.shown(st, data)}"
    if seen is EVERYONE:
        st.note(fr[PLAYER], "choose", text, data)
    else:
        st.note(fr[PLAYER], "choose", text, data, f"{op.prompt}: {public}",
                either(seen, (fr[PLAYER],)), public_value)


class ChooseCardsOp(ChoiceOp):
    """The player in scope picks between ``low`` and ``high`` cards from a
    pile; the choice (a tuple of card ids) goes into ``slot``.  Cards of the
    same kind are interchangeable, so the moves are distinct multisets."""

    __slots__ = ("low", "high", "pile", "slot", "prompt", "cache", "fixed", "guard", "held")
    waits = True

    def __init__(self, where: Where, low: Compiled, high: Compiled, pile: Compiled, slot: int,
                 prompt: str) -> None:
        super().__init__(where)
        self.low, self.high, self.pile, self.slot, self.prompt = low, high, pile, slot, prompt
        #: (sorted pile, low, high), or the sorted pile alone for fixed bounds -> (the
        #: moves, their values, player -> move objects): hands repeat, so do their choices
        self.cache: Dict[Tuple[Any, ...], _Cached] = {}
        self.fixed = False  # whether low and high are plain numbers (set by the compiler)
        #: whether the pile may be hidden from the chooser (a deck, a hidden
        #: pile): checked before waiting (``refuse_blind``; set by the compiler)
        self.guard = True
        self.held = 0       # the moves the cache holds

    def run(self, st: St, fr: Frame) -> bool:
        if self.guard:
            refuse_blind(self, st, fr, self.pile(st, fr))
        st.wait(WAIT_DECISION, fr[PLAYER])
        return False

    def log_choice(self, st: St, fr: Frame, data: Any) -> None:
        k = len(data)
        log_card_choice(self, st, fr, data, self.pile(st, fr),
                        "nothing" if not k else "1 card" if k == 1 else f"{k} cards", k)

    def moves(self, st: St, fr: Frame) -> Moves:
        return self._cached(st, fr)[0]

    def move_list(self, st: St, fr: Frame, player: Optional[int],
                  make: Callable[[Any, Optional[int]], Any]) -> Any:
        per_player = self._cached(st, fr)[2]
        found = per_player.get(player)
        if found is None:       # (as ``State._legal`` keeps them: see ``emit``)
            found = per_player[player] = (super().move_list(st, fr, player, make), None, self)
        return found[0]

    def choices(self, st: St, fr: Frame) -> Sequence[Any]:
        return self._cached(st, fr)[1]

    def _cached(self, st: St, fr: Frame) -> _Cached:
        """(moves, their values, move objects by player) for this hand and these bounds."""
        cards = st.piles[self.pile(st, fr)]
        if self.fixed:      # bounds that are plain numbers: the hand is the key
            key = tuple(sorted(cards))
            found = self.cache.get(key)
            if found is not None:
                return found
        key = (tuple(sorted(cards)), self.low(st, fr), self.high(st, fr))
        found = self.cache.get(key)
        if found is None:
            moves = self._moves(st, cards, key[1], key[2])
            found = (moves, [value for _, _, value in moves], {})
            if len(self.cache) >= 4096 or self.held > CACHED_MOVES:
                self.cache.clear()
                self.held = 0
            self.held += len(moves)
            self.cache[key] = found
            if self.fixed:
                self.cache[key[0]] = found
        return found

    def _moves(self, st: St, cards: Sequence[int], low: int, high: int) -> Moves:
        have: Dict[int, int] = {}
        for c in cards:
            have[c] = have.get(c, 0) + 1
        kinds = sorted(have)
        # Asked for more cards than the pile holds: take them all.
        high = max(0, min(len(cards), high))
        low = min(max(0, low), high)
        names = st.prog.card_labels
        prompt = self.prompt
        most = st.limits.max_choices
        combos = _multisets(kinds, have, low, high, most)
        if combos is None:
            raise RuleFault(f"'{prompt}' offers more than {most} different choices of cards "
                            f"(the limit is Limits.max_choices)")
        return [(f"{prompt} {', '.join([names[c] for c in combo]) if combo else 'nothing'}", None, combo)
                for combo in combos]

    def shown(self, st: St, value: Any) -> str:     # the value is a tuple of cards (a move's own)
        names = st.prog.card_names
        return ", ".join(names[c] for c in value) if value else "nothing"

    def emit(self, r: Writer, k: int) -> bool:
        """An op whose ``run`` only waits for its player's decision (one that
        must first check that its player sees the cards, ``self.guard``, is
        called as it is)."""
        if self.guard:
            return False
        wait = (f"st.waiting = {WAIT_DECISION}", f"st.actor = fr[{PLAYER}]", f"fr[{PC}] = {k}")
        ready: Tuple[str, ...] = ()
        if self.fixed:      # the moves made for this hand before, put in place
            ready = (f"_c = O[{k}].cache.get(tuple(sorted(st.piles[{r.value(self.pile)}])))",
                     "if _c is not None:", f"    st._moves = _c[2].get(fr[{PLAYER}])")
        r.emit(r.D, *r.decide(k, f"O[{k}].choices(st, fr)", wait, ready, r.into(self.slot, k)))
        return True


#: The most moves one op's cache of card choices keeps (then it starts
#: again): hands repeat, but a cache of every hand seen must not grow
#: without end.
CACHED_MOVES = 100_000


class _TooMany(Exception):
    pass


def _multisets(kinds: Sequence[int], have: Dict[int, int], low: int, high: int,
               most: int) -> Optional[List[Tuple[int, ...]]]:
    """The multisets of ``low`` to ``high`` cards (sorted tuples of card ids,
    at most ``have[k]`` of kind ``k``), smallest first and in lexicographic
    order within a size; None when there are more than ``most``.  Without
    dead ends: a partial choice is only extended when enough cards are left
    to complete it.  Recursive only for small choices (the usual case, and
    faster); iterative beyond, so any size is safe."""
    n = len(kinds)
    left_from = [0] * (n + 1)     # cards held of kinds[i:]
    for i in range(n - 1, -1, -1):
        left_from[i] = left_from[i + 1] + have[kinds[i]]
    out: List[Tuple[int, ...]] = []
    if high <= 32:
        def extend(start: int, combo: Tuple[int, ...], need: int, run: int) -> None:
            if need == 0:
                out.append(combo)
                if len(out) > most:
                    raise _TooMany
                return
            for i in range(start, n):
                used = run if i == start else 0
                if left_from[i] - used < need:
                    return
                k = kinds[i]
                if used < have[k]:
                    extend(i, combo + (k,), need - 1, used + 1)
        try:
            for size in range(low, min(high, left_from[0]) + 1):
                extend(0, (), size, 0)
        except _TooMany:
            return None
        return out
    for size in range(low, min(high, left_from[0]) + 1):
        # (first kind allowed, combo, cards still to pick, copies of combo[-1])
        stack: List[Tuple[int, Tuple[int, ...], int, int]] = [(0, (), size, 0)]
        while stack:
            start, combo, need, run = stack.pop()
            if need == 0:
                out.append(combo)
                if len(out) > most:
                    return None
                continue
            children: List[Tuple[int, Tuple[int, ...], int, int]] = []
            for i in range(start, n):
                used = run if i == start else 0
                if left_from[i] - used < need:
                    break
                k = kinds[i]
                if used < have[k]:
                    children.append((i, combo + (k,), need - 1, used + 1))
            children.reverse()
            stack.extend(children)
    return out


class ChooseOneOp(Op):
    """The player in scope picks one of several labelled choices; each leads
    to its own code in this rule.  ``option`` names a setup option whose
    answer may have been given to ``new_game``.  ``conds`` (when some
    choices have an ``if``) says which are offered now; with none offered
    there is no decision and play goes on at ``end``."""

    __slots__ = ("labels", "targets", "prompt", "option", "conds", "end", "secret")
    waits = True

    def __init__(self, where: Where, labels: List[str], targets: List[int], prompt: str,
                 option: Optional[str] = None, secret: bool = False) -> None:
        super().__init__(where)
        #: made secretly: only the chooser reads which in the log
        self.secret = secret
        self.labels = labels
        self.targets = targets
        self.prompt = prompt
        self.option = option
        #: fn(st, fr) -> the indexes of the choices offered now (when some
        #: have an ``if``)
        self.conds: Optional[Compiled] = None
        self.end: Optional[int] = None

    def offered(self, st: St, fr: Frame) -> Sequence[int]:
        if self.conds is None:
            return range(len(self.labels))
        offer = st.offer
        if offer is not None and offer[0] is fr:    # (as it started waiting)
            return offer[1]
        return self.conds(st, fr)

    def run(self, st: St, fr: Frame) -> bool:
        if self.option is not None:
            preset = st.preset_option(self.option, fr[PLAYER])
            if preset is not None:
                return self._pick(st, fr, self.labels.index(preset))
        if self.conds is None:
            st.wait(WAIT_DECISION, fr[PLAYER])
            return False
        offered = self.conds(st, fr)
        if not offered:
            fr[PC] = self.end
            return True
        st.wait(WAIT_DECISION, fr[PLAYER], (fr, offered))
        return False

    def emit(self, r: Writer, k: int) -> bool:
        """``run`` written out, but for a choice a setup option may answer."""
        if self.option is not None:
            return False
        wait = (f"st.waiting = {WAIT_DECISION}", f"st.actor = fr[{PLAYER}]", f"fr[{PC}] = {k}")
        take: Optional[Callable[[str], Tuple[str, ...]]] = None
        if all(type(t) is int for t in self.targets):      # (``_pick``, written out)
            targets = r.const(tuple(self.targets))
            take = lambda answer: (f"fr[{PC}] = pc = {targets}[{answer}]", "continue")  # noqa: E731
        if self.conds is None:
            r.emit(r.D, *r.decide(k, f"O[{k}].choices(st, fr)", wait, r.ready(k, "()"), take))
            return True
        r.emit(r.D, r.at(self), f"_o = {r.value(self.conds)}", "if _o:")
        r.emit(r.D + 1, *r.decide(k, "_o", (*wait, "st.offer = (fr, _o)"), r.ready(k, "tuple(_o)"),
                                  take))
        r.jump(r.D, k, self.end)
        return True

    def moves(self, st: St, fr: Frame) -> Moves:
        return [(self.labels[i], None, i) for i in self.offered(st, fr)]

    def move_key(self, st: St, fr: Frame) -> Any:
        return () if self.conds is None else tuple(self.offered(st, fr))

    def choices(self, st: St, fr: Frame) -> Sequence[int]:
        return self.offered(st, fr)

    def _pick(self, st: St, fr: Frame, i: int) -> bool:
        if st.logging:
            if self.secret:
                note_secretly(st, fr, self.prompt, f"{self.prompt}: {self.labels[i]}",
                              self.labels[i])
            else:
                st.note(fr[PLAYER], "choose", f"{self.prompt}: {self.labels[i]}", self.labels[i])
        fr[PC] = self.targets[i]
        return True

    def resume(self, st: St, fr: Frame, data: Any) -> bool:
        st.waiting = WAIT_NONE
        return self._pick(st, fr, data)


class ChooseRowOp(Op):
    """Pick a row of a table and apply it as if rolled."""

    __slots__ = ("table_code", "rows", "prompt")
    waits = True

    def __init__(self, where: Where, table_code: int, rows: Optional[List[Any]], prompt: str) -> None:
        super().__init__(where)
        self.table_code = table_code
        self.rows = rows  # [(label, value, start_pc)]
        self.prompt = prompt

    def run(self, st: St, fr: Frame) -> bool:
        if not self.rows:
            raise RuleFault(f"{self.prompt}: no row of the table covers the rolls asked for")
        st.wait(WAIT_DECISION, fr[PLAYER])
        return False

    def moves(self, st: St, fr: Frame) -> Moves:
        # (``rows`` is none only until the program is built, and ``run`` refuses
        # an empty table, so this op waits with rows.)
        return [(label, None, i) for i, (label, _, _) in enumerate(self.rows)]  # type: ignore[arg-type]

    def move_key(self, st: St, fr: Frame) -> Any:
        return ()

    def resume(self, st: St, fr: Frame, data: Any) -> bool:
        st.waiting = WAIT_NONE
        label, value, start = self.rows[data]  # type: ignore[index]  # (set: see ``moves``)
        if st.logging:
            st.note(fr[PLAYER], "choose", f"{self.prompt}: {label}", label)
        fr[PC] += 1
        code = self.table_code
        spend(st, st.prog.push_cost[code])
        frame = [code, start, fr[PLAYER]] + [None] * st.prog.nlocals[code]
        frame[LOCALS] = value
        st.push(frame)
        return True


class MayOp(Op):
    """A yes/no decision of the player in scope; "no" jumps past the body."""

    __slots__ = ("prompt", "target")
    waits = True

    def __init__(self, where: Where, prompt: Optional[str], target: Optional[int] = None) -> None:
        super().__init__(where)
        self.prompt = prompt
        self.target = target

    def run(self, st: St, fr: Frame) -> bool:
        st.wait(WAIT_DECISION, fr[PLAYER])
        return False

    def emit(self, r: Writer, k: int) -> bool:
        wait = (f"st.waiting = {WAIT_DECISION}", f"st.actor = fr[{PLAYER}]", f"fr[{PC}] = {k}")
        take = None if type(self.target) is not int else (lambda answer: (     # (``resume``)
            f"if {answer}:", f"    fr[{PC}] = pc = {k + 1}", "else:", f"    fr[{PC}] = pc = {self.target}",
            "    continue"))
        r.emit(r.D, *r.decide(k, "(True, False)", wait, r.ready(k, "()"), take))
        return True

    def moves(self, st: St, fr: Frame) -> Moves:
        return [(f"{self.prompt}: yes", None, True), (f"{self.prompt}: no", None, False)]

    def move_key(self, st: St, fr: Frame) -> Any:
        return ()

    def choices(self, st: St, fr: Frame) -> Tuple[bool, bool]:
        return (True, False)

    def resume(self, st: St, fr: Frame, data: Any) -> bool:
        st.waiting = WAIT_NONE
        if st.logging:
            st.note(fr[PLAYER], "choose", f"{self.prompt}: {'yes' if data else 'no'}", data)
        if data:
            fr[PC] += 1
        else:
            fr[PC] = self.target
        return True


class ChooseNumberOp(ChoiceOp):
    """The player in scope picks a whole number from ``low`` to ``high``
    (into ``slot``); an empty range gives ``low`` without a decision."""

    __slots__ = ("low", "high", "slot", "prompt", "secret")
    waits = True

    def __init__(self, where: Where, low: Compiled, high: Compiled, slot: int, prompt: str,
                 secret: bool = False) -> None:
        super().__init__(where)
        self.low, self.high, self.slot, self.prompt = low, high, slot, prompt
        self.secret = secret

    def bounds(self, st: St, fr: Frame) -> Tuple[int, int]:
        lo, hi = self.low(st, fr), self.high(st, fr)
        if hi - lo + 1 > st.limits.max_choices:
            raise RuleFault(f"{self.prompt}: {hi - lo + 1} numbers to choose from; the limit "
                            f"is {st.limits.max_choices}")
        return lo, hi

    def run(self, st: St, fr: Frame) -> bool:
        lo, hi = self.bounds(st, fr)
        if hi <= lo:
            fr[self.slot] = lo
            fr[PC] += 1
            return True
        st.wait(WAIT_DECISION, fr[PLAYER], (fr, range(lo, hi + 1)))
        return False

    def emit(self, r: Writer, k: int) -> bool:
        """``run`` written out (past the limit, ``bounds`` raises as it does)."""
        r.emit(r.D, r.at(self), f"fr[{PC}] = {k}", f"_lo = {r.value(self.low)}",
               f"_hi = {r.value(self.high)}", "if _hi - _lo >= st.limits.max_choices:",
               f"    O[{k}].bounds(st, fr)", "if _hi <= _lo:", f"    fr[{self.slot}] = _lo",
               f"    pc = {k + 1}", "else:", "    _o = range(_lo, _hi + 1)",
               *["    " + line for line in r.decide(
                   k, "_o", (f"st.waiting = {WAIT_DECISION}", f"st.actor = fr[{PLAYER}]",
                             "st.offer = (fr, _o)"), r.ready(k, "_o"), r.into(self.slot, k))])
        return True

    def moves(self, st: St, fr: Frame) -> Moves:
        return [(f"{self.prompt}: {n}", None, n) for n in self.choices(st, fr)]

    def move_key(self, st: St, fr: Frame) -> Any:
        return self.choices(st, fr)         # (the range of numbers itself)

    def choices(self, st: St, fr: Frame) -> range:
        offer = st.offer
        if offer is not None and offer[0] is fr:    # (the numbers, as it started waiting)
            return offer[1]
        lo, hi = self.bounds(st, fr)
        return range(lo, hi + 1)


class PickPieceOp(Op):
    """``pick one workers at random as w``: a chance draw among the pieces
    ``matching(st, fr)`` lists (equally likely), into ``slot``; none
    without a draw when nothing matches."""

    __slots__ = ("matching", "names", "slot")
    waits = True

    def __init__(self, where: Where, matching: Compiled, names: Sequence[str], slot: int) -> None:
        super().__init__(where)
        self.matching, self.names, self.slot = matching, names, slot

    def run(self, st: St, fr: Frame) -> bool:
        found = self.matching(st, fr)
        if len(found) > 1 and st.explicit:
            st.wait(WAIT_CHANCE, None)
            return False
        if not found:
            return self._take(st, fr, None)
        i = found[rand_below(st, len(found))] if len(found) > 1 else found[0]
        if st.chance_record is not None and len(found) > 1:
            st.chance_record.append(f"draw {self.names[i]}")
        return self._take(st, fr, i)

    def emit(self, r: Writer, k: int) -> bool:
        """The draw in sample mode written out (the pieces listed, one taken
        from the state's generator as ``run`` takes it); in explicit mode,
        or with the draws recorded, the op itself."""
        src = getattr(self.matching, "src", None)
        if src is None:
            return False
        d = r.D
        r.emit(d, "if st.explicit or st.chance_record is not None:")
        r.fallback(k, self, d + 1)
        r.emit(d, "else:")
        d += 1
        r.emit(d, r.at(self), f"_o = {src}", "if len(_o) > 1:",
               "    _s = st.seed", "    _r = st.rng + 1", *["    " + line for line in r.RANDOM],
               "    st.rng = _r", "    _x = _o[(_z * len(_o)) >> 64]",
               "else:", "    _x = _o[0] if _o else None", f"fr[{self.slot}] = _x",
               "if _x is not None and st.logging:",
               f"    st.note(fr[{PLAYER}], 'pick', 'draws ' + {r.const(self.names)}[_x] + ' at random', _x)",
               f"pc = {k + 1}")
        return True

    def _take(self, st: St, fr: Frame, i: Optional[int]) -> bool:
        fr[self.slot] = i
        if i is not None:
            if st.logging:
                st.note(fr[PLAYER], "pick", f"draws {self.names[i]} at random", i)
        fr[PC] += 1
        return True

    def moves(self, st: St, fr: Frame) -> Moves:
        found = self.matching(st, fr)
        from fractions import Fraction      # (a load imports none: see ops.chance)
        p = Fraction(1, len(found))
        return [(f"draw {self.names[i]}", p, i) for i in found]

    def move_key(self, st: St, fr: Frame) -> Any:
        return tuple(self.matching(st, fr))

    def resume(self, st: St, fr: Frame, data: Any) -> bool:
        st.waiting = WAIT_NONE
        return self._take(st, fr, data)


class ChooseOneOfOp(ChoiceOp):
    """The player in scope picks one of the things (pieces, or kinds of card
    in a pile) that ``matching(st, fr)`` lists; it goes into ``slot`` — or
    none, without a decision, when nothing matches.  ``label(st, x)`` names
    a thing in the log; a move's label is ``prefix`` and that name."""

    __slots__ = ("matching", "label", "slot", "prompt", "prefix", "pile", "secret", "guard", "ones")
    waits = True

    def __init__(self, where: Where, matching: Compiled, label: Callable[[St, int], str], slot: int,
                 prompt: str, prefix: str = "", pile: Optional[Compiled] = None,
                 secret: bool = False, guard: bool = True) -> None:
        super().__init__(where)
        self.secret = secret
        #: for a card from a pile the chooser may not see: the pile, checked
        #: as the choice comes (``refuse_blind``)
        self.guard = pile if guard else None
        #: player -> for each place in the list, thing -> its move (``move_list``)
        self.ones: Dict[Optional[int], List[Dict[Any, Any]]] = {}
        self.matching, self.label, self.slot, self.prompt = matching, label, slot, prompt
        self.prefix = prefix
        #: for a card: fn(st, fr) -> the index of the pile it is chosen from
        self.pile = pile

    def run(self, st: St, fr: Frame) -> bool:
        if self.guard is not None:
            refuse_blind(self, st, fr, self.guard(st, fr))
        found = self.matching(st, fr)
        if not found:
            fr[self.slot] = None
            fr[PC] += 1
            return True
        st.wait(WAIT_DECISION, fr[PLAYER], (fr, found))
        return False

    def emit(self, r: Writer, k: int) -> bool:
        """``run`` written out, but for cards the chooser may not see (checked
        as ``run`` does)."""
        if self.guard is not None or getattr(self.matching, "src", None) is None:
            return False
        wait = (f"st.waiting = {WAIT_DECISION}", f"st.actor = fr[{PLAYER}]", f"fr[{PC}] = {k}",
                "st.offer = (fr, _o)")
        # The moves are put in place as it waits (``move_list`` without the
        # call through ``State._legal``); ``Game.playouts`` picks among the
        # values instead.
        r.emit(r.D, r.at(self), f"_o = {r.value(self.matching)}", "if _o:",
               *["    " + line for line in r.decide(k, "_o", wait, self.listed(k), r.into(self.slot, k))],
               "else:", f"    fr[{self.slot}] = None", f"    pc = {k + 1}")
        return True

    def listed(self, k: int) -> Tuple[str, ...]:
        """The lines that put the moves offering ``_o`` in place: pieces,
        spaces and players come back in the same lists, kept whole
        (``kept``); a hand of cards seldom does, so its moves are looked up
        at each place (``ones``, in C: the first step of ``offered``, with
        no call and no list kept), made by ``offered`` when one is not
        there yet."""
        made = f"st._moves = O[{k}].offered(st, (tuple(_o), fr[{PLAYER}]), _o, _make)"
        if self.pile is None:
            return (f"_k = (tuple(_o), fr[{PLAYER}])",
                    f"st._moves = O[{k}].kept.get(_k) or O[{k}].offered(st, _k, _o, _make)")
        return (f"_m = O[{k}].ones.get(fr[{PLAYER}], ())",
                "if len(_m) < len(_o):", f"    {made}", "else:", "    try:",
                f"        st._moves = (list(map(_get, _m, _o)), None, O[{k}])",
                "    except KeyError:", f"        {made}")

    def moves(self, st: St, fr: Frame) -> Moves:
        return [(self.prefix + self.label(st, x), None, x) for x in self.choices(st, fr)]

    def move_list(self, st: St, fr: Frame, player: Optional[int],
                  make: Callable[..., Any]) -> Any:
        found = self.choices(st, fr)
        key = (tuple(found), player)    # (a thing's label never changes)
        found_before = self.kept.get(key)
        if found_before is not None:
            return found_before[0]
        return self.offered(st, key, found, make)[0]

    def offered(self, st: St, key: Tuple[Tuple[Any, ...], Optional[int]], found: Sequence[Any],
                make: Callable[..., Any]) -> Any:
        """The moves offering ``found`` to ``key[1]`` (``key`` as
        ``move_list`` makes it), kept under ``key``, as ``State._legal``
        holds them: ``(moves, None, self)``."""
        player = key[1]
        kept = self.kept
        # Each move too is made once: the move for a thing, a player and a
        # place in the list is always the same (``ones``: by player, a
        # table per place); a list of things not kept whole (a hand of
        # cards seldom recurs) is looked up in one pass in C.
        rows = self.ones.get(player)
        if rows is None:
            rows = self.ones[player] = []
        if len(rows) < len(found):
            rows.extend({} for _ in range(len(found) - len(rows)))
        try:
            made = list(map(_get, rows, found))
        except KeyError:
            made = []
            for i, x in enumerate(found):
                row = rows[i]
                one = row.get(x)
                if one is None:
                    if len(row) >= MOST_ONES:
                        row.clear()
                    one = row[x] = make(((self.prefix + self.label(st, x), None, x),),
                                        player, i)[0]
                made.append(one)
        # (Lists of moves made once for each thing and place, ``ones``: not
        # counted against MOST_KEPT_MOVES, as a list not found kept is the
        # common case here.)
        if len(kept) >= MOST_KEPT_THINGS:
            kept.clear()
        entry = kept[key] = (made, None, self)
        return entry

    def move_key(self, st: St, fr: Frame) -> Any:
        return tuple(self.choices(st, fr))     # (a thing's label never changes)

    def choices(self, st: St, fr: Frame) -> Sequence[Any]:
        offer = st.offer
        if offer is not None and offer[0] is fr:    # (as it started waiting)
            return offer[1]
        return self.matching(st, fr)

    def shown(self, st: St, value: Any) -> str:
        return self.label(st, value)

    def log_choice(self, st: St, fr: Frame, data: Any) -> None:
        if self.secret:
            note_secretly(st, fr, self.prompt, f"{self.prompt}: {self.shown(st, data)}", data)
        elif self.pile is None:
            st.note(fr[PLAYER], "choose", f"{self.prompt}: {self.shown(st, data)}", data)
        else:
            log_card_choice(self, st, fr, data, self.pile(st, fr), "a card", None)
