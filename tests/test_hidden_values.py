"""Hidden and secret values (issue 13): stats seen by their owner only or by
nobody, 'reveal', rolls under a cup, choices made secretly; the views, the
log and the saves follow them, and the checker refuses or warns."""

from __future__ import annotations

import json

import pytest

import rulelang
from rulelang import syntax
from rulelang.check import checker
from rulelang.errors import RulesetError, SaveError

CUPS = '''
game "Cups"
players 2..3
per player { cup = no dice hidden  throw one of rock, paper secret  sixes 0 hidden  shown_sixes 0 }
global { pot 0 secret }
turn {
    phase a {
        cup = roll 2 dice d6
        secretly choose one "Throw" { "Rock": throw = rock  "Paper": throw = paper }
        sixes = count of cup == 6
        log "I hold {cup}"
        may "Show the cup" { reveal cup  shown_sixes = count of cup == 6 }
        if round == 3: end game "done"
    }
}
score { shown_sixes }
'''


@pytest.fixture
def cups():
    return rulelang.loads(CUPS, "cups.rules")


def forced(game, faces=(6, 2)):
    st = game.new_game(players=2, seed=0, chance="explicit")
    for f in faces:
        st.apply(f"roll {f}")
    return st


def test_a_hidden_stat_is_seen_by_its_owner_only(cups):
    st = forced(cups)
    assert st.stat("cup", 0) == (6, 2)
    assert st.view(0)["players"][0]["stats"]["cup"] == (6, 2)
    for seat in (1, None):
        p0 = st.view(seat)["players"][0]
        assert "cup" not in p0["stats"] and "cup" in p0["hidden"]
        assert "(6, 2)" not in json.dumps(st.view(seat)) and "6, 2" not in json.dumps(st.view(seat))


def test_a_secret_stat_is_seen_by_nobody_and_a_secret_global_is_named_only(cups):
    st = forced(cups)
    st.apply("Rock")
    assert st.stat("throw", 0) == "rock"
    for seat in (0, 1, None):
        view = st.view(seat)
        assert "throw" not in view["players"][0]["stats"]
        assert view["secret"] == ["pot"] and "pot" not in view["globals"]


def test_a_roll_under_the_cup_and_a_secret_choice_are_logged_for_their_owner(cups):
    st = forced(cups)
    st.apply("Paper")
    mine = [e.text for e in st.log_for(0)]
    theirs = [e.text for e in st.log_for(1)]
    assert "rolls 2d6: 6, 2" in mine and "Throw: Paper" in mine and "I hold 6, 2" in mine
    assert "rolls 2d6, out of sight" in theirs and "Throw: chosen in secret" in theirs
    assert not any("6, 2" in t or "Paper" in t for t in theirs)


def test_reveal_shows_a_value_until_it_changes(cups):
    st = forced(cups)
    st.apply("Rock").apply("Show the cup: yes")
    assert st.view(1)["players"][0]["stats"]["cup"] == (6, 2)
    assert "P0's cup: 6, 2" in [e.text for e in st.log_for(1)]
    assert st.stat("shown_sixes", 0) == 1
    st.apply("roll 1").apply("roll 1")     # P1's turn: P0's cup is still shown
    assert "cup" in st.view(1)["players"][0]["stats"]
    st.apply("Rock").apply("Show the cup: no")
    st.apply("roll 3").apply("roll 4")     # P0 rolls again: hidden again
    assert "cup" not in st.view(1)["players"][0]["stats"]
    assert st.view(0)["players"][0]["stats"]["cup"] == (3, 4)


def test_setting_a_revealed_stat_hides_it_again(cups):
    st = forced(cups)
    st.apply("Rock").apply("Show the cup: yes")
    assert st.shown
    st.set_stat("cup", (1, 1), player=0)
    assert not st.shown and "cup" not in st.view(1)["players"][0]["stats"]


