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
import sys
from typing import Any, Callable, Dict, List, Mapping, Optional

import attrs

from ..engine import Game, Move, State
from ..errors import Error, IllegalMoveError, RulesetError, SaveError
from ..show import terminal
from .store import Row, Seat, Store, now, token_hash
from .thinking import OFFERED, Thinkers, checked_spec, limits, make_bot, thinks

#: What a bot is: given the state at its decision, the move it makes.
Bot = Callable[[State], Move]

#: The bot specs the lobby offers (``thinking``: any spec within its caps is taken).
BOTS = OFFERED
#: The most log entries a view carries (the newest).
LOG_SHOWN = 60
#: The most games the server holds.
MOST_GAMES = 100_000
#: The most quick bots' moves one request may set off (a game of quick
#: bots only plays to its end at its creation, within this; a thinking
#: bot's move is a task of its own, ``Hall._think``).
MOST_BOT_MOVES = 100_000


class ServeError(Exception):
    """A request the server refuses: an HTTP status, a short code for
    programs and one clear line for people.  Nothing was changed."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def _bot(spec: str, seed: int) -> Bot:
    """A quick bot's move maker, from its checked spec (``thinking.make_bot``:
    the one place a bot is made; a thinking bot is made there in a worker)."""
    return make_bot(spec, seed).choose


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
                "bots": list(BOTS), "bot_limits": limits()}


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
    #: The seat whose bot is working out its move in a worker (``Hall._think``).
    thinking: Optional[int] = None
    #: That work, while it runs.
    task: "Optional[asyncio.Task[None]]" = None

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
                "to_move": who if isinstance(who, int) else None, "thinking": self.thinking,
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
                 seeds: Optional[Callable[[], int]] = None,
                 thinkers: Optional[Thinkers] = None) -> None:
        #: Where new games' seeds come from (a test passes its own, to play the same games).
        self.seeds = seeds or (lambda: secrets.randbits(63))
        #: The worker processes of the thinking bots (stopped by ``stop``
        #: when the hall made them).
        self.thinkers = thinkers or Thinkers()
        self._own_thinkers = thinkers is None
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
        specs: Dict[int, str] = {}
        for seat, spec in bots.items():
            try:
                specs[seat] = checked_spec(spec)
            except ValueError as e:
                raise ServeError(400, "bad_bot", str(e)) from None
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
        seats = [Seat(i, specs.get(i)) for i in range(state.players)]
        game_id = secrets.token_urlsafe(9)
        table = Table(game_id, rs, state, seats, now(), "")
        self._bots(table)
        table.saved = state.to_replay(seed=True)
        self.store.add(Row(game_id, rs.game.base.fingerprint, table.saved, table.version,
                           table.created, seats))
        self.tables[game_id] = table
        self._think_later(table)
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
        quick bots' moves up to the next person's decision or thinking
        bot's (whose work starts, to end later: ``_think``); written to the
        store before it returns.  Refused, changing nothing, when the seat
        is a spectator's, the version is not the game's, or the move is not
        one this seat may make now."""
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
        self._think_later(table)

    # ------------------------------------------------------------ the server's life

    def start(self) -> None:
        """When the server starts (its event loop running): the bots of the
        games restored from the store that were thinking think again."""
        for table in self.tables.values():
            self._think_later(table)

    async def stop(self) -> None:
        """When the server stops: no bot goes on thinking, the workers end."""
        tasks = [t.task for t in self.tables.values() if t.task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self._own_thinkers:
            await asyncio.get_running_loop().run_in_executor(None, self.thinkers.close)

    # ------------------------------------------------------------ inside

    def _bots(self, table: Table) -> None:
        """The quick bots' moves until a person is to decide, or a thinking
        bot (then ``table.thinking`` is its seat), or the game ends."""
        st = table.state
        seed = st.seed
        table.thinking = None
        for _ in range(MOST_BOT_MOVES):
            who = st.current_player
            if who is None or not isinstance(who, int) or who < 0:
                return
            spec = table.seats[who].bot
            if spec is None:
                return
            if thinks(spec):
                table.thinking = who
                return
            bot = _bot(spec, _seed_for(seed, who, table.version))
            try:
                st.apply(bot(st), player=who)
            except Error:
                return      # a bot that cannot move leaves the game to the people

    def _think_later(self, table: Table) -> None:
        """Start the work of the bot ``table.thinking`` (once the game as it
        stands is in the store), if none is under way; with no event loop
        running (a hall restored before its server starts) ``start`` does."""
        if table.thinking is None or table.task is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        table.task = loop.create_task(self._think(table, table.thinking, table.version,
                                                  table.saved))

    async def _think(self, table: Table, who: int, version: int, replay: str) -> None:
        """The thinking bot of seat ``who`` at ``version`` works out its move
        in a worker; then, under the table's lock, the move is checked,
        made and kept (``_bot_moved``), and every connection is told, as
        for a person's move."""
        spec = table.seats[who].bot
        assert spec is not None
        seed = _seed_for(table.state.seed, who, version)
        try:
            done, answer = await self.thinkers.think(table.ruleset.game, replay, spec, seed)
        except asyncio.CancelledError:
            table.task = None
            raise
        except Exception as e:      # (the pool shut, a job that did not pickle: said below)
            done, answer = False, f"{type(e).__name__}: {e}"
        async with table.lock:
            table.task = None
            try:
                moved = self._bot_moved(table, who, spec, version, done, answer)
            except Exception as e:      # (a fault of ours: said, and the game left as kept)
                table.thinking = None
                self._say(f"game {table.id}: the move of the bot of seat {who} failed: "
                          f"{type(e).__name__}: {e}")
                return
        if moved:
            self.tell(table)

    def _bot_moved(self, table: Table, who: int, spec: str, version: int, done: bool,
                   answer: str) -> bool:
        """A thinking bot's answer (under the table's lock): made, with the
        quick bots' answers after it, and kept, if it is a legal move of its
        seat in the game as it was when asked; whether it was made.  A bot
        that cannot move leaves the game to the people, as a quick one does
        (until the server starts again)."""
        st = table.state
        if table.version != version or st.current_player != who or table.thinking != who:
            return False        # (the game is not where the bot was asked: nothing to do)
        if done and answer not in {m.label for m in st.legal_moves(player=who)}:
            done, answer = False, "it answered a move that is not legal"
        if done:
            try:
                st.apply(answer, player=who)
            except Error as e:
                done, answer = False, f"its move failed: {e}"
        if not done:
            table.thinking = None
            self._say(f"game {table.id}: the bot of seat {who} ({spec}) did not move: {answer}")
            return False
        self._bots(table)
        try:
            self._save(table)
        except ServeError:
            table.thinking = None
            self._say(f"game {table.id}: the move of the bot of seat {who} could not be kept")
            return False
        self._think_later(table)
        return True

    @staticmethod
    def _say(text: str) -> None:
        """A line of the server's log (stderr)."""
        print(terminal(f"rulelang serve: {text}"), file=sys.stderr)

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
            who = table.state.current_player
            spec = table.seats[who].bot if isinstance(who, int) and who >= 0 else None
            table.thinking = who if spec is not None and thinks(spec) else None
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
