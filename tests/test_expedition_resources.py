"""Expedition scenario tests for the eighteen Resources (EX-R-… items of
../shared/rulebooks/expedition.checklist.md): one scenario per effect, each
played by the real rules of rulesets/expedition.rules in explicit chance
mode, every die and draw forced.  A scenario puts the expedition on the
slot of the designed map its effect needs (``put(st, 0, at=...)``), gives
it exactly the Resources it needs (``only``) and plays on by label; most
play the same scenario with and without the Resource, so a ruleset that
ignored the Resource, or gave its effect to everyone, would fail.

Owned effects are read by ``sheet has X``; spending moves the chit to the
blank pool (Guides and Canoes to the face-up pool)."""

from __future__ import annotations

import pytest

from rulelang import CHANCE

from expedition_helpers import (PROG, SLOTS, answer, draw, labels, new_game, offered, only, put,
                                roll, sheet)

QUIET = 8            # a d10 that is "Quiet" on every terrain's Encounter table


def game(*resources, players=1, **stats):
    """A game at the first Player Turn of Game Turn 1, player 0 holding
    exactly ``resources`` and with ``stats`` set."""
    st = new_game(players)
    only(st, 0, *resources)
    return put(st, 0, **stats)


def texts(st, since=0):
    return [e.text for e in st.log[since:]]


def move(st, dest):
    """Player 0 takes the Map Phase move to ``dest``."""
    return answer(st, "Move", dest)


def attr(name, slot_name):
    return PROG.piece_attr["map"][name][SLOTS.index(slot_name)]


def explore_points(at, *resources, sources=()):
    """The DP player 0 scores by exploring ``at`` holding ``resources``
    (``sources``: the Source cards drawn there)."""
    st = game(*resources, at=at)
    assert st.stat("points", 0) == 0
    answer(st, "Explore")
    draw(st, *sources)
    return st.stat("points", 0)


def camp(*resources, **stats):
    """A two-player game in which player 0 makes camp: its Time is up, and
    the state waits at the first question of its Time up."""
    st = game(*resources, players=2, **stats)
    answer(st, "Make camp")
    assert st.current_player == 0
    return st


def hunt_at_thorn_scrub(*resources):
    """Player 0 walks from Coast Town to Thorn Scrub (a Quiet Encounter), so
    that its next Player Turn, on a slot with game, offers the Hunt; it hunts."""
    st = game(*resources)
    move(st, "Thorn Scrub")
    roll(st, QUIET)
    return answer(st, "Hunt")


def at_player_turn(st, p):
    """The state waits at player ``p``'s Player Turn decision."""
    return st.current_player == p and "Make camp" in offered(st)


GUIDE_ASKED = ["Use the Guide: +2 Time: yes", "Use the Guide: +2 Time: no"]


def at_next_turn(st, p):
    """Player ``p``'s next Player Turn has begun: its decision, or the Guide
    offered before it."""
    return at_player_turn(st, p) or (st.current_player == p and labels(st) == GUIDE_ASKED)


# ================================================================ Quinine

def test_quinine_spent_keeps_an_askari_who_would_desert():
    """EX-R-QUININE-01: an Askari deserts (a Grumbling on the savanna, the
    Askari desertion roll 10 above 10 - Discontent 1); the Quinine spent
    cancels the loss: still 6 Askaris, and the chit is back in the blank pool."""
    st = game("Quinine", "Quinine")
    move(st, "Thorn Scrub")
    roll(st, 6, 1, 10)                    # Grumbling; Porters stay (1); an Askari deserts (10)
    assert offered(st) == ["yes", "no"]
    assert labels(st)[0] == "Spend a Quinine to keep the Askari: yes"
    blank = st.pile("blank_pool").count("Quinine")
    answer(st, "yes")
    assert st.stat("askaris", 0) == 6
    assert sheet(st) == ["Quinine"]
    assert st.pile("blank_pool").count("Quinine") == blank + 1
    assert not any("an Askari is lost" in t for t in texts(st))


def test_quinine_spent_keeps_a_porter_who_would_fall():
    """EX-R-QUININE-02: "A Fall" on a mountain slot loses a Porter; the
    Quinine spent cancels it: still 8 Porters, the chit in the blank pool."""
    st = game("Quinine", at="Thorn Scrub")
    move(st, "Lookout Rock")
    roll(st, 1)                           # A Fall
    assert labels(st)[0] == "Spend a Quinine to keep the Porter: yes"
    answer(st, "yes")
    assert st.stat("porters", 0) == 8
    assert sheet(st) == []
    assert "Quinine" in st.pile("blank_pool")


@pytest.mark.parametrize("spend, askaris, discontent", [("yes", 6, 1), ("no", 5, 2)])
def test_a_loss_cancelled_by_quinine_adds_no_discontent(spend, askaris, discontent):
    """EX-R-QUININE-03: the Askari kept by a Quinine raises no Discontent;
    the same desertion with the Quinine kept instead costs the Askari and +1."""
    st = game("Quinine")
    move(st, "Thorn Scrub")
    roll(st, 6, 1, 10)
    answer(st, spend)
    assert (st.stat("askaris", 0), st.stat("discontent", 0)) == (askaris, discontent)


