"""The checker's expressions: the type of each, and what is wrong with it."""

from __future__ import annotations

from typing import Any, Callable, Optional, Tuple, Union

from .. import ir
from . import resolve
from .base import CheckerBase
from .types import (ANY, BOOL, CARD, CARDS, FUNCS, GIVES_TYPES, NUM, PLAYER, POOL, TEXT, WHERE_ROLL,
                    Scope, one_kind)


class Expressions(CheckerBase):
    """The type of every expression, each problem reported on the way."""

    def expect(self, e: ir.Expr, scope: Scope, want: str, what: str) -> None:
        got = self.expr(e, scope)
        if got in (ANY, want):
            return
        if want == PLAYER and got == "none":
            return
        self.error(e, f"{what} must be a {want}, not a {got}")

    def unknown(self, node: object, name: str, scope: Scope) -> None:
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

    def expr(self, e: ir.Expr, scope: Scope) -> str:
        """The type of ``e`` where ``scope`` is what it sees."""
        check: Callable[[Any, Scope], str] = getattr(self, "e_" + type(e).__name__)
        kind = check(e, scope)
        self.types[id(e)] = (e, kind)
        return kind

    def e_Num(self, e: ir.Num, scope: Scope) -> str:
        return NUM

    def e_Bool(self, e: ir.Bool, scope: Scope) -> str:
        return BOOL

    def e_NoneLit(self, e: ir.NoneLit, scope: Scope) -> str:
        return "none"

    def e_Name(self, e: ir.Name, scope: Scope) -> str:
        name = e.name
        bound = self.names.bare(name, card=scope.card, pieces=scope.pieces, locals=scope.locals)
        if bound is None:
            self.unknown(e, name, scope)
            return ANY
        self.bindings[id(e)] = (e, bound)
        kind = bound.kind
        if kind == resolve.CARD:
            return one_kind(self.props[name])
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
        return TEXT     # a word

    def attr(self, e: ir.Attr, scope: Scope, assigning: bool = False) -> str:
        kind = scope.locals.get(e.obj)
        if kind is None and e.obj in self.stats and self.stats[e.obj].holds \
                and self.stats[e.obj].scope == "global":
            kind = f"piece:{self.stats[e.obj].holds}"    # a global holding a piece or space
        if kind == CARD:
            if assigning:
                self.error(e, f"a card's '{e.name}' is printed on it and cannot change")
            if e.name not in self.props:
                self.error(e, f"no card has a '{e.name}'{self.nearest(e.name, self.props)}")
                return ANY
            return one_kind(self.props[e.name])
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
        if e.obj not in scope.locals and e.obj in self.actors:
            stats = self.actor_stats.get(e.obj, {})
            if e.name not in stats:
                self.error(e, f"actor '{e.obj}' has no '{e.name}'{self.nearest(e.name, stats)}")
                return ANY
            return self.stat_types.get(f"{e.obj}.{e.name}", ANY)
        held = self.stats.get(e.obj)
        if e.obj not in scope.locals and held is not None and held.scope == "global":
            # A game stat that holds a player (bidder.won)
            kind = self.stat_types.get(e.obj, ANY)
            if kind not in (PLAYER, ANY):
                self.error(e, f"'{e.obj}' holds a {kind}, not a player")
        elif e.obj not in scope.locals:
            self.error(e, f"unknown player '{e.obj}'{self.nearest(e.obj, scope.locals)}")
        elif scope.locals[e.obj] not in (PLAYER, ANY):
            self.error(e, f"'{e.obj}' is a {scope.locals[e.obj]}, not a player")
        stat = self.stats.get(e.name)
        if stat is None or stat.scope == "global":
            per_player = (s.name for s in self.rs.stats if s.scope != "global")
            self.error(e, f"'{e.name}' is not a stat of each player{self.nearest(e.name, per_player)}")
            return ANY
        return self.stat_types.get(e.name, ANY)

    def e_Attr(self, e: ir.Attr, scope: Scope) -> str:
        return self.attr(e, scope)

    def e_BinOp(self, e: ir.BinOp, scope: Scope) -> str:
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

    def e_NoDice(self, e: ir.NoDice, scope: Scope) -> str:
        return POOL

    def e_Compare(self, e: ir.Compare, scope: Scope) -> str:
        a, b = self.expr(e.left, scope), self.expr(e.right, scope)
        if e.op in ("==", "!="):
            if ANY not in (a, b) and a != b and "none" not in (a, b):
                self.error(e, f"comparing a {a} with a {b} is never equal")
        else:
            for side, t in ((e.left, a), (e.right, b)):
                if t not in (NUM, ANY):
                    self.error(side, f"'{e.op}' compares numbers, not a {t}")
        return BOOL

    def e_Not(self, e: ir.Not, scope: Scope) -> str:
        self.expect(e.operand, scope, BOOL, "'not'")
        return BOOL

    def e_Neg(self, e: ir.Neg, scope: Scope) -> str:
        self.expect(e.operand, scope, NUM, "'-'")
        return NUM

    def e_SeatOf(self, e: ir.SeatOf, scope: Scope) -> str:
        if isinstance(e.player, ir.NoneLit):
            self.error(e, "'seat of none': none is no player")
        self.expect(e.player, scope, PLAYER, "'seat of'")
        return NUM

    def e_PlayerAfter(self, e: ir.PlayerAfter, scope: Scope) -> str:
        if isinstance(e.player, ir.NoneLit):
            self.error(e, "'player after none': none is no player")
        self.expect(e.player, scope, PLAYER, "'player after'")
        if e.cond is not None:
            self.expect(e.cond, scope.child(player=True, no_rolls=WHERE_ROLL), BOOL,
                        "a 'where' condition")
        return PLAYER

    def e_RuleValue(self, e: ir.RuleValue, scope: Scope) -> str:
        rule = self.rules.get(e.rule)
        if rule is None:
            given = [r.name for r in self.rs.rules if r.gives is not None]
            self.error(e, f"unknown function '{e.rule}'{self.nearest(e.rule, FUNCS, given)}; the "
                          f"functions are min, max and abs, and the rules that give a value"
                          + (f" ({', '.join(given[:5])})" if given else ""))
        elif rule.gives is None:
            self.error(e, f"rule '{e.rule}' gives no value: say what it gives (rule {e.rule} "
                          f"gives number {{ … give … }})")
        elif scope.no_rolls and self.pure.get(e.rule) is not None:
            self.error(e, f"rule '{e.rule}' {self.pure[e.rule]}, so its value cannot be asked "
                          f"for here (a 'where', a choice's condition, a 'whenever', an ending, "
                          f"the score…): only a rule that just works out its value (let, if, "
                          f"loops, give) can be; or work it out in a statement first, into a "
                          f"'let' or a stat")
        self.rule_args(e, e.rule, e.args, scope)
        return GIVES_TYPES.get(rule.gives, ANY) if rule is not None and rule.gives else ANY

    def rule_args(self, node: object, name: str, args: Tuple[ir.Expr, ...], scope: Scope) -> None:
        """The values a call gives rule ``name``: as many as it takes, each
        of the kind it takes (the rule itself is known or reported)."""
        if name in self.rules:
            params = self.rules[name].params
            if len(args) != len(params):
                want = ", ".join(p.name for p in params) or "no values"
                self.error(node, f"rule '{name}' takes {len(params)} value{'s' if len(params) != 1 else ''} "
                                 f"({want}), not {len(args)}")
            for arg, param in zip(args, params):
                want = self.param_type(param)
                got = self.expr(arg, scope)
                if ANY not in (got, want) and got != want and not (want == PLAYER and got == "none"):
                    self.error(arg, f"'{param.name}' of rule '{name}' is a "
                                    f"{want.replace('piece:', 'piece of ')}, not a "
                                    f"{got.replace('piece:', 'piece of ')}")
        for arg in args[len(self.rules[name].params) if name in self.rules else 0:]:
            self.expr(arg, scope)
        self.used_rules.add(name)

    def e_CallFn(self, e: ir.CallFn, scope: Scope) -> str:
        if e.func not in FUNCS:
            self.error(e, f"unknown function '{e.func}'{self.nearest(e.func, FUNCS)}; "
                          f"the functions are min, max and abs")
        else:
            low, high = FUNCS[e.func]
            n = len(e.args)
            if n < low or (high is not None and n > high):
                want = f"{low}" if low == high else f"at least {low}"
                self.error(e, f"{e.func}() takes {want} argument{'s' if low != 1 else ''}, not {n}")
        for a in e.args:
            self.expect(a, scope, NUM, f"an argument of {e.func}()")
        return NUM

    def e_Roll(self, e: ir.Roll, scope: Scope) -> str:
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

    def e_RollOff(self, e: ir.RollOff, scope: Scope) -> str:
        if scope.no_rolls:
            self.error(e, scope.no_rolls)
        self.check_die(e, e.sides)
        return PLAYER

    def e_ThisPlayer(self, e: ir.ThisPlayer, scope: Scope) -> str:
        if not scope.player:
            self.error(e, "'this player' is used where no player is in scope")
        return PLAYER

    def e_Round(self, e: ir.Round, scope: Scope) -> str:
        return NUM

    def e_TestResult(self, e: ir.TestResult, scope: Scope) -> str:
        if self.rs.test is None:
            self.error(e, f"'{e.what}' refers to a test, but the ruleset never says how a test is made")
        return NUM if e.what == "margin" else BOOL

    def e_CountCards(self, e: ir.CountCards, scope: Scope) -> str:
        if e.card not in self.cards:
            self.error(e, f"there is no card '{e.card}'{self.nearest(e.card, self.cards)}")
        self.pile(e.pile, scope)
        return NUM

    def e_PileSize(self, e: ir.PileSize, scope: Scope) -> str:
        self.pile(e.pile, scope, allow_local=True)
        return NUM

    def e_SumCards(self, e: ir.SumCards, scope: Scope) -> str:
        if e.prop not in self.props:
            self.error(e, f"no card has a '{e.prop}'{self.nearest(e.prop, self.props)}")
        elif self.props[e.prop] - {NUM, ANY}:
            self.error(e, f"'sum of {e.prop}' needs numbers, but some cards give '{e.prop}' "
                          f"a {' or '.join(sorted(self.props[e.prop] - {NUM, ANY}))}")
        self.pile(e.pile, scope)
        return NUM

    def e_IfExpr(self, e: ir.IfExpr, scope: Scope) -> str:
        self.expect(e.cond, scope, BOOL, "the condition of 'if … then … else'")
        a, b = self.expr(e.then, scope), self.expr(e.orelse, scope)
        if ANY in (a, b) or a == b:
            return a if b == ANY or a == b else b
        if "none" in (a, b):
            return b if a == "none" else a
        self.error(e, f"'if … then … else' gives a {a} or a {b}: both must be of one kind")
        return ANY

    def e_Pool(self, e: ir.Pool, scope: Scope) -> str:
        if scope.no_rolls:
            self.error(e, scope.no_rolls)
        self.check_die(e, e.sides)
        self.expect(e.count, scope, NUM, "the number of dice")
        return POOL

    def e_PoolCount(self, e: ir.PoolCount, scope: Scope) -> str:
        pool = e.pool
        name = pool.name
        if isinstance(pool, ir.Name) and name not in scope.locals and name not in self.stats:
            self.error(e, f"'{name}' holds no dice here{self.nearest(name, scope.locals)}")
        else:
            kind = self.expr(pool, scope)
            if kind not in (POOL, ANY):
                self.error(e, f"'{name}' holds a {kind}, not dice: roll them with 'roll N dice d6'")
        self.expect(e.value, scope, NUM, "the value the dice are compared with")
        return NUM

    def e_PieceQuery(self, e: ir.PieceQuery, scope: Scope) -> str:
        fields = self.piece_of(e, e.pieces)
        if e.cond is not None and fields is not None:
            self.expect(e.cond, scope.child(no_rolls=WHERE_ROLL, piece=e.pieces), BOOL,
                        "a 'where' condition")
        return NUM if e.quantifier == "count" else BOOL

    def board_of(self, e: Union[ir.Neighbour, ir.Farthest, ir.Connected, ir.InARow],
                 scope: Scope) -> Optional[str]:
        """The board whose space the name ``e.space`` holds, reporting a
        name that holds no board's space."""
        kind = str(scope.locals.get(e.space, ""))
        pset = kind[len("piece:"):] if kind.startswith("piece:") else None
        if pset is None or pset not in self.board_directions:
            what = "holds no space" if e.space in scope.locals else "is not a name given here"
            self.error(e, f"'{e.space}' {what}: name a board's space (for each cells as s, "
                          f"choose one cells as s, let s = neighbour north of t)")
            return None
        return pset

    def e_FieldOf(self, e: ir.FieldOf, scope: Scope) -> str:
        kind = self.expr(e.of, scope)
        stat = self.stat_read(e.of, scope)
        if stat is not None and id(stat) in self.scales:     # 'capacity of porters'
            self.scale_reads[id(e)] = (e, stat)
            printed = self.scales[id(stat)][1]
            if e.field not in printed:
                self.error(e, f"the scale of '{stat.name}' has no '{e.field}'"
                              f"{self.nearest(e.field, printed)}")
                return ANY
            return printed[e.field]
        if kind == ANY:
            return ANY
        if stat is not None and not kind.startswith("piece:"):
            scaled = [st.name for st, printed in self.scales.values() if e.field in printed]
            self.error(e, f"'{stat.name}' has no scale to read '{e.field}' from"
                          f"{self.nearest(stat.name, scaled)}")
            return ANY
        if not (isinstance(kind, str) and kind.startswith("piece:")):
            self.error(e, f"'{e.field} of …' reads a value of a piece or space, not of a {kind}")
            return ANY
        fields = self.piece_fields.get(kind[len("piece:"):], {})
        if e.field not in fields:
            self.error(e, f"the pieces of '{kind[len('piece:'):]}' have no '{e.field}'"
                          f"{self.nearest(e.field, fields)}")
            return ANY
        return fields[e.field][0]

    def stat_read(self, e: ir.Expr, scope: Scope) -> Optional[ir.Stat]:
        """The declaration of the stat (or piece value) ``e`` reads, when it
        is a plain read already checked: ``porters`` (of the player in
        scope, a global, or the piece a 'where' looks at), ``rival.porters``,
        ``dealer.porters``, ``v.fuel``; else None."""
        if isinstance(e, ir.Name):
            found = self.bindings.get(id(e))
            bound = found[1] if found is not None and found[0] is e else None
            if bound is None:
                return None
            if bound.kind in (resolve.PLAYER, resolve.GLOBAL):
                return self.stats.get(e.name)
            if bound.kind == resolve.PIECE:
                return self.piece_fields.get(bound.pieces, {}).get(e.name, (ANY, False, None))[2]
            return None
        if not isinstance(e, ir.Attr):
            return None
        kind = scope.locals.get(e.obj)
        held = self.stats.get(e.obj) if kind is None else None
        if held is not None and held.holds and held.scope == "global":
            kind = f"piece:{held.holds}"      # a global holding a piece or space
        elif kind is None and e.obj in self.actors:
            return self.actor_stats.get(e.obj, {}).get(e.name)
        elif kind is None and e.obj in self.track_props:
            return None     # a track's space data
        if kind is not None and kind.startswith("piece:"):
            return self.piece_fields.get(kind[len("piece:"):], {}).get(e.name, (ANY, False, None))[2]
        stat = self.stats.get(e.name)
        player = kind in (PLAYER, ANY, None)     # a player local, or a global holding one
        return stat if player and stat is not None and stat.scope in ("player", "turn") else None

    def e_Farthest(self, e: ir.Farthest, scope: Scope) -> str:
        kind = self.e_Neighbour(e, scope)
        if kind != ANY:
            self.expect(e.cond, scope.child(no_rolls=WHERE_ROLL, piece=kind[len("piece:"):]), BOOL,
                        "a 'where' condition")
        return kind

    def e_Neighbour(self, e: Union[ir.Neighbour, ir.Farthest], scope: Scope) -> str:
        board = self.board_of(e, scope)
        if board is None:
            return ANY
        directions = self.board_directions[board]
        if e.direction not in directions:
            self.error(e, f"the spaces of '{board}' have no direction '{e.direction}'"
                          f"{self.nearest(e.direction, directions)} (they have "
                          f"{', '.join(sorted(directions))})")
        elif e.direction in self.board_branching[board]:
            what = "neighbour" if isinstance(e, ir.Neighbour) else "farthest"
            self.error(e, f"'{e.direction}' leads from some spaces of '{board}' to more than one: "
                          f"'{what} {e.direction} of …' needs a direction with one space at each "
                          f"step; ask 'distance from {e.space} along {e.direction}' instead")
        return f"piece:{board}"

    def e_Connected(self, e: ir.Connected, scope: Scope) -> str:
        board = self.board_of(e, scope)
        if board is not None:
            inner = scope.child(no_rolls=WHERE_ROLL, piece=board)
            self.expect(e.cond, inner, BOOL, "a 'where' condition")
            self.expect(e.goal, inner, BOOL, "what the group 'reaches'")
        return BOOL

    def e_Distance(self, e: ir.Distance, scope: Scope) -> str:
        board = self.board_of(ir.Neighbour("", e.start, e.pos), scope)
        if board is None:
            return ANY
        if e.to is not None:
            if self.board_of(ir.Neighbour("", e.to, e.pos), scope) not in (board, None):
                self.error(e, f"'{e.start}' and '{e.to}' are spaces of two boards")
        elif not scope.pieces or scope.pieces[-1] != board:
            self.error(e, f"say which space the distance is to ('distance from {e.start} to "
                          f"s'), or ask it inside a 'where' about the spaces of '{board}'")
        directions = self.board_directions[board]
        for d in e.along:
            if d not in directions:
                self.error(e, f"the spaces of '{board}' have no direction '{d}'"
                              f"{self.nearest(d, directions)}")
        if e.through is not None:
            self.expect(e.through, scope.child(no_rolls=WHERE_ROLL, piece=board), BOOL,
                        "what the spaces gone 'through' meet")
        return NUM

    def e_InARow(self, e: ir.InARow, scope: Scope) -> str:
        self.expect(e.count, scope, NUM, "how many in a row")
        board = self.board_of(e, scope)
        if board is not None:
            self.expect(e.cond, scope.child(no_rolls=WHERE_ROLL, piece=board), BOOL,
                        "a 'where' condition")
            if not self.board_axes[board]:
                self.error(e, f"the links of '{board}' go one way only: a row runs along a "
                              f"direction and its opposite")
        return BOOL

    def e_PieceExtreme(self, e: ir.PieceExtreme, scope: Scope) -> str:
        fields = self.piece_of(e, e.pieces)
        if fields is not None:
            inner = scope.child(no_rolls=WHERE_ROLL, piece=e.pieces)
            self.expect(e.value, inner, NUM, f"'{e.which}'")
            if e.cond is not None:
                self.expect(e.cond, inner, BOOL, "a 'where' condition")
        return NUM

    def e_PlayerQuery(self, e: ir.PlayerQuery, scope: Scope) -> str:
        if e.other and not scope.player:
            self.error(e, "'other' means other than the player in scope, and there is none here")
        if e.cond is not None:
            self.expect(e.cond, scope.child(player=True, no_rolls=WHERE_ROLL), BOOL,
                        "a 'where' condition")
        return NUM if e.quantifier == "count" else BOOL

    def e_Extreme(self, e: ir.Extreme, scope: Scope) -> str:
        if e.other and not scope.player:
            self.error(e, "'other' means other than the player in scope, and there is none here")
        inner = scope.child(player=True, no_rolls=WHERE_ROLL)
        self.expect(e.value, inner, NUM, "'sum of … among players'" if e.which == "sum" else f"'{e.which}'")
        if e.cond is not None:
            self.expect(e.cond, inner, BOOL, "a 'where' condition")
        return NUM

    def pile(self, ref: ir.PileRef, scope: Scope, allow_local: bool = False) -> None:
        if allow_local and ref.name in scope.locals and ref.owner is None:
            if scope.locals[ref.name] not in (CARDS, POOL, ANY):
                self.error(ref, f"'{ref.name}' holds a {scope.locals[ref.name]}, not cards")
            return
        if ref.owner is not None and ref.owner in self.actors and ref.owner not in scope.locals:
            piles = self.actor_piles.get(ref.owner, {})
            if ref.name not in piles:
                self.error(ref, f"actor '{ref.owner}' has no pile '{ref.name}'"
                                f"{self.nearest(ref.name, piles)}")
            return
        if ref.name not in self.piles:
            kinds = "deck or pile"
            self.error(ref, f"there is no {kinds} '{ref.name}'{self.nearest(ref.name, self.piles)}")
            return
        decl = self.piles[ref.name]
        per_player = decl.per_player
        if ref.owner is not None:
            if not per_player:
                self.error(ref, f"pile '{ref.name}' is shared; it has no owner")
            if ref.owner not in scope.locals:
                self.error(ref, f"unknown player '{ref.owner}'{self.nearest(ref.owner, scope.locals)}")
        elif per_player and not scope.player:
            self.error(ref, f"pile '{ref.name}' belongs to each player, but no player is in scope")

