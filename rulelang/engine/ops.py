"""The instructions of the rule machine.

A compiled rule is a list of ops.  The machine's state is plain data: a
stack of frames ``[code_id, pc, player, local0, local1, ...]`` plus the
game's values, piles and random generator.  An op's ``run(st, fr)`` does its
work and returns True to go on, or False when the game must wait for a
decision or a chance outcome; the op at the top frame's pc then answers
``moves(st, fr)`` and takes the chosen move in ``resume(st, fr, data)``.
Because the machine state is plain lists, a state clones and serializes
cheaply and exactly.
"""

from __future__ import annotations

import functools
from fractions import Fraction

from ..errors import RulesetRuntimeError
from .visibility import EVERYONE, NOBODY, either, pile_name, pile_seen_by, seen_by_pile, sees

# Frame layout.
CODE, PC, PLAYER, LOCALS = 0, 1, 2, 3

# What a waiting state waits for.
WAIT_NONE, WAIT_CHANCE, WAIT_DECISION = 0, 1, 2

M64 = (1 << 64) - 1

RUNAWAY = ("the rules ran %d steps without reaching a decision (an endless loop? "
           "Limits.max_steps bounds the work between two moves)")


class RuleFault(Exception):
    """Something a rule did at run time went past a limit or cannot be
    done; the machine reports it as a ``RulesetRuntimeError`` at the op."""


# ------------------------------------------------------------------ work
#
# ``st.steps`` counts the work done since the move began (``State.wait``
# ends a move's count), against ``Limits.max_steps``.  Work known before it
# is done is counted before it starts, as one constant worked out when the
# ruleset is compiled (``work.Work``): a frame when it starts (its
# statements, its locals, the dice it rolls, the cards and pieces its
# questions look at, the small rules it calls), a loop's next pass at each
# jump back, a turn as it begins.  Work known only while playing is
# counted as it comes: the cards a draw from a big pile may take (and each
# refill of its deck), the dice of a pool and of a roll-off, the dice a
# pool question looks at, a big or recursive rule called.  Generated code
# (``codegen``) counts the same work at the same points.


#: What some work counts, in steps: a step is about the time generated code
#: takes to work out one value (tens of nanoseconds), and these are about as
#: many steps as each takes (their log entries included).
DIE = 16            # a die rolled by a roll, a table or a test
POOL_DIE = 32       # a die of a pool ('roll N dice d6')
ROLL_OFF_DIE = 100  # a die of a roll-off
CARD = 40           # a card drawn
LOG = 40            # a log entry
SHOWN = 8           # a value placed in a log line
CALL = 10           # a rule, table or option called (its work besides)
FRAME = 100         # a frame the machine starts (a reaction, an 'on draw', a big rule)
TURN = 100          # a turn

#: Seats passed over by the turn's 'when' at most this many steps each are
#: counted with the turn they lead to (at most ``max_idle_seats`` of them);
#: dearer ones, one by one.
FEW_IDLE = 100


def spend(st, work):
    """Count ``work`` (a whole number, at least 0); past the limit, stop."""
    st.steps += work
    if st.steps > st.limits.max_steps:
        raise RuleFault(RUNAWAY % st.limits.max_steps)


def draw_work(n, cards, per_card):
    """The work of drawing ``n`` cards from a pile of ``cards`` cards: each
    draw takes ``per_card`` (the card, and the 'on draw' questions about
    it) and finds the card's first copy in the pile (a scan, counted an
    eighth of a step a card)."""
    return max(0, min(n, cards)) * (per_card + (cards >> 3))


#: A log entry counts one more against ``Limits.max_log_entries`` for each
#: this many characters of its text (so the log's size is bounded, not only
#: its length).
LOG_CHARACTERS = 100


def logged(st, entry):
    """The log's new last node with ``entry``: (entry, the node before,
    the log's size: its entries, each counting one more for every
    LOG_CHARACTERS characters).  Past ``Limits.max_log_entries``, stop."""
    tail = st.log_tail
    n = 1 + len(entry.text) // LOG_CHARACTERS
    if tail is not None and len(tail) > 2:
        n += tail[2]
    else:                   # a log rebuilt as pairs (a restored one): sized once
        node = tail
        while node is not None:
            n += 1 + len(node[0].text) // LOG_CHARACTERS
            node = node[1]
    if n > st.limits.max_log_entries:
        raise RuleFault(f"the game's log would hold more than {st.limits.max_log_entries} "
                        f"entries (Limits.max_log_entries)")
    return (entry, tail, n)


