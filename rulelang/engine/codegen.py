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
import os
import re
from typing import Any, Callable, Dict, Iterable, List, Optional, Set, Tuple

from ..errors import RulesetCheckError, RulesetError
from . import ops as O
from .kinds import Compiled, Fn, Frame, Prog, St, Where

#: The Python of each operator of the IR (``ir.BinOp``, ``ir.Compare``,
#: ``ir.TestDef``, and the first sign of ``+=`` / ``-=``).
_OPERATORS = {op: op for op in ("+", "-", "*", "and", "or", "==", "!=", "<", "<=", ">", ">=")}
#: The built-in functions a rule may call (``ir.CallFn``).
_FUNCTIONS = {"min": "min", "max": "max", "abs": "abs"}


def _refuse(what: str, value: object) -> RulesetError:
    return RulesetCheckError.at("<generated code>", 1, 1,
                                f"refused to write {what} {value!r} into generated code")


def operator(op: object) -> str:
    """The Python of an IR operator, from the fixed table (never the IR's text)."""
    found = _OPERATORS.get(op) if type(op) is str else None
    if found is None:
        raise _refuse("the operator", op)
    return found


def function(name: object) -> str:
    """The Python of a built-in function, from the fixed table."""
    found = _FUNCTIONS.get(name) if type(name) is str else None
    if found is None:
        raise _refuse("the function", name)
    return found


def number(value: object) -> str:
    """A whole number as Python source (an int, nothing else)."""
    if type(value) is not int:
        raise _refuse("the number", value)
    return str(value)


def slot(x: str, width: int, offset: int) -> str:
    """Source of ``x * width + offset`` (the place of one value in a flat
    list of rows), folded: ``x`` alone for a row of one value at 0."""
    row = x if width == 1 else f"{x} * {number(width)}"
    return row if offset == 0 else f"{row} + {number(offset)}"


def seat_0_first(prog: Prog) -> bool:
    """Whether seat 0 always plays first (no 'turn order … from'): a loop
    over the players then takes the seats as they are, with no first seat
    or modulo."""
    return bool(prog.first_seat_src == "0")


def reads_state(src: str) -> bool:
    """Whether Python source ``src`` (an expression the compiler wrote)
    reads the state or a frame: names nothing but ``st`` and ``fr`` can
    (the rest are constants, loop variables and the fixed functions of
    ``GENERATED_ENV``), so one that names neither gives the same value
    every time."""
    return _READS_STATE.search(src) is not None


_READS_STATE = re.compile(r"\b(st|fr)\b")


_BASE = 3   # indentation of a block inside the dispatch loop (before grouping)
_GROUP = 6  # blocks per group (see Runner.source)


def at_line(index: int, where: Optional[Where]) -> str:
    """The comment that starts the lines of a statement or op: ``# line N
    [index]``, ``index`` in the code's list of places (``Program.code_wheres``),
    N the rule file's line (only numbers: nothing of the file's text).  A
    fault is named from the line Python reports through ``line_table``; no
    store at run time says where the code is."""
    pos = where[1] if where else None
    return (f"# line {int(pos.line)}" if pos is not None else "#") + f" [{index}]"


_MARK = re.compile(r"\s*#(?: line \d+)? \[(\d+)\]$")


def line_table(text: str) -> List[int]:
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
FAULT = _FAULT = "raise PureFault(_W[_L[e.__traceback__.tb_lineno]], e) from e"


def function_name(code_name: str) -> str:
    """A generated function's name, after what it runs: 'rule morale_check'
    gives ``rule_morale_check`` (names are checked at the trust boundary;
    anything else becomes '_')."""
    return re.sub(r"\W", "_", code_name, flags=re.ASCII) or "code"


def register(prog: Prog, code_name: str, text: str) -> str:
    """The file name generated source is compiled under, with the source
    put in ``linecache`` so tracebacks and debuggers show its lines (as
    attrs does for the methods it writes)."""
    return register_text(prog.filename, code_name, text)


