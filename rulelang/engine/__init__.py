"""Stage 4: the generic interpreter (compile the IR once, then run it)."""

from .program import Program, compile_ruleset
from .state import CHANCE, Game, Limits, LogEntry, Move, Result, State

__all__ = ["CHANCE", "Game", "Limits", "LogEntry", "Move", "Program", "Result", "State",
           "compile_ruleset"]
