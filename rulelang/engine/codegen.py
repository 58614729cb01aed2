"""Compiled code to Python: each code (a rule, table, phase list, option)
becomes one generated function that runs its ops from the frame's pc.

The ops stay the machine's definition: every op that can wait, or that is
not worth writing out, is called as it is (``O[k].run(st, fr)``).  The
common ones (runs of plain statements, jumps, tests of conditions, loops,
calls of other rules, phases, table rows, the turn loop, and dice and draws
in sample mode) are written out inline, so a rule runs as straight Python
between its decisions instead of one method call per op; a rule it calls
runs inside its Python call.  The generated function keeps the pc in a local and
dispatches on it only where control can arrive other than by falling
through (jump targets, the op after one that can wait or call)::

    def run(st, fr):          # returns False: waiting (or over);
        pc = fr[1]            #         True: the stack changed, go on
        while True:
            if pc == 0: ...
            if pc == 4: ...   # (a jump back: count a step, continue)
            if pc >= N: st.stack.pop(); return True

Work counts against ``Limits.max_steps`` where the ops count it (see
``ops.spend``): a loop's pass at the jump back, a rule called or a turn
as it starts, each a constant worked out at compile time
(``work.Work``).  A code too big to be written out as one function
(a table of thousands of rows) runs op by op (``op_by_op``), each op's
own ``run``.  Each op and statement starts with a comment naming its
place (``at_line``: its index in the code's ``Program.code_wheres`` and its
line in the rule file); a fault is raised as ``PureFault(place, error)``,
the place found from the line Python reports (``line_table``), so the
machine names the rule file's line at no cost while nothing fails.

The source is made from the compiled program only (slot numbers, and
constants passed in the list ``C``), never from the rule file's text:
what comes from the IR enters it only as a whole number (``number``) or
an operator or function looked up in a fixed table (``operator``,
``function``).  Anything else is refused, whatever the IR holds.
"""

from __future__ import annotations

import linecache
import pathlib
import re

from ..errors import RulesetCheckError, RulesetError
from . import ops as O
from .ops import LOCALS, PC, PLAYER

#: The Python of each operator of the IR (``ir.BinOp``, ``ir.Compare``,
#: ``ir.TestDef``, and the first sign of ``+=`` / ``-=``).
_OPERATORS = {op: op for op in ("+", "-", "*", "and", "or", "==", "!=", "<", "<=", ">", ">=")}
#: The built-in functions a rule may call (``ir.CallFn``).
_FUNCTIONS = {"min": "min", "max": "max", "abs": "abs"}


def _refuse(what, value):
    return RulesetCheckError.at("<generated code>", 1, 1,
                                f"refused to write {what} {value!r} into generated code")


def operator(op) -> str:
    """The Python of an IR operator, from the fixed table (never the IR's text)."""
    found = _OPERATORS.get(op) if type(op) is str else None
    if found is None:
        raise _refuse("the operator", op)
    return found


def function(name) -> str:
    """The Python of a built-in function, from the fixed table."""
    found = _FUNCTIONS.get(name) if type(name) is str else None
    if found is None:
        raise _refuse("the function", name)
    return found


def number(value) -> str:
    """A whole number as Python source (an int, nothing else)."""
    if type(value) is not int:
        raise _refuse("the number", value)
    return str(value)


_BASE = 3   # indentation of a block inside the dispatch loop (before grouping)
_GROUP = 6  # blocks per group (see Runner.source)


def at_line(index, where):
    """The comment that starts the lines of a statement or op: ``# line N
    [index]``, ``index`` in the code's list of places (``Program.code_wheres``),
    N the rule file's line (only numbers: nothing of the file's text).  A
    fault is named from the line Python reports through ``line_table``; no
    store at run time says where the code is."""
    pos = where[1] if where else None
    return (f"# line {int(pos.line)}" if pos is not None else "#") + f" [{index}]"


