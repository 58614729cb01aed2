"""Scenario tests for Endurance: Setup, the turn sequence, Events, the Fine
Points (the Supply) and the Endings (EN-SETUP, EN-TURN, EN-EVT, EN-FINE,
EN-END in endurance.checklist.md).

Every die, card and cup draw is forced (explicit chance mode).  Unless a
test says otherwise the game is the helpers' ``setup_game()``: the Groups of
``SETUP_GROUPS`` (Bakewell 26 to Group 1, Blackborow 27 to Group 2), after
the starting flips

    Group 1: Wild, Worsley, Greenstreet, Crean, Hudson, Bakewell (Red)
    Group 2: Cheetham, Wordie, James, Macklin, McIlroy, Blackborow (Red)
    Group 3: Clark, Hussey, Rickinson, Kerr (Red), Hurley (Red)
    Group 4: Marston, Orde-Lees, McNish, Green (Red), Vincent (Red)
    Group 5: McLeod, McCarthy, Holness (Red), Stephenson (Red), How (Red)

and the Supply Pemmican 1, Pemmican 2, Canned Goods 1, Meat 1, Blubber 1,
Medical Supplies 1.  Group 1 also rolls a die for Shackleton (Skill 3).
"""

from __future__ import annotations

import attrs

from rulelang import CHANCE, ir

from endurance_helpers import (camp_data, ANIMALS, CREW, DOGS, GAME, SETUP_GROUPS, SUPPLIES, animal, arrange,
                               draw, group_of, in_supply, labels, man, play, roll, set_man,
                               setup_game, start_turn_with, supply)

MAIN_CARDS = sorted(GAME.new_game(players=1, chance="explicit").pile("main"))
ORDINARY_EVENTS = sorted(GAME.new_game(players=1, chance="explicit").pile("events"))
RED_EVENTS = {"The Endurance Sinks", "Patience Camp", "Lifeboats", "Voyage of the James Caird"}

HUNT_FOOD = "01 Hunt 1 / Food P"          # top McNish (18), bottom Wild (1)
SLED_HEAT = "02 Sled / Heating"           # top Orde-Lees (17), bottom Wordie (7)
SLED_MORALE = "05 Sled / Morale"          # top Vincent (20), bottom Blackborow (27)
HUNT_HEAT = "07 Hunt 1 / Heating"         # top McNish (18), bottom Clark (11)
HUNT_MORALE = "10 Hunt 1 / Morale"        # top Hurley (15), bottom Crean (4)
SLED_MEDICAL = "14 Sled / Medical"        # top Orde-Lees (17), bottom Greenstreet (3)
ENT_MEDICAL = "09 Entertain book / Medical"   # top Marston (16), bottom Bakewell (26)
HUNT_MEDICAL = "04 Hunt 1 / Medical"      # top Hurley (15), bottom McCarthy (22)


# ------------------------------------------------------------------ helpers

def new_setup(groups, leftovers):
    """A fresh explicit game: the men drawn from the cup Group by Group, the
    two left over placed in the Groups named (e.g. ("Group 3", "Group 5"))."""
    st = GAME.new_game(players=1, chance="explicit")
    for g in range(1, 6):
        draw(st, *groups[g])
    play(st, *leftovers)
    return st


def deal(st):
    """Deal cards 01-15 to the Discards, 16-30 to the Reserve, and Killer
    Whales and Seal on the Floe from the Event Deck onto the Discards."""
    draw(st, *MAIN_CARDS[:15])
    draw(st, *MAIN_CARDS[15:30])
    draw(st, "Killer Whales", "Seal on the Floe")
    return st


def set_camp(st, camp):
    """Move the Camp Marker (and the hand size of the turn under way)."""
    heat, morale, hand = {"ocean_camp": (1, 13, 2), "patience_camp": (2, 15, 3),
                          "elephant_island": (2, 12, 4), "rescue": (2, 9, 5)}[camp]
    st.set_stat("camp", camp)
    st.set_stat("hand_size", hand, 0)
    if camp == "rescue":
        st.set_stat("shackleton_rolls", False)


def count_rolls(st, face):
    """Roll ``face`` at every chance node until a decision; how many dice."""
    n = 0
    while st.current_player == CHANCE:
        assert all(label.startswith("roll") for label in labels(st)), labels(st)
        st.apply(f"roll {face}")
        n += 1
    return n


def fresh_men(st):
    return sorted(n for n in CREW if man(st, n)["side"] == "fresh" and man(st, n)["place"] == "in_camp")


def events_in(cards):
    return [c for c in cards if c in ORDINARY_EVENTS or c in RED_EVENTS or c == "The Hard Choice"]


def at_decision(st, prompt_start):
    return any(label.startswith(prompt_start) for label in labels(st))


def pass_heating_with_blubber(st, blubber="Blubber 1", exhaustion=6):
    """Decline McNish (if offered), burn the Blubber, and roll its check."""
    if at_decision(st, "Flip a man to pass"):
        play(st, "Flip a man to pass the Test without Resources: no")
    play(st, blubber)
    roll(st, exhaustion)


# ------------------------------------------------------------------ Setup

def test_setup_01_camp_display_in_play_lifeboats_display_set_aside():
    """EN-SETUP-01: after setup and a whole turn the Camp Display is in use
    (Camp Marker, Active Group Marker) while the Lifeboats Display is not:
    no boat holds anyone, the 18 Lifeboat cards are untouched; the boats
    only come out when the Lifeboats event is resolved."""
    st = setup_game()
    assert st.stat("camp") == "ocean_camp"
    assert st.stat("active_group") == 1
    play(st, "Draw the cards", f"Action: {HUNT_FOOD}", f"Test: {SLED_HEAT}", "Hunt without a weapon")
    roll(st, 6, 6, 6, 6, 6, 6, 6)
    play(st, "Take a Meat counter (striped side up)")
    pass_heating_with_blubber(st)
    assert at_decision(st, "Draw the cards")          # turn 2 has begun
    assert st.stat("active_group") == 2
    assert len(st.pile("lifeboat_deck")) == 18 and st.pile("boat_cards") == []
    for b in ("James Caird", "Dudley Docker", "Stancomb Wills"):
        assert st.piece("boats", b)["aboard"] == 0
    assert all(man(st, n)["boat"] == 0 for n in CREW)
    # The Lifeboats event brings out the boats: the men are asked to board.
    arrange(st, hand=[HUNT_FOOD], main=["Lifeboats", SLED_HEAT])
    play(st, "Draw the cards")
    draw(st, "Lifeboats", "Pressure Ridges")
    assert labels(st) == ["James Caird", "Dudley Docker", "Stancomb Wills"]


def test_setup_02_twenty_seven_crew_counters_data():
    """EN-SETUP-02 (data): 27 crew counters, IDs 1 to 27 each once, every
    one with a Blue Skill Level; Wild (1) is Blue 4 / Red 5 and Crean (4)
    is 4, as the rulebook prints them."""
    st = setup_game()
    assert len(CREW) == 27
    ids = sorted(man(st, n)["id"] for n in CREW)
    assert ids == list(range(1, 28))
    assert all(isinstance(man(st, n)["blue_skill"], int) for n in CREW)
    assert (man(st, "Wild")["id"], man(st, "Wild")["blue_skill"], man(st, "Wild")["red_skill"]) == (1, 4, 5)
    assert (man(st, "Crean")["id"], man(st, "Crean")["blue_skill"]) == (4, 4)
    named = {"Greenstreet": 3, "Macklin": 9, "McIlroy": 10, "Hussey": 12, "Hurley": 15,
             "Marston": 16, "Orde-Lees": 17, "McNish": 18, "Green": 19}
    assert {n: man(st, n)["id"] for n in named} == named


def test_setup_03_red_side_is_worse_and_flipping_changes_the_skill():
    """EN-SETUP-03: every Red side with a die is worse (higher) than the
    Blue side; when a failed Hunt's Penalty Demoralizes Wild, his Skill
    Level goes from 4 to 5 (and McNish's from 4 to 6)."""
    st = setup_game()
    for n in CREW:
        info = man(st, n)
        if info["red_skill"] is not None:
            assert info["red_skill"] > info["blue_skill"], n
    assert man(st, "Wild")["skill"] == 4
    play(st, "Draw the cards", f"Action: {HUNT_FOOD}", f"Test: {SLED_HEAT}", "Hunt without a weapon")
    roll(st, 2, 2, 2, 2, 2, 2, 2)         # no Success: the Penalties McNish, Wild
    assert (man(st, "Wild")["side"], man(st, "Wild")["skill"]) == ("demoralized", 5)
    assert (man(st, "McNish")["side"], man(st, "McNish")["skill"]) == ("demoralized", 6)


