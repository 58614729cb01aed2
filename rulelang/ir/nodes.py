"""The IR's nodes: what a ruleset says, as frozen attrs classes.

One class per construct of the language.  Every node keeps the source
position it came from in ``pos``; positions are excluded from equality so
that two files that differ only in layout give equal IRs.  Lists are stored
as tuples so nodes stay hashable and immutable.

The IR is the contract between the stages: the parser produces it, the
checker reads it, the compiler turns it into runnable code, and
``serialize`` turns it into JSON/YAML and back.
"""

from __future__ import annotations

from typing import Any, Optional, Tuple, Union

import attrs


@attrs.frozen
class Pos:
    """Where a node came from: file name and 1-based line and column."""

    line: int
    column: int


def _pos() -> Any:
    return attrs.field(default=None, eq=False, repr=False,
                       metadata={"description": "[line, column] in the rule file, or null"})


#: The grammar's identifier (rulelang.lark's NAME): what names a stat, rule,
#: pile, local… in the IR, however the IR was made.
NAME_PATTERN = r"[A-Za-z_][A-Za-z0-9_]*"
#: The grammar's quoted text (STRING, without its quotes): a title, label,
#: prompt, card name or log line holds no double quote and no line break.
TEXT_PATTERN = r'[^"\n]*'


def _name(description: Optional[str] = None, default: Any = attrs.NOTHING) -> Any:
    """A name field (``NAME_PATTERN``; in a tuple, each item)."""
    return _f(description, default, string="name")


def _text(description: Optional[str] = None, default: Any = attrs.NOTHING) -> Any:
    """A text field (``TEXT_PATTERN``, at most ``Limits.max_text`` long)."""
    return _f(description, default, string="text")


def _f(description: Optional[str] = None, default: Any = attrs.NOTHING, **schema: Any) -> Any:
    """A field with JSON Schema facts (``enum``, ``minimum``…) for
    ``schema`` and ``shape``, so the published schema and the shape check
    are generated from these classes."""
    meta = dict(schema)
    if description:
        meta["description"] = description
    return attrs.field(default=default, metadata=meta)


# ---------------------------------------------------------------- expressions


@attrs.frozen
class Num:
    value: int
    pos: Optional[Pos] = _pos()


@attrs.frozen
class Bool:
    value: bool
    pos: Optional[Pos] = _pos()


@attrs.frozen
class NoneLit:
    pos: Optional[Pos] = _pos()


@attrs.frozen
class Name:
    """A bare name: a local, a stat of the player in scope, a global, a
    constant or an enum value.  The checker decides which."""

    name: str = _name()
    pos: Optional[Pos] = _pos()


@attrs.frozen
class Attr:
    """``rival.position``: a stat of the player held in a local."""

    obj: str = _name()
    name: str = _name()
    pos: Optional[Pos] = _pos()


@attrs.frozen
class BinOp:
    op: str = _f("arithmetic (/ floors) or logic", enum=["+", "-", "*", "/", "%", "and", "or"])
    left: "Expr"
    right: "Expr"
    pos: Optional[Pos] = _pos()


@attrs.frozen
class Compare:
    op: str = _f("comparison ('is' is ==, 'is not' is !=)", enum=["==", "!=", "<", "<=", ">", ">="])
    left: "Expr"
    right: "Expr"
    pos: Optional[Pos] = _pos()


@attrs.frozen
class Not:
    operand: "Expr"
    pos: Optional[Pos] = _pos()


@attrs.frozen
class Neg:
    operand: "Expr"
    pos: Optional[Pos] = _pos()


@attrs.frozen
class CallFn:
    """A built-in function: min, max, abs."""

    func: str = _f("the function", enum=["min", "max", "abs"])
    args: Tuple["Expr", ...] = _f("its arguments")
    pos: Optional[Pos] = _pos()


@attrs.frozen
class IfExpr:
    """``if cond then a else b``: a value chosen by a condition."""

    cond: "Expr"
    then: "Expr"
    orelse: "Expr"
    pos: Optional[Pos] = _pos()