_MARK = re.compile(r"\s*#(?: line \d+)? \[(\d+)\]$")


def line_table(text):
    """[index of the place of each line of generated ``text``], by line
    number: the place of the nearest ``at_line`` comment above it (the
    debug table a fault is named from, as jinja's ``debug_info``)."""
    table, at = [0], 0
    for line in text.splitlines():
        m = _MARK.match(line)
        if m:
            at = int(m.group(1))
        table.append(at)
    return table


#: How generated code names the place of a fault: the line the exception
#: passed through in this function, looked up in its ``line_table``.
_FAULT = "raise PureFault(_W[_L[e.__traceback__.tb_lineno]], e) from e"


def function_name(code_name):
    """A generated function's name, after what it runs: 'rule morale_check'
    gives ``rule_morale_check`` (names are checked at the trust boundary;
    anything else becomes '_')."""
    return re.sub(r"\W", "_", code_name, flags=re.ASCII) or "code"


def register(prog, code_name, text):
    """The file name generated source is compiled under, with the source
    put in ``linecache`` so tracebacks and debuggers show its lines (as
    attrs does for the methods it writes)."""
    filename = f"<rulelang {pathlib.PurePath(prog.filename or 'ruleset').name}: {code_name}>"
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    _REGISTERED.pop(filename, None)
    _REGISTERED[filename] = None
    while len(_REGISTERED) > _MOST_REGISTERED:     # a server loading many rulesets
        linecache.cache.pop(next(iter(_REGISTERED)), None)
        del _REGISTERED[next(iter(_REGISTERED))]
    return filename


#: The names this module put in ``linecache``, oldest first (a bounded number).
_REGISTERED: dict = {}
_MOST_REGISTERED = 2000


def _indent(lines, depth):
    pad = "    " * depth
    return [pad + line for line in lines]


def _env(gen_env):
    """The globals of a generated function: its program's ``gen_env``."""
    return {**gen_env, "RulesetError": RulesetError}


def pure_function(op):
    """A ``PureOp``'s lines as a function of their own."""
    text = ("def pure(st, fr):\n    _lim = st.limits.max_steps\n    try:\n"
            + "\n".join(_indent(op.lines, 2)) +
            "\n    except RulesetError:\n        raise\n"
            f"    except Exception as e:\n        {_FAULT}\n")
    env = _env(op.env)
    env["_W"] = op.wheres
    env["_L"] = line_table(text)
    exec(compile(text, "<rulelang statements>", "exec"), env)
    return env["pure"]


