"""Stage 3: the static checker.  Reads the IR and reports every problem it
finds (not just the first), each with its place and, for a misspelt name,
the nearest known one.  Needs nothing from the engine, so an editor or a
linter can run it alone.
"""

from __future__ import annotations

from typing import List, Optional, Tuple

from .. import ir
from ..errors import Diagnostic, RulesetCheckError
from ..limits import DEFAULT, Limits
from .declarations import Declarations
from .purity import pure_rules
from .resolve import Resolved
from .traps import traps
from .types import BOOL, NUM, TEXT, one_kind


class Checker(Declarations):
    """The whole checker: ``run`` reads the declarations, then the bodies."""

    def run(self) -> List[Diagnostic]:
        rs = self.rs
        where = ir.At(rs.players_pos)
        params = {p.name: p.default for p in rs.params}
        for end, value in ((rs.min_players_of, rs.min_players), (rs.max_players_of, rs.max_players)):
            if end is not None and params.get(end) != value:
                self.error(where, f"players: '{end}' is not a parameter whose value is {value}")
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
            self.pure = pure_rules(rs)
            self.declarations()
            self.bodies()
            self.written_values()
        except RecursionError:
            self.diags.append(Diagnostic(rs.filename, 1, 1, "the ruleset is nested too deeply "
                                         "to check (raise the recursion limit or lower "
                                         "Limits.max_nesting)"))
        self.diags.sort(key=lambda d: (d.line, d.column))
        return self.diags

    def written_values(self) -> None:
        """The type of each value a declaration writes out, which no rule
        reads as an expression: a component's property (a scale's too), a
        stat's start and bounds (a number, yes/no, none, a word, or a constant)."""
        rs = self.rs
        found = [v for s in rs.stats for v in (s.initial, s.min, s.max)]
        found += [p.value for s in rs.stats for space in s.spaces or () for p in space.props]
        found += [p.value for s in (*rs.stats, *(st for a in rs.actors for st in a.stats),
                                    *(st for ps in rs.pieces for st in ps.state))
                  for row in s.scale or () for p in row.props]      # what scales print
        found += [p.value for deck in rs.decks for card in deck.cards for p in card.props]
        found += [v for ps in rs.pieces for v in
                  [st.initial for st in ps.state] + [p.value for piece in ps.pieces for p in piece.props]]
        for e in found:
            if e is None or id(e) in self.types:
                continue
            if isinstance(e, ir.Num):
                self.types[id(e)] = (e, NUM)
            elif isinstance(e, ir.Bool):
                self.types[id(e)] = (e, BOOL)
            elif isinstance(e, ir.NoneLit):
                self.types[id(e)] = (e, "none")
            elif isinstance(e, ir.Name):
                self.types[id(e)] = (e, NUM if e.name in self.consts else TEXT)

    def resolved(self) -> Resolved:
        """What ``run`` worked out: the types of stats, piece fields and card
        properties, the stat of each word, and what each bare name it read
        means (meaningful when ``run`` found no error)."""
        return Resolved.make(
            self.names, stat_types=self.stat_types, word_stats=self.enum_values,
            card_props={name: one_kind(kinds) for name, kinds in self.props.items()},
            track_props=self.track_props,
            piece_fields={ps: {name: f[:2] for name, f in fields.items()}
                          for ps, fields in self.piece_fields.items()},
            bindings=self.bindings, types=self.types, log_parts=self.log_parts,
            scales=self.scale_reads,
            pure_rules=frozenset(name for name, why in self.pure.items() if why is None))


def check(rs: ir.Ruleset, limits: Optional[Limits] = None) -> List[Diagnostic]:
    """Every error in the ruleset (an empty list when it is sound)."""
    return Checker(rs, limits or DEFAULT).run()


def check_all(rs: ir.Ruleset, limits: Optional[Limits] = None) -> Tuple[List[Diagnostic], List[Diagnostic]]:
    """(errors, warnings)."""
    c = Checker(rs, limits or DEFAULT)
    errors = c.run()
    notes, warnings = traps(rs)
    if errors and notes:
        errors = sorted(errors + notes, key=lambda d: (d.line, d.column))
    return errors, sorted(c.warnings + warnings, key=lambda d: (d.line, d.column))


def resolve_ruleset(rs: ir.Ruleset, limits: Optional[Limits] = None) -> Resolved:
    """What the checker works out about ``rs`` (``resolve.Resolved``);
    raises ``RulesetCheckError`` with every problem when it is not sound."""
    c = Checker(rs, limits or DEFAULT)
    errors = c.run()
    if errors:
        raise RulesetCheckError(errors)
    return c.resolved()
