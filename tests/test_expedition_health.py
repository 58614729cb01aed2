"""Expedition scenario tests for Health and Sanity (their track modifiers),
Health-rolls and Sanity-rolls, death and insanity, and Discontent with the
revolt: each checks the item of ../shared/rulebooks/expedition.checklist.md
named in its docstring (EX-HS-…, EX-ROL-…, EX-DIS-…), with every die and
draw forced (explicit chance mode).

The designed parts they lean on are in rulesets/expedition.rules: the
encounter tables that call for the rolls (Fever, Dark Forest, Grumbling,
Crocodiles, …), the Village's Respect- and Like-rolls (``village``,
``seek_liking``), the desertion rolls (``desertion_rolls``), feeding at the
end of a Game Turn (``end_of_game_turn``) and the feasts.  Reading
(EX-DIE-06) tested throughout: the Health and Sanity track modifiers are
penalties, so a roll-under check is judged on the die *minus* the track
modifier (a −1 at Health 3 makes a Like-roll of 4 count as 5)."""

from __future__ import annotations

from typing import List

import pytest

from rulelang import CHANCE

from expedition_helpers import PROG, answer, labels, new_game, offered, only, put, roll

#: (value, penalty): the track modifier printed under Health and Sanity,
#: as the number of points it makes a roll worse (EX-HS-05..08, EX-HS-13..16).
TRACK = [(5, 0), (4, 0), (3, 1), (2, 2), (1, 3)]


# ---------------------------------------------------------------- helpers

def game(players: int = 1, **stats):
    """A game at P0's first Player Turn, every sheet empty of Resources
    (so no Quinine, Revolver or Telescope question gets in the way), with
    P0's stats set as given."""
    st = new_game(players)
    for p in range(players):
        only(st, p)
    put(st, 0, **stats)
    return st


def move(st, frm: str, to: str):
    """P0 stands on ``frm`` and makes the Map Phase move to ``to``; the
    state waits at the slot's encounter roll."""
    put(st, 0, at=frm)
    answer(st, "Move", to)
    return st


def said(st, since: int = 0) -> List[str]:
    """The rules' log lines since log entry ``since``."""
    return [e.text for e in st.log[since:] if e.kind == "log"]


def die(st) -> int:
    """The faces of the die being rolled now (6 for a d6, 10 for a d10)."""
    assert st.current_player == CHANCE, f"no die is being rolled: {labels(st)}"
    faces = labels(st)
    assert faces == [f"roll {n}" for n in range(1, len(faces) + 1)], faces
    return len(faces)


def at_player_turn(st) -> bool:
    return not st.is_over and st.current_player != CHANCE and "Make camp" in offered(st)


def fever(face: int, **stats):
    """A Fever on the Thornveld (savanna row 5): one Health-roll of ``face``."""
    st = move(game(**stats), "Coast Town", "Thorn Scrub")
    roll(st, 5)
    assert die(st) == 6
    roll(st, face)
    return st


def dark_forest(face: int, **stats):
    """The Dark Forest of the Deep Jungle (jungle row 6): one Sanity-roll of ``face``."""
    st = move(game(**stats), "Warrior Hills", "Deep Forest")
    roll(st, 6)
    assert die(st) == 6
    roll(st, face)
    return st


def grumbling(porter_face: int, askari_face: int, players: int = 1, **stats):
    """Grumbling on the Thornveld (savanna row 6): the Porter desertion
    roll, then the Askari desertion roll."""
    st = move(game(players, **stats), "Coast Town", "Thorn Scrub")
    roll(st, 6)
    assert die(st) == 10
    roll(st, porter_face)
    assert die(st) == 10
    roll(st, askari_face)
    return st


def at_the_village(respect_face: int, **stats):
    """The expedition paddles from Mangrove Creek into River Mouth, a
    Village with no Healer and no Missionary; its Respect-roll is forced."""
    st = move(game(**stats), "Mangrove Creek", "River Mouth")
    assert die(st) == 10
    roll(st, respect_face)
    return st


def like_roll(face: int, gifts_offered: int = 2, **stats):
    """A Village respects the expedition (Respect-roll 1); the player
    offers ``gifts_offered`` Gifts and the Like-roll shows ``face``."""
    stats.setdefault("gifts", 4)
    stats.setdefault("food", 9)
    st = at_the_village(1, **stats)
    answer(st, f"Gifts offered to the Village: {gifts_offered}")
    assert die(st) == 10
    roll(st, face)
    return st


def to_game_turn_two(st):
    """Every player makes camp at once; the state waits at the first
    decision of Game Turn 2 (or the end)."""
    while st.round == 1 and not st.is_over:
        answer(st, "Make camp")
    return st


