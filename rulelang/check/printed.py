"""The checker's view of what components print: a track's spaces, a
stat's scale (its rows, one for each value from its min to its max), and
the values on cards, pieces and spaces (each name once, a word checked
against the stats' names); the layer under ``declarations``."""

from __future__ import annotations

import collections
from typing import Dict, Iterator, List, Optional, Sequence, Tuple

from .. import ir
from .statements import Statements
from .types import ANY, BOOL, NUM, PLAYER, POOL, TEXT


class Printed(Statements):
    """Tracks and scales, and what is printed on components."""

    def track(self, stat: ir.Stat) -> None:
        """A track's spaces: the data each prints, one type per name."""
        kinds: Dict[str, str] = {}
        for space in stat.spaces or ():
            for prop, kind in self.printed(space.props, f"space '{space.name}'"):
                if kind is not ANY and kinds.get(prop.name, kind) not in (kind, ANY):
                    self.error(prop, f"'{prop.name}' is a {kinds[prop.name]} on other spaces of "
                                     f"'{stat.name}', not a {kind}")
                if kinds.get(prop.name) in (None, ANY):
                    kinds[prop.name] = kind
        self.track_props[stat.name] = kinds

    def printed(self, props: Sequence[ir.PieceProp], owner: str) -> Iterator[Tuple[ir.PieceProp, str]]:
        """(prop, kind) for each value printed on a piece or a space: each
        name once, each word checked against the stat names."""
        seen = set()
        for prop in props:
            if prop.name in seen:
                self.error(prop, f"{owner} gives '{prop.name}' twice")
            seen.add(prop.name)
            v = prop.value
            if isinstance(v, ir.Name):
                self.word_clash(prop, v.name)
            yield prop, {ir.Num: NUM, ir.Bool: BOOL, ir.NoneLit: ANY, ir.Name: TEXT}[type(v)]

    def word_clash(self, node: object, word: str) -> None:
        if word in self.stats or word in self.consts:
            self.error(node, f"the word '{word}' is also the name of a stat or constant, "
                             f"which a bare '{word}' would read instead")

    def scale(self, s: ir.Stat, kind: str) -> None:
        """A stat's scale (``porters 8 min 0 max 10 { 0..2: capacity 0 … }``):
        a stat of numbers between fixed bounds, a row for each value from its
        min to its max, every row printing the same names, each name one
        type throughout.  What it prints is kept for 'X of S' (``scales``)."""
        what = f"the scale of '{s.name}'"
        rows = s.scale or ()
        self.scales[id(s)] = (s, self.scale_rows(rows, what))
        held = {TEXT: "words", BOOL: "yes/no values", PLAYER: "a player", "none": "a player",
                POOL: "dice"}.get(kind) or (f"a piece or space of '{kind[len('piece:'):]}'"
                                            if kind.startswith("piece:") else None)
        if held is None and isinstance(s.initial, ir.NoneLit):
            held = "none at first"
        if held is not None:
            self.error(s, f"'{s.name}' holds {held}: only a stat of numbers has a scale")
            return
        params = {p.name for p in self.rs.params}
        fixed: List[Optional[int]] = []
        for side, b in (("min", s.min), ("max", s.max)):
            if isinstance(b, ir.Name) and b.name in params:
                self.error(b, f"{what} needs a fixed {side}, and '{b.name}' is a parameter: the "
                              f"rows the scale needs would change with its value")
                return
            fixed.append(b.value if isinstance(b, ir.Num) else self.const_number(b))
        if s.min is None or s.max is None:
            self.error(s, f"{what} needs a min and a max: it has a row for each value "
                          f"between them")
            return
        lo, hi = fixed
        if lo is not None and hi is not None and lo <= hi:
            self.scale_coverage(rows, lo, hi, what, s)

    def const_number(self, b: Optional[ir.Bound]) -> Optional[int]:
        """The number a bound names (a number constant), or None."""
        c = self.consts.get(b.name) if isinstance(b, ir.Name) else None
        return c.value.value if c is not None and isinstance(c.value, ir.Num) else None

    def scale_rows(self, rows: Sequence[ir.ScaleRow], what: str) -> Dict[str, str]:
        """What the rows of a scale print (name -> type), each row checked:
        no none, one type a name, the same names on every row (those most
        rows give)."""
        kinds: Dict[str, str] = {}
        for row in rows:
            for prop, kind in self.printed(row.props, f"row {_span(row)} of {what}"):
                if isinstance(prop.value, ir.NoneLit):
                    self.error(prop, f"row {_span(row)} of {what} prints none for '{prop.name}': "
                                     f"a scale prints a number, yes/no or a word on every row")
                elif kinds.setdefault(prop.name, kind) != kind:
                    self.error(prop, f"'{prop.name}' is a {kinds[prop.name]} on other rows of "
                                     f"{what}, not a {kind}")
        given = [tuple(dict.fromkeys(p.name for p in row.props)) for row in rows]
        if not given:
            return kinds
        usual = collections.Counter(frozenset(g) for g in given).most_common(1)[0][0]
        names = next(g for g in given if frozenset(g) == usual)
        for row, g in zip(rows, given):
            for name in names:
                if name not in g:
                    self.error(row, f"row {_span(row)} of {what} gives no '{name}': every row "
                                    f"gives {', '.join(names)}")
            for prop in row.props:
                if prop.name not in usual:
                    self.error(prop, f"row {_span(row)} of {what} gives '{prop.name}', which the "
                                     f"other rows do not{self.nearest(prop.name, names)}")
        return kinds

    def scale_coverage(self, rows: Sequence[ir.ScaleRow], lo: int, hi: int, what: str,
                       stat: ir.Stat) -> None:
        """A row for each value from ``lo`` to ``hi``: a row outside them, or
        backwards, or sharing a value with another (both named, at the later
        one) is reported, and the values no row covers (the first ten), as
        a table's coverage is, in one sweep."""
        for row in rows:
            if row.low > row.high:
                self.error(row, f"row {row.low}..{row.high} of {what} runs backwards")
            elif row.low < lo or row.high > hi:
                self.error(row, f"row {_span(row)} of {what} is outside its bounds {lo}..{hi}")
        ordered = sorted(((row.low, i, row) for i, row in enumerate(rows) if row.low <= row.high),
                         key=lambda r: (r[0], r[1]))
        reach, reacher = lo - 1, None   # the highest value covered so far, and by which row
        missing: List[int] = []
        for low, i, row in ordered:
            if reacher is not None and low <= reach:
                first, later = (reacher[1], row) if i > reacher[0] else (row, reacher[1])
                self.error(later, f"{what} has two rows for {max(low, lo)} "
                                  f"({_span(first)} and {_span(later)})")
            elif len(missing) < 10:
                missing.extend(range(reach + 1, min(low, reach + 11)))
            if row.high > reach:
                reach, reacher = row.high, (i, row)
        if len(missing) < 10:
            missing.extend(range(reach + 1, min(hi + 1, reach + 11)))
        missing = [v for v in missing if lo <= v <= hi][:10]
        if missing:
            self.error(stat, f"{what} has no row for {', '.join(map(str, missing))}")


def _span(row: ir.ScaleRow) -> str:
    """How a scale's row is named in a message: ``3`` or ``3..4``."""
    return str(row.low) if row.low == row.high else f"{row.low}..{row.high}"
