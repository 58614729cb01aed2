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
# first load: paused for the import, as for a load (``api``).  (Not
# ``gc.freeze``, which would save more, but would also keep the importing
# program's own garbage cycles made before the import from being collected.)
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
        if not _gc.get_freeze_count():
            # Everything the import made lives as long as the process: moved
            # to the oldest generation now rather than walked by the next
            # young collection (a whole walk of it, 4 ms) and then by the
            # next middle one.  Unfrozen at once, so every cycle stays
            # collectable (not left frozen, which only ``rulelang …``, as
            # the owner of its process, does; and not done if the program
            # had frozen objects itself, which ``unfreeze`` would let go).
            _gc.freeze()
            _gc.unfreeze()
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