# ---------------------------------------------------------------- Health and Sanity

@pytest.mark.parametrize("players", [1, 3])
def test_health_and_sanity_start_at_five(players):
    """EX-HS-01, EX-HS-03: every explorer starts the game at Health 5 and
    Sanity 5."""
    st = new_game(players)
    for p in range(players):
        assert st.stat("health", p) == 5
        assert st.stat("sanity", p) == 5


@pytest.mark.parametrize("start, option, health, sanity", [
    (4, "+2 Health, -1 Sanity", 5, 4),     # +2 from 4: one point is lost, the -1 Sanity stands
    (5, "+1 Health", 5, 5),                # +1 at the top: nothing
])
def test_health_never_goes_above_five(start, option, health, sanity):
    """EX-HS-02: a gain of Health beyond 5 is lost (Quinine spent at Time
    up, EX-R-QUININE-04/05)."""
    st = game(health=start)
    only(st, 0, "Quinine")
    answer(st, "Make camp", option)
    assert st.stat("health", 0) == health
    assert st.stat("sanity", 0) == sanity
    assert "Quinine" not in st.pile("sheet", 0)


@pytest.mark.parametrize("start, option, sanity, health", [
    (4, "+2 Sanity, -1 Health", 5, 4),
    (5, "+1 Sanity", 5, 5),
])
def test_sanity_never_goes_above_five(start, option, sanity, health):
    """EX-HS-04: a gain of Sanity beyond 5 is lost (Cannabis spent at Time
    up, EX-R-CANNABIS-02/03)."""
    st = game(sanity=start)
    only(st, 0, "Cannabis")
    answer(st, "Make camp", option)
    assert st.stat("sanity", 0) == sanity
    assert st.stat("health", 0) == health
    assert "Cannabis" not in st.pile("sheet", 0)


@pytest.mark.parametrize("health, penalty", TRACK)
def test_like_roll_takes_the_health_modifier_as_a_penalty(health, penalty):
    """EX-HS-05 (Health 4 and 5: no modifier), EX-HS-06 (Health 3: −1),
    EX-HS-07 (Health 2: −2), EX-HS-08 (Health 1: −3, that one only, not
    the sum −6): the Like-roll is judged on the d10 made worse by the
    penalty (Reading EX-DIE-06).  Two Gifts offered win the Village at a
    modified 4 or less, so the last winning face is 4 − penalty and the
    next one fails."""
    st = like_roll(4 - penalty, health=health)
    assert said(st)[-1] == "Like-roll 4: the Village likes the expedition"
    assert "A feast" in offered(st)                   # the Village's favour is offered
    assert st.stat("gifts", 0) == 2

    st = like_roll(5 - penalty, health=health)
    assert said(st)[-1] == "Like-roll 5: the Village is not won over"
    assert at_player_turn(st)                         # no favour
    assert st.stat("gifts", 0) == 2


@pytest.mark.parametrize("health, penalty", TRACK)
def test_porter_desertion_takes_the_health_modifier_as_a_penalty(health, penalty):
    """EX-HS-05, EX-HS-09 (Health 3: −1), EX-HS-10 (Health 2: −2),
    EX-HS-11 (Health 1: −3): at Discontent 1 the Porters stay on a
    modified 9 or less; the penalty makes the roll worse (Reading EX-DIE-06),
    so the last staying face is 9 − penalty and the next one costs a Porter."""
    st = grumbling(9 - penalty, 1, health=health, gifts=9, food=9)
    assert "Porter desertion roll 9: the Porters stay" in said(st)
    assert st.stat("porters", 0) == 8

    st = grumbling(10 - penalty, 1, health=health, gifts=9, food=9)
    assert "Porter desertion roll 10: a Porter deserts" in said(st)
    assert st.stat("porters", 0) == 7


def test_low_health_does_not_touch_the_respect_roll():
    """EX-HS-12: at Health 1 (its −3) and Sanity 5, a Respect-roll of 6
    against 6 Askaris counts as 6 and the Village respects the expedition."""
    st = at_the_village(6, health=1, gifts=4, food=9)
    assert said(st)[-1] == "Respect-roll 6: the Village respects the expedition"
    assert st.stat("gifts", 0) == 4 and st.stat("food", 0) == 9     # nothing stolen


def test_low_health_does_not_touch_askari_desertion():
    """EX-HS-12: at Health 1 and Sanity 5 the Askari desertion roll is the
    bare d10 (9 stays at Discontent 1), while the Porter roll of the same
    Grumbling takes its −3."""
    st = grumbling(1, 9, health=1, gifts=9, food=9)
    assert said(st)[-2:] == ["Porter desertion roll 4: the Porters stay",
                             "Askari desertion roll 9: the Askaris stay"]
    assert st.stat("askaris", 0) == 6


