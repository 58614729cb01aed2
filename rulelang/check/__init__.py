"""Stage 3: what the names of a ruleset mean, and what is wrong with it.

    resolve       what every bare name means (``Names.bare``: the one lookup
                  order, for the checker and the compiler), and ``Resolved``,
                  what the checker worked out about a sound ruleset
    checker       ``Checker`` and ``check``: every problem, with its place
    declarations  the checker's declarations and bodies,
    statements    its statements,
    expressions   its expressions (the type of each),
    base          its tables and reports,
    types         the types of values and ``Scope``, what a statement sees

Each part of the checker extends the one before it (``CheckerBase`` ->
``Expressions`` -> ``Statements`` -> ``Declarations`` -> ``Checker``), so a
statement's check can ask an expression's type and a declaration's check a
statement's.  Nothing here imports the engine or the parser.
"""

from __future__ import annotations

from .base import MAX_CARDS, MAX_DICE, MAX_DIE_SIDES, MAX_PLAYERS, MAX_POOL_OUTCOMES, SUGGESTION_BUDGET
from .checker import Checker, check, check_all, resolve_ruleset
from .resolve import Binding, Names, Resolved
from .types import ANY, BOOL, CARD, CARDS, NUM, PLAYER, POOL, TEXT, Scope, reserved_words

__all__ = [
    "ANY", "BOOL", "CARD", "CARDS", "NUM", "PLAYER", "POOL", "TEXT", "MAX_CARDS", "MAX_DICE",
    "MAX_DIE_SIDES", "MAX_PLAYERS", "MAX_POOL_OUTCOMES", "SUGGESTION_BUDGET", "Binding", "Checker",
    "Names", "Resolved", "Scope", "check", "check_all", "reserved_words", "resolve_ruleset",
]
