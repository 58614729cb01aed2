"""Where the server keeps its games: one SQLite file (stdlib ``sqlite3``).

Each game is kept as its replay (``state.to_replay()``, docs/saves.md),
seed included, rewritten in the same transaction as every move: a server
that restarts replays it and has every move again.  Seat tokens are kept
only as their SHA-256, so a copy of the file does not give anyone a seat.
"""

from __future__ import annotations

import hashlib
import sqlite3
import time
from typing import Dict, List, Optional, Tuple

import attrs

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id        TEXT PRIMARY KEY,
    ruleset   TEXT NOT NULL,      -- the ruleset's fingerprint (Game.fingerprint)
    replay    TEXT NOT NULL,      -- state.to_replay(seed=True): the setup and every move
    version   INTEGER NOT NULL,   -- how many moves the replay holds
    created   REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    game      TEXT NOT NULL REFERENCES games(id),
    seat      INTEGER NOT NULL,
    bot       TEXT,               -- a bot's spec ("random"), or NULL for a person
    name      TEXT,               -- the name a person joined with
    token     TEXT,               -- SHA-256 of the person's seat token, NULL while free
    PRIMARY KEY (game, seat)
);
"""


def token_hash(token: str) -> str:
    """What the store keeps of a seat token."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@attrs.define
class Seat:
    seat: int
    bot: Optional[str] = None
    name: Optional[str] = None
    token: Optional[str] = None       # the token's hash


@attrs.define
class Row:
    """One game as the store holds it."""
    id: str
    ruleset: str
    replay: str
    version: int
    created: float
    seats: List[Seat]


class Store:
    """The games' file.  Every write is one transaction, committed before
    the server answers."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(SCHEMA)

    def close(self) -> None:
        self.db.close()

    def add(self, row: Row) -> None:
        with self._transaction():
            self.db.execute("INSERT INTO games VALUES (?, ?, ?, ?, ?)",
                            (row.id, row.ruleset, row.replay, row.version, row.created))
            self.db.executemany("INSERT INTO seats VALUES (?, ?, ?, ?, ?)",
                                [(row.id, s.seat, s.bot, s.name, s.token) for s in row.seats])

    def moved(self, game: str, replay: str, version: int) -> None:
        """The game's replay after its moves up to ``version``."""
        with self._transaction():
            self.db.execute("UPDATE games SET replay = ?, version = ? WHERE id = ?",
                            (replay, version, game))

    def join(self, game: str, seat: int, name: str, token: str) -> None:
        with self._transaction():
            self.db.execute("UPDATE seats SET name = ?, token = ? WHERE game = ? AND seat = ?",
                            (name, token, game, seat))

    def games(self) -> List[Row]:
        seats: Dict[str, List[Seat]] = {}
        for game, seat, bot, name, token in self.db.execute(
                "SELECT game, seat, bot, name, token FROM seats ORDER BY game, seat"):
            seats.setdefault(game, []).append(Seat(seat, bot, name, token))
        rows: List[Tuple[str, str, str, int, float]] = list(self.db.execute(
            "SELECT id, ruleset, replay, version, created FROM games ORDER BY created"))
        return [Row(i, r, text, v, c, seats.get(i, [])) for i, r, text, v, c in rows]

    def _transaction(self) -> "_Tx":
        return _Tx(self.db)


class _Tx:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, value: object, tb: object) -> None:
        self.db.execute("COMMIT" if kind is None else "ROLLBACK")


def now() -> float:
    return time.time()
