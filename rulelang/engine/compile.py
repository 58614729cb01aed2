"""Compile a checked IR into the rule machine's code, once per load.

Expressions become Python closures ``f(st, fr)``; statements become ops
(see ops/).  Names are resolved here, once, to slots: a player's stat is
``st.v[player * K + k]``, a global ``st.g[k]``, a local ``fr[3 + i]``.  The
parse tree is never walked at run time.
"""

from __future__ import annotations

import itertools
import operator
import re
import types

from .. import ir, trust
from ..check import resolve
from ..errors import RulesetCheckError, RulesetRuntimeError
from ..limits import DEFAULT as DEFAULT_LIMITS
from . import codegen
from .work import Work, _children
from . import ops as O
from .ops import LOCALS, PLAYER, RuleFault
from .visibility import EVERYONE, NOBODY, both, pile_seen_by



#: What a local of a frame may hold.  The compiler records, for each local
#: of each code, the kinds of value the code puts there
#: (``Program.local_kinds``); a restored state is checked against them
#: (``saves.py``).  A kind is a tuple whose first item says what it is:
#:
#: ``("value",)``                 anything a rule works out: a number, yes/no,
#:                                none, a word, a tuple of numbers (dice, cards)
#: ``("seat",)``                  none or a seat
#: ``("card",)``                  none or a card id
#: ``("cards",)``                 none or a tuple of card ids
#: ``("piece", SET)``             none or the index of a piece of SET
#: ``("roll", N, S)``             none or the sum of N dice of S sides
#: ``("dice", S)``                none or the faces of a pool of S-sided dice
#: ``("count",)``                 none or a whole number (cards still to draw)
#: ``("probe",)``                 always none (no longer made: room for a
#:                                question's temporary in 0.2.0)
#:
#: and the work of a loop or an op, none except while the frame is inside
#: the loop that starts at ``PC`` (or waits at the op at ``PC``):
#:
#: ``("each-player", PC)``        (passes made, first seat): ``ForEachOp``
#: ``("each-card", PC)``          (the cards, passes made): ``ForEachCardOp``
#: ``("each-piece", PC)``         passes made: ``ForEachPieceOp``
#: ``("repeat", PC)``             passes left: ``CounterOp``
#: ``("pool-work", PC, S)``       (faces rolled, dice left): ``PoolOp``
#: ``("roll-off", PC, S)``        (contenders, their rolls): ``RollOffOp``
LOCAL_KINDS = ("value", "seat", "card", "cards", "piece", "roll", "dice", "count", "probe",
               "each-player", "each-card", "each-piece", "repeat", "pool-work", "roll-off")
VALUE, SEAT, CARD, CARDS, COUNT = ("value",), ("seat",), ("card",), ("cards",), ("count",)
_PARAM_KINDS = {"number": VALUE, "player": SEAT, "card": CARD, "word": VALUE}


