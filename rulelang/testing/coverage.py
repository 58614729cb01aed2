"""Rule coverage: which statements of a rule file ran in many random games,
and which never did — a rule never called, a table row that never came up,
a choice nobody could take — so that a designer finds the rules that never
fire, and a new ruleset can be shown to reach every rule in play.

    import rulelang, rulelang.testing
    game = rulelang.load("my_game.rules")
    report = rulelang.testing.coverage(game, games=1000)
    print(report.format())            # or: rulelang coverage my_game.rules

How it counts.  The games are played on a copy of the game compiled again
from its checked IR (as ``op_by_op`` makes one), so the game itself, its
program and its generated functions are never touched: playing without
coverage has no hook of any kind, and costs what it did.  In the copy every
code runs op by op, each op's own ``run`` (the machine's definition, which
``tests/test_codegen.py`` holds the generated code to, move for move), under
a runner that counts how often control arrives at each op, how many frames
each code starts (rules called, tables rolled, reactions fired, turns) and
where each ``choose one`` sent control.  A run of plain statements (a
``PureOp``: the statements that never wait, written as Python with a
``# line N [i]`` comment before each) is compiled again with a counter after
each of those comments, so a statement inside it — an ``if``, an ``else
if``, a loop, a ``stop`` — counts once each time control reaches it.

A statement's count is then
- inside a run of plain statements: its counter (a loop counts the times it
  was reached, not its passes);
- otherwise (a statement that is an op of its own: a decision, a call, a
  roll, a draw, a loop or ``if`` holding one): the times control arrived at
  the first op it was compiled to, less, for a loop, its jumps back (each
  pass arrives at the loop's head again).  An op that runs again without
  control leaving it (a reroll; a draw going on after its 'on draw' rule)
  is not counted again.
Rules, tables, setup options and reactions count the frames they started;
a table's row, the times it came up (its first op, which logs the row); an
alternative of ``choose one`` or of an option, the times the choice led to
it (picked, or given in advance).

Why not trace the generated functions (``sys.settrace``, or
``sys.monitoring`` line events mapped through ``codegen.line_table``)?  The
generated code is not one line per statement: a loop's header line runs on
every pass; the dispatch lines (``if pc == k:``) belong to the place above
them; some ops write no place comment (``stop`` in a loop that waits, a
phase's start, a table's dispatch); a code longer than
``codegen.MOST_LINES`` runs op by op, outside generated code; decisions,
and dice and draws in explicit mode, resume in an op's ``resume`` called by
``State.apply``.  Counting ops is exact for all of these; a game costs 1.5
to 2.5 times what it does in plain random play through the move API (which
dominates either way; docs/testing.md has the numbers), a line trace of the
generated code would cost as much or more, and plain play pays nothing.

Limits: it counts what random play reaches — a statement that needs a
deliberate line of play may show as never run (play such games yourself on
``Coverage(game).game``); it counts statements, not the branches of an
expression (``a or b``, ``if … then … else`` inside one) nor a ``where``;
a state cloned or restored mid-game counts its frames again.
"""

from __future__ import annotations

import random
import re
import time
import typing
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

import attrs

from .. import ir
from ..engine import Game, compile_ruleset, codegen
from ..engine import ops as O
from ..engine.kinds import Fn, Frame, St
from ..engine.program import Program
from ..errors import RulesetError
from .conformance import declared_max_moves
from .report import DEFAULT_MAX_MOVES

#: A place in the rule file: (line, column).
Key = Tuple[int, int]

_STATEMENTS: Tuple[type, ...] = typing.get_args(ir.Stmt)

#: The comment before each statement and op of generated code (``codegen.at_line``).
_MARK = re.compile(r"^(\s*)#(?: line \d+)? \[(\d+)\]$")


def _key(pos: Optional[ir.Pos]) -> Optional[Key]:
    return None if pos is None else (pos.line, pos.column)


# ------------------------------------------------------------------ counting

