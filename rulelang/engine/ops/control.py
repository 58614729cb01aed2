"""The ops of control: jumps, loops, calls of rules, phases and the turn
loop (the machine's ``run`` of each, and its generated code, ``emit``)."""

from __future__ import annotations

from .base import CODE, FEW_IDLE, LOCALS, PC, PLAYER, Op, spend


class Jump(Op):
    """Go to ``target``.  The jump back at the end of a loop's body counts
    ``cost``, the work of the next pass (``work.Work.loop_pass``)."""

    __slots__ = ("target", "cost")

    def __init__(self, where, target=None, cost=0):
        super().__init__(where)
        self.target = target
        self.cost = cost

    def run(self, st, fr):
        if self.cost:
            spend(st, self.cost)
        fr[PC] = self.target
        return True


class JumpUnless(Op):
    __slots__ = ("cond", "target")

    def __init__(self, where, cond, target=None):
        super().__init__(where)
        self.cond = cond
        self.target = target

    def run(self, st, fr):
        if self.cond(st, fr):
            fr[PC] += 1
        else:
            fr[PC] = self.target
        return True


class DispatchOp(Op):
    """Go to the row of a table that the roll in local 0 names."""

    __slots__ = ("targets", "end")

    def __init__(self, where, targets, end):
        super().__init__(where)
        self.targets, self.end = targets, end

    def run(self, st, fr):
        v = fr[LOCALS]
        fr[PC] = self.targets[v] if 0 <= v < len(self.targets) else self.end
        return True


class CallOp(Op):
    """Push a frame for another code (a rule, table or option)."""

    __slots__ = ("code", "nlocals", "start", "args", "dynamic")

    def __init__(self, where, code, nlocals=0, start=0, args=(), dynamic=True):
        super().__init__(where)
        self.code = code
        self.nlocals = nlocals
        self.start = start
        self.args = args   # fns giving the rule's parameters, its first locals
        #: Whether the callee's work is counted as it starts (a big rule, or
        #: one that can call back here); otherwise it was counted with the
        #: caller's (``work.Work``).
        self.dynamic = dynamic

    def run(self, st, fr):
        if self.dynamic:
            spend(st, st.prog.push_cost[self.code])
        frame = [self.code, self.start, fr[PLAYER]] + [None] * st.prog.nlocals[self.code]
        for i, arg in enumerate(self.args):
            frame[LOCALS + i] = arg(st, fr)
        fr[PC] += 1
        st.push(frame)
        return True


class TriggerAssign(Op):
    """Set a player's stat; when that makes a ``whenever`` condition become
    true for the player, run the trigger's body for them."""

    __slots__ = ("player", "assign", "triggers")

    def __init__(self, where, player, assign, triggers):
        super().__init__(where)
        self.player = player      # fn(st, fr) -> seat whose stat changes
        self.assign = assign      # fn(st, fr) -> None
        self.triggers = triggers  # [(cond(st, fr), code_id)]

    def run(self, st, fr):
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

    def __init__(self, where, work, var, pile, cond, end=None):
        super().__init__(where)
        self.work, self.var, self.pile, self.cond, self.end = work, var, pile, cond, end

    def run(self, st, fr):
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


class ForEachPieceOp(Op):
    """Step a ``for each PIECES as x`` loop: local ``work`` holds the index
    of the next piece to look at; ``var`` receives each piece that meets
    ``cond`` (the piece in scope is ``var``)."""

    __slots__ = ("work", "var", "n", "cond", "end")

    def __init__(self, where, work, var, n, cond, end=None):
        super().__init__(where)
        self.work, self.var, self.n, self.cond, self.end = work, var, n, cond, end

    def run(self, st, fr):
        i = fr[self.work] or 0
        while i < self.n:
            fr[self.var] = i
            i += 1
            if self.cond is None or self.cond(st, fr):
                fr[self.work] = i
                fr[PC] += 1
                return True
        fr[self.work] = None
        fr[PC] = self.end
        return True


