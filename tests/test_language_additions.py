"""`PILE has CARD` and `winner … score where CONDITION` (scales are in
test_scales.py): how they parse, what they give, what the checker says."""

from __future__ import annotations

import pytest

import rulelang
from rulelang import ir
from rulelang.check import check
from rulelang.ir import serialize
from rulelang.syntax import parse
from helpers import game, labels, play

# ---------------------------------------------------------------- PILE has CARD


def _cond(text):
    """The condition of ``if TEXT: x = 1`` in a rule."""
    rs = parse('game "T"\nrule r { if ' + text + ': x = 1 }\n')
    return rs.rules[0].body[0].cond


def _has(card, pile, owner=None):
    return ir.Compare(">", ir.CountCards(card, ir.PileRef(pile, owner)), ir.Num(0))


def test_has_reads_as_a_count():
    assert _cond("sheet has Rifle") == _has("Rifle", "sheet")
    assert _cond('sheet of rival has "Cracked Ice"') == _has("Cracked Ice", "sheet", "rival")


def test_has_binds_as_a_comparison():
    """`not` takes the whole `PILE has CARD`, and `and`/`or` join them."""
    assert _cond("sheet has Rifle and not sheet has Telescope") == ir.BinOp(
        "and", _has("Rifle", "sheet"), ir.Not(_has("Telescope", "sheet")))
    assert _cond("not hand has Trek") == ir.Not(_has("Trek", "hand"))
    assert _cond("hand has Trek or size of hand > 3") == ir.BinOp(
        "or", _has("Trek", "hand"), ir.Compare(">", ir.PileSize(ir.PileRef("hand")), ir.Num(3)))


CAMP = """
per player { shots 0  armed 0 }
deck gear { Rifle x2  Telescope  Rope }
pile sheet per player
pile hand per player, hidden
"""


def test_has_is_yes_while_a_copy_is_there():
    g = game(CAMP + """
setup { for each player { move card Rifle from gear to sheet } }
turn { phase p {
    choose one "Act" {
        "Shoot" if sheet has Rifle: shots += 1   move card Rifle from sheet to gear
        "Look" if not sheet has Telescope: move card Telescope from gear to sheet
        "Wait": armed += 1
    }
} }
end "e" when round > 3
""", players="1")
    st = g.new_game(players=1, seed=0)
    assert labels(st) == ["Shoot", "Look", "Wait"]
    play(st, "Look")
    assert labels(st) == ["Shoot", "Wait"]
    play(st, "Shoot")
    assert labels(st) == ["Wait"] and st.stat("shots", player=0) == 1


def test_has_of_another_players_pile():
    text = (f'game "T"\nplayers 2\n{CAMP}\n'
            'setup { for each player { if seat of this player is 1: move card Telescope '
            'from gear to sheet } }\n'
            'turn { phase p { for each other player as rival {\n'
            '    if sheet of rival has Telescope: armed = 1 else: armed = 2 } } }\n'
            'end "e" when round > 1\n')
    st = rulelang.loads(text).new_game(players=2, seed=0)
    assert st.stat("armed", player=0) == 1 and st.stat("armed", player=1) == 2


def test_a_log_line_made_from_a_hidden_pile_is_seen_as_the_pile():
    """`hand has Rifle` in a log line is read in full by the hand's owner
    only, as `count of Rifle in hand` is."""
    g = game(CAMP + """
setup { for each player { draw 2 from gear to hand } }
turn { phase p { let got = hand has Rifle   log "armed: {got}" } }
end "e" when round > 1
""", players="2")
    st = g.new_game(players=2, seed=3)
    entries = [e for e in st.log if e.text.startswith("armed")]
    assert [e.seen_by for e in entries] == [(0,), (1,)]
    assert all(e.for_seat(1 - e.seen_by[0]).text == "armed: (hidden)" for e in entries)


