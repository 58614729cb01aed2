"""The instructions of the rule machine: what every op shares (the frame
layout, work, faults, the random generator, the base ``Op`` and
``PureOp``, a run of plain statements).

Because the machine state is plain lists, a state clones and serializes
cheaply and exactly.
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Sequence, Tuple

from ...errors import RulesetError, RulesetRuntimeError
from ..kinds import Fn, Frame, St, Where

try:        # (hashlib's own BLAKE2b, without loading OpenSSL as hashlib does)
    from _blake2 import blake2b as _blake2b
except ImportError:     # pragma: no cover  (a Python built without it)
    from hashlib import blake2b as _blake2b

# Frame layout.
CODE, PC, PLAYER, LOCALS = 0, 1, 2, 3

# What a waiting state waits for.
WAIT_NONE, WAIT_CHANCE, WAIT_DECISION = 0, 1, 2

M64 = (1 << 64) - 1

#: The moves legal at an op that waits: (label, probability or None for a
#: decision, the value its ``resume`` takes).
Moves = List[Tuple[str, Any, Any]]

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


def spend(st: St, work: int) -> None:
    """Count ``work`` (a whole number, at least 0); past the limit, stop."""
    st.steps += work
    if st.steps > st.limits.max_steps:
        raise RuleFault(RUNAWAY % st.limits.max_steps)


def draw_work(n: int, cards: int, per_card: int) -> int:
    """The work of drawing ``n`` cards from a pile of ``cards`` cards: each
    draw takes ``per_card`` (the card, and the 'on draw' questions about
    it) and finds the card's first copy in the pile (a scan, counted an
    eighth of a step a card)."""
    return max(0, min(n, cards)) * (per_card + (cards >> 3))


#: A log entry counts one more against ``Limits.max_log_entries`` for each
#: this many characters of its text (so the log's size is bounded, not only
#: its length).
LOG_CHARACTERS = 100


def logged(st: St, entry: Any) -> Tuple[Any, Any, int]:
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


def take_cards(a: List[int], b: List[int], cards: Sequence[int], missing: str,
               names: Sequence[str]) -> None:
    """Move ``cards`` (card ids, in order) from pile ``a`` to the end of
    pile ``b``, each from its first place in ``a``, as one ``a.remove`` a
    card would, but in one pass over ``a``.  A card ``a`` does not hold is a
    ``RuleFault`` (``missing % its name``), for the first such card."""
    need: Dict[int, int] = {}
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
    kept: List[int] = []
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


def roll_label(value: object) -> str:
    """The label of the chance move for a die result (explicit mode)."""
    return f"roll {value}"


def draw_label(st: St, card: int) -> str:
    """The label of the chance move for drawing ``card`` (explicit mode)."""
    return f"draw {st.prog.card_labels[card]}"


_EIGHT = struct.Struct("<8Q").unpack
_SEED_AND_BLOCK = struct.Struct("<QQ").pack

#: What a state holds before its generator made a block (``State.block``).
NO_BLOCK: Tuple[Any, int, Tuple[int, ...]] = (None, -1, ())


def random_block(seed: int, block: int) -> Tuple[int, int, Tuple[int, ...]]:
    """(``seed``, ``block``, the eight 64-bit numbers of that block of the
    generator of ``seed``): BLAKE2b of the seed and the block's number,
    eight bytes each (little-endian), its 64-byte digest read as eight
    numbers.  The generator is counter-based: its ``r``-th number is
    number ``r % 8`` of block ``r // 8``, so a state's whole generator is
    (seed, counter), and any number is made at once from them.  A standard
    hash gives the same numbers on every machine and Python version, and
    one call in C makes eight (each in about a third of the time
    splitmix64's arithmetic on Python's big integers took).  A state keeps
    the block it last made (``State.block``: a memo, not part of the game;
    it names its seed and number, so one left from another seed or
    counter is never read)."""
    return seed, block, _EIGHT(_blake2b(_SEED_AND_BLOCK(seed, block)).digest())   # (64 bytes)


def rand_below(st: St, n: int) -> int:
    """A uniform integer in [0, n) from the state's generator: its next
    number (``random_block``) times n, over 2**64."""
    r = st.rng + 1
    st.rng = r
    b = st.block
    if b[1] != r >> 3 or b[0] != st.seed:
        b = st.block = random_block(st.seed, r >> 3)
    return (b[2][r & 7] * n) >> 64


#: The most move lists, and the most moves in them, one op keeps
#: (``Op.keep``); past either, it starts again.  (Bounded by moves, many
#: short lists are kept: a number chosen from ranges that vary with the
#: players still in; a few long ones cannot fill the memory.)  A choice
#: among things keeps fewer lists (``MOST_KEPT_THINGS``): a hand of cards
#: or a board's empty cells seldom recur, and lists kept longer only cost.
MOST_KEPT, MOST_KEPT_MOVES, MOST_KEPT_THINGS = 4096, 16_384, 256


class Op:
    """Base op: straight-line work done by ``fn``."""

    __slots__ = ("where", "kept", "kept_moves")
    waits = False
    #: Whether the machine may come back to this op (it waits, calls a
    #: rule, or changes the stack): generated code then dispatches to it
    #: (``Runner.leaders``).  Jumps, tests and loop steps are only ever
    #: reached by falling through or by a jump.
    resumable = True

    if TYPE_CHECKING:
        # What an op that can wait has (the others never wait for a move).
        def moves(self, st: St, fr: Frame) -> Moves: ...

    def __init__(self, where: Where) -> None:
        self.where = where  # (rule name, ir.Pos) for error messages
        #: (``move_key``, player) -> the moves made for it (``move_list``),
        #: as ``State._legal`` keeps them, ``(moves, None, op)``: the
        #: generated code puts them in place as it waits (``Runner.ready``),
        #: so that the move needs no lookup
        self.kept: Dict[Any, Any] = {}
        self.kept_moves = 0     # (how many moves the lists in ``kept`` hold)

    def choices(self, st: St, fr: Frame) -> Sequence[Any]:
        """The values of the moves legal here, without their labels (for
        ``Game.playouts``); in the order of ``moves`` (a list, a tuple or a
        range: ``playouts`` only indexes it and takes its length)."""
        return [value for _, _, value in self.moves(st, fr)]

    def move_key(self, st: St, fr: Frame) -> Any:
        """What the moves legal here depend on, as a key (hashable); None
        when they are made afresh each time.  Positions that give the same
        key are offered the same moves (``move_list``)."""
        return None

    def move_list(self, st: St, fr: Frame, player: Optional[int],
                  make: Callable[[Any, Optional[int]], Any]) -> Any:
        """The moves legal here as objects: ``make(moves, player)`` of what
        ``moves`` lists (``State.legal_moves``).  The list made for a
        ``move_key`` is kept and handed out again (its objects are never
        changed), so a decision that recurs builds no moves."""
        key = self.move_key(st, fr)
        if key is None:
            return make(self.moves(st, fr), player)
        key = (key, player)
        kept = self.kept
        found = kept.get(key)
        if found is None:
            return self.keep(key, make(self.moves(st, fr), player))
        return found[0]

    def keep(self, key: Any, moves: List[Any], lists: int = MOST_KEPT) -> List[Any]:
        """Keep ``moves`` under ``key`` in ``kept`` (as ``State._legal``
        holds them), starting again past ``lists`` lists or
        ``MOST_KEPT_MOVES`` moves; returns ``moves``."""
        kept = self.kept
        if len(kept) >= lists or self.kept_moves + len(moves) > MOST_KEPT_MOVES:
            kept.clear()
            self.kept_moves = 0
        kept[key] = (moves, None, self)
        self.kept_moves += len(moves)
        return moves

    def error(self, st: St, message: str) -> RulesetError:
        """A runtime error that names this op's rule, file and line."""
        rule, pos = self.where
        prog = st.prog
        return RulesetRuntimeError.at(
            prog.filename, pos.line if pos else 1, pos.column if pos else 1,
            f"in {rule}: {message}", prog.source)


