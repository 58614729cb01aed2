"""The ops of control: jumps, loops, calls of rules, phases and the turn
loop (the machine's ``run`` of each, and its generated code, ``emit``)."""

from __future__ import annotations

import functools
from typing import List, Optional, Sequence, Tuple

from ..kinds import Compiled, Fn, Frame, St, Where, Writer

from .base import CODE, FEW_IDLE, LOCALS, PC, PLAYER, Op, spend


class Jump(Op):
    """Go to ``target``.  The jump back at the end of a loop's body counts
    ``cost``, the work of the next pass (``work.Work.loop_pass``)."""

    __slots__ = ("target", "cost")
    resumable = False

    def __init__(self, where: Where, target: Optional[int] = None, cost: int = 0) -> None:
        super().__init__(where)
        self.target = target
        self.cost = cost

    def run(self, st: St, fr: Frame) -> bool:
        if self.cost:
            spend(st, self.cost)
        fr[PC] = self.target
        return True

    def emit(self, r: Writer, k: int) -> bool:
        r.jump(r.D, k, self.target, max(self.cost, 1), self)
        return True


class JumpUnless(Op):
    __slots__ = ("cond", "target")
    resumable = False

    def __init__(self, where: Where, cond: Compiled, target: Optional[int] = None) -> None:
        super().__init__(where)
        self.cond = cond
        self.target = target

    def run(self, st: St, fr: Frame) -> bool:
        if self.cond(st, fr):
            fr[PC] += 1
        else:
            fr[PC] = self.target
        return True

    def emit(self, r: Writer, k: int) -> bool:
        cond = r.value(self.cond)
        r.emit(r.D, r.at(self), f"if {cond}:", f"    pc = {k + 1}", "else:")
        r.jump(r.D + 1, k, self.target)
        return True


class DispatchOp(Op):
    """Go to the row of a table that the roll in local 0 names."""

    __slots__ = ("targets", "end")
    resumable = False

    def __init__(self, where: Where, targets: List[int], end: int) -> None:
        super().__init__(where)
        self.targets, self.end = targets, end

    def run(self, st: St, fr: Frame) -> bool:
        v = fr[LOCALS]
        fr[PC] = self.targets[v] if 0 <= v < len(self.targets) else self.end
        return True

    def emit(self, r: Writer, k: int) -> bool:
        r.emit(r.D, f"_v = fr[{LOCALS}]",
               f"pc = {r.const(self.targets)}[_v] if 0 <= _v < {len(self.targets)} else {self.end}")
        if min(self.targets + [self.end]) <= k:
            r.back(r.D)
        return True


class CallOp(Op):
    """Push a frame for another code (a rule, table or option)."""

    __slots__ = ("code", "nlocals", "start", "args", "dynamic", "result")

    def __init__(self, where: Where, code: int, nlocals: int = 0, start: int = 0,
                 args: Tuple[Compiled, ...] = (), dynamic: bool = True,
                 result: Optional[int] = None) -> None:
        super().__init__(where)
        self.code = code
        self.nlocals = nlocals
        self.start = start
        self.args = args   # fns giving the rule's parameters, its first locals
        #: Whether the callee's work is counted as it starts (a big rule, or
        #: one that can call back here); otherwise it was counted with the
        #: caller's (``work.Work``).
        self.dynamic = dynamic
        #: The local of this frame that gets the value the rule gives
        #: (``GiveOp``), for a call made for its value.
        self.result = result

    def run(self, st: St, fr: Frame) -> bool:
        if self.dynamic:
            spend(st, st.prog.push_cost[self.code])
        frame = [self.code, self.start, fr[PLAYER]] + [None] * st.prog.nlocals[self.code]
        for i, arg in enumerate(self.args):
            frame[LOCALS + i] = arg(st, fr)
        if self.result is not None:
            fr[self.result] = None
            frame[st.prog.give_slot[self.code]] = self.result
        fr[PC] += 1
        st.push(frame)
        return True

    def emit(self, r: Writer, k: int) -> bool:
        prog = r.prog
        frame = ", ".join([str(self.code), str(self.start), f"fr[{PLAYER}]"] +
                          ["None"] * prog.nlocals[self.code])
        r.emit(r.D, r.at(self), f"_f = [{frame}]")
        for i, arg in enumerate(self.args):
            r.emit(r.D, f"_f[{LOCALS + i}] = {r.value(arg)}")
        if self.result is not None:
            r.emit(r.D, f"fr[{self.result}] = None", f"_f[{prog.give_slot[self.code]}] = {self.result}")
        # The callee's work was counted with this code's, or (a rule that can
        # call back here) is counted as it starts (``ops.CallOp``).  It runs at
        # once, inside this function's call; when it ends with this frame on
        # top again, go on here.  Otherwise (it waits, or the stack changed) the
        # machine takes over (``State._run``).
        cost = prog.push_cost[self.code] if self.dynamic else None
        r.emit(r.D, f"fr[{PC}] = {k + 1}", *r.push(cost),
               f"if not (R[{self.code}] or st.prog.runner({self.code}))(st, _f):", "    return False",
               "if st.stack[-1] is not fr:", "    return True", f"pc = {k + 1}")
        return True


