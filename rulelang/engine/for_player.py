"""``for P { … }`` whose body may wait (a decision, a roll, a rule
called): its op and its lowering.  (A body that never waits is Python
lines, ``statements.PureBlock.forplayer``.)

While the body runs, the frame's player is P's, so the decisions in it are
P's; a save made then must be restored with the player before it kept
too.  The op is therefore a ``for each player`` loop as saves know it
(``ops.ForEachOp``: its work local says which seat the frame's player is,
``saved`` who was in scope before): a loop that starts at P's seat and
stops after it, without looking at any other seat."""

from __future__ import annotations

from typing import List, Optional, Sequence

from .. import ir
from . import codegen
from . import ops as O
from .kinds import SEAT, Compiled, Frame, Lowering, St, Where, Writer
from .ops import PC, PLAYER
from .statements import PureBlock


class OnePlayerOp(O.ForEachOp):
    """Start ``for P``: P's seat into the frame's player (the one before in
    ``saved``), the work local ``(1, P)`` (one seat looked at, from P's);
    when P is none, straight to ``end``, past the body."""

    __slots__ = ("player",)

    def __init__(self, where: Where, work: int, saved: int, player: Compiled,
                 end: Optional[int] = None) -> None:
        super().__init__(where, work, saved, None, False, None, end)
        self.player = player

    def run(self, st: St, fr: Frame) -> bool:
        who = self.player(st, fr)
        if who is None:
            fr[PC] = self.end
            return True
        fr[self.saved] = fr[PLAYER]
        fr[self.work] = (1, who)
        fr[PLAYER] = who
        fr[PC] += 1
        return True

    def emit(self, r: Writer, k: int) -> bool:
        """``run``, written out."""
        r.emit(r.D, r.at(self), f"_sq = {r.value(self.player)}", "if _sq is None:")
        r.jump(r.D + 1, k, self.end)
        r.emit(r.D, "else:", f"    fr[{self.saved}] = fr[{PLAYER}]", f"    fr[{self.work}] = (1, _sq)",
               f"    fr[{PLAYER}] = _sq", f"    pc = {k + 1}")
        return True


def lower_for_player(ctx: Lowering, s: ir.ForPlayer) -> None:
    """The ops of ``for P { … }``: ``OnePlayerOp``, the body, then the
    player before put back (and the work local cleared).  It is not a loop:
    a 'stop' inside leaves the loop around it, and clears this one's work
    and puts back the player in scope before it (or before that loop, if
    that loop changed it).  ``ctx``: the ``lower.Ctx`` of the code."""
    work = ctx.temp(("each-player", len(ctx.code)))
    saved = ctx.temp(SEAT)
    op = ctx.emit(OnePlayerOp(ctx.where(s), work, saved, ctx.expr(s.player)))
    around = bool(ctx.loops)
    if around:
        breaks, works, restore = ctx.loops[-1]
        ctx.loops.append((breaks, works + [work], saved if restore is None else restore))
    ctx.block(s.body)
    if around:
        ctx.loops.pop()
    back = PureBlock(ctx)
    back.mark(s, 0)
    back.line(0, f"fr[{work}] = None")
    back.line(0, f"fr[{PLAYER}] = fr[{saved}]")
    ctx.emit(O.PureOp(ctx.where(s), back.lines, ctx.wheres, ctx.prog.gen_env, codegen.pure_function))
    op.end = len(ctx.code)


def stops_out(body: Sequence[ir.Stmt]) -> bool:
    """Whether a 'stop' in ``body`` leaves a loop around it (one not inside
    a loop of its own): a 'for P' holding one is Python only inside a loop
    of the same generated code."""
    for s in body:
        if isinstance(s, ir.Stop):
            return True
        if isinstance(s, ir.If) and (stops_out(s.then) or stops_out(s.orelse)):
            return True
        if isinstance(s, ir.ForPlayer) and stops_out(s.body):
            return True
    return False


__all__: List[str] = ["OnePlayerOp", "lower_for_player", "stops_out"]
