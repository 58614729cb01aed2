"""The IR's declarations: what a ruleset declares (stats, constants, decks,
piles, pieces, tables, rules, options, the turn, triggers, endings, the
score) and the ``Ruleset`` that holds them all, as frozen attrs classes."""

from __future__ import annotations

from typing import Dict, List, Mapping, Optional, Set, Tuple, Union

import attrs

from .fields import Pos
from .fields import meta_field as _f
from .fields import name_field as _name
from .fields import pos_field as _pos
from .fields import node_methods
from .fields import text_field as _text
from .nodes import Bound, Choice, Expr, Literal, Num, Stmt


@attrs.frozen(repr=False, eq=False)
class Stat:
    """A named value.  ``scope`` is ``player`` (one per player), ``global``
    or ``turn`` (one per player, reset from ``initial`` at each turn's
    start).  ``values`` lists the allowed words of an enum stat.  ``sight``
    hides it: ``hidden`` (seen by its owner only), ``secret`` (by nobody),
    until a ``reveal`` shows its value to all (``Reveal``).  ``holds``: it
    holds a piece of that set, or a space of that board (``at one of
    zones``: where a ship is)."""

    name: str = _name()
    scope: str = _f("one per player, one in all, one per player reset each turn, "
                    "one per piece of a set, or an actor's own", enum=["player", "global", "turn",
                                                                      "piece", "actor"])
    initial: Expr
    min: Optional[Bound] = None
    max: Optional[Bound] = None
    values: Optional[Tuple[str, ...]] = _name(default=None)
    spaces: Optional[Tuple["Space", ...]] = None
    sight: Optional[str] = _f("who sees it: everyone (null), its owner only (hidden) or nobody "
                              "until it is revealed (secret)", enum=["hidden", "secret"],
                              default=None)
    holds: Optional[str] = _name("the piece set or board one of whose pieces or spaces it holds "
                                 "(none at first): 'at one of zones'", default=None)
    scale: Optional[Tuple["ScaleRow", ...]] = _f(
        "the data printed beside the values of a number stat, a row for each value from its min "
        "to its max, read as 'capacity of porters'", default=None, minItems=1)
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class ScaleRow:
    """A row of a stat's scale (``porters 8 min 0 max 10 { 3..4: capacity
    10 … }``): the data printed beside the values ``low`` to ``high`` of the
    stat, read as ``capacity of porters`` while the stat holds one of them."""

    low: int = _f("the lowest value of the stat the row is for")
    high: int = _f("the highest value of the stat the row is for")
    props: Tuple["PieceProp", ...] = _f("what is printed beside those values", minItems=1)
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class Const:
    name: str = _name()
    value: Expr
    pos: Optional[Pos] = _pos()


#: The kinds of value a rule may give (``Rule.gives``).
GIVES = ("number", "yes/no", "player", "word", "card")


@attrs.frozen(repr=False, eq=False)
class GameParam:
    """``param target 50 from 10 to 1000 "Points to win"``: a constant whose
    value is picked when a game is made (``new_game(params=...)``), from
    ``low`` to ``high``; ``default`` when none is picked."""

    name: str = _name()
    default: int = _f("the value when none is picked")
    low: int = _f("the lowest value it may be given")
    high: int = _f("the highest value it may be given")
    title: Optional[str] = _text("what it is, for a person", default=None)
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class Prop:
    """A card's property: a number, yes/no, none or a word."""

    name: str = _name()
    value: Literal
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class Presence:
    """When a component is in the game at all: while the parameter
    ``param`` is at least ``at_least`` and at most ``at_most``.  A line
    generated over a range a parameter bounds (``"Pawn {n}" for n from 1 to
    pawns``) stands for components enough for the parameter's widest
    value; each of them past its narrowest carries one of these."""

    param: str = _name()
    at_least: Optional[int] = _f("the parameter's lowest value with this component", default=None)
    at_most: Optional[int] = _f("the parameter's highest value with this component", default=None)