class GiveOp(Op):
    """``give EXPR``: the rule's frame ends, and the frame that called it
    for its value gets the value in the local the call named (a call made
    as a statement named none: the value is not kept)."""

    __slots__ = ("value", "slot")

    def __init__(self, where: Where, value: Compiled, slot: int) -> None:
        super().__init__(where)
        self.value = value
        self.slot = slot    # this frame's local naming the caller's local

    def run(self, st: St, fr: Frame) -> bool:
        value = self.value(st, fr)
        stack = st.stack
        stack.pop()
        to = fr[self.slot]
        if to is not None:
            stack[-1][to] = value
        return True

    def emit(self, r: Writer, k: int) -> bool:
        # The frame ends: the machine (or the caller's inline call) goes on
        # in the caller, which is on top again.
        r.emit(r.D, r.at(self), f"_gv = {r.value(self.value)}", "st.stack.pop()",
               f"if fr[{self.slot}] is not None:", f"    st.stack[-1][fr[{self.slot}]] = _gv",
               "return True")
        return True


class TriggerAssign(Op):
    """Set a player's stat; when that makes a ``whenever`` condition become
    true for the player, run the trigger's body for them."""

    __slots__ = ("player", "assign", "triggers")

    def __init__(self, where: Where, player: Compiled, assign: Fn,
                 triggers: Sequence[Tuple[Compiled, int]]) -> None:
        super().__init__(where)
        self.player = player      # fn(st, fr) -> seat whose stat changes
        self.assign = assign      # fn(st, fr) -> None
        self.triggers = triggers  # [(cond(st, fr), code_id)]

    def run(self, st: St, fr: Frame) -> bool:
        p = self.player(st, fr)
        probe = [None, 0, p]
        before = [cond(st, probe) for cond, _ in self.triggers]
        self.assign(st, fr)
        fr[PC] += 1
        for (cond, code), was in zip(self.triggers, before):
            if not was and cond(st, probe):
                spend(st, st.prog.push_cost[code])
                st.push([code, 0, p] + [None] * st.prog.nlocals[code])
        return True




class ForEachCardOp(Op):
    """Step a ``for each card in PILE as c`` loop over the cards the pile
    held when the loop started: local ``work`` holds (those cards, the
    index of the next one)."""

    __slots__ = ("work", "var", "pile", "cond", "end")

    def __init__(self, where: Where, work: int, var: int, pile: Compiled, cond: Optional[Compiled],
                 end: Optional[int] = None) -> None:
        super().__init__(where)
        self.work, self.var, self.pile, self.cond, self.end = work, var, pile, cond, end

    def run(self, st: St, fr: Frame) -> bool:
        work = fr[self.work]
        cards, i = work if work is not None else (tuple(st.piles[self.pile(st, fr)]), 0)
        while i < len(cards):
            fr[self.var] = cards[i]
            i += 1
            if self.cond is None or self.cond(st, fr):
                fr[self.work] = (cards, i)
                fr[PC] += 1
                return True
        fr[self.work] = None
        fr[PC] = self.end
        return True

    def emit(self, r: Writer, k: int) -> bool:
        """One step of a 'for each' over the cards of a pile (``ops.ForEachCardOp``)."""
        r.emit(r.D, r.at(self), f"_w = fr[{self.work}]",
               f"_cards, _i = (tuple(st.piles[{r.value(self.pile)}]), 0) if _w is None else _w",
               "while _i < len(_cards):", f"    fr[{self.var}] = _cards[_i]", "    _i += 1",
               f"    if {r.cond(self.cond)}:", f"        fr[{self.work}] = (_cards, _i)",
               f"        pc = {k + 1}", "        break",
               "else:", f"    fr[{self.work}] = None", f"    pc = {self.end}")
        return True