def take_cards(a, b, cards, missing, names):
    """Move ``cards`` (card ids, in order) from pile ``a`` to the end of
    pile ``b``, each from its first place in ``a``, as one ``a.remove`` a
    card would, but in one pass over ``a``.  A card ``a`` does not hold is a
    ``RuleFault`` (``missing % its name``), for the first such card."""
    need = {}
    for c in cards:
        need[c] = need.get(c, 0) + 1
    have = dict.fromkeys(need, 0)
    for c in a:
        if c in have:
            have[c] += 1
    for c in cards:
        have[c] -= 1
        if have[c] < 0:
            raise RuleFault(missing % names[c])
    kept = []
    for c in a:
        left = need.get(c)
        if left:
            need[c] = left - 1
        else:
            kept.append(c)
    a[:] = kept
    b.extend(cards)


#: Chosen cards moved one by one (``list.remove``) up to this many; more go
#: through ``take_cards`` (in a game of more than ``FEW_CARDS`` cards).
ONE_BY_ONE = 8

#: In a game of at most this many cards, a statement that draws, moves or
#: looks at cards does so little that its work is counted at compile time,
#: as for the most cards there are (``work.Work``); in a bigger game a
#: draw from a pile of more cards counts them as it starts (``draw_work``).
FEW_CARDS = 64


def roll_label(value):
    """The label of the chance move for a die result (explicit mode)."""
    return f"roll {value}"


def draw_label(st, card):
    """The label of the chance move for drawing ``card`` (explicit mode)."""
    return f"draw {st.prog.card_labels[card]}"


#: splitmix64's constants (``rand_below``; generated code writes the same steps).
GAMMA, MIX1, MIX2 = 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB


def rand_below(st, n):
    """A uniform integer in [0, n) from the state's counter-based generator
    (splitmix64), so the generator's whole state is one integer."""
    r = st.rng + 1
    st.rng = r
    z = (st.seed + r * GAMMA) & M64
    z = ((z ^ (z >> 30)) * MIX1) & M64
    z = ((z ^ (z >> 27)) * MIX2) & M64
    return ((z ^ (z >> 31)) * n) >> 64


class Op:
    """Base op: straight-line work done by ``fn``."""

    __slots__ = ("where",)
    waits = False

    def __init__(self, where):
        self.where = where  # (rule name, ir.Pos) for error messages

    def choices(self, st, fr):
        """The values of the moves legal here, without their labels (for
        ``Game.playouts``); in the order of ``moves``."""
        return [value for _, _, value in self.moves(st, fr)]

    def move_list(self, st, fr, player, make):
        """The moves legal here as objects: ``make(moves, player)`` of what
        ``moves`` lists (``State.legal_moves``).  An op whose choices repeat
        keeps them: the objects are never changed."""
        return make(self.moves(st, fr), player)

    def error(self, st, message):
        """A runtime error that names this op's rule, file and line."""
        rule, pos = self.where
        prog = st.prog
        return RulesetRuntimeError.at(
            prog.filename, pos.line if pos else 1, pos.column if pos else 1,
            f"in {rule}: {message}", prog.source)


class Policy:
    """A uniform random chooser for ``Game.playouts``: a counter-based
    generator like the state's own (``rand_below``), seeded apart from it."""

    __slots__ = ("seed", "rng")

    def __init__(self, seed):
        self.seed = (seed * 0xD1B54A32D192ED03 + 0x8BB84B93962EACC9) & M64
        self.rng = 0


class PureFault(Exception):
    """Raised by generated code (``codegen``): the place ``(rule, pos)`` of
    the statement or op that failed, and the error."""

    def __init__(self, where, error):
        super().__init__(where, error)
        self.where, self.error = where, error


class _At(Op):
    """Stands for one statement inside a ``PureOp``, to name its line."""


