"""A state drawn from what one seat knows: its information set.

A player that looks ahead must not read what its seat may not see, yet
must look ahead on a game that could be the real one.  ``resample`` plays
the game again from its start in explicit chance mode, step by step as it
was played (``trajectory``): the seat's own decisions as they were made;
at a chance node, or at another seat's decision, one of the outcomes or
moves that the seat could not tell from the one made there, drawn at
random (an outcome by its probability, a move uniformly).  Two moves are
told apart when the seat sees something different after them: its view
(``State.view``), or the log entries of that step it may read.  So a card
dealt face down to another seat, another seat's secret bid and everything
the rules worked out from them (a hidden stat set from the card) are drawn
again together, as the rules make them, while every public roll, every
card the seat holds and every open choice stays as it was.  The state
drawn depends only on what the seat saw and on ``rng``: two games that
look alike to the seat give the same draws.

This costs a replay of the game and, at each step the seat did not make,
a look at every legal alternative: ``MOST_TRIES`` moves tried in all, past
which ``resample`` gives up (None) and the caller falls back on a cheaper,
rougher way.
"""

from __future__ import annotations

from typing import Any, Iterator, List, Optional, Protocol, Tuple

from ..errors import Error
from .state import CHANCE, State

#: The most moves ``resample`` tries, alternatives included, for one state.
MOST_TRIES = 1500


class Draws(Protocol):
    """What ``resample`` draws with (a ``random.Random``)."""

    def random(self) -> float: ...


def trajectory(state: State) -> Optional[List[Tuple[Any, str]]]:
    """Every step of ``state``'s game so far as explicit chance mode takes
    them: (who decided: a seat, or ``CHANCE``; the move's label), oldest
    first.  A game played in sample mode is played again with its dice and
    draws written down (as they come, the setup's too).  None when its
    moves do not give ``state`` again: a state changed from outside the
    rules (``set_pile``, a tool's edit) has no such steps."""
    game = state.game
    sample = not state.explicit
    st = game._new_state(state.n, state.seed, "sample" if sample else "explicit",
                         state.options or None, state.limits, False)
    record: Optional[List[str]] = [] if sample else None
    st.chance_record = record
    st._run()
    steps: List[Tuple[Any, str]] = [(CHANCE, o) for o in record or ()]
    for label in state.history:
        if record is not None:
            record.clear()
        who = st.current_player
        st.apply(label)
        steps.append((who, label))
        steps.extend((CHANCE, o) for o in record or ())
    return steps if st == state else None


def _start(state: State) -> State:
    st = state.game._new_state(state.n, state.seed, "explicit", state.options or None,
                               state.limits, True)
    st._run()
    return st


def _read(st: State, seat: int, head: Any) -> Tuple[Any, ...]:
    """The log entries of ``st`` since ``head`` (the log as it was before
    the step) as ``seat`` may read them."""
    entries = []
    node = st.log_tail
    while node is not None and node is not head:
        entries.append(node[0].for_seat(seat))
        node = node[1]
    return tuple(entries)


def resample(state: State, seat: int, rng: Draws, steps: Optional[List[Tuple[Any, str]]] = None,
             most: int = MOST_TRIES) -> Optional[State]:
    """A state of ``state``'s game that ``seat`` cannot tell from it, what
    the seat could not see drawn again with ``rng`` (see the module's
    documentation); in explicit chance mode, with its log.  None when no
    such game is found within ``most`` moves tried, or ``state`` is not
    the game its moves make (``trajectory``).  ``steps``:
    ``trajectory(state)``, when the caller has it already.

    A search, depth first: a step's alternatives are tried in a random
    order (outcomes by their probabilities), each kept only while the seat
    sees at every later step what it saw, the seat's own steps included (a
    bid drawn for another seat is dropped when the seat's own move turns
    the bids over and shows another); a dead end goes back to the last
    step that had alternatives left."""
    if steps is None:
        steps = trajectory(state)
        if steps is None:
            return None
    true = _start(state)
    seen: List[Tuple[Any, Tuple[Any, ...]]] = []       # (the seat's view, the log it read)
    for _, label in steps:
        head = true.log_tail
        true.apply(label)
        seen.append((true.view(seat), _read(true, seat, head)))
    tries = 0
    frames: List[Tuple[int, State, Iterator[str]]] = []
    st = _start(state)
    frames.append((0, st, _order(st, steps, 0, seat, rng)))
    while frames:
        i, st, alternatives = frames[-1]
        if i == len(steps):
            return st
        nxt = next(alternatives, None)
        if nxt is None:
            frames.pop()
            continue
        label = nxt
        tries += 1
        if tries > most:
            return None
        c = st.clone()
        try:
            c.apply(label)
        except Error:       # (a move the rules refuse or cannot carry out)
            continue
        # (the log first: it is the cheaper to read, and tells most moves apart)
        if _read(c, seat, st.log_tail) == seen[i][1] and c.view(seat) == seen[i][0]:
            frames.append((i + 1, c, _order(c, steps, i + 1, seat, rng)))
    return None


def _order(st: State, steps: List[Tuple[Any, str]], i: int, seat: int,
           rng: Draws) -> Iterator[str]:
    """The moves to try at step ``i`` in ``st``: the move made, when the
    seat made it; else every legal move, in a random order (an outcome of
    chance comes earlier the likelier it is)."""
    if i == len(steps):
        return iter(())
    who, label = steps[i]
    if who == seat:
        return iter((label,))
    keyed = []
    for move in st.legal_moves():
        w = 1.0 if move.probability is None else float(move.probability)
        if w > 0:       # (Efraimidis and Spirakis: a draw weighted without putting back)
            keyed.append((rng.random() ** (1.0 / w), move.label))
    keyed.sort(reverse=True)
    return iter([label for _, label in keyed])


