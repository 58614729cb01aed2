"""The checker's declarations: every name a ruleset declares, once and of
one kind, then the bodies (rules, tables, options, setup, the turn) read
with what each may see."""

from __future__ import annotations

from typing import Dict, Iterable, List, Optional, Set, Tuple, Union

from .. import ir
from .base import Field
from .printed import Printed
from .types import (ANY, BOOL, CARD, DECL_ROLL, FUNCS, GIVES_TYPES, NUM, PLAYER, TEXT,
                    WHERE_ROLL, Scope, place)


class Declarations(Printed):
    """The declarations, and the bodies they hold."""

    def declarations(self) -> None:
        """Every declaration, each kind after those it may name."""
        self.stat_declarations()
        self.constants()
        self.decks_and_piles()
        self.tables_rules_options()
        for ps in self.rs.pieces:
            self.piece_set(ps)
        all_names = set(self.stats) | set(self.consts)
        for name in all_names & (set(self.tables) | set(self.rules) | set(self.piles)
                                 | set(self.piece_sets)):
            node = self.stats.get(name) or self.consts.get(name)
            self.error(node, f"'{name}' names both a stat and a table, rule or pile")

    def stat_declarations(self) -> None:
        """The constants' and stats' names, the stats' words, shapes,
        types, bounds and starting values."""
        rs = self.rs
        for c in ir.constants(rs):
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
        for s in (*rs.stats, *(st for ps in rs.pieces for st in ps.state),
                  *(st for a in rs.actors for st in a.stats)):
            self.holds_ok(s)
        for s in rs.stats:
            self.stat_shape(s)
            self.stat_sight(s)
            if s.scope == "piece":
                self.error(s, f"stat '{s.name}' is one per piece, but is not a piece set's value")
            if s.spaces:
                self.track(s)
        for s in rs.stats:
            self.stat_types[s.name] = self.declared_type(s) or ANY
            lo, hi = self.bound(s, s.min), self.bound(s, s.max)
            if lo is not None and hi is not None and lo > hi:
                self.error(s, f"stat '{s.name}' has min {lo} above max {hi}")
            if isinstance(s.initial, ir.Num):
                start = s.initial.value
                if (lo is not None and start < lo) or (hi is not None and start > hi):
                    self.error(s, f"stat '{s.name}' starts at {start}, outside its bounds")
        declared: Set[str] = set()
        for s in rs.stats:
            self.name_ok(s, s.name, "a stat")
            if not isinstance(s.initial, (ir.Num, ir.Bool, ir.NoneLit)) and not s.values:
                scope = Scope(player=s.scope != "global",
                              no_rolls=DECL_ROLL.format(what="a starting value"))
                later = sorted((ir.names_in(s.initial) & set(self.stats)) - declared - {s.name})
                if s.name in ir.names_in(s.initial):
                    self.error(s.initial, f"the starting value of '{s.name}' uses '{s.name}' itself")
                for name in later:
                    self.error(s.initial, f"the starting value of '{s.name}' uses '{name}', "
                                          f"which is declared after it")
                self.stat_types[s.name] = self.expr(s.initial, scope)
            declared.add(s.name)
        for s in rs.stats:
            if s.scale is not None:
                self.scale(s, self.stat_types.get(s.name, ANY))

    def constants(self) -> None:
        """Each parameter's default is within its range, and each constant is
        worked out from numbers and the constants (parameters first) before it."""
        big = self.limits.max_number
        for p in self.rs.params:
            if p.low > p.high:
                self.error(p, f"parameter '{p.name}' goes from {p.low} to {p.high}: its lowest "
                              f"value is above its highest")
            elif not p.low <= p.default <= p.high:
                self.error(p, f"parameter '{p.name}' is {p.default} when none is picked, outside "
                              f"its range {p.low} to {p.high}")
            if max(abs(p.low), abs(p.high), abs(p.default)) > big:
                self.error(p, f"parameter '{p.name}' goes past {big} (Limits.max_number)")
        earlier: Set[str] = set()
        for c in ir.constants(self.rs):
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

    def decks_and_piles(self) -> None:
        rs = self.rs
        for d in rs.decks:
            self._declare(self.piles, "pile", d, d.name)
            self.name_ok(d, d.name, "a deck")
            self.decks[d.name] = d
            seen: Dict[str, ir.Card] = {}
            for card in d.cards:
                if card.name in seen:
                    self.error(card, f"card '{card.name}' appears twice in deck '{d.name}'")
                seen[card.name] = card
                self.cards.add(card.name)
                if card.count < 1:
                    self.error(card, f"card '{card.name}' has count {card.count}: a card needs x1 or more")
                if card.count_of is not None:
                    self.count_of(card)
                self.presence(card, f"card '{card.name}'")
                props: Set[str] = set()
                for p in card.props:
                    if p.name in props:
                        self.error(p, f"card '{card.name}' gives '{p.name}' twice")
                    props.add(p.name)
                    kind = {ir.Num: NUM, ir.Bool: BOOL, ir.NoneLit: ANY, ir.Name: TEXT}.get(type(p.value), ANY)
                    if isinstance(p.value, ir.Name):
                        self.word_clash(p, p.value.name)
                    self.props.setdefault(p.name, set()).add(kind)
        self.sizes()
        for pile in rs.piles:
            self._declare(self.piles, "pile", pile, pile.name)
            self.name_ok(pile, pile.name, "a pile")
        self.actor_declarations()
        for d in rs.decks:
            if d.refill_from is not None:
                refill = self.piles.get(d.refill_from)
                if refill is None:
                    self.error(d, f"deck '{d.name}' refills from '{d.refill_from}', which is not "
                                  f"a pile{self.nearest(d.refill_from, self.piles)}")
                elif d.per_player and not (isinstance(refill, ir.Pile) and refill.per_player):
                    self.error(d, f"deck '{d.name}' is each player's own: it refills from a pile "
                                  f"each player has, not from '{d.refill_from}'")
                elif isinstance(refill, ir.Pile) and refill.per_player and not d.per_player:
                    self.error(d, f"deck '{d.name}' cannot refill from '{d.refill_from}', a pile "
                                  f"each player has")

    def actor_declarations(self) -> None:
        """Each actor's name, stats (typed as globals are, under
        ``actor.stat``) and piles (shared, one of each)."""
        for a in self.rs.actors:
            if self._declare(self.actors, "actor", a, a.name):
                self.name_ok(a, a.name, "an actor")
                if a.name in self.stats or a.name in self.piles or a.name in self.consts:
                    self.error(a, f"'{a.name}' names both an actor and a stat, constant or pile")
            stats: Dict[str, ir.Stat] = {}
            for st in a.stats:
                self._declare(stats, f"stat of {a.name}", st, st.name)
                self.name_ok(st, st.name, "a stat")
                self.stat_shape(st)
                if st.scope != "actor":
                    self.error(st, f"'{st.name}' is declared in actor '{a.name}': its scope is 'actor'")
                if st.sight == "hidden":
                    self.error(st, f"'{a.name}' is not a seat, so no one would see "
                                   f"'{st.name}': say 'secret' (seen by nobody until revealed)")
                elif st.spaces is not None:
                    self.error(st, f"a track belongs to the game, not to actor '{a.name}'")
                key = f"{a.name}.{st.name}"
                for v in st.values or ():
                    self.enum_values.setdefault(v, key)
                self.stat_types[key] = self.declared_type(st) or self.expr(
                    st.initial, Scope(player=False, no_rolls=DECL_ROLL.format(what="a starting value")))
                self.bound(st, st.min)
                self.bound(st, st.max)
                if st.scale is not None:
                    self.scale(st, self.stat_types[key])
            self.actor_stats[a.name] = stats
            piles: Dict[str, ir.Pile] = {}
            for pile in a.piles:
                self._declare(piles, f"pile of {a.name}", pile, pile.name)
                self.name_ok(pile, pile.name, "a pile")
                if pile.per_player:
                    self.error(pile, f"actor '{a.name}' is one participant: its pile '{pile.name}' "
                                     f"cannot be per player")
            self.actor_piles[a.name] = piles

    def tables_rules_options(self) -> None:
        """Tables (their dice and rows), rules, options and phases."""
        rs = self.rs
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
            labels: Set[str] = set()
            for choice in o.choices:
                if choice.label in labels:
                    self.error(choice, f"option '{o.name}' offers '{choice.label}' twice")
                if choice.cond is not None:
                    self.error(choice.cond, f"an option's choices are all offered: '{choice.label}' "
                                            f"cannot have an 'if'")
                labels.add(choice.label)
            if not o.choices:
                self.error(o, f"option '{o.name}' offers no choices")
        if rs.turn is not None:
            for ph in rs.turn.phases:
                self._declare(self.phases, "phase", ph, ph.name)

    def presence(self, thing: Union[ir.Card, ir.Piece], what: str) -> None:
        """A component's ``present`` conditions name parameters."""
        params = {p.name for p in self.rs.params}
        for cond in thing.present:
            if cond.param not in params:
                self.error(thing, f"{what} is in the game for some values of '{cond.param}', "
                                  f"which is not a parameter")

    def count_of(self, card: ir.Card) -> None:
        """``Wolf x(wolves)``: a number constant or parameter of 1 or more."""
        c = self.consts.get(card.count_of or "")
        if c is None:
            self.error(card, f"'{card.count_of}' in x({card.count_of}) is not a constant or "
                             f"parameter{self.nearest(card.count_of or '', self.consts)}")
        elif not isinstance(c.value, ir.Num):
            self.error(card, f"x({card.count_of}) needs a constant that is a number, not a value "
                             f"worked out")
        elif c.value.value < 1:
            self.error(card, f"'{card.count_of}' is {c.value.value}: card '{card.name}' needs "
                             f"x1 or more")

    def sizes(self) -> None:
        """The limits on how much a ruleset declares: cards, table rows,
        pieces, and stats with piece values and constants, each counted over
        the whole ruleset and reported at the declaration that goes past it."""
        rs, lim = self.rs, self.limits
        self.past(((d, sum(ir.copies(c, rs) for c in d.cards)) for d in rs.decks), lim.max_cards,
                  "the decks hold {} cards; the limit is {} (Limits.max_cards)")
        stats = (*rs.stats, *(st for a in rs.actors for st in a.stats),
                 *(st for ps in rs.pieces for st in ps.state))
        rows: List[Tuple[object, int]] = [(t, len(t.rows)) for t in rs.tables]
        self.past(rows + [(s, len(s.scale)) for s in stats if s.scale], lim.max_rows,
                  "the tables and scales have {} rows in all; the limit is {} (Limits.max_rows)")
        self.past(((ps, len(ps.pieces)) for ps in rs.pieces), lim.max_pieces,
                  "the piece sets hold {} pieces in all; the limit is {} (Limits.max_pieces)")
        values = [(s, 1) for s in rs.stats] + [(c, 1) for c in ir.constants(rs)] + \
            [(ps, len(ps.state) * len(ps.pieces)) for ps in rs.pieces]
        self.past(values, lim.max_stats,
                  "the stats, piece values (one per piece for each state value) and constants "
                  "come to {}; the limit is {} (Limits.max_stats)")

    def past(self, counted: Iterable[Tuple[object, int]], limit: int, message: str) -> None:
        """Report ``message`` (total, limit) at the first declaration, in
        file order, where the running total of ``counted`` (declaration,
        count) goes past ``limit``."""
        counted = list(counted)
        total = sum(n for _, n in counted)
        if total <= limit:
            return
        counted.sort(key=lambda dn: place(dn[0]))
        running = 0
        for node, n in counted:
            running += n
            if running > limit:
                self.error(node, message.format(total, limit))
                return

    def coverage(self, t: ir.Table) -> None:
        """Each face of the die has one row: a row that shares a roll with
        another is reported (once, at the later one, naming the first roll
        they share), and on any die the checker allows the faces no row
        covers.  One sweep over the rows sorted by their first roll."""
        rows = sorted(((row.low, min(row.high, t.sides + 1), i, row)
                       for i, row in enumerate(t.rows) if row.low <= row.high),
                      key=lambda r: (r[0], r[2]))
        reach, reacher = 0, None    # the highest roll covered so far, and by which row
        missing: List[int] = []
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

    @staticmethod
    def declared_type(s: ir.Stat) -> Optional[str]:
        """A stat's type as its declaration says it (words, a piece or space
        of a set, or a literal start), or None when it starts at an expression."""
        if s.holds:
            return f"piece:{s.holds}"
        if s.values:
            return TEXT
        if isinstance(s.initial, ir.Bool):
            return BOOL
        if isinstance(s.initial, ir.NoneLit):
            return PLAYER
        if isinstance(s.initial, ir.Num):
            return NUM
        return None

    def holds_ok(self, s: ir.Stat) -> None:
        """A value that holds a piece or space names a set the ruleset has."""
        sets = [ps.name for ps in self.rs.pieces]
        if s.holds is not None and s.holds not in sets:
            self.error(s, f"'{s.name}' holds one of '{s.holds}', which is no piece set or board"
                          f"{self.nearest(s.holds, sets)}")

    def stat_sight(self, s: ir.Stat, owned: bool = False) -> None:
        """Who may see a stat: a hidden one needs an owner (a piece's: its
        value 'owner', ``owned``); a track is seen by all."""
        if s.sight is None:
            return
        if s.spaces is not None:
            self.error(s, f"track '{s.name}' is on the table for all to see: it cannot be "
                          f"{s.sight}")
        elif s.scope == "piece" and s.sight == "hidden" and not owned:
            self.error(s, f"piece value '{s.name}' is hidden from all but the piece's owner, and "
                          f"these pieces have none: give them a value 'owner none' (set to a "
                          f"player), or say 'secret'")
        elif s.sight == "hidden" and s.scope == "global":
            self.error(s, f"'{s.name}' belongs to no player, so no one would see it: "
                          f"say 'secret' (seen by nobody until revealed)")

    def stat_shape(self, s: ir.Stat) -> None:
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
            else:       # a word, as a bare name means where no rule is in scope
                bound = self.names.bare(s.initial.name)
                if bound is not None:
                    self.bindings[id(s.initial)] = (s.initial, bound)
            if s.min is not None or s.max is not None:
                self.error(s, f"stat '{s.name}' holds words and cannot have a min or max")

    def piece_set(self, ps: ir.PieceSet) -> None:
        """Declare a piece set: its state values, and the attributes its
        pieces' lines give (each attribute of one type throughout)."""
        if not self._declare(self.piece_sets, "piece set", ps, ps.name):
            return
        self.name_ok(ps, ps.name, "a piece set")
        if ps.name in self.piles or ps.name in self.stats:
            self.error(ps, f"'{ps.name}' names both a piece set and a pile or stat")
        fields: Dict[str, Field] = {}
        for st in ps.state:
            self.name_ok(st, st.name, "a piece's value")
            self.stat_shape(st)
            self.stat_sight(st, owned=any(x.name == "owner" for x in ps.state))
            if st.scope != "piece":
                self.error(st, f"piece value '{st.name}' must be one per piece")
            if st.name in fields:
                self.error(st, f"piece value '{st.name}' is declared twice")
            if st.holds:
                kind = f"piece:{st.holds}"
            elif st.values:
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
            if st.scale is not None:
                self.scale(st, kind)
        names: Set[str] = set()
        for piece in ps.pieces:
            if piece.name in names:
                self.error(piece, f"piece '{piece.name}' appears twice in '{ps.name}'")
            names.add(piece.name)
            self.presence(piece, f"piece '{piece.name}'")
            for prop, kind in self.printed(piece.props, f"piece '{piece.name}'"):
                value = prop.value
                if prop.name in fields and fields[prop.name][1]:
                    want, _, state = fields[prop.name]
                    words = state.values if state is not None else None
                    if words and isinstance(value, ir.Name) and value.name not in words:
                        self.error(prop, f"'{value.name}' is not one of the values of '{prop.name}': "
                                         f"{', '.join(words)}")
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
        elif not ir.pieces_of(ps, self.rs):
            self.error(ps, f"piece set '{ps.name}' has no pieces with these parameter values ("
                           + ", ".join(f"{p.name} {p.default}" for p in self.rs.params) + ")")
        self.piece_fields[ps.name] = fields
        if ps.links:
            self.board_links(ps, names, fields)

    def board_links(self, ps: ir.PieceSet, spaces: Set[str], fields: Dict[str, Field]) -> None:
        """A board's links join its own spaces, in directions named as any
        name is and not named as a field of its spaces."""
        directions = set(ir.directions(ps))
        for link in ps.links:
            for end in (link.frm, link.to):
                if end not in spaces:
                    self.error(ps, f"a link of '{ps.name}' names '{end}', which is not one of its "
                                   f"spaces{self.nearest(end, spaces)}")
        for d in directions:
            self.name_ok(ps, d, "a direction")
            if d in fields:
                self.error(ps, f"'{d}' names both a direction and a value of the spaces of "
                               f"'{ps.name}'")
        self.board_directions[ps.name] = directions
        self.board_branching[ps.name] = frozenset(ir.branching(ps))
        self.board_axes[ps.name] = ir.axes(ps)

    def bound(self, stat: ir.Stat, e: Optional[ir.Bound]) -> Optional[int]:
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

    def not_constant(self, e: ir.Expr, earlier: Set[str]) -> Optional[str]:
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
            elif isinstance(node, ir.CallFn) and node.func in FUNCS:
                stack += list(node.args)
            elif isinstance(node, ir.Name):
                if node.name not in earlier:
                    return (f"'{node.name}' is not a constant declared before it"
                            + self.nearest(node.name, earlier))
            else:
                return f"it cannot use {type(node).__name__.lower()}"
        return None

    def bodies(self) -> None:
        rs = self.rs
        for dt in rs.draw_triggers:
            if dt.deck not in self.decks:
                self.error(dt, f"'on draw' needs a deck: there is no deck '{dt.deck}'"
                               f"{self.nearest(dt.deck, self.decks)}")
            scope = Scope(player=True)
            self.name_ok(dt, dt.var, "a card variable")
            scope.locals[dt.var] = CARD
            if dt.cond is not None:
                self.expect(dt.cond, scope.child(no_rolls=WHERE_ROLL, card=True), BOOL,
                            "a 'where' condition")
            self.block(dt.body, scope)
        for trig in rs.triggers:
            self.expect(trig.cond, Scope(player=True, no_rolls=DECL_ROLL.format(what="a 'whenever' condition")),
                        BOOL, "a 'whenever' condition")
            self.block(trig.body, Scope(player=True))
        if rs.reroll is not None:
            scope = Scope(player=True, no_rolls=DECL_ROLL.format(what="a reroll rule"))
            self.expect(rs.reroll.cond, scope, BOOL, "the reroll condition")
            for s in rs.reroll.cost:
                if not isinstance(s, (ir.Assign, ir.Let)):
                    self.error(s, "the cost of a reroll may only change values (x -= 1)")
            self.block(rs.reroll.cost, scope)
        for r in rs.rules:
            scope = Scope(player=True)
            self.hidden_locals, self.revealed = {}, set()
            for param in r.params:
                self.name_ok(param, param.name, "a parameter")
                if param.name in scope.locals:
                    self.error(param, f"rule '{r.name}' has two parameters named '{param.name}'")
                scope.locals[param.name] = self.param_type(param, report=True)
            if r.gives is not None:
                scope.gives = GIVES_TYPES.get(r.gives, ANY)
                if not gives_always(r.body):
                    self.error(r, f"rule '{r.name}' gives a {r.gives} but may end without giving "
                                  f"one: end each way through it with 'give …'")
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
                first = self.expr(rs.turn.first,
                                  Scope(player=False, no_rolls=DECL_ROLL.format(what="the turn order")))
                if first not in (PLAYER, ANY):
                    self.error(rs.turn.first, f"turns go clockwise from a player, not a {first}")
            if rs.turn.when is not None:
                self.expect(rs.turn.when, Scope(player=True, no_rolls=DECL_ROLL.format(what="the turn's 'when'")),
                            BOOL, "the turn's 'when' condition")
            if rs.turn.until is not None:
                self.expect(rs.turn.until, Scope(player=False, no_rolls=DECL_ROLL.format(what="the turn's 'until'")),
                            BOOL, "the turn's 'until' condition")
            self.block(rs.turn.each_round, Scope(player=False, setup=True))
            ended = False
            for ph in rs.turn.phases:
                if ended:
                    self.error(ph, f"phase '{ph.name}' can never be reached: the phase before "
                                   f"it always ends the turn")
                scope = Scope(player=True, turn=True)
                self.hidden_locals, self.revealed = {}, set()
                self.block(ph.body, scope)
                if ph.body and isinstance(ph.body[-1], (ir.EndTurn, ir.EndGame)):
                    ended = True
        for e in rs.endings:
            self.expect(e.cond, Scope(player=False, no_rolls=DECL_ROLL.format(what="an end condition")),
                        BOOL, "an end condition")
        if rs.turn is None and not rs.endings:
            self.warn(rs, "the ruleset has no turn and no end: the game ends after setup")
        for item in rs.score:
            scope = Scope(player=True, no_rolls=DECL_ROLL.format(what="the score"))
            self.expect(item.points, scope, NUM, "points")
            if item.cond is not None:
                self.expect(item.cond, scope, BOOL, "a scoring condition")
        for item in rs.heuristic:           # about each player, in any state
            scope = Scope(player=True, no_rolls=DECL_ROLL.format(what="the heuristic"))
            self.expect(item.points, scope, NUM, "a heuristic's points")
            if item.cond is not None:
                self.expect(item.cond, scope, BOOL, "a heuristic's condition")
        if rs.winner_where is not None:     # about each player, as the score is
            self.expect(rs.winner_where,
                        Scope(player=True, no_rolls=DECL_ROLL.format(what="the winner's 'where'")),
                        BOOL, "the winner's 'where' condition")
        for r in rs.rules:
            if r.name not in self.used_rules:
                self.warn(r, f"rule '{r.name}' is never used")
        for t in rs.tables:
            if t.name not in self.used_tables:
                self.warn(t, f"table '{t.name}' is never rolled on")
        for d in rs.decks:
            if sum(c.count for c in d.cards) == 0 and d.name in self.drawn:
                self.error(d, f"deck '{d.name}' has no cards but is drawn from")



def gives_always(block: Tuple[ir.Stmt, ...]) -> bool:
    """Whether every way through ``block`` ends in a ``give`` (or ends the
    turn or the game, after which no value is asked for)."""
    if not block:
        return False
    last = block[-1]
    if isinstance(last, (ir.Give, ir.EndGame, ir.EndTurn)):
        return True
    if isinstance(last, ir.If):
        return bool(last.orelse) and gives_always(last.then) and gives_always(last.orelse)
    return False