def test_setup_04_no_die_red_sides_data_and_roll_nothing():
    """EN-SETUP-04 (data): Hudson, James, Clark, Orde-Lees, Green,
    Stephenson and Blackborow have no die on their Red side; Demoralized,
    such a man has no Skill Level and rolls no die: Group 2 with Blackborow
    Red rolls 5 dice, with him Blue 6."""
    st = setup_game()
    no_die = sorted(n for n in CREW if man(st, n)["red_skill"] is None)
    assert no_die == sorted(["Hudson", "James", "Clark", "Orde-Lees", "Green", "Stephenson", "Blackborow"])
    assert man(st, "Blackborow")["side"] == "demoralized" and man(st, "Blackborow")["skill"] is None
    start_turn_with(st, [HUNT_FOOD, SLED_HEAT], active_group=2)
    play(st, f"Action: {HUNT_FOOD}", f"Test: {SLED_HEAT}")
    blue = st.clone()
    set_man(blue, "Blackborow", side="fresh")
    play(st, "Hunt without a weapon")
    play(blue, "Hunt without a weapon")
    assert count_rolls(st, 6) == 5
    assert count_rolls(blue, 6) == 6


def test_setup_06_shackleton_is_printed_in_group_1_and_rolls_a_die():
    """EN-SETUP-06 (reading: Shackleton is printed in Group 1's space, not a
    counter, and rolls a die at Skill 3): no crew counter is Shackleton;
    Group 1 of Hudson and Wordie (both 5) rolls three dice against a target
    of 3, so three 3s are three Successes, while Group 2 of the same men
    would roll two."""
    assert not any("Shackleton" in n for n in CREW)
    st = setup_game()
    arrange(st, groups={1: ["Hudson", "Wordie"]})
    start_turn_with(st, ["16 Hunt 2 / Food CM", SLED_HEAT])
    other = st.clone()
    other.set_stat("active_group", 2)
    arrange(other, groups={2: ["Hudson", "Wordie"]})
    play(st, "Action: 16 Hunt 2 / Food CM", f"Test: {SLED_HEAT}", "Hunt without a weapon")
    roll(st, 3, 3, 3)
    # three Successes against a need of 2: the Reward is offered
    assert labels(st) == ["Take a Meat counter (striped side up)"]
    play(other, "Action: 16 Hunt 2 / Food CM", f"Test: {SLED_HEAT}", "Hunt without a weapon")
    assert count_rolls(other, 3) == 2
    # no Success at 5: the Hunt fails and its Penalties (Hurley, Kerr, both Red) Injure
    assert man(other, "Kerr")["place"] == "infirmary"
    assert man(st, "Kerr")["place"] == "in_camp"


def test_setup_06_group_1_holds_six_crew_besides_shackleton():
    """EN-SETUP-06: one man per space, none in Shackleton's: a Group 1 that
    already holds six crew counters is not offered when a man recovering
    from the Infirmary is placed; with five, it is."""
    st = setup_game()
    arrange(st, infirmary=["Kerr"], hand=[], main=[], discard=[SLED_MORALE, HUNT_HEAT])
    assert len(group_of(st, 1)) == 6 and len(group_of(st, 2)) == 6
    roomy = st.clone()
    set_man(roomy, "Bakewell", group=4)           # Group 1 down to five, Group 4 up to six
    play(st, "Draw the cards")           # the Deck is empty: the Discards are shuffled in
    assert labels(st) == ["Group 3", "Group 4", "Group 5"]
    play(roomy, "Draw the cards")
    assert labels(roomy) == ["Group 1", "Group 3", "Group 5"]


def test_setup_05_men_drawn_at_random_five_per_group_blue():
    """EN-SETUP-05: the men are drawn one at a time from the cup, each man
    still in the cup equally likely; the first 25 fill the five Groups five
    by five, all Blue side up, and two are left over."""
    st = GAME.new_game(players=1, chance="explicit")
    moves = st.legal_moves()
    assert len(moves) == 27 and {str(m.probability) for m in moves} == {"1/27"}
    draw(st, "Wild")
    moves = st.legal_moves()
    assert "draw Wild" not in labels(st) and {str(m.probability) for m in moves} == {"1/26"}
    for g in range(1, 6):
        draw(st, *[n for n in SETUP_GROUPS[g] if n != "Wild"])
    for g in range(1, 6):
        assert group_of(st, g) == sorted(SETUP_GROUPS[g])
        assert all(man(st, n)["side"] == "fresh" for n in SETUP_GROUPS[g])
    assert sorted(n for n in CREW if man(st, n)["group"] == 0) == ["Bakewell", "Blackborow"]
    assert st.current_player == 0     # now the player places the two left over


def test_setup_07_two_leftovers_go_to_two_different_chosen_groups():
    """EN-SETUP-07: the two men left over go where the player chooses, but
    not both to the same Group: after the first goes to Group 3, Group 3 is
    no longer offered; Groups 3 and 5 end up with six men."""
    st = GAME.new_game(players=1, chance="explicit")
    for g in range(1, 6):
        draw(st, *SETUP_GROUPS[g])
    assert labels(st) == ["Group 1", "Group 2", "Group 3", "Group 4", "Group 5"]
    play(st, "Group 3")
    assert labels(st) == ["Group 1", "Group 2", "Group 4", "Group 5"]
    play(st, "Group 5")
    assert man(st, "Bakewell")["group"] == 3 and man(st, "Blackborow")["group"] == 5
    assert [len(group_of(st, g)) for g in range(1, 6)] == [5, 5, 6, 5, 6]


MIXED_GROUPS = {
    1: ["Blackborow", "Wild", "Hudson", "McNish", "Kerr"],
    2: ["How", "Worsley", "Greenstreet", "Cheetham", "Wordie"],
    3: ["Hussey", "James", "Macklin", "McIlroy", "Clark"],
    4: ["Green", "Rickinson", "Hurley", "Marston", "Orde-Lees"],
    5: ["Bakewell", "McLeod", "McCarthy", "Holness", "Stephenson"],
}   # left over: Crean (4) to Group 5, Vincent (20) to Group 3


def test_setup_08_09_starting_flips_1_1_2_2_3_by_highest_id():
    """EN-SETUP-08, EN-SETUP-09: after the leftovers are placed, 1, 1, 2, 2
    and 3 men are Demoralized in Groups 1 to 5, always those with the
    highest IDs (the leftover Vincent 20 included), whatever the order they
    were drawn in; their Skill Level becomes the Red one."""
    st = new_setup(MIXED_GROUPS, ("Group 5", "Group 3"))
    assert man(st, "Crean")["group"] == 5 and man(st, "Vincent")["group"] == 3
    red = {g: sorted(n for n in group_of(st, g) if man(st, n)["side"] == "demoralized") for g in range(1, 6)}
    assert red == {
        1: ["Blackborow"],
        2: ["How"],
        3: ["Hussey", "Vincent"],
        4: ["Green", "Orde-Lees"],
        5: ["Bakewell", "Holness", "Stephenson"],
    }
    assert [len(red[g]) for g in range(1, 6)] == [1, 1, 2, 2, 3]
    for g in range(1, 6):
        for n in red[g]:
            assert man(st, n)["skill"] == man(st, n)["red_skill"]
    assert man(st, "Crean")["side"] == "fresh"


def test_setup_10_markers_start_on_group_1_and_ocean_camp():
    """EN-SETUP-10: the Active Group Marker starts on Group 1 and the Camp
    Marker on Ocean Camp (Heat 1, Morale 13): the first turn's Action is
    rolled by Group 1."""
    st = setup_game()
    assert st.stat("active_group") == 1
    assert st.stat("camp") == "ocean_camp"
    assert (camp_data(st)["heat"], camp_data(st)["morale"]) == (1, 13)
    play(st, "Draw the cards", f"Action: {HUNT_FOOD}", f"Test: {SLED_HEAT}", "Hunt without a weapon")
    assert count_rolls(st, 6) == 7      # six men of Group 1 (Bakewell Red 6) and Shackleton


