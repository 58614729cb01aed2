"""What every IR node's fields are made of: its position (``Pos``), and
fields that carry their facts (a name, a text, a fixed word, a bound) in
their metadata, for ``schema`` and ``shape``; so the published schema and
the shape check are generated from the node classes."""

from __future__ import annotations

from typing import Any, Optional

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