@pytest.mark.parametrize("health, after", [(3, 4), (5, 5)])
def test_quinine_at_time_up_gives_one_health_up_to_five(health, after):
    """EX-R-QUININE-04: at Time up a Quinine spent gives +1 Health (3 -> 4),
    never above 5 (5 stays 5); Sanity is untouched and the chit is spent."""
    st = camp("Quinine", health=health)
    assert offered(st) == ["+1 Health", "+2 Health, -1 Sanity", "Keep it"]
    answer(st, "+1 Health")
    assert (st.stat("health", 0), st.stat("sanity", 0)) == (after, 5)
    assert sheet(st) == [] and "Quinine" in st.pile("blank_pool")
    assert at_player_turn(st, 1)


@pytest.mark.parametrize("health, after", [(2, 4), (4, 5)])
def test_quinine_at_time_up_may_give_two_health_for_one_sanity(health, after):
    """EX-R-QUININE-05: the other choice at Time up is +2 Health and -1
    Sanity (2 -> 4); Reading: the -1 Sanity stands even when 5 cuts the gain
    (4 -> 5, Sanity 4)."""
    st = camp("Quinine", health=health)
    answer(st, "+2 Health, -1 Sanity")
    assert (st.stat("health", 0), st.stat("sanity", 0)) == (after, 4)
    assert sheet(st) == []


def test_quinine_saves_an_askari_from_a_warrior_nation():
    """EX-R-QUININE-06 (Reading: the cancel of EX-R-QUININE-01): the Warrior
    Nation of Warrior Hills wins its Ambush-roll (10 > 6 Askaris) and would
    take an Askari; the Quinine spent keeps him, with no Discontent."""
    st = game("Quinine", at="River Bend")
    move(st, "Warrior Hills")
    roll(st, QUIET, 10, 10)               # the jungle Encounter; the Warrior Nation's roll; Ammo-roll
    assert "Ambush-roll 10: the Warrior Nation takes an Askari" in texts(st)
    answer(st, "Spend a Quinine to keep the Askari: yes")
    assert (st.stat("askaris", 0), st.stat("discontent", 0)) == (6, 1)
    assert "Quinine" not in sheet(st)


# ================================================================ Cannabis

def test_cannabis_spent_makes_a_villages_like_roll_succeed():
    """EX-R-CANNABIS-01 (Reading: spent before the roll): at a Village that
    respects the expedition, a Cannabis spent wins its liking with no Gifts
    and no Like-roll: the Village's favour is offered at once."""
    st = game("Cannabis", at="River Bend")
    move(st, "River Mouth")
    roll(st, 1)                           # the Respect-roll
    assert labels(st)[0] == "Spend a Cannabis: the Like-roll succeeds: yes"
    answer(st, "yes")
    assert st.current_player == 0                        # no die is rolled
    assert "Two Porters" in offered(st) and "A feast" in offered(st)
    assert st.stat("gifts", 0) == 10
    assert sheet(st) == [] and "Cannabis" in st.pile("blank_pool")


@pytest.mark.parametrize("sanity, after", [(3, 4), (5, 5)])
def test_cannabis_at_time_up_gives_one_sanity_up_to_five(sanity, after):
    """EX-R-CANNABIS-02: at Time up a Cannabis spent gives +1 Sanity (3 -> 4),
    never above 5; Health is untouched and the chit is spent."""
    st = camp("Cannabis", sanity=sanity)
    assert offered(st) == ["+1 Sanity", "+2 Sanity, -1 Health", "Keep it"]
    answer(st, "+1 Sanity")
    assert (st.stat("sanity", 0), st.stat("health", 0)) == (after, 5)
    assert sheet(st) == [] and "Cannabis" in st.pile("blank_pool")


@pytest.mark.parametrize("sanity, after", [(2, 4), (4, 5)])
def test_cannabis_at_time_up_may_give_two_sanity_for_one_health(sanity, after):
    """EX-R-CANNABIS-03: the other choice is +2 Sanity and -1 Health (2 -> 4),
    the -1 Health standing when 5 cuts the gain (4 -> 5, Health 4)."""
    st = camp("Cannabis", sanity=sanity)
    answer(st, "+2 Sanity, -1 Health")
    assert (st.stat("sanity", 0), st.stat("health", 0)) == (after, 4)
    assert sheet(st) == []


# ================================================================ Bible

@pytest.mark.parametrize("held, health", [(("Bible",), 4), ((), 3)])
def test_an_owned_bible_adds_one_to_healer_recovery(held, health):
    """EX-R-BIBLE-01: at the Oasis Healer a recovery d6 of 3 is 4 with a
    Bible and recovers 1 Health (3 -> 4); without it 3 recovers nothing.
    The Bible is not spent."""
    st = game(*held, at="Salt Pan", health=3)
    move(st, "Oasis")
    roll(st, 1, 3)                        # Respect-roll; Healer recovery
    assert st.stat("health", 0) == health
    assert sheet(st) == sorted(held)


