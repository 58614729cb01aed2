"""Work the engine does once and reuses (issue 20), each checked against
doing it again: a game's first position handed out as a copy when nothing
random comes before it, and a failed move undone by making the state again
from where it started (``State._rebuild``), not from a copy taken before
every move."""

from __future__ import annotations

import random

import pytest

import rulelang
from rulelang.engine import State
from helpers import EXAMPLES, ROOT, RULESETS, interrupt_after_the_work, random_moves


def _same(a: State, b: State) -> None:
    assert a == b
    assert a.to_json() == b.to_json()
    assert [e.to_dict() for e in a.log] == [e.to_dict() for e in b.log]
    assert [m.label for m in a.legal_moves()] == [m.label for m in b.legal_moves()]


@pytest.mark.parametrize("path", RULESETS + EXAMPLES, ids=lambda p: p.name)
def test_a_first_position_reused_is_the_one_made_afresh(path):
    """Every game, each player count, both kinds of chance, log on and off:
    the second ``new_game`` (a copy of the first position when nothing
    random came before it; else, in sample mode, a copy of the position at
    the first chance, played on from there) equals a game made with nothing
    kept, for another seed, and plays the same moves to the same state."""
    game = rulelang.load(path)
    for players in range(game.min_players, game.max_players + 1):
        for chance in ("sample", "explicit"):
            for log in (True, False):
                game.new_game(players=players, seed=1, chance=chance, log=log)
                reused = game.new_game(players=players, seed=7, chance=chance, log=log)
                kept = len(game._first_positions) + len(game._before_chance)
                game._first_positions.clear()
                game._before_chance.clear()
                game.keeps_first_positions = False
                afresh = game.new_game(players=players, seed=7, chance=chance, log=log)
                game.keeps_first_positions = True
                assert kept <= 1
                _same(reused, afresh)
                assert reused.seed == afresh.seed == 7
                random_moves(reused, random.Random(5), 30)
                random_moves(afresh, random.Random(5), 30)
                _same(reused, afresh)


ROLLING = '''
game "Roll first"
players 2
per player { pips 0 }
turn { phase p { pips = roll d6
                 choose one "Go" { "on": pips += 1  "stop": end game "stopped" } } }
score { pips }
'''


def test_a_first_position_is_kept_only_when_nothing_random_came_before():
    """Nim starts with a decision (kept); a game that rolls before its
    first decision is not (its seed decides the position)."""
    nim = rulelang.load(next(p for p in EXAMPLES if p.name == "nim.rules"))
    nim.new_game(seed=3)
    assert len(nim._first_positions) == 1
    rolling = rulelang.loads(ROLLING, "roll.rules")
    firsts = {rolling.new_game(seed=s).stat("pips", 0) for s in range(20)}
    assert len(firsts) > 1
    assert not rolling._first_positions
    assert len(rolling._before_chance) == 1       # (the position before its first roll)
    fresh = rulelang.loads(ROLLING, "roll.rules")
    fresh.keeps_first_positions = False
    assert [rolling.new_game(seed=s) for s in range(20)] == [fresh.new_game(seed=s) for s in range(20)]


@pytest.mark.parametrize("name", ["pig.rules", "kuhn_poker.rules", "goofspiel.rules",
                                  "liars_dice.rules"])
def test_games_with_chance_first_start_from_the_position_before_it(name):
    """Games that roll or deal before their first decision keep the
    position at that chance (seed-free, found in explicit mode), and every
    seed's game made from it is the game made afresh."""
    path = next(p for p in EXAMPLES if p.name == name)
    game, fresh = rulelang.load(path), rulelang.load(path)
    fresh.keeps_first_positions = False
    made = [game.new_game(seed=s, log=False) for s in range(30)]
    assert len(game._before_chance) == 1 and not game._first_positions
    assert made == [fresh.new_game(seed=s, log=False) for s in range(30)]
    assert len({m.to_json() for m in made}) > 1


def test_options_lists_and_limits_each_keep_their_own_first_position():
    """The kept positions are told apart by every argument of ``new_game``
    but the seed: two option values give two positions, each right."""
    game = rulelang.loads('''
game "Opts"
players 2
option pace "Pace" { "slow": speed = 1
                     "fast": speed = 2 }
per player { speed 0 }
setup { for each player { choose pace } }
turn { phase p { choose one "Go" { "step": speed += 1 } } }
end "done" when round > 2
score { speed }
''', "opts.rules")
    slow = game.new_game(seed=1, options={"pace": "slow"})
    fast = game.new_game(seed=2, options={"pace": "fast"})
    again = game.new_game(seed=3, options={"pace": "slow"})
    per_seat = game.new_game(seed=4, options={"pace": ["fast", "slow"]})
    assert slow.stat("speed", 0) == again.stat("speed", 0) == 1
    assert fast.stat("speed", 0) == 2
    assert [per_seat.stat("speed", p) for p in range(2)] == [2, 1]
    tight = game.new_game(seed=5, options={"pace": "slow"},
                          limits=rulelang.Limits(max_steps=50_000))
    assert tight.limits.max_steps == 50_000
    assert game.new_game(seed=6, options={"pace": "slow"}).limits == game.limits


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.name)
def test_a_failed_move_after_a_reused_first_position_is_undone(path, monkeypatch):
    """A move that fails (here: an interrupt after all its work) in a game
    whose first position was a copy, or was restored from a save, or was
    changed by hand, leaves the state as it was: rebuilt from where it
    started."""
    game = rulelang.load(path)
    game.new_game(seed=1)
    states = {"new": game.new_game(seed=11)}
    random_moves(states["new"], random.Random(2), 25)
    states["restored"] = game.restore(states["new"].to_json())
    states["cloned"] = states["new"].clone()
    random_moves(states["cloned"], random.Random(3), 5)
    for state in states.values():
        if state.is_over:
            continue
        before = state.clone()
        move = state.legal_moves()[0]
        interrupt_after_the_work(monkeypatch, [])
        with pytest.raises(KeyboardInterrupt):
            state.apply(move)
        monkeypatch.undo()
        _same(state, before)
        state.apply(move)
        before.apply(move)
        _same(state, before)


