"""What a state of one game may hold (``Spec``), worked out once per game
from its program: the kinds of value of every stat, piece value and local,
the cards the decks hold, the endings, and where each code waits and calls
others.  ``checks`` holds a saved state to it.
"""

from __future__ import annotations

from collections import Counter
from typing import (Any, Callable, Dict, FrozenSet, Iterable, List, Optional, Sequence, Set, Tuple,
                    Union)

from ... import ir
from ...check import ANY, BOOL, CARD, CARDS, NUM, PLAYER, POOL, TEXT, Checker, Scope
from ...limits import Limits
from .. import ops as O
from ..kinds import Kind, Prog
from ..ops import LOCALS
from .shapes import Gm

#: A type the checker gives a value (``check.types``), or ``("word", W)``
#: for the word W of a stat of words assigned as itself.
Typ = Union[str, Tuple[str, str]]
#: The kinds of value a stat, a piece's value or a local may hold (``Spec.fits``).
Kinds = Tuple[Kind, ...]
#: fn(x, n) -> whether JSON value ``x`` is of one of some kinds (``Spec.predicate``).
Test = Callable[[Any, int], bool]
#: A value of ``v`` or ``g``: (its kinds, ``(the value it starts at)`` when
#: that is also allowed, or None, how a reason names it).
Slot = Tuple[Kinds, Optional[Tuple[Any]], str]
#: A local of a frame (``Spec.locals_of``): (slot, its kinds, the loop or op
#: work among them, the others, the test of its kinds).
Local = Tuple[int, Kinds, List[Kind], List[Kind], Test]
#: Where a code calls another (``Spec.calls``): (the codes it may be calling,
#: how the callee's player relates, the op).
Site = Tuple[FrozenSet[int], str, Any]


class _Typed(Checker):
    """The checker, noting the type of every value a rule assigns to a stat
    or a piece's value (so a restored value is held to what the rules can
    put there, not only to the stat's declared type)."""

    def __init__(self, rs: ir.Ruleset, limits: Limits) -> None:
        super().__init__(rs, limits)
        self.assigned: Dict[Tuple[str, ...], Set[Typ]] = {}

    def s_Assign(self, s: ir.Assign, scope: Scope) -> None:
        t = s.target
        if s.op == "=":
            place: Optional[Tuple[str, ...]] = None
            if isinstance(t, ir.Name):
                if t.name not in scope.locals and t.name in self.stats:
                    place = ("stat", t.name)
            else:
                kind = scope.locals.get(t.obj)
                if isinstance(kind, str) and kind.startswith("piece:"):
                    place = ("piece", kind[6:], t.name)
                elif t.obj in scope.locals:
                    place = ("stat", t.name)
            if place is not None:
                value: Typ = self.expr(s.value, scope)
                if isinstance(s.value, ir.Name) and s.value.name in self.enum_values \
                        and value == TEXT:
                    value = ("word", s.value.name)
                self.assigned.setdefault(place, set()).add(value)
        super().s_Assign(s, scope)