def _with_counters(lines: Sequence[str]) -> List[str]:
    """The lines of a run of plain statements with a counter after each
    place comment: ``_cov_hits[i] += 1`` at the statement's own indentation
    (so a loop counts once, before its header), or, before an ``elif``, in
    its condition (a statement cannot stand between the blocks)."""
    out: List[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        out.append(line)
        m = _MARK.match(line)
        if m is not None:
            pad, k = m.group(1), int(m.group(2))
            nxt = lines[i + 1] if i + 1 < len(lines) else ""
            if nxt.startswith(pad + "elif ") and nxt.endswith(":"):
                out.append(f"{pad}elif _cov_hit({k}) or ({nxt[len(pad) + 5:-1]}):")
                i += 2
                continue
            out.append(f"{pad}_cov_hits[{k}] += 1")
        i += 1
    return out


def _counting_maker(hits: List[int]) -> Callable[[O.PureOp], Fn]:
    """What makes a ``PureOp``'s function with counters (``_with_counters``)
    into ``hits``, made the first time the op runs, as ``pure_function``."""

    def hit(k: int) -> None:
        hits[k] += 1

    def make(op: O.PureOp) -> Fn:
        env = {**op.env, "_cov_hits": hits, "_cov_hit": hit}
        return codegen.pure_function(O.PureOp(op.where, _with_counters(op.lines), op.wheres,
                                              env, codegen.pure_function))
    return make


class _Counter:
    """The counters of one program (a copy of a game's, made for them), and
    the runner that every code of it runs under (``run``)."""

    def __init__(self, prog: Program) -> None:
        self.prog = prog
        #: per code, per op: the times control arrived at it
        self.arrived = [[0] * len(code) for code in prog.codes]
        #: per code: the frames it started
        self.started = [0] * len(prog.codes)
        #: per code, per op: whether it is a ``choose one`` (whose moves are counted)
        self.chooses = [[isinstance(op, O.ChooseOneOp) for op in code] for code in prog.codes]
        #: (code, pc of a ``choose one``, pc it sent control to) -> times
        self.branches: Dict[Tuple[int, int, int], int] = {}
        #: id of a frame that left ``run`` before its end -> (the frame, the
        #: pc of the op it left at), to tell an op run again from one arrived at
        self.left: Dict[int, Tuple[Frame, int]] = {}
        #: each run of plain statements watched: (the op, its counters by place index)
        self.pure: List[Tuple[O.PureOp, List[int]]] = []
        for op in self._pure_ops():
            marks = [int(m.group(2)) for m in map(_MARK.match, op.lines) if m is not None]
            hits = [0] * (max(marks, default=-1) + 1)
            op.make = _counting_maker(hits)
            op.fn = None
            self.pure.append((op, hits))
        prog.runners[:] = [self.run] * len(prog.codes)

    def _pure_ops(self) -> Iterator[O.PureOp]:
        """Every run of plain statements of the program: those in codes, an
        assignment a 'whenever' watches, a reroll's cost."""
        for code in self.prog.codes:
            for op in code:
                if isinstance(op, O.PureOp):
                    yield op
        if self.prog.reroll is not None:
            held = getattr(self.prog.reroll[1], "__self__", None)
            if isinstance(held, O.PureOp):
                yield held

    def run(self, st: St, fr: Frame) -> bool:
        """A frame's code op by op, as ``codegen.op_by_op``, counting."""
        c = fr[O.CODE]
        code = st.prog.codes[c]
        n = len(code)
        arrived, chooses = self.arrived[c], self.chooses[c]
        pc = fr[O.PC]
        was = self.left.pop(id(fr), None)
        if was is None or was[0] is not fr:
            self.started[c] += 1
            arrives = True
        else:
            arrives = pc != was[1]      # (else the op it left at runs again)
            if arrives and chooses[was[1]]:
                self._branch(c, was[1], pc)
        while True:
            if pc >= n:
                st.stack.pop()
                return True
            op = code[pc]
            if arrives:
                arrived[pc] += 1
            arrives = True
            try:
                go: bool = op.run(st, fr)
            except (RulesetError, O.PureFault):
                raise
            except Exception as e:
                raise O.PureFault(op.where, e) from e
            if not go or not st.stack or st.stack[-1] is not fr:
                self.left[id(fr)] = (fr, pc)
                return go
            if chooses[pc]:
                self._branch(c, pc, fr[O.PC])
            pc = fr[O.PC]

    def _branch(self, c: int, at: int, to: int) -> None:
        key = (c, at, to)
        self.branches[key] = self.branches.get(key, 0) + 1


class _Tally:
    """What the counters say about places of the rule file."""

    def __init__(self, counter: _Counter) -> None:
        prog = counter.prog
        self.counter = counter
        #: place of a statement or row inside a run of plain statements -> times reached
        self.marked: Dict[Key, int] = {}
        for pure, hits in counter.pure:
            for m in map(_MARK.match, pure.lines):
                if m is None:
                    continue
                i = int(m.group(2))
                key = _key(pure.wheres[i][1]) if i < len(pure.wheres) else None
                if key is not None:
                    self.marked[key] = self.marked.get(key, 0) + hits[i]
        #: place -> [(code, its first op there, the jumps back there)]
        self.ops: Dict[Key, List[Tuple[int, int, List[int]]]] = {}
        #: place of a ``choose one`` or an option -> the times each alternative was taken
        self.taken: Dict[Key, List[int]] = {}
        for c, code in enumerate(prog.codes):
            first: Dict[Key, Tuple[int, int, List[int]]] = {}
            for k, op in enumerate(code):
                key = _key(op.where[1])
                if key is None:
                    continue
                if key not in first:
                    first[key] = (c, k, [])
                elif type(op) is O.Jump and op.target is not None and op.target <= k:
                    first[key][2].append(k)
                if isinstance(op, O.ChooseOneOp):
                    self.taken[key] = [counter.branches.get((c, k, t), 0) for t in op.targets]
            for key, found in first.items():
                self.ops.setdefault(key, []).append(found)
        #: place of a 'whenever' or an 'on draw' rule -> its code
        self.code_at: Dict[Key, int] = {}
        for c in range(len(prog.codes)):
            key = _key(prog.code_pos[c])
            if key is not None and (c in prog.trigger_codes or prog.code_names[c].startswith("on draw")):
                self.code_at[key] = c

    def statement(self, key: Key) -> Optional[int]:
        """The times the statement at ``key`` ran (None: nothing counts it)."""
        if key in self.marked:
            return self.marked[key]
        found = self.ops.get(key)
        if found is None:
            return None
        arrived = self.counter.arrived
        return sum(arrived[c][k] - sum(arrived[c][b] for b in backs) for c, k, backs in found)

    def started(self, code: Optional[int]) -> Optional[int]:
        return None if code is None else self.counter.started[code]


# ------------------------------------------------------------------ the report

@attrs.frozen
class Statement:
    """One statement of the rule file and the times it ran (``count``;
    None: nothing in the program counts it, which would be a bug)."""

    line: int
    column: int
    #: the statement's kind: its IR node ("Assign", "If", "Call" …)
    kind: str
    #: its own words: its line from its column, without what follows it
    #: there (another statement, a comment)
    text: str
    #: the part of the rule file it is in: "setup", "phase travel", "rule
    #: lose_askari", 'table events row 3 "Blizzard"', 'rule act, choice
    #: "Action" option "Hunt"' …
    where: str
    count: Optional[int]
    #: its whole line of the rule file, stripped
    source: str = ""


@attrs.frozen
class Part:
    """A part of the rule file entered as a whole, and the times it was:
    a rule (called), a table (rolled or chosen on), a row (came up), a
    setup option (asked) and its alternatives, an alternative of a
    ``choose one`` (taken), a 'whenever' or an 'on draw' rule (fired)."""

    #: "rule", "table", "row", "option", "option choice", "choice",
    #: "whenever" or "on draw"
    kind: str
    #: 'rule lose_askari', 'table events row 3 "Blizzard"', 'choice "Action" option "Hunt"' …
    name: str
    #: the part it is in ("" for one of its own: a rule, a table …)
    where: str
    line: int
    column: int
    count: Optional[int]
    #: the statements inside it
    statements: int


#: What never happening is called, for each kind of part.
_NEVER = {"statement": "never ran", "rule": "never called", "table": "never rolled",
          "row": "never came up", "option": "never asked", "option choice": "never taken",
          "choice": "never taken", "whenever": "never fired", "on draw": "never fired"}


@attrs.frozen
class Unreached:
    """A statement or part that never ran, where what holds it did: what
    lies inside it is not listed again (``inside`` says how many statements)."""

    line: int
    column: int
    #: "statement", or the kind of part
    what: str
    #: the part it is in ("" for one of its own)
    where: str
    #: a statement's line (stripped, without its comment; the statement's
    #: own words marked »so« when the line holds more), or a part's name
    text: str
    #: the statements inside it
    inside: int
    #: whether it starts its line (else ``column`` tells it from the others there)
    first_on_line: bool = True

    @property
    def never(self) -> str:
        return _NEVER[self.what]

    def format(self, filename: str) -> str:
        at = f"{filename}:{self.line}" + ("" if self.first_on_line else f":{self.column}")
        where = f" ({self.where})" if self.where else ""
        if self.what == "statement":
            more = f"  (and {self.inside} statement{'s' * (self.inside != 1)} inside)" \
                if self.inside else ""
        else:
            more = f"  ({self.inside} statement{'s' * (self.inside != 1)})"
        return f"{at}: {self.never}{where}: {self.text}{more}"


@attrs.frozen
class CoverageReport:
    """What ``coverage`` found: every statement and part with its count,
    and what never ran (``unreached``, outermost first)."""

    filename: str
    title: str
    games: int
    moves: int
    turns: int
    #: the player counts played (each as often as the others, in turn)
    players: Tuple[int, ...]
    chance: str
    seconds: float
    statements: Tuple[Statement, ...]
    parts: Tuple[Part, ...]
    unreached: Tuple[Unreached, ...]
    #: games stopped at the bound on their length (``max_moves``)
    unfinished: int = 0
    #: runtime errors: one line each, with the game's seed and players
    errors: Tuple[str, ...] = ()

    @property
    def total(self) -> int:
        return len(self.statements)

    @property
    def ran(self) -> int:
        return sum(1 for s in self.statements if s.count)

    @property
    def never_ran(self) -> Tuple[Statement, ...]:
        """Every statement that never ran (inside others that never did too)."""
        return tuple(s for s in self.statements if s.count == 0)

    @property
    def untracked(self) -> Tuple[Statement, ...]:
        """Statements nothing counted (none, unless the mapping has a bug)."""
        return tuple(s for s in self.statements if s.count is None)

    @property
    def complete(self) -> bool:
        """Whether every statement and part was reached (and counted)."""
        return not self.unreached and not self.untracked

    def by_line(self) -> Dict[int, int]:
        """{line: the most times a statement that starts on it ran}."""
        out: Dict[int, int] = {}
        for s in self.statements:
            if s.count is not None:
                out[s.line] = max(out.get(s.line, 0), s.count)
        return out

    def summary(self, filename: Optional[str] = None) -> str:
        players = _players_text(self.players)
        return (f"{filename or self.filename}: {self.ran} of {self.total} statements ran in "
                f"{self.games} games ({players}, {self.chance} chance, {self.moves} moves, "
                f"{self.turns} turns, {self.seconds:.1f}s)")

    def format(self, filename: Optional[str] = None) -> str:
        """The summary, then each thing that never ran as
        ``FILE:LINE: never ran (rule x): <its line>``, in the file's order."""
        name = filename or self.filename
        lines = [self.summary(name)]
        if self.unfinished:
            lines.append(f"{name}: {self.unfinished} games were stopped unfinished "
                         f"(too many moves)")
        lines += [f"{name}: error: {e}" for e in self.errors]
        lines += [u.format(name) for u in self.unreached]
        lines += [f"{name}:{s.line}: not counted (a bug in rulelang.testing.coverage): {s.text}"
                  for s in self.untracked]
        if self.complete:
            lines.append(f"{name}: every statement ran, every rule was called, every row came up "
                         f"and every choice was taken")
        return "\n".join(lines)

    def annotate(self, source: str) -> str:
        """The rule file ``source`` with a count in the margin of each line
        where statements or parts (a rule, a row, a choice …) start: the
        most times one of them ran, ``#####`` when none did, and a ``*``
        after the count when some did not."""
        counts: Dict[int, int] = {}
        partly = set()
        for line, count in [(s.line, s.count) for s in self.statements] + \
                [(p.line, p.count) for p in self.parts]:
            if count is None:
                continue
            counts[line] = max(counts.get(line, 0), count)
            if count == 0:
                partly.add(line)
        out = []
        for n, text in enumerate(source.splitlines(), 1):
            if n not in counts:
                margin = ""
            elif counts[n] == 0:
                margin = "#####"
            else:
                margin = f"{counts[n]}{'*' if n in partly else ''}"
            out.append(f"{margin:>9} | {text}")
        return "\n".join(out)

    def to_dict(self) -> Dict[str, Any]:
        return {"file": self.filename, "title": self.title, "games": self.games,
                "moves": self.moves, "turns": self.turns, "players": list(self.players),
                "chance": self.chance, "seconds": round(self.seconds, 3),
                "statements_total": self.total, "statements_ran": self.ran,
                "complete": self.complete, "unfinished": self.unfinished,
                "errors": list(self.errors),
                "statements": [attrs.asdict(s) for s in self.statements],
                "parts": [attrs.asdict(p) for p in self.parts],
                "unreached": [dict(attrs.asdict(u), never=u.never) for u in self.unreached]}


def _players_text(players: Sequence[int]) -> str:
    if not players:
        return "no players"
    lo, hi = min(players), max(players)
    if len(set(players)) == hi - lo + 1:
        return f"{lo} player{'s' * (lo != 1)}" if lo == hi else f"{lo}–{hi} players"
    return ", ".join(map(str, sorted(set(players)))) + " players"


# ------------------------------------------------------------------ walking the rule file

class _Node:
    """A statement or part while the report is built: its count and what holds it."""

    __slots__ = ("what", "key", "where", "text", "count", "parent", "inside", "first", "kind",
                 "source", "shown")

    def __init__(self, what: str, key: Key, where: str, text: str, count: Optional[int],
                 parent: Optional[_Node], first: bool = True, kind: str = "") -> None:
        self.what, self.key, self.where, self.text = what, key, where, text
        self.count, self.parent, self.first, self.kind = count, parent, first, kind
        self.inside = 0
        self.source = self.shown = text


class _Walk:
    """Every statement and part of a ruleset, in the file's order, with its count."""

    def __init__(self, rs: ir.Ruleset, prog: Program, tally: _Tally) -> None:
        self.rs, self.prog, self.tally = rs, prog, tally
        self.lines = (rs.source or "").splitlines()
        self.nodes: List[_Node] = []
        self.statements: List[Statement] = []
        self.parts: List[Part] = []

    def line(self, key: Key) -> Tuple[str, bool]:
        """(the line of the file at ``key``, stripped; whether ``key`` starts it)."""
        text = self.lines[key[0] - 1] if 0 < key[0] <= len(self.lines) else ""
        return text.strip(), key[1] <= len(text) - len(text.lstrip()) + 1

    def own_text(self, node: _Node, end: Optional[int]) -> Tuple[str, str, bool]:
        """(the words of the statement at ``node``: its line from its column
        up to ``end``, the next statement there that is not inside it, with
        no comment, nor the ``;``, ``}`` or ``else`` that follow it; its line
        with those words marked »so« when the line holds more; whether
        they start the line)."""
        line, column = node.key
        full = _uncommented(self.lines[line - 1] if 0 < line <= len(self.lines) else "").rstrip()
        start = column - 1
        if node.kind == "If":           # an 'else if' is placed at its condition
            m = _ELSE_IF.search(full, 0, start)
            if m is not None:
                start = m.start(1)
        own = _trimmed(full[start:end - 1 if end else None])
        at = full.find(own, start) if own else -1
        if at < 0:
            return node.text, node.text, node.first
        first = not full[:at].strip()
        if own == full.strip():
            return own, own, first
        return own, f"{full[:at].strip()} »{own}« {full[at + len(own):].strip()}".strip(), first

    def part(self, kind: str, name: str, where: str, pos: Optional[ir.Pos],
             count: Optional[int], parent: Optional[_Node]) -> Optional[_Node]:
        key = _key(pos)
        if key is None:
            return parent
        node = _Node(kind, key, where, name, count, parent)
        self.nodes.append(node)
        return node

    def container(self, name: str, pos: Optional[ir.Pos]) -> Optional[_Node]:
        """A part that is not counted (setup, a phase, 'every round', the reroll's cost)."""
        key = _key(pos) or (0, 0)
        node = _Node("", key, "", name, None, None)
        self.nodes.append(node)
        return node

    def body(self, stmts: Sequence[Any], where: str, parent: Optional[_Node]) -> None:
        for item in stmts:
            if not isinstance(item, _STATEMENTS):
                continue
            s: Any = item       # (a statement: any of the kinds in ``ir.Stmt``)
            key = _key(s.pos)
            me = parent
            if key is not None:
                text, first = self.line(key)
                me = _Node("statement", key, where, text, self.tally.statement(key), parent, first,
                           type(s).__name__)
                self.nodes.append(me)
            for f in attrs.fields(type(s)):
                value = getattr(s, f.name)
                if not isinstance(value, tuple) or not value:
                    continue
                if all(isinstance(x, _STATEMENTS) for x in value):
                    self.body(value, where, me)
                elif all(isinstance(x, ir.Choice) for x in value):
                    prompt = getattr(s, "prompt", None)
                    taken = self.tally.taken.get(key) if key is not None else None
                    for j, choice in enumerate(value):
                        name = ("choice " + (f'"{prompt}" ' if prompt else "")
                                + f'option "{choice.label}"')
                        count = taken[j] if taken is not None and j < len(taken) else None
                        node = self.part("choice", name, where, choice.pos or s.pos, count, me)
                        self.body(choice.body, f"{where}, {name}", node)

    def walk(self) -> None:
        rs, prog, tally = self.rs, self.prog, self.tally
        self.body(rs.setup, "setup", self.container("setup", rs.pos))
        if rs.turn is not None:
            if rs.turn.each_round:
                self.body(rs.turn.each_round, "every round",
                          self.container("every round", rs.turn.pos))
            for phase in rs.turn.phases:
                self.body(phase.body, f"phase {phase.name}",
                          self.container(f"phase {phase.name}", phase.pos))
        for rule in rs.rules:
            name = f"rule {rule.name}"
            node = self.part("rule", name, "", rule.pos,
                             tally.started(prog.rule_code.get(rule.name)), None)
            self.body(rule.body, name, node)
        for table in rs.tables:
            name = f"table {table.name}"
            node = self.part("table", name, "", table.pos,
                             tally.started(prog.table_code.get(table.name)), None)
            for row in table.rows:
                rolls = str(row.low) if row.low == row.high else f"{row.low}..{row.high}"
                row_name = f"{name} row {rolls}" + (f' "{row.label}"' if row.label else "")
                key = _key(row.pos)
                count = tally.marked.get(key) if key is not None else None
                self.body(row.body, row_name, self.part("row", row_name, "", row.pos, count, node))
        for option in rs.options:
            name = f"option {option.name}"
            node = self.part("option", name, "", option.pos,
                             tally.started(prog.option_code.get(option.name)), None)
            taken = tally.taken.get(_key(option.pos) or (0, 0))
            for j, choice in enumerate(option.choices):
                choice_name = f'{name} "{choice.label}"'
                count = taken[j] if taken is not None and j < len(taken) else None
                self.body(choice.body, choice_name,
                          self.part("option choice", choice_name, "", choice.pos or option.pos,
                                    count, node))
        for trig in rs.triggers:
            name = f"whenever (line {trig.pos.line if trig.pos else '?'})"
            code = tally.code_at.get(_key(trig.pos) or (0, 0))
            self.body(trig.body, name, self.part("whenever", name, "", trig.pos,
                                                 tally.started(code), None))
        for dt in rs.draw_triggers:
            name = f"on draw from {dt.deck} (line {dt.pos.line if dt.pos else '?'})"
            code = tally.code_at.get(_key(dt.pos) or (0, 0))
            self.body(dt.body, name, self.part("on draw", name, "", dt.pos,
                                               tally.started(code), None))
        if rs.reroll is not None:
            self.body(rs.reroll.cost, "reroll", self.container("reroll", rs.reroll.pos))

    def results(self) -> Tuple[Tuple[Statement, ...], Tuple[Part, ...], Tuple[Unreached, ...]]:
        self.walk()
        on_line: Dict[int, List[_Node]] = {}
        for node in self.nodes:         # each statement counts in every part around it
            if node.what == "statement":
                on_line.setdefault(node.key[0], []).append(node)
                up = node.parent
                while up is not None:
                    up.inside += 1
                    up = up.parent
        for here in on_line.values():   # a statement's own words, where a line holds several
            here.sort(key=lambda x: x.key[1])
            for j, node in enumerate(here):
                end = next((other.key[1] for other in here[j + 1:] if not _within(other, node)),
                           None)
                node.text, node.shown, node.first = self.own_text(node, end)
        statements, parts, unreached = [], [], []
        for node in self.nodes:
            line, column = node.key
            if node.what == "statement":
                statements.append(Statement(line, column, node.kind, node.text, node.where,
                                            node.count, node.source))
            elif node.what:
                parts.append(Part(node.what, node.text, node.where, line, column, node.count,
                                  node.inside))
            if node.count == 0 and node.what and not _inside_unreached(node):
                unreached.append(Unreached(line, column, node.what, node.where, node.shown,
                                           node.inside, node.first))
        order = sorted(range(len(statements)), key=lambda i: (statements[i].line, statements[i].column))
        unreached.sort(key=lambda u: (u.line, u.column))
        return tuple(statements[i] for i in order), tuple(parts), tuple(unreached)


def _within(node: _Node, outer: _Node) -> bool:
    """Whether ``node`` lies inside ``outer``."""
    up = node.parent
    while up is not None and up is not outer:
        up = up.parent
    return up is outer


#: An 'else if' just before a statement's column (its ``If`` is placed at the condition).
_ELSE_IF = re.compile(r"(else\s+if)\s*$")
#: What may follow a statement's words before the next statement on its line.
_AFTER = re.compile(r"\s*(?:;|\belse(?:\s+if)?\s*[:{]?)\s*$")


def _trimmed(text: str) -> str:
    """A statement's words without what closes or follows it (``;``, a
    ``}`` closing a block around it, ``else``, ``else if``, ``else {``)."""
    text = text.strip()
    while True:
        before = text
        text = _AFTER.sub("", text).rstrip()
        if text.endswith("}") and text.count("}") > text.count("{"):
            text = text[:-1].rstrip()
        if text == before:
            return text


def _uncommented(text: str) -> str:
    """``text`` without a ``#`` comment (a ``#`` in quotes is text)."""
    quoted = False
    for i, ch in enumerate(text):
        if ch == '"':
            quoted = not quoted
        elif ch == "#" and not quoted:
            return text[:i]
    return text


def _inside_unreached(node: _Node) -> bool:
    """Whether something around ``node`` never ran either (then it is listed, not ``node``)."""
    up = node.parent
    while up is not None:
        if up.count == 0:
            return True
        up = up.parent
    return False


# ------------------------------------------------------------------ playing

class Coverage:
    """A copy of ``game`` (with ``params`` given their values) whose
    rules count what they run: play games on ``self.game`` — random ones
    with ``play``, or your own through ``new_game``/``apply`` — then ask
    for the ``report``.  ``game`` itself is not changed."""

    def __init__(self, game: Game, params: Optional[Mapping[str, Any]] = None) -> None:
        base = game.with_params(params) if params else game
        prog = compile_ruleset(base.ruleset, base.prog.limits)
        self._counter = _Counter(prog)
        #: the game to play: the same rules, counted
        self.game = Game(prog, base.limits)
        self.games = 0
        self.moves = 0
        self.unfinished = 0
        self.players: List[int] = []
        self.errors: List[str] = []
        self.seconds = 0.0
        self.chance = "sample"

    def new_game(self, players: Optional[int] = None, seed: Optional[int] = None,
                 chance: str = "sample", options: Optional[Dict[str, Any]] = None) -> Any:
        """A new game of the counted copy (its log off), counted in the report."""
        self._counter.left.clear()      # (the frames of games before are done with)
        st = self.game.new_game(players=players, seed=seed, chance=chance, options=options,
                                log=False)
        self.games += 1
        self.players.append(st.n)
        self.chance = chance
        return st

    def play(self, games: int = 1000, players: Union[None, int, Sequence[int]] = None,
             seed: int = 0, options: Optional[Dict[str, Any]] = None, chance: str = "sample",
             max_moves: Optional[int] = None) -> None:
        """Play ``games`` games, every decision picked uniformly at random
        (``random.Random(seed + i)`` for game ``i``, whose own seed is
        ``seed + i``; chance outcomes in explicit mode by their
        probabilities), cycling through ``players`` (default: every count
        the game allows).  A game longer than ``max_moves`` (default: the
        ruleset's ``# conformance: max-moves N``, else 10 000) is stopped;
        a runtime error ends its game and is reported."""
        counts = _player_counts(self.game, players)
        bound = max_moves or declared_max_moves(self.game) or DEFAULT_MAX_MOVES
        t0 = time.perf_counter()
        for i in range(games):
            n = counts[i % len(counts)]
            rng = random.Random(seed + i)
            made = 0
            try:
                st = self.new_game(players=n, seed=seed + i, chance=chance, options=options)
                while not st.is_over:
                    if made >= bound:
                        self.unfinished += 1
                        break
                    legal = st.legal_moves()
                    if st.is_chance_node:
                        move = rng.choices(legal, weights=[float(m.probability) for m in legal])[0]
                    else:
                        move = rng.choice(legal)
                    st.apply(move)
                    made += 1
            except RulesetError as e:
                self.errors.append(f"game {i} (seed {seed + i}, {n} players, after {made} "
                                   f"moves): {e.format().splitlines()[0]}")
            self.moves += made
        self.seconds += time.perf_counter() - t0

    def report(self) -> CoverageReport:
        """Every statement and part of the rule file with its count so far."""
        prog = self._counter.prog
        tally = _Tally(self._counter)
        walk = _Walk(prog.rs, prog, tally)
        statements, parts, unreached = walk.results()
        return CoverageReport(
            filename=prog.rs.filename, title=prog.rs.title, games=self.games, moves=self.moves,
            turns=self._counter.started[prog.turn_code], players=tuple(sorted(set(self.players))),
            chance=self.chance, seconds=self.seconds, statements=statements, parts=parts,
            unreached=unreached, unfinished=self.unfinished, errors=tuple(self.errors))


def _player_counts(game: Game, players: Union[None, int, Sequence[int]]) -> List[int]:
    if players is None:
        return list(range(game.min_players, game.max_players + 1))
    counts = [players] if isinstance(players, int) else list(players)
    for n in counts:
        if isinstance(n, bool) or not isinstance(n, int) or \
                not game.min_players <= n <= game.max_players:
            raise ValueError(f"{game.title} is for {game.players_text}, not {n!r}")
    if not counts:
        raise ValueError("players: give at least one player count")
    return counts


def coverage(game: Game, games: int = 1000, players: Union[None, int, Sequence[int]] = None,
             seed: int = 0, params: Optional[Mapping[str, Any]] = None,
             options: Optional[Dict[str, Any]] = None, chance: str = "sample",
             max_moves: Optional[int] = None) -> CoverageReport:
    """Play ``games`` random games of ``game`` (``Coverage.play``: cycling
    through ``players``, default every count it allows; game ``i`` has seed
    ``seed + i``) and report which statements of its rule file ran, how
    often, and which never did (see the module's documentation)."""
    if games < 1:
        raise ValueError(f"games is how many games to play, at least 1, not {games}")
    cov = Coverage(game, params)
    cov.play(games, players=players, seed=seed, options=options, chance=chance,
             max_moves=max_moves)
    return cov.report()
