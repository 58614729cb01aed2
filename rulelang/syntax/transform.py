"""The parse tree turned into IR: one method per grammar rule builds the
attrs node it stands for, with its position, and refuses what the grammar
lets through but the language does not (a number over the limit, a header
declared twice, a test that compares with the wrong name).

It exists apart from ``parse`` (which reads the text and reports what the
parser could not read) because it is the one place that knows both the
grammar's rules and the IR's nodes: a change to ``rulelang.lark`` or to
the IR is met here.
"""

from __future__ import annotations

from typing import Any, Dict, List, NoReturn, Optional, Tuple, Union, cast

import attrs

from .. import ir
from ..errors import RulesetSyntaxError
from ..limits import DEFAULT, Limits
from . import generate
from .expressions import Expressions
from .places import Meta, Token, pos as _pos, tok_pos as _tok_pos, unquote as _unquote

#: What a declaration's rule gives ``start``: the kind (a list of the
#: ruleset's, or a single header), its node(s), and where it was written.
Decl = Tuple[str, Any, Meta]


def to_ir(tree: Any, filename: str, source: str, limits: Limits) -> ir.Ruleset:
    """The ``ir.Ruleset`` the Lark parse tree ``tree`` of ``source`` stands
    for (raises ``RulesetSyntaxError`` for what the language refuses)."""
    import lark
    try:
        rs: ir.Ruleset = _transform(ToIR(filename, source, limits), tree)
    except lark.exceptions.VisitError as e:
        if isinstance(e.orig_exc, RulesetSyntaxError):
            raise e.orig_exc from None
        raise
    return rs


def _transform(transformer: ToIR, tree: Any) -> Any:
    """The node ``transformer``'s methods build for the Lark tree ``tree``,
    as ``lark.Transformer.transform`` with ``v_args(meta=True)`` would
    build it, but without recursion (the parse tree of hostile input may be
    far deeper than Python's stack): each method is given its tree's
    ``meta`` and its children (Lark's tokens as ``places.Token``)."""
    from lark import Token as LarkToken, Tree
    from lark.exceptions import GrammarError, VisitError
    stack: List[Tuple[Any, Any, List[Any]]] = [(tree, iter(tree.children), [])]
    while True:
        node, children, done = stack[-1]
        for child in children:
            if isinstance(child, Tree):
                stack.append((child, iter(child.children), []))
                break
            done.append(Token(child.type, str(child), cast(int, child.line), cast(int, child.column))
                        if isinstance(child, LarkToken) else child)
        else:
            stack.pop()
            method = getattr(transformer, node.data, None)
            if method is None:
                res = Tree(node.data, done, node.meta)
            else:
                try:
                    res = method(node.meta, done)
                except GrammarError:
                    raise
                except Exception as e:  # noqa: BLE001 - as Lark's transformer says it
                    raise VisitError(node.data, node, e)  # type: ignore[no-untyped-call]  # noqa: B904
            if not stack:
                return res
            stack[-1][2].append(res)


def _set_body(items: List[Any]) -> Tuple[Tuple[ir.Stat, ...], Tuple[ir.Piece, ...], Tuple[ir.Link, ...]]:
    """(state values, pieces or spaces, links) of a piece set's or a written-out
    board's block: its 'state' first, then lines (one, or a generated many)
    and links."""
    rest = list(items)
    state: Tuple[ir.Stat, ...] = ()
    if rest and isinstance(rest[0], tuple) and rest[0][0] == "state":
        state = tuple(attrs.evolve(d, scope="piece") for d in rest.pop(0)[1])
    things: List[ir.Piece] = []
    links: List[ir.Link] = []
    for item in rest:
        if isinstance(item, tuple) and item and item[0] == "links":
            links.extend(item[1])
        else:
            things.extend(item if isinstance(item, list) else [item])
    return state, tuple(things), tuple(links)


def _holding(st: ir.Stat, sets: Any) -> ir.Stat:
    """``at one of zones``, where ``zones`` is a piece set or a board: a
    value that holds one of its pieces or spaces (none at first), not a
    word."""
    if st.values is not None and len(st.values) == 1 and st.values[0] in sets and not st.spaces:
        return attrs.evolve(st, values=None, initial=ir.NoneLit(st.initial.pos), holds=st.values[0])
    return st


