"""Scenario tests for Endurance: Progression (EN-PROG-01..18), Shuffling
(EN-SHUF-01..05) and the Lifeboats (EN-BOAT-01..15) in
endurance.checklist.md.

Every die, card and decision is forced (explicit chance mode).  A red Event
is triggered the way the rules meet it: the hand is one card short, the
Deck is ``[the Event, an ordinary card]``, the Event is drawn and resolved
at once, and the Event Deck's top card ("Blizzard" unless a test says
otherwise) goes to the Discards.  The Lifeboats scenarios keep only a few
men alive (the rest are put among the dead) so that the boat sequence stays
short; ``board`` answers the boarding decisions and ``run`` feeds the
Lifeboat cards, the dice and any later decisions in order.
"""

from __future__ import annotations

import pytest

from rulelang import CHANCE

from endurance_helpers import (camp_data, ANIMALS, CREW, GAME, SUPPLIES, animal, arrange, draw, group_of,
                               in_supply, labels, man, play, roll, set_man, setup_game,
                               start_turn_with, supply)

BOATS = ("James Caird", "Dudley Docker", "Stancomb Wills")
JC, DD, SW = BOATS

HAND_CARD = "01 Hunt 1 / Food P"          # the one card already in hand
FILLER = "35 Sled / Morale"               # the ordinary card under the Event
OLD_DISCARD = ("03 Entertain book / Food C", "04 Hunt 1 / Medical")
RESERVE = tuple(setup_game().pile("reserve"))

AUTO_NO = "Flip a man to pass the Test without Resources: no"
HARD_NO = "Shuffle The Hard Choice into the Deck: no"
HARD_YES = "Shuffle The Hard Choice into the Deck: yes"
UNPICKED = ("Top man", "Bottom man")
TAKE, LEAVE = "Take it aboard", "Leave it"

# Four Fresh men who row the James Caird with Shackleton (five dice a Day).
ROWERS = ["Wild", "Worsley", "Greenstreet", "Crean"]
# The James Caird alone, five dice of 6 on Day 1: its five one-die cards
# (Heavy Swell x3, Rogue Wave x2) are done at once.  The Dudley Docker and
# the Stancomb Wills are dealt a Gale each and carry no one.
def jc_alone(dice=5):
    """The James Caird with ``dice`` dice of 6 on Day 1 (Shackleton and
    ``dice - 1`` Fresh men) does its five one-die cards (Heavy Swell x3,
    Rogue Wave x2) at once; the Dudley Docker and the Stancomb Wills are
    dealt a Gale each and carry no one (they roll no dice)."""
    return ["Heavy Swell", "Gale", "Gale", *[6] * dice,
            "Heavy Swell", "Heavy Swell", "Rogue Wave", "Rogue Wave"]


GAME_LIFEBOAT_CARDS = ["Bail Out"] * 3 + ["Row Hard"] * 3 + ["Heavy Swell"] * 3 + \
    ["Rogue Wave"] * 2 + ["Ice Floes"] * 3 + ["Night Watch"] * 2 + ["Gale"] * 2

# Fourteen Fresh men in three crews, and a run in which every boat finishes
# (all dice 6).  Day 1: the James Caird (5 dice) does its five one-die
# cards; the Dudley Docker (5 dice) does two Bail Outs and hands one die on;
# the Stancomb Wills (5 + 1 dice) does three Row Hards.  Day 2: the Dudley
# Docker does a Bail Out and a Gale and hands one die on; the Stancomb Wills
# does an Ice Floes and a Night Watch.  Day 3: the Dudley Docker does its
# last Gale.
CREWS = {JC: ["Wild", "Worsley", "Greenstreet", "Crean"],
         DD: ["Cheetham", "Wordie", "James", "Macklin", "McIlroy"],
         SW: ["Clark", "Hussey", "Rickinson", "Kerr", "Hurley"]}
SIX5 = [6] * 5
FULL_RUN = ["Heavy Swell", "Bail Out", "Row Hard",
            *SIX5, "Heavy Swell", "Heavy Swell", "Rogue Wave", "Rogue Wave",
            *SIX5, "Bail Out", "Bail Out",
            *SIX5, "Row Hard", "Row Hard", "Ice Floes",
            *SIX5, "Gale", "Gale",
            *SIX5, "Night Watch",
            *SIX5]


# ------------------------------------------------------------------ helpers

def run(st, *steps):
    """Feed the game in order: at a chance node an int is a die face and a
    string a card drawn; at a decision a string is the move's label."""
    for s in steps:
        if st.current_player == CHANCE:
            st.apply(f"roll {s}" if isinstance(s, int) else f"draw {s}")
        else:
            assert isinstance(s, str), f"a decision, not a die: {labels(st)}"
            st.apply(s)
    return st


def trigger(st, event, *, hand=(HAND_CARD,), rest=(FILLER,), discard=OLD_DISCARD,
            event_card="Blizzard", **kw):
    """Arrange the scenario and draw ``event`` (the hand one card short):
    the Event is resolved, the Event Deck's ``event_card`` goes to the
    Discards, and the state stops at the Event's first decision."""
    arrange(st, hand=hand, main=[event, *rest], discard=discard, **kw)
    st.set_pile("events", [c for c in st.pile("events") if c not in (event, event_card)]
                + [event_card])
    play(st, "Draw the cards")
    draw(st, event, event_card)
    return st


def step_default(st):
    """One default answer: a die shows 6, a card or choice is the first
    offered, a 'may' is declined."""
    offered = labels(st)
    no = [l for l in offered if l.endswith(": no")]
    st.apply("roll 6" if offered[0].startswith("roll ") else no[0] if no else offered[0])
    return offered


def finish_turn(st, limit=400):
    """Play the rest of the turn with the default answers; stop at the next
    turn's first decision (or the end of the game).  Returns every label
    offered on the way."""
    seen = []
    for _ in range(limit):
        if st.is_over or "Draw the cards" in labels(st):
            return seen
        seen += step_default(st)
    raise AssertionError("the turn did not end")


def until(st, cond, limit=200):
    """Default answers until ``cond(st)``; returns every label offered."""
    seen = []
    for _ in range(limit):
        if cond(st):
            return seen
        seen += step_default(st)
    raise AssertionError(f"never reached: {labels(st)}")


def decline_auto_pass(st):
    if AUTO_NO in labels(st):
        play(st, AUTO_NO)


def revive(st, *names):
    """Put these men back in camp, Fresh (keeping their Group, else Group 3)."""
    for name in names:
        set_man(st, name, side="fresh", place="in_camp", group=man(st, name)["group"] or 3)


def last_pool(st):
    return [tuple(e.value) for e in st.log if e.kind == "pool"][-1]


def living(st):
    return [n for n in CREW if man(st, n)["place"] in ("in_camp", "infirmary")]


def board(st, boats, cargo=None):
    """Answer the boarding: ``boats`` gives each living man's boat (a dict,
    or one boat name for everyone); ``cargo`` gives a boat to the animals and
    Resources taken aboard, the others are left."""
    cargo = cargo or {}
    for name in living(st):
        play(st, boats if isinstance(boats, str) else boats[name])
    for name in [a for a in ANIMALS if animal(st, a)["present"]]:
        play(st, *((TAKE, cargo[name]) if name in cargo else (LEAVE,)))
    for name in [r for r in SUPPLIES if supply(st, r)["at"] == "in_supply"]:
        play(st, *((TAKE, cargo[name]) if name in cargo else (LEAVE,)))
    return st


def boat(st, name):
    return st.piece("boats", name)


def done(st):
    return tuple(boat(st, b)["done"] for b in BOATS)


