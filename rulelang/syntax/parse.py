"""Parse a rule file with the Lark grammar and transform the tree into IR.

Syntax errors are reported as ``RulesetSyntaxError`` with file, line,
column and what the parser expected, in words a designer knows.
"""

from __future__ import annotations

import functools
import pathlib
import re
import weakref

import lark
from lark import Discard, Token, Transformer, Tree, v_args

from .. import ir
from ..errors import RulesetSyntaxError
from ..limits import DEFAULT, Limits

GRAMMAR_PATH = pathlib.Path(__file__).with_name("rulelang.lark")

#: The default limits (see ``rulelang.limits``); kept as names for callers
#: that read them.
MAX_SOURCE_BYTES = DEFAULT.max_source_bytes
MAX_NESTING = DEFAULT.max_nesting


@functools.lru_cache(maxsize=None)
def parser() -> lark.Lark:
    return lark.Lark(
        GRAMMAR_PATH.read_text(encoding="utf-8"),
        parser="lalr",
        propagate_positions=True,
        maybe_placeholders=False,
    )


# Friendlier names for terminals in "expected ..." messages.
_TERMINAL_WORDS = {
    "NAME": "a name", "INT": "a number", "SIGNED_INT": "a number",
    "STRING": 'a "quoted text"', "DIE": "a die such as d6",
    "LBRACE": "'{'", "RBRACE": "'}'", "LPAR": "'('", "RPAR": "')'",
    "COLON": "':'", "EQ": "'='", "COUNT": "a count such as x10",
    "CMP": "a comparison such as <=", "ASSIGN_OP": "'+=' or '-='",
 "COMMA": "','", "DOT": "'.'", "EXTREME": "highest or lowest",
    "OTHER": "other", "PLUS": "+", "MINUS": "-", "MUL_OP": "* / or %", "$END": "the end of the file",
}


_VALUE_START = {"NAME", "INT", "LPAR", "ROLL", "MINUS", "THIS", "SIZE", "ROUND", "YES", "NO",
                "NONE", "SUM", "PASSED", "FAILED", "MARGIN", "NOT", "ANY", "EXTREME", "COUNT"}


def _word(term: str) -> str:
    if term in _TERMINAL_WORDS:
        return _TERMINAL_WORDS[term]
    try:
        pattern = parser().get_terminal(term).pattern
        if pattern.type == "str":
            return repr(pattern.value)
    except KeyError:
        pass
    return term.lower()


def _expected(names) -> str:
    names = set(names)
    if {"NAME", "INT", "LPAR", "ROLL"} <= names:
        # Anywhere a value may start: say so instead of listing 20 words.
        others = {n for n in names - _VALUE_START if _word(n) not in ("'count'", "'any'", "'no'")}
        rest = _expected(others) if others else ""
        return "a value (a number, a name, 'roll d6', 'count of ...', ...)" + (f", or {rest}" if rest else "")
    words = set()
    for n in names:
        w = _word(n)
        if not w.startswith("__"):
            words.add(w)
    words = sorted(words, key=lambda w: (not w.startswith("'"), w))
    if len(words) > 12:
        words = words[:12] + ["…"]
    return ", ".join(words)


_BRACKETS = re.compile(r'"[^"\n]*"|#[^\n]*|[({]|[)}]')


def _bracket_too_deep(text: str, limit: int):
    """(line, column) of the first bracket nested deeper than ``limit``
    (brackets inside quoted text and comments do not count), or None."""
    if text.count("(") + text.count("{") <= limit:
        return None
    depth = 0
    for m in _BRACKETS.finditer(text):
        ch = m.group()
        if ch in "({":
            depth += 1
            if depth > limit:
                start = m.start()
                line = text.count("\n", 0, start) + 1
                return line, start - (text.rfind("\n", 0, start) + 1) + 1
        elif ch in ")}":
            depth -= 1
    return None


def _nesting_message(limit: int) -> str:
    return (f"this is nested more than {limit} levels deep (brackets, blocks, "
            f"'if … else if', and each operator of a chain like a + b + c count "
            f"as a level); split it up, e.g. with 'let' or a rule")