def test_a_bible_spent_makes_the_missionary_recruit():
    """EX-R-BIBLE-02: at the Coast Town Missionary a Bible spent brings an
    Askari and a Porter with no die rolled; the chit goes to the blank pool."""
    st = game("Bible", at="Thorn Scrub")
    move(st, "Coast Town")
    roll(st, 1)                           # Respect-roll
    assert labels(st)[0] == "Spend a Bible: the Missionary's recruits come: yes"
    answer(st, "yes")
    assert st.current_player == 0                        # no recruiting die
    assert (st.stat("askaris", 0), st.stat("porters", 0)) == (7, 9)
    assert sheet(st) == [] and "Bible" in st.pile("blank_pool")


@pytest.mark.parametrize("held, dp", [(("Bible",), 4), ((), 3)])
def test_an_owned_bible_adds_a_dp_at_a_kingdom(held, dp):
    """EX-R-BIBLE-03 (Reading: owned, once for each Kingdom): honoured by
    the Hill Kingdom (5 Gifts, a d6 of 1), the expedition scores its 3 DP
    and +1 with a Bible, which stays on the sheet."""
    st = game(*held, at="Lookout Rock")
    move(st, "Hill Kingdom")
    answer(st, "Gifts for the King: 5")
    roll(st, 1)
    assert st.stat("points", 0) == dp
    assert sheet(st) == sorted(held)


# ================================================================ Rifle

@pytest.mark.parametrize("held, food", [(("Rifle",), 28), ((), 26)])
def test_an_owned_rifle_adds_one_to_the_hunting_food_roll(held, food):
    """EX-R-RIFLE-01: a successful hunt at Thorn Scrub with a Food-roll of 3
    brings 2 x (3 + 1) = 8 Food with a Rifle, 2 x 3 = 6 without; the Rifle
    is not spent."""
    st = hunt_at_thorn_scrub(*held)
    roll(st, 1, 10, 3)                    # Success-roll; Ammo-roll; Food-roll
    assert st.stat("food", 0) == food
    assert sheet(st) == sorted(held)


def test_a_rifle_given_at_a_kingdom_counts_as_six_gifts():
    """EX-R-RIFLE-02 (Reading: in place of the whole offer): holding only 2
    Gifts, the Rifle given to the Hill Kingdom makes a d6 of 5 succeed; the
    Gifts are kept and the Rifle goes to the blank pool."""
    st = game("Rifle", at="Lookout Rock", gifts=2)
    move(st, "Hill Kingdom")
    answer(st, "Give a Rifle as the present (as 6 Gifts): yes")
    roll(st, 5)
    assert "Kingdom roll 5: the King honours the expedition" in texts(st)
    assert st.stat("points", 0) == 3
    assert st.stat("gifts", 0) == 2
    assert sheet(st) == [] and "Rifle" in st.pile("blank_pool")


@pytest.mark.parametrize("rifle, outcome", [
    ("yes", "Kingdom roll 6: the King honours the expedition"),
    ("no", "Kingdom roll 6: the King is not pleased")])
def test_with_a_rifle_given_even_a_six_succeeds(rifle, outcome):
    """EX-R-RIFLE-03: a Kingdom's d6 of 6 succeeds when a Rifle was given;
    with 5 Gifts instead, the same 6 fails."""
    st = game("Rifle", at="Lookout Rock")
    move(st, "Hill Kingdom")
    answer(st, "Give a Rifle as the present (as 6 Gifts): " + rifle)
    if rifle == "no":
        answer(st, "Gifts for the King: 5")
    roll(st, 6)
    assert outcome in texts(st)
    assert st.stat("points", 0) == (3 if rifle == "yes" else 0)


# ================================================================ Ammo

def test_ammo_spent_at_time_up_adds_one_to_the_stock():
    """EX-R-AMMO-01 (Reading EX-ASK-19: each chit spent at Time up adds 1):
    an Ammo spent at Time up takes the Stock from 4 to 5, the chit to the
    blank pool."""
    st = camp("Ammo", "Ammo", ammo=4)
    assert labels(st) == ["Spend an Ammo: +1 Ammo Stock: yes", "Spend an Ammo: +1 Ammo Stock: no"]
    answer(st, "yes")
    assert st.stat("ammo", 0) == 5
    assert sheet(st) == ["Ammo"] and "Ammo" in st.pile("blank_pool")
    assert at_player_turn(st, 1)          # one chit per Time up (EX-RES-13 reading)


def test_ammo_spent_with_a_stock_of_eight_gains_nothing():
    """EX-R-AMMO-02: the Stock never goes above 8: an Ammo spent at 8 leaves 8."""
    st = camp("Ammo", ammo=8, askaris=8)
    answer(st, "yes")
    assert st.stat("ammo", 0) == 8


def test_ammo_spent_with_a_stock_of_zero_puts_the_marker_back_at_one():
    """EX-R-AMMO-03: an Ammo spent with the Stock off the scale (0) puts it at 1."""
    st = camp("Ammo", ammo=0)
    answer(st, "yes")
    assert st.stat("ammo", 0) == 1


# ================================================================ discoveries (DP bonuses)

def test_books_add_a_dp_to_a_culture_discovery():
    """EX-R-BOOKS-01: exploring Coast Town (Culture, 1 DP) scores 2 with Books, 1 without."""
    assert attr("site", "Coast Town") == "culture"
    assert explore_points("Coast Town", "Books") == 2
    assert explore_points("Coast Town") == 1


