"""Boards (issue 14, first part): a board is a set of spaces, each with its
attributes and state values as a piece has, joined by links in named
directions; 'neighbour', 'farthest' and 'N in a row' walk the links, so a
line costs its length, not the board's size."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest

import rulelang
from rulelang import RulesetCheckError, RulesetSyntaxError, syntax
from rulelang.ir import serialize
from rulelang.testing import check_ruleset
from helpers import ROOT

TIC = ROOT / "examples" / "tic_tac_toe.rules"
FOUR = ROOT / "examples" / "connect_four.rules"
HARE = ROOT / "examples" / "hare_and_hounds.rules"

WALK = '''game "Walk"
players 1
board cells grid 4 wide 3 high { state { mark no } }
global { seen 0  far 0 }
setup {
    for each cells as s where x is 2 and y is 2 {
        let t = neighbour northeast of s
        seen = t.x * 10 + t.y
        let edge = neighbour south of s
        let last = farthest east of s where not mark
        far = last.x
        if neighbour south of edge is none: seen += 100
    }
}
turn { phase a { end game "x" } }
'''


def test_a_grid_is_its_spaces_and_links():
    rs = syntax.parse(WALK, "w.rules")
    board = rs.pieces[0]
    assert [p.name for p in board.pieces] == [f"{c}{r}" for r in (1, 2, 3) for c in "abcd"]
    assert {(p.name, p.props[0].value.value, p.props[1].value.value) for p in board.pieces[:2]} == \
        {("a1", 1, 1), ("b1", 2, 1)}
    # 4×3: across 3·3·2, up and down 4·2·2, diagonals 3·2·2·2
    assert len(board.links) == 18 + 16 + 24
    assert rulelang.ir.Link("b2", "c3", "northeast") in board.links
    assert rulelang.ir.axes(board) == (("north", "south"), ("east", "west"),
                                       ("northeast", "southwest"), ("northwest", "southeast"))
    data = serialize.to_data(rs)
    assert serialize.from_data(json.loads(json.dumps(data))) == rs


def test_neighbour_and_farthest_follow_the_links():
    """From b2: its northeast neighbour is c3; south of b1 is off the board;
    the farthest unmarked space east is d2."""
    st = rulelang.loads(WALK).new_game(seed=1)
    assert st.stat("seen") == 100 + 33 and st.stat("far") == 4


@pytest.mark.parametrize("moves, winner", [
    (["a1", "b1", "b2", "c1", "c3"], 0),                     # a diagonal
    (["a1", "b1", "a2", "b2", "c3", "b3"], 1),               # a column
    (["b2", "a1", "a2", "c2", "b1", "b3", "c3", "c1", "a3"], None),     # a full board
])
def test_three_in_a_row_wins_tic_tac_toe(moves, winner):
    st = rulelang.load(TIC).new_game(seed=1)
    for m in moves:
        st.apply(m)
    assert st.is_over
    assert [st.stat("won", p) for p in (0, 1)] == [p == winner for p in (0, 1)]


def test_a_row_is_through_the_space_and_along_one_line():
    """Three marks that bend (a1, b1, b2) are no row; a row not through the
    space asked about does not count for it."""
    src = TIC.read_text(encoding="utf-8")
    st = rulelang.loads(src).new_game(seed=1)
    for m in ["a1", "a3", "b1", "c3", "b2"]:
        st.apply(m)
    assert not st.is_over          # P0 holds a1, b1, b2: no straight line
    st.apply("b3")                 # P1: a3, b3, c3
    assert st.is_over and st.stat("won", 1)


def test_a_disc_falls_to_the_lowest_empty_space():
    st = rulelang.load(FOUR).new_game(seed=1)
    for m in ["c6", "c6", "c6"]:
        st.apply(m)
    discs = {c["name"]: c["disc"] for c in st.view(0)["pieces"]["cells"] if c["disc"] is not None}
    assert discs == {"c1": 0, "c2": 1, "c3": 0}


def test_four_in_a_row_wins_connect_four_across_and_diagonally():
    st = rulelang.load(FOUR).new_game(seed=1)
    for m in ["a6", "a6", "b6", "b6", "c6", "c6", "d6"]:
        st.apply(m)
    assert st.is_over and st.stat("won", 0)
    st = rulelang.load(FOUR).new_game(seed=1)
    # P0 builds a1, b2, c3, d4 up a staircase
    for m in ["a6", "b6", "b6", "c6", "c6", "d6", "c6", "d6", "d6", "g6", "d6"]:
        st.apply(m)
    assert st.is_over and st.stat("won", 0)


def test_a_full_column_is_no_move():
    st = rulelang.load(FOUR).new_game(seed=1)
    for _ in range(6):      # the discs alternate: no four in a row
        st.apply("a6")
    assert "a6" not in [m.label for m in st.legal_moves()]


def test_random_tic_tac_toe_gives_the_known_odds():
    """Uniformly random play: the first player wins 737/1260 of games, the
    second 389/1260, and 158/1260 are drawn; 3000 games land within four
    standard deviations of each."""
    n = 3000
    got = Counter(r.scores for r in rulelang.load(TIC).playouts(n, seed=7))
    for scores, p in (((1, 0), 737 / 1260), ((0, 1), 389 / 1260), ((0, 0), 158 / 1260)):
        assert abs(got[scores] / n - p) < 4 * (p * (1 - p) / n) ** 0.5


@pytest.mark.parametrize("path", [TIC, FOUR, ROOT / "examples" / "hex.rules", HARE],
                         ids=["tic_tac_toe", "connect_four", "hex", "hare_and_hounds"])
def test_the_board_games_conform(path):
    report = check_ruleset(rulelang.load(path), games=20, seed=3, fresh_games=1)
    assert report.ok, report.format()


@pytest.mark.parametrize("old, new, message", [
    ("neighbour northeast of s", "neighbour up of s", "have no direction 'up'"),
    ("neighbour northeast of s", "neighbour northeast of seen", "'seen' is not a name given here"),
    ("state { mark no }", "state { mark no  north 0 }", "'north' names both a direction and a value"),
])
def test_the_checker_knows_the_board(old, new, message):
    with pytest.raises(RulesetCheckError, match=re.escape(message)):
        rulelang.loads(WALK.replace(old, new, 1))


@pytest.mark.parametrize("grid, message", [
    ("grid 27 wide 1 high", "at most 26 wide"),
    ("grid 0 wide 3 high", "has no spaces"),
])
def test_a_grid_that_cannot_be_is_refused_where_it_is(grid, message):
    with pytest.raises(RulesetSyntaxError, match=message) as info:
        rulelang.loads(WALK.replace("grid 4 wide 3 high", grid), "w.rules")
    assert info.value.line == 3


def test_a_document_whose_link_names_no_space_is_refused():
    data = serialize.to_data(syntax.parse(WALK, "w.rules"))
    data["pieces"][0]["links"][0]["to"] = "z9"
    with pytest.raises(RulesetCheckError, match="names 'z9', which is not one of its spaces"):
        rulelang.trust.checked(serialize.from_data(data))


def test_the_hand_written_twins_play_the_same_games():
    """benchmarks/twins/ (what the engine is timed against) play by the same
    rules: the twin of Tic-tac-toe gives the known odds, the twins of
    Connect Four, Hex and Hare and Hounds the engine's first-player share, within four
    standard deviations of 3000 games each, and the twins of the games scored
    in points, chips or dice the engine's mean score of the first seat, within
    four standard errors of the difference."""
    import statistics
    import sys
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from twins import (blackjack, connect_four, goofspiel, hare_and_hounds, kuhn_poker, liars_dice, nim,
                       pig, tic_tac_toe)
    from twins import hex as hex_twin
    n = 3000
    got = Counter(tuple(tic_tac_toe.playout(i)) for i in range(n))
    for scores, p in (((1, 0), 737 / 1260), ((0, 1), 389 / 1260), ((0, 0), 158 / 1260)):
        assert abs(got[scores] / n - p) < 4 * (p * (1 - p) / n) ** 0.5
    for twin_of, path in ((connect_four, FOUR), (hex_twin, ROOT / "examples" / "hex.rules"),
                          (hare_and_hounds, HARE)):
        twin = sum(twin_of.playout(i)[0] for i in range(n)) / n
        engine = sum(r.scores[0] for r in rulelang.load(path).playouts(n, seed=11)) / n
        assert abs(twin - engine) < 4 * (2 * 0.25 / n) ** 0.5, path.name
    for twin_of in (pig, nim, goofspiel, blackjack, kuhn_poker, liars_dice):
        name = twin_of.__name__.split(".")[-1]
        game = rulelang.load(ROOT / "examples" / f"{name}.rules")
        twin = [twin_of.playout(i, game.min_players)[0] for i in range(n)]
        engine = [r.scores[0] for r in game.playouts(n, seed=11, players=game.min_players)]
        spread = ((statistics.variance(twin) + statistics.variance(engine)) / n) ** 0.5
        assert abs(statistics.mean(twin) - statistics.mean(engine)) < 4 * spread, name


HEX = ROOT / "examples" / "hex.rules"


def play_hex(first, second, swap="no"):
    """Hex with P0 placing ``first`` and P1 ``second``, in turn."""
    st = rulelang.load(HEX).new_game(seed=1)
    for i, label in enumerate(first):
        if st.is_over:
            break
        st.apply(label)
        if i == 0:
            st.apply(f"Swap: take the first stone as your own: {swap}")
            if swap == "yes":
                continue
        if i < len(second) and not st.is_over:
            st.apply(second[i])
    return st


def test_a_hex_board_joins_each_hexagon_to_six():
    board = syntax.parse(HEX.read_text(encoding="utf-8"), "hex.rules").pieces[0]
    assert len(board.pieces) == 49
    # east-west 6·7·2, northeast-southwest 7·6·2, northwest-southeast 6·6·2
    assert len(board.links) == 84 + 84 + 72
    around = {k.to for k in board.links if k.frm == "d4"}
    assert around == {"e4", "c4", "d5", "d3", "c5", "e3"}
    assert len(rulelang.ir.axes(board)) == 3


def test_hex_a_chain_that_bends_joins_the_edges():
    """Rule: the first player joins west and east; a chain bending through
    a northeast step (b1 to b2) still joins them."""
    st = play_hex(["a1", "b1", "b2", "c2", "d2", "e2", "f2", "g2"],
                  ["a7", "b7", "c7", "d7", "e7", "f7", "g6"])
    assert st.is_over and st.stat("won", 0) and not st.stat("won", 1)


def test_hex_stones_that_touch_only_at_a_corner_are_no_chain():
    """a1 and b2 are not neighbours on hexagons (northeast of a1 is a2):
    the diagonal a1, b2, c3 … g7 joins nothing."""
    st = play_hex(["a1", "b2", "c3", "d4", "e5", "f6", "g7"],
                  ["a7", "b7", "c7", "d7", "e7", "f7"])
    assert not st.is_over


def test_hex_the_second_player_joins_south_and_north():
    st = play_hex(["a1", "b1", "c1", "d1", "e1", "f1", "a3"],
                  ["g1", "g2", "g3", "g4", "g5", "g6", "g7"])
    assert st.is_over and st.stat("won", 1)


def test_hex_the_swap_rule_mirrors_the_first_stone():
    st = rulelang.load(HEX).new_game(seed=1)
    st.apply("b1").apply("Swap: take the first stone as your own: yes")
    stones = {c["name"]: c["stone"] for c in st.view(0)["pieces"]["cells"] if c["stone"] is not None}
    assert stones == {"a2": 1} and st.current_player == 0


def test_hex_has_no_draw():
    assert all(r.scores in ((1, 0), (0, 1)) for r in rulelang.load(HEX).playouts(200, seed=5))


GRAPH = '''game "Paths"
players 1
board map {
    state { open yes }
    A: n 1
    B: n 2
    C: n 3
    D: n 4
    link A -- B
    link B -- C east/west
    link C -> D down
}
global { ab 0  ad 0  da 0  shut 0  d 0 }
setup {
    for each map as a where n is 1 {
        for each map as z where n is 4 {
            ab = count map where (distance from a) is 1
            ad = distance from a to z
            da = if (distance from z to a) is none then -1 else 0
        }
        for each map as b where n is 2 { b.open = no }
        for each map as z where n is 4 { shut = if (distance from a to z through open) is none then 1 else 0 }
        for each map as c where n is 3 { d = distance from a to c along link, east }
    }
}
turn { phase a { end game "x" } }
'''


def test_a_board_written_out_has_the_links_it_says():
    board = syntax.parse(GRAPH, "g.rules").pieces[0]
    assert board.links == (rulelang.ir.Link("A", "B", "link"), rulelang.ir.Link("B", "A", "link"),
                           rulelang.ir.Link("B", "C", "east"), rulelang.ir.Link("C", "B", "west"),
                           rulelang.ir.Link("C", "D", "down"))


def test_distance_counts_links_along_and_through_what_it_is_told():
    """A–B–C–D: one space is 1 from A; D is 3 from A and A unreachable from
    D (C to D is one way); with B shut, D cannot be reached; along 'link'
    and 'east' only, C is 2 from A."""
    st = rulelang.loads(GRAPH).new_game(seed=1)
    assert [st.stat(k) for k in ("ab", "ad", "da", "shut", "d")] == [1, 3, -1, 1, 2]


def test_a_choice_may_name_the_one_it_looks_at():
    """'choose one map as s where … s …': the name is the space looked at."""
    src = GRAPH.replace('turn { phase a { end game "x" } }',
                        'turn { phase a {\n choose one map as s where (distance from s to s) is 0 '
                        'and s.n > 2 "Pick"\n d = s.n\n end game "x" } }')
    st = rulelang.loads(src).new_game(seed=1)
    assert [m.label for m in st.legal_moves()] == ["C", "D"]
    assert st.apply("D").stat("d") == 4


ROADS = '''game "Roads"
players 1
board map {
    state { open yes }
    Port: n 1
    Ford: n 2
    Hill: n 3
    Mill: n 4
    Fort: n 5
    link Port -- Ford by road
    link Port -- Hill by road
    link Port -- Mill by river
    link Mill -- Fort by road
    link Hill -- Fort by road
}
global { near 0  by_road 0  by_river 0  fort 0  joined no  shut 0 }
setup {
    for each map as a where n is 1 {
        near = count map where (distance from a along road) is 1
        by_river = count map where (distance from a along river) is 1
        for each map as f where n is 5 {
            fort = distance from a to f
            by_road = distance from a to f along road
            for each map as h where n is 3 { h.open = no }
            shut = if (distance from a to f along road through open) is none then 0 else distance from a to f along road through open
        }
        joined = connected from a where open reaches n is 5
    }
}
turn { phase a { end game "x" } }
'''


def test_a_space_may_have_many_links_of_one_kind():
    """'link A -- B by road' joins both ways in the direction 'road', and a
    space may have several: Port has two roads (to Ford and Hill) and a
    river (to Mill).  Distances and 'connected' walk every link: Fort is 2
    from Port, 2 by road too (Port, Hill, Fort); with Hill shut no road
    through open spaces reaches it, but 'connected' still does, by the
    river and Mill."""
    rs = syntax.parse(ROADS, "r.rules")
    assert rulelang.ir.Link("Port", "Ford", "road") in rs.pieces[0].links
    assert rulelang.ir.Link("Ford", "Port", "road") in rs.pieces[0].links
    assert rulelang.ir.branching(rs.pieces[0]) == ("road",)
    st = rulelang.loads(ROADS).new_game(seed=1)
    assert [st.stat(k) for k in ("near", "by_river", "fort", "by_road", "shut")] == [2, 1, 2, 2, 0]
    assert st.stat("joined") is True


def test_neighbour_along_a_kind_of_link_that_branches_is_refused():
    """'neighbour road of s' has no one answer where a space has two roads:
    the checker says so, at the question, and points to 'distance'."""
    src = ROADS.replace("turn { phase a {", "turn { phase a { for each map as a where n is 1 { "
                        "let b = neighbour road of a }\n")
    with pytest.raises(RulesetCheckError) as info:
        rulelang.loads(src, "r.rules")
    assert "'road' leads from some spaces of 'map' to more than one" in str(info.value)
    assert "distance from a along road" in str(info.value)
    assert info.value.line == src[:src.index("neighbour road")].count("\n") + 1


def test_a_kind_of_link_that_branches_runs_no_rows():
    """Rows run only along directions with one step at a time: two 'by'
    links of one kind make no line, so '3 in a row' is refused on a board
    whose every link is such."""
    src = ROADS.replace("turn { phase a {", "turn { phase a { for each map as a where n is 1 { "
                        "if 3 in a row through a where open: near = 9 }\n")
    with pytest.raises(RulesetCheckError, match="a row runs along a direction and its opposite"):
        rulelang.loads(src, "r.rules")


def hare_game(moves):
    st = rulelang.load(HARE).new_game(seed=1)
    for m in moves:
        st.apply(m)
    return st


def animals(st):
    return {p["name"]: p["animal"] for p in st.view(0)["pieces"]["points"] if p["animal"] != "empty"}


def test_hounds_move_forward_or_across_never_back():
    st = rulelang.load(HARE).new_game(seed=1)
    assert [m.label for m in st.legal_moves()] == ["a2", "b1", "b3"]
    st.apply("b1")
    assert [m.label for m in st.legal_moves()] == ["b2", "c1", "c2"]     # not a2: back
    st.apply("c1").apply("d3")       # the hare steps northwest
    st.apply("c1")
    assert "b1" not in [m.label for m in st.legal_moves()]


def test_the_hare_moves_any_way_and_wins_past_the_hounds():
    """The hare goes back west (d2, c2, b3) and wins on a2, west of the
    hounds on b2, c1 and c3."""
    st = hare_game(["b1", "c1", "d2", "b3", "c3", "c2", "a2", "b1", "b3", "b1", "b2"])
    assert not st.is_over and animals(st)["b3"] == "hare"
    st.apply("a2")
    assert st.is_over and st.over == "the hare got past the hounds"
    assert [st.stat("won", p) for p in (0, 1)] == [False, True]


def test_the_hounds_win_by_trapping_the_hare():
    """The hare on c1, with hounds on b1, d1 and c2 around it, cannot move."""
    st = hare_game(["b1", "c1", "d1", "a2", "b1", "c2", "c1", "d1", "c1", "b3"])
    assert not st.is_over
    st.apply("c2")
    assert animals(st) == {"b1": "hound", "d1": "hound", "c2": "hound", "c1": "hare"}
    assert st.is_over and st.over == "the hare is trapped" and st.stat("won", 0)


def test_hounds_that_move_across_ten_times_running_lose():
    """Two hounds step north and south in turn while the hare waits."""
    moves = ["b1", "c1", "d2"]          # a hound forward; the hare to d2
    for i in range(10):
        moves += ["c1", "c2"] if i % 2 == 0 else ["c2", "c1"]
        if i < 9:
            moves.append("e2" if i % 2 == 0 else "d2")
    st = hare_game(moves)
    assert st.is_over and st.over == "the hounds stalled" and st.stat("won", 1)


def test_hounds_that_cannot_move_lose():
    """Reading: a hound on e2 never moves again; hounds that cannot move lose."""
    src = HARE.read_text(encoding="utf-8").replace("a2: x 1, animal hound", "a2: x 1") \
        .replace("b1: x 2, animal hound", "b1: x 2").replace("b3: x 2, animal hound", "b3: x 2") \
        .replace("d1: x 4", "d1: x 4, animal hound").replace("d3: x 4", "d3: x 4, animal hound") \
        .replace("e2: x 5, animal hare", "e2: x 5, animal hound").replace("d2: x 4", "d2: x 4, animal hare")
    st = rulelang.loads(src).new_game(seed=1)
    assert st.is_over and st.over == "the hounds cannot move" and st.stat("won", 1)


@pytest.mark.parametrize("size", [5, 26])
def test_a_distance_from_a_table_and_from_a_walk_agree(size):
    """Without 'through', distances come from a table made once (a board of
    up to MOST_TABLED spaces) or a walk (larger): both give the fewest
    links, as a walk through every space does."""
    src = (f'game "D"\nplayers 1\nboard cells grid {size} wide {size} high {{ state {{ on yes }} }}\n'
           'global { plain 0  walked 0  rook 0 }\nsetup {\n'
           '  for each cells as a where x is 1 and y is 1 {\n'
           f'    for each cells as z where x is {size} and y is {size - 1} {{\n'
           '      plain = distance from a to z\n'
           '      walked = distance from a to z through on\n'
           '      rook = distance from a to z along north, east\n'
           '} } }\nturn { phase p { end game "x" } }\n')
    st = rulelang.loads(src).new_game(seed=1)
    assert [st.stat(k) for k in ("plain", "walked", "rook")] == [size - 1, size - 1, 2 * size - 3]


VOYAGE = '''game "Voyage"
players 1..2
board sea grid 5 wide 2 high { state { fish 2 } }
pieces ships {
    state { owner none  at one of sea }
    "Ship {n}" for n from 1 to 2
}
global { last one of sea }
per player { caught 0 }
setup {
    for each player as p {
        for each ships as v where owner is none {
            v.owner = p
            for each sea as s where x is 1 and y is 1 { v.at = s }
            stop
        }
    }
}
turn {
    phase sail {
        for each ships as v where owner is this player {
            let here = v.at
            choose one sea as dest where (distance from here along east, west, north, south) <= 2
                and fish > 0 "Sail to"
            v.at = dest
            dest.fish -= 1
            caught += 1
            last = dest
            log "{v} sails to {v.at}; the last catch was at {last}, which has {last.fish} left"
        }
        if round is 3: end game "three days"
    }
}
score { caught }
'''


def test_a_value_may_hold_a_space_and_be_read_with_a_dot():
    """'at one of sea' holds a space (none at first); 'last.fish' reads the
    space a global holds; the view and the log name the space."""
    game = rulelang.loads(VOYAGE)
    st = game.new_game(players=1, seed=1)
    assert [m.label for m in st.legal_moves()] == ["a1", "b1", "c1", "a2", "b2"]
    st.apply("c1")
    view = st.view(0)
    assert view["globals"]["last"] == "c1"
    assert view["pieces"]["ships"][0]["at"] == "c1" and view["pieces"]["ships"][1]["at"] is None
    assert "Ship 1 sails to c1; the last catch was at c1, which has 1 left" in [e.text for e in st.log]
    assert game.restore(st.to_json()) == st
    rs = game.ruleset
    assert rs.pieces[1].state[1].holds == "sea" and rs.stats[0].holds == "sea"
    assert serialize.from_data(json.loads(json.dumps(serialize.to_data(rs)))) == rs


def test_a_voyage_conforms():
    report = check_ruleset(rulelang.loads(VOYAGE), games=20, seed=2, fresh_games=1)
    assert report.ok, report.format()


def test_a_word_list_of_one_that_names_no_set_stays_a_word():
    src = VOYAGE.replace("global { last one of sea }", "global { last one of sea  mood one of calm }")
    assert rulelang.loads(src).ruleset.stats[1].values == ("calm",)


def test_a_document_holding_what_is_no_set_is_refused():
    data = serialize.to_data(rulelang.loads(VOYAGE).ruleset)
    data["stats"][0]["holds"] = "ocean"
    with pytest.raises(RulesetCheckError, match="holds one of 'ocean', which is no piece set or board"):
        rulelang.trust.checked(serialize.from_data(data))


FRAME = '''game "Frame"
players 1
board zones grid 3 wide 3 high { state { placed no  fish 0 } }
pieces ships {
    state { at one of zones }
    Ship
}
global { f 0  none_below 0 }
setup {
    for each zones as z where y is 3 { z.placed = yes }
    for each zones as z where y is 2 and x is 2 { z.fish = 4 }
    for each ships as v {
        for each zones as z where x is 2 and y is 1 { v.at = z }
        let here = v.at
        f = fish of (neighbour north of here)
        none_below = if (fish of (neighbour south of here)) is none then 1 else 0
    }
}
turn {
    phase a {
        choose one zones as z where not placed and placed of (neighbour north of z) "Place a zone"
        z.placed = yes
        if round is 3: end game "x"
    }
}
'''


def test_a_value_of_what_an_expression_gives_is_read_with_of():
    """'fish of (neighbour north of here)': the space north of the ship's;
    none at the board's edge reads as none."""
    st = rulelang.loads(FRAME).new_game(seed=1)
    assert st.stat("f") == 4 and st.stat("none_below") == 1