class Spec:
    """What a state of one game may hold, worked out once per game from
    its program: what each value, pile and frame of a save is checked
    against."""

    def __init__(self, game: Gm) -> None:
        prog: Prog = game.prog
        rs = prog.rs
        self.game = game
        self.prog = prog
        self.big = prog.limits.max_number
        self.max_dice = game.limits.max_dice
        typed = _Typed(rs, prog.limits)
        typed.run()
        self.typed = typed
        # Every word a rule can work out: the ruleset's words and what its
        # cards, pieces and track spaces print.
        words = set(prog.names.words)
        for spaces in prog.track_data.values():
            for printed in spaces.values():
                words.update(v for v in printed.values() if isinstance(v, str))
        for values in prog.card_props.values():
            words.update(v for v in values.values() if isinstance(v, str))
        for attrs_of in prog.piece_attr.values():
            for values in attrs_of.values():
                words.update(v for v in values if isinstance(v, str))
        words.update(v for v in prog.piece_init if isinstance(v, str))
        self.words = frozenset(words)
        self._predicates: Dict[Kinds, Test] = {}
        self.ncards = len(prog.card_names)
        #: the cards the shared decks hold, and those each player's own decks hold
        self.deck_cards = Counter(c for name in prog.shared_piles
                                  for c in prog.deck_contents.get(name, ()))
        self.player_deck_cards = Counter(c for name in prog.player_piles
                                         for c in prog.deck_contents.get(name, ()))
        # Stats and pieces: (kinds, the value it starts at when that is also allowed, name).
        self.v_slots: List[Slot] = [(self._stat_kinds(s), None, f"'{s.name}'")
                                    for s in prog.player_stats]
        self.g_slots: List[Slot] = [(self._stat_kinds(s), None, f"the global '{s.name}'")
                                    for s in prog.global_stats]
        k = 0
        for ps in rs.pieces:
            fields = [(self._field_kinds(ps, f), f) for f in ps.state]
            for piece in ir.pieces_of(ps, rs):
                for kinds, f in fields:
                    self.g_slots.append((kinds, (prog.piece_init[k],),
                                         f"{piece.name}'s '{f.name}' ({ps.name})"))
                    k += 1
        # Code: where each code waits and where it calls others.
        self.endings = {e.name for e in rs.endings}
        self.end_game = {op.ending for code in prog.codes for op in code
                         if isinstance(op, O.EndGameOp)}
        self.phases = {ph.name for ph in rs.turn.phases} if rs.turn is not None else set()
        self.calls = [self._calls(c, code) for c, code in enumerate(prog.codes)]
        self.v_tests = [self.predicate(kinds) for kinds, _, _ in self.v_slots]
        self.g_tests = [self.predicate(kinds) for kinds, _, _ in self.g_slots]
        self._locals: Dict[int, List[Local]] = {}
        self._player_loops: Dict[int, List[Tuple[int, O.ForEachOp]]] = {}

    def locals_of(self, code: int) -> List[Local]:
        """[(slot, its kinds, the loop or op work among them, the others,
        the test of its kinds)] for the locals of a frame of ``code``
        (worked out once per code)."""
        found = self._locals.get(code)
        if found is None:
            kinds_of = self.prog.local_kinds[code]
            found = []
            for s in range(LOCALS, LOCALS + self.prog.nlocals[code]):
                kinds = kinds_of[s - LOCALS] if s - LOCALS < len(kinds_of) else (("value",),)
                work = [k for k in kinds if k[0] in _WORK]
                plain = [k for k in kinds if k[0] not in _WORK]
                found.append((s, kinds, work, plain, self.predicate(kinds)))
            self._locals[code] = found
        return found

    def player_loops(self, code: int) -> List[Tuple[int, O.ForEachOp]]:
        """[(pc, op)] of the 'for each player' loops of ``code`` that move
        the frame's player (no variable of their own), in the order of the
        locals."""
        found = self._player_loops.get(code)
        if found is None:
            ops = self.prog.codes[code]
            found = [(k[1], ops[k[1]]) for kinds in self.prog.local_kinds[code] for k in kinds
                     if k[0] == "each-player" and ops[k[1]].var is None]
            self._player_loops[code] = found
        return found

    # ------------------------------------------------------------ values

    def _kinds_of(self, t: Typ, values: Optional[Iterable[str]] = None, lo: Optional[int] = None,
                  hi: Optional[int] = None) -> List[Kind]:
        """The kinds of value of checker type ``t``.  Each may also be none:
        a type names what a value is when it is there (a piece without a
        printed attribute, a card without a property, gives none)."""
        big = self.big
        if t == NUM:
            return [("int", -big if lo is None else max(lo, -big), big if hi is None else min(hi, big)),
                    ("none",)]
        if t == BOOL:
            return [("bool",), ("none",)]
        if t == PLAYER:
            return [("seat",), ("none",)]
        if t == TEXT:
            return [("word", frozenset(values) if values else None), ("none",)]
        if t == "none":
            return [("none",)]
        if t == CARD:
            return [("card",), ("none",)]
        if t == CARDS:
            return [("cards",), ("none",)]
        if t == POOL:
            return [("dice", None), ("none",)]
        if isinstance(t, str) and t.startswith("piece:"):
            return [("piece", t[6:]), ("none",)]
        if isinstance(t, tuple) and t[0] == "word":
            return [("word", frozenset([t[1]]))]
        return [("any",)]

    def _bounds(self, lo: Optional[ir.Bound],
                hi: Optional[ir.Bound]) -> Tuple[Optional[int], Optional[int]]:
        prog = self.prog
        return (None if lo is None else prog.const_value(lo),
                None if hi is None else prog.const_value(hi))

    def _merge(self, kinds: List[Kind], assigned: Iterable[Typ], values: Optional[Sequence[str]],
               lo: Optional[int], hi: Optional[int]) -> Kinds:
        out = list(kinds)
        for t in assigned:
            if isinstance(t, tuple) and values and t[1] in values:
                continue        # one of its own words
            for k in self._kinds_of(t, None, lo, hi):
                if k not in out:
                    out.append(k)
        return tuple(out)

    def _stat_kinds(self, s: ir.Stat) -> Kinds:
        typed, prog = self.typed, self.prog
        t = typed.stat_types.get(s.name, ANY)
        lo, hi = prog.bounds[s.name]
        literal = isinstance(s.initial, (ir.Num, ir.Bool, ir.NoneLit)) or s.values
        kinds = self._kinds_of(t, s.values, lo, hi) if literal else self._kinds_of(t)
        return self._merge(kinds, typed.assigned.get(("stat", s.name), ()), s.values, lo, hi)

    def _field_kinds(self, ps: ir.PieceSet, f: ir.Stat) -> Kinds:
        typed = self.typed
        t = typed.piece_fields.get(ps.name, {}).get(f.name, (ANY,))[0]
        lo, hi = self._bounds(f.min, f.max)
        if t == ANY and isinstance(f.initial, ir.NoneLit):
            kinds = [("none",)]
        else:
            kinds = self._kinds_of(t, f.values, lo, hi)
        return self._merge(kinds, typed.assigned.get(("piece", ps.name, f.name), ()), f.values,
                           lo, hi)

    def fits(self, kind: Kind, x: Any, n: int, pc: Optional[int] = None,
             top: Optional[bool] = None) -> bool:
        """Whether JSON value ``x`` is of ``kind`` (a stat's or a local's;
        ``n`` players).  A loop's work is checked by ``work``."""
        k = kind[0]
        if k == "any" or k == "value":
            return self.plain(x)
        if x is None:
            return k in _NULLABLE
        if k == "int":
            return type(x) is int and kind[1] <= x <= kind[2]
        if k == "bool":
            return x is True or x is False
        if k == "none" or k == "probe":
            return False
        if k == "word":
            return isinstance(x, str) and (x in kind[1] if kind[1] is not None else x in self.words)
        if k == "seat":
            return type(x) is int and 0 <= x < n
        if k == "card":
            return type(x) is int and 0 <= x < self.ncards
        if k == "cards":
            return isinstance(x, list) and all(type(c) is int and 0 <= c < self.ncards for c in x)
        if k == "piece":
            return type(x) is int and 0 <= x < len(self.prog.piece_names[kind[1]])
        if k == "roll":
            return type(x) is int and kind[1] <= x <= kind[1] * kind[2]
        if k == "dice":
            if not isinstance(x, list):
                return False
            top_face = self.big if kind[1] is None else kind[1]
            low = -self.big if kind[1] is None else 1
            return all(type(f) is int and low <= f <= top_face for f in x)
        if k == "count":
            return type(x) is int and -self.big <= x <= self.big
        return False

    def predicate(self, kinds: Kinds) -> Test:
        """fn(x, n) -> whether JSON value ``x`` is of one of ``kinds``
        (``fits``), made once per set of kinds: the common ones written out."""
        found = self._predicates.get(kinds)
        if found is not None:
            return found
        fits = self.fits
        simple = [k for k in kinds if k != ("none",)]
        nullable = len(simple) < len(kinds)
        if len(simple) == 1 and simple[0][0] == "int":
            _, lo, hi = simple[0]
            if nullable:
                def ok(x: Any, n: int) -> bool:
                    return x is None or (type(x) is int and lo <= x <= hi)
            else:
                def ok(x: Any, n: int) -> bool:
                    return type(x) is int and lo <= x <= hi
        elif len(simple) == 1 and simple[0][0] == "bool" and nullable:
            def ok(x: Any, n: int) -> bool:
                return x is None or x is True or x is False
        elif len(kinds) == 1:
            kind = kinds[0]

            def ok(x: Any, n: int) -> bool:
                return fits(kind, x, n)
        else:
            def ok(x: Any, n: int) -> bool:
                for kind in kinds:
                    if fits(kind, x, n):
                        return True
                return False
        self._predicates[kinds] = ok
        return ok

    def plain(self, x: Any) -> bool:
        """A plain value a rule can work out: none, yes/no, a number within
        max_number, a word of this ruleset, or a list of numbers."""
        if x is None or x is True or x is False:
            return True
        if type(x) is int:
            return -self.big <= x <= self.big
        if isinstance(x, str):
            return x in self.words
        if isinstance(x, list):
            big = self.big
            return all(type(i) is int and -big <= i <= big for i in x)
        return False

    def describe(self, kinds: Kinds, n: int) -> str:
        out: List[str] = []
        for kind in kinds:
            k = kind[0]
            if k in ("any", "value"):
                out.append("a plain value (a number, yes/no, none, a word of the ruleset or a "
                           "list of numbers)")
            elif k == "int":
                out.append(f"a whole number from {kind[1]} to {kind[2]}")
            elif k == "bool":
                out.append("true or false")
            elif k in ("none", "probe"):
                out.append("null")
            elif k == "word":
                words = sorted(kind[1] if kind[1] is not None else self.words)
                shown = ", ".join(words[:8]) + (", …" if len(words) > 8 else "")
                out.append(f"a word ({shown})" if words else "a word")
            elif k == "seat":
                out.append(f"a seat (0 to {n - 1})")
            elif k == "card":
                out.append(f"a card id (0 to {self.ncards - 1})")
            elif k == "cards":
                out.append("a list of card ids")
            elif k == "piece":
                out.append(f"a piece of {kind[1]} (0 to {len(self.prog.piece_names[kind[1]]) - 1})")
            elif k == "roll":
                out.append(f"a roll of {kind[1]}d{kind[2]} ({kind[1]} to {kind[1] * kind[2]})")
            elif k == "dice":
                out.append("a list of dice" + (f" (1 to {kind[1]})" if kind[1] else ""))
            elif k == "count":
                out.append("a whole number")
        if any(k[0] in ("seat", "card", "cards", "piece", "roll", "dice", "count") for k in kinds) \
                and "null" not in out:
            out.append("null")
        return " or ".join(dict.fromkeys(out))

    # ------------------------------------------------------------- code

    def _calls(self, c: int, code: List[Any]) -> Dict[int, List[Site]]:
        """pc of a waiting caller -> [(the codes it may be calling, how the
        callee's player relates, the op)]."""
        prog = self.prog
        out: Dict[int, List[Site]] = {}

        def add(pc: int, codes: Iterable[int], relation: str, op: Any) -> None:
            out.setdefault(pc, []).append((frozenset(codes), relation, op))
        for k, op in enumerate(code):
            t = type(op)
            if t is O.CallOp:
                add(k + 1, [op.code], "same", op)
            elif t is O.TriggerAssign:
                add(k + 1, [code for _, code in op.triggers], "trigger", op)
            elif t is O.ChooseRowOp:
                add(k + 1, [op.table_code], "same", op)
            elif t is O.DrawOp and op.hooks:
                add(k, [code for _, code in op.hooks], "same", op)
            elif t is O.NextTurnOp:
                add(k, [prog.turn_code], "turn", op)
                if prog.round_code is not None:
                    add(k, [prog.round_code], "same", op)
        return out


#: The ops that wait for each kind of thing (``RollOp`` also waits for the
#: reroll rule's decision).
CHANCE_OPS = (O.RollOp, O.RollOffOp, O.DrawOp, O.PoolOp, O.PickPieceOp)
DECISION_OPS = (O.ChooseCardsOp, O.ChooseOneOp, O.ChooseRowOp, O.MayOp, O.ChooseNumberOp,
                O.ChooseOneOfOp)
#: The kinds of value that may also be none (a local not yet set).
_NULLABLE = frozenset(("none", "probe", "seat", "card", "cards", "piece", "roll", "dice", "count"))
_WORK = ("each-player", "each-card", "each-piece", "repeat", "pool-work", "roll-off")


def spec_of(game: Gm) -> Spec:
    spec = game.__dict__.get("_save_spec")
    if spec is None:
        spec = game.__dict__["_save_spec"] = Spec(game)
    return spec