def test_books_add_a_dp_to_a_flora_discovery():
    """EX-R-BOOKS-02: exploring Thorn Scrub (Flora, 1 DP) scores 2 with Books, 1 without."""
    assert attr("site", "Thorn Scrub") == "flora"
    assert explore_points("Thorn Scrub", "Books") == 2
    assert explore_points("Thorn Scrub") == 1


def test_a_diary_adds_a_dp_to_a_special_discovery():
    """EX-R-DIARY-02: exploring the Moon Foothills (a Special Discovery,
    4 DP) scores 5 with a Diary, 4 without."""
    assert attr("site", "Moon Foothills") == "special"
    assert explore_points("Moon Foothills", "Diary") == 5
    assert explore_points("Moon Foothills") == 4


def test_a_machete_adds_a_dp_to_the_lost_city():
    """EX-R-MACHETE-02: exploring the Lost City (5 DP) scores 6 with a Machete, 5 without."""
    assert attr("site", "Lost City") == "lost_city"
    assert explore_points("Lost City", "Machete") == 6
    assert explore_points("Lost City") == 5


def test_a_pickax_adds_a_dp_to_a_mineral_discovery():
    """EX-R-PICKAX-02: exploring the Salt Pan (Mineral, 3 DP) scores 4 with a Pickax, 3 without."""
    assert attr("site", "Salt Pan") == "mineral"
    assert explore_points("Salt Pan", "Pickax") == 4
    assert explore_points("Salt Pan") == 3


def test_surveying_adds_a_dp_to_a_lake_discovery():
    """EX-R-SURVEYING-01: exploring West Shore (Lake, 3 DP) scores 4 with Surveying, 3 without."""
    assert attr("site", "West Shore") == "lake"
    assert explore_points("West Shore", "Surveying") == 4
    assert explore_points("West Shore") == 3


def test_surveying_adds_a_dp_to_a_lake_source():
    """EX-R-SURVEYING-02: a Lake Source (4 DP) drawn at Upper River scores 5
    with Surveying, 4 without."""
    assert explore_points("Upper River", "Surveying", sources=["Lake Source"]) == 5
    assert explore_points("Upper River", sources=["Lake Source"]) == 4


def test_an_altimeter_adds_a_dp_to_a_mountain_discovery():
    """EX-R-ALTIMETER-01: a Mountain discovery scores 1 DP more with an
    Altimeter.  The designed map must hold a Mountain discovery for the
    effect to exist; exploring it scores its worth + 1 with an Altimeter."""
    mountains = [s for s in SLOTS if attr("site", s) == "mountain"]
    assert mountains, "no slot of the map holds a Mountain discovery: the Altimeter's +1 never scores"
    s = mountains[0]
    assert explore_points(s, "Altimeter") == attr("worth", s) + 1
    assert explore_points(s) == attr("worth", s)


def test_an_altimeter_adds_a_dp_to_a_mountain_source():
    """EX-R-ALTIMETER-02: a Mountain Source (4 DP) scores 5 with an Altimeter, 4 without."""
    assert explore_points("Upper River", "Altimeter", sources=["Mountain Source"]) == 5
    assert explore_points("Upper River", sources=["Mountain Source"]) == 4


def test_an_altimeter_adds_a_dp_to_a_generic_source():
    """EX-R-ALTIMETER-03: a Generic Source (2 DP) scores 3 with an Altimeter, 2 without."""
    assert explore_points("Upper River", "Altimeter", sources=["Generic Source"]) == 3
    assert explore_points("Upper River", sources=["Generic Source"]) == 2


def test_a_painting_adds_a_dp_to_a_scenery_discovery():
    """EX-R-PAINTING-01: exploring Grassland (Scenery, 2 DP) scores 3 with a Painting, 2 without."""
    assert attr("site", "Grassland") == "scenery"
    assert explore_points("Grassland", "Painting") == 3
    assert explore_points("Grassland") == 2


def test_a_painting_adds_a_dp_to_a_marsh_discovery():
    """EX-R-PAINTING-02: exploring Mangrove Creek (Marsh, 2 DP) scores 3 with a Painting, 2 without."""
    assert attr("site", "Mangrove Creek") == "marsh"
    assert explore_points("Mangrove Creek", "Painting") == 3
    assert explore_points("Mangrove Creek") == 2


def test_a_painting_adds_a_dp_to_a_waterfall_discovery():
    """EX-R-PAINTING-03: exploring River Bend (Waterfall, 3 DP) scores 4 with a Painting, 3 without."""
    assert attr("site", "River Bend") == "waterfall"
    assert explore_points("River Bend", "Painting") == 4
    assert explore_points("River Bend") == 3


# ================================================================ Diary, Revolver

@pytest.mark.parametrize("held, health", [(("Diary",), 4), ((), 3)])
def test_a_diary_adds_one_to_plant_recovery(held, health):
    """EX-R-DIARY-01: Medicinal Plants in the Rainforest: a recovery d6 of 4
    is 5 with a Diary and recovers 1 Health (3 -> 4); without it, nothing."""
    st = game(*held, at="River Mouth", health=3)
    move(st, "Rainforest")
    roll(st, 4, 4)                        # Medicinal Plants; plant recovery
    assert st.stat("health", 0) == health
    assert sheet(st) == sorted(held)