def test_setup_11_animals_start_in_play_blue():
    """EN-SETUP-11 (data: four Dog counters): the four Dogs and Mrs Chippy
    start in play, Blue side up."""
    st = setup_game()
    assert len(DOGS) == 4 and "Mrs Chippy" in ANIMALS and len(ANIMALS) == 5
    for a in ANIMALS:
        assert (animal(st, a)["present"], animal(st, a)["side"]) == (True, "blue")


def test_setup_12_endurance_and_ocean_camp_cards_hold_resources():
    """EN-SETUP-12: the unchosen Resources lie on The Endurance card, and
    both The Endurance and Ocean Camp cards can hold Resources that a Sled
    reward fetches from."""
    st = setup_game()
    on_ship = sorted(n for n in SUPPLIES if supply(st, n)["at"] == "on_endurance")
    assert "Book" in on_ship and "Rifle" in on_ship and len(on_ship) == 12
    arrange(st, on_ocean_camp=["Shotgun"])
    start_turn_with(st, [SLED_HEAT, HUNT_HEAT])
    play(st, f"Action: {SLED_HEAT}", f"Test: {HUNT_HEAT}", "Extra dice for the Dogs: 0")
    roll(st, 6, 2, 2, 2, 2, 2, 2)
    play(st, "Fetch a Resource from The Endurance or Ocean Camp")
    offered = set(labels(st))
    assert "Shotgun" in offered and "Book" in offered and "Rifle" in offered
    assert "Pemmican 1" not in offered       # already in the Supply
    play(st, "Shotgun")
    assert supply(st, "Shotgun")["at"] == "in_supply"


def test_setup_13_lifeboat_cards_kept_apart():
    """EN-SETUP-13: the 18 Lifeboat cards are a deck of their own, never in
    the main Deck, Discards or Reserve at setup."""
    st = setup_game()
    assert len(st.pile("lifeboat_deck")) == 18
    boat_cards = set(st.pile("lifeboat_deck"))
    for pile in ("main", "discard", "reserve", "hand", "events", "set_aside"):
        assert not boat_cards & set(st.pile(pile)), pile


def test_setup_14_twenty_events_fifteen_in_the_event_deck():
    """EN-SETUP-14: 20 Event cards: 15 ordinary ones form the Event Deck;
    the four red Events (The Endurance Sinks, Patience Camp, Lifeboats,
    Voyage of the James Caird) and The Hard Choice are set aside."""
    st = GAME.new_game(players=1, chance="explicit")
    assert len(st.pile("events")) == 15
    assert sorted(st.pile("set_aside")) == sorted(RED_EVENTS | {"The Hard Choice"})
    assert not events_in(st.pile("main"))
    st2 = setup_game()
    # after setup: 2 Events on the Discards and 1 in the Deck came from the Event Deck
    assert len(st2.pile("events")) == 12
    assert sorted(st2.pile("set_aside")) == sorted(RED_EVENTS - {"The Endurance Sinks"} | {"The Hard Choice"})


def test_setup_15_forty_cards_dealt_15_15_10():
    """EN-SETUP-15: the other 40 cards are dealt into a Discard Pile of 15,
    a Reserve of 15 and a Deck of 10."""
    assert len(MAIN_CARDS) == 40
    st = new_setup(SETUP_GROUPS, ("Group 1", "Group 2"))
    assert len(st.pile("main")) == 40
    draw(st, *MAIN_CARDS[:15])
    assert sorted(st.pile("discard")) == MAIN_CARDS[:15]
    draw(st, *MAIN_CARDS[15:30])
    assert sorted(st.pile("reserve")) == MAIN_CARDS[15:30]
    assert sorted(st.pile("main")) == MAIN_CARDS[30:]


def test_setup_15_reserve_is_face_down():
    """EN-SETUP-15: the three piles are dealt face down and only the Discard
    Pile is turned face up: the player's view shows the Discards' cards but
    only the size of the Reserve (and of the Deck)."""
    st = setup_game()
    view = st.view(0)["piles"]
    assert isinstance(view["discard"], list) and len(view["discard"]) == 17
    assert view["main"] == {"size": 10}
    assert view["reserve"] == {"size": 15}


def test_setup_16_two_events_on_top_of_the_face_up_discards():
    """EN-SETUP-16: the top two cards of the (shuffled) Event Deck go onto
    the Discard Pile, which lies face up: the player sees its cards."""
    st = deal(new_setup(SETUP_GROUPS, ("Group 1", "Group 2")))
    assert sorted(st.pile("discard")) == sorted(MAIN_CARDS[:15] + ["Killer Whales", "Seal on the Floe"])
    assert sorted(st.pile("events")) == sorted(set(ORDINARY_EVENTS) - {"Killer Whales", "Seal on the Floe"})
    view = st.view(0)["piles"]
    assert sorted(view["discard"]) == sorted(st.pile("discard"))
    assert view["events"] == {"size": 13}


def test_setup_17_first_hand_then_two_events_shuffled_in():
    """EN-SETUP-17: the first hand is two cards from the 10-card Deck, which
    holds no Event then; only afterwards are The Endurance Sinks and the
    next Event Deck card shuffled into the Deck."""
    st = deal(new_setup(SETUP_GROUPS, ("Group 1", "Group 2")))
    offered = [label[5:] for label in labels(st)]
    assert sorted(offered) == MAIN_CARDS[30:] and not events_in(offered)
    draw(st, MAIN_CARDS[30], MAIN_CARDS[31])
    assert sorted(st.pile("hand")) == MAIN_CARDS[30:32]
    # the next card of the Event Deck is drawn into the Deck
    assert sorted(label[5:] for label in labels(st)) == sorted(st.pile("events"))
    draw(st, "Blizzard")
    assert sorted(st.pile("main")) == sorted(MAIN_CARDS[32:] + ["The Endurance Sinks", "Blizzard"])
    assert "Blizzard" not in st.pile("events") and "The Endurance Sinks" not in st.pile("set_aside")
    assert not events_in(st.pile("hand"))


def test_setup_18_choose_any_six_resources_after_seeing_the_hand():
    """EN-SETUP-18 (reading: any six counters of any type, Meat and Blubber
    included, several of one type allowed): with the first hand in view the
    player is offered all 28 counters, takes six, and the first turn
    begins."""
    st = deal(new_setup(SETUP_GROUPS, ("Group 1", "Group 2")))
    draw(st, MAIN_CARDS[30], MAIN_CARDS[31], "Blizzard")
    assert len(st.pile("hand")) == 2
    assert sorted(labels(st)) == sorted(SUPPLIES)
    chosen = ["Meat 1", "Meat 2", "Blubber 3", "Shotgun", "Canned Goods double", "Phonograph"]
    for n in chosen[:-1]:
        play(st, n)
        assert n not in labels(st)
    play(st, chosen[-1])
    assert in_supply(st) == sorted(chosen)
    assert labels(st)[0] == "Draw the cards"            # the first turn has begun


def test_setup_19_unchosen_meat_blubber_beside_rest_on_endurance():
    """EN-SETUP-19: after the six are chosen, the other Meat and Blubber go
    beside the Display, every other Resource onto The Endurance card."""
    st = deal(new_setup(SETUP_GROUPS, ("Group 1", "Group 2")))
    draw(st, MAIN_CARDS[30], MAIN_CARDS[31], "Blizzard")
    chosen = ["Meat 1", "Blubber 3", "Book", "Pemmican 2", "Rifle", "Medical Supplies 2"]
    play(st, *chosen)
    for n in SUPPLIES:
        info = supply(st, n)
        if n in chosen:
            want = "in_supply"
        elif info["type"] in ("meat", "blubber"):
            want = "beside"
        else:
            want = "on_endurance"
        assert info["at"] == want, n
        assert info["side"] == "plain"
    assert sum(supply(st, n)["at"] == "beside" for n in SUPPLIES) == 10


def test_setup_20_eleven_resource_types_and_double_cans_data():
    """EN-SETUP-20 (data): 28 Resource counters of the 11 types; one Canned
    Goods counter shows two cans; the weapons have Skill Levels."""
    st = setup_game()
    types = {supply(st, n)["type"] for n in SUPPLIES}
    assert types == {"pemmican", "canned", "meat", "blubber", "book", "playing_cards", "phonograph",
                     "revolver", "rifle", "shotgun", "medical"}
    assert len(SUPPLIES) == 28
    doubles = [n for n in SUPPLIES if supply(st, n)["type"] == "canned" and supply(st, n)["cans"] == 2]
    assert doubles == ["Canned Goods double"]
    for w in ("Revolver", "Rifle", "Shotgun"):
        assert supply(st, w)["weapon"] and isinstance(supply(st, w)["aim"], int)
    for n in SUPPLIES:
        assert isinstance(supply(st, n)["wear"], int) and supply(st, n)["worn"] >= supply(st, n)["wear"]