class Program:
    """Everything the machine needs, built from one ruleset."""

    def __init__(self, rs: ir.Ruleset, limits=None):
        # Nothing is compiled that has not passed the trust boundary.
        self.limits = limits or DEFAULT_LIMITS
        rs = self.rs = trust.admit(rs, self.limits)
        self.filename = rs.filename
        self.source = rs.source
        # Stats.
        self.player_stats = [s for s in rs.stats if s.scope in ("player", "turn")]
        self.turn_stats = [s for s in rs.stats if s.scope == "turn"]
        self.global_stats = [s for s in rs.stats if s.scope == "global"]
        self.K = len(self.player_stats)
        self.player_stat_names = [s.name for s in self.player_stats]
        self.pslot = {s.name: i for i, s in enumerate(self.player_stats)}
        self.gslot = {s.name: i for i, s in enumerate(self.global_stats)}
        self.stat_decl = {s.name: s for s in rs.stats}
        #: track -> space -> what that space prints ({field: value})
        self.track_data = {s.name: {sp.name: {p.name: _literal(p.value) for p in sp.props}
                                    for sp in s.spaces}
                           for s in rs.stats if s.spaces}
        #: What every bare name means (the lookup the checker made too).
        self.names = resolve.Names(rs)
        self.consts = {}
        self._pieces(rs)
        # Cards and piles.  Every pile (decks included) gets an index; a
        # per-player pile gets a block of indexes, one per seat, placed
        # after the shared ones (so its index depends on the player count).
        self.card_names = []
        self.card_props = {}
        self.deck_contents = {}
        self.card_by_name = {}
        for deck in rs.decks:
            contents = []
            for card in deck.cards:
                cid = len(self.card_names)
                self.card_names.append(card.name)
                self.card_by_name.setdefault(card.name, cid)
                for prop in card.props:
                    self.card_props.setdefault(prop.name, {})[cid] = _literal(prop.value)
                contents.extend([cid] * card.count)
            self.deck_contents[deck.name] = contents
        self.shared_piles = [d.name for d in rs.decks] + [p.name for p in rs.piles if not p.per_player]
        self.player_piles = [p.name for p in rs.piles if p.per_player]
        self.pile_index = {name: i for i, name in enumerate(self.shared_piles)}
        self.player_pile_index = {name: i for i, name in enumerate(self.player_piles)}
        self.hidden_piles = {p.name for p in rs.piles if p.hidden}
        self.shared_hidden = [name in self.hidden_piles for name in self.shared_piles]
        self.player_hidden = [name in self.hidden_piles for name in self.player_piles]
        self.deck_names = {d.name for d in rs.decks}
        #: per shared pile: whether nobody sees its cards (a deck, a hidden pile)
        self.shared_secret = [name in self.deck_names or name in self.hidden_piles
                              for name in self.shared_piles]
        # How a card is named in move labels: its name, unless that is
        # ambiguous (the same name in two decks: "Joker (red)"; a name that
        # could be read as a list or as no card: quoted).
        decks_of = {}
        for deck in rs.decks:
            for card in deck.cards:
                decks_of.setdefault(card.name, []).append(deck.name)
        self.card_labels = []
        for deck in rs.decks:
            for card in deck.cards:
                label = card.name
                if "," in label or label in ("nothing", "") or label != label.strip():
                    label = f'"{label}"'
                if len(decks_of[card.name]) > 1:
                    label = f"{label} ({deck.name})"
                self.card_labels.append(label)
        self.refill = {d.name: d.refill_from for d in rs.decks}
        # Code.
        self.codes = []        # list of op lists
        self.code_names = []
        self.nlocals = []
        #: per code, per local: the kinds of value it may hold (``LOCAL_KINDS``)
        self.local_kinds = []
        self.rule_code = {}
        self.table_code = {}
        self.table_rows = {}
        self.option_code = {}
        self.trigger_conds = {}   # stat name -> [(cond, code)]
        self.tables = {t.name: t for t in rs.tables}
        self.rules = {r.name: r for r in rs.rules}
        self.options = {o.name: o for o in rs.options}
        self.reroll = None
        self.reroll_src = None
        self.turn_when = None
        # Generated code (``Source``, ``PureBlock``, ``codegen``): one list of
        # constants ``C`` and one counter of temporaries for the program, so
        # any generated fragment is valid inside any generated function.
        self.gen_consts = []
        #: What generated code can name (``_GENERATED_ENV``, the constants,
        #: and this program's check of results of ``+``).
        self.gen_env = {**_GENERATED_ENV, "C": self.gen_consts,
                        "_big": _big_checker(self.limits.max_dice)}
        self.gen_temps = itertools.count(1)
        #: The static work of things (``Work``); per code, the work of one run
        #: of its statements (loops counted by their passes), and then, once
        #: every code is built, what a frame of it counts when it starts.
        self.work = Work(self)
        self.code_work = []
        self.code_pos = []
        self.stmt_sizes = {}   # id of a statement -> its IR nodes (``Ctx.size``)
        self.card_tables = {}  # (property, default) -> its value for each card (``card_table``)
        self.card_ids = None   # card name -> its ids (``cards_named``)
        self.track_tables = {}  # (track, value) -> {space: that value}
        self.op_functions = {}  # (code, pc) -> an op run alone (``op_function``)
        self.code_wheres = []  # per code: the (rule, pos) its generated code names by index
        #: What can be filled in only once every code is built (a choice of a
        #: table's rows needs where the table's rows start): run by compile_ruleset.
        self.after_build = []
        self._build()

    # ------------------------------------------------------------- building

    def may_hide(self, ref) -> bool:
        """Whether the pile ``ref`` names is hidden from someone (a deck, a
        hidden pile): what ``visibility.pile_seen_by`` then decides."""
        return ref.name in self.deck_names or ref.name in self.hidden_piles

    def _pieces(self, rs):
        """Lay out the piece sets: each piece's state values live in the
        state's globals list after the global stats, ``KS`` values a piece;
        fixed attributes are tables looked up at compile time."""
        self.piece_sets = {ps.name: ps for ps in rs.pieces}
        self.piece_names = {}
        self.piece_slot = {}     # set -> {state field: k}
        self.piece_K = {}        # set -> values a piece
        self.piece_base = {}     # set -> index of its first value in st.g
        self.piece_attr = {}     # set -> {attribute: [value per piece]}
        self.piece_init = []     # starting values, in st.g order after the globals
        base = sum(1 for s in rs.stats if s.scope == "global")
        for ps in rs.pieces:
            self.piece_names[ps.name] = [p.name for p in ps.pieces]
            self.piece_slot[ps.name] = {st.name: k for k, st in enumerate(ps.state)}
            self.piece_K[ps.name] = len(ps.state)
            self.piece_base[ps.name] = base
            base += len(ps.state) * len(ps.pieces)
            attrs_of = {}
            for i, piece in enumerate(ps.pieces):
                given = {prop.name: _literal(prop.value) for prop in piece.props}
                for st in ps.state:
                    self.piece_init.append(given.get(st.name, _literal(st.initial)))
                for name, value in given.items():
                    if name not in self.piece_slot[ps.name]:
                        column = attrs_of.get(name)
                        if column is None:      # (made once: not a list a piece)
                            column = attrs_of[name] = [None] * len(ps.pieces)
                        column[i] = value
            self.piece_attr[ps.name] = attrs_of

    def card_table(self, prop, default=None):
        """[property ``prop`` of each card, by id] (``default`` where a card
        has none), made once a property: a ruleset of many cards may ask
        about them in many places."""
        key = (prop, default)
        table = self.card_tables.get(key)
        if table is None:
            values = self.card_props.get(prop, {})
            table = self.card_tables[key] = [values.get(i, default)
                                             for i in range(len(self.card_names))]
        return table

    def cards_named(self, name):
        """The ids of the cards called ``name`` (one in each deck that has it)."""
        if self.card_ids is None:
            self.card_ids = {}
            for i, n in enumerate(self.card_names):
                self.card_ids.setdefault(n, []).append(i)
        return self.card_ids.get(name, [])

    def op_function(self, code_id, k):
        """Op ``k`` of a code run alone from its generated lines
        (``codegen.standalone``), made once."""
        fn = self.op_functions.get((code_id, k))
        if fn is None:
            fn = self.op_functions[code_id, k] = codegen.standalone(self, code_id, k)
        return fn

    def runner(self, code_id):
        """The generated function of code ``code_id`` (``codegen``), made
        the first time the code runs."""
        fn = self.runners[code_id] = codegen.runner(self, code_id)
        return fn

    def _first_seat_src(self):
        """Source of the seat that plays first (for the turn loop and 'for
        each player' loops): the turn's 'first', when it is a seat, else 0."""
        turn = self.rs.turn
        if turn is None or turn.first is None:
            return "0"
        ctx = Ctx(self, None, "the turn")
        source = Source(ctx)
        src = source.src_for_player(turn.first, "0")
        if src is None:     # (it needs a frame: asked about the first seat)
            src = f"{source.const(ctx.expr(turn.first))}(st, [None, 0, 0])"
        t = source.temp()
        return f"({t} if type({t} := {src}) is int and 0 <= {t} < st.n else 0)"

    def _new_code(self, name, work=0, pos=None):
        self.codes.append([])
        self.code_names.append(name)
        self.nlocals.append(0)
        self.local_kinds.append([])
        self.code_wheres.append([])
        self.code_work.append(work)
        self.code_pos.append(pos)
        return len(self.codes) - 1

    def _build(self):
        rs = self.rs
        for c in rs.consts:
            self.consts[c.name] = self.const_value(c.value)
            big = self.limits.max_number
            v = self.consts[c.name]
            if not isinstance(v, bool) and isinstance(v, int) and not -big <= v <= big:
                pos = c.pos or ir.Pos(1, 1)
                raise RulesetCheckError.at(rs.filename, pos.line, pos.column,
                                           f"constant '{c.name}' is larger than {big}", rs.source)
        self.bounds = {s.name: (None if s.min is None else self.const_value(s.min),
                                None if s.max is None else self.const_value(s.max))
                       for s in rs.stats}
        self.first_seat_src = self._first_seat_src()
        self.first_seat = compiled(self.first_seat_src, self.gen_env)
        # Reserve code ids first so calls can refer to them.
        work = self.work
        self.main_code = self._new_code("the game")
        self.setup_code = self._new_code("setup", work.stmts(rs.setup))
        self.turn_code = self._new_code("the turn", work.turn(rs.turn), rs.turn and rs.turn.pos)
        for r in rs.rules:
            self.rule_code[r.name] = self._new_code(f"rule {r.name}", work.code[("rule", r.name)],
                                                    r.pos)
        for t in rs.tables:
            self.table_code[t.name] = self._new_code(f"table {t.name}", work.code[("table", t.name)],
                                                     t.pos)
        for o in rs.options:
            self.option_code[o.name] = self._new_code(f"option {o.name}",
                                                      work.code[("option", o.name)], o.pos)
        trigger_codes = []
        for trig in rs.triggers:
            trigger_codes.append(self._new_code(f"whenever (line {trig.pos.line if trig.pos else '?'})",
                                                work.stmts(trig.body), trig.pos))
        self.trigger_codes = frozenset(trigger_codes)
        # Triggers need their conditions before any assignment is compiled.
        for trig, code in zip(rs.triggers, trigger_codes):
            ctx = Ctx(self, code, f"whenever (line {trig.pos.line if trig.pos else '?'})")
            cond = ctx.cond_expr(trig.cond)
            for name in ir.names_in(trig.cond):
                self.trigger_conds.setdefault(name, []).append((cond, code))
        # 'on draw' rules: code whose first local is the card drawn.  Every
        # draw (in any body, a reaction's or an 'on draw' rule's own) needs
        # the deck's rules, so they are all made before any body.
        self.draw_hooks = {}      # deck name -> [(cond or None, code)]
        hook_bodies = []
        for dt in rs.draw_triggers:
            code = self._new_code(f"on draw from {dt.deck} (line {dt.pos.line if dt.pos else '?'})",
                                  work.stmts(dt.body), dt.pos)
            ctx = Ctx(self, code, self.code_names[code])
            slot = ctx.local(dt.var, CARD)
            ctx.card_locals.add(dt.var)
            ctx.card_from[dt.var] = [f"{Source(ctx).const(O.DrawOp.drawn_seen_by)}(st, fr)"]
            ctx.card_scope.append(f"fr[{slot}]")
            cond = ctx.cond_expr(dt.cond) if dt.cond is not None else None
            ctx.card_scope.pop()
            self.draw_hooks.setdefault(dt.deck, []).append((cond, code))
            hook_bodies.append((ctx, dt.body))
        for trig, code in zip(rs.triggers, trigger_codes):
            Ctx(self, code, self.code_names[code]).finish(trig.body)
        for ctx, body in hook_bodies:
            ctx.finish(body)
        if rs.reroll is not None:
            ctx = Ctx(self, None, "reroll")
            cond = ctx.cond_expr(rs.reroll.cond)
            self.reroll_src = Source(ctx).src_for_player(rs.reroll.cond, "_tp", cond=True)
            if not all(isinstance(s, (ir.Assign, ir.Let)) for s in rs.reroll.cost):
                raise ValueError("a reroll's cost is made of assignments")
            cost = ctx.statements_function(rs.reroll.cost) if rs.reroll.cost else _nothing
            self.reroll = (cond, cost)
        for r in rs.rules:
            ctx = Ctx(self, self.rule_code[r.name], f"rule {r.name}")
            for param in r.params:       # parameters are the first locals
                ctx.local(param.name, _PARAM_KINDS.get(param.type) or ("piece", param.type))
                if param.type in self.piece_sets:
                    ctx.piece_locals[param.name] = param.type
                elif param.type == "card":
                    ctx.card_locals.add(param.name)
                    ctx.card_from[param.name] = ["_NOBODY"]   # where it is from is not known here
            ctx.finish(r.body)
        for t in rs.tables:
            self._build_table(t)
        for o in rs.options:
            self._build_option(o)
        Ctx(self, self.setup_code, "setup").finish(rs.setup)
        main = self.codes[self.main_code]
        where = ("the game", None)
        main.append(O.CallOp(where, self.setup_code))
        if rs.turn is not None:
            tctx = Ctx(self, None, "the turn")
            if rs.turn.when is not None:
                self.turn_when = tctx.cond_expr(rs.turn.when)
            self._build_turn(rs.turn)
            main.append(O.NextTurnOp(("the turn", rs.turn.pos)))
        else:
            main.append(O.NoTurnOp(where))
        self.endings = [(e.name, Ctx(self, None, f"end {e.name!r}").cond_expr(e.cond))
                        for e in rs.endings]
        # The turn loop's questions as source about a seat in a variable
        # (None where one needs a frame of its own): see codegen.
        ask = Ctx(self, None, "the turn")
        self.endings_src = [Source(ask).src_for_player(e.cond, "_p", cond=True) for e in rs.endings]
        if rs.turn is not None:
            self.turn_when_src = None if rs.turn.when is None else \
                Source(ask).src_for_player(rs.turn.when, "_seat", cond=True)
        sctx = Ctx(self, None, "score")
        self.score_items = [(sctx.expr(i.points),
                             sctx.cond_expr(i.cond) if i.cond is not None else None)
                            for i in rs.score]
        init = Ctx(self, None, "initial values")
        self.player_init = [init.expr(s.initial) for s in self.player_stats]
        self.global_init = [init.expr(s.initial) for s in self.global_stats]
        self.turn_init = [(self.pslot[s.name], init.expr(s.initial)) for s in self.turn_stats]
        self.turn_init_src = [Source(init).src_for_player(s.initial, "_seat")
                              for s in self.turn_stats]

    def _build_turn(self, turn):
        ctx = Ctx(self, self.turn_code, "the turn")
        for phase in turn.phases:
            ctx.name = f"phase {phase.name}"
            op = O.PhaseOp(ctx.where(phase), phase.name)
            ctx.emit(op)
            ctx.block(phase.body)
            op.end = len(ctx.code)
        ctx.done()

    def _build_table(self, table):
        code = self.table_code[table.name]
        ctx = Ctx(self, code, f"table {table.name}")
        slot = ctx.local("$roll", ("roll", 1, table.sides))  # local 0: the roll
        assert slot == LOCALS
        ctx.emit(O.RollOp(ctx.where(table), 1, table.sides, slot, f"{table.name}"))
        dispatch = {}
        ends = []
        dispatch_op_index = len(ctx.code)
        ctx.emit(None)  # placeholder for the dispatch
        starts = []
        for row in table.rows:
            start = len(ctx.code)
            starts.append((row, start))
            label = row.label or (str(row.low) if row.low == row.high else f"{row.low}..{row.high}")
            name = table.name

            src = Source(ctx)
            ctx.line_op(row, "if st.logging:",
                        f"    st.note(fr[{PLAYER}], 'row', {src.const(f'{name}: {label}')}, "
                        f"{src.const(label)})")
            ctx.block(row.body)
            j = O.Jump(ctx.where(row))
            ctx.emit(j)
            ends.append(j)
            for v in range(row.low, row.high + 1):
                dispatch[v] = start
        end = len(ctx.code)
        for j in ends:
            j.target = end
        targets = [dispatch.get(v, end) for v in range(table.sides + 2)]
        ctx.code[dispatch_op_index] = O.DispatchOp(ctx.where(table), targets, end)
        ctx.done()
        self.table_rows[table.name] = [(row.label or str(row.low), row.low, row.high, start)
                                       for row, start in starts]

    def _build_option(self, option):
        code = self.option_code[option.name]
        ctx = Ctx(self, code, f"option {option.name}")
        choose = O.ChooseOneOp(ctx.where(option), [c.label for c in option.choices], [],
                               option.prompt or option.name, option.name)
        ctx.emit(choose)
        ctx.choices(choose, option.choices)
        ctx.done()

    # --------------------------------------------------------------- values

    def const_value(self, e):
        if isinstance(e, ir.Num):
            return e.value
        if isinstance(e, ir.Bool):
            return e.value
        if isinstance(e, ir.Neg):
            return -self.const_value(e.operand)
        if isinstance(e, ir.Name) and e.name in self.consts:
            return self.consts[e.name]
        if isinstance(e, ir.BinOp) and e.op in _ARITH:
            return _ARITH[e.op](self.const_value(e.left), self.const_value(e.right))
        if isinstance(e, ir.BinOp) and e.op in ("and", "or"):
            a, b = self.const_value(e.left), self.const_value(e.right)
            return (a and b) if e.op == "and" else (a or b)
        if isinstance(e, ir.Not):
            return not self.const_value(e.operand)
        if isinstance(e, ir.CallFn):
            fn = {"min": min, "max": max, "abs": abs}[e.func]
            return fn(*[self.const_value(a) for a in e.args])
        raise ValueError("not a constant")


