"""The IR's nodes of rules: expressions and statements, as frozen attrs
classes (the declarations that hold them are in ``declarations``).

One class per construct of the language.  Every node keeps the source position it came
from in ``pos``; positions are excluded from equality so that two files that differ only
in layout give equal IRs.  Lists are stored as tuples so nodes stay hashable and immutable.

The IR is the contract between the stages: the parser produces it, the checker reads it,
the compiler turns it into runnable code, and ``serialize`` turns it into JSON/YAML and back.
"""

from __future__ import annotations

from typing import Optional, Tuple, Union

import attrs

from .fields import Pos, node_methods
from .fields import meta_field as _f
from .fields import name_field as _name
from .fields import pos_field as _pos
from .fields import text_field as _text


# ---------------------------------------------------------------- expressions


@attrs.frozen(repr=False, eq=False)
class Num:
    value: int
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class Bool:
    value: bool
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class NoneLit:
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class Name:
    """A bare name: a local, a stat of the player in scope, a global, a
    constant or an enum value.  The checker decides which."""

    name: str = _name()
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class Attr:
    """``rival.position``: a stat of the player held in a local."""

    obj: str = _name()
    name: str = _name()
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class BinOp:
    op: str = _f("arithmetic (/ floors) or logic", enum=["+", "-", "*", "/", "%", "and", "or"])
    left: "Expr"
    right: "Expr"
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class Compare:
    op: str = _f("comparison ('is' is ==, 'is not' is !=)", enum=["==", "!=", "<", "<=", ">", ">="])
    left: "Expr"
    right: "Expr"
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class Not:
    operand: "Expr"
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class Neg:
    operand: "Expr"
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class RuleValue:
    """``total(hand)``: the value the rule gives (``give``), worked out
    before the statement that uses it, as a roll is."""

    rule: str = _name("the rule")
    args: Tuple["Expr", ...] = _f("the values it is given", default=())
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class SeatOf:
    """``seat of P``: the number of the seat a player value holds (0 for
    the first seat), to count or compare with."""

    player: "Expr"
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class PlayerAfter:
    """``player after P``: the next player clockwise from P (the first seat
    after the last), as a start marker passes round the table."""

    player: "Expr"
    cond: Optional["Expr"] = _f("the next one who meets it (P last; none if nobody)", default=None)
    pos: Optional[Pos] = _pos()


#: The built-in functions; any other name called with brackets in a value
#: is a rule that gives one (``RuleValue``).
FUNCTIONS = ("min", "max", "abs")


@attrs.frozen(repr=False, eq=False)
class CallFn:
    """A built-in function: min, max, abs."""

    func: str = _f("the function", enum=list(FUNCTIONS))
    args: Tuple["Expr", ...] = _f("its arguments")
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class IfExpr:
    """``if cond then a else b``: a value chosen by a condition."""

    cond: "Expr"
    then: "Expr"
    orelse: "Expr"
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class Roll:
    """``roll d10`` or ``roll 2d6`` (the sum): a chance node."""

    count: int = _f("how many dice", minimum=1)
    sides: int = _f("sides of each die", minimum=2)
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class RollOff:
    """``roll off d10``: every player rolls, the tied highest roll again;
    the value is the winning player."""

    sides: int = _f("sides of the die", minimum=2)
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class ThisPlayer:
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class Round:
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class TestResult:
    """``passed``, ``failed`` or ``margin`` of the most recent test made
    during the current turn (reset at each turn's start)."""

    what: str = _f("which result", enum=["passed", "failed", "margin"])
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class PileRef:
    """A pile, and for a per-player pile the player who owns it (a local);
    without an owner it is the pile of the player in scope."""

    name: str = _name()
    owner: Optional[str] = _name(default=None)
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class CountCards:
    """``count of Trek in hand``."""

    card: str = _text()
    pile: PileRef
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class PileSize:
    pile: PileRef
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class SumCards:
    """``sum of move in hand``: a card property added over a pile."""

    prop: str = _name()
    pile: PileRef
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class PlayerQuery:
    """``count players where ...``, ``no players where ...``,
    ``any players where ...``; inside ``cond`` the player looked at is the
    player in scope.  ``other`` leaves out the current player."""

    quantifier: str = _f("count them, or ask whether none or any match",
                         enum=["count", "none", "any"])
    other: bool
    cond: Optional["Expr"]
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class Extreme:
    """``highest time among players``, ``sum of gold among other players where …``."""

    which: str = _f("highest, lowest or sum (0 with nobody)", enum=["highest", "lowest", "sum"])
    value: "Expr"
    other: bool
    cond: Optional["Expr"] = _f("which players are looked at (each in scope)", default=None)
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class Pool:
    """``roll 5 dice d6``: a pool of dice kept apart (a list of faces), so
    that its successes and failures can be counted."""

    count: "Expr"
    sides: int = _f("sides of each die", minimum=2)
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class PoolCount:
    """``count of throw >= 4``: how many dice of a pool (a local, or a stat
    holding dice: ``count of p.cup == 6``) compare so with a value."""

    pool: Union[Name, Attr]
    op: str = _f("how each die compares", enum=["==", "!=", "<", "<=", ">", ">="])
    value: "Expr" = _f("the value compared with")
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class NoDice:
    """``no dice``: an empty pool, to gather dice into (``held = held + throw``)."""

    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class PieceQuery:
    """``count workers where side is fresh``, ``none of workers where ...``,
    ``any of workers where ...``; inside ``cond`` the piece looked at is in
    scope (its attributes and state are bare names)."""

    quantifier: str = _f("count them, or ask whether none or any match",
                         enum=["count", "none", "any"])
    pieces: str = _name("the piece set")
    cond: Optional["Expr"] = None
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class PieceExtreme:
    """``lowest skill among workers where group == 1``."""

    which: str = _f("highest or lowest", enum=["highest", "lowest"])
    value: "Expr" = _f("the value compared, with each piece in scope")
    pieces: str = _name("the piece set")
    cond: Optional["Expr"] = None
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class Neighbour:
    """``neighbour north of s``: the space one link from ``space`` (or none)."""

    direction: str = _name("the direction of the link")
    space: str = _name("the name holding the space")
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class FieldOf:
    """``fish of v.at``: a value of the piece or space ``of`` gives."""

    field: str = _name("the value read")
    of: "Expr" = _f("what gives the piece or space")
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class Farthest:
    """``farthest south of s where mark is none``: the last space reached."""

    direction: str = _name("the direction of the steps")
    space: str = _name("the name holding the space started from")
    cond: "Expr" = _f("what each space stepped onto meets")
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class Connected:
    """``connected from s where mark is this player reaches x is 11``: does
    the group grown from ``space`` through ``cond`` hold a ``goal``?"""

    space: str = _name("the name holding the space started from")
    cond: "Expr" = _f("what every space of the group meets")
    goal: "Expr" = _f("what a space of the group must meet")
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class Distance:
    """``distance from v to z along north, south through placed``: the
    fewest links (none when there is no way)."""

    start: str = _name("the name holding the space started from")
    to: Optional[str] = _name("the space reached (none: the one a where looks at)", default=None)
    along: Tuple[str, ...] = _f("the directions it may step in (all, when empty)", default=())
    through: Optional["Expr"] = _f("what every space stepped onto meets", default=None)
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class InARow:
    """``3 in a row through s where mark is this player``: whether a line of
    ``count`` spaces or more along a direction and its opposite passes
    through ``space``, every space of it meeting ``cond``."""

    count: "Expr" = _f("how many spaces in a row")
    space: str = _name("the name holding the space")
    cond: "Expr" = _f("what every space of the line meets")
    pos: Optional[Pos] = _pos()


