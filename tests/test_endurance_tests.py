"""Scenario tests for Endurance: the Tests (Food, Heating, Medical, Morale),
the Penalties and Exhaustion (EN-TEST, EN-FOOD, EN-HEAT, EN-MED, EN-MOR,
EN-PEN, EN-EXH in endurance.checklist.md).

Every die and card is forced (explicit chance mode).  Unless a test says
otherwise a turn is played by ``scenario``: every man is in camp in the
helpers' setup Groups, all Blue except the six auto-pass / storekeeper men
(Orde-Lees, Green, McNish, Macklin, McIlroy, Wild), who are Red so that no
auto-pass or Orde-Lees offer gets in the way; no animal is in play; Group 2
is active.  The Action is ACTION, an Entertain with nothing to entertain
with, which fails at once (EN-ENT-02 reading) and Demoralizes its Penalty
men, Marston (16) and Cheetham (6); then the Test card given is resolved.
"""

from __future__ import annotations

import pytest

from rulelang import CHANCE

from endurance_helpers import (camp_data, CREW, GAME, DOGS, animal, arrange, draw, group_of, in_supply, labels,
                               man, play, roll, setup_game, start_turn_with, supply)

ACTION = "27 Entertain cards / Heating"        # fails at once: Marston (16), Cheetham (6)
RED = ("Orde-Lees", "Green", "McNish", "Macklin", "McIlroy", "Wild")
AUTO_YES = "Flip a man to pass the Test without Resources: yes"
AUTO_NO = "Flip a man to pass the Test without Resources: no"
ORDE_YES = "Flip Orde-Lees to save the Resource: yes"
ORDE_NO = "Flip Orde-Lees to save the Resource: no"

PROPS = GAME.prog.card_props
CARD_ID = GAME.prog.card_by_name
MAIN_CARDS = [n for n in GAME.prog.card_names if n[:2].isdigit()]


# ------------------------------------------------------------------ helpers

def prop(card, name):
    return PROPS.get(name, {}).get(CARD_ID[card])


def crew_by_id():
    st = GAME.new_game(players=1, chance="explicit")
    return {st.piece("crew", n)["id"]: n for n in CREW}


ID = crew_by_id()


def scenario(test_card, supply=(), *, action=ACTION, red=RED, fresh=(), demoralized=(),
             dogs=0, chippy=False, active_group=2, extra_hand=(), **kw):
    """Play a turn up to the first decision of the Test: the Action (ACTION
    by default) has already failed."""
    st = setup_game()
    arrange(st, fresh=CREW, demoralized=red)
    arrange(st, fresh=fresh, demoralized=demoralized)
    start_turn_with(st, hand=[action, test_card, *extra_hand], supply=list(supply), dogs=dogs,
                    chippy=chippy, active_group=active_group, **kw)
    play(st, f"Action: {action}", f"Test: {test_card}")
    return st


def blue(st):
    """Blue men in camp."""
    return sum(1 for n in CREW if man(st, n)["side"] == "fresh" and man(st, n)["place"] == "in_camp")


def side(st, name):
    return man(st, name)["side"]


def place(st, name):
    return man(st, name)["place"]


def at_next_turn(st, group=3):
    """The turn is over: the next Group's turn waits at 'Before drawing'."""
    return (st.current_player == 0 and "Draw the cards" in labels(st)
            and st.stat("active_group") == group and st.pile("in_play") == [])


def counter(st, name):
    s = supply(st, name)
    return (s["at"], s["side"])


def drive(st, stop):
    """Play on with the first offered move, rolling 6 whenever a die is
    rolled, until ``stop(st)`` holds (used only to get through the
    Lifeboats sequence)."""
    for _ in range(2000):
        if stop(st):
            return st
        moves = labels(st)
        st.apply("roll 6" if "roll 6" in moves else moves[0])
    raise AssertionError("did not get there")


def patience_camp_turn(test_card, keep, *, demoralized=(), supply_counters=None):
    """A turn at Ocean Camp in which Patience Camp is drawn and resolved
    (The Endurance Sinks being the Active Event): the player keeps ``keep``
    in the Supply, declines The Hard Choice, then draws ACTION and
    ``test_card`` and picks them.  Returns the state at the Test's first
    decision."""
    st = setup_game()
    arrange(st, fresh=CREW, demoralized=RED)
    arrange(st, demoralized=demoralized)
    arrange(st, hand=[], main=["Patience Camp", ACTION, test_card], active=["The Endurance Sinks"],
            supply=supply_counters if supply_counters is not None else list(keep), dogs=0,
            chippy=False, active_group=2)
    play(st, "Draw the cards")
    draw(st, "Patience Camp")
    st.apply(labels(st)[0])                            # the Event Deck's card to the Discards
    for name in keep:
        play(st, name)
    assert in_supply(st) == sorted(keep)                 # the rest went to Ocean Camp
    play(st, "Shuffle The Hard Choice into the Deck: no")
    draw(st, ACTION, test_card)
    play(st, f"Action: {ACTION}", f"Test: {test_card}")
    return st


# ------------------------------------------------------------------ Tests general

def test_test_01_four_tests_and_the_card_decides():
    """EN-TEST-01: every card's Test is one of Food, Heating, Medical and
    Morale (all four occur), and with the same Supply (one Blubber) the Test
    card picked decides what is asked: Heating passes, Food and Medical fail
    (Medical injuring), Morale counts the Blue men."""
    assert {prop(c, "tests") for c in MAIN_CARDS} == {"food", "heating", "medical", "morale"}
    assert len(MAIN_CARDS) == 40

    st = scenario("17 Sled / Heating", ["Blubber 1"])     # Penalty men Vincent, Stephenson
    play(st, "Blubber 1")
    roll(st, 6)
    assert at_next_turn(st)
    assert side(st, "Vincent") == "fresh" and side(st, "Stephenson") == "fresh"

    st = scenario("01 Hunt 1 / Food P", ["Blubber 1"])    # McNish, Wild (both Red)
    assert at_next_turn(st)
    assert place(st, "McNish") == "infirmary" and place(st, "Wild") == "infirmary"
    assert counter(st, "Blubber 1") == ("in_supply", "plain")

    st = scenario("29 Sled / Medical", ["Blubber 1"])     # Vincent, McLeod (both Blue)
    assert at_next_turn(st)
    assert place(st, "Vincent") == "infirmary" and place(st, "McLeod") == "infirmary"

    st = scenario("05 Sled / Morale", ["Blubber 1"], demoralized=["Clark", "Kerr", "Rickinson",
                                                                  "Hussey", "How", "Holness"])
    assert blue(st) == 13
    assert at_next_turn(st)                               # no Exhaustion die: nothing used
    assert side(st, "Vincent") == "fresh" and side(st, "Blackborow") == "fresh"


