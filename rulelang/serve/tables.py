"""The server's games, apart from HTTP: making, joining, moving, viewing.

The server is the only authority.  A client names a game, its seat token
and a move label; everything it is told comes from ``state.view(seat)``,
``state.log_for(seat)`` and ``state.legal_moves(player=seat)`` (the
engine's visibility rules, docs/security.md), and a move is made with
``state.apply(label, player=seat)``.  The seed stays here.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import os
import secrets
from typing import Any, Callable, Dict, List, Mapping, Optional

import attrs

from ..engine import Game, Move, State
from ..errors import Error, IllegalMoveError, RulesetError, SaveError
from .store import Row, Seat, Store, now, token_hash

#: What a bot is: given the state at its decision, the move it makes.
Bot = Callable[[State], Move]

#: The bot specs a game may name (``_bot``).
BOTS = ("random", "greedy")
#: The most log entries a view carries (the newest).
LOG_SHOWN = 60
#: The most games the server holds.
MOST_GAMES = 100_000
#: The most bot moves one request may set off (a game of bots only plays
#: to its end at its creation, within this).
MOST_BOT_MOVES = 100_000


class ServeError(Exception):
    """A request the server refuses: an HTTP status, a short code for
    programs and one clear line for people.  Nothing was changed."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def _bot(spec: str, seed: int) -> Bot:
    """The one place a bot is made from its spec: a player of
    ``rulelang.players``.  Only the quick ones are offered (a bot moves on
    the server's event loop; a searching player would hold up every
    game).  Raises ``ValueError`` for a spec it does not know."""
    if spec not in BOTS:
        raise ValueError(f"unknown bot {spec!r}; bots: {', '.join(BOTS)}")
    from ..players import player
    return player(spec, seed).choose


@attrs.define
class Ruleset:
    """A rule file the server offers."""
    key: str
    path: str
    game: Game

    layout: Dict[str, Any] = attrs.field(factory=dict)

    def __attrs_post_init__(self) -> None:
        self.layout = layout_of(self.game)

    def describe(self) -> Dict[str, Any]:
        g = self.game
        return {"key": self.key, "title": g.title, "min_players": g.min_players,
                "max_players": g.max_players, "options": g.options, "params": g.params,
                "bots": list(BOTS)}


@attrs.define(eq=False)
class Table:
    """One game in play, with its seats and the clients listening to it."""
    id: str
    ruleset: Ruleset
    state: State
    seats: List[Seat]
    created: float
    #: The replay last written to the store (to go back to if a write fails).
    saved: str
    lock: asyncio.Lock = attrs.field(factory=asyncio.Lock)
    #: Each live connection's queue: it is given each new version number.
    listeners: List["asyncio.Queue[int]"] = attrs.field(factory=list)

    @property
    def version(self) -> int:
        """How many moves were made: a move names the version it was chosen at."""
        return len(self.state.history)

    def seat_of(self, token: Optional[str]) -> Optional[int]:
        """The seat a token holds (None: no token, a spectator); a token
        that holds no seat of this game is refused."""
        if token is None:
            return None
        h = token_hash(token)
        found = None
        for s in self.seats:
            if s.token is not None and hmac.compare_digest(s.token, h):
                found = s.seat
        if found is None:
            raise ServeError(401, "bad_token", "this token holds no seat of this game")
        return found

    def public(self) -> Dict[str, Any]:
        """What anyone may know of the game: who sits where, whose turn, its version."""
        st = self.state
        who = st.current_player
        return {"id": self.id, "ruleset": self.ruleset.key, "title": self.ruleset.game.title,
                "players": st.players, "version": self.version, "over": st.is_over,
                "ending": self.state.result().ending if st.is_over else None,
                "to_move": who if isinstance(who, int) else None,
                "seats": [{"seat": s.seat, "bot": s.bot, "name": s.name,
                           "taken": s.bot is not None or s.token is not None} for s in self.seats],
                "open": not st.is_over and any(s.bot is None and s.token is None for s in self.seats),
                "created": self.created}


