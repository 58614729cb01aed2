"""The one lowering of the statements that never wait: Python lines."""

from __future__ import annotations

from typing import List, Optional, Sequence, Union

from .. import ir
from ..check.types import NUM, POOL
from . import codegen
from . import ops as O
from .kinds import CARD, SEAT, VALUE, Lowering
from .ops import PLAYER
from .runtime import CMP
from .source import Source


class PureBlock:
    """The one lowering of statements that never wait: lines of Python with
    real ``if``, ``while`` and ``for``, expressions inline (``Source``).
    (A statement that can wait, or that holds one that can, is lowered by
    ``Ctx`` to ops instead: a decision or a roll must be able to suspend
    the code and resume it.)  Each statement starts with a comment naming
    its place (``codegen.at_line``), from which a fault is named.  The lines
    become part of the code's generated function (``codegen``)."""

    def __init__(self, ctx: Lowering) -> None:
        self.ctx = ctx
        self.source = Source(ctx)
        self.lines: List[str] = []

    def lines_of(self, stmts: Sequence[ir.Stmt]) -> List[str]:
        self.block(stmts, 0)
        return self.lines

    def line(self, depth: int, *texts: str) -> None:
        self.lines.extend("    " * depth + text for text in texts)

    def count_step(self, depth: int, loop: ir.Stmt) -> None:
        """Every pass of every loop counts its work against
        ``Limits.max_steps`` (``Work.loop_pass``), as the ops' loops do, so
        an endless loop still stops."""
        self.line(depth, f"st.steps += {self.ctx.prog.work.loop_pass(loop)}")
        self.line(depth, "if st.steps > _lim:")
        self.line(depth + 1, f"raise RuleFault({self.source.const(_RUNAWAY)} % _lim)")

    def block(self, stmts: Sequence[ir.Stmt], depth: int) -> None:
        if not stmts:
            self.line(depth, "pass")
        for s in stmts:
            self.stmt(s, depth)

    def mark(self, s: ir.Stmt, depth: int) -> None:
        """The comment naming the place of statement ``s``."""
        wheres = self.ctx.wheres
        self.line(depth, codegen.at_line(len(wheres), self.ctx.where(s)))
        wheres.append(self.ctx.where(s))

    def stmt(self, s: ir.Stmt, depth: int) -> None:
        self.mark(s, depth)
        src = self.source.src
        cond = self.source.cond
        if isinstance(s, ir.If):
            self.line(depth, f"if {cond(s.cond)}:")
            self.block(s.then, depth + 1)
            while len(s.orelse) == 1 and isinstance(s.orelse[0], ir.If):
                s = s.orelse[0]
                self.mark(s, depth)     # (a comment between the blocks: names the 'else if')
                self.line(depth, f"elif {cond(s.cond)}:")
                self.block(s.then, depth + 1)
            if s.orelse:
                self.line(depth, "else:")
                self.block(s.orelse, depth + 1)
        elif isinstance(s, ir.While):
            self.line(depth, f"while {cond(s.cond)}:")
            self.count_step(depth + 1, s)
            self.block(s.body, depth + 1)
        elif isinstance(s, ir.Repeat):
            self.line(depth, f"for {self.source.temp()} in range({src(s.times)}):")
            self.count_step(depth + 1, s)
            self.block(s.body, depth + 1)
        elif isinstance(s, ir.ForEachPlayer):
            self.each_player(s, depth)
        elif isinstance(s, ir.ForEachPiece):
            ctx = self.ctx
            var = ctx.local(s.var, ("piece", s.pieces))
            ctx.piece_locals[s.var] = s.pieces
            # (over the pieces a table says may meet the 'where', then the rest of it)
            among, where, _ = self.source.looked_at(s.pieces, f"fr[{var}]", s.cond, s.body)
            test = f"({where[len(' if '):]})" if where else None     # (its parts joined by 'and')
            self.each(f"for fr[{var}] in {among}:", test, s, depth)
        elif isinstance(s, ir.ForEachCard):
            ctx = self.ctx
            var = ctx.local(s.var, CARD)
            ctx.card_locals.add(s.var)
            ctx.card_from[s.var] = ctx.pile_seen(s.pile)
            # Over the cards the pile holds when the loop starts.
            test = None
            if s.cond is not None:      # (the card looked at is in scope for the 'where')
                ctx.card_scope.append(f"fr[{var}]")
                try:
                    test = self.source.cond(s.cond)
                finally:
                    ctx.card_scope.pop()
            self.each(f"for fr[{var}] in tuple(st.piles[{ctx.pile_src(s.pile)}]):", test, s, depth)
        elif isinstance(s, ir.Stop):
            self.line(depth, "break")
        elif isinstance(s, ir.Let):
            slot = self.ctx.local(s.name, VALUE)
            kind = self.ctx.prog.resolved.type_of(s.value)     # a piece or a board's space
            if isinstance(kind, str) and kind.startswith("piece:"):
                self.ctx.piece_locals[s.name] = kind[len("piece:"):]
            self.ctx.let_seen(s)
            self.line(depth, f"fr[{slot}] = {src(s.value)}")
        elif isinstance(s, ir.Assign):
            place, keep = self.ctx.assign_place(s)
            value = src(s.value)
            if s.op != "=":
                value = f"{place} {codegen.operator(s.op[:1])} ({value})"
            if s.op == "=" and isinstance(s.value, (ir.Bool, ir.NoneLit)):
                self.line(depth, f"{place} = {value}")    # a keeper keeps these as they are
                self.hide_again(s.target, depth)
                return
            # A plain int inside the bounds is kept as it is; anything else
            # goes through the keeper (clamped, checked, or not a number).
            lo, hi = keep.bounds
            if s.op == "=" and self.source.kept_as_is(s.value, lo, hi):
                self.line(depth, f"{place} = {value}")     # (a value the keeper keeps as it is)
                self.hide_again(s.target, depth)
                return
            t = self.source.temp()
            types = self.ctx.prog.resolved.type_of
            if s.op == "=" and types(s.value) == POOL:
                # (dice: a pool past Limits.max_dice is the keeper's error)
                self.line(depth, f"{place} = {t} if type({t} := {value}) is tuple and "
                                 f"len({t}) <= {self.ctx.prog.limits.max_dice} "
                                 f"else {self.source.const(keep)}({t})")
            elif s.op != "=" and types(s.target) == types(s.value) == NUM:
                # ('+=' on whole numbers gives a whole number, or fails as it is worked out)
                self.line(depth, f"{place} = {t} if {lo} <= ({t} := {value}) <= {hi} "
                                 f"else {self.source.const(keep)}({t})")
            else:
                self.line(depth, f"{place} = {t} if type({t} := {value}) is int and {lo} <= {t} <= {hi} "
                                 f"else {self.source.const(keep)}({t})")
            self.hide_again(s.target, depth)
        elif isinstance(s, ir.MoveCards):
            self.move_cards(s, depth)
        elif isinstance(s, ir.MoveAll):
            ctx = self.ctx
            a = self.source.temp()
            self.line(depth, f"{a} = st.piles[{ctx.pile_src(s.source)}]")
            self.line(depth, f"st.piles[{ctx.pile_src(s.dest)}].extend({a})")
            self.line(depth, f"{a}.clear()")
        else:
            getattr(self, type(s).__name__.lower())(s, depth)

    def hide_again(self, target: ir.Expr, depth: int) -> None:
        """A revealed hidden or secret stat that changes is hidden again."""
        hidden = self.ctx.stat_sight(target)
        if hidden is not None:      # (``visibility.unshow``, written out)
            # (the tuple holds each key once: cut out at its index, three
            # times quicker than filtering it out)
            k, shown, i = self.source.temp(), self.source.temp(), self.source.temp()
            self.line(depth, f"if ({shown} := st.shown) and ({k} := {hidden[0]}) in {shown}:",
                      f"    {i} = {shown}.index({k})",
                      f"    st.shown = {shown}[:{i}] + {shown}[{i} + 1:]")

    def reveal(self, s: ir.Reveal, depth: int) -> None:
        """``reveal X``: X's value is seen by everyone until it changes."""
        hidden = self.ctx.stat_sight(s.target)
        if hidden is None:      # (the checker allows no other)
            raise KeyError(f"'reveal' of a stat that is not hidden: {s.target.name!r}")
        key, owner, _ = hidden
        t, ctx, const = s.target, self.ctx, self.source.const
        if isinstance(t, ir.Attr) and t.obj in ctx.piece_locals:     # "Pawn 3's rank"
            names = ctx.prog.piece_names[ctx.piece_locals[t.obj]]
            whose = "'s " + t.name
            owner, name = "None", f"{const(names)}[fr[{ctx.locals[t.obj]}]] + {const(whose)}"
        elif isinstance(t, ir.Attr) and t.obj in ctx.prog.actor_names and t.obj not in ctx.locals:
            name = const(f"{t.obj}'s {t.name}")
        else:
            name = const(t.name)
        # Without a log, only ``visibility.show``, written out: a key added
        # past the last is the common case (the tuple stays in order).
        k, shown = self.source.temp(), self.source.temp()
        self.line(depth, "if st.logging:",
                  f"    _reveal(st, {key}, {owner}, {name}, {self.source.src(s.target)})",
                  f"elif ({k} := {key}) not in ({shown} := st.shown):",
                  f"    st.shown = ({shown} + ({k},)) if not {shown} or {shown}[-1] < {k} "
                  f"else tuple(sorted(({k},) + {shown}))")

    def spend(self, s: ir.Spend, depth: int) -> None:
        """``spend N dice OP V from POOL``: the fitting dice nearest V go."""
        faces, src = f"fr[{self.ctx.locals[s.pool]}]", self.source
        self.line(depth, f"{faces} = _spend_dice(st, {faces}, {src.src(s.count)}, "
                         f"{src.src(s.value)}, {src.const(CMP[s.op])})")

    def skip(self, s: ir.Skip, depth: int) -> None:
        name = self.source.const(s.phase)
        self.line(depth, f"if {name} not in st.skips:")     # each phase once: skips do not pile up
        self.line(depth + 1, f"st.skips = st.skips + ({name},)")

    def movecard(self, s: ir.MoveCard, depth: int) -> None:
        """``move CARD from A to B``: one card of that name (any deck's)."""
        ctx, src = self.ctx, self.source
        a, c = src.temp(), src.temp()
        name = ctx.prog.card_names[ctx.prog.card_by_name[s.card]]
        self.line(depth, f"{a} = st.piles[{ctx.pile_src(s.source)}]")
        self.line(depth, f"for {c} in {src.const(tuple(ctx.prog.cards_named(s.card)))}:")
        self.line(depth + 1, f"if {c} in {a}:")
        self.line(depth + 2, f"{a}.remove({c})")
        self.line(depth + 2, f"st.piles[{ctx.pile_src(s.dest)}].append({c})")
        self.line(depth + 2, "break")
        self.line(depth, "else:")
        self.line(depth + 1, f"raise RuleFault({src.const(f'card {name} is not in {s.source.name}')})")

    def log(self, s: ir.Log, depth: int) -> None:
        """A log line: its placeholders filled in (``shown``).  A part that
        shows cards (or what was made from them) is read in full only by
        those who may see those cards; the rest read it masked."""
        ctx, src = self.ctx, self.source
        parts = ctx.prog.resolved.log_parts(s)
        if parts is None:       # (the checker reads every log line)
            raise KeyError(f"a log line the checker did not read: {s.text!r}")
        note = f"st.note(fr[{PLAYER}], 'log', "
        self.line(depth, "if st.logging:")
        if all(isinstance(p, str) for p in parts):
            self.line(depth + 1, f"{note}{src.const(s.text)}, None)")
            return
        most = ctx.prog.limits.max_text
        shown = [src.const(p) if isinstance(p, str) else self.shown(p) for p in parts]
        seen = [[] if isinstance(p, str) else ctx.seen_sources(p) for p in parts]
        text = f"_text(({', '.join(shown)},), {most})"
        if not any(seen):
            self.line(depth + 1, f"{note}{text}, None)")
            return
        masked = [f if not who else src.const(ctx.masked(p)) for p, f, who in zip(parts, shown, seen)]
        who = "_EVERYONE"
        for w in (w for ws in seen for w in ws):
            who = f"_both({who}, {w})"
        t, w = src.temp(), src.temp()
        self.line(depth + 1, f"{w} = {who}")
        self.line(depth + 1, f"{t} = {text}")
        self.line(depth + 1, f"if {w} is _EVERYONE:")
        self.line(depth + 2, f"{note}{t}, None)")
        self.line(depth + 1, "else:")
        self.line(depth + 2, f"{note}{t}, None, _text(({', '.join(masked)},), {most}), {w})")

    def shown(self, part: Union[ir.Name, ir.Attr]) -> str:
        """Source of the text of one placeholder of a log line: pieces and
        cards by name, yes/no, none, numbers and words as they are."""
        ctx, src = self.ctx, self.source
        value = src.src(part)
        name = part.name if isinstance(part, ir.Name) else None
        if name in ctx.chosen_locals:
            return f"_show_cards({value}, {src.const(ctx.prog.card_names)})"
        if name in ctx.piece_locals:
            return f"_show({value}, {src.const(ctx.prog.piece_names[ctx.piece_locals[name]])})"
        kind = ctx.prog.resolved.type_of(part)     # a value holding a piece or space
        if isinstance(kind, str) and kind.startswith("piece:"):
            return f"_show({value}, {src.const(ctx.prog.piece_names[kind[len('piece:'):]])})"
        if name in ctx.card_locals:
            return f"_show({value}, {src.const(ctx.prog.card_names)})"
        return f"_show({value}, None)"


    def move_cards(self, s: ir.MoveCards, depth: int) -> None:
        """``move CARDS from A to B``: the cards a local holds (one card, or
        a tuple of them); a card not in A is an error naming it."""
        ctx, src = self.ctx, self.source
        a, b, cards, c = src.temp(), src.temp(), src.temp(), src.temp()
        text = f"card %s is not in {s.source.name}"
        missing, names = src.const(text), src.const(ctx.prog.card_names)
        self.line(depth, f"{a} = st.piles[{ctx.pile_src(s.source)}]")
        self.line(depth, f"{b} = st.piles[{ctx.pile_src(s.dest)}]")
        self.line(depth, f"{cards} = fr[{ctx.locals[s.cards]}]")
        if ctx.prog.work.cards > O.FEW_CARDS:
            # Many cards go in one pass over the pile (``ops.take_cards``).
            self.line(depth, f"if type({cards}) is tuple and len({cards}) > {O.ONE_BY_ONE}:")
            self.line(depth + 1, f"{src.const(O.take_cards)}({a}, {b}, {cards}, {missing}, {names})")
            self.line(depth, "else:")
            depth += 1
        # One card (the common case) straight; none or a tuple, one by one.
        for one, x in ((True, cards), (False, c)):
            self.line(depth, f"if type({cards}) is int:" if one else "else:")
            d = depth + 1
            if not one:
                self.line(d, f"for {c} in {cards} or ():")
                d += 1
            self.line(d, "try:")
            self.line(d + 1, f"{a}.remove({x})")
            self.line(d, "except ValueError:")
            self.line(d + 1, f"raise RuleFault({missing} % {names}[{x}]) from None")
            self.line(d, f"{b}.append({x})")

    def forplayer(self, s: ir.ForPlayer, depth: int) -> None:
        """``for P { … }``: the player P holds is the player in scope in
        the body (which is skipped when P holds none); the one before comes
        back after it, also when a 'stop' leaves the loop around it."""
        src = self.source
        me, who = src.temp(), src.temp()
        self.line(depth, f"{who} = {src.src(s.player)}")
        self.line(depth, f"if {who} is not None:")
        self.line(depth + 1, f"{me} = fr[{PLAYER}]")
        self.line(depth + 1, f"fr[{PLAYER}] = {who}")
        self.line(depth + 1, "try:")
        self.block(s.body, depth + 2)
        self.line(depth + 1, "finally:")
        self.line(depth + 2, f"fr[{PLAYER}] = {me}")

    def each(self, head: str, test: Optional[str], s: Union[ir.ForEachPiece, ir.ForEachCard],
             depth: int) -> None:
        """A 'for each' over pieces or cards: ``head``, the Python loop,
        sets the loop's local; a pass whose thing fails ``test`` (its
        'where', written with the thing in scope) is skipped."""
        self.line(depth, head)
        if test is not None:
            self.line(depth + 1, f"if not {test}:")
            self.line(depth + 2, "continue")
        self.count_step(depth + 1, s)
        self.block(s.body, depth + 1)

    def loop_test(self, cond: Optional[ir.Expr], depth: int) -> None:
        """Skip a 'for each' pass whose thing does not meet ``cond``."""
        if cond is not None:
            self.line(depth, f"if not {self.source.cond(cond)}:")
            self.line(depth + 1, "continue")

    def each_player(self, s: ir.ForEachPlayer, depth: int) -> None:
        """``for each [other] player [as p] [where …]``, seats in turn order
        from the first seat as the loop starts; without ``as``, each player
        is the player in scope in the body, and the one before comes back
        after the loop (also after a 'stop')."""
        src, ctx = self.source, self.ctx
        me = src.temp()
        self.line(depth, f"{me} = fr[{PLAYER}]")
        fixed = codegen.seat_0_first(ctx.prog)
        if not fixed:
            first, i = src.temp(), src.temp()
            self.line(depth, f"{first} = {ctx.prog.first_seat_src}")
        seat = f"fr[{ctx.local(s.var, SEAT)}]" if s.var else f"fr[{PLAYER}]"
        if not s.var:
            self.line(depth, "try:")
            depth += 1
        if fixed:
            self.line(depth, f"for {seat} in range(st.n):")
        else:
            self.line(depth, f"for {i} in range(st.n):")
            self.line(depth + 1, f"{seat} = ({first} + {i}) % st.n")
        if s.other:
            self.line(depth + 1, f"if {seat} == {me}:")
            self.line(depth + 2, "continue")
        self.loop_test(s.cond, depth + 1)
        self.count_step(depth + 1, s)
        self.block(s.body, depth + 1)
        if not s.var:
            self.line(depth - 1, "finally:")
            self.line(depth, f"fr[{PLAYER}] = {me}")


_RUNAWAY = O.RUNAWAY


#: The most IR nodes one run of plain statements (a ``PureOp``) holds.
PURE_NODES = 2000


#: Statements that never wait: Python written by ``PureBlock``, alone or in
#: a run of their neighbours.
SIMPLE = (ir.Assign, ir.Let, ir.Log, ir.Skip, ir.MoveAll, ir.MoveCards, ir.MoveCard, ir.Spend,
          ir.Reveal)
