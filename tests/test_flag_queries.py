"""Queries whose 'where' has a yes/no state field of the piece (``up``)
pick those pieces out in C, over one slice of the state, and
ask the rest only of them (``queries.PieceQueries.flag_column``); a
``pick … at random`` in sample mode is written into the generated code
(``PickPieceOp.emit``).  Each must give what the plain scan and the op
give: these tests play at random and compare with the answer worked out
here from the pieces themselves (issue 20)."""

from __future__ import annotations

import random
import re

import pytest

import rulelang
from rulelang.engine import codegen
from rulelang.errors import RulesetRuntimeError
from rulelang.testing import op_by_op

FLAGS = '''game "Flags"
players 2
pieces tokens {
    state { up no  owner none }
    "Red {n}" for n from 1 to 4: kind red
    "Blue {n}" for n from 1 to 4: kind blue
}
per player { ups 0  mine_up 0  reds_up 0  any_mine 0  some_up no  all_down no }
turn {
    phase flip {
        choose one tokens as t where owner is none and not up "Flip"
        t.up = yes
        pick one tokens at random as k where up and owner is none
        if k is not none: k.owner = this player
        ups = count tokens where up
        mine_up = count tokens where owner is this player and up
        reds_up = count tokens where kind is red and up
        any_mine = if any of tokens where up and owner is this player then 1 else 0
        some_up = any of tokens where up
        all_down = none of tokens where up
        if none of tokens where owner is none and not up { end game "done" }
    }
}
score { ups }
'''


def _tokens(st):
    return [dict(st.piece("tokens", n), name=n) for n in st.prog.piece_names["tokens"]]


@pytest.mark.parametrize("seed", range(6))
def test_flag_queries_give_the_plain_answer(seed):
    """Every query, after every move of a random game, against the pieces."""
    st = rulelang.loads(FLAGS).new_game(seed=seed)
    rng = random.Random(seed)
    moves = 0
    while not st.is_over:
        offered = sorted(m.label.split(": ")[-1] for m in st.legal_moves())
        assert offered == sorted(t["name"] for t in _tokens(st)
                                 if t["owner"] is None and not t["up"])
        p = st.current_player
        st.apply(rng.choice(st.legal_moves()))
        moves += 1
        tokens = _tokens(st)
        assert st.stat("ups", p) == sum(1 for t in tokens if t["up"])
        assert st.stat("mine_up", p) == sum(1 for t in tokens if t["owner"] == p and t["up"])
        assert st.stat("reds_up", p) == sum(1 for t in tokens if t["kind"] == "red" and t["up"])
        assert st.stat("any_mine", p) == int(any(t["owner"] == p and t["up"] for t in tokens))
        assert st.stat("some_up", p) == any(t["up"] for t in tokens)
        assert st.stat("all_down", p) == (not any(t["up"] for t in tokens))
    assert moves >= 4


def test_the_flag_is_read_in_one_slice_and_the_rest_asked_of_those_it_keeps():
    """The generated turn: 'up' is picked out with compress over the
    field's values (a slice; for the four red ones, their four places at
    once); 'not up', yes for most tokens, is asked of each as before; a
    count or 'any of' with nothing more to ask runs in C alone."""
    prog = rulelang.loads(FLAGS).prog
    src = codegen.source_of(prog, prog.code_names.index("the turn"))
    # (the draw at random among the tokens up is one of them)
    assert len(re.findall(r"_compress\(range\(8\), st\.g\[\d+:\d+:2\]\)", src)) == 6
    assert re.search(r"_compress\(C\[\d+\], C\[\d+\]\(st\.g\)\)", src), "the red ones"
    assert len(re.findall(r"in range\(8\) if", src)) == 2, "the two asking 'not up'"
    # (a count or 'any of' with nothing more to ask: in C alone)
    assert "len([*_compress(range(8), st.g[0:15:2])])" in src
    assert src.count("(next(iter(_compress(range(8), st.g[0:15:2])), None) is not None)") == 2