def test_test_02_resources_stay_and_each_is_checked():
    """EN-TEST-02: a passed Food Test leaves the Pemmican and Meat it used
    (and the Blubber that cooked) in the Supply; each used counter gets one
    Exhaustion die, and an unused counter gets none."""
    st = scenario("13 Hunt 1 red / Food PM", ["Pemmican 1", "Meat 1", "Blubber 1", "Blubber 2"])
    play(st, "Meat", "Meat 1", "Pemmican", "Pemmican 1", "Blubber 2")
    assert st.current_player == CHANCE
    roll(st, 6, 6, 6)                                     # Pemmican 1, Meat 1, Blubber 2
    assert at_next_turn(st)
    assert in_supply(st) == ["Blubber 1", "Blubber 2", "Meat 1", "Pemmican 1"]
    assert all(counter(st, n) == ("in_supply", "plain") for n in in_supply(st))
    # With 1s every used counter is Exhausted: Meat 1 turns striped and
    # stays, the striped Pemmican 1 and Blubber 2 are removed (as tuned, a
    # plain Pemmican or Blubber is never Exhausted); Blubber 1, striped too
    # but not used, stays.
    st = scenario("13 Hunt 1 red / Food PM", ["Pemmican 1", "Meat 1", "Blubber 1", "Blubber 2"],
                  striped=["Pemmican 1", "Blubber 1", "Blubber 2"])
    play(st, "Meat", "Meat 1", "Pemmican", "Pemmican 1", "Blubber 2")
    roll(st, 1, 1, 1)
    assert at_next_turn(st)
    assert [counter(st, n) for n in ("Pemmican 1", "Meat 1", "Blubber 1", "Blubber 2")] == \
        [("removed", "striped"), ("in_supply", "striped"), ("in_supply", "striped"),
         ("removed", "striped")]
    assert in_supply(st) == ["Blubber 1", "Meat 1"]


def test_test_03_auto_pass_man_anywhere_in_camp():
    """EN-TEST-03: the named man flips Blue to Red to pass the Test without
    Resources; reading: he may be any Blue man in camp, here Green (19) in
    Group 4 while Group 2 is active.  No Resource is used or checked."""
    st = scenario("01 Hunt 1 / Food P", ["Blubber 1"], fresh=["Green", "McNish", "Wild"])
    assert man(st, "Green")["group"] == 4 and st.stat("active_group") == 2
    play(st, AUTO_YES, "Green")
    assert side(st, "Green") == "demoralized"
    assert at_next_turn(st)                               # no Exhaustion die
    assert side(st, "McNish") == "fresh" and side(st, "Wild") == "fresh"
    assert counter(st, "Blubber 1") == ("in_supply", "plain")
    # Not offered when the man is Red, nor when he is in the Infirmary.
    st = scenario("01 Hunt 1 / Food P", [], fresh=["McNish", "Wild"])
    assert AUTO_YES not in labels(st) and at_next_turn(st)
    st = scenario("01 Hunt 1 / Food P", [], fresh=["McNish", "Wild"], infirmary=["Green"])
    assert AUTO_YES not in labels(st) and at_next_turn(st)
    assert side(st, "McNish") == "demoralized"


def test_test_04_unmet_test_fails_with_both_penalties():
    """EN-TEST-04: a Heating Test with no Blubber, whose auto-pass man
    (McNish) is declined, fails: both Penalty men, Vincent (20) and
    Stephenson (24), are Demoralized."""
    st = scenario("17 Sled / Heating", ["Pemmican 1"], fresh=["McNish"])
    play(st, AUTO_NO)
    assert at_next_turn(st)
    assert side(st, "Vincent") == "demoralized" and side(st, "Stephenson") == "demoralized"
    assert side(st, "McNish") == "fresh"
    assert counter(st, "Pemmican 1") == ("in_supply", "plain")


# ------------------------------------------------------------------ Food

def test_food_01_pictured_resources_needed():
    """EN-FOOD-01: a Food Test needs the pictured Resources: card 11 (one
    Pemmican, one Canned Goods) passes with both and fails with the Pemmican
    alone.  Data: every Food card's icons agree with its name."""
    for card in MAIN_CARDS:
        if prop(card, "tests") == "food":
            letters = card.split("Food ")[1]
            assert (prop(card, "pemmican"), prop(card, "canned"), prop(card, "meat")) == \
                (letters.count("P"), letters.count("C"), letters.count("M")), card
    st = scenario("11 Sled / Food PC", ["Pemmican 1", "Canned Goods 1"])  # Vincent, McIlroy
    play(st, "Canned Goods", "Canned Goods 1", "Pemmican", "Pemmican 1")
    roll(st, 6, 6)
    assert at_next_turn(st)
    assert side(st, "Vincent") == "fresh" and place(st, "McIlroy") == "in_camp"

    st = scenario("11 Sled / Food PC", ["Pemmican 1", "Blubber 1"])
    assert at_next_turn(st)
    assert side(st, "Vincent") == "demoralized" and place(st, "McIlroy") == "infirmary"


def test_food_02_double_icon_needs_two():
    """EN-FOOD-02: card 08's two Pemmican icons need two Pemmican: one
    fails, two pass (two Exhaustion dice)."""
    st = scenario("08 Sled / Food PP", ["Pemmican 1"])    # Orde-Lees, McLeod
    play(st, "Pemmican", "Pemmican 1")
    assert at_next_turn(st)
    assert place(st, "Orde-Lees") == "infirmary" and side(st, "McLeod") == "demoralized"
    assert counter(st, "Pemmican 1") == ("in_supply", "plain")   # a failed Test uses nothing

    st = scenario("08 Sled / Food PP", ["Pemmican 1", "Pemmican 2"])
    play(st, "Pemmican", "Pemmican 1", "Pemmican", "Pemmican 2")
    roll(st, 6, 6)
    assert at_next_turn(st)
    assert place(st, "Orde-Lees") == "in_camp" and side(st, "McLeod") == "fresh"


def test_food_03_double_canned_counts_two():
    """EN-FOOD-03: the double Canned Goods counter pays both Canned icons of
    card 18 on its own; a single-can counter alone does not."""
    assert supply(setup_game(), "Canned Goods double")["cans"] == 2
    st = scenario("18 Entertain cards / Food CC", ["Canned Goods double"])  # Hudson, Worsley
    play(st, "Canned Goods", "Canned Goods double")
    play(st, "Canned Goods")                              # its second can pays the second icon
    assert st.current_player == CHANCE                    # nothing left to pay
    roll(st, 6)
    assert at_next_turn(st)
    assert side(st, "Hudson") == "fresh" and side(st, "Worsley") == "fresh"

    st = scenario("18 Entertain cards / Food CC", ["Canned Goods 1"])
    play(st, "Canned Goods", "Canned Goods 1")
    assert at_next_turn(st)
    assert side(st, "Hudson") == "demoralized" and side(st, "Worsley") == "demoralized"