# ------------------------------------------------------------------ Turn sequence

def test_turn_01_active_group_rolls_and_a_hand_is_drawn():
    """EN-TURN-01: the turn is Group 5's when the marker is on Group 5: two
    cards are drawn from the Deck for it, and its Hunt rolls Group 5's four
    dice (McLeod, McCarthy, Holness, How; Stephenson's Red side has none),
    not Group 1's seven."""
    st = setup_game()
    arrange(st, active_group=5, hand=[], main=[HUNT_FOOD, SLED_HEAT, SLED_MORALE])
    play(st, "Draw the cards")
    draw(st, HUNT_FOOD, SLED_HEAT)
    assert sorted(st.pile("hand")) == sorted([HUNT_FOOD, SLED_HEAT])
    assert st.pile("main") == [SLED_MORALE]
    play(st, f"Action: {HUNT_FOOD}", f"Test: {SLED_HEAT}", "Hunt without a weapon")
    assert count_rolls(st, 4) == 4          # 4s meet McCarthy's 4
    assert labels(st) == ["Take a Meat counter (striped side up)"]


def test_turn_02_one_card_for_the_action_another_for_the_test():
    """EN-TURN-02: every hand card may be picked for the Action; the card
    picked for it is not offered for the Test, the others are."""
    st = setup_game()
    set_camp(st, "patience_camp")
    start_turn_with(st, [HUNT_FOOD, SLED_HEAT, SLED_MEDICAL])
    assert sorted(labels(st)) == sorted(f"Action: {c}" for c in (HUNT_FOOD, SLED_HEAT, SLED_MEDICAL))
    play(st, f"Action: {SLED_HEAT}")
    assert sorted(labels(st)) == sorted([f"Test: {HUNT_FOOD}", f"Test: {SLED_MEDICAL}"])
    play(st, f"Test: {HUNT_FOOD}")
    assert sorted(st.pile("in_play")) == sorted([SLED_HEAT, HUNT_FOOD])
    assert st.pile("hand") == [SLED_MEDICAL]
    assert labels(st)[0].startswith("Extra dice for the Dogs")     # the Action is the Sled


def test_turn_03_action_first_then_the_test_even_after_a_failure():
    """EN-TURN-03: the Action is resolved first (its failed Hunt Demoralizes
    McNish and Clark before the Test begins), and the Test is resolved all
    the same: the Heating Test burns Blubber 1, striped, whose Exhaustion
    check (a 1: its red die as tuned) removes it."""
    st = setup_game()
    start_turn_with(st, [HUNT_HEAT, SLED_HEAT], striped=["Blubber 1"])
    play(st, f"Action: {HUNT_HEAT}", f"Test: {SLED_HEAT}", "Hunt without a weapon")
    roll(st, 2, 2, 2, 2, 2, 2, 2)                  # no Success
    assert man(st, "McNish")["side"] == "demoralized" and man(st, "Clark")["side"] == "demoralized"
    # McNish, now Red, cannot auto-pass: the Test asks for Blubber
    assert labels(st) == ["Blubber 1"]
    play(st, "Blubber 1")
    roll(st, 1)
    play(st, "Flip Orde-Lees to save the Resource: no")
    assert supply(st, "Blubber 1")["at"] == "removed"
    assert man(st, "Orde-Lees")["side"] == "fresh"   # the Test passed: no Penalty
    assert labels(st)[0] == "Draw the cards"


def test_turn_04_failed_test_penalizes_the_test_card_only():
    """EN-TURN-04: a Hunt that succeeds and a Morale Test that fails (12 Blue
    men, 13 needed): the Test card's Penalties (Vincent, Blackborow, both
    Red: Injured) are resolved, the Action card's (McNish, Wild) are not."""
    st = setup_game()
    arrange(st, demoralized=["Cheetham", "Wordie", "James", "Macklin", "McIlroy", "Clark"])
    assert len(fresh_men(st)) == 12
    start_turn_with(st, [HUNT_FOOD, SLED_MORALE])
    play(st, f"Action: {HUNT_FOOD}", f"Test: {SLED_MORALE}", "Hunt without a weapon")
    roll(st, 6, 6, 6, 6, 6, 6, 6)
    play(st, "Take a Meat counter (striped side up)")
    play(st, "Flip a man to pass the Test without Resources: no")    # keep Wild Blue
    assert man(st, "Vincent")["place"] == "infirmary" and man(st, "Blackborow")["place"] == "infirmary"
    assert man(st, "McNish")["side"] == "fresh" and man(st, "Wild")["side"] == "fresh"


def test_turn_04_failed_action_penalizes_the_action_card_only():
    """EN-TURN-04: a Hunt that fails and a Morale Test that passes (16 Blue
    men): McNish and Clark (the Hunt card's Penalties) are Demoralized,
    Vincent and Blackborow (the Test card's) are untouched."""
    st = setup_game()
    start_turn_with(st, [HUNT_HEAT, SLED_MORALE])
    play(st, f"Action: {HUNT_HEAT}", f"Test: {SLED_MORALE}", "Hunt without a weapon")
    roll(st, 2, 2, 2, 2, 2, 2, 2)
    play(st, "Flip a man to pass the Test without Resources: no")
    assert man(st, "McNish")["side"] == "demoralized" and man(st, "Clark")["side"] == "demoralized"
    assert man(st, "Vincent")["place"] == "in_camp" and man(st, "Blackborow")["place"] == "in_camp"
    assert labels(st)[0] == "Draw the cards"


def test_turn_05_each_card_is_discarded_once_resolved():
    """EN-TURN-05: while the Test is being resolved, the Action card is
    already on the Discard Pile and the Test card is not; at the end of the
    turn both are there and nothing is left in hand or in play."""
    st = setup_game()
    arrange(st, discard=[])
    start_turn_with(st, [HUNT_HEAT, SLED_MORALE])
    play(st, f"Action: {HUNT_HEAT}", f"Test: {SLED_MORALE}", "Hunt without a weapon")
    roll(st, 2, 2, 2, 2, 2, 2, 2)
    assert at_decision(st, "Flip a man to pass")           # the Test under way
    assert st.pile("discard") == [HUNT_HEAT]
    assert st.pile("in_play") == [SLED_MORALE]
    play(st, "Flip a man to pass the Test without Resources: no")
    assert sorted(st.pile("discard")) == sorted([HUNT_HEAT, SLED_MORALE])
    assert st.pile("hand") == [] and st.pile("in_play") == []


def quiet_turn(st, hand=(HUNT_HEAT, SLED_MORALE)):
    """A whole turn with the hand given: a Hunt of all 2s that fails, a
    Morale Test passed without Wild."""
    start_turn_with(st, list(hand))
    play(st, f"Action: {hand[0]}", f"Test: {hand[1]}", "Hunt without a weapon")
    count_rolls(st, 2)
    if at_decision(st, "Flip a man to pass"):
        play(st, "Flip a man to pass the Test without Resources: no")
    return st


def test_turn_06_marker_moves_right_and_wraps_after_group_5():
    """EN-TURN-06: after Group 1's turn the Active Group Marker is on Group
    2; after Group 5's turn it is back on Group 1."""
    st = setup_game()
    quiet_turn(st)
    assert labels(st)[0] == "Draw the cards" and st.stat("active_group") == 2
    arrange(st, active_group=5)
    quiet_turn(st)
    assert labels(st)[0] == "Draw the cards" and st.stat("active_group") == 1


