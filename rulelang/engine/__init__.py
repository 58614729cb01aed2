"""Stage 4: the generic interpreter (compile the IR once, then run it)."""

from ..limits import Limits
from .game import Game
from .moves import LogEntry, Move, Result
from .state import CHANCE, State
from .program import Program, compile_ruleset

__all__ = ["CHANCE", "Game", "Limits", "LogEntry", "Move", "Program", "Result", "State",
           "compile_ruleset"]