class Policy:
    """A uniform random chooser for playouts (``State._play_out``), seeded
    apart from the state's generator: a 64-bit linear congruential
    generator (Knuth's MMIX constants) read from its high bits, half the
    arithmetic of the state's (its choices need to be fair, not to be
    saved or replayed from a counter)."""

    __slots__ = ("x", "end")
    #: The step: x -> (x * MUL + ADD) mod 2**64 (``below``; generated code
    #: writes it out where the rules decide, ``Runner.decide``).
    MUL, ADD = 6364136223846793005, 1442695040888963407

    def __init__(self, seed: int) -> None:
        self.restart(seed)

    def restart(self, seed: int) -> None:
        """Start again as ``Policy(seed)`` starts, with every pick left."""
        self.x = (seed * 0xD1B54A32D192ED03 + 0x8BB84B93962EACC9) & M64
        #: The ``x`` at which it has no pick left (-1: never): the rules
        #: then wait at the next decision as through the move API
        #: (``State._play_out``).  Its one test a decision, with no count.
        self.end = -1

    def stop_after(self, picks: int) -> None:
        """Make ``picks`` more picks at most: ``end`` is ``x`` that many
        steps on (the step raised to that power by squaring; the
        generator's period is 2**64, so no earlier pick meets it)."""
        a, c, m, d = 1, 0, self.MUL, self.ADD
        while picks > 0:
            if picks & 1:
                a, c = (a * m) & M64, (c * m + d) & M64
            m, d = (m * m) & M64, (d * m + d) & M64
            picks >>= 1
        self.end = (a * self.x + c) & M64

    def below(self, n: int) -> int:
        """A uniform integer in [0, n) (n below 2**32)."""
        self.x = x = (self.x * self.MUL + self.ADD) & M64
        return ((x >> 32) * n) >> 32