def pools(st):
    """The dice of each boat turn so far (one tuple per turn, in order)."""
    out, started = [], False
    for e in st.log:
        if e.kind == "log" and e.text == "The men take to the boats.":
            started = True
        elif started and e.kind == "pool":
            out.append(tuple(e.value))
    return out


def boat_game(crew, *, demoralized=(), infirmary=(), supply=(), dogs=0, chippy=False,
              active=(), active_group=1, **kw):
    """A game at the Lifeboats' first boarding decision with only ``crew``
    and ``infirmary`` alive (``crew`` in Group 1, Fresh unless in
    ``demoralized``)."""
    st = setup_game()
    alive = set(crew) | set(infirmary)
    arrange(st, groups={1: [n for n in crew if n not in infirmary]},
            dead=[n for n in CREW if n not in alive], demoralized=demoralized,
            infirmary=infirmary, supply=supply, dogs=dogs, chippy=chippy,
            active_group=active_group)
    return trigger(st, "Lifeboats", active=active, **kw)


def full_boat_game(**kw):
    """The fourteen men of ``CREWS`` alive and Fresh, at the first boarding."""
    return boat_game([n for men in CREWS.values() for n in men], **kw)


def crews_board(st, cargo=None):
    return board(st, {n: b for b, men in CREWS.items() for n in men}, cargo)


def regroup(st, groups):
    """Answer 'Put the man in a Group' for every man in camp, in order: the
    Group given, else spread over the Groups in turn."""
    for i, name in enumerate([n for n in CREW if man(st, n)["place"] == "in_camp"]):
        play(st, f"Group {groups.get(name, 1 + i % 5)}")
    return st


def after_lifeboats(st, groups=None):
    """The regrouping after a run that survived, then the shuffle (men
    coming out of the Infirmary: first Group offered, a 6) and its offer of
    The Hard Choice (declined)."""
    regroup(st, groups or {})
    until(st, lambda s: HARD_NO in labels(s))
    play(st, HARD_NO)
    return st


# ------------------------------------------------------------------ Progression

def test_prog_01_camp_track_spaces_in_order():
    """EN-PROG-01: the Camp Marker goes Ocean Camp, Patience Camp, Elephant
    Island, Rescue, one red Event after another, and the Heat and Morale
    Thresholds are those of the space it is on (Elephant Island and Rescue
    designed, as tuned: 2 / 8 and 1 / 4)."""
    st = setup_game()
    men = ROWERS + ["Hussey", "Clark", "Kerr", "Hurley"]
    arrange(st, groups={1: men}, dead=[n for n in CREW if n not in men], dogs=0, chippy=False)
    seen = [(st.stat("camp"), camp_data(st)["heat"], camp_data(st)["morale"])]
    # Turn 1: Patience Camp (the Supply holds four, so all are kept).
    trigger(st, "Patience Camp", active=["The Endurance Sinks"],
            supply=["Pemmican 1", "Meat 1", "Blubber 1", "Blubber 2"])
    play(st, "Pemmican 1", "Meat 1", "Blubber 1", "Blubber 2", HARD_NO)
    seen.append((st.stat("camp"), camp_data(st)["heat"], camp_data(st)["morale"]))
    finish_turn(st)
    # Turn 2: the Lifeboats, everyone in the James Caird.
    trigger(st, "Lifeboats", hand=("01 Hunt 1 / Food P", "02 Sled / Heating"))
    board(st, JC)
    run(st, *jc_alone(9))
    after_lifeboats(st)
    seen.append((st.stat("camp"), camp_data(st)["heat"], camp_data(st)["morale"]))
    finish_turn(st)
    # Turn 3: the Voyage of the James Caird.
    trigger(st, "Voyage of the James Caird",
            hand=("01 Hunt 1 / Food P", "02 Sled / Heating", "05 Sled / Morale"),
            rest=("06 Entertain book / Food M",))
    play(st, *men[:5])
    until(st, lambda s: HARD_NO in labels(s))
    play(st, HARD_NO)
    seen.append((st.stat("camp"), camp_data(st)["heat"], camp_data(st)["morale"]))
    assert seen == [("ocean_camp", 1, 13), ("patience_camp", 2, 15),
                    ("elephant_island", 2, 8), ("rescue", 1, 4)]


@pytest.mark.parametrize("event, blubber, passed", [
    (None, ["Blubber 1"], True),                         # Ocean Camp: Heat 1
    ("Patience Camp", ["Blubber 1"], False),             # Patience Camp: Heat 2
    ("Patience Camp", ["Blubber 1", "Blubber 2"], True),
])
def test_prog_01_heat_threshold_read_from_camp_marker(event, blubber, passed):
    """EN-PROG-01: a Heating Test asks for the Heat Threshold of the space
    the Camp Marker is on: one Blubber passes at Ocean Camp but not once
    Patience Camp has moved the Marker on."""
    st = setup_game()
    arrange(st, supply=blubber, dogs=0, chippy=False)
    heat = "07 Hunt 1 / Heating"                          # Penalties: McNish, Clark
    if event:
        trigger(st, event, hand=(heat,), rest=("05 Sled / Morale",))
        play(st, *blubber, HARD_NO)
        draw(st, "05 Sled / Morale")
    else:
        start_turn_with(st, [heat, "05 Sled / Morale"])
    assert st.pile("hand") == [heat, "05 Sled / Morale"]
    play(st, "Action: 05 Sled / Morale", f"Test: {heat}")   # no Dogs: the Sled fails
    finish_turn(st)                                        # McNish's auto-pass declined
    assert (man(st, "McNish")["side"] == "fresh") is passed
    assert (man(st, "Clark")["side"] == "fresh") is passed


def test_prog_02_endurance_removed_at_next_event():
    """EN-PROG-02: with The Endurance Sinks the Active Event, the next Event
    resolved removes every Resource still on The Endurance card; the Supply
    and the counters beside the Display are untouched."""
    st = setup_game()
    aboard = sorted(n for n in SUPPLIES if supply(st, n)["at"] == "on_endurance")
    assert "Book" in aboard and "Rifle" in aboard
    before_supply = in_supply(st)
    trigger(st, "Calm Weather", active=["The Endurance Sinks"])
    assert all(supply(st, n)["at"] == "removed" for n in aboard)
    assert in_supply(st) == before_supply
    assert supply(st, "Meat 2")["at"] == "beside"
    assert st.pile("active") == ["Calm Weather"]
    assert "The Endurance Sinks" in st.pile("box")


def test_prog_02_resolving_the_sinks_itself_keeps_the_endurance():
    """EN-PROG-02: The Endurance goes only at the *next* Event resolved: as
    The Endurance Sinks is resolved its Resources stay, and an extra Event
    drawn the same turn (put in the Discards, not resolved) removes
    nothing."""
    st = setup_game()
    trigger(st, "The Endurance Sinks", rest=("Calm Weather", FILLER))
    play(st, HARD_NO)
    assert supply(st, "Book")["at"] == "on_endurance"
    draw(st, "Calm Weather")                 # a second Event this turn
    assert "Calm Weather" in st.pile("discard")
    assert st.pile("active") == ["The Endurance Sinks"]
    assert supply(st, "Book")["at"] == "on_endurance"
    draw(st, FILLER)
    assert st.current_player == 0 and "Action: 35 Sled / Morale" in labels(st)