@attrs.frozen(repr=False, eq=False)
class Card:
    """A card of a deck: ``count`` copies, or as many as the constant or
    parameter ``count_of`` says (``Wolf x(wolves)``); none while a
    ``present`` condition fails."""

    name: str = _text()
    count: int = _f("copies of this card in the deck (unless count_of names how many)",
                    minimum=1)
    props: Tuple[Prop, ...] = ()
    count_of: Optional[str] = _name("a constant or parameter whose value is the number of "
                                    "copies", default=None)
    present: Tuple[Presence, ...] = _f("the parameter values the card is in the game for "
                                       "(all of them when empty)", default=())
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class Deck:
    """A shuffled deck: the cards it starts with, and the pile shuffled back
    into it when a draw finds it empty.  ``per_player``: every player starts
    with a deck of these cards of their own (``deck draw per player``)."""

    name: str = _name()
    cards: Tuple[Card, ...] = _f("the cards it starts with", minItems=1)
    refill_from: Optional[str] = _name(default=None)
    per_player: bool = _f("each player has a deck of these cards of their own (refilled from "
                          "their own pile)", default=False)
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class Pile:
    name: str = _name()
    per_player: bool = False
    hidden: bool = False
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class PieceProp:
    """A fixed attribute of a piece, or the starting value of one of its
    state values: a number, yes/no, none or a word."""

    name: str = _name()
    value: Literal
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class Space:
    """A space of a track (``track depth { shallow: air 3, light yes … }``):
    its name, one of the track stat's words, and the data printed on it,
    read as ``depth.air`` while the track's marker is on it."""

    name: str = _name()
    props: Tuple[PieceProp, ...] = ()
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class Piece:
    name: str = _text()
    props: Tuple[PieceProp, ...] = ()
    present: Tuple[Presence, ...] = _f("the parameter values the piece is in the game for "
                                       "(all of them when empty)", default=())
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class Link:
    """One way from space ``frm`` of a board to space ``to``, in the
    direction ``direction`` (``north``)."""

    frm: str = _text("the space it leaves")
    to: str = _text("the space it reaches")
    direction: str = _name("its direction")


@attrs.frozen(repr=False, eq=False)
class PieceSet:
    """A set of pieces (``pieces workers { ... }``): each has the attributes
    on its line, and its own copy of the ``state`` values.  A board is a
    set of spaces with ``links`` between them (``board cells grid 3 wide
    3 high``, expanded by the parser into its spaces and links)."""

    name: str = _name()
    state: Tuple["Stat", ...] = ()
    pieces: Tuple[Piece, ...] = _f("the pieces (a board's spaces), in order", default=(),
                                   minItems=1)
    pos: Optional[Pos] = _pos()
    links: Tuple[Link, ...] = _f("a board's links between its spaces", default=())


@attrs.frozen(repr=False, eq=False)
class Row:
    low: int = _f("lowest roll of this row", minimum=1)
    high: int = _f("highest roll of this row", minimum=1)
    label: Optional[str] = _text()
    body: Tuple[Stmt, ...]
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class Table:
    name: str = _name()
    sides: int = _f("sides of the die rolled on it", minimum=2)
    rows: Tuple[Row, ...]
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class TestDef:
    """How ``test X`` is made: ``roll d<sides> <op> X``."""

    param: str = _name()
    sides: int = _f("sides of the test die", minimum=2)
    op: str = _f("how the roll compares with the value tested", enum=["==", "!=", "<", "<=", ">", ">="])
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class Param:
    """A rule's parameter: ``type`` is ``number`` (the default), ``yes/no``,
    ``player``, ``card``, ``word`` or the name of a piece set."""

    name: str = _name()
    type: str = _text("its kind: number, yes/no, player, card, word or a piece set",
                      default="number")
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class Rule:
    name: str = _name()
    body: Tuple[Stmt, ...]
    params: Tuple[Param, ...] = ()
    pos: Optional[Pos] = _pos()
    #: What the rule gives back (``give``), for a rule used as a value.
    gives: Optional[str] = _f("the kind of value the rule gives (give), if it gives one",
                              default=None, enum=list(GIVES))