class PureFault(Exception):
    """Raised by generated code (``codegen``): the place ``(rule, pos)`` of
    the statement or op that failed, and the error."""

    def __init__(self, where: Where, error: Exception) -> None:
        super().__init__(where, error)
        self.where, self.error = where, error


class _At(Op):
    """Stands for one statement inside a ``PureOp``, to name its line."""


class PureOp(Op):
    """A run of statements that never wait (``statements.PureBlock``): lines of
    generated Python, part of their code's generated function
    (``codegen``).  Run on its own, it is made into a function first."""

    __slots__ = ("lines", "wheres", "env", "make", "fn")
    fn: Optional[Fn]

    def __init__(self, where: Where, lines: List[str], wheres: List[Where], env: Dict[str, Any],
                 make: Callable[[PureOp], Fn]) -> None:
        super().__init__(where)
        # ``env``: what the lines can name (``program.Program.gen_env``);
        # ``make``: what turns the op into its function (``codegen.pure_function``).
        self.lines, self.wheres, self.env, self.make, self.fn = lines, wheres, env, make, None

    def call(self, st: St, fr: Frame) -> None:
        """Carry out the statements (for an op that holds them: a reroll's
        cost, an assignment a 'whenever' watches)."""
        if self.fn is None:
            self.fn = self.make(self)
        self.fn(st, fr)

    def run(self, st: St, fr: Frame) -> bool:
        if self.fn is None:
            self.fn = self.make(self)
        try:
            self.fn(st, fr)
        except PureFault as e:
            raise fault(st, _At(e.where), e.error) from e.error
        fr[PC] += 1
        return True

    def emit(self, r: Any, k: int) -> bool:
        r.emit(r.D, *self.lines)
        return True


def fault(st: St, op: Op, e: BaseException) -> RulesetError:
    """The ``RulesetRuntimeError`` for exception ``e`` raised inside ``op``:
    it names the rule, the file and the line."""
    if isinstance(e, RuleFault):
        return op.error(st, str(e))
    if isinstance(e, RecursionError):
        return op.error(st, "the rules nest too deeply")
    return op.error(st, f"{type(e).__name__}: {e}")
