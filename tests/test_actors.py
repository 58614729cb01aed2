"""Actors that are not seats (issue 13): a dealer with its own stats and
piles, read as dealer.total and 'hand of dealer', acted for by rules and never
offered a move."""

from __future__ import annotations

import pytest

import rulelang
from rulelang.errors import RulesetError

TABLE = '''
game "Table"
players 1..2
deck shoe { Low x3: points 2  High x3: points 9 }
pile hand per player
actor dealer {
    total 0
    mood one of calm, cross
    plan 0 secret
    pile hand
    pile hole hidden
}
setup {
    draw 1 from shoe to hand of dealer
    draw 1 from shoe to hole of dealer
    dealer.total = sum of points in hand of dealer
    dealer.plan = sum of points in hole of dealer
}
turn {
    phase a {
        draw 1 from shoe to hand
        if dealer.total > 5: dealer.mood = cross
        may "Show" { reveal dealer.plan }
        end game "done"
    }
}
score { sum of points in hand }
'''


@pytest.fixture
def table():
    return rulelang.loads(TABLE, "table.rules")


def dealt(game):
    st = game.new_game(players=2, seed=0, chance="explicit")
    st.apply("draw High").apply("draw Low")
    return st


def test_an_actor_has_its_own_stats_and_piles(table):
    st = dealt(table)
    assert st.stat("dealer.total") == 9 and st.pile("dealer.hand") == ["High"]
    assert st.pile("dealer.hole") == ["Low"]
    view = st.view(0)
    assert view["actors"]["dealer"]["stats"] == {"total": 9, "mood": "calm"}
    assert view["actors"]["dealer"]["piles"] == {"hand": ["High"], "hole": {"size": 1}}
    assert view["actors"]["dealer"]["secret"] == ["plan"]
    assert "dealer.total" not in view["globals"] and "dealer.hand" not in view["piles"]


def test_an_actor_makes_no_moves_and_rules_change_it(table):
    st = dealt(table)
    assert st.current_player == rulelang.CHANCE      # P0's draw, not the dealer's decision
    st.apply("draw Low")
    assert st.stat("dealer.mood") == "cross" and st.current_player == 0


def test_an_actors_secret_stat_is_revealed_to_all(table):
    st = dealt(table)
    st.apply("draw Low").apply("Show: yes")
    assert st.view(1)["actors"]["dealer"]["stats"]["plan"] == 2
    assert "dealer's plan: 2" in [e.text for e in st.log_for(1)]


def test_a_save_keeps_the_actor(table):
    st = dealt(table)
    back = table.restore(st.to_json())
    assert back == st and back.view(0)["actors"] == st.view(0)["actors"]


@pytest.mark.parametrize("change, message", [
    ("dealer.mood = cross", None),
    ("dealer.wealth = 1", "actor 'dealer' has no 'wealth'"),
    ("draw 1 from shoe to pocket of dealer", "actor 'dealer' has no pile 'pocket'"),
])
def test_what_an_actor_has_is_checked(change, message):
    src = TABLE.replace("if dealer.total > 5: dealer.mood = cross", change)
    if message is None:
        rulelang.loads(src)
        return
    with pytest.raises(RulesetError, match=message):
        rulelang.loads(src)


@pytest.mark.parametrize("decl, message", [
    ("    secrets 0 hidden\n", "not a seat, so no one would see"),
    ("    pile pocket per player\n", "cannot be per player"),
])
def test_an_actor_is_one_participant_and_no_seat(decl, message):
    src = TABLE.replace("    pile hand\n", "    pile hand\n" + decl, 1)
    with pytest.raises(RulesetError, match=message):
        rulelang.loads(src)