@pytest.mark.parametrize("card,men", [("16 Hunt 2 / Food CM", ("Hurley", "Kerr")),
                                      ("21 Entertain cards / Food MM", ("Marston", "Holness"))])
def test_food_03_double_canned_is_two_cans_for_substitution(card, men):
    """EN-FOOD-03, EN-FOOD-08: the double counter "counts as two" Canned
    Goods, so on card 16 (Canned + Meat) one can pays the Canned icon and
    the other stands in for the Meat (1 Canned Good for 1 Meat); on card 21
    (two Meat) each can stands in for one Meat.  The Test passes."""
    st = scenario(card, ["Canned Goods double"])
    for _ in range(6):
        if st.current_player != 0 or at_next_turn(st):
            break
        moves = labels(st)
        play(st, "Canned Goods double" if "Canned Goods double" in moves else "Canned Goods")
    while st.current_player == CHANCE:
        roll(st, 6)
    assert at_next_turn(st)
    top, bottom = men
    assert place(st, top) == "in_camp" and side(st, bottom) == "fresh"


def test_food_04_meat_cooked_by_one_blubber():
    """EN-FOOD-04: two Meat with no Blubber fail card 21; with two Blubber
    in the Supply only one is burnt to cook both Meat (three Exhaustion
    dice, the other Blubber untouched: both Blubber striped here, the one
    burnt is removed on a 1, the other stays)."""
    st = scenario("21 Entertain cards / Food MM", ["Meat 1", "Meat 2"])     # Marston, Holness
    play(st, "Meat", "Meat 1", "Meat", "Meat 2")
    assert at_next_turn(st)
    assert place(st, "Marston") == "infirmary" and side(st, "Holness") == "demoralized"

    st = scenario("21 Entertain cards / Food MM", ["Meat 1", "Meat 2", "Blubber 1", "Blubber 2"],
                  striped=["Blubber 1", "Blubber 2"])
    play(st, "Meat", "Meat 1", "Meat", "Meat 2")
    assert labels(st) == ["Blubber 1", "Blubber 2"]       # "Cook with": one Blubber
    play(st, "Blubber 1")
    roll(st, 1, 1, 1)                                     # Meat 1, Meat 2, Blubber 1
    assert at_next_turn(st)
    assert [counter(st, n) for n in ("Meat 1", "Meat 2", "Blubber 1", "Blubber 2")] == \
        [("in_supply", "striped"), ("in_supply", "striped"), ("removed", "striped"),
         ("in_supply", "striped")]
    assert place(st, "Marston") == "in_camp" and side(st, "Holness") == "fresh"


def test_food_05_two_pemmican_for_a_meat():
    """EN-FOOD-05: two Pemmican pay card 06's Meat icon, and being no Meat
    they need no cooking (no Blubber in the Supply)."""
    st = scenario("06 Entertain book / Food M", ["Pemmican 1", "Pemmican 2"])  # Hudson, Cheetham
    assert labels(st) == ["Two Pemmican"]
    play(st, "Two Pemmican", "Pemmican 1", "Pemmican 2")
    roll(st, 6, 6)
    assert at_next_turn(st)
    assert side(st, "Hudson") == "fresh"
    # One Pemmican is not enough for the Meat icon.
    st = scenario("06 Entertain book / Food M", ["Pemmican 1"])
    assert at_next_turn(st) and side(st, "Hudson") == "demoralized"


def test_food_06_two_meat_for_a_canned_good():
    """EN-FOOD-06: two Meat (cooked) pay card 03's Canned Goods icon; one
    Meat cannot."""
    st = scenario("03 Entertain book / Food C", ["Meat 1", "Meat 2", "Blubber 1"])  # Marston, Hussey
    assert labels(st) == ["Two Meat"]
    play(st, "Two Meat", "Meat 1", "Meat 2", "Blubber 1")
    roll(st, 6, 6, 6)
    assert at_next_turn(st)
    assert side(st, "Hussey") == "fresh"

    st = scenario("03 Entertain book / Food C", ["Meat 1", "Blubber 1"])
    assert at_next_turn(st) and side(st, "Hussey") == "demoralized"


def test_food_07_meat_for_pemmican():
    """EN-FOOD-07: one (cooked) Meat pays card 01's Pemmican icon."""
    st = scenario("01 Hunt 1 / Food P", ["Meat 1", "Blubber 1"])   # McNish, Wild
    assert labels(st) == ["Meat"]
    play(st, "Meat", "Meat 1", "Blubber 1")
    roll(st, 6, 6)
    assert at_next_turn(st)
    assert place(st, "McNish") == "in_camp" and place(st, "Wild") == "in_camp"


def test_food_08_canned_good_for_meat():
    """EN-FOOD-08: one Canned Good pays card 06's Meat icon (and needs no
    cooking); Canned Goods cannot pay a Pemmican icon."""
    st = scenario("06 Entertain book / Food M", ["Canned Goods 1"])
    assert labels(st) == ["Canned Goods"]
    play(st, "Canned Goods", "Canned Goods 1")
    roll(st, 6)
    assert at_next_turn(st)
    assert side(st, "Hudson") == "fresh"

    st = scenario("01 Hunt 1 / Food P", ["Canned Goods 1"])
    assert at_next_turn(st) and place(st, "McNish") == "infirmary"


def test_food_09_substituting_meat_must_be_cooked():
    """EN-FOOD-09: Meat standing in for Pemmican (card 01) or for Canned
    Goods (card 03) still needs a Blubber to cook it: without one the Test
    fails."""
    st = scenario("01 Hunt 1 / Food P", ["Meat 1"])
    play(st, "Meat", "Meat 1")
    assert at_next_turn(st)
    assert place(st, "McNish") == "infirmary" and place(st, "Wild") == "infirmary"
    assert counter(st, "Meat 1") == ("in_supply", "plain")

    st = scenario("03 Entertain book / Food C", ["Meat 1", "Meat 2"])
    play(st, "Two Meat", "Meat 1", "Meat 2")
    assert at_next_turn(st)
    assert side(st, "Hussey") == "demoralized"

    st = scenario("01 Hunt 1 / Food P", ["Meat 1", "Blubber 1"])
    play(st, "Meat", "Meat 1")
    assert labels(st) == ["Blubber 1"]                    # cooking is asked for


@pytest.mark.parametrize("animals", [dict(dogs=1), dict(chippy=True),
                                     dict(dogs=1, red_dogs=["Dogs A"])])