@pytest.mark.parametrize("held, line", [
    (("Revolver",), "Respect-roll 6: the Village respects the expedition"),
    ((), "Respect-roll 7: the Village steals from the expedition")])
def test_a_revolver_takes_one_off_the_village_respect_roll(held, line):
    """EX-R-REVOLVER-01 (Reading EX-DIE-06: on the die as printed): a
    Respect-roll of 7 against 6 Askaris is 6 with a Revolver and the Village
    respects the expedition; without it, 7 and the Village steals."""
    st = game(*held, at="River Bend")
    move(st, "River Mouth")
    roll(st, 7)
    assert line in texts(st)


@pytest.mark.parametrize("held, porters", [(("Revolver",), 8), ((), 7)])
def test_a_revolver_takes_one_off_the_porter_desertion_roll(held, porters):
    """EX-R-REVOLVER-02: at Discontent 4 the Porters stay on 6 or less; a
    Porter desertion roll of 7 is 6 with a Revolver (all stay), 7 without
    (one deserts)."""
    st = game(*held, discontent=4)
    move(st, "Thorn Scrub")
    roll(st, 6, 7, 1)                     # Grumbling; Porter roll 7; Askari roll 1
    assert st.stat("porters", 0) == porters
    assert st.stat("askaris", 0) == 6


@pytest.mark.parametrize("held, askaris", [(("Revolver",), 6), ((), 5)])
def test_a_revolver_takes_one_off_the_askari_desertion_roll(held, askaris):
    """EX-R-REVOLVER-03: at Discontent 4 an Askari desertion roll of 7 is 6
    with a Revolver (all stay), 7 without (one deserts)."""
    st = game(*held, discontent=4)
    move(st, "Thorn Scrub")
    roll(st, 6, 1, 7)                     # Grumbling; Porter roll 1; Askari roll 7
    assert st.stat("askaris", 0) == askaris
    assert st.stat("porters", 0) == 8


# ================================================================ Machete, Pickax, Canteen

@pytest.mark.parametrize("held, time", [(("Machete",), 10), ((), 8)])
def test_exploring_jungle_costs_no_time_with_a_machete(held, time):
    """EX-R-MACHETE-01: exploring the Rainforest (Jungle, 2 Time) costs no
    Time with a Machete; without it, Time 10 -> 8."""
    st = game(*held, at="Rainforest")
    assert st.stat("time", 0) == 10
    answer(st, "Explore")
    assert st.stat("time", 0) == time
    assert st.stat("points", 0) == 2


@pytest.mark.parametrize("held, offered_too", [(("Pickax",), True), ((), False)])
def test_a_pickax_lets_the_expedition_enter_an_impassable_slot(held, offered_too):
    """EX-R-PICKAX-01: from the Hill Kingdom, Granite Scarp (behind an
    Impassable) is a move offered only with a Pickax, and the move is made."""
    st = game(*held, at="Hill Kingdom")
    answer(st, "Move")
    dests = offered(st)
    assert {"Salt Pan", "Lookout Rock", "West Shore"} <= set(dests)
    assert ("Granite Scarp" in dests) is offered_too
    if offered_too:
        answer(st, "Granite Scarp")
        assert st.stat("at", 0) == SLOTS.index("Granite Scarp")


@pytest.mark.parametrize("held, time", [(("Canteen",), 10), ((), 8)])
def test_exploring_desert_costs_no_time_with_a_canteen(held, time):
    """EX-R-CANTEEN-01: exploring Red Sands (Desert, 2 Time) costs no Time
    with a Canteen; without it, Time 10 -> 8."""
    st = game(*held, at="Red Sands")
    answer(st, "Explore")
    assert st.stat("time", 0) == time
    assert st.stat("points", 0) == 2


@pytest.mark.parametrize("held, dice, health", [
    (("Canteen",), (3,), 5),      # the Canteen's d6 of 1-3 escapes the Thirst
    (("Canteen",), (4,), 4),      # 4-6 does not
    ((), (), 4)])                 # no Canteen: no chance
def test_a_canteen_gives_a_chance_to_escape_thirst(held, dice, health):
    """EX-R-CANTEEN-02 (designed chance, a d6 of 1 to 3): Thirst in Red
    Sands costs 1 Health unless the Canteen's d6 escapes it."""
    st = game(*held, at="Thorn Scrub")
    move(st, "Red Sands")
    roll(st, 1, *dice)                    # Thirst; the Canteen's d6
    assert st.stat("health", 0) == health
    assert at_player_turn(st, 0)


# ================================================================ Canoes

@pytest.mark.parametrize("held", [("Canoes",), ()])
def test_canoes_cross_the_rapids(held):
    """EX-R-CANOES-01: the rapids between Upper River and West Shore are a
    blocked border: West Shore is offered from Upper River only with Canoes,
    and they cross it (a border with water: the Canoes are kept)."""
    st = game(*held, at="Upper River")
    answer(st, "Move")
    dests = offered(st)
    assert {"River Bend", "Lookout Rock", "Deep Forest"} <= set(dests)
    assert ("West Shore" in dests) is bool(held)
    if held:
        answer(st, "West Shore")
        assert st.stat("at", 0) == SLOTS.index("West Shore")
        assert sheet(st) == ["Canoes"]


