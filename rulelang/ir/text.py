"""Log texts: a ``log`` statement's text split into plain strings and the
values it names in braces."""

from __future__ import annotations

import re
from typing import Optional, Union

from .fields import Pos
from .nodes import Attr, Name

_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)(?:\.([A-Za-z_][A-Za-z0-9_]*))?\}")


def log_parts(text: str, pos: Optional[Pos] = None) -> "list[Union[str, Name, Attr]]":
    """A log text split into plain strings and the values named in braces
    (``Name`` or ``Attr`` nodes, placed at ``pos``)."""
    parts: "list[Union[str, Name, Attr]]" = []
    at = 0
    for m in _PLACEHOLDER.finditer(text):
        if m.start() > at:
            parts.append(text[at:m.start()])
        if m.group(2):
            parts.append(Attr(m.group(1), m.group(2), pos))
        else:
            parts.append(Name(m.group(1), pos))
        at = m.end()
    if at < len(text):
        parts.append(text[at:])
    return parts
