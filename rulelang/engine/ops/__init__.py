"""The instructions of the rule machine (``base`` says what they share).

A compiled rule is a list of ops.  The machine's state is plain data: a
stack of frames ``[code_id, pc, player, local0, local1, ...]`` plus the
game's values, piles and random generator.  An op's ``run(st, fr)`` does
its work and returns True to go on, or False when the game must wait for a
decision or a chance outcome; the op at the top frame's pc then answers
``moves(st, fr)`` and takes the chosen move in ``resume(st, fr, data)``.
An op that generated code writes out has, beside its ``run``, its
``emit(r, k)``: the Python it stands for (``codegen``).
"""

from .base import (CALL, CARD, CODE, DIE, FEW_CARDS, FEW_IDLE, FRAME, LOCALS, LOG,
                  LOG_CHARACTERS, M64, NO_BLOCK, ONE_BY_ONE, PC, PLAYER, POOL_DIE, ROLL_OFF_DIE,
                  RUNAWAY, SHOWN, TURN, WAIT_CHANCE, WAIT_DECISION, WAIT_NONE, Op, Policy,
                  PureFault, PureOp, RuleFault, _At, draw_label, draw_work, fault, logged,
                  rand_below, random_block, roll_label, spend, take_cards)
from .chance import DrawOp, PoolOp, RollOffOp, RollOp, cards_distinct
from .choices import (ChooseCardsOp, ChooseNumberOp, ChooseOneOfOp, ChooseOneOp, ChooseRowOp,
                      MayOp, PickPieceOp)
from .control import (CallOp, ClearOp, CounterOp, DispatchOp, EndGameOp, EndTurnOp,
                      ForEachCardOp, ForEachOp, ForEachPieceOp, GiveOp, Jump, JumpUnless, NextTurnOp,
                      NoTurnOp, PhaseOp, TriggerAssign)

__all__ = [
    "CALL", "CARD", "CODE", "DIE", "FEW_CARDS", "FEW_IDLE", "FRAME", "LOCALS", "LOG",
    "LOG_CHARACTERS", "M64", "NO_BLOCK", "ONE_BY_ONE", "PC", "PLAYER", "POOL_DIE",
    "ROLL_OFF_DIE", "RUNAWAY", "SHOWN", "TURN", "WAIT_CHANCE", "WAIT_DECISION", "WAIT_NONE",
    "Op", "Policy", "PureFault", "PureOp", "RuleFault", "_At", "draw_label", "draw_work",
    "fault", "logged", "rand_below", "random_block", "roll_label", "spend", "take_cards", "DrawOp", "PoolOp",
    "RollOffOp", "RollOp", "cards_distinct", "ChooseCardsOp", "ChooseNumberOp", "ChooseOneOfOp", "ChooseOneOp",
    "ChooseRowOp", "MayOp", "PickPieceOp", "CallOp", "ClearOp", "CounterOp", "DispatchOp",
    "EndGameOp", "EndTurnOp", "ForEachCardOp", "ForEachOp", "ForEachPieceOp", "GiveOp", "Jump",
    "JumpUnless", "NextTurnOp", "NoTurnOp", "PhaseOp", "TriggerAssign",
]