@pytest.mark.parametrize("chance", ["sample", "explicit"])
def test_generated_picks_and_flags_play_as_the_ops(chance):
    """Move for move, the generated code and the ops one at a time: the
    same legal moves, states and logs (the pieces drawn at random too)."""
    game = rulelang.loads(FLAGS)
    reference = op_by_op(game)
    for seed in range(6):
        a = game.new_game(seed=seed, chance=chance)
        b = reference.new_game(seed=seed, chance=chance)
        rng = random.Random(seed)
        while not a.is_over:
            assert [m.label for m in a.legal_moves()] == [m.label for m in b.legal_moves()]
            i = rng.randrange(len(a.legal_moves()))
            a.apply(a.legal_moves()[i])
            b.apply(b.legal_moves()[i])
            assert a.to_json() == b.to_json()
        assert b.is_over
        assert [e.text for e in a.log] == [e.text for e in b.log]
    assert any("at random" in e.text for e in a.log)


FAULT = '''game "Fault"
players 2
pieces tokens {
    state { up no  owner none }
    "A": kind red
    "B": kind red
}
per player { n 0 }
turn {
    phase flip {
        choose one tokens as t where not up "Flip"
        t.up = yes
        t.owner = this player
        n = count tokens where (seat of owner) is 0 and up
    }
}
score { n }
'''


def test_a_part_that_may_fail_before_the_flag_is_still_asked_of_every_piece():
    """'seat of owner' fails on a token nobody owns; asked before 'up', the
    plain scan meets the one still down and fails: the flag must not be
    read first (which would leave that token out and hide the fault)."""
    game = rulelang.loads(FAULT)
    src = codegen.source_of(game.prog, game.prog.code_names.index("the turn"))
    assert "_compress(range(2), st.g" not in src
    st = game.new_game(seed=1)
    with pytest.raises(RulesetRuntimeError, match="seat of"):
        st.apply(st.legal_moves()[0])


LOOPS = '''game "Loops"
players 1
board cells grid 5 wide 1 high { state { up no } }
per player { lit 0  cleared 0 }
turn {
    phase go {
        choose one cells as c where not up "Light"
        c.up = yes
        for each cells as z where not up {
            lit += 1
            let east = neighbour east of z
            if east is not none: east.up = yes
        }
        for each cells as z where up { z.up = no; cleared += 1 }
        end game "done"
    }
}
score { lit }
'''


def _lit_by_hand(first):
    """The plain loop, west to east: each cell still down counts and
    lights the one east of it (which the loop then passes over)."""
    up = [i == first for i in range(5)]
    lit = 0
    for i in range(5):
        if not up[i]:
            lit += 1
            if i + 1 < 5:
                up[i + 1] = True
    return lit, sum(up)


@pytest.mark.parametrize("first", range(5))
def test_a_loop_reads_the_flag_once_only_when_its_body_sets_none_but_its_own(first):
    """'for each cells as z where up { z.up = no … }' changes only the
    cell it is at: its cells are picked out as it starts.  The loop whose
    body lights the next cell changes what a later pass must see: it asks
    each cell as it comes to it, and counts what the plain loop counts."""
    game = rulelang.loads(LOOPS)
    src = codegen.source_of(game.prog, game.prog.code_names.index("the turn"))
    assert len(re.findall(r"in _compress\(range\(5\), st\.g\[\d+:\d+(:\d+)?\]\):", src)) == 1
    st = game.new_game(seed=first)
    st.apply(st.legal_moves()[first])
    assert st.is_over
    lit, up = _lit_by_hand(first)
    assert st.stat("lit", 0) == lit
    assert st.stat("cleared", 0) == up
    assert not any(st.piece("cells", n)["up"] for n in st.prog.piece_names["cells"])


