"""Lowering: a code's statements to ops (those that can wait) and runs of
generated Python (those that cannot, ``statements.PureBlock``); each local
given a slot in the frame."""

from __future__ import annotations

from typing import (TYPE_CHECKING, Any, Dict, FrozenSet, Iterator, List, Optional, Sequence, Set, Tuple,
                    TypeVar, Union)

from .. import ir
from . import codegen
from . import ops as O
from .for_player import lower_for_player, stops_out
from .kinds import CARD, CARDS, COUNT, SEAT, VALUE, Compiled, Fn, Keeper, Kind, Prog, Where
from .ops import LOCALS, PLAYER
from .runtime import compiled, keeper
from .seen import Seen
from .source import Source
from .statements import PURE_NODES, SIMPLE, PureBlock
from .work import Loop

if TYPE_CHECKING:
    from ..check.resolve import Binding

#: What ``Ctx.emit`` takes and gives back: an op.
_Op = TypeVar("_Op", bound=O.Op)


class Ctx(Seen):
    """Compiles the statements of one code (a rule, table, option, phase)."""

    def __init__(self, prog: Prog, code_id: Optional[int], name: str) -> None:
        self.prog = prog
        self.code_id = code_id
        self.code: List[O.Op] = prog.codes[code_id] if code_id is not None else []
        # The places the generated code's ``at_line`` comments name by index.
        self.wheres: List[Where] = prog.code_wheres[code_id] if code_id is not None else []
        self.name = name
        self.locals: Dict[str, int] = {}
        self.nlocals = 0
        # stack of (breaks: [ops], work slots, restore slot)
        self.loops: List[Tuple[List[O.ClearOp], List[int], Optional[int]]] = []
        self.hoisted: Dict[int, int] = {}
        self.piece_locals: Dict[str, str] = {}   # local name -> piece set it holds
        self.card_locals: Set[str] = set()  # locals that hold one card
        self.chosen_locals: Set[str] = set()  # locals that hold chosen cards ('choose N cards … as')
        #: local -> [source of who may see the cards it holds or was made
        #: from (``visibility``)]; [] when everyone may (a log line naming
        #: them is for those only: ``PureBlock.log``).  A card local missing here: nobody.
        self.card_from: Dict[str, List[str]] = {}
        self.card_scope: List[str] = []     # slots of the card in scope in a 'where'
        self.piece_scope: List[Tuple[str, str]] = []    # (piece set, slot) of the piece in scope in a 'where'

    # ------------------------------------------------------------ plumbing

    def where(self, node: object) -> Where:
        return (self.name, getattr(node, "pos", None))

    def emit(self, op: _Op) -> _Op:
        self.code.append(op)
        return op

    def local(self, name: str, kind: Kind) -> int:
        """The slot of local ``name``, which here gets a value of ``kind``
        (one of ``LOCAL_KINDS``; a name used again may add a kind)."""
        if name not in self.locals:
            self.locals[name] = LOCALS + self.nlocals
            self.nlocals += 1
        slot = self.locals[name]
        self.holds(slot, kind)
        return slot

    def temp(self, kind: Kind) -> int:
        """A new slot for the machine's own use, holding values of ``kind``."""
        slot = LOCALS + self.nlocals
        self.nlocals += 1
        self.holds(slot, kind)
        return slot

    def holds(self, slot: int, kind: Kind) -> None:
        """Record that local ``slot`` of this code may hold a ``kind`` of
        value (``Program.local_kinds``: what a restored state is checked
        against)."""
        if self.code_id is None:
            return
        kinds = self.prog.local_kinds[self.code_id]
        i = slot - LOCALS
        if len(kinds) <= i:
            kinds.extend(() for _ in range(i + 1 - len(kinds)))
        if kind not in kinds[i]:
            kinds[i] += (kind,)

    def params(self, rule: ir.Rule) -> None:
        """The values rule ``rule`` takes, as its first locals."""
        for param in rule.params:
            self.local(param.name, _PARAM_KINDS.get(param.type) or ("piece", param.type))
            if param.type in self.prog.piece_sets:
                self.piece_locals[param.name] = param.type
            elif param.type == "card":
                self.card_locals.add(param.name)
                self.card_from[param.name] = ["_NOBODY"]   # where it is from is not known here

    def done(self) -> None:
        if self.code_id is not None:
            self.prog.nlocals[self.code_id] = max(self.prog.nlocals[self.code_id], self.nlocals)

    def finish(self, stmts: Sequence[ir.Stmt]) -> None:
        self.block(stmts)
        self.done()

    # ---------------------------------------------------------- statements

    def block(self, stmts: Sequence[ir.Stmt]) -> None:
        """Compile statements; a run of them that can never wait (no dice,
        no draws, no choices, no calls) becomes one op (see ``PureBlock``),
        of at most ``PURE_NODES`` IR nodes (so that no generated function
        is huge: a longer run is several ops)."""
        run: List[ir.Stmt] = []
        nodes = 0
        for s in stmts:
            if self.pure(s, 0, 0):
                size = self.size(s)
                if nodes + size > PURE_NODES:
                    self.flush(run)
                    run, nodes = [], 0
                run.append(s)
                nodes += size
                continue
            self.flush(run)
            run, nodes = [], 0
            self.stmt(s)
        self.flush(run)

    def size(self, s: ir.Stmt) -> int:
        """The IR nodes in statement ``s``: worked out in one pass for a
        statement and every statement inside it, kept for the program."""
        sizes = self.prog.stmt_sizes
        found = sizes.get(id(s))
        if found is None:
            order: List[Tuple[Any, List[Any]]] = []
            stack: List[Any] = [s]
            while stack:
                node = stack.pop()
                kids = ir.child_list(node)
                order.append((node, kids))
                stack.extend(kids)
            total: Dict[int, int] = {}
            hoisting = self.prog.hoisting
            made_first = self.made_first
            for node, kids in reversed(order):
                n = 1
                hoists = False
                for c in kids:
                    c_id = id(c)
                    n += total[c_id]
                    if c_id in hoisting:
                        hoists = True
                key = id(node)
                total[key] = n
                if type(node) in _STMT_SET:
                    sizes[key] = n
                if hoists or type(node) in _MAYBE_MADE_FIRST and made_first(node):
                    hoisting.add(key)
            found = sizes[id(s)]
        return found

    def hoists(self, node: Any) -> bool:
        """Whether a part of ``node`` is made first (``made_first``): known
        for every node inside a statement once ``size`` has measured it, so
        nested statements are not walked again at every level."""
        return id(node) in self.prog.hoisting

    def flush(self, run: List[ir.Stmt]) -> None:
        if run:
            self.emit(self.pure_op(run))

    def pure(self, s: ir.Stmt, loops: int, depth: int) -> bool:
        """Whether ``s`` runs straight through: only value changes, moves of
        cards, logs and skips, under if / while / repeat (with 'stop' only
        inside such a loop), and not nested too deep for generated code."""
        # ``loops`` counts the Python blocks (for, while, try) the generated
        # code nests: Python allows 20, and the code's function uses 2.
        if depth > 40 or loops > 14 or self.size(s) > PURE_NODES:
            return False
        if isinstance(s, ir.Stop):
            return loops > 0
        if isinstance(s, (ir.Assign, ir.Let, ir.Log, ir.Skip, ir.MoveAll, ir.MoveCards,
                          ir.MoveCard, ir.Spend, ir.Reveal)):
            if self.hoists(s):
                return False
            return not (isinstance(s, ir.Assign) and self.watched(s))
        if isinstance(s, ir.If):
            if self.hoists(s.cond):
                return False
            elif_ = len(s.orelse) == 1 and isinstance(s.orelse[0], ir.If)
            return all(self.pure(x, loops, depth + 1) for x in s.then) and \
                all(self.pure(x, loops, depth if elif_ else depth + 1) for x in s.orelse)
        if isinstance(s, (ir.While, ir.Repeat, ir.ForEachPlayer, ir.ForEachPiece, ir.ForEachCard)):
            head = s.times if isinstance(s, ir.Repeat) else s.cond
            if head is not None and self.hoists(head):
                return False
            blocks = 2 if isinstance(s, ir.ForEachPlayer) and not s.var else 1
            return all(self.pure(x, loops + blocks, depth + 3) for x in s.body)
        if isinstance(s, ir.ForPlayer):
            # (an 'if' and a 'try' in Python, not a loop: a 'stop' in it
            # needs a loop around it in the same generated code)
            if self.hoists(s.player) or (loops == 0 and stops_out(s.body)):
                return False
            return all(self.pure(x, loops + 2, depth + 3) for x in s.body)
        return False

    def made_first(self, node: object) -> bool:
        """Whether expression part ``node`` is made by an op of its own
        before its expression is worked out (``hoist``): a roll, or the
        value of a rule that does more than work it out."""
        if isinstance(node, ir.RuleValue):
            return node.rule not in self.prog.resolved.pure_rules
        return isinstance(node, _MADE_FIRST)

    def watched(self, s: ir.Assign) -> bool:
        """Whether assigning ``s`` may set off a 'whenever' (then it is an op
        of its own, which can start the reaction)."""
        name = s.target.name
        if isinstance(s.target, ir.Attr) and s.target.obj in self.piece_locals:
            return False
        trig = self.prog.trigger_conds.get(name)
        is_stat = name in self.prog.pslot or name in self.prog.gslot
        return bool(trig and is_stat and not (isinstance(s.target, ir.Name) and name in self.locals))

    def stmt(self, s: ir.Stmt) -> None:
        if not isinstance(s, ir.While):   # a while rolls anew before each test
            self.hoist(s)
        if isinstance(s, ir.Assign) and self.watched(s):
            self.trigger_assign(s)
        elif isinstance(s, SIMPLE):
            self.flush([s])
        else:
            getattr(self, "s_" + type(s).__name__)(s)

    def hoist(self, s: ir.Stmt) -> None:
        """Rolls inside a statement's expressions are made first, each into
        a local, by ops of their own (so they can wait for chance)."""
        seen = None     # a roll into a hidden or secret stat is seen as the stat is
        if isinstance(s, ir.Assign):
            hidden = self.stat_sight(s.target)
            if hidden is not None:
                key, owner, sight = hidden
                seen = compiled(f"_stat_seen_by(st, {key}, {owner}, {sight!r}, False)",
                                self.prog.gen_env)
        self.size(s)        # (what in ``s`` is made first: ``hoists``)
        for node in _expressions_of(s):
            if not self.hoists(node):
                continue        # nothing in it is made first
            for roll in _rolls_in(node, self.prog.resolved.pure_rules):
                if id(roll) in self.hoisted:
                    continue
                if isinstance(roll, ir.RuleValue):      # a rule's value, worked out first
                    slot = self.temp(VALUE)
                    self.hoisted[id(roll)] = slot
                    op = self.emit(O.CallOp(self.where(roll), self.prog.rule_code[roll.rule],
                                            dynamic=True, result=slot))
                    op.args = tuple(self.expr(a) for a in roll.args)
                    continue
                if isinstance(roll, ir.Roll):
                    slot = self.temp(("roll", roll.count, roll.sides))
                elif isinstance(roll, ir.Pool):
                    slot = self.temp(("dice", roll.sides))
                else:
                    slot = self.temp(SEAT)
                self.hoisted[id(roll)] = slot
                if isinstance(roll, ir.Roll):
                    self.emit(O.RollOp(self.where(roll), roll.count, roll.sides, slot,
                                       f"{roll.count if roll.count > 1 else ''}d{roll.sides}",
                                       seen))
                elif isinstance(roll, ir.Pool):
                    count = self.expr(roll.count)
                    work = self.temp(("pool-work", len(self.code), roll.sides))
                    self.emit(O.PoolOp(self.where(roll), count, roll.sides, slot, work, seen))
                else:
                    work = self.temp(("roll-off", len(self.code), roll.sides))
                    self.emit(O.RollOffOp(self.where(roll), roll.sides, slot, work))

    def statements_function(self, stmts: Sequence[ir.Stmt]) -> Fn:
        """fn(st, fr) carrying out statements that never wait (``PureBlock``)."""
        return self.pure_op(stmts).call

    def pure_op(self, stmts: Sequence[ir.Stmt]) -> O.PureOp:
        return O.PureOp(self.where(stmts[0]), PureBlock(self).lines_of(stmts), self.wheres,
                        self.prog.gen_env, codegen.pure_function)

    def trigger_assign(self, s: ir.Assign) -> None:
        """An assignment to a stat a 'whenever' watches: an op of its own,
        which starts the reaction when its condition becomes true."""
        who = self.player_of(s.target.obj) if isinstance(s.target, ir.Attr) else f"fr[{PLAYER}]"
        self.emit(O.TriggerAssign(self.where(s), compiled(who, self.prog.gen_env),
                                  self.statements_function([s]),
                                  self.prog.trigger_conds[s.target.name]))

    def assign_place(self, s: ir.Assign) -> Tuple[str, Keeper]:
        """(Python source of the place ``s`` assigns, its keeper): the same
        places and bounds as ``assign_fn``, for generated code."""
        t, prog = s.target, self.prog
        big, dice = prog.limits.max_number, prog.limits.max_dice
        if isinstance(t, ir.Name) and t.name in self.locals:
            return f"fr[{self.locals[t.name]}]", keeper(None, None, big, dice)
        held = prog.holder(t.obj) if isinstance(t, ir.Attr) and t.obj not in self.locals else None
        if isinstance(t, ir.Attr) and (t.obj in self.piece_locals or held is not None):
            pset = held or self.piece_locals[t.obj]
            where = f"st.g[{prog.gslot[t.obj]}]" if held else f"fr[{self.locals[t.obj]}]"
            decl = prog.piece_sets[pset].state[prog.piece_slot[pset][t.name]]
            lo = None if decl.min is None else prog.const_value(decl.min)
            hi = None if decl.max is None else prog.const_value(decl.max)
            base, K, k = prog.piece_base[pset], prog.piece_K[pset], prog.piece_slot[pset][t.name]
            return f"st.g[{codegen.slot(where, K, base + k)}]", keeper(lo, hi, big, dice)
        if isinstance(t, ir.Attr) and t.obj in prog.actor_names and t.obj not in self.locals:
            name = f"{t.obj}.{t.name}"
            lo, hi = prog.bounds[name]
            return f"st.g[{prog.gslot[name]}]", keeper(lo, hi, big, dice)
        lo, hi = prog.bounds[t.name]
        keep = keeper(lo, hi, big, dice)
        if prog.stat_decl[t.name].scope == "global":
            return f"st.g[{prog.gslot[t.name]}]", keep
        who = self.player_of(t.obj) if isinstance(t, ir.Attr) else f"fr[{PLAYER}]"
        return f"st.v[{codegen.slot(who, prog.K, prog.pslot[t.name])}]", keep

    def player_of(self, name: str) -> str:
        """Source of the seat that ``name`` holds in ``name.stat``: a local
        (a rule's parameter, a loop's player), else a game stat holding a
        player (the checker allows no other)."""
        if name in self.locals:
            return f"fr[{self.locals[name]}]"
        return f"st.g[{self.prog.gslot[name]}]"

    def s_If(self, s: ir.If) -> None:
        j = self.emit(O.JumpUnless(self.where(s), self.cond_expr(s.cond)))
        self.block(s.then)
        if s.orelse:
            out = self.emit(O.Jump(self.where(s)))
            j.target = len(self.code)
            self.block(s.orelse)
            out.target = len(self.code)
        else:
            j.target = len(self.code)

    def s_Repeat(self, s: ir.Repeat) -> None:
        work = self.temp(("repeat", len(self.code)))
        head = len(self.code)
        op = self.emit(O.CounterOp(self.where(s), work, self.expr(s.times)))
        self._loop_body(s.body, head, [work], None, s)
        op.end = len(self.code)
        self._close_loop()

    def s_While(self, s: ir.While) -> None:
        head = len(self.code)
        self.hoist(s)
        j = self.emit(O.JumpUnless(self.where(s), self.cond_expr(s.cond)))
        self._loop_body(s.body, head, [], None, s)
        j.target = len(self.code)
        self._close_loop()

    def s_ChooseCard(self, s: ir.ChooseCard) -> None:
        var = self.local(s.var, CARD)
        self.card_locals.add(s.var)
        self.card_from[s.var] = self.pile_seen(s.pile)
        pile = self.pile(s.pile)
        # Each kind of card once: copies are alike.
        source = Source(self)
        c = source.temp()
        self.card_scope.append(c)
        try:
            where = "" if s.cond is None else f" if {source.cond(s.cond)}"
        finally:
            self.card_scope.pop()
        kinds = f"sorted(st.piles[{pile.src}])" if O.cards_distinct(self.prog) \
            else f"sorted(set(st.piles[{pile.src}]))"
        matching = compiled(f"[{c} for {c} in {kinds}{where}]" if where else kinds,
                            self.prog.gen_env)
        self.emit(O.ChooseOneOfOp(self.where(s), matching, lambda st, c: st.prog.card_labels[c],
                                  var, s.prompt or "choose a card",
                                  prefix=f"{s.prompt}: " if s.prompt else "", pile=pile,
                                  secret=s.secret, guard=self.prog.chooser_may_not_see(s.pile)))

    def s_ForEachCard(self, s: ir.ForEachCard) -> None:
        var = self.local(s.var, CARD)
        self.card_locals.add(s.var)
        self.card_from[s.var] = self.pile_seen(s.pile)
        self.card_scope.append(f"fr[{var}]")
        cond = self.cond_expr(s.cond) if s.cond is not None else None
        self.card_scope.pop()
        work = self.temp(("each-card", len(self.code)))
        head = len(self.code)
        op = self.emit(O.ForEachCardOp(self.where(s), work, var, self.pile(s.pile), cond))
        self._loop_body(s.body, head, [work], None, s)
        op.end = len(self.code)
        self._close_loop()

    def s_ForEachPiece(self, s: ir.ForEachPiece) -> None:
        var = self.local(s.var, ("piece", s.pieces))
        self.piece_locals[s.var] = s.pieces
        n = len(self.prog.piece_names[s.pieces])
        # (over the pieces a table says may meet the 'where', then the rest of it)
        among, where, _ = Source(self).looked_at(s.pieces, f"fr[{var}]", s.cond, s.body, resumed=True)
        looked_at = None if among == f"range({n})" else compiled(among, self.prog.gen_env)
        cond = compiled(where[len(" if "):], self.prog.gen_env) if where else None
        work = self.temp(("each-piece", len(self.code)))
        head = len(self.code)
        op = self.emit(O.ForEachPieceOp(self.where(s), work, var, n, cond, looked_at))
        self._loop_body(s.body, head, [work], None, s)
        op.end = len(self.code)
        self._close_loop()

    def s_ChoosePiece(self, s: ir.ChoosePiece) -> None:
        var = self.local(s.var, ("piece", s.pieces))
        self.piece_locals[s.var] = s.pieces
        matching = self.pieces_matching(s.pieces, s.cond, var if _names(s.cond, s.var) else None)
        names = self.prog.piece_names[s.pieces]
        self.emit(O.ChooseOneOfOp(self.where(s), matching, lambda st, i: names[i], var,
                                  s.prompt or f"choose from {s.pieces}"))

    def s_ForEachPlayer(self, s: ir.ForEachPlayer) -> None:
        work, saved = self.temp(("each-player", len(self.code))), self.temp(SEAT)
        var = self.local(s.var, SEAT) if s.var else None
        cond = self.cond_expr(s.cond) if s.cond is not None else None
        head = len(self.code)
        op = self.emit(O.ForEachOp(self.where(s), work, saved, var, s.other, cond))
        self._loop_body(s.body, head, [work], saved, s)
        op.end = len(self.code)
        self._close_loop()

    def s_ForPlayer(self, s: ir.ForPlayer) -> None:
        lower_for_player(self, s)

    def _loop_body(self, body: Sequence[ir.Stmt], head: int, work: List[int], restore: Optional[int],
                   loop: Loop) -> None:
        self.loops.append(([], work, restore))
        self.block(body)
        # The jump back counts the work of the next pass.
        self.emit(O.Jump(self.where(loop), head, self.prog.work.loop_pass(loop)))

    def _close_loop(self) -> None:
        breaks, _, _ = self.loops.pop()
        for b in breaks:
            b.target = len(self.code)

    def s_Stop(self, s: ir.Stop) -> None:
        breaks, work, restore = self.loops[-1]
        breaks.append(self.emit(O.ClearOp(self.where(s), work, restore)))

    def s_RollOn(self, s: ir.RollOn) -> None:
        self.emit(O.CallOp(self.where(s), self.prog.table_code[s.table],
                           dynamic=id(s) in self.prog.work.dynamic))

    def s_Test(self, s: ir.Test) -> None:
        test = self.prog.rs.test
        slot = self.temp(("roll", 1, test.sides))
        self.emit(O.RollOp(self.where(s), 1, test.sides, slot,
                           f"test of {s.target.name}" if isinstance(s.target, ir.Name) else "test"))
        under = test.op in ("<=", "<", "==")
        what = s.target.name if isinstance(s.target, ir.Name) else "a test"
        src = Source(self)
        roll, t, passed, margin = src.temp(), src.temp(), src.temp(), src.temp()
        self.line_op(s, f"{roll} = fr[{slot}]", f"{t} = {src.src(s.target)}",
                     f"{passed} = {roll} {codegen.operator(test.op)} {t}",
                     f"{margin} = {roll} - {t}" if under else f"{margin} = {t} - {roll}",
                     f"st.test = ({passed}, {margin})", "if st.logging:",
                     f"    _note_test(st, fr[{PLAYER}], {src.const(what)}, {roll}, {t}, {passed}, "
                     f"{margin})")

    def pile(self, ref: ir.PileRef) -> Compiled:
        """fn(st, fr) -> the index in ``st.piles`` of the pile ``ref`` names."""
        return compiled(self.pile_src(ref), self.prog.gen_env)

    def pile_src(self, ref: ir.PileRef) -> str:
        """Python source of the index of a pile in ``st.piles`` (``Source.pile``)."""
        return Source(self).pile(ref)

    def line_op(self, node: object, *lines: str) -> O.PureOp:
        """An op doing some lines of generated Python (about ``node``)."""
        self.wheres.append(self.where(node))
        return self.emit(O.PureOp(self.where(node), [codegen.at_line(len(self.wheres) - 1,
                                                                     self.where(node)), *lines],
                                  self.wheres, self.prog.gen_env, codegen.pure_function))

    def s_Draw(self, s: ir.Draw) -> None:
        work = self.temp(COUNT)
        src = Source(self)
        hooks = self.prog.draw_hooks.get(s.source.name, ())
        # Each card drawn is work, and so is asking the deck's 'on draw'
        # rules about it (``ops.draw_work``): from a pile of more than
        # FEW_CARDS cards counted here, for the cards it holds; from a
        # smaller one, in the statement's work (``Work``).  A refill counts
        # again, in the draw.
        per_card = self.prog.work.per_card(s.source.name)
        lines = [f"fr[{work}] = {src.src(s.count)}"]
        if self.prog.work.cards > O.FEW_CARDS:
            n = src.temp()
            lines += [f"if ({n} := len(st.piles[{self.pile_src(s.source)}])) > {O.FEW_CARDS}:",
                      f"    st.steps += {src.const(O.draw_work)}(fr[{work}], {n}, {per_card})",
                      "    if st.steps > _lim:",
                      f"        raise RuleFault({src.const(O.RUNAWAY)} % _lim)"]
        self.line_op(s, *lines)
        refill = self.prog.refill.get(s.source.name)
        refill_i = None if refill is None else \
            self.pile(ir.PileRef(refill, s.source.owner, s.source.pos))   # a player's own, for theirs
        op = self.emit(O.DrawOp(self.where(s), work, self.pile(s.source), self.pile(s.dest), refill_i,
                                per_card=per_card))
        op.hooks = tuple(hooks)

    def s_ChooseCards(self, s: ir.ChooseCards) -> None:
        slot = self.local(s.var, CARDS)
        self.chosen_locals.add(s.var)
        self.card_from[s.var] = self.pile_seen(s.pile)
        op = self.emit(O.ChooseCardsOp(self.where(s), self.expr(s.low), self.expr(s.high),
                                       self.pile(s.pile), slot, s.prompt or s.var))
        op.fixed = isinstance(s.low, ir.Num) and isinstance(s.high, ir.Num)
        op.guard = self.prog.chooser_may_not_see(s.pile)

    def choices(self, choose: O.ChooseOneOp, choices: Sequence[ir.Choice]) -> None:
        ends: List[O.Jump] = []
        for c in choices:
            choose.targets.append(len(self.code))
            self.block(c.body)
            ends.append(self.emit(O.Jump(self.where(c))))
        for j in ends:
            j.target = len(self.code)

    def s_ChooseOne(self, s: ir.ChooseOne) -> None:
        choose = self.emit(O.ChooseOneOp(self.where(s), [c.label for c in s.choices], [],
                                         s.prompt or "choose", secret=s.secret))
        if any(c.cond is not None for c in s.choices):
            # (one function asks every condition: the choices offered now)
            source = Source(self)
            asks = ", ".join("True" if c.cond is None else source.cond(c.cond) for c in s.choices)
            choose.conds = compiled(f"[*_compress(range({len(s.choices)}), ({asks},))]",
                                    self.prog.gen_env)
        self.choices(choose, s.choices)
        choose.end = len(self.code)

    def s_ChooseOption(self, s: ir.ChooseOption) -> None:
        self.emit(O.CallOp(self.where(s), self.prog.option_code[s.option],
                           dynamic=id(s) in self.prog.work.dynamic))

    def s_ChooseRow(self, s: ir.ChooseRow) -> None:
        table = self.prog.tables[s.table]
        rows: List[ir.Row] = []
        for row in table.rows:
            if row.high < s.low or row.low > s.high:
                continue
            rows.append(row)
        # Row starts are known once the table is built; resolve lazily.
        prog = self.prog
        op = O.ChooseRowOp(self.where(s), prog.table_code[s.table], None, f"choose on {s.table}")
        self.emit(op)
        lo, hi = s.low, s.high

        def resolve(op: O.ChooseRowOp = op, name: str = s.table, lo: int = lo, hi: int = hi) -> None:
            rows = [(label, max(low, lo), start) for label, low, high, start in prog.table_rows[name]
                    if high >= lo and low <= hi]
            seen = [label for label, _, _ in rows]
            op.rows = [(label if seen.count(label) == 1 else f"{label} ({value})", value, start)
                       for label, value, start in rows]
        prog.after_build.append(resolve)

    def s_May(self, s: ir.May) -> None:
        op = self.emit(O.MayOp(self.where(s), s.prompt))
        self.block(s.body)
        if s.orelse:
            out = self.emit(O.Jump(self.where(s)))
            op.target = len(self.code)
            self.block(s.orelse)
            out.target = len(self.code)
        else:
            op.target = len(self.code)

    def s_PickPiece(self, s: ir.PickPiece) -> None:
        var = self.local(s.var, ("piece", s.pieces))
        self.piece_locals[s.var] = s.pieces
        matching = self.pieces_matching(s.pieces, s.cond)
        self.emit(O.PickPieceOp(self.where(s), matching, self.prog.piece_names[s.pieces], var))

    def s_ChooseNumber(self, s: ir.ChooseNumber) -> None:
        var = self.local(s.var, VALUE)
        self.emit(O.ChooseNumberOp(self.where(s), self.expr(s.low), self.expr(s.high), var,
                                   s.prompt or s.var, secret=s.secret))

    def s_EndTurn(self, s: ir.EndTurn) -> None:
        self.emit(O.EndTurnOp(self.where(s)))

    def s_EndGame(self, s: ir.EndGame) -> None:
        self.emit(O.EndGameOp(self.where(s), s.ending))

    # ----------------------------------------------- who may see cards (visibility)

    def s_Give(self, s: ir.Give) -> None:
        self.emit(O.GiveOp(self.where(s), self.expr(s.value), self.prog.give_slot[self.code_id]))

    def s_Call(self, s: ir.Call) -> None:
        op = self.emit(O.CallOp(self.where(s), self.prog.rule_code[s.rule],
                                dynamic=id(s) in self.prog.work.dynamic))
        op.args = tuple(self.expr(a) for a in s.args)

    # --------------------------------------------------------- expressions

    def expr(self, e: ir.Expr) -> Compiled:
        """fn(st, fr) -> the value of ``e``: the function of its source
        (``Source``), made when first called; ``fn.src`` is that source,
        for generated code to write it inline."""
        return compiled(Source(self).src(e), self.prog.gen_env)

    def cond_expr(self, e: ir.Expr) -> Compiled:
        """``expr`` for a condition, where only its truth matters: 'and',
        'or' and 'not' need not make yes/no values (``Source.cond``)."""
        return compiled(Source(self).cond(e), self.prog.gen_env)

    def track_table(self, e: ir.Attr) -> Optional[Tuple[int, Dict[str, Any]]]:
        """(global slot, {space: value}) when ``e`` reads a track's space data."""
        data = self.prog.track_data.get(e.obj)
        if e.obj in self.locals or data is None:
            return None
        key = (e.obj, e.name)
        table = self.prog.track_tables.get(key)
        if table is None:       # (made once for a track's value: it may have many spaces)
            table = self.prog.track_tables[key] = {space: printed.get(e.name)
                                                   for space, printed in data.items()}
        return self.prog.gslot[e.obj], table

    def bind(self, node: ir.Name) -> Binding:
        """What the bare name ``node`` means here: what the checker bound it
        to (``Program.resolved``), the one place that decides."""
        bound = self.prog.resolved.binding(node)
        if bound is None:       # (the checker reads every name a rule uses as a value)
            raise KeyError(f"a name the checker did not read: {node.name!r}")
        return bound

    def pieces_matching(self, pset: str, cond: Optional[ir.Expr], slot: Optional[int] = None
                        ) -> Compiled:
        """fn(st, fr) -> the indexes of the pieces of ``pset`` meeting ``cond``;
        with ``slot``, each piece looked at is in that local as well (the
        condition names it: ``choose one points as h where … h …``)."""
        source = Source(self)
        var = source.temp() if slot is None else f"fr[{slot}]"
        among, where, fixed = source.looked_at(pset, var, cond)
        if fixed is not None and slot is None:
            return compiled(f"{among}", self.prog.gen_env)     # (never changed by a reader)
        text = f"[{var} for {var} in {among}{where}]" if where or slot is not None else f"[*{among}]"
        # (the piece looked at is a Python local in the loop, not the frame's slot)
        return compiled(text if slot is None else text.replace(var, source.temp()), self.prog.gen_env)


