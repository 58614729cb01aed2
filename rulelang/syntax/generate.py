"""Components made from ranges and lists: one line of a deck or a piece set
that stands for many (``"{rank} of {suit}" for rank from 1 to 13 and suit
in hearts, spades: rank rank, suit suit``).  The parser expands such a line
into the cards or pieces it stands for, so the IR, its JSON form and the
engine see every component written out, as if by hand.

A range's end may be a constant or a parameter (``for n from 1 to
pawns``).  Such a line waits until the whole file is read (``Pending``),
then stands for the components of the parameter's widest value; those
the narrowest leaves out carry an ``ir.Presence`` saying for which
values they are in the game."""

from __future__ import annotations

import itertools
import re
from typing import TYPE_CHECKING, Any, Callable, Dict, List, NoReturn, Optional, Sequence, Tuple, Union

import attrs

from .. import ir
from .places import Meta, Token, pos as _pos, unquote as _unquote

#: One generator: (its name, the values it goes through, where it is written).
Generator = Tuple[str, Sequence[Union[int, str]], Any]

#: What a range's end may name: constant name -> its number, parameter name -> it.
Numbers = Dict[str, Union[int, ir.GameParam]]


@attrs.frozen
class Span:
    """A range one of whose ends is a name (``n from 1 to pawns``)."""

    name: str
    low: Union[int, Token]
    high: Union[int, Token]
    at: Any


@attrs.frozen
class Pending:
    """A line of a deck or piece set whose range names a constant or
    parameter: what it says, expanded by ``ComponentLines.expand_pending``
    once the file's constants and parameters are known."""

    kind: str                       # "card" or "piece"
    label: str
    gens: Tuple[Union[Generator, Span], ...]
    count: int
    count_of: Optional[str]
    props: Tuple[Any, ...]
    at: Any

_PLACE = re.compile(r"\{([^{}]*)\}")


def expand(label: str, gens: Sequence[Generator], props: Sequence[Any], most: int,
           error: Callable[[Any, str], NoReturn], where: Any
           ) -> List[Tuple[str, Tuple[Any, ...], Dict[str, Union[int, str]]]]:
    """(name, props, each generator's value) of every component ``label``
    stands for: one for each
    combination of the generators' values, the first generator outermost;
    ``{name}`` in the label and a property whose value is a generator's
    name take that generator's value.  More than ``most`` components, a
    generator named twice, or a ``{…}`` naming no generator, is an error at
    ``where`` (through ``error``)."""
    names = [name for name, _, _ in gens]
    for name, _, at in gens:
        if names.count(name) > 1:
            error(at, f"'{name}' is counted twice in this line")
    for m in _PLACE.finditer(label):
        if m.group(1) not in names:
            error(where, f"'{{{m.group(1)}}}' in \"{label}\" names no value this line counts "
                         f"({', '.join(names)})")
    total = 1
    for _, values, _ in gens:
        total *= len(values)
        if total > most:
            error(where, f"this line stands for more than {most} components (Limits.max_cards)")
    out = []
    for combo in itertools.product(*(values for _, values, _ in gens)):
        given: Dict[str, Union[int, str]] = dict(zip(names, combo))
        name = _PLACE.sub(_filler(given), label)
        out.append((name, tuple(_given(p, given) for p in props), given))
    return out


def _filler(given: Dict[str, Union[int, str]]) -> Callable[["re.Match[str]"], str]:
    """What ``{name}`` in a label becomes: the value ``name`` counts to."""
    return lambda m: str(given[m.group(1)])


def _given(prop: Any, given: Dict[str, Union[int, str]]) -> Any:
    """``prop`` with its value replaced by a generator's, when it names one."""
    value = prop.value
    if isinstance(value, ir.Name) and value.name in given:
        v = given[value.name]
        value = ir.Num(v, value.pos) if isinstance(v, int) else ir.Name(v, value.pos)
        return type(prop)(prop.name, value, prop.pos)
    return prop