@attrs.frozen
class Roll:
    """``roll d10`` or ``roll 2d6`` (the sum): a chance node."""

    count: int = _f("how many dice", minimum=1)
    sides: int = _f("sides of each die", minimum=2)
    pos: Optional[Pos] = _pos()


@attrs.frozen
class RollOff:
    """``roll off d10``: every player rolls, the tied highest roll again;
    the value is the winning player."""

    sides: int = _f("sides of the die", minimum=2)
    pos: Optional[Pos] = _pos()


@attrs.frozen
class ThisPlayer:
    pos: Optional[Pos] = _pos()


@attrs.frozen
class Round:
    pos: Optional[Pos] = _pos()


@attrs.frozen
class TestResult:
    """``passed``, ``failed`` or ``margin`` of the most recent test made
    during the current turn (reset at each turn's start)."""

    what: str = _f("which result", enum=["passed", "failed", "margin"])
    pos: Optional[Pos] = _pos()


@attrs.frozen
class PileRef:
    """A pile, and for a per-player pile the player who owns it (a local);
    without an owner it is the pile of the player in scope."""

    name: str = _name()
    owner: Optional[str] = _name(default=None)
    pos: Optional[Pos] = _pos()


@attrs.frozen
class CountCards:
    """``count of Trek in hand``."""

    card: str = _text()
    pile: PileRef
    pos: Optional[Pos] = _pos()


@attrs.frozen
class PileSize:
    pile: PileRef
    pos: Optional[Pos] = _pos()


@attrs.frozen
class SumCards:
    """``sum of move in hand``: a card property added over a pile."""

    prop: str = _name()
    pile: PileRef
    pos: Optional[Pos] = _pos()


@attrs.frozen
class PlayerQuery:
    """``count players where ...``, ``no players where ...``,
    ``any players where ...``; inside ``cond`` the player looked at is the
    player in scope.  ``other`` leaves out the current player."""

    quantifier: str = _f("count them, or ask whether none or any match",
                         enum=["count", "none", "any"])
    other: bool
    cond: Optional["Expr"]
    pos: Optional[Pos] = _pos()


@attrs.frozen
class Extreme:
    """``highest time among players``."""

    which: str = _f("highest or lowest", enum=["highest", "lowest"])
    value: "Expr"
    other: bool
    pos: Optional[Pos] = _pos()


@attrs.frozen
class Pool:
    """``roll 5 dice d6``: a pool of dice kept apart (a list of faces), so
    that its successes and failures can be counted."""

    count: "Expr"
    sides: int = _f("sides of each die", minimum=2)
    pos: Optional[Pos] = _pos()


@attrs.frozen
class PoolCount:
    """``count of throw >= 4``: how many dice of a pool (a local) compare
    so with a value."""

    pool: str = _name()
    op: str = _f("how each die compares", enum=["==", "!=", "<", "<=", ">", ">="])
    value: "Expr" = _f("the value compared with")
    pos: Optional[Pos] = _pos()


@attrs.frozen
class NoDice:
    """``no dice``: an empty pool, to gather dice into (``held = held + throw``)."""

    pos: Optional[Pos] = _pos()


@attrs.frozen
class PieceQuery:
    """``count workers where side is fresh``, ``none of workers where ...``,
    ``any of workers where ...``; inside ``cond`` the piece looked at is in
    scope (its attributes and state are bare names)."""

    quantifier: str = _f("count them, or ask whether none or any match",
                         enum=["count", "none", "any"])
    pieces: str = _name("the piece set")
    cond: Optional["Expr"] = None
    pos: Optional[Pos] = _pos()


@attrs.frozen
class PieceExtreme:
    """``lowest skill among workers where group == 1``."""

    which: str = _f("highest or lowest", enum=["highest", "lowest"])
    value: "Expr" = _f("the value compared, with each piece in scope")
    pieces: str = _name("the piece set")
    cond: Optional["Expr"] = None
    pos: Optional[Pos] = _pos()