class ForEachPieceOp(Op):
    """Step a ``for each PIECES as x`` loop: local ``work`` holds how many
    pieces it has looked at; ``var`` receives each piece that meets
    ``cond`` (the piece in scope is ``var``).  With ``among``, the pieces
    looked at are those it gives (a table's, ``queries.PieceQueries.looked_at``: the
    same at every step, so it is asked again as the loop resumes), else
    every piece of the set."""

    __slots__ = ("work", "var", "n", "cond", "among", "end")

    def __init__(self, where: Where, work: int, var: int, n: int, cond: Optional[Compiled],
                 among: Optional[Compiled] = None, end: Optional[int] = None) -> None:
        super().__init__(where)
        self.work, self.var, self.n, self.cond, self.among, self.end = work, var, n, cond, among, end

    def run(self, st: St, fr: Frame) -> bool:
        i = fr[self.work] or 0
        among = self.among(st, fr) if self.among is not None else None
        n = self.n if among is None else len(among)
        while i < n:
            fr[self.var] = i if among is None else among[i]
            i += 1
            if self.cond is None or self.cond(st, fr):
                fr[self.work] = i
                fr[PC] += 1
                return True
        fr[self.work] = None
        fr[PC] = self.end
        return True

    def emit(self, r: Writer, k: int) -> bool:
        """One step of a 'for each' over pieces (``ops.ForEachPieceOp``)."""
        if self.among is None:
            head = [f"while _i < {r.number(self.n)}:", f"    fr[{self.var}] = _i"]
        else:
            head = [f"_among = {r.value(self.among)}", "while _i < len(_among):",
                    f"    fr[{self.var}] = _among[_i]"]
        r.emit(r.D, r.at(self), f"_i = fr[{self.work}] or 0", *head,
               "    _i += 1", f"    if {r.cond(self.cond)}:",
               f"        fr[{self.work}] = _i", f"        pc = {k + 1}", "        break",
               "else:", f"    fr[{self.work}] = None", f"    pc = {self.end}")
        return True


