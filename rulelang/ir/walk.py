"""Walking the IR, and the registry of its node classes.

Every pass over a tree of nodes goes through ``children``: ``walk`` visits
a whole tree, ``deepest`` measures its nesting (without recursion, so any
depth is safe to measure), and ``NODE_CLASSES`` names every node class
(what a serialized node's ``kind`` says), read by the data forms
(``shape``, ``serialize``, ``schema``).
"""

from __future__ import annotations

import operator
import weakref
from typing import Any, Callable, Dict, Iterator, List, Optional, Set, Tuple

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
# (Each field's type stays the text its class gives until a reader needs
# it: ``serialize`` resolves them when it makes its converter.)


#: Node class -> the names of its fields that may hold nodes: all but
#: ``pos`` and those of plain data (found once a class).
_FIELDS: Dict[type, Tuple[str, ...]] = {}
#: Class -> whether it is an attrs class (a node, or a ``Pos``).
_IS_NODE: Dict[type, bool] = {}

#: The field types (as a class's annotations write them) that hold no node:
#: names, texts, numbers, flags.  Half the fields of the IR; a walk skips them.
_PLAIN_TYPES = frozenset({"str", "int", "bool", "Optional[str]", "Optional[int]", "Optional[bool]",
                          "Tuple[str,...]", "Tuple[int,...]", "Optional[Tuple[str,...]]"})


def _holds_nodes(f: Any) -> bool:
    """Whether field ``f`` (an attrs attribute) may hold a node: by the
    text of its annotation (or the type it was resolved to)."""
    t = f.type
    if isinstance(t, str):
        return t.replace("'", "").replace('"', "").replace(" ", "") not in _PLAIN_TYPES
    return t not in (str, int, bool)


def _fields(cls: type) -> Tuple[str, ...]:
    found = _FIELDS.get(cls)
    if found is None:
        found = _FIELDS[cls] = tuple(f.name for f in getattr(cls, "__attrs_attrs__", ())
                                     if f.name != "pos" and _holds_nodes(f))
    return found


def _is_node(cls: type) -> bool:
    found = _IS_NODE.get(cls)
    if found is None:
        found = _IS_NODE[cls] = hasattr(cls, "__attrs_attrs__")
    return found


def _no_values(node: Any) -> Tuple[Any, ...]:
    return ()


#: Node class -> a function giving the values of its fields that may hold
#: nodes, as a tuple (an ``attrgetter``: one call in C for all of them).
_VALUES: Dict[type, Callable[[Any], Tuple[Any, ...]]] = {}


def _values_of(cls: type) -> Callable[[Any], Tuple[Any, ...]]:
    found = _VALUES.get(cls)
    if found is None:
        names = _fields(cls)
        if not names:
            found = _no_values
        elif len(names) == 1:
            one = operator.attrgetter(names[0])
            found = lambda node: (one(node),)  # noqa: E731
        else:
            found = operator.attrgetter(*names)
        _VALUES[cls] = found
    return found


def child_list(node: Any) -> List[Any]:
    """``list(children(node))``, made faster (what the walks use)."""
    out: List[Any] = []
    is_node = _IS_NODE
    for v in (_VALUES.get(type(node)) or _values_of(type(node)))(node):
        if isinstance(v, tuple):
            for x in v:
                t = type(x)
                known = is_node.get(t)
                if known or (known is None and _is_node(t)):
                    out.append(x)
        else:
            t = type(v)
            known = is_node.get(t)
            if known or (known is None and _is_node(t)):
                out.append(v)
    return out


def children(node: Any) -> Iterator[Any]:
    """The IR nodes directly inside ``node`` (fields, and nodes in tuple
    fields), in field order; positions are not nodes."""
    return iter(child_list(node))


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
    key = id(node)
    known = _shallow.get(key)
    if known is not None and known[0]() is node and limit >= known[1]:
        return None         # (measured already: the parser, then the checker, ask)
    found = _deepest(node, limit)
    if found is None and isinstance(node, declarations.Ruleset):
        _shallow[key] = (weakref.ref(node, _forget(key)), limit)
    return found


def _forget(key: int) -> Any:
    def forget(_ref: object) -> None:
        if _shallow is not None:        # (None while the interpreter shuts down)
            _shallow.pop(key, None)
    return forget


#: id(ruleset) -> (a weak reference to it, a limit it is known to be within):
#: IR nodes are frozen, so a ruleset's depth is measured once.
_shallow: Dict[int, Tuple["weakref.ReferenceType[Any]", int]] = {}


def _deepest(node: Any, limit: int) -> Any:
    # Level by level first, which only says whether any node is too deep
    # (the common answer, no, at a third of the cost); then, if one is,
    # the walk that finds which.
    level = [node]
    depth = 0
    while level:
        if depth > limit:
            return _first_too_deep(node, limit)
        below: List[Any] = []
        for n in level:
            below += child_list(n)
        level = below
        depth += 1
    return None


def _first_too_deep(node: Any, limit: int) -> Any:
    stack = [(node, 0, None)]
    pop, push = stack.pop, stack.append
    while stack:
        n, depth, where = pop()
        where = getattr(n, "pos", None) or where
        if depth > limit:
            return n if getattr(n, "pos", None) is not None else At(where)
        depth += 1
        for child in child_list(n):
            push((child, depth, where))
    return None


def walk(node: Any) -> Iterator[Any]:
    """Every node in ``node``'s tree, itself first, without recursion."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        kids = child_list(n)
        if kids:
            kids.reverse()
            stack.extend(kids)


def names_in(node: Any) -> Set[str]:
    """The names an expression reads (bare names and the stat of x.stat)."""
    return {n.name for n in walk(node) if isinstance(n, (Name, Attr))}