def test_track_modifiers_stay_off_health_and_sanity_rolls():
    """EX-HS-12, EX-HS-20: at Health 2 and Sanity 2 (each −2 on its track)
    a Health-roll and a Sanity-roll are the bare d6 — equal values give no
    comparison modifier (EX-ROL-06, EX-ROL-12) and no track modifier
    joins in — so a 2 costs a point."""
    st = fever(2, health=2, sanity=2, gifts=9, food=9)
    assert said(st)[-1] == "Health-roll 2: Health falls to 1"
    assert st.stat("health", 0) == 1

    st = dark_forest(2, health=2, sanity=2, gifts=9, food=9)
    assert said(st)[-1] == "Sanity-roll 2: Sanity falls to 1"
    assert st.stat("sanity", 0) == 1


@pytest.mark.parametrize("sanity, penalty", TRACK)
def test_respect_roll_takes_the_sanity_modifier_as_a_penalty(sanity, penalty):
    """EX-HS-13 (Sanity 4 and 5: no modifier), EX-HS-14 (Sanity 3: −1),
    EX-HS-15 (Sanity 2: −2), EX-HS-16 (Sanity 1: −3, that one only): the
    Respect-roll against 6 Askaris is made worse by the penalty (Reading
    EX-DIE-06): the last respected face is 6 − penalty, the next one is
    robbed of 2 Items."""
    st = at_the_village(6 - penalty, sanity=sanity, gifts=4, food=9)
    assert said(st)[-1] == "Respect-roll 6: the Village respects the expedition"
    assert "Gifts offered to the Village: 0" in labels(st)      # on to the Like-roll

    st = at_the_village(7 - penalty, sanity=sanity, gifts=4, food=9)
    assert said(st)[-1] == "Respect-roll 7: the Village steals from the expedition"
    answer(st, "Gifts among the Items lost: 2")
    assert st.stat("gifts", 0) == 2


@pytest.mark.parametrize("sanity, penalty", TRACK)
def test_askari_desertion_takes_the_sanity_modifier_as_a_penalty(sanity, penalty):
    """EX-HS-13, EX-HS-17 (Sanity 3: −1), EX-HS-18 (Sanity 2: −2),
    EX-HS-19 (Sanity 1: −3): at Discontent 1 the Askaris stay on a modified
    9 or less; the penalty makes it worse, so 9 − penalty is the last face
    that keeps them and the next one costs an Askari."""
    st = grumbling(1, 9 - penalty, sanity=sanity, gifts=9, food=9)
    assert said(st)[-1] == "Askari desertion roll 9: the Askaris stay"
    assert st.stat("askaris", 0) == 6

    st = grumbling(1, 10 - penalty, sanity=sanity, gifts=9, food=9)
    assert "Askari desertion roll 10: an Askari deserts" in said(st)
    assert st.stat("askaris", 0) == 5


def test_low_sanity_does_not_touch_the_like_roll():
    """EX-HS-20: at Sanity 1 (its −3) and Health 5, a Like-roll of 4 with
    two Gifts counts as 4 and wins the Village."""
    st = like_roll(4, sanity=1)
    assert said(st)[-1] == "Like-roll 4: the Village likes the expedition"
    assert "A feast" in offered(st)


def test_low_sanity_does_not_touch_porter_desertion():
    """EX-HS-20: at Sanity 1 and Health 5 the Porter desertion roll is the
    bare d10 (9 stays at Discontent 1), while the Askari roll of the same
    Grumbling takes its −3."""
    st = grumbling(9, 1, sanity=1, gifts=9, food=9)
    assert said(st)[-2:] == ["Porter desertion roll 9: the Porters stay",
                             "Askari desertion roll 4: the Askaris stay"]
    assert st.stat("porters", 0) == 8


def test_sanity_penalty_and_revolver_add_up_on_the_respect_roll():
    """EX-HS-21: the track modifier combines with the others on the same
    roll (EX-DIE-04): at Sanity 1 (penalty 3) with a Revolver (−1 as
    printed) a Respect-roll is the d10 + 2: a 4 counts as 6 and is
    respected by 6 Askaris, a 5 counts as 7 and is robbed."""
    st = game(sanity=1, gifts=4, food=9)
    only(st, 0, "Revolver")
    move(st, "Mangrove Creek", "River Mouth")
    roll(st, 4)
    assert said(st)[-1] == "Respect-roll 6: the Village respects the expedition"

    st = game(sanity=1, gifts=4, food=9)
    only(st, 0, "Revolver")
    move(st, "Mangrove Creek", "River Mouth")
    roll(st, 5)
    assert said(st)[-1] == "Respect-roll 7: the Village steals from the expedition"