_PARAM_KINDS: Dict[str, Kind] = {"number": VALUE, "player": SEAT, "card": CARD, "word": VALUE,
                                "yes/no": VALUE}

_STMT_TYPES: Tuple[type, ...] = tuple(t for t in ir.Stmt.__args__)  # type: ignore[attr-defined]
_STMT_SET = frozenset(_STMT_TYPES)      # (``size`` tests every node: one hash, not a scan)
#: The nodes ``Ctx.made_first`` says yes to, and those it may say yes to
#: (``size`` asks it of no other).
_MADE_FIRST: Tuple[type, ...] = (ir.Roll, ir.Pool, ir.RollOff)
_MAYBE_MADE_FIRST: Tuple[type, ...] = _MADE_FIRST + (ir.RuleValue,)


def _names(e: Optional[ir.Expr], name: str) -> bool:
    """Whether expression ``e`` names ``name`` (alone or before a dot)."""
    return e is not None and any(
        (isinstance(n, ir.Name) and n.name == name) or (isinstance(n, ir.Attr) and n.obj == name)
        or (isinstance(n, (ir.Neighbour, ir.Farthest, ir.Connected, ir.InARow)) and n.space == name)
        or (isinstance(n, ir.Distance) and name in (n.start, n.to))
        for n in ir.walk(e))


