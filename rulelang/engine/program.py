"""Compile a checked IR into the rule machine's program, once per load.

``Program`` lays out the state (a player's stat is ``st.v[player * K + k]``,
a global ``st.g[k]``, a local ``fr[3 + i]``) and builds every code: the
statements of each rule, table, option and phase become ops and generated
Python (``lower.Ctx``), expressions Python source (``source.Source``).  The
parse tree is never walked at run time.
"""

from __future__ import annotations

import functools
import itertools
from typing import Any, Callable, Dict, FrozenSet, Iterator, List, Optional, Sequence, Set, Tuple, Union

import attrs

from .. import ir, trust
from ..check.purity import names_read
from ..errors import RulesetCheckError
from ..limits import DEFAULT as DEFAULT_LIMITS, Limits
from . import codegen
from . import ops as O
from .lower import Ctx
from .kinds import CARD, COUNT, Bound, Compiled, Fn, Kind, Where
from .ops import LOCALS, PLAYER
from .runtime import ARITH, GENERATED_ENV, big_checker, compiled, nothing
from .source import Source
from .values import ValueRule
from .work import Work


#: What a scale prints as one name: by value, or by rows (``Program.scale_table``).
ScaleTable = Union[Dict[int, Any], Tuple[Tuple[int, ...], Tuple[int, ...], Tuple[Any, ...]]]