def test_health_and_sanity_penalties_and_revolver_add_up_on_desertion():
    """EX-HS-21: in one Grumbling at Health 1 (penalty 3) and Sanity 3
    (penalty 1) with a Revolver (−1 on both rolls), the Porter roll is the
    d10 + 2 and the Askari roll the bare d10: faces 8 and 10 count as 10
    and 10, so a Porter and an Askari desert."""
    st = game(health=1, sanity=3, gifts=9, food=9)
    only(st, 0, "Revolver")
    move(st, "Coast Town", "Thorn Scrub")
    roll(st, 6, 8, 10)
    assert [line for line in said(st) if "desertion roll" in line] == [
        "Porter desertion roll 10: a Porter deserts", "Askari desertion roll 10: an Askari deserts"]
    assert (st.stat("porters", 0), st.stat("askaris", 0)) == (7, 5)


@pytest.mark.parametrize("health", [1, 2, 3, 4, 5])
def test_time_is_health_plus_five_each_game_turn(health):
    """EX-HS-22: as a Game Turn begins each explorer's Time is set to their
    own Health + 5 (Health 1 gives 6, Health 5 gives 10); the other
    explorer's Health does not matter."""
    st = game(2, health=health, gifts=9, food=9)
    put(st, 1, health=6 - health)
    to_game_turn_two(st)
    assert st.round == 2
    assert st.stat("time", 0) == health + 5
    assert st.stat("time", 1) == 11 - health


def test_time_is_set_once_from_the_health_at_the_start_of_the_game_turn():
    """EX-HS-22 Reading: Time is set once, at the start of the Game Turn;
    Health lost later in it leaves Time alone (only the walk is paid: 10 − 2,
    not the 9 that Health 4 + 5 would give), and the next Game Turn sets it
    from the lowered Health."""
    st = to_game_turn_two(game())
    assert st.stat("time", 0) == 10
    move(st, "Thorn Scrub", "Lookout Rock")
    roll(st, 2, 5)                                   # Cold: Health-roll 5 <= 5
    assert st.stat("health", 0) == 4
    assert st.stat("time", 0) == 8                   # 10 − the walk of 2
    answer(st, "Make camp")
    assert st.round == 3 and st.stat("time", 0) == 9


# ---------------------------------------------------------------- Health-rolls

def test_a_health_roll_is_one_d6():
    """EX-ROL-01: a Health-roll is one roll of a d6 (faces 1 to 6), after
    which the Player Turn goes on."""
    st = move(game(), "Coast Town", "Thorn Scrub")
    roll(st, 5)
    assert labels(st) == [f"roll {n}" for n in range(1, 7)]
    roll(st, 6)
    assert at_player_turn(st)
    rolls = [e.text for e in st.log if e.kind == "roll"]
    assert rolls[-2:] == ["savanna_encounters: rolled 5", "d6: rolled 6"]


@pytest.mark.parametrize("face", [1, 4])
def test_a_health_roll_at_or_below_health_costs_one(face):
    """EX-ROL-02 (Reading: literal), EX-ROL-06: at Health 4 and Sanity 4 a
    Health-roll of 4 or less costs exactly 1 Health."""
    st = fever(face, health=4, sanity=4)
    assert said(st)[-1] == f"Health-roll {face}: Health falls to 3"
    assert st.stat("health", 0) == 3 and st.stat("sanity", 0) == 4


def test_a_health_roll_above_health_costs_nothing():
    """EX-ROL-03, EX-ROL-06: at Health 4 and Sanity 4 a Health-roll of 5
    costs nothing."""
    st = fever(5, health=4, sanity=4)
    assert said(st)[-1] == "Health-roll 5: no harm"
    assert st.stat("health", 0) == 4


def test_a_health_roll_gets_plus_one_while_sanity_is_higher():
    """EX-ROL-04: at Health 3 and Sanity 5 a Health-roll is the d6 + 1: a
    3 counts as 4 and costs nothing, a 2 counts as 3 and costs a point."""
    st = fever(3, health=3, sanity=5)
    assert said(st)[-1] == "Health-roll 4: no harm"
    assert st.stat("health", 0) == 3

    st = fever(2, health=3, sanity=5)
    assert said(st)[-1] == "Health-roll 3: Health falls to 2"
    assert st.stat("health", 0) == 2


