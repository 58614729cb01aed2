"""The checker's statements: what each may do where it stands, and the
locals it makes."""

from __future__ import annotations

from typing import Any, Callable, Optional, Sequence, Union

from .. import ir
from .expressions import Expressions
from .types import ANY, BOOL, CARD, CARDS, NUM, PLAYER, POOL, WHERE_ROLL, Scope


class Statements(Expressions):
    """Every statement of a block, in order, with the locals it makes."""

    def block(self, stmts: Sequence[ir.Stmt], scope: Scope) -> None:
        after: Optional[str] = None
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

    def stmt(self, s: ir.Stmt, scope: Scope) -> None:
        check: Callable[[Any, Scope], None] = getattr(self, "s_" + type(s).__name__)
        check(s, scope)

    def s_Assign(self, s: ir.Assign, scope: Scope) -> None:
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
        self.types[id(t)] = (t, target_type)      # the place's type
        self.public_from_hidden(s, t, scope)
        if s.op == "+=" and target_type == POOL and value in (POOL, ANY):
            return
        if s.op != "=" and target_type not in (NUM, ANY):
            self.error(s, f"'{s.op}' needs a number, but '{t.name}' is a {target_type}")
        if s.op != "=" and value not in (NUM, ANY):
            self.error(s.value, f"'{s.op}' needs a number, not a {value}")
        if s.op == "=" and target_type not in (ANY,) and value not in (ANY,) and value != target_type \
                and not (value == "none" and (target_type == PLAYER or target_type.startswith("piece:"))):
            self.error(s.value, f"'{t.name}' holds a {target_type}, not a {value}")

    def public_from_hidden(self, s: ir.Assign, t: Union[ir.Name, ir.Attr], scope: Scope) -> None:
        """Warn when a value everyone sees is worked out from one they may
        not: the hidden value leaks through it.  (A local so made is hidden
        in turn: ``hidden_locals``.)"""
        read = self.hidden_read(s.value, scope) or self.secret_choice
        if isinstance(t, ir.Name) and t.name in scope.locals:
            if read is not None:
                self.hidden_locals[t.name] = read
            return
        if isinstance(t, ir.Attr) and str(scope.locals.get(t.obj, "")).startswith("piece:"):
            stat = self.piece_value(t, scope)
            if stat is not None and stat.sight is None and read is not None:
                self.warn(s, f"'{t.obj}.{t.name}' is seen by everyone, but is worked out here from "
                             f"{read}: everyone learns what that hides (make '{t.name}' hidden or "
                             f"secret too)")
            return
        if isinstance(t, ir.Attr) and t.obj in self.actors and t.obj not in scope.locals:
            stat = self.actor_stats.get(t.obj, {}).get(t.name)
        else:
            stat = self.stats.get(t.name)
        if stat is None or stat.sight is not None:
            return
        if read is not None:
            self.warn(s, f"'{t.name}' is seen by everyone, but is worked out here from {read}: "
                         f"everyone learns what that hides (make '{t.name}' hidden or secret too)")

    def s_Reveal(self, s: ir.Reveal, scope: Scope) -> None:
        t = s.target
        self.expr(t, scope)
        if isinstance(t, ir.Attr) and str(scope.locals.get(t.obj, "")).startswith("piece:"):
            piece = self.piece_value(t, scope)
            if piece is None or piece.sight is None:
                self.error(t, f"'{t.obj}.{t.name}' is seen by everyone already: only a value "
                              f"declared 'hidden' or 'secret' can be revealed")
            else:
                self.revealed.add(f"{t.obj}.{t.name}")
            return
        if isinstance(t, ir.Attr) and t.obj in self.actors and t.obj not in scope.locals:
            stat = self.actor_stats.get(t.obj, {}).get(t.name)
        else:
            stat = self.stats.get(t.name)
        if stat is None or stat.scope == "piece" or (isinstance(t, ir.Name) and t.name in scope.locals):
            self.error(t, f"'reveal' shows a hidden or secret stat; '{t.name}' is not a stat")
        elif stat.sight is None:
            self.error(t, f"'{t.name}' is seen by everyone already: only a stat declared "
                          f"'hidden' or 'secret' can be revealed")
        else:
            self.revealed.add(stat.name)

    def s_Spend(self, s: ir.Spend, scope: Scope) -> None:
        self.expect(s.count, scope, NUM, "how many dice")
        self.expect(s.value, scope, NUM, "the value compared with")
        kind = scope.locals.get(s.pool)
        if kind is None:
            self.error(s, f"'{s.pool}' holds no dice here{self.nearest(s.pool, scope.locals)}")
        elif kind not in (POOL, ANY):
            self.error(s, f"'{s.pool}' holds a {kind}, not dice")

    def s_Let(self, s: ir.Let, scope: Scope) -> None:
        t = self.expr(s.value, scope)
        read = self.hidden_read(s.value, scope)
        if read is not None:
            self.hidden_locals[s.name] = read
        else:
            self.hidden_locals.pop(s.name, None)
        if s.name in self.stats or s.name in self.consts or s.name in self.actors:
            self.error(s, f"'let {s.name}' would hide the stat, constant or actor '{s.name}'")
        self.name_ok(s, s.name, "a local value")
        scope.locals[s.name] = t if t != "none" else ANY

    def s_If(self, s: ir.If, scope: Scope) -> None:
        self.expect(s.cond, scope, BOOL, "an 'if' condition")
        then, orelse = scope.branch(), scope.branch()
        self.block(s.then, then)
        self.block(s.orelse, orelse)
        # A local made on both branches exists after the 'if'.
        made = orelse.locals.maps[0]
        for name in then.locals.maps[0]:
            if name in made and name not in scope.locals:
                scope.locals[name] = then.locals[name]

    def loop_body(self, body: Sequence[ir.Stmt], scope: Scope) -> None:
        inner = scope.branch()
        inner.loops += 1
        self.block(body, inner)

    def s_Repeat(self, s: ir.Repeat, scope: Scope) -> None:
        self.expect(s.times, scope, NUM, "a repeat count")
        self.loop_body(s.body, scope)

    def s_While(self, s: ir.While, scope: Scope) -> None:
        self.expect(s.cond, scope, BOOL, "a 'while' condition")
        self.loop_body(s.body, scope)

    def s_Stop(self, s: ir.Stop, scope: Scope) -> None:
        if scope.loops == 0:
            self.error(s, "'stop' leaves a repeat, while or for each loop, and there is none here")

    def s_ForEachPlayer(self, s: ir.ForEachPlayer, scope: Scope) -> None:
        if s.other and not scope.player:
            self.error(s, "'other' means other than the player in scope, and there is none here")
        inner = scope.branch()
        if s.var:
            self.name_ok(s, s.var, "a player variable")
            inner.locals[s.var] = PLAYER
        else:
            inner.player = True
        if s.cond is not None:
            self.expect(s.cond, inner.child(no_rolls=WHERE_ROLL), BOOL, "a 'where' condition")
        self.loop_body(s.body, inner)

    def s_ForPlayer(self, s: ir.ForPlayer, scope: Scope) -> None:
        if isinstance(s.player, ir.NoneLit):
            self.error(s, "'for none': none is no player")
        self.expect(s.player, scope, PLAYER, "what 'for' names")
        inner = scope.branch()      # (not a loop: a 'stop' inside leaves the loop around it)
        inner.player = True
        self.block(s.body, inner)

    def s_MoveCard(self, s: ir.MoveCard, scope: Scope) -> None:
        if s.card not in self.cards:
            self.error(s, f"there is no card '{s.card}'{self.nearest(s.card, self.cards)}")
        self.pile(s.source, scope)
        self.pile(s.dest, scope)

    def s_ChooseCard(self, s: ir.ChooseCard, scope: Scope) -> None:
        self.pile(s.pile, scope)
        if not scope.player:
            self.error(s, "a choice needs a player to make it, and no player is in scope here")
        if s.cond is not None:
            self.expect(s.cond, scope.child(no_rolls=WHERE_ROLL, card=True), BOOL, "a 'where' condition")
        self.name_ok(s, s.var, "a card variable")
        scope.locals[s.var] = CARD
        self.hidden_locals.pop(s.var, None)
        if s.secret:
            self.hidden_locals[s.var] = f"'{s.var}', which was chosen secretly"

    def s_ForEachCard(self, s: ir.ForEachCard, scope: Scope) -> None:
        self.pile(s.pile, scope)
        inner = scope.branch()
        self.name_ok(s, s.var, "a card variable")
        inner.locals[s.var] = CARD
        if s.cond is not None:
            self.expect(s.cond, inner.child(no_rolls=WHERE_ROLL, card=True), BOOL, "a 'where' condition")
        self.loop_body(s.body, inner)

    def s_ForEachPiece(self, s: ir.ForEachPiece, scope: Scope) -> None:
        fields = self.piece_of(s, s.pieces)
        inner = scope.branch()
        self.name_ok(s, s.var, "a piece variable")
        inner.locals[s.var] = f"piece:{s.pieces}"
        if s.cond is not None and fields is not None:
            self.expect(s.cond, inner.child(no_rolls=WHERE_ROLL, piece=s.pieces), BOOL,
                        "a 'where' condition")
        self.loop_body(s.body, inner)

    def s_ChoosePiece(self, s: ir.ChoosePiece, scope: Scope) -> None:
        fields = self.piece_of(s, s.pieces)
        if not scope.player:
            self.error(s, "a choice needs a player to make it, and no player is in scope here")
        if s.cond is not None and fields is not None:
            named = scope.child(no_rolls=WHERE_ROLL, piece=s.pieces)    # (naming the one looked at)
            named.locals[s.var] = f"piece:{s.pieces}"
            self.expect(s.cond, named, BOOL, "a 'where' condition")
        self.name_ok(s, s.var, "a piece variable")
        scope.locals[s.var] = f"piece:{s.pieces}"

    def s_RollOn(self, s: ir.RollOn, scope: Scope) -> None:
        if s.table not in self.tables:
            self.error(s, f"there is no table '{s.table}'{self.nearest(s.table, self.tables)}")
        self.used_tables.add(s.table)

    def s_Test(self, s: ir.Test, scope: Scope) -> None:
        if self.rs.test is None:
            self.error(s, "'test' is used but the ruleset never says how a test is made "
                          "(add e.g. 'test (stat): roll d10 <= stat')")
        self.expect(s.target, scope, NUM, "a test")

    def s_Draw(self, s: ir.Draw, scope: Scope) -> None:
        self.expect(s.count, scope, NUM, "the number of cards to draw")
        self.pile(s.source, scope)
        self.pile(s.dest, scope)
        self.drawn.add(s.source.name)

    def s_MoveAll(self, s: ir.MoveAll, scope: Scope) -> None:
        self.pile(s.source, scope)
        self.pile(s.dest, scope)

    def s_MoveCards(self, s: ir.MoveCards, scope: Scope) -> None:
        if s.cards not in scope.locals:
            self.error(s, f"'{s.cards}' holds no chosen cards here{self.nearest(s.cards, scope.locals)}")
        elif scope.locals[s.cards] not in (CARDS, CARD, ANY):
            self.error(s, f"'{s.cards}' holds a {scope.locals[s.cards]}, not cards")
        self.pile(s.source, scope)
        self.pile(s.dest, scope)

    def s_ChooseCards(self, s: ir.ChooseCards, scope: Scope) -> None:
        self.name_ok(s, s.var, "chosen cards")
        self.expect(s.low, scope, NUM, "how many cards")
        self.expect(s.high, scope, NUM, "how many cards")
        self.pile(s.pile, scope)
        scope.locals[s.var] = CARDS

    def s_ChooseOne(self, s: ir.ChooseOne, scope: Scope) -> None:
        labels = set()
        for c in s.choices:
            if c.label in labels:
                self.error(c, f"the choice '{c.label}' is offered twice")
            labels.add(c.label)
            if c.cond is not None:
                self.expect(c.cond, scope.child(no_rolls="a choice's condition cannot roll dice: "
                                                         "roll first, into a 'let'"),
                            BOOL, "the condition of a choice")
            was = self.secret_choice
            if s.secret:
                self.secret_choice = "what was chosen secretly"
            try:
                self.block(c.body, scope)
            finally:
                self.secret_choice = was
        if not s.choices:
            self.error(s, "'choose one' offers no choices")

    def s_ChooseOption(self, s: ir.ChooseOption, scope: Scope) -> None:
        if s.option not in self.options:
            self.error(s, f"there is no option '{s.option}'{self.nearest(s.option, self.options)}")
        self.used_options.add(s.option)

    def s_ChooseRow(self, s: ir.ChooseRow, scope: Scope) -> None:
        t = self.tables.get(s.table)
        if t is None:
            self.error(s, f"there is no table '{s.table}'{self.nearest(s.table, self.tables)}")
            return
        self.used_tables.add(s.table)
        if s.low > s.high or s.low < 1 or s.high > t.sides:
            self.error(s, f"rows {s.low}..{s.high} are not rows of the d{t.sides} table '{t.name}'")

    def s_May(self, s: ir.May, scope: Scope) -> None:
        if not scope.player:
            self.error(s, "a choice needs a player to make it, and no player is in scope here")
        self.block(s.body, scope.branch())
        self.block(s.orelse, scope.branch())

    def s_PickPiece(self, s: ir.PickPiece, scope: Scope) -> None:
        fields = self.piece_of(s, s.pieces)
        if s.cond is not None and fields is not None:
            self.expect(s.cond, scope.child(no_rolls=WHERE_ROLL, piece=s.pieces), BOOL,
                        "a 'where' condition")
        self.name_ok(s, s.var, "a piece variable")
        scope.locals[s.var] = f"piece:{s.pieces}"

    def s_ChooseNumber(self, s: ir.ChooseNumber, scope: Scope) -> None:
        if not scope.player:
            self.error(s, "a choice needs a player to make it, and no player is in scope here")
        self.expect(s.low, scope, NUM, "the lowest number")
        self.expect(s.high, scope, NUM, "the highest number")
        self.name_ok(s, s.var, "a chosen number")
        scope.locals[s.var] = NUM
        self.hidden_locals.pop(s.var, None)
        if s.secret:
            self.hidden_locals[s.var] = f"'{s.var}', which was chosen secretly"

    def s_Skip(self, s: ir.Skip, scope: Scope) -> None:
        if s.phase not in self.phases:
            self.error(s, f"there is no phase '{s.phase}'{self.nearest(s.phase, self.phases)}")

    def s_EndTurn(self, s: ir.EndTurn, scope: Scope) -> None:
        if scope.setup:
            self.error(s, "'end turn' is used in setup or 'every round', where there is no turn")

    def s_EndGame(self, s: ir.EndGame, scope: Scope) -> None:
        pass

    def s_Log(self, s: ir.Log, scope: Scope) -> None:
        if self.secret_choice is not None:
            self.warn(s, "this line is logged for everyone in an option of a secret choice: "
                         "it tells them what was chosen")
        parts = tuple(ir.log_parts(s.text, s.pos))
        self.log_parts[id(s)] = (s, parts)
        for part in parts:
            if not isinstance(part, str):
                self.expr(part, scope)

    def s_Call(self, s: ir.Call, scope: Scope) -> None:
        if s.rule not in self.rules:
            hint = self.nearest(s.rule, self.rules, self.tables, self.stats)
            if s.rule in self.tables:
                self.error(s, f"'{s.rule}' is a table: write 'roll on {s.rule}'")
            elif s.rule in self.stats:
                self.error(s, f"'{s.rule}' is a stat; a statement here must change it, "
                              f"e.g. '{s.rule} += 1'")
            else:
                self.error(s, f"there is no rule '{s.rule}'{hint}")
        self.rule_args(s, s.rule, s.args, scope)

    def s_Give(self, s: ir.Give, scope: Scope) -> None:
        if scope.gives is None:
            self.error(s, "'give' ends a rule that gives a value (rule NAME gives number { … }); "
                          "this is not in one")
            self.expr(s.value, scope)
        else:
            self.expect(s.value, scope, scope.gives, "what the rule gives")