def test_prog_03_endurance_can_still_be_sledded():
    """EN-PROG-03: while The Endurance Sinks is the Active Event, The
    Endurance card stays in play: a Sled reward fetches a Resource from it
    into the Supply."""
    st = setup_game()
    arrange(st, groups={1: ["Wild"]}, dogs=1)
    trigger(st, "The Endurance Sinks", hand=("02 Sled / Heating",))
    play(st, HARD_NO)
    draw(st, FILLER)
    assert st.pile("active") == ["The Endurance Sinks"]
    play(st, "Action: 02 Sled / Heating", f"Test: {FILLER}", "Extra dice for the Dogs: 0")
    roll(st, 6, 6)                             # Wild and Shackleton: two Successes
    fetch = "Fetch a Resource from The Endurance or Ocean Camp"
    play(st, fetch)
    assert "Book" in labels(st) and "Rifle" in labels(st)
    play(st, "Book", fetch, "Rifle")
    assert supply(st, "Book")["at"] == "in_supply"
    assert supply(st, "Rifle")["at"] == "in_supply"


def test_prog_04_sinks_shuffles_patience_camp_and_discards():
    """EN-PROG-04: resolving The Endurance Sinks shuffles Patience Camp and
    every Discard into the Deck, after the Event Deck's card has gone to
    the Discards (that card is shuffled in too).  Reading: this happens as
    The Endurance Sinks is resolved.  The shuffle is one of the Event kind
    (EN-SHUF-01)."""
    st = setup_game()
    trigger(st, "The Endurance Sinks", event_card="Soft Snow")
    play(st, HARD_NO)
    assert st.pile("discard") == []
    assert sorted(st.pile("main")) == sorted([FILLER, "Patience Camp", "Soft Snow", *OLD_DISCARD])
    assert "Patience Camp" not in st.pile("set_aside")
    assert "Soft Snow" not in st.pile("events")
    assert st.stat("camp") == "ocean_camp"


def test_prog_05_patience_camp_keeps_four_resources():
    """EN-PROG-05: with Patience Camp resolved the player keeps four
    Resources of their choice in the Supply and the rest go to the Ocean
    Camp card."""
    st = setup_game()
    trigger(st, "Patience Camp")
    assert sorted(labels(st)) == sorted(in_supply(st))           # the six of setup
    play(st, "Medical Supplies 1", "Blubber 1")
    assert "Blubber 1" not in labels(st) and "Medical Supplies 1" not in labels(st)
    play(st, "Meat 1", "Pemmican 2", HARD_NO)
    assert in_supply(st) == ["Blubber 1", "Meat 1", "Medical Supplies 1", "Pemmican 2"]
    assert supply(st, "Pemmican 1")["at"] == "on_ocean_camp"
    assert supply(st, "Canned Goods 1")["at"] == "on_ocean_camp"


def test_prog_06_ocean_camp_removed_at_next_event():
    """EN-PROG-06: with Patience Camp the Active Event, the next Event
    resolved removes the Ocean Camp card and every Resource on it; the
    Supply stays."""
    st = setup_game()
    arrange(st, on_ocean_camp=["Book", "Rifle", "Pemmican 3"])
    before = in_supply(st)
    trigger(st, "Calm Weather", active=["Patience Camp"])
    for name in ("Book", "Rifle", "Pemmican 3"):
        assert supply(st, name)["at"] == "removed"
    assert in_supply(st) == before
    assert st.pile("active") == ["Calm Weather"]


def test_prog_06_ocean_camp_stays_until_then():
    """EN-PROG-06: what Patience Camp puts on the Ocean Camp card stays
    there while Patience Camp is the Active Event (a second Event drawn the
    same turn is not resolved and removes nothing)."""
    st = setup_game()
    trigger(st, "Patience Camp", rest=("Calm Weather", FILLER))
    play(st, "Pemmican 1", "Pemmican 2", "Meat 1", "Blubber 1", HARD_NO)
    draw(st, "Calm Weather", FILLER)
    assert supply(st, "Canned Goods 1")["at"] == "on_ocean_camp"
    assert supply(st, "Medical Supplies 1")["at"] == "on_ocean_camp"


def test_prog_06_ocean_camp_can_be_sledded_until_then():
    """EN-PROG-06: while Patience Camp is the Active Event the Ocean Camp
    card is still in play: a Sled reward fetches a Resource from it."""
    st = setup_game()
    arrange(st, on_ocean_camp=["Book"], active=["Patience Camp"])
    for name in SUPPLIES:                                 # The Endurance is gone
        if supply(st, name)["at"] == "on_endurance":
            st.set_piece("supplies", name, "at", "removed")
    start_turn_with(st, ["02 Sled / Heating", FILLER], groups={1: ["Wild"]}, dogs=1)
    play(st, "Action: 02 Sled / Heating", f"Test: {FILLER}", "Extra dice for the Dogs: 0")
    roll(st, 6, 6)                                         # Wild and Shackleton
    play(st, "Fetch a Resource from The Endurance or Ocean Camp")
    assert labels(st) == ["Book"]
    play(st, "Book")
    assert supply(st, "Book")["at"] == "in_supply"


def test_prog_07_patience_camp_moves_marker_and_shuffles_lifeboats():
    """EN-PROG-07: resolving Patience Camp moves the Camp Marker to
    Patience Camp and shuffles Lifeboats, the Event Deck's card and all the
    Discards into the Deck.  Reading: at once, as Patience Camp is
    resolved."""
    st = setup_game()
    arrange(st, supply=["Pemmican 1", "Meat 1"])
    trigger(st, "Patience Camp", event_card="Soft Snow")
    play(st, "Pemmican 1", "Meat 1")
    assert st.stat("camp") == "patience_camp"
    play(st, HARD_NO)
    assert st.pile("discard") == []
    assert sorted(st.pile("main")) == sorted([FILLER, "Lifeboats", "Soft Snow", *OLD_DISCARD])
    assert "Lifeboats" not in st.pile("set_aside")


def test_prog_08_three_card_hand_from_next_turn():
    """EN-PROG-08: the turn Patience Camp is resolved the hand stays at two;
    from the next turn three cards are drawn and the card not picked costs
    one Penalty (here its top man, McNish, is Demoralized; its bottom man,
    Clark, is not)."""
    st = setup_game()
    arrange(st, dogs=0, chippy=False)
    trigger(st, "Patience Camp", rest=(FILLER, "06 Entertain book / Food M"))
    play(st, *in_supply(st)[:4], HARD_NO)
    draw(st, FILLER)
    assert st.pile("hand") == [HAND_CARD, FILLER]          # still two this turn
    assert st.stat("hand_size", 0) == 2
    finish_turn(st)
    assert st.stat("hand_size", 0) == 3
    three = ["05 Sled / Morale", "15 Entertain book / Morale", "07 Hunt 1 / Heating"]
    arrange(st, hand=[], main=three + ["08 Sled / Food PP"], discard=[])
    revive(st, "Vincent", "Blackborow", "McNish", "Clark")   # the Penalty men in camp
    play(st, "Draw the cards")
    draw(st, *three)
    assert st.current_player == 0 and sorted(st.pile("hand")) == sorted(three)
    # The Sled fails (no Dogs: Vincent and Blackborow are Demoralized), the
    # Morale Test passes on numbers.
    play(st, "Action: 05 Sled / Morale", "Test: 15 Entertain book / Morale")
    decline_auto_pass(st)
    assert labels(st) == list(UNPICKED)
    play(st, "Top man")
    assert man(st, "McNish")["side"] == "demoralized"
    assert man(st, "Clark")["side"] == "fresh"
    assert "07 Hunt 1 / Heating" in st.pile("discard") and st.pile("hand") == []


def test_prog_09_lifeboats_survived_moves_to_elephant_island():
    """EN-PROG-09: resolving Lifeboats plays the boat sequence; when the men
    come through, the Camp Marker goes to Elephant Island."""
    st = boat_game(ROWERS)
    assert st.stat("camp") == "ocean_camp"
    board(st, JC)
    assert labels(st)[0].startswith("draw")              # the boat sequence runs
    run(st, *jc_alone())
    assert not st.is_over
    assert st.stat("camp") == "elephant_island"