def test_a_health_roll_gets_minus_one_while_sanity_is_lower():
    """EX-ROL-05: at Health 3 and Sanity 2 a Health-roll is the d6 − 1: a
    4 counts as 3 and costs a point, a 5 counts as 4 and costs nothing."""
    st = fever(4, health=3, sanity=2)
    assert said(st)[-1] == "Health-roll 3: Health falls to 2"
    assert st.stat("health", 0) == 2

    st = fever(5, health=3, sanity=2)
    assert said(st)[-1] == "Health-roll 4: no harm"
    assert st.stat("health", 0) == 3


def test_a_health_roll_gets_no_modifier_while_sanity_is_equal():
    """EX-ROL-06: at Health 3 and Sanity 3 a Health-roll is the bare d6:
    3 costs a point, 4 costs nothing."""
    st = fever(3, health=3, sanity=3)
    assert said(st)[-1] == "Health-roll 3: Health falls to 2"
    st = fever(4, health=3, sanity=3)
    assert said(st)[-1] == "Health-roll 4: no harm"
    assert st.stat("health", 0) == 3


# ---------------------------------------------------------------- Sanity-rolls

def test_a_sanity_roll_is_one_d6():
    """EX-ROL-07: a Sanity-roll is one roll of a d6, after which the
    Player Turn goes on."""
    st = move(game(), "Warrior Hills", "Deep Forest")
    roll(st, 6)
    assert labels(st) == [f"roll {n}" for n in range(1, 7)]
    roll(st, 6)
    assert at_player_turn(st)
    rolls = [e.text for e in st.log if e.kind == "roll"]
    assert rolls[-2:] == ["jungle_encounters: rolled 6", "d6: rolled 6"]


@pytest.mark.parametrize("face", [1, 4])
def test_a_sanity_roll_at_or_below_sanity_costs_one(face):
    """EX-ROL-08 (Reading: literal), EX-ROL-12: at Health 4 and Sanity 4 a
    Sanity-roll of 4 or less costs exactly 1 Sanity."""
    st = dark_forest(face, health=4, sanity=4)
    assert said(st)[-1] == f"Sanity-roll {face}: Sanity falls to 3"
    assert st.stat("sanity", 0) == 3 and st.stat("health", 0) == 4


def test_a_sanity_roll_above_sanity_costs_nothing():
    """EX-ROL-09, EX-ROL-12: at Health 4 and Sanity 4 a Sanity-roll of 5
    costs nothing."""
    st = dark_forest(5, health=4, sanity=4)
    assert said(st)[-1] == "Sanity-roll 5: no harm"
    assert st.stat("sanity", 0) == 4


def test_a_sanity_roll_gets_plus_one_while_health_is_higher():
    """EX-ROL-10: at Sanity 3 and Health 5 a Sanity-roll is the d6 + 1: a
    3 counts as 4 and costs nothing, a 2 counts as 3 and costs a point."""
    st = dark_forest(3, health=5, sanity=3)
    assert said(st)[-1] == "Sanity-roll 4: no harm"
    assert st.stat("sanity", 0) == 3

    st = dark_forest(2, health=5, sanity=3)
    assert said(st)[-1] == "Sanity-roll 3: Sanity falls to 2"
    assert st.stat("sanity", 0) == 2


def test_a_sanity_roll_gets_minus_one_while_health_is_lower():
    """EX-ROL-11: at Sanity 3 and Health 2 a Sanity-roll is the d6 − 1: a
    4 counts as 3 and costs a point, a 5 counts as 4 and costs nothing."""
    st = dark_forest(4, health=2, sanity=3, gifts=9, food=9)
    assert said(st)[-1] == "Sanity-roll 3: Sanity falls to 2"
    assert st.stat("sanity", 0) == 2

    st = dark_forest(5, health=2, sanity=3, gifts=9, food=9)
    assert said(st)[-1] == "Sanity-roll 4: no harm"
    assert st.stat("sanity", 0) == 3


def test_a_sanity_roll_gets_no_modifier_while_health_is_equal():
    """EX-ROL-12: at Health 3 and Sanity 3 a Sanity-roll is the bare d6:
    3 costs a point, 4 costs nothing."""
    st = dark_forest(3, health=3, sanity=3)
    assert said(st)[-1] == "Sanity-roll 3: Sanity falls to 2"
    st = dark_forest(4, health=3, sanity=3)
    assert said(st)[-1] == "Sanity-roll 4: no harm"
    assert st.stat("sanity", 0) == 3