@attrs.frozen(repr=False, eq=False)
class Option:
    name: str = _name()
    prompt: Optional[str] = _text()
    choices: Tuple[Choice, ...]
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class Phase:
    name: str = _name()
    body: Tuple[Stmt, ...]
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class Turn:
    """One player's turn: its phases in order.  Turns go clockwise from
    ``first`` (a player-valued expression); a player takes a turn only when
    ``when`` holds for them.  A round is one pass round the table, or, with
    ``until``, as many passes as it takes for ``until`` to hold;
    ``each_round`` runs as every round begins (no player in scope)."""

    first: Optional[Expr]
    when: Optional[Expr]
    phases: Tuple[Phase, ...]
    until: Optional[Expr] = None
    each_round: Tuple[Stmt, ...] = ()
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class Trigger:
    """``whenever cond { ... }``: runs when a change makes ``cond`` true for
    the player whose stat changed."""

    cond: Expr
    body: Tuple[Stmt, ...]
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class DrawTrigger:
    """``on draw from DECK as c where COND { ... }``: runs at once, for the
    player in scope of the draw, each time a card meeting ``cond`` is drawn
    from the deck; the draw then goes on."""

    deck: str = _name()
    var: str = _name()
    cond: Optional[Expr]
    body: Tuple[Stmt, ...]
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class Reroll:
    """After any die rolled during a turn, while ``cond`` holds, the turn's
    player may roll it again; ``cost`` runs for each reroll."""

    cond: Expr
    cost: Tuple[Stmt, ...]
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class Ending:
    name: str = _text()
    cond: Expr
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class ScoreItem:
    points: Expr
    cond: Optional[Expr] = None
    pos: Optional[Pos] = _pos()


def constants(rs: "Ruleset") -> Tuple[Const, ...]:
    """The ruleset's constants as every stage after the parser reads them:
    each parameter first, as a constant of its value (``default``: a game
    made with other values is compiled from a ruleset that has them as
    its defaults), then the ``const`` declarations (which may use them)."""
    return tuple(Const(p.name, Num(p.default, p.pos), p.pos) for p in rs.params) + rs.consts


def present(component: Union[Card, Piece], rs: "Ruleset") -> bool:
    """Whether ``component`` is in the game made with ``rs``'s parameter
    values (its defaults): every ``present`` condition holds (the checker
    refuses one naming no parameter; such a one fails)."""
    if not component.present:
        return True
    values = {p.name: p.default for p in rs.params}
    for cond in component.present:
        v = values.get(cond.param)
        if v is None or (cond.at_least is not None and v < cond.at_least) \
                or (cond.at_most is not None and v > cond.at_most):
            return False
    return True


def directions(board: PieceSet) -> Tuple[str, ...]:
    """The directions of a board's links, in the order first used."""
    return tuple(dict.fromkeys(link.direction for link in board.links))


def branching(board: PieceSet) -> Tuple[str, ...]:
    """The directions in which some space of a board has links to two
    spaces or more (a kind of link, such as 'river', not a compass point):
    they have no one neighbour, and no rows run along them."""
    seen: Set[Tuple[str, str]] = set()
    out: Dict[str, None] = {}
    for k in board.links:
        if (k.frm, k.direction) in seen:
            out[k.direction] = None
        seen.add((k.frm, k.direction))
    return tuple(out)


def axes(board: PieceSet) -> Tuple[Tuple[str, str], ...]:
    """The lines a board's rows run along: each pair of directions whose
    links are each other's, reversed (north and south), once; directions
    that branch (``branching``) are none of them."""
    forks = set(branching(board))
    ways = {d: {(k.frm, k.to) for k in board.links if k.direction == d}
            for d in directions(board) if d not in forks}
    out: List[Tuple[str, str]] = []
    seen: Set[str] = set()
    for d, links in ways.items():
        back = {(b, a) for a, b in links}
        for e, others in ways.items():
            if e != d and d not in seen and e not in seen and others == back:
                out.append((d, e))
                seen.update((d, e))
    return tuple(out)