class ComponentLines:
    """The parser's methods for the lines that stand for many components
    (``card_gen``, ``piece_gen`` and their counters), mixed into
    ``transform.ToIR``, which gives ``_num``, ``_error`` and the limits."""

    max_cards: int
    max_pieces: int

    if TYPE_CHECKING:
        def _num(self, tok: Token, skip: int = 0) -> int: ...
        def _error(self, meta_or_tok: Union[Meta, Token], message: str) -> NoReturn: ...

    def gen_range(self, meta: Meta, c: List[Any]) -> Union[Generator, Span]:
        ends = [self._num(t) if t.type == "SIGNED_INT" else t for t in c[1:3]]
        if not all(isinstance(e, int) for e in ends):
            return Span(str(c[0]), ends[0], ends[1], meta)
        return self._range(str(c[0]), ends[0], ends[1], meta)

    def _range(self, name: str, low: int, high: int, meta: Any) -> Generator:
        if low > high:
            self._error(meta, f"'{name}' goes from {low} to {high}: nothing to count")
        if high - low >= self.max_cards:
            self._error(meta, f"'{name}' counts more than {self.max_cards} values (Limits.max_cards)")
        return (name, range(low, high + 1), meta)

    def gen_words(self, meta: Meta, c: List[Any]) -> Generator:
        return (str(c[0]), [str(w) for w in c[1:]], meta)

    def _generated(self, meta: Meta, c: List[Any]) -> Tuple[str, List[Any], List[Any], List[Any]]:
        """(label, generators, COUNT tokens, properties) of a ``*_gen`` line."""
        label, rest = _unquote(c[0]), c[1:]
        gens = [x for x in rest if isinstance(x, (tuple, Span))]
        counts = [x for x in rest if isinstance(x, Token) and x.type in ("COUNT", "COUNT_OF")]
        props = [x for x in rest if not isinstance(x, (tuple, Span, Token))]
        return label, gens, counts, props

    def card_gen(self, meta: Meta, c: List[Any]) -> List[Union[ir.Card, Pending]]:
        label, gens, counts, props = self._generated(meta, c)
        count_of = str(counts[0])[2:-1] if counts and counts[0].type == "COUNT_OF" else None
        count = self._num(counts[0], 1) if counts and count_of is None else 1
        line = Pending("card", label, tuple(gens), count, count_of, tuple(props), meta)
        return [line] if any(isinstance(g, Span) for g in gens) else list(self._made(line, {}))

    def piece_gen(self, meta: Meta, c: List[Any]) -> List[Union[ir.Piece, Pending]]:
        label, gens, _, props = self._generated(meta, c)
        line = Pending("piece", label, tuple(gens), 1, None, tuple(props), meta)
        return [line] if any(isinstance(g, Span) for g in gens) else list(self._made(line, {}))

    def expand_pending(self, items: Sequence[Any], numbers: Numbers) -> Tuple[Any, ...]:
        """``items`` (a deck's cards or a set's pieces) with each ``Pending``
        line replaced by the components it stands for."""
        out: List[Any] = []
        for item in items:
            out.extend(self._made(item, numbers) if isinstance(item, Pending) else [item])
        return tuple(out)

    def _made(self, line: Pending, numbers: Numbers) -> List[Any]:
        """The cards or pieces of one generated line, each with the
        ``present`` conditions its values of parameter-bounded ranges need."""
        gens: List[Generator] = []
        conditions: Dict[str, Callable[[int], List[ir.Presence]]] = {}
        for g in line.gens:
            if isinstance(g, Span):
                low, low_if = self._end(g.low, numbers, True)
                high, high_if = self._end(g.high, numbers, False)
                gens.append(self._range(g.name, low, high, g.at))
                conditions[g.name] = _both(low_if, high_if)
            else:
                gens.append(g)
        most = self.max_cards if line.kind == "card" else self.max_pieces
        made: List[Any] = []
        for name, props, given in expand(line.label, gens, line.props, most, self._error, line.at):
            present = tuple(p for g, cond in conditions.items() for p in cond(int(given[g])))
            if line.kind == "card":
                made.append(ir.Card(name, line.count, props, line.count_of, present,
                                    pos=_pos(line.at)))
            else:
                made.append(ir.Piece(name, props, present, pos=_pos(line.at)))
        return made

    def number_named(self, end: Union[int, Token], numbers: Numbers, needs: str
                     ) -> Union[int, ir.GameParam]:
        """A number written, or the number constant or the parameter a name
        stands for (``players 2..most``, ``for n from 1 to pawns``); any
        other name is an error where it is written, saying what ``needs``."""
        if isinstance(end, int):
            return end
        found = numbers.get(str(end))
        if found is None:
            self._error(end, f"'{end}' is not a parameter or a constant that is a number: {needs}")
        return found

    def _end(self, end: Union[int, Token], numbers: Numbers, low: bool
             ) -> Tuple[int, Callable[[int], List[ir.Presence]]]:
        """One end of a range: its widest value, and the conditions a value
        of the range needs to be in the game (none for a number or a
        constant; for a parameter, being within its reach)."""
        p = self.number_named(end, numbers, "a range goes between numbers")
        if isinstance(p, int):
            return p, _always
        if low:      # a value below the parameter's highest needs it to be at most that value
            return p.low, lambda v: [ir.Presence(p.name, at_most=v)] if v < p.high else []
        return p.high, lambda v: [ir.Presence(p.name, at_least=v)] if v > p.low else []