def test_prog_09_james_caird_lost_no_elephant_island():
    """EN-PROG-09: if the James Caird is lost the men do not come through,
    even with the Dudley Docker safe: the game ends and the Camp Marker
    never reaches Elephant Island."""
    st = boat_game(ROWERS)
    board(st, DD)                                        # Shackleton alone in the JC
    run(st, "Ice Floes", "Heavy Swell", "Gale",
        1,                                               # Day 1: JC
        6, 6, 6, 6, "Heavy Swell", "Heavy Swell", "Rogue Wave", "Rogue Wave",   # DD: 4 done
        1, 6, 1, 1, 1,                                   # Day 2: JC, DD (done)
        1)                                               # Day 3: JC
    assert done(st) == (0, 5, 0)
    assert st.is_over and st.result().ending == "The James Caird Lost at Sea"
    assert st.stat("camp") == "ocean_camp"


def test_prog_10_regroup_freely_marker_to_group_one():
    """EN-PROG-10: after the Lifeboats every man in camp is placed in a
    Group of the player's choice, and the Active Group Marker goes to
    Group 1 (it was on Group 3)."""
    st = full_boat_game(active_group=3)
    crews_board(st)
    run(st, *FULL_RUN)
    wanted = {n: 5 for n in CREWS[JC]}
    wanted.update({n: 4 for n in CREWS[DD]})
    wanted.update({n: 2 for n in CREWS[SW][:3]})
    wanted.update({n: 3 for n in CREWS[SW][3:]})
    regroup(st, wanted)
    assert group_of(st, 5) == sorted(CREWS[JC])
    assert group_of(st, 4) == sorted(CREWS[DD])
    assert group_of(st, 2) == sorted(CREWS[SW][:3])
    assert group_of(st, 3) == sorted(CREWS[SW][3:])
    assert group_of(st, 1) == []
    assert st.stat("active_group") == 1


def test_prog_10_turn_in_progress_goes_on_as_group_one():
    """EN-PROG-10: reading: the turn in which the boats came through goes on
    as Group 1's (its Hunt rolls for Group 1's two men and Shackleton: three
    dice), and the marker moves on from there to Group 2."""
    st = boat_game(ROWERS, active_group=3)
    board(st, JC)
    run(st, *jc_alone())
    regroup(st, {"Wild": 1, "Worsley": 1, "Greenstreet": 3, "Crean": 3})
    play(st, HARD_NO)
    draw(st, FILLER)
    assert st.stat("active_group") == 1
    play(st, f"Action: {HAND_CARD}", f"Test: {FILLER}", "Hunt without a weapon")
    roll(st, 6, 6, 6)
    assert last_pool(st) == (6, 6, 6) and st.current_player == 0
    finish_turn(st)
    assert st.stat("active_group") == 2


def test_prog_10_group_space_limit_when_regrouping():
    """EN-PROG-10: the regrouping offers every Group with room (reading: six
    spaces a Group): once six men are in Group 1 it is no longer offered."""
    st = full_boat_game()
    crews_board(st)
    run(st, *FULL_RUN)
    assert labels(st) == [f"Group {g}" for g in range(1, 6)]
    play(st, *["Group 1"] * 6)
    assert labels(st) == [f"Group {g}" for g in range(2, 6)]


def test_prog_11_voyage_and_discards_shuffled_after_lifeboats():
    """EN-PROG-11: after the Lifeboats, Voyage of the James Caird, the Event
    Deck's card and all the Discards are shuffled into the Deck."""
    st = boat_game(ROWERS, event_card="Soft Snow")
    assert "Voyage of the James Caird" in st.pile("set_aside")
    board(st, JC)
    run(st, *jc_alone())
    after_lifeboats(st)
    assert st.pile("discard") == []
    assert "Voyage of the James Caird" not in st.pile("set_aside")
    assert sorted(st.pile("main")) == sorted([FILLER, "Voyage of the James Caird", "Soft Snow",
                                              *OLD_DISCARD])


def test_prog_12_four_card_hand_two_penalties_of_choice():
    """EN-PROG-12: from the turn after the Lifeboats four cards are drawn;
    each of the two cards not picked costs one Penalty, the player choosing
    which: here the top man of one (McNish) and the bottom man of the other
    (Crean)."""
    men = ROWERS + ["McNish", "Hurley", "Clark", "Vincent", "Blackborow"]
    st = boat_game(men)
    board(st, JC)
    run(st, *jc_alone(10))
    after_lifeboats(st)
    draw(st, FILLER)
    assert st.stat("hand_size", 0) == 2                  # this turn: still two
    finish_turn(st)
    assert st.stat("hand_size", 0) == 4
    four = ["05 Sled / Morale", "15 Entertain book / Morale",
            "07 Hunt 1 / Heating", "10 Hunt 1 / Morale"]   # 07: McNish/Clark; 10: Hurley/Crean
    arrange(st, hand=[], main=four + ["08 Sled / Food PP"], discard=[])
    revive(st, *men)
    play(st, "Draw the cards")
    draw(st, *four)
    assert sorted(st.pile("hand")) == sorted(four)
    # The Sled fails (no Dogs: Vincent and Blackborow Demoralized); Wild
    # passes the Morale Test (Elephant Island asks 12 Fresh men).
    play(st, "Action: 05 Sled / Morale", "Test: 15 Entertain book / Morale")
    play(st, "Flip a man to pass the Test without Resources: yes", "Wild")
    assert labels(st) == list(UNPICKED)
    play(st, "Top man")
    assert labels(st) == list(UNPICKED)
    play(st, "Bottom man")
    assert [man(st, n)["side"] for n in ("McNish", "Clark", "Hurley", "Crean")] == \
        ["demoralized", "fresh", "fresh", "demoralized"]


def test_prog_13_voyage_five_men_sail():
    """EN-PROG-13: Voyage of the James Caird: the player picks five men, who
    leave play.  Reading: any living man, in a Group or in the Infirmary,
    Fresh or not; the dead cannot be picked; the men who sailed still count
    as alive in the result."""
    st = setup_game()
    arrange(st, infirmary=["Kerr"], dead=["Clark"], demoralized=["Wild"])
    score = st.result().scores[0]
    trigger(st, "Voyage of the James Caird")
    assert "Kerr" in labels(st) and "Wild" in labels(st) and "Clark" not in labels(st)
    five = ["Wild", "Kerr", "Crean", "McNish", "Worsley"]
    for name in five[:4]:
        play(st, name)
        assert name not in labels(st)
    play(st, five[4])
    assert labels(st) == [HARD_YES, HARD_NO]            # no sixth man is asked for
    for name in five:
        assert man(st, name)["place"] == "sailed" and man(st, name)["group"] == 0
    assert man(st, "Clark")["place"] == "dead"
    assert st.result().scores[0] == score


def test_prog_14_voyage_shuffles_reserve_and_discards_rescue():
    """EN-PROG-14: Voyage of the James Caird shuffles all the Discards and
    the fifteen-card Reserve into the Deck, and the Camp Marker goes to
    Rescue."""
    st = setup_game()
    assert len(st.pile("reserve")) == 15
    trigger(st, "Voyage of the James Caird", event_card="Soft Snow")
    play(st, "Wild", "Worsley", "Crean", "McNish", "Hussey", HARD_NO)
    assert st.pile("reserve") == [] and st.pile("discard") == []
    assert sorted(st.pile("main")) == sorted([FILLER, "Soft Snow", *OLD_DISCARD, *RESERVE])
    assert st.stat("camp") == "rescue"


