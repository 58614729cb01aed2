"""The intermediate representation: what a ruleset says, as frozen attrs nodes.

The IR is the contract between the stages: the parser (``rulelang.syntax``)
and the data forms produce it, the checker (``rulelang.check``) reads it,
the engine compiles it.  The package holds

    fields        Pos, and the fields that carry their facts (a name, a text,
                  a fixed word, a bound) in their metadata
    nodes         one frozen attrs class per expression and statement
    declarations  one per declaration, and the Ruleset that holds them
    walk          children (child_list), walk, deepest, names_in, and NODE_CLASSES (every
                  node class by the name a serialized node's ``kind`` gives)
    shape         the exact shape of the IR as plain data, checked fast
    serialize     IR <-> plain data (cattrs), tagged by ``kind``
    schema        the published JSON Schema, made from the same metadata

``from rulelang import ir`` then ``ir.Name``, ``ir.walk(...)``: the nodes
and the walking are here; ``rulelang.ir.serialize``, ``.shape`` and
``.schema`` are imported by name.
"""

from __future__ import annotations

from .declarations import (
    Stat, ScaleRow, Const, Prop, Card, Deck, Pile, PieceProp, Space, Piece, Link, PieceSet, Row, Table, TestDef,
    Param, GameParam, Actor, Presence, constants, copies, present, pieces_of, with_values, directions, branching, axes, GIVES, Rule, Option, Phase, Turn, Trigger, DrawTrigger, Reroll, Ending, ScoreItem, Ruleset,
)
from .fields import NAME_PATTERN, TEXT_PATTERN, Pos
from .nodes import (
    # expressions
    Num, Bool, NoneLit, Name, Attr, BinOp, Compare, Not, Neg, SeatOf, PlayerAfter, RuleValue, CallFn, IfExpr, Roll, RollOff,
    ThisPlayer, Round, TestResult, PileRef, CountCards, PileSize, SumCards, PlayerQuery, Extreme,
    Pool, PoolCount, NoDice, PieceQuery, PieceExtreme, FieldOf, Neighbour, Farthest, Connected, Distance, InARow, Expr, Literal, Bound, FUNCTIONS,
    # statements
    Assign, Let, If, Repeat, While, Stop, ForEachPlayer, ForEachPiece, ChoosePiece, ChooseCard,
    ForEachCard, MoveCard, Spend, RollOn, Test, Draw, MoveAll, MoveCards, ChooseCards, Choice,
    ChooseOne, ChooseOption, ChooseRow, May, PickPiece, ChooseNumber, Skip, EndTurn, EndGame, Log,
    Call, Give, Reveal, ForPlayer, Stmt,
)
from .text import log_parts
from .walk import NODE_CLASSES, At, child_list, children, deepest, names_in, walk

__all__ = [
    "Pos", "NAME_PATTERN", "TEXT_PATTERN", "Num", "Bool", "NoneLit", "Name", "Attr", "BinOp",
    "Compare", "Not", "Neg", "SeatOf", "PlayerAfter", "RuleValue", "FUNCTIONS", "CallFn", "IfExpr", "Roll", "RollOff", "ThisPlayer", "Round",
    "TestResult", "PileRef", "CountCards", "PileSize", "SumCards", "PlayerQuery", "Extreme",
    "Pool", "PoolCount", "NoDice", "PieceQuery", "PieceExtreme", "FieldOf", "Neighbour", "Farthest", "Connected", "Distance", "InARow", "Expr", "Literal", "Bound",
    "Assign", "Let", "If", "Repeat", "While", "Stop", "ForEachPlayer", "ForEachPiece",
    "ChoosePiece", "ChooseCard", "ForEachCard", "MoveCard", "Spend", "RollOn", "Test", "Draw",
    "MoveAll", "MoveCards", "ChooseCards", "Choice", "ChooseOne", "ChooseOption", "ChooseRow",
    "May", "PickPiece", "ChooseNumber", "Skip", "EndTurn", "EndGame", "Log", "log_parts", "Call", "Give", "Reveal",
    "ForPlayer", "Stmt", "Stat", "ScaleRow", "Const", "Prop", "Card", "Deck", "Pile", "PieceProp", "Space", "Piece", "Link",
    "PieceSet", "Row", "Table", "TestDef", "Param", "GameParam", "Actor", "Presence", "constants", "copies", "present", "pieces_of", "with_values", "directions", "branching", "axes", "GIVES", "Rule", "Option", "Phase", "Turn", "Trigger",
    "DrawTrigger", "Reroll", "Ending", "ScoreItem", "Ruleset", "NODE_CLASSES", "At", "child_list", "children",
    "deepest", "names_in", "walk",
]