def test_turn_07_unchosen_card_costs_one_penalty_player_picks():
    """EN-TURN-07 (reading: the player picks which Penalty, in every phase):
    at Patience Camp, with three cards, the card not chosen costs one of its
    Penalties after the Action and Test are resolved and before it is
    discarded; picking its bottom man Demoralizes Greenstreet and spares
    Orde-Lees."""
    st = setup_game()
    set_camp(st, "patience_camp")
    arrange(st, discard=[])
    start_turn_with(st, [HUNT_FOOD, SLED_HEAT, SLED_MEDICAL])
    play(st, f"Action: {HUNT_FOOD}", f"Test: {SLED_HEAT}", "Hunt without a weapon")
    roll(st, 6, 6, 6, 6, 6, 6, 6)
    play(st, "Take a Meat counter (striped side up)")
    play(st, "Flip a man to pass the Test without Resources: yes", "McNish")
    assert sorted(labels(st)) == ["Bottom man", "Top man"]
    assert sorted(st.pile("discard")) == sorted([HUNT_FOOD, SLED_HEAT])   # both resolved
    assert st.pile("hand") == [SLED_MEDICAL]                              # not yet discarded
    play(st, "Bottom man")
    assert man(st, "Greenstreet")["side"] == "demoralized"
    assert man(st, "Orde-Lees")["side"] == "fresh"
    assert SLED_MEDICAL in st.pile("discard") and st.pile("hand") == []


def test_turn_07_two_card_hand_has_no_leftover_penalty_four_card_hand_two():
    """EN-TURN-07: the single Penalties start with the three-card hand: at
    Ocean Camp (two cards) the turn ends after the Test; at Elephant Island
    (four cards) each of the two cards left costs one Penalty."""
    st = setup_game()
    quiet_turn(st)
    assert labels(st)[0] == "Draw the cards"
    st = setup_game()
    set_camp(st, "elephant_island")
    start_turn_with(st, [HUNT_HEAT, SLED_MORALE, SLED_MEDICAL, HUNT_MEDICAL])
    play(st, f"Action: {HUNT_HEAT}", f"Test: {SLED_MORALE}", "Hunt without a weapon")
    count_rolls(st, 2)
    play(st, "Flip a man to pass the Test without Resources: no")
    play(st, "Top man")          # Orde-Lees (card 14)
    play(st, "Bottom man")       # McCarthy (card 04)
    assert man(st, "Orde-Lees")["side"] == "demoralized"
    assert man(st, "Greenstreet")["side"] == "fresh"
    assert man(st, "McCarthy")["side"] == "demoralized"
    assert labels(st)[0] == "Draw the cards"


def test_turn_08_events_do_not_count_toward_the_hand():
    """EN-TURN-08: drawing goes on until the hand holds two cards that are
    not Events: an Event resolved and a second one sent to the Discards
    leave room for two ordinary cards."""
    st = setup_game()
    arrange(st, hand=[], discard=[], main=["Seal on the Floe", HUNT_FOOD, "Blizzard", SLED_HEAT, SLED_MORALE])
    play(st, "Draw the cards")
    draw(st, "Seal on the Floe", "Frostbite", HUNT_FOOD, "Blizzard", SLED_HEAT)
    assert sorted(st.pile("hand")) == sorted([HUNT_FOOD, SLED_HEAT])
    assert st.pile("main") == [SLED_MORALE]
    assert labels(st) == [f"Action: {HUNT_FOOD}", f"Action: {SLED_HEAT}"]


def test_turn_09_trim_the_supply_before_drawing():
    """EN-TURN-09: each turn starts with the Supply step, before any card is
    drawn: on turn 2 the hand is still empty and the Deck untouched while
    the player throws away a Resource; then the cards are drawn."""
    st = setup_game()
    quiet_turn(st)
    assert st.pile("hand") == []
    deck = sorted(st.pile("main"))
    assert labels(st) == ["Draw the cards", "Throw away a Resource"]
    play(st, "Throw away a Resource", "Pemmican 2")
    assert supply(st, "Pemmican 2")["at"] == "removed"
    assert sorted(st.pile("main")) == deck and st.pile("hand") == []
    play(st, "Draw the cards")
    assert st.current_player == CHANCE and labels(st)[0].startswith("draw")


def test_turn_10_group_without_dice_still_takes_its_turn():
    """EN-TURN-10 (reading: zero dice, zero Successes): Group 5 holding only
    Stephenson and Green, both Red with no die, rolls nothing; its Hunt
    fails (McNish and Wild are Demoralized) and the Test is still resolved.
    An empty Group 5 does the same."""
    st = setup_game()
    arrange(st, groups={5: ["Stephenson", "Green"]}, active_group=5)
    arrange(st, demoralized=["Stephenson", "Green"])
    empty = st.clone()
    arrange(empty, infirmary=["Stephenson", "Green"])
    assert group_of(empty, 5) == []
    for state in (st, empty):
        start_turn_with(state, [HUNT_FOOD, SLED_HEAT])
        play(state, f"Action: {HUNT_FOOD}", f"Test: {SLED_HEAT}", "Hunt without a weapon")
        assert state.current_player != CHANCE            # no die at all
        assert man(state, "McNish")["side"] == "demoralized" and man(state, "Wild")["side"] == "demoralized"
        pass_heating_with_blubber(state)
        assert labels(state)[0] == "Draw the cards" and state.stat("active_group") == 1


# ------------------------------------------------------------------ Events

def blubber_in_supply(st):
    return sum(1 for n in in_supply(st) if supply(st, n)["type"] == "blubber")


def test_evt_01_an_event_is_resolved_the_moment_it_is_drawn():
    """EN-EVT-01: drawing Seal on the Floe stops the draw: before the next
    card is drawn, the Seal has given its Blubber and lies on the Active
    Event space, and the hand is still empty."""
    st = setup_game()
    arrange(st, hand=[], main=["Seal on the Floe", HUNT_FOOD, SLED_HEAT])
    assert blubber_in_supply(st) == 1
    play(st, "Draw the cards")
    draw(st, "Seal on the Floe")
    assert blubber_in_supply(st) == 2
    assert st.pile("active") == ["Seal on the Floe"] and st.pile("hand") == []
    assert sorted(st.pile("main")) == sorted([HUNT_FOOD, SLED_HEAT])


def test_evt_02_active_event_space_previous_event_to_the_box():
    """EN-EVT-02: the resolved Event takes the Active Event space; the
    Event that was there (Blizzard) goes back to the box."""
    st = setup_game()
    arrange(st, hand=[HUNT_FOOD], main=["Seal on the Floe", SLED_HEAT], active=["Blizzard"])
    assert st.pile("box") == []
    play(st, "Draw the cards")
    draw(st, "Seal on the Floe")
    assert st.pile("active") == ["Seal on the Floe"]
    assert st.pile("box") == ["Blizzard"]
    assert "Blizzard" not in st.pile("discard") and "Blizzard" not in st.pile("main")


def test_evt_03_diamond_event_acts_once_when_drawn():
    """EN-EVT-03: a diamond Event acts once, as it is drawn: Killer Whales
    turns exactly one Blue Dog Red, and Seal on the Floe gives one Blubber
    on the turn it is drawn and none on the next turn, though it is still
    the Active Event."""
    st = setup_game()
    arrange(st, hand=[HUNT_FOOD], main=["Killer Whales", SLED_HEAT])
    play(st, "Draw the cards")
    draw(st, "Killer Whales")
    assert sorted(animal(st, d)["side"] for d in DOGS) == ["blue", "blue", "blue", "red"]
    st = setup_game()
    arrange(st, hand=[HUNT_HEAT], main=["Seal on the Floe", SLED_MORALE])
    play(st, "Draw the cards")
    draw(st, "Seal on the Floe", "Blizzard", SLED_MORALE)
    assert blubber_in_supply(st) == 2
    play(st, f"Action: {HUNT_HEAT}", f"Test: {SLED_MORALE}", "Hunt without a weapon")
    count_rolls(st, 2)
    play(st, "Flip a man to pass the Test without Resources: no")
    quiet_turn(st)          # turn 2: no Event drawn
    assert st.pile("active") == ["Seal on the Floe"]
    assert blubber_in_supply(st) == 2


def heating_turn(st, hand, main=None, draws=()):
    """A turn: draw (forcing ``draws``), a Hunt of 6s, then a Heating Test
    with McNish declined.  Only Blubber 1 is in the Supply, the others wait
    on The Endurance card (so neither the Hunt nor the Seal adds one).
    Returns True if the Test passed (Blubber burnt)."""
    arrange(st, hand=hand, on_endurance=[f"Blubber {i}" for i in range(2, 7)],
            **({"main": main} if main is not None else {}))
    play(st, "Draw the cards")
    draw(st, *draws)
    act, test = HUNT_FOOD, SLED_HEAT
    play(st, f"Action: {act}", f"Test: {test}", "Hunt without a weapon")
    count_rolls(st, 6)
    while at_decision(st, "Take a Meat") or at_decision(st, "Flip a striped Meat"):
        st.apply(labels(st)[0])
    play(st, "Flip a man to pass the Test without Resources: no")
    if labels(st) and labels(st)[0] == "Blubber 1":
        play(st, "Blubber 1")
        if labels(st) == ["Blubber 2"]:
            play(st, "Blubber 2")
        count_rolls(st, 6)
        return True
    return False