class Runner:
    """Writes the generated function of one code."""

    def __init__(self, prog, code_id):
        self.prog = prog
        self.code_id = code_id
        self.code = prog.codes[code_id]
        self.wheres = prog.code_wheres[code_id]
        self.lines = []

    # ------------------------------------------------------------ helpers

    def const(self, value):
        consts = self.prog.gen_consts
        consts.append(value)
        return f"C[{len(consts) - 1}]"

    def at(self, op):
        """The comment naming ``op``'s place (``at_line``)."""
        self.wheres.append(op.where)
        return at_line(len(self.wheres) - 1, op.where)

    def value(self, fn):
        """Source of a compiled expression (``compile.compiled``), inline."""
        return fn.src

    def emit(self, depth, *lines):
        pad = "    " * depth
        self.lines.extend(pad + line for line in lines)

    # ------------------------------------------------------------ layout

    def leaders(self):
        """The pcs control can arrive at other than by falling through."""
        code = self.code
        out = {0, len(code)}
        for k, op in enumerate(code):
            if not isinstance(op, _STRAIGHT):
                # The machine may come back to an op that waits or calls
                # (the op itself or the one after it).
                out.update((k, k + 1))
            for name in ("target", "end"):
                t = getattr(op, name, None)
                if isinstance(t, int) and not isinstance(t, bool):
                    out.add(t)
            out.update(t for t in getattr(op, "targets", ()) if isinstance(t, int))
        return out

    def source(self):
        code = self.code
        n = len(code)
        leaders = self.leaders()
        self.emit(0, f"def {function_name(self.prog.code_names[self.code_id])}(st, fr):",
                  "    pc = fr[1]",
                  "    _lim = st.limits.max_steps",
                  "    try:", "        while True:")
        # The blocks go in groups of _GROUP, each under ``if pc < (the next
        # group's first pc):``, so that coming in at a pc passes one test per
        # group before it, not one per block; control still falls through
        # from each block to the next.
        starts = sorted(x for x in leaders if x < n)
        groups = {x: (starts[i + _GROUP] if i + _GROUP < len(starts) else n)
                  for i, x in enumerate(starts) if i % _GROUP == 0}
        open_block = False     # whether control falls off the end of the block so far
        group_start, group_end = None, None
        for k, op in enumerate(code):
            if k in leaders:
                if open_block:
                    self.emit(_BASE + 1, f"pc = {k}")
                if k in groups:
                    self.close_group(group_start, group_end)
                    group_start, group_end = len(self.lines), groups[k]
                self.emit(_BASE, f"if pc == {k}:")
            emitter = _EMITTERS.get(type(op))
            if emitter is None or not emitter(self, k, op):
                self.fallback(k, op)
            open_block = isinstance(op, _STRAIGHT)
        if open_block:
            self.emit(_BASE + 1, f"pc = {n}")
        self.close_group(group_start, group_end)
        self.emit(_BASE, f"if pc >= {n}:", "    st.stack.pop()", "    return True",
                  f"raise AssertionError('no code at %d in {self.code_id}' % pc)")
        self.emit(1, "except (RulesetError, PureFault):", "    raise   # from a rule called here",
                  "except Exception as e:", f"    {_FAULT}")
        return "\n".join(self.lines) + "\n"

    def close_group(self, start, end):
        """Put the lines written since ``start`` under ``if pc < end:``."""
        if start is None:
            return
        body = ["    " + line for line in self.lines[start:]]
        self.lines[start:] = ["    " * _BASE + f"if pc < {end}:"] + body

    def function(self):
        text = self.source()
        env = _env(self.prog.gen_env)
        env["O"] = self.code
        env["R"] = self.prog.runners
        if not self.wheres:         # (a fault before any op: the code's own place)
            self.wheres.append((self.prog.code_names[self.code_id], self.prog.code_pos[self.code_id]))
        env["_W"] = self.wheres
        env["_L"] = line_table(text)
        name = self.prog.code_names[self.code_id]
        exec(compile(text, register(self.prog, name, text), "exec"), env)
        return env[function_name(name)]

    # ------------------------------------------------------------ ops

    def fallback(self, k, op, depth=_BASE + 1):
        """Call the op itself; go on where it left the pc."""
        self.emit(depth, self.at(op), f"fr[1] = {k}",
                  f"if not O[{k}].run(st, fr):", "    return False",
                  "if not st.stack or st.stack[-1] is not fr:", "    return True",
                  "pc = fr[1]")
        self.emit(depth, f"if pc <= {k}:")
        self.back(depth + 1)

    def jump(self, depth, k, target, cost=1, op=None):
        self.emit(depth, f"pc = {target}")
        if target <= k:
            if op is not None:      # a limit reached here names the loop, as op by op
                self.emit(depth, self.at(op))
            self.back(depth, cost)

    def back(self, depth, cost=1):
        """Go back to an earlier op: every jump back (each pass of a loop)
        counts its work (``cost``; see ``ops.spend``) against
        ``Limits.max_steps``, so a ruleset that never reaches a decision
        is stopped."""
        self.spend(depth, cost)
        self.emit(depth, "continue")

    def spend(self, depth, cost):
        """Count ``cost`` (source of a whole number) of work, as ``ops.spend``."""
        self.emit(depth, f"st.steps += {cost}", "if st.steps > _lim:",
                  f"    raise RuleFault({self.const(O.RUNAWAY)} % _lim)")


