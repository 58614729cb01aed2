"""Decks of each player's own (issue 13): 'deck own per player refills from
discard { … }' gives every player a deck of those cards, hidden from all
(its owner too), refilled from that player's own pile."""

from __future__ import annotations

import json

import pytest

import rulelang
from rulelang.errors import RulesetError, SaveError
from rulelang.testing import check_ruleset

OWN = '''
game "Own decks"
players 2..3
deck own per player refills from discard { Copper x3: coins 1  Estate x1: points 1 }
per player { coins 0 }
pile hand per player, hidden
pile discard per player
turn {
    phase buy {
        draw 2 from own to hand
        coins += sum of coins in hand
        may "Discard the hand" { move all from hand to discard }
        if round is 4: end game "done"
    }
}
score { coins }
'''


@pytest.fixture
def own():
    return rulelang.loads(OWN, "own.rules")


def test_every_player_starts_with_a_deck_of_their_own(own):
    st = own.new_game(players=3, seed=0, chance="explicit")
    for seat in range(3):
        assert sorted(st.pile("own", seat)) == ["Copper", "Copper", "Copper", "Estate"]
    view = st.view(0)
    assert all(p["piles"]["own"] == {"size": 4} for p in view["players"])   # its owner too


def test_a_draw_takes_from_the_players_own_deck_and_refills_from_their_own_pile(own):
    st = own.new_game(players=2, seed=0, chance="explicit")
    st.apply("draw Estate").apply("draw Copper").apply("Discard the hand: yes")
    assert st.pile("own", 0) == ["Copper", "Copper"] and len(st.pile("own", 1)) == 4
    st.apply("draw Copper").apply("draw Copper").apply("Discard the hand: yes")   # P1
    st.apply("draw Copper").apply("draw Copper")              # P0's deck is empty now
    assert st.pile("own", 0) == []
    st.apply("Discard the hand: yes")
    assert sorted(st.pile("discard", 0)) == ["Copper", "Copper", "Copper", "Estate"]
    st.apply("draw Copper").apply("draw Estate").apply("Discard the hand: no")    # P1
    # P0's draw finds the deck empty: refilled from P0's discards, not P1's.
    assert st.pile("discard", 0) == [] and len(st.pile("own", 0)) == 4
    assert len(st.pile("discard", 1)) == 2
    st.apply("draw Estate")
    assert len(st.pile("own", 0)) == 3


def test_a_save_counts_each_players_cards(own):
    st = own.new_game(players=3, seed=1)
    assert own.restore(st.to_json()) == st
    doc = json.loads(st.to_json())
    doc["piles"][-1].append(doc["piles"][-1][0] if doc["piles"][-1] else 0)
    with pytest.raises(SaveError, match="too many"):
        own.restore(json.dumps(doc))


def test_own_decks_conform(own):
    report = check_ruleset(own, games=20, fresh_games=0)
    assert report.ok, report.format()


def test_an_own_deck_refills_only_from_a_pile_each_player_has():
    with pytest.raises(RulesetError, match="is each player's own: it refills from a pile each player has"):
        rulelang.loads(OWN.replace("pile discard per player", "pile discard"))