def layout_of(game: Game) -> Dict[str, Any]:
    """What the page needs from the rule file itself (public): each stat's
    bounds where both are plain numbers (drawn as a track), and the spaces
    of each track, in order."""
    rs = game.ruleset
    consts = {c.name: getattr(c.value, "value", None) for c in getattr(rs, "consts", ())}

    def number(e: Any) -> Optional[int]:
        v = getattr(e, "value", None) if type(e).__name__ == "Num" else \
            consts.get(getattr(e, "name", None)) if type(e).__name__ == "Name" else None
        return v if type(v) is int else None
    bounds: Dict[str, List[int]] = {}
    tracks: Dict[str, List[str]] = {}
    for s in getattr(rs, "stats", ()):
        low, high = number(getattr(s, "min", None)), number(getattr(s, "max", None))
        if low is not None and high is not None and low <= high:
            bounds[s.name] = [low, high]
        spaces = getattr(s, "spaces", None)
        if spaces:
            tracks[s.name] = [sp.name for sp in spaces]
    # Which piece values name a piece of which set ("at one of ocean"): a
    # board draws in each space the pieces whose values name that space.
    holds: Dict[str, Dict[str, str]] = {}
    for ps in getattr(rs, "pieces", ()):
        for field in getattr(ps, "state", ()):
            if getattr(field, "holds", None):
                holds.setdefault(ps.name, {})[field.name] = field.holds
    return {"bounds": bounds, "tracks": tracks, "holds": holds}


def decision_title(state: State) -> Optional[str]:
    """The title the rule file gives the decision now waiting (``State.decision``),
    or None; given only to the seat that decides."""
    return state.decision


def boards(state: State) -> Dict[str, str]:
    """Which piece sets are boards: "hex" (six directions) or "grid"."""
    steps = getattr(state.prog, "board_step", None) or {}
    return {name: ("hex" if len(dirs) == 6 else "grid") for name, dirs in steps.items()}


def seat_view(table: Table, seat: Optional[int]) -> Dict[str, Any]:
    """Everything one seat (None: a spectator) is told of the game."""
    st = table.state
    view = st.view(seat)
    view.pop("legal_moves", None)       # given below, with their title
    log = st.log_for(seat)
    moves = [m.label for m in st.legal_moves(player=seat)] if seat is not None else []
    out: Dict[str, Any] = {
        "game": table.public(), "seat": seat, "version": table.version, "view": view,
        "boards": boards(st), "layout": table.ruleset.layout,
        "log": [{"round": e.round, "player": e.player, "kind": e.kind, "text": e.text}
                for e in log[-LOG_SHOWN:]],
        "log_length": len(log),
        "decision": {"title": decision_title(st), "moves": moves} if moves else None,
    }
    if st.is_over:
        r = st.result()
        out["result"] = {"scores": list(r.scores), "winners": list(r.winners), "ending": r.ending}
    return out


def _seed_for(seed: int, *parts: int) -> int:
    """A bot's seed for one decision, from the game's seed: the same after a restart."""
    text = ":".join(str(p) for p in (seed, *parts)).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