#: The state's generator (``ops.rand_below``) at counter ``_r`` with the
#: state's seed in ``_s``: leaves the 64-bit mix in ``_z``, and
#: ``(_z ^ (_z >> 31)) * n >> 64`` is then a number below n.
_SPLITMIX = (f"_z = (_s + _r * {O.GAMMA:#x}) & {O.M64:#x}",
             f"_z = ((_z ^ (_z >> 30)) * {O.MIX1:#x}) & {O.M64:#x}",
             f"_z = ((_z ^ (_z >> 27)) * {O.MIX2:#x}) & {O.M64:#x}")

def _push(r, cost=None):
    """``st.push(_f)`` written out (the depth check raises through
    ``push``), counting ``cost`` when given (the work of the code it
    starts, as ``ops.CallOp`` does) with one test for both limits."""
    if cost is None:
        return ("st.stack.append(_f)", "if len(st.stack) > st.limits.max_depth:",
                "    st.stack.pop()", "    st.push(_f)")
    return (f"st.steps += {cost}", "st.stack.append(_f)",
            "if len(st.stack) > st.limits.max_depth or st.steps > _lim:",
            "    st.stack.pop()", "    st.push(_f)",
            f"    raise RuleFault({r.const(O.RUNAWAY)} % _lim)")

#: Ops that always go on to the next op (written out without a pc check).
_STRAIGHT = (O.PureOp,)


# ---------------------------------------------------------------- emitters
# Each writes op k inline at depth _BASE + 1 and returns True, or returns
# False to have the op called as it is.  An op other than PureOp
# must leave ``pc`` set (it ends its block).

def _pure(r, k, op):
    r.emit(_BASE + 1, *op.lines)
    return True


def _jump(r, k, op):
    r.jump(_BASE + 1, k, op.target, max(op.cost, 1), op)
    return True


def _jump_unless(r, k, op):
    cond = r.value(op.cond)
    r.emit(_BASE + 1, r.at(op), f"if {cond}:", f"    pc = {k + 1}", "else:")
    r.jump(_BASE + 2, k, op.target)
    return True


def _dispatch(r, k, op):
    r.emit(_BASE + 1, f"_v = fr[{LOCALS}]",
           f"pc = {r.const(op.targets)}[_v] if 0 <= _v < {len(op.targets)} else {op.end}")
    if min(op.targets + [op.end]) <= k:
        r.back(_BASE + 1)
    return True


def _call(r, k, op):
    prog = r.prog
    frame = ", ".join([str(op.code), str(op.start), f"fr[{PLAYER}]"] +
                      ["None"] * prog.nlocals[op.code])
    r.emit(_BASE + 1, r.at(op), f"_f = [{frame}]")
    for i, arg in enumerate(op.args):
        r.emit(_BASE + 1, f"_f[{LOCALS + i}] = {r.value(arg)}")
    # The callee's work was counted with this code's, or (a rule that can
    # call back here) is counted as it starts (``ops.CallOp``).  It runs at
    # once, inside this function's call; when it ends with this frame on
    # top again, go on here.  Otherwise (it waits, or the stack changed) the
    # machine takes over (``State._run``).
    cost = prog.push_cost[op.code] if op.dynamic else None
    r.emit(_BASE + 1, f"fr[{PC}] = {k + 1}", *_push(r, cost),
           f"if not (R[{op.code}] or st.prog.runner({op.code}))(st, _f):", "    return False",
           "if st.stack[-1] is not fr:", "    return True", f"pc = {k + 1}")
    return True


