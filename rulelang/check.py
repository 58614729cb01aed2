"""Stage 3: the static checker.  Reads the IR and reports every problem it
finds (not just the first), each with its place and, for a misspelt name,
the nearest known one.  Needs nothing from the engine, so an editor or a
linter can run it alone.
"""

from __future__ import annotations

import collections
import difflib
import itertools
from typing import Dict, List, Optional

from . import ir, resolve
from .errors import Diagnostic, source_line
from .limits import DEFAULT, Limits

#: The default limits on what a ruleset may declare (hostile or mistaken
#: input); ``check(rs, limits)`` takes others (see ``rulelang.limits``).
MAX_PLAYERS = DEFAULT.max_players
MAX_DIE_SIDES = DEFAULT.max_die_sides
MAX_DICE = DEFAULT.max_dice
MAX_POOL_OUTCOMES = DEFAULT.max_pool_outcomes   # dice x sides: the outcomes listed at a chance node
MAX_CARDS = DEFAULT.max_cards

POOL = "pool of dice"
CARD = "card"
NUM, BOOL, PLAYER, TEXT, CARDS, ANY = "number", "yes/no value", "player", "word", "cards", "any"

_FUNCS = {"min": (2, None), "max": (2, None), "abs": (1, 1)}

#: The names "did you mean" compares, in all, for one check: the
#: suggestions stop once this many have been looked at, so a file of
#: thousands of unknown names is checked in linear time (each still reported).
SUGGESTION_BUDGET = 100_000


