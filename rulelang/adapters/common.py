"""What every adapter shares, with no third-party library: the stable
action numbers, the rewards a result gives, what a ruleset is (chance,
hidden information) as those libraries' flags need it, and a running
digest of what each seat has seen (a perfect-recall information state
that costs the same at every step).

Action numbers.  A move is named by its label, which the engine keeps the
same for the same move in every position ("roll 4", "draw Trek", "Take:
3", "a1").  Its number is the CRC-32 of the label's UTF-8 bytes, modulo
the size of the action space (``ACTIONS`` unless given): the same label
always has the same number, in any state, process or version.  Two legal
moves whose labels meet at one number are told apart by probing: taken
in the order (number, label), each gets the first free number from its
own upwards (wrapping round).  So a number names one move at any point,
and the same move everywhere except where such a meeting moves it on; at
the shipped games' decisions (a few dozen moves among 65 536 numbers)
that is rare, and ``number_moves`` is all that decides it.
"""

from __future__ import annotations

import hashlib
import json
import zlib
from typing import Any, Dict, List, Optional, Sequence

from .. import ir
from ..engine import Game, Move, Result, State

#: The size of the action space unless an adapter is given another.
ACTIONS = 1 << 16

#: The statements that wait for chance in explicit mode (docs/language.md,
#: "Moves"): a ruleset with none of them is deterministic.
_CHANCE = (ir.Roll, ir.RollOff, ir.Pool, ir.RollOn, ir.Test, ir.Draw, ir.PickPiece)


def action_of(label: str, size: int = ACTIONS) -> int:
    """The number a move's label has unless another legal move met it there."""
    return zlib.crc32(label.encode("utf-8")) % size


def number_moves(moves: Sequence[Move], size: int = ACTIONS) -> Dict[int, Move]:
    """The legal moves by number (``action_of``, probed on a meeting), in
    the order of their numbers."""
    if len(moves) > size:
        raise ValueError(f"{len(moves)} legal moves do not fit an action space of {size}")
    ranked = sorted((action_of(m.label, size), m.label, m) for m in moves)
    taken: Dict[int, Move] = {}
    for number, _, move in ranked:
        while number in taken:
            number = (number + 1) % size
        taken[number] = move
    return dict(sorted(taken.items()))


def has_chance(game: Game) -> bool:
    """Whether the ruleset has a statement that waits for chance in
    explicit mode (a die, a table, a test, a draw, a piece picked at random)."""
    return any(isinstance(node, _CHANCE) for node in ir.walk(game.ruleset))


def has_hidden(game: Game) -> bool:
    """Whether anything in the ruleset is hidden from some seat: a hidden
    or secret stat or piece value, a hidden pile, a secret choice.  (A
    deck's order is no secret in explicit mode: each draw is chance.)"""
    for node in ir.walk(game.ruleset):
        if getattr(node, "sight", None) is not None or getattr(node, "hidden", False) is True \
                or getattr(node, "secret", False) is True:
            return True
    return False


def returns(result: Result, players: int, zero_sum: bool = False) -> List[float]:
    """Each seat's reward for a finished game, from who won.

    By default a winner gets 1 and every other seat -1 (a solitaire game
    won: 1, lost: -1; a co-operative game: all 1 or all -1).  With
    ``zero_sum`` (two or more players) the winners share 1 and the others
    share -1, so the rewards add up to 0 (a game everyone or nobody wins:
    0 each)."""
    winners = set(result.winners)
    if not zero_sum:
        return [1.0 if seat in winners else -1.0 for seat in range(players)]
    k = len(winners)
    if k in (0, players):
        return [0.0] * players
    return [1.0 / k if seat in winners else -1.0 / (players - k) for seat in range(players)]


#: What a seat's reward is made from: who won, or its score.
REWARDS = ("win", "score")


def check_reward(reward: str, zero_sum: bool = False) -> None:
    """Refuse a reward kind that is not one of ``REWARDS`` (and a zero-sum score)."""
    if reward not in REWARDS:
        raise ValueError(f"reward must be 'win' or 'score', not {reward!r}")
    if zero_sum and reward == "score":
        raise ValueError("zero_sum applies to reward='win' (scores add up to what the rules say)")