def register_text(ruleset_file: Optional[str], code_name: str, text: str) -> str:
    """``register`` for the ruleset read from ``ruleset_file``."""
    filename = f"<rulelang {os.path.basename(os.path.normpath(ruleset_file or 'ruleset'))}: {code_name}>"
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    _REGISTERED.pop(filename, None)
    _REGISTERED[filename] = None
    while len(_REGISTERED) > _MOST_REGISTERED:     # a server loading many rulesets
        linecache.cache.pop(next(iter(_REGISTERED)), None)
        del _REGISTERED[next(iter(_REGISTERED))]
    return filename


#: The names this module put in ``linecache``, oldest first (a bounded number).
_REGISTERED: Dict[str, None] = {}
_MOST_REGISTERED = 2000


def _indent(lines: Iterable[str], depth: int) -> List[str]:
    pad = "    " * depth
    return [pad + line for line in lines]


def _env(gen_env: Dict[str, Any]) -> Dict[str, Any]:
    """The globals of a generated function: its program's ``gen_env``."""
    return {**gen_env, "RulesetError": RulesetError}


def pure_function(op: O.PureOp) -> Fn:
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


#: The state's generator (``ops.rand_below``) at counter ``_r`` with the
#: state's seed in ``_s``: leaves its 64-bit number in ``_z`` (from the
#: block the state made last, or a new one), and ``_z * n >> 64`` is then
#: a number below n.
_RANDOM = ("_b = st.block",
           "if _b[1] != _r >> 3 or _b[0] != _s:",
           "    _b = st.block = _random_block(_s, _r >> 3)",
           "_z = _b[2][_r & 7]")

#: Ops that always go on to the next op (written out without a pc check).
_STRAIGHT = (O.PureOp,)


def scores(prog: Prog) -> Callable[[St], List[Any]]:
    """fn(st) -> each seat's score (``State.result``): the score's items,
    each added where its condition holds, written inline for one seat
    after another (as a frame of that seat: ``fr[2]``)."""
    lines = ["def scores(st):", "    out = []", "    for _s in range(st.n):",
             "        fr = [None, 0, _s]", "        _total = 0"]
    for points, cond in prog.score_items:
        add = f"_total += {points.src}"
        lines += [f"        {add}"] if cond is None else \
            [f"        if {cond.src}:", f"            {add}"]
    text = "\n".join(lines + ["        out.append(_total)", "    return out"]) + "\n"
    env = _env(prog.gen_env)
    exec(compile(text, register(prog, "score", text), "exec"), env)
    fn = env["scores"]
    if set(fn.__code__.co_varnames) & env.keys():       # (as ``Runner.make`` checks)
        raise AssertionError("score: locals shadow globals")
    return fn