def test_prog_15_reserve_untouched_until_voyage():
    """EN-PROG-15: the Reserve set aside at setup (15 cards) is left alone by
    every earlier shuffle: The Endurance Sinks', Patience Camp's, an empty
    Deck's and the Lifeboats'; no draw offers one of its cards."""
    st = setup_game()
    assert sorted(st.pile("reserve")) == sorted(RESERVE) and len(RESERVE) == 15
    trigger(st, "The Endurance Sinks")
    play(st, HARD_NO)
    assert not any(f"draw {c}" in labels(st) for c in RESERVE)
    assert sorted(st.pile("reserve")) == sorted(RESERVE)
    # Patience Camp
    st = setup_game()
    trigger(st, "Patience Camp")
    play(st, *in_supply(st)[:4], HARD_NO)
    assert sorted(st.pile("reserve")) == sorted(RESERVE)
    # an empty Deck
    st = setup_game()
    arrange(st, hand=[], main=[FILLER], discard=list(OLD_DISCARD))
    play(st, "Draw the cards")
    draw(st, FILLER)
    play(st, HARD_NO)
    assert not any(f"draw {c}" in labels(st) for c in RESERVE)
    assert sorted(st.pile("reserve")) == sorted(RESERVE)
    # the Lifeboats
    st = boat_game(ROWERS)
    board(st, JC)
    run(st, *jc_alone())
    after_lifeboats(st)
    assert sorted(st.pile("reserve")) == sorted(RESERVE)


def voyage_then_next_turn():
    """Voyage of the James Caird resolved in turn 1 (five men sail), turn 1
    played out with the default answers; turn 2 at its first decision."""
    st = setup_game()
    arrange(st, dogs=0, chippy=False)
    trigger(st, "Voyage of the James Caird")
    play(st, "Orde-Lees", "Green", "McLeod", "McCarthy", "Holness", HARD_NO)
    draw(st, FILLER)
    finish_turn(st)
    assert not st.is_over and st.stat("camp") == "rescue"
    return st


def test_prog_16_five_card_hand_three_penalties():
    """EN-PROG-16: from the turn after the Voyage of the James Caird five
    cards are drawn and each of the three cards not picked costs one
    Penalty."""
    st = voyage_then_next_turn()
    assert st.stat("hand_size", 0) == 5
    five = ["05 Sled / Morale", "15 Entertain book / Morale", "07 Hunt 1 / Heating",
            "10 Hunt 1 / Morale", "12 Entertain book / Heating"]
    # unpicked: 07 McNish/Clark, 10 Hurley/Crean, 12 Hudson/Green(sailed)
    arrange(st, hand=[], main=five + ["08 Sled / Food PP"], discard=[])
    revive(st, "Vincent", "Blackborow", "McNish", "Clark", "Hurley", "Crean", "Hudson", "Wild")
    play(st, "Draw the cards")
    draw(st, *five)
    assert sorted(st.pile("hand")) == sorted(five)
    play(st, "Action: 05 Sled / Morale", "Test: 15 Entertain book / Morale")
    decline_auto_pass(st)
    for _ in range(3):
        assert labels(st) == list(UNPICKED)
        play(st, "Top man")
    assert [man(st, n)["side"] for n in ("McNish", "Hurley", "Hudson", "Clark", "Crean")] == \
        ["demoralized"] * 3 + ["fresh"] * 2
    assert st.pile("hand") == []


def test_prog_17_no_die_for_shackleton_in_rescue():
    """EN-PROG-17: before Rescue, Group 1 rolls a die for Shackleton too
    (Wild alone: two dice, target 3, Shackleton's Skill Level); in the
    Rescue phase only Wild rolls: one die, target 4, so a 3 fails."""
    before = setup_game()
    start_turn_with(before, [HAND_CARD, FILLER], groups={1: ["Wild"]})
    play(before, f"Action: {HAND_CARD}", f"Test: {FILLER}", "Hunt without a weapon")
    roll(before, 3, 3)
    assert last_pool(before) == (3, 3)              # Wild and Shackleton
    assert before.stat("successes") == 2

    st = voyage_then_next_turn()
    hand = [HAND_CARD, FILLER, "07 Hunt 1 / Heating", "10 Hunt 1 / Morale",
            "12 Entertain book / Heating"]
    start_turn_with(st, hand, groups={1: ["Wild"]}, active_group=1)
    play(st, f"Action: {HAND_CARD}", f"Test: {FILLER}", "Hunt without a weapon")
    roll(st, 3)
    assert last_pool(st) == (3,)                     # Wild's die only
    assert st.stat("successes") == 0


def test_prog_18_rescue_no_reshuffle_game_ends_after_turn():
    """EN-PROG-18: in the Rescue phase an empty Deck is not refilled from the
    Discards: the hand is played with the two cards left (reading), no card
    is left over to cost a Penalty, and the game ends (Rescue) once that
    turn is over, not before."""
    st = voyage_then_next_turn()
    two = ["05 Sled / Morale", "15 Entertain book / Morale"]
    arrange(st, hand=[], main=two, discard=list(OLD_DISCARD))
    revive(st, "Vincent", "Blackborow")
    play(st, "Draw the cards")
    draw(st, *two)
    assert st.pile("main") == [] and sorted(st.pile("discard")) == sorted(OLD_DISCARD)
    assert st.current_player == 0 and sorted(st.pile("hand")) == sorted(two)
    play(st, "Action: 05 Sled / Morale", "Test: 15 Entertain book / Morale")
    seen = finish_turn(st)
    assert not any(l in UNPICKED for l in seen)
    assert st.is_over and st.result().ending == "Rescue"
    assert sorted(st.pile("discard")) == sorted([*OLD_DISCARD, *two])


def test_prog_18_rescue_goes_on_while_cards_remain():
    """EN-PROG-18: in the Rescue phase the game goes on to another turn as
    long as the Deck still holds a card."""
    st = voyage_then_next_turn()
    five = ["05 Sled / Morale", "15 Entertain book / Morale", "07 Hunt 1 / Heating",
            "10 Hunt 1 / Morale", "12 Entertain book / Heating"]
    arrange(st, hand=[], main=five + ["08 Sled / Food PP"], discard=[])
    play(st, "Draw the cards")
    draw(st, *five)
    finish_turn(st)
    assert not st.is_over and "Draw the cards" in labels(st)
    assert st.pile("main") == ["08 Sled / Food PP"]


# ------------------------------------------------------------------ Shuffling

def test_shuf_01_02_empty_deck_shuffled_mid_draw():
    """EN-SHUF-01, EN-SHUF-02: a card must be drawn and the Deck is empty:
    the Discards become the Deck in the middle of the draw, and drawing
    goes on from it."""
    st = setup_game()
    arrange(st, hand=[], main=[FILLER], discard=list(OLD_DISCARD))
    play(st, "Draw the cards")
    draw(st, FILLER)                                   # the Deck is now empty
    play(st, HARD_NO)
    assert st.pile("discard") == [] and sorted(st.pile("main")) == sorted(OLD_DISCARD)
    assert sorted(labels(st)) == sorted(f"draw {c}" for c in OLD_DISCARD)
    draw(st, OLD_DISCARD[1])
    assert st.pile("hand") == [FILLER, OLD_DISCARD[1]]
    assert st.pile("main") == [OLD_DISCARD[0]]
    assert st.current_player == 0


def test_shuf_01_no_shuffle_while_deck_holds_cards():
    """EN-SHUF-01: with cards left in the Deck no shuffle happens: the
    Discards stay where they are."""
    st = setup_game()
    arrange(st, hand=[], main=[FILLER, "36 Entertain phonograph / Food C", "37 Hunt 3 / Heating"],
            discard=list(OLD_DISCARD), infirmary=["Kerr"])
    play(st, "Draw the cards")
    draw(st, FILLER, "37 Hunt 3 / Heating")
    assert st.current_player == 0
    assert sorted(st.pile("discard")) == sorted(OLD_DISCARD)
    assert man(st, "Kerr")["place"] == "infirmary"


