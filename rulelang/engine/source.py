"""The one expression compiler: an IR expression as Python source."""

from __future__ import annotations

import functools
import re
from typing import Any, Iterator, List, Optional, Tuple

from .. import ir
from ..check import resolve
from ..check import types as check_types
from . import codegen
from .kinds import Lowering
from .ops import PLAYER
from .queries import PieceQueries
from .runtime import CMP, row_windows


class Source(PieceQueries):
    """The one expression compiler: Python source for an expression, from
    the IR (never from the rule file's text: names become slot numbers, and
    every word, table or value that is not a plain number goes into the
    program's list of constants ``C``).  Every kind of node has its method
    ``s_<Kind>``; a compiled expression is the function of its source
    (``compiled``), and generated code writes the same source inline.

    The things in scope are source too: the player a question is about
    (``player``: ``fr[2]``, or a loop's variable), the card and the piece a
    'where' looks at (``Ctx.card_scope``, ``Ctx.piece_scope``: a local of
    the frame, ``fr[i]``, which may hold none, or a loop's variable)."""

    def __init__(self, ctx: Lowering) -> None:
        self.ctx = ctx
        self.consts: List[Any] = ctx.prog.gen_consts
        self.temps: Iterator[int] = ctx.prog.gen_temps
        self.player: str = f"fr[{PLAYER}]"   # the player in scope (a loop's variable in a question)

    def const(self, value: Any) -> str:
        self.consts.append(value)
        return f"C[{len(self.consts) - 1}]"

    def temp(self) -> str:
        return f"_t{next(self.temps)}"

    def src_for_player(self, e: ir.Expr, var: str, cond: bool = False) -> Optional[str]:
        """Source of ``e`` asked about the player in Python variable ``var``
        (where there is no frame of a rule), or None if it needs one.  With
        ``cond``, only its truth matters (``cond``)."""
        self.player = var
        out = self.cond(e) if cond else self.src(e)
        return None if re.search(r"\bfr\b", out) else out

    def src(self, e: ir.Expr) -> str:
        ctx = self.ctx
        if id(e) in ctx.hoisted:        # a roll, made by an op of its own
            return f"fr[{ctx.hoisted[id(e)]}]"
        return getattr(self, "s_" + type(e).__name__)(e)

    def cond(self, e: ir.Expr) -> str:
        """Source of ``e`` where only its truth matters (an ``if`` or a
        ``while``): 'and' / 'or' need not make a yes/no of their parts."""
        if isinstance(e, ir.BinOp) and e.op in ("and", "or") and id(e) not in self.ctx.hoisted:
            return f"({self.cond(e.left)} {codegen.operator(e.op)} {self.cond(e.right)})"
        if isinstance(e, ir.Not) and id(e) not in self.ctx.hoisted:
            return f"(not {self.cond(e.operand)})"
        return self.src(e)

    @staticmethod
    def number(v: object) -> Optional[str]:
        return repr(v) if type(v) in (int, bool) else None

    def pile(self, ref: ir.PileRef) -> str:
        """Source of the index in ``st.piles`` of the pile ``ref`` names (a
        player's own pile: the player in scope's, or its owner's)."""
        prog = self.ctx.prog
        if ref.owner in prog.actor_names and ref.owner not in self.ctx.locals:
            return str(prog.pile_index[f"{ref.owner}.{ref.name}"])
        if ref.name in prog.pile_index:
            return str(prog.pile_index[ref.name])
        j = prog.player_pile_index[ref.name]
        owner = f"fr[{self.ctx.locals[ref.owner]}]" if ref.owner is not None else self.player
        shared = codegen.number(len(prog.shared_piles))     # (``State.nshared``, fixed by the rules)
        if j == 0:
            return f"({shared} + {owner})"
        return f"({shared} + {'' if j == 1 else f'{j} * '}st.n + {owner})"

    @staticmethod
    def _or_none(at: str, x: str) -> str:
        """``at`` (which reads the thing in ``x``), or none when ``x``, a
        local or a global, holds none (a loop's variable always holds a thing)."""
        return f"(None if {x} is None else {at})" if x.startswith(("fr[", "st.g[")) else at

    def piece_field(self, pset: str, x: str, field: str) -> str:
        """A field (state value or fixed attribute) of the piece whose index
        is the value of source ``x``."""
        prog = self.ctx.prog
        if field in prog.piece_slot[pset]:
            base, K, k = prog.piece_base[pset], prog.piece_K[pset], prog.piece_slot[pset][field]
            return self._or_none(f"st.g[{codegen.slot(x, K, base + k)}]", x)
        table = prog.piece_attr[pset].get(field)
        return "None" if table is None else self._or_none(f"{self.const(table)}[{x}]", x)

    def card_field(self, x: str, prop: str) -> str:
        """Property ``prop`` of the card whose id is the value of source ``x``."""
        return self._or_none(f"{self.const(self.ctx.prog.card_table(prop))}[{x}]", x)

    # ------------------------------------------------------------ nodes

    def s_Num(self, e: ir.Num) -> str:
        return self.number(e.value) or self.const(e.value)

    def s_Bool(self, e: ir.Bool) -> str:
        return repr(bool(e.value))

    def s_NoneLit(self, e: ir.NoneLit) -> str:
        return "None"

    def s_NoDice(self, e: ir.NoDice) -> str:
        return "()"

    def s_Roll(self, e: ir.Roll) -> str:
        raise KeyError("dice are rolled by an op of their own (Ctx.hoist)")

    s_Pool = s_RollOff = s_Roll

    def s_Name(self, e: ir.Name) -> str:
        ctx, prog, name = self.ctx, self.ctx.prog, e.name
        bound = ctx.bind(e)
        kind = bound.kind
        if kind == resolve.CARD:
            return self.card_field(ctx.card_scope[-1], name)
        if kind == resolve.PIECE:
            return self.piece_field(bound.pieces, ctx.piece_scope[bound.scope][1], name)
        if kind == resolve.LOCAL:
            return f"fr[{ctx.locals[name]}]"
        if kind == resolve.PLAYER:
            return f"st.v[{codegen.slot(self.player, prog.K, prog.pslot[name])}]"
        if kind == resolve.GLOBAL:
            return f"st.g[{prog.gslot[name]}]"
        if kind == resolve.CONST:
            v = prog.consts[name]
            return self.number(v) or self.const(v)
        return self.const(name)         # a word

    def attr_of(self, e: ir.Attr) -> str:
        """What ``x.name`` reads, the one place that decides: "track" (a
        track's space data), "card" or "piece" (of a local holding one),
        "actor" (an actor's stat), "held" (of a global holding a piece or
        space), else "player" (a stat of the player ``x`` holds)."""
        ctx, prog = self.ctx, self.ctx.prog
        if ctx.track_table(e) is not None:
            return "track"
        if e.obj in ctx.card_locals:
            return "card"
        if e.obj in ctx.piece_locals:
            return "piece"
        if e.obj in ctx.locals:
            return "player"
        if e.obj in prog.actor_names:
            return "actor"
        return "held" if prog.holder(e.obj) is not None else "player"

    def s_Attr(self, e: ir.Attr) -> str:
        ctx, prog = self.ctx, self.ctx.prog
        kind = self.attr_of(e)
        if kind == "track":
            track = ctx.track_table(e)
            assert track is not None
            return f"{self.const(track[1])}.get(st.g[{track[0]}])"
        if kind == "card":
            return self.card_field(f"fr[{ctx.locals[e.obj]}]", e.name)
        if kind == "piece":
            return self.piece_field(ctx.piece_locals[e.obj], f"fr[{ctx.locals[e.obj]}]", e.name)
        if kind == "actor":
            return f"st.g[{prog.gslot[f'{e.obj}.{e.name}']}]"
        held = prog.holder(e.obj)
        if kind == "held" and held is not None:        # a global holding a piece or space
            return self.piece_field(held, f"st.g[{prog.gslot[e.obj]}]", e.name)
        return f"st.v[{codegen.slot(ctx.player_of(e.obj), prog.K, prog.pslot[e.name])}]"

    def s_BinOp(self, e: ir.BinOp) -> str:
        a, b = self.src(e.left), self.src(e.right)
        if e.op in ("and", "or"):
            # (a yes/no: a part that is one already needs no bool())
            a = a if _is_yes_no(e.left) else f"bool({a})"
            b = b if _is_yes_no(e.right) else f"bool({b})"
            return f"({a} {codegen.operator(e.op)} {b})"
        if e.op in ("/", "%"):
            return f"{'_div' if e.op == '/' else '_mod'}({a}, {b})"
        big = self.ctx.prog.limits.max_number
        op = codegen.operator(e.op)
        if self.bounds(e) is not None:      # (it cannot go past max_number)
            return f"({a} {op} {b})"
        t = self.temp()
        types = self.ctx.prog.resolved.type_of
        if types(e.left) == types(e.right) == check_types.NUM:     # (whole numbers: no pool)
            return f"({t} if -{big} <= ({t} := {a} {op} {b}) <= {big} else _big({t}, {big}))"
        return f"({t} if type({t} := {a} {op} {b}) is int and -{big} <= {t} <= {big} " \
               f"else _big({t}, {big}))"

    def bounds(self, e: ir.Expr) -> Optional[Tuple[int, int]]:
        """The least and the most that number expression ``e`` can be,
        when they are known and within ``Limits.max_number`` (a number, a
        constant, a stat with a 'min' and a 'max', and sums, differences and
        products of those); else None.  Arithmetic on such values needs no
        check that it went past the limit."""
        prog, big = self.ctx.prog, self.ctx.prog.limits.max_number
        out: Optional[Tuple[int, int]] = None
        if isinstance(e, ir.Num) and type(e.value) is int:
            out = (e.value, e.value)
        elif isinstance(e, ir.Name) and id(e) not in self.ctx.hoisted:
            bound = self.ctx.bind(e)
            if bound.kind == resolve.CONST:
                v = prog.consts[e.name]
                out = (v, v) if type(v) is int else None
            elif bound.kind in (resolve.PLAYER, resolve.GLOBAL) and \
                    prog.resolved.type_of(e) == check_types.NUM:
                lo, hi = prog.bounds.get(e.name, (None, None))
                out = (lo, hi) if type(lo) is int and type(hi) is int else None
        elif isinstance(e, ir.Attr) and self.attr_of(e) == "card":
            # (a value printed on a card: the least and the most of them; a
            # card without it, or none, gives none, which a sum refuses
            # as it is worked out, checked or not)
            printed = [v for v in prog.card_table(e.name) if v is not None]
            if printed and all(type(v) is int for v in printed):
                out = (min(printed), max(printed))
        elif isinstance(e, ir.Attr) and self.attr_of(e) == "piece" and \
                e.name not in prog.piece_slot[self.ctx.piece_locals[e.obj]]:
            # (a value printed on a piece: the least and the most of them)
            values = prog.piece_attr[self.ctx.piece_locals[e.obj]].get(e.name)
            if values and all(type(v) is int for v in values):
                out = (min(values), max(values))
        elif isinstance(e, ir.BinOp) and e.op in ("+", "-", "*") and id(e) not in self.ctx.hoisted:
            a, b = self.bounds(e.left), self.bounds(e.right)
            if a is not None and b is not None:
                if e.op == "+":
                    out = (a[0] + b[0], a[1] + b[1])
                elif e.op == "-":
                    out = (a[0] - b[1], a[1] - b[0])
                else:
                    ends = [x * y for x in a for y in b]
                    out = (min(ends), max(ends))
        if out is None or not -big <= out[0] <= out[1] <= big:
            return None
        return out

    def kept_as_is(self, e: ir.Expr, lo: int, hi: int) -> bool:
        """Whether every value ``e`` can have is one a keeper of bounds
        ``lo``..``hi`` (``runtime.keeper``) keeps as it is, so a write of it
        needs no check: a number known to be within them, none, a yes/no
        value, a word, a player (a seat, within ``players``)."""
        kind = self.ctx.prog.resolved.type_of(e)
        if kind in (check_types.BOOL, check_types.TEXT):
            return True
        if kind == check_types.PLAYER:
            return lo <= 0 and self.ctx.prog.rs.max_players - 1 <= hi
        found = self.bounds(e) if kind == check_types.NUM else None
        return found is not None and lo <= found[0] and found[1] <= hi

    def compared(self, e: ir.Expr) -> str:
        """Source of ``e`` as a side of a comparison: its ``+ - *`` are not
        checked against ``Limits.max_number``, since their value is only
        compared, never kept (each number they read is within the limit, so
        Python compares the exact result, a few times past it at most)."""
        types = self.ctx.prog.resolved.type_of
        if isinstance(e, ir.BinOp) and e.op in ("+", "-", "*") and id(e) not in self.ctx.hoisted \
                and types(e.left) == types(e.right) == check_types.NUM:
            return f"({self.compared(e.left)} {codegen.operator(e.op)} {self.compared(e.right)})"
        return self.src(e)

    def s_Compare(self, e: ir.Compare) -> str:
        a, b = self.compared(e.left), self.compared(e.right)
        op = codegen.operator(e.op)
        if op in ("==", "!="):
            if "None" in (a, b):    # (values are numbers, words, yes/no, tuples or none)
                return f"({a} {'is' if op == '==' else 'is not'} {b})"
            return f"({a} {op} {b})"
        # An order needs two values (none is below nothing): a side that is
        # never none needs no test.
        left = _never_none(e.left) or _WHOLE.fullmatch(a) is not None
        right = _never_none(e.right) or _WHOLE.fullmatch(b) is not None
        if left and right:
            return f"({a} {op} {b})"
        if right:
            x = self.temp()
            return f"(({x} := {a}) is not None and {x} {op} {b})"
        if left:
            y = self.temp()
            return f"(({y} := {b}) is not None and {a} {op} {y})"
        x, y = self.temp(), self.temp()
        return f"(({x} := {a}) is not None and ({y} := {b}) is not None and {x} {op} {y})"

    def s_Not(self, e: ir.Not) -> str:
        return f"(not {self.src(e.operand)})"

    def s_Neg(self, e: ir.Neg) -> str:
        return f"(-{self.src(e.operand)})"

    def s_SeatOf(self, e: ir.SeatOf) -> str:
        return f"_seat({self.src(e.player)})"

    def s_PlayerAfter(self, e: ir.PlayerAfter) -> str:
        """``player after P [where …]``: with a 'where', the first seat
        clockwise from P's that meets it, P's own last (none if no seat
        does); it stops at the first."""
        if e.cond is None:
            return f"((_seat({self.src(e.player)}) + 1) % st.n)"
        start = self.src(e.player)
        var, cond = self.looking_at_players(e.cond)
        return f"{self.const(next)}(({var} for {var} in {self.const(seats_after)}(st.n, " \
               f"_seat({start})) if {cond}), None)"

    def s_IfExpr(self, e: ir.IfExpr) -> str:
        return f"({self.src(e.then)} if {self.cond(e.cond)} else {self.src(e.orelse)})"

    def s_CallFn(self, e: ir.CallFn) -> str:
        return f"{codegen.function(e.func)}({', '.join(self.src(a) for a in e.args)})"

    def s_RuleValue(self, e: ir.RuleValue) -> str:
        """The value of a rule that only works out a value, called inline
        for the player in scope (``values.ValueRule``); any other rule's
        value was made first, by an op (``Ctx.hoist``)."""
        fn = self.const(self.ctx.prog.value_rule(e.rule).call)
        args = "".join(f", {self.src(a)}" for a in e.args)
        return f"{fn}(st, {self.player}{args})"

    def s_ThisPlayer(self, e: ir.ThisPlayer) -> str:
        return self.player

    def s_Round(self, e: ir.Round) -> str:
        return "st.round"

    def s_TestResult(self, e: ir.TestResult) -> str:
        if e.what == "passed":
            return "(st.test is not None and st.test[0])"
        if e.what == "failed":
            return "(st.test is not None and not st.test[0])"
        return "(st.test[1] if st.test is not None else 0)"

    def s_PoolCount(self, e: ir.PoolCount) -> str:
        """How many dice of a pool meet a comparison (the dice looked at
        are work: ``_count_faces``)."""
        faces = self.src(e.pool)
        return f"_count_faces(st, {faces}, {self.src(e.value)}, {self.const(CMP[e.op])})"

    def s_CountCards(self, e: ir.CountCards) -> str:
        same = self.ctx.prog.cards_named(e.card)
        pile = f"st.piles[{self.pile(e.pile)}]"
        if len(same) == 1:
            return f"{pile}.count({same[0]})"
        return f"sum([1 for {(c := self.temp())} in {pile} if {c} in {self.const(frozenset(same))}])"

    def s_PileSize(self, e: ir.PileSize) -> str:
        ctx = self.ctx
        if e.pile.name in ctx.locals and e.pile.owner is None:     # chosen cards
            return f"len(fr[{ctx.locals[e.pile.name]}] or ())"
        return f"len(st.piles[{self.pile(e.pile)}])"

    def s_SumCards(self, e: ir.SumCards) -> str:
        value_of = self.const(self.ctx.prog.card_table(e.prop, 0).__getitem__)
        return f"sum(map({value_of}, st.piles[{self.pile(e.pile)}]))"

    def looking_at_players(self, *nodes: Optional[ir.Expr]) -> Tuple[str, ...]:
        """(seat variable, the source of each of ``nodes`` with that seat in
        scope: "True" for none)."""
        var = self.temp()
        saved, self.player = self.player, var
        try:
            return (var, *("True" if node is None else self.src(node) for node in nodes))
        finally:
            self.player = saved

    def player_column(self, node: Optional[ir.Expr]) -> Optional[str]:
        """Source of the list of every player's value of a stat, when
        ``node`` is just the name of a player's stat (read from the
        players' values in one slice, no loop), else None."""
        ctx, prog = self.ctx, self.ctx.prog
        if not isinstance(node, ir.Name) or node.name not in prog.pslot or node.name in ctx.locals \
                or ctx.card_scope or ctx.piece_scope:
            return None
        return f"st.v[{prog.pslot[node.name]}::{prog.K}]"

    def one_column(self, var: str, cond: str) -> Optional[Tuple[str, str, str]]:
        """(a value variable, the column, ``cond`` reading it) when condition
        source ``cond`` about the player in ``var`` reads nothing of that
        player but one stat (``st.v[var * K + i]``): it can then look at
        the stat's column, one slice, instead of each seat's place."""
        prog = self.ctx.prog
        for i in range(prog.K):
            place = f"st.v[{codegen.slot(var, prog.K, i)}]"
            if place in cond:
                value = self.temp()
                rest = cond.replace(place, value)
                if re.search(rf"\b{re.escape(var)}\b", rest) is None:
                    return value, f"st.v[{i}::{prog.K}]", rest
                return None
        return None

    def s_PlayerQuery(self, e: ir.PlayerQuery) -> str:
        """``count / no / any [other] players where …`` as one loop (or, for
        ``where STAT is VALUE``, one count in the stat's column)."""
        c = e.cond
        if not e.other and isinstance(c, ir.Compare) and c.op == "==" and \
                isinstance(c.right, (ir.Num, ir.Name, ir.Bool, ir.NoneLit)) and \
                self.player_column(c.left) is not None and self.player_column(c.right) is None \
                and not (isinstance(c.right, ir.Name) and c.right.name in self.ctx.prog.pslot):
            # (VALUE, a number, word or local, is the same for every player:
            # asked once)
            column, value = self.player_column(c.left), self.src(c.right)
            if e.quantifier == "count":
                return f"{column}.count({value})"
            return f"({value} {'in' if e.quantifier == 'any' else 'not in'} {column})"
        extreme = None if e.other or e.quantifier == "count" else self.extreme_test(c)
        var, cond = self.looking_at_players(e.cond)
        other = f"{var} != {self.player} and " if e.other else ""
        loop = f"for {var} in range(st.n) if {other}{cond}"
        one = None if e.other else self.one_column(var, cond)
        if one is not None:         # (the one stat the condition reads, from its column)
            loop = f"for {one[0]} in {one[1]} if {one[2]}"
        if e.quantifier == "count":
            return f"sum([1 {loop}])"
        hit = f"any([True {loop}])"
        if extreme is not None:     # (the loop only where a player's value is none)
            hit = f"({extreme[0]} if {extreme[1]} else {hit})"
        return f"(not {hit})" if e.quantifier == "none" else hit

    def extreme_test(self, c: Optional[ir.Expr]) -> Optional[Tuple[str, str]]:
        """For ``any players where STAT < VALUE`` (or ``<=``, ``>``, ``>=``,
        either way round), VALUE a plain number the same for every player:
        (the test on the stat's least or greatest value, the condition
        that it holds: VALUE and every player's value are numbers), else
        None.  One ``min`` or ``max`` of the column, in C, for a loop.
        (Not for a count: VALUE's comparison mapped over the column,
        ``sum(map((0).__lt__, column))``, is slower than the loop.)"""
        if not isinstance(c, ir.Compare) or c.op not in ("<", "<=", ">", ">="):
            return None
        flip = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}
        column, value, op = self.player_column(c.left), c.right, c.op
        if column is None:
            column, value, op = self.player_column(c.right), c.left, flip[c.op]
        types, prog = self.ctx.prog.resolved.type_of, self.ctx.prog
        if column is None or self.player_column(value) is not None or types(value) != check_types.NUM \
                or not isinstance(value, (ir.Num, ir.Name)) or id(value) in self.ctx.hoisted \
                or (isinstance(value, ir.Name) and value.name in prog.pslot):
            return None
        col, v, known = self.temp(), self.src(value), ""
        if not (_never_none(value) or _WHOLE.fullmatch(v)):     # (asked once)
            t = self.temp()
            known, v = f"({t} := {v}) is not None and ", t
        return (f"{'max' if op in ('>', '>=') else 'min'}({col}) {codegen.operator(op)} {v}",
                f"{known}None not in ({col} := {column})")

    def s_Extreme(self, e: ir.Extreme) -> str:
        """``highest / lowest / sum of X among [other] players [where …]``
        (0 with nobody): one slice of the players' values for a bare stat,
        else one loop; a sum past ``Limits.max_number`` is an error."""
        column = self.player_column(e.value)
        if column is not None and not e.other and e.cond is None:
            values = column
        else:
            var, value, cond = self.looking_at_players(e.value, e.cond)
            tests = ([f"{var} != {self.player}"] if e.other else []) + ([cond] if e.cond else [])
            where = f" if {' and '.join(tests)}" if tests else ""
            values = f"[{value} for {var} in range(st.n){where}]"
        if e.which != "sum":
            # (``or (0,)``: 0 with nobody, which every player, with no
            # 'other' or 'where', never is: a game has a player at least.
            # A keyword argument would cost more.)
            everyone = not e.other and e.cond is None
            return f"{'max' if e.which == 'highest' else 'min'}({values}{'' if everyone else ' or (0,)'})"
        big, t = self.ctx.prog.limits.max_number, self.temp()
        return f"({t} if -{big} <= ({t} := sum({values})) <= {big} else _big({t}, {big}))"

    def s_PieceQuery(self, e: ir.PieceQuery) -> str:
        """``count / any of / none of workers where …`` as one loop over the
        pieces."""
        n = len(self.ctx.prog.piece_names[e.pieces])
        if e.cond is None:
            return {"count": str(n), "any": repr(n > 0), "none": repr(n == 0)}[e.quantifier]
        var = self.temp()
        column = self.piece_column(e.pieces, var, e.cond)
        if column is not None:
            values, value = column
            if e.quantifier == "count":
                return f"{values}.count({value})"
            return f"({value} {'in' if e.quantifier == 'any' else 'not in'} {values})"
        among, where, fixed = self.looked_at(e.pieces, var, e.cond)
        if fixed is not None:
            return {"count": str(len(fixed)), "any": repr(bool(fixed)),
                    "none": repr(not fixed)}[e.quantifier]
        if not where:       # (the pieces picked out in C, nothing more to ask)
            if e.quantifier == "count":
                return f"len([*{among}])"
            found = f"(next(iter({among}), None) is not None)"
        elif e.quantifier == "count":
            return f"sum([1 for {var} in {among}{where}])"
        else:       # (stops at the first piece that meets it)
            found = f"any(True for {var} in {among}{where})"
        return f"(not {found})" if e.quantifier == "none" else found

    def about_a_space(self, pset: str, cond: ir.Expr) -> str:
        """``lambda i: COND``, COND about the space (or piece) of ``pset``
        whose index is ``i``: what the walks over a board ask of each space."""
        var = self.temp()
        return f"lambda {var}: {self.where(pset, var, cond)[len(' if '):]}"

    def s_FieldOf(self, e: ir.FieldOf) -> str:
        """``fish of v.at``: the field of the piece or space the expression
        gives (none when it gives none); ``capacity of porters``: what the
        stat's scale prints beside its value, one look in a constant table
        (none for a value no row has)."""
        stat = self.ctx.prog.resolved.scale_of(e)
        if stat is not None:
            table = self.ctx.prog.scale_table(stat, e.field)
            if isinstance(table, dict):
                return f"{self.const(table)}.get({self.src(e.of)})"
            lows, highs, values = table
            return f"_scale({self.const(lows)}, {self.const(highs)}, {self.const(values)}, " \
                   f"{self.src(e.of)})"
        kind = self.ctx.prog.resolved.type_of(e.of)
        pset = str(kind)[len("piece:"):]
        t = self.temp()
        field = self.piece_field(pset, t, e.field)
        return f"(None if ({t} := {self.src(e.of)}) is None else {field})"

    def s_Neighbour(self, e: ir.Neighbour) -> str:
        """``neighbour north of s``: one look in the board's table of links."""
        ctx = self.ctx
        x = f"fr[{ctx.locals[e.space]}]"
        table = ctx.prog.board_step[ctx.piece_locals[e.space]][e.direction]
        return self._or_none(f"{self.const(table)}[{x}]", x)

    def s_Farthest(self, e: ir.Farthest) -> str:
        """``farthest south of s where …``: walked step by step (``_farthest``)."""
        ctx = self.ctx
        pset, x = ctx.piece_locals[e.space], f"fr[{ctx.locals[e.space]}]"
        steps = self.const(ctx.prog.board_step[pset][e.direction])
        column = self.piece_column(pset, self.temp(), e.cond)
        if column is not None:      # (each space's value in a list, no function per space)
            return f"_farthest_is({x}, {steps}, {column[0]}, {column[1]})"
        return f"_farthest({x}, {steps}, {self.about_a_space(pset, e.cond)})"

    def s_Connected(self, e: ir.Connected) -> str:
        """``connected from s where … reaches …``: the group grown from the
        space through its links (``_connected``): it costs the group's size."""
        ctx = self.ctx
        pset, x = ctx.piece_locals[e.space], f"fr[{ctx.locals[e.space]}]"
        adj = ctx.prog.board_adj(pset, ())
        return f"_connected({x}, {self.const(adj)}, {self.about_a_space(pset, e.cond)}, " \
               f"{self.about_a_space(pset, e.goal)})"

    def s_Distance(self, e: ir.Distance) -> str:
        """``distance from v to z …``: a walk outward from the space
        (``_distance``), stopping at the one asked about."""
        ctx = self.ctx
        pset, x = ctx.piece_locals[e.start], f"fr[{ctx.locals[e.start]}]"
        # To a named space, or (inside a 'where') to the space looked at.
        to = f"fr[{ctx.locals[e.to]}]" if e.to is not None else ctx.piece_scope[-1][1]
        table = ctx.prog.distances(pset, e.along) if e.through is None else None
        if table is not None:       # the same every time: one look in a table made once
            return f"(None if {x} is None or {to} is None else {self.const(table)}[{x}][{to}])"
        ok = "None" if e.through is None else self.about_a_space(pset, e.through)
        return f"_distance({x}, {to}, {self.const(ctx.prog.board_adj(pset, e.along))}, {ok})"

    def s_InARow(self, e: ir.InARow) -> str:
        """``3 in a row through s where …``: walked along each line through
        the space (``_in_a_row``), so it costs the lines' length, not the
        board's size."""
        ctx = self.ctx
        pset, x = ctx.piece_locals[e.space], f"fr[{ctx.locals[e.space]}]"
        lines = self.const(ctx.prog.board_lines[pset])
        column = self.piece_column(pset, self.temp(), e.cond)
        if column is not None:      # (each space's value in a list, no function per space)
            n = e.count.value if isinstance(e.count, ir.Num) and type(e.count.value) is int else 0
            windows = row_windows(ctx.prog.board_lines[pset], n)
            if windows is not None:     # (each run through the space read at once)
                return f"_rows_through({x}, {n}, {self.const(windows)}, {column[0]}, {column[1]})"
            return f"_in_a_row_is({x}, {self.src(e.count)}, {lines}, {column[0]}, {column[1]})"
        return f"_in_a_row({x}, {self.src(e.count)}, {lines}, {self.about_a_space(pset, e.cond)})"

    def s_PieceExtreme(self, e: ir.PieceExtreme) -> str:
        """``highest / lowest X among workers [where …]`` (none with no
        piece, or none with a value)."""
        var, v = self.temp(), self.temp()
        among, where, _ = self.looked_at(e.pieces, var, e.cond)
        self.ctx.piece_scope.append((e.pieces, var))
        try:
            value = self.src(e.value)
        finally:
            self.ctx.piece_scope.pop()
        pick = "max" if e.which == "highest" else "min"
        return f"{pick}([{v} for {var} in {among}{where} if ({v} := {value}) is not None] " \
               f"or (None,))"