class Runner:
    """Writes the generated function of one code."""

    def __init__(self, prog: Prog, code_id: int) -> None:
        self.prog = prog
        self.code_id = code_id
        self.code: List[O.Op] = prog.codes[code_id]
        self.wheres: List[Where] = prog.code_wheres[code_id]
        self.lines: List[str] = []

    # ------------------------------------------------------------ helpers

    def const(self, value: Any) -> str:
        consts = self.prog.gen_consts
        consts.append(value)
        return f"C[{len(consts) - 1}]"

    def at(self, op: O.Op) -> str:
        """The comment naming ``op``'s place (``at_line``)."""
        self.wheres.append(op.where)
        return at_line(len(self.wheres) - 1, op.where)

    def value(self, fn: Compiled) -> str:
        """Source of a compiled expression (``runtime.compiled``), inline."""
        return fn.src

    def emit(self, depth: int, *lines: str) -> None:
        pad = "    " * depth
        self.lines.extend(pad + line for line in lines)

    # ------------------------------------------------------------ layout

    def leaders(self) -> Set[int]:
        """The pcs control can arrive at other than by falling through."""
        code = self.code
        out = {0, len(code)}
        for k, op in enumerate(code):
            if not isinstance(op, _STRAIGHT):
                # The machine may come back to an op that waits or calls
                # (the op itself or the one after it); control may leave
                # any other to the one after it, or elsewhere.
                out.update((k, k + 1) if op.resumable else (k + 1,))
            for name in ("target", "end"):
                t = getattr(op, name, None)
                if isinstance(t, int) and not isinstance(t, bool):
                    out.add(t)
            out.update(t for t in getattr(op, "targets", ()) if isinstance(t, int))
        return out

    def source(self) -> str:
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
        group_start: Optional[int] = None
        group_end: Optional[int] = None
        for k, op in enumerate(code):
            if k in leaders:
                if open_block:
                    self.emit(_BASE + 1, f"pc = {k}")
                if k in groups:
                    self.close_group(group_start, group_end)
                    group_start, group_end = len(self.lines), groups[k]
                self.emit(_BASE, f"if pc == {k}:")
            emit = getattr(op, "emit", None)
            if emit is None or not emit(self, k):
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

    def close_group(self, start: Optional[int], end: Optional[int]) -> None:
        """Put the lines written since ``start`` under ``if pc < end:``."""
        if start is None:
            return
        body = ["    " + line for line in self.lines[start:]]
        self.lines[start:] = ["    " * _BASE + f"if pc < {end}:"] + body

    def function(self) -> Fn:
        name = self.prog.code_names[self.code_id]
        return self.make(self.source(), function_name(name), name)

    def make(self, text: str, fn_name: str, code_name: str) -> Fn:
        """The function ``fn_name`` that ``text`` defines, its source in
        ``linecache`` under ``code_name`` (``register``)."""
        env = _env(self.prog.gen_env)
        env["O"] = self.code
        env["R"] = self.prog.runners
        if not self.wheres:         # (a fault before any op: the code's own place)
            self.wheres.append((self.prog.code_names[self.code_id], self.prog.code_pos[self.code_id]))
        env["_W"] = self.wheres
        env["_L"] = line_table(text)
        exec(compile(text, register(self.prog, code_name, text), "exec"), env)
        fn = env[fn_name]
        shadowed = set(fn.__code__.co_varnames) & env.keys()
        if shadowed:        # (a local named as one of the generated code's globals)
            raise AssertionError(f"{code_name}: locals shadow globals: {sorted(shadowed)}")
        return fn

    # ------------------------------------------------- for the ops' emit

    #: The depth an op's lines start at (inside the dispatch on the pc).
    D = _BASE + 1
    RANDOM = _RANDOM
    number = staticmethod(number)
    seat_0_first = staticmethod(seat_0_first)

    def ready(self, k: int, key: str, player: str = f"fr[{O.PLAYER}]") -> Tuple[str, ...]:
        """The line that puts the moves of op ``k`` in place as it waits,
        found by ``key`` (the source of its ``move_key``) and ``player``
        (the source of who decides): none (``State._legal`` makes them)
        until first made."""
        return (f"st._moves = O[{k}].kept.get(({key}, {player}))",)

    def decide(self, k: int, values: str, wait: Tuple[str, ...], ready: Tuple[str, ...] = (),
               take: Optional[Callable[[str], Tuple[str, ...]]] = None) -> Tuple[str, ...]:
        """The lines of a decision of op ``k`` among ``values`` (the source
        of its ``choices``).  Through the move API (no ``st.policy``): the
        state waits (``wait``), the moves are put in place (``ready``) and
        the run stops for the player.  In a playout (``State._play_out``, a
        game with no log): the policy's pick, while it may make one
        (``Policy.end``), taken as ``op.resume`` takes an answer (the
        move's work counted afresh, as ``State.apply`` counts it), and the
        rules go on here, with no return to the playout's loop and no call
        back in.  ``take``: ``resume`` written out, the lines that take the
        answer (given its source, read once) and set ``pc``, with no wait
        first; they end in ``continue`` unless control may fall through to
        the next block (the op's caller then ends its block with them)."""
        stop = ("_p = st.policy", "if _p is None or (_x := _p.x) == _p.end:",
                *["    " + line for line in ready], "    return False")
        lines: Tuple[str, ...] = ()
        if not values.isidentifier():
            lines, values = (f"_v = {values}",), "_v"
        lines += (f"_p.x = _x = (_x * {O.Policy.MUL} + {O.Policy.ADD}) & {O.M64}", "st.steps = 0")
        pick = f"{values}[((_x >> 32) * len({values})) >> 32]"
        if take is not None:
            stop = stop[:2] + tuple("    " + line for line in wait) + stop[2:]
            return (*stop, *lines, *take(pick))
        return (*wait, *stop, *lines, f"O[{k}].resume(st, fr, {pick})", "if st.stack[-1] is not fr:",
                "    return True", f"pc = fr[{O.PC}]", "continue")

    def into(self, slot: int, k: int) -> Callable[[str], Tuple[str, ...]]:
        """``decide``'s ``take`` for a choice whose answer goes into local
        ``slot`` (``ChoiceOp.resume``): control falls through to op ``k + 1``."""
        return lambda answer: (f"fr[{slot}] = {answer}", f"fr[{O.PC}] = pc = {k + 1}")

    def cond(self, fn: Optional[Compiled]) -> str:
        """Source of a condition (or True when there is none)."""
        return "True" if fn is None else self.value(fn)

    def push(self, cost: Optional[object] = None) -> Tuple[str, ...]:
        """``st.push(_f)`` written out (the depth check raises through
        ``push``), counting ``cost`` when given (the work of the code it
        starts, as ``ops.CallOp`` does) with one test for both limits."""
        if cost is None:
            return ("st.stack.append(_f)", "if len(st.stack) > st.limits.max_depth:",
                    "    st.stack.pop()", "    st.push(_f)")
        return (f"st.steps += {cost}", "st.stack.append(_f)",
                "if len(st.stack) > st.limits.max_depth or st.steps > _lim:",
                "    st.stack.pop()", "    st.push(_f)",
                f"    raise RuleFault({self.const(O.RUNAWAY)} % _lim)")

    def fallback(self, k: int, op: O.Op, depth: int = _BASE + 1) -> None:
        """Call the op itself; go on where it left the pc."""
        self.emit(depth, self.at(op), f"fr[1] = {k}",
                  f"if not O[{k}].run(st, fr):", "    return False",
                  "if not st.stack or st.stack[-1] is not fr:", "    return True",
                  "pc = fr[1]")
        self.emit(depth, f"if pc <= {k}:")
        self.back(depth + 1)

    def jump(self, depth: int, k: int, target: int, cost: object = 1,
             op: Optional[O.Op] = None) -> None:
        """Go to op ``target`` from op ``k``.  A jump forward to a jump goes
        where that one goes, as it would (its lines written here: no pass
        through the dispatch for it)."""
        then = self.code[target] if k < target < len(self.code) else None
        if type(then) is O.Jump and then.target is not None:
            self.jump(depth, target, then.target, max(then.cost, 1), then)
            return
        self.emit(depth, f"pc = {target}")
        if target <= k:
            if op is not None:      # a limit reached here names the loop, as op by op
                self.emit(depth, self.at(op))
            self.back(depth, cost)

    def back(self, depth: int, cost: object = 1) -> None:
        """Go back to an earlier op: every jump back (each pass of a loop)
        counts its work (``cost``; see ``ops.spend``) against
        ``Limits.max_steps``, so a ruleset that never reaches a decision
        is stopped."""
        self.spend(depth, cost)
        self.emit(depth, "continue")

    def spend(self, depth: int, cost: object) -> None:
        """Count ``cost`` (source of a whole number) of work, as ``ops.spend``."""
        self.emit(depth, f"st.steps += {cost}", "if st.steps > _lim:",
                  f"    raise RuleFault({self.const(O.RUNAWAY)} % _lim)")