Expr = Union[
    Num, Bool, NoneLit, Name, Attr, BinOp, Compare, Not, Neg, CallFn, Roll,
    RollOff, ThisPlayer, Round, TestResult, CountCards, PileSize, SumCards,
    PlayerQuery, Extreme, Pool, PoolCount, PieceQuery, PieceExtreme, IfExpr,
    NoDice,
]

#: What a card, a piece or a track's space prints: a number, yes/no, none
#: or a word (a name).
Literal = Union[Num, Bool, NoneLit, Name]
#: A stat's bound: a number or the name of a constant.
Bound = Union[Num, Name]

# ---------------------------------------------------------------- statements


@attrs.frozen
class Assign:
    target: Union[Name, Attr]
    op: str = _f("set, add or subtract", enum=["=", "+=", "-="])
    value: Expr
    pos: Optional[Pos] = _pos()


@attrs.frozen
class Let:
    name: str = _name()
    value: Expr
    pos: Optional[Pos] = _pos()


@attrs.frozen
class If:
    cond: Expr
    then: Tuple["Stmt", ...]
    orelse: Tuple["Stmt", ...] = ()
    pos: Optional[Pos] = _pos()


@attrs.frozen
class Repeat:
    times: Expr
    body: Tuple["Stmt", ...]
    pos: Optional[Pos] = _pos()


@attrs.frozen
class While:
    cond: Expr
    body: Tuple["Stmt", ...]
    pos: Optional[Pos] = _pos()


@attrs.frozen
class Stop:
    """Leave the innermost ``repeat`` or ``while``."""

    pos: Optional[Pos] = _pos()


@attrs.frozen
class ForEachPlayer:
    """Runs ``body`` once per player in turn order.  Without ``var`` the
    loop's player becomes the player in scope; with ``var`` it is bound to
    that name and the player in scope stays."""

    var: Optional[str] = _name()
    other: bool
    cond: Optional[Expr]
    body: Tuple["Stmt", ...]
    pos: Optional[Pos] = _pos()


@attrs.frozen
class ForEachPiece:
    """Runs ``body`` once for each piece of a set (in the order declared)
    that meets ``cond``, the piece bound to ``var``."""

    pieces: str = _name()
    var: str = _name()
    cond: Optional[Expr]
    body: Tuple["Stmt", ...]
    pos: Optional[Pos] = _pos()


@attrs.frozen
class ChoosePiece:
    """The player in scope picks one piece of a set that meets ``cond``;
    it is bound to ``var``.  With no piece to pick, ``var`` is none."""

    pieces: str = _name()
    var: str = _name()
    cond: Optional[Expr] = None
    prompt: Optional[str] = _text(default=None)
    pos: Optional[Pos] = _pos()


@attrs.frozen
class ChooseCard:
    """The player in scope picks one card of a pile that meets ``cond`` (the
    card in scope: its properties are bare names); ``var`` holds it, or
    none, without a decision, when no card meets it."""

    pile: PileRef
    var: str = _name()
    cond: Optional[Expr] = None
    prompt: Optional[str] = _text(default=None)
    pos: Optional[Pos] = _pos()


@attrs.frozen
class ForEachCard:
    """Runs ``body`` once for each card that is in the pile when the loop
    starts and meets ``cond``, the card bound to ``var``."""

    pile: PileRef
    var: str = _name()
    cond: Optional[Expr]
    body: Tuple["Stmt", ...]
    pos: Optional[Pos] = _pos()


@attrs.frozen
class MoveCard:
    """``move card "The Ship Sinks" from events to main``: one copy of a
    named card (it must be there)."""

    card: str = _text()
    source: PileRef
    dest: PileRef
    pos: Optional[Pos] = _pos()


@attrs.frozen
class Spend:
    """``spend 2 dice >= 4 from held``: take up to ``count`` dice that compare
    so with ``value`` out of a pool (a local), those nearest the value
    first, so the dice left are the most useful ones."""

    count: "Expr"
    op: str = _f("how each die compares", enum=["==", "!=", "<", "<=", ">", ">="])
    value: "Expr" = _f("the value compared with")
    pool: str = _name("the local holding the pool")
    pos: Optional[Pos] = _pos()