class ForEachOp(Op):
    """Step a ``for each player`` loop.  Local ``work`` holds (seats looked
    at, the seat the loop started from) so the order stays fixed even if
    the body changes who plays first; local ``saved`` holds the player in
    scope before the loop; ``var`` (if any) receives each player."""

    __slots__ = ("work", "saved", "var", "other", "cond", "end")
    resumable = False

    def __init__(self, where: Where, work: int, saved: int, var: Optional[int], other: bool,
                 cond: Optional[Compiled], end: Optional[int] = None) -> None:
        super().__init__(where)
        self.work, self.saved, self.var, self.other, self.cond, self.end = \
            work, saved, var, other, cond, end

    def run(self, st: St, fr: Frame) -> bool:
        work = fr[self.work]
        if work is None:
            i, first = 0, st.prog.first_seat(st, fr)
            fr[self.saved] = fr[PLAYER]
        else:
            i, first = work
            fr[PLAYER] = fr[self.saved]
        n = st.n
        me = fr[self.saved]
        while i < n:
            seat = (first + i) % n
            i += 1
            if self.other and seat == me:
                continue
            if self.var is not None:
                fr[self.var] = seat
            else:
                fr[PLAYER] = seat
            if self.cond is None or self.cond(st, fr):
                fr[self.work] = (i, first)
                fr[PC] += 1
                return True
        fr[PLAYER] = fr[self.saved]
        fr[self.work] = None
        fr[PC] = self.end
        return True

    def emit(self, r: Writer, k: int) -> bool:
        """One step of a 'for each player' whose body may wait (``run``).
        Where seat 0 always plays first, the seats are 0, 1, … as they
        are; without a variable of its own the loop sets the player in
        scope before anything reads it, so it is not put back first."""
        set_seat = f"fr[{self.var}] = _sq" if self.var is not None else f"fr[{PLAYER}] = _sq"
        fixed = r.seat_0_first(r.prog)      # (the writer's: ops come before codegen)
        again: Tuple[str, ...] = ("    _i = _w[0]",) if fixed else ("    _i, _first = _w",)
        if self.var is not None:
            again += (f"    fr[{PLAYER}] = fr[{self.saved}]",)
        r.emit(r.D, r.at(self), f"_w = fr[{self.work}]", "if _w is None:",
               "    _i = 0" if fixed else f"    _i, _first = 0, {r.prog.first_seat_src}",
               f"    fr[{self.saved}] = fr[{PLAYER}]", "else:", *again,
               "_n = st.n", *([f"_me = fr[{self.saved}]"] if self.other else []), "while _i < _n:",
               "    _sq = _i" if fixed else "    _sq = (_first + _i) % _n", "    _i += 1")
        if self.other:
            r.emit(r.D + 1, "if _sq == _me:", "    continue")
        found = (f"fr[{self.work}] = (_i, {'0' if fixed else '_first'})", f"pc = {k + 1}", "break")
        if self.cond is None:
            r.emit(r.D + 1, set_seat, *found)
        else:
            r.emit(r.D + 1, set_seat, f"if {r.value(self.cond)}:", *["    " + x for x in found])
        r.emit(r.D, "else:", f"    fr[{PLAYER}] = fr[{self.saved}]", f"    fr[{self.work}] = None",
               f"    pc = {self.end}")
        return True


class CounterOp(Op):
    """``repeat N times``: local ``work`` counts down; jumps to ``end``
    when it reaches 0."""

    __slots__ = ("work", "times", "end")
    resumable = False

    def __init__(self, where: Where, work: int, times: Compiled, end: Optional[int] = None) -> None:
        super().__init__(where)
        self.work, self.times, self.end = work, times, end

    def run(self, st: St, fr: Frame) -> bool:
        left = fr[self.work]
        if left is None:
            left = self.times(st, fr)
        if left <= 0:
            fr[self.work] = None
            fr[PC] = self.end
            return True
        fr[self.work] = left - 1
        fr[PC] += 1
        return True

    def emit(self, r: Writer, k: int) -> bool:
        """One step of a 'repeat N times' (``ops.CounterOp``)."""
        r.emit(r.D, r.at(self), f"_w = fr[{self.work}]", "if _w is None:",
               f"    _w = {r.value(self.times)}", "if _w <= 0:", f"    fr[{self.work}] = None",
               f"    pc = {self.end}", "else:", f"    fr[{self.work}] = _w - 1", f"    pc = {k + 1}")
        return True


class ClearOp(Op):
    """Reset a loop's work local (used by ``stop``) and jump."""

    __slots__ = ("slots", "restore", "target")
    resumable = False

    def __init__(self, where: Where, slots: List[int], restore: Optional[int],
                 target: Optional[int] = None) -> None:
        super().__init__(where)
        self.slots, self.restore, self.target = slots, restore, target

    def run(self, st: St, fr: Frame) -> bool:
        if self.restore is not None:
            fr[PLAYER] = fr[self.restore]
        for s in self.slots:
            fr[s] = None
        fr[PC] = self.target
        return True

    def emit(self, r: Writer, k: int) -> bool:
        """'stop' in a loop that waits (``ops.ClearOp``)."""
        if self.restore is not None:
            r.emit(r.D, f"fr[{PLAYER}] = fr[{self.restore}]")
        for slot in self.slots:
            r.emit(r.D, f"fr[{slot}] = None")
        r.jump(r.D, k, self.target)
        return True