def _too_big(big):
    return RuleFault(f"a number went past {big}, the largest a rule may work out "
                     f"(Limits.max_number)")


def _too_many_dice(n, most):
    return RuleFault(f"a pool of {n} dice is more than the limit of {most} (Limits.max_dice)")


def _keeper(lo, hi, big, dice):
    """fn(x) -> x within [lo, hi]; past max_number it is an error, and so
    is a pool of more than ``dice`` dice.  Its ``bounds`` are the ints it
    keeps as they are."""
    def keep(x):
        if isinstance(x, bool) or not isinstance(x, int):
            if type(x) is tuple and len(x) > dice:
                raise _too_many_dice(len(x), dice)
            return x
        if lo is not None and x < lo:
            return lo
        if hi is not None and x > hi:
            return hi
        if not -big <= x <= big:
            raise _too_big(big)
        return x
    keep.bounds = (-big if lo is None else max(lo, -big), big if hi is None else min(hi, big))
    return keep


def _literal(e):
    """The value of a literal node (number, yes/no, none, word)."""
    if isinstance(e, (ir.Num, ir.Bool)):
        return e.value
    if isinstance(e, ir.Name):
        return e.name
    return None


def _floordiv(a, b):
    if b == 0:
        return 0
    return a // b


def _mod(a, b):
    if b == 0:
        return 0
    return a % b


_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": _floordiv, "%": _mod}
_CMP = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
        ">": operator.gt, ">=": operator.ge}