@pytest.mark.parametrize("line, message", [
    ("if hand has Rifel: armed = 1", "there is no card 'Rifel' — did you mean 'Rifle'?"),
    ("if pack has Rifle: armed = 1", "there is no deck or pile 'pack'"),
    ("if shots has Rifle: armed = 1", "there is no deck or pile 'shots' — did you mean 'sheet'?"),
])
def test_has_is_checked_as_a_count(line, message):
    text = f'game "T"\n{CAMP}rule r {{ {line} }}\nturn {{ phase p {{ r }} }}\n'
    assert [d.message for d in check(parse(text))] == [message]


def test_has_needs_a_player_for_a_players_pile():
    text = f'game "T"\n{CAMP}end "e" when sheet has Rifle\n'
    assert [d.message for d in check(parse(text))] == [
        "pile 'sheet' belongs to each player, but no player is in scope"]


def test_has_is_a_reserved_word():
    text = 'game "T"\nper player { has 0 }\n'
    assert [d.message for d in check(parse(text))] == [
        "'has' is a word of the language and cannot name a stat"]


# ---------------------------------------------------------------- winner … where


def _ended(decls, players=3):
    """A game over at once, whose stats a test then sets."""
    g = game("per player { points 0  alive yes }\nturn { phase p { } }\n"
             'end "e" when round > 0\nscore { points }\n' + decls, players=f"1..{players}")
    return g.new_game(players=players, seed=0)


def _result(st, points, alive):
    for seat, (p, a) in enumerate(zip(points, alive)):
        st.set_stat("points", p, player=seat)
        st.set_stat("alive", a, player=seat)
    return st.result()


def test_only_players_meeting_the_where_may_win():
    st = _ended("winner highest score where alive")
    assert _result(st, (9, 5, 7), (False, True, True)).winners == (2,)
    assert _result(st, (9, 7, 7), (False, True, True)).winners == (1, 2)     # ties share
    assert _result(st, (9, 5, 7), (True, True, True)).winners == (0,)
    result = _result(st, (9, 5, 7), (False, False, False))
    assert result.winners == () and result.scores == (9, 5, 7) and result.ending == "e"


def test_lowest_score_where():
    st = _ended("winner lowest score where alive")
    assert _result(st, (1, 5, 3), (False, True, True)).winners == (2,)


def test_a_solitaire_game_won_only_at_its_target():
    st = _ended("winner highest score where points >= 20", players=1)
    assert _result(st, (19,), (True,)).winners == ()
    assert _result(st, (20,), (True,)).winners == (0,)


def test_without_where_everyone_may_win_and_none_before_the_end():
    st = _ended("winner highest score")
    assert _result(st, (1, 5, 5), (False, False, False)).winners == (1, 2)
    g = game("per player { points 0  alive yes }\nturn { phase p { choose one { \"a\": points += 1 } } }\n"
             'end "e" when round > 5\nscore { points }\nwinner highest score where alive\n')
    assert g.new_game(players=2, seed=0).result().winners == ()


def test_the_where_may_ask_about_other_players():
    st = _ended("winner highest score where this player is not none and "
                "points > lowest points among other players")
    assert _result(st, (5, 5, 1), (True, True, True)).winners == (0, 1)
    assert _result(st, (5, 5, 5), (True, True, True)).winners == ()


@pytest.mark.parametrize("where, message", [
    ("roll d6 > 3", "a roll can only be made in a rule, table, option, setup or phase, not in "
                    "the winner's 'where'"),
    ("points", "the winner's 'where' condition must be a yes/no value, not a number"),
    ("alvie", "unknown name 'alvie' — did you mean 'alive'?"),
])
def test_the_where_is_checked(where, message):
    text = ('game "T"\nper player { points 0  alive yes }\nturn { phase p { } }\n'
            f'end "e" when round > 0\nwinner highest score where {where}\n')
    assert [(d.line, d.message) for d in check(parse(text))] == [(5, message)]


def test_the_where_round_trips():
    rs = parse('game "T"\nper player { alive yes }\nwinner lowest score where alive\n')
    assert rs.winner == "lowest" and rs.winner_where == ir.Name("alive")
    assert serialize.from_data(serialize.to_data(rs)) == rs
    assert parse('game "T"\nwinner highest score\n').winner_where is None