def test_food_10_animals_eat_one_more(animals):
    """EN-FOOD-10: with a Dog counter (Blue or Red) or Mrs Chippy in play,
    card 01 needs a second Pemmican or Meat: one Pemmican fails, two pass."""
    st = scenario("01 Hunt 1 / Food P", ["Pemmican 1"], **animals)
    play(st, "Pemmican", "Pemmican 1")
    assert at_next_turn(st)
    assert place(st, "McNish") == "infirmary"

    st = scenario("01 Hunt 1 / Food P", ["Pemmican 1", "Pemmican 2"], **animals)
    play(st, "Pemmican", "Pemmican 1")
    assert labels(st) == ["Pemmican"]                     # "Feed the animals"
    play(st, "Pemmican", "Pemmican 2")
    roll(st, 6, 6)
    assert at_next_turn(st)
    assert place(st, "McNish") == "in_camp"
    # Without animals one Pemmican is enough.
    st = scenario("01 Hunt 1 / Food P", ["Pemmican 1"])
    play(st, "Pemmican", "Pemmican 1")
    roll(st, 6)
    assert at_next_turn(st) and place(st, "McNish") == "in_camp"


def test_food_11_no_substitution_for_the_animals():
    """EN-FOOD-11: the animals' extra food must be a Pemmican or a Meat:
    a Canned Good (or two Pemmican standing for Meat) cannot feed them."""
    st = scenario("01 Hunt 1 / Food P", ["Pemmican 1", "Canned Goods 1"], chippy=True)
    play(st, "Pemmican", "Pemmican 1")
    assert at_next_turn(st)                               # no way to feed them: failed
    assert place(st, "McNish") == "infirmary"
    assert counter(st, "Canned Goods 1") == ("in_supply", "plain")

    st = scenario("01 Hunt 1 / Food P", ["Pemmican 1", "Pemmican 2", "Meat 1", "Canned Goods 1",
                                         "Blubber 1"], dogs=2)
    play(st, "Pemmican", "Pemmican 1")
    assert sorted(labels(st)) == ["Meat", "Pemmican"]     # the feed choices: no Canned Goods


def test_food_12_animal_meat_needs_no_cooking():
    """EN-FOOD-12: Meat fed to the Dogs needs no Blubber: card 01 paid with
    a Pemmican, the Dogs fed a Meat, passes with no Blubber in the Supply."""
    st = scenario("01 Hunt 1 / Food P", ["Pemmican 1", "Meat 1"], dogs=2)
    play(st, "Pemmican", "Pemmican 1")
    play(st, "Meat", "Meat 1")
    assert st.current_player == CHANCE                    # no cooking asked
    roll(st, 6, 6)
    assert at_next_turn(st)
    assert place(st, "McNish") == "in_camp" and place(st, "Wild") == "in_camp"


@pytest.mark.parametrize("faces,meat,blubber", [((1, 1), "striped", "removed"),
                                                ((2, 2), "plain", "in_supply"),
                                                ((6, 1), "plain", "removed")])
def test_food_13_cooking_blubber_is_checked_too(faces, meat, blubber):
    """EN-FOOD-13: after a Food Test both the Meat eaten and the Blubber
    that cooked it get an Exhaustion die (as tuned: a plain Meat exhausted
    at 1 or less, the Blubber, striped here, at 1 or less)."""
    st = scenario("06 Entertain book / Food M", ["Meat 1", "Blubber 1"], striped=["Blubber 1"])
    play(st, "Meat", "Meat 1", "Blubber 1")
    roll(st, *faces)
    assert at_next_turn(st)
    assert counter(st, "Meat 1") == ("in_supply", meat)
    assert counter(st, "Blubber 1") == (blubber, "striped")


def test_food_14_green_auto_passes_food_only():
    """EN-FOOD-14: Green (19), Blue, may be flipped to pass a Food Test
    with an empty Supply; he is not offered for a Heating Test."""
    st = scenario("06 Entertain book / Food M", [], fresh=["Green"])
    assert labels(st) == [AUTO_YES, AUTO_NO]
    play(st, AUTO_YES)
    assert labels(st) == ["Green"]
    play(st, "Green")
    assert at_next_turn(st)
    assert side(st, "Green") == "demoralized" and side(st, "Hudson") == "fresh"

    st = scenario("17 Sled / Heating", [], fresh=["Green"])
    assert AUTO_YES not in labels(st) and at_next_turn(st)
    assert side(st, "Green") == "fresh" and side(st, "Vincent") == "demoralized"


# ------------------------------------------------------------------ Heating

def test_heat_01_blubber_against_threshold():
    """EN-HEAT-01: at Ocean Camp (Heat Threshold 1) one Blubber passes the
    Heating Test and none fails it."""
    st = scenario("17 Sled / Heating", ["Blubber 1"])
    play(st, "Blubber 1")
    roll(st, 6)
    assert at_next_turn(st) and side(st, "Vincent") == "fresh"

    st = scenario("17 Sled / Heating", ["Pemmican 1", "Meat 1"])
    assert at_next_turn(st)
    assert side(st, "Vincent") == "demoralized" and side(st, "Stephenson") == "demoralized"


def test_heat_02_threshold_1_at_ocean_2_at_patience():
    """EN-HEAT-02: the Heat Threshold starts at 1 (Ocean Camp); once the
    Patience Camp event is resolved it is 2, so one Blubber fails and two
    pass.  Data: Elephant Island and Rescue are designed at 2 and 1 (as
    tuned; read after the Lifeboats and the James Caird events)."""
    st = setup_game()
    assert (st.stat("camp"), camp_data(st)["heat"]) == ("ocean_camp", 1)

    st = patience_camp_turn("17 Sled / Heating", ["Blubber 1", "Pemmican 1", "Pemmican 2",
                                                  "Meat 1"],
                            supply_counters=["Blubber 1", "Blubber 2", "Pemmican 1",
                                             "Pemmican 2", "Meat 1"])
    assert (st.stat("camp"), camp_data(st)["heat"]) == ("patience_camp", 2)
    assert counter(st, "Blubber 2") == ("on_ocean_camp", "plain")
    assert at_next_turn(st)                               # one Blubber: failed
    assert side(st, "Vincent") == "demoralized"

    st = patience_camp_turn("17 Sled / Heating", ["Blubber 1", "Blubber 2", "Pemmican 1",
                                                  "Meat 1"],
                            supply_counters=["Blubber 1", "Blubber 2", "Pemmican 1",
                                             "Pemmican 2", "Meat 1"])
    play(st, "Blubber 1", "Blubber 2")
    roll(st, 6, 6)
    assert at_next_turn(st) and side(st, "Vincent") == "fresh"

    assert later_thresholds() == {"elephant_island": (2, 8), "rescue": (1, 4)}


