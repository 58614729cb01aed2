"""Scales: data printed beside the values of a number stat (``porters 8 min
0 max 10 { 0..2: capacity 0 … }``), read as ``capacity of porters``.  What
each row gives, another player's, a global's, an actor's and a piece
value's; a 'whenever' on the stat's change; the checker's messages; the
IR's data forms; the generated code against the ops."""

from __future__ import annotations

import re

import json
import random

import jsonschema
import pytest

import rulelang
from rulelang import RulesetCheckError
from rulelang.check import check
from rulelang.ir import schema, serialize
from rulelang.syntax import parse
from helpers import ROOT, game, line_of, play, play_both_ways

SCALES = ROOT / "tests" / "conformance" / "scales.rules"

SHEET = """
const top = 5
per player {
    porters 8 min 0 max 10 {
        0..2:  capacity 0
        3..4:  capacity 10
        5..6:  capacity 20
        7:     capacity 30
        8:     capacity 40
        9..10: capacity 50
    }
    health 5 min 0 max top {
        0:    penalty 0, mood dead
        1:    penalty 3, mood weak
        2:    penalty 2, mood weak
        3:    penalty 1, mood tired
        4..5: penalty 0, mood well
    }
    alive yes
}
global { storm 0 min 0 max 3 { 0..1: wind 0   2..3: wind 2 }  leader none }
"""

CAPACITY = {0: 0, 1: 0, 2: 0, 3: 10, 4: 10, 5: 20, 6: 20, 7: 30, 8: 40, 9: 50, 10: 50}


def test_each_value_reads_its_row():
    """`capacity of porters` is the row of the value porters holds now, for
    every value from min to max; words read as words."""
    g = game(SHEET + "score { capacity of porters + 100 * penalty of health }\n"
                     "turn { phase p { } }\nend \"e\" when round > 1\n")
    st = g.new_game(players=2, seed=0)
    for v, want in CAPACITY.items():
        st.set_stat("porters", v, player=1)
        st.set_stat("health", 3, player=1)
        assert st.result().scores[1] == want + 100
        assert st.view(0)["players"][1]["scales"]["porters"] == {"capacity": want}
    for v, (penalty, mood) in {0: (0, "dead"), 1: (3, "weak"), 2: (2, "weak"), 3: (1, "tired"),
                               4: (0, "well"), 5: (0, "well")}.items():
        st.set_stat("health", v, player=0)
        st.set_stat("porters", 0, player=0)
        assert st.result().scores[0] == 100 * penalty
        assert st.view(1)["players"][0]["scales"]["health"] == {"penalty": penalty, "mood": mood}


def test_a_value_outside_the_rows_reads_none():
    """A value no row has (set from a program past the bounds) reads none,
    and the view shows no row."""
    g = game(SHEET + "score { 1 if capacity of porters is none }\nturn { phase p { } }\n"
                     "end \"e\" when round > 1\n")
    st = g.new_game(players=1, seed=0)
    assert st.result().scores == (0,)
    st.set_stat("porters", 11, player=0)
    assert st.result().scores == (1,)
    assert st.view(0)["players"][0]["scales"]["porters"] is None


def test_another_players_a_globals_and_in_questions():
    """`capacity of rival.porters` (a rule's player), of a global holding a
    player, `wind of storm`, and a scale read in a 'where' about players."""
    g = game(SHEET + """
per player { seen 0  rich 0 }
rule look (rival: player) { seen = capacity of rival.porters + capacity of leader.porters }
setup { for each player { if seat of this player is 1: porters = 5 } }     # capacity 20
turn { phase p {
    leader = player after this player
    look(player after this player)
    rich = count players where capacity of porters >= 40
    storm += 2
} }
end "e" when wind of storm > 0
""", players="2")
    st = g.new_game(players=2, seed=0)
    assert st.is_over and st.result().ending == "e"     # (after P0's turn)
    assert st.stat("seen", player=0) == 40
    assert st.stat("rich", player=0) == 1       # P0 still has 8 porters: 40
    assert st.view(None)["scales"] == {"storm": {"wind": 2}}


def test_whenever_fires_when_the_stat_changes():
    """A 'whenever' reading `capacity of porters` fires on the change of
    `porters` that makes it true (once, not again while it stays true), and
    one reading a word of the scale as the row is reached."""
    g = game(SHEET + """
per player { alerts 0 }
whenever capacity of porters >= 40 { alerts += 1 }
whenever mood of health is dead { alive = no }
turn { phase p {
    choose one "Do" {
        "Hire": porters += 1
        "Fire": porters -= 1
        "Hurt": health -= 1
    }
} }
end "e" when round > 30 or no players where alive
""", players="1")
    st = g.new_game(players=1, seed=0)
    st.apply("Fire")                    # 8 -> 7: capacity 30
    assert st.stat("alerts", player=0) == 0
    st.apply("Hire")                    # 7 -> 8: capacity 40, becomes true
    assert st.stat("alerts", player=0) == 1
    st.apply("Hire")                    # 9: still true, no second alert
    assert st.stat("alerts", player=0) == 1
    play(st, "Fire", "Fire", "Hire")    # 8, 7 (false), 8 (true again)
    assert st.stat("alerts", player=0) == 2
    play(st, "Hurt", "Hurt", "Hurt", "Hurt")
    assert st.stat("alive", player=0) is True and st.stat("health", player=0) == 1
    st.apply("Hurt")
    assert st.is_over and st.stat("alive", player=0) is False