def parse(text: str, filename: str = "<string>", limits: Limits | None = None) -> ir.Ruleset:
    """Parse rule file text into an ``ir.Ruleset`` (not yet checked).
    ``limits`` bounds the file size, nesting and numbers (default:
    ``rulelang.Limits()``)."""
    limits = limits or DEFAULT
    if not isinstance(text, str):
        raise TypeError(f"parse() takes the rule file text as a str, not {type(text).__name__}")
    if len(text) > limits.max_source_bytes or \
            len(text.encode("utf-8", "replace")) > limits.max_source_bytes:
        raise RulesetSyntaxError.at(
            filename, 1, 1,
            f"the file is larger than the limit of {limits.max_source_bytes} bytes")
    where = _bracket_too_deep(text, limits.max_nesting)
    if where is not None:
        raise RulesetSyntaxError.at(filename, where[0], where[1],
                                    _nesting_message(limits.max_nesting), text)
    try:
        # Parse token by token, watching the parser's stack: nesting that
        # needs no brackets ('if a: if b: …', 'not not …') is stopped
        # while it is read, not after a long parse.
        run = parser().parse_interactive(text)
        deepest_stack = 4 * limits.max_nesting + 100
        try:
            for tok in run.iter_parse():
                if len(run.parser_state.state_stack) > deepest_stack:
                    raise RulesetSyntaxError.at(filename, tok.line, tok.column,
                                                _nesting_message(limits.max_nesting), text)
            tree = run.resume_parse()
        except lark.UnexpectedToken as e:
            if e.interactive_parser is None:   # as a plain parse() would give it
                e.interactive_parser = run
            raise
    except lark.UnexpectedCharacters as e:
        raise RulesetSyntaxError.at(
            filename, e.line, e.column,
            f"unexpected character {text[e.pos_in_stream]!r}; expected "
            f"{_expected(e.allowed or ())}", text) from None
    except lark.UnexpectedToken as e:
        tok = e.token
        expected = _expected(getattr(e, "accepts", None) or e.expected)
        if tok.type == "$END":
            lines = text.splitlines() or [""]
            raise RulesetSyntaxError.at(
                filename, len(lines), len(lines[-1]) + 1,
                f"the file ends too early (an unclosed '{{'?); expected {expected}", text) from None
        raise RulesetSyntaxError.at(
            filename, tok.line, tok.column,
            f"unexpected {_shorten(str(tok))!r}; expected {expected}", text) from None
    except lark.UnexpectedEOF as e:
        lines = text.splitlines() or [""]
        raise RulesetSyntaxError.at(
            filename, len(lines), len(lines[-1]) + 1,
            f"the file ends too early; expected {_expected(e.expected)}", text) from None
    try:
        rs = _transform(_ToIR(filename, text, limits), tree)
    except lark.exceptions.VisitError as e:
        if isinstance(e.orig_exc, RulesetSyntaxError):
            raise e.orig_exc from None
        raise
    deep = ir.deepest(rs, limits.max_nesting)
    if deep is not None:
        pos = getattr(deep, "pos", None) or ir.Pos(1, 1)
        raise RulesetSyntaxError.at(filename, pos.line, pos.column,
                                    _nesting_message(limits.max_nesting), text)
    _made[id(rs)] = weakref.ref(rs, _forget(id(rs)))
    return rs


# The rulesets this parser made in this process (id -> weak reference):
# their IR has the shape the grammar gives, so the trust boundary
# (``rulelang.trust``) need only check them.
_made: dict = {}


def _forget(key):
    return lambda _ref: _made.pop(key, None)


def made_here(rs) -> bool:
    """Whether ``rs`` is an IR this parser made (and nobody rebuilt)."""
    ref = _made.get(id(rs))
    return ref is not None and ref() is rs


def _shorten(s: str, most: int = 40) -> str:
    return s if len(s) <= most else s[:most] + "…"