@pytest.mark.parametrize("held, line", [
    (("Canoes",), "Ambush-roll 6: the Warband is beaten off"),
    ((), "Ambush-roll 9: the Warband strikes")])
def test_canoes_take_three_off_the_ambush_roll(held, line):
    """EX-R-CANOES-02: a Warband at River Bend; an Ambush-roll of 9 is 6
    with Canoes, at or below the 6 Askaris (beaten off); 9 without (it strikes)."""
    st = game(*held, at="River Mouth")
    move(st, "River Bend")
    roll(st, 2, 9, 10)                    # Warband; Ambush-roll; Ammo-roll
    assert line in texts(st)


def test_canoes_give_back_two_sources_in_a_row_and_keep_the_third():
    """EX-R-CANOES-03 (Reading: at most twice running, the third kept):
    exploring Upper River with Canoes, a Dry Channel is given back twice and
    another drawn each time; the third draw is kept without a question."""
    st = game("Canoes", at="Upper River")
    answer(st, "Explore")
    draw(st, "Dry Channel")
    answer(st, "Give the Source back and paddle on (Canoes): yes")
    draw(st, "Dry Channel")
    answer(st, "Give the Source back and paddle on (Canoes): yes")
    draw(st, "Lake Source")
    assert at_player_turn(st, 0)                     # no third give-back
    assert st.pile("found_sources", 0) == ["Lake Source"]
    assert st.pile("sources").count("Dry Channel") == 3
    assert st.stat("points", 0) == 4


def test_without_canoes_the_first_source_drawn_is_kept():
    """EX-R-CANOES-03 (the other side): without Canoes there is no give-back:
    the Dry Channel drawn is kept and scores nothing."""
    st = game(at="Upper River")
    answer(st, "Explore")
    draw(st, "Dry Channel")
    assert at_player_turn(st, 0)
    assert st.pile("found_sources", 0) == ["Dry Channel"]
    assert st.stat("points", 0) == 0


@pytest.mark.parametrize("start, village, water", [
    ("River Bend", "River Mouth", True), ("Thorn Scrub", "Coast Town", False)])
def test_canoes_are_a_village_favour_only_in_a_water_zone(start, village, water):
    """EX-R-CANOES-04: a Village that likes the expedition offers Canoes
    among its favours at River Mouth (the Great River, a Water Zone) but not
    at Coast Town (not one), the pool holding Canoes face up both times."""
    st = game(at=start)
    assert "Canoes" in st.pile("pool")
    move(st, village)
    roll(st, 1)                           # Respect-roll
    if village == "Coast Town":
        roll(st, 6)                       # the Missionary finds no one
    answer(st, "Gifts offered to the Village: 4")
    roll(st, 1)                           # Like-roll
    favours = offered(st)
    assert "Two Porters" in favours and "A Guide" in favours
    assert ("Canoes" in favours) is water
    if water:
        answer(st, "Canoes")
        assert sheet(st) == ["Canoes"] and "Canoes" not in st.pile("pool")


@pytest.mark.parametrize("start, kingdom, water", [
    ("West Shore", "Lake Kingdom", True), ("Lookout Rock", "Hill Kingdom", False)])
def test_canoes_are_a_kings_gift_only_in_a_water_zone(start, kingdom, water):
    """EX-R-CANOES-04: a King offers Canoes at the Lake Kingdom (a Water
    Zone) but not at the Hill Kingdom."""
    st = game(at=start)
    move(st, kingdom)
    answer(st, "Gifts for the King: 5")
    roll(st, 1)
    gifts = offered(st)
    assert "Two Askaris" in gifts
    assert ("Canoes" in gifts) is water


@pytest.mark.parametrize("start, dest, kept", [
    ("Upper River", "Lookout Rock", False),     # a path out of the Great River
    ("Lookout Rock", "Upper River", False),     # a path into it: still no water on the border
    ("River Bend", "Grassland", True),          # out of the Water Zone along a river
    ("Grassland", "Thorn Scrub", True)])        # a path inside one zone: no border crossed
def test_canoes_are_lost_crossing_a_border_with_no_water(start, dest, kept):
    """EX-R-CANOES-05 (Reading: only a waterless border crossing loses
    them) and EX-R-CANOES-06 (lost Canoes go back to the pool face up, not
    to the blank pool)."""
    st = game("Canoes", at=start)
    move(st, dest)
    if kept:
        assert sheet(st) == ["Canoes"]
        assert "the Canoes are left behind at the border" not in texts(st)
    else:
        assert sheet(st) == []
        assert "the Canoes are left behind at the border" in texts(st)
        assert "Canoes" in st.pile("pool")                   # EX-R-CANOES-06
        assert "Canoes" not in st.pile("blank_pool")


# ================================================================ Guide

def guide_turn(time, **stats):
    """Player 0 holds a Guide and moves Coast Town -> Thorn Scrub (1 Time)
    from ``time``; the state waits at the start of its next Player Turn."""
    st = game("Guide", time=time, **stats)
    move(st, "Thorn Scrub")
    roll(st, QUIET)
    return st


