"""How much work each part of a ruleset does, worked out once when it is
compiled: the constants ``Limits.max_steps`` counts against (``ops.spend``),
so that a frame pays for its statements, dice and questions as it starts
and a loop for its next pass as it jumps back.  Work only known while
playing (a draw from a big pile, a pool's dice) is counted where it
happens, by the ops and by the generated code alike."""

from __future__ import annotations

from typing import Any, Dict, Iterator, List, Optional, Sequence, Set, Tuple, Union

from .. import ir
from ..check.purity import names_read
from ..errors import RulesetCheckError
from . import ops as O
from .kinds import Prog

#: A rule, table or option: ("rule" | "table" | "option", its name).
CodeKey = Tuple[str, str]

#: A loop: what ``loop_pass`` counts a pass of.
Loop = Union[ir.While, ir.Repeat, ir.ForEachPlayer, ir.ForEachPiece, ir.ForEachCard]


class Work:
    """Upper bounds, worked out once from the IR, of the work a part of a
    ruleset does, in the steps that ``Limits.max_steps`` counts (see
    ``ops.spend``): each statement carried out, each value worked out (a
    node of an expression), each die rolled, each card, piece or player a
    question, loop or choice looks at, each value placed in a log line.

    Work is counted before it is done.  ``stmts`` is one run through some
    statements: with, for a loop, its head, the things a 'for each' looks
    at and its first pass (each jump back then counts the next pass,
    ``loop_pass``), and for a rule, table or option called, its own work
    (``code``) -- unless the callee is big (``INLINE``) or can call back
    into the caller (rules that recurse): such a call counts its callee's
    work when it starts (``dynamic``; ``Program.push_cost``), as do
    reactions, 'on draw' rules and rows chosen.  Of two ways (the sides of an 'if', the rows of a
    table) the larger counts.  Work known only while playing (cards drawn,
    dice of a pool) is counted by the ops as it comes."""

    #: Bounds past any limit (a chain of rules each calling the next twice
    #: would otherwise make numbers of thousands of digits).
    CAP = 1 << 100

    #: A callee of at most this much work is counted with its caller's (no
    #: count at run time); a bigger one when it starts, as it may well not
    #: be called at all (a rule called on one side of an 'if').
    INLINE = 1000

    def __init__(self, prog: Prog) -> None:
        rs = prog.rs
        self.prog = prog
        self.players = max(rs.max_players, 1)
        self.cards = sum(ir.copies(c, rs) for d in rs.decks for c in d.cards)
        self.pieces = {ps.name: len(ir.pieces_of(ps, rs)) for ps in rs.pieces}
        self.memo: Dict[int, int] = {}
        self.reroll = 0
        self.reroll = self.expr(rs.reroll.cond) if rs.reroll is not None else 0
        #: stat name -> the 'whenever' questions a change of it asks (each twice)
        self.watch: Dict[str, int] = {}
        for trig in rs.triggers:
            asked = 2 * self.expr(trig.cond)
            for name in names_read(trig.cond, {r.name: r for r in rs.rules}):
                self.watch[name] = self.watch.get(name, 0) + asked
        turn = rs.turn
        self.first = self.expr(turn.first) if turn is not None else 0
        #: ("rule" | "table" | "option", name) -> the work of one run of it
        self.code: Dict[CodeKey, int] = {}
        #: ids of the calls that count their callee's work as it starts
        self.dynamic: Set[int] = set()
        self.calls()

    # ------------------------------------------------------------ calls

    def calls(self) -> None:
        """``code`` for every rule, table and option, callees first; the
        calls within a group of codes that can call each other (found as
        strongly connected components, Tarjan's way, without recursion)
        go in ``dynamic``."""
        rs = self.prog.rs
        bodies: Dict[CodeKey, List[Tuple[ir.Stmt, ...]]] = {}
        for r in rs.rules:
            bodies[("rule", r.name)] = [r.body]
        for t in rs.tables:
            bodies[("table", t.name)] = [row.body for row in t.rows]
        for o in rs.options:
            bodies[("option", o.name)] = [c.body for c in o.choices]
        calls = {key: [(id(s), callee) for body in parts for s in _statements(body)
                       if (callee := _callee(s)) in bodies]
                 for key, parts in bodies.items()}
        index: Dict[CodeKey, int] = {}
        low: Dict[CodeKey, int] = {}
        on_stack: Set[CodeKey] = set()
        stack: List[CodeKey] = []
        n = 0
        for root in bodies:
            if root in index:
                continue
            work = [(root, iter(calls[root]))]
            index[root] = low[root] = n
            n += 1
            stack.append(root)
            on_stack.add(root)
            while work:
                key, edges = work[-1]
                for _, callee in edges:
                    if callee not in index:
                        index[callee] = low[callee] = n
                        n += 1
                        stack.append(callee)
                        on_stack.add(callee)
                        work.append((callee, iter(calls[callee])))
                        break
                    if callee in on_stack:
                        low[key] = min(low[key], index[callee])
                else:
                    work.pop()
                    if work:
                        parent = work[-1][0]
                        low[parent] = min(low[parent], low[key])
                    if low[key] == index[key]:      # a group, all its callees done
                        group = set()
                        while True:
                            member = stack.pop()
                            on_stack.discard(member)
                            group.add(member)
                            if member == key:
                                break
                        for member in group:
                            self.dynamic.update(call for call, callee in calls[member]
                                                if callee in group)
                        for member in group:
                            kind, name = member
                            if kind == "rule":
                                w = self.stmts(bodies[member][0])
                            elif kind == "table":
                                w = self.table(self.prog.tables[name])
                            else:
                                w = self.choices(self.prog.options[name].choices)
                            self.code[member] = w

    # ------------------------------------------------------------ values

    def expr(self, e: Optional[ir.Expr]) -> int:
        if e is None:
            return 0
        w = self.memo.get(id(e))
        if w is None:
            w = self.memo[id(e)] = min(self._expr(e), self.CAP)
        return w

    def _expr(self, e: Any) -> int:     # (an ir.Expr: its type is tested, which mypy does not narrow by)
        t, expr = type(e), self.expr
        if t is ir.Roll:                # its dice, its log entry, the reroll question
            return 1 + O.LOG + e.count * O.DIE + self.reroll
        if t is ir.RollOff:             # (its dice count as they are rolled)
            return 1 + O.LOG
        if t in (ir.CountCards, ir.SumCards):
            return 1 + self.cards
        if t is ir.PieceQuery:
            return 1 + self.pieces.get(e.pieces, 0) * (1 + expr(e.cond))
        if t is ir.PieceExtreme:
            return 1 + self.pieces.get(e.pieces, 0) * (1 + expr(e.cond) + expr(e.value))
        if t is ir.Distance:            # (a walk over at most the whole board)
            return 1 + max(self.pieces.values(), default=0) * (1 + expr(e.through))
        if t in (ir.InARow, ir.Farthest, ir.Connected):     # (at most a board of spaces)
            return 1 + max(self.pieces.values(), default=0) * (1 + expr(e.cond) + (
                expr(e.goal) if t is ir.Connected else 0))
        if t is ir.PlayerQuery:
            return 1 + self.players * (1 + expr(e.cond))
        if t is ir.Extreme:
            return 1 + self.players * (1 + expr(e.value) + expr(e.cond))
        if t is ir.PlayerAfter and e.cond is not None:
            return 1 + expr(e.player) + self.players * (1 + expr(e.cond))
        # (a pool's dice, and those a pool question looks at, are counted
        # as they are rolled and looked at)
        return 1 + sum(expr(c) for c in ir.children(e))

    # ------------------------------------------------------------ statements

    def stmts(self, stmts: Sequence[ir.Stmt]) -> int:
        return min(sum(self.stmt(s) for s in stmts), self.CAP)

    def stmt(self, s: ir.Stmt) -> int:
        w = self.memo.get(id(s))
        if w is None:
            w = self.memo[id(s)] = min(self._stmt(s), self.CAP)
        return w

    def _stmt(self, s: Any) -> int:     # (an ir.Stmt: as _expr's)
        t, expr, stmts = type(s), self.expr, self.stmts
        if t is ir.Assign:
            return 1 + expr(s.value) + self.watch.get(s.target.name, 0)
        if t is ir.If:
            return 1 + expr(s.cond) + max(stmts(s.then), stmts(s.orelse))
        if t is ir.While:
            return 1 + expr(s.cond) + self.loop_pass(s)
        if t is ir.Repeat:
            return 1 + expr(s.times) + self.loop_pass(s)
        if t is ir.ForEachPlayer:
            return 1 + self.first + self.players * (1 + expr(s.cond)) + self.loop_pass(s)
        if t is ir.ForPlayer:
            return 1 + expr(s.player) + stmts(s.body)
        if t is ir.ForEachPiece:
            return 1 + self.pieces.get(s.pieces, 0) * (1 + expr(s.cond)) + self.loop_pass(s)
        if t is ir.ForEachCard:
            return 1 + self.cards * (1 + expr(s.cond)) + self.loop_pass(s)
        if t in (ir.ChoosePiece, ir.PickPiece):
            return 1 + O.LOG + self.pieces.get(s.pieces, 0) * (1 + expr(s.cond))
        if t is ir.ChooseCard:
            return 1 + self.cards * (1 + expr(s.cond))
        if t in (ir.MoveAll, ir.MoveCards, ir.MoveCard):
            return 1 + self.cards
        if t is ir.Draw:    # the cards of a small pile (a big one counts as it starts)
            few = min(self.cards, O.FEW_CARDS)
            drawn = min(s.count.value, few) if isinstance(s.count, ir.Num) else few
            return 1 + O.LOG + expr(s.count) + O.draw_work(drawn, few, self.per_card(s.source.name))
        if t is ir.Test:    # the die and its log entry, the test's
            return 2 + 2 * O.LOG + O.DIE + self.reroll + expr(s.target)
        if t is ir.ChooseOne:
            return 1 + sum(expr(c.cond) for c in s.choices) + self.choices(s.choices)
        if t is ir.May:
            return 1 + max(stmts(s.body), stmts(s.orelse))
        if t is ir.Log:     # the entry, and each value placed in it
            return 1 + O.LOG + O.SHOWN * sum(1 for p in ir.log_parts(s.text) if not isinstance(p, str))
        w = 1 + sum(expr(c) for c in ir.children(s))
        callee = _callee(s)
        if callee is not None and id(s) not in self.dynamic:
            if self.code.get(callee, 0) > self.INLINE:
                self.dynamic.add(id(s))
            else:
                w += O.CALL + self.code.get(callee, 0)
        if t is ir.EndGame:
            w += O.LOG
        return w

    def choices(self, choices: Sequence[ir.Choice]) -> int:
        return max((self.stmts(c.body) for c in choices), default=0)

    def per_card(self, deck: str) -> int:
        """The work of each card drawn from ``deck``: the card (and its log
        entry), and the questions of the deck's 'on draw' rules about it."""
        return O.CARD + sum(self.expr(dt.cond) for dt in self.prog.rs.draw_triggers
                            if dt.deck == deck)

    def loop_pass(self, s: Loop) -> int:
        """One more pass of loop ``s``: its body, and a while's question."""
        head = self.expr(s.cond) if isinstance(s, ir.While) else 0
        return min(1 + head + self.stmts(s.body), self.CAP)

    def table(self, t: ir.Table) -> int:
        """A roll on table ``t``: the die, finding the row, the row (and
        their log entries)."""
        return 3 + 2 * O.LOG + O.DIE + self.reroll + \
            max((2 + self.stmts(row.body) for row in t.rows), default=0)

    def turn(self, turn: Optional[ir.Turn]) -> int:
        """The phases of a turn (each logged)."""
        return 0 if turn is None else sum(1 + O.LOG + self.stmts(ph.body) for ph in turn.phases)

    # ------------------------------------------------------------ the program

    def finish(self) -> None:
        """Once every code is built: what a frame of each code counts when
        it starts (``push_cost``: its statements and its locals), what a
        turn counts (its frame, the end conditions asked before it and at a
        round's start, the turn's values, the 'when' of its seat), what a
        seat passed over counts; and the values a state of the program can
        hold, against ``Limits.max_values``."""
        prog, rs, expr = self.prog, self.prog.rs, self.expr
        prog.push_cost = [min(O.FRAME + n + w, self.CAP) for n, w in zip(prog.nlocals, prog.code_work)]
        endings = sum(expr(e.cond) for e in rs.endings)
        when = expr(rs.turn.when) if rs.turn is not None else 0
        prog.turn_cost = min(O.TURN + O.LOG + prog.push_cost[prog.turn_code] + 2 * endings
                             + self.first + when + sum(expr(s.initial) for s in prog.turn_stats),
                             self.CAP)
        prog.idle_cost = 1 + when + endings + self.first
        self.memo = {}
        self.values()

    def values(self) -> None:
        prog, rs, lim = self.prog, self.prog.rs, self.prog.limits
        per_player, players = prog.K, rs.max_players
        fixed = len(prog.global_stats) + len(prog.piece_init)
        most = max(range(len(prog.codes)), key=prog.nlocals.__getitem__)
        frames = lim.max_depth * (3 + prog.nlocals[most])
        total = per_player * players + fixed + self.cards + frames
        if total <= lim.max_values:
            return
        pos = (prog.code_pos[most] if frames >= per_player * players else rs.players_pos) \
            or ir.Pos(1, 1)
        raise RulesetCheckError.at(
            rs.filename, pos.line, pos.column,
            f"a state of this game can hold {total} values ({per_player} stats per player × "
            f"{players} players, {fixed} global and piece values, {self.cards} cards, and "
            f"{lim.max_depth} rules called inside each other × {3 + prog.nlocals[most]} values "
            f"of {prog.code_names[most]}); the limit is {lim.max_values} (Limits.max_values)",
            rs.source)


def _statements(body: Sequence[ir.Stmt]) -> Iterator[ir.Stmt]:
    """Every statement in ``body``, those nested in its statements too."""
    stack = list(reversed(body))
    while stack:
        s = stack.pop()
        yield s
        if isinstance(s, ir.ChooseOne):
            for c in reversed(s.choices):
                stack.extend(reversed(c.body))
            continue
        for name in ("orelse", "then", "body"):
            inner = getattr(s, name, None)
            if isinstance(inner, tuple):
                stack.extend(reversed(inner))


def _callee(node: Any) -> Optional[CodeKey]:
    """The code a statement calls at once: ("rule" | "table" | "option", name), or None."""
    t = type(node)
    if t is ir.Call:
        return ("rule", node.rule)
    if t is ir.RollOn:
        return ("table", node.table)
    if t is ir.ChooseOption:
        return ("option", node.option)
    return None
