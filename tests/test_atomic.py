"""Atomic apply: whatever goes wrong inside ``State.apply`` (a rule that
hits a limit, a rule that cannot be carried out, an interrupt), the state
is afterwards exactly as it was before the call, and it plays on.  And a
``Move`` is checked by value: one that does not match a legal move is
refused."""

from __future__ import annotations

import copy

import pytest

import rulelang
from rulelang import IllegalMoveError, Limits, Move, RulesetRuntimeError
from rulelang.engine import State
from helpers import ROOT, interrupt_after_the_work

FAULTS = '''
game "Faults"
players 2..2
per player { x 1 min 0   pool_size 500 }
deck d { A  B  C }
pile hand per player
pile spare
turn { phase p {
    draw 1 from d to hand
    choose one "Do" {
        "loop":     x += 5; while yes { x += 1 }
        "overflow": x += 5; while yes { x = x * x + 2 }
        "missing":  draw 1 from d to hand; move card C from spare to hand
        "deep":     x += 5; again
        "dice":     x += 5; let p = roll pool_size dice d6
        "choices":  x += 5; draw 2 from d to hand; choose up to 3 cards from hand as k "keep"
        "fine":     x += 1
    }
} }
rule again { x += 1; again }
end "done" when round > 5
'''

GAME = rulelang.loads(FAULTS, "faults.rules", limits=Limits(max_choices=2))
KINDS = ["loop", "overflow", "missing", "deep", "dice"]


def fresh(chance="sample"):
    state = GAME.new_game(seed=4, chance=chance)
    while state.is_chance_node:
        state.apply(state.legal_moves()[0])
    return state


def same(a: State, b: State):
    assert a == b
    assert a.to_json() == b.to_json()
    assert [e.to_dict() for e in a.log] == [e.to_dict() for e in b.log]
    assert [m.label for m in a.legal_moves()] == [m.label for m in b.legal_moves()]


@pytest.mark.parametrize("chance", ["sample", "explicit"])
@pytest.mark.parametrize("kind", KINDS)
def test_a_fault_inside_apply_changes_nothing(kind, chance):
    """Each kind of runtime fault, after the rule has already changed
    values, drawn cards and logged: the state equals its copy from before
    the call, saves to the same JSON, has the same log, and plays on."""
    state = fresh(chance)
    start = state.clone()
    before = state.clone()
    with pytest.raises(RulesetRuntimeError):
        state.apply(kind)
        while state.is_chance_node:         # explicit mode: the fault comes after a draw
            before = state.clone()
            state.apply(state.legal_moves()[0])
    same(state, before)
    if before == start:
        state.apply("fine")
        assert state.stat("x", 0) == before.stat("x", 0) + 1


def test_a_fault_in_a_choice_list_changes_nothing():
    """A decision that would offer more than Limits.max_choices moves is a
    fault of the rule that asks it: apply fails, and nothing changed."""
    state = fresh()
    before = state.clone()
    with pytest.raises(RulesetRuntimeError, match="max_choices"):
        state.apply("choices")
    same(state, before)


def test_an_interrupt_inside_apply_changes_nothing(monkeypatch):
    """Even an exception that is not an error (KeyboardInterrupt, arriving
    once, as Ctrl-C does) leaves the state as it was, after changes made
    before it; and again after moves, a clone and a change from outside
    (each a different place ``apply`` rebuilds from)."""
    state = fresh()
    real = State._run
    for step in range(4):
        before = state.clone()
        fired = []

        def interrupted(self, *steps, fired=fired):
            if fired:
                return real(self, *steps)
            fired.append(1)
            self.v[0] += 99          # a change made before the interrupt
            self.log_tail = ("junk", self.log_tail)
            raise KeyboardInterrupt
        monkeypatch.setattr(State, "_run", interrupted)
        with pytest.raises(KeyboardInterrupt):
            state.apply("fine")
        monkeypatch.setattr(State, "_run", real)
        same(state, before)
        state.apply("fine")
        while state.is_chance_node:
            state.apply(state.legal_moves()[0])
        if step == 1:
            state = state.clone()
        if step == 2:
            state.set_stat("x", 3, 0)


#: The values a move changes in place (the others it replaces).
MUTABLE = ("v", "g", "piles", "stack", "offer")