@attrs.frozen
class RollOn:
    table: str = _name()
    pos: Optional[Pos] = _pos()


@attrs.frozen
class Test:
    """``test skill``: a test as declared by the ruleset's ``test``."""

    target: Expr
    pos: Optional[Pos] = _pos()


@attrs.frozen
class Draw:
    count: Expr
    source: PileRef
    dest: PileRef
    pos: Optional[Pos] = _pos()


@attrs.frozen
class MoveAll:
    source: PileRef
    dest: PileRef
    pos: Optional[Pos] = _pos()


@attrs.frozen
class MoveCards:
    """Moves the cards held in a local (from a ``choose``)."""

    cards: str = _name()
    source: PileRef
    dest: PileRef
    pos: Optional[Pos] = _pos()


@attrs.frozen
class ChooseCards:
    """The player in scope picks ``low``..``high`` cards from a pile."""

    low: Expr
    high: Expr
    pile: PileRef
    var: str = _name()
    prompt: Optional[str] = _text(default=None)
    pos: Optional[Pos] = _pos()


@attrs.frozen
class Choice:
    """One labelled alternative of ``choose one`` (or of an option).  With
    ``cond`` (``"Fetch" if any of supplies where …:``) it is offered only
    while the condition holds."""

    label: str = _text()
    body: Tuple["Stmt", ...]
    cond: Optional["Expr"] = None
    pos: Optional[Pos] = _pos()


@attrs.frozen
class ChooseOne:
    prompt: Optional[str] = _text()
    choices: Tuple[Choice, ...]
    pos: Optional[Pos] = _pos()


@attrs.frozen
class ChooseOption:
    """Applies a setup option: taken from ``new_game(options=...)`` when
    given there, otherwise asked of the player in scope."""

    option: str = _name()
    pos: Optional[Pos] = _pos()


@attrs.frozen
class ChooseRow:
    """The player in scope picks one of rows ``low``..``high`` of a table
    and it is applied as if rolled."""

    table: str = _name()
    low: int
    high: int
    pos: Optional[Pos] = _pos()


@attrs.frozen
class May:
    """``may "prompt" { … } else { … }``: a yes/no decision."""

    prompt: str = _text()
    body: Tuple["Stmt", ...]
    orelse: Tuple["Stmt", ...] = ()
    pos: Optional[Pos] = _pos()


@attrs.frozen
class PickPiece:
    """``pick one workers at random as w where …``: a chance draw of one of
    the pieces meeting ``cond`` (none, without a draw, when nothing does)."""

    pieces: str = _name()
    var: str = _name()
    cond: Optional["Expr"] = None
    pos: Optional[Pos] = _pos()


@attrs.frozen
class ChooseNumber:
    """``choose a number from 0 to dogs as extra "Extra dice"``: the player in
    scope picks a whole number in the range (none offered: ``low`` is taken)."""

    low: "Expr"
    high: "Expr"
    var: str = _name()
    prompt: Optional[str] = _text(default=None)
    pos: Optional[Pos] = _pos()


@attrs.frozen
class Skip:
    phase: str = _name()
    pos: Optional[Pos] = _pos()


@attrs.frozen
class EndTurn:
    pos: Optional[Pos] = _pos()


@attrs.frozen
class EndGame:
    ending: str = _text()
    pos: Optional[Pos] = _pos()


@attrs.frozen
class Log:
    """``log "…"``: a line for the game log; ``{name}`` or ``{w.field}`` in
    the text is replaced by that value (see ``log_parts``)."""

    text: str = _text()
    pos: Optional[Pos] = _pos()


_PLACEHOLDER = __import__("re").compile(r"\{([A-Za-z_][A-Za-z0-9_]*)(?:\.([A-Za-z_][A-Za-z0-9_]*))?\}")


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