class Checker:
    def __init__(self, rs: ir.Ruleset, limits: Limits = DEFAULT):
        self.rs = rs
        #: What every bare name means (the one lookup order, shared with the compiler).
        self.names = resolve.Names(rs)
        self.limits = limits
        self.diags: List[Diagnostic] = []
        self.warnings: List[Diagnostic] = []
        self.stat_types: Dict[str, str] = {}
        self.stats: Dict[str, ir.Stat] = {}
        self.track_props: Dict[str, Dict[str, str]] = {}   # track -> what its spaces print
        self.consts: Dict[str, ir.Const] = {}
        self.piles: Dict[str, object] = {}
        self.decks: Dict[str, ir.Deck] = {}
        self.tables: Dict[str, ir.Table] = {}
        self.rules: Dict[str, ir.Rule] = {}
        self.options: Dict[str, ir.Option] = {}
        self.phases: Dict[str, ir.Phase] = {}
        self.cards: set = set()
        self.props: Dict[str, set] = {}   # card property -> the kinds of its values
        self.enum_values: Dict[str, str] = {}
        self.used_rules: set = set()
        self.used_tables: set = set()
        self.used_options: set = set()
        self.reserved = reserved_words()
        #: Piece sets, and for each its fields: name -> (type, is_state).
        self.piece_sets: Dict[str, ir.PieceSet] = {}
        self.piece_fields: Dict[str, Dict[str, tuple]] = {}
        #: Decks that some statement draws from.
        self.drawn: set = set()
        #: Names "did you mean" may still look at (``nearest``).
        self.suggestions_left = SUGGESTION_BUDGET

    # ------------------------------------------------------------- reports

    def error(self, node, message):
        pos = getattr(node, "pos", None) or ir.Pos(1, 1)
        self.diags.append(Diagnostic(self.rs.filename, pos.line, pos.column, message,
                                     source_line(self.rs.source, pos.line)))

    def warn(self, node, message):
        pos = getattr(node, "pos", None) or ir.Pos(1, 1)
        self.warnings.append(Diagnostic(self.rs.filename, pos.line, pos.column,
                                        "warning: " + message,
                                        source_line(self.rs.source, pos.line)))

    def nearest(self, name, *candidates) -> str:
        """" — did you mean 'X'?" for the closest of the names in the
        ``candidates`` collections, or "".  Past ``SUGGESTION_BUDGET`` names
        looked at in all, no more suggestions (nor the lists they need)."""
        if self.suggestions_left <= 0:
            return ""
        known = list(itertools.chain.from_iterable(candidates))
        self.suggestions_left -= len(known) + 1
        close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
        return f" — did you mean '{close[0]}'?" if close else ""

    def _declare(self, table, kind, node, name):
        if name in table:
            first = getattr(table[name], "pos", None)
            where = f" (first declared on line {first.line})" if first else ""
            self.error(node, f"{kind} '{name}' is declared twice{where}")
            return False
        table[name] = node
        return True

    # ------------------------------------------------------------- the run

    def run(self) -> List[Diagnostic]:
        rs = self.rs
        where = ir.At(rs.players_pos)
        if rs.min_players < 1:
            self.error(where, f"players {rs.min_players}..{rs.max_players}: a game needs at least 1 player")
        if rs.max_players < rs.min_players:
            self.error(where, f"players {rs.min_players}..{rs.max_players}: the most players is "
                           f"fewer than the fewest")
        if rs.max_players > self.limits.max_players:
            self.error(where, f"players ..{rs.max_players}: at most {self.limits.max_players} "
                              f"players are supported")
        deep = ir.deepest(rs, self.limits.max_nesting)
        if deep is not None:
            # Too deep to walk safely: say so and stop here.
            self.error(deep, f"this is nested more than {self.limits.max_nesting} levels deep")
            return self.diags
        try:
            self.declarations()
            self.bodies()
        except RecursionError:
            self.diags.append(Diagnostic(rs.filename, 1, 1, "the ruleset is nested too deeply "
                                         "to check (raise the recursion limit or lower "
                                         "Limits.max_nesting)"))
        self.diags.sort(key=lambda d: (d.line, d.column))
        return self.diags

    def declarations(self):
        rs = self.rs
        for c in rs.consts:
            self._declare(self.consts, "constant", c, c.name)
        for s in rs.stats:
            if self._declare(self.stats, "stat", s, s.name):
                if s.name in self.consts:
                    self.error(s, f"'{s.name}' is both a constant and a stat")
            if s.values:
                for v in s.values:
                    if v in self.enum_values and self.enum_values[v] != s.name:
                        self.error(s, f"the word '{v}' is already a value of stat "
                                      f"'{self.enum_values[v]}'")
                    self.enum_values[v] = s.name
                    if v in self.stats or v in self.consts:
                        self.error(s, f"the word '{v}' is also the name of a stat or constant")
        for s in rs.stats:
            self.stat_shape(s)
            if s.scope == "piece":
                self.error(s, f"stat '{s.name}' is one per piece, but is not a piece set's value")
            if s.spaces:
                self.track(s)
        for s in rs.stats:
            if s.values:
                self.stat_types[s.name] = TEXT
            elif isinstance(s.initial, ir.Bool):
                self.stat_types[s.name] = BOOL
            elif isinstance(s.initial, ir.NoneLit):
                self.stat_types[s.name] = PLAYER
            elif isinstance(s.initial, ir.Num):
                self.stat_types[s.name] = NUM
            else:
                self.stat_types[s.name] = ANY
            lo, hi = self.bound(s, s.min), self.bound(s, s.max)
            if lo is not None and hi is not None and lo > hi:
                self.error(s, f"stat '{s.name}' has min {lo} above max {hi}")
            if isinstance(s.initial, ir.Num):
                v = s.initial.value
                if (lo is not None and v < lo) or (hi is not None and v > hi):
                    self.error(s, f"stat '{s.name}' starts at {v}, outside its bounds")
        declared = set()
        for s in rs.stats:
            self.name_ok(s, s.name, "a stat")
            if not isinstance(s.initial, (ir.Num, ir.Bool, ir.NoneLit)) and not s.values:
                scope = Scope(player=s.scope != "global",
                              no_rolls=_DECL_ROLL.format(what="a starting value"))
                later = sorted((ir.names_in(s.initial) & set(self.stats)) - declared - {s.name})
                if s.name in ir.names_in(s.initial):
                    self.error(s.initial, f"the starting value of '{s.name}' uses '{s.name}' itself")
                for name in later:
                    self.error(s.initial, f"the starting value of '{s.name}' uses '{name}', "
                                          f"which is declared after it")
                self.stat_types[s.name] = self.expr(s.initial, scope)
            declared.add(s.name)
        earlier = set()
        for c in rs.consts:
            self.name_ok(c, c.name, "a constant")
            bad = self.not_constant(c.value, earlier)
            if bad:
                self.error(c.value, f"constant '{c.name}' must be worked out from numbers and "
                                    f"earlier constants only; {bad}")
            else:
                t = self.expr(c.value, Scope(player=False, no_rolls="x"))
                if t not in (NUM, ANY, BOOL):
                    self.error(c, f"constant '{c.name}' must be a number or yes/no")
            earlier.add(c.name)
        for d in rs.decks:
            self._declare(self.piles, "pile", d, d.name)
            self.name_ok(d, d.name, "a deck")
            self.decks[d.name] = d
            seen = {}
            for card in d.cards:
                if card.name in seen:
                    self.error(card, f"card '{card.name}' appears twice in deck '{d.name}'")
                seen[card.name] = card
                self.cards.add(card.name)
                if card.count < 1:
                    self.error(card, f"card '{card.name}' has count {card.count}: a card needs x1 or more")
                props = set()
                for p in card.props:
                    if p.name in props:
                        self.error(p, f"card '{card.name}' gives '{p.name}' twice")
                    props.add(p.name)
                    kind = {ir.Num: NUM, ir.Bool: BOOL, ir.NoneLit: ANY, ir.Name: TEXT}.get(type(p.value), ANY)
                    if isinstance(p.value, ir.Name):
                        self.word_clash(p, p.value.name)
                    self.props.setdefault(p.name, set()).add(kind)
        self.sizes()
        for p in rs.piles:
            self._declare(self.piles, "pile", p, p.name)
            self.name_ok(p, p.name, "a pile")
        for d in rs.decks:
            if d.refill_from is not None:
                if d.refill_from not in self.piles:
                    self.error(d, f"deck '{d.name}' refills from '{d.refill_from}', which is not "
                                  f"a pile{self.nearest(d.refill_from, self.piles)}")
                elif isinstance(self.piles[d.refill_from], ir.Pile) and self.piles[d.refill_from].per_player:
                    self.error(d, f"deck '{d.name}' cannot refill from '{d.refill_from}', a pile "
                                  f"each player has")
        for t in rs.tables:
            self._declare(self.tables, "table", t, t.name)
            self.name_ok(t, t.name, "a table")
            self.check_die(t, t.sides)
            for row in t.rows:
                if row.low > row.high:
                    self.error(row, f"row {row.low}..{row.high} of table '{t.name}' runs backwards")
                if row.low < 1 or row.high > t.sides:
                    self.error(row, f"row {row.low}..{row.high} of table '{t.name}' is outside "
                                    f"the d{t.sides} roll (1..{t.sides})")
            self.coverage(t)
        if rs.test is not None:
            self.check_die(rs.test, rs.test.sides)
        for r in rs.rules:
            self._declare(self.rules, "rule", r, r.name)
            self.name_ok(r, r.name, "a rule")
        for o in rs.options:
            self._declare(self.options, "option", o, o.name)
            labels = set()
            for c in o.choices:
                if c.label in labels:
                    self.error(c, f"option '{o.name}' offers '{c.label}' twice")
                if c.cond is not None:
                    self.error(c.cond, f"an option's choices are all offered: '{c.label}' "
                                       f"cannot have an 'if'")
                labels.add(c.label)
            if not o.choices:
                self.error(o, f"option '{o.name}' offers no choices")
        if rs.turn is not None:
            for ph in rs.turn.phases:
                self._declare(self.phases, "phase", ph, ph.name)
        for ps in rs.pieces:
            self.piece_set(ps)
        all_names = set(self.stats) | set(self.consts)
        for name in all_names & (set(self.tables) | set(self.rules) | set(self.piles)
                                 | set(self.piece_sets)):
            node = self.stats.get(name) or self.consts.get(name)
            self.error(node, f"'{name}' names both a stat and a table, rule or pile")

    def sizes(self):
        """The limits on how much a ruleset declares: cards, table rows,
        pieces, and stats with piece values and constants, each counted over
        the whole ruleset and reported at the declaration that goes past it."""
        rs, lim = self.rs, self.limits
        self.past(((d, sum(c.count for c in d.cards)) for d in rs.decks), lim.max_cards,
                  "the decks hold {} cards; the limit is {} (Limits.max_cards)")
        self.past(((t, len(t.rows)) for t in rs.tables), lim.max_rows,
                  "the tables have {} rows in all; the limit is {} (Limits.max_rows)")
        self.past(((ps, len(ps.pieces)) for ps in rs.pieces), lim.max_pieces,
                  "the piece sets hold {} pieces in all; the limit is {} (Limits.max_pieces)")
        values = [(s, 1) for s in rs.stats] + [(c, 1) for c in rs.consts] + \
            [(ps, len(ps.state) * len(ps.pieces)) for ps in rs.pieces]
        self.past(values, lim.max_stats,
                  "the stats, piece values (one per piece for each state value) and constants "
                  "come to {}; the limit is {} (Limits.max_stats)")

    def past(self, counted, limit, message):
        """Report ``message`` (total, limit) at the first declaration, in
        file order, where the running total of ``counted`` (declaration,
        count) goes past ``limit``."""
        counted = list(counted)
        total = sum(n for _, n in counted)
        if total <= limit:
            return
        counted.sort(key=lambda dn: _place(dn[0]))
        running = 0
        for node, n in counted:
            running += n
            if running > limit:
                self.error(node, message.format(total, limit))
                return

    def coverage(self, t):
        """Each face of the die has one row: a row that shares a roll with
        another is reported (once, at the later one, naming the first roll
        they share), and on any die the checker allows the faces no row
        covers.  One sweep over the rows sorted by their first roll."""
        rows = sorted(((row.low, min(row.high, t.sides + 1), i, row)
                       for i, row in enumerate(t.rows) if row.low <= row.high),
                      key=lambda r: (r[0], r[2]))
        reach, reacher = 0, None    # the highest roll covered so far, and by which row
        missing = []
        for low, high, i, row in rows:
            if reacher is not None and low <= reach:
                later = row if i > reacher[2] else reacher[3]
                self.error(later, f"table '{t.name}' has two rows for a roll of {low}")
            elif len(missing) < 10:
                missing.extend(range(reach + 1, min(low, reach + 11)))
            if reacher is None or high > reach:
                reach, reacher = max(high, reach), (low, high, i, row)
        if len(missing) < 10:
            missing.extend(range(reach + 1, min(t.sides + 1, reach + 11)))
        missing = [v for v in missing if 1 <= v <= t.sides][:10]
        if 2 <= t.sides <= self.limits.max_die_sides and missing:
            self.error(t, f"table '{t.name}' has no row for a roll of "
                          f"{', '.join(map(str, missing))}")

    def stat_shape(self, s):
        """What the syntax always gives and a document may not: a track's
        values are its spaces' names, and a stat of words starts at one of
        them."""
        if s.spaces is not None and s.values != tuple(sp.name for sp in s.spaces):
            self.error(s, f"track '{s.name}' must list as its values the names of its spaces, "
                          f"in order")
        if s.values is not None:
            if not s.values:
                self.error(s, f"stat '{s.name}' has an empty list of words")
            elif not (isinstance(s.initial, ir.Name) and s.initial.name in s.values):
                self.error(s, f"stat '{s.name}' must start at one of its words "
                              f"({', '.join(s.values[:5])})")
            if s.min is not None or s.max is not None:
                self.error(s, f"stat '{s.name}' holds words and cannot have a min or max")

    def track(self, stat):
        """A track's spaces: the data each prints, one type per name."""
        kinds: Dict[str, str] = {}
        for space in stat.spaces:
            for prop, kind in self.printed(space.props, f"space '{space.name}'"):
                if kind is not ANY and kinds.get(prop.name, kind) not in (kind, ANY):
                    self.error(prop, f"'{prop.name}' is a {kinds[prop.name]} on other spaces of "
                                     f"'{stat.name}', not a {kind}")
                if kinds.get(prop.name) in (None, ANY):
                    kinds[prop.name] = kind
        self.track_props[stat.name] = kinds

    def printed(self, props, owner):
        """(prop, kind) for each value printed on a piece or a space: each
        name once, each word checked against the stat names."""
        seen = set()
        for prop in props:
            if prop.name in seen:
                self.error(prop, f"{owner} gives '{prop.name}' twice")
            seen.add(prop.name)
            v = prop.value
            if isinstance(v, ir.Name):
                self.word_clash(prop, v.name)
            yield prop, {ir.Num: NUM, ir.Bool: BOOL, ir.NoneLit: ANY, ir.Name: TEXT}[type(v)]

    def word_clash(self, node, word):
        if word in self.stats or word in self.consts:
            self.error(node, f"the word '{word}' is also the name of a stat or constant, "
                             f"which a bare '{word}' would read instead")

    def piece_set(self, ps):
        """Declare a piece set: its state values, and the attributes its
        pieces' lines give (each attribute of one type throughout)."""
        if not self._declare(self.piece_sets, "piece set", ps, ps.name):
            return
        self.name_ok(ps, ps.name, "a piece set")
        if ps.name in self.piles or ps.name in self.stats:
            self.error(ps, f"'{ps.name}' names both a piece set and a pile or stat")
        fields: Dict[str, tuple] = {}
        for st in ps.state:
            self.name_ok(st, st.name, "a piece's value")
            self.stat_shape(st)
            if st.scope != "piece":
                self.error(st, f"piece value '{st.name}' must be one per piece")
            if st.name in fields:
                self.error(st, f"piece value '{st.name}' is declared twice")
            if st.values:
                kind = TEXT
                for v in st.values:
                    if v in self.stats or v in self.consts:
                        self.error(st, f"the word '{v}' is also the name of a stat or constant, "
                                       f"so '{st.name} is {v}' would read that instead")
            else:
                kind = {ir.Num: NUM, ir.Bool: BOOL, ir.NoneLit: ANY}.get(type(st.initial), ANY)
                if kind is ANY and not isinstance(st.initial, ir.NoneLit):
                    self.error(st.initial, f"the starting value of piece value '{st.name}' must be "
                                           f"a number, yes/no or none")
            fields[st.name] = (kind, True, st)
        names = set()
        for piece in ps.pieces:
            if piece.name in names:
                self.error(piece, f"piece '{piece.name}' appears twice in '{ps.name}'")
            names.add(piece.name)
            for prop, kind in self.printed(piece.props, f"piece '{piece.name}'"):
                v = prop.value
                if prop.name in fields and fields[prop.name][1]:
                    st = fields[prop.name][2]
                    want = fields[prop.name][0]
                    if st.values and isinstance(v, ir.Name) and v.name not in st.values:
                        self.error(prop, f"'{v.name}' is not one of the values of '{prop.name}': "
                                         f"{', '.join(st.values)}")
                    elif kind not in (want, ANY) and want is not ANY:
                        self.error(prop, f"'{prop.name}' holds a {want}, not a {kind}")
                    continue
                self.name_ok(prop, prop.name, "a piece's attribute")
                if prop.name in fields and kind is not ANY and fields[prop.name][0] not in (kind, ANY):
                    self.error(prop, f"attribute '{prop.name}' is a {fields[prop.name][0]} on another "
                                     f"piece, but a {kind} here")
                elif prop.name not in fields or fields[prop.name][0] is ANY:
                    fields[prop.name] = (kind, False, None)
        if not ps.pieces:
            self.error(ps, f"piece set '{ps.name}' has no pieces")
        self.piece_fields[ps.name] = fields

    def piece_of(self, node, name):
        """The fields of piece set ``name``, reporting it if unknown."""
        if name not in self.piece_sets:
            self.error(node, f"there is no piece set '{name}'{self.nearest(name, self.piece_sets)}")
            return None
        return self.piece_fields[name]

    def bound(self, stat, e):
        """A stat's bound as a number (a literal or a constant), or None."""
        if e is None:
            return None
        if isinstance(e, ir.Num):
            return e.value
        if isinstance(e, ir.Name) and e.name in self.consts:
            value = self.consts[e.name].value
            if isinstance(value, ir.Num):
                return value.value
            self.error(e, f"the bound '{e.name}' of stat '{stat.name}' must be a number constant")
            return None
        self.error(e, f"a bound of stat '{stat.name}' must be a number or a constant, "
                      f"not '{getattr(e, 'name', e)}'{self.nearest(getattr(e, 'name', ''), self.consts)}")
        return None

    def name_ok(self, node, name, what):
        if name in self.reserved:
            self.error(node, f"'{name}' is a word of the language and cannot name {what}")

    def not_constant(self, e, earlier):
        """Why ``e`` is not a constant expression (None when it is)."""
        stack = [e]
        while stack:
            node = stack.pop()
            if isinstance(node, (ir.Num, ir.Bool)):
                continue
            if isinstance(node, (ir.Neg, ir.Not)):
                stack.append(node.operand)
            elif isinstance(node, ir.BinOp):
                stack += [node.left, node.right]
            elif isinstance(node, ir.CallFn) and node.func in _FUNCS:
                stack += list(node.args)
            elif isinstance(node, ir.Name):
                if node.name not in earlier:
                    return (f"'{node.name}' is not a constant declared before it"
                            + self.nearest(node.name, earlier))
            else:
                return f"it cannot use {type(node).__name__.lower()}"
        return None

    def check_die(self, node, sides):
        if sides < 2:
            self.error(node, f"a die needs at least 2 sides, not d{sides}")
        elif sides > self.limits.max_die_sides:
            self.error(node, f"d{sides} has more than {self.limits.max_die_sides} sides")

    def bodies(self):
        rs = self.rs
        for dt in rs.draw_triggers:
            if dt.deck not in self.decks:
                self.error(dt, f"'on draw' needs a deck: there is no deck '{dt.deck}'"
                               f"{self.nearest(dt.deck, self.decks)}")
            scope = Scope(player=True)
            self.name_ok(dt, dt.var, "a card variable")
            scope.locals[dt.var] = CARD
            if dt.cond is not None:
                self.expect(dt.cond, scope.child(no_rolls=_WHERE_ROLL, card=True), BOOL,
                            "a 'where' condition")
            self.block(dt.body, scope)
        for trig in rs.triggers:
            self.expect(trig.cond, Scope(player=True, no_rolls=_DECL_ROLL.format(what="a 'whenever' condition")),
                        BOOL, "a 'whenever' condition")
            self.block(trig.body, Scope(player=True))
        if rs.reroll is not None:
            scope = Scope(player=True, no_rolls=_DECL_ROLL.format(what="a reroll rule"))
            self.expect(rs.reroll.cond, scope, BOOL, "the reroll condition")
            for s in rs.reroll.cost:
                if not isinstance(s, (ir.Assign, ir.Let)):
                    self.error(s, "the cost of a reroll may only change values (x -= 1)")
            self.block(rs.reroll.cost, scope)
        for r in rs.rules:
            scope = Scope(player=True)
            for param in r.params:
                self.name_ok(param, param.name, "a parameter")
                if param.name in scope.locals:
                    self.error(param, f"rule '{r.name}' has two parameters named '{param.name}'")
                scope.locals[param.name] = self.param_type(param, report=True)
            self.block(r.body, scope)
        for t in rs.tables:
            for row in t.rows:
                self.block(row.body, Scope(player=True))
        for o in rs.options:
            for c in o.choices:
                self.block(c.body, Scope(player=True))
        self.block(rs.setup, Scope(player=False, setup=True))
        if rs.turn is not None:
            if rs.turn.first is not None:
                t = self.expr(rs.turn.first, Scope(player=False, no_rolls=_DECL_ROLL.format(what="the turn order")))
                if t not in (PLAYER, ANY):
                    self.error(rs.turn.first, f"turns go clockwise from a player, not a {t}")
            if rs.turn.when is not None:
                self.expect(rs.turn.when, Scope(player=True, no_rolls=_DECL_ROLL.format(what="the turn's 'when'")),
                            BOOL, "the turn's 'when' condition")
            ended = False
            for ph in rs.turn.phases:
                if ended:
                    self.error(ph, f"phase '{ph.name}' can never be reached: the phase before "
                                   f"it always ends the turn")
                scope = Scope(player=True, turn=True)
                self.block(ph.body, scope)
                if ph.body and isinstance(ph.body[-1], (ir.EndTurn, ir.EndGame)):
                    ended = True
        for e in rs.endings:
            self.expect(e.cond, Scope(player=False, no_rolls=_DECL_ROLL.format(what="an end condition")),
                        BOOL, "an end condition")
        if rs.turn is None and not rs.endings:
            self.warn(rs, "the ruleset has no turn and no end: the game ends after setup")
        for item in rs.score:
            scope = Scope(player=True, no_rolls=_DECL_ROLL.format(what="the score"))
            self.expect(item.points, scope, NUM, "points")
            if item.cond is not None:
                self.expect(item.cond, scope, BOOL, "a scoring condition")
        for r in rs.rules:
            if r.name not in self.used_rules:
                self.warn(r, f"rule '{r.name}' is never used")
        for t in rs.tables:
            if t.name not in self.used_tables:
                self.warn(t, f"table '{t.name}' is never rolled on")
        for d in rs.decks:
            if sum(c.count for c in d.cards) == 0 and d.name in self.drawn:
                self.error(d, f"deck '{d.name}' has no cards but is drawn from")

    # ---------------------------------------------------------- statements

    def block(self, stmts, scope):
        after = None
        for s in stmts:
            if after is not None:
                self.error(s, f"this can never happen: it comes after '{after}'")
                after = None
            self.stmt(s, scope)
            if isinstance(s, ir.EndTurn):
                after = "end turn"
            elif isinstance(s, ir.EndGame):
                after = "end game"
            elif isinstance(s, ir.Stop):
                after = "stop"

    def stmt(self, s, scope):
        getattr(self, "s_" + type(s).__name__)(s, scope)

    def s_Assign(self, s, scope):
        value = self.expr(s.value, scope)
        t = s.target
        if isinstance(t, ir.Name):
            if t.name in scope.locals:
                target_type = scope.locals[t.name]
            elif t.name in self.stats:
                stat = self.stats[t.name]
                target_type = self.stat_types.get(t.name, ANY)
                if stat.scope != "global" and not scope.player:
                    self.error(t, f"'{t.name}' belongs to each player, but no player is in "
                                  f"scope here (use 'for each player')")
                if stat.values and isinstance(s.value, ir.Name) and s.value.name in self.enum_values \
                        and self.enum_values[s.value.name] != stat.name:
                    self.error(s.value, f"'{s.value.name}' is not one of the values of "
                                        f"'{stat.name}': {', '.join(stat.values)}")
            elif t.name in self.consts:
                self.error(t, f"'{t.name}' is a constant and cannot change")
                return
            else:
                self.unknown(t, t.name, scope)
                return
        else:
            target_type = self.attr(t, scope, assigning=True)
            kind = scope.locals.get(t.obj)
            if isinstance(kind, str) and kind.startswith("piece:"):
                st = self.piece_fields.get(kind[6:], {}).get(t.name, (None, False, None))[2]
                if st is not None and st.values and isinstance(s.value, ir.Name) \
                        and s.value.name not in st.values and s.value.name not in scope.locals:
                    self.error(s.value, f"'{s.value.name}' is not one of the values of "
                                        f"'{t.name}': {', '.join(st.values)}")
        if s.op == "+=" and target_type == POOL and value in (POOL, ANY):
            return
        if s.op != "=" and target_type not in (NUM, ANY):
            self.error(s, f"'{s.op}' needs a number, but '{t.name}' is a {target_type}")
        if s.op != "=" and value not in (NUM, ANY):
            self.error(s.value, f"'{s.op}' needs a number, not a {value}")
        if s.op == "=" and target_type not in (ANY,) and value not in (ANY,) and value != target_type \
                and not (target_type == PLAYER and value == "none"):
            self.error(s.value, f"'{t.name}' holds a {target_type}, not a {value}")

    def s_Spend(self, s, scope):
        self.expect(s.count, scope, NUM, "how many dice")
        self.expect(s.value, scope, NUM, "the value compared with")
        kind = scope.locals.get(s.pool)
        if kind is None:
            self.error(s, f"'{s.pool}' holds no dice here{self.nearest(s.pool, scope.locals)}")
        elif kind not in (POOL, ANY):
            self.error(s, f"'{s.pool}' holds a {kind}, not dice")

    def s_Let(self, s, scope):
        t = self.expr(s.value, scope)
        if s.name in self.stats or s.name in self.consts:
            self.error(s, f"'let {s.name}' would hide the stat or constant '{s.name}'")
        self.name_ok(s, s.name, "a local value")
        scope.locals[s.name] = t if t != "none" else ANY

    def s_If(self, s, scope):
        self.expect(s.cond, scope, BOOL, "an 'if' condition")
        then, orelse = scope.branch(), scope.branch()
        self.block(s.then, then)
        self.block(s.orelse, orelse)
        # A local made on both branches exists after the 'if'.
        made = orelse.locals.maps[0]
        for name in then.locals.maps[0]:
            if name in made and name not in scope.locals:
                scope.locals[name] = then.locals[name]

    def loop_body(self, body, scope):
        inner = scope.branch()
        inner.loops += 1
        self.block(body, inner)

    def s_Repeat(self, s, scope):
        self.expect(s.times, scope, NUM, "a repeat count")
        self.loop_body(s.body, scope)

    def s_While(self, s, scope):
        self.expect(s.cond, scope, BOOL, "a 'while' condition")
        self.loop_body(s.body, scope)

    def s_Stop(self, s, scope):
        if scope.loops == 0:
            self.error(s, "'stop' leaves a repeat, while or for each loop, and there is none here")

    def s_ForEachPlayer(self, s, scope):
        if s.other and not scope.player:
            self.error(s, "'other' means other than the player in scope, and there is none here")
        inner = scope.branch()
        if s.var:
            self.name_ok(s, s.var, "a player variable")
            inner.locals[s.var] = PLAYER
        else:
            inner.player = True
        if s.cond is not None:
            self.expect(s.cond, inner.child(no_rolls=_WHERE_ROLL), BOOL, "a 'where' condition")
        self.loop_body(s.body, inner)

    def s_MoveCard(self, s, scope):
        if s.card not in self.cards:
            self.error(s, f"there is no card '{s.card}'{self.nearest(s.card, self.cards)}")
        self.pile(s.source, scope)
        self.pile(s.dest, scope)

    def s_ChooseCard(self, s, scope):
        self.pile(s.pile, scope)
        if not scope.player:
            self.error(s, "a choice needs a player to make it, and no player is in scope here")
        if s.cond is not None:
            self.expect(s.cond, scope.child(no_rolls=_WHERE_ROLL, card=True), BOOL, "a 'where' condition")
        self.name_ok(s, s.var, "a card variable")
        scope.locals[s.var] = CARD

    def s_ForEachCard(self, s, scope):
        self.pile(s.pile, scope)
        inner = scope.branch()
        self.name_ok(s, s.var, "a card variable")
        inner.locals[s.var] = CARD
        if s.cond is not None:
            self.expect(s.cond, inner.child(no_rolls=_WHERE_ROLL, card=True), BOOL, "a 'where' condition")
        self.loop_body(s.body, inner)

    def s_ForEachPiece(self, s, scope):
        fields = self.piece_of(s, s.pieces)
        inner = scope.branch()
        self.name_ok(s, s.var, "a piece variable")
        inner.locals[s.var] = f"piece:{s.pieces}"
        if s.cond is not None and fields is not None:
            self.expect(s.cond, inner.child(no_rolls=_WHERE_ROLL, piece=s.pieces), BOOL,
                        "a 'where' condition")
        self.loop_body(s.body, inner)

    def s_ChoosePiece(self, s, scope):
        fields = self.piece_of(s, s.pieces)
        if not scope.player:
            self.error(s, "a choice needs a player to make it, and no player is in scope here")
        if s.cond is not None and fields is not None:
            self.expect(s.cond, scope.child(no_rolls=_WHERE_ROLL, piece=s.pieces), BOOL,
                        "a 'where' condition")
        self.name_ok(s, s.var, "a piece variable")
        scope.locals[s.var] = f"piece:{s.pieces}"

    def s_RollOn(self, s, scope):
        if s.table not in self.tables:
            self.error(s, f"there is no table '{s.table}'{self.nearest(s.table, self.tables)}")
        self.used_tables.add(s.table)

    def s_Test(self, s, scope):
        if self.rs.test is None:
            self.error(s, "'test' is used but the ruleset never says how a test is made "
                          "(add e.g. 'test (stat): roll d10 <= stat')")
        self.expect(s.target, scope, NUM, "a test")

    def pile(self, ref, scope, allow_local=False):
        if allow_local and ref.name in scope.locals and ref.owner is None:
            if scope.locals[ref.name] not in (CARDS, POOL, ANY):
                self.error(ref, f"'{ref.name}' holds a {scope.locals[ref.name]}, not cards")
            return
        if ref.name not in self.piles:
            kinds = "deck or pile"
            self.error(ref, f"there is no {kinds} '{ref.name}'{self.nearest(ref.name, self.piles)}")
            return
        decl = self.piles[ref.name]
        per_player = isinstance(decl, ir.Pile) and decl.per_player
        if ref.owner is not None:
            if not per_player:
                self.error(ref, f"pile '{ref.name}' is shared; it has no owner")
            if ref.owner not in scope.locals:
                self.error(ref, f"unknown player '{ref.owner}'{self.nearest(ref.owner, scope.locals)}")
        elif per_player and not scope.player:
            self.error(ref, f"pile '{ref.name}' belongs to each player, but no player is in scope")

    def s_Draw(self, s, scope):
        self.expect(s.count, scope, NUM, "the number of cards to draw")
        self.pile(s.source, scope)
        self.pile(s.dest, scope)
        self.drawn.add(s.source.name)

    def s_MoveAll(self, s, scope):
        self.pile(s.source, scope)
        self.pile(s.dest, scope)

    def s_MoveCards(self, s, scope):
        if s.cards not in scope.locals:
            self.error(s, f"'{s.cards}' holds no chosen cards here{self.nearest(s.cards, scope.locals)}")
        elif scope.locals[s.cards] not in (CARDS, CARD, ANY):
            self.error(s, f"'{s.cards}' holds a {scope.locals[s.cards]}, not cards")
        self.pile(s.source, scope)
        self.pile(s.dest, scope)

    def s_ChooseCards(self, s, scope):
        self.name_ok(s, s.var, "chosen cards")
        self.expect(s.low, scope, NUM, "how many cards")
        self.expect(s.high, scope, NUM, "how many cards")
        self.pile(s.pile, scope)
        scope.locals[s.var] = CARDS

    def s_ChooseOne(self, s, scope):
        labels = set()
        for c in s.choices:
            if c.label in labels:
                self.error(c, f"the choice '{c.label}' is offered twice")
            labels.add(c.label)
            if c.cond is not None:
                self.expect(c.cond, scope.child(no_rolls="a choice's condition cannot roll dice: "
                                                         "roll first, into a 'let'"),
                            BOOL, "the condition of a choice")
            self.block(c.body, scope)
        if not s.choices:
            self.error(s, "'choose one' offers no choices")

    def s_ChooseOption(self, s, scope):
        if s.option not in self.options:
            self.error(s, f"there is no option '{s.option}'{self.nearest(s.option, self.options)}")
        self.used_options.add(s.option)

    def s_ChooseRow(self, s, scope):
        t = self.tables.get(s.table)
        if t is None:
            self.error(s, f"there is no table '{s.table}'{self.nearest(s.table, self.tables)}")
            return
        self.used_tables.add(s.table)
        if s.low > s.high or s.low < 1 or s.high > t.sides:
            self.error(s, f"rows {s.low}..{s.high} are not rows of the d{t.sides} table '{t.name}'")

    def s_May(self, s, scope):
        if not scope.player:
            self.error(s, "a choice needs a player to make it, and no player is in scope here")
        self.block(s.body, scope.branch())
        self.block(s.orelse, scope.branch())

    def s_PickPiece(self, s, scope):
        fields = self.piece_of(s, s.pieces)
        if s.cond is not None and fields is not None:
            self.expect(s.cond, scope.child(no_rolls=_WHERE_ROLL, piece=s.pieces), BOOL,
                        "a 'where' condition")
        self.name_ok(s, s.var, "a piece variable")
        scope.locals[s.var] = f"piece:{s.pieces}"

    def s_ChooseNumber(self, s, scope):
        if not scope.player:
            self.error(s, "a choice needs a player to make it, and no player is in scope here")
        self.expect(s.low, scope, NUM, "the lowest number")
        self.expect(s.high, scope, NUM, "the highest number")
        self.name_ok(s, s.var, "a chosen number")
        scope.locals[s.var] = NUM

    def s_Skip(self, s, scope):
        if s.phase not in self.phases:
            self.error(s, f"there is no phase '{s.phase}'{self.nearest(s.phase, self.phases)}")

    def s_EndTurn(self, s, scope):
        if scope.setup:
            self.error(s, "'end turn' is used in setup, where there is no turn")

    def s_EndGame(self, s, scope):
        pass

    def s_Log(self, s, scope):
        for part in ir.log_parts(s.text, s.pos):
            if not isinstance(part, str):
                self.expr(part, scope)

    def s_Call(self, s, scope):
        if s.rule not in self.rules:
            hint = self.nearest(s.rule, self.rules, self.tables, self.stats)
            if s.rule in self.tables:
                self.error(s, f"'{s.rule}' is a table: write 'roll on {s.rule}'")
            elif s.rule in self.stats:
                self.error(s, f"'{s.rule}' is a stat; a statement here must change it, "
                              f"e.g. '{s.rule} += 1'")
            else:
                self.error(s, f"there is no rule '{s.rule}'{hint}")
        else:
            params = self.rules[s.rule].params
            if len(s.args) != len(params):
                want = ", ".join(p.name for p in params) or "no values"
                self.error(s, f"rule '{s.rule}' takes {len(params)} value{'s' if len(params) != 1 else ''} "
                              f"({want}), not {len(s.args)}")
            for arg, param in zip(s.args, params):
                want = self.param_type(param)
                got = self.expr(arg, scope)
                if ANY not in (got, want) and got != want and not (want == PLAYER and got == "none"):
                    self.error(arg, f"'{param.name}' of rule '{s.rule}' is a "
                                    f"{want.replace('piece:', 'piece of ')}, not a "
                                    f"{got.replace('piece:', 'piece of ')}")
        for arg in s.args[len(self.rules[s.rule].params) if s.rule in self.rules else 0:]:
            self.expr(arg, scope)
        self.used_rules.add(s.rule)

    def param_type(self, param, report=False):
        if param.type == "number":
            return NUM
        if param.type == "player":
            return PLAYER
        if param.type == "card":
            return CARD
        if param.type == "word":
            return TEXT
        if param.type in self.piece_sets:
            return f"piece:{param.type}"
        if report:
            self.error(param, f"a parameter is a number, a player, a card, a word or a piece of a "
                              f"set, not '{param.type}'{self.nearest(param.type, self.piece_sets, ('player', 'number', 'card', 'word'))}")
        return ANY

    # --------------------------------------------------------- expressions

    def expect(self, e, scope, want, what):
        got = self.expr(e, scope)
        if got in (ANY, want):
            return
        if want == PLAYER and got == "none":
            return
        self.error(e, f"{what} must be a {want}, not a {got}")

    def unknown(self, node, name, scope):
        if name in self.piles:
            kind = "deck" if name in self.decks else "pile"
            self.error(node, f"'{name}' is a {kind}, not a number: use 'size of {name}'")
        elif name in self.tables:
            self.error(node, f"'{name}' is a table, not a value: use 'roll on {name}'")
        elif name in self.rules:
            self.error(node, f"'{name}' is a rule, not a value")
        elif name in self.cards:
            self.error(node, f"'{name}' is a card, not a value: use 'count of {name} in PILE'")
        else:
            hint = self.nearest(name, scope.locals, self.stats, self.consts, self.enum_values)
            self.error(node, f"unknown name '{name}'{hint}")

    def expr(self, e, scope) -> str:
        return getattr(self, "e_" + type(e).__name__)(e, scope)

    def e_Num(self, e, scope):
        return NUM

    def e_Bool(self, e, scope):
        return BOOL

    def e_NoneLit(self, e, scope):
        return "none"

    def e_Name(self, e, scope):
        name = e.name
        bound = self.names.bare(name, card=scope.card, pieces=scope.pieces, locals=scope.locals)
        kind = None if bound is None else bound.kind
        if kind == resolve.CARD:
            return _one_kind(self.props[name])
        if kind == resolve.PIECE:
            return self.piece_fields[bound.pieces][name][0]
        if kind == resolve.LOCAL:
            return scope.locals[name]
        if kind == resolve.PLAYER or kind == resolve.GLOBAL:
            if kind == resolve.PLAYER and not scope.player:
                self.error(e, f"'{name}' belongs to each player, but no player is in scope here")
            return self.stat_types.get(name, ANY)
        if kind == resolve.CONST:
            return NUM
        if kind == resolve.WORD:
            return TEXT
        self.unknown(e, name, scope)
        return ANY

    def attr(self, e, scope, assigning=False):
        kind = scope.locals.get(e.obj)
        if kind == CARD:
            if assigning:
                self.error(e, f"a card's '{e.name}' is printed on it and cannot change")
            if e.name not in self.props:
                self.error(e, f"no card has a '{e.name}'{self.nearest(e.name, self.props)}")
                return ANY
            return _one_kind(self.props[e.name])
        if isinstance(kind, str) and kind.startswith("piece:"):
            fields = self.piece_fields.get(kind[6:], {})
            if e.name not in fields:
                self.error(e, f"pieces of '{kind[6:]}' have no '{e.name}'{self.nearest(e.name, fields)}")
                return ANY
            if assigning and not fields[e.name][1]:
                self.error(e, f"'{e.name}' is a fixed attribute of the pieces of '{kind[6:]}'; "
                              f"only their state values can change")
            return fields[e.name][0]
        if e.obj not in scope.locals and e.obj in self.track_props:
            props = self.track_props[e.obj]
            if assigning:
                self.error(e, f"'{e.obj}.{e.name}' is printed on the track and cannot change")
            if e.name not in props:
                self.error(e, f"the spaces of '{e.obj}' have no '{e.name}'{self.nearest(e.name, props)}")
                return ANY
            return props[e.name]
        if e.obj not in scope.locals:
            self.error(e, f"unknown player '{e.obj}'{self.nearest(e.obj, scope.locals)}")
        elif scope.locals[e.obj] not in (PLAYER, ANY):
            self.error(e, f"'{e.obj}' is a {scope.locals[e.obj]}, not a player")
        stat = self.stats.get(e.name)
        if stat is None or stat.scope == "global":
            per_player = (s.name for s in self.rs.stats if s.scope != "global")
            self.error(e, f"'{e.name}' is not a stat of each player{self.nearest(e.name, per_player)}")
            return ANY
        return self.stat_types.get(e.name, ANY)

    def e_Attr(self, e, scope):
        return self.attr(e, scope)

    def e_BinOp(self, e, scope):
        a, b = self.expr(e.left, scope), self.expr(e.right, scope)
        if e.op in ("and", "or"):
            for side, t in ((e.left, a), (e.right, b)):
                if t not in (BOOL, ANY):
                    self.error(side, f"'{e.op}' joins yes/no values, not a {t}")
            return BOOL
        if e.op == "+" and POOL in (a, b) and {a, b} <= {POOL, ANY}:
            return POOL     # two pools of dice, put together
        for side, t in ((e.left, a), (e.right, b)):
            if t not in (NUM, ANY):
                self.error(side, f"'{e.op}' needs numbers, not a {t}")
        return NUM

    def e_NoDice(self, e, scope):
        return POOL

    def e_Compare(self, e, scope):
        a, b = self.expr(e.left, scope), self.expr(e.right, scope)
        if e.op in ("==", "!="):
            if ANY not in (a, b) and a != b and "none" not in (a, b):
                self.error(e, f"comparing a {a} with a {b} is never equal")
        else:
            for side, t in ((e.left, a), (e.right, b)):
                if t not in (NUM, ANY):
                    self.error(side, f"'{e.op}' compares numbers, not a {t}")
        return BOOL

    def e_Not(self, e, scope):
        self.expect(e.operand, scope, BOOL, "'not'")
        return BOOL

    def e_Neg(self, e, scope):
        self.expect(e.operand, scope, NUM, "'-'")
        return NUM

    def e_CallFn(self, e, scope):
        if e.func not in _FUNCS:
            self.error(e, f"unknown function '{e.func}'{self.nearest(e.func, _FUNCS)}; "
                          f"the functions are min, max and abs")
        else:
            low, high = _FUNCS[e.func]
            n = len(e.args)
            if n < low or (high is not None and n > high):
                want = f"{low}" if low == high else f"at least {low}"
                self.error(e, f"{e.func}() takes {want} argument{'s' if low != 1 else ''}, not {n}")
        for a in e.args:
            self.expect(a, scope, NUM, f"an argument of {e.func}()")
        return NUM

    def e_Roll(self, e, scope):
        if scope.no_rolls:
            self.error(e, scope.no_rolls)
        self.check_die(e, e.sides)
        lim = self.limits
        if e.count < 1 or e.count > lim.max_dice:
            self.error(e, f"a roll uses 1 to {lim.max_dice} dice, not {e.count}")
        elif e.count * e.sides > lim.max_pool_outcomes and e.sides <= lim.max_die_sides:
            self.error(e, f"roll {e.count}d{e.sides} has too many outcomes to list "
                          f"(dice × sides is at most {lim.max_pool_outcomes})")
        return NUM

    def e_RollOff(self, e, scope):
        if scope.no_rolls:
            self.error(e, scope.no_rolls)
        self.check_die(e, e.sides)
        return PLAYER

    def e_ThisPlayer(self, e, scope):
        if not scope.player:
            self.error(e, "'this player' is used where no player is in scope")
        return PLAYER

    def e_Round(self, e, scope):
        return NUM

    def e_TestResult(self, e, scope):
        if self.rs.test is None:
            self.error(e, f"'{e.what}' refers to a test, but the ruleset never says how a test is made")
        return NUM if e.what == "margin" else BOOL

    def e_CountCards(self, e, scope):
        if e.card not in self.cards:
            self.error(e, f"there is no card '{e.card}'{self.nearest(e.card, self.cards)}")
        self.pile(e.pile, scope)
        return NUM

    def e_PileSize(self, e, scope):
        self.pile(e.pile, scope, allow_local=True)
        return NUM

    def e_SumCards(self, e, scope):
        if e.prop not in self.props:
            self.error(e, f"no card has a '{e.prop}'{self.nearest(e.prop, self.props)}")
        elif self.props[e.prop] - {NUM, ANY}:
            self.error(e, f"'sum of {e.prop}' needs numbers, but some cards give '{e.prop}' "
                          f"a {' or '.join(sorted(self.props[e.prop] - {NUM, ANY}))}")
        self.pile(e.pile, scope)
        return NUM

    def e_IfExpr(self, e, scope):
        self.expect(e.cond, scope, BOOL, "the condition of 'if … then … else'")
        a, b = self.expr(e.then, scope), self.expr(e.orelse, scope)
        if ANY in (a, b) or a == b:
            return a if b == ANY or a == b else b
        if "none" in (a, b):
            return b if a == "none" else a
        self.error(e, f"'if … then … else' gives a {a} or a {b}: both must be of one kind")
        return ANY

    def e_Pool(self, e, scope):
        if scope.no_rolls:
            self.error(e, scope.no_rolls)
        self.check_die(e, e.sides)
        self.expect(e.count, scope, NUM, "the number of dice")
        return POOL

    def e_PoolCount(self, e, scope):
        kind = scope.locals.get(e.pool)
        if kind is None:
            self.error(e, f"'{e.pool}' holds no dice here{self.nearest(e.pool, scope.locals)}")
        elif kind not in (POOL, ANY):
            self.error(e, f"'{e.pool}' holds a {kind}, not dice: roll them with 'roll N dice d6'")
        self.expect(e.value, scope, NUM, "the value the dice are compared with")
        return NUM

    def e_PieceQuery(self, e, scope):
        fields = self.piece_of(e, e.pieces)
        if e.cond is not None and fields is not None:
            self.expect(e.cond, scope.child(no_rolls=_WHERE_ROLL, piece=e.pieces), BOOL,
                        "a 'where' condition")
        return NUM if e.quantifier == "count" else BOOL

    def e_PieceExtreme(self, e, scope):
        fields = self.piece_of(e, e.pieces)
        if fields is not None:
            inner = scope.child(no_rolls=_WHERE_ROLL, piece=e.pieces)
            self.expect(e.value, inner, NUM, f"'{e.which}'")
            if e.cond is not None:
                self.expect(e.cond, inner, BOOL, "a 'where' condition")
        return NUM

    def e_PlayerQuery(self, e, scope):
        if e.other and not scope.player:
            self.error(e, "'other' means other than the player in scope, and there is none here")
        if e.cond is not None:
            self.expect(e.cond, scope.child(player=True, no_rolls=_WHERE_ROLL), BOOL,
                        "a 'where' condition")
        return NUM if e.quantifier == "count" else BOOL

    def e_Extreme(self, e, scope):
        if e.other and not scope.player:
            self.error(e, "'other' means other than the player in scope, and there is none here")
        self.expect(e.value, scope.child(player=True, no_rolls=_WHERE_ROLL), NUM, f"'{e.which}'")
        return NUM