def test_a_failure_rebuilds_every_value_a_move_changes(monkeypatch):
    """A failed ``apply`` makes the state again from where it last started
    (``State._base``) by the moves made since: after a failure that comes
    when the move has done all it does, every value a move may change
    (``State._CHANGING``) is equal to what it was, and every other value
    is the same object as before, in games of both kinds of chance."""
    fixed = [n for n in State.__slots__
             if n not in State._CHANGING and n not in ("chance_record", "_base")]
    assert set(State._CHANGING) <= set(State.__slots__)
    fired = []
    interrupt_after_the_work(monkeypatch, fired)
    for path in (ROOT / "rulesets" / "northpole.rules", ROOT / "rulesets" / "endurance.rules"):
        game = rulelang.load(path)
        for chance in ("sample", "explicit"):
            fired.append(1)
            state = game.new_game(seed=3, chance=chance)
            before = {n: getattr(state, n) for n in fixed}
            for step in range(60):
                if state.is_over:
                    break
                held = {n: copy.deepcopy(getattr(state, n)) if n in MUTABLE else getattr(state, n)
                        for n in State._CHANGING}
                twin = state.clone()
                move = state.legal_moves()[step % len(state.legal_moves())]
                fired.clear()
                with pytest.raises(KeyboardInterrupt):
                    state.apply(move)
                assert fired
                for name in State._CHANGING:
                    assert getattr(state, name) == held[name], name
                same(state, twin)
                state.apply(move)
            assert all(getattr(state, n) is before[n] for n in fixed), \
                [n for n in fixed if getattr(state, n) is not before[n]]


def test_a_recorded_chance_is_taken_back_with_the_state():
    state = fresh()
    state.chance_record = []
    with pytest.raises(RulesetRuntimeError):
        state.apply("missing")          # draws a card (recorded), then fails
    assert state.chance_record == []


def test_an_edited_or_forged_move_is_refused():
    """A Move cannot be changed after legal_moves() gives it, and one made
    by hand whose value differs from the legal move of its label is refused
    with IllegalMoveError, the state unchanged."""
    state = fresh()
    before = state.clone()
    legal = state.legal_moves()
    with pytest.raises(AttributeError):
        legal[0].value = 5
    with pytest.raises(AttributeError):
        del legal[0].label
    forged = Move(legal[0].label, legal[0].player, legal[0].probability, value=10_000)
    with pytest.raises(IllegalMoveError, match="does not match"):
        state.apply(forged)
    other_seat = Move(legal[0].label, 1 - legal[0].player, legal[0].probability, legal[0].value)
    with pytest.raises(IllegalMoveError, match="does not match"):
        state.apply(other_seat)
    same(state, before)
    # A copy made by hand with the same fields is the same move.
    state.apply(Move(legal[-1].label, legal[-1].player, legal[-1].probability, legal[-1].value))
    assert state != before


def test_anything_but_a_move_or_its_label_is_refused():
    """``apply`` finds a listed move by its place, and anything else, a
    label or not, by value: a number, none, a list, a tuple shaped like a
    move, a mapping, bytes or a string that names no move are each refused
    with IllegalMoveError, the state unchanged; the label itself is taken."""
    state = fresh()
    before = state.clone()
    legal = state.legal_moves()
    shaped = tuple(legal[0])
    for thing in (5, None, [legal[0]], shaped, {4: legal[0]}, {0: legal[0]}, b"Roll",
                  "", "Go", "no such move at all", legal[0].label + " "):
        with pytest.raises(IllegalMoveError):
            state.apply(thing)
        same(state, before)
    state.apply(legal[-1].label)
    assert state != before


def test_chance_moves_are_checked_by_value_too():
    state = GAME.new_game(seed=4, chance="explicit")
    assert state.is_chance_node
    move = state.legal_moves()[0]
    forged = Move(move.label, None, move.probability + 0 if move.probability is None
                  else move.probability / 2, move.value)
    with pytest.raises(IllegalMoveError):
        state.apply(forged)
    state.apply(move)


def test_the_harness_checks_atomicity_at_every_step(monkeypatch):
    """check_ruleset makes each move once more in a copy with limits so
    tight that the apply fails, and checks the copy is unchanged: with the
    roll-back switched off, it reports 'atomic'."""
    from rulelang.testing import check_ruleset
    game = rulelang.load(ROOT / "rulesets" / "northpole.rules")
    assert check_ruleset(game, games=2, seed=0, fresh_games=0).ok
    monkeypatch.setattr(State, "_rebuild", lambda self: None)
    report = check_ruleset(game, games=2, seed=0, fresh_games=0)
    assert not report.ok and {f.check for f in report.failures} == {"atomic"}