def test_evt_04_lasting_event_holds_until_the_next_event_is_resolved():
    """EN-EVT-04 (reading: a lasting Event ends when the next Event is
    resolved; an extra Event sent to the Discards ends nothing): Blizzard
    (Heat +1) is drawn, then Calm Weather the same turn goes to the
    Discards: one Blubber fails the Heating Test that turn and the next;
    once Seal on the Floe is resolved, one Blubber is enough again."""
    st = setup_game()
    arrange(st, discard=[])
    # Blubber 1 only (Seal's Blubber comes later)
    passed = heating_turn(st, [HUNT_FOOD], main=["Blizzard", "Calm Weather", SLED_HEAT],
                          draws=("Blizzard", "Frostbite", "Calm Weather", SLED_HEAT))
    assert not passed and man(st, "Orde-Lees")["side"] == "demoralized"    # card 02's Penalty
    assert st.pile("active") == ["Blizzard"] and "Calm Weather" in st.pile("discard")
    arrange(st, fresh=["Orde-Lees"])
    passed = heating_turn(st, [HUNT_FOOD, SLED_HEAT])                # turn 2, no Event
    assert not passed and st.pile("active") == ["Blizzard"]
    assert man(st, "Orde-Lees")["side"] == "demoralized"
    arrange(st, fresh=["Orde-Lees"])
    passed = heating_turn(st, [HUNT_FOOD], main=["Seal on the Floe", SLED_HEAT],
                          draws=("Seal on the Floe", "Whiteout", SLED_HEAT))
    assert st.pile("active") == ["Seal on the Floe"] and "Blizzard" in st.pile("box")
    assert passed and man(st, "Orde-Lees")["side"] == "fresh"


def test_evt_05_event_deck_card_onto_the_discards_after_the_event():
    """EN-EVT-05: once the Seal's Blubber is gained, the top card of the
    Event Deck goes onto the Discard Pile; the Event Deck has one card
    fewer."""
    st = setup_game()
    arrange(st, hand=[HUNT_FOOD], main=["Seal on the Floe", SLED_HEAT], discard=[])
    events = sorted(st.pile("events"))
    play(st, "Draw the cards")
    draw(st, "Seal on the Floe")
    assert blubber_in_supply(st) == 2 and st.pile("discard") == []
    assert sorted(label[5:] for label in labels(st)) == events
    draw(st, "Open Leads")
    assert st.pile("discard") == ["Open Leads"]
    assert sorted(st.pile("events")) == sorted(set(events) - {"Open Leads"})


def test_evt_05_event_deck_card_added_even_when_an_event_shuffles_one_in():
    """EN-EVT-05: The Endurance Sinks shuffles Patience Camp and the
    Discards into the Deck, and the Event Deck's card is still added to the
    Discards first, so it is shuffled in with them."""
    st = setup_game()
    arrange(st, hand=[HUNT_FOOD], main=["The Endurance Sinks", SLED_HEAT], discard=[SLED_MORALE])
    play(st, "Draw the cards")
    draw(st, "The Endurance Sinks", "Open Leads")
    assert "Open Leads" not in st.pile("events")
    assert sorted(st.pile("main")) == sorted([SLED_HEAT, "Patience Camp", SLED_MORALE, "Open Leads"])
    assert st.pile("discard") == []


def test_evt_05_empty_event_deck_adds_nothing():
    """EN-EVT-05 (reading: with the Event Deck empty nothing is added): the
    Seal is resolved and drawing goes straight on."""
    st = setup_game()
    arrange(st, hand=[HUNT_FOOD], main=["Seal on the Floe", SLED_HEAT], discard=[])
    st.set_pile("events", [])
    play(st, "Draw the cards")
    draw(st, "Seal on the Floe")
    assert st.pile("discard") == [] and st.pile("active") == ["Seal on the Floe"]
    assert labels(st) == [f"draw {SLED_HEAT}"]
    draw(st, SLED_HEAT)
    assert labels(st) == [f"Action: {HUNT_FOOD}", f"Action: {SLED_HEAT}"]


def test_evt_06_drawing_resumes_until_the_hand_is_full():
    """EN-EVT-06: after the Event, drawing goes on only until the hand is
    full: with one card already in hand, one more is drawn and the third
    card stays in the Deck."""
    st = setup_game()
    arrange(st, hand=[HUNT_FOOD], main=["Seal on the Floe", SLED_HEAT, SLED_MORALE])
    play(st, "Draw the cards")
    draw(st, "Seal on the Floe", "Whiteout")
    assert st.current_player == CHANCE
    assert sorted(labels(st)) == sorted([f"draw {SLED_HEAT}", f"draw {SLED_MORALE}"])
    draw(st, SLED_MORALE)
    assert sorted(st.pile("hand")) == sorted([HUNT_FOOD, SLED_MORALE])
    assert st.pile("main") == [SLED_HEAT]
    assert st.current_player == 0


def test_evt_07_only_one_event_per_turn_the_rest_to_the_discards():
    """EN-EVT-07 (reading: red Events too): after Seal on the Floe is
    resolved, Emperor Penguins and The Endurance Sinks drawn the same turn
    go to the Discards unresolved (no Meat, Patience Camp still set aside),
    and drawing goes on; the Seal stays the Active Event."""
    st = setup_game()
    arrange(st, hand=[], discard=[], main=["Seal on the Floe", "Emperor Penguins", "The Endurance Sinks",
                                           HUNT_FOOD, SLED_HEAT])
    meat = sorted(n for n in SUPPLIES if supply(st, n)["at"] == "in_supply" and supply(st, n)["type"] == "meat")
    play(st, "Draw the cards")
    draw(st, "Seal on the Floe", "Whiteout", "Emperor Penguins", "The Endurance Sinks", HUNT_FOOD, SLED_HEAT)
    assert st.pile("active") == ["Seal on the Floe"]
    assert sorted(st.pile("discard")) == sorted(["Whiteout", "Emperor Penguins", "The Endurance Sinks"])
    assert sorted(n for n in in_supply(st) if supply(st, n)["type"] == "meat") == meat
    assert "Patience Camp" in st.pile("set_aside")
    assert sorted(st.pile("hand")) == sorted([HUNT_FOOD, SLED_HEAT])


def test_evt_08_the_hard_choice_enters_only_by_a_shuffle():
    """EN-EVT-08: The Hard Choice is set aside at setup; at a shuffle (the
    Deck ran out) the player may shuffle it in, or not.  Drawn later, it
    puts down the dogs and Mrs Chippy (designed: one Meat per Dog counter,
    McNish Demoralized)."""
    st = setup_game()
    assert "The Hard Choice" in st.pile("set_aside")
    assert "The Hard Choice" not in st.pile("main") + st.pile("discard") + st.pile("events")
    arrange(st, hand=[HUNT_FOOD], main=[], discard=[SLED_HEAT, SLED_MORALE])
    play(st, "Draw the cards")
    assert labels(st) == ["Shuffle The Hard Choice into the Deck: yes",
                          "Shuffle The Hard Choice into the Deck: no"]
    refused = st.clone()
    play(refused, "Shuffle The Hard Choice into the Deck: no")
    assert "The Hard Choice" in refused.pile("set_aside") and "The Hard Choice" not in refused.pile("main")
    play(st, "Shuffle The Hard Choice into the Deck: yes")
    assert sorted(st.pile("main")) == sorted([SLED_HEAT, SLED_MORALE, "The Hard Choice"])
    assert "The Hard Choice" not in st.pile("set_aside")
    draw(st, "The Hard Choice")
    for _ in DOGS:
        play(st, labels(st)[0])          # a Meat for each Dog counter
    assert not any(animal(st, a)["present"] for a in ANIMALS)
    assert man(st, "McNish")["side"] == "demoralized"
    meat = [n for n in in_supply(st) if supply(st, n)["type"] == "meat"]
    assert len(meat) == 5                # Meat 1 and four hunted counters


# ------------------------------------------------------------------ Fine Points