def later_thresholds():
    """Play the Lifeboats event (all boats come through) and then the Voyage
    of the James Caird; return the Heat and Morale Thresholds each leaves."""
    out = {}
    st = setup_game()
    arrange(st, hand=[], main=["Lifeboats", ACTION, "17 Sled / Heating"],
            active=["Patience Camp"], supply=["Blubber 1"])
    st.set_stat("camp", "patience_camp")
    play(st, "Draw the cards")
    draw(st, "Lifeboats")
    drive(st, lambda s: s.current_player == 0 and labels(s)[0].startswith("Action"))
    assert not st.is_over
    out[st.stat("camp")] = (camp_data(st)["heat"], camp_data(st)["morale"])
    # The Voyage of the James Caird, drawn at the start of a later turn.
    drive(st, lambda s: s.current_player == 0 and "Draw the cards" in labels(s))
    arrange(st, hand=[], main=["Voyage of the James Caird", ACTION, "17 Sled / Heating"])
    play(st, "Draw the cards")
    draw(st, "Voyage of the James Caird")
    drive(st, lambda s: s.current_player == 0 and labels(s)[0].startswith("Action"))
    out[st.stat("camp")] = (camp_data(st)["heat"], camp_data(st)["morale"])
    return out


def test_heat_03_each_burnt_blubber_is_checked():
    """EN-HEAT-03: at Patience Camp (threshold 2) the two Blubber burnt each
    get an Exhaustion die; a third Blubber in the Supply gets none (all
    three striped: a 1 removes a burnt one)."""
    st = setup_game()
    st.set_stat("camp", "patience_camp")
    arrange(st, fresh=CREW, demoralized=RED)
    start_turn_with(st, hand=[ACTION, "17 Sled / Heating"], supply=["Blubber 1", "Blubber 2",
                                                                    "Blubber 3"],
                    striped=["Blubber 1", "Blubber 2", "Blubber 3"],
                    dogs=0, chippy=False, active_group=2)
    play(st, f"Action: {ACTION}", "Test: 17 Sled / Heating")
    play(st, "Blubber 3", "Blubber 1")
    roll(st, 1)                                           # Blubber 1
    roll(st, 1)                                           # Blubber 3
    assert at_next_turn(st)
    assert [counter(st, n) for n in ("Blubber 1", "Blubber 2", "Blubber 3")] == \
        [("removed", "striped"), ("in_supply", "striped"), ("removed", "striped")]


def test_heat_04_mcnish_auto_passes_heating():
    """EN-HEAT-04: McNish (18), Blue, may be flipped to pass a Heating Test
    with no Blubber; no Blubber or die is used and the Penalty men are
    spared."""
    st = scenario("17 Sled / Heating", [], fresh=["McNish"])
    play(st, AUTO_YES, "McNish")
    assert at_next_turn(st)
    assert side(st, "McNish") == "demoralized"
    assert side(st, "Vincent") == "fresh" and side(st, "Stephenson") == "fresh"


# ------------------------------------------------------------------ Medical

@pytest.mark.parametrize("face,after", [(1, "striped"), (2, "plain")])
def test_med_01_medical_supplies_pass_and_are_checked(face, after):
    """EN-MED-01: the Medical Supplies in the Supply pass a Medical Test and
    then get an Exhaustion die (exhausted at 1 or less, as tuned)."""
    st = scenario("29 Sled / Medical", ["Medical Supplies 1", "Blubber 1"])  # Vincent, McLeod
    play(st, "Medical Supplies 1")
    roll(st, face)
    assert at_next_turn(st)
    assert counter(st, "Medical Supplies 1") == ("in_supply", after)
    assert counter(st, "Blubber 1") == ("in_supply", "plain")
    assert place(st, "Vincent") == "in_camp" and side(st, "Vincent") == "fresh"
    # Without them the Test fails.
    st = scenario("29 Sled / Medical", ["Blubber 1"])
    assert at_next_turn(st) and place(st, "Vincent") == "infirmary"


def test_med_02_failed_medical_injures():
    """EN-MED-02: a failed Medical Test Injures its Penalty men instead of
    Demoralizing them.  Reading: a Fresh man (Vincent) and a Demoralized
    man (McLeod) both go straight to the Infirmary, Red side up; an Injured
    man rolls to survive; a dead man's Penalty Demoralizes a Fresh man."""
    st = scenario("29 Sled / Medical", [], demoralized=["McLeod"])
    assert at_next_turn(st)
    for name in ("Vincent", "McLeod"):
        assert (place(st, name), side(st, name), man(st, name)["group"]) == \
            ("infirmary", "demoralized", 0)
    # Vincent already Injured (Red skill 6): a 6 keeps him; McLeod dead: pick a Fresh man.
    st = scenario("29 Sled / Medical", [], infirmary=["Vincent"], dead=["McLeod"])
    roll(st, 6)
    assert place(st, "Vincent") == "infirmary"
    assert "Worsley" in labels(st) and "Wild" not in labels(st)
    play(st, "Worsley")
    assert at_next_turn(st)
    assert side(st, "Worsley") == "demoralized" and place(st, "Worsley") == "in_camp"
    st = scenario("29 Sled / Medical", [], infirmary=["Vincent"], demoralized=["McLeod"])
    roll(st, 5)
    assert place(st, "Vincent") == "dead" and place(st, "McLeod") == "infirmary"
    # The same men on a failed Heating Test (17: Vincent, Stephenson) are only Demoralized.
    st = scenario("17 Sled / Heating", [])
    assert side(st, "Vincent") == "demoralized" and place(st, "Vincent") == "in_camp"


@pytest.mark.parametrize("who", ["Macklin", "McIlroy"])
def test_med_03_surgeons_auto_pass_medical(who):
    """EN-MED-03: Macklin (9) or McIlroy (10), Blue, may be flipped to pass
    a Medical Test without the Medical Supplies; either may be picked."""
    st = scenario("29 Sled / Medical", [], fresh=["Macklin", "McIlroy"])
    play(st, AUTO_YES)
    assert sorted(labels(st)) == ["Macklin", "McIlroy"]
    play(st, who)
    assert at_next_turn(st)
    other = "McIlroy" if who == "Macklin" else "Macklin"
    assert side(st, who) == "demoralized" and side(st, other) == "fresh"
    assert place(st, "Vincent") == "in_camp" and place(st, "McLeod") == "in_camp"
    # One surgeon Blue is enough to be offered.
    st = scenario("29 Sled / Medical", [], fresh=[who])
    play(st, AUTO_YES, who)
    assert at_next_turn(st) and place(st, "Vincent") == "in_camp"


# ------------------------------------------------------------------ Morale

SIX = ["Clark", "Kerr", "Rickinson", "Hussey", "How", "Holness"]


