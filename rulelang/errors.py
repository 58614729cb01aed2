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

from typing import List, Optional, Tuple

import attrs


@attrs.frozen
class Diagnostic:
    """One problem: where it is and what is wrong."""

    filename: str
    line: int
    column: int
    message: str
    source_line: str = attrs.field(default="", eq=False)
    #: For a name the checker does not know and a close one it does ("did
    #: you mean"): (the name written, the name probably meant), so a tool
    #: (the language server's quick fix) need not read them from the message.
    suggestion: Optional[Tuple[str, str]] = attrs.field(default=None, eq=False)

    def format(self) -> str:
        """``file:line:col: message``, then the source line and a caret.  A
        long line is shown around the column only (``…`` marks the cuts),
        so a one-line file of a megabyte prints a short diagnostic."""
        head = printable(f"{self.filename}:{self.line}:{self.column}: {self.message}")
        if not self.source_line:
            return head
        text, column = _around(self.source_line, max(self.column, 1))
        caret = " " * len(printable(text[:column - 1])) + "^"
        return f"{head}\n    {printable(text)}\n    {caret}"


#: How much of a long source line a diagnostic shows (``Diagnostic.format``).
SHOWN = 120

#: Characters a terminal would act on rather than show (escape sequences,
#: bells, the bidirectional overrides): a rule file's words are untrusted.
_UNSHOWN = {c: f"\\x{c:02x}" for c in [*range(0x20), *range(0x7f, 0xa0)] if c != 0x0a}
_UNSHOWN.update({c: f"\\u{c:04x}" for c in [*range(0x202a, 0x202f), *range(0x2066, 0x206a),
                                             0x200e, 0x200f, 0x061c]})   # (and the marks)


def printable(text: str) -> str:
    """``text`` with every control character but the line break written as
    an escape, for a terminal."""
    return text.translate(_UNSHOWN)


def _around(text: str, column: int) -> Tuple[str, int]:
    """(the part of ``text`` shown, the column in it): all of a short line;
    of a long one, SHOWN characters around ``column``."""
    if len(text) <= SHOWN:
        return text, column
    start = max(0, min(column - 1 - SHOWN // 2, len(text) - SHOWN))
    part = text[start:start + SHOWN]
    if start > 0:
        part, column = "…" + part, column - start + 1
    if start + SHOWN < len(text):
        part += "…"
    return part, column


def _split(source: str) -> List[str]:
    """The lines of ``source`` (the one place a source is split)."""
    return source.splitlines()


#: The last source split by ``source_line`` and its lines (tabs replaced
#: as they are asked for): a checker reporting thousands of problems in one
#: file splits it once, not once a problem.
_last: Tuple[Optional[str], List[str]] = (None, [])


def source_line(source: str, line: int) -> str:
    """Line ``line`` (from 1) of ``source``, tabs shown as spaces; "" when
    there is no such line."""
    global _last
    split, lines = _last
    if split is not source:
        lines = _split(source)
        _last = (source, lines)
    if 1 <= line <= len(lines):
        text: str = lines[line - 1]
        if "\t" in text:
            text = lines[line - 1] = text.replace("\t", " ")
        return text
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