def _transform(transformer: Transformer, tree: Tree):
    """``transformer.transform(tree)`` without recursion: the parse tree of
    hostile input may be far deeper than Python's stack."""
    stack = [(tree, iter(tree.children), [])]
    while True:
        node, children, done = stack[-1]
        for child in children:
            if isinstance(child, Tree):
                stack.append((child, iter(child.children), []))
                break
            res = transformer._call_userfunc_token(child) if isinstance(child, Token) else child
            if res is not Discard:
                done.append(res)
        else:
            stack.pop()
            res = transformer._call_userfunc(node, done)
            if not stack:
                return res
            if res is not Discard:
                stack[-1][2].append(res)


def _pos(meta) -> ir.Pos | None:
    if meta is None or getattr(meta, "empty", True):
        return None
    return ir.Pos(meta.line, meta.column)


def _tok_pos(tok: Token) -> ir.Pos:
    return ir.Pos(tok.line, tok.column)


def _unquote(tok) -> str:
    s = str(tok)
    return s[1:-1] if s.startswith('"') else s


def _stmts(items) -> tuple:
    return tuple(i for i in items if not isinstance(i, Token))


@v_args(meta=True)
class _ToIR(Transformer):
    """Parse tree → IR.  One method per grammar rule or alias."""

    def __init__(self, filename: str, source: str, limits: Limits = DEFAULT):
        super().__init__()
        self.filename = filename
        self.source = source
        self.max_number = limits.max_number

    def _num(self, tok, skip=0):
        """The whole number in token ``tok`` (after ``skip`` letters, as in
        d6 or x10), refused when it is larger than the limit."""
        digits = str(tok)[skip:].lstrip("+-")
        biggest = self.max_number
        if len(digits) > len(str(biggest)) or int(digits) > biggest:
            shown = digits if len(digits) <= 20 else f"{digits[:12]}… ({len(digits)} digits)"
            self._error(tok, f"the number {shown} is too large: numbers go up to {biggest}")
        value = int(str(tok)[skip:])
        return value

    def _error(self, meta_or_tok, message):
        line = getattr(meta_or_tok, "line", 1)
        col = getattr(meta_or_tok, "column", 1)
        raise RulesetSyntaxError.at(self.filename, line, col, message, self.source)

    # ------------------------------------------------------------ top level

    def start(self, meta, items):
        found = {}
        lists = {k: [] for k in ("stats", "consts", "decks", "piles", "pieces", "tables", "rules",
                                 "options", "triggers", "draw_triggers", "endings", "score")}
        singles = {}
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
        low, high = singles.get("players", (1, 1))
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
            winner=singles.get("winner", "highest"),
            filename=self.filename, source=self.source, pos=ir.Pos(1, 1),
            players_pos=_pos(found["players"]) if "players" in found else None)

    def game_decl(self, meta, c):
        return ("game", _unquote(c[0]), meta)

    def players_decl(self, meta, c):
        return ("players", (self._num(c[0]), self._num(c[1])), meta)

    # ---------------------------------------------------------------- stats

    def per_player(self, meta, c):
        return "player"

    def per_turn(self, meta, c):
        return "turn"

    def global_scope(self, meta, c):
        return "global"

    def stats_decl(self, meta, c):
        scope, defs = c[0], c[1:]
        return ("stats", [attrs_evolve(d, scope=scope) for d in defs], meta)

    def stat_value(self, meta, c):
        name, init, *bounds = c
        lo = hi = None
        for kind, value in bounds:
            if kind == "min":
                lo = value
            else:
                hi = value
        return ir.Stat(str(name), "player", init, lo, hi, None, pos=_pos(meta))

    def track_decl(self, meta, c):
        name, spaces = c[0], c[1:]
        first = spaces[0]
        stat = ir.Stat(str(name), "global", ir.Name(first.name, first.pos), None, None,
                       tuple(sp.name for sp in spaces), tuple(spaces), pos=_pos(meta))
        return ("stats", [stat], meta)

    def track_space(self, meta, c):
        return ir.Space(str(c[0]), tuple(c[1:]), _pos(meta))

    def stat_enum(self, meta, c):
        name, *values = c
        first = str(values[0])
        return ir.Stat(str(name), "player", ir.Name(first, _tok_pos(values[0])),
                       None, None, tuple(str(v) for v in values), pos=_pos(meta))

    def init_expr(self, meta, c):
        return c[1]

    def bound_min(self, meta, c):
        return ("min", c[0])

    def bound_max(self, meta, c):
        return ("max", c[0])

    def signed(self, meta, c):
        return ir.Num(self._num(c[0]), _tok_pos(c[0]))

    def const_decl(self, meta, c):
        return ("consts", ir.Const(str(c[0]), c[2], _pos(meta)), meta)

    # ---------------------------------------------------------------- cards

    def deck_decl(self, meta, c):
        name, rest = c[0], c[1:]
        refill = None
        cards = []
        for item in rest:
            if isinstance(item, tuple) and item[0] == "refill":
                refill = item[1]
            else:
                cards.append(item)
        return ("decks", ir.Deck(str(name), tuple(cards), refill, _pos(meta)), meta)

    def refill(self, meta, c):
        return ("refill", str(c[0]))

    def card_def(self, meta, c):
        label, rest = c[0], c[1:]
        count = 1
        props = []
        for item in rest:
            if isinstance(item, Token) and item.type == "COUNT":
                count = self._num(item, 1)
            else:
                props.append(item)
        return ir.Card(label, count, tuple(props), _pos(meta))

    def card_prop(self, meta, c):
        return ir.Prop(str(c[0]), c[1], _pos(meta))

    def choose_card(self, meta, c):
        pile, var, *rest = c
        prompt = None
        if rest and isinstance(rest[-1], Token) and rest[-1].type == "STRING":
            prompt = _unquote(rest.pop())
        return ir.ChooseCard(pile, str(var), rest[0] if rest else None, prompt, _pos(meta))

    def for_each_card(self, meta, c):
        pile, var, *rest = c
        body = rest.pop()
        return ir.ForEachCard(pile, str(var), rest[0] if rest else None, body, _pos(meta))

    def pieces_decl(self, meta, c):
        name, rest = c[0], list(c[1:])
        state = ()
        if rest and isinstance(rest[0], list):
            state = tuple(attrs_evolve(d, scope="piece") for d in rest.pop(0))
        return ("pieces", ir.PieceSet(str(name), state, tuple(rest), _pos(meta)), meta)

    def piece_state(self, meta, c):
        return list(c)

    def piece_def(self, meta, c):
        return ir.Piece(c[0], tuple(c[1:]), _pos(meta))

    def piece_prop(self, meta, c):
        return ir.PieceProp(str(c[0]), c[1], _pos(meta))

    def pile_decl(self, meta, c):
        name, opts = c[0], c[1:]
        return ("piles", ir.Pile(str(name), "per_player" in opts, "hidden" in opts,
                                 _pos(meta)), meta)

    def pile_per_player(self, meta, c):
        return "per_player"

    def pile_hidden(self, meta, c):
        return "hidden"

    def pile_comma(self, meta, c):
        return ","

    def label_name(self, meta, c):
        return str(c[0])

    def label_string(self, meta, c):
        return _unquote(c[0])

    def label_int(self, meta, c):
        return str(c[0])

    # --------------------------------------------------------------- tables

    def table_decl(self, meta, c):
        name, die, rows = c[0], c[1], c[2:]
        return ("tables", ir.Table(str(name), self._num(die, 1), tuple(rows), _pos(meta)), meta)

    def table_row(self, meta, c):
        low = self._num(c[0])
        rest = list(c[1:])
        high = low
        if rest and isinstance(rest[0], Token) and rest[0].type == "INT":
            high = self._num(rest.pop(0))
        label = None
        if rest and isinstance(rest[0], str) and not isinstance(rest[0], Token):
            label = rest.pop(0)
        return ir.Row(low, high, label, _stmts(rest), _pos(meta))

    def test_decl(self, meta, c):
        param, die, op, target = c
        if str(target) != str(param):
            self._error(target, f"a test compares the roll with its parameter "
                                f"'{param}', not '{target}'")
        return ("test", ir.TestDef(str(param), self._num(die, 1), str(op), _pos(meta)), meta)

    # ---------------------------------------------------------------- rules

    def rule_decl(self, meta, c):
        name, *rest = c
        body = rest.pop()
        return ("rules", ir.Rule(str(name), body, tuple(rest), _pos(meta)), meta)

    def param(self, meta, c):
        return ir.Param(str(c[0]), str(c[1]) if len(c) > 1 else "number", _pos(meta))

    def option_decl(self, meta, c):
        name, rest = c[0], list(c[1:])
        prompt = None
        if rest and isinstance(rest[0], Token) and rest[0].type == "STRING":
            prompt = _unquote(rest.pop(0))
        return ("options", ir.Option(str(name), prompt, tuple(rest), _pos(meta)), meta)

    def choice_item(self, meta, c):
        rest = list(c[1:])
        cond = None
        if rest and isinstance(rest[0], list):          # ["if", condition]
            cond = rest.pop(0)[1]
        if len(rest) == 1 and isinstance(rest[0], tuple):   # "Label" { … }
            rest = list(rest[0])
        return ir.Choice(_unquote(c[0]), _stmts(rest), cond, _pos(meta))

    def choice_cond(self, meta, c):
        return ["if", c[0]]

    def setup_decl(self, meta, c):
        return ("setup", c[0], meta)

    def turn_decl(self, meta, c):
        first = when = None
        phases = []
        for item in c:
            if isinstance(item, tuple):
                if item[0] == "order":
                    first = item[1]
                else:
                    when = item[1]
            else:
                phases.append(item)
        return ("turn", ir.Turn(first, when, tuple(phases), _pos(meta)), meta)

    def turn_order(self, meta, c):
        return ("order", c[0])

    def turn_when(self, meta, c):
        return ("when", c[0])

    def phase(self, meta, c):
        return ir.Phase(str(c[0]), c[1], _pos(meta))

    def trigger_decl(self, meta, c):
        return ("triggers", ir.Trigger(c[0], c[1], _pos(meta)), meta)

    def draw_trigger_decl(self, meta, c):
        deck, var, *rest = c
        body = rest.pop()
        return ("draw_triggers", ir.DrawTrigger(str(deck), str(var), rest[0] if rest else None,
                                                body, _pos(meta)), meta)

    def move_card(self, meta, c):
        return ir.MoveCard(_unquote(c[0]), c[1], c[2], _pos(meta))

    def reroll_decl(self, meta, c):
        return ("reroll", ir.Reroll(c[0], c[1], _pos(meta)), meta)

    def end_decl(self, meta, c):
        return ("endings", ir.Ending(_unquote(c[0]), c[1], _pos(meta)), meta)

    def score_decl(self, meta, c):
        return ("score", list(c), meta)

    def score_item(self, meta, c):
        return ir.ScoreItem(c[0], c[1] if len(c) > 1 else None, _pos(meta))

    def winner_decl(self, meta, c):
        return ("winner", str(c[0]), meta)

    # ----------------------------------------------------------- statements

    def block(self, meta, c):
        return _stmts(c)

    def single(self, meta, c):
        return _stmts(c)

    def assign(self, meta, c):
        target, op, value = c
        return ir.Assign(target, str(op), value, _pos(meta))

    def let(self, meta, c):
        return ir.Let(str(c[0]), c[2], _pos(meta))

    def stop(self, meta, c):
        return ir.Stop(_pos(meta))

    def roll_on(self, meta, c):
        return ir.RollOn(str(c[0]), _pos(meta))

    def test(self, meta, c):
        return ir.Test(c[0], _pos(meta))

    def draw(self, meta, c):
        return ir.Draw(c[0], c[1], c[2], _pos(meta))

    def move_all(self, meta, c):
        return ir.MoveAll(c[0], c[1], _pos(meta))

    def move_cards(self, meta, c):
        return ir.MoveCards(str(c[0]), c[1], c[2], _pos(meta))

    def choose_cards(self, meta, c):
        (low, high), pile, var = c[0], c[1], c[2]
        prompt = _unquote(c[3]) if len(c) > 3 else None
        return ir.ChooseCards(low, high, pile, str(var), prompt, _pos(meta))

    def up_to(self, meta, c):
        return (ir.Num(0, _pos(meta)), c[0])

    def exactly(self, meta, c):
        return (c[0], c[0])

    def choose_option(self, meta, c):
        return ir.ChooseOption(str(c[0]), _pos(meta))

    def choose_row(self, meta, c):
        return ir.ChooseRow(str(c[0]), self._num(c[1]), self._num(c[2]), _pos(meta))

    def skip(self, meta, c):
        return ir.Skip(str(c[0]), _pos(meta))

    def end_turn(self, meta, c):
        return ir.EndTurn(_pos(meta))

    def end_game(self, meta, c):
        return ir.EndGame(_unquote(c[0]), _pos(meta))

    def log(self, meta, c):
        return ir.Log(_unquote(c[0]), _pos(meta))

    def call(self, meta, c):
        return ir.Call(str(c[0]), (), _pos(meta))

    def call_args(self, meta, c):
        return ir.Call(str(c[0]), tuple(x for x in c[1:] if x is not None), _pos(meta))

    def cond_expr(self, meta, c):
        return ir.IfExpr(c[0], c[1], c[2], _pos(meta))

    def repeat(self, meta, c):
        return ir.Repeat(c[0], c[1], _pos(meta))

    def while_(self, meta, c):
        return ir.While(c[0], c[1], _pos(meta))

    def for_each_piece(self, meta, c):
        pieces, var, *rest = c
        body = rest.pop()
        return ir.ForEachPiece(str(pieces), str(var), rest[0] if rest else None, body, _pos(meta))

    def choose_piece(self, meta, c):
        pieces, var, *rest = c
        prompt = None
        if rest and isinstance(rest[-1], Token) and rest[-1].type == "STRING":
            prompt = _unquote(rest.pop())
        return ir.ChoosePiece(str(pieces), str(var), rest[0] if rest else None, prompt, _pos(meta))

    def for_each(self, meta, c):
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

    def choose_one(self, meta, c):
        c = list(c)
        prompt = None
        if c and isinstance(c[0], Token):
            prompt = _unquote(c.pop(0))
        return ir.ChooseOne(prompt, tuple(c), _pos(meta))

    def may(self, meta, c):
        return ir.May(_unquote(c[0]), c[1], c[2] if len(c) > 2 else (), _pos(meta))

    def pick_piece(self, meta, c):
        return ir.PickPiece(str(c[0]), str(c[1]), c[2] if len(c) > 2 else None, _pos(meta))

    def choose_number(self, meta, c):
        return ir.ChooseNumber(c[0], c[1], str(c[2]), _unquote(c[3]) if len(c) > 3 else None,
                               _pos(meta))

    def if_stmt(self, meta, c):
        # cond body (cond body)* [body]
        items = list(c)
        last = len(items) - len(items) % 2
        pairs = [(items[i], items[i + 1]) for i in range(0, last, 2)]
        orelse = items[last] if last < len(items) else ()
        for cond, body in reversed(pairs):
            # An 'else if' is placed at its condition (the outer 'if' at
            # the statement's start, below).
            orelse = (ir.If(cond, body, orelse, getattr(cond, "pos", None) or _pos(meta)),)
        node = orelse[0]
        return attrs_evolve(node, pos=_pos(meta))

    # ---------------------------------------------------------- expressions

    def _binary(self, meta, c):
        left = c[0]
        for i in range(1, len(c), 2):
            left = ir.BinOp(str(c[i]), left, c[i + 1], _pos(meta))
        return left

    sum = _binary
    product = _binary

    def or_expr(self, meta, c):
        left = c[0]
        for right in c[1:]:
            left = ir.BinOp("or", left, right, _pos(meta))
        return left

    def and_expr(self, meta, c):
        left = c[0]
        for right in c[1:]:
            left = ir.BinOp("and", left, right, _pos(meta))
        return left

    def not_(self, meta, c):
        return ir.Not(c[0], _pos(meta))

    def comparison(self, meta, c):
        return ir.Compare(str(c[1]), c[0], c[2], _pos(meta))

    def is_(self, meta, c):
        return ir.Compare("==", c[0], c[1], _pos(meta))

    def is_not(self, meta, c):
        return ir.Compare("!=", c[0], c[1], _pos(meta))

    def neg(self, meta, c):
        if isinstance(c[1], ir.Num):
            return ir.Num(-c[1].value, _pos(meta))
        return ir.Neg(c[1], _pos(meta))

    def int(self, meta, c):
        return ir.Num(self._num(c[0]), _pos(meta))

    def yes(self, meta, c):
        return ir.Bool(True, _pos(meta))

    def no(self, meta, c):
        return ir.Bool(False, _pos(meta))

    def none(self, meta, c):
        return ir.NoneLit(_pos(meta))

    def this_player(self, meta, c):
        return ir.ThisPlayer(_pos(meta))

    def round_(self, meta, c):
        return ir.Round(_pos(meta))

    def passed(self, meta, c):
        return ir.TestResult("passed", _pos(meta))

    def failed(self, meta, c):
        return ir.TestResult("failed", _pos(meta))

    def margin(self, meta, c):
        return ir.TestResult("margin", _pos(meta))

    def failed_by(self, meta, c):
        p = _pos(meta)
        return ir.BinOp("and", ir.TestResult("failed", p),
                        ir.Compare(">=", ir.TestResult("margin", p), c[0], p), p)

    def roll(self, meta, c):
        count = 1
        if len(c) == 2:
            count = self._num(c[0])
        return ir.Roll(count, self._num(c[-1], 1), _pos(meta))

    def roll_off(self, meta, c):
        return ir.RollOff(self._num(c[0], 1), _pos(meta))

    def count_cards(self, meta, c):
        return ir.CountCards(_unquote(c[0]), c[1], _pos(meta))

    def pile_size(self, meta, c):
        return ir.PileSize(c[0], _pos(meta))

    def sum_cards(self, meta, c):
        return ir.SumCards(str(c[0]), c[1], _pos(meta))

    def _query(self, kind, meta, c):
        c = list(c)
        other = bool(c and isinstance(c[0], Token) and c[0].type == "OTHER")
        if other:
            c.pop(0)
        return ir.PlayerQuery(kind, other, c[0] if c else None, _pos(meta))

    def count_players(self, meta, c):
        return self._query("count", meta, c)

    def no_players(self, meta, c):
        return self._query("none", meta, c)

    def any_players(self, meta, c):
        return self._query("any", meta, c)

    def extreme(self, meta, c):
        other = len(c) > 2
        return ir.Extreme(str(c[0]), c[1], other, _pos(meta))

    def pool(self, meta, c):
        return ir.Pool(c[0], self._num(c[1], 1), _pos(meta))

    def no_dice(self, meta, c):
        return ir.NoDice(_pos(meta))

    def spend(self, meta, c):
        return ir.Spend(c[0], str(c[1]), c[2], str(c[3]), _pos(meta))

    def count_pool(self, meta, c):
        return ir.PoolCount(str(c[0]), str(c[1]), c[2], _pos(meta))

    def _piece_query(self, kind, meta, c):
        return ir.PieceQuery(kind, str(c[0]), c[1] if len(c) > 1 else None, _pos(meta))

    def count_pieces(self, meta, c):
        return self._piece_query("count", meta, c)

    def none_of_pieces(self, meta, c):
        return self._piece_query("none", meta, c)

    def any_of_pieces(self, meta, c):
        return self._piece_query("any", meta, c)

    def extreme_pieces(self, meta, c):
        return ir.PieceExtreme(str(c[0]), c[1], str(c[2]), c[3] if len(c) > 3 else None, _pos(meta))

    def call_fn(self, meta, c):
        return ir.CallFn(str(c[0]), tuple(c[1:]), _pos(meta))

    def name(self, meta, c):
        return ir.Name(str(c[0]), _pos(meta))

    def attr(self, meta, c):
        return ir.Attr(str(c[0]), str(c[1]), _pos(meta))

    def pile(self, meta, c):
        return ir.PileRef(str(c[0]), str(c[1]) if len(c) > 1 else None, _pos(meta))


def attrs_evolve(node, **changes):
    import attrs
    return attrs.evolve(node, **changes)