def test_mor_01_blue_men_against_threshold():
    """EN-MOR-01: at Ocean Camp 13 Blue men pass the Morale Test, using no
    Resource (no Exhaustion die); 12 fail it.  Reading: Blue animals do not
    count."""
    st = scenario("05 Sled / Morale", ["Pemmican 1"], demoralized=SIX)   # Vincent, Blackborow
    assert blue(st) == 13
    assert at_next_turn(st)
    assert side(st, "Vincent") == "fresh" and side(st, "Blackborow") == "fresh"
    assert counter(st, "Pemmican 1") == ("in_supply", "plain")

    st = scenario("05 Sled / Morale", ["Pemmican 1"], demoralized=SIX + ["McLeod"],
                  dogs=4, chippy=True)
    assert blue(st) == 10               # 12 at the Test, then its two Penalty men
    assert all(animal(st, d)["side"] == "blue" and animal(st, d)["present"] for d in DOGS)
    assert at_next_turn(st)
    assert side(st, "Vincent") == "demoralized" and side(st, "Blackborow") == "demoralized"


def test_mor_01_shackleton_does_not_count():
    """EN-MOR-01 (reading): Shackleton does not count as a Blue man: with
    12 Blue men the Test fails even with Group 1 (his Group) active."""
    st = scenario("05 Sled / Morale", [], demoralized=SIX + ["McLeod"], active_group=1)
    assert blue(st) == 10               # 12 at the Test, then its two Penalty men
    assert st.stat("active_group") == 2                   # the turn has moved on
    assert side(st, "Vincent") == "demoralized"


def test_mor_02_threshold_13_at_ocean_15_at_patience():
    """EN-MOR-02: the Morale Threshold starts at 13 (Ocean Camp); after the
    Patience Camp event 14 Blue men fail and 15 pass.  Data: Elephant Island
    8, Rescue 4 (designed, as tuned)."""
    st = setup_game()
    assert camp_data(st)["morale"] == 13
    keep = ["Pemmican 1", "Pemmican 2", "Meat 1", "Blubber 1"]
    st = patience_camp_turn("05 Sled / Morale", keep, demoralized=SIX[:4])
    assert camp_data(st)["morale"] == 15 and blue(st) == 15
    assert at_next_turn(st)
    assert side(st, "Vincent") == "fresh"

    st = patience_camp_turn("05 Sled / Morale", keep, demoralized=SIX[:5])
    assert blue(st) == 12               # 14 at the Test, then its two Penalty men
    assert at_next_turn(st)
    assert side(st, "Vincent") == "demoralized"

    assert {k: v[1] for k, v in later_thresholds().items()} == {"elephant_island": 8, "rescue": 4}


def test_mor_03_wild_auto_passes_morale():
    """EN-MOR-03: Wild (1), Blue and in Group 1 while Group 2 is active, may
    be flipped to pass a Morale Test that far too few Blue men would fail."""
    st = scenario("05 Sled / Morale", [], fresh=["Wild"], demoralized=SIX + ["McLeod", "Worsley"])
    assert blue(st) < 13 and man(st, "Wild")["group"] == 1
    play(st, AUTO_YES, "Wild")
    assert at_next_turn(st)
    assert side(st, "Wild") == "demoralized"
    assert side(st, "Vincent") == "fresh" and side(st, "Blackborow") == "fresh"
    # Declined, the same Test fails.
    st = scenario("05 Sled / Morale", [], fresh=["Wild"], demoralized=SIX + ["McLeod", "Worsley"])
    play(st, AUTO_NO)
    assert at_next_turn(st) and side(st, "Vincent") == "demoralized"


# ------------------------------------------------------------------ Penalties

def test_pen_01_both_penalties_top_first():
    """EN-PEN-01: a failed Test resolves both Penalties, top first: with
    McNish (top of card 01) and Wild (bottom) both Injured, the first
    survival die is McNish's (a 1 kills him) and the second Wild's (a 6
    saves him)."""
    st = scenario("01 Hunt 1 / Food P", [], infirmary=["McNish", "Wild"])
    roll(st, 1)
    assert place(st, "McNish") == "dead" and place(st, "Wild") == "infirmary"
    roll(st, 6)
    assert at_next_turn(st)
    assert place(st, "Wild") == "infirmary"
    # And both Penalties of a failed Action: Marston and Cheetham were Blue.
    assert side(st, "Marston") == "demoralized" and side(st, "Cheetham") == "demoralized"


@pytest.mark.parametrize("state,outcome", [
    ("fresh", ("in_camp", "demoralized")),
    ("demoralized", ("infirmary", "demoralized")),
    ("infirmary", ("dead", "demoralized")),
])
def test_pen_02_effect_depends_on_the_man(state, outcome):
    """EN-PEN-02: the same Penalty (Vincent, top of card 17, on a failed
    Heating Test) does a different thing by his state: Fresh → Demoralized,
    Demoralized → Injured, Injured → a survival die (a 1 kills him)."""
    kw = {"fresh": dict(), "demoralized": dict(demoralized=["Vincent"]),
          "infirmary": dict(infirmary=["Vincent"])}[state]
    st = scenario("17 Sled / Heating", [], **kw)
    if state == "infirmary":
        roll(st, 1)
    assert (place(st, "Vincent"), side(st, "Vincent")) == outcome
    assert at_next_turn(st)


def test_pen_03_fresh_man_is_demoralized():
    """EN-PEN-03: a Fresh Penalty man is flipped to Red and stays in his
    Group (Vincent in Group 4, Stephenson in Group 5)."""
    st = scenario("17 Sled / Heating", [])
    assert at_next_turn(st)
    assert (side(st, "Vincent"), place(st, "Vincent"), man(st, "Vincent")["group"]) == \
        ("demoralized", "in_camp", 4)
    assert (side(st, "Stephenson"), man(st, "Stephenson")["group"]) == ("demoralized", 5)
    assert man(st, "Vincent")["skill"] == man(st, "Vincent")["red_skill"] == 6


def test_pen_04_demoralized_man_is_injured():
    """EN-PEN-04: a Demoralized Penalty man leaves his Group for the
    Infirmary."""
    st = scenario("17 Sled / Heating", [], demoralized=["Vincent"])
    assert at_next_turn(st)
    assert (place(st, "Vincent"), man(st, "Vincent")["group"]) == ("infirmary", 0)
    assert group_of(st, 4) == ["Green", "Marston", "McNish", "Orde-Lees"]     # five at the start


@pytest.mark.parametrize("face,where", [(4, "dead"), (5, "infirmary"), (6, "infirmary")])
def test_pen_05_injured_man_rolls_to_survive(face, where):
    """EN-PEN-05: an Injured Penalty man (Hurley, top of card 22, Red Skill
    Level 5) rolls: 5 or more keeps him (in the Infirmary), less kills
    him."""
    assert man(setup_game(), "Hurley")["red_skill"] == 5
    st = scenario("22 Hunt 2 / Heating", [], infirmary=["Hurley"])   # Hurley, Wild
    roll(st, face)
    assert place(st, "Hurley") == where
    assert place(st, "Wild") == "infirmary"              # Wild was Red: Injured
    assert at_next_turn(st)