def pieces_view(piece_view: Dict[str, Tuple[List[Dict[str, Any]], Tuple[str, ...]]],
                base: Dict[str, int], per: Dict[str, int], filename: str) -> Any:
    """fn(g) -> every piece as ``view`` shows it ({set: [{"name": …,
    attribute: value…, field: its value in g…}]}): one function whose
    dicts are written out, piece by piece, from ``piece_view`` (a piece's
    name and attributes, then its fields), the values of set ``s``'s piece
    ``i`` at ``g[base[s] + i * per[s]]`` on.  Every name and value is a
    constant of its namespace: nothing of the ruleset is written into the
    source."""
    env: Dict[str, Any] = {}

    def const(value: Any) -> str:
        name = f"_c{len(env)}"
        env[name] = value
        return name

    sets = []
    for pset, (fixed, fields) in piece_view.items():
        rows = []
        for i, piece in enumerate(fixed):
            at = base[pset] + i * per[pset]
            items = [f"{const(k)}: {const(v)}" for k, v in piece.items()]
            items += [f"{const(field)}: g[{at + j}]" for j, field in enumerate(fields)]
            rows.append("{" + ", ".join(items) + "}")
        sets.append(f"{const(pset)}: [{', '.join(rows)}]")
    text = "def pieces_view(g):\n    return {" + ",\n            ".join(sets) + "}\n"
    exec(compile(text, register_text(filename, "the pieces' view", text), "exec"), env)
    return env["pieces_view"]


