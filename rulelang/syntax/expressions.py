"""The parse tree's expressions as IR nodes: a part of ``transform.ToIR``
(one method per grammar rule or alias of an expression)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, List, NoReturn, Tuple, Union

from .. import ir
from .places import Meta, Token, pos as _pos, tok_pos as _tok_pos, unquote as _unquote


class Expressions:
    """Expressions → IR; ``transform.ToIR`` gives ``_num`` and ``_error``."""

    if TYPE_CHECKING:
        def _num(self, tok: Token, skip: int = 0) -> int: ...
        def _error(self, meta_or_tok: Union[Meta, Token], message: str) -> NoReturn: ...

    def _binary(self, meta: Meta, c: List[Any]) -> ir.Expr:
        left: ir.Expr = c[0]
        for i in range(1, len(c), 2):
            left = ir.BinOp(str(c[i]), left, c[i + 1], _pos(meta))
        return left

    sum = _binary
    product = _binary

    def or_expr(self, meta: Meta, c: List[Any]) -> ir.Expr:
        left: ir.Expr = c[0]
        for right in c[1:]:
            left = ir.BinOp("or", left, right, _pos(meta))
        return left

    def and_expr(self, meta: Meta, c: List[Any]) -> ir.Expr:
        left: ir.Expr = c[0]
        for right in c[1:]:
            left = ir.BinOp("and", left, right, _pos(meta))
        return left

    def not_(self, meta: Meta, c: List[Any]) -> ir.Not:
        return ir.Not(c[0], _pos(meta))

    def comparison(self, meta: Meta, c: List[Any]) -> ir.Compare:
        return ir.Compare(str(c[1]), c[0], c[2], _pos(meta))

    def is_(self, meta: Meta, c: List[Any]) -> ir.Compare:
        return ir.Compare("==", c[0], c[1], _pos(meta))

    def is_not(self, meta: Meta, c: List[Any]) -> ir.Compare:
        return ir.Compare("!=", c[0], c[1], _pos(meta))

    def neg(self, meta: Meta, c: List[Any]) -> Union[ir.Num, ir.Neg]:
        if getattr(c[0], "type", None) == "LINE_MINUS":   # placed at the '-', not the line break
            sign = str(c[0])
            meta = Meta((c[0].line + sign.count("\n"), len(sign) - sign.rindex("\n") - 1))
        if isinstance(c[1], ir.Num):
            return ir.Num(-c[1].value, _pos(meta))
        return ir.Neg(c[1], _pos(meta))

    def int(self, meta: Meta, c: List[Any]) -> ir.Num:
        return ir.Num(self._num(c[0]), _pos(meta))

    def yes(self, meta: Meta, c: List[Any]) -> ir.Bool:
        return ir.Bool(True, _pos(meta))

    def no(self, meta: Meta, c: List[Any]) -> ir.Bool:
        return ir.Bool(False, _pos(meta))

    def none(self, meta: Meta, c: List[Any]) -> ir.NoneLit:
        return ir.NoneLit(_pos(meta))

    def seat_of(self, meta: Meta, c: List[Any]) -> ir.SeatOf:
        return ir.SeatOf(c[0], _pos(meta))

    def player_after(self, meta: Meta, c: List[Any]) -> ir.PlayerAfter:
        return ir.PlayerAfter(c[0], c[1] if len(c) > 1 else None, _pos(meta))

    def this_player(self, meta: Meta, c: List[Any]) -> ir.ThisPlayer:
        return ir.ThisPlayer(_pos(meta))

    def round_(self, meta: Meta, c: List[Any]) -> ir.Round:
        return ir.Round(_pos(meta))

    def passed(self, meta: Meta, c: List[Any]) -> ir.TestResult:
        return ir.TestResult("passed", _pos(meta))

    def failed(self, meta: Meta, c: List[Any]) -> ir.TestResult:
        return ir.TestResult("failed", _pos(meta))

    def margin(self, meta: Meta, c: List[Any]) -> ir.TestResult:
        return ir.TestResult("margin", _pos(meta))

    def failed_by(self, meta: Meta, c: List[Any]) -> ir.BinOp:
        p = _pos(meta)
        return ir.BinOp("and", ir.TestResult("failed", p),
                        ir.Compare(">=", ir.TestResult("margin", p), c[0], p), p)

    def roll(self, meta: Meta, c: List[Any]) -> ir.Roll:
        count = 1
        if len(c) == 2:
            count = self._num(c[0])
        return ir.Roll(count, self._num(c[-1], 1), _pos(meta))

    def roll_off(self, meta: Meta, c: List[Any]) -> ir.RollOff:
        return ir.RollOff(self._num(c[0], 1), _pos(meta))

    def count_cards(self, meta: Meta, c: List[Any]) -> ir.CountCards:
        return ir.CountCards(_unquote(c[0]), c[1], _pos(meta))

    def has_card(self, meta: Meta, c: List[Any]) -> ir.Compare:
        """``sheet has Rifle``: read as ``count of Rifle in sheet > 0``, so
        every stage (the checker, the work bounds, who may see a value made
        from a hidden pile) treats it as the count it is."""
        p = _pos(meta)
        return ir.Compare(">", ir.CountCards(_unquote(c[1]), c[0], p), ir.Num(0, p), p)

    def pile_size(self, meta: Meta, c: List[Any]) -> ir.PileSize:
        return ir.PileSize(c[0], _pos(meta))

    def sum_cards(self, meta: Meta, c: List[Any]) -> ir.SumCards:
        return ir.SumCards(str(c[0]), c[1], _pos(meta))

    def _query(self, kind: str, meta: Meta, c: List[Any]) -> ir.PlayerQuery:
        c = list(c)
        other = bool(c and isinstance(c[0], Token) and c[0].type == "OTHER")
        if other:
            c.pop(0)
        return ir.PlayerQuery(kind, other, c[0] if c else None, _pos(meta))

    def count_players(self, meta: Meta, c: List[Any]) -> ir.PlayerQuery:
        return self._query("count", meta, c)

    def no_players(self, meta: Meta, c: List[Any]) -> ir.PlayerQuery:
        return self._query("none", meta, c)

    def any_players(self, meta: Meta, c: List[Any]) -> ir.PlayerQuery:
        return self._query("any", meta, c)

    def _among_players(self, which: str, meta: Meta, c: List[Any]) -> ir.Extreme:
        value, *rest = c
        other = bool(rest and isinstance(rest[0], Token) and rest[0].type == "OTHER")
        if other:
            rest.pop(0)
        return ir.Extreme(which, value, other, rest[0] if rest else None, _pos(meta))

    def extreme(self, meta: Meta, c: List[Any]) -> ir.Extreme:
        return self._among_players(str(c[0]), meta, c[1:])

    def sum_players(self, meta: Meta, c: List[Any]) -> ir.Extreme:
        return self._among_players("sum", meta, c)

    def pool(self, meta: Meta, c: List[Any]) -> ir.Pool:
        return ir.Pool(c[0], self._num(c[1], 1), _pos(meta))

    def no_dice(self, meta: Meta, c: List[Any]) -> ir.NoDice:
        return ir.NoDice(_pos(meta))

    def spend(self, meta: Meta, c: List[Any]) -> ir.Spend:
        return ir.Spend(c[0], str(c[1]), c[2], str(c[3]), _pos(meta))

    def count_pool(self, meta: Meta, c: List[Any]) -> ir.PoolCount:
        return ir.PoolCount(c[0], str(c[1]), c[2], _pos(meta))

    def _piece_query(self, kind: str, meta: Meta, c: List[Any]) -> ir.PieceQuery:
        return ir.PieceQuery(kind, str(c[0]), c[1] if len(c) > 1 else None, _pos(meta))

    def count_pieces(self, meta: Meta, c: List[Any]) -> ir.PieceQuery:
        return self._piece_query("count", meta, c)

    def none_of_pieces(self, meta: Meta, c: List[Any]) -> ir.PieceQuery:
        return self._piece_query("none", meta, c)

    def any_of_pieces(self, meta: Meta, c: List[Any]) -> ir.PieceQuery:
        return self._piece_query("any", meta, c)

    def neighbour(self, meta: Meta, c: List[Any]) -> ir.Neighbour:
        return ir.Neighbour(str(c[0]), str(c[1]), _pos(meta))

    def field_of(self, meta: Meta, c: List[Any]) -> ir.FieldOf:
        return ir.FieldOf(str(c[0]), c[1], _pos(meta))

    def farthest(self, meta: Meta, c: List[Any]) -> ir.Farthest:
        return ir.Farthest(str(c[0]), str(c[1]), c[2], _pos(meta))

    def connected(self, meta: Meta, c: List[Any]) -> ir.Connected:
        return ir.Connected(str(c[0]), c[1], c[2], _pos(meta))

    def distance(self, meta: Meta, c: List[Any]) -> ir.Distance:
        parts = dict(x for x in c[1:])
        return ir.Distance(str(c[0]), parts.get("to"), tuple(parts.get("along", ())),
                           parts.get("through"), _pos(meta))

    def distance_to(self, meta: Meta, c: List[Any]) -> Tuple[str, Any]:
        return ("to", str(c[0]))

    def distance_along(self, meta: Meta, c: List[Any]) -> Tuple[str, Any]:
        return ("along", [str(d) for d in c])

    def distance_through(self, meta: Meta, c: List[Any]) -> Tuple[str, Any]:
        return ("through", c[0])

    def in_a_row(self, meta: Meta, c: List[Any]) -> ir.InARow:
        n = c[0]
        count = ir.Num(self._num(n), _tok_pos(n)) if n.type == "INT" else ir.Name(str(n), _tok_pos(n))
        return ir.InARow(count, str(c[1]), c[2], _pos(meta))

    def extreme_pieces(self, meta: Meta, c: List[Any]) -> ir.PieceExtreme:
        return ir.PieceExtreme(str(c[0]), c[1], str(c[2]), c[3] if len(c) > 3 else None, _pos(meta))

    def call_fn(self, meta: Meta, c: List[Any]) -> Union[ir.CallFn, ir.RuleValue]:
        if str(c[0]) in ir.FUNCTIONS:
            return ir.CallFn(str(c[0]), tuple(c[1:]), _pos(meta))
        return ir.RuleValue(str(c[0]), tuple(x for x in c[1:] if x is not None), _pos(meta))

    def name(self, meta: Meta, c: List[Any]) -> ir.Name:
        return ir.Name(str(c[0]), _pos(meta))

    def attr(self, meta: Meta, c: List[Any]) -> ir.Attr:
        return ir.Attr(str(c[0]), str(c[1]), _pos(meta))

    def pile(self, meta: Meta, c: List[Any]) -> ir.PileRef:
        return ir.PileRef(str(c[0]), str(c[1]) if len(c) > 1 else None, _pos(meta))
