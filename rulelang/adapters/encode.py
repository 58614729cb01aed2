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

#: For each vector length, the place of each leaf's key (the views of one
#: game repeat their paths: the CRC-32 is worked out once); emptied past
#: ``_MOST`` keys.
_PLACES: Dict[int, Dict[str, int]] = {}
_MOST = 1 << 20


def _place(key: str, size: int, places: Dict[str, int]) -> int:
    if len(places) >= _MOST:
        places.clear()
    p = places[key] = zlib.crc32(key.encode("utf-8")) % size
    return p


def encode(view: Dict[str, Any], size: int = FEATURES) -> "np.ndarray[Any, np.dtype[np.float32]]":
    """The view as ``size`` float32 numbers (see the module)."""
    places = _PLACES.setdefault(size, {})
    get = places.get
    acc: Dict[int, float] = {}
    stack: List[Tuple[str, Any]] = [("", view)]
    while stack:
        path, value = stack.pop()
        t = type(value)
        if t is dict:
            for key, item in value.items():
                if key not in _LEFT_OUT:
                    stack.append((f"{path}.{key}" if path else str(key), item))
            continue
        if t is list or t is tuple:
            if all(type(item) is str for item in value):
                for item in value:         # a pile, a list of names: a count of each
                    k = f"{path}={item}"
                    p = get(k)
                    if p is None:
                        p = _place(k, size, places)
                    acc[p] = acc.get(p, 0.0) + 1.0
            else:
                for i, item in enumerate(value):
                    stack.append((f"{path}[{i}]", item))
            continue
        if t is bool:
            k, amount = path, (1.0 if value else 0.0)
        elif t is int or t is float:
            k, amount = path, float(value)
        elif value is None:
            k, amount = f"{path}=none", 1.0
        else:
            k, amount = f"{path}={value}", 1.0
        p = get(k)
        if p is None:
            p = _place(k, size, places)
        acc[p] = acc.get(p, 0.0) + amount
    vector = np.zeros(size, dtype=np.float32)
    if acc:
        vector[list(acc)] = list(acc.values())
    return vector
