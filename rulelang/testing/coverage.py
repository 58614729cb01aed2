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

import collections
import random
import re
import time
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

from ..engine import Game, compile_ruleset, codegen
from ..engine import ops as O
from ..engine.kinds import Fn, Frame, St
from ..engine.program import Program
from ..errors import RulesetError
from .conformance import declared_max_moves
from .coverage_report import CoverageReport, Key, Part, Statement, Unreached, build
from .coverage_report import key_of as _key
from .report import DEFAULT_MAX_MOVES

__all__ = ["Coverage", "CoverageReport", "Part", "Statement", "Unreached", "coverage"]

#: What picks a decision's move: ``policy(state, legal_moves, rng)``.
Policy = Callable[[Any, List[Any], random.Random], Any]

#: The comment before each statement and op of generated code (``codegen.at_line``).
_MARK = re.compile(r"^(\s*)#(?: line \d+)? \[(\d+)\]$")


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


def _hitter(hits: Any) -> Callable[[int], None]:
    """``_cov_hit(k)``: count place ``k`` (in an ``elif``'s condition)."""

    def hit(k: int) -> None:
        hits[k] += 1
    return hit


def _counting_maker(hits: List[int]) -> Callable[[O.PureOp], Fn]:
    """What makes a ``PureOp``'s function with counters (``_with_counters``)
    into ``hits``, made the first time the op runs, as ``pure_function``."""
    hit = _hitter(hits)

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
        #: each rule that only works out a value (called inline, not as a
        #: frame: ``engine.values``): (it, its counters by place index; -1
        #: counts its calls)
        self.values: List[Tuple[Any, Dict[int, int]]] = []
        for name in sorted(prog.resolved.pure_rules):
            value = prog.value_rule(name)
            counts: Dict[int, int] = collections.defaultdict(int)
            value.rewrite = lambda lines: ["_cov_hits[-1] += 1"] + _with_counters(lines)
            value.extra = {"_cov_hits": counts, "_cov_hit": _hitter(counts)}
            value.fn = None
            value.make()
            self.values.append((value, counts))
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
        #: rule code -> the times it was called inline for its value
        self.value_calls: Dict[int, int] = {}
        for value, counts in counter.values:
            for m in map(_MARK.match, value.lines):
                if m is not None:
                    i = int(m.group(2))
                    key = _key(value.wheres[i][1]) if i < len(value.wheres) else None
                    if key is not None:
                        self.marked[key] = self.marked.get(key, 0) + counts[i]
            self.value_calls[prog.rule_code[value.rule.name]] = counts[-1]
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
        hooks = {code for found in prog.draw_hooks.values() for _, code in found}
        for c in prog.trigger_codes | hooks:
            key = _key(prog.code_pos[c])
            if key is not None:
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
        if code is None:
            return None
        return self.counter.started[code] + self.value_calls.get(code, 0)


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
        self.game.keeps_first_positions = False     # (each game's setup is counted)
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
             max_moves: Optional[int] = None, policy: Optional[Policy] = None) -> None:
        """Play ``games`` games, every decision picked uniformly at random
        (``random.Random(seed + i)`` for game ``i``, whose own seed is
        ``seed + i``; chance outcomes in explicit mode by their
        probabilities), or by ``policy(state, legal_moves, rng)`` when one
        is given (a player that seeks out what random play seldom
        reaches), cycling through ``players`` (default: every count the
        game allows).  A game longer than ``max_moves`` (default: the
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
                    elif policy is not None:
                        move = policy(st, legal, rng)
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
        statements, parts, unreached = build(prog.rs, prog.rule_code, prog.table_code,
                                             prog.option_code, tally)
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
             max_moves: Optional[int] = None, policy: Optional[Policy] = None) -> CoverageReport:
    """Play ``games`` random games of ``game`` (``Coverage.play``: cycling
    through ``players``, default every count it allows; game ``i`` has seed
    ``seed + i``) and report which statements of its rule file ran, how
    often, and which never did (see the module's documentation)."""
    if games < 1:
        raise ValueError(f"games is how many games to play, at least 1, not {games}")
    cov = Coverage(game, params)
    cov.play(games, players=players, seed=seed, options=options, chance=chance,
             max_moves=max_moves, policy=policy)
    return cov.report()

