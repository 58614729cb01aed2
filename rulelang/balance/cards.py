"""How often each card was drawn in a balance report's games: every
``draw`` of a copy, setup's deals included, by the card's name (a card
moved by ``move card`` is not drawn).

The draws are read from the log of a copy of the game played in step
with the real one (the real game and the players' look-ahead keep no
log: it would slow their thinking); the log is the one place that sees
each draw, also the cards shuffled back into a deck and drawn again
within one move, which a look at the piles between moves would miss.
"""

from __future__ import annotations

from typing import Dict, List, Optional

from .. import ir
from ..engine import Game, State
from ..errors import RulesetError

__all__ = ["CardWatch", "card_names"]


def card_names(game: Game) -> List[str]:
    """Every card of the game's decks (with a copy in this game), by name,
    once each, in the order the rule file declares them."""
    rs = game.ruleset
    return list(dict.fromkeys(c.name for d in rs.decks for c in d.cards if ir.copies(c, rs) > 0))


class CardWatch:
    """A logged copy of one game, given the same moves (``apply``); its
    draws added up by card name at the end (``count``)."""

    def __init__(self, game: Game, players: int, seed: int) -> None:
        self.names = game.prog.card_names
        self.copy: Optional[State] = None
        try:
            self.copy = game.new_game(players=players, seed=seed, log=True)
        except RulesetError:
            pass            # (the real game fails the same way, and is reported)

    def apply(self, label: str) -> None:
        if self.copy is not None:
            try:
                self.copy.apply(label)
            except RulesetError:
                self.copy = None    # (a log past Limits.max_log_entries: this game's draws are lost)

    def count(self, into: Dict[str, int]) -> None:
        """Add this game's draws to ``into`` (card name -> draws)."""
        if self.copy is None:
            return
        for entry in self.copy.log:
            if entry.kind == "draw" and isinstance(entry.value, int):
                name = self.names[entry.value]
                into[name] = into.get(name, 0) + 1