def test_the_guide_gives_two_time_at_the_start_of_a_player_turn_with_time_8():
    """EX-R-GUIDE-01: starting a Player Turn with Time 8, the Guide is
    offered and gives +2 Time (8 -> 10)."""
    st = guide_turn(9)
    assert st.stat("time", 0) == 8
    assert labels(st) == GUIDE_ASKED
    answer(st, "yes")
    assert st.stat("time", 0) == 10
    assert at_player_turn(st, 0)
    assert sheet(st) == ["Guide"]


def test_the_guide_is_flipped_when_used_and_not_offered_again_this_game_turn():
    """EX-R-GUIDE-02: using the Guide flips it (guide_used), and at the next
    Player Turn of the same Game Turn, with Time 5, it is not offered."""
    st = guide_turn(9)
    answer(st, "yes")
    assert st.stat("guide_used", 0)
    put(st, 0, time=6)
    move(st, "Grassland")
    roll(st, QUIET)
    assert st.stat("time", 0) == 5
    assert at_player_turn(st, 0)                      # no Guide question
    assert st.round == 1


def test_the_guide_is_not_offered_with_time_9():
    """EX-R-GUIDE-03: starting a Player Turn with Time 9 the Guide is not
    offered (it would take Time above 10)."""
    st = guide_turn(10)
    assert st.stat("time", 0) == 9
    assert at_player_turn(st, 0)
    assert not st.stat("guide_used", 0)


@pytest.mark.parametrize("die, time", [(3, 8), (4, 5)])
def test_the_guide_gives_a_chance_to_escape_being_lost(die, time):
    """EX-R-GUIDE-04 (designed chance, a d6 of 1 to 3): Lost in Red Sands
    costs 3 Time and a Sanity-roll unless the Guide's d6 escapes it."""
    st = game("Guide", at="Thorn Scrub")
    move(st, "Red Sands")                 # Time 10 -> 8
    roll(st, 3, die)                      # Lost; the Guide's d6
    if die > 3:
        roll(st, 6)                       # the Sanity-roll, no harm
        assert "the expedition is lost: Time falls to 5" in texts(st)
    else:
        assert "the way is found again" in texts(st)
    assert st.stat("time", 0) == time
    assert labels(st) == GUIDE_ASKED          # the next Player Turn


def test_a_flipped_guide_still_gives_its_lost_chance():
    """EX-R-GUIDE-02 Reading with EX-R-GUIDE-04: a Guide already used this
    Game Turn still escapes Lost on a d6 of 3."""
    st = game("Guide", at="Thorn Scrub", guide_used=True)
    move(st, "Red Sands")
    roll(st, 3, 3)
    assert "the way is found again" in texts(st)
    assert st.stat("time", 0) == 8


def test_the_guide_is_turned_face_up_at_time_up_and_kept():
    """EX-R-GUIDE-05 (Reading: "returned" is turned face up and kept): a
    Guide used this Game Turn is face up again after Time up, stays on the
    sheet, and is offered again at the first Player Turn of the next Game
    Turn (Health 3: Time 8)."""
    st = guide_turn(9, health=3)
    answer(st, "yes")
    answer(st, "Make camp")
    assert st.round == 2
    assert not st.stat("guide_used", 0)
    assert sheet(st) == ["Guide"] and "Guide" not in st.pile("pool")
    assert st.stat("time", 0) == 8
    assert labels(st)[0] == "Use the Guide: +2 Time: yes"


# ================================================================ Telescope

@pytest.mark.parametrize("held, dest, asked", [
    (("Telescope",), "Lookout Rock", True),     # a diagonal slot
    ((), "Lookout Rock", False),
    (("Telescope",), "Grassland", False)])     # not diagonal
def test_a_telescope_may_bring_one_more_encounter_on_a_diagonal_slot(held, dest, asked):
    """EX-R-TELESCOPE-01 (Reading: optional, each time the expedition enters
    a diagonal slot): entering Lookout Rock with a Telescope offers a second
    Encounter, which rolls on the table again; not without the Telescope,
    nor on a slot that is not diagonal."""
    st = game(*held, at="Thorn Scrub")
    move(st, dest)
    roll(st, QUIET)
    if not asked:
        assert at_player_turn(st, 0)
        return
    assert labels(st) == ["Look through the Telescope: one more Encounter: yes",
                          "Look through the Telescope: one more Encounter: no"]
    answer(st, "yes")
    roll(st, 1)                           # the second Encounter: A Fall
    assert st.stat("porters", 0) == 7
    rolls = [t for t in texts(st) if t.startswith("mountain_encounters: rolled")]
    assert len(rolls) == 2


def test_a_telescope_encounter_may_be_declined():
    """EX-R-TELESCOPE-01 Reading (optional): saying no brings no second Encounter."""
    st = game("Telescope", at="Thorn Scrub")
    move(st, "Lookout Rock")
    roll(st, QUIET)
    answer(st, "no")
    assert at_player_turn(st, 0)
    assert len([t for t in texts(st) if t.startswith("mountain_encounters: rolled")]) == 1


