"""What every IR node's fields are made of: its position (``Pos``), and
fields that carry their facts (a name, a text, a fixed word, a bound) in
their metadata, for ``schema`` and ``shape``; so the published schema and
the shape check are generated from the node classes.  And the nodes'
equality, hash and ``repr`` (``node_methods``): made without compiling
source, or when first asked for."""

from __future__ import annotations

import operator
from typing import Any, Callable, Dict, Optional

import attrs


@attrs.frozen
class Pos:
    """Where a node came from: file name and 1-based line and column."""

    line: int
    column: int


def pos_field() -> Any:
    """A node's ``pos``: left out of equality and repr."""
    return attrs.field(default=None, eq=False, repr=False,
                       metadata={"description": "[line, column] in the rule file, or null"})


#: The grammar's identifier (rulelang.lark's NAME): what names a stat, rule,
#: pile, local… in the IR, however the IR was made.
NAME_PATTERN = r"[A-Za-z_][A-Za-z0-9_]*"
#: The grammar's quoted text (STRING, without its quotes): a title, label,
#: prompt, card name or log line holds no double quote and no line break.
TEXT_PATTERN = r'[^"\n]*'


def name_field(description: Optional[str] = None, default: Any = attrs.NOTHING) -> Any:
    """A name field (``NAME_PATTERN``; in a tuple, each item)."""
    return meta_field(description, default, string="name")


def text_field(description: Optional[str] = None, default: Any = attrs.NOTHING) -> Any:
    """A text field (``TEXT_PATTERN``, at most ``Limits.max_text`` long)."""
    return meta_field(description, default, string="text")


def meta_field(description: Optional[str] = None, default: Any = attrs.NOTHING, **schema: Any) -> Any:
    """A field with JSON Schema facts (``enum``, ``minimum``…) in its metadata."""
    meta = dict(schema)
    if description:
        meta["description"] = description
    return attrs.field(default=default, metadata=meta)


# ---------------------------------------------------------------- methods


def node_methods(namespace: Dict[str, Any]) -> None:
    """Give every node class of a module (``namespace``: its globals),
    declared with ``attrs.frozen(repr=False, eq=False)``, the ``__eq__``,
    ``__hash__`` and ``__repr__`` attrs would have given it.  attrs writes
    each class's methods as source and compiles it, and compiling a hundred
    classes' was a third of the time ``import rulelang`` took: equality
    and hash are made here from the fields without compiling anything, the
    repr the first time a node of the class is shown
    (``reprs_on_first_use``)."""
    for cls in list(namespace.values()):
        if isinstance(cls, type) and attrs.has(cls) and cls.__module__ == namespace["__name__"] \
                and "__eq__" not in cls.__dict__:
            cls.__eq__, cls.__hash__ = _eq_and_hash(cls)  # type: ignore[method-assign, assignment]
    reprs_on_first_use(namespace)


def _eq_and_hash(cls: type) -> "tuple[Callable[[Any, Any], Any], Callable[[Any], int]]":
    """``__eq__`` and ``__hash__`` as attrs makes them for a frozen class:
    the same class and equal fields (those with ``eq=True``, in order);
    the hash of the class's own number and those fields."""
    names = [a.name for a in attrs.fields(cls) if a.eq]
    salt = hash(f"<node hash {cls.__module__}.{cls.__qualname__}>")
    if not names:
        def __eq__(self: Any, other: Any) -> Any:
            if other.__class__ is not self.__class__:
                return NotImplemented
            return True

        def __hash__(self: Any) -> int:
            return hash((salt,))
    else:
        values = operator.attrgetter(*names)
        one = len(names) == 1

        def __eq__(self: Any, other: Any) -> Any:
            if other.__class__ is not self.__class__:
                return NotImplemented
            return values(self) == values(other)

        if one:
            def __hash__(self: Any) -> int:
                return hash((salt, values(self)))
        else:
            def __hash__(self: Any) -> int:
                return hash((salt, *values(self)))
    for fn in (__eq__, __hash__):
        fn.__qualname__ = f"{cls.__qualname__}.{fn.__name__}"
        fn.__module__ = cls.__module__
    return __eq__, __hash__


# ---------------------------------------------------------------- repr

try:        # attrs' own guard against a repr that reaches itself again
    from attr import _compat as _attrs_compat
    _guard: Any = _attrs_compat if hasattr(_attrs_compat, "repr_context") else None
except ImportError:     # pragma: no cover - an attrs without it
    _guard = None


def reprs_on_first_use(namespace: Dict[str, Any]) -> None:
    """Give every node class of a module (``namespace``: its globals),
    declared with ``attrs.frozen(repr=False)``, the ``__repr__`` attrs
    would have given it, written and compiled the first time a node of
    the class is shown rather than when the class is made: making a
    hundred classes' reprs is a tenth of the time ``import rulelang``
    takes, and a program that loads a rule file shows few of them."""
    for cls in list(namespace.values()):
        if isinstance(cls, type) and attrs.has(cls) and cls.__module__ == namespace["__name__"] \
                and "__repr__" not in cls.__dict__:
            cls.__repr__ = _first_repr  # type: ignore[method-assign]


def _first_repr(self: Any) -> str:
    owner = next(c for c in type(self).__mro__ if c.__dict__.get("__repr__") is _first_repr)
    made = _attrs_repr(owner)
    owner.__repr__ = made  # type: ignore[method-assign, assignment]
    return made(self)


def _attrs_repr(cls: type) -> Callable[[Any], str]:
    """The ``__repr__`` attrs writes for ``cls`` (``attr._make._make_repr_script``:
    ``Name(field=value, ...)``, the fields with ``repr=False`` left out,
    ``...`` for a node met again inside itself)."""
    fields = [(a.name, a.repr, a.init) for a in attrs.fields(cls) if a.repr is not False]
    globs: Dict[str, Any] = {"_compat": _guard, "AttributeError": AttributeError,
                             "NOTHING": attrs.NOTHING}
    parts = []
    for name, how, init in fields:
        get = f"self.{name}" if init else f'getattr(self, "{name}", NOTHING)'
        if how is True:
            parts.append(f"{name}={{{get}!r}}")
        else:
            globs[f"{name}_repr"] = how
            parts.append(f"{name}={{{name}_repr({get})}}")
    shown = f"f'{{self.__class__.__qualname__.rsplit(\">.\", 1)[-1]}}({', '.join(parts)})'"
    if _guard is None:
        lines = ["def __repr__(self):", f"  return {shown}"]
    else:
        lines = [
            "def __repr__(self):",
            "  try:",
            "    already_repring = _compat.repr_context.already_repring",
            "  except AttributeError:",
            "    already_repring = {id(self),}",
            "    _compat.repr_context.already_repring = already_repring",
            "  else:",
            "    if id(self) in already_repring:",
            "      return '...'",
            "    else:",
            "      already_repring.add(id(self))",
            "  try:",
            f"    return {shown}",
            "  finally:",
            "    already_repring.remove(id(self))",
        ]
    code = compile("\n".join(lines), f"<attrs generated repr {cls.__module__}.{cls.__qualname__}>",
                   "exec")
    space: Dict[str, Any] = {}
    eval(code, globs, space)  # noqa: S307 - our own source, from the class's field names
    made: Callable[[Any], str] = space["__repr__"]
    made.__qualname__ = f"{cls.__qualname__}.__repr__"
    return made