def test_shuf_03_infirmary_men_recover_to_chosen_group():
    """EN-SHUF-03: on a shuffle each man in the Infirmary comes back to a
    Group the player picks.  Reading: a full Group (six men: Group 2 of
    setup) is not offered."""
    st = setup_game()
    arrange(st, hand=[], main=[FILLER], discard=list(OLD_DISCARD), infirmary=["Hudson", "Kerr"])
    assert len(group_of(st, 2)) == 6
    play(st, "Draw the cards")
    draw(st, FILLER)
    assert labels(st) == ["Group 1", "Group 3", "Group 4", "Group 5"]   # Hudson
    play(st, "Group 4")
    roll(st, 1)
    assert labels(st) == ["Group 1", "Group 3", "Group 5"]   # Kerr: Group 4 now full
    play(st, "Group 5")
    roll(st, 1)
    assert man(st, "Hudson")["place"] == "in_camp" and man(st, "Hudson")["group"] == 4
    assert man(st, "Kerr")["place"] == "in_camp" and man(st, "Kerr")["group"] == 5


@pytest.mark.parametrize("name, die, fresh", [
    ("Wild", 5, True),          # Red Skill 5: a 5 flips him
    ("Wild", 4, False),         # a 4 beats his Blue 4 but not his Red 5
    ("Kerr", 5, False),         # Red 6 (Blue 3)
    ("Kerr", 6, True),
    ("Hudson", 5, False),       # no Skill Level when Red: only a 6
    ("Hudson", 6, True),
])
def test_shuf_04_recovery_roll_against_red_skill(name, die, fresh):
    """EN-SHUF-04: each recovered man rolls a die and turns Blue if it equals
    or beats his Skill Level.  Reading: the Red side's Skill Level; a man
    with none needs a 6."""
    st = setup_game()
    arrange(st, hand=[], main=[FILLER], discard=list(OLD_DISCARD), infirmary=[name])
    play(st, "Draw the cards")
    draw(st, FILLER)
    play(st, "Group 3")
    roll(st, die)
    info = man(st, name)
    assert info["place"] == "in_camp"
    assert info["side"] == ("fresh" if fresh else "demoralized")
    assert info["skill"] == (info["blue_skill"] if fresh else info["red_skill"])


def test_shuf_05_hard_choice_offered_at_every_shuffle_until_in():
    """EN-SHUF-05: at every shuffle the player may add The Hard Choice to
    the Deck.  Reading: never forced (declining leaves it set aside and it
    is offered again at the next shuffle); once added it is not offered
    again."""
    st = setup_game()
    trigger(st, "The Endurance Sinks")                 # an Event's shuffle
    assert labels(st) == [HARD_YES, HARD_NO]
    play(st, HARD_NO)
    assert "The Hard Choice" in st.pile("set_aside") and "The Hard Choice" not in st.pile("main")
    draw(st, FILLER)
    finish_turn(st)
    # an empty Deck's shuffle: offered again; taken this time
    arrange(st, hand=[], main=[FILLER], discard=list(OLD_DISCARD))
    play(st, "Draw the cards")
    draw(st, FILLER)
    until(st, lambda s: HARD_NO in labels(s))          # any man leaving the Infirmary
    assert labels(st) == [HARD_YES, HARD_NO]
    play(st, HARD_YES)
    assert "The Hard Choice" in st.pile("main") and "The Hard Choice" not in st.pile("set_aside")
    draw(st, OLD_DISCARD[0])
    finish_turn(st)
    # a third shuffle (The Hard Choice since drawn and discarded): no offer
    arrange(st, hand=[], main=[FILLER], discard=[*OLD_DISCARD, "The Hard Choice"])
    play(st, "Draw the cards")
    draw(st, FILLER)
    seen = until(st, lambda s: s.current_player == CHANCE and labels(s)[0].startswith("draw"))
    assert HARD_YES not in seen and HARD_NO not in seen
    assert st.pile("discard") == []


# ------------------------------------------------------------------ Lifeboats

def test_boat_01_lifeboat_deck_comes_in_with_the_event():
    """EN-BOAT-01: the 18 Lifeboat cards stay apart (untouched by earlier
    shuffles) until the Lifeboats event is resolved; then the boats are
    boarded and dealt their cards from that deck."""
    st = setup_game()
    trigger(st, "Patience Camp")
    play(st, *in_supply(st)[:4], HARD_NO)
    assert len(st.pile("lifeboat_deck")) == 18
    assert not any(c in st.pile("main") for c in ("Bail Out", "Gale", "Rogue Wave"))
    assert all(boat(st, b)["done"] == 0 for b in BOATS)
    st = boat_game(ROWERS)
    assert labels(st) == list(BOATS)                  # boarding
    board(st, JC)
    assert sorted(l[5:] for l in labels(st)) == sorted(set(GAME_LIFEBOAT_CARDS))
    draw(st, "Heavy Swell", "Gale", "Gale")
    assert len(st.pile("lifeboat_deck")) == 15


def test_boat_02_every_man_boards_keeping_his_side():
    """EN-BOAT-02: each living man goes into the boat the player picks, on
    the side he was.  Reading: men in the Infirmary board too (Red), and
    are back in the Infirmary when the boats come through."""
    st = boat_game(["Wild", "Worsley", "Hudson", "Crean"], demoralized=["Hudson"],
                   infirmary=["Kerr"])
    boats = {"Wild": JC, "Worsley": DD, "Crean": JC, "Hudson": JC, "Kerr": JC}
    asked = []
    for name in living(st):
        assert labels(st) == list(BOATS)
        play(st, boats[name])
        asked.append(name)
    assert sorted(asked) == sorted(boats)
    for name, b in boats.items():
        assert man(st, name)["boat"] == BOATS.index(b) + 1
    assert man(st, "Hudson")["side"] == "demoralized" and man(st, "Kerr")["side"] == "demoralized"
    assert man(st, "Wild")["side"] == "fresh" and man(st, "Worsley")["side"] == "fresh"
    assert [boat(st, b)["aboard"] for b in BOATS] == [5, 1, 0]   # with Shackleton's seat
    # The James Caird (Shackleton, Wild, Crean: three dice) finishes on Day
    # 2; the Dudley Docker (Worsley) does not.
    run(st, "Heavy Swell", "Gale", "Gale",
        6, 6, 6, "Heavy Swell", "Heavy Swell", "Rogue Wave",   # Day 1: JC 3 done
        2,                                                      # DD
        6, 6, 1, "Rogue Wave",                                  # Day 2: JC done
        2, 2)                                                   # DD, Day 3: DD
    assert man(st, "Kerr")["place"] == "infirmary" and man(st, "Kerr")["side"] == "demoralized"
    assert man(st, "Hudson")["place"] == "in_camp" and man(st, "Hudson")["side"] == "demoralized"
    assert man(st, "Wild")["side"] == "fresh"
    assert man(st, "Worsley")["place"] == "drowned"


def test_boat_03_no_man_left_behind():
    """EN-BOAT-03: boarding offers only the boats: there is no way to leave a
    man behind, every living man is asked for, and all of them come through
    in a boat that finishes."""
    st = boat_game(ROWERS + ["Hudson"], demoralized=["Hudson"], infirmary=["Kerr"])
    count = 0
    for _name in living(st):
        assert set(labels(st)) <= set(BOATS)
        play(st, JC)
        count += 1
    assert count == 6
    assert labels(st)[0].startswith("draw")           # nothing else asked
    run(st, *jc_alone())
    for name in ROWERS + ["Hudson"]:
        assert man(st, name)["place"] == "in_camp"
    assert man(st, "Kerr")["place"] == "infirmary"