def test_a_sanity_roll_sees_the_health_just_lost_in_the_same_event():
    """EX-ROL-13: on Lookout Rock (a diagonal slot) with a Telescope, the
    Cold's Health-roll takes Health 4 to 3, and the Thin Air's Sanity-roll
    of the same move then sees Health 3 below Sanity 4: its 5 counts as 4
    (−1) and costs a point.  With Health still 4 it would have been a bare
    5 and cost nothing."""
    st = game(health=4, sanity=4)
    only(st, 0, "Telescope")
    move(st, "Thorn Scrub", "Lookout Rock")
    roll(st, 2, 4)                                   # Cold; Health-roll 4 <= 4
    assert st.stat("health", 0) == 3
    answer(st, "Look through the Telescope: one more Encounter: yes")
    roll(st, 5, 5)                                   # Thin Air; Sanity-roll 5 − 1
    assert said(st)[-1] == "Sanity-roll 4: Sanity falls to 3"
    assert st.stat("sanity", 0) == 3


# ---------------------------------------------------------------- death and insanity

def test_health_zero_kills_the_explorer_and_play_goes_on_without_them():
    """EX-ROL-14 (designed, EX-GAP-34): a Health-roll that takes Health to
    0 kills the explorer at once: their fate is 'dead', their Player Turn
    ends there, and the other explorer plays on alone, round after round."""
    st = move(game(2, health=1, sanity=1, gifts=9, food=9), "Coast Town", "Thorn Scrub")
    roll(st, 5, 1)
    assert st.stat("health", 0) == 0
    assert st.stat("fate", 0) == "dead"
    assert "the explorer dies" in said(st)
    assert not st.is_over and st.current_player == 1 and at_player_turn(st)
    answer(st, "Make camp")
    assert st.round == 2 and st.current_player == 1      # P0 is skipped
    answer(st, "Make camp")
    assert st.round == 3 and st.current_player == 1
    turns = {e.player for e in st.log if e.kind == "turn" and e.round > 1}
    assert turns == {1}


def test_sanity_zero_drives_the_explorer_insane():
    """EX-ROL-15 (designed, EX-GAP-34): a Sanity-roll that takes Sanity to
    0 drives the explorer insane: fate 'insane', Health untouched, and the
    other explorer has the turn."""
    st = move(game(2, health=1, sanity=1, gifts=9, food=9), "Warrior Hills", "Deep Forest")
    roll(st, 6, 1)
    assert st.stat("sanity", 0) == 0 and st.stat("health", 0) == 1
    assert st.stat("fate", 0) == "insane"
    assert "the explorer goes insane" in said(st)
    assert st.current_player == 1 and at_player_turn(st)


def test_the_last_explorer_dying_ends_the_game():
    """EX-ROL-14 (designed, EX-GAP-34): when the only explorer dies the
    game is over by the designed ending, with no winner among the living."""
    st = fever(1, health=1, sanity=1, gifts=9, food=9)
    assert st.stat("fate", 0) == "dead"
    assert st.is_over
    result = st.result()
    assert result.ending == "every explorer is dead or insane"
    assert not result.winners


def test_health_and_sanity_stop_at_zero():
    """EX-ROL-16 (Reading: 0 is the floor): Health and Sanity are bounded
    below by 0 and the roll that reaches 0 leaves exactly 0.  No rule takes
    more than 1 at a time from a living explorer, so the floor is probed
    from an arranged Health 0: a Thirst's loss leaves it at 0."""
    assert PROG.bounds["health"] == (0, 5)
    assert PROG.bounds["sanity"] == (0, 5)
    st = fever(1, health=1, sanity=1, gifts=9, food=9)
    assert st.stat("health", 0) == 0
    st = dark_forest(1, health=1, sanity=1, gifts=9, food=9)
    assert st.stat("sanity", 0) == 0
    st = game(health=0, gifts=9, food=9)
    move(st, "Thorn Scrub", "Red Sands")
    roll(st, 1)                                      # Thirst
    assert "Thirst: Health falls to 0" in said(st)
    assert st.stat("health", 0) == 0


# ---------------------------------------------------------------- Discontent

@pytest.mark.parametrize("players", [1, 4])
def test_discontent_starts_at_one(players):
    """EX-DIS-01: every expedition starts with Discontent 1."""
    st = new_game(players)
    assert [st.stat("discontent", p) for p in range(players)] == [1] * players


def test_an_askari_lost_raises_discontent_by_one():
    """EX-DIS-02: a Warrior Nation takes an Askari (Ambush-roll 7 against 6
    Askaris): Askaris 6 → 5 and Discontent 1 → 2, the Porters untouched."""
    st = move(game(), "Rainforest", "Warrior Hills")
    roll(st, 8, 7, 10)                               # Quiet; the Warrior Nation's Ambush-roll; Ammo-roll
    assert "Ambush-roll 7: the Warrior Nation takes an Askari" in said(st)
    assert st.stat("askaris", 0) == 5
    assert st.stat("porters", 0) == 8
    assert st.stat("discontent", 0) == 2