class Ctx:
    """Compiles the statements of one code (a rule, table, option, phase)."""

    def __init__(self, prog: Program, code_id, name):
        self.prog = prog
        self.code_id = code_id
        self.code = prog.codes[code_id] if code_id is not None else []
        # The places the generated code's ``at_line`` comments name by index.
        self.wheres = prog.code_wheres[code_id] if code_id is not None else []
        self.name = name
        self.locals = {}
        self.nlocals = 0
        self.loops = []   # stack of (breaks: [ops], work slots, restore slot)
        self.hoisted = {}
        self.piece_locals = {}   # local name -> piece set it holds
        self.card_locals = set()  # locals that hold one card
        self.chosen_locals = set()  # locals that hold chosen cards ('choose N cards … as')
        #: local -> [source of who may see the cards it holds or was made
        #: from (``visibility``)]; [] when everyone may (a log line naming
        #: them is for those only: ``PureBlock.log``).  A card local missing here: nobody.
        self.card_from = {}
        self.card_scope = []     # slots of the card in scope in a 'where'
        self.piece_scope = []    # (piece set, slot) of the piece in scope in a 'where'

    # ------------------------------------------------------------ plumbing

    def where(self, node):
        return (self.name, getattr(node, "pos", None))

    def emit(self, op):
        self.code.append(op)
        return op

    def local(self, name, kind):
        """The slot of local ``name``, which here gets a value of ``kind``
        (one of ``LOCAL_KINDS``; a name used again may add a kind)."""
        if name not in self.locals:
            self.locals[name] = LOCALS + self.nlocals
            self.nlocals += 1
        slot = self.locals[name]
        self.holds(slot, kind)
        return slot

    def temp(self, kind):
        """A new slot for the machine's own use, holding values of ``kind``."""
        slot = LOCALS + self.nlocals
        self.nlocals += 1
        self.holds(slot, kind)
        return slot

    def holds(self, slot, kind):
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

    def done(self):
        if self.code_id is not None:
            self.prog.nlocals[self.code_id] = max(self.prog.nlocals[self.code_id], self.nlocals)

    def finish(self, stmts):
        self.block(stmts)
        self.done()

    # ---------------------------------------------------------- statements

    def block(self, stmts):
        """Compile statements; a run of them that can never wait (no dice,
        no draws, no choices, no calls) becomes one op (see ``PureBlock``),
        of at most ``PURE_NODES`` IR nodes (so that no generated function
        is huge: a longer run is several ops)."""
        run, nodes = [], 0
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

    def size(self, s):
        """The IR nodes in statement ``s``: worked out in one pass for a
        statement and every statement inside it, kept for the program."""
        sizes = self.prog.stmt_sizes
        found = sizes.get(id(s))
        if found is None:
            order, stack = [], [s]
            while stack:
                node = stack.pop()
                kids = _children(node)
                order.append((node, kids))
                stack.extend(kids)
            total = {}
            for node, kids in reversed(order):
                n = total[id(node)] = 1 + sum([total[id(c)] for c in kids])
                if isinstance(node, _STMT_TYPES):
                    sizes[id(node)] = n
            found = sizes[id(s)]
        return found

    def flush(self, run):
        if run:
            self.emit(self.pure_op(run))

    def pure(self, s, loops, depth):
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
                          ir.MoveCard, ir.Spend)):
            if any(isinstance(n, (ir.Roll, ir.Pool, ir.RollOff)) for n in ir.walk(s)):
                return False
            return not (isinstance(s, ir.Assign) and self.watched(s))
        if isinstance(s, ir.If):
            if any(isinstance(n, (ir.Roll, ir.Pool, ir.RollOff)) for n in ir.walk(s.cond)):
                return False
            elif_ = len(s.orelse) == 1 and isinstance(s.orelse[0], ir.If)
            return all(self.pure(x, loops, depth + 1) for x in s.then) and \
                all(self.pure(x, loops, depth if elif_ else depth + 1) for x in s.orelse)
        if isinstance(s, (ir.While, ir.Repeat, ir.ForEachPlayer, ir.ForEachPiece, ir.ForEachCard)):
            head = s.times if isinstance(s, ir.Repeat) else s.cond
            if head is not None and \
                    any(isinstance(n, (ir.Roll, ir.Pool, ir.RollOff)) for n in ir.walk(head)):
                return False
            blocks = 2 if isinstance(s, ir.ForEachPlayer) and not s.var else 1
            return all(self.pure(x, loops + blocks, depth + 3) for x in s.body)
        return False

    def watched(self, s):
        """Whether assigning ``s`` may set off a 'whenever' (then it is an op
        of its own, which can start the reaction)."""
        name = s.target.name
        if isinstance(s.target, ir.Attr) and s.target.obj in self.piece_locals:
            return False
        trig = self.prog.trigger_conds.get(name)
        is_stat = name in self.prog.pslot or name in self.prog.gslot
        return bool(trig and is_stat and not (isinstance(s.target, ir.Name) and name in self.locals))

    def stmt(self, s):
        if not isinstance(s, ir.While):   # a while rolls anew before each test
            self.hoist(s)
        if isinstance(s, ir.Assign) and self.watched(s):
            self.trigger_assign(s)
        elif isinstance(s, _SIMPLE):
            self.flush([s])
        else:
            getattr(self, "s_" + type(s).__name__)(s)

    def hoist(self, s):
        """Rolls inside a statement's expressions are made first, each into
        a local, by ops of their own (so they can wait for chance)."""
        for node in _expressions_of(s):
            for roll in _rolls_in(node):
                if id(roll) in self.hoisted:
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
                                       f"{roll.count if roll.count > 1 else ''}d{roll.sides}"))
                elif isinstance(roll, ir.Pool):
                    count = self.expr(roll.count)
                    work = self.temp(("pool-work", len(self.code), roll.sides))
                    self.emit(O.PoolOp(self.where(roll), count, roll.sides, slot, work))
                else:
                    work = self.temp(("roll-off", len(self.code), roll.sides))
                    self.emit(O.RollOffOp(self.where(roll), roll.sides, slot, work))

    def statements_function(self, stmts):
        """fn(st, fr) carrying out statements that never wait (``PureBlock``)."""
        return self.pure_op(stmts).call

    def pure_op(self, stmts):
        return O.PureOp(self.where(stmts[0]), PureBlock(self).lines_of(stmts), self.wheres,
                        self.prog.gen_env, codegen.pure_function)

    def trigger_assign(self, s):
        """An assignment to a stat a 'whenever' watches: an op of its own,
        which starts the reaction when its condition becomes true."""
        who = f"fr[{self.locals[s.target.obj]}]" if isinstance(s.target, ir.Attr) else f"fr[{PLAYER}]"
        self.emit(O.TriggerAssign(self.where(s), compiled(who, self.prog.gen_env),
                                  self.statements_function([s]),
                                  self.prog.trigger_conds[s.target.name]))

    def assign_place(self, s):
        """(Python source of the place ``s`` assigns, its keeper): the same
        places and bounds as ``assign_fn``, for generated code."""
        t, prog = s.target, self.prog
        big, dice = prog.limits.max_number, prog.limits.max_dice
        if isinstance(t, ir.Name) and t.name in self.locals:
            return f"fr[{self.locals[t.name]}]", _keeper(None, None, big, dice)
        if isinstance(t, ir.Attr) and t.obj in self.piece_locals:
            pset = self.piece_locals[t.obj]
            decl = prog.piece_sets[pset].state[prog.piece_slot[pset][t.name]]
            lo = None if decl.min is None else prog.const_value(decl.min)
            hi = None if decl.max is None else prog.const_value(decl.max)
            base, K, k = prog.piece_base[pset], prog.piece_K[pset], prog.piece_slot[pset][t.name]
            return f"st.g[{base} + fr[{self.locals[t.obj]}] * {K} + {k}]", _keeper(lo, hi, big, dice)
        lo, hi = prog.bounds[t.name]
        keep = _keeper(lo, hi, big, dice)
        if prog.stat_decl[t.name].scope == "global":
            return f"st.g[{prog.gslot[t.name]}]", keep
        who = f"fr[{self.locals[t.obj]}]" if isinstance(t, ir.Attr) else f"fr[{PLAYER}]"
        return f"st.v[{who} * {prog.K} + {prog.pslot[t.name]}]", keep

    def s_If(self, s):
        j = self.emit(O.JumpUnless(self.where(s), self.cond_expr(s.cond)))
        self.block(s.then)
        if s.orelse:
            out = self.emit(O.Jump(self.where(s)))
            j.target = len(self.code)
            self.block(s.orelse)
            out.target = len(self.code)
        else:
            j.target = len(self.code)

    def s_Repeat(self, s):
        work = self.temp(("repeat", len(self.code)))
        head = len(self.code)
        op = self.emit(O.CounterOp(self.where(s), work, self.expr(s.times)))
        self._loop_body(s.body, head, [work], None, s)
        op.end = len(self.code)
        self._close_loop()

    def s_While(self, s):
        head = len(self.code)
        self.hoist(s)
        j = self.emit(O.JumpUnless(self.where(s), self.cond_expr(s.cond)))
        self._loop_body(s.body, head, [], None, s)
        j.target = len(self.code)
        self._close_loop()

    def s_ChooseCard(self, s):
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
        matching = compiled(f"[{c} for {c} in sorted(set(st.piles[{pile.src}])){where}]",
                            self.prog.gen_env)
        self.emit(O.ChooseOneOfOp(self.where(s), matching, lambda st, c: st.prog.card_labels[c],
                                  var, s.prompt or "choose a card",
                                  prefix=f"{s.prompt}: " if s.prompt else "", pile=pile))

    def s_ForEachCard(self, s):
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

    def s_ForEachPiece(self, s):
        var = self.local(s.var, ("piece", s.pieces))
        self.piece_locals[s.var] = s.pieces
        self.piece_scope.append((s.pieces, f"fr[{var}]"))
        cond = self.cond_expr(s.cond) if s.cond is not None else None
        self.piece_scope.pop()
        work = self.temp(("each-piece", len(self.code)))
        head = len(self.code)
        op = self.emit(O.ForEachPieceOp(self.where(s), work, var, len(self.prog.piece_names[s.pieces]), cond))
        self._loop_body(s.body, head, [work], None, s)
        op.end = len(self.code)
        self._close_loop()

    def s_ChoosePiece(self, s):
        var = self.local(s.var, ("piece", s.pieces))
        self.piece_locals[s.var] = s.pieces
        matching = self.pieces_matching(s.pieces, s.cond)
        names = self.prog.piece_names[s.pieces]
        self.emit(O.ChooseOneOfOp(self.where(s), matching, lambda st, i: names[i], var,
                                  s.prompt or f"choose from {s.pieces}"))

    def s_ForEachPlayer(self, s):
        work, saved = self.temp(("each-player", len(self.code))), self.temp(SEAT)
        var = self.local(s.var, SEAT) if s.var else None
        cond = self.cond_expr(s.cond) if s.cond is not None else None
        head = len(self.code)
        op = self.emit(O.ForEachOp(self.where(s), work, saved, var, s.other, cond))
        self._loop_body(s.body, head, [work], saved, s)
        op.end = len(self.code)
        self._close_loop()

    def _loop_body(self, body, head, work, restore, loop):
        self.loops.append(([], work, restore))
        self.block(body)
        # The jump back counts the work of the next pass.
        self.emit(O.Jump(self.where(loop), head, self.prog.work.loop_pass(loop)))

    def _close_loop(self):
        breaks, _, _ = self.loops.pop()
        for b in breaks:
            b.target = len(self.code)

    def s_Stop(self, s):
        breaks, work, restore = self.loops[-1]
        breaks.append(self.emit(O.ClearOp(self.where(s), work, restore)))

    def s_RollOn(self, s):
        self.emit(O.CallOp(self.where(s), self.prog.table_code[s.table],
                           dynamic=id(s) in self.prog.work.dynamic))

    def s_Test(self, s):
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

    def pile(self, ref):
        """fn(st, fr) -> the index in ``st.piles`` of the pile ``ref`` names."""
        return compiled(self.pile_src(ref), self.prog.gen_env)

    def pile_src(self, ref):
        """Python source of the index of a pile in ``st.piles`` (``Source.pile``)."""
        return Source(self).pile(ref)

    def line_op(self, node, *lines):
        """An op doing some lines of generated Python (about ``node``)."""
        self.wheres.append(self.where(node))
        return self.emit(O.PureOp(self.where(node), [codegen.at_line(len(self.wheres) - 1,
                                                                     self.where(node)), *lines],
                                  self.wheres, self.prog.gen_env, codegen.pure_function))

    def s_Draw(self, s):
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
        refill_i = self.prog.pile_index.get(refill) if refill else None
        op = self.emit(O.DrawOp(self.where(s), work, self.pile(s.source), self.pile(s.dest), refill_i,
                                per_card=per_card))
        op.hooks = tuple(hooks)

    def s_ChooseCards(self, s):
        slot = self.local(s.var, CARDS)
        self.chosen_locals.add(s.var)
        self.card_from[s.var] = self.pile_seen(s.pile)
        op = self.emit(O.ChooseCardsOp(self.where(s), self.expr(s.low), self.expr(s.high),
                                       self.pile(s.pile), slot, s.prompt or s.var))
        op.fixed = isinstance(s.low, ir.Num) and isinstance(s.high, ir.Num)
        op.guard = self.prog.may_hide(s.pile)

    def choices(self, choose, choices):
        ends = []
        for c in choices:
            choose.targets.append(len(self.code))
            self.block(c.body)
            ends.append(self.emit(O.Jump(self.where(c))))
        for j in ends:
            j.target = len(self.code)

    def s_ChooseOne(self, s):
        choose = self.emit(O.ChooseOneOp(self.where(s), [c.label for c in s.choices], [],
                                         s.prompt or "choose"))
        if any(c.cond is not None for c in s.choices):
            choose.conds = [None if c.cond is None else self.cond_expr(c.cond) for c in s.choices]
        self.choices(choose, s.choices)
        choose.end = len(self.code)

    def s_ChooseOption(self, s):
        self.emit(O.CallOp(self.where(s), self.prog.option_code[s.option],
                           dynamic=id(s) in self.prog.work.dynamic))

    def s_ChooseRow(self, s):
        table = self.prog.tables[s.table]
        rows = []
        for row in table.rows:
            if row.high < s.low or row.low > s.high:
                continue
            rows.append(row)
        # Row starts are known once the table is built; resolve lazily.
        prog = self.prog
        op = O.ChooseRowOp(self.where(s), prog.table_code[s.table], None, f"choose on {s.table}")
        self.emit(op)
        lo, hi = s.low, s.high

        def resolve(op=op, name=s.table, lo=lo, hi=hi):
            rows = [(label, max(low, lo), start) for label, low, high, start in prog.table_rows[name]
                    if high >= lo and low <= hi]
            seen = [label for label, _, _ in rows]
            op.rows = [(label if seen.count(label) == 1 else f"{label} ({value})", value, start)
                       for label, value, start in rows]
        prog.after_build.append(resolve)

    def s_May(self, s):
        op = self.emit(O.MayOp(self.where(s), s.prompt))
        self.block(s.body)
        if s.orelse:
            out = self.emit(O.Jump(self.where(s)))
            op.target = len(self.code)
            self.block(s.orelse)
            out.target = len(self.code)
        else:
            op.target = len(self.code)

    def s_PickPiece(self, s):
        var = self.local(s.var, ("piece", s.pieces))
        self.piece_locals[s.var] = s.pieces
        matching = self.pieces_matching(s.pieces, s.cond)
        self.emit(O.PickPieceOp(self.where(s), matching, self.prog.piece_names[s.pieces], var))

    def s_ChooseNumber(self, s):
        var = self.local(s.var, VALUE)
        self.emit(O.ChooseNumberOp(self.where(s), self.expr(s.low), self.expr(s.high), var,
                                   s.prompt or s.var))

    def s_EndTurn(self, s):
        self.emit(O.EndTurnOp(self.where(s)))

    def s_EndGame(self, s):
        self.emit(O.EndGameOp(self.where(s), s.ending))

    # ----------------------------------------------- who may see cards (visibility)

    def pile_seen(self, ref):
        """[source of who may see the cards of pile ``ref``], or [] for a
        pile everyone sees."""
        if not self.prog.may_hide(ref):
            return []
        return [f"_pile_seen_by(st, {self.pile_src(ref)})"]

    def seen_sources(self, e):
        """Who may see the cards expression ``e`` reads (a card local, its
        properties, chosen cards, ``count of``/``sum of`` a pile, a 'let'
        made from those): fns (st, fr) -> seen_by; [] when everyone may."""
        out = []
        for node in ir.walk(e):
            if isinstance(node, (ir.CountCards, ir.SumCards)):
                out += self.pile_seen(node.pile)
                continue
            if isinstance(node, ir.Name):
                name = node.name
            elif isinstance(node, ir.Attr):
                name = node.obj
            else:
                continue
            if name in self.card_from:
                out += self.card_from[name]
            elif name in self.card_locals or name in self.chosen_locals:
                out.append("_NOBODY")
        return out

    def let_seen(self, s):
        """A 'let' made from cards is seen as they are (``seen_sources``)."""
        found = self.seen_sources(s.value)
        if found or s.name in self.card_from:
            self.card_from[s.name] = self.card_from.get(s.name, []) + found

    def masked(self, part):
        """What a log placeholder reads as for those who may not see it."""
        if isinstance(part, ir.Name) and part.name in self.card_locals:
            return "a card"
        if isinstance(part, ir.Name) and part.name in self.chosen_locals:
            return "some cards"
        return "(hidden)"

    def s_Call(self, s):
        op = self.emit(O.CallOp(self.where(s), self.prog.rule_code[s.rule],
                                dynamic=id(s) in self.prog.work.dynamic))
        op.args = tuple(self.expr(a) for a in s.args)

    # --------------------------------------------------------- expressions

    def expr(self, e):
        """fn(st, fr) -> the value of ``e``: the function of its source
        (``Source``), made when first called; ``fn.src`` is that source,
        for generated code to write it inline."""
        return compiled(Source(self).src(e), self.prog.gen_env)

    def cond_expr(self, e):
        """``expr`` for a condition, where only its truth matters: 'and',
        'or' and 'not' need not make yes/no values (``Source.cond``)."""
        return compiled(Source(self).cond(e), self.prog.gen_env)

    def track_table(self, e):
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

    def bind(self, name):
        """What the bare ``name`` means here (``resolve.Names.bare``)."""
        bound = self.prog.names.bare(name, card=bool(self.card_scope),
                                     pieces=[pset for pset, _ in self.piece_scope],
                                     locals=self.locals)
        if bound is None:       # (the checker reports every such name)
            raise KeyError(name)
        return bound

    def pieces_matching(self, pset, cond):
        """fn(st, fr) -> the indexes of the pieces of ``pset`` meeting ``cond``."""
        source = Source(self)
        var = source.temp()
        return compiled(f"[{var} for {var} in range({len(self.prog.piece_names[pset])})"
                        f"{source.where(pset, var, cond)}]", self.prog.gen_env)