def test_boat_04_boat_spaces_and_cargo():
    """EN-BOAT-04 (data): the boats have 14, 13 and 12 spaces (designed,
    as tuned), Shackleton taking one in the James Caird: with all 27 men
    the James Caird is full after thirteen of them, the Dudley Docker after
    thirteen more, and the Stancomb Wills, with the last man, keeps eleven
    empty spaces, which carry the four Dogs, Mrs Chippy and the six
    Resources of the Supply."""
    assert [GAME.prog.piece_attr["boats"]["spaces"][i] for i in range(3)] == [14, 13, 12]
    st = setup_game()                                    # all 27 men alive
    trigger(st, "Lifeboats")
    men = living(st)
    assert len(men) == 27
    for i, _name in enumerate(men):
        offered = labels(st)
        if i < 13:
            assert offered == list(BOATS)
            play(st, JC)
        elif i < 26:
            assert offered == [DD, SW]
            play(st, DD)
        else:
            assert offered == [SW]
            play(st, SW)
    assert [boat(st, b)["aboard"] for b in BOATS] == [14, 13, 1]
    cargo = [a for a in ANIMALS if animal(st, a)["present"]] + in_supply(st)
    assert len(cargo) == 11
    for _name in cargo:                                  # Dogs A-D, Mrs Chippy, six Resources
        assert labels(st) == [TAKE, LEAVE]
        play(st, TAKE)
        assert labels(st) == [SW]
        play(st, SW)
    assert animal(st, "Dogs A")["boat"] == 3
    assert supply(st, "Pemmican 1")["boat"] == 3
    assert boat(st, SW)["aboard"] == 12
    assert st.current_player == CHANCE


def test_boat_05_no_room_removed():
    """EN-BOAT-05: an animal or Resource for which there is no room (the
    boats full), or which is left, is removed from the game.  All 27 men
    aboard leave eleven spaces (designed, as tuned): with a full Supply of
    twelve Resources, Dogs B left, the other Dogs and Mrs Chippy aboard,
    seven Resources fill the boats and the last five have no room."""
    st = setup_game()
    full = SUPPLIES[:12]
    trigger(st, "Lifeboats", supply=full)
    play(st, *[JC] * 13, *[DD] * 13, SW)
    play(st, TAKE, SW, LEAVE, TAKE, SW, TAKE, SW)        # Dogs A aboard, Dogs B left, C, D aboard
    play(st, TAKE, SW)                                   # Mrs Chippy
    for _ in range(7):                                   # seven Resources fill the last spaces
        assert labels(st) == [TAKE, LEAVE]
        play(st, TAKE, SW)
    assert boat(st, SW)["aboard"] == 12
    for _ in range(5):                                   # no room for the last five
        assert labels(st) == [LEAVE]
        play(st, LEAVE)
    assert [animal(st, a)["present"] for a in ANIMALS] == [True, False, True, True, True]
    assert [supply(st, r)["boat"] for r in full[:7]] == [3] * 7
    assert [supply(st, r)["at"] for r in full[7:]] == ["removed"] * 5
    assert in_supply(st) == sorted(full[:7])
    assert st.current_player == CHANCE


def test_boat_06_three_stacks_of_five_three_unused():
    """EN-BOAT-06: each boat is dealt one card before any die is rolled and
    gets five in all; when every boat finishes, 15 Lifeboat cards have been
    used and 3 are left unused."""
    st = full_boat_game()
    crews_board(st)
    run(st, "Heavy Swell", "Bail Out", "Row Hard")
    assert st.current_player == CHANCE and labels(st)[0].startswith("roll")
    assert len(st.pile("lifeboat_deck")) == 15
    run(st, *FULL_RUN[3:])
    assert done(st) == (5, 5, 5)
    assert sorted(st.pile("lifeboat_deck")) == ["Ice Floes", "Ice Floes", "Night Watch"]
    assert sum(1 for c in st.pile("box") if c in GAME_LIFEBOAT_CARDS) == 15


def test_boat_07_three_days_boats_in_order():
    """EN-BOAT-07: three Days, each a turn for the James Caird, the Dudley
    Docker and the Stancomb Wills in that order: with one, two and three
    rowers, the dice go 1, 2, 3 three times, and no more."""
    st = boat_game(["Wild", "Worsley", "Crean", "Greenstreet", "Hussey"])
    board(st, {"Wild": DD, "Worsley": DD, "Crean": SW, "Greenstreet": SW, "Hussey": SW})
    run(st, "Rogue Wave", "Rogue Wave", "Gale", *[2] * 18)
    assert [len(p) for p in pools(st)] == [1, 2, 3] * 3
    assert st.is_over                                   # nothing done: all lost


def test_boat_07_first_die_is_the_james_caird():
    """EN-BOAT-07: the first die of Day 1 is the James Caird's: a 6 finishes
    its card, not another boat's."""
    st = boat_game(["Wild", "Worsley"])
    board(st, {"Wild": DD, "Worsley": SW})
    draw(st, "Heavy Swell", "Heavy Swell", "Heavy Swell")
    roll(st, 6)
    assert done(st) == (1, 0, 0)


def test_boat_08_only_fresh_men_roll():
    """EN-BOAT-08: on its turn a boat rolls one die per Fresh man in it; Red
    men roll nothing."""
    st = boat_game(["Wild", "Worsley", "Crean", "Hudson", "Kerr"], demoralized=["Hudson", "Kerr"])
    board(st, {"Wild": DD, "Hudson": DD, "Kerr": DD, "Worsley": SW, "Crean": SW})
    run(st, "Rogue Wave", "Rogue Wave", "Gale", *[2] * 12)
    assert [len(p) for p in pools(st)] == [1, 1, 2] * 3


def test_boat_09_shackleton_always_fresh():
    """EN-BOAT-09: Shackleton counts as Fresh: the James Caird rolls a die
    for him every turn, even with only Red men (or no one else) aboard."""
    st = boat_game(["Wild", "Hudson"], demoralized=["Hudson"])
    board(st, {"Wild": SW, "Hudson": JC})
    run(st, "Heavy Swell", "Heavy Swell", "Heavy Swell", *[2] * 6)
    assert [len(p) for p in pools(st)] == [1, 0, 1] * 3


def test_boat_10_lifeboat_card_data():
    """EN-BOAT-10 (data): the 18 Lifeboat cards as designed: each asks for a
    number of dice showing at least a value."""
    props = GAME.prog.card_props
    found = {}
    for name in set(GAME_LIFEBOAT_CARDS):
        cid = GAME.prog.card_by_name[name]
        found[name] = (props["need"][cid], props["at_least"][cid])
    assert found == {"Bail Out": (2, 2), "Row Hard": (2, 3), "Heavy Swell": (1, 4),
                     "Rogue Wave": (1, 5), "Ice Floes": (3, 2), "Night Watch": (2, 2),
                     "Gale": (2, 4)}
    assert sorted(setup_game().pile("lifeboat_deck")) == sorted(GAME_LIFEBOAT_CARDS)


@pytest.mark.parametrize("card, dice, completed", [
    ("Row Hard", (3, 2, 1), False),       # two dice of 3+ needed, one given
    ("Row Hard", (3, 6, 1), True),
    ("Gale", (4, 3, 3), False),
    ("Gale", (4, 4, 1), True),
    ("Rogue Wave", (4, 4, 4), False),
    ("Ice Floes", (2, 2, 1), False),
    ("Ice Floes", (2, 2, 2), True),
])
def test_boat_10_matching_dice_complete_the_card(card, dice, completed):
    """EN-BOAT-10: dice of the card's type are spent to complete it; dice
    that do not match leave it in place.  The James Caird rolls three dice
    (Shackleton, Wild, Crean)."""
    st = boat_game(["Wild", "Crean"])
    board(st, JC)
    draw(st, card, "Night Watch", "Night Watch")
    roll(st, *dice)
    assert done(st)[0] == (1 if completed else 0)


