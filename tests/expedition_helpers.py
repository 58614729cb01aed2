"""Shared set-up for the Expedition scenario tests.

Every test plays in explicit chance mode, so each die and each chit drawn
is forced.  ``new_game()`` plays the setup with forced rolls (the seat
``first`` wins the roll-off) and equipping by the first Resource offered
each time (or the lists given), and returns the state at the first
decision of Game Turn 1: the first player's "Player Turn".  A test then
arranges what its rule needs with ``put`` / ``give`` / ``clear_sheet``
(which only edit state, running no rule) and plays on by label with
``answer`` and ``roll``."""

from __future__ import annotations

from typing import Dict, Iterable, List, Optional, Sequence

from rulelang import CHANCE

from helpers import answer, offered, shipped  # noqa: F401  (the tests import them from here)

GAME = shipped("expedition.rules")
PROG = GAME.prog
SLOTS: List[str] = list(PROG.piece_names["map"])
#: The Resources that stay face up in the pool (never blank, never drawn at random).
FACE_UP = ("Guide", "Canoes")


def slot(name: str) -> int:
    """The index a value holding a slot of the map stores for ``name``."""
    return SLOTS.index(name)


def new_game(players: int = 1, first: int = 0, buys: Optional[Dict[int, Sequence[str]]] = None,
             params: Optional[Dict[str, int]] = None):
    """A new game in explicit mode at its first decision of Game Turn 1.
    ``first`` wins the roll-off (it rolls 10, the others 1); each player
    buys the Resources ``buys`` lists for it (in the order of its
    purchases; the first offered once its list runs out)."""
    st = GAME.new_game(players=players, seed=1, chance="explicit", params=params or {})
    bought = {p: 0 for p in range(players)}
    rolled = 0
    while not st.is_over:
        if st.current_player == CHANCE:
            moves = labels(st)
            if all(m.startswith("roll ") for m in moves) and len(moves) == 10 and rolled < players:
                st.apply("roll 10" if rolled == first else "roll 1")
                rolled += 1
            else:
                st.apply(st.legal_moves()[0])
            continue
        moves = labels(st)
        if not moves[0].startswith("Buy: "):
            return st
        p = st.current_player
        wanted = list((buys or {}).get(p, ()))
        pick = moves[0]
        if bought[p] < len(wanted):
            pick = "Buy: " + wanted[bought[p]]
            assert pick in moves, f"{pick!r} is not offered: {moves}"
        bought[p] += 1
        st.apply(pick)
    return st


def labels(st) -> List[str]:
    return [m.label for m in st.legal_moves()]


def roll(st, *values: int):
    """Force the next dice: each value is one chance move 'roll N'."""
    for v in values:
        assert st.current_player == CHANCE, f"no die is being rolled: {labels(st)}"
        st.apply(f"roll {v}")
    return st


def draw(st, *names: str):
    """Force the next chits or cards drawn, by name."""
    for name in names:
        assert st.current_player == CHANCE, f"nothing is being drawn: {labels(st)}"
        st.apply(f"draw {name}")
    return st


def put(st, p: int = 0, **values):
    """Set stats of player ``p`` (``at="Oasis"`` names a slot)."""
    for name, value in values.items():
        if name in ("at", "court_1", "court_2") and isinstance(value, str):
            value = slot(value)
        st.set_stat(name, value, p)
    return st


def sheet(st, p: int = 0) -> List[str]:
    return sorted(st.pile("sheet", p))


def clear_sheet(st, p: int = 0):
    """Give every Resource on player ``p``'s sheet back to the pool (blank
    side up, Guides and Canoes face up), as the rules would."""
    held = st.pile("sheet", p)
    st.set_pile("blank_pool", st.pile("blank_pool") + [c for c in held if c not in FACE_UP])
    st.set_pile("pool", st.pile("pool") + [c for c in held if c in FACE_UP])
    st.set_pile("sheet", [], p)
    return st


def give(st, p: int = 0, *names: str):
    """Put Resources on player ``p``'s sheet, taken from the pool (blank
    chits, or face-up Guides and Canoes) so every chit stays accounted for."""
    for name in names:
        source = "pool" if name in FACE_UP else "blank_pool"
        pool = st.pile(source)
        assert name in pool, f"no {name} left in the {source}"
        pool.remove(name)
        st.set_pile(source, pool)
        st.set_pile("sheet", st.pile("sheet", p) + [name], p)
    return st


def only(st, p: int = 0, *names: str):
    """Player ``p``'s sheet holds exactly these Resources."""
    clear_sheet(st, p)
    return give(st, p, *names)


def chits(st, players: int) -> Dict[str, int]:
    """How many chits of each Resource are in play (pool, blank pool,
    every sheet and every 'aside'): what conservation checks."""
    out: Dict[str, int] = {}
    piles: Iterable[List[str]] = [st.pile("pool"), st.pile("blank_pool")]
    piles = list(piles) + [st.pile("sheet", p) for p in range(players)] + \
        [st.pile("aside", p) for p in range(players)]
    for pile in piles:
        for c in pile:
            out[c] = out.get(c, 0) + 1
    return out


def to_player_turn(st):
    """Answer 'no' to anything before the next "Player Turn" decision
    (the Guide), leaving chance alone: the state waits at the Player Turn."""
    while st.current_player != CHANCE and not st.is_over:
        moves = offered(st)
        if "Make camp" in moves:
            return st
        no = [m for m in st.legal_moves() if m.label.endswith(": no")]
        assert no, f"not a yes/no question: {labels(st)}"
        st.apply(no[0])
    return st
