"""What a bare name in a rule means, decided in one place.

A bare name in a rule file can stand for many things: a property of the
card a 'where' looks at, a field of a piece, a local, a stat of the player
in scope, a global stat, a constant or a word.  The order in which they are
tried is part of the language, and ``Names.bare`` is its one statement.  Only
the checker asks it: it records what each name means where it stands, and
the compiler (which turns names into slots) reads that record, so the two
can never read a name differently.

``Resolved`` is what the checker worked out on the way about a sound
ruleset (the type of every stat, field and card property and of every
expression, the stat of each word, what each bare name it read means, the
parts of each log line), kept for the stages after it
(``check.resolve_ruleset``).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import (Any, Container, Dict, FrozenSet, Iterator, Mapping, Optional, Sequence, Tuple,
                    Union)

import attrs

from .. import ir

#: What a bare name may be bound to, in the order the language tries them.
CARD = "card"        # a property of the card in scope (in a card 'where')
PIECE = "piece"      # a field of a piece in scope, the innermost 'where' first
LOCAL = "local"      # a rule's parameter, a 'let', a loop's variable
PLAYER = "player"    # a stat each player has (a turn stat too)
GLOBAL = "global"    # a stat of the whole game
CONST = "const"
WORD = "word"        # a value of a stat of words, or a word printed on a component

ORDER = (CARD, PIECE, LOCAL, PLAYER, GLOBAL, CONST, WORD)

#: A log line's parts: its text, and its placeholders as nodes.
LogParts = Tuple[Union[str, ir.Name, ir.Attr], ...]


@attrs.frozen
class Binding:
    """What one bare name means where it stands.  For a piece field:
    ``scope`` is the index of the piece scope it reads (in the sequence of
    piece scopes given to ``bare``, innermost last) and ``pieces`` its set."""

    kind: str
    scope: int = -1
    pieces: str = ""


_FIXED = {kind: Binding(kind) for kind in (CARD, LOCAL, PLAYER, GLOBAL, CONST, WORD)}


def words_of(rs: ir.Ruleset) -> Iterator[str]:
    """Every word a bare name may stand for: the values of stats and of
    pieces' state values (a track's values are its spaces' names), and the
    words printed on spaces, scales, cards and pieces."""
    for s in (*rs.stats, *(st for a in rs.actors for st in a.stats),
              *(st for ps in rs.pieces for st in ps.state)):
        printed: Tuple[Union[ir.Space, ir.ScaleRow], ...] = (*(s.spaces or ()), *(s.scale or ()))
        for line in printed:        # a track's spaces, a scale's rows
            yield from (p.value.name for p in line.props if isinstance(p.value, ir.Name))
    for s in (*rs.stats, *(st for a in rs.actors for st in a.stats)):
        yield from s.values or ()
    for deck in rs.decks:
        for card in deck.cards:
            yield from (p.value.name for p in card.props if isinstance(p.value, ir.Name))
    for ps in rs.pieces:
        for st in ps.state:
            yield from st.values or ()
        for piece in ps.pieces:
            yield from (p.value.name for p in piece.props if isinstance(p.value, ir.Name))


class Names:
    """The names a ruleset declares, by what they are: made once from the
    IR, read by the checker and the compiler."""

    def __init__(self, rs: ir.Ruleset):
        self.player_stats: FrozenSet[str] = frozenset(
            s.name for s in rs.stats if s.scope in ("player", "turn"))
        self.global_stats: FrozenSet[str] = frozenset(
            s.name for s in rs.stats if s.scope == "global")
        self.consts: FrozenSet[str] = frozenset(c.name for c in ir.constants(rs))
        self.card_props: FrozenSet[str] = frozenset(
            p.name for deck in rs.decks for card in deck.cards for p in card.props)
        #: piece set -> the names of its fields (state values and attributes)
        self.piece_fields: Dict[str, FrozenSet[str]] = {
            ps.name: frozenset([st.name for st in ps.state]
                               + [p.name for piece in ps.pieces for p in piece.props])
            for ps in rs.pieces}
        self.words: FrozenSet[str] = frozenset(words_of(rs))

    def bare(self, name: str, *, card: bool = False, pieces: Sequence[str] = (),
             locals: Container[str] = ()) -> Optional[Binding]:
        """What ``name`` means where a card is in scope (``card``), pieces of
        the sets ``pieces`` are (innermost last) and ``locals`` are defined;
        None when it means nothing there."""
        if card and name in self.card_props:
            return _FIXED[CARD]
        for i in range(len(pieces) - 1, -1, -1):
            if name in self.piece_fields.get(pieces[i], ()):
                return Binding(PIECE, i, pieces[i])
        if name in locals:
            return _FIXED[LOCAL]
        if name in self.player_stats:
            return _FIXED[PLAYER]
        if name in self.global_stats:
            return _FIXED[GLOBAL]
        if name in self.consts:
            return _FIXED[CONST]
        if name in self.words:
            return _FIXED[WORD]
        return None


def _frozen(table: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(table))


@attrs.frozen
class Resolved:
    """What the checker worked out about one ruleset: read-only tables, made
    by ``Checker.resolved`` after a run (``check.resolve_ruleset``).

    ``stat_types`` gives every stat's type (``check.NUM``, ``TEXT``…),
    ``word_stats`` the stat of words each word is a value of, ``card_props``
    the type of each card property (``ANY`` when cards differ),
    ``track_props`` what each track's spaces print (name -> type), and
    ``piece_fields`` each piece set's fields: name -> (type, whether it is a
    state value, which a rule may change); ``scale_of(node)`` the stat
    whose scale an ``X of S`` reads."""

    names: Names = attrs.field(eq=False, repr=False)
    stat_types: Mapping[str, str]
    word_stats: Mapping[str, str]
    card_props: Mapping[str, str]
    track_props: Mapping[str, Mapping[str, str]]
    piece_fields: Mapping[str, Mapping[str, Tuple[str, bool]]]
    #: the rules that only work out a value (``purity``): called inline
    pure_rules: FrozenSet[str]
    #: id(node) -> (the ir.Name node, its binding), for each bare name the
    #: checker read (the node is kept, so no id is used twice).
    _bindings: Mapping[int, Tuple[ir.Name, Binding]] = attrs.field(eq=False, repr=False)
    #: id(node) -> (the expression, its type), for every expression checked.
    _types: Mapping[int, Tuple[ir.Expr, str]] = attrs.field(eq=False, repr=False)
    #: id(node) -> (the log statement, its parts), for every log line.
    _log_parts: Mapping[int, Tuple[ir.Log, LogParts]] = attrs.field(eq=False, repr=False)
    #: id(node) -> (the 'X of S' node, the stat or piece value S), for
    #: each one that reads a scale.
    _scales: Mapping[int, Tuple[ir.FieldOf, ir.Stat]] = attrs.field(eq=False, repr=False)

    def binding(self, node: ir.Name) -> Optional[Binding]:
        """What the bare name ``node`` (a node of ``rs``) means where it
        stands; None for a node the checker did not read as a value (an
        assignment's target, a stat's bound)."""
        found = self._bindings.get(id(node))
        return found[1] if found is not None and found[0] is node else None

    def type_of(self, node: ir.Expr) -> Optional[str]:
        """The type of expression ``node`` (``check.NUM``, ``TEXT``…) where
        it stands; None for one the checker did not read."""
        found = self._types.get(id(node))
        return found[1] if found is not None and found[0] is node else None

    def log_parts(self, node: ir.Log) -> Optional[LogParts]:
        """The parts of log line ``node``: its text, and its placeholders as
        the nodes whose names ``binding`` knows (``ir.log_parts``)."""
        found = self._log_parts.get(id(node))
        return found[1] if found is not None and found[0] is node else None

    def scale_of(self, node: ir.FieldOf) -> Optional[ir.Stat]:
        """The stat (or piece value) whose scale ``X of S`` (``node``)
        reads, or None when it reads a value of a piece or space."""
        found = self._scales.get(id(node))
        return found[1] if found is not None and found[0] is node else None

    @classmethod
    def make(cls, names: Names, *, stat_types: Mapping[str, str],
             word_stats: Mapping[str, str], card_props: Mapping[str, str],
             track_props: Mapping[str, Mapping[str, str]],
             piece_fields: Mapping[str, Mapping[str, Tuple[str, bool]]],
             bindings: Mapping[int, Tuple[ir.Name, Binding]],
             types: Mapping[int, Tuple[ir.Expr, str]],
             log_parts: Mapping[int, Tuple[ir.Log, LogParts]],
             scales: Mapping[int, Tuple[ir.FieldOf, ir.Stat]],
             pure_rules: FrozenSet[str] = frozenset()) -> "Resolved":
        """A Resolved holding read-only copies of these tables; the four
        keyed by node (``bindings``, ``types``, ``log_parts``, ``scales``)
        are taken over, not copied: the caller (``Checker.resolved``) is
        done with them."""
        return cls(names, _frozen(stat_types), _frozen(word_stats), _frozen(card_props),
                   _frozen({k: _frozen(v) for k, v in track_props.items()}),
                   _frozen({k: _frozen(v) for k, v in piece_fields.items()}),
                   frozenset(pure_rules), MappingProxyType(bindings), MappingProxyType(types),
                   MappingProxyType(log_parts), MappingProxyType(scales))