def test_hiding_one_revealed_stat_again_leaves_the_others_shown(cups):
    """Each change hides its own stat only, wherever it sits among those
    shown: first, middle or last (by the rules' code, and by ``set_stat``)."""
    st = cups.new_game(players=3, seed=0, chance="explicit")
    for faces in ((6, 2), (5, 5), (4, 1)):
        st.apply(f"roll {faces[0]}").apply(f"roll {faces[1]}").apply("Rock").apply("Show the cup: yes")
    assert [st.stat("cup", p) for p in range(3)] == [(6, 2), (5, 5), (4, 1)]

    def shown():
        return [p for p in range(3) if "cup" in st.view(None)["players"][p]["stats"]]

    assert shown() == [0, 1, 2]
    st.set_stat("cup", (1, 1), player=1)          # the middle one
    assert shown() == [0, 2]
    st.apply("roll 3").apply("roll 3")            # P0 rolls again: the first one
    assert shown() == [2]
    st.apply("Rock").apply("Show the cup: no")
    st.apply("roll 2").apply("roll 2")            # P1 rolls; P2's stays shown
    assert shown() == [2]


def test_a_failed_move_puts_the_revealed_stats_back(cups):
    st = forced(cups)
    st.apply("Rock").apply("Show the cup: yes")
    before = st.clone()
    with pytest.raises(rulelang.IllegalMoveError):
        st.apply("no such move")
    assert st == before and st.shown == before.shown


def test_a_save_keeps_what_is_revealed_and_refuses_what_is_not_hidden(cups):
    st = forced(cups)
    st.apply("Rock").apply("Show the cup: yes")
    text = st.to_json()
    assert json.loads(text)["shown"] == [0]
    back = cups.restore(text)
    assert back == st and "cup" in back.view(1)["players"][0]["stats"]
    doc = json.loads(text)
    doc["shown"] = [3]      # P0's 'shown_sixes': everyone sees it anyway
    with pytest.raises(SaveError, match="not a hidden or secret stat"):
        cups.restore(json.dumps(doc))
    doc["shown"] = [0, 0]
    with pytest.raises(SaveError, match="once each"):
        cups.restore(json.dumps(doc))


def test_revealing_is_not_a_difference_a_clone_forgets(cups):
    st = forced(cups)
    st.apply("Rock").apply("Show the cup: yes")
    other = forced(cups)
    other.apply("Rock").apply("Show the cup: no")
    assert st.clone() == st and st.clone().shown == st.shown
    assert st.stat("cup", 0) == other.stat("cup", 0) and st != other


@pytest.mark.parametrize("text, message", [
    ('global { pot 0 hidden }', "belongs to no player"),
    ('track depth hidden', None),
    ('pieces w { state { tired no hidden }  Ada }', "these pieces have none"),
])
def test_what_cannot_be_hidden_is_refused(text, message):
    src = f'game "G"\nplayers 2\n{text}\nturn {{ phase a {{ end game "x" }} }}\n'
    with pytest.raises(RulesetError) as e:
        rulelang.loads(src)
    if message:
        assert message in str(e.value)


def test_reveal_of_a_public_stat_is_refused():
    src = ('game "G"\nplayers 2\nper player { x 0 }\n'
           'turn { phase a { reveal x\n end game "x" } }\n')
    with pytest.raises(RulesetError, match="seen by everyone already"):
        rulelang.loads(src)


def test_secretly_goes_only_before_a_choice():
    src = ('game "G"\nplayers 2\nper player { x 0 }\n'
           'turn { phase a { secretly x += 1\n end game "x" } }\n')
    with pytest.raises(RulesetError, match="'secretly' goes before a choice"):
        rulelang.loads(src)


def _warnings(src):
    found, warnings = checker.check_all(syntax.parse(src, "w.rules"))
    assert not found
    return [w.message for w in warnings]


def test_the_checker_warns_when_a_public_value_is_worked_out_from_a_hidden_one():
    warnings = _warnings(CUPS.replace("shown_sixes = count of cup == 6", "shown_sixes = sixes"))
    assert not any("shown_sixes" in w for w in _warnings(CUPS))      # revealed first
    leaky = CUPS.replace("        sixes = count of cup == 6", "        shown_sixes = count of cup == 6")
    assert any("'shown_sixes' is seen by everyone" in w and "'cup', which is hidden" in w
               for w in _warnings(leaky))
    assert any("'shown_sixes' is seen by everyone" in w and "'sixes'" in w for w in warnings)


def test_the_checker_warns_of_a_secret_choice_that_tells_everyone():
    leaky = CUPS.replace('"Rock": throw = rock', '"Rock": throw = rock  shown_sixes += 1')
    assert any("worked out here from what was chosen secretly" in w for w in _warnings(leaky))
    logged = CUPS.replace('"Rock": throw = rock', '"Rock": throw = rock  log "rock!"')
    assert any("option of a secret choice" in w for w in _warnings(logged))