_STMT_TYPES = tuple(t for t in ir.Stmt.__args__)


def _expressions_of(s):
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


def _rolls_in(e):
    found = []
    stack = [e]
    while stack:
        node = stack.pop()
        if isinstance(node, (ir.Roll, ir.RollOff, ir.Pool)):
            found.append(node)
            continue
        stack.extend(ir.children(node))
    found.reverse()
    return found


def compile_ruleset(rs: ir.Ruleset, limits=None) -> Program:
    """The program of a ruleset (admitted by ``rulelang.trust`` first if it
    is not yet: checked, and held to the IR's shape unless our parser made
    it).  ``limits.max_number`` bounds the numbers its rules work out (fixed
    here, at load time)."""
    prog = Program(rs, limits)
    for finish in prog.after_build:
        finish()
    prog.after_build.clear()
    prog.work.finish()
    prog.runners = [None] * len(prog.codes)   # made on first use (``Program.runner``)
    return prog


class Source:
    """The one expression compiler: Python source for an expression, from
    the IR (never from the rule file's text: names become slot numbers, and
    every word, table or value that is not a plain number goes into the
    program's list of constants ``C``).  Every kind of node has its method
    ``s_<Kind>``; a compiled expression is the function of its source
    (``compiled``), and generated code writes the same source inline.

    The things in scope are source too: the player a question is about
    (``player``: ``fr[2]``, or a loop's variable), the card and the piece a
    'where' looks at (``Ctx.card_scope``, ``Ctx.piece_scope``: a local of
    the frame, ``fr[i]``, which may hold none, or a loop's variable)."""

    def __init__(self, ctx):
        self.ctx = ctx
        self.consts = ctx.prog.gen_consts
        self.temps = ctx.prog.gen_temps
        self.player = f"fr[{PLAYER}]"   # the player in scope (a loop's variable in a question)

    def const(self, value):
        self.consts.append(value)
        return f"C[{len(self.consts) - 1}]"

    def temp(self):
        return f"_t{next(self.temps)}"

    def src_for_player(self, e, var, cond=False):
        """Source of ``e`` asked about the player in Python variable ``var``
        (where there is no frame of a rule), or None if it needs one.  With
        ``cond``, only its truth matters (``cond``)."""
        self.player = var
        out = self.cond(e) if cond else self.src(e)
        return None if re.search(r"\bfr\b", out) else out

    def src(self, e):
        ctx = self.ctx
        if id(e) in ctx.hoisted:        # a roll, made by an op of its own
            return f"fr[{ctx.hoisted[id(e)]}]"
        return getattr(self, "s_" + type(e).__name__)(e)

    def cond(self, e):
        """Source of ``e`` where only its truth matters (an ``if`` or a
        ``while``): 'and' / 'or' need not make a yes/no of their parts."""
        if isinstance(e, ir.BinOp) and e.op in ("and", "or") and id(e) not in self.ctx.hoisted:
            return f"({self.cond(e.left)} {codegen.operator(e.op)} {self.cond(e.right)})"
        if isinstance(e, ir.Not) and id(e) not in self.ctx.hoisted:
            return f"(not {self.cond(e.operand)})"
        return self.src(e)

    @staticmethod
    def number(v):
        return repr(v) if type(v) in (int, bool) else None

    def pile(self, ref):
        """Source of the index in ``st.piles`` of the pile ``ref`` names (a
        player's own pile: the player in scope's, or its owner's)."""
        prog = self.ctx.prog
        if ref.name in prog.pile_index:
            return str(prog.pile_index[ref.name])
        j = prog.player_pile_index[ref.name]
        owner = f"fr[{self.ctx.locals[ref.owner]}]" if ref.owner is not None else self.player
        return f"(st.nshared + {j} * st.n + {owner})" if j else f"(st.nshared + {owner})"

    @staticmethod
    def _or_none(at, x):
        """``at`` (which reads the thing in ``x``), or none when ``x``, a
        local, holds none (a loop's variable always holds a thing)."""
        return f"(None if {x} is None else {at})" if x.startswith("fr[") else at

    def piece_field(self, pset, x, field):
        """A field (state value or fixed attribute) of the piece whose index
        is the value of source ``x``."""
        prog = self.ctx.prog
        if field in prog.piece_slot[pset]:
            base, K, k = prog.piece_base[pset], prog.piece_K[pset], prog.piece_slot[pset][field]
            return self._or_none(f"st.g[{base} + {x} * {K} + {k}]", x)
        table = prog.piece_attr[pset].get(field)
        return "None" if table is None else self._or_none(f"{self.const(table)}[{x}]", x)

    def card_field(self, x, prop):
        """Property ``prop`` of the card whose id is the value of source ``x``."""
        return self._or_none(f"{self.const(self.ctx.prog.card_table(prop))}[{x}]", x)

    def where(self, pset, var, cond):
        """`` if COND`` about the piece of ``pset`` in Python variable
        ``var`` (nothing when there is no condition)."""
        if cond is None:
            return ""
        self.ctx.piece_scope.append((pset, var))
        try:
            return f" if {self.cond(cond)}"
        finally:
            self.ctx.piece_scope.pop()

    # ------------------------------------------------------------ nodes

    def s_Num(self, e):
        return self.number(e.value) or self.const(e.value)

    def s_Bool(self, e):
        return repr(bool(e.value))

    def s_NoneLit(self, e):
        return "None"

    def s_NoDice(self, e):
        return "()"

    def s_Roll(self, e):
        raise KeyError("dice are rolled by an op of their own (Ctx.hoist)")

    s_Pool = s_RollOff = s_Roll

    def s_Name(self, e):
        ctx, prog, name = self.ctx, self.ctx.prog, e.name
        bound = ctx.bind(name)
        kind = bound.kind
        if kind == resolve.CARD:
            return self.card_field(ctx.card_scope[-1], name)
        if kind == resolve.PIECE:
            return self.piece_field(bound.pieces, ctx.piece_scope[bound.scope][1], name)
        if kind == resolve.LOCAL:
            return f"fr[{ctx.locals[name]}]"
        if kind == resolve.PLAYER:
            return f"st.v[{self.player} * {prog.K} + {prog.pslot[name]}]"
        if kind == resolve.GLOBAL:
            return f"st.g[{prog.gslot[name]}]"
        if kind == resolve.CONST:
            v = prog.consts[name]
            return self.number(v) or self.const(v)
        return self.const(name)         # a word

    def s_Attr(self, e):
        ctx, prog = self.ctx, self.ctx.prog
        track = ctx.track_table(e)
        if track is not None:
            return f"{self.const(track[1])}.get(st.g[{track[0]}])"
        x = f"fr[{ctx.locals[e.obj]}]"
        if e.obj in ctx.card_locals:
            return self.card_field(x, e.name)
        if e.obj in ctx.piece_locals:
            return self.piece_field(ctx.piece_locals[e.obj], x, e.name)
        return f"st.v[{x} * {prog.K} + {prog.pslot[e.name]}]"

    def s_BinOp(self, e):
        a, b = self.src(e.left), self.src(e.right)
        if e.op in ("and", "or"):
            return f"(bool({a}) {codegen.operator(e.op)} bool({b}))"
        if e.op in ("/", "%"):
            return f"{'_div' if e.op == '/' else '_mod'}({a}, {b})"
        big = self.ctx.prog.limits.max_number
        t = self.temp()
        return f"({t} if type({t} := {a} {codegen.operator(e.op)} {b}) is int and -{big} <= {t} <= {big} " \
               f"else _big({t}, {big}))"

    def s_Compare(self, e):
        a, b = self.src(e.left), self.src(e.right)
        op = codegen.operator(e.op)
        if op in ("==", "!="):
            return f"({a} {op} {b})"
        # An order needs two values (none is below nothing): a side that is
        # never none needs no test.
        left, right = _never_none(e.left), _never_none(e.right)
        if left and right:
            return f"({a} {op} {b})"
        if right:
            x = self.temp()
            return f"(({x} := {a}) is not None and {x} {op} {b})"
        if left:
            y = self.temp()
            return f"(({y} := {b}) is not None and {a} {op} {y})"
        x, y = self.temp(), self.temp()
        return f"(({x} := {a}) is not None and ({y} := {b}) is not None and {x} {op} {y})"

    def s_Not(self, e):
        return f"(not {self.src(e.operand)})"

    def s_Neg(self, e):
        return f"(-{self.src(e.operand)})"

    def s_IfExpr(self, e):
        return f"({self.src(e.then)} if {self.cond(e.cond)} else {self.src(e.orelse)})"

    def s_CallFn(self, e):
        return f"{codegen.function(e.func)}({', '.join(self.src(a) for a in e.args)})"

    def s_ThisPlayer(self, e):
        return self.player

    def s_Round(self, e):
        return "st.round"

    def s_TestResult(self, e):
        if e.what == "passed":
            return "(st.test is not None and st.test[0])"
        if e.what == "failed":
            return "(st.test is not None and not st.test[0])"
        return "(st.test[1] if st.test is not None else 0)"

    def s_PoolCount(self, e):
        """How many dice of a pool meet a comparison (the dice looked at
        are work: ``_count_faces``)."""
        faces = f"fr[{self.ctx.locals[e.pool]}]"
        return f"_count_faces(st, {faces}, {self.src(e.value)}, {self.const(_CMP[e.op])})"

    def s_CountCards(self, e):
        same = self.ctx.prog.cards_named(e.card)
        pile = f"st.piles[{self.pile(e.pile)}]"
        if len(same) == 1:
            return f"{pile}.count({same[0]})"
        return f"sum([1 for {(c := self.temp())} in {pile} if {c} in {self.const(frozenset(same))}])"

    def s_PileSize(self, e):
        ctx = self.ctx
        if e.pile.name in ctx.locals and e.pile.owner is None:     # chosen cards
            return f"len(fr[{ctx.locals[e.pile.name]}] or ())"
        return f"len(st.piles[{self.pile(e.pile)}])"

    def s_SumCards(self, e):
        value_of = self.const(self.ctx.prog.card_table(e.prop, 0).__getitem__)
        return f"sum(map({value_of}, st.piles[{self.pile(e.pile)}]))"

    def looking_at_players(self, e, node):
        """(seat variable, source of ``node`` with that seat in scope)."""
        var = self.temp()
        saved, self.player = self.player, var
        try:
            body = "True" if node is None else self.src(node)
        finally:
            self.player = saved
        return var, body

    def player_column(self, node):
        """Source of the list of every player's value of a stat, when
        ``node`` is just the name of a player's stat (read from the
        players' values in one slice, no loop), else None."""
        ctx, prog = self.ctx, self.ctx.prog
        if not isinstance(node, ir.Name) or node.name not in prog.pslot or node.name in ctx.locals \
                or ctx.card_scope or ctx.piece_scope:
            return None
        return f"st.v[{prog.pslot[node.name]}::{prog.K}]"

    def s_PlayerQuery(self, e):
        """``count / no / any [other] players where …`` as one loop (or, for
        ``where STAT is VALUE``, one count in the stat's column)."""
        c = e.cond
        if not e.other and isinstance(c, ir.Compare) and c.op == "==" and \
                isinstance(c.right, (ir.Num, ir.Name, ir.Bool, ir.NoneLit)) and \
                self.player_column(c.left) is not None and self.player_column(c.right) is None \
                and not (isinstance(c.right, ir.Name) and c.right.name in self.ctx.prog.pslot):
            column, value = self.player_column(c.left), self.src(c.right)
            if "fr" not in value:
                if e.quantifier == "count":
                    return f"{column}.count({value})"
                return f"({value} {'in' if e.quantifier == 'any' else 'not in'} {column})"
        var, cond = self.looking_at_players(e, e.cond)
        other = f"{var} != {self.player} and " if e.other else ""
        loop = f"for {var} in range(st.n) if {other}{cond}"
        if e.quantifier == "count":
            return f"sum([1 {loop}])"
        hit = f"any([True {loop}])"
        return f"(not {hit})" if e.quantifier == "none" else hit

    def s_Extreme(self, e):
        """``highest / lowest X among [other] players`` (0 with nobody)."""
        column = self.player_column(e.value)
        if column is not None and not e.other:
            # (``or (0,)``: 0 with nobody; a keyword argument would cost more.)
            return f"{'max' if e.which == 'highest' else 'min'}({column} or (0,))"
        var, value = self.looking_at_players(e, e.value)
        other = f" if {var} != {self.player}" if e.other else ""
        pick = "max" if e.which == "highest" else "min"
        return f"{pick}([{value} for {var} in range(st.n){other}] or (0,))"

    def s_PieceQuery(self, e):
        """``count / any of / none of workers where …`` as one loop over the
        pieces."""
        n = len(self.ctx.prog.piece_names[e.pieces])
        if e.cond is None:
            return {"count": str(n), "any": repr(n > 0), "none": repr(n == 0)}[e.quantifier]
        var = self.temp()
        where = self.where(e.pieces, var, e.cond)
        if e.quantifier == "count":
            return f"sum([1 for {var} in range({n}){where}])"
        found = f"any([True for {var} in range({n}){where}])"
        return f"(not {found})" if e.quantifier == "none" else found

    def s_PieceExtreme(self, e):
        """``highest / lowest X among workers [where …]`` (none with no
        piece, or none with a value)."""
        n = len(self.ctx.prog.piece_names[e.pieces])
        var, v = self.temp(), self.temp()
        where = self.where(e.pieces, var, e.cond)
        self.ctx.piece_scope.append((e.pieces, var))
        try:
            value = self.src(e.value)
        finally:
            self.ctx.piece_scope.pop()
        pick = "max" if e.which == "highest" else "min"
        return f"{pick}([{v} for {var} in range({n}){where} if ({v} := {value}) is not None] " \
               f"or (None,))"