_WHERE_ROLL = ("a roll here would be made once for all the players: roll first "
               "(let r = roll d6) or roll inside 'for each player'")
_DECL_ROLL = ("a roll can only be made in a rule, table, option, setup or phase, "
              "not in {what}")


def reserved_words():
    """Words that begin a statement or a value, or join values: a stat or
    a rule named after one could not be read back (``round += 1`` would
    change the round counter).  Words used only inside fixed phrases
    (``of``, ``to``, ``a`` ...) stay free."""
    return {
        # values
        "yes", "no", "none", "this", "round", "passed", "failed", "margin", "roll", "count",
        "size", "sum", "any", "highest", "lowest", "other", "not", "and", "or", "is",
        # statements
        "if", "else", "let", "stop", "test", "draw", "move", "choose", "skip", "end", "log",
        "repeat", "while", "for", "may", "card", "spend", "pick",
    }


def _one_kind(kinds):
    """The kind of a card property's values (any when they differ)."""
    kinds = set(kinds) - {ANY}
    return kinds.pop() if len(kinds) == 1 else ANY


def _place(node):
    """(line, column) of a declaration, for putting them in file order."""
    pos = getattr(node, "pos", None)
    return (pos.line, pos.column) if pos is not None else (0, 0)


class Scope:
    """What a statement can see: locals (with their types), whether a
    player is in scope, how many loops enclose it."""

    def __init__(self, player, setup=False, turn=False, no_rolls=None, pieces=(), card=False):
        self.player = player
        #: Whether a card is in scope (in a card 'where'): its properties are bare names.
        self.card = card
        #: The piece sets whose pieces are in scope (in piece 'where's), innermost last.
        self.pieces = pieces
        self.setup = setup
        self.turn = turn
        #: Names to types: this block's own first, then the blocks around it.
        self.locals = collections.ChainMap()
        self.loops = 0
        #: Why a roll may not be made here (None: it may).
        self.no_rolls = no_rolls

    def child(self, player: Optional[bool] = None, no_rolls=None, piece=None, card=False):
        """The same locals, another player, a piece or a card in scope (a 'where')."""
        c = Scope(self.player if player is None else player, self.setup, self.turn,
                  no_rolls or self.no_rolls, self.pieces + (piece,) if piece else self.pieces,
                  card or self.card)
        c.locals = self.locals
        c.loops = self.loops
        return c

    def branch(self):
        """A nested block: it sees the locals so far; those it makes stay
        inside it (a map of its own in front of the others', so a block
        costs nothing for the locals around it)."""
        c = Scope(self.player, self.setup, self.turn, self.no_rolls, self.pieces, self.card)
        c.locals = self.locals.new_child()
        c.loops = self.loops
        return c


def check(rs: ir.Ruleset, limits: Optional[Limits] = None) -> List[Diagnostic]:
    """Every error in the ruleset (an empty list when it is sound)."""
    return Checker(rs, limits or DEFAULT).run()


def check_all(rs: ir.Ruleset, limits: Optional[Limits] = None):
    """(errors, warnings)."""
    c = Checker(rs, limits or DEFAULT)
    errors = c.run()
    return errors, c.warnings