def test_every_change_from_outside_the_rules_goes_through_changed():
    """Code outside the engine that changes a state (the testing twins, a
    player that deals hidden cards again, a tool) clears what was
    worked out for it, and where it would rebuild from, with one call:
    ``State._changed``.  Clearing only the moves (as code once did) would
    leave a failed move to rebuild the state as it was before the change."""
    from helpers import ROOT
    import re
    setting = re.compile(r"\.(_moves|offer|_base)\s*=(?!=)")
    found = []
    engine = ROOT / "rulelang" / "engine"      # (where the rules run: they set them)
    for path in sorted((ROOT / "rulelang").rglob("*.py")):
        if engine in path.parents:
            continue
        for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if setting.search(line):
                found.append(f"{path.relative_to(ROOT)}:{no}: {line.strip()}")
    assert found == []


NUMBERS = '''game "Ranges"
players 2..6
per player { picked 0 }
global { top 40 }
turn {
    phase p {
        choose a number from 1 to top as n "How many"
        picked = n
        top -= 1
        if top < 2 { end game "done" }
    }
}
'''


def test_kept_move_lists_are_bounded_by_their_moves_not_only_their_number(monkeypatch):
    """An op keeps the move lists it made (``Op.keep``) and starts again
    past ``MOST_KEPT`` lists or ``MOST_KEPT_MOVES`` moves: many short
    lists are all kept (a number chosen from ranges that vary: no list made
    twice while they fit), long ones never hold more moves than the bound,
    and the moves handed out are the same either way."""
    from rulelang.engine.ops import base

    game = rulelang.loads(NUMBERS)
    op = next(op for code in game.prog.codes for op in code if type(op).__name__ == "ChooseNumberOp")

    def play(seed):
        st = game.new_game(players=6, seed=seed)
        labels = []
        while not st.is_over:
            moves = st.legal_moves()
            labels.append([m.label for m in moves])
            st.apply(moves[-1])
        return labels

    first = play(1)
    assert len(op.kept) == 39 and op.kept_moves == sum(range(2, 41))   # every range, every seat: kept
    kept = dict(op.kept)
    assert play(2) == first and all(op.kept[k] is kept[k] for k in kept)     # none made again
    monkeypatch.setattr(base, "MOST_KEPT_MOVES", 100)
    op.kept.clear()
    op.kept_moves = 0
    assert play(3) == first                          # made again past the bound, the same moves
    assert 0 < op.kept_moves <= 100 and sum(len(v[0]) for v in op.kept.values()) == op.kept_moves


@pytest.mark.parametrize("name", ["tic_tac_toe", "goofspiel", "hare_and_hounds"])
def test_a_choice_among_things_lists_its_moves_as_it_waits_and_playouts_list_none(name, monkeypatch):
    """``choose one`` among things (cells, pieces, cards of a hand) puts its
    moves in place as the rules reach it (kept, or ``ChooseOneOfOp.offered``),
    so ``State._legal`` never asks it for them (``move_list``; a hand of
    cards looks up the moves of each place first, ``ones``): the moves
    found there are the ones made afresh, in both chance modes.
    ``Game.playouts``, which picks among the values, looks up no moves
    past each game's first decision."""
    from rulelang.engine.ops.choices import ChooseOneOfOp
    from rulelang.engine.moves import Move

    game = rulelang.load(ROOT / "examples" / f"{name}.rules")
    asked = []
    monkeypatch.setattr(ChooseOneOfOp, "move_list", lambda *a: asked.append(a))
    waits = 0
    for chance in ("sample", "explicit"):
        for seed in range(6):
            st = game.new_game(seed=seed, chance=chance, log=False)
            rng = random.Random(seed)
            while not st.is_over:
                fr = st.stack[-1]
                op = game.prog.codes[fr[0]][fr[1]]
                if isinstance(op, ChooseOneOfOp):
                    waits += 1
                    assert st._moves is not None and st._moves[2] is op
                    assert st._moves[0] == Move._list(op.moves(st, fr), st.actor)
                st.apply(rng.choice(st.legal_moves()))
    assert waits > 50 and not asked

    class Counting(dict):
        looked = 0

        def get(self, key, default=None):
            Counting.looked += 1
            return super().get(key, default)

    ops = [op for code in game.prog.codes for op in code if isinstance(op, ChooseOneOfOp)]
    for op in ops:      # (moves are looked up kept whole, or place by place)
        op.kept, op.ones = Counting(op.kept), Counting(op.ones)
    game.playouts(40, seed=100)
    assert Counting.looked <= 40             # (at most each new game's first decision)
    looked = Counting.looked
    st = game.new_game(seed=100, log=False)
    while not st.is_over:                    # (through the API, the moves are looked up)
        st.apply(st.legal_moves()[-1])
    assert Counting.looked > looked + 2
