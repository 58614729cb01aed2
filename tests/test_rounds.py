"""Rounds that go round the table until a condition holds (``turn … until``),
what runs as each round begins (``every round``), and ``player after``: the
shape of a worker-placement round (everyone acts in turn until all have
passed, then the start marker moves on)."""

from __future__ import annotations

import random

import pytest

import rulelang
from rulelang.errors import RulesetRuntimeError

ROUNDS = """
game "Rounds"
players 2..4
per player { out no  tokens 0  actions 0  took 0 }
global { wave none  began 0 }
turn order clockwise from wave when not out until no players where not out {
    every round {
        if wave is none: wave = roll off d6
        else: wave = player after wave
        began += 1
        for each player {
            out = no
            tokens += 2
            choose one "Bonus" {
                "Token": tokens += 1
                "None":
            }
        }
    }
    phase act {
        took += 1
        if tokens is 0 { out = yes }
        else {
            choose one "Act" {
                "Work": tokens -= 1; actions += 1
                "Pass": out = yes
            }
        }
    }
}
end "three rounds" when round > 3
score { actions }
"""


def _play(st, rng, until=None):
    while not st.is_over and (until is None or not until(st)):
        st.apply(rng.choice(st.legal_moves()))
    return st


def _turns(st):
    """(round, seat) of every turn in the log."""
    return [(e.round, e.player) for e in st.log if e.kind == "turn"]


def test_a_round_lasts_until_everyone_is_out_and_starts_after_the_marker():
    game = rulelang.loads(ROUNDS)
    for seed in range(20):
        st = _play(game.new_game(players=3, seed=seed), random.Random(seed))
        turns = _turns(st)
        firsts = {}
        for rnd, seat in turns:
            firsts.setdefault(rnd, seat)
        assert sorted(firsts) == [1, 2, 3]
        # the marker moves one seat clockwise each round
        assert firsts[2] == (firsts[1] + 1) % 3 and firsts[3] == (firsts[2] + 1) % 3
        # every round holds at least as many turns as players (each must pass)
        for rnd in (1, 2, 3):
            assert sum(1 for r, _ in turns if r == rnd) >= 3
        assert st.stat("began") == 3
        assert st.over == "three rounds"


def test_turns_in_a_round_go_clockwise_and_skip_those_out():
    """Every round opens with one turn per seat, clockwise from the marker
    (nobody is out yet), and a seat that is out takes no more turns in it."""
    game = rulelang.loads(ROUNDS)
    for seed in range(5):
        st = _play(game.new_game(players=4, seed=seed), random.Random(seed))
        turns = _turns(st)
        outs = set()       # (round, seat) that chose to pass
        for rnd in (1, 2, 3):
            seats = [p for r, p in turns if r == rnd]
            first = seats[0]
            assert seats[:4] == [(first + k) % 4 for k in range(4)]
        # a seat that chose "Pass" is not seen again in that round
        current = None
        for e in st.log:
            if e.kind == "turn":
                current = (e.round, e.player)
                assert current not in outs
            elif e.kind == "choose" and e.text == "Act: Pass":
                outs.add(current)


def test_every_round_decides_and_saves_restore_inside_it():
    """A decision made as a round begins: each player in turn order from the
    marker, and a save taken while it waits restores to the same moves."""
    game = rulelang.loads(ROUNDS)
    st = game.new_game(players=2, seed=5)
    assert [m.label for m in st.legal_moves()] == ["Token", "None"]
    first = st.actor
    assert first == st.stat("wave")
    st.apply(st.legal_moves()[0])
    assert st.actor == (first + 1) % 2
    back = game.restore(st.to_json())
    assert back.legal_moves() == st.legal_moves() and back.actor == st.actor
    rng1, rng2 = random.Random(2), random.Random(2)
    a, b = _play(st, rng1), _play(back, rng2)
    assert a.result() == b.result()


def test_explicit_chance_as_a_round_begins():
    game = rulelang.loads(ROUNDS)
    st = game.new_game(players=3, seed=1, chance="explicit")
    assert st.is_chance_node
    _play(st, random.Random(4))
    assert st.over == "three rounds"


def test_an_until_that_always_holds_is_a_reported_stop():
    src = ROUNDS.replace("until no players where not out", "until yes").replace(
        'end "three rounds" when round > 3', "")
    src = src.replace('choose one "Bonus" {\n                "Token": tokens += 1\n                "None":\n            }', "")
    st_game = rulelang.loads(src)
    with pytest.raises(RulesetRuntimeError, match="until"):
        _play(st_game.new_game(players=2, seed=1), random.Random(1))


def test_player_after_wraps_and_is_checked():
    ok = rulelang.loads("""
game "After"
players 3
global { p none  q none }
setup { p = player after this_one(); q = player after p }
rule this_one gives player { give roll off d6 }
""")
    st = ok.new_game(seed=2)
    assert st.stat("p") is not None and st.stat("q") == (st.stat("p") + 1) % 3
    with pytest.raises(rulelang.RulesetCheckError, match="player after"):
        rulelang.loads('game "X"\nglobal { p none }\nsetup { p = player after 3 }\n')
    with pytest.raises(rulelang.RulesetCheckError, match="every round"):
        rulelang.loads('game "X"\nturn { every round { end turn } phase a { } }\n')


def test_as_a_round_begins_there_is_no_turn_player_and_a_save_saying_otherwise_is_refused():
    """In 'every round' no turn is being played: turn_player is null, and a
    save that names a seat there (any seat) is refused."""
    import json
    game = rulelang.loads(ROUNDS)
    st = game.new_game(players=3, seed=2)
    rng = random.Random(3)
    _play(st, rng, until=lambda s: s.round == 2 and any(m.label == "Token" for m in s.legal_moves()))
    assert st.turn_player is None
    doc = json.loads(st.to_json())
    for seat in range(3):
        doc["turn_player"] = seat
        with pytest.raises(rulelang.SaveError, match="turn_player"):
            game.restore(json.dumps(doc))