class PureBlock:
    """The one lowering of statements that never wait: lines of Python with
    real ``if``, ``while`` and ``for``, expressions inline (``Source``).
    (A statement that can wait, or that holds one that can, is lowered by
    ``Ctx`` to ops instead: a decision or a roll must be able to suspend
    the code and resume it.)  Each statement starts with a comment naming
    its place (``codegen.at_line``), from which a fault is named.  The lines
    become part of the code's generated function (``codegen``)."""

    def __init__(self, ctx):
        self.ctx = ctx
        self.source = Source(ctx)
        self.lines = []

    def lines_of(self, stmts):
        self.block(stmts, 0)
        return self.lines

    def line(self, depth, text):
        self.lines.append("    " * depth + text)

    def count_step(self, depth, loop):
        """Every pass of every loop counts its work against
        ``Limits.max_steps`` (``Work.loop_pass``), as the ops' loops do, so
        an endless loop still stops."""
        self.line(depth, f"st.steps += {self.ctx.prog.work.loop_pass(loop)}")
        self.line(depth, "if st.steps > _lim:")
        self.line(depth + 1, f"raise RuleFault({self.source.const(_RUNAWAY)} % _lim)")

    def block(self, stmts, depth):
        if not stmts:
            self.line(depth, "pass")
        for s in stmts:
            self.stmt(s, depth)

    def mark(self, s, depth):
        """The comment naming the place of statement ``s``."""
        wheres = self.ctx.wheres
        self.line(depth, codegen.at_line(len(wheres), self.ctx.where(s)))
        wheres.append(self.ctx.where(s))

    def stmt(self, s, depth):
        self.mark(s, depth)
        src = self.source.src
        cond = self.source.cond
        if isinstance(s, ir.If):
            self.line(depth, f"if {cond(s.cond)}:")
            self.block(s.then, depth + 1)
            while len(s.orelse) == 1 and isinstance(s.orelse[0], ir.If):
                s = s.orelse[0]
                self.mark(s, depth)     # (a comment between the blocks: names the 'else if')
                self.line(depth, f"elif {cond(s.cond)}:")
                self.block(s.then, depth + 1)
            if s.orelse:
                self.line(depth, "else:")
                self.block(s.orelse, depth + 1)
        elif isinstance(s, ir.While):
            self.line(depth, f"while {cond(s.cond)}:")
            self.count_step(depth + 1, s)
            self.block(s.body, depth + 1)
        elif isinstance(s, ir.Repeat):
            self.line(depth, f"for {self.source.temp()} in range({src(s.times)}):")
            self.count_step(depth + 1, s)
            self.block(s.body, depth + 1)
        elif isinstance(s, ir.ForEachPlayer):
            self.each_player(s, depth)
        elif isinstance(s, ir.ForEachPiece):
            ctx = self.ctx
            var = ctx.local(s.var, ("piece", s.pieces))
            ctx.piece_locals[s.var] = s.pieces
            self.each(f"for fr[{var}] in range({len(ctx.prog.piece_names[s.pieces])}):",
                      ctx.piece_scope, (s.pieces, f"fr[{var}]"), s, depth)
        elif isinstance(s, ir.ForEachCard):
            ctx = self.ctx
            var = ctx.local(s.var, CARD)
            ctx.card_locals.add(s.var)
            ctx.card_from[s.var] = ctx.pile_seen(s.pile)
            # Over the cards the pile holds when the loop starts.
            self.each(f"for fr[{var}] in tuple(st.piles[{ctx.pile_src(s.pile)}]):",
                      ctx.card_scope, f"fr[{var}]", s, depth)
        elif isinstance(s, ir.Stop):
            self.line(depth, "break")
        elif isinstance(s, ir.Let):
            slot = self.ctx.local(s.name, VALUE)
            self.ctx.let_seen(s)
            self.line(depth, f"fr[{slot}] = {src(s.value)}")
        elif isinstance(s, ir.Assign):
            place, keep = self.ctx.assign_place(s)
            value = src(s.value)
            if s.op != "=":
                value = f"{place} {codegen.operator(s.op[:1])} ({value})"
            if s.op == "=" and isinstance(s.value, (ir.Bool, ir.NoneLit)):
                self.line(depth, f"{place} = {value}")    # a keeper keeps these as they are
                return
            # A plain int inside the bounds is kept as it is; anything else
            # goes through the keeper (clamped, checked, or not a number).
            lo, hi = keep.bounds
            t = self.source.temp()
            self.line(depth, f"{place} = {t} if type({t} := {value}) is int and {lo} <= {t} <= {hi} "
                             f"else {self.source.const(keep)}({t})")
        elif isinstance(s, ir.MoveCards):
            self.move_cards(s, depth)
        elif isinstance(s, ir.MoveAll):
            ctx = self.ctx
            a = self.source.temp()
            self.line(depth, f"{a} = st.piles[{ctx.pile_src(s.source)}]")
            self.line(depth, f"st.piles[{ctx.pile_src(s.dest)}].extend({a})")
            self.line(depth, f"{a}.clear()")
        else:
            getattr(self, type(s).__name__.lower())(s, depth)

    def spend(self, s, depth):
        """``spend N dice OP V from POOL``: the fitting dice nearest V go."""
        faces, src = f"fr[{self.ctx.locals[s.pool]}]", self.source
        self.line(depth, f"{faces} = _spend_dice(st, {faces}, {src.src(s.count)}, "
                         f"{src.src(s.value)}, {src.const(_CMP[s.op])})")

    def skip(self, s, depth):
        name = self.source.const(s.phase)
        self.line(depth, f"if {name} not in st.skips:")     # each phase once: skips do not pile up
        self.line(depth + 1, f"st.skips = st.skips + ({name},)")

    def movecard(self, s, depth):
        """``move CARD from A to B``: one card of that name (any deck's)."""
        ctx, src = self.ctx, self.source
        a, c = src.temp(), src.temp()
        name = ctx.prog.card_names[ctx.prog.card_by_name[s.card]]
        self.line(depth, f"{a} = st.piles[{ctx.pile_src(s.source)}]")
        self.line(depth, f"for {c} in {src.const(tuple(ctx.prog.cards_named(s.card)))}:")
        self.line(depth + 1, f"if {c} in {a}:")
        self.line(depth + 2, f"{a}.remove({c})")
        self.line(depth + 2, f"st.piles[{ctx.pile_src(s.dest)}].append({c})")
        self.line(depth + 2, "break")
        self.line(depth, "else:")
        self.line(depth + 1, f"raise RuleFault({src.const(f'card {name} is not in {s.source.name}')})")

    def log(self, s, depth):
        """A log line: its placeholders filled in (``shown``).  A part that
        shows cards (or what was made from them) is read in full only by
        those who may see those cards; the rest read it masked."""
        ctx, src = self.ctx, self.source
        parts = ir.log_parts(s.text, s.pos)
        note = f"st.note(fr[{PLAYER}], 'log', "
        self.line(depth, "if st.logging:")
        if all(isinstance(p, str) for p in parts):
            self.line(depth + 1, f"{note}{src.const(s.text)}, None)")
            return
        most = ctx.prog.limits.max_text
        shown = [src.const(p) if isinstance(p, str) else self.shown(p) for p in parts]
        seen = [[] if isinstance(p, str) else ctx.seen_sources(p) for p in parts]
        text = f"_text(({', '.join(shown)},), {most})"
        if not any(seen):
            self.line(depth + 1, f"{note}{text}, None)")
            return
        masked = [f if not who else src.const(ctx.masked(p)) for p, f, who in zip(parts, shown, seen)]
        who = "_EVERYONE"
        for w in (w for ws in seen for w in ws):
            who = f"_both({who}, {w})"
        t, w = src.temp(), src.temp()
        self.line(depth + 1, f"{w} = {who}")
        self.line(depth + 1, f"{t} = {text}")
        self.line(depth + 1, f"if {w} is _EVERYONE:")
        self.line(depth + 2, f"{note}{t}, None)")
        self.line(depth + 1, "else:")
        self.line(depth + 2, f"{note}{t}, None, _text(({', '.join(masked)},), {most}), {w})")

    def shown(self, part):
        """Source of the text of one placeholder of a log line: pieces and
        cards by name, yes/no, none, numbers and words as they are."""
        ctx, src = self.ctx, self.source
        value = src.src(part)
        name = part.name if isinstance(part, ir.Name) else None
        if name in ctx.chosen_locals:
            return f"_show_cards({value}, {src.const(ctx.prog.card_names)})"
        if name in ctx.piece_locals:
            return f"_show({value}, {src.const(ctx.prog.piece_names[ctx.piece_locals[name]])})"
        if name in ctx.card_locals:
            return f"_show({value}, {src.const(ctx.prog.card_names)})"
        return f"_show({value}, None)"


    def move_cards(self, s, depth):
        """``move CARDS from A to B``: the cards a local holds (one card, or
        a tuple of them); a card not in A is an error naming it."""
        ctx, src = self.ctx, self.source
        a, b, cards, c = src.temp(), src.temp(), src.temp(), src.temp()
        text = f"card %s is not in {s.source.name}"
        missing, names = src.const(text), src.const(ctx.prog.card_names)
        self.line(depth, f"{a} = st.piles[{ctx.pile_src(s.source)}]")
        self.line(depth, f"{b} = st.piles[{ctx.pile_src(s.dest)}]")
        self.line(depth, f"{cards} = fr[{ctx.locals[s.cards]}]")
        if ctx.prog.work.cards > O.FEW_CARDS:
            # Many cards go in one pass over the pile (``ops.take_cards``).
            self.line(depth, f"if type({cards}) is tuple and len({cards}) > {O.ONE_BY_ONE}:")
            self.line(depth + 1, f"{src.const(O.take_cards)}({a}, {b}, {cards}, {missing}, {names})")
            self.line(depth, "else:")
            depth += 1
        self.line(depth, f"for {c} in ({cards},) if type({cards}) is int else {cards} or ():")
        self.line(depth + 1, "try:")
        self.line(depth + 2, f"{a}.remove({c})")
        self.line(depth + 1, "except ValueError:")
        self.line(depth + 2, f"raise RuleFault({missing} % {names}[{c}]) from None")
        self.line(depth + 1, f"{b}.append({c})")

    def each(self, head, scope, item, s, depth):
        """A 'for each' over pieces or cards (``head``, the Python loop, sets
        the loop's local): the thing looked at is in scope (``item`` on
        ``scope``) for the 'where', not for the body."""
        self.line(depth, head)
        scope.append(item)
        try:
            self.loop_test(s.cond, depth + 1)
        finally:
            scope.pop()
        self.count_step(depth + 1, s)
        self.block(s.body, depth + 1)

    def loop_test(self, cond, depth):
        """Skip a 'for each' pass whose thing does not meet ``cond``."""
        if cond is not None:
            self.line(depth, f"if not {self.source.cond(cond)}:")
            self.line(depth + 1, "continue")

    def each_player(self, s, depth):
        """``for each [other] player [as p] [where …]``, seats in turn order
        from the first seat as the loop starts; without ``as``, each player
        is the player in scope in the body, and the one before comes back
        after the loop (also after a 'stop')."""
        src, ctx = self.source, self.ctx
        me, first, i = src.temp(), src.temp(), src.temp()
        self.line(depth, f"{me} = fr[{PLAYER}]")
        self.line(depth, f"{first} = {self.ctx.prog.first_seat_src}")
        seat = f"fr[{ctx.local(s.var, SEAT)}]" if s.var else f"fr[{PLAYER}]"
        if not s.var:
            self.line(depth, "try:")
            depth += 1
        self.line(depth, f"for {i} in range(st.n):")
        self.line(depth + 1, f"{seat} = ({first} + {i}) % st.n")
        if s.other:
            self.line(depth + 1, f"if {seat} == {me}:")
            self.line(depth + 2, "continue")
        self.loop_test(s.cond, depth + 1)
        self.count_step(depth + 1, s)
        self.block(s.body, depth + 1)
        if not s.var:
            self.line(depth - 1, "finally:")
            self.line(depth, f"fr[{PLAYER}] = {me}")