@pytest.mark.parametrize("held, food", [(("Telescope",), 26), ((), 20)])
def test_a_telescope_takes_one_off_the_hunting_success_roll(held, food):
    """EX-R-TELESCOPE-02: a hunt at Thorn Scrub with a Success-roll of 7
    against 6 Askaris (Ammo equal: no modifier) is 6 with a Telescope and
    succeeds (a Food-roll of 3: 6 Food); without, it fails."""
    st = hunt_at_thorn_scrub(*held)
    roll(st, 7, 10)                       # Success-roll; Ammo-roll
    if held:
        roll(st, 3)                       # Food-roll
    assert st.stat("food", 0) == food
    assert at_player_turn(st, 0)


@pytest.mark.parametrize("held, line", [
    (("Telescope",), "the ivory hunt succeeds"), ((), "the elephants get away")])
def test_a_telescope_takes_one_off_the_tusk_hunting_roll(held, line):
    """EX-R-TELESCOPE-02 (designed: a Tusk Encounter is a hunting
    Success-roll): a roll of 7 against 6 Askaris succeeds only with a
    Telescope, which then brings a random Resource from the blank pool."""
    st = game(*held)
    move(st, "Thorn Scrub")
    roll(st, 3, 7, 10)                    # Tusk; Success-roll; Ammo-roll
    assert line in texts(st)
    if held:
        draw(st, "Fishing")
        assert sheet(st) == ["Fishing", "Telescope"]


# ================================================================ Surveying

@pytest.mark.parametrize("dice, time", [((2,), 8), ((3, 6), 5)])
def test_surveying_gives_a_chance_to_escape_being_lost(dice, time):
    """EX-R-SURVEYING-03 (designed chance, a d6 of 1 or 2): Lost in Red Sands
    is escaped with Surveying on a 2; on a 3 it costs 3 Time and a
    Sanity-roll (here 6, no harm)."""
    st = game("Surveying", at="Thorn Scrub")
    move(st, "Red Sands")
    roll(st, 3, *dice)
    assert st.stat("time", 0) == time
    assert at_player_turn(st, 0)


def test_guide_and_surveying_are_two_separate_chances():
    """EX-R-SURVEYING-03 Reading (two separate tries): the Guide's d6 of 4
    fails, then the Surveying's d6 of 2 escapes the Lost."""
    st = game("Guide", "Surveying", at="Thorn Scrub")
    move(st, "Red Sands")
    roll(st, 3, 4, 2)                     # Lost; Guide fails; Surveying escapes
    assert "the way is found again" in texts(st)
    assert st.stat("time", 0) == 8
    assert labels(st) == GUIDE_ASKED          # the next Player Turn


def test_without_guide_or_surveying_lost_has_no_escape():
    """EX-R-GUIDE-04, EX-R-SURVEYING-03 (the other side): with neither, Lost
    rolls no escape die: 3 Time and straight to the Sanity-roll."""
    st = game(at="Thorn Scrub")
    move(st, "Red Sands")
    roll(st, 3, 1)                        # Lost; the Sanity-roll 1 (lose 1)
    assert st.stat("time", 0) == 5
    assert st.stat("sanity", 0) == 4


# ================================================================ Fishing

@pytest.mark.parametrize("held, discontent", [(("Fishing",), 2), ((), 3)])
def test_fishing_caps_the_discontent_for_missing_food_at_one(held, discontent):
    """EX-R-FISHING-01: at the end of the Game Turn 14 men need 5 Food and
    only 1 is there (fewer than half fed: +2 Discontent); with Fishing the
    rise is 1."""
    st = game(*held, food=1)
    answer(st, "Make camp")
    assert st.round == 2
    assert st.stat("food", 0) == 0
    assert st.stat("discontent", 0) == discontent


@pytest.mark.parametrize("held, start, dest, food", [
    (("Fishing",), "Grassland", "River Bend", 25),     # into the Great River
    (("Fishing",), "River Mouth", "River Bend", 25),   # Reading: water to water counts too
    (("Fishing",), "River Bend", "Grassland", 20),     # out of it: nothing
    ((), "Grassland", "River Bend", 20)])
def test_fishing_brings_five_food_after_a_move_into_a_water_zone(held, start, dest, food):
    """EX-R-FISHING-02 (Reading: any Map Phase move ending in a Water Zone):
    +5 Food with Fishing gear."""
    st = game(*held, at=start)
    move(st, dest)
    roll(st, QUIET)
    assert st.stat("food", 0) == food


def test_the_fishing_catch_is_checked_against_capacity_at_once():
    """EX-R-FISHING-02: the +5 Food is measured against the Porter Capacity
    at once: 36 Food and 10 Gifts (load 40 of 40) become 41 Food (load 50),
    and the discard is asked before the slot's Encounter is rolled."""
    st = game("Fishing", at="Grassland", food=36)
    move(st, "River Bend")
    assert st.current_player == 0
    assert set(offered(st)) == {"Gifts", "Food"}
    answer(st, "Food")
    assert st.stat("food", 0) == 39 and st.stat("gifts", 0) == 10
    assert st.current_player == CHANCE                # now the Encounter
    roll(st, QUIET)
    assert at_player_turn(st, 0)
