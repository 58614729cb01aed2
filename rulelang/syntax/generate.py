"""Components made from ranges and lists: one line of a deck or a piece set
that stands for many (``"{rank} of {suit}" for rank from 1 to 13 and suit
in hearts, spades: rank rank, suit suit``).  The parser expands such a line
into the cards or pieces it stands for, so the IR, its JSON form and the
engine see every component written out, as if by hand."""

from __future__ import annotations

import itertools
import re
from typing import TYPE_CHECKING, Any, Callable, Dict, List, NoReturn, Sequence, Tuple, Union

from lark import Token, Transformer, v_args
from lark.tree import Meta

from .. import ir
from .places import pos as _pos, unquote as _unquote

#: One generator: (its name, the values it goes through, where it is written).
Generator = Tuple[str, Sequence[Union[int, str]], Any]

_PLACE = re.compile(r"\{([^{}]*)\}")


def expand(label: str, gens: Sequence[Generator], props: Sequence[Any], most: int,
           error: Callable[[Any, str], NoReturn], where: Any) -> List[Tuple[str, Tuple[Any, ...]]]:
    """(name, props) of every component ``label`` stands for: one for each
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
        out.append((name, tuple(_given(p, given) for p in props)))
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


@v_args(meta=True)     # (called as ToIR's own methods are)
class ComponentLines(Transformer[Token, ir.Ruleset]):
    """The parser's methods for the lines that stand for many components
    (``card_gen``, ``piece_gen`` and their counters), mixed into
    ``transform.ToIR``, which gives ``_num``, ``_error`` and the limits."""

    max_cards: int
    max_pieces: int

    if TYPE_CHECKING:
        def _num(self, tok: Token, skip: int = 0) -> int: ...
        def _error(self, meta_or_tok: Union[Meta, Token], message: str) -> NoReturn: ...

    def gen_range(self, meta: Meta, c: List[Any]) -> Generator:
        low, high = self._num(c[1]), self._num(c[2])
        if low > high:
            self._error(meta, f"'{c[0]}' goes from {low} to {high}: nothing to count")
        if high - low >= self.max_cards:
            self._error(meta, f"'{c[0]}' counts more than {self.max_cards} values (Limits.max_cards)")
        return (str(c[0]), range(low, high + 1), meta)

    def gen_words(self, meta: Meta, c: List[Any]) -> Generator:
        return (str(c[0]), [str(w) for w in c[1:]], meta)

    def _generated(self, meta: Meta, c: List[Any]) -> Tuple[str, List[Any], List[Any], List[Any]]:
        """(label, generators, COUNT tokens, properties) of a ``*_gen`` line."""
        label, rest = _unquote(c[0]), c[1:]
        gens = [x for x in rest if isinstance(x, tuple)]
        counts = [x for x in rest if isinstance(x, Token) and x.type in ("COUNT", "COUNT_OF")]
        props = [x for x in rest if not isinstance(x, (tuple, Token))]
        return label, gens, counts, props

    def card_gen(self, meta: Meta, c: List[Any]) -> List[ir.Card]:
        label, gens, counts, props = self._generated(meta, c)
        count_of = str(counts[0])[2:-1] if counts and counts[0].type == "COUNT_OF" else None
        count = self._num(counts[0], 1) if counts and count_of is None else 1
        return [ir.Card(name, count, given, count_of, pos=_pos(meta)) for name, given in
                expand(label, gens, props, self.max_cards, self._error, meta)]

    def piece_gen(self, meta: Meta, c: List[Any]) -> List[ir.Piece]:
        label, gens, _, props = self._generated(meta, c)
        return [ir.Piece(name, given, _pos(meta)) for name, given in
                expand(label, gens, props, self.max_pieces, self._error, meta)]