FULL_SUPPLY = ["Pemmican 1", "Pemmican 2", "Pemmican 3", "Pemmican 4", "Canned Goods 1", "Canned Goods 2",
               "Canned Goods 3", "Meat 1", "Blubber 1", "Medical Supplies 1", "Book", "Rifle"]


def test_fine_01_a_full_supply_of_twelve_takes_nothing_more():
    """EN-FINE-01 (reading: a gain that finds the Supply full is lost): with
    12 counters in the Supply a successful Hunt adds neither Meat nor
    Blubber, and a Sled reward cannot fetch a Resource; a striped Meat can
    still be flipped."""
    st = setup_game()
    start_turn_with(st, [HUNT_FOOD, SLED_HEAT], supply=FULL_SUPPLY)
    play(st, f"Action: {HUNT_FOOD}", f"Test: {SLED_HEAT}", "Hunt without a weapon")
    roll(st, 6, 6, 6, 6, 6, 6, 6)
    assert labels(st)[0].startswith("Flip a man to pass")        # straight on to the Test
    assert in_supply(st) == sorted(FULL_SUPPLY)
    st = setup_game()
    start_turn_with(st, [HUNT_FOOD, SLED_HEAT], supply=FULL_SUPPLY, striped=["Meat 1"])
    play(st, f"Action: {HUNT_FOOD}", f"Test: {SLED_HEAT}", "Hunt without a weapon")
    roll(st, 6, 6, 6, 6, 6, 6, 6)
    assert labels(st) == ["Flip a striped Meat in the Supply"]
    play(st, "Flip a striped Meat in the Supply", "Meat 1")
    assert supply(st, "Meat 1")["side"] == "plain" and len(in_supply(st)) == 12
    st = setup_game()
    start_turn_with(st, [SLED_HEAT, HUNT_HEAT], supply=FULL_SUPPLY)
    arrange(st, demoralized=["Wild"])
    play(st, f"Action: {SLED_HEAT}", f"Test: {HUNT_HEAT}", "Extra dice for the Dogs: 0")
    roll(st, 6, 2, 2, 2, 2, 2, 2)
    assert labels(st) == ["Refresh a Demoralized man"]


def test_fine_02_throw_away_resources_before_drawing():
    """EN-FINE-02: before drawing, the player may throw away any Supply
    counters, one after another, then draw: the two thrown away are
    removed from the game."""
    st = setup_game()
    play(st, "Throw away a Resource")
    assert sorted(labels(st)) == in_supply(st)
    play(st, "Medical Supplies 1")
    play(st, "Throw away a Resource", "Pemmican 1")
    assert supply(st, "Medical Supplies 1")["at"] == "removed" and supply(st, "Pemmican 1")["at"] == "removed"
    assert in_supply(st) == ["Blubber 1", "Canned Goods 1", "Meat 1", "Pemmican 2"]
    play(st, "Draw the cards")
    assert sorted(st.pile("hand")) == sorted([HUNT_FOOD, SLED_HEAT])   # the first hand, unchanged


def test_fine_03_combine_two_striped_counters_of_one_type():
    """EN-FINE-03: two striped Meat may be combined (one removed, the other
    flipped to its plain side); a striped Meat cannot be paired with a
    striped Pemmican, and two striped Medical Supplies are not food or
    fuel, so no combining is offered for them."""
    st = setup_game()
    arrange(st, supply=["Meat 1", "Meat 2", "Pemmican 1", "Pemmican 2", "Medical Supplies 1",
                        "Medical Supplies 2", "Book"],
            striped=["Meat 1", "Meat 2", "Pemmican 1", "Medical Supplies 1", "Medical Supplies 2"])
    play(st, "Throw away a Resource", "Book")       # the Supply step looks at the Supply again
    assert "Combine two striped counters" in labels(st)
    play(st, "Combine two striped counters", "Meat 1")
    assert labels(st) == ["Meat 2"]               # only a striped Meat can go with it
    play(st, "Meat 2")
    assert (supply(st, "Meat 1")["side"], supply(st, "Meat 1")["at"]) == ("plain", "in_supply")
    assert supply(st, "Meat 2")["at"] == "removed"
    # a striped Pemmican alone, and two striped Medical Supplies: nothing to combine
    assert labels(st) == ["Draw the cards", "Throw away a Resource"]
    st = setup_game()
    arrange(st, supply=["Blubber 1", "Blubber 2", "Book"], striped=["Blubber 1", "Blubber 2"])
    play(st, "Throw away a Resource", "Book")
    play(st, "Combine two striped counters", "Blubber 2", "Blubber 1")
    assert supply(st, "Blubber 2")["side"] == "plain" and supply(st, "Blubber 1")["at"] == "removed"


# ------------------------------------------------------------------ Endings

def test_end_01_mutiny_when_no_man_is_blue_at_the_end_of_a_turn():
    """EN-END-01 (reading: only the men count, not Shackleton or the Blue
    animals): Crean, the last Blue man, is Demoralized by a failed Hunt;
    the game goes on through the Test, and ends in Mutiny once the turn is
    over."""
    st = setup_game()
    arrange(st, demoralized=[n for n in CREW if n != "Crean"])
    start_turn_with(st, [HUNT_MORALE, SLED_HEAT])
    play(st, f"Action: {HUNT_MORALE}", f"Test: {SLED_HEAT}", "Hunt without a weapon")
    roll(st, 2, 2, 2, 2, 2, 2)            # five men of Group 1 with a die (not Hudson) and Shackleton
    assert fresh_men(st) == []
    assert not st.is_over and labels(st) == ["Blubber 1"]   # the Test is still resolved
    play(st, "Blubber 1")
    roll(st, 6)
    assert st.is_over and st.result().ending == "Mutiny"
    assert all(animal(st, a)["side"] == "blue" for a in ANIMALS)


def test_end_01_no_mutiny_if_a_man_is_blue_again_by_the_turn_end():
    """EN-END-01: the check is made at the end of the turn: Crean, the last
    Blue man, is flipped to save the Sled, which leaves no man Blue for a
    moment, but the Sled's reward refreshes Wild and the game goes on."""
    st = setup_game()
    arrange(st, demoralized=[n for n in CREW if n != "Crean"])
    start_turn_with(st, [SLED_HEAT, HUNT_HEAT])
    play(st, f"Action: {SLED_HEAT}", f"Test: {HUNT_HEAT}", "Extra dice for the Dogs: 0")
    roll(st, 1, 6, 2, 2, 2, 2)
    play(st, "Flip a Dog Team Leader to turn a Failure: yes", "Crean")
    assert fresh_men(st) == [] and not st.is_over
    play(st, "Refresh a Demoralized man", "Wild")
    play(st, "Refresh a Demoralized man", "Worsley")
    play(st, "Blubber 1")
    roll(st, 6)
    assert not st.is_over and labels(st)[0] == "Draw the cards"
    assert fresh_men(st) == ["Wild", "Worsley"]


def board_everyone(st, boats):
    """Answer the boarding questions: ``boats`` maps each man to his boat."""
    while labels(st) and labels(st)[0] == "James Caird" and st.current_player == 0:
        waiting = [n for n in CREW if man(st, n)["place"] in ("in_camp", "infirmary") and man(st, n)["boat"] == 0]
        play(st, boats[waiting[0]])


def start_lifeboats(st, boats):
    """Only the men in ``boats`` are alive; no animal, no Resource; draw the
    Lifeboats event and board the men."""
    arrange(st, dead=[n for n in CREW if n not in boats], dogs=0, chippy=False, supply=[],
            hand=[HUNT_FOOD], main=["Lifeboats", SLED_HEAT], discard=[])
    play(st, "Draw the cards")
    draw(st, "Lifeboats", "Whiteout")
    board_everyone(st, boats)


def test_end_02_all_lifeboats_lost_at_sea():
    """EN-END-02: four Red men (who row nothing) in the three boats; only
    Shackleton's die is rolled and no boat completes a card in three Days:
    all three boats are lost and the game ends with that ending."""
    st = setup_game()
    boats = {"Wild": "James Caird", "Crean": "Dudley Docker", "Worsley": "Stancomb Wills",
             "Greenstreet": "Stancomb Wills"}
    arrange(st, demoralized=list(boats))
    start_lifeboats(st, boats)
    draw(st, "Bail Out", "Row Hard", "Gale")      # each boat's first card
    roll(st, 1, 1, 1)                             # Shackleton's die, Days 1 to 3
    assert st.is_over
    assert st.result().ending == "All Lifeboats Lost at Sea"
    assert all(st.piece("boats", b)["lost"] for b in ("James Caird", "Dudley Docker", "Stancomb Wills"))
    assert all(man(st, n)["place"] == "drowned" for n in boats)