class Program:
    """Everything the machine needs, built from one ruleset by
    ``compile_ruleset`` and then frozen: no attribute can be set or
    replaced while games run (what the machine fills in as it goes, the
    generated functions and the tables made on first use, are the items of
    containers built here)."""

    _frozen = False

    # Set once every code is built (``compile_ruleset``, ``Work.finish``).
    runners: List[Optional[Fn]]
    push_cost: List[int]
    turn_cost: int
    idle_cost: int

    def __setattr__(self, name: str, value: Any) -> None:
        if self._frozen:
            raise AttributeError(f"a compiled program is frozen: cannot set {name!r}")
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a compiled program is frozen: cannot delete {name!r}")

    def __init__(self, rs: ir.Ruleset, limits: Optional[Limits] = None) -> None:
        # Nothing is compiled that has not passed the trust boundary.
        self.limits = limits or DEFAULT_LIMITS
        rs = self.rs = trust.admit(rs, self.limits)
        self.filename = rs.filename
        self.source = rs.source
        # Stats.
        self.player_stats = [s for s in rs.stats if s.scope in ("player", "turn")]
        self.turn_stats = [s for s in rs.stats if s.scope == "turn"]
        # An actor's stats are kept as globals are, named ``actor.stat``
        # (a name no rule file can give a stat of its own).
        self.actor_names = frozenset(a.name for a in rs.actors)
        own = [s for s in rs.stats if s.scope == "global"]
        #: how many of ``global_stats`` are the game's own (the actors' follow)
        self.own_globals = len(own)
        self.global_stats = own + [
            attrs.evolve(st, name=f"{a.name}.{st.name}", scope="global")
            for a in rs.actors for st in a.stats]
        self.K = len(self.player_stats)
        self.player_stat_names = [s.name for s in self.player_stats]
        self.pslot = {s.name: i for i, s in enumerate(self.player_stats)}
        self.gslot = {s.name: i for i, s in enumerate(self.global_stats)}
        self.stat_decl = {s.name: s for s in (*rs.stats, *self.global_stats)}
        #: (slot, sight) of each player stat that is hidden or secret (``visibility``)
        self.player_sight = [(k, s.sight) for k, s in enumerate(self.player_stats) if s.sight]
        #: track -> space -> what that space prints ({field: value})
        self.track_data: Dict[str, Dict[str, Dict[str, Any]]] = {s.name: {sp.name: {p.name: _literal(p.value) for p in sp.props}
                                    for sp in s.spaces}
                           for s in rs.stats if s.spaces}
        #: (slot, name, its scale's rows: [(low, high, {name: printed})]) of each player
        #: stat and each of the game's own globals with a scale, for ``view``
        self.player_scales = [(k, s.name, _rows(s)) for k, s in enumerate(self.player_stats) if s.scale]
        self.global_scales = [(i, s.name, _rows(s)) for i, s in enumerate(own) if s.scale]
        #: What the checker worked out: what each bare name means where it
        #: stands (``check.resolve.Resolved``), read by ``Ctx.bind``.
        self.resolved = trust.resolution(rs, self.limits)
        self.names = self.resolved.names
        self.consts: Dict[str, Any] = {}
        self._pieces(rs)
        # Cards and piles.  Every pile (decks included) gets an index; a
        # per-player pile gets a block of indexes, one per seat, placed
        # after the shared ones (so its index depends on the player count).
        self.card_names: List[str] = []
        self.card_props: Dict[str, Dict[int, Any]] = {}
        self.deck_contents: Dict[str, List[int]] = {}
        self.card_by_name: Dict[str, int] = {}
        for deck in rs.decks:
            contents: List[int] = []
            for card in deck.cards:
                cid = len(self.card_names)
                self.card_names.append(card.name)
                self.card_by_name.setdefault(card.name, cid)
                for prop in card.props:
                    self.card_props.setdefault(prop.name, {})[cid] = _literal(prop.value)
                contents.extend([cid] * ir.copies(card, rs))
            self.deck_contents[deck.name] = contents
        # An actor's piles are shared piles named ``actor.pile``.
        actor_piles = [attrs.evolve(p, name=f"{a.name}.{p.name}") for a in rs.actors for p in a.piles]
        self.shared_piles = [d.name for d in rs.decks if not d.per_player] \
            + [p.name for p in rs.piles if not p.per_player] + [p.name for p in actor_piles]
        #: how many of ``shared_piles`` are the game's own (the actors' follow)
        self.own_shared_piles = len(self.shared_piles) - len(actor_piles)
        # A player's own decks first, then their other piles.
        self.player_piles = [d.name for d in rs.decks if d.per_player] \
            + [p.name for p in rs.piles if p.per_player]
        self.pile_index = {name: i for i, name in enumerate(self.shared_piles)}
        self.player_pile_index = {name: i for i, name in enumerate(self.player_piles)}
        self.hidden_piles = {p.name for p in (*rs.piles, *actor_piles) if p.hidden}
        self.shared_hidden = [name in self.hidden_piles for name in self.shared_piles]
        self.deck_names = {d.name for d in rs.decks}
        self.player_hidden = [name in self.hidden_piles for name in self.player_piles]
        #: per per-player pile: whether nobody sees its cards (a player's own deck)
        self.player_secret = [name in self.deck_names for name in self.player_piles]
        #: per shared pile: whether nobody sees its cards (a deck, a hidden pile)
        self.shared_secret = [name in self.deck_names or name in self.hidden_piles
                              for name in self.shared_piles]
        # How a card is named in move labels: its name, unless that is
        # ambiguous (the same name in two decks: "Joker (red)"; a name that
        # could be read as a list or as no card: quoted).
        decks_of: Dict[str, List[str]] = {}
        for deck in rs.decks:
            for card in deck.cards:
                decks_of.setdefault(card.name, []).append(deck.name)
        self.card_labels: List[str] = []
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
        self.codes: List[List[O.Op]] = []        # list of op lists
        self.code_names: List[str] = []
        self.nlocals: List[int] = []
        #: per code, per local: the kinds of value it may hold (``LOCAL_KINDS``)
        self.local_kinds: List[List[Tuple[Kind, ...]]] = []
        self.rule_code: Dict[str, int] = {}
        self.table_code: Dict[str, int] = {}
        self.table_rows: Dict[str, List[Tuple[str, int, int, int]]] = {}
        self.option_code: Dict[str, int] = {}
        self.trigger_conds: Dict[str, List[Tuple[Compiled, int]]] = {}   # stat name -> [(cond, code)]
        self.tables = {t.name: t for t in rs.tables}
        self.rules = {r.name: r for r in rs.rules}
        self._value_rules: Dict[str, ValueRule] = {}
        self.options = {o.name: o for o in rs.options}
        self.reroll: Optional[Tuple[Compiled, Fn]] = None
        self.reroll_src: Optional[str] = None
        self.turn_when: Optional[Compiled] = None
        # Generated code (``Source``, ``PureBlock``, ``codegen``): one list of
        # constants ``C`` and one counter of temporaries for the program, so
        # any generated fragment is valid inside any generated function.
        self.gen_consts: List[Any] = []
        #: What generated code can name (``GENERATED_ENV``, the constants,
        #: and this program's check of results of ``+``).
        self.gen_env: Dict[str, Any] = {**GENERATED_ENV, "C": self.gen_consts,
                        "_big": big_checker(self.limits.max_dice)}
        self.gen_temps: Iterator[int] = itertools.count(1)
        #: The static work of things (``Work``); per code, the work of one run
        #: of its statements (loops counted by their passes), and then, once
        #: every code is built, what a frame of it counts when it starts.
        self.work = Work(self)
        self.code_work: List[int] = []
        self.code_pos: List[Optional[ir.Pos]] = []
        self.stmt_sizes: Dict[int, int] = {}   # id of a statement -> its IR nodes (``Ctx.size``)
        self.hoisting: Set[int] = set()        # ids of nodes with a part made first (``Ctx.hoists``)
        #: (property, default) -> its value for each card (``card_table``)
        self.card_tables: Dict[Tuple[str, Any], List[Any]] = {}
        #: card name -> its ids (one in each deck that has it: ``cards_named``)
        self.card_ids: Dict[str, List[int]] = {}
        for i, n in enumerate(self.card_names):
            self.card_ids.setdefault(n, []).append(i)
        self.track_tables: Dict[Tuple[str, str], Dict[str, Any]] = {}  # (track, value) -> {space: that value}
        #: (id of a stat with a scale, a name it prints) -> ``scale_table``
        self.scale_tables: Dict[Tuple[int, str], ScaleTable] = {}
        self.op_functions: Dict[Tuple[int, int], Fn] = {}  # (code, pc) -> an op run alone (``op_function``)
        #: code of a rule that gives a value -> its local holding the slot of
        #: the caller's frame the value goes to (``ops.CallOp``, ``ops.GiveOp``)
        self.give_slot: Dict[int, int] = {}
        #: players -> who may see each pile, by index (``visibility.seen_by_pile``)
        self.seen_by_pile: Dict[int, List[Any]] = {}
        self.code_wheres: List[List[Where]] = []  # per code: the (rule, pos) its generated code names by index
        #: What can be filled in only once every code is built (a choice of a
        #: table's rows needs where the table's rows start): run by compile_ruleset.
        self.after_build: List[Callable[[], None]] = []
        self._build()

    # ------------------------------------------------------------- building

    def may_hide(self, ref: ir.PileRef) -> bool:
        """Whether pile ``ref`` may be hidden from someone (``visibility.pile_seen_by`` decides)."""
        name = self.pile_key(ref)
        return name in self.deck_names or name in self.hidden_piles

    def chooser_may_not_see(self, ref: ir.PileRef) -> bool:
        """Whether the player in scope may be unable to see the cards of
        the pile ``ref`` names (``may_hide``), so a choice among them must
        be checked as it comes (``choices.refuse_blind``): not for the
        chooser's own hidden pile (its hand), which its owner sees."""
        if not self.may_hide(ref):
            return False
        own = ref.owner is None and ref.name in self.player_piles
        return not (own and ref.name not in self.deck_names)

    def pile_key(self, ref: ir.PileRef) -> str:
        """The name a pile is kept under: ``actor.pile`` for an actor's."""
        return f"{ref.owner}.{ref.name}" if ref.owner in self.actor_names else ref.name

    def _pieces(self, rs: ir.Ruleset) -> None:
        """Lay out the piece sets: each piece's state values live in the
        state's globals list after the global stats, ``KS`` values a piece;
        fixed attributes are tables looked up at compile time."""
        self.piece_sets = {ps.name: ps for ps in rs.pieces}
        self.piece_names: Dict[str, List[str]] = {}
        self.piece_slot: Dict[str, Dict[str, int]] = {}     # set -> {state field: k}
        self.piece_K: Dict[str, int] = {}        # set -> values a piece
        self.piece_base: Dict[str, int] = {}     # set -> index of its first value in st.g
        self.piece_attr: Dict[str, Dict[str, List[Any]]] = {}  # set -> {attribute: [value per piece]}
        self.piece_init: List[Any] = []     # starting values, in st.g order after the globals
        base = len(self.global_stats)
        for ps in rs.pieces:
            self.piece_names[ps.name] = [p.name for p in ir.pieces_of(ps, rs)]
            self.piece_slot[ps.name] = {st.name: k for k, st in enumerate(ps.state)}
            self.piece_K[ps.name] = len(ps.state)
            self.piece_base[ps.name] = base
            base += len(ps.state) * len(ir.pieces_of(ps, rs))
            attrs_of: Dict[str, List[Any]] = {}
            for i, piece in enumerate(ir.pieces_of(ps, rs)):
                given = {prop.name: _literal(prop.value) for prop in piece.props}
                for st in ps.state:
                    self.piece_init.append(given.get(st.name, _literal(st.initial)))
                for name, value in given.items():
                    if name not in self.piece_slot[ps.name]:
                        column = attrs_of.get(name)
                        if column is None:      # (made once: not a list a piece)
                            column = attrs_of[name] = [None] * len(self.piece_names[ps.name])
                        column[i] = value
            self.piece_attr[ps.name] = attrs_of
        #: set -> (what each piece shows that never changes: its name and
        #: attributes, in that order; its state fields' names, whose values
        #: follow one another in st.g), for ``view``
        self.piece_view: Dict[str, Tuple[List[Dict[str, Any]], Tuple[str, ...]]] = {
            pset: ([{"name": name, **{attr: values[i] for attr, values in self.piece_attr[pset].items()}}
                    for i, name in enumerate(names)],
                   tuple(self.piece_slot[pset]))
            for pset, names in self.piece_names.items()}
        #: board -> direction -> [the space one link away from each space, or None]
        #: (for a direction that branches, the first such space: see ``board_adj``)
        self.board_step: Dict[str, Dict[str, List[Optional[int]]]] = {}
        #: board -> direction -> [(every space one link away from each space)]
        self.board_links: Dict[str, Dict[str, List[Tuple[int, ...]]]] = {}
        self._adj: Dict[Tuple[str, Tuple[str, ...]], List[Tuple[int, ...]]] = {}
        self._distances: Dict[Tuple[str, Tuple[str, ...]], List[List[Optional[int]]]] = {}
        #: board -> ((steps one way, steps the opposite way) of each line its rows run along)
        self.board_lines: Dict[str, Tuple[Tuple[List[Optional[int]], List[Optional[int]]], ...]] = {}
        for ps in rs.pieces:
            if ps.links:
                index = {name: i for i, name in enumerate(self.piece_names[ps.name])}
                steps: Dict[str, List[Optional[int]]] = {
                    d: [None] * len(index) for d in ir.directions(ps)}
                ways: Dict[str, List[Dict[int, None]]] = {
                    d: [{} for _ in index] for d in ir.directions(ps)}
                for link in ps.links:
                    a, b = index[link.frm], index[link.to]
                    if steps[link.direction][a] is None:
                        steps[link.direction][a] = b
                    ways[link.direction][a][b] = None
                self.board_step[ps.name] = steps
                self.board_links[ps.name] = {d: [tuple(n) for n in w] for d, w in ways.items()}
                self.board_lines[ps.name] = tuple((steps[a], steps[b]) for a, b in ir.axes(ps))
        #: (set, index in st.g of its first value, values a piece, pieces,
        #: [(slot, field, sight)] of its hidden or secret fields, slot of
        #: its 'owner' or None) of each piece set with such fields
        self.piece_sight: List[Tuple[str, int, int, int, List[Tuple[int, str, str]], Optional[int]]] = [
            (ps.name, self.piece_base[ps.name], self.piece_K[ps.name], len(self.piece_names[ps.name]),
             [(k, st.name, st.sight) for k, st in enumerate(ps.state) if st.sight],
             self.piece_slot[ps.name].get("owner"))
            for ps in rs.pieces if any(st.sight for st in ps.state)]
        #: the places in st.g of every hidden or secret piece value
        self.piece_sight_g = frozenset(base + i * K + k for _, base, K, n, fields, _ in self.piece_sight
                                       for i in range(n) for k, _, _ in fields)
        #: the values that hold a piece or space, named in ``view`` by its name:
        #: (slot, names) of the player and global stats, set -> (field, names)
        names_of = self.piece_names
        self.player_holds = [(k, names_of[s.holds]) for k, s in enumerate(self.player_stats) if s.holds]
        self.global_holds = [(i, names_of[s.holds]) for i, s in enumerate(self.global_stats) if s.holds]
        self.piece_holds = {ps.name: [(st.name, names_of[st.holds]) for st in ps.state if st.holds]
                            for ps in rs.pieces if any(st.holds for st in ps.state)}

    @functools.cached_property
    def pieces_view(self) -> Callable[[List[Any]], Dict[str, List[Dict[str, Any]]]]:
        """fn(g) -> every piece as ``view`` shows it (``codegen.pieces_view``), written when first asked."""
        return codegen.pieces_view(self.piece_view, self.piece_base, self.piece_K, self.filename)

    def value_rule(self, name: str) -> ValueRule:
        """Rule ``name``, which only works out a value, as a function
        (``values``): one for the program, written when first called."""
        made = self._value_rules.get(name)
        if made is None:
            made = self._value_rules[name] = ValueRule(self, self.rules[name])
        return made

    def holder(self, name: str) -> Optional[str]:
        """The piece set or board whose piece or space the global ``name``
        holds (``where_now one of zones``), or None."""
        decl = self.stat_decl.get(name)
        return decl.holds if decl is not None and decl.scope == "global" else None

    def board_adj(self, board: str, along: Sequence[str]) -> List[Tuple[int, ...]]:
        """[(every space one link away from each space of ``board``, along
        those directions (any, when none))], made once for each board and
        directions: what the walks of ``distance`` and ``connected`` step
        through (a space may have many links of one kind)."""
        key = (board, tuple(along))
        adj = self._adj.get(key)
        if adj is None:
            links = self.board_links[board]
            tables = [links[d] for d in along] if along else list(links.values())
            n = len(self.piece_names[board])
            adj = self._adj[key] = [tuple(dict.fromkeys(j for t in tables for j in t[i]))
                                    for i in range(n)]
        return adj

    def distances(self, board: str, along: Sequence[str]) -> Optional[List[List[Optional[int]]]]:
        """[from][to] -> the fewest links between two spaces of ``board``,
        stepping ``along`` those directions (any, when none), or None; made
        once for each board and directions (``distance from a to b``).
        None for a board too large for a table (MOST_TABLED spaces)."""
        n = len(self.piece_names[board])
        if n > MOST_TABLED:
            return None
        key = (board, tuple(along))
        table = self._distances.get(key)
        if table is None:
            adj = self.board_adj(board, along)
            table = self._distances[key] = [_walk_out(a, adj, n) for a in range(n)]
        return table

    def card_table(self, prop: str, default: Any = None) -> List[Any]:
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

    def cards_named(self, name: str) -> List[int]:
        """The ids of the cards called ``name`` (one in each deck that has it)."""
        return self.card_ids.get(name, [])

    def op_function(self, code_id: int, k: int) -> Fn:
        """Op ``k`` of a code run alone from its generated lines (``codegen.standalone``), made once."""
        fn = self.op_functions.get((code_id, k))
        if fn is None:
            fn = self.op_functions[code_id, k] = codegen.standalone(self, code_id, k)
        return fn

    def runner(self, code_id: int) -> Fn:
        """The generated function of code ``code_id`` (``codegen``), made the first time it runs."""
        fn = self.runners[code_id] = codegen.runner(self, code_id)
        return fn

    @functools.cached_property
    def scores(self) -> Callable[[Any], List[Any]]:
        """fn(st) -> each seat's score (``codegen.scores``), written when first asked."""
        return codegen.scores(self)

    def _first_seat_src(self) -> str:
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

    def _new_code(self, name: str, work: int = 0, pos: Optional[ir.Pos] = None) -> int:
        self.codes.append([])
        self.code_names.append(name)
        self.nlocals.append(0)
        self.local_kinds.append([])
        self.code_wheres.append([])
        self.code_work.append(work)
        self.code_pos.append(pos)
        return len(self.codes) - 1

    def _build(self) -> None:
        rs = self.rs
        for c in ir.constants(rs):
            self.consts[c.name] = self.const_value(c.value)
            big = self.limits.max_number
            v = self.consts[c.name]
            if not isinstance(v, bool) and isinstance(v, int) and not -big <= v <= big:
                pos = c.pos or ir.Pos(1, 1)
                raise RulesetCheckError.at(rs.filename, pos.line, pos.column,
                                           f"constant '{c.name}' is larger than {big}", rs.source)
        self.bounds: Dict[str, Tuple[Bound, Bound]] = {s.name: (None if s.min is None else self.const_value(s.min),
                                None if s.max is None else self.const_value(s.max))
                       for s in (*rs.stats, *self.global_stats)}
        self.first_seat_src = self._first_seat_src()
        self.first_seat = compiled(self.first_seat_src, self.gen_env)
        # Reserve code ids first so calls can refer to them.
        work = self.work
        self.main_code = self._new_code("the game")
        self.setup_code = self._new_code("setup", work.stmts(rs.setup))
        self.turn_code = self._new_code("the turn", work.turn(rs.turn),
                                        rs.turn and rs.turn.pos)  # type: ignore[arg-type]  # (a Turn is never false)
        #: The code run as each round begins ('every round'), or None.
        self.round_code: Optional[int] = None
        if rs.turn is not None and rs.turn.each_round:
            self.round_code = self._new_code("every round", work.stmts(rs.turn.each_round), rs.turn.pos)
        for r in rs.rules:
            self.rule_code[r.name] = self._new_code(f"rule {r.name}", work.code[("rule", r.name)],
                                                    r.pos)
        for t in rs.tables:
            self.table_code[t.name] = self._new_code(f"table {t.name}", work.code[("table", t.name)],
                                                     t.pos)
        for o in rs.options:
            self.option_code[o.name] = self._new_code(f"option {o.name}",
                                                      work.code[("option", o.name)], o.pos)
        trigger_codes: List[int] = []
        for trig in rs.triggers:
            trigger_codes.append(self._new_code(f"whenever (line {trig.pos.line if trig.pos else '?'})",
                                                work.stmts(trig.body), trig.pos))
        self.trigger_codes: FrozenSet[int] = frozenset(trigger_codes)
        # Triggers need their conditions before any assignment is compiled.
        cond: Optional[Compiled]    # (None for an 'on draw' rule without one)
        for trig, code in zip(rs.triggers, trigger_codes):
            ctx = Ctx(self, code, f"whenever (line {trig.pos.line if trig.pos else '?'})")
            cond = ctx.cond_expr(trig.cond)
            for name in names_read(trig.cond, self.rules):
                self.trigger_conds.setdefault(name, []).append((cond, code))
        # 'on draw' rules: code whose first local is the card drawn.  Every
        # draw (in any body, a reaction's or an 'on draw' rule's own) needs
        # the deck's rules, so they are all made before any body.
        self.draw_hooks: Dict[str, List[Tuple[Optional[Compiled], int]]] = {}  # deck name -> [(cond or None, code)]
        hook_bodies: List[Tuple[Ctx, Tuple[ir.Stmt, ...]]] = []
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
            cost = ctx.statements_function(rs.reroll.cost) if rs.reroll.cost else nothing
            self.reroll = (cond, cost)
        for r in rs.rules:
            ctx = Ctx(self, self.rule_code[r.name], f"rule {r.name}")
            ctx.params(r)
            if r.gives is not None:      # then, for a rule that gives a value, the
                # slot of the caller's frame to give it to ('give' names no local)
                self.give_slot[self.rule_code[r.name]] = ctx.local("give", COUNT)
            ctx.finish(r.body)
        for t in rs.tables:
            self._build_table(t)
        for o in rs.options:
            self._build_option(o)
        Ctx(self, self.setup_code, "setup").finish(rs.setup)
        if self.round_code is not None:
            Ctx(self, self.round_code, "every round").finish(rs.turn.each_round)  # type: ignore[union-attr]  # (a round code has a turn)
        main = self.codes[self.main_code]
        where: Where = ("the game", None)
        main.append(O.CallOp(where, self.setup_code))
        if rs.turn is not None:
            tctx = Ctx(self, None, "the turn")
            if rs.turn.when is not None:
                self.turn_when = tctx.cond_expr(rs.turn.when)
            self._build_turn(rs.turn)
            main.append(O.NextTurnOp(("the turn", rs.turn.pos)))
        else:
            main.append(O.NoTurnOp(where))
        self.endings: List[Tuple[str, Compiled]] = [(e.name, Ctx(self, None, f"end {e.name!r}").cond_expr(e.cond))
                        for e in rs.endings]
        # The turn loop's questions as source about a seat in a variable
        # (None where one needs a frame of its own): see codegen.
        ask = Ctx(self, None, "the turn")
        self.endings_src: List[Optional[str]] = [Source(ask).src_for_player(e.cond, "_p", cond=True) for e in rs.endings]
        #: The turn's 'until' (asked as the endings are), or None: a round is one pass.
        self.turn_until: Optional[Compiled] = None
        self.turn_until_src: Optional[str] = None
        if rs.turn is not None:
            self.turn_when_src: Optional[str] = None if rs.turn.when is None else \
                Source(ask).src_for_player(rs.turn.when, "_ts", cond=True)
            if rs.turn.until is not None:
                self.turn_until = Ctx(self, None, "the turn's 'until'").cond_expr(rs.turn.until)
                self.turn_until_src = Source(ask).src_for_player(rs.turn.until, "_p", cond=True)
        sctx = Ctx(self, None, "score")
        self.score_items: List[Tuple[Compiled, Optional[Compiled]]] = [(sctx.expr(i.points),
                             sctx.cond_expr(i.cond) if i.cond is not None else None)
                            for i in rs.score]
        self.heuristic_items: List[Tuple[Compiled, Optional[Compiled]]] = [  # as the score's (players)
            (sctx.expr(i.points), None if i.cond is None else sctx.cond_expr(i.cond)) for i in rs.heuristic]
        #: Who may win: the winner's 'where', asked about each seat
        #: (``State.result``), or None when anyone may.
        self.winner_where: Optional[Compiled] = None if rs.winner_where is None else \
            Ctx(self, None, "winner").cond_expr(rs.winner_where)
        init = Ctx(self, None, "initial values")
        self.player_init: List[Compiled] = [init.expr(s.initial) for s in self.player_stats]
        self.global_init: List[Compiled] = [init.expr(s.initial) for s in self.global_stats]
        self.turn_init: List[Tuple[int, Compiled]] = [(self.pslot[s.name], init.expr(s.initial)) for s in self.turn_stats]
        self.turn_init_src: List[Optional[str]] = [Source(init).src_for_player(s.initial, "_ts")
                              for s in self.turn_stats]

    def _build_turn(self, turn: ir.Turn) -> None:
        ctx = Ctx(self, self.turn_code, "the turn")
        for phase in turn.phases:
            ctx.name = f"phase {phase.name}"
            op = O.PhaseOp(ctx.where(phase), phase.name)
            ctx.emit(op)
            ctx.block(phase.body)
            op.end = len(ctx.code)
        ctx.done()

    def _build_table(self, table: ir.Table) -> None:
        code = self.table_code[table.name]
        ctx = Ctx(self, code, f"table {table.name}")
        slot = ctx.local("$roll", ("roll", 1, table.sides))  # local 0: the roll
        assert slot == LOCALS
        ctx.emit(O.RollOp(ctx.where(table), 1, table.sides, slot, f"{table.name}"))
        dispatch: Dict[int, int] = {}
        ends: List[O.Jump] = []
        dispatch_op_index = len(ctx.code)
        ctx.emit(None)  # type: ignore[type-var]  # placeholder for the dispatch
        starts: List[Tuple[ir.Row, int]] = []
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

    def _build_option(self, option: ir.Option) -> None:
        code = self.option_code[option.name]
        ctx = Ctx(self, code, f"option {option.name}")
        choose = O.ChooseOneOp(ctx.where(option), [c.label for c in option.choices], [],
                               option.prompt or option.name, option.name)
        ctx.emit(choose)
        ctx.choices(choose, option.choices)
        ctx.done()

    # --------------------------------------------------------------- values

    def scale_table(self, stat: ir.Stat, name: str) -> ScaleTable:
        """What the scale of ``stat`` (a stat or piece value) prints as
        ``name`` beside each of its values: {value: printed} over at most
        ``MOST_SCALE_VALUES`` values, else (lows, highs, printed) of its rows in
        order, for ``runtime._scale_row``.  Made once for each."""
        key = (id(stat), name)
        table = self.scale_tables.get(key)
        if table is None:
            rows = sorted(stat.scale or (), key=lambda r: r.low)
            printed = [next((_literal(p.value) for p in r.props if p.name == name), None)
                       for r in rows]
            if sum(r.high - r.low + 1 for r in rows) <= MOST_SCALE_VALUES:
                table = {v: x for r, x in zip(rows, printed) for v in range(r.low, r.high + 1)}
            else:
                table = (tuple(r.low for r in rows), tuple(r.high for r in rows), tuple(printed))
            self.scale_tables[key] = table
        return table

    def const_value(self, e: ir.Expr) -> Any:
        if isinstance(e, ir.Num):
            return e.value
        if isinstance(e, ir.Bool):
            return e.value
        if isinstance(e, ir.Neg):
            return -self.const_value(e.operand)
        if isinstance(e, ir.Name) and e.name in self.consts:
            return self.consts[e.name]
        if isinstance(e, ir.BinOp) and e.op in ARITH:
            return ARITH[e.op](self.const_value(e.left), self.const_value(e.right))
        if isinstance(e, ir.BinOp) and e.op in ("and", "or"):
            a, b = self.const_value(e.left), self.const_value(e.right)
            return (a and b) if e.op == "and" else (a or b)
        if isinstance(e, ir.Not):
            return not self.const_value(e.operand)
        if isinstance(e, ir.CallFn):
            # (mypy joins the three builtins to ``function``, which it cannot call)
            fn: Callable[..., Any] = {"min": min, "max": max, "abs": abs}[e.func]  # type: ignore[assignment]
            return fn(*[self.const_value(a) for a in e.args])
        raise ValueError("not a constant")


