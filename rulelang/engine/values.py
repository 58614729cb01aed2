"""Rules that only work out a value (``check.purity``), as Python functions
called inline.

Another rule's value is worked out before the statement that asks for it,
by an op of its own (``lower.Ctx.hoist``), because it may roll or ask a
player.  A rule that does neither can be asked for anywhere a value can (a
'where', a choice's condition, a 'whenever', an ending, the score) and is
simply called: ``ValueRule`` writes its body once as one Python function
(``give`` is its ``return``), with a frame of its own holding its values
and lets, and generated code calls it where the value is needed.  It pays
for its work as it starts, and its loops for each pass, as any code does.
"""

from __future__ import annotations

import ast
import re
import types
from typing import Any, Callable, Dict, List, Optional

from .. import ir
from ..errors import RulesetError
from . import codegen
from . import ops as O
from .kinds import Prog, Where
from .lower import Ctx
from .source import Source
from .statements import PureBlock

#: The work of asking for a rule's value, besides its statements (a call).
CALL = 10


class ValueBlock(PureBlock):
    """A pure rule's body as lines of Python: ``give X`` returns X."""

    def stmt(self, s: ir.Stmt, depth: int) -> None:
        if isinstance(s, ir.Give):
            self.mark(s, depth)
            self.line(depth, f"return {self.source.src(s.value)}")
        else:
            super().stmt(s, depth)


class ValueRule:
    """Rule ``rule`` as ``call(st, player, *values) -> its value``, written
    the first time it is called (a pure rule may ask for another's value;
    each is written when first needed, so the order does not matter)."""

    __slots__ = ("prog", "rule", "fn", "nlocals", "lines", "wheres", "rewrite", "extra", "env",
                 "call")

    def __init__(self, prog: Prog, rule: ir.Rule) -> None:
        self.prog, self.rule = prog, rule
        self.fn: Optional[Callable[..., Any]] = None
        self.nlocals = 0
        #: the body's lines and the places their comments name, once written
        self.lines: List[str] = []
        self.wheres: List[Where] = []
        #: for a tool that watches the rule (``testing.coverage``): what
        #: rewrites the body's lines, and what more the lines may name
        self.rewrite: Optional[Callable[[List[str]], List[str]]] = None
        self.extra: Dict[str, Any] = {}
        #: What generated code calls: ``call(st, player, *values)``, one
        #: plain function (no hop through this object): until the body is
        #: written it writes it, then it takes the body's code as its own.
        self.env: Dict[str, Any] = {"_rule": self}
        self.call: Callable[..., Any] = types.FunctionType(_first_call.__code__, self.env,
                                           "value_of_" + codegen.function_name(rule.name))

    def __call__(self, st: Any, player: Optional[int], *values: Any) -> Any:
        fn = self.fn if self.fn is not None else self.make()
        return fn(st, player, *values)

    def make(self) -> Callable[..., Any]:
        prog, rule = self.prog, self.rule
        ctx = Ctx(prog, None, f"rule {rule.name}")
        ctx.params(rule)
        runaway = Source(ctx).const(O.RUNAWAY)
        lines = self.lines = ValueBlock(ctx).lines_of(rule.body)
        self.wheres = ctx.wheres
        if self.rewrite is not None:
            lines = self.rewrite(lines)
        self.nlocals = ctx.nlocals - len(rule.params)
        cost = CALL + prog.work.stmts(rule.body)
        name = "value_of_" + codegen.function_name(rule.name)
        # (the frame: [code, pc, the player, the values given, the lets])
        args = "".join(f", _a{i}" for i in range(len(rule.params)))
        frame = f"    fr = [-1, 0, _p{args}{', None' * self.nlocals}]\n"
        lines = _arguments_read(lines, len(rule.params))
        if not any(_FRAME.search(line) for line in lines):
            frame = ""
        text = (f"def {name}(st, _p{args}):\n"
                + frame +
                f"    _lim = st.limits.max_steps\n"
                f"    st.steps += {cost}\n"
                f"    if st.steps > _lim:\n"
                f"        raise RuleFault({runaway} % _lim)\n"
                f"    try:\n"
                + "\n".join("        " + line for line in lines) +
                f"\n        raise RuleFault('rule {codegen.function_name(rule.name)} gave no value')\n"
                f"    except (RulesetError, PureFault):\n        raise\n"
                f"    except Exception as e:\n        {codegen.FAULT}\n")
        env = self.env
        env.update(prog.gen_env)
        env.update({"RulesetError": RulesetError, "_W": ctx.wheres,
                    "_L": codegen.line_table(text), **self.extra})
        filename = codegen.register(prog, f"value of rule {rule.name}", text)
        exec(compile(text, filename, "exec"), env)
        fn = self.fn = env[name]
        self.call.__code__ = fn.__code__
        return fn


#: The frame named in generated code, and one of its places read or set.
_FRAME = re.compile(r"\bfr\b")
_PLACE = re.compile(r"\bfr\[(\d+)\]")


def _arguments_read(lines: List[str], nparams: int) -> List[str]:
    """``lines`` reading the player in scope and the values given from the
    function's arguments (``_p``, ``_a0`` …), not from its frame, when no
    line sets them (found in the syntax tree, not guessed from the text):
    the frame is then often not needed at all."""
    names = {O.PLAYER: "_p", **{O.PLAYER + 1 + i: f"_a{i}" for i in range(nparams)}}
    tree = ast.parse("def f():\n" + "\n".join("    " + line for line in lines) + "\n    pass\n")
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) \
                and node.value.id == "fr" and not isinstance(node.ctx, ast.Load) \
                and not (isinstance(node.slice, ast.Constant) and node.slice.value not in names):
            return lines        # (a place of the frame set that may be an argument's)

    def named(m: re.Match[str]) -> str:
        return names.get(int(m.group(1)), m.group(0))
    return [_PLACE.sub(named, line) for line in lines]


def _first_call(st: Any, player: Optional[int], *values: Any) -> Any:
    """A pure rule's ``call`` before its body is written (its globals hold
    the ``ValueRule`` as ``_rule``)."""
    return _rule.make()(st, player, *values)  # type: ignore[name-defined]  # noqa: F821