class PureOp(Op):
    """A run of statements that never wait (``compile.PureBlock``): lines of
    generated Python, part of their code's generated function
    (``codegen``).  Run on its own, it is made into a function first."""

    __slots__ = ("lines", "wheres", "env", "make", "fn")

    def __init__(self, where, lines, wheres, env, make):
        super().__init__(where)
        # ``env``: what the lines can name (``compile.Program.gen_env``);
        # ``make``: what turns the op into its function (``codegen.pure_function``).
        self.lines, self.wheres, self.env, self.make, self.fn = lines, wheres, env, make, None

    def call(self, st, fr):
        """Carry out the statements (for an op that holds them: a reroll's
        cost, an assignment a 'whenever' watches)."""
        if self.fn is None:
            self.fn = self.make(self)
        self.fn(st, fr)

    def run(self, st, fr):
        if self.fn is None:
            self.fn = self.make(self)
        try:
            self.fn(st, fr)
        except PureFault as e:
            raise fault(st, _At(e.where), e.error) from e.error
        fr[PC] += 1
        return True


def fault(st, op, e):
    """The ``RulesetRuntimeError`` for exception ``e`` raised inside ``op``:
    it names the rule, the file and the line."""
    if isinstance(e, RuleFault):
        return op.error(st, str(e))
    if isinstance(e, RecursionError):
        return op.error(st, "the rules nest too deeply")
    return op.error(st, f"{type(e).__name__}: {e}")


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


# ------------------------------------------------------------------ chance


class RollOp(Op):
    """Roll ``count`` dice of ``sides`` into a local (their sum).  In
    explicit mode this waits for a chance outcome; during a turn the
    ruleset's reroll rule may then offer the turn's player a reroll."""

    __slots__ = ("count", "sides", "slot", "why", "dist", "kept")
    waits = True

    def __init__(self, where, count, sides, slot, why):
        super().__init__(where)
        self.count = count
        self.sides = sides
        self.slot = slot
        self.why = why
        self.dist = None    # the outcomes and their chances, worked out when first asked
        self.kept = {}      # (die kept or rerolled, or None, player) -> its moves

    def run(self, st, fr):
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

    def got(self, st, fr, value):
        fr[self.slot] = value
        if st.logging:
            st.note(fr[PLAYER], "roll", f"{self.why}: rolled {value}", value)
        rr = st.prog.reroll
        if rr is not None and st.turn_player is not None and rr[0](st, [None, 0, st.turn_player]):
            st.wait(WAIT_DECISION, st.turn_player)
            st.rerolling = True
            return False
        fr[PC] += 1
        return True

    def moves(self, st, fr):
        if st.rerolling:
            v = fr[self.slot]
            return [(f"keep {v}", None, "keep"), (f"reroll {v}", None, "reroll")]
        return [(roll_label(v), p, v) for v, p in self.outcomes()]

    def outcomes(self):
        """(total, probability) of each total, lowest first."""
        if self.dist is None:
            self.dist = _sum_distribution(self.count, self.sides)
        return self.dist

    def move_list(self, st, fr, player, make):
        key = (fr[self.slot], player) if st.rerolling else (None, player)
        found = self.kept.get(key)
        if found is None:
            found = self.kept[key] = super().move_list(st, fr, player, make)
        return found

    def choices(self, st, fr):
        if st.rerolling:
            return _KEEP_OR_REROLL
        return [v for v, _ in self.outcomes()]

    def resume(self, st, fr, data):
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


@functools.lru_cache(maxsize=64)
def _sum_distribution(count, sides):
    """Exact distribution of the sum of ``count`` dice (small pools only):
    ((total, probability), ...), lowest total first.  One die at a time,
    each total's ways from running sums (count × count × sides steps)."""
    if count * sides > 10_000 or count > 100:
        return None
    ways = [1]                  # ways[t]: the ways to make total t
    for _ in range(count):
        run = [0]
        for w in ways:
            run.append(run[-1] + w)
        top = len(ways)         # run[i] = ways of the totals below i
        ways = [run[min(t, top)] - run[max(t - sides, 0)] for t in range(top + sides)]
    whole = sides ** count
    return tuple((t, Fraction(w, whole)) for t, w in enumerate(ways) if w)


_KEEP_OR_REROLL = ("keep", "reroll")