@pytest.mark.parametrize("face,where", [(5, "dead"), (6, "infirmary")])
def test_pen_06_no_skill_survives_on_a_six(face, where):
    """EN-PEN-06: an Injured man with no Skill Level (Hudson, top of card
    12, no die on his Red side) survives only on a 6."""
    assert man(setup_game(), "Hudson")["red_skill"] is None
    st = scenario("12 Entertain book / Heating", [], infirmary=["Hudson"])  # Hudson, Green
    roll(st, face)
    assert place(st, "Hudson") == where
    assert at_next_turn(st)


def test_pen_07_dead_man_demoralizes_a_fresh_man():
    """EN-PEN-07: a dead Penalty man (Vincent) makes the player Demoralize a
    Fresh man of his choice: only Blue men in camp are offered.  Reading:
    with no Fresh man left, nothing happens."""
    st = scenario("17 Sled / Heating", [], dead=["Vincent"], infirmary=["Worsley"])
    offered = set(labels(st))
    expect = {n for n in CREW if side(st, n) == "fresh" and place(st, n) == "in_camp"}
    assert offered == expect and "Stephenson" in offered
    assert not offered & {"Wild", "Marston", "Worsley", "Vincent"}
    play(st, "Crean")
    assert side(st, "Crean") == "demoralized"
    assert at_next_turn(st)                               # Stephenson's Penalty needs no choice
    assert side(st, "Stephenson") == "demoralized" and place(st, "Vincent") == "dead"
    # Nobody Fresh: the Penalty does nothing (the game then ends in Mutiny).
    st = scenario("17 Sled / Heating", [], red=CREW, dead=["Vincent", "Stephenson"])
    assert "Demoralize instead" not in str(labels(st))
    assert st.is_over and st.result().ending == "Mutiny"
    # Only the Action's Penalty men (Red, so Injured) moved; nobody else changed.
    assert {n for n in CREW if place(st, n) != "in_camp"} == {"Vincent", "Stephenson", "Marston",
                                                              "Cheetham"}
    assert place(st, "Stephenson") == "dead"


def test_pen_08_top_penalty_is_a_difficult_man():
    """EN-PEN-08 (data): every card's top Penalty is McNish, Orde-Lees,
    Marston, Hurley, Vincent or Hudson, each of the six tops some card, and
    every bottom Penalty names a crew ID."""
    tops = {ID[prop(c, "top")] for c in MAIN_CARDS}
    assert tops == {"McNish", "Orde-Lees", "Marston", "Hurley", "Vincent", "Hudson"}
    assert all(prop(c, "bottom") in ID for c in MAIN_CARDS)
    assert ID[18] == "McNish" and ID[17] == "Orde-Lees" and ID[16] == "Marston"
    assert ID[15] == "Hurley" and ID[20] == "Vincent" and ID[5] == "Hudson"


def unchosen_card_turn(**kw):
    """A Patience Camp turn with three cards: ACTION (fails), card 17 for a
    passed Heating Test, and card 07 (McNish 18 / Clark 11) left over."""
    st = setup_game()
    st.set_stat("camp", "patience_camp")
    arrange(st, fresh=CREW, demoralized=RED)
    arrange(st, **kw)
    start_turn_with(st, hand=[ACTION, "17 Sled / Heating", "07 Hunt 1 / Heating"],
                    supply=["Blubber 1", "Blubber 2"], dogs=0, chippy=False, active_group=2)
    play(st, f"Action: {ACTION}", "Test: 17 Sled / Heating", "Blubber 1", "Blubber 2")
    roll(st, 6, 6)
    assert labels(st) == ["Top man", "Bottom man"]
    return st


def test_pen_09_unchosen_card_penalty_same_ladder():
    """EN-PEN-09: the one Penalty paid for an unchosen card follows the same
    ladder: Fresh Clark is Demoralized, Red McNish is Injured, Injured
    Clark (no Red die) dies on a 5, dead McNish makes a Fresh man Red."""
    st = unchosen_card_turn()
    play(st, "Bottom man")
    assert at_next_turn(st) and side(st, "Clark") == "demoralized"
    assert place(st, "McNish") == "in_camp"
    assert "07 Hunt 1 / Heating" in st.pile("discard") and st.pile("hand") == []

    st = unchosen_card_turn()
    play(st, "Top man")
    assert at_next_turn(st) and place(st, "McNish") == "infirmary"
    assert side(st, "Clark") == "fresh"

    st = unchosen_card_turn(infirmary=["Clark"])
    play(st, "Bottom man")
    roll(st, 5)
    assert at_next_turn(st) and place(st, "Clark") == "dead"

    st = unchosen_card_turn(dead=["McNish"])
    play(st, "Top man")
    assert "Clark" in labels(st)
    play(st, "Clark")
    assert at_next_turn(st) and side(st, "Clark") == "demoralized"


# ------------------------------------------------------------------ Exhaustion & Orde-Lees

def test_exh_01_data_red_die_values():
    """EN-EXH-01 (data): the designed red-die values, as tuned: food and
    fuel 0/1 (Meat 1/2, the double Canned Goods 1/2), Medical Supplies 1/2,
    on the normal and striped sides."""
    st = setup_game()
    want = {"Pemmican 1": (0, 1), "Canned Goods 1": (0, 1), "Canned Goods double": (1, 2),
            "Meat 1": (1, 2), "Blubber 1": (0, 1), "Medical Supplies 1": (1, 2),
            "Book": (1, 2), "Playing Cards": (0, 2), "Phonograph": (1, 3), "Rifle": (1, 2)}
    assert {n: (supply(st, n)["wear"], supply(st, n)["worn"]) for n in want} == want


@pytest.mark.parametrize("start,face,after", [
    ("plain", 1, ("in_supply", "striped")),
    ("plain", 2, ("in_supply", "plain")),
    ("striped", 2, ("removed", "striped")),
    ("striped", 3, ("in_supply", "striped")),
])
def test_exh_01_exhausted_at_or_under_the_red_die(start, face, after):
    """EN-EXH-01: Medical Supplies (red die 1 plain, 2 striped, as tuned)
    used for a Medical Test are Exhausted when the die is equal to or less
    than the value on their face-up side, and not otherwise."""
    striped = ["Medical Supplies 1"] if start == "striped" else []
    st = scenario("29 Sled / Medical", ["Medical Supplies 1"], striped=striped)
    play(st, "Medical Supplies 1")
    roll(st, face)
    assert at_next_turn(st)
    assert counter(st, "Medical Supplies 1") == after


def test_exh_02_plain_counter_flips_to_striped():
    """EN-EXH-02: an Exhausted counter on its normal side (Medical
    Supplies, die 1; as tuned a plain Pemmican is never Exhausted) turns
    striped and stays in the Supply."""
    st = scenario("29 Sled / Medical", ["Medical Supplies 1"])
    play(st, "Medical Supplies 1")
    roll(st, 1)
    assert at_next_turn(st)
    assert counter(st, "Medical Supplies 1") == ("in_supply", "striped")