#: The most values a scale may span to be read from a table of every value
#: (a wider one finds its row by halving).
MOST_SCALE_VALUES = 1000

#: The most spaces a board may have for its distances to be tabled (a
#: table is this many squared; a larger board walks each time).
MOST_TABLED = 500


def _walk_out(start: int, adj: Sequence[Tuple[int, ...]], n: int) -> List[Optional[int]]:
    """The fewest links from ``start`` to each of ``n`` spaces (None: no
    way), stepping to the spaces ``adj`` lists beside each."""
    far: List[Optional[int]] = [None] * n
    far[start] = 0
    ring = [start]
    while ring:
        nxt = []
        for i in ring:
            d = (far[i] or 0) + 1      # (every space of the ring has its distance)
            for j in adj[i]:
                if far[j] is None:
                    far[j] = d
                    nxt.append(j)
        ring = nxt
    return far


def _rows(stat: ir.Stat) -> List[Tuple[int, int, Dict[str, Any]]]:
    """The rows of a stat's scale as (low, high, {name: what it prints})."""
    return [(r.low, r.high, {p.name: _literal(p.value) for p in r.props}) for r in stat.scale or ()]


def _literal(e: ir.Expr) -> Any:
    """The value of a literal node (number, yes/no, none, word)."""
    if isinstance(e, (ir.Num, ir.Bool)):
        return e.value
    if isinstance(e, ir.Name):
        return e.name
    return None


def compile_ruleset(rs: ir.Ruleset, limits: Optional[Limits] = None) -> Program:
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
    prog._frozen = True
    return prog