def test_a_porter_lost_raises_discontent_by_one():
    """EX-DIS-03: Crocodiles take a Porter: Porters 8 → 7 and Discontent
    1 → 2, the Askaris untouched."""
    st = move(game(), "River Mouth", "River Bend")
    roll(st, 7)
    assert st.stat("porters", 0) == 7
    assert st.stat("askaris", 0) == 6
    assert st.stat("discontent", 0) == 2


def _fall(st):
    move(st, "Thorn Scrub", "Lookout Rock")
    roll(st, 1)                                      # A Fall


def _beast(st):
    move(st, "Coast Town", "Thorn Scrub")
    roll(st, 4, 6)                                   # Wildlife; a beast


def _porter_deserts(st):
    move(st, "Coast Town", "Thorn Scrub")
    roll(st, 6, 10, 1)                               # Grumbling; a Porter deserts


def _askari_deserts(st):
    move(st, "Coast Town", "Thorn Scrub")
    roll(st, 6, 1, 10)                               # Grumbling; an Askari deserts


def _warrior_nation(st):
    move(st, "Rainforest", "Warrior Hills")
    roll(st, 8, 10, 10)                              # Quiet; the Warrior Nation; its Ammo-roll


def _warband(st):
    move(st, "Coast Town", "Thorn Scrub")
    roll(st, 1, 10, 10)                              # Warband; Ambush-roll 10; Ammo-roll 10
    answer(st, "Gifts among the Items lost: 0")


@pytest.mark.parametrize("cause, askaris, porters", [
    (_fall, 6, 7),
    (_beast, 6, 7),
    (_porter_deserts, 6, 7),
    (_askari_deserts, 5, 8),
    (_warrior_nation, 5, 8),
    (_warband, 5, 7),
], ids=["fall", "beast", "porter-desertion", "askari-desertion", "warrior-nation", "warband"])
def test_every_man_lost_counts_whatever_the_cause(cause, askaris, porters):
    """EX-DIS-04 (with EX-DIS-02/03): a fall, a beast, desertion, a Warrior
    Nation or a Warband: each man lost raises Discontent by exactly 1, so a
    Warband that kills an Askari and a Porter raises it by 2."""
    st = game(gifts=9, food=9)
    cause(st)
    assert at_player_turn(st)
    assert (st.stat("askaris", 0), st.stat("porters", 0)) == (askaris, porters)
    lost = (6 - askaris) + (8 - porters)
    assert st.stat("discontent", 0) == 1 + lost


@pytest.mark.parametrize("keep", [True, False])
def test_a_loss_cancelled_by_quinine_adds_no_discontent(keep):
    """EX-DIS-05: a Porter the Crocodiles would take, kept by spending a
    Quinine, adds no Discontent (and the Quinine goes); without the spend
    the Porter is lost and Discontent rises."""
    st = game()
    only(st, 0, "Quinine")
    move(st, "River Mouth", "River Bend")
    roll(st, 7)
    answer(st, "Spend a Quinine to keep the Porter: " + ("yes" if keep else "no"))
    if keep:
        assert (st.stat("porters", 0), st.stat("discontent", 0)) == (8, 1)
        assert "Quinine" not in st.pile("sheet", 0)
    else:
        assert (st.stat("porters", 0), st.stat("discontent", 0)) == (7, 2)
        assert "Quinine" in st.pile("sheet", 0)


def test_a_loss_with_no_man_left_adds_no_discontent():
    """EX-DIS-05 Reading: with no Porter and no Askari left, the Crocodiles
    and the Warrior Nation find no one to take, and Discontent stays."""
    st = game(porters=0, askaris=0, gifts=9, food=9)
    move(st, "River Mouth", "River Bend")
    roll(st, 7)                                      # Crocodiles
    assert at_player_turn(st)
    assert st.stat("discontent", 0) == 1

    st = game(porters=0, askaris=0, gifts=9, food=9)
    move(st, "Rainforest", "Warrior Hills")
    roll(st, 8, 10, 10)                              # Quiet; the Warrior Nation strikes; Ammo-roll
    assert at_player_turn(st)
    assert (st.stat("askaris", 0), st.stat("discontent", 0)) == (0, 1)


