"""Who may see what: the one place that decides what each seat is given.

A game hides three kinds of things: the cards of a *hidden pile* (``pile
hand per player, hidden`` is seen only by its owner; a shared hidden pile by
nobody), the cards of every *deck* (seen by nobody, order and contents
alike), and the values of *hidden and secret stats* (``cup = no dice
hidden`` is seen by its owner only, ``throw … secret`` by nobody) until a
``reveal`` shows one (``State.shown``) and until it next changes.
Everything else (public stats, pieces, tracks, public piles, whose turn it
is) is seen by everyone.

Who may see a thing is a ``seen_by`` value, decided from public facts only
(which pile a card goes to or comes from, never which card it is):

    EVERYONE  (None)          everyone, spectators included
    (1,)      a tuple of seats only those seats
    NOBODY    (())            nobody (a deck, a shared hidden pile)

Every piece of data a seat is given passes through ``Sight(state, seat)``,
the visibility of one seat (``None``: a spectator) in one state:

- ``view()``: the state, with each pile shown only if ``sees`` it
  (otherwise its size);
- ``entry(e)`` / ``log()``: each log entry in full when the seat is in its
  ``seen_by``, otherwise its public form (``public`` text and
  ``public_value``); the entry's ``seen_by`` is fixed when it is written
  (``State.note``), by the op that writes it;
- ``moves()``: the legal moves, only when it is that seat's decision (a
  chance outcome is nobody's);
- ``refusal(move)``: why the seat may not move now, saying nothing of
  anyone's options (``State.apply(move, player=seat)``).

The engine's own notes get their ``seen_by`` here too: ``pile_seen_by`` for
a card drawn into, or chosen from, a pile, ``both`` when a line names
cards from several places.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

from .kinds import St

#: Who may see a thing: ``EVERYONE``, a tuple of seats, or ``NOBODY``.
SeenBy = Optional[Tuple[int, ...]]

#: ``seen_by`` of what everyone may see.
EVERYONE = None
#: ``seen_by`` of what nobody may see (a deck's cards, a shared hidden pile's).
NOBODY: Tuple[int, ...] = ()


def check_seat(st: St, seat: Any) -> None:
    """Refuse anything that is not a seat of this game or None (a
    spectator): ``ValueError`` (bools and numbers of other types too)."""
    if seat is None:
        return
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < st.n:
        raise ValueError(f"no seat {seat!r} in this {st.n}-player game: a seat is a whole "
                         f"number from 0 to {st.n - 1}, or None for a spectator")


def sees(seen_by: SeenBy, seat: Optional[int]) -> bool:
    """Whether ``seat`` (None: a spectator) may see what ``seen_by`` covers."""
    return seen_by is None or (seat is not None and seat in seen_by)


def both(a: SeenBy, b: SeenBy) -> SeenBy:
    """Who may see two things at once (a line naming both)."""
    if a is None:
        return b
    if b is None:
        return a
    return tuple(s for s in a if s in b)


def either(a: SeenBy, b: SeenBy) -> SeenBy:
    """Who may see one thing or the other (``a`` united with ``b``)."""
    if a is None or b is None:
        return None
    if all(s in a for s in b):
        return a
    return tuple(sorted(set(a) | set(b)))


def pile_seen_by(st: St, index: int) -> SeenBy:
    """Who may see the cards of the pile at ``index`` in ``st.piles``: its
    owner for a hidden per-player pile, nobody for a deck or a shared
    hidden pile, everyone for any other pile."""
    return seen_by_pile(st)[index]


def seen_by_pile(st: St) -> List[SeenBy]:
    """``pile_seen_by`` of every pile, by index (made once per program and
    player count)."""
    prog = st.prog
    table: Optional[List[SeenBy]] = prog.seen_by_pile.get(st.n)
    if table is None:
        table = [NOBODY if secret else EVERYONE for secret in prog.shared_secret]
        for hidden, secret in zip(prog.player_hidden, prog.player_secret):
            table += [NOBODY if secret else (owner,) if hidden else EVERYONE for owner in range(st.n)]
        prog.seen_by_pile[st.n] = table
    return table


def stat_key(prog: Any, name: str, owner: Optional[int], n: int) -> int:
    """The key of a stat in ``State.shown``: a player's stat by its place
    in ``State.v``, a global stat ``i`` as ``-1 - i``."""
    if name in prog.gslot:
        return -1 - prog.gslot[name]
    return int(owner or 0) * prog.K + prog.pslot[name]


def stat_seen_by(st: St, key: int, owner: Optional[int], sight: str, now: bool = True) -> SeenBy:
    """Who may see a hidden or secret stat's value now: everyone once it is
    revealed, else its owner (hidden) or nobody (secret).  ``now=False``:
    who may see its next value (a roll into it), revealed or not."""
    if now and key in st.shown:
        return EVERYONE
    if sight == "hidden" and owner is not None:
        return (owner,)
    return NOBODY


def unseen_piece_values(st: St, seat: Optional[int]) -> List[Tuple[int, str, int, str]]:
    """(place in ``st.g``, piece set, piece, field) of each piece value
    ``seat`` may not see now: a secret one, or a hidden one of a piece whose
    ``owner`` is not ``seat``, unless revealed."""
    out = []
    shown, g = st.shown, st.g
    for pset, base, K, n, fields, owner_k in st.prog.piece_sight:
        for i in range(n):
            at = base + i * K
            owner = g[at + owner_k] if owner_k is not None else None
            for k, field, sight in fields:
                if -1 - (at + k) not in shown and (sight == "secret" or owner is None or owner != seat):
                    out.append((at + k, pset, i, field))
    return out


def unshow(st: St, key: int) -> None:
    """A revealed stat changed: hidden again (``State.shown``).  (Called at
    every change of a hidden stat while anything is revealed: one test in C
    when it is not this one.)"""
    shown = st.shown
    if key in shown:        # (it is there once: cut out at its index)
        i = shown.index(key)
        st.shown = shown[:i] + shown[i + 1:]


def show(st: St, key: int) -> None:
    """``reveal``: the stat's value is seen by everyone until it changes."""
    shown = st.shown
    if key not in shown:
        st.shown = tuple(sorted((*shown, key))) if shown else (key,)