EITHER = '''game "Either"
players 2
pieces tokens {
    state { up no  owner none }
    "Red {n}" for n from 1 to 3: kind red, bonus none
    "Blue {n}" for n from 1 to 3: kind blue, bonus none
    "Gold": kind gold, bonus 2
}
per player { either 0 }
turn {
    phase take {
        choose one tokens as t where owner is none "Take"
        t.owner = this player
        choose one "Face" {
            "up": t.up = yes
            "down": t.up = no
        }
        either = count tokens where owner is this player and ((kind is red and not up) or bonus is not none)
        if none of tokens where owner is none { end game "done" }
    }
}
score { either }
'''


@pytest.mark.parametrize("seed", range(4))
def test_a_part_mixing_printed_and_state_fields_leaves_out_the_pieces_it_is_surely_no_for(seed):
    """'(kind is red and not up) or bonus is not none' is no for every blue
    token whatever its state: the count looks only at the red ones and
    the gold one (a constant tuple), asks the rest of each, and gives the
    answer counted here from the tokens."""
    game = rulelang.loads(EITHER)
    prog = game.prog
    src = codegen.source_of(prog, prog.code_names.index("the turn"))
    among = [prog.gen_consts[int(k)] for k in re.findall(r"sum\(\[1 for _t\d+ in C\[(\d+)\] if", src)]
    assert [[prog.piece_names["tokens"][i] for i in t] for t in among] == \
        [["Red 1", "Red 2", "Red 3", "Gold"]]
    st = game.new_game(seed=seed)
    rng = random.Random(seed)
    counted = 0
    while not st.is_over:
        p = st.current_player
        move = rng.choice(st.legal_moves())
        st.apply(move)
        if move.label not in ("up", "down"):
            continue        # (counted once the turn's second choice is made)
        counted += 1
        tokens = _tokens(st)
        assert st.stat("either", p) == sum(
            1 for t in tokens if t["owner"] == p
            and ((t["kind"] == "red" and not t["up"]) or t["bonus"] is not None))
    assert counted == 7


SEATS = '''game "Seats"
players 2
global { leader none }
pieces tokens {
    state { up no  owner none }
    "A {n}" for n from 1 to 2: colour 1
    "B {n}" for n from 1 to 2: colour 2
}
per player { mine 0  safe 0  fails 0 }
turn {
    phase take {
        choose one tokens as t where owner is none "Take"
        for each tokens as k where colour is (seat of this player) + 1 { k.owner = this player; mine += 1 }
        safe = count tokens where up and colour is (seat of leader) + 1
        if fails is 1: fails = count tokens where colour is seat of leader
        if none of tokens where owner is none { end game "done" }
    }
}
score { mine }
'''


def test_a_printed_field_is_looked_up_by_a_value_that_may_fail_only_where_the_scan_asks_it():
    """'colour is (seat of this player) + 1', the only part: the scan asks
    it of the first token, so the loop looks its tokens up in a table.
    'up and colour is (seat of leader) + 1' (nobody leads): no token is up,
    the scan never asks 'seat of leader', and neither does the count; the
    same part alone ('colour is seat of leader') is looked up, and fails
    as the scan would."""
    game = rulelang.loads(SEATS)
    src = codegen.source_of(game.prog, game.prog.code_names.index("the turn"))
    assert re.search(r"for fr\[\d+\] in C\[\d+\]\.get\(\(_t\d+ if .*_seat\(fr\[2\]\)", src)
    assert len(re.findall(r"C\[\d+\]\.get\(_seat\(st\.g\[\d+\]\), \(\)\)", src)) == 1
    st = game.new_game(seed=0)
    st.apply(st.legal_moves()[0])
    assert st.stat("mine", 0) == 2 and st.stat("safe", 0) == 0
    assert [st.piece("tokens", n)["owner"] for n in st.prog.piece_names["tokens"]] == [0, 0, None, None]
    st.set_stat("fails", 1, 1)
    with pytest.raises(RulesetRuntimeError, match="seat of"):
        st.apply(st.legal_moves()[0])