def test_actor_and_piece_values_and_a_wide_scale():
    """An actor's stat, a piece's state value (by its name and in a 'where'),
    a turn stat, and a scale over many values (found by halving, not a
    table of each)."""
    g = game("""
actor dealer { mood 1 min 0 max 2 { 0: face sad  1: face calm  2: face glad } }
pieces ships {
    state { fuel 3 min 0 max 5 { 0: range 0   1..2: range 1   3..5: range 2 } }
    A
    B: fuel 1
}
per turn { steps 2 min 0 max 2 { 0..1: pace slow   2: pace brisk } }
per player { hurried 0 }
whenever pace of steps is slow { hurried -= 1 }
per player { far 0  faces 0  gold 0 min -100000 max 100000 {
    -100000..-1: rank poor   0..49999: rank plain   50000..100000: rank rich } }
turn { phase p {
    for each ships as v { far += range of v.fuel }
    far += 10 * count ships where range of fuel is 2
    if face of dealer.mood is calm: faces += 1
    gold = 50000
    if rank of gold is rich: gold = -1
    if pace of steps is brisk: hurried += 2
    steps -= 1
} }
end "e" when round > 1
score { if rank of gold is poor then 1 else 0 }
""", players="1")
    st = g.new_game(players=1, seed=0)
    assert st.is_over
    assert st.stat("far", player=0) == 2 + 1 + 10
    assert st.stat("faces", player=0) == 1
    assert st.stat("hurried", player=0) == 1      # a turn stat's scale, and a whenever on it
    assert st.result().scores == (1,)
    assert isinstance(g.prog.scale_tables[next(k for k in g.prog.scale_tables if k[1] == "rank")],
                      tuple)


def test_a_hidden_stats_scale_is_seen_as_the_stat():
    """The view shows a scale's row only where the stat itself is shown."""
    g = game("per player { cash 1 min 0 max 2 hidden { 0..1: tier low  2: tier high } }\n"
             "turn { phase p { } }\nend \"e\" when round > 1\n", players="2")
    st = g.new_game(players=2, seed=0)
    assert st.view(0)["players"][0]["scales"] == {"cash": {"tier": "low"}}
    assert "scales" not in st.view(0)["players"][1]


# ---------------------------------------------------------------- the checker

BAD = """game "T"
param most 5 from 3 to 9
per player {
    porters 8 min 0 max 10 {
        0..2:  capacity 0
        2..4:  capacity 10
        7:     capacity 30, guide yes
        8:     capcity 40
        9..11: capacity yes
    }
    p2 2 min 0 max most { 0..9: a 1 }
    w one of fast, slow { 0: c 1 }
    f yes { 0: c 1 }
    n 0 min 0 { 0: c none }
    plain 0
}
rule r { let z = capacity of plain + capacity of porter + capcity of porters }
turn { phase p { r } }
"""


def test_the_checkers_messages_with_their_places():
    found = [(d.line, d.column, d.message) for d in check(parse(BAD, "bad.rules"))]
    assert found == [
        (4, 5, "the scale of 'porters' has no row for 5, 6"),
        (6, 9, "the scale of 'porters' has two rows for 2 (0..2 and 2..4)"),
        (7, 29, "row 7 of the scale of 'porters' gives 'guide', which the other rows do not"),
        (8, 9, "row 8 of the scale of 'porters' gives no 'capacity': every row gives capacity"),
        (8, 16, "row 8 of the scale of 'porters' gives 'capcity', which the other rows do not "
                "— did you mean 'capacity'?"),
        (9, 9, "row 9..11 of the scale of 'porters' is outside its bounds 0..10"),
        (9, 16, "'capacity' is a number on other rows of the scale of 'porters', not a yes/no "
                "value"),
        (11, 20, "the scale of 'p2' needs a fixed max, and 'most' is a parameter: the rows the "
                 "scale needs would change with its value"),
        (12, 5, "'w' holds words: only a stat of numbers has a scale"),
        (13, 5, "'f' holds yes/no values: only a stat of numbers has a scale"),
        (14, 5, "the scale of 'n' needs a min and a max: it has a row for each value between "
                "them"),
        (14, 20, "row 0 of the scale of 'n' prints none for 'c': a scale prints a number, "
                 "yes/no or a word on every row"),
        (17, 18, "'plain' has no scale to read 'capacity' from"),
        (17, 50, "unknown name 'porter' — did you mean 'porters'?"),
    ]