def _expressions_of(s: ir.Stmt) -> Iterator[Any]:
    """The expressions that belong to a statement itself (not to the
    statements nested in its body)."""
    for f in getattr(type(s), "__attrs_attrs__", ()):
        if f.name in ("pos", "then", "orelse", "body", "choices"):
            continue
        v = getattr(s, f.name)
        if hasattr(type(v), "__attrs_attrs__") and not isinstance(v, _STMT_TYPES):
            yield v
        elif isinstance(v, tuple):      # e.g. a call's arguments
            yield from (x for x in v if hasattr(type(x), "__attrs_attrs__")
                        and not isinstance(x, _STMT_TYPES))


def _rolls_in(e: Any, pure: FrozenSet[str]) -> List[Union[ir.Roll, ir.RollOff, ir.Pool, ir.RuleValue]]:
    """The parts of an expression made by ops of their own before it is
    worked out (dice, and the values rules give, but for rules that only
    work out a value, ``pure``: those are called inline), innermost first:
    a rule's value whose arguments roll comes after those rolls."""
    found: List[Union[ir.Roll, ir.RollOff, ir.Pool, ir.RuleValue]] = []
    stack = [e]
    while stack:
        node = stack.pop()
        if isinstance(node, (ir.Roll, ir.RollOff, ir.Pool)):
            found.append(node)
            continue
        if isinstance(node, ir.RuleValue) and node.rule not in pure:
            found.append(node)
        stack.extend(ir.children(node))
    found.reverse()
    return found