class EndTurnOp(Op):
    """End the turn.  In a ``whenever`` running for a player who is not the
    one taking the turn (or while nobody is: in setup, as a round begins),
    only that ``whenever`` ends."""

    def run(self, st: St, fr: Frame) -> bool:
        if fr[PLAYER] != st.turn_player:
            triggers = st.prog.trigger_codes
            stack = st.stack
            for i in range(len(stack) - 1, 0, -1):
                if stack[i][CODE] in triggers and stack[i][PLAYER] == fr[PLAYER]:
                    del stack[i:]
                    return True
        if st.turn_player is None:
            raise self.error(st, "'end turn' was reached outside a turn (in setup, or as a "
                                 "round begins)")
        st.end_turn()
        return True


class EndGameOp(Op):
    __slots__ = ("ending",)

    def __init__(self, where: Where, ending: str) -> None:
        super().__init__(where)
        self.ending = ending

    def run(self, st: St, fr: Frame) -> bool:
        st.finish(self.ending)
        return False


class PhaseOp(Op):
    """Start of a phase: skipped when ``skip`` named it this turn."""

    __slots__ = ("name", "end")
    resumable = False

    def __init__(self, where: Where, name: str, end: Optional[int] = None) -> None:
        super().__init__(where)
        self.name, self.end = name, end

    def run(self, st: St, fr: Frame) -> bool:
        if self.name in st.skips:
            if st.logging:
                st.note(fr[PLAYER], "skip", f"skips the {self.name} phase", self.name)
            fr[PC] = self.end
        else:
            if st.logging:
                st.note(fr[PLAYER], "phase", f"{self.name} phase", self.name)
            fr[PC] += 1
        return True

    def emit(self, r: Writer, k: int) -> bool:
        name = r.const(self.name)
        skip, phase = r.const(f"skips the {self.name} phase"), r.const(f"{self.name} phase")
        r.emit(r.D, f"if {name} in st.skips:",
               "    if st.logging:", f"        st.note(fr[{PLAYER}], 'skip', {skip}, {name})",
               f"    pc = {self.end}", "else:",
               "    if st.logging:", f"        st.note(fr[{PLAYER}], 'phase', {phase}, {name})",
               f"    pc = {k + 1}")
        if self.end <= k:  # type: ignore[operator]  # (set once the phase's ops are built)
            r.emit(r.D, f"if pc <= {k}:")
            r.back(r.D + 1)
        return True


def _endings(r: Writer, depth: int) -> None:
    """The endings, in order: the first that holds ends the game (asked
    about the player whose turn it is, or the first seat before any)."""
    prog = r.prog
    r.emit(depth, "_p = st.turn_player or 0")
    for (name, fn), src in zip(prog.endings, prog.endings_src):
        cond = src if src is not None else f"{r.const(fn)}(st, [None, 0, _p])"
        r.emit(depth, f"if {cond}:", f"    st.finish({r.const(name)})", "    return False")


