"""What the language server knows about one rule file, as data: places,
symbols, problems, the outline, and ``Analysis``, which holds them with the
lookups the requests make.  ``analysis`` fills it in; ``outline`` makes the
outline.  Places are 0-based lines and columns counted in characters."""

from __future__ import annotations

import bisect
from typing import Dict, List, NamedTuple, Optional, Tuple

import attrs

from .. import ir
from ..check.resolve import Resolved
from ..limits import DEFAULT
from ..words import Token, tokens


class Place(NamedTuple):
    """A span on one line: 0-based line, first column, column past the end."""

    line: int
    start: int
    end: int


class Symbol(NamedTuple):
    """What a name stands for.  ``scope`` tells apart names that are only
    known in one place: a local's rule (or phase…), a piece field's set."""

    kind: str
    name: str
    scope: str = ""


@attrs.frozen
class Problem:
    """A diagnostic as the editor shows it: ``fix`` is the checker's
    suggestion as (the place of the misspelt name, the name meant)."""

    place: Place
    message: str
    warning: bool = False
    fix: Optional[Tuple[Place, str]] = None


@attrs.frozen
class Outline:
    """One entry of the document's outline."""

    name: str
    kind: str
    detail: str
    range: Tuple[int, int, int, int]        # start line, column, end line, column
    selection: Place
    children: Tuple["Outline", ...] = ()


@attrs.frozen
class Occurrence:
    """A name where it stands, and what it means there."""

    place: Place
    symbol: Symbol
    token: Token
    quoted: bool = False        # a card named by a quoted text


class Analysis:
    """One text parsed, checked and indexed (``analyse``)."""

    def __init__(self, text: str, filename: str):
        self.text = text
        self.filename = filename
        # (past the parser's size limit the file is only reported as too large)
        self.tokens: List[Token] = list(tokens(text)) if len(text) <= DEFAULT.max_source_bytes else []
        self._starts = [t.offset for t in self.tokens]
        self.lines = text.split("\n")
        self._line_starts = [0]
        for line in self.lines:
            self._line_starts.append(self._line_starts[-1] + len(line) + 1)
        #: where the innermost place of locals changes: (offset, its key), in order
        self._segments: List[Tuple[int, str]] = [(0, "")]
        self._segment_starts: List[int] = [0]
        self.problems: List[Problem] = []
        self.rs: Optional[ir.Ruleset] = None
        self.resolved: Optional[Resolved] = None
        self.definitions: Dict[Symbol, Place] = {}
        self.hovers: Dict[Symbol, str] = {}
        self.occurrences: List[Occurrence] = []
        self.outline: List[Outline] = []
        #: (start offset, end offset, key) of each place locals live in
        self.regions: List[Tuple[int, int, str]] = []
        self.locals: Dict[str, Dict[str, Place]] = {}

    # ------------------------------------------------------------ lookups

    def occurrence_at(self, line: int, column: int) -> Optional[Occurrence]:
        """The name at (or just before) a place."""
        for occ in self.occurrences:
            p = occ.place
            if p.line == line and p.start <= column <= p.end:
                return occ
        return None

    def token_at(self, line: int, column: int) -> Optional[Token]:
        """The token at (or ending at) a place."""
        offset = self.offset(line, column)
        i = bisect.bisect_right(self._starts, offset) - 1
        if i >= 0:
            t = self.tokens[i]
            if t.offset <= offset <= t.offset + len(t.text):
                return t
        return None

    def offset(self, line: int, column: int) -> int:
        """The offset of a 0-based (line, column) in the text."""
        return self._line_starts[min(max(line, 0), len(self.lines))] + column

    def references(self, symbol: Symbol) -> List[Occurrence]:
        return [occ for occ in self.occurrences if occ.symbol == symbol]

    def region_of(self, offset: int) -> str:
        """The key of the innermost place of locals holding ``offset``, or ""."""
        return self._segments[bisect.bisect_right(self._segment_starts, offset) - 1][1]

    def set_regions(self, regions: List[Tuple[int, int, str]]) -> None:
        """Keep the places of locals, (start, end, key) each, nested or
        apart, and where the innermost one changes (for ``region_of``)."""
        self.regions = sorted(regions, key=lambda r: (r[0], -r[1]))
        segments: List[Tuple[int, str]] = [(0, "")]
        stack: List[Tuple[int, str]] = []

        def close_before(at: int) -> None:
            while stack and stack[-1][0] < at:
                end, _ = stack.pop()
                segments.append((end + 1, stack[-1][1] if stack else ""))

        for start, end, key in self.regions:
            close_before(start)
            segments.append((start, key))
            stack.append((end, key))
        close_before(len(self.text) + 2)
        self._segments = segments
        self._segment_starts = [at for at, _ in segments]

    def names_in_scope(self, offset: int) -> Dict[str, Symbol]:
        """Every name a rule may use at ``offset``: the locals declared there
        and every name the file declares."""
        out: Dict[str, Symbol] = {}
        for symbol in self.definitions:
            if symbol.kind != "local":
                out.setdefault(symbol.name, symbol)
        key = self.region_of(offset)
        for name in self.locals.get(key, {}):
            out[name] = Symbol("local", name, key)
        return out

    # ------------------------------------------------------------ places

    def offset_of(self, pos: Optional[ir.Pos]) -> int:
        if pos is None:
            return 0
        return self.offset(pos.line - 1, pos.column - 1)

    def source_line(self, pos: Optional[ir.Pos]) -> str:
        if pos is None or pos.line - 1 >= len(self.lines):
            return ""
        return self.lines[pos.line - 1].strip()

    def block_end(self, start: int) -> Tuple[int, int]:
        """(line, column past the end) of the declaration starting at
        offset ``start``: its braces' end when a '{' opens on its line, else
        the end of that line."""
        toks = self.tokens
        i = bisect.bisect_left(self._starts, start)
        if i >= len(toks):
            return len(self.lines) - 1, 0
        line = toks[i].line
        depth = 0
        for k in range(i, len(toks)):
            t = toks[k]
            if depth == 0 and t.line != line:
                break
            if t.text == "{":
                depth += 1
            elif t.text == "}":
                depth -= 1
                if depth == 0:
                    return t.line, t.end_column
        if depth > 0:
            return len(self.lines) - 1, len(self.lines[-1])
        return line, len(self.lines[line])

    def line_col(self, offset: int) -> Tuple[int, int]:
        line = bisect.bisect_right(self._line_starts, offset) - 1
        return line, offset - self._line_starts[line]
