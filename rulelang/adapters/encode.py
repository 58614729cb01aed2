"""A seat's view as a fixed-size vector of numbers, for the adapters whose
agents want arrays (PettingZoo, Gymnasium), made the same way for every
ruleset by the hashing trick: each leaf of ``State.view(seat)`` adds to
one place of the vector, found from the CRC-32 of its path.  A number (or
a yes/no) adds its value at its path ("players[1].stats.food"); a word,
a card or a piece's name adds 1 at its path and value ("piles.hand=King",
so a pile becomes the count of each card in it).  Two leaves may share a
place (the vector is short): a learner copes with that as with any
hashed feature.  Only the view is read, so nothing a seat may not see
reaches its vector.  Needs numpy (a dependency of both libraries).
"""

from __future__ import annotations

import zlib
from typing import Any, Dict, List, Tuple

import numpy as np

#: The length of the vector unless given.
FEATURES = 512
#: The bound of the observation space's every number (float32's largest:
#: the values are a view's numbers, at most ``Limits.max_number`` each).
BOUND = float(np.finfo(np.float32).max)

#: Keys of the view that the vector leaves out (the action mask says them).
_LEFT_OUT = frozenset({"legal_moves"})


def _leaves(value: Any, path: str, out: List[Tuple[str, float]]) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            if key not in _LEFT_OUT:
                _leaves(item, f"{path}.{key}" if path else str(key), out)
    elif isinstance(value, (list, tuple)):
        if all(isinstance(item, str) for item in value):
            out.extend((f"{path}={item}", 1.0) for item in value)
        else:
            for i, item in enumerate(value):
                _leaves(item, f"{path}[{i}]", out)
    elif isinstance(value, bool):
        out.append((path, 1.0 if value else 0.0))
    elif isinstance(value, (int, float)):
        out.append((path, float(value)))
    elif value is None:
        out.append((f"{path}=none", 1.0))
    else:
        out.append((f"{path}={value}", 1.0))


def encode(view: Dict[str, Any], size: int = FEATURES) -> "np.ndarray[Any, np.dtype[np.float32]]":
    """The view as ``size`` float32 numbers (see the module)."""
    leaves: List[Tuple[str, float]] = []
    _leaves(view, "", leaves)
    vector = np.zeros(size, dtype=np.float32)
    for path, amount in leaves:
        vector[zlib.crc32(path.encode("utf-8")) % size] += amount
    return vector
