"""The exceptions of rulelang and the one way diagnostics are printed.

``Error`` is the root of every error rulelang raises on purpose, so an
embedding program can catch them all with one ``except``:

    Error
    ├── RulesetError          something is wrong with a ruleset (file, line, column)
    │   ├── RulesetSyntaxError     it does not parse (or a data document is malformed)
    │   ├── RulesetCheckError      it parses, but the checker found problems
    │   └── RulesetRuntimeError    a rule failed or went past a limit while playing
    ├── IllegalMoveError      the move is not legal now; the state has not changed
    └── SaveError             a saved state or replay is refused (``path``: where in it)

``IllegalMoveError`` and ``SaveError`` are ``ValueError`` too.
"""

from __future__ import annotations

from typing import List, Optional

import attrs


@attrs.frozen
class Diagnostic:
    """One problem: where it is and what is wrong."""

    filename: str
    line: int
    column: int
    message: str
    source_line: str = attrs.field(default="", eq=False)

    def format(self) -> str:
        """``file:line:col: message``, then the source line and a caret."""
        head = f"{self.filename}:{self.line}:{self.column}: {self.message}"
        if not self.source_line:
            return head
        caret = " " * (max(self.column, 1) - 1) + "^"
        return f"{head}\n    {self.source_line}\n    {caret}"


def source_line(source: str, line: int) -> str:
    lines = source.splitlines()
    if 1 <= line <= len(lines):
        return lines[line - 1].replace("\t", " ")
    return ""


class Error(Exception):
    """The root of every error rulelang raises on purpose."""


class RulesetError(Error):
    """Something is wrong with a ruleset.  ``diagnostics`` lists every
    problem found; ``filename``, ``line``, ``column`` and ``message`` are
    those of the first."""

    def __init__(self, diagnostics: List[Diagnostic]):
        if not diagnostics:
            raise ValueError("RulesetError needs at least one diagnostic")
        self.diagnostics = list(diagnostics)
        first = self.diagnostics[0]
        self.filename = first.filename
        self.line = first.line
        self.column = first.column
        self.message = first.message
        super().__init__(self.format())

    @classmethod
    def at(cls, filename: str, line: int, column: int, message: str,
           source: str = "") -> "RulesetError":
        return cls([Diagnostic(filename, line, column, message,
                               source_line(source, line))])

    def format(self) -> str:
        return "\n".join(d.format() for d in self.diagnostics)


class RulesetSyntaxError(RulesetError):
    """The rule file does not parse."""


class RulesetCheckError(RulesetError):
    """The rule file parses but the checker found problems."""


class RulesetRuntimeError(RulesetError):
    """A rule failed while the game ran (e.g. it looped without end)."""


class IllegalMoveError(Error, ValueError):
    """The move is not legal now; the state has not changed."""

    def __init__(self, message: str, move: Optional[object] = None):
        super().__init__(message)
        self.move = move


class SaveError(Error, ValueError):
    """A saved state (``Game.restore``) or a replay (``Game.replay``) is
    refused.  ``path`` says where in the document the fault is, as a JSON
    path (``$.piles[3][7]``; ``$`` for the whole document), ``reason`` what
    is wrong; the message is ``path: reason``."""

    def __init__(self, path: str, reason: str):
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason
