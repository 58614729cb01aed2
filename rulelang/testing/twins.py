"""The twins the hidden-information checks compare a state with: the
same game with what a seat may not see dealt or set otherwise
(``_hidden_twin``, ``_deck_twin``), and the states other moves lead to
(``_alternatives``)."""

from __future__ import annotations

import random
from typing import Any, List, Optional, Tuple

from ..engine.kinds import St
from ..engine.visibility import unseen_piece_values
from ..errors import RulesetError


def _new_entries(before: St, after: St) -> List[Any]:
    """The log entries ``after`` (a state played on from ``before``) wrote
    since ``before``, oldest first."""
    out: List[Any] = []
    node, stop = after.log_tail, before.log_tail
    while node is not None and node is not stop:
        out.append(node[0])
        node = node[1]
    out.reverse()
    return out


def _hidden_twin(st: St, viewer: Optional[int], rng: random.Random) -> Optional[St]:
    """A clone whose cards hidden from ``viewer`` (every deck, the hidden
    shared piles, other seats' hidden piles) are dealt again at random,
    each pile keeping its size, and whose stats hidden from it (other
    seats' hidden stats, every secret one, unless revealed) hold other
    values; None when that cannot change anything."""
    prog = st.prog
    hidden = [i for i, name in enumerate(prog.shared_piles)
              if name in prog.deck_names or prog.shared_hidden[i]]
    for j, (is_hidden, secret) in enumerate(zip(prog.player_hidden, prog.player_secret)):
        if is_hidden or secret:     # (a player's own deck: hidden from its owner too)
            hidden += [st.nshared + j * st.n + seat for seat in range(st.n)
                       if secret or seat != viewer]
    pool = [c for i in hidden for c in st.piles[i]]
    stats = _hidden_stats(st, viewer)
    if len(pool) < 2 and not stats:
        return None
    twin = st.clone()
    if len(pool) >= 2:
        # Deal them again: reversed and turned by a random amount, so that
        # cards change places (a full shuffle costs more and finds no more).
        pool.reverse()
        k = rng.randrange(1, len(pool))
        pool = pool[k:] + pool[:k]
        at = 0
        for i in hidden:
            k = len(st.piles[i])
            twin.piles[i][:] = pool[at:at + k]
            at += k
    for values, i, decl in stats:
        other = _other_value(getattr(twin, values)[i], decl, st.n)
        getattr(twin, values)[i] = other
    twin._changed()
    return twin


def _hidden_stats(st: St, viewer: Optional[int]) -> List[Tuple[str, int, Any]]:
    """(``v`` or ``g``, index, declaration) of each stat and piece value
    hidden from ``viewer`` now."""
    prog, K = st.prog, st.prog.K
    out: List[Tuple[str, int, Any]] = []
    for k, sight in prog.player_sight:
        for owner in range(st.n):
            key = owner * K + k
            if key not in st.shown and (sight == "secret" or owner != viewer):
                out.append(("v", key, prog.player_stats[k]))
    for i, decl in enumerate(prog.global_stats):
        if decl.sight is not None and -1 - i not in st.shown:
            out.append(("g", i, decl))
    for at, pset, _, field in unseen_piece_values(st, viewer):
        ps = prog.piece_sets[pset]
        out.append(("g", at, ps.state[prog.piece_slot[pset][field]]))
    return out


def _alternatives(st: St, move: Any, moves: List[Any]) -> List[Tuple[Any, St, List[Any]]]:
    """(other move, the state after it, its new entries) for up to two
    other moves than ``move`` at ``st`` (those a rule refuses left out)."""
    out = []
    others = [m for m in {id(m): m for m in (moves[0], moves[-1], moves[len(moves) // 2])}.values()
              if m.label != move.label][:2]
    for other in others:
        alt = st.clone()
        try:
            alt.apply(other.label)
        except RulesetError:
            continue
        out.append((other, alt, _new_entries(st, alt)))
    return out


def _hidden_differ(a: St, b: St, seat: Optional[int]) -> bool:
    """Whether two states differ in a stat hidden from ``seat``."""
    return any(getattr(a, values)[i] != getattr(b, values)[i]
               for values, i, _ in _hidden_stats(a, seat))


def _other_value(v: Any, decl: Any, n: int) -> Any:
    """A value a hidden stat might hold instead of ``v``: another word,
    number, answer, player or faces of its dice."""
    if decl.values:
        words = list(decl.values)
        return words[(words.index(v) + 1) % len(words)] if v in words else v
    if isinstance(v, bool):
        return not v
    if isinstance(v, int):
        return (v + 1) % n if decl.initial.__class__.__name__ == "NoneLit" else v + 1
    if isinstance(v, tuple):
        return tuple(1 if face > 1 else 2 for face in v)
    return v


def _deck_twin(st: St) -> Optional[St]:
    """A clone whose decks hold their cards in another order (turned by
    one), so that its draws take other cards; None when no deck holds two
    kinds of card."""
    prog = st.prog
    decks = [i for i, name in enumerate(prog.shared_piles)
             if name in prog.deck_names and len(set(st.piles[i])) > 1]
    for j, secret in enumerate(prog.player_secret):
        decks += [i for i in range(st.nshared + j * st.n, st.nshared + (j + 1) * st.n)
                  if secret and len(set(st.piles[i])) > 1]
    if not decks:
        return None
    twin = st.clone()
    for i in decks:
        pile = twin.piles[i]
        pile.insert(0, pile.pop())
    twin._changed()
    return twin