def pieces_of(ps: PieceSet, rs: "Ruleset") -> Tuple[Piece, ...]:
    """The pieces of ``ps`` in the game made with ``rs``'s parameter values."""
    if all(not p.present for p in ps.pieces):
        return ps.pieces
    return tuple(p for p in ps.pieces if present(p, rs))


def copies(card: Card, rs: "Ruleset") -> int:
    """How many copies of ``card`` its deck holds: its ``count``, or the
    value of the number constant or parameter ``count_of`` names (the
    checker refuses any other; 0 when it names none), and none while the
    card is not ``present``."""
    if card.present and not present(card, rs):
        return 0
    if card.count_of is None:
        return card.count
    for c in constants(rs):
        if c.name == card.count_of:
            return c.value.value if isinstance(c.value, Num) else 0
    return 0


@attrs.frozen(repr=False, eq=False)
class Actor:
    """A participant that is not a seat (a dealer, a solo game's automaton):
    its own stats and piles, read as ``dealer.total`` and ``hand of
    dealer``.  Rules act for it; it is never offered a move."""

    name: str = _name()
    stats: Tuple[Stat, ...] = ()
    piles: Tuple[Pile, ...] = ()
    pos: Optional[Pos] = _pos()


@attrs.frozen(repr=False, eq=False)
class Ruleset:
    title: str = _text("the game's name")
    min_players: int = _f("fewest players", minimum=1)
    max_players: int = _f("most players", minimum=1)
    stats: Tuple[Stat, ...] = ()
    consts: Tuple[Const, ...] = ()
    decks: Tuple[Deck, ...] = ()
    piles: Tuple[Pile, ...] = ()
    pieces: Tuple[PieceSet, ...] = _f("the piece sets and boards", default=())
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
    heuristic: Tuple[ScoreItem, ...] = _f("how well each player is doing in any state, for the "
                                          "players that look ahead (higher is better): lines "
                                          "summed as the score's are", default=())
    params: Tuple[GameParam, ...] = ()
    actors: Tuple[Actor, ...] = ()
    winner: str = _f("whether the highest or the lowest score wins", default="highest",
                     enum=["highest", "lowest"])
    winner_where: Optional[Expr] = _f("only the players meeting this (about each player) may win; "
                                      "the best score among them wins, and none when nobody "
                                      "meets it", default=None)
    filename: str = attrs.field(default="<string>", eq=False, repr=False)
    source: str = attrs.field(default="", eq=False, repr=False)
    pos: Optional[Pos] = _pos()
    players_pos: Optional[Pos] = _pos()
    min_players_of: Optional[str] = _name("a parameter whose value is the fewest players "
                                          "(then min_players is its default)", default=None)
    max_players_of: Optional[str] = _name("a parameter whose value is the most players "
                                          "(then max_players is its default)", default=None)


def with_values(rs: Ruleset, values: Mapping[str, int]) -> Ruleset:
    """``rs`` for a game made with other parameter values: each named
    parameter's default is its value, and a player range a parameter
    bounds follows it (components follow through ``present``)."""
    params = tuple(attrs.evolve(p, default=values.get(p.name, p.default)) for p in rs.params)
    new = {p.name: p.default for p in params}
    return attrs.evolve(rs, params=params,
                        min_players=new.get(rs.min_players_of or "", rs.min_players),
                        max_players=new.get(rs.max_players_of or "", rs.max_players))


# Each class above is ``attrs.frozen(repr=False, eq=False)``: its equality,
# hash and repr are those attrs writes, made without compiling source or
# when first asked for (``fields.node_methods``).
node_methods(globals())
