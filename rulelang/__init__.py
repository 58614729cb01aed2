"""rulelang: write the rules of a tabletop game in a small declarative
language, and run them with one generic interpreter.

    import rulelang
    game = rulelang.load("mygame.rules")
    state = game.new_game(players=3, seed=7)
    while not state.is_over:
        state.apply(random.choice(state.legal_moves()))
    print(state.result())
"""

import gc as _gc

# The import defines some hundred attrs classes, and the cycle collector's
# passes over what they make were about a twentieth of a fresh process's
# first load: paused for the import, as for a load (``api``).  After it,
# what the import made (modules, classes, functions, tables: all kept
# until the process ends) is moved out of the collector's sight
# (``gc.freeze``), so no pass walks it again: not the one that would
# follow the import, not those during loads and games, not the full one
# at exit (together about a tenth of a fresh process's first load).  What
# the importing program had made before is frozen with it: a cycle among
# those objects that becomes garbage later is not collected.
_collecting = _gc.isenabled()
_gc.disable()
try:
    from .api import load, loads
    from .engine import CHANCE, Game, Limits, LogEntry, Move, Result, State
    from .errors import (Diagnostic, Error, IllegalMoveError, RulesetCheckError, RulesetError,
                         RulesetRuntimeError, RulesetSyntaxError, SaveError)
    from .version import __version__ as __version__
finally:
    if _collecting:
        _gc.freeze()
        _gc.enable()



def __getattr__(name: str) -> object:
    """``rulelang.serialize`` (the IR as plain data; it lives in
    ``rulelang.ir``), imported when first asked for: a load does not need it."""
    if name == "serialize":
        from .ir import serialize
        globals()["serialize"] = serialize
        return serialize
    raise AttributeError(f"module 'rulelang' has no attribute {name!r}")


__all__ = [
    "CHANCE", "Diagnostic", "Error", "Game", "IllegalMoveError", "Limits", "LogEntry", "Move",
    "Result", "RulesetCheckError", "RulesetError", "RulesetRuntimeError",
    "RulesetSyntaxError", "SaveError", "State", "load", "loads",
]