def test_exh_03_striped_counter_is_removed():
    """EN-EXH-03: an Exhausted counter already striped (Pemmican, die 1) is
    removed from the game."""
    st = scenario("01 Hunt 1 / Food P", ["Pemmican 1"], striped=["Pemmican 1"])
    play(st, "Pemmican", "Pemmican 1")
    roll(st, 1)
    assert at_next_turn(st)
    assert supply(st, "Pemmican 1")["at"] == "removed"
    assert in_supply(st) == []


def test_exh_04_action_resources_checked_once_per_counter():
    """EN-EXH-04: a Resource used in an Action (the Book of an Entertain)
    gets its Exhaustion die right after the Action's dice; reading: the
    double Canned Goods counter paying two icons gets one die only."""
    st = setup_game()
    arrange(st, fresh=CREW, demoralized=RED + ("Hussey", "Hurley"))
    start_turn_with(st, hand=["03 Entertain book / Food C", "18 Entertain cards / Food CC"],
                    supply=["Book", "Canned Goods double"], dogs=0, chippy=False,
                    active_group=2, groups={2: ["Cheetham"]})
    play(st, "Action: 03 Entertain book / Food C", "Test: 18 Entertain cards / Food CC")
    play(st, "Book")
    roll(st, 1, 1)                      # Cheetham + the pictured Book's die: two Failures
    assert st.current_player == CHANCE
    roll(st, 1)                         # the Book's Exhaustion die (red die 1)
    assert counter(st, "Book") == ("in_supply", "striped")
    assert side(st, "Marston") == "demoralized"           # the Entertain failed
    play(st, "Canned Goods", "Canned Goods double", "Canned Goods")
    roll(st, 1)                         # its one die (red die 1): Exhausted
    assert at_next_turn(st)
    assert counter(st, "Canned Goods double") == ("in_supply", "striped")


def test_exh_05_orde_lees_saves_a_resource():
    """EN-EXH-05: when an Exhaustion check fails, Blue Orde-Lees (17, in
    Group 4, not the Active Group) may be flipped to save the Resource; he
    is not asked when the check succeeds or when he is Red.  The Pemmican is
    striped (as tuned, a plain one is never Exhausted): saved, it stays;
    not saved, it is removed."""
    red = tuple(n for n in RED if n != "Orde-Lees")
    st = scenario("01 Hunt 1 / Food P", ["Pemmican 1"], red=red, striped=["Pemmican 1"])
    play(st, "Pemmican", "Pemmican 1")
    roll(st, 1)
    assert labels(st) == [ORDE_YES, ORDE_NO]
    play(st, ORDE_YES)
    assert at_next_turn(st)
    assert counter(st, "Pemmican 1") == ("in_supply", "striped")
    assert side(st, "Orde-Lees") == "demoralized"

    st = scenario("01 Hunt 1 / Food P", ["Pemmican 1"], red=red, striped=["Pemmican 1"])
    play(st, "Pemmican", "Pemmican 1")
    roll(st, 1)
    play(st, ORDE_NO)
    assert at_next_turn(st)
    assert counter(st, "Pemmican 1") == ("removed", "striped")
    assert side(st, "Orde-Lees") == "fresh"

    st = scenario("01 Hunt 1 / Food P", ["Pemmican 1"], red=red, striped=["Pemmican 1"])
    play(st, "Pemmican", "Pemmican 1")
    roll(st, 2)                                           # not Exhausted: no question
    assert at_next_turn(st) and side(st, "Orde-Lees") == "fresh"


def test_exh_06_an_event_does_not_bring_back_a_removed_counter():
    """EN-EXH-06: only a Hunt may bring back a removed counter (the
    ruleset's own reading at EN-HUNT-13: "hunting is the one way back"):
    Seal on the Floe, drawn with no Blubber beside the Display and Blubber 4
    removed, must leave Blubber 4 out of the game."""
    st = setup_game()
    arrange(st, hand=[], main=["Seal on the Floe", ACTION, "17 Sled / Heating"],
            supply=["Pemmican 1"], beside=[])
    for n in ("Blubber 1", "Blubber 2", "Blubber 3", "Blubber 5", "Blubber 6"):
        st.set_piece("supplies", n, "at", "on_endurance")
    st.set_piece("supplies", "Blubber 4", "at", "removed")
    play(st, "Draw the cards")
    draw(st, "Seal on the Floe")
    assert st.pile("active") == ["Seal on the Floe"]
    assert supply(st, "Blubber 4")["at"] == "removed"
    assert in_supply(st) == ["Pemmican 1"]


def test_exh_06_removed_resources_stay_lost_except_hunted_food():
    """EN-EXH-06: a Pemmican Exhausted out of the game is not offered by a
    Sled's reward later (only what is on The Endurance is); a Hunt, with no
    Meat left beside the Display, brings back a removed Meat."""
    st = scenario("01 Hunt 1 / Food P", ["Pemmican 1"], striped=["Pemmican 1"])
    play(st, "Pemmican", "Pemmican 1")
    roll(st, 1)
    assert at_next_turn(st) and supply(st, "Pemmican 1")["at"] == "removed"
    # Group 3's turn: a Sled with one Dog; Kerr alone rolls a 6.
    arrange(st, groups={3: ["Kerr"]}, dogs=1, hand=["02 Sled / Heating", "07 Hunt 1 / Heating"],
            supply=["Blubber 1"], on_endurance=["Pemmican 2"])
    play(st, "Draw the cards", "Action: 02 Sled / Heating", "Test: 07 Hunt 1 / Heating",
         "Extra dice for the Dogs: 0")
    roll(st, 6)
    play(st, "Fetch a Resource from The Endurance or Ocean Camp")
    fetchable = labels(st)
    assert "Pemmican 2" in fetchable and "Pemmican 1" not in fetchable
    assert all(supply(st, n)["at"] in ("on_endurance", "on_ocean_camp") for n in fetchable)

    # Hunting: every Meat but Meat 3 is in the Supply, Meat 3 was removed.
    st = setup_game()
    arrange(st, fresh=CREW, demoralized=RED)
    arrange(st, groups={2: ["Kerr"]}, supply=["Meat 1", "Blubber 1"], beside=[])
    for n in ("Meat 2", "Meat 4", "Meat 5", "Meat 6"):
        st.set_piece("supplies", n, "at", "on_endurance")
    st.set_piece("supplies", "Meat 3", "at", "removed")
    start_turn_with(st, hand=["01 Hunt 1 / Food P", "17 Sled / Heating"], dogs=0, chippy=False,
                    active_group=2)
    play(st, "Action: 01 Hunt 1 / Food P", "Test: 17 Sled / Heating", "Hunt without a weapon")
    roll(st, 6)
    play(st, "Take a Meat counter (striped side up)")
    assert counter(st, "Meat 3") == ("in_supply", "striped")