@pytest.mark.parametrize("askaris, porters, food, rise", [
    (6, 8, 5, 0),       # 14 men need 5 Food: fed
    (6, 8, 3, 1),       # 3 of 5: at least half ate
    (6, 10, 3, 1),      # 16 men need 6: exactly half ate
    (6, 8, 2, 2),       # 2 of 5: fewer than half
    (6, 8, 0, 2),
])
def test_hunger_raises_discontent_by_one_or_two(askaris, porters, food, rise):
    """EX-DIS-06 (designed, EX-GAP-32): as the next Game Turn begins the men
    eat 1 Food for every 3 (rounded up); short of it they eat what there is
    and Discontent rises by 1 if at least half of the need was eaten, by 2
    if less.  Fed, it does not rise."""
    st = game(askaris=askaris, porters=porters, food=food, gifts=9, discontent=2)
    answer(st, "Make camp")
    assert st.round == 2
    need = (askaris + porters + 2) // 3
    assert st.stat("food", 0) == max(food - need, 0)
    assert st.stat("discontent", 0) == 2 + rise
    assert ("the men go hungry: Discontent %d" % (2 + rise) in said(st)) == (rise > 0)


def test_discontent_ten_makes_the_men_kill_the_explorer():
    """EX-DIS-07: a Porter lost at Discontent 9 brings it to 10: the men
    revolt, Health goes to 0 at once and the explorer is dead (EX-ROL-14),
    though Sanity is untouched and men are left."""
    st = move(game(2, discontent=9, gifts=9, food=9), "River Mouth", "River Bend")
    roll(st, 7)                                      # Crocodiles
    assert st.stat("discontent", 0) == 10
    assert "the men revolt" in said(st)
    assert st.stat("health", 0) == 0 and st.stat("sanity", 0) == 5
    assert st.stat("fate", 0) == "dead"
    assert st.stat("porters", 0) == 7 and st.stat("askaris", 0) == 6
    assert st.current_player == 1                    # the turn ended with the death


def test_hunger_can_bring_the_revolt():
    """EX-DIS-07 with EX-DIS-06: starving men at Discontent 8 (+2) revolt as
    the Game Turn ends; the solo explorer is dead and the game over."""
    st = game(discontent=8, food=0, gifts=9)
    answer(st, "Make camp")
    assert st.stat("discontent", 0) == 10
    assert st.stat("health", 0) == 0 and st.stat("fate", 0) == "dead"
    assert st.is_over


def test_the_revolt_happens_with_no_men_left():
    """EX-DIS-08 Reading: the revolt needs no one left: losing the last
    Porter, with no Askaris, at Discontent 9 takes Discontent to 10 and the
    explorer is killed all the same."""
    st = move(game(2, askaris=0, porters=1, discontent=9), "River Mouth", "River Bend")
    roll(st, 7)                                      # Crocodiles take the last Porter
    answer(st, "Keep three Resources nothing")       # the empty sheet keeps nothing
    assert (st.stat("askaris", 0), st.stat("porters", 0)) == (0, 0)
    assert st.stat("discontent", 0) == 10
    assert "the men revolt" in said(st)
    assert st.stat("health", 0) == 0 and st.stat("fate", 0) == "dead"


def test_discontent_does_not_fall_on_its_own():
    """EX-DIS-09 Reading: nothing on the sheet lowers Discontent: a Game
    Turn with the men fed, Health and Sanity restored at Time up (Quinine,
    Cannabis, Ammo spent) and a new Game Turn begun leaves Discontent 4
    where it was."""
    st = game(discontent=4, health=3, sanity=3, ammo=4)
    only(st, 0, "Quinine", "Cannabis", "Ammo")
    answer(st, "Make camp", "+1 Health", "+1 Sanity", "Spend an Ammo: +1 Ammo Stock: yes")
    assert st.round == 2 and at_player_turn(st)
    assert (st.stat("health", 0), st.stat("sanity", 0), st.stat("ammo", 0)) == (4, 4, 5)
    assert st.stat("discontent", 0) == 4
    answer(st, "Make camp")
    assert st.round == 3 and st.stat("discontent", 0) == 4


def test_a_village_feast_is_the_designed_way_down():
    """EX-DIS-09 Reading (designed): the game adds one way down, a feast:
    a Village won over by the Like-roll feasts the men and Discontent falls
    by 2."""
    st = like_roll(1, discontent=4)
    answer(st, "A feast")
    assert st.stat("discontent", 0) == 2


def test_a_kingdom_feast_is_the_designed_way_down():
    """EX-DIS-09 Reading (designed): a King who honours the expedition may
    feast the men: Discontent falls by 2."""
    st = move(game(discontent=4), "Salt Pan", "Hill Kingdom")
    answer(st, "Gifts for the King: 3")
    roll(st, 2)
    answer(st, "A feast")
    assert st.stat("discontent", 0) == 2