def _phase(r, k, op):
    name = r.const(op.name)
    skip, phase = r.const(f"skips the {op.name} phase"), r.const(f"{op.name} phase")
    r.emit(_BASE + 1, f"if {name} in st.skips:",
           "    if st.logging:", f"        st.note(fr[{PLAYER}], 'skip', {skip}, {name})",
           f"    pc = {op.end}", "else:",
           "    if st.logging:", f"        st.note(fr[{PLAYER}], 'phase', {phase}, {name})",
           f"    pc = {k + 1}")
    if op.end <= k:
        r.emit(_BASE + 1, f"if pc <= {k}:")
        r.back(_BASE + 2)
    return True


def _roll(r, k, op):
    """Dice in sample mode, with the reroll question asked at once."""
    d = _BASE + 1
    r.emit(d, "if st.explicit or st.chance_record is not None:")
    r.fallback(k, op, d + 1)
    r.emit(d, "else:")
    d += 1
    r.emit(d, r.at(op))
    sides = number(op.sides)
    if op.count == 1:
        r.emit(d, "_s = st.seed", "_r = st.rng + 1", *_SPLITMIX,
               f"_tot = (((_z ^ (_z >> 31)) * {sides}) >> 64) + 1")
    else:
        r.emit(d, "_s = st.seed", "_r = st.rng", "_tot = 0", f"for _i in range({number(op.count)}):",
               "    _r += 1",
               *["    " + line for line in _SPLITMIX],
               f"    _tot += (((_z ^ (_z >> 31)) * {sides}) >> 64) + 1")
    r.emit(d, "st.rng = _r", f"fr[{op.slot}] = _tot",
           "if st.logging:",
           f"    st.note(fr[{PLAYER}], 'roll', {r.const(op.why + ': rolled ')} + str(_tot), _tot)")
    prog = r.prog
    if prog.reroll is not None:
        cond = prog.reroll_src
        if cond is None:
            cond = f"{r.const(prog.reroll[0])}(st, [None, 0, _tp])"
        r.emit(d, "_tp = st.turn_player", f"if _tp is not None and {cond}:",
               f"    st.wait({O.WAIT_DECISION}, _tp)", "    st.rerolling = True",
               f"    fr[{PC}] = {k}", "    return False")
    r.emit(d, f"pc = {k + 1}")
    return True


def _draw(r, k, op):
    """Draws in sample mode with nothing to log or record: one loop."""
    d = _BASE + 1
    if op.hooks:
        return False
    r.emit(d, "if st.explicit or st.logging or st.chance_record is not None:")
    r.fallback(k, op, d + 1)
    # The same draws as DrawOp.run (same generator steps, same cards, same
    # pile order), in one loop.
    r.emit(d, "else:")
    d += 1
    r.emit(d, r.at(op), f"_src = st.piles[{r.value(op.src)}]",
           f"_dst = st.piles[{r.value(op.dst)}]",
           f"_left = fr[{op.count}]", "_s = st.seed", "_r = st.rng",
           "while _left > 0:", "    _n = len(_src)", "    if not _n:")
    if op.refill is None:
        r.emit(d + 2, "break")
    else:
        # A refill counts the cards it moves and the draws it makes
        # possible (``ops.DrawOp``).
        r.emit(d + 2, f"_rf = st.piles[{op.refill}]", "if not _rf:", "    break",
               "_src.extend(_rf)", "_rf.clear()", "_n = len(_src)")
        r.spend(d + 2, f"_n + {O.LOG} + {r.const(O.draw_work)}(_left, _n, {op.per_card})")
    r.emit(d + 1, "if _n > 1:", "    _r += 1", *["    " + line for line in _SPLITMIX],
           "    _i = _src.index(_src[((_z ^ (_z >> 31)) * _n) >> 64])",
           "else:", "    _i = 0",
           "_c = _src[_i]", "_src[_i] = _src[-1]", "_src.pop()", "_dst.append(_c)", "_left -= 1")
    r.emit(d, "st.rng = _r", f"fr[{op.count}] = 0", f"pc = {k + 1}")
    return True