class RollOffOp(Op):
    """Every player rolls; players tied for the highest roll roll again until
    one is highest.  The winner (a seat) goes into ``slot``.  Progress is
    kept in local ``work`` as a tuple (contenders..., None, rolls...)."""

    __slots__ = ("sides", "slot", "work")
    waits = True

    def __init__(self, where, sides, slot, work):
        super().__init__(where)
        self.sides = sides
        self.slot = slot
        self.work = work

    def run(self, st, fr):
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

    def _add(self, st, fr, value):
        contenders, rolls = fr[self.work]
        if st.logging:
            st.note(contenders[len(rolls)], "roll", f"P{contenders[len(rolls)]} rolls {value} for the roll-off", value)
        fr[self.work] = (contenders, rolls + (value,))

    def moves(self, st, fr):
        p = Fraction(1, self.sides)
        return [(roll_label(v), p, v) for v in range(1, self.sides + 1)]

    def resume(self, st, fr, data):
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

    def __init__(self, where, count, src, dst, refill, hooks=(), per_card=1):
        super().__init__(where)
        self.count = count
        self.src = src      # fn(st, fr) -> pile index
        self.dst = dst
        self.refill = refill  # pile index or None
        self.hooks = hooks    # the deck's 'on draw' rules: (cond or None, code)
        #: The work of each card drawn (see ``draw_work``; the draw
        #: statement counts it for the cards in the deck when it starts).
        self.per_card = per_card

    def run(self, st, fr):
        piles = st.piles
        src = piles[self.src(st, fr)]
        while True:
            if fr[self.count] <= 0:
                fr[PC] += 1
                return True
            if not src and self.refill is not None and piles[self.refill]:
                src.extend(piles[self.refill])
                piles[self.refill].clear()
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

    def _take(self, st, fr, src, i):
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
    def drawn_seen_by(st, fr):
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

    def moves(self, st, fr):
        src = st.piles[self.src(st, fr)]
        counts = {}
        for c in src:
            counts[c] = counts.get(c, 0) + 1
        n = len(src)
        return [(draw_label(st, c), Fraction(k, n), c) for c, k in sorted(counts.items())]

    def resume(self, st, fr, data):
        st.waiting = WAIT_NONE
        src = st.piles[self.src(st, fr)]
        if self._take(st, fr, src, src.index(data)):
            return True
        return self.run(st, fr)


# ---------------------------------------------------------------- decisions


class ChoiceOp(Op):
    """A decision whose answer goes into local ``slot``: the log shows
    '{prompt}: {shown answer}' and the rule goes on after it."""

    __slots__ = ()

    def shown(self, st, value):
        return str(value)

    def resume(self, st, fr, data):
        st.waiting = WAIT_NONE
        fr[self.slot] = data
        if st.logging:
            self.log_choice(st, fr, data)
        fr[PC] += 1
        return True

    def log_choice(self, st, fr, data):
        st.note(fr[PLAYER], "choose", f"{self.prompt}: {self.shown(st, data)}", data)


def refuse_blind(op, st, fr, index):
    """A player may choose only among cards it sees: a choice among the
    cards of a pile hidden from it would name them in its moves (and their
    number would tell how many kinds it holds).  A card taken unseen is a
    random one: ``draw``."""
    if not sees(seen_by_pile(st)[index], fr[PLAYER]):
        raise RuleFault(f"'{op.prompt}': P{fr[PLAYER]} is to choose among the cards of "
                        f"{pile_name(st, index)}, which it may not see (to take a card unseen, "
                        f"draw one at random: 'draw 1 from PILE to PILE')")


def log_card_choice(op, st, fr, data, index, public, public_value):
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

    def __init__(self, where, low, high, pile, slot, prompt):
        super().__init__(where)
        self.low, self.high, self.pile, self.slot, self.prompt = low, high, pile, slot, prompt
        self.cache = {}     # (sorted pile, low, high) -> moves: hands repeat, so do their choices
        self.fixed = False  # whether low and high are plain numbers (set by the compiler)
        #: whether the pile may be hidden from the chooser (a deck, a hidden
        #: pile): checked before waiting (``refuse_blind``; set by the compiler)
        self.guard = True
        self.held = 0       # the moves the cache holds

    def run(self, st, fr):
        if self.guard:
            refuse_blind(self, st, fr, self.pile(st, fr))
        st.wait(WAIT_DECISION, fr[PLAYER])
        return False

    def log_choice(self, st, fr, data):
        k = len(data)
        log_card_choice(self, st, fr, data, self.pile(st, fr),
                        "nothing" if not k else "1 card" if k == 1 else f"{k} cards", k)

    def moves(self, st, fr):
        return self._cached(st, fr)[0]

    def move_list(self, st, fr, player, make):
        per_player = self._cached(st, fr)[2]
        found = per_player.get(player)
        if found is None:
            found = per_player[player] = super().move_list(st, fr, player, make)
        return found

    def choices(self, st, fr):
        return self._cached(st, fr)[1]

    def _cached(self, st, fr):
        """(moves, their values) for this hand and these bounds."""
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

    def _moves(self, st, cards, low, high):
        have = {}
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

    def shown(self, st, value):     # the value is a tuple of cards (a move's own)
        names = st.prog.card_names
        return ", ".join(names[c] for c in value) if value else "nothing"