def _always(value: int) -> List[ir.Presence]:
    return []


def _both(a: Callable[[int], List[ir.Presence]], b: Callable[[int], List[ir.Presence]]
          ) -> Callable[[int], List[ir.Presence]]:
    return lambda v: a(v) + b(v)


#: A square grid's directions: (name, steps east, steps north).
GRID_DIRECTIONS = (("north", 0, 1), ("south", 0, -1), ("east", 1, 0), ("west", -1, 0),
                   ("northeast", 1, 1), ("northwest", -1, 1), ("southeast", 1, -1),
                   ("southwest", -1, -1))


#: A rhombus of hexagons in axial coordinates: northeast keeps the column
#: and goes a row north, so each space has six neighbours.
HEX_DIRECTIONS = (("east", 1, 0), ("west", -1, 0), ("northeast", 0, 1), ("southwest", 0, -1),
                  ("northwest", -1, 1), ("southeast", 1, -1))


def grid(wide: int, high: int, directions: Sequence[Tuple[str, int, int]], most: int,
         error: Callable[[Any, str], NoReturn], where: Any, north: bool = False
         ) -> Tuple[Tuple[ir.Piece, ...], Tuple[ir.Link, ...]]:
    """The spaces and links of ``grid WIDE wide HIGH high`` (or ``hex …``):
    spaces named by column letter (from the west) and row (from the south,
    or with ``north`` from the north), "a1" to "c3", each with its ``x`` and
    ``y`` (the row), joined in ``directions`` (the eight compass directions
    of a grid, the six of a hex board)."""
    if wide < 1 or high < 1:
        error(where, f"a grid {wide} wide and {high} high has no spaces")
    if wide > 26:
        error(where, f"a grid is at most 26 wide (its columns are the letters a to z), not {wide}")
    if wide * high > most:
        error(where, f"this grid has more than {most} spaces (Limits.max_pieces)")
    at = _pos(where)

    def row(y: int) -> int:
        return high + 1 - y if north else y

    def name(x: int, y: int) -> str:
        return f"{chr(ord('a') + x - 1)}{row(y)}"
    spaces = tuple(ir.Piece(name(x, y), (ir.PieceProp("x", ir.Num(x, at), at),
                                         ir.PieceProp("y", ir.Num(row(y), at), at)), pos=at)
                   for y in range(1, high + 1) for x in range(1, wide + 1))
    links = tuple(ir.Link(name(x, y), name(x + dx, y + dy), d)
                  for y in range(1, high + 1) for x in range(1, wide + 1)
                  for d, dx, dy in directions
                  if 1 <= x + dx <= wide and 1 <= y + dy <= high)
    return spaces, links


def _corner(spaces: Tuple[ir.Piece, ...]) -> str:
    """The name of a generated board's last column and row ('c4')."""
    def at(space: ir.Piece, k: int) -> int:
        value = space.props[k].value
        return value.value if isinstance(value, ir.Num) else 0
    return max(spaces, key=lambda s: (at(s, 0), at(s, 1))).name


def with_lines(spaces: Tuple[ir.Piece, ...], lines: Sequence[ir.Piece],
               error: Callable[[Any, str], NoReturn]) -> Tuple[ir.Piece, ...]:
    """The generated ``spaces`` with the attributes and starting values the
    board's lines give some of them (``a1: start yes``): each line names a
    space of the board, once, and leaves its ``x`` and ``y`` alone."""
    by_name = {str(s.name): i for i, s in enumerate(spaces)}
    out = list(spaces)
    seen = set()
    for line in lines:
        name = str(line.name)
        if name not in by_name:
            error(line.pos, f"the board has no space {name!r} (its spaces are a1 to {_corner(spaces)})")
        if name in seen:
            error(line.pos, f"space {name!r} is given its values twice")
        seen.add(name)
        for prop in line.props:
            if prop.name in ("x", "y"):
                error(prop.pos, f"a generated space's {prop.name} is its place on the board and "
                            f"cannot be given")
        space = out[by_name[name]]
        out[by_name[name]] = attrs.evolve(space, props=space.props + tuple(line.props),
                                          pos=line.pos)
    return tuple(out)
