"""Expedition scenario tests for the Expedition Sheet, the dice, Askaris and
Ammo, and Porters and carrying: each checks the items of
../shared/rulebooks/expedition.checklist.md named in its docstring
(EX-SHT, EX-DIE, EX-ASK, EX-POR), with every die and draw forced (explicit
chance mode).  The designed parts they lean on (the Porter Capacity scale,
the hunt, the Warband, the Village, the encounter tables, the Ammo-roll's
occasions) are in rulesets/expedition.rules.

Most scenarios are played on the Great River: a move from River Mouth to
River Bend (a Water Zone on both sides, joined by water, so Canoes stay)
brings a roll on the water table, whose rows give a Warband, Fever, Fish
(+4 Food), a Tusk, Hippos (3 Items) and Crocodiles (a Porter lost)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from expedition_helpers import (answer, chits, draw, labels, new_game, offered, only, put, roll,
                                sheet)

#: EX-POR-03 (designed, EX-GAP-36): the Porter Capacity beside each count of Porters.
CAPACITY = [0, 0, 0, 10, 10, 20, 20, 30, 40, 50, 50]

# rows of the water table
HIPPOS, WARBAND, FEVER, FISH, TUSK, CROCODILES, QUIET = 1, 2, 3, 4, 5, 7, 8
# rows of the savanna and jungle tables
SAVANNA_GRUMBLING, JUNGLE_FEVER, JUNGLE_PLANTS = 6, 3, 4

DISCARD = ["Gifts", "Food"]


# ---------------------------------------------------------------- helpers

def game(*held, players=1, **stats):
    """A game at the first Player Turn, seat 0 to act, holding exactly the
    Resources ``held``, with ``stats`` set."""
    st = new_game(players)
    only(st, 0, *held)
    return put(st, 0, **stats)


def enter(st, dest, via, *dice):
    """The player to act, standing at ``via``, moves to ``dest``; then the
    dice given are rolled (the first is the Encounter's)."""
    put(st, st.current_player, at=via)
    answer(st, "Move", dest)
    return roll(st, *dice)


def river(st, *dice):
    """River Mouth to River Bend, the water table's row first."""
    return enter(st, "River Bend", "River Mouth", *dice)


def arrive(st, dest, via, **stats):
    """The player to act arrives quietly at ``dest`` and waits at its next
    Player Turn there, its Time back at 10 and ``stats`` set."""
    p = st.current_player
    enter(st, dest, via, QUIET)
    assert st.current_player == p and "Make camp" in offered(st), labels(st)
    return put(st, p, **{"time": 10, **stats})


def hunting(**stats):
    """Seat 0 at River Bend (game to hunt), at its Player Turn."""
    return arrive(game(), "River Bend", "River Mouth", **stats)


def hunt(st, *dice):
    """A Hunt: the Success-roll, the Ammo-roll, then (on a success) the Food-roll."""
    answer(st, "Hunt")
    return roll(st, *dice)


def said(st, since):
    """The log's texts from entry ``since`` on."""
    return [e.text for e in st.log[since:]]


def at_player_turn(st, p=0):
    """Player ``p`` is at a Player Turn: nothing is pending."""
    return st.current_player == p and "Make camp" in offered(st)


def stats(st, *names, p=0):
    return tuple(st.stat(n, p) for n in names)


def load(st, p=0):
    """EX-POR-08: the tens of Gifts and Food."""
    return 10 * (st.stat("gifts", p) // 10 + st.stat("food", p) // 10)


def ambush(*held, dice, **stats):
    """Seat 0 meets a Warband on the river; ``dice``: the Ambush-roll, the Ammo-roll."""
    st = game(*held, **stats)
    river(st, WARBAND, *dice)
    return st

def village(*held, respect, **stats):
    """Seat 0 enters River Mouth's Village with the Respect-roll ``respect``."""
    st = game(*held, **stats)
    enter(st, "River Mouth", "Mangrove Creek", respect)
    return st

def time_up(*held, **stats):
    """Seat 0 makes camp: its Time is up."""
    st = game(*held, **stats)
    answer(st, "Make camp")
    return st

def fish(*held, **stats):
    """Seat 0 catches 4 Fish on the river (a gain of Food)."""
    st = game(*held, **stats)
    river(st, FISH)
    return st

def fever(*held, to, **stats):
    """Seat 0 catches Fever on the river; the Health-roll ``to`` (a 1 costs Health)."""
    st = game(*held, **stats)
    river(st, FEVER, to)
    return st

def jungle_recovery(plants, **stats):
    """Seat 0, Warrior Hills to the Rainforest: Medicinal Plants, the d6 ``plants``
    (5 or 6 recovers 1 Health)."""
    st = game(**stats)
    enter(st, "Rainforest", "Warrior Hills", JUNGLE_PLANTS, plants)
    return st

def last_porter(*held, **stats):
    """Seat 0, with 1 Porter and ``held``, loses it to the Crocodiles."""
    st = game(*held, porters=1, gifts=5, food=5, **stats)
    river(st, CROCODILES)
    assert st.stat("porters", 0) == 0
    return st

def kept(label):
    """The chits a 'Keep three Resources' label names, sorted."""
    return sorted(label.removeprefix("Keep three Resources ").split(", "))

def keep(st, *names):
    """Keep these three chits (in any order) as the last Porter goes."""
    [label] = [m for m in labels(st) if kept(m) == sorted(names)]
    return answer(st, label)


LADEN = ("Guide", "Canoes", "Ammo", "Ammo", "Rifle", "Bible", "Books", "Diary", "Machete")


# ================================================================ the sheet

def test_each_player_has_a_sheet_of_their_own():
    """EX-SHT-01: in a two-player game each player has their own counts and
    Resources; a Warband that strikes seat 0 costs seat 0 an Askari, a
    Porter, Discontent, Items and Ammo, and seat 1's sheet is untouched."""
    st = game("Rifle", players=2)
    only(st, 1, "Bible")
    names = ("askaris", "porters", "ammo", "discontent", "gifts", "food", "health", "sanity")
    before = stats(st, *names, p=1)
    river(st, WARBAND, 10, 1)                  # Ambush-roll 10 > 6; the Ammo-roll 1 <= 6
    answer(st, "Gifts among the Items lost: 1")
    assert stats(st, *names, p=0) == (5, 7, 5, 3, 9, 19, 5, 5)
    assert stats(st, *names, p=1) == before == (6, 8, 6, 1, 10, 20, 5, 5)
    assert sheet(st, 0) == ["Rifle"] and sheet(st, 1) == ["Bible"]
    assert at_player_turn(st, 1)


def test_porters_never_exceed_10():
    """EX-POR-02, EX-SHT-03: at 9 Porters a Village's 'Two Porters' brings 10,
    the second one lost; at 10 the Coast Town Missionary's Porter is lost too
    (his Askari is not: 6 -> 7)."""
    st = village(respect=1, porters=9)
    answer(st, "4")
    roll(st, 1)                                            # Like-roll 1 <= 8
    answer(st, "Two Porters")
    assert st.stat("porters", 0) == 10
    mission = game(porters=10)
    enter(mission, "Coast Town", "Thorn Scrub", 1, 1)      # respected; recruits on a 1
    assert stats(mission, "porters", "askaris") == (10, 7)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_the_sheet_starts_at_its_setup_values(players):
    """EX-SHT-04 (Reading: the starting values the later sections give),
    EX-ASK-01, EX-ASK-05 (6 Askaris), EX-ASK-07 (Ammo Stock 6), EX-POR-01
    (8 Porters), EX-POR-11 (10 Gifts), EX-POR-12 (20 Food), and Discontent 1,
    for every player, at the first Player Turn."""
    st = new_game(players)
    for p in range(players):
        assert stats(st, "askaris", "ammo", "porters", "discontent", "gifts", "food", p=p) == \
            (6, 6, 8, 1, 10, 20)


def test_time_runs_on_the_1_to_10_scale():
    """EX-SHT-02: Time is counted on the sheet's 1-10 scale: a Game Turn
    begins it at the top (10, with Health 5), the Player Turns spend it, and
    once spent (0, off the scale) the player's Time is up; the next Game
    Turn sets it back to 10, not above."""
    st = game()
    assert st.stat("time", 0) == 10
    river(st, QUIET)                                 # the move costs its walk: 1
    assert st.stat("time", 0) == 9
    hunt(st, 10, 10)                                 # a Hunt costs 2
    assert st.stat("time", 0) == 7
    answer(st, "Make camp")
    assert st.round == 2 and st.stat("time", 0) == 10 and at_player_turn(st)


def test_no_count_on_the_scale_goes_above_10():
    """EX-SHT-03: Discontent shares the 1-10 scale with its own marker and
    stops at 10: at 9, men who go hungry with no Food at all (+2) take it
    to 10, not 11 (and the men revolt, EX-DIS-07)."""
    st = game(discontent=9, food=0)
    answer(st, "Make camp")
    assert st.stat("discontent", 0) == 10


# ================================================================ dice

def test_a_d10_reads_1_to_10_and_a_d6_1_to_6():
    """EX-DIE-01 (a d10 and a d6), EX-DIE-02 (a 0 on the d10 is 10): the hunt's
    Success-roll offers exactly 'roll 1'..'roll 10', each 1/10 and no 'roll 0';
    its Food-roll 'roll 1'..'roll 6', each 1/6."""
    st = hunting()
    answer(st, "Hunt")
    moves = st.legal_moves()
    assert [m.label for m in moves] == [f"roll {v}" for v in range(1, 11)]
    assert all(m.probability == Fraction(1, 10) for m in moves)
    roll(st, 1, 10)                                      # success, then the Ammo-roll
    moves = st.legal_moves()
    assert [m.label for m in moves] == [f"roll {v}" for v in range(1, 7)]
    assert all(m.probability == Fraction(1, 6) for m in moves)


def test_a_d10_showing_10_counts_as_10():
    """EX-DIE-02: the d10's '0' face is 10, the highest result: an Ammo-roll
    of 10 against a Stock of 8 is above it and costs nothing (a 0 would be
    below and cost 1); an 8 does cost 1."""
    ten = hunting(ammo=8, askaris=8)
    hunt(ten, 10, 10)
    assert ten.stat("ammo", 0) == 8
    eight = hunting(ammo=8, askaris=8)
    hunt(eight, 10, 8)
    assert eight.stat("ammo", 0) == 7


def test_roll_under_takes_effect_at_or_below_the_value():
    """EX-DIE-03: a roll equal to the value takes effect, one above does not:
    a hunting Success-roll of 5 against 5 Askaris succeeds and of 6 fails; an
    Ammo-roll equal to the Stock (5) loses one Ammo, one above (6) does not."""
    at = hunting(askaris=5, ammo=5)
    hunt(at, 5, 6, 3)
    assert "the hunt succeeds: 6 Food" in said(at, 0) and at.stat("food", 0) == 26
    assert at.stat("ammo", 0) == 5                        # Ammo-roll 6 > 5
    above = hunting(askaris=5, ammo=5)
    hunt(above, 6, 5)
    assert "the hunt finds nothing" in said(above, 0) and above.stat("food", 0) == 20
    assert above.stat("ammo", 0) == 4                     # Ammo-roll 5 <= 5


def test_the_hunting_food_roll_is_the_exception_higher_is_better():
    """EX-DIE-03 (Reading: the hunting Food-roll is a roll where higher is
    better) and EX-ASK-12's Reading (the Ammo modifier is on the Success-roll
    only): the Food-roll brings twice the d6 in Food, 12 for a 6 and 2 for a 1,
    with no Ammo modifier even when the Stock is above the Askaris."""
    for face, food in ((6, 32), (1, 22)):
        st = hunting(askaris=5, ammo=7)
        hunt(st, 1, 10, face)
        assert st.stat("food", 0) == food


def test_modifiers_add_up():
    """EX-DIE-04: with the Ammo Stock above the Askaris (-1) and Canoes (-3), an
    Ambush-roll of 9 against 5 Askaris is 5 and beats the Warband off; either
    modifier alone leaves it above 5."""
    both = ambush("Canoes", askaris=5, ammo=6, dice=(9, 10))
    assert "Ambush-roll 5: the Warband is beaten off" in said(both, 0)
    canoes_only = ambush("Canoes", askaris=5, ammo=5, dice=(9, 10))
    assert "Ambush-roll 6: the Warband strikes" in said(canoes_only, 0)
    ammo_only = ambush(askaris=5, ammo=6, dice=(9, 10))
    assert "Ambush-roll 8: the Warband strikes" in said(ammo_only, 0)


def test_a_roll_is_judged_on_its_modified_result():
    """EX-DIE-05: the modified result counts, and may leave the die's range:
    an Ambush-roll showing 8 against 8 Askaris, +1 (Stock below Askaris), is 9
    and the Warband strikes; a 10 becomes 11; a 1 with Canoes and the Stock
    above the Askaris is -3."""
    eight = ambush(askaris=8, ammo=7, dice=(8, 10))
    assert "Ambush-roll 9: the Warband strikes" in said(eight, 0)
    assert eight.stat("askaris", 0) == 7
    ten = ambush(askaris=8, ammo=7, dice=(10, 10))
    assert "Ambush-roll 11: the Warband strikes" in said(ten, 0)
    low = ambush("Canoes", askaris=5, ammo=6, dice=(1, 10))
    assert "Ambush-roll -3: the Warband is beaten off" in said(low, 0)


def test_minus_modifiers_help_a_roll_under_and_track_penalties_hurt():
    """EX-DIE-06 (Reading: the Revolver's -1 goes on the die as printed; the
    Sanity track's modifier is a penalty): against 4 Askaris a Respect-roll of
    5 is respected with a Revolver (4) and not without; at Sanity 3 (-1) a
    roll of 4 counts 5 and the Village steals, where at Sanity 5 it is
    respected."""
    assert "Respect-roll 4: the Village respects the expedition" in \
        said(village("Revolver", respect=5, askaris=4), 0)
    assert "Respect-roll 5: the Village steals from the expedition" in \
        said(village(respect=5, askaris=4), 0)
    assert "Respect-roll 5: the Village steals from the expedition" in \
        said(village(respect=4, askaris=4, sanity=3), 0)
    assert "Respect-roll 4: the Village respects the expedition" in \
        said(village(respect=4, askaris=4), 0)


# ================================================================ Askaris and Ammo

@pytest.mark.parametrize("askaris", [3, 7])
def test_a_hunt_rolls_a_d10_against_the_askaris(askaris):
    """EX-ASK-02 (Reading: the d10 is the hunting Success-roll), EX-ASK-01:
    with the Stock equal to the Askaris, a Success-roll equal to the current
    number of Askaris brings Food and one above it brings nothing."""
    win = hunting(askaris=askaris, ammo=askaris)
    hunt(win, askaris, 10, 4)
    assert win.stat("food", 0) == 28 and "the hunt succeeds: 8 Food" in said(win, 0)
    miss = hunting(askaris=askaris, ammo=askaris)
    hunt(miss, askaris + 1, 10)
    assert miss.stat("food", 0) == 20 and "the hunt finds nothing" in said(miss, 0)
    assert at_player_turn(miss)


@pytest.mark.parametrize("askaris", [2, 6])
def test_a_respect_roll_is_a_d10_against_the_askaris(askaris):
    """EX-ASK-03: a Village's Respect-roll equal to the current Askaris is
    respected (the player is asked for Gifts); one above and the Village
    steals 2 Items."""
    ok = village(respect=askaris, askaris=askaris)
    assert f"Respect-roll {askaris}: the Village respects the expedition" in said(ok, 0)
    assert offered(ok)[0] == "0" and labels(ok)[0].startswith("Gifts offered to the Village")
    bad = village(respect=askaris + 1, askaris=askaris)
    assert f"Respect-roll {askaris + 1}: the Village steals from the expedition" in said(bad, 0)
    answer(bad, "Gifts among the Items lost: 2")
    assert stats(bad, "gifts", "food") == (8, 20)


def test_an_ambush_roll_is_a_d10_against_the_askaris():
    """EX-ASK-04 (Reading: at or below the Askaris the ambush is beaten off):
    an Ambush-roll of 4 against 4 Askaris (Stock 4) costs nothing; a 5 and
    the Warband kills an Askari and a Porter and takes 2 Items."""
    off = ambush(askaris=4, ammo=4, dice=(4, 10))
    assert stats(off, "askaris", "porters", "gifts", "food") == (4, 8, 10, 20)
    assert at_player_turn(off)
    hit = ambush(askaris=4, ammo=4, dice=(5, 10))
    answer(hit, "Gifts among the Items lost: 0")
    assert stats(hit, "askaris", "porters", "gifts", "food") == (3, 7, 10, 18)


def test_askaris_never_exceed_8():
    """EX-ASK-06: at 8 Askaris a Village's 'An Askari' adds nothing; at 7 a
    King's 'Two Askaris' brings 8, the second one lost."""
    st = village(respect=1, askaris=8)
    answer(st, "4")
    roll(st, 1)                                            # Like-roll 1 <= 8
    answer(st, "An Askari")
    assert st.stat("askaris", 0) == 8
    king = game(askaris=7)
    enter(king, "Hill Kingdom", "Salt Pan")
    answer(king, "Gifts for the King: 5")
    roll(king, 1)
    answer(king, "Two Askaris")
    assert king.stat("askaris", 0) == 8


def test_the_ammo_stock_never_exceeds_8():
    """EX-ASK-08: an Ammo spent at Time up with the Stock at 8 leaves it at 8
    (the gain is lost); at 7 it brings 8."""
    full = time_up("Ammo", ammo=8)
    answer(full, "Spend an Ammo: +1 Ammo Stock: yes")
    assert full.stat("ammo", 0) == 8 and sheet(full) == []
    seven = time_up("Ammo", ammo=7)
    answer(seven, "Spend an Ammo: +1 Ammo Stock: yes")
    assert seven.stat("ammo", 0) == 8


def test_losing_an_askari_leaves_the_ammo_stock():
    """EX-ASK-09: an Askari who deserts (Grumbling on the savanna: the Porter
    roll 1 stays, the Askari roll 10 deserts) takes no Ammo with him."""
    st = game()
    enter(st, "Thorn Scrub", "Coast Town", SAVANNA_GRUMBLING, 1, 10)
    assert "Askari desertion roll 10: an Askari deserts" in said(st, 0)
    assert stats(st, "askaris", "ammo", "porters") == (5, 6, 8)


def test_losing_ammo_leaves_the_askaris():
    """EX-ASK-10: an Ammo-roll that costs a point of the Stock costs no Askari."""
    st = hunting()
    hunt(st, 10, 1)
    assert stats(st, "ammo", "askaris") == (5, 6)


def test_ammo_above_askaris_gives_ambush_rolls_minus_1():
    """EX-ASK-11, EX-DIE-06 (the -1 helps): Stock 6 above 5 Askaris, an
    Ambush-roll of 6 counts 5 and the Warband is beaten off; with the Stock
    at 5 the same 6 lets it strike."""
    above = ambush(askaris=5, ammo=6, dice=(6, 10))
    assert "Ambush-roll 5: the Warband is beaten off" in said(above, 0)
    level = ambush(askaris=5, ammo=5, dice=(6, 10))
    assert "Ambush-roll 6: the Warband strikes" in said(level, 0)


def test_ammo_above_askaris_gives_hunting_rolls_minus_1():
    """EX-ASK-12 (Reading: the Success-roll): Stock 6 above 5 Askaris, a
    Success-roll of 6 succeeds; with the Stock at 5 it fails."""
    above = hunting(askaris=5, ammo=6)
    hunt(above, 6, 10, 2)
    assert above.stat("food", 0) == 24
    level = hunting(askaris=5, ammo=5)
    hunt(level, 6, 10)
    assert level.stat("food", 0) == 20 and at_player_turn(level)


def test_ammo_below_askaris_gives_ambush_rolls_plus_1():
    """EX-ASK-13, EX-DIE-06 (the +1 hurts): Stock 4 below 5 Askaris, an
    Ambush-roll of 5 counts 6 and the Warband strikes; with the Stock at 5
    the same 5 beats it off."""
    below = ambush(askaris=5, ammo=4, dice=(5, 10))
    assert "Ambush-roll 6: the Warband strikes" in said(below, 0)
    level = ambush(askaris=5, ammo=5, dice=(5, 10))
    assert "Ambush-roll 5: the Warband is beaten off" in said(level, 0)


def test_ammo_below_askaris_gives_hunting_rolls_plus_1():
    """EX-ASK-14 (Reading: the Success-roll): Stock 4 below 5 Askaris, a
    Success-roll of 5 fails; with the Stock at 5 it succeeds."""
    below = hunting(askaris=5, ammo=4)
    hunt(below, 5, 10)
    assert below.stat("food", 0) == 20 and at_player_turn(below)
    level = hunting(askaris=5, ammo=5)
    hunt(level, 5, 10, 2)
    assert level.stat("food", 0) == 24


def test_ammo_equal_to_askaris_gives_no_modifier():
    """EX-ASK-15: Stock equal to the Askaris (3 and 3), the Ambush-roll is the
    face (3 beats the Warband off, 4 does not) and so is the Success-roll
    (3 succeeds, 4 fails)."""
    assert "Ambush-roll 3: the Warband is beaten off" in \
        said(ambush(askaris=3, ammo=3, dice=(3, 10)), 0)
    assert "Ambush-roll 4: the Warband strikes" in said(ambush(askaris=3, ammo=3, dice=(4, 10)), 0)
    win = hunting(askaris=3, ammo=3)
    hunt(win, 3, 10, 1)
    assert win.stat("food", 0) == 22
    miss = hunting(askaris=3, ammo=3)
    hunt(miss, 4, 10)
    assert miss.stat("food", 0) == 20


def test_the_ammo_modifier_uses_the_counts_at_the_moment_of_the_roll():
    """EX-ASK-16 (Reading: both counts as they stand): 6 Askaris and Stock 6;
    the first hunt's Ammo-roll takes the Stock to 5, so the second hunt's
    Success-roll of 6 gets +1 and fails; had the Stock stayed at 6, the same
    6 would succeed."""
    st = hunting()
    hunt(st, 10, 1)                        # fails; the Ammo-roll 1 takes the Stock to 5
    assert st.stat("ammo", 0) == 5
    hunt(st, 6, 10)
    assert st.stat("food", 0) == 20 and said(st, 0).count("the hunt finds nothing") == 2
    kept = hunting()
    hunt(kept, 10, 10)                     # the Stock stays at 6
    hunt(kept, 6, 10, 1)
    assert kept.stat("food", 0) == 22


def test_an_ammo_roll_at_or_below_the_stock_costs_one():
    """EX-ASK-17: one d10 (after a hunt); 4 against a Stock of 4 lowers it to 3,
    by exactly 1, and says so."""
    st = hunting(ammo=4, askaris=4)
    n = len(st.log)
    hunt(st, 10, 4)
    assert st.stat("ammo", 0) == 3
    assert "ammunition is used up: Ammo Stock 3" in said(st, n)


def test_an_ammo_roll_above_the_stock_costs_nothing():
    """EX-ASK-18: 5 against a Stock of 4 leaves it at 4; and with a Stock of 0
    no result of the d10 (1 to 10) lowers it or logs a loss."""
    st = hunting(ammo=4, askaris=4)
    hunt(st, 10, 5)
    assert st.stat("ammo", 0) == 4
    empty = hunting(ammo=0, askaris=4)
    answer(empty, "Hunt")
    roll(empty, 10)
    for move in empty.legal_moves():
        after = empty.clone()
        n = len(after.log)
        after.apply(move)
        assert after.stat("ammo", 0) == 0
        assert not any("ammunition" in t for t in said(after, n))


def test_ammo_resources_top_up_the_stock_at_time_up():
    """EX-ASK-19 (Reading: each Ammo spent at the player's Time up adds 1, up
    to 8, by choice, one chit a Time up, EX-RES-13): with Stock 2 and two Ammo,
    Time up offers one spend, which gives 3 (not a full refill) and sends the
    chit back blank; the other is kept for a later Time up.  Declining keeps
    both and the Stock."""
    st = time_up("Ammo", "Ammo", ammo=2)
    assert labels(st) == ["Spend an Ammo: +1 Ammo Stock: yes", "Spend an Ammo: +1 Ammo Stock: no"]
    blank = len(st.pile("blank_pool"))
    answer(st, "Spend an Ammo: +1 Ammo Stock: yes")
    assert st.stat("ammo", 0) == 3 and sheet(st) == ["Ammo"]
    assert len(st.pile("blank_pool")) == blank + 1
    assert st.round == 2 and at_player_turn(st)
    no = time_up("Ammo", "Ammo", ammo=2)
    answer(no, "Spend an Ammo: +1 Ammo Stock: no")
    assert no.stat("ammo", 0) == 2 and sheet(no) == ["Ammo", "Ammo"]


# ================================================================ Porters and carrying


@pytest.mark.parametrize("porters", range(11))
def test_porter_capacity_is_the_number_beside_the_porter_slot(porters):
    """EX-POR-03 (designed scale: 0, 0, 0, 10, 10, 20, 20, 30, 40, 50, 50) and
    EX-POR-05 (0 with 2 Porters or fewer): a load exactly at the capacity is
    kept, and 4 Fish that take the Food's tens one higher are over it and
    must be discarded at once."""
    cap = CAPACITY[porters]
    at = fish(porters=porters, gifts=0, food=cap + 2)
    assert at.stat("food", 0) == cap + 6 and at_player_turn(at)
    over = fish(porters=porters, gifts=0, food=cap + 6)
    assert offered(over) == ["Food"] and load(over) == cap + 10
    answer(over, "Food")
    assert over.stat("food", 0) == cap + 9 and load(over) == cap and at_player_turn(over)


def test_capacity_limits_gifts_and_food_together():
    """EX-POR-04: at capacity 40 (8 Porters) 40 Food alone, or 20 Gifts with
    20 Food, is kept; 20 Gifts with 30 Food (each under 40 alone) is over."""
    food_only = fish(gifts=0, food=36)
    assert food_only.stat("food", 0) == 40 and at_player_turn(food_only)
    mixed = fish(gifts=20, food=16)
    assert stats(mixed, "gifts", "food") == (20, 20) and at_player_turn(mixed)
    over = fish(gifts=20, food=26)
    assert offered(over) == DISCARD and load(over) == 50


def test_losing_the_third_porter_leaves_no_capacity():
    """EX-POR-05: 3 Porters carry 10 (gifts 9, Food 10); Crocodiles take one,
    2 are left, capacity 0, and the Food's ten must go."""
    st = game(porters=3, gifts=9, food=10)
    river(st, CROCODILES)
    assert st.stat("porters", 0) == 2 and offered(st) == ["Food"]
    answer(st, "Food")
    assert stats(st, "gifts", "food") == (9, 9) and at_player_turn(st)


def test_resources_never_count_against_capacity():
    """EX-POR-06: 3 Porters (capacity 10) holding 9 Resources and 6 Food catch
    4 Fish: the load is 10, exactly the capacity, and nothing is discarded
    (the Resources add nothing to it).  With 2 Porters (capacity 0), 20
    Resources, 9 Gifts and 9 Food, a 21st Resource won at a Tusk is added,
    again with no discard."""
    nine = ["Quinine", "Cannabis", "Bible", "Rifle", "Ammo", "Books", "Diary", "Revolver",
            "Machete"]
    st = fish(*nine, porters=3, gifts=0, food=6)
    assert stats(st, "gifts", "food") == (0, 10) and len(sheet(st)) == 9
    assert at_player_turn(st)
    twenty = nine + ["Quinine", "Cannabis", "Bible", "Rifle", "Ammo", "Pickax", "Canteen",
                     "Telescope", "Surveying", "Altimeter", "Painting"]
    two = game(*twenty, porters=2, gifts=9, food=9)
    river(two, TUSK, 1, 10)                    # the ivory hunt succeeds; Ammo-roll 10
    draw(two, "Fishing")
    assert len(sheet(two)) == 21 and stats(two, "gifts", "food") == (9, 9)
    assert at_player_turn(two)


def test_only_the_tens_count():
    """EX-POR-07, EX-POR-08: Gifts and Food are each tens and units, and only
    the tens load the Porters: at capacity 40 with 10 Gifts and 30 Food, 4 Fish
    (34 Food, units only) are kept; with 36 Food the same 4 make 40 and a ten
    more, and the units marker is what the discard keeps (39)."""
    units = fish(gifts=10, food=30)
    assert units.stat("food", 0) == 34 and load(units) == 40 and at_player_turn(units)
    tens = fish(gifts=10, food=36)
    assert offered(tens) == DISCARD
    answer(tens, "Food")
    assert stats(tens, "gifts", "food") == (10, 39)


def test_capacity_40_holds_19_gifts_and_39_food():
    """EX-POR-09: the worked example: 8 Porters (capacity 40), 19 Gifts and
    35 Food; 4 Fish make 39 Food, a load of 10 + 30 = 40, all kept; and it is
    the most: 4 Fish more (43) are over the capacity."""
    st = fish(gifts=19, food=35)
    assert stats(st, "gifts", "food") == (19, 39) and at_player_turn(st)
    answer(st, "Move", "Upper River")
    roll(st, FISH)
    assert offered(st) == DISCARD and load(st) == 50


def test_nine_gifts_and_nine_food_need_no_capacity():
    """EX-POR-10 (Reading: even with 0 Porters): 9 Gifts and 9 Food are all
    units, a load of 0: as the Crocodiles take 5 Porters one by one, from
    capacity 20 down to 0 at 2 Porters and on to 0 Porters, nothing is ever
    discarded; and at 2 Porters 4 Fish bring 5 Food to 9, kept."""
    st = game(porters=5, gifts=9, food=9)
    river(st, CROCODILES)                                         # 5 -> 4
    assert stats(st, "porters", "gifts", "food") == (4, 9, 9) and at_player_turn(st)
    for dest in ("Upper River", "River Bend", "Upper River", "River Bend"):   # 4 -> 0
        answer(st, "Move", dest)
        roll(st, CROCODILES)
        if st.stat("porters", 0) == 0:
            answer(st, "Keep three Resources nothing")
        assert stats(st, "gifts", "food") == (9, 9) and at_player_turn(st)
    assert st.stat("porters", 0) == 0
    two = fish(porters=2, gifts=9, food=5)
    assert stats(two, "gifts", "food") == (9, 9) and at_player_turn(two)


@pytest.mark.parametrize("cause, setup, dice", [
    ("a Porter lost", dict(gifts=10, food=30), (CROCODILES,)),
    ("Health down to 2", dict(gifts=10, food=30, health=3), (FEVER, 1)),
    ("Food gained", dict(gifts=10, food=36), (FISH,)),
])
def test_a_load_over_capacity_is_discarded_at_once(cause, setup, dice):
    """EX-POR-13: whatever takes the load over the capacity (a Porter lost: 40
    over 30; Health falling to 2: 40 over 30; Food gained: 50 over 40), the
    very next decision is the discard, and the Player Turn resumes only once
    the load is back within the capacity."""
    st = game(**setup)
    river(st, *dice)
    assert labels(st) == DISCARD
    answer(st, "Food")
    room = CAPACITY[st.stat("porters", 0)] - (10 if st.stat("health", 0) <= 2 else 0)
    assert load(st) == room and at_player_turn(st)
    assert "Over capacity: discard: Food" in said(st, 0)


def test_the_player_chooses_what_to_discard_and_loses_the_fewest():
    """EX-POR-14 (Reading: the fewest items that bring the tens down, from
    either or both, the player choosing): 10 Gifts and 39 Food at capacity 40;
    a hunt brings 12 Food (51), 20 over: the player is asked twice, may take
    one ten from the Gifts (10 -> 9) and one from the Food (51 -> 49).  With
    no ten of Gifts only the Food is offered."""
    st = hunting(gifts=10, food=39)
    hunt(st, 1, 10, 6)
    assert offered(st) == DISCARD
    answer(st, "Gifts")
    assert stats(st, "gifts", "food") == (9, 51) and offered(st) == ["Food"]
    answer(st, "Food")
    assert stats(st, "gifts", "food") == (9, 49) and at_player_turn(st)
    food_twice = hunting(gifts=10, food=39)
    hunt(food_twice, 1, 10, 6)
    answer(food_twice, "Food", "Food")
    assert stats(food_twice, "gifts", "food") == (10, 39)


def test_items_are_any_mix_of_food_and_gifts_the_player_chooses():
    """EX-POR-15: Hippos take 3 Items: the player picks how many are Gifts
    (0 to 3) and the rest is Food; with 1 Food left at least 2 must be Gifts."""
    st = game()
    river(st, HIPPOS)
    assert offered(st) == ["0", "1", "2", "3"]
    answer(st, "Gifts among the Items lost: 2")
    assert stats(st, "gifts", "food") == (8, 19)
    short = game(food=1)
    river(short, HIPPOS)
    assert offered(short) == ["2", "3"]
    answer(short, "Gifts among the Items lost: 2")
    assert stats(short, "gifts", "food") == (8, 0)


def test_a_carried_explorer_has_10_less_capacity():
    """EX-POR-16: 8 Porters (40) at Health 3 carry 40; a Fever that takes
    Health to 2 leaves room for 30 and one ten goes; at 9 Porters (50) the
    carried capacity is 40 and the same 40 stays."""
    st = fever(to=1, gifts=10, food=30, health=3)
    assert st.stat("health", 0) == 2 and offered(st) == DISCARD
    answer(st, "Gifts")
    assert stats(st, "gifts", "food") == (9, 30) and at_player_turn(st)
    nine = fever(to=1, gifts=10, food=30, health=3, porters=9)
    assert nine.stat("health", 0) == 2 and at_player_turn(nine)
    spared = fever(to=6, gifts=10, food=30, health=3)
    assert spared.stat("health", 0) == 3 and at_player_turn(spared)


def test_being_carried_never_takes_capacity_below_0():
    """EX-POR-17 (Reading): with 2 Porters (0) the Health falling to 2 takes
    nothing more: 9 Gifts, 9 Food and every Resource stay; with 3 Porters
    (10) it leaves 0, and 10 Gifts must go down to 9."""
    st = fever("Rifle", "Bible", "Books", to=1, porters=2, gifts=9, food=9, health=3)
    assert st.stat("health", 0) == 2 and at_player_turn(st)
    assert stats(st, "gifts", "food") == (9, 9) and sheet(st) == ["Bible", "Books", "Rifle"]
    three = fever(to=1, porters=3, gifts=10, food=0, health=3)
    assert offered(three) == ["Gifts"]
    answer(three, "Gifts")
    assert three.stat("gifts", 0) == 9 and at_player_turn(three)


def test_capacity_comes_back_at_health_3():
    """EX-POR-18: carried at Health 2 with 10 Gifts and 20 Food (30 of 30);
    Medicinal Plants bring Health 3, and a hunt of 10 Food (40 of 40) is kept;
    without the recovery the same hunt is over the capacity."""
    st = jungle_recovery(5, health=2, gifts=10, food=20)
    assert st.stat("health", 0) == 3
    hunt(st, 1, 10, 5)
    assert stats(st, "gifts", "food") == (10, 30) and at_player_turn(st)
    still = jungle_recovery(1, health=2, gifts=10, food=20)
    assert still.stat("health", 0) == 2
    hunt(still, 1, 10, 5)
    assert offered(still) == DISCARD


def test_what_was_discarded_while_carried_stays_lost():
    """EX-POR-19: 10 Gifts and 39 Food at Health 3; Fever in the Deep Forest
    (Health 2) costs 10 Food (29); Medicinal Plants at the Lost City bring
    Health 3 and the capacity back, but the Food stays 29."""
    st = game(health=3, gifts=10, food=39)
    enter(st, "Deep Forest", "Warrior Hills", JUNGLE_FEVER, 1)
    answer(st, "Food")
    assert stats(st, "health", "food") == (2, 29)
    answer(st, "Move", "Lost City")
    roll(st, JUNGLE_PLANTS, 6)
    assert stats(st, "health", "gifts", "food") == (3, 10, 29) and at_player_turn(st)


def test_the_last_askari_lost_leaves_0():
    """EX-POR-20: with 1 Askari, a desertion takes the marker off the scale
    (0); a second desertion finds no one and it stays 0."""
    st = game(askaris=1)
    enter(st, "Thorn Scrub", "Coast Town", SAVANNA_GRUMBLING, 1, 10)
    assert st.stat("askaris", 0) == 0 and "an Askari is lost: 0 left" in said(st, 0)
    answer(st, "Move", "Grassland")
    roll(st, SAVANNA_GRUMBLING, 1, 10)
    assert st.stat("askaris", 0) == 0


def test_the_last_porter_lost_leaves_0():
    """EX-POR-21: with 1 Porter, Crocodiles take the marker off the scale (0)
    (with no Resources, the three to keep are none)."""
    st = game(porters=1, gifts=5, food=5)
    river(st, CROCODILES)
    answer(st, "Keep three Resources nothing")
    assert st.stat("porters", 0) == 0 and "a Porter is lost: 0 left" in said(st, 0)


def test_the_last_ammo_lost_leaves_0():
    """EX-POR-22: with a Stock of 1, an Ammo-roll of 1 takes it to 0."""
    st = hunting(ammo=1, askaris=1)
    hunt(st, 10, 1)
    assert st.stat("ammo", 0) == 0 and "ammunition is used up: Ammo Stock 0" in said(st, 0)


def test_a_marker_off_the_scale_comes_back_at_1():
    """EX-POR-23: with no Askaris and no Porters, the Coast Town Missionary's
    recruits put both back at 1 (the Respect-roll 1 - Revolver = 0 <= 0); with
    a Stock of 0, an Ammo spent at Time up puts it back at 1."""
    st = game("Revolver", askaris=0, porters=0, gifts=5, food=5)
    enter(st, "Coast Town", "Thorn Scrub", 1, 1)
    assert "the Missionary brings an Askari and a Porter" in said(st, 0)
    assert stats(st, "askaris", "porters") == (1, 1)
    ammo = time_up("Ammo", ammo=0)
    answer(ammo, "Spend an Ammo: +1 Ammo Stock: yes")
    assert ammo.stat("ammo", 0) == 1


def test_with_no_askaris_only_a_modified_0_succeeds():
    """EX-POR-24 (Reading): 0 Askaris; with a Stock of 1 (-1) a Success-roll
    of 1 is 0 and the hunt succeeds, a 2 fails; with a Stock of 0 (no
    modifier) even a 1 fails.  A Warband met with Canoes (-3): 3 is beaten off,
    4 strikes."""
    win = hunting(askaris=0, ammo=1)
    hunt(win, 1, 10, 1)
    assert win.stat("food", 0) == 22
    for dice, ammo in (((2, 10), 1), ((1, 10), 0)):
        miss = hunting(askaris=0, ammo=ammo)
        hunt(miss, *dice)
        assert miss.stat("food", 0) == 20 and at_player_turn(miss)
    assert "Ambush-roll 0: the Warband is beaten off" in \
        said(ambush("Canoes", askaris=0, ammo=0, dice=(3, 10)), 0)
    assert "Ambush-roll 1: the Warband strikes" in \
        said(ambush("Canoes", askaris=0, ammo=0, dice=(4, 10)), 0)


def test_the_last_porter_lost_returns_the_resources_blank_to_the_pool():
    """EX-POR-25, EX-POR-30: of Guide, Canoes, 2 Ammo, Rifle, Bible, Books,
    Diary and Machete, keeping Rifle, Bible and Books, the Diary and the
    Machete go back, blank side up (the hidden pool), not to the face-up
    pool; every chit is still accounted for."""
    st = last_porter(*LADEN)
    before = chits(st, 1)
    blank, face_up = st.pile("blank_pool"), st.pile("pool")
    keep(st, "Rifle", "Bible", "Books")
    assert sheet(st) == sorted(["Guide", "Canoes", "Ammo", "Ammo", "Rifle", "Bible", "Books"])
    assert sorted(st.pile("blank_pool")) == sorted(blank + ["Diary", "Machete"])
    assert st.pile("pool") == face_up and st.pile("aside", 0) == []
    assert chits(st, 1) == before
    assert "the last Porter is gone: the Resources no one can carry are left behind" in said(st, 0)
    assert at_player_turn(st)


def test_the_last_porter_lost_keeps_guide_canoes_and_all_ammo():
    """EX-POR-26 (Guide), EX-POR-27 (Canoes), EX-POR-28 (all Ammo, Stock and
    chits): none of them is among the three to choose, and all stay with the
    three chosen; the Stock of 5 is unchanged."""
    st = last_porter(*LADEN, ammo=5)
    for label in labels(st):
        assert not {"Guide", "Canoes", "Ammo"} & set(kept(label))
    keep(st, "Books", "Diary", "Machete")
    assert sheet(st).count("Ammo") == 2 and "Guide" in sheet(st) and "Canoes" in sheet(st)
    assert st.stat("ammo", 0) == 5
    assert "Rifle" not in sheet(st) and "Bible" not in sheet(st)


def test_the_last_porter_lost_keeps_any_three_chits_once():
    """EX-POR-29 (Reading: 3 chits, once, at the moment of the loss): the
    player may keep any 3 of the 5 others (all 10 sets offered), two copies
    counting as two chits; later, with no Porters, a Resource won at a Tusk
    is kept with the three, and nothing is given back again."""
    st = last_porter(*LADEN)
    assert len(labels(st)) == 10
    keep(st, "Rifle", "Diary", "Machete")
    assert sorted(set(sheet(st)) - {"Guide", "Canoes", "Ammo"}) == ["Diary", "Machete", "Rifle"]
    copies = last_porter("Rifle", "Rifle", "Bible", "Books")
    assert sorted(kept(m) for m in labels(copies)) == [
        ["Bible", "Books", "Rifle"], ["Bible", "Rifle", "Rifle"], ["Books", "Rifle", "Rifle"]]
    keep(copies, "Rifle", "Rifle", "Books")
    assert sheet(copies) == ["Books", "Rifle", "Rifle"]
    answer(copies, "Move", "Upper River")
    roll(copies, TUSK, 1, 10)
    draw(copies, "Painting")
    assert sheet(copies) == ["Books", "Painting", "Rifle", "Rifle"]
    assert copies.stat("porters", 0) == 0 and at_player_turn(copies)