def _next_turn(r, k, op):
    """The turn loop (``ops.NextTurnOp``) written out: the endings, the
    next seat whose turn it is, its per-turn values, and the turn's frame."""
    prog, d = r.prog, _BASE + 1

    def endings(depth):
        r.emit(depth, "_p = st.turn_player or 0")
        for (name, fn), src in zip(prog.endings, prog.endings_src):
            cond = src if src is not None else f"{r.const(fn)}(st, [None, 0, _p])"
            r.emit(depth, f"if {cond}:", f"    st.finish({r.const(name)})", "    return False")

    def first(depth):
        r.emit(depth, f"_first = {prog.first_seat_src}")

    r.emit(d, r.at(op))
    endings(d)
    r.emit(d, "if st.round == 0:", "    st.round = 1", "_n = st.n", "_idle = 0")
    first(d)
    r.emit(d, "while True:", "    st.order_pos += 1", "    if st.order_pos >= _n:",
           "        st.order_pos = 0", "        st.round += 1")
    endings(d + 2)      # a new round: an end that counts rounds may fire now
    first(d + 2)
    r.emit(d + 1, "_seat = (_first + st.order_pos) % _n")
    if prog.turn_when is not None:
        when = prog.turn_when_src or f"{r.const(prog.turn_when)}(st, [None, 0, _seat])"
        none_can = r.const("no player can take a turn (the turn's 'when' condition is false "
                           "for everyone)")
        r.emit(d + 1, f"if {when}:", "    break", "_idle += 1",
               "if _idle > st.limits.max_idle_seats:", f"    raise RuleFault({none_can})")
        if prog.idle_cost > O.FEW_IDLE:
            r.spend(d + 1, prog.idle_cost)
    else:
        r.emit(d + 1, "break")
    r.emit(d, "st.turn_player = _seat")
    for (slot, fn), src in zip(prog.turn_init, prog.turn_init_src):
        value = src if src is not None else f"{r.const(fn)}(st, [None, 0, _seat])"
        r.emit(d, f"st.v[_seat * {prog.K} + {slot}] = {value}")
    frame = ", ".join([str(prog.turn_code), "0", "_seat"] + ["None"] * prog.nlocals[prog.turn_code])
    # The turn runs at once, inside this call (as a rule called does).  Its
    # work is counted as it begins, with that of the seats passed over if
    # they were few steps each (``ops.NextTurnOp``).
    tc = prog.turn_code
    turn_cost = prog.turn_cost
    if prog.turn_when is not None and prog.idle_cost <= O.FEW_IDLE:
        turn_cost = f"{turn_cost} + _idle * {prog.idle_cost}"
    r.emit(d, "st.skips = ()", "st.test = None", "if st.logging:",
           "    st.note(_seat, 'turn', f'round {st.round}: P{_seat}\\'s turn', _seat)",
           f"fr[{PC}] = {k}", f"_f = [{frame}]", *_push(r, turn_cost),
           f"if not (R[{tc}] or st.prog.runner({tc}))(st, _f):", "    return False",
           "if st.stack[-1] is not fr:", "    return True", "continue")
    return True


def _wait_for_choice(r, k, op):
    """An op whose ``run`` only waits for its player's decision (one that
    must first check that its player sees the cards, ``op.guard``, is
    called as it is)."""
    if op.guard:
        return False
    r.emit(_BASE + 1, f"st.waiting = {O.WAIT_DECISION}", f"st.actor = fr[{PLAYER}]",
           f"fr[{PC}] = {k}", "return False")
    return True


def _cond(r, fn):
    """Source of a condition (or True when there is none)."""
    return "True" if fn is None else r.value(fn)


def _each_piece(r, k, op):
    """One step of a 'for each' over pieces (``ops.ForEachPieceOp``)."""
    r.emit(_BASE + 1, r.at(op), f"_i = fr[{op.work}] or 0", f"while _i < {number(op.n)}:",
           f"    fr[{op.var}] = _i", "    _i += 1", f"    if {_cond(r, op.cond)}:",
           f"        fr[{op.work}] = _i", f"        pc = {k + 1}", "        break",
           "else:", f"    fr[{op.work}] = None", f"    pc = {op.end}")
    return True