def pile_name(st: St, index: int) -> str:
    """A pile as a person names it: ``discard``, ``hand of P1``."""
    prog = st.prog
    if index < st.nshared:
        return prog.shared_piles[index]
    j, owner = divmod(index - st.nshared, st.n)
    return f"{prog.player_piles[j]} of P{owner}"


class Sight:
    """What one seat (``None``: a spectator) may see of one state."""

    __slots__ = ("st", "seat")

    def __init__(self, st: St, seat: Optional[int]) -> None:
        check_seat(st, seat)
        self.st = st
        self.seat = seat

    def sees(self, seen_by: SeenBy) -> bool:
        return sees(seen_by, self.seat)

    def entry(self, e: Any) -> Any:
        """Log entry ``e`` as this seat may read it (``LogEntry.for_seat``)."""
        return e.for_seat(self.seat)

    def log(self) -> List[Any]:
        seat = self.seat
        return [e.for_seat(seat) for e in self.st.log]

    def moves(self) -> List[Any]:
        """The legal moves if it is this seat's decision, else none."""
        st = self.st
        if self.seat is None or st.over is not None or st.current_player != self.seat:
            return []
        return st.legal_moves()

    def refusal(self, move: Any) -> Optional[str]:
        """Why this seat may not make a move now (None: it may try; the
        move itself is checked as any move is).  The reason names only
        public facts: whose turn it is, or that the game is over."""
        st = self.st
        if st.over is not None:
            return None     # the usual message: no move is legal
        if self.seat is None:
            return "a spectator makes no moves"
        who = st.current_player
        if who != self.seat:
            now = "a chance outcome is due" if st.is_chance_node else f"P{who} is to move"
            return f"it is not P{self.seat}'s decision now ({now}); no move of P{self.seat}'s is legal"
        return None

    def actors(self, cards_shown: List[Any]) -> Dict[str, Any]:
        """Each actor's stats (a secret one named in its ``secret`` until
        revealed) and piles, as the view shows them."""
        st, prog = self.st, self.st.prog
        out: Dict[str, Any] = {}
        for a in prog.rs.actors:
            stats: Dict[str, Any] = {}
            secret: List[str] = []
            for s in a.stats:
                i = prog.gslot[f"{a.name}.{s.name}"]
                if s.sight is None or -1 - i in st.shown:
                    stats[s.name] = st.g[i]
                else:
                    secret.append(s.name)
            piles = {p.name: cards_shown[prog.pile_index[f"{a.name}.{p.name}"]] for p in a.piles}
            out[a.name] = {"stats": stats, "piles": piles, **({"secret": secret} if secret else {})}
        return out

    def view(self) -> Dict[str, Any]:
        """Every stat this seat may see, piece and track; the public piles;
        sizes only for decks and for the hidden piles this seat may not see.
        A player's stats it may not see are named in that player's
        ``hidden``, the game's secret stats in ``secret``."""
        st = self.st
        prog = st.prog
        seat = self.seat
        card_names = prog.card_names
        piles = st.piles
        players = []
        names, K = prog.player_stat_names, prog.K
        n, nshared = st.n, st.nshared
        shown = st.shown
        # Each pile as ``sees(pile_seen_by(...), seat)`` decides.
        cards_shown = [sorted([card_names[c] for c in cards])
                 if seen is None or (seat is not None and seat in seen) else {"size": len(cards)}
                 for cards, seen in zip(piles, seen_by_pile(st))]
        player_piles = prog.player_piles
        sights = prog.player_sight
        for owner in range(n):
            stats = dict(zip(names, st.v[owner * K:(owner + 1) * K]))
            mine = {name: cards_shown[nshared + j * n + owner] for j, name in enumerate(player_piles)}
            for k, held in prog.player_holds:
                if stats[names[k]] is not None:
                    stats[names[k]] = held[stats[names[k]]]
            player: Dict[str, Any] = {"seat": owner, "stats": stats, "piles": mine}
            if sights:
                unseen = [names[k] for k, sight in sights
                          if owner * K + k not in shown and (sight == "secret" or owner != seat)]
                for name in unseen:
                    del stats[name]
                if unseen:
                    player["hidden"] = unseen
            if prog.player_scales:      # what each scale prints beside the stat's value
                scales = {name: scale_row(rows, stats[name])
                          for _, name, rows in prog.player_scales if name in stats}
                if scales:
                    player["scales"] = scales
            players.append(player)
        own_piles = prog.own_shared_piles
        shared = dict(zip(prog.shared_piles[:own_piles], cards_shown))
        pieces = prog.pieces_view(st.g)
        for pset, fields in prog.piece_holds.items():      # a piece or space by its name
            for piece in pieces[pset]:
                for field, names in fields:
                    if piece.get(field) is not None:
                        piece[field] = names[piece[field]]
        if prog.piece_sight:
            for _, pset, i, field in unseen_piece_values(st, seat):
                piece = pieces[pset][i]
                del piece[field]
                piece.setdefault("hidden", []).append(field)
        tracks = {}
        for name, spaces in prog.track_data.items():
            here = st.g[prog.gslot[name]]
            tracks[name] = {"space": here, **spaces.get(here, {})}
        view = {
            "tracks": tracks,
            "pieces": pieces,
            "game": prog.rs.title, "viewer": seat, "round": st.round,
            "turn_player": st.turn_player, "current_player": st.current_player,
            "over": st.over, "globals": {s.name: st.g[i] for i, s in enumerate(prog.global_stats[:prog.own_globals])
                                         if s.sight is None or -1 - i in shown},
            "players": players, "piles": shared,
        }
        for i, names in prog.global_holds:
            name = prog.global_stats[i].name
            if view["globals"].get(name) is not None:
                view["globals"][name] = names[view["globals"][name]]
        if prog.global_scales:
            view["scales"] = {name: scale_row(rows, st.g[i]) for i, name, rows in prog.global_scales
                              if name in view["globals"]}
        secret = [s.name for i, s in enumerate(prog.global_stats[:prog.own_globals])
                  if s.sight is not None and -1 - i not in shown]
        if secret:
            view["secret"] = secret
        if prog.actor_names:
            view["actors"] = self.actors(cards_shown)
        moves = self.moves()
        if moves:
            view["legal_moves"] = [m.label for m in moves]
        return view


def scale_row(rows: Sequence[Tuple[int, int, Dict[str, Any]]], value: Any) -> Optional[Dict[str, Any]]:
    """What a scale prints beside ``value`` (a copy, for a view), or None
    when no row has it (``Program.player_scales``)."""
    if type(value) is int:
        for low, high, printed in rows:
            if low <= value <= high:
                return dict(printed)
    return None