class NextTurnOp(Op):
    """The turn loop: check the endings, find the next player to take a
    turn, reset their per-turn values, and run the turn.  It is written
    once, as the Python of ``emit``: generated code has it inline, and the
    op run alone (op by op) runs the same lines as a function of their own
    (``codegen.standalone``)."""

    def run(self, st: St, fr: Frame) -> bool:
        return st.prog.op_function(fr[CODE], fr[PC])(st, fr)

    def emit(self, r: Writer, k: int) -> bool:
        """The endings, the next seat whose turn it is (passing over those
        the turn's 'when' refuses), its per-turn values, and the turn's frame."""
        prog, d = r.prog, r.D
        endings = functools.partial(_endings, r)

        def first(depth: int) -> None:
            r.emit(depth, f"_first = {prog.first_seat_src}")

        r.emit(d, r.at(self))
        endings(d)
        rc = prog.round_code
        # A round pending its 'every round' has order_pos -2; once it has run, -1.
        r.emit(d, "if st.round == 0:", "    st.round = 1")
        if rc is not None:
            r.emit(d, "    st.order_pos = -2")
        r.emit(d, "_n = st.n", "_idle = 0")
        first(d)
        r.emit(d, "while True:")
        if rc is not None:
            frame = ", ".join([str(rc), "0", "0"] + ["None"] * prog.nlocals[rc])
            # As a round begins there is no turn: no turn's player either.
            r.emit(d + 1, "if st.order_pos == -2:", "    st.order_pos = -1", "    st.turn_player = None",
                   f"    fr[{PC}] = {k}", f"    _f = [{frame}]")
            r.emit(d + 2, *r.push(prog.push_cost[rc]),
                   f"if not (R[{rc}] or st.prog.runner({rc}))(st, _f):", "    return False",
                   "if st.stack[-1] is not fr:", "    return True")
            endings(d + 2)  # the round's start may end the game, or move who starts
            first(d + 2)
        r.emit(d + 1, "st.order_pos += 1")
        if prog.turn_until is not None:
            until = prog.turn_until_src or f"{r.const(prog.turn_until)}(st, [None, 0, _p])"
            idle = r.const("the turn's 'until' condition holds as every round begins: no round "
                           "has a turn")
            r.emit(d + 1, "if st.order_pos >= _n:", "    st.order_pos = 0",
                   f"if {until}:", "    st.order_pos = 0", "    st.round += 1", "    _idle += 1",
                   "    if _idle > st.limits.max_idle_seats:", f"        raise RuleFault({idle})")
        else:
            r.emit(d + 1, "if st.order_pos >= _n:", "    st.order_pos = 0", "    st.round += 1")
        endings(d + 2)      # a new round: an end that counts rounds may fire now
        first(d + 2)
        if rc is not None:
            r.emit(d + 2, "st.order_pos = -2", "continue")
        r.emit(d + 1, "_ts = (_first + st.order_pos) % _n")
        if prog.turn_when is not None:
            when = prog.turn_when_src or f"{r.const(prog.turn_when)}(st, [None, 0, _ts])"
            none_can = r.const("no player can take a turn (the turn's 'when' condition is false "
                               "for everyone)")
            r.emit(d + 1, f"if {when}:", "    break", "_idle += 1",
                   "if _idle > st.limits.max_idle_seats:", f"    raise RuleFault({none_can})")
            if prog.idle_cost > FEW_IDLE:
                r.spend(d + 1, prog.idle_cost)
        else:
            r.emit(d + 1, "break")
        r.emit(d, "st.turn_player = _ts")
        for (slot, fn), src in zip(prog.turn_init, prog.turn_init_src):
            value = src if src is not None else f"{r.const(fn)}(st, [None, 0, _ts])"
            r.emit(d, f"st.v[_ts * {prog.K} + {slot}] = {value}")
            if prog.player_stats[slot].sight is not None:
                r.emit(d, f"if st.shown: _unshow(st, _ts * {prog.K} + {slot})")
        frame = ", ".join([str(prog.turn_code), "0", "_ts"] + ["None"] * prog.nlocals[prog.turn_code])
        # The turn runs at once, inside this call (as a rule called does).  Its
        # work is counted as it begins, with that of the seats passed over if
        # they were few steps each (``ops.NextTurnOp``).
        tc = prog.turn_code
        turn_cost = prog.turn_cost
        if prog.turn_when is not None and prog.idle_cost <= FEW_IDLE:
            turn_cost = f"{turn_cost} + _idle * {prog.idle_cost}"
        r.emit(d, "st.skips = ()", "st.test = None", "if st.logging:",
               "    st.note(_ts, 'turn', f'round {st.round}: P{_ts}\\'s turn', _ts)",
               f"fr[{PC}] = {k}", f"_f = [{frame}]", *r.push(turn_cost),
               f"if not (R[{tc}] or st.prog.runner({tc}))(st, _f):", "    return False",
               "if st.stack[-1] is not fr:", "    return True", "continue")
        return True


class NoTurnOp(Op):
    """A ruleset with no turn: the game ends after setup (by an ending that
    holds, or as 'setup complete')."""

    def run(self, st: St, fr: Frame) -> bool:
        return st.prog.op_function(fr[CODE], fr[PC])(st, fr)

    def emit(self, r: Writer, k: int) -> bool:
        _endings(r, r.D)
        r.emit(r.D, f"st.finish({r.const('setup complete')})", "return False")
        return True