def test_boat_10_lowest_fitting_dice_spent():
    """EN-BOAT-10: reading: a card is paid with the lowest dice that fit,
    so the James Caird's Row Hard takes its two 4s and the 6 goes on to
    finish the Dudley Docker's Rogue Wave (no one aboard to roll)."""
    st = boat_game(["Wild", "Crean"])
    board(st, JC)
    draw(st, "Row Hard", "Rogue Wave", "Night Watch")
    roll(st, 6, 4, 4)
    assert done(st) == (1, 0, 0)
    draw(st, "Ice Floes")                                # JC's next: the 6 alone won't do
    assert done(st) == (1, 1, 0)


def test_boat_11_several_cards_in_one_turn():
    """EN-BOAT-11: a boat completes several cards in one turn, one after
    another from the top of its stack: three 6s finish three one-die cards
    in the James Caird's first turn."""
    st = boat_game(["Wild", "Crean"])
    board(st, JC)
    draw(st, "Heavy Swell", "Gale", "Gale")
    roll(st, 6, 6, 6)
    assert done(st) == (1, 0, 0)
    draw(st, "Rogue Wave")
    assert done(st) == (2, 0, 0)
    draw(st, "Heavy Swell")
    assert done(st) == (3, 0, 0)
    assert len(pools(st)) == 1                           # still the James Caird's turn
    draw(st, "Bail Out")                                 # its fourth card: no dice left
    assert done(st) == (3, 0, 0)
    assert pools(st)[1:] == [(), ()]                      # the others' turns (no one aboard)


def test_boat_12_unspent_dice_pass_on():
    """EN-BOAT-12: unspent dice pass to the next boat with their faces and
    are used with its own roll: the James Caird's lone 4 and the Dudley
    Docker's 5 finish the Dudley Docker's Row Hard.  Reading: the Stancomb
    Wills's leftovers go on to the James Caird the next Day."""
    st = boat_game(["Wild", "Worsley"])
    board(st, {"Wild": DD, "Worsley": SW})
    draw(st, "Row Hard", "Row Hard", "Row Hard")
    roll(st, 4)                                          # JC (Shackleton): Row Hard needs two
    assert done(st) == (0, 0, 0)
    roll(st, 5)                                          # DD: the 4 handed on + 5
    assert done(st) == (0, 1, 0)
    draw(st, "Gale")
    roll(st, 4)                                          # SW: one 4, unspent
    assert done(st) == (0, 1, 0)
    roll(st, 4)                                          # Day 2, JC: the SW's 4 + its 4
    assert done(st) == (1, 1, 0)


def test_boat_12_spent_dice_do_not_pass():
    """EN-BOAT-12: only the dice left unspent go on: the James Caird spends
    its 6 on its card, so the Dudley Docker's lone 2 finds nothing to go
    with."""
    st = boat_game(["Wild"])
    board(st, {"Wild": DD})
    draw(st, "Heavy Swell", "Heavy Swell", "Rogue Wave")
    roll(st, 6)
    draw(st, "Row Hard")
    roll(st, 2)
    assert done(st) == (1, 0, 0)


def test_boat_13_finished_boat_passes_nothing_and_stops():
    """EN-BOAT-13: a boat that has done its fifth card hands no dice on:
    the James Caird's eight 6s do its five cards (seven dice) and the spare
    6 is lost, so the Dudley Docker's Heavy Swell is not done with it.
    Reading: a finished boat takes no more turns (no more dice)."""
    jc = ROWERS + ["Hussey", "Clark", "Hurley"]
    st = boat_game(jc + ["Kerr"])
    board(st, {**{n: JC for n in jc}, "Kerr": DD})
    run(st, "Heavy Swell", "Heavy Swell", "Rogue Wave",
        *[6] * 8, "Heavy Swell", "Rogue Wave", "Bail Out", "Bail Out")
    assert done(st) == (5, 0, 0)
    roll(st, 2)                                          # DD: Kerr's 2 alone
    assert done(st) == (5, 0, 0)
    run(st, 2, 2)                                        # Day 2: DD; Day 3: DD
    assert [len(p) for p in pools(st)] == [8, 1, 0, 1, 0, 1, 0]
    assert not st.is_over and boat(st, DD)["lost"]


def test_boat_14_unfinished_boat_lost_at_sea():
    """EN-BOAT-14: a boat that has not done its five cards after the third
    Day is Lost at Sea with its men (drowned), its Resources and its
    animals; the other boats' men, Resources and animals come through."""
    st = boat_game(ROWERS + ["Hussey"], supply=["Book", "Pemmican 1"], dogs=2)
    board(st, {**{n: JC for n in ROWERS}, "Hussey": DD},
          cargo={"Dogs A": DD, "Dogs B": JC, "Book": DD, "Pemmican 1": JC})
    run(st, *jc_alone(), 2, 2, 2)                  # DD: Hussey's 2s do nothing, three Days
    assert boat(st, DD)["lost"] and not boat(st, JC)["lost"]
    assert man(st, "Hussey")["place"] == "drowned"
    assert animal(st, "Dogs A")["present"] is False
    assert supply(st, "Book")["at"] == "removed"
    assert all(man(st, n)["place"] == "in_camp" for n in ROWERS)
    assert animal(st, "Dogs B")["present"] is True
    assert supply(st, "Pemmican 1")["at"] == "in_supply"
    assert not st.is_over


def test_boat_14_finishing_on_day_three_is_enough():
    """EN-BOAT-14: a boat that does its fifth card on the third Day comes
    through."""
    st = boat_game(["Wild"])
    board(st, JC)
    # JC: Shackleton and Wild, two dice a Day; five one-die cards.
    run(st, "Heavy Swell", "Gale", "Gale",
        6, 6, "Heavy Swell", "Heavy Swell",               # Day 1: two done
        6, 6, "Rogue Wave", "Rogue Wave",                  # Day 2: four done
        6, 1)                                              # Day 3: five
    assert not boat(st, JC)["lost"] and not st.is_over
    assert man(st, "Wild")["place"] == "in_camp"


def test_boat_15_survivors_regroup_and_cargo_returns():
    """EN-BOAT-15: the survivors of all three boats are put in the Groups in
    any order the player likes.  Reading: the Resources and animals carried
    in boats that came through are back in the Supply and in play."""
    st = full_boat_game(supply=["Book", "Pemmican 1", "Meat 1"], dogs=1, chippy=True)
    crews_board(st, cargo={"Dogs A": DD, "Mrs Chippy": SW, "Book": JC, "Meat 1": SW})
    run(st, *FULL_RUN)
    assert done(st) == (5, 5, 5)
    order = [n for n in CREW if man(st, n)["place"] == "in_camp"]
    assert sorted(order) == sorted(n for men in CREWS.values() for n in men)
    wanted = {n: 1 + i % 5 for i, n in enumerate(order)}
    regroup(st, wanted)
    for n, g in wanted.items():
        assert man(st, n)["group"] == g
    assert in_supply(st) == ["Book", "Meat 1"]
    assert supply(st, "Pemmican 1")["at"] == "removed"
    assert animal(st, "Dogs A")["present"] and animal(st, "Mrs Chippy")["present"]
    assert all(man(st, n)["boat"] == 0 for n in CREW)