#: The most moves one op's cache of card choices keeps (then it starts
#: again): hands repeat, but a cache of every hand seen must not grow
#: without end.
CACHED_MOVES = 100_000


class _TooMany(Exception):
    pass


def _multisets(kinds, have, low, high, most):
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
    out = []
    if high <= 32:
        def extend(start, combo, need, run):
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
        stack = [(0, (), size, 0)]     # (first kind allowed, combo, cards still to pick, copies of combo[-1])
        while stack:
            start, combo, need, run = stack.pop()
            if need == 0:
                out.append(combo)
                if len(out) > most:
                    return None
                continue
            children = []
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

    __slots__ = ("labels", "targets", "prompt", "option", "conds", "end")
    waits = True

    def __init__(self, where, labels, targets, prompt, option=None):
        super().__init__(where)
        self.labels = labels
        self.targets = targets
        self.prompt = prompt
        self.option = option
        self.conds = None
        self.end = None

    def offered(self, st, fr):
        if self.conds is None:
            return range(len(self.labels))
        return [i for i, c in enumerate(self.conds) if c is None or c(st, fr)]

    def run(self, st, fr):
        if self.option is not None:
            preset = st.preset_option(self.option, fr[PLAYER])
            if preset is not None:
                return self._pick(st, fr, self.labels.index(preset))
        if self.conds is not None and not self.offered(st, fr):
            fr[PC] = self.end
            return True
        st.wait(WAIT_DECISION, fr[PLAYER])
        return False

    def moves(self, st, fr):
        return [(self.labels[i], None, i) for i in self.offered(st, fr)]

    def choices(self, st, fr):
        return self.offered(st, fr)

    def _pick(self, st, fr, i):
        if st.logging:
            st.note(fr[PLAYER], "choose", f"{self.prompt}: {self.labels[i]}", self.labels[i])
        fr[PC] = self.targets[i]
        return True

    def resume(self, st, fr, data):
        st.waiting = WAIT_NONE
        return self._pick(st, fr, data)


class ChooseRowOp(Op):
    """Pick a row of a table and apply it as if rolled."""

    __slots__ = ("table_code", "rows", "prompt")
    waits = True

    def __init__(self, where, table_code, rows, prompt):
        super().__init__(where)
        self.table_code = table_code
        self.rows = rows  # [(label, value, start_pc)]
        self.prompt = prompt

    def run(self, st, fr):
        if not self.rows:
            raise RuleFault(f"{self.prompt}: no row of the table covers the rolls asked for")
        st.wait(WAIT_DECISION, fr[PLAYER])
        return False

    def moves(self, st, fr):
        return [(label, None, i) for i, (label, _, _) in enumerate(self.rows)]

    def resume(self, st, fr, data):
        st.waiting = WAIT_NONE
        label, value, start = self.rows[data]
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

    def __init__(self, where, prompt, target=None):
        super().__init__(where)
        self.prompt = prompt
        self.target = target

    def run(self, st, fr):
        st.wait(WAIT_DECISION, fr[PLAYER])
        return False

    def moves(self, st, fr):
        return [(f"{self.prompt}: yes", None, True), (f"{self.prompt}: no", None, False)]

    def choices(self, st, fr):
        return (True, False)

    def resume(self, st, fr, data):
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

    __slots__ = ("low", "high", "slot", "prompt")
    waits = True

    def __init__(self, where, low, high, slot, prompt):
        super().__init__(where)
        self.low, self.high, self.slot, self.prompt = low, high, slot, prompt

    def bounds(self, st, fr):
        lo, hi = self.low(st, fr), self.high(st, fr)
        if hi - lo + 1 > st.limits.max_choices:
            raise RuleFault(f"{self.prompt}: {hi - lo + 1} numbers to choose from; the limit "
                            f"is {st.limits.max_choices}")
        return lo, hi

    def run(self, st, fr):
        lo, hi = self.bounds(st, fr)
        if hi <= lo:
            fr[self.slot] = lo
            fr[PC] += 1
            return True
        st.wait(WAIT_DECISION, fr[PLAYER])
        return False

    def moves(self, st, fr):
        lo, hi = self.bounds(st, fr)
        return [(f"{self.prompt}: {n}", None, n) for n in range(lo, hi + 1)]

    def choices(self, st, fr):
        lo, hi = self.bounds(st, fr)
        return range(lo, hi + 1)



