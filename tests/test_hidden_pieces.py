"""Hidden and secret piece values (issue 13): a face-down tile's worth seen
by the player its 'owner' value holds, a secret mark by nobody; 'reveal'
shows one to all until it changes; views, log, saves and the conformance
harness follow them, and the checker refuses or warns."""

from __future__ import annotations

import json

import pytest

import rulelang
from rulelang import syntax
from rulelang.check import checker
from rulelang.engine import visibility
from rulelang.errors import RulesetError, SaveError
from rulelang.testing import check_ruleset

TILES = '''
game "Face Down"
players 2
pieces tile {
    state { owner none  worth 0 hidden  mark 0 secret  up no }
    "Red {n}" for n from 1 to 2: side 0
    "Blue {n}" for n from 1 to 2: side 1
}
per player { points 0 }
setup {
    for each player as p {
        for each tile as t where side is seat of p { t.owner = p  t.worth = roll d6 }
    }
    for each tile as t { t.mark = roll d6 }
}
turn {
    phase a {
        choose one tile as t where owner is this player and not up "Turn a tile face up"
        t.up = yes
        reveal t.worth
        points += t.worth
        log "{t} is worth {t.worth}"
        if none of tile where not up {
            for each tile as t { reveal t.mark }
            end game "all up"
        }
    }
}
score { points }
'''


@pytest.fixture
def tiles():
    return rulelang.loads(TILES, "tiles.rules")


def forced(game, worths=(5, 2, 4, 1), marks=(3, 3, 3, 3)):
    """Reds to P0, blues to P1, with these worths and marks."""
    st = game.new_game(players=2, seed=0, chance="explicit")
    for f in (*worths, *marks):
        st.apply(f"roll {f}")
    return st


def pieces(view):
    return {p["name"]: p for p in view["pieces"]["tile"]}


def test_a_hidden_piece_value_is_seen_by_the_player_its_owner_holds(tiles):
    """A tile's worth: its owner sees it, the other player does not, and the
    view names what it leaves out."""
    st = forced(tiles)
    mine, theirs = pieces(st.view(0)), pieces(st.view(1))
    assert mine["Red 1"]["worth"] == 5 and "worth" not in theirs["Red 1"]
    assert theirs["Blue 2"]["worth"] == 1 and "worth" not in mine["Blue 2"]
    assert theirs["Red 1"]["hidden"] == ["worth", "mark"]
    assert st.piece("tile", "Red 1")["worth"] == 5      # the whole state knows it


def test_a_secret_piece_value_is_seen_by_nobody_until_revealed(tiles):
    st = forced(tiles)
    assert all("mark" not in p for v in (st.view(0), st.view(1)) for p in v["pieces"]["tile"])
    st.apply("Red 1").apply("Blue 2").apply("Red 2").apply("Blue 1")
    assert st.is_over
    assert all(p["mark"] == 3 for p in st.view(1)["pieces"]["tile"])


def test_reveal_shows_a_piece_value_to_all_and_the_log_says_it(tiles):
    st = forced(tiles)
    st.apply("Red 1")
    assert pieces(st.view(1))["Red 1"]["worth"] == 5 and "worth" not in pieces(st.view(1))["Red 2"]
    assert st.stat("points", 0) == 5
    texts = [e.text for e in st.log_for(1)]
    assert "Red 1's worth: 5" in texts and "Red 1 is worth 5" in texts


def test_a_log_line_reading_a_hidden_piece_value_is_masked_for_the_others():
    src = TILES.replace("t.worth = roll d6 }", 't.worth = roll d6  log "{t} is worth {t.worth}" }')
    st = forced(rulelang.loads(src))
    assert "Blue 1 is worth 4" in [e.text for e in st.log_for(1)]
    assert "Blue 1 is worth 4" not in [e.text for e in st.log_for(0)]
    assert "Blue 1 is worth (hidden)" in [e.text for e in st.log_for(0)]


def test_a_changed_piece_value_is_hidden_again(tiles):
    src = TILES.replace("points += t.worth", "points += t.worth  t.worth = 0")
    st = forced(rulelang.loads(src))
    st.apply("Red 1")
    assert "worth" not in pieces(st.view(1))["Red 1"] and st.shown == ()


def test_a_save_keeps_a_revealed_piece_value_and_refuses_a_public_one(tiles):
    st = forced(tiles)
    st.apply("Red 1")
    doc = json.loads(st.to_json())
    assert len(doc["shown"]) == 1
    assert tiles.restore(st.to_json()) == st
    at = tiles.prog.piece_base["tile"] + tiles.prog.piece_slot["tile"]["up"]
    doc["shown"] = [-1 - at]
    with pytest.raises(SaveError, match="not a hidden or secret stat or piece value"):
        tiles.restore(json.dumps(doc))


def test_face_down_tiles_conform(tiles):
    report = check_ruleset(tiles, games=20, seed=1, fresh_games=0)
    assert report.ok, report.format()


def test_a_public_value_worked_out_from_a_hidden_one_is_warned_of():
    """Without the 'reveal', P0's points tell P1 a tile's worth: the rules
    themselves leak it (the harness takes what rules make public as
    public), and the checker says so."""
    leaky = TILES.replace("        reveal t.worth\n", "")
    found, warnings = checker.check_all(syntax.parse(leaky, "w.rules"))
    assert not found
    assert any("'points' is seen by everyone" in w.message and "'worth', which is hidden" in w.message
               for w in warnings)


def test_a_view_that_shows_a_hidden_piece_value_is_caught(tiles, monkeypatch):
    """The harness's twins hold other hidden piece values: a view that
    shows them differs."""
    monkeypatch.setattr(visibility, "unseen_piece_values", lambda st, seat: [])
    report = check_ruleset(tiles, games=3, seed=1, fresh_games=0)
    assert "view" in {f.check for f in report.failures}


def test_the_checker_follows_piece_values():
    assert not any("points" in w.message for w in checker.check_all(syntax.parse(TILES, "t"))[1])
    public = TILES.replace("        points += t.worth\n", "        t.up = t.worth > 3\n") \
        .replace("        reveal t.worth\n", "")
    assert any("'t.up' is seen by everyone" in w.message
               for w in checker.check_all(syntax.parse(public, "t"))[1])


@pytest.mark.parametrize("old, new, message", [
    ("owner none  worth 0 hidden", "worth 0 hidden", "these pieces have none"),
    ("reveal t.worth", "reveal t.up", "'t.up' is seen by everyone already"),
])
def test_what_cannot_be_hidden_or_revealed_is_refused(old, new, message):
    src = TILES.replace(old, new).replace("t.owner = p  ", "")
    with pytest.raises(RulesetError, match=message):
        rulelang.loads(src)