def _each_card(r, k, op):
    """One step of a 'for each' over the cards of a pile (``ops.ForEachCardOp``)."""
    r.emit(_BASE + 1, r.at(op), f"_w = fr[{op.work}]",
           f"_cards, _i = (tuple(st.piles[{r.value(op.pile)}]), 0) if _w is None else _w",
           "while _i < len(_cards):", f"    fr[{op.var}] = _cards[_i]", "    _i += 1",
           f"    if {_cond(r, op.cond)}:", f"        fr[{op.work}] = (_cards, _i)",
           f"        pc = {k + 1}", "        break",
           "else:", f"    fr[{op.work}] = None", f"    pc = {op.end}")
    return True


def _counter(r, k, op):
    """One step of a 'repeat N times' (``ops.CounterOp``)."""
    r.emit(_BASE + 1, r.at(op), f"_w = fr[{op.work}]", "if _w is None:",
           f"    _w = {r.value(op.times)}", "if _w <= 0:", f"    fr[{op.work}] = None",
           f"    pc = {op.end}", "else:", f"    fr[{op.work}] = _w - 1", f"    pc = {k + 1}")
    return True


def _clear(r, k, op):
    """'stop' in a loop that waits (``ops.ClearOp``)."""
    if op.restore is not None:
        r.emit(_BASE + 1, f"fr[{PLAYER}] = fr[{op.restore}]")
    for slot in op.slots:
        r.emit(_BASE + 1, f"fr[{slot}] = None")
    r.jump(_BASE + 1, k, op.target)
    return True


_EMITTERS = {
    O.ForEachPieceOp: _each_piece,
    O.ForEachCardOp: _each_card,
    O.CounterOp: _counter,
    O.ClearOp: _clear,
    O.ChooseCardsOp: _wait_for_choice,
    O.NextTurnOp: _next_turn,
    O.PureOp: _pure,
    O.Jump: _jump,
    O.JumpUnless: _jump_unless,
    O.DispatchOp: _dispatch,
    O.CallOp: _call,
    O.PhaseOp: _phase,
    O.RollOp: _roll,
    O.DrawOp: _draw,
}


#: A code whose generated function would be longer than this many lines is
#: run op by op instead (``op_by_op``): Python compiles a function in time
#: and memory that grow faster than its length, and such a code (a table of
#: thousands of rows) runs only a small part of itself each time.
MOST_LINES = 4000


def size(prog, code_id):
    """About how many lines the generated function of a code would have."""
    return sum(len(op.lines) if isinstance(op, O.PureOp) else 12 for op in prog.codes[code_id])


def source_of(prog, code_id):
    """The Python written for code ``code_id`` (what ``rulelang dump
    --python`` prints), or None for a code run op by op."""
    if size(prog, code_id) > MOST_LINES:
        return None
    return Runner(prog, code_id).source()


def runner(prog, code_id):
    """The generated function that runs code ``code_id``, or ``op_by_op``
    for a code too long to be one."""
    if size(prog, code_id) > MOST_LINES:
        return op_by_op
    return Runner(prog, code_id).function()


def op_by_op(st, fr):
    """Run a frame's code one op at a time (each op's ``run``; a run of
    statements as its own small function, made when first run), as a
    generated function would: False when it waits, True when the stack
    changed."""
    code = st.prog.codes[fr[0]]
    n = len(code)
    while True:
        pc = fr[1]
        if pc >= n:
            st.stack.pop()
            return True
        op = code[pc]
        try:
            go = op.run(st, fr)
        except (RulesetError, O.PureFault):
            raise
        except Exception as e:
            raise O.PureFault(op.where, e) from e
        if not go:
            return False
        if not st.stack or st.stack[-1] is not fr:
            return True