#: The source of a whole number (a constant written out).
_WHOLE = re.compile(r"-?\d+")


def _is_yes_no(e: ir.Expr) -> bool:
    """Whether the source of ``e`` always gives True or False (a
    comparison, a 'not', 'and' / 'or', yes or no), so needs no bool()."""
    return isinstance(e, (ir.Compare, ir.Not, ir.Bool)) or \
        (isinstance(e, ir.BinOp) and e.op in ("and", "or"))


def _never_none(e: ir.Expr) -> bool:
    """Whether expression ``e`` always has a value (a number, or an error
    when it cannot be worked out), so a comparison need not test it."""
    if isinstance(e, (ir.Num, ir.Round, ir.PileSize, ir.CountCards, ir.SumCards)):
        return True
    if isinstance(e, ir.BinOp):
        return e.op not in ("and", "or")
    if isinstance(e, ir.PlayerQuery):
        return e.quantifier == "count"
    if isinstance(e, ir.PlayerAfter):
        return e.cond is None
    if isinstance(e, (ir.Neg, ir.SeatOf)):
        return True
    return False


@functools.lru_cache(maxsize=None)
def seats_after(n: int, seat: int) -> Tuple[int, ...]:
    """The seats of ``n`` clockwise from the one after ``seat``, ``seat``
    last (what ``player after P where …`` looks at, in order)."""
    return tuple((seat + i) % n for i in range(1, n + 1))