def test_a_map_grows_below_what_is_placed():
    """A zone may be placed only below a placed one (a frame that grows
    downwards, as Deep Sea's ocean does)."""
    st = rulelang.loads(FRAME).new_game(seed=1)
    assert [m.label for m in st.legal_moves()] == ["a2", "b2", "c2"]
    st.apply("b2")
    assert [m.label for m in st.legal_moves()] == ["b1", "a2", "c2"]


@pytest.mark.parametrize("old, new, message", [
    ("f = fish of (neighbour north of here)", "f = fish of 3", "reads a value of a piece or space, not of a number"),
    ("f = fish of (neighbour north of here)", "f = fins of v.at", "have no 'fins' — did you mean 'fish'"),
])
def test_of_reads_only_what_pieces_and_spaces_have(old, new, message):
    with pytest.raises(RulesetCheckError, match=re.escape(message)):
        rulelang.loads(FRAME.replace(old, new))


def test_rows_from_north_and_lines_giving_generated_spaces_values():
    """A grid counted from the north (a1 is the north-west corner, south is
    a row further down) whose lines give some spaces attributes and starting
    values; a line naming no space, or giving x or y, is refused at its line."""
    src = """
game "Depths"
board sea grid 3 wide 4 high rows from north {
    state { open no }
    b1: launch yes, open yes
    c4: colour red
}
global { below one of sea  reds 0  opened 0 }
setup {
    for each sea as s where launch { below = neighbour south of s }
    reds = count sea where colour is red
    opened = count sea where open
}
"""
    st = rulelang.loads(src).new_game(seed=1)
    assert st.stat("reds") == 1 and st.stat("opened") == 1
    assert st.view(0)["globals"]["below"] == "b2"
    game = rulelang.loads(src)
    sea = {p.name: {q.name: q.value for q in p.props} for p in game.ruleset.pieces[0].pieces}
    assert sea["a1"]["y"].value == 1 and sea["a4"]["y"].value == 4 and sea["c4"]["x"].value == 3
    with pytest.raises(rulelang.RulesetSyntaxError, match=r":6:5: the board has no space .d4. \(its spaces are a1 to c4\)"):
        rulelang.loads(src.replace("c4: colour red", "d4: colour red"))
    with pytest.raises(rulelang.RulesetSyntaxError, match="x is its place"):
        rulelang.loads(src.replace("c4: colour red", "c4: x 1"))
    with pytest.raises(rulelang.RulesetSyntaxError, match="north or south, not 'top'"):
        rulelang.loads(src.replace("rows from north", "rows from top"))


def test_a_value_holding_a_space_can_be_set_back_to_none():
    """A ship taken off the board: its 'at' (and a global holding a space)
    set to none, read as none afterwards; a number still refused."""
    src = """
game "Off"
board sea grid 2 wide 1 high { state { fish 1 } }
pieces ships { state { at one of sea }  Skiff }
global { last one of sea  gone no }
setup {
    for each sea as z where x is 1 { last = z }
    for each ships as v { v.at = last; v.at = none; gone = v.at is none }
    last = none
}
"""
    st = rulelang.loads(src).new_game(seed=1)
    assert st.stat("gone") is True and st.stat("last") is None
    assert st.piece("ships", "Skiff")["at"] is None
    with pytest.raises(rulelang.RulesetCheckError, match="holds a piece:sea, not a number"):
        rulelang.loads(src.replace("last = none", "last = 3"))