Expr = Union[
    Num, Bool, NoneLit, Name, Attr, BinOp, Compare, Not, Neg, SeatOf, PlayerAfter, RuleValue, CallFn, Roll,
    RollOff, ThisPlayer, Round, TestResult, CountCards, PileSize, SumCards,
    PlayerQuery, Extreme, Pool, PoolCount, PieceQuery, PieceExtreme, IfExpr,
    NoDice, FieldOf, Neighbour, Farthest, Connected, Distance, InARow,
]

#: What a card, a piece or a track's space prints: a number, yes/no, none or a word (a name).
Literal = Union[Num, Bool, NoneLit, Name]
#: A stat's bound: a number or the name of a constant.
Bound = Union[Num, Name]

# ---------------------------------------------------------------- statements


@attrs.frozen(repr=False, eq=False)
class Assign:
    target: Union[Name, Attr]
    op: str = _f("set, add or subtract", enum=["=", "+=", "-="])
    value: Expr
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class Let:
    name: str = _name()
    value: Expr
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class If:
    cond: Expr
    then: Tuple["Stmt", ...]
    orelse: Tuple["Stmt", ...] = ()
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class Repeat:
    times: Expr
    body: Tuple["Stmt", ...]
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class While:
    cond: Expr
    body: Tuple["Stmt", ...]
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class Stop:
    """Leave the innermost ``repeat`` or ``while``."""

    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class ForEachPlayer:
    """Runs ``body`` once per player in turn order.  Without ``var`` the
    loop's player becomes the player in scope; with ``var`` it is bound to
    that name and the player in scope stays."""

    var: Optional[str] = _name()
    other: bool
    cond: Optional[Expr]
    body: Tuple["Stmt", ...]
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class ForPlayer:
    """``for P { … }``: ``body`` with P's player in scope (none: skipped); not a loop."""

    player: Expr
    body: Tuple["Stmt", ...]
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class ForEachPiece:
    """Runs ``body`` once for each piece of a set (in the order declared)
    that meets ``cond``, the piece bound to ``var``."""

    pieces: str = _name()
    var: str = _name()
    cond: Optional[Expr]
    body: Tuple["Stmt", ...]
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class ChoosePiece:
    """The player in scope picks one piece of a set that meets ``cond``;
    it is bound to ``var``.  With no piece to pick, ``var`` is none."""

    pieces: str = _name()
    var: str = _name()
    cond: Optional[Expr] = None
    prompt: Optional[str] = _text(default=None)
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class ChooseCard:
    """The player in scope picks one card of a pile that meets ``cond`` (the
    card in scope: its properties are bare names); ``var`` holds it, or
    none, without a decision, when no card meets it."""

    pile: PileRef
    var: str = _name()
    cond: Optional[Expr] = None
    prompt: Optional[str] = _text(default=None)
    secret: bool = _f("made secretly: only the chooser learns which (``secretly``)",
                      default=False)
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class ForEachCard:
    """Runs ``body`` once for each card that is in the pile when the loop
    starts and meets ``cond``, the card bound to ``var``."""

    pile: PileRef
    var: str = _name()
    cond: Optional[Expr]
    body: Tuple["Stmt", ...]
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class MoveCard:
    """``move card "The Ship Sinks" from events to main``: one copy of a
    named card (it must be there)."""

    card: str = _text()
    source: PileRef
    dest: PileRef
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class Spend:
    """``spend 2 dice >= 4 from held``: take up to ``count`` dice that compare
    so with ``value`` out of a pool (a local), those nearest the value
    first, so the dice left are the most useful ones."""

    count: "Expr"
    op: str = _f("how each die compares", enum=["==", "!=", "<", "<=", ">", ">="])
    value: "Expr" = _f("the value compared with")
    pool: str = _name("the local holding the pool")
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class RollOn:
    table: str = _name()
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class Test:
    """``test skill``: a test as declared by the ruleset's ``test``."""

    target: Expr
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class Draw:
    count: Expr
    source: PileRef
    dest: PileRef
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class MoveAll:
    source: PileRef
    dest: PileRef
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class MoveCards:
    """Moves the cards held in a local (from a ``choose``)."""

    cards: str = _name()
    source: PileRef
    dest: PileRef
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class ChooseCards:
    """The player in scope picks ``low``..``high`` cards from a pile."""

    low: Expr
    high: Expr
    pile: PileRef
    var: str = _name()
    prompt: Optional[str] = _text(default=None)
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class Choice:
    """One labelled alternative of ``choose one`` (or of an option).  With
    ``cond`` (``"Fetch" if any of supplies where …:``) it is offered only
    while the condition holds."""

    label: str = _text()
    body: Tuple["Stmt", ...]
    cond: Optional["Expr"] = None
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class ChooseOne:
    prompt: Optional[str] = _text()
    choices: Tuple[Choice, ...]
    secret: bool = _f("made secretly: only the chooser learns which (``secretly``)",
                      default=False)
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class ChooseOption:
    """Applies a setup option: taken from ``new_game(options=...)`` when
    given there, otherwise asked of the player in scope."""

    option: str = _name()
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class ChooseRow:
    """The player in scope picks one of rows ``low``..``high`` of a table
    and it is applied as if rolled."""

    table: str = _name()
    low: int
    high: int
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class May:
    """``may "prompt" { … } else { … }``: a yes/no decision."""

    prompt: str = _text()
    body: Tuple["Stmt", ...]
    orelse: Tuple["Stmt", ...] = ()
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class PickPiece:
    """``pick one workers at random as w where …``: a chance draw of one of
    the pieces meeting ``cond`` (none, without a draw, when nothing does)."""

    pieces: str = _name()
    var: str = _name()
    cond: Optional["Expr"] = None
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class ChooseNumber:
    """``choose a number from 0 to dogs as extra "Extra dice"``: the player in
    scope picks a whole number in the range (none offered: ``low`` is taken)."""

    low: "Expr"
    high: "Expr"
    var: str = _name()
    prompt: Optional[str] = _text(default=None)
    secret: bool = _f("made secretly: only the chooser learns which (``secretly``)",
                      default=False)
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class Skip:
    phase: str = _name()
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class EndTurn:
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class EndGame:
    ending: str = _text()
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class Log:
    """``log "…"``: a line for the game log; ``{name}`` or ``{w.field}`` in
    the text is replaced by that value (see ``log_parts``)."""

    text: str = _text()
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class Call:
    """Run a rule; ``args`` give its parameters their values."""

    rule: str = _name()
    args: Tuple["Expr", ...] = ()
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class Reveal:
    """``reveal cup`` / ``reveal p.cup``: a hidden or secret stat's value
    shown to everyone, in the log and in every view, until it next changes."""

    target: Union[Name, Attr]
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class Give:
    """``give EXPR``: the rule ends here, and the call that asked for its
    value (``RuleValue``) gets EXPR."""

    value: "Expr"
    pos: Optional[Pos] = _pos()


Stmt = Union[
    Assign, Let, If, Repeat, While, Stop, ForEachPlayer, RollOn, Test, Draw, MoveAll, MoveCards, ChooseCards,
    ChooseOne, ChooseOption, ChooseRow, May, Skip, EndTurn, EndGame, Log, Call, ForEachPiece, ChoosePiece,
    ChooseCard, ForEachCard, MoveCard, Spend, PickPiece, ChooseNumber, Give, Reveal, ForPlayer,
]


# Each class above is ``attrs.frozen(repr=False, eq=False)``: its equality,
# hash and repr are those attrs writes, made without compiling source or
# when first asked for (``fields.node_methods``).
node_methods(globals())