# ---------------------------------------------------------------- control


class PickPieceOp(Op):
    """``pick one workers at random as w``: a chance draw among the pieces
    ``matching(st, fr)`` lists (equally likely), into ``slot``; none
    without a draw when nothing matches."""

    __slots__ = ("matching", "names", "slot")
    waits = True

    def __init__(self, where, matching, names, slot):
        super().__init__(where)
        self.matching, self.names, self.slot = matching, names, slot

    def run(self, st, fr):
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

    def _take(self, st, fr, i):
        fr[self.slot] = i
        if i is not None:
            if st.logging:
                st.note(fr[PLAYER], "pick", f"draws {self.names[i]} at random", i)
        fr[PC] += 1
        return True

    def moves(self, st, fr):
        found = self.matching(st, fr)
        p = Fraction(1, len(found))
        return [(f"draw {self.names[i]}", p, i) for i in found]

    def resume(self, st, fr, data):
        st.waiting = WAIT_NONE
        return self._take(st, fr, data)


class PoolOp(Op):
    """``roll N dice d6``: roll N dice one at a time (a chance node each in
    explicit mode) and keep their faces, as a tuple, in ``slot``.  Local
    ``work`` holds the faces rolled so far and how many are still to come."""

    __slots__ = ("count", "sides", "slot", "work")
    waits = True

    def __init__(self, where, count, sides, slot, work):
        super().__init__(where)
        self.count, self.sides, self.slot, self.work = count, sides, slot, work

    def run(self, st, fr):
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
            st.note(fr[PLAYER], "pool", f"rolls {len(faces)}d{self.sides}: "
                                        f"{', '.join(map(str, faces)) or 'no dice'}", faces)
        fr[PC] += 1
        return True

    def moves(self, st, fr):
        p = Fraction(1, self.sides)
        return [(roll_label(v), p, v) for v in range(1, self.sides + 1)]

    def resume(self, st, fr, data):
        st.waiting = WAIT_NONE
        faces, left = fr[self.work]
        fr[self.work] = (faces + (data,), left - 1)
        return self.run(st, fr)


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


class ChooseOneOfOp(ChoiceOp):
    """The player in scope picks one of the things (pieces, or kinds of card
    in a pile) that ``matching(st, fr)`` lists; it goes into ``slot`` — or
    none, without a decision, when nothing matches.  ``label(st, x)`` names
    a thing in the log; a move's label is ``prefix`` and that name."""

    __slots__ = ("matching", "label", "slot", "prompt", "prefix", "pile")
    waits = True

    def __init__(self, where, matching, label, slot, prompt, prefix="", pile=None):
        super().__init__(where)
        self.matching, self.label, self.slot, self.prompt = matching, label, slot, prompt
        self.prefix = prefix
        #: for a card: fn(st, fr) -> the index of the pile it is chosen from
        self.pile = pile

    def run(self, st, fr):
        if self.pile is not None:
            refuse_blind(self, st, fr, self.pile(st, fr))
        if not self.matching(st, fr):
            fr[self.slot] = None
            fr[PC] += 1
            return True
        st.wait(WAIT_DECISION, fr[PLAYER])
        return False

    def moves(self, st, fr):
        return [(self.prefix + self.label(st, x), None, x) for x in self.matching(st, fr)]

    def choices(self, st, fr):
        return self.matching(st, fr)

    def shown(self, st, value):
        return self.label(st, value)

    def log_choice(self, st, fr, data):
        if self.pile is None:
            st.note(fr[PLAYER], "choose", f"{self.prompt}: {self.shown(st, data)}", data)
        else:
            log_card_choice(self, st, fr, data, self.pile(st, fr), "a card", None)


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