class Hall:
    """Every ruleset and game the server has, and its store."""

    def __init__(self, rulesets: List[Ruleset], store: Store,
                 seeds: Optional[Callable[[], int]] = None) -> None:
        #: Where new games' seeds come from (a test passes its own, to play the same games).
        self.seeds = seeds or (lambda: secrets.randbits(63))
        self.rulesets = {r.key: r for r in rulesets}
        self.by_print = {r.game.fingerprint: r for r in rulesets}
        self.store = store
        self.tables: Dict[str, Table] = {}
        #: Games in the store whose ruleset is not served now (kept, not played).
        self.unavailable: Dict[str, str] = {}
        for row in store.games():
            self._restore(row)

    def _restore(self, row: Row) -> None:
        rs = self.by_print.get(row.ruleset)
        if rs is None:
            self.unavailable[row.id] = "its ruleset is not among those served"
            return
        try:
            state = rs.game.replay(row.replay)
        except (SaveError, RulesetError) as e:
            self.unavailable[row.id] = f"its replay does not play: {e}"
            return
        table = Table(row.id, rs, state, row.seats, row.created, row.replay)
        self.tables[row.id] = table
        self._bots(table)
        self._save(table)

    # ------------------------------------------------------------ requests

    def table(self, game_id: str) -> Table:
        t = self.tables.get(game_id)
        if t is None:
            why = self.unavailable.get(game_id)
            if why is not None:
                raise ServeError(410, "unavailable", f"game {game_id} cannot be played: {why}")
            raise ServeError(404, "no_game", "there is no game of that id")
        return t

    def create(self, key: str, players: Optional[int], options: Optional[Dict[str, Any]],
               params: Optional[Dict[str, int]], bots: Mapping[int, str]) -> Table:
        rs = self.rulesets.get(key)
        if rs is None:
            raise ServeError(404, "no_ruleset", "there is no ruleset of that key")
        if len(self.tables) >= MOST_GAMES:
            raise ServeError(503, "full", "the server holds as many games as it may")
        for spec in bots.values():
            if spec not in BOTS:
                raise ServeError(400, "bad_bot", f"unknown bot; bots: {', '.join(BOTS)}")
        seed = self.seeds()
        try:
            state = rs.game.new_game(players=players, seed=seed, options=options or None,
                                     params=params or None)
        except ValueError as e:       # players, options or params the game refuses
            raise ServeError(400, "bad_setup", str(e)) from None
        except RulesetError:
            raise ServeError(400, "bad_setup", "the rules cannot start a game so set up") from None
        for seat in bots:
            if not 0 <= seat < state.players:
                raise ServeError(400, "bad_bot", f"seat {seat} is not a seat of a "
                                 f"{state.players}-player game")
        seats = [Seat(i, bots.get(i)) for i in range(state.players)]
        game_id = secrets.token_urlsafe(9)
        table = Table(game_id, rs, state, seats, now(), "")
        self._bots(table)
        table.saved = state.to_replay(seed=True)
        self.store.add(Row(game_id, rs.game.base.fingerprint, table.saved, table.version,
                           table.created, seats))
        self.tables[game_id] = table
        return table

    def join(self, table: Table, seat: int, name: str) -> str:
        """A new secret token for a free seat (the one time it is told)."""
        if not 0 <= seat < len(table.seats):
            raise ServeError(404, "no_seat", f"seat {seat} is not a seat of this game")
        s = table.seats[seat]
        if s.bot is not None or s.token is not None:
            raise ServeError(409, "seat_taken", f"seat {seat} is taken")
        if table.state.is_over:
            raise ServeError(409, "over", "the game is over")
        token = secrets.token_urlsafe(32)
        self.store.join(table.id, seat, name, token_hash(token))
        s.name, s.token = name, token_hash(token)
        return token

    def move(self, table: Table, seat: Optional[int], label: str, version: int) -> None:
        """Make ``seat``'s move (called under the table's lock), then the
        bots' moves up to the next person's decision; written to the store
        before it returns.  Refused, changing nothing, when the seat is a
        spectator's, the version is not the game's, or the move is not one
        this seat may make now."""
        if seat is None:
            raise ServeError(403, "spectator", "a spectator makes no moves (join a seat)")
        if version != table.version:
            raise ServeError(409, "stale", f"the game is at version {table.version}, not {version}: "
                             "fetch the view again")
        st = table.state
        try:
            st.apply(label, player=seat)
        except IllegalMoveError as e:     # its message names only this seat's own moves
            raise ServeError(409, "illegal", str(e)) from None
        except RulesetError:
            raise ServeError(422, "rules_failed", "the rules could not carry out this move") from None
        self._bots(table)
        self._save(table)

    # ------------------------------------------------------------ inside

    def _bots(self, table: Table) -> None:
        """The bots' moves until a person is to decide or the game ends."""
        st = table.state
        seed = st.seed
        for _ in range(MOST_BOT_MOVES):
            who = st.current_player
            if who is None or not isinstance(who, int) or who < 0:
                return
            spec = table.seats[who].bot
            if spec is None:
                return
            bot = _bot(spec, _seed_for(seed, who, table.version))
            try:
                st.apply(bot(st), player=who)
            except Error:
                return      # a bot that cannot move leaves the game to the people

    def _save(self, table: Table) -> None:
        """The game written to the store; if that fails, the game goes
        back to what was written last (nothing that is not kept is played)."""
        text = table.state.to_replay(seed=True)
        if text == table.saved:
            return
        try:
            self.store.moved(table.id, text, table.version)
        except Exception:
            table.state = table.ruleset.game.replay(table.saved)
            raise ServeError(503, "store_failed", "the move could not be kept; it was not made") \
                from None
        table.saved = text

    def tell(self, table: Table) -> None:
        """Every live connection of the game is told its new version."""
        for q in list(table.listeners):
            try:
                q.put_nowait(table.version)
            except asyncio.QueueFull:
                pass


def load_rulesets(paths: List[str]) -> List[Ruleset]:
    """The rule files to serve, each under a key made from its file name."""
    from .. import api
    out: List[Ruleset] = []
    keys: Dict[str, int] = {}
    for path in paths:
        game = api.load(path)
        stem = os.path.splitext(os.path.basename(path))[0]
        base = "".join(c if c.isalnum() or c in "-_" else "-" for c in stem) or "ruleset"
        n = keys.get(base, 0)
        keys[base] = n + 1
        out.append(Ruleset(base if n == 0 else f"{base}-{n + 1}", path, game))
    return out