def standalone(prog: Prog, code_id: int, k: int) -> Fn:
    """Op ``k`` of code ``code_id`` as a function of its own, made from the
    very lines generated code writes for it (``op.emit``): how an op whose
    behaviour is only its emitted code (the turn loop) runs op by op.  A
    jump back (``continue``) leaves the one-pass loop: the pc is stored and
    the machine goes on from it."""
    r = Runner(prog, code_id)
    op: Any = r.code[k]     # (an op that runs alone has an emit)
    name = f"{function_name(prog.code_names[code_id])}_op{k}"
    r.emit(0, f"def {name}(st, fr):", "    pc = fr[1]", "    _lim = st.limits.max_steps",
           "    try:", "        for _once in (0,):", "            if True:")
    if not op.emit(r, k):
        raise AssertionError(f"{type(op).__name__} has no code of its own to run alone")
    r.emit(2, "fr[1] = pc", "return True")
    r.emit(1, "except (RulesetError, PureFault):", "    raise   # from a rule called here",
           "except Exception as e:", f"    {_FAULT}")
    return r.make("\n".join(r.lines) + "\n", name, f"{prog.code_names[code_id]}, op {k}")


#: A code whose generated function would be longer than this many lines is
#: run op by op instead (``op_by_op``): Python compiles a function in time
#: and memory that grow faster than its length, and such a code (a table of
#: thousands of rows) runs only a small part of itself each time.
MOST_LINES = 4000


def size(prog: Prog, code_id: int) -> int:
    """About how many lines the generated function of a code would have."""
    return sum(len(op.lines) if isinstance(op, O.PureOp) else 12 for op in prog.codes[code_id])


def source_of(prog: Prog, code_id: int) -> Optional[str]:
    """The Python written for code ``code_id`` (what ``rulelang dump
    --python`` prints), or None for a code run op by op."""
    if size(prog, code_id) > MOST_LINES:
        return None
    return Runner(prog, code_id).source()


def runner(prog: Prog, code_id: int) -> Fn:
    """The generated function that runs code ``code_id``, or ``op_by_op``
    for a code too long to be one."""
    if size(prog, code_id) > MOST_LINES:
        return op_by_op
    return Runner(prog, code_id).function()


def op_by_op(st: St, fr: Frame) -> bool:
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