def test_end_02_06_all_boats_lost_nobody_survives():
    """EN-END-02, EN-END-06: when all three boats are lost, the James Caird
    is lost with Shackleton in it: no one survives, the score is 0."""
    st = setup_game()
    boats = {"Wild": "James Caird", "Crean": "Dudley Docker"}
    arrange(st, demoralized=list(boats))
    start_lifeboats(st, boats)
    draw(st, "Bail Out", "Row Hard", "Gale")
    roll(st, 1, 1, 1)
    assert st.result().ending == "All Lifeboats Lost at Sea"
    assert st.result().scores == (0,)


def test_end_03_james_caird_lost_while_the_others_come_through():
    """EN-END-03, EN-END-06: the Dudley Docker and the Stancomb Wills
    complete their five cards but the James Caird (Shackleton alone) does
    not: the game ends 'The James Caird Lost at Sea', and the score is the
    ten men alive, without Shackleton."""
    st = setup_game()
    boats = {n: "Dudley Docker" for n in ("Wild", "Worsley", "Greenstreet", "Crean", "Hudson")}
    boats.update({n: "Stancomb Wills" for n in ("Cheetham", "Wordie", "James", "Macklin", "McIlroy")})
    arrange(st, fresh=list(boats))
    start_lifeboats(st, boats)
    draw(st, "Gale", "Heavy Swell", "Bail Out")
    # Day 1
    roll(st, 1)                                        # James Caird: Shackleton
    roll(st, 6, 6, 6, 6, 6)                            # Dudley Docker: five cards of one die
    draw(st, "Heavy Swell", "Heavy Swell", "Rogue Wave", "Rogue Wave")
    roll(st, 6, 6, 6, 6, 1)                            # Stancomb Wills: two Bail Outs
    draw(st, "Bail Out", "Bail Out")
    # Day 2 (the Dudley Docker is done)
    roll(st, 1)
    roll(st, 6, 6, 6, 6, 1)
    draw(st, "Row Hard", "Row Hard")
    # Day 3
    roll(st, 1)
    roll(st, 6, 6, 1, 1, 1)
    assert st.is_over
    assert st.result().ending == "The James Caird Lost at Sea"
    assert st.piece("boats", "James Caird")["lost"]
    assert not st.piece("boats", "Dudley Docker")["lost"] and not st.piece("boats", "Stancomb Wills")["lost"]
    assert st.stat("shackleton_alive") is False
    assert st.result().scores == (10,)


def test_end_04_rescue_when_the_deck_runs_out():
    """EN-END-04: in the Rescue phase the Deck runs out during the draw:
    it is not refilled from the Discards, the turn is played with the two
    cards drawn, and the game ends in Rescue once the turn is over."""
    st = setup_game()
    set_camp(st, "rescue")
    arrange(st, hand=[], main=[HUNT_FOOD, SLED_HEAT], discard=[SLED_MORALE, HUNT_HEAT])
    play(st, "Draw the cards")
    draw(st, HUNT_FOOD, SLED_HEAT)
    assert st.pile("main") == [] and not st.is_over
    assert sorted(st.pile("discard")) == sorted([SLED_MORALE, HUNT_HEAT])     # no reshuffle
    play(st, f"Action: {HUNT_FOOD}", f"Test: {SLED_HEAT}", "Hunt without a weapon")
    roll(st, 6, 6, 6, 6, 6, 6)              # Group 1 without Shackleton: six dice
    play(st, "Take a Meat counter (striped side up)")
    assert not st.is_over
    play(st, "Flip a man to pass the Test without Resources: no")
    play(st, "Blubber 1")                         # Heat 1 at Rescue (designed, as tuned)
    roll(st, 6)
    assert st.is_over and st.result().ending == "Rescue"


def test_end_04_no_rescue_while_cards_remain():
    """EN-END-04: in the Rescue phase with cards still in the Deck at the
    end of the turn, the game goes on."""
    st = setup_game()
    set_camp(st, "rescue")
    arrange(st, main=[SLED_HEAT])
    quiet_turn(st, (HUNT_HEAT, SLED_MORALE, SLED_MEDICAL, HUNT_FOOD, ENT_MEDICAL))
    for _ in range(3):
        play(st, "Top man")
    assert not st.is_over and labels(st)[0] == "Draw the cards"
    assert st.pile("main") == [SLED_HEAT]


def test_end_05_exactly_four_endings():
    """EN-END-05: the ruleset can end in exactly four ways: Mutiny and
    Rescue (end conditions), All Lifeboats Lost at Sea and The James Caird
    Lost at Sea (ended during the Lifeboats)."""
    found = []

    def walk(node):
        if isinstance(node, ir.EndGame):
            found.append(node.ending)
        if attrs.has(type(node)):
            for f in attrs.fields(type(node)):
                walk(getattr(node, f.name))
        elif isinstance(node, (list, tuple)):
            for x in node:
                walk(x)
        elif isinstance(node, dict):
            for x in node.values():
                walk(x)

    walk(GAME.prog.rs)
    conditions = [e.name for e in GAME.prog.rs.endings]
    assert sorted(conditions) == ["Mutiny", "Rescue"]
    assert sorted(set(found)) == ["All Lifeboats Lost at Sea", "The James Caird Lost at Sea"]
    assert len(set(conditions) | set(found)) == 4


def test_end_06_result_is_the_ending_and_the_men_alive():
    """EN-END-06 (reading: the score counts the men alive, in camp, in the
    Infirmary or sailed, plus Shackleton): a Mutiny with Kerr and How dead
    and Hurley Injured during the turn scores 25 men and Shackleton, 26."""
    st = setup_game()
    arrange(st, dead=["Kerr", "How"])
    arrange(st, demoralized=[n for n in CREW if n != "Crean"])
    start_turn_with(st, [HUNT_MORALE, SLED_HEAT])
    play(st, f"Action: {HUNT_MORALE}", f"Test: {SLED_HEAT}", "Hunt without a weapon")
    roll(st, 2, 2, 2, 2, 2, 2)
    assert man(st, "Hurley")["place"] == "infirmary"
    play(st, "Blubber 1")
    roll(st, 6)
    result = st.result()
    assert result.ending == "Mutiny"
    assert result.scores == (26,)
    # men who sailed on the James Caird count as alive too
    st.set_piece("crew", "Wild", "place", "sailed")
    st.set_piece("crew", "Crean", "place", "drowned")
    assert st.result().scores == (25,)


def test_evt_midwinter_feast_refreshes_up_to_three():
    """EN-SETUP-14 (data: the ordinary Events), EN-EVT-03: Midwinter Feast
    (designed, as tuned) flips up to three Red men in camp back to Blue, of
    the player's choice, never one in the Infirmary: of four Red men one
    stays Red; with one Red man, he alone is flipped and no more is asked."""
    st = setup_game()
    arrange(st, fresh=CREW)
    arrange(st, hand=[], discard=[], main=["Midwinter Feast", HUNT_FOOD, SLED_HEAT],
            demoralized=["Wordie", "Kerr", "How", "Hurley"], infirmary=["Vincent"])
    play(st, "Draw the cards")
    draw(st, "Midwinter Feast")
    assert labels(st) == ["Wordie", "Kerr", "Hurley", "How"]
    play(st, "Kerr", "How")
    assert labels(st) == ["Wordie", "Hurley"]
    play(st, "Wordie")
    assert st.current_player == CHANCE                    # the Event Deck's top card
    assert [man(st, n)["side"] for n in ("Wordie", "Kerr", "How", "Hurley")] == \
        ["fresh", "fresh", "fresh", "demoralized"]
    assert (man(st, "Vincent")["place"], man(st, "Vincent")["side"]) == ("infirmary", "demoralized")

    st = setup_game()
    arrange(st, fresh=CREW)
    arrange(st, hand=[], discard=[], main=["Midwinter Feast", HUNT_FOOD, SLED_HEAT],
            demoralized=["Wordie"])
    play(st, "Draw the cards")
    draw(st, "Midwinter Feast")
    assert labels(st) == ["Wordie"]
    play(st, "Wordie")
    assert st.current_player == CHANCE and man(st, "Wordie")["side"] == "fresh"