def _stmts(items: List[Any]) -> Tuple[Any, ...]:
    return tuple(i for i in items if not isinstance(i, Token))


class ToIR(generate.ComponentLines, Expressions):
    """Parse tree → IR.  One method per grammar rule or alias."""

    def __init__(self, filename: str, source: str, limits: Limits = DEFAULT) -> None:
        self.filename = filename
        self.source = source
        self.max_number = limits.max_number
        self.max_cards = limits.max_cards
        self.max_pieces = limits.max_pieces

    def _num(self, tok: Token, skip: int = 0) -> int:
        """The whole number in token ``tok`` (after ``skip`` letters, as in
        d6 or x10), refused when it is larger than the limit."""
        digits = str(tok)[skip:].lstrip("+-")
        biggest = self.max_number
        if len(digits) > len(str(biggest)) or int(digits) > biggest:
            shown = digits if len(digits) <= 20 else f"{digits[:12]}… ({len(digits)} digits)"
            self._error(tok, f"the number {shown} is too large: numbers go up to {biggest}")
        value = int(str(tok)[skip:])
        return value

    def _error(self, meta_or_tok: Union[Meta, Token], message: str) -> NoReturn:
        line = getattr(meta_or_tok, "line", 1)
        col = getattr(meta_or_tok, "column", 1)
        raise RulesetSyntaxError.at(self.filename, line, col, message, self.source)

    # ------------------------------------------------------------ top level

    def start(self, meta: Meta, items: List[Decl]) -> ir.Ruleset:
        found: Dict[str, Meta] = {}
        lists: Dict[str, List[Any]] = {
            k: [] for k in ("stats", "consts", "params", "decks", "piles", "pieces", "tables", "rules",
                            "options", "triggers", "draw_triggers", "endings", "score", "heuristic",
                            "actors")}
        singles: Dict[str, Any] = {}
        for kind, value, where in items:
            if kind in lists:
                if isinstance(value, list):
                    lists[kind].extend(value)
                else:
                    lists[kind].append(value)
            else:
                if kind in singles:
                    self._error(where, f"'{kind}' is declared twice (first on line "
                                       f"{found[kind].line})")
                singles[kind] = value
                found[kind] = where
        if "game" not in singles:
            raise RulesetSyntaxError.at(self.filename, 1, 1,
                                        'the ruleset has no header: start it with game "Title"',
                                        self.source)
        numbers: generate.Numbers = {p.name: p for p in lists["params"]}
        numbers.update({c.name: c.value.value for c in lists["consts"] if isinstance(c.value, ir.Num)})
        lists["decks"] = [attrs.evolve(d, cards=self.expand_pending(d.cards, numbers))
                          for d in lists["decks"]]
        sets = {ps.name for ps in lists["pieces"]}
        lists["stats"] = [_holding(st, sets) for st in lists["stats"]]
        lists["pieces"] = [attrs.evolve(ps, state=tuple(_holding(st, sets) for st in ps.state))
                           for ps in lists["pieces"]]
        lists["actors"] = [attrs.evolve(a, stats=tuple(_holding(st, sets) for st in a.stats))
                           for a in lists["actors"]]
        lists["pieces"] = [attrs.evolve(ps, pieces=self.expand_pending(ps.pieces, numbers))
                           for ps in lists["pieces"]]
        (low, low_of), (high, high_of) = (self._players_end(end, numbers)
                                          for end in singles.get("players", (1, 1)))
        return ir.Ruleset(
            title=singles["game"], min_players=low, max_players=high,
            stats=tuple(lists["stats"]), consts=tuple(lists["consts"]),
            decks=tuple(lists["decks"]), piles=tuple(lists["piles"]),
            pieces=tuple(lists["pieces"]),
            tables=tuple(lists["tables"]), test=singles.get("test"),
            rules=tuple(lists["rules"]), options=tuple(lists["options"]),
            setup=singles.get("setup", ()), turn=singles.get("turn"),
            triggers=tuple(lists["triggers"]), reroll=singles.get("reroll"),
            draw_triggers=tuple(lists["draw_triggers"]),
            endings=tuple(lists["endings"]), score=tuple(lists["score"]),
            heuristic=tuple(lists["heuristic"]),
            params=tuple(lists["params"]), actors=tuple(lists["actors"]),
            winner=singles.get("winner", ("highest", None))[0],
            winner_where=singles.get("winner", ("highest", None))[1],
            filename=self.filename, source=self.source, pos=ir.Pos(1, 1),
            players_pos=_pos(found["players"]) if "players" in found else None,
            min_players_of=low_of, max_players_of=high_of)

    def _players_end(self, end: Union[int, Token], numbers: generate.Numbers
                     ) -> Tuple[int, Optional[str]]:
        """One end of ``players``: its number, and the parameter it follows."""
        found = self.number_named(end, numbers, "'players' needs numbers (players 2..4)")
        return (found, None) if isinstance(found, int) else (found.default, found.name)

    def game_decl(self, meta: Meta, c: List[Any]) -> Decl:
        return ("game", _unquote(c[0]), meta)

    def players_decl(self, meta: Meta, c: List[Any]) -> Decl:
        ends = [self._num(t) if t.type == "INT" else t for t in c]
        return ("players", (ends[0], ends[-1]), meta)

    # ---------------------------------------------------------------- stats

    def per_player(self, meta: Meta, c: List[Any]) -> str:
        return "player"

    def per_turn(self, meta: Meta, c: List[Any]) -> str:
        return "turn"

    def global_scope(self, meta: Meta, c: List[Any]) -> str:
        return "global"

    def stats_decl(self, meta: Meta, c: List[Any]) -> Decl:
        scope, defs = c[0], c[1:]
        return ("stats", [attrs.evolve(d, scope=scope) for d in defs], meta)

    def stat_value(self, meta: Meta, c: List[Any]) -> ir.Stat:
        name, init, *bounds = c
        scale = bounds.pop()[1] if bounds and isinstance(bounds[-1], tuple) \
            and bounds[-1][0] == "scale" else None
        sight = bounds.pop() if bounds and isinstance(bounds[-1], str) else None
        lo = hi = None
        for kind, value in bounds:
            if kind == "min":
                lo = value
            else:
                hi = value
        return ir.Stat(str(name), "player", init, lo, hi, None, sight=sight, scale=scale,
                       pos=_pos(meta))

    def scale(self, meta: Meta, c: List[Any]) -> Tuple[str, Tuple[ir.ScaleRow, ...]]:
        return ("scale", tuple(c))

    def scale_row(self, meta: Meta, c: List[Any]) -> ir.ScaleRow:
        low = high = self._num(c[0])
        props = list(c[1:])
        if props and isinstance(props[0], Token):
            high = self._num(props.pop(0))
        return ir.ScaleRow(low, high, tuple(props), _pos(meta))

    def sight_hidden(self, meta: Meta, c: List[Any]) -> str:
        return "hidden"

    def sight_secret(self, meta: Meta, c: List[Any]) -> str:
        return "secret"

    def track_decl(self, meta: Meta, c: List[Any]) -> Decl:
        name, spaces = c[0], c[1:]
        first = spaces[0]
        stat = ir.Stat(str(name), "global", ir.Name(first.name, first.pos), None, None,
                       tuple(sp.name for sp in spaces), tuple(spaces), pos=_pos(meta))
        return ("stats", [stat], meta)

    def track_space(self, meta: Meta, c: List[Any]) -> ir.Space:
        return ir.Space(str(c[0]), tuple(c[1:]), _pos(meta))

    def stat_enum(self, meta: Meta, c: List[Any]) -> ir.Stat:
        name, *values = c
        # (a scale after words parses, for the checker to refuse with a message)
        scale = values.pop()[1] if isinstance(values[-1], tuple) else None
        sight = values.pop() if isinstance(values[-1], str) and not isinstance(values[-1], Token) \
            else None
        first = str(values[0])
        return ir.Stat(str(name), "player", ir.Name(first, _tok_pos(values[0])),
                       None, None, tuple(str(v) for v in values), sight=sight, scale=scale,
                       pos=_pos(meta))

    def init_expr(self, meta: Meta, c: List[Any]) -> ir.Expr:
        init: ir.Expr = c[1]
        return init

    def bound_min(self, meta: Meta, c: List[Any]) -> Tuple[str, Any]:
        return ("min", c[0])

    def bound_max(self, meta: Meta, c: List[Any]) -> Tuple[str, Any]:
        return ("max", c[0])

    def signed(self, meta: Meta, c: List[Any]) -> ir.Num:
        return ir.Num(self._num(c[0]), _tok_pos(c[0]))

    def const_decl(self, meta: Meta, c: List[Any]) -> Decl:
        return ("consts", ir.Const(str(c[0]), c[2], _pos(meta)), meta)

    def param_decl(self, meta: Meta, c: List[Any]) -> Decl:
        title = _unquote(c[4]) if len(c) > 4 else None
        return ("params", ir.GameParam(str(c[0]), self._num(c[1]), self._num(c[2]),
                                       self._num(c[3]), title, _pos(meta)), meta)

    # ---------------------------------------------------------------- cards

    def deck_decl(self, meta: Meta, c: List[Any]) -> Decl:
        name, rest = c[0], c[1:]
        refill = None
        per_player = False
        cards = []
        for item in rest:
            if item == "per_player":
                per_player = True
            elif isinstance(item, tuple) and item[0] == "refill":
                refill = item[1]
            elif isinstance(item, list):        # a line that stands for many (``card_gen``)
                cards.extend(item)
            else:
                cards.append(item)
        return ("decks", ir.Deck(str(name), tuple(cards), refill, per_player, _pos(meta)), meta)

    def deck_per_player(self, meta: Meta, c: List[Any]) -> str:
        return "per_player"

    def refill(self, meta: Meta, c: List[Any]) -> Tuple[str, str]:
        return ("refill", str(c[0]))

    def card_def(self, meta: Meta, c: List[Any]) -> ir.Card:
        label, rest = c[0], c[1:]
        count = 1
        count_of = None
        props = []
        for item in rest:
            if isinstance(item, Token) and item.type == "COUNT":
                count = self._num(item, 1)
            elif isinstance(item, Token) and item.type == "COUNT_OF":
                count_of = str(item)[2:-1]
            else:
                props.append(item)
        return ir.Card(label, count, tuple(props), count_of, pos=_pos(meta))

    def card_prop(self, meta: Meta, c: List[Any]) -> ir.Prop:
        return ir.Prop(str(c[0]), c[1], _pos(meta))

    def choose_card(self, meta: Meta, c: List[Any]) -> ir.ChooseCard:
        pile, var, *rest = c
        prompt = None
        if rest and isinstance(rest[-1], Token) and rest[-1].type == "STRING":
            prompt = _unquote(rest.pop())
        return ir.ChooseCard(pile, str(var), rest[0] if rest else None, prompt, pos=_pos(meta))

    def for_each_card(self, meta: Meta, c: List[Any]) -> ir.ForEachCard:
        pile, var, *rest = c
        body = rest.pop()
        return ir.ForEachCard(pile, str(var), rest[0] if rest else None, body, _pos(meta))

    def pieces_decl(self, meta: Meta, c: List[Any]) -> Decl:
        state, pieces, _ = _set_body(c[1:])
        return ("pieces", ir.PieceSet(str(c[0]), state, pieces, _pos(meta)), meta)

    def board_decl(self, meta: Meta, c: List[Any]) -> Decl:
        name, shape, wide, high, rest = c[0], c[1], self._num(c[2]), self._num(c[3]), list(c[4:])
        north = bool(rest) and isinstance(rest[0], tuple) and rest[0][0] == "rows"
        if north:
            side = rest.pop(0)[1]
            if side not in ("north", "south"):
                self._error(side, f"rows are counted from north or south, not {str(side)!r}")
            north = side == "north"
        state: Tuple[ir.Stat, ...] = ()
        if rest and isinstance(rest[0], tuple) and rest[0][0] == "state":
            state = tuple(attrs.evolve(d, scope="piece") for d in rest.pop(0)[1])
        spaces, links = generate.grid(wide, high, shape, self.max_pieces, self._error, meta, north)
        spaces = generate.with_lines(spaces, rest, self._error)
        return ("pieces", ir.PieceSet(str(name), state, spaces, _pos(meta), links), meta)

    def board_rows(self, meta: Meta, c: List[Any]) -> Tuple[str, Any]:
        return ("rows", c[0])

    def board_graph(self, meta: Meta, c: List[Any]) -> Decl:
        state, spaces, links = _set_body(c[1:])
        return ("pieces", ir.PieceSet(str(c[0]), state, spaces, _pos(meta), links), meta)

    def link_both(self, meta: Meta, c: List[Any]) -> Tuple[str, List[ir.Link]]:
        a, b = c[0], c[2]
        return ("links", [ir.Link(a, b, "link"), ir.Link(b, a, "link")])

    def link_pair(self, meta: Meta, c: List[Any]) -> Tuple[str, List[ir.Link]]:
        a, b = c[0], c[2]
        return ("links", [ir.Link(a, b, str(c[3])), ir.Link(b, a, str(c[4]))])

    def link_by(self, meta: Meta, c: List[Any]) -> Tuple[str, List[ir.Link]]:
        a, b = c[0], c[2]
        return ("links", [ir.Link(a, b, str(c[3])), ir.Link(b, a, str(c[3]))])

    def link_one(self, meta: Meta, c: List[Any]) -> Tuple[str, List[ir.Link]]:
        return ("links", [ir.Link(c[0], c[2], str(c[3]))])

    def shape_grid(self, meta: Meta, c: List[Any]) -> Tuple[Tuple[str, int, int], ...]:
        return generate.GRID_DIRECTIONS

    def shape_hex(self, meta: Meta, c: List[Any]) -> Tuple[Tuple[str, int, int], ...]:
        return generate.HEX_DIRECTIONS

    def piece_state(self, meta: Meta, c: List[Any]) -> Tuple[str, List[ir.Stat]]:
        return ("state", list(c))

    def piece_def(self, meta: Meta, c: List[Any]) -> ir.Piece:
        return ir.Piece(c[0], tuple(c[1:]), pos=_pos(meta))

    def piece_prop(self, meta: Meta, c: List[Any]) -> ir.PieceProp:
        return ir.PieceProp(str(c[0]), c[1], _pos(meta))

    def actor_decl(self, meta: Meta, c: List[Any]) -> Decl:
        name, items = c[0], c[1:]
        stats = tuple(attrs.evolve(i, scope="actor") for i in items if isinstance(i, ir.Stat))
        piles = tuple(i[1] for i in items if isinstance(i, tuple))
        return ("actors", ir.Actor(str(name), stats, piles, _pos(meta)), meta)

    def pile_decl(self, meta: Meta, c: List[Any]) -> Decl:
        name, opts = c[0], c[1:]
        return ("piles", ir.Pile(str(name), "per_player" in opts, "hidden" in opts,
                                 _pos(meta)), meta)

    def pile_per_player(self, meta: Meta, c: List[Any]) -> str:
        return "per_player"

    def pile_hidden(self, meta: Meta, c: List[Any]) -> str:
        return "hidden"

    def pile_comma(self, meta: Meta, c: List[Any]) -> str:
        return ","

    def label_name(self, meta: Meta, c: List[Any]) -> str:
        return str(c[0])

    def label_string(self, meta: Meta, c: List[Any]) -> str:
        return _unquote(c[0])

    def label_int(self, meta: Meta, c: List[Any]) -> str:
        return str(c[0])

    # --------------------------------------------------------------- tables

    def table_decl(self, meta: Meta, c: List[Any]) -> Decl:
        name, die, rows = c[0], c[1], c[2:]
        return ("tables", ir.Table(str(name), self._num(die, 1), tuple(rows), _pos(meta)), meta)

    def table_row(self, meta: Meta, c: List[Any]) -> ir.Row:
        low = self._num(c[0])
        rest = list(c[1:])
        high = low
        if rest and isinstance(rest[0], Token) and rest[0].type == "INT":
            high = self._num(rest.pop(0))
        label = None
        if rest and isinstance(rest[0], str) and not isinstance(rest[0], Token):
            label = rest.pop(0)
        return ir.Row(low, high, label, _stmts(rest), _pos(meta))

    def test_decl(self, meta: Meta, c: List[Any]) -> Decl:
        param, die, op, target = c
        if str(target) != str(param):
            self._error(target, f"a test compares the roll with its parameter "
                                f"'{param}', not '{target}'")
        return ("test", ir.TestDef(str(param), self._num(die, 1), str(op), _pos(meta)), meta)

    # ---------------------------------------------------------------- rules

    def rule_decl(self, meta: Meta, c: List[Any]) -> Decl:
        name, *rest = c
        body = rest.pop()
        gives = rest.pop()[1] if rest and isinstance(rest[-1], tuple) else None
        return ("rules", ir.Rule(str(name), body, tuple(rest), _pos(meta), gives), meta)

    def gives(self, meta: Meta, c: List[Any]) -> Tuple[str, str]:
        kind = str(c[0])
        if kind not in ir.GIVES:
            self._error(meta, f"a rule gives one of {', '.join(ir.GIVES)}, not '{kind}'")
        return ("gives", kind)

    def give(self, meta: Meta, c: List[Any]) -> ir.Give:
        return ir.Give(c[0], _pos(meta))

    def param(self, meta: Meta, c: List[Any]) -> ir.Param:
        return ir.Param(str(c[0]), str(c[1]) if len(c) > 1 else "number", _pos(meta))

    def option_decl(self, meta: Meta, c: List[Any]) -> Decl:
        name, rest = c[0], list(c[1:])
        prompt = None
        if rest and isinstance(rest[0], Token) and rest[0].type == "STRING":
            prompt = _unquote(rest.pop(0))
        return ("options", ir.Option(str(name), prompt, tuple(rest), _pos(meta)), meta)

    def choice_item(self, meta: Meta, c: List[Any]) -> ir.Choice:
        rest = list(c[1:])
        cond = None
        if rest and isinstance(rest[0], list):          # ["if", condition]
            cond = rest.pop(0)[1]
        if len(rest) == 1 and isinstance(rest[0], tuple):   # "Label" { … }
            rest = list(rest[0])
        return ir.Choice(_unquote(c[0]), _stmts(rest), cond, _pos(meta))

    def choice_cond(self, meta: Meta, c: List[Any]) -> List[Any]:
        return ["if", c[0]]

    def setup_decl(self, meta: Meta, c: List[Any]) -> Decl:
        return ("setup", c[0], meta)

    def turn_decl(self, meta: Meta, c: List[Any]) -> Decl:
        opts: Dict[str, Any] = {"order": None, "when": None, "until": None, "every": ()}
        phases = []
        for item in c:
            if isinstance(item, tuple):
                opts[item[0]] = item[1]
            else:
                phases.append(item)
        return ("turn", ir.Turn(opts["order"], opts["when"], tuple(phases), until=opts["until"],
                                each_round=opts["every"], pos=_pos(meta)), meta)

    def turn_order(self, meta: Meta, c: List[Any]) -> Tuple[str, Any]:
        return ("order", c[0])

    def turn_when(self, meta: Meta, c: List[Any]) -> Tuple[str, Any]:
        return ("when", c[0])

    def turn_until(self, meta: Meta, c: List[Any]) -> Tuple[str, Any]:
        return ("until", c[0])

    def each_round(self, meta: Meta, c: List[Any]) -> Tuple[str, Any]:
        return ("every", c[0])

    def phase(self, meta: Meta, c: List[Any]) -> ir.Phase:
        return ir.Phase(str(c[0]), c[1], _pos(meta))

    def trigger_decl(self, meta: Meta, c: List[Any]) -> Decl:
        return ("triggers", ir.Trigger(c[0], c[1], _pos(meta)), meta)

    def draw_trigger_decl(self, meta: Meta, c: List[Any]) -> Decl:
        deck, var, *rest = c
        body = rest.pop()
        return ("draw_triggers", ir.DrawTrigger(str(deck), str(var), rest[0] if rest else None,
                                                body, _pos(meta)), meta)

    def move_card(self, meta: Meta, c: List[Any]) -> ir.MoveCard:
        return ir.MoveCard(_unquote(c[0]), c[1], c[2], _pos(meta))

    def reroll_decl(self, meta: Meta, c: List[Any]) -> Decl:
        return ("reroll", ir.Reroll(c[0], c[1], _pos(meta)), meta)

    def end_decl(self, meta: Meta, c: List[Any]) -> Decl:
        return ("endings", ir.Ending(_unquote(c[0]), c[1], _pos(meta)), meta)

    def score_decl(self, meta: Meta, c: List[Any]) -> Decl:
        return ("score", list(c), meta)

    def heuristic_decl(self, meta: Meta, c: List[Any]) -> Decl:
        return ("heuristic", list(c), meta)

    def score_item(self, meta: Meta, c: List[Any]) -> ir.ScoreItem:
        where = _pos(meta)
        first = getattr(c[0], "pos", None)
        if where is not None and first is not None and first.line > where.line:
            where = first       # a line that starts with '-': at the '-'
        return ir.ScoreItem(c[0], c[1] if len(c) > 1 else None, where)

    def winner_decl(self, meta: Meta, c: List[Any]) -> Decl:
        return ("winner", (str(c[0]), c[1] if len(c) > 1 else None), meta)

    # ----------------------------------------------------------- statements

    def block(self, meta: Meta, c: List[Any]) -> Tuple[Any, ...]:
        return _stmts(c)

    def single(self, meta: Meta, c: List[Any]) -> Tuple[Any, ...]:
        return _stmts(c)

    def assign(self, meta: Meta, c: List[Any]) -> ir.Assign:
        target, op, value = c
        return ir.Assign(target, str(op), value, _pos(meta))

    def let(self, meta: Meta, c: List[Any]) -> ir.Let:
        return ir.Let(str(c[0]), c[2], _pos(meta))

    def stop(self, meta: Meta, c: List[Any]) -> ir.Stop:
        return ir.Stop(_pos(meta))

    def roll_on(self, meta: Meta, c: List[Any]) -> ir.RollOn:
        return ir.RollOn(str(c[0]), _pos(meta))

    def test(self, meta: Meta, c: List[Any]) -> ir.Test:
        return ir.Test(c[0], _pos(meta))

    def draw(self, meta: Meta, c: List[Any]) -> ir.Draw:
        return ir.Draw(c[0], c[1], c[2], _pos(meta))

    def move_all(self, meta: Meta, c: List[Any]) -> ir.MoveAll:
        return ir.MoveAll(c[0], c[1], _pos(meta))

    def move_cards(self, meta: Meta, c: List[Any]) -> ir.MoveCards:
        return ir.MoveCards(str(c[0]), c[1], c[2], _pos(meta))

    def choose_cards(self, meta: Meta, c: List[Any]) -> ir.ChooseCards:
        (low, high), pile, var = c[0], c[1], c[2]
        prompt = _unquote(c[3]) if len(c) > 3 else None
        return ir.ChooseCards(low, high, pile, str(var), prompt, _pos(meta))

    def up_to(self, meta: Meta, c: List[Any]) -> Tuple[Any, Any]:
        return (ir.Num(0, _pos(meta)), c[0])

    def exactly(self, meta: Meta, c: List[Any]) -> Tuple[Any, Any]:
        return (c[0], c[0])

    def choose_option(self, meta: Meta, c: List[Any]) -> ir.ChooseOption:
        return ir.ChooseOption(str(c[0]), _pos(meta))

    def choose_row(self, meta: Meta, c: List[Any]) -> ir.ChooseRow:
        return ir.ChooseRow(str(c[0]), self._num(c[1]), self._num(c[2]), _pos(meta))

    def skip(self, meta: Meta, c: List[Any]) -> ir.Skip:
        return ir.Skip(str(c[0]), _pos(meta))

    def end_turn(self, meta: Meta, c: List[Any]) -> ir.EndTurn:
        return ir.EndTurn(_pos(meta))

    def end_game(self, meta: Meta, c: List[Any]) -> ir.EndGame:
        return ir.EndGame(_unquote(c[0]), _pos(meta))

    def log(self, meta: Meta, c: List[Any]) -> ir.Log:
        return ir.Log(_unquote(c[0]), _pos(meta))

    def reveal(self, meta: Meta, c: List[Any]) -> ir.Reveal:
        return ir.Reveal(c[0], _pos(meta))

    def secretly(self, meta: Meta, c: List[Any]) -> Any:
        choice = c[0]
        if not isinstance(choice, (ir.ChooseOne, ir.ChooseNumber, ir.ChooseCard)):
            self._error(meta, "'secretly' goes before a choice: 'choose one …', 'choose one "
                              "card from …' or 'choose a number …'")
        return attrs.evolve(choice, secret=True)

    def call(self, meta: Meta, c: List[Any]) -> ir.Call:
        return ir.Call(str(c[0]), (), _pos(meta))

    def call_args(self, meta: Meta, c: List[Any]) -> ir.Call:
        return ir.Call(str(c[0]), tuple(x for x in c[1:] if x is not None), _pos(meta))

    def cond_expr(self, meta: Meta, c: List[Any]) -> ir.IfExpr:
        return ir.IfExpr(c[0], c[1], c[2], _pos(meta))

    def repeat(self, meta: Meta, c: List[Any]) -> ir.Repeat:
        return ir.Repeat(c[0], c[1], _pos(meta))

    def while_(self, meta: Meta, c: List[Any]) -> ir.While:
        return ir.While(c[0], c[1], _pos(meta))

    def for_each_piece(self, meta: Meta, c: List[Any]) -> ir.ForEachPiece:
        pieces, var, *rest = c
        body = rest.pop()
        return ir.ForEachPiece(str(pieces), str(var), rest[0] if rest else None, body, _pos(meta))

    def choose_piece(self, meta: Meta, c: List[Any]) -> ir.ChoosePiece:
        pieces, var, *rest = c
        prompt = None
        if rest and isinstance(rest[-1], Token) and rest[-1].type == "STRING":
            prompt = _unquote(rest.pop())
        return ir.ChoosePiece(str(pieces), str(var), rest[0] if rest else None, prompt, _pos(meta))

    def for_each(self, meta: Meta, c: List[Any]) -> ir.ForEachPlayer:
        c = list(c)
        other = False
        if c and isinstance(c[0], Token) and c[0].type == "OTHER":
            other = True
            c.pop(0)
        body = c.pop()
        var = cond = None
        if c and isinstance(c[0], Token) and c[0].type == "NAME":
            var = str(c.pop(0))
        if c:
            cond = c.pop(0)
        return ir.ForEachPlayer(var, other, cond, body, _pos(meta))

    def for_player(self, meta: Meta, c: List[Any]) -> ir.ForPlayer:
        return ir.ForPlayer(c[0], c[1], _pos(meta))

    def choose_one(self, meta: Meta, c: List[Any]) -> ir.ChooseOne:
        c = list(c)
        prompt = None
        if c and isinstance(c[0], Token):
            prompt = _unquote(c.pop(0))
        return ir.ChooseOne(prompt, tuple(c), pos=_pos(meta))

    def may(self, meta: Meta, c: List[Any]) -> ir.May:
        return ir.May(_unquote(c[0]), c[1], c[2] if len(c) > 2 else (), _pos(meta))

    def pick_piece(self, meta: Meta, c: List[Any]) -> ir.PickPiece:
        return ir.PickPiece(str(c[0]), str(c[1]), c[2] if len(c) > 2 else None, _pos(meta))

    def choose_number(self, meta: Meta, c: List[Any]) -> ir.ChooseNumber:
        return ir.ChooseNumber(c[0], c[1], str(c[2]), _unquote(c[3]) if len(c) > 3 else None,
                               pos=_pos(meta))

    def if_stmt(self, meta: Meta, c: List[Any]) -> ir.If:
        # cond body (cond body)* [body]
        items = list(c)
        last = len(items) - len(items) % 2
        pairs = [(items[i], items[i + 1]) for i in range(0, last, 2)]
        orelse: Tuple[Any, ...] = items[last] if last < len(items) else ()
        for cond, body in reversed(pairs):
            # An 'else if' is placed at its condition (the outer 'if' at
            # the statement's start, below).
            orelse = (ir.If(cond, body, orelse, getattr(cond, "pos", None) or _pos(meta)),)
        node: ir.If = orelse[0]
        return attrs.evolve(node, pos=_pos(meta))