@pytest.mark.parametrize("reads, message", [
    ("capcity of porters", "the scale of 'porters' has no 'capcity' — did you mean 'capacity'?"),
    ("capacity of porter", "'porter' has no scale to read 'capacity' from — did you mean "
                           "'porters'?"),
    ("capacity of (porters + 1)", "'capacity of …' reads a value of a piece or space, not of a "
                                  "number"),
    ("capacity of rival.porters", "unknown player 'rival'"),
])
def test_reading_a_scale_that_is_not_there(reads, message):
    text = ('game "T"\nper player { porter 0  porters 1 min 0 max 1 { 0..1: capacity 2 } }\n'
            f"rule r {{ let x = {reads} }}\nturn {{ phase p {{ r }} }}\n")
    found = [d.message for d in check(parse(text))]
    assert found == [message]


def test_a_scale_reads_as_its_kind():
    """What a scale prints has a kind the checker holds it to."""
    text = ('game "T"\nper player { hp 1 min 0 max 1 { 0..1: mood calm } }\n'
            'rule r { let x = mood of hp + 1 }\nturn { phase p { r } }\n')
    assert [(d.line, d.message) for d in check(parse(text))] == \
        [(3, "'+' needs numbers, not a word")]


def test_words_of_a_scale_are_words_of_the_language():
    """A word printed on a scale may be named bare (`mood of health is weak`),
    and one that is also a stat's name is refused."""
    g = game(SHEET + 'turn { phase p { if mood of health is well: log "fine" } }\n'
                     'end "e" when round > 1\n', players="1")
    assert [e.text for e in g.new_game(players=1, seed=0).log if e.text == "fine"] == ["fine"]
    text = 'game "T"\nper player { alive yes  hp 1 min 0 max 1 { 0..1: state alive } }\n'
    assert [d.message for d in check(parse(text))] == [
        "the word 'alive' is also the name of a stat or constant, which a bare 'alive' would "
        "read instead"]


def test_too_many_rows_in_all():
    rows = " ".join(f"{i}: v {i}" for i in range(6))
    text = f'game "T"\nper player {{ x 0 min 0 max 5 {{ {rows} }} }}\n'
    with pytest.raises(RulesetCheckError, match="the tables and scales have 6 rows in all"):
        rulelang.loads(text, limits=rulelang.Limits(max_rows=5))


# ---------------------------------------------------------------- data forms and generated code


def test_round_trip_through_json_and_the_schema(tmp_path):
    rs = parse(SCALES.read_text(encoding="utf-8"), str(SCALES))
    assert check(rs) == []
    data = json.loads(serialize.dumps(rs, "json"))
    jsonschema.validate(data, schema.build_schema())
    again = serialize.from_data(data)
    assert again == rs
    porters = next(s for s in again.stats if s.name == "porters")
    assert [(r.low, r.high) for r in porters.scale] == [(0, 1), (2, 3), (4, 4), (5, 6)]
    assert again.winner_where is not None
    (tmp_path / "scales.json").write_text(json.dumps(data))
    a, b = rulelang.load(SCALES), rulelang.load(tmp_path / "scales.json")
    sa, sb = a.new_game(players=3, seed=5), b.new_game(players=3, seed=5)
    rng = random.Random(5)
    while not sa.is_over:
        label = rng.choice(sa.legal_moves()).label
        sa.apply(label)
        sb.apply(label)
    assert sa.to_json() == sb.to_json() and sa.result() == sb.result()


def _same_json(a, b, moves):
    assert a.to_json() == b.to_json(), f"the saves differ after {moves} moves"


@pytest.mark.parametrize("chance", ["sample", "explicit"])
def test_generated_code_plays_as_the_ops(chance):
    steps = play_both_ways(rulelang.load(SCALES), 16, chance, players=lambda i: 1 + i % 3,
                           check=_same_json)
    assert steps > 100


def test_the_generated_code_is_a_table_lookup():
    """A scale is read by one look in a constant table (its source names no
    stat by name)."""
    g = game(SHEET + "rule r { let c = capacity of porters  log \"{c}\" }\n"
                     "turn { phase p { r } }\n", players="1")
    from rulelang.engine.codegen import source_of
    src = source_of(g.prog, g.prog.rule_code["r"])
    assert ".get(st.v[" in src and "capacity" not in src.split("def ", 1)[1].split("\n", 1)[1]


def test_line_of_a_message_is_the_row():
    text = ('game "T"\nper player {\n  hp 1 min 0 max 2 {\n    0..1: a 1\n    1..2: a 2\n  }\n}\n')
    (d,) = check(parse(text))
    assert (d.line, d.column) == (line_of(text, "1..2"), 5)


def test_play_shows_a_scales_row_beside_its_stat():
    """rulelang play writes what a scale prints beside the stat's value (a
    global drawn as a track, beside its marker)."""
    from rulelang.play.render import Layout, plain, state_lines
    st = game(SHEET + 'turn { phase p { } }\nend "e" when round > 1\n', players="1").new_game(
        players=1, seed=0)
    shown = plain(state_lines(st.view(0), Layout(st.game)))
    assert "porters 8 (capacity 40)  health 5 (penalty 0, mood well)  alive" in shown
    assert re.search(r"storm +0 ● · · · 3 +0 \(wind 0\)", shown) and "leader none" in shown