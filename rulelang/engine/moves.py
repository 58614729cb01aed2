"""What a state hands out: its legal moves (``Move``), a game's result
(``Result``) and the entries of its log (``LogEntry``).

Plain values, the same for every ruleset, that the embedding program keeps,
compares, saves and pickles: kept apart from the machine that makes them
(``state.State``), which needs them, as ``game.Game`` does.
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Optional, Tuple

import attrs

from .visibility import SeenBy, sees

if TYPE_CHECKING:      # (a load does not import fractions: see ops.chance)
    from fractions import Fraction

_new_tuple = tuple.__new__
_field = operator.itemgetter


class Move(tuple):  # type: ignore[type-arg]
    """One legal decision (or chance outcome).  ``label`` is unique among
    the moves legal at that point; ``probability`` is set at chance nodes.
    Two moves are equal when label, player and probability are.  A move is
    immutable: the engine keeps and shares the moves it hands out.  (A
    tuple underneath, made in one step: a move list is made at every
    decision, so it is kept cheap; its fields are read by name.)"""

    __slots__ = ()

    def __new__(cls, label: str, player: Optional[int], probability: Optional[Fraction] = None,
                value: Any = None) -> Move:
        return _new_tuple(cls, (label, player, probability, value, -1))

    #: What the player sees and sends (unique among the moves legal then).
    label: str = property(_field(0))  # type: ignore[assignment]
    player: Optional[int] = property(_field(1))  # type: ignore[assignment]
    probability: Optional[Fraction] = property(_field(2))  # type: ignore[assignment]
    #: What the op that listed the move takes when it is made (its ``resume``).
    value: Any = property(_field(3))
    #: Its place in the list of legal moves it was made for (-1: none).
    _at: int = property(_field(4))  # type: ignore[assignment]

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"a Move cannot be changed (its {name!r} is fixed)")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a Move cannot be changed (its {name!r} is fixed)")

    def __reduce__(self) -> Tuple[Any, ...]:
        return (Move, (self[0], self[1], self[2], self[3]))

    @staticmethod
    def _list(found: Iterable[Tuple[str, Optional[Fraction], Any]],
              player: Optional[int], start: int = 0) -> List[Move]:
        """Moves for an op's list of (label, probability, value), each
        knowing its place (so ``apply`` finds it at once), counted from
        ``start``."""
        out = []
        i = start
        for label, prob, value in found:
            out.append(_new_tuple(Move, (label, player, prob, value, i)))
            i += 1
        return out

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return self[0] == other[0] and self[1] == other[1] and self[2] == other[2]

    def __ne__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return not self == other

    def __hash__(self) -> int:
        return hash((self[0], self[1], self[2]))

    def __repr__(self) -> str:
        return f"Move(label={self.label!r}, player={self.player!r}, probability={self.probability!r})"

    def to_dict(self) -> Dict[str, Any]:
        d: Dict[str, Any] = {"label": self.label, "player": self.player}
        if self.probability is not None:
            d["probability"] = str(self.probability)
        value = self.value
        if isinstance(value, tuple):
            value = list(value)
        d["value"] = value
        return d

    def __str__(self) -> str:
        return self.label


@attrs.frozen
class Result:
    scores: Tuple[int, ...]
    winners: Tuple[int, ...]
    ending: Optional[str]


@attrs.frozen
class LogEntry:
    """One thing that happened.  ``text`` is for people, the rest for
    programs.

    ``seen_by`` says who may read the entry in full: None (everyone), a
    tuple of seats, or ``()`` (nobody: a card drawn into a deck or a shared
    hidden pile).  Everyone else gets its public form: ``public`` for the
    text and ``public_value`` for the value (``for_seat``).  ``State.log``
    holds the entries in full (for the embedding program);
    ``State.log_for(seat)`` gives a seat its own."""

    round: int
    player: Optional[int]
    kind: str
    text: str
    value: Any = None
    #: The text for those not in ``seen_by`` (when it is not None).
    public: Optional[str] = None
    seen_by: SeenBy = None
    #: The value for those not in ``seen_by``.
    public_value: Any = None

    def for_seat(self, seat: Optional[int]) -> LogEntry:
        """The entry as ``seat`` (None: a spectator) may read it: itself, or
        its public form (``text`` and ``value`` replaced by ``public`` and
        ``public_value``), whose ``to_dict()`` is all that seat may see."""
        if sees(self.seen_by, seat):
            return self
        return attrs.evolve(self, text=self.public if self.public is not None else f"({self.kind})",
                            value=self.public_value)

    def text_for(self, viewer: Optional[int]) -> str:
        """The text as ``viewer`` may read it (None: a spectator)."""
        return self.for_seat(viewer).text

    def to_dict(self) -> Dict[str, Any]:
        v = self.value
        d = {"round": self.round, "player": self.player, "kind": self.kind,
             "text": self.text, "value": list(v) if isinstance(v, tuple) else v}
        if self.seen_by is not None:
            pv = self.public_value
            d["seen_by"] = list(self.seen_by)
            d["public"] = self.public
            d["public_value"] = list(pv) if isinstance(pv, tuple) else pv
        return d

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> LogEntry:
        """The entry ``to_dict`` gave.  An entry with a ``public`` text but
        no ``seen_by`` (saved before ``seen_by`` existed) is read by nobody
        in full."""
        v = d.get("value")
        if type(v) is list:
            v = tuple(v)
        if "public" not in d:       # read by everyone (most entries)
            return cls(d["round"], d["player"], d["kind"], d["text"], v)
        public, seen_by, pv = d["public"], d.get("seen_by"), d.get("public_value")
        if seen_by is None:
            seen_by = () if public is not None else None
        return cls(d["round"], d["player"], d["kind"], d["text"], v, public,
                   tuple(seen_by) if seen_by is not None else None,
                   tuple(pv) if type(pv) is list else pv)
