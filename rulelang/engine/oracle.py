"""The reference interpreter: every rule run one op at a time by the ops'
own ``run`` methods, the test oracle the generated code must agree with
(``tests/test_codegen.py``, ``tests/test_work_limits.py``;
``rulelang.testing.op_by_op`` is this one)."""

from __future__ import annotations

from ..errors import RulesetError
from .kinds import Frame, St
from .program import compile_ruleset
from .ops import CODE, PC, RUNAWAY, PureFault, RuleFault
from .game import Game


def op_by_op(game: Game) -> Game:
    """The same game with every rule run one op at a time by the ops' own
    ``run`` methods, instead of by the Python the engine generates from
    them (``rulelang.engine.codegen``): the reference that generated code
    must agree with, move for move (``tests/test_codegen.py``)."""
    prog = compile_ruleset(game.ruleset, game.prog.limits)
    prog.runners[:] = [_run_op_by_op] * len(prog.codes)
    return Game(prog, game.limits)


def _run_op_by_op(st: St, fr: Frame) -> bool:
    """A frame's code, op by op: False when it waits, True when the stack
    changed (as a generated function answers ``State._run``)."""
    code = st.prog.codes[fr[CODE]]
    while True:
        pc = fr[PC]
        if pc >= len(code):
            st.stack.pop()
            return True
        op = code[pc]
        try:
            go = op.run(st, fr)
            st.steps += 1
            if st.steps > st.limits.max_steps:
                raise RuleFault(RUNAWAY % st.limits.max_steps)
        except (RulesetError, PureFault):
            raise
        except Exception as e:
            raise PureFault(op.where, e) from e
        if not go:
            return False
        if not st.stack or st.stack[-1] is not fr:
            return True
