"""Shared set-up for the Deep Sea scenario tests.

Every test plays in explicit chance mode, so each die and each tile, token
or board drawn is forced.  ``setup_game()`` plays the setup with fixed
draws (the first four Anchor Journals, the tier-5 Specialists in the order
offered, seat 0 winning the roll-off for the Wave) and returns the state at
its first decision: the Wave holder's Recruitment in round 1.  A test then
arranges what its rule needs with ``put`` / ``set_stat`` (which only edit
state, running no rule) and plays on by label with ``answer``."""

from __future__ import annotations

from rulelang import CHANCE

from helpers import answer, labels, offered, shipped  # noqa: F401  (the tests import them from here)

GAME = shipped("deepsea.rules")
PROG = GAME.prog


def space(board, name):
    """The index a value holding a space of ``board`` stores for ``name``."""
    return PROG.piece_names[board].index(name)


def piece_index(pieces, name):
    return PROG.piece_names[pieces].index(name)


def setup_game(players=2, coop=0, wave=0):
    """A new game in explicit mode, setup forced, at the first decision."""
    st = GAME.new_game(players=players, seed=1, chance="explicit", params={"coop": coop})
    while st.current_player == CHANCE:
        moves = labels(st)
        if moves[0].startswith("roll") and len(moves) == 6:
            # the roll-off: ``wave`` rolls 6, everyone else 1 (one roll each, in seat order)
            rolled = sum(1 for e in st.log if e.kind == "roll")
            st.apply("roll 6" if rolled == wave else "roll 1")
        else:
            st.apply(st.legal_moves()[0])
    return st


def put(st, pieces, name, **values):
    """Set state values of a piece (``at="c1"`` names a space)."""
    for field, value in values.items():
        if field in ("at", "launch") and isinstance(value, str):
            value = space("ocean", value)
        st.set_piece(pieces, name, field, value)
    return st


def zone(st, tile, square):
    """Put an Ocean board into play on a space, as a placement would (the
    space below it becomes ready), without its Dive tokens."""
    i = space("ocean", square)
    put(st, "oceans", tile, place="zone", at=i)
    st.set_piece("ocean", square, "open", True)
    st.set_piece("ocean", square, "ready", False)
    st.set_piece("ocean", square, "tile", piece_index("oceans", tile))
    col, row = square[0], int(square[1:])
    if row < 5:
        st.set_piece("ocean", f"{col}{row + 1}", "ready", True)
    return st


def to_staging(st):
    """Play round 1's Preparation taking the first option everywhere; the
    state waits at the Wave holder's first Staging decision."""
    while st.current_player != CHANCE and not offered(st)[:2] == ["Activate a Specialist", "Pass"]:
        st.apply(st.legal_moves()[0])
    return st


def count(st, pieces, **where):
    """How many pieces of a set have these state values."""
    n = 0
    for name in PROG.piece_names[pieces]:
        p = st.piece(pieces, name)
        if all(p[k] == v for k, v in where.items()):
            n += 1
    return n
