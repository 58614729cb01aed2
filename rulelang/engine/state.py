"""The move API's names where they were first imported from: ``Game``,
``State``, ``Move``, ``Result``, ``LogEntry``, ``CHANCE``, ``Limits`` and
the save format (``FORMAT``).

They live in ``moves`` (what a state hands out), ``play`` (``State``) and
``game`` (``Game``); this module only names them again, so that code and
tests that import (or patch) ``rulelang.engine.state.State`` or
``.Game`` keep working.  Nothing in the engine imports it.
"""

from __future__ import annotations

from ..limits import Limits
from . import saves as _saves
from .game import Game
from .moves import LogEntry, Move, Result
from .play import CHANCE, State

#: The format of ``State.to_json()`` (kept here too for those who import it).
FORMAT = _saves.FORMAT

__all__ = ["CHANCE", "FORMAT", "Game", "Limits", "LogEntry", "Move", "Result", "State"]