@attrs.frozen
class Call:
    """Run a rule; ``args`` give its parameters their values."""

    rule: str = _name()
    args: Tuple["Expr", ...] = ()
    pos: Optional[Pos] = _pos()


Stmt = Union[
    Assign, Let, If, Repeat, While, Stop, ForEachPlayer, RollOn, Test, Draw,
    MoveAll, MoveCards, ChooseCards, ChooseOne, ChooseOption, ChooseRow, May,
    Skip, EndTurn, EndGame, Log, Call, ForEachPiece, ChoosePiece, ChooseCard,
    ForEachCard, MoveCard, Spend, PickPiece, ChooseNumber,
]

# ---------------------------------------------------------------- declarations


@attrs.frozen
class Stat:
    """A named value.  ``scope`` is ``player`` (one per player), ``global``
    or ``turn`` (one per player, reset from ``initial`` at each turn's
    start).  ``values`` lists the allowed words of an enum stat."""

    name: str = _name()
    scope: str = _f("one per player, one in all, one per player reset each turn, "
                    "or one per piece of a set", enum=["player", "global", "turn", "piece"])
    initial: Expr
    min: Optional[Bound] = None
    max: Optional[Bound] = None
    values: Optional[Tuple[str, ...]] = _name(default=None)
    spaces: Optional[Tuple["Space", ...]] = None
    pos: Optional[Pos] = _pos()


@attrs.frozen
class Const:
    name: str = _name()
    value: Expr
    pos: Optional[Pos] = _pos()


@attrs.frozen
class Prop:
    """A card's property: a number, yes/no, none or a word."""

    name: str = _name()
    value: Literal
    pos: Optional[Pos] = _pos()


@attrs.frozen
class Card:
    name: str = _text()
    count: int = _f("copies of this card in the deck", minimum=1)
    props: Tuple[Prop, ...] = ()
    pos: Optional[Pos] = _pos()


@attrs.frozen
class Deck:
    """A shuffled deck: the cards it starts with, and the pile shuffled back
    into it when a draw finds it empty."""

    name: str = _name()
    cards: Tuple[Card, ...] = _f("the cards it starts with", minItems=1)
    refill_from: Optional[str] = _name(default=None)
    pos: Optional[Pos] = _pos()


@attrs.frozen
class Pile:
    name: str = _name()
    per_player: bool = False
    hidden: bool = False
    pos: Optional[Pos] = _pos()


@attrs.frozen
class PieceProp:
    """A fixed attribute of a piece, or the starting value of one of its
    state values: a number, yes/no, none or a word."""

    name: str = _name()
    value: Literal
    pos: Optional[Pos] = _pos()


@attrs.frozen
class Space:
    """A space of a track (``track depth { shallow: air 3, light yes … }``):
    its name, one of the track stat's words, and the data printed on it,
    read as ``depth.air`` while the track's marker is on it."""

    name: str = _name()
    props: Tuple[PieceProp, ...] = ()
    pos: Optional[Pos] = _pos()


@attrs.frozen
class Piece:
    name: str = _text()
    props: Tuple[PieceProp, ...] = ()
    pos: Optional[Pos] = _pos()


@attrs.frozen
class PieceSet:
    """A set of pieces (``pieces workers { ... }``): each has the attributes
    on its line, and its own copy of the ``state`` values."""

    name: str = _name()
    state: Tuple["Stat", ...] = ()
    pieces: Tuple[Piece, ...] = _f("the pieces, in order", default=(), minItems=1)
    pos: Optional[Pos] = _pos()


@attrs.frozen
class Row:
    low: int = _f("lowest roll of this row", minimum=1)
    high: int = _f("highest roll of this row", minimum=1)
    label: Optional[str] = _text()
    body: Tuple[Stmt, ...]
    pos: Optional[Pos] = _pos()


@attrs.frozen
class Table:
    name: str = _name()
    sides: int = _f("sides of the die rolled on it", minimum=2)
    rows: Tuple[Row, ...]
    pos: Optional[Pos] = _pos()