def rewards(result: Result, players: int, reward: str = "win", zero_sum: bool = False) -> List[float]:
    """Each seat's reward for a finished game: ``returns`` (from who won)
    for ``reward="win"``, each seat's score for ``"score"`` (a solitaire
    game with no ``winner … where`` is always won: its score is what
    tells one game from another)."""
    if reward == "score":
        return [float(s) for s in result.scores]
    return returns(result, players, zero_sum)


def canonical(value: Any) -> str:
    """Plain data as canonical JSON text (keys sorted, no spaces)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def view_text(state: State, seat: Optional[int]) -> str:
    """What ``seat`` may see now (``State.view``), as canonical JSON text."""
    return canonical(state.view(seat))


class Seen:
    """For each seat, a digest of the game's log as that seat may read it
    (``LogEntry.for_seat``): two states get the same digest for a seat
    exactly when that seat was told the same things, in the same order.
    Kept up to date by ``update`` after each move (reading only the new
    entries), so a perfect-recall information state costs the same at the
    thousandth move as at the first.

    ``told`` counts, for each seat, the texts it was told by the place
    their CRC-32 gives among ``TOLD`` (a bag of events, for an information
    state tensor: lossy, unlike the digest)."""

    __slots__ = ("hashes", "count", "recent", "told")

    #: How many of the latest entries each seat's ``recent`` keeps.
    KEEP = 8
    #: The places of ``told``.
    TOLD = 256

    def __init__(self, players: int) -> None:
        self.hashes = [hashlib.sha256() for _ in range(players)]
        self.count = 0
        self.recent: List[List[str]] = [[] for _ in range(players)]
        self.told: List[Dict[int, int]] = [{} for _ in range(players)]

    def update(self, state: State) -> None:
        """Take in the entries the log gained since the last update."""
        log = state.log
        for entry in log[self.count:]:
            for seat, h in enumerate(self.hashes):
                mine = entry.for_seat(seat)
                h.update(canonical(mine.to_dict()).encode("utf-8") + b"\n")
                kept = self.recent[seat]
                kept.append(mine.text)
                if len(kept) > self.KEEP:
                    del kept[0]
                bag = self.told[seat]
                place = zlib.crc32(mine.text.encode("utf-8")) % self.TOLD
                bag[place] = bag.get(place, 0) + 1
        self.count = len(log)

    def digest(self, seat: int) -> str:
        return self.hashes[seat].hexdigest()[:32]

    def copy(self) -> Seen:
        other = Seen.__new__(Seen)
        other.hashes = [h.copy() for h in self.hashes]
        other.count = self.count
        other.recent = [list(r) for r in self.recent]
        other.told = [dict(t) for t in self.told]
        return other


def information_text(state: State, seen: Seen, seat: int, view: Optional[str] = None) -> str:
    """A perfect-recall information state for ``seat``: the digest of all
    it was told, its latest events in words, and what it sees now
    (``view``, its ``view_text`` when already made)."""
    recent = " | ".join(seen.recent[seat])
    return (f"seat {seat}; told {seen.count} events, digest {seen.digest(seat)}\n"
            f"latest: {recent}\n{view_text(state, seat) if view is None else view}")


def seats_of(game: Game, players: Optional[int]) -> int:
    """The number of players a game is set up for (its fewest by default),
    checked against its range."""
    n = game.min_players if players is None else players
    if isinstance(n, bool) or not isinstance(n, int) or not game.min_players <= n <= game.max_players:
        raise ValueError(f"{game.title} is for {game.players_text}, not {players!r}")
    return n


__all__ = ["ACTIONS", "REWARDS", "Seen", "action_of", "canonical", "check_reward", "has_chance", "has_hidden",
           "information_text", "number_moves", "returns", "rewards", "seats_of", "view_text"]


class HeldState:
    """What the PettingZoo and Gymnasium environments share: the rulelang
    state they hold (``state_``, None before ``reset``) and its legal moves
    by action number (``num_actions`` of them)."""

    state_: Optional[State]
    num_actions: int

    @property
    def rules_state(self) -> State:
        """The rulelang state underneath (the embedding program's view)."""
        if self.state_ is None:
            raise RuntimeError("call reset() first")
        return self.state_

    def _numbered(self) -> Dict[int, Move]:
        return number_moves(self.rules_state.legal_moves(), self.num_actions)