_RUNAWAY = O.RUNAWAY

#: The most IR nodes one run of plain statements (a ``PureOp``) holds.
PURE_NODES = 2000


def _stub(st, fr):
    return _build()(st, fr)     # noqa: F821 (each compiled function's globals hold its _build)


def compiled(src, gen_env):
    """fn(st, fr) -> the value of the expression source ``src`` (``Source``),
    turned into Python the first time it is called: most never are (each
    code's generated function has their source inline, ``fn.src``), and
    compiling them all would be most of the time a ruleset takes to load.
    On its first call the function takes the compiled code as its own.
    ``gen_env`` is the program's ``Program.gen_env``."""
    env = dict(gen_env)

    def build():
        real = eval(compile(f"lambda st, fr: {src}", "<rulelang expression>", "eval"), env)
        fn.__code__ = real.__code__
        return real
    env["_build"] = build
    fn = types.FunctionType(_stub.__code__, env, "expression")
    fn.src = src
    return fn


def _nothing(st, fr):
    pass


def _never_none(e):
    """Whether expression ``e`` always has a value (a number, or an error
    when it cannot be worked out), so a comparison need not test it."""
    if isinstance(e, (ir.Num, ir.Round, ir.PileSize, ir.CountCards, ir.SumCards)):
        return True
    if isinstance(e, ir.BinOp):
        return e.op not in ("and", "or")
    if isinstance(e, ir.PlayerQuery):
        return e.quantifier == "count"
    if isinstance(e, ir.Neg):
        return True
    return False