@attrs.frozen
class TestDef:
    """How ``test X`` is made: ``roll d<sides> <op> X``."""

    param: str = _name()
    sides: int = _f("sides of the test die", minimum=2)
    op: str = _f("how the roll compares with the value tested", enum=["==", "!=", "<", "<=", ">", ">="])
    pos: Optional[Pos] = _pos()


@attrs.frozen
class Param:
    """A rule's parameter: ``type`` is ``number`` (the default), ``player``
    or the name of a piece set."""

    name: str = _name()
    type: str = _name(default="number")
    pos: Optional[Pos] = _pos()


@attrs.frozen
class Rule:
    name: str = _name()
    body: Tuple[Stmt, ...]
    params: Tuple[Param, ...] = ()
    pos: Optional[Pos] = _pos()


@attrs.frozen
class Option:
    name: str = _name()
    prompt: Optional[str] = _text()
    choices: Tuple[Choice, ...]
    pos: Optional[Pos] = _pos()


@attrs.frozen
class Phase:
    name: str = _name()
    body: Tuple[Stmt, ...]
    pos: Optional[Pos] = _pos()


@attrs.frozen
class Turn:
    """One player's turn: its phases in order.  Turns go clockwise from
    ``first`` (a player-valued expression); a player takes a turn only when
    ``when`` holds for them."""

    first: Optional[Expr]
    when: Optional[Expr]
    phases: Tuple[Phase, ...]
    pos: Optional[Pos] = _pos()


@attrs.frozen
class Trigger:
    """``whenever cond { ... }``: runs when a change makes ``cond`` true for
    the player whose stat changed."""

    cond: Expr
    body: Tuple[Stmt, ...]
    pos: Optional[Pos] = _pos()


@attrs.frozen
class DrawTrigger:
    """``on draw from DECK as c where COND { ... }``: runs at once, for the
    player in scope of the draw, each time a card meeting ``cond`` is drawn
    from the deck; the draw then goes on."""

    deck: str = _name()
    var: str = _name()
    cond: Optional[Expr]
    body: Tuple[Stmt, ...]
    pos: Optional[Pos] = _pos()


@attrs.frozen
class Reroll:
    """After any die rolled during a turn, while ``cond`` holds, the turn's
    player may roll it again; ``cost`` runs for each reroll."""

    cond: Expr
    cost: Tuple[Stmt, ...]
    pos: Optional[Pos] = _pos()


@attrs.frozen
class Ending:
    name: str = _text()
    cond: Expr
    pos: Optional[Pos] = _pos()


@attrs.frozen
class ScoreItem:
    points: Expr
    cond: Optional[Expr] = None
    pos: Optional[Pos] = _pos()


@attrs.frozen
class Ruleset:
    title: str = _text("the game's name")
    min_players: int = _f("fewest players", minimum=1)
    max_players: int = _f("most players", minimum=1)
    stats: Tuple[Stat, ...] = ()
    consts: Tuple[Const, ...] = ()
    decks: Tuple[Deck, ...] = ()
    piles: Tuple[Pile, ...] = ()
    pieces: Tuple[PieceSet, ...] = ()
    tables: Tuple[Table, ...] = ()
    test: Optional[TestDef] = None
    rules: Tuple[Rule, ...] = ()
    options: Tuple[Option, ...] = ()
    setup: Tuple[Stmt, ...] = ()
    turn: Optional[Turn] = None
    triggers: Tuple[Trigger, ...] = ()
    draw_triggers: Tuple[DrawTrigger, ...] = ()
    reroll: Optional[Reroll] = None
    endings: Tuple[Ending, ...] = ()
    score: Tuple[ScoreItem, ...] = ()
    winner: str = _f("whether the highest or the lowest score wins", default="highest",
                     enum=["highest", "lowest"])
    filename: str = attrs.field(default="<string>", eq=False, repr=False)
    source: str = attrs.field(default="", eq=False, repr=False)
    pos: Optional[Pos] = _pos()
    players_pos: Optional[Pos] = _pos()
