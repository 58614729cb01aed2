"""Walking the IR, and the registry of its node classes.

Every pass over a tree of nodes goes through ``children``: ``walk`` visits
a whole tree, ``deepest`` measures its nesting (without recursion, so any
depth is safe to measure), and ``NODE_CLASSES`` names every node class
(what a serialized node's ``kind`` says), read by the data forms
(``shape``, ``serialize``, ``schema``).
"""

from __future__ import annotations

from typing import Any, Dict, Iterator, Optional, Set

import attrs

from . import declarations, fields, nodes
from .fields import Pos
from .nodes import Attr, Name

#: Every node class by its name (a serialized node's ``kind``), in the
#: order the classes are declared; ``Pos`` is among them.
NODE_CLASSES: Dict[str, type] = {
    name: cls for module in (fields, nodes, declarations) for name, cls in vars(module).items()
    if isinstance(cls, type) and attrs.has(cls) and cls.__module__ == module.__name__
}
for _cls in NODE_CLASSES.values():
    attrs.resolve_types(_cls)     # each class's hints, read in its own module


def children(node: Any) -> Iterator[Any]:
    """The IR nodes directly inside ``node`` (fields, and nodes in tuple
    fields), in field order; positions are not nodes."""
    for f in getattr(type(node), "__attrs_attrs__", ()):
        if f.name == "pos":
            continue
        v = getattr(node, f.name)
        if isinstance(v, tuple):
            for x in v:
                if hasattr(type(x), "__attrs_attrs__"):
                    yield x
        elif hasattr(type(v), "__attrs_attrs__"):
            yield v


class At:
    """A stand-in node for a bare position (where a node without one sits)."""

    def __init__(self, pos: Optional[Pos]) -> None:
        self.pos = pos


def deepest(node: Any, limit: int) -> Any:
    """The first IR node nested more than ``limit`` levels below ``node``
    (statements, expressions and declarations each count as a level), or
    None.  Walks without recursion, so any depth is safe to measure; every
    other pass over the IR (checker, compiler, repr) is recursive and relies
    on this bound."""
    stack = [(node, 0, None)]
    while stack:
        n, depth, where = stack.pop()
        where = getattr(n, "pos", None) or where
        if depth > limit:
            return n if getattr(n, "pos", None) is not None else At(where)
        for child in children(n):
            stack.append((child, depth + 1, where))
    return None


def walk(node: Any) -> Iterator[Any]:
    """Every node in ``node``'s tree, itself first, without recursion."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(list(children(n))))


def names_in(node: Any) -> Set[str]:
    """The names an expression reads (bare names and the stat of x.stat)."""
    return {n.name for n in walk(node) if isinstance(n, (Name, Attr))}