class ForEachOp(Op):
    """Step a ``for each player`` loop.  Local ``work`` holds (seats looked
    at, the seat the loop started from) so the order stays fixed even if
    the body changes who plays first; local ``saved`` holds the player in
    scope before the loop; ``var`` (if any) receives each player."""

    __slots__ = ("work", "saved", "var", "other", "cond", "end")

    def __init__(self, where, work, saved, var, other, cond, end=None):
        super().__init__(where)
        self.work, self.saved, self.var, self.other, self.cond, self.end = \
            work, saved, var, other, cond, end

    def run(self, st, fr):
        work = fr[self.work]
        if work is None:
            i, first = 0, st.first_seat()
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


class CounterOp(Op):
    """``repeat N times``: local ``work`` counts down; jumps to ``end``
    when it reaches 0."""

    __slots__ = ("work", "times", "end")

    def __init__(self, where, work, times, end=None):
        super().__init__(where)
        self.work, self.times, self.end = work, times, end

    def run(self, st, fr):
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


class ClearOp(Op):
    """Reset a loop's work local (used by ``stop``) and jump."""

    __slots__ = ("slots", "restore", "target")

    def __init__(self, where, slots, restore, target=None):
        super().__init__(where)
        self.slots, self.restore, self.target = slots, restore, target

    def run(self, st, fr):
        if self.restore is not None:
            fr[PLAYER] = fr[self.restore]
        for s in self.slots:
            fr[s] = None
        fr[PC] = self.target
        return True


class EndTurnOp(Op):
    """End the turn.  In a ``whenever`` running for a player who is not the
    one taking the turn, only that ``whenever`` ends."""

    def run(self, st, fr):
        if st.turn_player is None:
            raise self.error(st, "'end turn' was reached outside a turn (during setup)")
        if fr[PLAYER] != st.turn_player:
            triggers = st.prog.trigger_codes
            stack = st.stack
            for i in range(len(stack) - 1, 0, -1):
                if stack[i][CODE] in triggers and stack[i][PLAYER] == fr[PLAYER]:
                    del stack[i:]
                    return True
        st.end_turn()
        return True


class EndGameOp(Op):
    __slots__ = ("ending",)

    def __init__(self, where, ending):
        super().__init__(where)
        self.ending = ending

    def run(self, st, fr):
        st.finish(self.ending)
        return False


class PhaseOp(Op):
    """Start of a phase: skipped when ``skip`` named it this turn."""

    __slots__ = ("name", "end")

    def __init__(self, where, name, end=None):
        super().__init__(where)
        self.name, self.end = name, end

    def run(self, st, fr):
        if self.name in st.skips:
            if st.logging:
                st.note(fr[PLAYER], "skip", f"skips the {self.name} phase", self.name)
            fr[PC] = self.end
        else:
            if st.logging:
                st.note(fr[PLAYER], "phase", f"{self.name} phase", self.name)
            fr[PC] += 1
        return True


class NextTurnOp(Op):
    """The turn loop: check the endings, find the next player to take a
    turn, reset their per-turn values, and run the turn."""

    def run(self, st, fr):
        game = st.prog
        if st.check_endings():
            return False
        if st.round == 0:
            st.round = 1
        n = st.n
        idle = 0
        when = game.turn_when
        first = st.first_seat()
        while True:
            st.order_pos += 1
            if st.order_pos >= n:
                st.order_pos = 0
                st.round += 1
                # A new round begins: an end that counts rounds may fire now.
                if st.check_endings():
                    return False
                first = st.first_seat()
            seat = (first + st.order_pos) % n
            if when is None or when(st, [None, 0, seat]):
                break
            idle += 1
            if idle > st.limits.max_idle_seats:
                raise self.error(st, "no player can take a turn (the turn's 'when' "
                                 "condition is false for everyone)")
            if game.idle_cost > FEW_IDLE:
                spend(st, game.idle_cost)
        spend(st, game.turn_cost + (idle * game.idle_cost if game.idle_cost <= FEW_IDLE else 0))
        st.start_turn(seat)
        st.push([game.turn_code, 0, seat] + [None] * game.nlocals[game.turn_code])
        return True


class NoTurnOp(Op):
    """A ruleset with no turn: the game ends after setup."""

    def run(self, st, fr):
        if not st.check_endings():
            st.finish("setup complete")
        return False
