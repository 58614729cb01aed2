"""The checker's types of values, and what a statement can see (``Scope``).

A type is the word the checker's messages use for a kind of value ("a
number", "a yes/no value"); a piece of set S is ``piece:S``; ``none`` is
the type of the value none, which a player's place accepts.
"""

from __future__ import annotations

import collections
from typing import ChainMap, Dict, Iterable, Optional, Set, Tuple

POOL = "pool of dice"
CARD = "card"
NUM, BOOL, PLAYER, TEXT, CARDS, ANY = "number", "yes/no value", "player", "word", "cards", "any"

#: What a rule's ``gives`` says, as the checker's type.
GIVES_TYPES: Dict[str, str] = {"number": NUM, "yes/no": BOOL, "player": PLAYER, "word": TEXT,
                               "card": CARD}

#: The built-in functions: name -> (fewest arguments, most or None).
FUNCS: Dict[str, Tuple[int, Optional[int]]] = {"min": (2, None), "max": (2, None), "abs": (1, 1)}

#: Why no roll may be made in a 'where' (``Scope.no_rolls``), and outside a
#: body (``DECL_ROLL.format(what=...)``).
WHERE_ROLL = ("a roll here would be made once for all the players: roll first "
              "(let r = roll d6) or roll inside 'for each player'")
DECL_ROLL = ("a roll can only be made in a rule, table, option, setup or phase, "
             "not in {what}")


def reserved_words() -> Set[str]:
    """Words that begin a statement or a value, or join values: a stat or
    a rule named after one could not be read back (``round += 1`` would
    change the round counter).  Words used only inside fixed phrases
    (``of``, ``to``, ``a`` ...) stay free."""
    return {
        # values
        "yes", "no", "none", "this", "round", "passed", "failed", "margin", "roll", "count", "seat",
        "give", "reveal", "secretly", "neighbour", "farthest", "connected", "distance",
        "size", "sum", "any", "highest", "lowest", "other", "not", "and", "or", "is", "has",
        # statements
        "if", "else", "let", "stop", "test", "draw", "move", "choose", "skip", "end", "log",
        "repeat", "while", "for", "may", "card", "spend", "pick",
    }


def one_kind(kinds: Iterable[str]) -> str:
    """The kind of a card property's values (any when they differ)."""
    known = set(kinds) - {ANY}
    return known.pop() if len(known) == 1 else ANY


def place(node: object) -> Tuple[int, int]:
    """(line, column) of a declaration, for putting them in file order."""
    pos = getattr(node, "pos", None)
    return (pos.line, pos.column) if pos is not None else (0, 0)


class Scope:
    """What a statement can see: locals (with their types), whether a
    player is in scope, how many loops enclose it."""

    def __init__(self, player: bool, setup: bool = False, turn: bool = False,
                 no_rolls: Optional[str] = None, pieces: Tuple[str, ...] = (), card: bool = False):
        self.player = player
        #: Whether a card is in scope (in a card 'where'): its properties are bare names.
        self.card = card
        #: The piece sets whose pieces are in scope (in piece 'where's), innermost last.
        self.pieces = pieces
        self.setup = setup
        self.turn = turn
        #: Names to types: this block's own first, then the blocks around it.
        self.locals: ChainMap[str, str] = collections.ChainMap()
        self.loops = 0
        #: Why a roll may not be made here (None: it may).
        self.no_rolls = no_rolls
        #: The type of what the rule this is in gives (None: it gives nothing).
        self.gives: Optional[str] = None

    def child(self, player: Optional[bool] = None, no_rolls: Optional[str] = None,
              piece: Optional[str] = None, card: bool = False) -> Scope:
        """The same locals, another player, a piece or a card in scope (a 'where')."""
        c = Scope(self.player if player is None else player, self.setup, self.turn,
                  no_rolls or self.no_rolls, self.pieces + (piece,) if piece else self.pieces,
                  card or self.card)
        c.locals = self.locals
        c.loops = self.loops
        c.gives = self.gives
        return c

    def branch(self) -> Scope:
        """A nested block: it sees the locals so far; those it makes stay
        inside it (a map of its own in front of the others', so a block
        costs nothing for the locals around it)."""
        c = Scope(self.player, self.setup, self.turn, self.no_rolls, self.pieces, self.card)
        c.locals = self.locals.new_child()
        c.loops = self.loops
        c.gives = self.gives
        return c