def _big_result(r, big):
    """The value of an arithmetic result that is not a plain in-range int:
    two pools of dice put together pass; a number too big is an error."""
    if type(r) is tuple:
        return r
    if type(r) is bool or (type(r) is int and -big <= r <= big):
        return r
    raise _too_big(big)


def _big_checker(dice):
    """``_big_result`` for a program whose pools hold at most ``dice``
    dice (``Limits.max_dice``): two pools put together may not make more."""
    def big_result(r, big):
        if type(r) is tuple and len(r) > dice:
            raise _too_many_dice(len(r), dice)
        return _big_result(r, big)
    return big_result


# ------------------------------------------------- what generated code calls


def _count_faces(st, faces, v, cmp):
    """How many of a pool's dice meet ``cmp`` with ``v`` (none with no
    value); the dice looked at are work."""
    faces = faces or ()
    st.steps += len(faces)
    if v is None:
        return 0
    return sum(1 for face in faces if cmp(face, v))


def _spend_dice(st, faces, n, v, cmp):
    """The pool ``faces`` without the ``n`` dice meeting ``cmp`` with ``v``
    nearest to ``v`` (the lower first); the dice looked at are work."""
    dice = faces or ()
    st.steps += len(dice)
    if v is None or n is None or n <= 0:
        return faces
    fit = sorted((i for i, f in enumerate(dice) if cmp(f, v)),
                 key=lambda i: (abs(dice[i] - v), dice[i]))[:n]
    gone = set(fit)
    return tuple(f for i, f in enumerate(dice) if i not in gone)


def _note_test(st, who, what, roll, target, passed, margin):
    st.note(who, "test", f"test of {what} ({target}): rolled {roll}, "
                         f"{'passed' if passed else 'failed'}{'' if passed else f' by {margin}'}",
            (what, roll, target, passed, margin))


def _show(v, names):
    """A value as a log line shows it (``names``: of the pieces or cards
    an index stands for)."""
    if v is None:
        return "none"
    if v is True or v is False:
        return "yes" if v else "no"
    return names[v] if names is not None else str(v)


def _show_cards(cards, names):
    return ", ".join(names[c] for c in cards) if cards else "nothing"


def _text(parts, most):
    """A log line from its parts, cut at ``most`` characters (``Limits.max_text``)."""
    out = "".join(parts)
    return out if len(out) <= most else out[:most] + "…"


#: Statements that never wait: Python written by ``PureBlock``, alone or in
#: a run of their neighbours.
_SIMPLE = (ir.Assign, ir.Let, ir.Log, ir.Skip, ir.MoveAll, ir.MoveCards, ir.MoveCard, ir.Spend)


#: All that generated code can name (no builtins beyond these).
_GENERATED_ENV = {
    "_big": _big_result, "_div": _floordiv, "_mod": _mod, "min": min, "max": max, "abs": abs,
    "bool": bool, "len": len, "type": type, "int": int, "tuple": tuple, "sum": sum, "any": any,
    "range": range, "map": map, "str": str, "Exception": Exception, "ValueError": ValueError,
    "AssertionError": AssertionError, "RulesetRuntimeError": RulesetRuntimeError,
    "PureFault": O.PureFault, "RuleFault": RuleFault, "sorted": sorted, "set": set,
    "_count_faces": _count_faces, "_spend_dice": _spend_dice, "_note_test": _note_test,
    "_show": _show, "_show_cards": _show_cards, "_text": _text, "_both": both,
    "_pile_seen_by": pile_seen_by, "_EVERYONE": EVERYONE, "_NOBODY": NOBODY, "__builtins__": {},
}
