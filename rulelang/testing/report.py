"""What ``check_ruleset`` reports (``Report``, each ``Failure`` with what it
takes to see it again), and the records the runner passes around."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

import attrs

DEFAULT_MAX_MOVES = 10_000


@attrs.frozen
class Failure:
    """One broken promise, with what it takes to see it again."""

    check: str
    message: str
    seed: int
    players: int
    chance: str
    options: Optional[Dict[str, Any]]
    #: The moves (labels) from ``new_game`` up to the failure; when the
    #: failure happened while making a move, that move is the last one.
    moves: Tuple[str, ...]
    log: bool = True

    def reproduce(self, ruleset: str = "RULESET") -> str:
        """Python that replays the game up to the failure."""
        return (f"import rulelang\n"
                f"game = rulelang.load({ruleset!r})\n"
                f"state = game.new_game(players={self.players}, seed={self.seed}, "
                f"chance={self.chance!r}, options={self.options!r}, log={self.log})\n"
                f"for label in {list(self.moves)!r}:\n"
                f"    state.apply(label)\n")

    def to_dict(self) -> Dict[str, Any]:
        return attrs.asdict(self, value_serializer=lambda _i, _a, v: list(v) if isinstance(v, tuple) else v)

    def format(self) -> str:
        return (f"FAIL [{self.check}] seed {self.seed}, {self.players} players, "
                f"chance {self.chance}" + (f", options {self.options}" if self.options else "")
                + f", after {len(self.moves)} moves: {self.message}")


@attrs.define
class Report:
    """What ``check_ruleset`` found."""

    ruleset: str
    games: int = 0
    moves: int = 0
    games_by_chance: Dict[str, int] = attrs.Factory(dict)
    fresh_process_games: int = 0
    max_moves: int = DEFAULT_MAX_MOVES
    failures: List[Failure] = attrs.Factory(list)

    @property
    def ok(self) -> bool:
        return not self.failures

    def format(self) -> str:
        modes = ", ".join(f"{n} {mode}" for mode, n in self.games_by_chance.items())
        lines = [f"{self.ruleset}: {self.games} games ({modes}), {self.moves} moves, "
                 f"{self.fresh_process_games} replayed in fresh processes, "
                 f"{len(self.failures)} failure{'s' if len(self.failures) != 1 else ''}"]
        for f in self.failures:
            lines.append("  " + f.format())
            moves = list(f.moves)
            if len(moves) > 40:      # all of them are in to_dict() and reproduce()
                lines.append(f"    moves: {repr(moves[:10])[:-1]}, … {len(moves) - 30} more …, "
                             f"{repr(moves[-20:])[1:]}")
            else:
                lines.append(f"    moves: {moves!r}")
        return "\n".join(lines)

    def to_dict(self) -> Dict[str, Any]:
        return {"ruleset": self.ruleset, "games": self.games, "moves": self.moves,
                "games_by_chance": dict(self.games_by_chance),
                "fresh_process_games": self.fresh_process_games, "max_moves": self.max_moves,
                "ok": self.ok, "failures": [f.to_dict() for f in self.failures]}


class _Failed(Exception):
    def __init__(self, check: str, message: str) -> None:
        super().__init__(message)
        self.check = check
        self.message = message


@attrs.frozen
class _Spec:
    seed: int
    players: int
    chance: str
    options: Optional[Dict[str, Any]]
    log: bool
    pick: int


#: A game chosen for the fresh-process replays: (its spec, the labels of its
#: moves, the digest of its state at every step: ``processes._digests``).
Fresh = Tuple[_Spec, List[str], List[str]]
